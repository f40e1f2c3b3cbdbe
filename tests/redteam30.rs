//! The red teams of 2026-11-26 (issue 15; "red team 30" in the code's comments): two black-box
//! helpers, one on option grammars, file options and git, one on arithmetic, stored code,
//! every path of every tool call and shell state. Each regression goes through the real binary
//! (`gate check --json`) and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use gate::policy::Verdict;
use proptest::prelude::*;
use serde_json::{json, Value};

const POLICY: &str = "version: 1\npermissions:\n  allow:\n    - Bash(npm run *)\n    - Bash(cargo test *)\n    - Bash(git log *)\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Write(**/.env*)\" ]\n";

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

fn assert_calls(expect: &str, calls: &[(&str, Value)]) {
    check_common::assert_calls_with(POLICY, expect, calls)
}

#[test]
fn an_interactive_shell_fed_by_a_here_string_runs_its_rc_files_first() {
    assert_all(
        "ask",
        &[
            "bash -i <<< 'echo hi'",
            "bash -is <<< 'git status'",
            "bash -i <<'EOF'\ngit status\nEOF",
            "bash -li <<< 'ls'",
        ],
    );
    assert_all("deny", &["bash -i <<< 'rm x'"]);
    // A login shell's profile files are the user's own, as the shared corpus has it.
    assert_all("allow", &["bash -lc 'git status'", "bash <<< 'git status'"]);
}

#[test]
fn a_shell_tools_fields_gate_does_not_model_are_not_allowed() {
    assert_calls(
        "ask",
        &[
            ("Bash", json!({ "command": "cat passwd", "working_directory": "/etc" })),
            ("Bash", json!({ "command": "cat passwd", "workingDirectory": "/etc" })),
            ("Bash", json!({ "command": "cat passwd", "cd": "/etc" })),
            ("Bash", json!({ "command": "ls", "login": true })),
            ("Bash", json!({ "command": "ls", "env": { "LD_PRELOAD": "./evil.so" } })),
            ("Bash", json!({ "command": "ls", "env": { "BASH_ENV": "./e.sh" } })),
            ("Bash", json!({ "command": "ls", "env": { "A": ["x"] } })),
        ],
    );
    // A value that runs, holding a deny rule's words.
    assert_calls(
        "deny",
        &[("Bash", json!({ "command": "git status", "env": { "GIT_CONFIG_PARAMETERS": "'core.fsmonitor=rm -f x'" } }))],
    );
    // What the agents send beside the command changes nothing; plain variables are exports.
    assert_calls(
        "allow",
        &[
            (
                "Bash",
                json!({ "command": "ls", "description": "list", "timeout": 5, "run_in_background": false,
                        "dangerouslyDisableSandbox": false }),
            ),
            ("Bash", json!({ "command": "ls", "env": { "FOO": "bar" } })),
        ],
    );
    assert_calls("deny", &[("Bash", json!({ "command": "$X -f a", "env": { "X": "rm" } }))]);
}

#[test]
fn home_and_other_variables_in_a_tool_path_are_not_a_workspace_file() {
    assert_calls(
        "ask",
        &[
            ("Read", json!({ "file_path": "$HOME/.ssh/id_rsa" })),
            ("Read", json!({ "file_path": "${HOME}/.ssh/id_rsa" })),
            ("Read", json!({ "file_path": "${HOME:-/root}/.ssh/id_rsa" })),
            ("Read", json!({ "file_path": "$XDG_CONFIG_HOME/gh/hosts.yml" })),
            ("Glob", json!({ "pattern": "$HOME/.ssh/*" })),
            ("get_file_info", json!({ "path": "$HOME/.ssh/id_rsa" })),
            ("list_files", json!({ "path": "${HOME}" })),
            ("Bash", json!({ "command": "cat .ssh/id_rsa", "cwd": "$HOME" })),
            ("Bash", json!({ "command": "cat .ssh/id_rsa", "cwd": "$(echo ~)" })),
        ],
    );
    assert_calls(
        "allow",
        &[("Read", json!({ "file_path": "src/a.rs" })), ("Grep", json!({ "pattern": "$x", "path": "src" }))],
    );
}

