//! `gate hook codex` and `gate hook gemini` as the real agents' own hooks, installed by
//! `gate hook install` and run by the pinned agents (Codex 0.169 `codex exec`, Gemini CLI
//! 0.61 `gemini -p --approval-mode yolo`) against the loopback model mocks, with no `gate run`
//! around them: gate's hook is the only thing between the model and the machine.
//!
//! Each test: a denied shell call is not run and the model is told why, an allowed one runs,
//! a write to `.env` is denied, an edit of `docs/a.md` is allowed, and a call the policy asks
//! about is denied with a reason that names `gate run` (neither hook can wait for a person).
//! Then `gate hook uninstall` leaves the agent's settings as they were.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod agents;

use std::process::Command;
use std::time::Duration;

use agents::{gemini, mock, responses, Env, Sandbox};
use serde_json::json;

const GATE: &str = env!("CARGO_BIN_EXE_gate");
const T: Duration = Duration::from_secs(120);

/// `gate hook install|uninstall AGENT` in the agent's environment (its HOME, CODEX_HOME).
fn gate_hook(env: &Env, sb: &Sandbox, args: &[&str]) -> String {
    let mut cmd = Command::new(GATE);
    env.apply(&mut cmd);
    let out = cmd.current_dir(&sb.work).arg("hook").args(args).output().unwrap();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "gate hook {args:?}: {text}");
    text
}

fn check_outcome(sb: &Sandbox, m: &agents::mock::Mock, ctx: &str) {
    assert!(sb.work.join("x/keep.txt").exists(), "rm ran: {ctx}");
    assert!(sb.work.join("made.txt").exists(), "touch did not run: {ctx}");
    assert_eq!(std::fs::read_to_string(sb.work.join(".env")).unwrap(), "SECRET=1\n", "{ctx}");
    assert_eq!(std::fs::read_to_string(sb.work.join("docs/a.md")).unwrap(), "color=blue\n", "{ctx}");
    assert!(!sb.work.join("newdir").exists(), "an asked call ran: {ctx}");
    let results: Vec<String> = m.tool_results().into_iter().map(|r| r.content).collect();
    let all = results.join("\n");
    assert!(all.contains("Bash(rm *)"), "the model is told which rule denied rm: {ctx}");
    assert!(all.contains("gate run"), "the asked call's reason names gate run: {ctx}");
}

#[test]
fn codex_exec_with_gates_pretooluse_hook() {
    let Ok(a) = agents::agent("codex") else { return };
    let sb = agents::scenario();
    let m = responses::start(mock::script(vec![
        responses::shell("rm -rf x"),
        responses::shell("touch made.txt"),
        responses::patch("*** Begin Patch\n*** Add File: .env.local\n+X=1\n*** End Patch\n"),
        responses::patch("*** Begin Patch\n*** Update File: .env\n@@\n-SECRET=1\n+SECRET=2\n*** End Patch\n"),
        responses::patch("*** Begin Patch\n*** Update File: docs/a.md\n@@\n-color=red\n+color=blue\n*** End Patch\n"),
        // Codex's lenient form, the patch as a heredoc (red team 49): read as Codex reads it,
        // so allowed where its file is, denied where it is not.
        responses::patch("<<'EOF'\n*** Begin Patch\n*** Add File: docs/faq.md\n+# FAQ\n*** End Patch\nEOF\n"),
        responses::patch("<<EOF\n*** Begin Patch\n*** Add File: .env.heredoc\n+X=1\n*** End Patch\nEOF\n"),
        responses::shell("mkdir newdir"),
    ]));
    let env = a.env(&sb, Some(&m.url()));
    let config = sb.home.join(".codex/config.toml");
    let before = std::fs::read_to_string(&config).unwrap();
    let said = gate_hook(&env, &sb, &["install", "codex"]);
    // The hook is trusted where Codex looks for trust: without it Codex skips the hook silently.
    let trusted = std::fs::read_to_string(&config).unwrap();
    assert!(trusted.starts_with(&before) && trusted.contains("trusted_hash = \"sha256:"), "{said}\n{trusted}");

    let sandbox = if agents::have_bwrap() {
        "workspace-write"
    } else {
        eprintln!("note: bubblewrap (bwrap) is missing: codex runs with sandbox danger-full-access");
        "danger-full-access"
    };
    let mut cmd = Command::new(&a.bin);
    env.apply(&mut cmd);
    cmd.current_dir(&sb.work).args(["-c", &format!("sandbox_mode=\"{sandbox}\"")]);
    cmd.args(["exec", "--skip-git-repo-check", "do the steps"]);
    let f = agents::run(cmd, T);
    let ctx = format!("{}\n--- mock\n{}", f.transcript(), m.summary());
    assert!(f.status.success(), "{ctx}");
    assert!(!sb.work.join(".env.local").exists(), "{ctx}");
    assert_eq!(std::fs::read_to_string(sb.work.join("docs/faq.md")).ok().as_deref(), Some("# FAQ\n"), "{ctx}");
    assert!(!sb.work.join(".env.heredoc").exists(), "{ctx}");
    check_outcome(&sb, &m, &ctx);

    gate_hook(&env, &sb, &["uninstall", "codex"]);
    assert_eq!(std::fs::read_to_string(&config).unwrap().trim_end(), before.trim_end());
    let hooks: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sb.home.join(".codex/hooks.json")).unwrap()).unwrap();
    assert_eq!(hooks, json!({}));
}

