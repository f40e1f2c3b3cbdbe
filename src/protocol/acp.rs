//! The Agent Client Protocol (docs/agents/acp.md): JSON-RPC 2.0 over NDJSON between an editor
//! (Zed, ...) and an agent (`opencode acp`, `gemini --acp`, `claude-code-acp`, `codex-acp`).
//!
//! gate stands in the middle of the editor's pipe ([`Mode::Proxy`]) or is the client itself
//! ([`Mode::Client`], `--prompt`). It decides the agent's requests that act on the world:
//! `session/request_permission` (a tool call the agent asks about), `fs/write_text_file`,
//! `fs/read_text_file` and `terminal/create` (the agent asks the editor to act for it).
//! Everything else passes unchanged.
//!
//! Measured facts (realclients/acp.md): options are chosen by `kind`, never by position (Gemini
//! and claude-code-acp list `allow_always` first); codex-acp's request ids are strings, echoed
//! verbatim; Gemini puts the command only in `title`; claude-code-acp sends the diff in a
//! `tool_call` update before the request. gate never answers `allow_always`: "always" lives in
//! gate's own approvals.
//!
//! Translation only, apart from the small state the wire needs: the `tool_call` updates by
//! `toolCallId` (bounded), the lines gate holds until it has decided them, and the editor's
//! answers to requests gate forwarded.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};

use serde_json::{json, Value};

use super::client::ClientHook;
use super::{message_for_model, CallId, Decoder, Dest, Encoder, Incoming, IncomingCall, Resolution, Shown};
use crate::policy::Call;

/// Where gate stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// In the middle of an editor's pipe.
    Proxy,
    /// gate is the client (`--prompt`, or a terminal and no editor).
    Client,
}

/// Most `tool_call` entries kept (oldest dropped first).
const MAX_TRACKED: usize = 2048;

/// What the agent's decoder, the encoder and the editor approver share.
#[derive(Default)]
pub struct State {
    /// The merged `tool_call`/`tool_call_update` fields by `toolCallId`, in arrival order.
    calls: HashMap<String, Value>,
    order: std::collections::VecDeque<String>,
    /// The original line of each request being decided, by call key (forwarded on allow or
    /// to the editor on ask).
    held: HashMap<String, Vec<u8>>,
    /// The editor's own answer to a forwarded permission request, by call key.
    relay: HashMap<String, Value>,
    /// gate's verdict by `toolCallId` (client mode prints it with the call's status).
    pub verdicts: HashMap<String, String>,
    /// `toolCallId`s the agent asked about, and those it ran without asking (reported once).
    asked: std::collections::HashSet<String>,
    reported: std::collections::HashSet<String>,
}

pub type Shared = Arc<Mutex<State>>;

/// Responses gate waits for from the editor (requests it forwarded or made), by the id's JSON
/// text. The client's decoder hands them over instead of passing them to the agent.
pub type Waiting = Arc<Mutex<HashMap<String, mpsc::Sender<Value>>>>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl State {
    fn track(&mut self, update: &Value) {
        let Some(id) = update.get("toolCallId").and_then(Value::as_str) else { return };
        let entry = match self.calls.get_mut(id) {
            Some(e) => e,
            None => {
                if self.order.len() >= MAX_TRACKED {
                    if let Some(old) = self.order.pop_front() {
                        self.calls.remove(&old);
                    }
                }
                self.order.push_back(id.to_string());
                self.calls.entry(id.to_string()).or_insert_with(|| json!({}))
            }
        };
        if let (Some(e), Some(u)) = (entry.as_object_mut(), update.as_object()) {
            for (k, v) in u {
                if !v.is_null() {
                    e.insert(k.clone(), v.clone());
                }
            }
        }
    }

    /// The request's `toolCall` over what the updates said about it.
    fn merged(&self, tool_call: &Value) -> Value {
        let mut base = tool_call
            .get("toolCallId")
            .and_then(Value::as_str)
            .and_then(|id| self.calls.get(id))
            .cloned()
            .unwrap_or_else(|| json!({}));
        if let (Some(b), Some(t)) = (base.as_object_mut(), tool_call.as_object()) {
            for (k, v) in t {
                if !v.is_null() {
                    b.insert(k.clone(), v.clone());
                }
            }
        }
        base
    }

    pub fn hold(&mut self, key: &str, line: Vec<u8>) {
        self.held.insert(key.to_string(), line);
    }

    pub fn held(&self, key: &str) -> Option<Vec<u8>> {
        self.held.get(key).cloned()
    }

    pub fn set_relay(&mut self, key: &str, result: Value) {
        self.relay.insert(key.to_string(), result);
    }
}

/// The agent's short name in `acp__<agent>__<tool>`: `opencode`, `gemini`, `claude`, `codex`.
pub fn agent_name(program: &std::ffi::OsStr) -> String {
    let name = Path::new(program).file_name().and_then(|n| n.to_str()).unwrap_or("agent");
    match name {
        "claude-code-acp" => "claude".into(),
        "codex-acp" => "codex".into(),
        n => n.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect(),
    }
}

/// Is `program args` an ACP agent (`opencode acp`, `gemini --acp`, `claude-code-acp`, `codex-acp`)?
pub fn is_acp(program: &std::ffi::OsStr, args: &[std::ffi::OsString]) -> bool {
    let name = Path::new(program).file_name().and_then(|n| n.to_str()).unwrap_or("");
    match name {
        "claude-code-acp" | "codex-acp" => true,
        "opencode" => args.first().is_some_and(|a| a == "acp"),
        "gemini" => args.iter().any(|a| a == "--acp" || a == "--experimental-acp"),
        _ => false,
    }
}

/// A command line from an argv (codex-acp sends `["/bin/bash","-lc","cmd"]`): the script of a
/// shell's `-c`, else the words quoted for a shell.
pub fn command_of_argv(argv: &[Value]) -> Option<String> {
    let words: Vec<&str> = argv.iter().map(Value::as_str).collect::<Option<Vec<_>>>()?;
    let first = *words.first()?;
    let shell = Path::new(first).file_name().and_then(|n| n.to_str()).unwrap_or("");
    // Only a shell in the system directories is the shell: `/tmp/x/bash -lc ls` runs that file.
    let system = crate::shell::is_trusted_program_path(first);
    // Only bash's script is taken alone: gate reads scripts as bash does, and `sh -c`, `dash -c`
    // or `zsh -c` stay whole for the shell analysis, which knows their dialects (ninth red team:
    // `$'...'` that bash reads as one `echo` hides a command from dash).
    if system && shell == "bash" && words.len() == 3 && matches!(words[1], "-c" | "-lc") {
        return Some(words[2].to_string());
    }
    Some(words.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" "))
}

