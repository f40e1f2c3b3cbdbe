//! YAML syntax errors for people: where the mistake is (the tab, the open quote or bracket,
//! not where the parser gave up), in plain words instead of parser terms, and as many as can
//! be found. After a syntax error the offending entry (its line and the lines indented under
//! it) is blanked and the text parsed again, so that one mistake does not hide the others and
//! the rest of the file is still validated. Pure: text in, errors and a tree out.

use super::yaml::{self, SNode};
use super::{PolicyError, PolicyErrors};

/// One syntax error: 1-based line and column, message, hint.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    pub line: usize,
    pub column: usize,
    pub message: String,
    pub hint: Option<String>,
}

/// What parsing found: the syntax errors, the lines blanked to get past them, and the tree of
/// what was left (`None` when even that does not parse).
#[derive(Debug)]
pub struct Parsed {
    pub errors: Vec<SyntaxError>,
    /// Blanked line ranges, 1-based and inclusive.
    pub blanked: Vec<(usize, usize)>,
    pub root: Option<SNode>,
}

/// Syntax errors as policy errors, with the errors the rest of the file has: what is left
/// after blanking is validated too. Reports the blanking itself causes (a missing `version`, an
/// entry without the line that was blanked) are left out.
pub fn report(parsed: Parsed, origin: &str, env: &super::Env) -> PolicyErrors {
    let mut errors: Vec<PolicyError> = parsed
        .errors
        .iter()
        .map(|e| PolicyError {
            origin: origin.to_string(),
            line: e.line,
            column: e.column,
            message: e.message.clone(),
            hint: e.hint.clone(),
        })
        .collect();
    if let Some(root) = &parsed.root {
        if let Err(more) = super::model::build(root, origin, env) {
            let near_blanked = |line: usize| parsed.blanked.iter().any(|&(from, to)| line + 1 >= from && line <= to);
            errors.extend(more.into_iter().filter(|e| {
                !near_blanked(e.line) && e.message != "missing `version`" && e.message != "the policy file is empty"
            }));
        }
    }
    errors.sort_by_key(|e| (e.line, e.column));
    PolicyErrors { errors }
}

/// The most syntax errors reported (and parse attempts made) for one file.
const MAX_ERRORS: usize = 10;

/// Parse `text`, reporting every syntax error that can be found.
pub fn parse(text: &str) -> Parsed {
    // A file that parses has no syntax error (a tab inside a block scalar is text, not
    // indentation): only a failed parse looks further.
    if let Ok(root) = yaml::parse(text) {
        return Parsed { errors: Vec::new(), blanked: Vec::new(), root: Some(root) };
    }
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    let mut errors = Vec::new();
    let mut blanked = Vec::new();
    // Tabs in indentation are found all at once: the parser reports only the first, and often
    // at the end of the line before.
    for (i, l) in lines.iter().enumerate() {
        let indent: String = l.chars().take_while(|c| *c == ' ' || *c == '\t').collect();
        if indent.contains('\t') && indent.len() < l.len() && !l[indent.len()..].starts_with('#') {
            errors.push(SyntaxError {
                line: i + 1,
                column: indent.find('\t').map_or(1, |c| c + 1),
                message: "a tab in the indentation".into(),
                hint: Some("YAML indents with spaces only".into()),
            });
        }
    }
    for e in errors.clone() {
        blank_entry(&mut lines, e.line, &mut blanked);
    }
    loop {
        let current = lines.join("\n");
        match yaml::parse(&current) {
            Ok(root) => return Parsed { errors: dedup(errors), blanked, root: Some(root) },
            Err((line, column, message)) => {
                let e = explain(&current, line, column, &message);
                let at = e.line;
                let again = errors.iter().any(|x: &SyntaxError| x.line == e.line && x.message == e.message);
                if !again {
                    errors.push(e);
                }
                if again || errors.len() >= MAX_ERRORS || !blank_entry(&mut lines, at, &mut blanked) {
                    return Parsed { errors: dedup(errors), blanked, root: None };
                }
            }
        }
    }
}

fn dedup(mut errors: Vec<SyntaxError>) -> Vec<SyntaxError> {
    errors.sort_by_key(|e| (e.line, e.column));
    errors.dedup_by(|a, b| a.line == b.line && a.message == b.message);
    errors
}

/// Blank line `line` (1-based) and the lines indented under it. False when nothing was left to
/// blank there (so the same error would come back).
fn blank_entry(lines: &mut [String], line: usize, blanked: &mut Vec<(usize, usize)>) -> bool {
    let Some(first) = line.checked_sub(1).filter(|&i| i < lines.len()) else { return false };
    if lines[first].trim().is_empty() {
        // Nothing here: the trouble began above (say, at the end of the file).
        return match (0..first).rev().find(|&i| !lines[i].trim().is_empty()) {
            Some(i) => blank_entry(lines, i + 1, blanked),
            None => false,
        };
    }
    let indent = indentation(&lines[first]);
    let mut last = first;
    for (i, l) in lines.iter().enumerate().skip(first + 1) {
        if l.trim().is_empty() || l.trim_start().starts_with('#') || indentation(l) > indent {
            last = i;
        } else {
            break;
        }
    }
    // Trailing blank lines are not part of the entry.
    while last > first && lines[last].trim().is_empty() {
        last -= 1;
    }
    for l in &mut lines[first..=last] {
        l.clear();
    }
    blanked.push((first + 1, last + 1));
    true
}

