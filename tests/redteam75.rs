//! The red teams of the twenty-sixth session ("red team 75" in the code's comments, and the
//! cases left open by round 74 this session fixed). Each regression goes through the real
//! binary (`gate check --json`); where the answer rests on what bash or find does, bash is
//! asked.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Left by red team 74 (B A16, over-ask): `find . -name '*.rs' -execdir cat {} +` was asked
/// for `reads .` "after a directory change": find reads its start points where it runs, and
/// `{}` is `./NAME` in each match's directory, below them. What the command given to
/// `-execdir` names itself is still relative to a directory gate does not follow.
#[test]
fn find_execdir_names_are_below_the_start_points() {
    let ws = check_common::red_team_workspace(true);
    let printed = check_common::bash_stdout(ws.path(), "find src -name '*.rs' -execdir echo {} +");
    assert_eq!(printed.trim(), "./a.rs");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["find . -name '*.rs' -execdir cat {} +", "find src -name '*.rs' -execdir wc -l {} \\;"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find . -name '*.rs' -execdir cat ../.env {} +",
            "find /etc -name passwd -execdir cat {} +",
            "find . -execdir cat a.rs \\;",
            "cd /etc && find . -execdir cat {} +",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["find . -name '.e*' -execdir sed -i s/a/b/ {} +"]);
}

/// Left by red teams 69 to 74 (over-ask): `ROOT=$(git rev-parse --show-toplevel)` without `||
/// pwd`, then `"$ROOT/src/a.rs"`: as the inline form, the start's `./src/a.rs`, or
/// `/src/a.rs` where git prints nothing, held only where nothing is at `/src` and the call does
/// not write it. The value is the top where it was assigned, wherever it is used.
#[test]
fn git_top_in_a_variable_without_a_fallback() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "ROOT=\"$(git rev-parse --show-toplevel)\"; cat \"$ROOT/src/a.rs\"",
            "ROOT=$(git rev-parse --show-toplevel); cat \"$ROOT\"/src/a.rs",
            "ROOT=$(git rev-parse --show-toplevel); cd src; cat \"$ROOT/src/a.rs\"",
            "ROOT=$(git rev-parse --show-toplevel) && cd \"$ROOT\" && ls",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // (`/etc` is there: where git prints nothing this reads /etc/passwd.)
            "ROOT=$(git rev-parse --show-toplevel); cat \"$ROOT/etc/passwd\"",
            "ROOT=$(git rev-parse --show-toplevel); echo x > \"$ROOT/docs/n.md\"",
            // (Unquoted, a top with a blank splits.)
            "ROOT=$(git rev-parse --show-toplevel); cat $ROOT/src/a.rs",
            // (`cd ""` stays in src.)
            "ROOT=$(git rev-parse --show-toplevel); cd src; cd \"$ROOT\" && cat a.rs",
            "cd src; ROOT=$(git rev-parse --show-toplevel); cat \"$ROOT/src/a.rs\"",
            "ROOT=$(git rev-parse --show-toplevel); ROOT=/etc; cat \"$ROOT/passwd\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["ROOT=$(git rev-parse --show-toplevel); sed -i s/a/b/ \"$ROOT/.env\""],
    );
    // Where git prints nothing, bash reads below `/`.
    let printed = check_common::bash_stdout(
        ws.path(),
        "ROOT=$(GIT_DIR=/nonexistent git rev-parse --show-toplevel 2>/dev/null); echo \"$ROOT/etc/passwd\"",
    );
    assert_eq!(printed.trim(), "/etc/passwd");
}

/// Left by red team 74 (over-deny): `ls -d docs/*.md | xargs sed -i ...` was denied for the
/// `.env` a bare name could be. With `-d`, ls prints its operands themselves, never a
/// directory's entries: the names are the glob's, below `docs`. Without `-d` a matched
/// directory's entries come bare (`Cargo.toml`), so that stays denied; a name a blank would
/// split is looked at by the edge.
#[test]
fn ls_d_prints_its_operands_only() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "docs/x.md/Cargo.toml", "");
    let printed = check_common::bash_stdout(ws.path(), "ls -d docs/*.md; echo --; ls docs/*.md");
    let (with_d, without) = printed.split_once("--\n").unwrap();
    assert!(with_d.lines().all(|l| l.starts_with("docs/")), "{printed}");
    assert!(without.lines().any(|l| l == "Cargo.toml"), "{printed}");
    std::fs::remove_dir_all(ws.path().join("docs/x.md")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["ls -d docs/*.md | xargs sed -i s/a/b/", "ls -1d docs/* | xargs sed -i s/a/b/"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["ls docs/*.md | xargs sed -i s/a/b/", "ls -d | xargs sed -i s/a/b/", "ls -d docs/*.md | xargs rm"],
    );
    check_common::write_file(ws.path(), "docs/x .env.md", "");
    check_common::assert_in_dir(ws.path(), "ask", &["ls -d docs/*.md | xargs sed -i s/a/b/"]);
}
