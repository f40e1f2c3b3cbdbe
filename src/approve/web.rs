//! Approving in a browser (`gate run --web [ADDR]`): a page that lists the pending calls with
//! the terminal prompt's presentation ([`super::present::web_lines`]) and answers them live over
//! a WebSocket, racing the terminal prompt: the first answer wins, the other is withdrawn.
//!
//! Two listeners on the same address, each on its own threads: the page over HTTP
//! (`tiny_http`), and the WebSocket (`tungstenite`) on a second port (the next one up when
//! ADDR names a port, else random as well). A WebSocket needs reading and writing at once,
//! which an upgraded `tiny_http` connection cannot give (it is one blocking stream); a socket
//! of our own can be polled. The WebSocket speaks the seed system tool_approval's messages
//! (SPEC 5.1): `approval_needed` with `id`, `tool`, `arguments` and `batch_remaining` out (plus
//! gate's presentation under `view`, `always` and `summary`), `{approved, scope, mode,
//! feedback, id?}` back; `resolved` when a call leaves the list, `error` for a bad answer.
//!
//! Security: a fresh 256-bit token from `/dev/urandom` is required on every HTTP request and on
//! the WebSocket (compared in constant time); the Host header must be `localhost` or an IP
//! literal with the right port, and an Origin, when sent, must be this page's (DNS rebinding);
//! no CORS header is ever sent; a strict Content-Security-Policy lets the page load nothing from
//! outside; a non-loopback address needs `--web-bind-any`. The URL is printed on stderr and
//! written to a 0600 file in gate's runtime directory ([`runtime_dir`]), removed at exit.
//!
//! Fail closed: nothing here approves but a person's answer that names a pending call. A page
//! that closes, a bad message, a server that cannot serve: the call stays pending (for the
//! terminal or another page), or is denied by the prompt time-out.

use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, OpenOptionsExt};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use anyhow::{bail, Context as _};
use serde_json::{json, Value};
use tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::Message;

use super::present::{self, sanitize, summarize};
use super::tty::{TermPrompt, MAX_FEEDBACK};
use super::{Answer, ApproveError, Approver, FileNow, PromptInfo, Reply};
use crate::cli::RunArgs;
use crate::protocol::By;
use crate::supervise::sys;

const PAGE_HTML: &str = include_str!("web.html");
const PAGE_JS: &str = include_str!("web.js");
const PAGE_CSS: &str = include_str!("web.css");

/// WebSocket connections open at once; more are refused.
pub const MAX_CLIENTS: usize = 32;
/// The largest message accepted from a page.
pub const MAX_MESSAGE: usize = 64 * 1024;
/// How long a notify command may run before it is killed.
pub const NOTIFY_BOUND: Duration = Duration::from_secs(10);
/// How often a wait for an answer looks at the agent and the deadline.
const TICK: Duration = Duration::from_millis(100);

/// Where `--web` listens and who may reach it.
#[derive(Clone, Debug)]
pub struct WebConfig {
    /// The page's address; port 0 for a random one.
    pub addr: SocketAddr,
    /// Allow a non-loopback address.
    pub bind_any: bool,
    /// Write the URL to a file in [`runtime_dir`] (and remove it when dropped).
    pub url_file: bool,
}

/// A call on the page, until [`WebServer::settle`].
#[derive(Debug)]
pub struct Ticket {
    seq: u64,
    /// The id the page and tool_approval clients see and may answer with.
    pub id: String,
}

/// How a wait for the page ended.
#[derive(Debug)]
pub enum Waited {
    Answered,
    Stopped,
    TimedOut,
}

/// The served page: its listeners' threads, the pending calls and the connected pages.
pub struct WebServer {
    shared: Arc<Shared>,
    file: Option<PathBuf>,
}

struct Shared {
    hub: Hub,
    url: String,
    ws_url: String,
    token: String,
    http_port: u16,
    ws_port: u16,
    loopback_only: bool,
    clients: AtomicUsize,
}

