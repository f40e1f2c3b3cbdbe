//! The red teams of the twenty-fifth session ("red team 74" in the code's comments, and the
//! cases of round 73 this session fixed). Each regression goes through the real binary (`gate
//! check --json`); where the answer rests on what bash or git does, they are asked.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Found by red team 73 (over-deny): `git grep -l PATTERN -- docs | xargs sed -i ...` was
/// denied for the `.env` a walk of the whole directory found. git prints the names below its
/// plain pathspecs, relative to where it runs; without one (or with a pattern git matches
/// itself) the names are bare and the whole directory is what it may print.
#[test]
fn git_grep_names_are_below_its_pathspecs() {
    let ws = check_common::red_team_workspace(true);
    let printed = check_common::bash_stdout(ws.path(), "git add -A && cd docs/.. && git grep -l -e a -- docs");
    assert!(!printed.is_empty() && printed.lines().all(|l| l.starts_with("docs/")), "{printed}");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "git grep -l ref -- docs | xargs sed -i s/a/b/",
            "git grep -l -e ref -- docs/ | xargs sed -i s/a/b/",
            // (git's `*` crosses `/`: the names ending in `.md`, red team 80.)
            "git grep -l ref -- '*.md' | xargs sed -i s/a/b/",
        ],
    );
    // A word before `--` may be a revision: git prints `HEAD:docs/a.md`, which a link
    // `HEAD:docs` (found while fixing this) leads anywhere.
    std::os::unix::fs::symlink("/etc", ws.path().join("HEAD:docs")).unwrap();
    check_common::assert_in_dir(ws.path(), "ask", &["git grep -l root HEAD -- docs | xargs cat"]);
    std::fs::remove_file(ws.path().join("HEAD:docs")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "git grep -l ref | xargs sed -i s/a/b/",
            "git grep -l -e ref -e docs | xargs sed -i s/a/b/",
            "git grep -l ref -- docs | xargs rm",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "git grep -l ref -- src docs | xargs sed -i s/a/b/",
            "cd src && git grep -l fn -- ../docs | xargs sed -i s/a/b/",
            // (`docs` may be a revision: see below.)
            "git grep -l ref docs | xargs sed -i s/a/b/",
        ],
    );
}

/// Found by red team 73 (over-ask): `getconf ARG_MAX`. One system variable, or `-a`; `-v
/// SPEC` runs another getconf and a path operand is looked at.
#[test]
fn getconf_of_a_system_variable() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(ws.path(), "allow", &["getconf ARG_MAX", "getconf -a | grep PAGE"]);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["getconf -v POSIX_V7_LP64_OFF64 ARG_MAX", "getconf PATH_MAX /etc", "getconf $X"],
    );
}

/// Found by red team 74 (over-denies): a find of names joined only by `-a` lists names that
/// pass every test, so a negated `-path` only leaves names out (`find . -name '*.md' -not
/// -path './node_modules/*'` is no listing of `node_modules/Cargo.toml`); every name below a
/// directory under the top (`cd docs && find . -type f`) is what the edge finds there.
#[test]
fn negated_find_tests_and_listings_below_the_top() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find . -name '*.md' -not -path './node_modules/*' | xargs -I {} sh -c 'head -3 {}'",
            "cd src && find . -type f | xargs sed -i s/a/b/",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "cd docs && find . -type f | xargs sed -i s/a/b/",
            "cd docs && grep -rl a | xargs sed -i s/a/b/",
            "git grep -l foo -- 'docs/*.md' | xargs sed -i s/a/b/",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "find . -not -name '*.md' | xargs sed -i s/a/b/",
            "find . -name '*.toml' ! -name 'x*' | xargs sed -i s/a/b/",
            "cd .. && find . -type f | xargs sed -i s/a/b/",
            "find . -type f | xargs sed -i s/a/b/",
        ],
    );
}

/// Found by red team 74 (over-ask): `truncate -s 0 docs/a.md` writes only its operands.
#[test]
fn truncate_writes_its_operands() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(ws.path(), "allow", &["truncate -s 0 docs/a.md", "truncate --size=10 docs/*.md"]);
    check_common::assert_in_dir(ws.path(), "deny", &["truncate -s 0 Cargo.toml", "truncate --reference .env -s0 .env"]);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["truncate -s0 src/a.rs", "truncate -r /etc/passwd docs/a.md", "truncate -s 0 -- -x docs/a.md"],
    );
}

