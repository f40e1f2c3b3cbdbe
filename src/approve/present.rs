//! What the terminal prompt shows, as a pure function: a [`PromptInfo`] (with its
//! [`Shape`]), the current content of the file an edit would change ([`FileNow`]), the
//! terminal width and whether to colour give the text to write. No terminal, no clock, no
//! file system here, so snapshot tests cover every presentation without a terminal.
//!
//! Per kind of call: an edit of an existing file is a unified diff against its current
//! content (replacements are applied to it first; when they cannot be, the strings are shown
//! as asked); a new file is its content with line numbers, cut at [`PREVIEW_LINES`]; a shell
//! call is `$ command`, the directory it runs in, and one line per part with its verdict and
//! the rule or layer behind it; anything else is its arguments as indented JSON. Always: the
//! tool, why it is asked, what else is queued in the batch, and the patterns `s` and `a` would
//! store (SPEC 3.6).
//!
//! It must not hide anything the agent sent: text from the agent is shown with control and
//! invisible (bidirectional) characters escaped, never interpreted by the terminal, and every
//! cut says how much was left out and that `v` shows all of it ([`full_text`]).

use console::Style;
use serde_json::Value;
use similar::{ChangeTag, TextDiff};
use unicode_width::UnicodeWidthChar;

use super::view::{apply, Change, EditView, FileNow, Replacement, Shape};
use super::PromptInfo;
use crate::policy::{Layer, PartDecision, PartKind, Verdict};

/// Lines of a new file's content shown before `[... N more lines]`.
pub const PREVIEW_LINES: usize = 50;
/// Lines of a diff shown before the rest is left to `v`.
pub const DIFF_LINES: usize = 80;
/// Lines of JSON arguments shown before the rest is left to `v`.
pub const JSON_LINES: usize = 50;
/// The most time spent looking for the shortest diff.
pub const DIFF_TIME: std::time::Duration = std::time::Duration::from_millis(250);
/// Calls of the batch listed by name.
pub const BATCH_SHOWN: usize = 5;
/// The narrowest width laid out for.
pub const MIN_WIDTH: usize = 40;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum St {
    Plain,
    Dim,
    Bold,
    Title,
    Add,
    Del,
    Hunk,
    Good,
    Warn,
    Bad,
    Key,
    /// A pattern that `s`/`a` would store: bold, and wrapped only at its own spaces when it
    /// cannot fit on a line by itself.
    Pattern,
}

fn style(st: St) -> Style {
    match st {
        St::Plain => Style::new(),
        St::Dim => Style::new().dim(),
        St::Bold => Style::new().bold(),
        St::Title => Style::new().bold().cyan(),
        St::Add => Style::new().green(),
        St::Del => Style::new().red(),
        St::Hunk => Style::new().cyan(),
        St::Good => Style::new().green(),
        St::Warn => Style::new().yellow().bold(),
        St::Bad => Style::new().red().bold(),
        St::Key => Style::new().bold().yellow(),
        St::Pattern => Style::new().bold(),
    }
}

impl St {
    /// The name of the style for the web page (a CSS class).
    fn name(self) -> &'static str {
        match self {
            St::Plain => "plain",
            St::Dim => "dim",
            St::Bold => "bold",
            St::Title => "title",
            St::Add => "add",
            St::Del => "del",
            St::Hunk => "hunk",
            St::Good => "good",
            St::Warn => "warn",
            St::Bad => "bad",
            St::Key => "key",
            St::Pattern => "bold",
        }
    }
}

