//! The chain's tables through the library: modes x risk (SPEC 3.4, every cell), MCP
//! annotations, declared risks, skills, disabled tools.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use gate::policy::{Call, Context, Env, Layer, Mode, Policy, Verdict};
use serde_json::json;

fn policy(extra: &str) -> Policy {
    let env = Env { base_dir: "/ws".into(), home: Some("/home/u".into()), cwd: "/ws".into() };
    let text = format!(
        "version: 1\ntools:\n  lowtool: {{ risk: low }}\n  send_email: {{ risk: critical }}\n  list_files: {{ risk: read-only }}\n{extra}"
    );
    Policy::from_yaml(&text, "host.yaml", &env).unwrap()
}

fn decide(p: &Policy, tool: &str, args: serde_json::Value) -> gate::policy::Decision {
    p.decide(&Call::new(tool, args), &Context::default())
}

#[test]
fn modes_by_risk_every_cell() {
    use Verdict::*;
    // (mode, [read-only, low, edit, high, critical])
    let table = [
        (Mode::Default, [Allow, Allow, Ask, Ask, Ask]),
        (Mode::AcceptEdits, [Allow, Allow, Allow, Ask, Ask]),
        (Mode::Plan, [Allow, Deny, Deny, Deny, Deny]),
        (Mode::DontAsk, [Allow, Allow, Deny, Deny, Deny]),
        (Mode::BypassPermissions, [Allow, Allow, Allow, Allow, Allow]),
    ];
    let calls = [
        ("read", json!({"file_path": "src/a.rs"})),
        ("lowtool", json!({})),
        ("write", json!({"file_path": "src/a.rs", "content": "x"})),
        ("bash", json!({"command": "npm install"})),
        ("send_email", json!({"to": "x"})),
    ];
    for (mode, expected) in table {
        let mut p = policy("");
        p.set_mode(mode);
        for ((tool, args), want) in calls.iter().zip(expected) {
            let d = decide(&p, tool, args.clone());
            assert_eq!(d.decision, want, "{mode:?} {tool}: {d:?}");
        }
    }
}

#[test]
fn mcp_tools_take_risk_from_annotations() {
    let p = policy("");
    let mut call = Call::new("mcp__github__list_issues", json!({}));
    assert_eq!(p.decide(&call, &Context::default()).decision, Verdict::Ask, "no annotations: high");
    call.annotations = Some(json!({"readOnlyHint": true}));
    assert_eq!(p.decide(&call, &Context::default()).decision, Verdict::Allow, "readOnlyHint: low");
    call.annotations = Some(json!({"destructiveHint": true, "readOnlyHint": true}));
    let mut p2 = policy("");
    p2.set_mode(Mode::DontAsk);
    assert_eq!(p2.decide(&call, &Context::default()).decision, Verdict::Deny, "destructiveHint: critical");
    p2.set_mode(Mode::AcceptEdits);
    let d = p2.decide(&call, &Context::default());
    assert_eq!((d.decision, d.layer), (Verdict::Ask, Layer::Mode));
}

#[test]
fn unknown_tools_are_high_risk() {
    let mut p = policy("");
    assert_eq!(decide(&p, "frobnicate", json!({})).decision, Verdict::Ask);
    p.set_mode(Mode::AcceptEdits);
    assert_eq!(decide(&p, "frobnicate", json!({})).decision, Verdict::Ask);
}

#[test]
fn skills_only_from_the_policy_and_only_for_their_turn() {
    let p = policy("skills:\n  deploy: { allow: [\"Bash(kubectl apply *)\"] }\n");
    let call = Call::new("bash", json!({"command": "kubectl apply -f x.yaml"}));
    assert_eq!(p.decide(&call, &Context::default()).decision, Verdict::Ask);
    let active = vec!["deploy".to_string()];
    let d = p.decide(&call, &Context { active_skills: &active, session: None });
    assert_eq!((d.decision, d.layer), (Verdict::Allow, Layer::Skill));
    let other = vec!["kubectl".to_string()];
    assert_eq!(p.decide(&call, &Context { active_skills: &other, session: None }).decision, Verdict::Ask);
}

#[test]
fn disabled_tools_are_whole_tool_denies_with_aliases() {
    let p = policy("permissions:\n  deny: [webfetch, Write, \"Bash(rm *)\"]\n");
    let d = p.disabled_tools();
    assert!(d.contains(&"webfetch".to_string()));
    assert!(d.contains(&"write".to_string()) && d.contains(&"Edit".to_string()), "{d:?}");
    assert!(!d.contains(&"bash".to_string()), "a pattern deny does not disable the tool");
}

#[test]
fn every_deny_names_its_rule_and_every_decision_a_reason() {
    let p = policy("permissions:\n  deny: [\"Bash(rm *)\", { tool: write, when: { file_path: \"**/.env*\" } }]\n");
    for (tool, args) in [
        ("bash", json!({"command": "ls && rm -rf /"})),
        ("write", json!({"file_path": "a/.env", "content": ""})),
        ("bash", json!({"command": "echo x > .env"})),
    ] {
        let d = decide(&p, tool, args);
        assert_eq!(d.decision, Verdict::Deny);
        assert!(d.rule.is_some(), "{d:?}");
        assert!(!d.reason.is_empty());
    }
    let d = decide(&p, "bash", json!({"command": 42}));
    assert_eq!((d.decision, d.layer), (Verdict::Deny, Layer::Error), "malformed shell call");
}
