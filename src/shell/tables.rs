//! Built-in knowledge, as data: wrappers, shells, variables that change what runs, the
//! known-safe read-only commands with their argument conditions, the command arity used for
//! "always" patterns, and the prefixes an "always" approval may never grant wholesale.

use super::{program_name, Word, WrapperKind};

/// How to find the command inside a wrapper.
pub(crate) struct WrapperSpec {
    pub name: &'static str,
    /// Options that take a separate value (`-u bob`).
    pub value_flags: &'static [&'static str],
    /// Operands between the options and the command (`timeout 5 cmd`: 1).
    pub positionals: usize,
    pub kind: WrapperKind,
}

const T: WrapperKind = WrapperKind::Transparent;
const P: WrapperKind = WrapperKind::Privileged;

#[rustfmt::skip]
static WRAPPERS: &[WrapperSpec] = &[
    WrapperSpec { name: "sudo", kind: P, positionals: 0, value_flags: &["-u", "-g", "-h", "-p", "-r", "-t", "-C", "-D", "-U", "-T", "-R", "--user", "--group", "--host", "--prompt", "--role", "--type", "--close-from", "--chdir", "--other-user", "--command-timeout", "--chroot"] },
    WrapperSpec { name: "doas", kind: P, positionals: 0, value_flags: &["-u", "-C"] },
    WrapperSpec { name: "su", kind: P, positionals: 0, value_flags: &["-s", "-g", "-G", "--shell", "--group", "--supp-group", "-w", "--whitelist-environment"] },
    WrapperSpec { name: "runuser", kind: P, positionals: 0, value_flags: &["-u", "-s", "-g", "-G", "--user", "--shell", "--group"] },
    WrapperSpec { name: "chroot", kind: P, positionals: 1, value_flags: &["--userspec", "--groups"] },
    WrapperSpec { name: "nice", kind: T, positionals: 0, value_flags: &["-n", "--adjustment"] },
    WrapperSpec { name: "nohup", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "timeout", kind: T, positionals: 1, value_flags: &["-s", "--signal", "-k", "--kill-after"] },
    WrapperSpec { name: "time", kind: T, positionals: 0, value_flags: &["-f", "--format"] },
    WrapperSpec { name: "command", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "builtin", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "exec", kind: T, positionals: 0, value_flags: &["-a"] },
    WrapperSpec { name: "stdbuf", kind: T, positionals: 0, value_flags: &["-i", "-o", "-e", "--input", "--output", "--error"] },
    WrapperSpec { name: "xargs", kind: T, positionals: 0, value_flags: &["-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a", "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-lines", "--max-chars", "--replace", "--eof", "--process-slot-var"] },
    WrapperSpec { name: "setsid", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "ionice", kind: T, positionals: 0, value_flags: &["-c", "-n", "--class", "--classdata"] },
    WrapperSpec { name: "taskset", kind: T, positionals: 1, value_flags: &[] },
    WrapperSpec { name: "flock", kind: T, positionals: 1, value_flags: &["-w", "-E", "--timeout", "--conflict-exit-code"] },
    WrapperSpec { name: "unbuffer", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "busybox", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "toybox", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "pkexec", kind: P, positionals: 0, value_flags: &["--user"] },
    WrapperSpec { name: "gosu", kind: P, positionals: 1, value_flags: &[] },
    WrapperSpec { name: "su-exec", kind: P, positionals: 1, value_flags: &[] },
    WrapperSpec { name: "setpriv", kind: P, positionals: 0, value_flags: &["--reuid", "--regid", "--groups", "--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--selinux-label", "--apparmor-profile"] },
    WrapperSpec { name: "nsenter", kind: P, positionals: 0, value_flags: &["-t", "--target", "-S", "-G", "--setuid", "--setgid", "-w", "-r"] },
    WrapperSpec { name: "unshare", kind: T, positionals: 0, value_flags: &["--propagation", "--setgroups", "-S", "-G", "--setuid", "--setgid", "-R", "--root", "-w", "--wd"] },
    WrapperSpec { name: "systemd-run", kind: T, positionals: 0, value_flags: &["-p", "--property", "-u", "--unit", "-E", "--setenv", "--slice", "--description", "-M", "--machine", "-H", "--host", "--uid", "--gid", "--working-directory", "--on-calendar", "--on-active"] },
    WrapperSpec { name: "script", kind: T, positionals: 0, value_flags: &["-E", "--echo", "-O", "--log-out", "-I", "--log-in", "-T", "--log-timing", "-m", "--logging-format", "-o", "--output-limit"] },
    WrapperSpec { name: "sg", kind: P, positionals: 1, value_flags: &[] },
    WrapperSpec { name: "firejail", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "proxychains", kind: T, positionals: 0, value_flags: &["-f"] },
    WrapperSpec { name: "proxychains4", kind: T, positionals: 0, value_flags: &["-f"] },
    WrapperSpec { name: "torsocks", kind: T, positionals: 0, value_flags: &["-u", "-p", "-a", "-P"] },
    WrapperSpec { name: "chronic", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "catchsegv", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "faketime", kind: T, positionals: 1, value_flags: &["-m", "-f"] },
    WrapperSpec { name: "dbus-run-session", kind: T, positionals: 0, value_flags: &["--config-file", "--dbus-daemon"] },
    WrapperSpec { name: "xvfb-run", kind: T, positionals: 0, value_flags: &["-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file", "-p", "--xauth-protocol"] },
    WrapperSpec { name: "caffeinate", kind: T, positionals: 0, value_flags: &["-t", "-w"] },
    WrapperSpec { name: "chpst", kind: P, positionals: 0, value_flags: &["-u", "-U", "-e", "-/", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c", "-r", "-t"] },
];

pub(crate) fn wrapper(name: &str) -> Option<&'static WrapperSpec> {
    WRAPPERS.iter().find(|w| w.name == name)
}

/// Shells whose `-c` string is parsed again, and whose script or stdin gate cannot see.
pub(crate) fn is_shell(name: &str) -> bool {
    matches!(name, "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "mksh" | "yash" | "busybox-sh" | "rbash")
}

/// Variables that change what a command runs (SPEC 3.3). Setting one makes a command unknown.
pub fn is_dangerous_variable(name: &str) -> bool {
    const EXACT: &[&str] = &[
        "PATH",
        "BASH_ENV",
        "ENV",
        "IFS",
        "SHELLOPTS",
        "BASHOPTS",
        "PS4",
        "PROMPT_COMMAND",
        "CDPATH",
        "GIT_EXTERNAL_DIFF",
        "GIT_EXEC_PATH",
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_CONFIG",
        "GIT_CONFIG_GLOBAL",
        "GIT_CONFIG_SYSTEM",
        "GIT_CONFIG_PARAMETERS",
        "GIT_CONFIG_COUNT",
        "GIT_PAGER",
        "GIT_EDITOR",
        "GIT_ASKPASS",
        "GIT_TEMPLATE_DIR",
        "PAGER",
        "EDITOR",
        "VISUAL",
        "MANPAGER",
        "LESSOPEN",
        "LESSCLOSE",
        "NODE_OPTIONS",
        "NODE_PATH",
        "PERL5OPT",
        "PERL5LIB",
        "PERLLIB",
        "RUBYOPT",
        "RUBYLIB",
        "JAVA_TOOL_OPTIONS",
        "_JAVA_OPTIONS",
        "JDK_JAVA_OPTIONS",
        "CLASSPATH",
        "GEM_PATH",
        "GEM_HOME",
        "BUNDLE_GEMFILE",
        "RUSTC_WRAPPER",
        "RUSTC",
        "RUSTFLAGS",
        "RUSTDOCFLAGS",
        "CARGO_HOME",
        "CARGO_BUILD_RUSTC_WRAPPER",
        "CARGO_TARGET_DIR",
        "CC",
        "CXX",
        "LD",
        "MAKEFLAGS",
        "NPM_CONFIG_PREFIX",
        "npm_config_script_shell",
        "SHELL",
        "TERMINFO",
        "HOME",
        "XDG_CONFIG_HOME",
        "ZDOTDIR",
        "SSH_ASKPASS",
        "SUDO_ASKPASS",
        "BROWSER",
        "TMPDIR",
        "LOCPATH",
        "GCONV_PATH",
        "HOSTALIASES",
        "RESOLV_HOST_CONF",
        "MALLOC_CHECK_",
    ];
    const PREFIXES: &[&str] = &[
        "LD_",
        "DYLD_",
        "PYTHON",
        "GIT_CONFIG_KEY_",
        "GIT_CONFIG_VALUE_",
        "BASH_FUNC_",
        "CARGO_TARGET_",
        "CARGO_REGISTRIES_",
        "NPM_CONFIG_",
        "npm_config_",
    ];
    if EXACT.contains(&name) || PREFIXES.iter().any(|p| name.starts_with(p)) {
        return true;
    }
    // GIT_*_COMMAND (GIT_SSH_COMMAND, GIT_PROXY_COMMAND, ...) and GIT_SSH.
    (name.starts_with("GIT_") && (name.ends_with("_COMMAND") || name == "GIT_SSH")) || name.ends_with("_COMMAND")
}

/// Read-only git subcommands, each with the options that would make it write or run code.
#[rustfmt::skip]
static GIT_READ: &[(&str, &[&str])] = &[
    ("status", &[]), ("log", &["--output"]), ("diff", &["--output", "--ext-diff"]), ("show", &["--output", "--ext-diff"]),
    ("rev-parse", &[]), ("ls-files", &[]), ("ls-tree", &[]), ("blame", &[]), ("shortlog", &[]), ("describe", &[]),
    ("grep", &["-O", "--open-files-in-pager"]), ("cat-file", &[]), ("merge-base", &[]), ("name-rev", &[]),
    ("rev-list", &[]), ("show-ref", &[]), ("count-objects", &[]), ("for-each-ref", &[]), ("check-ignore", &[]),
    ("whatchanged", &["--output"]), ("version", &[]), ("diff-tree", &["--output", "--ext-diff"]),
    ("diff-files", &["--output"]), ("diff-index", &["--output"]), ("show-branch", &[]), ("var", &[]),
    ("check-attr", &[]), ("verify-commit", &[]), ("verify-tag", &[]), ("cherry", &[]), ("range-diff", &["--output"]),
];

/// Whether a git invocation only reads. Global options before the subcommand (`-C`, `-c`,
/// `--git-dir`, ...) can redirect or reconfigure git, so any of them makes it not known-safe.
fn git_read_only(args: &[&str]) -> bool {
    let Some(sub) = args.first() else { return true }; // `git` alone prints help
    let rest = &args[1..];
    let has = |flags: &[&str]| {
        rest.iter().any(|a| {
            flags.iter().any(|f| a == f || a.starts_with(&format!("{f}=")) || (f.len() == 2 && a.starts_with(f)))
        })
    };
    if let Some((_, bad)) = GIT_READ.iter().find(|(s, _)| s == sub) {
        return !has(bad) && !rest.iter().any(|a| a.starts_with("--output") || a.starts_with("--ext-diff"));
    }
    match *sub {
        "branch" => rest.iter().all(|a| {
            matches!(
                *a,
                "-a" | "--all"
                    | "-r"
                    | "--remotes"
                    | "-v"
                    | "-vv"
                    | "--verbose"
                    | "-l"
                    | "--list"
                    | "--show-current"
                    | "--no-color"
                    | "--color"
            ) || a.starts_with("--contains")
                || a.starts_with("--merged")
                || a.starts_with("--no-merged")
                || a.starts_with("--sort")
                || a.starts_with("--format")
        }),
        "tag" => {
            rest.is_empty()
                || rest.iter().all(|a| {
                    matches!(*a, "-l" | "--list" | "-n")
                        || a.starts_with("--sort")
                        || a.starts_with("--contains")
                        || a.starts_with("--points-at")
                }) && rest.iter().any(|a| matches!(*a, "-l" | "--list"))
                || rest.is_empty()
        }
        "remote" => rest.is_empty() || matches!(rest, ["-v"] | ["--verbose"] | ["get-url", _] | ["show", _] | ["show"]),
        "stash" => matches!(rest.first(), Some(&"list") | Some(&"show")),
        "config" => {
            rest.iter().any(|a| matches!(*a, "--get" | "--get-all" | "--list" | "-l" | "--get-regexp"))
                && !rest.iter().any(|a| {
                    matches!(
                        *a,
                        "--add"
                            | "--unset"
                            | "--unset-all"
                            | "--replace-all"
                            | "--rename-section"
                            | "--remove-section"
                            | "-e"
                            | "--edit"
                    )
                })
        }
        "reflog" => rest.is_empty() || rest.first() == Some(&"show"),
        "worktree" => rest == ["list"],
        "submodule" => rest.is_empty() || rest.first() == Some(&"status"),
        _ => false,
    }
}

/// Git global options and whether each takes a separate value.
const GIT_GLOBALS_WITH_VALUE: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--exec-path",
    "--config-env",
    "--super-prefix",
    "--list-cmds",
    "--attr-source",
];

/// Alternative spellings of a command for deny and ask rules: git without its global options.
pub(crate) fn aliases(words: &[Word]) -> Vec<Vec<Word>> {
    let mut out = Vec::new();
    if words.first().and_then(Word::lit).map(program_name) == Some("git") {
        let mut i = 1;
        while let Some(Word::Lit(s)) = words.get(i) {
            if !s.starts_with('-') {
                break;
            }
            if GIT_GLOBALS_WITH_VALUE.contains(&s.as_str()) {
                i += 1;
            }
            i += 1;
        }
        if i > 1 && i <= words.len() {
            let mut w = vec![words[0].clone()];
            w.extend_from_slice(&words[i..]);
            out.push(w);
        }
    }
    out
}

/// How a known-safe command's arguments are checked.
enum Args {
    /// Any arguments: the command only reads and prints.
    Any,
    /// Any arguments except these options (exact, or `--opt=` forms).
    Without(&'static [&'static str]),
    /// No arguments at all (`hostname` with an argument sets the name).
    None,
    /// A check of its own.
    Custom(fn(&[&str]) -> bool),
}