/// Found by red team 74 (over-ask): in `ls docs | while read -r name; do wc -l <
/// "docs/$name"; done` wc reads the file, not the loop's input, and the file is a listed name
/// below a start point of the listing.
#[test]
fn a_loop_body_reading_a_listed_name_by_redirection() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "ls docs | while read -r name; do printf '%s\\t%s\\n' \"$name\" \"$(wc -l < \"docs/$name\" 2>/dev/null)\"; done",
            "for f in $(ls docs); do wc -l < \"docs/$f\"; done",
        ],
    );
    // (`/dev/$name` may be `/dev/stdin`, a name `docs` holds.)
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "ls docs | while read -r name; do wc -l < \"/dev/$name\"; done",
            "ls docs | while read -r name; do wc -l < \"docs/$x\"; done",
            "ls docs | while read -r name; do cat > \"docs/$name\"; done",
        ],
    );
}

/// Found by red team 74 (over-asks) and, while fixing them, a bypass: an unquoted `$PWD` (or
/// `$(pwd)`, or one gate read as a glob's directory) is one word only where the directory's
/// whole name is plain. In `cd "x /etc" && cat $PWD/passw?` it split into `.../x` and
/// `/etc/passw?`, which gate allowed as a glob below `x /etc`.
#[test]
fn unquoted_pwd_is_one_word_only_in_a_plainly_named_directory() {
    let ws = check_common::red_team_workspace(true);
    std::fs::create_dir_all(ws.path().join("x /etc")).unwrap();
    let out = check_common::bash_stdout(ws.path(), "cd 'x /etc' && cat $PWD/hostnam? 2>/dev/null");
    assert!(!out.is_empty(), "bash read /etc/hostname through the split");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "cat $PWD/src/lib.rs",
            "cat $(pwd)/Cargo.toml",
            "cd docs && cat ${PWD}/a.md",
            "cat \"$PWD\"/docs/*.md",
            "cat $PWD/docs/*.md",
            "cd 'x /etc' && cat \"$PWD\"/passw?",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "cd 'x /etc' && cat $PWD/passw?",
            "cd 'x /etc' && cat `pwd`/passw?",
            "cd 'x /etc' && cat $PWD/x",
            "IFS=/; cat $PWD/src/lib.rs",
            "cat $PWD/../x",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["echo x > $PWD/.env"]);
    // The start's own name.
    let spaced = tempfile::Builder::new().prefix("a b").tempdir().unwrap();
    check_common::write_file(spaced.path(), "host.yaml", check_common::RED_TEAM_POLICY);
    check_common::write_file(spaced.path(), "src/lib.rs", "fn f() {}\n");
    check_common::assert_in_dir(spaced.path(), "ask", &["cat $PWD/src/lib.rs", "cat $PWD/src/*.rs"]);
    check_common::assert_in_dir(spaced.path(), "allow", &["cat \"$PWD/src/lib.rs\""]);
}

/// Found by red teams 69, 71, 73 and 74 (over-asks): `head "$(git rev-parse
/// --show-toplevel)/Cargo.toml"` without `|| pwd`. Where git prints nothing the path is
/// `/Cargo.toml`: held only where nothing is at its first name below `/` and the call does
/// not write it.
#[test]
fn a_path_below_the_top_without_a_fallback() {
    let ws = check_common::red_team_workspace(true);
    assert!(!std::path::Path::new("/src").exists() && !std::path::Path::new("/Cargo.toml").exists());
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "head -20 \"$(git rev-parse --show-toplevel)/Cargo.toml\"",
            "ls \"$(git rev-parse --show-toplevel)/src\"",
            "ls \"$(git rev-parse --show-toplevel)\"",
            "cat \"$(git rev-parse --show-toplevel)\"/docs/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "cat \"$(git rev-parse --show-toplevel)/etc/passwd\"",
            "cat \"$(git rev-parse --show-toplevel)/tmp/x\"",
            "cat \"$(git rev-parse --show-toplevel)/../x\"",
            "mkdir -p \"$(git rev-parse --show-toplevel)/docs/new\"",
            "echo x > \"$(git rev-parse --show-toplevel)/docs/n.md\"",
            "cd src && cat \"$(git rev-parse --show-toplevel)/Cargo.toml\"",
        ],
    );
    let v =
        check_common::command_in_dir(ws.path(), "GIT_DIR=/tmp/x; cat \"$(git rev-parse --show-toplevel)/Cargo.toml\"");
    assert_ne!(v["decision"], "allow", "{v}");
    // What bash does where git prints nothing: the absolute path.
    let out = check_common::bash_stdout(
        ws.path(),
        "export GIT_DIR=/nonexistent; echo \"$(git rev-parse --show-toplevel 2>/dev/null)/etc/hostname\"",
    );
    assert_eq!(out.trim(), "/etc/hostname");
}

