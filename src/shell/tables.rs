//! Built-in knowledge, as data: wrappers, shells, variables that change what runs, the
//! known-safe read-only commands with their argument conditions, the command arity used for
//! "always" patterns, and the prefixes an "always" approval may never grant wholesale.

use super::{grammar, program_name, shell_word, Word, WrapperKind};

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
    WrapperSpec { name: "unshare", kind: T, positionals: 0, value_flags: &["--propagation", "--setgroups", "-S", "-G", "--setuid", "--setgid", "-R", "--root", "-w", "--wd", "--map-user", "--map-group", "--map-users", "--map-groups", "--load-interp", "--monotonic", "--boottime"] },
    WrapperSpec { name: "systemd-run", kind: P, positionals: 0, value_flags: &["-p", "--property", "-u", "--unit", "-E", "--setenv", "--slice", "--description", "-M", "--machine", "-H", "--host", "--uid", "--gid", "--working-directory", "--on-calendar", "--on-active", "--nice", "--service-type", "--path-property", "--socket-property", "--timer-property", "--on-boot", "--on-startup", "--on-unit-active", "--on-unit-inactive", "--on-clock-change", "--on-timezone-change"] },
    WrapperSpec { name: "script", kind: T, positionals: 0, value_flags: &["-E", "--echo", "-O", "--log-out", "-I", "--log-in", "-T", "--log-timing", "-m", "--logging-format", "-o", "--output-limit"] },
    WrapperSpec { name: "sg", kind: P, positionals: 1, value_flags: &[] },
    WrapperSpec { name: "firejail", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "proxychains", kind: T, positionals: 0, value_flags: &["-f"] },
    WrapperSpec { name: "proxychains4", kind: T, positionals: 0, value_flags: &["-f"] },
    WrapperSpec { name: "torsocks", kind: T, positionals: 0, value_flags: &["-u", "-p", "-a", "-P"] },
    WrapperSpec { name: "chronic", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "catchsegv", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "faketime", kind: T, positionals: 1, value_flags: &["-p", "--date-prog"] },
    WrapperSpec { name: "dbus-run-session", kind: T, positionals: 0, value_flags: &["--config-file", "--dbus-daemon"] },
    WrapperSpec { name: "xvfb-run", kind: T, positionals: 0, value_flags: &["-n", "--server-num", "-s", "--server-args", "-f", "--auth-file", "-e", "--error-file", "-p", "--xauth-protocol"] },
    WrapperSpec { name: "caffeinate", kind: T, positionals: 0, value_flags: &["-t", "-w"] },
    WrapperSpec { name: "chpst", kind: P, positionals: 0, value_flags: &["-u", "-U", "-e", "-/", "-n", "-l", "-L", "-m", "-d", "-o", "-p", "-f", "-c", "-r", "-t"] },
    // Launchers gate does not model option by option (see `opaque_wrapper`): the command is
    // found for deny and ask rules, and the call is never allowed.
    WrapperSpec { name: "strace", kind: T, positionals: 0, value_flags: &["-a", "-b", "-e", "-I", "-o", "-O", "-p", "-P", "-s", "-S", "-u", "-U", "-E", "-X", "--output", "--attach", "--user", "--env", "--string-limit", "--trace-path", "--columns", "--detach-on", "--summary-sort-by"] },
    WrapperSpec { name: "ltrace", kind: T, positionals: 0, value_flags: &["-a", "-A", "-D", "-e", "-F", "-l", "-n", "-o", "-p", "-s", "-u", "-w", "-x", "--align", "--output", "--library", "--indent", "--where"] },
    WrapperSpec { name: "valgrind", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "gdb", kind: T, positionals: 0, value_flags: &["-ex", "-iex", "-x", "-ix", "-p", "-c", "-cd", "-d", "-e", "-s", "-se", "-b", "-l", "--eval-command", "--init-eval-command", "--command", "--init-command", "--pid", "--core", "--cd", "--directory", "--exec", "--symbols", "--se"] },
    WrapperSpec { name: "parallel", kind: T, positionals: 0, value_flags: &["-j", "-P", "-a", "-d", "-E", "-I", "-S", "-n", "-N", "-L", "-l", "-s", "--jobs", "--arg-file", "--delimiter", "--results", "--joblog", "--sshlogin", "--workdir", "--tmpdir", "--max-args", "--max-replace-args", "--colsep", "--timeout", "--delay"] },
    WrapperSpec { name: "chrt", kind: T, positionals: 1, value_flags: &["-T", "-P", "-D", "--sched-runtime", "--sched-period", "--sched-deadline"] },
    WrapperSpec { name: "numactl", kind: T, positionals: 0, value_flags: &["-i", "-N", "-m", "-p", "-C", "-P", "--interleave", "--cpunodebind", "--membind", "--preferred", "--physcpubind", "--preferred-many"] },
    WrapperSpec { name: "prlimit", kind: T, positionals: 0, value_flags: &["-p", "-o", "--pid", "--output"] },
    WrapperSpec { name: "eatmydata", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "nocache", kind: T, positionals: 0, value_flags: &["-n"] },
    WrapperSpec { name: "fakeroot", kind: T, positionals: 0, value_flags: &["-l", "-s", "-i", "-b", "--lib", "--faked"] },
    WrapperSpec { name: "fakechroot", kind: T, positionals: 0, value_flags: &["-l", "-d", "-e", "-c", "-b", "-s", "--lib", "--elfloader", "--environment", "--config-dir", "--bindir"] },
    WrapperSpec { name: "proot", kind: T, positionals: 0, value_flags: &["-r", "-b", "-m", "-w", "-q", "-k", "--rootfs", "--bind", "--mount", "--pwd", "--cwd", "--qemu", "--kernel-release"] },
    WrapperSpec { name: "bwrap", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "cgexec", kind: T, positionals: 0, value_flags: &["-g"] },
    WrapperSpec { name: "systemd-inhibit", kind: T, positionals: 0, value_flags: &["--what", "--who", "--why", "--mode"] },
    WrapperSpec { name: "sshpass", kind: T, positionals: 0, value_flags: &["-f", "-d", "-p", "-P"] },
    WrapperSpec { name: "trickle", kind: T, positionals: 0, value_flags: &["-d", "-u", "-w", "-t", "-l", "-n"] },
    WrapperSpec { name: "setarch", kind: T, positionals: 1, value_flags: &[] },
    WrapperSpec { name: "linux32", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "linux64", kind: T, positionals: 0, value_flags: &[] },
    // setarch under its architectures' names (links to it: red team 40).
    WrapperSpec { name: "x86_64", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "i386", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "i686", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "aarch64", kind: T, positionals: 0, value_flags: &[] },
    WrapperSpec { name: "ssh-agent", kind: T, positionals: 0, value_flags: &["-a", "-E", "-O", "-P", "-t"] },
    WrapperSpec { name: "choom", kind: T, positionals: 0, value_flags: &["-n", "-p", "--adjust", "--pid"] },
];

pub(crate) fn wrapper(name: &str) -> Option<&'static WrapperSpec> {
    WRAPPERS.iter().find(|w| w.name == name)
}

/// Launchers whose options gate does not model one by one: tracers and debuggers (which can
/// write logs, attach to other processes, or run commands of their own: `gdb -ex 'shell
/// ...'`), `parallel` (which builds its commands from templates at run time), sandboxes and
/// preload tricks. The command they start is still found, so a deny rule on it holds, but the
/// call is never allowed: the reason is returned.
pub(crate) fn opaque_wrapper(name: &str) -> Option<String> {
    let what = match name {
        "strace" | "ltrace" | "valgrind" => {
            "traces the command and can write logs, attach to other processes or change its system calls"
        }
        "gdb" => "debugs the command and runs commands of its own (`-ex`, `shell`)",
        "parallel" => "builds the commands it runs from templates and input at run time",
        "chrt" | "numactl" | "prlimit" | "choom" | "setarch" | "linux32" | "linux64" | "x86_64" | "i386" | "i686"
        | "aarch64" | "cgexec" | "systemd-inhibit" | "trickle" => {
            "changes how the command runs (or acts on another process) in ways gate does not model"
        }
        "eatmydata" | "nocache" | "fakeroot" | "fakechroot" | "proot" | "bwrap" => {
            "runs the command under a preloaded library or another root, which gate does not model"
        }
        "sshpass" => "feeds a password to the command it runs",
        "ssh-agent" => "runs the command with an agent holding keys",
        "unshare" | "systemd-run" | "firejail" | "dbus-run-session" | "xvfb-run" | "faketime" => {
            "has options that move, set up or log the command in ways gate does not model"
        }
        "proxychains" | "proxychains4" | "torsocks" | "catchsegv" => {
            "runs the command with a preloaded library gate does not model"
        }
        "busybox" | "toybox" => "runs its own versions of programs, whose options gate does not model",
        _ => return None,
    };
    Some(format!("`{name}` {what}"))
}

/// Shells whose `-c` string is parsed again, and whose script or stdin gate cannot see.
pub(crate) fn is_shell(name: &str) -> bool {
    matches!(name, "sh" | "bash" | "zsh" | "dash" | "ksh" | "ash" | "mksh" | "yash" | "busybox-sh" | "rbash")
}

/// Variables that change what a command runs (SPEC 3.3), or where it writes: setting one
/// (by any means: `X=`, `export`, `read`, `printf -v`, `for X in`, `unset`) makes the command
/// unknown.
#[rustfmt::skip]
const DANGEROUS_EXACT: &[&str] = &[
    // (`PREFIX`: npm's global prefix, whose `etc/npmrc` may set the shell scripts run in,
    // red team 115 A.)
    "PATH", "PREFIX", "ENV", "IFS", "SHELLOPTS", "BASHOPTS", "PS0", "PS1", "PS2", "PS3", "PS4", "PROMPT_COMMAND", "CDPATH",
    "EXECIGNORE", "HISTFILE", "GLOBIGNORE", "FUNCNEST", "PAGER", "EDITOR", "VISUAL", "MANPAGER", "LESSOPEN", "LESSCLOSE",
    "NODE_OPTIONS", "NODE_PATH", "PERL5OPT", "PERL5LIB", "PERLLIB", "RUBYOPT", "RUBYLIB", "JAVA_TOOL_OPTIONS",
    "_JAVA_OPTIONS", "JDK_JAVA_OPTIONS", "CLASSPATH", "GEM_PATH", "GEM_HOME", "BUNDLE_GEMFILE", "RUSTFLAGS",
    "MAKEFLAGS", "GNUMAKEFLAGS", "MAKEFILES", "SHELL", "TERMINFO", "HOME", "XDG_CONFIG_HOME", "ZDOTDIR",
    "SSH_ASKPASS", "SUDO_ASKPASS", "BROWSER", "TMPDIR", "LOCPATH", "GCONV_PATH", "HOSTALIASES", "RESOLV_HOST_CONF",
    "MALLOC_CHECK_", "RIPGREP_CONFIG_PATH", "WGETRC", "CURL_HOME", "INPUTRC", "GNUPGHOME", "DOCKER_CONFIG",
    "KUBECONFIG", "OPENSSL_CONF", "SSL_CERT_FILE", "PYTHONSTARTUP",
    // procps `ps` reads its options as another personality's (red team 49: with
    // PS_PERSONALITY=bsd, `ps -e ax` prints every process's environment).
    "PS_PERSONALITY", "I_WANT_A_BROKEN_PS", "CMD_ENV", "PS_FORMAT",
    // How bash reads its text: in BIG5, GBK or SJIS a `\\` can be a character's second byte,
    // so quotes gate sees as escaped are live (fourth red team). `C`, `POSIX` and UTF-8 values
    // before a command are harmless (see walk.rs).
    "LC_ALL", "LC_CTYPE", "LANG",
    // Options read from the environment (`TAR_OPTIONS=--checkpoint-action=exec=...`), and
    // tar's default archive (`host:file` is opened through rsh).
    "TAR_OPTIONS", "TAPE", "RSH", "UNZIP", "UNZIPOPT", "ZIPINFO", "ZIPINFOOPT", "GZIP", "XZ_OPT", "XZ_DEFAULTS",
    "BZIP2", "BZIP", "LZOP",
    // less's options (`+!cmd` runs a command when git pages through it), its key bindings,
    // the programs it runs (`v`'s editor, filename expansion, tags) and its history file
    // (seventh red team: `LESS='+!cmd' git log`).
    "LESS", "LESSKEY", "LESSKEYIN", "LESSKEY_SYSTEM", "LESSKEYIN_SYSTEM", "LESSKEY_CONTENT", "LESSEDIT", "LESSECHO",
    "LESSGLOBALTAGS", "LESSHISTFILE", "LESSMETACHARS", "LESSMETAESCAPE",
    // man's search path, its options and the formatter's (`MANROFFOPT=-U MANPATH=docs git log
    // --help` ran a workspace page's command: eleventh red team), wget's system rc file.
    "MANPATH", "MANOPT", "MANROFFOPT", "MANROFFSEQ", "MANSECT", "MANPL", "SYSTEM_WGETRC",
    // bash's `$"..."` translations come from these catalogues, and run their `$(...)`.
    "TEXTDOMAIN", "TEXTDOMAINDIR",
    // `~+` and `~-` expand to these.
    "PWD", "OLDPWD",
    // gcc runs its passes and the linker's `collect2` from these directories, reads headers
    // and libraries from these paths into what it builds, and writes make rules to these
    // files (sixth red team: `COMPILER_PATH=/outside/bin cargo test` ran outside/bin/collect2
    // through the linker).
    "COMPILER_PATH", "GCC_EXEC_PREFIX", "LIBRARY_PATH", "CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH",
    "OBJC_INCLUDE_PATH", "DEPENDENCIES_OUTPUT", "SUNPRO_DEPENDENCIES", "GCC_COMPARE_DEBUG",
    // bash's POSIX mode: special builtins are found before functions, and other rules change
    // (sixth red team).
    "POSIXLY_CORRECT",
    // file's magic files, a `:` list like `file -m` (sixth red team): file prints what it
    // cannot parse of them, so `MAGIC=/outside/secret file x` shows the secret's lines.
    "MAGIC",
    // Files the safe list's programs read besides their operands: bc's `BC_ENV_ARGS` holds
    // options and script files it runs first; ss reads `/proc` below `PROC_ROOT`, each table
    // from its `PROC_NET_*` file, and a dump from `TCPDIAG_FILE` (red team 91).
    "BC_ENV_ARGS", "PROC_ROOT", "TCPDIAG_FILE",
];

/// Build tools and compiler flags that build scripts hand to the compiler they run (the cc
/// crate, cmake, autotools): a flag such as `-B DIR`, `-fplugin=`, `-wrapper` or `-specs=`
/// runs programs of its own. The cc crate also reads each as `NAME_<target>` (dashes or
/// underscores), `TARGET_NAME` and `HOST_NAME` (sixth red team: `CFLAGS`, `CXXFLAGS`, ...);
/// `CMAKE_*` and `PKG_CONFIG_*` (a toolchain file is code, a `.pc` file's `Cflags` reach the
/// compiler) are the same shape.
#[rustfmt::skip]
const BUILD_TOOL_VARIABLES: &[&str] = &[
    "CC", "CXX", "CPP", "AR", "LD", "AS", "NM", "RANLIB", "OBJCOPY", "STRIP", "FC", "CFLAGS", "CXXFLAGS", "CPPFLAGS",
    "LDFLAGS", "ASFLAGS", "ARFLAGS", "RANLIBFLAGS", "FFLAGS", "LDLIBS", "CC_KNOWN_WRAPPER_CUSTOM", "CMAKE", "PKG_CONFIG",
    "PROTOC", "CLANG_PATH", "LIBCLANG_PATH", "BINDGEN_EXTRA_CLANG_ARGS", "CCACHE", "SCCACHE", "CXXSTDLIB",
];

/// Whether `name` is one of [`BUILD_TOOL_VARIABLES`] in any of the spellings build scripts
/// look up.
fn build_tool_variable(name: &str) -> bool {
    let bare = name.strip_prefix("TARGET_").or_else(|| name.strip_prefix("HOST_")).unwrap_or(name);
    BUILD_TOOL_VARIABLES
        .iter()
        .any(|v| bare.strip_prefix(v).is_some_and(|rest| rest.is_empty() || rest.starts_with(['_', '-'])))
}

#[rustfmt::skip]
const DANGEROUS_PREFIXES: &[&str] = &[
    "LD_", "DYLD_", "NODE_", "PYTHON", "BASH_", "GIT_", "NPM_CONFIG_", "npm_config_", "YARN_", "PNPM_", "CARGO_", "RUSTC",
    "RUSTDOC", "RUSTUP_", "PIP_", "UV_", "POETRY_", "GOFLAGS", "GOROOT", "GOPATH", "GOTOOLCHAIN", "GOPROXY",
    // clang's and scan-build's overrides (`CCC_OVERRIDE_OPTIONS`, `CCC_CC`).
    "CCC_",
    // Version managers' shims choose the program and run hooks from these
    // (`PYENV_HOOK_PATH=docs python3 --version`: eleventh red team); man's and groff's own.
    "PYENV_", "RBENV_", "NODENV_", "GOENV_", "ASDF_", "MISE_", "VOLTA_", "MAN_", "GROFF_", "PROC_NET_",
];

/// Variables under a dangerous prefix that only change presentation.
#[rustfmt::skip]
const HARMLESS: &[&str] = &[
    "CARGO_TERM_COLOR", "CARGO_TERM_VERBOSE", "CARGO_TERM_QUIET", "CARGO_TERM_PROGRESS_WHEN", "CARGO_INCREMENTAL",
    "CARGO_NET_OFFLINE", "CARGO_HTTP_TIMEOUT", "GIT_TERMINAL_PROMPT", "GIT_PAGER_IN_USE", "PYTHONUNBUFFERED",
    "PYTHONDONTWRITEBYTECODE", "PYTHONIOENCODING", "PYTHONHASHSEED", "BASH_XTRACEFD",
    // Node: only behaviour, no files or code (NODE_V8_COVERAGE, NODE_REDIRECT_WARNINGS and
    // NODE_COMPILE_CACHE write files: found by the fourth red team).
    "NODE_ENV", "NODE_NO_WARNINGS", "NODE_DISABLE_COLORS", "NODE_PENDING_DEPRECATION",
];

pub fn is_dangerous_variable(name: &str) -> bool {
    // An array element (`BASH_CMDS[git]`) is as dangerous as its array.
    let name = name.split('[').next().unwrap_or(name);
    if HARMLESS.contains(&name) {
        return false;
    }
    // npm reads `npm_config_*` from the environment in any letter case (`/^npm_config_/i`).
    let npm_config = name.get(..11).is_some_and(|p| p.eq_ignore_ascii_case("npm_config_"));
    DANGEROUS_EXACT.contains(&name)
        || npm_config
        || DANGEROUS_PREFIXES.iter().any(|p| name.starts_with(p))
        || build_tool_variable(name)
        || name.ends_with("_COMMAND")
        || name.ends_with("_CONFIG_PATH")
        || name.ends_with("_CONFIG_FILE")
}

/// A dangerous variable set to a value that changes nothing that runs or is written: a pager
/// that only copies, git's lock hint, a plain locale, git's traces to stderr (a path would be
/// a file written).
pub(crate) fn harmless_setting(name: &str, value: &str) -> bool {
    match name {
        "PAGER" | "GIT_PAGER" => matches!(value, "cat" | ""),
        "GIT_OPTIONAL_LOCKS" => matches!(value, "0" | "1"),
        "LC_ALL" | "LC_CTYPE" | "LANG" => plain_locale(value),
        // What `set -x` prints before each command: only text and plain parameters, which
        // run nothing (red team 62: `PS4='+ ${BASH_SOURCE}:${LINENO}: '` was asked).
        "PS4" => prompt_runs_nothing(value),
        // node's options that only size memory or choose warnings (red team 63:
        // `NODE_OPTIONS=--max-old-space-size=4096 npm run build` was asked); never `--require`,
        // `--import`, `--loader`, `--inspect`, which run or expose code.
        "NODE_OPTIONS" => value.split(' ').filter(|o| !o.is_empty()).all(node_option_harmless),
        _ if name.starts_with("GIT_TRACE") || name == "GIT_CURL_VERBOSE" => {
            matches!(value, "" | "0" | "1" | "2" | "true" | "false")
        }
        _ => false,
    }
}

/// An option in `NODE_OPTIONS` that runs nothing and opens no file: a memory size, a choice
/// of warnings or of how a rejection ends the process.
fn node_option_harmless(option: &str) -> bool {
    let number = |v: &str| !v.is_empty() && v.len() < 8 && v.bytes().all(|b| b.is_ascii_digit());
    match option.split_once('=') {
        Some((
            "--max-old-space-size" | "--max_old_space_size" | "--max-semi-space-size" | "--stack-trace-limit",
            v,
        )) => number(v),
        Some(("--unhandled-rejections", v)) => {
            matches!(v, "strict" | "warn" | "none" | "throw" | "warn-with-error-code")
        }
        Some(_) => false,
        None => matches!(
            option,
            "--enable-source-maps"
                | "--no-warnings"
                | "--no-deprecation"
                | "--trace-warnings"
                | "--trace-deprecation"
                | "--trace-uncaught"
                | "--throw-deprecation"
                | "--experimental-vm-modules"
        ),
    }
}

/// Whether a prompt's text, as bash expands it, runs nothing: every `$` starts a plain
/// parameter (`$NAME`, `${NAME}`, `$?`, `$1`), never a substitution, arithmetic, a subscript or
/// an operator (`${x:-$(cmd)}`); no backquote, and no backslash (prompt escapes are decoded
/// first, so `\044` is a `$`).
fn prompt_runs_nothing(value: &str) -> bool {
    let special = |c: char| "?$#!@*-_0123456789".contains(c);
    let ident = |t: &str| {
        !t.is_empty()
            && !t.starts_with(|c: char| c.is_ascii_digit())
            && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    // (A backslash escape is decoded before the expansion: `\044(rm m)` is `$(rm m)`.)
    if value.contains('\\') {
        return false;
    }
    let mut rest = value;
    while let Some(k) = rest.find(['$', '`']) {
        if rest[k..].starts_with('`') {
            return false;
        }
        let after = &rest[k + 1..];
        if let Some(inner) = after.strip_prefix('{') {
            let Some(end) = inner.find('}') else { return false };
            let name = &inner[..end];
            if !(ident(name)
                || (name.chars().count() == 1 && name.chars().all(special))
                || name.chars().all(|c| c.is_ascii_digit()) && !name.is_empty())
            {
                return false;
            }
            rest = &inner[end + 1..];
        } else if after.starts_with(special) {
            rest = &after[1..];
        } else {
            let n = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
            if n == 0 || !ident(&after[..n]) {
                return false;
            }
            rest = &after[n..];
        }
    }
    true
}

/// A locale value under which bash reads text as gate does: empty, `C`, `POSIX`, or UTF-8.
pub(crate) fn plain_locale(v: &str) -> bool {
    let l = v.to_ascii_lowercase();
    let charset = l.split('@').next().unwrap_or(&l);
    matches!(charset, "" | "c" | "posix") || charset.ends_with(".utf-8") || charset.ends_with(".utf8")
}

/// Whether `arg` spells option `opt` the way getopt-style parsers accept it: exactly, with
/// `=value` (long), as an unambiguous-looking abbreviation of a long option (`--out` for
/// `--output`, GNU getopt takes any unique prefix), or inside a bundle of short options
/// (`-mo.env` holds `-o`). Errs on the side of seeing the option.
pub(crate) fn spells_option(arg: &str, opt: &str) -> bool {
    if arg == opt {
        return true;
    }
    if let Some(long) = opt.strip_prefix("--") {
        let Some(given) = arg.strip_prefix("--") else { return false };
        let name = given.split('=').next().unwrap_or(given);
        // Any prefix, one letter included: git and getopt_long take `--h` for `--hard` when
        // it is unique (sixth red team).
        return !name.is_empty() && long.starts_with(name);
    }
    if let Some(letter) = opt.strip_prefix('-').filter(|l| l.chars().count() == 1) {
        return arg.starts_with('-') && !arg.starts_with("--") && arg[1..].contains(letter);
    }
    arg.starts_with(&format!("{opt}="))
}

/// The values given to options (`-o F`, `-oF`, `-mo F`, `--output F`, `--out=F`). A value only
/// known at run time (`--output=$(pwd)/x`) is returned as such: the caller cannot trust it.
pub(crate) fn option_values(args: &[Word], opts: &[&str]) -> Vec<Word> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        match &args[i] {
            Word::Lit(a) if a == "--" => break,
            Word::Lit(a) => {
                for opt in opts {
                    if !spells_option(a, opt) {
                        continue;
                    }
                    if opt.starts_with("--") {
                        match a.split_once('=') {
                            Some((_, v)) => out.push(Word::Lit(v.to_string())),
                            None => out.extend(args.get(i + 1).cloned()),
                        }
                    } else {
                        // In a bundle the value is what follows the letter, or the next word.
                        let letter = &opt[1..];
                        let after = a[1..].split_once(letter).map(|(_, v)| v).unwrap_or("");
                        if after.is_empty() {
                            out.extend(args.get(i + 1).cloned());
                        } else {
                            out.push(Word::Lit(after.to_string()));
                        }
                    }
                }
            }
            Word::Dyn(raw) => {
                // `--name=VALUE` with its name as written, abbreviations included (`--out=$x`
                // is `--output=$x`).
                let text = raw.trim_start_matches(['"', '\'']);
                let name = text.split_once('=').map(|(n, _)| n).filter(|n| n.starts_with("--"));
                if name.is_some_and(|n| opts.iter().any(|o| o.starts_with("--") && spells_option(n, o))) {
                    out.push(Word::Dyn(raw.clone()));
                }
            }
        }
        i += 1;
    }
    out
}

