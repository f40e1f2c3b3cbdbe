//! The agent's stdout: split it into lines, pass every non-protocol line to gate's stdout
//! byte-exact and in order, and queue protocol lines for the session (the decider).
//!
//! Memory is bounded whatever the agent sends: passthrough is streamed in read-sized pieces,
//! a line that may be a protocol line (it starts with `{`) is held up to `--max-line` bytes,
//! and the queue to the session is limited by a byte [`Budget`]: when it is full this thread
//! stops reading and the agent blocks on its own writes. This thread must not decide, prompt
//! or write to the agent.

use std::collections::HashSet;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, AsRawFd, RawFd};
use std::os::unix::net::UnixStream;
use std::sync::mpsc::Sender;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Instant;

use super::sys;
use crate::protocol::{Decoder, Incoming, Shown};

/// What the reader hands the session, in the order the lines arrived.
#[derive(Debug)]
#[allow(clippy::large_enum_variant)] // `Eof` is sent once; boxing every line would buy nothing.
pub enum Event {
    Line {
        incoming: Incoming,
        received: Instant,
        cost: usize,
        /// Where the answer goes when not to the agent's stdin (a connection on the socket).
        reply: Option<ReplyTo>,
    },
    /// The agent's stdout ended (or gate's stdout did: then the agent's is closed too).
    Eof,
    /// Nothing to read: something was parked for the session (a reloaded policy).
    Wake,
}

/// Bytes queued between the reader and the session. `acquire` blocks while the queue is full,
/// except that one event is always let through.
#[derive(Debug)]
pub struct Budget {
    used: Mutex<usize>,
    freed: Condvar,
    cap: usize,
}

impl Budget {
    pub fn new(cap: usize) -> Budget {
        Budget { used: Mutex::new(0), freed: Condvar::new(), cap }
    }

    pub fn acquire(&self, n: usize) {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used > 0 && *used + n > self.cap {
            used = self.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += n;
    }

    pub fn release(&self, n: usize) {
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        *used = used.saturating_sub(n);
        self.freed.notify_all();
    }
}

/// Where the reader sends lines that are not protocol lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Passthrough {
    /// gate's stdout, byte-exact and in order.
    Stdout,
    /// Dropped, with one warning on stderr (the protocol socket of `--pty`).
    Discard,
}

/// The session shared with the deciding thread, and how many events wait for it.
pub struct FastPath {
    pub session: Arc<Mutex<super::session::Session>>,
    pub queued: Arc<std::sync::atomic::AtomicUsize>,
}

/// Ids of requests queued or being decided.
pub type OpenIds = Arc<Mutex<HashSet<String>>>;

/// The way back to a connection that asked (one per connection on the decision socket).
pub type ReplyTo = std::sync::mpsc::Sender<Vec<u8>>;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// At the start of a line.
    Start,
    /// Inside a line that is not for gate: streamed out.
    Pass,
    /// Inside a line that starts with `{`: held until its end.
    Candidate,
    /// Inside a protocol line that went over the limit: dropped until its end.
    Skip,
}

