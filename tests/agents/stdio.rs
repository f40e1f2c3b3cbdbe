//! Running agents under a deadline: [`run`] for one-shot commands, [`JsonlProcess`] for agents
//! that speak JSON lines on stdio, and [`Rpc`] (JSON-RPC over those lines: ACP, Codex's
//! app-server, MCP). Each agent runs in its own process group; at the deadline, or when the
//! handle drops, the whole group is killed, and a deadline fails the test with the transcript.

use std::fmt::Display;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// What a one-shot command left.
#[derive(Debug)]
pub struct Finished {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
}

impl Finished {
    /// Command, status, stdout and stderr, for a failure message.
    pub fn transcript(&self) -> String {
        format!(
            "status: {} after {:.2?}\n--- stdout\n{}\n--- stderr\n{}",
            self.status, self.elapsed, self.stdout, self.stderr
        )
    }
}

fn kill_group(pid: u32) {
    // SAFETY: kill(2) on our own child's process group.
    unsafe {
        libc::kill(-(pid as i32), libc::SIGKILL);
    }
}

/// Reads `r` to EOF on a thread into the returned text; the receiver hears when it is done.
fn collect(r: impl Read + Send + 'static) -> (Arc<Mutex<String>>, Receiver<()>) {
    let out = Arc::new(Mutex::new(String::new()));
    let (tx, rx) = channel();
    let o = out.clone();
    std::thread::spawn(move || {
        let mut r = BufReader::new(r);
        let mut buf = Vec::new();
        while matches!(r.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
            o.lock().unwrap().push_str(&String::from_utf8_lossy(&buf));
            buf.clear();
        }
        let _ = tx.send(());
    });
    (out, rx)
}

/// Waits a little for readers to reach EOF (a killed group's pipes close at once; a descendant
/// that left the group may hold them open, and is not waited for).
fn drained(done: &[&Receiver<()>]) {
    let end = Instant::now() + Duration::from_secs(2);
    for d in done {
        let _ = d.recv_timeout(end.saturating_duration_since(Instant::now()));
    }
}

/// Runs `cmd` with stdin from /dev/null in its own process group.
/// After `timeout` the group is killed and the test fails with what it printed. When the
/// command exits, whatever it left running in its group is killed too.
pub fn run(mut cmd: Command, timeout: Duration) -> Finished {
    let start = Instant::now();
    let desc = format!("{cmd:?}");
    let mut child = cmd
        .process_group(0)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {desc}: {e}"));
    let (out, out_done) = collect(child.stdout.take().unwrap());
    let (err, err_done) = collect(child.stderr.take().unwrap());
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break Some(s);
        }
        if start.elapsed() >= timeout {
            break None;
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let elapsed = start.elapsed();
    kill_group(child.id());
    let status = status.unwrap_or_else(|| child.wait().unwrap());
    drained(&[&out_done, &err_done]);
    let f = Finished { status, stdout: out.lock().unwrap().clone(), stderr: err.lock().unwrap().clone(), elapsed };
    if elapsed >= timeout {
        panic!("timed out after {timeout:?}, killed: {desc}\n{}", f.transcript());
    }
    f
}

enum Line {
    Json(Value),
    Eof,
}

/// An agent speaking JSON lines on stdio. Lines are split on `\n` only. Everything is kept in a
/// transcript (`>>` sent, `<<` received, `<?` non-JSON stdout, `!!` stderr, `##` notes) that
/// a deadline or [`JsonlProcess::fail`] prints.
pub struct JsonlProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Line>,
    log: Arc<Mutex<String>>,
    start: Instant,
    deadline: Instant,
    eof: bool,
    stderr_done: Receiver<()>,
}

fn note(log: &Mutex<String>, start: Instant, dir: &str, line: &str) {
    let mut l = log.lock().unwrap();
    l.push_str(&format!("[{:7.3}] {dir} {}\n", start.elapsed().as_secs_f64(), line.trim_end()));
}

