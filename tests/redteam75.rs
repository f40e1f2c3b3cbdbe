//! The red teams of the twenty-sixth session ("red team 75" in the code's comments, and the
//! cases left open by round 74 this session fixed). Each regression goes through the real
//! binary (`gate check --json`); where the answer rests on what bash or find does, bash is
//! asked.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Left by red team 74 (B A16, over-ask): `find . -name '*.rs' -execdir cat {} +` was asked
/// for `reads .` "after a directory change": find reads its start points where it runs, and
/// `{}` is `./NAME` in each match's directory, below them. What the command given to
/// `-execdir` names itself is still relative to a directory gate does not follow.
#[test]
fn find_execdir_names_are_below_the_start_points() {
    let ws = check_common::red_team_workspace(true);
    let printed = check_common::bash_stdout(ws.path(), "find src -name '*.rs' -execdir echo {} +");
    assert_eq!(printed.trim(), "./a.rs");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["find . -name '*.rs' -execdir cat {} +", "find src -name '*.rs' -execdir wc -l {} \\;"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find . -name '*.rs' -execdir cat ../.env {} +",
            "find /etc -name passwd -execdir cat {} +",
            "find . -execdir cat a.rs \\;",
            "cd /etc && find . -execdir cat {} +",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["find . -name '.e*' -execdir sed -i s/a/b/ {} +"]);
}

/// Left by red teams 69 to 74 (over-ask): `ROOT=$(git rev-parse --show-toplevel)` without `||
/// pwd`, then `"$ROOT/src/a.rs"`: as the inline form, the start's `./src/a.rs`, or
/// `/src/a.rs` where git prints nothing, held only where nothing is at `/src` and the call does
/// not write it. The value is the top where it was assigned, wherever it is used.
#[test]
fn git_top_in_a_variable_without_a_fallback() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "ROOT=\"$(git rev-parse --show-toplevel)\"; cat \"$ROOT/src/a.rs\"",
            "ROOT=$(git rev-parse --show-toplevel); cat \"$ROOT\"/src/a.rs",
            "ROOT=$(git rev-parse --show-toplevel); cd src; cat \"$ROOT/src/a.rs\"",
            "ROOT=$(git rev-parse --show-toplevel) && cd \"$ROOT\" && ls",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            // (`/etc` is there: where git prints nothing this reads /etc/passwd.)
            "ROOT=$(git rev-parse --show-toplevel); cat \"$ROOT/etc/passwd\"",
            "ROOT=$(git rev-parse --show-toplevel); echo x > \"$ROOT/docs/n.md\"",
            // (Unquoted, a top with a blank splits.)
            "ROOT=$(git rev-parse --show-toplevel); cat $ROOT/src/a.rs",
            // (`cd ""` stays in src.)
            "ROOT=$(git rev-parse --show-toplevel); cd src; cd \"$ROOT\" && cat a.rs",
            "cd src; ROOT=$(git rev-parse --show-toplevel); cat \"$ROOT/src/a.rs\"",
            "ROOT=$(git rev-parse --show-toplevel); ROOT=/etc; cat \"$ROOT/passwd\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["ROOT=$(git rev-parse --show-toplevel); sed -i s/a/b/ \"$ROOT/.env\""],
    );
    // Where git prints nothing, bash reads below `/`.
    let printed = check_common::bash_stdout(
        ws.path(),
        "ROOT=$(GIT_DIR=/nonexistent git rev-parse --show-toplevel 2>/dev/null); echo \"$ROOT/etc/passwd\"",
    );
    assert_eq!(printed.trim(), "/etc/passwd");
}

