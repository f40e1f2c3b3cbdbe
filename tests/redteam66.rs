//! The red teams of the twentieth session ("red team 66" in the code's comments), and the
//! over-asks of the replicas of rounds 62 and 63 it removes. Each regression goes through the
//! real binary (`gate check --json`).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Found by the replica of red team 63 (over-asks; the issue's class 9: "an array filled from
/// a workspace glob and then counted"): an array gate knows every item of keeps its items
/// when `+=` adds more; one a loop over a glob adds the glob's names to holds, after the
/// loop, the items before and any names of that glob (a pass may add one or none: `&&`,
/// `if`, `continue`); `"${files[$i]}"` reads the variable as `"${files[i]}"` does, and
/// `last=$(( ${#files[@]} - 1 ))` holds a number.
#[test]
fn an_array_filled_from_a_glob_in_a_loop_holds_names_of_that_glob() {
    let ws = check_common::red_team_workspace(false);
    check_common::write_file(ws.path(), "src/b.rs", "fn b() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "files=(); for f in src/*.rs; do files+=(\"$f\"); done; wc -l \"${files[@]}\"",
            "files=(); for f in src/*.rs; do [ -f \"$f\" ] && files+=(\"$f\"); done; wc -l \"${files[@]}\"",
            "files=(); for f in src/*.rs; do [ -f \"$f\" ] || continue; files+=(\"$f\"); done; wc -l \"${files[@]}\"",
            "files=(); for f in src/*.rs; do if grep -q fn \"$f\"; then files+=(\"$f\"); fi; done; printf '%s\\n' \"${files[@]}\"",
            "files=(); files+=(src/*.rs); files+=(docs/*.md); wc -l \"${files[@]}\"",
            "x=(a b); x+=(c); cat \"${x[2]}\"",
            // (A name of the glob `src/*.rs.x`.)
            "files=(); for f in src/*.rs; do files+=(\"$f.x\"); done; wc -l \"${files[@]}\"",
            "files=(src/*.rs); for i in \"${!files[@]}\"; do wc -l \"${files[$i]}\"; done",
            "files=(src/*.rs); last=$(( ${#files[@]} - 1 )); cat \"${files[$last]}\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // Another item beside the glob's names, a name changed, a glob outside.
            "files=(); for f in src/*.rs; do files+=(\"$f\"); files+=(/etc/passwd); done; wc -l \"${files[@]}\"",
            "files=(); for f in /etc/*; do files+=(\"$f\"); done; wc -l \"${files[@]}\"",
            // An array gate never saw filled, from the environment: anything.
            "for f in src/*.rs; do files+=(\"$f\"); done; wc -l \"${files[@]}\"",
            // An associative array's `+=` adds keys and values.
            "declare -A m=([a]=b); m+=([c]=/etc/passwd); cat \"${m[c]}\"",
            // The names as a command.
            "files=(); for f in src/*.rs; do files+=(\"$f\"); done; \"${files[@]}\"",
            // A division may fail, leaving what `last` held before.
            "files=(src/*.rs); last=$(( ${#files[@]} / 1 )); cat \"${files[$last]}\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "files=(); for f in src/*.rs; do files+=(\"$f\"); done; rm \"${files[@]}\"",
            "files=(); for f in .e*; do files+=(\"$f\"); done; sed -i s/a/b/ \"${files[@]}\"",
            "x=(r); x+=(m); \"${x[0]}${x[1]}\" y",
        ],
    );
}

/// Found by the replica of red team 63 (over-asks): arithmetic on numbers gate knows is
/// computed (`n=120; sed -n "$((n-10)),$((n+10))p"`, `tail -n +$((n+1))`), and a loop over
/// `$(seq 1 3)` passes over those numbers; a value that comes out negative is an option as
/// bash would pass it, and anything gate cannot compute stays as before.
#[test]
fn arithmetic_on_known_numbers_is_its_value() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "n=120; sed -n \"$((n-10)),$((n+10))p\" src/a.rs",
            "n=3; tail -n +$((n+1)) src/a.rs",
            "n=3; x=$((n*2)); tail -n $x src/a.rs",
            "for i in $(seq 1 3); do sed -n \"${i}p\" src/a.rs; done",
            "for i in $(seq 2 2 8); do head -n \"$i\" src/a.rs; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // -5,15p is an option to sed.
            "n=5; sed -n \"$((n-10)),$((n+10))p\" src/a.rs",
            // More numbers than gate unrolls.
            "for i in $(seq 1 100); do sed -n \"${i}p\" src/a.rs; done",
            // A function named seq prints anything.
            "seq(){ echo -e; }; for i in $(seq 1 3); do sed -n \"${i}p\" src/a.rs; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "for i in $(seq 3); do rm -f \"x$i\"; done",
            "n=2; touch \".env$((n+1))\"",
            "IFS=1; n=1; echo $((n+9))0 > .env",
        ],
    );
}

/// Found by the replica of red team 62 (an over-ask): a function called in a loop over a glob
/// that assigns a variable (`todo_count(){ n=$(grep -c TODO "$1"); ...}`) made every variable
/// unknown, the loop's own among them, and the next pass walked the body with `$1` unknown.
/// A function walked at its call now makes unknown only what its body may assign.
#[test]
fn a_function_call_forgets_only_what_its_body_assigns() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "todo_count(){ n=$(grep -c TODO \"$1\"); echo \"$1: $n\"; }; for f in src/*.rs; do todo_count \"$f\"; done",
            "f(){ n=1; wc -l \"$1\"; }; for x in src/*.rs; do f \"$x\"; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "f(){ x=rm; }; x=ls; f; $x y",
            "f(){ read -r \"$1\" <<< rm; }; x=ls; f x; $x y",
            "f(){ eval \"$1=rm\"; }; x=ls; f x; $x y",
            "f(){ g; }; g(){ x=rm; }; x=ls; f; $x y",
            "f(){ printf -v \"$1\" rm; }; x=ls; f x; $x y",
            "f(){ mapfile -t x <<< rm; }; x=ls; f; $x y",
            "f(){ : ${x:=rm}; }; unset x; f; $x y",
            "f(){ for x in rm; do :; done; }; x=ls; f; $x y",
            "f(){ trap \"x=rm\" RETURN; }; x=ls; f; $x y",
            "f(){ read x < <(echo rm); }; x=ls; f; $x y",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["f(){ x+=m; }; x=r; f; $x y", "f(){ getopts r x; }; x=ls; f -r; $x y"],
    );
}

/// Found by the replica of red team 63 (an over-ask): a variable that holds what `git
/// merge-base` or `git log -1 --format=%H` prints is, quoted, one word: an object name or
/// nothing, decided as the substitution in its place is. Unquoted it may be no word.
#[test]
fn a_variable_holding_an_object_name_is_one_when_quoted() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "BASE=$(git merge-base HEAD master); git diff --stat \"$BASE\"",
            "sha=$(git log -1 --format=%H); git show \"$sha\"",
            // (Unquoted, an operand of a subcommand that reads: red team 71.)
            "BASE=$(git merge-base HEAD master); git diff --stat $BASE",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["BASE=$(git merge-base HEAD master); sed -n $BASE docs/a.md", "sha=$(git rev-parse HEAD); \"$sha\""],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["sha=$(git rev-parse HEAD); rm \"$sha\""]);
}

/// Found by the replica of red team 63 (over-asks): `NODE_OPTIONS` of options that only size
/// memory or choose warnings, GNU nice's first word `--5`, blame's `-L` range (no file, unlike
/// log's), and `git log -1 --format=%ct` in arithmetic (seconds, a number a line).
#[test]
fn node_memory_nice_adjustments_blame_ranges_and_commit_times() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "NODE_OPTIONS=--max-old-space-size=4096 npm run build",
            "NODE_OPTIONS='--no-warnings --enable-source-maps' npm test",
            "nice --5 ls src",
            "nice -+5 ls src",
            "git blame -L '/fn main/,+1' src/a.rs",
            "git blame -L10,+3 src/a.rs",
            "echo $(( $(date +%s) - $(git log -1 --format=%ct) ))",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "NODE_OPTIONS='--max-old-space-size=4096 --require ./x.js' npm test",
            "NODE_OPTIONS=--import=./x.mjs npm test",
            "nice -n 1 --5 ls src",
            "git blame -L 1,5 /etc/passwd",
            "echo $(( $(git log -1 --format=%s) ))",
            "echo $(( $(git log -1 --format=%ct --output=x) ))",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["nice --5 rm x"]);
}

/// Found while removing red team 63's over-asks (a bypass since long before): `export R=$(cat
/// f)` (also `declare`, `typeset`, `readonly`, `R="$x"`) gave R a value only known at run time,
/// but gate kept R's old value: `R=ls; export R=$(cat f); $R y` was allowed as `ls y`.
#[test]
fn a_declaration_builtin_assigning_a_run_time_value_forgets_the_old_one() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "R=ls; export R=$(cat src/a.rs); $R y",
            "R=ls; export R=$x; $R y",
            "R=ls; export R=\"$x\"; $R y",
            "R=ls; readonly R=$(cat x); $R y",
            "R=ls; typeset R=\"$(cat x)\"; $R y",
            "R=ls; declare R=a\"$x\"; $R y",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["x=rm; R=ls; export R=$x; $R y"]);
}

/// Found by the replica of red team 63 (over-asks): `export ROOT=$PWD` (also `"$PWD"`,
/// `$(pwd)`, `local` in a function) keeps the directory as `ROOT=$PWD` does; `mkdir -p` of an
/// absolute path inside the workspace makes none of the directories that are there already
/// (the workspace's parents); `file *` is decided as `wc -l *` is, the edge asking where a
/// name the glob matches starts with `-`.
#[test]
fn exported_directories_made_parents_and_globs_of_risky_readers() {
    let ws = check_common::red_team_workspace(false);
    let root = ws.path().display().to_string();
    let mkdir_abs = format!("mkdir -p {root}/docs/api");
    let mkdir_outside = format!("mkdir -p {root}-other/docs");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "export ROOT=$PWD; ls \"$ROOT/src\"",
            "export ROOT=\"$PWD\"; cd src; cd \"$ROOT\"; ls",
            "export ROOT=$(pwd); cd src; cd \"$ROOT\"; ls",
            "f(){ local R=\"$PWD\"; cd src; cd \"$R\"; ls; }; f",
            &mkdir_abs,
            "file *",
            "file -b *",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            &mkdir_outside,
            "export ROOT=$PWD; ls \"$ROOT/../x\"",
            "file \"$x\"",
            "export R=$PWD; export R=/etc; cd \"$R\"; ls",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["export ROOT=$PWD; rm -f \"$ROOT/x\"", "mkdir -p .env/x"]);
    // A name the glob gives that the program reads as an option.
    check_common::write_file(ws.path(), "-C", "");
    check_common::assert_in_dir(ws.path(), "ask", &["file *"]);
}

/// Found by the replicas of red teams 62 and 63 (over-asks): `${!v}` of a variable holding a
/// name gate knows (`for v in HOME SHELL; do echo "${!v}"`) is that variable's expansion; a
/// name a glob gives, quoted inside a longer word (`"docs/${f##*/}.md"`, `"${f%.md}.bak.md"`),
/// is one name of the glob the word spells; cp of one such name into a directory writes one
/// name of its last segment there (`cp "$f" docs/guide/`), nothing below a DEST that is a file.
#[test]
fn indirect_names_and_names_of_globs_inside_longer_words() {
    let ws = check_common::red_team_workspace(false);
    std::fs::create_dir_all(ws.path().join("docs/guide")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "for v in HOME SHELL; do echo \"$v=${!v}\"; done",
            "for f in src/*.rs; do wc -l \"$f\" > \"docs/${f##*/}.md\"; done",
            "for f in src/*.rs; do echo x > \"docs/$f.md\"; done",
            "for f in docs/*.md; do sort \"$f\" > \"${f%.md}.sorted.md\"; done",
            "for f in docs/*.md; do cp \"$f\" docs/guide/; done",
            "for f in src/*.rs; do cp \"$f\" docs/a.md; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "v=HOME; ${!v} x",
            "v=HOME; cat \"${!v}/.ssh/id_rsa\"",
            // Below a directory DEST, a name that is no `.md`.
            "for f in src/*.rs; do cp \"$f\" docs/guide; done",
            // A glob character in the text beside the name.
            "for f in src/*.rs; do wc -l \"$f\" > \"docs/[x]${f##*/}.md\"; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "r=rm; v=r; ${!v} x",
            "v='a[$(rm x)]'; echo \"${!v}\"",
            "for f in src/*.rs; do cp \"$f\" \".env${f##*/}\"; done",
            "for f in src/*.rs; do cp \"$f\" \"${f%.rs}.env\"; done",
            "for f in .e*; do cp docs/a.md \"$f\"; done",
        ],
    );
}

