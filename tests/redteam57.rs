//! The red teams of the sixteenth session ("red team 57" in the code's comments): the newest
//! models probed against bash (X), a replica in the agents' style (W), and option grammars,
//! option values and tool-call paths (Y). Each regression goes through the real binary (`gate
//! check --json`), and where it can, bash itself shows the truth.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use proptest::prelude::*;

const POLICY: &str = check_common::RED_TEAM_POLICY;

/// Red team 57 (X01-X16): a declaration builtin that assigns one array twice applies its
/// words left to right (the last wins, `+=` appends, `a=x` and `a[1]=x` set elements); gate
/// kept the first value.
#[test]
fn an_array_declared_twice_in_one_builtin_is_not_its_first_value() {
    let scratch = tempfile::tempdir().unwrap();
    for (script, out) in [
        ("declare -a a=(ls) a=(rm); echo \"${a[0]}\"", "rm\n"),
        ("declare -a a=(ls) a+=(rm); echo \"${a[-1]}\"", "rm\n"),
        ("declare -a a=(ls) a=rm; echo \"${a[0]}\"", "rm\n"),
        ("declare -a a=(ls) 'a[1]=rm'; echo \"${a[1]}\"", "rm\n"),
    ] {
        assert_eq!(check_common::bash_stdout(scratch.path(), script), out, "{script}");
    }
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "declare -a a=(ls) a=(rm); \"${a[-1]}\" m",
            "declare -a a=(ls) a+=(rm); \"${a[-1]}\" m",
            "typeset -a a=(ls) a=(rm); \"${a[0]}\" m",
            "f() { local -a a=(ls) a=(rm); \"${a[0]}\" m; }; f",
            "declare -a a=(ls) a=rm; \"${a[0]}\" m",
            "declare -a c=(ls) c=(curl); \"${c[0]}\" --version",
            "declare -a f=(docs/a.md) f=(Cargo.toml); echo x > \"${f[0]}\"",
            "declare -a f=(docs/a.md) f=(.env); echo x >> \"${f[-1]}\"",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            "declare -a f=(docs/a.md) f=(/etc/passwd); cat \"${f[0]}\"",
            "declare -a f=(src/*.rs) f+=(/etc/hostname); wc -l \"${f[@]}\"",
            "f() { local f=(src/*.rs) f=(/etc/hostname); cat \"${f[@]}\"; }; f",
            "declare -a f=(src/*.rs) \"f=(/etc/hostname)\"; cat \"${f[0]}\"",
            "declare -a f=(src/a.rs) \"f[1]=/etc/hostname\"; cat \"${f[@]}\"",
        ],
    );
    // One assignment per name is still bound.
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "declare -a f=(src/*.rs); cat \"${f[@]}\"",
            "f() { local f=(src/*.rs); local g=(src/a.rs); cat \"${f[@]}\" \"${g[0]}\"; }; f",
        ],
    );
}

/// Red team 57 (X17-X25): bash 5.2 reads `$'\x{HH...}'`: every hex digit up to `}`, the low
/// eight bits kept, none a NUL that ends the string. gate kept the text as written.
#[test]
fn braced_hex_escapes_in_ansi_c_quotes_are_decoded() {
    let scratch = tempfile::tempdir().unwrap();
    assert_eq!(
        check_common::bash_stdout(scratch.path(), "printf '%s|' $'\\x{2f}etc' $'a\\x{}b' $'\\x{4172}m'"),
        "/etc|a|rm|"
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "echo x > $'docs/..\\x{2f}Cargo.toml\\x{0}.md'",
            "echo PWN > $'docs/..\\x{2f}\\x{2e}env\\x{0}.md'",
            "tee $'docs/ref\\x{2f}..\\x{2f}..\\x{2f}Cargo.toml\\x{0}.md' < src/a.rs",
            "echo x > $'Cargo\\x{2e}toml'",
            "$'\\x{72}m' m",
            "eval $'\\x{72}m m'",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "ask",
        &["cat $'\\x{2f}etc/passwd'", "head -n1 $'..\\x{2f}..\\x{2f}..\\x{2f}etc\\x{2f}hostname'"],
    );
}

