//! A minimal line-based prompt on the controlling terminal (`/dev/tty`), so that `gate run` at
//! a terminal works end to end: it shows the call and reads one of `y s a n h` and Enter.
//! Issue 4 replaces it with the one-key rich prompt behind the same [`Approver`] trait.
//!
//! It reads and writes `/dev/tty` only, never gate's stdin or stdout (those may be pipes, and
//! while it is open the supervisor keeps them off the terminal). It never approves on an error,
//! an end of file or garbage: it asks again, or returns an error that the supervisor denies.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::os::fd::AsRawFd;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::{Answer, ApproveError, Approver, Cancel, PromptInfo, Reply};
use crate::policy::Verdict;
use crate::supervise::sys;

/// The line prompt. Holds `/dev/tty` open for the whole run.
pub struct LinePrompt {
    tty: File,
    timeout: Option<Duration>,
}

enum LineRead {
    Line(String),
    Interrupted,
    TimedOut,
}

impl LinePrompt {
    /// Open the controlling terminal. Fails when gate has none: then gate is non-interactive.
    pub fn open(timeout: Option<Duration>) -> io::Result<LinePrompt> {
        let tty = OpenOptions::new().read(true).write(true).open("/dev/tty")?;
        Ok(LinePrompt { tty, timeout })
    }

    fn say(&mut self, text: &str) -> Result<(), ApproveError> {
        self.tty
            .write_all(text.as_bytes())
            .and_then(|_| self.tty.flush())
            .map_err(|e| ApproveError::Terminal(format!("cannot write to the terminal: {e}")))
    }

    fn read_line(&mut self, cancel: &Cancel, deadline: Option<Instant>) -> Result<LineRead, ApproveError> {
        let fd = self.tty.as_raw_fd();
        let mut line = Vec::new();
        let mut buf = [0u8; 512];
        loop {
            if cancel.agent_gone() {
                return Err(ApproveError::AgentGone);
            }
            if cancel.interrupted() {
                return Ok(LineRead::Interrupted);
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return Ok(LineRead::TimedOut);
            }
            let ready = sys::poll_readable(&[fd], 100)
                .map_err(|e| ApproveError::Terminal(format!("cannot wait for the terminal: {e}")))?;
            if !ready[0] {
                continue;
            }
            let n = match sys::read_fd(fd, &mut buf) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted || e.kind() == io::ErrorKind::WouldBlock => continue,
                Err(e) => return Err(ApproveError::Terminal(format!("cannot read the terminal: {e}"))),
            };
            if n == 0 {
                return Err(ApproveError::Terminal("the terminal closed".into()));
            }
            line.extend_from_slice(&buf[..n]);
            if let Some(pos) = line.iter().position(|&b| b == b'\n') {
                line.truncate(pos);
                return Ok(LineRead::Line(String::from_utf8_lossy(&line).trim().to_string()));
            }
            if line.len() > 4096 {
                line.clear();
            }
        }
    }

    fn feedback(&mut self, cancel: &Cancel, deadline: Option<Instant>) -> Result<Option<String>, ApproveError> {
        self.say("  feedback for the agent (Enter for none): ")?;
        match self.read_line(cancel, deadline)? {
            LineRead::Line(l) if !l.is_empty() => Ok(Some(l)),
            _ => Ok(None),
        }
    }
}

