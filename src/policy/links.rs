//! Deciding a call where its paths really land (hardening round 2, item 1). A path is written
//! lexically (`docs/notes.md`), but the kernel follows symbolic links (`docs/notes.md` ->
//! `../.env`, `etcl/../root/x` with `etcl` -> `/etc`). This module stays pure: the caller passes
//! `real`, which maps a path as written (absolute, `..` not yet applied) to where it lands,
//! doing the I/O at the edge ([`crate::resolve`]). The call is decided as written and as
//! resolved, and the stricter decision wins: deny if either is denied, outside the workspace
//! if either is, gate's own files by their resolved identity.
//!
//! A relative path lands relative to the directory it is used in, not the workspace: a shell
//! word from where the analysis says its command runs (after `cd docs`, in a shell tool's
//! `cwd` field, after `git -C docs`), a non-shell path from the agent's directory. A word used
//! in several directories is decided where it lands from each of them.
//!
//! A command that walks a directory following the links below it (`grep -R`, `find -L`, `find
//! . -exec cat {} +`, `find . | xargs cat`) is also decided as reading where each of those links
//! leads: the edge lists them ([`Edge::links_below`], bounded), this module only decides.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::chain::{arg_paths, arg_strings, path_text, shell_text, word_dirs, ArgPath};
use super::model::ToolKind;
use super::{Call, Context, Decision, Policy, Verdict};
use crate::shell::{self, Word};

/// What the edge looks up for one decision ([`crate::resolve::Resolver`]).
pub trait Edge {
    /// Where a path as written (absolute, unnormalized) would be reached by the kernel, in the
    /// workspace's spelling when it lands inside; `None` when that is the path as written.
    fn real(&self, written: &Path) -> Option<PathBuf>;
    /// [`Edge::real`] of a name that holds glob characters but is no glob (a quoted shell
    /// word: `jq '.[]' f`): links followed, nothing matched. The same as `real` by default.
    fn real_name(&self, written: &Path) -> Option<PathBuf> {
        self.real(written)
    }
    /// Each symbolic link below the directory `dir` (absolute, as written) and where it leads,
    /// both in the workspace's spelling where inside, the directories links lead to walked too;
    /// `None` when that would look at more names than the edge does. Empty for a file or a
    /// path that is not there.
    fn links_below(&self, dir: &Path) -> Option<Vec<(PathBuf, PathBuf)>>;
    /// Every name below the directory `dir` (directories and links included), in the
    /// workspace's spelling where inside; with `follow`, also below the directories links
    /// lead to. `None` when that would look at more names than the edge does.
    fn files_below(&self, dir: &Path, follow: bool) -> Option<Vec<PathBuf>>;
    /// How many other names (hard links) the file at `written` has: its content is theirs,
    /// wherever they are (red team 41: `docs/notes.md` a hard link to `.env`).
    fn other_names(&self, _written: &Path) -> u64 {
        0
    }
    /// The repository other than the workspace's own that git run in `dir` (absolute, as
    /// written) finds first: a directory between `dir` and the workspace root `root` (not the
    /// root itself) that holds `.git`, or is a git directory itself (a bare repository). Its
    /// config and attributes are not the user's and can run programs (`core.fsmonitor`, a diff
    /// driver's `textconv`, filters). A `.git` file that points into the workspace's own
    /// `.git` (a submodule) is the user's.
    fn foreign_repo(&self, _dir: &Path, _root: &Path) -> Option<PathBuf> {
        None
    }
    /// The text of a small file (a `package.json`), where it really lands; `None` when it is
    /// not there, not a file, or too large.
    fn small_file(&self, _written: &Path) -> Option<String> {
        None
    }
    /// The names in the index of the repository git run in `dir` (absolute, as written)
    /// finds ([`crate::git_index`]); `None` where there is none, or its index cannot be read
    /// whole.
    fn git_index_names(&self, _dir: &Path) -> Option<Vec<Vec<u8>>> {
        None
    }
    /// Whether anything (a file, a directory, a link, dangling or not) is at `written`.
    fn exists(&self, _written: &Path) -> bool {
        false
    }
    /// Whether `written` (absolute, as written) is a directory, links followed as the kernel
    /// follows them: `Some(false)` when nothing is there, `None` when it cannot be told.
    fn is_dir(&self, _written: &Path) -> Option<bool> {
        None
    }
    /// Whether the process may enter the directory `written` (absolute, as written): search
    /// permission on it and on every directory on the way (`cd` into one without fails).
    fn enterable(&self, _written: &Path) -> bool {
        false
    }
    /// Whether the bash on this machine has `globskipdots` on when it starts (bash 5.2 and
    /// later): then no glob matches `.` or `..` ([`shell::skipping_dots`]).
    fn skips_dot_names(&self) -> bool {
        false
    }
    /// Whether the `wc` on the PATH quotes a name holding a line end, so that it prints one
    /// line a file (GNU coreutils 8.25 and later: [`shell::wc_quoting`]).
    fn wc_quotes_names(&self) -> bool {
        false
    }
    /// The names starting with `-` that the first glob segment of `written` (absolute, as
    /// written) matches in its directory: a shell word that starts with that glob becomes such
    /// a name, which the program reads as an option (red team 50: `wc -c *` in a directory
    /// holding `--files0-from=list` reads the files the list names).
    fn option_names(&self, _written: &Path) -> Vec<String> {
        Vec::new()
    }
}

/// `.npmrc` settings that change what a package manager runs or where it looks: the shell
/// scripts run in, options node is started with, other config files, another prefix.
const NPMRC_RUNS: &[&str] = &[
    "script-shell",
    "shell",
    "node-options",
    "userconfig",
    "globalconfig",
    "prefix",
    "onload-script",
    "init-module",
    "node-gyp",
    "git",
    // Scripts of other packages (red team 46: `workspaces=true` ran each workspace's).
    "workspaces",
    "workspace",
    "include-workspace-root",
];

