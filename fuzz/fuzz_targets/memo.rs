//! Fuzz remembered decisions (`gate::supervise::memo`): fuzz-chosen file-system changes in a
//! scratch workspace (files, directories, links inside and outside, renames, removals) between
//! fuzz-chosen calls; every answer of the memo must equal the decision made afresh on the file
//! system as it is then. A stale memory would be a bypass.
#![no_main]

use gate::policy::{Call, Context, Env, Policy};
use gate::supervise::memo::{call_hash, Memo};
use libfuzzer_sys::fuzz_target;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

const POLICY: &str = include_str!("../../tests/corpus/host.yaml");
const NAMES: &[&str] = &["a", "a/b", "a/b/x", "a/y", "c", "c/x", "a/b/.env", "a/../c/x"];

fn call(k: u8) -> Call {
    let name = NAMES[usize::from(k) % NAMES.len()];
    match k % 6 {
        0 => Call::new("read_file", json!({ "file_path": name })),
        1 => Call::new("bash", json!({ "command": format!("cat {name}") })),
        2 => Call::new("bash", json!({ "command": "cat a/*/x c/*" })),
        3 => Call::new("bash", json!({ "command": format!("echo hi > {name}") })),
        4 => Call::new("write", json!({ "file_path": name, "content": "x" })),
        _ => Call::new("bash", json!({ "command": format!("cd a && ls ../{name}") })),
    }
}

fn target(out: &Path, k: u8) -> PathBuf {
    match k % 8 {
        0 => out.to_path_buf(),
        1 => out.join("secret"),
        2 => "/etc".into(),
        3 => "../..".into(),
        n => PathBuf::from(NAMES[usize::from(n) % NAMES.len()]),
    }
}

/// Whether `rel` under `ws` is reached without passing a symbolic link (the last component
/// too when `last`).
fn unlinked(ws: &Path, rel: &str, last: bool) -> bool {
    let parts: Vec<&str> = rel.split('/').collect();
    let upto = if last { parts.len() } else { parts.len() - 1 };
    (1..=upto)
        .all(|k| std::fs::symlink_metadata(ws.join(parts[..k].join("/"))).map_or(true, |m| !m.file_type().is_symlink()))
}

static RUN: AtomicUsize = AtomicUsize::new(0);

fuzz_target!(|data: &[u8]| {
    let root = std::env::temp_dir().join(format!(
        "gate-fuzz-memo-{}-{}",
        std::process::id(),
        RUN.fetch_add(1, Ordering::SeqCst)
    ));
    let (ws, out) = (root.join("ws"), root.join("out"));
    let _ = std::fs::remove_dir_all(&root);
    if std::fs::create_dir_all(&ws).is_err() || std::fs::create_dir_all(&out).is_err() {
        return;
    }
    let _ = std::fs::write(out.join("secret"), "s");
    let env = Env { base_dir: ws.clone(), home: Some("/nonexistent-home".into()), cwd: ws.clone() };
    let policy = Policy::from_yaml(POLICY, "host.yaml", &env).unwrap();
    let ctx = Context::default();
    let mut memo = Memo::new();
    for op in data.chunks(3) {
        let (a, b) = (op.first().copied().unwrap_or(0), op.get(1).copied().unwrap_or(0));
        let name = |i: u8| NAMES[usize::from(i) % NAMES.len()];
        let p = |i: u8| ws.join(name(i));
        // Never act through a link the run made: it would write outside the scratch directory.
        let safe = |i: u8, last: bool| unlinked(&ws, name(i), last);
        let c = op.get(2).copied().unwrap_or(a);
        match op[0] % 7 {
            0 if safe(b, true) => drop(std::fs::create_dir(p(b))),
            1 if safe(b, true) => drop(std::fs::write(p(b), "x")),
            2 if safe(b, false) => drop(std::fs::remove_file(p(b)).or_else(|_| std::fs::remove_dir_all(p(b)))),
            3 if safe(b, false) => drop(std::os::unix::fs::symlink(target(&out, c), p(b))),
            4 if safe(b, false) && safe(c, false) => drop(std::fs::rename(p(b), p(c))),
            0..=4 => {}
            _ => {
                let c = call(b);
                let remembered = memo.decide(&policy, &ctx, 0, &c, call_hash(&c));
                let fresh = policy.decide_real(&c, &ctx, &gate::resolve::real_for(&ws));
                assert_eq!(remembered, fresh, "{c:?}");
            }
        }
    }
    let _ = std::fs::remove_dir_all(&root);
});
