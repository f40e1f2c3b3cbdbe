//! Shared by the `run_*` integration tests: a workspace with a host.yaml, the real `gate`
//! binary started in its own session (so it never has a controlling terminal unless a test
//! gives it one), the scripted `gate-test-agent` as its child, and the agent's log of every
//! line it received.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::Value;

pub const GATE: &str = env!("CARGO_BIN_EXE_gate");
pub const AGENT: &str = env!("CARGO_BIN_EXE_gate-test-agent");

/// Generous: only a hang should ever reach it.
pub const TIMEOUT: Duration = Duration::from_secs(60);

pub const POLICY: &str = r#"version: 1
mode: default
workspace: .
safe_tools: [read_file]
permissions:
  allow:
    - Bash(npm test)
  ask:
    - Bash(git push *)
  deny:
    - Bash(rm *)
    - webfetch
skills:
  deploy: { allow: [ "Bash(kubectl apply *)" ] }
doom_loop: { threshold: 3, action: ask }
"#;

/// A request line.
pub fn req(id: &str, tool: &str, args: Value) -> String {
    serde_json::json!({"type":"tool_request","id":id,"tool":tool,"arguments":args}).to_string()
}

/// A bash request line.
pub fn bash(id: &str, command: &str) -> String {
    req(id, "bash", serde_json::json!({ "command": command }))
}

pub struct Ws {
    pub dir: tempfile::TempDir,
    pub home: tempfile::TempDir,
}

impl Ws {
    pub fn new(policy: &str) -> Ws {
        let ws = Ws { dir: tempfile::tempdir().unwrap(), home: tempfile::tempdir().unwrap() };
        std::fs::write(ws.path().join("host.yaml"), policy).unwrap();
        ws
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    pub fn log_path(&self) -> PathBuf {
        self.path().join("agent.log")
    }

    /// `gate ARGS -- gate-test-agent log LOG OPS...`, in its own session, no terminal.
    pub fn command(&self, gate_args: &[&str], ops: &[&str]) -> Command {
        let _ = std::fs::remove_file(self.log_path());
        let mut c = Command::new(GATE);
        c.current_dir(self.path())
            .env("HOME", self.home.path())
            .env_remove("XDG_CONFIG_HOME")
            .env("NO_COLOR", "1")
            .args(gate_args)
            .arg("--")
            .arg(AGENT)
            .arg("log")
            .arg(self.log_path())
            .args(ops);
        // SAFETY: setsid(2) is async-signal-safe and touches no memory; it runs between fork
        // and exec to detach gate from any controlling terminal the test runner has.
        unsafe {
            c.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
        c
    }

    /// Run to the end: `gate run GATE_ARGS -- agent OPS`, with `stdin` (or none).
    pub fn run(&self, gate_args: &[&str], ops: &[&str], stdin: Option<&[u8]>) -> Outcome {
        let mut args = vec!["run"];
        args.extend_from_slice(gate_args);
        let cmd = self.command(&args, ops);
        Running::start(cmd, stdin).finish(self)
    }

    pub fn log(&self) -> Vec<String> {
        std::fs::read_to_string(self.log_path()).unwrap_or_default().lines().map(str::to_string).collect()
    }

    /// Wait until the agent's log has a line containing `needle`.
    pub fn wait_log(&self, needle: &str) {
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            if self.log().iter().any(|l| l.contains(needle)) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("the agent never logged {needle:?}; log: {:#?}", self.log());
    }
}

/// A gate process with its output being collected.
pub struct Running {
    pub child: Child,
    stdout: Option<JoinHandle<Vec<u8>>>,
    stderr: Option<JoinHandle<Vec<u8>>>,
}

impl Running {
    pub fn start(mut cmd: Command, stdin: Option<&[u8]>) -> Running {
        cmd.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("start gate");
        if let Some(data) = stdin {
            let mut w = child.stdin.take().unwrap();
            let data = data.to_vec();
            std::thread::spawn(move || {
                let _ = w.write_all(&data);
            });
        }
        let mut out = child.stdout.take().unwrap();
        let mut err = child.stderr.take().unwrap();
        let stdout = std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = out.read_to_end(&mut v);
            v
        });
        let stderr = std::thread::spawn(move || {
            let mut v = Vec::new();
            let _ = err.read_to_end(&mut v);
            v
        });
        Running { child, stdout: Some(stdout), stderr: Some(stderr) }
    }

