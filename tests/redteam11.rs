//! The eleventh round of red teams (issue 15): paths whose directory is only known at run time
//! but whose last name a deny rule names in any directory, and what the red teams of this round
//! found. Each regression goes through the real binary (`gate check --json`) and is named after
//! what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

const POLICY: &str = "version: 1\npermissions:\n  allow:\n    - Bash(npm test)\n    - { tool: write, when: { file_path: \"docs/**/*.md\" } }\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Write(**/.env*)\" ]\n";

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

#[test]
fn a_write_of_a_denied_name_in_a_directory_only_known_at_run_time_is_denied() {
    assert_all(
        "deny",
        &[
            "cd src; echo x > $OLDPWD/.env",
            "echo x > \"$HOME\"/.env.local",
            "cp docs/a.md $X/.env",
            "cd $D; echo x > .env",
            "pushd \"$d\"; echo x >> .envrc",
        ],
    );
    // Other names there stay asked: gate cannot know where they land.
    assert_all("ask", &["cd $D; echo x > a.md", "echo x > $d/a.md"]);
    // A path known only at run time in a call that names a denied file: that file may be
    // what is written (red team 45).
    assert_all("deny", &["echo x > ${x:-a/.env}"]);
}

#[test]
fn git_config_with_an_option_that_takes_a_value_still_stores_its_key_and_value() {
    assert_all(
        "deny",
        &[
            "git config -f .git/config alias.x '!rm x'",
            "git config --file .git/config alias.x '!rm x'",
            "git config -zf .git/config alias.x '!rm x'",
            "git config --comment hi alias.x '!rm x'",
            "git config set --comment x alias.y '!rm z'",
            "git config --fil=.git/config core.fsmonitor 'rm x'",
            "git config -f .git/config core.pager 'curl x'",
            "git -c interactive.diffFilter='rm x' add -p",
            "git -c submodule.a.update='!rm x' submodule update",
        ],
    );
    check_common::assert_none_allowed_with(POLICY, &["git config $k '!rm x'", "git config alias.x \"$v\""]);
}

#[test]
fn git_c_with_a_pager_turned_off_or_cat_only_prints() {
    assert_all(
        "allow",
        &[
            "git -c pager.log=false log -1",
            "git -c core.pager=cat log -1",
            "git -c core.pager= diff",
            "git -c core.fsmonitor=false status",
            "git config --get alias.x",
            "git config user.name",
        ],
    );
}

