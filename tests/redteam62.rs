//! The red teams of the eighteenth session ("red team 62" in the code's comments), and the
//! review's leftovers of the seventeenth. Each regression goes through the real binary (`gate
//! check --json`).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

const POLICY: &str = check_common::RED_TEAM_POLICY;

/// Left by the review of round 59: the operand a program writes by its place (ln's, install's
/// and rsync's last, patch's and zip's first, uniq's second) was found by a reader that took
/// no long option's value, so `--suffix docs/x.md` or `--log-file docs/x.md` moved the place
/// onto an allowed name and the file really written (`.env`, `Cargo.toml`) was only asked.
/// Long options are now read from each program's table, and one gate does not know is read
/// both ways (taking the next word, or not), every name either reading places counting.
#[test]
fn a_long_options_value_does_not_move_the_operand_written_by_its_place() {
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "zip --temp-path docs/x.md .env src/a.rs",
            "patch --suffix docs/a.md Cargo.toml docs/p.md",
            "rsync src/a.rs .env --log-file docs/x.md",
            "ln -s src/a.rs .env --suffix docs/x.md",
            "install src/a.rs Cargo.toml --mode 644",
            "uniq --skip-fields 1 docs/a.md Cargo.toml",
            // A compressor's `-S SUF` names what it writes.
            "gzip -S .toml Cargo",
            "gzip --suffix=.toml Cargo",
            // sqlite3 writes its database, and runs dot-commands given as option values.
            "sqlite3 -cmd '.output .env' x.db 'select 1'",
            "sqlite3 .env 'create table t(x)'",
        ],
    );
    check_common::assert_all_with(POLICY, "ask", &["gunzip -S .env x.env", "rsync -av --exclude .env src/ docs/"]);
}

/// Found by red team 62 (over-asks): `cd "$PWD/docs"`, `cat "$(pwd)"/src/a.rs`, `ROOT=$(pwd);
/// cd "$ROOT/docs"` and `DOCS="$ROOT/docs"` name directories gate follows, spelled from the
/// shell's own record of where it is. A quoted `$PWD`, `$(pwd)`, `$OLDPWD` or a variable that
/// holds one (or a plain path below one) is read as the way there from the current directory;
/// anything that may have changed PWD, or an operator on it (`${PWD:0:1}`), is not.
#[test]
fn paths_spelled_from_pwd_are_the_directories_they_name() {
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "cd \"$PWD/docs\" && ls",
            "cat \"$PWD/src/a.rs\"",
            "cat \"$(pwd)\"/src/a.rs",
            "ROOT=$(pwd); cd \"$ROOT/docs\" && ls",
            "ROOT=$(pwd); cd docs; cat \"$ROOT/src/a.rs\"",
            "ROOT=$(pwd); DOCS=\"$ROOT/docs\"; cd src; cat \"$DOCS/a.md\"",
            "d=\"$PWD/docs\"; ls \"$d\"",
            "cd docs && cat \"$OLDPWD/src/a.rs\"",
            "cd docs && echo x > \"$PWD/n.md\"",
            "touch \"$PWD/docs/new.md\"",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            "PWD=/etc; cat \"$PWD/passwd\"",
            "unset PWD; cat \"$PWD/etc/passwd\"",
            "f() { local PWD; cat \"$PWD/etc/passwd\"; }; f",
            "read PWD; cat \"$PWD/passwd\"",
            "printf -v PWD /etc; cat \"$PWD/passwd\"",
            "for PWD in /etc; do cat \"$PWD/passwd\"; done",
            "declare -n r=PWD; r=/etc; cat \"$PWD/passwd\"",
            "cat \"${PWD:0:1}etc/passwd\"",
            // Unquoted, a directory with a blank in its name splits into two words.
            "cat $PWD/src/a.rs",
            "pwd() { echo /etc; }; cat \"$(pwd)/passwd\"",
            "cd docs; cat \"$OLDPWD/x\"",
            "d=\"$PWD/..\"; cat \"$d/x\"",
            "d=\"$PWD/docs\"; d=/etc; cat \"$d/passwd\"",
            "d=\"$PWD/docs\"; cd \"$d\"; cat ../../x",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "echo hi > \"$PWD/.env\"",
            "ROOT=$(pwd); cd docs; echo x > \"$ROOT/Cargo.toml\"",
            "cd docs && touch \"$OLDPWD/Cargo.toml\"",
            "d=\"$PWD/docs\"; cd src; echo > \"$d/../Cargo.toml\"",
        ],
    );
}
