//! MCP (the Model Context Protocol over stdio, JSON-RPC lines): gate in the middle of a host's
//! pipe to a server (`gate run --protocol mcp [--name SERVER] -- SERVER...`,
//! docs/agents/mcp.md). Every message passes unchanged, except:
//! - `tools/call` from the host is decided as `mcp__<name>__<tool>` (risk from the tool's
//!   annotations, cached from `tools/list`): allowed, it goes on to the server as it was sent;
//!   denied, gate answers the host with a tool result `isError: true` carrying the reason;
//! - the server's `tools/list` answers leave out the tools a rule denies outright;
//! - the host's answer to the server's `roots/list` that names directories outside the workspace
//!   is decided as reads of those directories (`mcp__<name>__roots/list`); denied, those roots are
//!   left out of the answer the server gets;
//! - `notifications/cancelled` for a call gate still holds withdraws its prompt, and no answer
//!   is sent for it (it passes on to the server too, which never saw the call);
//! - gate's own requests to the host (`elicitation/create`, to ask the person in the host's
//!   dialog) and their answers: the answers never reach the server, and a server request whose
//!   id equals one of gate's open ids is given another id on its way to the host and its answer
//!   the original id back (the only ids gate maps);
//! - when the server's output ends, every forwarded call it did not answer gets an error result.
//!
//! Lines from the host that do not start with `{` are dropped with a note: a message with
//! leading blanks, or a batch array, could otherwise carry a `tools/call` past gate.
//!
//! `<name>` is `--name`, else the server's `serverInfo.name`. Translation only, and no decisions;
//! the one I/O is resolving a root directory's symbolic links, since the server does.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex};

use serde_json::{json, Value};

use super::client::note;
use super::{message_for_model, CallId, Decoder, Dest, Encoder, Incoming, IncomingCall, Resolution, Shown};
use crate::policy::Call;

/// Forwarded calls remembered for an answer at most (a host that never gets its answers).
const MAX_IN_FLIGHT: usize = 65_536;

/// What both directions, the encoder and the approver share.
#[derive(Default)]
pub struct State {
    /// The server's name in rules (`mcp__<name>__...`).
    pub name: Option<String>,
    /// Tools a rule denies outright (`mcp__x__y`, or `mcp__x` for the whole server); set at
    /// start and again on every policy reload.
    pub disabled: Vec<String>,
    /// The workspace (symbolic links resolved): roots outside it widen the server's reach.
    pub workspace: PathBuf,
    /// The host declared the `elicitation` capability in `initialize`.
    pub host_elicits: bool,
    /// Withdraws an open prompt (the session's), once the approver is built.
    pub cancel: Option<Arc<crate::approve::Cancel>>,
    /// The call whose prompt is open.
    pub prompting: Option<String>,
    /// gate's own requests to the host, by id key, and who waits for each answer.
    pub waiting: HashMap<String, mpsc::Sender<Value>>,
    /// gate's own requests it gave up (cancelled with the host): a late answer is dropped too.
    pub withdrawn: HashSet<String>,
    /// Ids (JSON text) of the host's `initialize` and `tools/list` requests, to read the answers.
    init_ids: HashSet<String>,
    list_ids: HashSet<String>,
    /// Each tool's annotations, from `tools/list`.
    annotations: HashMap<String, Value>,
    /// Calls handed to the session and not answered yet, by key.
    deciding: HashSet<String>,
    /// Of those, the ones the host cancelled.
    cancelled: HashSet<String>,
    /// Forwarded calls the server has not answered: key → the host's id.
    in_flight: HashMap<String, Value>,
    /// The server's output ended: calls are no longer forwarded.
    server_gone: bool,
    /// Server requests given another id (it collided with one of gate's): new key → old id.
    remapped: HashMap<String, Value>,
    next_remap: u64,
    warned_bad_json: bool,
}

impl State {
    /// Has the host cancelled this call (by key)?
    pub fn is_cancelled(&self, key: &str) -> bool {
        self.cancelled.contains(key)
    }
}

pub type Shared = Arc<Mutex<State>>;

pub fn lock(s: &Shared) -> std::sync::MutexGuard<'_, State> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

