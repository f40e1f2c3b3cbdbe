//! A headless Chromium driven over its DevTools protocol (a WebSocket, tungstenite client):
//! Debian's `chromium`, started with a throwaway profile and nothing that reaches the network.
#![allow(dead_code)]

use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tungstenite::{Message, WebSocket};

use crate::run_common::TIMEOUT;

/// The browser to use: `$GATE_CHROMIUM`, else `chromium` (Debian) or `chromium-browser` on PATH.
pub fn find() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("GATE_CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for name in ["chromium", "chromium-browser"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// The browser, or `None` after printing why the test is skipped (a failure when
/// `GATE_REQUIRE_AGENTS` is set, as in CI).
pub fn require(test: &str) -> Option<PathBuf> {
    match find() {
        Some(p) => Some(p),
        None => {
            let why = "no chromium on PATH (Debian: apt-get install chromium; or set GATE_CHROMIUM)";
            if std::env::var("GATE_REQUIRE_AGENTS").is_ok_and(|v| !v.is_empty() && v != "0") {
                panic!("{test}: {why}, and GATE_REQUIRE_AGENTS is set");
            }
            // Past libtest's capture of `eprintln!`, so that a passing run shows the skip.
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr().lock(), "SKIPPED {test}: {why}");
            None
        }
    }
}

pub struct Browser {
    child: Child,
    _profile: tempfile::TempDir,
    ws: WebSocket<TcpStream>,
    next: u64,
}

/// One tab.
pub struct Tab {
    pub target: String,
    pub session: String,
}

impl Browser {
    pub fn start(exe: &std::path::Path) -> Browser {
        let profile = tempfile::tempdir().unwrap();
        let child = Command::new(exe)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--no-default-browser-check",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--disable-extensions",
                "--disable-dev-shm-usage",
                "--remote-debugging-port=0",
                "--window-size=1200,900",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start chromium");
        // Chromium writes its port and the browser's DevTools path here once it listens.
        let file = profile.path().join("DevToolsActivePort");
        let deadline = Instant::now() + TIMEOUT;
        let (port, path) = loop {
            if let Ok(t) = std::fs::read_to_string(&file) {
                let mut l = t.lines();
                if let (Some(p), Some(path)) = (l.next(), l.next()) {
                    break (p.trim().to_string(), path.trim().to_string());
                }
            }
            assert!(Instant::now() < deadline, "chromium never opened its DevTools port");
            std::thread::sleep(Duration::from_millis(20));
        };
        let url = format!("ws://127.0.0.1:{port}{path}");
        let stream = TcpStream::connect(("127.0.0.1", port.parse::<u16>().unwrap())).unwrap();
        stream.set_read_timeout(Some(TIMEOUT)).unwrap();
        let (ws, _) = tungstenite::client(url.as_str(), stream).expect("DevTools WebSocket");
        Browser { child, _profile: profile, ws, next: 0 }
    }

    /// One DevTools command; its `result` (events on the way are dropped).
    pub fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next += 1;
        let id = self.next;
        let mut m = json!({"id": id, "method": method, "params": params});
        if let Some(s) = session {
            m["sessionId"] = json!(s);
        }
        self.ws.send(Message::text(m.to_string())).unwrap();
        loop {
            let Message::Text(t) = self.ws.read().expect("DevTools answer") else { continue };
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            if v["id"] == id {
                if let Some(e) = v.get("error") {
                    panic!("{method}: {e}");
                }
                return v["result"].clone();
            }
        }
    }

    pub fn open(&mut self, url: &str) -> Tab {
        let r = self.call(None, "Target.createTarget", json!({"url": url}));
        let target = r["targetId"].as_str().unwrap().to_string();
        let r = self.call(None, "Target.attachToTarget", json!({"targetId": target, "flatten": true}));
        let session = r["sessionId"].as_str().unwrap().to_string();
        Tab { target, session }
    }

    pub fn close(&mut self, tab: &Tab) {
        self.call(None, "Target.closeTarget", json!({"targetId": tab.target}));
    }

    /// Evaluate an expression in the tab; its value.
    pub fn eval(&mut self, tab: &Tab, expr: &str) -> Value {
        let r = self.call(
            Some(&tab.session),
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        if let Some(e) = r.get("exceptionDetails") {
            panic!("{expr}: {e}");
        }
        r["result"]["value"].clone()
    }

    /// Wait until `expr` is true in the tab.
    pub fn wait_for(&mut self, tab: &Tab, expr: &str) {
        let deadline = Instant::now() + TIMEOUT;
        loop {
            if self.eval(tab, expr) == json!(true) {
                return;
            }
            assert!(Instant::now() < deadline, "never true in the page: {expr}");
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// A real mouse click (pressed and released) in the middle of the element.
    pub fn click(&mut self, tab: &Tab, selector: &str) {
        let sel = serde_json::to_string(selector).unwrap();
        let at = self.eval(
            tab,
            &format!(
                "(() => {{ const e = document.querySelector({sel}); if (!e) return null; e.scrollIntoView({{block: 'center'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()"
            ),
        );
        let (x, y) = (at[0].as_f64().unwrap_or_else(|| panic!("no {selector} in the page")), at[1].as_f64().unwrap());
        for kind in ["mouseMoved", "mousePressed", "mouseReleased"] {
            self.call(
                Some(&tab.session),
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Type text into the focused element.
    pub fn type_text(&mut self, tab: &Tab, text: &str) {
        self.call(Some(&tab.session), "Input.insertText", json!({"text": text}));
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
