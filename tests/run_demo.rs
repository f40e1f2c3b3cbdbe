//! `gate demo` without a terminal: the whole flow, narrated, exit 0.

mod run_common;

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
        "ALLOWED (source: rule, rule Bash(cargo test *))",
        "DENIED, reject_soft (source: rule, rule Bash(rm *))",
        "DENIED, reject_soft (source: non_interactive)",
        "DENIED, reject_hard (source: user)",
        "DENIED, reject_hard (source: batch)",
        "gate check",
    ] {
        assert!(out.contains(want), "missing {want:?} in:\n{out}");
    }
    // No protocol line leaks to the person.
    assert!(!out.lines().any(|l| l.starts_with('{')), "{out}");
    // The user's directory is untouched.
    assert!(!ws.path().join(".gate").exists());
}
