//! A minimal host for Claude Code's stream-json control protocol, as an SDK drives it: user
//! messages and `control_request`s in on stdin, messages and the CLI's own `control_request`s
//! (`can_use_tool`, `hook_callback`) out on stdout. See /work/shared/realclients/claude-code.md.
//!
//! ```ignore
//! let mut cmd = claude.command(&sb, Some(&mock.url()));
//! cmd.args(claude::ARGS);
//! let mut cc = Claude::start(cmd, Duration::from_secs(60));
//! cc.initialize(None);
//! cc.user("run it");
//! let result = cc.run_turn(&mut claude::allow_all);
//! ```

use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};

use super::stdio::JsonlProcess;

/// Headless, stream-json both ways, permission requests on stdio.
pub const ARGS: &[&str] = &[
    "-p",
    "--input-format",
    "stream-json",
    "--output-format",
    "stream-json",
    "--verbose",
    "--permission-prompt-tool",
    "stdio",
];

pub struct Claude {
    pub p: JsonlProcess,
    /// Every line received, in order.
    pub seen: Vec<Value>,
    next_id: u64,
}

impl Claude {
    /// Spawns `cmd` (which must carry [`ARGS`] or the like).
    pub fn start(cmd: Command, timeout: Duration) -> Claude {
        Claude { p: JsonlProcess::spawn(cmd, timeout), seen: Vec::new(), next_id: 1 }
    }

    /// Sends a host `control_request`; returns its request id.
    pub fn control(&mut self, request: Value) -> String {
        let id = format!("req_{}_{}", self.next_id, request["subtype"].as_str().unwrap_or("x"));
        self.next_id += 1;
        self.p.send(&json!({"type": "control_request", "request_id": id, "request": request}));
        id
    }

    /// `initialize`, registering `hooks` (e.g. `{"PreToolUse": [{"matcher": "*",
    /// "hookCallbackIds": ["hook_0"]}]}`) or none; waits for and returns its response.
    pub fn initialize(&mut self, hooks: Option<Value>) -> Value {
        let id = self.control(json!({"subtype": "initialize", "hooks": hooks}));
        let r = self.p.recv_until(|m| m["type"] == "control_response" && m["response"]["request_id"] == id);
        self.seen.push(r.clone());
        r["response"].clone()
    }

    /// Sends one user message.
    pub fn user(&mut self, text: &str) {
        self.p.send(&json!({"type": "user", "session_id": "",
            "message": {"role": "user", "content": text}, "parent_tool_use_id": null}));
    }

    /// Runs until the turn's `result` message (returned), answering each `control_request`
    /// from the CLI with `answer(request)`: `Ok(response)` is sent as success, `Err(text)` as an
    /// error. Fails the test if stdout closes first.
    pub fn run_turn(&mut self, answer: &mut dyn FnMut(&Value) -> Result<Value, String>) -> Value {
        loop {
            let Some(m) = self.p.recv() else {
                self.p.fail("Claude Code closed stdout before the result");
            };
            self.seen.push(m.clone());
            match m["type"].as_str() {
                Some("result") => return m,
                Some("control_request") => {
                    let id = m["request_id"].clone();
                    let response = match answer(&m["request"]) {
                        Ok(r) => json!({"subtype": "success", "request_id": id, "response": r}),
                        Err(e) => json!({"subtype": "error", "request_id": id, "error": e}),
                    };
                    self.p.send(&json!({"type": "control_response", "response": response}));
                }
                _ => {}
            }
        }
    }

    /// The CLI's `control_request`s of `subtype` so far (their `request` objects).
    pub fn requests(&self, subtype: &str) -> Vec<Value> {
        self.seen
            .iter()
            .filter(|m| m["type"] == "control_request" && m["request"]["subtype"] == subtype)
            .map(|m| m["request"].clone())
            .collect()
    }
}

/// `can_use_tool` allowed with its input unchanged (`updatedInput` is required).
pub fn allow(req: &Value) -> Value {
    json!({"behavior": "allow", "updatedInput": req["input"]})
}

/// `can_use_tool` denied with `message` (the tool result the model sees).
pub fn deny(message: &str) -> Value {
    json!({"behavior": "deny", "message": message})
}

/// Allows every `can_use_tool`, passes every `hook_callback` through (`{}`), and refuses other
/// requests with an error.
pub fn allow_all(req: &Value) -> Result<Value, String> {
    match req["subtype"].as_str() {
        Some("can_use_tool") => Ok(allow(req)),
        Some("hook_callback") => Ok(json!({})),
        other => Err(format!("test host: unsupported {other:?}")),
    }
}
