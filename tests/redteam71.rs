//! The red teams of the twenty-third session ("red team 70" and "red team 71" in the code's
//! comments). Each regression goes through the real binary (`gate check --json`); where the
//! answer rests on what bash does, bash itself is asked.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// A workspace below the top of a repository (`.git` one directory up), in `inner` of the
/// directory returned.
fn below_a_repository() -> tempfile::TempDir {
    let repo = check_common::red_team_workspace(true);
    let inner = repo.path().join("inner");
    std::fs::create_dir_all(inner.join("src")).unwrap();
    std::fs::copy(repo.path().join("host.yaml"), inner.join("host.yaml")).unwrap();
    repo
}

/// Found by red team 70 (asked, not denied): an empty pattern anchored at the start or the end
/// (`${x/#/r}`, `${x/%/m}`) puts the replacement there; an unanchored empty one changes
/// nothing.
#[test]
fn empty_anchored_pattern_substitution_computes_the_name() {
    let ws = check_common::red_team_workspace(false);
    assert_eq!(
        check_common::bash_stdout(ws.path(), "x=m; echo ${x/#/r} ${x/%/r} ${x///r} ${x/#/a&b}"),
        "rm mr m abm\n"
    );
    check_common::assert_in_dir(ws.path(), "deny", &["x=m; ${x/#/r} y", "x=r; ${x/%/m} y", "x=; ${x/#/rm} y"]);
    // A `#` that is no anchor is a letter of the pattern (red team 72: `${x//#/r}`).
    assert_eq!(check_common::bash_stdout(ws.path(), "x='#m'; echo ${x//#/r} ${x/#/r}"), "rm r#m\n");
    check_common::assert_in_dir(ws.path(), "deny", &["x='#m'; ${x//#/r} f", "x='a#m'; ${x/a#/r} f"]);
    check_common::assert_in_dir(ws.path(), "ask", &["x='#m'; ${x/#/r} f"]);
    check_common::assert_in_dir(ws.path(), "allow", &["x=ls; ${x///r} docs", "x=ls; ${x/#/} docs"]);
}

/// Found by red team 70 (over-ask): `sed -i.md` keeps each file's backup as FILE.md beside
/// it, a write the write rules decide like the edit itself.
#[test]
fn sed_in_place_backups_are_writes_decided_by_the_rules() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["sed -i.md 's/a/b/' docs/a.md", "sed --in-place=.md 's/a/b/' docs/a.md", "sed -Ei.md 's/a/b/' docs/a.md"],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["cd docs && sed -i'.env*' 's/a/b/' a.md"]);
    // A suffix with a `/` takes the operand as typed (red team 72; GNU sed is the oracle).
    check_common::assert_in_dir(ws.path(), "allow", &["sed -i'docs/guide/*' 's/a/b/' docs/a.md"]);
    check_common::assert_in_dir(ws.path(), "ask", &["sed -i'bk/*' 's/a/b/' docs/a.md"]);
    assert_eq!(
        check_common::bash_stdout(ws.path(), "mkdir -p bk/docs && sed -i'bk/*' 's/a/b/' docs/a.md && ls bk/docs"),
        "a.md\n"
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["sed -i.bak 's/a/b/' docs/a.md", "sed -i'../*' 's/a/b/' docs/a.md", "sed -i\"$x\" 's/a/b/' docs/a.md"],
    );
}

