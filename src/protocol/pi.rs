//! pi (`@mariozechner/pi-coding-agent`, measured on 0.73.1): the messages of gate's own pi
//! extension ([`EXTENSION`]), which forwards every `tool_call` event pi emits, and the answers
//! gate sends back. The same event is what `gate hook pi` reads on stdin.
//!
//! On the decision socket (`gate run -- pi`, one connection per pi process, JSON lines):
//! ```text
//! ext  -> gate  {"type":"hello","agent":"pi","extension":1}
//! gate -> ext   {"type":"welcome","agent":"pi","protocol":1,...}
//! ext  -> gate  {"type":"tool_call","id":"call_0_0","toolName":"bash","toolCallId":"call_0_0",
//!                "input":{"command":"ls"},"cwd":"/work","hasUI":true}
//! gate -> ext   {"type":"decision","id":"call_0_0","approved":true,...}          (native line)
//!           or  {"type":"ask","id":"call_0_0","title":"...","choices":[{"label","value"}],
//!                "timeout_ms":null}    (ask the person through pi's own dialog)
//! ext  -> gate  {"type":"answer","id":"call_0_0","choice":"once"|"session"|"always"|"deny"|null}
//! gate -> ext   {"type":"decision",...}
//! ext  -> gate  {"type":"turn_end"}                        (pi's `agent_end`: the turn is over)
//! ```
//! `gate hook pi` reads the `tool_call` object (or the same with `"type":"answer"` and a
//! `choice`, after the person answered pi's dialog) and prints [`hook_line`].
//!
//! How pi's tools are decided ([`to_call`]): `bash` as the shell tool (`command`); `write` and
//! `edit` as edits of `path` (resolved as pi resolves it, from the session's cwd), `edit`'s
//! `edits[{oldText,newText}]` as replacements the prompt diffs against the current file; `read`,
//! `ls`, `grep` and `find` as reads of `path` (the cwd when absent); any other tool by its name.
//!
//! Pure: no I/O, no policy. The state behind the socket (which connection asked, the person's
//! answers) is the caller's, reached through [`Link`].

use serde_json::{json, Map, Value};

use super::{native, strict, CallId, Decoder, Encoder, Incoming, IncomingCall, Resolution, Shown};
use crate::policy::{Call, Verdict};

/// The extension gate loads into pi (JavaScript; pi loads it with jiti, no build step).
pub const EXTENSION: &str = include_str!("pi_extension.js");

/// The line of [`EXTENSION`] that `gate hook install pi` replaces with the command that runs
/// `gate hook pi` (under `gate run` the socket is used and the line stays as it is).
pub const COMMAND_LINE: &str = "const GATE_COMMAND = null;";

/// The first line of [`EXTENSION`]: how gate recognises a file it wrote.
pub fn extension_header() -> &'static str {
    EXTENSION.lines().next().unwrap_or("")
}

/// The extension text with the command that runs `gate hook pi` (for `gate hook install pi`).
pub fn extension_with_command(argv: &[String]) -> String {
    let cmd = serde_json::to_string(argv).unwrap_or_else(|_| "null".into());
    EXTENSION.replacen(COMMAND_LINE, &format!("const GATE_COMMAND = {cmd};"), 1)
}

/// pi's built-in tools (0.73.1).
pub const BUILTIN_TOOLS: &[&str] = &["bash", "read", "edit", "write", "grep", "find", "ls"];

/// Names gate's own tool table gives a meaning (its defaults and their aliases). A tool another
/// extension registers under one of these names is not gate's tool of that name: it is decided
/// as `pi__<name>`, so that its arguments are never read as the wrong tool's.
const GATE_TOOL_NAMES: &[&str] = &[
    "bash",
    "Bash",
    "shell",
    "run_background",
    "write",
    "Write",
    "write_file",
    "edit",
    "Edit",
    "multi_edit",
    "MultiEdit",
    "read",
    "Read",
    "read_file",
    "list_files",
    "get_file_info",
    "grep",
    "glob",
    "task",
    "ask_user",
];

