//! The decision value: what gate decided about one call, at which layer of the chain, by which
//! rule, and why; for shell calls, one entry per part. Built by the chain, rendered by the wire,
//! the prompt, `gate check` and the audit log. Pure data: no I/O, no formatting for terminals.

use serde::Serialize;

/// The three verdicts, ordered from most to least permissive: `Allow < Ask < Deny`.
/// "The strictest of its parts" is `max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Allow,
    Ask,
    Deny,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Allow => "allow",
            Verdict::Ask => "ask",
            Verdict::Deny => "deny",
        }
    }
}

impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The layer of the chain (SPEC 3.2) that produced a verdict.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Layer {
    /// A deny rule in host.yaml.
    DenyRule,
    /// An ask rule in host.yaml.
    AskRule,
    /// Shell analysis could not know statically what runs (variable in command position,
    /// eval, source, parse error, a variable that changes what runs).
    Analysis,
    /// A path outside the workspace.
    Workspace,
    /// The safe list: `safe_tools`, or a known-safe read-only shell command.
    Safe,
    /// An allow rule in host.yaml.
    AllowRule,
    /// A persisted "always" approval.
    Always,
    /// A skill active in this turn.
    Skill,
    /// A session approval.
    Session,
    /// The mode's default for the call's risk (SPEC 3.4).
    Mode,
    /// The same call repeated `threshold` times in a row.
    DoomLoop,
    /// An internal error while deciding (always deny).
    Error,
}

impl Layer {
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::DenyRule => "deny_rule",
            Layer::AskRule => "ask_rule",
            Layer::Analysis => "analysis",
            Layer::Workspace => "workspace",
            Layer::Safe => "safe",
            Layer::AllowRule => "allow_rule",
            Layer::Always => "always",
            Layer::Skill => "skill",
            Layer::Session => "session",
            Layer::Mode => "mode",
            Layer::DoomLoop => "doom_loop",
            Layer::Error => "error",
        }
    }

    /// The wire protocol's `source` for a decision taken at this layer without a person.
    pub fn source(self) -> &'static str {
        match self {
            Layer::DenyRule | Layer::AskRule | Layer::AllowRule => "rule",
            Layer::Analysis | Layer::Workspace | Layer::Mode => "mode",
            Layer::Safe => "safe",
            Layer::Always => "always",
            Layer::Skill => "skill",
            Layer::Session => "session",
            Layer::DoomLoop => "doom_loop",
            Layer::Error => "error",
        }
    }
}

impl std::fmt::Display for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// What one part of a shell call is: a simple command, or a write it makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PartKind {
    Command,
    Write,
    /// A file a known reading command reads (`cat /etc/passwd`).
    Read,
}

/// The verdict on one part of a shell call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PartDecision {
    /// The part as a person reads it: `git status`, or `> out.txt` for a write.
    pub command: String,
    pub decision: Verdict,
    pub layer: Layer,
    pub rule: Option<String>,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
    #[serde(skip)]
    pub kind: PartKind,
}

/// The whole decision on one call.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub decision: Verdict,
    pub layer: Layer,
    pub rule: Option<String>,
    pub reason: String,
    /// One entry per simple command and per write, for shell calls only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parts: Option<Vec<PartDecision>>,
}

impl Decision {
    pub fn new(decision: Verdict, layer: Layer, rule: Option<String>, reason: impl Into<String>) -> Self {
        Decision { decision, layer, rule, reason: reason.into(), parts: None }
    }

    /// The decision every error path takes: deny, with the reason.
    pub fn error(reason: impl Into<String>) -> Self {
        Decision::new(Verdict::Deny, Layer::Error, None, reason)
    }

    pub fn is_allow(&self) -> bool {
        self.decision == Verdict::Allow
    }

    /// JSON for `gate check --json` and the audit log.
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_else(|e| {
            serde_json::json!({"decision":"deny","layer":"error","rule":null,"reason":format!("cannot render decision: {e}")})
        })
    }
}
