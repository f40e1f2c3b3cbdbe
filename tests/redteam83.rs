//! The red teams of the twenty-ninth session ("red team 83" in the code's comments, and the
//! over-asks earlier blind rounds left open that this session fixed). Each regression goes
//! through the real binary (`gate check --json`); where the answer rests on what bash or a
//! program does, bash is asked.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Left by blind red teams 80 B L20, 81 B L04/L07, 82 B L04, 82 C A66: `pushd docs;
/// ...; popd`, `cd docs; cd ..; git status`. A `cd` whose failure bash goes past
/// was followed from both directories, and where it failed a `popd` popped the stack the call
/// started with, a `cd ..` left the workspace. A `cd` into a directory that is there when the
/// call runs does not fail: the edge finds it, and the call is read with it entered.
#[test]
fn cd_into_a_directory_that_is_there() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::write_file(ws.path(), "tests/t.rs", "\n");
    // What bash does: the write lands in docs, and the shell is back where it started.
    let out = check_common::bash_stdout(
        ws.path(),
        "pushd docs >/dev/null; echo '# n' > n.md; popd >/dev/null; ls docs/n.md; rm docs/n.md",
    );
    assert_eq!(out, "docs/n.md\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "pushd docs >/dev/null; echo '# notes' > notes.md; popd >/dev/null",
            "pushd docs >/dev/null; ls; popd >/dev/null; dirs -v",
            "cd docs; cd ..; cd -; ls",
            "cd tests; cd ..; git status",
            "set -e\nfor d in src tests; do\n  pushd \"$d\" >/dev/null\n  ls\n  popd >/dev/null\ndone",
            "cd docs\necho x > t.md",
            "cd docs; cat ../src/a.rs",
        ],
    );
    // Where the directory is not there (or is a file), or is a link out of the workspace,
    // what follows may run from the start: `../x` is outside.
    std::os::unix::fs::symlink("/etc", ws.path().join("lnk")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "cd nothere; cat ../x",
            "cd docs/a.md; cat ../x",
            "pushd nothere; popd; cat docs/a.md",
            "cd lnk; cat passwd",
            "cd lnk; cd ..; cat docs/a.md",
            "cd docs; cd ..; cat ../x",
            "mkdir -p new; cd new; cat ../x",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["cd docs; rm x", "cd nothere; echo x > ../.env"]);
}

/// Red team 84 (A C01-C50, 50 bypasses of the above): the directory was checked after `..`
/// was taken lexically, but bash refuses `cd docs/a.md/..` (`Not a directory`) and `cd
/// docs/nothere/..`, and stays; it refuses `cd docs src`, `cd -Q docs`, `cd --help docs`
/// too. A `cd` is taken to succeed only in its one plain shape, and only where every part
/// before a `..` is a directory as well.
#[test]
fn cd_that_bash_refuses_is_not_taken_to_succeed() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    // What bash does: it stays where it was.
    for cd in ["cd docs/a.md/..", "cd docs/nothere/..", "cd docs src", "cd -Q docs", "cd --help docs"] {
        let out = check_common::bash_stdout(ws.path(), &format!("{cd} >/dev/null 2>&1; basename \"$PWD\""));
        assert_eq!(out, check_common::bash_stdout(ws.path(), "basename \"$PWD\""), "{cd}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "cd docs/a.md/..; cat ../secret.txt",
            "cd docs/a.md/..\ncat ../secret.txt",
            "cd docs/nothere/.. || true; cat ../secret.txt",
            "pushd docs/a.md/..; cat ../secret.txt",
            "cd src/a.rs/../../docs; cat ../../secret.txt",
            "cd docs src; cat ../secret.txt",
            "cd -- docs src; cat ../secret.txt",
            "cd docs ''; cat ../secret.txt",
            "cd -Q docs; cat ../secret.txt",
            "cd --help docs; cat ../secret.txt",
            "cd docs/a.md/..; cd ..; ls",
            "cd docs/a.md/..; cd ..; npm test",
            "cd docs/a.md/..; echo x > ../docs/x.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["cd -P docs; cat ../src/a.rs", "cd -- docs; cat ../src/a.rs", "cd docs/../src; cat ../docs/a.md"],
    );
}

