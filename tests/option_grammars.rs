//! Issue "Fail closed by construction", classes 1, 2 and 6 and run-time operands: each case
//! through the real binary (`gate check --json` with a policy of the test's own), named after
//! what it shows. Option spellings are generated exhaustively by the property test in
//! src/shell/grammar.rs; these pin the cases the red team used.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::process::Command;

use serde_json::Value;

const GATE: &str = env!("CARGO_BIN_EXE_gate");
const POLICY: &str = "version: 1\npermissions:\n  deny: [ \"Bash(rm *)\", \"Write(**/.env)\", \"Read(**/.env)\" ]\n";

fn check(command: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("host.yaml"), POLICY).unwrap();
    let args = serde_json::json!({ "command": command }).to_string();
    let out = Command::new(GATE).current_dir(dir.path()).args(["check", "--json", "Bash", &args]).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

fn decision(command: &str) -> String {
    check(command)["decision"].as_str().unwrap_or("?").to_string()
}

fn assert_all(expect: &str, commands: &[&str]) {
    for c in commands {
        let d = check(c);
        assert_eq!(d["decision"], expect, "{c}: {d}");
    }
}

#[test]
fn class1_env_option_not_in_its_table_is_unmodelled() {
    let d = check("env -Z ls");
    assert_eq!(d["decision"], "ask", "{d}");
    assert!(d["reason"].as_str().unwrap().contains("env: option -Z not in its table"), "{d}");
}

#[test]
fn class1_wrapper_bundles_glued_values_and_abbreviations_still_reach_rm() {
    assert_all(
        "deny",
        &[
            "env -iS'rm -rf x'",
            "env --sp='rm -rf x'",
            "env -u HOME -- rm -rf x",
            "timeout -s9 5 rm -rf x",
            "timeout -k5 -sKILL 5 rm -rf x",
            "timeout --sig=KILL 5 rm -rf x",
            "nice -10 rm -rf x",
            "nice -n5 rm -rf x",
            "nice --adj=5 rm -rf x",
            "xargs -0I{} rm -rf {}",
            "xargs -n1 rm -rf",
            "flock -xc 'rm -rf x' lockfile",
            "flock -w5 lockfile rm -rf x",
            "sudo -uroot rm -rf x",
            "stdbuf -oL -eL rm -rf x",
            "setsid -f rm -rf x",
            "command -p rm -rf x",
            "script -qc 'rm -rf x' /dev/null",
            "watch -n1 rm -rf x",
            "watch -tn1 'rm -rf x'",
        ],
    );
}

#[test]
fn class1_options_that_write_are_writes_in_every_spelling() {
    assert_all(
        "deny",
        &[
            "sort -o .env x",
            "sort -mo.env x",
            "sort --out=.env x",
            "sort --outp .env x",
            "script -qO .env -c ls",
            "script -q -c ls .env",
            "/usr/bin/time -o .env ls",
            "/usr/bin/time -ao.env ls",
        ],
    );
}

#[test]
fn class1_options_that_run_code_are_never_allowed_in_any_spelling() {
    for c in ["sort --compress-prog=sh x", "sort --compress-program sh x", "rg --pre=sh foo", "rg --pre sh foo"] {
        assert_ne!(decision(c), "allow", "{c}");
    }
}

#[test]
fn class1_safe_list_program_with_an_unknown_option_is_not_allowed() {
    let d = check("ls --frobnicate");
    assert_eq!(d["decision"], "ask", "{d}");
    assert!(d["reason"].as_str().unwrap().contains("ls: option --frobnicate not in its table"), "{d}");
    // Ambiguous prefixes are not guessed.
    assert_eq!(decision("sort --s x"), "ask");
}

#[test]
fn class1_safe_list_spellings_stay_allowed() {
    assert_all(
        "allow",
        &[
            "ls -la",
            "ls -lah --color=auto src",
            "head -5 README.md",
            "tail -n5 a",
            "grep -rn foo src",
            "sort -rn a",
            "wc -l a b",
        ],
    );
}

