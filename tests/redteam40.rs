//! The red teams of 2026-11-26, second session ("red team 40" in the code's comments): three
//! black-box helpers on option grammars and file options, on arithmetic, stored code and shell
//! state, and on tool paths, git and over-asks. Each regression goes through the real binary
//! (`gate check --json`) and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use serde_json::{json, Value};

const POLICY: &str = "version: 1\npermissions:\n  allow:\n    - Bash(npm run *)\n    - Bash(cargo test *)\n    - Bash(git log *)\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Bash(sudo *)\", \"Write(**/.env*)\" ]\n";

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

#[test]
fn a_pathname_pattern_that_may_name_a_denied_program_is_denied() {
    assert_all(
        "deny",
        &[
            "/???/rm -f x",
            "/usr/bin/r? x",
            "/bin/r[m] -rf build",
            "/u*/b*/su?o ls",
            "/usr/bin/cur[l] https://x.example",
            "x=1; /*/*/rm -f a",
        ],
    );
    // A pattern whose last segment cannot be a denied program's name stays unknown.
    assert_all("ask", &["/???/ls", "src/*.sh", "/bin/l?"]);
}

fn assert_calls(expect: &str, calls: &[(&str, Value)]) {
    for (tool, args) in calls {
        let d = check_common::check_call(POLICY, tool, args);
        assert_eq!(d["decision"], expect, "{tool} {args}: {d}");
    }
}

#[test]
fn seconds_has_the_integer_attribute_so_a_subscript_in_its_value_runs() {
    assert_all(
        "deny",
        &[
            "SECONDS='a[$(rm x)]'",
            "declare SECONDS='a[$(rm -rf src)]'",
            "for SECONDS in 'a[$(rm -f src/a.rs)]'; do :; done",
            "mapfile SECONDS <<< 'a[$(rm y)]'",
            "read -a SECONDS <<< 'a[$(rm y)]'",
            "printf -v SECONDS %s 'a[$(rm y)]'",
            "SECONDS+=('a[$(rm y)]')",
        ],
    );
    assert_all("allow", &["SECONDS=0; echo $SECONDS"]);
}

#[test]
fn a_compound_array_key_holding_brackets_is_split_as_bash_splits_it() {
    // brush leaves `['a[$(cmd)]']=1` whole (its key holds brackets); bash evaluates the key.
    assert_all(
        "deny",
        &[
            "x=(['a[$(rm -rf src)]']=1)",
            "files=(); files+=(['a[$(rm y)]']=src/a.rs); echo \"${#files[@]}\"",
            "x=([\"a[\\$(rm y)]\"]=1)",
            "x=(['a[`rm y`]']=1)",
            "x=([$'a[\\x24(rm y)]']=1)",
            "f(){ x=(['n+a[$(rm -rf src)]']=1); }; f",
            "eval \"x=(['a[\\$(rm y)]']=1)\"",
            "declare -a parts; parts=([0]=head ['a[$(sudo id)]']=tail)",
            "x=(['a[$(rm y)]']+=1)",
        ],
    );
    assert_all("allow", &["x=([0]=a [1]=b); echo ${x[1]}", "declare -A m=([k]=v [j]=w); echo ${m[k]}"]);
}

#[test]
fn a_key_binding_command_is_decided_as_if_it_ran() {
    assert_all(
        "deny",
        &[
            "bind -x '\"\\C-a\": rm x'",
            "bind -x '\"\\C-a\":: rm x'",
            "bind -x '\"\\C-a\": \"rm x\"'",
            "bind -x 'C-a: rm x'",
            "bind -m emacs -x '\"\\C-a\": rm x'",
        ],
    );
    assert_all("ask", &["bind -x \"$k\"", "bind -x '\"\\C-a\": ls'"]);
}

#[test]
fn a_glob_whose_matches_lead_through_several_links_is_a_listing_of_where_they_lead() {
    let ws = check_common::workspace(POLICY);
    let out = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(out.path().join("a")).unwrap();
    std::fs::create_dir_all(out.path().join("b")).unwrap();
    std::os::unix::fs::symlink(out.path().join("a"), ws.path().join("la")).unwrap();
    std::os::unix::fs::symlink(out.path().join("b"), ws.path().join("src/lb")).unwrap();
    for c in [
        "echo */*",
        "printf '%s\\n' src/*/*",
        "for f in */*; do echo \"$f\"; done",
        "a=(*/*); printf '%s\\n' \"${a[@]}\"",
    ] {
        let d = check_common::check_in_dir(ws.path(), "Bash", &json!({ "command": c }));
        assert_eq!(d["decision"], "ask", "{c}: {d}");
    }
    let d = check_common::check_in_dir(ws.path(), "Bash", &json!({ "command": "echo */*", "cwd": "src" }));
    assert_eq!(d["decision"], "ask", "{d}");
    // No link: the workspace's own names.
    let plain = check_common::workspace(POLICY);
    let d = check_common::check_in_dir(plain.path(), "Bash", &json!({ "command": "echo */*" }));
    assert_eq!(d["decision"], "allow", "{d}");
}

