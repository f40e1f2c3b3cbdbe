//! Fuzz the shell analysis and the chain. Two modes, chosen by the first byte:
//! - raw text: analysis and decision never panic, and an allowed call has only allowed parts;
//! - a denied command hidden in fuzz-chosen compositions around fuzz-chosen text: never allowed.
#![no_main]

use gate::policy::{Call, Context, Env, Policy, Verdict};
use gate::shell::compose::{compose, FORMS};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const POLICY: &str = include_str!("../../tests/corpus/host.yaml");
const DENIED: &[&str] = &["rm -rf /", "sudo ls", "curl x", "git reset --hard", "\\rm x", "/bin/rm y"];

fn policy() -> &'static Policy {
    static P: OnceLock<Policy> = OnceLock::new();
    P.get_or_init(|| {
        let env = Env { base_dir: "/ws".into(), home: Some("/home/u".into()), cwd: "/ws".into() };
        Policy::from_yaml(POLICY, "host.yaml", &env).unwrap()
    })
}

fn decide(cmd: &str) -> gate::policy::Decision {
    policy().decide(&Call::new("bash", serde_json::json!({ "command": cmd })), &Context::default())
}

fuzz_target!(|data: &[u8]| {
    let Some((&mode, rest)) = data.split_first() else { return };
    let text = String::from_utf8_lossy(rest);
    if mode % 2 == 0 {
        let a = gate::shell::analyze(&text);
        // The directories a command walks following links: never a panic, whatever the words.
        for c in &a.commands {
            let _ = gate::shell::walks_below(&c.words, true);
            let _ = gate::shell::find_listing_dirs(&c.words);
        }
        let d = decide(&text);
        if d.decision == Verdict::Allow {
            assert!(
                d.parts.iter().flatten().all(|p| p.decision == Verdict::Allow),
                "allow with a non-allowed part: {text:?}"
            );
        }
    } else {
        // Fuzz text becomes the visible command: a plain word sequence (no shell syntax of
        // its own, so it cannot legitimately swallow the hidden command into a string).
        let visible: String =
            text.chars().filter(|c| c.is_ascii_alphanumeric() || *c == ' ' || *c == '-').take(40).collect();
        let visible = if visible.trim().is_empty() { "true".to_string() } else { visible };
        let mut cmd = DENIED[usize::from(mode / 2) % DENIED.len()].to_string();
        for (i, b) in rest.iter().take(3).enumerate() {
            cmd = if i == 0 {
                compose(usize::from(*b) % FORMS, &visible, &cmd)
            } else if cmd.contains(['\'', '"', '`', '\n']) {
                format!("{visible} && {cmd}")
            } else {
                compose(usize::from(*b) % FORMS, &visible, &cmd)
            };
        }
        let d = decide(&cmd);
        assert_ne!(d.decision, Verdict::Allow, "bypass: {cmd:?}");
    }
});
