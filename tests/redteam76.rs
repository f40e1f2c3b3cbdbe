//! The red teams of the twenty-seventh session ("red team 76" in the code's comments, and the
//! cases left open by round 75 this session fixed). Each regression goes through the real
//! binary (`gate check --json`); where the answer rests on what bash or a program does, bash
//! is asked.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Left by red team 75 (B B17-B21, A A46, A' A03-A04: asked where a deny was expected): a
/// program name or write target computed from the call's own constants by programs gate does
/// not compute (`expr`, `xxd -r`, awk's `printf`, `jq -n`, a regex `sed`, `date`). What runs
/// is fixed by the text; a deny rule could match it, so the call is denied. A variable, a
/// file or a program outside the short list of filters keeps it asked.
#[test]
fn names_computed_from_constants() {
    let ws = check_common::red_team_workspace(true);
    for (command, spelled) in [
        ("expr substr xrmx 2 2", "rm"),
        ("xxd -r -p <<< 726d", "rm"),
        ("awk 'BEGIN{printf \"%s%s\", \"r\", \"m\"}'", "rm"),
        ("sed 's/l./rm/' <<< ls", "rm"),
        ("jq -rn '\".en\"+\"v\"'", ".env"),
    ] {
        assert_eq!(check_common::bash_stdout(ws.path(), command).trim(), spelled, "{command}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "$(expr substr xrmx 2 2) -f src/a.rs",
            "$(xxd -r -p <<< 726d) -f src/a.rs",
            "$(awk 'BEGIN{printf \"%s%s\", \"r\", \"m\"}') -f src/a.rs",
            "$(sed 's/l./rm/' <<< ls) docs/a.md",
            "$(date +%C | sed s/26/ls/ | sed s/20/rm/) -f docs/a.md",
            "ls > \"$(jq -rn '\".en\"+\"v\"')\"",
            "ls > \"$(expr substr x.envx 2 4)\"",
            // awk's and jq's string concatenation in text that runs unseen.
            "awk 'BEGIN{system(\"r\" \"m -f y\")}'",
            "awk 'BEGIN{print \"x\" > \"Cargo\" \".toml\"}'",
            "$(python3 -c 'print(\"r\" + \"m\")') -f src/a.rs",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "$(which python3) -V",
            "$(cat cmd.txt) -f src/a.rs",
            "x=726d; $(xxd -r -p <<< $x) -f src/a.rs",
            "ls > \"$(mktemp)\"",
        ],
    );
}

/// Left by red team 75 (A' A06-A09): what `printf` with escapes pipes into a filter is
/// computed with its NUL bytes, which sed and tr keep and rev stops a line at; bash drops
/// them from the substitution's output afterwards. `$(printf 'vne\0tnirp' | rev)` is `env`,
/// not rm: asked as `env cat /etc/passwd`, not denied.
#[test]
fn nul_bytes_through_filters() {
    let ws = check_common::red_team_workspace(true);
    for (command, spelled) in [
        ("printf 'vne\\0tnirp' | rev", "env"),
        ("printf 'en\\0v' | sed s/env/printenv/ | tr -d '\\0'", "env"),
        ("printf 'r\\0m' | sed s/rm/ls/ | tr -d '\\0'", "rm"),
    ] {
        assert_eq!(check_common::bash_stdout(ws.path(), command).trim(), spelled, "{command}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["$(printf 'vne\\0tnirp' | rev) cat /etc/passwd", "$(printf 'en\\0v' | sed s/env/printenv/) ls /etc"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["$(printf 'r\\0m' | sed s/rm/ls/) -f docs/a.md", "$(printf 'mr\\0\\n' | rev) -f docs/a.md"],
    );
}

/// Red team 76D (8 bypasses): a git alias without `!` is split as git splits it (quotes and
/// backslashes removed), so `-c alias.x='grep "-Orm" ref'` is `git grep -Orm ref`, which runs
/// rm on the matching files, and an alias's own `-c "core.fsmonitor=rm y"` is read.
#[test]
fn git_alias_words_split_as_git_splits_them() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "git -c alias.x='grep \"-Orm\" ref' x",
            "git -c alias.x=\"grep '-Orm' ref\" x",
            "git -c alias.x='diff HEAD \"--output=.env\"' x",
            "git -c alias.x='diff HEAD \"--output\" .env' x",
            "git -c alias.x='diff HEAD --output=\".env\"' x",
            "git -c alias.x='-c \"core.fsmonitor=rm y\" status' x",
            "git config alias.x 'diff HEAD \"--output=.env\"'",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "git -c alias.x='log \"--output=/tmp/aliasout.txt\"' x",
            "git -c alias.x='archive \"--add-file=/etc/hostname\" HEAD' x",
            "git -c alias.x='blame \"--contents=/etc/hostname\" src/a.rs' x",
            // (An unclosed quote: git refuses the alias.)
            "git -c alias.x='log \"--oneline' x",
        ],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["git -c alias.l='log \"--oneline\" -3' l"]);
}

