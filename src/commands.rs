//! The offline subcommands: check, validate, init, approvals, completions, man.
//! Each returns the process exit code; printing happens here, deciding in [`crate::policy`].

use std::io::Write as _;

use clap::CommandFactory;

use crate::cli::{ApprovalsAction, CheckArgs, Cli, CompletionShell, ConfigArg};
use crate::config::{self, ConfigError};
use crate::policy::{Call, Context, Decision, Layer, Verdict};

/// The text `gate init` writes: the same as host.yaml.example at the top of the repo.
pub const EXAMPLE_POLICY: &str = include_str!("../host.yaml.example");

/// Print every policy error (file:line:column: message (hint)) and a count.
pub fn report_errors(errs: &crate::policy::PolicyErrors, what: &str) {
    for e in &errs.errors {
        eprintln!("{e}");
    }
    let n = errs.errors.len();
    eprintln!("gate: {n} error{} in {what}", if n == 1 { "" } else { "s" });
}

fn load_or_report(config: &ConfigArg) -> Result<config::Loaded, i32> {
    match config::load(config.config.as_deref()) {
        Ok(l) => {
            for w in &l.warnings {
                eprintln!("gate: warning: {w}");
            }
            Ok(l)
        }
        Err(ConfigError::Invalid(errs)) => {
            report_errors(&errs, "the policy");
            Err(2)
        }
        Err(e) => {
            eprintln!("gate: {e}");
            Err(2)
        }
    }
}

/// A tip for a common command-line mistake, shown with clap's error: `gate run python3
/// agent.py` without the `--` that separates gate's options from the agent's command.
pub fn usage_tip(argv: &[std::ffi::OsString], e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind};
    if e.kind() != ErrorKind::UnknownArgument || argv.get(1).is_none_or(|a| a != "run") {
        return None;
    }
    let Some(ContextValue::String(bad)) = e.get(ContextKind::InvalidArg) else { return None };
    let rest = &argv[2..];
    if bad.starts_with('-') || rest.iter().any(|a| a == "--") {
        return None;
    }
    let at = rest.iter().position(|a| a == bad.as_str())?;
    let words = |args: &[std::ffi::OsString]| -> Vec<String> {
        args.iter().map(|a| crate::shell::quote(&a.to_string_lossy())).collect()
    };
    let mut line = vec!["gate".to_string(), "run".to_string()];
    line.extend(words(&rest[..at]));
    line.push("--".into());
    line.extend(words(&rest[at..]));
    Some(format!("put `--` before the agent's command: {}", line.join(" ")))
}

/// Exit code of `gate check` for a verdict.
pub fn check_exit_code(v: Verdict) -> i32 {
    match v {
        Verdict::Allow => 0,
        Verdict::Ask => 3,
        Verdict::Deny => 4,
    }
}