#[rustfmt::skip]
static SAFE: &[(&str, Args)] = &[
    ("ls", Args::Any), ("cat", Args::Any), ("head", Args::Any), ("tail", Args::Any), ("wc", Args::Any),
    ("echo", Args::Any), ("printf", Args::Any), ("pwd", Args::Any), ("true", Args::Any), ("false", Args::Any),
    ("grep", Args::Any), ("egrep", Args::Any), ("fgrep", Args::Any), ("rg", Args::Without(&["--pre", "--pre-glob", "--search-zip", "-z"])),
    ("which", Args::Any), ("whoami", Args::Any), ("id", Args::Any), ("uname", Args::Any), ("basename", Args::Any),
    ("dirname", Args::Any), ("realpath", Args::Any), ("readlink", Args::Any), ("stat", Args::Any),
    ("file", Args::Without(&["-C", "--compile"])), ("du", Args::Any), ("df", Args::Any), ("printenv", Args::Any),
    ("test", Args::Any), ("[", Args::Any), ("diff", Args::Any), ("cmp", Args::Any), ("cut", Args::Any), ("tr", Args::Any),
    ("nl", Args::Any), ("seq", Args::Any), ("sleep", Args::Any), ("jq", Args::Any), ("md5sum", Args::Any),
    ("sha1sum", Args::Any), ("sha256sum", Args::Any), ("sha512sum", Args::Any), ("cksum", Args::Any), ("comm", Args::Any),
    ("paste", Args::Any), ("fold", Args::Any), ("expand", Args::Any), ("unexpand", Args::Any), ("rev", Args::Any), ("tac", Args::Any),
    ("od", Args::Any), ("hexdump", Args::Any), ("strings", Args::Any), ("base64", Args::Any), ("column", Args::Any),
    ("tree", Args::Without(&["-o"])), ("type", Args::Any), ("whereis", Args::Any), ("ps", Args::Any), ("free", Args::Any),
    ("uptime", Args::Any), ("nproc", Args::Any), ("locale", Args::Any), ("tee", Args::Any), ("cd", Args::Any),
    ("pushd", Args::Any), ("popd", Args::Any), ("dirs", Args::Any), (":", Args::Any), ("exit", Args::Any), ("return", Args::Any),
    ("break", Args::Any), ("continue", Args::Any), ("shift", Args::Any), ("set", Args::Any), ("export", Args::Any),
    ("unset", Args::Any), ("local", Args::Any), ("declare", Args::Any), ("typeset", Args::Any), ("readonly", Args::Any),
    ("read", Args::Any), ("wait", Args::Any), ("shopt", Args::Any), ("hash", Args::Any), ("getopts", Args::Any),
    ("date", Args::Without(&["-s", "--set"])), ("hostname", Args::None), ("env", Args::None),
    ("sort", Args::Without(&["-o", "--output", "--compress-program"])), ("uniq", Args::Custom(uniq_read_only)),
    ("find", Args::Without(&["-delete", "-fprint", "-fprint0", "-fprintf", "-fls", "-exec", "-execdir", "-ok", "-okdir"])),
    ("sed", Args::Custom(sed_read_only)), ("git", Args::Custom(git_read_only)),
    ("command", Args::Custom(|a| matches!(a.first(), Some(&"-v") | Some(&"-V")))),
];