/// One `tool_call` event as the extension (or `gate hook pi`'s stdin) gives it.
#[derive(Clone, Debug, PartialEq)]
pub struct Event {
    /// The id to answer with: the extension's request id (pi's `toolCallId` when it has one).
    pub id: Value,
    pub tool_name: String,
    pub tool_call_id: Option<String>,
    /// The tool's arguments, as pi validated them.
    pub input: Value,
    /// The session's working directory (`ctx.cwd`): relative paths are resolved from it.
    pub cwd: Option<String>,
    /// `ctx.hasUI`: pi can show a dialog (its terminal UI, or an RPC client).
    pub has_ui: bool,
    /// `"type":"answer"` (`gate hook pi` only): the person answered pi's dialog...
    pub answered: bool,
    /// ...with this choice (none: the dialog was closed without one).
    pub choice: Option<String>,
}

/// Why an event cannot be read (with what could be read, for the answer).
#[derive(Clone, Debug, PartialEq)]
pub struct BadEvent {
    pub id: Option<Value>,
    pub tool: Option<String>,
    pub error: String,
}

/// Read an event object (`tool_call`, or `answer` when `answers` is set).
pub fn parse_event(v: Value, answers: bool) -> Result<Event, BadEvent> {
    let Value::Object(mut m) = v else {
        return Err(BadEvent { id: None, tool: None, error: "the event is not a JSON object".into() });
    };
    let tool = m.get("toolName").and_then(Value::as_str).map(str::to_string);
    let tool_call_id = m.get("toolCallId").and_then(Value::as_str).map(str::to_string);
    let id = match m.remove("id") {
        Some(v @ (Value::String(_) | Value::Number(_))) => v,
        Some(_) => {
            return Err(BadEvent { id: None, tool, error: "\"id\" is not a string or a number".into() });
        }
        None => match &tool_call_id {
            Some(t) => Value::String(t.clone()),
            None => Value::String("pi".into()),
        },
    };
    let bad = |error: String| BadEvent { id: Some(id.clone()), tool: tool.clone(), error };
    let answered = match m.get("type").and_then(Value::as_str) {
        None | Some("tool_call") => false,
        Some("answer") if answers => true,
        Some(t) => return Err(bad(format!("an event of type `{t}`, not `tool_call`"))),
    };
    let Some(tool_name) = tool.clone() else {
        return Err(bad("no `toolName` string".into()));
    };
    if tool_name.is_empty() {
        return Err(bad("an empty `toolName`".into()));
    }
    let input = match m.remove("input") {
        None | Some(Value::Null) => Value::Object(Map::new()),
        Some(v @ Value::Object(_)) => v,
        Some(_) => return Err(bad("`input` is not a JSON object".into())),
    };
    let cwd = match m.remove("cwd") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.starts_with('/') => Some(s),
        Some(_) => return Err(bad("`cwd` is not an absolute path".into())),
    };
    let has_ui = matches!(m.get("hasUI"), Some(Value::Bool(true)));
    let choice = match m.remove("choice") {
        Some(Value::String(s)) => Some(s),
        _ => None,
    };
    Ok(Event { id, tool_name, tool_call_id, input, cwd, has_ui, answered, choice })
}

/// pi's `expandPath`: a leading `@` dropped, Unicode spaces made plain spaces.
fn pi_path(raw: &str) -> String {
    let s = raw.strip_prefix('@').unwrap_or(raw);
    s.chars()
        .map(|c| match c {
            '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
            c => c,
        })
        .collect()
}

/// A path as pi's tools resolve it: `~` and `~/...` are the home directory (left for the policy,
/// which expands them the same way), absolute paths stay, anything else is relative to the
/// session's cwd (`~user` included: pi does not expand it).
fn resolve(raw: &str, cwd: Option<&str>) -> String {
    let p = pi_path(raw);
    if p == "~" || p.starts_with("~/") || p.starts_with('/') {
        return p;
    }
    match cwd {
        Some(c) if p.is_empty() || p == "." => c.to_string(),
        Some(c) => format!("{}/{p}", c.trim_end_matches('/')),
        None if p.is_empty() => ".".into(),
        None => p,
    }
}

