//! `gate check --json` through the real binary, for the tests that hold decisions to cases:
//! one call, in a fresh empty workspace holding the given policy (and `src/a.rs`).
// Test code: unwrap, expect and panic are how it fails.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, dead_code)]

use std::path::Path;
use std::process::Command;

use gate::policy::{Call, Context, Env, Policy, Verdict};
use serde_json::{json, Value};

const GATE: &str = env!("CARGO_BIN_EXE_gate");

/// The host.yaml of red teams 40 to 44: allow `npm test`, `npm run *`, `git status` and
/// writes of `docs/**/*.md`; deny `rm`, `curl`, `sudo` and writes of `.env*` and `Cargo.toml`.
pub const RED_TEAM_POLICY: &str = "version: 1\npermissions:\n  allow:\n    - Bash(npm test)\n    - Bash(npm run *)\n    - Bash(git status)\n    - { tool: write, when: { file_path: \"docs/**/*.md\" } }\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Bash(sudo *)\", \"Write(**/.env*)\", \"Write(Cargo.toml)\" ]\n";

/// The decision of one call of `tool` with `args`, as JSON.
pub fn check_call(policy: &str, tool: &str, args: &Value) -> Value {
    let dir = workspace(policy);
    check_in_dir(dir.path(), tool, args)
}

/// A fresh empty workspace holding `policy` as its host.yaml, and `src/a.rs`.
pub fn workspace(policy: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("host.yaml"), policy).unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::fs::write(dir.path().join("src/a.rs"), "fn main() {}\n").unwrap();
    dir
}

/// `gate check --json TOOL ARGS` run in the workspace `ws`, as JSON.
pub fn check_in_dir(ws: &Path, tool: &str, args: &Value) -> Value {
    let out = Command::new(GATE).current_dir(ws).args(["check", "--json", tool, &args.to_string()]).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

/// The decision of one shell command.
pub fn check_command(policy: &str, command: &str) -> Value {
    check_call(policy, "Bash", &json!({ "command": command }))
}

/// `s` single-quoted for the shell.
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// `yaml` as the host.yaml of a workspace at `dir`, with a home directory that does not exist.
pub fn policy_at(yaml: &str, dir: &Path) -> Policy {
    let base = dir.to_string_lossy().to_string();
    let env = Env { base_dir: base.clone().into(), home: Some("/nonexistent-home".into()), cwd: base.into() };
    Policy::from_yaml(yaml, "host.yaml", &env).expect("the test policy parses")
}

/// The verdict of one shell command under `p`, decided in this process.
pub fn decide_command(p: &Policy, cmd: &str) -> Verdict {
    p.decide(&Call::new("bash", json!({ "command": cmd })), &Context::default()).decision
}

/// Every command gets `expect` (`allow`, `ask` or `deny`).
pub fn assert_all_with(policy: &str, expect: &str, commands: &[&str]) {
    for c in commands {
        let d = check_command(policy, c);
        assert_eq!(d["decision"], expect, "{c}: {d}");
    }
}

/// Every call (a tool and its arguments) gets `expect`.
pub fn assert_calls_with(policy: &str, expect: &str, calls: &[(&str, Value)]) {
    for (tool, args) in calls {
        let d = check_call(policy, tool, args);
        assert_eq!(d["decision"], expect, "{tool} {args}: {d}");
    }
}

/// Whether this machine's bash has `globskipdots` on (bash 5.2's default): then gate reads no
/// glob as matching `.` or `..` (`ls -d .*`), and asks of them otherwise. As gate asks it: the
/// PATH's bash, and `/bin/bash` and `/usr/bin/bash` where they are.
pub fn bash_skips_dots() -> bool {
    let skips = |bash: &str| Command::new(bash).args(["--norc", "--noprofile", "-c", "shopt -q globskipdots"]).status();
    skips("bash").is_ok_and(|s| s.success())
        && ["/bin/bash", "/usr/bin/bash"].iter().all(|b| match skips(b) {
            Ok(s) => s.success(),
            Err(e) => e.kind() == std::io::ErrorKind::NotFound,
        })
}

/// No command is allowed (each is asked or denied).
pub fn assert_none_allowed_with(policy: &str, commands: &[&str]) {
    for c in commands {
        let d = check_command(policy, c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
}

/// No command, decided in the workspace `ws`, is allowed (each is asked or denied).
pub fn assert_none_allowed_in(ws: &Path, commands: &[&str]) {
    for c in commands {
        let d = command_in_dir(ws, c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
}

/// Write `text` to `path` below `ws`, making its directories.
pub fn write_file(ws: &Path, path: &str, text: &str) {
    let p = ws.join(path);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(p, text).unwrap();
}

/// The decision of one shell command in the workspace `ws`, as JSON.
pub fn command_in_dir(ws: &Path, command: &str) -> Value {
    check_in_dir(ws, "Bash", &json!({ "command": command }))
}

/// Every shell command, decided in the workspace `ws`, gets `expect`.
pub fn assert_in_dir(ws: &Path, expect: &str, commands: &[&str]) {
    for c in commands {
        let d = command_in_dir(ws, c);
        assert_eq!(d["decision"], expect, "{c}: {d}");
    }
}

/// A workspace holding [`RED_TEAM_POLICY`], `src/a.rs`, `docs/a.md` and the files its deny
/// rules name (`Cargo.toml`, `.env`); with `git`, a repository.
pub fn red_team_workspace(git: bool) -> tempfile::TempDir {
    let ws = workspace(RED_TEAM_POLICY);
    write_file(ws.path(), "docs/a.md", "# a\n");
    write_file(ws.path(), "Cargo.toml", "[package]\n");
    write_file(ws.path(), ".env", "K=v\n");
    if git {
        let out = Command::new("git").args(["init", "-q"]).current_dir(ws.path()).output().unwrap();
        assert!(out.status.success(), "git init: {}", String::from_utf8_lossy(&out.stderr));
    }
    ws
}

/// What bash prints running `script` in `dir` (standard input empty): the oracle of what a
/// text really does. bash is part of every machine the tests run on.
pub fn bash_stdout(dir: &Path, script: &str) -> String {
    let out = Command::new("bash")
        .arg("-c")
        .arg(script)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("bash runs");
    String::from_utf8_lossy(&out.stdout).to_string()
}

/// What bash prints running `script` from a file in `dir` (as a script file or standard input
/// runs it: an expansion error ends the line, and the next line runs; under `-c` some end the
/// whole text).
pub fn bash_script_stdout(dir: &Path, script: &str) -> String {
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), script).unwrap();
    let out = Command::new("bash")
        .arg(file.path())
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("bash runs");
    String::from_utf8_lossy(&out.stdout).to_string()
}