/// The scripts of the packages a package.json in `dir` names in `workspaces` by a literal
/// path (a glob's packages are not listed here), one per line.
fn workspace_scripts(real: Real, dir: &Path) -> String {
    let manifest =
        |d: &Path| real.small_file(&d.join("package.json")).and_then(|t| serde_json::from_str::<Value>(&t).ok());
    let Some(json) = manifest(dir) else { return String::new() };
    let names: Vec<&str> = match json.get("workspaces") {
        Some(Value::Array(a)) => a.iter().filter_map(Value::as_str).collect(),
        Some(Value::Object(o)) => o
            .get("packages")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    let mut out = String::new();
    for n in names.into_iter().filter(|n| !n.contains(['*', '?', '[', '{', '!'])) {
        let scripts = manifest(&dir.join(n)).and_then(|j| j.get("scripts").cloned());
        for s in scripts.as_ref().and_then(Value::as_object).into_iter().flat_map(|o| o.values()) {
            out.extend(s.as_str().map(|s| format!("{s}\n")));
        }
    }
    out
}

/// Options of a package manager that run the scripts of another package: `Ok(dir)` for one
/// named directory (`--prefix D`, `-C D`, `--dir D`, `--cwd D`), `Err` for packages gate does
/// not find (`--workspace`, `-r`, `--filter`) or a directory only known at run time. npm reads
/// its long options with one or two dashes, in any case (red team 44: `--PREFIX`, `-prefix`).
fn package_dir_option(words: &[Word]) -> Option<Result<String, String>> {
    let mut it = words.iter().skip(1);
    while let Some(w) = it.next() {
        let Some(a) = w.lit() else {
            if w.display().trim_start_matches(['"', '\'']).starts_with('-') {
                return Some(Err(format!("`{}` is an option only known at run time", w.display())));
            }
            continue;
        };
        if a == "--" {
            break;
        }
        if !a.starts_with('-') {
            continue;
        }
        let bare = a.trim_start_matches('-').to_ascii_lowercase();
        let (name, glued) = match bare.split_once('=') {
            Some((n, _)) => (n.to_string(), Some(a[a.find('=').unwrap_or(0) + 1..].to_string())),
            None => (bare.clone(), None),
        };
        let short = !a.starts_with("--");
        let dir_option = matches!(name.as_str(), "prefix" | "dir" | "cwd") || (short && a.starts_with("-C"));
        if dir_option {
            let value = match (glued, short && a.starts_with("-C") && a.len() > 2) {
                (Some(v), _) => Some(Word::Lit(v)),
                (None, true) => Some(Word::Lit(a[2..].to_string())),
                (None, false) => it.next().cloned(),
            };
            return Some(match value {
                Some(Word::Lit(v)) => Ok(v),
                Some(d) => Err(format!("the package directory `{}` is only known at run time", d.display())),
                None => Err("the package directory option has no value".into()),
            });
        }
        let others = matches!(
            name.as_str(),
            "workspace" | "workspaces" | "w" | "ws" | "recursive" | "r" | "filter" | "include-workspace-root"
        ) || a == "-F";
        // (`--workspaces=false` turns them off: red team 69.)
        let off = glued.as_deref().is_some_and(|v| v.eq_ignore_ascii_case("false"))
            && matches!(name.as_str(), "workspaces" | "recursive" | "include-workspace-root");
        if others && !off {
            return Some(Err(format!("`{a}` runs the scripts of other packages")));
        }
    }
    None
}

/// How many scripts deep `npm run` naming `npm run` is followed.
const SCRIPT_DEPTH: usize = 3;

/// The package.json scripts a package manager's command runs, in order (`npm run build`:
/// `prebuild`, `build`, `postbuild`; `npm test`; `npm install`'s lifecycle), or none.
fn package_scripts(words: &[Word]) -> Vec<String> {
    let Some(program) = words.first().and_then(Word::lit).map(shell::program_name) else { return Vec::new() };
    if !matches!(program, "npm" | "pnpm" | "yarn" | "bun") {
        return Vec::new();
    }
    let args: Vec<&str> = words[1..].iter().filter_map(Word::lit).collect();
    let with_hooks = |n: &str| vec![format!("pre{n}"), n.to_string(), format!("post{n}")];
    // The first word that is a subcommand (option values before it are skipped, as
    // `npm --prefix . run x`): what the scripts are is over-counted, never under.
    for (k, a) in args.iter().enumerate() {
        match *a {
            "run" | "run-script" | "rum" | "urn" => {
                return args[k + 1..].iter().find(|a| !a.starts_with('-')).map(|n| with_hooks(n)).unwrap_or_default();
            }
            "test" | "t" | "tst" => return with_hooks("test"),
            "start" | "stop" => return with_hooks(a),
            "restart" => return [with_hooks("stop"), with_hooks("restart"), with_hooks("start")].concat(),
            "install" | "i" | "ci" | "add" => {
                return ["preinstall", "install", "postinstall", "preprepare", "prepare", "postprepare"]
                    .map(String::from)
                    .to_vec()
            }
            _ => {}
        }
    }
    // `pnpm build`, `yarn build`, `bun run`-less: the first operand names a script.
    if program != "npm" {
        if let Some(n) = args.iter().find(|a| !a.starts_with('-')) {
            return with_hooks(n);
        }
    }
    Vec::new()
}

/// The words a package manager hands on to the script it runs (`npm run NAME ARGS`, `npm
/// test -- ARGS`): every word after the script's name (or after `test`, `start`...), but the
/// first `--` and the package manager's own options before it (which npm keeps as
/// `npm_config_*` variables; their separate values are over-counted as handed on, never
/// under). `Err` names a word known only at run time.
fn passed_words(words: &[Word]) -> Result<Vec<String>, String> {
    let sub_at = words.iter().skip(1).position(|w| {
        w.lit().is_some_and(|a| {
            matches!(a, "run" | "run-script" | "rum" | "urn" | "test" | "t" | "tst" | "start" | "stop" | "restart")
        })
    });
    // `pnpm build ARGS`, `yarn build ARGS`: the first operand is the script's name.
    let (rest, mut named) = match sub_at {
        Some(k) => {
            let sub = words[k + 1].lit().unwrap_or("");
            (&words[k + 2..], !matches!(sub, "run" | "run-script" | "rum" | "urn"))
        }
        None => (&words[1.min(words.len())..], false),
    };
    let mut out = Vec::new();
    let mut ended = false;
    for w in rest {
        let Some(a) = w.lit() else { return Err(w.display()) };
        if !ended && a == "--" {
            ended = true;
        } else if !ended && a.starts_with('-') {
            // npm's own option.
        } else if !named {
            named = true;
        } else {
            out.push(a.to_string());
        }
    }
    Ok(out)
}

/// At most this many files below a read directory that a read deny or ask rule names are
/// decided one by one (the first already decides the call).
const FILES_BELOW: usize = 20;

/// The edge a decision is made with.
pub type Real<'a> = &'a dyn Edge;

/// At most this many links below a walked directory are decided one by one; more are decided
/// as a read of a path outside the workspace (asked).
const LINKS_BELOW: usize = 1000;

impl Policy {
    /// [`Policy::decide`], also deciding the call with every path replaced by where it really
    /// lands; the stricter decision is the answer. Never panics: an internal failure anywhere
    /// on the way (the edge's own readings of the command included) is a deny at layer
    /// `error` (review of red team 113: a panic in a second reading ended `gate hook claude`
    /// with exit 101, which Claude Code takes as a non-blocking error, running the call).
    pub fn decide_real(&self, call: &Call, ctx: &Context, real: Real) -> Decision {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.decide_real_inner(call, ctx, real))) {
            Ok(d) => d,
            Err(_) => Decision::error("internal error while deciding (gate denies rather than guess)"),
        }
    }

    fn decide_real_inner(&self, call: &Call, ctx: &Context, real: Real) -> Decision {
        // A command is read once: the paths in it come from the same analysis.
        let _once = shell::keep_last();
        let command = self.shell_command(call).map(|(_, text)| text);
        // Globs as this machine's bash reads them: `.*` never `..` where globskipdots is on
        // (the edge asked only for a text with a glob starting with `.`: it runs bash once).
        // First, so that every reading below, the `cd`s' too, reads globs so.
        let skips = |c: &str| shell::has_dot_glob(c) && real.skips_dot_names();
        let _dots = command.as_deref().is_some_and(skips).then(shell::skipping_dots);
        // (And `wc`'s lines as this machine's wc prints them: asked only of a text that may
        // `read` them.)
        let _wc = command
            .as_deref()
            .is_some_and(|c| shell::reads_wc_lines(c) && real.wc_quotes_names())
            .then(shell::wc_quoting);
        // A `cd` into a directory that is there when the call runs does not fail: the whole
        // decision reads the command that way (red teams 80-82: `pushd docs; ls; popd; ls`,
        // `cd docs; cd ..; git status` were asked).
        let _entering = command.as_deref().is_some_and(|c| self.entered_dirs_hold(c, real)).then(shell::entering_dirs);
        let mut d = self.decide_with(call, ctx, Some(real));
        // `npm run clean` runs package.json's `clean`: a deny rule that matches what it runs
        // denies the call (red team 43: `Bash(npm run *)` allowed `"clean": "rm -rf dist"`);
        // scripts gate cannot see are asked.
        if d.decision != Verdict::Deny {
            if let Some(s) = self.script_denied(call, ctx, real, 0) {
                if s.decision == Verdict::Deny {
                    return s;
                }
                if s.decision > d.decision {
                    d = s;
                }
            }
        }
        let Some((resolved, links)) = self.resolved_call(call, real) else { return d };
        let r = self.decide_with(&resolved, ctx, Some(real));
        if r.decision > d.decision {
            let mut r = r;
            r.reason = format!("{} ({links})", r.reason);
            return r;
        }
        d
    }

    /// The deny a package.json script that a shell call's package manager runs meets (the
    /// script's text decided as the same tool's command), followed through scripts that run
    /// scripts; `None` when none is denied. Only denies: the allow the command itself got (an
    /// allow rule for `npm run *`) stands for what the scripts run otherwise.
    fn script_denied(&self, call: &Call, ctx: &Context, real: Real, depth: usize) -> Option<Decision> {
        if depth > SCRIPT_DEPTH {
            return None;
        }
        let (field, command) = self.shell_command(call)?;
        for c in shell::analyze(&command).commands {
            let names = package_scripts(&c.words);
            if names.is_empty() {
                continue;
            }
            let shown = c.display();
            let unseen = |why: String| {
                Some(Decision::new(
                    Verdict::Ask,
                    super::decision::Layer::Analysis,
                    None,
                    format!("`{shown}`: {why}: gate cannot know statically what runs"),
                ))
            };
            // Where it runs: its directory, moved by a package directory option (red team 44:
            // `npm run build --prefix vendor/pkg` runs vendor/pkg's scripts).
            let moved = match package_dir_option(&c.words) {
                Some(Ok(d)) => Some(d),
                Some(Err(why)) => return unseen(why),
                None => None,
            };
            let Some(dir) = self.lexical(moved.as_deref().unwrap_or("."), c.cwd.as_deref()) else {
                return unseen("it runs a package's scripts in a directory gate cannot follow".into());
            };
            // (`cd vendor/app/..` is where bash's logical `cd` goes: the workspace root.)
            let mut dir = super::model::normalize(&dir);
            // The nearest package.json from there, up to the workspace root; an `.npmrc` on the
            // way that changes what runs (red team 44: `script-shell=./sh.sh`).
            let text = loop {
                if let Some(rc) = real.small_file(&dir.join(".npmrc")) {
                    let risky = rc.lines().find_map(|l| {
                        // (npm's ini reader strips quotes around a key: red team 46's
                        // `"script-shell"=/bin/rm`.)
                        let (key, value) = l.split_once('=').unwrap_or((l, ""));
                        let key = key.trim().trim_matches(['"', '\'']).trim().to_ascii_lowercase();
                        NPMRC_RUNS.contains(&key.as_str()).then(|| (key, value.to_string()))
                    });
                    if let Some((key, value)) = risky {
                        // What it makes run, scanned for a deny rule's words (red team 46:
                        // `script-shell=/bin/rm`; `workspaces=true` running a workspace's
                        // `rm -f m`): denied where they are, else asked.
                        let mut text = value;
                        if key.starts_with("workspace") || key == "include-workspace-root" {
                            text.push('\n');
                            text.push_str(&workspace_scripts(real, &dir));
                        }
                        let what = format!("`{}` sets `{key}`, which changes what runs", dir.join(".npmrc").display());
                        let tool = self.model.tools.canonical(&call.tool);
                        return self
                            .scan_deny(tool, &text, &format!("`{shown}`: {what}"))
                            .filter(|d| d.decision == Verdict::Deny)
                            .or_else(|| unseen(what));
                    }
                }
                if let Some(t) = real.small_file(&dir.join("package.json")) {
                    break Some(t);
                }
                if !dir.starts_with(&self.model.workspace) || dir == self.model.workspace || !dir.pop() {
                    break None;
                }
            };
            let Some(json) = text.and_then(|t| serde_json::from_str::<Value>(&t).ok()) else { continue };
            for name in names {
                // npm's built-in `env` runs the words it is handed (red team 59: `npm run env
                // -- ls` under a `node_modules/.bin/ls`), unless the package names its own.
                let own = json.get("scripts").and_then(|s| s.get(&name)).and_then(Value::as_str);
                let Some(script) = own.or((name == "env").then_some("env")) else {
                    continue;
                };
                // The words npm hands on to the script, appended to it (red team 45: `npm run dev
                // -- rm m` with `"dev": "env NODE_ENV=development"` ran `rm`).
                let passed = match passed_words(&c.words) {
                    Ok(p) => p,
                    Err(w) => {
                        return unseen(format!(
                            "it hands `{w}`, known only at run time, to the package.json script `{name}`"
                        ))
                    }
                };
                let text = if passed.is_empty() {
                    script.to_string()
                } else {
                    let quoted: Vec<String> = passed.iter().map(|w| shell::quote(w)).collect();
                    format!("{script} {}", quoted.join(" "))
                };
                // A program gate models that `node_modules/.bin` shadows (npm puts the
                // package's and its parents' first on PATH; red team 44: a committed
                // `node_modules/.bin/sort`).
                for sc in shell::analyze(&text).commands {
                    let Some(program) = sc.program().filter(|p| !p.contains('/')) else { continue };
                    if !shell::is_modelled_program(program) {
                        continue;
                    }
                    let mut up = dir.clone();
                    loop {
                        let bin = up.join("node_modules/.bin").join(program);
                        if real.exists(&bin) {
                            return unseen(format!(
                                "the package.json script `{name}` runs `{program}`, which is `{}`, a program gate cannot see",
                                bin.display()
                            ));
                        }
                        // Every ancestor's, to the root (red team 46: a `node_modules/.bin/grep`
                        // above the workspace).
                        if !up.pop() {
                            break;
                        }
                    }
                }
                let mut args = call.arguments.clone();
                args[field] = Value::String(text.clone());
                let sub = Call { arguments: args, ..call.clone() };
                let d = self.decide(&sub, ctx);
                let d = if d.decision == Verdict::Deny {
                    Some(d)
                } else if shell::analyze(&text).commands.iter().any(|sc| sc.unknown.is_some()) {
                    // A script whose program is known only at run time (`$npm_package_config_tool
                    // -f m`, `${FORMATTER:-echo} m`, `$npm_config_linter m`): denied where the
                    // words of a deny rule are in it, in the call (its assignments and options,
                    // which npm turns into variables) or in package.json's `config`; else asked.
                    let config = match json.get("config") {
                        Some(v) if text.contains("npm_package_config") => v.to_string(),
                        _ => String::new(),
                    };
                    let all = format!("{text}\n{command}\n{config}");
                    let what =
                        format!("the package.json script `{name}` (`{text}`) runs a command known only at run time");
                    self.scan_deny(self.model.tools.canonical(&call.tool), &all, &what).or_else(|| unseen(what))
                } else if !passed.is_empty() {
                    // A file a write deny rule names, handed to the script's programs
                    // (`node --test --test-reporter-destination=Cargo.toml`).
                    let what = format!("`{}` hands words to the package.json script `{name}`", c.display());
                    self.scan_deny(self.model.tools.canonical(&call.tool), &passed.join(" "), &what)
                        .filter(|d| d.decision == Verdict::Deny)
                        .or_else(|| self.script_denied(&sub, ctx, real, depth + 1))
                } else {
                    self.script_denied(&sub, ctx, real, depth + 1)
                };
                if let Some(mut d) = d {
                    d.reason =
                        format!("`{}` runs the package.json script `{name}` (`{script}`): {}", c.display(), d.reason);
                    return Some(d);
                }
            }
        }
        None
    }

    /// The text of the workspace's own repository's config (`.git/config`, or where a `.git`
    /// file's `gitdir:` leads, through its `commondir`), if there is one.
    fn repo_config(&self, real: Real) -> Option<String> {
        let dot = self.model.workspace.join(".git");
        if let Some(mut text) = real.small_file(&dot.join("config")) {
            // (Read with `extensions.worktreeConfig`: red team 46.)
            if let Some(more) = real.small_file(&dot.join("config.worktree")) {
                text.push('\n');
                text.push_str(&more);
            }
            return Some(text);
        }
        let file = real.small_file(&dot)?;
        let gitdir = self.model.workspace.join(file.trim().strip_prefix("gitdir:")?.trim());
        let common = match real.small_file(&gitdir.join("commondir")) {
            Some(c) => gitdir.join(c.trim()),
            None => gitdir.clone(),
        };
        let mut text = real.small_file(&common.join("config")).unwrap_or_default();
        text.push('\n');
        text.push_str(&real.small_file(&gitdir.join("config.worktree")).unwrap_or_default());
        Some(text)
    }

    /// `raw` as an absolute path, used in `dir` (relative to the workspace, or absolute;
    /// `None` when the analysis could not follow it): `None` when that is not known.
    fn lexical(&self, raw: &str, dir: Option<&str>) -> Option<PathBuf> {
        if raw.is_empty() {
            return None;
        }
        if raw == "~" || raw.starts_with("~/") {
            return self.home.as_deref().map(|h| PathBuf::from(format!("{h}{}", &raw[1..])));
        }
        if raw.starts_with('~') {
            return None; // another user's home: decided as unknown as written
        }
        if raw.starts_with('/') {
            return Some(PathBuf::from(raw));
        }
        Some(self.cwd.join(dir?).join(raw))
    }

    /// A shell tool's command field and the call's text there; `None` for any other tool, or
    /// a command that is not there or not text.
    fn shell_command(&self, call: &Call) -> Option<(&str, String)> {
        let tools = &self.model.tools;
        let spec = tools.spec(tools.canonical(&call.tool)).filter(|s| s.kind == ToolKind::Shell)?;
        let field = spec.command.as_deref().unwrap_or("command");
        Some((field, shell_text(call, field).ok()??))
    }

    /// Whether a shell call's `cd`s whose failure bash would go past may be taken to succeed
    /// ([`shell::analyze_entering`]): each enters, as written, a directory that is one now
    /// (each part before a `..` too) and that the process may enter, and nothing in the call
    /// writes that directory or one above it (`mv docs x; cd docs` may fail). Not where it
    /// enters none.
    fn entered_dirs_hold(&self, command: &str, real: Real) -> bool {
        // (A text with no directory builtin's name enters none: not read twice.)
        if !["cd", "pushd", "popd"].iter().any(|b| command.contains(b)) {
            return false;
        }
        let a = shell::analyze_entering(command);
        let absolute = |p: &str, cwd: Option<&str>| self.lexical(if p.is_empty() { "." } else { p }, cwd);
        let written: Option<Vec<PathBuf>> = a
            .writes
            .iter()
            .filter(|w| w.kind != shell::WriteKind::List)
            .map(|w| absolute(w.path.lit()?, w.cwd.as_deref()).map(|p| super::normalize_path(&p)))
            .collect();
        let Some(written) = written else { return false };
        let is_dir = |p: &Path| real.is_dir(p) == Some(true);
        let holds = |d: &str| {
            let Some(raw) = absolute(d, Some("")) else { return false };
            if raw.as_os_str().len() >= 4000 {
                return false;
            }
            // (Each part before a `..` must be a directory too: bash refuses `cd
            // docs/a.md/..` and `cd docs/nothere/..`, red team 84.)
            let mut at = PathBuf::new();
            let climbs = raw.components().all(|c| {
                let ok = c != std::path::Component::ParentDir || is_dir(&at);
                at.push(c);
                ok
            });
            let dir = super::normalize_path(&raw);
            climbs && is_dir(&raw) && real.enterable(&raw) && !written.iter().any(|w| dir.starts_with(w))
        };
        !a.entered.is_empty() && a.entered.iter().all(|d| holds(d))
    }

    fn resolved_call(&self, call: &Call, real: Real) -> Option<(Call, String)> {
        let tools = &self.model.tools;
        let mut links = Vec::new();
        let spec = tools.spec(tools.canonical(&call.tool));
        match spec.map(|s| s.kind) {
            Some(ToolKind::Shell) => {
                // The text as decided, moved by the tool's directory field: its `cd` word and
                // every word after it resolved from where they are used.
                let (field, mut command) = self.shell_command(call)?;
                let mut extra = String::new();
                // The links below a directory the command walks following them, each read where
                // it leads (`find . -exec cat {} +` through `docs/pw` -> `/etc/passwd`).
                for (b, dir) in walked_dirs(&command) {
                    let Some((root, p)) = self.walk_root(&b.dir, dir.as_deref(), &mut links, &mut extra) else {
                        continue;
                    };
                    let counts = name_test(&b);
                    let found = real.links_below(&p).map(|found| {
                        let mut to: Vec<(PathBuf, PathBuf)> =
                            found.into_iter().filter(|(l, _)| counts(&p, l)).collect();
                        to.sort_by(|a, b| a.1.cmp(&b.1));
                        to.dedup_by(|a, b| a.1 == b.1);
                        to
                    });
                    match found {
                        Some(found) if found.len() <= LINKS_BELOW => {
                            // The reason names a few; every one is decided.
                            let more = found.len().saturating_sub(SHOWN);
                            for (k, (link, to)) in found.into_iter().enumerate() {
                                let shown = link.strip_prefix(&self.cwd).unwrap_or(&link).display().to_string();
                                if k < SHOWN {
                                    links.push(leads(&shown, &to.display().to_string()));
                                }
                                extra.push_str(&format!("\ncat -- {}", shell::shell_word(&to.display().to_string())));
                            }
                            if more > 0 {
                                links.push(format!("and {more} more links below `{root}`"));
                            }
                        }
                        _ => {
                            not_known(
                                &mut links,
                                &mut extra,
                                format!("below `{root}` are more names or links than gate looks at"),
                            );
                        }
                    }
                }
                // git run in a repository nested in the workspace (a committed bare
                // repository, a vendored clone) reads that repository's config, which can run
                // programs (red team 43: `core.fsmonitor`, a `textconv` diff driver).
                let gits = git_dirs(&command);
                for dir in &gits {
                    let Some(p) = self.lexical(".", dir.as_deref()) else {
                        // (After a `cd` gate cannot follow, git may find any repository.)
                        not_known(
                            &mut links,
                            &mut extra,
                            "git runs in a directory gate cannot follow, whose repository may be another's".into(),
                        );
                        break;
                    };
                    if let Some(repo) = real.foreign_repo(&p, &self.model.workspace) {
                        let shown = repo.strip_prefix(&self.cwd).unwrap_or(&repo).display().to_string();
                        not_known(
                            &mut links,
                            &mut extra,
                            format!(
                                "git there uses the repository `{shown}`, whose own config gate does not read (it can run programs)"
                            ),
                        );
                    }
                }
                // The workspace's own repository's config: a program it names runs in git's
                // read-only commands (red team 45: `diff.hex.textconv = rm -f m; od -c` ran in
                // `git log -p`, `git show`, `git blame`; a repository that arrives as an archive
                // brings its `.git/config`). Each is decided as if it ran; a file the config
                // takes more settings or the tree from is not read.
                if !gits.is_empty() {
                    let dot = self.model.workspace.join(".git");
                    // Objects from another repository (red team 46: `git show ID` printed a
                    // blob of a repository outside the workspace).
                    let subs = git_subcommands(&command);
                    let reads_objects = subs.iter().any(|(s, _, _)| {
                        s.as_deref().is_none_or(|s| {
                            !matches!(
                                s,
                                "branch"
                                    | "rev-parse"
                                    | "config"
                                    | "remote"
                                    | "status"
                                    | "ls-files"
                                    | "help"
                                    | "var"
                                    | "version"
                                    | "worktree"
                            )
                        })
                    });
                    if reads_objects
                        && real.small_file(&dot.join("objects/info/alternates")).is_some_and(|t| !t.trim().is_empty())
                    {
                        not_known(
                            &mut links,
                            &mut extra,
                            "the repository borrows objects from another (`objects/info/alternates`)".into(),
                        );
                    }
                    if let Some(config) = self.repo_config(real) {
                        // A hook git runs when it rewrites the index, as `git status` may
                        // (red team 46: `post-index-change` ran `rm`): its text decided as
                        // if it ran.
                        if subs.iter().any(|(s, _, _)| s.as_deref().is_none_or(|s| GIT_INDEX_WRITERS.contains(&s))) {
                            let hooks = config_value(&config, "core.hookspath")
                                .map(|p| self.model.workspace.join(p))
                                .unwrap_or_else(|| dot.join("hooks"));
                            let hook = hooks.join("post-index-change");
                            match real.small_file(&hook) {
                                Some(text) => {
                                    links.push(format!("git runs the hook `{}`", hook.display()));
                                    extra.push('\n');
                                    extra.push_str(&text);
                                }
                                None if real.exists(&hook) => not_known(
                                    &mut links,
                                    &mut extra,
                                    format!("git runs the hook `{}`, which gate cannot read", hook.display()),
                                ),
                                None => {}
                            }
                        }
                        for (key, value, when) in config_programs(&config) {
                            // (A diff driver runs only where git prints a diff's text: not for
                            // `git log --oneline` or `git diff --name-only`; red team 46.)
                            let diff_only = when == GIT_DIFFS;
                            let runs = |(s, text, objects): &(Option<String>, bool, bool)| {
                                if when == GIT_OBJECTS {
                                    return *objects;
                                }
                                s.as_deref().is_none_or(|s| when.is_empty() || when.contains(&s))
                                    && (*text || !diff_only)
                            };
                            if !subs.iter().any(runs) {
                                continue;
                            }
                            match value {
                                Some(v) => {
                                    links.push(format!("the repository's config sets `{key}`, which git runs: `{v}`"));
                                    extra.push('\n');
                                    extra.push_str(&v);
                                }
                                None => not_known(
                                    &mut links,
                                    &mut extra,
                                    format!("the repository's config sets `{key}`, which takes git's settings or files from elsewhere"),
                                ),
                            }
                        }
                    }
                }
                // A submodule whose `.git` is its own directory (an embedded repository, not
                // one git keeps in `.git/modules`): git's status and diff run in it, with its
                // config (red team 44: `git status` ran a vendored clone's `core.fsmonitor`).
                if git_recurses(&command) {
                    let modules = real.small_file(&self.model.workspace.join(".gitmodules")).unwrap_or_default();
                    for line in modules.lines() {
                        let Some((key, value)) = line.split_once('=') else { continue };
                        let path = value.trim();
                        if key.trim() != "path" || path.is_empty() {
                            continue;
                        }
                        if real.exists(&self.model.workspace.join(path).join(".git/config")) {
                            not_known(
                                &mut links,
                                &mut extra,
                                format!("git may run in the submodule `{path}`, a repository of its own whose config gate does not read (it can run programs)"),
                            );
                            break;
                        }
                    }
                }
                // xargs without `-0` splits find's names at blanks and quotes: a name below
                // holding one hands xargs other paths (`docs/x /etc/passwd`: a red team); so
                // does a `for` loop over `$(find ...)` (and globs them), and a `read` loop cuts
                // a name at a newline.
                // (Analysed once: the name checks below and the git index check share it.)
                let listings = split_listings(&command);
                for (start, dir, split) in listings.iter().cloned() {
                    let Some((root, p)) = self.walk_root(&start, dir.as_deref(), &mut links, &mut extra) else {
                        continue;
                    };
                    let splits = |f: &PathBuf| {
                        let rel = f.strip_prefix(&p).unwrap_or(f).to_string_lossy().into_owned();
                        match split {
                            shell::Split::Lines => rel.contains('\n'),
                            shell::Split::Whole => false,
                            // (`(` too: under `shopt -s extglob`, `@(.env|a).md` is a glob.)
                            _ => rel.contains(|c: char| c.is_whitespace() || "'\"\\*?[(".contains(c)),
                        }
                    };
                    // `ls DIR` lists bare names: one that starts with `-` is an option to the
                    // program the listing feeds (`ls docs | xargs wc -l` with a
                    // `docs/--files0-from=F` reads the files F names).
                    let dashed = |f: &PathBuf| f.file_name().is_some_and(|n| n.to_string_lossy().starts_with('-'));
                    match real.files_below(&p, false) {
                        Some(files) if !files.iter().any(|f| splits(f) || dashed(f)) => {}
                        Some(files) if !files.iter().any(splits) => {
                            not_known(
                                &mut links,
                                &mut extra,
                                format!("a name below `{root}` starts with `-`, which a program the listing feeds reads as an option"),
                            );
                        }
                        Some(_) => {
                            let what = match split {
                                shell::Split::Lines => "a newline, where a loop's `read` cuts it",
                                _ => "a blank, a quote or a glob character, where the shell or xargs splits it",
                            };
                            not_known(&mut links, &mut extra, format!("a name below `{root}` holds {what}"));
                        }
                        None => {
                            not_known(
                                &mut links,
                                &mut extra,
                                format!("below `{root}` are more names than gate looks at"),
                            );
                        }
                    }
                }
                // `git ls-files` a name a line, to xargs or a loop: the index's names, which need
                // not be on disk, each plain (red team 75: a tracked ` /etc/passwd`, its
                // directory ` ` deleted, read whole by nothing that splits at blanks).
                // (Names taken whole, `IFS= read -r`, `xargs -0`: only none may start with `-`.)
                let whole = listings.iter().all(|(_, _, s)| *s == shell::Split::Whole);
                let fits = |n: &Vec<u8>| {
                    if whole {
                        !n.split(|&b| b == b'/').any(|part| part.first() == Some(&b'-'))
                    } else {
                        crate::git_index::plain_name(n)
                    }
                };
                if !listings.is_empty() {
                    for dir in git_index_listings(&command) {
                        let Some(p) = self.lexical(".", dir.as_deref()) else {
                            not_known(
                                &mut links,
                                &mut extra,
                                "`git ls-files` runs where gate cannot follow, or after a command that may change git's index".into(),
                            );
                            continue;
                        };
                        match real.git_index_names(&p) {
                            Some(names) if names.iter().all(fits) => {}
                            Some(_) => not_known(
                                &mut links,
                                &mut extra,
                                "a name in git's index holds a blank, a quote, a backslash, a glob character or `=`, or starts with `-`, where xargs or the shell splits or reads it".into(),
                            ),
                            None => not_known(
                                &mut links,
                                &mut extra,
                                "git's index, whose names `git ls-files` prints, cannot be read".into(),
                            ),
                        }
                    }
                }
                // The files below a directory the command reads whole (`grep -r KEY .`,
                // `find . -exec cat {} +`) that a read deny or ask rule names, each read.
                for (b, dir) in read_dirs(&command) {
                    // (Only where a read rule could name something below.)
                    let any = match b.dir.lit() {
                        Some(r) => self.lexical(r, dir.as_deref()).map(|p| format!("{}/**", p.display())),
                        None => Some("/**".to_string()),
                    };
                    if !any.is_some_and(|g| self.read_rule_could_match(&g)) {
                        continue;
                    }
                    let Some((root, p)) = self.walk_root(&b.dir, dir.as_deref(), &mut links, &mut extra) else {
                        continue;
                    };
                    let Some(files) = real.files_below(&p, b.links) else {
                        not_known(&mut links, &mut extra, format!("below `{root}` are more names than gate looks at"));
                        continue;
                    };
                    let counts = name_test(&b);
                    let named = files
                        .into_iter()
                        .filter(|f| counts(&p, f) && self.read_rule_could_match(&f.display().to_string()))
                        .take(FILES_BELOW);
                    for f in named {
                        let shown = f.strip_prefix(&self.cwd).unwrap_or(&f).display().to_string();
                        links.push(format!("`{root}` holds `{shown}`"));
                        extra.push_str(&format!("\ncat -- {}", shell::shell_word(&f.display().to_string())));
                    }
                }
                let PathWords { words, globs: globbed, dash_writes, odd_writes, copies } = path_words(&command);
                // A name made in the call that a listing's split would cut (red team 51: `echo
                // > 'docs/q -r .. x.md'; find docs -name '*.md' | xargs grep x` greps `..`):
                // the names below were looked at before it was made.
                if !odd_writes.is_empty() && listings.iter().any(|(_, _, s)| *s != shell::Split::Whole) {
                    for w in &odd_writes {
                        not_known(&mut links, &mut extra, format!("`{w}` creates a name a listing's split would cut"));
                    }
                }
                // A directory copied whole: every name below it is written below the copy's
                // place; those a write deny or ask rule could match are decided as writes.
                for (src, dest, dir) in copies {
                    let (Some(s), Some(d)) = (src.lit(), dest.lit()) else { continue };
                    let (Some(from), Some(to)) = (self.lexical(s, dir.as_deref()), self.lexical(d, dir.as_deref()))
                    else {
                        continue;
                    };
                    let Some(files) = real.files_below(&from, false) else {
                        not_known(&mut links, &mut extra, format!("below `{s}` are more names than gate looks at"));
                        continue;
                    };
                    // `cp -r SRC DEST` copies SRC's names into DEST, or into DEST/SRC when DEST
                    // is a directory already: both are decided.
                    let (from, to) = (crate::policy::normalize_path(&from), crate::policy::normalize_path(&to));
                    // (`cp -r . D` and `rsync -a src/ D` copy what is in the directory.)
                    let named = !matches!(s.rsplit('/').next(), Some("" | "." | "..")) && from != to;
                    let base = from.file_name().filter(|_| named).map(PathBuf::from).unwrap_or_default();
                    let mut written = files
                        .iter()
                        .filter_map(|f| crate::policy::normalize_path(f).strip_prefix(&from).ok().map(PathBuf::from))
                        .flat_map(|rel| [to.join(&rel), to.join(&base).join(&rel)])
                        .filter(|w| self.write_rule_could_match(&w.display().to_string()))
                        .take(FILES_BELOW)
                        .collect::<Vec<PathBuf>>();
                    // (Where SRC is `.`, both places are one.)
                    written.dedup();
                    for w in written {
                        let shown = w.strip_prefix(&self.cwd).unwrap_or(&w).display().to_string();
                        links.push(format!("`{s}` is copied whole: `{shown}` is written"));
                        extra.push_str(&format!("\n: >> {}", shell::shell_word(&w.display().to_string())));
                    }
                }
                // A file created with a name that starts with `-`: a later glob hands it to a
                // program as an option (red team 50: `: > 'docs/--files0-from=.md'; cd docs &&
                // wc -c *` reads the files the list names), before gate could see it.
                for w in dash_writes {
                    not_known(
                        &mut links,
                        &mut extra,
                        format!("`{w}` creates a name a glob would give a program as an option"),
                    );
                }
                for (word, uses) in words {
                    // Where the word lands from each directory it is used in.
                    let mut dests: Vec<(String, Use)> = Vec::new();
                    // A file with other names: reading or writing it reads or writes them, in
                    // places gate cannot see (decided as a read of `/`).
                    let places: Vec<(PathBuf, Use)> = uses
                        .into_iter()
                        .filter_map(|(dir, how)| Some((self.lexical(&word, dir.as_deref())?, how)))
                        .collect();
                    let hard = places.iter().map(|(p, _)| real.other_names(p)).find(|n| *n > 0);
                    if let Some(n) = hard {
                        not_known(&mut links, &mut extra, hard_links(&word, n));
                    }
                    // A glob that starts the word gives the names it matches as they are: one
                    // that starts with `-` is an option to the program.
                    let starts_glob = word.starts_with(['*', '?', '[']) && globbed.contains(&word);
                    if let Some(name) =
                        places.iter().filter(|_| starts_glob).flat_map(|(p, _)| real.option_names(p)).next()
                    {
                        not_known(
                            &mut links,
                            &mut extra,
                            format!("`{word}` matches `{name}`, which the program would read as an option"),
                        );
                    }
                    for (p, how) in places {
                        // A word the shell does not glob (quoted: `'.[]'`, `'fn [a-z]+'`) that
                        // is no path with directories is a name, not a pattern (red team 43:
                        // `jq '.[]' package.json` matched `.[]` against every name at the top,
                        // through a link out). One with a `/` may be a pattern the program
                        // expands itself, and is matched as one.
                        let glob = word.contains('/') || globbed.contains(&word);
                        let to = if glob { real.real(&p) } else { real.real_name(&p) };
                        let Some(to) = to else {
                            continue;
                        };
                        let to = to.display().to_string();
                        if !dests.iter().any(|(d, _)| *d == to) {
                            dests.push((to, how));
                        }
                    }
                    for (i, (to, how)) in dests.iter().enumerate() {
                        links.push(leads(&word, to));
                        // The first place replaces the word; a word that also lands elsewhere
                        // from another directory, or that the text spells another way
                        // (`{lnk,src}/passwd`, `lnk{,}/x`), is decided as a read or write of
                        // where it lands as well. (A use whose word lands where it is written
                        // is decided so by the call as written.)
                        // A glob whose matches lead to several places comes back as `/`: put
                        // in for the word, `echo */*` would become `echo /`, which lists nothing
                        // (red team 40); it is a read of `/` beside the text instead.
                        let several = to == "/" && word.contains(['*', '?', '[']);
                        let replaced =
                            i == 0 && !several && replace_word(&command, &word, to).map(|new| command = new).is_some();
                        if !replaced {
                            let to = shell::shell_word(to);
                            extra.push_str(&match how {
                                Use::Write => format!("\n: >> {to}"),
                                Use::Read => format!("\ncat -- {to}"),
                            });
                        }
                    }
                }
                if links.is_empty() {
                    return None;
                }
                command.push_str(&extra);
                // The directory field is in the text now (`cd -- DIR || exit 1; ...`).
                let mut args = call.arguments.clone();
                if let Some(obj) = args.as_object_mut() {
                    for k in shell::SHELL_DIR_FIELDS {
                        obj.remove(*k);
                    }
                }
                args[field] = Value::String(command);
                Some((Call { arguments: args, ..call.clone() }, links.join(", ")))
            }
            _ => {
                // Every string that names a path (issue 15 class 5: `path`, `paths`, `cwd`, an
                // MCP tool's `source`, `files[0].path`, a `file:` URI, ...), and a glob's
                // literal directory, each where it lands.
                let mut args = call.arguments.clone();
                let mut paths = arg_paths(&call.tool, spec, &call.arguments).ok()?;
                // Any other string that names a link where it is used is a path as well, in
                // whatever field (red team 40: `pathname`, `fileNames`, `dirs` through a link
                // out): it is put back as a `file:` URI, which names a file in any field.
                let mut uris = Vec::new();
                for a in arg_strings(&call.tool, spec, &call.arguments) {
                    let plausible = !a.text.is_empty()
                        && a.text.len() <= 4096
                        && !a.text.starts_with('-')
                        && !a.text.contains(char::is_control)
                        && !a.text.contains("://");
                    if plausible && !paths.iter().any(|p| p.pointer == a.pointer) {
                        uris.push(a.pointer.clone());
                        paths.push(ArgPath { glob: false, base: None, ..a });
                    }
                }
                for a in paths {
                    let text = match &a.base {
                        Some(b) if a.glob && !a.text.starts_with(['/', '~']) => format!("{}/{}", path_text(b), a.text),
                        _ if a.glob => a.text.clone(),
                        _ => path_text(&a.text).into_owned(),
                    };
                    // A glob's literal directory where it leads, with the rest of the pattern
                    // after it (`docs/dl/*` -> `/out/*`), else the first name its pattern
                    // matches through a link (`*/secretfile` through `docs/dl`).
                    let lands = |text: &str| {
                        let literal = match shell::glob_base(text)
                            .filter(|b| a.glob && b != "." && text.starts_with(b.as_str()))
                        {
                            Some(b) => Some((b.clone(), text[b.len()..].to_string())),
                            None if a.glob => None,
                            None => Some((text.to_string(), String::new())),
                        };
                        literal
                            .and_then(|(b, rest)| Some((self.lexical(&b, Some("")).and_then(|p| real.real(&p))?, rest)))
                            .or_else(|| {
                                // A glob tool lists the names its last segment matches without
                                // entering them (ripgrep without `--follow`): only a link a
                                // wildcard segment before another segment matches is passed
                                // through (`*/passwd`; not `*` or `**/*.rs`'s last name).
                                let enters = text.rsplit_once('/').is_some_and(|(dirs, _)| {
                                    dirs.split('/').any(|seg| seg != "**" && seg.contains(['*', '?', '[']))
                                });
                                let plain = a.glob && enters && !text.contains(['{', '}', '\\']);
                                Some((
                                    self.lexical(text, Some("")).filter(|_| plain).and_then(|p| real.real(&p))?,
                                    String::new(),
                                ))
                            })
                    };
                    // A glob's alternatives, each where it leads (red team 43: `{lnk,src}/*`,
                    // `@(lnk|src)/*` through `lnk` -> `/etc`): the first that leads out of the
                    // workspace, else the first that leads anywhere. Braces gate cannot expand
                    // are a listing of `/`.
                    let found = if a.glob && (text.contains('{') || has_extglob(&text)) {
                        match glob_alternatives(&text) {
                            Some(alts) => {
                                let all: Vec<(PathBuf, String)> = alts.iter().filter_map(|t| lands(t)).collect();
                                let out = all.iter().position(|(to, _)| !to.starts_with(&self.model.workspace));
                                out.or((!all.is_empty()).then_some(0)).map(|k| all[k].clone())
                            }
                            None => Some((PathBuf::from("/"), String::new())),
                        }
                    } else {
                        lands(&text)
                    };
                    if let Some(n) = self.lexical(&text, Some("")).map(|p| real.other_names(&p)).filter(|n| *n > 0) {
                        // A file with other names: decided as a path outside (`/`).
                        links.push(hard_links(&text, n));
                        if let Some(v) = args.pointer_mut(&a.pointer) {
                            *v = Value::String("/".into());
                        }
                        continue;
                    }
                    let Some((to, rest)) = found else { continue };
                    links.push(leads(&text, &format!("{}{rest}", to.display())));
                    if let Some(v) = args.pointer_mut(&a.pointer) {
                        let landed = format!("{}{rest}", to.display());
                        *v = Value::String(if uris.contains(&a.pointer) { file_uri(&landed) } else { landed });
                    }
                }
                (!links.is_empty()).then(|| (Call { arguments: args, ..call.clone() }, links.join(", ")))
            }
        }
    }
}

