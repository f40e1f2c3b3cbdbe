//! The red teams of the fourteenth session ("red team 50" in the code's comments): black-box
//! helpers aimed at option grammars and git (E), paths, stored code and shell state (F), and
//! a fresh replica of the issue's hidden set (G). Each regression goes through the real binary
//! (`gate check --json`), in a workspace the test makes, and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use check_common::{assert_in_dir as assert_in, write_file as write};
use proptest::prelude::*;

const POLICY: &str = check_common::RED_TEAM_POLICY;

/// Red team 50 (F40-F42): a file named `--files0-from=.md` in the workspace, and a glob that
/// starts a word matches it: `wc -c *` reads it as an option, and then every file the list
/// names, wherever it is. bash shows it; gate asks. (It was allowed: the glob was decided as
/// reads of the directory's files.)
#[test]
fn a_glob_that_matches_a_name_starting_with_a_dash_gives_an_option() {
    let ws = check_common::workspace(POLICY);
    let w = ws.path();
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret");
    std::fs::write(&secret, "s3cret\n").unwrap();
    write(w, "docs/a.md", "# a\n");
    write(w, "docs/.md", &format!("{}\0", secret.display()));
    write(w, "docs/--files0-from=.md", "");
    // The oracle: bash and wc read the file outside.
    assert!(check_common::bash_stdout(w, "cd docs && wc -c *-*").contains(&secret.display().to_string()));
    assert_in(
        w,
        "ask",
        &[
            "cd docs && wc -c *",
            "cd docs && wc -c *-*",
            "cd docs && du -a *.md",
            "cd docs && for f in *.md; do wc -l \"$f\"; done",
            "cd docs && cat *",
            "cd docs && printf '%s\\0' * | xargs -0 wc -c",
        ],
    );
    let d = check_common::command_in_dir(w, "cd docs && wc -c *");
    assert!(d.to_string().contains("matches `--files0-from=.md`, which the program would read as an option"), "{d}");
    // A glob after a directory gives `docs/--files0-from=.md`: no option.
    assert_in(w, "allow", &["wc -c docs/*", "wc -l src/*.rs", "cd src && wc -l *.rs", "grep -n main *"]);
}

/// Red team 50 (F40): the same, with the file made earlier in the same call, where gate
/// cannot see it when it decides: a write of a name starting with `-` is asked.
#[test]
fn a_write_of_a_name_starting_with_a_dash_is_asked() {
    let ws = check_common::workspace(POLICY);
    let w = ws.path();
    write(w, "docs/a.md", "# a\n");
    assert_in(
        w,
        "ask",
        &[
            "printf '/etc/shadow\\0' > docs/.md; : > 'docs/--files0-from=.md'; cd docs && wc -c *-*",
            "echo hi > docs/-n.md",
            "cd docs && echo > ./--files0-from=x.md",
        ],
    );
    assert_in(w, "allow", &["echo hi > docs/b.md", "echo hi > docs/a-b.md"]);
}

