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
    check_common::assert_calls_with(POLICY, expect, calls)
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

#[test]
fn an_unquoted_expansion_of_a_value_the_command_wrote_is_a_listing_of_what_it_names() {
    // bash splits and globs an unquoted `$x` or `$(...)`: a value holding `/etc/*` lists /etc.
    assert_all(
        "ask",
        &[
            "x=$(base64 -d <<< L2V0Yy8q); echo $x",
            "echo $(tr A-Z a-z <<< '/ETC/*')",
            "read -r a <<< '/etc/*'; echo $a",
            "printf -v x '%s' '/root/*'; echo $x",
            "x=${y:-/etc/*}; echo $x",
            "x=/etc; x+=/*; echo $x",
            "mapfile -t a <<< '/etc/*'; echo ${a[0]}",
            "bash -c 'echo $0' '/etc/*'",
            "while read -r l; do echo $l; done <<< ~/.ssh/*",
            "echo $(echo '/etc/*')",
            "a=('/etc/*'); echo ${a[0]}",
            "a=(x y); a+=('/etc/*'); echo ${a[2]}",
            "x=$(cat src/a.rs); echo $x",
        ],
    );
    // Numbers, ids, names a listing printed, literal text without a glob; quoted values.
    assert_all(
        "allow",
        &[
            "echo $(date)",
            "echo $(date +%Y-%m-%d)",
            "x=$(git rev-parse HEAD); echo $x",
            "for f in $(git ls-files); do echo $f; done",
            "for i in $(seq 1 3); do echo $((i*i)); done",
            "n=$((3+4)); echo $n",
            "echo $(git ls-files | wc -l)",
            "count=$(grep -c fn src/a.rs); echo $count",
            "declare -i n; n=5; echo $n",
            "declare -A m=([a]=1 [b]=2); echo ${m[a]}",
            "a=([0]=x [1]=y); echo ${a[1]}",
            "x=$(cat src/a.rs); echo \"$x\"",
            "echo $(echo \"#\")",
            "echo $HOME $PATH",
        ],
    );
}

#[test]
fn stored_names_that_run_another_program_are_decided_as_if_it_ran() {
    assert_all(
        "deny",
        &[
            "shopt -s expand_aliases; alias ls='rm -rf'\nls src",
            "hash -p /bin/rm ls; ls src/a.rs",
            "BASH_CMDS[ls]=/bin/rm; ls src/a.rs",
        ],
    );
    assert_all("ask", &["alias ll='ls -la'"]);
}

#[test]
fn a_trap_action_that_changes_directory_is_not_walked_from_inside_itself() {
    // Was "commands nested more than 16 levels deep"; now decided as any `cd -` is.
    let d = check_common::check_command(POLICY, "trap 'cd - >/dev/null' EXIT; cd src && ls");
    assert!(!d["reason"].as_str().unwrap_or("").contains("nested"), "{d}");
    assert_all("allow", &["trap 'echo done' EXIT; cd src && ls"]);
}

#[test]
fn option_values_that_are_commands_are_decided_as_if_they_ran() {
    assert_all(
        "deny",
        &[
            "split --filter='rm -rf x' src/a.rs",
            "zip -T -TT 'rm -rf x' a.zip src/a.rs",
            "ssh -o ProxyCommand='rm -rf x' example.com",
            "ssh -oLocalCommand='rm x' example.com",
            "rsync -e 'rm -rf x' host:a b",
            "git -c man.viewer=man -c man.man.path=/bin/rm log --help",
            "sqlite3 :memory: '.shell rm -rf x'",
            "sort --compress-program='rm' src/a.rs",
            "x86_64 rm -rf x",
            "i386 rm x",
            "ssh-agent rm -rf x",
            "start-stop-daemon --start --exec /bin/rm -- -rf x",
        ],
    );
    assert_all("ask", &["x86_64 ls", "ssh-agent ls"]);
}

#[test]
fn files_a_program_names_itself_are_writes() {
    assert_all(
        "deny",
        &[
            "sdiff -o .env src/a.rs src/a.rs",
            "wget https://example.com/.env",
            "wget -P sub https://example.com/.env.local",
            "wget -e output_document=.env http://example.com/",
            "git checkout-index -a -f --prefix=.env",
            "sort -o \"$PWD/.env\" src/a.rs",
            "cargo test -- --logfile \"$PWD/.env\"",
            "cd src && sort -o \"$OLDPWD/.env\" a.rs",
        ],
    );
}

#[test]
fn writes_the_walker_decides_do_not_make_a_safe_program_asked() {
    let policy = "version: 1\npermissions:\n  allow:\n    - Bash(cargo test *)\n    - { tool: write, when: { file_path: \"docs/**\" } }\n  deny: [ \"Write(**/.env*)\" ]\n";
    check_common::assert_all_with(
        policy,
        "allow",
        &[
            "sed -i 's/foo/bar/' docs/a.md",
            // The backup is a write below docs too (red team 70).
            "sed -i.bak 's/a/b/' docs/a.md",
            "sort -u -o docs/words.md docs/words.md",
            "cargo test --target-dir target/ci -- --nocapture",
        ],
    );
    // A backup suffix names other files, decided as writes; a target directory outside is
    // asked; .env denied.
    check_common::assert_all_with(
        policy,
        "ask",
        &["sed -i'../*' 's/a/b/' docs/a.md", "sed -i 's/a/b/' src/a.rs", "cargo test --target-dir /tmp/t"],
    );
    check_common::assert_all_with(policy, "deny", &["sed -i 's/a/b/' .env", "cargo test --target-dir .env"]);
}

#[test]
fn a_sed_delimiter_in_a_bracket_expression_is_read_on_as_gnu_sed_does() {
    // GNU sed reads `/[/]/` as one regex, so `w .env` is its command; other seds differ.
    assert_all(
        "deny",
        &["sed -n '/[/]/w .env' src/a.rs", "sed 's/[/]/x/w .env' src/a.rs", "sed -n '/[^/]/e rm x' src/a.rs"],
    );
    assert_all("ask", &["sed -n '/[/]/p' src/a.rs"]);
}

#[test]
fn a_literal_number_subscript_runs_no_code() {
    assert_all("allow", &["arr=(a b c); unset 'arr[1]'; echo \"${arr[@]}\"", "a=(x); [ -v 'a[0]' ] && echo y"]);
    assert_all("deny", &["unset 'arr[$(rm x)]'", "test -v 'a[$(rm x)]'"]);
    assert_all("ask", &["unset 'arr[i]'"]);
}

#[test]
fn under_dotglob_a_glob_also_names_dot_files() {
    assert_all(
        "deny",
        &[
            "GLOBIGNORE=host.yaml; sed -i 's/^/#/' -- *",
            "shopt -s dotglob; sed -i 's/^/#/' -- *",
            "shopt -s dotglob; tee -- * < src/a.rs",
        ],
    );
    assert_all("allow", &["shopt -s nullglob; echo src/*"]);
}
