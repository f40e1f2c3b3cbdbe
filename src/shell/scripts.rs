//! The small languages some programs run: what an awk program or a sed script writes and
//! runs (issue 12 item 6, issue 15 class 4). `awk '{print > ".env"}'` writes `.env`,
//! `awk 'BEGIN{system("rm -rf x")}'` runs `rm -rf x`, `sed -n '1w out' f` writes `out`,
//! `sed '1e rm x' f` runs `rm x`.
//!
//! gate allows awk and sed when they only read, so these readers must see every command the
//! real program runs: sed's is a port of GNU sed's own compiler; awk's lexes strings, regex
//! literals and comments, and follows both readings of a `/` after an operand (division in
//! mawk, a regex in gawk after `if (...)`), adding up what each finds. What they cannot name
//! (a target in a variable, `s///e`, which runs the pattern space, an awk program that sets
//! `ARGV`) or what awks and seds read differently is reported as unknown. Finding a target
//! that is not one only adds a path to decide. Pure: text in, effects out.

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
    /// It writes to each file it reads (awk's `print > FILENAME`).
    pub writes_inputs: bool,
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
    /// An option whose effect gate cannot see: a program or extension loaded from a file
    /// (`-f`, `-i`, `-l`, `-E`, mawk's `-W exec`), a file gawk writes (`-d`, `-o`, `-p`), an
    /// option gate does not know.
    pub from_file: Option<String>,
    /// The operands after the program: the files it reads, and `NAME=value` assignments.
    pub operands: Vec<Word>,
    /// Only `-F`, `-v` and `-e`/`--source` (as separate words, or `-F:`, `-vX=1`) were given,
    /// and no assignment (`-v`, or an operand `NAME=value`) sets `ARGV` or `ARGC`.
    pub plain: bool,
}

/// Whether an awk assignment (`-v NAME=value`, an operand `NAME=value`) sets the list of
/// files awk reads.
fn sets_args(assignment: &str) -> bool {
    let name = assignment.split('=').next().unwrap_or("");
    matches!(name.trim(), "ARGC" | "ARGV" | "SYMTAB")
}

/// Whether a `-v` value is one assignment, to a variable other than `ARGV`/`ARGC`: a literal,
/// or a name, `=` and one double-quoted run-time value (`n="$N"`). An unquoted run-time value
/// may be several words, the next one taken for the program.
fn one_assignment(v: &Word) -> bool {
    match v {
        Word::Lit(s) => !sets_args(s),
        Word::Dyn(raw) => raw.split_once('=').is_some_and(|(name, value)| {
            name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !sets_args(raw)
                && value.len() >= 2
                && value.starts_with('"')
                && value.ends_with('"')
                && !value[1..value.len() - 1].replace("\\\\", "").replace("\\\"", "").contains('"')
        }),
    }
}

/// Short options: the letters that take a value (the rest of the word, or the next one), and
/// those whose value, if any, is glued (gawk's `-d[FILE]`, `-o[FILE]`, `-p[FILE]`, `-D`, `-L`).
const AWK_VALUE: &str = "FfveEilWZ";
const AWK_GLUED: &str = "dDLop";
const AWK_FLAGS: &str = "bcCghnNOMPrsStVY";