#[test]
fn class1_run_time_word_in_option_position_of_a_program_with_acting_options() {
    // `$x` could be `--compress-program=sh` or `-o.env`.
    assert_eq!(decision("sort $x a"), "ask");
    // cat has no such option: whatever `$x` is, cat reads (and `$x` as a path is asked below).
    assert_eq!(decision("cat src/*.rs"), "allow");
}

#[test]
fn class2_version_shortcut_only_for_programs_verified_to_exit() {
    assert_eq!(decision("git --version"), "allow");
    assert_eq!(decision("ls --version"), "allow");
    // tclsh runs a script named --version.
    assert_ne!(decision("tclsh --version"), "allow");
    // cargo is a rustup proxy that a rust-toolchain.toml where it runs (or above) can point at
    // any binary: allowed only where the edge finds none (tests/redteam100.rs asks with one).
    assert_eq!(decision("cargo --version"), "allow");
}

#[test]
fn run_time_file_operands_are_reads_of_unknown_paths() {
    assert_all(
        "ask",
        &[
            "x=/etc/shadow; cat $x",
            "for f in /etc/*; do cat \"$f\"; done",
            "cat /etc/*",
            "echo /etc/shadow | xargs cat",
            "echo /etc/shadow | xargs -I{} cat {}",
            "find /etc | xargs cat",
            "sh -c 'cat \"$1\"' _ /etc/shadow",
            "cat \"$PWD/../x\"",
        ],
    );
    // Where the run-time word is known to stay inside: find's results, a workspace glob.
    assert_all(
        "allow",
        &[
            "find . -name '*.rs' | xargs grep -n foo",
            "find . -name '*.md' -exec sh -c 'wc -l \"$1\"' _ {} \\;",
            "ls \"$(pwd)\"",
            "cat $PWD/src/*.rs",
        ],
    );
}

fn check_tool(tool: &str, args: &str) -> Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("host.yaml"), POLICY).unwrap();
    let out = Command::new(GATE).current_dir(dir.path()).args(["check", "--json", tool, args]).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stderr)))
}

#[test]
fn class5_every_path_field_of_every_tool_is_checked_safe_list_included() {
    for (tool, args) in [
        ("Grep", r#"{"pattern":"x","path":"/etc"}"#),
        ("Glob", r#"{"pattern":"/etc/*"}"#),
        ("Glob", r#"{"pattern":"*.conf","path":"/etc"}"#),
        ("LS", r#"{"path":"~/.ssh"}"#),
        ("mcp__x__y", r#"{"output_dir":"/etc"}"#),
        ("mcp__x__y", r#"{"paths":["src/a","/etc/passwd"]}"#),
    ] {
        let d = check_tool(tool, args);
        assert_eq!(d["decision"], "ask", "{tool} {args}: {d}");
    }
    // A denied path in any field denies.
    let d = check_tool("Grep", r#"{"pattern":"x","path":"sub/.env"}"#);
    assert_eq!(d["decision"], "deny", "{d}");
    let d = check_tool("mcp__x__y", r#"{"config_file":".env"}"#);
    assert_eq!(d["decision"], "deny", "{d}");
    // Inside the workspace nothing starts asking.
    for (tool, args) in [("Grep", r#"{"pattern":"x","path":"src"}"#), ("Glob", r#"{"pattern":"src/**/*.rs"}"#)] {
        assert_eq!(check_tool(tool, args)["decision"], "allow", "{tool} {args}");
    }
}

#[test]
fn class8_relative_paths_after_an_untracked_directory_change_are_not_allowed() {
    assert_all("ask", &["cd \"$d\" && cat x", "pushd \"$d\" && cat x"]);
    assert_eq!(decision("cd src && cat main.rs"), "allow");
}
