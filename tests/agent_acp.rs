//! gate in front of the real ACP agents (opencode 1.18.33, Gemini CLI 0.61.0, codex-acp 0.16.0),
//! each against its loopback mock model: gate in the middle of the editor's pipe (the test is
//! the editor), and gate as the client (`--prompt`). See docs/agents/acp.md.
//!
//! Codex's Linux sandbox needs bubblewrap; without it codex-acp runs with
//! `sandbox_mode="danger-full-access"` (the test prints a note saying so).

mod agents;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use agents::mock::{call, script, Mock, ToolCall};
use agents::{acp, gemini, openai_chat, responses, AgentBin, Sandbox};
use serde_json::{json, Value};

const GATE: &str = env!("CARGO_BIN_EXE_gate");
const T: Duration = Duration::from_secs(120);

const POLICY: &str = r#"version: 1
workspace: .
permissions:
  allow:
    - Bash(touch *)
    - { tool: write, when: { file_path: "docs/**" } }
    - { tool: write, when: { file_path: "made.txt" } }
  deny:
    - Bash(rm *)
    - { tool: write, when: { file_path: "**/.env*" } }
"#;

fn codex_sandbox() -> &'static str {
    if agents::have_bwrap() {
        "workspace-write"
    } else {
        eprintln!("note: bubblewrap (bwrap) is missing: codex-acp runs with sandbox danger-full-access");
        "danger-full-access"
    }
}

fn agent_args(name: &str) -> Vec<String> {
    match name {
        "opencode" => vec!["acp".into(), "--pure".into()],
        "gemini" => vec!["--acp".into()],
        _ => vec![
            "-c".into(),
            format!("sandbox_mode=\"{}\"", codex_sandbox()),
            "-c".into(),
            "approval_policy=\"untrusted\"".into(),
        ],
    }
}

fn mock_for(name: &str, steps: Vec<ToolCall>) -> Mock {
    match name {
        "opencode" => openai_chat::start(script(steps)),
        "gemini" => gemini::start(script(steps)),
        _ => responses::start(script(steps)),
    }
}

fn shell(name: &str, cmd: &str) -> ToolCall {
    match name {
        "opencode" => call("bash", json!({"command": cmd, "description": "run it"})),
        "gemini" => call("run_shell_command", json!({"command": cmd, "description": "run it"})),
        _ => responses::shell(cmd),
    }
}

fn write(name: &str, work: &Path, rel: &str, content: &str) -> ToolCall {
    match name {
        "opencode" => call("write", json!({"filePath": work.join(rel), "content": content})),
        "gemini" => call("write_file", json!({"file_path": rel, "content": content})),
        _ => {
            let body: String = content.lines().map(|l| format!("+{l}\n")).collect();
            responses::patch(&format!("*** Begin Patch\n*** Add File: {rel}\n{body}*** End Patch\n"))
        }
    }
}

fn edit(name: &str, work: &Path, rel: &str, old: &str, new: &str) -> ToolCall {
    match name {
        "opencode" => call("edit", json!({"filePath": work.join(rel), "oldString": old, "newString": new})),
        "gemini" => {
            call("replace", json!({"file_path": rel, "old_string": old, "new_string": new, "instruction": "change it"}))
        }
        _ => responses::patch(&format!(
            "*** Begin Patch\n*** Update File: {rel}\n@@\n-{}\n+{}\n*** End Patch\n",
            old.trim_end(),
            new.trim_end()
        )),
    }
}

/// gate run (proxy unless `extra` says otherwise) in front of the agent, in the sandbox.
fn gate(a: &AgentBin, sb: &Sandbox, mock: &Mock, extra: &[&str]) -> Command {
    let mut cmd = Command::new(GATE);
    let env = a.env(sb, Some(&mock.url()));
    env.apply(&mut cmd);
    cmd.current_dir(&sb.work);
    cmd.args(["run", "-c", "host.yaml", "--audit", "audit.jsonl", "--kill-grace", "2"]);
    cmd.args(extra);
    cmd.arg("--").arg(&a.bin).args(agent_args(a.name));
    cmd
}