/// A workspace with `lnk -> /etc` and `pw -> /etc/passwd`, and one call decided there.
fn tool_in_linked_ws(tool: &str, args: serde_json::Value, annotations: Option<&str>) -> serde_json::Value {
    let ws = check_common::workspace(POLICY);
    std::os::unix::fs::symlink("/etc", ws.path().join("lnk")).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", ws.path().join("pw")).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_gate"));
    cmd.current_dir(ws.path()).args(["check", "--json"]);
    if let Some(a) = annotations {
        cmd.args(["--annotations", a]);
    }
    let out = cmd.args([tool, &args.to_string()]).output().unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn path_fields_named_in_camel_case_or_src_dest_are_paths() {
    use serde_json::json;
    for (tool, args) in [
        ("grep", json!({"pattern": "root", "workingDirectory": "lnk"})),
        ("list_files", json!({"targetDirectory": "lnk"})),
        ("get_file_info", json!({"file_name": "pw"})),
        ("read_file", json!({"src": "pw"})),
    ] {
        let d = tool_in_linked_ws(tool, args.clone(), None);
        assert_eq!(d["decision"], "ask", "{tool} {args}: {d}");
    }
    for args in [
        json!({"targetFile": "/etc/passwd"}),
        json!({"SearchDirectory": "/etc"}),
        json!({"outputDir": "/etc"}),
        json!({"url": "file:///etc/passwd"}),
        json!({"dest": "/etc/passwd"}),
    ] {
        let d = tool_in_linked_ws("mcp__fs__read", args.clone(), Some(r#"{"readOnlyHint":true}"#));
        assert_eq!(d["decision"], "ask", "{args}: {d}");
    }
    // Text that only looks like a path in an MCP tool's own field stays its vocabulary.
    let d = tool_in_linked_ws("mcp__fs__read", json!({"route": "/api"}), Some(r#"{"readOnlyHint":true}"#));
    assert_eq!(d["decision"], "allow", "{d}");
}

#[test]
fn a_nul_in_a_tool_path_is_not_modelled() {
    use serde_json::json;
    for (tool, args) in [
        ("Write", json!({"file_path": ".env\u{0}/../docs/a.md", "content": "x"})),
        ("Read", json!({"file_path": "pw\u{0}/../src/a.rs"})),
        ("read_file", json!({"path": "pw\u{0}/../src/a.rs"})),
    ] {
        let d = tool_in_linked_ws(tool, args.clone(), None);
        assert_ne!(d["decision"], "allow", "{tool} {args}: {d}");
    }
}

#[test]
fn a_notebook_edit_or_an_unknown_tool_writes_what_it_names() {
    use serde_json::json;
    for tool in ["NotebookEdit", "notebook_edit", "save_notebook"] {
        let d = tool_in_linked_ws(tool, json!({"notebook_path": ".env", "new_source": "x"}), None);
        assert_eq!(d["decision"], "deny", "{tool}: {d}");
    }
    let d = tool_in_linked_ws("NotebookEdit", json!({"notebook_path": "/etc/x.ipynb", "new_source": "x"}), None);
    assert_eq!(d["decision"], "ask", "{d}");
}

/// One shell command decided in a workspace with `lnk -> /etc` and `pw -> /etc/passwd`.
fn command_in_linked_ws(command: &str) -> serde_json::Value {
    tool_in_linked_ws("Bash", serde_json::json!({ "command": command }), None)
}

#[test]
fn a_file_glued_to_an_option_or_given_to_a_wrapper_is_followed_through_links() {
    for c in [
        "grep -flnk/passwd src/a.rs",
        "grep -rfpw .",
        "rg -fpw x",
        "hexdump -flnk/passwd",
        "diff -Xlnk/passwd src docs",
        "file -mlnk/magic src/a.rs",
        "date -fpw",
        "git diff -Olnk/passwd",
        "xargs -a lnk/passwd echo",
        "xargs --arg-file=pw echo",
        "timeout 5 xargs -a pw echo",
        "nice xargs -apw echo",
    ] {
        let d = command_in_linked_ws(c);
        assert_eq!(d["decision"], "ask", "{c}: {d}");
    }
    for c in ["grep -fsrc/a.rs src/a.rs", "xargs -a src/a.rs echo"] {
        let d = command_in_linked_ws(c);
        assert_eq!(d["decision"], "allow", "{c}: {d}");
    }
}

#[test]
fn an_option_value_that_may_expand_to_no_word_or_several_moves_the_words_after_it() {
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "shopt -s nullglob; env -u src/*.zz echo rm y",
            "shopt -s nullglob; echo x | xargs -I src/*.zz echo rm y",
            "x=; env -u $x echo rm y",
            "env -u $nosuch echo rm y",
            "a=(); env -u \"${a[@]}\" echo rm y",
            "env -u \"$@\" echo rm y",
            "env -u $(true) echo rm y",
            "echo z | xargs -I \"$@\" echo rm y",
            "x=; echo z | xargs --process-slot-var $x echo rm y",
            // `N='5 /etc/passwd'`: head reads /etc/passwd.
            "head -n $N src/a.rs",
            "head -n$N src/a.rs",
        ],
    );
    assert_all(
        "allow",
        &[
            "head -n \"$N\" src/a.rs",
            "n=5; head -n $n src/a.rs",
            "head -n $((1+2)) src/a.rs",
            "head -n \"${#a[@]}\" src/a.rs",
            "for n in 1 2; do head -n $n src/a.rs; done",
        ],
    );
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
    /// Any wrapper's option that takes a value, given one that may expand to no word or
    /// several (spelled separately or glued), never lets the command after it be allowed.
    #[test]
    fn wrapper_values_that_may_vanish_are_never_allowed(
        opt in proptest::sample::select(vec![
            "env -u", "xargs -I", "xargs -E", "xargs -d", "xargs -n", "timeout -s", "timeout -k", "nice -n",
            "stdbuf -o", "flock -w", "xargs --process-slot-var", "env --unset", "timeout --signal",
        ]),
        value in proptest::sample::select(vec![
            "$x", "${x}", "$(true)", "`true`", "src/*.zz", "\"$@\"", "\"${a[@]}\"", "${x:+a}", "$1",
        ]),
        glued in proptest::bool::ANY,
    ) {
        let dir = tempfile::tempdir().unwrap();
        let p = check_common::policy_at(POLICY, dir.path());
        let (w, o) = opt.split_once(' ').unwrap();
        let spelled = if glued && o.starts_with("--") {
            format!("{o}={value}")
        } else if glued {
            format!("{o}{value}")
        } else {
            format!("{o} {value}")
        };
        let after = if w == "timeout" { "5 echo rm y" } else { "echo rm y" };
        let cmd = format!("echo z | {w} {spelled} {after}");
        let v = check_common::decide_command(&p, &cmd);
        proptest::prop_assert_ne!(v, gate::policy::Verdict::Allow, "{}", cmd);
    }
}

#[test]
fn programs_whose_own_parsers_differ_from_getopt_are_read_their_way() {
    assert_all(
        "deny",
        &[
            // xargs's --max-lines takes its value glued only: `rm` is the command.
            "echo src/a.rs | xargs --max-lines rm echo",
            "xargs --max-lines rm -f y",
            // uniq's old `+N`: IN and OUT follow it.
            "uniq +1 docs/a.md .env",
            // script permutes: options after the log file count.
            "script /dev/null -qc 'rm y'",
            "script -qc ls /dev/null -c 'rm x'",
            // su's own getopt: glued, bundled and abbreviated -c.
            "su -c'rm x'",
            "su -mc 'rm x'",
            "su --comm='rm x'",
            "su --session-command='rm x'",
            // sg runs its text with sh -c.
            "sg grp 'rm x'",
            "sg - grp 'rm x'",
            // env -S's words are env's own again.
            "env -S '-i rm x'",
            "env -S'-i A=1 rm x'",
        ],
    );
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            // tree reads each value letter's value from the next word.
            "tree -Lo 1 .env",
            "tree -oa .env",
            // binutils read `@FILE` in every word.
            "strings -- @/etc/os-release",
            "strings -n @x src/a.rs",
            // rg --files has no pattern: every operand is a directory it lists.
            "rg --files /root/.ssh",
            // BSD ps's `e` prints every process's environment.
            "ps auxeww",
            "ps eww",
            // compgen -u and -g print the user and group databases.
            "compgen -u",
            "compgen -g",
        ],
    );
    assert_all(
        "allow",
        &[
            "tree -L 2 src",
            "tree -a -L 2",
            "strings src/a.rs",
            "rg --files src",
            "ps aux",
            "ps -ef",
            "ps -eo pid,comm",
            "env -S 'ls -la'",
            "uniq +1 src/a.rs",
        ],
    );
}

