//! Shared by the tests that drive real agents (`mod agents;` in each tests/agents_*.rs): find an
//! agent installed by `.ci/agents.sh`, give it a throwaway HOME and workspace and a clean,
//! offline environment pointed at a mock model on 127.0.0.1, and run it under a deadline.
//!
//! A missing agent skips the test (a `SKIPPED` line on stderr) unless `GATE_REQUIRE_AGENTS` is
//! set, as CI sets it: then it fails. See tests/agents/README.md.
#![allow(dead_code)]

pub mod acp;
pub mod anthropic;
pub mod claude;
pub mod codex_app;
pub mod gemini;
pub mod mock;
pub mod openai_chat;
pub mod responses;
pub mod stdio;

use std::ffi::{OsStr, OsString};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

#[allow(unused_imports)]
pub use mock::{Recorded, Step, ToolCall, ToolResult};
#[allow(unused_imports)]
pub use stdio::{run, Finished, JsonlProcess};

/// The agents `.ci/agents.sh` installs: name (its folder), npm package, pinned version, command
/// in `node_modules/.bin`. Keep in step with the script.
pub const AGENTS: &[(&str, &str, &str, &str)] = &[
    ("claude-code", "@anthropic-ai/claude-code", "2.1.197", "claude"),
    ("pi", "@mariozechner/pi-coding-agent", "0.73.1", "pi"),
    ("opencode", "opencode-ai", "1.18.33", "opencode"),
    ("gemini", "@google/gemini-cli", "0.61.0", "gemini"),
    ("codex-acp", "@zed-industries/codex-acp", "0.16.0", "codex-acp"),
    ("codex", "@openai/codex", "0.169.0", "codex"),
    ("mcp-filesystem", "@modelcontextprotocol/server-filesystem", "2026.8.31", "mcp-server-filesystem"),
];

/// What a test skipped for (already reported on stderr).
#[derive(Debug)]
pub struct Skip(pub String);

/// An installed agent.
#[derive(Debug, Clone)]
pub struct AgentBin {
    /// Its folder name, e.g. "claude-code".
    pub name: &'static str,
    pub package: &'static str,
    pub version: &'static str,
    /// The command: `<dir>/node_modules/.bin/<command>` (a node script or a native binary).
    pub bin: PathBuf,
    /// The `node` found on the test's PATH; its folder leads the agent's PATH.
    pub node: PathBuf,
    /// The install prefix, `<agents dir>/<name>`.
    pub dir: PathBuf,
}

/// Where `.ci/agents.sh` installs: `$GATE_AGENTS_DIR`, else `<repo>/target/agents`.
pub fn agents_dir() -> PathBuf {
    match std::env::var_os("GATE_AGENTS_DIR") {
        Some(d) if !d.is_empty() => PathBuf::from(d),
        _ => Path::new(env!("CARGO_MANIFEST_DIR")).join("target/agents"),
    }
}

/// The running test's name (libtest names each test's thread after it).
pub fn test_name() -> String {
    std::thread::current().name().unwrap_or("unknown test").to_string()
}

