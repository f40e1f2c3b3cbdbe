//! The harness drives each real agent, without gate: each runs headless in a throwaway HOME and
//! workspace against its mock model on 127.0.0.1, with a one-step script, and the mock must see
//! the request and (where the agent runs the tool) the tool's result. Agents come from
//! `.ci/agents.sh`; a missing one skips (fails under GATE_REQUIRE_AGENTS). Each test prints a
//! `TIMING` line: spawn to the first model request, and to the end.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod agents;

use std::time::{Duration, Instant};

use agents::mock::{call, script, Mock};
use agents::{acp, anthropic, claude, codex_app, gemini, openai_chat, responses, run, Sandbox};
use serde_json::json;

/// Per agent run; only a hang should reach it.
const T: Duration = Duration::from_secs(120);

fn timing(name: &str, spawned: Instant, mock: Option<&Mock>) {
    let first = mock
        .and_then(|m| m.requests().first().map(|r| r.at.duration_since(spawned)))
        .map_or("-".to_string(), |d| format!("{:.2}s", d.as_secs_f64()));
    eprintln!("TIMING {name}: first model request {first}, done {:.2}s", spawned.elapsed().as_secs_f64());
    if let Some(m) = mock {
        eprint!("{name} mock:\n{}", m.summary());
    }
}

/// The tool results the mock received, for assertions that show them on failure.
fn results(mock: &Mock) -> Vec<String> {
    mock.tool_results().into_iter().map(|t| t.content).collect()
}

#[test]
fn claude_code_asks_over_stdio_and_runs_the_allowed_tool() {
    let cc_bin = agent_or_skip!("claude-code");
    let sb = Sandbox::new();
    // A write, so Claude Code asks (can_use_tool); a read-only `echo hi` it would just run.
    let mock = anthropic::start(script(vec![call(
        "Bash",
        json!({"command": "echo hi | tee smoke.txt", "description": "Write hi"}),
    )]));
    let mut cmd = cc_bin.command(&sb, Some(&mock.url()));
    cmd.args(claude::ARGS);
    let spawned = Instant::now();
    let mut cc = claude::Claude::start(cmd, T);
    cc.initialize(None);
    cc.user("Write hi to smoke.txt");
    let result = cc.run_turn(&mut claude::allow_all);
    cc.p.finish(Duration::from_secs(10));
    timing("claude-code", spawned, Some(&mock));
    let ctx = || format!("{}\n--- mock\n{}", cc.p.transcript(), mock.summary());
    assert_eq!(result["subtype"], "success", "{}", ctx());
    let asked = cc.requests("can_use_tool");
    assert_eq!(asked.len(), 1, "{}", ctx());
    assert_eq!(asked[0]["tool_name"], "Bash", "{}", ctx());
    assert_eq!(asked[0]["input"]["command"], "echo hi | tee smoke.txt", "{}", ctx());
    assert_eq!(std::fs::read_to_string(sb.work.join("smoke.txt")).ok().as_deref(), Some("hi\n"), "{}", ctx());
    let r = mock.tool_results();
    assert_eq!(r.len(), 1, "{}", ctx());
    assert_eq!(r[0].id, "toolu_mock0_0", "{}", ctx());
    assert!(r[0].content.contains("hi"), "{}", ctx());
    assert_eq!(r[0].is_error, Some(false), "{}", ctx());
}

#[test]
fn pi_print_mode_runs_the_tool() {
    let pi = agent_or_skip!("pi");
    let sb = Sandbox::new();
    let mock = openai_chat::start(script(vec![call("bash", json!({"command": "echo hi"}))]));
    let mut cmd = pi.command(&sb, Some(&mock.url()));
    cmd.args(["-p", "--no-session", "Run echo hi"]);
    let spawned = Instant::now();
    let f = run(cmd, T);
    timing("pi", spawned, Some(&mock));
    let ctx = || format!("{}\n--- mock\n{}", f.transcript(), mock.summary());
    assert!(f.status.success(), "{}", ctx());
    assert!(f.stdout.contains("done."), "{}", ctx());
    assert_eq!(mock.steps_sent(), 1, "{}", ctx());
    assert_eq!(results(&mock), vec!["hi\n".to_string()], "{}", ctx());
}

