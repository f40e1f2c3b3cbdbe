//! The approval page in a real browser: Debian's headless Chromium, driven over its DevTools
//! protocol, opens the page of `gate run --web` (the real binary, the scripted agent), sees a
//! pending shell call with its parts, clicks "Approve once" (the agent receives the approval),
//! rejects a second call with feedback typed into the page (the agent receives the feedback);
//! a tab closed during a pending approval approves nothing and gate goes on.
//!
//! Without chromium the tests print `SKIPPED ...` on stderr, and fail under
//! `GATE_REQUIRE_AGENTS` (CI installs chromium).

mod run_common;
mod web_common;

use std::time::Duration;

use serde_json::json;

use run_common::*;
use web_common::cdp::{self, Browser};
use web_common::*;

fn cards(n: usize) -> String {
    format!("document.querySelectorAll('section.call').length === {n}")
}

#[test]
fn the_page_approves_once_and_rejects_with_feedback() {
    let Some(exe) = cdp::require("the_page_approves_once_and_rejects_with_feedback") else { return };
    let ws = Ws::new(POLICY);
    let rt = tempfile::tempdir().unwrap();
    let ops = [
        "send",
        &bash("c1", "git push origin main && git status"),
        "await",
        "c1",
        "send",
        &bash("c2", "git push --force origin main"),
        "await",
        "c2",
    ];
    let (run, web) = start(&ws, rt.path(), &[], &ops);
    let mut b = Browser::start(&exe);
    let tab = b.open(&web.page);
    b.wait_for(&tab, &cards(1));
    let text = b.eval(&tab, "document.querySelector('section.call').innerText").as_str().unwrap().to_string();
    // The shell call, each part with its verdict, why it is asked, what "always" stores.
    assert!(text.contains("$ git push origin main && git status"), "{text}");
    assert!(text.contains("ask  git push origin main"), "{text}");
    assert!(text.contains("ok   git status"), "{text}");
    assert!(text.contains("needs approval: ask rule Bash(git push *)"), "{text}");
    let pattern = b.eval(&tab, "document.querySelector('section.call .pattern').textContent");
    assert_eq!(pattern, json!("Bash(git push origin main)"));
    assert_eq!(b.eval(&tab, "document.getElementById('status').textContent"), json!("connected"));

    b.click(&tab, "section.call[data-id='c1'] button.once");
    ws.wait_log("\"id\":\"c1\"");
    b.wait_for(&tab, "!!document.querySelector(\"section.call[data-id='c2']\")");
    b.wait_for(&tab, &cards(1));
    b.click(&tab, "section.call[data-id='c2'] textarea.feedback");
    b.type_text(&tab, "open a pull request instead");
    b.click(&tab, "section.call[data-id='c2'] button.reject");
    let out = run.finish(&ws);
    out.assert_code(0);
    let d = out.decision("c1");
    assert_approved(&d, "user");
    assert_eq!(d["scope"], "once");
    let d = out.decision("c2");
    assert_denied(&d, "user", "reject_soft");
    assert_eq!(d["feedback"], "open a pull request instead", "{d:#}");
    // Both left the page, which says how each was settled.
    b.wait_for(&tab, &cards(0));
    let log = b.eval(&tab, "document.getElementById('log').innerText").as_str().unwrap().to_string();
    assert!(log.contains("c1): once, answered in a web page"), "{log}");
    assert!(log.contains("c2): reject soft"), "{log}");
}

#[test]
fn a_tab_closed_during_an_approval_approves_nothing_and_gate_goes_on() {
    let Some(exe) = cdp::require("a_tab_closed_during_an_approval_approves_nothing_and_gate_goes_on") else { return };
    let ws = Ws::new(POLICY);
    let rt = tempfile::tempdir().unwrap();
    let (run, web) = start(&ws, rt.path(), &[], &["send", &bash("c1", "git push origin main"), "await", "c1"]);
    let mut b = Browser::start(&exe);
    let tab = b.open(&web.page);
    b.wait_for(&tab, &cards(1));
    b.close(&tab);
    std::thread::sleep(Duration::from_millis(500));
    assert!(!decided(&ws, "c1"), "nothing approved: {:#?}", ws.log());
    // Another tab is shown the same call and answers it.
    let tab = b.open(&web.page);
    b.wait_for(&tab, &cards(1));
    b.click(&tab, "section.call button.stop");
    let out = run.finish(&ws);
    out.assert_code(0);
    assert_denied(&out.decision("c1"), "user", "reject_hard");
    assert!(out.stderr.contains("a web page closed"), "{}", out.stderr);
}
