//! gate in front of the real MCP filesystem server (`@modelcontextprotocol/server-filesystem`,
//! pinned by .ci/agents.sh): a scripted MCP host on gate's stdin. A missing server skips (fails
//! under GATE_REQUIRE_AGENTS).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod agents;

use std::process::Command;
use std::time::Duration;

use agents::Sandbox;
use serde_json::json;

const T: Duration = Duration::from_secs(60);
const GATE: &str = env!("CARGO_BIN_EXE_gate");

#[test]
fn mcp_calls_are_decided_and_everything_else_passes() {
    let fs = agent_or_skip!("mcp-filesystem");
    let sb = Sandbox::new();
    sb.file("a.txt", "hello\n");
    sb.file(".env", "KEEP=1\n");
    sb.file(
        "host.yaml",
        "version: 1\npermissions:\n  allow: [ \"mcp__secure-filesystem-server__write_file\" ]\n  deny: [ \"Write(**/.env*)\", \"mcp__secure-filesystem-server__move_file\" ]\n",
    );
    let mut cmd = Command::new(GATE);
    fs.env(&sb, None).apply(&mut cmd);
    cmd.current_dir(&sb.work).args(["run", "--protocol", "mcp", "--strict", "--"]).arg(&fs.bin).arg(&sb.work);
    let mut rpc = agents::stdio::Rpc::new(agents::JsonlProcess::spawn(cmd, T), Some("2.0"));
    let none = &mut agents::stdio::no_requests;
    let init = rpc.call_ok(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "gate-tests", "version": "0"}}),
        none,
    );
    assert_eq!(init["serverInfo"]["name"], "secure-filesystem-server", "the server's answer passes unchanged");
    rpc.notify("notifications/initialized", json!({}));
    let list = rpc.call_ok("tools/list", json!({}), none);
    let names: Vec<&str> = list["tools"].as_array().unwrap().iter().filter_map(|t| t["name"].as_str()).collect();
    assert!(names.contains(&"read_text_file") && names.contains(&"write_file"), "{names:?}");
    assert!(!names.contains(&"move_file"), "a tool denied outright is left out of tools/list: {names:?}");

    // A write into .env: denied by the path rule, never forwarded.
    let env = sb.work.join(".env");
    let w =
        rpc.call_ok("tools/call", json!({"name": "write_file", "arguments": {"path": env, "content": "X=1\n"}}), none);
    assert_eq!(w["isError"], true, "{w}");
    assert!(w["content"][0]["text"].as_str().unwrap().contains("Write(**/.env*)"), "{w}");
    assert_eq!(std::fs::read_to_string(&env).unwrap(), "KEEP=1\n");

    // A read inside the workspace: allowed (read-only tool), the server's answer comes back.
    let a = sb.work.join("a.txt");
    let r = rpc.call_ok("tools/call", json!({"name": "read_text_file", "arguments": {"path": a}}), none);
    assert_eq!(r["content"][0]["text"], "hello\n", "{r}");

    // An allowed write lands.
    let b = sb.work.join("b.txt");
    let w =
        rpc.call_ok("tools/call", json!({"name": "write_file", "arguments": {"path": b, "content": "new\n"}}), none);
    assert_ne!(w["isError"], true, "{w}");
    assert_eq!(std::fs::read_to_string(&b).unwrap(), "new\n");

    // A call nobody allowed asks: --strict denies it, with the reason.
    let m =
        rpc.call_ok("tools/call", json!({"name": "create_directory", "arguments": {"path": sb.work.join("d")}}), none);
    assert_eq!(m["isError"], true, "{m}");
    assert!(!sb.work.join("d").exists());

    // A malformed tools/call from the host is answered with an error result, never forwarded.
    rpc.p.send_raw(r#"{"jsonrpc":"2.0","id":99,"method":"tools/call","params":{"name":"write_file" oops"#);
    let bad = rpc.p.recv().expect("an answer to the broken call");
    assert_eq!(bad["id"], 99, "{bad}");
    assert_eq!(bad["result"]["isError"], true, "{bad}");
    rpc.p.finish(Duration::from_secs(5));
}

