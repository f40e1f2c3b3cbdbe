//! gate in front of the real ACP agents (opencode 1.18.33, Gemini CLI 0.61.0, codex-acp 0.16.0),
//! each against its loopback mock model: gate in the middle of the editor's pipe (the test is
//! the editor), and gate as the client (`--prompt`). See docs/agents/acp.md.
//!
//! Codex's Linux sandbox needs bubblewrap; without it codex-acp runs with
//! `sandbox_mode="danger-full-access"` (the test prints a note saying so).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod agents;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use agents::mock::{call, script, Mock, ToolCall};
use agents::{acp, gemini, openai_chat, responses, AgentBin, Sandbox};
use serde_json::{json, Value};

const GATE: &str = env!("CARGO_BIN_EXE_gate");
const T: Duration = Duration::from_secs(120);

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
    let sb = agents::scenario();
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
    let sb = agents::scenario();
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
    let sb = agents::scenario();
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
    let sb = agents::scenario();
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

/// In proxy mode the editor receives every message the agent sent except those gate answered
/// itself, byte for byte (the agent's own output is recorded by `tee` between it and gate).
#[test]
fn gemini_proxy_passes_every_other_message_byte_for_byte() {
    let Ok(a) = agents::agent("gemini") else { return };
    let sb = agents::scenario();
    let mock = mock_for("gemini", vec![shell("gemini", "rm -rf x"), shell("gemini", "mkdir newdir")]);
    let raw = sb.root.path().join("agent-out.jsonl");
    let mut cmd = Command::new(GATE);
    a.env(&sb, Some(&mock.url())).set("GATE_TEE", &raw).apply(&mut cmd);
    cmd.current_dir(&sb.work).args(["run", "-c", "host.yaml", "--protocol", "acp", "--kill-grace", "2", "--"]);
    cmd.args(["sh", "-c", "\"$0\" \"$@\" | tee \"$GATE_TEE\""]).arg(&a.bin).arg("--acp");
    let mut e = acp::Acp::start(cmd, T);
    e.initialize();
    let sid = e.new_session(&sb.work);
    e.prompt(&sid, "do the steps", &mut |req| acp::answer_permission(req, "allow_once"));
    e.rpc.p.finish(Duration::from_secs(10));
    let t = e.rpc.p.transcript();
    let got: Vec<String> = {
        let mut v: Vec<String> = t.lines().filter_map(|l| l.split_once("] << ").map(|x| x.1.to_string())).collect();
        v.sort();
        v
    };
    let text = std::fs::read_to_string(&raw).unwrap();
    let mut want: Vec<String> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .filter(|l| !(l.contains("\"session/request_permission\"") && l.contains("rm -rf x")))
        .map(|l| l.trim_end().to_string())
        .collect();
    want.sort();
    assert!(sb.work.join("x").exists(), "{t}");
    assert!(sb.work.join("newdir").exists(), "the asked mkdir did not run\n{t}");
    assert!(text.contains("rm -rf x"), "{t}");
    assert_eq!(got, want, "\n{t}");
}

/// gate as the client (`--prompt`): the agent's text on stdout, each tool call with its status
/// and gate's verdict on stderr, exit 0 after end_turn.
#[test]
fn gemini_client_mode_runs_the_prompt() {
    let Ok(a) = agents::agent("gemini") else { return };
    let sb = agents::scenario();
    let mock = mock_for("gemini", vec![shell("gemini", "rm -rf x"), shell("gemini", "touch made.txt")]);
    let cmd = gate(&a, &sb, &mock, &["--prompt", "do the steps"]);
    let f = agents::run(cmd, T);
    let ctx = format!("{}\n--- mock\n{}", f.transcript(), mock.summary());
    assert!(f.status.success(), "{ctx}");
    assert!(f.stdout.contains("done."), "{ctx}");
    assert!(sb.work.join("x/keep.txt").exists(), "{ctx}");
    assert!(sb.work.join("made.txt").exists(), "{ctx}");
    assert!(f.stderr.contains("gate: denied Bash: rm -rf x"), "{ctx}");
    assert!(f.stderr.contains("touch made.txt [execute] completed, gate: allowed"), "{ctx}");
}

/// A scripted ACP agent: answers initialize and session/new, then on the prompt sends a
/// malformed line, an unknown request and a permission request for `rm -rf x`, records gate's
/// answers, and dies mid-turn with status 3.
const FAULTY_AGENT: &str = r#"
read l; echo '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":1}}'
read l; echo '{"jsonrpc":"2.0","id":2,"result":{"sessionId":"s1"}}'
read l
echo '{"jsonrpc":"2.0","id":8,"method":"session/request_permission","params":'
echo '{"jsonrpc":"2.0","id":9,"method":"x/unknown","params":{}}'
echo '{"jsonrpc":"2.0","id":"u-10","method":"session/request_permission","params":{"sessionId":"s1","toolCall":{"toolCallId":"t","kind":"execute","rawInput":{"command":"rm -rf x"}},"options":[{"optionId":"always","kind":"allow_always"},{"optionId":"yes","kind":"allow_once"},{"optionId":"no","kind":"reject_once"}]}}'
read a; echo "$a" >> answers.txt
read b; echo "$b" >> answers.txt
exit 3
"#;