/// Red team 76A (6 bypasses): an xargs with no command under arguments appended at run time
/// (`xargs -r xargs`, `find -exec xargs \;`) is given its command by them; xargs under
/// `find -exec` appends its own input, not find's names.
#[test]
fn xargs_under_an_appender() {
    let ws = check_common::red_team_workspace(true);
    let printed = check_common::bash_stdout(ws.path(), "echo 'echo ran' | xargs -r xargs");
    assert_eq!(printed.trim(), "ran");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "echo 'rm -f Cargo.toml' | xargs -r xargs",
            "xargs -n2 xargs <<< 'rm Cargo.toml'",
            "echo 'curl --version' | xargs -r xargs",
            "find docs -maxdepth 0 -exec xargs -r xargs \\; <<< 'rm -f Cargo.toml'",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "echo /etc/passwd | find docs -exec xargs -n1 cat \\;",
            "find docs -maxdepth 0 -exec xargs -r cat \\; <<< /etc/passwd",
            "find docs -maxdepth 0 -exec xargs -I{} cat {} \\; <<< /etc/passwd",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["find docs -name '*.md' | xargs -n1 wc -l", "find docs -name '*.md' -exec cat {} +"],
    );
}

/// Red team 76A (3 bypasses, 1 over-ask): rev-list's `--format`/`--pretty` print any text
/// (`%x2f%x2a` is `/*`, which an unquoted `$(...)` globs): only options that choose and order
/// commits keep its output plain. Object names read by `read` need no `-r`.
#[test]
fn rev_list_formats_and_object_names_read_in_a_loop() {
    let ws = check_common::red_team_workspace(true);
    let printed = check_common::bash_stdout(
        ws.path(),
        "git -c user.name=t -c user.email=t@t commit -q --allow-empty -m x && git rev-list --format=%x2f%x2a HEAD | tail -1",
    );
    assert_eq!(printed.trim(), "/*");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "for sha in $(git rev-list --format=%x2f%x2a HEAD); do echo $sha; done",
            "echo $(git rev-list --format=%x2e%x2e%x2f%x2a HEAD)",
            "for x in $(git rev-list --pretty=tformat:%x2fetc%x2f%x2a HEAD); do echo $x; done",
            "echo $(git rev-list --objects HEAD)",
            "git log --format=%s -5 | while read sha; do git show --stat \"$sha\"; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "for sha in $(git rev-list -n 5 --no-merges HEAD); do git show --stat $sha; done",
            "echo $(git rev-list --count HEAD)",
            "git rev-list HEAD | while read sha; do git show --stat $sha; done",
            "git log --format=%h -5 | while read sha; do git show --stat \"$sha\"; done",
        ],
    );
}

/// Red team 76A (2 bypasses): `"$ROOT"/etc/*` of `ROOT=$(git rev-parse --show-toplevel)`
/// without a fallback lists `/etc` where git prints nothing; a glob after such a value is a
/// listing of a directory only known at run time.
#[test]
fn git_top_without_a_fallback_before_a_glob() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "ROOT=$(git rev-parse --show-toplevel); echo \"$ROOT\"/etc/*",
            "ROOT=$(git rev-parse --show-toplevel); for f in \"$ROOT\"/*; do echo \"$f\"; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "ROOT=$(git rev-parse --show-toplevel); cat \"$ROOT/src/a.rs\"",
            "ROOT=$(git rev-parse --show-toplevel || pwd); echo \"$ROOT\"/src/*",
        ],
    );
}