/// Found by red team 70 (over-asks): entries a text pushed are known from the top of the
/// stack even where an earlier command may have left more below them: `~+N`, `popd +N` and
/// `pushd +N` within them. `pushd -n DIR` keeps DIR as typed, taken from wherever the shell is
/// when it is used (bash is the oracle).
#[test]
fn the_stack_from_its_top_and_entries_kept_as_typed() {
    let ws = check_common::red_team_workspace(false);
    std::fs::create_dir_all(ws.path().join("src")).unwrap();
    std::fs::create_dir_all(ws.path().join("docs/src")).unwrap();
    assert_eq!(
        check_common::bash_stdout(
            ws.path(),
            "pushd -n src >/dev/null; cd docs; popd >/dev/null; basename \"$(dirname \"$PWD\")\""
        ),
        "docs\n"
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "pushd src >/dev/null && pushd ../docs >/dev/null && cat ~+1/a.rs",
            "pushd src && pushd ../docs && popd +1 && cat a.md",
            "pushd docs && pushd src && popd +1 && echo x > new.md",
            "pushd src && cat ~1/a.md",
            "pushd -n src >/dev/null && pushd -n docs >/dev/null && popd >/dev/null && cat a.md",
            "pushd -n docs && cd src && cat ~1/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // Below what the text pushed.
            "pushd src && pushd ../docs && popd +3 && cat a.md",
            "pushd src && cat ~2/passwd",
            "pushd src && pushd +1 && popd && cat a.md",
            "pushd src && pushd -0 && cat passwd",
            // Kept as typed: from /tmp, not the start.
            "cd /tmp && pushd -n docs && popd && cat a.md",
            "pushd -n /etc && popd && cat passwd",
            "pushd -n .. && cat ~1/x",
        ],
    );
}

/// Found by red team 69 (over-ask): `env -C DIR CMD` runs CMD in DIR: followed as a `cd` for
/// that command alone, where DIR is known and climbs no `..` (chdir reads `..` after a link
/// physically). OLDPWD stays the shell's, and redirections are the shell's own, in its
/// directory.
#[test]
fn env_chdir_runs_the_command_in_that_directory() {
    let ws = check_common::red_team_workspace(false);
    std::fs::create_dir_all(ws.path().join("src")).unwrap();
    std::os::unix::fs::symlink("/etc", ws.path().join("lnk")).unwrap();
    check_common::assert_in_dir(ws.path(), "ask", &["env -C lnk ls", "env -C lnk cat hostname"]);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["env -C docs cat a.md", "env -C src ls -la", "env --chdir=src cat a.rs", "env -Cdocs tee n.md < docs/a.md"],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["env -C docs tee .env < docs/a.md", "env -C docs rm x"]);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "env -C docs cat a.md > new.md",
            "env -C docs cat a.md; cat ../x",
            "env -C docs bash -c 'cat ~-/passwd'",
            "env -C /etc cat passwd",
            "env -C docs/../.. cat x",
            "env -C src -C /etc cat passwd",
            "env -C src cat ../../x",
            "env -C \"$d\" cat a.md",
            // Red team 71 (a bypass on the way): a listing of the directory itself.
            "env --chd=/tmp ls",
            "env -C /etc ls -la",
        ],
    );
}

/// Found by red team 71 (6 bypasses, one mechanism): a glob given as positional parameters
/// gives nothing at all under `nullglob`, which a text may set or an agent's shell may keep
/// from an earlier command: the words after it then move up, so a parameter at or after a
/// glob that has more words behind it is not known (bash is the oracle).
#[test]
fn a_glob_among_parameters_may_give_nothing_under_nullglob() {
    let ws = check_common::red_team_workspace(false);
    assert_eq!(
        check_common::bash_stdout(ws.path(), "shopt -s nullglob; set -- docs/*.zz docs/a.md; echo \"$1\""),
        "docs/a.md\n"
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "shopt -s nullglob; set -- src/*.zz /etc/passwd; cat \"$1\"",
            "shopt -s nullglob; f(){ cat \"$1\"; }; f src/*.zz /etc/hostname",
            "shopt -s nullglob; set -- src/*.zz ..; ls \"$1\"",
            "shopt -s nullglob; f(){ grep -n root \"$1\"; }; f docs/*.zz /etc/passwd",
            "shopt -s nullglob; sh -c 'cat \"$1\"' _ src/*.zz /etc/passwd",
            "bash -O nullglob -c 'set -- src/*.zz /etc/passwd; cat \"$1\"'",
            // Without the text setting it: the shell may have it on.
            "set -- src/*.zz /etc/passwd; cat \"$1\"",
            "f(){ cat \"${1:-/etc/passwd}\"; }; f src/*.zz",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "f(){ cat \"$1\"; }; f src/*.rs",
            "set -- src/*.rs; wc -l \"$@\"",
            "f(){ wc -l \"$@\"; }; f src/*.rs docs/a.md",
        ],
    );
}

