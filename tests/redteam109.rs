//! The red teams of the thirty-second session ("red team 109" in the code's comments). Each
//! regression goes through the real binary (`gate check --json`); where the answer rests on
//! what bash, git or a program does, that is asked first.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use proptest::prelude::*;

/// Red team 109 A B01-B03, B06: the recognisers of substitutions that print numbers read
/// their text as written, so `grep -c '-r' docs` was a count of the pattern `'-r'` in `docs`
/// (one integer); bash hands grep `-r`, which prints `NAME:COUNT` lines. As a number that
/// ended a line in arithmetic (so a later `cd` never ran), and in a sed script `"$(...)p"`
/// it ran sed's `e` command from a file's name. A word that is an option once its quotes
/// are gone is no longer read as anything but what it may be.
#[test]
fn quoted_options_in_counted_substitutions() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "docs/b.md", "x\n");
    // What bash does: grep gets `-r` and prints a name and a count a line.
    let out = check_common::bash_stdout(ws.path(), "grep -c '-r' docs | head -1; grep -c x \"--recursive\" | head -1");
    assert!(out.lines().all(|l| l.contains(':')), "{out}");
    let out = check_common::bash_script_stdout(ws.path(), "n=$(grep -c '-r' docs); : $((n + 1)); echo same\necho next");
    assert_eq!(out, "next\n");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "n=$(grep -c '-r' docs); : $((n + 1)); cd docs\nls ..",
            "n=$(grep -c x \"--recursive\"); : $((n + 1)); cd docs\nls ..",
            "n=$(grep -c x \\--recursive); : $((n + 1)); cd docs\nls ..",
            "n=$(wc -l '--help' | awk '{print $1}'); : $((n + 1)); cd docs\nls ..",
            "mkdir -p docs/z && : > 'docs/z/1e cd ..;cd ..;cd ..;touch PWNED #.md' && cd docs/z && sed -n \"$(grep -c '-r' x)p\" ../a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["mkdir -p docs/z && : > 'docs/z/1e cd ..;rm -f x #.md' && cd docs/z && sed -n \"$(grep -c '-r' x)p\" ../a.md"],
    );
    // The everyday forms stay allowed.
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "n=$(grep -c fn docs/a.md); sed -n \"${n}p\" docs/a.md",
            "n=$(grep -c 'fn' docs/a.md); echo $((n + 1))",
            "n=$(wc -l < docs/a.md); echo $((n + 1))",
        ],
    );
}

/// Red team 109 A B04-B05: `jq 'nan | length'` prints `null` (jq 1.6), a name arithmetic
/// evaluates, and a name's value is arithmetic again (`a[$(cmd)]` runs cmd); so does `.b |
/// length` of a file holding `NaN`, which jq 1.6 reads (found in review). Only paths, then
/// a builtin that never gives a number (`keys`, `tostring`...), may come before `length`.
#[test]
fn jq_length_only_of_paths() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "package.json", "{\"scripts\": {\"a\": \"b\"}}\n");
    // What bash does with the name `null` in arithmetic.
    std::fs::write(ws.path().join("m"), "").unwrap();
    let out = check_common::bash_stdout(ws.path(), "null='a[$(rm -f m)]'; echo $((null + 1)); ls m 2>&1");
    assert!(out.contains("No such file"), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "null='a[$(rm -f m)]'; echo $(( $(jq 'nan | length' package.json) + 1 ))",
            "null='a[$(rm -f m)]'; n=$(jq 'nan | length' package.json); echo $((n + 1))",
            "null='a[$(rm -f m)]'; n=$(jq '.x | nan | length' package.json); echo $((n + 1))",
            "null='a[$(rm -f m)]'; n=$(jq 'null | length' package.json); echo $((n + 1))",
            "echo '{\"b\": NaN}' > docs/n.md; null='a[$(rm -f m)]'; n=$(jq '.b | length' docs/n.md); echo $((n))",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "n=$(jq '.scripts | keys | length' package.json); echo $((n + 1))",
            "n=$(jq '.scripts.a | tostring | length' package.json); echo $((n + 1))",
            "n=$(jq '.[0] | keys_unsorted | length' package.json); echo $((n + 1))",
        ],
    );
}

/// The patch of red team 109 D: a text hunk of `docs/a.md` (which the policy lets the agent
/// write), then `extra`.
fn docs_patch_and(extra: &str) -> String {
    format!("diff --git a/docs/a.md b/docs/a.md\n--- a/docs/a.md\n+++ b/docs/a.md\n@@ -1 +1 @@\n-# a\n+# b\n{extra}")
}