/// Whether a glob holds an extended group (`@(a|b)`, `+(a)`, `!(a)`, `*(a)`, `?(a)`), which
/// glob tools (minimatch, picomatch) read.
fn has_extglob(text: &str) -> bool {
    text.as_bytes().windows(2).any(|w| b"@+!*?".contains(&w[0]) && w[1] == b'(')
}

/// The patterns a glob tool's pattern stands for, braces expanded and each extended group
/// written `*` (which matches whatever the group does, and more): at most 64, else `None`.
fn glob_alternatives(text: &str) -> Option<Vec<String>> {
    let mut flat = String::new();
    let mut rest = text;
    while let Some(i) = rest.as_bytes().windows(2).position(|w| b"@+!*?".contains(&w[0]) && w[1] == b'(') {
        flat.push_str(&rest[..i]);
        let mut depth = 0;
        let close = rest[i + 1..].char_indices().find_map(|(k, c)| {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(i + 1 + k);
                    }
                }
                _ => {}
            }
            None
        })?;
        flat.push('*');
        rest = &rest[close + 1..];
    }
    flat.push_str(rest);
    if !flat.contains('{') {
        return Some(vec![flat]);
    }
    let alts = shell::brace_expand(&flat)?;
    (alts.len() <= 64 && !alts.iter().any(|a| a.contains(['{', '}']))).then_some(alts)
}