/// The name a server is known by in rules when it names none: `server`.
const FALLBACK_NAME: &str = "server";

/// The key of a host request id (JSON text: the string `"1"` and the number 1 differ).
pub fn call_key(id: &Value) -> String {
    format!("mcp:{id}")
}

fn line_of(v: &Value) -> Vec<u8> {
    let mut out = serde_json::to_vec(v).unwrap_or_default();
    out.push(b'\n');
    out
}

/// Lines from the host (gate's stdin).
pub struct HostDecoder {
    pub state: Shared,
}

impl Decoder for HostDecoder {
    fn line(&mut self, line: &[u8]) -> (Shown, Incoming) {
        let v: Value = match super::strict::parse(line) {
            Ok(v) => v,
            // Not JSON gate can read: if it names a tool call it is refused (never passed on
            // undecided), else it is the host's own business.
            Err(e) => {
                if memchr::memmem::find(line, b"tools/call").is_some() {
                    // Answered with an error result when its id can be read, so the host
                    // does not wait for ever.
                    let id = super::native::salvage(line).id.map(|i| CallId {
                        key: call_key(&i),
                        shown: i.to_string(),
                        wire: json!({ "id": i }),
                    });
                    return (
                        Shown::Hidden,
                        Incoming::Bad { id, tool: None, error: format!("a tools/call that is not valid JSON ({e})") },
                    );
                }
                let mut st = lock(&self.state);
                if !std::mem::replace(&mut st.warned_bad_json, true) {
                    note(&format!(
                        "the host sent a line that is not valid JSON ({e}); passed to the server as it is, nothing decided (said once)"
                    ));
                }
                return (Shown::Line, Incoming::Nothing);
            }
        };
        let method = v.get("method").and_then(Value::as_str);
        let id = v.get("id").filter(|i| i.is_string() || i.is_number());
        match (method, id) {
            (Some("initialize"), Some(id)) => {
                let mut st = lock(&self.state);
                st.init_ids.insert(id.to_string());
                st.host_elicits = v.pointer("/params/capabilities/elicitation").is_some_and(Value::is_object);
                (Shown::Line, Incoming::Nothing)
            }
            (Some("tools/list"), Some(id)) => {
                lock(&self.state).list_ids.insert(id.to_string());
                (Shown::Line, Incoming::Nothing)
            }
            (Some("tools/call"), Some(id)) => (Shown::Hidden, self.call(id, &v, line)),
            (Some("tools/call"), None) => (
                Shown::Hidden,
                Incoming::Bad { id: None, tool: None, error: "a tools/call without an id: dropped".into() },
            ),
            (Some("notifications/cancelled"), None) => {
                self.cancelled(&v);
                (Shown::Line, Incoming::Nothing)
            }
            (Some(_), _) => (Shown::Line, Incoming::Nothing),
            (None, _) => self.response(&v),
        }
    }

    fn oversize(&mut self, head: &[u8], limit: usize) -> Option<Incoming> {
        // A tools/call cut at the limit is never passed on undecided; nor is an answer that may
        // carry roots, or be the answer to one of gate's own requests.
        let named = [&b"tools/call"[..], b"\"roots\"", b"\"result\""];
        named.iter().any(|n| memchr::memmem::find(head, n).is_some()).then(|| Incoming::Bad {
            id: None,
            tool: None,
            error: format!(
                "a message from the host longer than --max-line ({limit} bytes) that may be a tools/call or a roots answer: dropped"
            ),
        })
    }

    fn passes_plain_lines(&self) -> bool {
        // A line that starts with a blank (then `{`) or with `[` (a batch) would be read by the
        // server as JSON-RPC without passing through this decoder: such lines are dropped.
        false
    }
}

