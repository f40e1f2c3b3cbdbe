//! A minimal client of `codex app-server` (JSON-RPC without a `"jsonrpc"` field, one JSON per
//! line). See /work/shared/realclients/codex.md.
//!
//! ```ignore
//! let mut app = AppServer::start(codex.command(&sb, Some(&mock.url())), Duration::from_secs(60)); // + arg "app-server"
//! app.initialize();
//! let thread = app.thread_start(&sb.work, "untrusted", "danger-full-access");
//! let done = app.turn(&thread, "run it", &mut |req| codex_app::decide(req, "accept"));
//! ```

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use serde_json::{json, Value};

use super::stdio::{no_requests, JsonlProcess, Rpc};

pub struct AppServer {
    pub rpc: Rpc,
}

impl AppServer {
    /// Spawns `cmd`, which must already carry the `app-server` argument.
    pub fn start(cmd: Command, timeout: Duration) -> AppServer {
        AppServer { rpc: Rpc::new(JsonlProcess::spawn(cmd, timeout), None) }
    }

    /// `initialize` then the `initialized` notification; returns initialize's result.
    pub fn initialize(&mut self) -> Value {
        let r = self.rpc.call_ok(
            "initialize",
            json!({"clientInfo": {"name": "gate-tests", "version": "0.0.1"}}),
            &mut no_requests,
        );
        self.rpc.notify("initialized", json!({}));
        r
    }

    /// `thread/start` in `cwd` with `approval_policy` (`untrusted`, `on-request`, `never`, ...)
    /// and `sandbox` (`read-only`, `workspace-write`, `danger-full-access`), approvals routed to
    /// this client, ephemeral; returns the thread id.
    pub fn thread_start(&mut self, cwd: &Path, approval_policy: &str, sandbox: &str) -> String {
        let r = self.rpc.call_ok(
            "thread/start",
            json!({"cwd": cwd, "approvalPolicy": approval_policy, "approvalsReviewer": "user",
                   "sandbox": sandbox, "ephemeral": true}),
            &mut no_requests,
        );
        match r["thread"]["id"].as_str() {
            Some(id) => id.to_string(),
            None => self.rpc.p.fail(format!("thread/start gave no thread id: {r}")),
        }
    }

    /// `turn/start` with one text input, then answers the server's requests (approvals) with
    /// `on_request` until `turn/completed`; returns that notification's params.
    pub fn turn(&mut self, thread: &str, text: &str, on_request: &mut dyn FnMut(&Value) -> Option<Value>) -> Value {
        self.rpc.call_ok(
            "turn/start",
            json!({"threadId": thread, "input": [{"type": "text", "text": text}]}),
            on_request,
        );
        self.rpc.wait_notification("turn/completed", on_request)
    }

    /// The approval requests received so far (commands and file changes).
    pub fn approvals(&self) -> Vec<Value> {
        self.rpc
            .seen
            .iter()
            .filter(|m| m.get("id").is_some() && m["method"].as_str().is_some_and(|s| s.ends_with("/requestApproval")))
            .cloned()
            .collect()
    }

    /// The `item/completed` items so far.
    pub fn completed_items(&self) -> Vec<Value> {
        self.rpc.notifications("item/completed").into_iter().map(|n| n["params"]["item"].clone()).collect()
    }
}

/// Answers `item/commandExecution/requestApproval` and `item/fileChange/requestApproval` with
/// `decision` (`accept`, `acceptForSession`, `decline`, `cancel`); the legacy v1 approvals with
/// `approved`/`denied`; anything else: None (method not found).
pub fn decide(req: &Value, decision: &str) -> Option<Value> {
    match req["method"].as_str()? {
        "item/commandExecution/requestApproval" | "item/fileChange/requestApproval" => {
            Some(json!({ "decision": decision }))
        }
        "execCommandApproval" | "applyPatchApproval" => {
            let d = if decision.starts_with("accept") { "approved" } else { "denied" };
            Some(json!({ "decision": d }))
        }
        _ => None,
    }
}
