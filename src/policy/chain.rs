//! The decision chain (SPEC 3.2), first answer wins: deny rules, ask rules, the safe list,
//! allow rules, "always" approvals, skills, session approvals, the mode's default by risk.
//! Shell calls are decided part by part and take the strictest part's verdict.

use serde_json::Value;

use super::model::{Risk, ToolKind, ToolSpec};
use super::rules::{trusted_program, ResolvedPath, RuleSet, Strength, Subject, FILE_PATH_ALIASES};
use super::{Call, Context, Decision, Layer, Mode, PartDecision, PartKind, Policy, Real, Verdict};
use crate::shell::{self, SimpleCommand, Word, WrapperKind};

/// The argument names that hold a path (SPEC 5.1; issue 15 class 5), at any depth of a call's
/// arguments: a string, or every string inside an array or object.
pub(crate) const MCP_PATH_FIELDS: &[&str] = &[
    "path",
    "paths",
    "source",
    "destination",
    "file_path",
    "directory",
    "dir",
    "cwd",
    "workdir",
    "notebook_path",
    "file",
    "files",
    "folder",
    "root",
    "base",
    "uri",
    "target",
    "location",
];

/// Whether an argument's name says it holds a path, for fields gate has no entry for
/// (`target_path`, `config_file`, `output_dir`): decided as a read of it.
pub(crate) fn is_path_field(name: &str) -> bool {
    // Without lowering a copy: this runs for every field of every call.
    let ends =
        |s: &str| name.len() >= s.len() && name.as_bytes()[name.len() - s.len()..].eq_ignore_ascii_case(s.as_bytes());
    // A camelCase name's last word (`targetFile`, `workingDirectory`, `outputDir`).
    let camel = |s: &str| {
        name.len() > s.len()
            && name.as_bytes()[name.len() - s.len()..].eq_ignore_ascii_case(s.as_bytes())
            && name.as_bytes()[name.len() - s.len()].is_ascii_uppercase()
            && name.as_bytes()[name.len() - s.len() - 1].is_ascii_lowercase()
    };
    MCP_PATH_FIELDS.iter().any(|f| f.eq_ignore_ascii_case(name))
        || [
            "src",
            "dest",
            "dst",
            "to",
            "from",
            "file_name",
            "filepath",
            "dirpath",
            "input_file",
            "output_file",
            "outfile",
            "infile",
            "logfile",
            "basedir",
            "attachments",
        ]
        .iter()
        .any(|f| f.eq_ignore_ascii_case(name))
        || [
            "path",
            "paths",
            "_file",
            "_files",
            "_dir",
            "_directory",
            "_folder",
            "_root",
            "filename",
            "filenames",
            "file_names",
            "dirname",
            "dir_name",
            "pathname",
            "path_name",
            "pathnames",
            "pathlist",
            "path_list",
            "-file",
            "-dir",
        ]
        .iter()
        .any(|s| ends(s))
        || [
            "file",
            "files",
            "dir",
            "dirs",
            "directory",
            "directories",
            "folder",
            "folders",
            "root",
            "roots",
            "filename",
            "dirname",
            "uri",
            "uris",
        ]
        .iter()
        .any(|s| camel(s))
}

/// A field that holds a glob of paths: `glob` (`globs`, `include`), or a globbing tool's
/// `pattern` (`patterns`; a search tool's `pattern` is a regular expression).
pub(crate) fn is_glob_field(tool: &str, key: &str) -> bool {
    matches!(key, "glob" | "globs" | "include" | "includes")
        || (matches!(key, "pattern" | "patterns") && {
            let t = tool.to_ascii_lowercase();
            t.contains("glob") || t.contains("find") || t.contains("list")
        })
}

/// A field known to hold text that is not a path: what a file is to contain or an edit
/// replaces, a description or prompt for people, and a search tool's pattern or query. Its
/// value is never read as a path however it looks (`content` mentioning `/etc/passwd`).
fn is_text_field(tool: &str, spec: Option<&ToolSpec>, key: &str) -> bool {
    const TEXT: &[&str] = &[
        "content",
        "contents",
        "text",
        "new_string",
        "old_string",
        "new_str",
        "old_str",
        "new_source",
        "file_text",
        "insert_text",
        "diff",
        "patch",
        "description",
        "prompt",
        "message",
        "explanation",
        "reason",
        "title",
        "body",
        "summary",
        "question",
        "comment",
        "instructions",
        "plan",
        "code",
        "code_edit",
        "replace",
        "replacement",
    ];
    const SEARCH: &[&str] = &["pattern", "patterns", "regex", "query", "q", "search", "term"];
    let listed = |list: &[&str]| list.iter().any(|f| f.eq_ignore_ascii_case(key));
    listed(TEXT)
        || spec.and_then(|s| s.content.as_deref()) == Some(key)
        || (listed(SEARCH) && {
            let t = tool.to_ascii_lowercase();
            t.contains("grep") || t.contains("search")
        })
}

/// Whether text in a field gate does not know reads as a path: absolute, in a home directory
/// (`~`, `~user`), climbing with `..`, or a `file:` URI. Such a string is decided as a read
/// of it (issue 15 class 5: "a path-like field that gate does not know is decided as a read").
fn looks_like_path(s: &str) -> bool {
    s.starts_with(['/', '~']) || is_file_uri(s) || s.split('/').any(|seg| seg == "..")
}

fn is_file_uri(s: &str) -> bool {
    s.get(..5).is_some_and(|p| p.eq_ignore_ascii_case("file:"))
}

/// The path a path field's text names: a `file:` URI's path (percent-decoded, without its
/// query or fragment; another host's `file://host/p` as `//host/p`, which is outside), any
/// other text as it is.
pub(crate) fn path_text(raw: &str) -> std::borrow::Cow<'_, str> {
    // Claude Code trims a Grep's or Glob's `path` as JavaScript's `trim()` does (red team 59:
    // `" /etc"` searched /etc): the path without the blanks around it, which a tool that
    // keeps them would find inside the workspace and decide no less strictly.
    let blank = |c: char| c.is_whitespace() || c == '\u{feff}';
    let trimmed = raw.trim_matches(blank);
    if trimmed.len() != raw.len() && !trimmed.is_empty() {
        return path_text(trimmed).into_owned().into();
    }
    // pi's tools drop a leading `@` (`@/etc/passwd` reads `/etc/passwd`; red team 43 found it
    // read as a name in the workspace under `gate check`). For another agent it names a file
    // `@...` in the workspace, which the path without it decides no less strictly there.
    if let Some(rest) = raw.strip_prefix('@').filter(|r| !r.is_empty()) {
        return path_text(rest).into_owned().into();
    }
    if !is_file_uri(raw) {
        // `$HOME/x` and `${HOME}/x`, as a tool that expands its paths reads them: `~/x`
        // (red team 30: `$HOME/.ssh/id_rsa` was a relative path inside the workspace).
        if !raw.starts_with('$') {
            return raw.into();
        }
        for home in ["$HOME", "${HOME}"] {
            if let Some(rest) = raw.strip_prefix(home).filter(|r| r.is_empty() || r.starts_with('/')) {
                return format!("~{rest}").into();
            }
        }
        return raw.into();
    }
    let rest = &raw[5..];
    let path = match rest.strip_prefix("//") {
        Some(auth_path) => {
            let (host, path) = auth_path.find('/').map_or((auth_path, ""), |i| auth_path.split_at(i));
            if host.is_empty() || host.eq_ignore_ascii_case("localhost") {
                path.to_string()
            } else {
                format!("//{host}{path}")
            }
        }
        None => rest.to_string(),
    };
    let path = path.split(['?', '#']).next().unwrap_or("");
    percent_decode(path).unwrap_or_else(|| path.to_string()).into()
}

/// Why a tool argument's path text names no one path gate can decide: a variable or command
/// substitution other than a leading `$HOME` (`${HOME:-/root}/.ssh`, `$XDG_CONFIG_HOME/x`,
/// `` `pwd` ``), which a tool that expands its paths reads elsewhere; or a leading `-`, which a
/// tool that hands the path to a program without `--` passes as an option (`--pre=sh`).
pub(crate) fn unplaced_path(text: &str) -> Option<String> {
    if !text.starts_with('-') && !text.contains(['$', '`']) {
        return None;
    }
    let b = text.as_bytes();
    let var = b
        .windows(2)
        .any(|w| w[0] == b'$' && (w[1] == b'{' || w[1] == b'(' || w[1] == b'_' || w[1].is_ascii_alphanumeric()));
    if var || text.contains('`') {
        return Some(format!("`{text}` holds a variable or substitution: where it leads depends on the tool"));
    }
    if text.starts_with('-') {
        return Some(format!("`{text}` starts with `-`: a program it is handed to may read it as an option"));
    }
    None
}

/// `%XX` escapes decoded; `None` when that is not UTF-8 (the text is then decided as written).
fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        match (b[i], b.get(i + 1).copied().and_then(hex), b.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (c, _, _) => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

/// How deep a call's arguments are walked for paths. Deeper nesting is not modelled, so the
/// call is not allowed.
pub(crate) const MAX_ARG_DEPTH: usize = 64;

/// One string of a non-shell call's arguments that names a path or a glob of paths.
pub(crate) struct ArgPath {
    /// Where it is, as a JSON pointer (`/files/0/path`), to put where it leads in its place.
    pub pointer: String,
    /// Where it is, as a person reads it (`files[0].path`).
    pub label: String,
    pub text: String,
    pub glob: bool,
    /// Below a field whose name says it holds paths (not only text that looks like one).
    pub named: bool,
    /// For a glob, the directory a relative one is matched from: the path field beside it
    /// (`{"pattern": "dl/*", "path": "docs"}`), else the agent's directory.
    pub base: Option<String>,
}

/// Every path a non-shell call's arguments name (issue 15 class 5: every path in every tool
/// call), walked through objects and arrays: a path field's strings (`path`, `file_path`,
/// `files[0].path`, `path.dir`), a glob field's strings, and in any other field not known to
/// hold text a string that looks like a path. `Err` when the arguments nest deeper than
/// [`MAX_ARG_DEPTH`]: what lies below is not modelled.
pub(crate) fn arg_paths(tool: &str, spec: Option<&ToolSpec>, args: &Value) -> Result<Vec<ArgPath>, String> {
    arg_paths_keeping(tool, spec, args, true)
}

/// [`arg_paths`], leaving out the tool's own path field unless `keep_declared` (a decision
/// that lets the tool's own rules decide it need not copy it: every call has one).
fn arg_paths_keeping(
    tool: &str,
    spec: Option<&ToolSpec>,
    args: &Value,
    keep_declared: bool,
) -> Result<Vec<ArgPath>, String> {
    let mut w = ArgWalk { tool, spec, out: Vec::new(), too_deep: false, keep_declared, all: false };
    w.walk(args, &mut String::new(), &mut String::new(), Held::Any, None, 0);
    if w.too_deep {
        return Err(format!(
            "its arguments nest deeper than {MAX_ARG_DEPTH} levels, where gate does not look for paths"
        ));
    }
    Ok(w.out)
}

/// Every string of a call's arguments outside its text fields, as [`arg_paths`] would give it
/// were it a path: for the edge, which passes each through the file system, so that one
/// naming a link in a field no table knows (`pathname`, `fileNames`) is where it leads (red
/// team 40).
pub(crate) fn arg_strings(tool: &str, spec: Option<&ToolSpec>, args: &Value) -> Vec<ArgPath> {
    let mut w = ArgWalk { tool, spec, out: Vec::new(), too_deep: false, keep_declared: true, all: true };
    w.walk(args, &mut String::new(), &mut String::new(), Held::Any, None, 0);
    w.out
}

/// What the strings below a field are.
#[derive(Clone, Copy, PartialEq)]
enum Held {
    /// Paths (below a path field).
    Path,
    /// Globs of paths (below a glob field).
    Glob,
    /// Unknown: a string is a path when it looks like one.
    Any,
}

struct ArgWalk<'a> {
    tool: &'a str,
    spec: Option<&'a ToolSpec>,
    out: Vec<ArgPath>,
    too_deep: bool,
    keep_declared: bool,
    /// Every string, whatever its field ([`arg_strings`]).
    all: bool,
}

impl ArgWalk<'_> {
    fn walk(
        &mut self,
        v: &Value,
        pointer: &mut String,
        label: &mut String,
        held: Held,
        base: Option<&str>,
        depth: usize,
    ) {
        if depth > MAX_ARG_DEPTH {
            self.too_deep = true;
            return;
        }
        let (p_len, l_len) = (pointer.len(), label.len());
        match v {
            // An MCP tool's fields are its server's own vocabulary: there, text that only looks
            // like a path (`route: "/api/users"`, `labels: ["~bug"]`) is no file unless its
            // field is named as one (review: such calls of allowed tools were asked).
            // A `file:` URI names a file in any field, an MCP tool's too.
            Value::String(s)
                if held != Held::Any
                    || self.all
                    || (!self.tool.starts_with("mcp__") && looks_like_path(s))
                    || is_file_uri(s) =>
            {
                let declared = depth == 1
                    && held == Held::Path
                    && self.spec.and_then(|s| s.path.as_deref()) == Some(&pointer[1..]);
                if declared && !self.keep_declared {
                    return;
                }
                self.out.push(ArgPath {
                    pointer: pointer.clone(),
                    label: label.clone(),
                    text: s.clone(),
                    glob: held == Held::Glob,
                    named: held == Held::Path,
                    base: base.filter(|_| held == Held::Glob).map(str::to_string),
                });
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    pointer.push_str(&format!("/{i}"));
                    label.push_str(&format!("[{i}]"));
                    self.walk(item, pointer, label, held, base, depth + 1);
                    pointer.truncate(p_len);
                    label.truncate(l_len);
                }
            }
            Value::Object(obj) => {
                // The directory a glob beside it is matched from (looked for only beside a glob).
                let (tool, spec) = (self.tool, self.spec);
                let beside = || {
                    obj.iter().find_map(|(k, v)| {
                        let path = is_path_field(k) && !is_glob_field(tool, k) && !is_text_field(tool, spec, k);
                        v.as_str().filter(|d| path && !d.is_empty())
                    })
                };
                for (k, item) in obj {
                    let declared = depth == 0 && self.spec.and_then(|s| s.path.as_deref()) == Some(k.as_str());
                    // The tool's own path, left out: skipped before its place is spelled.
                    if declared && !self.keep_declared && item.is_string() && !is_glob_field(self.tool, k) {
                        continue;
                    }
                    if is_text_field(self.tool, self.spec, k) {
                        continue;
                    }
                    let held = if is_glob_field(self.tool, k) {
                        Held::Glob
                    } else if declared || is_path_field(k) {
                        Held::Path
                    } else {
                        held
                    };
                    pointer.push('/');
                    if k.contains(['~', '/']) {
                        pointer.push_str(&k.replace('~', "~0").replace('/', "~1"));
                    } else {
                        pointer.push_str(k);
                    }
                    if !label.is_empty() {
                        label.push('.');
                    }
                    label.push_str(k);
                    let base = if held == Held::Glob { beside().or(base) } else { base };
                    self.walk(item, pointer, label, held, base, depth + 1);
                    pointer.truncate(p_len);
                    label.truncate(l_len);
                }
            }
            _ => {}
        }
    }
}

