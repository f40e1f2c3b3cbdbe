//! The protocol-neutral seam between the agents' wire formats and everything else in gate.
//!
//! A call comes in ([`IncomingCall`]: tool, arguments, an opaque [`CallId`], batch context);
//! a [`Resolution`] goes out (the full policy [`Decision`], who answered, scope, feedback).
//! Each protocol is one adapter module that maps its messages to these values and back:
//! [`native`] (gate's own protocol), [`claude`] (Claude Code's stream-json control protocol and
//! its hooks), [`pi`] (the pi coding agent, through gate's own pi extension). The chain, the prompt, approvals, the doom loop, the batch stop, the audit log
//! and the flags are written once, against these types, in [`crate::supervise`] and
//! [`crate::approve`].
//!
//! Nothing in this module or its adapters does I/O, decides policy or keeps state beyond what a
//! wire format itself needs (ids gate must echo): adapters translate, and they must be safe on
//! hostile bytes (no panics, no unbounded work beyond the line itself).

pub mod acp;
pub mod claude;
pub mod client;
pub mod codex;
pub mod mcp;
pub mod native;
pub mod pi;
pub mod strict;

use serde_json::Value;

use crate::policy::{Call, Decision};

/// The id of one call, as opaque to everything but its adapter.
#[derive(Clone, Debug, PartialEq)]
pub struct CallId {
    /// Unique among the calls open at once (gate refuses a second call with an open key).
    pub key: String,
    /// For people: the prompt, stderr and the audit log.
    pub shown: String,
    /// Whatever the adapter needs to answer (the native id as sent, Claude Code's request id
    /// and the kind of request, ...). Recorded in the audit log as `id`.
    pub wire: Value,
}

impl CallId {
    /// An id that is its own wire form: a JSON string or number, keyed by its JSON text (so the
    /// string `"1"` and the number `1` differ).
    pub fn plain(id: Value) -> CallId {
        let shown = match &id {
            Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        CallId { key: id.to_string(), shown, wire: id }
    }
}

/// One call listed as following in the same batch.
#[derive(Clone, Debug, PartialEq)]
pub struct BatchItem {
    pub tool: String,
    pub arguments: Value,
}

/// A call the agent wants to make, validated.
#[derive(Clone, Debug, PartialEq)]
pub struct IncomingCall {
    pub id: CallId,
    pub call: Call,
    /// The calls that follow in the same batch (for the prompt; each is decided when it comes).
    pub batch_remaining: Vec<BatchItem>,
    /// Set when the agent will run the call whatever gate answers (it only reports it): gate
    /// decides and records it, marked "not asked by the agent".
    pub report_only: bool,
    /// Set when the agent's own rules ask about this call (Claude Code's `can_use_tool`): gate
    /// answers it no looser than "ask" (a deny still denies).
    pub agent_asks: bool,
}

/// What a message from the agent means for gate.
#[derive(Clone, Debug, PartialEq)]
pub enum Incoming {
    /// A call to decide.
    Call(IncomingCall),
    /// The agent greets gate (native `hello`): answer with the adapter's welcome.
    Hello { protocol: Option<u64> },
    /// A skill is switched on (or off) for the current turn.
    Skill { name: String, active: bool },
    /// The turn is over: skills expire, a hard stop is cleared.
    TurnEnd,
    /// A message meant for gate that gate cannot use. With an id, the call is denied with
    /// `"source":"error"`; without one, it is reported on stderr.
    Bad { id: Option<CallId>, tool: Option<String>, error: String },
    /// The agent withdrew a call it had asked about (an open prompt for it is answered deny).
    Cancel { key: String },
    /// The agent's task is complete: gate closes the agent's stdin so that it exits.
    Finished,
    /// Nothing for gate (the message is only shown, see [`Shown`]).
    Nothing,
    /// Looks like a message for gate but cannot be one (says why); shown as output, and gate
    /// warns once.
    Malformed(String),
}

/// What gate prints on its own stdout for a message from the agent.
#[derive(Clone, Debug, PartialEq)]
pub enum Shown {
    /// The line, byte for byte.
    Line,
    /// Nothing (a line gate answers itself, or one the chosen output format leaves out).
    Hidden,
    /// These bytes instead (Claude Code's text output rendered from its JSON stream).
    Text(Vec<u8>),
}

/// Reads the agent's messages. Lives on the reader thread; one per agent connection.
pub trait Decoder: Send {
    /// One whole line that starts with `{` (without its `\n`).
    fn line(&mut self, line: &[u8]) -> (Shown, Incoming);
    /// A line that starts with `{` reached the line limit without ending. `Some`: it was for
    /// gate (the rest is dropped); `None`: it is the agent's own output and is streamed.
    fn oversize(&mut self, head: &[u8], limit: usize) -> Option<Incoming>;
    /// Whole lines (`block` ends with `\n`) that all pass through unchanged and mean nothing
    /// to gate, as [`Decoder::line`] would find one by one: then how many, and the reader
    /// passes the block in one piece. `None` whenever any line might be for gate (the reader
    /// then reads them one at a time).
    fn passes_block(&mut self, _block: &[u8]) -> Option<usize> {
        None
    }
    /// Does a line that does not start with `{` pass through unchanged? (Otherwise hidden.)
    fn passes_plain_lines(&self) -> bool {
        true
    }
    /// Bytes to print once the agent's output ended.
    fn finish(&mut self) -> Option<Vec<u8>> {
        None
    }
    /// On the decision socket: answers to this connection's lines go to `reply` (for an adapter
    /// that must write to the connection before a call is answered, as pi's dialog does).
    fn connected(&mut self, _reply: &std::sync::mpsc::Sender<Vec<u8>>) {}
}

/// Where a line gate writes goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dest {
    /// Back to whoever sent the call (the agent, a connection on the socket, or in a proxy the
    /// side the call came from).
    Reply,
    /// The agent's stdin.
    Agent,
    /// In a proxy: gate's stdout, the editor's or host's side.
    Client,
}

