//! `gate run -- pi ARGS`: pi on gate's own stdin, stdout and stderr, started as
//! `pi -e EXTENSION [--no-extensions] ARGS` with `$GATE_SOCKET` set, and every `tool_call`
//! decided by the session through the pi adapter ([`crate::protocol::pi`]).
//!
//! What is here and not in the adapter: the extension's file (read-only, in a private
//! directory outside the workspace, removed when gate exits), the state behind the socket
//! (which connection asked about which call), and the [`PiApprover`]: when the policy asks,
//! `--strict`/`--approve-all`/`--non-interactive` settle it; otherwise a call from a pi with a UI
//! (its terminal UI, or an RPC client) is put to the person in pi's own dialog, whose answer
//! comes back on the same connection and is taken as the person's (so "always", the session
//! memory and the audit log see it); any other call goes to gate's own prompt, or the
//! non-interactive rule.

use std::collections::HashMap;
use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Prepared, Served};
use crate::approve::{Answer, ApproveError, Approver, PromptInfo, Reply};
use crate::cli::RunArgs;
use crate::policy::Call;
use crate::protocol::pi::{self as adapter, Choice, Link, PiDecoder, PiEncoder};
use crate::protocol::{By, CallId, Encoder, Resolution};

/// How much longer than gate's prompt time-out the extension waits before it blocks a call.
const EXTENSION_MARGIN: Duration = Duration::from_secs(30);
/// How much longer than gate's prompt time-out pi's dialog waits by itself. gate answers deny
/// when its prompt time-out expires, which closes the dialog; the dialog's own time-out is only
/// a fallback.
const DIALOG_GRACE: Duration = Duration::from_secs(5);

pub(crate) fn run(mut prep: Prepared, args: &RunArgs) -> anyhow::Result<i32> {
    let Some((program, rest)) = args.program.split_first() else {
        anyhow::bail!("no program to run");
    };
    if args.pty {
        eprintln!("gate: --pty is not used with pi: pi runs on gate's own terminal and asks over GATE_SOCKET");
    }
    let untrusted = prep.policy.agents().pi_untrusted_extensions;
    report_project_extensions(&prep.cwd, untrusted);
    let file = match ExtensionFile::write() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("gate: cannot write gate's pi extension: {e}");
            return Ok(2);
        }
    };
    let mut argv: Vec<OsString> = vec![program.clone(), "-e".into(), file.path.clone().into_os_string()];
    if untrusted {
        argv.push("--no-extensions".into());
    }
    argv.extend(rest.iter().cloned());
    let mut env = Vec::new();
    if let Some(secs) = args.prompt_timeout {
        let ms = (Duration::from_secs(secs) + EXTENSION_MARGIN).as_millis();
        env.push((OsString::from("GATE_PI_TIMEOUT_MS"), OsString::from(ms.to_string())));
    }
    // pi's terminal UI owns the screen: no notices over it (pi shows each blocked call itself).
    if runs_tui(rest) {
        prep.quiet = true;
    }

    let shared = Arc::new(Shared::default());
    let (answers_tx, answers_rx) = mpsc::channel();
    let inner = std::mem::replace(&mut prep.approver, Box::new(crate::approve::Strict));
    prep.approver = Box::new(PiApprover {
        inner,
        settles: args.strict || args.approve_all || args.non_interactive,
        shared: shared.clone(),
        answers: answers_rx,
        prompt_timeout: args.prompt_timeout.map(Duration::from_secs),
    });
    let gate_cwd = prep.cwd.to_str().map(str::to_string);
    let decoder_shared = shared.clone();
    let served = Served {
        decoder: Box::new(move || {
            let conn = decoder_shared.next_conn.fetch_add(1, Ordering::Relaxed) + 1;
            Box::new(PiDecoder {
                link: Box::new(ConnLink {
                    shared: decoder_shared.clone(),
                    conn,
                    reply: None,
                    answers: answers_tx.clone(),
                    keys: Vec::new(),
                }),
                gate_cwd: gate_cwd.clone(),
            })
        }),
        encoder: Box::new(ForgettingEncoder { inner: PiEncoder, shared: shared.clone() }),
        // Always offered: a pi left in a background group would stop at its first terminal use.
        terminal: true,
    };
    let code = super::run_served(prep, &argv, env, served)?;
    if code != 0 && !shared.loaded.load(Ordering::SeqCst) {
        eprintln!(
            "gate: pi exited with status {code} before gate's extension ({}) connected; if pi could not load it, no tool call ran",
            file.path.display()
        );
    }
    drop(file);
    Ok(code)
}