impl Approver for LinePrompt {
    fn uses_terminal(&self) -> bool {
        true
    }

    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        let deadline = self.timeout.map(|t| Instant::now() + t);
        self.say(&render(info))?;
        loop {
            self.say("  [y] once  [s] session  [a] always  [n] reject  [h] reject and stop the batch > ")?;
            let line = match self.read_line(info.cancel, deadline)? {
                LineRead::Line(l) => l,
                LineRead::Interrupted => {
                    self.say("\n  Ctrl-C: rejected, and the rest of the batch stopped.\n")?;
                    return Ok(Reply {
                        answer: Answer::RejectHard { feedback: None },
                        source: "user",
                        reason: Some("Ctrl-C at the prompt".into()),
                    });
                }
                LineRead::TimedOut => {
                    self.say("\n  no answer in time: rejected.\n")?;
                    return Ok(Reply {
                        answer: Answer::RejectSoft { feedback: None },
                        source: "non_interactive",
                        reason: Some(format!(
                            "nobody answered within {} s (--prompt-timeout)",
                            self.timeout.map(|t| t.as_secs()).unwrap_or(0)
                        )),
                    });
                }
            };
            let answer = match line.to_ascii_lowercase().as_str() {
                "y" | "yes" => Answer::Once,
                "s" => Answer::Session,
                "a" => Answer::Always,
                "n" | "no" => Answer::RejectSoft { feedback: self.feedback(info.cancel, deadline)? },
                "h" => Answer::RejectHard { feedback: self.feedback(info.cancel, deadline)? },
                _ => {
                    self.say("  please answer y, s, a, n or h, then Enter\n")?;
                    continue;
                }
            };
            return Ok(Reply::user(answer));
        }
    }
}

/// Control characters from the agent must not reach the terminal raw (escape sequences).
pub fn sanitize(s: &str) -> String {
    s.chars().flat_map(|c| if c.is_control() { c.escape_default().collect::<Vec<_>>() } else { vec![c] }).collect()
}

fn cut(s: String, max: usize) -> String {
    if s.chars().count() <= max {
        s
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push_str(" [...]");
        t
    }
}

/// One call in a line: `bash $ npm build`, `write config.json`, or compact JSON.
pub fn summarize(tool: &str, args: &Value) -> String {
    let body = if let Some(c) = args.get("command").and_then(Value::as_str) {
        format!("$ {c}")
    } else if let Some(p) = args.get("file_path").or_else(|| args.get("path")).and_then(Value::as_str) {
        p.to_string()
    } else {
        args.to_string()
    };
    sanitize(&cut(format!("{tool} {body}"), 160))
}

/// The text shown before the question.
pub fn render(info: &PromptInfo) -> String {
    let mut s = String::new();
    let call = info.call;
    s.push_str(&format!("\ngate: the agent wants to use {} (request {})\n", sanitize(&call.tool), sanitize(info.id)));
    if let Some(cmd) = call.arguments.get("command").and_then(Value::as_str) {
        s.push_str(&format!("  $ {}\n", sanitize(&cut(cmd.to_string(), 2000))));
        s.push_str(&format!("    in {}\n", sanitize(&info.cwd.display().to_string())));
    } else if let Some(p) = call.arguments.get("file_path").and_then(Value::as_str) {
        let size = call.arguments.get("content").and_then(Value::as_str).map(str::len);
        match size {
            Some(n) => s.push_str(&format!("  file {} ({n} bytes of new content)\n", sanitize(p))),
            None => s.push_str(&format!("  file {}\n", sanitize(p))),
        }
    } else {
        s.push_str(&format!("  arguments {}\n", sanitize(&cut(call.arguments.to_string(), 600))));
    }
    if let Some(parts) = &info.decision.parts {
        for p in parts {
            let mark = match p.decision {
                Verdict::Allow => "ok ",
                Verdict::Ask => "ask",
                Verdict::Deny => "NO ",
            };
            let by = p.rule.clone().unwrap_or_else(|| format!("layer {}", p.layer));
            s.push_str(&format!("    {mark} {}   ({})\n", sanitize(&p.command), sanitize(&by)));
        }
    }
    s.push_str(&format!("  why: {} (layer {})\n", sanitize(&super::why(info.decision)), info.decision.layer));
    if !info.batch_remaining.is_empty() {
        let items: Vec<String> =
            info.batch_remaining.iter().take(5).map(|b| summarize(&b.tool, &b.arguments)).collect();
        s.push_str(&format!("  queued in this batch ({}): {}\n", info.batch_remaining.len(), items.join("; ")));
    }
    if info.suggested.is_empty() {
        s.push_str("  s/a: no pattern to remember for this call (they approve it once)\n");
    } else {
        let pats: Vec<String> = info.suggested.iter().map(|p| sanitize(p)).collect();
        s.push_str(&format!("  s/a would remember: {}\n", pats.join(", ")));
    }
    s
}
