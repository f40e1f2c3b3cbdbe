//! The red teams of the seventeenth session ("red team 59" in the code's comments), and the
//! over-asks the sixteenth left. Each regression goes through the real binary (`gate check
//! --json`), and where it can, bash itself shows the truth.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

const POLICY: &str = check_common::RED_TEAM_POLICY;

/// Left by red team 58 (an over-ask): `mkdir -p docs/guide && touch docs/guide/x.md` asked,
/// though the policy allows the files it is made for. A directory mkdir makes is allowed where
/// an allow rule on paths allows files directly in it; deny and ask rules, gate's own files
/// and paths outside the workspace decide it first, and elsewhere it is still a write.
#[test]
fn a_directory_mkdir_makes_is_allowed_where_the_allow_rules_allow_its_files() {
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "mkdir -p docs/guide && touch docs/guide/x.md",
            "mkdir docs/new",
            "mkdir -p docs/new/deeper && printf '# x\\n' > docs/new/deeper/x.md",
            "cd docs && mkdir -p api/v2",
            "mkdir -pv docs/a docs/b",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            "mkdir src/new",
            "mkdir docs/../src/x",
            "mkdir -p /tmp/docs",
            "mkdir docs/.git",
            "mkdir -p .git/docs",
            "mkdir \"$d\"",
            "mkdir -p docs/x && mkdir src/y",
            "cd .. && mkdir docs",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &["mkdir -p docs/.env", "mkdir docs/.env.d", "mkdir -p docs/x/../../.env/y", "mkdir Cargo.toml"],
    );
}