pub(crate) fn awk_args(args: &[Word]) -> AwkArgs {
    let mut a = AwkArgs { programs: Vec::new(), from_file: None, operands: Vec::new(), plain: true };
    let mut i = 0;
    let unseen = |a: &mut AwkArgs, o: &str| {
        a.from_file.get_or_insert_with(|| o.to_string());
        a.plain = false;
    };
    while let Some(w) = args.get(i) {
        // A run-time word here may be an option, or several words: what follows is not known.
        let Some(o) = w.lit() else { break };
        match o {
            "--" => {
                i += 1;
                break;
            }
            "-" => break,
            "--source" | "--assign" | "--field-separator" => {
                let v = args.get(i + 1).cloned();
                match o {
                    "--source" => a.programs.extend(v),
                    "--assign" => {
                        a.plain = false;
                        if v.as_ref().is_none_or(|v| !one_assignment(v)) {
                            unseen(&mut a, o);
                        }
                    }
                    _ => a.plain = false,
                }
                i += 2;
            }
            o if o.starts_with("--source=") => {
                a.programs.push(Word::Lit(o["--source=".len()..].to_string()));
                a.plain = false;
                i += 1;
            }
            o if o.starts_with("--assign=") || o.starts_with("--field-separator=") => {
                a.plain = false;
                if o.starts_with("--assign=") && sets_args(&o["--assign=".len()..]) {
                    unseen(&mut a, o);
                }
                i += 1;
            }
            o if o.starts_with("--") => {
                // `--file`, `--include`, `--load`, `--exec`, `--profile=F`, their prefixes, and
                // every long option gate has no table for.
                unseen(&mut a, o);
                i += if o.contains('=') { 1 } else { 2 };
            }
            o if o.starts_with('-') => {
                let letters: Vec<char> = o[1..].chars().collect();
                let mut step = 1;
                for (n, &l) in letters.iter().enumerate() {
                    if AWK_VALUE.contains(l) {
                        let glued: String = letters[n + 1..].iter().collect();
                        let value = if glued.is_empty() {
                            step = 2;
                            args.get(i + 1).cloned()
                        } else {
                            Some(Word::Lit(glued))
                        };
                        match l {
                            'F' => {
                                if value.as_ref().is_none_or(super::grammar::could_be_several) {
                                    unseen(&mut a, o);
                                }
                            }
                            'v' => {
                                if value.as_ref().is_none_or(|v| !one_assignment(v)) {
                                    unseen(&mut a, o);
                                }
                            }
                            'e' => a.programs.extend(value),
                            _ => unseen(&mut a, o),
                        }
                        if n > 0 || l == 'e' && !o[2..].is_empty() {
                            a.plain = false;
                        }
                        break;
                    } else if AWK_GLUED.contains(l) {
                        unseen(&mut a, o);
                        break;
                    } else if AWK_FLAGS.contains(l) {
                        a.plain = false;
                    } else {
                        unseen(&mut a, o);
                        break;
                    }
                }
                i += step;
            }
            _ => break,
        }
    }
    if a.programs.is_empty() && a.from_file.is_none() {
        a.programs.extend(args.get(i).cloned());
        i += 1;
    }
    // Operands that are assignments: one to `ARGC` changes which operands are read.
    if args[i.min(args.len())..].iter().any(|w| w.lit().is_some_and(|s| s.contains('=') && sets_args(s))) {
        a.plain = false;
    }
    a.operands = args[i.min(args.len())..].to_vec();
    a
}

/// One awk token that matters here.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Str(String),
    /// A regex literal (`/re/`); its text never matters.
    Re,
    Word(String),
    /// Any other character; `\n` for a line's end (not one a `\` continues).
    Punct(char),
    /// `>>`, `|&`, `||`, `&&`, `++`, `--`.
    Two(&'static str),
}

/// Keywords after which every awk reads an operand: a `/` there starts a regex.
const AWK_OPERAND_NEXT: &[&str] = &["print", "printf", "return", "else", "do", "in"];

/// Whether a token can end an operand: a `/` after it may be division (mawk reads it so after
/// a name, a number, a string, a regex, `)`, `]`, `++`, `--`, `getline`) or start a regex
/// (gawk after `if (...)`).
fn ends_operand(t: Option<&Tok>) -> bool {
    match t {
        Some(Tok::Str(_) | Tok::Re | Tok::Punct(')' | ']') | Tok::Two("++" | "--")) => true,
        Some(Tok::Word(w)) => !AWK_OPERAND_NEXT.contains(&w.as_str()),
        _ => false,
    }
}