pub fn check(args: &CheckArgs) -> anyhow::Result<i32> {
    let mut loaded = match load_or_report(&args.config) {
        Ok(l) => l,
        Err(code) => return Ok(code),
    };
    if let Some(m) = args.mode {
        loaded.policy.set_mode(m.into());
    }
    let policy = &loaded.policy;
    let call = match &args.arguments {
        Some(json) => match crate::protocol::strict::parse(json.as_bytes()) {
            Ok(v @ serde_json::Value::Object(_)) => Call::new(args.tool.clone(), v),
            Ok(_) => {
                eprintln!("gate: ARGUMENTS_JSON must be a JSON object, e.g. '{{\"command\":\"ls\"}}'");
                return Ok(2);
            }
            Err(e) => {
                eprintln!("gate: ARGUMENTS_JSON is not valid JSON: {e}");
                if let Some(tip) = arguments_tip(policy, &args.tool, json) {
                    eprintln!("{tip}");
                }
                return Ok(2);
            }
        },
        None => match policy.parse_call(&args.tool) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("gate: {e}");
                match policy.parse_call(&format!("Bash({})", args.tool.trim())) {
                    Ok(_) if args.tool.trim().contains(char::is_whitespace) => eprintln!(
                        "tip: a shell command is written in rule syntax: gate check {}",
                        crate::shell::quote(&format!("Bash({})", args.tool.trim()))
                    ),
                    _ => eprintln!("usage: gate check TOOL 'ARGUMENTS_JSON'  or  gate check 'Bash(git status)'"),
                }
                return Ok(2);
            }
        },
    };
    let mut call = call;
    if let Some(a) = &args.annotations {
        match crate::protocol::strict::parse(a.as_bytes()) {
            Ok(v @ serde_json::Value::Object(_)) => call.annotations = Some(v),
            _ => {
                eprintln!("gate: --annotations must be a JSON object, e.g. '{{\"readOnlyHint\":true}}'");
                return Ok(2);
            }
        }
    }
    let declared = policy.skill_names();
    for s in &args.skills {
        if !declared.contains(s) {
            eprintln!("gate: warning: skill `{s}` is not declared in the policy; it changes nothing");
        }
    }
    let ctx = Context { active_skills: &args.skills, session: None };
    let real = crate::resolve::real_for(policy.workspace());
    // An agent's own tool name that host.yaml does not declare (Gemini CLI's
    // `run_shell_command`, Codex's `apply_patch`): decided as `gate hook` decides it, every
    // call it makes (each file of a patch); the strictest answers.
    let cwd = std::env::current_dir().unwrap_or_else(|_| policy.workspace().to_path_buf());
    let mapped = if policy.knows_tool(&call.tool) {
        None
    } else {
        crate::hook_agents::agent_tool_calls(&call.tool, &call.arguments, &cwd)
    };
    let (call, d) = match mapped {
        None => {
            let d = policy.decide_real(&call, &ctx, &real);
            (call, d)
        }
        Some(Err(why)) => (call, Decision::error(&why)),
        Some(Ok(calls)) => {
            let mut worst: Option<(Call, Decision)> = None;
            for c in calls {
                let d = policy.decide_real(&c, &ctx, &real);
                if worst.as_ref().is_none_or(|(_, w)| d.decision > w.decision) {
                    worst = Some((c, d));
                }
            }
            match worst {
                Some(w) => w,
                None => (call, Decision::error("the call names nothing to decide")),
            }
        }
    };
    // What an "always" answer would store, as the prompt and the web page show it (only a call
    // that would be asked can be answered "always").
    let always = if d.decision == Verdict::Ask { policy.suggest_patterns(&call) } else { Vec::new() };
    let mut out = std::io::stdout().lock();
    if args.json {
        let mut json = d.to_json();
        // After the fields of the contract (`always` included): the policy file, or null for
        // the defaults.
        if let Some(obj) = json.as_object_mut() {
            obj.insert("always".into(), serde_json::json!(always));
            let policy = loaded.path.as_ref().map(|p| p.display().to_string());
            obj.insert("policy".into(), serde_json::json!(policy));
        }
        writeln!(out, "{json}")?;
    } else {
        let source = match &loaded.path {
            Some(p) => p.display().to_string(),
            None => "built-in defaults (no ./host.yaml, no $XDG_CONFIG_HOME/gate/host.yaml; `gate init` writes one)"
                .to_string(),
        };
        write!(out, "{}", render_decision(&call, &d, Some(&source)))?;
        if !always.is_empty() {
            writeln!(out, "  always would store: {}", always.join(", "))?;
        }
    }
    Ok(check_exit_code(d.decision))
}

/// A tip for `gate check TOOL ARGS` where ARGS is not JSON: the JSON object it probably meant,
/// and the same call in rule syntax (`gate check bash 'npm test'`).
fn arguments_tip(policy: &crate::policy::Policy, tool: &str, text: &str) -> Option<String> {
    let text = text.trim();
    if text.starts_with('{') || text.is_empty() {
        return None;
    }
    let call = policy.parse_call(&format!("{tool}({text})")).ok()?;
    let json = crate::shell::quote(&call.arguments.to_string());
    let rule = crate::shell::quote(&format!("{tool}({text})"));
    Some(format!(
        "tip: ARGUMENTS_JSON is a JSON object: gate check {} {json}  or, in rule syntax: gate check {rule}",
        crate::shell::quote(tool)
    ))
}

