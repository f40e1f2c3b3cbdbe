//! The red teams of the fifteenth session ("red team 53" in the code's comments): a replica
//! of the hidden set (L), one aimed at shell state and options (M) and one at the
//! paths of tool calls and option values that are files (N). Each regression goes through
//! the real binary (`gate check --json`), and where it can, bash itself shows the truth.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use proptest::prelude::*;
use serde_json::json;

const POLICY: &str = check_common::RED_TEAM_POLICY;

/// Red team 53 (M01-M10, M23): a brace sequence between letters of two cases (`{a..Z}`) makes
/// the six signs between `Z` and `a` too, a backquote among them, and bash expands each word
/// it makes again: the backquote opens a command substitution. Declaration builtins' assignment
/// words are brace-expanded like any other word.
#[test]
fn a_brace_sequence_of_two_cases_makes_a_backquote_bash_runs() {
    let scratch = tempfile::tempdir().unwrap();
    assert_eq!(check_common::bash_stdout(scratch.path(), "echo {a..Z}"), "a ` _ ^ ]  [ Z\n");
    assert_eq!(check_common::bash_stdout(scratch.path(), "declare x={a,b}; echo $x"), "b\n");
    check_common::bash_stdout(scratch.path(), "declare x={a..Z}\\\\';touch made;#`' 2>/dev/null");
    assert!(scratch.path().join("made").exists(), "bash ran the text the backquote opened");
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "declare x={a..Z}\\\\';rm m;#`'",
            "typeset x={a..Z}\\\\';r\\m m;#`'",
            "readonly x={a..Z}\\\\';r\\m m;#`'",
            "export x={a..Z}\\\\';c\\url -V;#`'",
            "f(){ local x={a..Z}\\\\';r\\m m;#`'; }; f",
            "declare -- x={a..Z}\\\\';s\\udo -n true;#`'",
            "readonly x={a..Z}\\\\';echo hi >.env;#`'",
            "echo {a..Z}\\\\';r\\m m;#`'",
        ],
    );
    check_common::assert_all_with(POLICY, "ask", &["declare x={a..Z}\\\\';cd;cat .profile;#`'"]);
    // Sequences of one case, and alternatives, stay what they were.
    check_common::assert_all_with(POLICY, "allow", &["echo {a..e} {A..C}", "declare x={a,b}; echo \"$x\""]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Any declaration builtin (or a plain command) given a two-case brace sequence before a
    /// backquoted `rm`: never allowed.
    #[test]
    fn a_two_case_brace_sequence_before_code_is_never_allowed(
        builtin in prop::sample::select(vec!["declare x=", "typeset x=", "readonly x=", "export x=", "local x=", "echo ", "declare -g x="]),
        range in prop::sample::select(vec!["{a..Z}", "{Z..a}", "{A..z}", "{z..A}", "{b..Y..1}"]),
    ) {
        let command = format!("{builtin}{range}\\\\';r\\m m;#`'");
        let d = check_common::check_command(POLICY, &command);
        prop_assert_ne!(&d["decision"], "allow", "{}: {}", command, d);
    }
}

