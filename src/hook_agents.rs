//! `gate hook codex` and `gate hook gemini`: one decision as Codex's `PreToolUse` hook or
//! Gemini CLI's `BeforeTool` hook, and `gate hook install|uninstall codex|gemini`, which add or
//! remove exactly gate's entry in the agent's settings and keep everything else.
//!
//! Measured on the pinned agents (Codex 0.169, Gemini CLI 0.61; docs/agents/codex.md and
//! docs/agents/acp.md):
//! - Neither hook can wait for a person. Codex has no "ask"; Gemini's forces its own dialog,
//!   which hangs a headless run. So a call the policy asks about is denied, with a reason that
//!   names `gate run` (under `gate run`, `$GATE_SOCKET` is set and that gate asks).
//! - Both fail open on most errors (a crash, a time-out, output they cannot read). The one way
//!   to block in both is exit 2 with the reason on stderr: every error here ends that way.
//! - Codex skips a user's hook it does not trust, silently. Trust is the SHA-256 of the
//!   entry, kept in `$CODEX_HOME/config.toml`; install writes it, uninstall removes it.
//!
//! This module maps the agents' hook JSON to calls and answers back; the decision itself is
//! [`crate::hook`]'s (the policy of the session's directory, or the supervising gate).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::cli::{HookAgent, HookArgs, HookInstallArgs};
use crate::hook::{self, Hooked};
use crate::policy::Call;
use crate::protocol::claude;

/// Seconds an agent waits for gate's hook (a supervising gate may be showing a prompt):
/// both agents let the call run when a hook times out.
const TIMEOUT_SECS: u64 = 24 * 3600;

/// What the hook input asks for.
enum Input {
    /// Calls to decide (a Codex patch may touch several files), by the policy of `session`.
    Calls { session: PathBuf, id: String, calls: Vec<Call> },
    /// A tool that only touches the agent's own state (Gemini's todo list, its question to
    /// the user): gate has nothing to decide, and the agent's own rules apply.
    Abstain,
}