fn setup() -> Sandbox {
    let sb = Sandbox::new();
    sb.file("host.yaml", POLICY);
    sb.file("x/keep.txt", "keep\n");
    sb.file("docs/a.md", "color=red\n");
    sb.file(".env", "SECRET=1\n");
    sb
}

struct Run {
    stop: Value,
    forwarded: Vec<Value>,
    transcript: String,
    audit: Vec<Value>,
}

/// One prompt through gate as a proxy; the editor answers what reaches it with `kind`.
fn proxy_run(a: &AgentBin, sb: &Sandbox, mock: &Mock, kind: &str) -> Run {
    let mut e = acp::Acp::start(gate(a, sb, mock, &[]), T);
    let work = sb.work.clone();
    e.initialize();
    let sid = e.new_session(&sb.work);
    let mut forwarded = Vec::new();
    let stop = e.prompt(&sid, "do the steps", &mut |req| {
        forwarded.push(req.clone());
        // The editor does an allowed write (opencode writes through the editor).
        if req["method"] == "fs/write_text_file" {
            let p = req["params"]["path"].as_str().unwrap_or("");
            if !p.starts_with(work.to_str().unwrap()) {
                return None;
            }
            std::fs::write(p, req["params"]["content"].as_str().unwrap_or("")).ok()?;
            return Some(Value::Null);
        }
        acp::answer_permission(req, kind)
    });
    e.rpc.p.finish(Duration::from_secs(10));
    let audit = std::fs::read_to_string(sb.work.join("audit.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    Run { stop, forwarded, transcript: format!("{}\n--- mock\n{}", e.rpc.p.transcript(), mock.summary()), audit }
}

fn decided(run: &Run) -> Vec<(String, bool)> {
    run.audit
        .iter()
        .map(|r| (r["tool"].as_str().unwrap_or("").to_string(), r["decision"] == "allow" || r["approved"] == true))
        .collect()
}

/// A denied `rm -rf x` never runs, and the agent got a reject; nothing reached the editor.
fn denied_shell(name: &str) {
    let a = match agents::agent(name) {
        Ok(a) => a,
        Err(_) => return,
    };
    let sb = setup();
    let mock = mock_for(name, vec![shell(name, "rm -rf x")]);
    let r = proxy_run(&a, &sb, &mock, "allow_once");
    let ctx = &r.transcript;
    if std::env::var_os("GATE_TEST_SHOW").is_some() {
        eprintln!("{ctx}");
    }
    assert!(sb.work.join("x/keep.txt").exists(), "x was removed\n{ctx}");
    assert!(r.forwarded.is_empty(), "a request reached the editor: {:?}\n{ctx}", r.forwarded);
    let d = decided(&r);
    assert!(d.iter().any(|(t, ok)| t == "Bash" && !ok), "no Bash denial in the audit: {:?}\n{ctx}", r.audit);
    let sent = ctx.lines().filter(|l| l.contains(">>")).count();
    assert!(sent >= 3, "{ctx}");
    assert!(r.stop["stopReason"].is_string(), "{ctx}");
}

/// An allowed `touch made.txt` runs, and so does an edit of docs/a.md (allowed by rule).
fn allowed_shell_and_edit(name: &str) {
    let a = match agents::agent(name) {
        Ok(a) => a,
        Err(_) => return,
    };
    let sb = setup();
    let mock = mock_for(
        name,
        vec![shell(name, "touch made.txt"), edit(name, &sb.work, "docs/a.md", "color=red\n", "color=blue\n")],
    );
    let r = proxy_run(&a, &sb, &mock, "reject_once");
    let ctx = &r.transcript;
    assert_eq!(r.stop["stopReason"], "end_turn", "{ctx}");
    assert!(sb.work.join("made.txt").exists(), "touch did not run\n{ctx}");
    assert_eq!(std::fs::read_to_string(sb.work.join("docs/a.md")).unwrap(), "color=blue\n", "{ctx}");
    // An allowed fs/write_text_file goes on to the editor (it does the write); no question does.
    let asked: Vec<_> = r.forwarded.iter().filter(|f| f["method"] == "session/request_permission").collect();
    assert!(asked.is_empty(), "a question reached the editor: {asked:?}\n{ctx}");
    let bash_ok = decided(&r).iter().any(|(t, ok)| t == "Bash" && *ok);
    assert!(bash_ok, "the shell call was not decided by gate: {:?}\n{ctx}", r.audit);
}

/// A write to .env is denied.
fn env_write_denied(name: &str) {
    let a = match agents::agent(name) {
        Ok(a) => a,
        Err(_) => return,
    };
    let sb = setup();
    let mock = mock_for(name, vec![write(name, &sb.work, ".env", "SECRET=stolen\n")]);
    let r = proxy_run(&a, &sb, &mock, "allow_once");
    let ctx = &r.transcript;
    assert_eq!(std::fs::read_to_string(sb.work.join(".env")).unwrap(), "SECRET=1\n", "{ctx}");
    assert!(r.forwarded.is_empty(), "{ctx}");
    // Gemini refuses .env by itself before asking (it is in its ignore list); the others ask
    // and gate denies. Either way nothing was approved.
    assert!(decided(&r).iter().all(|(_, ok)| !ok), "an approval in the audit: {:?}\n{ctx}", r.audit);
    if name != "gemini" {
        assert!(decided(&r).iter().any(|(_, ok)| !ok), "no denial in the audit: {:?}\n{ctx}", r.audit);
    }
}

/// A call the policy asks about goes to the editor unchanged; its allow_always reaches the agent
/// as allow_once and becomes gate's approval.
fn ask_goes_to_the_editor(name: &str) {
    let a = match agents::agent(name) {
        Ok(a) => a,
        Err(_) => return,
    };
    let sb = setup();
    let mock = mock_for(name, vec![shell(name, "mkdir newdir")]);
    let r = proxy_run(&a, &sb, &mock, "allow_always");
    let ctx = &r.transcript;
    assert_eq!(r.forwarded.len(), 1, "{ctx}");
    assert_eq!(r.forwarded[0]["method"], "session/request_permission", "{ctx}");
    assert!(sb.work.join("newdir").is_dir(), "mkdir did not run\n{ctx}");
    let out = Command::new(GATE).current_dir(&sb.work).args(["approvals", "list", "-c", "host.yaml"]).output().unwrap();
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(list.contains("mkdir") || list.contains("newdir"), "no gate approval for mkdir: {list}\n{ctx}");
}

#[test]
fn gemini_denied_shell_never_runs() {
    denied_shell("gemini");
}
#[test]
fn gemini_allowed_shell_and_edit_run() {
    allowed_shell_and_edit("gemini");
}
#[test]
fn gemini_env_write_is_denied() {
    env_write_denied("gemini");
}
#[test]
fn gemini_ask_goes_to_the_editor_and_always_is_gates() {
    ask_goes_to_the_editor("gemini");
}
#[test]
fn opencode_denied_shell_never_runs() {
    denied_shell("opencode");
}
#[test]
fn opencode_allowed_shell_and_edit_run() {
    allowed_shell_and_edit("opencode");
}
#[test]
fn opencode_env_write_is_denied() {
    env_write_denied("opencode");
}
#[test]
fn opencode_ask_goes_to_the_editor_and_always_is_gates() {
    ask_goes_to_the_editor("opencode");
}
#[test]
fn codex_acp_denied_shell_never_runs() {
    denied_shell("codex-acp");
}
#[test]
fn codex_acp_allowed_shell_and_edit_run() {
    allowed_shell_and_edit("codex-acp");
}
#[test]
fn codex_acp_env_write_is_denied() {
    env_write_denied("codex-acp");
}
#[test]
fn codex_acp_ask_goes_to_the_editor_and_always_is_gates() {
    ask_goes_to_the_editor("codex-acp");
}
