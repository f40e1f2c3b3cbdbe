//! The small languages some programs run: what an awk program or a sed script writes and
//! runs (issue 12 item 6, issue 15 class 4). `awk '{print > ".env"}'` writes `.env`,
//! `awk 'BEGIN{system("rm -rf x")}'` runs `rm -rf x`, `sed -n '1w out' f` writes `out`,
//! `sed '1e rm x' f` runs `rm x`.
//!
//! The readers are deliberately rough: they find every literal target and command they can,
//! and report as unknown what they cannot name (a target in a variable, `s///e`, which runs
//! the pattern space). Finding a target that is not one (a comparison with a string in awk)
//! only adds a path to decide; missing one cannot allow anything, because neither awk nor a
//! writing sed is on the safe list. Pure: text in, effects out.

use super::Word;

/// What a script does beyond reading its input.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Effects {
    /// Files it writes.
    pub writes: Vec<String>,
    /// Shell commands it runs.
    pub commands: Vec<String>,
    /// Files it reads (sed `r`/`R`, awk `getline < F`).
    pub reads: Vec<String>,
    /// What it does that cannot be named.
    pub unknown: Option<String>,
}

impl Effects {
    /// sed's `w FILE` (the command, or the flag of `s`): an empty name is not one gate can decide.
    fn sed_writes(&mut self, file: String) {
        if file.is_empty() {
            self.unknown.get_or_insert_with(|| "sed writes a file gate cannot name".into());
        } else {
            self.writes.push(file);
        }
    }
}

/// An awk command line as awk reads it.
pub(crate) struct AwkArgs {
    /// The program texts: `-e`/`--source` values, else the first operand.
    pub programs: Vec<Word>,
    /// An option that loads a program or extension from a file gate cannot see (`-f`).
    pub from_file: Option<String>,
    /// Only `-F`, `-v` and `-e`/`--source` (as separate words, or `-F:`, `-vX=1`) were given.
    pub plain: bool,
}

pub(crate) fn awk_args(args: &[Word]) -> AwkArgs {
    let mut a = AwkArgs { programs: Vec::new(), from_file: None, plain: true };
    let mut i = 0;
    while let Some(w) = args.get(i) {
        match w.lit() {
            Some("--") => {
                i += 1;
                break;
            }
            Some("-v" | "-F") => i += 2,
            Some("--assign" | "--field-separator") => {
                a.plain = false;
                i += 2;
            }
            Some("-e" | "--source") => {
                a.programs.extend(args.get(i + 1).cloned());
                i += 2;
            }
            Some(o) if o.starts_with("--source=") => {
                a.programs.push(Word::Lit(o["--source=".len()..].to_string()));
                a.plain = false;
                i += 1;
            }
            Some(o @ ("-f" | "--file" | "-i" | "--include" | "-l" | "--load" | "-E" | "--exec")) => {
                a.from_file.get_or_insert_with(|| o.to_string());
                a.plain = false;
                i += 2;
            }
            Some(o) if o.starts_with("-F") || o.starts_with("-v") && o.contains('=') => i += 1,
            Some(o) if o.starts_with('-') && o.len() > 1 => {
                a.plain = false;
                i += 1;
            }
            _ => break,
        }
    }
    if a.programs.is_empty() && a.from_file.is_none() {
        a.programs.extend(args.get(i).cloned());
    }
    a
}

/// One awk token that matters here.
#[derive(Debug, PartialEq)]
enum Tok {
    Str(String),
    Word(String),
    Punct(char),
    /// `>>`, `|&`.
    Two(&'static str),
}

fn awk_tokens(program: &str) -> Vec<Tok> {
    let chars: Vec<char> = program.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '"' => {
                let mut s = String::new();
                i += 1;
                while i < chars.len() && chars[i] != '"' {
                    if chars[i] == '\\' && i + 1 < chars.len() {
                        i += 1;
                        s.push(match chars[i] {
                            'n' => '\n',
                            't' => '\t',
                            other => other,
                        });
                    } else {
                        s.push(chars[i]);
                    }
                    i += 1;
                }
                out.push(Tok::Str(s));
                i += 1;
            }
            c if c.is_alphanumeric() || c == '_' || c == '$' => {
                let start = i;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$') {
                    i += 1;
                }
                out.push(Tok::Word(chars[start..i].iter().collect()));
            }
            '>' if chars.get(i + 1) == Some(&'>') => {
                out.push(Tok::Two(">>"));
                i += 2;
            }
            '|' if chars.get(i + 1) == Some(&'&') => {
                out.push(Tok::Two("|&"));
                i += 2;
            }
            '|' if chars.get(i + 1) == Some(&'|') => i += 2, // logical or
            c if c.is_whitespace() => i += 1,
            c => {
                out.push(Tok::Punct(c));
                i += 1;
            }
        }
    }
    out
}