#[test]
fn opencode_acp_asks_and_runs_the_allowed_tool() {
    let oc = agent_or_skip!("opencode");
    let sb = Sandbox::new();
    let mock = openai_chat::start(script(vec![call("bash", json!({"command": "echo hi", "description": "Say hi"}))]));
    let mut cmd = oc.command(&sb, Some(&mock.url()));
    // By default opencode asks for nothing; make bash ask so the permission path is exercised.
    let config = agents::opencode_config(&mock.url(), json!({"permission": {"bash": "ask"}}));
    cmd.env("OPENCODE_CONFIG_CONTENT", config.to_string()).args(["acp", "--pure"]);
    let spawned = Instant::now();
    let mut a = acp::Acp::start(cmd, T);
    a.initialize();
    let sid = a.new_session(&sb.work);
    let r = a.prompt(&sid, "Run echo hi", &mut |req| acp::answer_permission(req, "allow_once"));
    timing("opencode", spawned, Some(&mock));
    a.rpc.p.finish(Duration::from_secs(5));
    let ctx = || format!("{}\n--- mock\n{}", a.rpc.p.transcript(), mock.summary());
    assert_eq!(r["stopReason"], "end_turn", "{}", ctx());
    let asked = a.permission_requests();
    assert_eq!(asked.len(), 1, "{}", ctx());
    assert_eq!(asked[0]["params"]["toolCall"]["rawInput"]["command"], "echo hi", "{}", ctx());
    let r = results(&mock);
    assert!(r.len() == 1 && r[0].contains("hi"), "{r:?}\n{}", ctx());
}

#[test]
fn gemini_acp_asks_and_runs_the_allowed_tool() {
    let gm = agent_or_skip!("gemini");
    let sb = Sandbox::new();
    // A write, so Gemini asks; a read-only `echo hi` it runs without asking.
    let mock = gemini::start(script(vec![call(
        "run_shell_command",
        json!({"command": "echo hi | tee smoke.txt", "description": "Write hi"}),
    )]));
    let mut cmd = gm.command(&sb, Some(&mock.url()));
    cmd.arg("--acp");
    let spawned = Instant::now();
    let mut a = acp::Acp::start(cmd, T);
    a.initialize();
    let sid = a.new_session(&sb.work);
    let r = a.prompt(&sid, "Write hi to smoke.txt", &mut |req| acp::answer_permission(req, "allow_once"));
    timing("gemini", spawned, Some(&mock));
    a.rpc.p.finish(Duration::from_secs(5));
    let ctx = || format!("{}\n--- mock\n{}", a.rpc.p.transcript(), mock.summary());
    assert_eq!(r["stopReason"], "end_turn", "{}", ctx());
    let asked = a.permission_requests();
    assert_eq!(asked.len(), 1, "{}", ctx());
    assert_eq!(asked[0]["params"]["toolCall"]["kind"], "execute", "{}", ctx());
    assert_eq!(std::fs::read_to_string(sb.work.join("smoke.txt")).ok().as_deref(), Some("hi\n"), "{}", ctx());
    let r = results(&mock);
    assert!(r.len() == 1 && r[0].contains("hi"), "{r:?}\n{}", ctx());
}

/// Codex's Linux sandbox needs bubblewrap; without it the sandboxed modes fail ("bubblewrap is
/// unavailable"), so the tests run commands unsandboxed (danger-full-access) there.
fn codex_sandbox() -> &'static str {
    if agents::have_bwrap() {
        "workspace-write"
    } else {
        eprintln!("note: bubblewrap (bwrap) is missing: codex runs with sandbox danger-full-access");
        "danger-full-access"
    }
}