#[test]
fn find_and_xargs_replace_their_placeholder_inside_a_word_too() {
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "find . -maxdepth 0 -exec cat {}/../secret \\;",
            "find . -exec head {}{}/{}{}/etc/shadow \\;",
            "find . | xargs -I{} cat {}{}/secret",
            "echo pwned | find . -maxdepth 0 -exec tee {}/../docs/a.md \\;",
            "find . -exec cat {}.bak \\;",
        ],
    );
    assert_all(
        "allow",
        &[
            "find src -name '*.rs' -exec cat {} \\;",
            "find src -exec wc -l {} +",
            "find . -name '*.rs' | xargs -I{} cat {}",
            "ls | xargs -I % echo %",
        ],
    );
}

#[test]
fn shell_options_that_change_how_later_text_is_read_are_not_modelled() {
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            // History expansion pastes earlier text into a later line.
            "set -o history -H\n: \"; rm y #\"\necho \"!!:1\"",
            "set -Ho history; ls",
            // posix turns on aliases, and with -a exports POSIXLY_CORRECT: GNU programs then
            // stop reading options at the first file.
            "set -a; set -o posix; head src/a.rs -n /etc/passwd",
            "set -ao posix; ls",
            "bash --posix -a -c 'head src/a.rs -n /etc/passwd'",
            "bash -o posix -c ls",
            "bash -O expand_aliases -c ls",
            "set -k; ls",
            "bash -k -c ls",
            "set -P; cd src; ls",
            "set \"$opts\"; ls",
        ],
    );
    assert_all(
        "allow",
        &[
            "set -euo pipefail; ls",
            "set -ex; ls",
            "set +o history; ls",
            "set -- a b; echo $1",
            "bash -lc ls",
            "bash -euo pipefail -c ls",
            "bash -O nullglob -c ls",
            "set -o",
        ],
    );
}

