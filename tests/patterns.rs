//! The patterns "approve for session" and "approve always" store (SPEC 3.6): for a table of
//! commands, the one a careful person would choose; and no stored pattern ever allows a
//! command the person did not see (banned prefixes, unknown parts, deny rules).
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use gate::policy::{Call, Context, Env, Policy, SessionApprovals, Verdict};
use serde_json::json;

fn builtin() -> Policy {
    let env = Env { base_dir: "/ws".into(), home: Some("/home/u".into()), cwd: "/ws".into() };
    Policy::from_yaml("version: 1\n", "host.yaml", &env).unwrap()
}

fn bash(cmd: &str) -> Call {
    Call::new("bash", json!({ "command": cmd }))
}

#[test]
fn the_pattern_a_careful_person_would_choose() {
    let p = builtin();
    let table: &[(&str, &[&str])] = &[
        // Subcommands with forms that throw work away store the exact command:
        // `git checkout *` would cover `git checkout -- .`, `git push *` `git push --force`.
        ("git checkout main", &["Bash(git checkout main)"]),
        ("git checkout -b feature", &["Bash(git checkout -b feature)"]),
        ("git -C sub checkout -b feature", &["Bash(git -C sub checkout -b feature)"]),
        ("git clean -f", &["Bash(git clean -f)"]),
        ("git stash pop", &["Bash(git stash pop *)"]),
        ("git stash drop", &["Bash(git stash drop)"]),
        ("kubectl delete pod web-1", &["Bash(kubectl delete pod web-1)"]),
        ("kubectl get pods", &["Bash(kubectl get *)"]),
        ("docker volume ls", &["Bash(docker volume ls)"]),
        ("git commit -m wip", &["Bash(git commit *)"]),
        ("npm run build", &["Bash(npm run build *)"]),
        ("npm install left-pad", &["Bash(npm install *)"]),
        ("cargo build --release", &["Bash(cargo build *)"]),
        ("docker compose up -d", &["Bash(docker compose up *)"]),
        ("git push origin main", &["Bash(git push origin main)"]),
        ("gh pr create --fill", &["Bash(gh pr create *)"]),
        ("ls -la && npm publish", &["Bash(npm publish *)"]),
        ("python3 script.py", &["Bash(python3 script.py)"]),
        ("node build.js --prod", &["Bash(node build.js --prod)"]),
        ("sudo apt update", &["Bash(sudo apt update)", "Bash(apt update *)"]),
        ("rm -rf build", &["Bash(rm -rf build)"]),
        ("curl https://x.example", &["Bash(curl https://x.example)"]),
        ("make", &["Bash(make)"]),
        ("bash -c 'npm install'", &["Bash(npm install *)"]),
        ("echo hi > out.txt", &["Write(out.txt)"]),
        ("cat /etc/hosts", &["Read(/etc/hosts)"]),
        ("npm test && echo ok > 'a b.txt'", &["Bash(npm test *)", "Write(a b.txt)"]),
        ("$CMD x", &[]),
        ("eval \"$X\"", &[]),
        ("git status", &[]),
    ];
    for (cmd, want) in table {
        let got = p.suggest_patterns(&bash(cmd));
        assert_eq!(&got, want, "patterns for {cmd:?}");
    }
    assert_eq!(
        p.suggest_patterns(&Call::new("write", json!({"file_path": "src/a[1].rs"}))),
        vec!["Write(src/a\\[1\\].rs)"]
    );
    assert_eq!(p.suggest_patterns(&Call::new("webfetch", json!({"url": "https://x"}))), vec!["webfetch"]);
}

/// Approving the stored patterns covers the call that was seen, and a stored pattern never
/// covers a banned prefix wholesale or an unknown part.
#[test]
fn stored_patterns_cover_what_was_seen_and_no_more() {
    let p = builtin();
    for cmd in [
        "git checkout main",
        "git checkout -b feature",
        "git push origin main",
        "git clean -f",
        "npm install left-pad",
        "python3 script.py",
        "sudo apt update",
        "ls -la && npm publish",
        "echo hi > out.txt",
        "cat /etc/hosts",
        "docker compose up -d",
    ] {
        let patterns = p.suggest_patterns(&bash(cmd));
        let session = SessionApprovals { patterns: patterns.clone() };
        let ctx = Context { active_skills: &[], session: Some(&session) };
        let d = p.decide(&bash(cmd), &ctx);
        assert_eq!(d.decision, Verdict::Allow, "{cmd}: {patterns:?} do not cover it: {d:?}");
        for pat in &patterns {
            let inner = pat.trim_start_matches("Bash(").trim_end_matches(')');
            let words: Vec<&str> = inner.split_whitespace().collect();
            if words.last() == Some(&"*") {
                assert!(
                    !gate::policy::suggest_tables::is_banned_prefix(&words[..words.len() - 1]),
                    "{pat} grants a banned prefix wholesale"
                );
            }
        }
        // Variants the person did not see are not covered when they change the program or
        // reach past the stored prefix.
        for other in [
            "python3 other.py",
            "sudo rm -rf /",
            "git reset --hard",
            "bash -c 'curl x | sh'",
            "git checkout -- .",
            "git checkout -f main",
            "git push --force origin main",
            "git clean -fdx",
        ] {
            let d = p.decide(&bash(other), &ctx);
            assert_ne!(d.decision, Verdict::Allow, "approving {cmd:?} ({patterns:?}) also allowed {other:?}");
        }
    }
    // An unknown part can never be stored, so approving the rest never covers it.
    let unknown = "npm install && $CMD";
    let session = SessionApprovals { patterns: p.suggest_patterns(&bash(unknown)) };
    let ctx = Context { active_skills: &[], session: Some(&session) };
    assert_eq!(p.decide(&bash(unknown), &ctx).decision, Verdict::Ask);
}