/// What an awk program writes (`print > "F"`, `>> "F"`), runs (`system("C")`, `print |
/// "C"`, `"C" | getline`) and reads (`getline < "F"`).
pub(crate) fn awk(program: &str) -> Effects {
    let t = awk_tokens(program);
    let mut e = Effects::default();
    let unknown = |e: &mut Effects, why: &str| {
        e.unknown.get_or_insert_with(|| why.to_string());
    };
    for (k, tok) in t.iter().enumerate() {
        let next = t.get(k + 1);
        let prev = k.checked_sub(1).and_then(|p| t.get(p));
        match tok {
            Tok::Word(w) if w == "system" => match (next, t.get(k + 2)) {
                (Some(Tok::Punct('(')), Some(Tok::Str(c))) if t.get(k + 3) == Some(&Tok::Punct(')')) => {
                    e.commands.push(c.clone())
                }
                _ => unknown(&mut e, "awk's `system()` runs a command built at run time"),
            },
            Tok::Punct('>') | Tok::Two(">>") => match next {
                Some(Tok::Str(f)) => e.writes.push(f.clone()),
                // `a > b` may be a comparison: only a print's target counts.
                Some(_) if in_print(&t, k) => unknown(&mut e, "awk writes to a file named at run time"),
                _ => {}
            },
            Tok::Punct('|') | Tok::Two("|&") => match (prev, next) {
                (_, Some(Tok::Word(g))) if g == "getline" => match prev {
                    Some(Tok::Str(c)) => e.commands.push(c.clone()),
                    _ => unknown(&mut e, "awk runs a command built at run time (`| getline`)"),
                },
                (_, Some(Tok::Str(c))) => e.commands.push(c.clone()),
                _ => unknown(&mut e, "awk pipes to a command built at run time"),
            },
            Tok::Punct('<') if prev == Some(&Tok::Word("getline".into())) || getline_before(&t, k) => match next {
                Some(Tok::Str(f)) => e.reads.push(f.clone()),
                _ => unknown(&mut e, "awk reads a file named at run time"),
            },
            _ => {}
        }
    }
    e
}

/// Whether token `k` sits in a print or printf statement (scanning back to the statement's
/// start), outside parentheses.
fn in_print(t: &[Tok], k: usize) -> bool {
    let mut depth = 0i32;
    for tok in t[..k].iter().rev() {
        match tok {
            Tok::Punct(')') => depth += 1,
            Tok::Punct('(') => depth -= 1,
            Tok::Punct(';' | '{' | '}' | '\n') if depth <= 0 => return false,
            Tok::Word(w) if depth == 0 && (w == "print" || w == "printf") => return true,
            _ => {}
        }
    }
    false
}

fn getline_before(t: &[Tok], k: usize) -> bool {
    t[..k].iter().rev().take(3).any(|x| matches!(x, Tok::Word(w) if w == "getline"))
}