/// Options that make a program run another program, or load code or configuration that can:
/// with one, the command is not known statically, whatever rule allows its prefix.
#[rustfmt::skip]
static EXEC_OPTIONS: &[(&str, &[&str])] = &[
    ("cargo", &["--config", "-Z"]),
    ("npm", &["--script-shell", "--node-options", "--userconfig", "--globalconfig"]),
    ("pnpm", &["--script-shell", "--config"]),
    ("yarn", &["--script-shell"]),
    ("rg", &["--pre", "--hostname-bin"]),
    ("sort", &["--compress-program"]),
    ("git", &["--upload-pack", "--receive-pack", "--exec", "--extcmd", "--open-files-in-pager", "--config-env", "--exec-path", "--ext-diff", "--textconv"]),
    ("tar", &["--to-command", "--use-compress-program", "-I", "--checkpoint-action", "--info-script", "--new-volume-script", "-F"]),
    ("rsync", &["-e", "--rsh", "--rsync-path"]),
    ("zip", &["-TT", "--unzip-command"]),
    ("split", &["--filter"]),
    ("make", &["--eval"]),
    ("less", &["--lesskey-file"]),
    ("aria2c", &["--on-download-complete", "--on-download-start", "--on-download-error", "--on-download-pause",
                 "--on-download-stop", "--on-bt-download-complete"]),
];

/// The command texts a program's options give it to run (rsync's `-e`, zip's `-TT`, split's
/// `--filter`, tar's `--to-command`, ssh's `-o ProxyCommand=`, sqlite3's `.shell`): each is
/// decided as if it ran, so a deny rule on what it runs holds (red team 40; the command stays
/// unknown by [`exec_option`] as well).
pub(crate) fn option_command_texts(words: &[Word]) -> Vec<String> {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return Vec::new() };
    let args = nopt_args(name, &words[1..]);
    let args = &args[..];
    const TEXTS: &[(&str, &[&str])] = &[
        ("rsync", &["-e", "--rsh", "--rsync-path"]),
        ("zip", &["-TT", "--unzip-command"]),
        ("split", &["--filter"]),
        ("sort", &["--compress-program"]),
        ("tar", &["--to-command", "--use-compress-program", "-I", "--info-script", "--new-volume-script", "-F"]),
        ("rg", &["--pre"]),
        ("npm", &["--script-shell"]),
        ("pnpm", &["--script-shell"]),
        ("yarn", &["--script-shell"]),
    ];
    let mut out: Vec<String> = match TEXTS.iter().find(|(p, _)| *p == name) {
        Some((_, opts)) => option_values(args, opts).into_iter().filter_map(|w| w.lit().map(str::to_string)).collect(),
        None => Vec::new(),
    };
    match name {
        "ssh" | "scp" | "sftp" => {
            for v in option_values(args, &["-o"]).iter().filter_map(Word::lit) {
                let (key, value) = match v.split_once(['=', ' ']) {
                    Some((k, v)) => (k.trim(), v.trim()),
                    None => continue,
                };
                let key = key.to_ascii_lowercase();
                if matches!(key.as_str(), "proxycommand" | "localcommand" | "knownhostscommand" | "remotecommand") {
                    out.push(value.to_string());
                }
            }
        }
        // `start-stop-daemon --start --exec PROGRAM [-- ARGS]` (also `--startas`).
        "start-stop-daemon" => {
            let dd = args.iter().position(|w| w.lit() == Some("--"));
            let program = option_values(&args[..dd.unwrap_or(args.len())], &["--exec", "-x", "--startas", "-a"]);
            for p in program.iter().filter_map(Word::lit) {
                let mut t = shell_word(p);
                for a in dd.map_or(&[][..], |k| &args[k + 1..]) {
                    t.push(' ');
                    t.push_str(&as_shell_text(a));
                }
                out.push(t);
            }
        }
        "sqlite3" => {
            for t in args.iter().filter_map(Word::lit) {
                for line in t.split(['\n', ';']) {
                    let line = line.trim_start();
                    if let Some(rest) = line.strip_prefix(".shell").or_else(|| line.strip_prefix(".system")) {
                        out.push(rest.trim().to_string());
                    }
                }
            }
        }
        _ => {}
    }
    out.retain(|t| !t.trim().is_empty());
    out
}

/// `name`'s arguments as its option parser reads them: npm's `nopt` (npm, npx, pnpm, yarn)
/// reads a word with one dash, or three, as the long option its name spells
/// (`-script-shell=rm`, `---userconfig=F`: red team 42 ran `rm` under `Bash(npm run *)`);
/// any other program's as they are, not copied.
fn nopt_args<'a>(name: &str, args: &'a [Word]) -> std::borrow::Cow<'a, [Word]> {
    match name {
        "npm" | "npx" | "pnpm" | "yarn" => std::borrow::Cow::Owned(args.iter().map(nopt_long).collect()),
        _ => std::borrow::Cow::Borrowed(args),
    }
}

/// A word as the long option nopt reads it (`-script-shell` as `--script-shell`); one letter
/// after one dash stays a short option.
fn nopt_long(w: &Word) -> Word {
    match w.lit() {
        Some(a) if a.starts_with('-') && a != "--" => {
            let name = a.trim_start_matches('-');
            let letters = name.split('=').next().unwrap_or(name).chars().count();
            if letters > 1 || a.starts_with("--") {
                Word::Lit(format!("--{name}"))
            } else {
                w.clone()
            }
        }
        _ => w.clone(),
    }
}

/// Why a command's options make it run something gate cannot see, if they do.
pub(crate) fn exec_option(words: &[Word]) -> Option<String> {
    let name = words.first().and_then(Word::lit).map(program_name)?;
    let (_, opts) = EXEC_OPTIONS.iter().find(|(p, _)| *p == name)?;
    // git's subcommand, for its own `--text` (a subcommand only known at run time may be
    // `cat-file`, whose `--text` is `--textconv`).
    let git_sub = (name == "git")
        .then(|| words.get(1 + git_subcommand_at(&words[1..])).and_then(Word::lit).unwrap_or("cat-file"));
    for a in nopt_args(name, &words[1..]).iter().filter_map(Word::lit) {
        if a == "--" {
            break;
        }
        // Bare, git's `--exec-path` prints where its programs are and exits (red team 53).
        if name == "git" && a.starts_with("--exec-path") && !a.contains('=') {
            continue;
        }
        let spells = |o: &str| match git_sub {
            Some(sub) => git_spells_option(sub, a, o),
            None => spells_option(a, o),
        };
        if let Some(o) = opts.iter().find(|o| spells(o)) {
            return Some(format!("`{a}` ({o}) makes {name} run a program gate cannot see"));
        }
    }
    // git subcommands that run commands given to them.
    if name == "git" {
        let lits: Vec<&str> = words[1..].iter().filter_map(Word::lit).collect();
        let sub = lits.iter().find(|a| !a.starts_with('-')).copied().unwrap_or("");
        let runs = match sub {
            "rebase" | "difftool" => lits.iter().any(|a| spells_option(a, "-x")),
            "grep" => lits.iter().any(|a| spells_option(a, "-O")),
            "bisect" => lits.contains(&"run"),
            "submodule" => lits.contains(&"foreach"),
            "filter-branch" => true,
            _ => false,
        };
        if runs {
            return Some(format!("`git {sub}` runs a command given to it"));
        }
    }
    None
}

/// The shell text git subcommands run, given to them on the command line: `rebase -x CMD`,
/// `difftool -x CMD`, `filter-branch --tree-filter CMD` (and its other filters), `grep
/// -OCMD`, `bisect run CMD ARGS...`, `submodule foreach CMD ARGS...`. Each is decided as if it
/// ran. A text only known at run time is an `Err` with its display.
pub(crate) fn git_commands(sub: &str, rest: &[Word]) -> Vec<Result<String, String>> {
    let text = |w: Word| match w {
        Word::Lit(t) => Ok(t),
        Word::Dyn(d) => Err(d),
    };
    // `git bisect run CMD ARGS...`: git runs CMD through the shell when it holds shell
    // characters, with ARGS after it.
    let argv = |ws: &[Word]| -> Vec<Result<String, String>> {
        let Some((first, args)) = ws.split_first() else { return Vec::new() };
        let mut t = match first {
            Word::Lit(f) => f.clone(),
            Word::Dyn(d) => return vec![Err(d.clone())],
        };
        for a in args {
            t.push(' ');
            t.push_str(&as_shell_text(a));
        }
        vec![Ok(t)]
    };
    let lits = || rest.iter().map(Word::lit);
    match sub {
        "rebase" | "difftool" => {
            let opts: &[&str] = if sub == "rebase" { &["-x", "--exec"] } else { &["-x", "--extcmd"] };
            option_values(rest, opts).into_iter().map(text).collect()
        }
        "filter-branch" => option_values(
            rest,
            &[
                "--env-filter",
                "--tree-filter",
                "--index-filter",
                "--parent-filter",
                "--msg-filter",
                "--commit-filter",
                "--tag-name-filter",
                "--setup",
            ],
        )
        .into_iter()
        .map(text)
        .collect(),
        "bisect" if lits().next() == Some(Some("run")) => argv(&rest[1..]),
        // The remote side's program, run through the shell for a local or ssh remote (red team
        // 30: `git ls-remote --upload-pack='rm -f x' .`).
        "ls-remote" | "fetch" | "clone" | "pull" | "archive" | "fetch-pack" => {
            // (`-u` is `--upload-pack` for ls-remote and clone; for fetch and pull it is
            // `--update-head-ok`.)
            let opts: &[&str] = match sub {
                "archive" => &["--exec"],
                "fetch-pack" => &["--upload-pack", "--exec"],
                "ls-remote" | "clone" => &["--upload-pack", "-u"],
                _ => &["--upload-pack"],
            };
            option_values(rest, opts).into_iter().map(text).collect()
        }
        "push" | "send-pack" => option_values(rest, &["--receive-pack", "--exec"]).into_iter().map(text).collect(),
        "submodule" => match lits().position(|a| a == Some("foreach")) {
            Some(k) => {
                let mut start = k + 1;
                while matches!(rest.get(start).and_then(Word::lit), Some("--recursive" | "-q" | "--quiet" | "--")) {
                    start += 1;
                }
                argv(&rest[start.min(rest.len())..])
            }
            None => Vec::new(),
        },
        // `-O[CMD]` / `--open-files-in-pager[=CMD]`: the value is glued or absent. In a
        // bundle, a letter that takes a value ends it.
        "grep" => {
            let mut out = Vec::new();
            for w in rest {
                let a = match w {
                    Word::Lit(a) => a.as_str(),
                    Word::Dyn(d) if d.starts_with("-O") || d.starts_with("--o") => {
                        out.push(Err(d.clone()));
                        continue;
                    }
                    Word::Dyn(_) => continue,
                };
                if a == "--" {
                    break;
                }
                if let Some(long) = a.strip_prefix("--") {
                    if let Some((name, v)) = long.split_once('=') {
                        if name.len() >= 2 && "open-files-in-pager".starts_with(name) {
                            out.push(Ok(v.to_string()));
                        }
                    }
                } else if let Some(letters) = a.strip_prefix('-') {
                    for (k, c) in letters.char_indices() {
                        if c == 'O' {
                            let v = &letters[k + 1..];
                            if !v.is_empty() {
                                out.push(Ok(v.to_string()));
                            }
                            break;
                        }
                        if "efABCm".contains(c) {
                            break;
                        }
                    }
                }
            }
            out
        }
        _ => Vec::new(),
    }
}

/// Environment variables whose value is a program or shell text that git (or another
/// program: an editor, a pager) runs when it wants one.
#[rustfmt::skip]
const CODE_VARIABLES: &[&str] = &[
    "GIT_EXTERNAL_DIFF", "GIT_EDITOR", "EDITOR", "VISUAL", "GIT_SEQUENCE_EDITOR", "GIT_SSH_COMMAND", "GIT_SSH",
    "GIT_PAGER", "PAGER", "GIT_ASKPASS", "SSH_ASKPASS", "SUDO_ASKPASS", "GIT_PROXY_COMMAND", "MANPAGER",
    "PROMPT_COMMAND", "LESSOPEN", "LESSCLOSE", "BROWSER",
];

/// The shell text that environment assignments (`NAME=VALUE`, literal values only) make
/// programs run: the value of a variable that names a program (`GIT_EDITOR='rm x'`), and the
/// git configuration given through the environment (`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n`,
/// `GIT_CONFIG_PARAMETERS`) whose key runs code (`diff.external`, `core.pager`, `alias.*`:
/// a `!` alias is shell text, any other is git with its words).
pub(crate) fn env_code(env: &[(String, String)]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut configs: Vec<(String, String)> = Vec::new();
    for (name, value) in env {
        if matches!(name.as_str(), "LESSOPEN" | "LESSCLOSE") {
            // `|cmd %s`, `||cmd %s`, `-|cmd %s`: a pipe from the command; `%s` is the file.
            out.push(value.trim_start_matches(['|', '-']).to_string());
        } else if name == "BROWSER" {
            // A `:`-separated list of commands, each tried in turn.
            out.extend(value.split(':').filter(|c| !c.is_empty()).map(str::to_string));
        } else if CODE_VARIABLES.contains(&name.as_str()) {
            out.push(value.clone());
        } else if let (Some(_), Some(body)) =
            (name.strip_prefix("BASH_FUNC_").and_then(|n| n.strip_suffix("%%")), value.strip_prefix("()"))
        {
            // An exported function a child bash defines from its environment: its body runs
            // when the child calls the name (red team 30).
            out.push(body.to_string());
        } else if let Some(n) = name.strip_prefix("GIT_CONFIG_KEY_") {
            let v = env.iter().rev().find(|(k, _)| k.strip_prefix("GIT_CONFIG_VALUE_") == Some(n));
            configs.push((value.clone(), v.map(|(_, v)| v.clone()).unwrap_or_default()));
        } else if name == "GIT_CONFIG_PARAMETERS" {
            for entry in sq_words(value) {
                let (k, v) = entry.split_once('=').unwrap_or((&entry, ""));
                configs.push((k.to_string(), v.to_string()));
            }
        }
    }
    for (key, value) in configs {
        let lower = key.to_ascii_lowercase();
        if lower.starts_with("alias.") {
            match value.strip_prefix('!') {
                Some(script) => out.push(script.to_string()),
                None => out.push(format!("git {value}")),
            }
        } else if git_key_runs_code(&lower) {
            out.push(value.strip_prefix('!').unwrap_or(&value).to_string());
        }
    }
    out
}

/// Words of shell-quoted text as git writes `GIT_CONFIG_PARAMETERS` (`'k'='v' 'k2'='v2'`):
/// single quotes, backslash escapes, blanks between words.
fn sq_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur: Option<String> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                let w = cur.get_or_insert_with(String::new);
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    w.push(q);
                }
            }
            '\\' => cur.get_or_insert_with(String::new).extend(chars.next()),
            c if c.is_whitespace() => out.extend(cur.take()),
            c => cur.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(cur);
    out
}

/// A word as shell text that reads back as it: a literal quoted, a run-time word as written.
pub(crate) fn as_shell_text(w: &Word) -> String {
    match w {
        Word::Lit(s) => super::shell_word(s),
        Word::Dyn(d) => d.clone(),
    }
}

/// Whether `arg` spells git option `opt` for subcommand `sub`: as [`spells_option`], except
/// that git takes an option given whole before any abbreviation, so `--text` (`-a`) is not
/// `--textconv` where the subcommand has a `--text` of its own (every one with diff options;
/// `cat-file` has none, and takes `--text` for `--textconv`).
pub(crate) fn git_spells_option(sub: &str, arg: &str, opt: &str) -> bool {
    spells_option(arg, opt) && !(arg == "--text" && sub != "cat-file")
}

/// Whether `git help` with these words only prints: its listing options and the manual page
/// in man's format (what `git CMD --help` shows), each spelled whole; `-w`/`--web` starts a
/// browser and `-i`/`--info` the info reader, and an abbreviation may be either.
fn git_help_read_only(rest: &[&str]) -> bool {
    const PRINTS: &[&str] = &[
        "-a",
        "--all",
        "-g",
        "--guides",
        "-c",
        "--config",
        "--exclude-guides",
        "--verbose",
        "--no-verbose",
        "--external-commands",
        "--no-external-commands",
        "--aliases",
        "--no-aliases",
        "-m",
        "--man",
        "--user-interfaces",
        "--developer-interfaces",
    ];
    rest.iter().all(|a| !a.starts_with('-') || PRINTS.contains(a))
}

/// Read-only git subcommands, each with the options that would make it write or run code.
/// (`--output=F` is decided as the write of F: red team 47 found `git diff
/// --output=docs/diff.md` asked where `git diff > docs/diff.md` was allowed.)
#[rustfmt::skip]
static GIT_READ: &[(&str, &[&str])] = &[
    ("status", &[]), ("log", &[]), ("diff", &["--ext-diff"]), ("show", &["--ext-diff"]),
    ("rev-parse", &[]), ("ls-files", &[]), ("ls-tree", &[]), ("blame", &[]), ("shortlog", &[]), ("describe", &[]),
    ("grep", &["-O", "--open-files-in-pager"]), ("cat-file", &["--filters"]), ("merge-base", &[]), ("name-rev", &[]),
    ("rev-list", &[]), ("show-ref", &[]), ("count-objects", &[]), ("for-each-ref", &[]), ("check-ignore", &[]),
    ("whatchanged", &[]), ("version", &[]), ("diff-tree", &["--ext-diff"]),
    ("diff-files", &[]), ("diff-index", &[]), ("show-branch", &[]), ("var", &[]),
    ("check-attr", &[]), ("verify-commit", &[]), ("verify-tag", &[]), ("cherry", &[]), ("range-diff", &[]),
    // blame's twin; hash-object only hashes unless it writes the object (`-w`) or reads the
    // paths to hash from stdin; check-ref-format only checks a name.
    ("annotate", &[]), ("hash-object", &["-w", "--stdin-paths"]), ("check-ref-format", &[]),
    // fsck checks the object store; `--lost-found` writes what dangles into .git/lost-found.
    ("fsck", &["--lost-found"]),
];

/// Whether `--git-dir`'s value names `.git` of the directory git runs in.
fn own_git_dir(v: &str) -> bool {
    matches!(v, ".git" | "./.git" | ".git/" | "./.git/")
}

/// Whether `--work-tree`'s value is the directory git runs in (a directory below could be
/// a link out, which gate does not follow there).
fn own_work_tree(v: &str) -> bool {
    matches!(v, "." | "./")
}

/// Whether a git invocation only reads. Global options before the subcommand (`-C`, `-c`,
/// `--git-dir`, ...) can redirect or reconfigure git, so any of them makes it not known-safe.
fn git_read_only(args: &[&str]) -> bool {
    // Global options that change nothing but the pager or the directory: `--no-pager`, `-P`,
    // and `-C DIR` with DIR relative without `..`, or absolute (red team 49: `git -C
    // /path/to/workspace status`): the directory is a path the call reads, so one outside the
    // workspace, or a link out of it, is caught where paths are resolved.
    let mut args = args;
    loop {
        match args {
            ["--no-pager"
            | "-P"
            | "--no-optional-locks"
            | "--literal-pathspecs"
            | "--glob-pathspecs"
            | "--noglob-pathspecs"
            | "--icase-pathspecs", rest @ ..] => args = rest,
            ["-c", kv, rest @ ..] if git_display_config(kv) => args = rest,
            // The repository git finds anyway, named (red team 72: `git --git-dir=.git
            // --work-tree=. log`): `.git` of the directory git runs in, whose repository, when
            // it is not the workspace's own, is caught as any nested repository is; and that
            // directory as the work tree.
            [a, rest @ ..] if a.strip_prefix("--git-dir=").is_some_and(own_git_dir) => args = rest,
            ["--git-dir", v, rest @ ..] if own_git_dir(v) => args = rest,
            [a, rest @ ..] if a.strip_prefix("--work-tree=").is_some_and(own_work_tree) => args = rest,
            ["--work-tree", v, rest @ ..] if own_work_tree(v) => args = rest,
            ["-C", dir, rest @ ..]
                if !dir.is_empty()
                    && !dir.starts_with(['~', '-'])
                    && !dir.contains('$')
                    && !dir.split('/').any(|s| s == "..") =>
            {
                args = rest
            }
            _ => break,
        }
    }
    // `git` alone prints help.
    let Some(sub) = args.first() else { return true };
    // Bundles of flags as parse-options reads them (red team 50: `git tag -ln`, `git worktree
    // prune -nv`, `git config --local -lz` were asked where `-l -n` was allowed).
    let unbundled: Option<Vec<String>> = git_bundled_flags(sub).map(|flags| git_unbundle(flags, &args[1..]));
    let unbundled: Vec<&str> = unbundled.iter().flatten().map(String::as_str).collect();
    let rest = if unbundled.is_empty() { &args[1..] } else { unbundled.as_slice() };
    // `git --help` and `git -h` alone print the common commands (red team 50: asked);
    // `--exec-path`, `--html-path`, `--man-path` and `--info-path` alone print a directory
    // (red team 53: asked).
    if rest.is_empty() && matches!(*sub, "--help" | "-h" | "--exec-path" | "--html-path" | "--man-path" | "--info-path")
    {
        return true;
    }
    // `git CMD --help ARGS` is `git help --exclude-guides CMD ARGS` (git.c, handle_builtin),
    // whose options ARGS then are: red team 62's `git log --help -i` ran info, `git diff
    // --help -w` a browser, where gate read `-i` and `-w` as log's and diff's.
    if args.get(1) == Some(&"--help") {
        return git_help_read_only(&args[2..]);
    }
    if *sub == "help" {
        return git_help_read_only(&args[1..]);
    }
    let has = |flags: &[&str]| rest.iter().any(|a| flags.iter().any(|f| git_spells_option(sub, a, f)));
    if let Some((_, bad)) = GIT_READ.iter().find(|(s, _)| s == sub) {
        return !has(bad) && !has(&["--ext-diff", "--textconv", "--open-files-in-pager"]);
    }
    match *sub {
        // `--tool-help` alone lists the diff and merge tools git knows (red team 87).
        "difftool" | "mergetool" => matches!(rest, ["--tool-help"]),
        // Listing with filters and patterns: `--merged main`, `-l 'feat*'`. Without a
        // listing option an operand creates a branch.
        "branch" => branch_listing(rest),
        "remote" => {
            // `-v`, `-vv`, `--verbose` before the subcommand only add URLs.
            let k = rest
                .iter()
                .take_while(|a| {
                    matches!(**a, "--verbose")
                        || a.strip_prefix('-').is_some_and(|v| !v.is_empty() && v.chars().all(|c| c == 'v'))
                })
                .count();
            match &rest[k..] {
                [] => true,
                // `get-url [--push] [--all] NAME` prints the URLs.
                ["get-url", operands @ ..] => {
                    let (flags, names): (Vec<&str>, Vec<&str>) =
                        operands.iter().partition(|a| a.starts_with('-') && a.len() > 1);
                    names.len() == 1 && flags.iter().all(|f| matches!(*f, "--push" | "--all"))
                }
                // `show` asks each remote for its branches: a name that is not a configured
                // remote is taken as a URL or a path, so `show http://host/x` makes a request,
                // `show ssh://host/x` runs ssh, `show /elsewhere/repo` reads another repository
                // (sixth red team); a configured remote's name asks that remote over the
                // network, running ssh for an ssh URL (red team 42), as `git ls-remote` does.
                // With `-n` nothing is asked; without operands it lists the names.
                ["show", operands @ ..] => operands.is_empty() || operands.contains(&"-n"),
                _ => false,
            }
        }
        // One operand: prints the ref it points to; a second sets it, `-d` deletes it.
        "symbolic-ref" => {
            let (flags, operands): (Vec<&str>, Vec<&str>) = rest.iter().partition(|a| a.starts_with('-'));
            operands.len() == 1
                && flags.iter().all(|a| matches!(*a, "-q" | "--quiet" | "--short" | "--recurse" | "--no-recurse"))
        }
        // `git reflog [show] [log options] [REF]`, `list`, `exists`: `show` reads like log.
        "reflog" => {
            !matches!(rest.first(), Some(&("expire" | "delete" | "drop" | "write")))
                && !has(&["--output", "--ext-diff", "--textconv", "--open-files-in-pager"])
        }
        _ => git_read_only_more(sub, rest),
    }
}

/// The flags of a listing subcommand that [`git_unbundle`] writes apart, and the letter
/// that takes the digits after it (tag's `-n5`); `None` for the others, read as written.
fn git_bundled_flags(sub: &str) -> Option<(&'static str, &'static str)> {
    match sub {
        "config" => Some(("lz", "")),
        "worktree" => Some(("nvz", "")),
        "tag" => Some(("li", "n")),
        _ => None,
    }
}

/// `args` with each short bundle of `flags` written as separate options (`-lz` as `-l -z`;
/// the counted letter takes the digits after it, `-ln5`); a bundle with any other letter
/// stays whole, and is then not read as a listing.
fn git_unbundle((flags, counted): (&str, &str), args: &[&str]) -> Vec<String> {
    let mut out = Vec::with_capacity(args.len());
    let mut ended = false;
    for a in args {
        ended |= *a == "--";
        let letters = a.strip_prefix('-').filter(|l| !ended && l.len() > 1 && !l.starts_with('-'));
        let split = letters.and_then(|l| {
            let mut opts = Vec::new();
            for (i, c) in l.char_indices() {
                if counted.contains(c) && l[i + 1..].chars().all(|d| d.is_ascii_digit()) {
                    opts.push(format!("-{}", &l[i..]));
                    return Some(opts);
                }
                if !flags.contains(c) {
                    return None;
                }
                opts.push(format!("-{c}"));
            }
            Some(opts)
        });
        match split {
            Some(opts) => out.extend(opts),
            None => out.push((*a).to_string()),
        }
    }
    out
}

