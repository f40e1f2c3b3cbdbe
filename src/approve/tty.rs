//! The one-key prompt on the controlling terminal (`/dev/tty`), used by `gate run` when the
//! chain ends at "prompt" and a terminal is there, even when gate's stdin and stdout are pipes.
//!
//! It shows the call ([`super::present`]), then reads one key in raw mode ([`super::term`]):
//! `y` once, `s` session, `a` always, `n` reject and go on (then one line of optional
//! feedback, Enter for none), `h` reject and stop the batch, `v` the whole content in the
//! pager ([`super::pager`]) and back. Ctrl-C (as a key, or as SIGINT through
//! [`Cancel::interrupted`]) rejects and stops the batch; `--prompt-timeout` denies when nobody
//! answers. Any other key, several keys at once (a paste) or an escape sequence shows the keys
//! again and never approves. What was typed before the prompt appeared is thrown away.
//!
//! It reads and writes `/dev/tty` only, never gate's stdin or stdout (the supervisor keeps
//! those off the terminal while it is open). It never approves on an error: a terminal that
//! closes, fails or cannot be put in raw mode is an [`ApproveError`], which the supervisor
//! answers with a denial. The terminal's settings are restored after every prompt, whatever
//! the way out (return, error, Ctrl-C, panic).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use super::present::{self, colour_wanted};
use super::term::{self, Key, Keys, RawMode};
use super::view::FileNow;
use super::{pager, Answer, ApproveError, Approver, Cancel, PromptInfo, Reply};
use crate::supervise::sys;

pub use super::present::{sanitize, summarize};

/// The longest feedback line kept, in bytes.
pub const MAX_FEEDBACK: usize = 4096;

/// The terminal prompt. Holds `/dev/tty` open for the whole run.
pub struct TermPrompt {
    tty: File,
    timeout: Option<Duration>,
    color: bool,
    pager: Option<String>,
}

/// What a wait for keys ended with.
enum Got {
    Keys(Vec<Key>),
    Interrupted,
    TimedOut,
    /// Answered elsewhere (the web page) first.
    Withdrawn,
}

impl TermPrompt {
    /// Open the controlling terminal. Fails when gate has none (or it is not a terminal):
    /// then gate is non-interactive.
    pub fn open(timeout: Option<Duration>) -> io::Result<TermPrompt> {
        let tty = OpenOptions::new().read(true).write(true).open("/dev/tty")?;
        if !term::is_terminal(&tty) {
            return Err(io::Error::other("/dev/tty is not a terminal"));
        }
        let env = |k: &str| std::env::var(k).ok();
        let color = colour_wanted(true, env("TERM").as_deref(), env("NO_COLOR").as_deref(), env("CLICOLOR").as_deref());
        term::install_panic_hook();
        Ok(TermPrompt { tty, timeout, color, pager: env("PAGER") })
    }

    fn say(&self, text: &str) -> Result<(), ApproveError> {
        let mut t = &self.tty;
        t.write_all(text.as_bytes())
            .and_then(|_| t.flush())
            .map_err(|e| ApproveError::Terminal(format!("cannot write to the terminal: {e}")))
    }

    /// A message, wrapped to the terminal's width.
    fn tell(&self, text: &str) -> Result<(), ApproveError> {
        self.say(&present::note(text, self.width(), self.color))
    }

    fn width(&self) -> usize {
        term::width(&self.tty).unwrap_or(80)
    }

