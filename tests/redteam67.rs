//! The red teams of the twenty-first session ("red team 66" and "red team 67" in the code's
//! comments): the over-asks of the replicas of round 66 and the usability round 67 it
//! removes, and what their edges found. Each regression goes through the real binary
//! (`gate check --json`).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Found while removing an over-ask of red team 66 (a bypass of the session's start binary):
/// an object name git prints may be nothing (`git merge-base` of unrelated histories, or of a
/// branch that does not exist) or `HEAD` (`git rev-parse HEAD` in a repository without
/// commits), so `"docs/$(git merge-base A B).env.md"` may write `docs/.env.md`. gate read it
/// as a 40-letter hexadecimal name everywhere; now only where the word is a revision
/// expression (`"$BASE..HEAD"`, `"$SHA":src/a.rs`, `"^$B"`), elsewhere as any text, or
/// unknown where the name may be a whole path segment or start one with a dot.
#[test]
fn an_object_name_git_prints_may_be_nothing() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "BASE=$(git merge-base HEAD master); git log --oneline \"$BASE..HEAD\"",
            "BASE=$(git merge-base HEAD master); git log --oneline \"$BASE\"..HEAD",
            "SHA=$(git rev-parse HEAD); git show \"$SHA\":src/a.rs",
            "B=$(git merge-base HEAD master); git log \"$B...HEAD\" \"^$B\"",
            "BASE=$(git merge-base HEAD master); git diff \"$BASE\" > \"docs/review-$BASE.md\"",
            "git diff $(git merge-base HEAD master)..HEAD",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "echo x > \"docs/$(git merge-base HEAD master).env.md\"",
            "echo x > docs/\"$(git merge-base HEAD master)\".env.md",
            "echo x > \"$(git rev-parse HEAD).env\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // May be `/etc/passwd`; may be `docs/.env.md` (asked: the name is not spelled).
            "B=$(git merge-base HEAD master); cat \"$B/etc/passwd\"",
            "BASE=$(git merge-base HEAD master); echo > \"docs/$BASE.env.md\"",
            // IFS may split the name.
            "IFS=a; git diff $(git merge-base HEAD master)..HEAD",
            // An option, with or without the name.
            "B=$(git merge-base HEAD master); git log \"-$B\"",
        ],
    );
}

/// Found by red team 66 (over-asks): `for ((i=1; i<=3; i++))` passes over those numbers, as
/// `for i in 1 2 3` does, where the body leaves the counter alone (any assignment to it, by
/// `eval`, a function, `read`, an inner loop, makes the loop one gate walks as any other);
/// `seq -w` pads its numbers with zeros.
#[test]
fn a_counted_for_loop_passes_over_its_numbers() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "for ((i=1; i<=3; i++)); do sed -n \"${i}p\" src/a.rs; done",
            "for ((i=3; i>0; i--)); do echo \"$i\" > \"docs/n$i.md\"; done",
            "for (( i = 0; i < 4; i += 2 )); do head -n \"$i\" src/a.rs; done",
            "for i in $(seq -w 1 3); do echo x > \"docs/part$i.md\"; done",
            "for ((i=0;i<3;i++)); do i=5; done",
            // (Still one integer: a sed address whatever its digits, and a negative one makes
            // an option sed refuses; red team 100's reading of sed scripts with numbers.)
            "for ((i=1; i<=3; i++)); do i=$((i-9)); sed -n \"${i}p\" src/a.rs; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // The body changes the counter: the passes are not those.
            "for ((i=1; i<=3; i++)); do eval \"i=-9\"; sed -n \"${i}p\" src/a.rs; done",
            "f(){ i=-9; }; for ((i=1; i<=3; i++)); do f; sed -n \"${i}p\" src/a.rs; done",
            "for ((i=1; i<=3; i++)); do read i; sed -n \"${i}p\" src/a.rs; done",
            "for ((i=1; i<=3; i++)); do for i in -n; do :; done; sed -n \"${i}p\" src/a.rs; done",
            // More than 8 passes.
            "for ((i=0; i<20; i++)); do sed -n \"${i}p\" src/a.rs; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "for ((i=1; i<=2; i++)); do c=r; [ $i = 2 ] && c=rm; $c x$i; done",
            "for ((i=1; i<2; i++)); do r$(printf m) x; done",
        ],
    );
}