impl HostDecoder {
    fn call(&self, id: &Value, v: &Value, line: &[u8]) -> Incoming {
        let params = v.get("params");
        let tool = params.and_then(|p| p.get("name")).and_then(Value::as_str);
        let args = params.and_then(|p| p.get("arguments")).cloned().unwrap_or(json!({}));
        let mut st = lock(&self.state);
        let known = st.name.clone();
        let server = known.clone().unwrap_or_else(|| FALLBACK_NAME.into());
        let call_id = CallId {
            key: call_key(id),
            shown: format!("{server} {}", tool.unwrap_or("?")),
            wire: json!({"id": id, "line": String::from_utf8_lossy(line)}),
        };
        let (Some(tool), Value::Object(_)) = (tool, &args) else {
            return Incoming::Bad {
                id: Some(call_id),
                tool: tool.map(|t| format!("mcp__{server}__{t}")),
                error: "a tools/call without a tool name and an arguments object".into(),
            };
        };
        if known.is_none() {
            // Before the server answered initialize, gate does not know the name rules use for
            // it: deciding under another name could miss a deny rule. A host must wait anyway.
            return Incoming::Bad {
                id: Some(call_id),
                tool: Some(format!("mcp__?__{tool}")),
                error: "a tools/call before the server answered initialize (gate does not know the server's name yet; or pass --name)".into(),
            };
        }
        let annotations = st.annotations.get(tool).cloned();
        st.deciding.insert(call_id.key.clone());
        Incoming::Call(IncomingCall {
            id: call_id,
            call: Call { tool: format!("mcp__{server}__{tool}"), arguments: args, annotations },
            batch_remaining: Vec::new(),
            report_only: false,
            agent_asks: false,
        })
    }

    /// `notifications/cancelled` for a call gate holds: its prompt is withdrawn and its answer
    /// dropped (the notification itself passes on).
    fn cancelled(&self, v: &Value) {
        let Some(rid) = v.pointer("/params/requestId") else { return };
        let key = call_key(rid);
        let mut st = lock(&self.state);
        if !st.deciding.contains(&key) {
            return;
        }
        st.cancelled.insert(key.clone());
        let reason = v.pointer("/params/reason").and_then(Value::as_str).unwrap_or("no reason given");
        if st.prompting.as_deref() == Some(key.as_str()) {
            if let Some(c) = &st.cancel {
                c.withdraw();
            }
            note(&format!("the host cancelled call {rid} ({reason}); its prompt is withdrawn"));
        } else {
            note(&format!("the host cancelled call {rid} ({reason}) before it was decided; no answer will be sent"));
        }
    }

    /// A response from the host: to one of gate's requests (kept from the server), to a server
    /// request gate gave another id (the id put back), or a `roots/list` answer (decided when
    /// it names directories outside the workspace).
    fn response(&self, v: &Value) -> (Shown, Incoming) {
        let Some(id) = v.get("id") else { return (Shown::Line, Incoming::Nothing) };
        let key = call_key(id);
        let mut st = lock(&self.state);
        if let Some(tx) = st.waiting.remove(&key) {
            let _ = tx.send(v.clone());
            return (Shown::Hidden, Incoming::Nothing);
        }
        if st.withdrawn.remove(&key) {
            return (Shown::Hidden, Incoming::Nothing);
        }
        let original = st.remapped.remove(&key);
        drop(st);
        let mut v = v.clone();
        let mut shown = Shown::Line;
        if let Some(orig) = original {
            v["id"] = orig;
            shown = Shown::Text(line_of(&v));
        }
        match self.roots(&v) {
            Some(incoming) => (Shown::Hidden, incoming),
            None => (shown, Incoming::Nothing),
        }
    }