    /// Wait for the next keys, watching for a dead agent, SIGINT and the deadline.
    fn wait_keys(&self, keys: &mut Keys, cancel: &Cancel, deadline: Option<Instant>) -> Result<Got, ApproveError> {
        let fd = self.tty.as_raw_fd();
        let mut buf = [0u8; 256];
        loop {
            if cancel.agent_gone() {
                return Err(ApproveError::AgentGone);
            }
            if cancel.interrupted() {
                return Ok(Got::Interrupted);
            }
            if cancel.withdrawn() {
                return Ok(Got::Withdrawn);
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(Got::TimedOut);
            }
            let ready = sys::poll_readable(&[fd], 100)
                .map_err(|e| ApproveError::Terminal(format!("cannot wait for the terminal: {e}")))?;
            if !ready[0] {
                continue;
            }
            let n = match sys::read_fd(fd, &mut buf) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted || e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(e) => return Err(ApproveError::Terminal(format!("the terminal was lost: {e}"))),
            };
            if n == 0 {
                return Err(ApproveError::Terminal("the terminal was lost (it closed)".into()));
            }
            let got = keys.feed(&buf[..n]);
            if !got.is_empty() {
                return Ok(Got::Keys(got));
            }
        }
    }

    /// One line of feedback, edited in raw mode: Enter ends it, Backspace and Ctrl-U edit,
    /// Ctrl-C stops the batch. `None` for an empty line.
    fn feedback(
        &self,
        keys: &mut Keys,
        cancel: &Cancel,
        deadline: Option<Instant>,
    ) -> Result<Result<Option<String>, Got>, ApproveError> {
        self.say(&present::question("  feedback for the agent (Enter for none): ", self.width(), self.color))?;
        let mut line = String::new();
        loop {
            let got = match self.wait_keys(keys, cancel, deadline)? {
                Got::Keys(k) => k,
                other => {
                    self.say("\n")?;
                    return Ok(Err(other));
                }
            };
            for k in got {
                match k {
                    Key::Enter => {
                        self.say("\n")?;
                        let l = line.trim().to_string();
                        return Ok(Ok((!l.is_empty()).then_some(l)));
                    }
                    Key::CtrlC => {
                        self.say("\n")?;
                        return Ok(Err(Got::Interrupted));
                    }
                    Key::Backspace if !line.is_empty() => {
                        let gone = line.pop().map(|c| sanitize(&c.to_string())).unwrap_or_default();
                        self.say(&"\u{8} \u{8}".repeat(console::measure_text_width(&gone)))?;
                    }
                    Key::KillLine => {
                        let n = console::measure_text_width(&sanitize(&line));
                        line.clear();
                        self.say(&"\u{8} \u{8}".repeat(n))?;
                    }
                    Key::Char(c) if line.len() + c.len_utf8() <= MAX_FEEDBACK && !c.is_control() => {
                        line.push(c);
                        self.say(&sanitize(&c.to_string()))?;
                    }
                    _ => {}
                }
            }
        }
    }

    fn interrupted(&self) -> Result<Reply, ApproveError> {
        self.tell("\n  Ctrl-C: rejected, and the rest of the batch is stopped.")?;
        Ok(Reply {
            answer: Answer::RejectHard { feedback: None },
            by: crate::protocol::By::Person,
            reason: Some("Ctrl-C at the prompt".into()),
        })
    }

    fn withdrawn(&self) -> Result<Reply, ApproveError> {
        self.say("\n  answered in the web page first; this prompt is withdrawn\n")?;
        Err(ApproveError::Withdrawn)
    }

    fn timed_out(&self) -> Result<Reply, ApproveError> {
        let secs = self.timeout.map(|t| t.as_secs()).unwrap_or(0);
        self.tell(&format!("\n  nobody answered within {secs} s: rejected."))?;
        Ok(Reply {
            answer: Answer::RejectSoft { feedback: None },
            by: crate::protocol::By::NonInteractive,
            reason: Some(format!("nobody answered within {secs} s (--prompt-timeout)")),
        })
    }

    fn ask_raw(&self, raw: &RawMode, info: &PromptInfo) -> Result<Reply, ApproveError> {
        let width = self.width();
        let now = FileNow::for_shape(info.shape);
        let help = present::key_help(width, self.color);
        // What was typed before the question was shown is not an answer to it.
        let _ = term::discard_typeahead(&self.tty);
        self.say(&present::render(info, &now, width, self.color))?;
        self.say(&help)?;
        let mut deadline = self.timeout.map(|t| Instant::now() + t);
        let mut keys = Keys::default();
        loop {
            let got = match self.wait_keys(&mut keys, info.cancel, deadline)? {
                Got::Keys(k) => k,
                Got::Interrupted => return self.interrupted(),
                Got::TimedOut => return self.timed_out(),
                Got::Withdrawn => return self.withdrawn(),
            };
            let key = match got.as_slice() {
                [k] => k.clone(),
                _ => {
                    self.tell("\n  several keys arrived at once (a paste?); none is taken as an answer")?;
                    self.say(&help)?;
                    continue;
                }
            };
            let c = match key {
                Key::CtrlC => return self.interrupted(),
                Key::Char(c) => c.to_ascii_lowercase(),
                _ => '?',
            };
            let stored = |answer: &str, kept: &str| -> String {
                if info.suggested.is_empty() {
                    present::note("  approved once (nothing can be stored for this call)", width, self.color)
                } else {
                    present::stored_note(&format!("  approved {answer}; {kept}: "), info.suggested, width, self.color)
                }
            };
            match c {
                'y' => {
                    self.tell("y\n  approved once")?;
                    return Ok(Reply::user(Answer::Once));
                }
                's' => {
                    self.say(&format!("s\n{}", stored("for this session", "allowed for the session")))?;
                    return Ok(Reply::user(Answer::Session));
                }
                'a' => {
                    self.say(&format!("a\n{}", stored("always", "stored in .gate/approvals.yaml")))?;
                    return Ok(Reply::user(Answer::Always));
                }
                'n' => {
                    self.say("n\n")?;
                    return match self.feedback(&mut keys, info.cancel, deadline)? {
                        Ok(feedback) => {
                            self.tell("  rejected")?;
                            Ok(Reply::user(Answer::RejectSoft { feedback }))
                        }
                        Err(Got::Interrupted) => self.interrupted(),
                        Err(Got::Withdrawn) => self.withdrawn(),
                        Err(_) => {
                            // Rejected already; nobody finished the feedback in time.
                            self.tell("  rejected (no feedback in time)")?;
                            Ok(Reply::user(Answer::RejectSoft { feedback: None }))
                        }
                    };
                }
                'h' => {
                    self.tell("h\n  rejected, and the rest of the batch is stopped")?;
                    return Ok(Reply::user(Answer::RejectHard { feedback: None }));
                }
                'v' => {
                    self.say("v\n")?;
                    let text = present::full_text(info, &now);
                    let shown = raw
                        .suspended(|| pager::show(&self.tty, &text, self.pager.as_deref()))
                        .map_err(|e| ApproveError::Terminal(format!("cannot hand the terminal to the pager: {e}")))?
                        .map_err(|e| ApproveError::Terminal(format!("cannot show the content: {e}")))?;
                    let _ = shown;
                    // Ctrl-C inside the pager was the pager's, not an answer here.
                    info.cancel.set_prompt_open(true);
                    // Someone is there: the timeout starts again.
                    deadline = self.timeout.map(|t| Instant::now() + t);
                    let _ = term::discard_typeahead(&self.tty);
                    self.tell(&format!(
                        "  back at the prompt for {} (request {})",
                        sanitize(&info.call.tool),
                        sanitize(info.id)
                    ))?;
                    self.say(&help)?;
                }
                _ => {
                    self.tell("\n  that key is not an answer; press one of these:")?;
                    self.say(&help)?;
                }
            }
        }
    }
}

impl Approver for TermPrompt {
    fn uses_terminal(&self) -> bool {
        true
    }

    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        let raw = RawMode::enter(&self.tty)
            .map_err(|e| ApproveError::Terminal(format!("cannot put the terminal in raw mode: {e}")))?;
        let reply = self.ask_raw(&raw, info);
        drop(raw);
        reply
    }
}