/// What a sed script writes (`w F`, `W F`, `s///w F`), reads (`r F`, `R F`) and runs (`e C`,
/// and `s///e`, which runs the pattern space).
///
/// The reader follows GNU sed 4.9's own compiler (`compile.c`: `compile_program`,
/// `match_slash`, `snarf_char_class`, `read_label`, `read_text`, `read_filename`,
/// `mark_subst_opts`, `read_end_of_cmd`) character by character, so that every command gate
/// sees is one sed runs and none is hidden in what gate took for a label, a text or a regex:
/// - a label (`:a`, `b a`, `t a`, `T a`, `v 4.2`) ends at a blank, `;`, `}`, `#` or the end of
///   the line (`:a;N;$!ba` is three commands, `:a 1r F` two);
/// - a regex (an address, the pattern of `s`) holds bracket expressions, inside which the
///   delimiter does not end it (`s/[/]/x/`); a replacement and `y`'s parts do not;
/// - the text of `a`, `i`, `c` and `e` goes to the end of the line, on past a newline only
///   when a backslash escapes it (`a x\\` then a newline ends the text).
///
/// What sed would reject, and what other seds may read another way (a label holding other
/// than letters, digits, `_`, `-` and `.`; a delimiter inside a bracket expression; a
/// non-ASCII delimiter), is reported as not modelled. Each `-e` script is read on its own, as
/// sed compiles them; an `e` command's text continued into the next one is not modelled.
pub(crate) fn sed(script: &str) -> Effects {
    let mut r = SedReader { c: script.chars().collect(), i: 0, e: Effects::default() };
    if let Err(why) = r.program() {
        r.e.unknown.get_or_insert(why);
    }
    r.e
}

/// GNU sed's `ISBLANK`.
fn sed_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

/// A label whose end every sed agrees on.
fn plain_label(l: &str) -> bool {
    l.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'))
}

struct SedReader {
    c: Vec<char>,
    i: usize,
    e: Effects,
}

type SedResult = Result<(), String>;

impl SedReader {
    fn inchar(&mut self) -> Option<char> {
        let ch = self.c.get(self.i).copied();
        if ch.is_some() {
            self.i += 1;
        }
        ch
    }

    /// Push back the character just read (`savchar`); nothing at the end.
    fn savchar(&mut self, ch: Option<char>) {
        if ch.is_some() {
            self.i -= 1;
        }
    }

    fn in_nonblank(&mut self) -> Option<char> {
        loop {
            let ch = self.inchar();
            if !ch.is_some_and(sed_blank) {
                return ch;
            }
        }
    }

    fn reject<T>(what: &str) -> Result<T, String> {
        Err(format!("sed script gate does not model: {what}"))
    }

    fn program(&mut self) -> SedResult {
        loop {
            let mut ch = self.inchar();
            while ch.is_some_and(|c| c == ';' || c.is_ascii_whitespace() || c == '\x0b') {
                ch = self.inchar();
            }
            let Some(first) = ch else { return Ok(()) };
            if matches!(first, '+' | '~') {
                return Self::reject("a step address first");
            }
            let mut addressed = false;
            if self.address(first)? {
                addressed = true;
                ch = self.in_nonblank();
                if ch == Some(',') {
                    let next = self.in_nonblank();
                    match next {
                        Some(n) if self.address(n)? => {}
                        _ => return Self::reject("`,` without a second address"),
                    }
                    ch = self.in_nonblank();
                }
            }
            if ch == Some('!') {
                ch = self.in_nonblank();
                if ch == Some('!') {
                    return Self::reject("multiple `!`");
                }
            }
            let Some(cmd) = ch else { return Self::reject("an address without a command") };
            self.command(cmd, addressed)?;
        }
    }

    /// `compile_address`: whether `ch` starts an address (then read).
    fn address(&mut self, ch: char) -> Result<bool, String> {
        match ch {
            '/' | '\\' => {
                let delim = if ch == '\\' { self.inchar() } else { Some('/') };
                let Some(d) = delim else { return Self::reject("an unterminated address regex") };
                self.match_slash(d, true)?;
                loop {
                    let f = self.in_nonblank();
                    if !matches!(f, Some('I' | 'M')) {
                        self.savchar(f);
                        return Ok(true);
                    }
                }
            }
            '0'..='9' => {
                self.skip_digits();
                let ch = self.in_nonblank();
                if ch == Some('~') {
                    let d = self.in_nonblank();
                    self.savchar(d);
                    self.skip_digits();
                } else {
                    self.savchar(ch);
                }
                Ok(true)
            }
            '+' | '~' => {
                // Only a second address (`1,+3`, `1,~4`).
                let d = self.in_nonblank();
                self.savchar(d);
                self.skip_digits();
                Ok(true)
            }
            '$' => Ok(true),
            _ => Ok(false),
        }
    }