/// Red team 76A R27: Gemini's grep given both `dir_path` and `path` (an older release reads
/// `path`): both are decided.
#[test]
fn gemini_grep_with_both_directories() {
    let ws = check_common::red_team_workspace(true);
    let check = |tool: &str, args: &str| {
        let v: serde_json::Value = serde_json::from_str(args).unwrap();
        check_common::check_in_dir(ws.path(), tool, &v)["decision"].as_str().unwrap().to_string()
    };
    assert_eq!(check("search_file_content", r#"{"pattern":"root","dir_path":"docs","path":"/etc"}"#), "ask");
    assert_eq!(check("list_directory", r#"{"dir_path":"docs","path":"/etc"}"#), "ask");
    assert_eq!(check("grep_search", r#"{"pattern":"root","dir_path":"docs","path":"docs"}"#), "allow");
}

/// Red team 76C (over-denies and over-asks of everyday edits): a find whose tests are joined
/// by `-a` with a negated one (`-not -path './node_modules/*'`) lists a subset of what the
/// others let through; `xargs -I{}` with `{}` a whole word hands one name a line.
#[test]
fn negated_find_tests_and_xargs_replace() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "find . -name '*.md' -not -path './node_modules/*' | xargs sed -i 's/ref/Ref/'",
            "find . -type f -name '*.md' -not -path './node_modules/*' -exec sed -i 's/ref/Ref/' {} +",
            "find . -name '*.md' ! -name README.md | xargs sed -i 's/ref/Ref/'",
            "find docs -name '*.md' | xargs -I{} sed -i 's/ref/Ref/' {}",
            "find docs -name '*.md' | xargs -I % sed -i 's/ref/Ref/' %",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "find . ! -name '*.md' | xargs sed -i s/a/b/",
            "find . -not -name '*.md' -exec sed -i s/a/b/ {} +",
            "find . | xargs -I{} sed -i 's/ref/Ref/' {}",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find docs -name '*.md' | xargs -I{} sed -i 's/ref/Ref/' ../{}",
            "find docs -name '*.md' | xargs -I{} sed -i 's/ref/Ref/' {}.bak",
            "find /etc ! -type d -exec cat {} +",
        ],
    );
}

/// Left by red teams 75 and 76 (over-asks of everyday listings): plain `git ls-files` handed to
/// xargs, a `for` loop over `$(...)` or a `read -r` loop. The edge reads git's index (names
/// not on disk included) and holds the call only where every name is plain; a tracked ` /etc/passwd`
/// whose directory ` ` was deleted keeps it asked (xargs and read cut the blank).
#[test]
fn git_ls_files_names_read_from_the_index() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn main() {}\n");
    let git = |script: &str| check_common::bash_stdout(ws.path(), script);
    git("git add -A && git -c user.name=t -c user.email=t@t commit -qm x");
    let everyday = [
        "git ls-files '*.rs' | xargs wc -l",
        "wc -l $(git ls-files)",
        "for f in $(git ls-files docs); do wc -l \"$f\"; done",
        "git ls-files docs | xargs sed -i 's/a/b/'",
        "git ls-files '*.rs' | while read -r f; do wc -l \"$f\"; done",
    ];
    check_common::assert_in_dir(ws.path(), "allow", &everyday);
    check_common::assert_in_dir(ws.path(), "deny", &["git ls-files | xargs sed -i s/a/b/"]);
    // A tracked name with a blank, no longer on disk.
    git("mkdir ' ' && echo x > ' /passwd' && git add -A && git -c user.name=t -c user.email=t@t commit -qm y && rm -r ' '");
    assert!(git("git ls-files | xargs wc -l 2>&1").contains("/passwd"), "xargs cut the blank");
    check_common::assert_in_dir(ws.path(), "ask", &everyday[..3]);
    check_common::assert_in_dir(ws.path(), "ask", &["git ls-files | while read -r f; do wc -l \"$f\"; done"]);
    check_common::assert_in_dir(ws.path(), "allow", &["git ls-files -z | xargs -0 wc -l"]);
}

/// Left by red teams 75 and 76 (over-asks): an unquoted `$(...)` that prints one number is
/// one word, never `-v NAME` for `test`; `git diff --name-only` without a revision lists the
/// index's names, held by the edge as `git ls-files`' are.
#[test]
fn counts_and_index_diffs() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/lib.rs", "fn a() {}\n");
    check_common::bash_stdout(ws.path(), "git add -A && git -c user.name=t -c user.email=t@t commit -qm x");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "[ $(git rev-list --count HEAD) -gt 0 ] && echo has-commits",
            "test $(git status --porcelain | wc -l) -eq 0 && echo clean",
            "if [ $(grep -c fn src/lib.rs) -gt 0 ]; then echo has; fi",
            "git diff --name-only | xargs grep -n TODO",
            "for f in $(git diff --name-only); do git diff -- \"$f\" | head -20; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "[ $(cat count.txt) -gt 0 ]",
            "wc(){ echo -v; }; [ $(wc -l < src/lib.rs) ]",
            "[ $(grep -c fn src/*.rs) -gt 0 ]",
            "IFS=x; [ $(wc -l < src/lib.rs) -gt 0 ]",
            "git diff --name-only HEAD~1 | xargs grep -n TODO",
            "git diff --name-only --cached | xargs grep -n TODO",
        ],
    );
}