/// Every path a non-shell call names, by where it is: its path fields, strings that look like
/// paths, and the literal base of a glob that starts outside (`/etc/*`, `~/.ssh/**`, `../x/*`)
/// in a glob field. The tool's own path field is left out when `skip_declared` (the tool's
/// own rules decide it).
pub(crate) fn call_paths(
    tool: &str,
    spec: Option<&ToolSpec>,
    args: &Value,
    skip_declared: bool,
) -> Result<Vec<(String, String)>, String> {
    // A search pattern that reads as an option with a value (`--pre=rm`, `--file=/etc/x`):
    // pi's grep hands its pattern to ripgrep before the path and without `-e` or `--` (red
    // team 44), where `--pre=CMD` runs CMD on every file searched.
    if let Some(p) = args.get("pattern").and_then(Value::as_str) {
        if p.starts_with('-') && (p.contains('=') || matches!(p, "--pre" | "-f" | "--file" | "--ignore-file")) {
            return Err(format!(
                "`pattern`: `{p}` starts with `-`: a search program it is handed to may read it as an option"
            ));
        }
    }
    let mut out = Vec::new();
    for a in arg_paths_keeping(tool, spec, args, !skip_declared)? {
        let text = path_text(&a.text);
        if let Some(why) = unplaced_path(&text) {
            return Err(format!("`{}`: {why}", a.label));
        }
        if a.glob {
            // A relative glob's leaves are where they are from the path beside it.
            let from = |leaf: String| match &a.base {
                Some(b) if !leaf.starts_with(['/', '~']) => format!("{}/{leaf}", path_text(b)),
                _ => leaf,
            };
            out.extend(glob_leaves(&text).into_iter().map(|p| (a.label.clone(), from(p))));
        } else {
            let text = match text {
                std::borrow::Cow::Borrowed(_) => a.text.clone(),
                // (And as written: see `call_path`.)
                std::borrow::Cow::Owned(p) => {
                    out.push((a.label.clone(), a.text.clone()));
                    p
                }
            };
            out.push((a.label, text));
        }
    }
    Ok(out)
}

/// The shell text a shell tool's call runs, as gate decides it: its `field` string, moved by a
/// directory field (issue 15 classes 5 and 8) with a `cd` there that must succeed, so that a
/// directory outside the workspace is seen and relative paths are read from there. `Ok(None)`
/// without a command string; `Err` when a directory field is not one directory gate can read.
pub(crate) fn shell_text(call: &Call, field: &str) -> Result<Option<String>, String> {
    let Some(command) = call.arguments.get(field).and_then(Value::as_str) else { return Ok(None) };
    let mut dir: Option<std::borrow::Cow<'_, str>> = None;
    for k in shell::SHELL_DIR_FIELDS {
        match call.arguments.get(*k) {
            None | Some(Value::Null) => {}
            Some(Value::String(d)) if d.is_empty() => {}
            Some(Value::String(d))
                if dir.as_deref().is_none_or(|o| o.trim_end_matches('/') == path_text(d).trim_end_matches('/')) =>
            {
                let d = path_text(d);
                if let Some(why) = unplaced_path(&d) {
                    return Err(format!("the `{k}` field: {why}"));
                }
                dir = Some(d);
            }
            Some(_) => {
                return Err(format!(
                    "the `{k}` field is not one directory gate can read: where the command runs is unknown"
                ))
            }
        }
    }
    let mut env = String::new();
    if let Some(args) = call.arguments.as_object() {
        for (k, v) in args {
            if k == field || shell::SHELL_DIR_FIELDS.contains(&k.as_str()) || SHELL_PLAIN_FIELDS.contains(&k.as_str()) {
                continue;
            }
            match (k.as_str(), v) {
                (_, Value::Null) => {}
                // Variables the tool sets for the command: decided as the command's own
                // `export`s (red team 30: `GIT_CONFIG_PARAMETERS` there ran `rm`).
                ("env" | "environment" | "envs", Value::Object(vars)) => {
                    for (name, value) in vars {
                        match value.as_str() {
                            Some(value) if shell::is_identifier(name) => {
                                env.push_str(&format!("export {}; ", shell::shell_word(&format!("{name}={value}"))))
                            }
                            _ => {
                                return Err(format!(
                                    "the `{k}` field sets `{name}` to something gate cannot read as a variable"
                                ))
                            }
                        }
                    }
                }
                // Any other field may change where or how the command runs
                // (`working_directory`, `login`, `shell`): not modelled (red team 30).
                _ => {
                    return Err(format!(
                        "the `{k}` field is not one gate models: it may change where or how the command runs"
                    ))
                }
            }
        }
    }
    let command = if env.is_empty() { command.to_string() } else { format!("{env}{command}") };
    Ok(Some(match dir.filter(|d| *d != ".") {
        Some(d) => shell::run_in(&d, &command),
        None => command,
    }))
}

/// A shell tool's fields that change nothing about what its command runs or where: what the
/// agents gate speaks send beside the command (Claude Code's `description`, `timeout`,
/// `run_in_background`, `dangerouslyDisableSandbox`, which only lifts its own sandbox; Gemini
/// CLI's `is_background`; Codex's `timeout_ms` and `justification`).
const SHELL_PLAIN_FIELDS: &[&str] = &[
    "description",
    "timeout",
    "timeout_ms",
    "run_in_background",
    "dangerouslyDisableSandbox",
    "is_background",
    "justification",
    "title",
];

/// The directory each of a command's words is used in: where the command runs, except that
/// git's `-C DIR` options move it one after another (`git -C docs -C dl/repo log` reads
/// `docs/dl/repo`), each `DIR` from where the ones before it led and every other word from
/// the last.
pub(crate) fn word_dirs(c: &SimpleCommand) -> Vec<Option<String>> {
    if c.program() != Some("git") {
        return vec![c.cwd.clone(); c.words.len()];
    }
    let mut cur = c.cwd.clone();
    // Each `-C` value's index and the directory it is read from.
    let mut c_values: Vec<(usize, Option<String>)> = Vec::new();
    let mut i = 1;
    while let Some(Word::Lit(a)) = c.words.get(i) {
        if !a.starts_with('-') {
            break;
        }
        if a == "-C" {
            c_values.push((i + 1, cur.clone()));
            cur = match (cur, c.words.get(i + 1)) {
                (Some(cur), Some(Word::Lit(d))) if d.starts_with('/') || cur.is_empty() => Some(d.clone()),
                (Some(cur), Some(Word::Lit(d))) if !d.starts_with('~') => Some(format!("{cur}/{d}")),
                // `~`, or a directory known only at run time: the words after it are not
                // resolved here (the analysis does not take such a git as read-only).
                _ => None,
            };
        }
        i += if git_takes_value(a) { 2 } else { 1 };
    }
    let mut dirs = vec![cur; c.words.len()];
    for (j, d) in c_values {
        if let Some(slot) = dirs.get_mut(j) {
            *slot = d;
        }
    }
    dirs
}

/// Whether git's global option `a` takes the next word as its value (`-C DIR`, `-c K=V`), as
/// the analysis reads git's options: where the subcommand is found after `a x`.
fn git_takes_value(a: &str) -> bool {
    shell::git_subcommand_at(&[Word::Lit(a.to_string()), Word::Lit("x".into())]) == 2
}

/// Where a glob tool's pattern can reach outside where it starts: for each alternative of its
/// braces (`{/etc,src}/*`), the literal base of one that starts at `/` or `~`, and `..` for
/// one whose `..` segments climb above its start (`src/../../*`, `*/../../*`, `**/../x`; a
/// segment can match one directory, `**` none). A segment that could itself match `..`
/// (`.*`, `..?`, `[.]*`) climbs too. Braces gate cannot expand count as climbing.
fn glob_leaves(pattern: &str) -> Vec<String> {
    let alternatives = match shell::brace_expand(pattern) {
        Some(a) => a,
        None if pattern.contains('{') && pattern.contains(',') => return vec!["..".into()],
        None => vec![pattern.to_string()],
    };
    let mut out = Vec::new();
    for alt in alternatives {
        // An escape (`.\./*` is `../*` to the glob libraries and to bash): not read, so
        // taken as climbing (found in review).
        if alt.contains('\\') {
            out.push("..".into());
            continue;
        }
        // A class of one dot (`[.]`) is a dot to node's glob, which then follows `[.][.]` as
        // `..` (red team 62: Gemini CLI's glob tool listed `/etc` for `[.][.]/[.][.]/etc/*`).
        let alt = alt.split('/').map(dot_classes_as_dots).collect::<Vec<_>>().join("/");
        if alt.starts_with(['/', '~']) {
            out.push(shell::glob_base(&alt).unwrap_or(alt));
            continue;
        }
        let mut depth: i64 = 0;
        for seg in alt.split('/') {
            let globbed = seg.contains(['*', '?', '[']);
            match seg {
                "" | "." | "**" => {}
                ".." => depth -= 1,
                _ if globbed && (seg.starts_with('.') || seg.starts_with('[') || seg.chars().all(|c| c == '?')) => {
                    depth = -1
                }
                _ => depth += 1,
            }
            if depth < 0 {
                // Where it climbs to, when the climb is literal (`../shared/*.md`: `../shared`,
                // so that a rule on a sibling folder still applies); else the parent.
                out.push(shell::glob_base(&alt).unwrap_or_else(|| "..".into()));
                break;
            }
        }
    }
    out
}

/// A glob segment whose every bracket holds only dots (`[.]`, `[..]`), with each such bracket
/// a dot (`[.][.]` is `..`); any other segment as it is.
fn dot_classes_as_dots(seg: &str) -> String {
    let mut out = String::new();
    let mut rest = seg;
    while let Some(k) = rest.find('[') {
        out.push_str(&rest[..k]);
        let body = &rest[k + 1..];
        // (`]` first in a class is one of its letters.)
        let Some(end) = body.get(1..).and_then(|b| b.find(']')).map(|e| e + 1) else { return seg.to_string() };
        if !body[..end].chars().all(|c| c == '.') {
            return seg.to_string();
        }
        out.push('.');
        rest = &body[end + 1..];
    }
    out.push_str(rest);
    out
}

/// Debug builds panic when deciding a call of this tool (see `decide_inner`).
pub const PANIC_TOOL_FOR_TESTS: &str = "__gate_panic_for_tests";

/// One verdict with its provenance.
struct V {
    verdict: Verdict,
    layer: Layer,
    rule: Option<String>,
    reason: String,
}

impl V {
    fn new(verdict: Verdict, layer: Layer, rule: Option<&str>, reason: impl Into<String>) -> V {
        V { verdict, layer, rule: rule.map(str::to_string), reason: reason.into() }
    }
}

pub(crate) fn mode_verdict(mode: Mode, risk: Risk) -> Verdict {
    use Risk::*;
    match mode {
        Mode::Default => match risk {
            ReadOnly | Low => Verdict::Allow,
            _ => Verdict::Ask,
        },
        Mode::AcceptEdits => match risk {
            ReadOnly | Low | Edit => Verdict::Allow,
            _ => Verdict::Ask,
        },
        Mode::Plan => match risk {
            ReadOnly => Verdict::Allow,
            _ => Verdict::Deny,
        },
        Mode::DontAsk => match risk {
            ReadOnly | Low => Verdict::Allow,
            _ => Verdict::Deny,
        },
        Mode::BypassPermissions => Verdict::Allow,
    }
}

/// A sub-agent started elsewhere (Claude Code's `Task` with `isolation: "remote"`): its calls
/// never reach this machine's gate, so the safe list's `task` does not cover it (tenth red
/// team).
fn remote_agent(tool: &str, args: &Value) -> bool {
    tool.eq_ignore_ascii_case("task") && args.get("isolation").and_then(Value::as_str) == Some("remote")
}

pub(crate) fn mode_name(mode: Mode) -> &'static str {
    match mode {
        Mode::Default => "default",
        Mode::AcceptEdits => "acceptEdits",
        Mode::Plan => "plan",
        Mode::DontAsk => "dontAsk",
        Mode::BypassPermissions => "bypassPermissions",
    }
}

fn verb(v: Verdict) -> &'static str {
    match v {
        Verdict::Allow => "allows",
        Verdict::Ask => "asks for",
        Verdict::Deny => "denies",
    }
}

/// Position in the chain, to report the latest layer that allowed a compound command.
fn chain_index(l: Layer) -> u8 {
    match l {
        Layer::Error => 0,
        Layer::DenyRule => 1,
        Layer::AskRule => 2,
        Layer::DoomLoop => 3,
        Layer::Analysis => 4,
        Layer::Workspace => 5,
        Layer::Safe => 6,
        Layer::AllowRule => 7,
        Layer::Always => 8,
        Layer::Skill => 9,
        Layer::Session => 10,
        Layer::Mode => 11,
    }
}

impl Policy {
    /// Verdicts of single parts, for the patterns "approve for session/always" would store.
    pub(crate) fn command_verdict(&self, tool: &str, c: &SimpleCommand, ctx: &Context, session: &RuleSet) -> Verdict {
        self.decide_command(tool, c, ctx, session).verdict
    }

    pub(crate) fn read_verdict(
        &self,
        raw: &str,
        cwd: Option<&str>,
        ctx: &Context,
        session: &RuleSet,
    ) -> Option<Verdict> {
        self.decide_read(&Word::Lit(raw.to_string()), cwd, ctx, session).map(|v| v.verdict)
    }

    pub(crate) fn write_verdict(&self, w: &shell::Write, ctx: &Context, session: &RuleSet) -> Verdict {
        self.decide_write(w, ctx, session).verdict
    }

