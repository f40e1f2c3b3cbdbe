//! `gate run --pty`: the agent runs on a pseudo-terminal (portable-pty) and owns the screen;
//! the protocol moves to a Unix socket ([`super::socket`], `GATE_SOCKET`).
//!
//! Threads beyond those of pipe mode:
//! - **pty-out** copies the agent's terminal output to gate's stdout, under the terminal lock
//!   (a prompt holding the lock holds the agent's output: the pty fills and the agent blocks),
//!   and tracks which screen modes the agent switched on ([`ScreenModes`]);
//! - **keys** copies gate's stdin to the pty byte for byte (paused while a prompt reads keys);
//! - **socket** waits for the agent's one connection, then reads protocol lines from it with
//!   the pipe mode's [`Reader`]; **socket-out** writes gate's lines to it.
//!
//! gate's terminal is raw while the agent has it ([`RawTerminal`]), so every key reaches the
//! agent (Ctrl-C too: it becomes the agent's SIGINT through its pty). Before a prompt the
//! session calls [`PtyHandoff::release`]: cooked mode back, the agent's alternate screen and
//! mouse modes left, cursor shown; after it, [`PtyHandoff::reclaim`] re-enters them, makes the
//! terminal raw again and sends SIGWINCH to the agent's foreground process group so it redraws.
//! The terminal is restored on every way out of [`run`]: return, error and panic (guards
//! dropped while unwinding), and signals (they are forwarded to the agent and gate exits
//! through the normal path). gate's own stderr lines are relayed with `\r\n` while the terminal
//! is raw ([`StderrRelay`]), so they do not stair-step across the agent's screen.
//!
//! Nothing here decides or parses the protocol; nothing here may leave the terminal raw, the
//! socket directory behind, or a thread blocked on a dead agent.

use std::io::{self, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd, RawFd};
use std::os::unix::net::UnixStream;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::{self, JoinHandle};

use portable_pty::{CommandBuilder, MasterPty, PtySize};

use super::reader::{self, Event, Passthrough, Reader};
use super::session::Handoff;
use super::socket::{self, Accepted, SideChannel};
use super::writer::{self, Pause};
use super::{exit_code, reap_group, spawn_signal_thread, spawn_waiter, sys, ExitWatch, Prepared, Wiring};
use crate::approve::Cancel;

/// The size of gate's terminal (stdout, stdin, else the controlling terminal), or 24x80.
pub fn terminal_size() -> PtySize {
    let from_tty = || {
        let f = std::fs::File::open("/dev/tty").ok()?;
        sys::window_size(f.as_raw_fd())
    };
    match sys::window_size(1).or_else(|| sys::window_size(0)).or_else(from_tty) {
        Some(w) => PtySize { rows: w.rows, cols: w.cols, pixel_width: w.x_pixels, pixel_height: w.y_pixels },
        None => PtySize::default(),
    }
}

