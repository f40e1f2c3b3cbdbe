//! host.yaml (SPEC section 3) validated into the compiled policy. Every problem is collected
//! with its line and column and a hint, so `gate validate` can print them all at once.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::{Path, PathBuf};

use super::rules::{compile_glob, Matcher, PathGlob, Rule, RuleSet, WhenGlob, WordPattern};
use super::yaml::{Node, SNode};
use super::{DoomLoop, Env, Mode, PolicyError, Verdict};

/// What kind of arguments a tool takes: how gate reads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ToolKind {
    Shell,
    Edit,
    Read,
    Other,
}

/// Risk levels of SPEC 3.4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Risk {
    ReadOnly,
    Low,
    Edit,
    High,
    Critical,
}

impl Risk {
    pub fn as_str(self) -> &'static str {
        match self {
            Risk::ReadOnly => "read-only",
            Risk::Low => "low",
            Risk::Edit => "edit",
            Risk::High => "high",
            Risk::Critical => "critical",
        }
    }
}

#[derive(Clone, Debug)]
pub struct ToolSpec {
    pub name: String,
    pub kind: ToolKind,
    pub command: Option<String>,
    pub path: Option<String>,
    pub content: Option<String>,
    pub aliases: Vec<String>,
    pub risk: Option<Risk>,
}

/// The tool table: specs by canonical name, and every alias to its canonical name.
#[derive(Clone, Debug, Default)]
pub struct Tools {
    pub specs: BTreeMap<String, ToolSpec>,
    pub alias: HashMap<String, String>,
}

impl Tools {
    pub fn canonical<'a>(&'a self, name: &'a str) -> &'a str {
        self.alias.get(name).map(String::as_str).unwrap_or(name)
    }

    pub fn spec(&self, name: &str) -> Option<&ToolSpec> {
        self.specs.get(self.canonical(name))
    }

    /// The tool that shell writes are decided as (SPEC 3.3: `write` and its aliases).
    pub fn edit_tool(&self) -> Option<&ToolSpec> {
        self.specs
            .get("write")
            .filter(|t| t.kind == ToolKind::Edit)
            .or_else(|| self.specs.values().find(|t| t.kind == ToolKind::Edit))
    }

    fn defaults() -> Tools {
        let mut t = Tools::default();
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        t.insert(ToolSpec {
            name: "bash".into(),
            kind: ToolKind::Shell,
            command: Some("command".into()),
            path: None,
            content: None,
            // Claude Code's `Monitor` runs its `command` in a shell too (tenth red team).
            aliases: s(&["Bash", "shell", "run_background", "Monitor"]),
            risk: None,
        });
        t.insert(ToolSpec {
            name: "write".into(),
            kind: ToolKind::Edit,
            command: None,
            path: Some("file_path".into()),
            content: Some("content".into()),
            aliases: s(&[
                "Write",
                "write_file",
                "edit",
                "Edit",
                "multi_edit",
                "MultiEdit",
                "NotebookEdit",
                "notebook_edit",
            ]),
            risk: None,
        });
        t.insert(ToolSpec {
            name: "read".into(),
            kind: ToolKind::Read,
            command: None,
            path: Some("file_path".into()),
            content: None,
            // (Claude Code's `NotebookRead` names its file `notebook_path`: red team 63.)
            aliases: s(&["Read", "read_file", "NotebookRead", "notebook_read"]),
            risk: None,
        });
        // The agents' own directory listings are `list_files` (red team 41: Claude Code's
        // `LS` was a tool gate did not know, asked as high risk).
        // (opencode's is `list`: red team 63.)
        for name in ["LS", "ls", "list_directory", "list_dir", "list"] {
            t.alias.insert(name.into(), "list_files".into());
        }
        for name in STATE_TOOLS {
            t.alias.insert(name.to_string(), "task".into());
        }
        t.alias.insert("AskUserQuestion".into(), "ask_user".into());
        t
    }