    pub(crate) fn decide_inner(&self, call: &Call, ctx: &Context, edge: Option<Real>) -> Decision {
        // Debug builds only: a tool name that panics here, so tests can prove a panic in a
        // decision is denied and gate goes on. Release builds have no such tool.
        if cfg!(debug_assertions) && call.tool == PANIC_TOOL_FOR_TESTS {
            deliberate_panic();
        }
        let tools = &self.model.tools;
        if !tools.alias.contains_key(call.tool.as_str()) {
            match self.name_variant(&call.tool) {
                NameVariant::Exact => {}
                // `BASH`, `"bash "`: the tool the agent will most likely run; decide it as that.
                NameVariant::Folded(known) => {
                    let mut c = call.clone();
                    c.tool = known;
                    return self.decide_inner(&c, ctx, edge);
                }
                NameVariant::Confusable(known) => {
                    return Decision::new(
                        Verdict::Deny,
                        Layer::Analysis,
                        None,
                        format!(
                            "the tool name {:?} is written to look like `{known}` (control, invisible or look-alike characters): gate will not guess which tool runs",
                            call.tool
                        ),
                    )
                }
            }
        }
        let tool = tools.canonical(&call.tool).to_string();
        let spec = tools.spec(&tool);
        let session = self.session_rules(ctx);
        if let Some(spec) = spec.filter(|s| s.kind == ToolKind::Shell) {
            let field = spec.command.as_deref().unwrap_or("command");
            let command = match shell_text(call, field) {
                Ok(c) => c,
                Err(why) => return Decision::new(Verdict::Ask, Layer::Workspace, None, why),
            };
            return match command.as_deref() {
                Some(cmd) => self.decide_shell(&tool, cmd, ctx, &session, edge),
                None => Decision::new(
                    Verdict::Deny,
                    Layer::Error,
                    None,
                    format!("`{}` call without a `{field}` string: gate cannot tell what it would run", call.tool),
                ),
            };
        }
        let path = self.call_path(spec, &call.arguments, false);
        let risk = self.risk(&tool, spec, call);
        let mut v = self.decide_subject(&tool, spec, &call.arguments, path.as_ref(), risk, ctx, &session);
        // The path as written, where gate reads it as another agent would (a `file:` URI, a
        // leading `@` or `$HOME`, blanks around it): an agent that takes it as it is writes
        // elsewhere (red team 75: `file:docs/x.md#/../../Cargo.toml` is `Cargo.toml` to
        // Claude Code). The stricter of the two decides.
        if let Some(literal) = self.call_path(spec, &call.arguments, true) {
            let w = self.decide_subject(&tool, spec, &call.arguments, Some(&literal), risk, ctx, &session);
            if w.verdict > v.verdict {
                v = V {
                    reason: format!("the path as written, not as a URI or with its prefix dropped: {}", w.reason),
                    ..w
                };
            }
        }
        if v.layer == Layer::Safe && call.tool != tool {
            // Name the tool as the agent called it (`read_file`), not by its canonical name.
            v.reason = format!("`{}` is on the safe list", call.tool);
        }
        let d = Decision::new(v.verdict, v.layer, v.rule, v.reason);
        self.paths_of_call(call, spec, ctx, d)
    }

    /// An MCP tool's path arguments are also decided by the path rules (SPEC 5.1): a read-only
    /// tool (annotation `readOnlyHint`) reads them, any other writes them. A denied path denies
    /// the call; an ask rule on a path, or a path outside the workspace, makes it ask.
    /// Every other path the call names is decided too (issue 15 class 5), safe-list tools
    /// included: an MCP tool's as it reads (`readOnlyHint`) or writes them, an edit tool's as
    /// writes, any other's as reads. A denied path denies the call; an ask rule on a path, or
    /// a path outside the workspace, makes it ask. It never loosens the decision.
    fn paths_of_call(&self, call: &Call, spec: Option<&ToolSpec>, ctx: &Context, d: Decision) -> Decision {
        if d.decision == Verdict::Deny {
            return d;
        }
        let mcp = call.tool.starts_with("mcp__");
        let hint = call.annotations.as_ref().and_then(|a| a.get("readOnlyHint")).and_then(Value::as_bool);
        // A tool gate has no spec for and that is not on the safe list may write what it
        // names (eleventh red team: an unmapped `NotebookEdit` of `.env` met no write rule).
        let read_only = match spec {
            _ if mcp => hint == Some(true),
            Some(s) => s.kind != ToolKind::Edit,
            None => {
                let canonical = self.model.tools.canonical(&call.tool);
                self.model.safe_tools.iter().any(|t| t.eq_ignore_ascii_case(&call.tool) || t == canonical)
            }
        };
        let as_tool = if read_only { "read" } else { "write" };
        let Some(sub_spec) = self.model.tools.specs.get(as_tool) else { return d };
        let sub_field = sub_spec.path.clone().unwrap_or_else(|| "file_path".into());
        // The field the tool's own spec names is decided already, by the tool's own rules.
        // (The sub-call below names only its tool's own path field, which is skipped there:
        // no recursion, and the read and write tools' other fields are decided too.)
        let paths = match call_paths(&call.tool, spec, &call.arguments, !mcp) {
            Ok(p) => p,
            Err(why) => {
                let v = self.unknown_verdict(&why);
                return if v.verdict > d.decision { Decision::new(v.verdict, v.layer, v.rule, v.reason) } else { d };
            }
        };
        let mut out = d;
        // A field that makes the tool follow symbolic links below what it names (`follow`,
        // `followSymlinks`, `dereference`): where those lead is not decided here (red team 30).
        if let Some(k) = call.arguments.as_object().and_then(|o| {
            o.iter().find_map(|(k, v)| {
                // (Only a `true` value is looked at by name: most fields are not booleans.)
                let named = |w: &str| k.as_bytes().windows(w.len()).any(|x| x.eq_ignore_ascii_case(w.as_bytes()));
                (v.as_bool() == Some(true) && (named("follow") || named("symlink") || named("dereference")))
                    .then_some(k)
            })
        }) {
            if out.decision == Verdict::Allow || (out.decision == Verdict::Ask && out.layer == Layer::Mode) {
                out = Decision::new(
                    Verdict::Ask,
                    Layer::Analysis,
                    None,
                    format!("`{k}` makes it follow symbolic links below the paths it names, which gate does not follow for this tool"),
                );
            }
        }
        for (field, p) in paths {
            let sub = Call {
                tool: as_tool.into(),
                arguments: serde_json::json!({ sub_field.as_str(): p }),
                annotations: None,
            };
            let pd = self.decide_inner(&sub, ctx, None);
            let what = if read_only { "reads" } else { "writes" };
            let label = if mcp { format!("`{p}`") } else { format!("`{p}` (`{field}`)") };
            if pd.decision == Verdict::Deny {
                return Decision::new(Verdict::Deny, pd.layer, pd.rule, format!("it {what} {label}: {}", pd.reason));
            }
            // An ask from a rule or the workspace boundary counts; a mode's ask for a write in
            // the workspace does not (the tool's own risk already speaks for it).
            let asks = pd.decision == Verdict::Ask && pd.layer != Layer::Mode;
            if asks && (out.decision == Verdict::Allow || (out.decision == Verdict::Ask && out.layer == Layer::Mode)) {
                out = Decision::new(Verdict::Ask, pd.layer, pd.rule, format!("it {what} {label}: {}", pd.reason));
            }
        }
        out
    }

    /// How a tool name that is not exactly a known one relates to the known ones.
    fn name_variant(&self, name: &str) -> NameVariant {
        let tools = &self.model.tools;
        // Tool names gate knows: the tool table, the safe list, and every tool a rule names
        // (tenth red team: `deny: [webfetch]` did not meet Claude Code's `WebFetch`).
        let known = |n: &str| -> Option<String> {
            let m = &self.model;
            tools
                .alias
                .keys()
                .chain(m.safe_tools.iter())
                .chain(m.deny.tool_names())
                .chain(m.ask.tool_names())
                .chain(m.allow.tool_names())
                .find(|k| k.eq_ignore_ascii_case(n))
                .map(|k| k.to_string())
        };
        let trimmed = name.trim_matches(|c: char| c.is_whitespace());
        if trimmed != name || !name.chars().all(|c| c.is_ascii_alphanumeric() || "_-.:".contains(c)) {
            let skeleton: String = name.chars().filter_map(skeleton_char).collect();
            if let Some(k) = known(&skeleton) {
                if skeleton == trimmed || (trimmed.is_ascii() && !trimmed.chars().any(char::is_control)) {
                    return NameVariant::Folded(k);
                }
                return NameVariant::Confusable(k);
            }
            if name.chars().any(|c| c.is_control()) {
                return NameVariant::Confusable(skeleton);
            }
            return NameVariant::Exact;
        }
        match known(name) {
            Some(k) if k != name => NameVariant::Folded(k),
            _ => NameVariant::Exact,
        }
    }

    /// The session approvals compiled into rules; cached by the patterns' hash, since the
    /// supervisor passes the same list for many decisions.
    fn session_rules(&self, ctx: &Context) -> std::sync::Arc<RuleSet> {
        use std::hash::{Hash, Hasher};
        let Some(s) = ctx.session.filter(|s| !s.patterns.is_empty()) else {
            return std::sync::Arc::default();
        };
        let mut h = std::collections::hash_map::DefaultHasher::new();
        s.patterns.hash(&mut h);
        let key = h.finish();
        let mut cache = self.session_cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((k, set)) = cache.as_ref() {
            if *k == key {
                return set.clone();
            }
        }
        let rules = s
            .patterns
            .iter()
            .filter_map(|p| super::model::rule_from_text(p, &self.model.tools, self.home.as_deref()).ok())
            .collect();
        let set = std::sync::Arc::new(RuleSet::new(rules));
        *cache = Some((key, set.clone()));
        set
    }

    fn risk(&self, tool: &str, spec: Option<&ToolSpec>, call: &Call) -> Risk {
        if let Some(r) = spec.and_then(|s| s.risk) {
            return r;
        }
        if remote_agent(tool, &call.arguments) {
            return Risk::High;
        }
        if self.model.safe_tools.contains(tool) || self.model.safe_tools.contains(&call.tool) {
            return Risk::ReadOnly;
        }
        if call.tool.starts_with("mcp__") {
            let ann = call.annotations.as_ref();
            let hint = |k: &str| ann.and_then(|a| a.get(k)).and_then(Value::as_bool) == Some(true);
            return if hint("destructiveHint") {
                Risk::Critical
            } else if hint("readOnlyHint") {
                Risk::Low
            } else {
                Risk::High
            };
        }
        match spec.map(|s| s.kind) {
            Some(ToolKind::Read) => Risk::ReadOnly,
            Some(ToolKind::Edit) => Risk::Edit,
            _ => Risk::High,
        }
    }

    /// With `literal`, the text as written where gate would read it otherwise
    /// ([`path_text`]), and `None` where it reads it as written.
    fn call_path(&self, spec: Option<&ToolSpec>, args: &Value, literal: bool) -> Option<Result<ResolvedPath, String>> {
        let field = spec?.path.as_deref()?;
        // The file's path under another agent's name for it where the declared field is not
        // there (pi's `path`, opencode's `filePath`): one of them, so that the rules written
        // for it apply (red team 51). Two different ones are no single path.
        let value = match args.get(field) {
            Some(v) => v,
            None => {
                let mut named = FILE_PATH_ALIASES.iter().filter_map(|f| args.get(*f));
                let first = named.next()?;
                if named.any(|v| v != first) {
                    return None;
                }
                first
            }
        };
        let text = value.as_str()?;
        let raw = path_text(text);
        if literal {
            if raw == text {
                return None;
            }
            return Some(self.resolve_path(text, ""));
        }
        if let Some(why) = unplaced_path(&raw) {
            return Some(Err(why));
        }
        Some(self.resolve_path(&raw, ""))
    }

    /// Whether `c` runs, by its path, a file one of `writes` names (lexically, each from its
    /// own directory).
    fn runs_written(&self, c: &shell::SimpleCommand, writes: &[shell::Write]) -> bool {
        let at = |path: &Word, cwd: Option<&str>| self.written_path(path.lit()?, cwd?).ok();
        // (A name without `/` is looked up in PATH.)
        let Some(program) = c.words.first().filter(|p| p.lit().is_some_and(|p| p.contains('/'))) else { return false };
        let Some(program) = at(program, c.cwd.as_deref()) else { return false };
        writes.iter().any(|w| at(&w.path, w.cwd.as_deref()).is_some_and(|p| p == program))
    }

    /// `raw` as an absolute path, used in `cwd_rel` (relative to where the agent runs), `~`
    /// expanded, `..` not yet applied: what the kernel is handed.
    fn written_path(&self, raw: &str, cwd_rel: &str) -> Result<std::path::PathBuf, String> {
        Ok(if raw == "~" || raw.starts_with("~/") {
            let home =
                self.home.as_deref().ok_or_else(|| format!("`{raw}`: there is no home directory to resolve `~`"))?;
            std::path::PathBuf::from(format!("{home}{}", &raw[1..]))
        } else if raw.starts_with('~') {
            return Err(format!("`{raw}`: another user's home directory"));
        } else if raw.starts_with('/') {
            std::path::PathBuf::from(raw)
        } else if cwd_rel.starts_with('/') {
            std::path::Path::new(cwd_rel).join(raw)
        } else if cwd_rel.is_empty() {
            self.cwd.join(raw)
        } else {
            self.cwd.join(cwd_rel).join(raw)
        })
    }

    /// Resolve a path as the agent would: `~`, relative to the working directory (plus a
    /// directory a shell `cd` moved to), `.` and `..`; then relative to the workspace.
    pub(crate) fn resolve_path(&self, raw: &str, cwd_rel: &str) -> Result<ResolvedPath, String> {
        // A NUL or other control character: a program that passes the text to the system as a
        // C string opens the file named before it (`.env\0/../docs/a.md` is `.env`), one that
        // does not opens another. Not modelled (eleventh red team).
        if raw.contains(char::is_control) {
            return Err(format!(
                "`{}` holds a control character: which file it names depends on the program",
                raw.escape_debug()
            ));
        }
        let abs = super::model::normalize(&self.written_path(raw, cwd_rel)?);
        let ws = &self.model.workspace;
        let rel = if ws.as_os_str() == "/" {
            Some(abs.strip_prefix("/").map(|p| p.display().to_string()).unwrap_or_default())
        } else {
            abs.strip_prefix(ws).ok().map(|p| p.display().to_string())
        };
        Ok(ResolvedPath { abs: abs.display().to_string(), rel })
    }

    fn is_protected(&self, p: &ResolvedPath) -> Option<String> {
        for prot in &self.protected {
            if p.abs == *prot || p.abs.starts_with(&format!("{prot}/")) {
                return Some(format!("`{}` is gate's own policy", p.abs));
            }
        }
        if p.abs.split('/').any(|seg| seg == ".git") {
            return Some(format!("`{}` is inside .git: hooks and config there run code on later git commands", p.abs));
        }
        None
    }

    /// The first allow-type layer (allow rules, always, skills, session) that matches.
    fn explicit_allow(
        &self,
        tool: &str,
        subject: &Subject,
        any_counts: bool,
        ctx: &Context,
        session: &RuleSet,
    ) -> Option<V> {
        if let Some((Strength::Yes, r)) = self.model.allow.best_match(tool, subject, any_counts) {
            return Some(V::new(
                Verdict::Allow,
                Layer::AllowRule,
                Some(&r.text),
                format!("allowed by rule `{}`", r.text),
            ));
        }
        if let Some((Strength::Yes, r)) = self.always.best_match(tool, subject, any_counts) {
            return Some(V::new(
                Verdict::Allow,
                Layer::Always,
                Some(&r.text),
                format!("allowed by your \"always\" approval `{}`", r.text),
            ));
        }
        for name in ctx.active_skills {
            if let Some(set) = self.model.skills.get(name) {
                if let Some((Strength::Yes, r)) = set.best_match(tool, subject, any_counts) {
                    return Some(V::new(
                        Verdict::Allow,
                        Layer::Skill,
                        Some(&r.text),
                        format!("allowed by skill `{name}` (`{}`)", r.text),
                    ));
                }
            }
        }
        if let Some((Strength::Yes, r)) = session.best_match(tool, subject, any_counts) {
            return Some(V::new(
                Verdict::Allow,
                Layer::Session,
                Some(&r.text),
                format!("approved for this session (`{}`)", r.text),
            ));
        }
        None
    }