/// Run the agent on a pseudo-terminal. See the module docs.
/// The agent `argv` on a pseudo-terminal, with `env` added. `serve_many`: the protocol socket
/// takes any number of connections (a hook process per call) instead of exactly one.
pub(super) fn run(
    prep: Prepared,
    argv: Vec<std::ffi::OsString>,
    env: Vec<(std::ffi::OsString, std::ffi::OsString)>,
    serve_many: bool,
    encoder: Box<dyn crate::protocol::Encoder>,
) -> anyhow::Result<i32> {
    let stdin_is_tty = sys::isatty(0);
    let stdout_is_tty = sys::isatty(1);

    // Before any thread exists: every thread inherits the mask, the signal thread waits.
    // SIGQUIT too: with the terminal raw, only someone else's `kill` sends it to gate, and
    // dying of it would leave the terminal raw. It is passed on to the agent like the others.
    let mut forwarded = sys::FORWARDED.to_vec();
    forwarded.extend([libc::SIGQUIT, libc::SIGWINCH]);
    let signals = sys::SignalSet::block(&forwarded)?;

    let mut channel = match SideChannel::create() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gate: cannot create the protocol socket for --pty: {e}");
            return Ok(2);
        }
    };
    let pair = match portable_pty::native_pty_system().openpty(terminal_size()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("gate: cannot open a pseudo-terminal for --pty: {e:#}");
            return Ok(2);
        }
    };
    let mut cmd = CommandBuilder::from_argv(argv.clone());
    cmd.cwd(&prep.cwd);
    cmd.env("GATE_SOCKET", channel.path());
    for (k, v) in &env {
        cmd.env(k, v);
    }
    // portable-pty's child setup: own session with the pty as controlling terminal, default
    // signal dispositions, empty signal mask, no inherited descriptors beyond 0-2.
    let child = match pair.slave.spawn_command(cmd) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("gate: cannot start {}: {e:#}", argv[0].to_string_lossy());
            return Ok(2);
        }
    };
    // Only the agent holds the slave now: its output ends when it (and what it started) exits.
    drop(pair.slave);
    let child: Box<dyn portable_pty::Child> = child;
    let child = match child.downcast::<std::process::Child>() {
        Ok(c) => *c,
        Err(mut other) => {
            let _ = other.kill();
            anyhow::bail!("portable-pty returned a child gate cannot wait for");
        }
    };
    // setsid() in the child: its process group is its pid.
    let pgid = child.id() as i32;

    let master = pair.master;
    let master_fd = match master.as_raw_fd() {
        Some(fd) => sys::dup_cloexec(fd)?,
        None => anyhow::bail!("the pseudo-terminal has no descriptor"),
    };
    let pty_out = master.try_clone_reader().map_err(|e| anyhow::anyhow!("{e:#}"))?;
    let keys_out: Arc<Mutex<Box<dyn Write + Send>>> =
        Arc::new(Mutex::new(master.take_writer().map_err(|e| anyhow::anyhow!("{e:#}"))?));
    let master: Arc<Mutex<Box<dyn MasterPty + Send>>> = Arc::new(Mutex::new(master));

    let term = Arc::new(Mutex::new(()));
    let screen = Arc::new(Mutex::new(ScreenModes::default()));
    // The terminal goes raw now, and comes back on every way out of this function.
    let raw = if stdin_is_tty {
        match RawTerminal::enter(0) {
            Ok(r) => Some(Arc::new(r)),
            Err(e) => {
                eprintln!("gate: cannot put the terminal in raw mode ({e}); keys are passed through as typed");
                None
            }
        }
    } else {
        None
    };
    let _restore = Restore { raw: raw.clone(), screen: screen.clone(), stdout_is_tty };
    let _relay = match (&raw, sys::isatty(2)) {
        (Some(_), true) => StderrRelay::start(term.clone()).ok(),
        _ => None,
    };

    let cancel = Arc::new(Cancel::default());
    let exit = Arc::new(ExitWatch::default());
    let (wake_socket, wake_waiter) = UnixStream::pair()?;
    let wake_out = wake_socket.try_clone()?;
    spawn_waiter(child, exit.clone(), cancel.clone(), wake_waiter)?;

    let resize_master = master.clone();
    let on_resize = Box::new(move || {
        let size = terminal_size();
        let m = resize_master.lock().unwrap_or_else(|e| e.into_inner());
        // The kernel sends SIGWINCH to the agent's foreground group when the size changes.
        let _ = m.resize(size);
    });
    spawn_signal_thread(signals, pgid, exit.clone(), cancel.clone(), prep.kill_grace, Some(on_resize))?;

    let out_thread = {
        let (term, screen, fd) = (term.clone(), screen.clone(), sys::dup_cloexec(master_fd.as_raw_fd())?);
        thread::Builder::new()
            .name("pty-out".into())
            .spawn(move || pump_output(pty_out, fd, wake_out, term, screen, stdout_is_tty))?
    };

    let pause = stdin_is_tty.then(|| Arc::new(Pause::default()));
    {
        let (w, p) = (keys_out.clone(), pause.clone());
        thread::Builder::new().name("keys".into()).spawn(move || forward_keys(w, p))?;
    }

    // The protocol: gate's lines wait for the connection; the reader waits for it too.
    let (to_agent_tx, to_agent_rx) = mpsc::sync_channel(64);
    let to_agent: super::writer::AgentTx = to_agent_tx.into();
    let (conn_tx, conn_rx) = mpsc::channel::<UnixStream>();
    thread::Builder::new().name("socket-out".into()).spawn(move || socket_out(conn_rx, to_agent_rx))?;

    let max_line = prep.max_line;
    let budget = Arc::new(reader::Budget::new(max_line.max(4 << 20)));
    let open: reader::OpenIds = Arc::default();
    let (ev_tx, ev_rx) = mpsc::channel();
    let watcher = super::start_watcher_later(&prep.reloads, ev_tx.clone());
    let listener = channel.take_listener().ok_or_else(|| anyhow::anyhow!("the socket is not listening"))?;
    if serve_many {
        drop(conn_tx);
        let (budget, open) = (budget.clone(), open.clone());
        thread::Builder::new().name("socket".into()).spawn(move || {
            let tx = ev_tx.clone();
            socket::serve_many(listener, &wake_socket, ev_tx, || {
                let (wake, peer) = UnixStream::pair()?;
                let mut rd = Reader::new(max_line, tx.clone(), budget.clone(), open.clone(), wake, None);
                rd.wake_peer = Some(peer);
                Ok(rd)
            })
        })?;
    } else {
        let rd = Reader::new(max_line, ev_tx, budget.clone(), open.clone(), wake_socket, None);
        single_connection(listener, channel.path().to_path_buf(), rd, conn_tx)?;
    }
    let handoff = PtyHandoff { raw: raw.clone(), screen, master_fd, pgid, stdout_is_tty };
    let grace = prep.kill_grace;
    let session = prep.into_session(Wiring {
        to_agent,
        open,
        budget,
        cancel,
        stdin_pause: pause,
        term: Some(term),
        handoff: Some(Box::new(handoff)),
        encoder,
        to_client: None,
    });
    session.run(ev_rx);
    drop(watcher);

    let status = exit.wait();
    // What the agent wrote before it exited reaches the screen before gate exits.
    let _ = out_thread.join();
    reap_group(pgid, grace);
    drop(keys_out);
    drop(channel);
    Ok(match status {
        Some(s) => exit_code(s),
        None => 1,
    })
}

