//! ACP agents and `codex app-server` under gate: in the middle of the editor's pipe
//! ([`super::proxy`]), or gate as the client (`--prompt`, or a terminal and no editor).

use std::ffi::OsString;
use std::io::Write;
use std::sync::{mpsc, Arc, Mutex};
use std::thread;
use std::time::Duration;

use serde_json::Value;

use super::editor::EditorApprover;
use super::proxy::{self, Links, ProxyAdapter};
use super::writer::ToAgent;
use super::{exit_code, reap_group, spawn_signal_thread_with, sys, Prepared, Wiring};
use crate::approve::Approver;
use crate::cli::RunArgs;
use crate::protocol::client::{ClientHook, Driver, Out};
use crate::protocol::{acp, codex, Decoder, Encoder};

type Env = Vec<(OsString, OsString)>;

/// Is gate the client (rather than in an editor's pipe)?
fn client_mode(args: &RunArgs) -> bool {
    args.prompt.is_some() || sys::isatty(0)
}

pub(crate) fn run_acp(prep: Prepared, args: &RunArgs) -> anyhow::Result<i32> {
    let program = &args.program[0];
    let agent = acp::agent_name(program);
    let env = if agent == "opencode" { opencode_permission(&prep.cwd) } else { Vec::new() };
    let state: acp::Shared = Arc::default();
    if client_mode(args) {
        let mut decoder = acp::AgentDecoder::new(state.clone(), acp::Mode::Client, agent, prep.cwd.clone());
        let driver = acp::AcpDriver::new(state.clone(), prep.cwd.clone(), args.prompt.clone());
        let encoder = Box::new(acp::AcpEncoder { state });
        return run_client(prep, &args.program, env, args, Box::new(driver), encoder, move |hook| {
            decoder.client = Some(hook);
            Box::new(decoder)
        });
    }
    let waiting: acp::Waiting = Arc::default();
    let st = state.clone();
    let w = waiting.clone();
    let adapter = ProxyAdapter {
        agent_decoder: Box::new(acp::AgentDecoder::new(state.clone(), acp::Mode::Proxy, agent, prep.cwd.clone())),
        client_decoder: Box::new(acp::ClientDecoder { waiting }),
        encoder: Box::new(acp::AcpEncoder { state }),
        approver: Some(Box::new(move |links: Links| {
            Box::new(EditorApprover { ask: Box::new(acp::EditorAsk::new(st)), waiting: w, to_client: links.to_client })
                as Box<dyn Approver>
        })),
    };
    proxy::run_env(prep, &args.program, env, adapter, args.strict || args.approve_all)
}

pub(crate) fn run_codex(prep: Prepared, args: &RunArgs) -> anyhow::Result<i32> {
    let state: codex::Shared = Arc::default();
    let (argv, prompt) = match codex::exec_to_app_server(&args.program[0], &args.program[1..]) {
        Some((argv, p)) if !codex::is_app_server(&args.program[0], &args.program[1..]) => (argv, Some(p)),
        _ => (args.program.clone(), args.prompt.clone()),
    };
    if prompt.is_some() || sys::isatty(0) {
        let mut decoder = codex::AgentDecoder::new(state.clone(), false);
        let driver = codex::CodexDriver::new(state.clone(), prep.cwd.clone(), prompt);
        let encoder = Box::new(codex::CodexEncoder { state });
        return run_client(prep, &argv, Vec::new(), args, Box::new(driver), encoder, move |hook| {
            decoder.client = Some(hook);
            Box::new(decoder)
        });
    }
    let waiting: acp::Waiting = Arc::default();
    let st = state.clone();
    let w = waiting.clone();
    let adapter = ProxyAdapter {
        agent_decoder: Box::new(codex::AgentDecoder::new(state.clone(), true)),
        client_decoder: Box::new(codex::ClientDecoder { waiting }),
        encoder: Box::new(codex::CodexEncoder { state }),
        approver: Some(Box::new(move |links: Links| {
            Box::new(EditorApprover {
                ask: Box::new(codex::ClientAsk { state: st }),
                waiting: w,
                to_client: links.to_client,
            }) as Box<dyn Approver>
        })),
    };
    proxy::run(prep, &argv, adapter, args.strict || args.approve_all)
}

