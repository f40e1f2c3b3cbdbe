//! The sixth red team's path findings (issue 15): symbolic links resolved from the workspace
//! instead of the directory a command has moved to (`cd`, a shell tool's `cwd` field, git's
//! `-C`), and non-shell tools whose paths sat in fields gate skipped (nested objects, names it
//! did not know, `file:` URIs). Each regression goes through the real binary (`gate check
//! --json`) and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

/// The corpus policy's shape: writes allowed under `docs/**/*.md`, `.env` never written.
const POLICY: &str = "version: 1\nmode: default\npermissions:\n  allow:\n    - Bash(git diff *)\n    - Bash(git log *)\n    - { tool: write, when: { file_path: \"docs/**/*.md\" } }\n  deny:\n    - Bash(rm *)\n    - { tool: write, when: { file_path: \"**/.env*\" } }\n    - { tool: read, when: { file_path: \"src/secrets/**\" } }\n";

/// A workspace `ws` holding `.env`, `docs/a.md`, `src/a.rs`, the links `docs/e.md` ->
/// `../.env` and `docs/dl` -> a directory outside (`out`, holding `secretfile` and a git
/// repository `repo`), under [`POLICY`].
fn linked() -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    let ws = d.path().join("ws");
    let out = d.path().join("out");
    for dir in [ws.join("docs"), ws.join("src/secrets"), out.join("repo/.git")] {
        std::fs::create_dir_all(dir).unwrap();
    }
    std::fs::write(ws.join("host.yaml"), POLICY).unwrap();
    std::fs::write(ws.join(".env"), "SECRET=1\n").unwrap();
    std::fs::write(ws.join("docs/a.md"), "a\n").unwrap();
    std::fs::write(ws.join("src/a.rs"), "fn main() {}\n").unwrap();
    std::fs::write(ws.join("src/secrets/key"), "k\n").unwrap();
    std::fs::write(out.join("secretfile"), "s\n").unwrap();
    std::os::unix::fs::symlink("../.env", ws.join("docs/e.md")).unwrap();
    std::os::unix::fs::symlink(&out, ws.join("docs/dl")).unwrap();
    d
}

fn check_in(ws: &Path, tool: &str, args: &Value) -> Value {
    check_common::check_in_dir(ws, tool, args)
}

fn shell_in(ws: &Path, command: &str) -> Value {
    check_in(ws, "Bash", &json!({ "command": command }))
}

#[test]
fn a_link_is_followed_from_the_directory_a_cd_moved_to() {
    let d = linked();
    let ws = d.path().join("ws");
    for c in [
        "cd docs && echo PWNED > e.md",
        "cd docs; echo PWNED >> e.md",
        "(cd docs && echo PWNED > e.md)",
        "bash -c 'cd docs; echo PWNED > e.md'",
        "pushd docs; echo PWNED > e.md",
        "cd docs && cp a.md e.md",
        "cd docs && tee e.md < a.md",
        // `cd docs` succeeds and `cd nothere` fails: `e.md` is the link.
        "cd docs; cd nothere; echo PWNED > e.md",
        // The same word used in two directories lands in two places: both are decided.
        "cat e.md; cd docs; echo PWNED > e.md",
    ] {
        let v = shell_in(&ws, c);
        assert_eq!(v["decision"], "deny", "{c}: {v}");
        assert!(v["reason"].as_str().unwrap().contains("leads to"), "{c}: {v}");
    }
    for c in [
        "cd docs && echo x > dl/t.md",
        "cd docs && cat dl/secretfile",
        "cd docs && cat < dl/secretfile",
        "cd docs && echo dl/*",
        "cd docs && cat */secretfile",
    ] {
        let v = shell_in(&ws, c);
        assert_eq!(v["decision"], "ask", "{c}: {v}");
        assert!(v["reason"].as_str().unwrap().contains("outside the workspace"), "{c}: {v}");
    }
    // As before: written from the workspace, the link is followed too.
    assert_eq!(shell_in(&ws, "echo x > docs/e.md")["decision"], "deny");
}