/// Red team 77C (12 bypasses): grep's options after its operands are options (GNU grep
/// permutes: `grep -c x -H` prints `(standard input):0`, a name arithmetic evaluates), and
/// `+=` to an integer variable evaluates its old value (`n='q[$(rm x)]'; declare -i n; n+=1`).
#[test]
fn counts_that_are_not_and_integer_appends() {
    let ws = check_common::red_team_workspace(true);
    assert_eq!(check_common::bash_stdout(ws.path(), "echo | grep -c x -H").trim(), "(standard input):0");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "standard='q[$(rm -f Cargo.toml)]'; n=$(echo | grep -c x -H); echo $((n))",
            "standard='q[$(rm -f Cargo.toml)]'; echo $(( $(echo | grep -c x -H) ))",
            "standard='q[$(rm -f Cargo.toml)]'; for n in $(echo | grep -c x -H); do echo $((n)); done",
            "n='q[$(rm -f Cargo.toml)]'; declare -i n; n+=1",
            "n='q[$(rm -f Cargo.toml)]'; declare -i n; declare n+=0",
            "a=('q[$(rm -f Cargo.toml)]'); declare -i a; a[0]+=1",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "cd docs && n=$(grep -c x -r) && echo $((n))",
            "n=$(grep -c -H ref < docs/a.md); echo $((n))",
            "echo 'q[$(cat /etc/passwd >&2)]' > docs/n.md; read -r n < docs/n.md; declare -i n; n+=1",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "declare -i count=0; count+=1; count+=2; echo $count",
            "declare -i total=0; for f in docs/*.md; do total+=$(wc -l < \"$f\"); done; echo $total",
            "n=$(grep -c ref docs/a.md); echo $((n + 1))",
            "n=$(grep -c ref < docs/a.md); echo $((n))",
        ],
    );
}

/// Red team 77A (23 bypasses): git runs its own command of a name and never an alias of
/// it, so `git -c alias.rm=log rm Cargo.toml` is `git rm Cargo.toml`.
#[test]
fn an_alias_of_a_git_command_name_is_never_taken() {
    let ws = check_common::red_team_workspace(true);
    check_common::bash_stdout(
        ws.path(),
        "touch zz && git -c alias.rm=log rm -q --cached zz 2>/dev/null; git -c alias.status='!rm zz' status >/dev/null",
    );
    assert!(ws.path().join("zz").exists(), "git ran its own status, not the alias");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "git -c alias.rm=log rm Cargo.toml",
            "git -c Alias.rm=show rm Cargo.toml",
            "git -c alias.rm=x -c alias.x=log rm Cargo.toml",
            "git -c alias.rm=ls-files rm -f .env",
            "git -c alias.checkout=log checkout HEAD -- .env",
            "git -c alias.mv=log mv .gitignore .env.bak",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "git -c alias.stash=status stash",
            "git -c alias.tag=log tag v1",
            "git -c alias.clone=log clone file:///tmp/x.git",
            "git -c alias.push=log push https://example.com/x HEAD",
            "git -c alias.daemon=status daemon",
            "git -c alias.credential-store=log credential-store get",
            "git -c alias.init=log init x",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        // (A `!` alias's script is decided wherever it is defined, used or not: `git -c
        // alias.status='!rm zz' status` stays denied.)
        &["git -c alias.s=status s", "git -c alias.l=log l -1"],
    );
}

