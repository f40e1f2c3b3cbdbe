//! SPEC section 4 through the real binary: bad lines from the agent get one clear line on
//! stderr, a denial with `"source":"error"` where an id can be known, and gate keeps serving,
//! with bounded memory.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod run_common;

use run_common::*;

/// The request sent after a bad line: gate must still answer it.
fn then_ok(id: &str) -> Vec<String> {
    vec!["send".into(), bash(id, "npm test"), "await".into(), id.into()]
}

fn ops(list: &[&[String]]) -> Vec<String> {
    list.iter().flat_map(|l| l.iter().cloned()).collect()
}

fn s(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn invalid_json_request_is_denied_when_its_id_can_be_read() {
    let ws = Ws::new(POLICY);
    let all = ops(&[
        &s(&["send", r#"{"type":"tool_request","id":"j1","tool":"bash","arguments":{"command":"npm test"}"#]),
        &s(&["await", "j1"]),
        &s(&["send", r#"{"type":"tool_request", "tool": "bash", oops}"#]),
        &then_ok("ok1"),
    ]);
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let o = ws.run(&["--strict"], &all, None);
    o.assert_code(0);
    let d = o.decision("j1");
    assert_denied(&d, "error", "reject_soft");
    assert!(d["reason"].as_str().unwrap().contains("not valid JSON"), "{d:#}");
    assert!(o.stderr.contains("not valid JSON"), "{}", o.stderr);
    // The one without an id: a stderr line, no decision, and gate goes on.
    assert_eq!(o.stderr.matches("not valid JSON").count(), 2, "{}", o.stderr);
    assert!(o.stderr.contains("no id could be read"), "{}", o.stderr);
    assert_eq!(o.decisions().len(), 2, "{:#?}", o.decisions());
    assert_approved(&o.decision("ok1"), "rule");
    assert!(o.stdout.is_empty(), "bad protocol lines are not passed through: {}", o.stdout_str());
}

#[test]
fn request_without_id_or_tool() {
    let ws = Ws::new(POLICY);
    let all = ops(&[
        &s(&["send", r#"{"type":"tool_request","id":"t1","arguments":{}}"#, "await", "t1"]),
        &s(&["send", r#"{"type":"tool_request","tool":"bash","arguments":{"command":"npm test"}}"#]),
        &s(&["send", r#"{"type":"tool_request","id":"t2","tool":"bash","arguments":[1,2]}"#, "await", "t2"]),
        &then_ok("ok2"),
    ]);
    let all: Vec<&str> = all.iter().map(String::as_str).collect();
    let o = ws.run(&["--approve-all"], &all, None);
    o.assert_code(0);
    let d = o.decision("t1");
    assert_denied(&d, "error", "reject_soft");
    assert!(d["reason"].as_str().unwrap().contains("\"tool\""), "{d:#}");
    assert_denied(&o.decision("t2"), "error", "reject_soft");
    assert!(o.stderr.contains("without an \"id\""), "{}", o.stderr);
    assert_eq!(o.decisions().len(), 3);
    assert_approved(&o.decision("ok2"), "rule");
}

#[test]
fn over_long_lines_are_dropped_or_passed_through_and_gate_goes_on() {
    let ws = Ws::new(POLICY);
    let o = ws.run(
        &["--strict", "--max-line", "1000"],
        &[
            // A request over the limit, its id readable from the start of the line.
            "bigline",
            r#"{"type":"tool_request","id":"big1","tool":"bash","arguments":{"command":""#,
            "5000",
            r#""}}"#,
            "await",
            "big1",
            // A long line of the agent's own JSON: not for gate, passed through whole.
            "bigline",
            r#"{"result":""#,
            "3000",
            r#""}"#,
            // A long plain line.
            "bigline",
            "plain ",
            "200000",
            "",
            "send",
            &bash("ok", "npm test"),
            "await",
            "ok",
        ],
        None,
    );
    o.assert_code(0);
    let d = o.decision("big1");
    assert_denied(&d, "error", "reject_soft");
    assert!(d["reason"].as_str().unwrap().contains("--max-line"), "{d:#}");
    assert!(o.stderr.contains("--max-line"), "{}", o.stderr);
    assert_approved(&o.decision("ok"), "rule");
    let expected = format!("{{\"result\":\"{}\"}}\nplain {}\n", "a".repeat(3000), "a".repeat(200000));
    assert!(o.stdout == expected.as_bytes(), "passthrough changed ({} bytes)", o.stdout.len());
}

#[test]
fn binary_garbage_passes_through_and_gate_goes_on() {
    let ws = Ws::new(POLICY);
    let mut garbage = String::new();
    for b in 0u8..=255 {
        if b != b'\n' {
            garbage.push_str(&format!("{b:02x}"));
        }
    }
    garbage.push_str("0a7b00ff22747970652200"); // "\n{\0\xff\"type\"\0" with no newline yet
    garbage.push_str("0a");
    let o = ws.run(&["--strict"], &["raw", &garbage, "send", &bash("ok", "npm test"), "await", "ok"], None);
    o.assert_code(0);
    let mut expected: Vec<u8> = (0u8..=255).filter(|&b| b != b'\n').collect();
    expected.extend_from_slice(&[b'\n', b'{', 0, 0xff, b'"', b't', b'y', b'p', b'e', b'"', 0, b'\n']);
    assert_eq!(o.stdout, expected);
    assert_approved(&o.decision("ok"), "rule");
}

#[test]
fn a_flood_of_requests_is_answered_in_order() {
    let ws = Ws::new(POLICY);
    let o = ws.run(&["--strict"], &["flood", "20000"], None);
    o.assert_code(0);
    assert!(o.log.iter().any(|l| l == "# flood decisions=20000"), "{:?}", o.log.last());
    let ids: Vec<String> = o.decisions().iter().map(|d| d["id"].as_str().unwrap().to_string()).collect();
    let expected: Vec<String> = (0..20000).map(|k| format!("f{k}")).collect();
    assert!(ids == expected, "decisions out of order");
}

/// Peak resident memory of a process, in KiB.
fn peak_rss_kib(pid: i32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

#[test]
fn memory_stays_bounded_on_huge_lines() {
    let ws = Ws::new(POLICY);
    let flag = ws.path().join("measured");
    let cmd = ws.command(
        &["run", "--strict", "--max-line", "1048576"],
        &[
            // 64 MiB request line (over the limit), 64 MiB passthrough line starting with {.
            "bigline",
            r#"{"type":"tool_request","id":"huge","tool":"bash","arguments":{"command":""#,
            "67108864",
            r#""}}"#,
            "await",
            "huge",
            "bigline",
            "{",
            "67108864",
            "}",
            "send",
            &bash("ok", "npm test"),
            "await",
            "ok",
            "note",
            "sent everything",
            "wait-file",
            flag.to_str().unwrap(),
        ],
    );
    let running = Running::start(cmd, None);
    ws.wait_log("sent everything");
    let peak = peak_rss_kib(running.pid());
    std::fs::write(&flag, "").unwrap();
    let o = running.finish(&ws);
    o.assert_code(0);
    assert_denied(&o.decision("huge"), "error", "reject_soft");
    assert_approved(&o.decision("ok"), "rule");
    assert!(peak < 48 * 1024, "gate's peak memory was {peak} KiB for 64 MiB lines");
}

/// A panic inside a decision (debug builds have a tool that panics on purpose) denies that
/// call with source "error", and gate goes on serving the next request.
#[test]
fn a_panic_while_deciding_denies_and_gate_goes_on() {
    let ws = Ws::new(POLICY);
    let o = ws.run(
        &["--approve-all"],
        &[
            "send",
            &req("p1", "__gate_panic_for_tests", serde_json::json!({})),
            "await",
            "p1",
            "send",
            &bash("c2", "npm test"),
            "await",
            "c2",
        ],
        None,
    );
    o.assert_code(0);
    let d = o.decision("p1");
    assert_eq!(d["approved"], false, "{d}");
    assert_eq!(d["source"], "error", "{d}");
    assert_approved(&o.decision("c2"), "rule");
}

/// `{"command":"rm x","command":"ls"}`: serde keeps the last key, an agent might keep the
/// first. gate refuses to guess: the request is denied with source "error".
#[test]
fn duplicate_keys_in_a_request_are_denied() {
    let ws = Ws::new(POLICY);
    let line = r#"{"type":"tool_request","id":"d1","tool":"bash","arguments":{"command":"rm -rf build","command":"npm test"}}"#;
    let o = ws.run(
        &["--approve-all"],
        &["send", line, "await", "d1", "send", &bash("c2", "npm test"), "await", "c2"],
        None,
    );
    o.assert_code(0);
    let d = o.decision("d1");
    assert_eq!(d["approved"], false, "{d}");
    assert_eq!(d["source"], "error", "{d}");
    assert!(o.stderr.contains("duplicate key"), "{}", o.stderr);
    assert_approved(&o.decision("c2"), "rule");
}