#[test]
fn a_word_that_lands_in_two_places_from_two_directories_is_decided_in_both() {
    let d = linked();
    let ws = d.path().join("ws");
    // `e.md` at the top leads outside; in docs it leads to `.env`.
    std::os::unix::fs::symlink(d.path().join("out/secretfile"), ws.join("e.md")).unwrap();
    let v = shell_in(&ws, "echo x > e.md; cd docs; echo y > e.md");
    assert_eq!(v["decision"], "deny", "{v}");
    let v = shell_in(&ws, "cat e.md; cd docs; cat e.md");
    assert_eq!(v["decision"], "ask", "{v}");
}

#[test]
fn a_link_is_followed_from_the_directory_a_shell_tools_field_names() {
    let d = linked();
    let ws = d.path().join("ws");
    for field in ["cwd", "workdir", "dir_path", "directory", "dir"] {
        let v = check_in(&ws, "Bash", &json!({ "command": "echo PWNED > e.md", field: "docs" }));
        assert_eq!(v["decision"], "deny", "{field}: {v}");
        let v = check_in(&ws, "Bash", &json!({ "command": "cat dl/secretfile", field: "docs" }));
        assert_eq!(v["decision"], "ask", "{field}: {v}");
        let v = check_in(&ws, "Bash", &json!({ "command": "ls", field: "docs/dl" }));
        assert_eq!(v["decision"], "ask", "{field}: {v}");
    }
    // A plain file there is still written as the docs rule allows.
    let v = check_in(&ws, "Bash", &json!({ "command": "echo hi > a.md", "cwd": "docs" }));
    assert_eq!(v["decision"], "allow", "{v}");
}

#[test]
fn paths_after_git_dash_c_are_followed_from_the_directory_it_moves_to() {
    let d = linked();
    let ws = d.path().join("ws");
    for c in [
        "git -C docs diff --no-index dl/secretfile a.md",
        "git --no-pager -C docs diff --no-index -- dl/secretfile a.md",
        // git applies -C options one after another.
        "git -C docs -C dl/repo log",
        "git -C docs/dl log",
    ] {
        let v = shell_in(&ws, c);
        assert_eq!(v["decision"], "ask", "{c}: {v}");
        assert!(v["reason"].as_str().unwrap().contains("leads to"), "{c}: {v}");
    }
    for c in ["git -C docs log", "git -C docs diff --no-index a.md a.md", "cd docs && cat a.md"] {
        let v = shell_in(&ws, c);
        assert_eq!(v["decision"], "allow", "{c}: {v}");
    }
}

#[test]
fn a_read_deny_rule_reaches_the_operands_git_reads_after_its_dash_c() {
    let d = linked();
    let ws = d.path().join("ws");
    for c in [
        "git -C src diff --no-index secrets/key a.rs",
        "git -C src log -p -- secrets/key",
        "git -C src -C secrets diff --no-index key ../a.rs",
        "cd src && git diff --no-index secrets/key a.rs",
    ] {
        let v = shell_in(&ws, c);
        assert_eq!(v["decision"], "deny", "{c}: {v}");
    }
    assert_eq!(shell_in(&ws, "git -C src diff --no-index a.rs a.rs")["decision"], "allow");
}