/// Red team 109 D D01, D02, D04: git takes a section's names from its `diff --git a/X b/Y`
/// header where the section has no `---`/`+++` lines (a binary patch, an empty file created
/// or deleted, a mode changed); gate read only those lines, so beside a hunk of `docs/a.md`
/// a patch created `.env.local`, replaced Cargo.toml or made `src/a.rs` executable.
#[test]
fn patch_names_in_git_headers() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    let env = docs_patch_and("diff --git a/.env.local b/.env.local\nnew file mode 100644\nindex 0000000..e69de29\n");
    let mode = docs_patch_and("diff --git a/src/a.rs b/src/a.rs\nold mode 100644\nnew mode 100755\n");
    // What git does: each patch applies whole, in a scratch copy of its own.
    let applied = |patch: &str| {
        let scratch = check_common::red_team_workspace(true);
        check_common::write_file(scratch.path(), "src/a.rs", "fn a() {}\n");
        git_apply_in(scratch.path(), &["-"], patch);
        scratch
    };
    assert!(applied(&env).path().join(".env.local").exists());
    {
        use std::os::unix::fs::PermissionsExt;
        let scratch = applied(&mode);
        let mode = std::fs::metadata(scratch.path().join("src/a.rs")).unwrap().permissions().mode();
        assert_ne!(mode & 0o111, 0, "{mode:o}");
    }
    let heredoc = |patch: &str| format!("git apply <<'EOF'\n{patch}EOF");
    check_common::assert_in_dir(ws.path(), "deny", &[&heredoc(&env)]);
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[&heredoc(&docs_patch_and(
            "diff --git a/Cargo.toml b/Cargo.toml\nindex 1111111..2222222 100644\nGIT binary patch\nliteral 1\nIcmZo*0000b0{{R3\n\nliteral 1\nIcmZo*0000b0{{R3\n\n",
        ))],
    );
    check_common::assert_in_dir(ws.path(), "ask", &[&heredoc(&mode)]);
    // A header that does not split at one ` b/` is not known.
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[&heredoc(&docs_patch_and("diff --git a/x b/y b/z b/x b/y b/z\nnew file mode 100644\n"))],
    );
    // The patch of the docs hunk alone stays allowed.
    check_common::assert_in_dir(ws.path(), "allow", &[&heredoc(&docs_patch_and(""))]);
}