#[test]
fn errexit_turned_off_by_eval_or_a_trap_is_not_relied_on() {
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "set -e; eval 'set +e'; cd docs/sub; cat ../../x",
            "set -e; eval set +e; cd docs/sub; cat ../../x",
            "set -e; trap 'set +e' DEBUG; cd docs/sub; cat ../../x",
            "set -e; trap 'set +o errexit' ERR; cd docs/sub; cat ../../x",
            "set -e; trap 'set +e' CHLD; ls; cd docs/sub; cat ../../x",
        ],
    );
    // And errexit itself is not relied on since red team 41: agents run the command as the
    // left side of `&&` (Claude Code: `eval '...' < /dev/null && pwd -P >| FILE`), where bash
    // ignores it, so a failed `cd` goes on from where it was.
    check_common::assert_none_allowed_with(
        POLICY,
        &["set -e; cd docs/sub; cat ../../x", "set -e; trap 'echo bye' EXIT; cd nosuch; cat ../docs/a.md"],
    );
    assert_all("allow", &["set -e; cd docs/sub && cat ../../src/a.rs", "set -e; cd src || exit 1; cat ../docs/a.md"]);
}

#[test]
fn a_declared_array_reads_a_value_in_parentheses_again_as_an_array_assignment() {
    assert_all(
        "deny",
        &[
            "declare -a a='($(rm y))'",
            "declare -a a=\\(\\$\\(rm\\ y\\)\\)",
            "declare -a \"a=(\\$(rm y))\"",
            "declare -a a+='($(rm y))'",
            "declare -a a='(`rm y`)'",
            "typeset -a a='($(rm y))'",
            "f(){ local -a a='($(rm y))'; }; f",
            "o=-a; declare $o a='($(rm y))'",
        ],
    );
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "x='($(rm y))'; declare -a a=$x",
            "x='($(rm y))'; declare -a a=\"$x\"",
            "read x < docs/a.md; declare -a a=$x",
            "declare -a a=$1",
            "declare -a a='(/etc/*)'",
        ],
    );
    assert_all(
        "allow",
        &[
            "declare -a arr=(1 2 3)",
            "declare -a files=(src/*.rs); echo ${#files[@]}",
            "local -a x=(a b)",
            "declare -a a=(\"$x\" b)",
            "export FOO=$BAR",
            "declare x=$y",
        ],
    );
}

#[test]
fn variables_that_name_commands_or_change_what_a_shortcut_runs() {
    assert_all(
        "deny",
        &[
            "LESSOPEN='|rm x %s' less src/a.rs",
            "LESSCLOSE='rm x' less src/a.rs",
            "PROMPT_COMMAND='rm x' bash -i",
            "BROWSER='rm x' xdg-open u",
        ],
    );
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "PYENV_HOOK_PATH=docs python3 --version",
            "PYENV_VERSION=../ python3 --version",
            "MANROFFOPT=-U MANPATH=docs git log --help",
            "MANOPT='-Mdocs -Pbash' git log --help",
            "export MANPATH=docs; git log --help",
        ],
    );
    assert_all("allow", &["python3 --version", "git log --help"]);
}

const RUNNER_POLICY: &str = "version: 1\npermissions:\n  allow: [ \"Bash(npm run *)\", \"Bash(cargo test *)\" ]\n  deny: [ \"Bash(rm *)\", \"Write(**/.env*)\" ]\n";

#[test]
fn paths_handed_on_to_a_script_gate_cannot_see_are_decided_where_they_land() {
    check_common::assert_all_with(
        RUNNER_POLICY,
        "deny",
        &[
            "npm run test -- --test-reporter-destination=.env",
            "npm run test -- --redirect-warnings=.env",
            "npm run test -- --reporter-option=output=.env.local",
        ],
    );
    check_common::assert_all_with(
        RUNNER_POLICY,
        "ask",
        &[
            "npm run test -- --test-reporter=tap --test-reporter-destination /tmp/x",
            "npm run test -- --cacheDirectory=/tmp/x",
            "npm run test -- --outputFile.junit=/tmp/x",
            "npm run build -- --outDir /tmp/x",
            "npm run test -- --config /tmp/x.js",
            "npm run test -- --rootDir /",
            "cargo test -- --config ~/x",
        ],
    );
    check_common::assert_all_with(
        RUNNER_POLICY,
        "allow",
        &[
            "npm run test",
            "npm run test -- src/a.test.js",
            "npm run test -- --coverage --watch=false",
            "npm run lint -- --fix src/",
            "cargo test -- --nocapture",
            "cargo test -p core",
        ],
    );
}