/// Left by red team 74 (over-deny): `ls -d docs/*.md | xargs sed -i ...` was denied for the
/// `.env` a bare name could be. With `-d`, ls prints its operands themselves, never a
/// directory's entries: the names are the glob's, below `docs`. Without `-d` a matched
/// directory's entries come bare (`Cargo.toml`), so that stays denied; a name a blank would
/// split is looked at by the edge.
#[test]
fn ls_d_prints_its_operands_only() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "docs/x.md/Cargo.toml", "");
    let printed = check_common::bash_stdout(ws.path(), "ls -d docs/*.md; echo --; ls docs/*.md");
    let (with_d, without) = printed.split_once("--\n").unwrap();
    assert!(with_d.lines().all(|l| l.starts_with("docs/")), "{printed}");
    assert!(without.lines().any(|l| l == "Cargo.toml"), "{printed}");
    std::fs::remove_dir_all(ws.path().join("docs/x.md")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["ls -d docs/*.md | xargs sed -i s/a/b/", "ls -1d docs/* | xargs sed -i s/a/b/"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["ls docs/*.md | xargs sed -i s/a/b/", "ls -d | xargs sed -i s/a/b/", "ls -d docs/*.md | xargs rm"],
    );
    check_common::write_file(ws.path(), "docs/x .env.md", "");
    check_common::assert_in_dir(ws.path(), "ask", &["ls -d docs/*.md | xargs sed -i s/a/b/"]);
}

/// Found by red team 75 (C21, C26, over-asks): `cd docs && for f in *.md; do sed -i ... "$f";
/// done` was asked ("`"*.md"` could be an option") where `sed -i ... *.md` was not: the loop's
/// `"$f"` is one name of the glob, and the edge looks for a name that starts with `-` as it
/// does for the glob itself.
#[test]
fn a_loop_name_of_a_glob_handed_to_a_tabled_program() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "cd docs && for f in *.md; do sed -i 's/\\bref\\b/reference/g' \"$f\"; done",
            "cd src && for f in *.rs; do echo \"== $f\"; sed -n '1,5p' \"$f\"; done",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["cd docs && for f in .e*; do sed -i s/a/b/ \"$f\"; done"]);
    // A name that starts with `-` is an option to sed: `-i.env.md` backs up to `*.env.md`.
    check_common::write_file(ws.path(), "docs/-i.env.md", "");
    let d = check_common::command_in_dir(ws.path(), "cd docs && for f in *.md; do sed -i s/a/b/ \"$f\"; done");
    assert_eq!(d["decision"], "ask", "{d}");
    assert!(d["reason"].as_str().unwrap().contains("-i.env.md"), "{d}");
}

/// Found by red team 75 (C22, over-ask): `find src -name '*.rs' -exec awk 'END{...}' {} \;`
/// was asked where `awk '...' src/*.rs` was not. find's names start with a start point, so are
/// neither options nor `NAME=value` assignments; what the program does is decided as before.
#[test]
fn awk_given_a_find_listing() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "find src -name '*.rs' -exec awk 'END{print FILENAME\": \"NR}' {} \\;",
            "find src -name '*.rs' | xargs awk 'FNR==1{print FILENAME}'",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find src -exec awk '{print > v}' {} +",
            "find src -exec awk '{getline x < v; print x}' {} +",
            "find src -exec awk -f x.awk {} +",
            "find src -name '*.rs' -exec awk '{print > FILENAME}' {} +",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["find src -exec awk '{system(\"rm x\")}' {} +"]);
}

/// Found by red teams 74 and 75 (C43, over-ask): Gemini CLI's grep tool under its older name,
/// `search_file_content` (gemini-cli keeps it among its legacy aliases), was a tool gate did
/// not know; it is decided as `grep_search` is.
#[test]
fn gemini_search_file_content_is_its_grep() {
    let ws = check_common::red_team_workspace(true);
    let call = |args: serde_json::Value| check_common::check_in_dir(ws.path(), "search_file_content", &args);
    let d = call(serde_json::json!({"pattern": "fn main", "path": "src", "include": "*.rs"}));
    assert_eq!(d["decision"], "allow", "{d}");
    let d = call(serde_json::json!({"pattern": "root", "path": "/etc"}));
    assert_eq!(d["decision"], "ask", "{d}");
    let d = call(serde_json::json!({"pattern": "root", "include": "../../etc/*"}));
    assert_ne!(d["decision"], "allow", "{d}");
}

