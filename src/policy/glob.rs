//! A compact, segment-aware glob matcher for path rules: `*` and `?` stay inside one path
//! segment, `**` crosses segments, `[...]` classes, `{a,b}` alternatives, `\` escapes.
//!
//! Patterns are validated by globset (with `literal_separator(true)`) when a policy loads, and
//! a property test checks this matcher agrees with globset. It exists because a globset
//! `GlobSet` of thousands of path rules costs megabytes of regex automata and milliseconds to
//! build, where these matchers cost a few bytes each and index by their literal first segment.

/// One token of a segment pattern.
#[derive(Clone, Debug)]
enum Tok {
    Lit(char),
    /// `*`: any run of characters in the segment.
    Star,
    /// `?`: one character.
    One,
    /// `[...]` / `[!...]`: one character in (or not in) the ranges.
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

#[derive(Clone, Debug)]
enum Seg {
    /// `**`: any number of whole segments.
    Deep,
    Pat(Vec<Tok>),
}

/// One compiled path glob (after brace expansion: a pattern with `{a,b}` becomes several).
/// Patterns outside the subset this matcher mirrors exactly (alternatives or classes holding
/// `/`, nested braces) fall back to globset's own matcher.
#[derive(Clone, Debug)]
pub struct Glob {
    segs: Vec<Seg>,
    fallback: Option<Box<globset::GlobMatcher>>,
}

/// The most alternatives a pattern's braces may expand to.
const MAX_ALTERNATIVES: usize = 256;

impl Glob {
    /// Compile a pattern into its brace-expanded alternatives. Errors for patterns this
    /// matcher does not handle the way globset does.
    pub fn compile(pattern: &str) -> Result<Vec<Glob>, String> {
        let gs = globset::GlobBuilder::new(pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| e.kind().to_string())?;
        match Glob::compile_fast(pattern) {
            Ok(v) => Ok(v),
            Err(_) => Ok(vec![Glob { segs: Vec::new(), fallback: Some(Box::new(gs.compile_matcher())) }]),
        }
    }

    fn compile_fast(pattern: &str) -> Result<Vec<Glob>, String> {
        if pattern.contains("{")
            && (pattern.matches('{').count() > 1 || brace_body(pattern).contains(['/', '*', '[', '\\']))
        {
            return Err("alternatives this matcher does not mirror".into());
        }
        // globset lets `[/]` and negated classes (`[!a]`) match a separator; segments cannot.
        if class_holds_slash(pattern) || pattern.contains("[!") || pattern.contains("[^") {
            return Err("class with a separator".into());
        }
        let mut out = Vec::new();
        for alt in expand_braces(pattern)? {
            out.push(Glob::compile_one(&alt)?);
        }
        Ok(out)
    }

    fn compile_one(pattern: &str) -> Result<Glob, String> {
        // globset: a pattern that is only `**` (or `**/`) matches everything.
        if pattern == "**" || pattern == "**/" {
            return Ok(Glob { segs: vec![Seg::Deep, Seg::Deep], fallback: None });
        }
        let mut segs = Vec::new();
        for raw in split_unescaped(pattern) {
            if raw == "**" {
                if !matches!(segs.last(), Some(Seg::Deep)) {
                    segs.push(Seg::Deep);
                }
                continue;
            }
            segs.push(Seg::Pat(tokens(&raw)?));
        }
        // Only recursion, with or without a trailing separator: globset matches everything.
        if matches!(segs.as_slice(), [Seg::Deep] | [Seg::Deep, Seg::Pat(_)] if segs.len() == 1 || matches!(&segs[1], Seg::Pat(t) if t.is_empty()))
        {
            return Ok(Glob { segs: vec![Seg::Deep, Seg::Deep], fallback: None });
        }
        Ok(Glob { segs, fallback: None })
    }

    /// The literal first segment, if the pattern has one (the index key).
    pub fn literal_first(&self) -> Option<String> {
        if self.fallback.is_some() {
            return None;
        }
        match self.segs.first() {
            Some(Seg::Pat(toks)) if toks.iter().all(|t| matches!(t, Tok::Lit(_))) => {
                Some(toks.iter().map(|t| if let Tok::Lit(c) = t { *c } else { '?' }).collect())
            }
            _ => None,
        }
    }