/// Red team 53 (M11-M22): `declare NAME='(...)'` of a name that is an array reads the value
/// again as `NAME=(...)`, whose items bash expands: a `$(...)` in it runs. A value only known
/// at run time given to a name that may be an array is not modelled.
#[test]
fn declaring_an_array_again_reads_its_value_as_a_compound_assignment() {
    let scratch = tempfile::tempdir().unwrap();
    check_common::bash_stdout(scratch.path(), "a=(); declare a='($(touch made))'");
    assert!(scratch.path().join("made").exists(), "bash ran the substitution in the quoted value");
    check_common::bash_stdout(scratch.path(), "v='($(touch again))'; a=(); declare a=\"$v\"");
    assert!(scratch.path().join("again").exists(), "and in a value only known at run time");
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "a=(); declare a='($(r\\m m))'",
            "a=(); typeset a='($(rm m))'",
            "a=(x); declare a+='($(r\\m m))'",
            "declare -a a='x'; declare -g a='($(r\\m m))'",
            "files=(src/*.rs); declare files='($(r\\m m))'",
            "a=(); declare a='(`r\\m m`)'",
            "read -ra a <<< x; declare a='($(r\\m m))'",
            "mapfile -t a < src/a.rs; declare a='($(r\\m m))'",
            "declare DIRSTACK='($(r\\m m))'",
            "true; declare PIPESTATUS='($(r\\m m))'",
            "a=(); declare a=\"(\\$(c\\url -V))\"",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            "a=(); declare a='($(cd;cat .profile))'",
            "a=(1); declare a=\"$1\"",
            "mapfile -t lines < src/a.rs; declare lines=\"$(cat src/a.rs)\"",
        ],
    );
    // Names that are no array, and locals in functions, take a run-time value as it is.
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "f(){ local x=\"$1\"; echo \"$x\"; }; f src",
            "declare n=\"$(wc -l < src/a.rs)\"; echo \"$n\"",
            "a=(1 2); declare -p a",
        ],
    );
}

/// Red team 53 (M53, M54): IFS set to blanks alone (`IFS=$'\n\t'`, the "strict mode"
/// opening) is followed: words split on those blanks and `"${a[*]}"` joins with the first,
/// so a joined array run by a shell is lines of commands. Other separators stay asked.
#[test]
fn ifs_of_blanks_is_followed() {
    let scratch = tempfile::tempdir().unwrap();
    assert_eq!(
        check_common::bash_stdout(scratch.path(), "a=('echo x' 'echo y'); IFS=$'\\n'; bash -c \"${a[*]}\""),
        "x\ny\n"
    );
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "set -euo pipefail; IFS=$'\\n\\t'; npm test",
            "IFS=$'\\n'; for f in $(git ls-files); do echo \"$f\"; done",
            "a=(echo x 'rm -rf m'); sh -c \"${a[*]}\"",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "a=(echo x 'rm -rf m'); IFS=$'\\n'; sh -c \"${a[*]}\"",
            "a=(echo x 'rm -rf m'); IFS=$'\\n'; eval \"${a[*]}\"",
        ],
    );
    check_common::assert_all_with(POLICY, "ask", &["IFS=,; echo a", "IFS=$x; echo a"]);
}

/// Red team 53 (L11, L31, L32): constant text gate now computes as bash does: `basename -s`,
/// `basename NAME SUFFIX`, printf's `%c` and `%.Ns`, `printf -v`, and `${x/p/&}`, where bash
/// 5.2 puts the text matched in place of `&`.
#[test]
fn constant_text_of_basename_printf_and_pattern_replacement() {
    let scratch = tempfile::tempdir().unwrap();
    assert_eq!(
        check_common::bash_stdout(
            scratch.path(),
            "x=r; echo ${x/r/&m} $(basename -s .sh rm.sh) $(printf %c rx)m $(printf %.1s rx)m; printf -v c %s r m; echo $c"
        ),
        "rm rm rm rm\nrm\n"
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "$(basename -s .sh rm.sh) -f build.log",
            "$(basename rm.sh .sh) -f build.log",
            "$(basename --suffix=.sh /a/b/rm.sh) -f m",
            "$(printf \"%.1s\" rx)m -f m",
            "$(printf %c rx)m -f m",
            "x=r; ${x/r/&m} -f build.log",
            "printf -v c %s r m; $c -f build.log",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "allow",
        &["printf -v c '%s-%s' a b; echo \"$c\"", "echo \"$(basename src/a.rs .rs)\""],
    );
}