/// Red team 57 (X26-X29): substring offsets are bash's integer constants (octal `010`, hex
/// `0x2`, `BASE#DIGITS`), and printf's precision does not shorten `%c`.
#[test]
fn substring_offsets_in_any_base_and_printf_c_with_a_precision_are_computed() {
    let scratch = tempfile::tempdir().unwrap();
    assert_eq!(
        check_common::bash_stdout(scratch.path(), "x=abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ab; echo ${x:010:1} ${x:0x2:1} ${x:2#1:1} ${x:36#Z:1} ${x:64#Z:1} ${x:10#09:1}; printf '%.0c|%.c|%.s|\\n' r s t"),
        "i c b J 9 j\nr|s||\n"
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "x=aaaaaaaarm; ${x:010} m",
            "x=aarm; ${x:0x2} m",
            "x=zrm; ${x:2#1} m",
            "printf -v x '%.0cm' r; $x m",
            "x=$(printf '%.cm' r); $x m",
        ],
    );
    // A digit the base refuses is an error: the command does not run, and gate does not guess.
    check_common::assert_all_with(POLICY, "ask", &["x=abc; cat \"${x:08:1}\"", "x=abc; cat \"${x:3#3:1}\""]);
}

/// Red team 57 (X57): `cd DIR && A && cd ..` ends where any step left it: back at the start,
/// or in DIR where A failed. What follows is decided from both (`..` taken lexically, as
/// bash's `cd` takes it without `-P`).
#[test]
fn a_cd_chain_that_comes_back_is_followed_from_each_place_it_may_stop() {
    check_common::assert_all_with(
        POLICY,
        "allow",
        &["cd docs && ls && cd ..; cat src/a.rs", "cd src && cat a.rs && cd ..; cat src/a.rs docs/a.md"],
    );
    // From docs, `a.rs` is docs/a.rs; from the start, a.rs: both decided.
    check_common::assert_all_with(
        POLICY,
        "deny",
        &["cd docs && ls && cd ..; echo x > Cargo.toml", "cd docs && ls && cd ..; echo x > ../Cargo.toml"],
    );
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            "cd docs && ls && cd ../..; cat x",
            "cd docs && cd -P ..; cat x",
            "cd docs && ls && cd ref; cat x",
            "cd docs && ls && cd ..; cat ../x",
        ],
    );
}

/// Writers whose only effect is the files they name: `touch`, `mkdir`, `cp` of files, `uniq IN
/// OUT`, `xxd IN OUT`. Each write is decided by the write rules (docs/**/*.md allowed here;
/// Cargo.toml and .env* denied), each source as a read. `cp A DIR` writes DIR/A too, and
/// `mkdir -p` makes the directories above its operand where missing.
#[test]
fn writers_of_the_files_they_name_are_decided_by_those_writes() {
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "touch docs/x.md",
            "touch -d 2020-01-01 docs/x.md docs/y.md",
            "mkdir -p docs/new/guide.md",
            "cp docs/a.md docs/b.md",
            "cp -t docs docs/ref/notes.md",
            "cp -v -- docs/a.md docs/c.md",
            "uniq docs/a.md docs/out.md",
            "xxd docs/a.md docs/x.md",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "touch Cargo.toml",
            "touch docs/x.md .env.local",
            "mkdir -p .env/x",
            "mkdir -p src/.envrc/x",
            "cp /tmp/x/.env .",
            "cp docs/a.md Cargo.toml",
            "cp -t . x/.env",
            "uniq docs/a.md Cargo.toml",
            "xxd -r docs/a.md .env",
            "find . -name '.env*' | xargs touch",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            // Reads outside, writes no rule allows, and what copies more than it names.
            "cp ~/.ssh/id_rsa docs/x.md",
            "touch -r /etc/passwd docs/x.md",
            "touch src/y.rs",
            "mkdir -p /tmp/x/y",
            // `mkdir -p` makes each directory as spelled, also those a `..` climbs back from
            // (red team 58: V17, V18).
            "mkdir -p src/gen/../../docs/notes.md",
            "cp -r docs docs/bak.md",
            "cp -b docs/a.md docs/c.md",
            "cp -s docs/a.md docs/c.md",
            "cp docs/a.md $x",
            "cp docs/*.md",
        ],
    );
}