    fn insert(&mut self, spec: ToolSpec) {
        if let Some(old) = self.specs.remove(&spec.name) {
            for a in &old.aliases {
                self.alias.remove(a);
            }
        }
        for a in &spec.aliases {
            self.alias.insert(a.clone(), spec.name.clone());
        }
        self.alias.insert(spec.name.clone(), spec.name.clone());
        self.specs.insert(spec.name.clone(), spec);
    }
}

/// The agents' own tools for their own state: a task list, a subagent (whose calls are
/// decided one by one): the safe `task` (red team 43: Claude Code's `TodoWrite` was a tool
/// gate did not know, asked as high risk). Claude Code's `ExitPlanMode` is not among them.
const STATE_TOOLS: &[&str] = &[
    "Task",
    "TodoWrite",
    "TaskCreate",
    "TaskGet",
    "TaskList",
    "TaskUpdate",
    "TaskOutput",
    "TaskStop",
    // Claude Code's reading and stopping of a background shell it started (red team 63).
    "BashOutput",
    "KillShell",
    "KillBash",
    "write_todos",
    "todowrite",
    "todoread",
];

pub const DEFAULT_SAFE_TOOLS: &[&str] =
    &["read_file", "list_files", "get_file_info", "grep", "glob", "task", "ask_user"];

/// An example call the policy carries, checked by `gate validate`.
#[derive(Clone, Debug)]
pub struct PolicyTest {
    pub call: String,
    pub arguments: Option<serde_json::Value>,
    pub expect: Verdict,
    pub skills: Vec<String>,
    pub line: usize,
    pub column: usize,
}

/// The validated contents of host.yaml, before the chain uses them.
#[derive(Debug)]
pub struct Model {
    pub mode: Mode,
    pub workspace: PathBuf,
    pub tools: Tools,
    pub safe_tools: HashSet<String>,
    pub deny: RuleSet,
    pub ask: RuleSet,
    pub allow: RuleSet,
    pub skills: HashMap<String, RuleSet>,
    pub doom_loop: DoomLoop,
    pub audit: Option<PathBuf>,
    pub tests: Vec<PolicyTest>,
    /// Settings for particular agents (`agents:`).
    pub agents: Agents,
}

/// `agents:` in host.yaml: how gate starts particular agents.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Agents {
    /// `agents.pi.extensions: untrusted`: start pi with `--no-extensions`, so that extensions
    /// from the project (`.pi/extensions/`), the user's folder and settings never load; only
    /// gate's own extension does.
    pub pi_untrusted_extensions: bool,
}

impl Model {
    pub fn builtin(env: &Env) -> Model {
        let tools = Tools::defaults();
        Model {
            mode: Mode::Default,
            workspace: env.base_dir.clone(),
            safe_tools: DEFAULT_SAFE_TOOLS.iter().map(|s| tools.canonical(s).to_string()).collect(),
            tools,
            deny: RuleSet::default(),
            ask: RuleSet::default(),
            allow: RuleSet::default(),
            skills: HashMap::new(),
            doom_loop: DoomLoop { threshold: 3, action: Verdict::Ask },
            audit: None,
            tests: Vec::new(),
            agents: Agents::default(),
        }
    }
}

const TOP_KEYS: &[&str] = &[
    "version",
    "mode",
    "workspace",
    "tools",
    "safe_tools",
    "permissions",
    "skills",
    "doom_loop",
    "audit",
    "tests",
    "agents",
];
const AGENT_NAMES: &[&str] = &["pi"];
const PI_KEYS: &[&str] = &["extensions"];
const TOOL_KEYS: &[&str] = &["kind", "command", "path", "content", "aliases", "risk"];
const PERMISSION_KEYS: &[&str] = &["allow", "ask", "deny"];
const RULE_KEYS: &[&str] = &["tool", "when", "rule", "unless"];
const SKILL_KEYS: &[&str] = &["allow", "description"];
const DOOM_KEYS: &[&str] = &["threshold", "action"];
const TEST_KEYS: &[&str] = &["call", "arguments", "expect", "skills"];
pub const MODES: &[&str] = &["default", "acceptEdits", "plan", "dontAsk", "bypassPermissions"];

