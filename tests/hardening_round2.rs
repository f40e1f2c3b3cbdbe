//! Issue "Hardening, round 2": each finding as a test named after it, through the real binary
//! (`gate check --json` with a policy of the test's own). The rest of the round's findings are
//! cases in tests/corpus/gate_cases.jsonl.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

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

/// A workspace with the links of the round's first finding.
fn linked_workspace() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("ws");
    std::fs::create_dir_all(ws.join("docs")).unwrap();
    std::fs::create_dir_all(d.path().join("out")).unwrap();
    std::fs::write(ws.join(".env"), "SECRET=1\n").unwrap();
    std::os::unix::fs::symlink("../.env", ws.join("docs/notes.md")).unwrap();
    std::os::unix::fs::symlink(d.path().join("out"), ws.join("docs/ext")).unwrap();
    std::os::unix::fs::symlink("/etc", ws.join("etcl")).unwrap();
    std::os::unix::fs::symlink(".", ws.join("self")).unwrap();
    std::fs::write(
        ws.join("host.yaml"),
        "version: 1\npermissions:\n  allow: [ \"Write(docs/**/*.md)\", \"Write(docs/**)\", \"Bash(echo *)\" ]\n  deny: [ \"Write(**/.env*)\" ]\n",
    )
    .unwrap();
    d
}

