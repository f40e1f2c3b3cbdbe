//! The red teams of the twenty-fourth session ("red team 72" and "red team 73" in the code's
//! comments). Each regression goes through the real binary (`gate check --json`); where the
//! answer rests on what bash or git does, they are asked.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Found by red team 72 (over-asks): `--git-dir` naming the `.git` of the directory git runs
/// in and `--work-tree` naming that directory change nothing; `hash-object --path` takes a
/// value (the generated table read it as a flag).
#[test]
fn git_own_directory_options_and_hash_object_path() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "git --git-dir=.git --work-tree=. log -1",
            "git --git-dir .git --work-tree ./ status --short",
            "git hash-object --path=docs/a.md docs/a.md",
            "git hash-object --path docs/a.md docs/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "git --git-dir=docs/.git log",
            "git --git-dir=/tmp/x/.git log",
            "git --work-tree=.. status",
            "git --work-tree=/tmp diff",
            "git --work-tree=docs diff",
            "git hash-object -w --path=docs/a.md docs/a.md",
        ],
    );
    // A `.git` of a directory below is another repository, whose config gate does not read.
    let out = std::process::Command::new("git")
        .args(["init", "-q", "--bare", "docs/.git"])
        .current_dir(ws.path())
        .output()
        .unwrap();
    assert!(out.status.success());
    check_common::assert_in_dir(ws.path(), "ask", &["cd docs && git --git-dir=.git log"]);
}

/// Found by red team 71 (over-ask): `git show $(git rev-parse HEAD)` unquoted, where the
/// quoted spelling was allowed. Unquoted the names split into hexadecimal pieces or vanish,
/// which only drops an operand of a subcommand that reads; as an option's value it would take
/// the next word, and before the subcommand it is the subcommand.
#[test]
fn unquoted_object_names_as_operands_of_reading_subcommands() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "git show $(git rev-parse HEAD)",
            "git show --stat $(git rev-list --max-parents=0 HEAD)",
            "git diff $(git merge-base HEAD main) -- docs",
            "git log --oneline $(git rev-parse --verify -q HEAD)",
            "BASE=$(git merge-base HEAD main); git diff --stat $BASE",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "git -C $(git rev-parse HEAD) log",
            "git $(git rev-parse HEAD) log",
            "git diff --output $(git rev-parse HEAD)",
            "git show $(git rev-parse --show-toplevel)",
            "git show $(git rev-parse rm)",
            "git branch $(git rev-parse HEAD)",
            "git show $(git rev-parse HEAD) > /tmp/x",
            "sha=$(git rev-parse HEAD); git -C $sha log",
            "sha=$(git rev-parse HEAD); sed -n $sha docs/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["git(){ rm \"$@\"; }; git show $(git rev-parse HEAD)", "alias git=rm; git show $(git rev-parse HEAD)"],
    );
}

/// Found by red team 72 (asked, not denied): a pattern substitution applied to each item of
/// an array or positional parameter (`"${a[@]/#/r}"`, `"${@/#/r}"`), and a replacement in
/// quotes, which bash 5.2 removes in and out of double quotes (`"${x/#/'r'}"`); a quoted `&`
/// is itself (bash is the oracle).
#[test]
fn pattern_substitution_of_each_item_and_quoted_replacements() {
    let ws = check_common::red_team_workspace(false);
    assert_eq!(
        check_common::bash_stdout(
            ws.path(),
            "a=(m x); set -- m f; x=m; echo \"${a[@]/#/r}\" \"${@/#/r}\" \"${x/#/'r'}\" ${x/#/\"r\"} \"${x/m/'&'r}\""
        ),
        "rm rx rm rf rm rm &r\n"
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "a=(m x); \"${a[@]/#/r}\"",
            "set -- m f; \"${@/#/r}\"",
            "f(){ \"${@/#/r}\"; }; f m x",
            "a=(m x); \"${a[@]/#/'r'}\"",
            "x=m; \"${x/#/'r'}\" f",
            "x=m; ${x/m/\"r\"m} f",
        ],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["a=(xs docs); \"${a[@]/x/l}\"", "x=s; \"${x/#/'l'}\" docs"]);
    check_common::assert_in_dir(ws.path(), "ask", &["x=m; \"${x/m/'&'r}\" f", "a=(m x); \"${a[@]/#/r/}\""]);
    // A quoted pattern is literal text: a quoted `#` no anchor (red team 73).
    assert_eq!(check_common::bash_stdout(ws.path(), "x='#m'; echo ${x/\"#\"/r} ${x/'#'/} ${x/#\"\"/r}"), "rm m r#m\n");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["x='#m'; y=${x/\"#\"/r}; $y f", "x=lm; ${x/\"l\"/r} f", "x=m; ${x/#\"\"/r} f"],
    );
}