/// Red team 83 (D D01-D12, bypasses): xargs's `--de=/` and `--d .`, abbreviations of
/// `--delimiter` that GNU getopt takes, were not seen: the listing's names were taken whole,
/// but xargs cut `../ws/docs/a.md` into `..` (grep and ls there read the parent) and
/// `./.gitignore` into `/`. xargs's options are now read by its table.
#[test]
fn xargs_abbreviated_delimiter_and_arg_file() {
    let ws = check_common::red_team_workspace(true);
    // What xargs does with `--de=/`: the pieces of the name.
    let out = check_common::bash_stdout(ws.path(), "echo ./docs/a.md | xargs --de=/ printf '[%s]'");
    assert_eq!(out, "[.][docs][a.md\n]");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "find docs -name '*.md' | xargs --de=/ ls",
            "find ./.gitignore | xargs --d . ls",
            "echo ./.gitignore | xargs --de=. ls",
            "find docs -name '*.md' | xargs -r --de / grep -r SECRET",
            "find docs -name '*.md' | xargs --ar=/etc/passwd ls",
            "find docs -name '*.md' | xargs -rd/ ls",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["find docs -name '*.md' | xargs --de='\\n' wc -l", "find docs -name '*.md' -print0 | xargs --nu wc -l"],
    );
}

/// Red team 83 (D L01-L06, bypasses): `grep -l --label=GLOB` prints GLOB as the name of its
/// standard input, and an unquoted `$(...)` of it is globbed: `echo $(echo x | grep -l
/// --label='/etc/pass*' x)` listed /etc. Its output was taken for plain names.
#[test]
fn grep_label_is_no_plain_name() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(ws.path(), "echo $(echo x | grep -l --label='/etc/host*' x)");
    assert!(out.starts_with("/etc/host"), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "echo $(echo x | grep -l --label='/etc/pass*' x)",
            "for f in $(echo x | grep -l --lab='../*' x); do echo \"$f\"; done",
            "a=($(echo x | grep -l --label='/home/*/.*' x)); echo ${#a[@]}",
            "printf '%s\\n' $(echo x | grep -l --label='/root/.*' x)",
        ],
    );
    check_common::assert_in_dir(ws.path(), "allow", &["echo $(grep -l a docs/a.md)"]);
}

/// Red team 83 (A A01-A06, bypasses): GNU grep lists a file that matches neither
/// `--include` nor `--exclude` unless the first of them is `--include`; `--exclude=zzz
/// --include='*.md'` listed `.env` and Cargo.toml, which the `sed -i` after it rewrote.
/// (Abbreviated, `--incl=*.md` is the same option: red team 83 A O01, denied before.)
#[test]
fn grep_include_filters_only_as_the_first_of_include_and_exclude() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), ".env", "K=v\n");
    let out = check_common::bash_stdout(ws.path(), "grep -rl K= --exclude=zzz --include='*.md' . | sort");
    assert!(out.contains("./.env"), "{out}");
    let out = check_common::bash_stdout(ws.path(), "grep -rl K= --include='*.md' --exclude=zzz . | sort");
    assert!(!out.contains("./.env"), "{out}");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "grep -rl K= --exclude=zzz --include='*.md' . | xargs sed -i s/K=/X=/",
            "grep -rl ws --exclude zzz --include '*.md' . | xargs sed -i s/ws/WS/",
            "grep -rlZ ws --exclude=zzz --include='*.md' . | xargs -0 sed -i s/ws/WS/",
            "grep -rl K= --exclude=zzz --include='*.md' . | while read -r f; do sed -i s/K=/X=/ \"$f\"; done",
            "for f in $(grep -rl ws --exclude-from=x --include='*.md' .); do sed -i s/ws/WS/ \"$f\"; done",
            "grep -rl ws --include='*.md' --inc='*.toml' . | xargs sed -i s/ws/WS/",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "grep -rl K= --include='*.md' --exclude=zzz . | xargs sed -i s/K=/X=/",
            "grep -rl ref --incl='*.md' . | xargs sed -i s/zzz/y/",
        ],
    );
}

