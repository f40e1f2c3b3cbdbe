//! host.yaml(5): the man page of the policy file, made from `docs/host-yaml.md` so that the
//! page and the docs are one text. A small Markdown-to-roff translation for what that file
//! uses: headings, paragraphs, `-` and `1.` lists, fenced code, tables, `code`, **bold** and
//! links. Text between `<!-- man:skip -->` and `<!-- /man:skip -->` (the table of contents)
//! is left out. Pure: text in, roff out; `tests/generated.rs` keeps `man/host.yaml.5` current.

/// The Markdown source, compiled in.
pub const HOST_YAML_MD: &str = include_str!("../docs/host-yaml.md");

/// The file name of the page under `man/`.
pub const HOST_YAML_PAGE: &str = "host.yaml.5";

/// host.yaml(5) as roff.
pub fn host_yaml_page() -> String {
    let mut out = String::new();
    out.push_str(".TH host.yaml 5 \"\" \"gate\" \"File Formats\"\n");
    out.push_str(".SH NAME\nhost.yaml \\- the policy file of gate(1)\n");
    out.push_str(".SH SYNOPSIS\n\\&./host.yaml, $XDG_CONFIG_HOME/gate/host.yaml, or \\fBgate \\-c\\fR \\fIPATH\\fR\n");
    out.push_str(".SH DESCRIPTION\n");
    out.push_str(&markdown_to_roff(HOST_YAML_MD));
    out.push_str(".SH SEE ALSO\ngate(1), gate\\-validate(1), gate\\-check(1), gate\\-run(1), gate\\-init(1), gate\\-approvals(1)\n");
    out
}

/// Translate the Markdown subset described in the module docs. The first `#` heading is the
/// page's title and is dropped (the caller writes `.TH` and NAME).
pub fn markdown_to_roff(md: &str) -> String {
    let mut out = String::new();
    let lines: Vec<&str> = md.lines().collect();
    let mut i = 0;
    let mut para: Vec<String> = Vec::new();
    let flush = |para: &mut Vec<String>, out: &mut String| {
        if !para.is_empty() {
            out.push_str(".PP\n");
            out.push_str(&line_start(&inline(&para.join(" "))));
            out.push('\n');
            para.clear();
        }
    };
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim();
        if trimmed == "<!-- man:skip -->" {
            flush(&mut para, &mut out);
            while i < lines.len() && lines[i].trim() != "<!-- /man:skip -->" {
                i += 1;
            }
            i += 1;
            continue;
        }
        if trimmed.starts_with("<!--") {
            i += 1;
            continue;
        }
        if let Some(h) = trimmed.strip_prefix("# ") {
            // The title: the caller's NAME section says it.
            let _ = h;
            flush(&mut para, &mut out);
            i += 1;
            continue;
        }
        if let Some(h) = trimmed.strip_prefix("## ") {
            flush(&mut para, &mut out);
            out.push_str(&format!(".SH {}\n", escape(&plain(h).to_uppercase())));
            i += 1;
            continue;
        }
        if let Some(h) = trimmed.strip_prefix("### ") {
            flush(&mut para, &mut out);
            out.push_str(&format!(".SS {}\n", escape(&plain(h))));
            i += 1;
            continue;
        }
        if trimmed.starts_with("```") {
            flush(&mut para, &mut out);
            i += 1;
            out.push_str(".PP\n.RS 4\n.nf\n");
            while i < lines.len() && !lines[i].trim_start().starts_with("```") {
                out.push_str(&line_start(&escape(lines[i])));
                out.push('\n');
                i += 1;
            }
            out.push_str(".fi\n.RE\n");
            i += 1;
            continue;
        }
        if trimmed.starts_with('|') {
            flush(&mut para, &mut out);
            let mut rows = Vec::new();
            while i < lines.len() && lines[i].trim().starts_with('|') {
                rows.push(cells(lines[i]));
                i += 1;
            }
            table(&rows, &mut out);
            continue;
        }
        if let Some((marker, first)) = list_item(line) {
            flush(&mut para, &mut out);
            // The item and its continuation lines (indented, not a new item).
            let mut text = vec![first.to_string()];
            i += 1;
            while i < lines.len() {
                let l = lines[i];
                if l.trim().is_empty() || list_item(l).is_some() || !l.starts_with(' ') {
                    break;
                }
                text.push(l.trim().to_string());
                i += 1;
            }
            let tag = if marker == "-" { "\\(bu".to_string() } else { marker.to_string() };
            out.push_str(&format!(".IP {tag} 4\n"));
            out.push_str(&line_start(&inline(&text.join(" "))));
            out.push('\n');
            continue;
        }
        if trimmed.is_empty() {
            flush(&mut para, &mut out);
            i += 1;
            continue;
        }
        para.push(trimmed.to_string());
        i += 1;
    }
    flush(&mut para, &mut out);
    out
}