#[test]
fn reference_files_and_search_directories_given_to_safe_programs_are_reads() {
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "date -r /etc/shadow",
            "date --reference=/etc/shadow",
            "whereis -B /etc -f passwd",
            "whereis -B src /root/.ssh -f id_rsa",
            "find . -newer /etc/passwd",
            "find . -anewer /etc/passwd",
            "find . -newerma /etc/passwd",
            "find . -samefile /etc/passwd",
        ],
    );
    assert_all("allow", &["date -r src/a.rs", "whereis ls", "find . -newermt 2020-01-01", "find src -newer src/a.rs"]);
}

#[test]
fn arithmetic_on_variables_that_only_ever_hold_numbers_runs_no_code() {
    assert_all(
        "allow",
        &[
            "for ((i=0;i<3;i++)); do echo $i; done",
            "count=0; for f in src/*.rs; do count=$((count+1)); done; echo $count",
            "count=0; for f in src/*.rs; do ((count++)); done; echo $count",
            "i=0; while (( i < 3 )); do ((i++)); done",
            "i=0; while [ $i -lt 3 ]; do i=$((i+1)); done",
            "files=(src/*.rs); for ((i=0; i<${#files[@]}; i++)); do echo \"${files[i]}\"; done",
            "echo $((RANDOM % 10))",
            "count=0; count=$((count+1)); ((count > 0)) && echo y",
            "x=5; let y=x+1; echo $((y*2))",
            "((y = 3 + 4)); echo $((y))",
        ],
    );
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            // Never given a number in this text: the environment's value is evaluated.
            "echo $((i+1))",
            "((i++))",
            "let i++; echo $((i))",
            "i=abc; ((i++))",
            "x=0; read x < f; echo $((x+1))",
            "n=0; for f in *; do n=$(cat f); done; echo $((n+1))",
            // The division ends the expression before j is assigned.
            "i=0; ((i=1/0, j=0)); echo $((j))",
            "RANDOM=x; echo $((RANDOM))",
            "((y = x)); echo $((y))",
        ],
    );
}