/// Quote a word for a POSIX shell.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// The call gate decides for a pi event. `gate_cwd` is the directory gate resolves relative
/// paths in shell commands from; when the session's cwd differs, the command is decided as
/// `cd CWD && COMMAND`, which is where pi runs it.
pub fn to_call(ev: &Event, gate_cwd: Option<&str>) -> Call {
    let input = &ev.input;
    let cwd = ev.cwd.as_deref();
    let s = |k: &str| input.get(k).and_then(Value::as_str);
    let unmapped = || Call::new(format!("pi__{}", ev.tool_name), input.clone());
    let rest = |skip: &[&str], mut out: Map<String, Value>| {
        if let Value::Object(m) = input {
            for (k, v) in m {
                if !skip.contains(&k.as_str()) && !out.contains_key(k) {
                    out.insert(k.clone(), v.clone());
                }
            }
        }
        Value::Object(out)
    };
    match ev.tool_name.as_str() {
        "bash" => {
            let Some(command) = s("command") else { return unmapped() };
            let command = match (cwd, gate_cwd) {
                (Some(c), Some(g)) if c.trim_end_matches('/') != g.trim_end_matches('/') => {
                    format!("cd {} && {command}", sh_quote(c))
                }
                _ => command.to_string(),
            };
            let mut m = Map::new();
            m.insert("command".into(), json!(command));
            Call::new("bash", rest(&["command"], m))
        }
        "write" => {
            let (Some(path), Some(content)) = (s("path"), s("content")) else { return unmapped() };
            let mut m = Map::new();
            m.insert("file_path".into(), json!(resolve(path, cwd)));
            m.insert("content".into(), json!(content));
            Call::new("write", rest(&["path", "content"], m))
        }
        "edit" => {
            let Some(path) = s("path") else { return unmapped() };
            let edits = input.get("edits").and_then(Value::as_array).map(|list| {
                list.iter()
                    .map(|e| {
                        json!({
                            "old_string": e.get("oldText").cloned().unwrap_or(Value::Null),
                            "new_string": e.get("newText").cloned().unwrap_or(Value::Null),
                        })
                    })
                    .collect::<Vec<_>>()
            });
            let mut m = Map::new();
            m.insert("file_path".into(), json!(resolve(path, cwd)));
            if let Some(e) = edits {
                m.insert("edits".into(), Value::Array(e));
            }
            Call::new("edit", rest(&["path", "edits"], m))
        }
        "read" | "ls" | "grep" | "find" => {
            let path = match input.get("path") {
                None | Some(Value::Null) => resolve(".", cwd),
                Some(Value::String(p)) => resolve(p, cwd),
                Some(_) => return unmapped(),
            };
            let mut m = Map::new();
            m.insert("file_path".into(), json!(path));
            if ev.tool_name != "read" {
                m.insert("pi_tool".into(), json!(ev.tool_name));
            }
            Call::new("read", rest(&["path"], m))
        }
        name if GATE_TOOL_NAMES.contains(&name) => unmapped(),
        name => Call::new(name, input.clone()),
    }
}

/// Reaches the state behind the socket: which connection asked about which call, and the
/// person's answers given in pi's dialog. Implemented by the supervisor.
pub trait Link: Send {
    /// This connection's number (part of every call's key).
    fn conn(&self) -> u64;
    /// Answers to this connection go to `reply`.
    fn connected(&mut self, _reply: &std::sync::mpsc::Sender<Vec<u8>>) {}
    /// The extension said hello: it is loaded. True when the link answered it itself (with
    /// [`welcome_line`], at once, however busy the session is).
    fn hello(&mut self) -> bool {
        false
    }
    /// A call arrived on this connection.
    fn call(&mut self, _key: &str, _wire: &Value, _has_ui: bool) {}
    /// The person answered pi's dialog for the call `key` on this connection.
    fn answer(&mut self, _key: &str, _choice: Option<String>) {}
}

/// The key of call `id` on connection `conn`.
pub fn call_key(conn: u64, id: &Value) -> String {
    format!("pi{conn}:{id}")
}

/// Reads the extension's lines on one connection.
pub struct PiDecoder {
    pub link: Box<dyn Link>,
    /// gate's working directory (see [`to_call`]).
    pub gate_cwd: Option<String>,
}

impl PiDecoder {
    fn bad(&self, id: Option<Value>, tool: Option<String>, error: String) -> Incoming {
        let conn = self.link.conn();
        Incoming::Bad {
            id: id.map(|id| {
                let mut c = CallId::plain(id);
                c.key = call_key(conn, &c.wire);
                c
            }),
            tool,
            error,
        }
    }
}