impl JsonlProcess {
    /// Spawns `cmd` (stdio piped, own process group); the whole exchange must end within
    /// `timeout` of now.
    pub fn spawn(mut cmd: Command, timeout: Duration) -> JsonlProcess {
        let start = Instant::now();
        let log = Arc::new(Mutex::new(String::new()));
        note(&log, start, "##", &format!("{cmd:?}"));
        let mut child = cmd
            .process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap_or_else(|e| panic!("spawn {cmd:?}: {e}"));
        let (tx, rx) = channel();
        let stdout = child.stdout.take().unwrap();
        let l = log.clone();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stdout);
            let mut buf = Vec::new();
            while matches!(r.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
                let text = String::from_utf8_lossy(&buf).into_owned();
                buf.clear();
                if text.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Value>(&text) {
                    Ok(v) => {
                        note(&l, start, "<<", &text);
                        if tx.send(Line::Json(v)).is_err() {
                            return;
                        }
                    }
                    Err(_) => note(&l, start, "<?", &text),
                }
            }
            let _ = tx.send(Line::Eof);
        });
        let stderr = child.stderr.take().unwrap();
        let l = log.clone();
        let (done, stderr_done) = channel();
        std::thread::spawn(move || {
            let mut r = BufReader::new(stderr);
            let mut buf = Vec::new();
            while matches!(r.read_until(b'\n', &mut buf), Ok(n) if n > 0) {
                note(&l, start, "!!", &String::from_utf8_lossy(&buf));
                buf.clear();
            }
            let _ = done.send(());
        });
        let stdin = child.stdin.take();
        JsonlProcess { child, stdin, rx, log, start, deadline: start + timeout, eof: false, stderr_done }
    }

    /// Writes one line of text as it is (for malformed input).
    pub fn send_raw(&mut self, line: &str) {
        note(&self.log, self.start, ">>", line);
        if let Some(s) = self.stdin.as_mut() {
            let _ = s.write_all(format!("{line}\n").as_bytes()).and_then(|_| s.flush());
        }
    }

    /// Writes one line.
    pub fn send(&mut self, v: &Value) {
        let line = v.to_string();
        note(&self.log, self.start, ">>", &line);
        let ok = match self.stdin.as_mut() {
            Some(s) => s.write_all(format!("{line}\n").as_bytes()).and_then(|_| s.flush()).is_ok(),
            None => false,
        };
        if !ok {
            note(&self.log, self.start, "##", "(could not write: stdin closed)");
        }
    }

    /// The next JSON line, or None at EOF. Fails the test at the deadline.
    pub fn recv(&mut self) -> Option<Value> {
        if self.eof {
            return None;
        }
        let left = self.deadline.saturating_duration_since(Instant::now());
        match self.rx.recv_timeout(left) {
            Ok(Line::Json(v)) => Some(v),
            Ok(Line::Eof) | Err(RecvTimeoutError::Disconnected) => {
                self.eof = true;
                note(&self.log, self.start, "##", "stdout closed");
                None
            }
            Err(RecvTimeoutError::Timeout) => self.fail("deadline passed waiting for output"),
        }
    }

    /// Receives until a line satisfies `pred` (returned), or fails at EOF or the deadline.
    pub fn recv_until(&mut self, mut pred: impl FnMut(&Value) -> bool) -> Value {
        loop {
            match self.recv() {
                Some(v) if pred(&v) => return v,
                Some(_) => {}
                None => self.fail("stdout closed before the awaited line"),
            }
        }
    }

    /// Closes the agent's stdin (EOF).
    pub fn close_stdin(&mut self) {
        if self.stdin.take().is_some() {
            note(&self.log, self.start, "##", "closed stdin");
        }
    }

    /// Closes stdin and waits for the exit, at most `grace` (and never past the deadline);
    /// kills the group and returns None if it does not exit.
    pub fn finish(&mut self, grace: Duration) -> Option<ExitStatus> {
        self.close_stdin();
        let end = (Instant::now() + grace).min(self.deadline);
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                note(&self.log, self.start, "##", &format!("exited: {s}"));
                return Some(s);
            }
            if Instant::now() >= end {
                note(&self.log, self.start, "##", "did not exit; killing");
                kill_group(self.child.id());
                let _ = self.child.wait();
                return None;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Time since spawn.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// Adds a `##` line to the transcript.
    pub fn note(&self, text: &str) {
        note(&self.log, self.start, "##", text);
    }

    pub fn transcript(&self) -> String {
        self.log.lock().unwrap().clone()
    }

    /// Kills the agent and fails the test with `why` and the transcript.
    pub fn fail(&mut self, why: impl Display) -> ! {
        kill_group(self.child.id());
        let _ = self.child.wait();
        drained(&[&self.stderr_done]);
        panic!("{why}\n--- transcript\n{}", self.transcript());
    }

    pub fn id(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for JsonlProcess {
    fn drop(&mut self) {
        kill_group(self.child.id());
        let _ = self.child.wait();
    }
}

/// JSON-RPC over a [`JsonlProcess`]. `version` is `Some("2.0")` for ACP and MCP; Codex's
/// app-server sends no `"jsonrpc"` field. The agent's own requests that arrive while waiting are
/// answered by the `on_request` callback: `Some(result)`, or `None` for a JSON-RPC error
/// "method not found".
pub struct Rpc {
    pub p: JsonlProcess,
    version: Option<&'static str>,
    next_id: u64,
    /// Every message received (responses, notifications, requests), in order.
    pub seen: Vec<Value>,
}

/// The answer to the agent's requests when a test has none: "method not found".
pub fn no_requests(_: &Value) -> Option<Value> {
    None
}

impl Rpc {
    pub fn new(p: JsonlProcess, version: Option<&'static str>) -> Rpc {
        Rpc { p, version, next_id: 1, seen: Vec::new() }
    }

    fn frame(&self, mut v: Value) -> Value {
        if let Some(ver) = self.version {
            v["jsonrpc"] = json!(ver);
        }
        v
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        let v = self.frame(json!({"method": method, "params": params}));
        self.p.send(&v);
    }

    /// Sends a request and waits for its response, answering the agent's requests meanwhile.
    /// `Ok(result)` or `Err(error)`.
    pub fn call(
        &mut self,
        method: &str,
        params: Value,
        on_request: &mut dyn FnMut(&Value) -> Option<Value>,
    ) -> Result<Value, Value> {
        let id = self.next_id;
        self.next_id += 1;
        let v = self.frame(json!({"id": id, "method": method, "params": params}));
        self.p.send(&v);
        let resp = self.pump(on_request, &mut |m| m.get("method").is_none() && m["id"] == json!(id));
        match resp.get("error") {
            Some(e) => Err(e.clone()),
            None => Ok(resp["result"].clone()),
        }
    }

    /// [`Rpc::call`], failing the test on an error.
    pub fn call_ok(
        &mut self,
        method: &str,
        params: Value,
        on_request: &mut dyn FnMut(&Value) -> Option<Value>,
    ) -> Value {
        match self.call(method, params, on_request) {
            Ok(r) => r,
            Err(e) => self.p.fail(format!("{method} failed: {e}")),
        }
    }

    /// Waits for the notification `method` (returns its params), answering requests meanwhile.
    pub fn wait_notification(&mut self, method: &str, on_request: &mut dyn FnMut(&Value) -> Option<Value>) -> Value {
        let m = self.pump(on_request, &mut |m| m.get("id").is_none() && m["method"] == method);
        m["params"].clone()
    }

    /// Receives until `stop` holds for a message (returned), answering the agent's requests.
    pub fn pump(
        &mut self,
        on_request: &mut dyn FnMut(&Value) -> Option<Value>,
        stop: &mut dyn FnMut(&Value) -> bool,
    ) -> Value {
        loop {
            let Some(m) = self.p.recv() else {
                self.p.fail("the agent closed its stdout while a response was awaited");
            };
            self.seen.push(m.clone());
            if stop(&m) {
                return m;
            }
            if m.get("method").is_some() && m.get("id").is_some() {
                let answer = match on_request(&m) {
                    Some(result) => json!({"id": m["id"], "result": result}),
                    None => json!({"id": m["id"], "error": {"code": -32601,
                        "message": format!("test client: no handler for {}", m["method"])}}),
                };
                let v = self.frame(answer);
                self.p.send(&v);
            }
        }
    }

    /// The agent's requests received so far with this method.
    pub fn requests(&self, method: &str) -> Vec<Value> {
        self.seen.iter().filter(|m| m["method"] == method && m.get("id").is_some()).cloned().collect()
    }

    /// The notifications received so far with this method.
    pub fn notifications(&self, method: &str) -> Vec<Value> {
        self.seen.iter().filter(|m| m["method"] == method && m.get("id").is_none()).cloned().collect()
    }
}