fn quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// The `Bash` arguments for a command the agent or the editor will run: its text, with the
/// environment it is given (`env`: ACP's `[{name, value}]` or an object) as assignments before
/// it, so that a variable that changes what runs (`BASH_ENV`, `LD_PRELOAD`, `PATH`) is decided
/// (ninth red team: `terminal/create` with `env` was decided without it), and its `cwd`.
fn shell_arguments(v: &Value) -> Option<Value> {
    let command = command_in(v)?;
    let mut env: Vec<(String, String)> = Vec::new();
    match v.get("env") {
        Some(Value::Array(items)) => {
            for e in items {
                let name = e.get("name").and_then(Value::as_str).unwrap_or("");
                let value = e.get("value").map(|x| x.as_str().map(str::to_string).unwrap_or_else(|| x.to_string()));
                env.push((name.to_string(), value.unwrap_or_default()));
            }
        }
        Some(Value::Object(m)) => {
            for (k, x) in m {
                env.push((k.clone(), x.as_str().map(str::to_string).unwrap_or_else(|| x.to_string())));
            }
        }
        None | Some(Value::Null) => {}
        // Something else: nothing gate can read, so nothing it allows.
        Some(other) => env.push(("(env)".into(), other.to_string())),
    }
    let prefix: String = env.iter().map(|(n, x)| format!("{n}={} ", quote(x))).collect();
    let mut a = json!({ "command": format!("{prefix}{command}") });
    if let Some(c) = v.get("cwd").and_then(Value::as_str) {
        a["cwd"] = json!(c);
    }
    Some(a)
}

fn command_in(v: &Value) -> Option<String> {
    match v.get("command")? {
        Value::String(s) if !s.trim().is_empty() => {
            // terminal/create: `command` plus `args`.
            match v.get("args").and_then(Value::as_array) {
                Some(a) if !a.is_empty() => {
                    let mut all = vec![Value::String(s.clone())];
                    all.extend(a.iter().cloned());
                    command_of_argv(&all)
                }
                _ => Some(s.clone()),
            }
        }
        Value::Array(a) => command_of_argv(a),
        _ => None,
    }
}

/// The paths a tool call touches: its `locations`, its diffs' paths, its input's path fields.
fn paths_of(tc: &Value) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut add = |p: &str| {
        if !p.is_empty() && !out.iter().any(|x| x == p) {
            out.push(p.to_string());
        }
    };
    if let Some(locs) = tc.get("locations").and_then(Value::as_array) {
        for l in locs {
            if let Some(p) = l.get("path").and_then(Value::as_str) {
                add(p);
            }
        }
    }
    if let Some(content) = tc.get("content").and_then(Value::as_array) {
        for c in content {
            if c.get("type").and_then(Value::as_str) == Some("diff") {
                if let Some(p) = c.get("path").and_then(Value::as_str) {
                    add(p);
                }
            }
        }
    }
    if let Some(input) = tc.get("rawInput") {
        for k in ["file_path", "filepath", "filePath", "path", "notebook_path", "absolute_path"] {
            if let Some(p) = input.get(k).and_then(Value::as_str) {
                add(p);
            }
        }
        if let Some(changes) = input.get("changes").and_then(Value::as_object) {
            for (p, ch) in changes {
                add(p);
                if let Some(m) = ch.get("move_path").and_then(Value::as_str) {
                    add(m);
                }
            }
        }
    }
    out
}

/// The first diff in a tool call's content: (path, oldText, newText).
fn diff_of(tc: &Value) -> Option<(String, String, String)> {
    tc.get("content")?.as_array()?.iter().find_map(|c| {
        if c.get("type").and_then(Value::as_str) != Some("diff") {
            return None;
        }
        Some((
            c.get("path")?.as_str()?.to_string(),
            c.get("oldText").and_then(Value::as_str).unwrap_or("").to_string(),
            c.get("newText")?.as_str()?.to_string(),
        ))
    })
}

/// The tool's own name, when the agent gives one: Gemini's `toolCallId` is `<tool>__<id>`.
fn tool_name(tc: &Value) -> String {
    let id = tc.get("toolCallId").and_then(Value::as_str).unwrap_or("");
    let raw = match id.split_once("__") {
        Some((t, _)) if !t.is_empty() => t.to_string(),
        _ => tc.get("kind").and_then(Value::as_str).unwrap_or("other").to_string(),
    };
    raw.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' || c == '-' { c } else { '_' }).collect()
}

/// A tool call from a `session/request_permission` (merged with its updates) as the call gate
/// decides (SPEC 5.1): execute is `Bash`, edit/delete/move an `Edit`/`Write` of their one
/// path, read and search a `Read`, fetch a `WebFetch`; anything else, or a call whose command
/// or path cannot be read, is `acp__<agent>__<tool>` (asked unless a rule names it).
pub fn to_call(agent: &str, tc: &Value, cwd: &Path) -> Call {
    let kind = tc.get("kind").and_then(Value::as_str).unwrap_or("other");
    let input = tc.get("rawInput").cloned().unwrap_or(Value::Null);
    let mk = |tool: &str, arguments: Value| Call { tool: tool.into(), arguments, annotations: None };
    let other = || {
        let mut args = json!({"title": tc.get("title").cloned().unwrap_or(Value::Null), "kind": kind});
        if !input.is_null() {
            args["input"] = input.clone();
        }
        let paths = paths_of(tc);
        if !paths.is_empty() {
            args["paths"] = json!(paths);
        }
        mk(&format!("acp__{agent}__{}", tool_name(tc)), args)
    };
    let title_command = || {
        let t = tc.get("title").and_then(Value::as_str)?.trim();
        let t = t.strip_prefix('`').and_then(|t| t.strip_suffix('`')).unwrap_or(t);
        (!t.is_empty()).then(|| t.to_string())
    };
    match kind {
        "execute" => match shell_arguments(&input) {
            Some(a) => mk("Bash", a),
            None => match title_command() {
                Some(c) => mk("Bash", json!({"command": c})),
                None => other(),
            },
        },
        "edit" | "delete" | "move" => {
            let paths = paths_of(tc);
            if paths.len() != 1 {
                return other();
            }
            let path = paths[0].clone();
            if kind == "delete" {
                return mk("Write", json!({"file_path": path, "content": "", "delete": true}));
            }
            match diff_of(tc) {
                Some((_, old, new)) if !old.is_empty() => {
                    mk("Edit", json!({"file_path": path, "old_string": old, "new_string": new}))
                }
                Some((_, _, new)) => mk("Write", json!({"file_path": path, "content": new})),
                None => match (input.get("old_string"), input.get("new_string"), input.get("content")) {
                    (Some(o), Some(n), _) => mk("Edit", json!({"file_path": path, "old_string": o, "new_string": n})),
                    (_, _, Some(c)) if c.is_string() => mk("Write", json!({"file_path": path, "content": c})),
                    _ => {
                        let mut a = json!({"file_path": path});
                        if let Some(d) = input.get("diff") {
                            a["diff"] = d.clone();
                        }
                        mk("Edit", a)
                    }
                },
            }
        }
        "read" | "search" => {
            let paths = paths_of(tc);
            match paths.len() {
                0 if kind == "search" => mk("Read", json!({"file_path": cwd.display().to_string(), "input": input})),
                1 => mk("Read", json!({"file_path": paths[0], "input": input})),
                _ => other(),
            }
        }
        "fetch" => match input.get("url").and_then(Value::as_str) {
            Some(u) => mk("WebFetch", json!({"url": u})),
            None => other(),
        },
        _ => match command_in(&input) {
            // opencode's `external_directory` asks as kind "other" with the command.
            Some(c) => mk("Bash", json!({"command": c})),
            None => other(),
        },
    }
}