/// Found by red teams 71 and 72 (over-asks): `ls -1 src | xargs -I{} wc -l src/{}`, a
/// directory then xargs's replace string, where the directory is below a start point of the
/// listing: each name is a path below that start point with no `..`, so the path is below the
/// directory, whose links the edge looks at. Its writes stay unknown, a name after it is
/// another file, and a directory the listing does not cover may hold links the edge never saw.
#[test]
fn a_directory_then_the_replace_string_reads_the_listing() {
    let ws = check_common::red_team_workspace(false);
    std::fs::create_dir_all(ws.path().join("src")).unwrap();
    std::fs::write(ws.path().join("src/a.rs"), "fn a() {}\n").unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "ls -1 src | xargs -I{} wc -l src/{}",
            "ls -tr docs | tail -1 | xargs -I{} cat docs/{}",
            "ls docs | xargs -I% head -3 docs/%",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find docs -type f | xargs -I{} cat src/{}",
            "ls docs | xargs -I{} cat ../{}",
            "ls docs | xargs -I{} cat docs/{}.md",
            "ls docs | xargs -I{} sed -i s/a/b/ docs/{}",
            "ls docs | xargs -I{} tee docs/{}",
            "ls docs | xargs -I{} cp src/a.rs docs/{}",
        ],
    );
    // A link below the directory leads where the listing's check looks.
    std::os::unix::fs::symlink("/etc", ws.path().join("src/out")).unwrap();
    check_common::assert_in_dir(ws.path(), "ask", &["ls -1 src | xargs -I{} wc -l src/{}"]);
}

/// Found while widening listings this session (a bypass since red team 71 made `ls` a
/// listing, and older for `grep -rl`, `rg -l` and `git grep -l`): those print bare names, not
/// names below a start point as find does, and a name that starts with `-` is an option to
/// the program they feed (`--files0-from=list` makes wc read the files `list` names). The
/// edge asks where such a name is below.
#[test]
fn bare_names_a_listing_hands_on_may_be_options() {
    let ws = check_common::red_team_workspace(true);
    std::fs::write(ws.path().join("--files0-from=list"), "fn\n").unwrap();
    std::fs::write(ws.path().join("list"), "/etc/hostname\0").unwrap();
    let alone = tempfile::tempdir().unwrap();
    std::fs::write(alone.path().join("--files0-from=list"), "fn\n").unwrap();
    std::fs::write(alone.path().join("list"), "/etc/hostname\0").unwrap();
    assert!(check_common::bash_stdout(alone.path(), "grep -rl fn | xargs wc -l 2>/dev/null").contains("/etc/hostname"));
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "grep -rl fn | xargs wc -l",
            "rg -l fn | xargs wc -l",
            "git grep -l fn | xargs wc -l",
            "ls | xargs wc -l",
            "ls -1 | while read f; do wc -l \"$f\"; done",
            "for f in $(ls); do wc -l \"$f\"; done",
            "wc -l $(ls)",
            "ls | xargs -0 wc -l",
        ],
    );
    std::fs::remove_file(ws.path().join("--files0-from=list")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["grep -rl fn | xargs wc -l", "ls | xargs wc -l", "for f in $(ls); do wc -l \"$f\"; done"],
    );
}