fn check_in(dir: &std::path::Path, args: &[&str]) -> Value {
    let out = Command::new(GATE).current_dir(dir).args(["check", "--json"]).args(args).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn item1_symlinks_are_decided_where_the_write_lands() {
    let d = linked_workspace();
    let ws = d.path().join("ws");
    // docs/notes.md -> ../.env: the .env deny rule fires.
    let v = check_in(&ws, &["Write", r#"{"file_path":"docs/notes.md"}"#]);
    assert_eq!((v["decision"].as_str(), v["rule"].as_str()), (Some("deny"), Some("Write(**/.env*)")), "{v}");
    assert!(v["reason"].as_str().unwrap().contains("leads to"), "{v}");
    // docs/ext -> outside: not allowed by the docs rule.
    assert_ne!(check_in(&ws, &["Write", r#"{"file_path":"docs/ext/x.md"}"#])["decision"], "allow");
    for (mode, path) in
        [("acceptEdits", "etcl/passwd"), ("acceptEdits", "self/host.yaml"), ("acceptEdits", "etcl/../root/x")]
    {
        let v = check_in(&ws, &["--mode", mode, "Write", &format!(r#"{{"file_path":"{path}"}}"#)]);
        assert_ne!(v["decision"], "allow", "{path}: {v}");
    }
    let v = check_in(&ws, &["--mode", "acceptEdits", "Bash", r#"{"command":"echo x > etcl/passwd"}"#]);
    assert_ne!(v["decision"], "allow", "{v}");
    // A plain file in docs is still allowed.
    assert_eq!(check_in(&ws, &["Write", r#"{"file_path":"docs/real.md"}"#])["decision"], "allow");
}

#[test]
fn rule_language_unless_paths_and_args() {
    let p = "version: 1\npermissions:\n  deny:\n    - { rule: \"Bash(rm *)\", unless: { paths: [ \"/tmp/**\", \"$TMPDIR/**\" ] } }\n    - { rule: \"Bash(git clean *)\", unless: { args: [ \"-n\", \"--dry-run\" ] } }\n";
    let d = |cmd: &str| check(p, "Bash", &serde_json::json!({ "command": cmd }).to_string())["decision"].clone();
    assert_ne!(d("rm -rf /tmp/build"), "deny", "every target under /tmp: the deny rule does not apply");
    for cmd in ["rm -rf /tmp/../etc", "rm -rf /tmp/x /home/u", "rm -rf $D", "rm -rf build", "git clean -fdx"] {
        assert_eq!(d(cmd), "deny", "{cmd}");
    }
    assert_ne!(d("git clean -n"), "deny");
    assert_ne!(d("git clean --dry-run=yes"), "deny");
    // `unless` only with `rule:`; paths must be absolute.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("host.yaml"),
        "version: 1\npermissions:\n  deny:\n    - { tool: write, unless: { args: [x] } }\n    - { rule: \"Bash(rm *)\", unless: { paths: [ \"tmp/**\" ] } }\n",
    )
    .unwrap();
    let out = Command::new(GATE).current_dir(dir.path()).arg("validate").output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("`unless` goes with `rule:`") && err.contains("is not absolute"), "{err}");
}

/// `gate run --strict [-c CONFIG]` in `dir` with an agent that sends `first`, runs the shell
/// text `between`, then sends `second`: the two answers, and gate's stderr.
fn two_calls(
    dir: &std::path::Path,
    config: Option<&std::path::Path>,
    first: Value,
    between: &str,
    second: Value,
) -> (Vec<Value>, String) {
    let script = format!(
        "next() {{ while read -r l; do case $l in *decision*) printf '%s\\n' \"$l\" >&2; return;; esac; done; }}; \
         printf '%s\\n' '{first}'; next; {between}; printf '%s\\n' '{second}'; next"
    );
    let mut cmd = Command::new(GATE);
    cmd.current_dir(dir).args(["run", "--strict"]);
    if let Some(c) = config {
        cmd.arg("-c").arg(c);
    }
    let out = cmd.args(["--", "sh", "-c", &script]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    let answers = err.lines().filter(|l| l.starts_with('{')).map(|l| serde_json::from_str(l).unwrap()).collect();
    (answers, err)
}

fn write_req(id: &str, path: &std::path::Path) -> Value {
    serde_json::json!({"type":"tool_request","id":id,"tool":"write","arguments":{"file_path":path,"content":"x"}})
}

/// A decision remembers what it looked up only while it lasts: a link made between two calls
/// of one session is seen by the second.
#[test]
fn item1_a_link_made_during_a_session_is_seen_by_the_next_call() {
    let d = linked_workspace();
    let ws = d.path().join("ws");
    let later = std::path::Path::new("docs/later.md");
    let (answers, err) =
        two_calls(&ws, None, write_req("w1", later), "ln -s ../.env docs/later.md", write_req("w2", later));
    assert_eq!(answers.len(), 2, "{err}");
    assert_eq!(answers[0]["approved"], true, "before the link: {err}");
    assert_eq!(answers[1]["approved"], false, "after the link: {err}");
    assert!(answers[1]["reason"].as_str().unwrap_or("").contains(".env"), "{err}");
}

/// Found in review before it landed: a session that kept its workspace's real directory
/// would still count the old directory as inside after the workspace's link was pointed
/// elsewhere, and allow a write that lands there. Each decision looks the workspace up again.
#[test]
fn item1_a_workspace_link_pointed_elsewhere_mid_session_moves_the_workspace() {
    let d = tempfile::tempdir().unwrap();
    let (a, b, w) = (d.path().join("a"), d.path().join("b"), d.path().join("w"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    std::os::unix::fs::symlink(&a, &w).unwrap();
    std::os::unix::fs::symlink(&a, b.join("old")).unwrap();
    std::fs::write(a.join("host.yaml"), "version: 1\nmode: acceptEdits\n").unwrap();
    let retarget = format!("ln -sfn '{}' '{}'", b.display(), w.display());
    let (answers, err) = two_calls(
        d.path(),
        Some(&w.join("host.yaml")),
        write_req("w1", &w.join("first.md")),
        &retarget,
        write_req("w2", &w.join("old/secret")),
    );
    assert_eq!(answers.len(), 2, "{err}");
    assert_eq!(answers[0]["approved"], true, "inside the workspace: {err}");
    assert_eq!(answers[1]["approved"], false, "lands in the old directory, now outside: {err}");
}