    /// A `roots/list` answer that names directories outside the workspace, as a call to decide:
    /// `mcp__<name>__roots/list` reading those directories. `None`: nothing widens.
    fn roots(&self, v: &Value) -> Option<Incoming> {
        let roots = v.pointer("/result/roots")?.as_array()?;
        let st = lock(&self.state);
        let workspace = st.workspace.clone();
        let server = st.name.clone().unwrap_or_else(|| FALLBACK_NAME.into());
        drop(st);
        let mut widening: Vec<(String, String)> = Vec::new();
        let mut kept: Vec<Value> = Vec::new();
        for r in roots {
            let uri = r.get("uri").and_then(Value::as_str).unwrap_or("");
            match root_dir(uri) {
                Some(dir) if within(&dir, &workspace) => kept.push(r.clone()),
                Some(dir) => widening.push((uri.to_string(), dir.display().to_string())),
                // A root gate cannot read as a directory: the server may still; decided as the
                // text it is (a relative path resolves in the workspace, so name it absolute).
                None => widening.push((uri.to_string(), format!("/{uri}"))),
            }
        }
        if widening.is_empty() {
            return None;
        }
        let id = v.get("id").cloned().unwrap_or(Value::Null);
        let mut filtered = v.clone();
        filtered["result"]["roots"] = Value::Array(kept);
        let paths: Vec<&str> = widening.iter().map(|(_, p)| p.as_str()).collect();
        let uris: Vec<&str> = widening.iter().map(|(u, _)| u.as_str()).collect();
        Some(Incoming::Call(IncomingCall {
            id: CallId {
                key: format!("mcp-roots:{id}"),
                shown: format!("{server} roots/list answer"),
                wire: json!({
                    "kind": "roots",
                    "id": id,
                    "forward": String::from_utf8_lossy(&line_of(v)),
                    "filtered": String::from_utf8_lossy(&line_of(&filtered)),
                    "uris": uris,
                }),
            },
            call: Call {
                tool: format!("mcp__{server}__roots/list"),
                arguments: json!({ "paths": paths }),
                annotations: Some(json!({ "readOnlyHint": true })),
            },
            batch_remaining: Vec::new(),
            report_only: false,
            agent_asks: false,
        }))
    }
}

/// The directory a root names, as the server reads it: a `file://` URI (percent-decoded) or a
/// plain path; `~` is the home directory; symbolic links resolved when it exists.
pub fn root_dir(uri: &str) -> Option<PathBuf> {
    let raw = match uri.strip_prefix("file://") {
        Some(rest) => {
            // `file://host/path`: only the local host is a local file.
            let path = if rest.starts_with('/') { rest } else { rest.strip_prefix("localhost")? };
            percent_decode(path)?
        }
        None => uri.to_string(),
    };
    let raw = match raw.strip_prefix("~") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => {
            format!("{}{rest}", std::env::var("HOME").ok()?)
        }
        _ => raw,
    };
    if !raw.starts_with('/') {
        return None;
    }
    let p = crate::policy::model::normalize(Path::new(&raw));
    Some(std::fs::canonicalize(&p).unwrap_or(p))
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn within(dir: &Path, workspace: &Path) -> bool {
    dir.starts_with(workspace)
}

/// Lines from the server (its stdout).
pub struct ServerDecoder {
    pub state: Shared,
}

/// The top-level `id` of an answer, read without building the rest (a request has a method).
#[derive(serde::Deserialize)]
struct IdOnly {
    id: Option<Value>,
    method: Option<serde::de::IgnoredAny>,
}

