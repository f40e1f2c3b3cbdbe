//! The seventh red team's findings: builtins that assign or test a variable named by a word
//! only known at run time (`hash -p"$(...)"`, `printf -v"$x"`, `wait -p a[x]`, `test -v a[x]`,
//! `let z=x*1`), descriptor variables and coprocess names that assign IFS or PATH, make's and
//! less's options from the environment, `~-` after a `cd`, and a file only named like a
//! wrapper (`./bash -c ls`). Each regression goes through
//! the real binary (`gate check --json`) and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

const POLICY: &str = "version: 1\npermissions:\n  allow:\n    - Bash(npm test)\n    - { tool: write, when: { file_path: \"docs/**/*.md\" } }\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Write(**/.env*)\" ]\n";

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

fn assert_not_allowed(commands: &[&str]) {
    check_common::assert_none_allowed_with(POLICY, commands)
}

#[test]
fn b1_hash_with_an_option_only_known_at_run_time_may_be_hash_p() {
    assert_not_allowed(&[
        "hash -p\"$(echo /bin/rm)\" ls; ls y",
        "hash -p$(command -v rm) ls; ls y",
        "hash -p`which rm` ls; ls y",
        "hash -rp\"$(echo /bin/rm)\" ls; ls y",
        "hash -p$SHELL ls; ls -c \"rm y\"",
        "hash -p\"$(echo /usr/bin/curl)\" ls; ls https://example.com",
        "x=-p/bin/rm; hash \"$x\" ls; ls y",
        // A literal path keeps what it did.
        "hash -p/bin/rm ls; ls y",
    ]);
    assert_all("allow", &["hash -r", "hash ls", "hash -d ls", "hash"]);
}

#[test]
fn b2_test_v_with_a_name_that_is_not_literal_is_not_allowed() {
    assert_not_allowed(&[
        "x='a[$(rm y)]'; [[ -v a[x] ]]",
        "x='a[$(rm y)]'; test -v a[x]",
        "x='a[$(rm y)]'; [ -v a[x] ]",
        "x=$(cat docs/a.md); [[ -v a[x] ]]",
        "x=$(cat docs/a.md); [[ -v a[x+1] ]]",
        "read x < docs/a.md; [[ -v a[x] ]]",
        "[[ -v $(cat docs/a.md) ]]",
        "[ -v \"$(cat docs/a.md)\" ]",
        "test -v \"$(cat docs/a.md)\"",
        // A run-time word may be `-v` itself, or split into `-v NAME`.
        "[ \"$op\" \"$(cat docs/a.md)\" ]",
        "x=$(cat docs/a.md); [ -z $x ]",
    ]);
    // The subscript's substitution is decided as run.
    assert_all("deny", &["[[ -v a['$(rm y)'] ]]", "test -v 'a[$(rm y)]'"]);
    assert_all(
        "allow",
        &[
            "[[ -v x ]]",
            "[ -v x ]",
            "test -v PATH",
            "[ -n \"$x\" ]",
            "[ \"$a\" = \"$b\" ]",
            "[ $# -eq 0 ]",
            "[ -f src/a.rs ]",
            "[ -z \"$x\" -o -n \"$y\" ]",
        ],
    );
}

#[test]
fn b3_let_with_a_word_only_known_at_run_time_is_arithmetic_gate_cannot_see() {
    assert_not_allowed(&[
        "x='a[$(rm y)]'; let z=x*1",
        "x='a[$(rm y)]'; let y=a[x]",
        "x='a[$(rm y)]'; let a[x]",
        "x=$(cat docs/a.md); let \"$x\"",
        "let \"$(cat docs/a.md)\"",
        // As `$((x))` is: a variable gate does not know to be a number.
        "x='a[$(rm y)]'; let \"z=x*1\"",
    ]);
    // Where gate knows the value arithmetic evaluates, its subscript's code is decided as run.
    assert_all(
        "deny",
        &[
            "let \"$(rm y)\"",
            "x='a[$(rm y)]'; let z=x*1",
            "x='a[$(rm y)]'; let y=a[x]",
            "x='a[$(rm y)]'; let \"z=x*1\"",
            "x='a[$(rm y)]'; echo $((x))",
            "x='a[$(rm y)]'; test -v a[x]",
            "x='a[$(rm y)]'; [[ -v a[x] ]]",
            "x='a[$(rm y)]'; sleep 0 & wait -p a[x] $!",
        ],
    );
    assert_all("allow", &["let x=1 y=2", "n=3; let \"z=n*2\""]);
}

