//! The third pair of red teams of the fourteenth session ("red team 52" in the code's
//! comments): a replica of the hidden set (J) and one aimed at where gate's model of
//! bash is more hopeful than bash (K). Each regression goes through the real binary (`gate
//! check --json`), and where it can, bash itself shows the truth.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use proptest::prelude::*;

const POLICY: &str = check_common::RED_TEAM_POLICY;

/// Red team 52 (K28-K38): an error that aborts a line (arithmetic, a read-only variable, a
/// bad subscript, a glob under `failglob`) makes bash skip the rest of that line and go on
/// with the next: a function defined after it on that line does not exist, so the next
/// line's `rm` is the program. bash shows it; gate denies it.
#[test]
fn an_error_that_aborts_a_line_leaves_the_rest_of_it_unrun() {
    let scratch = tempfile::tempdir().unwrap();
    let shown = check_common::bash_stdout(
        scratch.path(),
        ": $((1/0)); echo(){ printf 'function\\n'; }\necho program 2>/dev/null",
    );
    assert_eq!(shown, "program\n");
    let shown =
        check_common::bash_stdout(scratch.path(), "UID=1; echo(){ printf 'function\\n'; }\necho program 2>/dev/null");
    assert_eq!(shown, "program\n");
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            ": $((1/0)); rm(){ echo \"$@\"; }\nrm -f m",
            "UID=1000; rm(){ echo \"$@\"; }\nrm -f m",
            "readonly r=1\nr=2; rm(){ echo \"$@\"; }\nrm m",
            "shopt -s failglob\nls docs/*.txt; rm(){ echo \"$@\"; }\nrm -v m",
            "a[-1]=x; curl(){ echo \"$@\"; }\ncurl https://example.com",
            "n=$((08)); rm(){ echo; }\nrm m",
        ],
    );
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            "EUID=0; cd src || exit\ncat ../README.md",
            "set -- /etc/passwd\n: $((1/0)); set -- src/a.rs\ncat \"$1\"",
            "x=/etc/passwd\na[-1]=x; x=src/a.rs\ncat \"$x\"",
        ],
    );
    // Arithmetic that cannot fail, and read-only names only read, change nothing.
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "n=$(wc -l < src/a.rs); echo $((n / 2)); cd src && cat a.rs",
            "echo \"$UID\"; cd src && cat a.rs",
            "f(){ cat src/a.rs; }; f",
        ],
    );
}

/// Red team 52 (K21-K27): a compound command whose redirection fails is skipped whole, so
/// the functions it defines do not exist.
#[test]
fn functions_a_skipped_group_defines_are_not_surely_defined() {
    let scratch = tempfile::tempdir().unwrap();
    let shown =
        check_common::bash_stdout(scratch.path(), "{ echo(){ printf 'function\\n'; }; } <&9; echo program 2>/dev/null");
    assert_eq!(shown.lines().last(), Some("program"));
    check_common::assert_all_with(
        POLICY,
        "deny",
        &[
            "{ rm(){ echo \"$@\"; }; } <&9; rm -f m",
            "{ rm(){ echo \"$@\"; }; } < nonexist || true; rm -rf src",
            "{ rm(){ echo \"$@\"; }; } < src/*.rs; rm m",
            "time { rm(){ echo \"$@\"; }; } 2>&9; rm m",
            "! { rm(){ echo \"$@\"; }; } <&9; rm m",
        ],
    );
    check_common::assert_all_with(POLICY, "ask", &["{ python3(){ echo \"$@\"; }; } <&9; python3 -c 'print(1)'"]);
}

/// Red team 52 (K39-K49): `~+` is the absolute working directory to bash: a command
/// substitution that computes on it (`dirname ~+`, `$(echo ~+)-old`) is not constant text.
#[test]
fn a_tilde_in_a_command_substitution_is_not_constant_text() {
    check_common::assert_all_with(
        POLICY,
        "ask",
        &[
            "cat \"$(dirname ~+)/x\"",
            "ls \"$(dirname ~)\"",
            "cd \"$(dirname ~+)\" && ls",
            "git -C \"$(dirname ~+)\" status",
            "cat \"$(echo ~+)-old/x\"",
            "ls \"$(printf %s ~+)-old\"",
        ],
    );
    check_common::assert_all_with(POLICY, "allow", &["cat \"$(dirname src/a.rs)/a.rs\"", "cat ~+/src/a.rs"]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]
    /// Any error that aborts a line, before a function that shadows `rm` on that line: the
    /// next line's `rm` is never allowed.
    #[test]
    fn a_function_after_a_line_abort_never_shadows_a_denied_program(
        abort in prop::sample::select(vec![
            ": $((1/0))", ": $((2%0))", "x=$((09))", "UID=0", "EUID=1", "PPID=2", "a[-1]=x", "b[$i]=y",
            "let 'z=1/0'", ": ${unset_name?}", "(( 2**-1 ))",
        ]),
        sep in prop::sample::select(vec!["; ", " && ", " || ", "; true; "]),
    ) {
        let command = format!("{abort}{sep}rm(){{ echo \"$@\"; }}\nrm -f m");
        let d = check_common::check_command(POLICY, &command);
        prop_assert_ne!(&d["decision"], "allow", "{}: {}", command, d);
    }
}

/// Red team 52 (J24, J42, K50): brace sequences are expanded as bash does, in a command's
/// words and in a redirection's target: `{r..r}m` is `rm`, `.{e..e}nv` is `.env`.
#[test]
fn brace_sequences_are_expanded_as_bash_does() {
    let scratch = tempfile::tempdir().unwrap();
    assert_eq!(
        check_common::bash_stdout(scratch.path(), "echo {r..r}m .{e..e}nv {1..3} {a..e..2} {3..1}"),
        "rm .env 1 2 3 a c e 3 2 1\n"
    );
    check_common::assert_all_with(
        POLICY,
        "deny",
        &["{r..r}m -f m", "echo 'TOKEN=x' > .{e..e}nv", "sed -i s/a/b/ {C..C}argo.toml", "echo x >> {C..C}argo.toml"],
    );
    check_common::assert_all_with(
        POLICY,
        "allow",
        &["echo {1..3}", "for i in {1..5}; do echo $i; done", "echo x > docs/{a..a}.md", "head -n 1 src/{a..a}.rs"],
    );
}

/// Red team 52 (J02, J45): options git documents with an optional value (`--batch-check`,
/// `--batch-check=<format>`) take none when bare: the next word is an operand or option.
#[test]
fn git_options_with_an_optional_value_take_none_when_bare() {
    check_common::assert_all_with(
        POLICY,
        "allow",
        &[
            "git rev-list --all --objects | git cat-file --batch-check",
            "git cat-file --batch-all-objects --batch-check",
            "git cat-file --batch-check='%(objectname) %(objecttype)' --batch-all-objects",
            "git rev-list --all --disk-usage",
        ],
    );
}

/// Red team 52 (J41): text the parser refuses still runs in bash; a file in it that a write
/// deny rule holds may be written (`$(case $OS in linux) ...; esac)` then `>> .env`).
#[test]
fn text_gate_cannot_parse_that_names_a_denied_file_is_denied() {
    check_common::assert_all_with(
        POLICY,
        "deny",
        &["ver=$(case \"$OS\" in linux) echo gnu;; esac); echo \"os=$ver\" >> .env"],
    );
}
