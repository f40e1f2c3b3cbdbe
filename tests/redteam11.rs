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
