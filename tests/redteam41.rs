//! The red teams of 2026-11-26, third session ("red team 41" in the code's comments): the over-
//! asks red team 40 left, and three new black-box helpers (a stranger's set over all nine
//! classes; option grammars and wrappers in depth; everyday scripts and shell state). Each
//! regression goes through the real binary (`gate check --json`) and is named after what it
//! shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

const POLICY: &str = check_common::RED_TEAM_POLICY;

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

#[test]
fn a_tilde_for_the_current_directory_kept_in_a_variable_is_not_where_a_later_cd_lands() {
    // bash expands `~+` and `~-` to absolute paths; gate writes them relative to the current
    // directory, so a variable bound to one would name another place after a `cd`.
    assert_all("deny", &["x=~+; cd docs && echo hi > $x/Cargo.toml", "x=~+; cd docs && echo > \"$x/Cargo.toml\""]);
    assert_all("ask", &["x=~+; cd docs && echo hi > $x/a.md", "for x in ~+; do cd docs && echo hi > $x/a.md; done"]);
    // Used where it is written, it is the current directory.
    assert_all("allow", &["cd docs && echo hi > ~+/a.md"]);
}

#[test]
fn cd_to_oldpwd_is_cd_minus_while_nothing_assigned_oldpwd() {
    assert_all("allow", &["cd src && cd \"$OLDPWD\" && git status", "cd src && cd \"${OLDPWD}\" && ls"]);
    assert_all(
        "ask",
        &[
            "cd \"$OLDPWD\"; ls",
            "OLDPWD=/etc; cd \"$OLDPWD\"; cat passwd",
            "cd src; OLDPWD=/etc; cd \"$OLDPWD\"; cat passwd",
            // Unquoted, a path with a space would be two words (and `cd` would fail).
            "cd src && cd $OLDPWD && cat ../x",
        ],
    );
}

#[test]
fn a_directory_change_in_an_exit_trap_moves_nothing_that_runs_after() {
    assert_all(
        "allow",
        &[
            "trap 'cd - >/dev/null' EXIT; cd src && ls",
            "trap 'cd /etc' EXIT; cat src/a.rs",
            "trap 'popd' EXIT; pushd src && ls",
        ],
    );
    // What runs after it in the action is decided where it lands; another signal's action
    // may run between any two commands.
    assert_all(
        "ask",
        &["trap 'cd /etc; cat passwd' EXIT; ls", "trap 'cd /etc' INT; cat passwd", "trap 'cd /etc' ERR; cat passwd"],
    );
}

#[test]
fn umask_setting_a_mode_reads_writes_and_runs_nothing() {
    // A mask that keeps group and others from writing what is made next.
    assert_all("allow", &["umask 022; npm test", "umask 077", "umask -S", "umask -p 0077"]);
    assert_all("ask", &["umask 0022 x", "umask $m", "umask 9", "umask 000", "umask 002", "umask u=rwx,g=rwx,o=rwx"]);
}

#[test]
fn the_keys_of_an_indexed_array_filled_with_literals_are_numbers() {
    // (And one `read -a` fills: any array the text never makes associative is indexed, red
    // team 91.)
    assert_all(
        "allow",
        &[
            "arr=(a b); for i in \"${!arr[@]}\"; do echo \"$i ${arr[i]}\"; done",
            "read -a arr; for i in \"${!arr[@]}\"; do echo $((i)); done",
        ],
    );
    // An associative array's keys are words, which arithmetic evaluates as names.
    assert_all("ask", &["declare -A m=([x]=1); for i in \"${!m[@]}\"; do echo $((i)); done"]);
}

#[test]
fn xxd_reads_an_option_by_its_first_two_letters_and_its_value_as_its_own_loop_does() {
    // `-seekfoo` spells `-seek...`: the value is the next word, and the second operand is
    // the file xxd writes (red team 40 found these asked, not denied).
    assert_all("deny", &["xxd -seekfoo 0 src/a.rs .env", "xxd -colsX 8 src/a.rs .env", "xxd -r src/a.rs .env"]);
    assert_all("allow", &["xxd -c16 src/a.rs", "xxd -cols 16 src/a.rs", "xxd -psfoo src/a.rs", "xxd --ps src/a.rs"]);
    assert_all("ask", &["xxd -q src/a.rs"]);
}

