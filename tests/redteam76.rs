//! The red teams of the twenty-seventh session ("red team 76" in the code's comments, and the
//! cases left open by round 75 this session fixed). Each regression goes through the real
//! binary (`gate check --json`); where the answer rests on what bash or a program does, bash
//! is asked.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

/// Left by red team 75 (B B17-B21, A A46, A' A03-A04: asked where a deny was expected): a
/// program name or write target computed from the call's own constants by programs gate does
/// not compute (`expr`, `xxd -r`, awk's `printf`, `jq -n`, a regex `sed`, `date`). What runs
/// is fixed by the text; a deny rule could match it, so the call is denied. A variable, a
/// file or a program outside the short list of filters keeps it asked.
#[test]
fn names_computed_from_constants() {
    let ws = check_common::red_team_workspace(true);
    for (command, spelled) in [
        ("expr substr xrmx 2 2", "rm"),
        ("xxd -r -p <<< 726d", "rm"),
        ("awk 'BEGIN{printf \"%s%s\", \"r\", \"m\"}'", "rm"),
        ("sed 's/l./rm/' <<< ls", "rm"),
        ("jq -rn '\".en\"+\"v\"'", ".env"),
    ] {
        assert_eq!(check_common::bash_stdout(ws.path(), command).trim(), spelled, "{command}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &[
            "$(expr substr xrmx 2 2) -f src/a.rs",
            "$(xxd -r -p <<< 726d) -f src/a.rs",
            "$(awk 'BEGIN{printf \"%s%s\", \"r\", \"m\"}') -f src/a.rs",
            "$(sed 's/l./rm/' <<< ls) docs/a.md",
            "$(date +%C | sed s/26/ls/ | sed s/20/rm/) -f docs/a.md",
            "ls > \"$(jq -rn '\".en\"+\"v\"')\"",
            "ls > \"$(expr substr x.envx 2 4)\"",
            // awk's and jq's string concatenation in text that runs unseen.
            "awk 'BEGIN{system(\"r\" \"m -f y\")}'",
            "awk 'BEGIN{print \"x\" > \"Cargo\" \".toml\"}'",
            "$(python3 -c 'print(\"r\" + \"m\")') -f src/a.rs",
        ],
    );
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &[
            "$(which python3) -V",
            "$(cat cmd.txt) -f src/a.rs",
            "x=726d; $(xxd -r -p <<< $x) -f src/a.rs",
            "ls > \"$(mktemp)\"",
        ],
    );
}

/// Left by red team 75 (A' A06-A09): what `printf` with escapes pipes into a filter is
/// computed with its NUL bytes, which sed and tr keep and rev stops a line at; bash drops
/// them from the substitution's output afterwards. `$(printf 'vne\0tnirp' | rev)` is `env`,
/// not rm: asked as `env cat /etc/passwd`, not denied.
#[test]
fn nul_bytes_through_filters() {
    let ws = check_common::red_team_workspace(true);
    for (command, spelled) in [
        ("printf 'vne\\0tnirp' | rev", "env"),
        ("printf 'en\\0v' | sed s/env/printenv/ | tr -d '\\0'", "env"),
        ("printf 'r\\0m' | sed s/rm/ls/ | tr -d '\\0'", "rm"),
    ] {
        assert_eq!(check_common::bash_stdout(ws.path(), command).trim(), spelled, "{command}");
    }
    check_common::assert_in_dir(
        ws.path(),
        "ask",
        &["$(printf 'vne\\0tnirp' | rev) cat /etc/passwd", "$(printf 'en\\0v' | sed s/env/printenv/) ls /etc"],
    );
    check_common::assert_in_dir(
        ws.path(),
        "deny",
        &["$(printf 'r\\0m' | sed s/rm/ls/) -f docs/a.md", "$(printf 'mr\\0\\n' | rev) -f docs/a.md"],
    );
}