#[test]
fn a_tool_path_that_starts_with_a_dash_may_be_an_option() {
    assert_calls(
        "ask",
        &[
            ("Grep", json!({ "pattern": "x", "path": "--pre=sh" })),
            ("Read", json!({ "file_path": "-rf" })),
            ("list_files", json!({ "path": "--exec=sh" })),
        ],
    );
}

#[test]
fn response_files_lists_quotes_and_inline_config_handed_to_a_runner_are_paths() {
    assert_all(
        "ask",
        &[
            "npm run test -- @/etc/passwd",
            "npm run test -- --config=@/etc/passwd",
            "cargo test -- @/etc/shadow",
            "npm run test -- --paths='src;/etc/shadow'",
            "npm run test -- --paths 'src /etc/shadow'",
            "npm run test -- --opt=\"'/etc/shadow'\"",
            "npm run test -- --config '{\"coverageDirectory\":\"/tmp/x\"}'",
            "npm run test -- '[\"/etc/shadow\"]'",
        ],
    );
    assert_all("deny", &["npm run build -- @.env", "npm run build -- '--out={\"f\":\".env\"}'"]);
    assert_all(
        "allow",
        &["npm run test -- --grep 'user@example.com'", "npm run test -- @src/a.rs", "cargo test -- --nocapture"],
    );
}

#[test]
fn a_plain_locale_and_git_traces_to_stderr_are_harmless_settings() {
    assert_all(
        "allow",
        &[
            "env LC_ALL=C sort -u src/a.rs",
            "env LANG=en_US.UTF-8 ls",
            "export LC_ALL=C; ls",
            "GIT_TRACE=1 git status",
            "env GIT_TRACE_PACKET=true git status",
            "export GIT_TRACE=2; git status",
        ],
    );
    assert_all(
        "ask",
        &[
            "GIT_TRACE=/tmp/x git status",
            "env GIT_TRACE=/tmp/x git status",
            "export GIT_TRACE=.git/hooks/x; git status",
            "env LC_ALL=zh_TW.BIG5 bash -c ls",
            "export LANG=zh_CN.GBK; ls",
            "declare -n LANG=C",
        ],
    );
}

#[test]
fn a_known_variable_inside_a_longer_word_is_its_value() {
    assert_all("deny", &["c=r; ${c}m -f x", "x=r; eval \"${x}m -f x\"", "p=/bin; \"$p/rm\" x", "c=\" rm\"; ${c} -f x"]);
    assert_all("allow", &["d=src; cat \"$d/a.rs\"", "d=src; cat $d/a.rs", "f(){ local d=src; cat \"$d/a.rs\"; }; f"]);
    assert_all(
        "ask",
        &[
            "d=/etc; cat \"$d/passwd\"",
            "d=src; if true; then d=/etc; fi; cat \"$d/passwd\"",
            "d=src; read d; cat \"$d/passwd\"",
            // Unquoted, a value with a blank or a glob character is split or globbed.
            "d='/etc/p*'; cat x$d",
        ],
    );
}

#[test]
fn known_positional_parameters_expand_in_quoted_all_parameters() {
    assert_all("deny", &["set -- rm -f x; \"$@\"", "f(){ \"$@\"; }; f rm -f x", "g(){ \"$1\" \"$2\"; }; g rm x"]);
    // (`shift` of known parameters leaves the rest: here none, so nothing runs.)
    assert_all("allow", &["set -- ls src; \"$@\"", "set -- ls; shift; \"$@\""]);
    // A `set --` that may not have run, or parameters changed since, are not known.
    assert_all(
        "deny",
        &[
            "set -- rm x; if true; then set -- ls; fi; \"$@\"",
            "set -- rm x; true && set -- ls; \"$@\"",
            "set -- rm x; for i in 1; do set -- ls; done; \"$@\"",
            "set -- rm x; case a in a) set -- ls ;; esac; \"$@\"",
            "f(){ set -- rm x; }; set -- ls; f; \"$@\"",
            "set -- rm x; eval \"set -- ls\"; \"$@\"",
        ],
    );
    // Every call seen (red team 41): the body is decided at the call, with its words.
    assert_all("allow", &["f(){ \"$@\"; }; f ls src"]);
    check_common::assert_none_allowed_with(POLICY, &["f(){ \"$@\"; }; f ls src; $g"]);
}