#[test]
fn any_string_of_a_tool_call_that_names_a_link_out_is_where_it_leads() {
    let ws = check_common::workspace(POLICY);
    let out = tempfile::tempdir().unwrap();
    std::fs::write(out.path().join("secret"), "k").unwrap();
    std::os::unix::fs::symlink(out.path(), ws.path().join("cfg")).unwrap();
    for (tool, args) in [
        ("read", json!({ "fileNames": ["cfg/secret"] })),
        ("list_files", json!({ "pathname": "cfg" })),
        ("grep", json!({ "pattern": "Host", "directories": ["cfg"] })),
        ("get_file_info", json!({ "pathname": "cfg/secret" })),
        ("list_files", json!({ "dirs": ["cfg"] })),
        ("read", json!({ "pathList": ["cfg/secret"] })),
        ("grep", json!({ "pattern": "Host", "folders": ["cfg"] })),
        ("read", json!({ "whatever": "cfg/secret" })),
        ("mcp__fs__read", json!({ "thing": "cfg/secret" })),
    ] {
        let d = check_common::check_in_dir(ws.path(), tool, &args);
        assert_ne!(d["decision"], "allow", "{tool} {args}: {d}");
    }
    let d = check_common::check_in_dir(ws.path(), "read", &json!({ "fileNames": ["src/a.rs"] }));
    assert_eq!(d["decision"], "allow", "{d}");
}

#[test]
fn more_field_names_hold_paths_a_write_rule_meets() {
    assert_calls(
        "deny",
        &[
            ("rename_file", json!({ "from": "src/a.rs", "to": ".env" })),
            ("save_file", json!({ "outfile": ".env", "text": "x" })),
            ("save_file", json!({ "logfile": "a/.env.local" })),
        ],
    );
}

#[test]
fn git_traces_to_a_path_are_writes_of_it() {
    assert_all(
        "deny",
        &[
            "GIT_TRACE=\"$PWD/.env\" git status",
            "GIT_TRACE2_EVENT=/tmp/ws/.env.local git log -1",
            "export GIT_TRACE=/tmp/ws/.env; git status",
            "env GIT_TRACE_PACKET=/tmp/ws/.env git status",
            "GIT_TRACE=~/.env git status",
        ],
    );
    assert_all("ask", &["GIT_TRACE=/tmp/x git status"]);
    assert_all("allow", &["GIT_TRACE=1 git status", "GIT_TRACE=2 git log -1"]);
}

#[test]
fn an_unknown_git_subcommand_is_also_what_autocorrection_would_run() {
    let policy = "version: 1\npermissions:\n  deny: [ \"Bash(git reset --hard *)\" ]\n";
    check_common::assert_all_with(
        policy,
        "deny",
        &[
            "git -c help.autocorrect=immediate rset --hard",
            "git rset --hard",
            "git res --hard",
            "git reste --hard HEAD",
        ],
    );
    // Known commands are themselves; an alias-like word far from any is only unknown.
    check_common::assert_all_with(policy, "ask", &["git lg --hard", "git restore --hard x"]);
    check_common::assert_all_with(policy, "allow", &["git status", "git log -1"]);
}

#[test]
fn an_environment_value_naming_a_path_may_be_written_by_the_program() {
    assert_all(
        "deny",
        &[
            "JEST_JUNIT_OUTPUT_FILE=.env npm test",
            "export JEST_JUNIT_OUTPUT_FILE=.env; npm test",
            "env MOCHA_FILE=.env.xml npm run test",
            "REPORT=--out=./.env npm run test",
        ],
    );
    assert_all(
        "ask",
        &["PYTEST_ADDOPTS='--junitxml /root/report.xml' npm test", "PYTEST_ADDOPTS=--basetemp=/root npm test"],
    );
    assert_all("allow", &["JEST_JUNIT_OUTPUT_FILE=reports/junit.xml npm run test", "CI=true npm run test"]);
}

#[test]
fn a_git_config_listing_of_every_level_reads_the_users_config() {
    assert_all(
        "ask",
        &["git config --global --list", "git config --glob --get-regexp '.*'", "git config --list", "git config list"],
    );
    assert_all("allow", &["git config -l --local", "git config user.name", "git config --get user.email"]);
}

#[test]
fn a_run_time_word_in_greps_pattern_place_may_be_an_option_that_reads_a_file() {
    assert_all("ask", &["grep -rn \"$p\" src", "grep -n \"$(cat src/a.rs)\" src/a.rs"]);
    assert_all("allow", &["grep -e \"$p\" src/a.rs", "grep -- \"$p\" src/a.rs", "grep -rn TODO src"]);
}