/// The most readings of an awk program's slashes gate follows.
const AWK_READINGS: usize = 64;

/// An awk program's tokens, in every reading of its slashes that lexes. A `/` where an
/// operand is expected starts a regex in every awk; a `/` after an operand is division in
/// some awks and a regex in others (or in some places): both readings are followed, and
/// their effects are added up. A reading in which a string or regex does not end (awk
/// rejects it) is dropped; a regex holding a `/` in a bracket expression (awks differ) is
/// not modelled.
fn awk_readings(program: &str) -> Result<Vec<Vec<Tok>>, String> {
    let chars: Vec<char> = program.chars().collect();
    let mut todo: Vec<(usize, Vec<Tok>, bool)> = vec![(0, Vec::new(), false)];
    let mut done = Vec::new();
    let mut forks = 1;
    while let Some((start, toks, as_regex)) = todo.pop() {
        match awk_lex(&chars, start, toks, as_regex)? {
            Lexed::Done(t) => done.push(t),
            Lexed::Invalid => {}
            Lexed::Fork(at, t) => {
                forks += 1;
                if forks > AWK_READINGS {
                    return Err("awk program with more slashes than gate follows".into());
                }
                let mut division = t.clone();
                division.push(Tok::Punct('/'));
                todo.push((at, t, true));
                todo.push((at + 1, division, false));
            }
        }
    }
    if done.is_empty() {
        return Err("awk program gate cannot read (a string or regex does not end)".into());
    }
    Ok(done)
}

enum Lexed {
    Done(Vec<Tok>),
    /// A string or regex that does not end: awk rejects this reading.
    Invalid,
    /// A `/` at this index after an operand: to be read both ways.
    Fork(usize, Vec<Tok>),
}

/// Lex from `i`; `regex_here`: the `/` at `i` is read as a regex (a fork's choice).
fn awk_lex(chars: &[char], mut i: usize, mut out: Vec<Tok>, regex_here: bool) -> Result<Lexed, String> {
    let mut forced = regex_here;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        match c {
            '\\' if next == Some('\n') => i += 2,
            '\\' if next == Some('\r') && chars.get(i + 2) == Some(&'\n') => i += 3,
            '#' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '\n' => {
                out.push(Tok::Punct('\n'));
                i += 1;
            }
            '"' => {
                let mut s = String::new();
                i += 1;
                loop {
                    match chars.get(i) {
                        None | Some('\n') => return Ok(Lexed::Invalid),
                        Some('"') => break,
                        Some('\\') => {
                            i += 1;
                            match chars.get(i) {
                                None => return Ok(Lexed::Invalid),
                                Some('\n') => {}
                                Some('n') => s.push('\n'),
                                Some('t') => s.push('\t'),
                                Some(&o) => {
                                    // An escape whose meaning awks differ on (`\/`, `\q`,
                                    // octal): the string is kept, marked unreadable.
                                    if !matches!(o, '"' | '\\') {
                                        s.push('\u{0}');
                                    }
                                    s.push(o)
                                }
                            }
                        }
                        Some(&o) => s.push(o),
                    }
                    i += 1;
                }
                out.push(Tok::Str(s));
                i += 1;
            }
            '/' if forced || !ends_operand(out.iter().rev().find(|t| **t != Tok::Punct('\n'))) => {
                forced = false;
                i += 1;
                loop {
                    match chars.get(i) {
                        None | Some('\n') => return Ok(Lexed::Invalid),
                        Some('/') => break,
                        Some('\\') => {
                            if matches!(chars.get(i + 1), None | Some('\n')) {
                                return Ok(Lexed::Invalid);
                            }
                            i += 2;
                            continue;
                        }
                        Some('[') => i = awk_bracket(chars, i)?,
                        Some(_) => {}
                    }
                    i += 1;
                }
                out.push(Tok::Re);
                i += 1;
            }
            '/' => return Ok(Lexed::Fork(i, out)),
            c if c.is_alphanumeric() || c == '_' || c == '$' => {
                let start = i;
                i += 1;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                out.push(Tok::Word(chars[start..i].iter().collect()));
            }
            '>' | '|' | '&' | '+' | '-' => {
                let two = match (c, next) {
                    ('>', Some('>')) => Some(">>"),
                    ('|', Some('&')) => Some("|&"),
                    ('|', Some('|')) => Some("||"),
                    ('&', Some('&')) => Some("&&"),
                    ('+', Some('+')) => Some("++"),
                    ('-', Some('-')) => Some("--"),
                    _ => None,
                };
                match two {
                    Some(t) => {
                        out.push(Tok::Two(t));
                        i += 2;
                    }
                    None => {
                        out.push(Tok::Punct(c));
                        i += 1;
                    }
                }
            }
            c if c.is_whitespace() => i += 1,
            c => {
                out.push(Tok::Punct(c));
                i += 1;
            }
        }
    }
    Ok(Lexed::Done(out))
}