/// `gate hook codex` or `gate hook gemini`: hook JSON on stdin, the agent's answer on stdout.
pub fn run(agent: HookAgent, args: &HookArgs) -> i32 {
    let result = hook::read_input().and_then(|input| {
        let parsed = match agent {
            HookAgent::Codex => codex_input(&input),
            _ => gemini_input(&input),
        }?;
        match parsed {
            Input::Abstain => Ok(None),
            Input::Calls { session, id, calls } => decide_all(args, &session, &id, &calls).map(Some),
        }
    });
    let name = if agent == HookAgent::Codex { "Codex" } else { "Gemini CLI" };
    let how = if agent == HookAgent::Codex {
        "`gate run -- codex exec TEXT`, or `gate run -- codex app-server` from an IDE"
    } else {
        "`gate run -- gemini --acp` from an editor, or `gate run --prompt TEXT -- gemini --acp`"
    };
    let out = match result {
        Ok(None) => return if agent == HookAgent::Codex { 0 } else { hook::print_json(&json!({})) },
        Ok(Some(Hooked::Allow(_))) if agent == HookAgent::Codex => return 0,
        Ok(Some(Hooked::Allow(_))) => return hook::print_json(&json!({"decision": "allow"})),
        Ok(Some(Hooked::Deny(reason))) => reason,
        Ok(Some(Hooked::Ask(reason))) => format!(
            "{reason}. {name}'s hook cannot wait for an answer, so gate denies what it would ask about; \
             to be asked, run the agent under gate: {how}"
        ),
        Err(e) => {
            // Exit 2 with the reason on stderr blocks the call in both agents.
            eprintln!("gate: {e}; the call is blocked");
            return 2;
        }
    };
    let reason = if out.trim().is_empty() { "denied by gate".to_string() } else { out };
    match agent {
        // A deny without a reason is ignored by Codex: there always is one.
        HookAgent::Codex => hook::print_json(&json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": reason}})),
        _ => hook::print_json(&json!({"decision": "deny", "reason": reason})),
    }
}

/// Decide every call; the strictest outcome answers (deny, then ask, then allow).
fn decide_all(args: &HookArgs, session: &Path, id: &str, calls: &[Call]) -> Result<Hooked, String> {
    let mut ask: Option<String> = None;
    let mut allow = String::new();
    for call in calls {
        match hook::decide_call(args, session, id, call)? {
            Hooked::Deny(r) => return Ok(Hooked::Deny(r)),
            Hooked::Ask(r) => {
                ask.get_or_insert(r);
            }
            Hooked::Allow(r) => allow = r,
        }
    }
    Ok(match ask {
        Some(r) => Hooked::Ask(r),
        None => Hooked::Allow(allow),
    })
}

/// The calls as they run from the hook input's `cwd`, decided by the policy of the session's
/// directory.
fn from_session(h: &hook::HookFields, id: String, calls: Vec<Call>) -> Input {
    let calls = calls.into_iter().map(|c| crate::protocol::anchored(c, &h.cwd, &h.session)).collect();
    Input::Calls { session: h.session.clone(), id, calls }
}

/// Codex's `PreToolUse`: `Bash` with the command, `apply_patch` with the patch text; any
/// other tool (an MCP server's) under its own name.
fn codex_input(input: &Value) -> Result<Input, String> {
    // Codex sets no variable for its session's directory: it runs hooks there.
    let h = hook::fields(input, "PreToolUse", "codex", "")?;
    let id = input.get("tool_use_id").and_then(Value::as_str).unwrap_or("hook").to_string();
    let text = |k: &str| h.tool_input.get(k).and_then(Value::as_str);
    let calls = match h.tool {
        "Bash" => vec![Call::new("Bash", json!({"command": text("command").ok_or("Bash without a command")?}))],
        "apply_patch" => with_other_fields(
            patch_calls(text("command").ok_or("apply_patch without its patch")?)?,
            h.tool_input,
            "command",
        ),
        other => vec![Call::new(other, h.tool_input.clone())],
    };
    Ok(from_session(&h, id, calls))
}

/// The patch's edits with every other field of the call beside their own (`workdir`, `cwd`...):
/// a field gate reads as a path is checked on each edit as on any write, one it does not know
/// is decided as the tool's other unknown fields are (red team 53: `"workdir": "/tmp"` was
/// dropped, and the patch's relative paths land below it).
/// The patch's relative paths are below the call's own directory where it names one (red
/// team 57: `"workdir": "docs"` with `*** Add File: ../Cargo.toml` writes Cargo.toml).
fn with_other_fields(mut calls: Vec<Call>, input: &Value, patch_key: &str) -> Vec<Call> {
    let Some(fields) = input.as_object() else { return calls };
    let dir = ["workdir", "cwd"].iter().find_map(|k| fields.get(*k).and_then(Value::as_str).filter(|d| !d.is_empty()));
    for call in &mut calls {
        if let (Some(dir), Some(Value::String(path))) = (dir, call.arguments.get("file_path")) {
            if !path.starts_with(['/', '~']) {
                let joined = format!("{}/{path}", dir.trim_end_matches('/'));
                call.arguments["file_path"] = Value::String(joined);
            }
        }
        if let Some(args) = call.arguments.as_object_mut() {
            for (k, v) in fields.iter().filter(|(k, _)| k.as_str() != patch_key) {
                args.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
    calls
}

/// Codex's lenient form of a patch (its parser's, for models that write the patch as a
/// heredoc): the text trimmed, `<<EOF`, `<<'EOF'` or `<<"EOF"` its first line, a line ending in
/// `EOF` its last, and at least two lines between, which are the patch (red team 49: denied as
/// unreadable, though Codex applies it).
fn heredoc_body(patch: &str) -> Option<&str> {
    let (first, rest) = patch.trim().split_once('\n')?;
    let (body, last) = rest.rsplit_once('\n')?;
    (matches!(first.trim(), "<<EOF" | "<<'EOF'" | "<<\"EOF\"")
        && last.trim_end().ends_with("EOF")
        && body.lines().count() >= 2)
        .then_some(body)
}

/// The files a Codex patch (`*** Begin Patch` ... `*** End Patch`) adds, changes, moves and
/// deletes, as edits gate decides. Text gate cannot read is an error: the call is blocked.
pub fn patch_calls(patch: &str) -> Result<Vec<Call>, String> {
    let bad = |why: &str| format!("the patch cannot be read ({why})");
    let mut lines = heredoc_body(patch).unwrap_or(patch).lines().map(|l| l.trim_end_matches('\r'));
    if lines.next().map(str::trim) != Some("*** Begin Patch") {
        return Err(bad("it does not start with `*** Begin Patch`"));
    }
    let mut calls = Vec::new();
    // The file being read: (kind, path, body).
    let mut cur: Option<(&str, String, String)> = None;
    let mut ended = false;
    let flush = |cur: &mut Option<(&str, String, String)>, calls: &mut Vec<Call>| {
        if let Some((kind, path, body)) = cur.take() {
            calls.push(match kind {
                "add" => Call::new("Write", json!({"file_path": path, "content": body})),
                _ => Call::new("Edit", json!({"file_path": path, "diff": body, "change": kind})),
            });
        }
    };
    for line in lines {
        if ended {
            if line.trim().is_empty() {
                continue;
            }
            return Err(bad("text after `*** End Patch`"));
        }
        // The path is what follows the marker, exactly (Codex keeps a leading space as part of
        // the name); one with space around it is refused above.
        let header = |p: &str| line.strip_prefix(p).map(str::to_string);
        for p in ["*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "] {
            if let Some(path) = line.strip_prefix(p) {
                if path.is_empty() || path.trim() != path {
                    return Err(bad("a path that is empty or has space around it"));
                }
            }
        }
        if line.trim() == "*** End Patch" {
            flush(&mut cur, &mut calls);
            ended = true;
        } else if let Some(p) = header("*** Add File: ") {
            flush(&mut cur, &mut calls);
            cur = Some(("add", p, String::new()));
        } else if let Some(p) = header("*** Update File: ") {
            flush(&mut cur, &mut calls);
            cur = Some(("update", p, String::new()));
        } else if let Some(p) = header("*** Delete File: ") {
            flush(&mut cur, &mut calls);
            calls.push(Call::new("Edit", json!({"file_path": p, "diff": "", "change": "delete"})));
        } else if let Some(p) = header("*** Move to: ") {
            // The file is written under its new name, and goes away under the old one.
            match &cur {
                Some(("update", from, body)) => {
                    calls.push(Call::new("Edit", json!({"file_path": from, "diff": "", "change": "delete"})));
                    cur = Some(("update", p, body.clone()));
                }
                _ => return Err(bad("`*** Move to:` outside an update")),
            }
        } else if line == "*** End of File" {
            // Part of a hunk.
        } else if line.starts_with("***") {
            return Err(bad(&format!("an unknown header {:?}", crate::approve::tty::sanitize(line))));
        } else {
            match &mut cur {
                Some(("add", _, body)) => {
                    let l = line.strip_prefix('+').ok_or_else(|| bad("a line of an added file without `+`"))?;
                    body.push_str(l);
                    body.push('\n');
                }
                Some((_, _, body)) => {
                    body.push_str(line);
                    body.push('\n');
                }
                None if line.trim().is_empty() => {}
                None => return Err(bad("text outside a file")),
            }
        }
    }
    if !ended {
        return Err(bad("no `*** End Patch`"));
    }
    if calls.is_empty() {
        return Err(bad("it changes no file"));
    }
    Ok(calls)
}

/// Gemini CLI's tools that only touch its own state.
const GEMINI_STATE_TOOLS: &[&str] = &["write_todos", "ask_user", "update_topic", "enter_plan_mode", "exit_plan_mode"];

/// Gemini CLI's `BeforeTool`: its tool names and argument fields as the calls gate decides.
fn gemini_input(input: &Value) -> Result<Input, String> {
    let h = hook::fields(input, "BeforeTool", "gemini", "GEMINI_PROJECT_DIR")?;
    let (tool, tool_input, cwd) = (h.tool, h.tool_input, &h.cwd);
    let c = match gemini_call(tool, tool_input, cwd) {
        Some(c) => c?,
        None if GEMINI_STATE_TOOLS.contains(&tool) => return Ok(Input::Abstain),
        None => {
            let other = tool;
            // An MCP tool: named as in Claude Code, from the server and tool Gemini names.
            let mcp = input.get("mcp_context");
            let server = mcp.and_then(|m| m.get("server_name")).and_then(Value::as_str);
            let name = mcp.and_then(|m| m.get("tool_name")).and_then(Value::as_str);
            match (server, name) {
                (Some(s), Some(n)) => Call::new(format!("mcp__{s}__{n}"), tool_input.clone()),
                _ => Call::new(other, tool_input.clone()),
            }
        }
    };
    Ok(from_session(&h, "hook".to_string(), vec![c]))
}

/// One of Gemini CLI's own tools as the call gate decides (`None`: not one of them).
fn gemini_call(tool: &str, tool_input: &Value, cwd: &Path) -> Option<Result<Call, String>> {
    let text = |k: &str| tool_input.get(k).and_then(Value::as_str);
    let dir = text("dir_path").filter(|d| !d.is_empty());
    // Every field the agent sent is kept, so one gate does not know (`directory` of an older
    // shell tool, `absolute_path`) is still checked (red team 47: `directory` was dropped).
    let with = |pairs: &[(&str, Value)]| {
        let mut args = tool_input.as_object().cloned().unwrap_or_default();
        for (k, v) in pairs {
            args.insert((*k).to_string(), v.clone());
        }
        Value::Object(args)
    };
    Some(Ok(match tool {
        "run_shell_command" => {
            let Some(command) = text("command") else { return Some(Err("run_shell_command without a command".into())) };
            // The command runs in dir_path.
            let command = match dir {
                Some(d) if d != "." => crate::protocol::run_in(d, command),
                _ => command.to_string(),
            };
            let mut args = with(&[("command", json!(command))]);
            if let Some(o) = args.as_object_mut() {
                o.remove("dir_path");
                o.remove("description");
            }
            Call::new("Bash", args)
        }
        "write_file" => Call::new("Write", with(&[])),
        "replace" => Call::new("Edit", with(&[])),
        "read_file" => Call::new("Read", with(&[])),
        // Every path it names (`paths`, `include`) is checked as a read (red team 48: it was
        // an unknown tool).
        "read_many_files" => Call::new("Read", with(&[])),
        // Every field kept (one gate does not know is still a path it checks), `dir_path` as
        // the tool's `path`.
        // (`search_file_content`: the grep tool's name in older Gemini CLI releases, kept
        // in its legacy aliases; `path` where newer ones send `dir_path`. Red team 75.)
        "list_directory" | "glob" | "grep_search" | "search_file_content" => {
            let mut args = tool_input.as_object().cloned().unwrap_or_default();
            args.remove("dir_path");
            if let Some(d) = dir {
                // (A `path` sent too is kept, as a field of its own: a release that reads it
                // first searches there; red team 76.)
                if let Some(sent) = args.insert("path".into(), json!(d)).filter(|p| p.as_str() != Some(d)) {
                    args.insert("path_sent".into(), sent);
                }
            }
            let claude_name = match tool {
                "list_directory" => "LS",
                "glob" => "Glob",
                _ => "Grep",
            };
            claude::to_call(claude_name, &Value::Object(args), cwd)
        }
        "web_fetch" => Call::new("WebFetch", tool_input.clone()),
        "google_web_search" => Call::new("WebSearch", tool_input.clone()),
        _ => return None,
    }))
}

/// A call named as Gemini CLI's or Codex's hook names it (`run_shell_command`, `read_file`,
/// `apply_patch`...), as the calls `gate hook` decides for it: for `gate check`, so that an
/// agent's own tool names are decided as its hook decides them. `None`: not such a name.
pub fn agent_tool_calls(tool: &str, input: &Value, cwd: &Path) -> Option<Result<Vec<Call>, String>> {
    // (opencode's `patch` tool carries the same patch text in `patchText`.)
    if tool == "apply_patch" || (tool == "patch" && input.get("patchText").is_some()) {
        let patch = ["command", "input", "patch", "patchText"]
            .iter()
            .find_map(|k| input.get(*k).and_then(Value::as_str).map(|p| (*k, p)));
        return Some(match patch {
            Some((key, p)) => patch_calls(p).map(|calls| with_other_fields(calls, input, key)),
            None => Err("apply_patch without its patch (`command`, `input` or `patch`)".into()),
        });
    }
    // pi's `find` (its `read`, `ls` and `grep` are gate's own names): a listing of its `path`,
    // as `gate hook pi` decides it (red team 53: asked as a tool gate does not know).
    if tool == "find" {
        let ev = crate::protocol::pi::Event {
            id: Value::Null,
            tool_name: tool.into(),
            tool_call_id: None,
            input: input.clone(),
            cwd: Some(cwd.display().to_string()),
            has_ui: false,
            answered: false,
            choice: None,
        };
        return Some(Ok(vec![crate::protocol::pi::to_call(&ev, None)]));
    }
    gemini_call(tool, input, cwd).map(|c| c.map(|c| vec![c]))
}

// ---- install and uninstall ----

/// The command an installed hook runs: gate by its absolute path.
fn hook_command(agent: &str, args: &HookInstallArgs) -> anyhow::Result<String> {
    let exe = std::env::current_exe()?;
    let mut words = vec![exe.display().to_string(), "hook".into(), agent.into()];
    // The flags given to install (`--strict`, `--approve-all`, `--mode`, `--audit`), on every call.
    words.extend(crate::hook_pi::decide_flags(&crate::cli::HookPlaceArgs::from(args).decide)?);
    Ok(words.iter().map(|w| crate::shell::shell_word(w)).collect::<Vec<_>>().join(" "))
}

/// Whether a hook's command is gate's: `/path/to/gate hook AGENT [flags]`.
fn is_gate_command(c: &str, agent: &str) -> bool {
    let mut words = c.split(' ');
    words.next().is_some_and(|p| p.trim_matches('\'').ends_with("gate"))
        && words.next() == Some("hook")
        && words.next() == Some(agent)
}

/// Whether a hook group (`{"matcher":..., "hooks":[...]}`) is gate's.
fn is_gate_group(group: &Value, agent: &str) -> bool {
    group.get("hooks").and_then(Value::as_array).is_some_and(|hs| {
        hs.iter().any(|h| h.get("command").and_then(Value::as_str).is_some_and(|c| is_gate_command(c, agent)))
    })
}

fn codex_home() -> anyhow::Result<PathBuf> {
    match std::env::var_os("CODEX_HOME").filter(|h| !h.is_empty()) {
        Some(h) => Ok(PathBuf::from(h)),
        None => Ok(crate::config::home_required()?.join(".codex")),
    }
}

/// A JSON settings file as an object (missing or empty: `{}`).
pub(crate) fn read_json_object(path: &Path) -> anyhow::Result<Value> {
    let v = match std::fs::read(path) {
        Ok(bytes) if !bytes.iter().all(u8::is_ascii_whitespace) => crate::protocol::strict::parse(&bytes)
            .map_err(|e| anyhow::anyhow!("{} is not JSON gate can read ({e}); nothing was changed", path.display()))?,
        Ok(_) => json!({}),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => json!({}),
        Err(e) => anyhow::bail!("cannot read {}: {e}", path.display()),
    };
    if !v.is_object() {
        anyhow::bail!("{} does not hold a JSON object; nothing was changed", path.display());
    }
    Ok(v)
}

/// The hook groups of `event` in settings `v`, created when missing.
fn groups_mut<'a>(v: &'a mut Value, event: &str, path: &Path) -> anyhow::Result<&'a mut Vec<Value>> {
    let hooks = v
        .as_object_mut()
        .map(|m| m.entry("hooks").or_insert_with(|| json!({})))
        .and_then(Value::as_object_mut)
        .ok_or_else(|| anyhow::anyhow!("`hooks` in {} is not an object; nothing was changed", path.display()))?;
    hooks
        .entry(event)
        .or_insert_with(|| json!([]))
        .as_array_mut()
        .ok_or_else(|| anyhow::anyhow!("`hooks.{event}` in {} is not a list; nothing was changed", path.display()))
}

/// Drop `hooks.EVENT` and `hooks` when they end up empty.
fn prune(v: &mut Value, event: &str) {
    if let Some(hooks) = v.get_mut("hooks").and_then(Value::as_object_mut) {
        if hooks.get(event).and_then(Value::as_array).is_some_and(Vec::is_empty) {
            hooks.remove(event);
        }
        if hooks.is_empty() {
            if let Some(m) = v.as_object_mut() {
                m.remove("hooks");
            }
        }
    }
}

/// `gate hook install codex|gemini`.
pub fn install(args: &HookInstallArgs) -> anyhow::Result<i32> {
    match args.agent {
        HookAgent::Codex => codex_install(args),
        _ => gemini_install(args),
    }
}

/// `gate hook uninstall codex|gemini`.
pub fn uninstall(args: &HookInstallArgs) -> anyhow::Result<i32> {
    match args.agent {
        HookAgent::Codex => codex_uninstall(args),
        _ => gemini_uninstall(args),
    }
}

fn gemini_settings_path(args: &HookInstallArgs) -> anyhow::Result<PathBuf> {
    Ok(if args.user {
        crate::config::home_required()?.join(".gemini")
    } else {
        std::env::current_dir()?.join(".gemini")
    }
    .join("settings.json"))
}

fn gemini_install(args: &HookInstallArgs) -> anyhow::Result<i32> {
    let path = gemini_settings_path(args)?;
    let mut settings = read_json_object(&path)?;
    let command = hook_command("gemini", args)?;
    // Milliseconds; Gemini lets the call run when a hook times out.
    let entry = json!({"matcher": ".*", "hooks": [
        {"type": "command", "name": "gate", "command": command, "timeout": TIMEOUT_SECS * 1000}]});
    let groups = groups_mut(&mut settings, "BeforeTool", &path)?;
    if groups.iter().any(|g| is_gate_group(g, "gemini")) {
        println!("gate's hook is already in {}", path.display());
        return Ok(0);
    }
    // First: gate decides before any other hook can act.
    groups.insert(0, entry);
    if settings.pointer("/hooksConfig/enabled") == Some(&Value::Bool(false)) {
        eprintln!(
            "gate: warning: {} sets hooksConfig.enabled to false: Gemini CLI runs no hook until it is true",
            path.display()
        );
    }
    hook::write_settings(&path, &settings)?;
    println!("gate's BeforeTool hook was added to {}", path.display());
    println!(
        "Gemini CLI loads hooks only in folders it trusts; `gemini --acp` runs none (use `gate run -- gemini --acp`)"
    );
    println!("remove it with: gate hook uninstall gemini{}", if args.user { " --user" } else { "" });
    Ok(0)
}

fn gemini_uninstall(args: &HookInstallArgs) -> anyhow::Result<i32> {
    let path = gemini_settings_path(args)?;
    if !path.exists() {
        println!("{} does not exist; nothing to remove", path.display());
        return Ok(0);
    }
    let mut settings = read_json_object(&path)?;
    let mut removed = 0;
    if let Some(groups) = settings.pointer_mut("/hooks/BeforeTool").and_then(Value::as_array_mut) {
        let before = groups.len();
        groups.retain(|g| !is_gate_group(g, "gemini"));
        removed = before - groups.len();
    }
    if removed == 0 {
        println!("gate's hook is not in {}; nothing was changed", path.display());
        return Ok(0);
    }
    prune(&mut settings, "BeforeTool");
    hook::write_settings(&path, &settings)?;
    println!("gate's BeforeTool hook was removed from {}", path.display());
    Ok(0)
}

fn codex_hooks_path(args: &HookInstallArgs) -> anyhow::Result<PathBuf> {
    Ok(if args.project { std::env::current_dir()?.join(".codex") } else { codex_home()? }.join("hooks.json"))
}

/// Codex's key for one hook handler's trust: `<hooks.json>:pre_tool_use:<group>:<handler>`.
fn trust_key(hooks_json: &Path, group: usize) -> String {
    format!("{}:pre_tool_use:{group}:0", hooks_json.display())
}

/// What Codex trusts: `sha256:` and the SHA-256 of the entry as compact JSON with its keys
/// sorted (event, then the handler without a matcher: gate's entry has none).
pub fn trust_hash(command: &str, timeout_secs: u64) -> String {
    use sha2::Digest;
    let identity = format!(
        r#"{{"event_name":"pre_tool_use","hooks":[{{"async":false,"command":{},"timeout":{timeout_secs},"type":"command"}}]}}"#,
        Value::String(command.to_string())
    );
    let digest = sha2::Sha256::digest(identity.as_bytes());
    let hex: String = digest.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

fn read_toml(path: &Path) -> anyhow::Result<toml_edit::DocumentMut> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => anyhow::bail!("cannot read {}: {e}", path.display()),
    };
    text.parse::<toml_edit::DocumentMut>()
        .map_err(|e| anyhow::anyhow!("{} is not TOML gate can read ({e}); nothing was changed", path.display()))
}

/// Write `text` to `path` atomically ([`crate::config::write_atomic`]).
pub(crate) fn write_text(path: &Path, text: &str) -> anyhow::Result<()> {
    crate::config::write_atomic(path, text.as_bytes(), None)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// `hooks.state` of Codex's config, created (as implicit tables) when missing.
fn trust_table(doc: &mut toml_edit::DocumentMut) -> anyhow::Result<&mut toml_edit::Table> {
    let hooks = doc.entry("hooks").or_insert_with(|| {
        let mut t = toml_edit::Table::new();
        t.set_implicit(true);
        toml_edit::Item::Table(t)
    });
    let hooks = hooks.as_table_like_mut().ok_or_else(|| anyhow::anyhow!("`hooks` in config.toml is not a table"))?;
    let state = hooks.entry("state").or_insert_with(|| {
        let mut t = toml_edit::Table::new();
        t.set_implicit(true);
        toml_edit::Item::Table(t)
    });
    state.as_table_mut().ok_or_else(|| anyhow::anyhow!("`hooks.state` in config.toml is not a table"))
}

fn codex_install(args: &HookInstallArgs) -> anyhow::Result<i32> {
    let path = codex_hooks_path(args)?;
    let path = if path.is_absolute() { path } else { std::env::current_dir()?.join(path) };
    let config = codex_home()?.join("config.toml");
    let mut hooks = read_json_object(&path)?;
    let mut doc = read_toml(&config)?;
    let command = hook_command("codex", args)?;
    let handler = json!({"type": "command", "command": command, "timeout": TIMEOUT_SECS});
    let groups = groups_mut(&mut hooks, "PreToolUse", &path)?;
    // Last: the other groups keep their places, and so the trust Codex keeps by place.
    let at = match groups.iter().position(|g| is_gate_group(g, "codex")) {
        Some(i) => {
            groups[i] = json!({"hooks": [handler]});
            i
        }
        None => {
            groups.push(json!({"hooks": [handler]}));
            groups.len() - 1
        }
    };
    let state = trust_table(&mut doc)?;
    let mut trust = toml_edit::Table::new();
    trust.insert("trusted_hash", toml_edit::value(trust_hash(&command, TIMEOUT_SECS)));
    state.insert(&trust_key(&path, at), toml_edit::Item::Table(trust));
    if doc.get("features").and_then(|f| f.get("hooks")).and_then(toml_edit::Item::as_bool) == Some(false) {
        eprintln!(
            "gate: warning: {} sets features.hooks to false: Codex runs no hook until it is true",
            config.display()
        );
    }
    hook::write_settings(&path, &hooks)?;
    write_text(&config, &doc.to_string())?;
    println!("gate's PreToolUse hook was added to {}, and trusted in {}", path.display(), config.display());
    if args.project {
        println!("Codex loads .codex/hooks.json only in a project it trusts (trust_level = \"trusted\")");
    }
    println!("remove it with: gate hook uninstall codex{}", if args.project { " --project" } else { "" });
    Ok(0)
}

fn codex_uninstall(args: &HookInstallArgs) -> anyhow::Result<i32> {
    let path = codex_hooks_path(args)?;
    let path = if path.is_absolute() { path } else { std::env::current_dir()?.join(path) };
    if !path.exists() {
        println!("{} does not exist; nothing to remove", path.display());
        return Ok(0);
    }
    let config = codex_home()?.join("config.toml");
    let mut hooks = read_json_object(&path)?;
    let mut doc = read_toml(&config)?;
    let Some(groups) = hooks.pointer_mut("/hooks/PreToolUse").and_then(Value::as_array_mut) else {
        println!("gate's hook is not in {}; nothing was changed", path.display());
        return Ok(0);
    };
    let old: Vec<bool> = groups.iter().map(|g| is_gate_group(g, "codex")).collect();
    if !old.contains(&true) {
        println!("gate's hook is not in {}; nothing was changed", path.display());
        return Ok(0);
    }
    groups.retain(|g| !is_gate_group(g, "codex"));
    // Codex keeps trust by place: the groups after gate's move up, and so does their trust.
    let prefix = format!("{}:pre_tool_use:", path.display());
    let state = trust_table(&mut doc)?;
    let mut moved: Vec<(String, toml_edit::Item)> = Vec::new();
    let mut new_index = 0;
    for (i, was_gate) in old.iter().enumerate() {
        let keys: Vec<String> = state
            .iter()
            .map(|(k, _)| k.to_string())
            .filter(|k| k.strip_prefix(&prefix).is_some_and(|rest| rest.split(':').next() == Some(&i.to_string())))
            .collect();
        for k in keys {
            let item = state.remove(&k);
            if let (false, Some(item)) = (was_gate, item) {
                let handler = k.rsplit(':').next().unwrap_or("0");
                moved.push((format!("{prefix}{new_index}:{handler}"), item));
            }
        }
        if !was_gate {
            new_index += 1;
        }
    }
    for (k, item) in moved {
        state.insert(&k, item);
    }
    prune(&mut hooks, "PreToolUse");
    hook::write_settings(&path, &hooks)?;
    write_text(&config, &doc.to_string())?;
    println!("gate's PreToolUse hook was removed from {}, and its trust from {}", path.display(), config.display());
    Ok(0)
}