/// Will pi start its terminal UI? Not with `-p`/`--print` or `--mode json|rpc`, nor without a
/// terminal on stdin and stdout.
fn runs_tui(args: &[OsString]) -> bool {
    let args: Vec<String> = args.iter().map(|a| a.to_string_lossy().into_owned()).collect();
    let headless = args.iter().enumerate().any(|(i, a)| {
        let mode = match a.strip_prefix("--mode=") {
            Some(m) => Some(m),
            None if a == "--mode" => args.get(i + 1).map(String::as_str),
            None => None,
        };
        a == "-p" || a == "--print" || mode.is_some_and(|m| m != "text")
    });
    !headless && super::sys::isatty(0) && super::sys::isatty(1)
}

/// The extensions pi discovers in the project (`.pi/extensions/`: `*.ts`, `*.js`, folders with
/// an index or a package.json), and a project settings file that may name more.
pub fn project_extensions(cwd: &Path) -> Vec<String> {
    let dir = cwd.join(".pi").join("extensions");
    let mut found = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        for e in entries.flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            let p = e.path();
            let is_file = p.is_file() && (name.ends_with(".ts") || name.ends_with(".js"));
            let is_dir = p.is_dir() && ["index.ts", "index.js", "package.json"].iter().any(|f| p.join(f).is_file());
            if is_file || is_dir {
                found.push(format!(".pi/extensions/{name}"));
            }
        }
    }
    found.sort();
    let settings = cwd.join(".pi").join("settings.json");
    if let Ok(text) = std::fs::read_to_string(&settings) {
        if let Ok(Value::Object(m)) = serde_json::from_str::<Value>(&text) {
            let named = ["extensions", "packages"]
                .iter()
                .any(|k| m.get(*k).and_then(Value::as_array).is_some_and(|a| !a.is_empty()));
            if named {
                found.push(".pi/settings.json (extensions, packages)".into());
            }
        }
    }
    found
}

fn report_project_extensions(cwd: &Path, untrusted: bool) {
    let found = project_extensions(cwd);
    if found.is_empty() {
        return;
    }
    let list = crate::approve::tty::sanitize(&found.join(", "));
    if untrusted {
        eprintln!(
            "gate: pi starts with --no-extensions (agents.pi.extensions: untrusted), so these do not load: {list}"
        );
    } else {
        eprintln!(
            "gate: pi will also load this project's extensions, after gate's: {list}. They run code when pi starts, which gate does not see; `agents: {{ pi: {{ extensions: untrusted }} }}` in host.yaml starts pi with --no-extensions"
        );
    }
}

/// gate's extension, written read-only (0400) into a new private directory (0700) outside
/// the workspace; both are removed when this is dropped.
struct ExtensionFile {
    dir: PathBuf,
    path: PathBuf,
}

impl ExtensionFile {
    fn write() -> std::io::Result<ExtensionFile> {
        let dir = super::socket::private_dir()?;
        let f = ExtensionFile { path: dir.join("gate-pi.js"), dir };
        let mut out = std::fs::OpenOptions::new().write(true).create_new(true).mode(0o400).open(&f.path)?;
        out.write_all(adapter::EXTENSION.as_bytes())?;
        out.sync_all()?;
        std::fs::set_permissions(&f.path, std::fs::Permissions::from_mode(0o400))?;
        Ok(f)
    }
}

impl Drop for ExtensionFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.path);
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// One call that came in on a connection and is not answered yet.
struct Open {
    wire: Value,
    shown: String,
    has_ui: bool,
    reply: Option<Sender<Vec<u8>>>,
}

/// What the connections and the approver share.
#[derive(Default)]
struct Shared {
    calls: Mutex<HashMap<String, Open>>,
    /// The extension said hello (so pi loaded it).
    loaded: AtomicBool,
    next_conn: AtomicU64,
}

impl Shared {
    fn calls(&self) -> std::sync::MutexGuard<'_, HashMap<String, Open>> {
        self.calls.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What a connection tells the approver.
#[derive(Debug)]
enum Said {
    /// The person's choice in pi's dialog (none: dismissed, or timed out in pi).
    Answer(Option<String>),
    /// The connection closed with the call open.
    Closed,
}

/// One connection's side of [`Shared`].
struct ConnLink {
    shared: Arc<Shared>,
    conn: u64,
    reply: Option<Sender<Vec<u8>>>,
    answers: Sender<(String, Said)>,
    keys: Vec<String>,
}

impl Link for ConnLink {
    fn conn(&self) -> u64 {
        self.conn
    }

