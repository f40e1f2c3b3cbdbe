//! `codex app-server` (docs/agents/codex.md): JSON-RPC without a `"jsonrpc"` field, one JSON per
//! line, between an IDE client and Codex. gate stands in the client's pipe (proxy), or is the
//! client (`--prompt`, and `codex exec`, which never asks by itself).
//!
//! Decided (realclients/codex.md): `item/commandExecution/requestApproval` (the command from the
//! `command` string, a `/bin/bash -lc '...'` unwrapped), `item/fileChange/requestApproval` (which
//! carries no diff: it comes from the `item/started` with the same `itemId`), and the legacy
//! `execCommandApproval`/`applyPatchApproval`. gate answers `accept`/`decline` (`approved`/
//! `denied`), never `acceptForSession` or an execpolicy amendment: such grants live in gate.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use super::acp::id_key;
use super::client::{line, note, ClientHook, Driver, Out};
use super::{message_for_model, CallId, Decoder, Dest, Encoder, Incoming, IncomingCall, Resolution, Shown};
use crate::policy::Call;

pub const DECIDED: &[&str] = &[
    "item/commandExecution/requestApproval",
    "item/fileChange/requestApproval",
    "execCommandApproval",
    "applyPatchApproval",
];

const MAX_TRACKED: usize = 2048;

/// What the decoder, encoder and client approver share.
#[derive(Default)]
pub struct State {
    /// `fileChange` items by id, from `item/started`.
    changes: HashMap<String, Value>,
    order: VecDeque<String>,
    held: HashMap<String, Vec<u8>>,
    /// gate's verdict by item id (client mode prints it).
    pub verdicts: HashMap<String, String>,
}

pub type Shared = Arc<Mutex<State>>;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Is `program args` Codex's app-server?
pub fn is_app_server(program: &std::ffi::OsStr, args: &[std::ffi::OsString]) -> bool {
    is_codex(program) && args.iter().any(|a| a == "app-server")
}

pub fn is_codex(program: &std::ffi::OsStr) -> bool {
    std::path::Path::new(program).file_name().is_some_and(|n| n == "codex")
}

/// `/bin/bash -lc 'cmd'` → `cmd` (the script a shell would run); anything else as it is.
/// The shell is bash, sh, zsh or dash by its name or in `/bin` or `/usr/bin` (Codex names the
/// one it found on `PATH`: `/usr/bin/bash` on some machines), with `-c` or `-lc`. A shell
/// anywhere else is not unwrapped: the model chooses the argv, and `/tmp/x/bash -lc 'ls'` runs
/// `/tmp/x/bash`, which the whole command's analysis asks about.
pub fn unwrap_shell(command: &str) -> String {
    let mut words = command.splitn(3, ' ');
    if let (Some(shell), Some(flag), Some(rest)) = (words.next(), words.next(), words.next()) {
        if ["bash", "sh", "zsh", "dash"].contains(&shell_name(shell)) && ["-c", "-lc"].contains(&flag) {
            if let Some(s) = single_quoted(rest) {
                return s;
            }
        }
    }
    command.to_string()
}

/// The text gate decides for a command line Codex will run: bash's `-c` script alone (gate
/// reads scripts as bash does); any other shell's invocation whole, for the shell analysis,
/// which knows `sh -c`, `dash -c` and `zsh -c` (ninth red team).
pub fn bash_script(command: &str) -> String {
    if shell_name(command.split(' ').next().unwrap_or("")) == "bash" {
        unwrap_shell(command)
    } else {
        command.to_string()
    }
}

/// A shell's name as Codex may write it: bare, or in `/bin` or `/usr/bin`; any other path is
/// returned whole (it names another file).
fn shell_name(word: &str) -> &str {
    word.strip_prefix("/usr/bin/").or_else(|| word.strip_prefix("/bin/")).unwrap_or(word)
}

/// A word made only of single-quoted pieces and `\'` (`'a'\''b'`), unquoted.
fn single_quoted(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    if chars.peek() != Some(&'\'') {
        return None;
    }
    while let Some(c) = chars.next() {
        match c {
            '\'' => loop {
                match chars.next()? {
                    '\'' => break,
                    c => out.push(c),
                }
            },
            '\\' => out.push(chars.next()?),
            _ => return None,
        }
    }
    Some(out)
}