struct Ctx<'a> {
    origin: &'a str,
    errors: Vec<PolicyError>,
    home: Option<String>,
}

impl Ctx<'_> {
    fn err(&mut self, n: &SNode, message: impl Into<String>, hint: Option<String>) {
        self.errors.push(PolicyError {
            origin: self.origin.to_string(),
            line: n.line,
            column: n.column,
            message: message.into(),
            hint,
        });
    }

    fn map<'n>(&mut self, n: &'n SNode, what: &str, allowed: &[&str]) -> Vec<(&'n str, &'n SNode)> {
        let mut out = Vec::new();
        match &n.node {
            Node::Map(entries) => {
                for (k, v) in entries {
                    match k.as_str() {
                        Some(key) if allowed.is_empty() || allowed.contains(&key) => out.push((key, v)),
                        Some(key) => {
                            let hint = nearest(key, allowed)
                                .map(|s| format!("did you mean `{s}`?"))
                                .or_else(|| Some(format!("valid keys: {}", allowed.join(", "))));
                            self.err(k, format!("unknown key `{key}` in {what}"), hint);
                        }
                        None => self.err(k, format!("{what}: keys must be strings"), None),
                    }
                }
            }
            Node::Null => {}
            _ => self.err(n, format!("{what} must be a mapping, found {}", n.kind()), None),
        }
        out
    }

    fn seq<'n>(&mut self, n: &'n SNode, what: &str) -> &'n [SNode] {
        match &n.node {
            Node::Seq(v) => v,
            Node::Null => &[],
            _ => {
                self.err(n, format!("{what} must be a list, found {}", n.kind()), None);
                &[]
            }
        }
    }

    fn string(&mut self, n: &SNode, what: &str) -> Option<String> {
        match &n.node {
            Node::Str(s) => Some(s.clone()),
            _ => {
                self.err(n, format!("{what} must be a string, found {}", n.kind()), None);
                None
            }
        }
    }
}

/// The closest valid word within a small edit distance.
pub fn nearest<'a>(word: &str, candidates: &[&'a str]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|c| (levenshtein(&word.to_lowercase(), &c.to_lowercase()), *c))
        .filter(|(d, c)| *d <= 2.max(c.len() / 3))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

fn levenshtein(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != *cb)).min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}

pub fn parse_mode(s: &str) -> Option<Mode> {
    Some(match s {
        "default" => Mode::Default,
        "acceptEdits" => Mode::AcceptEdits,
        "plan" => Mode::Plan,
        "dontAsk" => Mode::DontAsk,
        "bypassPermissions" => Mode::BypassPermissions,
        _ => return None,
    })
}

fn parse_verdict(s: &str) -> Option<Verdict> {
    Some(match s {
        "allow" => Verdict::Allow,
        "ask" => Verdict::Ask,
        "deny" => Verdict::Deny,
        _ => return None,
    })
}

/// Lexically normalise an absolute path: `.` and `..` resolved, no trailing slash.
pub fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::from("/");
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::Normal(s) => out.push(s),
            _ => {}
        }
    }
    out
}