    fn connected(&mut self, reply: &Sender<Vec<u8>>) {
        self.reply = Some(reply.clone());
    }

    fn hello(&mut self) -> bool {
        self.shared.loaded.store(true, Ordering::SeqCst);
        // Answered here, not by the session: a prompt open for another connection must not
        // keep a new extension waiting for its handshake.
        match &self.reply {
            Some(r) => r.send(adapter::welcome_line()).is_ok(),
            None => false,
        }
    }

    fn call(&mut self, key: &str, wire: &Value, has_ui: bool) {
        let mut calls = self.shared.calls();
        self.keys.retain(|k| calls.contains_key(k));
        let shown = match wire {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        calls.insert(key.to_string(), Open { wire: wire.clone(), shown, has_ui, reply: self.reply.clone() });
        self.keys.push(key.to_string());
    }

    fn answer(&mut self, key: &str, choice: Option<String>) {
        let _ = self.answers.send((key.to_string(), Said::Answer(choice)));
    }
}

impl Drop for ConnLink {
    fn drop(&mut self) {
        let mut calls = self.shared.calls();
        for k in self.keys.drain(..) {
            if calls.remove(&k).is_some() {
                let _ = self.answers.send((k, Said::Closed));
            }
        }
    }
}

/// The pi encoder, forgetting each call once it is answered.
struct ForgettingEncoder {
    inner: PiEncoder,
    shared: Arc<Shared>,
}

impl Encoder for ForgettingEncoder {
    fn resolution(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<u8> {
        self.shared.calls().remove(&id.key);
        self.inner.resolution(id, call, r)
    }

    fn welcome(&mut self, mode: &Value, disabled_tools: &[String]) -> Option<Vec<u8>> {
        self.inner.welcome(mode, disabled_tools)
    }

    fn policy_changed(&mut self, disabled_tools: &[String]) -> Option<Vec<u8>> {
        self.inner.policy_changed(disabled_tools)
    }
}

/// Asks the person in pi's dialog when pi has a UI; otherwise as `inner` does.
struct PiApprover {
    inner: Box<dyn Approver>,
    /// `--strict`, `--approve-all` or `--non-interactive`: `inner` answers every call.
    settles: bool,
    shared: Arc<Shared>,
    answers: Receiver<(String, Said)>,
    prompt_timeout: Option<Duration>,
}

impl PiApprover {
    /// The open call the session asks about, if it came from a pi with a UI: its key, id and
    /// connection. Matched by the id shown; if two open calls share it, gate's own prompt asks.
    fn dialog_for(&self, info: &PromptInfo) -> Option<(String, Value, Sender<Vec<u8>>)> {
        self.dialog_for_id(info.id)
    }

    fn dialog_for_id(&self, id: &str) -> Option<(String, Value, Sender<Vec<u8>>)> {
        let calls = self.shared.calls();
        let mut found = calls.iter().filter(|(_, o)| o.shown == id);
        let (key, open) = found.next()?;
        if found.next().is_some() || !open.has_ui {
            return None;
        }
        Some((key.clone(), open.wire.clone(), open.reply.clone()?))
    }

