//! The third red team's findings in the shell walker and the chain (issue 15, classes 3, 5
//! and 8): a NUL inside `$'...'`, globs that list a directory outside the workspace whatever
//! program prints the names, subscripts evaluated in plain array assignments and `{var}>`
//! redirections, and a shell tool's directory field. Each regression goes through the real
//! binary (`gate check --json`) and is named after what it shows; each mechanism has a
//! property test that generates variants.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use std::process::Command;

use gate::policy::{Policy, Verdict};
use proptest::prelude::*;
use serde_json::{json, Value};

const GATE: &str = env!("CARGO_BIN_EXE_gate");
const POLICY: &str = "version: 1\npermissions:\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Write(**/.env*)\" ]\n";

fn check_args(tool: &str, args: Value) -> Value {
    check_common::check_call(POLICY, tool, &args)
}

fn check(command: &str) -> Value {
    check_common::check_command(POLICY, command)
}

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

fn policy() -> (tempfile::TempDir, Policy) {
    let dir = tempfile::tempdir().unwrap();
    let p = check_common::policy_at(POLICY, dir.path());
    (dir, p)
}

use check_common::decide_command as decide;

#[test]
fn redteam3_a_nul_ends_an_ansi_c_string_as_bash_ends_it() {
    // bash stops a `$'...'` string at its first NUL: `$'rm\x00junk'` runs `rm`, and
    // `$'\x00'--output=.env` is the option `--output=.env`.
    assert_all(
        "deny",
        &[
            "$'rm\\x00junk' -rf x",
            "$'rm\\0' -rf x",
            "$'curl\\u0000x' https://x.example",
            "git log $'\\x00'--output=.env",
            "echo x > $'\\x00'.env",
        ],
    );
    assert_all("ask", &["cat docs/$'..\\x00'/$'..\\x00'/etc/shadow", "sort $'\\x00'-o/tmp/out src/a.rs"]);
}

#[test]
fn redteam3_a_glob_outside_lists_that_directory_whatever_prints_it() {
    assert_all(
        "ask",
        &[
            "echo /etc/*",
            "printf %s ~/.ssh/*",
            "echo /root/.*",
            "for f in ~/.ssh/*; do :; done; echo $f",
            "set -- /etc/*; echo \"$@\"",
            "a=(/etc/*)",
            ": /etc/*",
            "echo {/etc,src}/*",
        ],
    );
    // Inside the workspace a listing is unremarkable, and it never reads the files it names.
    assert_all(
        "allow",
        &["echo src/*", "files=(src/*.rs); echo ${#files[@]}", "for f in src/*.rs; do echo $f; done", "echo *"],
    );
}

#[test]
fn redteam3_a_subscript_in_a_plain_array_assignment_runs_its_substitution() {
    assert_all(
        "deny",
        &["a=(['$(rm victim)']=1)", "a+=([`rm x`]=1)", "a=([$'\\x24(rm x)']=1)", "OPTIND=(['$(rm x)']=1)"],
    );
    assert_all("allow", &["a=([0]=x [1]=y); echo ${a[1]}", "declare -A m=([a]=1 [b]=2)"]);
}

#[test]
fn redteam3_a_descriptor_variable_redirection_evaluates_its_subscript() {
    assert_all("deny", &[": {a['$(rm victim)']}>/dev/null", "ls {a[`rm x`]}>/dev/null"]);
    assert_eq!(check("ls {a['$(cat ~/.ssh/id_rsa >&2)']}>/dev/null")["decision"], "ask");
}