/// Found by red team 75 (19 bypasses): sed's backup suffix with `*` (each `*` the file name as
/// given) was worked out only for literal names; for a glob's names or a listing's it was not,
/// and `cd docs && sed -i'../../*' s/a/b/ *.md` wrote `../../a.md`, `ls | xargs sed -i'.env*'`
/// wrote `.enva.md`. Now each `*` stands for the name, a listing's as any name.
#[test]
fn sed_backup_suffix_of_names_known_at_run_time() {
    let ws = check_common::red_team_workspace(true);
    let scratch = tempfile::tempdir().unwrap();
    let copy = scratch.path().join("ws");
    check_common::bash_stdout(scratch.path(), &format!("cp -r {} {}", ws.path().display(), copy.display()));
    check_common::bash_stdout(&copy, "cd docs && ls | xargs sed -i'.env*' s/a/b/");
    assert!(copy.join("docs/.enva.md").exists(), "sed wrote the backup");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "cd docs && sed -i'.env*' s/a/b/ *.md",
            "cd docs && sed -i'../.env*' s/a/b/ *.md",
            "cd docs && ls | xargs sed -i'.env*' s/a/b/",
            "cd docs && git grep -l ref -- . | xargs sed -i'.env*' s/a/b/",
            "cd docs && for f in *.md; do sed -i'.env*' s/a/b/ -- \"$f\"; done",
            "cd docs && printf '%s\\n' *.md | xargs sed -i'.env*' s/a/b/",
        ],
    );
    for c in [
        "cd docs && sed -i'../../*' s/a/b/ *.md",
        "cd docs && sed -i -i'../../*' s/a/b/ *.md",
        "cd docs && ls | xargs sed -i'../../*' s/a/b/",
        "cd docs && find . -type f | xargs sed -i'../../*' s/a/b/",
        "cd docs && find . -name '*.md' -exec sed -i'../../*' s/a/b/ {} +",
        "cd docs && sed -i'/tmp/x/*' s/a/b/ *.md",
        "find docs -name '*.md' | xargs sed -i.bak s/a/b/",
    ] {
        let d = check_common::command_in_dir(ws.path(), c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "cd docs && sed -i s/a/b/ *.md",
            "cd docs && sed -i'bak_*' s/a/b/ *.md",
            "cd docs && ls | xargs sed -i s/a/b/",
        ],
    );
}

/// Found by red team 75 (23 bypasses): gate read a tool's path as another agent would (a
/// `file:` URI without its query or fragment, a leading `@` or `$HOME` dropped or expanded,
/// blanks trimmed), and Claude Code, Codex and opencode take it as written:
/// `file:docs/x.md#/../../Cargo.toml` is `Cargo.toml` to them. Both readings are decided; the
/// stricter answers.
#[test]
fn a_tool_path_is_decided_as_written_too() {
    let ws = check_common::red_team_workspace(true);
    let call =
        |tool: &str, args: serde_json::Value| check_common::check_in_dir(ws.path(), tool, &args)["decision"].clone();
    let deny = [
        ("Write", serde_json::json!({"file_path": "file:docs/x.md#/../../Cargo.toml", "content": "x"})),
        ("Write", serde_json::json!({"file_path": "FILE:docs/x.md?/../../.env", "content": "x"})),
        (
            "Edit",
            serde_json::json!({"file_path": "file:docs/a.md#/../../Cargo.toml", "old_string": "a", "new_string": "b"}),
        ),
        (
            "apply_patch",
            serde_json::json!({"input": "*** Begin Patch\n*** Add File: file:docs/x.md#/../../Cargo.toml\n+x\n*** End Patch\n"}),
        ),
    ];
    for (tool, args) in deny {
        assert_eq!(call(tool, args.clone()), "deny", "{tool} {args}");
    }
    let ask = [
        ("Read", serde_json::json!({"file_path": "file:docs/a.md#/../../../../../../../etc/passwd"})),
        ("Grep", serde_json::json!({"pattern": "root", "path": "file:docs#/../../../../../../etc"})),
        ("LS", serde_json::json!({"path": "file:docs#/../../../../../../etc"})),
        ("Write", serde_json::json!({"file_path": "@/../../tmp/ws/docs/x.md", "content": "x"})),
        ("Write", serde_json::json!({"file_path": "$HOME/../../tmp/ws/docs/x.md", "content": "x"})),
        ("MultiEdit", serde_json::json!({"file_path": "file:docs/a.md#/../../src/a.rs", "edits": []})),
    ];
    for (tool, args) in ask {
        assert_ne!(call(tool, args.clone()), "allow", "{tool} {args}");
    }
    assert_eq!(call("Read", serde_json::json!({"file_path": "docs/a.md"})), "allow");
    assert_eq!(call("Write", serde_json::json!({"file_path": "docs/x.md", "content": "x"})), "allow");
}

