//! Remembered decisions (`src/supervise/memo.rs`) through the real binary: `gate run --strict`
//! with the scripted agent, which asks the same thing, changes the file system under it with
//! `sh`, and asks again. What was remembered must never outlive what it depended on: each test
//! ends with a call that the file system now makes a read outside the workspace (asked, so
//! denied under `--strict`), and checks the memo answered the earlier repeats
//! (`GATE_MEMO_STATS`).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod run_common;

use run_common::*;
use serde_json::json;

const POLICY: &str =
    "version: 1\nworkspace: .\ndoom_loop: { threshold: 100 }\npermissions:\n  deny:\n    - Bash(rm *)\n";

/// The memo's counters from gate's stderr: hits, misses, times emptied.
fn stats(o: &Outcome) -> (u64, u64, u64) {
    let line = o
        .stderr
        .lines()
        .find_map(|l| l.strip_prefix("gate: memo: "))
        .unwrap_or_else(|| panic!("no memo counters on stderr: {}", o.stderr));
    let n: Vec<u64> = line.split(|c: char| !c.is_ascii_digit()).filter_map(|w| w.parse().ok()).collect();
    (n[0], n[1], n[2])
}

/// `gate run --strict` with the scripted agent doing `ops`, the memo's counters on stderr.
fn run_with_stats(ws: &Ws, ops: &[&str]) -> Outcome {
    let mut cmd = ws.command(&["run", "--strict"], ops);
    cmd.env("GATE_MEMO_STATS", "1");
    Running::start(cmd, None).finish(ws)
}

/// Ask `call` (a request line with id `{id}`) twice, run `change`, ask it a third time.
/// Returns the outcome; ids are a1, a2, a3.
fn twice_change_again(ws: &Ws, call: impl Fn(&str) -> String, change: &str) -> Outcome {
    let (c1, c2, c3) = (call("a1"), call("a2"), call("a3"));
    let ops = ["send", &c1, "await", "a1", "send", &c2, "await", "a2", "sh", change, "send", &c3, "await", "a3"];
    let o = run_with_stats(ws, &ops);
    assert!(o.log.iter().any(|l| l == "# sh exit 0"), "the change failed: {:#?}", o.log);
    o
}

fn assert_remembered_then_outside(o: &Outcome) {
    assert_eq!(o.decision("a1")["approved"], true, "{}", o.stderr);
    assert_eq!(o.decision("a2")["approved"], true, "{}", o.stderr);
    let d = o.decision("a3");
    assert_eq!(d["approved"], false, "decided from a stale memory: {d:#}\nstderr: {}", o.stderr);
    assert!(d["reason"].as_str().unwrap_or_default().contains("outside the workspace"), "{d:#}");
    let (hits, _, emptied) = stats(o);
    assert!(hits >= 1, "the repeat was not answered from the memo: {}", o.stderr);
    assert!(emptied >= 1, "the change did not empty the memo: {}", o.stderr);
}

