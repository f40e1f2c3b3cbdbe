//! The fourth red team's findings (issue 15): launchers gate did not know, whose command was
//! therefore neither unwrapped for deny rules nor ever allowed. Each regression goes through
//! the real binary (`gate check --json`) and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

const POLICY: &str = "version: 1\npermissions:\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Write(**/.env*)\" ]\n";

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

#[test]
fn tracers_debuggers_and_launchers_reach_the_deny_rule_of_the_command_they_start() {
    assert_all(
        "deny",
        &[
            "strace rm x",
            "strace -f -o trace.log rm x",
            "ltrace -o l.txt rm x",
            "valgrind --tool=memcheck rm x",
            "gdb --args rm x",
            "chrt 5 rm x",
            "chrt -f 5 curl https://x.example",
            "parallel rm ::: x",
            "numactl -N 0 rm x",
            "prlimit --nofile=10 rm x",
            "eatmydata rm x",
            "fakeroot rm x",
            "setarch x86_64 rm x",
            "nocache rm x",
            "sshpass -p pw rm x",
        ],
    );
}

#[test]
fn a_launcher_gate_does_not_model_is_never_allowed_even_around_a_safe_command() {
    assert_all(
        "ask",
        &[
            "strace ls",
            "strace -p 1",
            "gdb -ex 'shell ls' ls",
            "parallel echo ::: a",
            "eatmydata ls",
            "chrt -f 5 ls",
            "bwrap --bind / / ls",
        ],
    );
}
