//! The red teams of 2026-11-26, fourth session ("red team 42" in the code's comments): the
//! over-asks red team 41 left (loops over a listing, options whose glob only names more of the
//! same option), and three new black-box helpers. Each regression goes through the real binary
//! (`gate check --json`) and is named after what it shows.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod check_common;

use serde_json::json;

const POLICY: &str = "version: 1\npermissions:\n  allow:\n    - Bash(npm test)\n    - Bash(npm run *)\n    - Bash(git status)\n    - { tool: write, when: { file_path: \"docs/**/*.md\" } }\n  deny: [ \"Bash(rm *)\", \"Bash(curl *)\", \"Bash(sudo *)\", \"Write(**/.env*)\", \"Write(Cargo.toml)\", \"Read(**/*.pem)\" ]\n";

fn assert_all(expect: &str, commands: &[&str]) {
    check_common::assert_all_with(POLICY, expect, commands)
}

/// `command` decided in `ws` (a workspace made by `check_common::workspace`).
fn decided_in(ws: &std::path::Path, command: &str) -> serde_json::Value {
    check_common::check_in_dir(ws, "Bash", &json!({ "command": command }))
}

#[test]
fn a_loop_over_a_listing_reads_names_below_its_start_points() {
    // Agents' everyday loops (red team 41 left them asked): each pass's `$f` is a name the
    // listing prints, read as `find ... -exec CMD {} ;`.
    assert_all(
        "allow",
        &[
            "find . -name '*.rs' | while read -r f; do wc -l \"$f\"; done",
            "find src -name '*.rs' -print0 | while IFS= read -r -d '' f; do wc -l \"$f\"; done",
            "git ls-files | while IFS= read -r f; do wc -l \"$f\"; done",
            "git ls-files -z | while IFS= read -r -d '' f; do wc -l \"$f\"; done",
            "for f in $(find src -name '*.rs'); do wc -l \"$f\"; done",
            "for f in $(find src -name '*.rs' | sort); do echo \"== $f\"; head -5 \"$f\"; done",
            "find src -name '*.rs' | sort | head -3 | while read -r f; do cat \"$f\"; done",
            "grep -rl fn src | while read -r f; do wc -l \"$f\"; done",
        ],
    );
    // A deny rule matches what runs; a write or a run of the name is not known.
    assert_all(
        "deny",
        &["find src | while read -r f; do rm \"$f\"; done", "for f in $(find src); do rm -f \"$f\"; done"],
    );
    assert_all(
        "ask",
        &[
            "find src | while read -r f; do echo hi > \"$f\"; done",
            "find src -type f | while read -r f; do bash \"$f\"; done",
            "find src -type f | while read -r f; do \"$f\"; done",
            "find / -name passwd | while read -r f; do cat \"$f\"; done",
            // Not the name whole, or not the listing's names.
            "find src | while read -r f; do cat \"$f.bak\"; done",
            "find src | while read -r f; do cat $f; done",
            "find src -print0 | while read -r f; do cat \"$f\"; done",
            "find src | while read -r -d '' f; do cat \"$f\"; done",
            "find src | while read -r f; do cat \"$f\"; done < names.txt",
            "echo /etc/passwd | while read -r f; do cat \"$f\"; done",
            "find src | { echo /etc/passwd; } | while read -r f; do cat \"$f\"; done",
            "find src | grep -o 'x.*' | while read -r f; do cat \"$f\"; done",
            "for f in $(find src; echo /etc/passwd); do cat \"$f\"; done",
            // (`for f in $(git ls-files)` is held by the index's names now: red team 76,
            // tests/redteam76.rs.)
            "find src | while read -r f g; do cat \"$f\"; done",
            "find src | while read -u 3 f; do cat \"$f\"; done",
        ],
    );
}

#[test]
fn a_loop_over_a_listing_asks_where_a_link_below_leads_out_or_a_name_would_be_cut() {
    let ws = check_common::workspace(POLICY);
    let src = ws.path().join("src");
    std::os::unix::fs::symlink("/etc/passwd", src.join("x.rs")).unwrap();
    for c in [
        "for f in $(find src -name '*.rs'); do wc -l \"$f\"; done",
        "find src -name '*.rs' | while read -r f; do wc -l \"$f\"; done",
    ] {
        let d = decided_in(ws.path(), c);
        assert_eq!(d["decision"], "ask", "{c}: {d}");
        assert!(d["reason"].as_str().unwrap().contains("/etc/passwd"), "{c}: {d}");
    }
    std::fs::remove_file(src.join("x.rs")).unwrap();
    // A blank splits a `for` loop's word (and a glob character expands there); a newline ends
    // a `read` loop's line.
    std::fs::create_dir(src.join("sub")).unwrap();
    std::fs::write(src.join("sub/a b.rs"), "").unwrap();
    let split = "for f in $(find src -name '*.rs'); do wc -l \"$f\"; done";
    let read = "find src -name '*.rs' | while read -r f; do wc -l \"$f\"; done";
    assert_eq!(decided_in(ws.path(), split)["decision"], "ask");
    assert_eq!(decided_in(ws.path(), read)["decision"], "allow");
    std::fs::remove_file(src.join("sub/a b.rs")).unwrap();
    std::fs::write(src.join("sub/a\n..rs"), "").unwrap();
    assert_eq!(decided_in(ws.path(), read)["decision"], "ask");
    std::fs::remove_file(src.join("sub/a\n..rs")).unwrap();
    assert_eq!(decided_in(ws.path(), split)["decision"], "allow");
    assert_eq!(decided_in(ws.path(), read)["decision"], "allow");
}