/// One logical line as styled pieces: `(style name, text)`, for the web page.
pub type SpanLine = Vec<(&'static str, String)>;

/// Text laid out for a terminal: lines wrapped to a width, spans coloured or not. Or, when
/// `spans` is set, the same lines kept as styled pieces, unwrapped (the web page lays them out).
struct Out {
    width: usize,
    color: bool,
    buf: String,
    spans: Option<Vec<SpanLine>>,
}

impl Out {
    fn new(width: usize, color: bool) -> Out {
        // One column less than the terminal: a line that fills it exactly makes some
        // terminals wrap before the newline.
        Out { width: width.max(MIN_WIDTH) - 1, color, buf: String::new(), spans: None }
    }

    /// Lines kept as styled pieces ([`SpanLine`]), for the web page.
    fn spans() -> Out {
        Out { width: usize::MAX / 2, color: false, buf: String::new(), spans: Some(Vec::new()) }
    }

    fn paint(&self, st: St, s: &str) -> String {
        if !self.color || st == St::Plain || s.is_empty() {
            s.to_string()
        } else {
            style(st).force_styling(true).apply_to(s).to_string()
        }
    }

    /// One logical line of spans (already clean of control characters), wrapped to the
    /// width, at a space when there is one in the last third of the line; continuation lines
    /// start with `cont` spaces.
    fn line(&mut self, spans: &[(St, &str)], cont: usize) {
        let pad = " ".repeat(cont.min(self.width / 2));
        self.wrapped(spans, &[(St::Plain, &pad)]);
    }

    /// [`Out::line`] with continuation lines that start with `cont` (a diff line's `+`/`-`
    /// marker stays on every piece of it). A [`St::Pattern`] span is not broken at all when it
    /// fits on a line of its own, and otherwise only at its own spaces.
    fn wrapped(&mut self, spans: &[(St, &str)], cont: &[(St, &str)]) {
        if let Some(lines) = &mut self.spans {
            let mut line: SpanLine = Vec::new();
            for (st, t) in spans {
                match line.last_mut() {
                    _ if t.is_empty() => {}
                    Some((name, text)) if *name == st.name() => text.push_str(t),
                    _ => line.push((st.name(), t.to_string())),
                }
            }
            lines.push(line);
            return;
        }
        let cont_width: usize = cont.iter().map(|(_, t)| console::measure_text_width(t)).sum();
        let cont: Vec<(char, St, usize)> = chars_of(cont);
        let chars = chars_of(spans);
        let mut start = 0usize;
        let mut col = 0usize;
        loop {
            // The longest run from `start` that fits (at least one character).
            let mut end = start;
            let mut w = col;
            while end < chars.len() && (w + chars[end].2 <= self.width || end == start) {
                w += chars[end].2;
                end += 1;
            }
            let mut next = end;
            if end < chars.len() {
                let room = self.width.saturating_sub(col);
                let space = |k: usize, inside: bool| chars[k].0 == ' ' && (chars[k].1 == St::Pattern) == inside;
                let used = |k: usize| -> usize { chars[start..k].iter().map(|c| c.2).sum() };
                // Breaking here would cut a pattern: break before it, or at one of its spaces.
                let cuts_pattern = chars[end].1 == St::Pattern && chars[end - 1].1 == St::Pattern;
                // Breaking here would cut a word that fits on a line of its own.
                let word_end = (end..chars.len()).find(|&k| chars[k].0 == ' ').unwrap_or(chars.len());
                let cuts_short_word = |k: usize| {
                    chars[end - 1].0 != ' '
                        && chars[end].0 != ' '
                        && chars[k + 1..word_end].iter().map(|c| c.2).sum::<usize>() + cont_width <= self.width
                };
                let at = match (start + 1..end).rev().find(|&k| space(k, false)) {
                    Some(k) if cuts_pattern || used(k) * 3 >= room * 2 || cuts_short_word(k) => Some(k),
                    _ if cuts_pattern => (start + 1..end).rev().find(|&k| space(k, true)),
                    _ => None,
                };
                if let Some(k) = at {
                    end = k;
                    next = k + 1;
                }
            }
            self.paint_run(&chars[start..end]);
            self.buf.push('\n');
            if next >= chars.len() {
                return;
            }
            self.paint_run(&cont);
            col = cont_width;
            start = next;
        }
    }

    /// Characters of one physical line, each run of one style painted once.
    fn paint_run(&mut self, run: &[(char, St, usize)]) {
        let mut i = 0;
        while i < run.len() {
            let st = run[i].1;
            let mut piece = String::new();
            while i < run.len() && run[i].1 == st {
                piece.push(run[i].0);
                i += 1;
            }
            let painted = self.paint(st, &piece);
            self.buf.push_str(&painted);
        }
    }

    fn plain(&mut self, text: &str, cont: usize) {
        self.line(&[(St::Plain, text)], cont);
    }

    fn blank(&mut self) {
        match &mut self.spans {
            Some(lines) => lines.push(Vec::new()),
            None => self.buf.push('\n'),
        }
    }
}

/// Each character of the spans with its style and width.
fn chars_of(spans: &[(St, &str)]) -> Vec<(char, St, usize)> {
    spans.iter().flat_map(|(st, t)| t.chars().map(move |c| (c, *st, c.width().unwrap_or(0)))).collect()
}

/// A message to the person at the prompt (`approved once`, ...), wrapped to the width with
/// continuation lines indented under its text. `text` starts with its own indentation and
/// may hold several lines; each ends with a newline.
pub fn note(text: &str, width: usize, color: bool) -> String {
    let mut o = Out::new(width, color);
    for l in text.lines() {
        let indent = l.len() - l.trim_start().len();
        o.line(&[(St::Plain, l)], indent + 2);
    }
    o.buf
}

/// What `s` or `a` stored: `lead` then the patterns, each kept whole where it fits.
pub fn stored_note(lead: &str, patterns: &[String], width: usize, color: bool) -> String {
    let mut o = Out::new(width, color);
    let pats: Vec<String> = patterns.iter().map(|p| sanitize(p)).collect();
    let mut spans: Vec<(St, &str)> = vec![(St::Plain, lead)];
    for (i, p) in pats.iter().enumerate() {
        if i > 0 {
            spans.push((St::Plain, ", "));
        }
        spans.push((St::Pattern, p));
    }
    o.line(&spans, 4);
    o.buf
}

/// A question on the last line, the answer typed after it: [`note`] without the final newline.
pub fn question(text: &str, width: usize, color: bool) -> String {
    let mut s = note(text, width, color);
    s.pop();
    s
}

/// Characters that would let an agent's text act on the terminal or hide what it says:
/// controls (escape sequences, carriage returns) and invisible or direction-changing
/// characters (zero-width spaces, bidirectional overrides).
fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}' | '\u{061C}'
        )
}

