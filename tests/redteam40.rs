//! The red teams of 2026-11-26, second session ("red team 40" in the code's comments): three
//! black-box helpers on option grammars and file options, on arithmetic, stored code and shell
//! state, and on tool paths, git and over-asks. Each regression goes through the real binary
//! (`gate check --json`) and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

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