impl WebServer {
    /// Bind both listeners, make the token, print the URL and start serving.
    pub fn start(cfg: &WebConfig) -> anyhow::Result<WebServer> {
        let ip = cfg.addr.ip();
        let loopback_only = ip.is_loopback();
        if !loopback_only && !cfg.bind_any {
            bail!(
                "--web {}: not a loopback address; pass --web-bind-any to listen there (anyone who can reach it and has the token can approve)",
                cfg.addr
            );
        }
        let token = fresh_token().context("cannot make a token for the web page (/dev/urandom)")?;
        let http = tiny_http::Server::http(cfg.addr)
            .map_err(|e| anyhow::anyhow!("--web: cannot listen on {}: {e}", cfg.addr))?;
        let http_port = http.server_addr().to_ip().map(|a| a.port()).unwrap_or(cfg.addr.port());
        let ws_port = if cfg.addr.port() == 0 { 0 } else { cfg.addr.port().wrapping_add(1) };
        let ws = TcpListener::bind((ip, ws_port))
            .with_context(|| format!("--web: cannot listen for the WebSocket on {ip} port {ws_port}"))?;
        let ws_port = ws.local_addr()?.port();
        // The address people type: an unspecified address is reached on loopback here.
        let shown = match ip {
            IpAddr::V4(v4) if v4.is_unspecified() => "127.0.0.1".to_string(),
            IpAddr::V4(v4) => v4.to_string(),
            IpAddr::V6(v6) if v6.is_unspecified() => "[::1]".to_string(),
            IpAddr::V6(v6) => format!("[{v6}]"),
        };
        let url = format!("http://{shown}:{http_port}/?token={token}");
        let ws_url = format!("ws://{shown}:{ws_port}/?token={token}");
        let shared = Arc::new(Shared {
            hub: Hub::default(),
            url,
            ws_url,
            token,
            http_port,
            ws_port,
            loopback_only,
            clients: AtomicUsize::new(0),
        });
        let file = if cfg.url_file {
            match write_url_file(&shared.url, &shared.ws_url) {
                Ok(p) => Some(p),
                Err(e) => {
                    eprintln!("gate: cannot write the web page's URL to a file: {e}");
                    None
                }
            }
        } else {
            None
        };
        let s = shared.clone();
        std::thread::Builder::new().name("web-http".into()).spawn(move || serve_http(http, s))?;
        let s = shared.clone();
        std::thread::Builder::new().name("web-ws".into()).spawn(move || serve_ws(ws, s))?;
        Ok(WebServer { shared, file })
    }

    /// The page's URL, with the token.
    pub fn url(&self) -> &str {
        &self.shared.url
    }

    /// The WebSocket's URL, with the token (for tool_approval clients).
    pub fn ws_url(&self) -> &str {
        &self.shared.ws_url
    }

    /// The file the URL was written to.
    pub fn url_file(&self) -> Option<&Path> {
        self.file.as_deref()
    }

    /// Pages connected now.
    pub fn clients(&self) -> usize {
        self.shared.clients.load(Ordering::SeqCst)
    }

    /// Put a call on the page (and on every page that connects later) until it is settled.
    pub fn post(&self, info: &PromptInfo) -> Ticket {
        let now = FileNow::for_shape(info.shape);
        let lines = present::web_lines(info, &now);
        let batch: Vec<Value> =
            info.batch_remaining.iter().map(|b| json!({"tool": b.tool, "arguments": b.arguments})).collect();
        let summary = summarize(&info.call.tool, &info.call.arguments);
        let why = sanitize(&super::why(info.decision));
        self.shared.hub.open(info.id, |id| {
            json!({
                "type": "approval_needed",
                "id": id,
                "tool": info.call.tool,
                "arguments": info.call.arguments,
                "batch_remaining": batch,
                "summary": summary,
                "why": why,
                "always": info.suggested,
                "view": lines,
            })
            .to_string()
        })
    }

    /// Wait until the page answers the call, `stop` says to give up, or the deadline passes.
    pub fn wait(&self, t: &Ticket, stop: impl Fn() -> bool, deadline: Option<Instant>) -> Waited {
        self.shared.hub.wait(t.seq, stop, deadline)
    }

    /// Take the call off the page. Returns the page's answer if it answered first; else the
    /// pages are told who did (`by`, with `reply` when there was an answer).
    pub fn settle(&self, t: Ticket, reply: Option<&Reply>, by: &str) -> Option<Reply> {
        self.shared.hub.settle(t.seq, reply, by)
    }
}

impl Drop for WebServer {
    fn drop(&mut self) {
        if let Some(f) = &self.file {
            let _ = std::fs::remove_file(f);
            lock_files().retain(|p| p != f);
        }
    }
}

/// The URL files written by this process and not yet removed. A server can outlive `run`
/// (a thread that lingers on the agent's output may hold the last reference to the session
/// when the process exits), so `main` removes what is left here before it exits.
static URL_FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn lock_files() -> MutexGuard<'static, Vec<PathBuf>> {
    URL_FILES.lock().unwrap_or_else(|e| e.into_inner())
}

/// Remove every URL file this process wrote: called by `main` right before it exits.
pub fn remove_url_files() {
    for f in lock_files().drain(..) {
        let _ = std::fs::remove_file(f);
    }
}

/// The pending calls and the connected pages. One lock; every message to the pages is sent
/// under it, so a page that connects sees each call exactly once and in order.
#[derive(Default)]
struct Hub {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    seq: u64,
    pending: Vec<Pending>,
    clients: Vec<Client>,
    next_client: u64,
}

struct Pending {
    seq: u64,
    id: String,
    message: String,
    answer: Option<Reply>,
}

struct Client {
    id: u64,
    tx: mpsc::Sender<Outgoing>,
    wake: UnixStream,
}

