//! Claude Code under gate, for real: the pinned CLI from npm (`.ci/agents.sh`) against the
//! loopback Anthropic mock (tests/agents/anthropic.rs), asserting what the model received back.
//! Three ways: `gate run -- claude -p` (gate is the stream-json host), `gate hook claude`
//! installed with `gate hook install claude --project` under a plain `claude -p`. A missing agent
//! skips (fails under GATE_REQUIRE_AGENTS).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

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

/// A program on a real pseudo-terminal (util-linux `script`): type bytes, read the screen.
struct Pty {
    child: std::process::Child,
    input: std::process::ChildStdin,
    screen: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
}

impl Pty {
    fn start(mut cmd: Command, line: &str) -> Pty {
        use std::io::Read;
        cmd.env("TERM", "xterm").env("SHELL", "/bin/sh");
        cmd.args(["-qefc", line, "/dev/null"]);
        cmd.stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped());
        let mut child = cmd.spawn().unwrap();
        let input = child.stdin.take().unwrap();
        let mut output = child.stdout.take().unwrap();
        let screen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let s2 = screen.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = output.read(&mut buf) {
                if n == 0 {
                    break;
                }
                s2.lock().unwrap().extend_from_slice(&buf[..n]);
            }
        });
        Pty { child, input, screen }
    }

    fn text(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()).into_owned()
    }

    fn type_bytes(&mut self, b: &[u8]) {
        use std::io::Write;
        self.input.write_all(b).unwrap();
        self.input.flush().unwrap();
    }

    fn wait_for(&self, what: &str, cond: impl Fn(&Pty) -> bool) {
        let deadline = std::time::Instant::now() + T;
        while !cond(self) {
            assert!(std::time::Instant::now() < deadline, "waited for {what}: {}", self.text());
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn wait_exit(&mut self) -> std::process::ExitStatus {
        let deadline = std::time::Instant::now() + T;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("did not exit: {}", self.text());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

/// Interactive Claude Code (its TUI) on a pseudo-terminal under `gate run -- claude`: gate's
/// hook, merged into `--settings`, asks the running gate over `$GATE_SOCKET` for every call.
#[test]
fn interactive_claude_asks_the_running_gate_through_its_hook() {
    let cc = agent_or_skip!("claude-code");
    if agents::which("script").is_none() {
        agents::skip("util-linux `script` is not installed: no pseudo-terminal for the TUI");
        return;
    }
    let sb = workspace();
    // A fresh HOME would stop at Claude Code's first-run dialogs (onboarding, the API key,
    // trusting the folder): answer them beforehand, as a person who has used it would have.
    let work = sb.work.canonicalize().unwrap();
    let state = json!({
        "hasCompletedOnboarding": true,
        "theme": "dark",
        "customApiKeyResponses": {"approved": ["sk-ant-dummy"], "rejected": []},
        "projects": {work.display().to_string(): {"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}}
    });
    sb.home_file(".claude.json", &state.to_string());
    let outside = outside_file(&sb);
    let mock = anthropic::start(scenario_script(&outside));
    let audit = sb.home.join("audit.jsonl");
    let gate = env!("CARGO_BIN_EXE_gate");
    let mut cmd = Command::new("script");
    cc.env(&sb, Some(&mock.url())).apply(&mut cmd);
    let path = format!("{}:{}", cc.bin.parent().unwrap().display(), cmd_path(&cmd));
    cmd.env("PATH", path).current_dir(&work);
    let line =
        format!("stty cols 120 rows 40; exec {gate} run --strict --audit {} -- claude 'clean up'", audit.display());
    let mut pty = Pty::start(cmd, &line);
    pty.wait_for("the TUI", |p| p.text().contains("clean up"));
    std::thread::sleep(Duration::from_millis(1500));
    pty.type_bytes(b"\r");
    pty.wait_for("every tool result", |_| mock.tool_results().len() >= 7);
    std::thread::sleep(Duration::from_millis(500));
    pty.type_bytes(b"/exit");
    std::thread::sleep(Duration::from_millis(500));
    pty.type_bytes(b"\r");
    let status = pty.wait_exit();
    assert!(status.success(), "{}", pty.text());
    assert_scenarios(&mock, &sb.work, "interactive claude");
    let audit = std::fs::read_to_string(&audit).unwrap();
    assert!(audit.contains(r#""command":"ls""#) && audit.contains(r#""rule":"Bash(rm *)""#), "{audit}");
}

/// An ask answered `y` at gate's prompt on a real pseudo-terminal (util-linux `script`): the
/// call runs. Claude Code is headless (`-p`), gate's prompt is on the terminal.
#[test]
fn an_ask_answered_y_on_a_terminal_runs() {
    let cc = agent_or_skip!("claude-code");
    if agents::which("script").is_none() {
        agents::skip("util-linux `script` is not installed: no pseudo-terminal to answer on");
        return;
    }
    let sb = workspace();
    let mock = anthropic::start(script(vec![call("Bash", json!({"command": "touch made.txt"}))]));
    let gate = env!("CARGO_BIN_EXE_gate");
    let line = format!("stty cols 100 rows 40; exec {gate} run -- claude -p 'make a file' < /dev/null");
    let mut cmd = Command::new("script");
    cc.env(&sb, Some(&mock.url())).apply(&mut cmd);
    let path = format!("{}:{}", cc.bin.parent().unwrap().display(), cmd_path(&cmd));
    cmd.env("PATH", path).current_dir(&sb.work);
    let mut pty = Pty::start(cmd, &line);
    pty.wait_for("gate's prompt", |p| p.text().contains("[h]alt batch"));
    assert!(pty.text().contains("touch made.txt"), "the prompt shows the command: {}", pty.text());
    pty.type_bytes(b"y");
    let status = pty.wait_exit();
    assert!(status.success(), "{}", pty.text());
    assert!(sb.work.join("made.txt").exists(), "the approved call did not run: {}", pty.text());
    let r = results(&mock);
    assert!(r.first().is_some_and(|(_, e)| e != &Some(true)), "{r:#?}");
}