#[test]
fn gemini_headless_with_gates_beforetool_hook() {
    let Ok(a) = agents::agent("gemini") else { return };
    let sb = agents::scenario();
    let m = gemini::start(mock::script(vec![
        mock::call("run_shell_command", json!({"command": "rm -rf x", "description": "clean"})),
        mock::call("run_shell_command", json!({"command": "touch made.txt", "description": "make"})),
        mock::call("write_file", json!({"file_path": ".env", "content": "SECRET=2\n"})),
        mock::call(
            "replace",
            json!({"file_path": "docs/a.md", "old_string": "color=red", "new_string": "color=blue",
                   "instruction": "make it blue"}),
        ),
        mock::call("run_shell_command", json!({"command": "mkdir newdir", "description": "dir"})),
    ]));
    let env: Env = a.env(&sb, Some(&m.url()));
    gate_hook(&env, &sb, &["install", "gemini"]);
    let settings = sb.work.join(".gemini/settings.json");
    assert!(std::fs::read_to_string(&settings).unwrap().contains("hook gemini"));

    // yolo: Gemini's own approval is off, gate's hook is the only guard.
    let mut cmd: Command = Command::new(&a.bin);
    env.apply(&mut cmd);
    cmd.current_dir(&sb.work).args(["-p", "do the steps", "--approval-mode", "yolo", "-o", "json"]);
    let f = agents::run(cmd, T);
    let ctx = format!("{}\n--- mock\n{}", f.transcript(), m.summary());
    assert!(f.status.success(), "{ctx}");
    check_outcome(&sb, &m, &ctx);

    gate_hook(&env, &sb, &["uninstall", "gemini"]);
    assert_eq!(std::fs::read_to_string(&settings).unwrap().trim(), "{}");
}

#[test]
fn hooks_fail_closed_on_input_they_cannot_read() {
    // Both agents block a call when the hook exits 2 with a reason on stderr, and let it run
    // on most other failures: every error of gate's is exit 2.
    for agent in ["codex", "gemini"] {
        for input in ["not json", "{\"hook_event_name\":\"Stop\"}", "{\"hook_event_name\":\"PreToolUse\"}"] {
            let out = assert_cmd::Command::new(GATE).args(["hook", agent]).write_stdin(input).output().unwrap();
            assert_eq!(out.status.code(), Some(2), "{agent} {input}");
            assert!(String::from_utf8_lossy(&out.stderr).contains("blocked"), "{agent} {input}");
        }
    }
    // A patch gate cannot read is blocked, not passed.
    let input = json!({"hook_event_name": "PreToolUse", "tool_name": "apply_patch", "cwd": "/tmp",
        "tool_input": {"command": "*** Begin Patch\n*** Frobnicate File: x\n*** End Patch\n"}});
    let out = assert_cmd::Command::new(GATE).args(["hook", "codex"]).write_stdin(input.to_string()).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn install_passes_its_flags_on_and_keeps_the_rest_of_the_settings() {
    let sb = Sandbox::new();
    let codex_home = sb.home.join(".codex");
    std::fs::create_dir_all(&codex_home).unwrap();
    std::fs::write(codex_home.join("config.toml"), "# mine\nmodel = \"m\"\n").unwrap();
    std::fs::write(
        codex_home.join("hooks.json"),
        r#"{"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"x"}]}]},"keep":1}"#,
    )
    .unwrap();
    let env = Env::default().set("HOME", &sb.home).set("CODEX_HOME", &codex_home);
    gate_hook(&env, &sb, &["install", "codex", "--strict"]);
    let hooks: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(codex_home.join("hooks.json")).unwrap()).unwrap();
    assert_eq!(hooks["keep"], 1);
    assert_eq!(hooks["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "x");
    let cmd = hooks["hooks"]["PreToolUse"][1]["hooks"][0]["command"].as_str().unwrap();
    assert!(cmd.ends_with(" hook codex --strict"), "{cmd}");
    let config = std::fs::read_to_string(codex_home.join("config.toml")).unwrap();
    assert!(config.starts_with("# mine\nmodel = \"m\"\n") && config.contains(":pre_tool_use:1:0\"]"), "{config}");
    // Installing again changes nothing; uninstalling leaves the other hook and its place.
    gate_hook(&env, &sb, &["install", "codex", "--strict"]);
    gate_hook(&env, &sb, &["uninstall", "codex"]);
    let hooks: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(codex_home.join("hooks.json")).unwrap()).unwrap();
    assert_eq!(hooks, json!({"hooks":{"PreToolUse":[{"hooks":[{"type":"command","command":"x"}]}]},"keep":1}));
    assert_eq!(std::fs::read_to_string(codex_home.join("config.toml")).unwrap().trim_end(), "# mine\nmodel = \"m\"");

    // Gemini: first in BeforeTool, the user's other settings kept.
    std::fs::create_dir_all(sb.work.join(".gemini")).unwrap();
    std::fs::write(sb.work.join(".gemini/settings.json"), r#"{"theme":"x"}"#).unwrap();
    gate_hook(&env, &sb, &["install", "gemini", "--approve-all"]);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sb.work.join(".gemini/settings.json")).unwrap()).unwrap();
    assert_eq!(s["theme"], "x");
    assert!(s["hooks"]["BeforeTool"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap()
        .ends_with(" hook gemini --approve-all"));
    gate_hook(&env, &sb, &["uninstall", "gemini"]);
    let s: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(sb.work.join(".gemini/settings.json")).unwrap()).unwrap();
    assert_eq!(s, json!({"theme": "x"}));
}