/// An `fs/*` or `terminal/create` request as the call gate decides.
pub fn editor_call(method: &str, params: &Value) -> Option<Call> {
    let mk = |tool: &str, arguments: Value| Some(Call { tool: tool.into(), arguments, annotations: None });
    match method {
        "fs/write_text_file" => mk(
            "Write",
            json!({"file_path": params.get("path")?.as_str()?, "content": params.get("content")?.as_str()?}),
        ),
        "fs/read_text_file" => mk("Read", json!({"file_path": params.get("path")?.as_str()?})),
        "terminal/create" => mk("Bash", shell_arguments(params)?),
        _ => None,
    }
}

/// The agent→client requests gate decides.
pub const DECIDED: &[&str] =
    &["session/request_permission", "fs/write_text_file", "fs/read_text_file", "terminal/create"];

/// Requests that follow one gate decided, or only read the editor's state: passed on.
const FOLLOW_UPS: &[&str] = &["terminal/output", "terminal/wait_for_exit", "terminal/kill", "terminal/release"];

/// The key of a JSON-RPC id (its JSON text: the string `"1"` and the number `1` differ).
pub fn id_key(id: &Value) -> String {
    format!("acp:{id}")
}

/// Reads what the agent writes.
pub struct AgentDecoder {
    pub state: Shared,
    pub mode: Mode,
    pub agent: String,
    pub cwd: PathBuf,
    /// Client mode: what gate does with responses and updates ([`ClientHook`]).
    pub client: Option<Box<dyn ClientHook>>,
    warned_unknown: Vec<String>,
}

impl AgentDecoder {
    pub fn new(state: Shared, mode: Mode, agent: String, cwd: PathBuf) -> AgentDecoder {
        AgentDecoder { state, mode, agent, cwd, client: None, warned_unknown: Vec::new() }
    }

    fn passed(&self) -> Shown {
        match self.mode {
            Mode::Proxy => Shown::Line,
            Mode::Client => Shown::Hidden,
        }
    }
}

impl Decoder for AgentDecoder {
    fn passes_block(&mut self, block: &[u8]) -> Option<usize> {
        if self.mode == Mode::Proxy && self.client.is_none() {
            plain_session_updates(block)
        } else {
            None
        }
    }

    fn line(&mut self, line: &[u8]) -> (Shown, Incoming) {
        // Fast path (proxy): a session/update that is not about a tool call passes without
        // being parsed. (Its one `"method"` key, spelled only one way, names no request gate
        // decides.)
        if self.mode == Mode::Proxy && plain_session_update(line) && finders().tool_call.find(line).is_none() {
            return (Shown::Line, Incoming::Nothing);
        }
        let v: Value = match super::strict::parse(line) {
            Ok(v) => v,
            Err(e) => {
                return (self.passed(), Incoming::Malformed(format!("is not valid JSON ({e})")));
            }
        };
        let method = v.get("method").and_then(Value::as_str);
        let id = v.get("id").filter(|i| i.is_string() || i.is_number());
        match (method, id) {
            (Some("session/update"), None) => {
                let update = v.get("params").and_then(|p| p.get("update"));
                let mut incoming = Incoming::Nothing;
                if let Some(u) = update {
                    let kind = u.get("sessionUpdate").and_then(Value::as_str).unwrap_or("");
                    if kind == "tool_call" || kind == "tool_call_update" {
                        incoming = self.track(u);
                    }
                }
                let shown = match &mut self.client {
                    Some(c) => c.message(&v).map(Shown::Text).unwrap_or(Shown::Hidden),
                    None => self.passed(),
                };
                (shown, incoming)
            }
            (Some(m), Some(id)) if DECIDED.contains(&m) => (Shown::Hidden, self.request(m, id, &v, line)),
            (Some(m), Some(id)) => match self.mode {
                Mode::Proxy => {
                    if !FOLLOW_UPS.contains(&m) && !self.warned_unknown.iter().any(|w| w == m) {
                        self.warned_unknown.push(m.to_string());
                        eprintln!(
                            "gate: the agent sent a request gate does not decide ({}); passed to the editor as it is",
                            crate::approve::tty::sanitize(m)
                        );
                    }
                    (Shown::Line, Incoming::Nothing)
                }
                Mode::Client => (
                    Shown::Hidden,
                    Incoming::Bad {
                        id: Some(CallId {
                            key: id_key(id),
                            shown: id_shown(id),
                            wire: json!({"id": id, "kind": "unknown", "method": m}),
                        }),
                        tool: None,
                        error: format!(
                            "the agent sent a request gate's client does not offer ({m}): answered with an error"
                        ),
                    },
                ),
            },
            (Some(_), None) | (None, _) => {
                if v.get("method").is_some() && method.is_none() {
                    return (self.passed(), Incoming::Malformed("has a method that is not a string".into()));
                }
                if method.is_none() && v.get("id").is_none() {
                    return (
                        self.passed(),
                        Incoming::Malformed("is neither a JSON-RPC request, response nor notification".into()),
                    );
                }
                let shown = match &mut self.client {
                    Some(c) => c.message(&v).map(Shown::Text).unwrap_or(Shown::Hidden),
                    None => self.passed(),
                };
                (shown, Incoming::Nothing)
            }
        }
    }

    fn oversize(&mut self, head: &[u8], limit: usize) -> Option<Incoming> {
        // A decided request cut at the limit is denied (with its id when it can be read).
        let is_decided = DECIDED.iter().any(|m| memchr::memmem::find(head, format!("\"{m}\"").as_bytes()).is_some());
        if !is_decided {
            return None;
        }
        let id = find_id(head).map(|id| CallId {
            key: id_key(&id),
            shown: id_shown(&id),
            wire: json!({"id": id, "kind": "unknown"}),
        });
        Some(Incoming::Bad { id, tool: None, error: format!("a request longer than --max-line ({limit} bytes)") })
    }

    fn passes_plain_lines(&self) -> bool {
        self.mode == Mode::Proxy
    }
}