/// Writes gate's answers in the agent's format. Lives on the deciding thread.
pub trait Encoder: Send {
    /// The answer to one call (a whole line, `\n`-terminated).
    fn resolution(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<u8>;
    /// The lines one resolution makes and where each goes. By default, the answer back to the
    /// sender; a proxy may forward the original message instead (an allowed MCP call goes on to
    /// the server).
    fn routed(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<(Dest, Vec<u8>)> {
        vec![(Dest::Reply, self.resolution(id, call, r))]
    }
    /// The answer to [`Incoming::Hello`], if the protocol has one.
    fn welcome(&mut self, _mode: &Value, _disabled_tools: &[String]) -> Option<Vec<u8>> {
        None
    }
    /// Sent when the policy was reloaded, if the protocol has such a message.
    fn policy_changed(&mut self, _disabled_tools: &[String]) -> Option<Vec<u8>> {
        None
    }
}

/// How long an approval lasts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Once,
    Session,
    Always,
}

impl Scope {
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Once => "once",
            Scope::Session => "session",
            Scope::Always => "always",
        }
    }
}

/// Who answered a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum By {
    /// The chain, without a person (its layer says which part).
    Policy,
    /// A person, at the terminal prompt or an agent's own dialog.
    Person,
    /// `--approve-all`.
    ApproveAll,
    /// `--strict`.
    Strict,
    /// No terminal, or `--non-interactive`.
    NonInteractive,
    /// The person stopped the batch earlier in this turn.
    Batch,
    /// Something failed; every error answers deny.
    Error,
}

/// What gate answers about one call: everything any protocol's answer, the prompt and the
/// audit log say about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Resolution {
    pub approved: bool,
    /// For approvals.
    pub scope: Scope,
    /// For rejections: stop the rest of the batch (`reject_hard`).
    pub hard: bool,
    pub by: By,
    /// The chain's decision (layer, rule, reason, parts). For an error, [`Decision::error`].
    pub decision: Decision,
    /// Why this answer: the chain's reason, or the flag's or the person's.
    pub reason: String,
    /// The person's words for the model, if any.
    pub feedback: Option<String>,
}

impl Resolution {
    /// The chain answered, without a person.
    pub fn from_policy(d: Decision) -> Resolution {
        Resolution {
            approved: d.is_allow(),
            scope: Scope::Once,
            hard: false,
            by: By::Policy,
            reason: d.reason.clone(),
            decision: d,
            feedback: None,
        }
    }

