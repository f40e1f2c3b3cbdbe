//! `gate run --web` over the wire, through the real binary and the scripted agent: the token,
//! Host and Origin checks (403), tool_approval's WebSocket messages approving and rejecting
//! calls, the replay to a page that connects late, a page closed during a pending approval
//! (nothing approved, gate goes on), `--prompt-timeout`, `--notify`, `--web-bind-any`.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod run_common;
mod web_common;

use std::time::Duration;

use serde_json::json;

use run_common::*;
use web_common::*;

const ASK: &str = "git push origin main";

fn rt() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

#[test]
fn the_token_host_and_origin_are_checked() {
    let ws = Ws::new(POLICY);
    let rt = rt();
    let (run, web) = start(&ws, rt.path(), &[], &["send", &bash("c1", ASK), "await", "c1"]);
    let mode = std::fs::metadata(&web.file).map(|m| std::os::unix::fs::PermissionsExt::mode(&m.permissions())).unwrap();
    assert_eq!(mode & 0o777, 0o600, "the URL file is the user's only");
    let host = format!("127.0.0.1:{}", web.http_port);
    let with = format!("/?token={}", web.token);
    let own_origin = format!("http://{host}");

    let (code, body) = get(web.http_port, &with, &host, None);
    assert_eq!(code, 200, "{body}");
    assert!(body.contains("gate-ws-port"), "{body}");
    assert_eq!(get(web.http_port, &with, &format!("localhost:{}", web.http_port), Some(&own_origin)).0, 200);
    assert_eq!(get(web.http_port, &format!("/web.js?token={}", web.token), &host, None).0, 200);

    // No token, a wrong one, one a character short.
    assert_eq!(get(web.http_port, "/", &host, None).0, 403);
    assert_eq!(get(web.http_port, "/web.js", &host, None).0, 403);
    assert_eq!(get(web.http_port, "/?token=0000", &host, None).0, 403);
    assert_eq!(get(web.http_port, &with[..with.len() - 1], &host, None).0, 403);
    // Another site's page, even with the token (a leaked URL, a rebinding attack).
    assert_eq!(get(web.http_port, &with, &host, Some("http://evil.example")).0, 403);
    assert_eq!(get(web.http_port, &with, &host, Some("null")).0, 403);
    assert_eq!(get(web.http_port, &with, &host, Some(&format!("http://127.0.0.1:{}", web.ws_port))).0, 403);
    // A DNS name in Host (rebinding), another port, none.
    assert_eq!(get(web.http_port, &with, &format!("evil.example:{}", web.http_port), None).0, 403);
    assert_eq!(get(web.http_port, &with, "127.0.0.1:1", None).0, 403);
    let (code, body) = get(web.http_port, &with, "", None);
    assert!(code == 403 || code == 400, "{code} {body}");

    // The WebSocket: the same three checks.
    let no_token = web.ws.split('?').next().unwrap().to_string();
    assert_eq!(ws_connect_with(&no_token, &[]).err(), Some(403));
    assert_eq!(ws_connect_with(&format!("{no_token}?token=nope"), &[]).err(), Some(403));
    assert_eq!(ws_connect_with(&web.ws, &[("Origin", "http://evil.example")]).err(), Some(403));
    assert_eq!(ws_connect_with(&web.ws, &[("Host", "evil.example")]).err(), Some(403));
    // Nothing was approved by any of it.
    std::thread::sleep(Duration::from_millis(200));
    assert!(!decided(&ws, "c1"), "{:#?}", ws.log());

    let mut c = ws_connect_with(&web.ws, &[("Origin", &own_origin)]).expect("the page's own origin");
    next_of(&mut c, "approval_needed");
    send(&mut c, json!({"approved": true, "scope": "once"}));
    let out = run.finish(&ws);
    out.assert_code(0);
    assert_approved(&out.decision("c1"), "user");
    assert!(out.stderr.contains("approve in a browser: http://127.0.0.1:"), "{}", out.stderr);
    assert!(!web.file.exists(), "the URL file is removed when gate exits");
}

#[test]
fn a_tool_approval_client_approves_and_rejects_calls() {
    let ws = Ws::new(POLICY);
    let rt = rt();
    let batch = json!({"type":"tool_request","id":"c1","tool":"bash","arguments":{"command":"git push origin main && git status"},
        "batch_remaining":[{"tool":"write","arguments":{"file_path":"a.txt","content":"x"}}]})
    .to_string();
    let ops = ["send", &batch, "await", "c1", "send", &bash("c2", "git push origin dev"), "await", "c2"];
    let (run, web) = start(&ws, rt.path(), &[], &ops);
    let mut c = ws_connect(&web);

    let m = next_of(&mut c, "approval_needed");
    assert_eq!(m["id"], "c1", "{m:#}");
    assert_eq!(m["tool"], "bash");
    assert_eq!(m["arguments"]["command"], "git push origin main && git status");
    assert_eq!(m["batch_remaining"][0]["tool"], "write", "{m:#}");
    assert_eq!(m["always"], json!(["Bash(git push origin main)"]), "{m:#}");
    let view = m["view"].to_string();
    assert!(
        view.contains("git status") && view.contains("allowed (safe)") && view.contains("ask rule"),
        "the parts with their verdicts: {view}"
    );
    // No id: the oldest call shown on this connection.
    send(&mut c, json!({"approved": true, "scope": "once"}));
    let r = next_of(&mut c, "resolved");
    assert_eq!((r["id"].as_str(), r["approved"].as_bool(), r["by"].as_str()), (Some("c1"), Some(true), Some("page")));

    let m = next_of(&mut c, "approval_needed");
    assert_eq!(m["id"], "c2");
    // A bad answer is refused and changes nothing.
    send(&mut c, json!({"approved": "yes"}));
    assert!(next_of(&mut c, "error")["message"].as_str().unwrap().contains("approved"));
    send(&mut c, json!({"id": "c9", "approved": true}));
    assert!(next_of(&mut c, "error")["message"].as_str().unwrap().contains("c9"));
    send(&mut c, json!({"id": "c2", "approved": false, "mode": "reject_soft", "feedback": "use a pull request"}));
    let out = run.finish(&ws);
    out.assert_code(0);
    assert_approved(&out.decision("c1"), "user");
    let d = out.decision("c2");
    assert_denied(&d, "user", "reject_soft");
    assert_eq!(d["feedback"], "use a pull request", "{d:#}");
    assert!(d["message"].as_str().unwrap().contains("Feedback: use a pull request"), "{d:#}");
}