/// Found by the older replicas (over-asks): `unset IFS` splits as by default again (not `-f`,
/// which removes a function); `join` reads its two files; `awk -W version` prints the version;
/// a slice of an array gate knows (`"${arr[@]:1}"`) is those items, or names of its glob.
#[test]
fn unset_ifs_join_awk_version_and_array_slices() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "unset IFS; cat src/a.rs",
            "join -t: docs/a.md docs/a.md",
            "awk -W version",
            "arr=(src/*.rs); cat \"${arr[@]:1}\"",
            "arr=(src/a.rs docs/a.md /etc/passwd); cat \"${arr[@]:0:2}\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "unset -f IFS; x='a b'; $x",
            "join docs/a.md /etc/passwd",
            "awk -W exec=x",
            "awk -W version x",
            "arr=(a b /etc/passwd); cat \"${arr[@]:1}\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["IFS=,; unset IFS; x='rm y'; $x", "arr=(ls rm); \"${arr[@]:1}\" x", "arr=(rm x); \"${arr[@]:0:1}\" y"],
    );
}

/// Found by the replica of red team 62 (over-asks): a `return` in a function called in a loop
/// ended a pass of the caller's loop as gate read it (bash 5.2 refuses even `break` there), so
/// each pass was walked again with the loop's variable unknown; and `$(dirname "$DOC")` of a
/// variable gate knows is that value's directory.
#[test]
fn a_return_ends_only_its_function_and_known_values_print_constant_text() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "check(){ local f=\"$1\"; if [[ ! -f \"$f\" ]]; then return 1; fi; wc -l \"$f\"; }; for f in src/a.rs docs/a.md; do check \"$f\" || true; done",
            "DOC=docs/guide/setup.md; mkdir -p \"$(dirname \"$DOC\")\"; echo x > \"$DOC\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "D=.env/x; mkdir -p \"$(dirname \"$D\")\"",
            "c=rm; $(echo \"$c\") x",
            "c='r m'; $(printf %s $c) x",
            "for c in ls rm; do f(){ break; }; x=$c; done; $x y",
        ],
    );
}