#[test]
fn an_associative_arrays_keys_are_words_not_arithmetic() {
    assert_all(
        "allow",
        &[
            "declare -A m=([a]=1 [b]=2); echo ${m[a]}",
            "declare -A m; m[a]=1; echo \"${m[a]}\"",
            "declare -A m; k=x; echo \"${m[$k]}\"",
        ],
    );
    assert_all("deny", &["declare -A m; echo \"${m[$(rm y)]}\"", "declare -A m; m[$(rm y)]=1"]);
    check_common::assert_none_allowed_with(POLICY, &["echo ${m[a]}", "declare -a m; echo ${m[a]}"]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
    /// A counter given a literal number and then only arithmetic (in any order and loop) is
    /// a number to arithmetic; one step that gives it text gate does not know (`read`, a
    /// substitution, an unknown variable) makes any later arithmetic on it asked.
    #[test]
    fn counters_stay_numbers_until_something_else_is_assigned(
        steps in proptest::collection::vec(proptest::sample::select(vec![
            "((c++))", "c=$((c+1))", "let c=c+2", "((c = c * 2))", "for f in src/*.rs; do ((c++)); done",
            "while ((c < 3)); do c=$((c+1)); done", "[ $c -gt 1 ] && echo big",
        ]), 0..5),
        taint in proptest::option::of((0usize..6, proptest::sample::select(vec![
            "read c < src/a.rs", "c=$(cat src/a.rs)", "c=$other", "((c = other))",
        ]))),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let p = check_common::policy_at(POLICY, dir.path());
        let mut parts: Vec<&str> = vec!["c=0"];
        parts.extend(steps.iter().copied());
        if let Some((at, t)) = taint {
            parts.insert(1 + at.min(steps.len()), t);
        }
        parts.push("echo $((c + 1))");
        let cmd = parts.join("; ");
        let v = check_common::decide_command(&p, &cmd);
        if taint.is_some() {
            proptest::prop_assert_ne!(v, gate::policy::Verdict::Allow, "{}", cmd);
        } else {
            proptest::prop_assert_eq!(v, gate::policy::Verdict::Allow, "{}", cmd);
        }
    }
}

#[test]
fn everyday_forms_that_only_read_are_allowed() {
    assert_all(
        "allow",
        &[
            // One name a glob gives, quoted, is one word.
            "for f in *; do [ -f \"$f\" ] && wc -l \"$f\"; done",
            "for f in *.md; do [ -f \"$f\" ] && echo \"$f\"; done",
            "for f in src/*; do test -d \"$f\" && echo \"$f\"; done",
            "for f in .git*; do echo \"$f\"; done",
            // Unquoted, the same one name where no name below holds a blank or a glob
            // character, which the edge looks at (session 32, tests/redteam109.rs).
            "for f in *; do [ -f $f ]; done",
            "echo .e*",
            // exec with only redirections.
            "exec 2>&1; ls",
            "exec 3<src/a.rs; read -r line <&3",
            "exec >/dev/null",
            // The standard streams are no files.
            "ls -la | tee /dev/stderr",
            "echo hi | tee /dev/stdout",
        ],
    );
    assert_all("deny", &["for f in .e*; do echo x > \"$f\"; done", "exec 3>.env", "exec rm x"]);
    check_common::assert_none_allowed_with(
        POLICY,
        &["for f in /etc/*; do cat \"$f\"; done", "ls ../.*", "exec 1>/tmp/x"],
    );
    // (`.*` matches `..` only where bash's globskipdots is off: red team 90.)
    if !check_common::bash_skips_dots() {
        check_common::assert_none_allowed_with(POLICY, &["echo .*", "ls .*"]);
    }
    let d = command_in_linked_ws("for f in */passwd; do cat \"$f\"; done");
    assert_eq!(d["decision"], "ask", "{d}");
}

#[test]
fn values_given_by_declaration_builtins_are_known_and_other_words_forget_nothing() {
    assert_all(
        "deny",
        &[
            "declare x=rm; $x y",
            "export x=rm; $x y",
            "typeset x=rm; $x y",
            "f() { local x=rm; $x y; }; f",
            "export f=.env; echo x > \"$f\"",
        ],
    );
    assert_all(
        "allow",
        &[
            "declare f=src/a.rs; cat \"$f\"",
            "f=src/a.rs; printf \"%s\\n\" \"$x\"; cat \"$f\"",
            "for f in src/*.rs; do printf \"%s\\n\" \"$(head -1 \"$f\")\"; done",
            "f=src/a.rs; declare y=\"$x\"; cat \"$f\"",
        ],
    );
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            // `local` outside a function fails: f keeps the environment's value.
            "local f=src/a.rs; cat \"$f\"",
            "f=src/a.rs; declare $y; cat \"$f\"",
            "f=src/a.rs; printf -v \"$n\" x; cat \"$f\"",
            "pushd src; read -a DIRSTACK < f; popd; cat x",
            "pushd src; unset DIRSTACK; popd; cat x",
        ],
    );
}

#[test]
fn a_glob_tool_lists_links_by_name_and_enters_them_only_below_a_wildcard() {
    use serde_json::json;
    for p in ["*", "**/*", "src/*.rs"] {
        let d = tool_in_linked_ws("Glob", json!({ "pattern": p }), None);
        assert_eq!(d["decision"], "allow", "{p}: {d}");
    }
    for p in ["*/*", "*/passwd", "lnk/*", "/etc/*"] {
        let d = tool_in_linked_ws("Glob", json!({ "pattern": p }), None);
        assert_eq!(d["decision"], "ask", "{p}: {d}");
    }
}

#[test]
fn real_options_and_listing_builtins_are_in_the_tables() {
    assert_all(
        "allow",
        &[
            "df -m",
            "diff -u -L old -L new src/a.rs src/a.rs",
            "od -h src/a.rs",
            "cmp -c src/a.rs src/a.rs",
            "uname --sysname",
            "jobs",
            "umask",
            "alias",
            "expr 1 + 2",
        ],
    );
    // (`umask 077` only takes permissions away: allowed since red team 41; a mask that lets
    // others write what is made next is not.)
    check_common::assert_none_allowed_with(POLICY, &["jobs -x rm y", "umask 000", "umask 002", "alias ls=rm"]);
}

