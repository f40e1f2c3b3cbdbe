//! `gate run`: start the agent and stand between it and the world (SPEC sections 1, 2, 4).
//!
//! Threads, and who owns what:
//! - **main** runs the [`session::Session`]: the only place that decides (policy, prompt,
//!   audit), in the order the agent's lines arrived;
//! - **reader** ([`reader`]) owns the agent's stdout and gate's stdout: passthrough and
//!   protocol lines, with bounded memory;
//! - **writer** ([`writer::run_writer`]) owns the agent's stdin: whole lines from the session
//!   and from the stdin forwarder, never interleaved;
//! - **stdin** ([`writer::forward_stdin`]) owns gate's stdin (paused while a terminal prompt is
//!   open, when stdin is that terminal);
//! - **waiter** owns the `Child`: it reaps the agent and wakes the reader and any open prompt;
//! - **signals** waits for SIGINT/SIGTERM/SIGHUP and forwards them to the agent's process
//!   group, killing it if it does not exit within the grace period (with `--pty`, SIGQUIT
//!   too, and SIGWINCH resizes the agent's terminal);
//! - **policy-watch** ([`watch`]) reloads host.yaml and `.gate/approvals.yaml` when they change
//!   and parks the new policy for the session, which swaps it in between two decisions.
//!
//! With `--pty` ([`pty`]) the agent's stdin, stdout and stderr are a pseudo-terminal passed
//! through to gate's terminal, and the protocol runs over a Unix socket ([`socket`]) with the
//! same reader, writer and session.
//!
//! gate exits with the agent's exit code (128+N after signal N). Nothing here may answer
//! "approved" on an error path, block forever on a dead agent, or buffer without bound.

pub mod audit;
mod editor;
mod mcp;
pub mod memo;
mod middle;
pub mod pi;
pub mod proxy;
pub mod pty;
pub mod reader;
pub mod session;
pub mod socket;
pub mod sys;
pub mod watch;
pub mod writer;

use std::io::Write;
use std::os::unix::net::UnixStream;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use std::ffi::OsString;

use crate::approve::{self, AlwaysStore, Approver, Cancel, FileAlwaysStore};
use crate::cli::RunArgs;
use crate::protocol::{claude, Protocol};

/// Turns the approver chosen from the flags into the one used.
pub type WrapApprover = Box<dyn FnOnce(Box<dyn Approver>) -> Box<dyn Approver>>;

/// How `gate demo` (and tests of the library) adjust a run.
#[derive(Default)]
pub struct Hooks {
    /// Wrap the approver chosen from the flags (the demo plays the person without a terminal).
    pub wrap_approver: Option<WrapApprover>,
}

/// Run `gate run`. Returns the exit code gate should exit with.
pub fn run(args: &RunArgs) -> anyhow::Result<i32> {
    run_with(args, Hooks::default())
}

/// What both modes (pipes and `--pty`) start from: the policy and everything that decides.
pub(crate) struct Prepared {
    policy: crate::policy::Policy,
    reloads: Arc<watch::Shared>,
    mode_override: Option<crate::policy::Mode>,
    approver: Box<dyn Approver>,
    always_store: Box<dyn AlwaysStore>,
    audit: Option<audit::Audit>,
    cwd: std::path::PathBuf,
    max_line: usize,
    kill_grace: Duration,
    quiet: bool,
}

/// The pieces the session shares with the I/O threads.
pub(crate) struct Wiring {
    to_agent: writer::AgentTx,
    open: reader::OpenIds,
    budget: Arc<reader::Budget>,
    cancel: Arc<Cancel>,
    stdin_pause: Option<Arc<writer::Pause>>,
    term: Option<Arc<Mutex<()>>>,
    handoff: Option<Box<dyn session::Handoff>>,
    encoder: Box<dyn crate::protocol::Encoder>,
    to_client: Option<reader::ReplyTo>,
}

impl Prepared {
    pub(crate) fn into_session(self, w: Wiring) -> session::Session {
        session::Session {
            policy: self.policy,
            reloads: Some(self.reloads),
            mode_override: self.mode_override,
            approver: self.approver,
            always_store: self.always_store,
            to_agent: w.to_agent,
            to_client: w.to_client,
            encoder: w.encoder,
            quiet: self.quiet,
            audit: self.audit,
            open: w.open,
            budget: w.budget,
            cancel: w.cancel,
            stdin_pause: w.stdin_pause,
            term: w.term,
            handoff: w.handoff,
            cwd: self.cwd,
            state: session::State::default(),
        }
    }
}

