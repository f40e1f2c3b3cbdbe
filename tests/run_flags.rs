//! `gate run` flags: --approve-all, --strict, --non-interactive and no terminal, their
//! conflict, and the errors that stop gate before the agent starts (exit 2).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod run_common;

use run_common::*;

#[test]
fn approve_all_approves_what_would_prompt_but_deny_rules_still_deny() {
    let ws = Ws::new(POLICY);
    let o = ws.run(
        &["--approve-all"],
        &["send", &bash("a1", "git push origin main"), "await", "a1", "send", &bash("a2", "rm -rf /"), "await", "a2"],
        None,
    );
    o.assert_code(0);
    let d = o.decision("a1");
    assert_approved(&d, "approve_all");
    assert_eq!(d["scope"], "once");
    assert_denied(&o.decision("a2"), "rule", "reject_soft");
}

#[test]
fn strict_denies_what_would_prompt() {
    let ws = Ws::new(POLICY);
    let o = ws.run(&["--strict"], &["send", &bash("s1", "git push origin main"), "await", "s1"], None);
    let d = o.decision("s1");
    assert_denied(&d, "strict", "reject_soft");
    assert!(d["reason"].as_str().unwrap().contains("--strict"), "{d:#}");
}

#[test]
fn without_a_terminal_a_prompt_is_denied_naming_both_flags() {
    let ws = Ws::new(POLICY);
    // No flag at all: gate runs in its own session, without a controlling terminal.
    let o = ws.run(&[], &["send", &bash("n1", "git push origin main"), "await", "n1"], None);
    let d = o.decision("n1");
    assert_denied(&d, "non_interactive", "reject_soft");
    for text in [d["reason"].as_str().unwrap(), d["message"].as_str().unwrap()] {
        assert!(text.contains("--approve-all") && text.contains("--strict"), "{text}");
    }
    // --non-interactive says so.
    let o = ws.run(&["--non-interactive"], &["send", &bash("n2", "git push origin main"), "await", "n2"], None);
    let d = o.decision("n2");
    assert_denied(&d, "non_interactive", "reject_soft");
    let reason = d["reason"].as_str().unwrap();
    assert!(reason.contains("--non-interactive") && reason.contains("--approve-all") && reason.contains("--strict"));
}

#[test]
fn approve_all_with_strict_is_a_usage_error_and_the_agent_never_starts() {
    let ws = Ws::new(POLICY);
    let o = ws.run(&["--approve-all", "--strict"], &["note", "started"], None);
    o.assert_code(2);
    assert!(o.log.is_empty(), "the agent ran: {:#?}", o.log);
    assert!(o.stderr.contains("--strict"), "{}", o.stderr);
}

#[test]
fn a_broken_policy_stops_gate_before_the_agent_starts() {
    let ws = Ws::new("version: 1\npermissions:\n  allow:\n    - Bash(git status\n");
    let o = ws.run(&["--strict"], &["note", "started"], None);
    o.assert_code(2);
    assert!(o.log.is_empty(), "the agent ran: {:#?}", o.log);
    assert!(o.stderr.contains("host.yaml:"), "errors carry file:line:column: {}", o.stderr);
}

#[test]
fn a_missing_program_or_config_is_exit_2() {
    let ws = Ws::new(POLICY);
    let mut cmd = std::process::Command::new(GATE);
    cmd.current_dir(ws.path()).args(["run", "--strict", "--", "/nonexistent/agent"]);
    let out = cmd.output().unwrap();
    assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot start"));

    let out = std::process::Command::new(GATE)
        .current_dir(ws.path())
        .args(["run", "--strict", "-c", "missing.yaml", "--", AGENT])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));

    // No program at all: clap's usage error.
    let out = std::process::Command::new(GATE).current_dir(ws.path()).args(["run", "--strict"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn mode_flag_overrides_host_yaml() {
    let ws = Ws::new(POLICY);
    // bypassPermissions allows what default mode would ask.
    let o = ws.run(
        &["--strict", "--mode", "bypassPermissions"],
        &["send", &req("w1", "write", serde_json::json!({"file_path":"src/a.rs","content":"x"})), "await", "w1"],
        None,
    );
    assert_approved(&o.decision("w1"), "mode");
    let o = ws.run(
        &["--strict"],
        &["send", &req("w2", "write", serde_json::json!({"file_path":"src/a.rs","content":"x"})), "await", "w2"],
        None,
    );
    assert_denied(&o.decision("w2"), "strict", "reject_soft");
}
