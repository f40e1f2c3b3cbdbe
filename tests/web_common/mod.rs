//! Shared by the `web_*` integration tests: `gate run --web` through the real binary (with the
//! scripted agent of `run_common`), its URL read from the file gate writes in its runtime
//! directory, a plain HTTP/1.1 client for status codes, and a tungstenite WebSocket client.
#![allow(dead_code)]

pub mod cdp;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::{Duration, Instant};

use serde_json::Value;
use tungstenite::{Message, WebSocket};

use crate::run_common::*;

/// Where `gate run --web` serves, as read from its URL file.
pub struct Web {
    pub page: String,
    pub ws: String,
    pub http_port: u16,
    pub ws_port: u16,
    pub token: String,
    pub file: std::path::PathBuf,
}

fn port_of(url: &str) -> u16 {
    let rest = url.split("://").nth(1).unwrap();
    let hostport = rest.split('/').next().unwrap();
    hostport.rsplit_once(':').unwrap().1.parse().unwrap()
}

/// `gate run --web ARGS -- agent OPS` with its runtime directory in `rt`; waits for the URL.
pub fn start(ws: &Ws, rt: &Path, args: &[&str], ops: &[&str]) -> (Running, Web) {
    let mut a = vec!["run", "--web"];
    a.extend_from_slice(args);
    let mut cmd = ws.command(&a, ops);
    cmd.env("XDG_RUNTIME_DIR", rt);
    let running = Running::start(cmd, None);
    let file = rt.join("gate").join(format!("web-{}.url", running.pid()));
    let deadline = Instant::now() + TIMEOUT;
    let text = loop {
        if let Ok(t) = std::fs::read_to_string(&file) {
            if t.lines().count() >= 2 {
                break t;
            }
        }
        assert!(Instant::now() < deadline, "gate never wrote {}", file.display());
        std::thread::sleep(Duration::from_millis(10));
    };
    let mut lines = text.lines();
    let page = lines.next().unwrap().to_string();
    let wsu = lines.next().unwrap().to_string();
    let token = page.split("token=").nth(1).unwrap().to_string();
    let web = Web { http_port: port_of(&page), ws_port: port_of(&wsu), page, ws: wsu, token, file };
    (running, web)
}

/// A GET with exactly these headers; the status code and the body.
pub fn get(port: u16, target: &str, host: &str, origin: Option<&str>) -> (u16, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    s.set_read_timeout(Some(TIMEOUT)).unwrap();
    let mut req = format!("GET {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if let Some(o) = origin {
        req.push_str(&format!("Origin: {o}\r\n"));
    }
    req.push_str("\r\n");
    s.write_all(req.as_bytes()).unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let code = text.split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0);
    let body = text.split_once("\r\n\r\n").map(|(_, b)| b.to_string()).unwrap_or_default();
    (code, body)
}

pub type Client = WebSocket<TcpStream>;

/// A WebSocket client, with extra request headers; `Err(status)` when refused.
pub fn ws_connect_with(url: &str, headers: &[(&str, &str)]) -> Result<Client, u16> {
    use tungstenite::client::IntoClientRequest;
    let mut req = url.into_client_request().unwrap();
    for (k, v) in headers {
        req.headers_mut().insert(
            tungstenite::http::HeaderName::from_bytes(k.as_bytes()).unwrap(),
            tungstenite::http::HeaderValue::from_str(v).unwrap(),
        );
    }
    let port = port_of(url);
    let stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(TIMEOUT)).unwrap();
    match tungstenite::client(req, stream) {
        Ok((ws, _)) => Ok(ws),
        Err(tungstenite::HandshakeError::Failure(tungstenite::Error::Http(r))) => Err(r.status().as_u16()),
        Err(e) => panic!("WebSocket handshake failed: {e}"),
    }
}

pub fn ws_connect(web: &Web) -> Client {
    ws_connect_with(&web.ws, &[]).expect("the WebSocket accepts the token")
}

/// The next JSON message of this `type` (others are skipped).
pub fn next_of(ws: &mut Client, kind: &str) -> Value {
    loop {
        match ws.read().expect("a message from gate") {
            Message::Text(t) => {
                let v: Value = serde_json::from_str(t.as_str()).unwrap();
                if v["type"] == kind {
                    return v;
                }
            }
            Message::Close(_) => panic!("gate closed the WebSocket"),
            _ => {}
        }
    }
}

pub fn send(ws: &mut Client, v: Value) {
    ws.send(Message::text(v.to_string())).unwrap();
}

/// The agent's log has a decision for `id`.
pub fn decided(ws: &Ws, id: &str) -> bool {
    ws.log()
        .iter()
        .any(|l| l.starts_with("< ") && l.contains("\"decision\"") && l.contains(&format!("\"id\":\"{id}\"")))
}