/// Found by red team 67 (over-asks of agents' everyday scripts): a process substitution is
/// one name under `/dev/fd`, never an option nor several words (`sort -u <(grep ...)`,
/// `uniq -c <(sort f)` writes nothing); a `while read` loop keeps the listing it reads when
/// its output is redirected (`done > docs/heads.md`) or the listing passes through line
/// filters inside `< <(...)`. A redirection of its input, or anything else in the
/// substitution, still makes the names unknown.
#[test]
fn a_process_substitution_is_one_name_and_keeps_a_listing() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "sort -u <(grep -ho 'fn [a-z_]*' src/*.rs) | head",
            "uniq -c <(sort src/a.rs)",
            "while IFS= read -r f; do echo \"== $f\"; head -5 \"$f\"; done < <(find src -name '*.rs' | sort)",
            "printf '%s\\n' src/*.rs | while read -r f; do printf '%-30s %s\\n' \"$f\" \"$(head -1 \"$f\")\"; done > docs/heads.md",
            // (Writing a process substitution writes a pipe, no file: red team 69.)
            "sort -o <(cat) src/a.rs",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find src -name '*.rs' | while read -r f; do cat \"$f\"; done < /etc/passwd",
            "find src -name '*.rs' | while read -r f; do cat \"$f\"; done 0< /etc/passwd > docs/x.md",
            "while read -r f; do cat \"$f\"; done < <(find src -name '*.rs' | sort; echo /etc/passwd)",
            "while read -r f; do cat \"$f\"; done < <(find src -name '*.rs' | sed s/a/b/)",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["uniq <(sort src/a.rs) Cargo.toml", "sort <(rm x)"]);
}

/// Found by red team 67 (bypasses, on the session's start binary): `split` made names that
/// start with `-` (`split ... docs/a.md docs/-o.env` writes `docs/-o.envaa`...), which a
/// later glob in the same call handed to a program as options (`cd docs && sort *.md` ran
/// `sort -o.envaa.md`, writing `.envaa.md`; `sed -n 1p *.md` loaded a script). Names a
/// write's glob stands for are now checked as literal names are. And split's names are
/// never PREFIX itself (the made-up suffix has at least one letter): `split ... Cargo.toml`
/// writes no `Cargo.toml`.
#[test]
fn names_split_makes_that_start_with_a_dash_are_asked() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "split -l1 --additional-suffix=.md docs/a.md docs/-o.env && cd docs && sort *.md",
            "printf '/etc/passwd\\n' > docs/aa.md; split -l1 --additional-suffix=.md docs/a.md docs/-f && cd docs && file *",
            "split -l1 --additional-suffix=.md docs/a.md docs/-f && cd docs && sed -n 1p *.md",
            "for n in 1 2; do echo > \"docs/-$n.md\"; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "split -l1 docs/a.md Cargo.tom",
            "split -l1 docs/a.md .en",
            "split -n 22 -a 1 docs/a.md docs/.en",
            // (Names `Cargo.tomlaa`..., never `Cargo.toml`; but a write only known at run time
            // in a call that spells a denied file is denied.)
            "split -l1 docs/a.md Cargo.toml",
        ],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["split -l1 --additional-suffix=.md docs/a.md docs/part-"]);
}

