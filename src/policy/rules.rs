//! Rules and their matching (SPEC 3.1): `Tool`, `Tool(words)`, `Tool(words *)`, path globs and
//! `when:` field globs, compiled once and indexed by tool and first word so that a decision
//! costs about the same against ten rules or a hundred thousand.

use std::collections::HashMap;

use globset::{Glob, GlobBuilder};

use super::glob::{Glob as PathMatcher, WordGlob};
use serde_json::Value;

use crate::shell::{is_trusted_program_path, program_name, Word};

/// How strongly a rule matches a command whose words may be only partly known.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Strength {
    No,
    /// Could match, depending on words only known at run time.
    Maybe,
    Yes,
}

/// One word of a command pattern.
#[derive(Clone, Debug)]
enum PatWord {
    Exact(String),
    /// A word with `*` or `?` inside, matched within the one word.
    Wild(WordGlob),
}

impl PatWord {
    fn matches(&self, w: &str) -> bool {
        match self {
            PatWord::Exact(e) => e == w,
            PatWord::Wild(p) => p.is_match(w),
        }
    }
}

/// A shell command pattern: words, and whether a trailing `*` admits more words.
#[derive(Clone, Debug)]
pub struct WordPattern {
    words: Vec<PatWord>,
    prefix: bool,
}

impl WordPattern {
    /// The pattern's literal words (its wildcards left out), for the conservative scan of text
    /// gate cannot parse.
    pub fn literal_words(&self) -> Vec<&str> {
        self.words
            .iter()
            .filter_map(|w| match w {
                PatWord::Exact(s) => Some(s.as_str()),
                _ => None,
            })
            .collect()
    }

    /// Parse the inside of `Bash(...)`. Words are split like the shell splits them (quotes
    /// group, backslash escapes); a last word `*` (or a `:*` suffix, Claude Code's spelling)
    /// admits any further words.
    pub fn parse(spec: &str) -> Result<WordPattern, String> {
        let mut spec = spec.trim().to_string();
        let mut prefix = false;
        if let Some(s) = spec.strip_suffix(":*") {
            spec = s.to_string();
            prefix = true;
        }
        let mut words = split_words(&spec)?;
        if words.last().is_some_and(|w| w.0 == "*" && !w.1) {
            words.pop();
            prefix = true;
        }
        if words.is_empty() {
            return Err("the pattern names no command".into());
        }
        for (w, quoted) in &words {
            if !quoted
                && (w.contains("&&") || w.contains("||") || w == ";" || w == "|" || w.contains(';') || w.contains('|'))
            {
                return Err(format!("`{w}`: a pattern matches one simple command; write one rule per command"));
            }
        }
        let mut out = Vec::new();
        for (i, (w, quoted)) in words.into_iter().enumerate() {
            let w = if i == 0 { program_name(&w).to_string() } else { w };
            if !quoted && (w.contains('*') || w.contains('?')) {
                out.push(PatWord::Wild(WordGlob::new(&w)));
            } else {
                out.push(PatWord::Exact(w));
            }
        }
        Ok(WordPattern { words: out, prefix })
    }

    /// The second word when the pattern has one and it is exact: the second index key.
    fn second_exact(&self) -> Option<&str> {
        match self.words.get(1) {
            Some(PatWord::Exact(e)) => Some(e),
            _ => None,
        }
    }

    /// The first word when it is exact: the index key.
    pub fn first_exact(&self) -> Option<&str> {
        match self.words.first() {
            Some(PatWord::Exact(e)) => Some(e),
            _ => None,
        }
    }

    /// Match a command's words. `trusted` is false for a program given by a path outside the
    /// system directories (`./git`): it can then match a deny or ask rule but never be `Yes`
    /// for an allow rule (the caller decides which it needs).
    pub fn matches(&self, words: &[Word]) -> Strength {
        let mut seen_dyn = false;
        for (i, pw) in self.words.iter().enumerate() {
            match words.get(i) {
                None => return if seen_dyn { Strength::Maybe } else { Strength::No },
                Some(Word::Dyn(_)) => seen_dyn = true,
                Some(Word::Lit(w)) => {
                    let w = if i == 0 { program_name(w) } else { w.as_str() };
                    if !pw.matches(w) {
                        return if seen_dyn { Strength::Maybe } else { Strength::No };
                    }
                }
            }
        }
        if !self.prefix && words.len() > self.words.len() {
            let extra = &words[self.words.len()..];
            if seen_dyn || extra.iter().all(|w| matches!(w, Word::Dyn(_))) {
                return Strength::Maybe;
            }
            return Strength::No;
        }
        if seen_dyn {
            Strength::Maybe
        } else {
            Strength::Yes
        }
    }

    /// Match an open pattern (`cmd a b *`) by its program and then its other words in order
    /// anywhere among the command's words: `git reset HEAD --hard` and `git -C . reset --hard`
    /// match `git reset --hard *`. Used for deny and ask rules only, so that reordering
    /// arguments cannot dodge them; allow rules keep the strict prefix.
    pub fn matches_loose(&self, words: &[Word]) -> Strength {
        if !self.prefix {
            return Strength::No;
        }
        // Words only known at run time are left to the strict match, which reports `Maybe`.
        match (self.words.first(), words.first()) {
            (Some(pw), Some(Word::Lit(w))) if pw.matches(program_name(w)) => {}
            _ => return Strength::No,
        }
        let mut rest = words[1..].iter().filter_map(Word::lit);
        for pw in &self.words[1..] {
            if !rest.any(|w| pw.matches(w)) {
                return Strength::No;
            }
        }
        Strength::Yes
    }