fn indentation(l: &str) -> usize {
    l.chars().take_while(|c| *c == ' ' || *c == '\t').count()
}

/// The parser's message in plain words, at the place of the mistake.
pub fn explain(text: &str, line: usize, column: usize, raw: &str) -> SyntaxError {
    let m = raw.to_lowercase();
    let at = |line: usize, column: usize, message: &str, hint: Option<&str>| SyntaxError {
        line,
        column,
        message: message.to_string(),
        hint: hint.map(str::to_string),
    };
    if m.contains("tab") {
        let (l, c) = first_indent_tab(text, line.saturating_sub(1).max(1)).unwrap_or((line, column));
        return at(l, c, "a tab in the indentation", Some("YAML indents with spaces only"));
    }
    if m.contains("duplicate") {
        let key = raw.split("key:").nth(1).map(|k| k.split(['(', ',']).next().unwrap_or("").trim().to_string());
        let message = match key.filter(|k| !k.is_empty()) {
            Some(k) => format!("`{k}` is given twice here"),
            None => "a key is given twice here".to_string(),
        };
        return at(line, column, &message, Some("each key may appear once in a mapping"));
    }
    if m.contains("quote") || m.contains("quoted scalar") {
        let (l, c, q) = open_quote(text, line).unwrap_or((line, column, '"'));
        return at(
            l,
            c,
            &format!("the quote `{q}` opened here is not closed on its line"),
            Some("end it on the same line"),
        );
    }
    if m.contains("anchor") || m.contains("alias") {
        return at(
            line,
            column,
            "a value starting with `*` or `&` is YAML syntax here",
            Some("put the value in quotes, e.g. \"*.pem\""),
        );
    }
    let flow = m.contains("bracket")
        || m.contains("flow")
        || m.contains("','")
        || m.contains("']'")
        || m.contains("'}'")
        || m.contains("illegal placement of ':'");
    if flow {
        // "unclosed bracket" points at the bracket itself; the others point past it.
        let column = if m.contains("unclosed bracket") { column + 1 } else { column };
        if let Some((l, c, b)) = open_bracket(text, line, column) {
            let close = if b == '[' { ']' } else { '}' };
            return at(
                l,
                c,
                &format!("the `{b}` opened here is not closed by `{close}`"),
                Some("close it on the same line, or check for a missing `,`"),
            );
        }
    }
    if m.contains("mapping values are not allowed") || m.contains("illegal placement of ':'") {
        return at(
            line,
            column,
            "a `key:` where a value was expected",
            Some("this line is indented further than the line above it, or a value holding `: ` needs quotes"),
        );
    }
    if m.contains("did not find expected key") || m.contains("expected '-'") || m.contains("block sequence entries") {
        return at(
            line,
            column,
            "this line is not indented like the lines around it",
            Some("keys of one mapping, and items of one list, start in the same column"),
        );
    }
    if m.contains("expected ':'") || m.contains("could not find expected ':'") {
        return at(line, column, "a line without `key: value`", Some("write `key: value`, with a space after the `:`"));
    }
    if m.contains("unexpected character") || m.contains("cannot start any token") {
        let c = text.lines().nth(line.saturating_sub(1)).and_then(|l| l.chars().nth(column.saturating_sub(1)));
        let what = match c {
            Some('`') => "a backtick".to_string(),
            Some(c) => format!("`{c}`"),
            None => "this character".into(),
        };
        return at(line, column, &format!("a value cannot start with {what}"), Some("put the value in quotes"));
    }
    if m.contains("multiple yaml documents") || m.contains("document") {
        return at(line, column, "a second YAML document (after `---` or `...`)", Some("host.yaml is one document"));
    }
    if m.contains("end of stream") || m.contains("unexpected eof") {
        return at(line, column, "the file ends in the middle of a value", Some("a quote or bracket is not closed"));
    }
    // Anything else: the parser's words, without its context prefix.
    let plain = raw.split_once(", ").filter(|(a, _)| a.starts_with("while ")).map_or(raw, |(_, b)| b);
    at(line, column, &format!("YAML syntax: {plain}"), None)
}

/// The first tab in the indentation of a line at or after `from` (1-based).
fn first_indent_tab(text: &str, from: usize) -> Option<(usize, usize)> {
    for (i, l) in text.split('\n').enumerate().skip(from.saturating_sub(1)) {
        let indent: String = l.chars().take_while(|c| *c == ' ' || *c == '\t').collect();
        if let Some(c) = indent.find('\t') {
            if indent.len() < l.len() && !l[indent.len()..].starts_with('#') {
                return Some((i + 1, c + 1));
            }
        }
    }
    None
}