fn uniq_read_only(args: &[&str]) -> bool {
    // `uniq IN OUT` writes OUT.
    args.iter().filter(|a| !a.starts_with('-')).count() <= 1
}

/// `sed` only reads when it prints selected lines: `-n` with scripts made of addresses and
/// `p`, no in-place edit, no script file.
fn sed_read_only(args: &[&str]) -> bool {
    let mut quiet = false;
    let mut scripts = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = args[i];
        match a {
            "-n" | "--quiet" | "--silent" => quiet = true,
            "-e" | "--expression" => {
                i += 1;
                scripts.push(args.get(i).copied().unwrap_or(""));
            }
            "-E" | "-r" | "--regexp-extended" | "-u" | "--unbuffered" | "-z" | "--null-data" | "-s" | "--separate" => {}
            _ if a.starts_with('-') => return false, // -i, -f, --in-place, unknown
            _ => {
                if scripts.is_empty() && !args[..i].iter().any(|x| *x == "-e" || *x == "--expression") {
                    scripts.push(a);
                }
            }
        }
        i += 1;
    }
    quiet
        && !scripts.is_empty()
        && scripts.iter().all(|s| s.chars().all(|c| c.is_ascii_digit() || " ,$;p{}!".contains(c)))
}

/// Whether a command (program and arguments) only reads: the known-safe list (SPEC 3.3).
/// `open_args`: more arguments are appended at run time, so only commands safe with any
/// arguments qualify.
pub fn is_read_only(words: &[Word], open_args: bool) -> bool {
    let Some(Word::Lit(first)) = words.first() else {
        return false;
    };
    let name = program_name(first);
    let Some((_, rule)) = SAFE.iter().find(|(n, _)| *n == name) else {
        return false;
    };
    if let Args::Any = rule {
        return true;
    }
    if open_args {
        return false;
    }
    let mut args = Vec::with_capacity(words.len());
    for w in &words[1..] {
        match w {
            Word::Lit(s) => args.push(s.as_str()),
            Word::Dyn(_) => return false,
        }
    }
    match rule {
        Args::Any => true,
        Args::None => args.is_empty(),
        Args::Without(bad) => {
            !args.iter().any(|a| bad.iter().any(|b| a == b || (b.starts_with("--") && a.starts_with(&format!("{b}=")))))
        }
        Args::Custom(f) => f(&args),
    }
}

