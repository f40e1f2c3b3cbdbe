//! Asking the person: the seam between the supervisor and whatever answers a call that the
//! policy sends to "prompt" (SPEC 3.2 step 8).
//!
//! The supervisor hands an [`Approver`] everything needed to show the call ([`PromptInfo`]) and
//! gets an [`Answer`] back. Implementations here: the three non-interactive answers
//! (`--approve-all`, `--strict`, no terminal) and the one-key prompt on `/dev/tty`
//! ([`tty::TermPrompt`]), built from: [`view`] (what kind of call it is), [`present`] (what is
//! shown, a pure function), [`term`] (raw mode and keys), [`pager`] (`v`).
//!
//! An approver must not decide policy (the chain already ran), write to the agent, or touch
//! gate's stdin/stdout: while [`Approver::uses_terminal`] is true the supervisor pauses stdin
//! forwarding and holds passthrough output to a terminal, so the prompt owns the terminal.
//! It must never turn an error into an approval: every failure is an [`ApproveError`], which
//! the supervisor answers with a denial.

pub mod pager;
pub mod present;
pub mod term;
pub mod tty;
pub mod view;
pub mod web;

pub use view::{FileNow, Shape};

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::cli::RunArgs;
use crate::policy::{Call, Decision};
use crate::protocol::{BatchItem, By};

/// What the prompt needs to show one call.
pub struct PromptInfo<'a> {
    /// The request id, for people.
    pub id: &'a str,
    /// The whole id, with what the adapter needs to ask the agent's client (the forwarded
    /// request of a proxy's editor approver).
    pub call_id: &'a crate::protocol::CallId,
    pub call: &'a Call,
    /// How to show it (shell, edit, other), read from the policy's tool table.
    pub shape: &'a Shape,
    /// The policy's decision (verdict `ask`), with its layer, reason and shell parts.
    pub decision: &'a Decision,
    /// The calls queued behind this one in the same batch.
    pub batch_remaining: &'a [BatchItem],
    /// The patterns that "session" and "always" would store (SPEC 3.6).
    pub suggested: &'a [String],
    /// gate's working directory (shell commands run there).
    pub cwd: &'a Path,
    /// Set when the agent exits or the person presses Ctrl-C while the prompt is open.
    pub cancel: &'a Cancel,
}

/// The person's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Approve this call only.
    Once,
    /// Approve, and remember the suggested patterns for this session.
    Session,
    /// Approve, and persist the suggested patterns.
    Always,
    /// Do not run it; go on with the batch.
    RejectSoft { feedback: Option<String> },
    /// Do not run it nor the rest of the batch; stop until the turn ends.
    RejectHard { feedback: Option<String> },
}

/// An answer, who gave it (the wire `source`), and why, for the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub answer: Answer,
    /// The person, or the flag that answered for them.
    pub by: By,
    pub reason: Option<String>,
}

impl Reply {
    pub fn user(answer: Answer) -> Self {
        Reply { answer, by: By::Person, reason: None }
    }
}

/// Why no answer could be had. The supervisor denies the call with `"source":"error"`.
#[derive(Debug, thiserror::Error)]
pub enum ApproveError {
    #[error("the agent exited before the person answered")]
    AgentGone,
    #[error("the terminal prompt failed: {0}")]
    Terminal(String),
    /// Someone else answered first (the web page): the prompt was withdrawn.
    #[error("the prompt was withdrawn: the call was answered elsewhere")]
    Withdrawn,
    /// A proxy's client (the editor) could not be asked, or its answer could not be read.
    #[error("{0}")]
    Client(String),
}

/// Whatever answers a call the policy says to ask about.
pub trait Approver: Send {
    /// Ask about one call. Blocks until answered, cancelled, or failed.
    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError>;

    /// True when answering uses the terminal: the supervisor then stops forwarding a terminal
    /// stdin and holds output to a terminal stdout while `ask` runs.
    fn uses_terminal(&self) -> bool {
        false
    }

    /// [`Approver::uses_terminal`] for the call shown as `id` (an approver that asks some
    /// calls elsewhere, as pi's dialog, says which).
    fn uses_terminal_for(&self, _id: &str) -> bool {
        self.uses_terminal()
    }

    /// True when this approver asks nobody (no terminal, no page): a proxy whose client can be
    /// asked instead (an MCP host's elicitation) asks it.
    fn nobody_to_ask(&self) -> bool {
        false
    }

    /// True when `ask` answers at once from the call alone (`--strict`, `--approve-all`, no
    /// terminal): it needs no person, no suggested patterns and no waiting, so the call may be
    /// answered where it was read.
    fn answers_at_once(&self) -> bool {
        false
    }
}

/// Cancellation shared by the supervisor, its signal handler and an open prompt.
#[derive(Debug, Default)]
pub struct Cancel {
    agent_gone: AtomicBool,
    prompt_open: AtomicBool,
    interrupted: AtomicBool,
    withdrawn: AtomicBool,
}

impl Cancel {
    /// The agent has exited: nobody is waiting for an answer any more.
    pub fn set_agent_gone(&self) {
        self.agent_gone.store(true, Ordering::SeqCst);
    }

