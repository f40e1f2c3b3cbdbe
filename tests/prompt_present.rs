//! What the terminal prompt shows, through the pure presentation function (no terminal):
//! snapshots of each kind of call (shell with its parts, diff of an existing file, applied and
//! unapplicable replacements, a new file cut at 50 lines, JSON arguments), colour and no colour,
//! wrapping to a narrow width, and escaping of hidden characters. Every pattern that `s` or `a`
//! would store is on the screen before it can be stored.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use gate::approve::present::{full_text, key_help, note, question, render, sanitize, stored_note};
use gate::approve::{Cancel, FileNow, PromptInfo, Shape};
use gate::policy::{Call, Context, Env, Policy, Verdict};
use gate::protocol::BatchItem;
use serde_json::{json, Value};

const POLICY: &str = r#"version: 1
permissions:
  allow:
    - Bash(npm test)
  ask:
    - Bash(git push *)
"#;

fn policy() -> Policy {
    let env = Env { base_dir: "/home/u/proj".into(), home: Some("/home/u".into()), cwd: "/home/u/proj".into() };
    Policy::from_yaml(POLICY, "host.yaml", &env).unwrap()
}

/// Render one call as the prompt would, with `now` as the current content of its file.
fn show(tool: &str, args: Value, batch: &[BatchItem], now: FileNow, width: usize, color: bool) -> String {
    let p = policy();
    let call = Call::new(tool, args);
    let decision = p.decide(&call, &Context::default());
    assert_eq!(decision.decision, Verdict::Ask, "the prompt is only for asked calls: {decision:?}");
    let suggested = p.suggest_patterns(&call);
    let shape = Shape::of(&p, &call);
    let cancel = Cancel::default();
    let call_id = gate::protocol::CallId::plain(json!("c1"));
    let info = PromptInfo {
        id: "c1",
        call_id: &call_id,
        call: &call,
        shape: &shape,
        decision: &decision,
        batch_remaining: batch,
        suggested: &suggested,
        cwd: Path::new("/home/u/proj"),
        cancel: &cancel,
    };
    let text = render(&info, &now, width, color);
    // Wrapped lines joined again: every pattern is on the screen, as the person reads it.
    let joined = squash(&text);
    for pat in &suggested {
        let shown = squash(&sanitize(pat));
        assert!(joined.contains(&shown), "the pattern {pat} would be stored without being shown:\n{text}");
    }
    text
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn plain(tool: &str, args: Value, now: FileNow) -> String {
    show(tool, args, &[], now, 100, false)
}

#[test]
fn shell_shows_the_command_the_directory_and_every_part() {
    let batch = vec![
        BatchItem { tool: "write".into(), arguments: json!({"file_path": "src/lib.rs", "content": "x"}) },
        BatchItem { tool: "bash".into(), arguments: json!({"command": "npm run build"}) },
    ];
    let text = show(
        "bash",
        json!({"command": "npm test && npm publish > out.txt && cat /etc/hosts", "timeout": 60}),
        &batch,
        FileNow::NotApplicable,
        100,
        false,
    );
    assert!(text.contains("npm test") && text.contains("allowed by Bash(npm test)"), "{text}");
    assert!(text.contains("npm publish") && text.contains("needs approval"), "{text}");
    insta::assert_snapshot!("shell_compound", text);
}

#[test]
fn an_ask_rule_says_it_asks_every_time() {
    insta::assert_snapshot!(
        "shell_ask_rule",
        plain("bash", json!({"command": "git push origin main"}), FileNow::NotApplicable)
    );
}

#[test]
fn a_multi_line_command_and_hidden_characters() {
    let text =
        plain("bash", json!({"command": "echo \u{1b}[2Jcleared\nrm\u{202e}gnp.sh; curl x"}), FileNow::NotApplicable);
    assert!(!text.contains('\u{1b}') && !text.contains('\u{202e}'), "{text:?}");
    insta::assert_snapshot!("shell_hidden_characters", text);
}

const OLD: &str = "# Weekly Report\n\n## Summary\n\n- Completed feature X\n- Fixed bug Y\n";

#[test]
fn an_edit_of_an_existing_file_is_a_diff() {
    let new = "# Weekly Report\n\n## Executive Summary\n\nKey findings:\n\n- Completed feature X\n- Fixed bug Y\n";
    let text = plain("write", json!({"file_path": "notes/report.md", "content": new}), FileNow::Text(OLD.into()));
    insta::assert_snapshot!("edit_diff", text);
}

#[test]
fn the_diff_in_colour() {
    let new = OLD.replace("## Summary", "## Executive Summary");
    let text = show(
        "write",
        json!({"file_path": "notes/report.md", "content": new}),
        &[],
        FileNow::Text(OLD.into()),
        100,
        true,
    );
    assert!(text.contains("\u{1b}[31m-## Summary\u{1b}[0m"), "removed lines are red: {text:?}");
    assert!(text.contains("\u{1b}[32m+## Executive Summary\u{1b}[0m"), "added lines are green: {text:?}");
    insta::assert_snapshot!("edit_diff_colour", text);
}

#[test]
fn a_replacement_is_applied_to_the_current_file() {
    let text = plain(
        "edit",
        json!({"file_path": "notes/report.md", "old_string": "- Fixed bug Y", "new_string": "- Fixed bugs Y and Z"}),
        FileNow::Text(OLD.into()),
    );
    assert!(text.contains("-- Fixed bug Y") && text.contains("+- Fixed bugs Y and Z"), "{text}");
    insta::assert_snapshot!("edit_replace_applied", text);
}

#[test]
fn a_replacement_that_cannot_be_applied_shows_the_strings() {
    let text = plain(
        "Edit",
        json!({"file_path": "notes/report.md", "old_string": "- Fixed", "new_string": "- Broke", "replace_all": false}),
        FileNow::Text("- Fixed a\n- Fixed b\n".into()),
    );
    assert!(text.contains("occurs 2 times"), "{text}");
    insta::assert_snapshot!("edit_replace_ambiguous", text);
    let missing =
        plain("edit", json!({"file_path": "notes/new.md", "old_string": "a", "new_string": "b"}), FileNow::Missing);
    assert!(missing.contains("the file does not exist"), "{missing}");
}

#[test]
fn a_new_file_is_numbered_and_cut_at_50_lines() {
    let content: String = (1..=80).map(|i| format!("line {i}\n")).collect();
    let text = plain("write", json!({"file_path": "data/export.txt", "content": content}), FileNow::Missing);
    assert!(text.contains("  50 | line 50") && !text.contains("line 51"), "{text}");
    assert!(text.contains("[... 30 more lines"), "{text}");
    insta::assert_snapshot!("new_file_preview", text);
}

#[test]
fn the_full_text_for_the_pager_is_not_cut() {
    let p = policy();
    let content: String = (1..=80).map(|i| format!("line {i}\n")).collect();
    let call = Call::new("write", json!({"file_path": "data/export.txt", "content": content}));
    let decision = p.decide(&call, &Context::default());
    let shape = Shape::of(&p, &call);
    let cancel = Cancel::default();
    let call_id = gate::protocol::CallId::plain(json!("c1"));
    let info = PromptInfo {
        id: "c1",
        call_id: &call_id,
        call: &call,
        shape: &shape,
        decision: &decision,
        batch_remaining: &[],
        suggested: &[],
        cwd: Path::new("/home/u/proj"),
        cancel: &cancel,
    };
    let text = full_text(&info, &FileNow::Missing);
    assert!(text.contains("  80 | line 80") && !text.contains("more lines"), "{text}");
    assert!(!text.contains('\u{1b}'), "the pager gets plain text");
}

#[test]
fn anything_else_is_indented_json() {
    let text = plain(
        "webfetch",
        json!({"url": "https://example.com/api", "method": "POST", "body": {"name": "x", "role": "admin"}}),
        FileNow::NotApplicable,
    );
    insta::assert_snapshot!("other_json", text);
}

#[test]
fn long_lines_wrap_to_the_width() {
    let cmd = format!("npm publish --registry https://registry.example.com/{}", "very-long-path/".repeat(6));
    let text = show("bash", json!({"command": cmd}), &[], FileNow::NotApplicable, 40, false);
    for l in text.lines() {
        assert!(console::measure_text_width(l) < 40, "{l:?} is wider than 39 columns");
    }
    insta::assert_snapshot!("wrapped_40", text);
}

#[test]
fn the_keys() {
    insta::assert_snapshot!("key_help", key_help(100, false));
    let narrow = key_help(40, false);
    assert!(narrow.lines().all(|l| console::measure_text_width(l) < 40), "{narrow}");
}

/// Every line of `text` fits in 39 columns (a 40-column terminal, less the last column).
fn fits_40(text: &str) {
    for l in text.lines() {
        assert!(console::measure_text_width(l) < 40, "{l:?} is wider than 39 columns in:\n{text}");
    }
}

#[test]
fn wrapped_diff_lines_keep_their_marker_at_40_columns() {
    let old = "short\nthe old line that is much too long for a forty column terminal to show\nend\n";
    let new = "short\nthe new line that is much too long for a forty column terminal to show, and more\nend\n";
    let text =
        show("write", json!({"file_path": "notes/a.md", "content": new}), &[], FileNow::Text(old.into()), 40, false);
    fits_40(&text);
    // Every piece of the removed line starts with `-`, every piece of the added line with `+`:
    // between the hunk header and the last context line, only `short` is unmarked.
    let body: Vec<&str> =
        text.lines().skip_while(|l| !l.starts_with("    @@")).skip(1).take_while(|l| *l != "     end").collect();
    assert_eq!(body.len(), 7, "{text}");
    assert_eq!(body[0], "     short");
    assert!(body[1..4].iter().all(|l| l.starts_with("    -")), "{text}");
    assert!(body[4..7].iter().all(|l| l.starts_with("    +")), "{text}");
    insta::assert_snapshot!("wrapped_40_diff", text);
}

#[test]
fn patterns_are_not_split_at_40_columns() {
    let text = show(
        "bash",
        json!({"command": "npm publish --tag next && cargo build --release && make install-docs"}),
        &[],
        FileNow::NotApplicable,
        40,
        false,
    );
    fits_40(&text);
    let p = policy();
    for pat in p.suggest_patterns(&Call::new(
        "bash",
        json!({"command": "npm publish --tag next && cargo build --release && make install-docs"}),
    )) {
        assert!(text.lines().any(|l| l.contains(pat.as_str())), "{pat} is split across lines:\n{text}");
    }
    insta::assert_snapshot!("wrapped_40_patterns", text);
    // What `s`/`a` say they stored, and every other message at the prompt, is wrapped too.
    let stored = stored_note(
        "  approved always; stored in .gate/approvals.yaml: ",
        &["Bash(npm publish *)".into(), "Bash(cargo build *)".into()],
        40,
        false,
    );
    fits_40(&stored);
    assert!(stored.contains("Bash(npm publish *)") && stored.contains("Bash(cargo build *)"), "{stored}");
    let n = note("\n  several keys arrived at once (a paste?); none is taken as an answer", 40, false);
    fits_40(&n);
    assert!(n.starts_with('\n') && n.ends_with('\n'), "{n:?}");
    let q = question("  feedback for the agent (Enter for none): ", 40, false);
    fits_40(&q);
    assert!(!q.ends_with('\n'), "the answer is typed after the question: {q:?}");
}
