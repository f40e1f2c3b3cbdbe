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

/// Left by red team 58 (an over-deny and an over-ask): `cp A DEST` writes `DEST/A` where DEST
/// is a directory, so `cp Cargo.toml docs/cargo.md` was denied and `cp docs/a.md docs/guide`
/// asked whatever DEST was. The edge now says whether DEST is a directory, and each write is
/// kept only where cp makes it, as long as nothing else in the call writes or is not allowed
/// (what the edge sees is then what cp meets).
#[test]
fn cp_writes_below_its_destination_only_where_that_is_a_directory() {
    let ws = check_common::red_team_workspace(false);
    std::fs::create_dir_all(ws.path().join("docs/guide")).unwrap();
    // bash: into a directory, the source's name below it; onto a file, the file.
    let out = check_common::bash_stdout(
        ws.path(),
        "d=$(mktemp -d) && mkdir $d/dir && echo a > $d/src && cp $d/src $d/dir && cp $d/src $d/file && ls $d/dir $d && rm -r $d",
    );
    assert!(out.contains("dir:\nsrc\n") && out.contains("file"), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "cp docs/a.md docs/guide",
            "cp docs/a.md docs/guide/",
            "cp -t docs/guide docs/a.md",
            "cd docs && cp a.md guide",
            "cp Cargo.toml docs/cargo.md",
            "cp src/a.rs docs/a-copy.md && git status",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["cp src/a.rs docs/guide", "cp docs/a.md src", "cp docs/a.md docs/x.md && wc -l \"$f\""],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "cp Cargo.toml docs/guide",
            "cp .env docs/guide/",
            "cp -t docs/guide .env",
            // The directory is made, or may be, by the same call: the edge's view is stale.
            "mkdir docs/cargo.md && cp Cargo.toml docs/cargo.md",
            "cp Cargo.toml docs/cargo.md && mkdir -p docs/cargo.md",
            "mkdir -p docs/x.md; cp .env docs/x.md",
            "cp x/.env .",
        ],
    );
}