/// `OPENCODE_PERMISSION`: ask for `*` and for every permission key the user's opencode config
/// layers set (so that none of them allows by itself).
fn opencode_permission(cwd: &std::path::Path) -> Env {
    let mut keys: Vec<String> = Vec::new();
    let mut take = |text: &str| {
        let Ok(v) = serde_json::from_str::<Value>(&strip_jsonc(text)) else { return };
        let p = v.get("permission").cloned().unwrap_or(v.clone());
        if let Some(m) = p.as_object() {
            for k in m.keys() {
                if !keys.contains(k) {
                    keys.push(k.clone());
                }
            }
        }
    };
    let home = std::env::var_os("HOME").map(std::path::PathBuf::from);
    let config_home = std::env::var_os("XDG_CONFIG_HOME")
        .map(std::path::PathBuf::from)
        .or_else(|| home.as_ref().map(|h| h.join(".config")));
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    if let Some(c) = &config_home {
        for n in ["opencode.json", "opencode.jsonc", "config.json"] {
            files.push(c.join("opencode").join(n));
        }
    }
    if let Some(f) = std::env::var_os("OPENCODE_CONFIG") {
        files.push(f.into());
    }
    for dir in cwd.ancestors() {
        for n in ["opencode.json", "opencode.jsonc", ".opencode/opencode.json", ".opencode/opencode.jsonc"] {
            files.push(dir.join(n));
        }
        if dir.join(".git").exists() {
            break;
        }
    }
    for f in files {
        if let Ok(t) = std::fs::read_to_string(&f) {
            take(&t);
        }
    }
    if let Ok(t) = std::env::var("OPENCODE_CONFIG_CONTENT") {
        take(&t);
    }
    // OPENCODE_PERMISSION itself is only permissions.
    if let Ok(t) = std::env::var("OPENCODE_PERMISSION") {
        if let Ok(Value::Object(m)) = serde_json::from_str::<Value>(&t) {
            for k in m.keys() {
                if !keys.contains(k) {
                    keys.push(k.clone());
                }
            }
        }
    }
    // opencode's built-in defaults allow `*` and then name some tools: name them all too.
    for k in OPENCODE_TOOLS {
        if !keys.iter().any(|x| x == k) {
            keys.push(k.to_string());
        }
    }
    let mut perm = serde_json::Map::new();
    perm.insert("*".into(), Value::String("ask".into()));
    for k in keys {
        perm.insert(k, Value::String("ask".into()));
    }
    vec![("OPENCODE_PERMISSION".into(), Value::Object(perm).to_string().into())]
}

/// opencode 1.18's permission keys (its tools and checks).
const OPENCODE_TOOLS: &[&str] = &[
    "bash",
    "edit",
    "write",
    "patch",
    "read",
    "list",
    "glob",
    "grep",
    "webfetch",
    "websearch",
    "codesearch",
    "task",
    "skill",
    "lsp",
    "external_directory",
    "doom_loop",
];

