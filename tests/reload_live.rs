//! Live policy reload through the real binary: host.yaml edited in place, broken, replaced by
//! an atomic rename (temporary file + rename, and the backup-rename style), and
//! `.gate/approvals.yaml` changed underneath by another gate process. Each test asserts the
//! decisions the child agent received and the `policy_changed` lines it got.
//!
//! No test waits for time to pass: the agent waits for `policy_changed` (which gate sends as
//! soon as it sees the change, with no request pending), or the test waits for gate's stderr.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod run_common;

use std::io::Read;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use run_common::*;
use serde_json::Value;

/// gate running, with its stderr readable while it runs.
struct Live {
    child: Child,
    stderr: Arc<Mutex<Vec<u8>>>,
    stdout: Option<JoinHandle<Vec<u8>>>,
    err_thread: Option<JoinHandle<()>>,
}

impl Live {
    fn start(mut cmd: Command) -> Live {
        cmd.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("start gate");
        let mut out = child.stdout.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let stderr = Arc::new(Mutex::new(Vec::new()));
        let s2 = stderr.clone();
        let err_thread = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                s2.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        let stdout = std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = out.read_to_end(&mut v);
            v
        });
        Live { child, stderr, stdout: Some(stdout), err_thread: Some(err_thread) }
    }

    fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.lock().unwrap()).into_owned()
    }

    /// Wait until gate's stderr contains `needle` `n` times.
    fn wait_stderr(&self, needle: &str, n: usize) {
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            if self.stderr().matches(needle).count() >= n {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("gate never printed {needle:?} {n} times; stderr:\n{}", self.stderr());
    }

    fn finish(mut self, ws: &Ws) -> Outcome {
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("gate did not exit; stderr:\n{}\nlog: {:#?}", self.stderr(), ws.log());
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let stdout = self.stdout.take().unwrap().join().unwrap();
        self.err_thread.take().unwrap().join().unwrap();
        Outcome { code: status.code(), signal: None, stdout, stderr: self.stderr(), log: ws.log() }
    }
}

/// Ops for the agent: send `line`, wait for its decision, note `label`. (Tests vary the
/// spacing of repeated commands: the same call three times in a row is a doom loop.)
fn ask(id: &str, line: String, label: &str) -> Vec<String> {
    vec!["send".into(), line, "await".into(), id.into(), "note".into(), label.into()]
}

/// Ops: wait for the next `policy_changed` (the n-th: the agent keeps count), note it.
fn await_change(n: usize) -> Vec<String> {
    vec!["await-type".into(), format!("policy_changed#{n}"), "note".into(), format!("changed {n}")]
}

fn ops(parts: Vec<Vec<String>>) -> Vec<String> {
    parts.concat()
}

/// The agent's log in order: decisions by id and `policy_changed` lines, as short labels.
fn timeline(o: &Outcome) -> Vec<String> {
    o.received_json()
        .iter()
        .filter_map(|v| match v["type"].as_str() {
            Some("decision") => Some(format!(
                "{}:{}:{}",
                v["id"].as_str().unwrap_or("?"),
                if v["approved"] == true { "allow" } else { "deny" },
                v["source"].as_str().unwrap_or("?")
            )),
            Some("policy_changed") => Some("policy_changed".into()),
            _ => None,
        })
        .collect()
}

fn changes(o: &Outcome) -> Vec<Value> {
    o.received_json().into_iter().filter(|v| v["type"] == "policy_changed").collect()
}

const DENY_NPM_TEST: &str = r#"version: 1
mode: default
permissions:
  deny:
    - Bash(npm test)
    - webfetch
    - send_email
"#;

fn start(ws: &Ws, gate_args: &[&str], ops: &[String]) -> Live {
    let ops: Vec<&str> = ops.iter().map(String::as_str).collect();
    let mut args = vec!["run"];
    args.extend_from_slice(gate_args);
    Live::start(ws.command(&args, &ops))
}