pub struct Reader {
    pub max_line: usize,
    pub tx: Sender<Event>,
    pub budget: Arc<Budget>,
    pub open: OpenIds,
    /// Becomes readable when the agent has exited: drain what is in the pipe, then stop.
    pub wake: UnixStream,
    /// Held by an open terminal prompt when gate's stdout is a terminal.
    pub term: Option<Arc<Mutex<()>>>,
    /// Where lines that are not for gate go: gate's stdout, or (on `GATE_SOCKET`, where the
    /// agent's screen is the terminal) nowhere.
    pub passthrough: Passthrough,
    /// Reads the agent's protocol.
    pub decoder: Box<dyn Decoder>,
    /// Answers go back on this connection instead of the agent's stdin.
    pub reply: Option<ReplyTo>,
    /// Send [`Event::Eof`] at the end (false for one of many connections: the session goes on).
    pub send_eof: bool,
    /// The other end of `wake`, kept open when nothing else wakes this reader.
    pub wake_peer: Option<UnixStream>,
    /// Lines not for gate go to the agent's stdin instead of gate's stdout (a proxy's client
    /// side: what the editor or host sends passes on to the agent).
    pub to_agent: Option<super::writer::AgentTx>,
    /// Write only whole lines (another thread writes lines to the same stdout).
    pub whole_lines: bool,
    /// Decide calls on this thread when no person is needed and nothing is queued before them.
    pub fast: Option<FastPath>,
    /// After the agent exited, what it left running may still write: read until its end of
    /// output for up to this long, then end the group (the closure) and read what it says
    /// while ending, for up to this long again. `None`: take only what the pipe holds.
    pub linger: Option<(std::time::Duration, Box<dyn FnOnce() + Send>)>,
    /// The descriptor read is gate's own (a pipe it made for the agent's stdout): it may be
    /// made non-blocking, so that after a read that filled the buffer the next read is tried
    /// before waiting (a stream gate is behind on costs one system call a read, not two).
    /// Not for descriptors shared with others (gate's stdin, a socket with a writer clone).
    pub own_fd: bool,
    /// This read's lines included a call answered on this thread: the agent, woken by the
    /// answer, has often written its next line already (on a busy or single CPU it runs
    /// while gate finishes the write), so that line is read before waiting. Measured pinned
    /// to one CPU: 0.5 µs less a round trip; elsewhere at most one read that finds nothing.
    answered: bool,
    state: State,
    /// Lines seen so far (for messages).
    lines: u64,
    warned_malformed: bool,
    line: Vec<u8>,
    pending: Vec<u8>,
    stdout_ok: bool,
    warned_discard: bool,
}

/// Half a default pipe (64 KiB): a write of one read, with the part line held before it,
/// then fits beside the previous one, so gate and the program reading its output work at the
/// same time instead of taking turns. Measured on the ACP passthrough benchmark (two CPUs,
/// alternating builds): 64 KiB 0.71-0.74 of `cat`, 32 KiB 0.80-0.91, 24 KiB 0.73-0.83, 16 KiB
/// 0.68-0.73.
const READ_SIZE: usize = 32 * 1024;
const FLUSH_AT: usize = 64 * 1024;

impl Reader {
    pub fn new(
        max_line: usize,
        tx: Sender<Event>,
        budget: Arc<Budget>,
        open: OpenIds,
        wake: UnixStream,
        term: Option<Arc<Mutex<()>>>,
    ) -> Reader {
        Reader {
            max_line,
            tx,
            budget,
            open,
            wake,
            term,
            passthrough: Passthrough::Stdout,
            decoder: Box::new(crate::protocol::native::NativeDecoder),
            reply: None,
            send_eof: true,
            wake_peer: None,
            answered: false,
            to_agent: None,
            whole_lines: false,
            fast: None,
            linger: None,
            own_fd: false,
            state: State::Start,
            lines: 0,
            warned_malformed: false,
            line: Vec::new(),
            pending: Vec::with_capacity(FLUSH_AT * 2),
            stdout_ok: true,
            warned_discard: false,
        }
    }

