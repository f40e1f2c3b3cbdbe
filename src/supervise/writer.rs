//! The agent's stdin, and gate's own stdin that feeds it.
//!
//! One thread ([`run_writer`]) owns the agent's stdin and receives whole lines over a channel:
//! gate's lines (decisions, `welcome`, `input_closed`) and gate's stdin forwarded by a second
//! thread ([`forward_stdin`]). A forwarded line longer than a read arrives in parts; gate's
//! own lines wait until that line is complete, so nothing is ever written inside another line.
//! When the agent stops reading or exits, writes fail (EPIPE, SIGPIPE is ignored by Rust
//! programs): the writer then discards, so nobody blocks on a dead pipe.
//!
//! While a terminal prompt is open the forwarder is paused ([`Pause`]) when gate's stdin is a
//! terminal, so the keys typed at the prompt go to the prompt. These threads must not decide,
//! parse the protocol or write anywhere but the agent's stdin.

use std::collections::VecDeque;
use std::io::{self, BufWriter, Write};
use std::sync::mpsc::{Receiver, SyncSender, TryRecvError};
use std::sync::{Arc, Condvar, Mutex};

use super::sys;
use crate::protocol;

/// A message for the agent's stdin.
#[derive(Debug)]
pub enum ToAgent {
    /// A whole line from gate (ends with `\n`).
    Gate(Vec<u8>),
    /// Bytes of gate's stdin. `line_end`: these bytes end with `\n` (or are the last ones).
    Input { data: Vec<u8>, line_end: bool },
    /// Close the agent's stdin (its task is complete; it exits on end of input).
    Close,
}

/// Own the agent's stdin (or, with `--pty`, the protocol socket) until every sender is gone.
pub fn run_writer<W: Write>(stdin: W, rx: Receiver<ToAgent>) {
    let mut lines = Lines::new(stdin);
    loop {
        let msg = match rx.try_recv() {
            Ok(m) => m,
            Err(TryRecvError::Empty) => {
                lines.flush();
                match rx.recv() {
                    Ok(m) => m,
                    Err(_) => break,
                }
            }
            Err(TryRecvError::Disconnected) => break,
        };
        if !lines.take(msg) {
            break;
        }
    }
    lines.flush();
}

/// What the agent's stdin has been sent: whole lines, gate's own lines held while a forwarded
/// line is incomplete, and nothing written once the agent stopped reading.
struct Lines<W: Write> {
    w: BufWriter<W>,
    alive: bool,
    warned: bool,
    in_input_line: bool,
    held: VecDeque<Vec<u8>>,
}

impl<W: Write> Lines<W> {
    fn new(w: W) -> Lines<W> {
        Lines {
            w: BufWriter::with_capacity(64 * 1024, w),
            alive: true,
            warned: false,
            in_input_line: false,
            held: VecDeque::new(),
        }
    }

    /// Write one message (buffered). False on `Close`.
    fn take(&mut self, msg: ToAgent) -> bool {
        let mut gate_lines: Vec<Vec<u8>> = Vec::new();
        match msg {
            ToAgent::Close => return false,
            ToAgent::Gate(line) if self.in_input_line => self.held.push_back(line),
            ToAgent::Gate(line) => gate_lines.push(line),
            ToAgent::Input { data, line_end } => {
                if self.alive && self.w.write_all(&data).is_err() {
                    self.alive = false;
                }
                self.in_input_line = !line_end;
                if line_end {
                    gate_lines.extend(self.held.drain(..));
                }
            }
        }
        for line in gate_lines {
            if self.alive && self.w.write_all(&line).is_err() {
                self.alive = false;
            }
            if !self.alive && !self.warned && line.starts_with(b"{\"type\":\"decision\"") {
                self.warned = true;
                eprintln!("gate: the agent no longer reads its input; decisions cannot be delivered");
            }
        }
        true
    }

    fn flush(&mut self) {
        if self.alive && self.w.flush().is_err() {
            self.alive = false;
        }
    }
}

/// The way to the agent's stdin: a channel to a writer thread ([`run_writer`]), or the pipe
/// itself under a lock, written by whoever sends (no thread hop: the decision reaches the agent
/// from the thread that made it).
#[derive(Clone)]
pub enum AgentTx {
    Channel(SyncSender<ToAgent>),
    Direct(Arc<Mutex<Option<DirectLines>>>),
}

