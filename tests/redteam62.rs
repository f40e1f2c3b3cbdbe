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
            // Unquoted, a directory with a blank in its name splits into two words (red team
            // 74: where every name is plain, unquoted is one word; `tests/redteam74.rs`).
            "cd \"a b\" && cat $PWD/x",
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

/// Found by red team 62 (bypasses): `git CMD --help ARGS` is `git help --exclude-guides CMD
/// ARGS`, so `git log --help -i` ran the info reader and `git diff --help -w` a browser, where
/// gate read `-i` and `-w` as log's and diff's own. git itself shows the rewrite.
#[test]
fn git_help_options_after_a_subcommands_help_are_git_helps() {
    let dir = tempfile::tempdir().unwrap();
    let trace = std::process::Command::new("git")
        .args(["log", "--help", "-a"])
        .env("GIT_TRACE", "1")
        .current_dir(dir.path())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&trace.stderr).contains("git help --exclude-guides log -a"));
    check_common::assert_all_with(
        POLICY,
        "ask",
        &["git log --help -i", "git diff --help -w", "git -P log --help -w", "git help -w log", "git help --we log"],
    );
    check_common::assert_all_with(
        POLICY,
        "allow",
        &["git log --help", "git help log", "git help -a", "git log -p --help"],
    );
}

/// Found by red team 62 (bypasses): node's glob (Gemini CLI's glob tool) reads a class of one
/// dot as a dot, so `[.][.]/[.][.]/etc/*` climbed out of the workspace, where gate read it as
/// bash does (a class never matches the dot that starts `..`).
#[test]
fn a_tool_glob_of_dot_classes_climbs_as_dots_do() {
    use serde_json::json;
    check_common::assert_calls_with(
        POLICY,
        "ask",
        &[
            ("glob", json!({"pattern": "[.][.]/[.][.]/[.][.]/etc/pass*"})),
            ("glob", json!({"pattern": "src/[.][.]/[.][.]/*"})),
            ("Glob", json!({"pattern": "[.][..]/x"})),
        ],
    );
    check_common::assert_calls_with(
        POLICY,
        "allow",
        &[
            ("glob", json!({"pattern": "src/[.][.]/docs/*"})),
            ("glob", json!({"pattern": "[sd]*/*.rs"})),
            ("glob", json!({"pattern": "[.]env*"})),
        ],
    );
}

/// Found by red team 62 (asked, not denied): text a command prints that gate knows (`printf
/// 'r%s -rf x' m`) and a later command runs from a file; what cargo's manifest commands,
/// npm's log and cache directories, and git's directory pathspecs write.
#[test]
fn printed_scripts_manifests_log_directories_and_directory_pathspecs() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "docs/guide/g.md", "# g\n");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "printf 'r%s -rf target\\n' m > docs/cleanup.md && sh docs/cleanup.md",
            "printf '\\x72m x' > docs/c.md; bash docs/c.md",
            "cargo add serde --features derive",
            "cargo +nightly rm serde",
            "cargo new docs/x",
            "git checkout -- .",
            "git restore .",
            "git checkout HEAD .",
            "git restore docs",
            "git restore -SW .",
            // A path not there now may be a directory git puts back.
            "git checkout -- docs/nothere",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "printf '%s\\n' hello > docs/c.md; bash docs/c.md",
            // npm writes its debug logs below it, not it.
            "npm run test --logs-dir=docs/npm-logs.md",
            "npm run test --logs-d=docs/l.md",
            "npm test --cache=docs/c.md",
            // A file has nothing below it; `--staged` alone restores only the index.
            "git checkout -- docs/a.md",
            "git stash push -- docs/a.md",
            "git restore --staged .",
            "cargo update",
        ],
    );
}

/// Found by red team 62: programs gate did not model that run or write (`rlwrap rm`, `fd -x
/// rm`, `info -o .env`, `sponge .env`), values glued after a bundle's letters (`fc -erm`,
/// `strace -fo.env`, `man -Prm`), xargs's replace string as the whole path written, and
/// nohup's `nohup.out` where its output may be a terminal.
#[test]
fn launchers_glued_values_replace_strings_and_nohup_out() {
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "set -o history\nfc -erm",
            "strace -fo.env true",
            "gawk -bo.env '{print}' docs/a.md",
            "script -qc 'man -Prm ls' /dev/null",
            "rlwrap rm -f build.log",
            "fdfind -e md -x rm",
            "info -o .env ls",
            "sort docs/a.md | sponge .env",
            "find . -maxdepth 1 -name '.e*' | xargs -I{} sort -o {} docs/a.md",
            "find . -name '.e*' -exec sort -o {} {} \\;",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "ask",
        &["nohup npm run dev &", "nohup npm test >&2", "find docs -name '*.md' | xargs -I{} sort -o {} {}"],
    );
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "nohup npm run dev > docs/log.md 2>&1 &",
            "nohup npm test | cat",
            "nohup npm test &> docs/l.md",
            "grep -rm 5 TODO src",
        ],
    );
}