/// Red team 109 D D03: `for f in src/*.rs; do wc -l $f; done` was asked where `"$f"` was
/// allowed. Unquoted, bash splits each name at blanks and globs the pieces: the same one name
/// where no name below the glob's base holds a blank, a quote, a backslash or a glob
/// character (`(` too, for extglob), which the edge looks at; where the loop ran in another
/// directory than the use, it is not known.
#[test]
fn unquoted_names_of_a_glob_loop() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::write_file(ws.path(), "src/lib.rs", "fn b() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "for f in src/*.rs; do wc -l $f; done",
            "for f in src/*.rs; do head -3 ${f}; done",
            "for f in docs/*.md; do sed -i 's/a/b/' $f; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "for f in src/*.rs; do (cd docs && wc -l $f); done",
            "IFS=x; for f in src/*.rs; do wc -l $f; done",
            "for f in src/*.rs; do g=\"$f\"; cd docs; wc -l $f; done",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["for f in src/*.rs; do rm $f; done"]);
    // A name with a blank: bash reads two paths, the second from the top.
    check_common::write_file(ws.path(), "src/x /etc/passwd.rs", "");
    let out = check_common::bash_stdout(ws.path(), "for f in src/*/*/*.rs; do printf '%s\\n' $f; done");
    assert!(out.lines().any(|l| l == "/etc/passwd.rs"), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["for f in src/*/*/*.rs; do cat $f; done", "for f in src/*.rs; do wc -l $f; done"],
    );
    std::fs::remove_dir_all(ws.path().join("src/x ")).unwrap();
    // An extglob pattern for a name: `@(.env|a).md` is `.env.md` and `a.md` to bash.
    check_common::write_file(ws.path(), "docs/@(.env|a).md", "");
    check_common::write_file(ws.path(), "docs/.env.md", "K=v\n");
    let out = check_common::bash_stdout(ws.path(), "shopt -s extglob; for f in docs/*.md; do printf '%s\\n' $f; done");
    assert!(out.lines().any(|l| l == "docs/.env.md"), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["shopt -s extglob; for f in docs/*.md; do sed -i 's/a/b/' $f; done"],
    );
}

/// Arithmetic inside arithmetic (red team 75 B's `"${lines[$((${#lines[@]}-1))]}"`, the last
/// line): a number where its own text is known; and `git fsck` (red team 108 B), which only
/// checks the object store unless `--lost-found` writes what dangles into .git/lost-found.
#[test]
fn nested_arithmetic_and_git_fsck() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "mapfile -t lines < src/a.rs; echo \"${lines[$((${#lines[@]}-1))]}\"",
            "n=3; echo $(( $((n+1)) * 2 ))",
            "git fsck",
            "git fsck --full --strict --no-dangling",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "x='a[$(touch m)]'; echo $(( $((x)) ))",
            "echo $(( $((n)+(1)) ))",
            "git fsck --lost-found",
            "git fsck --lost",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["x='a[$(rm -f m)]'; echo $(( $((x)) + 1 ))"]);
}

/// Names a `for` loop over `src/*` gives, written unquoted: where gate allows the loop, bash
/// must read each name as the same one path as `"$f"` does.
fn name_strategy() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[a-c]{1,2}[ *?(\\[a-c]{0,3}[a-c]").unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]
    #[test]
    fn allowed_unquoted_glob_names_are_one_word(name in name_strategy()) {
        let ws = check_common::red_team_workspace(true);
        check_common::write_file(ws.path(), "src/a.rs", "");
        check_common::write_file(ws.path(), &format!("src/{name}"), "");
        check_common::write_file(ws.path(), "src/b", "");
        let d = check_common::command_in_dir(ws.path(), "for f in src/*; do wc -c $f; done");
        if d["decision"] == "allow" {
            let quoted = check_common::bash_stdout(ws.path(), "for f in src/*; do printf '%s\\n' \"$f\"; done");
            let unquoted = check_common::bash_stdout(ws.path(), "for f in src/*; do printf '%s\\n' $f; done");
            prop_assert_eq!(quoted, unquoted, "{}", name);
        }
    }
}

/// What `git apply` does with `patch` in a scratch repository holding `docs/a.md`, `.env`
/// and Cargo.toml (committed), run with `args`: `git status --short` after, or its error.
fn git_applies(args: &[&str], patch: &str) -> String {
    let scratch = check_common::red_team_workspace(true);
    let git = |a: &[&str]| {
        std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@t"])
            .args(a)
            .current_dir(scratch.path())
            .output()
            .unwrap()
    };
    git(&["add", "-A"]);
    git(&["commit", "-qm", "x"]);
    git_apply_in(scratch.path(), args, patch);
    String::from_utf8_lossy(&git(&["status", "--short"]).stdout).to_string()
}

/// `git apply ARGS` of `patch` on its standard input in `dir`, which must succeed.
fn git_apply_in(dir: &std::path::Path, args: &[&str], patch: &str) {
    let out = std::process::Command::new("git")
        .arg("apply")
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(patch.as_bytes())?;
            child.wait_with_output()
        })
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// Red team 110 A A01-A05: git reads the old `rename old`/`rename new` spellings (moving
/// docs/a.md to `.env.local`, Cargo.toml into docs), strips one directory less from
/// `rename`/`copy` names than `-p` says, and reads a mode as strtoul does (`0120000`,
/// ` 120000` make a link). Each is now a name written, or a patch not known.
#[test]
fn patch_renames_old_spellings_strips_and_modes() {
    let ws = check_common::red_team_workspace(true);
    let old_new =
        "diff --git a/docs/a.md b/docs/b.md\nsimilarity index 100%\nrename from docs/a.md\nrename new .env.local\n";
    let old_old =
        "diff --git a/docs/a.md b/docs/b.md\nsimilarity index 100%\nrename old Cargo.toml\nrename to docs/b.md\n";
    let stripped =
        "diff --git a/q/docs/docs/a.md b/q/docs/CLAUDE.md\nsimilarity index 100%\nrename from docs/docs/a.md\nrename to docs/CLAUDE.md\n";
    assert!(git_applies(&[], old_new).contains(".env.local"));
    assert!(git_applies(&[], old_old).contains("D Cargo.toml"));
    let status = git_applies(&["-p2"], stripped);
    assert!(status.contains("CLAUDE.md") && !status.contains("docs/CLAUDE.md"), "{status}");
    let heredoc = |args: &str, patch: &str| format!("git apply{args} <<'EOF'\n{patch}EOF");
    check_common::assert_in_dir(ws.path(), "deny", &[&heredoc("", old_new), &heredoc("", old_old)]);
    check_common::assert_in_dir(ws.path(), "ask", &[&heredoc(" -p2", stripped)]);
    for mode in ["0120000", " 120000", "160000", "40000", "1x0644"] {
        let link = format!(
            "diff --git a/docs/e.md b/docs/e.md\nnew file mode {mode}\n--- /dev/null\n+++ b/docs/e.md\n@@ -0,0 +1 @@\n+../.env\n\\ No newline at end of file\n"
        );
        let d = check_common::command_in_dir(ws.path(), &format!("{}\necho pwned >> docs/e.md", heredoc("", &link)));
        assert_ne!(d["decision"], "allow", "{mode}: {d}");
    }
    let status = git_applies(
        &[],
        "diff --git a/docs/e.md b/docs/e.md\nnew file mode 0120000\n--- /dev/null\n+++ b/docs/e.md\n@@ -0,0 +1 @@\n+../.env\n\\ No newline at end of file\n",
    );
    assert!(status.contains("docs/e.md"), "{status}");
    // A regular file's mode, however spelled, stays a plain write.
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[&heredoc(
            "",
            "diff --git a/docs/n.md b/docs/n.md\nnew file mode 0100644\n--- /dev/null\n+++ b/docs/n.md\n@@ -0,0 +1 @@\n+x\n",
        )],
    );
}

/// Red team 110 A B01-B02: a brace expansion (`{-r,x}`), ANSI-C quoting (`$'\x2dr'`) or a
/// glob (`[-]r`) hides an option as well as quotes do.
#[test]
fn braces_and_globs_hide_options_in_counted_substitutions() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(ws.path(), "grep -c {-r,x} docs");
    assert!(out.contains("docs/a.md:"), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "n=$(grep -c {-r,x} docs); : $((n + 1)); cd docs\nls ..",
            "n=$(grep -c {x,-r} docs); : $((n + 1)); cd docs\nls ..",
            "n=$(grep -c $'\\x2dr' docs); : $((n + 1)); cd docs\nls ..",
            "n=$(grep -c [-]r docs); : $((n + 1)); cd docs\nls ..",
        ],
    );
}

/// Red team 110 D D01-D13: a function's `local` counted wherever it was written, so what the
/// body assigned after it stayed the body's; but a `local` in a branch, loop, pipeline stage
/// or subshell may not run, and a function the body calls may `unset` it or `declare -g` the
/// name, after which the body assigns the caller's variable.
#[test]
fn locals_that_may_not_hold() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    // What bash does: the caller's `o` is assigned.
    for script in [
        "o=docs/x.md; f(){ [ -f nothere ] && local o; o=Cargo.toml; }; f; echo $o",
        "o=docs/x.md; f(){ local o=x; g; o=Cargo.toml; }; g(){ unset o; }; f; echo $o",
        "o=docs/x.md; f(){ local o | true; o=Cargo.toml; }; f; echo $o",
        "o=docs/x.md; f(){ local o=x; g; }; g(){ declare -g o=Cargo.toml; }; f; echo $o",
    ] {
        assert_eq!(check_common::bash_stdout(ws.path(), script), "Cargo.toml\n", "{script}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "o=docs/x.md; f(){ [ -f nothere ] && local o; o=Cargo.toml; }; f; echo hi > $o",
            "o=docs/x.md; f(){ local o=x; g; o=Cargo.toml; }; g(){ unset o; }; f; echo hi > $o",
            "o=docs/x.md; f(){ local o | true; o=.env; }; f; echo hi > $o",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "d=src; f(){ local d=x; g; d=/etc; }; g(){ unset d; }; f; cat $d/passwd",
            "d=src; f(){ if false; then local d; fi; d=..; }; f; cd $d; ls",
            "d=src; f(){ local d=x; g; }; g(){ declare -g d=..; }; f; cd $d; ls",
            "d=src; f(){ (local d); d=..; }; f; cd $d; ls",
            "d=src; f(){ for x in; do local d; done; d=..; }; f; cd $d; ls",
            "d=src; f(){ case a in b) local d;; esac; d=..; }; f; cd $d; ls",
            "d=src; f(){ [ -e nothere ] && local d; unset d; }; f; cd ${d-..}; ls",
        ],
    );
    // A `local` that surely runs still keeps the caller's value (red team 69).
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["summarize(){ local f=\"$1\"; wc -l \"$f\"; }; for f in src/*.rs; do summarize \"$f\"; cat \"$f\"; done"],
    );
}

/// Red team 110 D S01-S05: bash runs a function named `/bin/true` for the command word
/// `/bin/true`, which gate read as the program.
#[test]
fn functions_named_with_a_slash() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(ws.path(), "V=ls; /bin/true(){ V=rm; }; /bin/true; echo $V");
    assert_eq!(out, "rm\n");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "V=ls; /bin/true(){ V=rm; }; /bin/true; $V -f docs/a.md",
            "o=docs/x.md; /bin/true(){ o=Cargo.toml; }; /bin/true; echo hi > $o",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "d=src; /bin/true(){ d=/etc; }; /bin/true; cat $d/passwd",
            "d=src; /usr/bin/true(){ d=..; }; /usr/bin/true; cd $d; ls",
        ],
    );
}

/// `shift` at a function body's own level runs wherever the body does (red team 110 C:
/// `count_matches(){ local pat=$1; shift; grep -c -- "$pat" "$@"; }` was asked).
#[test]
fn shift_in_a_function_body() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "set -euo pipefail; count_matches() { local pat=$1; shift; grep -c -- \"$pat\" \"$@\" || true; }; count_matches 'fn' src/a.rs docs/a.md",
            "f() { shift; cat \"$@\"; }; f x src/a.rs",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "f() { [ -n \"$3\" ] && shift; cat \"$1\"; }; f /etc/passwd src/a.rs",
            "f() { shift; cat \"$@\"; }; f x /etc/passwd",
        ],
    );
}

/// Red team 111 A L01-L12: words after `local`/`declare`/`typeset` were made the body's own
/// whatever the builtin did: `declare -F t` and `local -p t` only print, `typeset --help t`
/// prints help, `local -Z t` fails, `local t >&7` and `local t < missing` never run; and a
/// called function's `un\set t` (quoted so the text holds no `unset`) removes the body's
/// local. Each time the body's next assignment was the caller's.
#[test]
fn locals_only_where_declared() {
    let ws = check_common::red_team_workspace(true);
    for script in [
        "t=docs/x.md; f(){ declare -F t; t=Cargo.toml; }; f; echo $t",
        "t=docs/x.md; f(){ local -Z t 2>/dev/null; t=Cargo.toml; }; f; echo $t",
        "t=docs/x.md; f(){ local t >&7; t=Cargo.toml; }; f 2>/dev/null; echo $t",
        "t=docs/x.md; g(){ un\\set t; }; f(){ local t=docs/y.md; g; t=Cargo.toml; }; f; echo $t",
    ] {
        assert_eq!(check_common::bash_stdout(ws.path(), script), "Cargo.toml\n", "{script}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "t=docs/x.md; f(){ declare -F t; t=.env; }; f; echo hi > \"$t\"",
            "t=docs/x.md; f(){ local -p t >/dev/null 2>&1; t=.env.local; }; f; echo hi > \"$t\"",
            "t=docs/x.md; f(){ local -f t; t=Cargo.toml; }; f; echo \"[x]\" >> \"$t\"",
            "t=docs/x.md; f(){ typeset --help t >/dev/null; t=.env; }; f; echo hi > \"$t\"",
            "t=docs/x.md; f(){ local -Z t 2>/dev/null; t=.env; }; f; echo hi > \"$t\"",
            "t=docs/x.md; f(){ local t >&7; t=.env.local; }; f; echo hi > \"$t\"",
            "t=docs/x.md; f(){ local t < docs/none.md; t=.env; }; f; echo hi > \"$t\"",
            "t=docs/x.md; g(){ un\\set t; }; f(){ local t=docs/y.md; g; t=Cargo.toml; }; f; echo hi >> \"$t\"",
            "t=docs/x.md; g(){ \"un\"set t; }; f(){ local t=docs/y.md; g; t=.env; }; f; echo hi > \"$t\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "d=docs; f(){ declare -F d; d=/etc; }; f; cat $d/passwd",
            "g(){ declare -p f >/dev/null; f=/etc/passwd; }; for f in docs/*.md; do g; cat \"$f\"; done",
            "g(){ declare -p f >/dev/null; f=/etc/passwd; }; for f in docs/*.md; do g; wc -l $f; done",
        ],
    );
}

/// Red team 111 C C01-C03: `set -` with no word after it leaves the positional parameters
/// as they are (`set --` empties them); gate emptied them.
#[test]
fn set_dash_keeps_the_parameters() {
    let ws = check_common::red_team_workspace(true);
    assert_eq!(check_common::bash_stdout(ws.path(), "set -- a b; set -; echo \"$@\""), "a b\n");
    check_common::assert_in_dir(ws.path(), "deny", &["set -- rm -f docs/a.md; set -; \"$@\""]);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["set -- /etc/passwd; set -; cat docs/a.md \"$@\"", "set -- /etc; set +x -; ls \"$@\""],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["set -- docs/a.md; set -; cat \"$@\"", "set -- a; set - docs/a.md; cat \"$1\""],
    );
}

/// Red team 111 C C04-C09: `date +FMT` (and printf's `%(FMT)T`) gave a value of the right
/// shape with made-up digits (`%C` was `26`), which gate then cut (`${x:1}`), indexed with
/// and shifted by as if bash had printed it. Its digits are now ones no computation reads as
/// digits; a dated name stays a plain name, and a sample of one integer stays a number.
#[test]
fn date_samples_are_not_computed_with() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "x=$(date +%C); i=${x:1}; a=(rm 1 2 3 4 5 ls); \"${a[i]}\" -f docs/a.md",
            "i=$(date +%w); a=(rm ls rm rm rm rm rm); ${a[i]} -f docs/a.md",
            "x=$(date +%C); i=${x:1}; a=(.env 1 2 3 4 5 docs/x.md); echo hi > \"${a[i]}\"",
            "printf -v x \"%(%C)T\" -1; i=${x:1}; a=(rm 1 2 3 4 5 ls); \"${a[i]}\" -f docs/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "x=$(date +%C); set -- 1 2 3 /etc/passwd docs/a.md; shift $x; cat \"$1\"",
            "x=$(date +%C); ls \"${x/20//etc}\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "d=$(date +%F); echo x > \"docs/notes-$d.md\"",
            "echo x > \"docs/notes-$(date +%Y-%m-%d).md\"",
            "ts=$(date +%Y%m%d-%H%M%S); cp docs/a.md \"docs/a-$ts.md\"",
            "t=$(date +%s); echo $((t + 1))",
        ],
    );
}

/// Red team 111 C C10: under `shopt -s extglob`, a value `.e@(n)v` expands unquoted to `.env`;
/// it was read as the literal name. Red team 111 B L03: `docs/$f` unquoted of a `for f in
/// $(ls docs)` loop is the listing's name below docs, as `"docs/$f"` is.
#[test]
fn extglob_values_and_unquoted_listed_names() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_script_stdout(ws.path(), "shopt -s extglob\nx=\".e@(n)v\"; echo $x");
    assert_eq!(out, ".env\n");
    check_common::assert_none_allowed_in(ws.path(), &["shopt -s extglob\nx=\".e@(n)v\"; echo hi >> $x"]);
    check_common::write_file(ws.path(), "docs/guide.md", "g\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["for f in $(ls docs); do wc -w docs/$f; done", "for f in $(ls docs); do wc -w docs/${f}; done"],
    );
    check_common::assert_in_dir(ws.path(), "ask", &["for f in $(ls docs); do cat ../$f; done"]);
}

/// Red team 111 D X01-X08: the edge took xargs's names as whole records where its words held
/// `-0`, `--null` or `-d...` anywhere among the options, so `-E -0` (the end-of-input string
/// `-0`) and `-P -0` kept xargs splitting at blanks while the names below were not looked
/// at: `docs/x -r ..` handed grep `-r ..`.
#[test]
fn xargs_records_as_its_getopt_reads_them() {
    let ws = check_common::red_team_workspace(true);
    std::fs::create_dir_all(ws.path().join("docs/x -r ..")).unwrap();
    let out = check_common::bash_stdout(ws.path(), "find docs -type d | xargs -E -0 echo");
    assert!(out.contains("-r .."), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find docs | xargs -E -0 grep -s MARKER",
            "find docs -type d | xargs -E --null ls",
            "find docs -type d | xargs -E -d grep -s MARKER",
            "find docs -name '*.md' | xargs -P -0 grep -sH MARKER",
        ],
    );
    std::fs::remove_dir_all(ws.path().join("docs/x -r ..")).unwrap();
    check_common::assert_in_dir(ws.path(), "allow", &["find docs -name '*.md' -print0 | xargs -0 grep -sH x"]);
}

/// Red team 112 A: a sample of `date`'s output (fullwidth digits) was still computed with
/// where a filter ran over it (`sed s/20/-i/ <<< $x` gave `-i` to bash, nothing to gate),
/// fullwidth digits typed in the text were taken for a sample of one integer (arithmetic
/// refuses `１`), and printf's `%(%s)T` of another time than now (`-100`) was taken for
/// now's, which is never negative.
#[test]
fn samples_are_not_filtered_typed_or_of_other_times() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_script_stdout(ws.path(), "n=１\n: $((n)); echo same\necho next");
    assert_eq!(out, "next\n");
    let out = check_common::bash_stdout(ws.path(), "printf '%(%s)T' -100");
    assert_eq!(out, "-100");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "printf -v n '%(%s)T' -100\na[$n]=1; f=docs/x.md\necho hi > \"${f:-docs/y.md}\"",
            "n=１\n: $((n)); f=docs/x.md\necho hi > \"${f:-docs/y.md}\"",
            "x=$(date +%C); y=$(sed s/20/-delete/ <<< \"$x\"); find docs \"$y\"",
            "x=$(date +%C); find docs $(sed s/20/-delete/ <<< $x)",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "x=$(date +%C); sed $(sed s/20/-i/ <<< $x) -e s/a/b/ Cargo.toml",
            "x=$(date +%C); y=$(echo $x | sed s/20/-i/); sed $y -e s/a/b/ Cargo.toml",
            "printf -v n '%(%s)T' -100\na[$n]=1; f=docs/x.md\necho hi > \"${f:-.env}\"",
        ],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["printf -v d '%(%F)T' -1; echo x > \"docs/notes-$d.md\""]);
}

/// Red team 112 C A03, A10: `local file=$1` (unquoted: a declaration builtin's assignment is
/// neither split nor globbed) of a glob's name, and `lines=$(wc -l < "$f")` of a listing
/// loop's name (one count whatever the name), were asked.
#[test]
fn declaration_assignments_and_counts_of_any_name() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    let out = check_common::bash_stdout(ws.path(), "f(){ local x=*; local y=$1; echo \"$x [$y]\"; }; f 'a  b'");
    assert_eq!(out, "* [a  b]\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "set -euo pipefail\ncount_todos() { local file=$1; local n; n=$(grep -c 'TODO' \"$file\" || true); echo \"$file: $n\"; }\nfor f in src/*.rs; do count_todos \"$f\"; done",
            "c() { file=$1; grep -c TODO \"$file\"; }; for f in src/*.rs; do c \"$f\"; done",
            "total=0; for f in $(git ls-files '*.rs'); do lines=$(wc -l < \"$f\"); total=$(( total + lines )); done; echo \"$total\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["wc() { echo 'a[$(rm -f m)]'; }; for f in src/*.rs; do lines=$(wc -l < \"$f\"); echo $((lines)); done"],
    );
}

/// Red team 113 A A01-A12: bash reads `NAME=VALUE` after the command word as an assignment
/// only where that word is, as written, a declaration builtin; after `command declare`,
/// `builtin typeset`, `\export`, `"readonly"` or `$d` the word is split and globbed (`v="a
/// c=rm"` sets c). And a read-only name given twice keeps its first value (`readonly
/// c={rm,ls}` is `c=rm`, the second refused), where gate took the last.
#[test]
fn declarations_only_as_written_and_read_only_first() {
    let ws = check_common::red_team_workspace(true);
    for script in [
        "c=ls; v='a c=rm'; command declare x=$v; echo $c",
        "c=ls; v='a c=rm'; \\export x=$v; echo $c",
        "readonly c={rm,ls} 2>/dev/null; echo $c",
    ] {
        assert_eq!(check_common::bash_stdout(ws.path(), script), "rm\n", "{script}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "readonly c={rm,ls}; $c docs/a.md",
            "readonly c=rm c=ls; $c docs/a.md",
            "declare -r c={rm,ls}; $c docs/a.md",
            "f() { local -r c={rm,ls}; $c docs/a.md; }; f",
        ],
    );
    check_common::assert_none_allowed_in(
        ws.path(),
        &[
            "c=ls; v=\"a c=rm\"; command declare x=$v; $c docs/a.md",
            "c=ls; v=\"a c=rm\"; \\export x=$v; $c docs/a.md",
            "c=ls; v=\"a c=rm\"; d=declare; $d x=$v; $c docs/a.md",
            "c=ls; v=\"a c=rm\"; \"readonly\" x=$v; $c docs/a.md",
            "c=ls; v=\"a c=rm\"; builtin typeset x=$v; $c docs/a.md",
            "f() { c=ls; v=\"a c=rm\"; command local x=$v; $c docs/a.md; }; f",
            "y=docs/a.md; v=\"a y=Cargo.toml\"; command declare x=$v; echo hi > \"$y\"",
        ],
    );
    // A literal declaration builtin's assignment is one word, as bash reads it.
    check_common::assert_in_dir(ws.path(), "allow", &["c=ls; v=\"a c=rm\"; declare x=$v; $c docs/a.md"]);
}

/// Review of red team 113: `$'\uff11'` spells a fullwidth digit in ASCII, which was taken for
/// a sample of one integer (arithmetic refuses it and ends the line); and a called function's
/// `unset` that forgot the locals of an enclosing call made the walk slice past their end: a
/// panic the edge's second reading did not catch (`gate hook claude` ended with 101, which
/// Claude Code takes as a non-blocking error). Red team 114 A: under `set -a` a function
/// defined is exported to child shells (a pyenv shim calls `pyenv-hooks` by bare name), and
/// `NAME=VALUE` given to grep or echo is only text.
#[test]
fn ansi_c_samples_unset_panics_allexport_functions() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_script_stdout(ws.path(), "n=$'\\uff11'\n: $((n)); echo same\necho next");
    assert_eq!(out, "next\n");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "n=$'\\uff11'\n: $((n)); f=docs/x.md\necho hi > \"${f:-docs/y.md}\"",
            "h(){ $'\\x75nset' d; }; f(){ local d; h; }; f; cat \"$d\"",
            "set -a; pyenv-hooks() { echo docs/x.md; }; python3 --version",
            "set -o allexport; pyenv-which() { echo /usr/bin/id; }; python3 --version",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "n=$'\\uff11'\n: $((n)); f=docs/x.md\necho hi > \"${f:-.env}\"",
            "d=docs/x.md; h(){ unset d; }; g(){ h; }; f(){ local d=x; g; d=.env; }; f; echo hi > \"$d\"",
        ],
    );
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gate"))
        .args(["check", "Bash", r#"{"command":"h(){ $'\\x75nset' d; }; f(){ local d; h; }; f; cat \"$d\""}"#])
        .current_dir(ws.path())
        .output()
        .unwrap();
    assert!(matches!(out.status.code(), Some(3 | 4)), "{out:?}");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["grep -rn LOG_FILE=.env src", "echo PATH=/usr/bin", "set -a; X=1; set +a; f() { echo hi; }; f; git status"],
    );
}

/// Red team 115 A: a `NAME=VALUE` word behind a wrapper (`nice env PREFIX=/x npm test`, `find
/// -exec env ...`) lost the check of its value as a path; `PREFIX` is npm's global prefix,
/// whose `etc/npmrc` may set the shell package scripts run in; and `bash -a`, `bash -o
/// allexport`, `eval 'set -a'` export the functions defined after them (a pyenv shim calls
/// `pyenv-which` by bare name).
#[test]
fn env_words_behind_wrappers_prefix_and_allexport_spellings() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_none_allowed_in(
        ws.path(),
        &[
            "nice env PREFIX=/tmp/elsewhere npm test",
            "timeout 60 env PREFIX=/tmp/elsewhere npm test",
            "find . -maxdepth 0 -exec env PREFIX=/tmp/elsewhere npm test \\;",
            "PREFIX=$(dirname \"$PWD\") npm test",
            "PREFIX=$HOME npm test",
            "bash -ac 'pyenv-which(){ echo /tmp/x; }; python3 --version'",
            "bash -o allexport -c 'pyenv-which(){ echo /tmp/x; }; python3 --version'",
            "eval 'set -a'; pyenv-which(){ echo /tmp/x; }; python3 --version",
            "command eval 'set -o allexport'; pyenv-which(){ echo /tmp/x; }; python3 --version",
            "nice env MOCHA_FILE=.env.xml npm test",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["grep -rn PREFIX=/usr src", "git log --oneline --grep BASE_URL=/api"],
    );
}
