//! `gate hook AGENT`: one decision as an agent's own command hook (hook JSON on stdin, the
//! agent's answer on stdout), and `gate hook install|uninstall AGENT`, which add or remove
//! exactly gate's entry in the agent's settings and keep everything else. Codex's and Gemini
//! CLI's formats are in [`crate::hook_agents`], pi's in [`crate::hook_pi`].
//!
//! With `$GATE_SOCKET` set (the agent runs under `gate run`), the hook asks that gate, whose
//! session, prompt and audit log decide; otherwise it decides alone from the policy of the
//! hook's `cwd`. Fail closed: a broken policy, unreadable input, a socket that does not answer
//! all block the call (Claude Code: exit 2 with the reason on stderr blocks it).

use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::cli::{HookAgent, HookArgs, HookInstallArgs};
use crate::policy::{Context, Verdict};
use crate::protocol::claude;

/// Largest hook input read (a Write of a big file carries its content).
const MAX_INPUT: u64 = 64 << 20;

/// A hook's outcome before it is written in the agent's format.
pub(crate) enum Hooked {
    Allow(String),
    Deny(String),
    Ask(String),
}

/// `gate hook claude`: Claude Code's PreToolUse hook.
pub fn run(args: &HookArgs) -> anyhow::Result<i32> {
    match args.agent {
        Some(HookAgent::Claude) => Ok(claude_hook(args)),
        Some(HookAgent::Pi) => Ok(crate::hook_pi::decide(&args.into())),
        Some(agent @ (HookAgent::Codex | HookAgent::Gemini)) => Ok(crate::hook_agents::run(agent, args)),
        None => {
            eprintln!("gate: usage: gate hook AGENT (hook JSON on stdin), or gate hook install|uninstall AGENT");
            Ok(2)
        }
    }
}

fn claude_hook(args: &HookArgs) -> i32 {
    let result = read_input().and_then(|input| decide_claude(args, &input));
    match result {
        Ok(Hooked::Allow(reason)) => print_json(&claude::hook_output(true, &reason)),
        Ok(Hooked::Deny(reason)) => print_json(&claude::hook_output(false, &reason)),
        Ok(Hooked::Ask(reason)) => print_json(&claude::hook_ask(&reason)),
        Err(e) => {
            // Exit 2 blocks the call in Claude Code, with this text as the reason.
            eprintln!("gate: {e}; the call is blocked");
            2
        }
    }
}

pub(crate) fn print_json(v: &Value) -> i32 {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{v}").and_then(|_| out.flush()) {
        Ok(()) => 0,
        Err(_) => 2,
    }
}

pub(crate) fn read_input() -> Result<Value, String> {
    let mut buf = Vec::new();
    std::io::stdin().take(MAX_INPUT).read_to_end(&mut buf).map_err(|e| format!("cannot read the hook input: {e}"))?;
    crate::protocol::strict::parse(&buf).map_err(|e| format!("the hook input is not JSON gate can read: {e}"))
}

fn decide_claude(args: &HookArgs, input: &Value) -> Result<Hooked, String> {
    let h = fields(input, "PreToolUse", "claude", "CLAUDE_PROJECT_DIR")?;
    let call = crate::protocol::anchored(claude::to_call(h.tool, h.tool_input, &h.cwd), &h.cwd, &h.session);
    let id = input.get("tool_use_id").and_then(Value::as_str).unwrap_or("hook");
    decide_call(args, &h.session, id, &call)
}

/// What every agent's pre-tool hook input holds.
pub(crate) struct HookFields<'a> {
    pub tool: &'a str,
    pub tool_input: &'a Value,
    /// Where the call runs: the input's `cwd`, else the session's directory.
    pub cwd: PathBuf,
    /// The session's directory ([`session_dir`]): the policy is found from here.
    pub session: PathBuf,
}

/// The fields of a hook input for `event` (an error for any other event, or a missing tool
/// or input); `var` names the agent's variable for its session's directory.
pub(crate) fn fields<'a>(input: &'a Value, event: &str, agent: &str, var: &str) -> Result<HookFields<'a>, String> {
    let got = input.get("hook_event_name").and_then(Value::as_str).unwrap_or("");
    if got != event {
        return Err(format!("gate hook {agent} answers {event} hooks, not {got:?}"));
    }
    let tool = input.get("tool_name").and_then(Value::as_str).ok_or("the hook input has no tool_name")?;
    let tool_input =
        input.get("tool_input").filter(|v| v.is_object()).ok_or("the hook input has no tool_input object")?;
    let session = session_dir(var);
    let cwd = input.get("cwd").and_then(Value::as_str).map(PathBuf::from).unwrap_or_else(|| session.clone());
    Ok(HookFields { tool, tool_input, cwd, session })
}