#[test]
fn codex_acp_asks_and_runs_the_allowed_tool() {
    let cx = agent_or_skip!("codex-acp");
    let sb = Sandbox::new();
    // A write, so the untrusted policy asks; `echo hi` alone it runs without asking.
    let mock = responses::start(script(vec![responses::shell("echo hi | tee smoke.txt")]));
    let mut cmd = cx.command(&sb, Some(&mock.url()));
    cmd.args(["-c", &format!("sandbox_mode=\"{}\"", codex_sandbox()), "-c", "approval_policy=\"untrusted\""]);
    let spawned = Instant::now();
    let mut a = acp::Acp::start(cmd, T);
    a.initialize();
    let sid = a.new_session(&sb.work);
    let r = a.prompt(&sid, "Write hi to smoke.txt", &mut |req| acp::answer_permission(req, "allow_once"));
    timing("codex-acp", spawned, Some(&mock));
    a.rpc.p.finish(Duration::from_secs(5));
    let ctx = || format!("{}\n--- mock\n{}", a.rpc.p.transcript(), mock.summary());
    assert_eq!(r["stopReason"], "end_turn", "{}", ctx());
    let asked = a.permission_requests();
    assert_eq!(asked.len(), 1, "{}", ctx());
    assert_eq!(asked[0]["params"]["toolCall"]["kind"], "execute", "{}", ctx());
    assert_eq!(std::fs::read_to_string(sb.work.join("smoke.txt")).ok().as_deref(), Some("hi\n"), "{}", ctx());
    let r = results(&mock);
    assert!(r.len() == 1 && r[0].contains("hi"), "{r:?}\n{}", ctx());
}

#[test]
fn codex_app_server_asks_and_runs_the_accepted_command() {
    let cx = agent_or_skip!("codex");
    let sb = Sandbox::new();
    // A write, so the untrusted policy asks.
    let mock = responses::start(script(vec![responses::shell("echo hi | tee smoke.txt")]));
    let mut cmd = cx.command(&sb, Some(&mock.url()));
    cmd.arg("app-server");
    let spawned = Instant::now();
    let mut app = codex_app::AppServer::start(cmd, T);
    app.initialize();
    let thread = app.thread_start(&sb.work, "untrusted", codex_sandbox());
    let done = app.turn(&thread, "Write hi to smoke.txt", &mut |req| codex_app::decide(req, "accept"));
    timing("codex", spawned, Some(&mock));
    app.rpc.p.finish(Duration::from_secs(5));
    let ctx = || format!("{}\n--- mock\n{}", app.rpc.p.transcript(), mock.summary());
    assert_eq!(done["turn"]["status"], "completed", "{}", ctx());
    let asked = app.approvals();
    assert_eq!(asked.len(), 1, "{}", ctx());
    assert_eq!(asked[0]["method"], "item/commandExecution/requestApproval", "{}", ctx());
    assert_eq!(std::fs::read_to_string(sb.work.join("smoke.txt")).ok().as_deref(), Some("hi\n"), "{}", ctx());
    let r = results(&mock);
    assert!(r.len() == 1 && r[0].contains("hi"), "{r:?}\n{}", ctx());
}

#[test]
fn mcp_filesystem_lists_and_calls_tools_over_stdio() {
    let fs = agent_or_skip!("mcp-filesystem");
    let sb = Sandbox::new();
    let file = sb.file("a.txt", "hello\n");
    let mut cmd = fs.command(&sb, None);
    cmd.arg(&sb.work);
    let spawned = Instant::now();
    let mut rpc = agents::stdio::Rpc::new(agents::JsonlProcess::spawn(cmd, T), Some("2.0"));
    let none = &mut agents::stdio::no_requests;
    let init = rpc.call_ok(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "gate-tests", "version": "0.0.1"}}),
        none,
    );
    rpc.notify("notifications/initialized", json!({}));
    let list = rpc.call_ok("tools/list", json!({}), none);
    let read = rpc.call_ok("tools/call", json!({"name": "read_text_file", "arguments": {"path": file}}), none);
    let outside =
        rpc.call_ok("tools/call", json!({"name": "read_text_file", "arguments": {"path": "/etc/hostname"}}), none);
    timing("mcp-filesystem", spawned, None);
    rpc.p.finish(Duration::from_secs(5));
    let ctx = rpc.p.transcript();
    assert_eq!(init["serverInfo"]["name"], "secure-filesystem-server", "{ctx}");
    let names: Vec<&str> = list["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    for n in ["read_text_file", "write_file", "edit_file", "list_directory"] {
        assert!(names.contains(&n), "{n} not in {names:?}\n{ctx}");
    }
    assert_eq!(read["content"][0]["text"], "hello\n", "{ctx}");
    assert_eq!(outside["isError"], true, "{ctx}");
}