impl Decoder for ServerDecoder {
    fn line(&mut self, line: &[u8]) -> (Shown, Incoming) {
        let mut st = lock(&self.state);
        if !st.waiting.is_empty() {
            // gate has requests open with the host: a server request with one of their ids is
            // given another, so that its answer cannot be taken for gate's.
            if let Ok(mut v) = super::strict::parse(line) {
                if v.get("method").is_some() {
                    if let Some(id) = v.get("id").cloned() {
                        if st.waiting.contains_key(&call_key(&id)) {
                            st.next_remap += 1;
                            let new = json!(format!("gate-mapped-{}", st.next_remap));
                            st.remapped.insert(call_key(&new), id);
                            v["id"] = new;
                            return (Shown::Text(line_of(&v)), Incoming::Nothing);
                        }
                    }
                }
            }
        }
        // Only answers to what gate tracks matter from here on; everything else passes without
        // being parsed.
        let tracked = !(st.in_flight.is_empty() && st.init_ids.is_empty() && st.list_ids.is_empty());
        if !tracked
            || (memchr::memmem::find(line, b"\"result\"").is_none()
                && memchr::memmem::find(line, b"\"error\"").is_none())
        {
            return (Shown::Line, Incoming::Nothing);
        }
        let Ok(IdOnly { id: Some(id), method: None }) = serde_json::from_slice::<IdOnly>(line) else {
            return (Shown::Line, Incoming::Nothing);
        };
        let key = id.to_string();
        if st.in_flight.remove(&call_key(&id)).is_some() {
            return (Shown::Line, Incoming::Nothing);
        }
        if st.init_ids.remove(&key) {
            if st.name.is_none() {
                let name = super::strict::parse(line)
                    .ok()
                    .and_then(|v| v.pointer("/result/serverInfo/name").and_then(Value::as_str).map(str::to_string));
                st.name = Some(name.unwrap_or_else(|| FALLBACK_NAME.into()));
            }
            return (Shown::Line, Incoming::Nothing);
        }
        if !st.list_ids.remove(&key) {
            return (Shown::Line, Incoming::Nothing);
        }
        let Ok(mut v) = super::strict::parse(line) else { return (Shown::Line, Incoming::Nothing) };
        let server = st.name.clone().unwrap_or_else(|| FALLBACK_NAME.into());
        let whole = st.disabled.iter().any(|d| *d == format!("mcp__{server}"));
        let Some(tools) = v.pointer_mut("/result/tools").and_then(Value::as_array_mut) else {
            return (Shown::Line, Incoming::Nothing);
        };
        for t in tools.iter() {
            if let (Some(n), Some(a)) = (t.get("name").and_then(Value::as_str), t.get("annotations")) {
                st.annotations.insert(n.to_string(), a.clone());
            }
        }
        let before = tools.len();
        tools.retain(|t| {
            let n = t.get("name").and_then(Value::as_str).unwrap_or("");
            !whole && !st.disabled.iter().any(|d| *d == format!("mcp__{server}__{n}"))
        });
        if tools.len() == before {
            return (Shown::Line, Incoming::Nothing);
        }
        (Shown::Text(line_of(&v)), Incoming::Nothing)
    }

    fn oversize(&mut self, _head: &[u8], _limit: usize) -> Option<Incoming> {
        None
    }

    /// The server's output ended: every call it did not answer gets an error result.
    fn finish(&mut self) -> Option<Vec<u8>> {
        let mut st = lock(&self.state);
        st.server_gone = true;
        let open: Vec<Value> = st.in_flight.drain().map(|(_, id)| id).collect();
        drop(st);
        if open.is_empty() {
            return None;
        }
        note(&format!(
            "the MCP server's output ended with {} call(s) unanswered; each gets an error result",
            open.len()
        ));
        let mut out = Vec::new();
        for id in open {
            out.extend(error_result(&id, "gate: the MCP server exited before it answered this call"));
        }
        Some(out)
    }
}

/// A tool result with `isError: true` (what the model reads), no `structuredContent`.
pub fn error_result(id: &Value, text: &str) -> Vec<u8> {
    line_of(&json!({
        "jsonrpc": "2.0",
        "id": id,
        "result": {"content": [{"type": "text", "text": text}], "isError": true}
    }))
}

/// Answers: an allowed call goes on to the server as the host sent it; a denied one is a tool
/// result with `isError: true` back to the host (the model reads it). A roots answer goes on,
/// without the roots a denial refused.
pub struct McpEncoder {
    pub state: Shared,
}