    fn skip_digits(&mut self) {
        while self.c.get(self.i).is_some_and(char::is_ascii_digit) {
            self.i += 1;
        }
    }

    /// `match_slash`: one delimited part, up to its unescaped `slash`; in a regex, a bracket
    /// expression is skipped whole.
    fn match_slash(&mut self, slash: char, regex: bool) -> SedResult {
        if !slash.is_ascii() {
            return Self::reject("a delimiter that is not ASCII");
        }
        loop {
            match self.inchar() {
                None | Some('\n') => return Self::reject("an unterminated regex or replacement"),
                Some(c) if c == slash => return Ok(()),
                Some('\\') => {
                    if self.inchar().is_none() {
                        return Self::reject("an unterminated regex or replacement");
                    }
                }
                Some('[') if regex => self.snarf_char_class(slash)?,
                Some(_) => {}
            }
        }
    }

    /// `snarf_char_class`: a bracket expression, after its `[`, through its `]`. A delimiter
    /// inside is where seds differ (GNU reads on; others end the regex there): not modelled.
    fn snarf_char_class(&mut self, slash: char) -> SedResult {
        let mut ch = self.inchar();
        for lead in ['^', ']'] {
            if ch == Some(lead) {
                if lead == slash {
                    return Self::reject("the delimiter inside a bracket expression");
                }
                ch = self.inchar();
            }
        }
        // 0 outside `[:`, `[.`, `[=`; 1 after their `[`; 2 inside; 3 after the closing `:`.
        let mut state = 0;
        let mut delim = ' ';
        loop {
            let Some(c) = ch.filter(|c| *c != '\n') else {
                return Self::reject("an unterminated bracket expression");
            };
            if c == slash {
                return Self::reject("the delimiter inside a bracket expression");
            }
            let mut settle = true;
            match c {
                '.' | ':' | '=' if state == 1 => {
                    delim = c;
                    state = 2;
                    settle = false;
                }
                '.' | ':' | '=' if state == 2 && c == delim => {
                    state = 3;
                    settle = false;
                }
                '[' => {
                    if state == 0 {
                        state = 1;
                    }
                    settle = false;
                }
                ']' if state <= 1 => return Ok(()),
                ']' if state == 3 => state = 0,
                _ => {}
            }
            if settle {
                state &= !1;
            }
            ch = self.inchar();
        }
    }

    /// `read_label`: after blanks, up to a blank, `;`, `}`, `#` or the end of the line.
    fn label(&mut self) -> Result<String, String> {
        let mut l = String::new();
        let mut ch = self.in_nonblank();
        while let Some(c) = ch.filter(|c| !matches!(c, '\n' | ';' | '}' | '#') && !sed_blank(*c)) {
            l.push(c);
            ch = self.inchar();
        }
        self.savchar(ch);
        if plain_label(&l) {
            Ok(l)
        } else {
            Err(format!("sed script gate does not model: label `{}` (seds end a label differently)", l.escape_debug()))
        }
    }

    /// `read_end_of_cmd`: blanks, then `;`, a newline, the end, or `}`/`#` (read next).
    fn end_of_cmd(&mut self) -> SedResult {
        let ch = self.in_nonblank();
        match ch {
            None | Some('\n' | ';') => Ok(()),
            Some('}' | '#') => {
                self.savchar(ch);
                Ok(())
            }
            Some(_) => Self::reject("extra characters after a command"),
        }
    }

    /// `read_filename`: after blanks, the rest of the line as it is.
    fn filename(&mut self) -> String {
        let ch = self.in_nonblank();
        self.savchar(ch);
        let start = self.i;
        while self.c.get(self.i).is_some_and(|c| *c != '\n') {
            self.i += 1;
        }
        self.c[start..self.i].iter().collect()
    }

