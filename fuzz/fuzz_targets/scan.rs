//! Fuzz the conservative scan of text gate refuses to parse (hardening round 2, item 2): a
//! denied command inside fuzz-chosen nesting deeper than the parser takes, with fuzz-chosen
//! control characters spliced into its program name, is never allowed, and nothing panics.
#![no_main]

use gate::policy::{Call, Context, Env, Policy, Verdict};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const POLICY: &str = include_str!("../../tests/corpus/host.yaml");

fn policy() -> &'static Policy {
    static P: OnceLock<Policy> = OnceLock::new();
    P.get_or_init(|| {
        let env = Env { base_dir: "/ws".into(), home: Some("/home/u".into()), cwd: "/ws".into() };
        Policy::from_yaml(POLICY, "host.yaml", &env).unwrap()
    })
}

fuzz_target!(|data: &[u8]| {
    let Some((&depth, rest)) = data.split_first() else { return };
    let depth = 17 + usize::from(depth % 24);
    // The program name `rm` with fuzz bytes that bash drops or ignores (quotes, backslashes,
    // control characters) between its letters.
    let noise: String = rest
        .iter()
        .take(8)
        .map(|b| match b % 5 {
            0 => '\'',
            1 => '"',
            2 => '\\',
            3 => char::from(b % 32),
            _ => '\u{0}',
        })
        .collect();
    let (a, b) = noise.split_at(noise.len() / 2);
    let inner = format!("{a}r{b}m -rf /");
    let open = if rest.len() % 2 == 0 { "( " } else { "$(" };
    let close = if open == "( " { " )" } else { ")" };
    let text = format!("echo {}{inner}{}", open.repeat(depth), close.repeat(depth));
    let d = policy().decide(&Call::new("bash", serde_json::json!({ "command": text })), &Context::default());
    assert_ne!(d.decision, Verdict::Allow, "allowed: {text:?}");
});