/// Build a rule from its host.yaml form (a string or `{tool, when}`).
pub fn rule_from_text(text: &str, tools: &Tools, home: Option<&str>) -> Result<Rule, (String, Option<String>)> {
    let text = text.trim();
    if text.is_empty() {
        return Err(("empty rule".into(), None));
    }
    let (name, spec) = match text.find('(') {
        Some(i) => {
            let Some(inner) = text[i + 1..].strip_suffix(')') else {
                return Err((format!("`{text}`: missing the closing `)`"), Some("write `Tool(pattern)`".into())));
            };
            (text[..i].trim(), Some(inner))
        }
        None => (text, None),
    };
    if name.is_empty() || name.contains(char::is_whitespace) {
        return Err((
            format!("`{text}`: a rule starts with a tool name"),
            Some("e.g. `Bash(git status)` or `read_file`".into()),
        ));
    }
    // `mcp__server__*` is the whole server, written as Claude Code users write it.
    let name = match name.strip_suffix("__*") {
        Some(server) if server.starts_with("mcp__") && !server[5..].contains("__") => server,
        _ => name,
    };
    let tool = tools.canonical(name).to_string();
    let Some(spec) = spec else {
        return Ok(Rule { text: text.to_string(), tool, matcher: Matcher::Any, unless: Default::default() });
    };
    let kind = tools.spec(&tool).map(|t| t.kind).unwrap_or(ToolKind::Other);
    let matcher = match kind {
        ToolKind::Shell => Matcher::Words(WordPattern::parse(spec).map_err(|e| (format!("`{text}`: {e}"), None))?),
        ToolKind::Edit | ToolKind::Read if tools.spec(&tool).and_then(|t| t.path.as_ref()).is_some() => {
            Matcher::Path(PathGlob::forms(spec, home).map_err(|e| (format!("`{text}`: {e}"), None))?)
        }
        // Claude Code's form: `WebFetch(domain:example.com)` (the domain and its subdomains).
        _ if spec.starts_with("domain:") => {
            let d = spec["domain:".len()..].trim().trim_end_matches('.').to_ascii_lowercase();
            if d.is_empty() || d.contains(|c: char| c == '/' || c == ':' || c.is_whitespace()) {
                return Err((
                    format!("`{text}`: `domain:` takes a host name"),
                    Some("e.g. `WebFetch(domain:docs.rs)`".into()),
                ));
            }
            Matcher::When(vec![("url".into(), crate::policy::rules::WhenGlob::Domain(d))])
        }
        _ => {
            return Err((
                format!("`{text}`: tool `{name}` has no command or path argument to match"),
                Some(format!("use `{{ tool: {name}, when: {{ field: glob }} }}`, or declare it under `tools:`")),
            ))
        }
    };
    Ok(Rule { text: text.to_string(), tool, matcher, unless: Default::default() })
}

/// The argument fields a tool of a known kind sends (its declared command, path and content
/// fields, and what the agents gate speaks to add: Claude Code's edit fields, pi's `edits`,
/// ranges of a read). `None`: a tool gate does not model, whose fields it cannot know.
fn sent_fields(spec: &ToolSpec) -> Option<Vec<String>> {
    let extra: &[&str] = match spec.kind {
        ToolKind::Shell => &["description", "timeout", "run_in_background", "cwd", "workdir"],
        ToolKind::Edit => &["old_string", "new_string", "replace_all", "edits", "notebook_path", "new_source"],
        ToolKind::Read => &["offset", "limit", "pages"],
        ToolKind::Other => return None,
    };
    let mut v: Vec<String> = [&spec.command, &spec.path, &spec.content].into_iter().flatten().cloned().collect();
    v.extend(extra.iter().map(|s| s.to_string()));
    v.dedup();
    Some(v)
}

