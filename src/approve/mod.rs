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
}

/// Cancellation shared by the supervisor, its signal handler and an open prompt.
#[derive(Debug, Default)]
pub struct Cancel {
    agent_gone: AtomicBool,
    prompt_open: AtomicBool,
    interrupted: AtomicBool,
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
}

/// `--approve-all`: every call that would prompt is approved (deny rules still deny: those
/// never reach an approver).
pub struct ApproveAll;

impl Approver for ApproveAll {
    fn ask(&mut self, _info: &PromptInfo) -> Result<Reply, ApproveError> {
        Ok(Reply { answer: Answer::Once, by: By::ApproveAll, reason: Some("approved by --approve-all".into()) })
    }
}

/// `--strict`: every call that would prompt is denied.
pub struct Strict;

impl Approver for Strict {
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
    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        let situation =
            if self.requested { "gate runs with --non-interactive" } else { "gate has no terminal to ask on" };
        Ok(Reply {
            answer: Answer::RejectSoft { feedback: None },
            by: By::NonInteractive,
            reason: Some(format!(
                "it needs approval ({}), but {situation}; pass --approve-all to approve such calls, or --strict to deny them",
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

/// Pick the approver for `gate run`: the flags first, then a terminal if there is one.
pub fn choose(args: &RunArgs) -> Box<dyn Approver> {
    if args.approve_all {
        return Box::new(ApproveAll);
    }
    if args.strict {
        return Box::new(Strict);
    }
    if args.non_interactive {
        return Box::new(NonInteractive { requested: true });
    }
    match tty::TermPrompt::open(args.prompt_timeout.map(std::time::Duration::from_secs)) {
        Ok(p) => Box::new(p),
        Err(_) => Box::new(NonInteractive { requested: false }),
    }
}

/// Where "approve always" is persisted (SPEC 3.6). `call` is the call the person saw.
pub trait AlwaysStore: Send {
    fn persist(&mut self, patterns: &[String], call: &str) -> Result<(), String>;
}

/// `.gate/approvals.yaml` beside the policy (see [`crate::approvals`]).
pub struct FileAlwaysStore {
    pub path: std::path::PathBuf,
}

impl AlwaysStore for FileAlwaysStore {
    fn persist(&mut self, patterns: &[String], call: &str) -> Result<(), String> {
        crate::approvals::add(&self.path, patterns, call).map(|_| ()).map_err(|e| format!("{e:#}"))
    }
}