#[test]
fn b4_printf_v_with_a_name_only_known_at_run_time_assigns_any_variable() {
    assert_not_allowed(&[
        "printf -v\"$(echo PS4)\" %s \"\\$(rm y)\"; set -x; ls",
        "printf -v\"$(echo PATH)\" /tmp/evil; ls",
        "printf -v\"$(printf PA)TH\" /tmp/evil; ls",
        "printf -v\"$(cat docs/a.md)\" 1",
        "echo 'a[$(rm y)]' > docs/p.md; printf -v\"$(cat docs/p.md)\" 1",
        // A run-time word where the option can be: `x=-vPATH; printf "$x" /tmp/evil`.
        "printf \"$x\" /tmp/evil; ls",
        "printf -v \"$n\" x",
    ]);
    assert_all("allow", &["printf '%s\\n' \"$x\"", "printf -v x '%s' \"$y\"", "printf -- \"$x\""]);
}

#[test]
fn b5_wait_p_and_other_builtins_given_a_name_not_literal_are_not_allowed() {
    assert_not_allowed(&[
        "x='a[$(rm y)]'; sleep 0 & wait -p a[x] $!",
        "sleep 0 & wait -p \"$(cat docs/a.md)\" $!",
        "x=$(cat docs/a.md); sleep 0 & wait -n -p a[x]",
        "sleep 0 & wait -p\"$n\"",
        "wait \"$x\" $!",
        "read -a\"$x\"",
        "read \"$x\"",
        "mapfile \"$x\"",
        "readarray -t a[x]",
        "getopts ab \"$n\"",
        "getopts ab a[x]",
        "declare -n \"$x\"",
    ]);
    assert_all(
        "allow",
        &[
            "sleep 1 & wait $!",
            "sleep 1 & pid=$!; wait $pid",
            "sleep 1 & pid=$!; wait \"$pid\"",
            "wait",
            "wait -n",
            "wait -p x",
            "read -r line",
            "read -p \"$prompt\" x",
            "mapfile -t arr",
        ],
    );
}

#[test]
fn b6_a_descriptor_variable_or_a_coprocess_name_assigns_the_variable() {
    assert_not_allowed(&[
        ": {IFS}>docs/a.md; x=docs/a1.env1.md; echo pwn | tee $x",
        ": {IFS}<docs/a.md; x=docs/a1.env1.md; echo pwn | tee $x",
        ": {IFS}>docs/a.md; x=docs/a.md1/tmp/rt7/scratch/evil.md; echo pwn | tee $x",
        ": {PATH}>docs/a.md; ls",
        "coproc PATH { :; }; ls",
        "coproc IFS { :; }; x=rm1y; $x",
        // The variable's known value is gone: `$x` is no longer `ls`.
        "x=ls; : {x}>docs/a.md; $x",
        "x=ls; coproc x { :; }; $x",
    ]);
    assert_all("allow", &["coproc { :; }", "x=ls; $x"]);
}

#[test]
fn d2_a_command_split_by_an_ifs_set_through_a_descriptor_variable_is_not_allowed() {
    assert_not_allowed(&[": {IFS}>docs/a.md; x=rm1y; $x"]);
}

#[test]
fn b7_make_and_less_options_from_the_environment_change_what_runs() {
    assert_not_allowed(&[
        "GNUMAKEFLAGS='--eval=$(shell touch /tmp/p)' npm test",
        "export GNUMAKEFLAGS=--eval=x; npm test",
        "LESS='+!touch /tmp/lesspwn\nq' git log",
        "export LESS='+!touch /tmp/lesspwn'; git log",
        "LESSKEYIN=docs/k.md git log",
        "LESSEDIT='rm y' git log",
    ]);
    assert_all("allow", &["npm test", "git log"]);
}