/// The session's own directory, where the agent runs its hooks (`$VAR` when the agent sets
/// it, else this process's directory). The policy is found from here, never from the
/// hook input's `cwd`: an agent's model can choose that (Codex's `workdir`), and a policy
/// found there (or none, and the defaults) would be the model's choice.
pub(crate) fn session_dir(var: &str) -> PathBuf {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."))
}

/// One call from a hook: the supervising gate decides when there is one (`$GATE_SOCKET`),
/// else the policy of the session's directory `cwd` ([`session_dir`]).
pub(crate) fn decide_call(args: &HookArgs, cwd: &Path, id: &str, call: &crate::policy::Call) -> Result<Hooked, String> {
    if let Some(sock) = std::env::var_os("GATE_SOCKET").filter(|s| !s.is_empty()) {
        return ask_supervisor(Path::new(&sock), id, call);
    }
    decide_alone(args, cwd, call)
}

/// Ask the supervising gate: one native request on its socket, one decision back.
fn ask_supervisor(sock: &Path, id: &str, call: &crate::policy::Call) -> Result<Hooked, String> {
    let mut stream = UnixStream::connect(sock).map_err(|e| format!("cannot reach gate at {}: {e}", sock.display()))?;
    let req = json!({"type": "tool_request", "id": id, "tool": call.tool, "arguments": call.arguments});
    let mut line = serde_json::to_vec(&req).map_err(|e| e.to_string())?;
    line.push(b'\n');
    stream.write_all(&line).map_err(|e| format!("cannot send the call to gate: {e}"))?;
    let mut answer = String::new();
    BufReader::new(&stream).take(MAX_INPUT).read_line(&mut answer).map_err(|e| format!("no answer from gate: {e}"))?;
    let v: Value =
        serde_json::from_str(&answer).map_err(|_| "gate closed the connection without an answer".to_string())?;
    let text = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    match v.get("approved") {
        Some(Value::Bool(true)) => Ok(Hooked::Allow(format!("gate: {}", text("reason")))),
        Some(Value::Bool(false)) => Ok(Hooked::Deny(text("message"))),
        _ => Err("gate's answer has no decision".into()),
    }
}

/// No supervising gate: the policy of the hook's directory decides; "ask" is settled by the
/// flags, else left to Claude Code's own dialog.
fn decide_alone(args: &HookArgs, cwd: &Path, call: &crate::policy::Call) -> Result<Hooked, String> {
    let found = match &args.config.config {
        Some(c) => Some(c.clone()),
        None => find_policy(cwd),
    };
    if cwd.is_dir() {
        // The policy's workspace and relative paths are the hook's directory.
        let _ = std::env::set_current_dir(cwd);
    }
    let mut loaded = crate::config::load_from(found.as_deref()).map_err(|e| match e {
        crate::config::ConfigError::Invalid(errs) => {
            let first = errs.errors.first().map(|e| e.to_string()).unwrap_or_default();
            format!("the policy has {} error(s), the first: {first}", errs.errors.len())
        }
        other => other.to_string(),
    })?;
    if let Some(m) = args.flags.mode {
        loaded.policy.set_mode(m.into());
    }
    let real = crate::resolve::real_for(loaded.policy.workspace());
    let d = loaded.policy.decide_real(call, &Context { active_skills: &[], session: None }, &real);
    let mut r = crate::protocol::Resolution::from_policy(d.clone());
    let out = match d.decision {
        Verdict::Allow => Hooked::Allow(format!("gate: {}", d.reason)),
        Verdict::Deny => Hooked::Deny(crate::protocol::message_for_model(&call.tool, &r)),
        Verdict::Ask if args.flags.strict => {
            r.by = crate::protocol::By::Strict;
            r.reason = format!("it needs approval ({}), and --strict denies every call that would prompt", d.reason);
            Hooked::Deny(crate::protocol::message_for_model(&call.tool, &r))
        }
        Verdict::Ask if args.flags.approve_all => {
            r.approved = true;
            r.by = crate::protocol::By::ApproveAll;
            Hooked::Allow("gate: approved by --approve-all".into())
        }
        Verdict::Ask => Hooked::Ask(format!("gate asks: {}", d.reason)),
    };
    if let Some(path) = &args.flags.audit {
        if !matches!(out, Hooked::Ask(_)) {
            r.approved = matches!(out, Hooked::Allow(_));
            let mut a = crate::supervise::audit::Audit::open(path)
                .map_err(|e| format!("cannot open the audit log {}: {e}", path.display()))?;
            let id = crate::protocol::CallId::plain(json!("hook"));
            let rec = crate::supervise::audit::Record {
                time: std::time::SystemTime::now(),
                id: &id,
                tool: Some(&call.tool),
                arguments: Some(&call.arguments),
                resolution: &r,
                micros: 0,
                not_asked: false,
            };
            a.record(&rec).map_err(|e| format!("cannot write the audit log {}: {e}", path.display()))?;
        }
    }
    Ok(out)
}

