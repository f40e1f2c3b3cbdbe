//! The red teams of the twenty-eighth session ("red team 80" in the code's comments, and the
//! cases left open by earlier rounds this session fixed). Each regression goes through the
//! real binary (`gate check --json`); where the answer rests on what bash or a program does,
//! bash is asked.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Left by red team 76 (C A41: denied): `find . -path ./node_modules -prune -o -name '*.md'
/// -print`, the way agents skip a directory. Branches before the last that only prune print
/// nothing once the expression has an action, so only the last branch's tests let names
/// through; without an action in the last branch, find prints the pruned names too.
#[test]
fn find_prune_branches() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "docs/.env.md", "x\n");
    check_common::write_file(ws.path(), "docs/guide.md", "# guide\n");
    // What find really prints: the pruned `.env.md` only without an action.
    let printed = check_common::bash_stdout(ws.path(), "find docs -name '.env*' -prune -o -name '*.md' -print | sort");
    assert!(!printed.contains(".env") && printed.contains("docs/a.md"), "{printed}");
    let printed = check_common::bash_stdout(ws.path(), "find docs -name '.env*' -prune -o -name '*.md' | sort");
    assert!(printed.contains("docs/.env.md"), "{printed}");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "find docs -path docs/x -prune -o -name 'a*' -print | xargs sed -i 's/ref/Ref/'",
            "find docs -name '*.rs' -prune -o -name 'g*.md' -exec sed -i 's/ref/Ref/' {} +",
            "find docs \\( -name x -o -name y \\) -prune -o -name 'a*.md' -print0 | xargs -0 sed -i 's/ref/Ref/'",
            "find . -path ./node_modules -prune -o -name '*.rs' -print | xargs wc -l",
            // (The pruned branch's pattern is no name listed: red team 82 F05.)
            "find docs -name '*.toml' -prune -o -name 'a*.md' -print | xargs sed -i s/a/b/",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            // No action in the last branch: the pruned names are printed.
            "find docs -name '.env*' -prune -o -name 'a*' | xargs sed -i s/a/b/",
            "find . -name '*.toml' -prune -o -name '*.md' | xargs sed -i s/a/b/",
            "find . -name '*.md' -prune -o -name '*.toml' -print | xargs sed -i s/a/b/",
            // A branch after the printing one prints everything.
            "find docs -name x -prune -o -name 'a*' -print -o -print | xargs sed -i s/a/b/",
            "find docs -name x -prune -o -name 'a*' -print , -print | xargs sed -i s/a/b/",
            // An earlier branch that prints.
            "find docs -name '.env*' -print -o -name 'a*' -print | xargs sed -i s/a/b/",
        ],
    );
}

/// Red team 80 (D B01-B03, bypasses): `ps --context axe` read `axe` as the value of a flag
/// (procps's `--context` takes none, so `e` printed every environment); `cargo --help` and
/// `rustc --help` were allowed, where rustup's proxy runs the toolchain a
/// `rust-toolchain.toml` above the workspace names.
#[test]
fn ps_long_flags_and_rustup_help() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["ps --context axe", "ps --cumulative axe", "ps --bogus axe", "ps --cont axe", "cargo --help", "rustc --help"],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["ps --sort pid ax", "ps --format pid,cmd -e", "ps --forest -e"]);
}

/// Red team 80 (B D17): a deny rule's glob without `/` names the file at any depth (SPEC
/// 3.1), outside the workspace too, as `**/.env*` does: `>> ../Cargo.toml` was only asked.
/// An allow rule's stays in the workspace.
#[test]
fn a_slashless_deny_rule_holds_outside_the_workspace() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["echo x >> ../Cargo.toml", "echo x >> /tmp/Cargo.toml", "cp src/a.rs ../../Cargo.toml"],
    );
    check_common::assert_in_dir(ws.path(), "ask", &["echo x >> ../xCargo.toml", "echo x >> ../docs/a.md"]);
    let d = check_common::check_in_dir(
        ws.path(),
        "Write",
        &serde_json::json!({"file_path": "/etc/Cargo.toml", "content": "x"}),
    );
    assert_eq!(d["decision"], "deny", "{d}");
}