/// An absolute path as a `file:` URI that [`path_text`] reads back as it.
fn file_uri(path: &str) -> String {
    let mut out = String::from("file://");
    for c in path.chars() {
        match c {
            '%' => out.push_str("%25"),
            '?' => out.push_str("%3F"),
            '#' => out.push_str("%23"),
            c => out.push(c),
        }
    }
    out
}

/// How a word is used: a write target, or anything else (decided as a read).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Use {
    Read,
    Write,
}

/// One use of a word: the directory it is used in and how.
type WordUse = (Option<String>, Use);

/// The directories a shell text's commands walk following the symbolic links below them
/// ([`shell::walks_below`]), each with the directory it is used in: the commands' own words,
/// a `find` around them (`-exec`), and a `find` whose listing is their input (`| xargs`).
/// The directory each git command of a shell text runs in (after its `-C` options).
/// Whether a git command in the text looks into submodules' working trees, running git there
/// with their config: `status`, `diff` against the working tree, `describe --dirty`, `commit`,
/// `stash`, `submodule`, without `--ignore-submodules` or `--cached` (and for `status`, a
/// pathspec).
fn git_recurses(command: &str) -> bool {
    shell::analyze(command).commands.iter().filter(|c| c.program() == Some("git")).any(|c| {
        let args = &c.words[1..];
        let at = shell::git_subcommand_at(args);
        let Some(sub) = args.get(at).and_then(Word::lit) else { return true };
        let rest = &args[at + 1..];
        let lits: Vec<&str> = rest.iter().filter_map(Word::lit).collect();
        let ignores = lits.iter().any(|a| a.starts_with("--ignore-sub") || matches!(*a, "--cached" | "--staged"));
        let pathspec = rest.iter().any(|w| w.lit().is_none_or(|a| !a.starts_with('-')));
        match sub {
            "status" => !ignores && !pathspec,
            "diff" | "commit" => !ignores,
            "stash" => !ignores && matches!(lits.first(), None | Some(&"push" | &"save" | &"-u" | &"-k" | &"-m")),
            "describe" => lits.iter().any(|a| a.starts_with("--dirty") || a.starts_with("--broken")),
            "submodule" => true,
            _ => false,
        }
    })
}

