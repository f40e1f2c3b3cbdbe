//! `gate run`: every row of SPEC section 2 through the real binary and a real child agent.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod run_common;

use run_common::*;
use serde_json::json;

#[test]
fn non_protocol_lines_pass_through_byte_exact_and_in_order() {
    let ws = Ws::new(POLICY);
    let o = ws.run(
        &["--strict"],
        &[
            "send",
            "plain text line",
            "send",
            &bash("c1", "npm test"),
            "send",
            r#"{"type":"result","text":"not for gate"}"#,
            "send",
            "   {\"type\":\"tool_request\" indented: not a protocol line",
            "await",
            "c1",
            // invalid UTF-8 and a NUL, then a line starting with { that is not UTF-8
            "raw",
            "ff00fe0a7bff7d0a",
            "send",
            "{broken json that names no protocol type",
            "raw",
            "6c617374206c696e65206e6f206e65776c696e65",
        ],
        None,
    );
    o.assert_code(0);
    let mut expected = b"plain text line\n{\"type\":\"result\",\"text\":\"not for gate\"}\n   {\"type\":\"tool_request\" indented: not a protocol line\n".to_vec();
    expected.extend_from_slice(&[0xff, 0x00, 0xfe, b'\n', b'{', 0xff, b'}', b'\n']);
    expected.extend_from_slice(b"{broken json that names no protocol type\nlast line no newline");
    assert_eq!(o.stdout, expected, "stdout: {:?}", o.stdout_str());
    assert_approved(&o.decision("c1"), "rule");
}

#[test]
fn rule_allow_has_scope_once_and_names_the_rule() {
    let ws = Ws::new(POLICY);
    let o = ws.run(&["--strict"], &["send", &bash("c1", "npm test"), "await", "c1"], None);
    let d = o.decision("c1");
    assert_approved(&d, "rule");
    assert_eq!(d["scope"], "once");
    assert_eq!(d["rule"], "Bash(npm test)");
    assert_eq!(d["type"], "decision");
}

#[test]
fn safe_list_allows() {
    let ws = Ws::new(POLICY);
    let o = ws.run(
        &["--strict"],
        &["send", &req("r1", "read_file", json!({"file_path":"README.md"})), "await", "r1"],
        None,
    );
    assert_approved(&o.decision("r1"), "safe");
}

#[test]
fn approval_needed_is_a_synonym_and_numeric_ids_are_echoed() {
    let ws = Ws::new(POLICY);
    let o = ws.run(
        &["--strict"],
        &[
            "send",
            r#"{"type":"approval_needed","id":"a1","tool":"bash","arguments":{"command":"npm test"}}"#,
            "await",
            "a1",
            "send",
            r#"{"type":"tool_request","id":7,"tool":"bash","arguments":"{\"command\":\"npm test\"}"}"#,
            "await",
            "7",
        ],
        None,
    );
    assert_approved(&o.decision("a1"), "rule");
    let d = o.decisions().into_iter().find(|d| d["id"] == 7).expect("decision for 7");
    assert_approved(&d, "rule");
}

#[test]
fn deny_rule_denies_with_a_message_for_the_model() {
    let ws = Ws::new(POLICY);
    let o = ws.run(
        &["--approve-all"],
        &[
            "send",
            &bash("d1", "rm -rf build"),
            "await",
            "d1",
            "send",
            &bash("d2", "npm test && rm -rf build"),
            "await",
            "d2",
        ],
        None,
    );
    for id in ["d1", "d2"] {
        let d = o.decision(id);
        assert_denied(&d, "rule", "reject_soft");
        assert_eq!(d["rule"], "Bash(rm *)", "{d:#}");
        assert!(d["message"].as_str().unwrap().contains("tool 'bash'"), "{d:#}");
    }
}