    /// For deny and ask rules: options matched as the program reads them (SPEC 3.1). The
    /// pattern's and the command's options are both put in one spelling ([`option_words`]):
    /// `-r -f` matches `-rf`, `-fr`, `-Rf` and `--recursive --force`; `--force` matches
    /// `--force=VALUE` and git's `-f`. Every word of the pattern must appear, in any order.
    pub fn matches_options(&self, words: &[Word]) -> Strength {
        if !self.prefix {
            return Strength::No;
        }
        let program = match (self.words.first(), words.first()) {
            (Some(pw), Some(Word::Lit(w))) if pw.matches(program_name(w)) => program_name(w),
            _ => return Strength::No,
        };
        let mut have: Vec<String> = option_words(program, words[1..].iter().filter_map(Word::lit));
        // git's options are read per subcommand: the pattern's is its first operand word.
        let sub = self.words[1..].iter().find_map(|w| match w {
            PatWord::Exact(s) if !s.starts_with('-') => Some(s.as_str()),
            _ => None,
        });
        let sub = if program == "git" { sub } else { None };
        // Words only known at run time could spell options (`"-f$e"` may be `-f` or `-fd`),
        // and for git push a `+` refspec: a deny or ask rule must meet what they could be.
        // (Operands after `--` are no options.)
        let dyns: Vec<&str> = words[1..]
            .iter()
            .take_while(|w| w.lit() != Some("--"))
            .filter_map(|w| match w {
                Word::Dyn(d) => Some(d.as_str()),
                Word::Lit(_) => None,
            })
            .collect();
        let git_push = program == "git"
            && words[1..].get(crate::shell::git_subcommand_at(&words[1..])).and_then(Word::lit) == Some("push");
        if git_push && words[1..].iter().any(|w| matches!(w, Word::Dyn(d) if could_start_with(d, '+'))) {
            have.push("-f".into());
        }
        for pw in &self.words[1..] {
            let ok = match pw {
                PatWord::Exact(s) => {
                    option_words_of(program, sub, &[s.as_str()])
                        .iter()
                        .all(|n| {
                            have.iter().any(|h| h == n)
                                || dyns.iter().any(|d| could_spell(d, n) || could_spell_long(program, sub, d, n))
                        })
                        // GNU and git parsers take any unambiguous prefix of a long option,
                        // down to one letter: `git reset --ha` and `git reset --h` are
                        // `--hard` (oracle red team; sixth red team for the one letter). An
                        // ambiguous prefix is an error that runs nothing, so meeting it here
                        // costs nothing. Operands after `--` spell no option.
                        || s.starts_with("--")
                            && have
                                .iter()
                                .take_while(|h| *h != "--")
                                .any(|h| h.len() >= 3 && h.starts_with("--") && s.starts_with(h.as_str()))
                }
                wild => have.iter().any(|h| wild.matches(h)),
            };
            if !ok {
                return Strength::No;
            }
        }
        Strength::Yes
    }
}

/// The literal start of a word only known at run time (`"-f$e"`: `-f`; `$x`: empty).
fn literal_prefix(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.chars() {
        match c {
            '"' | '\'' => continue,
            '$' | '`' | '\\' | '*' | '?' | '[' | '{' | '~' => break,
            c => out.push(c),
        }
    }
    out
}

/// Whether a run-time word could start with `c` (its literal start does, or it has none).
fn could_start_with(raw: &str, c: char) -> bool {
    let p = literal_prefix(raw);
    p.is_empty() || p.starts_with(c)
}

/// Whether a run-time word could be (or, as a bundle, hold) the option `opt`: its literal
/// start is empty (`$x` is anything), a start of `opt` (`--for$e` may be `--force`), `opt`
/// with a value (`--force=$v`), or a bundle of letters that more letters may follow (`-f$e`
/// may be `-fd`, which holds `-d`).
fn could_spell(raw: &str, opt: &str) -> bool {
    if !opt.starts_with('-') {
        return false;
    }
    let p = literal_prefix(raw);
    if p.is_empty() {
        return crate::shell::could_be_option(raw);
    }
    let short_bundle =
        p.len() >= 2 && p.starts_with('-') && !p.starts_with("--") && p[1..].chars().all(|c| c.is_ascii_alphanumeric());
    opt.starts_with(p.as_str())
        || p.starts_with(&format!("{opt}="))
        || (short_bundle && opt.len() == 2 && !opt.starts_with("--"))
}

/// Whether a run-time word that starts as a long option could be one the program's table
/// maps to `opt` (`"--force$e"` may be `--force`, which is git branch's `-f`).
fn could_spell_long(program: &str, git_sub: Option<&str>, raw: &str, opt: &str) -> bool {
    let p = literal_prefix(raw);
    p.starts_with("--")
        && option_table(program, git_sub).iter().any(|(k, v)| {
            k.starts_with("--")
                && (k.starts_with(p.as_str()) || p.starts_with(&format!("{k}=")))
                && v.split(' ').any(|x| x == opt)
        })
}

