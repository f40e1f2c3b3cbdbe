//! The sixth red team's findings (issue 15, 2026-11-26): globs matched through links, glob text
//! kept in variables and defaults, and the shell state bash keeps apart. Each regression goes
//! through the real binary (`gate check --json`) and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};

const POLICY: &str = "version: 1\npermissions:\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Write(**/.env*)\" ]\n";

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

/// The decision of `command` in a workspace that also holds `lnk` -> `/etc`, `pw` ->
/// `/etc/passwd` and `sl` -> `src`.
fn check_with_links(command: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    let ws = dir.path();
    std::fs::write(ws.join("host.yaml"), POLICY).unwrap();
    std::fs::create_dir_all(ws.join("src")).unwrap();
    std::fs::write(ws.join("src/a.rs"), "fn main() {}\n").unwrap();
    link(Path::new("/etc"), &ws.join("lnk"));
    link(Path::new("/etc/passwd"), &ws.join("pw"));
    link(Path::new("src"), &ws.join("sl"));
    let args = json!({ "command": command }).to_string();
    let out = Command::new(env!("CARGO_BIN_EXE_gate"))
        .current_dir(ws)
        .args(["check", "--json", "Bash", &args])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

fn link(to: &Path, at: &Path) {
    std::os::unix::fs::symlink(to, at).unwrap();
}

#[test]
fn a_glob_that_matches_a_link_is_decided_where_the_link_leads() {
    for c in [
        "cat */passwd",
        "cat l?k/passwd",
        "cat [l]nk/passwd",
        "cat p*",
        "cat *",
        "echo */*",
        "echo l*/*",
        "ls -d */",
        "wc -l */*.rs",
    ] {
        let d = check_with_links(c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
        assert!(d["reason"].as_str().unwrap().contains("leads to `/etc"), "{c}: {d}");
    }
    // Links that stay in the workspace change nothing.
    for c in ["cat sl/*", "cat sl/*.rs", "ls src/*", "echo src/*"] {
        let d = check_with_links(c);
        assert_eq!(d["decision"], "allow", "{c}: {d}");
    }
}

#[test]
fn glob_text_stored_in_a_variable_is_a_listing_where_it_is_expanded() {
    assert_all(
        "ask",
        &[
            "x=/etc/*; echo $x",
            "x='/etc/* src'; echo $x",
            "x=/etc/*; echo $x/a",
            "a=('/etc/*'); echo ${a[@]}",
            "echo ${x:-/etc/*}",
            "echo ${x-/etc/*}",
            "echo ${x:=/etc/*}",
            "echo ${x/a/\\/etc\\/*}",
        ],
    );
    assert_all(
        "allow",
        &["x=src/*; echo $x", "echo \"${x:-/etc/*}\"", "echo ${x#*/}", "echo ${x%.*}", "x=$(date); echo $x"],
    );
}
