//! The terminal prompt and the web page race (`gate run --web` at a terminal, through a real
//! pseudo-terminal, util-linux `script`): the first answer wins and the other is withdrawn at
//! once, both ways.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod run_common;
mod web_common;

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::json;

use run_common::*;
use web_common::*;

const PROMPT: &str = "[h]alt batch  [v]iew all  >";

fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

struct Pty {
    child: std::process::Child,
    input: std::process::ChildStdin,
    screen: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
}

impl Pty {
    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()).into_owned()
    }

    fn wait_for(&self, needle: &str) {
        let deadline = Instant::now() + TIMEOUT;
        while !self.screen().contains(needle) {
            assert!(Instant::now() < deadline, "never saw {needle:?}; screen:\n{}", self.screen());
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn finish(mut self) -> String {
        let deadline = Instant::now() + TIMEOUT;
        while self.child.try_wait().unwrap().is_none() {
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("gate did not exit; screen:\n{}", self.screen());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.screen()
    }
}

/// `gate run --web -- agent OPS` on a terminal; the page's URL from its file.
fn start(ws: &Ws, rt: &std::path::Path, ops: &[&str]) -> Option<(Pty, Web)> {
    if Command::new("script").arg("--version").output().is_err() {
        skip_missing_tool("util-linux `script` is not installed");
        return None;
    }
    let mut line =
        format!("{} run --web -- {} log {}", quote(GATE), quote(AGENT), quote(ws.log_path().to_str().unwrap()));
    for op in ops {
        line.push(' ');
        line.push_str(&quote(op));
    }
    let mut child = Command::new("script")
        .args(["-qefc", &line, "/dev/null"])
        .current_dir(ws.path())
        .env("HOME", ws.home.path())
        .env("XDG_RUNTIME_DIR", rt)
        .env_remove("XDG_CONFIG_HOME")
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let input = child.stdin.take().unwrap();
    let screen = capture(child.stdout.take().unwrap());
    let pty = Pty { child, input, screen };
    let dir = rt.join("gate");
    let deadline = Instant::now() + TIMEOUT;
    let text = loop {
        let found = std::fs::read_dir(&dir).ok().and_then(|mut d| d.next()).and_then(|e| e.ok());
        if let Some(t) = found.and_then(|e| std::fs::read_to_string(e.path()).ok()).filter(|t| t.lines().count() >= 2) {
            break t;
        }
        assert!(Instant::now() < deadline, "no URL file; screen:\n{}", pty.screen());
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut lines = text.lines();
    let page = lines.next().unwrap().to_string();
    let wsu = lines.next().unwrap().to_string();
    let port = |u: &str| u.rsplit_once(':').unwrap().1.split('/').next().unwrap().parse().unwrap();
    let web = Web {
        http_port: port(&page),
        ws_port: port(&wsu),
        token: page.split("token=").nth(1).unwrap().into(),
        page,
        ws: wsu,
        file: dir,
    };
    Some((pty, web))
}

#[test]
fn the_page_answers_first_and_the_terminal_prompt_is_withdrawn() {
    let ws = Ws::new(POLICY);
    let rt = tempfile::tempdir().unwrap();
    let ops = ["send", &bash("c1", "git push origin main"), "await", "c1"];
    let Some((pty, web)) = start(&ws, rt.path(), &ops) else { return };
    pty.wait_for(PROMPT);
    let mut c = ws_connect(&web);
    next_of(&mut c, "approval_needed");
    send(&mut c, json!({"id": "c1", "approved": false, "mode": "reject_soft", "feedback": "not now"}));
    pty.wait_for("answered in the web page first; this prompt is withdrawn");
    ws.wait_log("\"id\":\"c1\"");
    let screen = pty.finish();
    let log = ws.log().join("\n");
    assert!(log.contains("\"feedback\":\"not now\"") && log.contains("\"source\":\"user\""), "{log}\n{screen}");
}

#[test]
fn the_terminal_answers_first_and_the_page_is_told() {
    let ws = Ws::new(POLICY);
    let rt = tempfile::tempdir().unwrap();
    // The agent stays a little after its answer: the page's late answer still reaches gate.
    let ops = ["send", &bash("c1", "git push origin main"), "await", "c1", "sleep", "500"];
    let Some((mut pty, web)) = start(&ws, rt.path(), &ops) else { return };
    pty.wait_for(PROMPT);
    let mut c = ws_connect(&web);
    next_of(&mut c, "approval_needed");
    pty.input.write_all(b"y").unwrap();
    pty.input.flush().unwrap();
    let r = next_of(&mut c, "resolved");
    assert_eq!(
        (r["id"].as_str(), r["by"].as_str(), r["answer"].as_str()),
        (Some("c1"), Some("terminal"), Some("once"))
    );
    // Too late: the call is gone.
    send(&mut c, json!({"id": "c1", "approved": false}));
    assert!(next_of(&mut c, "error")["message"].as_str().unwrap().contains("c1"));
    pty.finish();
    let log = ws.log().join("\n");
    assert!(log.contains("\"approved\":true"), "{log}");
}
