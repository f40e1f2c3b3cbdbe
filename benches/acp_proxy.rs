//! Measurements for ACP proxying (issue 10), printed as `BENCH` lines:
//! `cargo bench --bench acp_proxy` (a release build).
//!
//! - passthrough: 10,000 `session/update` lines from the agent to the editor, through gate's
//!   proxy and through `cat`, timed from the first line the editor reads to the last (the
//!   process's exit after it is not part of the stream);
//! - a decided permission request: the agent's round trip when gate answers it (the policy
//!   allows `git log -n N`; each request differs, so the doom loop never asks), against its round trip when the editor answers at once.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

/// The gate under test: this build's, or `GATE_BENCH_GATE` (to compare two builds in one run).
fn gate() -> String {
    std::env::var("GATE_BENCH_GATE").unwrap_or_else(|_| env!("CARGO_BIN_EXE_gate").to_string())
}

fn update_line(i: usize) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","method":"session/update","params":{{"sessionId":"s1","update":{{"sessionUpdate":"agent_message_chunk","content":{{"type":"text","text":"chunk {i} of the agent's answer, with some words in it to make it a realistic length"}}}}}}}}"#
    )
}

/// Seconds from the first line read to the last one (the stream's throughput; the process's
/// own exit, which the kernel's teardown of a large binary makes ~1 ms, is left out), and
/// the lines read.
fn drain(mut cmd: Command, expect: usize) -> (f64, usize) {
    let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::inherit()).spawn().unwrap();
    let stdin = child.stdin.take().unwrap();
    let mut r = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    let mut first = None;
    let mut last = None;
    let mut n = 0;
    while r.read_line(&mut line).unwrap() > 0 {
        let now = Instant::now();
        first.get_or_insert(now);
        n += 1;
        if n == expect {
            last = Some(now);
        }
        line.clear();
    }
    drop(stdin);
    child.wait().unwrap();
    let secs = match (first, last) {
        (Some(f), Some(l)) => l.duration_since(f).as_secs_f64(),
        _ => 0.0,
    };
    (secs, n)
}

fn main() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("updates.jsonl");
    let text: String = (0..10_000).map(|i| update_line(i) + "\n").collect();
    std::fs::write(&file, &text).unwrap();
    std::fs::write(dir.path().join("host.yaml"), "version: 1\n").unwrap();

    // Also `cat | cat`: the cost of any process in the middle, with nothing to decide.
    let mut best = (f64::MAX, f64::MAX, f64::MAX);
    // Best of ROUNDS (default 15): one stream takes about 2 ms, so a single run is noisy.
    let rounds = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(15);
    for _ in 0..rounds {
        let mut cat = Command::new("cat");
        cat.arg(&file);
        let (c, n) = drain(cat, 10_000);
        assert_eq!(n, 10_000);
        let mut g = Command::new(gate());
        g.current_dir(dir.path()).args(["run", "--protocol", "acp", "--", "cat"]).arg(&file);
        let (t, n) = drain(g, 10_000);
        assert_eq!(n, 10_000);
        let mut two = Command::new("sh");
        two.arg("-c").arg(format!("cat '{}' | cat", file.display()));
        let (m, n) = drain(two, 10_000);
        assert_eq!(n, 10_000);
        best = (best.0.min(c), best.1.min(t), best.2.min(m));
    }
    let mb = text.len() as f64 / 1e6;
    println!(
        "BENCH passthrough of 10,000 session/update lines ({mb:.1} MB): cat {:.2} ms, gate proxy {:.2} ms, gate/cat throughput {:.2}; cat | cat {:.2} ms, (cat | cat)/cat {:.2}",
        best.0 * 1e3,
        best.1 * 1e3,
        best.0 / best.1,
        best.2 * 1e3,
        best.0 / best.2
    );

    // Round trips: a python agent sends N permission requests one at a time.
    let n = 2000;
    let agent = format!(
        r#"import sys,json,time
n={n}
t=time.perf_counter()
for i in range(n):
    sys.stdout.write(json.dumps({{"jsonrpc":"2.0","id":i,"method":"session/request_permission","params":{{"sessionId":"s","toolCall":{{"toolCallId":"t%d"%i,"kind":"execute","rawInput":{{"command":"git log -n %d"%(i+1)}}}},"options":[{{"optionId":"y","kind":"allow_once"}},{{"optionId":"n","kind":"reject_once"}}]}}}})+"\n")
    sys.stdout.flush()
    l=sys.stdin.readline()
    assert '"y"' in l, l
sys.stderr.write("%f\n"%((time.perf_counter()-t)/n))
"#
    );
    let rtt = |through_gate: bool| -> f64 {
        let mut cmd = if through_gate {
            let mut c = Command::new(gate());
            c.current_dir(dir.path()).args(["run", "--protocol", "acp", "--", "python3", "-c", &agent]);
            c
        } else {
            let mut c = Command::new("python3");
            c.args(["-c", &agent]);
            c
        };
        let mut child = cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut stdin = child.stdin.take().unwrap();
        let out = child.stdout.take().unwrap();
        if !through_gate {
            // The editor answers each request at once.
            let mut r = BufReader::new(out);
            let mut line = String::new();
            while r.read_line(&mut line).unwrap() > 0 {
                let v: serde_json::Value = serde_json::from_str(&line).unwrap();
                let a = serde_json::json!({"jsonrpc":"2.0","id":v["id"],"result":{"outcome":{"outcome":"selected","optionId":"y"}}});
                writeln!(stdin, "{a}").unwrap();
                line.clear();
            }
        } else {
            let mut r = BufReader::new(out);
            let mut line = String::new();
            while r.read_line(&mut line).unwrap() > 0 {
                line.clear();
            }
        }
        drop(stdin);
        let o = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        err.lines().filter_map(|l| l.trim().parse::<f64>().ok()).next_back().unwrap_or_else(|| panic!("{err}"))
    };
    let direct = rtt(false);
    let gated = rtt(true);
    println!(
        "BENCH permission round trip: editor answers {:.1} us, gate decides {:.1} us, gate's extra {:.1} us",
        direct * 1e6,
        gated * 1e6,
        (gated - direct) * 1e6
    );
}