/// A file change (the `changes` of an item, or a legacy `fileChanges` map) as the call gate
/// decides: an `Edit` of its one path with the diff, or `codex__apply_patch` (asked) for several.
fn change_call(changes: &Value) -> Call {
    let mut paths: Vec<(String, Value)> = Vec::new();
    match changes {
        Value::Array(a) => {
            for c in a {
                if let Some(p) = c.get("path").and_then(Value::as_str) {
                    paths.push((p.to_string(), c.clone()));
                }
            }
        }
        Value::Object(m) => {
            for (p, c) in m {
                paths.push((p.clone(), c.clone()));
            }
        }
        _ => {}
    }
    // A change that moves its file (`*** Move to:`) writes another path too: v2's
    // `kind.move_path`, the legacy `{"update": {"move_path": ...}}`. Both paths go to the
    // multi-file call (tenth red team: a move to `.env` was decided as an edit of its source).
    let moves: Vec<String> = paths.iter().flat_map(|(_, c)| move_paths(c, 0)).collect();
    for m in moves {
        paths.push((m, Value::Null));
    }
    if paths.len() == 1 {
        let (p, c) = &paths[0];
        let diff = c.get("diff").or_else(|| c.get("unified_diff")).cloned().unwrap_or(Value::Null);
        let kind = c.get("kind").and_then(|k| k.get("type").or(Some(k))).cloned().unwrap_or(Value::Null);
        // An added file's diff is its whole content.
        let mut args = json!({"file_path": p, "diff": diff, "change": kind});
        if let Some(content) = c.get("content").and_then(Value::as_str) {
            args["content"] = json!(content);
        }
        return Call { tool: "Edit".into(), arguments: args, annotations: None };
    }
    Call {
        tool: "codex__apply_patch".into(),
        arguments: json!({"paths": paths.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>(), "changes": changes}),
        annotations: None,
    }
}

/// Every `move_path` string in a change (a few levels deep, whatever the shape).
fn move_paths(v: &Value, depth: usize) -> Vec<String> {
    let mut out = Vec::new();
    if depth > 4 {
        return out;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match x {
                    Value::String(p) if k == "move_path" || k == "movePath" => out.push(p.clone()),
                    _ => out.extend(move_paths(x, depth + 1)),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| out.extend(move_paths(x, depth + 1))),
        _ => {}
    }
    out
}

pub struct AgentDecoder {
    pub state: Shared,
    pub proxy: bool,
    pub client: Option<Box<dyn ClientHook>>,
    warned: Vec<String>,
}

impl AgentDecoder {
    pub fn new(state: Shared, proxy: bool) -> AgentDecoder {
        AgentDecoder { state, proxy, client: None, warned: Vec::new() }
    }

    fn passed(&mut self, v: Option<&Value>) -> Shown {
        if self.proxy {
            return Shown::Line;
        }
        match (&mut self.client, v) {
            (Some(c), Some(v)) => c.message(v).map(Shown::Text).unwrap_or(Shown::Hidden),
            _ => Shown::Hidden,
        }
    }
}

