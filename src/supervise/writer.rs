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
    let mut w = BufWriter::with_capacity(64 * 1024, stdin);
    let mut alive = true;
    let mut warned = false;
    let mut in_input_line = false;
    let mut held: VecDeque<Vec<u8>> = VecDeque::new();
    loop {
        let msg = match rx.try_recv() {
            Ok(m) => m,
            Err(TryRecvError::Empty) => {
                if alive && w.flush().is_err() {
                    alive = false;
                }
                match rx.recv() {
                    Ok(m) => m,
                    Err(_) => break,
                }
            }
            Err(TryRecvError::Disconnected) => break,
        };
        let mut gate_lines: Vec<Vec<u8>> = Vec::new();
        match msg {
            ToAgent::Close => break,
            ToAgent::Gate(line) if in_input_line => held.push_back(line),
            ToAgent::Gate(line) => gate_lines.push(line),
            ToAgent::Input { data, line_end } => {
                if alive && w.write_all(&data).is_err() {
                    alive = false;
                }
                in_input_line = !line_end;
                if line_end {
                    gate_lines.extend(held.drain(..));
                }
            }
        }
        for line in gate_lines {
            if alive && w.write_all(&line).is_err() {
                alive = false;
            }
            if !alive && !warned && line.starts_with(b"{\"type\":\"decision\"") {
                warned = true;
                eprintln!("gate: the agent no longer reads its input; decisions cannot be delivered");
            }
        }
    }
    if alive {
        let _ = w.flush();
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
pub fn forward_stdin(tx: SyncSender<ToAgent>, pause: Option<Arc<Pause>>) {
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