/// [`run`], with hooks.
pub fn run_with(args: &RunArgs, hooks: Hooks) -> anyhow::Result<i32> {
    if args.approve_all && args.strict {
        eprintln!("gate: --approve-all and --strict cannot be used together");
        return Ok(2);
    }
    let Some(program) = args.program.first() else {
        eprintln!("gate: no program to run: gate run [OPTIONS] -- PROGRAM [ARGS...]");
        return Ok(2);
    };

    // The files are read for the watcher *before* the policy is loaded: an edit in between
    // is then seen as a change, never missed.
    let found = crate::config::find(args.config.config.as_deref());
    let sources = watch::Sources::new(found.as_deref());
    let seen = sources.contents();
    let loaded = match crate::config::load_from(found.as_deref()) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("gate: {e}");
            return Ok(2);
        }
    };
    for w in &loaded.warnings {
        eprintln!("gate: {w}");
    }
    let reloads = watch::Shared::new(sources, seen);
    let always_store = watch::NotingStore {
        inner: Box::new(FileAlwaysStore { path: crate::always::path_for(loaded.path.as_deref()) }),
        shared: reloads.clone(),
    };
    let mut policy = loaded.policy;
    let mode_override = args.mode.map(crate::policy::Mode::from);
    if let Some(m) = mode_override {
        policy.set_mode(m);
    }
    let audit = match args.audit.clone().or_else(|| policy.audit_path()) {
        None => None,
        Some(path) => match audit::Audit::open(&path) {
            Ok(a) => Some(a),
            Err(e) => {
                eprintln!("gate: cannot open the audit log {}: {e}", path.display());
                return Ok(2);
            }
        },
    };
    let mut approver = match approve::choose(args) {
        Ok(a) => a,
        Err(e) => {
            eprintln!("gate: {e:#}");
            return Ok(2);
        }
    };
    if let Some(wrap) = hooks.wrap_approver {
        approver = wrap(approver);
    }
    let prep = Prepared {
        policy,
        reloads,
        mode_override,
        approver,
        always_store: Box::new(always_store),
        audit,
        cwd: std::env::current_dir().unwrap_or_else(|_| ".".into()),
        max_line: args.max_line.max(1),
        kill_grace: Duration::from_secs(args.kill_grace),
        // With --pty the agent's screen is the terminal: no notices over it.
        quiet: args.quiet || args.pty,
    };
    let rest = &args.program[1..];
    let protocol = args.protocol.map(Protocol::from).unwrap_or_else(|| Protocol::detect(program, rest));
    match protocol {
        Protocol::Native if args.pty => {
            pty::run(prep, args.program.clone(), Vec::new(), false, Box::new(crate::protocol::native::NativeEncoder))
        }
        Protocol::Native => run_pipes(prep, &args.program, PipeAdapter::native()),
        Protocol::Claude if claude::is_headless(rest) && !args.pty => {
            let h = match claude::headless(program, rest) {
                Ok(h) => h,
                Err(e) => {
                    eprintln!("gate: {e}");
                    return Ok(2);
                }
            };
            let adapter = PipeAdapter {
                decoder: Box::new(claude::ClaudeDecoder { output: h.output, cwd: prep.cwd.clone() }),
                encoder: Box::new(claude::ClaudeEncoder),
                start: claude::start_lines(&h.task),
                forward_stdin: false,
                interrupt: Some(claude::interrupt_line()),
            };
            run_pipes(prep, &h.argv, adapter)
        }
        Protocol::Claude => {
            let argv = match claude_interactive_argv(&args.program, args) {
                Ok(a) => a,
                Err(e) => {
                    eprintln!("gate: {e}");
                    return Ok(2);
                }
            };
            pty::run(prep, argv, Vec::new(), true, Box::new(crate::protocol::native::NativeEncoder))
        }
        Protocol::Acp => middle::run_acp(prep, args),
        Protocol::Codex => middle::run_codex(prep, args),
        Protocol::Pi => pi::run(prep, args),
        Protocol::Mcp => mcp::run(prep, args),
    }
}