#[test]
fn client_mode_faults_get_clear_messages_and_nothing_is_approved() {
    let sb = agents::scenario();
    let mut cmd = Command::new(GATE);
    cmd.current_dir(&sb.work);
    cmd.args(["run", "-c", "host.yaml", "--protocol", "acp", "--prompt", "go", "--kill-grace", "2", "--"]);
    cmd.args(["sh", "-c", FAULTY_AGENT]);
    let f = agents::run(cmd, Duration::from_secs(30));
    let ctx = f.transcript();
    let answers = std::fs::read_to_string(sb.work.join("answers.txt")).unwrap_or_default();
    assert_eq!(f.status.code(), Some(3), "{ctx}\n{answers}");
    assert!(f.stderr.contains("looks like a protocol message but is not valid JSON"), "{ctx}");
    assert!(f.stderr.contains("x/unknown"), "{ctx}");
    assert!(f.stderr.contains("the agent exited before its turn ended"), "{ctx}");
    let lines: Vec<Value> = answers.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    assert_eq!(lines.len(), 2, "{answers}");
    let unknown = lines.iter().find(|l| l["id"] == 9).expect("an answer to the unknown request");
    assert!(unknown["error"]["message"].as_str().unwrap().contains("x/unknown"), "{answers}");
    let perm = lines.iter().find(|l| l["id"] == "u-10").expect("an answer to the permission request");
    assert_eq!(perm["result"]["outcome"]["optionId"], "no", "{answers}");
    assert!(!answers.contains("\"yes\"") && !answers.contains("\"always\""), "{answers}");
}

/// Proxy mode: a malformed line and an unknown request reach the editor unchanged with a
/// warning; the permission request is denied by gate (never forwarded as approved).
#[test]
fn proxy_faults_pass_with_a_warning_and_nothing_is_approved() {
    let sb = agents::scenario();
    let mut cmd = Command::new(GATE);
    cmd.current_dir(&sb.work);
    cmd.args(["run", "-c", "host.yaml", "--protocol", "acp", "--kill-grace", "2", "--"]);
    cmd.args(["sh", "-c", FAULTY_AGENT]);
    let mut e = acp::Acp::start(cmd, Duration::from_secs(30));
    e.initialize();
    let sid = e.new_session(&sb.work);
    e.rpc.p.send(
        &json!({"jsonrpc": "2.0", "id": 3, "method": "session/prompt", "params": {"sessionId": sid, "prompt": []}}),
    );
    // The editor answers what reaches it with an error; the agent then dies mid-turn.
    while let Some(m) = e.rpc.p.recv() {
        if m.get("method").is_some() && m.get("id").is_some() {
            e.rpc.p.send(&json!({"jsonrpc": "2.0", "id": m["id"], "error": {"code": -32601, "message": "editor: no"}}));
        }
    }
    e.rpc.p.finish(Duration::from_secs(5));
    let t = e.rpc.p.transcript();
    let answers = std::fs::read_to_string(sb.work.join("answers.txt")).unwrap_or_default();
    assert!(t.contains("<? {\"jsonrpc\":\"2.0\",\"id\":8"), "the malformed line was not passed on\n{t}");
    assert!(t.contains("gate: the agent sent a request gate does not decide (x/unknown)"), "{t}");
    assert!(answers.contains("\"optionId\":\"no\""), "{answers}\n{t}");
    assert!(!answers.contains("\"yes\"") && !answers.contains("\"always\""), "{answers}");
}

/// Gemini CLI reads files without asking: gate sees the call only in its updates, and records
/// it in the audit log as not asked by the agent, with what the policy says of it.
#[test]
fn gemini_unasked_calls_are_recorded_as_not_asked() {
    let Ok(a) = agents::agent("gemini") else { return };
    let sb = agents::scenario();
    let mock = mock_for("gemini", vec![call("read_file", json!({"file_path": "docs/a.md"}))]);
    let r = proxy_run(&a, &sb, &mock, "reject_once");
    let ctx = &r.transcript;
    assert!(r.forwarded.is_empty(), "{ctx}");
    let unasked: Vec<&Value> = r.audit.iter().filter(|l| l["asked"] == false).collect();
    assert_eq!(unasked.len(), 1, "{:?}\n{ctx}", r.audit);
    assert_eq!(unasked[0]["tool"], "Read", "{ctx}");
    assert_eq!(unasked[0]["decision"], "allow", "{ctx}");
    assert!(unasked[0]["note"].as_str().unwrap().contains("not asked by the agent"), "{ctx}");
}