fn escape_char(c: char, out: &mut String) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        '\u{1b}' => out.push_str("\\e"),
        c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
    }
}

/// Text from the agent, for one line on a terminal: every hidden character escaped.
pub fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if is_hidden(c) {
            escape_char(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out
}

/// One line of file content: tabs become spaces, a final `\r` (CRLF files) is dropped, every
/// other hidden character escaped.
fn clean_content_line(s: &str) -> String {
    let s = s.strip_suffix('\r').unwrap_or(s);
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c == '\t' {
            out.push_str("    ");
        } else if is_hidden(c) {
            escape_char(c, &mut out);
        } else {
            out.push(c);
        }
    }
    out
}

fn cut(s: String, max: usize) -> String {
    if s.chars().count() <= max {
        s
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push_str(" [...]");
        t
    }
}

/// One call in a line: `bash $ npm build`, `write config.json`, or compact JSON.
pub fn summarize(tool: &str, args: &Value) -> String {
    let body = if let Some(c) = args.get("command").and_then(Value::as_str) {
        format!("$ {c}")
    } else if let Some(p) = args.get("file_path").or_else(|| args.get("path")).and_then(Value::as_str) {
        p.to_string()
    } else {
        args.to_string()
    };
    sanitize(&cut(format!("{tool} {body}"), 160))
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// The key help shown under every prompt (and again after an unknown key).
pub fn key_help(width: usize, color: bool) -> String {
    let mut o = Out::new(width, color);
    o.line(
        &[
            (St::Plain, "  "),
            (St::Key, "[y]"),
            (St::Plain, "es once  "),
            (St::Key, "[s]"),
            (St::Plain, "ession  "),
            (St::Key, "[a]"),
            (St::Plain, "lways  "),
            (St::Key, "[n]"),
            (St::Plain, "o  "),
            (St::Key, "[h]"),
            (St::Plain, "alt batch  "),
            (St::Key, "[v]"),
            (St::Plain, "iew all  > "),
        ],
        2,
    );
    // No newline after the question: the answer is shown on the same line.
    o.buf.pop();
    o.buf
}

/// Everything shown before the key help.
pub fn render(info: &PromptInfo, now: &FileNow, width: usize, color: bool) -> String {
    let mut o = Out::new(width, color);
    let tool = sanitize(&info.call.tool);
    let id = sanitize(info.id);
    o.blank();
    o.line(
        &[
            (St::Title, "gate: "),
            (St::Bold, &tool),
            (St::Title, " needs your approval"),
            (St::Dim, &format!(" (request {id})")),
        ],
        2,
    );
    match info.shape {
        Shape::Shell { command, extra } => shell(&mut o, info, command, extra.as_ref()),
        Shape::Edit(e) => edit(&mut o, info, e, now, false),
        Shape::Other => json_args(&mut o, &info.call.arguments, Some(JSON_LINES)),
    }
    why(&mut o, info);
    batch(&mut o, info);
    store(&mut o, info);
    o.buf
}

/// What the web page shows for one call: the lines of [`render`], as styled pieces, uncut
/// (the page scrolls; there is no `v`), the tool's heading line first.
pub fn web_lines(info: &PromptInfo, now: &FileNow) -> Vec<SpanLine> {
    let mut o = Out::spans();
    let tool = sanitize(&info.call.tool);
    let id = sanitize(info.id);
    o.line(
        &[
            (St::Title, "gate: "),
            (St::Bold, &tool),
            (St::Title, " needs your approval"),
            (St::Dim, &format!(" (request {id})")),
        ],
        2,
    );
    match info.shape {
        Shape::Shell { command, extra } => shell(&mut o, info, command, extra.as_ref()),
        Shape::Edit(e) => edit(&mut o, info, e, now, true),
        Shape::Other => json_args(&mut o, &info.call.arguments, None),
    }
    why(&mut o, info);
    batch(&mut o, info);
    store(&mut o, info);
    o.spans.unwrap_or_default()
}

/// Everything, uncut and uncoloured, for `v` (the pager).
pub fn full_text(info: &PromptInfo, now: &FileNow) -> String {
    let mut o = Out { width: usize::MAX / 2, color: false, buf: String::new(), spans: None };
    o.plain(&format!("gate: {} (request {})", sanitize(&info.call.tool), sanitize(info.id)), 0);
    match info.shape {
        Shape::Shell { command, extra } => shell(&mut o, info, command, extra.as_ref()),
        Shape::Edit(e) => edit(&mut o, info, e, now, true),
        Shape::Other => json_args(&mut o, &info.call.arguments, None),
    }
    why(&mut o, info);
    if !matches!(info.shape, Shape::Other) {
        o.plain("", 0);
        json_args(&mut o, &info.call.arguments, None);
    }
    o.buf
}

fn shell(o: &mut Out, info: &PromptInfo, command: &str, extra: Option<&Value>) {
    for (i, l) in command.split('\n').enumerate() {
        let l = sanitize(l);
        if i == 0 {
            o.line(&[(St::Plain, "  "), (St::Bold, "$ "), (St::Bold, &l)], 4);
        } else {
            o.line(&[(St::Plain, "    "), (St::Bold, &l)], 4);
        }
    }
    let cwd = sanitize(&info.cwd.display().to_string());
    o.line(&[(St::Dim, "    in "), (St::Plain, &cwd)], 6);
    if let Some(extra) = extra {
        o.line(&[(St::Dim, "    with "), (St::Plain, &sanitize(&extra.to_string()))], 6);
    }
    // One part is the command itself: `why` below says its verdict and reason.
    if let Some(parts) = info.decision.parts.as_ref().filter(|p| p.len() > 1) {
        let label = |p: &PartDecision| -> String {
            let c = sanitize(&p.command);
            match p.kind {
                PartKind::Write => format!("write {c}"),
                PartKind::Command | PartKind::Read => c,
            }
        };
        let labels: Vec<String> = parts.iter().map(label).collect();
        let pad = labels.iter().map(|l| console::measure_text_width(l)).max().unwrap_or(0).min(32);
        for (p, l) in parts.iter().zip(&labels) {
            let (mark, st) = match p.decision {
                Verdict::Allow => ("ok  ", St::Good),
                Verdict::Ask => ("ask ", St::Warn),
                Verdict::Deny => ("deny", St::Bad),
            };
            let gap = " ".repeat(pad.saturating_sub(console::measure_text_width(l)) + 2);
            let by = sanitize(&part_reason(p));
            o.line(
                &[(St::Plain, "    "), (st, mark), (St::Plain, " "), (St::Plain, l), (St::Plain, &gap), (St::Dim, &by)],
                9,
            );
        }
    }
}

/// "allowed by Bash(git status)", "needs approval: ...": the rule or layer behind a part.
fn part_reason(p: &PartDecision) -> String {
    let rule = p.rule.as_deref();
    match (p.decision, p.layer, rule) {
        (Verdict::Allow, Layer::AllowRule, Some(r)) => format!("allowed by {r}"),
        (Verdict::Allow, Layer::Always, Some(r)) => format!("allowed by {r} (an \"always\" approval)"),
        (Verdict::Allow, Layer::Session, Some(r)) => format!("allowed by {r} (approved this session)"),
        (Verdict::Allow, Layer::Skill, Some(r)) => format!("allowed by {r} (an active skill)"),
        (Verdict::Allow, layer, _) => with_reason("allowed", layer, &p.reason),
        (Verdict::Ask, Layer::AskRule, Some(r)) => format!("needs approval: ask rule {r}"),
        (Verdict::Ask, layer, _) => with_reason("needs approval", layer, &p.reason),
        (Verdict::Deny, Layer::DenyRule, Some(r)) => format!("denied by {r}"),
        (Verdict::Deny, layer, _) => with_reason("denied", layer, &p.reason),
    }
}

fn with_reason(what: &str, layer: Layer, reason: &str) -> String {
    if reason.is_empty() {
        format!("{what} ({layer})")
    } else {
        format!("{what} ({layer}): {reason}")
    }
}

fn edit(o: &mut Out, info: &PromptInfo, e: &EditView, now: &FileNow, full: bool) {
    let tool = sanitize(&info.call.tool);
    let mut path = sanitize(&e.path);
    if let Some(abs) = &e.abs {
        if e.path.contains("..") || e.path.starts_with('~') {
            path = format!("{path} (that is {})", sanitize(&abs.display().to_string()));
        }
    }
    let extra = |o: &mut Out| {
        if let Some(x) = &e.extra {
            o.line(&[(St::Dim, "    with "), (St::Plain, &sanitize(&x.to_string()))], 6);
        }
    };
    match (&e.change, now) {
        (Change::Content(new), FileNow::Text(old)) => diff(o, &tool, &path, old, new, full, extra),
        (Change::Content(new), FileNow::Missing) => {
            heading(o, &format!("create {path}"), &format!("new file, {}", size(new)));
            extra(o);
            preview(o, new, full);
        }
        (Change::Content(new), FileNow::Unreadable(why)) => {
            heading(
                o,
                &format!("overwrite {path}"),
                &format!("{}; the current file cannot be shown: {why}", size(new)),
            );
            extra(o);
            preview(o, new, full);
        }
        (Change::Content(new), FileNow::NotApplicable) => {
            heading(o, &format!("{tool} {path}"), &format!("{}; the path cannot be resolved", size(new)));
            extra(o);
            preview(o, new, full);
        }
        (Change::Replace(edits), FileNow::Text(old)) => match apply(old, edits) {
            Ok(new) => diff(o, &tool, &path, old, &new, full, extra),
            Err(err) => {
                heading(o, &format!("edit {path}"), &format!("cannot be applied to the current file: {err}"));
                extra(o);
                replacements(o, edits, full);
            }
        },
        (Change::Replace(edits), FileNow::Missing) if edits.len() == 1 && edits[0].old.is_empty() => {
            heading(o, &format!("create {path}"), &format!("new file, {}", size(&edits[0].new)));
            extra(o);
            preview(o, &edits[0].new, full);
        }
        (Change::Replace(edits), now) => {
            let why = match now {
                FileNow::Missing => "the file does not exist".to_string(),
                FileNow::Unreadable(w) => format!("the current file cannot be shown: {w}"),
                _ => "the path cannot be resolved".to_string(),
            };
            heading(o, &format!("edit {path}"), &format!("{why}; the replacements as asked"));
            extra(o);
            replacements(o, edits, full);
        }
        (Change::Unknown, _) => {
            heading(o, &format!("{tool} {path}"), "arguments gate cannot read as an edit");
            json_args(o, &info.call.arguments, if full { None } else { Some(JSON_LINES) });
        }
    }
}

fn size(content: &str) -> String {
    let lines = content.lines().count();
    format!("{}, {}", plural(lines, "line", "lines"), plural(content.len(), "byte", "bytes"))
}

fn heading(o: &mut Out, what: &str, note: &str) {
    o.line(&[(St::Plain, "  "), (St::Bold, what), (St::Dim, &format!("  ({note})"))], 4);
}

fn more(o: &mut Out, n: usize, what: &str) {
    o.line(&[(St::Dim, &format!("    [... {} more {what}: v shows all]", n))], 6);
}

/// A new file's content with line numbers, cut at [`PREVIEW_LINES`] unless `full`.
fn preview(o: &mut Out, content: &str, full: bool) {
    if content.is_empty() {
        o.line(&[(St::Dim, "    (empty file)")], 4);
        return;
    }
    let lines: Vec<&str> = content.lines().collect();
    let shown = if full { lines.len() } else { lines.len().min(PREVIEW_LINES) };
    let digits = lines.len().to_string().len().max(3);
    for (i, l) in lines.iter().take(shown).enumerate() {
        let n = format!("    {:>digits$} | ", i + 1);
        let text = clean_content_line(l);
        o.line(&[(St::Dim, &n), (St::Plain, &text)], n.len());
    }
    if shown < lines.len() {
        more(o, lines.len() - shown, "lines");
    }
}

/// A coloured unified diff, cut at [`DIFF_LINES`] unless `full`.
fn diff(o: &mut Out, tool: &str, path: &str, old: &str, new: &str, full: bool, extra: impl Fn(&mut Out)) {
    if old == new {
        heading(o, &format!("{tool} {path}"), "no change: the new content is the same as the file's");
        extra(o);
        return;
    }
    // A deadline keeps a pathological diff (every line of a huge file changed) from holding
    // the prompt: past it the diff is still exact, only not the shortest one.
    let td = TextDiff::configure().timeout(DIFF_TIME).diff_lines(old, new);
    let (mut added, mut removed) = (0usize, 0usize);
    for c in td.iter_all_changes() {
        match c.tag() {
            ChangeTag::Insert => added += 1,
            ChangeTag::Delete => removed += 1,
            ChangeTag::Equal => {}
        }
    }
    heading(o, &format!("edit {path}"), &format!("existing file, +{added} -{removed}"));
    extra(o);
    let mut lines: Vec<(St, String)> = Vec::new();
    lines.push((St::Bold, format!("--- a/{path}")));
    lines.push((St::Bold, format!("+++ b/{path}")));
    let udiff = td.unified_diff();
    for hunk in udiff.iter_hunks() {
        lines.push((St::Hunk, hunk.header().to_string()));
        for c in hunk.iter_changes() {
            let (sign, st) = match c.tag() {
                ChangeTag::Equal => (' ', St::Plain),
                ChangeTag::Delete => ('-', St::Del),
                ChangeTag::Insert => ('+', St::Add),
            };
            let text = c.to_string_lossy();
            let text = text.strip_suffix('\n').unwrap_or(&text);
            lines.push((st, format!("{sign}{}", clean_content_line(text))));
            if c.missing_newline() {
                lines.push((St::Dim, "\\ No newline at end of file".into()));
            }
        }
    }
    let shown = if full { lines.len() } else { lines.len().min(DIFF_LINES) };
    for (st, l) in lines.iter().take(shown) {
        // A wrapped added or removed line keeps its marker on every piece.
        let marker = match st {
            St::Add => "+",
            St::Del => "-",
            _ => " ",
        };
        o.wrapped(&[(St::Plain, "    "), (*st, l)], &[(St::Plain, "    "), (*st, marker)]);
    }
    if shown < lines.len() {
        more(o, lines.len() - shown, "diff lines");
    }
}

/// The `old_string` / `new_string` pairs as asked, when they cannot be applied.
fn replacements(o: &mut Out, edits: &[Replacement], full: bool) {
    let mut budget = if full { usize::MAX } else { PREVIEW_LINES };
    let mut left = 0usize;
    for (i, r) in edits.iter().enumerate() {
        let all = if r.all { " (every occurrence)" } else { "" };
        o.line(&[(St::Dim, &format!("    replacement {} of {}{all}:", i + 1, edits.len()))], 6);
        for (sign, st, text) in [('-', St::Del, &r.old), ('+', St::Add, &r.new)] {
            for l in text.split('\n') {
                if budget == 0 {
                    left += 1;
                    continue;
                }
                budget -= 1;
                let marker = sign.to_string();
                o.wrapped(
                    &[(St::Plain, "    "), (st, &format!("{sign}{}", clean_content_line(l)))],
                    &[(St::Plain, "    "), (st, &marker)],
                );
            }
        }
    }
    if left > 0 {
        more(o, left, "lines");
    }
}

fn json_args(o: &mut Out, args: &Value, max: Option<usize>) {
    let text = serde_json::to_string_pretty(args).unwrap_or_else(|_| args.to_string());
    let lines: Vec<&str> = text.lines().collect();
    let shown = max.map_or(lines.len(), |m| lines.len().min(m));
    o.line(&[(St::Dim, "  arguments:")], 4);
    for l in lines.iter().take(shown) {
        let l = sanitize(l);
        o.line(&[(St::Plain, "    "), (St::Plain, &l)], 6);
    }
    if shown < lines.len() {
        more(o, lines.len() - shown, "lines");
    }
}

fn why(o: &mut Out, info: &PromptInfo) {
    let d = info.decision;
    let reason = sanitize(&super::why(d));
    let mut tail = format!("  [layer {}", d.layer);
    if let Some(r) = d.rule.as_ref().filter(|r| !d.reason.contains(r.as_str())) {
        tail.push_str(&format!(", rule {}", sanitize(r)));
    }
    tail.push(']');
    o.line(&[(St::Warn, "  why: "), (St::Plain, &reason), (St::Dim, &tail)], 7);
}

fn batch(o: &mut Out, info: &PromptInfo) {
    let b = info.batch_remaining;
    if b.is_empty() {
        return;
    }
    o.line(&[(St::Plain, &format!("  queued behind it in this batch: {}", plural(b.len(), "call", "calls")))], 4);
    for item in b.iter().take(BATCH_SHOWN) {
        o.line(&[(St::Dim, "    - "), (St::Plain, &summarize(&item.tool, &item.arguments))], 6);
    }
    if b.len() > BATCH_SHOWN {
        o.line(&[(St::Dim, &format!("    ... and {} more", b.len() - BATCH_SHOWN))], 6);
    }
}

fn store(o: &mut Out, info: &PromptInfo) {
    let web = o.spans.is_some();
    let (both, a) = if web { ("  session/always", "always") } else { ("  [s]/[a]", "[a]") };
    if info.suggested.is_empty() {
        o.line(
            &[
                (St::Plain, &format!("{both}: ")),
                (St::Dim, "nothing can be stored for this call; they approve it once"),
            ],
            4,
        );
        return;
    }
    let pats: Vec<String> = info.suggested.iter().map(|p| sanitize(p)).collect();
    let lead = format!("{both} would store: ");
    let mut spans: Vec<(St, &str)> = vec![(St::Plain, &lead)];
    for (i, p) in pats.iter().enumerate() {
        if i > 0 {
            spans.push((St::Plain, ", "));
        }
        spans.push((St::Pattern, p));
    }
    o.line(&spans, 4);
    let mut note = format!("    {a} keeps them in .gate/approvals.yaml; an ask or deny rule still wins");
    if info.decision.layer == Layer::AskRule {
        note = String::from("    an ask rule matches this call: it will still be asked every time");
    }
    o.line(&[(St::Dim, &note)], 4);
}

/// Whether to colour: a terminal that says it can (not `TERM=dumb`, not unset), and never
/// with `NO_COLOR` (any non-empty value) or `CLICOLOR=0`.
pub fn colour_wanted(is_terminal: bool, term: Option<&str>, no_color: Option<&str>, clicolor: Option<&str>) -> bool {
    if no_color.is_some_and(|v| !v.is_empty()) || clicolor == Some("0") {
        return false;
    }
    is_terminal && term.is_some_and(|t| !t.is_empty() && t != "dumb")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_escaped() {
        assert_eq!(sanitize("a\u{1b}[2Jb"), "a\\e[2Jb");
        assert_eq!(sanitize("rm\u{202e}txt.exe"), "rm\\u{202e}txt.exe");
        assert_eq!(sanitize("x\ny"), "x\\ny");
        assert_eq!(clean_content_line("\tx\r"), "    x");
    }

    #[test]
    fn wraps_to_the_width_and_keeps_colour_per_piece() {
        let mut o = Out::new(41, false);
        o.line(&[(St::Plain, &"a".repeat(90))], 4);
        let lines: Vec<&str> = o.buf.lines().collect();
        assert_eq!(lines.len(), 3, "{lines:?}");
        assert!(lines.iter().all(|l| l.chars().count() <= 40));
        assert!(lines[1].starts_with("    a"));
        let mut c = Out::new(41, true);
        c.line(&[(St::Add, &"b".repeat(50))], 0);
        for l in c.buf.lines() {
            assert!(l.starts_with("\u{1b}["), "each wrapped piece is coloured on its own: {l:?}");
            assert!(l.ends_with("\u{1b}[0m"), "{l:?}");
        }
    }

    #[test]
    fn colour_only_on_a_colour_terminal_and_never_with_no_color() {
        assert!(colour_wanted(true, Some("xterm-256color"), None, None));
        assert!(!colour_wanted(true, Some("xterm"), Some("1"), None));
        assert!(colour_wanted(true, Some("xterm"), Some(""), None));
        assert!(!colour_wanted(true, Some("dumb"), None, None));
        assert!(!colour_wanted(true, None, None, None));
        assert!(!colour_wanted(false, Some("xterm"), None, None));
        assert!(!colour_wanted(true, Some("xterm"), None, Some("0")));
    }
}