/// Red teams 76 and 80 (C: over-asks and over-denies of everyday listings): grep's one
/// `--include`, rg's one `-g`/`--iglob`, `rg -0`, git grep's bundled `-lz`, a git pathspec
/// `*.md` or `docs/*.md` (git's `*` crosses `/`: every name ending in `.md` below), and
/// `git ls-files -z DIR`. Several include globs, or one naming `Cargo.toml`, stay denied.
#[test]
fn listing_filters_of_grep_rg_and_git_pathspecs() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "docs/guide.md", "ref\n");
    check_common::write_file(ws.path(), "docs/a.md", "ref\n");
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git").args(args).current_dir(ws.path()).output().unwrap();
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    git(&["add", "docs", "src", "Cargo.toml"]);
    // git's `*` crosses `/`: `*.md` names docs/a.md.
    assert!(check_common::bash_stdout(ws.path(), "git ls-files '*.md'").contains("docs/a.md"));
    assert_eq!(
        check_common::bash_stdout(ws.path(), "grep -rl ref --include='*.md' . | sort"),
        "./docs/a.md\n./docs/guide.md\n"
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "grep -rl ref --include='*.md' . | xargs sed -i 's/ref/Ref/g'",
            "rg --files -g '*.md' | xargs sed -i 's/ref/Ref/'",
            "rg --files --iglob '*.MD' | xargs sed -i 's/ref/Ref/'",
            "rg -l0 ref docs | xargs -0 sed -i s/ref/Ref/",
            "git grep -lz ref -- docs | xargs -0 sed -i s/ref/Ref/",
            "git ls-files '*.md' | xargs sed -i 's/ref/Ref/'",
            "git ls-files -- 'docs/*.md' | xargs sed -i 's/ref/Ref/'",
            "git grep -l ref -- '*.md' | xargs sed -i s/ref/Ref/",
            "git ls-files -z docs | xargs -0 sed -i s/ref/Ref/",
            "git ls-files -z '*.md' | xargs -0 sed -i s/ref/Ref/",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "grep -rl ref --include='*.md' --include='*.toml' . | xargs sed -i 's/ref/Ref/g'",
            "rg --files -g '*.md' -g '*.toml' | xargs sed -i 's/ref/Ref/'",
            "git ls-files '*.toml' | xargs sed -i s/a/b/",
            "git ls-files 'docs/*.md' '*.toml' | xargs sed -i s/a/b/",
            "git ls-files -z | xargs -0 sed -i s/ref/Ref/",
        ],
    );
}

/// Red team 80 (A A01-A19, bypasses): a `-L`, `-l` or `--max-lines` after xargs's `-I R`
/// cancels the replace string (GNU xargs warns and appends the names), so `R` in the command
/// stands as written: `xargs -I .env -L1 sed -i s/a/b/ .env` rewrites `.env`.
#[test]
fn xargs_line_count_cancels_the_replace_string() {
    let ws = check_common::red_team_workspace(true);
    let printed = check_common::bash_stdout(ws.path(), "printf 'a\\n' | xargs -I R -L1 echo X R 2>/dev/null");
    assert_eq!(printed, "X R a\n");
    let printed = check_common::bash_stdout(ws.path(), "printf 'a\\n' | xargs -L1 -I R echo X R 2>/dev/null");
    assert_eq!(printed, "X a\n");
    let printed = check_common::bash_stdout(ws.path(), "printf 'a\\n' | xargs -I R -n1 echo X R 2>/dev/null");
    assert_eq!(printed, "X a\n");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "find docs -name '*.md' | xargs -I .env -L1 sed -i s/K/J/ .env",
            "find docs -name '*.md' | xargs -I .env --max-l=1 sed -i s/K/J/ .env",
            "find docs -name '*.md' | xargs -i.env -l sed -i s/K/J/ .env",
            "find docs -name '*.md' | xargs -rI .env -L1 tee .env",
            "find docs -name '*.md' | xargs --replace=Cargo.toml -L 1 sed -i s/e/E/ Cargo.toml",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["find docs -name '*.md' | xargs -I src/a.rs -L1 sed -i s/f/g/ src/a.rs"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "find docs -name '*.md' | xargs -L1 -I {} sed -i s/f/g/ {}",
            "find docs -name '*.md' | xargs -I {} -n1 sed -i s/f/g/ {}",
        ],
    );
}