/// host.yaml of `dir`, then of its parents up to the repository root (a folder with `.git`),
/// then the user's.
pub fn find_policy(dir: &Path) -> Option<PathBuf> {
    let mut d = Some(dir);
    while let Some(here) = d {
        let p = here.join("host.yaml");
        if p.is_file() {
            return Some(p);
        }
        if here.join(".git").exists() {
            break;
        }
        d = here.parent();
    }
    crate::config::find(None).filter(|p| p.is_absolute())
}

/// Where `gate hook install claude` writes.
fn claude_settings_path(args: &HookInstallArgs) -> anyhow::Result<PathBuf> {
    if args.user {
        Ok(crate::config::home_required()?.join(".claude").join("settings.json"))
    } else {
        Ok(std::env::current_dir()?.join(".claude").join("settings.json"))
    }
}

/// The command gate's hook entry runs.
fn hook_command() -> anyhow::Result<String> {
    let exe = std::env::current_exe()?;
    Ok(format!("{} hook claude", exe.display()))
}

fn is_gate_entry(entry: &Value) -> bool {
    entry.get("hooks").and_then(Value::as_array).is_some_and(|hs| {
        hs.iter().any(|h| {
            h.get("command").and_then(Value::as_str).is_some_and(|c| {
                c.ends_with(" hook claude") && c.split(' ').next().is_some_and(|p| p.ends_with("gate"))
            })
        })
    })
}

/// `gate hook install claude [--user|--project]`.
pub fn install(args: &HookInstallArgs) -> anyhow::Result<i32> {
    match args.agent {
        HookAgent::Pi => return crate::hook_pi::install(&args.into()),
        HookAgent::Codex | HookAgent::Gemini => return crate::hook_agents::install(args),
        HookAgent::Claude => {}
    }
    let path = claude_settings_path(args)?;
    let mut settings = crate::hook_agents::read_json_object(&path)?;
    let already =
        settings.pointer("/hooks/PreToolUse").and_then(Value::as_array).is_some_and(|l| l.iter().any(is_gate_entry));
    if already {
        println!("gate's hook is already in {}", path.display());
        return Ok(0);
    }
    let merged = claude::merged_settings(Some(&settings), &hook_command()?, 24 * 3600);
    settings = merged;
    write_settings(&path, &settings)?;
    println!("gate's PreToolUse hook was added to {}", path.display());
    println!("remove it with: gate hook uninstall claude{}", if args.user { " --user" } else { "" });
    Ok(0)
}

/// `gate hook uninstall claude [--user|--project]`: removes exactly gate's entry.
pub fn uninstall(args: &HookInstallArgs) -> anyhow::Result<i32> {
    match args.agent {
        HookAgent::Pi => return crate::hook_pi::uninstall(&args.into()),
        HookAgent::Codex | HookAgent::Gemini => return crate::hook_agents::uninstall(args),
        HookAgent::Claude => {}
    }
    let path = claude_settings_path(args)?;
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            println!("{} does not exist; nothing to remove", path.display());
            return Ok(0);
        }
        Err(e) => anyhow::bail!("cannot read {}: {e}", path.display()),
    };
    let mut settings = crate::protocol::strict::parse(&bytes)
        .map_err(|e| anyhow::anyhow!("{} is not JSON gate can read ({e}); nothing was changed", path.display()))?;
    let mut removed = 0;
    if let Some(hooks) = settings.get_mut("hooks").and_then(Value::as_object_mut) {
        if let Some(list) = hooks.get_mut("PreToolUse").and_then(Value::as_array_mut) {
            let before = list.len();
            list.retain(|e| !is_gate_entry(e));
            removed = before - list.len();
            if list.is_empty() {
                hooks.remove("PreToolUse");
            }
        }
        if hooks.is_empty() {
            if let Some(m) = settings.as_object_mut() {
                m.remove("hooks");
            }
        }
    }
    if removed == 0 {
        println!("gate's hook is not in {}; nothing was changed", path.display());
        return Ok(0);
    }
    write_settings(&path, &settings)?;
    println!("gate's PreToolUse hook was removed from {}", path.display());
    Ok(0)
}

/// Claude Code's own format: two-space JSON and a final newline, written atomically.
pub(crate) fn write_settings(path: &Path, v: &Value) -> anyhow::Result<()> {
    let mut text = serde_json::to_string_pretty(v)?;
    text.push('\n');
    crate::hook_agents::write_text(path, &text)
}