fn id_shown(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// The `"id":...` of a (possibly cut) message, when it comes before the cut.
fn find_id(head: &[u8]) -> Option<Value> {
    let at = memchr::memmem::find(head, b"\"id\":")? + 5;
    let rest = &head[at..];
    let end = rest.iter().position(|&b| b == b',' || b == b'}')?;
    serde_json::from_slice(&rest[..end]).ok().filter(|v: &Value| v.is_string() || v.is_number())
}

impl AgentDecoder {
    /// Follow a tool call's updates. One that finished (completed or failed) without a
    /// permission request ran without asking (Gemini CLI's reads, claude-code-acp's
    /// auto-allowed tools): it is reported once, for the audit log, and nothing is answered.
    fn track(&mut self, update: &Value) -> Incoming {
        let mut st = lock(&self.state);
        st.track(update);
        let Some(tcid) = update.get("toolCallId").and_then(Value::as_str) else { return Incoming::Nothing };
        let finished = matches!(update.get("status").and_then(Value::as_str), Some("completed" | "failed"));
        if !finished || st.asked.contains(tcid) || st.reported.contains(tcid) {
            return Incoming::Nothing;
        }
        if st.reported.len() >= MAX_TRACKED {
            st.reported.clear();
        }
        st.reported.insert(tcid.to_string());
        // What its updates said (each carries its toolCallId).
        let merged = st.calls.get(tcid).cloned().unwrap_or_else(|| json!({"toolCallId": tcid}));
        drop(st);
        Incoming::Call(IncomingCall {
            id: CallId {
                key: format!("acp-not-asked:{tcid}"),
                shown: tcid.to_string(),
                wire: json!({"toolCallId": tcid, "kind": "not_asked"}),
            },
            call: to_call(&self.agent, &merged, &self.cwd),
            batch_remaining: Vec::new(),
            report_only: true,
            agent_asks: false,
        })
    }

    fn request(&mut self, method: &str, id: &Value, v: &Value, line: &[u8]) -> Incoming {
        let key = id_key(id);
        let params = v.get("params").cloned().unwrap_or(Value::Null);
        let bad = |kind: &str, error: String| Incoming::Bad {
            id: Some(CallId { key: key.clone(), shown: id_shown(id), wire: json!({"id": id, "kind": kind}) }),
            tool: None,
            error,
        };
        if method == "session/request_permission" {
            let Some(tc) = params.get("toolCall").filter(|t| t.is_object()) else {
                return bad("permission", "a session/request_permission without a toolCall".into());
            };
            let Some(options) = params.get("options").and_then(Value::as_array).filter(|o| !o.is_empty()) else {
                return bad("permission", "a session/request_permission without options".into());
            };
            let mut st = lock(&self.state);
            let merged = st.merged(tc);
            let call = to_call(&self.agent, &merged, &self.cwd);
            st.hold(&key, line.to_vec());
            let tcid = tc.get("toolCallId").and_then(Value::as_str).unwrap_or("").to_string();
            if st.asked.len() >= MAX_TRACKED {
                st.asked.clear();
            }
            st.asked.insert(tcid.clone());
            drop(st);
            return Incoming::Call(IncomingCall {
                id: CallId {
                    key,
                    shown: if tcid.is_empty() { id_shown(id) } else { tcid.clone() },
                    wire: json!({"id": id, "kind": "permission", "toolCallId": tcid, "options": options,
                                 "sessionId": params.get("sessionId")}),
                },
                call,
                batch_remaining: Vec::new(),
                report_only: false,
                agent_asks: false,
            });
        }
        if self.mode == Mode::Client {
            return bad("editor", format!("the agent sent {method}, which gate's client does not offer"));
        }
        let Some(call) = editor_call(method, &params) else {
            return bad("editor", format!("a {method} request gate cannot read (missing or wrong parameters)"));
        };
        lock(&self.state).hold(&key, line.to_vec());
        Incoming::Call(IncomingCall {
            id: CallId {
                key,
                shown: id_shown(id),
                wire: json!({"id": id, "kind": "editor", "method": method, "sessionId": params.get("sessionId")}),
            },
            call,
            batch_remaining: Vec::new(),
            report_only: false,
            agent_asks: false,
        })
    }
}

/// Reads what the editor writes (proxy): its answers to requests gate forwarded or made are
/// handed to the waiting approver; everything else passes to the agent.
pub struct ClientDecoder {
    pub waiting: Waiting,
}

impl Decoder for ClientDecoder {
    fn line(&mut self, line: &[u8]) -> (Shown, Incoming) {
        // Cheap first: only a response can be for gate, and only while gate waits for one (then
        // every line is read: a "method" key somewhere must not let an answer slip past).
        let waiting = !lock(&self.waiting).is_empty();
        if waiting || finders().method.find(line).is_none() {
            if let Ok(v) = super::strict::parse(line).map_err(|_| ()).and_then(|v| match v.get("method") {
                // A request of the editor's own (ids are per direction): never an answer.
                Some(_) => Err(()),
                None => Ok(v),
            }) {
                if let Some(id) = v.get("id") {
                    let tx = lock(&self.waiting).remove(&id_key(id));
                    if let Some(tx) = tx {
                        let _ = tx.send(v);
                        return (Shown::Hidden, Incoming::Nothing);
                    }
                }
            }
        }
        (Shown::Line, Incoming::Nothing)
    }

    fn oversize(&mut self, _head: &[u8], _limit: usize) -> Option<Incoming> {
        None
    }
}

/// The searches made on every line, built once (building one costs more than a search).
struct Finders {
    method: memchr::memmem::Finder<'static>,
    tool_call: memchr::memmem::Finder<'static>,
}

fn finders() -> &'static Finders {
    static F: std::sync::OnceLock<Finders> = std::sync::OnceLock::new();
    F.get_or_init(|| Finders {
        method: memchr::memmem::Finder::new(b"\"method\""),
        tool_call: memchr::memmem::Finder::new(b"tool_call"),
    })
}

/// [`plain_session_update`] for every line of `block` (whole lines, each ending with `\n`),
/// none of them about a tool call, in a few passes over the whole block instead of several
/// per line: then how many lines.
fn plain_session_updates(block: &[u8]) -> Option<usize> {
    if !only_plain_escapes(block) || finders().tool_call.find(block).is_some() {
        return None;
    }
    let mut n = 0;
    let mut methods = finders().method.find_iter(block).peekable();
    let mut start = 0;
    for end in memchr::memchr_iter(b'\n', block) {
        let line = &block[start..end];
        // Exactly one `"method"` key in this line, and the line is an object.
        let at = methods.next_if(|&m| m < end)?;
        if methods.peek().is_some_and(|&m| m < end) || line.first() != Some(&b'{') {
            return None;
        }
        if !method_is_session_update(&block[at + 8..end]) {
            return None;
        }
        start = end + 1;
        n += 1;
    }
    (start == block.len()).then_some(n)
}

/// Only the escapes that cannot stand for a letter: `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t`.
fn only_plain_escapes(text: &[u8]) -> bool {
    let mut from = 0;
    while let Some(k) = memchr::memchr(b'\\', &text[from..]) {
        match text.get(from + k + 1) {
            Some(b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't') => from += k + 2,
            _ => return false,
        }
    }
    true
}

/// After a `"method"` key: `: "session/update"`.
fn method_is_session_update(rest: &[u8]) -> bool {
    let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    let Some(rest) = rest.strip_prefix(b":") else { return false };
    let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    rest.starts_with(b"\"session/update\"")
}