/// git's subcommands that print diffs (where diff drivers run).
const GIT_DIFFS: &[&str] = &[
    "diff",
    "log",
    "show",
    "blame",
    "annotate",
    "grep",
    "format-patch",
    "range-diff",
    "whatchanged",
    "stash",
    "difftool",
    "add",
    "am",
    "apply",
    "cherry-pick",
    "rebase",
    "merge",
    "pull",
    "commit",
];

/// git's subcommands that may rewrite the index (and run `post-index-change`).
const GIT_INDEX_WRITERS: &[&str] = &[
    "status",
    "diff",
    "add",
    "commit",
    "stash",
    "checkout",
    "switch",
    "restore",
    "reset",
    "merge",
    "pull",
    "rebase",
    "cherry-pick",
    "update-index",
    "rm",
    "mv",
    "am",
    "apply",
    "revert",
    "read-tree",
    "checkout-index",
];

/// git's subcommands that compare the work tree with the index (and may rewrite it).
const GIT_TREE: &[&str] = &[
    "status",
    "diff",
    "add",
    "commit",
    "stash",
    "describe",
    "checkout",
    "switch",
    "restore",
    "reset",
    "merge",
    "pull",
    "rebase",
    "cherry-pick",
    "ls-files",
    "update-index",
    "rm",
    "mv",
    "submodule",
    "worktree",
    "clean",
    "am",
    "apply",
    "revert",
    "clone",
    "sparse-checkout",
    "read-tree",
    "checkout-index",
];