#[test]
fn a_rejection_without_mode_stops_the_batch_as_in_tool_approval() {
    let ws = Ws::new(POLICY);
    let rt = rt();
    let (run, web) = start(&ws, rt.path(), &[], &["send", &bash("c1", ASK), "await", "c1"]);
    let mut c = ws_connect(&web);
    next_of(&mut c, "approval_needed");
    send(&mut c, json!({"approved": false}));
    let out = run.finish(&ws);
    assert_denied(&out.decision("c1"), "user", "reject_hard");
}

#[test]
fn a_page_closed_during_an_approval_approves_nothing_and_gate_goes_on() {
    let ws = Ws::new(POLICY);
    let rt = rt();
    let (run, web) = start(&ws, rt.path(), &[], &["send", &bash("c1", ASK), "await", "c1"]);
    // A tab closed without a word (the TCP connection just ends) ...
    let mut c = ws_connect(&web);
    next_of(&mut c, "approval_needed");
    drop(c);
    // ... and one closed properly.
    let mut c = ws_connect(&web);
    next_of(&mut c, "approval_needed");
    c.close(None).unwrap();
    let _ = c.read();
    std::thread::sleep(Duration::from_millis(300));
    assert!(!decided(&ws, "c1"), "nothing is approved: {:#?}", ws.log());
    // The call is still pending: a page that connects now is shown it again and answers it.
    let mut c = ws_connect(&web);
    let m = next_of(&mut c, "approval_needed");
    assert_eq!(m["id"], "c1");
    send(&mut c, json!({"approved": true, "scope": "session"}));
    let out = run.finish(&ws);
    out.assert_code(0);
    let d = out.decision("c1");
    assert_approved(&d, "user");
    assert_eq!(d["scope"], "session");
    assert!(out.stderr.contains("a web page closed"), "{}", out.stderr);
    assert!(out.stderr.contains("nothing was approved"), "{}", out.stderr);
}

#[test]
fn the_prompt_timeout_denies_and_tells_the_page() {
    let ws = Ws::new(POLICY);
    let rt = rt();
    let (run, web) = start(&ws, rt.path(), &["--prompt-timeout", "1"], &["send", &bash("c1", ASK), "await", "c1"]);
    let mut c = ws_connect(&web);
    next_of(&mut c, "approval_needed");
    let r = next_of(&mut c, "resolved");
    assert_eq!((r["by"].as_str(), r["approved"].as_bool()), (Some("timeout"), Some(false)), "{r:#}");
    let out = run.finish(&ws);
    assert_denied(&out.decision("c1"), "non_interactive", "reject_soft");
}

#[test]
fn notify_runs_for_each_pending_approval_with_the_summary_and_url() {
    let ws = Ws::new(POLICY);
    let rt = rt();
    let cmd = r#"printf '%s|%s|%s\n' "$GATE_TOOL" "$GATE_SUMMARY" "$GATE_URL" >> notified; echo to-stdout"#;
    let (run, web) = start(&ws, rt.path(), &["--notify", cmd], &["send", &bash("c1", ASK), "await", "c1"]);
    let mut c = ws_connect(&web);
    next_of(&mut c, "approval_needed");
    let file = ws.path().join("notified");
    let deadline = std::time::Instant::now() + TIMEOUT;
    while !std::fs::read_to_string(&file).is_ok_and(|t| t.ends_with('\n')) {
        assert!(std::time::Instant::now() < deadline, "the notify command never ran");
        std::thread::sleep(Duration::from_millis(10));
    }
    let text = std::fs::read_to_string(&file).unwrap();
    assert_eq!(text, format!("bash|bash $ {ASK}|{}\n", web.page));
    send(&mut c, json!({"approved": true}));
    let out = run.finish(&ws);
    assert_approved(&out.decision("c1"), "user");
    assert!(!out.stdout_str().contains("to-stdout"), "the command's stdout is not gate's");
    assert!(out.stderr.contains("to-stdout"), "{}", out.stderr);
}

#[test]
fn a_non_loopback_address_needs_web_bind_any() {
    let ws = Ws::new(POLICY);
    let out = ws.run(&["--web", "0.0.0.0:0"], &[], None);
    out.assert_code(2);
    assert!(out.stderr.contains("--web-bind-any"), "{}", out.stderr);
    let out = ws.run(&["--web", "0.0.0.0:0", "--web-bind-any"], &[], None);
    out.assert_code(0);
    assert!(out.stderr.contains("warning") && out.stderr.contains("not loopback"), "{}", out.stderr);
    let out = ws.run(&["--web", "example.com:80"], &[], None);
    out.assert_code(2);
}