/// Found by red team 75 (15 bypasses): a program that reads the directory it runs in without
/// being told (`ls`, `grep -r`, `rg`, `du`, `tree`) was allowed wherever it ran once gate had
/// lost the directory: `pushd -n /etc; pushd +1; ls`, `find "$PWD" -maxdepth 0 -execdir ls \;`
/// (the start's own `-execdir` runs in its parent), and an EXIT trap's `cd /etc; grep -r root`.
#[test]
fn a_listing_of_the_directory_it_runs_in() {
    let ws = check_common::red_team_workspace(true);
    let printed = check_common::bash_stdout(ws.path(), "pushd -n /etc >/dev/null; pushd +1 >/dev/null; pwd");
    assert_eq!(printed.trim(), "/etc");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "pushd -n /etc; pushd +1; ls",
            "pushd -n /etc; pushd +1; grep -r '^root'",
            "pushd -n ..; pushd +1; du -a",
            "find \"$PWD\" -maxdepth 0 -execdir ls \\;",
            "cd src && find \"$OLDPWD\" -maxdepth 0 -execdir ls \\;",
            "trap 'cd /etc; grep -r root' EXIT",
            "trap 'cd /etc && ls' EXIT",
            "f() { cd /etc; ls; }; trap f EXIT",
            // (An action that expands a value runs with the value of when the shell exits.)
            "trap 'echo $x' EXIT; x='/etc/*'",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "cd src && ls && grep -rn fn && git log -1",
            "ls; cd src; ls -la",
            "find docs -name '*.md' -execdir grep -l ref {} +",
            "trap 'echo done' EXIT; ls",
        ],
    );
}

/// Found by red team 75 (16 bypasses): the filters gate computes (`rev`, `sed s/A/B/`, `tr`)
/// were fed text bash never gives them: printf's output with its NUL bytes already dropped
/// (`$(printf 'r\0m' | sed s/rm/ls/)` runs rm), date's sample (`%C` is `26` to gate, `20`
/// now), git's stand-in for an object name; and a pattern replacement on a date's value
/// (`x=$(date +%C); ls "${x/20//etc}"`). Now only literal echo/printf text is filtered, and a
/// pattern with a digit does not match a value gate only has a sample of.
#[test]
fn filters_and_patterns_over_values_gate_only_samples() {
    let ws = check_common::red_team_workspace(true);
    let printed = check_common::bash_stdout(ws.path(), "echo $(printf 'r\\0m' | sed s/rm/ls/)");
    assert_eq!(printed.trim(), "rm");
    for c in [
        "$(printf 'r\\0m' | sed s/rm/ls/) -f docs/a.md",
        "$(printf 'vne\\0tnirp' | rev) cat /etc/passwd",
        "$(date +%C | sed s/26/ls/ | sed s/20/rm/) -f docs/a.md",
        "x=$(date +%C); ls \"${x/20//etc}\"",
        "x=$(date -u +%C); cat \"${x/20//etc/passwd}\"",
        "printf -v x '%(%C)T' -1; ls \"${x/20//etc}\"",
        "$(git rev-parse HEAD | sed s/0123456789abcdef0123456789abcdef01234567/ls/ | tr -d 0123456789abcdef) rm -f docs/a.md",
    ] {
        let d = check_common::command_in_dir(ws.path(), c);
        assert_ne!(d["decision"], "allow", "{c}: {d}");
    }
    check_common::assert_in_dir(ws.path(), "deny", &["$(echo mr | rev) x", "$(sed s/q/r/ <<< qm) x"]);
}