    /// Match a path (`/`-separated; a leading `/` makes an empty first segment).
    pub fn is_match(&self, path: &str) -> bool {
        if let Some(f) = &self.fallback {
            return f.is_match(path);
        }
        if matches!(self.segs.as_slice(), [Seg::Deep, Seg::Deep]) {
            return true;
        }
        let segs: Vec<&str> = path.split('/').collect();
        match_segs(&self.segs, &segs)
    }
}

/// One segment of a shell glob, as bash expands it.
enum ShellSeg {
    /// `**` (with globstar): any number of segments.
    Deep,
    /// A segment; `true` when it cannot match a name starting with `.` (bash's `*`, `?` and
    /// `[...]` never match a leading dot unless the segment starts with one).
    Pat(bool, Vec<Tok>),
}

impl Glob {
    /// Whether some path matches both this glob and `shell`, a path with bash's `*`, `?` and
    /// `[...]` in its segments (braces already expanded). Conservative: true for what either
    /// side does not model exactly (a fallback matcher, a pattern this reader refuses).
    pub fn could_match_shell(&self, shell: &str) -> bool {
        if self.fallback.is_some() || matches!(self.segs.as_slice(), [Seg::Deep, Seg::Deep]) {
            return true;
        }
        let mut segs = Vec::new();
        for raw in split_unescaped(shell) {
            if raw == "**" {
                segs.push(ShellSeg::Deep);
                continue;
            }
            let Ok(toks) = tokens(&raw) else { return true };
            let hidden_safe = !matches!(toks.first(), Some(Tok::Lit('.')));
            segs.push(ShellSeg::Pat(hidden_safe, toks));
        }
        if self.segs.len() + segs.len() > 64 {
            return true;
        }
        segs_intersect(&self.segs, &segs)
    }
}

impl Glob {
    /// Whether every path the shell glob `shell` (bash's `*`, `?` and `[...]` in its segments,
    /// `**`) expands to matches this glob. Sufficient, not exact: this glob's `*` may take
    /// any part of one segment of the shell glob, its letters must meet the same letters, its
    /// `**` any whole segments; its `?` and classes, and a fallback matcher, answer false.
    pub fn contains_shell(&self, shell: &str) -> bool {
        if self.fallback.is_some() || shell.len() > 256 {
            return false;
        }
        if matches!(self.segs.as_slice(), [Seg::Deep, Seg::Deep]) {
            return true;
        }
        // (A shell `**`, any number of segments under globstar, `*` without: only this
        // glob's `**` takes it.)
        let mut segs = Vec::new();
        for raw in split_unescaped(shell) {
            match tokens(&raw) {
                _ if raw == "**" => segs.push(None),
                Ok(toks) => segs.push(Some(toks)),
                Err(_) => return false,
            }
        }
        if self.segs.len() + segs.len() > 64 {
            return false;
        }
        segs_contain(&self.segs, &segs)
    }
}

fn segs_contain(r: &[Seg], s: &[Option<Vec<Tok>>]) -> bool {
    match r.split_first() {
        None => s.is_empty(),
        Some((Seg::Deep, rest)) => (0..=s.len()).any(|k| segs_contain(rest, &s[k..])),
        Some((Seg::Pat(t), rest)) => {
            matches!(s.first(), Some(Some(first)) if toks_contain(t, first)) && segs_contain(rest, &s[1..])
        }
    }
}

fn toks_contain(r: &[Tok], s: &[Tok]) -> bool {
    match r.split_first() {
        None => s.is_empty(),
        Some((Tok::Star, rest)) => (0..=s.len()).any(|k| toks_contain(rest, &s[k..])),
        Some((Tok::Lit(c), rest)) => matches!(s.first(), Some(Tok::Lit(d)) if d == c) && toks_contain(rest, &s[1..]),
        Some(_) => false,
    }
}

fn segs_intersect(r: &[Seg], s: &[ShellSeg]) -> bool {
    match (r.first(), s.first()) {
        (None, None) => true,
        (Some(Seg::Deep), _) => segs_intersect(&r[1..], s) || (!s.is_empty() && segs_intersect(r, &s[1..])),
        (_, Some(ShellSeg::Deep)) => segs_intersect(r, &s[1..]) || (!r.is_empty() && segs_intersect(&r[1..], s)),
        (Some(Seg::Pat(a)), Some(ShellSeg::Pat(no_dot, b))) => {
            toks_intersect(a, b, *no_dot) && segs_intersect(&r[1..], &s[1..])
        }
        _ => false,
    }
}

/// Whether one string matches both token lists (`no_dot`: it may not start with `.`).
fn toks_intersect(a: &[Tok], b: &[Tok], no_dot: bool) -> bool {
    if a.len() * b.len() > 4096 {
        return true;
    }
    let mut memo = vec![None; (a.len() + 1) * (b.len() + 1) * 2];
    toks_go(a, b, 0, 0, true, no_dot, &mut memo)
}

fn toks_go(a: &[Tok], b: &[Tok], i: usize, j: usize, start: bool, no_dot: bool, memo: &mut [Option<bool>]) -> bool {
    let key = (i * (b.len() + 1) + j) * 2 + usize::from(start);
    if let Some(v) = memo[key] {
        return v;
    }
    let forbid = start && no_dot;
    let v = match (a.get(i), b.get(j)) {
        (None, None) => true,
        (Some(Tok::Star), _) => {
            toks_go(a, b, i + 1, j, start, no_dot, memo)
                || matches!(b.get(j), Some(t) if !matches!(t, Tok::Star) && one_char(&Tok::One, t, forbid))
                    && toks_go(a, b, i, j + 1, false, no_dot, memo)
                || matches!(b.get(j), Some(Tok::Star)) && toks_go(a, b, i, j + 1, start, no_dot, memo)
                // Both stars take the same first character, one that is not a dot.
                || start && matches!(b.get(j), Some(Tok::Star)) && toks_go(a, b, i, j, false, no_dot, memo)
        }
        (_, Some(Tok::Star)) => {
            toks_go(a, b, i, j + 1, start, no_dot, memo)
                || matches!(a.get(i), Some(t) if one_char(t, &Tok::One, forbid))
                    && toks_go(a, b, i + 1, j, false, no_dot, memo)
        }
        (Some(x), Some(y)) => one_char(x, y, forbid) && toks_go(a, b, i + 1, j + 1, false, no_dot, memo),
        _ => false,
    };
    memo[key] = Some(v);
    v
}

/// Whether one character matches both single-character tokens (`forbid_dot`: not `.`).
fn one_char(x: &Tok, y: &Tok, forbid_dot: bool) -> bool {
    let in_class = |c: char, t: &Tok| match t {
        Tok::Lit(d) => c == *d,
        Tok::One | Tok::Star => true,
        Tok::Class { negated, ranges } => ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) != *negated,
    };
    match (x, y) {
        (Tok::Lit(c), t) | (t, Tok::Lit(c)) => in_class(*c, t) && !(forbid_dot && *c == '.'),
        // Two wildcards or classes: assume a common character exists.
        _ => true,
    }
}