/// Option words in one spelling: a bundle `-rf` split into `-r -f`; `--opt=VALUE` is `--opt`;
/// long options and synonyms the program documents as one mapped to one letter (a small table:
/// rm, cp, mv, chmod, chown, chgrp, sed, sort, and git per subcommand, where one letter can be
/// two options: `git branch -D` is `-d -f`, and a `+` refspec is a forced push; find's words
/// stay whole). Words after `--` and operands stay as they are.
pub fn option_words<'a>(program: &str, words: impl Iterator<Item = &'a str>) -> Vec<String> {
    let words: Vec<&str> = words.collect();
    let sub = if program == "git" { words.iter().copied().find(|w| !w.starts_with('-')) } else { None };
    option_words_of(program, sub, &words)
}

/// [`option_words`] with git's subcommand given (a pattern's words are read one at a time).
fn option_words_of(program: &str, git_sub: Option<&str>, words: &[&str]) -> Vec<String> {
    let table = option_table(program, git_sub);
    // find's options are whole words (`-delete`, `-exec`), never bundles.
    let bundles = program != "find";
    let mut out = Vec::new();
    let push = |out: &mut Vec<String>, f: &str| match table.iter().find(|(k, _)| *k == f) {
        Some((_, v)) => out.extend(v.split(' ').map(str::to_string)),
        None => out.push(f.to_string()),
    };
    let mut operands = false;
    for &w in words {
        if operands || !w.starts_with('-') || w == "-" {
            // `git push origin +main` forces the update of main.
            if git_sub == Some("push") && w.len() > 1 && w.starts_with('+') {
                out.push("-f".into());
            }
            out.push(w.to_string());
            continue;
        }
        if w == "--" {
            operands = true;
            out.push(w.to_string());
        } else if let Some(long) = w.strip_prefix("--") {
            let name = long.split('=').next().unwrap_or(long);
            let full = format!("--{name}");
            // An unambiguous prefix of a long option in the table is that option (`--in-pl`),
            // one letter included (`--f` for rm's `--force`: sixth red team).
            let mut keys =
                table.iter().filter(|(k, _)| k.starts_with("--") && k.starts_with(&full) && !name.is_empty());
            match (keys.next(), keys.next()) {
                (Some((k, _)), None) if !table.iter().any(|(k, _)| *k == full) => push(&mut out, k),
                _ => push(&mut out, &full),
            }
        } else if bundles && w.len() > 2 && w[1..].chars().all(|c| c.is_ascii_alphabetic()) {
            for c in w[1..].chars() {
                push(&mut out, &format!("-{c}"));
            }
        } else if bundles && w.len() > 2 && w[1..2].chars().all(|c| c.is_ascii_alphabetic()) {
            // A letter with its value glued (`-i.bak`, `-o.env`): the letter, and the word.
            push(&mut out, &w[..2]);
            out.push(w.to_string());
        } else {
            push(&mut out, w);
        }
    }
    out
}

/// The program's option synonyms (see [`option_words`]).
fn option_table(program: &str, git_sub: Option<&str>) -> &'static [(&'static str, &'static str)] {
    match program {
        "rm" => &[
            ("--recursive", "-r"),
            ("-R", "-r"),
            ("--force", "-f"),
            ("--dir", "-d"),
            ("--interactive", "-i"),
            ("--verbose", "-v"),
        ],
        "cp" | "mv" => &[("--recursive", "-r"), ("-R", "-r"), ("--force", "-f"), ("--verbose", "-v")],
        "chmod" | "chown" | "chgrp" => &[("--recursive", "-R"), ("--verbose", "-v")],
        "git" => git_option_table(git_sub.unwrap_or("")),
        "sed" => &[
            ("--in-place", "-i"),
            ("--expression", "-e"),
            ("--file", "-f"),
            ("--quiet", "-n"),
            ("--silent", "-n"),
            ("--regexp-extended", "-E"),
            ("-r", "-E"),
            ("--separate", "-s"),
            ("--null-data", "-z"),
        ],
        "sort" => &[
            ("--output", "-o"),
            ("--reverse", "-r"),
            ("--unique", "-u"),
            ("--numeric-sort", "-n"),
            ("--field-separator", "-t"),
            ("--key", "-k"),
            ("--merge", "-m"),
        ],
        _ => &[],
    }
}