/// The last quote opened and not closed on its line, at or before line `upto`.
fn open_quote(text: &str, upto: usize) -> Option<(usize, usize, char)> {
    let mut found = None;
    for (i, l) in text.split('\n').enumerate().take(upto) {
        if let Some((c, q)) = unclosed_quote_in_line(l) {
            found = Some((i + 1, c, q));
        }
    }
    found
}

/// A quote that starts a value on this line and is not closed on it: (1-based column, quote).
fn unclosed_quote_in_line(l: &str) -> Option<(usize, char)> {
    let mut open: Option<(usize, char)> = None;
    let mut prev = ' ';
    let chars: Vec<char> = l.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match open {
            None if c == '#' && (prev == ' ' || i == 0) => break,
            // A quote opens a value only at its start (after `: `, `- `, `[`, `{`, `,`).
            None if (c == '"' || c == '\'') && matches!(prev, ' ' | '[' | '{' | ',' | ':' | '-') => {
                open = Some((i + 1, c))
            }
            Some((_, '"')) if c == '\\' => i += 1,
            Some((_, '\'')) if c == '\'' && chars.get(i + 1) == Some(&'\'') => i += 1,
            Some((_, q)) if c == q => open = None,
            _ => {}
        }
        prev = c;
        i += 1;
    }
    open
}

/// The innermost `[` or `{` still open at (line, column), outside quotes and comments.
fn open_bracket(text: &str, line: usize, column: usize) -> Option<(usize, usize, char)> {
    let mut stack: Vec<(usize, usize, char)> = Vec::new();
    for (i, l) in text.split('\n').enumerate() {
        if i + 1 > line {
            break;
        }
        let mut quote: Option<char> = None;
        let mut prev = ' ';
        for (j, c) in l.chars().enumerate() {
            if i + 1 == line && j + 1 >= column {
                break;
            }
            match quote {
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '#' if prev == ' ' || j == 0 => break,
                    '"' | '\'' if matches!(prev, ' ' | '[' | '{' | ',' | ':') => quote = Some(c),
                    '[' | '{' => stack.push((i + 1, j + 1, c)),
                    ']' | '}' => {
                        stack.pop();
                    }
                    _ => {}
                },
            }
            prev = c;
        }
    }
    stack.pop()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errs(text: &str) -> Vec<(usize, String)> {
        parse(text).errors.into_iter().map(|e| (e.line, e.message)).collect()
    }

    #[test]
    fn a_tab_is_reported_on_its_own_line() {
        assert_eq!(errs("version: 1\n\tmode: plan\n"), vec![(2, "a tab in the indentation".to_string())]);
        let p = parse("version: 1\npermissions:\n\tallow: []\n\tdeny: []\nmode: plan\n");
        assert_eq!(p.errors.iter().map(|e| e.line).collect::<Vec<_>>(), vec![3, 4]);
        assert!(p.root.is_some(), "the rest still parses");
    }

    #[test]
    fn open_quotes_and_brackets_are_found_where_they_open() {
        assert_eq!(errs("version: 1\nmode: 'plan\nworkspace: .\n")[0].0, 2);
        let e = &parse("version: 1\npermissions:\n  allow: { tool: write\n  deny: []\n").errors[0];
        assert_eq!((e.line, e.column), (3, 10), "{e:?}");
        assert!(e.message.contains("`{`"), "{e:?}");
        let e = &parse("version: 1\nsafe_tools: [a, b\nmode: plan\n").errors[0];
        assert_eq!((e.line, e.column), (2, 13), "{e:?}");
        let e = &parse("version: 1\nmode: [plan\n").errors[0];
        assert_eq!((e.line, e.column, e.message.as_str()), (2, 7, "the `[` opened here is not closed by `]`"));
    }

    #[test]
    fn plain_words_not_parser_terms() {
        for text in [
            "version: 1\npermissions:\n  allow:\n  - Bash(ls)\n - Bash(pwd)\n",
            "version: 1\nmode: plan\n  workspace: .\n",
            "version: 1\npermissions:\n  deny:\n    - *.pem\n",
            "version: 1\nmode\nworkspace: .\n",
        ] {
            for e in parse(text).errors {
                for jargon in ["scalar", "block mapping", "simple key", "anchor", "indicator", "context"] {
                    assert!(!e.message.contains(jargon), "{text:?}: {e:?}");
                }
            }
        }
    }

    #[test]
    fn tabs_inside_a_block_scalar_are_text() {
        let p = parse("version: 1\nskills:\n  deploy:\n    description: |\n      first\n      \tindented\n");
        assert!(p.errors.is_empty() && p.root.is_some(), "{:?}", p.errors);
    }

    #[test]
    fn one_syntax_error_does_not_hide_the_next() {
        let p = parse("version: 1\nmode: 'plan\nworkspace: .\nsafe_tools: [a\nskills: {}\n");
        assert_eq!(p.errors.iter().map(|e| e.line).collect::<Vec<_>>(), vec![2, 4], "{:?}", p.errors);
        assert!(p.root.is_some());
    }
}
