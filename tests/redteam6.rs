//! The sixth red team's findings (issue 15, 2026-11-26): globs matched through links, glob text
//! kept in variables and defaults, and the shell state bash keeps apart. Each regression goes
//! through the real binary (`gate check --json`) and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use std::path::Path;

use serde_json::{json, Value};

const POLICY: &str = "version: 1\npermissions:\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Write(**/.env*)\" ]\n";

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

/// The decision of `command` in a workspace that also holds `lnk` -> `/etc`, `pw` ->
/// `/etc/passwd` and `sl` -> `src`.
fn check_with_links(command: &str) -> Value {
    let dir = check_common::workspace(POLICY);
    let ws = dir.path();
    link(Path::new("/etc"), &ws.join("lnk"));
    link(Path::new("/etc/passwd"), &ws.join("pw"));
    link(Path::new("src"), &ws.join("sl"));
    check_common::check_in_dir(ws, "Bash", &json!({ "command": command }))
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
        let reason = d["reason"].as_str().unwrap();
        assert!(reason.contains("leads to `/etc") || reason.contains("several places"), "{c}: {d}");
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

/// The corpus policy's verdicts, as a case set decides them.
fn assert_not_allowed(commands: &[&str]) {
    check_common::assert_none_allowed_with(POLICY, commands)
}

#[test]
fn a_function_that_shadows_a_builtin_leaves_the_builtin_decided_too() {
    assert_all(
        "deny",
        &["if false; then let(){ :; }; fi; let 'a[$(rm victim)]=1'", "let(){ :; }; unset -f let; let 'x=a[$(rm y)]'"],
    );
    assert_not_allowed(&[
        "bash -c 'if false; then shift(){ :; }; fi; shift; \"$1\" victim' _ true rm",
        "bash -c 'shift(){ :; }; unset -f shift; shift; \"$1\" victim' _ true rm",
        "bash -c 'false && set(){ :; }; set -- rm victim; \"$1\" \"$2\"' _ true x",
        "bash -c 'shift(){ :; }; POSIXLY_CORRECT=1; shift; \"$1\" victim' _ true rm",
    ]);
}

#[test]
fn background_lists_coprocesses_and_process_substitutions_keep_their_state_to_themselves() {
    assert_all(
        "deny",
        &[
            "x=rm; x=echo & $x victim",
            "x=rm; coproc { x=echo; }; $x victim",
            "x=rm; coproc x=echo; $x victim",
            "x=rm; cat <(x=echo); $x victim",
            "x=rm; : >(x=echo); $x victim",
        ],
    );
    assert_not_allowed(&["set -e; cd src & cat ../outside/secret", "cd src || exit & cat ../outside/secret"]);
}

#[test]
fn case_fall_through_carries_a_branchs_state_into_the_next() {
    assert_all(
        "deny",
        &["x=echo; case a in a) x=rm ;& b) $x victim ;; esac", "x=echo; case a in a) x=rm ;;& *) $x victim ;; esac"],
    );
    assert_not_allowed(&["cd src || exit; case a in a) cd .. ;& b) cat ../outside/secret ;; esac"]);
}

#[test]
fn a_later_redirection_of_standard_input_replaces_the_here_string() {
    assert_not_allowed(&[
        "bash <<< 'echo hi' < docs/x.md",
        "bash <<< 'echo hi' 3<docs/x.md 0<&3",
        "bash <<< 'echo hi' 0<>docs/x.md",
        "sh <<EOF 0<docs/x.md\necho hi\nEOF",
    ]);
    // The last one wins, as in bash.
    assert_all("allow", &["bash < /dev/null <<< 'echo hi'", "git status < /dev/null", "wc -l < /dev/null"]);
}

#[test]
fn an_unquoted_here_document_loses_its_backslashes_before_the_shell_reads_it() {
    assert_all(
        "deny",
        &["sh <<EOF\necho \\\\'\nrm victim\necho \\\\'\nEOF", "bash <<EOF\necho \\\\'\nrm victim\necho \\\\'\nEOF"],
    );
    // Quoted, the text is as written: one echo of a quoted string.
    assert_all("allow", &["sh <<'EOF'\necho \\\\'\nrm victim\necho \\\\'\nEOF"]);
}

#[test]
fn an_integer_attribute_given_later_reaches_the_code_that_assigns_it() {
    assert_not_allowed(&[
        "f(){ x='a[$(rm victim)]'; }; declare -i x; f",
        "while :; do x='a[$(rm victim)]'; declare -i x; [[ -e victim ]] || break; done",
    ]);
}

#[test]
fn arithmetic_that_assigns_ifs_changes_how_later_words_split() {
    assert_not_allowed(&[
        "x=victim0-delete; ((IFS=0)); find $x",
        "x=victim0-delete; a[IFS=0]=1; find $x",
        "x=victim0-delete; echo ${x:IFS=0:0}; find $x",
        "x=src/a.rs1../outside/secret; ((IFS=1)); cat $x",
    ]);
}

#[test]
fn positional_parameters_are_the_functions_own_and_change_in_loops_evals_and_traps() {
    assert_not_allowed(&[
        "bash -c 'echo(){ \"$1\" \"$2\"; }; echo rm victim' _ true x",
        "sh -c 'ls(){ \"$1\" \"$2\"; }; ls rm victim' _ true x",
        "bash -c 'echo(){ cat \"$1\"; }; echo ../outside/secret' _ src/a.rs",
        "sh -c 'while [ -e victim ]; do \"$1\" victim; shift; done' _ true rm",
        "sh -c 'while [ $# -gt 0 ]; do cat \"$1\"; shift; done' _ src/a.rs ../outside/secret",
        "sh -c 'eval \"set -- rm victim\"; \"$1\" \"$2\"' _ true x",
        "bash -c 'eval shift; \"$1\" victim' _ true rm",
        "bash -c 'trap \"set -- rm victim\" DEBUG; \"$1\" \"$2\"' _ true x",
    ]);
}

#[test]
fn function_bodies_and_trap_actions_are_decided_where_they_run() {
    assert_not_allowed(&[
        "cd src || exit; ls(){ cat ../outside/secret; }; cd .. || exit; ls",
        "cd src || exit; trap 'cat ../outside/secret' EXIT; cd .. || exit",
        "cd docs || exit; ls(){ echo pwned > a.md; }; cd ../src || exit; ls",
    ]);
    assert_all("allow", &["trap 'echo done' EXIT; cd src && ls"]);
}

#[test]
fn a_call_of_a_function_whose_definition_certainly_ran_is_decided_by_its_body() {
    assert_all(
        "allow",
        &[
            "f() { ls; }; f",
            "function f { git status; }; f",
            "main() { git status; git log -1; }; main \"$@\"",
            "cleanup() { echo bye; }; trap cleanup EXIT; git status",
            "f(){ ls; }; x=$(f); echo \"$x\"",
            "f(){ ls; }; cd src && f",
        ],
    );
    // A definition that may not have run (a branch, `&&`, a subshell, a background list, a
    // pipeline stage, another function's body, `unset -f`), or a wrapper that skips functions:
    // the name may be a program on PATH.
    assert_all(
        "ask",
        &[
            "if true; then f(){ ls; }; fi; f",
            "true && f(){ ls; }; f",
            "(f(){ ls; }); f",
            "f(){ ls; } & f",
            "f(){ ls; } | cat; f",
            "f(){ g(){ ls; }; }; g",
            "f(){ ls; }; unset -f f; f",
            "f(){ ls; }; command f",
            "f(){ cat \"$1\"; }; f /etc/passwd",
        ],
    );
    assert_all("deny", &["f(){ ls; }; f $(rm x)", "f(){ rm -rf x; }; f"]);
    // Another shell process has none of this shell's functions: there the name is a program.
    assert_all(
        "deny",
        &[
            "rm(){ :; }; bash -c 'rm -rf x'",
            "rm(){ :; }; sh -c 'rm -rf x'",
            "rm(){ :; }; eval 'bash -c \"rm -rf x\"'",
            "rm(){ :; }; find . -exec sh -c 'rm -rf x' \\;",
            "rm(){ :; }; command rm -rf x",
            "rm(){ :; }; unset -f rm; rm -rf x",
            "if false; then rm(){ :; }; fi; rm -rf x",
        ],
    );
}

/// The decision of `tool` with `args` under `policy`, in a workspace `setup` prepared.
fn check_in(policy: &str, setup: impl Fn(&Path), tool: &str, args: &Value) -> Value {
    let dir = check_common::workspace(policy);
    setup(dir.path());
    check_common::check_in_dir(dir.path(), tool, args)
}

fn bash_in(setup: impl Fn(&Path), command: &str) -> Value {
    let policy = "version: 1\npermissions:\n  deny:\n    - Bash(rm *)\n    - { tool: read, when: { file_path: \"secrets/**\" } }\n";
    check_in(policy, setup, "Bash", &json!({ "command": command }))
}

#[test]
fn review_every_link_a_glob_matches_is_decided_not_only_the_first() {
    let setup = |ws: &Path| {
        std::fs::create_dir_all(ws.join("secrets")).unwrap();
        std::fs::write(ws.join("secrets/k"), "KEY\n").unwrap();
        link(Path::new("src/a.rs"), &ws.join("z0"));
        link(Path::new("secrets/k"), &ws.join("z1"));
    };
    for c in ["cat z*", "wc -l z?"] {
        let d = bash_in(setup, c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
}

#[test]
fn review_a_link_after_a_globs_last_pattern_is_followed() {
    let pw = |ws: &Path| link(Path::new("/etc/passwd"), &ws.join("src/pw"));
    for c in ["cat */pw", "cat s*/pw"] {
        let d = bash_in(pw, c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
    let deep = |ws: &Path| {
        std::fs::create_dir_all(ws.join("x/y")).unwrap();
        link(Path::new("/etc"), &ws.join("x/y/l"));
    };
    for c in ["cat x/*/l/passwd", "cat */y/l/passwd"] {
        let d = bash_in(deep, c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
}

#[test]
fn review_posix_classes_and_globstar_match_links_as_bash_does() {
    let d = bash_in(|ws| link(Path::new("/etc/passwd"), &ws.join("pw")), "cat [[:alpha:]]w");
    assert_ne!(d["decision"], "allow", "{d}");
    let nested = |ws: &Path| {
        std::fs::create_dir_all(ws.join("d/e")).unwrap();
        link(Path::new("/etc/passwd"), &ws.join("d/e/pw"));
    };
    let d = bash_in(nested, "shopt -s globstar; cat **/pw");
    assert_ne!(d["decision"], "allow", "{d}");
}

#[test]
fn review_arithmetic_in_tests_and_array_keys_that_assigns_ifs() {
    assert_not_allowed(&[
        "x=victim0-delete; [[ IFS=0 -eq 0 ]]; find $x",
        "x=victim0-delete; [[ 0 -ne IFS=0 ]]; find $x",
        "x=victim0-delete; a=([IFS=0]=x); find $x",
    ]);
}

#[test]
fn review_text_that_only_looks_like_a_path_is_no_file_for_an_allowed_mcp_tool() {
    let policy = "version: 1\npermissions:\n  allow: [ \"mcp__http__*\", \"mcp__gh__*\" ]\n";
    for (tool, args) in [
        ("mcp__http__request", json!({ "route": "/api/users" })),
        ("mcp__gh__create_issue", json!({ "labels": ["~bug"] })),
        ("mcp__gh__list", json!({ "sort": "~updated", "deep": [[[[[[[[[[[[[[{ "x": 1 }]]]]]]]]]]]]]] })),
    ] {
        let d = check_in(policy, |_| {}, tool, &args);
        assert_eq!(d["decision"], "allow", "{tool} {args}: {d}");
    }
    // A field named like a path still is one.
    let d = check_in(policy, |_| {}, "mcp__gh__get", &json!({ "file_path": "/etc/passwd" }));
    assert_ne!(d["decision"], "allow", "{d}");
}