/// Red team 80 (C O15-O21, over-asks): a glob beside variables gate knows (`"$DIR"/*.md` of
/// `DIR=docs`, a loop's `"$d"/*.rs`, `src/*.$ext`) is the glob with their text, and
/// `readonly D=docs` / `declare -r` bind D as `declare` does. A value that is not plain text
/// (a blank, a glob character, `..` leading out) keeps it asked.
#[test]
fn globs_beside_known_variables_and_readonly_values() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "docs/guide.md", "# g\n");
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    assert_eq!(check_common::bash_stdout(ws.path(), "DIR=docs; echo \"$DIR\"/*.md"), "docs/a.md docs/guide.md\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "DIR=docs; wc -l \"$DIR\"/*.md",
            "DIR=docs; wc -l $DIR/*.md",
            "ext=rs; ls src/*.$ext",
            "export DOCS_DIR=docs; ls \"$DOCS_DIR\"/*.md",
            "DIR=docs; for f in \"$DIR\"/*.md; do wc -l \"$f\"; done",
            "for d in src docs; do wc -l \"$d\"/*.*; done",
            "D=docs; sed -i s/a/b/ \"$D\"/*.md",
            "readonly D=docs; cat \"$D/a.md\"",
            "declare -r D=docs; cat \"$D\"/*.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "D=/etc; cat $D/*",
            "D=..; cat \"$D\"/*",
            "D=\"a b\"; cat \"$D\"/*",
            "readonly D=docs; D=/etc; cat \"$D/passwd\"",
            "readonly D=/etc; readonly D=docs; cat \"$D/passwd\"",
            "declare -ru D=docs; cat \"$D/a.md\"",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["D=.; sed -i s/a/b/ \"$D\"/.e*"]);
}

/// Red team 80 (D W04-W07, over-asks): dd's `if=`/`of=` naming a device that only gives or
/// swallows bytes (`/dev/zero`, `/dev/urandom`, `/dev/null`) reads or writes no file, as the
/// same device in a redirection does; another device is still a path outside the workspace.
#[test]
fn dd_with_plain_devices() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "dd if=/dev/urandom bs=16 count=1 status=none | base64",
            "dd if=docs/a.md of=/dev/null bs=1M status=none",
            "dd if=/dev/zero of=docs/x.md bs=1 count=10",
        ],
    );
    check_common::assert_in_dir(ws.path(), "ask", &["dd if=/dev/sda of=docs/y.md", "dd if=/etc/passwd of=/dev/null"]);
    check_common::assert_in_dir(ws.path(), "deny", &["dd if=/dev/zero of=.env"]);
}

/// Red team 80 (A C01): a program name a filter computes from a variable gate knows (`x=mr;
/// $(rev <<< $x)`) is computed as from the constant itself, so `rm` spelled so is denied.
#[test]
fn filters_over_known_variables() {
    let ws = check_common::red_team_workspace(true);
    assert_eq!(check_common::bash_stdout(ws.path(), "x=mr; echo $(rev <<< $x)"), "rm\n");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["x=mr; $(rev <<< $x) victim", "x=mr; $(echo $x | rev) victim", "x=qm; $(sed s/q/r/ <<< \"$x\") victim"],
    );
    check_common::assert_in_dir(ws.path(), "ask", &["x=ls; $(rev <<< $x) victim", "x=mr; $(rev <<< $y) victim"]);
}

/// Red team 81 (C C01-C26, bypasses): `declare -A` (`typeset -A`, `local -A`) of bash's own
/// indexed arrays (`GROUPS`, `FUNCNAME`, `DIRSTACK`, `BASH_ARGV`...) fails: bash refuses to
/// convert them, and their subscripts stay arithmetic, which runs a `$(...)` in a key's value.
#[test]
fn bash_own_arrays_never_turn_associative() {
    let ws = check_common::red_team_workspace(true);
    let ran = check_common::bash_stdout(
        ws.path(),
        "declare -A GROUPS 2>/dev/null; k='a[$(echo RAN >> ran)]'; : \"${GROUPS[$k]}\"; declare -A h; : \"${h[$k]}\"; cat ran",
    );
    assert_eq!(ran, "RAN\n");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "declare -A GROUPS; x='a[$(rm -f docs/a.md)]'; echo \"${GROUPS[$x]}\"",
            "declare -A DIRSTACK; k='a[$(echo x >> Cargo.toml)]'; DIRSTACK[$k]=1",
            "typeset -A FUNCNAME; k='a[$(rm -f y)]'; echo \"${FUNCNAME[k]}\"",
            "f(){ local -A GROUPS; k='a[$(rm -f docs/a.md)]'; echo \"${GROUPS[$k]}\"; }; f",
            "declare -Ag BASH_ARGV; k='a[$(rm y)]'; : \"${BASH_ARGV[$k]}\"",
        ],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["declare -A h; k='a[$(rm y)]'; echo \"${h[$k]}\""]);
}

/// Red team 81 (B L01, L08, over-asks): the integer attribute given inside a function that is
/// then called (`f(){ local -i c; c=$(grep -c fn "$1"); }; f src/a.rs`): every call gate sees
/// walks the body with the attribute, so only a call gate cannot see (a command named at run
/// time, `eval`) keeps it unknown.
#[test]
fn integer_attributes_inside_called_functions() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "lines() { declare -i n=0; while read -r _; do n+=1; done < \"$1\"; echo $n; }; lines docs/a.md",
            "f() { local -i c; c=$(grep -c fn src/a.rs); echo \"$1: $c\"; }; f src/a.rs",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["f() { local -i c; c=$(cat \"$1\"); }; f src/a.rs", "f(){ x=$(cat z); }; declare -i x; f"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["f(){ x='a[$(rm y)]'; }; declare -i x; f", "f(){ x='a[$(rm y)]'; }; declare -i x; eval \"$v\""],
    );
}

/// Red team 81 (A F01-F26, bypasses): a find test after an action that prints (`-print`,
/// `-print0`, `-fprint0 /dev/stdout`, `-ls`) filters nothing that action printed: `find .
/// -type f -print -name '*.md'` prints every file, `.env` among them.
#[test]
fn find_tests_after_a_print_filter_nothing() {
    let ws = check_common::red_team_workspace(true);
    let printed = check_common::bash_stdout(ws.path(), "find . -name .git -prune -o -type f -print -name '*.md'");
    assert!(printed.contains("./.env"), "{printed}");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "find . -path ./.git -prune -o -type f -print -name '*.md' | xargs sed -i s/K/X/",
            "find . -name .git -prune -o -type f -print0 -name '*.md' | xargs -0 sed -i s/K/X/",
            "find . -name .git -prune -o -type f -fprint0 /dev/stdout -name '*.md' | xargs -0 sed -i s/K/X/",
            "find . -type f -print -name '*.md' | xargs sed -i s/K/X/",
            "find . -type f -print -a -iname '*.md' | xargs -I{} sed -i s/K/X/ {}",
            "for f in $(find . -type f -print -name '*.md'); do sed -i s/K/X/ \"$f\"; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["find . -name .git -prune -o -type f -name 'a*.md' -print | xargs sed -i s/K/X/"],
    );
}

/// Red team 81 (B L06, over-ask): env setting a variable to the shell's own value
/// (`PATH="$PATH"`) changes nothing the command would not have anyway.
#[test]
fn env_keeps_the_shells_own_value() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["env -i PATH=\"$PATH\" git status", "env PATH=${PATH} git log -1"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["env -i PATH=\"$HOME\" git status", "env PATH=\"$PATH:/x\" git status", "env GIT_DIR=\"$X\" git status"],
    );
}

/// Red team 80 (C O28, O34, over-asks): a `-print0` listing through `sort -z` (or `uniq -z`,
/// `grep -z`) is still one, each NUL-ended record a name; a line listing through a NUL filter,
/// or a NUL listing through a line filter, is none.
#[test]
fn nul_listings_through_nul_filters() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "find src -name '*.rs' -print0 | sort -z | xargs -0 -r wc -l",
            "find docs -name '*.md' -print0 | sort -zu | xargs -0 sed -i 's/ref/Ref/'",
            "find docs -print0 | grep -zv x | xargs -0 wc -l",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find docs -name '*.md' | sort -z | xargs -0 sed -i 's/ref/Ref/'",
            "find docs -name '*.md' -print0 | sort | xargs -0 sed -i 's/ref/Ref/'",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["find . -print0 | sort -zu | xargs -0 sed -i s/a/b/"]);
}

/// Red team 82 (C A76, over-ask): `((count++)) || true` in a loop. A variable that held a
/// number before an and-or list and holds one where a later part runs holds a number
/// whichever way the list went; one the later part gives text to does not.
#[test]
fn counters_through_or_lists() {
    let ws = check_common::red_team_workspace(true);
    assert_eq!(
        check_common::bash_stdout(ws.path(), "count=0; for f in a b; do ((count++)) || true; done; echo $count"),
        "2\n"
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "count=0; for f in docs/*.md; do ((count++)) || true; done; echo \"$count\"",
            "n=0; ((n++)) || :; ((n++)); echo $n",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["count=0; ((count++)) || count='a[$(touch /tmp/x)]'; ((count++))", "x=$(cat f); ((x++)) || true"],
    );
}

/// Red team 82 (B L02, L03, over-asks): `uniq IN -` writes to standard output, no file named
/// `-`; `numfmt` (its own table) only reformats numbers.
#[test]
fn uniq_to_stdout_and_numfmt() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    assert_eq!(check_common::bash_stdout(ws.path(), "uniq src/a.rs -; ls -- -"), "fn a() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["uniq -c src/a.rs -", "numfmt --to=iec 1048576", "numfmt --from=si < docs/a.md"],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["uniq -c src/a.rs .env"]);
    check_common::assert_in_dir(ws.path(), "ask", &["numfmt --frobnicate 1", "uniq src/a.rs ../x"]);
}