/// A pattern for one word of a command rule: `*` any run of characters, `?` one character;
/// everything else literal. Shares the segment matcher with path globs.
#[derive(Clone, Debug)]
pub struct WordGlob(Vec<Tok>);

impl WordGlob {
    pub fn new(pattern: &str) -> WordGlob {
        WordGlob(
            pattern
                .chars()
                .map(|c| match c {
                    '*' => Tok::Star,
                    '?' => Tok::One,
                    c => Tok::Lit(c),
                })
                .collect(),
        )
    }

    pub fn is_match(&self, word: &str) -> bool {
        match_tokens(&self.0, &word.chars().collect::<Vec<_>>())
    }
}

fn match_segs(pat: &[Seg], path: &[&str]) -> bool {
    match pat.split_first() {
        None => path.is_empty(),
        Some((Seg::Deep, rest)) => {
            if rest.is_empty() {
                // A trailing `**` matches everything below, but not the directory itself.
                return !path.is_empty();
            }
            (0..=path.len()).any(|i| match_segs(rest, &path[i..]))
        }
        Some((Seg::Pat(toks), rest)) => match path.split_first() {
            Some((seg, prest)) => match_tokens(toks, &seg.chars().collect::<Vec<_>>()) && match_segs(rest, prest),
            None => false,
        },
    }
}

fn match_tokens(toks: &[Tok], s: &[char]) -> bool {
    let (mut ti, mut si) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while si < s.len() {
        let step = match toks.get(ti) {
            Some(Tok::Lit(c)) => *c == s[si],
            Some(Tok::One) => true,
            Some(Tok::Class { negated, ranges }) => ranges.iter().any(|(a, b)| *a <= s[si] && s[si] <= *b) != *negated,
            Some(Tok::Star) => {
                star = Some(ti);
                mark = si;
                ti += 1;
                continue;
            }
            None => false,
        };
        if step {
            ti += 1;
            si += 1;
        } else if let Some(st) = star {
            ti = st + 1;
            mark += 1;
            si = mark;
        } else {
            return false;
        }
    }
    toks[ti..].iter().all(|t| matches!(t, Tok::Star))
}