/// Found by red team 71 (over-asks): `ls` and `git grep -l` print names as find's listing
/// does (`ls` a glob's names or a directory's entries, bare), handed to xargs or a loop;
/// object names git lists pass a line filter (`| head -1`) and an xargs replace string that
/// is a whole word.
#[test]
fn listings_of_ls_and_git_grep_and_object_names_through_filters() {
    let ws = check_common::red_team_workspace(true);
    std::fs::create_dir_all(ws.path().join("src")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "ls docs/*.md | xargs wc -l",
            "ls -t docs/*.md | head -1 | xargs cat",
            "for f in $(ls src/*.rs); do head -3 \"$f\"; done",
            "git grep -l fn | xargs sed -n 1,3p",
            "git grep -l fn | while read -r f; do wc -l \"$f\"; done",
            "git log --format=%H -5 | xargs -I{} git show --stat {}",
            "git rev-list --reverse HEAD | head -1 | xargs git show --stat",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "ls /etc | xargs cat",
            "ls -l | xargs cat",
            "ls -a src | xargs -I{} cat src/{}/../../x",
            "git grep --cached -l fn | xargs cat",
            "git log --format=%H -5 | xargs -I{} git show --stat {}x",
            "git log --format=%H -5 | xargs -I{} git show --output={}",
            "git log --format=%s | head -1 | xargs git show",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["ls docs/*.md | xargs rm", "git grep -l fn | xargs rm", "git grep -l fn | xargs -I{} tee {} < docs/a.md"],
    );
}

/// Found by red team 71 (over-asks): the top of the repository where the command starts, as
/// the start of a longer path, held in a variable, or given to `pushd`: the start, where the
/// policy finds `.git` there, and asked where it does not. As the start of a longer path only
/// with `|| pwd`: git may print nothing though `.git` is there.
#[test]
fn the_repository_top_as_a_path_a_variable_or_pushd() {
    let texts = [
        "wc -l \"$(git rev-parse --show-toplevel || pwd)/src/a.rs\"",
        "top=$(git rev-parse --show-toplevel 2>/dev/null || pwd); ls \"$top/src\"",
        "top=\"$(git rev-parse --show-toplevel || pwd)\"; cd \"$top/docs\" && echo x > n.md",
        "pushd \"$(git rev-parse --show-toplevel)\" >/dev/null && git status && popd >/dev/null",
    ];
    let ws = check_common::red_team_workspace(true);
    std::fs::create_dir_all(ws.path().join("src")).unwrap();
    check_common::assert_in_dir(ws.path(), "allow", &texts);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // git may print nothing where `.git` is (another user's repository): then the
            // path is `/etc/passwd`.
            "cat \"$(git rev-parse --show-toplevel)/etc/passwd\"",
            "top=$(git rev-parse --show-toplevel); cat \"$top/etc/passwd\"",
            "cd src && cat \"$(git rev-parse --show-toplevel || pwd)/x\"",
            "cat \"$(git rev-parse --show-toplevel || pwd)/../x\"",
            "top=$(git rev-parse --show-toplevel); cd /tmp; cat \"$top/src/a.rs\"",
            "git() { echo /etc; }; cat \"$(git rev-parse --show-toplevel)/passwd\"",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["echo x > \"$(git rev-parse --show-toplevel || pwd)/.env\""]);
    // Below a repository's top: the top is above the workspace.
    let repo = below_a_repository();
    check_common::assert_in_dir(&repo.path().join("inner"), "ask", &texts);
    // In no repository: git prints no top (`cd ""` stays; `|| pwd` prints the start).
    let plain = check_common::red_team_workspace(false);
    check_common::assert_in_dir(plain.path(), "allow", &texts);
}