/// A bare HTTP/1.1 POST to a mock; the JSON body of the answer.
fn post(port: u16, path: &str, body: serde_json::Value) -> serde_json::Value {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
    let body = body.to_string();
    write!(
        s,
        "POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = String::new();
    s.read_to_string(&mut out).unwrap();
    let (_, body) = out.split_once("\r\n\r\n").unwrap();
    serde_json::from_str(body).unwrap()
}

/// The harness itself, no agent needed: steps go out by the count of tool results.
#[test]
fn mock_models_follow_their_script() {
    use agents::mock::due_step;
    let parallel = vec![vec![call("a", json!({})), call("b", json!({}))], vec![call("c", json!({}))]];
    let due = |n| due_step(&parallel, n).map(|(k, _)| k);
    assert_eq!([due(0), due(1), due(2), due(3)], [Some(0), None, Some(1), None]);

    let mock = anthropic::start(script(vec![call("Bash", json!({"command": "ls"}))]));
    let tools = json!([{"name": "Bash", "input_schema": {}}]);
    let ask = json!({"role": "user", "content": "go"});
    let first = post(mock.port(), "/v1/messages", json!({"tools": tools, "messages": [ask]}));
    assert_eq!(first["stop_reason"], "tool_use");
    assert_eq!(
        first["content"][1],
        json!({"type": "tool_use", "id": "toolu_mock0_0", "name": "Bash", "input": {"command": "ls"}})
    );
    let side = post(mock.port(), "/v1/messages", json!({"messages": [ask]}));
    assert_eq!(side["content"][0]["text"], "done.", "no tools offered: no tool call");
    let answer = json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_mock0_0", "content": "a.txt"}]});
    let last = post(mock.port(), "/v1/messages", json!({"tools": tools, "messages": [ask, first, answer]}));
    assert_eq!(last["stop_reason"], "end_turn");
    assert_eq!(last["content"][0]["text"], "done.");
    assert_eq!(mock.requests().len(), 3);
    assert_eq!(mock.steps_sent(), 1);
    let results = mock.tool_results();
    assert_eq!(results.len(), 1);
    assert_eq!((results[0].id.as_str(), results[0].content.as_str()), ("toolu_mock0_0", "a.txt"));
    assert_eq!(post(mock.port(), "/v1/messages/count_tokens", json!({}))["input_tokens"], 42);
}

/// The harness itself: an agent that hangs is killed at the deadline and the test fails with
/// what it printed.
#[test]
#[should_panic(expected = "deadline passed waiting for output")]
fn a_hung_agent_fails_at_the_deadline() {
    let mut c = std::process::Command::new("sh");
    c.args(["-c", "echo '{\"started\":true}'; echo to-stderr >&2; exec sleep 60"]);
    let mut p = agents::JsonlProcess::spawn(c, Duration::from_secs(1));
    assert_eq!(p.recv(), Some(json!({"started": true})));
    p.recv();
}

#[test]
#[should_panic(expected = "timed out after 1s")]
fn a_hung_one_shot_command_fails_at_the_deadline() {
    let mut c = std::process::Command::new("sh");
    c.args(["-c", "echo partial; exec sleep 60"]);
    run(c, Duration::from_secs(1));
}