/// A bracket expression in a regex, its `[` at `i`: the index of its `]`. A `/` or a line's
/// end inside is where awks differ (gawk and mawk read on, others end the regex).
fn awk_bracket(chars: &[char], mut i: usize) -> Result<usize, String> {
    let ambiguous = || Err("awk regex with a `/` in a bracket expression (awks read it differently)".to_string());
    i += 1;
    if chars.get(i) == Some(&'^') {
        i += 1;
    }
    if chars.get(i) == Some(&']') {
        i += 1;
    }
    loop {
        match chars.get(i) {
            None | Some('\n' | '/') => return ambiguous(),
            Some(']') => return Ok(i),
            Some('[') if matches!(chars.get(i + 1), Some(':' | '.' | '=')) => {
                let d = chars[i + 1];
                let mut j = i + 2;
                loop {
                    match chars.get(j) {
                        None | Some('\n' | '/') => return ambiguous(),
                        Some(&x) if x == d && chars.get(j + 1) == Some(&']') => break,
                        _ => j += 1,
                    }
                }
                i = j + 2;
            }
            Some('\\') => {
                // Inside brackets a backslash escapes in gawk and mawk, not in POSIX.
                if chars.get(i + 1).is_some_and(|c| matches!(c, '/' | ']' | '\n')) {
                    return ambiguous();
                }
                i += 2;
            }
            Some(_) => i += 1,
        }
    }
}

/// What an awk program writes (`print > "F"`, `>> "F"`), runs (`system("C")`, `print |
/// "C"`, `"C" | getline`) and reads (`getline < "F"`, and files it names in `ARGV`), in every
/// reading of its slashes (`awk_readings`).
pub(crate) fn awk(program: &str) -> Effects {
    let mut e = Effects::default();
    match awk_readings(program) {
        Ok(readings) => {
            for t in &readings {
                awk_effects(t, &mut e);
            }
        }
        Err(why) => e.unknown = Some(why),
    }
    for v in [&mut e.writes, &mut e.commands, &mut e.reads] {
        let mut seen = std::collections::HashSet::new();
        v.retain(|x| seen.insert(x.clone()));
    }
    e
}

/// Where an operand ends a statement or a parenthesised part: a literal target or command
/// followed by anything else may be concatenated with it (`print > ".e" "nv"`).
fn ends_target(t: Option<&Tok>) -> bool {
    matches!(t, None | Some(Tok::Punct(';' | '}' | '\n' | ')') | Tok::Two("&&" | "||")))
}

/// Builtins that do not assign their arguments, and statements whose parentheses hold a
/// condition: `ARGV` inside them is only read.
const AWK_READS_ARGS: &[&str] =
    &["length", "substr", "index", "sprintf", "printf", "print", "tolower", "toupper", "int", "close", "if", "while"];