/// `claude [ARGS]` on a terminal: its own arguments, with `--settings` carrying gate's
/// PreToolUse hook merged into the user's own `--settings` value (a path or JSON), since only
/// the last `--settings` counts. The hook asks this gate over `$GATE_SOCKET`; gate's own flags
/// go along for a hook run without it.
fn claude_interactive_argv(program: &[OsString], args: &RunArgs) -> anyhow::Result<Vec<OsString>> {
    let exe = std::env::current_exe()?;
    let mut hook = vec![crate::shell::shell_word(&exe.to_string_lossy()), "hook".into(), "claude".into()];
    if args.strict {
        hook.push("--strict".into());
    }
    if args.approve_all {
        hook.push("--approve-all".into());
    }
    if let Some(c) = &args.config.config {
        let c = std::fs::canonicalize(c).unwrap_or_else(|_| c.clone());
        hook.push("-c".into());
        hook.push(crate::shell::shell_word(&c.to_string_lossy()));
    }
    let mut out = vec![program[0].clone()];
    let mut user: Option<serde_json::Value> = None;
    let mut i = 1;
    while i < program.len() {
        let a = program[i].to_string_lossy().into_owned();
        let value = if a == "--settings" {
            i += 1;
            let v = program.get(i).ok_or_else(|| anyhow::anyhow!("claude's --settings needs a value"))?;
            Some(v.to_string_lossy().into_owned())
        } else {
            a.strip_prefix("--settings=").map(str::to_string)
        };
        match value {
            Some(v) => {
                let text = if v.trim_start().starts_with('{') {
                    v
                } else {
                    std::fs::read_to_string(&v)
                        .map_err(|e| anyhow::anyhow!("cannot read claude's --settings file {v}: {e}"))?
                };
                let parsed = crate::protocol::strict::parse(text.as_bytes())
                    .map_err(|e| anyhow::anyhow!("claude's --settings is not JSON gate can read: {e}"))?;
                user = Some(parsed);
            }
            None => out.push(program[i].clone()),
        }
        i += 1;
    }
    // Claude Code's hook time-out is above gate's prompt time-out: gate answers first.
    let timeout = args.prompt_timeout.map(|t| t + 30).unwrap_or(24 * 3600);
    let settings = claude::merged_settings(user.as_ref(), &hook.join(" "), timeout);
    out.push("--settings".into());
    out.push(settings.to_string().into());
    Ok(out)
}

/// How `run_pipes` speaks with the agent.
struct PipeAdapter {
    decoder: Box<dyn crate::protocol::Decoder>,
    encoder: Box<dyn crate::protocol::Encoder>,
    /// Lines sent to the agent before anything else.
    start: Vec<Vec<u8>>,
    /// Forward gate's stdin to the agent (native: whole lines, then `input_closed`).
    forward_stdin: bool,
    /// Sent to the agent on the first Ctrl-C instead of SIGINT (the process ends after
    /// `--kill-grace` if it does not stop).
    interrupt: Option<Vec<u8>>,
}

impl PipeAdapter {
    fn native() -> PipeAdapter {
        PipeAdapter {
            decoder: Box::new(crate::protocol::native::NativeDecoder),
            encoder: Box::new(crate::protocol::native::NativeEncoder),
            start: Vec::new(),
            forward_stdin: true,
            interrupt: None,
        }
    }
}

/// How long after the agent starts gate begins watching the policy files. An agent that
/// exits sooner (`gate run -- true`, scripted one-shot runs) never pays for setting up and
/// tearing down inotify, which costs ~5 ms in the kernel when the process exits; an edit made
/// before the watch starts is caught by the watcher's first check.
const WATCH_DELAY: std::time::Duration = std::time::Duration::from_millis(200);