/// Write gate's lines to the agent's connection. Before it connects only `policy_changed` can
/// be sent (there is no request to answer): the newest one is kept for it and the session never
/// waits. If it never connects, lines are dropped until the session ends.
fn socket_out(conn: mpsc::Receiver<UnixStream>, rx: mpsc::Receiver<writer::ToAgent>) {
    let mut latest: Option<writer::ToAgent> = None;
    loop {
        match conn.recv_timeout(std::time::Duration::from_millis(50)) {
            Ok(mut stream) => {
                if let Some(writer::ToAgent::Gate(line)) = latest.take() {
                    let _ = stream.write_all(&line);
                }
                writer::run_writer(stream, rx);
                return;
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {
                while let Ok(m) = rx.try_recv() {
                    latest = Some(m);
                }
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                while rx.recv().is_ok() {}
                return;
            }
        }
    }
}

/// Copy the agent's terminal output to gate's stdout until the pty closes, or until the agent
/// exited and nothing is left to read (`wake`).
fn pump_output(
    mut pty: Box<dyn Read + Send>,
    fd: OwnedFd,
    wake: UnixStream,
    term: Arc<Mutex<()>>,
    screen: Arc<Mutex<ScreenModes>>,
    stdout_is_tty: bool,
) {
    let fds = [fd.as_raw_fd(), wake.as_raw_fd()];
    let mut buf = vec![0u8; 64 * 1024];
    let mut draining = false;
    let mut stdout_ok = true;
    loop {
        if !draining {
            match sys::poll_readable(&fds, -1) {
                Ok(ready) if ready[1] && !ready[0] => {
                    draining = true;
                    if sys::set_nonblocking(fds[0]).is_err() {
                        break;
                    }
                }
                Ok(_) => {}
                Err(_) => break,
            }
        }
        let n = match pty.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                if draining {
                    break;
                }
                continue;
            }
            Err(_) => break,
        };
        // Under the lock: a prompt holds it, and the agent's output waits (and the pty fills,
        // and the agent blocks) until the prompt is answered.
        let _g = term.lock().unwrap_or_else(|e| e.into_inner());
        if stdout_is_tty {
            screen.lock().unwrap_or_else(|e| e.into_inner()).scan(&buf[..n]);
        }
        if stdout_ok {
            let mut out = io::stdout().lock();
            // gate's stdout gone (terminal closed): keep reading so the agent does not block;
            // SIGHUP ends the run.
            stdout_ok = out.write_all(&buf[..n]).and_then(|_| out.flush()).is_ok();
        }
    }
}