struct Outgoing {
    text: String,
    /// Set for an `approval_needed`: the id the connection has now shown.
    shows: Option<String>,
}

impl Hub {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn broadcast(st: &State, text: &str, shows: Option<&str>) {
        for c in &st.clients {
            let _ = c.tx.send(Outgoing { text: text.to_string(), shows: shows.map(str::to_string) });
            let _ = (&c.wake).write(&[1]);
        }
    }

    fn open(&self, id: &str, message: impl FnOnce(&str) -> String) -> Ticket {
        let mut st = self.lock();
        st.seq += 1;
        let seq = st.seq;
        let mut id = id.to_string();
        if st.pending.iter().any(|p| p.id == id) {
            id = format!("{id}#{seq}");
        }
        let message = message(&id);
        Hub::broadcast(&st, &message, Some(&id));
        st.pending.push(Pending { seq, id: id.clone(), message, answer: None });
        Ticket { seq, id }
    }

    /// A page's answer. `id` names the call; without one, the oldest pending call that this
    /// connection was shown (`shown`).
    fn answer(&self, id: Option<&str>, shown: &[String], reply: Reply) -> Result<String, String> {
        let mut st = self.lock();
        let p = match id {
            Some(id) => st.pending.iter_mut().find(|p| p.id == id).ok_or_else(|| {
                format!("no pending call has the id {}", serde_json::to_string(id).unwrap_or_default())
            })?,
            None => st
                .pending
                .iter_mut()
                .find(|p| p.answer.is_none() && shown.contains(&p.id))
                .ok_or("no pending call was shown on this connection")?,
        };
        if p.answer.is_some() {
            return Err(format!("call {} was answered already", p.id));
        }
        let id = p.id.clone();
        let msg = resolved(&id, Some(&reply), "page");
        p.answer = Some(reply);
        Hub::broadcast(&st, &msg, None);
        drop(st);
        self.changed.notify_all();
        Ok(id)
    }

    fn answered(st: &State, seq: u64) -> bool {
        st.pending.iter().any(|p| p.seq == seq && p.answer.is_some())
    }

    fn wait(&self, seq: u64, stop: impl Fn() -> bool, deadline: Option<Instant>) -> Waited {
        let mut st = self.lock();
        loop {
            if Hub::answered(&st, seq) {
                return Waited::Answered;
            }
            if stop() {
                return Waited::Stopped;
            }
            let now = Instant::now();
            let tick = match deadline {
                Some(d) if now >= d => return Waited::TimedOut,
                Some(d) => TICK.min(d - now),
                None => TICK,
            };
            st = self.changed.wait_timeout(st, tick).unwrap_or_else(|e| e.into_inner()).0;
        }
    }

    fn settle(&self, seq: u64, reply: Option<&Reply>, by: &str) -> Option<Reply> {
        let mut st = self.lock();
        let i = st.pending.iter().position(|p| p.seq == seq)?;
        let p = st.pending.remove(i);
        if p.answer.is_none() {
            Hub::broadcast(&st, &resolved(&p.id, reply, by), None);
        }
        p.answer
    }

    /// A page connected: every pending call is replayed to it, in order.
    fn connect(&self, tx: mpsc::Sender<Outgoing>, wake: UnixStream) -> u64 {
        let mut st = self.lock();
        st.next_client += 1;
        let id = st.next_client;
        for p in st.pending.iter().filter(|p| p.answer.is_none()) {
            let _ = tx.send(Outgoing { text: p.message.clone(), shows: Some(p.id.clone()) });
        }
        let _ = (&wake).write(&[1]);
        st.clients.push(Client { id, tx, wake });
        id
    }

    /// A page went away; returns how many calls are still waiting for an answer.
    fn disconnect(&self, id: u64) -> usize {
        let mut st = self.lock();
        st.clients.retain(|c| c.id != id);
        st.pending.iter().filter(|p| p.answer.is_none()).count()
    }
}

/// `{"type":"resolved",...}`: a call left the list, and who settled it.
fn resolved(id: &str, reply: Option<&Reply>, by: &str) -> String {
    let mut m = json!({"type": "resolved", "id": id, "by": by});
    if let Some(r) = reply {
        let (approved, answer) = match &r.answer {
            Answer::Once => (true, "once"),
            Answer::Session => (true, "session"),
            Answer::Always => (true, "always"),
            Answer::RejectSoft { .. } => (false, "reject_soft"),
            Answer::RejectHard { .. } => (false, "reject_hard"),
        };
        m["approved"] = json!(approved);
        m["answer"] = json!(answer);
    }
    m.to_string()
}