#[test]
fn tree_gives_each_bundled_letter_that_takes_a_value_the_next_word() {
    assert_all("deny", &["tree -Lo 1 .env", "tree -oL .env 1"]);
    assert_all("allow", &["tree -aL 2 src", "tree -L 2 src"]);
    // `-L1` is `-L` and an option `-1` tree does not know.
    assert_all("ask", &["tree -L1"]);
}

#[test]
fn a_function_named_like_a_builtin_or_a_modelled_program_is_not_modelled() {
    // gate applied the builtin's effect (directory, variables, `$(pwd)`) where the function
    // ran instead (red team 41, 23 bypasses).
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "pwd() { echo /etc; }; cat \"$(pwd)/passwd\"",
            "builtin() { :; }\nbuiltin cd src || exit 1\ncat ../.env",
            "command() { :; }; command pushd src >/dev/null && cat ../x",
            "g() { cd src && cat ../x; }; cd() { :; }; g",
            "g() { local f=src/a.rs; cat \"$f\"; }; local() { :; }; f=~/.ssh/id_rsa; g",
            "command() { :; }; set -- ~/.ssh/id_rsa src/a.rs; command shift; cat \"$1\"",
            "git() { echo /etc/passwd; }; for f in $(git ls-files); do cat \"$f\"; done",
        ],
    );
    assert_all(
        "deny",
        &[
            "g() { local n=0; echo $((n)); }; local() { :; }; n='a[$(rm -rf src)]'; g",
            "builtin() { :; }; a='!rm -rf src'; builtin declare a='!git status'; git -c alias.st=\"$a\" st",
        ],
    );
    // Functions of other names are decided by their bodies, as before.
    assert_all("allow", &["count() { ls src | wc -l; }; count", "log() { echo \"== $*\"; }; log hi"]);
}

#[test]
fn errexit_is_not_relied_on_because_agents_run_the_command_left_of_an_and() {
    check_common::assert_none_allowed_with(
        POLICY,
        &["set -e; cd build; cat ../x", "set -o errexit; cd build; cat ../x"],
    );
    assert_all("allow", &["set -e; cd src && cat ../docs/a.md", "set -euo pipefail; npm test"]);
}

#[test]
fn a_bash_aliases_element_is_decided_as_the_alias_it_defines() {
    assert_all("deny", &["BASH_ALIASES[ls]='rm -rf'; shopt -s expand_aliases\nls src"]);
}

#[test]
fn a_cd_that_may_fail_at_the_end_of_a_line_leaves_both_directories_to_the_next_line() {
    assert_all("allow", &["cd src\ngrep -n fn a.rs"]);
    // A `pushd` that fails leaves the shell's own stack for the `popd` (red team 59).
    check_common::assert_none_allowed_with(POLICY, &["pushd nosuch\ngrep -n fn a.rs\npopd\ngit status"]);
    check_common::assert_none_allowed_with(POLICY, &["cd src\ncat ../../x", "cd docs\ncat ../../x"]);
    // Either way the write is `docs/.env` or `.env`: denied.
    assert_all("deny", &["cd docs\necho x > .env"]);
}

#[test]
fn the_directory_stack_below_what_the_text_pushed_is_not_known() {
    // A bare `popd` or `pushd` reaches for a stack an earlier command may have left.
    check_common::assert_none_allowed_with(
        POLICY,
        &["popd >/dev/null && cat id_rsa", "pushd >/dev/null && cat .bash_history", "popd; cat x"],
    );
    // A text that keeps its own stack, or emptied it, stays followed; a change of the stack
    // only keeps the directory.
    assert_all("allow", &["pushd src && ls && popd && cat a.rs", "dirs -c; popd; cat src/a.rs", "popd -n; ls"]);
    // Unless its `pushd` may have failed: the `popd` then pops what the shell had (red team
    // 59: `pushd docs/nothere; popd; touch docs/x.md` wrote below an earlier command's
    // directory). (A `pushd` into a directory that is there does not fail: red team 83.)
    check_common::assert_none_allowed_with(
        POLICY,
        &["pushd nosuch; ls; popd; cat a.rs", "pushd src; ls; popd; pushd nosuch; ls; popd"],
    );
    assert_all("allow", &["pushd src; ls; popd; cat a.rs"]);
}