/// Is this line, without parsing it, certainly a `session/update` and nothing else? Its only
/// `"method"` key says so literally, and it holds no escape that could spell a key or a method
/// another way (`\u006d...`, `session\/request_permission`, or one a lenient reader takes as
/// the letter, `\m`): only `\"`, `\\`, `\b`, `\f`, `\n`, `\r` and `\t`. Anything less certain is
/// parsed.
fn plain_session_update(line: &[u8]) -> bool {
    if !only_plain_escapes(line) {
        return false;
    }
    let mut methods = finders().method.find_iter(line);
    let Some(at) = methods.next() else { return false };
    methods.next().is_none() && method_is_session_update(&line[at + 8..])
}

fn line_of(v: &Value) -> Vec<u8> {
    let mut out = serde_json::to_vec(v).unwrap_or_default();
    out.push(b'\n');
    out
}

/// The option of `kind` among a request's options.
pub fn option_of<'a>(options: &'a Value, kind: &str) -> Option<&'a Value> {
    options.as_array()?.iter().find(|o| o.get("kind").and_then(Value::as_str) == Some(kind))?.get("optionId")
}

/// Writes gate's answers.
pub struct AcpEncoder {
    pub state: Shared,
}

impl AcpEncoder {
    fn permission(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<u8> {
        let wid = id.wire.get("id").cloned().unwrap_or(Value::Null);
        let options = id.wire.get("options").cloned().unwrap_or(Value::Null);
        let relay = lock(&self.state).relay.remove(&id.key);
        let outcome = if r.approved {
            match option_of(&options, "allow_once") {
                Some(o) => json!({"outcome": "selected", "optionId": o}),
                None => {
                    eprintln!(
                        "gate: the agent offered no allow_once option for {} (gate never answers allow_always); cancelled",
                        crate::approve::tty::sanitize(&call.tool)
                    );
                    json!({"outcome": "cancelled"})
                }
            }
        } else {
            // The editor's own rejection (or cancel) is relayed as it was given.
            let editor_reject = relay.as_ref().and_then(|res| res.get("outcome")).filter(|o| {
                let sel = o.get("outcome").and_then(Value::as_str);
                let kind_of = |oid: &Value| {
                    options
                        .as_array()
                        .and_then(|a| a.iter().find(|x| x.get("optionId") == Some(oid)))
                        .and_then(|x| x.get("kind"))
                        .and_then(Value::as_str)
                        .map(str::to_string)
                };
                match sel {
                    Some("cancelled") => true,
                    Some("selected") => o.get("optionId").and_then(kind_of).is_some_and(|k| k.starts_with("reject")),
                    _ => false,
                }
            });
            match (editor_reject, option_of(&options, "reject_once")) {
                (Some(o), _) => o.clone(),
                (None, Some(o)) => json!({"outcome": "selected", "optionId": o}),
                (None, None) => json!({"outcome": "cancelled"}),
            }
        };
        line_of(&json!({"jsonrpc": "2.0", "id": wid, "result": {"outcome": outcome}}))
    }
}

/// A JSON-RPC error answer carrying gate's reason.
pub fn error_line(id: &Value, code: i64, message: &str) -> Vec<u8> {
    line_of(&json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}))
}