/// git's option synonyms, per subcommand (from each one's `-h`): the same letter means
/// different things in different subcommands (`-a` is `--all` in commit, `--append` in
/// fetch), and some letters are two options (`branch -D` is `--delete --force`).
fn git_option_table(sub: &str) -> &'static [(&'static str, &'static str)] {
    match sub {
        "push" => &[
            ("--force", "-f"),
            ("--delete", "-d"),
            ("--dry-run", "-n"),
            ("--set-upstream", "-u"),
            ("--quiet", "-q"),
            ("--verbose", "-v"),
        ],
        "clean" => {
            &[("--force", "-f"), ("--dry-run", "-n"), ("--quiet", "-q"), ("--interactive", "-i"), ("--exclude", "-e")]
        }
        "branch" => &[
            ("--delete", "-d"),
            ("--force", "-f"),
            ("-D", "-d -f"),
            ("--move", "-m"),
            ("-M", "-m -f"),
            ("--copy", "-c"),
            ("-C", "-c -f"),
            ("--remotes", "-r"),
            ("--all", "-a"),
            ("--list", "-l"),
            ("--quiet", "-q"),
            ("--verbose", "-v"),
        ],
        "checkout" | "switch" => &[
            ("--force", "-f"),
            ("--discard-changes", "-f"),
            ("--quiet", "-q"),
            ("--merge", "-m"),
            ("--patch", "-p"),
            ("--create", "-c"),
            ("--force-create", "-C"),
        ],
        "reset" => &[("--quiet", "-q"), ("--patch", "-p")],
        "add" => &[("--all", "-A"), ("--force", "-f"), ("--dry-run", "-n"), ("--update", "-u"), ("--patch", "-p")],
        "commit" => {
            &[("--all", "-a"), ("--message", "-m"), ("--no-verify", "-n"), ("--quiet", "-q"), ("--patch", "-p")]
        }
        "tag" => &[("--delete", "-d"), ("--force", "-f"), ("--list", "-l"), ("--annotate", "-a"), ("--message", "-m")],
        "rm" => &[("--force", "-f"), ("--dry-run", "-n"), ("--quiet", "-q")],
        "mv" => &[("--force", "-f"), ("--dry-run", "-n"), ("--verbose", "-v")],
        "fetch" | "pull" => &[("--force", "-f"), ("--quiet", "-q"), ("--verbose", "-v"), ("--append", "-a")],
        "stash" => &[("--quiet", "-q"), ("--patch", "-p"), ("--all", "-a"), ("--include-untracked", "-u")],
        _ => &[("--force", "-f"), ("--quiet", "-q"), ("--dry-run", "-n")],
    }
}

/// Split pattern text into words like the shell: `'...'`, `"..."` and `\x`. The flag says
/// whether any part was quoted (a quoted `*` is literal).
fn split_words(s: &str) -> Result<Vec<(String, bool)>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut in_word = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    out.push((std::mem::take(&mut cur), quoted));
                    quoted = false;
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                quoted = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => cur.push(c),
                        None => return Err("unterminated single quote".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                quoted = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => cur.push(c),
                            None => return Err("unterminated double quote".into()),
                        },
                        Some(c) => cur.push(c),
                        None => return Err("unterminated double quote".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                quoted = true;
                if let Some(c) = chars.next() {
                    cur.push(c);
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        out.push((cur, quoted));
    }
    Ok(out)
}

/// Compile a glob the way gate matches paths: `*` stays inside a segment, `**` crosses.
pub fn compile_glob(pattern: &str) -> Result<Glob, String> {
    GlobBuilder::new(pattern)
        .literal_separator(true)
        .backslash_escape(true)
        .build()
        .map_err(|e| format!("bad glob `{pattern}`: {}", e.kind()))
}

/// A path, resolved: absolute, and relative to the workspace when inside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResolvedPath {
    pub abs: String,
    pub rel: Option<String>,
}

/// A glob over paths, already split into the form it matches.
#[derive(Clone, Debug)]
pub enum PathGlob {
    /// Matched against the path relative to the workspace (`docs/**/*.md`).
    Relative(String),
    /// Matched against the absolute path (`/etc/**`, `~/.ssh/**`).
    Absolute(String),
}

impl PathGlob {
    /// Compiled matchers: (absolute?, matcher), one per brace alternative.
    pub fn matchers(forms: &[PathGlob]) -> Result<Vec<(bool, PathMatcher)>, String> {
        let mut out = Vec::new();
        for f in forms {
            let (abs, g) = match f {
                PathGlob::Relative(g) => (false, g),
                PathGlob::Absolute(g) => (true, g),
            };
            compile_glob(g)?;
            for m in PathMatcher::compile(g).map_err(|e| format!("bad glob `{g}`: {e}"))? {
                out.push((abs, m));
            }
        }
        Ok(out)
    }

    /// Build from rule text. `~/` is expanded with `home`; a relative glob starting with `**/`
    /// also matches paths outside the workspace (by their absolute form).
    pub fn forms(pattern: &str, home: Option<&str>) -> Result<Vec<PathGlob>, String> {
        let p = pattern.trim();
        if p.is_empty() {
            return Err("empty path pattern".into());
        }
        let p = if let Some(rest) = p.strip_prefix("~/") {
            match home {
                Some(h) => format!("{}/{rest}", h.trim_end_matches('/')),
                None => return Err("`~` used but there is no home directory".into()),
            }
        } else {
            p.strip_prefix("./").unwrap_or(p).to_string()
        };
        if p.starts_with('/') {
            compile_glob(&p)?;
            return Ok(vec![PathGlob::Absolute(p)]);
        }
        compile_glob(&p)?;
        let mut v = vec![PathGlob::Relative(p.clone())];
        if !p.contains('/') {
            // No `/`: the file name at any depth, as in .gitignore (SPEC 3.1).
            v.push(PathGlob::Relative(format!("**/{p}")));
        }
        if p.starts_with("**/") {
            v.push(PathGlob::Absolute(format!("/{p}")));
        }
        Ok(v)
    }
}