    #[allow(clippy::too_many_arguments)]
    fn decide_subject(
        &self,
        tool: &str,
        spec: Option<&ToolSpec>,
        args: &Value,
        path: Option<&Result<ResolvedPath, String>>,
        risk: Risk,
        ctx: &Context,
        session: &RuleSet,
    ) -> V {
        let resolved = path.and_then(|p| p.as_ref().ok());
        let subject = Subject::Call { args, path: resolved, path_field: spec.and_then(|s| s.path.as_deref()) };
        if let Some((_, r)) = self.model.deny.best_match(tool, &subject, true) {
            return V::new(Verdict::Deny, Layer::DenyRule, Some(&r.text), format!("denied by rule `{}`", r.text));
        }
        if let Some((_, r)) = self.model.ask.best_match(tool, &subject, true) {
            return V::new(Verdict::Ask, Layer::AskRule, Some(&r.text), format!("rule `{}` always asks", r.text));
        }
        let mode = self.model.mode;
        if let Some(Err(e)) = path {
            return if mode_verdict(mode, Risk::High) == Verdict::Deny {
                V::new(
                    Verdict::Deny,
                    Layer::Mode,
                    None,
                    format!("{e}; mode `{}` denies what needs approval", mode_name(mode)),
                )
            } else {
                V::new(Verdict::Ask, Layer::Analysis, None, format!("{e}: gate cannot tell which file this is"))
            };
        }
        let external = resolved.is_some_and(|p| p.rel.is_none());
        let protected = if risk >= Risk::Edit { resolved.and_then(|p| self.is_protected(p)) } else { None };
        let boundary = external || protected.is_some();
        if !boundary && !remote_agent(tool, args) && self.model.safe_tools.contains(tool) {
            return V::new(Verdict::Allow, Layer::Safe, None, format!("`{tool}` is on the safe list"));
        }
        if let Some(v) = self.explicit_allow(tool, &subject, !boundary, ctx, session) {
            return v;
        }
        let by_mode = mode_verdict(mode, risk);
        if boundary && by_mode != Verdict::Deny {
            let why = match (&protected, resolved) {
                (Some(p), _) => p.clone(),
                (None, Some(p)) => format!("`{}` is outside the workspace {}", p.abs, self.model.workspace.display()),
                _ => "outside the workspace".into(),
            };
            return V::new(Verdict::Ask, Layer::Workspace, None, format!("{why}; no rule names this path"));
        }
        let what = match spec.map(|s| s.kind) {
            Some(ToolKind::Edit) => "edits".to_string(),
            _ if risk == Risk::ReadOnly => "read-only calls".to_string(),
            None if risk == Risk::High && !tool.starts_with("mcp__") => {
                "high-risk calls (a tool gate does not know is high risk)".to_string()
            }
            _ => format!("{}-risk calls", risk.as_str()),
        };
        V::new(
            by_mode,
            Layer::Mode,
            None,
            format!("no rule matches; mode `{}` {} {what}", mode_name(mode), verb(by_mode)),
        )
    }

    fn decide_shell(
        &self,
        tool: &str,
        command: &str,
        ctx: &Context,
        session: &RuleSet,
        edge: Option<Real>,
    ) -> Decision {
        let a = shell::analyze(command);
        let mut parts = Vec::new();
        let mode = self.model.mode;
        for u in &a.unknown {
            let v = self.unknown_verdict(u);
            parts.push(part(one_line(command), PartKind::Command, v));
        }
        if !a.unknown.is_empty() {
            // Text gate could not read as a whole still runs in bash: a deny rule's command
            // words anywhere in it deny the call, so that no flag can approve it.
            if let Some(rule) = self.scan_unparsed(tool, command) {
                let reason = format!("text gate cannot parse contains the words of deny rule `{rule}`");
                parts.push(part(
                    one_line(command),
                    PartKind::Command,
                    V::new(Verdict::Deny, Layer::DenyRule, Some(&rule), reason),
                ));
            } else if let Some(mut v) = self.scan_unseen_writes(command) {
                // And the files it names that a write deny rule holds: it may write them (red
                // team 52: `$(case $OS in linux) ...; esac)`, which the parser refuses, then
                // `>> .env`).
                v.reason = format!("text gate cannot parse may write a file it names: {}", v.reason);
                parts.push(part(one_line(command), PartKind::Command, v));
            }
        }
        // `cd "$(git rev-parse --show-toplevel)"`, read as staying where the command starts:
        // so only where the edge finds `.git` there.
        // (And git given pathspecs at run time where, outside a repository, it would read them
        // as files: `| xargs git diff --`.)
        // Outside any repository (no `.git` at the start or above it) git prints no top and
        // runs a `!` alias where it is, which is as good for those; not for `git diff`.
        let diff_top = a.commands.iter().any(|c| c.open_args && shell::git_pathspecs_added(&c.words) == Some(true));
        let top_here = |e: Real| {
            self.written_path(".git", "").is_ok_and(|g| {
                e.exists(&g)
                    || (!diff_top
                        && g.parent()
                            .is_some_and(|start| !start.ancestors().skip(1).any(|up| e.exists(&up.join(".git")))))
            })
        };
        // A path below the top without a fallback: where git prints nothing it is below `/`,
        // which must hold nothing at its first name, and the call must not write it.
        for (walked, fallback) in a.no_top.iter().filter(|(_, f)| !f.is_empty()) {
            let written = a.writes.iter().any(|w| w.path.display().starts_with(walked.as_str()));
            let held = if written {
                "the command writes it".to_string()
            } else if edge.is_none_or(|e| e.exists(std::path::Path::new(fallback))) {
                format!("something is at `{fallback}`")
            } else {
                continue;
            };
            let why = format!(
                "`{walked}` is below the repository's top only where git prints it; where it prints nothing (a repository owned by another user, `GIT_DIR` set) the path is `{}`, and {held}",
                &walked[1..]
            );
            parts.push(part(one_line(command), PartKind::Command, self.unknown_verdict(&why)));
            break;
        }
        if (a.at_git_top || diff_top) && !edge.is_some_and(top_here) {
            let v = self.unknown_verdict(if a.at_git_top {
                "the command takes its repository's top (`git rev-parse --show-toplevel`, where a `!` alias runs) for the directory it starts in, which is not the top"
            } else {
                "`git diff` given paths at run time, outside a repository, compares them as files: the directory the command starts in is not its repository's top"
            });
            parts.push(part(one_line(command), PartKind::Command, v));
        }
        // `cargo --version`, `rustc -V`: rustup's proxy runs the toolchain a `rust-toolchain`
        // or `rust-toolchain.toml` where it runs or above names, a program anywhere: held only
        // where the edge finds no such file there.
        for c in a.commands.iter().filter(|c| c.unknown.is_none() && shell::toolchain_version(&c.words)) {
            let dir = c.cwd.as_deref().and_then(|cwd| self.written_path(".", cwd).ok());
            let named = |e: Real| {
                dir.as_deref().is_none_or(|d| {
                    d.ancestors()
                        .any(|up| e.exists(&up.join("rust-toolchain")) || e.exists(&up.join("rust-toolchain.toml")))
                })
            };
            if edge.is_none_or(named) {
                let v = self.unknown_verdict(
                    "rustup runs the toolchain a `rust-toolchain` file where the command runs (or above) names, which may be a program anywhere",
                );
                parts.push(part(one_line(command), PartKind::Command, v));
            }
        }
        // An unquoted `$PWD`: one word only where the start's name has nothing word
        // splitting or a glob would act on.
        // (Or an unquoted `$PWD` in a glob, read as the directory the command is in: its
        // name, the part after the start included, must be plain too. Found this session: in
        // `cd "x /etc" && cat $PWD/passw?` the name splits into `.../x` and `/etc/passw?`.)
        let plain = |s: &str| s.bytes().all(shell::plain_byte);
        let by_pwd = |w: &Word| matches!(w, Word::Dyn(d) if shell::PWD_SPELLINGS.iter().any(|p| d.starts_with(p)));
        // (The directory each such word is used in.)
        let pwd_cwds: Vec<&Option<String>> = a
            .commands
            .iter()
            .filter(|c| c.words.iter().chain(c.wrappers.iter().flat_map(|w| &w.words)).any(by_pwd))
            .map(|c| &c.cwd)
            .chain(a.reads.iter().filter(|r| by_pwd(&r.path)).map(|r| &r.cwd))
            .chain(a.writes.iter().filter(|w| by_pwd(&w.path)).map(|w| &w.cwd))
            .collect();
        let pwd_words = pwd_cwds.iter().any(|c| !c.as_deref().is_some_and(plain));
        let any_pwd = a.plain_start || !pwd_cwds.is_empty();
        if pwd_words || (any_pwd && !self.written_path(".", "").is_ok_and(|p| p.to_str().is_some_and(plain))) {
            let v = self.unknown_verdict(
                "the command takes an unquoted `$PWD` for one word, but the directory it runs in has a name word splitting or a glob would change",
            );
            parts.push(part(one_line(command), PartKind::Command, v));
        }
        let mut unseen = false;
        let mut untabled: Vec<(String, String, bool)> = Vec::new();
        // A trap's action may run after the last command, where it leaves the shell.
        // (Set anywhere: `eval "trap '...' EXIT"`, red team 64; or by a command gate cannot see.)
        let trapped = a.traps_set || a.commands.iter().any(|c| c.program() == Some("trap") || c.unknown.is_some());
        for (k, c) in a.commands.iter().enumerate() {
            let mut v = self.decide_command(tool, c, ctx, session);
            // The last command, a `cd` that leaves the workspace (or may: `cd src && ...; cd
            // ..`): nothing runs where it lands (red teams 62, 63). (A shell an agent keeps
            // runs its next call there, which gate decides by the directory the call names.)
            let last_cd = k + 1 == a.commands.len()
                && !trapped
                && a.unknown.is_empty()
                && c.wrappers.is_empty()
                && c.unknown.is_none()
                && matches!(c.program(), Some("cd" | "pushd" | "popd"));
            if last_cd && v.verdict == Verdict::Ask && v.layer == Layer::Workspace {
                let why = format!("`{}` is the last command: nothing runs where it lands", c.display());
                v = V::new(Verdict::Allow, Layer::Safe, None, why);
            }
            // Code gate cannot see runs here: a command only known at run time, or one a rule
            // could match once its run-time words are known.
            unseen |=
                v.verdict == Verdict::Ask && v.layer == Layer::Analysis && (c.unknown.is_some() || v.rule.is_some());
            // An interpreter (red team 45: a heredoc's `python3 -` rewriting Cargo.toml), or a
            // program that runs a command gate does not model (red team 49: `perf stat rm`).
            unseen |= v.verdict == Verdict::Ask && shell::runs_unseen_code(&c.words);
            // A program this text wrote (red team 67: `cp /bin/rm ./t && ./t -rf build`).
            unseen |= v.verdict == Verdict::Ask && self.runs_written(c, &a.writes);
            // A program gate has no table of, asked: any of its words may name a program it
            // runs (red team 63: `sdiff --diff-program=rm`, `scp -S rm`).
            if v.verdict == Verdict::Ask && v.layer == Layer::Mode && shell::has_no_table(&c.words) {
                // (Its words after the program: the program itself met the rules already,
                // `unless` included.)
                // (With a word known only at run time, the whole call's text: `read -r c <<<
                // 'rm -f x'; dbus-launch $c`, red team 64.)
                let rest: Vec<String> = c.words[1..].iter().map(Word::display).collect();
                let runtime = c.words[1..].iter().any(|w| w.lit().is_none());
                let text = if runtime { command.to_string() } else { rest.join(" ") };
                untabled.push((c.display(), text, shell::writes_unmodelled(&c.words)));
            }
            parts.push(part(c.display(), PartKind::Command, v));
            // (Not a `find`'s: it is a command of its own, decided where it runs; under
            // `-execdir` the command it wraps runs elsewhere.)
            let wrapper_reads =
                c.wrappers.iter().filter(|w| w.program() != Some("find")).flat_map(|w| shell::read_targets(&w.words));
            // A loop's listing (as the `find` of the same names) names its start points, which
            // no command read where the listing is text a program printed: `printf '%s\n'
            // /etc/passwd | while read f; do cat "$f"; done` reads /etc/passwd (red team 79).
            let listing_starts = c
                .wrappers
                .iter()
                .filter(|w| matches!(w.kind, WrapperKind::Listing(_)))
                .flat_map(|w| shell::find_listing_dirs(&w.words))
                .filter(|d| d.lit() != Some(shell::BARE_NAMES));
            let wrapper_reads = wrapper_reads.chain(listing_starts);
            // Under `find`, `{}` is a path below find's start points, which are decided as
            // reads of the find wrapper.
            let under_find = c.wrappers.iter().any(|w| w.program() == Some("find"));
            let mut paths = shell::read_targets(&c.words);
            // git's history pathspecs known only at run time (`git log -- "$f"`): read as the
            // words they are, unless the repository is the workspace (below).
            let mut pathspecs: Vec<Word> = Vec::new();
            for p in paths.iter_mut() {
                if let Word::Dyn(d) = p {
                    if let Some(word) = d.strip_prefix(shell::GIT_PATHSPEC) {
                        *p = Word::Dyn(word.to_string());
                        pathspecs.push(p.clone());
                    }
                }
            }
            // A program that reads the directory it runs in without being told (`ls`, `grep
            // -r PAT`, `rg PAT`, `du`, `tree`, `find -name x`): that directory, which after a
            // `cd` gate cannot follow (`pushd -n /etc; pushd +1; ls`), or `-execdir` from the
            // workspace's own path, may be anywhere (red team 75).
            if c.cwd.as_deref() != Some("") && shell::reads_where_it_runs(c) {
                paths.push(Word::Lit(".".into()));
            }
            // (And `DIR/{}`, DIR below a start point of the find around it: a loop's `"docs/$f"`
            // over `$(ls docs)`.)
            let finds: Vec<&shell::Wrapper> = c.wrappers.iter().filter(|w| w.program() == Some("find")).collect();
            paths.retain(|p| {
                !(under_find
                    && (p == &Word::Dyn("{}".into())
                        || matches!(p, Word::Dyn(d) if finds.iter().any(|f| shell::below_a_start(d, "{}", &f.words)))))
            });
            // (The arguments appended are find's only where find is the innermost of the
            // wrappers that append: `find docs -exec xargs -n1 cat \;` appends xargs's input,
            // red team 76.)
            let appender = c.wrappers.iter().rev().find(|w| matches!(w.program(), Some("find" | "xargs")));
            let appended_by_find = appender.is_some_and(|w| w.program() == Some("find"));
            if c.open_args
                && !appended_by_find
                && shell::reads_operands(&c.words)
                && shell::git_pathspecs_added(&c.words).is_none()
            {
                if c.args_from.is_empty() {
                    paths.push(Word::Dyn(shell::ADDED_AT_RUN_TIME.into()));
                } else {
                    // `find src | xargs grep x`: paths under find's start points.
                    paths.extend(shell::find_listing_dirs(&c.args_from));
                }
            }
            // git reads its operands from where its `-C` options lead (`git -C src diff
            // --no-index secrets/key a.rs` reads `src/secrets/key`).
            let dirs = word_dirs(c);
            let from = dirs.last().cloned().unwrap_or_else(|| c.cwd.clone());
            // A file git opens from the top of the work tree: the start where it is that top
            // (it holds `.git`, the command runs there, no `-C`), as the edge finds it.
            // (Asked only where such a file is named: what the edge looks at is not remembered.)
            let from_top = paths
                .iter()
                .any(|p| matches!(p, Word::Dyn(d) if d.starts_with(shell::FROM_GIT_TOP)) || pathspecs.contains(p));
            let at_top = from_top
                && c.cwd.as_deref() == Some("")
                && dirs.iter().all(|d| *d == c.cwd)
                && edge.is_some_and(|e| self.written_path(".git", "").is_ok_and(|g| e.exists(&g)));
            // A pathspec of a repository whose top is the workspace names a path in it: only a
            // read rule that could match a name there decides it.
            if at_top && paths.iter().any(|p| pathspecs.contains(p)) {
                paths.retain(|p| !pathspecs.contains(p));
                let read = self.model.tools.specs.values().find(|t| t.kind == ToolKind::Read);
                let held = read.and_then(|r| {
                    ["**/*", "**/.*", "*", ".*"].iter().find_map(|g| self.glob_rules(&r.name, g, Some("")))
                });
                if let Some(v) = held {
                    parts.push(part(format!("reads {}", pathspecs[0].display()), PartKind::Read, v));
                }
            }
            let paths = paths.into_iter().map(|p| match &p {
                Word::Dyn(d) if at_top => {
                    d.strip_prefix(shell::FROM_GIT_TOP).map_or(p.clone(), |r| Word::Lit(r.into()))
                }
                _ => p,
            });
            let reads = paths.map(|p| (p, from.clone()));
            for (path, dir) in reads.chain(wrapper_reads.map(|p| (p, c.cwd.clone()))) {
                if let Some(v) = self.decide_read(&path, dir.as_deref(), ctx, session) {
                    parts.push(part(format!("reads {}", path.display()), PartKind::Read, v));
                }
            }
        }
        // (A call a deny rule already denies needs no scan: its answer is final.)
        if !unseen && !parts.iter().any(|p| p.decision == Verdict::Deny) {
            // (And a file name in them: it may write it, `yq -yi . .env`, `dotnet test
            // --logger "trx;LogFileName=.env"`.)
            let scanned = untabled.iter().find_map(|(t, rest, names)| {
                let program = t.split_whitespace().next().unwrap_or_default();
                if !names {
                    let rule = self.scan_unparsed(tool, rest)?;
                    let reason = format!(
                        "gate has no table of `{program}`'s options, so any of its words may name a program it runs, and they hold the words of deny rule `{rule}`"
                    );
                    return Some((t, V::new(Verdict::Deny, Layer::DenyRule, Some(&rule), reason)));
                }
                let what =
                    format!("gate has no table of `{program}`'s options, so its words may name what it runs or writes");
                Some((t, self.scan_unseen(tool, rest, &what)?))
            });
            if let Some((shown, v)) = scanned {
                parts.push(part(shown.clone(), PartKind::Command, v));
            }
        }
        if unseen && !parts.iter().any(|p| p.decision == Verdict::Deny) {
            // What runs unseen is made of the call's own text (`sed 's/.*/rm m/e'`, `x='\044(rm
            // m)'; echo "${x@P}"`, `bash /dev/fd/3 3<<EOF` with `rm m` in the document): where
            // the words of a deny rule all appear in it, that rule could match what really
            // runs, and the call is denied (issue 15: never asked for what a deny rule could
            // match; red team 43 held 30 such calls only asked).
            // And the file names in it: unseen code may write them (`awk '{f=".env"; print >
            // f}'`).
            // (With what its commands print: `printf 'r%s -rf x' m > f; sh f`, red team 62.)
            let scanned =
                std::iter::once(command).chain(a.produced.iter().map(String::as_str)).collect::<Vec<_>>().join("\n");
            if let Some(v) = self.scan_unseen(tool, &scanned, "runs code gate cannot see") {
                parts.push(part(one_line(command), PartKind::Command, v));
            } else if let Some(mut v) = self.listed_denied(&a.commands) {
                // And the names a listing in it filters by: unseen code handed them may write
                // them (red team 50: `git grep -O'sed -i ...' x -- '*.toml'` edits Cargo.toml).
                v.reason = format!("runs code gate cannot see, and {}", v.reason);
                parts.push(part(one_line(command), PartKind::Command, v));
            }
        }
        // (A loop's listings, for a redirection from `"DIR/$f"`: red team 74.)
        let listing_finds: Vec<&shell::Wrapper> =
            a.commands.iter().flat_map(|c| &c.wrappers).filter(|w| w.program() == Some("find")).collect();
        for r in &a.reads {
            // A name a loop's listing hands on, below a start point of that listing (`wc -l <
            // "docs/$name"` in `ls docs | while read -r name`): read as the listing's names
            // are, the links below its start points looked at by the edge.
            if matches!(&r.path, Word::Dyn(d) if listing_finds.iter().any(|f| shell::below_a_start(d, "{}", &f.words)))
            {
                continue;
            }
            // A listing reads the directories a glob walks, not the files it names: decided by
            // the glob's literal directory (a glob whose matches can climb out of it, or that
            // is not plain, is a read of a path only known at run time).
            let listed = match (&r.kind, &r.path) {
                (shell::WriteKind::List, Word::Dyn(d)) => shell::glob_base(d).map(Word::Lit),
                _ => None,
            };
            if let Some(v) = self.decide_read(listed.as_ref().unwrap_or(&r.path), r.cwd.as_deref(), ctx, session) {
                let shown = match r.kind {
                    shell::WriteKind::List => {
                        // Already decided as a file its command reads (`cat /etc/*`).
                        let read = format!("reads {}", r.path.display());
                        if parts.iter().any(|p| p.command == read) {
                            continue;
                        }
                        format!("lists {}", r.path.display())
                    }
                    // (`[[ -s F ]]` looks at F.)
                    shell::WriteKind::Tee => format!("reads {}", r.path.display()),
                    _ => format!("< {}", r.path.display()),
                };
                parts.push(part(shown, PartKind::Read, v));
            }
        }
        let mut runtime_write = false;
        // Whether cp's DEST is a directory, as the edge finds it: only where nothing else in
        // the call writes or may change what is there (every other part allowed, no other
        // write), so that what the edge sees now is what cp meets.
        let dirs = edge.filter(|_| {
            a.unknown.is_empty()
                && parts.iter().all(|p| p.decision == Verdict::Allow)
                && a.writes.iter().all(|w| {
                    matches!(w.kind, shell::WriteKind::Onto | shell::WriteKind::Into | shell::WriteKind::Moved)
                })
        });
        for w in &a.writes {
            if dirs.is_some_and(|e| self.not_copied_to(w, e)) {
                continue;
            }
            // Nothing is below a file (the edge says it is one): `git checkout -- docs/a.md`
            // writes only it.
            if w.kind == shell::WriteKind::Below && self.below_a_file(w, edge) {
                continue;
            }
            // (A directory already there: `mkdir -p /abs/ws/docs/api` makes none of the
            // workspace's parents, red team 63.)
            if w.kind == shell::WriteKind::Parent && self.is_dir_now(w, edge) {
                continue;
            }
            let mut v = self.decide_write(w, ctx, session);
            if v.verdict == Verdict::Ask && v.layer == Layer::Analysis {
                if let Some(found) = self.found_writes(w, &a, edge, ctx, session) {
                    v = found;
                }
            }
            // What mv moves is modelled where it is one file: a directory takes everything
            // below it along, under names no rule was asked about.
            if w.kind == shell::WriteKind::Moved
                && v.verdict != Verdict::Deny
                && !self.not_a_dir(w, edge)
                && !self.made_a_file(w, &a, edge)
            {
                v = self.unknown_verdict(&format!(
                    "`mv` moves `{}`, which may be a directory: what is below it moves too",
                    w.path.display()
                ));
            }
            if matches!(w.kind, shell::WriteKind::Handed | shell::WriteKind::Parent) && v.verdict == Verdict::Allow {
                continue;
            }
            runtime_write |= v.verdict == Verdict::Ask && matches!(w.path, Word::Dyn(_));
            parts.push(part(w.display(), PartKind::Write, v));
        }
        if runtime_write && !unseen {
            // A write to a path known only at run time, in a call that names a file a write
            // deny rule holds (red team 45: `find . -name Cargo.toml -exec sed -i ... {} +`,
            // `grep -rl --include=Cargo.toml x . | xargs sed -i ...`): that rule could match
            // what is really written.
            if let Some(mut v) = self.scan_unseen_writes(command) {
                v.reason =
                    format!("writes a path known only at run time, and the call names a denied file: {}", v.reason);
                parts.push(part(one_line(command), PartKind::Command, v));
            } else if let Some(v) = self.listed_denied(&a.commands) {
                parts.push(part(one_line(command), PartKind::Command, v));
            }
        }
        // The same part twice (a command walked from both directories of a `cd` that may
        // fail, or written twice): shown once, with the stricter verdict.
        let mut merged: Vec<PartDecision> = Vec::with_capacity(parts.len());
        for p in parts {
            match merged.iter_mut().find(|m| m.command == p.command && m.kind == p.kind) {
                Some(m) if p.decision > m.decision => *m = p,
                Some(_) => {}
                None => merged.push(p),
            }
        }
        let parts = merged;
        if parts.is_empty() {
            let mut d = Decision::new(Verdict::Allow, Layer::Safe, None, "the command runs nothing");
            d.parts = Some(parts);
            return d;
        }
        let worst = parts.iter().map(|p| p.decision).max().unwrap_or(Verdict::Deny);
        let decider = if worst == Verdict::Allow {
            parts.iter().filter(|p| p.decision == worst).max_by_key(|p| chain_index(p.layer))
        } else {
            parts.iter().find(|p| p.decision == worst)
        };
        let Some(d) = decider else {
            return Decision::error("no part decided");
        };
        let reason = if parts.len() == 1 {
            d.reason.clone()
        } else if worst == Verdict::Allow {
            format!("all {} parts allowed", parts.len())
        } else {
            format!("`{}`: {}", d.command, d.reason)
        };
        let _ = mode;
        let mut out = Decision::new(worst, d.layer, d.rule.clone(), reason);
        out.parts = Some(parts);
        out
    }