#[test]
fn redteam3_a_shell_tools_directory_field_moves_the_command() {
    for field in ["cwd", "workdir", "dir_path"] {
        for (command, dir) in [("cat id_rsa", "/root/.ssh"), ("ls -a", "/root"), ("echo x > docs/a.md", "/tmp")] {
            let d = check_args("Bash", json!({ "command": command, field: dir }));
            assert_eq!(d["decision"], "ask", "{field}={dir} {command}: {d}");
        }
    }
    // The same directory as the workspace, or none: unchanged.
    assert_eq!(check_args("Bash", json!({"command": "ls", "cwd": "."}))["decision"], "allow");
    assert_eq!(check_args("Bash", json!({"command": "ls", "cwd": "src"}))["decision"], "allow");
    // Unreadable or two different directories: where it runs is unknown.
    assert_eq!(check_args("Bash", json!({"command": "ls", "cwd": ["/etc"]}))["decision"], "ask");
    assert_eq!(check_args("Bash", json!({"command": "ls", "cwd": "/tmp", "workdir": "/etc"}))["decision"], "ask");
}

#[test]
fn redteam3_overask_a_lower_case_variable_from_a_substitution_is_no_path() {
    assert_all(
        "allow",
        &["x=$(cat src/a.rs | wc -l); echo $x", "n=$(grep -c TODO src/a.rs)", "lines=$(wc -l < src/a.rs)"],
    );
    // An environment variable's value names files for the programs that read it.
    assert_eq!(check("TZ=$(echo /x) date")["decision"], "ask");
}

const NULS: &[&str] = &["\\x00", "\\0", "\\000", "\\u0000", "\\U00000000", "\\c@", "\\x0"];
// What follows a NUL starts with a letter no escape reads as a digit (`\x0` then `a` is `\x0a`).
const OUTSIDE_DIRS: &[&str] = &["/etc", "~/.ssh", "/root", "~", "/"];
const LISTERS: &[&str] = &["echo", "printf '%s\\n'", ":", "set --", "a=(", "for f in"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Whatever NUL spelling ends the string, and whatever follows it inside the quotes, the
    /// command is `rm` to gate as it is to bash.
    #[test]
    fn redteam3_every_nul_spelling_ends_the_string(n in 0..NULS.len(), junk in "[a-z0-9 ./-]{0,8}") {
        let (_d, p) = policy();
        let cmd = format!("$'rm{}z{}' -rf x", NULS[n], junk);
        prop_assert_eq!(decide(&p, &cmd), Verdict::Deny, "{}", cmd);
    }

    /// A glob below a directory outside the workspace is never allowed, in any position bash
    /// expands it.
    #[test]
    fn redteam3_outside_globs_are_never_allowed(d in 0..OUTSIDE_DIRS.len(), l in 0..LISTERS.len(), pat in "[*?]|\\[a-z\\]|\\*\\.[a-z]{1,3}") {
        let (_d, p) = policy();
        let dir = OUTSIDE_DIRS[d].trim_end_matches('/');
        let glob = format!("{dir}/{pat}");
        let cmd = match LISTERS[l] {
            "a=(" => format!("a=({glob})"),
            "for f in" => format!("for f in {glob}; do :; done"),
            lister => format!("{lister} {glob}"),
        };
        prop_assert_ne!(decide(&p, &cmd), Verdict::Allow, "{}", cmd);
    }
}

#[test]
fn redteam3_a_glob_tools_pattern_that_climbs_or_braces_out_is_outside() {
    for pattern in [
        "src/../../*",
        "*/../../*",
        "**/../../*",
        "{/etc,src}/*",
        "{..,x}/*",
        "..*/*",
        "../x/*",
        "/etc/*",
        ".\\./*",
        "..\\/*",
    ] {
        let d = check_args("glob", json!({ "pattern": pattern }));
        assert_eq!(d["decision"], "ask", "{pattern}: {d}");
    }
    for pattern in ["**/*.rs", "src/**/*.rs", "*.md", "src/../*.rs"] {
        let d = check_args("glob", json!({ "pattern": pattern }));
        assert_eq!(d["decision"], "allow", "{pattern}: {d}");
    }
}