fn id_shown(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl Decoder for AgentDecoder {
    fn line(&mut self, raw: &[u8]) -> (Shown, Incoming) {
        let v: Value = match super::strict::parse(raw) {
            Ok(v) => v,
            Err(e) => return (self.passed(None), Incoming::Malformed(format!("is not valid JSON ({e})"))),
        };
        let method = v.get("method").and_then(Value::as_str).map(str::to_string);
        let id = v.get("id").filter(|i| i.is_string() || i.is_number()).cloned();
        match (method.as_deref(), id) {
            (Some(m), Some(id)) if DECIDED.contains(&m) => (Shown::Hidden, self.request(m, &id, &v, raw)),
            (Some(m), Some(id)) => {
                if self.proxy {
                    if !self.warned.iter().any(|w| w == m) {
                        self.warned.push(m.to_string());
                        note(&format!(
                            "Codex sent a request gate does not decide ({m}); passed to the client as it is"
                        ));
                    }
                    return (Shown::Line, Incoming::Nothing);
                }
                (
                    Shown::Hidden,
                    Incoming::Bad {
                        id: Some(CallId {
                            key: id_key(&id),
                            shown: id_shown(&id),
                            wire: json!({"id": id, "kind": "unknown", "method": m}),
                        }),
                        tool: None,
                        error: format!(
                            "Codex sent a request gate's client does not offer ({m}): answered with an error"
                        ),
                    },
                )
            }
            (Some("item/started"), None) => {
                if let Some(item) = v.get("params").and_then(|p| p.get("item")) {
                    if item.get("type").and_then(Value::as_str) == Some("fileChange") {
                        if let Some(iid) = item.get("id").and_then(Value::as_str) {
                            let mut st = lock(&self.state);
                            if st.order.len() >= MAX_TRACKED {
                                if let Some(old) = st.order.pop_front() {
                                    st.changes.remove(&old);
                                }
                            }
                            st.order.push_back(iid.to_string());
                            st.changes.insert(iid.to_string(), item.get("changes").cloned().unwrap_or(Value::Null));
                        }
                    }
                }
                (self.passed(Some(&v)), Incoming::Nothing)
            }
            _ => (self.passed(Some(&v)), Incoming::Nothing),
        }
    }

    fn oversize(&mut self, head: &[u8], limit: usize) -> Option<Incoming> {
        let decided = DECIDED.iter().any(|m| memchr::memmem::find(head, format!("\"{m}\"").as_bytes()).is_some());
        decided.then(|| Incoming::Bad {
            id: None,
            tool: None,
            error: format!("an approval request longer than --max-line ({limit} bytes)"),
        })
    }

    fn passes_plain_lines(&self) -> bool {
        self.proxy
    }
}

impl AgentDecoder {
    fn request(&mut self, method: &str, id: &Value, v: &Value, raw: &[u8]) -> Incoming {
        let key = id_key(id);
        let p = v.get("params").cloned().unwrap_or(Value::Null);
        let item = p.get("itemId").or_else(|| p.get("callId")).and_then(Value::as_str).unwrap_or("").to_string();
        let legacy = !method.starts_with("item/");
        let call = match method {
            "item/commandExecution/requestApproval" | "execCommandApproval" => {
                let cmd = match p.get("command") {
                    Some(Value::String(s)) => Some(bash_script(s)),
                    Some(Value::Array(a)) => super::acp::command_of_argv(a),
                    _ => None,
                };
                let cmd = cmd.or_else(|| {
                    let acts = p.get("commandActions")?.as_array()?;
                    let cmds: Option<Vec<&str>> =
                        acts.iter().map(|a| a.get("command").and_then(Value::as_str)).collect();
                    cmds.filter(|c| !c.is_empty()).map(|c| c.join(" && "))
                });
                // Input for a process already running (`kind: writeStdin`, not in the request
                // at all) or network access to a host: not the command's own effect, so nothing
                // the command's decision may allow (tenth red team). Decided as Codex's own tool.
                let other_kind = p.get("kind").and_then(Value::as_str).is_some_and(|k| k != "command");
                let network = ["networkApprovalContext", "proposedNetworkPolicyAmendments"]
                    .iter()
                    .any(|k| p.get(*k).is_some_and(|v| !v.is_null()));
                let cmd = if other_kind || network { None } else { cmd };
                match cmd {
                    Some(c) => {
                        let mut args = json!({"command": c});
                        if let Some(cwd) = p.get("cwd") {
                            args["cwd"] = cwd.clone();
                        }
                        Call { tool: "Bash".into(), arguments: args, annotations: None }
                    }
                    None => Call { tool: "codex__exec".into(), arguments: p.clone(), annotations: None },
                }
            }
            "applyPatchApproval" => change_call(p.get("fileChanges").unwrap_or(&Value::Null)),
            _ => {
                let changes = lock(&self.state).changes.get(&item).cloned();
                match changes {
                    Some(c) => change_call(&c),
                    // No item/started told which files: ask.
                    None => Call { tool: "codex__apply_patch".into(), arguments: p.clone(), annotations: None },
                }
            }
        };
        lock(&self.state).held.insert(key.clone(), raw.to_vec());
        Incoming::Call(IncomingCall {
            id: CallId {
                key,
                shown: if item.is_empty() { id_shown(id) } else { item.clone() },
                wire: json!({"id": id, "kind": if legacy { "legacy" } else { "v2" }, "item": item}),
            },
            call,
            batch_remaining: Vec::new(),
            report_only: false,
            agent_asks: false,
        })
    }
}

/// Reads what the client writes (proxy): answers to requests gate forwarded go to the waiting
/// approver; everything else to Codex.
pub type ClientDecoder = super::acp::ClientDecoder;

pub struct CodexEncoder {
    pub state: Shared,
}

impl Encoder for CodexEncoder {
    fn resolution(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<u8> {
        let wid = id.wire.get("id").cloned().unwrap_or(Value::Null);
        match id.wire.get("kind").and_then(Value::as_str) {
            Some("v2") => {
                line(&json!({"id": wid, "result": {"decision": if r.approved { "accept" } else { "decline" }}}))
            }
            Some("legacy") => {
                line(&json!({"id": wid, "result": {"decision": if r.approved { "approved" } else { "denied" }}}))
            }
            _ => line(
                &json!({"id": wid, "error": {"code": -32601, "message": format!("gate: {}", if r.approved { r.reason.clone() } else { message_for_model(&call.tool, r) })}}),
            ),
        }
    }

    fn routed(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<(Dest, Vec<u8>)> {
        let mut st = lock(&self.state);
        st.held.remove(&id.key);
        if let Some(item) = id.wire.get("item").and_then(Value::as_str).filter(|i| !i.is_empty()) {
            if st.verdicts.len() > MAX_TRACKED {
                st.verdicts.clear();
            }
            let v = if r.approved {
                format!("allowed ({})", r.source())
            } else {
                format!("denied ({}: {})", r.source(), r.reason)
            };
            st.verdicts.insert(item.to_string(), v);
        }
        drop(st);
        vec![(Dest::Reply, self.resolution(id, call, r))]
    }
}

/// Asks the client about a call: the approval request as Codex sent it. The client's
/// `acceptForSession` becomes gate's own session approval; Codex gets `accept`.
pub struct ClientAsk {
    pub state: Shared,
}

impl super::client::AskClient for ClientAsk {
    fn request(&mut self, info: &crate::approve::PromptInfo) -> Result<(Vec<u8>, Value), String> {
        let mut l = lock(&self.state).held.get(&info.call_id.key).cloned().ok_or("the request was lost")?;
        l.push(b'\n');
        Ok((l, info.call_id.wire.get("id").cloned().unwrap_or(Value::Null)))
    }

    fn reply(&mut self, _info: &crate::approve::PromptInfo, response: &Value) -> Result<crate::approve::Reply, String> {
        use crate::approve::{Answer, Reply};
        if let Some(e) = response.get("error") {
            return Err(format!("the client answered the approval request with an error: {e}"));
        }
        let d = response.get("result").and_then(|r| r.get("decision")).ok_or("the client's answer has no decision")?;
        let name = match d {
            Value::String(s) => s.clone(),
            Value::Object(m) => m.keys().next().cloned().unwrap_or_default(),
            _ => String::new(),
        };
        let reject = |reason: &str| Reply {
            answer: Answer::RejectSoft { feedback: None },
            by: super::By::Person,
            reason: Some(reason.into()),
        };
        Ok(match name.as_str() {
            "accept" | "approved" => Reply::user(Answer::Once),
            "acceptForSession" | "approved_for_session" => Reply::user(Answer::Session),
            "acceptWithExecpolicyAmendment" | "approved_execpolicy_amendment" => Reply::user(Answer::Always),
            "cancel" | "abort" => Reply {
                answer: Answer::RejectHard { feedback: None },
                by: super::By::Person,
                reason: Some("cancelled by the client".into()),
            },
            "decline" | "denied" => reject("declined by the client"),
            other => return Err(format!("the client's decision {other:?} is not one gate knows")),
        })
    }
}

/// gate as the app-server's client: initialize, `thread/start` (approval policy `untrusted`,
/// approvals to this client), one `turn/start` per input.
pub struct CodexDriver {
    pub state: Shared,
    cwd: PathBuf,
    next_id: u64,
    init_id: u64,
    thread_id_req: u64,
    thread: Option<String>,
    turn: Option<String>,
    running: bool,
    queue: VecDeque<String>,
    input_closed: bool,
    closed: bool,
    status: Option<String>,
}

impl CodexDriver {
    pub fn new(state: Shared, cwd: PathBuf, first: Option<String>) -> CodexDriver {
        CodexDriver {
            state,
            cwd,
            next_id: 0,
            init_id: 0,
            thread_id_req: 0,
            thread: None,
            turn: None,
            running: false,
            queue: first.into_iter().collect(),
            input_closed: false,
            closed: false,
            status: None,
        }
    }

    fn request(&mut self, method: &str, params: Value) -> (u64, Vec<u8>) {
        self.next_id += 1;
        (self.next_id, line(&json!({"id": self.next_id, "method": method, "params": params})))
    }

    fn pump(&mut self) -> Vec<Out> {
        if self.closed || self.running {
            return Vec::new();
        }
        let Some(thread) = self.thread.clone() else { return Vec::new() };
        match self.queue.pop_front() {
            Some(text) => {
                let (_, l) =
                    self.request("turn/start", json!({"threadId": thread, "input": [{"type": "text", "text": text}]}));
                self.running = true;
                vec![Out::Line(l)]
            }
            None if self.input_closed => {
                self.closed = true;
                vec![Out::Close]
            }
            None => Vec::new(),
        }
    }

    fn item_line(&self, item: &Value, done: bool) -> Option<String> {
        let id = item.get("id").and_then(Value::as_str).unwrap_or("");
        let what = match item.get("type").and_then(Value::as_str)? {
            "commandExecution" => format!("command {}", unwrap_shell(item.get("command").and_then(Value::as_str)?)),
            "fileChange" => {
                let paths: Vec<&str> = item
                    .get("changes")
                    .and_then(Value::as_array)
                    .map(|a| a.iter().filter_map(|c| c.get("path").and_then(Value::as_str)).collect())
                    .unwrap_or_default();
                format!("file change {}", paths.join(", "))
            }
            _ => return None,
        };
        let status = item.get("status").and_then(Value::as_str).unwrap_or(if done { "completed" } else { "started" });
        let verdict = lock(&self.state).verdicts.get(id).map(|v| format!(", gate: {v}")).unwrap_or_else(|| {
            if done {
                ", not asked by Codex".into()
            } else {
                String::new()
            }
        });
        Some(format!("{what} {status}{verdict}"))
    }
}

impl Driver for CodexDriver {
    fn start(&mut self) -> Vec<Out> {
        let (id, l) =
            self.request("initialize", json!({"clientInfo": {"name": "gate", "version": env!("CARGO_PKG_VERSION")}}));
        self.init_id = id;
        vec![Out::Line(l)]
    }

    fn message(&mut self, v: &Value) -> (Vec<Out>, Option<Vec<u8>>) {
        let method = v.get("method").and_then(Value::as_str);
        let params = v.get("params").cloned().unwrap_or(Value::Null);
        match method {
            Some("item/completed") => {
                let item = params.get("item").cloned().unwrap_or(Value::Null);
                if item.get("type").and_then(Value::as_str) == Some("agentMessage") {
                    let text = item.get("text").and_then(Value::as_str).unwrap_or("");
                    if !text.is_empty() {
                        let mut t = text.as_bytes().to_vec();
                        if !text.ends_with('\n') {
                            t.push(b'\n');
                        }
                        return (Vec::new(), Some(t));
                    }
                } else if let Some(l) = self.item_line(&item, true) {
                    note(&l);
                }
                return (Vec::new(), None);
            }
            Some("item/started") => {
                if let Some(l) = params.get("item").and_then(|i| self.item_line(i, false)) {
                    note(&l);
                }
                return (Vec::new(), None);
            }
            Some("turn/started") => {
                self.turn = params.get("turn").and_then(|t| t.get("id")).and_then(Value::as_str).map(str::to_string);
                return (Vec::new(), None);
            }
            Some("turn/completed") => {
                let turn = params.get("turn").cloned().unwrap_or(Value::Null);
                let status = turn.get("status").and_then(Value::as_str).unwrap_or("unknown").to_string();
                if status == "failed" {
                    note(&format!("the turn failed: {}", turn.get("error").map(Value::to_string).unwrap_or_default()));
                }
                self.status = Some(status);
                self.running = false;
                self.turn = None;
                return (self.pump(), None);
            }
            Some("error") => {
                note(&format!("Codex reported an error: {params}"));
                return (Vec::new(), None);
            }
            Some(_) => return (Vec::new(), None),
            None => {}
        }
        let Some(id) = v.get("id").and_then(Value::as_u64) else { return (Vec::new(), None) };
        if let Some(e) = v.get("error") {
            note(&format!("Codex answered request {id} with an error: {e}"));
            if id == self.init_id || id == self.thread_id_req || self.running {
                self.status = Some("error".into());
                self.running = false;
                self.closed = true;
                return (vec![Out::Close], None);
            }
            return (Vec::new(), None);
        }
        if id == self.init_id {
            let mut out = vec![Out::Line(line(&json!({"method": "initialized"})))];
            let (tid, l) = self.request(
                "thread/start",
                json!({"cwd": self.cwd, "approvalPolicy": "untrusted", "approvalsReviewer": "user", "ephemeral": true}),
            );
            self.thread_id_req = tid;
            out.push(Out::Line(l));
            return (out, None);
        }
        if id == self.thread_id_req {
            match v.get("result").and_then(|r| r.get("thread")).and_then(|t| t.get("id")).and_then(Value::as_str) {
                Some(t) => self.thread = Some(t.to_string()),
                None => {
                    note("thread/start gave no thread id");
                    self.status = Some("error".into());
                    self.closed = true;
                    return (vec![Out::Close], None);
                }
            }
            return (self.pump(), None);
        }
        if let Some(t) = v.get("result").and_then(|r| r.get("turn")).and_then(|t| t.get("id")).and_then(Value::as_str) {
            self.turn = Some(t.to_string());
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
        if !self.running {
            return None;
        }
        let thread = self.thread.clone()?;
        let turn = self.turn.clone()?;
        self.next_id += 1;
        Some(line(
            &json!({"id": self.next_id, "method": "turn/interrupt", "params": {"threadId": thread, "turnId": turn}}),
        ))
    }

    fn exit_code(&self) -> Option<i32> {
        if self.running {
            return None;
        }
        let Some(status) = self.status.as_deref() else { return self.closed.then_some(0) };
        match status {
            "completed" => Some(0),
            "interrupted" => Some(130),
            _ => Some(1),
        }
    }
}

/// `codex [GLOBAL OPTIONS] exec [OPTIONS] PROMPT` → the app-server argv and the prompt. Global
/// `-c key=value` options are kept; exec's own options are dropped with a note.
pub fn exec_to_app_server(
    program: &std::ffi::OsStr,
    args: &[std::ffi::OsString],
) -> Option<(Vec<std::ffi::OsString>, String)> {
    let at = args.iter().position(|a| a == "exec" || a == "e")?;
    let mut argv = vec![program.to_os_string()];
    argv.extend(args[..at].iter().cloned());
    argv.push("app-server".into());
    let mut prompt = None;
    let mut i = at + 1;
    let rest = &args[at + 1..];
    let _ = rest;
    while i < args.len() {
        let a = args[i].to_string_lossy().into_owned();
        i += 1;
        if a == "-c" || a == "--config" {
            if let Some(v) = args.get(i) {
                argv.insert(argv.len() - 1, "-c".into());
                argv.insert(argv.len() - 1, v.clone());
                i += 1;
            }
        } else if a.starts_with('-') {
            let takes = [
                "-m",
                "--model",
                "-s",
                "--sandbox",
                "-C",
                "--cd",
                "-p",
                "--profile",
                "-i",
                "--image",
                "--color",
                "--output-last-message",
                "-o",
                "--output-schema",
            ];
            if takes.contains(&a.as_str()) {
                i += 1;
            }
            note(&format!("codex exec's option {a} is not passed on: gate runs `codex app-server` as its client"));
        } else if prompt.is_none() {
            prompt = Some(a);
        }
    }
    Some((argv, prompt?))
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_move_is_decided_with_its_destination() {
        use serde_json::json;
        let v2 = json!([{"path":"docs/a.md","kind":{"type":"update","move_path":".env"},"diff":"x"}]);
        let c = super::change_call(&v2);
        assert_eq!(c.tool, "codex__apply_patch");
        assert_eq!(c.arguments["paths"], json!(["docs/a.md", ".env"]));
        let legacy = json!({"docs/a.md": {"update": {"unified_diff": "x", "move_path": "/root/.bashrc"}}});
        let c = super::change_call(&legacy);
        assert_eq!(c.arguments["paths"], json!(["docs/a.md", "/root/.bashrc"]));
        let plain = json!([{"path":"docs/a.md","kind":{"type":"update"},"diff":"x"}]);
        assert_eq!(super::change_call(&plain).tool, "Edit");
    }

    use super::*;

    #[test]
    fn shell_wrappers_unwrap() {
        assert_eq!(unwrap_shell("/bin/bash -lc 'rm -f old.log'"), "rm -f old.log");
        assert_eq!(unwrap_shell("/bin/bash -lc 'echo '\\''hi'\\'''"), "echo 'hi'");
        assert_eq!(unwrap_shell("/bin/bash -lc 'a' b"), "/bin/bash -lc 'a' b");
        assert_eq!(unwrap_shell("ls"), "ls");
        assert_eq!(unwrap_shell("/usr/bin/bash -lc 'touch made.txt'"), "touch made.txt");
        assert_eq!(unwrap_shell("sh -c 'ls'"), "ls");
        assert_eq!(unwrap_shell("/usr/bin/python3 -c 'ls'"), "/usr/bin/python3 -c 'ls'");
        assert_eq!(unwrap_shell("/tmp/x/bash -lc 'ls'"), "/tmp/x/bash -lc 'ls'");
        assert_eq!(unwrap_shell("./bash -c 'ls'"), "./bash -c 'ls'");
        assert_eq!(bash_script("/bin/bash -lc 'ls'"), "ls");
        assert_eq!(bash_script("/bin/sh -c 'ls'"), "/bin/sh -c 'ls'");
        assert_eq!(bash_script("zsh -lc 'ls'"), "zsh -lc 'ls'");
    }

    #[test]
    fn approvals_are_decided_with_the_started_diff() {
        let st: Shared = Arc::default();
        let mut d = AgentDecoder::new(st.clone(), true);
        let started = br#"{"method":"item/started","params":{"item":{"type":"fileChange","id":"call_1","changes":[{"path":"/w/.env","kind":{"type":"add"},"diff":"X=1\n"}]}}}"#;
        assert_eq!(d.line(started).0, Shown::Line);
        let req = br#"{"method":"item/fileChange/requestApproval","id":1,"params":{"itemId":"call_1"}}"#;
        let (_, inc) = d.line(req);
        let Incoming::Call(c) = inc else { panic!("{inc:?}") };
        assert_eq!((c.call.tool.as_str(), c.call.arguments["file_path"].as_str()), ("Edit", Some("/w/.env")));
        let req = br#"{"method":"item/commandExecution/requestApproval","id":2,"params":{"itemId":"call_2","command":"/bin/bash -lc 'rm -rf x'"}}"#;
        let (_, inc) = d.line(req);
        let Incoming::Call(c) = inc else { panic!() };
        assert_eq!(c.call.arguments["command"], "rm -rf x");
        let mut e = CodexEncoder { state: st };
        let v: Value = serde_json::from_slice(&e.resolution(&c.id, &c.call, &Resolution::error("x"))).unwrap();
        assert_eq!(v, json!({"id": 2, "result": {"decision": "decline"}}));
    }

    #[test]
    fn stdin_for_a_running_process_and_network_access_are_not_the_command() {
        let st: Shared = Arc::default();
        let mut d = AgentDecoder::new(st, true);
        let tool = |d: &mut AgentDecoder, line: &[u8]| match d.line(line).1 {
            Incoming::Call(c) => c.call.tool,
            other => panic!("{other:?}"),
        };
        let stdin = br#"{"method":"item/commandExecution/requestApproval","id":3,"params":{"kind":"writeStdin","itemId":"c3","command":"/bin/bash -lc 'git status'"}}"#;
        assert_eq!(tool(&mut d, stdin), "codex__exec");
        let net = br#"{"method":"item/commandExecution/requestApproval","id":4,"params":{"itemId":"c4","command":"/bin/bash -lc 'git status'","networkApprovalContext":{"host":"x.example","protocol":"https"}}}"#;
        assert_eq!(tool(&mut d, net), "codex__exec");
        let plain = br#"{"method":"item/commandExecution/requestApproval","id":5,"params":{"kind":"command","itemId":"c5","command":"/bin/bash -lc 'git status'"}}"#;
        assert_eq!(tool(&mut d, plain), "Bash");
    }

    #[test]
    fn exec_becomes_the_app_server() {
        let a = |v: &[&str]| v.iter().map(std::ffi::OsString::from).collect::<Vec<_>>();
        let (argv, p) =
            exec_to_app_server("codex".as_ref(), &a(&["-c", "x=1", "exec", "--skip-git-repo-check", "fix it"]))
                .unwrap();
        assert_eq!(argv, a(&["codex", "-c", "x=1", "app-server"]));
        assert_eq!(p, "fix it");
    }
}