/// Found by red team 69 (over-asks): `head -5 "$(find src -name lib.rs)"` and `cat "$(ls -t
/// docs/*.md | head -1)"`: a listing in quotes is its names joined by line ends, one word
/// below the start point the first name is below, read by a program that only reads.
#[test]
fn a_quoted_listing_read_by_a_reader() {
    let ws = check_common::red_team_workspace(false);
    std::fs::create_dir_all(ws.path().join("src")).unwrap();
    std::fs::write(ws.path().join("src/lib.rs"), "fn a() {}\n").unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "head -5 \"$(find src -name lib.rs)\"",
            "cat \"$(ls -t docs/*.md | head -1)\"",
            "wc -l \"$(ls docs | head -1)\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "cat \"$(find / -name passwd)\"",
            "tee \"$(find docs -name '*.md')\"",
            "cat \"$(find src -print0)\"",
            "cat \"$(ls -a docs | head -1)\"",
            "cat \"$(ls -l docs | head -1)\"",
        ],
    );
    std::os::unix::fs::symlink("/etc", ws.path().join("src/out")).unwrap();
    check_common::assert_in_dir(ws.path(), "ask", &["head -5 \"$(find -L src -name hostname)\""]);
}

/// Found by red team 69 (over-ask `mkdir -p docs/guide && cd "$_"`) and red team 69's F41
/// (asked, not denied: `x=m; : "r$x"; "$_" x`): `$_` is the last word of the simple command
/// walked last, where the next one surely runs right after it; unknown after a pipeline (its
/// stages run in subshells), a compound command, an operator change in a list, a command in
/// the background, a trap, or an assignment alone (bash is the oracle).
#[test]
fn dollar_underscore_is_the_last_word_before() {
    let ws = check_common::red_team_workspace(false);
    assert_eq!(
        check_common::bash_stdout(
            ws.path(),
            "mkdir -p docs/g && cd \"$_\" && basename \"$PWD\"; true a; echo x | cat >/dev/null; echo \"$_\"; \
             false && true b; echo \"$_\"; x=1; echo \"[$_]\""
        ),
        "g\na\nfalse\n[]\n"
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "mkdir -p docs/guide && cd \"$_\" && ls",
            "mkdir -p docs/guide; cd \"$_\" && echo x > n.md",
            "x=/etc; : docs; cd \"$_\"; ls",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["x=m; : \"r$x\"; \"$_\" x", ": {docs,rm}; $_ x"]);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            ": /etc; cd \"$_\"; ls",
            // (After `;` the `cd` may have failed.)
            "mkdir -p docs/guide; cd \"$_\"; echo x > n.md",
            "echo /etc | cat; cd \"$_\"; ls",
            "false && : /etc; cd \"$_\"; ls",
            ": /etc; : docs && false || cd \"$_\"; ls",
            ": docs; x=/etc; cd \"$_\"; ls",
            ": /etc & cd \"$_\"; ls",
            "trap ': /etc' DEBUG; : docs; cd \"$_\"; ls",
            ": /etc; [[ -d x ]]; cd \"$_\"; ls",
            "true /etc; for i in 1 2; do cd \"$_\"; ls; done",
        ],
    );
}

/// Found by red team 71 (over-ask): `${a[i]}` in a counted loop, the subscript a variable
/// holding a literal number (a decimal without a leading zero, read as arithmetic reads it).
#[test]
fn an_array_element_at_a_counter() {
    let ws = check_common::red_team_workspace(false);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["a=(src/a.rs docs/a.md); for ((i=0;i<2;i++)); do cat \"${a[i]}\"; done", "a=(ls cat); i=0; ${a[$i]} docs"],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["a=(ls rm); i=1; ${a[i]} x", "a=(ls rm); i=01; ${a[i]} x"]);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["a=(src/a.rs /etc/passwd); for ((i=0;i<2;i++)); do cat \"${a[i]}\"; done"],
    );
}