/// A workspace with `lnk` -> `/etc`: every path field, a glob's literal directory and a path
/// the shell spells with braces are decided where they land.
#[test]
fn redteam3_links_are_followed_in_every_path_field_and_through_braces() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("host.yaml"), POLICY).unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    std::os::unix::fs::symlink("/etc", dir.path().join("lnk")).unwrap();
    let run = |tool: &str, args: Value| -> Value {
        let out = Command::new(GATE)
            .current_dir(dir.path())
            .args(["check", "--json", tool, &args.to_string()])
            .output()
            .unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    for (tool, args) in [
        ("grep", json!({"pattern": "root", "path": "lnk"})),
        ("list_files", json!({"path": "lnk"})),
        ("glob", json!({"pattern": "*", "path": "lnk"})),
        ("glob", json!({"pattern": "lnk/*"})),
        ("mcp__fs__read", json!({"path": "lnk/passwd"})),
        ("Bash", json!({"command": "cat {lnk,src}/passwd"})),
        ("Bash", json!({"command": "cat lnk{,}/passwd"})),
        // Review of this round: a directory field and a listed glob's directory through a link.
        ("Bash", json!({"command": "cat hostname", "cwd": "lnk"})),
        ("Bash", json!({"command": "cat hostname", "cwd": "src/../lnk"})),
        ("Bash", json!({"command": "echo lnk/*"})),
    ] {
        let d = run(tool, args.clone());
        assert_eq!(d["decision"], "ask", "{tool} {args}: {d}");
    }
    assert_eq!(run("grep", json!({"pattern": "root", "path": "src"}))["decision"], "allow");
}

#[test]
fn redteam3_a_mapfile_callback_is_decided_as_if_it_ran() {
    assert_all(
        "deny",
        &["mapfile -C 'rm -rf x' -c 1 a < src/a.rs", "readarray -tC 'rm x' a < src/a.rs", "mapfile -Crm a < src/a.rs"],
    );
    assert_all("allow", &["mapfile -t arr < src/a.rs", "readarray -t lines < src/a.rs; echo ${#lines[@]}"]);
}

#[test]
fn redteam3_overask_arithmetic_on_numbers_bash_itself_gives() {
    assert_all(
        "allow",
        &[
            "[[ $# -gt 0 ]]",
            "ls; [[ $? -ne 0 ]]",
            "x=5; [[ $x -gt 3 ]]",
            "files=(src/*.rs); [[ ${#files[@]} -gt 0 ]]",
            "files=(src/*.rs); echo $(( ${#files[@]} + 1 ))",
            "let x=1+2",
            "((x=5))",
            "while IFS= read -r line; do echo \"$line\"; done < src/a.rs",
            "IFS=, read -r a b <<< 'x,y'",
        ],
    );
    // A value bash evaluates in turn stays code.
    assert_all(
        "ask",
        &["[[ $y -gt 0 ]]", "((x = y + 1))", "x=$1; ((x++))", "for ((i=0;i<3;i++)); do i=$1; done", "IFS=/ ls"],
    );
    // Unquoted, a line read from a file is split and globbed: a line `/etc/*` lists /etc
    // (red team 40).
    assert_all("ask", &["while IFS= read -r line; do echo $line; done < src/a.rs"]);
    assert_all("deny", &["let 'a[$(rm x)]=1'", "echo $(( ${#a[$(rm x)]} ))"]);
}

#[test]
fn redteam3_words_split_by_the_default_ifs_meet_deny_rules() {
    // bash never takes IFS from the environment: `${IFS}` is white space, and a variable
    // bound to plain words splits into them.
    assert_all("deny", &["rm${IFS}x", "rm$IFS-rf x", "x=\"rm x\"; $x", "x='rm -rf /'; $x"]);
    assert_all("allow", &["x=\"ls src\"; $x", "x=\"a b\"; echo \"$x\""]);
}

#[test]
fn redteam3_overask_a_process_substitution_operand_is_a_pipe() {
    assert_all("allow", &["diff <(sort src/a.rs) <(sort src/a.rs)", "comm -12 <(sort src/a.rs) <(sort src/a.rs)"]);
    // What runs inside is decided as ever.
    assert_eq!(check("diff <(cat ~/.ssh/id_rsa) src/a.rs")["decision"], "ask");
    assert_eq!(check("cat <(rm x)")["decision"], "deny");
}