/// Found by the older replicas (over-asks): `split` is a reader whose writes are decided, read
/// by its table (`--additional-suffix` abbreviated, or as a word of its own, was an operand
/// before and moved PREFIX): `split -l1 --additional-suffix=.md docs/a.md docs/part-` writes
/// names of `docs/part-*.md`; the file it reads is a read; `--filter` runs its command.
#[test]
fn split_writes_its_prefix_and_suffix_and_reads_its_file() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "split -l1 --additional-suffix=.md docs/a.md docs/part-",
            "split -l1 --additional-suffix .md docs/a.md docs/part-",
            "split -l1 --add=.md -- docs/a.md docs/part-",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "split -l1 docs/a.md docs/part-",
            "split -l1 --additional-suffix=.md /etc/passwd docs/p",
            "split -l1 --additional-suffix=.md docs/a.md /tmp/p",
            "split -l1 docs/a.md \"$p\"",
            "split -n 2 src/a.rs",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "split -l1 --additional-suffix .x docs/a.md .env",
            "split -l1 docs/a.md .en",
            "split -l1 --filter='rm x' docs/a.md docs/p",
            "split -l1 --additional-suffix=/../../.env docs/a.md docs/p",
        ],
    );
}

/// Found by red team 66 (asked, not denied): double quotes halve a format's backslashes
/// before printf decodes it (`$(printf "\\162\\155") x` runs `rm x`); the scan of text run
/// unseen reads that view too.
#[test]
fn escapes_under_double_quoted_backslashes_are_scanned() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(ws.path(), "deny", &["$(printf \"\\\\162\\\\155\") x"]);
    check_common::assert_in_dir(ws.path(), "allow", &["printf \"a\\\\tb\\\\n\""]);
}