/// The entries of a git config's text, in order: the key (`section.name`, or
/// `section.subsection.name`, with section and name in lower case) and its value, unquoted
/// (`None` for a bare key, which git reads as `true`). A key on its section header's line
/// counts too (red team 46: `[diff "mdx"] textconv = rm`).
fn config_entries(text: &str) -> Vec<(String, Option<String>)> {
    let mut out = Vec::new();
    let mut section = String::new();
    for line in text.lines() {
        let mut line = line.trim();
        if let Some(head) = line.strip_prefix('[') {
            // `[diff "hex"]` is `diff.hex`; `[core]` is `core`.
            let (head, rest) = head.split_once(']').unwrap_or((head, ""));
            let (name, sub) = head.split_once(char::is_whitespace).unwrap_or((head, ""));
            let sub = sub.trim().trim_matches('"');
            section =
                if sub.is_empty() { name.to_ascii_lowercase() } else { format!("{}.{sub}", name.to_ascii_lowercase()) };
            line = rest.trim();
        }
        if line.is_empty() || line.starts_with(['#', ';']) {
            continue;
        }
        let (key, value) = match line.split_once('=') {
            Some((k, v)) => (k, Some(v.trim())),
            None => (line, None),
        };
        let value = value.map(|v| v.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(v).to_string());
        out.push((format!("{section}.{}", key.trim().to_ascii_lowercase()), value));
    }
    out
}

/// The last value of one key (as [`config_entries`] names it) in a git config's text.
fn config_value(text: &str, key: &str) -> Option<String> {
    config_entries(text).into_iter().rev().filter(|(k, _)| k == key).find_map(|(_, v)| v)
}

/// The settings in a git config's text whose value is a program git runs in its read-only
/// commands (`Some(program)`), or that take settings or the work tree from elsewhere (`None`):
/// `core.fsmonitor` (a hook, not a boolean), diff drivers' `textconv` and `command`,
/// `diff.external`, filters, `gpg.program`, pagers, `core.worktree`, includes.
/// With the git subcommands it runs in (empty: all).
fn config_programs(text: &str) -> Vec<(String, Option<String>, &'static [&'static str])> {
    let mut out = Vec::new();
    let entries = config_entries(text);
    for (key, value) in entries.iter().cloned() {
        let value = value.unwrap_or_else(|| "true".to_string());
        let sec = key.split('.').next().unwrap_or("");
        let last = key.rsplit('.').next().unwrap_or("");
        // Where each runs: diffs (`GIT_DIFFS`); what compares the work tree with the index
        // (`GIT_TREE`); signatures.
        const SIGNED: &[&str] = &[
            "log",
            "show",
            "verify-commit",
            "verify-tag",
            "tag",
            "commit",
            "merge",
            "pull",
            "rebase",
            "cherry-pick",
            "am",
        ];
        let boolean = matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "1" | "0" | ""
        );
        let program: Option<&'static [&'static str]> = match (sec, last) {
            // `git help`, `git CMD --help`: the man viewer or browser the config names.
            ("man", "cmd" | "path") | ("browser", "cmd" | "path") | ("help", "browser") | ("web", "browser") => {
                Some(&["help"])
            }
            ("core", "fsmonitor") if !boolean => Some(GIT_TREE),
            ("diff", "textconv" | "command" | "external") => Some(GIT_DIFFS),
            ("filter", "clean" | "smudge" | "process") => Some(GIT_TREE),
            ("gpg", "program") => Some(SIGNED),
            ("core", "pager" | "sshcommand" | "askpass" | "gitproxy" | "alternaterefscommand") | ("pager", _) => {
                Some(&[])
            }
            _ => None,
        };
        let elsewhere =
            matches!((sec, last), ("core", "worktree" | "attributesfile") | ("include" | "includeif", "path"));
        // Files git reads and prints from: blame's list of revisions (red team 46), the
        // signature format-patch appends and the mailmap log and shortlog map names with
        // (red team 47: both outside the workspace).
        let quoted: Option<&'static [&'static str]> = match (sec, last) {
            ("blame", "ignorerevsfile") => Some(&["blame", "annotate"]),
            ("format", "signaturefile") => Some(&["format-patch"]),
            ("mailmap", "file") => {
                Some(&["log", "shortlog", "show", "blame", "annotate", "whatchanged", "check-mailmap"])
            }
            _ => None,
        };
        if let Some(when) = quoted {
            out.push((key, Some(format!("cat -- {}", shell::shell_word(&value))), when));
        } else if let Some(when) = program {
            out.push((key, Some(value), when));
        } else if elsewhere {
            out.push((key, None, &[][..]));
        }
    }
    // A partial clone fetches the objects it lacks from its promisor remote when a command
    // reads them (red team 47: `git show lazy:docs/lazy.md` ran the remote's `ext::rm ...`):
    // an `ext::` URL is a command; a local one is another repository's objects.
    let get = |k: &str| entries.iter().rev().find(|(key, _)| key.eq_ignore_ascii_case(k)).and_then(|(_, v)| v.clone());
    let mut promisors: Vec<String> = get("extensions.partialclone").into_iter().collect();
    for (key, value) in &entries {
        let parts: Vec<&str> = key.split('.').collect();
        let on =
            value.as_deref().is_none_or(|v| matches!(v.to_ascii_lowercase().as_str(), "true" | "yes" | "on" | "1"));
        if parts.len() >= 3
            && parts[0].eq_ignore_ascii_case("remote")
            && parts[parts.len() - 1].eq_ignore_ascii_case("promisor")
            && on
        {
            promisors.push(parts[1..parts.len() - 1].join("."));
        }
    }
    promisors.sort();
    promisors.dedup();
    for name in promisors {
        let key = format!("remote.{name}.url");
        let url = get(&key).unwrap_or_default();
        let lower = url.to_ascii_lowercase();
        if let Some(cmd) = lower.starts_with("ext::").then(|| url[5..].replace("% ", " ")) {
            out.push((key, Some(cmd), GIT_OBJECTS));
        } else if lower.starts_with("file://") || !lower.contains(':') {
            out.push((key, None, GIT_OBJECTS));
        }
    }
    out
}