/// `git clean -n` (`--dry-run`): prints what would be removed and removes nothing, whatever
/// else is given (`-f` too); not with `-i`, which asks and then removes. Only clean's own
/// options (`-d`, `-x`, `-X`, `-q`, `-f`, `-e PATTERN`), in bundles or abbreviated.
fn clean_dry_run(rest: &[&str]) -> bool {
    const LONGS: &[&str] = &["--dry-run", "--quiet", "--exclude", "--force", "--interactive"];
    let mut dry = false;
    let mut k = 0;
    while k < rest.len() {
        let a = rest[k];
        k += 1;
        if a == "--" {
            break;
        }
        if a.starts_with("--") {
            let long = git_long(a, LONGS);
            match long.split('=').next().unwrap_or(&long) {
                "--dry-run" => dry = true,
                "--quiet" | "--force" => {}
                "--exclude" if long.contains('=') => {}
                "--exclude" => k += 1,
                _ => return false,
            }
        } else if let Some(bundle) = a.strip_prefix('-').filter(|b| !b.is_empty()) {
            // (`e` takes the rest of the bundle, or the next word.)
            let (letters, pattern) = match bundle.split_once('e') {
                Some((l, p)) => (l, Some(p)),
                None => (bundle, None),
            };
            if !letters.chars().all(|c| "ndxXqf".contains(c)) {
                return false;
            }
            dry |= letters.contains('n');
            if pattern == Some("") {
                k += 1;
            }
        }
    }
    dry
}

/// Long options of `git branch`, for its abbreviations.
#[rustfmt::skip]
const BRANCH_LONGS: &[&str] = &[
    "--verbose", "--quiet", "--track", "--no-track", "--set-upstream", "--set-upstream-to", "--unset-upstream",
    "--color", "--no-color", "--remotes", "--contains", "--no-contains", "--abbrev", "--no-abbrev", "--all",
    "--delete", "--move", "--copy", "--force", "--list", "--show-current", "--create-reflog", "--edit-description",
    "--merged", "--no-merged", "--column", "--no-column", "--sort", "--points-at", "--ignore-case", "--omit-empty",
    "--recurse-submodules", "--format", "--no-verbose", "--no-quiet", "--no-all", "--no-remotes", "--no-list",
];

/// A long option written as a unique prefix of one of `longs` (`--merg` for `--merged`),
/// spelled whole with its `=value`; anything else as written.
fn git_long(a: &str, longs: &[&str]) -> String {
    let Some(given) = a.strip_prefix("--").filter(|g| !g.is_empty()) else { return a.to_string() };
    let (name, value) = match given.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (given, None),
    };
    let exact = longs.iter().find(|l| l[2..] == *name);
    let mut prefixed = longs.iter().filter(|l| l[2..].starts_with(name));
    let full = match (exact, prefixed.next(), prefixed.next()) {
        (Some(l), _, _) | (None, Some(l), None) => *l,
        _ => return a.to_string(),
    };
    match value {
        Some(v) => format!("{full}={v}"),
        None => full.to_string(),
    }
}

/// `git -c KEY=VALUE` settings that only change how git prints: colours, path quoting,
/// abbreviations, dates, decorations; a pager or signature check only turned off. A key that
/// could run code holds none then (`pager.log=false`, `core.pager=cat`).
pub(crate) fn git_display_config(kv: &str) -> bool {
    let Some((key, value)) = kv.split_once('=') else { return false };
    let key = key.to_ascii_lowercase();
    let off = matches!(value.to_ascii_lowercase().as_str(), "false" | "no" | "off" | "0");
    const DISPLAY: &[&str] = &[
        "core.quotepath",
        "core.abbrev",
        "log.date",
        "log.decorate",
        "log.abbrevcommit",
        "diff.noprefix",
        "diff.mnemonicprefix",
        "diff.renames",
        "diff.context",
        "diff.interhunkcontext",
        "status.short",
        "status.branch",
        "status.showuntrackedfiles",
        "status.relativepaths",
        "column.ui",
        // Who commits (read-only subcommands do not commit), and how logs and greps print.
        "user.name",
        "user.email",
        "author.name",
        "author.email",
        "committer.name",
        "committer.email",
        "log.follow",
        "log.showroot",
        "log.mailmap",
        "diff.algorithm",
        "diff.indentheuristic",
        "diff.colormoved",
        "diff.colormovedws",
        "diff.statgraphwidth",
        "grep.linenumber",
        "grep.column",
        "grep.extendedregexp",
        "grep.patterntype",
        "grep.fullname",
        "i18n.logoutputencoding",
        "init.defaultbranch",
    ];
    (key.starts_with("color.") && !value.contains(['$', '`', '!']))
        || key.starts_with("advice.")
        || DISPLAY.contains(&key.as_str())
        || off && (key.starts_with("pager.") || key == "log.showsignature" || key == "core.fsmonitor")
        // A pager that only prints what git gives it, or none (empty). (Not `less`, though it
        // is git's default: it overrides a `PAGER=cat` the agent's environment may set, and
        // waits on a terminal.)
        || (key.starts_with("pager.") || key == "core.pager") && matches!(value, "" | "cat")
}

/// The rest of [`git_read_only`]: subcommands that only read in some forms.
fn git_read_only_more(sub: &str, rest: &[&str]) -> bool {
    if sub == "config" {
        // As git reads them: options end at the first operand, so a later word that starts
        // with `-` is a KEY's VALUE or a value pattern, never an option (red team 59: `git
        // config -f .env a.b --get` stores `--get`). Such an operand is passed on without its
        // dash; an option with its value, glued.
        let words: Vec<Word> = rest.iter().map(|a| Word::Lit((*a).to_string())).collect();
        let Some(Ok(p)) = super::grammar::git_config(&words) else { return false };
        let mut canon: Vec<String> = p
            .opts
            .iter()
            .map(|f| match f.value.as_ref().map(Word::display) {
                Some(v) => format!("{}={v}", f.opt.name),
                None => f.opt.name.to_string(),
            })
            .collect();
        let sub_first = matches!(rest.first(), Some(&("list" | "get")))
            && p.operands.first().and_then(Word::lit) == rest.first().copied();
        for (k, o) in p.operands.iter().enumerate() {
            let text = o.display();
            let shown = if text.starts_with('-') { format!("x.{}", text.trim_start_matches('-')) } else { text };
            if k == 0 && sub_first {
                canon.insert(0, shown);
            } else {
                canon.push(shown);
            }
        }
        let canon: Vec<&str> = canon.iter().map(String::as_str).collect();
        return git_config_read_only(&canon);
    }
    match sub {
        "tag" => tag_listing(rest),
        "stash" => matches!(rest.first(), Some(&"list") | Some(&"show")),
        "clean" => clean_dry_run(rest),
        // `git format-patch --stdout`: the patches on standard output, no files written (git
        // refuses `--stdout` with `-o` or `--output`); not with an option that runs a program
        // or reads a named file.
        "format-patch" => {
            let has = |flags: &[&str]| rest.iter().any(|a| flags.iter().any(|f| git_spells_option(sub, a, f)));
            // The last of `--stdout` and `--no-stdout` counts (red team 44: `--stdout -1
            // --no-stdout` writes 0001-*.patch).
            let stdout = rest.iter().rev().find_map(|a| {
                if a.len() > 4 && "--stdout".starts_with(*a) {
                    Some(true)
                } else if a.len() > 5 && "--no-stdout".starts_with(*a) {
                    Some(false)
                } else {
                    None
                }
            });
            stdout == Some(true)
                && !has(&[
                    "--output",
                    "--output-directory",
                    "-o",
                    "--ext-diff",
                    "--textconv",
                    "--signature-file",
                    "--description-file",
                    "--open-files-in-pager",
                ])
        }
        // `git apply --check`/`--stat`/`--numstat`/`--summary` only read the patch (its file
        // operands are reads), unless `--apply` (or a form that writes) comes too. A plain
        // `git apply [-pN] [-R] [PATCH]` only writes the files its patch names, decided as
        // writes (red team 48: a heredoc patch of docs/a.md was asked).
        "apply" => {
            let plain = rest.iter().all(|a| {
                !a.starts_with('-')
                    || matches!(*a, "-v" | "--verbose" | "-R" | "--reverse")
                    || a.strip_prefix("-p").is_some_and(|n| n.parse::<usize>().is_ok())
            });
            plain
                || rest.iter().any(|a| matches!(*a, "--check" | "--stat" | "--numstat" | "--summary"))
                    && rest.iter().all(|a| {
                        !a.starts_with('-')
                            || matches!(
                                *a,
                                "--check"
                                    | "--stat"
                                    | "--numstat"
                                    | "--summary"
                                    | "-v"
                                    | "--verbose"
                                    | "-z"
                                    | "-p1"
                                    | "-p0"
                                    | "-R"
                                    | "--reverse"
                            )
                    })
        }
        // `prune -n` (`--dry-run`) only prints what it would prune (red team 48).
        "worktree" => {
            let dry = rest.first() == Some(&"prune") && rest[1..].iter().any(|a| matches!(*a, "-n" | "--dry-run"));
            (rest.first() == Some(&"list") || dry)
                && rest[1..].iter().enumerate().all(|(k, a)| {
                    // `--expire TIME` only marks which worktrees are old enough to prune.
                    matches!(*a, "--porcelain" | "-v" | "--verbose" | "-z" | "--expire" | "-n" | "--dry-run")
                        || a.starts_with("--expire=")
                        || (k > 0 && rest[k] == "--expire")
                })
        }
        // `--ref R` (or `--ref=R`) names the notes ref before the subcommand.
        "notes" => {
            let rest = match rest {
                ["--ref", _, more @ ..] => more,
                [r, more @ ..] if r.starts_with("--ref=") => more,
                _ => rest,
            };
            // (`get-ref` prints the notes ref: red team 50.)
            rest.is_empty() || matches!(rest.first(), Some(&("list" | "show"))) || rest == ["get-ref"]
        }
        "submodule" => rest.is_empty() || rest.first() == Some(&"status"),
        // An archive of a tree on standard output (red team 51: `git archive HEAD | tar -t`);
        // not `-o` (a file), `--remote`/`--exec` (another repository, a program), `--add-file`.
        "archive" => rest.iter().all(|a| {
            !a.starts_with('-')
                || matches!(*a, "-v" | "--verbose" | "-l" | "--list" | "--worktree-attributes")
                || a.starts_with("--format=")
                || a.starts_with("--prefix=")
                || a.starts_with("--mtime=")
                || (a.len() == 2 && a.as_bytes()[1].is_ascii_digit())
        }),
        // The log of the bisection in progress; `sparse-checkout list` prints the patterns.
        "bisect" => rest == ["log"],
        "sparse-checkout" => rest == ["list"],
        // `replace` alone, `-l`/`--list` with a pattern and `--format`, lists replacements.
        "replace" => {
            let mut listing = rest.is_empty();
            let mut k = 0;
            while k < rest.len() {
                match rest[k] {
                    "-l" | "--list" => listing = true,
                    "--format" => k += 1,
                    a if a.starts_with("--format=") || !a.starts_with('-') => {}
                    _ => return false,
                }
                k += 1;
            }
            listing
        }
        _ => false,
    }
}

/// `git config`'s words, options before operands ([`git_read_only_more`]), read: only the
/// forms that get or list.
fn git_config_read_only(rest: &[&str]) -> bool {
    match () {
        // `--includes` with a file named (`-f F`, `--file=F`, `--blob=B`) makes git also read
        // the files that F's `include.path` and `includeIf` entries name: any path, out of
        // gate's sight (sixth red team: `git config --list --includes --file docs/x.md`).
        // Without a named file, git follows the includes of its usual files, as every git
        // command does.
        () if rest.iter().any(|a| a.starts_with("--inc") && "--includes".starts_with(*a))
            && rest
                .iter()
                .any(|a| spells_option(a, "--file") || spells_option(a, "-f") || spells_option(a, "--blob")) =>
        {
            false
        }
        // Newer git's `config list` and `config get KEY` read; `config edit`, `set`, `unset`,
        // `rename-section`, `remove-section` edit (and `edit` opens an editor).
        () if matches!(rest.first(), Some(&("list" | "get"))) => rest[1..].iter().all(|a| {
            !a.starts_with('-')
                || matches!(
                    *a,
                    "--global"
                        | "--local"
                        | "--system"
                        | "--worktree"
                        | "--show-origin"
                        | "--show-scope"
                        | "--includes"
                        | "--no-includes"
                        | "-z"
                        | "--null"
                        | "--name-only"
                        | "--all"
                        | "--regexp"
                        | "--show-names"
                        | "--no-show-names"
                        | "--bool"
                        | "--int"
                        | "--bool-or-int"
                        | "--path"
                        | "--expiry-date"
                )
                || a.starts_with("--type=")
                || a.starts_with("--default=")
                || a.starts_with("--value=")
                || a.starts_with("--fixed-value")
        }),
        () => {
            // A first word without `-` and without a section is newer git's subcommand
            // (`edit`, `set`, ...): only `list` and `get` (above) read.
            if rest.first().is_some_and(|a| !a.starts_with('-') && !a.contains('.')) {
                return false;
            }
            let edits = |a: &&str| {
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
            };
            if rest.iter().any(edits) {
                return false;
            }
            // An action that reads: its operands are names, patterns and URLs.
            if rest
                .iter()
                .any(|a| matches!(*a, "--get" | "--get-all" | "--list" | "-l" | "--get-regexp" | "--get-urlmatch"))
            {
                return true;
            }
            // `git config KEY` (one operand, no value) reads, like `--get`. A key has a section.
            // (The file it reads, `-f F`, `--file=F`, `--blob=B`, is no operand: decided as a
            // read where the words are; red team 84: `git config --file .git/config core.bare`
            // was asked.)
            let mut kept: Vec<&str> = Vec::with_capacity(rest.len());
            let mut it = rest.iter();
            while let Some(a) = it.next() {
                if matches!(*a, "-f" | "--file" | "--blob") {
                    it.next();
                } else if !(a.starts_with("--file=") || a.starts_with("--blob=")) {
                    kept.push(a);
                }
            }
            let rest = kept.as_slice();
            if rest.iter().filter(|a| !a.starts_with('-')).any(|a| !a.contains('.')) {
                return false;
            }
            let operands = rest.iter().filter(|a| !a.starts_with('-')).count();
            let read_flags = rest.iter().filter(|a| a.starts_with('-')).all(|a| {
                matches!(
                    *a,
                    "--global"
                        | "--local"
                        | "--system"
                        | "--show-origin"
                        | "--show-scope"
                        | "--includes"
                        | "-z"
                        | "--null"
                        // Legacy type flags: how the one value is printed.
                        | "--bool"
                        | "--int"
                        | "--bool-or-int"
                        | "--path"
                        | "--expiry-date"
                        | "--no-type"
                ) || a.starts_with("--type=")
            });
            operands == 1 && read_flags
        }
    }
}

/// `git tag` lists when told to (`-l`, `--list`), when a filter or `-n` implies it (git-tag(1):
/// `--contains`, `--no-contains`, `--points-at`, `--merged`, `--no-merged`, `-n`), or when no
/// tag is named; with display options only (`--sort`, `--format`, `--color`, `--column`, `-i`).
fn tag_listing(rest: &[&str]) -> bool {
    #[rustfmt::skip]
    const LONGS: &[&str] = &[
        "--list", "--delete", "--verify", "--annotate", "--sign", "--no-sign", "--local-user", "--force", "--message",
        "--file", "--trailer", "--edit", "--cleanup", "--create-reflog", "--column", "--no-column", "--contains",
        "--no-contains", "--points-at", "--merged", "--no-merged", "--sort", "--format", "--color", "--no-color",
        "--ignore-case", "--omit-empty",
    ];
    const FILTERS: &[&str] = &["--contains", "--no-contains", "--points-at", "--merged", "--no-merged"];
    let mut listing = false;
    let mut operands = 0;
    let mut k = 0;
    while k < rest.len() {
        let a = git_long(rest[k], LONGS);
        let name = a.split('=').next().unwrap_or(&a);
        if matches!(name, "-l" | "--list")
            || a.strip_prefix("-n").is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()))
        {
            listing = true;
        } else if FILTERS.contains(&name) {
            listing = true;
            // The commit as the next word (a pattern otherwise: listing either way).
            if !a.contains('=') && rest.get(k + 1).is_some_and(|v| !v.starts_with('-')) {
                k += 1;
            }
        } else if matches!(name, "--sort" | "--format") {
            if !a.contains('=') {
                k += 1;
            }
        } else if matches!(
            name,
            "--color" | "--no-color" | "--column" | "--no-column" | "-i" | "--ignore-case" | "--omit-empty"
        ) {
        } else if !a.starts_with('-') {
            operands += 1;
        } else {
            return false;
        }
        k += 1;
    }
    listing || operands == 0
}

/// `git branch` that only lists, read as git's parse-options reads it (eleventh red team:
/// `--column`, `-q`, `--no-abbrev`, `--sort KEY` were asked). A listing option (`-l`,
/// `--list`, or a filter: `--merged`, `--no-merged`, `--contains`, `--no-contains`,
/// `--points-at`) makes operands name patterns; without one an operand names a branch to
/// create (`git branch -v foo` and `git branch --abbrev 7` create one), so only display
/// options may be given. Any option not known here is not a listing.
fn branch_listing(rest: &[&str]) -> bool {
    // Filters whose commit is the next word when there is one (git's LASTARG_DEFAULT).
    const FILTERS: &[&str] = &["--merged", "--no-merged", "--contains", "--no-contains"];
    // Display options without a value; `--color`, `--column` and `--abbrev` take one only
    // glued (`--abbrev 7` creates the branch `7`).
    #[rustfmt::skip]
    const FLAGS: &[&str] = &[
        "--all", "--remotes", "--verbose", "--quiet", "--list", "--no-color", "--color", "--no-column", "--column",
        "--abbrev", "--no-abbrev", "--ignore-case", "--omit-empty", "--show-current", "--no-verbose", "--no-quiet",
    ];
    let mut listing = false;
    let mut operands = 0;
    let mut k = 0;
    while k < rest.len() {
        let raw = rest[k];
        k += 1;
        if raw == "--" {
            operands += rest.len() - k;
            break;
        }
        if let Some(letters) = raw.strip_prefix('-').filter(|l| !l.is_empty() && !l.starts_with('-')) {
            // A bundle of flag letters only: every other short option of branch acts.
            if !letters.chars().all(|c| "arvqil".contains(c)) {
                return false;
            }
            listing |= letters.contains('l');
            continue;
        }
        if !raw.starts_with("--") {
            operands += 1;
            continue;
        }
        let a = git_long(raw, BRANCH_LONGS);
        let (name, glued) = match a.split_once('=') {
            Some((n, _)) => (n, true),
            None => (a.as_str(), false),
        };
        if FILTERS.contains(&name) || name == "--points-at" {
            listing = true;
            // The commit (or object) as the next word.
            if !glued && k < rest.len() {
                k += 1;
            }
        } else if matches!(name, "--sort" | "--format") {
            if !glued {
                k += 1; // the key or format as the next word, whatever it starts with
            }
        } else if FLAGS.contains(&name) && (!glued || matches!(name, "--color" | "--column" | "--abbrev")) {
            listing |= name == "--list";
        } else {
            return false;
        }
    }
    listing || operands == 0
}

/// Git global options and whether each takes a separate value.
const GIT_GLOBALS_WITH_VALUE: &[&str] = &[
    "-C",
    "-c",
    "--git-dir",
    "--work-tree",
    "--namespace",
    "--config-env",
    "--super-prefix",
    "--list-cmds",
    "--attr-source",
];

/// Whether a git global option takes the next word as its value (`-C DIR`, `--git-dir X`).
pub(crate) fn git_global_takes_value(a: &str) -> bool {
    GIT_GLOBALS_WITH_VALUE.contains(&a)
}

/// Where git's subcommand is among its arguments: after the global options (and the values
/// of those that take one).
pub(crate) fn git_subcommand_at(args: &[Word]) -> usize {
    let mut i = 0;
    while let Some(Word::Lit(a)) = args.get(i) {
        if !a.starts_with('-') {
            break;
        }
        i += if git_global_takes_value(a) { 2 } else { 1 };
    }
    // A value-taking option last (`git -C`) has no value: the subcommand is past the end.
    i.min(args.len())
}

/// git configuration keys (lower case) whose value is a program or shell text git runs.
pub(crate) fn git_key_runs_code(key: &str) -> bool {
    const EXACT: &[&str] = &[
        "interactive.difffilter",
        "core.alternaterefscommand",
        "instaweb.httpd",
        "core.pager",
        "core.editor",
        "sequence.editor",
        "core.sshcommand",
        "core.fsmonitor",
        "core.askpass",
        "core.gitproxy",
        "core.hookspath",
        "diff.external",
        "credential.helper",
        "gpg.program",
        "uploadpack.packobjectshook",
        "web.browser",
        "man.viewer",
        "merge.tool",
        "diff.tool",
        "ssh.variant",
        "sendemail.sendmailcmd",
        "sendemail.smtpserver",
        "include.path",
        "core.worktree",
        "receive.procreceiverefs",
    ];
    const LAST: &[&str] = &[
        "textconv",
        "command",
        "clean",
        "smudge",
        "process",
        "program",
        "driver",
        "cmd",
        "receivepack",
        "uploadpack",
        "helper",
    ];
    EXACT.contains(&key)
        || key.starts_with("pager.")
        || key.starts_with("includeif.")
        // `submodule.NAME.update=!CMD` runs CMD on `git submodule update`.
        || key.starts_with("submodule.") && key.ends_with(".update")
        || key.rsplit('.').next().is_some_and(|last| LAST.contains(&last)) && key.contains('.')
        // `man.TOOL.path`, `browser.TOOL.path`, `difftool.TOOL.path`: the program a viewer or
        // tool runs (red team 40: `-c man.viewer=man -c man.man.path=/bin/rm log --help`).
        || ["man.", "browser.", "difftool.", "mergetool."].iter().any(|p| key.starts_with(p)) && key.ends_with(".path")
}

/// Alternative spellings of a command for deny and ask rules: git without its global options.
pub(crate) fn aliases(words: &[Word]) -> Vec<Vec<Word>> {
    let mut out = Vec::new();
    // `sudoedit FILE` is `sudo -e FILE` (red team 41): rules on sudo meet it.
    if words.first().and_then(Word::lit).map(program_name) == Some("sudoedit") {
        let mut w = vec![Word::Lit("sudo".into()), Word::Lit("-e".into())];
        w.extend_from_slice(&words[1..]);
        out.push(w);
    }
    if words.first().and_then(Word::lit).map(program_name) == Some("git") {
        let i = 1 + git_subcommand_at(&words[1..]);
        if i > 1 && i <= words.len() {
            let mut w = vec![words[0].clone()];
            w.extend_from_slice(&words[i..]);
            out.push(w);
        }
        // An unknown subcommand is run as the command git's autocorrection picks when the
        // user's configuration (or `-c help.autocorrect=...`) turns it on: `git rset --hard`
        // is `git reset --hard` (red team 40). Each best candidate is a reading of it.
        if let Some(Word::Lit(sub)) = words.get(i) {
            for c in git_autocorrect(sub) {
                let mut w = words.to_vec();
                w[i] = Word::Lit(c.to_string());
                out.push(w);
            }
        }
    }
    out
}

/// git's commands (`git help -a`, 2.47), for its autocorrection: a subcommand not among them
/// is a typo git may correct (or an alias, which gate cannot see).
#[rustfmt::skip]
const GIT_COMMANDS: &[&str] = &[
    "add", "am", "archive", "bisect", "branch", "bundle", "checkout", "cherry-pick", "citool", "clean", "clone",
    "commit", "describe", "diff", "fetch", "format-patch", "gc", "gitk", "grep", "gui", "init", "log",
    "maintenance", "merge", "mv", "notes", "pull", "push", "range-diff", "rebase", "reset", "restore", "revert",
    "rm", "scalar", "shortlog", "show", "sparse-checkout", "stash", "status", "submodule", "switch", "tag",
    "worktree", "config", "fast-export", "fast-import", "filter-branch", "mergetool", "pack-refs", "prune",
    "reflog", "refs", "remote", "repack", "replace", "annotate", "blame", "bugreport", "count-objects",
    "diagnose", "difftool", "fsck", "gitweb", "help", "instaweb", "merge-tree", "rerere", "show-branch",
    "verify-commit", "verify-tag", "version", "whatchanged", "archimport", "cvsexportcommit", "cvsimport",
    "cvsserver", "imap-send", "p4", "quiltimport", "request-pull", "send-email", "svn", "apply",
    "checkout-index", "commit-graph", "commit-tree", "hash-object", "index-pack", "merge-file", "merge-index",
    "mktag", "mktree", "multi-pack-index", "pack-objects", "prune-packed", "read-tree", "replay", "symbolic-ref",
    "unpack-objects", "update-index", "update-ref", "write-tree", "cat-file", "cherry", "diff-files",
    "diff-index", "diff-tree", "for-each-ref", "for-each-repo", "get-tar-commit-id", "ls-files", "ls-remote",
    "ls-tree", "merge-base", "name-rev", "pack-redundant", "rev-list", "rev-parse", "show-index", "show-ref",
    "unpack-file", "var", "verify-pack", "daemon", "fetch-pack", "http-backend", "send-pack",
    "update-server-info", "check-attr", "check-ignore", "check-mailmap", "check-ref-format", "column",
    "credential", "credential-cache", "credential-store", "fmt-merge-msg", "hook", "interpret-trailers",
    "mailinfo", "mailsplit", "merge-one-file", "patch-id", "sh-i18n", "sh-setup", "stripspace",
    "backfill", "last-modified", "repo",
];