#[test]
fn a_safe_tool_reading_outside_through_a_nested_or_unknown_field_is_not_allowed() {
    let d = linked();
    let ws = d.path().join("ws");
    let calls = [
        // Roo Code's multi-file read_file.
        ("read_file", json!({"files":[{"path":"/etc/passwd","line_ranges":null}]})),
        ("read_file", json!({"file_path":{"path":"/etc/passwd"}})),
        ("read_file", json!({"file_path":["/etc/passwd"]})),
        ("glob", json!({"path":{"dir":"/etc"}})),
        ("list_files", json!({"options":{"roots":["~/.ssh"]}})),
        ("read_file", json!({"file":"/etc/passwd"})),
        ("read_file", json!({"target":"/etc/passwd"})),
        ("read_file", json!({"uri":"file:///etc/passwd"})),
        ("read_file", json!({"location":"/etc/passwd"})),
        ("grep", json!({"pattern":"x","base":"/etc"})),
        ("glob", json!({"patterns":["/etc/*"]})),
        ("read_file", json!({"patterns":"/etc/passwd"})),
        ("read_file", json!({"whatever":"../../etc/passwd"})),
        ("get_file_info", json!({"q":{"deep":[{"x":"~root/.bashrc"}]}})),
    ];
    for (tool, args) in calls {
        let v = check_in(&ws, tool, &args);
        assert_eq!(v["decision"], "ask", "{tool} {args}: {v}");
    }
}

#[test]
fn a_file_uri_is_decided_as_its_path() {
    let d = linked();
    let ws = d.path().join("ws");
    let ws_s = ws.display().to_string();
    for uri in ["file:///etc/passwd", "FILE:///etc/passwd", "file://localhost/etc/passwd", "file:/etc/passwd"] {
        let v = check_in(&ws, "read_file", &json!({ "file_path": uri }));
        assert_eq!(v["decision"], "ask", "{uri}: {v}");
        assert!(v["reason"].as_str().unwrap().contains("`/etc/passwd` is outside"), "{uri}: {v}");
    }
    // Percent escapes are decoded as the tool decodes them: the deny rules see the file.
    let v = check_in(&ws, "write", &json!({ "file_path": format!("file://{ws_s}/%2Eenv"), "content": "x" }));
    assert_eq!(v["decision"], "deny", "{v}");
    let v = check_in(&ws, "read_file", &json!({ "uri": format!("file://{ws_s}/src/secrets/key") }));
    assert_eq!(v["decision"], "deny", "{v}");
    let v = check_in(&ws, "read_file", &json!({ "file_path": format!("file://{ws_s}/src/a.rs") }));
    assert_eq!(v["decision"], "allow", "{v}");
}

#[test]
fn deny_rules_reach_paths_in_nested_fields() {
    let d = linked();
    let ws = d.path().join("ws");
    let v = check_in(&ws, "read_file", &json!({"files":[{"path":"src/a.rs"},{"path":"src/secrets/key"}]}));
    assert_eq!(v["decision"], "deny", "{v}");
    let v = check_in(&ws, "write", &json!({"file_path":{"path":".env"},"content":"x"}));
    assert_eq!(v["decision"], "deny", "{v}");
}

#[test]
fn links_in_nested_fields_are_followed() {
    let d = linked();
    let ws = d.path().join("ws");
    let v = check_in(&ws, "read_file", &json!({"files":[{"path":"docs/dl/secretfile"}]}));
    assert_eq!(v["decision"], "ask", "{v}");
    assert!(v["reason"].as_str().unwrap().contains("leads to"), "{v}");
    let v = check_in(&ws, "write", &json!({"file_path":{"path":"docs/e.md"},"content":"x"}));
    assert_eq!(v["decision"], "deny", "{v}");
    let v = check_in(&ws, "write", &json!({"file_path":"file:docs/e.md","content":"x"}));
    assert_eq!(v["decision"], "deny", "{v}");
}

#[test]
fn arguments_nested_too_deep_to_walk_are_not_allowed() {
    let d = linked();
    let ws = d.path().join("ws");
    let mut args = json!("src/a.rs");
    for _ in 0..70 {
        args = json!({ "x": args });
    }
    let v = check_in(&ws, "read_file", &args);
    assert_eq!(v["decision"], "ask", "{v}");
    assert!(v["reason"].as_str().unwrap().contains("deeper"), "{v}");
}

