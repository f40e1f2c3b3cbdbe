//! `gate demo` without a terminal: the whole flow, narrated, exit 0.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod prompt_common;
mod run_common;

use prompt_common::*;
use run_common::*;

#[test]
fn demo_runs_without_a_terminal_and_exits_0() {
    let ws = Ws::new(POLICY);
    let mut cmd = std::process::Command::new(GATE);
    cmd.current_dir(ws.path()).env("HOME", ws.home.path()).arg("demo");
    // SAFETY: setsid(2) is async-signal-safe and touches no memory; it detaches gate from the
    // test runner's terminal, so the demo runs as it would in CI.
    unsafe {
        use std::os::unix::process::CommandExt;
        cmd.pre_exec(|| {
            libc::setsid();
            Ok(())
        });
    }
    let o = Running::start(cmd, None).finish(&ws);
    o.assert_code(0);
    let out = o.stdout_str();
    for want in [
        "Step 1/5",
        "ALLOWED (source: safe)",
        // The tool as the agent called it (`safe_tools: [read_file]`), not `read`.
        "`read_file` is on the safe list",
        // The rule once, in the reason, not again in the header.
        "ALLOWED (source: rule)\n      allowed by rule `Bash(cargo test *)`",
        "DENIED, reject_soft (source: rule)",
        "DENIED, reject_soft (source: non_interactive)",
        "DENIED, reject_hard (source: user)",
        "DENIED, reject_hard (source: batch)",
        "gate check",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
    assert!(out.contains("the stop is lifted"), "{out}");
    // No protocol line leaks to the person.
    assert!(!out.lines().any(|l| l.starts_with('{')), "{out}");
    // The user's directory is untouched.
    assert!(!ws.path().join(".gate").exists());
}

/// At a terminal, approving the batch's first call (y) stops nothing: the demo must not say
/// that a stop is lifted.
#[test]
fn demo_at_a_terminal_without_a_stop_says_no_stop_is_lifted() {
    let ws = Ws::new(POLICY);
    let Some(mut t) = start_demo(&ws) else { return };
    t.wait_count(KEYS, 1);
    t.key('y');
    t.wait_count(KEYS, 2);
    t.key('y');
    let f = t.finish(&ws);
    assert_eq!(f.outcome.code, Some(0), "{}", f.screen);
    assert!(f.screen.contains("The batch was not stopped"), "{}", f.screen);
    assert!(f.screen.contains("the turn is over"), "{}", f.screen);
    assert!(!f.screen.contains("the stop is lifted"), "{}", f.screen);
}
