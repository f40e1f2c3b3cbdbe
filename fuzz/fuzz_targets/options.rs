//! Fuzz the option grammars (issue 15 class 1) through the whole decision: a tabled program
//! with fuzz-chosen words (bundles, glued values, long options and their prefixes, `--`, `-`,
//! paths, `.env`) never panics; quoting each word (which changes no word) never changes the
//! decision; and a denied command after it in a list is always denied.
#![no_main]

use gate::policy::{Call, Context, Env, Policy, Verdict};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

const POLICY: &str = include_str!("../../tests/corpus/host.yaml");

/// Pieces words are made of: option letters, long-option stems, values, separators.
const PIECES: &[&str] = &[
    "-",
    "--",
    "=",
    "o",
    "c",
    "e",
    "f",
    "i",
    "n",
    "r",
    "x",
    "S",
    "C",
    "I",
    "0",
    "5",
    "out",
    "output",
    "exec",
    "command",
    "file",
    "split-string",
    "chdir",
    "in-place",
    "version",
    ".env",
    "src",
    "/etc/passwd",
    "x",
    "{}",
    "@",
    "a.txt",
];

fn policy() -> &'static Policy {
    static P: OnceLock<Policy> = OnceLock::new();
    P.get_or_init(|| {
        let env = Env { base_dir: "/ws".into(), home: Some("/home/u".into()), cwd: "/ws".into() };
        Policy::from_yaml(POLICY, "host.yaml", &env).unwrap()
    })
}

fn decide(cmd: &str) -> Verdict {
    policy().decide(&Call::new("bash", serde_json::json!({ "command": cmd })), &Context::default()).decision
}

fuzz_target!(|data: &[u8]| {
    let programs = gate::shell::tabled_programs();
    let Some((&p, rest)) = data.split_first() else { return };
    let program = programs[usize::from(p) % programs.len()];
    // Words: each byte picks a piece; a byte with the high bit ends the word.
    let mut words: Vec<String> = Vec::new();
    let mut cur = String::new();
    for &b in rest.iter().take(64) {
        cur.push_str(PIECES[usize::from(b & 0x7f) % PIECES.len()]);
        if b & 0x80 != 0 {
            words.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        words.push(cur);
    }
    let plain = format!("{program} {}", words.join(" "));
    // Quote what follows a word's first `=` (`a=b` before a command is an assignment, which
    // bash recognises before quotes are removed, and `time a=` runs nothing).
    let quote = |w: &String| match w.split_once('=') {
        Some((name, value)) => format!("{name}='{value}'"),
        None => format!("'{w}'"),
    };
    let quoted = format!("{program} {}", words.iter().map(quote).collect::<Vec<_>>().join(" "));
    let d = decide(&plain);
    // `{}` and `@` are literal in both spellings; no piece holds a shell special character.
    assert_eq!(d, decide(&quoted), "{plain:?} vs {quoted:?}");
    assert_eq!(decide(&format!("{plain}; rm -rf /")), Verdict::Deny, "{plain:?}");
});