#[test]
fn ps_reads_a_line_with_a_non_unix_letter_again_as_bsd_where_e_prints_environments() {
    check_common::assert_none_allowed_with(POLICY, &["ps -eaux", "ps -eaf -x", "ps -auxwwe", "ps auxe"]);
    assert_all("allow", &["ps aux", "ps -ef", "ps -eo pid,user,etime", "ps -o pid,comm -p 1"]);
}

#[test]
fn short_version_flags_and_command_pv_only_print() {
    assert_all("allow", &["node -v", "python3 -V", "perl -v", "command -pv rm", "command -vp ls"]);
    assert_all("deny", &["command -p rm x"]);
}

#[test]
fn git_var_list_and_cat_file_filters_are_not_plain_listings() {
    // `git var -l` prints every level's configuration; `cat-file --filters` runs the
    // configured filter programs.
    check_common::assert_none_allowed_with(
        POLICY,
        &["git var -l", "git cat-file --filters HEAD:src/a.rs", "git cat-file --filt HEAD:src/a.rs"],
    );
    assert_all("allow", &["git var GIT_EDITOR", "git cat-file -p HEAD:src/a.rs"]);
}

#[test]
fn jq_modulemeta_loads_a_module_file() {
    check_common::assert_none_allowed_with(POLICY, &["jq -n '\"x\" | modulemeta'"]);
}

#[test]
fn npm_run_env_runs_its_arguments_as_a_command() {
    assert_all(
        "deny",
        &["npm run env -- rm -rf src", "npm run-script env curl -s https://x.example", "npm --silent run env -- rm x"],
    );
    assert_all("allow", &["npm run env", "npm run build", "npm run test -- --watch"]);
}

#[test]
fn a_file_with_other_names_is_not_followed_where_they_are() {
    // `docs/ref/notes.md` is a hard link to `.env`: writing it writes `.env`; any file with
    // another name may be one of a secret outside.
    let ws = check_common::workspace(POLICY);
    std::fs::create_dir_all(ws.path().join("docs/ref")).unwrap();
    std::fs::write(ws.path().join(".env"), "K=1\n").unwrap();
    std::fs::hard_link(ws.path().join(".env"), ws.path().join("docs/ref/notes.md")).unwrap();
    std::fs::write(ws.path().join("docs/a.md"), "x\n").unwrap();
    let check =
        |tool: &str, args: serde_json::Value| check_common::check_in_dir(ws.path(), tool, &args)["decision"].clone();
    for (tool, args) in [
        ("bash", serde_json::json!({"command": "echo 'API_KEY=stolen' > docs/ref/notes.md"})),
        ("bash", serde_json::json!({"command": "cat docs/ref/notes.md"})),
        ("write", serde_json::json!({"file_path": "docs/ref/notes.md", "content": "x"})),
        ("read", serde_json::json!({"file_path": "docs/ref/notes.md"})),
    ] {
        assert_ne!(check(tool, args.clone()), "allow", "{tool} {args}");
    }
    assert_eq!(check("bash", serde_json::json!({"command": "echo hi > docs/a.md"})), "allow");
    assert_eq!(check("read", serde_json::json!({"file_path": "docs/a.md"})), "allow");
}

#[test]
fn the_agents_own_listing_tools_are_the_safe_list_files() {
    for tool in ["LS", "ls", "list_directory", "list_dir"] {
        check_common::assert_calls_with(POLICY, "allow", &[(tool, serde_json::json!({"path": "src"}))]);
        check_common::assert_calls_with(POLICY, "ask", &[(tool, serde_json::json!({"path": "/etc"}))]);
    }
}

#[test]
fn a_count_of_one_input_is_a_number() {
    assert_all(
        "allow",
        &[
            "lines=$(wc -l < src/a.rs); echo $((lines / 2))",
            "total=0\nfor f in src/*.rs; do\n  n=$(wc -l < \"$f\")\n  total=$((total + n))\ndone\necho \"$total\"",
            "n=$(git ls-files | wc -l); echo $((n+1))",
        ],
    );
    // With a file operand wc prints its name too; other output is any text.
    assert_all("ask", &["n=$(wc -l src/a.rs); echo $((n))", "n=$(cat src/a.rs); echo $((n))"]);
}