/// Found by red team 71 (over-ask): words xargs adds after git's `--` are pathspecs, which
/// git reads only inside its repository; `git diff` outside one compares them as files, so
/// only where the start is a repository's top.
#[test]
fn pathspecs_added_after_git_double_dash() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "git status --porcelain | awk '{print $2}' | xargs -r git diff --stat --",
            "cat list | xargs git log --oneline --",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "cat list | xargs git diff --no-index --",
            "cat list | xargs git diff --output=x --",
            "cat list | xargs git blame --",
            "cat list | xargs git diff -- docs",
            "cat list | xargs git -C /etc log --",
        ],
    );
    check_common::assert_in_dir(ws.path(), "ask", &["cat list | xargs git checkout --"]);
    let plain = check_common::red_team_workspace(false);
    check_common::assert_in_dir(plain.path(), "ask", &["cat list | xargs git diff --"]);
    check_common::assert_in_dir(plain.path(), "allow", &["cat list | xargs git log --"]);
}

/// Found by red team 71 (over-asks): a `!` alias runs at the top of the work tree, which is
/// the start where the command starts there, git is given no other directory, and the policy
/// finds `.git` there (or none there or above: git then runs it where it is).
#[test]
fn a_git_alias_runs_at_the_start_when_that_is_the_top() {
    let texts = ["git -c alias.s='!git status' s", "git -c alias.c='!cat src/a.rs' c"];
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(ws.path(), "allow", &texts);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "git -c alias.c='!cat ../x' c",
            "git -C src -c alias.c='!cat a.rs' c",
            "cd docs && git -c alias.c='!cat a.md' c",
            "GIT_WORK_TREE=/etc git -c alias.c='!cat passwd' c",
            "git --work-tree=/etc -c alias.c='!cat passwd' c",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["git -c alias.c='!rm x' c"]);
    // Below a repository's top the alias runs above the workspace; in no repository, where
    // git is.
    let repo = below_a_repository();
    check_common::assert_in_dir(&repo.path().join("inner"), "ask", &texts);
    let plain = check_common::red_team_workspace(false);
    check_common::assert_in_dir(plain.path(), "allow", &texts);
}

/// Found by red team 69H (over-ask): a `while read` loop fed object names by `< <(git ...)`,
/// through line filters, as the same loop fed through a pipe.
#[test]
fn object_names_fed_to_a_loop_by_process_substitution() {
    let ws = check_common::red_team_workspace(true);
    std::fs::create_dir_all(ws.path().join("docs/guide")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "while read -r sha; do git show \"$sha\" > \"docs/guide/$sha.md\"; done < <(git rev-list --all | sort)",
            "while read -r sha; do git show --stat \"$sha\"; done < <(git log --format=%H -3)",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "while read -r sha; do git show \"$sha\" > \"docs/guide/$sha.md\"; done < <(git log --format=%s)",
            "while read -r sha; do git show \"$sha\" > \"$sha\"; done < <(git rev-list --all)",
        ],
    );
}

/// Found by red team 69H (over-asks): `grep -l` over a glob lists names below the glob's
/// directory; `printf '%(%F)T'` prints a date, one value of its shape as `$(date +%F)` does.
#[test]
fn grep_names_of_a_glob_and_printf_dates() {
    let ws = check_common::red_team_workspace(false);
    std::fs::create_dir_all(ws.path().join("docs/guide")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "grep -l 'pub fn' src/*.rs | head -1 | xargs -r cat",
            "printf -v today '%(%F)T' -1; echo \"# Notes $today\" > \"docs/guide/notes-$today.md\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "grep -l x /etc/* | xargs cat",
            "printf -v t '%(%F)T' -1; echo > \"$t.env\"",
            "printf -v t '%(%c)T' -1; echo > \"docs/$t.md\"",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["grep -l x src/*.rs | xargs rm"]);
}

/// Found by red team 72 (over-ask): `npx --version` prints npm's version and exits (checked
/// with npm 11, standard input unread). `core.pager=less` stays asked: it overrides a
/// `PAGER=cat` the agent's environment may set, and waits on a terminal.
#[test]
fn npx_version() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(ws.path(), "allow", &["npx --version"]);
    check_common::assert_in_dir(ws.path(), "ask", &["npx --version x", "git -c core.pager=less log -1"]);
}