/// git's "common" commands: a prefix of one scores best in its autocorrection.
const GIT_COMMON: &[&str] = &[
    "add", "bisect", "branch", "clone", "commit", "diff", "fetch", "grep", "init", "log", "merge", "mv", "pull",
    "push", "rebase", "reset", "restore", "rm", "show", "status", "switch", "tag",
];

/// The commands git's autocorrection may run for the unknown subcommand `sub` (help.c: a
/// common command `sub` begins scores 0, any other its weighted Damerau-Levenshtein distance
/// plus one; the best score under 7 wins). Every command with the best score is returned (git
/// runs one only when it is alone; gate does not rely on that). Empty for a known command.
pub(crate) fn git_autocorrect(sub: &str) -> Vec<&'static str> {
    if sub.is_empty() || sub.starts_with('-') || GIT_COMMANDS.contains(&sub) || sub.len() > 64 {
        return Vec::new();
    }
    let score = |c: &str| {
        if GIT_COMMON.contains(&c) && c.starts_with(sub) {
            0
        } else {
            git_levenshtein(sub.as_bytes(), c.as_bytes()) + 1
        }
    };
    let scored: Vec<(usize, &'static str)> = GIT_COMMANDS.iter().map(|c| (score(c), *c)).collect();
    let best = scored.iter().map(|(s, _)| *s).min().unwrap_or(usize::MAX);
    if best >= 7 {
        return Vec::new();
    }
    scored.into_iter().filter(|(s, _)| *s == best).map(|(_, c)| c).collect()
}

/// git's `levenshtein(a, b, 0, 2, 1, 3)`: a swap of two neighbours costs 0, a substitution 2,
/// an insertion 1, a deletion 3.
fn git_levenshtein(a: &[u8], b: &[u8]) -> usize {
    let (swap, subst, ins, del) = (0, 2, 1, 3);
    let mut row0 = vec![0usize; b.len() + 1];
    let mut row1: Vec<usize> = (0..=b.len()).map(|j| j * ins).collect();
    let mut row2 = vec![0usize; b.len() + 1];
    for i in 0..a.len() {
        row2[0] = (i + 1) * del;
        for j in 0..b.len() {
            row2[j + 1] = row1[j] + subst * usize::from(a[i] != b[j]);
            if i > 0 && j > 0 && a[i - 1] == b[j] && a[i] == b[j - 1] && row2[j + 1] > row0[j - 1] + swap {
                row2[j + 1] = row0[j - 1] + swap;
            }
            row2[j + 1] = row2[j + 1].min(row1[j + 1] + del).min(row2[j] + ins);
        }
        std::mem::swap(&mut row0, &mut row1);
        std::mem::swap(&mut row1, &mut row2);
    }
    row1[b.len()]
}

/// How a known-safe command's arguments are checked.
enum Args {
    /// Any arguments: the command only reads and prints.
    Any,
    /// Any arguments except these options (exact, or `--opt=` forms).
    Without(&'static [&'static str]),
    /// A check of its own.
    Custom(fn(&[&str]) -> bool),
}