/// Whether a skip must fail instead (`GATE_REQUIRE_AGENTS` set to anything but "" or "0").
pub fn agents_required() -> bool {
    std::env::var("GATE_REQUIRE_AGENTS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Skips the running test: prints `SKIPPED <test>: <why> (run .ci/agents.sh)` to stderr (past
/// libtest's output capture, so it shows in a passing run) and returns the Skip, or panics with
/// that text when `GATE_REQUIRE_AGENTS` is set.
pub fn skip(why: impl std::fmt::Display) -> Skip {
    let line = format!("SKIPPED {}: {why} (run .ci/agents.sh)", test_name());
    if agents_required() {
        panic!("{line}; GATE_REQUIRE_AGENTS is set, so a skip is a failure");
    }
    let _ = writeln!(std::io::stderr().lock(), "{line}");
    Skip(line)
}

/// Finds the installed agent `name` (a folder name from [`AGENTS`]) at its pinned version, and
/// node. Missing: see [`skip`].
pub fn agent(name: &str) -> Result<AgentBin, Skip> {
    let Some(&(name, package, version, command)) = AGENTS.iter().find(|a| a.0 == name) else {
        panic!("no agent named {name:?} in tests/agents/mod.rs AGENTS");
    };
    let node = match which("node") {
        Some(n) => n,
        None => return Err(skip("node is not on PATH")),
    };
    let dir = agents_dir().join(name);
    let bin = dir.join("node_modules/.bin").join(command);
    if !bin.exists() {
        return Err(skip(format!("{name} is not installed ({} is missing)", bin.display())));
    }
    let pj = dir.join("node_modules").join(package).join("package.json");
    let have = std::fs::read_to_string(&pj)
        .ok()
        .and_then(|t| serde_json::from_str::<Value>(&t).ok())
        .and_then(|v| v["version"].as_str().map(str::to_string));
    if have.as_deref() != Some(version) {
        return Err(skip(format!(
            "{name}: {} holds version {}, the tests want {version}",
            pj.display(),
            have.as_deref().unwrap_or("none")
        )));
    }
    Ok(AgentBin { name, package, version, bin, node, dir })
}

/// Use as `let claude = agent_or_skip!("claude-code");`: returns from the test on a skip.
#[macro_export]
macro_rules! agent_or_skip {
    ($name:expr) => {
        match $crate::agents::agent($name) {
            Ok(a) => a,
            Err(_) => return,
        }
    };
}

/// `name` on the test process's PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path).map(|d| d.join(name)).find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata().is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// The policy the agents' scenarios run under: touch and edits under docs/ (and of made.txt)
/// allowed, rm and writes of .env files denied, the rest asked.
pub const POLICY: &str = r#"version: 1
workspace: .
permissions:
  allow:
    - Bash(touch *)
    - { tool: write, when: { file_path: "docs/**" } }
    - { tool: write, when: { file_path: "made.txt" } }
  deny:
    - Bash(rm *)
    - { tool: write, when: { file_path: "**/.env*" } }
"#;

/// A sandbox for an agent scenario: [`POLICY`] as host.yaml, `x/keep.txt` (a denied `rm -rf x`
/// must leave it), `docs/a.md` (`color=red`, to edit) and `.env` (`SECRET=1`, never written).
pub fn scenario() -> Sandbox {
    let sb = Sandbox::new();
    sb.file("host.yaml", POLICY);
    sb.file("x/keep.txt", "keep\n");
    sb.file("docs/a.md", "color=red\n");
    sb.file(".env", "SECRET=1\n");
    sb
}

/// A throwaway HOME, workspace and TMPDIR, removed on drop: `<tmp>/home`, `<tmp>/work`,
/// `<tmp>/tmp`.
pub struct Sandbox {
    pub root: tempfile::TempDir,
    pub home: PathBuf,
    pub work: PathBuf,
    pub tmp: PathBuf,
}

impl Sandbox {
    /// A fresh one; with `GATE_KEEP_SANDBOX` set it is kept after the test (its path is printed).
    pub fn new() -> Sandbox {
        let mut root = tempfile::Builder::new().prefix("gate-agent-").tempdir().unwrap();
        if std::env::var_os("GATE_KEEP_SANDBOX").is_some() {
            root.disable_cleanup(true);
            eprintln!("{}: sandbox kept in {}", test_name(), root.path().display());
        }
        let home = root.path().join("home");
        let work = root.path().join("work");
        let tmp = root.path().join("tmp");
        for d in [&home, &work, &tmp] {
            std::fs::create_dir_all(d).unwrap();
        }
        Sandbox { root, home, work, tmp }
    }

    /// Writes `text` to `rel` (under the workspace), creating folders.
    pub fn file(&self, rel: &str, text: &str) -> PathBuf {
        write(&self.work.join(rel), text)
    }

    /// Writes `text` to `rel` under HOME, creating folders.
    pub fn home_file(&self, rel: &str, text: &str) -> PathBuf {
        write(&self.home.join(rel), text)
    }
}

impl Default for Sandbox {
    fn default() -> Self {
        Sandbox::new()
    }
}

fn write(p: &Path, text: &str) -> PathBuf {
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
    p.to_path_buf()
}

/// A clean environment: exactly these variables, nothing inherited.
#[derive(Debug, Clone, Default)]
pub struct Env {
    pub vars: Vec<(OsString, OsString)>,
}

impl Env {
    /// Sets (or replaces) one variable.
    pub fn set(mut self, key: impl AsRef<OsStr>, val: impl AsRef<OsStr>) -> Env {
        let key = key.as_ref().to_os_string();
        self.vars.retain(|(k, _)| *k != key);
        self.vars.push((key, val.as_ref().to_os_string()));
        self
    }

    pub fn get(&self, key: &str) -> Option<&OsStr> {
        self.vars.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_os_str())
    }

    /// `env_clear()` then these variables.
    pub fn apply<'a>(&self, cmd: &'a mut Command) -> &'a mut Command {
        cmd.env_clear().envs(self.vars.iter().map(|(k, v)| (k, v)))
    }
}