/// Found by red teams 67 (over-asks): cp to one name of a glob (`cp "$f"
/// "docs/guide/${f##*/}"`, `cp "$f" "${f%.md}.bak.md"` in a loop over a glob) writes that
/// name, or where it is a directory the source's name below it: both names of globs, each
/// decided by the rules. `script -qc CMD LOG` writes LOG (and `-O F`...), each decided as a
/// write, instead of only `/dev/null`.
#[test]
fn cp_to_a_glob_name_and_script_logs_are_decided_writes() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "for f in docs/*.md; do cp \"$f\" \"docs/guide/${f##*/}\"; done",
            "for f in docs/*.md; do cp \"$f\" \"${f%.md}.bak.md\"; done",
            "for d in docs/*/; do cp docs/a.md \"${d}x.md\"; done",
            "script -q -c 'npm test' docs/guide/test-log.md",
            "script -q -O docs/o.md -c 'npm test' docs/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "for f in src/*.rs; do cp \"$f\" \"docs/guide/${f##*/}\"; done",
            "for f in docs/*.md; do cp -r src \"docs/${f##*/}\"; done",
            // (A name of `*.md` may start with `-`.)
            "for f in *.md; do cp docs/a.md \"$f\"; done",
            "script -q -c 'npm test' /tmp/x",
            "script -q -O /tmp/o -c 'npm test' docs/a.md",
            "script -q -c 'npm test'",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "for f in docs/*.md; do cp \"$f\" \"docs/${f##*/}.env\"; done",
            "for f in docs/*.md; do cp .env \"docs/${f##*/}\"; done",
            "script -q -c 'npm test' Cargo.toml",
            "script -q -c 'rm x' docs/a.md",
        ],
    );
}

/// Found by red teams 67 (asked, not denied): printf's output is computed for more formats:
/// `%.*s` (the precision from the argument before), `%Ns` and `%-Ns` (padded), `%q` of a
/// plain word, and a format's own backslash escapes (`"%s\n"`, `"\162"`: octal of one to three
/// digits, as bash's printf reads them, unlike `%b`'s `\0NNN`).
#[test]
fn printf_precision_width_quoting_and_format_escapes_are_computed() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "$(printf '%.*s' 2 rmdir) -rf build",
            "$(printf \"%s\\n\" r)m -f docs/zz",
            "$(printf \"%-1s\" r)m -f docs/zz",
            "$(printf \"%q\" r)m -f docs/zz",
            "c=\"$(printf \"\\\\162\")m\"; $c -f docs/zz",
            "$(printf \"%b\" \"\\\\0162m\") x",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // `\0162` in a format is `\016` then `2`.
            "$(printf \"\\\\0162m\") x",
            "x=$(printf \"\\\\x2fetc\\\\x2fpasswd\"); cat \"$x\"",
        ],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["x=$(printf \"docs/%s.md\" a); cat \"$x\""]);
}

/// Found by red team 67 (over-asks): loops over the object names git lists one a line (`for
/// rev in $(git rev-list -n 5 HEAD)`, `git log --format=%H -n 3 | while read -r sha`) give
/// their variable an object name, as `BASE=$(git merge-base ...)` does; other formats
/// (`%s`, `%B`) and a loop whose input is redirected stay unknown.
#[test]
fn loops_over_object_names_git_lists() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "for rev in $(git rev-list --max-count=5 HEAD); do git show --stat --oneline \"$rev\" | head -3; done",
            "git log --format='%H' -n 3 | while read -r sha; do git show --stat \"$sha\" | tail -1; done",
            "git rev-list main..HEAD | while read -r c; do git show -s --format=%s \"$c\"; done",
            // (Red team 68: `git log` in a `for` loop's list, `--all`.)
            "for rev in $(git log --format=%H --reverse -n 5); do git show \"$rev\"; done",
            "for rev in $(git rev-list -n 5 HEAD --all); do git show \"$rev\"; done",
            // (A name a loop takes from git's list is never nothing: one name of `[0-9a-f]*`
            // in a path; `--parents` puts more names on a line.)
            "git log --format=%H -n 3 | while read -r sha; do git show --stat \"$sha\" > \"docs/guide/$sha.md\"; done",
            "for r in $(git rev-list -n 3 --parents HEAD); do git show --stat \"$r\"; done",
            "for sha in $(git log --format=%h -n 3); do git show --stat \"$sha\" | tail -1; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "git log --format=%s -n 3 | while read -r h; do git show \"$h\"; done",
            "for r in $(git log --format=%B); do git show \"$r\"; done",
            "for rev in $(git log --format=%s -n 5); do git show \"$rev\"; done",
            // `--objects` prints paths too (`.env`); a name in a path outside the rule.
            "for x in $(git rev-list --objects -n1 HEAD); do echo hi > \"docs/$x.md\"; done",
            "for x in $(git rev-list -n1 HEAD); do echo hi > \"docs/$x\"; done",
            "for x in $(git rev-list -n1 HEAD); do cat \"/$x\"; done",
            "git log --format=%H | while read -r h; do git show \"$h\"; done < /etc/passwd",
            "for rev in $(git rev-list HEAD); do $rev; done",
            "git(){ echo /etc/passwd; }; for r in $(git rev-list HEAD); do cat \"$r\"; done",
        ],
    );
}