/// A page's answer on the wire (tool_approval's, SPEC 5.1): the call's id if named, and the
/// reply. A rejection without `mode` stops the batch, as in tool_approval.
pub fn parse_answer(text: &str) -> Result<(Option<String>, Reply), String> {
    let v: Value = crate::protocol::strict::parse(text.as_bytes()).map_err(|e| format!("not JSON: {e}"))?;
    let obj = v.as_object().ok_or("an answer is a JSON object")?;
    let id = match obj.get("id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(_) => return Err("\"id\" must be a string".into()),
    };
    let approved = obj.get("approved").and_then(Value::as_bool).ok_or("\"approved\" (true or false) is missing")?;
    let feedback = match obj.get("feedback") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => {
            let s = s.trim();
            let mut end = s.len().min(MAX_FEEDBACK);
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            (!s.is_empty()).then(|| s[..end].to_string())
        }
        Some(_) => return Err("\"feedback\" must be a string".into()),
    };
    let (answer, reason) = if approved {
        match obj.get("scope").and_then(Value::as_str).unwrap_or("once") {
            "once" => (Answer::Once, "approved once by the user in the web page"),
            "session" => (Answer::Session, "approved by the user for this session in the web page"),
            "always" => (Answer::Always, "approved by the user for good in the web page"),
            other => return Err(format!("unknown scope {other:?} (once, session, always)")),
        }
    } else {
        match obj.get("mode").and_then(Value::as_str).unwrap_or("reject_hard") {
            "reject_soft" => (Answer::RejectSoft { feedback }, "rejected by the user in the web page"),
            "reject_hard" => {
                (Answer::RejectHard { feedback }, "rejected by the user in the web page, who stopped the batch")
            }
            other => return Err(format!("unknown mode {other:?} (reject_soft, reject_hard)")),
        }
    };
    Ok((id, Reply { answer, by: By::Person, reason: Some(reason.into()) }))
}

/// 32 random bytes from the kernel, in hex.
fn fresh_token() -> io::Result<String> {
    let mut b = [0u8; 32];
    std::fs::File::open("/dev/urandom")?.read_exact(&mut b)?;
    Ok(b.iter().map(|x| format!("{x:02x}")).collect())
}

/// `given == expected`, in a time that depends on `expected`'s length only.
pub fn same_secret(given: &[u8], expected: &[u8]) -> bool {
    let mut diff = given.len() ^ expected.len();
    for (i, e) in expected.iter().enumerate() {
        let g = given.get(i).copied().unwrap_or(!*e);
        diff |= usize::from(g ^ e);
    }
    std::hint::black_box(diff) == 0
}

/// The token in a query string (`token=...`), if any.
fn query_token(query: Option<&str>) -> Option<&str> {
    query?.split('&').find_map(|kv| kv.strip_prefix("token="))
}

/// A Host header that names this server: `localhost` or an IP literal (never a DNS name, which
/// a rebinding attacker controls), with the right port; loopback only unless bound wider.
pub fn host_ok(host: &str, port: u16, loopback_only: bool) -> bool {
    let Some((h, p)) = host.rsplit_once(':') else { return false };
    if p.parse::<u16>().ok() != Some(port) {
        return false;
    }
    if h.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let ip = match h.strip_prefix('[').and_then(|h| h.strip_suffix(']')) {
        Some(v6) => v6.parse::<std::net::Ipv6Addr>().map(IpAddr::V6),
        None => h.parse::<Ipv4Addr>().map(IpAddr::V4),
    };
    match ip {
        Ok(ip) => !loopback_only || ip.is_loopback(),
        Err(_) => false,
    }
}

/// An Origin header that is this page's: `http://` and a good host for the page's port.
pub fn origin_ok(origin: &str, http_port: u16, loopback_only: bool) -> bool {
    origin.strip_prefix("http://").is_some_and(|h| host_ok(h, http_port, loopback_only))
}

impl Shared {
    /// Token, Host and Origin of a request; `Err` says why it is refused.
    fn check(&self, host: Option<&str>, origin: Option<&str>, token: Option<&str>, port: u16) -> Result<(), &str> {
        if !host.is_some_and(|h| host_ok(h, port, self.loopback_only)) {
            return Err("the Host header does not name this server");
        }
        if origin.is_some_and(|o| !origin_ok(o, self.http_port, self.loopback_only)) {
            return Err("the request comes from another site (Origin)");
        }
        if !token.is_some_and(|t| same_secret(t.as_bytes(), self.token.as_bytes())) {
            return Err("the token is missing or wrong");
        }
        Ok(())
    }
}