/// What a rule matches.
#[derive(Clone, Debug)]
pub enum Matcher {
    /// Every call of the tool.
    Any,
    /// Shell commands by words.
    Words(WordPattern),
    /// The tool's path argument.
    Path(Vec<PathGlob>),
    /// Argument fields, each a glob (`when:`). Path fields are matched as paths.
    When(Vec<(String, WhenGlob)>),
}

#[derive(Clone, Debug)]
pub enum WhenGlob {
    /// (matches the absolute form?, matcher)
    Path(Vec<(bool, PathMatcher)>),
    Text(globset::GlobMatcher),
    /// `WebFetch(domain:example.com)`: the URL's host is the domain or one of its subdomains.
    Domain(String),
}

/// When a rule does not apply (SPEC 3.1 `unless:`): every path operand of the command lies
/// in one of `paths`, or one of `args` is among its words.
#[derive(Clone, Debug, Default)]
pub struct Unless {
    pub paths: Vec<globset::GlobMatcher>,
    pub args: Vec<String>,
}

impl Unless {
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty() && self.args.is_empty()
    }

    /// Does the exception hold for this command? Only on words known now: a word known only
    /// at run time never makes an exception.
    pub fn excepts(&self, words: &[Word]) -> bool {
        if self.is_empty() || words.iter().any(|w| w.lit().is_none()) {
            return false;
        }
        let lits: Vec<&str> = words.iter().skip(1).filter_map(Word::lit).collect();
        if !self.args.is_empty()
            && lits.iter().any(|w| {
                self.args.iter().any(|a| w == a || w.strip_prefix(a.as_str()).is_some_and(|r| r.starts_with('=')))
            })
        {
            return true;
        }
        if self.paths.is_empty() {
            return false;
        }
        let operands: Vec<&str> = lits.iter().copied().filter(|w| !w.starts_with('-')).collect();
        !operands.is_empty()
            && operands.iter().all(|o| {
                o.starts_with('/') && {
                    let n = super::model::normalize(std::path::Path::new(o));
                    let n = n.to_string_lossy();
                    self.paths.iter().any(|g| g.is_match(n.as_ref()))
                }
            })
    }
}

/// One rule, as written and as compiled.
#[derive(Clone, Debug)]
pub struct Rule {
    /// The rule as a person reads it: `Bash(git diff *)`, `write when file_path=docs/**`.
    pub text: String,
    /// Canonical tool name.
    pub tool: String,
    pub matcher: Matcher,
    /// When it does not apply (`unless:`).
    pub unless: Unless,
}

impl Rule {
    /// A deny rule's path glob without `/` (`Write(Cargo.toml)`, `Read(*.pem)`) names the file
    /// at any depth (SPEC 3.1), outside the workspace too, as one starting with `**/` does
    /// (red team 80: `echo x >> ../Cargo.toml` was only asked where `>> ../.env` was denied).
    /// Only for deny rules: an allow rule keeps to the workspace.
    pub fn anywhere(mut self) -> Rule {
        if let Matcher::Path(forms) = &mut self.matcher {
            let names: Vec<String> = forms
                .iter()
                .filter_map(|f| match f {
                    PathGlob::Relative(g) if !g.contains('/') => Some(format!("/**/{g}")),
                    _ => None,
                })
                .collect();
            forms.extend(names.into_iter().map(PathGlob::Absolute));
        }
        self
    }
}

/// What a call offers to be matched.
pub enum Subject<'a> {
    /// A shell command. `loose`: match deny and ask patterns whatever the order of the
    /// command's other words (`git reset HEAD --hard` is still `git reset --hard *`).
    Command {
        words: &'a [Word],
        loose: bool,
    },
    Call {
        args: &'a Value,
        path: Option<&'a ResolvedPath>,
        path_field: Option<&'a str>,
    },
}

/// A set of rules (one list of host.yaml, the "always" approvals, a skill, the session),
/// indexed for matching.
#[derive(Clone, Debug, Default)]
pub struct RuleSet {
    rules: Vec<Rule>,
    by_tool: HashMap<String, ToolIndex>,
}

impl RuleSet {
    /// Every rule, in file order.
    pub fn all(&self) -> &[Rule] {
        &self.rules
    }

    /// The tool names its rules are for.
    pub fn tool_names(&self) -> impl Iterator<Item = &String> {
        self.by_tool.keys()
    }
}

#[derive(Clone, Debug, Default)]
struct ToolIndex {
    any: Vec<usize>,
    by_first: HashMap<String, FirstBucket>,
    words_wild: Vec<usize>,
    /// Path globs matched against the workspace-relative path, and against the absolute one.
    rel: PathIndex,
    abs: PathIndex,
    when: Vec<usize>,
}

/// Command patterns with the same program, indexed again by their second word when it is
/// exact (`git status`, `git diff *`), so that thousands of `git ...` rules cost a lookup.
#[derive(Clone, Debug, Default)]
struct FirstBucket {
    by_second: HashMap<String, Vec<usize>>,
    /// One-word patterns and patterns whose second word is a wildcard.
    other: Vec<usize>,
}

impl FirstBucket {
    fn all(&self) -> impl Iterator<Item = usize> + '_ {
        self.by_second.values().flatten().chain(self.other.iter()).copied()
    }
}