#[test]
fn compound_array_keys_are_arithmetic_that_reads_the_variables_they_name() {
    assert_all(
        "deny",
        &[
            "n='a[$(rm -f x)]'; b=([n]=1)",
            "n='a[$(rm -f x)]'; b+=([n]=1)",
            "n='a[$(rm -f x)]'; b=([n*2]=1)",
            "n='a[$(rm -f x)]'; b=([$n]=1)",
            "m='a[$(rm -f x)]'; n=m; b=([n]=1)",
        ],
    );
    check_common::assert_none_allowed_with(POLICY, &["b=([n]=1)", "read n < src/a.rs; b=([n]=1)"]);
    assert_all("allow", &["b=([0]=x [1]=y)", "i=0; b=([i]=x)"]);
}

#[test]
fn an_associative_array_lasts_only_as_long_as_the_scope_that_made_it() {
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "f(){ declare -A h; }; f; h[n]=1",
            "(declare -A h); h[n]=1",
            "declare -A h | true; h[n]=1",
            "if false; then declare -A h; fi; h[n]=1",
            "declare -A h; unset h; h[n]=1",
            "h=(1); declare -A h; h[n]=1",
            "f(){ local -A h; }; f; echo ${h[n]}",
        ],
    );
    assert_all("allow", &["declare -A h; h[n]=1; echo \"${h[n]}\"", "f(){ declare -A h; h[k]=1; echo ${h[k]}; }; f"]);
}

#[test]
fn known_values_reach_git_config_env_and_survive_export() {
    assert_all(
        "deny",
        &[
            "V='!rm -f x'; export V; git --config-env=alias.zz=V zz",
            "V='!rm -f x' git --config-env=alias.zz=V zz",
            "V='!rm -f x'; git --config-env alias.zz=V zz",
            "x=rm; readonly x; $x y",
        ],
    );
    assert_all(
        "allow",
        &["f=src/a.rs; export f; cat $f", "declare -i n=3; echo $((n*2))", "f(){ echo hi; }; declare -f f"],
    );
}

#[test]
fn ps_prints_environments_with_a_bsd_e_after_any_option() {
    check_common::assert_none_allowed_with(
        POLICY,
        &["ps -ef e", "ps -A e", "ps -e e", "ps -A ewww", "TEXTDOMAINDIR=docs TEXTDOMAIN=t echo $\"hello\""],
    );
    assert_all(
        "allow",
        &["ps aux", "ps -ef", "ps -eo pid,comm", "ps -u steve", "ps --sort -pcpu aux", "ps -o user,pid -e"],
    );
}

#[test]
fn numbers_are_only_what_can_never_become_text() {
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            // An invalid constant ends the expression before n is assigned.
            "d='$'; n=\"a[${d}(rm y)]\"; (( x=08, n=5 )); echo $((n))",
            "n=$((0))'+a[$(rm y)]+'$((0)); echo $((n))",
            // Options bash refuses, or that change the value, bind nothing.
            "declare -c f=./docs/.ENV.md; echo x > \"$f\"",
            "declare -q x=rm; $x y",
            // A pipeline stage's `set -e` does not reach this shell.
            "set -e | true; cd docs/sub; cat ../../x",
            "true | set -e; cd docs/sub; cat ../../x",
        ],
    );
    assert_all(
        "allow",
        &[
            "x=3; y=$((x*2)); echo $((y+1))",
            "n=$#; echo $((n+1))",
            "start=$SECONDS; echo $((SECONDS-start))",
            "n=${#x}; echo $((n*2))",
        ],
    );
    assert_all("deny", &["declare -x x=rm; $x y"]);
}

#[test]
fn a_file_opened_for_reading_on_the_output_descriptors_is_written_through_them() {
    assert_all(
        "deny",
        &["echo SECRET=attacker | tee /dev/stderr 2<.env", "echo x > /dev/stderr 2<.env", "echo x >/dev/stdout 1<.env"],
    );
    assert_all("allow", &["ls 2>&1 | tee /dev/stderr", "cat src/a.rs 2</dev/null"]);
}