/// Red team 53 (N03-N05, N11): Codex's `apply_patch` keeps its other fields (a `workdir` or
/// `cwd` the patch's paths land below), and pi's `find` is the listing `gate hook pi` decides.
#[test]
fn tool_calls_keep_every_field() {
    let patch = "*** Begin Patch\n*** Add File: docs/new.md\n+hello\n*** End Patch\n";
    check_common::assert_calls_with(
        POLICY,
        "ask",
        &[
            ("apply_patch", json!({"command": patch, "workdir": "/tmp"})),
            ("apply_patch", json!({"input": patch, "cwd": "/etc"})),
            ("find", json!({"pattern": "*.rs", "path": "/etc"})),
        ],
    );
    check_common::assert_calls_with(
        POLICY,
        "allow",
        &[("apply_patch", json!({"command": patch})), ("find", json!({"pattern": "*.rs", "path": "src"}))],
    );
}

/// Red team 53 (N01, N02, N06-N10): option values that are files, glued or abbreviated;
/// git's bare `--exec-path` (which made gate panic) and `log -L RANGE:FILE`.
#[test]
fn option_values_that_are_files() {
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            "git ls-files -o -i --exclude-per-directory=../../../../etc/passwd",
            "git ls-files --others --ignored --exclude-per-dir=../../../../root/.ssh/id_rsa",
            "git log -L 1,2:/etc/passwd",
            "git log -L1,2:/etc/x:y",
            "git --exec-path=/tmp status",
            "aria2c --on-download-complete=./x.sh http://example.com/x",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "npx mocha -R xunit -O output=Cargo.toml",
            "npx mocha --reporter xunit --reporter-options output=Cargo.toml",
            "aria2c -d . -o .env http://example.com/x",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "git --exec-path",
            "git log -L '/fn/,+1:src/a.rs'",
            "git log -L :main:src/a.rs",
            "git ls-files -o --exclude-per-directory=.gitignore",
        ],
    );
}

/// Red team 53 (M56-M58, M60) and red team 49 (D26, D29): over-asks removed. A glob array
/// given by `declare -a` or `local`, `$1` inside a command substitution in a function,
/// getopts' own OPTIND, `< "$f"` in a loop over a listing, and git commands that print only
/// object names used as a revision.
#[test]
fn over_asks_of_red_team_53() {
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "declare -a files=(src/*.rs); for f in \"${files[@]}\"; do head -n 1 \"$f\"; done",
            "demo(){ local files=(src/*.rs); wc -l \"${files[@]}\"; }; demo",
            "f(){ local n; n=$(wc -l < \"$1\"); echo \"$n\"; }; f src/a.rs",
            "opts(){ local OPTIND o; while getopts v o; do echo \"$o\"; done; }; opts -v",
            "find src -name '*.rs' | while read -r f; do echo \"$f: $(wc -l < \"$f\")\"; done",
            "git diff --stat \"$(git merge-base HEAD main)\"",
            "git show \"$(git rev-parse HEAD)\"",
            "git log --oneline \"$(git merge-base HEAD main)\"..HEAD",
            "x=$(git rev-parse --short HEAD); echo \"$x\"",
        ],
    );
    // What each of these reaches is still decided.
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            "declare -a files=(/etc/*); cat \"${files[@]}\"",
            "f(){ echo \"$(cat \"$1\")\"; }; f /etc/passwd",
            "find / -name '*.rs' | while read -r f; do wc -l < \"$f\"; done",
            "git show $(git rev-parse /etc/passwd)",
        ],
    );
    // `git rev-parse NAME` prints NAME itself when it names no object.
    let scratch = tempfile::tempdir().unwrap();
    assert_eq!(check_common::bash_stdout(scratch.path(), "git init -q && git rev-parse rm 2>/dev/null"), "rm\n");
    check_common::assert_all_with(POLICY, "deny", &["$(git rev-parse rm) -f x", "f(){ x=$($1 -f m); }; f rm"]);
}