/// The subcommand of each git command in a shell text (`None`: known only at run time), and
/// whether it may print a diff's text (where diff drivers run).
fn git_subcommands(command: &str) -> Vec<(Option<String>, bool, bool)> {
    shell::analyze(command)
        .commands
        .iter()
        .filter(|c| c.program() == Some("git"))
        .map(|c| {
            let args = &c.words[1..];
            // `git CMD --help` runs `git help CMD`.
            if args.iter().any(|w| w.lit() == Some("--help")) {
                return (Some("help".to_string()), false, false);
            }
            let at = shell::git_subcommand_at(args);
            let mut sub = args.get(at).and_then(Word::lit).map(str::to_string);
            let rest = args.get(at + 1..).unwrap_or_default();
            // `git stash list` is a log; `git stash show` a show.
            if sub.as_deref() == Some("stash") {
                match rest.first().and_then(Word::lit) {
                    Some("list") => sub = Some("log".into()),
                    Some("show") => sub = Some("show".into()),
                    _ => {}
                }
            }
            let has = |f: &dyn Fn(&str) -> bool| rest.iter().any(|w| w.lit().is_none_or(f));
            let patch = has(&|a| {
                [
                    "-p",
                    "-u",
                    "-U",
                    "--patch",
                    "--unified",
                    "--word-diff",
                    "--color-words",
                    "--cc",
                    "-G",
                    "-S",
                    "-L",
                    "--textconv",
                    "--ext-diff",
                    "--full-diff",
                ]
                .iter()
                .any(|f| a.starts_with(f))
                    || a == "-c"
                    || a == "--pickaxe-all"
            });
            let names_only = has(&|a| {
                matches!(
                    a,
                    "--name-only"
                        | "--name-status"
                        | "--stat"
                        | "--shortstat"
                        | "-s"
                        | "--no-patch"
                        | "--quiet"
                        | "--raw"
                        | "--oneline"
                ) || a.starts_with("--stat=")
                    || a.starts_with("--format")
                    || a.starts_with("--pretty")
            });
            let text = match sub.as_deref() {
                Some("log" | "whatchanged" | "stash" | "reflog") => patch,
                Some("diff" | "show") => patch || !names_only,
                _ => true,
            };
            // Whether it may read the content of files or trees: a log only with a patch, a
            // stat or a path.
            let dashes = rest.iter().position(|w| w.lit() == Some("--"));
            let stat =
                has(&|a| a.contains("stat") || a == "--summary" || !a.starts_with('-') && a.contains(['/', '.']))
                    || dashes.is_some_and(|k| k + 1 < rest.len());
            let objects = match sub.as_deref() {
                None => true,
                Some("log" | "whatchanged" | "reflog" | "shortlog") => patch || stat,
                Some(s) => GIT_OBJECTS.contains(&s),
            };
            (sub, text, objects)
        })
        .collect()
}

/// git's subcommands that may read the content of files and trees, beyond commits (where a
/// partial clone fetches what it lacks).
const GIT_OBJECTS: &[&str] = &[
    "show",
    "diff",
    "blame",
    "annotate",
    "grep",
    "cat-file",
    "archive",
    "format-patch",
    "range-diff",
    "difftool",
    "checkout",
    "switch",
    "restore",
    "reset",
    "merge",
    "rebase",
    "cherry-pick",
    "revert",
    "stash",
    "am",
    "apply",
    "read-tree",
    "checkout-index",
    "fsck",
    "gc",
    "repack",
    "pack-objects",
    "bundle",
    "fetch",
    "pull",
    "clone",
    "diff-tree",
    "diff-index",
    "diff-files",
    "ls-tree",
    "rev-list",
    "add",
    "commit",
    "mergetool",
    "submodule",
    "sparse-checkout",
    "backfill",
    "maintenance",
    "log",
    "whatchanged",
];

fn git_dirs(command: &str) -> Vec<Option<String>> {
    let a = shell::analyze(command);
    let mut out: Vec<Option<String>> = Vec::new();
    for c in a.commands.iter().filter(|c| c.program() == Some("git")) {
        let dir = word_dirs(c).pop().unwrap_or_else(|| c.cwd.clone());
        if !out.contains(&dir) {
            out.push(dir);
        }
    }
    out
}

fn walked_dirs(command: &str) -> Vec<(shell::Below, Option<String>)> {
    dirs_below(command, |words, fed, _| shell::walks_below(words, fed))
}

/// The directories a shell text's commands read every file below ([`shell::reads_below`]),
/// each with the directory it is used in: a recursive grep or diff, and a `find` handing what
/// it finds to a command that reads its operands (`-exec cat {} +`, `| xargs cat`).
fn read_dirs(command: &str) -> Vec<(shell::Below, Option<String>)> {
    dirs_below(command, shell::reads_below)
}

/// The start points of each `find` whose listing xargs reads without `-0` (or `-d`): xargs
/// splits its names at blanks and quotes; and of each listing a loop's variable takes names
/// from, where the loop may cut them ([`shell::WrapperKind::Listing`]).
fn split_listings(command: &str) -> Vec<(Word, Option<String>, shell::Split)> {
    let a = shell::analyze(command);
    let mut out: Vec<(Word, Option<String>, shell::Split)> = Vec::new();
    let mut add = |dir: Word, cwd: &Option<String>, split: shell::Split| {
        if !out.iter().any(|(o, d, s)| *o == dir && d == cwd && *s == split) {
            out.push((dir, cwd.clone(), split));
        }
    };
    for c in &a.commands {
        for w in &c.wrappers {
            if let shell::WrapperKind::Listing(split) = w.kind {
                for dir in shell::find_listing_dirs(&w.words) {
                    if split != shell::Split::Whole || dir.lit() == Some(shell::BARE_NAMES) {
                        add(dir, &c.cwd, split);
                    }
                }
            }
        }
    }
    for c in a.commands.iter().filter(|c| c.open_args && !c.args_from.is_empty()) {
        // (As xargs's getopt reads its options: `-E -0` splits at blanks, red team 111 D.)
        let whole =
            c.wrappers.iter().any(|w| w.program() == Some("xargs") && shell::xargs_takes_records_whole(&w.words));
        let split = if whole { shell::Split::Whole } else { shell::Split::Blanks };
        for dir in shell::find_listing_dirs(&c.args_from) {
            // (Whole names are looked at only for one that starts with `-`, where a listing's
            // names are bare: `git ls-files -z | xargs -0 wc -l`.)
            if split != shell::Split::Whole || dir.lit() == Some(shell::BARE_NAMES) {
                add(dir, &c.cwd, split);
            }
        }
    }
    out
}

/// The directory each plain `git ls-files` or `git diff --name-only` (a name a line) runs
/// in: the listings the edge holds to the index's names. `None` where it is not known, or a
/// command before it may change the index.
fn git_index_listings(command: &str) -> Vec<Option<String>> {
    let a = shell::analyze(command);
    let mut out: Vec<Option<String>> = Vec::new();
    for (k, c) in a.commands.iter().enumerate().filter(|(_, c)| c.program() == Some("git")) {
        let sub = match c.words.get(1).and_then(Word::lit) {
            Some("ls-files") => true,
            Some("diff") => c.words.iter().any(|w| w.lit() == Some("--name-only")),
            _ => false,
        };
        let nul = c.words.iter().any(|w| w.lit() == Some("-z"));
        // A command before it that may change the index (`git merge -q evil && git ls-files |
        // xargs cat`, review of red team 76): the index read now is not the one listed, so
        // the directory is not known (`None`).
        // (A read-only command find or xargs runs changes nothing either: red team 90's `find
        // src -exec wc -l {} + && git ls-files | xargs wc -c` was asked.)
        let wrapped =
            |b: &shell::SimpleCommand| b.wrappers.iter().any(|w| !matches!(w.program(), Some("find" | "xargs")));
        let changed = a.commands[..k]
            .iter()
            .any(|b| b.unknown.is_some() || wrapped(b) || !shell::is_read_only(&b.words, shell::Added::No));
        let dir = if changed { None } else { c.cwd.clone() };
        if sub && !nul && !out.contains(&dir) {
            out.push(dir);
        }
    }
    out
}

/// What `of(words, fed, reads)` says of each command's words, of a `find` around it and of a
/// `find` whose listing is its input (`reads`: the command reads its operands). A directory
/// the analysis only knows at run time stands for what it can be: find's `{}` and what xargs
/// appends are paths under that find's start points (the red team's `find . -type d -exec grep
/// -R x {} +` walks `docs` below `.`); any other is decided by the edge as unknown.
fn dirs_below(
    command: &str,
    of: impl Fn(&[Word], bool, bool) -> Vec<shell::Below>,
) -> Vec<(shell::Below, Option<String>)> {
    let a = shell::analyze(command);
    let mut out: Vec<(shell::Below, Option<String>)> = Vec::new();
    for c in &a.commands {
        let reads = shell::reads_operands(&c.words);
        let finds: Vec<&shell::Wrapper> = c.wrappers.iter().filter(|w| w.program() == Some("find")).collect();
        let fed = (c.open_args && !c.args_from.is_empty()).then_some((&c.args_from, true));
        let own = of(&c.words, false, reads);
        let mut found: Vec<shell::Below> = own.clone();
        // (A loop over a listing hands each name it prints on, as xargs does.)
        let listed = |w: &shell::Wrapper| matches!(w.kind, shell::WrapperKind::Listing(_));
        for (words, fed) in finds.iter().map(|w| (&w.words, listed(w))).chain(fed) {
            found.extend(of(words, fed, reads));
        }
        // What the command walks itself, when xargs gives it its operands: also below the
        // feeding find's start points (or anywhere, when nothing feeds it that gate knows).
        if c.open_args && !own.is_empty() {
            let appended = if !c.args_from.is_empty() {
                shell::find_listing_dirs(&c.args_from)
            } else if !finds.is_empty() {
                finds.iter().flat_map(|f| shell::find_listing_dirs(&f.words)).collect()
            } else {
                vec![Word::Dyn(crate::shell::ADDED_AT_RUN_TIME.into())]
            };
            found.extend(appended.into_iter().map(|dir| shell::Below { dir, ..own[0].clone() }));
        }
        for b in found {
            let starts = match &b.dir {
                Word::Dyn(d) if d.contains("{}") && !finds.is_empty() => {
                    finds.iter().flat_map(|f| shell::find_listing_dirs(&f.words)).collect()
                }
                _ => vec![b.dir.clone()],
            };
            for dir in starts {
                let b = shell::Below { dir, ..b.clone() };
                if !out.iter().any(|(o, d)| *o == b && *d == c.cwd) {
                    out.push((b, c.cwd.clone()));
                }
            }
        }
    }
    out
}