/// How many words make "the command" for an "always" pattern (opencode's arity table):
/// `git checkout main` is `git checkout`, `npm run build` is `npm run build`.
#[rustfmt::skip]
static ARITY: &[(&str, usize)] = &[
    ("git", 2), ("npm", 2), ("pnpm", 2), ("yarn", 2), ("bun", 2), ("cargo", 2), ("docker", 2), ("kubectl", 2),
    ("go", 2), ("pip", 2), ("pip3", 2), ("uv", 2), ("poetry", 2), ("make", 2), ("gh", 3), ("brew", 2), ("apt", 2),
    ("apt-get", 2), ("systemctl", 2), ("terraform", 2), ("helm", 2), ("rustup", 2), ("dotnet", 2), ("mvn", 2),
    ("gradle", 2), ("composer", 2), ("bundle", 2), ("rails", 2), ("mix", 2), ("deno", 2),
    ("npm run", 3), ("pnpm run", 3), ("yarn run", 3), ("bun run", 3), ("docker compose", 3), ("git config", 3),
    ("git remote", 3), ("git stash", 3), ("cargo run", 2), ("kubectl config", 3), ("gh pr", 3), ("gh issue", 3),
];

/// The number of leading words of `words` that name the command.
pub fn arity_prefix_len(words: &[&str]) -> usize {
    if words.is_empty() {
        return 0;
    }
    // The longest table entry that prefixes the command decides; unknown programs are 1.
    let mut best = (0, 1);
    for (prefix, n) in ARITY {
        let p: Vec<&str> = prefix.split(' ').collect();
        if words.len() >= p.len() && words[..p.len()] == p[..] && p.len() > best.0 {
            best = (p.len(), *n);
        }
    }
    // Only count words that are not options: `git -v` is `git`.
    let n = words.iter().take(best.1).take_while(|w| !w.starts_with('-')).count();
    n.max(1)
}