/// Copy gate's stdin to the agent's terminal, byte for byte. With `pause`, stdin is a
/// terminal: read only between prompts.
fn forward_keys(out: Arc<Mutex<Box<dyn Write + Send>>>, pause: Option<Arc<Pause>>) {
    let mut buf = vec![0u8; 16 * 1024];
    loop {
        let n = super::writer::read_stdin(&mut buf, pause.as_deref());
        let n = match n {
            Ok(0) => return,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted || e.kind() == io::ErrorKind::WouldBlock => continue,
            Err(_) => return,
        };
        let mut w = out.lock().unwrap_or_else(|e| e.into_inner());
        if w.write_all(&buf[..n]).and_then(|_| w.flush()).is_err() {
            // The agent's terminal is gone: it exited.
            return;
        }
    }
}

/// gate's terminal in raw mode, with the mode it had before.
pub struct RawTerminal {
    fd: RawFd,
    cooked: sys::Termios,
    raw: sys::Termios,
}

impl RawTerminal {
    /// Save the mode of terminal `fd` and make it raw.
    pub fn enter(fd: RawFd) -> io::Result<RawTerminal> {
        let cooked = sys::get_termios(fd)?;
        let t = RawTerminal { fd, cooked, raw: cooked.raw() };
        t.make_raw()?;
        Ok(t)
    }

    pub fn make_raw(&self) -> io::Result<()> {
        sys::set_termios(self.fd, &self.raw)
    }

    /// Back to the mode it had before gate started.
    pub fn restore(&self) -> io::Result<()> {
        sys::set_termios(self.fd, &self.cooked)
    }
}

/// Restores the terminal when dropped (return, `?`, panic unwinding through [`run`]): its mode,
/// and the screen modes an agent that died in the middle of its screen left switched on (an
/// alternate screen, a hidden cursor, mouse reporting).
struct Restore {
    raw: Option<Arc<RawTerminal>>,
    screen: Arc<Mutex<ScreenModes>>,
    stdout_is_tty: bool,
}

impl Drop for Restore {
    fn drop(&mut self) {
        if let Some(r) = &self.raw {
            let _ = r.restore();
        }
        let screen = self.screen.lock().unwrap_or_else(|e| e.into_inner());
        if self.stdout_is_tty && screen.any_changed() {
            let mut out = io::stdout().lock();
            let _ = out.write_all(&screen.leave()).and_then(|_| out.flush());
        }
    }
}

/// While the terminal is raw, gate's stderr (fd 2) is a pipe read by a thread that writes each
/// `\n` as `\r\n` to the real stderr, under the terminal lock. Dropping it puts fd 2 back and
/// waits for what was written to get out.
struct StderrRelay {
    saved: OwnedFd,
    thread: Option<JoinHandle<()>>,
}

impl StderrRelay {
    fn start(term: Arc<Mutex<()>>) -> io::Result<StderrRelay> {
        let saved = sys::dup_cloexec(2)?;
        let (r, w) = sys::pipe()?;
        let out = sys::dup_cloexec(saved.as_raw_fd())?;
        let thread = thread::Builder::new().name("stderr".into()).spawn(move || {
            let mut out = std::fs::File::from(out);
            let mut input = std::fs::File::from(r);
            let mut buf = vec![0u8; 8192];
            let mut crlf = Vec::with_capacity(16 * 1024);
            loop {
                let n = match input.read(&mut buf) {
                    Ok(0) => return,
                    Ok(n) => n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => return,
                };
                crlf.clear();
                for &b in &buf[..n] {
                    if b == b'\n' {
                        crlf.push(b'\r');
                    }
                    crlf.push(b);
                }
                let _g = term.lock().unwrap_or_else(|e| e.into_inner());
                let _ = out.write_all(&crlf);
            }
        })?;
        sys::dup_onto(w.as_raw_fd(), 2)?;
        drop(w);
        Ok(StderrRelay { saved, thread: Some(thread) })
    }
}

