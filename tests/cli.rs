//! The offline subcommands through the real binary: check, validate, init, approvals.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;
use std::process::{Command, Output};

const CORPUS_POLICY: &str = include_str!("corpus/host.yaml");

struct Ws {
    dir: tempfile::TempDir,
    home: tempfile::TempDir,
}

impl Ws {
    fn new(policy: Option<&str>) -> Ws {
        let ws = Ws { dir: tempfile::tempdir().unwrap(), home: tempfile::tempdir().unwrap() };
        if let Some(p) = policy {
            std::fs::write(ws.dir.path().join("host.yaml"), p).unwrap();
        }
        ws
    }

    fn path(&self) -> &Path {
        self.dir.path()
    }

    fn gate(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_gate"))
            .current_dir(self.path())
            .env("HOME", self.home.path())
            .env_remove("XDG_CONFIG_HOME")
            .env("NO_COLOR", "1")
            .args(args)
            .output()
            .unwrap()
    }
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn check_exit_codes_follow_the_decision() {
    let ws = Ws::new(Some(CORPUS_POLICY));
    assert_eq!(ws.gate(&["check", "Bash(git status)"]).status.code(), Some(0));
    assert_eq!(ws.gate(&["check", "Bash(git push origin main)"]).status.code(), Some(3));
    assert_eq!(ws.gate(&["check", "Bash(git status && rm -rf /)"]).status.code(), Some(4));
    assert_eq!(ws.gate(&["check", "bash", r#"{"command":"npm test"}"#]).status.code(), Some(0));
    assert_eq!(ws.gate(&["check", "webfetch", r#"{"url":"https://x"}"#]).status.code(), Some(4));
}

#[test]
fn check_json_has_the_spec_shape() {
    let ws = Ws::new(Some(CORPUS_POLICY));
    let o = ws.gate(&["check", "--json", "Bash(git status && rm -rf /)"]);
    let text = out(&o);
    assert!(text.starts_with(r#"{"decision":"deny","layer":"deny_rule","rule":"Bash(rm *)","reason":"#), "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let parts = v["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0]["command"], "git status");
    assert_eq!(parts[0]["decision"], "allow");
    assert_eq!(parts[1]["command"], "rm -rf /");
    assert_eq!(parts[1]["decision"], "deny");
    assert_eq!(parts[1]["rule"], "Bash(rm *)");
    // Not a shell call: no parts.
    let o = ws.gate(&["check", "--json", "write", r#"{"file_path":".env"}"#]);
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert!(v.get("parts").is_none(), "{v}");
    assert_eq!(v["decision"], "deny");
    assert!(v["rule"].as_str().unwrap().contains(".env"), "{v}");
}

#[test]
fn check_readable_output() {
    let ws = Ws::new(Some(CORPUS_POLICY));
    let o = ws.gate(&["check", "Bash(git status && npm publish && rm -rf build)"]);
    assert_eq!(o.status.code(), Some(4));
    insta::assert_snapshot!("check_compound", out(&o));
    let o = ws.gate(&["check", "Bash(echo hi > out.txt)"]);
    insta::assert_snapshot!("check_write", out(&o));
}

#[test]
fn check_usage_errors_exit_2() {
    let ws = Ws::new(Some(CORPUS_POLICY));
    let o = ws.gate(&["check", "bash", "{not json"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("not valid JSON"), "{}", err(&o));
    let o = ws.gate(&["check", "bash", "[1]"]);
    assert_eq!(o.status.code(), Some(2));
    let o = ws.gate(&["check", "webfetch(https://x)"]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let o = ws.gate(&["check", "Bash(git status"]);
    assert_eq!(o.status.code(), Some(2));
    let o = ws.gate(&["check"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn check_mode_and_skills() {
    let policy = format!("{CORPUS_POLICY}\nskills:\n  deploy: {{ allow: [\"Bash(kubectl apply *)\"] }}\n");
    let ws = Ws::new(Some(&policy));
    assert_eq!(ws.gate(&["check", "Bash(kubectl apply -f x.yaml)"]).status.code(), Some(3));
    let o = ws.gate(&["check", "--json", "--skill", "deploy", "Bash(kubectl apply -f x.yaml)"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).contains(r#""layer":"skill""#), "{}", out(&o));
    let o = ws.gate(&["check", "--skill", "nope", "Bash(kubectl apply -f x.yaml)"]);
    assert_eq!(o.status.code(), Some(3), "an undeclared skill changes nothing");
    assert!(err(&o).contains("not declared"));
    assert_eq!(ws.gate(&["check", "--mode", "plan", "Bash(npm install)"]).status.code(), Some(4));
    assert_eq!(ws.gate(&["check", "--mode", "bypassPermissions", "Bash(rm x)"]).status.code(), Some(4));
}

#[test]
fn check_with_a_broken_policy_exits_2_with_locations() {
    let ws = Ws::new(Some("version: 1\npermissions:\n  alow: []\n"));
    let o = ws.gate(&["check", "Bash(ls)"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("host.yaml:3:3: unknown key `alow` in `permissions` (did you mean `allow`?)"),
        "{}",
        err(&o)
    );
}

#[test]
fn validate_reports_every_error_with_line_and_column() {
    let bad = "version: 2\nmdoe: plan\nmode: fast\npermissions:\n  allow:\n    - Bash(git status && rm)\n    - { tool: write, when: { file_path: \"[\" } }\n  dney: []\ntools:\n  x: { kind: shel }\n";
    let ws = Ws::new(Some(bad));
    let o = ws.gate(&["validate"]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    for expected in [
        "host.yaml:1:10: unsupported version 2",
        "host.yaml:2:1: unknown key `mdoe` in the policy (did you mean `mode`?)",
        "host.yaml:3:7: unknown mode `fast`",
        "host.yaml:6:7: `Bash(git status && rm)`",
        "host.yaml:7:41: bad glob `[`",
        "host.yaml:8:3: unknown key `dney` in `permissions` (did you mean `deny`?)",
        "host.yaml:10:14: unknown tool kind `shel` (did you mean `shell`?)",
        "7 errors",
    ] {
        assert!(e.contains(expected), "missing {expected:?} in:\n{e}");
    }
}

#[test]
fn validate_duplicate_keys_and_syntax_errors() {
    let ws = Ws::new(Some("version: 1\nmode: plan\nmode: default\n"));
    let o = ws.gate(&["validate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("host.yaml:3:1: `mode` is given twice here"), "{}", err(&o));
    let ws = Ws::new(Some("version: 1\npermissions: [\n"));
    let o = ws.gate(&["validate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("host.yaml:"), "{}", err(&o));
}

#[test]
fn validate_runs_the_policy_tests() {
    let policy = format!("{CORPUS_POLICY}\ntests:\n  - {{ call: \"Bash(git push origin main)\", expect: ask }}\n  - {{ call: \"Bash(rm x)\", expect: allow }}\n  - {{ call: write, arguments: {{ file_path: docs/a.md }}, expect: allow }}\n");
    let ws = Ws::new(Some(&policy));
    let o = ws.gate(&["validate"]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert!(e.contains("test `Bash(rm x)` expects allow, the policy says deny"), "{e}");
    assert!(e.contains("1 of 3 policy tests failed"), "{e}");
    let fixed = policy.replace("Bash(rm x)\", expect: allow", "Bash(rm x)\", expect: deny");
    let ws = Ws::new(Some(&fixed));
    let o = ws.gate(&["validate"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("valid, 3 tests passed"));
}

#[test]
fn validate_without_a_policy_says_so() {
    let ws = Ws::new(None);
    let o = ws.gate(&["validate"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("gate init"));
}

#[test]
fn init_writes_the_example_and_does_not_clobber() {
    let ws = Ws::new(None);
    let o = ws.gate(&["init"]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let written = std::fs::read_to_string(ws.path().join("host.yaml")).unwrap();
    let example = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("host.yaml.example")).unwrap();
    assert_eq!(written, example);
    assert_eq!(ws.gate(&["validate"]).status.code(), Some(0), "the example is valid and its tests pass");
    std::fs::write(ws.path().join("host.yaml"), "version: 1\n").unwrap();
    assert_eq!(ws.gate(&["init"]).status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(ws.path().join("host.yaml")).unwrap(), "version: 1\n");
    assert_eq!(ws.gate(&["init", "--force"]).status.code(), Some(0));
    assert_eq!(std::fs::read_to_string(ws.path().join("host.yaml")).unwrap(), example);
}

#[test]
fn policy_found_in_xdg_config_home() {
    let ws = Ws::new(None);
    let xdg = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(xdg.path().join("gate")).unwrap();
    std::fs::write(xdg.path().join("gate/host.yaml"), "version: 1\npermissions:\n  deny: [\"Bash(ls *)\"]\n").unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_gate"))
        .current_dir(ws.path())
        .env("HOME", ws.home.path())
        .env("XDG_CONFIG_HOME", xdg.path())
        .args(["check", "Bash(ls)"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(4), "{}", out(&o));
    // Without any policy: the built-in defaults (ls is known-safe).
    assert_eq!(ws.gate(&["check", "Bash(ls)"]).status.code(), Some(0));
}

#[test]
fn always_approvals_allow_but_never_beat_deny_or_ask() {
    let ws = Ws::new(Some(CORPUS_POLICY));
    let store = ws.path().join(".gate/approvals.yaml");
    gate::always::add(&store, &["Bash(npm install *)".into(), "Bash(rm *)".into(), "Bash(git push *)".into()], "test")
        .unwrap();
    let o = ws.gate(&["check", "--json", "Bash(npm install left-pad)"]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert!(out(&o).contains(r#""layer":"always""#));
    assert_eq!(ws.gate(&["check", "Bash(rm x)"]).status.code(), Some(4), "deny beats always");
    assert_eq!(ws.gate(&["check", "Bash(git push origin main)"]).status.code(), Some(3), "ask beats always");

    let list = ws.gate(&["approvals", "list"]);
    let text = out(&list);
    assert!(text.contains("Bash(npm install *)") && text.contains("Bash(rm *)"), "{text}");
    let stored = gate::always::load(&store).unwrap();
    assert_eq!(stored.len(), 3);
    let id = stored[0].id.clone();
    let o = ws.gate(&["approvals", "revoke", &id]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(gate::always::load(&store).unwrap().len(), 2);
    assert_eq!(ws.gate(&["check", "Bash(npm install left-pad)"]).status.code(), Some(3), "revoked");
    assert_eq!(ws.gate(&["approvals", "revoke", "nope"]).status.code(), Some(2));
    assert_eq!(ws.gate(&["approvals", "clear"]).status.code(), Some(0));
    assert!(gate::always::load(&store).unwrap().is_empty());
    assert!(out(&ws.gate(&["approvals", "list"])).contains("no \"always\" approvals"));
}

#[test]
fn help_teaches() {
    let ws = Ws::new(None);
    let o = ws.gate(&["--help"]);
    let text = out(&o);
    for s in ["gate check", "gate run", "--strict", "Deny is final"] {
        assert!(text.contains(s), "--help lacks {s}: {text}");
    }
    let o = ws.gate(&["check", "--help"]);
    assert!(out(&o).contains("Exit status: 0 allow, 3 ask, 4 deny"));
}

#[test]
fn a_panic_while_deciding_is_a_deny() {
    let ws = Ws::new(Some(CORPUS_POLICY));
    let o = ws.gate(&["check", "--json", "__gate_panic_for_tests", "{}"]);
    assert_eq!(o.status.code(), Some(4), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    assert_eq!(v["layer"], "error");
    assert_eq!(v["decision"], "deny");
}

#[test]
fn check_refuses_duplicate_keys() {
    let ws = Ws::new(Some(CORPUS_POLICY));
    let o = ws.gate(&["check", "bash", r#"{"command":"rm x","command":"ls"}"#]);
    assert_eq!(o.status.code(), Some(2), "{}", out(&o));
    assert!(err(&o).contains("duplicate key `command`"), "{}", err(&o));
}

#[test]
fn man_prints_a_subcommand_page_and_host_yaml_5() {
    let ws = Ws::new(None);
    let run = ws.gate(&["man", "run"]);
    assert_eq!(run.status.code(), Some(0), "{}", err(&run));
    let committed = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("man/gate-run.1")).unwrap();
    assert_eq!(out(&run), committed, "`gate man run` prints man/gate-run.1");
    let page = ws.gate(&["man", "host.yaml"]);
    assert!(out(&page).starts_with(".TH host.yaml 5 "), "{}", out(&page));
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("man/host.yaml.5");
    assert_eq!(std::fs::read_to_string(file).unwrap(), out(&page), "man/host.yaml.5 exists and is current");
    let main = ws.gate(&["man"]);
    assert!(out(&main).contains(".TH gate 1"), "{}", out(&main));
    let bad = ws.gate(&["man", "nope"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(err(&bad).contains("pages: run, check") && err(&bad).contains("host.yaml"), "{}", err(&bad));
}

#[test]
fn config_is_accepted_after_the_approvals_action_and_the_list_shows_times() {
    let ws = Ws::new(None);
    std::fs::create_dir(ws.path().join("proj")).unwrap();
    std::fs::write(ws.path().join("proj/host.yaml"), CORPUS_POLICY).unwrap();
    let store = ws.path().join("proj/.gate/approvals.yaml");
    gate::always::add(&store, &["Bash(npm install *)".into()], "bash $ npm install left-pad").unwrap();
    for args in [["approvals", "list", "-c", "proj/host.yaml"], ["approvals", "-c", "proj/host.yaml", "list"]] {
        let o = ws.gate(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", err(&o));
        let text = out(&o);
        let header = text.lines().next().unwrap();
        assert!(header.contains("approved at") && header.contains("pattern"), "{text}");
        let row = text.lines().nth(1).unwrap();
        // The "approved at" column holds a time (`2026-11-22 04:27:24 UTC`), then the pattern
        // and the call it was approved for.
        let at = header.find("approved at").unwrap();
        let time = &row[at..at + 23];
        assert!(
            time.len() == 23 && time.as_bytes()[4] == b'-' && time.as_bytes()[13] == b':' && time.ends_with(" UTC"),
            "{time:?} in {text}"
        );
        assert!(row.contains("Bash(npm install *)") && row.contains("npm install left-pad"), "{text}");
    }
    let revoke = ws.gate(&["approvals", "clear", "--config", "proj/host.yaml"]);
    assert_eq!(revoke.status.code(), Some(0), "{}", err(&revoke));
    assert!(gate::always::load(&store).unwrap().is_empty());
}

#[test]
fn yaml_syntax_errors_are_located_in_plain_words_and_do_not_hide_the_rest() {
    // A tab on line 2 is reported at line 2 (the parser says line 1), and the unknown key on
    // line 3 is still reported.
    let ws = Ws::new(Some("version: 1\n\tmode: plan\nmod: x\n"));
    let o = ws.gate(&["validate"]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert!(e.contains("host.yaml:2:1: a tab in the indentation (YAML indents with spaces only)"), "{e}");
    assert!(e.contains("host.yaml:3:1: unknown key `mod` in the policy (did you mean `mode`?)"), "{e}");
    assert!(e.contains("gate: 2 errors in host.yaml"), "{e}");
    // An open quote and an open bracket are reported where they open, each, with the rest.
    let ws = Ws::new(Some("version: 1\nmode: 'plan\nworkspace: .\nsafe_tools: [read_file\nskills: {}\nmod: x\n"));
    let e = err(&ws.gate(&["validate"]));
    assert!(e.contains("host.yaml:2:7: the quote `'` opened here is not closed on its line"), "{e}");
    assert!(e.contains("host.yaml:4:13: the `[` opened here is not closed by `]`"), "{e}");
    assert!(e.contains("host.yaml:6:1: unknown key `mod`"), "{e}");
    // Parser jargon is translated.
    let ws = Ws::new(Some("version: 1\npermissions:\n  allow:\n    - Bash(ls)\n   - Bash(pwd)\n"));
    let e = err(&ws.gate(&["validate"]));
    assert!(e.contains("host.yaml:5:4: this line is not indented like the lines around it"), "{e}");
    assert!(!e.contains("did not find expected key"), "{e}");
    let ws = Ws::new(Some("version: 1\npermissions:\n  deny:\n    - *.pem\n"));
    let e = err(&ws.gate(&["validate"]));
    assert!(e.contains("host.yaml:4:7:") && e.contains("put the value in quotes"), "{e}");
    // `gate check` and `gate run` report the same way.
    let ws = Ws::new(Some("version: 1\n\tmode: plan\n"));
    let o = ws.gate(&["check", "Bash(ls)"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("host.yaml:2:1: a tab in the indentation"), "{}", err(&o));
}

#[test]
fn check_names_the_policy_file_or_the_built_in_defaults() {
    let ws = Ws::new(Some(CORPUS_POLICY));
    let o = ws.gate(&["check", "Bash(git status)"]);
    assert!(out(&o).contains("  policy: host.yaml\n"), "{}", out(&o));
    let o = ws.gate(&["check", "--json", "Bash(git status)"]);
    let text = out(&o);
    // The contract's fields first, in their order; `policy` last.
    assert!(text.starts_with(r#"{"decision":"allow","layer":"safe","rule":null,"reason":"#), "{text}");
    assert!(text.trim_end().ends_with(r#","policy":"host.yaml"}"#), "{text}");
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["decision", "layer", "rule", "reason", "parts", "always", "policy"]);
    // In an empty directory: the built-in defaults, said so.
    let empty = Ws::new(None);
    let o = empty.gate(&["check", "Bash(git status)"]);
    assert!(out(&o).contains("policy: built-in defaults (no ./host.yaml"), "{}", out(&o));
    assert!(out(&o).contains("`gate init` writes one"), "{}", out(&o));
    let o = empty.gate(&["check", "--json", "Bash(git status)"]);
    assert!(out(&o).trim_end().ends_with(r#","policy":null}"#), "{}", out(&o));
    // Another file with -c.
    std::fs::write(empty.path().join("p.yaml"), CORPUS_POLICY).unwrap();
    let o = empty.gate(&["check", "-c", "p.yaml", "Bash(git status)"]);
    assert!(out(&o).contains("  policy: p.yaml\n"), "{}", out(&o));
}

#[test]
fn hints_for_common_mistakes() {
    let ws = Ws::new(Some(CORPUS_POLICY));
    // `gate run` without `--` before the agent.
    let o = ws.gate(&["run", "python3", "agent.py"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("tip: put `--` before the agent's command: gate run -- python3 agent.py"), "{}", err(&o));
    let o = ws.gate(&["run", "--strict", "--mode", "plan", "my agent", "--flag"]);
    assert!(
        err(&o).contains("gate run --strict --mode plan -- 'my agent' --flag"),
        "options stay before `--`, the agent's words after it: {}",
        err(&o)
    );
    // `gate check bash 'npm test'`: JSON was expected.
    let o = ws.gate(&["check", "bash", "npm test"]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert!(e.contains("not valid JSON"), "{e}");
    assert!(e.contains(r#"tip: ARGUMENTS_JSON is a JSON object: gate check bash '{"command":"npm test"}'"#), "{e}");
    assert!(e.contains("gate check 'bash(npm test)'"), "{e}");
    let e = err(&ws.gate(&["check", "write", "docs/a.md"]));
    assert!(e.contains(r#"gate check write '{"file_path":"docs/a.md"}'"#), "{e}");
    // `gate check 'git status'`: a command without its tool.
    let e = err(&ws.gate(&["check", "git status"]));
    assert!(e.contains("tip: a shell command is written in rule syntax: gate check 'Bash(git status)'"), "{e}");
}

#[test]
fn check_json_names_the_patterns_always_would_store() {
    // SPEC 1: `gate check --json` carries "always", as the prompt and the web page show it.
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("host.yaml"), "version: 1\npermissions:\n  deny: [ \"Bash(rm *)\" ]\n").unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gate"))
        .current_dir(dir.path())
        .args(["check", "--json", "Bash(npm install)"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["always"], serde_json::json!(["Bash(npm install *)"]), "{v}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gate"))
        .current_dir(dir.path())
        .args(["check", "--json", "Bash(rm -rf x)"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["always"], serde_json::json!([]), "a denied call is never answered always: {v}");
}
