//! The one-key prompt through a real pseudo-terminal (util-linux `script`): keys are typed, the
//! screen is read, and the decision the child agent receives is asserted, for every key (y s a,
//! n with and without feedback, h, v, Ctrl-C as a key and as SIGINT, unknown keys, escape
//! sequences, a paste), for `--prompt-timeout`, for a diff on screen in colour, for requests
//! queued behind an open prompt (settled by `s`, rejected by `h`), for typeahead, and for the
//! terminal's settings: changed while the prompt is open, exactly restored after (`stty -g`).
//!
//! No timing assertions: every wait is for something to appear, with a generous limit.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod prompt_common;
mod run_common;

use prompt_common::*;
use run_common::*;
use serde_json::json;

fn ops(list: &[String]) -> Vec<&str> {
    list.iter().map(String::as_str).collect()
}

fn s(x: &str) -> String {
    x.to_string()
}

/// One request, awaited; then exit 0.
fn one(id: &str, line: String) -> Vec<String> {
    vec![s("send"), line, s("await"), s(id), s("exit"), s("0")]
}

#[test]
fn y_approves_once_and_the_terminal_is_raw_only_while_asking() {
    let ws = Ws::new(POLICY);
    let o = one("c1", bash("c1", "npm run build"));
    let Some(mut t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.wait_for(KEYS);
    let screen = t.screen();
    assert!(screen.contains("$ npm run build"), "{screen}");
    assert!(screen.contains("[s]/[a] would store: Bash(npm run build *)"), "{screen}");
    let during = t.sample_settings();
    t.key('y');
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    let d = f.outcome.decision("c1");
    assert_approved(&d, "user");
    assert_eq!(d["scope"], "once");
    assert_ne!(during, f.before, "the terminal was not in raw mode while the prompt was open");
    f.assert_restored();
    assert!(f.screen.contains("approved once"), "{}", f.screen);
}

#[test]
fn s_stores_for_the_session_and_settles_requests_queued_behind_the_prompt() {
    let ws = Ws::new(POLICY);
    // q2 and q3 are sent while q1's prompt is open (the test creates `go` once it sees it).
    let o = [
        vec![s("send"), bash("q1", "npm run build")],
        vec![s("wait-file"), s("go")],
        vec![s("send"), bash("q2", "npm run build --watch"), s("send"), bash("q3", "npm publish")],
        vec![s("note"), s("sent")],
        vec![s("await"), s("q1"), s("await"), s("q2"), s("await"), s("q3"), s("exit"), s("0")],
    ]
    .concat();
    let Some(mut t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.wait_for(KEYS);
    t.touch("go");
    ws.wait_log("# sent");
    t.key('s');
    // q2 is covered by the new session pattern; q3 (npm publish) is not and is asked.
    t.wait_count(KEYS, 2);
    assert!(t.screen().contains("$ npm publish"), "{}", t.screen());
    t.key('y');
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    let q1 = f.outcome.decision("q1");
    assert_approved(&q1, "user");
    assert_eq!(q1["scope"], "session");
    assert_approved(&f.outcome.decision("q2"), "session");
    assert_approved(&f.outcome.decision("q3"), "user");
    assert_eq!(f.screen.matches(KEYS).count(), 2, "q2 must not be asked:\n{}", f.screen);
    assert!(
        f.screen.contains("approved for this session; allowed for the session: Bash(npm run build *)"),
        "{}",
        f.screen
    );
    f.assert_restored();
}

#[test]
fn a_persists_the_shown_patterns_and_a_later_run_allows_without_asking() {
    let ws = Ws::new(POLICY);
    let o = one("c1", bash("c1", "cargo build --release"));
    let Some(mut t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.wait_for(KEYS);
    assert!(t.screen().contains("[s]/[a] would store: Bash(cargo build *)"), "{}", t.screen());
    t.key('a');
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    let d = f.outcome.decision("c1");
    assert_approved(&d, "user");
    assert_eq!(d["scope"], "always");
    let stored = std::fs::read_to_string(ws.path().join(".gate/approvals.yaml")).unwrap();
    assert!(stored.contains("pattern: \"Bash(cargo build *)\""), "{stored}");
    assert!(stored.contains("cargo build --release"), "the call the person saw is recorded: {stored}");
    assert!(f.screen.contains("approved always; stored in .gate/approvals.yaml: Bash(cargo build *)"), "{}", f.screen);
    f.assert_restored();

    // Loaded at start: a later run (no terminal) allows a covered call from the store.
    let later = ws.run(&[], &["send", &bash("c2", "cargo build"), "await", "c2"], None);
    later.assert_code(0);
    assert_approved(&later.decision("c2"), "always");
    // `gate approvals list` shows it.
    let list = std::process::Command::new(GATE).args(["approvals", "list"]).current_dir(ws.path()).output().unwrap();
    assert!(String::from_utf8_lossy(&list.stdout).contains("Bash(cargo build *)"));
}

#[test]
fn n_rejects_with_one_line_of_feedback_edited_at_the_terminal() {
    let ws = Ws::new(POLICY);
    let o = [
        vec![s("send"), bash("c1", "npm install left-pad"), s("await"), s("c1")],
        vec![s("send"), bash("c2", "npm install right-pad"), s("await"), s("c2"), s("exit"), s("0")],
    ]
    .concat();
    let Some(mut t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.wait_for(KEYS);
    t.key('n');
    t.wait_for(FEEDBACK);
    // Backspace (DEL) edits; Enter ends the line.
    t.type_bytes(b"use pnpx\x7fm");
    // The screen is the raw byte stream: the erased `x` is backspaced over.
    t.wait_for("use pnpx\u{8} \u{8}m");
    t.type_bytes(b"\r");
    t.wait_count(KEYS, 2);
    // n then Enter at once: no feedback.
    t.key('n');
    t.wait_count(FEEDBACK, 2);
    t.type_bytes(b"\r");
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    let c1 = f.outcome.decision("c1");
    assert_denied(&c1, "user", "reject_soft");
    assert_eq!(c1["feedback"], "use pnpm");
    assert!(c1["message"].as_str().unwrap().starts_with("User rejected tool 'bash'. Feedback: use pnpm\n"));
    let c2 = f.outcome.decision("c2");
    assert_denied(&c2, "user", "reject_soft");
    assert!(c2.get("feedback").is_none_or(|v| v.is_null()), "{c2:#}");
    f.assert_restored();
}

#[test]
fn h_rejects_and_stops_the_batch_and_the_queue() {
    let ws = Ws::new(POLICY);
    let first = json!({
        "type":"tool_request","id":"h1","tool":"bash","arguments":{"command":"git push origin main"},
        "batch_remaining":[{"tool":"bash","arguments":{"command":"npm publish"}}]
    })
    .to_string();
    let o = [
        vec![s("send"), first, s("wait-file"), s("go")],
        vec![s("send"), bash("h2", "npm publish"), s("send"), bash("h3", "npm run build"), s("note"), s("sent")],
        vec![s("await"), s("h1"), s("await"), s("h2"), s("await"), s("h3")],
        vec![s("send"), s(r#"{"type":"turn_end"}"#), s("send"), bash("h4", "npm run build"), s("await"), s("h4")],
        vec![s("exit"), s("0")],
    ]
    .concat();
    let Some(mut t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.wait_for(KEYS);
    let screen = t.screen();
    assert!(screen.contains("queued behind it in this batch: 1 call"), "{screen}");
    assert!(screen.contains("- bash $ npm publish"), "{screen}");
    t.touch("go");
    ws.wait_log("# sent");
    t.key('h');
    // After turn_end the next call is asked again.
    t.wait_count(KEYS, 2);
    t.key('y');
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    let h1 = f.outcome.decision("h1");
    assert_denied(&h1, "user", "reject_hard");
    assert!(h1["message"].as_str().unwrap().starts_with("User rejected tool 'bash' and stopped the batch."));
    assert_denied(&f.outcome.decision("h2"), "batch", "reject_hard");
    assert_denied(&f.outcome.decision("h3"), "batch", "reject_hard");
    assert_approved(&f.outcome.decision("h4"), "user");
    f.assert_restored();
}

#[test]
fn ctrl_c_as_a_key_rejects_stops_the_batch_and_restores_the_terminal() {
    let ws = Ws::new(POLICY);
    let o = [
        vec![s("send"), bash("i1", "git push origin main"), s("await"), s("i1")],
        vec![s("send"), bash("i2", "npm run build"), s("await"), s("i2"), s("exit"), s("0")],
    ]
    .concat();
    let Some(mut t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.wait_for(KEYS);
    t.type_bytes(&[3]);
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    let i1 = f.outcome.decision("i1");
    assert_denied(&i1, "user", "reject_hard");
    assert!(i1["reason"].as_str().unwrap().contains("Ctrl-C"), "{i1:#}");
    assert_denied(&f.outcome.decision("i2"), "batch", "reject_hard");
    assert!(f.screen.contains("Ctrl-C: rejected"), "{}", f.screen);
    f.assert_restored();
}

#[test]
fn sigint_while_the_prompt_is_open_rejects_and_stops_and_restores() {
    let ws = Ws::new(POLICY);
    let o = one("i1", bash("i1", "git push origin main"));
    let Some(t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.wait_for(KEYS);
    // As if Ctrl-C came as a signal (before raw mode, or from `kill -INT`).
    // SAFETY: kill(2) with plain integers, to gate's pid, which is alive (its prompt is open).
    unsafe {
        libc::kill(t.gate_pid(), libc::SIGINT);
    }
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    assert_denied(&f.outcome.decision("i1"), "user", "reject_hard");
    f.assert_restored();
}

#[test]
fn unknown_keys_escape_sequences_and_pastes_never_approve() {
    let ws = Ws::new(POLICY);
    let o = one("c1", bash("c1", "npm run build"));
    let Some(mut t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.wait_for(KEYS);
    t.key('x');
    t.wait_count(KEYS, 2);
    assert!(t.screen().contains("that key is not an answer"), "{}", t.screen());
    // Arrow up ends in `A`, which must not be read as "always".
    t.type_bytes(b"\x1b[A");
    t.wait_count(KEYS, 3);
    t.type_bytes(b"\r");
    t.wait_count(KEYS, 4);
    // Two keys in one read: a paste, not an answer.
    t.type_bytes(b"ya");
    t.wait_count(KEYS, 5);
    assert!(t.screen().contains("several keys arrived at once"), "{}", t.screen());
    t.key('n');
    t.wait_for(FEEDBACK);
    t.type_bytes(b"\r");
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    assert_denied(&f.outcome.decision("c1"), "user", "reject_soft");
    assert!(!ws.path().join(".gate/approvals.yaml").exists());
    f.assert_restored();
}

#[test]
fn prompt_timeout_denies_when_nobody_answers() {
    let ws = Ws::new(POLICY);
    let o = one("c1", bash("c1", "npm run build"));
    let setup = Setup { gate_args: &["--prompt-timeout", "1"], ..Setup::default() };
    let Some(t) = start(&ws, setup, &ops(&o)) else { return };
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    let d = f.outcome.decision("c1");
    assert_denied(&d, "non_interactive", "reject_soft");
    assert!(d["reason"].as_str().unwrap().contains("--prompt-timeout"), "{d:#}");
    assert!(f.screen.contains("nobody answered within 1 s"), "{}", f.screen);
    f.assert_restored();
}

fn new_file_request(id: &str) -> String {
    let content: String = (1..=80).map(|i| format!("row {i}\n")).collect();
    req(id, "write", json!({"file_path": "data.txt", "content": content}))
}

#[test]
fn v_shows_everything_in_the_pager_then_returns_to_the_prompt() {
    let ws = Ws::new(POLICY);
    let o = one("c1", new_file_request("c1"));
    let setup = Setup { env: &[("PAGER", "cat")], ..Setup::default() };
    let Some(mut t) = start(&ws, setup, &ops(&o)) else { return };
    t.wait_for(KEYS);
    let screen = t.screen();
    assert!(screen.contains(" 50 | row 50") && !screen.contains("row 51"), "{screen}");
    assert!(screen.contains("[... 30 more lines: v shows all]"), "{screen}");
    t.key('v');
    t.wait_for("back at the prompt for write (request c1)");
    assert!(t.screen().contains(" 80 | row 80"), "the pager showed all of it:\n{}", t.screen());
    t.wait_count(KEYS, 2);
    t.key('y');
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    assert_approved(&f.outcome.decision("c1"), "user");
    f.assert_restored();
}

#[test]
fn v_with_the_default_pager_less() {
    if std::process::Command::new("less").arg("--version").output().is_err() {
        skip_missing_tool("`less` is not installed; the PAGER=cat test covers `v`");
        return;
    }
    let ws = Ws::new(POLICY);
    let o = one("c1", new_file_request("c1"));
    let Some(mut t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.wait_for(KEYS);
    t.key('v');
    // 80 lines do not fit in 40 rows: less waits for `q`.
    t.wait_for("gate: write (request c1)");
    t.key('q');
    t.wait_for("back at the prompt");
    t.key('n');
    t.wait_for(FEEDBACK);
    t.type_bytes(b"\r");
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    assert_denied(&f.outcome.decision("c1"), "user", "reject_soft");
    f.assert_restored();
}

#[test]
fn an_edit_of_an_existing_file_shows_a_coloured_diff() {
    let ws = Ws::new(POLICY);
    std::fs::write(ws.path().join("notes.md"), "# Notes\n\nold line\nkept\n").unwrap();
    let o = one(
        "c1",
        req("c1", "edit", json!({"file_path": "notes.md", "old_string": "old line", "new_string": "new line"})),
    );
    let setup = Setup { colour: true, ..Setup::default() };
    let Some(mut t) = start(&ws, setup, &ops(&o)) else { return };
    t.wait_for("[v]");
    t.wait_for("iew all  > ");
    let screen = t.screen();
    assert!(screen.contains("edit notes.md"), "{screen}");
    assert!(screen.contains("\u{1b}[31m-old line\u{1b}[0m"), "a red removed line: {screen:?}");
    assert!(screen.contains("\u{1b}[32m+new line\u{1b}[0m"), "a green added line: {screen:?}");
    t.key('y');
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    assert_approved(&f.outcome.decision("c1"), "user");
    f.assert_restored();
}

#[test]
fn keys_typed_before_the_prompt_appeared_are_not_answers() {
    let ws = Ws::new(POLICY);
    let o = [vec![s("wait-file"), s("go")], one("c1", bash("c1", "npm run build"))].concat();
    let Some(mut t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.gate_pid();
    // The terminal is in its normal mode: it echoes the key once it has it.
    t.key('y');
    t.wait_for("y");
    t.touch("go");
    t.wait_for(KEYS);
    t.key('n');
    t.wait_for(FEEDBACK);
    t.type_bytes(b"\r");
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    assert_denied(&f.outcome.decision("c1"), "user", "reject_soft");
    f.assert_restored();
}

#[test]
fn a_terminal_that_goes_away_mid_prompt_denies_with_a_reason() {
    let ws = Ws::new(POLICY);
    // The agent ignores the SIGHUP that gate passes on, so it is still there to read the answer.
    let o = [vec![s("ignore"), s("1")], one("c1", bash("c1", "npm run build"))].concat();
    let setup = Setup { gate_args: &["--kill-grace", "60"], ..Setup::default() };
    let Some(mut t) = start(&ws, setup, &ops(&o)) else { return };
    t.wait_for(KEYS);
    t.hang_up();
    ws.wait_log(r#""id":"c1""#);
    let d: serde_json::Value = ws
        .log()
        .iter()
        .filter_map(|l| l.strip_prefix("< "))
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .find(|v| v["id"] == "c1")
        .unwrap();
    assert_denied(&d, "error", "reject_soft");
    assert!(d["reason"].as_str().unwrap().contains("terminal"), "{d:#}");
}

#[test]
fn an_always_approval_never_beats_an_ask_rule() {
    let ws = Ws::new(POLICY);
    let o = one("c1", bash("c1", "git push origin main"));
    let Some(mut t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.wait_for(KEYS);
    assert!(t.screen().contains("an ask rule matches this call: it will still be asked every time"), "{}", t.screen());
    t.key('a');
    let f = t.finish(&ws);
    assert_approved(&f.outcome.decision("c1"), "user");
    let stored = std::fs::read_to_string(ws.path().join(".gate/approvals.yaml")).unwrap();
    assert!(stored.contains("Bash(git push origin main)"), "{stored}");
    // Stored, and still asked: with --strict that is a denial, not an "always" approval.
    let later = ws.run(&["--strict"], &["send", &bash("c2", "git push origin main"), "await", "c2"], None);
    assert_denied(&later.decision("c2"), "strict", "reject_soft");
}

/// `s` on `git checkout -b feature` stores that command only: `git checkout -- .` (which
/// throws away the working tree's changes) is asked again, not covered by `git checkout *`.
#[test]
fn s_on_a_command_with_destructive_forms_stores_the_exact_command() {
    let ws = Ws::new(POLICY);
    let o = [
        vec![s("send"), bash("c1", "git checkout -b feature"), s("await"), s("c1")],
        vec![s("send"), bash("c2", "git checkout -b feature"), s("await"), s("c2")],
        vec![s("send"), bash("c3", "git checkout -- ."), s("await"), s("c3"), s("exit"), s("0")],
    ]
    .concat();
    let Some(mut t) = start(&ws, Setup::default(), &ops(&o)) else { return };
    t.wait_count(KEYS, 1);
    assert!(t.screen().contains("[s]/[a] would store: Bash(git checkout -b feature)"), "{}", t.screen());
    t.key('s');
    // c2 is covered by the session pattern; c3 is asked.
    t.wait_count(KEYS, 2);
    assert!(t.screen().contains("$ git checkout -- ."), "{}", t.screen());
    t.key('n');
    t.wait_for(FEEDBACK);
    t.type_bytes(b"\r");
    let f = t.finish(&ws);
    f.outcome.assert_code(0);
    assert_eq!(f.outcome.decision("c1")["scope"], "session");
    assert_approved(&f.outcome.decision("c2"), "session");
    assert_denied(&f.outcome.decision("c3"), "user", "reject_soft");
    f.assert_restored();
}