    /// The answer of every error path: deny, soft, `"source":"error"`.
    pub fn error(reason: impl Into<String>) -> Resolution {
        let reason = reason.into();
        let mut r = Resolution::from_policy(Decision::error(reason.clone()));
        r.by = By::Error;
        r.reason = reason;
        r
    }

    /// A call after the person stopped the batch.
    pub fn batch_stopped() -> Resolution {
        let reason = "the user stopped this batch; calls are rejected until the turn ends";
        let mut r = Resolution::from_policy(Decision::new(
            crate::policy::Verdict::Deny,
            crate::policy::Layer::Error,
            None,
            reason,
        ));
        r.by = By::Batch;
        r.hard = true;
        r
    }

    /// The native protocol's `source` (SPEC section 2), also the audit log's.
    pub fn source(&self) -> &'static str {
        match self.by {
            By::Policy => self.decision.layer.source(),
            By::Person => "user",
            By::ApproveAll => "approve_all",
            By::Strict => "strict",
            By::NonInteractive => "non_interactive",
            By::Batch => "batch",
            By::Error => "error",
        }
    }

    /// The chain layer behind the answer (none for a batch stop).
    pub fn layer(&self) -> Option<&'static str> {
        match self.by {
            By::Batch => None,
            By::Error => Some("error"),
            _ => Some(self.decision.layer.as_str()),
        }
    }

    /// The rule behind the answer, if one decided.
    pub fn rule(&self) -> Option<&str> {
        match self.by {
            By::Batch | By::Error => None,
            _ => self.decision.rule.as_deref(),
        }
    }

    pub fn mode_str(&self) -> &'static str {
        if self.hard {
            "reject_hard"
        } else {
            "reject_soft"
        }
    }
}

const REMINDER_ASK: &str = "[System reminder: Do not run this tool call and do not try to get the same effect another way. Ask the user how to proceed.]";
const REMINDER_STOP: &str = "[System reminder: The user stopped this batch: do not run the remaining tool calls. Stop now and wait for the user's next message.]";

/// A call as it runs from `call_cwd`, the directory the agent says it runs in (a hook's
/// `cwd`; Codex's model sets it per call with `workdir`, Claude Code's follows its shell),
/// when that is not the session's own `session_dir`: a shell command first changes there
/// (`cd -- DIR || exit 1; COMMAND`, so a directory outside the workspace is decided as
/// such), and a relative path is joined to it. The policy is always the session's.
pub fn anchored(mut call: Call, call_cwd: &std::path::Path, session_dir: &std::path::Path) -> Call {
    let same = |a: &std::path::Path, b: &std::path::Path| a.components().eq(b.components());
    if same(call_cwd, session_dir) {
        return call;
    }
    let dir_field = crate::shell::SHELL_DIR_FIELDS
        .iter()
        .find(|k| call.arguments.get(**k).and_then(Value::as_str).is_some_and(|d| !d.is_empty()));
    match (dir_field, call.arguments.get("command")) {
        // The call names its own directory, relative to where the agent is: made absolute,
        // and the policy runs the command there.
        (Some(k), _) if call.tool == "Bash" => {
            let d = call.arguments.get(*k).and_then(Value::as_str).unwrap_or_default();
            call.arguments[*k] = Value::String(call_cwd.join(d).display().to_string());
        }
        (None, Some(Value::String(cmd))) if call.tool == "Bash" => {
            let c = run_in(&call_cwd.display().to_string(), cmd);
            call.arguments["command"] = Value::String(c);
        }
        _ => {}
    }
    // Every path field's string, at any depth (`files[0].path`): the one walk the policy
    // decides them by. Not a string that only looks like a path, nor a URL other than
    // `file:` (a domain rule reads it as written).
    let paths = crate::policy::chain::arg_paths(&call.tool, None, &call.arguments).unwrap_or_default();
    for a in paths.iter().filter(|a| a.named && !a.glob) {
        let p = crate::policy::chain::path_text(&a.text);
        if p.is_empty() || p.starts_with(['/', '~']) || (p == a.text && a.text.contains("://")) {
            continue;
        }
        let joined = call_cwd.join(p.as_ref()).display().to_string();
        if let Some(v) = call.arguments.pointer_mut(&a.pointer) {
            *v = Value::String(joined);
        }
    }
    call
}