    /// Why a `cd`/`pushd` takes the commands after it out of the workspace (or somewhere gate
    /// cannot tell): there, allowed commands would run other files (`cd /tmp; npm test`) and
    /// relative reads would reach outside.
    fn cd_leaves_workspace(&self, c: &SimpleCommand) -> Option<String> {
        // Where the walker followed it (`cd -` back, `popd` to a pushed directory).
        if let Some(Some(dir)) = &c.lands {
            return match self.resolve_path(if dir.is_empty() { "." } else { dir }, "") {
                Ok(p) if p.rel.is_some() => None,
                Ok(p) => Some(format!("`{}` leaves the workspace for {}", c.program().unwrap_or("cd"), p.abs)),
                Err(e) => Some(e),
            };
        }
        if c.program() == Some("popd") {
            return Some("`popd` goes back to a directory gate cannot see".into());
        }
        let target = c.words[1..].iter().find(|w| !w.lit().is_some_and(|s| s.starts_with('-') && s.len() > 1));
        let raw = match target {
            None => "~".to_string(),
            Some(Word::Lit(t)) if t == "-" => return Some("`cd -` goes back to a directory gate cannot see".into()),
            Some(Word::Lit(t)) => t.clone(),
            Some(Word::Dyn(d)) => return Some(format!("`cd {d}` goes to a directory known only at run time")),
        };
        let cwd = match &c.cwd {
            Some(cwd) => cwd.as_str(),
            None if !(raw.starts_with('/') || raw.starts_with('~')) => {
                return Some(format!("`cd {raw}` after a `cd` gate cannot follow"));
            }
            None => "",
        };
        match self.resolve_path(&raw, cwd) {
            Ok(p) if p.rel.is_some() => None,
            Ok(p) => Some(format!("`cd` leaves the workspace for {}", p.abs)),
            Err(e) => Some(e),
        }
    }

    /// The deny that text run unseen could meet (red team 45: a package.json script whose
    /// program is a variable, with `rm` in the call or in package.json's `config`): a deny
    /// rule of `tool` all of whose words appear in `text`, else a file name in it that a write
    /// deny rule names in any directory.
    pub(super) fn scan_deny(&self, tool: &str, text: &str, what: &str) -> Option<Decision> {
        let v = self.scan_unseen(tool, text, what)?;
        Some(Decision::new(v.verdict, v.layer, v.rule, v.reason))
    }

    /// [`Self::scan_unparsed`], else [`Self::scan_unseen_writes`], over `text` that `what`
    /// (why it runs unseen) is said of.
    fn scan_unseen(&self, tool: &str, text: &str, what: &str) -> Option<V> {
        if let Some(rule) = self.scan_unparsed(tool, text) {
            let reason = format!(
                "{what}, and the call's text holds the words of deny rule `{rule}`, which could match what runs"
            );
            return Some(V::new(Verdict::Deny, Layer::DenyRule, Some(&rule), reason));
        }
        let mut v = self.scan_unseen_writes(text)?;
        v.reason = format!("{what}, which may write a file the call names: {}", v.reason);
        Some(v)
    }

    /// The conservative scan of text the analysis refused or that runs unseen: its words as
    /// [`scan_words`] reads them; the first deny rule of this shell tool all of whose literal
    /// words appear, with its first word as a program name.
    fn scan_unparsed(&self, tool: &str, command: &str) -> Option<String> {
        let words = scan_words(command);
        let globs = scan_globs(command);
        self.model.deny.all().iter().filter(|r| r.tool == tool).find_map(|r| match &r.matcher {
            crate::policy::rules::Matcher::Words(p) => {
                let lits = p.literal_words();
                let first = lits.first()?;
                // (Or a glob's last segment that may name it: `/usr/bin/r[m]`, `"$d"/r?`, red
                // team 69.)
                let named = words.contains(*first) || globs.iter().any(|g| g.is_match(first));
                (named && lits[1..].iter().all(|w| words.contains(*w))).then(|| r.text.clone())
            }
            _ => None,
        })
    }