/// Red team 83 (A A13-A22, bypasses): once any command ran, `PIPESTATUS` is an indexed array
/// bash refuses to make associative, so `declare -A PIPESTATUS` fails and its subscripts stay
/// arithmetic: `x='y[$(rm -f m)]'; declare -A PIPESTATUS; PIPESTATUS[x]=1` ran `rm`. The same
/// holds for `BASH_REMATCH` after `[[ =~ ]]` and `COPROC` after `coproc`.
#[test]
fn pipestatus_never_turns_associative() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(
        ws.path(),
        "touch m; x='y[$(rm -f m)]'; declare -A PIPESTATUS 2>/dev/null; PIPESTATUS[x]=1; ls m 2>&1 | wc -l",
    );
    assert_eq!(out.trim(), "1");
    assert!(!ws.path().join("m").exists());
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "x='y[$(rm -f marker)]'; declare -A PIPESTATUS; PIPESTATUS[x]=1",
            "true; x='y[$(rm -f marker)]'; typeset -A PIPESTATUS; echo \"${PIPESTATUS[x]}\"",
            "x='y[$(rm -f marker)]'; declare -gA PIPESTATUS; : \"${PIPESTATUS[x]}\"",
            "[[ ab =~ (a) ]]; x='y[$(rm -f marker)]'; declare -A BASH_REMATCH; BASH_REMATCH[x]+=1",
        ],
    );
}

/// Red team 83 (A A08-A12, denied now; O03, O06, O07, O11, O12, allowed): what rg's globs and
/// types and git's pathspec magic list. rg's `-g '*.{md,toml}'` (braces), a `-g` made
/// case-insensitive by `--glob-case-insensitive` and a lone `!` glob list Cargo.toml; git's
/// `':'` and `':/'` match the whole tree, `:!X` only leaves names out. A glob before `--` is a
/// pathspec to `git grep` (no revision holds `*`).
#[test]
fn rg_globs_and_git_pathspec_magic() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "rg -l ws -g '*.{md,toml}' | xargs sed -i s/ws/WS/",
            "rg -l ws --glob-case-insensitive -g '*.TOML' | xargs sed -i s/ws/WS/",
            "rg -l ws -ttoml | xargs sed -i s/ws/WS/",
            "git ls-files '*.md' ':' | xargs sed -i s/K=/X=/",
            "git ls-files '*.md' ':/' | xargs sed -i s/K=/X=/",
            "git ls-files ':!*.rs' | xargs sed -i s/K=/X=/",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "rg -l ref -g '**/*.md' | xargs sed -i s/zzz/y/",
            "git grep -l ref '*.md' | xargs sed -i s/zzz/y/",
            "git grep -lz ref '*.md' | xargs -0 sed -i s/zzz/y/",
        ],
    );
    // (Not denied: the names are the markdown type's, and which of them are there is the
    // edge's to find.)
    // (A lone `!` glob lists every other name, which no pattern says: asked.)
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["rg -l ref -tmd | xargs sed -i s/zzz/y/", "rg -l ws -g '!*.md' | xargs sed -i s/ws/WS/"],
    );
}

/// Red team 83 (A O08, O13-O18, over-asks): `git ls-files --exclude=GLOB` takes a value;
/// procps's `ps` takes `--no-heading(s)`, `--noheader(s)`; `PATH="$PATH" ls` sets nothing new;
/// `dd ... of=/dev/stdout` writes the command's own output.
#[test]
fn tables_of_ps_git_ls_files_dd_and_own_values() {
    let ws = check_common::red_team_workspace(true);
    for o in ["--no-heading", "--no-headings", "--noheader", "--no-header"] {
        let out = check_common::bash_stdout(ws.path(), &format!("ps {o} -p $$ >/dev/null && echo ok"));
        assert_eq!(out, "ok\n", "{o}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "git ls-files --others --exclude='*.log'",
            "ps --no-heading -e",
            "ps --noheader -o pid,comm -p 1",
            "ps --no-headings -e",
            "PATH=\"$PATH\" ls docs",
            "dd if=docs/a.md of=/dev/stdout",
        ],
    );
    check_common::assert_in_dir(ws.path(), "ask", &["PATH=\"$PATH:/tmp\" ls docs", "PATH=/tmp; PATH=\"$PATH\" ls"]);
}

