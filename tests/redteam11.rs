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
    assert_all("ask", &["cd $D; echo x > a.md", "echo x > $d/a.md", "echo x > ${x:-a/.env}"]);
}