/// JSON with `//` and `/* */` comments and trailing commas (opencode.jsonc) made plain JSON.
fn strip_jsonc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    let mut in_str = false;
    while i < b.len() {
        let c = b[i];
        if in_str {
            out.push(c);
            if c == '\\' && i + 1 < b.len() {
                out.push(b[i + 1]);
                i += 1;
            } else if c == '"' {
                in_str = false;
            }
        } else if c == '"' {
            in_str = true;
            out.push(c);
        } else if c == '/' && b.get(i + 1) == Some(&'/') {
            while i < b.len() && b[i] != '\n' {
                i += 1;
            }
            continue;
        } else if c == '/' && b.get(i + 1) == Some(&'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == '*' && b[i + 1] == '/') {
                i += 1;
            }
            i += 2;
            continue;
        } else if c == ',' {
            let next = b[i + 1..].iter().find(|c| !c.is_whitespace());
            if !matches!(next, Some('}') | Some(']')) {
                out.push(c);
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// Drives the [`Driver`] from the agent's messages and sends what it returns.
struct DriverHook {
    driver: Arc<Mutex<Box<dyn Driver>>>,
    send: Sender,
}

#[derive(Clone)]
struct Sender {
    tx: mpsc::SyncSender<ToAgent>,
    closed: Arc<std::sync::atomic::AtomicBool>,
}

impl Sender {
    fn send(&self, outs: Vec<Out>) {
        for o in outs {
            match o {
                Out::Line(l) => {
                    let _ = self.tx.send(ToAgent::Gate(l));
                }
                Out::Close => {
                    self.closed.store(true, std::sync::atomic::Ordering::SeqCst);
                    let _ = self.tx.send(ToAgent::Close);
                }
            }
        }
    }
}

impl ClientHook for DriverHook {
    fn message(&mut self, v: &Value) -> Option<Vec<u8>> {
        let (outs, text) = self.driver.lock().unwrap_or_else(|e| e.into_inner()).message(v);
        self.send.send(outs);
        text
    }
}

/// gate as the agent's client: the driver's handshake and prompts, the agent's requests decided
/// by the session, gate's stdin lines as new prompts, Ctrl-C as the driver's cancel.
fn run_client(
    prep: Prepared,
    argv: &[OsString],
    env: Env,
    args: &RunArgs,
    driver: Box<dyn Driver>,
    encoder: Box<dyn Encoder>,
    decoder: impl FnOnce(Box<dyn ClientHook>) -> Box<dyn Decoder>,
) -> anyhow::Result<i32> {
    let Some((program, rest)) = argv.split_first() else {
        anyhow::bail!("no program to run");
    };
    let stdin_is_tty = sys::isatty(0);
    let stdout_is_tty = sys::isatty(1);
    let signals = sys::SignalSet::block_forwarded()?;
    let Some(super::Piped { pgid, agent_in, agent_out, cancel, exit, wake_reader }) =
        super::spawn_piped(program, rest, &env)?
    else {
        return Ok(2);
    };

    let (to_agent, to_agent_rx) = mpsc::sync_channel(64);
    thread::Builder::new()
        .name("agent-stdin".into())
        .spawn(move || super::writer::run_writer(agent_in, to_agent_rx))?;
    let send = Sender { tx: to_agent.clone(), closed: Arc::default() };
    let driver = Arc::new(Mutex::new(driver));
    send.send(driver.lock().unwrap_or_else(|e| e.into_inner()).start());

    let interrupt: super::OnInterrupt = {
        let (driver, tx) = (driver.clone(), to_agent.clone());
        Box::new(move || {
            let line = driver.lock().unwrap_or_else(|e| e.into_inner()).interrupt();
            match line {
                Some(l) => {
                    crate::protocol::client::note("Ctrl-C: cancelling the turn (again to end the agent)");
                    tx.try_send(ToAgent::Gate(l)).is_ok()
                }
                None => false,
            }
        })
    };
    spawn_signal_thread_with(signals, pgid, exit.clone(), cancel.clone(), prep.kill_grace, None, Some(interrupt))?;

    // Once the driver closes the agent's stdin, the agent has --kill-grace to exit.
    {
        let (closed, exit, grace) = (send.closed.clone(), exit.clone(), prep.kill_grace);
        thread::Builder::new().name("close-watch".into()).spawn(move || {
            while !closed.load(std::sync::atomic::Ordering::SeqCst) {
                if exit.is_done() {
                    return;
                }
                thread::sleep(Duration::from_millis(20));
            }
            if !exit.exited_within(grace) {
                sys::kill_group(pgid, libc::SIGTERM);
            }
        })?;
    }

    // gate's stdin: each line a new prompt. With --prompt on a terminal, the one prompt only.
    let pause = stdin_is_tty.then(|| Arc::new(super::writer::Pause::default()));
    if args.prompt.is_some() && stdin_is_tty {
        send.send(driver.lock().unwrap_or_else(|e| e.into_inner()).input_closed());
    } else {
        let (driver, send, pause) = (driver.clone(), send.clone(), pause.clone());
        thread::Builder::new().name("gate-stdin".into()).spawn(move || {
            let mut buf = vec![0u8; 64 * 1024];
            let mut partial: Vec<u8> = Vec::new();
            loop {
                let n = match super::writer::read_stdin(&mut buf, pause.as_deref()) {
                    Ok(0) => break,
                    Ok(n) => n,
                    Err(e) if matches!(e.kind(), std::io::ErrorKind::Interrupted | std::io::ErrorKind::WouldBlock) => {
                        continue
                    }
                    Err(_) => break,
                };
                partial.extend_from_slice(&buf[..n]);
                while let Some(i) = memchr::memchr(b'\n', &partial) {
                    let l: Vec<u8> = partial.drain(..=i).collect();
                    let text = String::from_utf8_lossy(&l[..l.len() - 1]).trim_end_matches('\r').to_string();
                    send.send(driver.lock().unwrap_or_else(|e| e.into_inner()).input(text));
                }
            }
            if !partial.is_empty() {
                let text = String::from_utf8_lossy(&partial).into_owned();
                send.send(driver.lock().unwrap_or_else(|e| e.into_inner()).input(text));
            }
            send.send(driver.lock().unwrap_or_else(|e| e.into_inner()).input_closed());
        })?;
    }

    let max_line = prep.max_line;
    let budget = Arc::new(super::reader::Budget::new(max_line.max(4 << 20)));
    let open: super::reader::OpenIds = Arc::default();
    let term = stdout_is_tty.then(|| Arc::new(Mutex::new(())));
    let (ev_tx, ev_rx) = mpsc::channel();
    let watcher = super::start_watcher_later(&prep.reloads, ev_tx.clone());
    let mut rd = super::reader::Reader::new(max_line, ev_tx, budget.clone(), open.clone(), wake_reader, term.clone());
    rd.decoder = decoder(Box::new(DriverHook { driver: driver.clone(), send: send.clone() }));
    rd.own_fd = true;
    thread::Builder::new().name("agent-stdout".into()).spawn(move || rd.run(agent_out))?;

    let grace = prep.kill_grace;
    let session = prep.into_session(Wiring {
        to_agent: to_agent.into(),
        open,
        budget,
        cancel,
        stdin_pause: pause,
        term,
        handoff: None,
        encoder,
        to_client: None,
    });
    session.run(ev_rx);
    drop(watcher);
    let status = exit.wait();
    reap_group(pgid, grace);
    let _ = std::io::stdout().flush();
    let code = driver.lock().unwrap_or_else(|e| e.into_inner()).exit_code();
    Ok(match (code, status) {
        (Some(c), _) => c,
        (None, s) => {
            crate::protocol::client::note("the agent exited before its turn ended");
            match s.map(exit_code) {
                Some(0) | None => 1,
                Some(c) => c,
            }
        }
    })
}