/// The policy watcher, started after [`WATCH_DELAY`] on its own thread; dropping it stops it
/// (at once if it has not started).
struct LazyWatcher {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Drop for LazyWatcher {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

fn start_watcher_later(reloads: &Arc<watch::Shared>, wake: mpsc::Sender<reader::Event>) -> LazyWatcher {
    let (stop, stopped) = mpsc::channel::<()>();
    let reloads = reloads.clone();
    let thread = thread::Builder::new()
        .name("policy-watch-start".into())
        .spawn(move || {
            if stopped.recv_timeout(WATCH_DELAY) != Err(mpsc::RecvTimeoutError::Timeout) {
                return;
            }
            let watcher = start_watcher(&reloads, wake);
            // Keep it until gate stops (the sender is dropped).
            let _ = stopped.recv();
            drop(watcher);
        })
        .ok();
    LazyWatcher { stop: Some(stop), thread }
}

/// Start watching the policy files; a failure only turns live reload off.
fn start_watcher(reloads: &Arc<watch::Shared>, wake: mpsc::Sender<reader::Event>) -> Option<watch::Watcher> {
    match watch::start(reloads.clone(), wake) {
        Ok(w) => Some(w),
        Err(e) => {
            eprintln!("gate: live policy reload is off ({e:#}); restart gate to apply edits");
            None
        }
    }
}

/// The agent on pipes: the protocol and its other output share its stdout.
fn run_pipes(prep: Prepared, argv: &[OsString], adapter: PipeAdapter) -> anyhow::Result<i32> {
    let Some((program, rest)) = argv.split_first() else {
        anyhow::bail!("no program to run");
    };
    let stdin_is_tty = sys::isatty(0);
    let stdout_is_tty = sys::isatty(1);

    // Before any thread exists: every thread inherits the mask, the signal thread waits.
    let signals = sys::SignalSet::block_forwarded()?;

    let Some(Piped { pgid, agent_in, agent_out, cancel, exit, wake_reader }) = spawn_piped(program, rest, &[])? else {
        return Ok(2);
    };

    // Decisions are written to the agent's stdin by the thread that makes them (no hop).
    let to_agent = writer::AgentTx::direct_pipe(agent_in);
    for line in adapter.start {
        let _ = to_agent.send(writer::ToAgent::Gate(line));
    }
    let interrupt: Option<OnInterrupt> = adapter.interrupt.map(|line| {
        let tx = to_agent.clone();
        Box::new(move || tx.try_send(writer::ToAgent::Gate(line.clone())).is_ok()) as OnInterrupt
    });
    spawn_signal_thread_with(signals, pgid, exit.clone(), cancel.clone(), prep.kill_grace, None, interrupt)?;

    let pause = stdin_is_tty.then(|| Arc::new(writer::Pause::default()));
    if adapter.forward_stdin {
        let (fwd_tx, fwd_pause) = (to_agent.clone(), pause.clone());
        thread::Builder::new().name("gate-stdin".into()).spawn(move || writer::forward_stdin(fwd_tx, fwd_pause))?;
    }

    let max_line = prep.max_line;
    let budget = Arc::new(reader::Budget::new(max_line.max(4 << 20)));
    let open: reader::OpenIds = Arc::default();
    let term = stdout_is_tty.then(|| Arc::new(Mutex::new(())));
    let (ev_tx, ev_rx) = mpsc::channel();
    let watcher = start_watcher_later(&prep.reloads, ev_tx.clone());
    let mut rd = reader::Reader::new(max_line, ev_tx, budget.clone(), open.clone(), wake_reader, term.clone());
    rd.decoder = adapter.decoder;
    // What the agent leaves running may still print: read it for up to --kill-grace, then
    // end the group and read what it says while ending (reap_group then finds it gone).
    rd.linger = Some((
        prep.kill_grace,
        Box::new(move || {
            sys::kill_group(pgid, libc::SIGTERM);
        }),
    ));

    let grace = prep.kill_grace;
    let encoder = adapter.encoder;
    let session = prep.into_session(Wiring {
        to_agent,
        open,
        budget,
        cancel,
        stdin_pause: pause,
        term,
        handoff: None,
        encoder,
        to_client: None,
    });
    // What needs no person is decided and answered on the reader thread (no hand-off); the
    // rest, in order, on this one.
    let session = Arc::new(Mutex::new(session));
    let queued = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    rd.fast = Some(reader::FastPath { session: session.clone(), queued: queued.clone() });
    rd.own_fd = true;
    thread::Builder::new().name("agent-stdout".into()).spawn(move || rd.run(agent_out))?;
    session::Session::run_shared(session, ev_rx, queued);
    drop(watcher);

    let status = exit.wait();
    reap_group(pgid, grace);
    Ok(match status {
        Some(s) => exit_code(s),
        None => 1,
    })
}

/// How the connections on `$GATE_SOCKET` are read and answered in [`run_served`].
pub(crate) struct Served {
    /// A decoder for each new connection.
    pub decoder: Box<dyn Fn() -> Box<dyn crate::protocol::Decoder> + Send>,
    /// Writes every answer.
    pub encoder: Box<dyn crate::protocol::Encoder>,
    /// The agent draws a terminal UI on gate's terminal: when gate's stdin is that terminal
    /// and gate is in its foreground, the agent's process group is made the foreground group
    /// (so it may read keys and set raw mode; Ctrl-C is its own), and the terminal is taken
    /// back, with its settings, when the agent exits or for gate's own prompt.
    pub terminal: bool,
}

impl Default for Served {
    fn default() -> Served {
        Served {
            decoder: Box::new(|| Box::new(crate::protocol::native::NativeDecoder)),
            encoder: Box::new(crate::protocol::native::NativeEncoder),
            terminal: false,
        }
    }
}

/// Gives the terminal's foreground back to gate for its prompt, and to the agent after.
struct Foreground {
    agent: i32,
}

impl session::Handoff for Foreground {
    fn release(&self) {
        let _ = sys::set_foreground_group(0, sys::own_group());
    }