/// Found by red team 69 (over-asks): an array `mapfile -t` fills from a listing
/// (`rs=(); mapfile -t rs < <(find src -name '*.rs'); wc -l "${rs[@]}"`), handed to a reader
/// or looped over, is the listing's names whole. The process substitution may fail (no
/// descriptor left), and mapfile then keeps what the array held: only an array the text
/// emptied first is known.
#[test]
fn arrays_mapfile_fills_from_a_listing() {
    let ws = check_common::red_team_workspace(false);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "rs=(); mapfile -t rs < <(find src -name '*.rs'); wc -l \"${rs[@]}\"",
            "a=(); readarray -t a < <(grep -l fn src/*.rs); for f in \"${a[@]}\"; do wc -l \"$f\"; done",
            "rs=(); mapfile -t rs < <(find docs -name '*.md'); sed -i s/a/b/ \"${rs[@]}\"",
            // (Not emptied first: mapfile fails to run only where descriptors run out, which
            // a text that opens none cannot bring about; red team 83.)
            "mapfile -t rs < <(find src -name '*.rs'); wc -l \"${rs[@]}\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "exec 3<src/a.rs 4<src/a.rs; mapfile -t rs < <(find src -name '*.rs'); wc -l \"${rs[@]}\"",
            "rs=(); mapfile -t rs < <(find / -name '*.rs'); wc -l \"${rs[@]}\"",
            "rs=(); mapfile -t rs < <(find src); rs+=(/etc/passwd); wc -l \"${rs[@]}\"",
            "rs=(); mapfile -t rs < <(find src); rs[0]=/etc/passwd; cat \"${rs[@]}\"",
            "rs=(); mapfile -t rs < <(find src -print0); cat \"${rs[@]}\"",
            "rs=(); mapfile rs < <(find src); cat \"${rs[@]}\"",
            "rs=(); if false; then mapfile -t rs < <(find src); fi; cat \"${rs[@]}\"",
            "rs=(); mapfile -t rs < <(find src -name '*.rs'); sed -i s/a/b/ \"${rs[@]}\"",
            // (A subshell's array is not the shell's: found in review.)
            "(rs=(); mapfile -t rs < <(find src -name '*.rs')); wc -l \"${rs[@]}\"",
            "rs=(); mapfile -t rs < <(find src -name '*.rs'); cat \"$rs\"",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["rs=(); mapfile -t rs < <(find . -name '.env*'); sed -i s/a/b/ \"${rs[@]}\""],
    );
}

/// Bypass found by red team 73 (four of them): with a `*` in `sed -i`'s suffix, GNU sed 4.9
/// puts the operand as typed in each `*`'s place, from where sed runs, whether or not the
/// suffix holds a `/`: `-i'x*'` backs `docs/a.md` up to `xdocs/a.md`, `-i'.*.md'` backs
/// `./docs/a.md` up to `../docs/a.md.md` (outside the workspace). gate put the backup beside
/// the file, with the file's bare name, and allowed them as `docs/*.md` (sed is the oracle).
#[test]
fn sed_in_place_suffix_star_is_the_operand_as_typed() {
    let ws = check_common::red_team_workspace(false);
    std::fs::create_dir_all(ws.path().join("xdocs")).unwrap();
    check_common::bash_stdout(ws.path(), "sed -i'x*' s/a/b/ docs/a.md");
    assert!(ws.path().join("xdocs/a.md").exists(), "GNU sed puts the backup at xdocs/a.md");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "sed -i'.*.md' s/a/b/ ./docs/a.md",
            "sed -i'x*' s/a/b/ docs/a.md",
            "sed --in-place='~*' s/a/b/ docs/a.md",
            "sed -i'.env*' s/a/b/ docs/a.md",
            "sed -i'*.bak' s/a/b/ docs/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["sed -i'*.md' s/a/b/ docs/a.md", "sed -i'docs/*' s/a/b/ docs/a.md"],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["cd docs && sed -i'.env*' s/a/b/ a.md"]);
}

/// Found by red team 73 (over-ask): `for f in $(ls docs); do cat "docs/$f"; done`: a listing
/// loop's name below a directory that is below a start point of the listing reads the
/// listing's names, as xargs's `docs/{}` does; its writes and any longer word stay unknown.
#[test]
fn a_directory_then_a_listing_loops_name() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["for f in $(ls docs); do cat \"docs/$f\"; done", "for f in $(ls docs); do wc -l \"docs/${f}\"; done"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "for f in $(find docs -name '*.md'); do cat \"src/$f\"; done",
            "for f in $(ls docs); do cat \"../$f\"; done",
            "for f in $(ls docs); do echo x > \"docs/$f\"; done",
            "for f in $(ls docs); do cat \"docs/$f.bak\"; done",
        ],
    );
}