/// Found by red team 75 (5 bypasses): brace expansion inside an array's items, `a=({src,/etc}/passwd)`,
/// was not done: the items were taken as workspace paths.
#[test]
fn braces_in_an_array_assignment() {
    let ws = check_common::red_team_workspace(true);
    let printed = check_common::bash_stdout(ws.path(), "a=({src,/etc}/passwd); echo \"${a[1]}\"");
    assert_eq!(printed.trim(), "/etc/passwd");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["a=({src,/etc}/passwd); cat \"${a[@]}\"", "a=({docs,..}); ls \"${a[@]}\"", "a=({src,/etc}/*); echo ${#a[@]}"],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["a=({Cargo,x}.toml); tee \"${a[0]}\" < src/a.rs"]);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "a=(src/{a,lib}.rs); cat \"${a[@]}\"",
            "a=({src,docs}/*); echo ${#a[@]}",
            "files=(src/*.rs); wc -l \"${files[@]}\"",
        ],
    );
}

/// Found by red team 75 (C60, bypass): git's names are bare, from the top, and `read` without
/// `IFS=` drops the blanks a name starts with: a tracked ` /etc/passwd` (a directory named
/// ` `) is `/etc/passwd` in `git diff --name-only | while read f; do wc -l "$f"; done`.
#[test]
fn git_names_read_without_ifs_lose_their_blanks() {
    let ws = check_common::red_team_workspace(true);
    let printed = check_common::bash_stdout(ws.path(), "printf ' /etc/passwd\\n' | while read f; do echo \"$f\"; done");
    assert_eq!(printed, "/etc/passwd\n");
    // (Held by the index's names since red team 76: a tracked name under ` `, gone from disk.)
    check_common::bash_stdout(ws.path(), "mkdir ' ' && echo x > ' /passwd' && git add -A && rm -r ' '");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "git diff --name-only | while read f; do wc -l \"$f\"; done",
            "git ls-files -z | while read -r -d '' f; do wc -l \"$f\"; done",
        ],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["git ls-files | while IFS= read -r f; do head -1 \"$f\"; done"]);
}

/// Found by the review of red team 75's fixes: sed's `--in-place` abbreviated (`--in-pl`,
/// `--i=.b`) under xargs was read as no in-place edit; printf's `%c` of an empty argument
/// prints a NUL that a filter meets; `read` without `-r` drops backslashes, so a listed
/// `docs/.\./.\.` is `docs/../..`.
#[test]
fn review_of_red_team_75() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "find . -maxdepth 1 -name .env | xargs sed --in-pl s/K=v/K=x/",
            "find . -name Cargo.toml | xargs sed --i=.b s/a/b/",
            "$(printf 'r%cm' '' | sed s/rm/ls/) -rf docs",
        ],
    );
    let printed =
        check_common::bash_stdout(ws.path(), "printf 'docs/.\\\\./x\\n' | while read f; do echo \"$f\"; done");
    assert_eq!(printed, "docs/../x\n");
    // (Without `-r` a name is held where the edge finds no backslash in one: red team 76.)
    check_common::assert_in_dir(ws.path(), "allow", &["find docs -type d | while read f; do ls \"$f\"; done"]);
    std::fs::create_dir_all(ws.path().join("docs/.\\.")).unwrap();
    check_common::assert_in_dir(ws.path(), "ask", &["find docs -type d | while read f; do ls \"$f\"; done"]);
    check_common::assert_in_dir(ws.path(), "allow", &["find docs -type d | while read -r f; do ls \"$f\"; done"]);
}