/// Found by red team 67 (over-asks): a function's parameter that is one name of a glob
/// (`c "$f"` in a loop over `src/*.rs`) keeps it through `local file="$1"`, `declare g="$f"`
/// and `${1%.md}`; `${2:-10}` of parameters gate knows is the value or the default. Another
/// parameter, one `shift` or `set --` changed, stays as before.
#[test]
fn a_glob_name_passes_through_function_parameters_and_locals() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "c(){ local file=\"$1\"; grep -c TODO \"$file\" || true; }; for f in src/*.rs; do c \"$f\"; done",
            "c(){ file=\"$1\"; grep -c TODO \"$file\"; }; for f in src/*.rs; do c \"$f\"; done",
            "c(){ local file=\"$1\"; echo > \"$file\"; }; for f in docs/*.md; do c \"$f\"; done",
            "c(){ echo > \"${1%.md}.bak.md\"; }; for f in docs/*.md; do c \"$f\"; done",
            "f(){ for f in src/*.rs; do local g=\"$f\"; wc -l \"$g\"; done; }; f",
            "for f in src/*.rs; do declare g=\"$f\"; wc -l \"$g\"; done",
            "show() { echo \"--- $1\"; sed -n \"1,${2:-10}p\" \"$1\"; }; show src/lib.rs 20; show src/a.rs",
            "x=rm; f(){ local \"x=$1\"; $x y; }; f ls",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "c(){ local file=\"$1\"; echo > \"$file\"; }; for f in src/*.rs; do c \"$f\"; done",
            "c(){ shift; local file=\"$1\"; cat \"$file\"; }; for f in docs/*.md; do c \"$f\" /etc/passwd; done",
            "c(){ set -- /etc/passwd; local file=\"$1\"; cat \"$file\"; }; for f in docs/*.md; do c \"$f\"; done",
            "f(){ for f in /etc/*; do local g=\"$f\"; wc -l \"$g\"; done; }; f",
            "f(){ cat \"${1:-/etc/passwd}\"; }; f",
            "x=ls; f(){ local \"x=$(cat z)\"; $x y; }; f",
            "f(){ local \"PATH=$1\"; ls; }; f /tmp",
            // A name of `*` may start with `(`, which bash reads again as an array's items
            // where the name is an array (a subscript there runs code).
            "g=(a); for f in *; do declare g=\"$f\"; done",
            "for f in *; do declare g=\"$f\"; cat \"$g\"; done",
            // (`docs/a.md.env`: outside the allow rule, no `.env*` name.)
            "f(){ for f in docs/*.md; do local g=\"$f.env\"; echo > \"$g\"; done; }; f",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["c(){ local file=\"$1\"; rm \"$file\"; }; for f in docs/*.md; do c \"$f\"; done", "f(){ ${1:-rm} x; }; f"],
    );
}

/// Found by red teams 66 and 67 (over-asks; the agents' most common opening): `cd "$(git
/// rev-parse --show-toplevel)"` where the command starts stays there where the edge finds
/// `.git` there (the start is the top); from a directory without one, after another `cd`,
/// unquoted, with a function named `git` or `GIT_*` assigned, it goes where gate cannot follow.
#[test]
fn cd_to_the_repository_top_from_the_top_stays() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "cd \"$(git rev-parse --show-toplevel)\" && ls",
            "cd \"$(git rev-parse --show-toplevel)\" && git log --oneline -5 && cat src/a.rs",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "cd \"$(git rev-parse --show-toplevel)\" && cat ../x",
            "cd src && cd \"$(git rev-parse --show-toplevel)\" && ls",
            "cd $(git rev-parse --show-toplevel) && ls",
            "git(){ echo /etc; }; cd \"$(git rev-parse --show-toplevel)\" && ls",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["cd \"$(git rev-parse --show-toplevel)\"; rm x"]);
    // From a directory that is not the top.
    check_common::assert_in_dir(&ws.path().join("src"), "ask", &["cd \"$(git rev-parse --show-toplevel)\" && ls"]);
    // In no repository git prints no top, and `cd ""` stays (session 23).
    let plain = check_common::red_team_workspace(false);
    check_common::assert_in_dir(plain.path(), "allow", &["cd \"$(git rev-parse --show-toplevel)\" && ls"]);
}

