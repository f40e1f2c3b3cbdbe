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
            "git ls-files | while read -r f; do wc -l \"$f\"; done",
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
            "for f in $(git ls-files); do cat \"$f\"; done",
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
