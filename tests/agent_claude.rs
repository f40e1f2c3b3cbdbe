//! Claude Code under gate, for real: the pinned CLI from npm (`.ci/agents.sh`) against the
//! loopback Anthropic mock (tests/agents/anthropic.rs), asserting what the model received back.
//! Three ways: `gate run -- claude -p` (gate is the stream-json host), `gate hook claude`
//! installed with `gate hook install claude --project` under a plain `claude -p`. A missing agent
//! skips (fails under GATE_REQUIRE_AGENTS).

mod agents;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use agents::mock::{call, script, Mock};
use agents::{anthropic, run, Sandbox};
use serde_json::{json, Value};

const T: Duration = Duration::from_secs(120);

const POLICY: &str = r#"version: 1
mode: default
permissions:
  allow:
    - "Edit(docs/**)"
    - "Read(docs/**)"
  deny:
    - "Bash(rm *)"
    - "Write(**/.env*)"
"#;

/// The workspace every scenario uses: a git repository with docs/a.md, x/ and host.yaml.
fn workspace() -> Sandbox {
    let sb = Sandbox::new();
    let git = Command::new("git").args(["init", "-q", "."]).current_dir(&sb.work).status().unwrap();
    assert!(git.success());
    sb.file("docs/a.md", "hello\n");
    sb.file("x/keep", "still here\n");
    sb.file("host.yaml", POLICY);
    sb
}

/// The scripted model: every "Must hold" scenario of the Claude Code issue, in one turn.
fn scenario_script(outside: &str) -> Vec<agents::Step> {
    script(vec![
        call("Bash", json!({"command": "git status && rm -rf x"})),
        call("Bash", json!({"command": "git status"})),
        call("Bash", json!({"command": "ls"})),
        call("Read", json!({"file_path": outside})),
        call("Write", json!({"file_path": ".env", "content": "TOKEN=1\n"})),
        call("Read", json!({"file_path": "docs/a.md"})),
        call("Edit", json!({"file_path": "docs/a.md", "old_string": "hello", "new_string": "hello, gate"})),
    ])
}

fn results(mock: &Mock) -> Vec<(String, Option<bool>)> {
    mock.tool_results().into_iter().map(|t| (t.content, t.is_error)).collect()
}

/// What every way must show in the model's tool results and on disk.
fn assert_scenarios(mock: &Mock, work: &Path, how: &str) {
    let r = results(mock);
    assert!(r.len() >= 7, "{how}: the model got {} tool results, want 7: {r:#?}", r.len());
    let (deny, err) = &r[0];
    assert!(deny.contains("Bash(rm *)") && err != &Some(false), "{how}: rm not denied with gate's rule: {r:#?}");
    assert!(work.join("x/keep").exists(), "{how}: x was removed");
    assert!(r[1].0.contains("On branch") || r[1].0.contains("No commits yet"), "{how}: git status did not run: {r:#?}");
    assert!(r[2].0.contains("docs") && r[2].0.contains("host.yaml"), "{how}: ls did not run: {r:#?}");
    assert!(r[3].1 == Some(true) && !r[3].0.contains("localhost"), "{how}: the outside read was not denied: {r:#?}");
    assert!(r[4].1 == Some(true), "{how}: the .env write was not denied: {r:#?}");
    assert!(!work.join(".env").exists(), "{how}: .env was written");
    assert_eq!(
        std::fs::read_to_string(work.join("docs/a.md")).unwrap(),
        "hello, gate\n",
        "{how}: the edit did not land: {r:#?}"
    );
}

fn outside_file(sb: &Sandbox) -> String {
    // A file outside the workspace that Claude Code itself would read without asking if it
    // were inside: gate must decide it.
    let p = sb.home.join("outside-secret.txt");
    std::fs::write(&p, "localhost secret\n").unwrap();
    p.display().to_string()
}

