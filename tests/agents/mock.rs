//! The mock models' common part: a `tiny_http` server on 127.0.0.1:0 answered by worker threads,
//! the script (steps of tool calls), and the record of every request and of the tool results
//! the model received. Each API (anthropic.rs, openai_chat.rs, gemini.rs, responses.rs) supplies
//! a [`Api`]: how to count tool results in a request, and how to answer.

use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// One tool call the mock model makes: the tool's name and its arguments (input).
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    pub name: String,
    pub args: Value,
}

/// `ToolCall { name, args }`.
pub fn call(name: &str, args: Value) -> ToolCall {
    ToolCall { name: name.to_string(), args }
}

/// One model turn of the script: one tool call, or several sent as parallel calls in one message.
pub type Step = Vec<ToolCall>;

/// A script of one call per step.
pub fn script(calls: Vec<ToolCall>) -> Vec<Step> {
    calls.into_iter().map(|c| vec![c]).collect()
}

/// A tool result as the model received it.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolResult {
    /// The id of the call it answers (tool_use_id, tool_call_id, call_id; for Gemini the
    /// functionResponse's id, else its name).
    pub id: String,
    /// Its text (text blocks joined; a JSON result as JSON text).
    pub content: String,
    /// Where the wire says so (Anthropic's `is_error`), else None.
    pub is_error: Option<bool>,
}

/// One HTTP request the mock received.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub method: String,
    /// With its query string.
    pub path: String,
    /// The body as JSON (`Value::Null` when empty or not JSON; see `raw`).
    pub body: Value,
    pub raw: String,
    /// Every tool result this request carried (the whole conversation so far).
    pub tool_results: Vec<ToolResult>,
    /// The step the mock answered with (index into the script), if it sent tool calls.
    pub step: Option<usize>,
    /// When it arrived.
    pub at: Instant,
}

/// An HTTP answer.
pub enum Reply {
    Json(u16, Value),
    /// A `text/event-stream` body, sent chunked.
    Sse(String),
}

/// What differs per API.
pub trait Api: Send + Sync + 'static {
    /// Every tool result in the request (the conversation so far), in order.
    fn tool_results(&self, body: &Value) -> Vec<ToolResult>;
    /// The answer to a request, and the index of the script step it sends (if it does). `next`
    /// is the step due (see [`due_step`]), or None when the script is done; the API decides
    /// whether the request is a model turn that may call tools at all (e.g. it offers them).
    fn reply(&self, method: &str, path: &str, body: &Value, next: Option<(usize, &Step)>) -> (Reply, Option<usize>);
}

/// The step due once the conversation holds `results` tool results: step k is due when the
/// results equal the calls of steps 0..k. None after the script (or mid-step).
pub fn due_step(script: &[Step], results: usize) -> Option<(usize, &Step)> {
    let mut sum = 0;
    for (i, step) in script.iter().enumerate() {
        if results == sum {
            return Some((i, step));
        }
        if results < sum {
            return None;
        }
        sum += step.len();
    }
    None
}

struct Shared {
    script: Vec<Step>,
    api: Box<dyn Api>,
    log: Mutex<Vec<Recorded>>,
}

/// A running mock: answers until dropped.
pub struct Mock {
    server: Arc<tiny_http::Server>,
    shared: Arc<Shared>,
    port: u16,
    workers: Vec<JoinHandle<()>>,
}

const WORKERS: usize = 4;

impl Mock {
    pub fn start(api: impl Api, script: Vec<Step>) -> Mock {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").expect("mock: bind 127.0.0.1:0"));
        let port = server.server_addr().to_ip().expect("mock: an IP address").port();
        let shared = Arc::new(Shared { script, api: Box::new(api), log: Mutex::new(Vec::new()) });
        let workers = (0..WORKERS)
            .map(|_| {
                let (server, shared) = (server.clone(), shared.clone());
                std::thread::spawn(move || {
                    while let Ok(req) = server.recv() {
                        handle(&shared, req);
                    }
                })
            })
            .collect();
        Mock { server, shared, port, workers }
    }

