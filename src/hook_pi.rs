//! `gate hook pi` and `gate hook install|uninstall pi`: pi started by the person, with gate's
//! extension installed in pi's extension folder. The extension runs `gate hook pi` for each
//! tool call (or asks the supervising gate over `$GATE_SOCKET` when one is set): the event as
//! JSON on stdin, the decision as JSON on stdout ([`crate::protocol::pi::hook_line`]).
//!
//! One process per call, so nothing lasts between calls except what is on disk: the policy,
//! the "always" approvals and the audit log. When the policy asks and pi has a dialog, the
//! answer is `ask`; the extension shows pi's dialog and runs `gate hook pi` again with the
//! person's choice (`"type":"answer"`), which is decided, persisted ("always") and audited
//! here. Without a dialog (`-p`, `--mode json`) an ask is denied by the non-interactive rule.
//!
//! Fail closed: an unreadable event, a broken policy, an audit log that cannot be written all
//! print a denial (and exit 2); the extension blocks on anything but an allow.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Instant, SystemTime};

use crate::cli::{HookAgent, HookDecideArgs, HookPlaceArgs};
use crate::policy::{Call, Context, Verdict};
use crate::protocol::pi::{self as adapter, Choice, HookAnswer};
use crate::protocol::{By, CallId, Resolution, Scope};

/// The largest event read from stdin.
const MAX_EVENT: u64 = 64 << 20;

fn print(line: &[u8]) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(line).and_then(|_| out.flush());
}

fn fail(why: String) -> i32 {
    eprintln!("gate: {why}");
    print(&adapter::hook_line(&HookAnswer::Error(why)));
    2
}

/// The policy for a hook: `-c`, else host.yaml in `cwd` or a parent folder up to the
/// repository root (a folder holding `.git`), else the user's, else none (built-in).
pub fn find_policy(explicit: Option<&Path>, cwd: &Path) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    for dir in cwd.ancestors() {
        let p = dir.join("host.yaml");
        if p.is_file() {
            return Some(p);
        }
        if dir.join(".git").exists() {
            break;
        }
    }
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| crate::config::home().map(|h| h.join(".config")))?;
    let p = xdg.join("gate").join("host.yaml");
    p.is_file().then_some(p)
}