/// Red team 83 (C L01, denied): GNU sed joins its `-e` scripts with line ends, so `sed -e
/// 'a\' -e 'w .env'` appends the text `w .env` and writes nothing; each `-e` was read alone,
/// the second a write of `.env`. (A `w` that really is one across `-e`s stays denied.)
#[test]
fn sed_scripts_joined_as_sed_joins_them() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(ws.path(), "sed -e 'a\\' -e 'w .env' docs/a.md; cat .env");
    assert_eq!(out, "# a\nw .env\nK=v\n");
    check_common::assert_in_dir(ws.path(), "allow", &["sed -e 'a\\' -e 'w .env' docs/a.md"]);
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "sed -e 'a foo' -e 'w .env' docs/a.md",
            "sed -e '/a/{' -e 'w .env' -e '}' docs/a.md",
            "sed -f x -e 'w .env' docs/a.md",
        ],
    );
}

/// Red team 84 (C O77, B H10, A O06; over-asks): an item of an array of literal numbers in
/// arithmetic is a number (`arr=(3 4); echo $(( ${arr[0]} * ${arr[1]} ))`); `git config
/// --file F KEY` gets KEY (F is read, no operand); `export PATH="$PATH"` sets nothing new.
#[test]
fn number_arrays_git_config_file_and_exported_own_values() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "arr=(3 4); echo $(( ${arr[0]} * ${arr[1]} ))",
            "arr=(3 -4); echo $(( arr[0] * arr[1] ))",
            "git config --file .git/config core.bare",
            "git config --file=.git/config core.bare",
            "export PATH=\"$PATH\"; ls docs",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "arr=(3 x); echo $(( arr[0] * arr[1] ))",
            "declare -A arr=([a]=3); echo $(( arr[0] ))",
            "git config --file .git/config core.bare true",
            "git config -f /etc/passwd a.b",
            "export PATH=\"$PATH:/tmp\"; ls docs",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["arr=(3 4); x='y[$(rm m)]'; echo $(( arr[x] ))", "arr=(3 4); echo $(( arr[$(rm m)] ))"],
    );
}

/// Red team 83 (D O01) and 82 (C A08, A58), over-asks: `mapfile -t a < <(find docs -name
/// '*.md'); sed -i s/a/b/ "${a[@]}"`. The array was taken for the listing's names only where
/// it was emptied first, since mapfile does not run where its process substitution fails;
/// that takes descriptors run out, which a text that opens none (`exec 3<f`, `ulimit -n`)
/// cannot bring about.
#[test]
fn mapfile_of_a_listing_without_emptying_first() {
    let ws = check_common::red_team_workspace(true);
    check_common::write_file(ws.path(), "src/a.rs", "fn a() {}\n");
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "mapfile -t a < <(find docs -name '*.md'); sed -i s/a/b/ \"${a[@]}\"",
            "mapfile -t rs < <(find src -name '*.rs')\nfor f in \"${rs[@]}\"; do\n  wc -l \"$f\"\ndone",
            "mapfile -t mds < <(ls docs/*.md); for f in \"${mds[@]}\"; do head -1 \"$f\"; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "exec 3<docs/a.md; mapfile -t a < <(find docs -name '*.md'); sed -i s/a/b/ \"${a[@]}\"",
            "mapfile -t rs < <(find /etc -name '*.conf'); for f in \"${rs[@]}\"; do wc -l \"$f\"; done",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["mapfile -t a < <(find . -name '.env*'); sed -i s/a/b/ \"${a[@]}\""],
    );
}

/// Red team 85 (B D17, only asked): `git reset --hard` sets every tracked file to the commit
/// (Cargo.toml among them), as `git checkout .` does, which was denied.
#[test]
fn git_reset_hard_writes_every_tracked_file() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(
        ws.path(),
        "git add -A && git -c user.name=t -c user.email=t@t commit -qm x && echo '[broken' > Cargo.toml && git reset -q --hard HEAD && cat Cargo.toml",
    );
    assert_eq!(out, "[package]\n");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["git reset -q --hard HEAD", "git reset --hard", "git reset --merge HEAD~1"],
    );
    check_common::assert_in_dir(ws.path(), "ask", &["git reset --soft HEAD~1", "git reset HEAD docs/a.md"]);
}

