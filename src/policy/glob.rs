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
