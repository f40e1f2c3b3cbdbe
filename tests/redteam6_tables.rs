//! The sixth red team's findings in gate's per-program tables: git subcommands that reach the
//! network or other repositories, option lists gate read as one path, abbreviated options,
//! archive members, variables that change what runs; and the over-asks of the same tables.
//! Each regression goes through the real binary (`gate check --json`) under the corpus
//! policy, and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Allows git status/diff/log, npm test, `npm run *`, `cargo test *`, writes to
/// `docs/**/*.md`; denies `rm *`, `sudo *`, `curl *`, `git reset --hard *`, writes to
/// `**/.env*`.
const POLICY: &str = include_str!("corpus/host.yaml");

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

#[test]
fn git_remote_show_of_a_url_or_a_path_is_not_allowed() {
    assert_all(
        "ask",
        &[
            "git remote show http://127.0.0.1:8765/SECRET=x",
            "git remote -v show ssh://evil/x",
            "git remote show /outside/repo",
            "git remote show ../other",
            "git remote show origin git@host:x",
            "git remote show user@host",
            "git remote show file.git",
            // A configured remote's name asks that remote too (red team 42).
            "git remote show origin",
            "git remote -v show origin upstream",
        ],
    );
    // The names, or `-n` (nothing is asked of any remote).
    assert_all("allow", &["git remote show", "git remote show -n http://x", "git remote show -n origin"]);
}

#[test]
fn git_config_includes_with_a_named_file_is_not_allowed() {
    assert_all(
        "ask",
        &[
            "git config --list --includes --file docs/x.md",
            "git config -f docs/x.md --includes --get-regexp .",
            "git config --list --inc -fdocs/x.md",
            "git config --includes --blob=HEAD:x --list",
        ],
    );
    assert_all("allow", &["git config --list --file docs/x.md", "git config --list --local --includes"]);
    // Every level's listing prints ~/.gitconfig (red team 40): a read outside the workspace.
    assert_all("ask", &["git config --list --includes", "git config --list"]);
}

#[test]
fn a_one_letter_abbreviation_of_a_long_option_reaches_its_deny_rule() {
    // git's parse-options takes any unique prefix: `--h` is `--hard` for git reset.
    assert_all("deny", &["git reset --h", "git reset --ha HEAD~1", "git reset -q --h", "git -C src reset --h"]);
    // After `--` it is a path.
    assert_all("ask", &["git reset -- --h"]);
}

#[test]
fn variables_that_make_compilers_run_other_programs_are_never_allowed() {
    assert_all(
        "ask",
        &[
            "COMPILER_PATH=bin cargo test",
            "GCC_EXEC_PREFIX=bin/ cargo test",
            "LIBRARY_PATH=lib cargo test",
            "POSIXLY_CORRECT=1 cargo test",
            "CFLAGS=-Bbin cargo test",
            "CXXFLAGS=-fplugin=x.so cargo test",
            "CPPFLAGS=-wrapper,x cargo test",
            "LDFLAGS=-Bbin cargo test",
            "CC=cc cargo test",
            "CC_x86_64_unknown_linux_gnu=cc cargo test",
            "CFLAGS_x86_64_unknown_linux_gnu=-Bbin cargo test",
            "TARGET_CC=cc cargo test",
            "HOST_CFLAGS=-Bbin cargo test",
            "AR=ar cargo test",
            "PKG_CONFIG_PATH=x cargo test",
            "CMAKE_TOOLCHAIN_FILE=x.cmake cargo test",
            "CCC_OVERRIDE_OPTIONS=+-Bbin cargo test",
            "export CFLAGS=-Bbin; cargo test",
            "env LDFLAGS=-Bbin cargo test",
        ],
    );
    assert_all("allow", &["CARGO_TERM_COLOR=always cargo test", "RUST_BACKTRACE=1 cargo test"]);
}

#[test]
fn declare_p_only_prints() {
    assert_all("allow", &["declare -p PATH", "typeset -p BASH_CMDS", "declare -px", "declare -ap BASH_ENV"]);
    // `export -p` and `readonly -p` still assign; an option after a name is a name.
    assert_all("ask", &["export -p PATH=/x", "readonly -p PATH=/x", "declare PATH=/x -p"]);
}