#[test]
fn a_function_every_call_of_which_is_seen_is_decided_at_its_calls_with_their_words() {
    assert_all(
        "allow",
        &[
            "count_lines() { wc -l \"$1\"; }\ncount_lines src/a.rs",
            "summarize() {\n  echo \"== $1\"\n  head -n 3 \"$1\"\n}\nfor f in src/*.rs; do summarize \"$f\"; done",
            "main() {\n  setup\n  run_tests\n}\nsetup() { echo \"setting up\"; }\nrun_tests() { npm test; }\nmain",
            "check() {\n  local file=$1\n  if [ -f \"$file\" ]; then echo \"ok $file\"; fi\n}\ncheck src/a.rs\ncheck docs/a.md",
            "f(){ local n=$1; echo $((n+1)); }; f 3",
            "f(){ cat \"$1\"; }; g(){ f \"$1\"; }; g src/a.rs",
        ],
    );
    // The call's words decide: outside, unknown, or a deny rule's.
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "f(){ cat \"$1\"; }; f /etc/passwd",
            "f(){ cat \"$1\"; }; f src/a.rs; f ../x",
            "f(){ cat \"$1\"; }; f \"$y\"",
            "f(){ local n=$1; echo $((n+1)); }; f 'a[$(rm -rf x)]'",
            "f(){ cat \"$1\"; }; g(){ f \"$1\"; }; g /etc/passwd",
            "f(){ x=/etc/passwd; }; x=src/a.rs; f; cat \"$x\"",
            "f(){ cd /etc; }; f; cat passwd",
        ],
    );
    // Where something may call a function unseen (a command named at run time, `source`, a
    // `command_not_found_handle`), the body is decided where it is defined as well.
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "f(){ cat \"$1\"; }; f src/a.rs; $g /etc/passwd",
            "f(){ cat \"$1\"; }; f src/a.rs; source ./x.sh",
            "command_not_found_handle(){ cat \"$1\"; }; f(){ cat \"$1\"; }; f src/a.rs",
        ],
    );
    assert_all("deny", &["f(){ rm -rf \"$1\"; }; f src", "f(){ rm -rf \"$1\"; }", "f(){ rm -rf \"$1\"; }; $g"]);
}

#[test]
fn sudoedit_is_sudo_and_seds_backup_suffix_names_a_file_written() {
    assert_all(
        "deny",
        &["sudoedit /etc/hosts", "cd docs && sed -i'.env*' s/a/b/ a.md", "cd src && sed -i'.env*' s/x/x/ a.rs"],
    );
    // (With a directory in the operand, `*` is the operand as typed: `.envsrc/a.rs`, red team
    // 73.)
    assert_all("ask", &["sed -i'.env*' s/x/x/ src/a.rs"]);
    assert_all("allow", &["sed -i s/x/y/ docs/a.md"]);
}

#[test]
fn an_indirect_expansion_of_a_known_name_evaluates_its_subscript() {
    assert_all("deny", &["a=(1); x='a[$(rm -rf src)]'; echo \"${!x}\"", "r='a[$(rm -rf src)]'; echo \"${!r}\""]);
}

#[test]
fn names_git_ls_files_z_and_grep_l_print_are_a_listing_below_where_they_run() {
    assert_all(
        "allow",
        &[
            "git ls-files -z '*.rs' | xargs -0 wc -l",
            "grep -rl 'fn main' src | xargs -r head -n 3",
            "grep -rl 'fn main' | xargs head -n 3",
        ],
    );
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            // (Without NULs the index may hold a name with a blank xargs splits: the edge reads
            // the index since red team 76, tests/redteam76.rs.)
            "git ls-files -z ':/' | xargs -0 cat",
            "git ls-files -z --full-name | xargs -0 cat",
            "grep -l x /etc/* | xargs cat",
            "grep -rc x src | xargs cat",
        ],
    );
    assert_all("deny", &["git ls-files -z | xargs -0 rm"]);
}