/// Whether a name `path` below `root` counts for `b`: its name passes the name tests, and no
/// directory between is skipped. The patterns are compiled once, for every name of a walk.
pub(super) fn name_test(b: &shell::Below) -> impl Fn(&Path, &Path) -> bool {
    // find and grep match with fnmatch: a POSIX class, braces (literal there) or an escape
    // globset reads otherwise are not modelled, so such a pattern matches every name and
    // skips none (a red team's `-name 'p[[:alpha:]]'` and `-name '{a,b}'`).
    let compiled = |pattern: &str, fold: bool| {
        let modelled = !pattern.contains(['{', '}', '\\']) && !pattern.contains("[[:");
        modelled
            .then(|| globset::GlobBuilder::new(pattern).case_insensitive(fold).build().ok())
            .flatten()
            .map(|g| g.compile_matcher())
    };
    let names: Vec<_> = b.names.iter().map(|(p, fold)| compiled(p, *fold)).collect();
    let any_names: Vec<_> = b.any_names.iter().map(|p| compiled(p, false)).collect();
    let skip_names: Vec<_> = b.skip_names.iter().filter_map(|p| compiled(p, false)).collect();
    let skip_dirs: Vec<_> = b.skip_dirs.iter().filter_map(|p| compiled(p, false)).collect();
    let matches = |m: &Option<globset::GlobMatcher>, name: &str| m.as_ref().is_none_or(|m| m.is_match(name));
    move |root: &Path, path: &Path| {
        let name = path.file_name().map(|n| n.to_string_lossy()).unwrap_or_default();
        let skipped_dir =
            path.strip_prefix(root).ok().and_then(Path::parent).is_some_and(|between| {
                between.components().any(|c| skip_dirs.iter().any(|m| m.is_match(c.as_os_str())))
            });
        names.iter().all(|m| matches(m, &name))
            && (any_names.is_empty() || any_names.iter().any(|m| matches(m, &name)))
            && !skip_names.iter().any(|m| m.is_match(name.as_ref()))
            && !skipped_dir
    }
}

impl Policy {
    /// The directory a walk starts at, as shown and as an absolute path: a literal word, or a
    /// glob's literal directory (`grep -R x *` walks `.`). A directory only known at run time
    /// (`"$PWD"`) is decided as a read outside the workspace, explained in `links` (`None`
    /// then, and also where the analysis lost the working directory: that read is asked by
    /// the call as written).
    fn walk_root(
        &self,
        dir: &Word,
        cwd: Option<&str>,
        links: &mut Vec<String>,
        extra: &mut String,
    ) -> Option<(String, PathBuf)> {
        let root = match dir {
            Word::Lit(r) => r.clone(),
            // A process substitution's `/dev/fd/N` is a pipe, no directory.
            Word::Dyn(d) if d == "<(...)" || d == ">(...)" => return None,
            Word::Dyn(d) => match shell::glob_base(d) {
                Some(base) => base,
                None => {
                    not_known(links, extra, format!("the command walks `{d}`, a directory only known at run time"));
                    return None;
                }
            },
        };
        let p = self.lexical(&root, cwd)?;
        Some((root, p))
    }
}

/// A walk gate cannot follow (a directory only known at run time, more names than it looks
/// at, names xargs splits), explained by `why`: decided as a read of `/`, outside the workspace.
fn not_known(links: &mut Vec<String>, extra: &mut String, why: String) {
    links.push(why);
    extra.push_str("\ncat -- /");
}

/// Why a file with other names is not followed.
fn hard_links(word: &str, n: u64) -> String {
    format!("`{word}` is a file with {n} other name{} (hard links) gate cannot see", if n == 1 { "" } else { "s" })
}

/// How many links below a directory a reason names.
const SHOWN: usize = 5;

/// How a path's landing place is explained. A glob whose links lead to several places, or
/// that would look at more names than the edge matches, comes back as `/`.
fn leads(word: &str, to: &str) -> String {
    if to == "/" && word.contains(['*', '?', '[']) {
        format!("`{word}` matches links that lead to several places, or more names than gate looks at")
    } else {
        format!("`{word}` leads to `{to}`")
    }
}

/// What [`path_words`] finds in a shell text.
struct PathWords {
    /// Each word that may name a file, with where and how it is used.
    words: Vec<(String, Vec<WordUse>)>,
    /// The globs among them.
    globs: Vec<String>,
    /// Files written whose name starts with `-`.
    dash_writes: Vec<String>,
    /// Files written whose name holds a blank, a quote, a backslash, a glob character or a
    /// newline: where the shell or xargs splits it.
    odd_writes: Vec<String>,
    /// Directories copied whole, where to, and the directory the command runs in.
    copies: Vec<(Word, Word, Option<String>)>,
}

/// The literal words of a shell text that may name files, each with the directories it is
/// used in (relative to the start, or absolute; `None` where the analysis lost track) and
/// how: every command's words (options' `=VALUE` parts included) and every read and write
/// target; then the globs among them, and the files written whose name starts with `-`.
fn path_words(command: &str) -> PathWords {
    let a = shell::analyze(command);
    let copies: Vec<(Word, Word, Option<String>)> = a
        .commands
        .iter()
        .flat_map(|c| shell::copies_below(&c.words).into_iter().map(|(s, d)| (s, d, c.cwd.clone())))
        .collect();
    // Files written whose name starts with `-`: a literal name, or names a glob stands for
    // (red team 67: `split ... docs/a.md docs/-o.env` writes `docs/-o.envaa`...).
    let dash_writes: Vec<String> = a
        .writes
        .iter()
        .map(|w| match &w.path {
            Word::Lit(p) => p.clone(),
            Word::Dyn(d) => d.trim_matches('"').to_string(),
        })
        .filter(|p| p.rsplit('/').next().is_some_and(|n| n.starts_with('-')))
        .collect();
    let odd_writes: Vec<String> = a
        .writes
        .iter()
        .filter_map(|w| w.path.lit())
        .filter(|p| p.contains(|c: char| c.is_whitespace() || "'\"\\*?[(".contains(c)))
        .map(str::to_string)
        .collect();
    let mut out: Vec<(String, Vec<WordUse>)> = Vec::new();
    let mut globs: Vec<(String, Option<String>, Use)> = Vec::new();
    let mut add = |w: &Word, dir: &Option<String>, how: Use| {
        let Some(s) = w.lit() else { return };
        let s = if s.starts_with('-') { s.split_once('=').map(|(_, v)| v).unwrap_or("") } else { s };
        // The standard streams lead to this process's descriptors, which are no files gate
        // decides (`tee /dev/stderr` writes where the output goes).
        if s.is_empty() || matches!(s, "/dev/null" | "/dev/stdin" | "/dev/stdout" | "/dev/stderr" | "/dev/tty") {
            return;
        }
        let one = (dir.clone(), how);
        match out.iter_mut().find(|(o, _)| o == s) {
            Some((_, uses)) if uses.contains(&one) => {}
            Some((_, uses)) => uses.push(one),
            None => out.push((s.to_string(), vec![one])),
        }
    };
    for c in &a.commands {
        for (w, dir) in c.words.iter().zip(word_dirs(c)).skip(1) {
            add(w, &dir, Use::Read);
        }
        // The files the analysis says the command and its wrappers read, also those glued to
        // an option (`grep -flnk/passwd`, `xargs -a pw`: eleventh red team).
        for words in std::iter::once(&c.words).chain(c.wrappers.iter().map(|w| &w.words)) {
            for t in shell::read_targets(words) {
                add(&t, &c.cwd, Use::Read);
            }
        }
    }
    let targets = a.writes.iter().map(|w| (w, Use::Write)).chain(a.reads.iter().map(|r| (r, Use::Read)));
    for (w, how) in targets {
        add(&w.path, &w.cwd, how);
        // A glob's literal directory (`echo lnk/*` lists where `lnk` leads), and a glob of
        // plain text itself: the edge matches it against the directories, and a name it
        // matches that is a link leads where the link does (`cat */passwd` through
        // `lnk` -> `/etc`, `cat p*` through `pw` -> `/etc/passwd`).
        if let Word::Dyn(d) = &w.path {
            if let Some(base) = shell::glob_base(d).filter(|b| b != "." && b != "/") {
                add(&Word::Lit(base), &w.cwd, how);
            }
            let d = shell::unquoted_glob(d);
            let plain = !d.contains(['$', '`', '\'', '"', '\\', '(', ')', '<', '>', '|', ';', '&', '~'])
                && !d.contains(char::is_whitespace);
            if plain && d.contains(['*', '?', '[']) {
                globs.push((d.to_string(), w.cwd.clone(), how));
            }
        }
    }
    let names: Vec<String> = globs.iter().map(|(g, _, _)| g.clone()).collect();
    for (g, dir, how) in globs {
        add(&Word::Lit(g), &dir, how);
    }
    PathWords { words: out, globs: names, dash_writes, odd_writes, copies }
}

/// `text` with each whole-word occurrence of `word` replaced by `to` (a word boundary is the
/// text's ends, white space, quotes, redirections, `=` and command separators); `None` when it
/// does not occur as a word.
fn replace_word(text: &str, word: &str, to: &str) -> Option<String> {
    let boundary = |c: Option<char>| c.is_none_or(|c| c.is_whitespace() || "'\"<>=;|&()`".contains(c));
    let mut out = String::with_capacity(text.len() + to.len());
    let mut rest = text;
    let mut found = false;
    while let Some(i) = rest.find(word) {
        let before = out.chars().last().or(None);
        let before = if i == 0 { before } else { rest[..i].chars().last() };
        let after = rest[i + word.len()..].chars().next();
        out.push_str(&rest[..i]);
        if boundary(before) && boundary(after) {
            out.push_str(to);
            found = true;
        } else {
            out.push_str(word);
        }
        rest = &rest[i + word.len()..];
    }
    out.push_str(rest);
    found.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::replace_word;

    #[test]
    fn words_are_replaced_whole() {
        assert_eq!(
            replace_word("echo x > etcl/passwd", "etcl/passwd", "/etc/passwd").as_deref(),
            Some("echo x > /etc/passwd")
        );
        assert_eq!(replace_word("cat a/b a/bc", "a/b", "/x").as_deref(), Some("cat /x a/bc"));
        assert_eq!(replace_word("cat xa/b", "a/b", "/x"), None);
        assert_eq!(replace_word("cp 'a/b' --target=a/b", "a/b", "/x").as_deref(), Some("cp '/x' --target=/x"));
    }
}