    /// The first file name in `command` that a deny rule of the edit tool names in any
    /// directory (`.env`, `.env.bak`), as a conservative scan of text that runs unseen.
    fn scan_unseen_writes(&self, command: &str) -> Option<V> {
        let edit = self.model.tools.edit_tool()?;
        // (A line's end separates words: red team 47's heredoc `p = 'Cargo.toml'` on a line
        // of its own.)
        // (And with escapes decoded: git's and patch's quoted names, `"b/\103argo.toml"`:
        // red team 48.)
        // (And string literals joined: awk's `print > "Cargo" ".toml"`, red team 75.)
        let cleaned: String = format!(
            "{command}\n{}\n{}\n{}",
            decode_escapes(command),
            defaults_inlined(command),
            literals_joined(command)
        )
        .chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
        let found = cleaned
            .split(|c: char| !(c.is_alphanumeric() || "_-.+/@%,~".contains(c)))
            // A value glued to a short option too (red team 45: `gawk -d.env`), after any
            // letters of a bundle (red team 62: `strace -fo.env`), and each item of a list
            // (`open('Cargo.toml', 'w')`).
            .flat_map(|w| {
                std::iter::once(w)
                    .chain(glued_values(w))
                    .chain(w.contains(',').then(|| w.split(',')).into_iter().flatten())
            })
            .filter(|w| w.contains('.') && w.len() > 1)
            .find_map(|w| self.anywhere_rules(&edit.name, w).filter(|v| v.verdict == Verdict::Deny));
        found
    }

    /// A program named by a pathname pattern (`/???/rm`, `/usr/bin/r?`, `/bin/r[m]`): what runs
    /// is a program whose name the pattern's last segment matches. When that could be the
    /// program of a deny rule, and the command with that name is denied, so is this one (a
    /// deny rule could match what really runs; SPEC's rule "deny is final" with no approval to
    /// dodge it by spelling).
    fn glob_program_denied(&self, tool: &str, c: &SimpleCommand) -> Option<V> {
        let Some(Word::Dyn(text)) = c.words.first() else { return None };
        // (One name of a glob, quoted: a loop's `"$f"` over `/usr/bin/cur[l]`, red team 67.)
        let text = shell::unquoted_glob(text);
        let plain = |ch: char| ch.is_ascii_alphanumeric() || "_./+-*?[]!^".contains(ch);
        if !text.contains(['*', '?', '[']) || !text.chars().all(plain) {
            return None;
        }
        let last = text.rsplit('/').next().unwrap_or(text);
        let pattern = crate::policy::glob::Glob::compile(last).ok()?;
        for r in self.model.deny.all().iter().filter(|r| r.tool == tool) {
            let crate::policy::rules::Matcher::Words(p) = &r.matcher else { continue };
            let Some(name) = p.first_exact() else { continue };
            if !pattern.iter().any(|g| g.is_match(name)) {
                continue;
            }
            let mut words = c.words.clone();
            words[0] = Word::Lit(name.to_string());
            if let (Some(rule), _) = strongest(&self.model.deny, tool, &[words.as_slice()]) {
                return Some(V::new(
                    Verdict::Deny,
                    Layer::DenyRule,
                    Some(&rule),
                    format!("`{text}` may run `{name}`: denied by rule `{rule}`"),
                ));
            }
        }
        None
    }

    fn unknown_verdict(&self, reason: &str) -> V {
        let mode = self.model.mode;
        if mode_verdict(mode, Risk::High) == Verdict::Deny {
            V::new(
                Verdict::Deny,
                Layer::Mode,
                None,
                format!("{reason}; mode `{}` denies what needs approval", mode_name(mode)),
            )
        } else {
            V::new(Verdict::Ask, Layer::Analysis, None, format!("{reason}: gate cannot know statically what runs"))
        }
    }

    fn decide_command(&self, tool: &str, c: &SimpleCommand, ctx: &Context, session: &RuleSet) -> V {
        let mut views: Vec<&[Word]> = c.wrappers.iter().map(|w| w.words.as_slice()).collect();
        views.push(&c.words);
        views.extend(c.aliases.iter().map(Vec::as_slice));
        let (deny, maybe_deny) = strongest(&self.model.deny, tool, &views);
        if let Some(r) = deny {
            return V::new(Verdict::Deny, Layer::DenyRule, Some(&r), format!("denied by rule `{r}`"));
        }
        if let Some(v) = self.glob_program_denied(tool, c) {
            return v;
        }
        let (ask, maybe_ask) = strongest(&self.model.ask, tool, &views);
        if let Some(r) = ask {
            return V::new(Verdict::Ask, Layer::AskRule, Some(&r), format!("rule `{r}` always asks"));
        }
        if let Some(r) = maybe_ask.filter(|_| maybe_deny.is_none()) {
            let mut v =
                self.unknown_verdict(&format!("could match the ask rule `{r}` once its run-time words are known"));
            v.rule = Some(r);
            return v;
        }
        if let Some(r) = maybe_deny {
            // Every run-time word computed from the call's own constants (`$(expr substr xrmx
            // 2 2) -f x`, red team 76): what runs is fixed by the text, gate only cannot
            // compute it; the rule could match it, so it is denied (issue 15).
            let runtime = views.iter().flat_map(|v| v.iter()).filter_map(|w| match w {
                Word::Dyn(d) => Some(d.as_str()),
                Word::Lit(_) => None,
            });
            let mut runtime = runtime.peekable();
            if runtime.peek().is_some() && runtime.all(|d| shell::computed_from_constants(d, true)) {
                return V::new(
                    Verdict::Deny,
                    Layer::DenyRule,
                    Some(&r),
                    format!(
                        "its run-time words are computed from constants in the call, and rule `{r}` could match what they spell: denied"
                    ),
                );
            }
            let mut v =
                self.unknown_verdict(&format!("could be denied by rule `{r}` once its run-time words are known"));
            v.rule = Some(r);
            return v;
        }
        if let Some(u) = &c.unknown {
            return self.unknown_verdict(u);
        }
        if matches!(c.program(), Some("cd" | "pushd" | "popd")) {
            if let Some(why) = self.cd_leaves_workspace(c) {
                let words = Subject::Command { words: &c.words, loose: false };
                if let Some(v) = self.explicit_allow(tool, &words, true, ctx, session) {
                    return v;
                }
                return V::new(Verdict::Ask, Layer::Workspace, None, why);
            }
        }
        let mut blocked_by: Option<String> = None;
        for w in c.wrappers.iter().filter(|w| w.kind == WrapperKind::Privileged) {
            if self
                .explicit_allow(tool, &Subject::Command { words: &w.words, loose: false }, true, ctx, session)
                .is_none()
            {
                blocked_by = Some(w.words.first().map(Word::display).unwrap_or_default());
                break;
            }
        }
        if blocked_by.is_none() && trusted_program(&c.words) {
            if shell::is_read_only(&c.words, c.added()) {
                let name = c.program().unwrap_or("");
                return V::new(
                    Verdict::Allow,
                    Layer::Safe,
                    None,
                    format!("`{name}` is a known-safe read-only command"),
                );
            }
            let mut words = c.words.clone();
            if c.open_args {
                words.push(Word::Dyn("(arguments added at run time)".into()));
            }
            if let Some(v) =
                self.explicit_allow(tool, &Subject::Command { words: &words, loose: false }, true, ctx, session)
            {
                return v;
            }
        }
        let mode = self.model.mode;
        let by_mode = mode_verdict(mode, Risk::High);
        let why = match blocked_by {
            Some(w) => format!("`{w}` runs it with other privileges and no rule allows that"),
            None if !trusted_program(&c.words) => format!(
                "`{}` is not a system program, so no rule allows it",
                c.words.first().map(Word::display).unwrap_or_default()
            ),
            None => "no rule matches".to_string(),
        };
        V::new(
            by_mode,
            Layer::Mode,
            None,
            format!("{why}; mode `{}` {} shell commands", mode_name(mode), verb(by_mode)),
        )
    }

    /// A file a known reading command reads, decided as a call of the read tool. `None` when
    /// that is an unremarkable read inside the workspace (the part would only add noise).
    fn decide_read(&self, path: &Word, cwd: Option<&str>, ctx: &Context, session: &RuleSet) -> Option<V> {
        let read = self.model.tools.specs.values().find(|t| t.kind == ToolKind::Read)?;
        let raw = match path {
            Word::Lit(p) => p.as_str(),
            // A process substitution's `/dev/fd/N`: a pipe, whose commands are parts of their own.
            Word::Dyn(d) if d == "<(...)" => return None,
            Word::Dyn(d) => {
                // The rules that could match one of the paths a glob expands to decide it
                // (`cat *.pem` under `Read(**/*.pem)`); then its matches lie under its literal
                // directory: decide that directory.
                if plain_glob(d) {
                    if let Some(v) = self.glob_rules(&read.name, shell::unquoted_glob(d), cwd) {
                        return Some(v);
                    }
                }
                if let Some(base) = shell::glob_base(d) {
                    return self.decide_read(&Word::Lit(base.clone()), cwd, ctx, session).map(|mut v| {
                        v.reason = format!("`{d}` names paths under `{base}`: {}", v.reason);
                        v
                    });
                }
                if let Some(v) = self.anywhere_rules(&read.name, d) {
                    return Some(v);
                }
                let mode = self.model.mode;
                if mode_verdict(mode, Risk::ReadOnly) == Verdict::Deny {
                    return None;
                }
                let why = format!("reads `{d}`, a path only known at run time that could be outside the workspace");
                return Some(V::new(Verdict::Ask, Layer::Workspace, None, why));
            }
        };
        let relative = !(raw.starts_with('/') || raw.starts_with('~'));
        let cwd = match cwd {
            Some(c) => c,
            // After a `cd` (or `pushd`, `cd -`) gate cannot follow, a relative path could be
            // anywhere: not allowed (issue 15 class 8).
            None if relative => {
                if let Some(v) = self.anywhere_rules(&read.name, raw) {
                    return Some(v);
                }
                let why = format!("after a directory change gate cannot follow, `{raw}` could be anywhere");
                return Some(V::new(Verdict::Ask, Layer::Workspace, None, why));
            }
            None => "",
        };
        let resolved = self.resolve_path(raw, cwd);
        let field = read.path.clone().unwrap_or_else(|| "file_path".into());
        let args = match &resolved {
            Ok(p) => serde_json::json!({ field: p.abs.clone() }),
            Err(_) => serde_json::json!({ field: raw }),
        };
        let v = self.decide_subject(&read.name, Some(read), &args, Some(&resolved), Risk::ReadOnly, ctx, session);
        (v.layer != Layer::Safe).then_some(v)
    }

    /// A deny or ask rule of `tool` that could match a path the shell glob `glob` expands to
    /// from `cwd`: the call is decided by it (issue 15: denied where a deny rule could match
    /// what would really run).
    fn glob_rules(&self, tool: &str, glob: &str, cwd: Option<&str>) -> Option<V> {
        let relative = !(glob.starts_with('/') || glob.starts_with('~'));
        let cwd = match cwd {
            Some(c) => c,
            None if relative => return None, // decided as unknown by the caller's base
            None => "",
        };
        // Resolved as any path is (`~`, the shell's directory, `..`); glob characters are
        // plain characters to that.
        let p = self.resolve_path(glob, cwd).ok()?;
        self.rule_could_match(tool, p.rel.as_deref(), &p.abs, |rule, verb| {
            format!("`{glob}` can expand to a path that rule `{rule}` {verb}")
        })
    }

    /// A write of a shell glob that no deny or ask rule could match, inside the workspace and
    /// unable to name gate's own files or `.git`: allowed where one allow rule on paths
    /// matches every name it can expand to.
    fn glob_allowed(&self, tool: &str, glob: &str, cwd: Option<&str>) -> Option<V> {
        let cwd = if glob.starts_with(['/', '~']) { "" } else { cwd? };
        let p = self.resolve_path(glob, cwd).ok()?;
        let rel = p.rel.as_deref()?;
        let own = self.protected.iter().flat_map(|prot| [prot.clone(), format!("{prot}/**")]);
        let reaches = |pattern: &str| {
            super::glob::Glob::compile(pattern).map_or(true, |gs| gs.iter().any(|g| g.could_match_shell(&p.abs)))
        };
        if own.chain(["**/.git".to_string(), "**/.git/**".to_string()]).any(|prot| reaches(&prot)) {
            return None;
        }
        let r = self.model.allow.contains_glob_by_path(tool, Some(rel), &p.abs)?;
        Some(V::new(
            Verdict::Allow,
            Layer::AllowRule,
            Some(&r.text),
            format!("every name `{glob}` can expand to is allowed by rule `{}`", r.text),
        ))
    }

    /// A write deny rule that could match a name a listing in the call filters by (red team
    /// 45: `find . -name '*.toml' -exec sed -i ... {} +`, `git ls-files '*.toml' | xargs sed -i`),
    /// in a call that writes paths known only at run time: the names it lists may be what is
    /// written. (Read as a shell glob: a `*` there does not match a leading dot.)
    fn listed_denied(&self, commands: &[shell::SimpleCommand]) -> Option<V> {
        let edit = self.model.tools.edit_tool()?;
        commands.iter().find_map(|c| {
            // (Every name below a directory under the top, `cd docs && find . -type f`, is
            // what the edge finds there, not any name: red team 74.)
            let below_top = c.cwd.as_deref().is_some_and(|d| {
                !d.is_empty() && !d.starts_with(['/', '~']) && !d.split('/').any(|s| s == ".." || s.contains('$'))
            });
            let everything = |p: &str| matches!(p, "**/*" | "**/.*");
            shell::listing_patterns(&c.words).into_iter().filter(|p| !(below_top && everything(p))).find_map(|p| {
                let v = self.glob_rules(&edit.name, &p, Some(c.cwd.as_deref().unwrap_or("")))?;
                let listing = c.display();
                (v.verdict == Verdict::Deny).then(|| {
                    let why = format!("writes paths known only at run time, which `{listing}` lists: {}", v.reason);
                    V { reason: why, ..v }
                })
            })
        })
    }

    /// Whether a deny or ask rule of the read tool could match `path` (absolute, a shell glob
    /// allowed: `/ws/docs/**`).
    pub(super) fn read_rule_could_match(&self, path: &str) -> bool {
        let Some(read) = self.model.tools.specs.values().find(|t| t.kind == ToolKind::Read) else { return false };
        let Ok(p) = self.resolve_path(path, "") else { return false };
        self.rule_could_match(&read.name, p.rel.as_deref(), &p.abs, |_, _| String::new()).is_some()
    }

    /// Whether a write deny or ask rule could match `path` (absolute, or a glob).
    pub(super) fn write_rule_could_match(&self, path: &str) -> bool {
        let Ok(p) = self.resolve_path(path, "") else { return false };
        self.model
            .tools
            .specs
            .values()
            .filter(|t| t.kind == ToolKind::Edit)
            .any(|t| self.rule_could_match(&t.name, p.rel.as_deref(), &p.abs, |_, _| String::new()).is_some())
    }

    /// The first deny rule of `tool`, else ask rule, that could match a path seen as `rel`
    /// (in the workspace) and `abs`, either a shell glob: its verdict, with `why(rule, verb)`
    /// as the reason (`verb`: "denies" or "asks about").
    fn rule_could_match(
        &self,
        tool: &str,
        rel: Option<&str>,
        abs: &str,
        why: impl Fn(&str, &str) -> String,
    ) -> Option<V> {
        let sets = [
            (&self.model.deny, Verdict::Deny, Layer::DenyRule, "denies"),
            (&self.model.ask, Verdict::Ask, Layer::AskRule, "asks about"),
        ];
        sets.into_iter().find_map(|(set, verdict, layer, verb)| {
            set.could_match_glob(tool, rel, abs).map(|r| V::new(verdict, layer, Some(&r.text), why(&r.text, verb)))
        })
    }