fn ws_with(files: &[(&str, &str)]) -> Ws {
    let ws = Ws::new(POLICY);
    for (path, text) in files {
        let p = ws.path().join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    ws
}

fn read_file(path: &'static str) -> impl Fn(&str) -> String {
    move |id| req(id, "read_file", json!({ "file_path": path }))
}

fn shell(command: &'static str) -> impl Fn(&str) -> String {
    move |id| bash(id, command)
}

#[test]
fn a_file_replaced_by_a_link_after_its_read_was_remembered_is_decided_where_the_link_leads() {
    let ws = ws_with(&[("docs/x.md", "hi\n")]);
    let o = twice_change_again(&ws, read_file("docs/x.md"), "rm docs/x.md && ln -s /etc/passwd docs/x.md");
    assert_remembered_then_outside(&o);
}

#[test]
fn a_directory_replaced_by_a_link_after_a_read_inside_it_was_remembered_is_followed() {
    let ws = ws_with(&[("docs/passwd", "not the real one\n")]);
    let o = twice_change_again(&ws, shell("cat docs/passwd"), "mv docs docs.old && ln -s /etc docs");
    assert_remembered_then_outside(&o);
}

#[test]
fn a_missing_file_that_appears_as_a_link_after_its_read_was_remembered_is_followed() {
    let ws = ws_with(&[("docs/x.md", "hi\n")]);
    let o = twice_change_again(&ws, shell("cat docs/new.md"), "ln -s /etc/passwd docs/new.md");
    assert_remembered_then_outside(&o);
}

#[test]
fn a_glob_whose_directory_gains_a_link_after_it_was_remembered_is_matched_again() {
    let ws = ws_with(&[("docs/x.md", "hi\n")]);
    let o = twice_change_again(&ws, shell("cat docs/*.md"), "ln -s /etc/passwd docs/z.md");
    assert_remembered_then_outside(&o);
}

#[test]
fn a_directory_moved_away_and_replaced_deep_in_the_path_is_seen() {
    let ws = ws_with(&[("a/b/c/x.md", "hi\n")]);
    let o = twice_change_again(
        &ws,
        read_file("a/b/c/x.md"),
        "mv a/b a/old && mkdir -p a/b/c && ln -s /etc/passwd a/b/c/x.md",
    );
    assert_remembered_then_outside(&o);
}

#[test]
fn a_call_through_a_link_is_never_remembered_and_follows_the_link_when_it_is_pointed_elsewhere() {
    let ws = ws_with(&[("docs/passwd", "not the real one\n")]);
    std::os::unix::fs::symlink("docs", ws.path().join("d2")).unwrap();
    let o = twice_change_again(&ws, shell("cat d2/passwd"), "ln -sfn /etc d2");
    assert_eq!(o.decision("a1")["approved"], true, "{}", o.stderr);
    assert_eq!(o.decision("a2")["approved"], true, "{}", o.stderr);
    assert_eq!(o.decision("a3")["approved"], false, "{}", o.stderr);
    let (hits, ..) = stats(&o);
    assert_eq!(hits, 0, "a decision that met a link was remembered: {}", o.stderr);
}

#[test]
fn a_link_hidden_by_permissions_is_not_remembered_as_missing() {
    // As root the kernel does not hide it at all (the first calls are then denied too); as
    // another user the look-up fails with EACCES, which must not be remembered as "missing".
    let ws = ws_with(&[("docs/x.md", "hi\n")]);
    let locked = ws.path().join("docs/locked");
    std::fs::create_dir(&locked).unwrap();
    std::os::unix::fs::symlink("/etc/passwd", locked.join("x")).unwrap();
    let (c1, c2, c3) =
        (bash("a1", "cat docs/locked/x"), bash("a2", "cat docs/locked/x"), bash("a3", "cat docs/locked/x"));
    let ops = [
        "sh",
        "chmod 000 docs/locked",
        "send",
        &c1,
        "await",
        "a1",
        "send",
        &c2,
        "await",
        "a2",
        "sh",
        "chmod 755 docs/locked",
        "send",
        &c3,
        "await",
        "a3",
    ];
    let o = run_with_stats(&ws, &ops);
    assert_eq!(o.decision("a3")["approved"], false, "{}", o.stderr);
    let (hits, ..) = stats(&o);
    assert_eq!(hits, 0, "a look-up hidden by permissions was remembered: {}", o.stderr);
}

#[test]
fn a_policy_reloaded_mid_session_forgets_what_the_old_one_decided() {
    let ws = ws_with(&[("docs/x.md", "hi\n")]);
    let (c1, c2, c3) = (bash("a1", "cat docs/x.md"), bash("a2", "cat docs/x.md"), bash("a3", "cat docs/x.md"));
    let stricter = format!("{POLICY}    - Bash(cat *)\n");
    let write = format!("printf '%s' '{stricter}' > host.yaml");
    let ops = [
        "send",
        &c1,
        "await",
        "a1",
        "send",
        &c2,
        "await",
        "a2",
        "sh",
        &write,
        "await-type",
        "policy_changed",
        "send",
        &c3,
        "await",
        "a3",
    ];
    let o = run_with_stats(&ws, &ops);
    assert_eq!(o.decision("a1")["approved"], true, "{}", o.stderr);
    assert_eq!(o.decision("a2")["approved"], true, "{}", o.stderr);
    let d = o.decision("a3");
    assert_eq!(d["approved"], false, "{d:#}\nstderr: {}", o.stderr);
    assert_eq!(d["rule"], "Bash(cat *)", "{d:#}");
    assert!(stats(&o).0 >= 1, "{}", o.stderr);
}

#[test]
fn many_different_calls_keep_being_decided_right_past_the_memo_s_size() {
    // More distinct calls than the memo holds: it starts again empty, and every answer stays
    // the policy's (in-workspace reads allowed, `rm` denied).
    let ws = ws_with(&[("docs/x.md", "hi\n")]);
    let mut lines = Vec::new();
    for i in 0..5000 {
        lines.push(bash(&format!("r{i}"), &format!("cat docs/{i}.md")));
    }
    lines.push(bash("last-rm", "rm -rf docs"));
    lines.push(bash("last-cat", "cat docs/4999.md"));
    let ids: Vec<String> = (0..5000).map(|i| format!("r{i}")).chain(["last-rm".into(), "last-cat".into()]).collect();
    let mut ops: Vec<&str> = Vec::new();
    for (l, id) in lines.iter().zip(&ids) {
        ops.extend(["send", l, "await", id]);
    }
    let o = run_with_stats(&ws, &ops);
    assert_eq!(o.decision("last-rm")["approved"], false);
    assert_eq!(o.decision("last-rm")["rule"], "Bash(rm *)");
    assert_eq!(o.decision("last-cat")["approved"], true);
    assert_eq!(o.decisions().iter().filter(|d| d["approved"] == true).count(), 5001);
    assert!(stats(&o).0 >= 1, "{}", o.stderr);
}

#[test]
fn a_glob_through_dot_dot_does_not_take_the_watch_of_the_directory_it_names_again() {
    // Red team of the memo, finding 1: `docs/../docs/*` is listed under that spelling; the
    // kernel gives it the watch `docs` already has, which then answered to the other path only,
    // and the link that replaced `docs/x.md` went unseen.
    let ws = ws_with(&[("docs/x.md", "hi\n")]);
    let (c1, c2, c3) = (
        req("a1", "read_file", json!({ "file_path": "docs/x.md" })),
        bash("a2", "ls docs/../docs/* /proc/self"),
        req("a3", "read_file", json!({ "file_path": "docs/x.md" })),
    );
    let c0 = req("a0", "read_file", json!({ "file_path": "docs/x.md" }));
    let ops = [
        "send",
        &c0,
        "await",
        "a0",
        "send",
        &c1,
        "await",
        "a1",
        "send",
        &c2,
        "await",
        "a2",
        "sh",
        "rm docs/x.md && ln -s /etc/passwd docs/x.md",
        "send",
        &c3,
        "await",
        "a3",
    ];
    let o = run_with_stats(&ws, &ops);
    assert_eq!(o.decision("a1")["approved"], true, "{}", o.stderr);
    assert!(stats(&o).0 >= 1, "{}", o.stderr);
    let d = o.decision("a3");
    assert_eq!(d["approved"], false, "decided from a stale memory: {d:#}\nstderr: {}", o.stderr);
}

#[test]
fn a_decision_that_looked_inside_proc_is_never_remembered() {
    // Red team of the memo, finding 3: inotify does not report what appears in /proc (nor on
    // NFS, FUSE, 9p...): a decision that looked in such a directory is made afresh each time.
    let ws = ws_with(&[("docs/x.md", "hi\n")]);
    let o = twice_change_again(&ws, read_file("/proc/1/status"), "true");
    let (hits, ..) = stats(&o);
    assert_eq!(hits, 0, "a look-up in /proc was remembered: {}", o.stderr);
}

#[test]
fn emptying_the_memo_drops_its_kernel_watches() {
    // Red team of the memo, finding 5: watches were kept when the memo was emptied and piled
    // up past its own limit, eating the user's inotify quota.
    let mut files = Vec::new();
    let names: Vec<String> = (0..60).map(|i| format!("d{i}/x.md")).collect();
    for n in &names {
        files.push((n.as_str(), "hi\n"));
    }
    let ws = ws_with(&files);
    let mut lines = Vec::new();
    for i in 0..60 {
        lines.push((req(&format!("r{i}"), "read_file", json!({ "file_path": format!("d{i}/x.md") })), format!("r{i}")));
    }
    // Each round: a read in another directory, then that directory moved away and back (the
    // memo is emptied).
    let moves: Vec<String> = (0..60).map(|i| format!("mv d{i} d{i}.b && mv d{i}.b d{i}")).collect();
    let count = "g=$(awk '{print $4}' /proc/$PPID/stat); cat /proc/$g/fdinfo/* 2>/dev/null | grep -c 'inotify wd' > watches.txt";
    let mut ops: Vec<&str> = Vec::new();
    for ((l, id), mv) in lines.iter().zip(&moves) {
        ops.extend(["send", l, "await", id, "sh", mv]);
    }
    ops.extend(["sh", count]);
    let o = run_with_stats(&ws, &ops);
    assert_eq!(o.decisions().iter().filter(|d| d["approved"] == true).count(), 60, "{}", o.stderr);
    let n: usize = std::fs::read_to_string(ws.path().join("watches.txt")).unwrap().trim().parse().unwrap();
    // The memo's own (the path to one directory) and the policy watcher's: a handful.
    assert!(n < 20, "{n} kernel watches after 60 rounds; stderr: {}", o.stderr);
    assert!(stats(&o).2 >= 59, "{}", o.stderr);
}