#[rustfmt::skip]
static SAFE: &[(&str, Args)] = &[
    ("ls", Args::Any), ("dir", Args::Any), ("vdir", Args::Any), ("cat", Args::Any), ("head", Args::Any), ("tail", Args::Any), ("wc", Args::Any),
    ("echo", Args::Any), ("printf", Args::Any), ("pwd", Args::Any), ("true", Args::Any), ("false", Args::Any),
    ("grep", Args::Any), ("egrep", Args::Any), ("fgrep", Args::Any), ("rg", Args::Any),
    ("which", Args::Any), ("whoami", Args::Any), ("id", Args::Any), ("uname", Args::Any), ("basename", Args::Any),
    ("dirname", Args::Any), ("realpath", Args::Any), ("readlink", Args::Any), ("stat", Args::Any),
    ("file", Args::Any), ("du", Args::Any), ("df", Args::Any), ("printenv", Args::Any),
    ("test", Args::Any), ("[", Args::Any), ("diff", Args::Any), ("cmp", Args::Any), ("cut", Args::Any), ("tr", Args::Any),
    ("nl", Args::Any), ("seq", Args::Any), ("numfmt", Args::Any), ("sleep", Args::Any), ("jq", Args::Any), ("md5sum", Args::Any),
    ("sha1sum", Args::Any), ("sha256sum", Args::Any), ("sha512sum", Args::Any), ("cksum", Args::Any), ("comm", Args::Any),
    ("sha224sum", Args::Any), ("sha384sum", Args::Any), ("b2sum", Args::Any), ("base32", Args::Any), ("fmt", Args::Any),
    ("iconv", Args::Any),
    ("paste", Args::Any), ("join", Args::Any), ("split", Args::Any), ("fold", Args::Any), ("expand", Args::Any), ("unexpand", Args::Any), ("rev", Args::Any), ("tac", Args::Any),
    ("od", Args::Any), ("hexdump", Args::Any), ("strings", Args::Any), ("base64", Args::Any), ("column", Args::Any),
    ("tree", Args::Any), ("type", Args::Any), ("whereis", Args::Any), ("ps", Args::Custom(ps_lists)), ("npm", Args::Custom(npm_lists)), ("free", Args::Any),
    ("uptime", Args::Any), ("nproc", Args::Any), ("locale", Args::Any), ("tee", Args::Any), ("cd", Args::Any),
    ("pushd", Args::Any), ("popd", Args::Any), ("dirs", Args::Any), (":", Args::Any), ("exit", Args::Any), ("return", Args::Any),
    ("break", Args::Any), ("continue", Args::Any), ("shift", Args::Any), ("set", Args::Any), ("export", Args::Any),
    ("unset", Args::Any), ("local", Args::Any), ("declare", Args::Any), ("typeset", Args::Any), ("readonly", Args::Any),
    ("read", Args::Any), ("wait", Args::Any), ("shopt", Args::Any), ("hash", Args::Any), ("getopts", Args::Any),
    ("let", Args::Any), ("mapfile", Args::Any), ("readarray", Args::Any),
    ("date", Args::Any), ("hostname", Args::Any), ("env", Args::Any),
    ("sort", Args::Any), ("uniq", Args::Any), ("yes", Args::Any), ("arch", Args::Any),
    ("bc", Args::Any), ("factor", Args::Any), ("shuf", Args::Any), ("groups", Args::Any), ("lscpu", Args::Any),
    ("ss", Args::Any), ("gzip", Args::Any), ("gunzip", Args::Any),
    // Writers of the files they name, each write decided by the write rules.
    ("touch", Args::Any), ("truncate", Args::Any), ("mkdir", Args::Any), ("cp", Args::Any), ("mv", Args::Any),
    // (`-fprint F`, `-fprint0 F`, `-fprintf F FMT`, `-fls F` write F: decided as writes.)
    ("find", Args::Without(&["-delete", "-exec", "-execdir", "-ok", "-okdir"])),
    ("sed", Args::Any), ("git", Args::Custom(git_read_only)),
    ("command", Args::Any), ("zcat", Args::Any), ("trap", Args::Any), ("complete", Args::Any), ("compgen", Args::Any),
    ("tar", Args::Any), ("xxd", Args::Custom(|_| false)), ("unzip", Args::Custom(zip_lists)),
    ("zipinfo", Args::Custom(zipinfo_lists)),
    ("pgrep", Args::Custom(pgrep_lists)),
    // `dd if=IN of=OUT bs=... status=none`: IN read, OUT written, each decided by the rules
    // (red team 74); every word one of its operands (no conversion runs anything).
    ("dd", Args::Custom(|args| {
        const KEYS: &[&str] =
            &["if", "of", "bs", "ibs", "obs", "cbs", "count", "skip", "seek", "iseek", "oseek", "status", "conv", "iflag", "oflag"];
        args.iter().all(|a| a.split_once('=').is_some_and(|(k, v)| KEYS.contains(&k) && !v.is_empty()))
    })),
    // One system variable (`getconf ARG_MAX`) or all of them (`-a`); not `-v SPEC`, which
    // runs another getconf, nor a path operand (red team 73).
    ("getconf", Args::Custom(|args| match args {
        [n] => *n == "-a" || (!n.is_empty() && n.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')),
        _ => false,
    })),
    // `exec` with only redirections makes them last; they are decided as reads and writes.
    ("exec", Args::Custom(|args| args.is_empty())),
    // Queries of the shell's limits and signal names (red team 47): `ulimit -n`, `kill -l 9`.
    ("ulimit", Args::Custom(|args| args.iter().all(|a| a.starts_with('-') && a.len() > 1 && a[1..].chars().all(|c| c.is_ascii_alphabetic())))),
    ("kill", Args::Custom(|args| {
        matches!(args.first(), Some(&("-l" | "-L" | "--list" | "--table")))
            && args[1..].iter().all(|a| !a.is_empty() && a.chars().all(|c| c.is_ascii_alphanumeric()))
    })),
    // Listings and a calculator (`jobs -x` runs a command; `umask MODE` changes the mask).
    ("jobs", Args::Custom(|args| !args.iter().any(|a| a.starts_with('-') && a.contains('x')))),
    ("umask", Args::Custom(umask_args)),
    ("alias", Args::Custom(|args| args.iter().all(|a| *a == "-p"))),
    ("expr", Args::Any),
    // bash's `help` prints the text of builtins.
    ("help", Args::Any),
];

/// `ps` lists processes, but BSD's `e` modifier (`ps auxe`, `ps eww`) prints each one's
/// environment, where secrets live (eleventh red team).
/// `npm ls [--depth=N] [--all] [--json] ... [PACKAGE...]`: the installed tree below the
/// project, printed; no script runs (red team 63). Not `-g` (the global tree, outside).
fn npm_lists(args: &[&str]) -> bool {
    let Some((sub, rest)) = args.split_first() else { return false };
    let option = |a: &str| {
        matches!(
            a,
            "--all"
                | "-a"
                | "--json"
                | "--long"
                | "-l"
                | "--parseable"
                | "-p"
                | "--prod"
                | "--production"
                | "--dev"
                | "--link"
                | "--unicode"
                | "--no-unicode"
                | "--omit=dev"
                | "--omit=optional"
                | "--omit=peer"
        ) || a.strip_prefix("--depth=").is_some_and(|n| n.parse::<u32>().is_ok() || n == "Infinity")
    };
    let package = |a: &str| {
        !a.is_empty()
            && !a.starts_with(['-', '.', '/'])
            && !a.contains("..")
            && a.chars().all(|c| c.is_ascii_alphanumeric() || "@/-._".contains(c))
    };
    // (Red team 69: `npm pkg get scripts`, `npm prefix`, `npm explain PKG` only print.)
    let key = |a: &str| {
        !a.is_empty() && !a.starts_with('-') && a.chars().all(|c| c.is_ascii_alphanumeric() || "@/-._[]".contains(c))
    };
    match *sub {
        "ls" | "list" | "ll" | "la" => rest.iter().all(|a| option(a) || package(a)),
        "pkg" => matches!(rest.split_first(), Some((&"get", keys)) if keys.iter().all(|a| key(a) || *a == "--json")),
        "prefix" | "root" => rest.is_empty(),
        "explain" | "why" => !rest.is_empty() && rest.iter().all(|a| package(a) || *a == "--json"),
        _ => false,
    }
}

fn ps_lists(args: &[&str]) -> bool {
    // procps options whose value is the next word when not glued (`-o pid,cmd`, `--sort x`).
    // (procps reads long options whole, no abbreviation; those `ps --help all` lists with a
    // value, and no other: red team 80 found `ps --context axe`, a flag, allowed where `axe`
    // was skipped as its value, and `e` prints every process's environment.)
    const LONG_VALUE: &[&str] = &[
        "cols",
        "columns",
        "format",
        "group",
        "Group",
        "lines",
        "pid",
        "ppid",
        "quick-pid",
        "rows",
        "sid",
        "sort",
        "tty",
        "user",
        "User",
        "width",
    ];
    const LONG_FLAG: &[&str] = &[
        "context",
        "cumulative",
        "deselect",
        "forest",
        "headers",
        "no-header",
        "no-headers",
        "no-heading",
        "no-headings",
        "noheader",
        "noheaders",
        "noheading",
        "noheadings",
        "help",
        "info",
        "version",
    ];
    let known_long = |a: &str| {
        a.strip_prefix("--").is_none_or(|long| {
            let name = long.split_once('=').map_or(long, |(n, _)| n);
            LONG_VALUE.contains(&name) || LONG_FLAG.contains(&long)
        })
    };
    if !args.iter().all(|a| known_long(a)) {
        return false;
    }
    let takes = |a: &str| match a.strip_prefix("--") {
        Some(long) => LONG_VALUE.contains(&long),
        None => a
            .strip_prefix('-')
            .is_some_and(|l| l.ends_with(['C', 'G', 'g', 'o', 'O', 'p', 'q', 's', 't', 'U', 'u', 'D', 'k'])),
    };
    // A dash word with a letter procps does not read as a UNIX option (`-aux`, `-x`) makes
    // it read the whole line again as BSD options, where `e` anywhere prints environments
    // (red team 41: `ps -eaux`, `ps -eaf -x`).
    const UNIX: &str = "AaCcdeFfGgHjLlMmNOoPpqsTtUuVwXyZDkr";
    // (A value glued to its letter counts too: `-aux` is read as BSD when no user `x`; so is
    // one of UNIX letters, `-ue`, `-ge`, `-se`, when no user, group or session `e` exists:
    // red team 90. A list of numbers, `-p123`, is not read again.)
    const VALUED: &str = "CGgpqstUuDkoO";
    let read_again = |letters: &str| {
        // The letters up to the first that takes a value, and that value.
        let (flags, value) = match letters.char_indices().find(|(_, c)| VALUED.contains(*c)) {
            Some((i, c)) => letters.split_at(i + c.len_utf8()),
            None => (letters, ""),
        };
        flags.chars().any(|c| !UNIX.contains(c))
            || !value.is_empty() && !value.chars().all(|d| d.is_ascii_digit() || d == ',')
    };
    let bsd_again = args.iter().any(|a| a.strip_prefix('-').filter(|l| !l.starts_with('-')).is_some_and(read_again));
    if bsd_again && args.iter().any(|a| !a.starts_with("--") && a.contains('e')) {
        return false;
    }
    let mut value_next = false;
    args.iter().all(|a| {
        let is_value = value_next;
        value_next = a.starts_with('-') && takes(a);
        a.starts_with('-') || is_value || !a.contains('e')
    })
}

/// `pgrep` only lists processes (it never signals: that is `pkill`), except that `-F FILE`
/// (`--pidfile`, with `-L`/`--logpidfile`) reads a file: not with those, in a bundle or a
/// long option abbreviated (`--pi`), nor after `--`.
fn pgrep_lists(args: &[&str]) -> bool {
    args.iter().all(|a| match a.strip_prefix("--") {
        Some(long) => !(long.is_empty() || long.starts_with("pi") || long.starts_with("lo")),
        None => !(a.starts_with('-') && a.contains(['F', 'L'])),
    })
}

/// `unzip -l`, `-v`, `-t`, `-z`, `-Z` and `zipinfo` only list or test: one bundle of
/// letters first, holding a listing letter (`unzip -q` alone extracts), then the archive and
/// member patterns (and `-x` patterns to leave out). Not `-T` (unzip sets the archive's time),
/// not `-M` (a pager); no `-d`, no other option; and no wildcard in the archive's name (unzip
/// expands it itself, out of gate's sight).
fn zip_lists(args: &[&str]) -> bool {
    let Some((first, rest)) = args.split_first() else { return false };
    let Some(letters) = first.strip_prefix('-') else { return false };
    let ok = match letters.strip_prefix('Z') {
        // zipinfo's letters after `-Z`.
        Some(z) => z.chars().all(|c| "12smlvhtTz".contains(c)),
        None => letters.chars().all(|c| "lvtqz".contains(c)) && letters.contains(['l', 'v', 't', 'z']),
    };
    ok && zip_operands(rest)
}

/// The archive (no wildcard), then member patterns and `-x` patterns.
fn zip_operands(rest: &[&str]) -> bool {
    rest.first().is_some_and(|a| !a.starts_with('-') && !a.contains(['*', '?', '[']))
        && rest.iter().all(|a| !a.starts_with('-') || *a == "-x")
}

/// `zipinfo` lists, with or without its listing letters (not `-M`, a pager).
fn zipinfo_lists(args: &[&str]) -> bool {
    match args.first() {
        Some(a) if a.starts_with('-') => {
            a[1..].chars().all(|c| "12smlvhtTz".contains(c)) && !a[1..].is_empty() && zip_operands(&args[1..])
        }
        Some(_) => zip_operands(args),
        None => false,
    }
}

/// `sed` is safe when its scripts (given by `-e`, or the first operand) run no command and use
/// nothing gate does not read (`shell/scripts.rs`); no script file, no in-place edit (an
/// option marked as acting). Files a script reads (`r F`) and writes (`w F`) are decided as
/// reads and writes by the walker.
fn sed_read_only(p: &grammar::Parsed) -> bool {
    if p.with('R').next().is_some() {
        return false; // a script file gate cannot see
    }
    // (Files its `w` commands write are decided as writes by the walker: red team 63 found
    // `sed -n '/fn/w docs/fns.md'` asked.)
    sed_script(p).is_some_and(|w| {
        w.lit().is_some_and(|s| {
            let e = super::scripts::sed(s);
            e.commands.is_empty() && e.unknown.is_none()
        })
    })
}

/// The one script sed runs: its `-e` scripts joined by line ends, as GNU sed joins them (red
/// team 83: `sed -e 'a\' -e 'w .env'` appends the text `w .env`, writing nothing), or its
/// first operand (none with a script file, `-f`: then the `-e` scripts only); a run-time word
/// where one is only known at run time.
pub(crate) fn sed_script(p: &grammar::Parsed) -> Option<Word> {
    let given: Vec<&Word> = p.with('P').filter_map(|f| f.value.as_ref()).collect();
    match given.as_slice() {
        [] if p.with('R').next().is_some() => None,
        [] => p.operands.first().cloned(),
        [one] => Some((*one).clone()),
        several => Some(match several.iter().map(|w| w.lit()).collect::<Option<Vec<&str>>>() {
            Some(lits) => Word::Lit(lits.join("\n")),
            None => Word::Dyn(several.iter().map(|w| w.display()).collect::<Vec<_>>().join("\n")),
        }),
    }
}

/// awk is safe when its program, given on the command line, runs nothing: no `system()`,
/// pipe, command `getline` or extension (`shell/scripts.rs`), and prints to files it names
/// literally; options only `-F`, `-v` and `-e`. The files it reads and prints to are decided
/// as reads and writes by the walker.
/// `awk -W version` (`-Wversion`, `-Wv`, `--version`): gawk's and mawk's version, printed
/// before any program is read (red team 63).
pub(crate) fn awk_version(args: &[Word]) -> bool {
    matches!(
        args.iter().map(Word::lit).collect::<Vec<_>>().as_slice(),
        [Some("-W"), Some("version")] | [Some("-Wversion" | "-Wv" | "--version")]
    )
}

fn awk_read_only(args: &[Word]) -> bool {
    let a = super::scripts::awk_args(args);
    a.plain
        && !a.programs.is_empty()
        && a.programs.iter().all(|w| {
            w.lit().is_some_and(|t| {
                // (Files it prints to, and its inputs where it prints to `FILENAME`, are
                // decided as writes by the walker: red team 63, `print > "docs/toc.md"`.)
                let e = super::scripts::awk(t);
                e.commands.is_empty() && e.unknown.is_none() && !t.contains('@')
            })
        })
}

/// Whether a command (program and arguments) only reads: the known-safe list (SPEC 3.3).
/// `added`: what arguments are appended at run time; with any words, only commands safe with
/// any arguments qualify.
pub fn is_read_only(words: &[Word], added: super::Added) -> bool {
    let open_args = added != super::Added::No;
    let Some(Word::Lit(first)) = words.first() else {
        return false;
    };
    let name = program_name(first);
    if matches!(name, "awk" | "gawk" | "mawk" | "nawk") {
        // (Names a listing prints are files to awk: each starts with a start point, so is
        // neither an option nor an assignment; red team 75: `find src -name '*.rs' -exec awk
        // 'END{print FILENAME": "NR}' {} \;` was asked.)
        return match added {
            super::Added::No => awk_version(&words[1..]) || awk_read_only(&words[1..]),
            super::Added::Paths => awk_read_only(&words[1..]),
            super::Added::Any => false,
        };
    }
    if name == "script" {
        // `script -qc CMD LOG`: the command (decided as run, where the walker unwraps it),
        // and the log files, each decided as a write by the walker (red team 67: `script -qc
        // 'npm test' docs/log.md`); without LOG it writes `typescript`.
        // (`script -V` prints its version: red team 63.)
        let version = words.len() == 2 && matches!(words[1].lit(), Some("-V" | "--version"));
        let logged = || {
            grammar::grammar("script").and_then(|g| grammar::parse(g, &words[1..]).ok()).is_some_and(|p| {
                p.operands.len() == 1
                    && p.operands[0].lit().is_some()
                    && p.opts.iter().any(|f| f.opt.has('C'))
                    && p.opts.iter().all(|f| {
                        f.opt.eff.chars().all(|c| c == 'C' || c == 'W')
                            && (!f.opt.has('W') || f.value.as_ref().is_some_and(|v| v.lit().is_some()))
                    })
            })
        };
        return !open_args && (version || logged());
    }
    if name == "xxd" {
        // A dump of one file (or stdin) to stdout: a second operand is the file it writes,
        // and `-r` writes binary.
        return !open_args
            && super::writes::xxd_words(&words[1..]).is_some_and(|x| {
                // (A second operand is written, and decided as a write.)
                (!x.reverse || x.operands.len() == 2)
                    && x.operands.len() <= 2
                    && !x.operands.iter().any(|w| grammar::could_be_several(w))
            });
    }
    // `PROGRAM --version` only prints, for programs verified to exit on it without reading
    // stdin, files or code (the caller checks the program is the system's).
    if !open_args && words.len() == 2 && words[1].lit() == Some("--version") && version_exits(name) {
        return true;
    }
    // `cargo --version`, `rustc -V`: the policy holds it only where no `rust-toolchain` file
    // names the toolchain rustup's proxy runs ([`toolchain_version`]).
    if !open_args && toolchain_version(words) {
        return true;
    }
    // Their short spellings, where the program reads them as that (red team 41: `node -v`,
    // `python3 -V` were asked).
    if !open_args
        && words.len() == 2
        && words[1].lit().is_some_and(|f| SHORT_VERSION.iter().any(|(n, v)| *n == name && *v == f))
    {
        return true;
    }
    // `PROGRAM --help` of a tabled program whose table lists it (GNU's getopt programs print
    // and exit): red team 30 found `sed --help` asked.
    if !open_args
        && words.len() == 2
        && (words[1].lit() == Some("--help")
            || words[1].lit() == Some("-h") && matches!(name, "node" | "python3" | "make"))
        && (HELP_EXITS.contains(&name)
            || SAFE.iter().any(|(n, _)| *n == name)
                && grammar::grammar(name).is_some_and(|g| g.opts.iter().any(|o| o.name == "--help")))
    {
        return true;
    }
    let Some((_, rule)) = SAFE.iter().find(|(n, _)| *n == name) else {
        return false;
    };
    if let Some(g) = grammar::grammar(name) {
        // A tabled program: every word placed, and no option that writes, runs or acts. With
        // arguments added at run time (`xargs cat`), any of those could be such an option.
        // (Paths a listing prints are never options: `find docs -exec sed -n 1p {} +`.)
        if added == super::Added::Any && g.opts.iter().any(|o| o.eff.chars().any(|c| !grammar::only_reads(c))) {
            return false;
        }
        let Ok(p) = grammar::parse(g, &words[1..]) else { return false };
        // Files it writes that the walker decides as writes, as `tee`'s are (red team 40:
        // `sed -i ... docs/a.md` was asked where a write rule allows docs/**/*.md): sort's
        // `-o F`, sed's in-place edit, with its backup files (`writes` names each: `-i.md`
        // writes `docs/a.md.md`, `-i'bak/*'` another directory; red team 70 found `-i.md`
        // asked).
        // (And the output options of `OUTPUT_OPTIONS`: `tree -o F`, `iconv -o F`, red team 63.)
        let written = |f: &grammar::Found| match name {
            "sed" => f.opt.name == "-i" || f.opt.name == "--in-place",
            _ => f.value.is_some() && super::writes::output_option(name, f.opt.name),
        };
        let given = |names: &[&str]| p.opts.iter().any(|f| names.contains(&f.opt.name));
        // (tar extracting to standard output writes no member: `tar -xOzf a.tgz m`, red team
        // 83's over-ask.)
        let to_stdout = name == "tar" && given(&["-O", "--to-stdout"]);
        // (Nor one creating it there, `tar -cf - src | wc -c`: its operands are read whole,
        // [`reads_below`].)
        let archives: Vec<Option<&str>> = p
            .opts
            .iter()
            .filter(|f| matches!(f.opt.name, "-f" | "--file"))
            .map(|f| f.value.as_ref().and_then(Word::lit))
            .collect();
        let archive_out = name == "tar" && matches!(archives.as_slice(), [Some("-" | "/dev/stdout")]);
        let extract = |f: &grammar::Found| {
            to_stdout && matches!(f.opt.name, "-x" | "--extract" | "--get")
                || archive_out && matches!(f.opt.name, "-c" | "--create")
        };
        if p.opts.iter().any(|f| !written(f) && !extract(f) && f.opt.eff.chars().any(|c| "WCXUD".contains(c))) {
            return false;
        }
        // (Operands added at run time could be options or files it writes.)
        let counted = matches!(
            name,
            "uniq"
                | "sed"
                | "date"
                | "hostname"
                | "env"
                | "command"
                | "trap"
                | "touch"
                | "truncate"
                | "mkdir"
                | "cp"
                | "mv"
                | "split"
        );
        // (sed reads the paths appended after its script as input: it writes no operand.)
        let paths_read = added == super::Added::Paths && name == "sed";
        return !(open_args && counted && !paths_read)
            && match name {
                // `uniq IN OUT` writes OUT.
                // (A run-time operand may be two: `uniq .e*` is `uniq .editorconfig .env`.)
                // (The walker decides OUT as a write.)
                "uniq" => p.operands.len() <= 2 && !p.operands.iter().any(grammar::could_be_several),
                // The files they write are their operands, each decided as a write; one
                // only known at run time is a write of a path gate cannot name.
                "touch" | "truncate" | "mkdir" => !p.operands.is_empty(),
                // `split FILE PREFIX`: FILE read, the files PREFIX starts written (decided by
                // the walker); a run-time word that may be several moves PREFIX.
                "split" => p.operands.len() <= 2 && !p.operands.iter().any(grammar::could_be_several),
                // `cp SRC... DEST`: DEST written (a file, or SRC's name below a directory),
                // spelled out: a target that may be several words is not modelled.
                "cp" | "mv" => {
                    let dirs: Vec<&Word> = p
                        .opts
                        .iter()
                        .filter(|f| matches!(f.opt.name, "-t" | "--target-directory"))
                        .filter_map(|f| f.value.as_ref())
                        .collect();
                    // (Or one name of a glob, never an option: `"docs/guide/*.md"` of a loop
                    // over a glob, red team 67.)
                    let one_name = |w: &Word| match w {
                        Word::Lit(_) => true,
                        Word::Dyn(d) => d.starts_with('"') && unquoted_glob(d) != d && !grammar::could_be_option(d),
                    };
                    match dirs.as_slice() {
                        [] => p.operands.len() >= 2 && p.operands.last().is_some_and(one_name),
                        [dir] => !p.operands.is_empty() && dir.lit().is_some(),
                        _ => false,
                    }
                }
                "sed" => sed_read_only(&p),
                // `date MMDDhhmm` sets the clock; `+FORMAT` prints.
                "date" => p.operands.iter().all(|w| w.lit().is_some_and(|s| s.starts_with('+'))),
                // With an operand these set the name, or run a command.
                "hostname" | "env" => p.operands.is_empty(),
                // Listing only, and an archive on this machine (`host:file` runs rsh).
                "tar" => {
                    (given(&["-t", "--list"])
                        || to_stdout && given(&["-x", "--extract", "--get"])
                        || archive_out && given(&["-c", "--create"]))
                        && p.with('R').filter(|f| f.opt.name == "-f" || f.opt.name == "--file").all(|f| {
                            given(&["--force-local"])
                                || f.value.as_ref().and_then(Word::lit).is_some_and(|v| !v.contains(':'))
                        })
                }
                "command" => given(&["-v", "-V"]),
                "gzip" | "gunzip" => given(super::writes::NO_FILE_WRITTEN),
                // Listing or resetting; an action is decided by the walker as if it ran.
                "trap" => {
                    given(&["-l", "-p", "-P"])
                        || p.operands.is_empty()
                        || p.operands.first().and_then(Word::lit).is_some_and(|a| a == "-" || a.is_empty())
                }
                _ => true,
            };
    }
    if let Args::Any = rule {
        return true;
    }
    // Words added at run time after git's `--` are pathspecs, whatever they hold (red team 71:
    // `... | xargs -r git diff --stat --`).
    let pathspecs_added = open_args && name == "git" && words.last().and_then(Word::lit) == Some("--");
    if open_args && !pathspecs_added {
        return false;
    }
    let mut owned: Vec<std::borrow::Cow<str>> = Vec::with_capacity(words.len());
    let mut ended = false;
    for w in &words[1..] {
        match w {
            Word::Lit(s) => {
                ended |= s == "--" && name == "git";
                owned.push(s.as_str().into());
            }
            // git's pathspecs after `--`, known only at run time: however many words, each a
            // pathspec (red team 69: `git log -1 -- "$f"`); what it reads is decided where
            // reads are.
            Word::Dyn(_) if ended => owned.push("\u{1}".into()),
            // `git log -n "$limit"`: a quoted word, the value of a log option that takes one
            // (red team 69), whatever it holds.
            Word::Dyn(d)
                if name == "git"
                    && matches!(words.get(1).and_then(Word::lit), Some("log" | "rev-list"))
                    && quoted_one_word(d)
                    && owned.last().is_some_and(|o| GIT_LOG_VALUES.contains(&o.as_ref())) =>
            {
                let counted = matches!(
                    owned.last().map(|o| o.as_ref()),
                    Some("-n" | "--max-count" | "--skip" | "--max-age" | "--min-age")
                );
                owned.push(if counted { "1" } else { "x" }.into());
            }
            // git's `--NAME=VALUE` with a value known only at run time that stays one word
            // (red team 49: `git log --author="$(git config user.name)"` was asked): the
            // option is NAME whatever the value; what it would write or read is decided
            // where writes and reads are.
            Word::Dyn(d) if name == "git" => match git_glued_option(d) {
                Some(opt) => owned.push(format!("{opt}=\u{1}").into()),
                None => return false,
            },
            Word::Dyn(_) => return false,
        }
    }
    if pathspecs_added {
        owned.push("\u{1}".into());
    }
    let args: Vec<&str> = owned.iter().map(|a| a.as_ref()).collect();
    match rule {
        Args::Any => true,
        Args::Without(bad) => !args.iter().any(|a| bad.iter().any(|b| spells_option(a, b))),
        Args::Custom(f) => f(&args),
    }
}

/// The `--NAME` of a word `--NAME=VALUE` (NAME plain letters, digits and dashes, unquoted)
/// whose value, known only at run time, stays one word (`--author="$(git config user.name)"`).
fn git_glued_option(raw: &str) -> Option<&str> {
    let (opt, value) = raw.split_once('=')?;
    let name = opt.strip_prefix("--")?;
    (!name.is_empty()
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
        && !value.is_empty()
        && stays_one_word(value))
    .then_some(opt)
}

/// Programs measured to print their version and exit on `--version`, reading neither stdin,
/// nor files, nor code, before anything else (run with a stdin that never ends: each exited at
/// once). Not here: interpreters that take the word as a script (`tclsh --version` waits on
/// it), programs that source configuration as code first (`mvn` sources `~/.mavenrc`), and
/// toolchain proxies that pick the binary from the workspace (`cargo`, `rustc` through
/// rustup's `rust-toolchain.toml`). Tabled programs qualify when their table lists it.
#[rustfmt::skip]
const VERSION_EXITS: &[&str] = &[
    "git", "node", "python", "python3", "perl", "bash", "gcc", "g++", "cc", "make", "curl", "wget", "tar", "gzip",
    "bzip2", "xz", "zstd", "jq", "java", "javac", "bc", "psql", "find", "awk", "gawk", "c++",
    // npm reads its .npmrc files (config, not code: `node-options` and `script-shell` there
    // are not used by `--version`, checked with npm 11). Not yarn: berry runs `yarnPath`.
    "npm",
    // npx is npm's `exec`: `--version` prints npm's version before it would look for a
    // package (checked with npm 11.19, standard input unread; red team 72).
    "npx",
    // Checked: each prints and exits, standard input unread (util-linux 2.38, Info-ZIP 3.0).
    "script", "zip",
    // Checked (sqlite 3.40): prints and exits, `~/.sqliterc` unread (red team 63).
    "sqlite3",
    // Checked (less 590): prints and exits before it opens a file or the terminal (red team
    // 92; `LESS` set by the text is a dangerous variable).
    "less",
];

/// `PROGRAM --help` that prints and exits, verified on each: no startup file, makefile or
/// script is read (node 22, Python 3.11, GNU make 4.3; red team 63); `-h` too for node,
/// python3 and make (red team 88). Not cargo or rustc:
/// rustup's proxies run the toolchain a `rust-toolchain.toml` in the directory or any parent
/// names, a program anywhere (red team 80: `cargo --help` ran one outside the workspace).
const HELP_EXITS: &[&str] = &["node", "python3", "make", "npm", "git"];

/// `PROGRAM FLAG` that prints the version and exits, as `--version` does, verified on each.
const SHORT_VERSION: &[(&str, &str)] = &[
    ("less", "-V"),
    ("node", "-v"),
    ("npm", "-v"),
    ("python", "-V"),
    ("python3", "-V"),
    ("python3", "-VV"),
    ("python", "-VV"),
    ("gcc", "-dumpversion"),
    ("g++", "-dumpversion"),
    ("cc", "-dumpversion"),
    ("c++", "-dumpversion"),
    ("perl", "-v"),
    ("java", "-version"),
    ("gcc", "-v"),
    ("make", "-v"),
    ("gzip", "-V"),
    ("bzip2", "-V"),
    ("xz", "-V"),
    ("zstd", "-V"),
    ("zip", "-v"),
    ("script", "-V"),
];

/// `cargo --version`, `cargo -V`, `rustc --version`, `rustc -V` (and `rustfmt`, `rustdoc`;
/// red team 105): rustup's proxies print the
/// version of the toolchain they run, which a `rust-toolchain` or `rust-toolchain.toml` in the
/// directory or any above it names, a program anywhere (red team 80: `cargo --help` ran one
/// outside the workspace). Safe only where the edge finds no such file (the policy checks,
/// `policy/chain.rs`); red teams 100 and 102 found `cargo --version` asked.
pub fn toolchain_version(words: &[Word]) -> bool {
    matches!(words, [p, f] if p.lit().map(super::program_name).is_some_and(|n| matches!(n, "cargo" | "rustc" | "rustfmt" | "rustdoc"))
        && f.lit().is_some_and(|f| matches!(f, "--version" | "-V")))
}

fn version_exits(name: &str) -> bool {
    VERSION_EXITS.contains(&name)
        || grammar::grammar(name).is_some_and(|g| g.opts.iter().any(|o| o.name == "--version"))
}

/// Commands that read the files named by their arguments, and how many leading operands are
/// not files (`grep PATTERN FILE...`). Those reads are decided as calls of the read tool, so
/// a path outside the workspace or under a read deny rule is caught whatever program reads it.
#[rustfmt::skip]
static FILE_READERS: &[(&str, usize)] = &[
    ("cat", 0), ("head", 0), ("tail", 0), ("wc", 0), ("grep", 1), ("egrep", 1), ("fgrep", 1), ("rg", 1), ("ls", 0),
    ("stat", 0), ("file", 0), ("du", 0), ("diff", 0), ("cmp", 0), ("cut", 0), ("nl", 0), ("od", 0), ("hexdump", 0),
    ("strings", 0), ("base64", 0), ("md5sum", 0), ("sha1sum", 0), ("sha256sum", 0), ("sha512sum", 0), ("cksum", 0),
    ("comm", 0), ("paste", 0), ("join", 0), ("split", 0), ("fold", 0), ("fmt", 0), ("iconv", 0), ("b2sum", 0), ("sha224sum", 0), ("sha384sum", 0),
    ("base32", 0), ("expand", 0), ("unexpand", 0), ("rev", 0), ("tac", 0), ("column", 0),
    ("tree", 0), ("jq", 1), ("sort", 0), ("uniq", 0), ("sed", 1), ("find", 0), ("readlink", 0), ("realpath", 0),
    ("less", 0), ("more", 0), ("xxd", 0), ("unzip", 0), ("zipinfo", 0), ("awk", 1), ("source", 0), (".", 0), ("date", usize::MAX),
    ("xargs", usize::MAX), ("git", usize::MAX), ("bc", 0), ("shuf", 0), ("gzip", 0), ("gunzip", 0), ("tar", 0),
];

/// The devices that only give bytes (zeros, random ones, none) or swallow them, and the
/// command's own output (whose redirections are decided where they are made): reading or
/// writing one touches no file (red team 83: `dd if=docs/a.md of=/dev/stdout` was asked).
pub(crate) fn plain_device(p: &str) -> bool {
    matches!(p, "/dev/null" | "/dev/zero" | "/dev/urandom" | "/dev/random" | "/dev/stdout" | "/dev/stderr")
}

/// The file operands of a reading command (literal words only; options and the pattern are
/// skipped). Empty for commands that do not read files by name.
pub fn read_targets(words: &[Word]) -> Vec<Word> {
    let Some(Word::Lit(first)) = words.first() else { return Vec::new() };
    let name = program_name(first);
    if let Some(g) = grammar::grammar(name) {
        // A tabled program: its own reading of its words says which are files.
        if let Ok(p) = grammar::parse(g, &words[1..]) {
            let mut out = p.reads(g);
            out.retain(|w| !w.lit().is_some_and(|p| matches!(p, "-" | "/dev/stdin") || plain_device(p)));
            return out;
        }
    }
    if name == "git" {
        return git_reads(&words[1..]);
    }
    if matches!(name, "test" | "[") {
        return test_probes(&words[1..]);
    }
    if name == "dd" {
        return words[1..]
            .iter()
            .filter_map(|w| w.lit().and_then(|a| a.strip_prefix("if=")))
            .filter(|v| !v.is_empty() && !plain_device(v))
            .map(|v| Word::Lit(v.to_string()))
            .collect();
    }
    let Some((_, skip)) = FILE_READERS.iter().find(|(n, _)| *n == name) else { return Vec::new() };
    let mut skip = *skip;
    if words.iter().any(|w| {
        w.lit().is_some_and(|s| s == "-e" || s == "-f" || s == "--regexp" || s == "--file" || s == "--expression")
    }) {
        skip = 0;
    }
    let mut out = Vec::new();
    // Options whose value is a file the command reads (`date -f F`, `jq -f F`, `xargs -a F`).
    let reads: &[&str] = match name {
        "jq" => &["-f", "--from-file", "--rawfile", "--slurpfile"],
        "grep" | "egrep" | "fgrep" => &["-f", "--file"],
        "rg" => &["-f", "--file", "--ignore-file"],
        "sed" => &["-f", "--file"],
        "find" => &["-files0-from"],
        "sort" | "wc" | "du" => &["--files0-from"],
        "date" => &["-r", "--reference", "-f", "--file"],
        "xargs" => &["-a", "--arg-file"],
        "git" => &["-f", "--file", "--contents"],
        _ => &[],
    };
    let listed = option_values(&words[1..], reads);
    // `find -files0-from F` starts from the paths listed in F: paths gate cannot name. With
    // `-L` (or `-follow`) find follows every symbolic link below its start points, maybe out
    // of the workspace.
    if name == "find" {
        // (What `-L` reaches through links is listed by the edge: [`walks_below`].)
        out.extend(listed.iter().map(|l| Word::Dyn(format!("(the files named in {})", l.display()))));
        // Tests that compare with a reference file read it: `-newer F`, `-anewer F`,
        // `-cnewer F`, `-samefile F`, and `-newerXY F` unless Y is `t` (a date).
        for (k, w) in words.iter().enumerate() {
            let Some(s) = w.lit() else { continue };
            let reference = matches!(s, "-newer" | "-anewer" | "-cnewer" | "-samefile")
                || (s.len() == 8 && s.starts_with("-newer") && !s.ends_with('t'));
            if reference {
                out.extend(words.get(k + 1).cloned());
            }
        }
    }
    out.extend(listed);
    let mut after_dd = false;
    let mut operands = 0;
    let mut seen_option = false;
    // find's own options come before its start points (`find -L /etc ...`).
    let skip_leading = if name == "find" {
        words[1..]
            .iter()
            .take_while(|w| {
                w.lit().is_some_and(|s| matches!(s, "-H" | "-L" | "-P") || s.starts_with("-O") || s.starts_with("-D"))
            })
            .count()
    } else {
        0
    };
    for w in &words[1 + skip_leading..] {
        let Some(s) = w.lit() else {
            operands += 1;
            // A path only known at run time (`$x`, `src/*.rs`, find's `{}`): the policy decides
            // where it can land. In the pattern's place too, when it can split into several.
            if (operands > skip || grammar::could_be_several(w)) && !(name == "find" && seen_option) {
                out.push(w.clone());
            }
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
                    out.push(Word::Lit(v.to_string()));
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
        if !(matches!(s, "-" | "/dev/stdin") || plain_device(s)) {
            out.push(Word::Lit(s.to_string()));
        }
    }
    out
}

/// git subcommands whose operands may be paths they read: outside a repository, or with
/// `--no-index`, `git diff A B` reads any two files, and `git grep --no-index` any tree.
const GIT_PATH_READERS: &[&str] = &[
    "apply",
    "diff",
    "log",
    "show",
    "blame",
    "annotate",
    "grep",
    "ls-files",
    "whatchanged",
    "shortlog",
    "diff-files",
    "diff-index",
    "diff-tree",
    "check-ignore",
    "check-attr",
    "status",
    "rev-list",
    "range-diff",
    "difftool",
    "hash-object",
];

/// git subcommands that take revision and diff options (log's family).
const GIT_LOG_LIKE: &[&str] = &[
    "log",
    "show",
    "whatchanged",
    "shortlog",
    "rev-list",
    "diff",
    "diff-files",
    "diff-index",
    "diff-tree",
    "range-diff",
];

/// Options of log's family whose value, as the next word or glued to a short option, is a
/// search string, a name, a date or a number: never a path read (eleventh red team: `git log
/// --grep "$g"` and `git log -S"$s"` were asked as reads of a path only known at run time).
/// Long options only exactly (revision.c does not take abbreviations for them).
#[rustfmt::skip]
const GIT_LOG_VALUES: &[&str] = &[
    "-S", "-G", "-n", "--grep", "--author", "--committer", "--since", "--after", "--until", "--before",
    "--max-count", "--skip", "--max-age", "--min-age", "--since-as-filter",
];

/// The paths a git command may read: every operand of a path-reading subcommand (a revision
/// such as `HEAD~1` or `main..dev` reads as a path inside the workspace, so it costs
/// nothing), grep's pattern excepted, and the values of options that name a file.
fn git_reads(args: &[Word]) -> Vec<Word> {
    let i = git_subcommand_at(args);
    let rest = args.get(i + 1..).unwrap_or_default();
    // ls-files' `--exclude-per-directory=F` reads F joined to each directory: from the
    // top, `../..` climbs furthest (red team 53: the glued form was left out).
    let mut out = option_values(rest, &["--pathspec-from-file", "-O", "--exclude-per-directory"]);
    // Files git opens after it moved to the top of the work tree (red team 62: `cd docs &&
    // git blame --contents=../x a.md` read the workspace's parent's `x`): a relative one is
    // where that top is, which gate does not know.
    let from_top = |w: Word| match w {
        Word::Lit(v) if !v.starts_with('/') && v != "-" => Word::Dyn(format!("{}{v}", super::FROM_GIT_TOP)),
        other => other,
    };
    out.extend(option_values(rest, &["--contents", "--ignore-revs-file", "--exclude-from"]).into_iter().map(from_top));
    // (`-f` is grep's patterns file; elsewhere a flag, whose "value" is a harmless name.)
    let grep = args.get(i).and_then(Word::lit) == Some("grep");
    out.extend(option_values(rest, &["--file", "-f"]).into_iter().map(|w| if grep { from_top(w) } else { w }));
    // `git -C DIR ...` reads the repository at DIR (and the files below it its subcommand
    // names, decided from DIR where the command's directory is): DIR is checked as any path
    // read (red team 49: an absolute `-C` is taken).
    out.extend(option_values(args.get(..i).unwrap_or_default(), &["-C"]));
    let Some(sub) = args.get(i).and_then(Word::lit) else { return out };
    if sub == "config" {
        out.extend(git_config_dump(rest));
    }
    // `git var -l` lists every configuration variable too (red team 41).
    if sub == "var" && rest.iter().any(|w| w.lit().is_none_or(|a| a == "-l" || a.starts_with("--l"))) {
        out.extend(git_config_dump(&[Word::Lit("--list".into())]));
    }
    // Short options whose value is a file only for some subcommands (elsewhere `-S` is the
    // pickaxe): blame's revisions file (`-S F`, glued `-S/F`, bundled `-wS/F`; git prints
    // every line it cannot parse), ls-files' exclude file.
    let own: &[&str] = match sub {
        "blame" | "annotate" => &["-S"],
        "ls-files" => &["-X"],
        _ => &[],
    };
    out.extend(option_values(rest, own).into_iter().map(from_top));
    // It reads the file as a gitfile and prints what follows `gitdir:` (red team 48).
    if sub == "rev-parse" {
        out.extend(option_values(rest, &["--resolve-git-dir"]));
    }
    if !GIT_PATH_READERS.contains(&sub) {
        return out;
    }
    let mut skip_pattern = sub == "grep"
        && !rest.iter().filter_map(Word::lit).any(|a| matches!(a, "-e" | "-f" | "--file") || a.starts_with("-f"));
    let log_like = GIT_LOG_LIKE.contains(&sub);
    let mut after_dd = false;
    let mut value_next = false;
    let mut range_next = false;
    for w in rest {
        if std::mem::take(&mut range_next) {
            out.extend(git_line_range_files(w));
            continue;
        }
        if std::mem::take(&mut value_next) {
            // The value of the option before: a search string or a date, unless it may split
            // into more words (`--grep $g` unquoted can be `--grep x --output=/y`).
            if w.lit().is_some() || stays_one_word(&w.display()) {
                continue;
            }
        }
        match w.lit() {
            Some("--") if !after_dd => after_dd = true,
            Some(a) if !after_dd && log_like && a.starts_with("-L") => match &a[2..] {
                "" => range_next = true,
                glued => out.extend(git_line_range_files(&Word::Lit(glued.to_string()))),
            },
            Some(a) if !after_dd && a.starts_with('-') && a.len() > 1 => {
                // (blame's `-L RANGE` names no file: `-L '/fn main/,+1'`, red team 63.)
                let blame_range = matches!(sub, "blame" | "annotate") && a == "-L";
                value_next = blame_range || log_like && GIT_LOG_VALUES.contains(&a);
            }
            None if !after_dd && git_option_with_runtime_value(w) => {}
            None if !after_dd && log_like && git_short_with_runtime_value(w) => {}
            Some("-" | "/dev/null") => {}
            _ if skip_pattern => skip_pattern = false,
            // (Not diff's: a path outside the work tree makes it `--no-index`, which reads
            // the files; red team 87's `git log -1 -- "$f"` in a loop was asked.)
            None if after_dd && matches!(sub, "log" | "show" | "whatchanged" | "shortlog" | "rev-list") => {
                out.push(Word::Dyn(format!("{}{}", super::GIT_PATHSPEC, w.display())))
            }
            _ => out.push(w.clone()),
        }
    }
    out
}

/// The file of `git log -L RANGE:FILE`: the range may hold `:` and `/` (`-L '/fn/,+1:src/a.rs'`,
/// `-L :main:src/a.rs`), so every text after a `:` is a path it may read (red team 53: the
/// whole value was read as one absolute path and asked).
fn git_line_range_files(w: &Word) -> Vec<Word> {
    match w.lit() {
        Some(v) if v.contains(':') => v.match_indices(':').map(|(i, _)| Word::Lit(v[i + 1..].to_string())).collect(),
        _ => vec![w.clone()],
    }
}

/// `paths` relative to the directories of successive `git -C` options (`-C a -C b` is
/// `a/b`; an absolute one starts again): the files git writes, seen from where the call runs
/// (red team 50: `git -C src diff --output ../Cargo.toml` writes `./Cargo.toml`). A `-C`
/// only known at run time makes every relative path one too.
pub(crate) fn git_relative_to(dirs: &[Word], paths: Vec<Word>) -> Vec<Word> {
    if dirs.is_empty() {
        return paths;
    }
    let mut base: Option<String> = Some(String::new());
    for d in dirs {
        base = match (d.lit(), base) {
            (Some(""), b) => b,
            (Some(d), _) if d.starts_with(['/', '~']) => Some(d.to_string()),
            (Some(d), Some(b)) if b.is_empty() => Some(d.to_string()),
            (Some(d), Some(b)) => Some(format!("{}/{d}", b.trim_end_matches('/'))),
            _ => None,
        };
    }
    paths
        .into_iter()
        .map(|w| match (&w, &base) {
            (Word::Lit(p), _) if p.starts_with(['/', '~']) => w,
            (Word::Lit(p), Some(b)) => Word::Lit(format!("{}/{p}", b.trim_end_matches('/'))),
            (Word::Lit(p), None) => Word::Dyn(format!("\"$GIT_C_DIR\"/{p}")),
            (Word::Dyn(_), _) => w,
        })
        .collect()
}

/// Sections of git's configuration that hold settings, not credentials: one key of these is
/// printed without asking (`git config user.name`, `git config --get remote.origin.url`).
const GIT_SETTING_SECTIONS: &[&str] = &[
    "user",
    "core",
    "init",
    "alias",
    "branch",
    "remote",
    "pull",
    "push",
    "fetch",
    "merge",
    "rebase",
    "diff",
    "log",
    "color",
    "commit",
    "tag",
    "status",
    "advice",
    "format",
    "grep",
    "blame",
    "pager",
    "column",
    "help",
    "rerere",
    "gc",
    "pack",
    "submodule",
    "safe",
    "gpg",
    "i18n",
];

/// `git config`'s listing forms (`--list`, `-l`, `list`, `--get-regexp`, `get --regexp`,
/// `--get-urlmatch`) print the user's and the system's configuration files whole, which can
/// hold credentials (red team 40: `git config --global --list`): reads of them, unless a file,
/// blob, `--local` or `--worktree` scope keeps to the repository's. One key (`git config
/// user.name`) is no dump.
fn git_config_dump(rest: &[Word]) -> Vec<Word> {
    let Some(Ok(p)) = super::grammar::git_config(rest) else {
        return Vec::new();
    };
    let has = |names: &[&str]| p.opts.iter().any(|f| names.contains(&f.opt.name));
    let first = p.operands.first().and_then(Word::lit);
    // A regexp that keeps to one section of settings (`'^user\.'`, `'^alias\..*'`) lists no
    // credentials; `url`, `http`, `credential` and `.*` may. git's pattern is an unanchored
    // extended regexp: without `^` it matches anywhere in a key (`user` in
    // `http.https://user@host.extraheader`), and `|` adds any other (red team 50: `'user.*|.'`
    // printed the whole ~/.gitconfig). So: `^SECTION.` or `^SECTION\.`, then names and `*`
    // only; and `alias` alone, the common listing of aliases.
    let harmless_regexp = || {
        let pattern = if first == Some("get") { p.operands.get(1) } else { p.operands.first() };
        pattern.and_then(Word::lit).is_some_and(|r| {
            if r == "alias" {
                return true;
            }
            let Some(r) = r.strip_prefix('^') else { return false };
            let Some((section, rest)) = r.split_once('.') else { return false };
            let section = section.strip_suffix('\\').unwrap_or(section);
            GIT_SETTING_SECTIONS.contains(&section)
                && rest.chars().all(|c| c.is_ascii_alphanumeric() || "-_.*".contains(c))
        })
    };
    let regexp = has(&["--get-regexp"]) || (first == Some("get") && has(&["--regexp"]));
    // `--get-urlmatch NAME URL` gets one key, unless NAME is a whole section.
    let section_match =
        has(&["--get-urlmatch"]) && p.operands.first().and_then(Word::lit).is_none_or(|n| !n.contains('.'));
    let settings_only = |k: &str| {
        let k = k.to_ascii_lowercase();
        let section = k.split('.').next().unwrap_or("");
        k.contains('.')
            && GIT_SETTING_SECTIONS.contains(&section)
            && !["header", "token", "password", "secret", "auth", "cookie", "key"].iter().any(|s| k.contains(s))
    };
    // One key for a URL: from the same allow-list (red team 50: `--get-urlmatch
    // http.extraheader https://github.com` printed a token).
    let url_secret =
        has(&["--get-urlmatch"]) && p.operands.first().and_then(Word::lit).is_none_or(|n| !settings_only(n));
    // One key outside the sections that hold settings only (red team 45: `git config --global
    // --get http.https://host/.extraheader` printed a token from `~/.gitconfig`; red team 49:
    // `github.pat`, which no list of credential-like words named), or a key known only at run
    // time. An allow-list: a section not named here may hold anything.
    let key = if first == Some("get") { p.operands.get(1) } else { p.operands.first() };
    let secret_key =
        !regexp && !has(&["--get-urlmatch"]) && key.is_some_and(|k| k.lit().is_none_or(|k| !settings_only(k)));
    let dumps = has(&["-l", "--list"])
        || secret_key
        || section_match
        || url_secret
        || first == Some("list")
        || (regexp && !harmless_regexp())
        || (first == Some("get") && has(&["--url="]));
    if !dumps || has(&["-f", "--file", "--blob", "--local", "--worktree"]) {
        return Vec::new();
    }
    let (global, system) = (has(&["--global"]), has(&["--system"]));
    let mut out = Vec::new();
    if global || !system {
        out.push(Word::Lit("~/.gitconfig".into()));
        out.push(Word::Lit("~/.config/git/config".into()));
    }
    if system || !global {
        out.push(Word::Lit("/etc/gitconfig".into()));
    }
    out
}

/// git options whose value is a file (read or written) or a program: a value only known at
/// run time there is a path or a command gate cannot name.
#[rustfmt::skip]
const GIT_FILE_VALUES: &[&str] = &[
    "--output", "--contents", "--ignore-revs-file", "--exclude-from", "--pathspec-from-file", "--file", "--blob",
    "--exclude-per-directory", "--git-dir", "--work-tree", "--open-files-in-pager", "--textconv", "--ext-diff",
    "--upload-pack", "--receive-pack", "--exec", "--extcmd", "--config-env", "--exec-path", "--rotate-to",
    "--skip-to",
];

/// Whether a run-time word is a git option written literally (`--author=`, `--since=`)
/// whose value only is known at run time, and that value names no file or program: the
/// option then reads nothing (sixth red team: `git log --author="$(git config user.name)"`
/// was asked as a read of a path). The value must stay one word (its expansions inside
/// double quotes: `--author=$(...)` unquoted can split into `--author=a --output=/x`), and
/// the name must not be, or abbreviate, an option of [`GIT_FILE_VALUES`] (`--out=` is
/// `--output=`).
fn git_option_with_runtime_value(w: &Word) -> bool {
    let Word::Dyn(raw) = w else { return false };
    let text = raw.trim_start_matches(['"', '\'']);
    let Some((name, _)) = text.strip_prefix("--").and_then(|t| t.split_once('=')) else { return false };
    let literal = !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    let opt = format!("--{name}");
    literal && stays_one_word(raw) && !GIT_FILE_VALUES.iter().any(|o| spells_option(&opt, o))
}

/// Whether a run-time word is one of log's short options whose value is no path (`-S`, `-G`,
/// `-n`), written literally with its value glued and only known at run time (`-S"$s"`): the
/// value stays in the one word.
fn git_short_with_runtime_value(w: &Word) -> bool {
    let Word::Dyn(raw) = w else { return false };
    ["-S", "-G", "-n"].iter().any(|o| raw.strip_prefix(o).is_some_and(|v| !v.is_empty())) && stays_one_word(raw)
}

/// Whether a run-time word stays one word when bash expands it: every expansion in it
/// (`$x`, `${x}`, `$(...)`, `$((...))`) sits inside double quotes, no backquote, and nothing
/// outside quotes globs or brace-expands. Errs towards `false`.
fn stays_one_word(raw: &str) -> bool {
    let b: Vec<char> = raw.chars().collect();
    let mut double = false;
    let mut i = 0;
    // The index of the `'` that closes a single-quoted string opened before `from`.
    let closing = |from: usize| (from..b.len()).find(|&k| b[k] == '\'');
    while i < b.len() {
        match b[i] {
            '\\' => i += 1,
            '`' => return false,
            '\'' if !double => match closing(i + 1) {
                Some(k) => i = k,
                None => return false,
            },
            '"' => double = !double,
            '$' | '*' | '?' | '[' | '{' if !double => return false,
            // A command substitution inside double quotes, to its `)`: single-quoted text in it
            // is skipped, and anything else that quotes or nests is not followed.
            '$' if b.get(i + 1) == Some(&'(') => {
                let mut depth = 0usize;
                i += 2;
                loop {
                    match b.get(i) {
                        None | Some('"' | '`' | '\\') => return false,
                        Some('(') => depth += 1,
                        Some(')') if depth == 0 => break,
                        Some(')') => depth -= 1,
                        Some('\'') => match closing(i + 1) {
                            Some(k) => i = k,
                            None => return false,
                        },
                        Some(_) => {}
                    }
                    i += 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    !double
}

/// Shell options that only change globbing and error handling (anything else may change
/// what later commands mean: `cdable_vars`, `expand_aliases`, `extdebug`, ...).
#[rustfmt::skip]
const HARMLESS_SHOPTS: &[&str] = &[
    // Not `dotglob` or `nocaseglob`: they change which names a glob reaches (`*` then matches
    // `.env`, `*.PEM` matches `k.pem`), and a glob is decided by the names it can reach (the
    // operands of a read-only program are looked up without dot files: red team 53 found
    // `shopt -s dotglob; cat *` would pass a rule denying reads of `.env`).
    "nullglob", "globstar", "extglob", "nocasematch", "failglob", "lastpipe",
    "inherit_errexit", "checkwinsize", "histappend", "cmdhist", "lithist", "globasciiranges", "progcomp",
];

/// Whether `n` is a shell variable name (`_x1`, not `1x` or `a-b`).
pub(crate) fn is_identifier(n: &str) -> bool {
    n.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Whether a declaration builtin's words (after its name) make its names arrays: `-a`, `-A`,
/// or an option word only known at run time.
pub(crate) fn declared_array(args: &[&Word]) -> bool {
    args.iter()
        .take_while(|w| match w {
            Word::Lit(a) => a.len() > 1 && a.starts_with(['-', '+']) && a != "--",
            Word::Dyn(d) => !d.contains('='),
        })
        .any(|w| match w {
            Word::Lit(a) => a.starts_with('-') && a.contains(['a', 'A']),
            Word::Dyn(_) => true,
        })
}

/// Whether turning the shell option `name` on changes nothing gate does not model.
pub(crate) fn harmless_shopt(name: &str) -> bool {
    HARMLESS_SHOPTS.contains(&name)
}

/// Whether `set -o NAME` (`on`) or `set +o NAME` changes nothing about how later commands
/// are read or run beyond what gate models (errexit is followed by the walker).
pub(crate) fn harmless_set_option(name: &str, on: bool) -> bool {
    const HARMLESS: &[&str] = &[
        "errexit",
        "nounset",
        "pipefail",
        "xtrace",
        "verbose",
        "noclobber",
        "noglob",
        "notify",
        "monitor",
        "hashall",
        "braceexpand",
        "emacs",
        "vi",
        "ignoreeof",
        "noexec",
        "onecmd",
        "errtrace",
        "functrace",
        "allexport",
        "nolog",
    ];
    HARMLESS.contains(&name) || (!on && matches!(name, "history" | "histexpand" | "posix" | "keyword" | "physical"))
}

/// Builtins that change the shell's state in ways that change what later commands run:
/// assigning a variable that changes what runs (by `read`, `printf -v`, `declare`, `unset`,
/// `mapfile`, `getopts`, `wait -p`), naming an array element (its subscript is arithmetic
/// that can run code), namerefs, `hash -p`, `enable`, `export -f`, unusual `shopt`s.
/// Returns why, or `None` when the command changes nothing that matters.
/// Whether a compound array value `(...)` has a `[subscript]=` that is not a plain number
/// (an associative array's keys are expanded like words, an indexed array's evaluated).
pub(crate) fn compound_subscripts_not_literal(value: &str, associative: bool) -> bool {
    let mut rest = value;
    while let Some(open) = rest.find('[') {
        let after = &rest[open + 1..];
        let Some(close) = after.find(']') else { return true };
        let key = after[..close].trim();
        let plain = if associative {
            !key.contains(['$', '`', '\\', '"', '\''])
        } else {
            key.chars().all(|c| c.is_ascii_digit())
        };
        if !plain {
            return true;
        }
        rest = &after[close + 1..];
    }
    false
}

/// The variables a builtin fills with text only known at run time: `read NAME`,
/// `printf -v NAME`, `mapfile NAME`, `getopts OPTS NAME`, `wait -p NAME`.
pub(crate) fn input_assigned(words: &[Word]) -> Vec<String> {
    input_names(words).0
}

/// The names `read`, `printf -v`, `mapfile`, `getopts` and `wait -p` assign, and whether a
/// word only known at run time may name another one (then any may be assigned).
pub(crate) fn input_assigned_or_any(words: &[Word]) -> (Vec<String>, bool) {
    input_names(words)
}

/// Whether a word only known at run time is one of the parameters that always expand to one
/// number or to nothing (`$!`, `"$#"`, `${?}`, `$$`, `${#x}`): never an option, never a name.
pub(crate) fn number_parameter(raw: &str) -> bool {
    let t = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(raw);
    let Some(t) = t.strip_prefix('$') else { return false };
    let braced = t.strip_prefix('{').and_then(|r| r.strip_suffix('}'));
    let inner = braced.unwrap_or(t);
    matches!(inner, "!" | "#" | "?" | "$")
        || braced.and_then(|b| b.strip_prefix('#')).is_some_and(|n| {
            let n = n.strip_suffix("[@]").or_else(|| n.strip_suffix("[*]")).unwrap_or(n);
            !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        })
}

/// A word only known at run time that could be, or split into, an option (`-p"$(...)"`,
/// `"$x"`, `$x`).
fn dyn_option(w: &Word) -> bool {
    matches!(w, Word::Dyn(d) if grammar::could_be_option(d) && !number_parameter(d))
}

/// The variables a builtin that fills them from its input assigns, read as bash's
/// `internal_getopt` reads its words, and whether a word that is or may be such a name (or an
/// option that takes one) is only known at run time: then any variable may be assigned
/// (seventh red team: `printf -v"$(echo PS4)" ...`, `wait -p "$(cat f)"`).
pub(crate) fn input_names(words: &[Word]) -> (Vec<String>, bool) {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return (Vec::new(), false) };
    // Letters that take a value, those whose value is a variable's name, which operands are
    // names (`Some(None)`: all of them; `Some(Some(k))`: the k-th only), and the variable
    // filled when no name is given.
    let (takes, named, operands, default): (&str, &str, Option<Option<usize>>, &[&str]) = match name {
        "printf" => ("v", "v", None, &[]),
        "read" => ("adinNptu", "a", Some(None), &["REPLY"]),
        // bash fills the first name; every word that could be one is taken as assigned
        // (found in review: `mapfile -t x y` fills `x`, not `y`).
        "mapfile" | "readarray" => ("dnOscCu", "", Some(None), &["MAPFILE"]),
        "getopts" => ("", "", Some(Some(1)), &[]),
        "wait" => ("p", "p", None, &[]),
        _ => return (Vec::new(), false),
    };
    let mut names: Vec<String> = Vec::new();
    let mut unknown = false;
    let mut it = words[1..].iter().peekable();
    // Options, as long as words start with `-`.
    while let Some(w) = it.peek() {
        match w {
            Word::Lit(a) if a == "--" => {
                it.next();
                break;
            }
            Word::Lit(a) if a.len() > 1 && a.starts_with('-') => {
                let flags = a[1..].to_string();
                it.next();
                // A bundle (`-rax NAME`, `-aNAME`, `-np x`): the first letter that takes a
                // value takes the rest of the word or the next word (fifth red team).
                if let Some(k) = flags.find(|c| takes.contains(c)) {
                    let rest = &flags[k + 1..];
                    let value = if rest.is_empty() { it.next().cloned() } else { Some(Word::Lit(rest.to_string())) };
                    if flags[k..].starts_with(|c| named.contains(c)) {
                        match value {
                            Some(Word::Lit(n)) => names.push(n),
                            Some(Word::Dyn(_)) => unknown = true,
                            None => {}
                        }
                    }
                }
            }
            // A word only known at run time may be an option that takes a name
            // (`printf "$x"` with x=`-vPATH`). getopts takes none: there it is an error.
            w if dyn_option(w) && name != "getopts" => {
                unknown = true;
                break;
            }
            _ => break,
        }
    }
    if let Some(which) = operands {
        for (k, w) in it.enumerate() {
            match which {
                // A word that may split moves the name along (`getopts $x`).
                Some(n) if k < n && grammar::could_be_several(w) => unknown = true,
                Some(n) if k != n => {}
                _ => match w {
                    Word::Lit(n) => names.push(n.clone()),
                    Word::Dyn(_) => unknown = true,
                },
            }
        }
    }
    // Without a name, read fills REPLY (found by the fourth red team), mapfile MAPFILE.
    if names.is_empty() || name == "read" {
        names.extend(default.iter().map(|d| d.to_string()));
    }
    if name == "getopts" {
        names.extend(["OPTARG".to_string(), "OPTIND".to_string()]);
    }
    (names, unknown)
}

/// `test -v NAME` / `[ -v NAME ]`: a subscript in NAME is arithmetic, which can run code.
/// Each word that is or may be `-v` (one only known at run time may be it, or split into
/// it) and the name after it: the reason when that name is not literal (seventh red team:
/// `test -v a[x]`, `[ -v "$(cat f)" ]`), else the literal names, for the caller's checks.
fn test_variable_operands(words: &[Word]) -> Result<Vec<String>, String> {
    const BINARY: &[&str] = &["=", "==", "!=", "<", ">", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge"];
    let mut names = Vec::new();
    for (k, w) in words.iter().enumerate() {
        if let Word::Dyn(d) = w {
            if grammar::could_be_several(w) && dyn_option(w) {
                return Err(format!("`{d}` may split into `-v NAME`, which evaluates a subscript that can run code"));
            }
        }
        let may_be_v = w.lit().map_or_else(|| dyn_option(w), |a| a == "-v");
        let Some(next) = words.get(k + 1).filter(|_| may_be_v) else { continue };
        // A binary operator after it (with its right operand) makes it an operand itself.
        if words.len() > k + 2 && next.lit().is_some_and(|b| BINARY.contains(&b)) {
            continue;
        }
        match next {
            Word::Dyn(d) => {
                return Err(format!("`-v {d}`: a name only known at run time may hold a subscript, which can run code"))
            }
            Word::Lit(n) => names.push(n.clone()),
        }
    }
    Ok(names)
}

/// `NAME[DIGITS]`: an array element whose subscript is a literal number, which evaluates no
/// code (`unset 'arr[1]'`, `test -v 'a[0]'`: red team 40).
fn number_subscript(n: &str) -> bool {
    n.split_once('[')
        .and_then(|(b, s)| s.strip_suffix(']').map(|s| (b, s)))
        .is_some_and(|(b, s)| is_identifier(b) && !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit()))
}

pub(crate) fn builtin_state_change(words: &[Word]) -> Option<String> {
    let name = words.first().and_then(Word::lit).map(program_name)?;
    let args: Vec<&Word> = words[1..].iter().collect();
    let lits = || args.iter().filter_map(|w| w.lit());
    let mut names: Vec<String> = Vec::new();
    let has_flag = |c: char| lits().any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(c));
    match name {
        "printf" | "read" | "getopts" | "wait" | "mapfile" | "readarray" => {
            if matches!(name, "mapfile" | "readarray") && has_flag('C') {
                return Some(format!("`{name} -C` runs a callback"));
            }
            let (assigned, unknown) = input_names(words);
            if unknown {
                return Some(format!("`{name}` assigns a variable named only at run time"));
            }
            names.extend(assigned);
        }
        // `declare -p NAME` (and typeset's, local's) only prints: with `-p` among its leading
        // options bash assigns nothing, `NAME=VALUE` included ("not found"), and evaluates no
        // subscript (sixth red team: `declare -p PATH` was read as setting PATH). Not so for
        // `export -p` and `readonly -p`, which still assign.
        "declare" | "typeset" | "local"
            if args
                .iter()
                .take_while(|w| w.lit().is_some_and(|a| a.len() > 1 && a.starts_with(['-', '+']) && a != "--"))
                .any(|w| w.lit().is_some_and(|a| a.starts_with('-') && a.contains('p'))) =>
        {
            return None;
        }
        "declare" | "typeset" | "local" | "export" | "readonly" => {
            // (`export -n` only takes the export away.)
            if has_flag('n') && name != "export" {
                return Some(format!("`{name} -n` makes a name refer to another variable"));
            }
            if name == "export" && has_flag('f')
                || (name != "export" && has_flag('f') && has_flag('x') && lits().any(|a| !a.starts_with('-')))
            {
                return Some(format!("`{name} -f` passes functions to other shells"));
            }
            let integer = has_flag('i');
            // With `-a`/`-A` (or an option only known at run time), a value that starts with
            // `(` once expanded is read again as a compound assignment: its items are expanded
            // and run again (eleventh red team: `x='($(rm y))'; declare -a a=$x`). A literal
            // one is decided as code by the walker; a run-time one is not modelled.
            if declared_array(&args) {
                if let Some(d) = args.iter().find_map(|w| match w {
                    // (`files=(src/*.rs)` is bash's own compound syntax: walked already.)
                    Word::Dyn(d)
                        if d.split_once('=').is_some_and(|(_, v)| !v.starts_with('('))
                            && !d.starts_with(['-', '+']) =>
                    {
                        Some(d)
                    }
                    _ => None,
                }) {
                    return Some(format!(
                        "`{name} -a {d}`: a value only known at run time is read again as an array assignment, which can run code"
                    ));
                }
            }
            for a in lits().filter(|a| !a.starts_with('-') && !a.starts_with('+')) {
                let (n, value) = match a.split_once('=') {
                    Some((n, v)) => (n, Some(v)),
                    None => (a, None),
                };
                if integer && value.is_some_and(|v| !v.trim().chars().all(|c| c.is_ascii_digit() || c == '-')) {
                    return Some(format!("`{name} -i {a}` evaluates its value as arithmetic, which can run code"));
                }
                // `local -a 'x=([expr]=v)'`: a compound assignment's subscripts are arithmetic,
                // expanded even inside quotes.
                if value.is_some_and(|v| {
                    v.trim_start().starts_with('(') && compound_subscripts_not_literal(v, has_flag('A'))
                }) {
                    return Some(format!("`{a}` assigns an array whose subscripts are evaluated, which can run code"));
                }
                if value.is_some_and(|v| harmless_setting(n, v)) && !has_flag('i') && !has_flag('n') {
                    continue;
                }
                names.push(n.to_string());
            }
        }
        // (`unset IFS`: bash splits as by default again, which the walker follows.)
        "unset" => names.extend(
            lits().filter(|a| !a.starts_with('-')).filter(|a| *a != "IFS" || has_flag('f')).map(str::to_string),
        ),
        "test" | "[" => {
            let operands = match (name, words[1..].split_last()) {
                ("[", Some((Word::Lit(close), rest))) if close == "]" => rest,
                _ => &words[1..],
            };
            // Only tested, not assigned: a name with a subscript is what can run code.
            match test_variable_operands(operands) {
                Err(reason) => return Some(reason),
                Ok(v) => {
                    if let Some(n) = v.iter().find(|n| n.contains('[') && !number_subscript(n)) {
                        return Some(format!("`{n}` names an array element whose subscript can run code"));
                    }
                    return None;
                }
            }
        }
        // An option only known at run time may be `-p` (seventh red team: `hash -p"$(...)" ls`).
        "hash"
            if lits().any(|a| a.starts_with("-p") || (a.starts_with('-') && a.contains('p')))
                || args.iter().any(|w| dyn_option(w)) =>
        {
            return Some("`hash -p` makes a command name run another program".into());
        }
        "enable" if !args.is_empty() => return Some("`enable` loads or disables builtins".into()),
        "shopt" => {
            // bash reads shopt's flags with its getopt: `-qs`, `-sq`, `-qu` set or unset too.
            if args.iter().any(|w| matches!(w, Word::Dyn(_))) {
                return Some("`shopt` with a word only known at run time may change what later commands mean".into());
            }
            let setting =
                lits().any(|a| a.len() > 1 && a.starts_with('-') && !a.starts_with("--") && a.contains(['s', 'u']));
            if setting {
                if let Some(o) = lits().filter(|a| !a.starts_with('-')).find(|o| !HARMLESS_SHOPTS.contains(o)) {
                    return Some(format!("`shopt {o}` changes what later commands mean"));
                }
            }
        }
        _ => return None,
    }
    for n in names {
        if n.contains('[') && !number_subscript(&n) {
            return Some(format!("`{n}` names an array element whose subscript can run code"));
        }
        if is_dangerous_variable(&n) {
            return Some(format!("sets {n}, which changes what runs"));
        }
    }
    // `declare -a files=(src/*.rs)`, `export X=$(ls)`: the name is literal, only the value is
    // known at run time (the walker gives it to the name and decides what it runs). Not for
    // `-i`, whose value is arithmetic, nor a compound value with subscripts.
    let declares = matches!(name, "declare" | "typeset" | "local" | "export" | "readonly");
    // (And `local g="$f"` of a glob's name, `"g=src/*.rs"`: red team 67.)
    let named = |d: &str| -> Option<String> {
        if let Some((n, _)) = glob_name_assignment(d).filter(|_| !has_flag('i')) {
            return Some(n.to_string());
        }
        let (n, v) = d.split_once('=')?;
        (is_identifier(n) && !has_flag('i') && !(v.starts_with('(') && v.contains('['))).then(|| n.to_string())
    };
    for w in &args {
        if let (true, Word::Dyn(d)) = (declares, w) {
            if let Some(n) = named(d).filter(|n| is_dangerous_variable(n) && !own_value(d)) {
                return Some(format!("sets {n}, which changes what runs"));
            }
        }
    }
    let unknown_name = |w: &&Word| match w {
        Word::Dyn(d) => !(declares && named(d).is_some()),
        Word::Lit(_) => false,
    };
    // A name only known at run time could be any of them.
    if matches!(name, "declare" | "typeset" | "local" | "export" | "readonly" | "unset")
        && args.iter().any(unknown_name)
    {
        return Some(format!("`{name}` assigns a variable named only at run time"));
    }
    None
}

/// A directory below which a command follows the symbolic links it meets, or reads every
/// file, and which names below count: each of `names` must match a name (find's `-name` and
/// `-iname` tests, each with whether it ignores case; empty: any name), at least one of
/// `any_names` must when there are any (grep's `--include`), none of `skip_names` may (grep's
/// `--exclude`), and no directory on the way may match one of `skip_dirs` (`--exclude-dir`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Below {
    pub dir: Word,
    pub names: Vec<(String, bool)>,
    pub any_names: Vec<String>,
    pub skip_names: Vec<String>,
    pub skip_dirs: Vec<String>,
    /// Whether the command follows the links below (the files behind a link to a directory
    /// are read too).
    pub links: bool,
}

impl Below {
    /// `dir` with no filter, its links not followed.
    pub fn at(dir: Word) -> Below {
        Below {
            dir,
            names: Vec::new(),
            any_names: Vec::new(),
            skip_names: Vec::new(),
            skip_dirs: Vec::new(),
            links: false,
        }
    }
}

/// The directories below which `words` follows symbolic links, or hands the names of links on
/// to a command that does (red team G: `find . -exec cat {} +`, `find . | xargs cat` and
/// `grep -R x .` read through `docs/pw` -> `/etc/passwd`): find with `-L`/`-follow`, with an
/// `-exec`-like action, or whose output is `fed` to a command (`find ... | xargs ...`); the
/// tabled programs that follow links while they recurse ([`grammar::Parsed::walks_below`]).
/// Pure: the edge lists what is below them, and each link is decided where it leads.
pub fn walks_below(words: &[Word], fed: bool) -> Vec<Below> {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return Vec::new() };
    if name == "find" {
        return find_below(&words[1..], fed);
    }
    let Some(g) = grammar::grammar(name) else { return Vec::new() };
    let Ok(p) = grammar::parse(g, &words[1..]) else { return Vec::new() };
    p.walks_below(g).into_iter().map(|dir| Below { links: true, ..Below::at(dir) }).collect()
}

/// What decides which names below find's start points reach its actions.
struct FindParts {
    starts: Vec<Word>,
    /// `-L` or `-follow`: links below are followed.
    follows: bool,
    /// An `-exec`-like action.
    acts: bool,
    /// When the expression is "and"-joined throughout (an `-o` or `,` after an action counts),
    /// so that the tests before the first action filter what reaches every action: the values
    /// of those tests' `-type`, and their `-name` (`false`) and `-iname` (`true`). Else empty.
    types: Vec<String>,
    names: Vec<(String, bool)>,
}

fn find_parts(args: &[Word]) -> FindParts {
    let (lead, given) = find_layout(args);
    let follows = args[..lead].iter().filter_map(Word::lit).any(|s| s.starts_with('-') && s.contains('L'))
        || args.iter().any(|w| w.lit() == Some("-follow"));
    let expression = &args[lead + given..];
    let action = |s: &str| matches!(s, "-exec" | "-execdir" | "-ok" | "-okdir");
    let tests: Vec<&Word> = expression.iter().take_while(|w| w.lit().is_none_or(|s| !action(s))).collect();
    let acts = tests.len() < expression.len();
    // (Tests joined only by `-a`: a negated one only leaves names out, [`find_filters`]; after
    // branches that only prune, the last branch's tests, [`find_pruned`].)
    let filtering = find_pruned(expression).unwrap_or(expression);
    let plain = filtering.iter().all(|w| w.lit().is_some_and(|s| !matches!(s, "-o" | "-or" | "," | "(" | ")")));
    let tests: Vec<&Word> = filtering.iter().take_while(|w| w.lit().is_none_or(|s| !action(s))).collect();
    let (types, names) = plain.then(|| find_filters(&tests)).flatten().unwrap_or_default();
    FindParts { starts: find_starts(&args[lead..lead + given]), follows, acts, types, names }
}

/// [`walks_below`] for find's arguments.
fn find_below(args: &[Word], fed: bool) -> Vec<Below> {
    let f = find_parts(args);
    if !(f.follows || fed || f.acts) {
        return Vec::new();
    }
    // Without `-L`, `-type f` lets no link through, `-name P` only links so named; with it,
    // what lies behind a link to a directory has its own names.
    if !f.follows && f.types.iter().any(|v| !v.contains('l')) {
        return Vec::new();
    }
    let names = if f.follows { Vec::new() } else { f.names };
    f.starts.into_iter().map(|dir| Below { names: names.clone(), links: true, ..Below::at(dir) }).collect()
}

/// The directories whose files below `words` reads, with the names that count (see
/// [`Below`]): a recursive grep (`-r`, `-R`, `-d recurse`; its `--include`, `--exclude`,
/// `--exclude-dir`) and `diff -r`; with `hands_on`, a `find` that hands what it finds to a
/// command reading its operands (`-exec cat {} +`, or `fed` to `xargs cat`). A read deny rule
/// naming a file below denies them (`grep -r KEY .` reads `.env`). Pure: the edge lists.
pub fn reads_below(words: &[Word], fed: bool, hands_on: bool) -> Vec<Below> {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return Vec::new() };
    if name == "find" {
        return if hands_on { find_reads_below(&words[1..], fed) } else { Vec::new() };
    }
    let Some(g) = grammar::grammar(name) else { return Vec::new() };
    let Ok(p) = grammar::parse(g, &words[1..]) else { return Vec::new() };
    p.reads_below(g)
}

/// The directories a command copies whole, each with where the copy goes (`cp -r SRC DEST`,
/// `rsync -a SRC DEST`, `git clone SRC DEST` of a local repository, `git checkout-index -a
/// [--prefix=DEST]`): it writes every name below SRC below DEST, names a write deny rule
/// holds among them (red team 50: `cp -r . docs/bak` wrote `docs/bak/Cargo.toml` and
/// `docs/bak/.env`; `git checkout-index -a -f` rewrote both). The edge lists what is below.
pub fn copies_below(words: &[Word]) -> Vec<(Word, Word)> {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return Vec::new() };
    let args = &words[1..];
    // Options up to `--`, and the operands.
    let split = |args: &[Word]| {
        let mut opts: Vec<String> = Vec::new();
        let mut operands: Vec<Word> = Vec::new();
        let mut ended = false;
        for w in args {
            match w.lit() {
                Some("--") if !ended => ended = true,
                Some(a) if !ended && a.starts_with('-') && a.len() > 1 => opts.push(a.to_string()),
                _ => operands.push(w.clone()),
            }
        }
        (opts, operands)
    };
    let short = |opts: &[String], letters: &str| {
        opts.iter().any(|o| !o.starts_with("--") && o[1..].chars().any(|c| letters.contains(c)))
    };
    match name {
        "cp" | "rsync" => {
            // (`-t DIR`, `--target-directory DIR`: the value is the next word.)
            let mut target = None;
            let mut rest: Vec<Word> = Vec::new();
            let mut k = 0;
            while k < args.len() {
                match args[k].lit() {
                    Some("-t" | "--target-directory") if name == "cp" => {
                        target = args.get(k + 1).cloned();
                        k += 2;
                        continue;
                    }
                    // In a bundle, `t` takes the rest of it, or the next word (`-rt DIR`).
                    Some(t) if name == "cp" && !t.starts_with("--") && t.starts_with('-') && t[1..].contains('t') => {
                        let (flags, value) = t[1..].split_once('t').unwrap_or_default();
                        rest.push(Word::Lit(format!("-{flags}")));
                        if value.is_empty() {
                            target = args.get(k + 1).cloned();
                            k += 2;
                            continue;
                        }
                        target = Some(Word::Lit(value.to_string()));
                    }
                    _ => rest.push(args[k].clone()),
                }
                k += 1;
            }
            let (opts, mut operands) = split(&rest);
            let recursive = short(&opts, "rRa")
                || opts.iter().any(|o| spells_option(o, "--recursive") || spells_option(o, "--archive"));
            if !recursive {
                return Vec::new();
            }
            let target = target.or_else(|| {
                opts.iter().find_map(|o| o.strip_prefix("--target-directory=").map(|d| Word::Lit(d.into())))
            });
            let dest = match target {
                Some(d) => d,
                None if operands.len() >= 2 => operands.pop().unwrap_or(Word::Lit(".".into())),
                None => return Vec::new(),
            };
            operands.into_iter().map(|src| (src, dest.clone())).collect()
        }
        "git" => {
            let at = git_subcommand_at(args);
            let rest = args.get(at + 1..).unwrap_or_default();
            match args.get(at).and_then(Word::lit) {
                Some("clone") => {
                    let (_, operands) = split(rest);
                    let Some(src) = operands.first().and_then(Word::lit) else { return Vec::new() };
                    // A local repository (not `host:path`, not a URL).
                    if src.contains("://") || src.split('/').next().is_some_and(|h| h.contains(':')) {
                        return Vec::new();
                    }
                    let dest = operands.get(1).cloned().unwrap_or_else(|| {
                        let base = src.trim_end_matches('/').rsplit('/').next().unwrap_or(src);
                        Word::Lit(base.trim_end_matches(".git").to_string())
                    });
                    vec![(Word::Lit(src.to_string()), dest)]
                }
                // `git worktree add [-b NEW] PATH [COMMIT]` checks the tree out at PATH.
                Some("worktree") if rest.first().and_then(Word::lit) == Some("add") => {
                    let mut k = 1;
                    while let Some(a) = rest.get(k).and_then(Word::lit).filter(|a| a.starts_with('-')) {
                        if a == "--no-checkout" {
                            return Vec::new();
                        }
                        k += if matches!(a, "-b" | "-B" | "--reason") { 2 } else { 1 };
                        if a == "--" {
                            break;
                        }
                    }
                    rest.get(k).map(|p| vec![(Word::Lit(".".into()), p.clone())]).unwrap_or_default()
                }
                Some("checkout-index") => {
                    let (opts, _) = split(rest);
                    let all = opts.iter().any(|o| o == "--all" || (!o.starts_with("--") && o.contains('a')));
                    if !all {
                        return Vec::new();
                    }
                    let prefix = opts.iter().find_map(|o| o.strip_prefix("--prefix=")).unwrap_or(".");
                    vec![(Word::Lit(".".into()), Word::Lit(if prefix.is_empty() { ".".into() } else { prefix.into() }))]
                }
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    }
}

/// [`reads_below`] for find's arguments: its start points, unless no file gets through
/// (`-type d`).
fn find_reads_below(args: &[Word], fed: bool) -> Vec<Below> {
    let f = find_parts(args);
    if !(fed || f.acts) || f.types.iter().any(|v| !v.contains(['f', 'l'])) {
        return Vec::new();
    }
    f.starts.into_iter().map(|dir| Below { names: f.names.clone(), links: f.follows, ..Below::at(dir) }).collect()
}

/// find's start points, given after its leading options (`.` when none is).
fn find_starts(given: &[Word]) -> Vec<Word> {
    if given.is_empty() {
        return vec![Word::Lit(".".into())];
    }
    given.to_vec()
}

/// How many of find's arguments are its leading options (`-L`, `-O3`, `-D tree`) and how many
/// after them are start points.
fn find_layout(args: &[Word]) -> (usize, usize) {
    let mut lead = 0;
    while let Some(s) = args.get(lead).and_then(Word::lit) {
        // `-D OPTIONS` takes the next word (`-D tree -L x`: tree is no start point).
        lead += match s {
            "-D" => 2,
            _ if (s.len() > 1 && s.starts_with('-') && s[1..].chars().all(|c| "HLP".contains(c)))
                || s.starts_with("-O")
                || s.starts_with("-D") =>
            {
                1
            }
            _ => break,
        };
    }
    let lead = lead.min(args.len());
    // A lone `-` is a start point too.
    let given = args[lead..]
        .iter()
        .take_while(|w| w.lit().is_none_or(|s| s == "-" || !(s.starts_with('-') || s == "(" || s == "!")))
        .count();
    (lead, given)
}

/// find's tests that take no value, and those that take one (`-fprintf` takes two, `-newerXY`
/// one): the tests before an action are read with these, and any other word makes them
/// filter nothing (`-printf -type`: `-type` is the format).
const FIND_NO_VALUE: &[&str] = &[
    "-print",
    "-print0",
    "-true",
    "-false",
    "-empty",
    "-readable",
    "-writable",
    "-executable",
    "-xdev",
    "-mount",
    "-depth",
    "-d",
    "-prune",
    "-quit",
    "-ls",
    "-nouser",
    "-nogroup",
    "-a",
    "-and",
    "-daystart",
    "-follow",
    "-noleaf",
    "-ignore_readdir_race",
    "-noignore_readdir_race",
    "-warn",
    "-nowarn",
];
const FIND_ONE_VALUE: &[&str] = &[
    "-name",
    "-iname",
    "-type",
    "-xtype",
    "-path",
    "-ipath",
    "-wholename",
    "-iwholename",
    "-regex",
    "-iregex",
    "-lname",
    "-ilname",
    "-maxdepth",
    "-mindepth",
    "-mtime",
    "-atime",
    "-ctime",
    "-mmin",
    "-amin",
    "-cmin",
    "-size",
    "-perm",
    "-user",
    "-group",
    "-uid",
    "-gid",
    "-links",
    "-inum",
    "-newer",
    "-anewer",
    "-cnewer",
    "-samefile",
    "-printf",
    "-fprint",
    "-fprint0",
    "-fls",
    "-regextype",
    "-used",
    "-context",
    "-fstype",
];

/// find's actions that print names (to standard output or a file, which may be
/// `/dev/stdout`).
const FIND_PRINTS: &[&str] = &["-print", "-print0", "-printf", "-fprint", "-fprint0", "-fprintf", "-ls", "-fls"];

/// The last branch of `PRUNING -prune -o TESTS ACTION` (red team 76: `find . -path
/// ./node_modules -prune -o -name '*.md' -print | xargs sed -i ...`): where every earlier
/// branch (`-o` at the top level) holds `-prune` and no action, and the last one holds an
/// action, only what the last branch's tests let through reaches an action (the earlier
/// branches print nothing, as find prints by default only where the expression has no action
/// but `-prune`). `None` for any other expression, or a word gate does not read as a test.
fn find_pruned(expression: &[Word]) -> Option<&[Word]> {
    let action = |s: &str| {
        FIND_PRINTS.contains(&s) || matches!(s, "-exec" | "-execdir" | "-ok" | "-okdir" | "-delete" | "-quit")
    };
    let mut branches: Vec<(usize, usize)> = Vec::new();
    let (mut depth, mut start, mut i) = (0usize, 0usize, 0usize);
    while i < expression.len() {
        let t = expression[i].lit()?;
        match t {
            "(" => depth += 1,
            ")" => depth = depth.checked_sub(1)?,
            "," => return None,
            "-o" | "-or" if depth == 0 => {
                branches.push((start, i));
                start = i + 1;
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                // The command runs to `;` or `+` (the last of the expression's words here).
                i += expression[i..].iter().position(|w| matches!(w.lit(), Some(";" | "+")))?;
            }
            "-fprintf" => i += 2,
            _ if FIND_ONE_VALUE.contains(&t) || (t.len() == 8 && t.starts_with("-newer")) => i += 1,
            _ if FIND_NO_VALUE.contains(&t) || matches!(t, "!" | "-not" | "-o" | "-or" | "-and" | "-a") => {}
            _ => return None,
        }
        i += 1;
    }
    if depth != 0 || branches.is_empty() {
        return None;
    }
    let last = &expression[start..];
    let any = |range: &[Word], test: &dyn Fn(&str) -> bool| range.iter().any(|w| w.lit().is_some_and(test));
    let prunes = |s: &str| s == "-prune";
    let pruning = branches.iter().all(|&(a, b)| {
        let branch = &expression[a..b];
        any(branch, &prunes) && !any(branch, &action)
    });
    (pruning && any(last, &action) && !any(last, &prunes)).then_some(last)
}

/// The `-type`, `-name` and `-iname` values among find's tests, read test by test; `None` when
/// a word is not a test gate knows (then they filter nothing).
#[allow(clippy::type_complexity)]
fn find_filters(tests: &[&Word]) -> Option<(Vec<String>, Vec<(String, bool)>)> {
    let (mut types, mut names) = (Vec::new(), Vec::new());
    let mut i = 0;
    while i < tests.len() {
        let t = tests[i].lit()?;
        // A test after an action that prints filters nothing it printed (red team 81: `find .
        // -type f -print -name '*.md'` prints every file): the tests before it only.
        if FIND_PRINTS.contains(&t) {
            break;
        }
        let value = || tests.get(i + 1).and_then(|w| w.lit()).map(str::to_string);
        match t {
            // A negated test in tests joined by `-a` only leaves names out: the names and types
            // the others let through are a superset of what is listed (red team 76: `find .
            // -name '*.md' -not -path './node_modules/*' | xargs sed -i ...`).
            "!" | "-not" => {
                let negated = tests.get(i + 1).and_then(|w| w.lit())?;
                i += match negated {
                    _ if FIND_NO_VALUE.contains(&negated) => 2,
                    "-type" | "-name" | "-iname" => 3,
                    _ if FIND_ONE_VALUE.contains(&negated) || (negated.len() == 8 && negated.starts_with("-newer")) => {
                        3
                    }
                    _ => return None,
                };
            }
            _ if FIND_NO_VALUE.contains(&t) => i += 1,
            "-type" => {
                types.push(value()?);
                i += 2;
            }
            "-name" | "-iname" => {
                names.push((value()?, t == "-iname"));
                i += 2;
            }
            _ if FIND_ONE_VALUE.contains(&t) || (t.len() == 8 && t.starts_with("-newer")) => i += 2,
            "-fprintf" => i += 3,
            _ => return None,
        }
    }
    Some((types, names))
}

/// The directories under which the paths a `find` prints lie (`words`: find and its
/// arguments): its start points, `.` when none is given.
pub fn find_listing_dirs(words: &[Word]) -> Vec<Word> {
    let args = words.get(1..).unwrap_or_default();
    let (lead, given) = find_layout(args);
    find_starts(&args[lead..lead + given])
}

/// The files `test` looks at (`[ -s ~/.ssh/id_rsa ]` tells whether a key is there, as `stat`
/// would: red team 62): the known operand of each file test (`-e`, `-f`, `-s`, ...) and both of
/// `-nt`, `-ot`, `-ef`. A run-time operand is left to the command that then uses it.
fn test_probes(args: &[Word]) -> Vec<Word> {
    const UNARY: &[&str] = &[
        "-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-u", "-w", "-x", "-G", "-L", "-N",
        "-O", "-S",
    ];
    let mut out = Vec::new();
    for (k, w) in args.iter().enumerate() {
        let Some(op) = w.lit() else { continue };
        let mut take = |i: Option<usize>| {
            if let Some(Word::Lit(p)) = i.and_then(|i| args.get(i)) {
                if p != "]" && !out.contains(&Word::Lit(p.clone())) {
                    out.push(Word::Lit(p.clone()));
                }
            }
        };
        if UNARY.contains(&op) {
            take(Some(k + 1));
        } else if matches!(op, "-nt" | "-ot" | "-ef") {
            take(k.checked_sub(1));
            take(Some(k + 1));
        }
    }
    out
}

/// Interpreters whose program text can be given on the command line or on standard input.
const INTERPRETERS: &[&str] = &[
    "python", "python2", "python3", "node", "nodejs", "perl", "ruby", "php", "deno", "bun", "lua", "Rscript", "tclsh",
];

/// Programs that run a command or code given in their words or files gate does not model
/// (red team 49: `perf stat rm -f m`, `tmux new-session 'rm m'`, `capsh -- -c 'rm m'`,
/// `gcc -wrapper rm,m`).
const LAUNCHERS: &[&str] = &[
    "perf",
    "tmux",
    "screen",
    "capsh",
    "hyperfine",
    "entr",
    "watchexec",
    "nodemon",
    "expect",
    "ssh",
    "sshpass",
    "docker",
    "podman",
    "kubectl",
    "dtach",
    "abduco",
    "at",
    "batch",
    "rr",
    "lldb",
    "java",
    "direnv",
    "nix-shell",
    "lxc-attach",
    "vagrant",
    "zellij",
    "mosh",
    "flatpak-spawn",
    "distrobox",
    "wish",
    // Recipes, editor commands (`:!cmd`, `-c`), a pager command, package scripts and `exec
    // -c` strings (red team 59: `make -E 'all: ; rm x'`, `vim -es -c '!rm x'`, `man -P 'rm
    // x' ls`, `npm exec -c 'rm x'`, `npm pkg set scripts.test='rm x'; npm test`).
    "make",
    "gmake",
    "vim",
    "vi",
    "nvim",
    "ex",
    "view",
    "rvim",
    "ed",
    "emacs",
    "man",
    "npm",
    "npx",
    "pnpm",
    "pnpx",
    "yarn",
    // Wrappers and runners gate does not model (red team 62: `rlwrap rm x`, `fd -x rm`).
    "rlwrap",
    "fd",
    "fdfind",
    "parallel",
    "strace",
    "ltrace",
    "valgrind",
    "gdb",
    "unshare",
    "nsenter",
    "firejail",
    "bwrap",
    "proot",
    "fakeroot",
    "faketime",
    "eatmydata",
    "torsocks",
    "proxychains",
    "proxychains4",
    "systemd-run",
    "runuser",
    "setpriv",
    "chrt",
    "cpulimit",
    "pkexec",
    "run0",
    "sg",
    "busybox",
];

/// Whether a program runs code gate does not see, so that the call's text is scanned for
/// deny rules' words and denied names: a launcher above, `gcc -wrapper`, and any interpreter,
/// whether its program text is in the call (`python3 -c`, `node -e`, a heredoc to `python3 -`:
/// red team 45) or in a script file, which may write what it is given (red team 49: `python3
/// -m json.tool a Cargo.toml`).
pub fn runs_unseen_code(words: &[Word]) -> bool {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return false };
    let base = name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.');
    // A compiler runs a linker, plugins and wrappers its options name, and writes files its
    // options name (`rustc -C linker=PROG`, `gcc -aux-info F`, `-Wl,-Map=F`: red team 63).
    let compiler = matches!(base, "gcc" | "g++" | "cc" | "c++" | "clang" | "clang++" | "rustc" | "ld" | "as");
    LAUNCHERS.contains(&name) || INTERPRETERS.contains(&name) || INTERPRETERS.contains(&base) || compiler
}

/// Package managers, whose operands are package names (`npm i -D @types/curl`, `apt-get
/// install curl`): a name there is no program gate would see run.
const PACKAGE_MANAGERS: &[&str] = &[
    "npm",
    "npx",
    "pnpm",
    "yarn",
    "bun",
    "cargo",
    "rustup",
    "pip",
    "pip3",
    "pipx",
    "uv",
    "poetry",
    "conda",
    "gem",
    "bundle",
    "go",
    "composer",
    "apt",
    "apt-get",
    "apt-cache",
    "dpkg",
    "brew",
    "dnf",
    "yum",
    "pacman",
    "apk",
    "snap",
    "flatpak",
    "nix",
    "nix-env",
];

/// Whether gate does not model which files the program writes (`yq -yi . .env`): where it has
/// no table either ([`has_no_table`], which the caller checks), the file names in its words
/// are scanned too.
pub fn writes_unmodelled(words: &[Word]) -> bool {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return false };
    !super::writes::models_writes(name)
}

/// Whether gate has no table of a program at all: none of its options is placed, so any
/// word may name a program it runs (`sdiff --diff-program=rm`, `wget --use-askpass=rm`, `scp
/// -S rm`: red team 63). The call's words are then scanned for deny rules' words. Not for a
/// program named at run time (decided already) or a package manager.
pub fn has_no_table(words: &[Word]) -> bool {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return false };
    !(grammar::grammar(name).is_some()
        || is_modelled_program(name)
        || FILE_READERS.iter().any(|(n, _)| *n == name)
        || PACKAGE_MANAGERS.contains(&name)
        || name == "git")
}