    /// `read_text`: the text of `a`, `i`, `c`, `e` (after `leadin`, the character that
    /// follows the command's `\`), to an unescaped newline. Returns the text as written and
    /// whether it goes on into the next `-e` script (a `\` at the very end).
    fn text(&mut self, leadin: Option<char>) -> (String, bool) {
        let mut t = String::new();
        match leadin {
            None => return (t, true),
            Some('\n') => {}
            Some(c) => t.push(c),
        }
        loop {
            match self.inchar() {
                None | Some('\n') => return (t, false),
                Some('\\') => match self.inchar() {
                    None => return (t, true),
                    Some(c) => {
                        t.push('\\');
                        t.push(c);
                    }
                },
                Some(c) => t.push(c),
            }
        }
    }

    /// One command, its letter `cmd` read (`compile_program`'s switch).
    fn command(&mut self, cmd: char, addressed: bool) -> SedResult {
        match cmd {
            '#' => {
                if addressed {
                    return Self::reject("a comment after an address");
                }
                while self.inchar().is_some_and(|c| c != '\n') {}
            }
            'v' => {
                self.label()?;
            }
            '{' => {}
            '}' => {
                if addressed {
                    return Self::reject("an address on `}`");
                }
                self.end_of_cmd()?;
            }
            'e' | 'a' | 'i' | 'c' => {
                let mut ch = self.in_nonblank();
                if cmd == 'e' && matches!(ch, None | Some('\n')) {
                    self.e.unknown.get_or_insert_with(|| "sed's `e` runs the pattern space as a command".into());
                    return Ok(());
                }
                let Some(c) = ch else { return Self::reject("`a`, `i` or `c` without text") };
                if c == '\\' {
                    ch = self.inchar();
                } else {
                    self.savchar(ch);
                    ch = Some('\n');
                }
                let (text, goes_on) = self.text(ch);
                if cmd == 'e' {
                    if goes_on || text.contains(['\\', '\n']) {
                        self.e.unknown.get_or_insert_with(|| {
                            "sed's `e` runs a command whose escapes or continuation gate does not model".into()
                        });
                    } else {
                        self.e.commands.push(text);
                    }
                }
            }
            ':' => {
                if addressed {
                    return Self::reject("an address on `:`");
                }
                if self.label()?.is_empty() {
                    return Self::reject("`:` without a label");
                }
            }
            'b' | 't' | 'T' => {
                self.label()?;
            }
            'q' | 'Q' | 'l' | 'L' => {
                let ch = self.in_nonblank();
                self.savchar(ch);
                self.skip_digits();
                self.end_of_cmd()?;
            }
            '=' | 'd' | 'D' | 'F' | 'g' | 'G' | 'h' | 'H' | 'n' | 'N' | 'p' | 'P' | 'z' | 'x' => self.end_of_cmd()?,
            'r' | 'R' => {
                let f = self.filename();
                if f.is_empty() {
                    return Self::reject("`r` without a file name");
                }
                self.e.reads.push(f);
            }
            'w' | 'W' => {
                let f = self.filename();
                self.e.sed_writes(f);
            }
            's' => {
                let Some(slash) = self.inchar() else { return Self::reject("an unterminated `s`") };
                self.match_slash(slash, true)?;
                self.match_slash(slash, false)?;
                self.subst_flags()?;
            }
            'y' => {
                let Some(slash) = self.inchar() else { return Self::reject("an unterminated `y`") };
                self.match_slash(slash, false)?;
                self.match_slash(slash, false)?;
                self.end_of_cmd()?;
            }
            other => {
                return Err(format!("sed command `{}` is not one gate reads", other.escape_debug()));
            }
        }
        Ok(())
    }

