//! Fuzz the meeting of a rule's path glob and a shell glob (`Glob::could_match_shell`), which
//! decides a glob read by every rule that could match a path it expands to: whenever one
//! path matches both (the rule by gate's matcher, the shell glob by bash's rules, checked with
//! globset and the leading-dot rule), the two must be said to meet.
#![no_main]

use gate::policy::glob::Glob;
use libfuzzer_sys::fuzz_target;

const ALPHABET: &[char] = &['a', 'b', '.', '*', '?', '/', '['];

fn text(bytes: &[u8], glob: bool) -> String {
    let mut s = String::new();
    for &b in bytes {
        let c = ALPHABET[usize::from(b) % ALPHABET.len()];
        match c {
            '*' | '?' if !glob => s.push('a'),
            '[' if glob => s.push_str("[ab]"),
            '[' => s.push('b'),
            c => s.push(c),
        }
    }
    s
}

fn shell_matches(pattern: &str, path: &str) -> bool {
    let ps: Vec<&str> = pattern.split('/').collect();
    let xs: Vec<&str> = path.split('/').collect();
    ps.len() == xs.len()
        && ps.iter().zip(&xs).all(|(p, x)| {
            let Ok(g) = globset::GlobBuilder::new(p).literal_separator(true).build() else { return false };
            g.compile_matcher().is_match(x) && (p.starts_with('.') || !x.starts_with('.'))
        })
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let (a, rest) = data.split_at(usize::from(data[0] % 8).min(data.len() - 1));
    let (b, c) = rest.split_at(rest.len() / 2);
    let deep = a.first().is_some_and(|x| x % 2 == 0);
    let rule = format!("{}{}", if deep { "**/" } else { "" }, text(a, true));
    let shell = text(b, true);
    let path = text(c, false);
    if rule.is_empty() || shell.is_empty() || path.is_empty() || path.contains("//") || path.starts_with('/') {
        return;
    }
    let Ok(globs) = Glob::compile(&rule) else { return };
    if globs.iter().any(|g| g.is_match(&path)) && shell_matches(&shell, &path) {
        assert!(globs.iter().any(|g| g.could_match_shell(&shell)), "{rule} {shell} {path}");
    }
});