/// Found by red team 62 (a bypass, debatable): `[ -s ~/.ssh/id_rsa ]` tells whether a key is
/// there, as `stat` would, and `stat` is asked outside the workspace. A known path a file test
/// looks at is a read, in `test`, `[` and `[[`; a run-time one (`[ -f "$f" ]`) is left to what
/// uses it. And `[[ -v files[0] ]]` of a literal number evaluates nothing.
#[test]
fn file_tests_look_at_the_files_they_name() {
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            "[ -s ~/.ssh/id_rsa ] && echo key-present",
            "test -f /etc/shadow",
            "[[ -s ~/.ssh/id_rsa ]] && echo key",
            "if [[ -e /etc/shadow ]]; then echo y; fi",
            "[ /etc/passwd -nt docs/a.md ]",
            "[[ -v a[$(id)] ]]",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "[ -f Cargo.toml ] && echo rust",
            "[ -d node_modules ] || npm test",
            "for f in src/*.rs; do [ -f \"$f\" ] && wc -l \"$f\"; done",
            "[[ -f Cargo.toml ]]",
            "[ src/a.rs -nt docs/a.md ]",
            "[ -n \"$x\" ]",
            "files=(src/*); [[ -v files[0] ]] && echo has",
        ],
    );
}

/// Found by red team 62 (bypasses): git opens some option files after it moved to the top of
/// the work tree (`blame --contents`, `--ignore-revs-file`, `-S`; `ls-files -X`,
/// `--exclude-from`; `grep -f`), so `cd docs && git blame --contents=../x a.md` read the
/// workspace's parent's `x`. A relative one is where that top is: the start, where the edge
/// finds `.git` there and the command runs there; else unknown (asked).
#[test]
fn files_git_opens_from_the_top_of_the_work_tree() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), ".gitignore", "target\n");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "cd docs && git blame --contents=../x a.md",
            "git -C docs blame --ignore-revs-file=../x a.md",
            "cd docs && git ls-files -o -X ../x",
            "git blame --contents=../x docs/a.md",
            "cd docs && git grep -f ../x",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "git ls-files -X .gitignore",
            "git ls-files -o --exclude-from=.gitignore",
            "git blame --contents=docs/a.md docs/a.md",
        ],
    );
    // Outside a repository the top is not known.
    let plain = check_common::red_team_workspace(false);
    check_common::write_file(plain.path(), ".gitignore", "target\n");
    check_common::assert_in_dir(plain.path(), "ask", &["git ls-files -X .gitignore"]);
}

/// Found by red teams 62 (an over-ask and an over-deny): a PS4 of text and plain parameters
/// runs nothing when `set -x` prints it, so `PS4='+ ${BASH_SOURCE}:${LINENO}: '` is no code,
/// and a search for `rm -rf` under it is no `rm`. A substitution, arithmetic, a subscript or
/// an operator in it still decides it.
#[test]
fn a_prompt_of_plain_parameters_runs_nothing() {
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "export PS4='+ ${BASH_SOURCE}:${LINENO}: '; set -x; npm test",
            "PS4='+ $LINENO: '; set -x; grep -n 'rm -rf' src/*.rs",
            "PS4='+ $? ${1} $$ '; set -x; ls",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "PS4='$(rm x)'; set -x; ls",
            "PS4='${x:-$(rm y)}'; set -x; ls",
            "PS4='`rm x`'; set -x; ls",
            // Prompt escapes are decoded before the expansion.
            "PS4='\\044(rm m)'; set -x; :",
            "PS4='\\140rm m\\140'; set -x; :",
        ],
    );
    check_common::assert_all_with(POLICY, "ask", &["PS4='${a[$(id)]}'; set -x; ls", "PS4='$((1+2))'; set -x; ls"]);
}

/// Found by red team 62 (an over-ask): `printf -v n '%03d' 7` gives `n` a value gate did not
/// compute. `%d`/`%i` with `-`, `0` and a width are computed as bash prints them (bash is the
/// oracle), their argument read as bash reads it (red team 69: `010` is octal, `0x1f` hex,
/// `'a` a letter's code).
#[test]
fn printf_numbers_are_computed_as_bash_prints_them() {
    let ws = check_common::red_team_workspace(false);
    for (format, arg) in [
        ("%03d", "7"),
        ("%-4d", "5"),
        ("n%d", "-7"),
        ("n%05d", "-42"),
        ("%i", "12"),
        ("v%2d", "3"),
        ("%d", "010"),
        ("%d", "0x1f"),
        ("%d", "+3"),
        ("%d", "\"'a\""),
    ] {
        let out = check_common::bash_stdout(ws.path(), &format!("printf '{format}' {arg}"));
        let d = check_common::command_in_dir(ws.path(), &format!("printf -v n '{format}' {arg}; touch \"docs/$n.md\""));
        assert_eq!(d["decision"], "allow", "{format} {arg}: {d}");
        let shown = d.to_string();
        assert!(shown.contains(&format!("docs/{out}.md")), "{format} {arg}: bash prints {out:?}: {d}");
    }
    check_common::assert_in_dir(ws.path(), "deny", &["printf -v x '%s%d' .env 1; echo > \"$x\""]);
}

/// Found by red team 62 (asked, not denied): `x=r; x+=m; $x b` runs `rm`. `+=` of a scalar
/// gate knows is the two joined; of an array, an integer or an unknown value it stays unknown.
#[test]
fn appending_to_a_known_scalar_joins_the_two() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(check_common::bash_stdout(dir.path(), "x=r; x+=m; echo \"$x\"").trim(), "rm");
    check_common::assert_all_with(POLICY, "deny", &["x=r; x+=m; $x b", "x=r; y=m; x+=$y; $x b"]);
    check_common::assert_all_with(POLICY, "allow", &["x=src; x+=/a.rs; cat \"$x\"", "x=do; x+=cs; ls $x"]);
    check_common::assert_all_with(POLICY, "ask", &["x=/et; x+=c; cat $x/passwd", "x+=m; $x b", "x=r; x+=(m); $x b"]);
}