    pub fn pid(&self) -> i32 {
        self.child.id() as i32
    }

    pub fn signal(&self, sig: i32) {
        // SAFETY: kill(2) with plain integers; the pid is our own, still unreaped child.
        unsafe {
            libc::kill(self.pid(), sig);
        }
    }

    pub fn finish(mut self, ws: &Ws) -> Outcome {
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                panic!("gate did not exit within {TIMEOUT:?}; agent log: {:#?}", ws.log());
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        use std::os::unix::process::ExitStatusExt;
        let stdout = self.stdout.take().unwrap().join().unwrap();
        let stderr = String::from_utf8_lossy(&self.stderr.take().unwrap().join().unwrap()).into_owned();
        Outcome { code: status.code(), signal: status.signal(), stdout, stderr, log: ws.log() }
    }
}

/// A gate a test let go of without `finish` (it asserted, or did not need the end) is killed:
/// no test leaves a gate and its agent running behind it.
impl Drop for Running {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

pub struct Outcome {
    pub code: Option<i32>,
    pub signal: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// The agent's log: `< line` for each line it read, `# note` for events.
    pub log: Vec<String>,
}

impl Outcome {
    pub fn stdout_str(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Every line the agent read, as JSON where it parses.
    pub fn received(&self) -> Vec<String> {
        self.log.iter().filter_map(|l| l.strip_prefix("< ")).map(str::to_string).collect()
    }

    pub fn received_json(&self) -> Vec<Value> {
        self.received().iter().filter_map(|l| serde_json::from_str(l).ok()).collect()
    }

    pub fn decisions(&self) -> Vec<Value> {
        self.received_json().into_iter().filter(|v| v["type"] == "decision").collect()
    }

    /// The decision for `id`; fails if there is not exactly one.
    pub fn decision(&self, id: &str) -> Value {
        let d: Vec<Value> = self.decisions().into_iter().filter(|v| v["id"] == id).collect();
        assert_eq!(d.len(), 1, "expected one decision for {id}, got {d:#?}\nstderr: {}", self.stderr);
        d.into_iter().next().unwrap()
    }

    pub fn assert_code(&self, code: i32) {
        assert_eq!(self.code, Some(code), "exit code; stderr: {}\nlog: {:#?}", self.stderr, self.log);
    }
}

/// Assert an approval with this source.
pub fn assert_approved(d: &Value, source: &str) {
    assert_eq!(d["approved"], true, "{d:#}");
    assert_eq!(d["source"], source, "{d:#}");
    assert!(d["scope"].is_string(), "{d:#}");
}

/// Assert a denial with this source and mode, with a message for the model.
pub fn assert_denied(d: &Value, source: &str, mode: &str) {
    assert_eq!(d["approved"], false, "{d:#}");
    assert_eq!(d["source"], source, "{d:#}");
    assert_eq!(d["mode"], mode, "{d:#}");
    assert!(d["message"].as_str().is_some_and(|m| m.contains("[System reminder:")), "{d:#}");
    assert!(d["reason"].as_str().is_some_and(|r| !r.is_empty()), "{d:#}");
}

/// Collect everything a child writes (a terminal's screen) on a thread, for tests to read.
pub fn capture(mut out: impl Read + Send + 'static) -> std::sync::Arc<std::sync::Mutex<Vec<u8>>> {
    let screen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let s2 = screen.clone();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = out.read(&mut buf) {
            if n == 0 {
                break;
            }
            s2.lock().unwrap().extend_from_slice(&buf[..n]);
        }
    });
    screen
}

/// A test that cannot run because a system tool is missing: says why on stderr, and fails
/// instead when `GATE_REQUIRE_AGENTS` is set (CI installs every tool the tests use).
pub fn skip_missing_tool(why: &str) {
    let line = format!("SKIPPED {}: {why}", std::thread::current().name().unwrap_or("test"));
    if std::env::var("GATE_REQUIRE_AGENTS").is_ok_and(|v| !v.is_empty() && v != "0") {
        panic!("{line}; GATE_REQUIRE_AGENTS is set, so a skip is a failure");
    }
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}