impl AgentBin {
    /// The agent's clean offline environment in `sb`: PATH (node's folder, then the system's),
    /// HOME, TMPDIR (agents keep caches there: Claude Code, pi's jiti, opencode), TERM=dumb,
    /// LANG, NO_COLOR, and the agent's own variables that keep it off the network. With
    /// `model` (a mock's base URL, `http://127.0.0.1:PORT`), also what points it at that mock:
    /// variables, and config files written into `sb.home` (pi's models.json, Gemini's and
    /// Codex's settings). Details per agent: /work/shared/realclients/*.md.
    pub fn env(&self, sb: &Sandbox, model: Option<&str>) -> Env {
        let node_dir = self.node.parent().unwrap().to_string_lossy().into_owned();
        let mut path = vec![node_dir.as_str()];
        for d in ["/usr/local/bin", "/usr/bin", "/bin"] {
            if !path.contains(&d) {
                path.push(d);
            }
        }
        let mut e = Env::default()
            .set("PATH", path.join(":"))
            .set("HOME", &sb.home)
            .set("TMPDIR", &sb.tmp)
            .set("TERM", "dumb")
            .set("LANG", "C.UTF-8")
            .set("NO_COLOR", "1");
        match self.name {
            "claude-code" => {
                e = e
                    .set("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
                    .set("CLAUDE_CODE_MAX_RETRIES", "0")
                    .set("DISABLE_AUTOUPDATER", "1")
                    .set("ANTHROPIC_API_KEY", "sk-ant-dummy");
                if let Some(url) = model {
                    e = e.set("ANTHROPIC_BASE_URL", url);
                }
            }
            "pi" => {
                e = e.set("PI_OFFLINE", "1");
                if let Some(url) = model {
                    sb.home_file(".pi/agent/models.json", &pi_models(url).to_string());
                    sb.home_file(
                        ".pi/agent/settings.json",
                        r#"{"defaultProvider":"mock","defaultModel":"mock-model","quietStartup":true}"#,
                    );
                }
            }
            "opencode" => {
                let h = &sb.home;
                e = e
                    .set("XDG_CONFIG_HOME", h.join(".config"))
                    .set("XDG_DATA_HOME", h.join(".local/share"))
                    .set("XDG_CACHE_HOME", h.join(".cache"))
                    .set("XDG_STATE_HOME", h.join(".local/state"))
                    .set("OPENCODE_DISABLE_MODELS_FETCH", "1")
                    .set("OPENCODE_DISABLE_AUTOUPDATE", "1")
                    .set("OPENCODE_DISABLE_LSP_DOWNLOAD", "1")
                    .set("OPENCODE_DISABLE_DEFAULT_PLUGINS", "1")
                    // It installs @opencode-ai/plugin into its config folder in the background.
                    .set("npm_config_offline", "true");
                if let Some(url) = model {
                    e = e.set("OPENCODE_CONFIG_CONTENT", opencode_config(url, json!({})).to_string());
                }
            }
            "gemini" => {
                e = e.set("GEMINI_CLI_TRUST_WORKSPACE", "true").set("NO_BROWSER", "1");
                sb.home_file(".gemini/settings.json", &gemini_settings().to_string());
                if let Some(url) = model {
                    e = e.set("GOOGLE_GEMINI_BASE_URL", url).set("GEMINI_API_KEY", "dummy");
                }
            }
            "codex" | "codex-acp" => {
                let codex_home = sb.home.join(".codex");
                // The one-time sandbox migration would rewrite rules on a fresh CODEX_HOME.
                write(&codex_home.join(".sandbox_migration"), "v1\n");
                e = e.set("CODEX_HOME", &codex_home).set("OPENAI_API_KEY", "dummy").set("RUST_LOG", "warn");
                if let Some(url) = model {
                    write(&codex_home.join("config.toml"), &codex_config(url));
                }
            }
            _ => {}
        }
        e
    }

    /// `bin` with [`AgentBin::env`] applied, run in the workspace.
    pub fn command(&self, sb: &Sandbox, model: Option<&str>) -> Command {
        let mut c = Command::new(&self.bin);
        self.env(sb, model).apply(&mut c);
        c.current_dir(&sb.work);
        c
    }
}

/// pi's `~/.pi/agent/models.json`: one provider "mock", model "mock-model", chat completions.
pub fn pi_models(url: &str) -> Value {
    json!({"providers": {"mock": {
        "baseUrl": format!("{url}/v1"), "api": "openai-completions", "apiKey": "dummy",
        "compat": {"supportsDeveloperRole": false, "supportsReasoningEffort": false},
        "models": [{"id": "mock-model"}]}}})
}

/// opencode's config (for `OPENCODE_CONFIG_CONTENT`): provider "mock", model "mock/mock-model",
/// an OpenAI-compatible endpoint at `url`/v1. `extra`'s top-level keys are added, e.g.
/// `json!({"permission": {"bash": "ask", "edit": "ask"}})` to make it ask.
pub fn opencode_config(url: &str, extra: Value) -> Value {
    let mut c = json!({
        "provider": {"mock": {"npm": "@ai-sdk/openai-compatible", "name": "Mock",
            "options": {"baseURL": format!("{url}/v1"), "apiKey": "dummy"},
            "models": {"mock-model": {"name": "mock-model", "tool_call": true,
                "limit": {"context": 100000, "output": 4000}}}}},
        "model": "mock/mock-model", "small_model": "mock/mock-model",
        "autoupdate": false, "share": "disabled"
    });
    if let (Some(c), Some(extra)) = (c.as_object_mut(), extra.as_object()) {
        c.extend(extra.clone());
    }
    c
}

/// Gemini CLI's `~/.gemini/settings.json`: no statistics, telemetry, updates, folder trust, IDE.
pub fn gemini_settings() -> Value {
    json!({"privacy": {"usageStatisticsEnabled": false},
        "telemetry": {"enabled": false},
        "general": {"disableAutoUpdate": true, "disableUpdateNag": true,
                    "checkpointing": {"enabled": false}},
        "security": {"auth": {"selectedType": "gemini-api-key"}, "folderTrust": {"enabled": false}},
        "ide": {"enabled": false}})
}

/// Codex's `$CODEX_HOME/config.toml`: provider "mock" speaking the Responses API at `url`/v1,
/// no retries, no update check, no analytics.
pub fn codex_config(url: &str) -> String {
    format!(
        r#"model = "gpt-5.5"
model_provider = "mock"
check_for_update_on_startup = false

[model_providers.mock]
name = "mock"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0
stream_idle_timeout_ms = 20000

[analytics]
enabled = false

# The curated-plugins sync runs `git ls-remote https://github.com/openai/plugins.git`.
[features]
plugins = false
"#
    )
}

/// Whether bubblewrap (codex's Linux sandbox) is on this machine and works (containers often
/// forbid the namespaces it needs).
pub fn have_bwrap() -> bool {
    let Some(bwrap) = which("bwrap") else { return false };
    Command::new(bwrap)
        .args(["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-net", "true"])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}