#[test]
fn a_shell_reading_what_echo_printf_or_cat_writes_runs_that_text() {
    assert_all(
        "deny",
        &[
            "cat <<'EOF' | sh\nrm -f x\nEOF",
            "echo 'rm -f x' | sh",
            "printf 'rm x\\n' | bash",
            "echo 'rm x' | cat | bash -s",
            "echo 'rm x' | source /dev/stdin",
            "cat <<< 'rm x' | sh",
        ],
    );
    assert_all("allow", &["echo ls | sh", "printf 'ls\\n' | bash", "echo hi | grep h"]);
    // A function named `echo` replaces the builtin gate models (red team 41): not modelled,
    // and the text holds a deny rule's words: denied.
    assert_all("deny", &["echo() { printf 'rm x'; }; echo ls | sh"]);
    // Output gate does not know exactly stays unseen.
    assert_all("ask", &["echo -e 'ls' | sh", "echo 'l\\s' | sh", "cat src/a.rs | sh", "echo ls | sh < src/a.rs"]);
    // Their text holds a deny rule's words: what runs unseen could match it.
    assert_all("deny", &["{ echo 'rm x'; echo ls; } | sh"]);
}

#[test]
fn env_takes_every_word_with_an_equals_sign_as_an_assignment_and_bash_func_as_code() {
    assert_all("deny", &["env 'BASH_FUNC_ls%%=() { rm -f x; }' bash -c ls", "env a/b=c rm x"]);
    assert_all("ask", &["env 'BASH_FUNC_ls%%=() { echo; }' bash -c ls"]);
    assert_all("allow", &["env X=1 ls"]);
}

#[test]
fn a_script_on_standard_input_with_a_command_that_reads_it_is_not_modelled() {
    assert_all(
        "ask",
        &[
            "printf 'read x\\necho \"\\nls\\n\"\\n' | bash",
            "printf 'head -c 7 >/dev/null\\necho \"\\nls\\n\"\\n' | bash",
            "bash <<'EOF'\nmapfile -n1 a\necho \"\nls\n\"\nEOF",
        ],
    );
    // Their text holds a deny rule's words: what runs unseen could match it.
    assert_all(
        "deny",
        &["printf 'read x\\n: <<\"E\"\\nrm -f x\\nE\\n' | bash", "bash <<'EOF'\nread x\n: <<\"E\"\nrm -f x\nE\nEOF"],
    );
    // One line is read whole before it runs; lines of commands that never read stdin are safe.
    assert_all("allow", &["bash <<< 'read x; ls'", "bash <<'EOF'\necho a\nls src\nEOF", "echo ls | sh"]);
}

#[test]
fn a_function_defined_in_eval_shadows_the_builtin_that_feeds_a_shell() {
    // (Asked, or denied since red team 41 made a function named like a builtin unmodelled.)
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "eval 'echo(){ printf \"rm -f x\\n\"; }'; echo ls | sh",
            "eval 'function echo { printf \"rm -f x\\n\"; }'; echo ls | bash -s",
            "eval 'printf(){ builtin echo rm -f x; }'; printf 'ls\\n' | sh",
            "eval 'cat(){ builtin echo rm -f x; }'; cat <<'EOF' | bash\nls\nEOF",
        ],
    );
}