fn rule_from_node(c: &mut Ctx, n: &SNode, tools: &Tools) -> Option<Rule> {
    match &n.node {
        Node::Str(s) => match rule_from_text(s, tools, c.home.as_deref()) {
            Ok(r) => Some(r),
            Err((m, h)) => {
                c.err(n, m, h);
                None
            }
        },
        Node::Map(_) => {
            let entries = c.map(n, "a rule", RULE_KEYS);
            let mut tool = None;
            let mut when = None;
            let mut pattern = None;
            let mut unless_node = None;
            for (k, v) in entries {
                match k {
                    "tool" => tool = c.string(v, "`tool`"),
                    "when" => when = Some(v),
                    "rule" => pattern = Some(v),
                    "unless" => unless_node = Some(v),
                    _ => {}
                }
            }
            if let Some(p) = pattern {
                // `{ rule: "Bash(rm -r -f *)", unless: { paths: [...], args: [...] } }`
                if tool.is_some() || when.is_some() {
                    c.err(n, "a rule mapping has either `rule` or `tool`/`when`, not both", None);
                    return None;
                }
                let mut r = rule_from_node(c, p, tools)?;
                if let Some(u) = unless_node {
                    if !matches!(r.matcher, Matcher::Words(_)) {
                        c.err(u, "`unless` applies to shell rules such as `Bash(rm *)`", None);
                        return None;
                    }
                    r.unless = unless_from_node(c, u)?;
                    r.text = format!("{} unless {}", r.text, describe_unless(&r.unless, u));
                }
                return Some(r);
            }
            if let Some(u) = unless_node {
                c.err(u, "`unless` goes with `rule:` (e.g. `{ rule: \"Bash(rm -r -f *)\", unless: { paths: [\"/tmp/**\"] } }`)", None);
                return None;
            }
            let Some(name) = tool else {
                c.err(
                    n,
                    "a rule mapping needs `tool`",
                    Some("e.g. `{ tool: write, when: { file_path: \"docs/**\" } }`".into()),
                );
                return None;
            };
            let canon = tools.canonical(&name).to_string();
            let spec = tools.spec(&canon);
            let Some(when) = when else {
                return Some(Rule {
                    text: name.clone(),
                    tool: canon,
                    matcher: Matcher::Any,
                    unless: Default::default(),
                });
            };
            let mut fields = Vec::new();
            let mut desc = Vec::new();
            let before = c.errors.len();
            for (field, glob_node) in c.map(when, "`when`", &[]) {
                if let Some(known) = spec.and_then(sent_fields).filter(|k| !k.iter().any(|f| f == field)) {
                    c.err(
                        glob_node,
                        format!("`when.{field}`: tool `{name}` never sends a field `{field}`, so this rule would match nothing"),
                        Some(format!("its fields: {}", known.join(", "))),
                    );
                    continue;
                }
                let Some(glob) = glob_node.scalar_text() else {
                    c.err(glob_node, format!("`when.{field}` must be a glob string"), None);
                    continue;
                };
                desc.push(format!("{field}: {}", serde_json::to_string(&glob).unwrap_or_default()));
                if spec.is_some_and(|s| s.kind == ToolKind::Shell && s.command.as_deref() == Some(field)) {
                    c.err(
                        glob_node,
                        format!("`when.{field}` on a shell tool would match command text by characters"),
                        Some(format!("write `{name}({glob})` to match by words")),
                    );
                    continue;
                }
                if spec.and_then(|s| s.path.as_deref()) == Some(field) {
                    match PathGlob::forms(&glob, c.home.as_deref()).and_then(|f| PathGlob::matchers(&f)) {
                        Ok(m) => fields.push((field.to_string(), WhenGlob::Path(m))),
                        Err(e) => c.err(glob_node, e, None),
                    }
                } else {
                    match compile_glob(&glob) {
                        Ok(g) => fields.push((field.to_string(), WhenGlob::Text(g.compile_matcher()))),
                        Err(e) => c.err(glob_node, e, None),
                    }
                }
            }
            if c.errors.len() > before {
                return None;
            }
            if fields.is_empty() {
                return Some(Rule {
                    text: name.clone(),
                    tool: canon,
                    matcher: Matcher::Any,
                    unless: Default::default(),
                });
            }
            Some(Rule {
                text: format!("{{ tool: {name}, when: {{ {} }} }}", desc.join(", ")),
                tool: canon,
                matcher: Matcher::When(fields),
                unless: Default::default(),
            })
        }
        _ => {
            c.err(n, format!("a rule must be a string or a mapping, found {}", n.kind()), None);
            None
        }
    }
}

