//! The policy engine: the host.yaml model, rules and their matching, and the decision chain
//! (SPEC section 3). Pure: it never reads files, the clock, the environment or a terminal;
//! callers hand it text, paths and state, and get a [`Decision`] back.

pub(crate) mod chain;
pub mod decision;
pub mod glob;
mod links;
pub mod model;
pub mod rules;
pub use links::{Edge, Real};
pub use model::normalize as normalize_path;
mod suggest;
pub mod suggest_tables;
pub mod synthetic;
mod yaml;
mod yaml_errors;

pub use decision::{Decision, Layer, PartDecision, PartKind, Verdict};

use serde_json::Value;

/// One tool call to decide.
#[derive(Clone, Debug, Default, PartialEq)]
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
    /// The directory the agent runs in: relative paths in calls are resolved from it.
    pub cwd: std::path::PathBuf,
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
    pub(crate) model: model::Model,
    pub(crate) always: rules::RuleSet,
    /// Where relative paths in calls are resolved from (the agent's working directory).
    pub(crate) cwd: std::path::PathBuf,
    pub(crate) home: Option<String>,
    /// Files an edit must never reach without a person: host.yaml and `.gate/`.
    pub(crate) protected: Vec<String>,
    /// Compiled session approvals, keyed by a hash of their patterns.
    pub(crate) session_cache: std::sync::Mutex<Option<(u64, std::sync::Arc<rules::RuleSet>)>>,
}

impl Policy {
    /// The built-in defaults (no host.yaml).
    pub fn builtin(env: &Env) -> Policy {
        Policy::from_model(model::Model::builtin(env), env)
    }

    fn from_model(model: model::Model, env: &Env) -> Policy {
        let base = model::normalize(&env.base_dir);
        let protected = vec![base.join("host.yaml").display().to_string(), base.join(".gate").display().to_string()];
        Policy {
            model,
            always: rules::RuleSet::default(),
            cwd: model::normalize(&env.cwd),
            home: env.home.as_ref().map(|h| h.display().to_string()),
            protected,
            session_cache: std::sync::Mutex::new(None),
        }
    }

    /// Parse and compile host.yaml text. `origin` names the file in error messages.
    pub fn from_yaml(text: &str, origin: &str, env: &Env) -> Result<Policy, PolicyErrors> {
        let parsed = yaml_errors::parse(text);
        if !parsed.errors.is_empty() {
            return Err(yaml_errors::report(parsed, origin, env));
        }
        let Some(root) = parsed.root else {
            let message = "the file cannot be read as YAML".to_string();
            return Err(PolicyErrors {
                errors: vec![PolicyError { origin: origin.to_string(), line: 1, column: 1, message, hint: None }],
            });
        };
        let model = model::build(&root, origin, env).map_err(|errors| PolicyErrors { errors })?;
        let mut p = Policy::from_model(model, env);
        if let Some(file) = std::path::Path::new(origin).file_name() {
            let abs = model::normalize(&env.base_dir.join(file));
            p.protected.push(abs.display().to_string());
        }
        Ok(p)
    }

    /// Set the persisted "always" approvals (allow patterns, layer 4 after host.yaml's allow
    /// rules). A pattern that does not parse is an error; the previous set is kept then.
    pub fn set_always(&mut self, patterns: &[String]) -> Result<(), PolicyErrors> {
        let mut rules = Vec::new();
        let mut errors = Vec::new();
        for (i, p) in patterns.iter().enumerate() {
            match model::rule_from_text(p, &self.model.tools, self.home.as_deref()) {
                Ok(r) => rules.push(r),
                Err((message, hint)) => {
                    errors.push(PolicyError { origin: "approvals".into(), line: i + 1, column: 1, message, hint })
                }
            }
        }
        if !errors.is_empty() {
            return Err(PolicyErrors { errors });
        }
        self.always = rules::RuleSet::new(rules);
        Ok(())
    }