/// The text between the first `{` and the next `}`.
fn brace_body(p: &str) -> &str {
    match (p.find('{'), p.find('}')) {
        (Some(a), Some(b)) if b > a => &p[a + 1..b],
        _ => "",
    }
}

/// Whether a `[...]` class contains `/` (globset lets such a class match a separator).
fn class_holds_slash(p: &str) -> bool {
    let mut in_class = false;
    let mut chars = p.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            '/' if in_class => return true,
            _ => {}
        }
    }
    in_class
}

/// Split on `/` that is not escaped.
fn split_unescaped(p: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    let mut chars = p.chars();
    let mut in_class = false;
    while let Some(c) = chars.next() {
        match c {
            '\\' => {
                out.last_mut().unwrap_or(&mut String::new()).push('\\');
                if let Some(n) = chars.next() {
                    if let Some(l) = out.last_mut() {
                        l.push(n);
                    }
                }
            }
            '[' => {
                in_class = true;
                if let Some(l) = out.last_mut() {
                    l.push(c);
                }
            }
            ']' => {
                in_class = false;
                if let Some(l) = out.last_mut() {
                    l.push(c);
                }
            }
            '/' if !in_class => out.push(String::new()),
            c => {
                if let Some(l) = out.last_mut() {
                    l.push(c);
                }
            }
        }
    }
    out
}

fn tokens(seg: &str) -> Result<Vec<Tok>, String> {
    let chars: Vec<char> = seg.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                i += 1;
                match chars.get(i) {
                    Some(c) => out.push(Tok::Lit(*c)),
                    None => return Err("dangling escape".into()),
                }
            }
            '*' => {
                if !matches!(out.last(), Some(Tok::Star)) {
                    out.push(Tok::Star);
                }
            }
            '?' => out.push(Tok::One),
            '[' => {
                let mut j = i + 1;
                let negated = matches!(chars.get(j), Some('!') | Some('^'));
                if negated {
                    j += 1;
                }
                let mut ranges = Vec::new();
                let mut first = true;
                loop {
                    let Some(&c) = chars.get(j) else { return Err("unclosed character class".into()) };
                    if c == ']' && !first {
                        break;
                    }
                    first = false;
                    if chars.get(j + 1) == Some(&'-') && chars.get(j + 2).is_some_and(|e| *e != ']') {
                        let e = chars[j + 2];
                        if e < c {
                            return Err("invalid range in character class".into());
                        }
                        ranges.push((c, e));
                        j += 3;
                    } else {
                        ranges.push((c, c));
                        j += 1;
                    }
                }
                out.push(Tok::Class { negated, ranges });
                i = j;
            }
            c => out.push(Tok::Lit(c)),
        }
        i += 1;
    }
    Ok(out)
}