/// Found by red team 68 (bypasses; the session's start binary had the first): a declaration
/// builtin that assigns one name twice leaves the last value (`declare x=ls x=$(cat f)` gives
/// x what `f` holds; `local "x=$1" "x=$2"` the second). gate kept the first literal or glob
/// name. Now the words are read in order, any assignment it cannot name making the name
/// unknown.
#[test]
fn a_name_a_declaration_builtin_assigns_twice_holds_the_last_value() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "f(){ local x=ls x=$(cat z); $x y; }; f",
            "declare x=ls x=$(cat z); $x y",
            "export x=ls x=\"$(cat z)\"; $x y",
            "c() { local x=\"$1\" x=\"${2:-Cargo.toml}\"; echo >> \"$x\"; }; for f in docs/*.md; do c \"$f\" src/x.rs; done",
            "c() { local \"x=$1\" \"x=$(cat docs/a.md)\"; echo >> \"$x\"; }; for f in docs/*.md; do c \"$f\"; done",
            "declare x=ls x+=m; $x y",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "c() { local \"x=$1\" \"x=$2\"; cp docs/a.md \"$x\"; }; for f in docs/*.md; do c \"$f\" Cargo.toml; done",
            "declare x=ls x=rm; $x y",
        ],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["declare x=rm x=ls; $x y"]);
}

/// Found by red team 68 (bypasses): printf's `%.*s` takes its precision as bash reads a
/// number, `010` octal (8): `printf '%.*s' 010 'ls;   rm=1' | sh` runs `rm`. gate computed it
/// as decimal; a precision with a leading zero is now not computed (the scan decides).
#[test]
fn printf_star_precision_with_a_leading_zero_is_not_decimal() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "printf '%.*s' 010 'ls;   rm=1' | sh",
            "printf -v c '%.*s' 010 'ls;   rm=1'; eval \"$c\"",
            "printf '%.*s' 010 'ls; sudo=1' | sh",
            // (A format's octal escape above `\377` wraps: `\562` is `r`; it was asked.)
            "printf '\\562\\555 x' | sh",
            "printf '\\562\\555 x\\n' > docs/run.md; bash docs/run.md",
        ],
    );
    check_common::assert_in_dir(ws.path(), "ask", &["printf -v f '%.*s' 010 'docs/a.md'; echo x > \"$f\""]);
}

/// Found by red team 67 (asked, not denied): a program named by one name of a glob through a
/// loop's variable or an array (`for f in /usr/bin/cur[l]; do "$f" ...`) is decided as the
/// glob in command position: denied where it may run a denied program. And (red team 68, an
/// over-ask) a `while read` loop fed `< <(LISTING)` keeps it beside a redirection of its
/// output.
#[test]
fn a_glob_name_running_a_program_and_a_fed_loop_writing_its_output() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "for f in /usr/bin/cur[l]; do \"$f\" -s x; done",
            "f=(/usr/bin/r[m]); \"${f[0]}\" -f x",
            "while read -r f; do cat \"$f\"; done < <(find docs -name '*.md' | sort) > Cargo.toml",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["while read -r f; do cat \"$f\"; done < <(find docs -name '*.md' | sort) > docs/all.md"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "while read -r f; do cat \"$f\"; done < <(find docs -name '*.md' | sort) > /tmp/all.md",
            "while read -r f; do cat \"$f\"; done < <(find docs -name '*.md') 0< /etc/passwd",
            "while read -r f; do cat \"$f\"; done < <(find docs -name '*.md') < <(echo /etc/passwd)",
        ],
    );
}
