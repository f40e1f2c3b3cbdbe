//! gate in front of the real MCP filesystem server (`@modelcontextprotocol/server-filesystem`,
//! pinned by .ci/agents.sh): a scripted MCP host on gate's stdin. A missing server skips (fails
//! under GATE_REQUIRE_AGENTS).

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
    fs.env(&sb, None).apply(&mut cmd);
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
