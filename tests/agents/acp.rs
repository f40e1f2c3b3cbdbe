//! A minimal Agent Client Protocol client (NDJSON JSON-RPC 2.0 on the agent's stdio), for
//! `opencode acp`, `gemini --acp` and `codex-acp`. See /work/shared/realclients/acp.md.
//!
//! ```ignore
//! let mut acp = Acp::start(cmd, Duration::from_secs(60));
//! acp.initialize();
//! let sid = acp.new_session(&sb.work);
//! let result = acp.prompt(&sid, "run it", &mut |req| acp::answer_permission(req, "allow_once"));
//! ```

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};

use super::stdio::{JsonlProcess, Rpc};

pub struct Acp {
    pub rpc: Rpc,
}

impl Acp {
    pub fn start(cmd: Command, timeout: Duration) -> Acp {
        Acp { rpc: Rpc::new(JsonlProcess::spawn(cmd, timeout), Some("2.0")) }
    }

    /// `initialize` (protocol 1, no fs or terminal capabilities); returns the result.
    pub fn initialize(&mut self) -> Value {
        self.rpc.call_ok(
            "initialize",
            json!({"protocolVersion": 1,
                   "clientCapabilities": {"fs": {"readTextFile": false, "writeTextFile": false}, "terminal": false},
                   "clientInfo": {"name": "gate-tests", "title": "gate tests", "version": "0.0.1"}}),
            &mut super::stdio::no_requests,
        )
    }

    /// `session/new` in `cwd`, no MCP servers; returns the session id.
    pub fn new_session(&mut self, cwd: &Path) -> String {
        let r = self.rpc.call_ok("session/new", json!({"cwd": cwd, "mcpServers": []}), &mut super::stdio::no_requests);
        match r["sessionId"].as_str() {
            Some(s) => s.to_string(),
            None => self.rpc.p.fail(format!("session/new gave no sessionId: {r}")),
        }
    }

    /// `session/prompt` with one text block; answers the agent's requests (permission requests
    /// among them) with `on_request` until the prompt's result arrives, and returns it
    /// (`{"stopReason": ...}`).
    pub fn prompt(&mut self, session: &str, text: &str, on_request: &mut dyn FnMut(&Value) -> Option<Value>) -> Value {
        self.rpc.call_ok(
            "session/prompt",
            json!({"sessionId": session, "prompt": [{"type": "text", "text": text}]}),
            on_request,
        )
    }

    /// The `session/request_permission` requests received so far.
    pub fn permission_requests(&self) -> Vec<Value> {
        self.rpc.requests("session/request_permission")
    }

    /// The `session/update` notifications' `update` objects so far.
    pub fn updates(&self) -> Vec<Value> {
        self.rpc.notifications("session/update").into_iter().map(|n| n["params"]["update"].clone()).collect()
    }
}

/// The answer to `session/request_permission` choosing the first option of `kind`
/// (`allow_once`, `allow_always`, `reject_once`, ...); options are chosen by kind, never by id.
/// Any other request: None (method not found).
pub fn answer_permission(req: &Value, kind: &str) -> Option<Value> {
    if req["method"] != "session/request_permission" {
        return None;
    }
    let opt = req["params"]["options"].as_array()?.iter().find(|o| o["kind"] == kind)?;
    Some(json!({"outcome": {"outcome": "selected", "optionId": opt["optionId"]}}))
}

/// The answer cancelling a permission request.
pub fn cancelled() -> Value {
    json!({"outcome": {"outcome": "cancelled"}})
}
