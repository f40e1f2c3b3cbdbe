//! The red teams of 2026-11-26, third session ("red team 41" in the code's comments): the over-
//! asks red team 40 left, and three new black-box helpers (a stranger's set over all nine
//! classes; option grammars and wrappers in depth; everyday scripts and shell state). Each
//! regression goes through the real binary (`gate check --json`) and is named after what it
//! shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

const POLICY: &str = "version: 1\npermissions:\n  allow:\n    - Bash(npm test)\n    - Bash(npm run *)\n    - Bash(git status)\n    - { tool: write, when: { file_path: \"docs/**/*.md\" } }\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Bash(sudo *)\", \"Write(**/.env*)\", \"Write(Cargo.toml)\" ]\n";

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

#[test]
fn a_tilde_for_the_current_directory_kept_in_a_variable_is_not_where_a_later_cd_lands() {
    // bash expands `~+` and `~-` to absolute paths; gate writes them relative to the current
    // directory, so a variable bound to one would name another place after a `cd`.
    assert_all("deny", &["x=~+; cd docs && echo hi > $x/Cargo.toml", "x=~+; cd docs && echo > \"$x/Cargo.toml\""]);
    assert_all("ask", &["x=~+; cd docs && echo hi > $x/a.md", "for x in ~+; do cd docs && echo hi > $x/a.md; done"]);
    // Used where it is written, it is the current directory.
    assert_all("allow", &["cd docs && echo hi > ~+/a.md"]);
}

#[test]
fn cd_to_oldpwd_is_cd_minus_while_nothing_assigned_oldpwd() {
    assert_all("allow", &["cd src && cd \"$OLDPWD\" && git status", "cd src && cd \"${OLDPWD}\" && ls"]);
    assert_all(
        "ask",
        &[
            "cd \"$OLDPWD\"; ls",
            "OLDPWD=/etc; cd \"$OLDPWD\"; cat passwd",
            "cd src; OLDPWD=/etc; cd \"$OLDPWD\"; cat passwd",
            // Unquoted, a path with a space would be two words (and `cd` would fail).
            "cd src && cd $OLDPWD && cat ../x",
        ],
    );
}

#[test]
fn a_directory_change_in_an_exit_trap_moves_nothing_that_runs_after() {
    assert_all(
        "allow",
        &[
            "trap 'cd - >/dev/null' EXIT; cd src && ls",
            "trap 'cd /etc' EXIT; cat src/a.rs",
            "trap 'popd' EXIT; pushd src && ls",
        ],
    );
    // What runs after it in the action is decided where it lands; another signal's action
    // may run between any two commands.
    assert_all(
        "ask",
        &["trap 'cd /etc; cat passwd' EXIT; ls", "trap 'cd /etc' INT; cat passwd", "trap 'cd /etc' ERR; cat passwd"],
    );
}

#[test]
fn umask_setting_a_mode_reads_writes_and_runs_nothing() {
    assert_all("allow", &["umask 022; npm test", "umask u=rwx,g=rx,o=; ls", "umask -S", "umask -p 0077"]);
    assert_all("ask", &["umask 0022 x", "umask $m", "umask 9"]);
}

#[test]
fn the_keys_of_an_indexed_array_filled_with_literals_are_numbers() {
    assert_all("allow", &["arr=(a b); for i in \"${!arr[@]}\"; do echo \"$i ${arr[i]}\"; done"]);
    // An associative array's keys are words, which arithmetic evaluates as names; an array
    // read at run time is not known to be indexed... or to hold what gate saw.
    assert_all(
        "ask",
        &[
            "declare -A m=([x]=1); for i in \"${!m[@]}\"; do echo $((i)); done",
            "read -a arr; for i in \"${!arr[@]}\"; do echo $((i)); done",
        ],
    );
}

#[test]
fn xxd_reads_an_option_by_its_first_two_letters_and_its_value_as_its_own_loop_does() {
    // `-seekfoo` spells `-seek...`: the value is the next word, and the second operand is
    // the file xxd writes (red team 40 found these asked, not denied).
    assert_all("deny", &["xxd -seekfoo 0 src/a.rs .env", "xxd -colsX 8 src/a.rs .env", "xxd -r src/a.rs .env"]);
    assert_all("allow", &["xxd -c16 src/a.rs", "xxd -cols 16 src/a.rs", "xxd -psfoo src/a.rs", "xxd --ps src/a.rs"]);
    assert_all("ask", &["xxd -q src/a.rs"]);
}

#[test]
fn tree_gives_each_bundled_letter_that_takes_a_value_the_next_word() {
    assert_all("deny", &["tree -Lo 1 .env", "tree -oL .env 1"]);
    assert_all("allow", &["tree -aL 2 src", "tree -L 2 src"]);
    // `-L1` is `-L` and an option `-1` tree does not know.
    assert_all("ask", &["tree -L1"]);
}
