//! Links below a directory a command walks (red team G of the eleventh round, issue 15 class
//! 5): `find . -exec cat {} +`, `find . | xargs cat`, `grep -R`, `diff -r` read what the links
//! below their directories lead to. gate lists the directories at the edge and decides each
//! link where it leads; a walk that would look at too many names is asked. Each regression
//! goes through the real binary (`gate check --json`) and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use std::os::unix::fs::symlink;
use std::path::Path;

const POLICY: &str = "version: 1\npermissions:\n  deny: [ \"Bash(rm *)\", \"Read(**/secret*)\" ]\n";

fn decide(ws: &Path, command: &str) -> serde_json::Value {
    check_common::check_in_dir(ws, "Bash", &serde_json::json!({ "command": command }))
}

fn assert_none_allowed(ws: &Path, commands: &[&str]) {
    for c in commands {
        let d = decide(ws, c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
}

fn assert_all(ws: &Path, expect: &str, commands: &[&str]) {
    for c in commands {
        let d = decide(ws, c);
        assert_eq!(d["decision"], expect, "{c}: {d}");
    }
}

/// A workspace with `src/a.rs`, `docs/a.md` and `notes/` holding only plain files (a test
/// that needs a file the policy denies reading writes `secret.txt`).
fn ws() -> tempfile::TempDir {
    let ws = check_common::workspace(POLICY);
    std::fs::create_dir_all(ws.path().join("docs")).unwrap();
    std::fs::create_dir_all(ws.path().join("notes")).unwrap();
    std::fs::write(ws.path().join("docs/a.md"), "# a\n").unwrap();
    std::fs::write(ws.path().join("notes/n.txt"), "n\n").unwrap();
    ws
}

#[test]
fn find_exec_and_xargs_fed_by_find_read_where_links_below_lead() {
    let ws = ws();
    symlink("/etc/passwd", ws.path().join("docs/pw")).unwrap();
    assert_all(
        ws.path(),
        "ask",
        &[
            "find . -exec cat {} \\;",
            "find . -exec cat {} +",
            "find docs -name pw -exec cat {} +",
            "find docs -iname PW -exec cat {} +",
            "find . -ok cat {} \\;",
            "find . | xargs cat",
            "find docs -print0 | xargs -0 grep root",
            "find . -name 'p*' | xargs cat",
            "find . -type l -exec cat {} +",
            "find . -type f,l -exec cat {} +",
            "find . -type f -o -name pw -exec cat {} +",
            "find . ! -type f -exec cat {} +",
            "find . -type f -exec true {} \\; -o -exec cat {} +",
            "find . -type f -exec true {} \\; , -exec cat {} +",
            "find -name pw | xargs cat",
            "find -L . -type f -exec cat {} +",
            "find -L docs",
            "cd docs && find . -exec cat {} +",
        ],
    );
    let d = decide(ws.path(), "find . -exec cat {} +");
    assert!(d.to_string().contains("`docs/pw` leads to `/etc/passwd`"), "{d}");
    // Where no link can reach the command: another directory, a test that lets no link
    // through, a name no link has.
    assert_all(
        ws.path(),
        "allow",
        &[
            "find src -exec cat {} +",
            "find notes | xargs cat",
            "find . -type f -exec cat {} +",
            "find . -type f -name '*.md' -exec grep x {} +",
            "find docs -name '*.md' -exec cat {} +",
            "find . -name '*.rs' | xargs grep fn",
            "find . -name x",
            "find -name '*.md' | xargs cat",
        ],
    );
}

#[test]
fn a_link_below_to_a_denied_file_is_denied() {
    let ws = ws();
    std::fs::write(ws.path().join("secret.txt"), "k\n").unwrap();
    symlink("../secret.txt", ws.path().join("docs/s.md")).unwrap();
    symlink("../../secret.txt", ws.path().join("notes/n2.txt")).unwrap();
    assert_all(ws.path(), "deny", &["find docs -exec cat {} +", "grep -R x notes", "find notes | xargs cat"]);
    // A link that stays inside the workspace and names no denied file is allowed.
    symlink("../src/a.rs", ws.path().join("docs/b.md")).unwrap();
    assert_all(ws.path(), "allow", &["find src docs -name b.md -exec cat {} +", "rg -L fn src"]);
}

#[test]
fn a_link_to_a_directory_is_walked_too_and_cycles_end() {
    let ws = ws();
    // docs/n -> ../notes, and notes/deep -> /etc: reached only through the first link.
    symlink("../notes", ws.path().join("docs/n")).unwrap();
    symlink("/etc", ws.path().join("notes/deep")).unwrap();
    // A link to its own directory and to the workspace: walked once.
    symlink(".", ws.path().join("docs/self")).unwrap();
    symlink("..", ws.path().join("docs/up")).unwrap();
    let d = decide(ws.path(), "find docs -exec cat {} +");
    assert_eq!(d["decision"], "ask", "{d}");
    assert!(d.to_string().contains("leads to `/etc`"), "{d}");
    assert_all(ws.path(), "ask", &["grep -R x docs", "du -L docs"]);
    // src has no link: allowed.
    assert_all(ws.path(), "allow", &["grep -R x src"]);
}

#[test]
fn a_dangling_link_below_is_decided_where_it_points() {
    let ws = ws();
    symlink("/nonexistent-gate-dir/key", ws.path().join("docs/k")).unwrap();
    symlink("../missing.md", ws.path().join("notes/m")).unwrap();
    assert_all(ws.path(), "ask", &["find docs -exec cat {} +"]);
    assert_all(ws.path(), "allow", &["find notes -exec cat {} +"]);
}

#[test]
fn a_walk_over_more_names_than_gate_looks_at_is_asked() {
    let ws = ws();
    // More entries than the decision's budget (100,000 names) in one directory.
    let big = ws.path().join("big");
    std::fs::create_dir_all(&big).unwrap();
    for i in 0..100_001 {
        std::fs::File::create(big.join(i.to_string())).unwrap();
    }
    let d = decide(ws.path(), "find big -exec cat {} +");
    assert_eq!(d["decision"], "ask", "{d}");
    assert!(d.to_string().contains("more names or links than gate looks at"), "{d}");
    assert_all(ws.path(), "allow", &["find notes -exec cat {} +", "find big -maxdepth 1 -type d"]);
    // No link gets through `-type f`, but a read rule could name a file below: asked too.
    assert_all(ws.path(), "ask", &["find big -type f -exec cat {} +"]);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Wherever a link out of the workspace sits below a walked directory (any depth, any
    /// name, behind a link to another directory of the workspace or not), no command that
    /// walks that directory following links, or hands find's names on, is allowed; the same
    /// commands over a directory that cannot reach it are.
    #[test]
    fn a_link_out_anywhere_below_a_walked_directory_is_never_allowed(
        depth in 0usize..4,
        name in proptest::sample::select(vec!["pw", "a.md", ".hidden", "x y", "z.rs"]),
        via_link in proptest::bool::ANY,
        form in proptest::sample::select(vec![
            "find ROOT -exec cat {} +",
            "find ROOT -ok cat {} \\;",
            "find ROOT | xargs cat",
            "find -L ROOT -type f -exec cat {} +",
            "grep -R x ROOT",
            "rg -L x ROOT",
            "du -L ROOT",
            "ls -RL ROOT",
            "tree -l ROOT",
            "diff -r ROOT src",
        ]),
    ) {
        let ws = ws();
        let mut dir = ws.path().join("deep");
        for i in 0..depth {
            dir = dir.join(format!("d{i}"));
        }
        std::fs::create_dir_all(&dir).unwrap();
        symlink("/etc/passwd", dir.join(name)).unwrap();
        // The walked directory reaches `deep` directly, or only through a link to it.
        let root = if via_link {
            symlink("../deep", ws.path().join("docs/to-deep")).unwrap();
            "docs"
        } else {
            "deep"
        };
        let c = form.replace("ROOT", root);
        let d = decide(ws.path(), &c);
        proptest::prop_assert_ne!(&d["decision"], "allow", "{}: {}", c, d);
        let c = form.replace("ROOT", "notes");
        let d = decide(ws.path(), &c);
        proptest::prop_assert_eq!(&d["decision"], "allow", "{}: {}", c, d);
    }
}

/// The red team of the mechanism (helper, this session): find's words read as find reads them,
/// a walk started by what find or xargs hands on, globs and run-time directories, zcat and diff.
#[test]
fn redteam_links_below_find_words_handed_roots_globs_zcat_and_diff() {
    let ws = ws();
    symlink("/etc/passwd", ws.path().join("docs/pw")).unwrap();
    // Asked (a glob that could expand to a name the read rule denies is denied).
    assert_none_allowed(
        ws.path(),
        &[
            // `-printf` takes `-type`/`-name` as its format: no filter.
            "find docs -printf -type -true -exec cat {} +",
            "find docs -printf -name -print -exec cat {} +",
            // `-D` takes a value; a lone `-` is a start point.
            "find -D tree -P docs -exec cat {} +",
            "cd src && find - ../docs -exec cat {} +",
            // fnmatch patterns globset reads otherwise match every name.
            "find docs -name 'p[[:alpha:]]' -exec cat {} +",
            "find docs -name '{a,pw}' -exec cat {} +",
            // The command find or xargs hands directories to walks them itself.
            "find . -type d -exec grep -R root {} +",
            "find . -name docs -exec grep -R root {} +",
            "cd src && find ../docs -type d | xargs grep -R root",
            // Globs and run-time directories as walk roots.
            "grep -R root *",
            "grep -R root d*",
            "grep -R root \"$PWD\"",
            "rg -L root -- *",
            "du -L *",
            // zcat -r follows links; diff compares two directories' files without -r too.
            "zcat -rf docs",
            "diff -N docs src",
            "diff -N --from-file=docs src",
        ],
    );
    assert_all(
        ws.path(),
        "allow",
        &["grep -R x src", "zcat -rf src", "diff src src", "find src -print0 | xargs -0 cat"],
    );
}

#[test]
fn xargs_without_nul_splits_names_below_with_blanks() {
    let ws = ws();
    std::fs::create_dir_all(ws.path().join("docs/x /etc")).unwrap();
    std::fs::write(ws.path().join("docs/x /etc/passwd"), "").unwrap();
    assert_all(ws.path(), "ask", &["find docs -type f | xargs cat", "find . | xargs -r cat"]);
    assert_all(ws.path(), "allow", &["find docs -type f -print0 | xargs -0 cat", "find src | xargs cat"]);
}

#[test]
fn a_recursive_read_of_a_directory_holding_a_denied_file_is_denied() {
    let ws = ws();
    std::fs::create_dir_all(ws.path().join("notes/deep")).unwrap();
    std::fs::write(ws.path().join("notes/deep/secret.key"), "k").unwrap();
    assert_all(
        ws.path(),
        "deny",
        &[
            "grep -r KEY .",
            "grep -r KEY",
            "grep -R KEY notes",
            "grep -d recurse KEY notes",
            "grep --directories=rec KEY notes",
            "grep -r --include='secret*' KEY notes",
            "find notes -exec cat {} +",
            "find . -name 'secret*' | xargs cat",
            "diff -r notes src",
        ],
    );
    let d = decide(ws.path(), "grep -r KEY notes");
    assert!(d.to_string().contains("holds `notes/deep/secret.key`"), "{d}");
    assert_all(
        ws.path(),
        "allow",
        &[
            "grep -r KEY src docs",
            "grep KEY notes/n.txt",
            "grep -r --exclude='secret*' KEY notes",
            "grep -r --exclude-dir=deep KEY notes",
            "grep -r --include='*.txt' KEY notes",
            "find notes -name '*.txt' -exec cat {} +",
            "find notes -type d -exec ls -d {} +",
            "find notes -exec echo {} +",
        ],
    );
}
