//! A real pseudo-terminal for the prompt tests: util-linux `script` runs a small shell line on
//! a fresh pty that records the terminal's settings (`stty -g`) before gate starts, samples
//! them while a prompt is open (on request) and records them again after gate exits; gate runs
//! on that terminal with the scripted agent as its child. The test types bytes, reads the
//! screen, and reads the decisions the agent received from its log.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::run_common::*;

/// The key help's tail: one per prompt shown (and per help shown again).
pub const KEYS: &str = "[h]alt batch  [v]iew all  >";
pub const FEEDBACK: &str = "feedback for the agent (Enter for none):";

pub fn quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// Is util-linux `script` here? If not, say why the test does nothing.
pub fn have_script() -> bool {
    if Command::new("script").arg("--version").output().is_ok() {
        true
    } else {
        skip_missing_tool("util-linux `script` is not installed, so there is no pseudo-terminal to test on");
        false
    }
}

pub struct Term {
    child: Child,
    input: ChildStdin,
    screen: Arc<Mutex<Vec<u8>>>,
    dir: PathBuf,
}

/// How to start gate on the terminal.
#[derive(Default)]
pub struct Setup<'a> {
    pub gate_args: &'a [&'a str],
    pub env: &'a [(&'a str, &'a str)],
    /// Colour: TERM=xterm-256color and no NO_COLOR (else NO_COLOR=1).
    pub colour: bool,
}

pub fn start(ws: &Ws, setup: Setup, ops: &[&str]) -> Option<Term> {
    if !have_script() {
        return None;
    }
    let mut gate = format!("{} run", quote(GATE));
    if !setup.gate_args.contains(&"--kill-grace") {
        gate.push_str(" --kill-grace 1");
    }
    for a in setup.gate_args {
        gate.push(' ');
        gate.push_str(&quote(a));
    }
    gate.push_str(&format!(" -- {} log {}", quote(AGENT), quote(ws.log_path().to_str().unwrap())));
    for op in ops {
        gate.push(' ');
        gate.push_str(&quote(op));
    }
    start_line(ws, setup, &gate)
}

/// `gate demo` on the terminal.
pub fn start_demo(ws: &Ws) -> Option<Term> {
    if !have_script() {
        return None;
    }
    start_line(ws, Setup::default(), &format!("{} demo", quote(GATE)))
}

/// Run the shell command `gate` (which starts gate) on a fresh terminal.
fn start_line(ws: &Ws, setup: Setup, gate: &str) -> Option<Term> {
    // gate.pid: the inner shell's pid, which exec makes gate's. The sampler writes the
    // settings while a prompt is open once the test creates tty.go (and once more at the end,
    // so it always ends; it gives up after 2 minutes so that no test leaves it behind, e.g.
    // when the terminal is hung up on purpose).
    let line = format!(
        "stty cols 100 rows 40; stty -g > tty.before; \
         (i=0; while [ ! -f tty.go ] && [ $i -lt 2400 ]; do sleep 0.05; i=$((i+1)); done; stty -g < /dev/tty > tty.during.tmp; mv tty.during.tmp tty.during) & \
         sh -c 'echo $$ > gate.pid; exec \"$0\" \"$@\"' {gate}; echo $? > gate.rc; stty -g > tty.after; touch tty.go; wait"
    );
    let mut cmd = Command::new("script");
    cmd.args(["-qefc", &line, "/dev/null"])
        .current_dir(ws.path())
        .env("HOME", ws.home.path())
        .env("SHELL", "/bin/sh")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("PAGER")
        .env_remove("LESS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    if setup.colour {
        cmd.env("TERM", "xterm-256color").env_remove("NO_COLOR").env_remove("CLICOLOR");
    } else {
        cmd.env("NO_COLOR", "1").env("TERM", "xterm");
    }
    for (k, v) in setup.env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().expect("start script");
    let input = child.stdin.take().unwrap();
    let out = child.stdout.take().unwrap();
    let screen = capture(out);
    Some(Term { child, input, screen, dir: ws.path().to_path_buf() })
}

impl Term {
    pub fn screen(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()).into_owned()
    }

    /// Wait until `needle` is on the screen at least `n` times.
    pub fn wait_count(&self, needle: &str, n: usize) {
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            if self.screen().matches(needle).count() >= n {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("never saw {needle:?} {n} times; screen:\n{}", self.screen());
    }

    pub fn wait_for(&self, needle: &str) {
        self.wait_count(needle, 1);
    }

    /// Type bytes at the terminal (a key is one write).
    pub fn type_bytes(&mut self, b: &[u8]) {
        self.input.write_all(b).unwrap();
        self.input.flush().unwrap();
    }

    pub fn key(&mut self, c: char) {
        self.type_bytes(c.to_string().as_bytes());
    }

    pub fn file(&self, name: &str) -> Option<String> {
        std::fs::read_to_string(self.dir.join(name)).ok()
    }

    fn wait_file(&self, name: &str) -> String {
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            if let Some(s) = self.file(name) {
                return s;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("{name} never appeared; screen:\n{}", self.screen());
    }

    /// gate's pid (it exec'd the shell that wrote it).
    pub fn gate_pid(&self) -> i32 {
        // The shell creates the file before it writes the number: wait for the whole line.
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let text = self.wait_file("gate.pid");
            match text.trim().parse() {
                Ok(pid) if text.ends_with('\n') => return pid,
                _ if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
                _ => panic!("gate.pid holds {text:?}"),
            }
        }
    }

    /// The terminal's settings now (while a prompt is open, when called then).
    pub fn sample_settings(&self) -> String {
        std::fs::write(self.dir.join("tty.go"), "").unwrap();
        self.wait_file("tty.during")
    }

    /// The terminal goes away: `script`, which holds the pty's master side, is killed.
    pub fn hang_up(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Create a file in the workspace (the agent's `wait-file`).
    pub fn touch(&self, name: &str) {
        std::fs::write(self.dir.join(name), "").unwrap();
    }

    /// Wait for the end; the agent's log, the screen, gate's exit code and the settings.
    pub fn finish(mut self, ws: &Ws) -> Finished {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if self.child.try_wait().unwrap().is_some() {
                break;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("gate did not exit; screen:\n{}\nlog: {:#?}", self.screen(), ws.log());
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let screen = self.screen();
        let code = self.file("gate.rc").and_then(|s| s.trim().parse().ok());
        let outcome =
            Outcome { code, signal: None, stdout: screen.clone().into_bytes(), stderr: screen.clone(), log: ws.log() };
        Finished {
            outcome,
            screen,
            before: self.file("tty.before").unwrap_or_default(),
            after: self.file("tty.after").unwrap_or_default(),
        }
    }
}

impl Drop for Term {
    /// A failed test must not leave gate and its agent behind: hanging up the terminal ends
    /// them (gate passes SIGHUP on).
    fn drop(&mut self) {
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub struct Finished {
    pub outcome: Outcome,
    pub screen: String,
    pub before: String,
    pub after: String,
}

impl Finished {
    /// The terminal's settings after gate are exactly those before it.
    pub fn assert_restored(&self) {
        assert!(!self.before.trim().is_empty(), "no settings were recorded before gate; screen:\n{}", self.screen);
        assert_eq!(self.before, self.after, "the terminal was not restored; screen:\n{}", self.screen);
    }
}
