//! The eleventh red team's git findings: read-only listings asked because the option tables
//! did not know them (`git branch --column`, `git config --bool KEY`, `git notes --ref R
//! list`, `git diff --text` read as `--textconv`, `git log --grep "$g"` read as a path), and
//! git writes a deny rule matches that were only asked (pathspec magic `:(top).env`, git's
//! own glob `'*.env'`, `git restore -p`, `git clean PATH`, `git stash push PATH`). Each
//! regression goes through the real binary (`gate check --json`) and is named after what it
//! shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

const POLICY: &str = "version: 1\npermissions:\n  allow:\n    - Bash(npm test)\n    - Bash(git log *)\n    - { tool: write, when: { file_path: \"docs/**/*.md\" } }\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Write(**/.env*)\" ]\n";

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

fn assert_not_allowed(commands: &[&str]) {
    check_common::assert_none_allowed_with(POLICY, commands)
}

#[test]
fn o9_branch_listings_with_display_options_are_allowed() {
    assert_all(
        "allow",
        &[
            "git branch --color=never",
            "git branch --column",
            "git branch --no-column",
            "git branch -vv --no-abbrev",
            "git branch --abbrev=7 -v",
            "git branch -q",
            "git branch --format '%(refname:short)'",
            "git branch --format='%(refname)'",
            "git branch --sort -committerdate",
            "git branch --sort=committerdate --omit-empty",
            "git branch -a --merged main",
            "git branch -l 'feat*' --sort -refname",
            "git branch --list --column=always",
            "git branch -avq",
        ],
    );
    // Without a listing option an operand names a branch to create (git 2.47: `git branch
    // -v foo` and `git branch --abbrev 7` create `foo` and `7`).
    assert_not_allowed(&[
        "git branch -v foo",
        "git branch --abbrev 7",
        "git branch -q foo",
        "git branch --sort x foo",
        "git branch --format x foo",
        "git branch --column foo",
        "git branch -vd foo",
        "git branch -u origin/main",
        "git branch --set-upstream-to=origin/main",
        "git branch --edit-description",
        "git branch -- foo",
    ]);
}

#[test]
fn o9_read_only_git_forms_are_allowed() {
    assert_all(
        "allow",
        &[
            "git config --bool core.bare",
            "git config --int core.abbrev",
            "git config --type=bool core.bare",
            "git notes --ref x list",
            "git notes --ref=x show HEAD",
            "git annotate src/a.rs",
            "git bisect log",
            "git hash-object src/a.rs",
            "git hash-object -t blob src/a.rs",
            "git check-ref-format X",
            "git check-ref-format --branch main",
            "git sparse-checkout list",
            "git remote get-url --push origin",
            "git remote get-url --all origin",
            "git replace -l",
            "git replace --list 'a*' --format=medium",
            "git replace",
        ],
    );
    assert_not_allowed(&[
        "git config --bool core.bare true",
        "git config --type=bool core.bare false",
        "git notes --ref x add -m y",
        "git bisect start",
        "git bisect good",
        "git hash-object -w src/a.rs",
        "git hash-object -tw src/a.rs",
        "git hash-object --stdin-paths",
        "git hash-object /etc/passwd",
        "git annotate /etc/passwd",
        "git sparse-checkout set src",
        "git sparse-checkout disable",
        "git remote get-url --push origin other",
        "git remote get-url --bogus origin",
        "git replace a b",
        "git replace -d a",
        "git replace -l -d a",
    ]);
}

#[test]
fn o4_text_is_its_own_option_except_for_cat_file() {
    assert_all("allow", &["git diff --text", "git show --text HEAD", "git log -p --text", "git diff -a"]);
    // cat-file has no `--text`: git takes it for `--textconv`, as it does `--tex`.
    assert_not_allowed(&[
        "git cat-file --text HEAD:src/a.rs",
        "git -c color.ui=never cat-file --text HEAD:src/a.rs",
        "git diff --textconv",
        "git diff --tex",
    ]);
}

#[test]
fn o5_log_search_values_only_known_at_run_time_are_no_paths() {
    assert_all(
        "allow",
        &[
            "git log -S\"$s\"",
            "git log -G\"$s\" --oneline",
            "git log --grep \"$g\"",
            "git log --author \"$a\" -n \"$n\"",
            "git log --since \"$d\" --until \"$e\"",
            "git log -S \"$s\"",
        ],
    );
    // A value that may split into more words, a path after it, or an option whose value is a
    // file: as before.
    assert_not_allowed(&[
        "git log -S$s",
        "git log --grep $g",
        "git log --grep \"$g\" \"$p\"",
        "git log -S\"$s\" /etc/passwd",
        "git log -O \"$f\"",
        "git log --output \"$f\"",
        "git log --grep \"$g\" --output=/tmp/x",
    ]);
}

#[test]
fn d1_git_writes_through_pathspec_magic_and_git_globs_are_denied() {
    assert_all(
        "deny",
        &[
            "git restore ':(top).env'",
            "git restore ':/.env'",
            "git restore ':/:.env'",
            "git restore ':.env'",
            "git restore ':(top,icase)SUB/.ENV'",
            "git restore ':(icase).ENV'",
            "git --icase-pathspecs restore .ENV",
            "git restore ':(glob)**/.env'",
            "git restore ':(glob)*env'",
            "git restore ':(attr:x).env'",
            "git restore '[.]env'",
            "git restore 'su?/.env'",
            "git restore '?env'",
            "git restore 'sub?.env'",
            "git restore 'sub*'",
            "git restore '.e*'",
            "git checkout HEAD -- '*.env'",
            "git checkout HEAD -- *.env",
            "git checkout ':(top).env'",
            "git checkout HEAD ':/.env'",
            "git rm -r '*.env'",
            "git restore -p .env",
            "git restore --patch .env",
            "git restore -p -s HEAD .env",
            "git clean -f .env.local",
            "git clean -fdx -- .env",
            "git clean -f -e x .env",
            "git clean -fx ':(top).env.local'",
            "git stash push -- .env",
            "git stash push .env",
            "git stash push -m msg -- .env",
            "git stash push --message msg .env",
            "git stash -- .env",
            "git stash -p -- '*.env'",
        ],
    );
    assert_all("deny", &["git restore ':!src'"]);
    // A dry run removes nothing, `-f` or not (red team 43 made `git clean -n` read-only).
    assert_all("allow", &["git clean -fn .env", "git clean --dry-run .env"]);
    // Exclusions write nothing they name (alone, git takes every other path: denied as `git
    // restore .` is, since red team 83 read pathspec magic);
    // `:(literal)` and `--literal-pathspecs` keep `*` literal; magic git refuses;
    // option values; `stash save`'s message.
    assert_all(
        "ask",
        &[
            "git restore ':(exclude).env' src/a.rs",
            "git --literal-pathspecs restore '*.env'",
            "git clean -f -e .env",
            "git clean -f --exclude .env",
            "git stash push -m .env",
            "git stash save .env",
            "git restore src/a.rs",
            "git restore ':(top)src/a.rs'",
            "git restore 'src/a.r?'",
            "git restore --pathspec-from-file=list",
            "git stash push --pathspec-from-file list",
            "git restore 'src/?.rs'",
        ],
    );
    // Magic git refuses, in a call that names a denied file: denied (red team 45: a write
    // known only at run time where the call names a denied file).
    assert_all("deny", &["git restore ':#.env'", "git restore ':(foo).env'"]);
    // A literal path may be a directory git puts back, with a `.env` below it (red team 62:
    // `git restore .` rewrote `.env`).
    assert_all("deny", &["git restore ':(literal)*.env'"]);
}