// Every name and value is ASCII text gate writes itself (the CSP holds only ports and a hex
// token): `from_bytes` fails only on other bytes.
#[allow(clippy::expect_used)]
fn header(name: &str, value: &str) -> tiny_http::Header {
    tiny_http::Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn serve_http(server: tiny_http::Server, shared: Arc<Shared>) {
    for rq in server.incoming_requests() {
        let get = |name: &'static str| {
            rq.headers().iter().find(|h| h.field.equiv(name)).map(|h| h.value.as_str().to_string())
        };
        let (host, origin) = (get("Host"), get("Origin"));
        let (path, query) = match rq.url().split_once('?') {
            Some((p, q)) => (p.to_string(), Some(q.to_string())),
            None => (rq.url().to_string(), None),
        };
        let checked = shared.check(host.as_deref(), origin.as_deref(), query_token(query.as_deref()), shared.http_port);
        let plain = |code: u16, text: &str| {
            tiny_http::Response::from_string(format!("gate: {text}\n"))
                .with_status_code(code)
                .with_header(header("Content-Type", "text/plain; charset=utf-8"))
                .with_header(header("Cache-Control", "no-store"))
        };
        let response = if let Err(why) = checked {
            plain(403, &format!("forbidden: {why}"))
        } else if !matches!(rq.method(), tiny_http::Method::Get | tiny_http::Method::Head) {
            plain(405, "only GET here").with_header(header("Allow", "GET, HEAD"))
        } else {
            let hostname = host.as_deref().and_then(|h| h.rsplit_once(':')).map(|(h, _)| h).unwrap_or("127.0.0.1");
            let (body, kind) = match path.as_str() {
                "/" => (
                    PAGE_HTML.replace("__TOKEN__", &shared.token).replace("__WS_PORT__", &shared.ws_port.to_string()),
                    "text/html; charset=utf-8",
                ),
                "/web.js" => (PAGE_JS.to_string(), "text/javascript; charset=utf-8"),
                "/web.css" => (PAGE_CSS.to_string(), "text/css; charset=utf-8"),
                _ => {
                    let _ = rq.respond(plain(404, "not found"));
                    continue;
                }
            };
            let csp = format!(
                "default-src 'none'; script-src 'self'; style-src 'self'; img-src data:; connect-src ws://{hostname}:{}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
                shared.ws_port
            );
            tiny_http::Response::from_string(body)
                .with_header(header("Content-Type", kind))
                .with_header(header("Content-Security-Policy", &csp))
                .with_header(header("Referrer-Policy", "no-referrer"))
                .with_header(header("X-Frame-Options", "DENY"))
                .with_header(header("X-Content-Type-Options", "nosniff"))
                .with_header(header("Cache-Control", "no-store"))
        };
        let _ = rq.respond(response);
    }
}