/// Expand `{a,b}` alternatives (nested ones too) into whole patterns.
fn expand_braces(p: &str) -> Result<Vec<String>, String> {
    let chars: Vec<char> = p.chars().collect();
    // Find the first unescaped top-level `{` outside a class.
    let mut i = 0;
    let mut in_class = false;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '[' => in_class = true,
            ']' => in_class = false,
            '{' if !in_class => break,
            _ => {}
        }
        i += 1;
    }
    if i >= chars.len() {
        return Ok(vec![p.to_string()]);
    }
    let mut depth = 0;
    let mut parts = Vec::new();
    let mut start = i + 1;
    let mut j = i;
    let mut end = None;
    while j < chars.len() {
        match chars[j] {
            '\\' => j += 1,
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    parts.push(chars[start..j].iter().collect::<String>());
                    end = Some(j);
                    break;
                }
            }
            ',' if depth == 1 => {
                parts.push(chars[start..j].iter().collect::<String>());
                start = j + 1;
            }
            _ => {}
        }
        j += 1;
    }
    let Some(end) = end else { return Err("unclosed alternation `{`".into()) };
    let prefix: String = chars[..i].iter().collect();
    let suffix: String = chars[end + 1..].iter().collect();
    let mut out = Vec::new();
    for part in parts {
        for tail in expand_braces(&format!("{part}{suffix}"))? {
            for expanded in expand_braces(&format!("{prefix}{tail}"))? {
                out.push(expanded);
                if out.len() > MAX_ALTERNATIVES {
                    return Err(format!("more than {MAX_ALTERNATIVES} alternatives"));
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::Glob;

    fn m(p: &str, s: &str) -> bool {
        Glob::compile(p).unwrap().iter().any(|g| g.is_match(s))
    }

    fn shell_ref(pattern: &str, path: &str) -> bool {
        let ps: Vec<&str> = pattern.split('/').collect();
        let xs: Vec<&str> = path.split('/').collect();
        ps.len() == xs.len()
            && ps.iter().zip(&xs).all(|(p, x)| {
                let g = globset::GlobBuilder::new(p).literal_separator(true).build().unwrap().compile_matcher();
                g.is_match(x) && (p.starts_with('.') || !x.starts_with('.'))
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// Sound: whenever one path matches both a rule glob and a shell glob, the two are
        /// said to meet (so a read of the shell glob is decided by the rule).
        #[test]
        fn could_match_shell_never_misses_a_common_path(
            rule in "(\\*\\*/)?[ab.*?]{1,3}(/[ab.*?]{1,3})?",
            shell in "[ab.*?]{1,3}(/[ab.*?]{1,3})?",
            path in "[ab.]{1,3}(/[ab.]{1,3})?",
        ) {
            let globs = Glob::compile(&rule).unwrap();
            let both = globs.iter().any(|g| g.is_match(&path)) && shell_ref(&shell, &path);
            if both {
                proptest::prop_assert!(globs.iter().any(|g| g.could_match_shell(&shell)), "{rule} {shell} {path}");
            }
        }
    }

    #[test]
    fn shell_globs_inside_rule_globs() {
        let c = |p: &str, s: &str| Glob::compile(p).unwrap().iter().all(|g| g.contains_shell(s));
        assert!(c("docs/**/*.md", "docs/*.md"));
        assert!(c("docs/**/*.md", "docs/guide/a*.md"));
        assert!(c("docs/**/*.md", "docs/[ab].md"));
        assert!(c("docs/**", "docs/*"));
        assert!(!c("docs/**/*.md", "docs/*"));
        assert!(!c("docs/**/*.md", "docs/*.m?"));
        assert!(!c("docs/**/*.md", "*/a.md"));
        assert!(!c("docs/*.md", "docs/*/a.md"));
        assert!(!c("docs/?.md", "docs/*.md"));
        assert!(c("docs/**/*.md", "docs/**/*.md"));
        assert!(!c("docs/*/*.md", "docs/**/*.md"));
        assert!(!c("docs/**/*.md", "**/*.md"));
    }

    #[test]
    fn shell_globs_meet_rule_globs() {
        let c = |rule: &str, shell: &str| Glob::compile(rule).unwrap().iter().any(|g| g.could_match_shell(shell));
        assert!(c("**/*.pem", "*.pem"));
        assert!(c("**/*.pem", "certs/*"));
        assert!(c("src/secret.txt", "src/*"));
        assert!(c("src/secret.txt", "src/s*"));
        assert!(c("src/secret.txt", "*/secret.txt"));
        assert!(!c("src/secret.txt", "src/*.rs"));
        assert!(!c("**/*.pem", "src/*.rs"));
        assert!(!c("**/.env", "*"), "bash's * skips dot files");
        assert!(c("**/.env", ".e*"));
        assert!(c("**/.env*", "src/.*"));
        assert!(!c("docs/**", "src/*"));
        assert!(c("**", "x/*"));
        assert!(c("**/id_*", "/home/u/.ssh/*"));
        assert!(c("a?c", "[ab]bc"));
    }

    #[test]
    fn basics() {
        assert!(m("docs/**/*.md", "docs/a.md"));
        assert!(m("docs/**/*.md", "docs/x/y/a.md"));
        assert!(!m("docs/*.md", "docs/x/a.md"));
        assert!(m("**/.env*", ".env"));
        assert!(m("**/.env*", "a/b/.env.local"));
        assert!(m("/**/.env*", "/tmp/.env"));
        assert!(!m("src/**", "src"));
        assert!(m("src/**", "src/a/b"));
        assert!(m("{src,tests}/*.rs", "tests/a.rs"));
        assert!(m("a/[!b]c", "a/xc"));
        assert!(!m("a/[!b]c", "a/bc"));
        assert!(m("a\\*b", "a*b"));
        assert!(!m("a\\*b", "axb"));
    }
}
