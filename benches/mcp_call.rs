//! A decided MCP `tools/call` through gate against the same call straight to the server, in the
//! same run (issue 11): `cargo bench --bench mcp_call`. Needs the pinned filesystem server from
//! `.ci/agents.sh` (`$GATE_AGENTS_DIR`, else target/agents); prints `BENCH` lines, asserts
//! nothing about time.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Instant;

const GATE: &str = env!("CARGO_BIN_EXE_gate");

fn server() -> Option<PathBuf> {
    let dir = std::env::var_os("GATE_AGENTS_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/agents"));
    let bin = dir.join("mcp-filesystem/node_modules/.bin/mcp-server-filesystem");
    bin.exists().then_some(bin)
}

/// Mean seconds per `tools/call` over `n` sequential calls, after initialize and tools/list.
fn per_call(mut cmd: Command, files: [&str; 2], n: usize) -> f64 {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut ask = |input: &mut std::process::ChildStdin, out: &mut BufReader<_>, v: serde_json::Value| {
        writeln!(input, "{v}").unwrap();
        line.clear();
        out.read_line(&mut line).unwrap();
    };
    ask(
        &mut input,
        &mut out,
        serde_json::json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"0"}}}),
    );
    writeln!(input, r#"{{"jsonrpc":"2.0","method":"notifications/initialized"}}"#).unwrap();
    ask(&mut input, &mut out, serde_json::json!({"jsonrpc":"2.0","id":1,"method":"tools/list"}));
    let start = Instant::now();
    for i in 0..n {
        ask(
            &mut input,
            &mut out,
            serde_json::json!({"jsonrpc":"2.0","id":i + 2,"method":"tools/call","params":{"name":"get_file_info","arguments":{"path":files[i % 2]}}}),
        );
    }
    let t = start.elapsed().as_secs_f64() / n as f64;
    assert!(!line.contains("isError"), "the measured call was not answered by the server: {line}");
    drop(input);
    let _ = child.wait();
    t
}

fn main() {
    let Some(bin) = server() else {
        eprintln!("SKIPPED mcp_call: the filesystem server is not installed (run .ci/agents.sh)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("host.yaml"), "version: 1\n").unwrap();
    std::fs::write(dir.path().join("a.txt"), "hello\n").unwrap();
    std::fs::write(dir.path().join("b.txt"), "hello\n").unwrap();
    // Two files in turn: the same call over and over is the doom loop, which asks.
    let (a, b) = (dir.path().join("a.txt").display().to_string(), dir.path().join("b.txt").display().to_string());
    let files = [a.as_str(), b.as_str()];
    let n = 500;
    let mut best = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        let mut direct = Command::new(&bin);
        direct.arg(dir.path());
        let mut gated = Command::new(GATE);
        gated.current_dir(dir.path()).args(["run", "--protocol", "mcp", "--strict", "--"]).arg(&bin).arg(dir.path());
        best = (best.0.min(per_call(direct, files, n)), best.1.min(per_call(gated, files, n)));
    }
    println!(
        "BENCH tools/call (get_file_info, read-only, allowed), best of 3 x {n}: direct {:.1} us, through gate {:.1} us, gate adds {:.1} us",
        best.0 * 1e6,
        best.1 * 1e6,
        (best.1 - best.0) * 1e6
    );
}
