//! Claude Code's protocol faults, with a stand-in `claude` (a shell script speaking the
//! stream-json control protocol badly): a control request gate does not know, a malformed
//! line, Claude Code dying mid-turn. Each gets a clear message, nothing is approved, and gate
//! exits with the stand-in's status.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::Command;

const GATE: &str = env!("CARGO_BIN_EXE_gate");

/// A `claude` that reads gate's initialize and task lines, runs `body`, and records every
/// further line it receives in `got.jsonl`.
fn fake_claude(dir: &Path, body: &str) {
    let script = format!(
        "#!/bin/sh\nread -r init\nread -r task\necho \"$init\" > init.json\necho \"$task\" > task.json\n{body}\n"
    );
    let p = dir.join("claude");
    std::fs::write(&p, script).unwrap();
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn run(dir: &Path) -> (Option<i32>, String, String) {
    std::fs::write(dir.join("host.yaml"), "version: 1\n").unwrap();
    let out = Command::new(GATE)
        .current_dir(dir)
        .args(["run", "--approve-all", "--kill-grace", "1", "--"])
        .arg(dir.join("claude"))
        .args(["-p", "do it"])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn gate_starts_claude_code_as_its_host() {
    let dir = tempfile::tempdir().unwrap();
    fake_claude(dir.path(), r#"echo '{"type":"result","subtype":"success","result":"all done"}'; cat > /dev/null"#);
    let (code, stdout, stderr) = run(dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert_eq!(stdout, "all done\n", "text output is the result, as claude -p prints it");
    let init: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("init.json")).unwrap()).unwrap();
    assert_eq!(init["request"]["subtype"], "initialize");
    assert_eq!(init["request"]["hooks"]["PreToolUse"][0]["matcher"], "*");
    let task: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("task.json")).unwrap()).unwrap();
    assert_eq!(task["message"]["content"], "do it");
}

#[test]
fn an_unknown_control_request_is_answered_with_an_error_never_allow() {
    let dir = tempfile::tempdir().unwrap();
    fake_claude(
        dir.path(),
        r#"echo '{"type":"control_request","request_id":"r1","request":{"subtype":"mystery"}}'
read -r answer; echo "$answer" > got.json; exit 3"#,
    );
    let (code, _stdout, stderr) = run(dir.path());
    assert_eq!(code, Some(3), "gate exits with Claude Code's status: {stderr}");
    assert!(stderr.contains("a control request gate does not know (\"mystery\")"), "{stderr}");
    let got: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("got.json")).unwrap()).unwrap();
    assert_eq!(got["response"]["subtype"], "error", "{got}");
    assert_eq!(got["response"]["request_id"], "r1");
}

#[test]
fn a_malformed_line_is_reported_and_never_a_call() {
    let dir = tempfile::tempdir().unwrap();
    fake_claude(
        dir.path(),
        r#"echo '{"type":"control_request","request_id":"r2","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"rm -rf /"'
echo '{"type":"result","subtype":"success","result":"ok"}'
cat > got.jsonl; exit 0"#,
    );
    let (code, _stdout, stderr) = run(dir.path());
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("looks like a protocol message but is not valid JSON"), "{stderr}");
    let got = std::fs::read_to_string(dir.path().join("got.jsonl")).unwrap();
    assert!(!got.contains("\"allow\""), "nothing approved: {got}");
}

#[test]
fn claude_code_dying_mid_turn_gives_its_status_and_approves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    fake_claude(
        dir.path(),
        r#"echo '{"type":"control_request","request_id":"r3","request":{"subtype":"hook_callback","callback_id":"gate_pretooluse","input":{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf x"}}}}'
kill -9 $$"#,
    );
    let (code, stdout, stderr) = run(dir.path());
    assert_eq!(code, Some(128 + 9), "{stderr}");
    assert!(!stdout.contains("allow"), "{stdout}");
}