    fn reclaim(&self) {
        let _ = sys::set_foreground_group(0, self.agent);
    }
}

/// The agent with gate's own stdin, stdout and stderr, asking over `$GATE_SOCKET` (any number
/// of connections: an extension's, a hook process's per call). `env` is added to the agent's
/// environment. gate's prompt uses the terminal (`/dev/tty`) as in pipe mode.
pub(crate) fn run_served(
    prep: Prepared,
    argv: &[std::ffi::OsString],
    env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    served: Served,
) -> anyhow::Result<i32> {
    let Some((program, rest)) = argv.split_first() else {
        anyhow::bail!("no program to run");
    };
    let signals = sys::SignalSet::block_forwarded()?;
    let mut channel = match socket::SideChannel::create() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gate: cannot create the decision socket: {e}");
            return Ok(2);
        }
    };
    let terminal = served.terminal && sys::isatty(0) && sys::foreground_group(0) == Some(sys::own_group());
    let settings = if terminal { sys::get_termios(0).ok() } else { None };
    let mut cmd = Command::new(program);
    sys::SignalSet::reset_in_child(&mut cmd);
    if terminal {
        sys::take_terminal_on_exec(&mut cmd);
    }
    cmd.args(rest).env("GATE_SOCKET", channel.path()).process_group(0);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gate: cannot start {}: {e}", program.to_string_lossy());
            return Ok(2);
        }
    };
    let pgid = child.id() as i32;
    if terminal {
        let _ = sys::set_foreground_group(0, pgid);
    }
    let cancel = Arc::new(Cancel::default());
    let exit = Arc::new(ExitWatch::default());
    let (wake_server, wake_waiter) = UnixStream::pair()?;
    let job = terminal.then_some(Job { agent: pgid, settings });
    spawn_job_waiter(child, job, exit.clone(), cancel.clone(), wake_waiter)?;
    spawn_signal_thread(signals, pgid, exit.clone(), cancel.clone(), prep.kill_grace, None)?;

    // Nothing is written to the agent's stdin (it is gate's own): answers go to connections.
    let to_agent = writer::AgentTx::direct(std::io::sink());
    let max_line = prep.max_line;
    let budget = Arc::new(reader::Budget::new(max_line.max(4 << 20)));
    let open: reader::OpenIds = Arc::default();
    let (ev_tx, ev_rx) = mpsc::channel();
    let watcher = start_watcher_later(&prep.reloads, ev_tx.clone());
    let listener = channel.take_listener().ok_or_else(|| anyhow::anyhow!("the socket is not listening"))?;
    let Served { decoder, encoder, .. } = served;
    {
        let (budget, open) = (budget.clone(), open.clone());
        thread::Builder::new().name("socket".into()).spawn(move || {
            let tx = ev_tx.clone();
            socket::serve_many(listener, &wake_server, ev_tx, || {
                let (wake, peer) = UnixStream::pair()?;
                let mut rd = reader::Reader::new(max_line, tx.clone(), budget.clone(), open.clone(), wake, None);
                rd.wake_peer = Some(peer);
                rd.decoder = decoder();
                Ok(rd)
            })
        })?;
    }
    let grace = prep.kill_grace;
    let session = prep.into_session(Wiring {
        to_agent,
        open,
        budget,
        cancel,
        stdin_pause: None,
        term: None,
        handoff: terminal.then(|| Box::new(Foreground { agent: pgid }) as Box<dyn session::Handoff>),
        encoder,
        to_client: None,
    });
    session.run(ev_rx);
    drop(watcher);
    let status = exit.wait();
    if terminal {
        let _ = sys::set_foreground_group(0, sys::own_group());
        if let Some(t) = &settings {
            let _ = sys::set_termios(0, t);
        }
    }
    reap_group(pgid, grace);
    drop(channel);
    Ok(match status {
        Some(s) => exit_code(s),
        None => 1,
    })
}