fn serve_ws(listener: TcpListener, shared: Arc<Shared>) {
    for conn in listener.incoming() {
        let stream = match conn {
            Ok(s) => s,
            Err(_) => {
                // Out of descriptors, most likely: do not spin.
                std::thread::sleep(Duration::from_millis(50));
                continue;
            }
        };
        if shared.clients.load(Ordering::SeqCst) >= MAX_CLIENTS {
            continue;
        }
        shared.clients.fetch_add(1, Ordering::SeqCst);
        let s = shared.clone();
        let started = std::thread::Builder::new().name("web-client".into()).spawn(move || {
            ws_client(stream, &s);
            s.clients.fetch_sub(1, Ordering::SeqCst);
        });
        if started.is_err() {
            shared.clients.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

fn refuse(code: u16, why: &str) -> ErrorResponse {
    let mut r = ErrorResponse::new(Some(format!("gate: forbidden: {why}\n")));
    *r.status_mut() = tungstenite::http::StatusCode::from_u16(code).unwrap_or_default();
    r
}

/// One WebSocket connection: replay, then pending calls out and answers in, until it closes.
fn ws_client(stream: TcpStream, shared: &Shared) {
    // A client that never finishes its handshake does not hold a thread for long.
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = stream.set_nodelay(true);
    // The callback's type is tungstenite's.
    #[allow(clippy::result_large_err)]
    let check = |req: &Request, resp: Response| -> Result<Response, ErrorResponse> {
        let h = |n: &str| req.headers().get(n).and_then(|v| v.to_str().ok());
        let token = query_token(req.uri().query());
        match shared.check(h("host"), h("origin"), token, shared.ws_port) {
            Ok(()) => Ok(resp),
            Err(why) => Err(refuse(403, why)),
        }
    };
    let config = WebSocketConfig::default().max_message_size(Some(MAX_MESSAGE)).max_frame_size(Some(MAX_MESSAGE));
    let Ok(mut ws) = tungstenite::accept_hdr_with_config(stream, check, Some(config)) else { return };
    let Ok((wake_rx, wake_tx)) = UnixStream::pair() else { return };
    if ws.get_ref().set_nonblocking(true).is_err()
        || wake_rx.set_nonblocking(true).is_err()
        || wake_tx.set_nonblocking(true).is_err()
    {
        return;
    }
    let (tx, rx) = mpsc::channel();
    let id = shared.hub.connect(tx, wake_tx);
    let mut shown: Vec<String> = Vec::new();
    let outcome = ws_loop(&mut ws, &rx, &wake_rx, &mut shown, shared);
    let waiting = shared.hub.disconnect(id);
    if waiting > 0 {
        let why = match outcome {
            Err(e) => format!(" ({e})"),
            Ok(()) => String::new(),
        };
        eprintln!(
            "gate: a web page closed{why} while {waiting} call(s) waited for approval; nothing was approved, they stay pending (the terminal or another page can answer)"
        );
    }
}

fn ws_loop(
    ws: &mut tungstenite::WebSocket<TcpStream>,
    rx: &mpsc::Receiver<Outgoing>,
    wake: &UnixStream,
    shown: &mut Vec<String>,
    shared: &Shared,
) -> Result<(), String> {
    let would_block =
        |e: &tungstenite::Error| matches!(e, tungstenite::Error::Io(io) if io.kind() == io::ErrorKind::WouldBlock);
    loop {
        // Out: everything queued for this page.
        while let Ok(out) = rx.try_recv() {
            if let Some(id) = out.shows {
                shown.retain(|s| *s != id);
                shown.push(id);
            }
            match ws.write(Message::text(out.text)) {
                Ok(()) => {}
                Err(e) if would_block(&e) => {}
                Err(e) => return Err(format!("cannot write to it: {e}")),
            }
        }
        // In: every message that has arrived.
        loop {
            match ws.read() {
                Ok(Message::Text(t)) => {
                    let reply = match parse_answer(t.as_str()) {
                        Ok((id, reply)) => shared.hub.answer(id.as_deref(), shown, reply).err(),
                        Err(e) => Some(format!("cannot read the answer: {e}")),
                    };
                    if let Some(e) = reply {
                        let m = json!({"type": "error", "message": e}).to_string();
                        match ws.write(Message::text(m)) {
                            Ok(()) => {}
                            Err(e) if would_block(&e) => {}
                            Err(e) => return Err(format!("cannot write to it: {e}")),
                        }
                    }
                }
                Ok(Message::Close(_)) => {}
                Ok(_) => {}
                Err(e) if would_block(&e) => break,
                Err(tungstenite::Error::ConnectionClosed | tungstenite::Error::AlreadyClosed) => return Ok(()),
                Err(tungstenite::Error::Protocol(tungstenite::error::ProtocolError::ResetWithoutClosingHandshake)) => {
                    return Ok(())
                }
                Err(e) => return Err(e.to_string()),
            }
        }
        // Out again: the answers to what came in (errors), and whatever is still queued.
        let backlog = match ws.flush() {
            Ok(()) => false,
            Err(e) if would_block(&e) => true,
            Err(tungstenite::Error::ConnectionClosed) => return Ok(()),
            Err(e) => return Err(format!("cannot write to it: {e}")),
        };
        let timeout = if backlog { 10 } else { 1000 };
        let ready = sys::poll_readable(&[ws.get_ref().as_raw_fd(), wake.as_raw_fd()], timeout)
            .map_err(|e| format!("cannot wait for it: {e}"))?;
        if ready[1] {
            let mut buf = [0u8; 64];
            while matches!((&*wake).read(&mut buf), Ok(n) if n > 0) {}
        }
    }
}

/// gate's runtime directory: `$XDG_RUNTIME_DIR/gate`, else `gate-UID` in the temporary
/// directory; made 0700, and refused unless it is ours and closed to others.
pub fn runtime_dir() -> io::Result<PathBuf> {
    let dir = match std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from) {
        Some(d) if d.is_absolute() => d.join("gate"),
        _ => std::env::temp_dir().join(format!("gate-{}", sys::euid())),
    };
    std::fs::DirBuilder::new().recursive(true).mode(0o700).create(&dir)?;
    let m = std::fs::symlink_metadata(&dir)?;
    if !m.is_dir() || m.uid() != sys::euid() || m.mode() & 0o077 != 0 {
        return Err(io::Error::other(format!("{} is not a directory that only this user can open", dir.display())));
    }
    Ok(dir)
}

/// `web-PID.url` in [`runtime_dir`], mode 0600: the page's URL, then the WebSocket's.
fn write_url_file(url: &str, ws_url: &str) -> io::Result<PathBuf> {
    let path = runtime_dir()?.join(format!("web-{}.url", std::process::id()));
    let _ = std::fs::remove_file(&path);
    let mut f = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o600).open(&path)?;
    lock_files().push(path.clone());
    f.write_all(format!("{url}\n{ws_url}\n").as_bytes())?;
    Ok(path)
}

/// `--web`'s ADDR: `HOST:PORT`, `HOST` (a random port), `PORT` (on 127.0.0.1), with `localhost`
/// for 127.0.0.1.
pub fn parse_addr(text: &str) -> anyhow::Result<SocketAddr> {
    let t = text.trim();
    let local = |port: u16| SocketAddr::from((Ipv4Addr::LOCALHOST, port));
    if let Ok(a) = t.parse::<SocketAddr>() {
        return Ok(a);
    }
    if let Ok(ip) = t.trim_start_matches('[').trim_end_matches(']').parse::<IpAddr>() {
        return Ok(SocketAddr::new(ip, 0));
    }
    if let Ok(port) = t.parse::<u16>() {
        return Ok(local(port));
    }
    if t.eq_ignore_ascii_case("localhost") {
        return Ok(local(0));
    }
    if let Some(port) = t.strip_prefix("localhost:").and_then(|p| p.parse::<u16>().ok()) {
        return Ok(local(port));
    }
    bail!("--web {text}: not an address (HOST:PORT, an IP address, or a port)")
}

/// Run `--notify`'s CMD with `sh -c` for a new pending call, without waiting for it: a thread
/// reaps it, and kills it after [`NOTIFY_BOUND`]. Its stdout goes to gate's stderr.
pub fn notify(cmd: &str, summary: &str, tool: &str, url: Option<&str>) {
    use std::os::fd::AsFd;
    let out = io::stderr().as_fd().try_clone_to_owned().map(std::process::Stdio::from);
    let mut c = std::process::Command::new("/bin/sh");
    c.arg("-c")
        .arg(cmd)
        .env("GATE_SUMMARY", summary)
        .env("GATE_TOOL", tool)
        .env("GATE_URL", url.unwrap_or(""))
        .stdin(std::process::Stdio::null())
        .stdout(out.unwrap_or_else(|_| std::process::Stdio::null()));
    match c.spawn() {
        Ok(mut child) => {
            let _ = std::thread::Builder::new().name("notify".into()).spawn(move || {
                let end = Instant::now() + NOTIFY_BOUND;
                loop {
                    match child.try_wait() {
                        Ok(Some(_)) | Err(_) => return,
                        Ok(None) if Instant::now() >= end => {
                            eprintln!(
                                "gate: --notify command still running after {} s; killed",
                                NOTIFY_BOUND.as_secs()
                            );
                            let _ = child.kill();
                            let _ = child.wait();
                            return;
                        }
                        Ok(None) => std::thread::sleep(Duration::from_millis(50)),
                    }
                }
            });
        }
        Err(e) => eprintln!("gate: cannot run the --notify command: {e}"),
    }
}

/// The approver of `gate run --web`: the page, racing the terminal prompt when there is one.
pub struct WebApprover {
    server: WebServer,
    term: Option<TermPrompt>,
    timeout: Option<Duration>,
    notify: Option<String>,
}

impl WebApprover {
    /// Serve the page for `gate run` and print where it is.
    pub fn start(args: &RunArgs, term: Option<TermPrompt>) -> anyhow::Result<WebApprover> {
        let addr = parse_addr(args.web.as_deref().unwrap_or("127.0.0.1:0"))?;
        let server = WebServer::start(&WebConfig { addr, bind_any: args.web_bind_any, url_file: true })?;
        if !addr.ip().is_loopback() {
            eprintln!(
                "gate: warning: the approval page listens on {} (not loopback): anyone who can reach it and has the token can approve calls; plain HTTP, so use it on a network you trust",
                addr.ip()
            );
        }
        eprintln!("gate: approve in a browser: {}", server.url());
        match server.url_file() {
            Some(f) => eprintln!("gate: (also in {}; WebSocket for other clients: {})", f.display(), server.ws_url()),
            None => eprintln!("gate: (WebSocket for other clients: {})", server.ws_url()),
        }
        Ok(WebApprover {
            server,
            term,
            timeout: args.prompt_timeout.map(Duration::from_secs),
            notify: args.notify.clone(),
        })
    }

    /// Wait for the page alone.
    fn page_only(&self, t: Ticket, info: &PromptInfo) -> Result<Reply, ApproveError> {
        let deadline = self.timeout.map(|d| Instant::now() + d);
        match self.server.wait(&t, || info.cancel.agent_gone() || info.cancel.withdrawn(), deadline) {
            Waited::Answered => self.server.settle(t, None, "page").ok_or(ApproveError::Withdrawn),
            Waited::Stopped => {
                self.server.settle(t, None, "agent_exited");
                Err(ApproveError::AgentGone)
            }
            Waited::TimedOut => {
                let secs = self.timeout.map(|d| d.as_secs()).unwrap_or(0);
                let reply = Reply {
                    answer: Answer::RejectSoft { feedback: None },
                    by: By::NonInteractive,
                    reason: Some(format!("nobody answered within {secs} s (--prompt-timeout)")),
                };
                Ok(self.server.settle(t, Some(&reply), "timeout").unwrap_or(reply))
            }
        }
    }
}

/// Sets its flag (under the hub's lock, so no wake-up is lost) when the terminal prompt ends,
/// whatever the way out.
struct Finished<'a>(&'a AtomicBool, &'a Hub);

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        let _st = self.1.lock();
        self.0.store(true, Ordering::SeqCst);
        self.1.changed.notify_all();
    }
}