/// The agent's side of the pipe is gone (or busy, for [`AgentTx::try_send`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Gone;

/// The agent's stdin written in place (see [`AgentTx::Direct`]).
pub struct DirectLines(Lines<Box<dyn Write + Send>>, Option<Room>);

/// How much the agent's stdin pipe can still take without a write waiting: gate is its only
/// writer, so the space seen once only shrinks by what gate writes until it is looked at again.
struct Room {
    pipe: std::os::fd::OwnedFd,
    size: usize,
    credit: usize,
}

impl Room {
    fn of(fd: std::os::fd::BorrowedFd<'_>) -> Option<Room> {
        let stat = rustix::fs::fstat(fd).ok()?;
        if rustix::fs::FileType::from_raw_mode(stat.st_mode) != rustix::fs::FileType::Fifo {
            return None;
        }
        let size = rustix::pipe::fcntl_getpipe_size(fd).ok()?;
        Some(Room { pipe: fd.try_clone_to_owned().ok()?, size, credit: 0 })
    }

    /// At least `n` bytes fit now; looks at the pipe only when what is known is not enough.
    fn has(&mut self, n: usize) -> bool {
        if self.credit < n {
            // An error (the agent is gone): writes fail at once, nothing waits.
            self.credit = match rustix::io::ioctl_fionread(&self.pipe) {
                Ok(queued) => self.size.saturating_sub(usize::try_from(queued).unwrap_or(usize::MAX)),
                Err(_) => usize::MAX,
            };
        }
        self.credit >= n
    }
}

impl AgentTx {
    /// Write straight to `w` from the sending thread.
    pub fn direct(w: impl Write + Send + 'static) -> AgentTx {
        AgentTx::Direct(Arc::new(Mutex::new(Some(DirectLines(Lines::new(Box::new(w)), None)))))
    }

    /// [`AgentTx::direct`] to a pipe whose free space [`AgentTx::has_room`] can tell.
    pub fn direct_pipe(w: std::process::ChildStdin) -> AgentTx {
        use std::os::fd::AsFd;
        let room = Room::of(w.as_fd());
        AgentTx::Direct(Arc::new(Mutex::new(Some(DirectLines(Lines::new(Box::new(w)), room)))))
    }

    /// Whether `n` more bytes can be written now without waiting for the agent to read: a
    /// thread that must not wait (the reader, which the agent may be blocked on) asks first.
    /// Unknown (not a pipe, a channel): true, as before this was asked.
    pub fn has_room(&self, n: usize) -> bool {
        match self {
            AgentTx::Channel(_) => true,
            AgentTx::Direct(d) => {
                let mut g = d.lock().unwrap_or_else(|e| e.into_inner());
                match g.as_mut() {
                    Some(DirectLines(_, Some(room))) => room.has(n),
                    _ => true,
                }
            }
        }
    }

    /// Send one message; an error means the agent's side is gone.
    pub fn send(&self, msg: ToAgent) -> Result<(), Gone> {
        match self {
            AgentTx::Channel(tx) => tx.send(msg).map_err(|_| Gone),
            AgentTx::Direct(d) => {
                let mut g = d.lock().unwrap_or_else(|e| e.into_inner());
                Self::write(&mut g, msg)
            }
        }
    }

    /// As [`AgentTx::send`], but never waits (a signal handler's interrupt line).
    pub fn try_send(&self, msg: ToAgent) -> Result<(), Gone> {
        match self {
            AgentTx::Channel(tx) => tx.try_send(msg).map_err(|_| Gone),
            AgentTx::Direct(d) => match d.try_lock() {
                Ok(mut g) => Self::write(&mut g, msg),
                Err(_) => Err(Gone),
            },
        }
    }