fn awk_effects(t: &[Tok], e: &mut Effects) {
    let unknown = |e: &mut Effects, why: &str| {
        e.unknown.get_or_insert_with(|| why.to_string());
    };
    for (k, tok) in t.iter().enumerate() {
        let next = t.get(k + 1);
        let prev = k.checked_sub(1).and_then(|p| t.get(p));
        match tok {
            Tok::Word(w) if w == "system" => match (next, t.get(k + 2)) {
                (Some(Tok::Punct('(')), Some(Tok::Str(c))) if t.get(k + 3) == Some(&Tok::Punct(')')) => {
                    if let Some(c) = literal(e, c, "awk's `system()` runs a command gate cannot read") {
                        e.commands.push(c);
                    }
                }
                _ => unknown(e, "awk's `system()` runs a command built at run time"),
            },
            Tok::Word(w) if (w == "ARGV" || w == "ARGC") && assigns(t, k) => {
                unknown(e, "awk program sets `ARGV`/`ARGC`: the files it reads are known only at run time");
            }
            Tok::Word(w) if w == "FILENAME" && assigns(t, k) => {
                unknown(e, "awk program sets `FILENAME`: the files it names are known only at run time")
            }
            Tok::Word(w) if w == "SYMTAB" || w == "FUNCTAB" => {
                unknown(e, "awk program reaches variables by name (gawk's `SYMTAB`)")
            }
            Tok::Punct('@') => unknown(e, "gawk's `@` directives and indirect calls are not modelled"),
            Tok::Punct('>') | Tok::Two(">>") if in_print(t, k) => match next {
                // `print > FILENAME` rewrites each input file (red team 45: `C*` was Cargo.toml).
                Some(Tok::Word(f)) if f == "FILENAME" && ends_target(t.get(k + 2)) => {
                    e.writes_inputs = true;
                }
                Some(Tok::Str(f)) if ends_target(t.get(k + 2)) => {
                    if let Some(f) = literal(e, f, "awk writes to a file gate cannot name") {
                        e.writes.push(f);
                    }
                }
                _ => unknown(e, "awk writes to a file named at run time"),
            },
            Tok::Punct('|') | Tok::Two("|&") => match next {
                Some(Tok::Word(g)) if g == "getline" => match prev {
                    // `"a" "b" | getline` is `("a" "b") | getline` in gawk, not in others.
                    Some(Tok::Str(c)) if !ends_operand(k.checked_sub(2).and_then(|p| t.get(p))) => {
                        if let Some(c) = literal(e, c, "awk runs a command gate cannot read") {
                            e.commands.push(c);
                        }
                    }
                    _ => unknown(e, "awk runs a command built at run time (`| getline`)"),
                },
                Some(Tok::Str(c)) if in_print(t, k) && ends_target(t.get(k + 2)) => {
                    if let Some(c) = literal(e, c, "awk pipes to a command gate cannot read") {
                        e.commands.push(c);
                    }
                }
                _ => unknown(e, "awk pipes to a command built at run time"),
            },
            Tok::Punct('<') if getline_before(t, k) => match next {
                Some(Tok::Str(f)) if ends_target(t.get(k + 2)) => {
                    if let Some(f) = literal(e, f, "awk reads a file gate cannot name") {
                        e.reads.push(f);
                    }
                }
                _ => unknown(e, "awk reads a file named at run time"),
            },
            _ => {}
        }
    }
}

/// A string literal as awk sees it, or `None` (and the program unmodelled) when it holds an
/// escape awks read differently.
fn literal(e: &mut Effects, s: &str, why: &str) -> Option<String> {
    if s.contains('\u{0}') {
        e.unknown.get_or_insert_with(|| why.to_string());
        None
    } else {
        Some(s.to_string())
    }
}