/// An agent started on pipes, in a process group of its own, with its waiter running.
struct Piped {
    pgid: i32,
    pub agent_in: std::process::ChildStdin,
    pub agent_out: std::process::ChildStdout,
    pub cancel: Arc<Cancel>,
    pub exit: Arc<ExitWatch>,
    /// Readable once the agent exited (for the reader of its output).
    pub wake_reader: UnixStream,
}

/// Start `program rest` with `env` added, stdin and stdout piped, stderr gate's own. `None`:
/// it could not be started (said on stderr; gate exits 2).
fn spawn_piped(
    program: &std::ffi::OsStr,
    rest: &[OsString],
    env: &[(OsString, OsString)],
) -> anyhow::Result<Option<Piped>> {
    let mut cmd = Command::new(program);
    sys::SignalSet::reset_in_child(&mut cmd);
    cmd.envs(env.iter().map(|(k, v)| (k, v)));
    let mut child = match cmd
        .args(rest)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .process_group(0)
        .spawn()
    {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gate: cannot start {}: {e}", program.to_string_lossy());
            return Ok(None);
        }
    };
    let pgid = child.id() as i32;
    let (Some(agent_in), Some(agent_out)) = (child.stdin.take(), child.stdout.take()) else {
        anyhow::bail!("the agent's pipes were not set up");
    };
    let cancel = Arc::new(Cancel::default());
    let exit = Arc::new(ExitWatch::default());
    let (wake_reader, wake_waiter) = UnixStream::pair()?;
    spawn_waiter(child, exit.clone(), cancel.clone(), wake_waiter)?;
    Ok(Some(Piped { pgid, agent_in, agent_out, cancel, exit, wake_reader }))
}

/// The agent's exit status, once the waiter has it.
#[derive(Default)]
struct ExitWatch {
    done: AtomicBool,
    status: Mutex<Option<Option<ExitStatus>>>,
    cv: Condvar,
}

impl ExitWatch {
    fn set(&self, s: Option<ExitStatus>) {
        *self.status.lock().unwrap_or_else(|e| e.into_inner()) = Some(s);
        self.done.store(true, Ordering::SeqCst);
        self.cv.notify_all();
    }

    fn is_done(&self) -> bool {
        self.done.load(Ordering::SeqCst)
    }