    /// A deny or ask rule of `tool` that could match `path` wherever its unknown start puts
    /// it: a path whose last name is literal (or a plain glob) after a start only known at run
    /// time (`$OLDPWD/.env`), or a relative path after a `cd` gate cannot follow (`.env`). The
    /// start may be any directory, so `**/.env*` matches what would really run (issue 15:
    /// denied where a deny rule could match). `None` when the last name is not plain.
    fn anywhere_rules(&self, tool: &str, path: &str) -> Option<V> {
        // Double quotes only group (`"$PWD/.env"`: red team 40).
        let unquoted = if path.matches('"').count() % 2 == 0 { path.replace('"', "") } else { path.to_string() };
        let tail = unquoted.rsplit_once('/').map_or(unquoted.as_str(), |(_, t)| t);
        let plain = |t: &str| {
            !t.is_empty()
                && t != "."
                && t != ".."
                && !t.contains(['$', '`', '\'', '"', '\\', '(', ')', '<', '>', '|', ';', '&', '{', '}', '~'])
                && !t.contains(char::is_whitespace)
        };
        if !plain(tail) {
            return None;
        }
        // Two made-up directories that no rule names: a rule that matches the name in both
        // matches it in any directory (`**/.env*`); one that names a directory (`src/secret`)
        // could, but need not, and the unknown place stays asked.
        let (rel, abs) = (format!(".gate-anywhere/x/{tail}"), format!("/.gate-anywhere/y/{tail}"));
        self.rule_could_match(tool, Some(&rel), &abs, |rule, verb| {
            format!("`{path}` lands in a directory only known at run time, and rule `{rule}` {verb} `{tail}` in any directory")
        })
    }

    fn decide_write(&self, w: &shell::Write, ctx: &Context, session: &RuleSet) -> V {
        let v = self.decide_write_as_written(w, ctx, session);
        if w.kind == shell::WriteKind::MakeDir {
            return self.made_dir(w, v);
        }
        if !matches!(w.kind, shell::WriteKind::Handed | shell::WriteKind::Parent) {
            return v;
        }
        // A path handed on to a program gate cannot see, or one a program may write (the
        // directories `mkdir -p` makes where missing): only where it lands outside the
        // workspace or under a deny or ask rule does it count.
        match (v.verdict, v.layer) {
            (Verdict::Deny, _)
            | (Verdict::Ask, Layer::Workspace | Layer::AskRule | Layer::DenyRule | Layer::Analysis) => v,
            _ => V::new(Verdict::Allow, Layer::Safe, None, "a path inside the workspace"),
        }
    }

    /// A write of the names a `find` hands on (`find docs -name '*.md' -exec sed -i ... {} +`,
    /// `| xargs sed -i ...`, a loop's `"$f"`; red teams 62, 63): each name below its start
    /// points that its name tests pass, as the edge finds it now (where a link leads), decided
    /// as a write: denied where one is, allowed where every one is. `None` (the write stays
    /// unknown) where a listing is not a find the edge can walk, a `{}` may be another
    /// program's (xargs's replace string), the call writes anything else, or a name has other
    /// names (hard links).
    fn found_writes(
        &self,
        w: &shell::Write,
        a: &shell::Analysis,
        edge: Option<Real>,
        ctx: &Context,
        session: &RuleSet,
    ) -> Option<V> {
        let edge = edge?;
        let Word::Dyn(d) = &w.path else { return None };
        let placeholder = Word::Dyn("{}".into());
        let added = Word::Dyn(shell::ADDED_AT_RUN_TIME.into());
        if *d != "{}" && *d != shell::ADDED_AT_RUN_TIME {
            return None;
        }
        // The listing each command that is handed names takes them from: the find around it
        // (`-exec`, a loop over its names), xargs's or a last word's feeding find; `{}` never
        // from xargs (its `-I{}` replace string).
        let mut listings: Vec<&[Word]> = Vec::new();
        // (xargs's replace string may be `{}` in a redirection too: not followed. Only where
        // it is a whole word of the command, one name a line, as a name handed without one
        // is: `xargs -I{} sed -i ... {}`, red team 76.)
        let replaces = |c: &shell::SimpleCommand, x: &shell::Wrapper| {
            x.program() == Some("xargs")
                && match shell::xargs_replace_str(&x.words) {
                    None => false,
                    Some(r) if r.is_empty() => true,
                    Some(r) => c.words.iter().any(|w| match w {
                        Word::Lit(t) => t.contains(r.as_str()) && *t != r,
                        Word::Dyn(d) => d.contains(r.as_str()),
                    }),
                }
        };
        if a.commands.iter().any(|c| c.wrappers.iter().any(|x| replaces(c, x))) {
            return None;
        }
        // A loop's variable over a listing (`for f in $(find ...); do echo >> "$f"`).
        if *d == "{}" {
            for c in &a.commands {
                for x in c.wrappers.iter().filter(|x| matches!(x.kind, WrapperKind::Listing(_))) {
                    listings.push(&x.words);
                }
            }
        }
        for c in a.commands.iter().filter(|c| c.open_args || c.words.contains(&placeholder)) {
            let appender = c.wrappers.iter().rev().find(|x| matches!(x.program(), Some("find" | "xargs")));
            match appender {
                Some(x) if x.program() == Some("find") => listings.push(&x.words),
                _ if !c.args_from.is_empty() && !c.words.contains(&placeholder) => listings.push(&c.args_from),
                _ => return None,
            }
        }
        if listings.is_empty()
            || !a.unknown.is_empty()
            || a.writes.iter().any(|o| o.path != placeholder && o.path != added)
        {
            return None;
        }
        // A deny rule the listing's own pattern names stays final (`find . -name '*.toml' |
        // xargs tee`), whatever is there now.
        if let Some(v) = self.listed_denied(&a.commands) {
            return Some(v);
        }
        let cwd = w.cwd.as_deref()?;
        let filtered = a.commands.iter().any(|c| matches!(c.program(), Some("grep" | "egrep" | "fgrep" | "rg")));
        let mut count = 0;
        for words in listings {
            let belows = shell::reads_below(words, true, true);
            if belows.is_empty() {
                return None;
            }
            for b in belows {
                let root = self.written_path(b.dir.lit()?, cwd).ok()?;
                let test = super::links::name_test(&b);
                // (`-type f` alone, no operator: no directory is handed on.)
                let files_only = words.windows(2).any(|p| p[0].lit() == Some("-type") && p[1].lit() == Some("f"))
                    && !words.iter().any(|w| matches!(w.lit(), Some("-o" | "-or" | "!" | "-not" | "," | "(")));
                let mut found: Vec<std::path::PathBuf> = edge
                    .files_below(&root, b.links)?
                    .into_iter()
                    .filter(|f| test(&root, f) && !(files_only && edge.is_dir(f) == Some(true)))
                    .collect();
                // (A start point that is a file is a name find prints.)
                if edge.is_dir(&root) != Some(true) {
                    found.push(root.clone());
                }
                for f in found {
                    let target = edge.real(&f).unwrap_or(f);
                    if edge.other_names(&target) > 0 {
                        return None;
                    }
                    let shown = target.display().to_string();
                    let one = shell::Write { path: Word::Lit(shown.clone()), kind: w.kind, cwd: Some(String::new()) };
                    let v = self.decide_write(&one, ctx, session);
                    match v.verdict {
                        Verdict::Allow => count += 1,
                        // (grep's and rg's listings are read as every file below: their
                        // pattern and filters, `-g '!*.toml'`, may leave this one out.)
                        Verdict::Deny if filtered => return None,
                        Verdict::Deny => {
                            let reason = format!("`{}` may be `{shown}`: {}", w.path.display(), v.reason);
                            return Some(V { reason, ..v });
                        }
                        Verdict::Ask => return None,
                    }
                }
            }
        }
        // (None found: what is there when it runs is not known.)
        if count == 0 {
            return None;
        }
        let reason = format!("each of the {count} names the listing finds now is written, and each is allowed");
        Some(V::new(Verdict::Allow, Layer::AllowRule, None, reason))
    }

    /// Whether cp does not write `w`, the edge says: DEST is a directory (`Onto`), or
    /// `DEST/NAME` where DEST is not one (`Into`). `false` where the edge cannot tell.
    fn not_copied_to(&self, w: &shell::Write, edge: Real) -> bool {
        let Some(cwd) = &w.cwd else { return false };
        // (`"docs/guide/*.md"`, one name of a glob below a directory named as written: what
        // cp writes below DEST where DEST is one.)
        let raw = match (&w.path, w.kind) {
            (Word::Lit(raw), _) => raw.as_str(),
            (Word::Dyn(d), shell::WriteKind::Into) => match d.strip_prefix('"').and_then(|d| d.strip_suffix('"')) {
                Some(inner) if inner.rsplit_once('/').is_some_and(|(dir, _)| !dir.contains(['*', '?', '[', '\\'])) => {
                    inner
                }
                _ => return false,
            },
            _ => return false,
        };
        let dest = match w.kind {
            shell::WriteKind::Onto => raw,
            shell::WriteKind::Into => match raw.rsplit_once('/') {
                Some((d, _)) if !d.is_empty() => d,
                _ => return false,
            },
            _ => return false,
        };
        let Ok(written) = self.written_path(dest, cwd) else { return false };
        matches!(
            (w.kind, edge.is_dir(&written)),
            (shell::WriteKind::Onto, Some(true)) | (shell::WriteKind::Into, Some(false))
        )
    }

    /// Whether `w` (`P/...`, what lies below a pathspec) is below a path the edge says is
    /// there and no directory.
    fn below_a_file(&self, w: &shell::Write, edge: Option<Real>) -> bool {
        let Word::Dyn(d) = &w.path else { return false };
        let dir: Vec<&str> = d.split('/').take_while(|s| !s.contains(['*', '?', '[', '\\'])).collect();
        let dir = dir.join("/");
        if matches!(dir.as_str(), "" | ".") {
            return false;
        }
        let path = shell::Write { path: Word::Lit(dir), kind: w.kind, cwd: w.cwd.clone() };
        self.not_a_dir(&path, edge)
    }

    /// Whether the edge finds a directory where `w` writes, now.
    fn is_dir_now(&self, w: &shell::Write, edge: Option<Real>) -> bool {
        let (Some(edge), Word::Lit(raw), Some(cwd)) = (edge, &w.path, &w.cwd) else { return false };
        let Ok(written) = self.written_path(raw, cwd) else { return false };
        edge.is_dir(&written) == Some(true)
    }

    /// Whether `w`'s path is nothing now and the call's only other writes of it make a file
    /// (`printf x > docs/tmp.md && mv docs/tmp.md docs/final.md`, red team 73): when mv runs
    /// it is that file or nothing. (Where the call makes nothing there, what is there when mv
    /// runs is not known: red team 59's `mv docs/nothere.md docs/b.md` stays asked.)
    fn made_a_file(&self, w: &shell::Write, a: &shell::Analysis, edge: Option<Real>) -> bool {
        let (Some(edge), Word::Lit(raw), Some(cwd)) = (edge, &w.path, &w.cwd) else { return false };
        let Ok(written) = self.written_path(raw, cwd) else { return false };
        let same = |o: &shell::Write| match (&o.path, &o.cwd) {
            (Word::Lit(r), Some(c)) => self.written_path(r, c).ok().as_ref() == Some(&written),
            _ => false,
        };
        let makes_file =
            |o: &shell::Write| matches!(o.kind, shell::WriteKind::Redirect | shell::WriteKind::Append) || o == w;
        !edge.exists(&written)
            && a.writes.iter().all(|o| matches!(o.path, Word::Lit(_)) && o.cwd.is_some())
            && a.writes.iter().filter(|o| same(o)).all(makes_file)
            && a.writes.iter().any(|o| same(o) && o != w)
    }

    /// Whether the edge says `w`'s path is there and no directory (links followed).
    fn not_a_dir(&self, w: &shell::Write, edge: Option<Real>) -> bool {
        let (Some(edge), Word::Lit(raw), Some(cwd)) = (edge, &w.path, &w.cwd) else { return false };
        let Ok(written) = self.written_path(raw, cwd) else { return false };
        edge.exists(&written) && edge.is_dir(&written) == Some(false)
    }

    /// A directory `mkdir` makes, which no rule names: allowed inside the workspace where an
    /// allow rule that names a directory it lies below allows files directly in it (`mkdir -p
    /// docs/guide` under `docs/**/*.md`, not under `made.txt`, which matches in any directory),
    /// so that the files the rule allows can be written there. Deny and ask
    /// rules, paths outside the workspace and gate's own files decided it already (`v`).
    fn made_dir(&self, w: &shell::Write, v: V) -> V {
        if v.verdict != Verdict::Ask || v.layer != Layer::Mode {
            return v;
        }
        let (Word::Lit(raw), Some(cwd)) = (&w.path, &w.cwd) else { return v };
        let Some(edit) = self.model.tools.edit_tool() else { return v };
        if raw.contains(['*', '?', '[', ']', '{', '}', '\\', '!']) {
            return v;
        }
        let cwd = if raw.starts_with(['/', '~']) { "" } else { cwd.as_str() };
        let Ok(ResolvedPath { abs, rel: Some(rel) }) = self.resolve_path(raw, cwd) else { return v };
        if rel.is_empty() || rel.contains(['*', '?', '[', ']', '{', '}', '\\', '!']) {
            return v;
        }
        match self.model.allow.could_match_glob_by_path(&edit.name, &format!("{rel}/*"), &format!("{abs}/*")) {
            Some(r) => V::new(
                Verdict::Allow,
                Layer::AllowRule,
                Some(&r.text),
                format!("a directory for the files rule `{}` allows", r.text),
            ),
            None => v,
        }
    }