/// Writes through a symbolic link in the workspace land where it leads, for every writer.
#[test]
fn writers_follow_links_to_what_they_write() {
    let ws = check_common::red_team_workspace(false);
    std::os::unix::fs::symlink("../Cargo.toml", ws.path().join("docs/l.md")).unwrap();
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["touch docs/l.md", "cp src/a.rs docs/l.md", "uniq docs/a.md docs/l.md", "xxd docs/a.md docs/l.md"],
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]
    /// Whatever options and spellings a writer is given, a write of a denied file is never
    /// allowed.
    #[test]
    fn a_writer_of_a_denied_file_is_never_allowed(
        writer in prop::sample::select(vec![
            "touch", "touch -c", "touch -d now", "touch --date=now", "mkdir", "mkdir -p", "mkdir -m 755", "cp docs/a.md",
            "cp -f docs/a.md", "cp --preserve=mode docs/a.md", "cp -pv docs/a.md", "uniq docs/a.md", "xxd docs/a.md",
        ]),
        target in prop::sample::select(vec!["Cargo.toml", ".env", "docs/.env.md", "./Cargo.toml", "src/../Cargo.toml", ".envrc"]),
    ) {
        let command = format!("{writer} {target}");
        let d = check_common::check_command(POLICY, &command);
        prop_assert_eq!(&d["decision"], "deny", "{}: {}", command, d);
    }
}

/// Red team 57 (W58-W60): `cd DIR && A || B`, as agents write it: B runs where a step stopped,
/// in DIR or where the list started, and is decided from both; so is what follows.
#[test]
fn a_cd_chain_with_a_fallback_is_decided_from_both_directories() {
    let ws = check_common::red_team_workspace(true);
    let root = ws.path().display().to_string();
    check_common::assert_in_dir(
        ws.path(),
        "allow",
        &[
            &format!("cd {root} && git diff --quiet || git diff --stat"),
            &format!("cd {root} && cat src/a.rs || cat docs/a.md"),
            &format!("cd {root} && npm test || npm run build"),
            "cd docs && ls || cat a.md; cat a.md",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["cd docs && ls || echo no > ../Cargo.toml", "cd docs && ls || cat x; echo x > ../.env"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["cd docs && ls || cat x; cat ../../y", "cd docs && ls || cd ..; cat a.md", "cd src && ls || cat ../../y"],
    );
}

/// Red team 57 (Y50-Y52): the files downloaders name from their options and URLs: wget's
/// `--default-page` (a URL ending in `/`), `--rejected-log`, `--hsts-file`; aria2c's URL's
/// last name, below `-d`.
#[test]
fn downloaders_write_the_names_their_urls_and_options_give() {
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "wget --default-page=.env https://example.com/",
            "wget -r --rejected-log=.env.csv https://example.com/",
            "wget --hsts-file=Cargo.toml https://example.com/x",
            "wget -e defaultpage=.env https://example.com/",
            "aria2c https://example.com/.env.prod",
            "aria2c -d docs https://example.com/Cargo.toml",
        ],
    );
}

