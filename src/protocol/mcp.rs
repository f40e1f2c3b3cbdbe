//! MCP (the Model Context Protocol over stdio, JSON-RPC lines): gate in the middle of a host's
//! pipe to a server (`gate run --protocol mcp [--name SERVER] -- SERVER...`,
//! docs/agents/mcp.md). Every message passes unchanged, except:
//! - `tools/call` from the host is decided as `mcp__<name>__<tool>` (risk from the tool's
//!   annotations, cached from `tools/list`): allowed, it goes on to the server as it was sent;
//!   denied, gate answers the host with a tool result `isError: true` carrying the reason;
//! - the server's `tools/list` answers leave out the tools a rule denies outright.
//!
//! `<name>` is `--name`, else the server's `serverInfo.name`. Translation only: no I/O, no
//! decisions.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use serde_json::{json, Value};

use super::{message_for_model, CallId, Decoder, Dest, Encoder, Incoming, IncomingCall, Resolution, Shown};
use crate::policy::Call;

/// What both directions learn.
#[derive(Default)]
pub struct State {
    /// The server's name in rules (`mcp__<name>__...`).
    pub name: Option<String>,
    /// Ids (JSON text) of the host's `initialize` and `tools/list` requests, to read the answers.
    init_ids: HashSet<String>,
    list_ids: HashSet<String>,
    /// Each tool's annotations, from `tools/list`.
    annotations: HashMap<String, Value>,
}

pub type Shared = Arc<Mutex<State>>;

fn lock(s: &Shared) -> std::sync::MutexGuard<'_, State> {
    s.lock().unwrap_or_else(|e| e.into_inner())
}

/// The name a server is known by in rules when it names none: `server`.
const FALLBACK_NAME: &str = "server";

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
                        key: format!("mcp:{i}"),
                        shown: i.to_string(),
                        wire: json!({ "id": i }),
                    });
                    return (
                        Shown::Hidden,
                        Incoming::Bad { id, tool: None, error: format!("a tools/call that is not valid JSON ({e})") },
                    );
                }
                return (Shown::Line, Incoming::Malformed(format!("is not valid JSON ({e})")));
            }
        };
        let method = v.get("method").and_then(Value::as_str);
        let id = v.get("id").filter(|i| i.is_string() || i.is_number());
        match (method, id) {
            (Some("initialize"), Some(id)) => {
                lock(&self.state).init_ids.insert(id.to_string());
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
            _ => (Shown::Line, Incoming::Nothing),
        }
    }

    fn oversize(&mut self, head: &[u8], limit: usize) -> Option<Incoming> {
        // A tools/call cut at the limit is never passed on undecided.
        memchr::memmem::find(head, b"tools/call").map(|_| Incoming::Bad {
            id: None,
            tool: None,
            error: format!("a message naming tools/call longer than --max-line ({limit} bytes): dropped"),
        })
    }
}

impl HostDecoder {
    fn call(&self, id: &Value, v: &Value, line: &[u8]) -> Incoming {
        let params = v.get("params");
        let tool = params.and_then(|p| p.get("name")).and_then(Value::as_str);
        let args = params.and_then(|p| p.get("arguments")).cloned().unwrap_or(json!({}));
        let st = lock(&self.state);
        let known = st.name.clone();
        let server = known.clone().unwrap_or_else(|| FALLBACK_NAME.into());
        let call_id = CallId {
            key: format!("mcp:{id}"),
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
        Incoming::Call(IncomingCall {
            id: call_id,
            call: Call { tool: format!("mcp__{server}__{tool}"), arguments: args, annotations },
            batch_remaining: Vec::new(),
            report_only: false,
            agent_asks: false,
        })
    }
}

/// Lines from the server (its stdout).
pub struct ServerDecoder {
    pub state: Shared,
    /// Tools a rule denies outright (`mcp__x__y`, or `mcp__x` for the whole server).
    pub disabled: Vec<String>,
}

impl Decoder for ServerDecoder {
    fn line(&mut self, line: &[u8]) -> (Shown, Incoming) {
        // Only answers to the host's initialize and tools/list matter; everything else passes
        // without being parsed twice.
        if memchr::memmem::find(line, b"\"result\"").is_none() {
            return (Shown::Line, Incoming::Nothing);
        }
        let Ok(mut v) = super::strict::parse(line) else { return (Shown::Line, Incoming::Nothing) };
        let Some(key) = v.get("id").map(Value::to_string) else { return (Shown::Line, Incoming::Nothing) };
        let mut st = lock(&self.state);
        if st.init_ids.remove(&key) {
            if st.name.is_none() {
                let n = v.pointer("/result/serverInfo/name").and_then(Value::as_str).unwrap_or(FALLBACK_NAME);
                st.name = Some(n.to_string());
            }
            return (Shown::Line, Incoming::Nothing);
        }
        if !st.list_ids.remove(&key) {
            return (Shown::Line, Incoming::Nothing);
        }
        let server = st.name.clone().unwrap_or_else(|| FALLBACK_NAME.into());
        let whole = self.disabled.iter().any(|d| *d == format!("mcp__{server}"));
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
            !whole && !self.disabled.iter().any(|d| *d == format!("mcp__{server}__{n}"))
        });
        if tools.len() == before {
            return (Shown::Line, Incoming::Nothing);
        }
        let mut out = serde_json::to_vec(&v).unwrap_or_default();
        out.push(b'\n');
        (Shown::Text(out), Incoming::Nothing)
    }

    fn oversize(&mut self, _head: &[u8], _limit: usize) -> Option<Incoming> {
        None
    }
}

/// Answers: an allowed call goes on to the server as the host sent it; a denied one is a tool
/// result with `isError: true` back to the host (the model reads it).
pub struct McpEncoder;

impl Encoder for McpEncoder {
    fn resolution(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<u8> {
        let text = if r.approved {
            "gate: approved, but the request could not be forwarded".to_string()
        } else {
            format!("denied by gate: {}", message_for_model(&call.tool, r))
        };
        let mut out = serde_json::to_vec(&json!({
            "jsonrpc": "2.0",
            "id": id.wire.get("id").cloned().unwrap_or(Value::Null),
            "result": {"content": [{"type": "text", "text": text}], "isError": true}
        }))
        .unwrap_or_default();
        out.push(b'\n');
        out
    }

    fn routed(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<(Dest, Vec<u8>)> {
        if r.approved {
            if let Some(line) = id.wire.get("line").and_then(Value::as_str) {
                let mut l = line.as_bytes().to_vec();
                l.push(b'\n');
                return vec![(Dest::Agent, l)];
            }
        }
        vec![(Dest::Reply, self.resolution(id, call, r))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_named_by_server_and_lists_filtered() {
        let state: Shared = Arc::default();
        let mut host = HostDecoder { state: state.clone() };
        let mut server = ServerDecoder { state: state.clone(), disabled: vec!["mcp__fs__move_file".into()] };
        // Before initialize is answered, a call is refused (its server's name is not known).
        let early =
            host.line(br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"x","arguments":{}}}"#);
        assert!(matches!(early, (Shown::Hidden, Incoming::Bad { id: Some(_), .. })), "{early:?}");
        host.line(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#);
        server.line(br#"{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"fs"}}}"#);
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
    }
}