    /// `http://127.0.0.1:PORT` (no trailing slash, no path).
    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}", self.port)
    }

    pub fn port(&self) -> u16 {
        self.port
    }

    /// Every request so far, in arrival order.
    pub fn requests(&self) -> Vec<Recorded> {
        self.shared.log.lock().unwrap().clone()
    }

    /// The requests whose path contains `part`.
    pub fn requests_to(&self, part: &str) -> Vec<Recorded> {
        self.requests().into_iter().filter(|r| r.path.contains(part)).collect()
    }

    /// Every distinct tool result the model received (by id, first seen), in order.
    pub fn tool_results(&self) -> Vec<ToolResult> {
        let mut out: Vec<ToolResult> = Vec::new();
        for r in self.shared.log.lock().unwrap().iter() {
            for t in &r.tool_results {
                if !out.iter().any(|o| o.id == t.id) {
                    out.push(t.clone());
                }
            }
        }
        out
    }

    /// How many script steps the mock has sent.
    pub fn steps_sent(&self) -> usize {
        let log = self.shared.log.lock().unwrap();
        log.iter().filter_map(|r| r.step).max().map_or(0, |s| s + 1)
    }

    /// Waits up to `timeout` for `pred` over the requests so far; returns whether it held.
    pub fn wait_for(&self, timeout: Duration, pred: impl Fn(&[Recorded]) -> bool) -> bool {
        let end = Instant::now() + timeout;
        loop {
            if pred(&self.shared.log.lock().unwrap()) {
                return true;
            }
            if Instant::now() >= end {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The record, for a failure message: one line per request (method, path, step answered,
    /// tool results seen).
    pub fn summary(&self) -> String {
        let mut s = String::new();
        for r in self.shared.log.lock().unwrap().iter() {
            let results: Vec<String> =
                r.tool_results.iter().map(|t| format!("{}={:?}", t.id, clip(&t.content, 200))).collect();
            s += &format!("{} {} step={:?} results=[{}]\n", r.method, r.path, r.step, results.join(", "));
        }
        s
    }
}

impl Drop for Mock {
    fn drop(&mut self) {
        for _ in 0..self.workers.len() {
            self.server.unblock();
        }
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n).collect::<String>() + "…"
    }
}

fn handle(shared: &Shared, mut req: tiny_http::Request) {
    let at = Instant::now();
    let method = req.method().as_str().to_uppercase();
    let path = req.url().to_string();
    let mut raw = String::new();
    let _ = req.as_reader().read_to_string(&mut raw);
    let body: Value = serde_json::from_str(&raw).unwrap_or(Value::Null);
    let tool_results = shared.api.tool_results(&body);
    let next = due_step(&shared.script, tool_results.len());
    let (reply, step) = shared.api.reply(&method, &path, &body, next);
    shared.log.lock().unwrap().push(Recorded { method, path, body, raw, tool_results, step, at });
    let header = |k: &str, v: &str| tiny_http::Header::from_bytes(k.as_bytes(), v.as_bytes()).unwrap();
    let _ = match reply {
        Reply::Json(status, v) => req.respond(
            tiny_http::Response::from_string(v.to_string())
                .with_status_code(status)
                .with_header(header("Content-Type", "application/json")),
        ),
        Reply::Sse(text) => req.respond(tiny_http::Response::new(
            200.into(),
            vec![header("Content-Type", "text/event-stream"), header("Cache-Control", "no-cache")],
            std::io::Cursor::new(text.into_bytes()),
            None, // no length: chunked
            None,
        )),
    };
}

/// A JSON 404 with `{"error": {...}}`.
pub fn not_found(path: &str) -> Reply {
    Reply::Json(404, json!({"error": {"code": 404, "type": "not_found_error", "message": format!("mock: no {path}")}}))
}

/// One SSE event: `event: NAME` (when given) and `data: JSON`.
pub fn sse_event(event: Option<&str>, data: &Value) -> String {
    match event {
        Some(e) => format!("event: {e}\ndata: {data}\n\n"),
        None => format!("data: {data}\n\n"),
    }
}

/// Text of a content value: a string as is; an array of blocks as their `text` joined by
/// newlines (other blocks as JSON); anything else as JSON.
pub fn content_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(items) => items
            .iter()
            .map(|b| match b.get("text").and_then(Value::as_str) {
                Some(t) => t.to_string(),
                None => b.to_string(),
            })
            .collect::<Vec<_>>()
            .join("\n"),
        Value::Null => String::new(),
        other => other.to_string(),
    }
}

/// The path without its query string.
pub fn path_only(path: &str) -> &str {
    path.split('?').next().unwrap_or(path)
}