/// Whether the `ARGV`/`ARGC` at `k` is assigned: the target of `=`, an operator-assignment,
/// `++`/`--`, `getline`, a `for (... in ...)`, or passed to a function that may assign it
/// (`split(s, ARGV)`, `sub(/x/, "y", ARGV[1])`, a user function given the array).
fn assigns(t: &[Tok], k: usize) -> bool {
    let prev = k.checked_sub(1).and_then(|p| t.get(p));
    if matches!(prev, Some(Tok::Two("++" | "--"))) || matches!(prev, Some(Tok::Word(w)) if w == "getline") {
        return true;
    }
    let mut j = k + 1;
    if t.get(j) == Some(&Tok::Punct('[')) {
        let mut depth = 0;
        while let Some(x) = t.get(j) {
            match x {
                Tok::Punct('[') => depth += 1,
                Tok::Punct(']') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            j += 1;
        }
        j += 1;
    }
    let at = |n: usize| t.get(j + n);
    let assign = match at(0) {
        Some(Tok::Punct('=')) => at(1) != Some(&Tok::Punct('=')),
        Some(Tok::Punct('+' | '-' | '*' | '/' | '%' | '^')) => {
            at(1) == Some(&Tok::Punct('=')) || at(1) == Some(&Tok::Punct('*')) && at(2) == Some(&Tok::Punct('='))
        }
        Some(Tok::Two("++" | "--")) => true,
        _ => false,
    };
    if assign {
        return true;
    }
    // An argument of a call, or a `for (x in a)`: the `(` it sits in, and the word before it.
    if matches!(prev, Some(Tok::Punct('(' | ','))) {
        let mut depth = 0;
        for p in (0..k).rev() {
            match &t[p] {
                Tok::Punct(')') => depth += 1,
                Tok::Punct('(') if depth == 0 => {
                    return match p.checked_sub(1).map(|q| &t[q]) {
                        Some(Tok::Word(w)) => !AWK_READS_ARGS.contains(&w.as_str()),
                        _ => false,
                    };
                }
                Tok::Punct('(') => depth -= 1,
                Tok::Punct(';' | '{' | '}') => return false,
                _ => {}
            }
        }
    }
    false
}

/// Whether token `k` sits in a print or printf statement (scanning back to the statement's
/// start), outside parentheses. A line's end does not stop the scan (`print a,` goes on on
/// the next line): a comparison on a later line may be taken for a redirection, never the
/// other way round.
fn in_print(t: &[Tok], k: usize) -> bool {
    let mut depth = 0i32;
    for tok in t[..k].iter().rev() {
        match tok {
            Tok::Punct(')') => depth += 1,
            Tok::Punct('(') => depth -= 1,
            Tok::Punct(';' | '{' | '}') if depth <= 0 => return false,
            Tok::Word(w) if depth == 0 && (w == "print" || w == "printf") => return true,
            _ => {}
        }
    }
    false
}

/// Whether a `getline` comes before token `k` in its statement (`getline < F`, `getline var
/// < F`, `getline a[i] < F`): a `<` after one is taken for a redirection.
fn getline_before(t: &[Tok], k: usize) -> bool {
    t[..k]
        .iter()
        .rev()
        .take_while(|x| !matches!(x, Tok::Punct(';' | '{' | '}')))
        .any(|x| matches!(x, Tok::Word(w) if w == "getline"))
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
/// than letters, digits, `_`, `-` and `.`; a non-ASCII delimiter), is reported as not
/// modelled. A delimiter inside a bracket expression (`s/[^/]*$//`), which GNU sed reads on
/// past and other seds end the regex at, is read both ways: what either reading writes, reads
/// or runs is what the script may do (a reading sed rejects does nothing: sed compiles the
/// whole script before it runs any; red team 69 found `sed 's/[^/]*$//'` over a listing
/// denied). Each `-e` script is read on its own, as sed compiles them; an `e` command's text
/// continued into the next one is not modelled.
pub(crate) fn sed(script: &str) -> Effects {
    let read = |gnu: bool| {
        let mut r = SedReader { c: script.chars().collect(), i: 0, e: Effects::default(), gnu, in_class: false };
        let parsed = r.program();
        (r, parsed)
    };
    let (mut r, parsed) = read(true);
    if let Err(why) = parsed {
        r.e.unknown.get_or_insert(why);
    }
    if std::mem::take(&mut r.in_class) {
        let (other, parsed) = read(false);
        if parsed.is_ok() {
            r.e.writes.extend(other.e.writes);
            r.e.commands.extend(other.e.commands);
            r.e.reads.extend(other.e.reads);
            r.e.writes_inputs |= other.e.writes_inputs;
            if let Some(u) = other.e.unknown {
                r.e.unknown.get_or_insert(u);
            }
        }
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
    /// Reading as GNU sed does (a bracket expression in a regex holds the delimiter), or as
    /// other seds do.
    gnu: bool,
    /// A delimiter was met inside a bracket expression (where the readings differ).
    in_class: bool,
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

    /// The delimiter inside a bracket expression: seds differ ([`sed`] reads it both ways).
    fn delimiter_in_class(&mut self) {
        self.in_class = true;
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
                Some('[') if regex && self.gnu => self.snarf_char_class(slash)?,
                Some(_) => {}
            }
        }
    }

    /// `snarf_char_class`: a bracket expression, after its `[`, through its `]`. A delimiter
    /// inside is where seds differ (GNU reads on; others end the regex there): not modelled,
    /// but read on as GNU sed does, so that what GNU sed then runs or writes is decided too
    /// (red team 40: `sed -n '/[/]/w .env'` writes `.env`).
    fn snarf_char_class(&mut self, slash: char) -> SedResult {
        let mut ch = self.inchar();
        for lead in ['^', ']'] {
            if ch == Some(lead) {
                if lead == slash {
                    self.delimiter_in_class();
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
                self.delimiter_in_class();
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
    fn awk_regex_literals_hide_nothing() {
        let e = awk(r#"/#/{}; BEGIN{system("rm -rf x")}"#);
        assert_eq!(e.commands, vec!["rm -rf x"]);
        let e = awk(r#"$0 ~ /"/; BEGIN{print "x" > ".env"} #""#);
        assert_eq!(e.writes, vec![".env"]);
        assert_eq!(awk(r#"/#/; {print | "sh"}"#).commands, vec!["sh"]);
        assert_eq!(awk(r#"/#/{}; BEGIN{getline l < "/etc/shadow"}"#).reads, vec!["/etc/shadow"]);
        // After an operand a `/` is division in mawk, a regex in gawk after `if (...)`: both.
        assert_eq!(awk(r#"BEGIN { if (1) /#/; system("rm x") }"#).commands, vec!["rm x"]);
        assert_eq!(awk(r#"{ x = a /#/; system("rm x") }"#).commands, vec!["rm x"]);
        // Division then a comment in mawk; a regex then code in the other reading: both count.
        assert_eq!(awk("{ x = a / 2 # / ; system(\"rm x\")\n}").commands, vec!["rm x"]);
        // Regexes and divisions that hide nothing.
        assert_eq!(awk(r#"$1 ~ /^#/ {next} {print}"#), Effects::default());
        assert_eq!(awk(r#"{s+=$1} END {print s/NR}"#), Effects::default());
        assert_eq!(awk(r#"{print $1/$2, $3/$4}"#), Effects::default());
        assert_eq!(awk(r#"{ gsub(/[[:space:]]+/, " "); print }"#), Effects::default());
        // A `/` in a bracket expression, an unterminated string: not modelled.
        assert!(awk(r#"/[/]/; BEGIN{system("rm x")}"#).unknown.is_some());
        assert!(awk(r#"BEGIN { print "a }"#).unknown.is_some());
        // A comparison with a string is no write; a print's target concatenated is not known.
        assert_eq!(awk(r#"$1 > "2024" {print}"#), Effects::default());
        assert!(awk(r#"{print > ".e" "nv"}"#).unknown.is_some());
        assert!(awk(r#"BEGIN{"rm " "x" | getline}"#).unknown.is_some());
        assert!(awk(r#"BEGIN{system("rm\/x")}"#).unknown.is_some());
        assert_eq!(awk(r#"{getline a[1] < "/etc/shadow"}"#).reads, vec!["/etc/shadow"]);
    }

    #[test]
    fn awk_argv_assignments_are_unknown() {
        for p in [
            r#"BEGIN{ARGV[1]="/etc/shadow"; ARGC=2} {print}"#,
            r#"BEGIN{ARGV[ARGC++]="/root/.ssh/id_rsa"} 1"#,
            r#"BEGIN{ARGC += 1}"#,
            r#"BEGIN{split("a /etc/shadow", ARGV)}"#,
            r#"BEGIN{sub(/x/, "/etc/shadow", ARGV[1])}"#,
            r#"function f(a) { a[1] = "/etc/shadow" } BEGIN{ f(ARGV) }"#,
            r#"BEGIN{getline ARGV[1] < "list"}"#,
            r#"BEGIN{for (ARGC in a) x}"#,
            r#"BEGIN{SYMTAB["ARGC"] = 3}"#,
            r#"BEGIN{ARGV[1] /= 2}"#,
        ] {
            assert!(awk(p).unknown.is_some(), "{p}");
        }
        for p in [
            r#"BEGIN { for (i = 1; i < ARGC; i++) print ARGV[i] }"#,
            r#"BEGIN { if (ARGC > 2) print length(ARGV[1]) }"#,
            r#"{ if (ARGV[1] == "-") print }"#,
        ] {
            assert_eq!(awk(p), Effects::default(), "{p}");
        }
    }

    #[test]
    fn awk_command_lines() {
        let lit = |v: &[&str]| v.iter().map(|s| Word::Lit(s.to_string())).collect::<Vec<_>>();
        let a = awk_args(&lit(&["-F:", "-v", "n=1", "{print}", "f"]));
        assert!(a.plain && a.from_file.is_none());
        assert_eq!(a.programs, lit(&["{print}"]));
        for bad in [
            &["-v", "ARGC=3", "1"][..],
            &["-vARGC=3", "1"],
            &["--assign=ARGC=3", "1"],
            &["-fprog.awk", "f"],
            &["-bf", "prog.awk", "f"],
            &["-d.env", "1"],
            &["--profile=.env", "1"],
            &["-W", "exec", "p"],
        ] {
            let a = awk_args(&lit(bad));
            assert!(!a.plain && a.from_file.is_some(), "{bad:?}");
        }
        assert!(!awk_args(&lit(&["1", "ARGC=3", "f"])).plain);
        // A run-time value may be several words, the next taken for the program.
        let dy = vec![Word::Lit("-v".into()), Word::Dyn("n=$N".into()), Word::Lit("1".into())];
        assert!(awk_args(&dy).from_file.is_some());
        let quoted = vec![Word::Lit("-v".into()), Word::Dyn("n=\"$N\"".into()), Word::Lit("1".into())];
        assert!(awk_args(&quoted).from_file.is_none());
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
        // A bracket expression in a regex holds the delimiter in GNU sed, not in others: both
        // readings count (GNU's runs `rm x`; the other's appends text), and one another sed
        // rejects does nothing (red team 69: `s/[^/]*$//`).
        assert_eq!(sed("s/[/]/;a/;1e rm x").commands, vec!["rm x"]);
        assert_eq!(sed("s/[/]/;a/;1e rm x").unknown, None);
        assert_eq!(sed("s/[^/]*$//"), Effects::default());
        assert_eq!(sed("s/.*\\.\\([^.\\/]*\\)$/\\1/p"), Effects::default());
        // (Another sed's reading writes `f/` here: `[` the regex, `]` the replacement.)
        assert_eq!(sed("s/[/]/w f/").writes, vec!["f/"]);
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