/// `- text` or `12. text` at the start of a line (no indentation): the marker and the text.
fn list_item(line: &str) -> Option<(&str, &str)> {
    if let Some(rest) = line.strip_prefix("- ") {
        return Some(("-", rest.trim()));
    }
    let digits = line.chars().take_while(char::is_ascii_digit).count();
    if digits > 0 && line[digits..].starts_with(". ") {
        return Some((&line[..digits + 1], line[digits + 2..].trim()));
    }
    None
}

/// The cells of a table row; `\|` is a literal bar inside a cell.
fn cells(row: &str) -> Vec<String> {
    let row = row.trim().trim_start_matches('|').trim_end_matches('|');
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_code = false;
    let mut chars = row.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&'|') => {
                cur.push('|');
                chars.next();
            }
            '`' => {
                in_code = !in_code;
                cur.push(c);
            }
            '|' if !in_code => out.push(std::mem::take(&mut cur).trim().to_string()),
            _ => cur.push(c),
        }
    }
    out.push(cur.trim().to_string());
    out
}

fn is_separator(row: &[String]) -> bool {
    row.iter().all(|c| !c.is_empty() && c.chars().all(|ch| matches!(ch, '-' | ':' | ' ')))
}

/// Two columns become a tagged list (the header row dropped); more become aligned text.
fn table(rows: &[Vec<String>], out: &mut String) {
    let body: Vec<&Vec<String>> = rows.iter().filter(|r| !is_separator(r)).collect();
    let Some((head, rest)) = body.split_first() else { return };
    if head.len() == 2 {
        for r in rest {
            out.push_str(".TP\n");
            out.push_str(&line_start(&inline(r.first().map(String::as_str).unwrap_or(""))));
            out.push('\n');
            out.push_str(&line_start(&inline(r.get(1).map(String::as_str).unwrap_or(""))));
            out.push('\n');
        }
        return;
    }
    let texts: Vec<Vec<String>> = body.iter().map(|r| r.iter().map(|c| plain(c)).collect()).collect();
    let cols = texts.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..cols)
        .map(|c| texts.iter().filter_map(|r| r.get(c)).map(|t| t.chars().count()).max().unwrap_or(0))
        .collect();
    out.push_str(".PP\n.RS 4\n.nf\n");
    for r in &texts {
        let mut line = String::new();
        for (c, t) in r.iter().enumerate() {
            if c + 1 < r.len() {
                line.push_str(&format!("{t:<w$}  ", w = widths[c]));
            } else {
                line.push_str(t);
            }
        }
        out.push_str(&line_start(&escape(line.trim_end())));
        out.push('\n');
    }
    out.push_str(".fi\n.RE\n");
}

/// Escape text for roff: backslashes and hyphens.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\e"),
            '-' => out.push_str("\\-"),
            _ => out.push(c),
        }
    }
    out
}

/// A line that starts with `.` or `'` would be a roff request: make it text.
fn line_start(s: &str) -> String {
    if s.starts_with('.') || s.starts_with('\'') {
        format!("\\&{s}")
    } else {
        s.to_string()
    }
}

/// Markdown inline text without its markup: code spans, bold and links as their text.
fn plain(s: &str) -> String {
    let mut out = String::new();
    for (kind, text) in spans(s) {
        match kind {
            Span::Link(target) => out.push_str(&link_text(&text, &target)),
            _ => out.push_str(&text),
        }
    }
    out
}

/// Markdown inline text as roff: `code` and **bold** in bold, links as their text (a link to
/// another page names the file under docs/).
fn inline(s: &str) -> String {
    let mut out = String::new();
    for (kind, text) in spans(s) {
        match kind {
            Span::Text => out.push_str(&escape(&text)),
            Span::Code | Span::Bold => {
                out.push_str("\\fB");
                out.push_str(&escape(&text));
                out.push_str("\\fR");
            }
            Span::Link(target) => out.push_str(&escape(&link_text(&text, &target))),
        }
    }
    out
}