#[test]
fn a_command_whose_redirection_can_fail_may_not_have_changed_anything() {
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "x=rm; { x=echo; } <&9; $x y",
            "x=rm; declare x=echo <&9; $x y",
            "set -e <&9; cd docs/sub; cat ../../x",
            "x=rm; for i in 1; do x=echo; done < src/nope; $x y",
            // exec with a new standard input: a shell reading its script from there runs it.
            "bash <<'EOF'\nexec < docs/x.md\nEOF",
            "exec <<< \"rm x\"",
        ],
    );
    assert_all(
        "allow",
        &[
            "cd src 2>/dev/null && cat a.rs",
            "cd src >/dev/null; cat a.rs",
            "count=0; while read -r l; do ((count++)); done < src/a.rs; echo $((count))",
            "exec 3<src/a.rs",
        ],
    );
}

#[test]
fn a_quoted_star_expansion_of_a_known_array_is_its_words_joined() {
    assert_all("deny", &["a=(rm -f x); trap \"${a[*]}\" EXIT", "a=(rm -f x); eval \"${a[*]}\""]);
    assert_all("allow", &["a=(src/a.rs); cat \"${a[*]}\"", "a=(a b); echo \"${a[*]}\""]);
    check_common::assert_none_allowed_with(POLICY, &["a=(x y); IFS=/; cat \"${a[*]}\"", "cat \"${a[*]}\""]);
}

#[test]
fn an_alias_given_with_c_is_its_expansion_and_git_apply_check_only_reads() {
    assert_all("allow", &["git -c alias.s=status s", "git apply --check x.patch", "git apply --stat x.patch"]);
    assert_all("deny", &["git -c alias.s='!rm x' s"]);
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "git -c alias.s=status -c core.pager=x s",
            "git apply x.patch",
            "git apply --check --index x.patch",
            "git apply --stat /etc/x.patch",
        ],
    );
}

#[test]
fn twelfth_round_numbers_markers_and_descriptors() {
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            // A loop left in the middle, or after its condition, is not at the end of a pass.
            "i=0; for x in 1 2; do i='a[$(rm y)]'; break; i=1; done; echo $((i))",
            "i=0; while i='a[$(rm y)]'; false; do i=1; done; echo $((i))",
            // bash keeps an imported UID as text.
            "echo $((UID))",
            // declare -A that bash refuses or that only prints marks nothing.
            "x='a[$(rm y)]'; local -A h; echo ${h[x]}",
            "x='a[$(rm y)]'; declare -pA h; echo ${h[x]}",
            "x='a[$(rm y)]'; declare -Aq h; echo ${h[x]}",
            // A closed standard descriptor makes duplicating it fail.
            "x=rm; exec 2>&-; { x=echo; } 1>&2; $x y",
            // Another descriptor put where /dev/stdout writes go.
            "exec 3<.env; echo x | tee /dev/stdout 1<&3",
        ],
    );
    check_common::assert_none_allowed_with(
        RUNNER_POLICY,
        &[
            "npm run test -- -o/tmp/x",
            "npm run test -- ..",
            "npm run test -- $HOME/x",
            "npm run test -- ~root/.ssh",
            "npm run test -- --x=file:///etc/passwd",
            "npm run test -- --files=a,../x",
        ],
    );
    check_common::assert_all_with(RUNNER_POLICY, "deny", &["npm run test -- -o.env"]);
    assert_all(
        "allow",
        &[
            "i=0; while (( i < 3 )); do ((i++)); done",
            "for ((i=0;i<3;i++)); do echo $i; done",
            "f(){ local -A h; h[k]=1; echo ${h[k]}; }; f",
            "alias -p",
            "umask -pS",
            "ls 2>&1 | tee /dev/stderr",
        ],
    );
}

#[test]
fn script_with_its_log_thrown_away_is_the_command_it_runs() {
    assert_all("allow", &["script -qc 'git status' /dev/null"]);
    assert_all("deny", &["script -qc 'rm x' /dev/null"]);
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "script -qc 'git status'",
            "script -qc 'git status' log.txt",
            "script -q -O /tmp/x -c ls /dev/null",
            "script /dev/null",
            "script -qc \"$x\" /dev/null",
        ],
    );
}