impl Encoder for McpEncoder {
    fn resolution(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<u8> {
        let text = if r.approved {
            "gate: approved, but the request could not be forwarded".to_string()
        } else {
            format!("denied by gate: {}", message_for_model(&call.tool, r))
        };
        error_result(id.wire.get("id").unwrap_or(&Value::Null), &text)
    }

    fn routed(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<(Dest, Vec<u8>)> {
        let text = |k: &str| id.wire.get(k).and_then(Value::as_str).map(|s| s.as_bytes().to_vec());
        if id.wire.get("kind").and_then(Value::as_str) == Some("roots") {
            if r.approved {
                return text("forward").map(|l| vec![(Dest::Agent, l)]).unwrap_or_default();
            }
            let uris = id.wire.get("uris").map(Value::to_string).unwrap_or_default();
            note(&format!(
                "left out of the host's roots/list answer, so the server cannot reach them: {uris} ({}: {})",
                r.source(),
                r.reason
            ));
            return text("filtered").map(|l| vec![(Dest::Agent, l)]).unwrap_or_default();
        }
        let mut st = lock(&self.state);
        st.deciding.remove(&id.key);
        if st.cancelled.remove(&id.key) {
            note(&format!(
                "call {} was cancelled by the host: gate's answer ({}) is not sent",
                id.shown,
                if r.approved { "allow" } else { "deny" }
            ));
            return Vec::new();
        }
        if r.approved {
            if st.server_gone {
                drop(st);
                let text = "gate: approved, but the MCP server has exited";
                return vec![(Dest::Reply, error_result(id.wire.get("id").unwrap_or(&Value::Null), text))];
            }
            if let (Some(line), Some(wid)) = (text("line"), id.wire.get("id")) {
                if st.in_flight.len() < MAX_IN_FLIGHT {
                    st.in_flight.insert(id.key.clone(), wid.clone());
                }
                let mut l = line;
                l.push(b'\n');
                return vec![(Dest::Agent, l)];
            }
        }
        drop(st);
        vec![(Dest::Reply, self.resolution(id, call, r))]
    }

    fn policy_changed(&mut self, disabled_tools: &[String]) -> Option<Vec<u8>> {
        // The next tools/list answer is filtered by the new policy (nothing is sent now: the
        // session would send it to the server).
        lock(&self.state).disabled = disabled_tools.to_vec();
        None
    }
}

/// The `elicitation/create` request that asks the person in the host's dialog, with gate's own
/// id: the choices of gate's prompt as one enum, and optional feedback.
pub fn elicitation(id: &str, message: &str) -> Vec<u8> {
    line_of(&json!({
        "jsonrpc": "2.0",
        "id": id,
        "method": "elicitation/create",
        "params": {
            "message": message,
            "requestedSchema": {
                "type": "object",
                "properties": {
                    "decision": {
                        "type": "string",
                        "title": "Allow this call?",
                        "enum": ["once", "session", "always", "reject", "stop"],
                        "enumNames": [
                            "Allow once",
                            "Allow for this session",
                            "Always allow (stored in .gate/approvals.yaml)",
                            "Reject",
                            "Reject and stop the batch"
                        ]
                    },
                    "feedback": {
                        "type": "string",
                        "title": "Feedback for the model (on reject)"
                    }
                },
                "required": ["decision"]
            }
        }
    }))
}

/// The host's answer to [`elicitation`], as the person's reply.
pub fn elicitation_reply(response: &Value) -> Result<crate::approve::Reply, String> {
    use crate::approve::{Answer, Reply};
    if let Some(e) = response.get("error") {
        return Err(format!("the host answered gate's elicitation with an error: {e}"));
    }
    let result = response.get("result").ok_or("the host's answer to gate's elicitation has no result")?;
    let reject = |reason: &str| Reply {
        answer: Answer::RejectSoft { feedback: None },
        by: super::By::Person,
        reason: Some(reason.into()),
    };
    match result.get("action").and_then(Value::as_str) {
        Some("accept") => {}
        Some("decline") => return Ok(reject("declined in the host's dialog")),
        Some("cancel") => return Ok(reject("the host's dialog was dismissed")),
        other => return Err(format!("the host's elicitation answer has an unknown action {other:?}")),
    }
    let content = result.get("content").cloned().unwrap_or(Value::Null);
    let feedback = content.get("feedback").and_then(Value::as_str).map(str::trim).filter(|f| !f.is_empty());
    let feedback = feedback.map(str::to_string);
    Ok(match content.get("decision").and_then(Value::as_str) {
        Some("once") => Reply::user(Answer::Once),
        Some("session") => Reply::user(Answer::Session),
        Some("always") => Reply::user(Answer::Always),
        Some("reject") => Reply::user(Answer::RejectSoft { feedback }),
        Some("stop") => Reply::user(Answer::RejectHard { feedback }),
        other => return Err(format!("the host's elicitation answer has no decision gate knows ({other:?})")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh() -> (Shared, HostDecoder, ServerDecoder) {
        let state: Shared = Arc::default();
        lock(&state).disabled = vec!["mcp__fs__move_file".into()];
        lock(&state).workspace = PathBuf::from("/w");
        (state.clone(), HostDecoder { state: state.clone() }, ServerDecoder { state })
    }

    fn init(host: &mut HostDecoder, server: &mut ServerDecoder) {
        host.line(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{"elicitation":{}}}}"#);
        server.line(br#"{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"fs"}}}"#);
    }

    #[test]
    fn calls_are_named_by_server_and_lists_filtered() {
        let (state, mut host, mut server) = fresh();
        // Before initialize is answered, a call is refused (its server's name is not known).
        let early =
            host.line(br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x","arguments":{}}}"#);
        assert!(matches!(early, (Shown::Hidden, Incoming::Bad { id: Some(_), .. })), "{early:?}");
        init(&mut host, &mut server);
        assert!(lock(&state).host_elicits);
        host.line(br#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#);
        let (shown, _) = server.line(
            br#"{"jsonrpc":"2.0","id":2,"result":{"tools":[{"name":"read_file","annotations":{"readOnlyHint":true}},{"name":"move_file"}]}}"#,
        );
        match shown {
            Shown::Text(t) => {
                let s = String::from_utf8(t).unwrap();
                assert!(s.contains("read_file") && !s.contains("move_file"), "{s}");
            }
            other => panic!("{other:?}"),
        }
        match host.line(
            br#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"read_file","arguments":{"path":"a"}}}"#,
        ) {
            (Shown::Hidden, Incoming::Call(c)) => {
                assert_eq!(c.call.tool, "mcp__fs__read_file");
                assert_eq!(c.call.annotations, Some(json!({"readOnlyHint": true})));
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(host.line(b"{\"method\":\"tools/call\", oops"), (Shown::Hidden, Incoming::Bad { .. })));
        assert!(!host.passes_plain_lines(), "a line with leading blanks could carry a call past gate");
    }

    #[test]
    fn allowed_calls_are_forwarded_and_tracked_until_answered() {
        let (state, mut host, mut server) = fresh();
        init(&mut host, &mut server);
        let raw = br#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"w","arguments":{}}}"#;
        let (_, Incoming::Call(c)) = host.line(raw) else { panic!() };
        let mut enc = McpEncoder { state: state.clone() };
        let ok = Resolution::from_policy(crate::policy::Decision::new(
            crate::policy::Verdict::Allow,
            crate::policy::Layer::Mode,
            None,
            "x",
        ));
        let out = enc.routed(&c.id, &c.call, &ok);
        assert_eq!(out, vec![(Dest::Agent, [&raw[..], b"\n"].concat())], "forwarded byte for byte");
        // The server dies before answering: the host gets an error result for it.
        let tail = String::from_utf8(server.finish().unwrap()).unwrap();
        let v: Value = serde_json::from_str(tail.trim()).unwrap();
        assert_eq!((v["id"].clone(), v["result"]["isError"].clone()), (json!("a"), json!(true)));
        // Calls decided after that are answered, never forwarded.
        let (_, Incoming::Call(c)) = host.line(&raw.replace(b"\"a\"", b"\"b\"")) else { panic!() };
        assert_eq!(enc.routed(&c.id, &c.call, &ok)[0].0, Dest::Reply);
    }

    trait Replace {
        fn replace(&self, a: &[u8], b: &[u8]) -> Vec<u8>;
    }
    impl Replace for [u8] {
        fn replace(&self, a: &[u8], b: &[u8]) -> Vec<u8> {
            String::from_utf8_lossy(self)
                .replace(std::str::from_utf8(a).unwrap(), std::str::from_utf8(b).unwrap())
                .into_bytes()
        }
    }

    #[test]
    fn cancelled_calls_get_no_answer() {
        let (state, mut host, mut server) = fresh();
        init(&mut host, &mut server);
        let raw = br#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"w","arguments":{}}}"#;
        let (_, Incoming::Call(c)) = host.line(raw) else { panic!() };
        let cancel = Arc::new(crate::approve::Cancel::default());
        lock(&state).cancel = Some(cancel.clone());
        lock(&state).prompting = Some(c.id.key.clone());
        let (shown, _) =
            host.line(br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":5,"reason":"x"}}"#);
        assert_eq!(shown, Shown::Line, "the notification passes on");
        assert!(cancel.withdrawn(), "the open prompt is withdrawn");
        let mut enc = McpEncoder { state };
        assert!(enc.routed(&c.id, &c.call, &Resolution::error("withdrawn")).is_empty());
    }

    #[test]
    fn roots_outside_the_workspace_are_decided() {
        let (_state, mut host, mut server) = fresh();
        init(&mut host, &mut server);
        let inside = br#"{"jsonrpc":"2.0","id":0,"result":{"roots":[{"uri":"file:///w/sub"}]}}"#;
        assert_eq!(host.line(inside), (Shown::Line, Incoming::Nothing));
        let wide =
            br#"{"jsonrpc":"2.0","id":0,"result":{"roots":[{"uri":"file:///w"},{"uri":"file:///else%20where"}]}}"#;
        let (shown, Incoming::Call(c)) = host.line(wide) else { panic!() };
        assert_eq!(shown, Shown::Hidden);
        assert_eq!(c.call.tool, "mcp__fs__roots/list");
        assert_eq!(c.call.arguments, json!({"paths": ["/else where"]}));
        let filtered: Value = serde_json::from_str(c.id.wire["filtered"].as_str().unwrap()).unwrap();
        assert_eq!(filtered["result"]["roots"], json!([{"uri": "file:///w"}]));
        let mut enc = McpEncoder { state: host.state.clone() };
        let out = enc.routed(&c.id, &c.call, &Resolution::error("no"));
        assert_eq!(out[0].0, Dest::Agent);
        assert!(!String::from_utf8_lossy(&out[0].1).contains("else"));
    }

    #[test]
    fn gate_s_own_requests_cannot_collide_with_the_server_s() {
        let (state, mut host, mut server) = fresh();
        init(&mut host, &mut server);
        let (tx, rx) = mpsc::channel();
        lock(&state).waiting.insert(call_key(&json!("g-1")), tx);
        // The server asks the host something with the same id: it travels under another id.
        let (shown, _) = server.line(br#"{"jsonrpc":"2.0","id":"g-1","method":"sampling/createMessage"}"#);
        let Shown::Text(t) = shown else { panic!("{shown:?}") };
        let sent: Value = serde_json::from_slice(&t).unwrap();
        assert_ne!(sent["id"], "g-1");
        // The host's answers: gate's own is kept from the server; the server's gets its id back.
        let mine = br#"{"jsonrpc":"2.0","id":"g-1","result":{"action":"decline"}}"#;
        assert_eq!(host.line(mine).0, Shown::Hidden);
        assert_eq!(rx.recv().unwrap()["result"]["action"], "decline");
        let theirs = format!(r#"{{"jsonrpc":"2.0","id":{},"result":{{}}}}"#, sent["id"]);
        let (Shown::Text(back), _) = host.line(theirs.as_bytes()) else { panic!() };
        assert_eq!(serde_json::from_slice::<Value>(&back).unwrap()["id"], "g-1");
        // A late answer to a request gate withdrew is kept from the server too.
        lock(&state).withdrawn.insert(call_key(&json!("g-2")));
        assert_eq!(host.line(br#"{"jsonrpc":"2.0","id":"g-2","result":{}}"#).0, Shown::Hidden);
    }

    #[test]
    fn elicitation_answers_are_read_as_replies() {
        use crate::approve::Answer;
        let r = |v: Value| elicitation_reply(&json!({"id": "x", "result": v}));
        assert_eq!(r(json!({"action": "accept", "content": {"decision": "once"}})).unwrap().answer, Answer::Once);
        assert_eq!(
            r(json!({"action": "accept", "content": {"decision": "reject", "feedback": "use b"}})).unwrap().answer,
            Answer::RejectSoft { feedback: Some("use b".into()) }
        );
        assert!(matches!(r(json!({"action": "decline"})).unwrap().answer, Answer::RejectSoft { .. }));
        assert!(r(json!({"action": "accept", "content": {}})).is_err());
        assert!(elicitation_reply(&json!({"id": 1, "error": {"code": 1}})).is_err());
    }
}