/// Found by red team 74 (over-ask): `for sha in $(git rev-list HEAD -3); do git show $sha`:
/// each listed name is one hexadecimal word, never nothing, so unquoted it is the same.
#[test]
fn unquoted_listed_object_names() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "for sha in $(git rev-list HEAD -3); do git show -s --format='%h %s' $sha; done",
            "for sha in $(git log --format=%H -3); do git show --stat $sha; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "for sha in $(git log --format=%H -3); do IFS=a; git show --stat $sha; done",
            "for sha in $(git log --format=%H -3); do echo > $sha; done",
        ],
    );
}

/// Red team 74 (over-asks) found `cd src; wc -l *.rs; cd ..; ls docs` asked though `src` is
/// there; red team 63 wrote the same text as a bypass to be asked (where `src` is missing the
/// `cd ..` leaves the workspace). Since red team 83 a `cd` into a directory that is there when
/// the call runs (and that the call does not write) does not fail: asked only where it is
/// missing.
#[test]
fn a_cd_that_may_fail_before_a_climb_stays_asked() {
    let ws = check_common::red_team_workspace(true);
    std::fs::create_dir_all(ws.path().join("src")).unwrap();
    check_common::assert_in_dir(ws.path(), "ask", &["cd nothere; cd ..; ls", "cd nothere && ls; cd ..; ls"]);
    check_common::assert_in_dir(ws.path(), "allow", &["cd src; wc -l *.rs; cd ..; ls docs", "cd src && ls; cd ..; ls"]);
}

/// Found by red teams 69 and 71 (over-asks): `echo src/*.rs | xargs -n1 wc -l`. echo prints
/// its words on one line, which xargs splits at blanks as it does a name a line; a `read`
/// loop or `mapfile` would take the line whole, so only xargs and `for` take it as names.
#[test]
fn echoed_globs_handed_to_xargs() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/lib.rs", "fn f() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["echo src/*.rs | xargs -n1 wc -l", "echo src/*.rs docs/*.md | xargs wc -l"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "echo /etc/* | xargs cat",
            "echo -e src/*.rs | xargs wc -l",
            "echo * | xargs wc -l",
            "echo src/*.rs | while read f; do cat \"$f\"; done",
            "mapfile -t a < <(echo src/*.rs); cat \"${a[@]}\"",
            "echo \"a /etc/passwd\" | xargs cat",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["echo src/*.rs | xargs rm"]);
    // A name with a blank below the glob's directory is two names to xargs.
    check_common::write_file(ws.path(), "src/a /etc/hostname", "x\n");
    check_common::assert_in_dir(ws.path(), "ask", &["echo src/*.rs src/* | xargs wc -l"]);
}

/// Found this session (bypasses since red team 71 made `git grep -l` a listing): git's names
/// are its index's or a tree's, not a walk of the disk. A tracked directory replaced by a link
/// (`sub` leading to `/etc`) hands on `sub/passwd`, which cat reads through the link; with a
/// revision the names are `HEAD:docs/passwd`, where a link `HEAD:docs` leads anywhere.
#[test]
fn git_grep_names_through_links_and_revisions() {
    let ws = check_common::red_team_workspace(true);
    let setup = "mkdir sub && echo root:y > sub/passwd && mkdir -p docs && echo root:z > docs/passwd \
        && git add sub docs && git -c user.email=a@b -c user.name=n commit -qm x \
        && rm -rf sub docs/passwd && ln -s /etc sub && ln -s /etc HEAD:docs && echo done";
    assert_eq!(check_common::bash_stdout(ws.path(), setup).trim(), "done");
    let read = check_common::bash_stdout(ws.path(), "git grep -l root | xargs cat 2>/dev/null");
    assert!(read.contains("root:x:0:0"), "bash read /etc/passwd through the link: {read}");
    let read = check_common::bash_stdout(ws.path(), "git grep -l root HEAD | xargs cat 2>/dev/null");
    assert!(read.contains("root:x:0:0"), "bash read /etc/passwd through `HEAD:docs`: {read}");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "git grep -l root | xargs cat",
            "git grep -l root | while read f; do cat \"$f\"; done",
            "git grep -l root HEAD | xargs cat",
            "git grep -l root HEAD -- docs | xargs cat",
            "git grep -lz root HEAD | xargs -0 cat",
            "git grep -l root HEAD | while read -r f; do cat \"$f\"; done",
        ],
    );
}

