//! gate in front of the real `codex app-server` (@openai/codex 0.169.0) against the loopback
//! Responses mock: in the client's pipe (the test is the IDE client), and as the client
//! (`--prompt`, and `codex exec`). See docs/agents/codex.md.
//!
//! Codex's Linux sandbox needs bubblewrap; where it is missing the tests pass
//! `-c sandbox_mode="danger-full-access"` (and print a note saying so).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod agents;

use std::process::Command;
use std::time::Duration;

use agents::mock::{Mock, ToolCall};
use agents::{codex_app, responses, AgentBin, Sandbox};
use serde_json::Value;

const GATE: &str = env!("CARGO_BIN_EXE_gate");
const T: Duration = Duration::from_secs(120);

fn sandbox() -> &'static str {
    if agents::have_bwrap() {
        "workspace-write"
    } else {
        eprintln!("note: bubblewrap (bwrap) is missing: codex runs with sandbox danger-full-access");
        "danger-full-access"
    }
}

fn gate(a: &AgentBin, sb: &Sandbox, mock: &Mock, extra: &[&str], codex_args: &[&str]) -> Command {
    let mut cmd = Command::new(GATE);
    a.env(sb, Some(&mock.url())).apply(&mut cmd);
    cmd.current_dir(&sb.work);
    cmd.args(["run", "-c", "host.yaml", "--audit", "audit.jsonl", "--kill-grace", "2"]);
    cmd.args(extra);
    let sbx = format!("sandbox_mode=\"{}\"", sandbox());
    cmd.arg("--").arg(&a.bin).args(["-c", &sbx]).args(codex_args);
    cmd
}

fn patch_add(rel: &str, line: &str) -> ToolCall {
    responses::patch(&format!("*** Begin Patch\n*** Add File: {rel}\n+{line}\n*** End Patch\n"))
}

fn patch_update(rel: &str, old: &str, new: &str) -> ToolCall {
    responses::patch(&format!("*** Begin Patch\n*** Update File: {rel}\n@@\n-{old}\n+{new}\n*** End Patch\n"))
}

fn audit(sb: &Sandbox) -> Vec<Value> {
    std::fs::read_to_string(sb.work.join("audit.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Through gate as a proxy: rm denied, touch allowed, .env denied, docs/a.md allowed; nothing
/// reaches the client.
#[test]
fn codex_proxy_decides_commands_and_patches() {
    let Ok(a) = agents::agent("codex") else { return };
    let sb = agents::scenario();
    let mock = responses::start(agents::mock::script(vec![
        responses::shell("rm -rf x"),
        responses::shell("touch made.txt"),
        patch_add(".env.local", "SECRET=stolen"),
        patch_update("docs/a.md", "color=red", "color=blue"),
    ]));
    let mut app = codex_app::AppServer::start(gate(&a, &sb, &mock, &[], &["app-server"]), T);
    app.initialize();
    let thread = app.thread_start(&sb.work, "untrusted", sandbox());
    let mut forwarded = Vec::new();
    let done = app.turn(&thread, "do the steps", &mut |req| {
        forwarded.push(req.clone());
        codex_app::decide(req, "accept")
    });
    app.rpc.p.finish(Duration::from_secs(10));
    let ctx = format!("{}\n--- mock\n{}\n--- audit\n{:?}", app.rpc.p.transcript(), mock.summary(), audit(&sb));
    assert_eq!(done["turn"]["status"], "completed", "{ctx}");
    assert!(forwarded.is_empty(), "{forwarded:?}\n{ctx}");
    assert!(sb.work.join("x/keep.txt").exists(), "{ctx}");
    assert!(sb.work.join("made.txt").exists(), "{ctx}");
    assert!(!sb.work.join(".env.local").exists(), "{ctx}");
    assert_eq!(std::fs::read_to_string(sb.work.join("docs/a.md")).unwrap(), "color=blue\n", "{ctx}");
    let a = audit(&sb);
    assert!(a.iter().any(|r| r["tool"] == "Bash" && r["decision"] == "deny"), "{ctx}");
    assert!(a.iter().any(|r| r["tool"] == "Edit" && r["decision"] == "deny"), "{ctx}");
}

/// A command the policy asks about goes to the client as Codex sent it; the client's
/// acceptWithExecpolicyAmendment reaches Codex as `accept` and becomes gate's approval.
#[test]
fn codex_proxy_ask_goes_to_the_client_and_always_is_gates() {
    let Ok(a) = agents::agent("codex") else { return };
    let sb = agents::scenario();
    let mock = responses::start(agents::mock::script(vec![responses::shell("mkdir newdir")]));
    let mut app = codex_app::AppServer::start(gate(&a, &sb, &mock, &[], &["app-server"]), T);
    app.initialize();
    let thread = app.thread_start(&sb.work, "untrusted", sandbox());
    let mut forwarded = Vec::new();
    let done = app.turn(&thread, "do it", &mut |req| {
        forwarded.push(req.clone());
        Some(serde_json::json!({"decision": {"acceptWithExecpolicyAmendment": {"execpolicy_amendment": ["mkdir", "newdir"]}}}))
    });
    app.rpc.p.finish(Duration::from_secs(10));
    let ctx = format!("{}\n--- mock\n{}", app.rpc.p.transcript(), mock.summary());
    assert_eq!(done["turn"]["status"], "completed", "{ctx}");
    assert_eq!(forwarded.len(), 1, "{ctx}");
    assert_eq!(forwarded[0]["method"], "item/commandExecution/requestApproval", "{ctx}");
    assert!(sb.work.join("newdir").is_dir(), "{ctx}");
    let out = Command::new(GATE).current_dir(&sb.work).args(["approvals", "list", "-c", "host.yaml"]).output().unwrap();
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(list.contains("mkdir") || list.contains("newdir"), "no gate approval: {list}\n{ctx}");
}

/// gate as the client: `--prompt` with `codex app-server`, and `codex exec TEXT`.
#[test]
fn codex_client_modes_run_the_prompt() {
    let Ok(a) = agents::agent("codex") else { return };
    for form in ["app-server", "exec"] {
        let sb = agents::scenario();
        let mock = responses::start(agents::mock::script(vec![
            responses::shell("rm -rf x"),
            responses::shell("touch made.txt"),
        ]));
        let cmd = match form {
            "app-server" => gate(&a, &sb, &mock, &["--prompt", "do the steps"], &["app-server"]),
            _ => gate(&a, &sb, &mock, &[], &["exec", "do the steps"]),
        };
        let f = agents::run(cmd, T);
        let ctx = format!("{form}\n{}\n--- mock\n{}", f.transcript(), mock.summary());
        assert!(f.status.success(), "{ctx}");
        assert!(f.stdout.contains("done."), "{ctx}");
        assert!(sb.work.join("x/keep.txt").exists(), "{ctx}");
        assert!(sb.work.join("made.txt").exists(), "{ctx}");
        assert!(f.stderr.contains("gate: denied Bash: rm -rf x"), "{ctx}");
        assert!(f.stderr.contains("command touch made.txt completed, gate: allowed"), "{ctx}");
    }
}
