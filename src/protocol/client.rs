//! gate as the client of a JSON-RPC agent (ACP's `--prompt`, `codex app-server`): the steps of a
//! session (handshake, prompts, cancel) as a small state machine. Pure: it returns the lines to
//! send and the text to print; [`crate::supervise`] does the I/O.

use serde_json::Value;

/// What the driver wants done.
#[derive(Debug, PartialEq)]
pub enum Out {
    /// A line for the agent (`\n`-terminated).
    Line(Vec<u8>),
    /// Close the agent's stdin: the session is over.
    Close,
}

/// One client session.
pub trait Driver: Send {
    /// The lines sent first.
    fn start(&mut self) -> Vec<Out>;
    /// A message from the agent that gate does not decide (responses, notifications): what to
    /// send, and the text for gate's stdout.
    fn message(&mut self, v: &Value) -> (Vec<Out>, Option<Vec<u8>>);
    /// A line the person typed: a new prompt (queued while a turn runs).
    fn input(&mut self, text: String) -> Vec<Out>;
    /// No more prompts will come: close once the running turn ends.
    fn input_closed(&mut self) -> Vec<Out>;
    /// Ctrl-C: the message that cancels the running turn, if one runs.
    fn interrupt(&mut self) -> Option<Vec<u8>>;
    /// gate's exit code from the last turn's end; `None` when no turn ended (or one was still
    /// running): the agent's own status counts.
    fn exit_code(&self) -> Option<i32>;
}

pub fn line(v: &Value) -> Vec<u8> {
    let mut out = serde_json::to_vec(v).unwrap_or_default();
    out.push(b'\n');
    out
}

/// One line for stderr, made safe for a terminal.
pub fn note(text: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "gate: {}", crate::approve::tty::sanitize(text));
}

/// How a proxy asks its client (the editor) about a call: the line to write and the id its
/// answer will carry, then the answer read as the person's reply.
pub trait AskClient: Send {
    fn request(&mut self, info: &crate::approve::PromptInfo) -> Result<(Vec<u8>, Value), String>;
    fn reply(&mut self, info: &crate::approve::PromptInfo, response: &Value) -> Result<crate::approve::Reply, String>;
}

/// Client mode's view of the agent's messages that are not requests gate decides (the
/// decoder hands them over; the supervisor's hook drives the [`Driver`]).
pub trait ClientHook: Send {
    /// A response to one of gate's requests, or a notification: what to print on stdout.
    fn message(&mut self, v: &Value) -> Option<Vec<u8>>;
}
