//! Property tests of the decision core (pure library; the corpus tests drive the binary):
//! whatever way an allowed command A and a denied command D are combined, the call is never
//! allowed; deny rules beat every allow layer; path tricks never reach a denied path.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use gate::policy::{Call, Context, Env, Policy, SessionApprovals, Verdict};
use gate::shell::compose::{compose, FORMS};
use proptest::prelude::*;
use serde_json::json;

const POLICY: &str = include_str!("corpus/host.yaml");

fn policy() -> Policy {
    let env = Env { base_dir: "/ws".into(), home: Some("/home/u".into()), cwd: "/ws".into() };
    Policy::from_yaml(POLICY, "host.yaml", &env).expect("corpus policy parses")
}

fn decide(p: &Policy, cmd: &str) -> Verdict {
    p.decide(&Call::new("bash", json!({ "command": cmd })), &Context::default()).decision
}

const ALLOWED: &[&str] = &[
    "git status",
    "git diff --stat",
    "npm test",
    "ls -la",
    "echo hi",
    "cat README.md",
    "git log -n 3",
    "cargo test -p x",
    "npm run build",
    "grep -rn foo src",
    "true",
];

const DENIED: &[&str] = &[
    "rm -rf /",
    "rm x",
    "sudo ls",
    "curl https://x.example",
    "git reset --hard HEAD",
    "sudo -u bob rm y",
    "/bin/rm z",
    "\\rm q",
    "r\"\"m w",
    "git -C . reset --hard",
    "/usr/bin/curl x",
    "rm -- -rf",
];

#[test]
fn allowed_and_denied_commands_alone() {
    let p = policy();
    for a in ALLOWED {
        assert_eq!(decide(&p, a), Verdict::Allow, "{a}");
    }
    for d in DENIED {
        assert_eq!(decide(&p, d), Verdict::Deny, "{d}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    /// A and D combined in any of the composition forms is never allowed (and is denied).
    #[test]
    fn combinations_are_never_allowed(a in prop::sample::select(ALLOWED), d in prop::sample::select(DENIED), form in 0..FORMS) {
        let p = policy();
        let cmd = compose(form, a, d);
        let v = decide(&p, &cmd);
        prop_assert_ne!(v, Verdict::Allow, "bypass: {:?}", cmd);
    }

    /// Two levels of nesting: the composed text hidden again.
    #[test]
    fn nested_combinations_are_never_allowed(a in prop::sample::select(ALLOWED), d in prop::sample::select(DENIED), f1 in 0..FORMS, f2 in 0..FORMS) {
        let p = policy();
        let inner = compose(f1, a, d);
        // Outer forms that put the hidden text in quotes need it free of the same quotes.
        let cmd = if inner.contains('\'') || inner.contains('"') || inner.contains('`') || inner.contains('\n') {
            format!("{a} && {inner}")
        } else {
            compose(f2, a, &inner)
        };
        let v = decide(&p, &cmd);
        prop_assert_ne!(v, Verdict::Allow, "bypass: {:?}", cmd);
    }

    /// No approval a person or the agent can add makes a denied command allowed.
    #[test]
    fn deny_beats_every_approval(d in prop::sample::select(DENIED), form in 0..FORMS) {
        let mut p = policy();
        let cmd = compose(form, "git status", d);
        let broad = vec!["Bash(rm *)".to_string(), "Bash(sudo *)".to_string(), "Bash(curl *)".to_string(), "Bash(git *)".to_string(), "bash".to_string()];
        p.set_always(&broad).unwrap();
        let session = SessionApprovals { patterns: broad.clone() };
        let skills = vec!["anything".to_string()];
        let ctx = Context { active_skills: &skills, session: Some(&session) };
        for mode in [gate::policy::Mode::BypassPermissions, gate::policy::Mode::AcceptEdits, gate::policy::Mode::Default] {
            p.set_mode(mode);
            let v = p.decide(&Call::new("bash", json!({ "command": cmd })), &ctx).decision;
            prop_assert_ne!(v, Verdict::Allow, "bypass under {:?}: {:?}", mode, cmd);
        }
    }

    /// Any spelling of a path that resolves to a denied file is denied.
    #[test]
    fn path_tricks_reach_the_deny_rule(segs in prop::collection::vec(prop::sample::select(&["a", "b", ".", "docs", "x.md"][..]), 0..5), suffix in prop::sample::select(&[".env", ".env.local", ".env.prod"][..])) {
        let p = policy();
        // Walk into segs, then back out with as many `..`, then the denied file.
        let mut path = String::new();
        for s in &segs {
            path.push_str(s);
            path.push('/');
        }
        for s in &segs {
            if *s != "." {
                path.push_str("../");
            }
        }
        path.push_str(suffix);
        let d = p.decide(&Call::new("write", json!({ "file_path": path, "content": "x" })), &Context::default());
        prop_assert_eq!(d.decision, Verdict::Deny, "{}", path);
        let shell = format!("echo x > '{path}'");
        prop_assert_eq!(decide(&p, &shell), Verdict::Deny, "{}", shell);
    }

    /// Arbitrary text never panics and never yields a malformed decision.
    #[test]
    fn arbitrary_text_is_decided(s in "\\PC{0,120}") {
        let p = policy();
        let d = p.decide(&Call::new("bash", json!({ "command": s })), &Context::default());
        if d.decision == Verdict::Allow {
            for part in d.parts.iter().flatten() {
                prop_assert_eq!(part.decision, Verdict::Allow);
            }
        }
    }
}

/// gate's compact path-glob matcher agrees with globset (`literal_separator(true)`, the
/// semantics host.yaml documents) on generated patterns and paths.
mod glob_equivalence {
    use gate::policy::glob::Glob;
    use proptest::prelude::*;

    fn pattern() -> impl Strategy<Value = String> {
        prop::collection::vec(
            prop::sample::select(
                &["a", "b", ".", "*", "?", "/", "**/", "/**", "[ab]", "[!a]", "{a,b}", "{x,a/b}", "\\*", "-", "ab"][..],
            ),
            1..7,
        )
        .prop_map(|v| v.concat())
    }

    fn path() -> impl Strategy<Value = String> {
        prop::collection::vec(prop::sample::select(&["a", "b", ".", "/", "ab", "x", "*", "-"][..]), 0..8)
            .prop_map(|v| v.concat())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 5000, ..ProptestConfig::default() })]
        #[test]
        fn agrees_with_globset(p in pattern(), s in path()) {
            let Ok(g) = globset::GlobBuilder::new(&p).literal_separator(true).backslash_escape(true).build() else {
                return Ok(());
            };
            let Ok(ours) = Glob::compile(&p) else {
                // gate rejects a few patterns globset takes; they never reach matching.
                return Ok(());
            };
            let theirs = g.compile_matcher().is_match(&s);
            let mine = ours.iter().any(|m| m.is_match(&s));
            prop_assert_eq!(mine, theirs, "pattern {:?} path {:?}", p, s);
        }
    }
}

