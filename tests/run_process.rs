//! Process hygiene of `gate run`: exit codes, signals passed to the agent's process group,
//! the grace period, no hang when the agent misbehaves, no lost output, no orphans.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod run_common;

use run_common::*;

#[test]
fn exit_code_is_the_agents() {
    let ws = Ws::new(POLICY);
    ws.run(&["--strict"], &["exit", "0"], None).assert_code(0);
    ws.run(&["--strict"], &["exit", "7"], None).assert_code(7);
    ws.run(&["--strict"], &["exit", "255"], None).assert_code(255);
}

#[test]
fn death_by_signal_is_128_plus_n() {
    let ws = Ws::new(POLICY);
    ws.run(&["--strict"], &["signal", "15"], None).assert_code(128 + 15);
    ws.run(&["--strict"], &["signal", "9"], None).assert_code(128 + 9);
    ws.run(&["--strict"], &["signal", "6"], None).assert_code(128 + 6);
}

fn signal_test(sig: i32, ops: &[&str], extra: &[&str]) -> Outcome {
    let ws = Ws::new(POLICY);
    let mut all = vec!["note", "ready"];
    all.extend_from_slice(ops);
    let mut args = vec!["run", "--strict"];
    args.extend_from_slice(extra);
    let running = Running::start(ws.command(&args, &all), None);
    ws.wait_log("ready");
    running.signal(sig);
    running.finish(&ws)
}

#[test]
fn sigterm_sigint_sighup_are_passed_to_the_agent() {
    for sig in [libc::SIGTERM, libc::SIGINT, libc::SIGHUP] {
        let o = signal_test(sig, &["sleep", "60000"], &[]);
        o.assert_code(128 + sig);
    }
}

#[test]
fn an_agent_that_ignores_the_signal_is_killed_after_the_grace_period() {
    let o = signal_test(libc::SIGTERM, &["ignore", "15", "note", "ignoring", "sleep", "60000"], &["--kill-grace", "1"]);
    o.assert_code(128 + libc::SIGKILL);
    assert!(o.stderr.contains("killing it"), "{}", o.stderr);
}

#[test]
fn the_signal_reaches_the_whole_process_group() {
    let ws = Ws::new(POLICY);
    let running = Running::start(
        ws.command(&["run", "--strict"], &["spawn-sleeper", "60", "note", "ready", "sleep", "60000"]),
        None,
    );
    ws.wait_log("ready");
    let sleeper: i32 =
        ws.log().iter().find_map(|l| l.strip_prefix("# sleeper ").map(|p| p.parse().unwrap())).expect("sleeper pid");
    running.signal(libc::SIGTERM);
    let o = running.finish(&ws);
    o.assert_code(128 + libc::SIGTERM);
    assert!(gone(sleeper), "the agent's child {sleeper} survived");
}