/// Prefixes that an "always" (or session) approval may never grant wholesale: they run
/// arbitrary code or change privileges. For these only the exact command is stored.
pub static BANNED_PREFIXES: &[&str] = &[
    "python",
    "python2",
    "python3",
    "pypy",
    "node",
    "deno",
    "bun",
    "ruby",
    "perl",
    "php",
    "lua",
    "java",
    "osascript",
    "bash",
    "sh",
    "zsh",
    "dash",
    "ksh",
    "fish",
    "pwsh",
    "powershell",
    "cmd",
    "eval",
    "exec",
    "source",
    ".",
    "sudo",
    "doas",
    "su",
    "env",
    "xargs",
    "nohup",
    "nice",
    "timeout",
    "time",
    "command",
    "builtin",
    "stdbuf",
    "watch",
    "git",
    "npx",
    "pnpx",
    "bunx",
    "uvx",
    "ssh",
    "scp",
    "rsync",
    "docker",
    "kubectl",
    "find",
    "awk",
    "gawk",
    "sed",
    "make",
    "npm run",
    "cargo run",
    "chmod",
    "chown",
    "rm",
    "dd",
    "curl",
    "wget",
];

/// Whether a pattern prefix (`words`, the words before `*`) is banned from being stored.
pub fn is_banned_prefix(words: &[&str]) -> bool {
    let joined = words.join(" ");
    BANNED_PREFIXES.iter().any(|b| *b == joined || (words.len() == 1 && words[0] == *b))
        || words.first().is_some_and(|w| w.starts_with("python"))
}