/// Whether a grep option (grep's, rg's, git grep's) makes it print the names of the files it
/// read instead of lines: `-l`, `-L`, in a bundle too, or their long names.
fn prints_file_names(l: &str) -> bool {
    matches!(l, "--files-with-matches" | "--files-without-match")
        || (l.starts_with('-') && !l.starts_with("--") && l.contains(['l', 'L']))
}

/// A git pathspec's pattern with its magic read (`:(icase)X`, `:/X`, `:(top,glob)X`), and
/// whether it matches in any case; `None` for one that only leaves names out (`:!X`, `:^X`,
/// `:(exclude)X`). An empty pattern (`:`, `:/`, a magic gate cannot read) matches everything.
fn pathspec_magic(spec: &str) -> Option<(&str, bool)> {
    let Some(rest) = spec.strip_prefix(':') else { return Some((spec, false)) };
    if let Some(long) = rest.strip_prefix('(') {
        let Some((magic, p)) = long.split_once(')') else { return Some(("", false)) };
        let words: Vec<&str> = magic.split(',').map(str::trim).collect();
        if words.iter().any(|w| matches!(*w, "exclude" | "!" | "^")) {
            return None;
        }
        return Some((p, words.contains(&"icase")));
    }
    let end = rest.find(|c: char| !matches!(c, '/' | '!' | '^')).unwrap_or(rest.len());
    if rest[..end].contains(['!', '^']) {
        return None;
    }
    let p = &rest[end..];
    Some((p.strip_prefix(':').unwrap_or(p), false))
}