/// A decision for a person to read: the verdict, the layer and rule, the policy it came from
/// (when given), and each part. A part's reason is printed only when the call's reason above
/// has not said it already.
pub fn render_decision(call: &Call, d: &Decision, policy: Option<&str>) -> String {
    let mut s = String::new();
    let what = match call.arguments.get("command").and_then(|c| c.as_str()) {
        Some(c) => format!("{}: {c}", call.tool),
        None => format!("{} {}", call.tool, call.arguments),
    };
    s.push_str(&format!("{}  {what}\n", d.decision.as_str().to_uppercase()));
    s.push_str(&format!("  layer:  {}\n", d.layer));
    s.push_str(&format!("  rule:   {}\n", d.rule.as_deref().unwrap_or("(none)")));
    s.push_str(&format!("  reason: {}\n", d.reason));
    if let Some(p) = policy {
        s.push_str(&format!("  policy: {p}\n"));
    }
    if let Some(parts) = &d.parts {
        if !parts.is_empty() {
            s.push_str("  parts:\n");
            let width = parts.iter().map(|p| p.command.chars().count()).max().unwrap_or(0).min(48);
            for p in parts {
                let by = p.rule.as_deref().map(|r| format!("{} {r}", p.layer)).unwrap_or_else(|| p.layer.to_string());
                s.push_str(&format!("    {:<5}  {:<width$}  {by}\n", p.decision.as_str(), p.command));
                let explained_by_rule = matches!(
                    p.layer,
                    Layer::DenyRule
                        | Layer::AskRule
                        | Layer::AllowRule
                        | Layer::Safe
                        | Layer::Always
                        | Layer::Session
                        | Layer::Skill
                );
                let said_above = d.reason == p.reason || d.reason == format!("`{}`: {}", p.command, p.reason);
                if !explained_by_rule && !said_above {
                    s.push_str(&format!("           {:<width$}  {}\n", "", p.reason));
                }
            }
        }
    }
    s
}

pub fn validate(args: &ConfigArg) -> anyhow::Result<i32> {
    let Some(path) = config::find(args.config.as_deref()) else {
        eprintln!(
            "gate: no host.yaml here or in $XDG_CONFIG_HOME/gate; the built-in defaults apply (`gate init` writes one)"
        );
        return Ok(2);
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("gate: cannot read {}: {e}", path.display());
            return Ok(2);
        }
    };
    let policy = match config::load_text(&text, &path) {
        Ok(p) => p,
        Err(ConfigError::Invalid(errs)) => {
            report_errors(&errs, &path.display().to_string());
            return Ok(2);
        }
        Err(e) => {
            eprintln!("gate: {e}");
            return Ok(2);
        }
    };
    let mut failed = 0;
    for t in policy.tests() {
        let call = match &t.arguments {
            Some(args) => Ok(Call::new(t.call.clone(), args.clone())),
            None => policy.parse_call(&t.call),
        };
        let call = match call {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{}:{}:{}: test `{}`: {e}", path.display(), t.line, t.column, t.call);
                failed += 1;
                continue;
            }
        };
        let d = policy.decide(&call, &Context { active_skills: &t.skills, session: None });
        if d.decision != t.expect {
            failed += 1;
            eprintln!(
                "{}:{}:{}: test `{}` expects {}, the policy says {} ({}{}: {})",
                path.display(),
                t.line,
                t.column,
                t.call,
                t.expect,
                d.decision,
                d.layer,
                d.rule.as_deref().map(|r| format!(" {r}")).unwrap_or_default(),
                d.reason
            );
        }
    }
    let n = policy.tests().len();
    if failed > 0 {
        eprintln!("gate: {failed} of {n} policy test{} failed", if n == 1 { "" } else { "s" });
        return Ok(2);
    }
    println!(
        "{}: valid{}",
        path.display(),
        if n > 0 { format!(", {n} test{} passed", if n == 1 { "" } else { "s" }) } else { String::new() }
    );
    Ok(0)
}

pub fn init(force: bool) -> anyhow::Result<i32> {
    let path = std::path::Path::new("host.yaml");
    if path.exists() && !force {
        eprintln!("gate: host.yaml already exists here; `gate init --force` overwrites it");
        return Ok(2);
    }
    std::fs::write(path, EXAMPLE_POLICY).map_err(|e| anyhow::anyhow!("cannot write host.yaml: {e}"))?;
    println!("wrote host.yaml; check it with `gate validate`, try it with `gate check 'Bash(git status)'`");
    Ok(0)
}