/// Files a command writes through its arguments (beyond redirections): `tee F`, `cp A F`,
/// `sed -i ... F`, `sort -o F`, `git diff --output=F`, `curl -o F`, `dd of=F`. Each becomes an
/// edit of that path, so a deny rule on the path applies whatever command writes it.
pub(crate) fn write_targets(words: &[Word]) -> Vec<Word> {
    let Some(Word::Lit(first)) = words.first() else { return Vec::new() };
    let name = program_name(first);
    let args = &words[1..];
    let positional = || -> Vec<&Word> {
        let mut out = Vec::new();
        let mut after_dd = false;
        for w in args {
            match w.lit() {
                Some("--") if !after_dd => after_dd = true,
                Some(s) if !after_dd && s.starts_with('-') && s.len() > 1 => {}
                _ => out.push(w),
            }
        }
        out
    };
    let flag_value = |short: &[&str], long: &[&str]| -> Vec<Word> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < args.len() {
            if let Some(s) = args[i].lit() {
                if short.contains(&s) || long.contains(&s) {
                    if let Some(v) = args.get(i + 1) {
                        out.push(v.clone());
                    }
                    i += 2;
                    continue;
                }
                for l in long {
                    if let Some(v) = s.strip_prefix(&format!("{l}=")) {
                        out.push(Word::Lit(v.to_string()));
                    }
                }
                for sh in short {
                    if s.len() > sh.len() && s.starts_with(sh) && !s.starts_with("--") {
                        out.push(Word::Lit(s[sh.len()..].to_string()));
                    }
                }
            }
            i += 1;
        }
        out
    };
    match name {
        "tee" => positional().into_iter().cloned().collect(),
        "cp" | "mv" | "install" | "ln" | "rsync" | "scp" => {
            let mut t: Vec<Word> = flag_value(&["-t"], &["--target-directory"]);
            if t.is_empty() {
                t.extend(positional().last().map(|w| (*w).clone()));
            }
            if name == "mv" {
                // The sources are removed: editing them away is an edit too.
                let p = positional();
                t.extend(p.iter().take(p.len().saturating_sub(1)).map(|w| (*w).clone()));
            }
            t
        }
        "touch" | "truncate" | "mkdir" | "mkfifo" | "chmod" | "chown" | "chgrp" | "shred" | "unlink" => {
            let p = positional();
            // chmod/chown take the mode/owner first; truncate its size by flag.
            let skip = usize::from(matches!(name, "chmod" | "chown" | "chgrp"));
            p.into_iter().skip(skip).cloned().collect()
        }
        "sed" | "perl"
            if args.iter().any(|a| {
                a.lit().is_some_and(|s| {
                    s == "-i"
                        || s.starts_with("-i") && !s.starts_with("-i=")
                        || s.starts_with("--in-place")
                        || (s.starts_with('-') && !s.starts_with("--") && s.contains('i'))
                })
            }) =>
        {
            // The files after the script are rewritten in place.
            let p = positional();
            let has_e = args.iter().any(|a| a.lit().is_some_and(|s| s == "-e" || s == "--expression"));
            p.into_iter().skip(usize::from(!has_e)).cloned().collect()
        }
        "sort" => flag_value(&["-o"], &["--output"]),
        "git" => flag_value(&[], &["--output"]),
        "curl" => flag_value(&["-o"], &["--output"]),
        "wget" => flag_value(&["-O"], &["--output-document"]),
        "tree" => flag_value(&["-o"], &[]),
        "dd" => args
            .iter()
            .filter_map(|a| a.lit().and_then(|s| s.strip_prefix("of=")).map(|v| Word::Lit(v.to_string())))
            .collect(),
        _ => Vec::new(),
    }
}