#[test]
fn hello_gets_welcome_with_mode_and_disabled_tools() {
    let ws = Ws::new(POLICY);
    let o = ws.run(
        &["--strict"],
        &["send", r#"{"type":"hello","protocol":1,"tools":["bash","webfetch"]}"#, "await-type", "welcome"],
        None,
    );
    let w = o.received_json().into_iter().find(|v| v["type"] == "welcome").expect("welcome");
    assert_eq!(w["protocol"], 1);
    assert_eq!(w["mode"], "default");
    assert!(w["disabled_tools"].as_array().unwrap().iter().any(|t| t == "webfetch"), "{w:#}");

    let o = ws.run(
        &["--strict", "--mode", "plan"],
        &["send", r#"{"type":"hello","protocol":1}"#, "await-type", "welcome"],
        None,
    );
    let w = o.received_json().into_iter().find(|v| v["type"] == "welcome").expect("welcome");
    assert_eq!(w["mode"], "plan");
}

#[test]
fn skills_last_one_turn_and_only_declared_ones_count() {
    let ws = Ws::new(POLICY);
    let o = ws.run(
        &["--strict"],
        &[
            "send",
            &bash("k1", "kubectl apply -f k1.yaml"),
            "await",
            "k1",
            "send",
            r#"{"type":"skill","name":"made-up","active":true}"#,
            "send",
            &bash("k2", "kubectl apply -f k2.yaml"),
            "await",
            "k2",
            "send",
            r#"{"type":"skill","name":"deploy","active":true}"#,
            "send",
            &bash("k3", "kubectl apply -f k3.yaml"),
            "await",
            "k3",
            "send",
            r#"{"type":"turn_end"}"#,
            "send",
            &bash("k4", "kubectl apply -f k4.yaml"),
            "await",
            "k4",
        ],
        None,
    );
    assert_denied(&o.decision("k1"), "strict", "reject_soft");
    assert_denied(&o.decision("k2"), "strict", "reject_soft");
    assert!(o.stderr.contains("made-up"), "{}", o.stderr);
    assert_approved(&o.decision("k3"), "skill");
    assert_denied(&o.decision("k4"), "strict", "reject_soft");
}

#[test]
fn doom_loop_asks_on_the_third_identical_call() {
    let ws = Ws::new(POLICY);
    let r = req("x", "read_file", json!({"file_path":"a.txt"}));
    let ops: Vec<String> = (1..=4)
        .flat_map(|k| {
            let line = r.replace("\"x\"", &format!("\"r{k}\""));
            vec!["send".to_string(), line, "await".to_string(), format!("r{k}")]
        })
        .chain(["send".into(), req("r5", "read_file", json!({"file_path":"b.txt"})), "await".into(), "r5".into()])
        .collect();
    let ops: Vec<&str> = ops.iter().map(String::as_str).collect();
    let o = ws.run(&["--non-interactive"], &ops, None);
    assert_approved(&o.decision("r1"), "safe");
    assert_approved(&o.decision("r2"), "safe");
    for id in ["r3", "r4"] {
        let d = o.decision(id);
        assert_denied(&d, "non_interactive", "reject_soft");
        assert!(d["reason"].as_str().unwrap().contains("times in a row"), "{d:#}");
    }
    assert_approved(&o.decision("r5"), "safe");

    // With `action: deny` the source is doom_loop.
    let ws = Ws::new(&POLICY.replace("action: ask", "action: deny"));
    let o = ws.run(&["--approve-all"], &ops, None);
    assert_approved(&o.decision("r2"), "safe");
    let d = o.decision("r3");
    assert_denied(&d, "doom_loop", "reject_soft");
    assert!(d["message"].as_str().unwrap().contains("loop"), "{d:#}");

    // A doom-loop ask is a prompt: --approve-all approves it.
    let ws = Ws::new(POLICY);
    let o = ws.run(&["--approve-all"], &ops, None);
    assert_approved(&o.decision("r3"), "approve_all");
}

#[test]
fn stdin_is_forwarded_as_whole_lines_then_input_closed() {
    let ws = Ws::new(POLICY);
    let o =
        ws.run(&["--strict"], &["await-type", "input_closed"], Some(b"first line\nsecond {line}\nno newline at end"));
    o.assert_code(0);
    assert_eq!(
        o.received(),
        vec!["first line", "second {line}", "no newline at end", r#"{"type":"input_closed"}"#],
        "{:#?}",
        o.log
    );
}

#[test]
fn stdin_lines_and_decisions_never_interleave() {
    let ws = Ws::new(POLICY);
    let mut input = Vec::new();
    for k in 0..3000 {
        input.extend_from_slice(format!("stdin line {k} {}\n", "x".repeat(k % 300)).as_bytes());
    }
    // One line longer than a read, to exercise the writer's part handling.
    input.extend_from_slice(format!("long {}\n", "y".repeat(300_000)).as_bytes());
    let o = ws.run(&["--strict"], &["flood", "400", "await-type", "input_closed"], Some(&input));
    o.assert_code(0);
    assert!(o.log.iter().any(|l| l == "# flood decisions=400"), "{:#?}", &o.log[o.log.len().saturating_sub(5)..]);
    let mut stdin_lines = Vec::new();
    for line in o.received() {
        if line.starts_with('{') {
            let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
            assert!(v["type"] == "decision" || v["type"] == "input_closed", "{v}");
        } else {
            stdin_lines.push(line);
        }
    }
    let expected: Vec<String> = String::from_utf8(input).unwrap().lines().map(str::to_string).collect();
    assert_eq!(stdin_lines.len(), expected.len());
    assert!(stdin_lines == expected, "stdin lines arrived changed or out of order");
}

// Live policy reload (policy_changed, the last good policy kept) is tested in reload_live.rs.

#[test]
fn each_denial_is_one_line_on_stderr_naming_the_part_and_the_rule_unless_quiet() {
    let ws = Ws::new(POLICY);
    let ops = ["send", &bash("c1", "git status && rm -rf build"), "await", "c1"];
    let o = ws.run(&["--strict"], &ops, None);
    let d = o.decision("c1");
    assert_denied(&d, "rule", "reject_soft");
    let lines: Vec<&str> = o.stderr.lines().filter(|l| l.starts_with("gate: denied")).collect();
    assert_eq!(lines.len(), 1, "{}", o.stderr);
    insta::assert_snapshot!(lines[0], @"gate: denied bash: rm -rf build (rule Bash(rm *)): `rm -rf build`: denied by rule `Bash(rm *)`");
    let o = ws.run(&["--strict", "--quiet"], &ops, None);
    assert!(!o.stderr.contains("gate: denied"), "{}", o.stderr);
}

#[test]
fn a_protocol_looking_line_that_is_not_json_is_warned_about_once_with_its_line_number() {
    let ws = Ws::new(POLICY);
    let o = ws.run(
        &["--strict"],
        &[
            "send",
            "hello",
            "send",
            "{type: 'tool_request', id: 'x1', tool: 'bash'}",
            "send",
            "{type: 'tool_request', id: 'x2', tool: 'bash'}",
            "send",
            &bash("c1", "npm test"),
            "await",
            "c1",
        ],
        None,
    );
    o.assert_code(0);
    let warnings: Vec<&str> = o.stderr.lines().filter(|l| l.contains("looks like a protocol message")).collect();
    assert_eq!(warnings.len(), 1, "{}", o.stderr);
    assert!(warnings[0].contains("line 2"), "{}", warnings[0]);
    // Passed through as output, not decided.
    assert!(o.stdout_str().contains("{type: 'tool_request', id: 'x1'"), "{}", o.stdout_str());
}