    fn wait(&self) -> Option<ExitStatus> {
        let mut g = self.status.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if let Some(s) = *g {
                return s;
            }
            g = self.cv.wait(g).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Did the agent exit within `grace` (woken at once when it does)?
    fn exited_within(&self, grace: Duration) -> bool {
        let deadline = Instant::now() + grace;
        let mut g = self.status.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            if g.is_some() {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            g = self.cv.wait_timeout(g, deadline - now).unwrap_or_else(|e| e.into_inner()).0;
        }
    }
}

/// An agent that was given gate's terminal ([`Served::terminal`]), for job control: when it
/// stops itself (pi's Ctrl-Z), gate takes the terminal back and stops its own job, so the shell
/// gets the terminal; once continued (`fg`), it hands the terminal back and continues the agent.
struct Job {
    agent: i32,
    settings: Option<sys::Termios>,
}

fn wait_job(child: &Child, job: &Job) -> std::io::Result<ExitStatus> {
    loop {
        match sys::wait_exit_or_stop(child.id() as i32)? {
            sys::Waited::Exited(s) => return Ok(s),
            sys::Waited::Stopped => {
                let _ = sys::set_foreground_group(0, sys::own_group());
                if let Some(t) = &job.settings {
                    let _ = sys::set_termios(0, t);
                }
                sys::stop_own_job();
                let _ = sys::set_foreground_group(0, job.agent);
                sys::kill_group(job.agent, libc::SIGCONT);
            }
        }
    }
}

fn spawn_waiter(child: Child, exit: Arc<ExitWatch>, cancel: Arc<Cancel>, wake: UnixStream) -> std::io::Result<()> {
    spawn_job_waiter(child, None, exit, cancel, wake)
}

fn spawn_job_waiter(
    mut child: Child,
    job: Option<Job>,
    exit: Arc<ExitWatch>,
    cancel: Arc<Cancel>,
    wake: UnixStream,
) -> std::io::Result<()> {
    thread::Builder::new().name("agent-wait".into()).spawn(move || {
        let waited = match &job {
            Some(job) => wait_job(&child, job),
            None => child.wait(),
        };
        let status = match waited {
            Ok(s) => Some(s),
            Err(e) => {
                eprintln!("gate: cannot wait for the agent: {e}");
                None
            }
        };
        cancel.set_agent_gone();
        exit.set(status);
        let _ = (&wake).write_all(b"x");
    })?;
    Ok(())
}

/// Called on SIGWINCH (`--pty`: resize the agent's terminal).
type OnResize = Box<dyn Fn() + Send>;

/// Called on the first Ctrl-C for the agent instead of passing SIGINT on (Claude Code: an
/// `interrupt` control request). True when it was delivered.
pub(crate) type OnInterrupt = Box<dyn Fn() -> bool + Send>;

fn spawn_signal_thread(
    signals: sys::SignalSet,
    pgid: i32,
    exit: Arc<ExitWatch>,
    cancel: Arc<Cancel>,
    grace: Duration,
    on_resize: Option<OnResize>,
) -> std::io::Result<()> {
    spawn_signal_thread_with(signals, pgid, exit, cancel, grace, on_resize, None)
}

fn spawn_signal_thread_with(
    signals: sys::SignalSet,
    pgid: i32,
    exit: Arc<ExitWatch>,
    cancel: Arc<Cancel>,
    grace: Duration,
    on_resize: Option<OnResize>,
    on_interrupt: Option<OnInterrupt>,
) -> std::io::Result<()> {
    let killer_armed = Arc::new(AtomicBool::new(false));
    let interrupted = AtomicBool::new(false);
    thread::Builder::new().name("signals".into()).spawn(move || loop {
        let Ok(sig) = signals.wait() else { return };
        if sig == libc::SIGWINCH {
            if let Some(f) = &on_resize {
                f();
            }
            continue;
        }
        if exit.is_done() {
            continue;
        }
        if sig == libc::SIGINT && cancel.interrupt_prompt() {
            // Ctrl-C at an open prompt answers the prompt (reject, stop the batch).
            continue;
        }
        let asked = sig == libc::SIGINT
            && !interrupted.swap(true, Ordering::SeqCst)
            && on_interrupt.as_ref().is_some_and(|f| f());
        if !asked {
            sys::kill_group(pgid, sig);
        }
        if !killer_armed.swap(true, Ordering::SeqCst) {
            let exit = exit.clone();
            let _ = thread::Builder::new().name("kill-timer".into()).spawn(move || {
                if !exit.exited_within(grace) {
                    eprintln!(
                        "gate: the agent did not exit within {} s of {}; killing it",
                        grace.as_secs(),
                        sys::signal_name(sig)
                    );
                    sys::kill_group(pgid, libc::SIGKILL);
                }
            });
        }
    })?;
    Ok(())
}

/// After the agent exited: end what it left running in its process group (no orphans).
fn reap_group(pgid: i32, grace: Duration) {
    if !sys::kill_group(pgid, libc::SIGTERM) {
        return;
    }
    let deadline = Instant::now() + grace;
    while Instant::now() < deadline {
        if !sys::group_exists(pgid) {
            return;
        }
        thread::sleep(Duration::from_millis(20));
    }
    sys::kill_group(pgid, libc::SIGKILL);
}

/// gate's exit code for the agent's status: its code, or 128+N for signal N.
pub fn exit_code(s: ExitStatus) -> i32 {
    match (s.code(), s.signal()) {
        (Some(c), _) => c,
        (None, Some(sig)) => 128 + sig,
        _ => 1,
    }
}
