//! Decision-core benchmarks (issue 6): one decision against policies of 10, 1,000 and 100,000
//! rules (shell and path calls); shell analysis by command complexity; the chain with session
//! and "always" approvals loaded. Run: `cargo bench --bench decide`.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use gate::policy::{Call, Context, Env, Policy, SessionApprovals};
use serde_json::json;
use std::hint::black_box;

/// A policy of `n` synthetic rules (see `gate::policy::synthetic`).
pub fn policy_with(n: usize) -> Policy {
    let env = Env { base_dir: "/ws".into(), home: Some("/home/u".into()), cwd: "/ws".into() };
    Policy::from_yaml(&gate::policy::synthetic::policy_text(n), "host.yaml", &env).expect("bench policy")
}

fn decisions(c: &mut Criterion) {
    let mut g = c.benchmark_group("decide");
    let calls = [
        ("shell_allowed", Call::new("bash", json!({"command": "cargo test -p gate"}))),
        ("shell_compound_denied", Call::new("bash", json!({"command": "git status && npm test && rm -rf build"}))),
        ("write_path", Call::new("write", json!({"file_path": "docs/guide/intro.md", "content": "x"}))),
        ("write_denied_path", Call::new("write", json!({"file_path": "config/.env.local", "content": "x"}))),
    ];
    for n in [10usize, 1_000, 100_000] {
        let p = policy_with(n);
        for (name, call) in &calls {
            g.bench_with_input(BenchmarkId::new(*name, n), call, |b, call| {
                b.iter(|| black_box(p.decide(black_box(call), &Context::default())))
            });
        }
    }
    g.finish();
}

fn analysis(c: &mut Criterion) {
    let mut g = c.benchmark_group("shell_analysis");
    let texts = [
        ("word", "ls"),
        ("chain3", "git status && npm test | grep ok"),
        ("heredoc", "cat <<EOF > notes.txt\nline one\n$(date)\nline three\nEOF"),
        ("nested_subst", "echo $(ls $(dirname $(pwd)) | grep \"$(whoami)\")"),
        ("wrappers", "sudo -u bob env FOO=1 nice -n 5 timeout 10 bash -c 'git log -n 3; npm test'"),
    ];
    for (name, text) in texts {
        g.bench_function(name, |b| b.iter(|| black_box(gate::shell::analyze(black_box(text)))));
    }
    g.finish();
}

fn approvals(c: &mut Criterion) {
    let mut g = c.benchmark_group("chain_with_approvals");
    let mut p = policy_with(1_000);
    let always: Vec<String> =
        (0..200).map(|i| format!("Bash(always{i} *)")).chain(["Bash(npm install *)".into()]).collect();
    p.set_always(&always).unwrap();
    let session = SessionApprovals {
        patterns: (0..50).map(|i| format!("Bash(session{i} *)")).chain(["Bash(make build *)".into()]).collect(),
    };
    let ctx = Context { active_skills: &[], session: Some(&session) };
    let by_always = Call::new("bash", json!({"command": "npm install left-pad"}));
    let by_session = Call::new("bash", json!({"command": "make build"}));
    g.bench_function("allowed_by_always", |b| b.iter(|| black_box(p.decide(&by_always, &ctx))));
    g.bench_function("allowed_by_session", |b| b.iter(|| black_box(p.decide(&by_session, &ctx))));
    g.finish();
}

criterion_group!(benches, decisions, analysis, approvals);
criterion_main!(benches);