/// Whether an assignment's text gives a variable the shell's own value (`PATH="$PATH"`,
/// `HOME=${HOME}`), which the command would have anyway (red team 81: `env -i PATH="$PATH"
/// git status` was asked; red team 84: `export PATH="$PATH"`).
pub(crate) fn own_value(assignment: &str) -> bool {
    let Some((name, value)) = assignment.split_once('=') else { return false };
    let value = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value);
    is_identifier(name) && (value == format!("${name}") || value == format!("${{{name}}}"))
}

/// The types of rg's `-t`/`--type` gate knows, with their globs (`rg --type-list`, rg 14).
const RG_TYPES: &[(&str, &[&str])] = &[
    ("md", &["*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mdx", "*.mkd", "*.mkdn", "*.ron"]),
    ("markdown", &["*.markdown", "*.md", "*.mdown", "*.mdwn", "*.mdx", "*.mkd", "*.mkdn", "*.ron"]),
    ("rust", &["*.rs"]),
    ("toml", &["*.toml", "Cargo.lock"]),
    ("json", &["*.json", "*.sarif", "composer.lock", ".jscsrc", ".jshintrc", ".jsbeautifyrc"]),
    ("py", &["*.py", "*.pyi"]),
    ("js", &["*.cjs", "*.js", "*.jsx", "*.mjs", "*.vue"]),
    ("ts", &["*.cts", "*.mts", "*.ts", "*.tsx"]),
    ("yaml", &["*.yaml", "*.yml"]),
    ("txt", &["*.txt"]),
];