fn link_text(text: &str, target: &str) -> String {
    let file = target.split('#').next().unwrap_or("");
    if file.is_empty() || target.starts_with("http") {
        return plain(text);
    }
    let file = file.trim_start_matches("./");
    let text = plain(text);
    if text.ends_with(".md") || text.ends_with('/') {
        format!("docs/{file}")
    } else {
        format!("{text} (docs/{file})")
    }
}

enum Span {
    Text,
    Code,
    Bold,
    /// The link's target.
    Link(String),
}

fn spans(s: &str) -> Vec<(Span, String)> {
    let mut out: Vec<(Span, String)> = Vec::new();
    let mut text = String::new();
    let mut rest = s;
    while let Some(c) = rest.chars().next() {
        if c == '`' {
            if let Some(end) = rest[1..].find('`') {
                out.push((Span::Text, std::mem::take(&mut text)));
                out.push((Span::Code, rest[1..1 + end].to_string()));
                rest = &rest[end + 2..];
                continue;
            }
        }
        if rest.starts_with("**") {
            if let Some(end) = rest[2..].find("**") {
                out.push((Span::Text, std::mem::take(&mut text)));
                out.push((Span::Bold, rest[2..2 + end].to_string()));
                rest = &rest[end + 4..];
                continue;
            }
        }
        if c == '[' {
            if let Some(close) = find_link_close(rest) {
                let label = &rest[1..close];
                let after = &rest[close + 1..];
                if let Some(target_end) = after.strip_prefix('(').and_then(|a| a.find(')')) {
                    out.push((Span::Text, std::mem::take(&mut text)));
                    out.push((Span::Link(after[1..1 + target_end].to_string()), label.to_string()));
                    rest = &after[target_end + 2..];
                    continue;
                }
            }
        }
        text.push(c);
        rest = &rest[c.len_utf8()..];
    }
    out.push((Span::Text, text));
    out.retain(|(k, t)| !(matches!(k, Span::Text) && t.is_empty()));
    out
}

/// The `]` that closes the `[` at the start of `s`, skipping code spans.
fn find_link_close(s: &str) -> Option<usize> {
    let mut in_code = false;
    for (i, c) in s.char_indices().skip(1) {
        match c {
            '`' => in_code = !in_code,
            ']' if !in_code => return Some(i),
            '\n' => return None,
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_markup() {
        assert_eq!(inline("a `-c PATH` b"), "a \\fB\\-c PATH\\fR b");
        assert_eq!(inline("**deny rules**: deny"), "\\fBdeny rules\\fR: deny");
        assert_eq!(inline("see [protocol.md](protocol.md#x)"), "see docs/protocol.md");
        assert_eq!(inline("[Paths](#paths)"), "Paths");
        assert_eq!(inline("[one page](agents/README.md)"), "one page (docs/agents/README.md)");
        assert_eq!(inline("a\\b"), "a\\eb");
    }

    #[test]
    fn blocks() {
        let r = markdown_to_roff(
            "# T\n\nintro\ntext\n\n## Keys\n\n### mode\n\n- one\n  more\n- two\n\n```yaml\n.dot\n```\n\n| k | v |\n| --- | --- |\n| `a` | b \\| c |\n",
        );
        assert!(r.contains(".PP\nintro text\n"), "{r}");
        assert!(r.contains(".SH KEYS\n.SS mode\n"), "{r}");
        assert!(r.contains(".IP \\(bu 4\none more\n.IP \\(bu 4\ntwo\n"), "{r}");
        assert!(r.contains(".nf\n\\&.dot\n.fi"), "{r}");
        assert!(r.contains(".TP\n\\fBa\\fR\nb | c\n"), "{r}");
    }

    #[test]
    fn the_page_is_section_5_and_has_every_key() {
        let page = host_yaml_page();
        assert!(page.starts_with(".TH host.yaml 5 "));
        for key in ["VERSION", "MODE", "WORKSPACE", "TOOLS", "SAFE_TOOLS", "PERMISSIONS", "SKILLS", "DOOM_LOOP"] {
            assert!(page.contains(&format!(".SS {}", key.to_lowercase())), "{key}");
        }
        assert!(!page.contains("man:skip"));
        assert!(!page.lines().any(|l| l.starts_with('.') && l.len() > 1 && l.chars().nth(1) == Some(' ')));
    }
}
