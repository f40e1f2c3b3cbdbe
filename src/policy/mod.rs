//! The policy engine: the host.yaml model, rules and their matching, and the decision chain
//! (SPEC section 3). Pure: it never reads files, the clock, the environment or a terminal;
//! callers hand it text, paths and state, and get a [`Decision`] back.

pub mod decision;

pub use decision::{Decision, Layer, PartDecision, PartKind, Verdict};

use serde_json::Value;

/// One tool call to decide.
#[derive(Clone, Debug, Default)]
pub struct Call {
    pub tool: String,
    pub arguments: Value,
    /// MCP tool annotations, when the request carries them.
    pub annotations: Option<Value>,
}

impl Call {
    pub fn new(tool: impl Into<String>, arguments: Value) -> Self {
        Call { tool: tool.into(), arguments, annotations: None }
    }
}

/// Approvals a person gave during this session (SPEC 3.6), as allow patterns.
#[derive(Clone, Debug, Default)]
pub struct SessionApprovals {
    pub patterns: Vec<String>,
}

/// What changes between calls: active skills, session approvals.
#[derive(Clone, Debug, Default)]
pub struct Context<'a> {
    pub active_skills: &'a [String],
    pub session: Option<&'a SessionApprovals>,
}

/// Where the policy lives and whose home `~` is: the facts path matching needs.
#[derive(Clone, Debug)]
pub struct Env {
    /// The directory that holds host.yaml (the workspace is resolved against it).
    pub base_dir: std::path::PathBuf,
    /// The user's home directory, for `~`.
    pub home: Option<std::path::PathBuf>,
}

/// Permission modes (SPEC 3.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
pub enum Mode {
    #[default]
    #[serde(rename = "default")]
    Default,
    #[serde(rename = "acceptEdits")]
    AcceptEdits,
    #[serde(rename = "plan")]
    Plan,
    #[serde(rename = "dontAsk")]
    DontAsk,
    #[serde(rename = "bypassPermissions")]
    BypassPermissions,
}

/// What to do when the doom loop triggers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DoomLoop {
    pub threshold: u32,
    pub action: Verdict,
}

/// A compiled, validated policy. Cheap to share behind an `Arc`; immutable once built.
#[derive(Debug)]
pub struct Policy {
    mode: Mode,
    // API STUB: filled in by the decision-core work.
}

impl Policy {
    /// The built-in defaults (no host.yaml).
    pub fn builtin(_env: &Env) -> Policy {
        Policy { mode: Mode::Default }
    }

    /// Parse and compile host.yaml text. `origin` names the file in error messages.
    pub fn from_yaml(_text: &str, _origin: &str, env: &Env) -> Result<Policy, PolicyErrors> {
        Ok(Policy::builtin(env))
    }

    /// Add persisted "always" approvals (allow patterns, layer 4 after host.yaml's allow rules).
    pub fn set_always(&mut self, _patterns: &[String]) -> Result<(), PolicyErrors> {
        Ok(())
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn set_mode(&mut self, mode: Mode) {
        self.mode = mode;
    }

    /// Tools a rule denies outright, for `welcome` / `policy_changed`.
    pub fn disabled_tools(&self) -> Vec<String> {
        Vec::new()
    }

    pub fn doom_loop(&self) -> DoomLoop {
        DoomLoop { threshold: 3, action: Verdict::Ask }
    }

    /// `audit:` from host.yaml, resolved against the policy's directory.
    pub fn audit_path(&self) -> Option<std::path::PathBuf> {
        None
    }

    /// Decide one call. Never panics: an internal failure is a deny at layer `error`.
    pub fn decide(&self, _call: &Call, _ctx: &Context) -> Decision {
        Decision::error("not implemented")
    }

    /// The patterns that "approve for session" / "approve always" would store for this call
    /// (SPEC 3.6): the narrowest useful pattern per part.
    pub fn suggest_patterns(&self, _call: &Call) -> Vec<String> {
        Vec::new()
    }
}

/// Every error found in a policy file, each with file:line:column and a hint.
#[derive(Debug, Clone, Default)]
pub struct PolicyErrors {
    pub errors: Vec<PolicyError>,
}

#[derive(Debug, Clone)]
pub struct PolicyError {
    pub origin: String,
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub hint: Option<String>,
}

impl std::fmt::Display for PolicyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}: {}", self.origin, self.line, self.column, self.message)?;
        if let Some(h) = &self.hint {
            write!(f, " ({h})")?;
        }
        Ok(())
    }
}

impl std::fmt::Display for PolicyErrors {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, e) in self.errors.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for PolicyErrors {}