/// Red team 54 (P01-P15, P20): values gate computed otherwise than bash. basename stops
/// reading options at its first name; printf's `-v` reads its options as bash does (`--`, the
/// last `-v`, an error for any other); `$'\400'` is a NUL (bash keeps eight bits), which ends
/// the text; `declare -g` in a function leaves a local of that name in place.
#[test]
fn values_computed_as_bash_computes_them() {
    let scratch = tempfile::tempdir().unwrap();
    assert_eq!(
        check_common::bash_stdout(
            scratch.path(),
            "echo \"[$(basename echo -s x 2>/dev/null)]\"; printf -v x -- %s rm; echo $x; y=rm; printf -v y -%s v 2>/dev/null; echo $y; echo $'\\400'/etc; f(){ local z=rm; declare -g z=ls; echo $z; }; f"
        ),
        "[]\nrm\nrm\n/etc\nrm\n"
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "printf -v x -- %s rm; command $x echo",
            "$'\\400'rm m",
            "sort $'\\400'-o.env README.md",
            "x=rmx; ${x::2} m",
            "x=rmx; ${x:(-3):2} m",
            "x=RM; ${x,,} m",
            "a=(x rm); ${a[-1]} m",
            "x=rm; y=x; ${!y} m",
            "find m $'\\400'-exec rm m ';'",
        ],
    );
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "$(basename echo -s x) rm m",
            "n=$(basename echo -s .sh); $n rm m",
            "printf -v x -- %s rm; nice $x ls",
            "x=rm; printf -v x -%s v; command $x m",
            "x=rm; printf -v x -v y %s a; command $x m",
            "cat $'\\400'/etc/hostname",
            "ls $'\\400'/etc",
            "x=ls; f(){ local x=rm; declare -g x=ls; $x m; }; f",
            "x=ls; f(){ local x=rm; g; }; g(){ declare -g x=ls; $x m; }; f",
            "f(){ local c=rm; typeset -g c=ls; $c m; }; f",
            "f(){ local x=rm; unset -v x; declare -g x=ls; $x rm m; }; f",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "printf -v x -- '%s' src/a.rs; cat \"$x\"",
            "declare -g n=3; echo \"$n\"",
            "echo \"$(basename -s .rs src/a.rs)\"",
            "a=(src/a.rs src/b.rs); cat \"${a[-1]}\"",
            "x=src/a.rs; y=x; cat \"${!y}\"",
        ],
    );
}