impl Encoder for AcpEncoder {
    fn resolution(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<u8> {
        let wid = id.wire.get("id").cloned().unwrap_or(Value::Null);
        match id.wire.get("kind").and_then(Value::as_str) {
            Some("permission") => self.permission(id, call, r),
            Some("unknown") if id.wire.get("method").is_some() => {
                error_line(&wid, -32601, &format!("gate: {}", r.reason))
            }
            _ if r.approved => error_line(&wid, -32603, "gate: internal error (an approved call had no answer)"),
            _ => error_line(&wid, -32000, &format!("gate: {}", message_for_model(&call.tool, r))),
        }
    }

    fn routed(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<(Dest, Vec<u8>)> {
        let kind = id.wire.get("kind").and_then(Value::as_str).unwrap_or("");
        let held = lock(&self.state).held.remove(&id.key);
        {
            let tcid = id.wire.get("toolCallId").and_then(Value::as_str).unwrap_or("");
            if !tcid.is_empty() {
                let verdict = if r.approved {
                    format!("allowed ({})", r.source())
                } else {
                    format!("denied ({}: {})", r.source(), r.reason)
                };
                let mut st = lock(&self.state);
                if st.verdicts.len() > MAX_TRACKED {
                    st.verdicts.clear();
                }
                st.verdicts.insert(tcid.to_string(), verdict);
            }
        }
        if kind == "editor" && r.approved {
            // Allowed: the editor acts on the request as the agent sent it.
            return match held {
                Some(line) => {
                    let mut line = line;
                    line.push(b'\n');
                    vec![(Dest::Client, line)]
                }
                None => vec![(Dest::Reply, error_line(&id.wire["id"], -32603, "gate: the request was lost"))],
            };
        }
        vec![(Dest::Reply, self.resolution(id, call, r))]
    }
}

/// Asks the editor about a call (proxy, no flag settles it): a permission request is
/// forwarded as the agent sent it; an `fs/*` or `terminal/create` request becomes a
/// `session/request_permission` of gate's own (id `gate-N`), so the editor shows its dialog.
pub struct EditorAsk {
    pub state: Shared,
    next: u64,
}

impl EditorAsk {
    pub fn new(state: Shared) -> EditorAsk {
        EditorAsk { state, next: 0 }
    }
}

/// The options gate offers the editor in its own permission requests.
fn gate_options() -> Value {
    json!([
        {"optionId": "gate-allow-once", "name": "Allow", "kind": "allow_once"},
        {"optionId": "gate-allow-always", "name": "Always allow (stored by gate)", "kind": "allow_always"},
        {"optionId": "gate-reject", "name": "Reject", "kind": "reject_once"}
    ])
}

impl crate::protocol::client::AskClient for EditorAsk {
    fn request(&mut self, info: &crate::approve::PromptInfo) -> Result<(Vec<u8>, Value), String> {
        let wire = &info.call_id.wire;
        match wire.get("kind").and_then(Value::as_str) {
            Some("permission") => {
                let mut line = lock(&self.state).held(&info.call_id.key).ok_or("the request was lost")?;
                line.push(b'\n');
                Ok((line, wire.get("id").cloned().unwrap_or(Value::Null)))
            }
            Some("editor") => {
                self.next += 1;
                let id = json!(format!("gate-{}", self.next));
                let args = &info.call.arguments;
                let method = wire.get("method").and_then(Value::as_str).unwrap_or("");
                let path = args.get("file_path").and_then(Value::as_str);
                let (kind, title) = match method {
                    "fs/write_text_file" => ("edit", format!("Write {}", path.unwrap_or("?"))),
                    "fs/read_text_file" => ("read", format!("Read {}", path.unwrap_or("?"))),
                    _ => ("execute", args.get("command").and_then(Value::as_str).unwrap_or("?").to_string()),
                };
                let mut tc = json!({"toolCallId": id, "title": title, "kind": kind, "status": "pending",
                                    "rawInput": args});
                if let Some(p) = path {
                    tc["locations"] = json!([{"path": p}]);
                }
                if method == "fs/write_text_file" {
                    let old = match path.map(|p| crate::approve::FileNow::read(Path::new(p))) {
                        Some(crate::approve::FileNow::Text(t)) => t,
                        _ => String::new(),
                    };
                    tc["content"] = json!([{"type": "diff", "path": path, "oldText": old,
                                            "newText": args.get("content")}]);
                }
                let req = json!({"jsonrpc": "2.0", "id": id, "method": "session/request_permission",
                                 "params": {"sessionId": wire.get("sessionId"), "toolCall": tc, "options": gate_options()}});
                Ok((line_of(&req), id))
            }
            _ => Err("gate cannot ask the editor about this request".into()),
        }
    }

    fn reply(&mut self, info: &crate::approve::PromptInfo, response: &Value) -> Result<crate::approve::Reply, String> {
        use crate::approve::{Answer, Reply};
        if let Some(e) = response.get("error") {
            return Err(format!("the editor answered the permission request with an error: {e}"));
        }
        let outcome =
            response.get("result").and_then(|r| r.get("outcome")).ok_or("the editor's answer has no outcome")?;
        let wire = &info.call_id.wire;
        let options = match wire.get("kind").and_then(Value::as_str) {
            Some("permission") => wire.get("options").cloned().unwrap_or(Value::Null),
            _ => gate_options(),
        };
        let reject = |reason: &str| Reply {
            answer: Answer::RejectSoft { feedback: None },
            by: crate::protocol::By::Person,
            reason: Some(reason.into()),
        };
        let reply = match outcome.get("outcome").and_then(Value::as_str) {
            Some("cancelled") => reject("the editor cancelled the request"),
            Some("selected") => {
                let oid = outcome.get("optionId").ok_or("the editor selected no option")?;
                let kind = options
                    .as_array()
                    .and_then(|a| a.iter().find(|o| o.get("optionId") == Some(oid)))
                    .and_then(|o| o.get("kind"))
                    .and_then(Value::as_str)
                    .ok_or_else(|| format!("the editor selected {oid}, which was not offered"))?;
                match kind {
                    "allow_once" => Reply::user(Answer::Once),
                    "allow_always" => Reply::user(Answer::Always),
                    _ => reject("rejected in the editor"),
                }
            }
            other => return Err(format!("the editor's outcome {other:?} is not one ACP defines")),
        };
        if wire.get("kind").and_then(Value::as_str) == Some("permission") {
            if let Some(r) = response.get("result") {
                lock(&self.state).set_relay(&info.call_id.key, r.clone());
            }
        }
        Ok(reply)
    }
}

/// gate as the ACP client: initialize, `session/new` in the absolute cwd, then one
/// `session/prompt` per input; agent text to stdout, tool calls with their status and gate's
/// verdict to stderr.
pub struct AcpDriver {
    pub state: Shared,
    cwd: PathBuf,
    next_id: u64,
    init_id: u64,
    new_id: u64,
    session: Option<String>,
    /// The running prompt's request id.
    running: Option<u64>,
    queue: std::collections::VecDeque<String>,
    input_closed: bool,
    closed: bool,
    stop: Option<String>,
    /// Whether the last thing printed on stdout ended a line.
    at_line_start: bool,
}

impl AcpDriver {
    pub fn new(state: Shared, cwd: PathBuf, first: Option<String>) -> AcpDriver {
        AcpDriver {
            state,
            cwd,
            next_id: 0,
            init_id: 0,
            new_id: 0,
            session: None,
            running: None,
            queue: first.into_iter().collect(),
            input_closed: false,
            closed: false,
            stop: None,
            at_line_start: true,
        }
    }

    fn request(&mut self, method: &str, params: Value) -> (u64, Vec<u8>) {
        self.next_id += 1;
        (self.next_id, line_of(&json!({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})))
    }

    /// The next prompt if the session is idle, or the end.
    fn pump(&mut self) -> Vec<Out> {
        if self.closed || self.running.is_some() {
            return Vec::new();
        }
        let Some(sid) = self.session.clone() else { return Vec::new() };
        match self.queue.pop_front() {
            Some(text) => {
                let (id, l) = self
                    .request("session/prompt", json!({"sessionId": sid, "prompt": [{"type": "text", "text": text}]}));
                self.running = Some(id);
                vec![Out::Line(l)]
            }
            None if self.input_closed => {
                self.closed = true;
                vec![Out::Close]
            }
            None => Vec::new(),
        }
    }

    fn fail(&mut self, what: &str, v: &Value) -> Vec<Out> {
        let e = v.get("error").map(Value::to_string).unwrap_or_default();
        note(&format!("the agent's {what} failed: {e}"));
        self.stop = Some("error".into());
        self.closed = true;
        vec![Out::Close]
    }

    fn tool_line(&self, u: &Value) -> Option<String> {
        let id = u.get("toolCallId").and_then(Value::as_str)?;
        let st = lock(&self.state);
        let merged = st.calls.get(id).cloned().unwrap_or_else(|| u.clone());
        let title = merged.get("title").and_then(Value::as_str).unwrap_or(id);
        let kind = merged.get("kind").and_then(Value::as_str).unwrap_or("other");
        let status = u.get("status").and_then(Value::as_str)?;
        let verdict = st.verdicts.get(id).map(|v| format!(", gate: {v}")).unwrap_or_else(|| {
            if matches!(status, "completed" | "failed") {
                ", not asked by the agent".into()
            } else {
                String::new()
            }
        });
        Some(format!("tool {title} [{kind}] {status}{verdict}"))
    }
}

use super::client::{note, Driver, Out};

impl Driver for AcpDriver {
    fn start(&mut self) -> Vec<Out> {
        let (id, l) = self.request(
            "initialize",
            json!({"protocolVersion": 1,
                   "clientCapabilities": {"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false},
                   "clientInfo": {"name": "gate", "version": env!("CARGO_PKG_VERSION")}}),
        );
        self.init_id = id;
        vec![Out::Line(l)]
    }

    fn message(&mut self, v: &Value) -> (Vec<Out>, Option<Vec<u8>>) {
        if v.get("method").and_then(Value::as_str) == Some("session/update") {
            let u = v.get("params").and_then(|p| p.get("update")).cloned().unwrap_or(Value::Null);
            match u.get("sessionUpdate").and_then(Value::as_str).unwrap_or("") {
                "agent_message_chunk" => {
                    let text = u.get("content").and_then(|c| c.get("text")).and_then(Value::as_str).unwrap_or("");
                    if !text.is_empty() {
                        self.at_line_start = text.ends_with('\n');
                        return (Vec::new(), Some(text.as_bytes().to_vec()));
                    }
                }
                "tool_call" | "tool_call_update" => {
                    if let Some(l) = self.tool_line(&u) {
                        note(&l);
                    }
                }
                _ => {}
            }
            return (Vec::new(), None);
        }
        let Some(id) = v.get("id").and_then(Value::as_u64) else { return (Vec::new(), None) };
        if v.get("method").is_some() {
            return (Vec::new(), None);
        }
        if id == self.init_id {
            if v.get("error").is_some() {
                return (self.fail("initialize", v), None);
            }
            let (nid, l) = self.request("session/new", json!({"cwd": self.cwd, "mcpServers": []}));
            self.new_id = nid;
            return (vec![Out::Line(l)], None);
        }
        if id == self.new_id {
            match v.get("result").and_then(|r| r.get("sessionId")).and_then(Value::as_str) {
                Some(s) => self.session = Some(s.to_string()),
                None => return (self.fail("session/new", v), None),
            }
            return (self.pump(), None);
        }
        if Some(id) == self.running {
            self.running = None;
            let end = if self.at_line_start { None } else { Some(b"\n".to_vec()) };
            self.at_line_start = true;
            match v.get("result").and_then(|r| r.get("stopReason")).and_then(Value::as_str) {
                Some(r) => self.stop = Some(r.to_string()),
                None => {
                    let e = v.get("error").map(Value::to_string).unwrap_or_else(|| "no stopReason".into());
                    note(&format!("the prompt failed: {e}"));
                    self.stop = Some("error".into());
                }
            }
            return (self.pump(), end);
        }
        (Vec::new(), None)
    }

    fn input(&mut self, text: String) -> Vec<Out> {
        if !text.trim().is_empty() {
            self.queue.push_back(text);
        }
        self.pump()
    }

    fn input_closed(&mut self) -> Vec<Out> {
        self.input_closed = true;
        self.pump()
    }

    fn interrupt(&mut self) -> Option<Vec<u8>> {
        self.running?;
        let sid = self.session.clone()?;
        Some(line_of(&json!({"jsonrpc": "2.0", "method": "session/cancel", "params": {"sessionId": sid}})))
    }

    fn exit_code(&self) -> Option<i32> {
        if self.running.is_some() {
            return None;
        }
        let Some(stop) = self.stop.as_deref() else { return self.closed.then_some(0) };
        match stop {
            "end_turn" => Some(0),
            "cancelled" => Some(130),
            other => {
                if other != "error" {
                    note(&format!("the agent stopped: {other}"));
                }
                Some(1)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_command_s_environment_and_directory_are_part_of_the_call() {
        use serde_json::json;
        let c = editor_call(
            "terminal/create",
            &json!({"command":"bash","args":["-c","ls"],"env":[{"name":"BASH_ENV","value":"./evil.sh"}],"cwd":"/w/src"}),
        )
        .unwrap();
        assert_eq!(c.arguments, json!({"command":"BASH_ENV=./evil.sh ls","cwd":"/w/src"}));
        let c = to_call("x", &json!({"kind":"execute","rawInput":{"command":"cat passwd","cwd":"/etc"}}), &cwd());
        assert_eq!(c.arguments, json!({"command":"cat passwd","cwd":"/etc"}));
        let c = to_call(
            "x",
            &json!({"kind":"execute","rawInput":{"command":"ls","env":{"LD_PRELOAD":"/tmp/x.so"}}}),
            &cwd(),
        );
        assert_eq!(c.arguments, json!({"command":"LD_PRELOAD=/tmp/x.so ls"}));
    }

    #[test]
    fn only_a_system_shell_s_script_is_the_command() {
        use serde_json::json;
        let argv = |a: &[&str]| super::command_of_argv(&a.iter().map(|s| json!(s)).collect::<Vec<_>>());
        assert_eq!(argv(&["/bin/bash", "-lc", "ls"]).as_deref(), Some("ls"));
        assert_eq!(argv(&["/usr/bin/bash", "-lc", "ls"]).as_deref(), Some("ls"));
        assert_eq!(argv(&["sh", "-c", "ls"]).as_deref(), Some("sh -c ls"));
        assert_eq!(argv(&["/bin/dash", "-c", "ls"]).as_deref(), Some("/bin/dash -c ls"));
        assert_eq!(argv(&["/tmp/x/bash", "-lc", "ls"]).as_deref(), Some("/tmp/x/bash -lc ls"));
        assert_eq!(argv(&["./bash", "-c", "ls"]).as_deref(), Some("./bash -c ls"));
    }

    use super::*;

    fn cwd() -> PathBuf {
        PathBuf::from("/w")
    }

    #[test]
    fn tool_calls_map_by_kind() {
        let c = to_call("opencode", &json!({"kind":"execute","rawInput":{"command":"rm -f old.log"}}), &cwd());
        assert_eq!((c.tool.as_str(), c.arguments["command"].as_str()), ("Bash", Some("rm -f old.log")));
        let c = to_call(
            "codex",
            &json!({"kind":"execute","rawInput":{"command":["/bin/bash","-lc","rm -f old.log"]}}),
            &cwd(),
        );
        assert_eq!(c.arguments["command"], "rm -f old.log");
        let c = to_call(
            "gemini",
            &json!({"toolCallId":"run_shell_command__call_0","kind":"execute","title":"rm -f old.log"}),
            &cwd(),
        );
        assert_eq!(c.arguments["command"], "rm -f old.log");
        let c = to_call("claude", &json!({"kind":"execute","title":"`ls`"}), &cwd());
        assert_eq!(c.arguments["command"], "ls");
        let c = to_call(
            "gemini",
            &json!({"kind":"edit","locations":[{"path":"/w/n.txt"}],"content":[{"type":"diff","path":"/w/n.txt","oldText":"a\n","newText":"b\n"}]}),
            &cwd(),
        );
        assert_eq!(c.tool, "Edit");
        assert_eq!(c.arguments["old_string"], "a\n");
        let c = to_call(
            "gemini",
            &json!({"kind":"edit","content":[{"type":"diff","path":"/w/.env","oldText":"","newText":"X=1\n"}]}),
            &cwd(),
        );
        assert_eq!((c.tool.as_str(), c.arguments["file_path"].as_str()), ("Write", Some("/w/.env")));
        let c = to_call("gemini", &json!({"toolCallId":"web_search__1","kind":"think"}), &cwd());
        assert_eq!(c.tool, "acp__gemini__web_search");
        let c = to_call("opencode", &json!({"kind":"edit","locations":[{"path":"/a"},{"path":"/b"}]}), &cwd());
        assert!(c.tool.starts_with("acp__opencode__"));
        let c = to_call("x", &json!({"kind":"execute"}), &cwd());
        assert_eq!(c.tool, "acp__x__execute");
    }

    #[test]
    fn requests_are_decided_and_the_rest_passes() {
        let st: Shared = Arc::default();
        let mut d = AgentDecoder::new(st.clone(), Mode::Proxy, "gemini".into(), cwd());
        let upd = br#"{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"s","update":{"sessionUpdate":"tool_call","toolCallId":"t1","kind":"execute","rawInput":{"command":"ls -la"}}}}"#;
        assert_eq!(d.line(upd), (Shown::Line, Incoming::Nothing));
        let req = br#"{"jsonrpc":"2.0","id":"u-1","method":"session/request_permission","params":{"sessionId":"s","toolCall":{"toolCallId":"t1","title":"x"},"options":[{"optionId":"a","kind":"allow_always"},{"optionId":"o","kind":"allow_once"},{"optionId":"r","kind":"reject_once"}]}}"#;
        let (shown, inc) = d.line(req);
        assert_eq!(shown, Shown::Hidden);
        let Incoming::Call(c) = inc else { panic!("{inc:?}") };
        assert_eq!(c.call.arguments["command"], "ls -la");
        assert_eq!(c.id.wire["id"], "u-1");
        let mut e = AcpEncoder { state: st.clone() };
        let ok = Resolution::from_policy(crate::policy::Decision::new(
            crate::policy::Verdict::Allow,
            crate::policy::Layer::Safe,
            None,
            "safe",
        ));
        let v: Value = serde_json::from_slice(&e.resolution(&c.id, &c.call, &ok)).unwrap();
        assert_eq!(v["id"], "u-1");
        assert_eq!(v["result"]["outcome"]["optionId"], "o");
        let no = Resolution::error("x");
        let v: Value = serde_json::from_slice(&e.resolution(&c.id, &c.call, &no)).unwrap();
        assert_eq!(v["result"]["outcome"]["optionId"], "r");
        // fs write: held, forwarded on allow, an error on deny.
        let w = br#"{"jsonrpc":"2.0","id":7,"method":"fs/write_text_file","params":{"sessionId":"s","path":"/w/.env","content":"X"}}"#;
        let (_, inc) = d.line(w);
        let Incoming::Call(c) = inc else { panic!() };
        assert_eq!(c.call.tool, "Write");
        let out = e.routed(&c.id, &c.call, &no);
        assert_eq!(out[0].0, Dest::Reply);
        let v: Value = serde_json::from_slice(&out[0].1).unwrap();
        assert!(v["error"]["message"].as_str().unwrap().starts_with("gate: "));
        let (_, inc) = d.line(w);
        let Incoming::Call(c) = inc else { panic!() };
        let out = e.routed(&c.id, &c.call, &ok);
        assert_eq!(out, vec![(Dest::Client, [&w[..], b"\n"].concat())]);
        // Malformed and unknown.
        assert!(matches!(d.line(b"{nope"), (Shown::Line, Incoming::Malformed(_))));
        assert_eq!(d.line(br#"{"jsonrpc":"2.0","id":1,"method":"x/y"}"#), (Shown::Line, Incoming::Nothing));
    }

    #[test]
    fn the_client_decoder_takes_only_awaited_answers() {
        let waiting: Waiting = Arc::default();
        let (tx, rx) = mpsc::channel();
        waiting.lock().unwrap().insert(id_key(&json!("g-1")), tx);
        let mut d = ClientDecoder { waiting };
        assert_eq!(d.line(br#"{"jsonrpc":"2.0","id":"g-2","result":{}}"#).0, Shown::Line);
        assert_eq!(d.line(br#"{"jsonrpc":"2.0","id":"g-1","result":{"a":1}}"#).0, Shown::Hidden);
        assert_eq!(rx.recv().unwrap()["result"]["a"], 1);
    }

    #[test]
    fn detection() {
        use std::ffi::{OsStr, OsString};
        let a = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        assert!(is_acp(OsStr::new("/x/opencode"), &a(&["acp"])));
        assert!(!is_acp(OsStr::new("opencode"), &a(&["run"])));
        assert!(is_acp(OsStr::new("gemini"), &a(&["--acp"])));
        assert!(is_acp(OsStr::new("codex-acp"), &a(&[])));
        assert_eq!(agent_name(OsStr::new("/bin/claude-code-acp")), "claude");
    }
}

#[cfg(test)]
mod fast_path_tests {
    use super::{plain_session_update, plain_session_updates};

    /// Lines of the kinds an agent sends, and near misses of the fast path.
    const LINES: &[&str] = &[
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"agent_message_chunk","content":{"text":"a\nb \"q\""}}}}"#,
        r#"{"method" : "session/update","params":{}}"#,
        r#"{"jsonrpc":"2.0","method":"session/update","params":{"update":{"sessionUpdate":"tool_call","toolCallId":"t"}}}"#,
        r#"{"jsonrpc":"2.0","id":3,"method":"session/request_permission","params":{}}"#,
        r#"{"method":"session/update","p":{"method":"session/request_permission"}}"#,
        r#"{"\u006dethod":"session/request_permission","method":"session/update"}"#,
        r#"{"method":"session/update","t":"\x"}"#,
        r#"{"method":"session\/update"}"#,
        r#"{"jsonrpc":"2.0","id":1,"result":{}}"#,
        r#"not json, and no brace"#,
        r#"{"method":"fs/write_text_file","id":2}"#,
        r#"{}"#,
    ];

    proptest::proptest! {
        /// The block check passes a block exactly when every line of it would pass the
        /// line check (a line for gate anywhere makes the reader read them one by one).
        #[test]
        fn a_block_passes_only_if_every_line_would(picks in proptest::collection::vec(0..LINES.len(), 1..8)) {
            let block: String = picks.iter().map(|&k| format!("{}\n", LINES[k])).collect();
            let each = picks.iter().all(|&k| {
                let l = LINES[k].as_bytes();
                l.first() == Some(&b'{') && plain_session_update(l) && memchr::memmem::find(l, b"tool_call").is_none()
            });
            proptest::prop_assert_eq!(plain_session_updates(block.as_bytes()), each.then_some(picks.len()), "{}", block);
        }
    }

    #[test]
    fn a_block_must_end_with_a_whole_line() {
        let line = br#"{"method":"session/update"}"#;
        assert_eq!(plain_session_updates(&[line.as_slice(), b"\n"].concat()), Some(1));
        assert_eq!(plain_session_updates(line), None);
        assert_eq!(plain_session_updates(&[line.as_slice(), b"\n", line.as_slice()].concat()), None);
    }

    #[test]
    fn only_a_literal_session_update_skips_parsing() {
        assert!(plain_session_update(br#"{"jsonrpc":"2.0","method":"session/update","params":{"x":"a\nb"}}"#));
        assert!(plain_session_update(br#"{"method" : "session/update"}"#));
        // An escaped method or key, or a second "method", is parsed.
        assert!(!plain_session_update(br#"{"method":"session\/request_permission","p":"session/update"}"#));
        assert!(!plain_session_update(
            br#"{"\u006dethod":"session/request_permission","p":{"method":"session/update"}}"#
        ));
        assert!(!plain_session_update(br#"{"method":"x","params":{"method":"session/update"}}"#));
        assert!(!plain_session_update(br#"{"id":1,"method":"session/prompt"}"#));
        // Only the escapes that cannot stand for a letter.
        assert!(plain_session_update(br#"{"method":"session/update","t":"\"q\" \\ \t"}"#));
        assert!(!plain_session_update(br#"{"method":"session/update","meth\od":"x"}"#));
        assert!(!plain_session_update(br#"{"method":"session/update","t":"\x"}"#));
    }
}
