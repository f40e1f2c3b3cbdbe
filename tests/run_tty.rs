//! `gate run` at a terminal, through a real pseudo-terminal (util-linux `script`): the one-key
//! prompt's answers (y, s, a, n with feedback, h), reject_hard and the `batch` source until
//! turn_end, session approvals, a duplicate id while a prompt is open, and stdin (the same
//! terminal) not stealing the keys typed at the prompt. (More in `prompt_tty.rs`.)
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod run_common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use run_common::*;

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

struct Pty {
    child: std::process::Child,
    input: std::process::ChildStdin,
    screen: Arc<Mutex<Vec<u8>>>,
}

impl Pty {
    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()).into_owned()
    }

    fn wait_count(&self, needle: &str, n: usize) {
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            if self.screen().matches(needle).count() >= n {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("never saw {needle:?} {n} times; screen:\n{}", self.screen());
    }

    fn type_line(&mut self, s: &str) {
        self.input.write_all(format!("{s}\n").as_bytes()).unwrap();
        self.input.flush().unwrap();
    }

    /// One key, alone (the prompt takes a single key per read).
    fn key(&mut self, k: &str) {
        self.input.write_all(k.as_bytes()).unwrap();
        self.input.flush().unwrap();
    }
}

fn start(ws: &Ws, ops: &[&str]) -> Option<Pty> {
    if Command::new("script").arg("--version").output().is_err() {
        skip_missing_tool("util-linux `script` is not installed");
        return None;
    }
    let mut line = format!(
        "{} run --kill-grace 1 -- {} log {}",
        quote(GATE),
        quote(AGENT),
        quote(ws.log_path().to_str().unwrap())
    );
    for op in ops {
        line.push(' ');
        line.push_str(&quote(op));
    }
    let mut child = Command::new("script")
        .args(["-qefc", &line, "/dev/null"])
        .current_dir(ws.path())
        .env("HOME", ws.home.path())
        .env_remove("XDG_CONFIG_HOME")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let input = child.stdin.take().unwrap();
    let out = child.stdout.take().unwrap();
    let screen = capture(out);
    Some(Pty { child, input, screen })
}

fn finish(mut pty: Pty, ws: &Ws) -> Outcome {
    let deadline = Instant::now() + TIMEOUT;
    let status = loop {
        if let Some(s) = pty.child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = pty.child.kill();
            panic!("gate did not exit; screen:\n{}\nlog: {:#?}", pty.screen(), ws.log());
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    Outcome {
        code: status.code(),
        signal: None,
        stdout: pty.screen().into_bytes(),
        stderr: pty.screen(),
        log: ws.log(),
    }
}

const PROMPT: &str = "[h]alt batch  [v]iew all  >";
const FEEDBACK: &str = "feedback for the agent (Enter for none):";

#[test]
fn every_answer_at_the_terminal() {
    let ws = Ws::new(POLICY);
    let batch_req = serde_json::json!({
        "type":"tool_request","id":"c1","tool":"bash","arguments":{"command":"git push origin main"},
        "batch_remaining":[{"tool":"bash","arguments":{"command":"npm publish"}}]
    })
    .to_string();
    let ops: Vec<String> = [
        vec!["send".to_string(), batch_req.clone(), "send".into(), batch_req],
        vec!["await".into(), "c1".into(), "sleep".into(), "200".into()],
        vec!["send".into(), bash("c2", "npm publish"), "await".into(), "c2".into()],
        vec!["send".into(), r#"{"type":"turn_end"}"#.into()],
        vec!["send".into(), bash("c3", "git push origin main"), "await".into(), "c3".into()],
        vec!["send".into(), bash("c4", "npm run build"), "await".into(), "c4".into()],
        vec!["send".into(), bash("c5", "npm run build"), "await".into(), "c5".into()],
        vec!["send".into(), bash("c6", "npm run lint"), "await".into(), "c6".into()],
        vec!["send".into(), bash("c7", "cargo build"), "await".into(), "c7".into()],
        vec!["exit".into(), "0".into()],
    ]
    .concat();
    let ops: Vec<&str> = ops.iter().map(String::as_str).collect();
    let Some(mut pty) = start(&ws, &ops) else { return };

    pty.wait_count(PROMPT, 1);
    assert!(pty.screen().contains("npm publish"), "the batch is shown: {}", pty.screen());
    pty.key("h");
    // c2 is rejected by the batch without a prompt; after turn_end c3 is asked.
    pty.wait_count(PROMPT, 2);
    pty.key("y");
    pty.wait_count(PROMPT, 3);
    assert!(pty.screen().contains("[s]/[a] would store: Bash(npm run build *)"), "{}", pty.screen());
    pty.key("s");
    // c5 is covered by the session approval: no prompt. c6 is asked.
    pty.wait_count(PROMPT, 4);
    pty.key("n");
    pty.wait_count(FEEDBACK, 1);
    pty.type_line("use pnpm");
    pty.wait_count(PROMPT, 5);
    pty.key("a");
    let o = finish(pty, &ws);
    o.assert_code(0);

    let c1: Vec<_> = o.decisions().into_iter().filter(|d| d["id"] == "c1").collect();
    assert_eq!(c1.len(), 2, "{c1:#?}");
    assert_denied(&c1[0], "user", "reject_hard");
    assert!(c1[0]["message"]
        .as_str()
        .unwrap()
        .starts_with("User rejected tool 'bash' and stopped the batch.\n\n[System reminder:"));
    // The duplicate, sent while the first c1 was open.
    assert_denied(&c1[1], "error", "reject_soft");
    assert!(c1[1]["reason"].as_str().unwrap().contains("already open"), "{:#}", c1[1]);

    assert_denied(&o.decision("c2"), "batch", "reject_hard");
    let c3 = o.decision("c3");
    assert_approved(&c3, "user");
    assert_eq!(c3["scope"], "once");
    let c4 = o.decision("c4");
    assert_approved(&c4, "user");
    assert_eq!(c4["scope"], "session");
    assert_approved(&o.decision("c5"), "session");
    let c6 = o.decision("c6");
    assert_denied(&c6, "user", "reject_soft");
    assert_eq!(c6["feedback"], "use pnpm");
    assert!(c6["message"]
        .as_str()
        .unwrap()
        .starts_with("User rejected tool 'bash'. Feedback: use pnpm\n\n[System reminder:"));
    let c7 = o.decision("c7");
    assert_approved(&c7, "user");
    assert_eq!(c7["scope"], "always");
    let stored = std::fs::read_to_string(ws.path().join(".gate/approvals.yaml")).unwrap();
    assert!(stored.contains("Bash(cargo build *)"), "{stored}");

    // The keys typed at the prompts went to the prompt, not to the agent.
    for l in o.received() {
        assert!(l.starts_with('{'), "the agent received typed text: {l:?}");
    }
}

#[test]
fn ctrl_c_at_the_prompt_rejects_and_stops_the_batch() {
    let ws = Ws::new(POLICY);
    let ops = ["send".to_string(), bash("i1", "git push origin main"), "await".into(), "i1".into()];
    let ops: Vec<&str> = ops.iter().map(String::as_str).collect();
    let Some(mut pty) = start(&ws, &ops) else { return };
    pty.wait_count(PROMPT, 1);
    // ^C at the prompt: a key in raw mode (SIGINT to gate otherwise), never the agent's.
    pty.input.write_all(&[3]).unwrap();
    pty.input.flush().unwrap();
    let o = finish(pty, &ws);
    o.assert_code(0);
    assert_denied(&o.decision("i1"), "user", "reject_hard");
}