/// Red team 76C A33 (over-ask): a `read` loop without `-r` over a listing (`ls docs | while
/// read f; do wc -l "docs/$f"; done`) drops backslashes and trims blanks: held where the edge
/// finds neither in a name below, as a `for` loop's split is.
#[test]
fn a_read_loop_without_r_over_plain_names() {
    let ws = check_common::red_team_workspace(true);
    let command = "ls docs | while read f; do wc -l \"docs/$f\"; done";
    check_common::assert_in_dir(ws.path(), "allow", &[command]);
    std::fs::write(ws.path().join("docs/a\\b.md"), "x").unwrap();
    check_common::assert_in_dir(ws.path(), "ask", &[command]);
    check_common::assert_in_dir(ws.path(), "allow", &["ls docs | while IFS= read -r f; do wc -l \"docs/$f\"; done"]);
}

/// Red team 78A (11 bypasses): a split index (its names in `sharedindex.*`, the index file
/// holding none) and a sparse index (folders for names) are not read: the listing is asked.
#[test]
fn split_and_sparse_indexes_keep_git_listings_asked() {
    let ws = check_common::red_team_workspace(true);
    let git = |script: &str| check_common::bash_stdout(ws.path(), script);
    git("git add -A && git -c user.name=t -c user.email=t@t commit -qm x");
    let blob = git("git hash-object -w docs/a.md");
    git(&format!("git update-index --add --cacheinfo '100644,{},docs/x /etc/passwd'", blob.trim()));
    check_common::assert_in_dir(ws.path(), "ask", &["git ls-files -- docs | xargs cat"]);
    git("git update-index --split-index");
    check_common::assert_in_dir(ws.path(), "ask", &["git ls-files -- docs | xargs cat", "git ls-files | xargs wc -l"]);
}

/// Red team 79A (17 bypasses): a loop over names `printf` prints (`printf '%s\n' /etc/passwd |
/// while read f; do cat "$f"; done`) reads below its start points, which no command read:
/// they are decided as reads (the start point of a `find`, `ls` or `git` listing is read by
/// that command already).
#[test]
fn a_printed_listing_reads_its_start_points() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "printf \"%s\\n\" /etc/passwd | while read f; do cat \"$f\"; done",
            "printf \"%s\\n\" /etc/passwd | while IFS= read -r f; do cat \"$f\"; done",
            "for f in $(printf \"%s\\n\" /etc/passwd); do cat \"$f\"; done",
            "cd docs && printf \"%s\\n\" ../../../../etc/passwd | while read f; do cat \"$f\"; done",
            "printf \"%s\\n\" docs/a.md /etc/passwd | sort | while read f; do grep -H . \"$f\"; done",
            "printf \"%s\\n\" /etc/passwd | while read f; do wc -l < \"$f\"; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "printf '%s\\n' docs/*.md | while read -r f; do wc -l \"$f\"; done",
            "for f in $(printf '%s\\n' docs/a.md); do cat \"$f\"; done",
        ],
    );
}

/// Review of red team 76: the index is read when gate decides, before an earlier part of the
/// call runs; one that may change it (`git merge`, `git reset`, allowed by a rule) leaves the
/// listing's names unknown.
#[test]
fn a_git_listing_after_a_command_that_may_change_the_index() {
    let policy = "version: 1\npermissions:\n  allow: [ \"Bash(git merge *)\", \"Bash(git status)\" ]\n  deny: [ \"Bash(rm *)\" ]\n";
    let ws = check_common::workspace(policy);
    check_common::write_file(ws.path(), "docs/a.md", "# a\n");
    let git = |script: &str| check_common::bash_stdout(ws.path(), script);
    git("git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -qm x");
    check_common::assert_in_dir(ws.path(), "allow", &["git status && git ls-files | xargs wc -l"]);
    check_common::assert_in_dir(ws.path(), "ask", &["git merge -q evil && git ls-files | xargs cat"]);
}