pub fn approvals(config: &ConfigArg, action: &ApprovalsAction) -> anyhow::Result<i32> {
    let policy_path = config::find(config.config.as_deref());
    let store = crate::always::path_for(policy_path.as_deref());
    match action {
        ApprovalsAction::List => {
            let list = crate::always::load(&store)?;
            if list.is_empty() {
                println!("no \"always\" approvals in {}", store.display());
            } else {
                let width = list.iter().map(|a| a.pattern.chars().count()).max().unwrap_or(0).clamp(7, 60);
                println!("{:<8}  {:<23}  {:<width$}  approved for", "id", "approved at", "pattern");
                for a in &list {
                    println!("{:<8}  {:<23}  {:<width$}  {}", a.id, display_time(&a.added), a.pattern, a.call);
                }
                println!("(from {}; `gate approvals revoke ID` removes one)", store.display());
            }
            Ok(0)
        }
        ApprovalsAction::Revoke { id } => {
            let removed = crate::always::update(&store, |list| {
                let before = list.len();
                list.retain(|a| &a.id != id);
                before - list.len()
            })?;
            if removed == 0 {
                eprintln!("gate: no approval with id `{id}` (see `gate approvals list`)");
                return Ok(2);
            }
            println!("revoked {id}");
            Ok(0)
        }
        ApprovalsAction::Clear => {
            let n = crate::always::update(&store, |list| std::mem::take(list).len())?;
            println!("removed {n} approval{}", if n == 1 { "" } else { "s" });
            Ok(0)
        }
    }
}

/// A stored RFC 3339 UTC time for people: `2026-11-22 04:27:24 UTC`; anything else as stored.
fn display_time(t: &str) -> String {
    match t.strip_suffix('Z').and_then(|t| t.split_once('T')) {
        Some((date, time)) if date.len() == 10 && time.len() >= 8 => format!("{date} {} UTC", &time[..8]),
        _ => t.to_string(),
    }
}

pub fn completions(shell: CompletionShell) -> anyhow::Result<i32> {
    let mut out = std::io::stdout().lock();
    out.write_all(completion_script(shell).as_bytes())?;
    Ok(0)
}

/// The completion script for a shell, as generated from the clap definitions.
pub fn completion_script(shell: CompletionShell) -> String {
    use clap_complete::Shell;
    let sh = match shell {
        CompletionShell::Bash => Shell::Bash,
        CompletionShell::Zsh => Shell::Zsh,
        CompletionShell::Fish => Shell::Fish,
        CompletionShell::Elvish => Shell::Elvish,
        CompletionShell::Powershell => Shell::PowerShell,
    };
    let mut buf = Vec::new();
    clap_complete::generate(sh, &mut Cli::command(), "gate", &mut buf);
    String::from_utf8_lossy(&buf).into_owned()
}

/// Man pages: `gate.1`, one per subcommand (`gate-run.1`, ...) and `host.yaml.5`, as (file
/// name, roff).
pub fn man_pages() -> anyhow::Result<Vec<(String, String)>> {
    let cmd = Cli::command();
    let mut pages = Vec::new();
    let mut buf = Vec::new();
    clap_mangen::Man::new(cmd.clone()).render(&mut buf)?;
    pages.push(("gate.1".to_string(), String::from_utf8_lossy(&buf).into_owned()));
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("gate-{}", sub.get_name());
        let sub = sub.clone().name(name.clone());
        let mut buf = Vec::new();
        clap_mangen::Man::new(sub).render(&mut buf)?;
        pages.push((format!("{name}.1"), String::from_utf8_lossy(&buf).into_owned()));
    }
    pages.push((crate::man5::HOST_YAML_PAGE.to_string(), crate::man5::host_yaml_page()));
    Ok(pages)
}

/// `gate man [PAGE]`: gate(1), `gate man run` for gate-run(1), `gate man host.yaml` for
/// host.yaml(5).
pub fn man(page: Option<&str>) -> anyhow::Result<i32> {
    let pages = man_pages()?;
    let wanted = match page {
        None | Some("gate") => "gate.1".to_string(),
        Some("host.yaml") | Some("host.yaml.5") => crate::man5::HOST_YAML_PAGE.to_string(),
        Some(p) => format!("{}.1", if p.starts_with("gate-") { p.to_string() } else { format!("gate-{p}") }),
    };
    let Some((_, text)) = pages.iter().find(|(name, _)| *name == wanted) else {
        let names: Vec<String> = pages
            .iter()
            .filter_map(|(n, _)| {
                n.strip_suffix(".1")
                    .map(|n| n.strip_prefix("gate-").unwrap_or(n).to_string())
                    .or_else(|| n.strip_suffix(".5").map(str::to_string))
            })
            .filter(|n| n != "gate")
            .collect();
        eprintln!("gate: no man page `{}`; pages: {}", page.unwrap_or(""), names.join(", "));
        return Ok(2);
    };
    std::io::stdout().lock().write_all(text.as_bytes())?;
    Ok(0)
}
