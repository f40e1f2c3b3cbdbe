//! The audit log of `gate run`: one JSON line per decision, and a log that cannot be written
//! denies the call (fail closed).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod run_common;

use run_common::*;
use serde_json::Value;

#[test]
fn one_line_per_decision_with_every_field() {
    let ws = Ws::new(POLICY);
    let audit = ws.path().join("audit.jsonl");
    let o = ws.run(
        &["--strict", "--audit", audit.to_str().unwrap()],
        &[
            "send",
            &bash("a1", "npm test"),
            "await",
            "a1",
            "send",
            &bash("a2", "rm -rf x"),
            "await",
            "a2",
            "send",
            &bash("a3", "git push origin main"),
            "await",
            "a3",
            "send",
            r#"{"type":"tool_request","id":"a4","tool":"bash","arguments":{"command":"#,
            "await",
            "a4",
        ],
        None,
    );
    o.assert_code(0);
    let lines: Vec<Value> =
        std::fs::read_to_string(&audit).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(lines.len(), 4, "{lines:#?}");
    for l in &lines {
        for key in ["time", "tool", "arguments", "decision", "layer", "rule", "source", "feedback", "micros", "id"] {
            assert!(l.get(key).is_some(), "{key} missing in {l}");
        }
        let t = l["time"].as_str().unwrap();
        assert!(t.len() == 27 && t.ends_with('Z') && &t[10..11] == "T", "{t}");
        assert!(l["micros"].is_u64());
    }
    assert_eq!(lines[0]["decision"], "allow");
    assert_eq!(lines[0]["source"], "rule");
    assert_eq!(lines[0]["rule"], "Bash(npm test)");
    assert_eq!(lines[0]["arguments"]["command"], "npm test");
    assert_eq!(lines[1]["decision"], "deny");
    assert_eq!(lines[1]["layer"], "deny_rule");
    assert_eq!(lines[2]["source"], "strict");
    assert_eq!(lines[3]["source"], "error");

    // A second run appends.
    ws.run(&["--strict", "--audit", audit.to_str().unwrap()], &["send", &bash("b1", "npm test"), "await", "b1"], None);
    assert_eq!(std::fs::read_to_string(&audit).unwrap().lines().count(), 5);
}

#[test]
fn audit_path_from_host_yaml() {
    let ws = Ws::new(&format!("{POLICY}audit: logs/audit.jsonl\n"));
    std::fs::create_dir(ws.path().join("logs")).unwrap();
    let o = ws.run(&["--strict"], &["send", &bash("h1", "npm test"), "await", "h1"], None);
    o.assert_code(0);
    let text = std::fs::read_to_string(ws.path().join("logs/audit.jsonl")).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
}

#[test]
fn a_log_that_cannot_be_written_denies_and_gate_goes_on() {
    let ws = Ws::new(POLICY);
    // /dev/full opens, and every write to it fails with ENOSPC: a full disk.
    let o = ws.run(
        &["--approve-all", "--audit", "/dev/full"],
        &[
            "send",
            &bash("f1", "npm test"),
            "await",
            "f1",
            "send",
            &bash("f2", "git push origin main"),
            "await",
            "f2",
            "exit",
            "9",
        ],
        None,
    );
    o.assert_code(9);
    for id in ["f1", "f2"] {
        let d = o.decision(id);
        assert_denied(&d, "error", "reject_soft");
        assert!(d["reason"].as_str().unwrap().contains("audit log"), "{d:#}");
    }
    assert!(o.stderr.contains("cannot write the audit log"), "{}", o.stderr);
}

#[test]
fn a_log_that_cannot_be_opened_stops_gate_before_the_agent_starts() {
    let ws = Ws::new(POLICY);
    let o = ws.run(&["--strict", "--audit", "/nonexistent/dir/audit.jsonl"], &["note", "started"], None);
    o.assert_code(2);
    assert!(o.log.is_empty());
}

#[test]
fn an_audit_log_deleted_mid_run_is_reopened_and_said_so() {
    // Hardening round 2, item 12: gate kept writing to the unlinked file.
    let ws = Ws::new(POLICY);
    let audit = ws.path().join("audit.jsonl");
    let go = ws.path().join("go");
    let audit2 = audit.clone();
    let go2 = go.clone();
    let remover = std::thread::spawn(move || {
        let deadline = std::time::Instant::now() + TIMEOUT;
        while !audit2.exists() || std::fs::read_to_string(&audit2).unwrap_or_default().lines().count() < 1 {
            assert!(std::time::Instant::now() < deadline, "no first audit line");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        std::fs::remove_file(&audit2).unwrap();
        std::fs::write(&go2, "").unwrap();
    });
    let o = ws.run(
        &["--strict", "--audit", audit.to_str().unwrap()],
        &[
            "send",
            &bash("a1", "npm test"),
            "await",
            "a1",
            "wait-file",
            go.to_str().unwrap(),
            "send",
            &bash("a2", "rm -rf x"),
            "await",
            "a2",
        ],
        None,
    );
    remover.join().unwrap();
    o.assert_code(0);
    let text = std::fs::read_to_string(&audit).expect("the log is written again at its path");
    assert!(text.contains("\"a2\""), "{text}");
    assert!(o.stderr.contains("was removed or replaced"), "{}", o.stderr);
}