    fn write(g: &mut Option<DirectLines>, msg: ToAgent) -> Result<(), Gone> {
        let Some(lines) = g.as_mut() else { return Err(Gone) };
        if let Some(room) = &mut lines.1 {
            let n = match &msg {
                ToAgent::Gate(l) => l.len(),
                ToAgent::Input { data, .. } => data.len(),
                ToAgent::Close => 0,
            };
            room.credit = room.credit.saturating_sub(n);
        }
        if lines.0.take(msg) {
            // Whole lines are flushed at once: nobody else will flush them later.
            if !lines.0.in_input_line {
                lines.0.flush();
            }
            Ok(())
        } else {
            lines.0.flush();
            *g = None;
            Ok(())
        }
    }
}

impl From<SyncSender<ToAgent>> for AgentTx {
    fn from(tx: SyncSender<ToAgent>) -> AgentTx {
        AgentTx::Channel(tx)
    }
}

/// Pauses the stdin forwarder while a prompt owns the terminal.
#[derive(Debug, Default)]
pub struct Pause {
    state: Mutex<PauseState>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct PauseState {
    paused: bool,
    reading: bool,
}

/// Resumes forwarding when dropped.
pub struct PauseGuard<'a>(&'a Pause);

impl Pause {
    /// Stop forwarding; returns once the forwarder is not reading.
    pub fn pause(&self) -> PauseGuard<'_> {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.paused = true;
        while s.reading {
            s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        PauseGuard(self)
    }

    pub(super) fn begin_read(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        while s.paused {
            s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.reading = true;
    }

    pub(super) fn end_read(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.reading = false;
        self.changed.notify_all();
    }
}

impl Drop for PauseGuard<'_> {
    fn drop(&mut self) {
        let mut s = self.0.state.lock().unwrap_or_else(|e| e.into_inner());
        s.paused = false;
        self.0.changed.notify_all();
    }
}

/// Read a chunk of gate's stdin. With `pause` (stdin is the prompt's terminal), only between
/// prompts: while one is open this returns `WouldBlock` every 100 ms instead of reading.
pub(crate) fn read_stdin(buf: &mut [u8], pause: Option<&Pause>) -> io::Result<usize> {
    match pause {
        Some(p) => {
            p.begin_read();
            let r = match sys::poll_readable(&[0], 100) {
                Ok(ready) if ready[0] => sys::read_fd(0, buf),
                Ok(_) => Err(io::ErrorKind::WouldBlock.into()),
                Err(e) => Err(e),
            };
            p.end_read();
            r
        }
        None => sys::read_fd(0, buf),
    }
}

/// Forward gate's stdin to the agent as whole lines; at its end send `input_closed`.
/// With `pause`, stdin is a terminal: read only between prompts.
pub fn forward_stdin(tx: AgentTx, pause: Option<Arc<Pause>>) {
    const CHUNK: usize = 64 * 1024;
    let mut buf = vec![0u8; CHUNK];
    let mut partial: Vec<u8> = Vec::new();
    let mut mid_line = false;
    loop {
        let n = read_stdin(&mut buf, pause.as_deref());
        let n = match n {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted || e.kind() == io::ErrorKind::WouldBlock => continue,
            // EBADF (no stdin), EIO (terminal gone): treat as its end.
            Err(_) => break,
        };
        let data = &buf[..n];
        match memchr::memrchr(b'\n', data) {
            Some(last) => {
                // Everything up to the last newline is whole lines: send it as one message.
                partial.extend_from_slice(&data[..=last]);
                let whole = std::mem::take(&mut partial);
                if tx.send(ToAgent::Input { data: whole, line_end: true }).is_err() {
                    return;
                }
                mid_line = false;
                partial.extend_from_slice(&data[last + 1..]);
            }
            None => partial.extend_from_slice(data),
        }
        if partial.len() >= CHUNK {
            // A very long line: send it in parts (the writer keeps it whole on the wire).
            let part = std::mem::take(&mut partial);
            if tx.send(ToAgent::Input { data: part, line_end: false }).is_err() {
                return;
            }
            mid_line = true;
        }
    }
    if !partial.is_empty() || mid_line {
        // The last line had no newline: end it, so `input_closed` is a line of its own.
        partial.push(b'\n');
        if tx.send(ToAgent::Input { data: partial, line_end: true }).is_err() {
            return;
        }
    }
    let _ = tx.send(ToAgent::Gate(protocol::native::input_closed_line()));
}