#[test]
fn d1_tilde_minus_after_a_followed_cd_is_the_directory_it_left() {
    assert_all(
        "deny",
        &[
            "cd src; echo hi > ~-/.env",
            "cd src && echo hi > ~-/.env",
            "cd src/.. && cd src && echo hi > ~-/.env",
            "cd src && cd .. && echo hi > ~-/../.env",
        ],
    );
    assert_all("allow", &["cd src && cat ~-/src/a.rs", "cd src && echo hi > ~-/docs/a.md"]);
}

#[test]
fn over_ask_pgrep_only_lists_processes() {
    assert_all("allow", &["pgrep cargo", "pgrep -f 'cargo test'", "pgrep -l cargo", "pgrep -a -x node"]);
    // `-F` reads a file.
    assert_not_allowed(&["pgrep -F /etc/passwd", "pgrep --pidfile=x", "pgrep --pid x", "pgrep -lF x"]);
}

#[test]
fn a_file_only_named_like_a_wrapper_or_a_shell_is_that_file() {
    // Found while widening Codex's shell unwrapping: `./bash -c ls` was decided as `ls`, but
    // bash runs the file `./bash` (which the agent may have written), whatever its arguments.
    assert_not_allowed(&[
        "./bash -c ls",
        "/tmp/x/bash -lc 'ls'",
        "./timeout 1 ls",
        "tools/env ls",
        "./nice ls",
        "xargs ./sh -c ls",
        "find . -exec ./bash -c ls \\;",
        "sudo ./bash -c ls",
    ]);
    assert_all("allow", &["/bin/bash -c ls", "/usr/bin/env ls", "timeout 1 ls", "bash -c 'ls'"]);
}

#[test]
fn ninth_red_team_programs_that_act_on_their_name_or_a_cleared_path() {
    // `exec -a NAME`: git runs its built-in `NAME` when started as `git-NAME`, `pgrep` started
    // as `pkill` kills. `env -i`/`-u PATH`/`exec -c` before a shell: bash's default PATH ends
    // in `.`, so `./cargo` runs where cargo is not in a system directory.
    assert_not_allowed(&[
        "exec -a pkill pgrep -f X",
        "(exec -a git-clean git log -fdx :/)",
        "(exec -a git-rm git log -rfq --ignore-unmatch :/)",
        "env -i bash -c 'cargo test x'",
        "env - bash -c ls",
        "env --ignore-environment bash -c ls",
        "env -u PATH bash -c tree",
        "env --unset=PATH bash -c tree",
        "timeout 5 env -i bash -c ls",
        "exec -c bash -c 'rg x'",
        // What the ACP adapter now decides for `terminal/create` with `env`.
        "BASH_ENV=./evil.sh ls",
        "LD_PRELOAD=/tmp/x.so ls",
    ]);
    assert_all("allow", &["env FOO=1 ls", "exec ls", "env -u FOO ls"]);
}

#[test]
fn tenth_red_team_tool_names_and_shell_tools_of_the_real_agents() {
    // A rule's tool name meets the agent's spelling of it (`deny: [webfetch]` and Claude
    // Code's `WebFetch`), and Claude Code's `Monitor` runs its `command` in a shell.
    let policy = "version: 1\nmode: bypassPermissions\npermissions:\n  deny: [ \"Bash(rm *)\", webfetch ]\n";
    let d = check_common::check_call(policy, "WebFetch", &serde_json::json!({"url": "https://example.com"}));
    assert_eq!(d["decision"], "deny", "{d}");
    let d = check_common::check_call(policy, "Monitor", &serde_json::json!({"command": "rm -rf ~"}));
    assert_eq!(d["decision"], "deny", "{d}");
}

#[test]
fn tenth_red_team_a_remote_sub_agent_is_not_the_safe_task() {
    let d = check_common::check_call(
        POLICY,
        "Task",
        &serde_json::json!({"description": "x", "prompt": "y", "isolation": "remote"}),
    );
    assert_ne!(d["decision"], "allow", "{d}");
    let d = check_common::check_call(POLICY, "Task", &serde_json::json!({"description": "x", "prompt": "y"}));
    assert_eq!(d["decision"], "allow", "{d}");
}