/// Red team 50 (F46-F48): `git -C DIR` runs git in DIR, so the paths it is given are below
/// DIR: `git -C src diff --output ../Cargo.toml` writes `./Cargo.toml` (it was asked as a
/// write outside the workspace; a write in `src/docs` was allowed as one in `docs`).
#[test]
fn git_dash_c_paths_are_below_its_directory() {
    let ws = check_common::red_team_workspace(true);
    let w = ws.path();
    assert_in(
        w,
        "deny",
        &[
            "git -C src archive -o ../Cargo.toml HEAD",
            "git -C docs checkout -- ../Cargo.toml",
            "git -C src diff --output ../Cargo.toml",
            "git -C src -C .. diff --output=Cargo.toml",
        ],
    );
    assert_in(w, "ask", &["git -C src diff --output=docs/x.md", "git -C \"$d\" diff --output=x.md"]);
    assert_in(w, "allow", &["git -C docs diff --output=x.md", "git -C src log --oneline -- a.rs", "git -C src status"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// Any name starting with `-` in a directory, and a reading program given a glob that
    /// matches it at the start of the word: never allowed.
    #[test]
    fn a_dash_name_a_glob_matches_is_never_allowed(
        name in "-{1,2}[a-z][a-z0-9=.]{0,12}",
        program in prop::sample::select(vec!["wc -c", "cat", "head", "grep -n x", "du -a", "ls -l", "sort"]),
        glob in prop::sample::select(vec!["*", "?*", "[-]*", "*[a-z0-9.=]"]),
    ) {
        let ws = check_common::workspace(POLICY);
        let w = ws.path();
        write(w, &format!("docs/{name}"), "");
        let command = format!("cd docs && {program} {glob}");
        let d = check_common::command_in_dir(w, &command);
        prop_assert_ne!(&d["decision"], "allow", "{}: {}", command, d);
    }
}

/// Red team 50 (G31-G53): a program that opens `/dev/stdout`, `/dev/stderr` or `/dev/fd/N`
/// by name (tee, `sort -o`, `git --output=`) opens the file that descriptor is on again, for
/// writing, even when a redirection opened it for reading. bash shows it; gate denies it.
#[test]
fn a_descriptor_opened_for_reading_is_written_through_its_name() {
    let ws = check_common::red_team_workspace(false);
    let w = ws.path();
    // The oracle, in a scratch copy: tee truncates and writes Cargo.toml.
    let scratch = tempfile::tempdir().unwrap();
    std::fs::write(scratch.path().join("Cargo.toml"), "[package]\n").unwrap();
    check_common::bash_stdout(scratch.path(), "exec 3<Cargo.toml; echo '[x]' | tee /dev/stdout >&3");
    assert_eq!(std::fs::read_to_string(scratch.path().join("Cargo.toml")).unwrap(), "[x]\n");
    assert_in(
        w,
        "deny",
        &[
            "exec 3<Cargo.toml; tee /dev/stderr < docs/a.md 2>&3 >/dev/null",
            "sort -o /dev/stdout docs/a.md < Cargo.toml >&0",
            "sort docs/a.md -o /dev/stdout <.env >&0",
            "git log -1 --output=/dev/stdout 3<Cargo.toml >&3",
            "exec 3<.env; echo X=1 | tee /dev/stdout >&3",
            "exec 7<Cargo.toml; echo '[x]' | tee /dev/stdout 1>&7",
            "echo X=1 | tee /dev/fd/0 < .env",
            "sort -o /dev/stdin docs/a.md < Cargo.toml",
            "echo '[x]' | tee /dev/fd/3 3<Cargo.toml >/dev/null",
        ],
    );
    assert_in(
        w,
        "allow",
        &[
            "echo x | tee /dev/stderr",
            "npm test 2>&1 | tee /dev/stderr",
            "cat < docs/a.md >&2",
            "sort < docs/a.md > docs/b.md 2>&1",
        ],
    );
}

/// Red team 50 (E01-E07): git's `--get-regexp` pattern is an unanchored extended regexp, so
/// `'user.*|.'` matches every key of ~/.gitconfig, and `--get-urlmatch http.extraheader URL`
/// prints a token: reads of the user's configuration, asked.
#[test]
fn git_config_patterns_and_url_matches_that_reach_credentials_are_asked() {
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            "git config --get-urlmatch http.extraheader https://github.com",
            "git config --get-urlmatch http.proxy https://example.com",
            "git config --get-regexp 'user.*|.'",
            "git config --get-regexp 'user.x|credential'",
            "git config --get-regexp 'user\\..*|http'",
            "git config get --all --show-names --regexp 'user.name|extraheader'",
            "git config --get-regexp user",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "git config --get-regexp alias",
            "git config --get-regexp '^alias\\.'",
            "git config --get-regexp '^user\\..*'",
            "git config user.name",
        ],
    );
}

/// Red team 50 (E13, E15, E16): over-asks of everyday lookups.
#[test]
fn everyday_lookups_red_team_50_found_asked_are_allowed() {
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "command -p -v curl",
            "command -p -V rm",
            "git --help",
            "tr -dc 'a-z0-9' < /dev/urandom | head -c 16",
            // (Red team 49 D: NUL-separated names of a workspace glob.)
            "printf '%s\\0' src/*.rs | xargs -0 wc -l",
        ],
    );
    check_common::assert_all_with(POLICY, "deny", &["command -p rm x", "command -p -- rm x"]);
}

/// Red team 50 (F10-F12): `stat -c %s`, `id -u` and `date +%Y` print only numbers, which
/// arithmetic can use; their forms that print names (`%n`, `-un`, `%A`) stay asked.
#[test]
fn numbers_from_stat_id_and_date_are_numbers_in_arithmetic() {
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "size=$(stat -c %s src/a.rs); echo \"$((size / 1024)) KiB\"",
            "(( $(id -u) == 0 )) && echo root",
            "y=$(date +%Y); echo $((y + 1))",
            "d=$(date +%Y%m%d); echo $((d % 100))",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "ask",
        &["y=$(date +%A); echo $((y + 1))", "x=$(stat -c %n src/a.rs); echo $((x))", "x=$(id -un); echo $((x))"],
    );
}