#[test]
fn common_calls_that_mention_paths_in_text_stay_allowed() {
    let d = linked();
    let ws = d.path().join("ws");
    let calls = [
        ("read_file", json!({"file_path":"src/a.rs"})),
        ("read_file", json!({"files":[{"path":"src/a.rs","line_ranges":null}]})),
        ("grep", json!({"pattern":"/etc/","path":"src"})),
        ("grep", json!({"pattern":"x","patterns":["/etc/passwd"],"regex":"~/x"})),
        ("glob", json!({"pattern":"**/*.rs"})),
        ("glob", json!({"pattern":"src/**/*.rs","path":"src"})),
        ("write", json!({"file_path":"docs/a.md","content":"see /etc/passwd and ../../x"})),
        ("edit", json!({"file_path":"docs/a.md","old_string":"/etc/passwd","new_string":"~/x"})),
        ("multi_edit", json!({"file_path":"docs/a.md","edits":[{"old_string":"/etc/x","new_string":"../y"}]})),
        ("task", json!({"description":"look at /etc","prompt":"read ~/.bashrc and ../x"})),
        ("ask_user", json!({"question":"may I read /etc/hosts?"})),
    ];
    for (tool, args) in calls {
        let v = check_in(&ws, tool, &args);
        assert_eq!(v["decision"], "allow", "{tool} {args}: {v}");
    }
}

/// `gate hook claude`'s answer for a `tool` call with `input` that runs in `cwd`, in the
/// session `ws`.
fn hook_in(ws: &Path, cwd: &Path, tool: &str, input: &Value) -> String {
    let event = json!({"hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input,
                       "cwd": cwd, "tool_use_id": "t1"});
    let mut child = Command::new(env!("CARGO_BIN_EXE_gate"))
        .current_dir(ws)
        .env_remove("GATE_SOCKET")
        .env("CLAUDE_PROJECT_DIR", ws)
        .args(["hook", "claude"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::io::Write::write_all(&mut child.stdin.take().unwrap(), event.to_string().as_bytes()).unwrap();
    String::from_utf8_lossy(&child.wait_with_output().unwrap().stdout).into_owned()
}

#[test]
fn a_nested_relative_path_in_a_hook_call_is_read_from_the_calls_directory() {
    let d = linked();
    let ws = d.path().join("ws");
    let src = ws.join("src");
    let out = hook_in(&ws, &src, "read_file", &json!({"files":[{"path":"secrets/key"}]}));
    assert!(out.contains("\"deny\""), "{out}");
    let out = hook_in(&ws, &src, "read_file", &json!({"file_path":{"path":"secrets/key"}}));
    assert!(out.contains("\"deny\""), "{out}");
    let out = hook_in(&ws, &src, "read_file", &json!({"files":[{"path":"a.rs"}]}));
    assert!(out.contains("\"allow\""), "{out}");
}

#[test]
fn a_glob_is_matched_from_the_path_beside_it() {
    let d = linked();
    let ws = d.path().join("ws");
    for (tool, args) in [
        ("glob", json!({"pattern":"dl/*","path":"docs"})),
        ("glob", json!({"pattern":"*/secretfile","path":"docs"})),
        ("grep", json!({"pattern":"x","glob":"dl/*","path":"docs"})),
        ("glob", json!({"pattern":"../../*","path":"docs"})),
    ] {
        let v = check_in(&ws, tool, &args);
        assert_eq!(v["decision"], "ask", "{tool} {args}: {v}");
    }
    for (tool, args) in [
        ("glob", json!({"pattern":"*.md","path":"docs"})),
        ("glob", json!({"pattern":"../src/*.rs","path":"docs"})),
        ("glob", json!({"pattern":"**/*.rs","path":"src"})),
    ] {
        let v = check_in(&ws, tool, &args);
        assert_eq!(v["decision"], "allow", "{tool} {args}: {v}");
    }
}
