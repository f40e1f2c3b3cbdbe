//! Whole-process benchmarks of `gate run` (issue 6), each figure a ratio against a floor
//! measured in the same run on the same machine:
//!
//! - round trips: a compiled agent sends N tool requests one at a time (mixed shell, write and
//!   read calls, decided by rules) through `gate run`, and through a trivial responder that
//!   answers each line without parsing it (the floor);
//! - passthrough: hundreds of MB of ordinary agent output through gate, and through `cat`;
//! - start-up: `gate run -- true` against the responder running `true`;
//! - peak memory of `gate run` with a 10,000-rule policy.
//!
//! Run: `cargo run --release --features dev-tools --bin gate-bench` (options: `--requests N`,
//! `--mb N`, `--starts N`). `GATE_BENCH_CALL` (and optionally `GATE_BENCH_CALL2`, alternated with
//! it so that the doom-loop check does not fire) replaces the agent's four calls with one's own,
//! e.g. `"tool":"noop","arguments":{}`, to measure what one kind of call costs. The modes `agent`, `spew` and `responder` are its own helpers.
//! Behind the `dev-tools` feature so that `cargo install` does not install it.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.first().map(String::as_str) {
        Some("agent") => agent(&args[1..]),
        Some("spew") => spew(&args[1..]),
        Some("responder") => responder(&args[1..]),
        _ => bench(&args),
    };
    std::process::exit(code);
}