/// Red team 85 (A C01-C36, 34 bypasses): `cd -P` hands its operand to chdir as written, which
/// fails past PATH_MAX (`File name too long`) though the directory is there: `cd -P
/// docs/./././...` stayed where it was. A `cd` is taken to succeed only with an operand of at
/// most 1024 bytes. (And G01-G03: `git grep`'s pattern is no pathspec, so `git grep -l ws --
/// ':!docs'` lists every other name; O05-O06: an array item under an index holding a number.)
#[test]
fn long_cd_operands_grep_exclusions_and_number_indices() {
    let ws = check_common::red_team_workspace(true);
    let long = format!("docs/{}", "./".repeat(2100));
    let out = check_common::bash_stdout(ws.path(), &format!("cd -P {long} 2>/dev/null; basename \"$PWD\""));
    assert_eq!(out, check_common::bash_stdout(ws.path(), "basename \"$PWD\""));
    let cases = [
        format!("cd -P {long}; cat ../secret.txt"),
        format!("cd -P -- {long}\ncd ..; ls"),
        format!("pushd {long}; cat ../secret.txt"),
    ];
    let cases: Vec<&str> = cases.iter().map(String::as_str).collect();
    check_common::assert_in_dir(ws.path(), "ask", &cases);
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "git grep -l ws -- ':(exclude)docs' | xargs sed -i s/ws/XX/",
            "git grep -l ws -- ':^docs/*' | xargs sed -i s/ws/XX/",
            "git grep -l ws -- ':!docs' | xargs sed -i s/ws/XX/",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "a=(1 2 3); for i in 0 1 2; do echo $((a[i] * 2)); done",
            "a=(1 2 3); i=1; echo $(( a[i] ))",
            "cd docs && ls; cd ..; ls src",
            "cd docs && wc -l a.md; cd ..; git status",
        ],
    );
    check_common::assert_in_dir(ws.path(), "ask", &["a=(1 2 3); i=$1; echo $(( a[i] ))"]);
}

/// Red team 86 (A A01-A20, 20 bypasses): a `cd` whose own redirections fail is skipped, and
/// bash goes on where it was: in `cd docs >&- 2>&1` the copy from the closed descriptor fails
/// (`Bad file descriptor`). A `cd` is taken to succeed only where none of its redirections
/// can fail (`/dev/null`, copies of open standard descriptors) and none closes one.
#[test]
fn cd_with_redirections_that_fail_is_not_taken_to_succeed() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(ws.path(), "cd docs >&- 2>&1; basename \"$PWD\"");
    assert_eq!(out, check_common::bash_stdout(ws.path(), "basename \"$PWD\""));
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "cd docs >&- 2>&1; cat ../secret.txt",
            "cd docs 1>&- 2>&1; echo pwn > ../docs/n.md",
            "cd -- docs 2>&- >&2; cat ../secret.txt",
            "pushd docs >&- 2>&1; cat ../secret.txt",
            "cd docs <&- 3<&0; cat ../secret.txt",
            "cd docs 2>&9; cat ../secret.txt",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["cd docs >/dev/null 2>&1; cat ../README.md", "pushd docs >/dev/null; ls; popd >/dev/null"],
    );
}

