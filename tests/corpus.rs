//! Every adversarial case in tests/corpus/*.jsonl, decided by the real `gate check` binary
//! against tests/corpus/host.yaml in a fresh empty workspace. A case decided `allow` that
//! expects anything else is a bypass; each is reported with its reason.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::Command;

struct Outcome {
    line: String,
    expect: String,
    got: String,
    detail: String,
}

fn run_file(file: &str, files: bool) -> Vec<Outcome> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let ws = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    std::fs::copy(root.join("host.yaml"), ws.path().join("host.yaml")).unwrap();
    // The eleventh round's cases were written for a workspace holding a little project.
    if files {
        std::fs::create_dir_all(ws.path().join("src")).unwrap();
        std::fs::create_dir_all(ws.path().join("docs")).unwrap();
        std::fs::write(ws.path().join("src/a.rs"), "fn main() {}\n").unwrap();
        std::fs::write(ws.path().join(".env"), "SECRET=1\n").unwrap();
    }
    let text = std::fs::read_to_string(root.join(file)).unwrap();
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let case: serde_json::Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{file}: bad case {line}: {e}"));
        let tool = case["tool"].as_str().unwrap();
        let args = case["arguments"].to_string();
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_gate"));
        cmd.current_dir(ws.path()).env("HOME", home.path()).env_remove("XDG_CONFIG_HOME");
        cmd.args(["check", "--json", tool, &args]);
        if let Some(mode) = case["mode"].as_str() {
            cmd.args(["--mode", mode]);
        }
        let o = cmd.output().unwrap();
        let stdout = String::from_utf8_lossy(&o.stdout);
        let d: serde_json::Value = serde_json::from_str(stdout.trim()).unwrap_or_else(|_| {
            panic!("no JSON for {line}: stdout={stdout} stderr={}", String::from_utf8_lossy(&o.stderr))
        });
        let got = d["decision"].as_str().unwrap().to_string();
        let code = o.status.code().unwrap();
        let want_code = match got.as_str() {
            "allow" => 0,
            "ask" => 3,
            _ => 4,
        };
        assert_eq!(code, want_code, "exit code for {line}");
        out.push(Outcome {
            line: line.to_string(),
            expect: case["expect"].as_str().unwrap().to_string(),
            got,
            detail: d.to_string(),
        });
    }
    out
}

fn check(file: &str) {
    check_in(file, false)
}

fn check_in(file: &str, files: bool) {
    let outcomes = run_file(file, files);
    let mut bypasses = Vec::new();
    let mut wrong = Vec::new();
    for o in &outcomes {
        let ok = match o.expect.as_str() {
            "not_allow" => o.got != "allow",
            e => e == o.got,
        };
        if !ok {
            if o.got == "allow" {
                bypasses.push(o);
            } else {
                wrong.push(o);
            }
        }
    }
    for o in bypasses.iter().chain(wrong.iter()) {
        eprintln!("expected {}, got {}: {}\n    {}", o.expect, o.got, o.line, o.detail);
    }
    assert!(
        bypasses.is_empty() && wrong.is_empty(),
        "{file}: {} bypasses, {} other mismatches of {} cases",
        bypasses.len(),
        wrong.len(),
        outcomes.len()
    );
    eprintln!("{file}: {} cases, all as expected", outcomes.len());
}

#[test]
fn shared_corpus() {
    check("shared_cases.jsonl");
}

#[test]
fn own_corpus() {
    check("gate_cases.jsonl");
}

/// The eleventh round's blind simulation of the hidden set (60 cases written from the issue
/// alone) and its targeted follow-up, as decided right (README of tests/corpus).
#[test]
fn eleventh_round_corpus() {
    check_in("redteam11_cases.jsonl", true);
}