/// `gate hook pi`: decide the event on stdin. Returns the exit code (0: a decision was
/// printed; 2: gate could not decide, and printed a denial).
pub fn decide(args: &HookDecideArgs) -> i32 {
    let received = Instant::now();
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().lock().take(MAX_EVENT + 1).read_to_end(&mut input) {
        return fail(format!("cannot read the event on stdin: {e}"));
    }
    if input.len() as u64 > MAX_EVENT {
        return fail(format!("the event on stdin is larger than {MAX_EVENT} bytes"));
    }
    let value = match crate::protocol::strict::parse(&input) {
        Ok(v) => v,
        Err(e) => return fail(format!("the event on stdin is not valid JSON: {e}")),
    };
    let ev = match adapter::parse_event(value, true) {
        Ok(ev) => ev,
        Err(b) => return fail(format!("cannot read the event: {}", b.error)),
    };
    // Decide where pi runs the call: relative paths, the policy search and `cd` start there.
    if let Some(cwd) = ev.cwd.as_deref() {
        if std::env::current_dir().ok().as_deref() != Some(Path::new(cwd)) {
            if let Err(e) = std::env::set_current_dir(cwd) {
                return fail(format!("cannot use the session's directory {cwd}: {e}"));
            }
        }
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("/"));
    let found = find_policy(args.config.as_deref(), &cwd);
    let loaded = match crate::config::load_from(found.as_deref()) {
        Ok(l) => l,
        Err(e) => {
            let what = found.as_deref().map(|p| p.display().to_string()).unwrap_or_default();
            return fail(format!("the policy {what} cannot be used: {}", e.to_string().replace('\n', "; ")));
        }
    };
    for w in &loaded.warnings {
        eprintln!("gate: {w}");
    }
    let mut policy = loaded.policy;
    if let Some(m) = args.mode {
        policy.set_mode(m.into());
    }
    let call = adapter::to_call(&ev, cwd.to_str());
    let d = policy.decide_real(&call, &Context::default(), &crate::resolve::real_for(policy.workspace()));
    let id = CallId::plain(ev.id.clone());

    let mut always = Vec::new();
    let resolution = match d.decision {
        Verdict::Allow | Verdict::Deny => Resolution::from_policy(d),
        Verdict::Ask => {
            let why = crate::approve::why(&d);
            let mut r = Resolution::from_policy(d);
            r.approved = false;
            if args.approve_all {
                r.approved = true;
                r.by = By::ApproveAll;
                r.reason = "approved by --approve-all".into();
            } else if args.strict {
                r.by = By::Strict;
                r.reason = format!("it needs approval ({why}), and --strict denies every call that would prompt");
            } else if ev.answered {
                r.by = By::Person;
                match Choice::parse(ev.choice.as_deref()) {
                    Some(Choice::Once) | Some(Choice::Session) => {
                        r.approved = true;
                        r.reason = "approved once by the user in pi's dialog".into();
                    }
                    Some(Choice::Always) => {
                        r.approved = true;
                        always = policy.suggest_patterns(&call);
                        if always.is_empty() {
                            r.reason = "approved once by the user in pi's dialog (nothing to remember)".into();
                        } else {
                            r.scope = Scope::Always;
                            r.reason = "approved by the user in pi's dialog for good".into();
                        }
                    }
                    Some(Choice::Deny) => r.reason = "rejected by the user in pi's dialog".into(),
                    None => r.reason = "pi's dialog was closed without an answer".into(),
                }
            } else if ev.has_ui {
                let remember = !policy.suggest_patterns(&call).is_empty();
                let answer = HookAnswer::Ask {
                    title: adapter::dialog_title(&call, &why),
                    reason: format!("gate: this call needs approval ({why})"),
                    choices: adapter::choices(remember, false),
                };
                print(&adapter::hook_line(&answer));
                return 0;
            } else {
                r.by = By::NonInteractive;
                r.reason = format!(
                    "it needs approval ({why}), but pi has no dialog in this mode (-p, --mode json); run it under `gate run`, or allow it in host.yaml"
                );
            }
            r
        }
    };
    let audit = args.audit.clone().or_else(|| policy.audit_path());
    finish(&loaded.path, audit, &id, &call, resolution, always, received)
}

/// Persist, audit and print one resolution.
fn finish(
    policy_path: &Option<PathBuf>,
    audit_path: Option<PathBuf>,
    id: &CallId,
    call: &Call,
    mut r: Resolution,
    always: Vec<String>,
    received: Instant,
) -> i32 {
    if r.approved && r.scope == Scope::Always {
        let store = crate::always::path_for(policy_path.as_deref());
        let seen = crate::approve::tty::summarize(&call.tool, &call.arguments);
        if let Err(e) = crate::always::add(&store, &always, &seen) {
            eprintln!("gate: {e:#}; approved once");
            r.scope = Scope::Once;
        }
    }
    if let Some(path) = audit_path {
        let rec = crate::supervise::audit::Record {
            time: SystemTime::now(),
            id,
            tool: Some(&call.tool),
            arguments: Some(&call.arguments),
            resolution: &r,
            micros: received.elapsed().as_micros(),
            not_asked: false,
        };
        let written = crate::supervise::audit::Audit::open(&path).and_then(|mut a| a.record(&rec));
        if let Err(e) = written {
            return fail(format!("cannot write the audit log {}: {e}", path.display()));
        }
    }
    print(&adapter::hook_line(&HookAnswer::Resolved { tool: &call.tool, r: &r }));
    0
}

/// Where `gate hook install pi` writes: pi's own extension folders.
fn pi_target(p: &HookPlaceArgs) -> anyhow::Result<PathBuf> {
    let dir = if p.project {
        std::env::current_dir()?.join(".pi").join("extensions")
    } else if let Some(d) = std::env::var_os("PI_CODING_AGENT_DIR").filter(|d| !d.is_empty()) {
        PathBuf::from(d).join("extensions")
    } else {
        let home = crate::config::home_required()?;
        home.join(".pi").join("agent").join("extensions")
    };
    Ok(dir.join("gate.js"))
}

fn ours(path: &Path) -> std::io::Result<bool> {
    let text = std::fs::read_to_string(path)?;
    Ok(text.lines().next() == Some(adapter::extension_header()))
}