/// `unless: { paths: [GLOB...], args: [WORD...] }`; `$TMPDIR` in a glob is the temporary
/// directory (`$TMPDIR`, else `/tmp`).
fn unless_from_node(c: &mut Ctx, n: &SNode) -> Option<super::rules::Unless> {
    let mut u = super::rules::Unless::default();
    let before = c.errors.len();
    for (k, v) in c.map(n, "`unless`", &["paths", "args"]) {
        for item in c.seq(v, "a list") {
            let Some(text) = c.string(item, "a string") else { continue };
            match k {
                "paths" => {
                    let tmp =
                        std::env::var("TMPDIR").ok().filter(|t| t.starts_with('/')).unwrap_or_else(|| "/tmp".into());
                    let g = text.replace("$TMPDIR", tmp.trim_end_matches('/'));
                    if !g.starts_with('/') {
                        c.err(
                            item,
                            format!("`unless.paths`: `{text}` is not absolute"),
                            Some("e.g. `/tmp/**` or `$TMPDIR/**`".into()),
                        );
                        continue;
                    }
                    match globset::GlobBuilder::new(&g).literal_separator(true).build() {
                        Ok(glob) => u.paths.push(glob.compile_matcher()),
                        Err(e) => c.err(item, format!("`unless.paths`: `{text}`: {e}"), None),
                    }
                }
                _ => u.args.push(text),
            }
        }
    }
    (c.errors.len() == before && !u.is_empty()).then_some(u)
}

fn describe_unless(u: &super::rules::Unless, n: &SNode) -> String {
    let _ = n;
    let mut parts = Vec::new();
    if !u.paths.is_empty() {
        parts.push(format!(
            "paths {}",
            u.paths.iter().map(|g| g.glob().glob().to_string()).collect::<Vec<_>>().join(", ")
        ));
    }
    if !u.args.is_empty() {
        parts.push(format!("args {}", u.args.join(", ")));
    }
    parts.join("; ")
}

fn rules(c: &mut Ctx, n: &SNode, what: &str, tools: &Tools) -> Vec<Rule> {
    c.seq(n, what).iter().filter_map(|r| rule_from_node(c, r, tools)).collect()
}