/// Found by red team 73 (over-ask): object names handed to `xargs -I{} git show {}:src/a.rs`,
/// the replace string inside a revision expression (`{}:PATH`, `{}^`); any other longer word
/// stays unknown. And a bypass found on the way (since red team 71): `xargs -I{} git -C {}
/// show` was allowed, running git in a directory named as a listed commit, which a committed
/// bare repository of that name (its config naming a `diff.external`) would be: only operands
/// of the subcommand take the names now.
#[test]
fn object_names_in_revision_expressions_through_xargs() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "git rev-list -n 2 HEAD | head -1 | xargs -I{} git show {}:src/a.rs",
            "git log --format=%H -n 3 | xargs -I{} git diff {}^ {}",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "git rev-list -n 2 HEAD | xargs -I{} git show --output={}.md {}",
            "git rev-list -n 2 HEAD | xargs -I{} git show {}x",
            "git rev-list -n 2 HEAD | xargs -I{} git -C {} show",
        ],
    );
}

/// Found by red team 73 (over-ask): a function called with a glob (`f docs/*.md`) gives
/// `"$1"` one of its names, also through `local file="$1"`, as `set -- docs/*.md` does; a
/// parameter after the glob is unknown (under nullglob it moves up).
#[test]
fn a_glob_given_to_a_function_as_its_first_parameter() {
    let ws = check_common::red_team_workspace(false);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["f(){ local file=\"$1\"; cat \"$file\"; }; f docs/*.md", "set -- docs/*.md; file=\"$1\"; cat \"$file\""],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "f(){ local file=\"$1\"; cat \"$file\"; }; f /etc/*",
            "f(){ local file=\"$2\"; cat \"$file\"; }; f docs/*.md /etc/passwd",
            "f(){ local file=\"$1\"; cat \"$file\"; }; f docs/*.zz /etc/passwd",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["f(){ local file=\"$1\"; echo x >> \"$file\"; }; f .e*"]);
}

/// Found by red team 71 (over-ask): `for f in $(ls src/*.rs); do head -3 $f; done`: unquoted,
/// a name of a `for` loop over `$(LISTING)` is one word again while IFS is blanks (the loop
/// split its words already, and the edge asks where a name holds a blank or a glob
/// character); a `read` loop's line is not.
#[test]
fn an_unquoted_name_of_a_loop_over_a_listing() {
    let ws = check_common::red_team_workspace(false);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "for f in $(ls src/*.rs); do head -3 $f; done",
            "for f in $(find docs -name '*.md'); do wc -l $f; done",
            "for f in $(find docs -name '*.md'); do echo x >> $f; done",
            // (A `read` without `-r` splits as a `for` loop does since red team 76: held
            // where no name below holds a blank, a backslash or a glob character.)
            "find docs | while read f; do cat $f; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find docs | while read -r f; do cat $f; done",
            "for f in $(ls src/*.rs); do IFS=/; head -3 $f; done",
            "for f in $(find / -name '*.md'); do wc -l $f; done",
        ],
    );
    check_common::write_file(ws.path(), "src/b c.rs", "\n");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["for f in $(ls src/*.rs); do head -3 $f; done", "find src | while read f; do cat $f; done"],
    );
}

/// Found by red team 73 (over-asks): `printf x > docs/tmp.md && mv docs/tmp.md docs/final.md`:
/// mv's source is nothing now and the call only makes it a file (a redirection), so mv moves
/// that file or nothing; a `mkdir` of it, or a directory there now, is still asked.
#[test]
fn mv_of_a_file_the_call_made() {
    let ws = check_common::red_team_workspace(false);
    std::fs::create_dir_all(ws.path().join("docs/guide")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "printf 'x\\n' > docs/tmp.md && mv docs/tmp.md docs/final.md",
            "sed 's/x/y/' docs/a.md > docs/a.new.md && mv docs/a.new.md docs/a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["mkdir docs/t.md; printf x > docs/t.md; mv docs/t.md docs/f.md", "mv docs/guide docs/g2.md"],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["printf x > docs/t.md && mv docs/t.md .env"]);
}