fn opt(args: &[String], name: &str, default: u64) -> u64 {
    args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// The agent: N requests, one at a time, each waiting for its answer. Writes the elapsed
/// nanoseconds of the request loop to $GATE_BENCH_OUT.
fn agent(args: &[String]) -> i32 {
    let n = opt(args, "--requests", 10_000);
    let stdin = std::io::stdin();
    let mut input = BufReader::new(stdin.lock());
    let mut out = std::io::stdout().lock();
    let calls = [
        r#""tool":"bash","arguments":{"command":"git status && cargo test -p core"}"#,
        r#""tool":"write","arguments":{"file_path":"docs/guide/intro.md","content":"hello\n"}"#,
        r#""tool":"read_file","arguments":{"file_path":"src/lib.rs"}"#,
        r#""tool":"bash","arguments":{"command":"ls -la src | grep rs"}"#,
    ];
    let custom = std::env::var("GATE_BENCH_CALL").ok();
    let custom2 = std::env::var("GATE_BENCH_CALL2").ok();
    let custom_calls =
        custom.as_deref().map(|c| [c, custom2.as_deref().unwrap_or(c), c, custom2.as_deref().unwrap_or(c)]);
    let calls = custom_calls.as_ref().unwrap_or(&calls);
    let start = Instant::now();
    let mut line = String::new();
    let mut approved = 0u64;
    for i in 0..n {
        let call = calls[(i % calls.len() as u64) as usize];
        if writeln!(out, r#"{{"type":"tool_request","id":"c{i}",{call}}}"#).and_then(|_| out.flush()).is_err() {
            return 3;
        }
        // Read until a decision (gate also sends `input_closed` when its stdin ends).
        loop {
            line.clear();
            match input.read_line(&mut line) {
                Ok(0) | Err(_) => return 4,
                Ok(_) if line.contains("decision") => break,
                Ok(_) => {}
            }
        }
        if line.contains("\"approved\":true") {
            approved += 1;
        }
    }
    let elapsed = start.elapsed().as_nanos();
    if let Ok(path) = std::env::var("GATE_BENCH_OUT") {
        let _ = std::fs::write(path, format!("{elapsed} {approved}"));
    }
    0
}

/// Write `--mb` megabytes of ordinary output lines, as fast as possible.
fn spew(args: &[String]) -> i32 {
    let mb = opt(args, "--mb", 200);
    let mut out = BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let line =
        b"compiling crate foo v0.1.0 (/work/project/crates/foo) ... warning: unused variable `x` at src/lib.rs:42:9\n";
    let total = mb * 1024 * 1024;
    let mut written = 0u64;
    while written < total {
        if out.write_all(line).is_err() {
            return 3;
        }
        written += line.len() as u64;
    }
    if out.flush().is_err() {
        return 3;
    }
    0
}

/// The floor: start PROGRAM, answer every line it writes with a fixed approval, no parsing.
fn responder(args: &[String]) -> i32 {
    let Some(pos) = args.iter().position(|a| a == "--") else { return 2 };
    let prog = &args[pos + 1..];
    let Some((cmd, rest)) = prog.split_first() else { return 2 };
    let mut child = match Command::new(cmd).args(rest).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn() {
        Ok(c) => c,
        Err(_) => return 127,
    };
    let mut to = child.stdin.take().expect("piped");
    let from = BufReader::new(child.stdout.take().expect("piped"));
    for line in from.split(b'\n') {
        if line.is_err() {
            break;
        }
        if to.write_all(b"{\"type\":\"decision\",\"id\":\"x\",\"approved\":true}\n").is_err() {
            break;
        }
    }
    drop(to);
    child.wait().ok().and_then(|s| s.code()).unwrap_or(1)
}

struct Setup {
    dir: PathBuf,
    gate: PathBuf,
    me: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let me = std::env::current_exe().expect("own path");
        let gate = me.with_file_name("gate");
        assert!(gate.exists(), "build gate first: cargo build --release (looked for {})", gate.display());
        let dir = std::env::temp_dir().join(format!("gate-bench-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        std::fs::write(
            dir.join("host.yaml"),
            "version: 1\npermissions:\n  allow:\n    - Bash(git status)\n    - Bash(cargo test *)\n    - { tool: write, when: { file_path: \"docs/**/*.md\" } }\n  deny:\n    - Bash(rm *)\n",
        )
        .expect("policy");
        Setup { dir, gate, me }
    }

    fn gate_run(&self, policy: &Path, agent: &[&str]) -> Command {
        let mut c = Command::new(&self.gate);
        c.current_dir(&self.dir).arg("run").arg("--strict").arg("-c").arg(policy).arg("--").arg(&self.me).args(agent);
        c.stdin(Stdio::null());
        c
    }

    fn responder(&self, agent: &[&str]) -> Command {
        let mut c = Command::new(&self.me);
        c.current_dir(&self.dir).arg("responder").arg("--").arg(&self.me).args(agent);
        c.stdin(Stdio::null());
        c
    }
}

fn run_agent(mut cmd: Command, out: &Path) -> (Duration, u64) {
    let _ = std::fs::remove_file(out);
    let status = cmd.env("GATE_BENCH_OUT", out).stdout(Stdio::null()).status().expect("run");
    assert!(status.success(), "agent run failed: {status}");
    let text = std::fs::read_to_string(out).expect("agent result");
    let mut it = text.split_whitespace();
    let ns: u64 = it.next().and_then(|v| v.parse().ok()).expect("ns");
    let approved: u64 = it.next().and_then(|v| v.parse().ok()).unwrap_or(0);
    (Duration::from_nanos(ns), approved)
}

fn timed(mut cmd: Command) -> Duration {
    let start = Instant::now();
    let status = cmd.status().expect("run");
    let t = start.elapsed();
    assert!(status.success(), "run failed: {status}");
    t
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

/// Peak resident set of a `gate run` with the given policy, in KiB (from the kernel's
/// accounting of this process's waited-for children).
fn peak_rss_kib(s: &Setup, policy: &Path, requests: u64) -> u64 {
    // A fresh process so that only this gate is among its children.
    let probe = Command::new(&s.me)
        .args(["__rss", &s.gate.display().to_string(), &policy.display().to_string(), &requests.to_string()])
        .current_dir(&s.dir)
        .output()
        .expect("rss probe");
    String::from_utf8_lossy(&probe.stdout).trim().parse().unwrap_or(0)
}

fn bench(args: &[String]) -> i32 {
    if args.first().map(String::as_str) == Some("__rss") {
        return rss_probe(&args[1..]);
    }
    let requests = opt(args, "--requests", 20_000);
    let mb = opt(args, "--mb", 300);
    let starts = opt(args, "--starts", 200);
    let s = Setup::new();
    let out = s.dir.join("agent.out");
    let policy = s.dir.join("host.yaml");
    let cpus = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    println!("gate-bench: {} cores; each figure is a ratio against a floor measured in this run\n", cpus);

    // Round trips: best of 3 for each side, interleaved.
    let n = requests.to_string();
    let agent_args = ["agent", "--requests", n.as_str()];
    let mut floor = Vec::new();
    let mut gate = Vec::new();
    let mut approved = 0;
    for _ in 0..3 {
        floor.push(run_agent(s.responder(&agent_args), &out).0);
        let (t, a) = run_agent(s.gate_run(&policy, &agent_args), &out);
        gate.push(t);
        approved = a;
    }
    let (f, g) = (median(floor), median(gate));
    let per = |d: Duration| d.as_secs_f64() * 1e6 / requests as f64;
    println!("round trips   {requests} requests (shell, write, read; {approved} allowed by rules)");
    println!("  floor (responder, no parsing)  {:>8.2} µs/request", per(f));
    println!("  gate run                       {:>8.2} µs/request", per(g));
    println!("  ratio floor/gate               {:>8.2}   (goal >= 0.7)\n", f.as_secs_f64() / g.as_secs_f64());

    // Passthrough: spew | cat vs gate run -- spew, output drained by this process.
    let m = mb.to_string();
    let drain = |mut c: Command| -> Duration {
        c.stdout(Stdio::piped());
        let start = Instant::now();
        let mut child = c.spawn().expect("spawn");
        let mut o = child.stdout.take().expect("piped");
        let mut buf = vec![0u8; 1 << 16];
        let mut total = 0u64;
        while let Ok(k) = o.read(&mut buf) {
            if k == 0 {
                break;
            }
            total += k as u64;
        }
        let st = child.wait().expect("wait");
        assert!(st.success());
        assert!(total >= mb * 1024 * 1024, "lost output: {total}");
        start.elapsed()
    };
    let mut floor = Vec::new();
    let mut gate = Vec::new();
    for _ in 0..3 {
        let mut cat = Command::new("sh");
        cat.arg("-c").arg(format!("'{}' spew --mb {m} | cat", s.me.display())).stdin(Stdio::null());
        floor.push(drain(cat));
        gate.push(drain(s.gate_run(&policy, &["spew", "--mb", &m])));
    }
    let (f, g) = (median(floor), median(gate));
    let rate = |d: Duration| mb as f64 / d.as_secs_f64();
    println!("passthrough   {mb} MiB of agent output lines");
    println!("  floor (spew | cat)             {:>8.0} MiB/s", rate(f));
    println!("  gate run                       {:>8.0} MiB/s", rate(g));
    println!("  ratio gate/cat throughput      {:>8.2}   (goal >= 0.8)\n", f.as_secs_f64() / g.as_secs_f64());

    // Start-up: gate run -- true vs responder -- true.
    let mut floor = Vec::new();
    let mut gate = Vec::new();
    for _ in 0..starts {
        let mut r = Command::new(&s.me);
        r.args(["responder", "--", "true"]).stdin(Stdio::null()).stdout(Stdio::null());
        floor.push(timed(r));
        let mut c = Command::new(&s.gate);
        c.current_dir(&s.dir).args(["run", "--strict", "-c"]).arg(&policy).args(["--", "true"]);
        c.stdin(Stdio::null()).stdout(Stdio::null());
        gate.push(timed(c));
    }
    let (f, g) = (median(floor), median(gate));
    println!("start-up      {starts} runs of `true` (median)");
    println!("  floor (responder -- true)      {:>8.2} ms", f.as_secs_f64() * 1e3);
    println!("  gate run -- true               {:>8.2} ms", g.as_secs_f64() * 1e3);
    println!(
        "  gate adds                      {:>8.2} ms  (goal < 5 ms; ratio {:.2})\n",
        (g.as_secs_f64() - f.as_secs_f64()) * 1e3,
        g.as_secs_f64() / f.as_secs_f64()
    );

    // A hook as a whole process: `gate hook claude` (read the hook JSON, load and compile
    // host.yaml, decide, print) against `true` fed the same input.
    let hook_in = s.dir.join("hook.json");
    let input = serde_json::json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "git status && npm test"}, "cwd": s.dir.display().to_string()});
    std::fs::write(&hook_in, input.to_string()).expect("hook input");
    let mut floor = Vec::new();
    let mut gate = Vec::new();
    for _ in 0..starts {
        let stdin = || Stdio::from(std::fs::File::open(&hook_in).expect("hook input"));
        let mut t = Command::new("true");
        t.stdin(stdin()).stdout(Stdio::null());
        floor.push(timed(t));
        let mut c = Command::new(&s.gate);
        c.current_dir(&s.dir).args(["hook", "claude", "-c"]).arg(&policy).stdin(stdin()).stdout(Stdio::null());
        gate.push(timed(c));
    }
    let (f, g) = (median(floor), median(gate));
    println!("hook          {starts} runs of `gate hook claude` (median)");
    println!("  floor (true)                   {:>8.2} ms", f.as_secs_f64() * 1e3);
    println!("  gate hook claude               {:>8.2} ms", g.as_secs_f64() * 1e3);
    println!(
        "  gate adds                      {:>8.2} ms  (goal < 2 ms; ratio {:.2})\n",
        (g.as_secs_f64() - f.as_secs_f64()) * 1e3,
        g.as_secs_f64() / f.as_secs_f64()
    );

    // Peak memory with 10,000 rules.
    let big = s.dir.join("big.yaml");
    std::fs::write(&big, gate::policy::synthetic::policy_text(10_000)).expect("big policy");
    let small_rss = peak_rss_kib(&s, &policy, 1000);
    let big_rss = peak_rss_kib(&s, &big, 1000);
    println!("peak memory   gate run, 1,000 requests");
    println!("  5-rule policy                  {:>8.1} MiB", small_rss as f64 / 1024.0);
    println!("  10,000-rule policy             {:>8.1} MiB  (goal < 20 MiB)", big_rss as f64 / 1024.0);
    let _ = std::fs::remove_dir_all(&s.dir);
    0
}

fn rss_probe(args: &[String]) -> i32 {
    let (gate, policy, n) = (&args[0], &args[1], &args[2]);
    let me = std::env::current_exe().expect("own path");
    let out = std::env::temp_dir().join(format!("gate-bench-rss-{}", std::process::id()));
    let status = Command::new(gate)
        .args(["run", "--strict", "-c", policy, "--"])
        .arg(&me)
        .args(["agent", "--requests", n])
        .env("GATE_BENCH_OUT", &out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .expect("gate run");
    let _ = std::fs::remove_file(&out);
    if !status.success() {
        return 1;
    }
    // SAFETY: getrusage writes into the zeroed struct we pass; RUSAGE_CHILDREN is valid and
    // the pointer is to a live, properly aligned `rusage` for the duration of the call.
    let maxrss = unsafe {
        let mut ru: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru);
        ru.ru_maxrss
    };
    println!("{maxrss}");
    0
}