    pub fn agent_gone(&self) -> bool {
        self.agent_gone.load(Ordering::SeqCst)
    }

    /// Called by the supervisor around [`Approver::ask`].
    pub fn set_prompt_open(&self, open: bool) {
        self.interrupted.store(false, Ordering::SeqCst);
        self.withdrawn.store(false, Ordering::SeqCst);
        self.prompt_open.store(open, Ordering::SeqCst);
    }

    /// Ctrl-C arrived. Returns true when a prompt was open and takes it (the prompt rejects and
    /// stops the batch); false when the signal is for the agent.
    pub fn interrupt_prompt(&self) -> bool {
        if self.prompt_open.load(Ordering::SeqCst) {
            self.interrupted.store(true, Ordering::SeqCst);
            true
        } else {
            false
        }
    }

    /// Has Ctrl-C been pressed at the open prompt?
    pub fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }

    /// The open call was answered elsewhere (the web page): the terminal prompt must give up
    /// at once, answering nothing ([`ApproveError::Withdrawn`]). Cleared with the prompt.
    pub fn withdraw(&self) {
        self.withdrawn.store(true, Ordering::SeqCst);
    }

    /// Was the open prompt withdrawn?
    pub fn withdrawn(&self) -> bool {
        self.withdrawn.load(Ordering::SeqCst)
    }
}

/// `--approve-all`: every call that would prompt is approved (deny rules still deny: those
/// never reach an approver).
pub struct ApproveAll;

impl Approver for ApproveAll {
    fn answers_at_once(&self) -> bool {
        true
    }

    fn ask(&mut self, _info: &PromptInfo) -> Result<Reply, ApproveError> {
        Ok(Reply { answer: Answer::Once, by: By::ApproveAll, reason: Some("approved by --approve-all".into()) })
    }
}

/// `--strict`: every call that would prompt is denied.
pub struct Strict;

impl Approver for Strict {
    fn answers_at_once(&self) -> bool {
        true
    }

    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        Ok(Reply {
            answer: Answer::RejectSoft { feedback: None },
            by: By::Strict,
            reason: Some(format!(
                "it needs approval ({}), and --strict denies every call that would prompt",
                why(info.decision)
            )),
        })
    }
}

/// No terminal (or `--non-interactive`) and neither flag: deny, and say how to change that.
pub struct NonInteractive {
    /// True when `--non-interactive` was given (rather than no terminal being found).
    pub requested: bool,
}

impl Approver for NonInteractive {
    fn nobody_to_ask(&self) -> bool {
        true
    }

    fn answers_at_once(&self) -> bool {
        true
    }

    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        let situation =
            if self.requested { "gate runs with --non-interactive" } else { "gate has no terminal to ask on" };
        Ok(Reply {
            answer: Answer::RejectSoft { feedback: None },
            by: By::NonInteractive,
            reason: Some(format!(
                "it needs approval ({}), but {situation}; pass --web to approve in a browser, --approve-all to approve such calls, or --strict to deny them",
                why(info.decision)
            )),
        })
    }
}

/// A short "why it is asked": the policy's reason, else its layer.
pub fn why(d: &Decision) -> String {
    if d.reason.is_empty() {
        format!("layer {}", d.layer)
    } else {
        d.reason.clone()
    }
}

/// Pick the approver for `gate run`: the flags first, then the web page (`--web`, racing the
/// terminal prompt when there is one), then a terminal if there is one. Fails when the web
/// page cannot be served.
pub fn choose(args: &RunArgs) -> anyhow::Result<Box<dyn Approver>> {
    let settled_by = if args.approve_all {
        Some("--approve-all")
    } else if args.strict {
        Some("--strict")
    } else {
        None
    };
    if let Some(flag) = settled_by {
        if args.web.is_some() {
            eprintln!("gate: --web is not used: {flag} settles every call that would prompt");
        }
        return Ok(if args.approve_all { Box::new(ApproveAll) } else { Box::new(Strict) });
    }
    let timeout = args.prompt_timeout.map(std::time::Duration::from_secs);
    // --non-interactive keeps the terminal out; with --web the page still answers.
    let term = if args.non_interactive { None } else { tty::TermPrompt::open(timeout).ok() };
    if args.web.is_some() {
        return Ok(Box::new(web::WebApprover::start(args, term)?));
    }
    Ok(match (term, &args.notify) {
        (Some(p), Some(cmd)) => Box::new(web::Notifying { inner: Box::new(p), cmd: cmd.clone() }),
        (Some(p), None) => Box::new(p),
        (None, _) => Box::new(NonInteractive { requested: args.non_interactive }),
    })
}

/// Where "approve always" is persisted (SPEC 3.6). `call` is the call the person saw.
pub trait AlwaysStore: Send {
    fn persist(&mut self, patterns: &[String], call: &str) -> Result<(), String>;
}

/// `.gate/approvals.yaml` beside the policy (see [`crate::always`]).
pub struct FileAlwaysStore {
    pub path: std::path::PathBuf,
}

impl AlwaysStore for FileAlwaysStore {
    fn persist(&mut self, patterns: &[String], call: &str) -> Result<(), String> {
        crate::always::add(&self.path, patterns, call).map(|_| ()).map_err(|e| format!("{e:#}"))
    }
}