    fn ask_in_dialog(
        &mut self,
        info: &PromptInfo,
        key: &str,
        wire: &Value,
        reply: &Sender<Vec<u8>>,
    ) -> Result<Reply, ApproveError> {
        // Answers to earlier dialogs that came too late mean nothing now.
        while self.answers.try_recv().is_ok() {}
        // Its connection may have closed before now (and its notice been drained just above).
        if !self.shared.calls().contains_key(key) {
            return Err(ApproveError::AgentGone);
        }
        let list = adapter::choices(!info.suggested.is_empty(), true);
        let title = adapter::dialog_title(info.call, &crate::approve::why(info.decision));
        let timeout_ms = self.prompt_timeout.map(|t| (t + DIALOG_GRACE).as_millis() as u64);
        reply.send(adapter::ask_line(wire, &title, &list, timeout_ms)).map_err(|_| ApproveError::AgentGone)?;
        let deadline = self.prompt_timeout.map(|t| Instant::now() + t);
        loop {
            match self.answers.recv_timeout(Duration::from_millis(100)) {
                Ok((k, Said::Answer(choice))) if k == key => return Ok(reply_for(Choice::parse(choice.as_deref()))),
                Ok((k, Said::Closed)) if k == key => return Err(ApproveError::AgentGone),
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => return Err(ApproveError::AgentGone),
            }
            if info.cancel.agent_gone() {
                return Err(ApproveError::AgentGone);
            }
            if info.cancel.interrupted() {
                return Ok(Reply {
                    answer: Answer::RejectHard { feedback: None },
                    by: By::Person,
                    reason: Some("Ctrl-C while pi's dialog was open".into()),
                });
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                let secs = self.prompt_timeout.map(|t| t.as_secs()).unwrap_or(0);
                return Ok(Reply {
                    answer: Answer::RejectSoft { feedback: None },
                    by: By::NonInteractive,
                    reason: Some(format!("nobody answered pi's dialog within {secs} s (--prompt-timeout)")),
                });
            }
        }
    }
}

/// The person's choice in pi's dialog as an answer.
fn reply_for(choice: Option<Choice>) -> Reply {
    let (answer, reason) = match choice {
        Some(Choice::Once) => (Answer::Once, "approved once by the user in pi's dialog"),
        Some(Choice::Session) => (Answer::Session, "approved by the user in pi's dialog for this session"),
        Some(Choice::Always) => (Answer::Always, "approved by the user in pi's dialog for good"),
        Some(Choice::Deny) => (Answer::RejectSoft { feedback: None }, "rejected by the user in pi's dialog"),
        None => (Answer::RejectSoft { feedback: None }, "pi's dialog was closed without an answer"),
    };
    Reply { answer, by: By::Person, reason: Some(reason.into()) }
}

impl Approver for PiApprover {
    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        if !self.settles {
            if let Some((key, wire, reply)) = self.dialog_for(info) {
                return self.ask_in_dialog(info, &key, &wire, &reply);
            }
        }
        self.inner.ask(info)
    }

    fn uses_terminal(&self) -> bool {
        self.inner.uses_terminal()
    }

    fn uses_terminal_for(&self, id: &str) -> bool {
        if !self.settles && self.dialog_for_id(id).is_some() {
            // pi's dialog asks: the terminal (and Ctrl-C) stay pi's.
            return false;
        }
        self.inner.uses_terminal()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tui_is_told_from_the_arguments() {
        let a = |v: &[&str]| v.iter().map(OsString::from).collect::<Vec<_>>();
        // Tests have no terminal on stdout: never a TUI.
        assert!(!runs_tui(&a(&[])));
        assert!(!runs_tui(&a(&["-p", "x"])));
        assert!(!runs_tui(&a(&["--mode", "rpc"])));
    }

    #[test]
    fn project_extensions_are_listed() {
        let d = tempfile::tempdir().unwrap();
        assert!(project_extensions(d.path()).is_empty());
        let ext = d.path().join(".pi/extensions");
        std::fs::create_dir_all(ext.join("pkg")).unwrap();
        std::fs::write(ext.join("b.ts"), "").unwrap();
        std::fs::write(ext.join("a.js"), "").unwrap();
        std::fs::write(ext.join("notes.md"), "").unwrap();
        std::fs::write(ext.join("pkg/index.ts"), "").unwrap();
        std::fs::write(d.path().join(".pi/settings.json"), r#"{"packages":["npm:x"]}"#).unwrap();
        assert_eq!(
            project_extensions(d.path()),
            vec![
                ".pi/extensions/a.js",
                ".pi/extensions/b.ts",
                ".pi/extensions/pkg",
                ".pi/settings.json (extensions, packages)"
            ]
        );
    }

    #[test]
    fn extension_file_is_private_and_read_only() {
        use std::os::unix::fs::MetadataExt;
        let f = ExtensionFile::write().unwrap();
        assert_eq!(std::fs::metadata(&f.path).unwrap().mode() & 0o777, 0o400);
        assert_eq!(std::fs::metadata(&f.dir).unwrap().mode() & 0o777, 0o700);
        assert_eq!(std::fs::read_to_string(&f.path).unwrap(), adapter::EXTENSION);
        let (p, dir) = (f.path.clone(), f.dir.clone());
        drop(f);
        assert!(!p.exists() && !dir.exists());
    }

    #[test]
    fn dialog_choices_become_answers() {
        assert_eq!(reply_for(Some(Choice::Always)).answer, Answer::Always);
        assert_eq!(reply_for(Some(Choice::Deny)).answer, Answer::RejectSoft { feedback: None });
        assert_eq!(reply_for(None).by, By::Person);
    }
}