/// Red team 50 (F43-F45): a directory copied whole writes every name below it into the
/// copy: `cp -r . docs/bak` writes `docs/bak/.env` and `docs/bak/Cargo.toml` (bash shows it),
/// `git checkout-index -a -f` rewrites every tracked file, `git clone . docs/copy` writes the
/// repository's files below `docs/copy`. Denied where a write deny rule holds such a name.
#[test]
fn a_directory_copied_whole_writes_the_names_below_it() {
    let ws = check_common::red_team_workspace(true);
    let w = ws.path();
    // (Copied next to the tree, not into it: GNU cp stops where `docs/bak` would copy itself,
    // after or before Cargo.toml as the directory happens to list them, which made the
    // oracle flaky.)
    let scratch = tempfile::tempdir().unwrap();
    write(scratch.path(), "proj/Cargo.toml", "[package]\n");
    write(scratch.path(), "proj/docs/a.md", "# a\n");
    check_common::bash_stdout(&scratch.path().join("proj"), "cp -r . ../bak 2>/dev/null");
    assert!(scratch.path().join("bak/Cargo.toml").exists());
    assert!(scratch.path().join("bak/docs/a.md").exists());
    assert_in(
        w,
        "deny",
        &[
            "cp -r . docs/bak",
            "cp -a ./ docs/x",
            "cp -rt docs/bak .",
            "cp -r -t docs/bak .",
            "cp --target-directory=docs/bak -R .",
            "rsync -a ./ docs/x/",
            "git checkout-index -a -f",
            "git clone -q . docs/copy",
        ],
    );
    let d = check_common::command_in_dir(w, "cp -r . docs/bak");
    assert!(d.to_string().contains("`.` is copied whole: `docs/bak/Cargo.toml` is written"), "{d}");
    // A copy of a directory that holds no such name is decided by its destination.
    assert_in(w, "ask", &["cp -r src docs/src"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]
    /// A denied name anywhere below a directory, and that directory copied whole by any of
    /// the spellings: never allowed.
    #[test]
    fn a_copy_of_a_directory_holding_a_denied_name_is_denied(
        sub in "[a-z]{1,6}",
        denied in prop::sample::select(vec!["Cargo.toml", ".env", ".env.local"]),
        copy in prop::sample::select(vec!["cp -r", "cp -R", "cp -a", "cp -rv", "cp --recursive", "rsync -a", "rsync -rv"]),
        dest in prop::sample::select(vec!["docs/bak", "docs/x/y", "backup"]),
    ) {
        let ws = check_common::workspace(POLICY);
        let w = ws.path();
        write(w, &format!("pkg/{sub}/{denied}"), "x\n");
        let command = format!("{copy} pkg {dest}");
        let d = check_common::command_in_dir(w, &command);
        prop_assert_eq!(&d["decision"], "deny", "{}: {}", command, d);
    }
}

/// Red team 50 (E08, E09): `git grep -O'CMD'` runs CMD on the files its pathspec selects, so
/// a pattern pathspec is a filtered listing handed to unseen code; git's `*` matches a
/// leading dot (`'*env'` selects `.env`). Denied where a write deny rule matches the pattern.
#[test]
fn git_grep_open_in_pager_on_a_pathspec_pattern_is_denied() {
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "git grep -O'sed -i s/w/v/' name -- '*.toml'",
            "git grep -O'sed -i s/SECRET/X/' SECRET -- '*env'",
            "git ls-files '*env' | xargs sed -i s/a/b/",
        ],
    );
    check_common::assert_all_with(POLICY, "ask", &["git grep -Oless x -- '*.rs'"]);
}

/// Red team 50 (E10-E12, E14): bundles of listing flags and `notes get-ref` are listings.
#[test]
fn git_listing_flags_bundled_are_listings() {
    check_common::assert_all_with(
        POLICY,
        "allow",
        &["git tag -ln", "git tag -ln5", "git worktree prune -nv", "git config --local -lz", "git notes get-ref"],
    );
    check_common::assert_all_with(POLICY, "ask", &["git tag -la v1", "git worktree prune -v", "git config -le"]);
}