impl Decoder for PiDecoder {
    fn line(&mut self, line: &[u8]) -> (Shown, Incoming) {
        let v = match strict::parse(line) {
            Ok(v) => v,
            Err(e) => {
                let s = native::salvage(line);
                let id = if s.kind.as_deref() == Some("tool_call") { s.id } else { None };
                return (Shown::Hidden, self.bad(id, None, format!("not valid JSON ({e})")));
            }
        };
        match v.get("type").and_then(Value::as_str) {
            Some("hello") => {
                if self.link.hello() {
                    return (Shown::Hidden, Incoming::Nothing);
                }
                let protocol = v.get("protocol").and_then(Value::as_u64);
                (Shown::Hidden, Incoming::Hello { protocol })
            }
            // pi's `agent_end`: the person's turn is over (a stopped batch, the repeat count).
            Some("turn_end") => (Shown::Hidden, Incoming::TurnEnd),
            Some("answer") => {
                let id = v.get("id").filter(|i| i.is_string() || i.is_number()).cloned();
                if let Some(id) = id {
                    let choice = v.get("choice").and_then(Value::as_str).map(str::to_string);
                    let key = call_key(self.link.conn(), &id);
                    self.link.answer(&key, choice);
                }
                (Shown::Hidden, Incoming::Nothing)
            }
            Some("tool_call") => match parse_event(v, false) {
                Ok(ev) => {
                    let call = to_call(&ev, self.gate_cwd.as_deref());
                    let key = call_key(self.link.conn(), &ev.id);
                    self.link.call(&key, &ev.id, ev.has_ui);
                    let shown = match &ev.id {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    };
                    let id = CallId { key, shown, wire: ev.id };
                    (
                        Shown::Hidden,
                        Incoming::Call(IncomingCall {
                            id,
                            call,
                            batch_remaining: Vec::new(),
                            report_only: false,
                            agent_asks: false,
                        }),
                    )
                }
                Err(b) => (Shown::Hidden, self.bad(b.id, b.tool, b.error)),
            },
            other => {
                let id = v.get("id").filter(|i| i.is_string() || i.is_number()).cloned();
                let what = other
                    .map(|t| format!("a message of type `{t}`"))
                    .unwrap_or_else(|| "a message with no type".into());
                (Shown::Hidden, self.bad(id, None, format!("{what} is not part of gate's pi protocol")))
            }
        }
    }

    fn oversize(&mut self, head: &[u8], limit: usize) -> Option<Incoming> {
        let s = native::salvage(head);
        let id = if s.kind.as_deref() == Some("tool_call") { s.id } else { None };
        Some(self.bad(id, None, format!("a line longer than --max-line ({limit} bytes)")))
    }

    fn passes_plain_lines(&self) -> bool {
        false
    }

    fn connected(&mut self, reply: &std::sync::mpsc::Sender<Vec<u8>>) {
        self.link.connected(reply);
    }
}

/// Writes gate's answers to the extension: native decision lines, and a welcome that says the
/// pi protocol is spoken here.
#[derive(Default)]
pub struct PiEncoder;

impl Encoder for PiEncoder {
    fn resolution(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<u8> {
        native::decision_line(&id.wire, &call.tool, r)
    }

    fn welcome(&mut self, mode: &Value, disabled_tools: &[String]) -> Option<Vec<u8>> {
        Some(native::ordered_line(&[
            ("type", json!("welcome")),
            ("agent", json!("pi")),
            ("protocol", json!(native::PROTOCOL_VERSION)),
            ("mode", mode.clone()),
            ("disabled_tools", json!(disabled_tools)),
        ]))
    }
}

/// The answer to the extension's hello: this gate speaks pi's protocol.
pub fn welcome_line() -> Vec<u8> {
    native::ordered_line(&[
        ("type", json!("welcome")),
        ("agent", json!("pi")),
        ("protocol", json!(native::PROTOCOL_VERSION)),
    ])
}

/// What the person can answer in pi's dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Once,
    Session,
    Always,
    Deny,
}

impl Choice {
    pub fn value(self) -> &'static str {
        match self {
            Choice::Once => "once",
            Choice::Session => "session",
            Choice::Always => "always",
            Choice::Deny => "deny",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Choice::Once => "Allow once",
            Choice::Session => "Allow for this session",
            Choice::Always => "Always allow (saved in .gate/approvals.yaml)",
            Choice::Deny => "Deny",
        }
    }

    /// A choice as the extension sends it back; anything else (a dismissed dialog) is none.
    pub fn parse(s: Option<&str>) -> Option<Choice> {
        match s? {
            "once" => Some(Choice::Once),
            "session" => Some(Choice::Session),
            "always" => Some(Choice::Always),
            "deny" => Some(Choice::Deny),
            _ => None,
        }
    }
}