#[test]
fn a_valid_edit_applies_from_the_next_decision_and_is_announced() {
    let ws = Ws::new(POLICY);
    let ops = ops(vec![
        ask("v1", bash("v1", "npm test"), "first decided"),
        await_change(1),
        ask("v2", bash("v2", "npm test"), "second decided"),
        vec!["exit".into(), "0".into()],
    ]);
    let live = start(&ws, &["--strict"], &ops);
    ws.wait_log("first decided");
    // Edited in place (truncate and write), as `echo >` or a simple editor does.
    std::fs::write(ws.path().join("host.yaml"), DENY_NPM_TEST).unwrap();
    let o = live.finish(&ws);
    o.assert_code(0);
    assert_eq!(timeline(&o), ["v1:allow:rule", "policy_changed", "v2:deny:rule"], "{:#?}", o.log);
    let c = changes(&o);
    let disabled: Vec<&str> = c[0]["disabled_tools"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
    assert!(disabled.contains(&"webfetch") && disabled.contains(&"send_email"), "{:#}", c[0]);
    assert_eq!(o.decision("v2")["rule"], "Bash(npm test)");
    // One line on stderr for the change, naming the file.
    assert_eq!(o.stderr.matches("changed; the new policy is in force").count(), 1, "{}", o.stderr);
    assert!(o.stderr.contains("host.yaml changed; the new policy is in force"), "{}", o.stderr);
}

#[test]
fn an_invalid_edit_keeps_the_last_good_policy_and_reports_every_error() {
    let ws = Ws::new(POLICY);
    let go = ws.path().join("go");
    let ops = ops(vec![
        ask("i1", bash("i1", "npm test"), "first decided"),
        vec!["wait-file".into(), go.to_str().unwrap().into()],
        ask("i2", bash("i2", "npm  test"), "second decided"),
        await_change(1),
        ask("i3", bash("i3", "npm test"), "third decided"),
        vec!["exit".into(), "0".into()],
    ]);
    let live = start(&ws, &["--strict"], &ops);
    ws.wait_log("first decided");
    std::fs::write(
        ws.path().join("host.yaml"),
        "version: 1\nmode: sometimes\npermissions:\n  allow:\n    - Bash(\n  deny: 3\n",
    )
    .unwrap();
    live.wait_stderr("keeping the last good policy", 1);
    std::fs::write(&go, "").unwrap();
    ws.wait_log("second decided");
    // Fixed: this one applies.
    std::fs::write(ws.path().join("host.yaml"), DENY_NPM_TEST).unwrap();
    let o = live.finish(&ws);
    o.assert_code(0);
    assert_eq!(
        timeline(&o),
        ["i1:allow:rule", "i2:allow:rule", "policy_changed", "i3:deny:rule"],
        "the broken file was never used; log: {:#?}",
        o.log
    );
    // Every error, each with line:column.
    for e in ["host.yaml:2:7: unknown mode", "host.yaml:5:7:", "host.yaml:6:9: permissions.deny must be a list"] {
        assert!(o.stderr.contains(e), "missing {e:?} in:\n{}", o.stderr);
    }
    assert_eq!(o.stderr.matches("keeping the last good policy").count(), 1, "{}", o.stderr);
}

#[test]
fn atomic_saves_by_rename_are_seen() {
    let ws = Ws::new(POLICY);
    let host = ws.path().join("host.yaml");
    let ops = ops(vec![
        ask("r1", bash("r1", "npm test"), "first decided"),
        await_change(1),
        ask("r2", bash("r2", "npm  test"), "second decided"),
        await_change(2),
        ask("r3", bash("r3", "npm test"), "third decided"),
        vec!["exit".into(), "0".into()],
    ]);
    let live = start(&ws, &["--strict"], &ops);
    ws.wait_log("first decided");
    // Write a temporary file, then rename it over host.yaml (most editors, `sed -i`).
    let tmp = ws.path().join(".host.yaml.tmp123");
    std::fs::write(&tmp, DENY_NPM_TEST).unwrap();
    std::fs::rename(&tmp, &host).unwrap();
    ws.wait_log("second decided");
    // Move the old file away to a backup, then write a new one (vim without backupcopy).
    std::fs::rename(&host, ws.path().join("host.yaml~")).unwrap();
    std::fs::write(&host, POLICY).unwrap();
    let o = live.finish(&ws);
    o.assert_code(0);
    assert_eq!(
        timeline(&o),
        ["r1:allow:rule", "policy_changed", "r2:deny:rule", "policy_changed", "r3:allow:rule"],
        "{:#?}\nstderr: {}",
        o.log,
        o.stderr
    );
}

#[test]
fn approvals_changed_underneath_are_reloaded() {
    let ws = Ws::new(POLICY);
    let store = ws.path().join(".gate").join("approvals.yaml");
    let ops = ops(vec![
        ask("a1", bash("a1", "cargo build --release"), "first decided"),
        await_change(1),
        ask("a2", bash("a2", "cargo build  --release"), "second decided"),
        await_change(2),
        ask("a3", bash("a3", "cargo build --release"), "third decided"),
        vec!["exit".into(), "0".into()],
    ]);
    let live = start(&ws, &["--strict"], &ops);
    ws.wait_log("first decided");
    // `.gate/` does not exist yet: an "always" approval stored by another gate creates it.
    let added = gate::always::add(&store, &["Bash(cargo build *)".to_string()], "cargo build").unwrap();
    ws.wait_log("second decided");
    // Revoked from another terminal.
    let out = Command::new(GATE)
        .current_dir(ws.path())
        .env("HOME", ws.home.path())
        .args(["approvals", "revoke", &added[0].id])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let o = live.finish(&ws);
    o.assert_code(0);
    assert_eq!(
        timeline(&o),
        ["a1:deny:strict", "policy_changed", "a2:allow:always", "policy_changed", "a3:deny:strict"],
        "{:#?}\nstderr: {}",
        o.log,
        o.stderr
    );
    assert!(o.stderr.contains("approvals.yaml changed; the new policy is in force"), "{}", o.stderr);
}

#[test]
fn the_mode_flag_still_applies_after_a_reload() {
    let ws = Ws::new(POLICY);
    let ops = ops(vec![
        ask("m1", bash("m1", "cargo build"), "first decided"),
        await_change(1),
        ask("m2", bash("m2", "cargo build"), "second decided"),
        ask("m3", bash("m3", "npm test"), "third decided"),
        vec!["exit".into(), "0".into()],
    ]);
    let live = start(&ws, &["--strict", "--mode", "bypassPermissions"], &ops);
    ws.wait_log("first decided");
    std::fs::write(ws.path().join("host.yaml"), DENY_NPM_TEST.replace("mode: default", "mode: plan")).unwrap();
    let o = live.finish(&ws);
    o.assert_code(0);
    // host.yaml now says plan; --mode bypassPermissions still decides, and the new deny rule
    // applies (deny beats every mode).
    assert_eq!(
        timeline(&o),
        ["m1:allow:mode", "policy_changed", "m2:allow:mode", "m3:deny:rule"],
        "{:#?}\nstderr: {}",
        o.log,
        o.stderr
    );
}

#[test]
fn decisions_during_swaps_follow_the_last_announced_policy() {
    // The agent floods requests while host.yaml flips between two policies. Whatever the
    // timing, each decision must be the one of the policy announced last before it: the swap
    // happens between decisions, and `policy_changed` goes out before any decision under the
    // new policy.
    let allow = "version: 1\nsafe_tools: [read_file]\n";
    let deny = "version: 1\nsafe_tools: [read_file]\npermissions:\n  deny: [read_file]\n";
    let ws = Ws::new(allow);
    let done = ws.path().join("done");
    // gate loads the policy before it starts the agent: once the agent runs, it is loaded.
    let mut ops: Vec<String> = vec!["note".into(), "started".into()];
    for k in 0..8 {
        ops.extend(["flood".into(), "200".into(), "note".into(), format!("flood {k}")]);
    }
    ops.extend(["wait-file".into(), done.to_str().unwrap().into(), "exit".into(), "0".into()]);
    let live = start(&ws, &["--strict"], &ops);
    ws.wait_log("started");
    for k in 0..8 {
        std::fs::write(ws.path().join("host.yaml"), if k % 2 == 0 { deny } else { allow }).unwrap();
        ws.wait_log(&format!("flood {k}"));
    }
    std::fs::write(&done, "").unwrap();
    let o = live.finish(&ws);
    o.assert_code(0);
    let mut denying = false;
    let mut decisions = 0;
    for v in o.received_json() {
        match v["type"].as_str() {
            Some("policy_changed") => {
                denying = v["disabled_tools"].as_array().unwrap().iter().any(|t| t == "read_file");
            }
            Some("decision") => {
                decisions += 1;
                let expected = if denying { ("deny", "rule") } else { ("allow", "safe") };
                let got = (if v["approved"] == true { "allow" } else { "deny" }, v["source"].as_str().unwrap());
                assert_eq!(got, expected, "decision {decisions}: {v:#}");
            }
            _ => {}
        }
    }
    assert_eq!(decisions, 8 * 200);
}