    /// Read the agent's stdout to its end. Sends [`Event::Eof`] last, whatever happens.
    pub fn run<R: Read + AsRawFd + AsFd>(mut self, mut agent_out: R) {
        let fd: RawFd = agent_out.as_raw_fd();
        let wake_fd = self.wake.as_raw_fd();
        let mut buf = vec![0u8; READ_SIZE];
        let mut draining = false;
        let (grace, mut end) = match self.linger.take() {
            Some((g, f)) => (Some(g), Some(f)),
            None => (None, None),
        };
        let mut deadline: Option<Instant> = None;
        let own = self.own_fd && sys::set_nonblocking(fd).is_ok();
        // Registered once; poll(2) each time if epoll cannot be had.
        let waiter = sys::Readable::new(&[agent_out.as_fd(), self.wake.as_fd()]);
        // The last read filled the buffer: more is likely waiting, so read before waiting.
        let mut full = false;
        loop {
            if !draining && !full {
                let ready = match &waiter {
                    Ok(w) => w.wait(),
                    Err(_) => sys::poll_readable(&[fd, wake_fd], -1).map(|r| [r[0], r[1]]),
                };
                match ready {
                    Ok(ready) if ready[1] && !ready[0] => {
                        // The agent exited and nothing is left to read right now: take what
                        // the pipe still holds without waiting for its other writers.
                        draining = true;
                        if sys::set_nonblocking(fd).is_err() {
                            break;
                        }
                    }
                    Ok(_) => {}
                    Err(e) => {
                        eprintln!("gate: cannot wait for the agent's output: {e}");
                        break;
                    }
                }
            }
            match agent_out.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    self.answered = false;
                    let more = self.process(&buf[..n]);
                    full = own && (n == buf.len() || self.answered);
                    if !more {
                        break;
                    }
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    full = false;
                    if draining {
                        let Some(grace) = grace else { break };
                        let now = Instant::now();
                        let until = *deadline.get_or_insert(now + grace);
                        if now >= until {
                            // Time is up for what the agent left behind: end it, and read
                            // what it writes while it ends, for one more grace period.
                            match end.take() {
                                Some(f) => {
                                    f();
                                    deadline = Some(Instant::now() + grace);
                                    continue;
                                }
                                None => break,
                            }
                        }
                        let ms = (until - now).as_millis().clamp(1, i32::MAX as u128) as i32;
                        if sys::poll_readable(&[fd], ms).is_err() {
                            break;
                        }
                    }
                }
                Err(e) => {
                    eprintln!("gate: cannot read the agent's output: {e}");
                    break;
                }
            }
            if !self.flush() {
                break;
            }
        }
        if self.stdout_ok {
            self.finish();
            if let Some(tail) = self.decoder.finish() {
                self.out(&tail);
            }
            self.whole_lines = false;
            self.flush();
        }
        // Dropping `agent_out` closes our end of the pipe: if gate's stdout went away, the
        // agent's next write fails the way it would in a plain pipeline.
        drop(agent_out);
        if self.send_eof {
            let _ = self.tx.send(Event::Eof);
        }
    }

    /// Handle one read. False when gate's stdout is gone (stop reading).
    fn process(&mut self, mut data: &[u8]) -> bool {
        let plain = self.decoder.passes_plain_lines();
        while !data.is_empty() {
            match self.state {
                State::Start => {
                    // Whole lines the decoder can vouch for at once (an ACP agent's stream of
                    // session updates) pass in one piece.
                    if data[0] == b'{' {
                        if let Some(last) = memchr::memrchr(b'\n', data) {
                            let block = &data[..=last];
                            if let Some(n) = self.decoder.passes_block(block) {
                                self.lines += n as u64;
                                self.out_whole(block);
                                data = &data[last + 1..];
                                if !self.keep_going() {
                                    return false;
                                }
                                continue;
                            }
                        }
                    }
                    self.state = if data[0] == b'{' { State::Candidate } else { State::Pass };
                }
                // Only a line that starts with `{` can be for gate: jump from line end to line
                // end straight to the next such line, so plain output costs one scan and one
                // copy per read.
                State::Pass => match memchr::memmem::find(data, b"\n{") {
                    Some(i) => {
                        if plain {
                            self.out(&data[..=i]);
                        }
                        self.lines += memchr::memchr_iter(b'\n', &data[..=i]).count() as u64;
                        data = &data[i + 1..];
                        self.state = State::Start;
                    }
                    None => {
                        if plain {
                            self.out(data);
                        }
                        self.lines += memchr::memchr_iter(b'\n', data).count() as u64;
                        if data.last() == Some(&b'\n') {
                            self.state = State::Start;
                        }
                        data = &[];
                    }
                },
                State::Skip => match memchr::memchr(b'\n', data) {
                    Some(i) => {
                        self.lines += 1;
                        data = &data[i + 1..];
                        self.state = State::Start;
                    }
                    None => data = &[],
                },
                State::Candidate => {
                    let end = memchr::memchr(b'\n', data);
                    // A whole line inside this read: decided where it lies, without a copy.
                    if let Some(i) = end.filter(|&i| self.line.is_empty() && i <= self.max_line) {
                        self.lines += 1;
                        self.state = State::Start;
                        self.candidate_in(&data[..i], true, Some(&data[..=i]));
                        data = &data[i + 1..];
                        if !self.keep_going() {
                            return false;
                        }
                        continue;
                    }
                    let piece = &data[..end.unwrap_or(data.len())];
                    if self.line.len() + piece.len() > self.max_line {
                        let room = self.max_line - self.line.len();
                        self.line.extend_from_slice(&piece[..room]);
                        self.oversize();
                        // The rest of this piece (and of the line) continues in the new state.
                        data = &data[room..];
                        continue;
                    }
                    self.line.extend_from_slice(piece);
                    match end {
                        Some(i) => {
                            self.lines += 1;
                            data = &data[i + 1..];
                            self.state = State::Start;
                            let line = std::mem::take(&mut self.line);
                            self.candidate(&line, true);
                            self.line = line;
                            self.line.clear();
                            if self.line.capacity() > READ_SIZE * 4 {
                                self.line = Vec::new();
                            }
                        }
                        None => data = &[],
                    }
                }
            }
            if !self.keep_going() {
                return false;
            }
        }
        self.stdout_ok
    }

    /// After a piece of a read: false once gate's stdout is gone; a full buffer is flushed.
    fn keep_going(&mut self) -> bool {
        self.stdout_ok && (self.pending.len() < FLUSH_AT || self.flush())
    }

    /// The agent's stdout ended inside a line.
    fn finish(&mut self) {
        if self.state == State::Candidate && !self.line.is_empty() {
            let line = std::mem::take(&mut self.line);
            self.candidate(&line, false);
        }
    }

    /// A whole line that starts with `{` (without its newline).
    fn candidate(&mut self, line: &[u8], newline: bool) {
        self.candidate_in(line, newline, None);
    }

    /// [`Reader::candidate`]; `whole`, when given, is the line with its newline as it lies in
    /// the read buffer (passed on in one piece).
    fn candidate_in(&mut self, line: &[u8], newline: bool, whole: Option<&[u8]>) {
        let (shown, incoming) = self.decoder.line(line);
        match shown {
            Shown::Line => match whole {
                Some(w) => self.out(w),
                None => {
                    self.out(line);
                    if newline {
                        self.out(b"\n");
                    }
                }
            },
            Shown::Hidden => {}
            Shown::Text(text) => self.out(&text),
        }
        match incoming {
            Incoming::Nothing => {}
            Incoming::Malformed(why) => {
                if !self.warned_malformed {
                    self.warned_malformed = true;
                    self.flush();
                    eprintln!(
                        "gate: line {} of the agent's output looks like a protocol message but {why}; it was passed through as output, not decided (this warning is shown once)",
                        self.lines
                    );
                }
            }
            incoming => self.emit(incoming, line.len()),
        }
    }

    /// The held line reached `--max-line` without ending.
    fn oversize(&mut self) {
        match self.decoder.oversize(&self.line, self.max_line) {
            Some(incoming) => {
                self.line = Vec::new();
                self.state = State::Skip;
                self.emit(incoming, self.max_line);
            }
            None => {
                // Not recognisably for gate: the agent's own (long) output. Stream it.
                let line = std::mem::take(&mut self.line);
                self.out(&line);
                self.state = State::Pass;
            }
        }
    }

    fn emit(&mut self, incoming: Incoming, len: usize) {
        // What came before this line must be out before gate acts on it (a prompt, say).
        self.flush();
        let incoming = match incoming {
            Incoming::Call(r) if self.open.lock().unwrap_or_else(|e| e.into_inner()).contains(&r.id.key) => {
                Incoming::Bad {
                    id: Some(r.id),
                    tool: Some(r.call.tool),
                    error: "a tool request whose id is already open".into(),
                }
            }
            other => other,
        };
        if let Incoming::Bad { id, error, .. } = &incoming {
            let id = id.as_ref().map(|i| format!(" (id {})", i.shown)).unwrap_or_default();
            let answer = if id.is_empty() { "no id could be read, so no denial was sent" } else { "it is denied" };
            eprintln!("gate: bad line from the agent{id}: {error}; {answer}");
        }
        // Answered here and now when nothing waits before it and no person is needed: the id
        // is never open, since the reader reads nothing else meanwhile.
        if let (Some(fast), Incoming::Call(r)) = (&self.fast, &incoming) {
            use std::sync::atomic::Ordering;
            if fast.queued.load(Ordering::SeqCst) == 0 {
                if let Ok(mut s) = fast.session.try_lock() {
                    if s.answer_now(r, Instant::now(), self.reply.as_ref()) {
                        self.answered = true;
                        return;
                    }
                }
            }
        }
        if let Incoming::Call(r) = &incoming {
            self.open.lock().unwrap_or_else(|e| e.into_inner()).insert(r.id.key.clone());
        }
        if let Some(fast) = &self.fast {
            fast.queued.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        }
        let cost = len.max(256);
        self.budget.acquire(cost);
        let _ = self.tx.send(Event::Line { incoming, received: Instant::now(), cost, reply: self.reply.clone() });
    }

    fn out(&mut self, bytes: &[u8]) {
        if self.passthrough == Passthrough::Discard {
            if !bytes.is_empty() && !self.warned_discard {
                self.warned_discard = true;
                eprintln!(
                    "gate: ignoring text on GATE_SOCKET that is not a protocol line (only protocol lines go there: see docs/protocol.md)"
                );
            }
            return;
        }
        if self.stdout_ok {
            self.pending.extend_from_slice(bytes);
        }
    }

    /// Whole lines for gate's stdout, written straight from the read buffer (no copy) after
    /// what is pending, in one system call. Pending text here ends at a line's end: this is
    /// called only between lines.
    fn out_whole(&mut self, lines: &[u8]) {
        if self.to_agent.is_some() || self.passthrough != Passthrough::Stdout {
            return self.out(lines);
        }
        if !self.stdout_ok {
            return;
        }
        let _guard = self.term.as_ref().map(|t| t.lock().unwrap_or_else(|e| e.into_inner()));
        let mut stdout = io::stdout().lock();
        let mut bufs = [io::IoSlice::new(&self.pending), io::IoSlice::new(lines)];
        let mut bufs = &mut bufs[..];
        let mut ok = true;
        while ok && bufs.iter().any(|b| !b.is_empty()) {
            match stdout.write_vectored(bufs) {
                Ok(0) => ok = false,
                Ok(n) => io::IoSlice::advance_slices(&mut bufs, n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(_) => ok = false,
            }
        }
        self.pending.clear();
        if !ok || stdout.flush().is_err() {
            self.stdout_ok = false;
        }
    }

    /// Write what is pending to gate's stdout. False once gate's stdout is gone.
    fn flush(&mut self) -> bool {
        if self.pending.is_empty() || !self.stdout_ok {
            return self.stdout_ok;
        }
        // A line still being read waits (unless it is huge), so that nothing another thread
        // writes can land inside it.
        let upto = if self.whole_lines && self.pending.len() < 64 << 20 {
            match memchr::memrchr(b'\n', &self.pending) {
                Some(i) => i + 1,
                None => return true,
            }
        } else {
            self.pending.len()
        };
        if let Some(tx) = &self.to_agent {
            let data: Vec<u8> = self.pending.drain(..upto).collect();
            let line_end = data.last() == Some(&b'\n');
            if tx.send(super::writer::ToAgent::Input { data, line_end }).is_err() {
                self.stdout_ok = false;
            }
            return self.stdout_ok;
        }
        let _guard = self.term.as_ref().map(|t| t.lock().unwrap_or_else(|e| e.into_inner()));
        let mut stdout = io::stdout().lock();
        let r = stdout.write_all(&self.pending[..upto]).and_then(|_| stdout.flush());
        self.pending.drain(..upto);
        if self.pending.capacity() > FLUSH_AT * 4 {
            self.pending = Vec::with_capacity(FLUSH_AT * 2);
        }
        if r.is_err() {
            // Downstream closed (EPIPE) or stdout is unusable: stop reading the agent.
            self.stdout_ok = false;
        }
        self.stdout_ok
    }
}