/// Validate host.yaml and compile it. All errors are returned together.
pub fn build(root: &SNode, origin: &str, env: &Env) -> Result<Model, Vec<PolicyError>> {
    let mut c = Ctx { origin, errors: Vec::new(), home: env.home.as_ref().map(|h| h.display().to_string()) };
    let mut m = Model::builtin(env);
    if matches!(root.node, Node::Null) {
        c.err(root, "the policy file is empty", Some("start from `gate init`; at least `version: 1`".into()));
        return Err(c.errors);
    }
    let top = c.map(root, "the policy", TOP_KEYS);
    let get = |k: &str| top.iter().find(|(key, _)| *key == k).map(|(_, v)| *v);

    match get("version") {
        Some(v) => match &v.node {
            Node::Int(1) => {}
            _ => c.err(
                v,
                format!("unsupported version {}", v.scalar_text().unwrap_or_else(|| v.kind().into())),
                Some("this gate reads `version: 1`".into()),
            ),
        },
        None => c.err(root, "missing `version`", Some("add `version: 1` at the top".into())),
    }
    if let Some(v) = get("mode") {
        if let Some(s) = c.string(v, "`mode`") {
            match parse_mode(&s) {
                Some(mode) => m.mode = mode,
                None => c.err(
                    v,
                    format!("unknown mode `{s}`"),
                    Some(
                        nearest(&s, MODES)
                            .map(|n| format!("did you mean `{n}`?"))
                            .unwrap_or_else(|| format!("one of: {}", MODES.join(", "))),
                    ),
                ),
            }
        }
    }
    if let Some(v) = get("workspace") {
        if let Some(s) = c.string(v, "`workspace`") {
            let p = if let Some(rest) = s.strip_prefix("~/") {
                env.home.clone().map(|h| h.join(rest)).unwrap_or_else(|| PathBuf::from(&s))
            } else {
                env.base_dir.join(&s)
            };
            m.workspace = normalize(&p);
        }
    } else {
        m.workspace = normalize(&env.base_dir);
    }
    if let Some(v) = get("tools") {
        for (name, t) in c.map(v, "`tools`", &[]) {
            let base = m.tools.specs.get(name).cloned();
            let mut spec = base.unwrap_or(ToolSpec {
                name: name.to_string(),
                kind: ToolKind::Other,
                command: None,
                path: None,
                content: None,
                aliases: Vec::new(),
                risk: None,
            });
            for (k, val) in c.map(t, &format!("tool `{name}`"), TOOL_KEYS) {
                match k {
                    "kind" => {
                        if let Some(s) = c.string(val, "`kind`") {
                            spec.kind = match s.as_str() {
                                "shell" => ToolKind::Shell,
                                "edit" => ToolKind::Edit,
                                "read" => ToolKind::Read,
                                "other" => ToolKind::Other,
                                _ => {
                                    c.err(
                                        val,
                                        format!("unknown tool kind `{s}`"),
                                        Some(
                                            nearest(&s, &["shell", "edit", "read", "other"])
                                                .map(|n| format!("did you mean `{n}`?"))
                                                .unwrap_or_else(|| "one of: shell, edit, read, other".into()),
                                        ),
                                    );
                                    spec.kind
                                }
                            }
                        }
                    }
                    "command" => spec.command = c.string(val, "`command`"),
                    "path" => spec.path = c.string(val, "`path`"),
                    "content" => spec.content = c.string(val, "`content`"),
                    "aliases" => {
                        spec.aliases = c.seq(val, "`aliases`").iter().filter_map(|a| c.string(a, "an alias")).collect()
                    }
                    "risk" => {
                        if let Some(s) = c.string(val, "`risk`") {
                            spec.risk = match s.as_str() {
                                "read-only" | "read_only" | "readonly" => Some(Risk::ReadOnly),
                                "low" => Some(Risk::Low),
                                "edit" => Some(Risk::Edit),
                                "high" => Some(Risk::High),
                                "critical" => Some(Risk::Critical),
                                _ => {
                                    c.err(
                                        val,
                                        format!("unknown risk `{s}`"),
                                        Some("one of: read-only, low, edit, high, critical".into()),
                                    );
                                    None
                                }
                            }
                        }
                    }
                    _ => {}
                }
            }
            if spec.kind == ToolKind::Shell && spec.command.is_none() {
                c.err(t, format!("shell tool `{name}` needs `command:` (the argument holding the command)"), None);
            }
            if matches!(spec.kind, ToolKind::Edit | ToolKind::Read) && spec.path.is_none() {
                c.err(t, format!("tool `{name}` needs `path:` (the argument holding the file path)"), None);
            }
            m.tools.insert(spec);
        }
    }
    if let Some(v) = get("safe_tools") {
        m.safe_tools = c.seq(v, "`safe_tools`").iter().filter_map(|t| c.string(t, "a safe tool")).collect();
        for t in c.seq(v, "`safe_tools`") {
            if let Some(name) = t.as_str() {
                if m.tools.spec(name).is_some_and(|s| matches!(s.kind, ToolKind::Shell | ToolKind::Edit)) {
                    c.err(
                        t,
                        format!("`{name}` runs commands or edits files; it cannot be on the safe list"),
                        Some("allow what you trust with rules under permissions.allow".into()),
                    );
                }
            }
        }
    }
    if let Some(v) = get("permissions") {
        for (k, list) in c.map(v, "`permissions`", PERMISSION_KEYS) {
            let r = rules(&mut c, list, &format!("permissions.{k}"), &m.tools);
            match k {
                "allow" => m.allow = RuleSet::new(r),
                "ask" => m.ask = RuleSet::new(r),
                "deny" => m.deny = RuleSet::new(r.into_iter().map(super::rules::Rule::anywhere).collect()),
                _ => {}
            }
        }
    }
    if let Some(v) = get("skills") {
        for (name, s) in c.map(v, "`skills`", &[]) {
            let mut set = Vec::new();
            for (k, val) in c.map(s, &format!("skill `{name}`"), SKILL_KEYS) {
                if k == "allow" {
                    set = rules(&mut c, val, &format!("skills.{name}.allow"), &m.tools);
                }
            }
            m.skills.insert(name.to_string(), RuleSet::new(set));
        }
    }
    if let Some(v) = get("doom_loop") {
        for (k, val) in c.map(v, "`doom_loop`", DOOM_KEYS) {
            match (k, &val.node) {
                ("threshold", Node::Int(n)) if *n >= 2 && *n <= 1_000_000 => m.doom_loop.threshold = *n as u32,
                ("threshold", _) => c.err(val, "`threshold` must be a whole number from 2 up", None),
                ("action", Node::Str(s)) if s == "ask" || s == "deny" => {
                    m.doom_loop.action = if s == "ask" { Verdict::Ask } else { Verdict::Deny }
                }
                ("action", _) => c.err(val, "`action` must be `ask` or `deny`", None),
                _ => {}
            }
        }
    }
    if let Some(v) = get("audit") {
        if let Some(s) = c.string(v, "`audit`") {
            m.audit = Some(if let Some(rest) = s.strip_prefix("~/") {
                env.home.clone().map(|h| h.join(rest)).unwrap_or_else(|| PathBuf::from(&s))
            } else {
                env.base_dir.join(&s)
            });
        }
    }
    if let Some(v) = get("tests") {
        for t in c.seq(v, "`tests`") {
            let mut call = None;
            let mut expect = None;
            let mut arguments = None;
            let mut skills = Vec::new();
            for (k, val) in c.map(t, "a test", TEST_KEYS) {
                match k {
                    "call" => call = c.string(val, "`call`"),
                    "expect" => {
                        if let Some(s) = c.string(val, "`expect`") {
                            expect = parse_verdict(&s);
                            if expect.is_none() {
                                c.err(val, format!("`expect: {s}`"), Some("one of: allow, ask, deny".into()));
                            }
                        }
                    }
                    "arguments" => arguments = Some(node_to_json(val)),
                    "skills" => skills = c.seq(val, "`skills`").iter().filter_map(|s| c.string(s, "a skill")).collect(),
                    _ => {}
                }
            }
            match (call, expect) {
                (Some(call), Some(expect)) => {
                    m.tests.push(PolicyTest { call, arguments, expect, skills, line: t.line, column: t.column })
                }
                (None, _) => c.err(
                    t,
                    "a test needs `call`",
                    Some("e.g. `{ call: \"Bash(git push origin main)\", expect: ask }`".into()),
                ),
                (_, None) if !c.errors.iter().any(|e| e.line == t.line) => {
                    c.err(t, "a test needs `expect`", Some("one of: allow, ask, deny".into()))
                }
                _ => {}
            }
        }
    }
    if let Some(v) = get("agents") {
        for (agent, settings) in c.map(v, "`agents`", AGENT_NAMES) {
            if agent == "pi" {
                for (k, val) in c.map(settings, "`agents.pi`", PI_KEYS) {
                    if k == "extensions" {
                        match val.as_str() {
                            Some("trusted") => m.agents.pi_untrusted_extensions = false,
                            Some("untrusted") => m.agents.pi_untrusted_extensions = true,
                            _ => c.err(
                                val,
                                format!(
                                    "`agents.pi.extensions` must be `trusted` or `untrusted`, found {}",
                                    val.scalar_text().map(|t| format!("`{t}`")).unwrap_or_else(|| val.kind().into())
                                ),
                                Some("`untrusted` starts pi with --no-extensions".into()),
                            ),
                        }
                    }
                }
            }
        }
    }
    // The safe list names tools by any of their names; the chain asks by canonical name.
    m.safe_tools = m.safe_tools.iter().map(|t| m.tools.canonical(t).to_string()).collect();
    if c.errors.is_empty() {
        Ok(m)
    } else {
        c.errors.sort_by_key(|e| (e.line, e.column));
        Err(c.errors)
    }
}

fn node_to_json(n: &SNode) -> serde_json::Value {
    use serde_json::Value;
    match &n.node {
        Node::Null => Value::Null,
        Node::Bool(b) => Value::Bool(*b),
        Node::Int(i) => Value::from(*i),
        Node::Float(f) => serde_json::Number::from_f64(*f).map(Value::Number).unwrap_or(Value::Null),
        Node::Str(s) => Value::String(s.clone()),
        Node::Seq(v) => Value::Array(v.iter().map(node_to_json).collect()),
        Node::Map(entries) => {
            Value::Object(entries.iter().map(|(k, v)| (k.scalar_text().unwrap_or_default(), node_to_json(v))).collect())
        }
    }
}