    /// `mark_subst_opts`: the flags of `s`, `w FILE` last.
    fn subst_flags(&mut self) -> SedResult {
        loop {
            let ch = self.in_nonblank();
            match ch {
                Some('i' | 'I' | 'm' | 'M' | 'p' | 'g') => {}
                Some('e') => {
                    self.e.unknown.get_or_insert_with(|| "sed's `s///e` runs the result as a command".into());
                }
                Some('w') => {
                    let f = self.filename();
                    self.e.sed_writes(f);
                    return Ok(());
                }
                Some('0'..='9') => self.skip_digits(),
                Some('}' | '#') => {
                    self.savchar(ch);
                    return Ok(());
                }
                None | Some('\n' | ';') => return Ok(()),
                Some('\r') if self.inchar() == Some('\n') => return Ok(()),
                Some(_) => return Self::reject("an unknown flag of `s`"),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn awk_targets_and_commands() {
        let e = awk(r#"{ print $1 > ".env"; print >> "/tmp/log" } END { system("rm -rf x"); print "a" | "sh" }"#);
        assert_eq!(e.writes, vec![".env", "/tmp/log"]);
        assert_eq!(e.commands, vec!["rm -rf x", "sh"]);
        let e = awk(r#"BEGIN { while (("ls /etc" | getline line) > 0) n++ }"#);
        assert_eq!(e.commands, vec!["ls /etc"]);
        assert!(awk(r#"{ print > $2 }"#).unknown.is_some());
        assert_eq!(awk(r#"$1 > 3 { print $2 }"#), Effects::default());
        assert!(awk("{ system(cmd) }").unknown.is_some());
    }

    #[test]
    fn sed_targets_and_commands() {
        assert_eq!(sed("1w .env").writes, vec![".env"]);
        assert_eq!(sed("s/a/b/w out.txt").writes, vec!["out.txt"]);
        assert_eq!(sed("/x/,$ W /tmp/y").writes, vec!["/tmp/y"]);
        assert_eq!(sed("1e rm -rf x").commands, vec!["rm -rf x"]);
        assert!(sed("s/.*/rm x/e").unknown.is_some());
        assert_eq!(sed("s/a/b/g;s|c|d|;1d;$p"), Effects::default());
        assert_eq!(sed("r /etc/passwd").reads, vec!["/etc/passwd"]);
        assert_eq!(sed("/w/d").writes, Vec::<String>::new());
        assert_eq!(sed("s/w/e/").writes, Vec::<String>::new());
        assert!(sed("s/w/e/").unknown.is_none());
        assert_eq!(sed("a\\\ne rm x\n1d"), Effects::default());
        assert_eq!(sed("1i\\\nw x\\\ne y\n3w z").writes, vec!["z"]);
    }

    #[test]
    fn sed_labels_end_where_gnu_sed_ends_them() {
        assert_eq!(sed(":a;1e rm x").commands, vec!["rm x"]);
        assert_eq!(sed(":a 1r f").reads, vec!["f"]);
        assert_eq!(sed(":a\t1w f").writes, vec!["f"]);
        assert_eq!(sed("1{ba};1w f").writes, vec!["f"]);
        assert_eq!(sed("tx#c\n1w f").writes, vec!["f"]);
        assert_eq!(sed(":a;N;$!ba;s/\\n/ /g"), Effects::default());
        assert_eq!(sed("$!{N;ba}"), Effects::default());
        assert!(sed(":a\r1w f").unknown.is_some());
        assert!(sed("ba{").unknown.is_some());
    }

    #[test]
    fn sed_regex_parts_and_texts_as_gnu_sed_reads_them() {
        // A bracket expression in a regex holds the delimiter in GNU sed, not in others.
        assert!(sed("s/[/]/;a/;1e rm x").unknown.is_some());
        assert_eq!(sed("s/[]a[:digit:][.-.]]/x/;1w f").writes, vec!["f"]);
        // `y`'s parts are not regexes.
        assert_eq!(sed("y/[/]/;1w f").writes, vec!["f"]);
        assert!(sed("y/[/]/ab/").unknown.is_some());
        // `\\` before the newline is an escaped backslash: the text ends there.
        assert_eq!(sed("1a x\\\\\n1e rm x").commands, vec!["rm x"]);
        assert_eq!(sed("1a x\\ \n1e rm x").commands, vec!["rm x"]);
        assert_eq!(sed("1a x\\\n1e rm x"), Effects::default());
        // An `e` command with escapes, or going on into the next `-e`, is not modelled.
        assert!(sed("1e rm\\ x").unknown.is_some());
        assert!(sed("1e rm x\\").unknown.is_some());
        // What GNU sed rejects is not modelled.
        assert!(sed("1:a").unknown.is_some());
        assert!(sed("s/a/b/k").unknown.is_some());
        assert!(sed("pp").unknown.is_some());
    }
}