    fn decide_write_as_written(&self, w: &shell::Write, ctx: &Context, session: &RuleSet) -> V {
        let Some(edit) = self.model.tools.edit_tool() else {
            return self.unknown_verdict("no edit tool is declared to decide shell writes by");
        };
        let raw = match &w.path {
            Word::Lit(p) => p.clone(),
            Word::Dyn(d) => {
                // A glob that can expand to a path a deny rule names is denied (`uniq .e*`
                // writes `.env`); otherwise what it writes is not known.
                // `"${DEST:-Cargo.toml}"`: where the variable is unset (or empty), its default
                // is written (red team 63); denied where that is.
                if let Some(default) = shell::parameter_default(d) {
                    let one = shell::Write { path: Word::Lit(default.to_string()), kind: w.kind, cwd: w.cwd.clone() };
                    let v = self.decide_write_as_written(&one, ctx, session);
                    if v.verdict == Verdict::Deny {
                        return V { reason: format!("`{d}` may be `{default}`: {}", v.reason), ..v };
                    }
                }
                if plain_glob(d) {
                    let glob = shell::unquoted_glob(d);
                    match self.glob_rules(&edit.name, glob, w.cwd.as_deref()) {
                        Some(v) if v.verdict == Verdict::Deny => return v,
                        Some(_) => {}
                        // Every name it can expand to is one an allow rule allows (red team
                        // 59: `sed -i ... docs/*.md` under `docs/**/*.md`).
                        None => {
                            if let Some(v) = self.glob_allowed(&edit.name, glob, w.cwd.as_deref()) {
                                return v;
                            }
                        }
                    }
                }
                if let Some(v) = self.anywhere_rules(&edit.name, d).filter(|v| v.verdict == Verdict::Deny) {
                    return v;
                }
                // A name computed from the call's own constants (`> "$(jq -rn '".en"+"v"')"`,
                // red team 76): fixed by the text; a write deny rule could match it.
                if shell::computed_from_constants(d, false) {
                    if let Some(r) = self.model.deny.all().iter().find(|r| r.tool == edit.name) {
                        let reason = format!(
                            "the write target `{d}` is computed from constants in the call, and rule `{}` could match it: denied",
                            r.text
                        );
                        return V::new(Verdict::Deny, Layer::DenyRule, Some(&r.text), reason);
                    }
                }
                return self.unknown_verdict(&format!("the write target `{d}` is only known at run time"));
            }
        };
        let cwd = match (&w.cwd, raw.starts_with('/') || raw.starts_with('~')) {
            (_, true) => String::new(),
            (Some(c), false) => c.clone(),
            (None, false) => {
                if let Some(v) = self.anywhere_rules(&edit.name, &raw).filter(|v| v.verdict == Verdict::Deny) {
                    return v;
                }
                return self.unknown_verdict(&format!("after a `cd` gate cannot follow, `{raw}` could be anywhere"));
            }
        };
        let field = edit.path.clone().unwrap_or_else(|| "file_path".into());
        let resolved = self.resolve_path(&raw, &cwd);
        let args = match &resolved {
            Ok(p) => serde_json::json!({ field: p.abs.clone() }),
            Err(_) => serde_json::json!({ field: raw }),
        };
        let name = edit.name.clone();
        self.decide_subject(&name, Some(edit), &args, Some(&resolved), Risk::Edit, ctx, session)
    }
}

/// Text with printf's and `$'...'`'s escapes decoded (`\x72\x6d`, `\044`, `\103`), a `\n`
/// or other blank escape as a space: what a program that decodes them sees.
fn decode_escapes(joined: &str) -> String {
    decode_escapes_as(joined, false)
}

/// [`decode_escapes`] as printf's `%b` and `echo -e` read them: `\0` then up to three octal
/// digits (red team 59: `printf '%b' '\0162\0155'` prints `rm`); and a prompt's `\D{TEXT}`
/// (`${x@P}`) as its text, which strftime passes through (red team 59: `\D{r}\D{m}`).
fn decode_echo_escapes(joined: &str) -> String {
    let mut unwrapped = String::with_capacity(joined.len());
    let mut rest = joined;
    while let Some(k) = rest.find("\\D{") {
        unwrapped.push_str(&rest[..k]);
        let after = &rest[k + 3..];
        match after.find('}') {
            Some(e) => {
                unwrapped.push_str(&after[..e]);
                rest = &after[e + 1..];
            }
            None => {
                unwrapped.push_str(&rest[k..]);
                rest = "";
            }
        }
    }
    unwrapped.push_str(rest);
    decode_escapes_as(&unwrapped, true)
}

fn decode_escapes_as(joined: &str, zero_prefix: bool) -> String {
    let mut decoded = String::with_capacity(joined.len());
    let mut chars = joined.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            decoded.push(c);
            continue;
        }
        match chars.next() {
            Some('n' | 't' | 'r' | 'v' | 'f') => decoded.push(' '),
            Some(x @ ('x' | '0'..='7')) => {
                let (radix, max) = if x == 'x' { (16, 2) } else { (8, 3) };
                let mut digits = if x == 'x' || (x == '0' && zero_prefix) { String::new() } else { x.to_string() };
                while digits.len() < max && chars.peek().is_some_and(|d| d.is_digit(radix)) {
                    digits.extend(chars.next());
                }
                match u32::from_str_radix(&digits, radix).ok().and_then(char::from_u32) {
                    Some(d) if d != '\0' => decoded.push(d),
                    _ => decoded.push(' '),
                }
            }
            Some(other) => decoded.push(other),
            None => {}
        }
    }
    decoded
}

/// The words of text read conservatively, as bash or a program given it may read them: twice,
/// once with quotes and backslashes removed (`r\m` is `rm`), once with the escapes that
/// printf, `echo -e` and `$'...'` decode decoded (`\n` parts words, `\x72\x6d` is `rm`). Each
/// value in a word (`c=rm`, `a:rm`, `x,rm`) and each one's last path segment (`/bin/rm`)
/// count as words too. A backslash-newline joins lines; other newlines and tabs part words.
fn scan_words(command: &str) -> std::collections::HashSet<String> {
    let joined = command.replace("\\\n", "");
    let plain: String =
        joined.chars().filter(|c| !matches!(c, '\'' | '"' | '\\') && (!c.is_control() || c.is_whitespace())).collect();
    let decoded = decode_escapes(&joined);
    let decoded: String = decoded.chars().filter(|c| !matches!(c, '\'' | '"')).collect();
    let echoed: String = decode_echo_escapes(&joined).chars().filter(|c| !matches!(c, '\'' | '"')).collect();
    // And quotes as breaks between words: a language's string prefix or call glued to one
    // (`f"rm x"`, `system"rm x"`: red team 63).
    let apart: String = joined.chars().map(|c| if matches!(c, '\'' | '"' | '\\') { ' ' } else { c }).collect();
    // And each parameter's default in its place (`"${P:-r}m -rf x"`, `${CMD-curl -s h}`: red
    // team 64).
    let defaulted: String = defaults_inlined(&plain);
    // And escapes decoded after double quotes halved their backslashes (`printf "\\162\\155"`
    // is `printf '\162\155'`: red team 66).
    let halved: String = if joined.contains("\\\\") {
        decode_escapes(&joined.replace("\\\\", "\\")).chars().filter(|c| !matches!(c, '\'' | '"')).collect()
    } else {
        String::new()
    };
    // And adjacent string literals joined, as awk, Python and C join them and `+`, `.`, `..`
    // join them in jq, JavaScript, Perl and Lua (`system("r" "m -f y")`, red team 75).
    let concatenated: String = literals_joined(&joined).chars().filter(|c| !matches!(c, '\'' | '"' | '\\')).collect();
    let mut words = std::collections::HashSet::new();
    for text in [&plain, &decoded, &echoed, &apart, &defaulted, &halved, &concatenated] {
        for w in text.split(|c: char| !(c.is_alphanumeric() || "_-.+:=/@%,".contains(c))) {
            if w.is_empty() {
                continue;
            }
            // (A value glued after a bundle's letters: `fc -erm`, `man -Prm`, red team 62.)
            for piece in std::iter::once(w).chain(w.split(['=', ':', ','])).chain(glued_values(w)) {
                words.insert(piece.to_string());
                // A make recipe's prefixes (`@rm x`, `+rm x`, `-rm x`: red team 63).
                words.insert(piece.trim_start_matches(['@', '+', '-']).to_string());
                if let Some(last) = piece.rsplit('/').next() {
                    words.insert(last.to_string());
                    // Case changed at run time (red team 45: `x=RM; ${x,,} -f m`).
                    if last.chars().any(char::is_uppercase) {
                        words.insert(last.to_lowercase());
                    }
                }
            }
        }
    }
    words
}

/// The globs in `command` whose last segment holds a letter or digit besides its wildcards
/// (`r[m]`, `cur?`, `/usr/bin/s*o`; not `*`), as matchers of a program's name, quotes
/// dropped (`"/usr/bin/"r?`).
fn scan_globs(command: &str) -> Vec<globset::GlobMatcher> {
    let mut plain: String = command.chars().filter(|c| !matches!(c, '\'' | '"' | '\\')).collect();
    // Under `shopt -s extglob`, `r@(m)`, `+(...)`, `!(...)` as `*`, which matches more; under
    // `nocaseglob`, in any case (red team 69).
    if command.contains("extglob") {
        let mut out = String::with_capacity(plain.len());
        let mut chars = plain.chars().peekable();
        while let Some(c) = chars.next() {
            if "@+*?!".contains(c) && chars.peek() == Some(&'(') {
                for d in chars.by_ref() {
                    if d == ')' {
                        break;
                    }
                }
                out.push('*');
            } else {
                out.push(c);
            }
        }
        plain = out;
    }
    let nocase = command.contains("nocaseglob");
    plain
        .split(|c: char| !(c.is_alphanumeric() || "_-.+/@%,*?[]!^".contains(c)))
        .filter(|w| w.contains(['*', '?', '[']))
        .filter_map(|w| w.rsplit('/').next())
        .filter(|seg| seg.contains(['*', '?', '[']) && seg.chars().any(char::is_alphanumeric))
        .filter_map(|seg| {
            let glob = globset::GlobBuilder::new(seg)
                .literal_separator(true)
                .backslash_escape(false)
                .case_insensitive(nocase)
                .build()
                .ok()?;
            Some(glob.compile_matcher())
        })
        .collect()
}

/// `text` with each quote that ends a string literal joined to the next one's opening quote
/// where only blanks and a concatenation operator (`+`, `.`, `..`) stand between them:
/// `"r" "m"` and `'r'+'m'` read `"rm"` and `'rm'`. (A conservative reading: an opening quote
/// may be taken for a closing one, which only joins more.)
fn literals_joined(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        out.push(c);
        i += 1;
        if !matches!(c, '"' | '\'') {
            continue;
        }
        let mut j = i;
        while j < chars.len() && matches!(chars[j], ' ' | '\t') {
            j += 1;
        }
        let op = chars[j..].iter().take_while(|ch| matches!(ch, '+' | '.')).count();
        if op > 2 {
            continue;
        }
        j += op;
        while j < chars.len() && matches!(chars[j], ' ' | '\t') {
            j += 1;
        }
        if j > i && chars.get(j) == Some(&c) {
            out.pop();
            i = j + 1;
        }
    }
    out
}

/// `text` with each `${NAME:-WORD}` (`-`, `=`, `:=`, `+`, `:+`) as its WORD: what the text is
/// where NAME is unset (or set, for `+`).
fn defaults_inlined(text: &str) -> String {
    shell::braced_rewritten(text, |after| {
        let name_len = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
        let op = &after[name_len..];
        let at = ["::-", ":-", ":=", ":+", "-", "=", "+"]
            .iter()
            .find(|o| op.starts_with(**o))
            .map(|o| name_len + o.len())
            .filter(|_| name_len > 0)?;
        // (Without its `}` the word runs to the end.)
        Some(match after[at..].find('}') {
            Some(end) => (after[at..at + end].to_string(), &after[at + end + 1..]),
            None => (after[at..].to_string(), ""),
        })
    })
}

/// What may be a value glued to a short option's word (`-fo.env`, `-erm`): the rest of the
/// word after each of its letters but the last.
fn glued_values(w: &str) -> impl Iterator<Item = &str> {
    let short = w.starts_with('-') && !w.starts_with("--");
    w.char_indices().skip(2).filter(move |_| short).map(move |(k, _)| &w[k..])
}

/// The first rule of `set` that surely matches one of the views (`.0`), else the first that
/// could match once run-time words are known (`.1`). Deny and ask rules match loosely.
fn strongest(set: &RuleSet, tool: &str, views: &[&[Word]]) -> (Option<String>, Option<String>) {
    let mut maybe = None;
    for v in views {
        match set.best_match(tool, &Subject::Command { words: v, loose: true }, true) {
            Some((Strength::Yes, r)) => return (Some(r.text.clone()), None),
            Some((Strength::Maybe, r)) => {
                maybe.get_or_insert_with(|| r.text.clone());
            }
            _ => {}
        }
    }
    (None, maybe)
}

fn part(command: String, kind: PartKind, v: V) -> PartDecision {
    PartDecision { command, decision: v.verdict, layer: v.layer, rule: v.rule, reason: v.reason, kind }
}

fn one_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("");
    let mut out: String = line.chars().take(80).collect();
    if out.len() < s.len() {
        out.push_str(" ...");
    }
    out
}

/// A tool name that is not exactly a known one (see `name_variant`).
enum NameVariant {
    /// Unknown, or exactly known: decided as written.
    Exact,
    /// A known name in other case or with spaces around it: decided as that tool.
    Folded(String),
    /// Control, invisible or look-alike characters that spell a known name (or control
    /// characters at all): denied, never approved by a flag.
    Confusable(String),
}

/// A character as it reads: invisible ones dropped, whitespace dropped, look-alikes from other
/// scripts mapped to the ASCII letter they imitate, ASCII lower-cased.
fn skeleton_char(c: char) -> Option<char> {
    if c.is_whitespace()
        || c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}')
    {
        return None;
    }
    let mapped = match c {
        'а' | 'А' | 'α' | 'Α' => 'a',
        'в' | 'В' | 'β' | 'Β' => 'b',
        'с' | 'С' | 'ϲ' => 'c',
        'ԁ' => 'd',
        'е' | 'Е' | 'ε' | 'Ε' => 'e',
        'һ' | 'Н' | 'Η' => 'h',
        'і' | 'І' | 'ι' | 'Ι' | 'ӏ' => 'i',
        'ј' | 'Ј' => 'j',
        'к' | 'К' | 'κ' | 'Κ' => 'k',
        'м' | 'М' | 'Μ' => 'm',
        'п' | 'ո' => 'n',
        'о' | 'О' | 'ο' | 'Ο' | '0' => 'o',
        'р' | 'Р' | 'ρ' | 'Ρ' => 'p',
        'ѕ' | 'Ѕ' => 's',
        'т' | 'Т' | 'τ' | 'Τ' => 't',
        'υ' | 'ս' => 'u',
        'ν' => 'v',
        'х' | 'Х' | 'χ' | 'Χ' => 'x',
        'у' | 'У' | 'γ' => 'y',
        '\u{FF21}'..='\u{FF3A}' => char::from(b'a' + (c as u32 - 0xFF21) as u8),
        '\u{FF41}'..='\u{FF5A}' => char::from(b'a' + (c as u32 - 0xFF41) as u8),
        other => other.to_ascii_lowercase(),
    };
    Some(mapped)
}

/// Whether a run-time word is only a glob (no expansion, quoting or spacing): the paths it can
/// expand to are those its pattern matches.
fn plain_glob(d: &str) -> bool {
    let d = shell::unquoted_glob(d);
    d.contains(['*', '?', '['])
        && !d.contains(['$', '`', '\'', '"', '\\', '(', ')', '<', '>', '|', ';', '&', '{', '}'])
        && !d.contains(char::is_whitespace)
}

/// Debug builds' tool that panics, so tests can prove a panic in a decision is denied.
#[allow(clippy::panic)]
fn deliberate_panic() {
    panic!("deliberate panic for tests");
}