#[test]
fn a_set_or_shift_that_may_be_skipped_leaves_the_parameters_unknown() {
    assert_all(
        "deny",
        &[
            "set -- rm -f x; set -- ls <x.txt; \"$@\"",
            "set -- rm -f x; set -- ls <x.txt || true; \"$@\"",
            "set -- rm -f x; { set -- ls; } <x.txt; \"$@\"",
            "set -- rm -f x; set -- ls 3<x.txt; \"$@\"",
            "set -- rm x; set $X; \"$@\"",
        ],
    );
    assert_all(
        "deny",
        &[
            "set -x rm -f x; \"$@\"",
            "set -- x rm -f x; shift; \"$@\"",
            "set -- rm x; shift 5; \"$@\"",
            "set -- rm x; set -o errexit; \"$@\"",
        ],
    );
    assert_all("allow", &["set -- ls; set -e; \"$@\"", "set -- x ls src; shift; \"$@\""]);
}

#[test]
fn files_that_git_config_history_and_gawk_inplace_write_and_remote_programs_git_runs() {
    assert_all(
        "deny",
        &[
            "git config -f .env a.b c",
            "git config --file=.env a.b c",
            "history -w .env",
            "history -a .env",
            "awk -i inplace '{print}' .env",
            "gawk -i inplace -f x.awk .env",
            "git ls-remote --upload-pack='rm -f x' .",
            "git clone -u 'rm x' . y",
            "git fetch --upload-pack='rm x' origin",
            "git push --receive-pack='rm x' origin",
        ],
    );
    assert_all("allow", &["git config -f .env --get a.b", "awk '{print}' src/a.rs"]);
}

#[test]
fn standard_streams_help_and_worktree_expiry_are_not_asked() {
    assert_all(
        "allow",
        &[
            "sed -n 'w /dev/stdout' src/a.rs",
            "sed 's/a/b/w /dev/stderr' src/a.rs",
            "awk '{print > \"/dev/stderr\"}' src/a.rs",
            "sed --help",
            "sort --help",
            "git worktree list --expire=now",
            "git worktree list --expire 2.weeks.ago",
        ],
    );
    assert_all("ask", &["sed -n 'w /dev/stdout.x' src/a.rs", "git worktree list x --expire"]);
    assert_all("deny", &["awk '{print > \"/dev/stdout\"; print > \".env\"}' src/a.rs"]);
    assert_calls("allow", &[("Bash", json!({ "command": "ls", "cwd": "src", "workdir": "src/" }))]);
}

/// In this process, against [`POLICY`], in a workspace holding `src/a.rs`.
fn decide(cmd: &str) -> Verdict {
    let dir = check_common::workspace(POLICY);
    check_common::decide_command(&check_common::policy_at(POLICY, dir.path()), cmd)
}