/// gate in front of the filesystem server on `sb.work`, with `flags`; stdio piped.
fn gate_cmd(fs: &agents::AgentBin, sb: &Sandbox, flags: &[&str]) -> Command {
    let mut cmd = Command::new(GATE);
    fs.env(sb, None).apply(&mut cmd);
    cmd.current_dir(&sb.work).args(["run", "--protocol", "mcp"]).args(flags).arg("--").arg(&fs.bin).arg(&sb.work);
    cmd
}

fn initialize(rpc: &mut agents::stdio::Rpc, capabilities: serde_json::Value) {
    let none = &mut agents::stdio::no_requests;
    rpc.call_ok(
        "initialize",
        json!({"protocolVersion": "2025-06-18", "capabilities": capabilities, "clientInfo": {"name": "gate-tests", "version": "0"}}),
        none,
    );
}

/// Waits up to 5 s for gate's stderr (in the transcript) to contain `text`.
fn stderr_says(p: &agents::JsonlProcess, text: &str) -> bool {
    let end = std::time::Instant::now() + Duration::from_secs(5);
    while std::time::Instant::now() < end {
        if p.transcript().lines().any(|l| l.contains(" !! ") && l.contains(text)) {
            return true;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    false
}

/// The directories the server may reach, once it has applied the host's roots (it says so on
/// its stderr, which is gate's).
fn allowed_dirs(rpc: &mut agents::stdio::Rpc) -> String {
    assert!(stderr_says(&rpc.p, "Updated allowed directories from MCP roots"), "{}", rpc.p.transcript());
    let none = &mut agents::stdio::no_requests;
    let r = rpc.call_ok("tools/call", json!({"name": "list_allowed_directories", "arguments": {}}), none);
    r["content"][0]["text"].as_str().unwrap_or("").to_string()
}

/// The host's roots widen the server's reach: the roots outside the workspace are decided as
/// reads. --strict denies them (the server keeps the workspace only); --approve-all lets them
/// through; without either and no terminal, the host's own dialog (elicitation) is asked.
#[test]
fn widening_roots_are_asked() {
    let fs = agent_or_skip!("mcp-filesystem");
    for (flags, answer, widened) in [
        (&["--strict"][..], None, false),
        (&["--approve-all"][..], None, true),
        (&["--non-interactive"][..], Some("once"), true),
        (&["--non-interactive"][..], Some("reject"), false),
    ] {
        let sb = Sandbox::new();
        sb.file("host.yaml", "version: 1\n");
        let outside = sb.home.join("elsewhere");
        std::fs::create_dir_all(&outside).unwrap();
        let outside = outside.canonicalize().unwrap();
        let work = sb.work.canonicalize().unwrap();
        let mut rpc = agents::stdio::Rpc::new(agents::JsonlProcess::spawn(gate_cmd(&fs, &sb, flags), T), Some("2.0"));
        let caps = if answer.is_some() { json!({"roots": {}, "elicitation": {}}) } else { json!({"roots": {}}) };
        initialize(&mut rpc, caps);
        rpc.notify("notifications/initialized", json!({}));
        let roots = json!({"roots": [
            {"uri": format!("file://{}", work.display()), "name": "work"},
            {"uri": format!("file://{}", outside.display()), "name": "elsewhere"}
        ]});
        let mut asked = Vec::new();
        let mut on_request = |m: &serde_json::Value| -> Option<serde_json::Value> {
            match m["method"].as_str() {
                Some("roots/list") => Some(roots.clone()),
                Some("elicitation/create") => {
                    asked.push(m["params"]["message"].as_str().unwrap_or("").to_string());
                    Some(json!({"action": "accept", "content": {"decision": answer.unwrap()}}))
                }
                _ => None,
            }
        };
        // The server asks for the roots once initialized, while the host lists the tools.
        rpc.call_ok("tools/list", json!({}), &mut on_request);
        if answer.is_some() && rpc.requests("elicitation/create").is_empty() {
            // gate may ask the host's dialog after the tools/list answer has gone by: serve it.
            let m = rpc.pump(&mut on_request, &mut |m| m["method"] == "elicitation/create");
            let result = on_request(&m).unwrap_or_default();
            rpc.p.send(&json!({"jsonrpc": "2.0", "id": m["id"], "result": result}));
        }
        let o = outside.display().to_string();
        let dirs = allowed_dirs(&mut rpc);
        assert_eq!(dirs.contains(&o), widened, "{flags:?} {answer:?}: {dirs}\n{}", rpc.p.transcript());
        assert!(dirs.contains(&work.display().to_string()), "{dirs}");
        if answer.is_some() {
            assert_eq!(asked.len(), 1, "the host's dialog is asked once: {asked:?}");
            assert!(asked[0].contains(&o), "{}", asked[0]);
        }
        if !widened {
            assert!(stderr_says(&rpc.p, "left out of the host's roots/list answer"), "{}", rpc.p.transcript());
        }
        rpc.p.finish(Duration::from_secs(5));
    }
}

/// A process read as raw lines (bytes, as written).
struct Raw {
    child: std::process::Child,
    stdin: Option<std::process::ChildStdin>,
    rx: std::sync::mpsc::Receiver<Vec<u8>>,
}

impl Raw {
    fn spawn(mut cmd: Command) -> Raw {
        use std::io::BufRead;
        use std::process::Stdio;
        let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
        let out = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut r = std::io::BufReader::new(out);
            loop {
                let mut l = Vec::new();
                if !matches!(r.read_until(b'\n', &mut l), Ok(n) if n > 0) || tx.send(l).is_err() {
                    return;
                }
            }
        });
        Raw { stdin: child.stdin.take(), child, rx }
    }

    fn send(&mut self, line: &str) {
        use std::io::Write;
        let s = self.stdin.as_mut().unwrap();
        s.write_all(line.as_bytes()).and_then(|_| s.write_all(b"\n")).and_then(|_| s.flush()).unwrap();
    }

    fn recv(&mut self) -> Vec<u8> {
        self.rx.recv_timeout(T).expect("a line within the deadline")
    }

    fn finish(mut self) {
        drop(self.stdin.take());
        let _ = self.child.wait();
    }
}