pub use crate::shell::run_in;

/// The text to hand the model when a call is not run (seed 002's wording: who rejected, the
/// feedback, and a reminder to ask the user). Every adapter uses it for its denial text.
pub fn message_for_model(tool: &str, r: &Resolution) -> String {
    let feedback = match r.feedback.as_deref().map(str::trim) {
        Some(f) if !f.is_empty() => format!(" Feedback: {f}"),
        _ => String::new(),
    };
    match r.by {
        By::Person if r.hard => {
            format!("User rejected tool '{tool}' and stopped the batch.{feedback}\n\n{REMINDER_STOP}")
        }
        By::Person => format!("User rejected tool '{tool}'.{feedback}\n\n{REMINDER_ASK}"),
        By::Batch => format!("Tool '{tool}' was not run: the user stopped this batch.\n\n{REMINDER_STOP}"),
        By::Strict | By::NonInteractive => {
            format!("Tool '{tool}' was not run: {}.\n\n{REMINDER_ASK}", r.reason)
        }
        By::Error => {
            format!("Tool '{tool}' was not run: gate could not decide it safely ({}).\n\n{REMINDER_ASK}", r.reason)
        }
        _ if r.decision.layer == crate::policy::Layer::DoomLoop => format!(
            "Tool '{tool}' was not run: {}.\n\n[System reminder: You may be stuck in a loop. Stop repeating this call and ask the user how to proceed.]",
            r.reason
        ),
        _ => {
            let rule = r.rule().map(|x| format!(" (rule {x})")).unwrap_or_default();
            format!("The user's permission policy denied tool '{tool}'{rule}: {}.\n\n{REMINDER_ASK}", r.reason)
        }
    }
}

/// One line for a person about a denial: the tool, the part that was denied, the rule.
/// Printed on stderr during `gate run` (unless `--quiet`) for every protocol.
pub fn denial_notice(call: &Call, r: &Resolution) -> String {
    let what = match &r.decision.parts {
        Some(parts) => parts
            .iter()
            .find(|p| p.decision == crate::policy::Verdict::Deny)
            .or_else(|| parts.iter().find(|p| p.decision != crate::policy::Verdict::Allow))
            .map(|p| format!(": {}", p.command))
            .unwrap_or_default(),
        None => String::new(),
    };
    let by = match (r.by, r.rule()) {
        (By::Policy, Some(rule)) => format!("rule {rule}"),
        (By::Policy, None) => format!("layer {}", r.decision.layer),
        (By::Person, _) => "the user".into(),
        (_, _) => r.source().replace('_', "-"),
    };
    let what = crate::approve::tty::sanitize(&what);
    let reason = crate::approve::tty::sanitize(&r.reason);
    format!("gate: denied {}{what} ({by}): {reason}", crate::approve::tty::sanitize(&call.tool))
}

/// Which protocol `gate run` speaks with the agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Native,
    Claude,
    /// The Agent Client Protocol (opencode, Gemini CLI, claude-code-acp, codex-acp).
    Acp,
    /// `codex app-server`.
    Codex,
    /// pi (`pi`), through gate's own extension.
    Pi,
    /// An MCP server (`--protocol mcp`): gate in the middle of its host's pipe.
    Mcp,
}

impl Protocol {
    /// The protocol of an agent started as `program args`, when not given: `claude` is Claude
    /// Code; `opencode acp`, `gemini --acp`, `claude-code-acp` and `codex-acp` speak ACP;
    /// `codex app-server` (and `codex exec`, run as its client) Codex's; `pi` is pi; anything else speaks
    /// gate's native protocol.
    pub fn detect(program: &std::ffi::OsStr, args: &[std::ffi::OsString]) -> Protocol {
        let name = std::path::Path::new(program).file_name().and_then(|n| n.to_str()).unwrap_or("");
        if acp::is_acp(program, args) {
            return Protocol::Acp;
        }
        if codex::is_app_server(program, args) || codex::exec_to_app_server(program, args).is_some() {
            return Protocol::Codex;
        }
        match name {
            "claude" => Protocol::Claude,
            "pi" => Protocol::Pi,
            _ => Protocol::Native,
        }
    }
}