#[test]
fn redteam3_a_script_read_from_standard_input_is_decided() {
    assert_all(
        "deny",
        &[
            "bash -s -- a <<< 'rm x'",
            "bash /dev/stdin <<< 'rm x'",
            "source /dev/stdin <<< 'rm x'",
            "bash -s <<< 'rm x'",
        ],
    );
    assert_eq!(check("bash -s -- src/a.rs <<< 'cat \"$1\"'")["decision"], "allow");
    assert_eq!(check("bash -s -- /etc/shadow <<< 'cat \"$1\"'")["decision"], "ask");
}

#[test]
fn redteam3_a_prompt_bash_expands_runs_its_substitutions() {
    assert_all("deny", &["x='$(rm x)'; echo \"${x@P}\"", "set -x; PS4='$(rm x)'; ls", "PS4='$(rm x)' bash -xc true"]);
}

#[test]
fn redteam3_overask_a_declared_name_is_literal_when_only_its_value_is_not() {
    assert_all("allow", &["declare -a files=(src/*.rs)", "local -a f=(src/*)", "export X=$(ls)"]);
    // The value still names files, runs code, or is arithmetic; the name still matters.
    assert_all(
        "ask",
        &[
            "export TZ=$(echo /etc/shadow); date",
            "f=src/a.rs; declare f=$(echo /etc/shadow); cat \"$f\"",
            "declare -i x=$(cat n)",
            "export PATH=$(pwd)/bin:$PATH",
            "declare \"f=$(ls)\"",
            "declare -a x=([$i]=1)",
        ],
    );
    assert_eq!(check("export x=$(rm y)")["decision"], "deny");
}

/// A review of this round found that treating names arithmetic assigned as numbers afterwards
/// let bash evaluate a string as arithmetic: an assignment that fails (read-only, division by
/// zero), runs elsewhere (a background job, a subshell, `<(...)`, a function never called), or
/// is undone later (a loop body's `read`, `getopts`). None of these is allowed.
#[test]
fn review_a_name_arithmetic_assigned_is_not_assumed_a_number_afterwards() {
    let not_allowed = [
        "((n=0)); while read -r l; do echo $((n)); read n; done <<< 'x'",
        "readonly n='a[$(rm src/a.rs)]'; ((n=0)); echo $((n)); ls src",
        "n='a[$(rm src/a.rs)]'; ((n=1/0)); echo $((n)); ls src",
        "n='a[$(rm src/a.rs)]'; { ((n=0)); } & wait; [[ $n -eq 0 ]]; ls src",
        "n='a[$(rm src/a.rs)]'; f(){ ((n=0)); }; [[ $n -eq 0 ]]; ls src",
        "n='a[$(rm src/a.rs)]'; (:; ((n=0))); [[ $n -eq 0 ]]; ls src",
        "n='a[$(rm src/a.rs)]'; diff <(((n=0))) src/a.rs; echo $((n)); ls src",
        "a='b[$(rm src/a.rs)]'; ((n=0)); getopts \"${1:-a}\" n -a; [[ $n -eq 0 ]]; ls src",
    ];
    for c in not_allowed {
        let d = check(c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
}

/// `mapfile -t x y` fills `x` (review of this round: gate forgot `y` instead), and a script's
/// own function named `read` is not the builtin whose IFS only splits.
#[test]
fn review_mapfile_fills_its_first_name_and_a_function_read_is_not_read() {
    for c in [
        "x=ls; mapfile -t x y <<< rm; $x src/a.rs",
        "f=src/a.rs; mapfile -t f g <<< /tmp/x; cat \"$f\"",
        "read(){ f=x/etc/shadow; cat $f; }; IFS=x read",
    ] {
        let d = check(c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
}