#[test]
fn a_negated_cd_leaves_the_directory_unknown_to_what_follows() {
    // `! cd x && A`: A runs where the `cd` failed (red team 42 wrote `../notes.md` outside).
    assert_all(
        "ask",
        &[
            "! cd docs/ref/x && echo pwned >> ../notes.md",
            "! cd docs/ref/x || exit; echo p >> ../notes.md",
            "time ! cd docs/ref/x && echo p >> ../notes.md",
            "! pushd docs/ref/x >/dev/null 2>&1 && ls ../../..",
        ],
    );
    assert_all("allow", &["cd docs && echo p >> a.md"]);
}

#[test]
fn only_the_forms_of_seq_and_nproc_that_print_numbers_are_numbers_in_arithmetic() {
    // `nproc --version`, `seq --help` and `seq -s +x+` print words arithmetic evaluates as
    // names (red team 42).
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "nproc='a[$(rm -f m)]'; jobs=$(nproc --version); echo \"using $((jobs + 1)) jobs\"",
            "Usage='a[$(rm -f m)]'; n=$(seq --help); echo $((n + 1))",
            "x='a[$(rm -f m)]'; n=$(seq -s +x+ 1 2); echo $((n))",
        ],
    );
    assert_all("allow", &["j=$(nproc); echo $((j + 1))", "n=$(seq 1 3); echo $((n))", "n=$(seq -w 10); echo $((n))"]);
}

#[test]
fn bash_version_only_prints() {
    assert_all("allow", &["bash -c 'ls src'", "bash --version"]);
}

#[test]
fn hash_p_in_a_bundle_and_history_s_text_are_decided_as_what_runs() {
    assert_all(
        "deny",
        &["hash -dp /bin/rm ls; ls m", "hash -tp/bin/rm ls", "history -s \"rm m\"; fc -s", "history -s rm -rf src"],
    );
    assert_all("ask", &["history -s \"$x\"; fc -s"]);
}

#[test]
fn npm_reads_one_or_three_dashes_as_a_long_option() {
    // nopt reads `-script-shell=rm` as `--script-shell=rm` (red team 42 ran rm under
    // `Bash(npm run *)`).
    assert_all(
        "deny",
        &[
            "npm run build -script-shell=rm",
            "npm run build ---script-shell=rm",
            "npm run -script-shell rm build",
            "npm run test -scri=curl",
        ],
    );
    assert_all("ask", &["npm run build -userconfig=docs/x.md", "npm run build -globalconfig=docs/a.md"]);
    assert_all("allow", &["npm run build -s", "npm run build", "npm test"]);
}

#[test]
fn git_remote_show_of_a_remote_asks_it_over_the_network() {
    assert_all("ask", &["git remote show origin"]);
    assert_all("allow", &["git remote show", "git remote show -n origin"]);
}

#[test]
fn a_listing_of_tracked_files_handed_to_xargs_has_its_links_looked_at() {
    let ws = check_common::workspace(POLICY);
    std::os::unix::fs::symlink("/etc/passwd", ws.path().join("src/pw")).unwrap();
    let d = decided_in(ws.path(), "git ls-files -o -z | xargs -0 cat");
    assert_eq!(d["decision"], "ask", "{d}");
    assert!(d["reason"].as_str().unwrap().contains("/etc/passwd"), "{d}");
}

#[test]
fn printf_of_words_and_rg_l_are_listings() {
    assert_all(
        "allow",
        &[
            "printf '%s\\n' src/a.rs src/b.rs | xargs wc -l",
            "printf \"%s\\n\" src/*.rs | xargs wc -l",
            "rg -l fn | xargs wc -l",
            "rg --files src | xargs wc -l",
            "set -- src/a.rs src/b.rs; for f; do wc -l \"$f\"; done",
        ],
    );
    check_common::assert_none_allowed_with(
        POLICY,
        &[
            "printf '%s\\n' /etc/passwd | xargs cat",
            "printf '%s\\n' 'a /etc/passwd' | xargs cat",
            "rg -l fn /etc/passwd | xargs cat",
            "set -- /etc/passwd; for f; do cat \"$f\"; done",
        ],
    );
    assert_all("deny", &["printf '%s\\n' src/a.rs | xargs rm"]);
}

#[test]
fn small_over_asks_an_option_glob_a_separator_help() {
    assert_all(
        "allow",
        &[
            "grep -rn --include=*.rs fn src",
            "grep -rn --include=*.rs --exclude-dir=target fn .",
            "IFS=/ read -r a b <<< \"src/a.rs\"; echo \"$a\"",
            "help cd",
        ],
    );
    // A value that names a file, or one only known at run time, is not placed.
    check_common::assert_none_allowed_with(
        POLICY,
        &["grep -rn --exclude-from=* fn src", "grep -rn --include=$x fn src"],
    );
}