#[test]
fn headless_gate_run_decides_every_claude_code_call() {
    let cc = agent_or_skip!("claude-code");
    let sb = workspace();
    let outside = outside_file(&sb);
    let mock = anthropic::start(scenario_script(&outside));
    let audit = sb.home.join("audit.jsonl");
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gate"));
    cc.env(&sb, Some(&mock.url())).apply(&mut cmd);
    let path = format!("{}:{}", cc.bin.parent().unwrap().display(), cmd_path(&cmd));
    cmd.env("PATH", path).current_dir(&sb.work);
    cmd.args(["run", "--strict", "--audit"]).arg(&audit).args(["--", "claude", "-p", "do the chores"]);
    let out = run(cmd, T);
    assert_eq!(out.status.code(), Some(0), "gate run: {}", out.transcript());
    assert_scenarios(&mock, &sb.work, "gate run -- claude -p");
    // Text output, as claude -p prints it: the final text only.
    assert!(out.stdout.contains("done."), "stdout: {}", out.stdout);
    assert!(!out.stdout.contains("control_request"), "control lines leaked: {}", out.stdout);
    // ls was decided by gate (Claude Code would have run it unasked), with an audit line.
    let audit = std::fs::read_to_string(&audit).unwrap();
    let lines: Vec<Value> = audit.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert!(
        lines.iter().any(|l| l["tool"] == "Bash" && l["arguments"]["command"] == "ls" && l["decision"] == "allow"),
        "no audit line for ls: {audit}"
    );
    let rm = lines.iter().find(|l| l["arguments"]["command"] == "git status && rm -rf x").unwrap();
    assert_eq!(rm["rule"], "Bash(rm *)");
    assert!(rm["parts"].as_array().is_some_and(|p| p.len() == 2), "every part's verdict is audited: {rm}");
    // The person sees each denial on stderr.
    assert!(out.stderr.contains("gate: denied Bash: rm -rf x (rule Bash(rm *))"), "{}", out.stderr);
}

#[test]
fn headless_stream_json_passes_claude_codes_lines_through() {
    let cc = agent_or_skip!("claude-code");
    let sb = workspace();
    let mock = anthropic::start(script(vec![call("Bash", json!({"command": "rm -rf x"}))]));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gate"));
    cc.env(&sb, Some(&mock.url())).apply(&mut cmd);
    let path = format!("{}:{}", cc.bin.parent().unwrap().display(), cmd_path(&cmd));
    cmd.env("PATH", path).current_dir(&sb.work);
    cmd.args(["run", "--strict", "--", "claude", "-p", "clean", "--output-format", "stream-json"]);
    let out = run(cmd, T);
    assert_eq!(out.status.code(), Some(0), "{}", out.transcript());
    let lines: Vec<Value> = out.stdout.lines().map(|l| serde_json::from_str(l).expect(l)).collect();
    assert!(lines.iter().any(|l| l["type"] == "system" && l["subtype"] == "init"), "{}", out.stdout);
    assert!(lines.iter().any(|l| l["type"] == "result"), "{}", out.stdout);
    assert!(lines.iter().all(|l| l["type"] != "control_request" && l["type"] != "control_response"));
    assert!(sb.work.join("x/keep").exists());
}

#[test]
fn hook_installed_in_project_settings_decides_a_plain_claude() {
    let cc = agent_or_skip!("claude-code");
    let sb = workspace();
    let outside = outside_file(&sb);
    let gate = env!("CARGO_BIN_EXE_gate");
    let inst =
        Command::new(gate).args(["hook", "install", "claude", "--project"]).current_dir(&sb.work).output().unwrap();
    assert!(inst.status.success(), "{}", String::from_utf8_lossy(&inst.stderr));
    assert!(String::from_utf8_lossy(&inst.stdout).contains(".claude/settings.json"));
    let mock = anthropic::start(scenario_script(&outside));
    let mut cmd = cc.command(&sb, Some(&mock.url()));
    cmd.args(["-p", "do the chores"]);
    let out = run(cmd, T);
    assert_eq!(out.status.code(), Some(0), "{}", out.transcript());
    assert_scenarios(&mock, &sb.work, "gate hook claude");

    // A garbage policy blocks every call (exit 2 from the hook).
    std::fs::write(sb.work.join("host.yaml"), "version: [\n").unwrap();
    let mock = anthropic::start(script(vec![call("Bash", json!({"command": "ls"}))]));
    let mut cmd = cc.command(&sb, Some(&mock.url()));
    cmd.args(["-p", "list"]);
    let out = run(cmd, T);
    let r = results(&mock);
    assert!(
        r.first().is_some_and(|(c, _)| c.contains("gate:") && c.contains("blocked")),
        "{r:#?} {}",
        out.transcript()
    );

    let un = Command::new(gate).args(["hook", "uninstall", "claude"]).current_dir(&sb.work).output().unwrap();
    assert!(un.status.success());
    let settings: Value =
        serde_json::from_str(&std::fs::read_to_string(sb.work.join(".claude/settings.json")).unwrap()).unwrap();
    assert_eq!(settings, json!({}), "uninstall removes exactly gate's entry");
}

fn cmd_path(cmd: &Command) -> String {
    cmd.get_envs()
        .find(|(k, _)| *k == "PATH")
        .and_then(|(_, v)| v.map(|v| v.to_string_lossy().into_owned()))
        .unwrap_or_default()
}