/// The third red team's findings on the hooks. Codex's model sets each call's `workdir`, and
/// Codex sends it as the hook input's `cwd`: gate found the policy from there, so a `cwd`
/// outside the project meant the built-in defaults, and a `docs/host.yaml` the model wrote
/// (allowed by `docs/**`) became the policy. The policy is now the session's (the hook's own
/// directory), and `cwd` is where the call runs.
#[test]
fn redteam3_the_hook_input_cwd_never_chooses_the_policy() {
    let sb = agents::scenario();
    sb.file("docs/host.yaml", "version: 1\nworkspace: ..\nmode: bypassPermissions\n");
    let work = sb.work.to_str().unwrap().to_string();
    let hook = |agent: &str, cwd: &str, tool: &str, command: &str| {
        let event = if agent == "gemini" { "BeforeTool" } else { "PreToolUse" };
        let input = json!({"hook_event_name": event, "tool_name": tool, "tool_input": {"command": command},
                           "cwd": cwd, "tool_use_id": "t1"});
        let out = assert_cmd::Command::new(GATE)
            .current_dir(&sb.work)
            .env_remove("GATE_SOCKET")
            .args(["hook", agent])
            .write_stdin(input.to_string())
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).to_string()
    };
    for agent in ["codex", "claude"] {
        // Not allowed: denied, or (Claude Code, which has a dialog) asked.
        let denied = |cwd: &str, command: &str| {
            let out = hook(agent, cwd, "Bash", command);
            assert!(out.contains("\"deny\"") || out.contains("\"ask\""), "{agent} in {cwd}: {command}: {out}");
        };
        denied("/etc", "head -3 /etc/shadow");
        denied(&sb.root.path().display().to_string(), "cat work/.env");
        denied(&format!("{work}/docs"), "rm ../.env");
        // Inside the project, the call runs where it says: allowed by the project's rules.
        let out = hook(agent, &format!("{work}/docs"), "Bash", "touch made.txt");
        assert!(!out.contains("\"deny\"") && !out.contains("\"ask\""), "{agent}: {out}");
    }
    let out = hook("gemini", "/etc", "run_shell_command", "cat shadow");
    assert!(out.contains("deny"), "{out}");
}

/// Codex keeps the space after `*** Add File:` as part of the name: a path with space around
/// it is refused, not read as the trimmed one.
#[test]
fn redteam3_patch_paths_with_space_around_them_are_refused() {
    for path in [" docs/x", "docs/x ", "\u{a0}docs/x"] {
        let patch = format!("*** Begin Patch\n*** Add File: {path}\n+a\n*** End Patch\n");
        let input = json!({"hook_event_name": "PreToolUse", "tool_name": "apply_patch", "cwd": "/tmp",
            "tool_input": {"command": patch}});
        let out =
            assert_cmd::Command::new(GATE).args(["hook", "codex"]).write_stdin(input.to_string()).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{path:?}");
    }
}