/// Commands that read the files named by their arguments, and how many leading operands are
/// not files (`grep PATTERN FILE...`). Those reads are decided as calls of the read tool, so
/// a path outside the workspace or under a read deny rule is caught whatever program reads it.
#[rustfmt::skip]
static FILE_READERS: &[(&str, usize)] = &[
    ("cat", 0), ("head", 0), ("tail", 0), ("wc", 0), ("grep", 1), ("egrep", 1), ("fgrep", 1), ("rg", 1), ("ls", 0),
    ("stat", 0), ("file", 0), ("du", 0), ("diff", 0), ("cmp", 0), ("cut", 0), ("nl", 0), ("od", 0), ("hexdump", 0),
    ("strings", 0), ("base64", 0), ("md5sum", 0), ("sha1sum", 0), ("sha256sum", 0), ("sha512sum", 0), ("cksum", 0),
    ("comm", 0), ("paste", 0), ("fold", 0), ("expand", 0), ("unexpand", 0), ("rev", 0), ("tac", 0), ("column", 0),
    ("tree", 0), ("jq", 1), ("sort", 0), ("uniq", 0), ("sed", 1), ("find", 0), ("readlink", 0), ("realpath", 0),
    ("less", 0), ("more", 0), ("xxd", 0), ("awk", 1), ("source", 0), (".", 0),
];

/// The file operands of a reading command (literal words only; options and the pattern are
/// skipped). Empty for commands that do not read files by name.
pub fn read_targets(words: &[Word]) -> Vec<String> {
    let Some(Word::Lit(first)) = words.first() else { return Vec::new() };
    let name = program_name(first);
    let Some((_, skip)) = FILE_READERS.iter().find(|(n, _)| *n == name) else { return Vec::new() };
    let mut skip = *skip;
    if words.iter().any(|w| {
        w.lit().is_some_and(|s| s == "-e" || s == "-f" || s == "--regexp" || s == "--file" || s == "--expression")
    }) {
        skip = 0;
    }
    let mut out = Vec::new();
    let mut after_dd = false;
    let mut operands = 0;
    let mut seen_option = false;
    for w in &words[1..] {
        let Some(s) = w.lit() else {
            operands += 1;
            continue;
        };
        if !after_dd && s == "--" {
            after_dd = true;
            continue;
        }
        if !after_dd && s.starts_with('-') && s.len() > 1 {
            seen_option = true;
            // `--file=/etc/x` style values that look like paths.
            if let Some((_, v)) = s.split_once('=') {
                if v.starts_with('/') || v.starts_with('~') || v.starts_with("..") {
                    out.push(v.to_string());
                }
            }
            continue;
        }
        if name == "find" && (seen_option || matches!(s, "(" | "!" | ")")) {
            // After find's starting points come expressions, not paths.
            break;
        }
        operands += 1;
        if operands <= skip {
            continue;
        }
        if !matches!(s, "-" | "/dev/null" | "/dev/stdin" | "/dev/zero" | "/dev/urandom" | "/dev/random") {
            out.push(s.to_string());
        }
    }
    out
}