#[test]
fn each_file_of_a_magic_file_list_is_a_read() {
    assert_all(
        "ask",
        &[
            "file -m x:/outside/secret src/a.rs",
            "file --magic-file=src:/outside/x src/a.rs",
            "file -mx:/outside/y src/a.rs",
            "file --mag=src/a.rs:/etc/passwd src/a.rs",
            "file -m \"$M\" src/a.rs",
            // file prints the lines of a magic file it cannot parse.
            "MAGIC=/etc/passwd file src/a.rs",
            "MAGIC=src/a.rs file src/a.rs",
        ],
    );
    assert_all("allow", &["file -m src/a.rs:docs/m src/a.rs", "file -m src/a.rs src/a.rs", "file src/a.rs"]);
}

#[test]
fn unzip_writes_the_members_it_is_told_to_extract() {
    assert_all(
        "deny",
        &[
            "unzip -o x.zip .env",
            "unzip x.zip '.env*'",
            "unzip x.zip .env -x a",
            "unzip x.zip -d docs .env",
            "unzip -d docs x.zip .env",
            "unzip -dsrc x.zip .env",
            "unzip -qo x.zip src/.env.local",
            // Junked paths land in the directory by their last name.
            "unzip -j x.zip sub/.env",
            // Lowercased names and case-blind matches.
            "unzip -L x.zip .ENV",
            "unzip -C x.zip .env",
            // Excluded: the rest of the archive is extracted, which may hold a `.env` below
            // (red team 45: a write known only at run time where the call names a denied file).
            "unzip x.zip -x a.txt .env",
        ],
    );
    assert_all(
        "ask",
        &[
            // unzip ignores a member after a `-d DIR` that does not follow the archive.
            "unzip x.zip a.txt -d d .env",
            "unzip x.zip",
            "unzip x.zip docs/a.md",
            "unzip -: x.zip docs/a.md",
            "unzip x.zip \"$M\"",
            "unzip -p x.zip .env",
        ],
    );
    // Listing and testing write nothing.
    assert_all("allow", &["unzip -l x.zip .env", "unzip -t x.zip", "unzip -Z x.zip", "unzip -lv x.zip"]);
}

#[test]
fn a_git_option_whose_value_is_only_known_at_run_time_reads_nothing_unless_it_names_a_file() {
    assert_all(
        "allow",
        &[
            "git log --author=\"$(git config user.name)\"",
            "git log --since=\"$(date -d '1 week ago' +%F)\"",
            "git log --grep=\"$P\"",
            "git log --max-count=\"$N\"",
            "git log \"--author=$X\"",
            "git log --format=\"%an $(date)\"",
        ],
    );
    assert_all(
        "ask",
        &[
            // Unquoted, the value can split into more options (`--output=/x`).
            "git log --author=$(git config user.name)",
            "git log --author=$X",
            "git log --author=`whoami`",
            "git log --author=\"$(cat \"x\")\"",
            // The value is a file, abbreviated or not.
            "git log --output=\"$P\"",
            "git log --out=\"$P\"",
            "git log --o=\"$P\"",
            "git grep --open-files-in-pager=\"$X\" foo",
            // A run-time operand may be a path outside the workspace.
            "git diff $(cat x)",
            "git log \"$(git config user.name)\"..HEAD",
        ],
    );
    // What merge-base prints is an object name, never a path or an option (red team 53), or
    // nothing: inside double quotes it is one word either way (red team 55).
    assert_all("allow", &["git diff \"$(git merge-base HEAD main)\"", "git log \"$(git merge-base HEAD main)\"..HEAD"]);
    // Unquoted it is no word or hexadecimal ones: as an operand of a subcommand that reads,
    // only a revision less (red team 71); as an option's value it would take the next word.
    assert_all("allow", &["git diff $(git merge-base HEAD main)"]);
    assert_all("ask", &["git diff -U $(git merge-base HEAD main) --output=x"]);
}