/// Found by red team 74 (asked, not denied): `$(echo mr | rev) x` and `$(sed s/q/r/ <<< qm)
/// x` run `rm`. What `rev`, a literal `sed s/A/B/` and a literal `tr` make of text gate knows
/// is computed, so a deny rule holds the command they name.
#[test]
fn names_computed_by_simple_filters() {
    for (text, out) in
        [("echo mr | rev", "rm"), ("sed s/q/r/ <<< qm", "rm"), ("echo xm | tr x r", "rm"), ("echo rXm | tr -d X", "rm")]
    {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(check_common::bash_stdout(dir.path(), text).trim(), out, "{text}");
    }
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "$(echo mr | rev) x",
            "$(sed s/q/r/ <<< qm) x",
            "$(echo qm | sed s/q/r/) x",
            "$(echo xm | tr x r) x",
            "$(echo rXm | tr -d X) x",
            "x=$(echo mr | rev); $x y",
        ],
    );
    check_common::assert_in_dir(ws.path(), "ask", &["$(echo ls | rev) x", "$(echo mr | rev | rev) x"]);
    check_common::assert_in_dir(ws.path(), "allow", &["echo $(echo mr | rev)"]);
}

/// Found by red team 74 (over-ask): `dd if=src/a.rs of=docs/x.md status=none` reads IN and
/// writes OUT, each decided by the rules; only its `KEY=VALUE` operands.
#[test]
fn dd_reads_if_and_writes_of() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["dd if=docs/a.md of=docs/x.md status=none", "dd if=docs/a.md of=docs/x.md conv=notrunc bs=1M count=1"],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["dd if=docs/a.md of=.env", "dd if=docs/a.md of=Cargo.toml"]);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "dd if=/etc/passwd of=docs/x.md",
            "dd if=docs/a.md of=src/b.rs",
            "dd if=$x of=docs/a.md",
            "find docs | xargs dd",
        ],
    );
}

/// Found by red team 74 (bypasses): given `-i` more than once, GNU sed backs up with the last
/// one's suffix (or none), where gate took the first: `sed -i.md -i'.env*' ... a.md` wrote
/// `.enva.md`, `-i.md -i'../*'` a file outside.
#[test]
fn sed_takes_the_last_in_place_suffix() {
    let dir = tempfile::tempdir().unwrap();
    let made = check_common::bash_stdout(
        dir.path(),
        "echo a > f && sed -i.md -i.bak s/a/b/ f && echo a > g && sed -i.md -i s/a/b/ g && ls",
    );
    assert_eq!(made.split_whitespace().collect::<Vec<_>>(), ["f", "f.bak", "g"], "{made}");
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "sed -i.md -i.bak s/a/b/ docs/a.md",
            "sed -i.md -i'../*' s/a/b/ docs/a.md",
            "sed --in-place=.md --in-place=.orig s/a/b/ docs/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["cd docs && sed -i.md -i'.env*' s/a/b/ a.md", "cd docs && sed -i.md -i'../.env*' s/a/b/ a.md"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["sed -i'../*' -i s/a/b/ docs/a.md", "sed -i.bak -i.md s/a/b/ docs/a.md"],
    );
}

/// Found by red team 74 (asked, not denied): `a=(m); "${a[*]/#/r}" x` runs `rm`. The `[*]`
/// form (and `"${*/#/r}"`) replaces in each item and joins them by IFS's first letter.
#[test]
fn star_substitutions_of_arrays() {
    let dir = tempfile::tempdir().unwrap();
    assert_eq!(check_common::bash_stdout(dir.path(), "a=(m x); echo \"${a[*]/#/r}\"").trim(), "rm rx");
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(ws.path(), "deny", &["a=(m); \"${a[*]/#/r}\" x", "set -- m; \"${*/#/r}\" x"]);
    check_common::assert_in_dir(ws.path(), "allow", &["a=(docs/a.md); cat \"${a[*]/%/}\""]);
}
