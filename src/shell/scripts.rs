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
/// and `s///e`, which runs the pattern space). GNU sed's grammar: commands separated by `;`
/// or newlines; `a i c r R w W e : b t T` and `s///w` take the rest of the line.
pub(crate) fn sed(script: &str) -> Effects {
    let mut e = Effects::default();
    let c: Vec<char> = script.chars().collect();
    let mut i = 0;
    let rest_of_line = |i: &mut usize| -> String {
        let start = *i;
        while *i < c.len() && c[*i] != '\n' {
            *i += 1;
        }
        c[start..*i].iter().collect::<String>().trim().to_string()
    };
    // Skip a delimited part (`/re/`, `s/re/repl/`), honouring backslash escapes.
    let skip_delimited = |i: &mut usize, delim: char, parts: usize| {
        let mut left = parts;
        while *i < c.len() && left > 0 {
            if c[*i] == '\\' {
                *i += 2;
                continue;
            }
            if c[*i] == delim {
                left -= 1;
            }
            *i += 1;
        }
    };
    while i < c.len() {
        let ch = c[i];
        match ch {
            ' ' | '\t' | '\n' | ';' | '{' | '}' | '!' | ',' | '$' | '~' | '+' => i += 1,
            '0'..='9' => i += 1,
            '#' => {
                rest_of_line(&mut i);
            }
            '/' => {
                i += 1;
                skip_delimited(&mut i, '/', 1);
                // `/re/I`, `/re/M` flags of an address.
                while i < c.len() && matches!(c[i], 'I' | 'M') {
                    i += 1;
                }
            }
            '\\' => {
                // `\cREc`: an address with another delimiter.
                let d = c.get(i + 1).copied().unwrap_or('/');
                i += 2;
                skip_delimited(&mut i, d, 1);
            }
            'a' | 'i' | 'c' | ':' | 'b' | 't' | 'T' => {
                i += 1;
                if matches!(ch, 'b' | 't' | 'T') {
                    // A label ends at `;` too.
                    while i < c.len() && !matches!(c[i], ';' | '\n' | '}') {
                        i += 1;
                    }
                } else {
                    // Text to the end of the line; a line ending in `\` goes on.
                    while rest_of_line(&mut i).ends_with('\\') && i < c.len() {
                        i += 1;
                    }
                }
            }
            'r' | 'R' | 'w' | 'W' => {
                i += 1;
                let f = rest_of_line(&mut i);
                if matches!(ch, 'r' | 'R') {
                    e.reads.push(f);
                } else {
                    e.sed_writes(f);
                }
            }
            'e' => {
                i += 1;
                let cmd = rest_of_line(&mut i);
                if cmd.is_empty() {
                    e.unknown.get_or_insert_with(|| "sed's `e` runs the pattern space as a command".into());
                } else {
                    e.commands.push(cmd);
                }
            }
            's' | 'y' => {
                let Some(&d) = c.get(i + 1) else { break };
                i += 2;
                skip_delimited(&mut i, d, 2);
                if ch == 's' {
                    // Flags: g p i I m M e NUMBER, then `w FILE` to the end of the line.
                    while i < c.len() && !matches!(c[i], ';' | '\n' | '}') {
                        match c[i] {
                            'w' => {
                                i += 1;
                                e.sed_writes(rest_of_line(&mut i));
                                break;
                            }
                            'e' => {
                                e.unknown.get_or_insert_with(|| "sed's `s///e` runs the result as a command".into());
                                i += 1;
                            }
                            _ => i += 1,
                        }
                    }
                }
            }
            'q' | 'Q' | 'l' | 'L' => {
                i += 1;
                while i < c.len() && c[i].is_ascii_digit() || i < c.len() && c[i] == ' ' {
                    i += 1;
                }
            }
            '=' | 'd' | 'D' | 'g' | 'G' | 'h' | 'H' | 'n' | 'N' | 'p' | 'P' | 'x' | 'z' | 'F' => i += 1,
            _ => {
                e.unknown.get_or_insert_with(|| format!("sed command `{ch}` is not one gate reads"));
                i += 1;
            }
        }
    }
    e
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
}