impl Approver for WebApprover {
    fn uses_terminal(&self) -> bool {
        self.term.is_some()
    }

    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        let t = self.server.post(info);
        if let Some(cmd) = &self.notify {
            notify(cmd, &summarize(&info.call.tool, &info.call.arguments), &info.call.tool, Some(self.server.url()));
        }
        let Some(term) = self.term.as_mut() else {
            eprintln!(
                "gate: {} needs approval (request {}); answer in the web page",
                sanitize(&info.call.tool),
                sanitize(&t.id)
            );
            return self.page_only(t, info);
        };
        // The race: the terminal prompt here, a watcher for the page's answer beside it that
        // withdraws the prompt at once.
        let finished = AtomicBool::new(false);
        let hub = &self.server.shared.hub;
        let seq = t.seq;
        let got = std::thread::scope(|s| {
            s.spawn(|| {
                let stop = || finished.load(Ordering::SeqCst);
                if let Waited::Answered = hub.wait(seq, stop, None) {
                    info.cancel.withdraw();
                }
            });
            let _done = Finished(&finished, hub);
            term.ask(info)
        });
        match got {
            Ok(reply) => match self.server.settle(t, Some(&reply), "terminal") {
                Some(page) => {
                    eprintln!("gate: the web page answered first; its answer holds");
                    Ok(page)
                }
                None => Ok(reply),
            },
            Err(ApproveError::Withdrawn) => self.server.settle(t, None, "page").ok_or(ApproveError::Withdrawn),
            Err(ApproveError::Terminal(e)) => {
                eprintln!("gate: the terminal prompt failed ({e}); the web page can still answer");
                self.term = None;
                self.page_only(t, info)
            }
            Err(e) => {
                if let Some(page) = self.server.settle(t, None, "agent_exited") {
                    return Ok(page);
                }
                Err(e)
            }
        }
    }
}