/// Red team 57 (Y29-Y32): a Codex patch's paths are below the call's own `workdir` (or
/// `cwd`); opencode's `patch` tool carries the same text in `patchText`.
#[test]
fn a_patch_is_decided_below_its_calls_own_directory() {
    let patch = |header: &str| format!("*** Begin Patch\n*** {header}\n+x\n*** End Patch");
    check_common::assert_calls_with(
        POLICY,
        "deny",
        &[
            ("apply_patch", serde_json::json!({"command": patch("Add File: ../Cargo.toml"), "workdir": "docs"})),
            ("apply_patch", serde_json::json!({"command": patch("Add File: ../.env"), "cwd": "src"})),
            ("patch", serde_json::json!({"patchText": patch("Add File: .env.local")})),
        ],
    );
    check_common::assert_calls_with(
        POLICY,
        "allow",
        &[("apply_patch", serde_json::json!({"command": patch("Add File: new.md"), "workdir": "docs"}))],
    );
    check_common::assert_calls_with(
        POLICY,
        "ask",
        &[
            ("apply_patch", serde_json::json!({"command": patch("Add File: new.md"), "workdir": "/tmp"})),
            ("apply_patch", serde_json::json!({"command": patch("Add File: new.md")})),
        ],
    );
}

/// Red team 57 (X56): `"${files[-1]}"` of an array one glob filled is one of the glob's names
/// (or an error where it gave none), as `"${files[2]}"` is.
#[test]
fn a_negative_subscript_of_a_globbed_array_is_one_of_its_names() {
    check_common::assert_all_with(POLICY, "allow", &["files=(src/*.rs); cat \"${files[-1]}\""]);
    check_common::assert_all_with(
        POLICY,
        "ask",
        &["files=(/etc/*); cat \"${files[-1]}\"", "files=(src/*.rs); cat ${files[-1]}"],
    );
}

/// Red team 57 (Y28): a write to a name the text itself makes a link lands in what the link
/// leads to, which the edge cannot see before the link exists.
#[test]
fn a_write_through_a_link_the_text_makes_is_a_write_of_its_target() {
    let ws = check_common::red_team_workspace(false);
    let scratch = tempfile::tempdir().unwrap();
    check_common::write_file(scratch.path(), ".env", "K=v\n");
    check_common::write_file(scratch.path(), "docs/a.md", "# a\n");
    check_common::bash_stdout(scratch.path(), "ln -s ../.env docs/e.md && echo X=1 > docs/e.md");
    assert_eq!(std::fs::read_to_string(scratch.path().join(".env")).unwrap(), "X=1\n", "bash wrote .env");
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "ln -s ../.env docs/e.md && echo X=1 > docs/e.md",
            "ln .env docs/e.md; echo X >> docs/e.md",
            "ln -sf ../Cargo.toml docs && tee docs/Cargo.toml < src/a.rs",
            "cd docs && ln -s ../.env e.md && cd .. && echo x > docs/e.md",
            "ln -rs .env docs/e.md; sed -i s/a/b/ docs/e.md",
            "ln -s -t docs ../Cargo.toml; echo x > docs/Cargo.toml",
        ],
    );
}

/// Red team 58 (Z28-Z34): an operand that may vanish (an empty `$x` or `$(...)`, a glob under
/// nullglob) moves which word uniq and xxd write; `mkdir -p` makes the directories a `..`
/// climbs back from.
#[test]
fn an_operand_that_may_vanish_moves_the_file_written() {
    let scratch = tempfile::tempdir().unwrap();
    check_common::write_file(scratch.path(), "a", "x\n");
    check_common::bash_stdout(scratch.path(), "uniq $nothing a out; mkdir -p made/../b");
    assert!(scratch.path().join("out").exists() && scratch.path().join("made").is_dir(), "bash wrote both");
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "xxd $(true) docs/a.md .env.local",
            "shopt -s nullglob; uniq docs/nomatch* docs/a.md Cargo.toml",
            "uniq $nothing docs/a.md Cargo.toml",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "ask",
        &["mkdir -p src.md/../docs/z.md", "mkdir -p node_modules/.bin/../../docs/z.md && npm test"],
    );
}