/// Not running any more (absent, or a zombie waiting for its new parent).
fn gone(pid: i32) -> bool {
    let deadline = std::time::Instant::now() + TIMEOUT;
    while std::time::Instant::now() < deadline {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            Err(_) => return true,
            Ok(s) => {
                let state = s.rsplit(')').next().unwrap_or("").split_whitespace().next().unwrap_or("");
                if state == "Z" || state == "X" {
                    return true;
                }
            }
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    false
}

#[test]
fn what_the_agent_leaves_running_is_ended_when_it_exits() {
    let ws = Ws::new(POLICY);
    let o = ws.run(&["--strict", "--kill-grace", "2"], &["spawn-sleeper", "60", "exit", "3"], None);
    o.assert_code(3);
    let sleeper: i32 =
        o.log.iter().find_map(|l| l.strip_prefix("# sleeper ").map(|p| p.parse().unwrap())).expect("sleeper pid");
    assert!(gone(sleeper), "orphan {sleeper} left running");
}

#[test]
fn a_descendant_holding_stdout_open_does_not_hang_gate() {
    let ws = Ws::new(POLICY);
    let o =
        ws.run(&["--strict", "--kill-grace", "2"], &["spawn-holder", "60", "send", "last words", "exit", "6"], None);
    o.assert_code(6);
    assert_eq!(o.stdout_str(), "last words\n");
    let holder: i32 =
        o.log.iter().find_map(|l| l.strip_prefix("# sleeper ").map(|p| p.parse().unwrap())).expect("holder pid");
    assert!(gone(holder), "{holder} left running");
}

#[test]
fn all_output_written_before_exit_arrives() {
    let ws = Ws::new(POLICY);
    let o = ws.run(&["--strict"], &["spam", "200000", "exit", "0"], None);
    o.assert_code(0);
    let text = o.stdout_str();
    assert_eq!(text.lines().count(), 200000);
    assert!(text.ends_with("spam line 199999\n"));
}

#[test]
fn agent_closing_stdout_early_does_not_hang_gate() {
    let ws = Ws::new(POLICY);
    let o = ws.run(&["--strict"], &["send", "bye", "close-stdout", "sleep", "200", "exit", "4"], None);
    o.assert_code(4);
    assert_eq!(o.stdout_str(), "bye\n");
}

#[test]
fn agent_exiting_with_a_request_open_does_not_hang_gate() {
    let ws = Ws::new(POLICY);
    let o = ws.run(&["--strict"], &["send", &bash("c1", "git push origin main"), "exit", "5"], None);
    o.assert_code(5);
}

#[test]
fn agent_that_never_reads_its_stdin_does_not_hang_gate() {
    let ws = Ws::new(POLICY);
    // 3000 decisions are far more than a pipe holds; the agent reads none of them.
    let mut ops = vec!["close-stdin".to_string()];
    for k in 0..3000 {
        ops.push("send".into());
        ops.push(bash(&format!("c{k}"), "npm test"));
    }
    ops.push("exit".into());
    ops.push("0".into());
    let ops: Vec<&str> = ops.iter().map(String::as_str).collect();
    let o = ws.run(&["--strict"], &ops, Some(b"some input\n"));
    o.assert_code(0);

    // Same without closing: stdin simply never read, the agent exits while decisions are queued.
    let mut ops: Vec<String> = Vec::new();
    for k in 0..3000 {
        ops.push("send".into());
        ops.push(bash(&format!("c{k}"), "npm test"));
    }
    let ops: Vec<&str> = ops.iter().map(String::as_str).collect();
    let o = ws.run(&["--strict"], &ops, None);
    o.assert_code(0);
}

#[test]
fn a_closed_downstream_ends_the_agent_as_a_pipeline_would() {
    use std::io::Read;
    let ws = Ws::new(POLICY);
    let mut cmd = ws.command(&["run", "--strict"], &["spam", "100000000"]);
    cmd.stdin(std::process::Stdio::null()).stdout(std::process::Stdio::piped()).stderr(std::process::Stdio::null());
    let mut child = cmd.spawn().unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut buf = [0u8; 4096];
    out.read_exact(&mut buf).unwrap();
    drop(out);
    let deadline = std::time::Instant::now() + TIMEOUT;
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        assert!(std::time::Instant::now() < deadline, "gate did not exit after its stdout closed");
        std::thread::sleep(std::time::Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(128 + libc::SIGPIPE));
}

#[test]
fn output_of_processes_the_agent_leaves_behind_is_not_lost() {
    // Hardening round 2, item 11: a grandchild's line 0.3 s after the agent exited, and the
    // line it prints in its SIGTERM handler, reach gate's stdout.
    let script = "( sleep 0.3; echo late line; trap 'echo said while ending; exit 0' TERM; while :; do sleep 0.05; done ) & echo agent done";
    let out = std::process::Command::new(GATE)
        .args(["run", "--kill-grace", "1", "--", "sh", "-c", script])
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("agent done") && stdout.contains("late line"), "{stdout}");
    assert!(stdout.contains("said while ending"), "{stdout}");
}

#[test]
fn an_agent_that_sends_many_allowed_calls_without_reading_does_not_hang_gate() {
    // Calls answered on the reader thread used to be written there even with the agent's
    // stdin pipe full: an agent that never read its answers waited on gate's reader, which
    // waited on the agent (found 2026-11-26; 3000 distinct allowed calls hung both).
    let ws = Ws::new(POLICY);
    let mut ops: Vec<String> = Vec::new();
    for k in 0..3000 {
        ops.push("send".into());
        ops.push(req(&format!("c{k}"), "read_file", serde_json::json!({ "file_path": format!("f{k}.txt") })));
    }
    let ops: Vec<&str> = ops.iter().map(String::as_str).collect();
    let o = ws.run(&["--strict"], &ops, None);
    o.assert_code(0);
}