/// Path globs indexed by their literal first segment (`docs/**` under `docs`); the rest
/// (`**/.env*`) are tried for every path.
#[derive(Clone, Debug, Default)]
struct PathIndex {
    by_first: HashMap<String, Vec<(PathMatcher, usize)>>,
    general: Vec<(PathMatcher, usize)>,
}

impl PathIndex {
    fn add(&mut self, m: PathMatcher, rule: usize) {
        match m.literal_first() {
            Some(first) => self.by_first.entry(first).or_default().push((m, rule)),
            None => self.general.push((m, rule)),
        }
    }

    fn all(&self) -> impl Iterator<Item = &(PathMatcher, usize)> {
        self.by_first.values().flatten().chain(self.general.iter())
    }

    /// The lowest rule index whose glob matches `path`.
    fn first_match(&self, path: &str) -> Option<usize> {
        let first = path.split('/').next().unwrap_or("");
        let bucket = self.by_first.get(first).map(Vec::as_slice).unwrap_or(&[]);
        bucket.iter().chain(self.general.iter()).filter(|(m, _)| m.is_match(path)).map(|(_, i)| *i).min()
    }
}

impl RuleSet {
    pub fn new(rules: Vec<Rule>) -> RuleSet {
        let mut set = RuleSet { rules: Vec::new(), by_tool: HashMap::new() };
        for r in rules {
            set.add(r);
        }
        set
    }

    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    pub fn len(&self) -> usize {
        self.rules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    fn add(&mut self, r: Rule) {
        let i = self.rules.len();
        let idx = self.by_tool.entry(r.tool.clone()).or_default();
        match &r.matcher {
            Matcher::Any => idx.any.push(i),
            Matcher::Words(w) => match w.first_exact() {
                Some(f) => {
                    let bucket = idx.by_first.entry(f.to_string()).or_default();
                    match w.second_exact() {
                        Some(second) => {
                            bucket.by_second.entry(second.to_string()).or_default().push(i);
                            // Also under the option's other spellings (`-rf` under `-r` and `-f`).
                            for o in option_words(f, std::iter::once(second)) {
                                if o != second {
                                    let v = bucket.by_second.entry(o).or_default();
                                    if v.last() != Some(&i) {
                                        v.push(i);
                                    }
                                }
                            }
                        }
                        None => bucket.other.push(i),
                    }
                }
                None => idx.words_wild.push(i),
            },
            Matcher::Path(forms) => {
                // Validated when the rule was built; a glob that failed there never got here.
                for (abs, m) in PathGlob::matchers(forms).unwrap_or_default() {
                    if abs {
                        idx.abs.add(m, i)
                    } else {
                        idx.rel.add(m, i)
                    }
                }
            }
            Matcher::When(fields) => match fields.as_slice() {
                // A rule on the path field alone is indexed like a path rule.
                [(_, WhenGlob::Path(ms))] => {
                    for (abs, m) in ms {
                        if *abs {
                            idx.abs.add(m.clone(), i)
                        } else {
                            idx.rel.add(m.clone(), i)
                        }
                    }
                }
                _ => idx.when.push(i),
            },
        }
        self.rules.push(r);
    }

    /// The first rule for `tool` (or its MCP server) that could match a path a shell glob
    /// expands to: `rel` is the glob relative to the workspace (when it lies inside), `abs`
    /// the absolute one.
    pub fn could_match_glob(&self, tool: &str, rel: Option<&str>, abs: &str) -> Option<&Rule> {
        let any = self.by_tool.get(tool)?.any.iter().copied().min();
        let path = self.first_path_rule(tool, rel, abs, |m, p| m.could_match_shell(p));
        any.into_iter().chain(path).min().map(|i| &self.rules[i])
    }

    /// The first rule for `tool` that names paths below a directory it names (`docs/**/*.md`,
    /// not `*.md` or `made.txt`, which match in any directory) and could match a path the
    /// shell glob `rel` (relative to the workspace) or `abs` expands to; rules that name only
    /// the tool, or fields other than the path, do not count.
    pub fn could_match_glob_by_path(&self, tool: &str, rel: &str, abs: &str) -> Option<&Rule> {
        let hit = |m: &super::glob::Glob, p: &str| m.literal_first().is_some() && m.could_match_shell(p);
        self.first_path_rule(tool, Some(rel), abs, hit).map(|i| &self.rules[i])
    }

    /// The first rule for `tool` that names paths and matches every path the shell glob `rel`
    /// (relative to the workspace) or `abs` expands to ([`super::glob::Glob::contains_shell`]).
    pub fn contains_glob_by_path(&self, tool: &str, rel: Option<&str>, abs: &str) -> Option<&Rule> {
        self.first_path_rule(tool, rel, abs, |m, p| m.contains_shell(p)).map(|i| &self.rules[i])
    }

    /// The index of the first path rule for `tool` (and rule on the path field alone, compiled
    /// once in the index) that `hit` accepts: a relative one tried on `rel`, an absolute one on
    /// `abs`.
    fn first_path_rule(
        &self,
        tool: &str,
        rel: Option<&str>,
        abs: &str,
        hit: impl Fn(&super::glob::Glob, &str) -> bool,
    ) -> Option<usize> {
        let idx = self.by_tool.get(tool)?;
        let rel_hits = idx.rel.all().filter(|(m, _)| rel.is_some_and(|r| hit(m, r)));
        let abs_hits = idx.abs.all().filter(|(m, _)| hit(m, abs));
        rel_hits.chain(abs_hits).map(|(_, i)| *i).min()
    }

    /// The strongest match of any rule in the set for `tool` and `subject`, with the rule.
    /// `any_counts`: whether rules that name only the tool (or only non-path fields) count;
    /// false for paths outside the workspace, which need a rule that names the path.
    pub fn best_match(&self, tool: &str, subject: &Subject, any_counts: bool) -> Option<(Strength, &Rule)> {
        let own = self.best_match_tool(tool, subject, any_counts);
        // `mcp__server` (and `mcp__server__*`) covers every tool of that server, as in Claude Code.
        let server = mcp_server(tool).and_then(|s| self.best_match_tool(s, subject, any_counts));
        match (own, server) {
            (Some(a), Some(b)) => Some(if b.0 > a.0 { b } else { a }),
            (a, b) => a.or(b),
        }
    }

    fn best_match_tool(&self, tool: &str, subject: &Subject, any_counts: bool) -> Option<(Strength, &Rule)> {
        let idx = self.by_tool.get(tool)?;
        let mut best: Option<(Strength, usize)> = None;
        let consider = |s: Strength, i: usize, best: &mut Option<(Strength, usize)>| {
            if s != Strength::No && best.is_none_or(|(bs, bi)| s > bs || (s == bs && i < bi)) {
                *best = Some((s, i));
            }
        };
        if any_counts {
            if let Some(&i) = idx.any.first() {
                return Some((Strength::Yes, &self.rules[i]));
            }
        }
        match subject {
            Subject::Command { words, loose } => {
                let first = words.first();
                let check = |i: usize, best: &mut Option<(Strength, usize)>| {
                    if let Matcher::Words(p) = &self.rules[i].matcher {
                        let s = if *loose {
                            p.matches(words).max(p.matches_loose(words)).max(p.matches_options(words))
                        } else {
                            p.matches(words)
                        };
                        let s =
                            if s == Strength::Yes && self.rules[i].unless.excepts(words) { Strength::No } else { s };
                        consider(s, i, best);
                    }
                };
                match first {
                    Some(Word::Lit(w)) => {
                        if let Some(bucket) = idx.by_first.get(program_name(w)) {
                            match words.get(1) {
                                // Any pattern could match a run-time second word.
                                Some(Word::Dyn(_)) => bucket.all().for_each(|i| check(i, &mut best)),
                                second => {
                                    bucket.other.iter().for_each(|&i| check(i, &mut best));
                                    if let Some(Word::Lit(s)) = second {
                                        if let Some(v) = bucket.by_second.get(s.as_str()) {
                                            v.iter().for_each(|&i| check(i, &mut best));
                                        }
                                    }
                                    if *loose {
                                        // The pattern's second word may appear later on, or
                                        // in another spelling of the same option (`-rf`).
                                        for w in words.iter().skip(2).filter_map(Word::lit) {
                                            if let Some(v) = bucket.by_second.get(w) {
                                                v.iter().for_each(|&i| check(i, &mut best));
                                            }
                                        }
                                        let lits = words.iter().skip(1).filter_map(Word::lit);
                                        let mut options = true;
                                        for w in option_words(program_name(w), lits) {
                                            options &= w != "--";
                                            if let Some(v) = bucket.by_second.get(w.as_str()) {
                                                v.iter().for_each(|&i| check(i, &mut best));
                                            }
                                            // A long option abbreviated (`--forc`, `--f`) is
                                            // any pattern's option it starts (see
                                            // `matches_options`).
                                            if options && w.len() >= 3 && w.starts_with("--") {
                                                for (k, v) in &bucket.by_second {
                                                    if k.starts_with("--") && k.starts_with(w.as_str()) && *k != w {
                                                        v.iter().for_each(|&i| check(i, &mut best));
                                                    }
                                                }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                    _ => {
                        // A program only known at run time could be any rule's program.
                        for bucket in idx.by_first.values() {
                            bucket.all().for_each(|i| check(i, &mut best));
                        }
                    }
                }
                for &i in &idx.words_wild {
                    check(i, &mut best);
                }
            }
            Subject::Call { args, path, path_field } => {
                if let Some(p) = path {
                    if let Some(i) = p.rel.as_deref().and_then(|rel| idx.rel.first_match(rel)) {
                        consider(Strength::Yes, i, &mut best);
                    }
                    if let Some(i) = idx.abs.first_match(&p.abs) {
                        consider(Strength::Yes, i, &mut best);
                    }
                }
                for &i in &idx.when {
                    if let Matcher::When(fields) = &self.rules[i].matcher {
                        if when_matches(fields, args, *path, *path_field, any_counts) {
                            consider(Strength::Yes, i, &mut best);
                        }
                    }
                }
            }
        }
        best.map(|(s, i)| (s, &self.rules[i]))
    }

    /// Rules that deny a tool outright (no pattern): the tool can be dropped from the model.
    pub fn whole_tools(&self) -> impl Iterator<Item = &str> {
        self.by_tool.iter().filter(|(_, idx)| !idx.any.is_empty()).map(|(t, _)| t.as_str())
    }
}

/// Other agents' names for the field that holds a tool call's file (Claude's `file_path`):
/// pi's `path`, opencode's `filePath`, Gemini's `absolute_path`, a notebook's path.
pub(crate) const FILE_PATH_ALIASES: &[&str] = &["path", "filePath", "absolute_path", "notebook_path"];

fn when_matches(
    fields: &[(String, WhenGlob)],
    args: &Value,
    path: Option<&ResolvedPath>,
    path_field: Option<&str>,
    any_counts: bool,
) -> bool {
    let mut names_path = false;
    for (field, glob) in fields {
        match glob {
            WhenGlob::Path(forms) => {
                // The file's path under any agent's name for it: a rule written with Claude's
                // `file_path` matches pi's `path` and opencode's `filePath` (red team 51: pi's
                // edit of docs/a.md was asked under `when: { file_path: "docs/**/*.md" }`).
                let file_field = |f: &str| f == "file_path" || FILE_PATH_ALIASES.contains(&f);
                let same =
                    Some(field.as_str()) == path_field || file_field(field) && path_field.is_some_and(file_field);
                let resolved = if same { path.cloned() } else { None };
                let Some(p) = resolved else { return false };
                names_path = true;
                let ok = forms.iter().any(|(abs, m)| {
                    if *abs {
                        m.is_match(&p.abs)
                    } else {
                        p.rel.as_deref().is_some_and(|r| m.is_match(r))
                    }
                });
                if !ok {
                    return false;
                }
            }
            WhenGlob::Domain(d) => {
                // A URL whose host cannot be read matches no domain rule (so no allow rule
                // either: it is decided by the mode, which asks).
                let host = args.get(field).and_then(Value::as_str).and_then(url_host);
                if !host.is_some_and(|h| h == *d || h.ends_with(&format!(".{d}"))) {
                    return false;
                }
            }
            WhenGlob::Text(m) => {
                let Some(v) = args.get(field) else {
                    return false;
                };
                let text = match v {
                    Value::String(s) => s.clone(),
                    other => other.to_string(),
                };
                if !m.is_match(&text) {
                    return false;
                }
            }
        }
    }
    names_path || any_counts
}

/// The host of a URL, lower-cased, without userinfo, port or a trailing dot. `None` when it
/// cannot be read with certainty (no scheme, a backslash or a space in the authority, ...).
pub fn url_host(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    if scheme.is_empty() || !scheme.chars().all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c)) {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
    if authority.chars().any(|c| c == '\\' || c.is_whitespace() || c.is_control() || c == '%') {
        return None;
    }
    let host_port = authority.rsplit_once('@').map(|(_, h)| h).unwrap_or(authority);
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        format!("[{}]", v6.split_once(']')?.0)
    } else {
        match host_port.rsplit_once(':') {
            Some((h, port)) if port.chars().all(|c| c.is_ascii_digit()) => h.to_string(),
            Some(_) => return None,
            None => host_port.to_string(),
        }
    };
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    (!host.is_empty()).then_some(host)
}

/// `mcp__server` for a call of `mcp__server__tool` (`None` for other tools).
pub fn mcp_server(tool: &str) -> Option<&str> {
    let rest = tool.strip_prefix("mcp__")?;
    let (server, name) = rest.split_once("__")?;
    (!server.is_empty() && !name.is_empty()).then(|| &tool[..5 + server.len()])
}

/// Whether a command's program may match an allow rule at all: a program given by a path
/// outside the system directories is not the program the rule names.
pub fn trusted_program(words: &[Word]) -> bool {
    match words.first() {
        Some(Word::Lit(w)) => is_trusted_program_path(w),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Vec<Word> {
        s.split_whitespace().map(|w| Word::Lit(w.into())).collect()
    }

    #[test]
    fn words_by_prefix() {
        let p = WordPattern::parse("git diff *").unwrap();
        assert_eq!(p.matches(&lit("git diff")), Strength::Yes);
        assert_eq!(p.matches(&lit("git diff --stat")), Strength::Yes);
        assert_eq!(p.matches(&lit("git difftool")), Strength::No);
        assert_eq!(p.matches(&lit("/usr/bin/git diff")), Strength::Yes);
        let exact = WordPattern::parse("npm test").unwrap();
        assert_eq!(exact.matches(&lit("npm test --watch")), Strength::No);
        let mut dynw = lit("git");
        dynw.push(Word::Dyn("$X".into()));
        assert_eq!(WordPattern::parse("git reset --hard *").unwrap().matches(&dynw), Strength::Maybe);
        assert_eq!(WordPattern::parse("npm run test:*").unwrap().matches(&lit("npm run test x")), Strength::Yes);
    }

    #[test]
    fn wild_words() {
        assert!(WordGlob::new("gate-*").is_match("gate-core"));
        assert!(!WordGlob::new("gate-*").is_match("gat"));
        assert!(WordGlob::new("a?c").is_match("abc"));
        assert!(WordGlob::new("[x]*").is_match("[x]y"), "brackets are literal in words");
    }

    #[test]
    fn rejects_compound_patterns() {
        assert!(WordPattern::parse("git status && rm").is_err());
        assert!(WordPattern::parse("").is_err());
    }
}