/// Red team 87 (A B01-B37, 37 bypasses): a copy of a standard descriptor on the `cd` (`cd
/// docs >&2`) fails where the shell closed it, by a move (`exec 3>&2-`), a quoted `-`
/// (`2>&"-"`) or a compound command's redirection walked after its body (`{ cd docs >&2;
/// cat ../x; } 2>&-`); bash skips the `cd`. A `cd` is taken to succeed only with redirections
/// to `/dev/null` and copies of those. (And C P01-P06: git's `*` matches nothing and `?` the
/// dot, so `*.env` and `':(icase)?ENV'` list `.env`; A09: `PIPESTATUS` items are numbers.)
#[test]
fn cd_copies_of_descriptors_pathspec_dot_names_and_pipestatus() {
    let ws = check_common::red_team_workspace(true);
    let out = check_common::bash_stdout(ws.path(), "exec 3>&2-; cd docs >&2; basename \"$PWD\"");
    assert_eq!(out, check_common::bash_stdout(ws.path(), "basename \"$PWD\""));
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "exec 3>&2-; cd docs >&2; cat ../x",
            "exec 4>&1-; cd docs 2>&1; cat ../x",
            "c=-; exec 2>&\"$c\"; cd docs >&2; cat ../x",
            "{ cd docs >&2; cat ../x; } 2>&-",
            "( cd docs >&2; cat ../x ) 2>&-",
            "f() { cd docs >&2; cat ../x; }; f 2>&-",
            "if true; then cd docs >&2; cat ../x; fi >&-",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &["cd docs >/dev/null 2>&1; cat a.md", "true | false; echo $(( PIPESTATUS[1] + 1 ))"],
    );
    check_common::write_file(ws.path(), ".env", "K=v\n");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "git ls-files ':(icase)*.ENV' | xargs sed -i s/K/Z/",
            "git ls-files '*.env' | xargs sed -i s/K/Z/",
            "git ls-files ':(icase)?ENV' | xargs sed -i s/K/Z/",
            "git grep -l K -- ':(icase)*.ENV' | xargs sed -i s/K/Z/",
        ],
    );
}

/// Red team 87 (B L08, L13; over-asks): `c=0; for f in src/*.rs; do c=$(( ${c:-0} + 1 ));
/// done` keeps a number (`${c:-0}` is c's value or 0); `git difftool --tool-help` only lists
/// tools.
#[test]
fn arithmetic_defaults_and_difftool_tool_help() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "c=0; for f in docs/*.md; do c=$(( ${c:-0} + 1 )); done; echo $c",
            "c=0; echo $(( ${c:-0} + 1 ))",
            "git difftool --tool-help | head -20",
            // (B L09: the substitution runs before the assignment, and assigns nothing.)
            "t=0; for f in docs/*.md; do (( t += $(wc -l < \"$f\") )); done; echo $t",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "echo $(( ${c:-0} + 1 ))",
            "c=0; echo $(( ${c:-x} + 1 ))",
            "git difftool --tool-help docs",
            "x=docs; (( t += $((x=5)) )); cat $x/a.md",
        ],
    );
    check_common::assert_in_dir(ws.path(), "deny", &["c=0; echo $(( ${c:-0$(rm m)} + 1 ))"]);
}

/// Red team 88 (A C01-C15, A01-A17; 32 bypasses): a redirection of a descriptor past the
/// limit fails even to `/dev/null` (`cd docs 1048577>/dev/null` skips the `cd`), so only the
/// standard descriptors count; and `a[$1]` is no number index: bash evaluates `$1`'s text again
/// as arithmetic (`set -- i` with `i='z[$(rm -f m)]'`). (B C3-07: `declare -i n=5; n=n+1`
/// evaluates names that hold numbers.)
#[test]
fn cd_redirections_of_standard_descriptors_and_positional_indices() {
    let ws = check_common::red_team_workspace(true);
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "cd docs 1048577>/dev/null; cat ../x",
            "cd docs >/dev/null 1048577>&1; cat ../x",
            "pushd docs 65536</dev/null; cat ../x",
            "cd docs 3>/dev/null; cat ../x",
            // (Red team 89's lead: descriptors run out, then even `/dev/null` fails.)
            "exec 3<. 4<.; cd docs 2>/dev/null; cat ../x",
            "declare -i n=5; n=m+1; echo $n",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "a=(1 2); i='z[$(rm -f m)]'; set -- i; echo $(( a[$1] ))",
            "a=(1 2); f() { echo $(( a[$1] )); }; i='z[$(rm -f m)]'; f i",
            "i='z[$(rm -f m)]'; set -- i; (( PIPESTATUS[$1] ))",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            "cd docs 2>/dev/null; cat a.md",
            "declare -i n=5; n=n+1; echo $n",
            "a=(1 2); i=1; echo $(( a[$i] ))",
            // (B C2-05: `-h` is `--help` to these, measured to print and exit.)
            "node -h",
            "make -h",
        ],
    );
}