/// Red team 55 (R01-R22): this session's young models, where bash differs. IFS set in a
/// function's body is bash's after the call (gate's walk of the call forgets it: asked); a
/// value given to an array's name replaces its first element only; an object name git prints
/// may be nothing, so it is one word only inside double quotes; getopts storing its letter in
/// OPTIND makes bash evaluate it.
#[test]
fn young_models_hold_where_bash_differs() {
    let scratch = tempfile::tempdir().unwrap();
    assert_eq!(
        check_common::bash_stdout(
            scratch.path(),
            "f(){ IFS=; }; f; a=(r m); echo \"${a[*]}\"; b=(x y); b=z; echo \"${b[@]}\""
        ),
        "rm\nz y\n"
    );
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "f(){ IFS=; }; f; x=$'p\\n1e rm m'; sed -n $x README.md",
            "f(){ IFS=' '; }; f; x=$'p\\nwCargo.toml'; sed -n -e $x README.md",
            "function setifs { IFS=$'\\t'; }; setifs < README.md; s=$'p\\n1e rm m'; sed -n $s README.md",
            "split_on_tabs() { IFS=$'\\t'; }; if split_on_tabs; then s=$'p\\n1e rm m'; sed -n $s README.md; fi",
            "f(){ IFS=; }; f; a=(.. /.. /.. /.. /.. /.. /etc/passwd); cat \"${a[*]}\"",
            "f(){ IFS=; }; f; a=(r m); \"${a[*]}\" m",
            "f=(docs/a.md Cargo.toml); f=docs/new.md; tee \"${f[@]}\" < README.md",
            "declare -a f=(docs/*.md *.toml); f=docs/new.md; echo hi | tee \"${f[@]}\"",
            "a=(echo rm m); a=env; \"${a[@]}\"",
            "cmd=(printf rm m); cmd=xargs; echo | \"${cmd[@]}\"",
            "a=(x /etc/passwd); a=README.md; cat \"${a[@]}\"",
            "a=(echo rm m); declare a=env; \"${a[@]}\"",
            "a=(docs/a.md Cargo.toml); printf -v a docs/n.md; tee \"${a[@]}\" < README.md",
            "a=(echo rm m); printf -v a env; \"${a[@]}\"",
            "sed -n -e $(git merge-base HEAD origin/main) 1wCargo.toml README.md",
            "sed -n $(git merge-base HEAD origin/main) '1e rm m' README.md",
            "base=$(git rev-parse --verify -q @{u}); sed -n $base '1e rm m' README.md",
            "cd $(git rev-parse --verify -q @{u}) && cat .bashrc",
            "sed -n $(git rev-list -n1 --merges HEAD) '1e rm m' README.md",
            "sed -n -e $(git log -1 --format=%H --merges) 1wCargo.toml README.md",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &["a='x[$(rm m)]'; getopts a OPTIND -a", "set -- -x; x='a[$(rm m)]'; getopts x OPTIND"],
    );
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "while getopts ab o; do echo \"$o\"; done; shift $((OPTIND-1)); echo \"$@\"",
            "git diff --stat \"$(git merge-base HEAD main)\"",
            "git show --stat \"$(git rev-parse --verify HEAD)\"",
            "a=(x y); a=(src/a.rs); cat \"${a[@]}\"",
        ],
    );
}

/// Red team 55 (T19-T23): `cd DIR && A; B`, the way agents prefix their commands: B runs
/// where the `cd` went, or where it was if the `cd` failed. Both are decided, as after a lone
/// `cd`.
#[test]
fn a_cd_chain_ends_in_one_of_two_directories() {
    let ws = check_common::red_team_workspace(false);
    let root = ws.path().display().to_string();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            &format!("cd {root} && ls; cat README.md"),
            &format!("cd {root} && git status; git diff --stat"),
            &format!("cd {root} && head -20 src/a.rs; echo '...'; tail -20 src/a.rs"),
            &format!("cd {root}/docs && cat a.md; cat README.md"),
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["cd docs && cat a.md; cat ../../x", "cd src && ls && cd ../..; cat x"],
    );
    // A chain that comes back ends at the start or where a step failed: both inside (red
    // team 57 followed it; it was asked).
    check_common::assert_in_dir(ws.path(), "allow", &["cd src && ls && cd ..; cat x"]);
    check_common::assert_in_dir(ws.path(), "deny", &["cd docs && cat a.md; echo x > ../Cargo.toml"]);
}

/// Red team 56 (V57-V59, U47, U48): `git grep -l`, `git ls-tree --name-only` and `git diff
/// --name-only` are listings of every tracked name, so a writer fed by them may write
/// Cargo.toml; `-n 1` is the glued count's spelling.
#[test]
fn git_name_listings_feeding_a_writer() {
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "git grep -l version | xargs sed -i 's/0.1.0/0.2.0/'",
            "git ls-tree -r --name-only HEAD | xargs sed -i 's/name/NAME/'",
            "git grep -l version | xargs perl -pi -e 's/0.1.0/0.2.0/'",
            "git grep -lz x | xargs -0 sed -i s/a/b/",
            "git diff --name-only | xargs sed -i s/a/b/",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "git grep -l fn -- src | while read -r f; do head -1 \"$f\"; done",
            "git show \"$(git log -n 1 --format=%H)\"",
            "git show \"$(git rev-list -n 1 HEAD)\"",
        ],
    );
}