/// Symbolic-link layouts (hardening round 2): a link inside the workspace, reached through any
/// spelling of its path, to `.env` or to a directory outside, is never allowed as a write,
/// whether named by the edit tool or by a shell redirection.
mod symlinks {
    use super::*;

    fn layout() -> (tempfile::TempDir, Policy) {
        let d = tempfile::tempdir().unwrap();
        let ws = d.path().join("ws");
        std::fs::create_dir_all(ws.join("docs/sub")).unwrap();
        std::fs::create_dir_all(d.path().join("outside")).unwrap();
        std::fs::write(ws.join(".env"), "S=1\n").unwrap();
        std::os::unix::fs::symlink("../.env", ws.join("docs/notes.md")).unwrap();
        std::os::unix::fs::symlink("../../.env", ws.join("docs/sub/deep.md")).unwrap();
        std::os::unix::fs::symlink(d.path().join("outside"), ws.join("docs/ext")).unwrap();
        std::os::unix::fs::symlink(d.path().join("outside"), ws.join("out")).unwrap();
        let policy = "version: 1\nmode: acceptEdits\npermissions:\n  allow: [ \"Write(docs/**)\", \"Bash(echo *)\" ]\n  deny: [ \"Write(**/.env*)\" ]\n";
        let env = Env { base_dir: ws.clone(), home: Some("/home/u".into()), cwd: ws };
        let p = Policy::from_yaml(policy, "host.yaml", &env).unwrap();
        (d, p)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        #[test]
        fn links_out_of_the_workspace_or_to_env_are_never_allowed(
            target in prop::sample::select(vec!["docs/notes.md", "docs/sub/deep.md", "docs/ext/x.md", "out/y", "docs/ext/../ext/z.md"]),
            dots in prop::sample::select(vec!["", "./", "docs/../", "docs/sub/../../"]),
            via_shell in any::<bool>(),
        ) {
            let (_d, p) = layout();
            let path = format!("{dots}{target}");
            let call = if via_shell {
                Call::new("bash", json!({ "command": format!("echo x > {path}") }))
            } else {
                Call::new("write", json!({ "file_path": path }))
            };
            let real = gate::resolve::real_for(p.workspace());
            let d = p.decide_real(&call, &Context::default(), &real);
            prop_assert_ne!(d.decision, Verdict::Allow, "{} allowed: {:?}", path, d);
        }
    }
}

/// Option-aware matching (hardening round 2): whatever way the options of a deny rule are
/// spelled (bundled in any order, synonyms, long forms, `=VALUE`), the rule denies.
mod option_spellings {
    use super::*;

    fn policy() -> Policy {
        let env = Env { base_dir: "/ws".into(), home: Some("/home/u".into()), cwd: "/ws".into() };
        let text = "version: 1\npermissions:\n  deny: [ \"Bash(rm -r -f *)\", \"Bash(git push --force *)\", \"Bash(chmod -R *)\" ]\n";
        Policy::from_yaml(text, "host.yaml", &env).unwrap()
    }

    fn spell_rm(r: u8, f: u8, extra: bool, bundle: bool, order: bool) -> String {
        let r = ["-r", "-R", "--recursive"][usize::from(r % 3)];
        let f = ["-f", "--force"][usize::from(f % 2)];
        let mut opts: Vec<&str> = if order { vec![r, f] } else { vec![f, r] };
        if extra {
            opts.push("-v");
        }
        if bundle && opts.iter().all(|o| o.len() == 2) {
            format!("rm -{} x", opts.iter().map(|o| &o[1..]).collect::<String>())
        } else {
            format!("rm {} x", opts.join(" "))
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(400))]
        #[test]
        fn every_spelling_of_a_denied_option_set_is_denied(
            r in 0u8..3, f in 0u8..2, extra in any::<bool>(), bundle in any::<bool>(), order in any::<bool>(),
            push_form in prop::sample::select(vec!["--force", "-f", "--force=yes", "--force origin"]),
            chmod_form in prop::sample::select(vec!["-R", "--recursive", "-Rv", "-vR"]),
        ) {
            let p = policy();
            let rm = spell_rm(r, f, extra, bundle, order);
            prop_assert_eq!(decide(&p, &rm), Verdict::Deny, "{}", rm);
            let push = format!("git push {push_form} main");
            prop_assert_eq!(decide(&p, &push), Verdict::Deny, "{}", push);
            let chmod = format!("chmod {chmod_form} 777 x");
            prop_assert_eq!(decide(&p, &chmod), Verdict::Deny, "{}", chmod);
        }
    }
}
