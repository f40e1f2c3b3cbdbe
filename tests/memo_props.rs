//! Property test of remembered decisions (`src/supervise/memo.rs`): whatever the file system
//! does between two calls (files, directories and links created, removed, renamed, links to
//! inside and outside the workspace), the memo's answer is the decision made afresh on the
//! file system as it is then. A stale memory would be a bypass, so this is checked with full
//! equality of the two decisions.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::{Path, PathBuf};

use gate::policy::{Call, Context, Env, Policy};
use gate::supervise::memo::Memo;
use proptest::prelude::*;
use serde_json::json;

const POLICY: &str = include_str!("corpus/host.yaml");

/// Paths in the workspace the operations and calls use.
const NAMES: &[&str] = &["a", "a/b", "a/b/x", "a/y", "c", "c/x", "a/b/.env"];

/// Where a link may point: names in the workspace (relative) and places outside it.
fn targets(out: &Path) -> Vec<PathBuf> {
    let mut t: Vec<PathBuf> = NAMES.iter().map(PathBuf::from).collect();
    t.push(out.to_path_buf());
    t.push(out.join("secret"));
    t.push("/etc".into());
    t.push("/etc/passwd".into());
    t.push("../..".into());
    t
}

#[derive(Clone, Debug)]
enum Op {
    MkDir(usize),
    Touch(usize),
    Remove(usize),
    Link(usize, usize),
    Rename(usize, usize),
    Decide(usize),
}

fn op() -> impl Strategy<Value = Op> {
    let n = NAMES.len();
    prop_oneof![
        1 => (0..n).prop_map(Op::MkDir),
        1 => (0..n).prop_map(Op::Touch),
        1 => (0..n).prop_map(Op::Remove),
        1 => (0..n, 0..n + 5).prop_map(|(a, b)| Op::Link(a, b)),
        1 => (0..n, 0..n).prop_map(|(a, b)| Op::Rename(a, b)),
        3 => (0..CALLS).prop_map(Op::Decide),
    ]
}

const CALLS: usize = 12;

fn call(k: usize) -> Call {
    let name = NAMES[k % NAMES.len()];
    match k {
        0..=6 => Call::new("read_file", json!({ "file_path": name })),
        7 => Call::new("bash", json!({ "command": "cat a/b/x c/x" })),
        8 => Call::new("bash", json!({ "command": "cat a/*/x" })),
        9 => Call::new("bash", json!({ "command": "echo hi > a/y" })),
        10 => Call::new("bash", json!({ "command": "cd a && cat b/x" })),
        _ => Call::new("write", json!({ "file_path": "c/x", "content": "x" })),
    }
}

/// Whether `rel` under `ws` is reached without passing a symbolic link (the last component
/// too when `last`): the operations must never act through the links they made, or they
/// write and remove outside the scratch directory (`a -> ../..` then `a/b/x`).
fn unlinked(ws: &Path, rel: &str, last: bool) -> bool {
    let parts: Vec<&str> = rel.split('/').collect();
    let upto = if last { parts.len() } else { parts.len() - 1 };
    (1..=upto)
        .all(|k| std::fs::symlink_metadata(ws.join(parts[..k].join("/"))).map_or(true, |m| !m.file_type().is_symlink()))
}

fn apply(ws: &Path, out: &Path, op: &Op) {
    let p = |i: usize| ws.join(NAMES[i]);
    let safe = |i: usize, last: bool| unlinked(ws, NAMES[i], last);
    // Failures (a parent missing, a name taken) are part of the game: ignored.
    match *op {
        Op::MkDir(i) if safe(i, true) => {
            let _ = std::fs::create_dir(p(i));
        }
        Op::Touch(i) if safe(i, true) => {
            let _ = std::fs::write(p(i), "x");
        }
        // remove_file takes a link itself; remove_dir_all does not follow links inside.
        Op::Remove(i) if safe(i, false) => {
            let _ = std::fs::remove_file(p(i)).or_else(|_| std::fs::remove_dir_all(p(i)));
        }
        Op::Link(i, t) if safe(i, false) => {
            let _ = std::os::unix::fs::symlink(&targets(out)[t], p(i));
        }
        Op::Rename(i, j) if safe(i, false) && safe(j, false) => {
            let _ = std::fs::rename(p(i), p(j));
        }
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn a_remembered_decision_is_always_the_decision_made_afresh(ops in prop::collection::vec(op(), 1..40)) {
        let root = tempfile::tempdir().unwrap();
        let ws = root.path().join("ws");
        let out = root.path().join("out");
        std::fs::create_dir_all(&ws).unwrap();
        std::fs::create_dir_all(&out).unwrap();
        std::fs::write(out.join("secret"), "s").unwrap();
        std::fs::write(ws.join("host.yaml"), POLICY).unwrap();
        let env = Env { base_dir: ws.clone(), home: Some("/nonexistent-home".into()), cwd: ws.clone() };
        let policy = Policy::from_yaml(POLICY, "host.yaml", &env).unwrap();
        let ctx = Context::default();
        let mut memo = Memo::new();
        prop_assert!(memo.is_on(), "inotify is not available: the property would test nothing");
        for op in &ops {
            apply(&ws, &out, op);
            if let Op::Decide(k) = *op {
                let c = call(k);
                let remembered = memo.decide(&policy, &ctx, 0, &c, gate::supervise::memo::call_hash(&c));
                let fresh = policy.decide_real(&c, &ctx, &gate::resolve::real_for(&ws));
                prop_assert_eq!(remembered, fresh, "call {:?} after {:?}", c, ops);
            }
        }
    }
}