pub fn install(p: &HookPlaceArgs) -> anyhow::Result<i32> {
    if p.agent != HookAgent::Pi {
        anyhow::bail!("gate hook install|uninstall: this part handles pi only");
    }
    let path = pi_target(p)?;
    match ours(&path) {
        Ok(true) => {}
        Ok(false) => {
            eprintln!("gate: {} exists and was not written by gate; it is left as it is", path.display());
            return Ok(1);
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => {
            eprintln!("gate: cannot read {}: {e}", path.display());
            return Ok(1);
        }
    }
    let exe = std::env::current_exe()
        .map_err(|e| anyhow::anyhow!("cannot tell where this gate binary is: {e}"))?
        .to_str()
        .ok_or_else(|| anyhow::anyhow!("the path of this gate binary is not UTF-8"))?
        .to_string();
    let mut argv = vec![exe.clone(), "hook".into(), "pi".into()];
    argv.extend(decide_flags(&p.decide)?);
    let text = adapter::extension_with_command(&argv);
    if let Err(e) = crate::config::write_atomic(&path, text.as_bytes(), Some(0o644)) {
        eprintln!("gate: cannot write {}: {e}", path.display());
        return Ok(1);
    }
    let scope = if p.project { "in this project" } else { "in every project" };
    println!(
        "wrote {}: pi now asks gate ({}) about every tool call {scope}; `gate hook uninstall pi{}` removes it",
        path.display(),
        argv.join(" "),
        if p.project { " --project" } else { "" }
    );
    Ok(0)
}

/// The options of `gate hook install pi|codex|gemini` the installed hook passes on (paths made
/// absolute).
pub(crate) fn decide_flags(d: &HookDecideArgs) -> anyhow::Result<Vec<String>> {
    let abs = |p: &Path| -> anyhow::Result<String> {
        let a = std::path::absolute(p).map_err(|e| anyhow::anyhow!("{}: {e}", p.display()))?;
        a.to_str().map(str::to_string).ok_or_else(|| anyhow::anyhow!("{} is not UTF-8", a.display()))
    };
    let mut out = Vec::new();
    if let Some(c) = &d.config {
        out.extend(["-c".to_string(), abs(c)?]);
    }
    if d.strict {
        out.push("--strict".into());
    }
    if d.approve_all {
        out.push("--approve-all".into());
    }
    if let Some(m) = d.mode {
        let name = clap::ValueEnum::to_possible_value(&m).map(|v| v.get_name().to_string()).unwrap_or_default();
        out.extend(["--mode".to_string(), name]);
    }
    if let Some(a) = &d.audit {
        out.extend(["--audit".to_string(), abs(a)?]);
    }
    Ok(out)
}

pub fn uninstall(p: &HookPlaceArgs) -> anyhow::Result<i32> {
    if p.agent != HookAgent::Pi {
        anyhow::bail!("gate hook install|uninstall: this part handles pi only");
    }
    let path = pi_target(p)?;
    match ours(&path) {
        Ok(true) => {
            std::fs::remove_file(&path).map_err(|e| anyhow::anyhow!("cannot remove {}: {e}", path.display()))?;
            println!("removed {}", path.display());
            Ok(0)
        }
        Ok(false) => {
            eprintln!("gate: {} was not written by gate; it is left as it is", path.display());
            Ok(1)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            println!("nothing to remove: {} does not exist", path.display());
            Ok(0)
        }
        Err(e) => {
            eprintln!("gate: cannot read {}: {e}", path.display());
            Ok(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_is_found_up_to_the_repository_root() {
        let d = tempfile::tempdir().unwrap();
        let repo = d.path().join("repo");
        let deep = repo.join("a/b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        std::fs::write(d.path().join("host.yaml"), "version: 1\n").unwrap();
        // Above the repository root does not count.
        let found = find_policy(None, &deep);
        assert_ne!(found.as_deref(), Some(d.path().join("host.yaml").as_path()));
        std::fs::write(repo.join("host.yaml"), "version: 1\n").unwrap();
        assert_eq!(find_policy(None, &deep), Some(repo.join("host.yaml")));
        std::fs::write(deep.join("host.yaml"), "version: 1\n").unwrap();
        assert_eq!(find_policy(None, &deep), Some(deep.join("host.yaml")));
        assert_eq!(find_policy(Some(Path::new("/x.yaml")), &deep), Some(PathBuf::from("/x.yaml")));
    }
}