/// `--notify` without `--web`: the command runs, then the approver asks as usual.
pub struct Notifying {
    pub inner: Box<dyn Approver>,
    pub cmd: String,
}

impl Approver for Notifying {
    fn uses_terminal(&self) -> bool {
        self.inner.uses_terminal()
    }

    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        notify(&self.cmd, &summarize(&info.call.tool, &info.call.arguments), &info.call.tool, None);
        self.inner.ask(info)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret(b"abc", b"abc"));
        assert!(!same_secret(b"abd", b"abc"));
        assert!(!same_secret(b"ab", b"abc"));
        assert!(!same_secret(b"abcd", b"abc"));
        assert!(!same_secret(b"", b"abc"));
    }

    #[test]
    fn hosts_are_literals_with_the_port() {
        assert!(host_ok("127.0.0.1:8080", 8080, true));
        assert!(host_ok("localhost:8080", 8080, true));
        assert!(host_ok("[::1]:8080", 8080, true));
        assert!(!host_ok("127.0.0.1:8081", 8080, true));
        assert!(!host_ok("evil.example:8080", 8080, true));
        assert!(!host_ok("127.0.0.1", 8080, true));
        assert!(!host_ok("192.168.1.2:8080", 8080, true));
        assert!(host_ok("192.168.1.2:8080", 8080, false));
        assert!(!host_ok("attacker.example:8080", 8080, false));
        assert!(origin_ok("http://127.0.0.1:8080", 8080, true));
        assert!(!origin_ok("https://127.0.0.1:8080", 8080, true));
        assert!(!origin_ok("null", 8080, true));
        assert!(!origin_ok("http://evil.example:8080", 8080, true));
    }

    #[test]
    fn answers_on_the_wire() {
        let (id, r) = parse_answer(r#"{"approved":true,"scope":"session"}"#).unwrap();
        assert_eq!((id, r.answer), (None, Answer::Session));
        let (id, r) =
            parse_answer(r#"{"id":"c2","approved":false,"mode":"reject_soft","feedback":" use pnpm "}"#).unwrap();
        assert_eq!(id.as_deref(), Some("c2"));
        assert_eq!(r.answer, Answer::RejectSoft { feedback: Some("use pnpm".into()) });
        // tool_approval: a rejection without a mode stops the batch.
        let (_, r) = parse_answer(r#"{"approved":false}"#).unwrap();
        assert_eq!(r.answer, Answer::RejectHard { feedback: None });
        assert!(parse_answer(r#"{"approved":"yes"}"#).is_err());
        assert!(parse_answer(r#"{"approved":true,"scope":"forever"}"#).is_err());
        assert!(parse_answer("[]").is_err());
        assert!(parse_answer("{").is_err());
    }

    #[test]
    fn addresses() {
        assert_eq!(parse_addr("8080").unwrap(), "127.0.0.1:8080".parse().unwrap());
        assert_eq!(parse_addr("localhost:9").unwrap(), "127.0.0.1:9".parse().unwrap());
        assert_eq!(parse_addr("0.0.0.0").unwrap(), "0.0.0.0:0".parse().unwrap());
        assert_eq!(parse_addr("[::1]:7").unwrap(), "[::1]:7".parse().unwrap());
        assert!(parse_addr("example.com:80").is_err());
    }
}