    pub fn mode(&self) -> Mode {
        self.model.mode
    }

    pub fn set_mode(&mut self, mode: Mode) {
        self.model.mode = mode;
    }

    /// The workspace root (absolute).
    pub fn workspace(&self) -> &std::path::Path {
        &self.model.workspace
    }

    /// Names of skills declared in host.yaml.
    /// Whether host.yaml (or the built-in tools) declares a tool of this name or alias.
    pub fn knows_tool(&self, name: &str) -> bool {
        self.model.tools.spec(name).is_some()
    }

    pub fn skill_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.model.skills.keys().cloned().collect();
        v.sort();
        v
    }

    /// Tools a rule denies outright, for `welcome` / `policy_changed`: each with its aliases.
    pub fn disabled_tools(&self) -> Vec<String> {
        let mut out = std::collections::BTreeSet::new();
        for t in self.model.deny.whole_tools() {
            out.insert(t.to_string());
            if let Some(spec) = self.model.tools.specs.get(t) {
                out.extend(spec.aliases.iter().cloned());
            }
        }
        out.into_iter().collect()
    }

    /// `agents:` from host.yaml.
    pub fn agents(&self) -> &model::Agents {
        &self.model.agents
    }

    pub fn doom_loop(&self) -> DoomLoop {
        self.model.doom_loop
    }

    /// `audit:` from host.yaml, resolved against the policy's directory.
    pub fn audit_path(&self) -> Option<std::path::PathBuf> {
        self.model.audit.clone()
    }

    /// The examples the policy carries (`tests:`), for `gate validate`.
    pub fn tests(&self) -> &[model::PolicyTest] {
        &self.model.tests
    }

    /// Decide one call. Never panics: an internal failure is a deny at layer `error`.
    pub fn decide(&self, call: &Call, ctx: &Context) -> Decision {
        self.decide_with(call, ctx, None)
    }

    /// [`Policy::decide`], with the facts the edge looks up (whether a path is a directory)
    /// where it is given.
    pub(crate) fn decide_with(&self, call: &Call, ctx: &Context, edge: Option<Real>) -> Decision {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.decide_inner(call, ctx, edge))) {
            Ok(d) => d,
            Err(_) => Decision::error("internal error while deciding (gate denies rather than guess)"),
        }
    }

    /// The patterns that "approve for session" / "approve always" would store for this call
    /// (SPEC 3.6): the narrowest useful pattern per part not already allowed.
    pub fn suggest_patterns(&self, call: &Call) -> Vec<String> {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.suggest_inner(call))).unwrap_or_default()
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

impl Policy {
    /// Parse a call written in rule syntax: `Bash(git push origin main)` is a `bash` call with
    /// `{"command": "git push origin main"}`; `Write(docs/a.md)` a write of that path; a bare
    /// tool name a call with no arguments.
    pub fn parse_call(&self, text: &str) -> Result<Call, String> {
        let text = text.trim();
        let Some(open) = text.find('(') else {
            if text.is_empty() || text.contains(char::is_whitespace) {
                return Err(format!("`{text}` is neither a tool name nor `Tool(argument)`"));
            }
            return Ok(Call::new(text, serde_json::json!({})));
        };
        let inner = text[open + 1..].strip_suffix(')').ok_or_else(|| format!("`{text}`: missing the closing `)`"))?;
        let name = text[..open].trim();
        let spec = self
            .model
            .tools
            .spec(name)
            .ok_or_else(|| format!("`{name}` is not a declared tool: give its arguments as JSON instead"))?;
        let field = match spec.kind {
            model::ToolKind::Shell => spec.command.clone(),
            _ => spec.path.clone(),
        }
        .ok_or_else(|| format!("tool `{name}` has no command or path argument: give its arguments as JSON"))?;
        Ok(Call::new(name, serde_json::json!({ field: inner })))
    }
}
