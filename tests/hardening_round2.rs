//! Issue "Hardening, round 2": each finding as a test named after it, through the real binary
//! (`gate check --json` with a policy of the test's own). The rest of the round's findings are
//! cases in tests/corpus/gate_cases.jsonl.

use std::process::Command;

use serde_json::Value;

const GATE: &str = env!("CARGO_BIN_EXE_gate");

fn check(policy: &str, tool: &str, args: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("host.yaml"), policy).unwrap();
    let out = Command::new(GATE).current_dir(dir.path()).args(["check", "--json", tool, args]).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn item7_mcp_whole_server_rules_cover_every_tool_of_the_server() {
    let p = "version: 1\npermissions:\n  deny: [ mcp__slack ]\n  ask: [ \"mcp__jira__*\" ]\n  allow: [ \"mcp__github__*\" ]\n";
    let d = check(p, "mcp__slack__post_message", "{}");
    assert_eq!((d["decision"].as_str(), d["rule"].as_str()), (Some("deny"), Some("mcp__slack")));
    assert_eq!(check(p, "mcp__jira__create", "{}")["decision"], "ask");
    assert_eq!(check(p, "mcp__jira__create", "{}")["layer"], "ask_rule");
    assert_eq!(check(p, "mcp__github__list_issues", "{}")["decision"], "allow");
    // Another server whose name starts the same is not covered.
    assert_eq!(check(p, "mcp__slackbot__post", "{}")["layer"], "mode");
}

#[test]
fn item8_path_globs_without_a_slash_match_the_file_name_at_any_depth() {
    let p = "version: 1\npermissions:\n  deny: [ \"Read(*.pem)\", \"Write(.env)\" ]\n";
    assert_eq!(check(p, "Read", r#"{"file_path":"certs/k.pem"}"#)["decision"], "deny");
    assert_eq!(check(p, "Bash", r#"{"command":"cat certs/deep/k.pem"}"#)["decision"], "deny");
    assert_eq!(check(p, "Write", r#"{"file_path":"sub/.env"}"#)["decision"], "deny");
    assert_eq!(check(p, "Bash", r#"{"command":"echo x > a/b/.env"}"#)["decision"], "deny");
    // A glob with a `/` stays anchored at the workspace.
    let p = "version: 1\npermissions:\n  deny: [ \"Read(certs/*.pem)\" ]\n";
    assert_ne!(check(p, "Read", r#"{"file_path":"x/certs/k.pem"}"#)["decision"], "deny");
}

#[test]
fn item3_tool_name_variants_are_the_tool_or_denied_and_never_approved_by_a_flag() {
    let p = "version: 1\npermissions:\n  deny: [ \"Bash(rm *)\" ]\n";
    for name in ["BASH", "bash ", " Bash", "b\u{0430}sh", "ba\u{200b}sh", "bash\u{1}", "\u{ff42}ash"] {
        let d = check(p, name, r#"{"command":"rm -rf /"}"#);
        assert_eq!(d["decision"], "deny", "{name:?}: {d}");
    }
    // A confusable name is denied even for a harmless command: gate cannot know what runs.
    let d = check(p, "b\u{0430}sh", r#"{"command":"ls"}"#);
    assert_eq!((d["decision"].as_str(), d["layer"].as_str()), (Some("deny"), Some("analysis")), "{d}");
    // Through `gate run --approve-all` too: deny is final.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("host.yaml"), p).unwrap();
    let req = format!(
        "{}\n",
        serde_json::json!({"type":"tool_request","id":"v1","tool":"b\u{0430}sh","arguments":{"command":"ls"}})
    );
    let out = Command::new(GATE)
        .current_dir(dir.path())
        .args(["run", "--approve-all", "--", "sh", "-c"])
        .arg(format!("printf '%s\\n' '{}'; read -r a; read -r b; echo \"$a $b\" >&2", req.trim()))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("\"approved\":false") && err.contains("look like"), "{err}");
}

#[test]
fn item9_when_fields_the_tool_never_sends_are_refused_naming_its_fields() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("host.yaml"),
        "version: 1\npermissions:\n  deny:\n    - { tool: write, when: { path: \"**/.env*\" } }\n    - { tool: mcp__x__y, when: { anything: \"*\" } }\n",
    )
    .unwrap();
    let out = Command::new(GATE).current_dir(dir.path()).args(["validate"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("host.yaml:4:") && err.contains("never sends a field `path`"), "{err}");
    assert!(err.contains("its fields: file_path, content"), "{err}");
    // A tool gate does not model may send anything: its fields are not checked.
    assert_eq!(err.matches("never sends").count(), 1, "{err}");
}