impl Drop for StderrRelay {
    fn drop(&mut self) {
        // fd 2 was the pipe's last write end: putting stderr back ends the relay thread.
        let _ = sys::dup_onto(self.saved.as_raw_fd(), 2);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// What the session calls around a terminal prompt in `--pty` mode.
struct PtyHandoff {
    raw: Option<Arc<RawTerminal>>,
    screen: Arc<Mutex<ScreenModes>>,
    master_fd: OwnedFd,
    pgid: i32,
    stdout_is_tty: bool,
}

impl PtyHandoff {
    fn write_screen(&self, bytes: &[u8]) {
        if self.stdout_is_tty && !bytes.is_empty() {
            let mut out = io::stdout().lock();
            let _ = out.write_all(bytes).and_then(|_| out.flush());
        }
    }
}

impl Handoff for PtyHandoff {
    fn release(&self) {
        if let Some(r) = &self.raw {
            let _ = r.restore();
        }
        let leave = self.screen.lock().unwrap_or_else(|e| e.into_inner()).leave();
        self.write_screen(&leave);
    }

    fn reclaim(&self) {
        let enter = self.screen.lock().unwrap_or_else(|e| e.into_inner()).enter();
        self.write_screen(&enter);
        if let Some(r) = &self.raw {
            let _ = r.make_raw();
        }
        // Make the agent redraw: SIGWINCH to whoever is in the foreground on its terminal.
        let group = sys::foreground_group(self.master_fd.as_raw_fd()).unwrap_or(self.pgid);
        sys::kill_group(group, libc::SIGWINCH);
    }
}

/// DEC private modes the agent may switch on that a prompt must not run under, with their
/// default state (true: on by default). Order: the screen first when entering.
const TRACKED: [(u16, bool); 10] = [
    (1049, false), // alternate screen, saving the cursor
    (1047, false), // alternate screen
    (47, false),   // alternate screen (old)
    (25, true),    // cursor visible
    (1000, false), // mouse: clicks
    (1002, false), // mouse: drags
    (1003, false), // mouse: all motion
    (1006, false), // mouse: SGR encoding
    (1015, false), // mouse: urxvt encoding
    (2004, false), // bracketed paste
];

/// Which [`TRACKED`] modes the agent's output left in a non-default state. Fed every byte of
/// the agent's output in order (sequences may be split across reads).
#[derive(Debug, Default)]
pub struct ScreenModes {
    /// Tracked modes currently not in their default state.
    changed: Vec<u16>,
    scan: Scan,
    params: Vec<u8>,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Scan {
    #[default]
    Ground,
    Esc,
    Csi,
    Private,
}

impl ScreenModes {
    pub fn scan(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.scan = match (self.scan, b) {
                (_, 0x1b) => Scan::Esc,
                (Scan::Esc, b'[') => Scan::Csi,
                (Scan::Csi, b'?') => {
                    self.params.clear();
                    Scan::Private
                }
                (Scan::Private, b'0'..=b'9' | b';') if self.params.len() < 64 => {
                    self.params.push(b);
                    Scan::Private
                }
                (Scan::Private, b'h' | b'l') => {
                    self.apply(b == b'h');
                    Scan::Ground
                }
                _ => Scan::Ground,
            };
        }
    }

    fn apply(&mut self, set: bool) {
        let params = std::mem::take(&mut self.params);
        for p in params.split(|&c| c == b';') {
            let Some(mode) = std::str::from_utf8(p).ok().and_then(|s| s.parse::<u16>().ok()) else { continue };
            let Some(&(_, default)) = TRACKED.iter().find(|(m, _)| *m == mode) else { continue };
            self.changed.retain(|&m| m != mode);
            if set != default {
                self.changed.push(mode);
            }
        }
        self.params = params;
    }

    pub fn any_changed(&self) -> bool {
        !self.changed.is_empty()
    }

    fn seq(mode: u16, on: bool) -> String {
        format!("\x1b[?{mode}{}", if on { 'h' } else { 'l' })
    }

    /// Bytes that put the terminal in its default modes for a prompt, on a fresh line.
    pub fn leave(&self) -> Vec<u8> {
        let mut s = String::from("\x1b[0m");
        for &(mode, default) in TRACKED.iter().rev() {
            if self.changed.contains(&mode) {
                s.push_str(&Self::seq(mode, default));
            }
        }
        s.push_str("\x1b[?25h\r\n");
        s.into_bytes()
    }

    /// Bytes that put back the modes the agent had set.
    pub fn enter(&self) -> Vec<u8> {
        let mut s = String::new();
        for &(mode, default) in TRACKED.iter() {
            if self.changed.contains(&mode) {
                s.push_str(&Self::seq(mode, !default));
            }
        }
        s.into_bytes()
    }
}

/// `--pty`: the agent's one connection on the socket carries the protocol both ways.
fn single_connection(
    listener: std::os::unix::net::UnixListener,
    socket_path: std::path::PathBuf,
    mut rd: Reader,
    conn_tx: mpsc::Sender<UnixStream>,
) -> std::io::Result<()> {
    rd.passthrough = Passthrough::Discard;
    thread::Builder::new().name("socket".into()).spawn(move || {
        match socket::accept_agent(listener, &socket_path, &rd.wake) {
            Ok(Accepted::Agent(stream)) => {
                if let Ok(w) = stream.try_clone() {
                    let _ = conn_tx.send(w);
                }
                drop(conn_tx);
                rd.run(stream);
            }
            Ok(Accepted::Gone) => {
                let _ = rd.tx.send(Event::Eof);
            }
            Err(e) => {
                eprintln!("gate: cannot accept the agent's connection on GATE_SOCKET: {e}");
                let _ = rd.tx.send(Event::Eof);
            }
        }
    })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_restores_the_terminal() {
        let pair = portable_pty::native_pty_system().openpty(PtySize::default()).unwrap();
        let name = pair.master.tty_name().unwrap();
        let tty = std::fs::OpenOptions::new().read(true).write(true).open(name).unwrap();
        let fd = tty.as_raw_fd();
        let before = sys::get_termios(fd).unwrap().local_flags();
        assert_ne!(before & libc::ICANON, 0);
        let r = std::panic::catch_unwind(|| {
            let raw = Arc::new(RawTerminal::enter(fd).unwrap());
            let _restore = Restore { raw: Some(raw), screen: Arc::default(), stdout_is_tty: false };
            assert_eq!(sys::get_termios(fd).unwrap().local_flags() & (libc::ICANON | libc::ECHO | libc::ISIG), 0);
            panic!("a panic while the terminal is raw");
        });
        assert!(r.is_err());
        assert_eq!(sys::get_termios(fd).unwrap().local_flags(), before);
    }

    #[test]
    fn screen_modes_follow_the_output_across_reads() {
        let mut s = ScreenModes::default();
        s.scan(b"hello \x1b[?104");
        s.scan(b"9h\x1b[?25l\x1b[?1000;1006hxx");
        assert_eq!(s.enter(), b"\x1b[?1049h\x1b[?25l\x1b[?1000h\x1b[?1006h");
        let leave = String::from_utf8(s.leave()).unwrap();
        assert!(leave.contains("\x1b[?1049l") && leave.contains("\x1b[?1000l") && leave.contains("\x1b[?25h"));
        s.scan(b"\x1b[?1049l\x1b[?25h\x1b[?1000;1006l");
        assert!(s.enter().is_empty());
        // Not a private mode sequence, or garbage inside one: ignored.
        s.scan(b"\x1b[1049h\x1b[?10x49h");
        assert!(s.enter().is_empty());
    }
}