/// The choices offered: "session" only where a gate keeps the session, "session" and
/// "always" only where there is a pattern to remember.
pub fn choices(remember: bool, session: bool) -> Vec<Choice> {
    let mut v = vec![Choice::Once];
    if remember && session {
        v.push(Choice::Session);
    }
    if remember {
        v.push(Choice::Always);
    }
    v.push(Choice::Deny);
    v
}

fn choices_json(list: &[Choice]) -> Value {
    Value::Array(list.iter().map(|c| json!({"label": c.label(), "value": c.value()})).collect())
}

/// The dialog's title: what the call does and why gate asks (pi's `select` has no message).
pub fn dialog_title(call: &Call, why: &str) -> String {
    let what = crate::approve::tty::summarize(&call.tool, &call.arguments);
    let edits = call.arguments.get("edits").and_then(Value::as_array).map(Vec::len);
    let extra = match edits {
        Some(n) => format!(" ({n} replacement{})", if n == 1 { "" } else { "s" }),
        None => String::new(),
    };
    format!("gate: allow {what}{extra}?\n{}", crate::approve::tty::sanitize(&cut(why, 300)))
}

fn cut(s: &str, max: usize) -> String {
    match s.char_indices().nth(max) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s.to_string(),
    }
}

/// `{"type":"ask",...}`: ask the person through pi's dialog.
pub fn ask_line(id: &Value, title: &str, list: &[Choice], timeout_ms: Option<u64>) -> Vec<u8> {
    native::ordered_line(&[
        ("type", json!("ask")),
        ("id", id.clone()),
        ("title", json!(title)),
        ("choices", choices_json(list)),
        ("timeout_ms", json!(timeout_ms)),
    ])
}

/// What `gate hook pi` prints.
pub enum HookAnswer<'a> {
    /// Allowed or denied: the resolution and the tool it was about.
    Resolved { tool: &'a str, r: &'a Resolution },
    /// To be asked in pi's dialog (or, without one, blocked by the extension).
    Ask { title: String, reason: String, choices: Vec<Choice> },
    /// gate could not decide (a broken policy, an unreadable event): blocked.
    Error(String),
}

/// The line `gate hook pi` prints: `{"decision":"allow"|"deny"|"ask","reason":...}`.
pub fn hook_line(a: &HookAnswer) -> Vec<u8> {
    match a {
        HookAnswer::Resolved { tool, r } if r.approved => native::ordered_line(&[
            ("decision", json!("allow")),
            ("reason", json!(r.reason)),
            ("source", json!(r.source())),
            ("rule", json!(r.rule())),
        ]),
        HookAnswer::Resolved { tool, r } => native::ordered_line(&[
            ("decision", json!("deny")),
            ("reason", json!(super::message_for_model(tool, r))),
            ("source", json!(r.source())),
            ("rule", json!(r.rule())),
        ]),
        HookAnswer::Ask { title, reason, choices } => native::ordered_line(&[
            ("decision", json!("ask")),
            ("reason", json!(reason)),
            ("title", json!(title)),
            ("choices", choices_json(choices)),
        ]),
        HookAnswer::Error(why) => native::ordered_line(&[
            ("decision", json!("deny")),
            ("reason", json!(format!("gate could not decide this call, so it is blocked: {why}"))),
            ("source", json!("error")),
        ]),
    }
}