/// The name globs a grep or rg listing filters by, each with whether it matches in any case,
/// and whether they filter (only names one of them matches are listed): grep's `--include`
/// where it comes before any `--exclude` (a name neither matches is listed otherwise), rg's
/// `-g`/`--glob`/`--iglob` that are not `!` globs (braces expanded, a leading `**/` taken off)
/// and its `-t` of a type gate knows (`!` globs alone filter, by no pattern gate can give).
/// `None` where the options are not in the table.
pub(super) fn name_globs(program: &str, args: &[Word]) -> Option<(bool, Vec<(String, bool)>)> {
    let g = super::grammar::grammar(program)?;
    let p = super::grammar::parse(g, args).ok()?;
    let has = |names: &[&str]| p.opts.iter().any(|f| names.contains(&f.opt.name));
    let value = |f: &super::grammar::Found| f.value.as_ref().and_then(Word::lit).map(str::to_string);
    if program == "rg" {
        let fold = has(&["--glob-case-insensitive"]);
        let mut globs = Vec::new();
        let (mut known, mut negated) = (true, false);
        for f in &p.opts {
            match f.opt.name {
                "-g" | "--glob" | "--iglob" => {
                    let Some(v) = value(f) else {
                        known = false;
                        continue;
                    };
                    if v.starts_with('!') {
                        negated = true;
                        continue;
                    }
                    let Some(each) = braces_expanded(&v) else {
                        known = false;
                        continue;
                    };
                    let folded = fold || f.opt.name == "--iglob";
                    globs.extend(each.into_iter().map(|e| {
                        let e = e.strip_prefix("**/").filter(|r| !r.contains('/')).map_or(e.clone(), str::to_string);
                        (e, folded)
                    }));
                }
                "-t" | "--type" => match value(f).and_then(|t| RG_TYPES.iter().find(|(n, _)| *n == t)) {
                    Some((_, each)) => globs.extend(each.iter().map(|e| (e.to_string(), false))),
                    None => known = false,
                },
                "--type-add" | "--type-clear" | "-T" | "--type-not" => known = false,
                _ => {}
            }
        }
        // (`!` globs alone: every name but theirs, which no pattern says; not everything
        // either, `-g '!*.toml'` lists no Cargo.toml.)
        return Some((known && (!globs.is_empty() || negated), globs));
    }
    let first = p.opts.iter().find(|f| matches!(f.opt.name, "--include" | "--exclude" | "--exclude-from"));
    let include_first = first.is_some_and(|f| f.opt.name == "--include");
    let globs: Vec<Option<String>> = p.opts.iter().filter(|f| f.opt.name == "--include").map(value).collect();
    let all_known = globs.iter().all(Option::is_some);
    Some((include_first && all_known, globs.into_iter().flatten().map(|v| (v, false)).collect()))
}

/// A glob's one level of `{A,B}` alternatives as the globs it stands for (`*.{md,toml}`:
/// `*.md`, `*.toml`); itself without braces; `None` for nested or unbalanced ones.
fn braces_expanded(glob: &str) -> Option<Vec<String>> {
    let Some(open) = glob.find('{') else {
        return (!glob.contains('}')).then(|| vec![glob.to_string()]);
    };
    let close = open + glob[open..].find('}')?;
    let (head, inner, tail) = (&glob[..open], &glob[open + 1..close], &glob[close + 1..]);
    if inner.contains('{') || tail.contains(['{', '}']) {
        return None;
    }
    Some(inner.split(',').map(|alt| format!("{head}{alt}{tail}")).collect())
}

/// The name patterns a listing filters its names by (`find -name '*.toml'`, `git ls-files
/// '*.toml'`, `grep -rl --include='*.toml'`, `rg -g '*.toml'`), as shell globs relative to where
/// it runs: `**/` before a pattern without a `/`, and a case-insensitive pattern with each
/// letter as `[xX]`. Only patterns with `*`, `?` or `[` (a literal name is in the call's
/// text already).
pub fn listing_patterns(words: &[Word]) -> Vec<String> {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return Vec::new() };
    let lits: Vec<&str> = words[1..].iter().filter_map(Word::lit).collect();
    let mut out: Vec<(String, bool)> = Vec::new();
    let after = |opts: &[&str], fold: bool, out: &mut Vec<(String, bool)>| {
        for w in lits.windows(2) {
            if opts.contains(&w[0]) {
                out.push((w[1].to_string(), fold));
            }
        }
    };
    // A listing of the whole tree from the top with no filter lists every name there, dot
    // files too (red team 48: `find . -type f -exec sed -i ...`).
    let everything = |out: &mut Vec<(String, bool)>| {
        out.push(("*".to_string(), false));
        out.push((".*".to_string(), false));
    };
    match name {
        "find" => {
            // An expression of tests joined only by `-a` (no `-o`, `,` or parentheses) lists
            // names that pass each: a negated name test there only leaves names out, where a
            // test that is not negated says what the names are (red team 74: `find . -name
            // '*.md' -not -path './node_modules/*' | xargs ...` read `node_modules/*` as names
            // it lists, `Cargo.toml` among them).
            // (After branches that only prune, the last branch's tests alone: red team 82's
            // `find . -name '*.toml' -prune -o -name '*.md' -print` lists no `.toml`.)
            let args = &words[1..];
            let (lead, given) = find_layout(args);
            let lits: Vec<&str> = match find_pruned(&args[lead + given..]) {
                Some(last) => args[..lead + given].iter().chain(last).filter_map(Word::lit).collect(),
                None => lits,
            };
            // (A test after an action that prints filters nothing it printed: red team 81.)
            let printed_at = lits.iter().position(|l| FIND_PRINTS.contains(l)).unwrap_or(lits.len());
            let lits: Vec<&str> = lits[..printed_at].to_vec();
            let joined = !lits.iter().any(|l| matches!(*l, "-o" | "-or" | "," | "(" | ")"));
            const TESTS: &[(&str, bool)] = &[
                ("-name", false),
                ("-path", false),
                ("-wholename", false),
                ("-iname", true),
                ("-ipath", true),
                ("-iwholename", true),
            ];
            let mut negated_only = false;
            for (k, w) in lits.windows(2).enumerate() {
                let Some((_, fold)) = TESTS.iter().find(|(t, _)| *t == w[0]) else { continue };
                let negated = k > 0 && matches!(lits[k - 1], "!" | "-not");
                if joined && negated {
                    negated_only = true;
                    continue;
                }
                out.push((w[1].to_string(), *fold));
            }
            // (Joined by `-a` with every name test negated: no filter of names at all, as
            // find with no test lists, red team 80: `find docs -type f ! -name x.md | xargs
            // sed -i ...` was denied for `Cargo.toml` anywhere.)
            let negation = if joined { false } else { negated_only || lits.iter().any(|l| matches!(*l, "!" | "-not")) };
            // find's `*` matches a leading dot too (red team 60: `-name '*env'` is `.env`), as
            // git's does (below); a regular expression may match any name.
            let dotted: Vec<(String, bool)> = out
                .iter()
                .filter(|(p, _)| p.starts_with(['*', '?', '[']) && !p[1..].contains('.'))
                .map(|(p, fold)| (format!(".{p}"), *fold))
                .collect();
            out.extend(dotted);
            // (A negated filter lists what the pattern does not match: red team 61's `find . !
            // -name '*.md' -delete`.)
            if negation || lits.iter().any(|l| matches!(*l, "-regex" | "-iregex")) {
                everything(&mut out);
            }
            let filtered = lits.iter().enumerate().any(|(k, l)| {
                (l.contains("name") || l.contains("path") || l.contains("regex"))
                    && !(joined && negated_only && k > 0 && matches!(lits[k - 1], "!" | "-not"))
            });
            let starts: Vec<&str> = lits.iter().take_while(|l| !l.starts_with(['-', '(', '!'])).copied().collect();
            if !filtered && (starts.is_empty() || starts.iter().any(|s| matches!(*s, "." | "./"))) {
                everything(&mut out);
            }
        }
        "grep" | "egrep" | "fgrep" | "rg" | "ag" => {
            // The files `grep -l` prints are among its operands: a glob there filters them
            // (red team 48: `grep -l version *.toml | xargs sed -i`).
            let names = lits.iter().any(|l| prints_file_names(l));
            let recursive = lits.iter().any(|l| {
                matches!(*l, "--recursive" | "--dereference-recursive")
                    || (l.starts_with('-') && !l.starts_with("--") && l.contains(['r', 'R']))
            });
            // The globs it filters names by, as its own table reads its options; `None` where
            // they do not filter (red team 83: grep's `--exclude=zzz --include='*.md'` lists
            // names neither matches, rg's `-g '!*.md'` alone every other name).
            let (included, globs) = match name_globs(name, &words[1..]) {
                Some((filters, globs)) => (filters, globs),
                None => (false, Vec::new()),
            };
            out.extend(globs);
            // (Its operands after the pattern, as its table reads them where it can.)
            let parsed = super::grammar::grammar(name).and_then(|g| super::grammar::parse(g, &words[1..]).ok());
            let tops = match &parsed {
                Some(p) => {
                    let pattern_given =
                        p.opts.iter().any(|f| matches!(f.opt.name, "-e" | "--regexp" | "-f" | "--file" | "--files"));
                    let mut paths = p.operands.iter().skip(usize::from(!pattern_given));
                    paths.all(|w| matches!(w.lit(), Some("." | "./")))
                }
                None => lits.iter().filter(|l| !l.starts_with('-')).skip(1).all(|l| matches!(*l, "." | "./")),
            };
            if names && (recursive || name == "rg") && !included && tops {
                everything(&mut out);
            }
            if names {
                for w in &words[1..] {
                    if let Word::Dyn(d) = w {
                        if glob_base(d).is_some() && d.contains(['*', '?', '[']) {
                            out.push((d.clone(), false));
                        }
                    }
                }
            }
            // (Where the table cannot read them, every word that may be one.)
            if name_globs(name, &words[1..]).is_none() {
                for l in &lits {
                    for (prefix, fold) in [("--include=", false), ("--glob=", false), ("--iglob=", true), ("-g", false)]
                    {
                        if let Some(v) = l.strip_prefix(prefix).filter(|v| !v.is_empty()) {
                            out.push((v.to_string(), fold));
                        }
                    }
                }
                after(&["--include", "-g", "--glob"], false, &mut out);
                after(&["--iglob"], true, &mut out);
            }
        }
        "fd" | "fdfind" => out.extend(lits.iter().filter(|l| !l.starts_with('-')).map(|l| (l.to_string(), false))),
        "git" => {
            let at = git_subcommand_at(&words[1..]);
            let sub = words.get(at + 1).and_then(Word::lit).unwrap_or("");
            let mut specs: Vec<&str> = words
                .get(at + 2..)
                .unwrap_or_default()
                .iter()
                .filter_map(Word::lit)
                .filter(|l| !l.starts_with('-'))
                .collect();
            // (`git grep`'s pattern is no pathspec: what follows `--`, or the words after the
            // pattern; red team 85's `git grep -l ws -- ':!docs'` lists every other name.)
            if sub == "grep" {
                let after: Vec<&str> = words.get(at + 2..).unwrap_or_default().iter().filter_map(Word::lit).collect();
                let pattern_given = after.iter().take_while(|l| **l != "--").any(|l| matches!(*l, "-e" | "-f"));
                match after.iter().position(|l| *l == "--") {
                    Some(k) => specs = after[k + 1..].to_vec(),
                    None if !pattern_given && !specs.is_empty() => {
                        specs.remove(0);
                    }
                    None => {}
                }
            }
            // (Pathspecs that only leave names out match everything where none other is given.)
            let mut excluded_only = !specs.is_empty();
            for l in &specs {
                // `:(icase)NAME` matches NAME in any case (red team 48); `:!NAME`,
                // `:(exclude)NAME` leave names out; `:`, `:/` match the whole tree (red team 83:
                // `git ls-files '*.md' ':/' | xargs sed -i` rewrote `.env`).
                let Some((p, fold)) = pathspec_magic(l) else { continue };
                excluded_only = false;
                if p.is_empty() {
                    everything(&mut out);
                    continue;
                }
                out.push((p.to_string(), fold));
                // git's `*` matches a leading dot too (red team 50: `'*env'` is `.env`); not
                // read so for a pattern of an extension (`'*.rs'`), whose dot names are no
                // one's (`.env.rs`).
                if p.starts_with(['*', '?', '[']) && !p[1..].contains('.') {
                    out.push((format!(".{p}"), fold));
                }
                // (And a `*` matches nothing, a `?` the dot itself: `*.env` lists `.env`,
                // `':(icase)?ENV'` too; red team 87.)
                if let Some(rest) = p.strip_prefix('*').filter(|r| r.starts_with('.') && r.len() > 1) {
                    out.push((format!("**/{rest}"), fold));
                }
                if let Some(rest) = p.strip_prefix('?').filter(|r| !r.is_empty() && !r.contains('/')) {
                    out.push((format!("**/.{rest}"), fold));
                }
            }
            if sub == "ls-files" && specs.is_empty() || excluded_only {
                everything(&mut out);
            }
            // Listings of names that take no pathspec: `git grep -l PATTERN`, `git ls-tree -r
            // --name-only TREE`, `git diff --name-only [REV...]` (red team 56: `git grep -l
            // version | xargs sed -i ...` rewrote Cargo.toml, only asked).
            let rest = words.get(at + 2..).unwrap_or_default();
            let after_dd = rest.iter().position(|w| w.lit() == Some("--")).map(|k| &rest[k + 1..]);
            let has = |names: &[&str]| lits.iter().any(|l| names.contains(l));
            let unspecified = match sub {
                "grep" => {
                    let names = lits.iter().any(|l| *l == "--name-only" || prints_file_names(l));
                    let pathspecs = match after_dd {
                        Some(after) => after.len(),
                        // (The pattern is out of `specs` already.)
                        None => specs.len(),
                    };
                    names && pathspecs == 0
                }
                "ls-tree" => has(&["--name-only"]) && after_dd.is_none_or(<[Word]>::is_empty) && specs.len() <= 1,
                // (With `--ext-diff` or `--textconv` a program gate cannot see runs: asked, as
                // before, not denied on the names.)
                "diff" => {
                    has(&["--name-only"])
                        && !lits.iter().any(|l| l.starts_with("--ext-diff") || l.starts_with("--textconv"))
                        && after_dd.is_none_or(<[Word]>::is_empty)
                }
                _ => false,
            };
            if unspecified {
                everything(&mut out);
            }
        }
        _ => {}
    }
    out.into_iter()
        // (An exclusion, `!*.toml` or `:(exclude)`, filters names out.)
        // (A name matched in any case is a pattern however it is written: `-iname cargo.toml`.)
        .filter(|(p, fold)| {
            (p.contains(['*', '?', '[']) || *fold)
                && !p.starts_with('!')
                && !p.starts_with(":!")
                && !p.starts_with(":^")
        })
        .filter(|(p, _)| !p.starts_with(":(") || p.starts_with(":(glob)"))
        .map(|(p, fold)| {
            let p = p.trim_start_matches(":(glob)").trim_start_matches("./").to_string();
            let p = if p.contains('/') { p } else { format!("**/{p}") };
            if !fold {
                return p;
            }
            p.chars()
                .map(|c| match c.is_ascii_alphabetic() {
                    true => format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase()),
                    false => c.to_string(),
                })
                .collect()
        })
        .collect()
}

/// `git SUB ... --` given words at run time (`| xargs -r git diff --stat --`): each a
/// pathspec, which git reads only inside its repository (one outside is an error, a link
/// there its own blob). `Some(true)` where git outside a repository reads them as files
/// (`diff` then compares two paths, as with `--no-index`): only where the start is a
/// repository's top. `None` for anything else.
pub fn git_pathspecs_added(words: &[Word]) -> Option<bool> {
    let lits: Vec<&str> = words.iter().map(Word::lit).collect::<Option<_>>()?;
    let (&"git", [sub, rest @ ..]) = lits.split_first()? else { return None };
    if rest.last() != Some(&"--") || rest.contains(&"--no-index") {
        return None;
    }
    match *sub {
        "log" | "shortlog" | "whatchanged" | "status" | "ls-files" => Some(false),
        "diff" => Some(true),
        _ => None,
    }
}

/// Whether the program reads files named by its operands, so that operands added at run time
/// (`xargs cat`) are reads of paths gate cannot see.
pub fn reads_operands(words: &[Word]) -> bool {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return false };
    match grammar::grammar(name) {
        Some(g) => g.files != grammar::Files::None,
        None => FILE_READERS.iter().any(|(n, _)| *n == name),
    }
}

/// The default of a word that is one parameter with one (`${NAME:-WORD}`, `${NAME-WORD}`,
/// `:=`, `=`), quoted or not, where WORD is plain text: what the word is where NAME is unset.
pub fn parameter_default(raw: &str) -> Option<&str> {
    let inner = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(raw);
    let body = inner.strip_prefix("${")?.strip_suffix('}')?;
    let k = body.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))?;
    let rest = &body[k..];
    let default = rest
        .strip_prefix(":-")
        .or_else(|| rest.strip_prefix(":="))
        .or_else(|| rest.strip_prefix('-'))
        .or_else(|| rest.strip_prefix('='))?;
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./,:@%+~".contains(c);
    (k > 0 && !default.is_empty() && default.chars().all(plain)).then_some(default)
}

/// The directory every match of a glob lies under (`src/*.rs`: `src`; `*`: `.`), or `None`
/// when the word is not a plain glob (a variable, a substitution, quoting) or when a match
/// could climb out of it (`src/*/../..`, `.*` matching `..` where globskipdots is off).
/// A glob in double quotes as the walker writes one name a glob gives (`"$f"` in a loop over
/// `src/*`: one word, `"src/*"`): the glob inside. Any other text as it is.
/// A declaration builtin's word `NAME=` and one name of a glob (`local g="$f"` in a loop over
/// `src/*.rs` is `"g=src/*.rs"`): the name and the glob, where the glob starts with a plain
/// letter, so the value never starts with `(` (which bash reads again as an array's items, a
/// subscript there running code, where NAME is an array already).
pub(crate) fn glob_name_assignment(d: &str) -> Option<(&str, &str)> {
    let glob = unquoted_glob(d);
    let (n, g) = glob.split_once('=').filter(|_| glob != d)?;
    let plain_start = g.starts_with(|c: char| c.is_ascii_alphanumeric() || "/._".contains(c));
    (is_identifier(n) && plain_start && !g.contains('=') && unquoted_glob(&format!("\"{g}\"")) == g).then_some((n, g))
}

/// Whether a word is quoted whole and surely one word: no `@` (`"$x"`, `"src/*.rs"`; not
/// `"$@"`, `"${a[@]}"`).
pub(crate) fn quoted_one_word(d: &str) -> bool {
    d.len() >= 2 && d.starts_with('"') && d.ends_with('"') && !d.contains('@')
}

pub fn unquoted_glob(raw: &str) -> &str {
    match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
        Some(inner)
            if inner.contains(['*', '?', '['])
                && !inner.contains(['"', '$', '`', '\\', '\'', '(', ')', '<', '>', '|', ';', '&'])
                && !inner.contains(char::is_whitespace) =>
        {
            inner
        }
        _ => raw,
    }
}

/// The spellings of the shell's directory at the start of a word, unquoted (`$PWD/src/*`).
pub const PWD_SPELLINGS: [&str; 4] = ["$(pwd)", "${PWD}", "$PWD", "`pwd`"];

pub fn glob_base(raw: &str) -> Option<String> {
    let raw = unquoted_glob(raw);
    // The working directory by name: `"$(pwd)"`, `$PWD/src/*`.
    let unquoted = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(raw);
    for here in PWD_SPELLINGS {
        if let Some(rest) = unquoted.strip_prefix(here) {
            let next_is_name = here == "$PWD" && rest.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_');
            if rest.is_empty() {
                return Some(".".into());
            }
            if !next_is_name && rest.starts_with('/') && (raw.starts_with('"') || rest.contains(['*', '?', '['])) {
                return glob_base(&format!(".{rest}")).or_else(|| {
                    (!rest.contains(['$', '`', '\\', '"', '\'']) && !rest.contains(char::is_whitespace))
                        .then(|| format!(".{rest}"))
                });
            }
        }
    }
    // `{}` is no glob: find's or xargs's placeholder inside a word (`{}{}/x` is `../x`).
    if raw.contains(['$', '`', '\'', '"', '\\', '(', ')', '<', '>', '|', ';', '&'])
        || raw.contains(char::is_whitespace)
        || raw.contains("{}")
    {
        return None;
    }
    let glob = |seg: &str| seg.contains(['*', '?', '[', '{']);
    let segs: Vec<&str> = raw.split('/').collect();
    let first = segs.iter().position(|s| glob(s))?;
    // A segment that may match `.` or `..` (`.*`, `.?`, `..`) climbs out; one whose second
    // character is a literal other than `.` (`.e*`) never matches them, in any bash.
    // Nor does one whose second character is a bracket that cannot match a `.` (red team 47:
    // `.[!.]*`, the usual spelling of "dot files but not `..`").
    let no_dot_bracket = |b: &str| {
        let (negated, body) = match b.strip_prefix(['!', '^']) {
            Some(r) => (true, r),
            None => (false, b),
        };
        let Some(end) = body.get(1..).and_then(|r| r.find(']')).map(|k| k + 1) else { return false };
        let set = &body[..end];
        // (A range between letters or digits, `.[a-z]*`, never holds `.`, which sorts before
        // them in every locale bash ranges use: red team 90.)
        let b = set.as_bytes();
        let ranges_plain = (1..b.len().saturating_sub(1))
            .filter(|&k| b[k] == b'-')
            .all(|k| b[k - 1].is_ascii_alphanumeric() && b[k + 1].is_ascii_alphanumeric());
        if negated {
            set.contains('.')
        } else {
            !set.contains(['.', '[', '\\']) && ranges_plain
        }
    };
    // (And `..?*`, which dotglob's spelling of `*` uses: it needs a third letter.)
    // (Under globskipdots no pattern matches `.` or `..`: only a literal `..` climbs. Red teams
    // 82, 90 and 91 found `ls -d .*` asked.)
    let skips = super::skips_dots();
    let climbs = |s: &str| {
        s == ".."
            || !skips
                && s.starts_with('.')
                && s[1..].chars().next().is_none_or(|c| c == '.' || "*?[{\\".contains(c))
                && !s[1..].strip_prefix('[').is_some_and(no_dot_bracket)
                && !(s.len() > 2 && s.starts_with("..") && s[2..].starts_with('?'))
                // (Nor one that ends in a literal letter: `.*rc` never matches a name ending
                // in `.`, red team 63.)
                && !s.ends_with(|c: char| c.is_ascii_alphanumeric() || "_-".contains(c))
    };
    if segs[first..].iter().any(|s| climbs(s)) {
        return None;
    }
    let base = segs[..first].join("/");
    Some(match base.as_str() {
        "" if raw.starts_with('/') => "/".to_string(),
        "" => ".".to_string(),
        _ => base,
    })
}

/// Whether gate gives `name` a meaning of its own: a program on the safe list, a wrapper
/// whose command it unwraps, or a shell it reads the script of. A function of that name
/// changes what the name does (red team 41).
pub(crate) fn is_modelled_program(name: &str) -> bool {
    SAFE.iter().any(|(n, _)| *n == name) || wrapper(name).is_some() || is_shell(name)
}

/// `umask [-p] [-S] [MODE]`: prints the mask, or sets the permissions later files are made
/// with: nothing is read, written or run (red team 40 found `umask 022; npm test` asked).
fn umask_args(args: &[&str]) -> bool {
    let (options, mode) = match args.iter().position(|a| !a.starts_with('-') || a.len() == 1) {
        Some(i) => (&args[..i], &args[i..]),
        None => (args, &[][..]),
    };
    let options_ok = options.iter().all(|a| *a == "--" || a[1..].chars().all(|c| "Sp".contains(c)));
    let mode_ok = match mode {
        [] => true,
        // An octal mask that keeps group and others from writing what is made next (`022`,
        // `077`); one that lets them (`000`, `002`) or a symbolic mode is not decided here.
        [m] => {
            !m.is_empty()
                && m.len() <= 4
                && m.chars().all(|c| ('0'..='7').contains(&c))
                && u32::from_str_radix(m, 8).is_ok_and(|v| v & 0o022 == 0o022)
        }
        _ => false,
    };
    options_ok && mode_ok
}