/// How a shell can be given the text it runs on its standard input.
const FEEDS: &[&str] = &[
    "echo @T@ | sh",
    "echo @T@ | bash",
    "printf @T@ | bash",
    "bash <<< @T@",
    "sh <<< @T@",
    "echo @T@ | cat | bash -s",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    /// A known variable holding any part of a word (split anywhere, quoted or not) decides as
    /// the word written out: `rm` is denied, a read outside is not allowed, one inside is.
    #[test]
    fn redteam30_a_known_variable_anywhere_in_a_word_decides_as_the_word(
        at in 0usize..=2, quoted in any::<bool>(), braced in any::<bool>(), path in 0usize..3,
    ) {
        let (head, tail) = "rm".split_at(at);
        // (`$vrm` is another variable: unbraced only where nothing follows.)
        let var = if braced || !tail.is_empty() { "${v}" } else { "$v" };
        let word = if quoted { format!("\"{var}{tail}\"") } else { format!("{var}{tail}") };
        let cmd = format!("v={}; {word} -f x", shell_quote_or_empty(head));
        // An empty value unquoted is not taken as known (alone it is no word at all): not
        // allowed all the same.
        if head.is_empty() && !quoted {
            prop_assert_ne!(decide(&cmd), Verdict::Allow, "{}", cmd);
        } else {
            prop_assert_eq!(decide(&cmd), Verdict::Deny, "{}", cmd);
        }
        let (file, expect) = [("src/a.rs", Verdict::Allow), ("/etc/passwd", Verdict::Ask), ("../x", Verdict::Ask)][path];
        let cut = file.len() / 2;
        let (h, t) = file.split_at(cut);
        let var = if braced || !t.is_empty() { "${v}" } else { "$v" };
        let word = if quoted { format!("\"{var}{t}\"") } else { format!("{var}{t}") };
        let cmd = format!("v={}; cat {word}", shell_quote_or_empty(h));
        prop_assert_eq!(decide(&cmd), expect, "{}", cmd);
    }

    /// Whatever feeds a shell its text, a deny rule on a command in it denies, and a text of
    /// allowed commands is allowed.
    #[test]
    fn redteam30_text_fed_to_a_shell_on_its_input_is_decided_as_it_runs(f in 0..FEEDS.len(), deny in any::<bool>()) {
        let text = if deny { "'rm -f x'" } else { "'ls src'" };
        let cmd = FEEDS[f].replace("@T@", text);
        prop_assert_eq!(decide(&cmd), if deny { Verdict::Deny } else { Verdict::Allow }, "{}", cmd);
    }
}

fn shell_quote_or_empty(s: &str) -> String {
    if s.is_empty() {
        "''".into()
    } else {
        check_common::shell_quote(s)
    }
}

#[test]
fn a_tool_field_that_follows_symbolic_links_below_is_not_modelled() {
    assert_calls(
        "ask",
        &[
            ("Grep", json!({ "pattern": "x", "path": "src", "follow": true })),
            ("list_files", json!({ "path": "src", "followSymlinks": true })),
            ("search", json!({ "query": "x", "path": "src", "dereference": true })),
        ],
    );
    assert_calls("allow", &[("Grep", json!({ "pattern": "x", "path": "src", "follow": false }))]);
}

#[test]
fn git_and_date_forms_that_read_the_scripts_input_are_not_trusted() {
    let pad = "#".repeat(5000);
    let cat_file = format!("bash <<'EOF'\ngit cat-file --batch-command\n: <<'E'\n{pad}\nrm -f x\nE\nEOF");
    // The hidden line holds `rm`: what runs unseen could match a deny rule.
    assert_all("deny", &[cat_file.as_str()]);
    let mut asked = Vec::new();
    asked.extend([
        "printf 'date -f -\\necho \"\\nls\\n\"\\n' | bash",
        "printf 'git blame --contents - src/a.rs\\necho \"\\nls\\n\"\\n' | bash",
        "printf 'git name-rev --annotate-stdin\\necho \"\\nls\\n\"\\n' | bash",
        "printf 'git diff --no-index - src/a.rs\\necho \"\\nls\\n\"\\n' | bash",
        "printf 'git grep -f - src\\necho \"\\nls\\n\"\\n' | bash",
    ]);
    assert_all("ask", &asked);
    // git's listings that never read their input, before the last line.
    assert_all("allow", &["bash <<'EOF'\ngit status\ngit log -n 1\nls\nEOF"]);
    assert_all("deny", &["gawk --incl inplace '{print}' .env", "git fetch-pack --upload-pack='rm -f x' ."]);
    assert_ne!(check_common::check_command(POLICY, "git config -lf .env")["decision"], "deny");
}

#[test]
fn a_lower_case_shell_variable_holding_a_path_outside_is_read_by_no_program() {
    assert_all("allow", &["x=/etc; ls src", "d=/etc; declare d=src; cat \"$d/passwd\"", "x=~/.ssh/id_rsa; echo hi"]);
    // Where it is used, or an environment variable a program reads, it is still decided.
    assert_all("ask", &["d=/etc; cat \"$d/passwd\"", "TZ=/etc/x date", "TZ=/etc/x; date"]);
}