/// The verdict a hook answer stands for (for tests and the audit).
pub fn hook_verdict(a: &HookAnswer) -> Verdict {
    match a {
        HookAnswer::Resolved { r, .. } if r.approved => Verdict::Allow,
        HookAnswer::Ask { .. } => Verdict::Ask,
        _ => Verdict::Deny,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(tool: &str, input: Value) -> Event {
        Event {
            id: json!("c1"),
            tool_name: tool.into(),
            tool_call_id: Some("c1".into()),
            input,
            cwd: Some("/w".into()),
            has_ui: false,
            answered: false,
            choice: None,
        }
    }

    #[test]
    fn builtins_map_to_gate_tools() {
        let c = to_call(&ev("bash", json!({"command": "rm -rf x", "timeout": 5})), Some("/w"));
        assert_eq!(c, Call::new("bash", json!({"command": "rm -rf x", "timeout": 5})));
        let c = to_call(&ev("write", json!({"path": ".env", "content": "A=1"})), Some("/w"));
        assert_eq!(c, Call::new("write", json!({"file_path": "/w/.env", "content": "A=1"})));
        let c = to_call(&ev("edit", json!({"path": "docs/a.md", "edits": [{"oldText": "a", "newText": "b"}]})), None);
        assert_eq!(
            c,
            Call::new("edit", json!({"file_path": "/w/docs/a.md", "edits": [{"old_string": "a", "new_string": "b"}]}))
        );
        let c = to_call(&ev("read", json!({"path": "/etc/passwd", "limit": 3})), None);
        assert_eq!(c, Call::new("read", json!({"file_path": "/etc/passwd", "limit": 3})));
        let c = to_call(&ev("ls", json!({})), None);
        assert_eq!(c, Call::new("read", json!({"file_path": "/w", "pi_tool": "ls"})));
        let c = to_call(&ev("grep", json!({"pattern": "x", "path": "src"})), None);
        assert_eq!(c, Call::new("read", json!({"file_path": "/w/src", "pi_tool": "grep", "pattern": "x"})));
        let c = to_call(&ev("find", json!({"pattern": "*.rs"})), None);
        assert_eq!(c.arguments["file_path"], "/w");
    }

    #[test]
    fn paths_resolve_as_pi_resolves_them() {
        let c = to_call(&ev("write", json!({"path": "@.env", "content": ""})), None);
        assert_eq!(c.arguments["file_path"], "/w/.env", "pi drops a leading @");
        let c = to_call(&ev("write", json!({"path": "a\u{00A0}b", "content": ""})), None);
        assert_eq!(c.arguments["file_path"], "/w/a b");
        let c = to_call(&ev("read", json!({"path": "~/.ssh/id_rsa"})), None);
        assert_eq!(c.arguments["file_path"], "~/.ssh/id_rsa");
        let c = to_call(&ev("read", json!({"path": "~bob/x"})), None);
        assert_eq!(c.arguments["file_path"], "/w/~bob/x");
        let c = to_call(&ev("read", json!({"path": "../out"})), None);
        assert_eq!(c.arguments["file_path"], "/w/../out", "the policy normalises `..`");
    }

    #[test]
    fn a_command_in_another_directory_is_decided_there() {
        let mut e = ev("bash", json!({"command": "rm x"}));
        e.cwd = Some("/w/it's".into());
        let c = to_call(&e, Some("/w"));
        assert_eq!(c.arguments["command"], "cd '/w/it'\\''s' && rm x");
    }

    #[test]
    fn unknown_and_unreadable_tools_are_asked_by_name() {
        assert_eq!(to_call(&ev("deploy", json!({"target": "prod"})), None).tool, "deploy");
        // A tool registered under one of gate's names is not gate's tool.
        assert_eq!(to_call(&ev("read_file", json!({"path": "x"})), None).tool, "pi__read_file");
        assert_eq!(to_call(&ev("Bash", json!({"command": "ls"})), None).tool, "pi__Bash");
        // A built-in without the arguments gate reads is not guessed at.
        assert_eq!(to_call(&ev("bash", json!({"cmd": "ls"})), None).tool, "pi__bash");
        assert_eq!(to_call(&ev("write", json!({"path": "a"})), None).tool, "pi__write");
        assert_eq!(to_call(&ev("read", json!({"path": 3})), None).tool, "pi__read");
    }

    #[test]
    fn events_are_read_strictly() {
        let ok = parse_event(
            json!({"type":"tool_call","toolName":"ls","toolCallId":"t","input":{},"cwd":"/w","hasUI":true}),
            false,
        )
        .unwrap();
        assert_eq!(ok.id, json!("t"));
        assert!(ok.has_ui);
        assert!(parse_event(json!({"toolName":"ls","cwd":"rel"}), false).is_err());
        assert!(parse_event(json!({"toolName":"ls","input":"x"}), false).is_err());
        assert!(parse_event(json!({"input":{}}), false).is_err());
        assert!(parse_event(json!({"type":"answer","toolName":"ls"}), false).is_err());
        assert_eq!(
            parse_event(json!({"type":"answer","toolName":"ls","choice":"once"}), true).unwrap().choice.as_deref(),
            Some("once")
        );
        assert!(parse_event(json!([1]), false).is_err());
    }

    struct Rec(std::sync::Arc<std::sync::Mutex<Vec<String>>>);
    impl Link for Rec {
        fn conn(&self) -> u64 {
            7
        }
        fn hello(&mut self) -> bool {
            self.0.lock().unwrap().push("hello".into());
            false
        }
        fn call(&mut self, key: &str, _wire: &Value, has_ui: bool) {
            self.0.lock().unwrap().push(format!("call {key} {has_ui}"));
        }
        fn answer(&mut self, key: &str, choice: Option<String>) {
            self.0.lock().unwrap().push(format!("answer {key} {choice:?}"));
        }
    }

    #[test]
    fn decoder_lines() {
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let mut d = PiDecoder { link: Box::new(Rec(log.clone())), gate_cwd: Some("/w".into()) };
        assert!(matches!(d.line(br#"{"type":"hello","agent":"pi"}"#).1, Incoming::Hello { .. }));
        let line = br#"{"type":"tool_call","id":"call_1","toolName":"bash","toolCallId":"call_1","input":{"command":"ls"},"cwd":"/w","hasUI":true}"#;
        match d.line(line) {
            (Shown::Hidden, Incoming::Call(c)) => {
                assert_eq!(c.id.key, "pi7:\"call_1\"");
                assert_eq!(c.id.shown, "call_1");
                assert_eq!(c.id.wire, json!("call_1"));
                assert_eq!(c.call, Call::new("bash", json!({"command": "ls"})));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(d.line(br#"{"type":"answer","id":"call_1","choice":"once"}"#).1, Incoming::Nothing);
        // Duplicate keys are refused: gate must decide what pi runs.
        match d.line(br#"{"type":"tool_call","id":"c2","toolName":"bash","input":{"command":"rm x","command":"ls"}}"#).1
        {
            Incoming::Bad { id, .. } => assert_eq!(id.unwrap().wire, json!("c2")),
            other => panic!("{other:?}"),
        }
        match d.line(br#"{"type":"tool_call","id":"c3","toolName":"bash","input":5}"#).1 {
            Incoming::Bad { id, .. } => assert_eq!(id.unwrap().key, "pi7:\"c3\""),
            other => panic!("{other:?}"),
        }
        assert!(matches!(d.line(br#"{"type":"other","id":"c4"}"#).1, Incoming::Bad { .. }));
        assert_eq!(d.line(br#"{"type":"turn_end"}"#).1, Incoming::TurnEnd);
        assert_eq!(
            *log.lock().unwrap(),
            vec!["hello", "call pi7:\"call_1\" true", "answer pi7:\"call_1\" Some(\"once\")"]
        );
    }

    #[test]
    fn hook_lines() {
        let r = Resolution::from_policy(crate::policy::Decision::new(
            Verdict::Deny,
            crate::policy::Layer::DenyRule,
            Some("Bash(rm *)".into()),
            "denied by rule `Bash(rm *)`",
        ));
        let v: Value = serde_json::from_slice(&hook_line(&HookAnswer::Resolved { tool: "bash", r: &r })).unwrap();
        assert_eq!(v["decision"], "deny");
        assert!(v["reason"].as_str().unwrap().contains("Bash(rm *)"));
        let v: Value = serde_json::from_slice(&hook_line(&HookAnswer::Error("x".into()))).unwrap();
        assert_eq!(v["decision"], "deny");
        let a = HookAnswer::Ask { title: "t".into(), reason: "r".into(), choices: choices(true, false) };
        let v: Value = serde_json::from_slice(&hook_line(&a)).unwrap();
        assert_eq!(v["choices"].as_array().unwrap().len(), 3);
        assert_eq!(hook_verdict(&a), Verdict::Ask);
    }

    #[test]
    fn the_extension_has_the_line_install_replaces() {
        assert_eq!(EXTENSION.matches(COMMAND_LINE).count(), 1);
        let t = extension_with_command(&["/bin/gate".into(), "hook".into(), "pi".into()]);
        assert!(t.contains(r#"const GATE_COMMAND = ["/bin/gate","hook","pi"];"#));
        assert!(extension_header().contains("gate"));
    }
}