/// Everything gate does not decide reaches the other side byte for byte, both ways: the same
/// script against the server alone and through gate gives the same bytes on the host's side and
/// on the server's (captured with tee), except the one call gate denies, which the server never
/// sees.
#[test]
fn everything_else_passes_byte_for_byte() {
    let fs = agent_or_skip!("mcp-filesystem");
    let sb = Sandbox::new();
    sb.file("a.txt", "hello\n");
    sb.file(".env", "KEEP=1\n");
    sb.file("host.yaml", "version: 1\npermissions:\n  deny: [ \"Write(**/.env*)\" ]\n");
    let w = sb.work.display().to_string();
    let denied = format!(
        r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"name":"write_file","arguments":{{"path":"{w}/.env","content":"X=1\n"}}}}}}"#
    );
    // (line, answered?) in order; odd spacing and key order on purpose.
    let script: Vec<(String, bool)> = vec![
        (r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bytes","version":"0"}}}"#.into(), true),
        (r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.into(), false),
        (r#"{"method":"tools/list","jsonrpc":"2.0","id":2,"params":{}}"#.into(), true),
        (r#"{"jsonrpc": "2.0",   "id": "three", "method": "ping"}"#.into(), true),
        (r#"{"jsonrpc":"2.0","id":4,"method":"resources/list","params":{}}"#.into(), true),
        (format!(r#"{{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{{"name":"read_text_file","arguments":{{"path":"{w}/a.txt"}}}}}}"#), true),
        (format!(r#"{{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{{"name":"list_directory","arguments":{{"path":"{w}"}}}}}}"#), true),
        (denied.clone(), true),
        (r#"{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"nope","arguments":{}}}"#.into(), true),
        (r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99,"reason":"none open"}}"#.into(), false),
        (r#"{"jsonrpc":"2.0","id":9,"method":"ping","params":{"_meta":{"progressToken":"p\u00e9"}}}"#.into(), true),
    ];
    let run = |through_gate: bool, log: &std::path::Path| -> Vec<Vec<u8>> {
        let mut cmd = if through_gate {
            let mut c = Command::new(GATE);
            c.args(["run", "--protocol", "mcp", "--approve-all", "--"]);
            c
        } else {
            Command::new("sh")
        };
        if through_gate {
            cmd.arg("sh");
        }
        cmd.args(["-c", "tee \"$0\" | exec \"$@\""]).arg(log).arg(&fs.bin).arg(&sb.work);
        fs.env(&sb, None).apply(&mut cmd);
        cmd.current_dir(&sb.work);
        let mut p = Raw::spawn(cmd);
        let mut out = Vec::new();
        for (line, answered) in &script {
            if !through_gate && *line == denied {
                continue;
            }
            p.send(line);
            if *answered {
                out.push(p.recv());
            }
        }
        p.finish();
        out
    };
    let (direct_log, gated_log) = (sb.tmp.join("direct.in"), sb.tmp.join("gated.in"));
    let direct = run(false, &direct_log);
    let mut gated = run(true, &gated_log);
    // gate's own answer to the denied call: a tool result with isError, never forwarded.
    let mine = gated.remove(6);
    let v: serde_json::Value = serde_json::from_slice(&mine).unwrap();
    assert_eq!((v["id"].clone(), v["result"]["isError"].clone()), (json!(7), json!(true)), "{v}");
    assert!(v["result"].get("structuredContent").is_none(), "{v}");
    assert_eq!(std::fs::read_to_string(sb.work.join(".env")).unwrap(), "KEEP=1\n");
    let text = |v: &[Vec<u8>]| v.iter().map(|l| String::from_utf8_lossy(l).into_owned()).collect::<String>();
    assert_eq!(text(&gated), text(&direct), "the host's side, byte for byte");
    assert_eq!(gated, direct);
    let (d, g) = (std::fs::read(&direct_log).unwrap(), std::fs::read(&gated_log).unwrap());
    assert_eq!(String::from_utf8_lossy(&g), String::from_utf8_lossy(&d), "the server's side, byte for byte");
    assert!(!String::from_utf8_lossy(&g).contains("\"id\":7"), "the denied call never reached the server");
}

/// Bad input from the host: a line that is not JSON (passed on, said on stderr), a tools/call
/// without a tool name (an error result), a call hidden behind leading blanks (dropped: the
/// server would read it, gate's decoder would not). Nothing is approved, and gate goes on.
#[test]
fn malformed_json_rpc_is_refused_and_gate_goes_on() {
    let fs = agent_or_skip!("mcp-filesystem");
    let sb = Sandbox::new();
    sb.file("a.txt", "hello\n");
    sb.file("host.yaml", "version: 1\n");
    let mut rpc =
        agents::stdio::Rpc::new(agents::JsonlProcess::spawn(gate_cmd(&fs, &sb, &["--strict"]), T), Some("2.0"));
    let none = &mut agents::stdio::no_requests;
    initialize(&mut rpc, json!({}));
    rpc.notify("notifications/initialized", json!({}));
    rpc.call_ok("tools/list", json!({}), none);
    rpc.p.send_raw("{this is not json");
    assert!(stderr_says(&rpc.p, "not valid JSON"), "{}", rpc.p.transcript());
    rpc.p.send_raw(r#"{"jsonrpc":"2.0","id":50,"method":"tools/call","params":{"arguments":{}}}"#);
    let bad = rpc.p.recv_until(|m| m["id"] == 50);
    assert_eq!(bad["result"]["isError"], true, "{bad}");
    let sneaky = sb.work.join("sneaky.txt");
    rpc.p.send_raw(&format!(
        r#"   {{"jsonrpc":"2.0","id":51,"method":"tools/call","params":{{"name":"write_file","arguments":{{"path":"{}","content":"x"}}}}}}"#,
        sneaky.display()
    ));
    // gate goes on: the next call is decided and answered.
    let r = rpc.call_ok(
        "tools/call",
        json!({"name": "read_text_file", "arguments": {"path": sb.work.join("a.txt")}}),
        none,
    );
    assert_eq!(r["content"][0]["text"], "hello\n", "{r}");
    rpc.p.finish(Duration::from_secs(5));
    assert!(!sneaky.exists(), "a call behind leading blanks must not reach the server undecided");
    assert!(rpc.seen.iter().all(|m| m["id"] != 51), "{}", rpc.p.transcript());
}

/// The server dies while a call it was given is in flight: the host gets an error result for
/// that call, and gate exits with the server's status. (A stand-in server: the real one
/// answers too fast to be killed mid-call reliably.)
#[test]
fn a_server_dying_mid_call_gives_an_error_result() {
    let sb = Sandbox::new();
    sb.file("host.yaml", "version: 1\n");
    let init = r#"{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"tools":{}},"serverInfo":{"name":"dying","version":"0"}}}"#;
    let script = format!("read l; printf '%s\\n' '{init}'; read l; read l; echo 'dying now' >&2; exit 7");
    let mut cmd = Command::new(GATE);
    cmd.current_dir(&sb.work).args(["run", "--protocol", "mcp", "--approve-all", "--", "sh", "-c", &script]);
    let mut rpc = agents::stdio::Rpc::new(agents::JsonlProcess::spawn(cmd, T), Some("2.0"));
    let none = &mut agents::stdio::no_requests;
    initialize(&mut rpc, json!({}));
    rpc.notify("notifications/initialized", json!({}));
    let r = rpc.call_ok("tools/call", json!({"name": "slow", "arguments": {}}), none);
    assert_eq!(r["isError"], true, "{r}");
    assert!(r["content"][0]["text"].as_str().unwrap().contains("exited before it answered"), "{r}");
    let status = rpc.p.finish(Duration::from_secs(10)).expect("gate exits");
    assert_eq!(status.code(), Some(7), "{}", rpc.p.transcript());
}

/// With no terminal and no --web, an ask goes to the host's dialog (MCP elicitation) when the
/// host declared it: "once" runs the call, "reject" with feedback gives the model the feedback.
/// A host without elicitation gets a denial that says how to get approval.
#[test]
fn asks_go_to_the_host_s_dialog_or_say_how_to_get_approval() {
    let fs = agent_or_skip!("mcp-filesystem");
    let sb = Sandbox::new();
    sb.file("host.yaml", "version: 1\n");
    let dir = |n: &str| json!({"name": "create_directory", "arguments": {"path": sb.work.join(n)}});
    let mut rpc = agents::stdio::Rpc::new(
        agents::JsonlProcess::spawn(gate_cmd(&fs, &sb, &["--non-interactive"]), T),
        Some("2.0"),
    );
    initialize(&mut rpc, json!({"elicitation": {}}));
    rpc.notify("notifications/initialized", json!({}));
    rpc.call_ok("tools/list", json!({}), &mut agents::stdio::no_requests);
    let mut answer = json!({"action": "accept", "content": {"decision": "once"}});
    let mut asked: Vec<serde_json::Value> = Vec::new();
    let mut host = |m: &serde_json::Value| -> Option<serde_json::Value> {
        asked.push(m.clone());
        (m["method"] == "elicitation/create").then(|| answer.clone())
    };
    let r = rpc.call_ok("tools/call", dir("yes"), &mut host);
    assert_ne!(r["isError"], true, "{r}");
    assert!(sb.work.join("yes").is_dir());
    answer = json!({"action": "accept", "content": {"decision": "reject", "feedback": "put it under tmp/"}});
    let mut host = |m: &serde_json::Value| -> Option<serde_json::Value> {
        asked.push(m.clone());
        (m["method"] == "elicitation/create").then(|| answer.clone())
    };
    let r = rpc.call_ok("tools/call", dir("no"), &mut host);
    assert_eq!(r["isError"], true, "{r}");
    assert!(r["content"][0]["text"].as_str().unwrap().contains("put it under tmp/"), "{r}");
    assert!(!sb.work.join("no").exists());
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert!(asked[0]["id"].as_str().is_some_and(|i| i.starts_with("gate-")), "gate's own id: {}", asked[0]);
    assert!(asked[0]["params"]["message"].as_str().unwrap().contains("create_directory"), "{}", asked[0]);
    rpc.p.finish(Duration::from_secs(5));

    // A host that declared no elicitation: denied, and told how to get approval.
    let mut rpc = agents::stdio::Rpc::new(
        agents::JsonlProcess::spawn(gate_cmd(&fs, &sb, &["--non-interactive"]), T),
        Some("2.0"),
    );
    initialize(&mut rpc, json!({}));
    rpc.notify("notifications/initialized", json!({}));
    rpc.call_ok("tools/list", json!({}), &mut agents::stdio::no_requests);
    let r = rpc.call_ok("tools/call", dir("never"), &mut agents::stdio::no_requests);
    let text = r["content"][0]["text"].as_str().unwrap().to_string();
    assert_eq!(r["isError"], true, "{r}");
    for how in ["--approve-all", "host.yaml", "terminal"] {
        assert!(text.contains(how), "{how} in {text}");
    }
    assert!(!sb.work.join("never").exists());
    rpc.p.finish(Duration::from_secs(5));
}

/// `notifications/cancelled` for a call waiting for approval withdraws the question (gate
/// cancels its own elicitation with the host), no answer is sent for the call, the call never
/// runs, and the audit log records it.
#[test]
fn a_cancelled_call_withdraws_its_prompt() {
    let fs = agent_or_skip!("mcp-filesystem");
    let sb = Sandbox::new();
    sb.file("host.yaml", "version: 1\n");
    let audit = sb.tmp.join("audit.jsonl");
    let flags = ["--non-interactive", "--audit", audit.to_str().unwrap()];
    let mut rpc = agents::stdio::Rpc::new(agents::JsonlProcess::spawn(gate_cmd(&fs, &sb, &flags), T), Some("2.0"));
    initialize(&mut rpc, json!({"elicitation": {}}));
    rpc.notify("notifications/initialized", json!({}));
    rpc.call_ok("tools/list", json!({}), &mut agents::stdio::no_requests);
    let target = sb.work.join("cancelled");
    rpc.p.send(&json!({"jsonrpc": "2.0", "id": 70, "method": "tools/call",
        "params": {"name": "create_directory", "arguments": {"path": target}}}));
    let ask = rpc.p.recv_until(|m| m["method"] == "elicitation/create");
    rpc.notify("notifications/cancelled", json!({"requestId": 70, "reason": "the user pressed stop"}));
    let withdrawn = rpc.p.recv_until(|m| m["method"] == "notifications/cancelled");
    assert_eq!(withdrawn["params"]["requestId"], ask["id"], "{withdrawn}");
    // Answering the withdrawn question late changes nothing.
    rpc.p.send(
        &json!({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"decision": "once"}}}),
    );
    let r = rpc.call_ok("ping", json!({}), &mut agents::stdio::no_requests);
    assert_eq!(r, json!({}));
    rpc.p.finish(Duration::from_secs(5));
    assert!(rpc.seen.iter().all(|m| m["id"] != 70), "no answer for a cancelled call: {}", rpc.p.transcript());
    assert!(!target.exists());
    let log = std::fs::read_to_string(&audit).unwrap();
    assert!(log.contains("cancelled"), "{log}");
}
