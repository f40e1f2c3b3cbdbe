//! Option grammars: how each program's own option parser reads its words (issue 15, class 1).
//!
//! One table per program, as data, and one parser that reads words the way GNU `getopt_long`
//! does: bundled short options where a later letter takes the rest of the bundle or the next
//! word as its value, values glued to their letter, long options abbreviated to any unambiguous
//! prefix, `--opt=value`, optional values (glued only), `--`, a lone `-`, and, for wrappers and
//! other programs whose optstring starts with `+`, options that end at the first operand.
//!
//! The parser never guesses: a word it cannot place in the program's table is an error, and
//! the caller makes the command unmodelled (asked, or denied where a deny rule could match).
//! Each option carries what it does to gate's model: a file it reads or writes, a command it
//! runs, code it loads, an action beyond reading. Pure: no I/O, no policy.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::OnceLock;

use super::git_tables::GIT_TABLE;
use super::{program_name, Word};

/// Whether and how an option takes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    /// A flag.
    No,
    /// A required value: glued (`-oF`, `--out=F`) or the next word.
    Req,
    /// An optional value: glued only (`-w80`, `--color=auto`).
    Opt,
    /// Two values, the next two words (`jq --arg NAME VALUE`).
    Two,
}

/// What an option does, as letters in its table entry after `/`:
/// `R` its value is a file the program reads, `W` a file it writes, `C` a command string it
/// runs, `X` it makes the program run or load code gate cannot see, `U` it makes the program
/// act beyond reading (not read-only, but modelled), `D` its value is the directory the
/// command runs in, `P` it gives the pattern or script (so every operand is a file), `L` the
/// program reads files gate cannot name: those listed in the option's value (`--files0-from`,
/// `file -f`), or, for a flag, those listed in its file operands (`md5sum -c`) or reached
/// through symbolic links that may leave the workspace (`grep -R`, `du -L`), `S` with `R`: the
/// value is a list of files joined by `:`, each one read (`file -m a:b`: sixth red team, where
/// gate read `x:/outside/secret` as one relative path).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Opt {
    pub name: &'static str,
    pub val: Val,
    pub eff: &'static str,
}

impl Opt {
    pub fn has(&self, effect: char) -> bool {
        self.eff.contains(effect)
    }
}

/// Which operands name files the program reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Files {
    /// None: the operands are names, sets, numbers, text or a command.
    None,
    /// Every operand.
    All,
    /// Every operand after the first (the pattern or script), unless an option gave it.
    AfterFirst,
}

pub(crate) struct Grammar {
    pub program: &'static str,
    /// Options end at the first operand (`+` in the optstring; every wrapper).
    pub posix: bool,
    /// `-NUM` is an option (`head -5`, `nice -10`).
    pub numeric: bool,
    /// `--no-NAME` is accepted as a flag that only turns something off (ripgrep).
    pub negations: bool,
    /// Long options are never abbreviated (the program's parser wants them whole).
    pub whole_longs: bool,
    /// An operand `@FILE` reads more options from FILE (binutils).
    pub at_files: bool,
    /// Not getopt: each value letter takes the next word, so a bundle with one is not read
    /// (`tree -Lo 1 .env` writes `.env`).
    pub no_bundles: bool,
    /// `+NUM` is an option (`uniq +1 IN OUT`).
    pub plus_num: bool,
    /// A first word without `-` is a bundle of option letters whose values are the next words,
    /// in the letters' order (`tar tzf a.tgz`, `tar xfC a.tar dir`).
    pub old_style: bool,
    pub files: Files,
    pub opts: Vec<Opt>,
    /// Some option writes a file (worked out once, so that programs without one skip a parse).
    pub writes: bool,
}

impl Grammar {
    /// Whether any option writes, runs or acts: a word only known at run time in an option
    /// position could then be one of them. (Options that only read a file are left out: a
    /// run-time word there is at worst a read, and every run-time operand of a reading
    /// program is already decided as a read of an unknown path.)
    fn has_risky(&self) -> bool {
        self.opts.iter().any(|o| o.eff.chars().any(|c| !only_reads(c)))
    }

    fn find_short(&self, c: char) -> Option<&Opt> {
        self.opts
            .iter()
            .find(|o| o.name.len() == c.len_utf8() + 1 && o.name[1..].starts_with(c) && !o.name.starts_with("--"))
    }

    /// The long option `name` (without `--`) names: exact, else the one option it is an
    /// unambiguous prefix of.
    fn find_long(&self, name: &str) -> Result<&Opt, String> {
        let longs = || self.opts.iter().filter(|o| o.name.starts_with("--"));
        if let Some(o) = longs().find(|o| &o.name[2..] == name) {
            return Ok(o);
        }
        let program = self.program;
        if self.whole_longs {
            return Err(format!("{program}: option --{name} not in its table"));
        }
        let matches: Vec<&Opt> = longs().filter(|o| o.name[2..].starts_with(name)).collect();
        match matches.as_slice() {
            [] => Err(format!("{program}: option --{name} not in its table")),
            [one] => Ok(one),
            [first, rest @ ..] if rest.iter().all(|o| o.val == first.val && o.eff == first.eff) => Ok(first),
            many => Err(format!(
                "{program}: option --{name} is ambiguous ({})",
                many.iter().map(|o| o.name).collect::<Vec<_>>().join(", ")
            )),
        }
    }
}

/// One option as the program will read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    pub opt: Opt,
    /// The word as written (`-mo.env`, `--out=x`).
    pub given: String,
    pub value: Option<Word>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Parsed {
    pub opts: Vec<Found>,
    pub operands: Vec<Word>,
    /// For a program whose options end at the first operand: the index (in the words after
    /// the program name) where the operands start.
    pub end: usize,
}

impl Parsed {
    pub fn with(&self, effect: char) -> impl Iterator<Item = &Found> {
        self.opts.iter().filter(move |f| f.opt.has(effect))
    }

    /// The files the program reads: option values marked `R`, the file operands, and for an
    /// option marked `L` a path only known at run time (the files it names or reaches).
    pub fn reads(&self, g: &Grammar) -> Vec<Word> {
        let mut out: Vec<Word> = Vec::new();
        for f in self.with('R') {
            match &f.value {
                // A list: each piece is a file. (A run-time value stays whole: a read of a
                // path gate cannot name.)
                Some(Word::Lit(v)) if f.opt.has('S') => {
                    out.extend(v.split(':').filter(|p| !p.is_empty()).map(|p| Word::Lit(p.to_string())))
                }
                Some(v) => out.push(v.clone()),
                None => {}
            }
        }
        for f in self.with('L').filter(|f| self.lists_files(g, f) && !walks_links(g, f)) {
            out.push(Word::Dyn(match &f.value {
                Some(Word::Lit(v)) if v == "-" => "(the files named on standard input)".to_string(),
                Some(v) => format!("(the files named in {})", v.display()),
                None => format!("(the files `{}` makes {} read)", f.opt.name, g.program),
            }));
        }
        let skip = match g.files {
            Files::None => return out,
            Files::All => 0,
            Files::AfterFirst => usize::from(self.with('P').next().is_none()),
        };
        // A pattern only known at run time that splitting or globbing can make several words
        // (`grep $x` with x='-h . /etc/passwd') may hold files too.
        out.extend(self.operands.iter().take(skip).filter(|w| could_be_several(w)).cloned());
        out.extend(self.operands.iter().skip(skip).cloned());
        out
    }

    /// The directories below which the program follows the symbolic links it meets (`grep -R
    /// x src`, `rg -L x`, `du -L`, `ls -RL`, `diff -r a b`, `tree -l`): its file operands, or
    /// `.` when it walks the working directory without any. The edge lists what is below them
    /// ([`crate::policy::Edge::links_below`]); their reads are not run-time paths here.
    pub fn walks_below(&self, g: &Grammar) -> Vec<Word> {
        // diff compares the files of two directories, following links, with or without `-r`.
        let diff = g.program == "diff" && !self.opts.iter().any(|o| o.opt.name == "--no-dereference");
        if !diff && !self.with('L').any(|f| self.lists_files(g, f) && walks_links(g, f)) {
            return Vec::new();
        }
        let skip = match g.files {
            Files::None => return Vec::new(),
            Files::All => 0,
            Files::AfterFirst => usize::from(self.with('P').next().is_none()),
        };
        let mut roots: Vec<Word> = self.operands.iter().skip(skip).cloned().collect();
        if diff {
            // `--from-file=DIR`, `--to-file=DIR` are compared like operands.
            let sides = self.opts.iter().filter(|o| matches!(o.opt.name, "--from-file" | "--to-file"));
            roots.extend(sides.filter_map(|o| o.value.clone()));
        }
        if roots.is_empty() && g.program != "diff" {
            return vec![Word::Lit(".".into())];
        }
        roots
    }
}

impl Parsed {
    /// For a recursive grep or diff, the directories whose files it reads ([`super::tables::reads_below`]):
    /// its file operands (`.` for grep without any), with grep's name filters.
    pub fn reads_below(&self, g: &Grammar) -> Vec<super::tables::Below> {
        let given = |names: &[&str]| self.opts.iter().any(|o| names.contains(&o.opt.name));
        let values = |names: &[&str]| {
            self.opts
                .iter()
                .filter(|o| names.contains(&o.opt.name))
                .filter_map(|o| o.value.as_ref().and_then(Word::lit).map(str::to_string))
                .collect::<Vec<String>>()
        };
        let grep = matches!(g.program, "grep" | "egrep" | "fgrep");
        // `-d ACTION` takes any unambiguous prefix of `recurse`; one only known at run time may be it.
        let recurse_action = self.opts.iter().any(|o| {
            matches!(o.opt.name, "-d" | "--directories")
                && o.value.as_ref().is_some_and(|w| w.lit().is_none_or(|v| v.len() >= 3 && "recurse".starts_with(v)))
        });
        let recursive = match g.program {
            _ if grep => given(&["-r", "--recursive", "-R", "--dereference-recursive"]) || recurse_action,
            "diff" => given(&["-r", "--recursive"]),
            // (tar's archive of directories holds all below: red team 84's `tar -cf - src`.)
            "tar" => given(&["-c", "--create"]) && !given(&["--no-recursion"]),
            _ => false,
        };
        if !recursive {
            return Vec::new();
        }
        let links = match g.program {
            _ if grep => given(&["-R", "--dereference-recursive"]),
            "tar" => given(&["-h", "--dereference"]),
            _ => !given(&["--no-dereference"]),
        };
        let skip = match g.files {
            Files::None => return Vec::new(),
            Files::All => 0,
            Files::AfterFirst => usize::from(self.with('P').next().is_none()),
        };
        let mut roots: Vec<Word> = self.operands.iter().skip(skip).cloned().collect();
        if roots.is_empty() && grep {
            roots.push(Word::Lit(".".into()));
        }
        let (any_names, skip_names, skip_dirs) = if grep {
            (values(&["--include"]), values(&["--exclude"]), values(&["--exclude-dir"]))
        } else {
            Default::default()
        };
        roots
            .into_iter()
            .map(|dir| super::tables::Below {
                any_names: any_names.clone(),
                skip_names: skip_names.clone(),
                skip_dirs: skip_dirs.clone(),
                links,
                ..super::tables::Below::at(dir)
            })
            .collect()
    }
}

/// Whether an `L` option is a flag that makes the program walk directories following the
/// links in them (rather than name its files in a list): those reads are decided where the
/// links lead, by the edge.
fn walks_links(g: &Grammar, f: &Found) -> bool {
    f.value.is_none()
        && matches!(
            g.program,
            "ls" | "dir" | "vdir" | "grep" | "egrep" | "fgrep" | "rg" | "du" | "diff" | "tree" | "zcat" | "tar"
        )
}

impl Parsed {
    /// Whether an option marked `L` really makes the program read files gate cannot name:
    /// ls follows links only while it recurses (`-L` with `-R`); diff's recursion follows
    /// them unless told not to.
    fn lists_files(&self, g: &Grammar, f: &Found) -> bool {
        let given = |names: &[&str]| self.opts.iter().any(|o| names.contains(&o.opt.name));
        match g.program {
            "ls" | "dir" | "vdir" => given(&["-R", "--recursive"]),
            "diff" => !given(&["--no-dereference"]),
            // `-A ACTION`: the actions that list files, users, hosts, services or the PATH's
            // programs (red team 47: `-c` and `-s` were allowed); the others list shell state.
            "complete" | "compgen" if f.opt.name == "-A" => !matches!(
                f.value.as_ref().and_then(Word::lit),
                Some(
                    "alias"
                        | "arrayvar"
                        | "binding"
                        | "builtin"
                        | "disabled"
                        | "enabled"
                        | "export"
                        | "function"
                        | "helptopic"
                        | "job"
                        | "keyword"
                        | "running"
                        | "setopt"
                        | "shopt"
                        | "signal"
                        | "stopped"
                        | "variable"
                )
            ),
            _ => f.opt.has('L'),
        }
    }
}

/// Effects that only add files the program reads: a run-time word in an option's place is at
/// worst one of those reads, which are decided as reads of unknown paths anyway.
pub(crate) fn only_reads(effect: char) -> bool {
    matches!(effect, 'P' | 'R' | 'L' | 'S')
}

/// Whether a word only known at run time can become several words (unquoted: splitting and
/// globbing apply; not to a number parameter such as `$!` or `$#`).
pub(crate) fn could_be_several(w: &Word) -> bool {
    match w {
        Word::Lit(_) => false,
        // (A process substitution is one name under `/dev/fd`.)
        Word::Dyn(raw) => raw != PROCESS_SUBSTITUTION && !super::tables::number_parameter(raw) && may_split(raw),
    }
}

/// The word a process substitution (`<(...)`, `>(...)`) stands for.
pub(crate) const PROCESS_SUBSTITUTION: &str = "<(...)";

/// Whether bash may make a run-time word into no word or several: an expansion, a glob or a
/// substitution outside double quotes (split, globbed; empty and unquoted is no word at all,
/// a glob under `nullglob` with no match too), or `"$@"`, `"${a[@]}"`, `"${!p@}"` inside them
/// (eleventh red team: `env -u $x echo rm y` with `x` empty is `env -u echo rm y`, which runs
/// `rm y`). `$((...))` alone is one number.
pub(crate) fn may_split(raw: &str) -> bool {
    if raw.starts_with("$((") && raw.ends_with("))") && !raw[3..raw.len() - 2].contains("))") {
        return false;
    }
    let b = raw.as_bytes();
    let (mut dq, mut i) = (false, 0);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'\'' if !dq => match raw[i + 1..].find('\'') {
                Some(e) => i += e + 1,
                None => return true,
            },
            b'"' => dq = !dq,
            b'$' | b'`' | b'*' | b'?' | b'[' if !dq => return true,
            b'$' if dq => {
                let rest = &raw[i + 1..];
                let name_end = rest.find(['}', '"']).unwrap_or(rest.len());
                let inner = &rest[..name_end];
                let array = rest.starts_with('@')
                    || inner.starts_with("{@")
                    || inner.contains("[@]")
                    || inner.starts_with("{!") && inner.ends_with('@');
                // `"${#a[@]}"` is a count: one word.
                if array && !inner.starts_with("{#") {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

/// Whether a word only known at run time could start with `-`.
pub(crate) fn could_be_option(raw: &str) -> bool {
    // find's `{}` is a path below a start point, and no start point starts with `-`.
    if raw == "{}" {
        return false;
    }
    // A process substitution is a name under `/dev/fd` (red team 67: `sort -u <(grep ...)`).
    if raw == PROCESS_SUBSTITUTION {
        return false;
    }
    let t = raw.trim_start_matches(['"', '\'']);
    !t.starts_with(|c: char| c.is_ascii_alphanumeric() || "/._~+=,:@%".contains(c))
}

/// Read `args` (the words after the program name) with `g`.
/// `git config`'s words (those after `config`) as git reads them: its options end at the
/// first operand (red team 59: `git config -f .env a.b --get` stores `--get` in `.env`), and a
/// subcommand in first place (`get`, `set`, ...) reads its own options up to its first operand.
/// The subcommand, if any, is the first operand.
pub(crate) fn git_config(args: &[Word]) -> Option<Result<Parsed, String>> {
    const SUBCOMMANDS: &[&str] =
        &["list", "get", "set", "unset", "rename-section", "remove-section", "edit", "get-color", "get-colorbool"];
    let g = grammar("git-config")?;
    Some(match args.split_first() {
        Some((Word::Lit(sub), rest)) if SUBCOMMANDS.contains(&sub.as_str()) => parse(g, rest).map(|mut p| {
            p.operands.insert(0, Word::Lit(sub.clone()));
            p.end += 1;
            p
        }),
        _ => parse(g, args),
    })
}

pub(crate) fn parse(g: &Grammar, args: &[Word]) -> Result<Parsed, String> {
    if g.old_style {
        if let Some(Word::Lit(first)) = args.first() {
            if !first.is_empty() && !first.starts_with('-') {
                return parse_words(g, &old_style(g, first, &args[1..])?);
            }
        }
    }
    parse_words(g, args)
}

/// The old-style bundle `tzf a.tgz` as the words getopt would see: `-t -z -f a.tgz`, each
/// letter that takes a value followed by the next unused word.
fn old_style(g: &Grammar, letters: &str, rest: &[Word]) -> Result<Vec<Word>, String> {
    let mut out = Vec::with_capacity(rest.len() + letters.len());
    let mut values = rest.iter();
    for c in letters.chars() {
        let opt = g.find_short(c).ok_or_else(|| format!("{}: option {c} not in its table", g.program))?;
        out.push(Word::Lit(format!("-{c}")));
        match opt.val {
            Val::No => {}
            Val::Req => out
                .push(values.next().cloned().ok_or_else(|| format!("{}: option {c} is missing its value", g.program))?),
            Val::Opt | Val::Two => return Err(format!("{}: option {c} cannot be read in a bundle", g.program)),
        }
    }
    out.extend(values.cloned());
    Ok(out)
}

fn parse_words(g: &Grammar, args: &[Word]) -> Result<Parsed, String> {
    let program = g.program;
    // binutils expand `@FILE` in every word, option values and words after `--` too.
    if g.at_files {
        let at = |w: &Word| match w {
            Word::Lit(s) => s.starts_with('@'),
            Word::Dyn(d) => !d
                .trim_start_matches(['"', '\''])
                .starts_with(|c: char| c.is_ascii_alphanumeric() || "/._~-+=,:%".contains(c)),
        };
        if let Some(w) = args.iter().find(|w| at(w)) {
            return Err(format!("{program}: `{}` may read more options from a file gate cannot see", w.display()));
        }
    }
    let mut p = Parsed { end: args.len(), ..Parsed::default() };
    let mut only_operands = false;
    let mut i = 0;
    let value_at = |j: usize, of: &str| -> Result<Word, String> {
        match args.get(j) {
            None => Err(format!("{program}: option {of} is missing its value")),
            // A value that may be no word or several moves the words after it.
            Some(w) if could_be_several(w) => Err(format!(
                "{program}: the value of {of}, `{}`, may expand to no word or several, moving the words after it",
                w.display()
            )),
            Some(w) => Ok(w.clone()),
        }
    };
    while i < args.len() {
        let w = &args[i];
        let operand = |p: &mut Parsed, w: &Word| -> bool {
            p.operands.push(w.clone());
            g.posix
        };
        if only_operands {
            p.operands.push(w.clone());
            i += 1;
            continue;
        }
        let s = match w {
            // A literal option with a run-time value (`--file=$HOME/x`, `-f$X`): the option
            // is known, its value is that run-time word.
            Word::Dyn(raw) if raw.starts_with('-') && !only_operands => {
                p.opts.push(dyn_option(g, raw)?);
                i += 1;
                continue;
            }
            Word::Dyn(raw) => {
                // In a pattern's place (grep's first operand, no `-e`/`-f` before), an option
                // that reads a file (`p=--file=/root/.ssh/id_rsa; grep "$p" src`: red team
                // 40) is a read gate would not decide: the pattern is no path.
                let pattern_slot = g.files == Files::AfterFirst
                    && p.operands.is_empty()
                    && p.with('P').next().is_none()
                    && g.opts.iter().any(|o| o.has('R'));
                // (A glob that starts the word, `file *`: the names it matches that start
                // with `-` are found by the edge, which asks where there is one: red team 63.)
                // (And one name of such a glob, quoted: a loop's `"$f"` of `for f in *.rs`, red
                // team 75: `for f in *.md; do sed -i ... "$f"; done` was asked.)
                let glob = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(raw);
                let edge_glob = glob.starts_with(['*', '?', '['])
                    && !glob.contains(['$', '`', '"', '\'', '\\', '{', '(', '<', '>', '|', ';', '&'])
                    && !glob.contains(char::is_whitespace);
                if could_be_option(raw) && ((g.has_risky() && !edge_glob) || pattern_slot) {
                    return Err(format!("{program}: `{raw}` is only known at run time and could be an option"));
                }
                if operand(&mut p, w) {
                    p.end = i;
                    p.operands.extend(args[i + 1..].iter().cloned());
                    return Ok(p);
                }
                i += 1;
                continue;
            }
            Word::Lit(s) => s.as_str(),
        };
        if s == "--" {
            only_operands = true;
            i += 1;
            if g.posix {
                p.end = i;
                p.operands.extend(args[i..].iter().cloned());
                return Ok(p);
            }
            continue;
        }
        if g.plus_num && s.len() > 1 && s.starts_with('+') && s[1..].chars().all(|c| c.is_ascii_digit()) {
            p.opts.push(Found { opt: Opt { name: "+NUM", val: Val::No, eff: "" }, given: s.into(), value: None });
            i += 1;
            continue;
        }
        if s == "-" || !s.starts_with('-') {
            if g.at_files && s.starts_with('@') {
                return Err(format!("{program}: `{s}` reads more options from a file gate cannot see"));
            }
            if operand(&mut p, w) {
                p.end = i;
                p.operands.extend(args[i + 1..].iter().cloned());
                return Ok(p);
            }
            i += 1;
            continue;
        }
        // (GNU nice reads its first word `--5` or `-+5` as an adjustment too: red team 63.)
        let nice_number = program == "nice"
            && i == 0
            && ["--", "-+"]
                .iter()
                .any(|p| s.strip_prefix(p).is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit())));
        if nice_number || g.numeric && s[1..].chars().all(|c| c.is_ascii_digit()) {
            p.opts.push(Found { opt: Opt { name: "-NUM", val: Val::No, eff: "" }, given: s.into(), value: None });
            i += 1;
            continue;
        }
        if let Some(long) = s.strip_prefix("--") {
            let (name, glued) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let opt = match g.find_long(name) {
                Ok(o) => *o,
                Err(_) if g.negations && name.starts_with("no-") && glued.is_none() => {
                    Opt { name: "--no-*", val: Val::No, eff: "" }
                }
                Err(e) => return Err(e),
            };
            let value = match (opt.val, glued) {
                (Val::No, Some(_)) => return Err(format!("{program}: option {} takes no value", opt.name)),
                (Val::No, None) | (Val::Opt, None) => None,
                (Val::Req | Val::Opt, Some(v)) => Some(Word::Lit(v.into())),
                (Val::Req, None) => {
                    i += 1;
                    Some(value_at(i, opt.name)?)
                }
                (Val::Two, _) => {
                    // `--arg NAME VALUE`: the value that matters is the second.
                    i += 2;
                    Some(value_at(i, opt.name)?)
                }
            };
            p.opts.push(Found { opt, given: s.into(), value });
            i += 1;
            continue;
        }
        // A bundle of short options.
        let letters = &s[1..];
        if g.no_bundles {
            // Not getopt (tree): each letter that takes a value takes the next word, in the
            // letters' order (`tree -Lo 1 .env` writes `.env`, red team 40); none is glued.
            let mut taken = 0;
            for c in letters.chars() {
                let Some(opt) = g.find_short(c).copied() else {
                    return Err(format!("{program}: option -{c} not in its table"));
                };
                let value = match opt.val {
                    Val::No => None,
                    Val::Req => {
                        taken += 1;
                        Some(value_at(i + taken, opt.name)?)
                    }
                    Val::Opt | Val::Two => {
                        return Err(format!("{program}: `{s}` holds an option {program} reads its own way"));
                    }
                };
                p.opts.push(Found { opt, given: s.into(), value });
            }
            i += taken + 1;
            continue;
        }
        for (k, c) in letters.char_indices() {
            let Some(opt) = g.find_short(c).copied() else {
                return Err(format!("{program}: option -{c} not in its table"));
            };
            let rest = &letters[k + c.len_utf8()..];
            match opt.val {
                Val::No => p.opts.push(Found { opt, given: s.into(), value: None }),
                Val::Opt => {
                    let value = (!rest.is_empty()).then(|| Word::Lit(rest.into()));
                    p.opts.push(Found { opt, given: s.into(), value });
                    break;
                }
                Val::Req => {
                    let value = if rest.is_empty() {
                        i += 1;
                        value_at(i, opt.name)?
                    } else {
                        Word::Lit(rest.into())
                    };
                    p.opts.push(Found { opt, given: s.into(), value: Some(value) });
                    break;
                }
                Val::Two => {
                    i += 2;
                    let value = value_at(i, opt.name)?;
                    p.opts.push(Found { opt, given: s.into(), value: Some(value) });
                    break;
                }
            }
        }
        i += 1;
    }
    Ok(p)
}

/// An option written literally whose value is only known at run time: `--name=VALUE` or
/// `-xVALUE` with the letter's option taking a value. Anything else that starts with `-` and
/// holds a run-time part cannot be placed.
fn dyn_option(g: &Grammar, raw: &str) -> Result<Found, String> {
    let program = g.program;
    let unplaced =
        || format!("{program}: `{raw}` is an option gate cannot place (part of it is only known at run time)");
    let literal = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
    // `--include=*.rs` unquoted: bash globs it into the names in the current directory that
    // start with `--include=` (the glob has no `/`), each the same option with another value,
    // or leaves it as it is (or drops it, under nullglob). For an option whose value only
    // filters (no file, no code), any number of them reads nothing more (red team 42).
    if let Some((name, value)) = raw.strip_prefix("--").and_then(|l| l.split_once('=')) {
        let only_glob = !raw.contains(['$', '`', '/', '\\', '\'', '"', '{', '(', '~']);
        if literal(name) && only_glob {
            if let Ok(opt) = g.find_long(name) {
                if opt.eff.is_empty() && opt.val != Val::No {
                    return Ok(Found {
                        opt: *opt,
                        given: format!("--{name}"),
                        value: Some(Word::Dyn(value.to_string())),
                    });
                }
            }
        }
    }
    // `-n$x` with `x='5 /etc/passwd'` is `-n5` and a file.
    if may_split(raw) {
        return Err(format!("{program}: `{raw}` may split into several words, only known at run time"));
    }
    if let Some(long) = raw.strip_prefix("--") {
        let (name, value) = long.split_once('=').ok_or_else(unplaced)?;
        if !literal(name) {
            return Err(unplaced());
        }
        let opt = *g.find_long(name)?;
        if opt.val == Val::No {
            return Err(format!("{program}: option {} takes no value", opt.name));
        }
        return Ok(Found { opt, given: format!("--{name}"), value: Some(Word::Dyn(value.to_string())) });
    }
    let mut chars = raw[1..].chars();
    let c = chars.next().filter(|c| c.is_ascii_alphanumeric()).ok_or_else(unplaced)?;
    let opt = *g.find_short(c).ok_or_else(|| format!("{program}: option -{c} not in its table"))?;
    if matches!(opt.val, Val::Req | Val::Opt) {
        let value = chars.as_str().to_string();
        return Ok(Found { opt, given: format!("-{c}"), value: Some(Word::Dyn(value)) });
    }
    Err(unplaced())
}

/// The table of `program`, if gate has one.
///
/// Each table is compiled the first time its program is looked up: a one-shot process
/// (`gate check`, `gate hook`) pays for the programs of its one call, not for all of them.
pub(crate) fn grammar(program: &str) -> Option<&'static Grammar> {
    type Lazy = (&'static str, &'static str, &'static str, OnceLock<Grammar>);
    static TABLES: OnceLock<HashMap<&'static str, Lazy, BuildHasherDefault<Fnv>>> = OnceLock::new();
    let (name, head, spec, g) = TABLES
        .get_or_init(|| {
            let mut m = HashMap::default();
            for (names, head, spec) in TABLE.iter().chain(GIT_TABLE) {
                for name in names.split('|') {
                    m.insert(name, (name, *head, *spec, OnceLock::new()));
                }
            }
            m
        })
        .get(program)?;
    Some(g.get_or_init(|| compile(name, head, spec)))
}

/// FNV-1a, for the table's index: its keys are a fixed set of short program names, looked up
/// several times per command (the walker, the writes, the read-only check), where SipHash's
/// cost buys nothing (no key is ever inserted from input, so no input can make chains long).
pub(crate) struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// The programs with a complete table, for documentation and tests.
pub fn tabled_programs() -> Vec<&'static str> {
    let mut v: Vec<&'static str> = TABLE.iter().chain(GIT_TABLE).flat_map(|(n, _, _)| n.split('|')).collect();
    v.sort_unstable();
    v
}

/// Build a grammar from its table text. Entry syntax: `-x` flag, `-x:` required value, `-x::`
/// optional glued value, `-x:2` two values; `--long`, `--long=`, `--long=?`, `--long=2`; then
/// `/LETTERS` for what it does. A malformed entry is compiled as an option that runs code, so
/// a typo can only make gate stricter (and a unit test reads every entry).
fn compile(program: &'static str, head: &'static str, spec: &'static str) -> Grammar {
    let mut g = Grammar {
        program,
        posix: false,
        numeric: false,
        negations: false,
        whole_longs: false,
        at_files: false,
        no_bundles: false,
        plus_num: false,
        old_style: false,
        files: Files::None,
        opts: Vec::new(),
        writes: false,
    };
    for h in head.split_whitespace() {
        match h {
            "posix" => g.posix = true,
            "num" => g.numeric = true,
            "neg" => g.negations = true,
            "whole" => g.whole_longs = true,
            "at" => g.at_files = true,
            "nobundle" => g.no_bundles = true,
            "plus" => g.plus_num = true,
            "old" => g.old_style = true,
            "files" => g.files = Files::All,
            "after1" => g.files = Files::AfterFirst,
            _ => {}
        }
    }
    for tok in spec.split_whitespace() {
        g.opts.push(entry(tok));
    }
    g.writes = g.opts.iter().any(|o| o.has('W'));
    g
}

fn entry(tok: &'static str) -> Opt {
    let (body, eff) = match tok.split_once('/') {
        Some((b, e)) if b.len() > 1 => (b, e),
        _ => (tok, ""),
    };
    let bad = Opt { name: body, val: Val::Req, eff: "X" };
    if let Some(long) = body.strip_prefix("--") {
        let (name, val) = match long.split_once('=') {
            None => (long, Val::No),
            Some((n, "")) => (n, Val::Req),
            Some((n, "?")) => (n, Val::Opt),
            Some((n, "2")) => (n, Val::Two),
            Some(_) => return bad,
        };
        let name = &body[..2 + name.len()];
        return Opt { name, val, eff };
    }
    let Some(rest) = body.strip_prefix('-') else { return bad };
    let mut chars = rest.chars();
    let Some(c) = chars.next() else { return bad };
    let name = &body[..1 + c.len_utf8()];
    let val = match chars.as_str() {
        "" => Val::No,
        ":" => Val::Req,
        "::" => Val::Opt,
        ":2" => Val::Two,
        _ => return bad,
    };
    Opt { name, val, eff }
}

/// Why a tabled program's words are not fully modelled, or what in them runs code gate
/// cannot see. `None` for a program without a table, or one whose words are all placed.
pub(crate) fn unmodelled(words: &[Word]) -> Option<String> {
    let name = words.first().and_then(Word::lit).map(program_name)?;
    if name == "git" {
        return git_unmodelled(words);
    }
    let g = grammar(name)?;
    match parse(g, &words[1..]) {
        Err(e) => Some(e),
        Ok(p) => p
            .with('X')
            .next()
            .map(|f| format!("`{}` ({}) makes {name} run a program gate cannot see", f.given, f.opt.name))
            .or_else(|| (name == "jq").then(|| jq_modules(&p)).flatten()),
    }
}

/// For git, the table of its subcommand (`git-log`), read from the words after it: a word
/// gate cannot place there (`git log --frobnicate`, a newer git's option) makes the part
/// unmodelled. git's global options before the subcommand are decided where git is modelled.
fn git_unmodelled(words: &[Word]) -> Option<String> {
    let at = 1 + super::tables::git_subcommand_at(&words[1..]);
    let sub = words.get(at).and_then(Word::lit)?;
    let g = grammar(&format!("git-{sub}"))?;
    match parse(g, &words[at + 1..]) {
        Err(e) => Some(e),
        Ok(p) => p
            .with('X')
            .next()
            .map(|f| format!("`{}` ({}) makes git {sub} run a program gate cannot see", f.given, f.opt.name)),
    }
}

/// jq loads modules its program names (`import "p" as $x;` reads `p.json`, `include "p";`
/// runs `p.jq`), from absolute paths, paths relative to its `-L` directories, or a `search`
/// key with `~` expanded: files gate does not model. Why the program is not modelled, if it
/// may load one (a program from a file or only known at run time may).
fn jq_modules(p: &Parsed) -> Option<String> {
    if let Some(f) = p.with('P').next() {
        let file = f.value.as_ref().map(Word::display).unwrap_or_default();
        return Some(format!("jq: the program in {file} may load modules (`import`, `include`) gate does not see"));
    }
    match p.operands.first() {
        Some(Word::Lit(text)) if jq_has_directive(text) => {
            Some("jq: the program loads modules (`import`, `include`), files gate does not model".into())
        }
        Some(Word::Dyn(d)) => Some(format!("jq: the program `{d}` is only known at run time")),
        _ => None,
    }
}

/// Whether jq program text holds the word `import` or `include` (outside a field name such
/// as `.import`): a module directive, or text gate does not try to tell from one.
fn jq_has_directive(text: &str) -> bool {
    // (`modulemeta` reads a module's file from the search path too: red team 41.)
    ["import", "include", "modulemeta", "get_search_list"].iter().any(|kw| {
        text.match_indices(kw).any(|(i, _)| {
            let before = text[..i].chars().next_back();
            let after = text[i + kw.len()..].chars().next();
            let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
            !before.is_some_and(|c| ident(c) || c == '.' || c == '$') && !after.is_some_and(ident)
        })
    })
}

/// `(program names, flags, options)`: one table per program, read from its `--help` and
/// source. Flags: `posix` options end at the first operand; `num` `-NUM` is an option; `neg`
/// `--no-NAME` flags; `whole` long options are never abbreviated; `at` `@FILE` operands;
/// `files` every operand is a file it reads; `after1` every operand after the first; `old` a
/// first word without `-` is a bundle of letters.
#[rustfmt::skip]
static TABLE: &[(&str, &str, &str)] = &[
    // ---- wrappers (options end at the command) ----
    ("env", "posix",
     "-i --ignore-environment -0 --null -u: --unset= -C:/D --chdir=/D -S:/C --split-string=/C --block-signal=? \
      --default-signal=? --ignore-signal=? --list-signal-handling -v --debug --help --version"),
    // `-a NAME`: programs that act on the name they are started as (`git-clean`, `pkill` as
    // `pgrep`); `-c`: an empty environment, so a shell looks up commands in `.` (ninth red team).
    ("exec", "posix", "-c/X -l -a:/X"),
    ("command", "posix", "-p -v -V"),
    ("builtin", "posix", ""),
    ("nohup", "posix", "--help --version"),
    ("nice", "posix num", "-n: --adjustment= --help --version"),
    ("timeout", "posix",
     "--preserve-status --foreground -k: --kill-after= -s: --signal= -v --verbose --help --version"),
    ("stdbuf", "posix", "-i: --input= -o: --output= -e: --error= --help --version"),
    ("setsid", "posix", "-c --ctty -f --fork -w --wait -h --help -V --version"),
    ("flock", "posix",
     "-s --shared -x -e --exclusive -u --unlock -n --nb --nonblock -w: --timeout= --wait= -E: --conflict-exit-code= \
      -o --close -c:/C --command=/C -F --no-fork --verbose -h --help -V --version"),
    ("chroot", "posix", "--groups= --userspec= --skip-chdir --help --version"),
    ("time", "posix", "-a --append -o:/W --output=/W -f: --format= -p --portability -q --quiet -v --verbose -V --version --help"),
    ("xargs", "posix",
     "-0 --null -a:/R --arg-file=/R -d: --delimiter= -E: -e:: --eof=? -I: -i:: --replace=? -L: --max-lines=? -l:: \
      -n: --max-args= -o --open-tty -P: --max-procs= -p --interactive --process-slot-var=/X -r --no-run-if-empty \
      -s: --max-chars= --show-limits -t --verbose -x --exit --help --version"),
    // util-linux su: the user, then words for the user's shell (`-c` among them runs text).
    ("su", "",
     "-c:/C --command=/C --session-command=/C -f --fast -g: --group= -G: --supp-group= -l --login -m -p \
      --preserve-environment -P --pty -s:/X --shell=/X -w: --whitelist-environment= -h --help -V --version"),
    // script permutes: options after the log file count (`script /dev/null -qc CMD`).
    ("script", "",
     "-I:/W --log-in=/W -O:/W --log-out=/W -B:/W --log-io=/W -T:/W --log-timing=/W -t::/W --timing=?/W \
      -m: --logging-format= -a --append -c:/C --command=/C -e --return -f --flush --force -E: --echo= \
      -o: --output-limit= -q --quiet -h --help -V --version"),
    ("watch", "posix",
     "-b --beep -c --color -C --no-color -d:: --differences=? -e --errexit -g --chgexit -q: --equexit= -n: --interval= \
      -p --precise -t --no-title -w --no-wrap -x --exec -r --no-rerun -h --help -v --version"),
    ("sudo", "posix",
     "-A --askpass -a: --auth-type= -B --bell -b --background -C: --close-from= -c: --login-class= -D:/D --chdir=/D \
      -E --preserve-env=? -e/U --edit/U -g: --group= -H --set-home -h:: --host= --help -i --login -K --remove-timestamp \
      -k --reset-timestamp -l --list -N --no-update -n --non-interactive -P --preserve-groups -p: --prompt= \
      -R:/D --chroot=/D -r: --role= -S --stdin -s --shell -T: --command-timeout= -t: --type= -U: --other-user= \
      -u: --user= -V --version -v --validate"),
    ("doas", "posix", "-C:/R -L -n -s -u:"),
    ("taskset", "posix", "-a --all-tasks -p/X --pid/X -c --cpu-list -h --help -V --version"),
    ("ionice", "posix",
     "-c: --class= -n: --classdata= -p:/X --pid=/X -P:/X --pgid=/X -u:/X --uid=/X -t --ignore -h --help -V --version"),
    ("unbuffer", "posix", "-p"),
    ("chronic", "posix", "-e -v"),
    ("caffeinate", "posix", "-d -i -m -s -u -t: -w:/X"),
    // ---- builtins that store code to run later ----
    ("trap", "posix", "-l -p -P"),
    // git's own `config` (`git config ...` is read with this table, so a value's option does
    // not shift KEY and VALUE: `git config -f .git/config alias.x '!rm x'`).
    ("git-config", "posix neg",
     "--global --system --local --worktree -f:/R --file=/R --blob= --get --get-all --get-regexp --get-urlmatch \
      --replace-all/U --add/U --unset/U --unset-all/U --rename-section/U --remove-section/U -l --list -e/X --edit/X \
      --get-color --get-colorbool -z --null --name-only --show-origin --show-scope --show-names -t: --type= --bool \
      --int --bool-or-int --bool-or-str --path --expiry-date --default= --comment= --fixed-value --includes --all \
      --regexp --value= --url="),
    // `-x KEYSEQ:COMMAND` binds a key to a shell command (run when the key is typed).
    ("bind", "posix", "-m: -l -p -P -s -S -v -V -X -q: -u: -r: -f:/R -x:/C"),
    ("complete|compgen", "posix",
     "-a -b -c/L -d/L -e -f/L -g/L -j -k -s/L -u/L -v -D -E -I -p -r -o:/L -A:/L -G:/R -W: -F:/X -C:/C -X: -P: -S: -V:"),
    // ---- the safe list ----
    ("ls|dir|vdir", "files",
     "-a --all -A --almost-all --author -b --escape --block-size= -B --ignore-backups -c -C --color=? -d --directory \
      -D --dired -f -F --classify=? --file-type --format= --full-time -g --group-directories-first -G --no-group \
      -h --human-readable --si -H --dereference-command-line --dereference-command-line-symlink-to-dir --hide= \
      --hyperlink=? --indicator-style= -i --inode -I: --ignore= -k --kibibytes -l -L/L --dereference/L -m -n \
      --numeric-uid-gid -N --literal -o -p -q --hide-control-chars --show-control-chars -Q --quote-name \
      --quoting-style= -r --reverse -R --recursive -s --size -S --sort= --time= --time-style= -t -T: --tabsize= \
      -u -U -v -w: --width= -x -X -Z --context --zero -1 --help --version"),
    ("cat", "files",
     "-A --show-all -b --number-nonblank -e -E --show-ends -n --number -s --squeeze-blank -t -T --show-tabs -u -v \
      --show-nonprinting --help --version"),
    ("head", "files num",
     "-c: --bytes= -n: --lines= -q --quiet --silent -v --verbose -z --zero-terminated --help --version"),
    ("tail", "files num",
     "-c: --bytes= -f --follow=? -F -n: --lines= --max-unchanged-stats= --pid= -q --quiet --silent --retry -s: \
      --sleep-interval= -v --verbose -z --zero-terminated --help --version"),
    ("wc", "files",
     "-c --bytes -m --chars -l --lines --files0-from=/RL -L --max-line-length -w --words --total= --help --version"),
    ("grep|egrep|fgrep", "after1 num",
     "-E --extended-regexp -F --fixed-strings -G --basic-regexp -P --perl-regexp -e:/P --regexp=/P -f:/RP --file=/RP \
      -i -y --ignore-case --no-ignore-case -w --word-regexp -x --line-regexp -z --null-data -s --no-messages -v \
      --invert-match -V --version --help -m: --max-count= -b --byte-offset -n --line-number --line-buffered -H \
      --with-filename -h --no-filename --label= -o --only-matching -q --quiet --silent --binary-files= -a --text -I \
      -d: --directories= -D: --devices= -r --recursive -R/L --dereference-recursive/L --include= --exclude= \
      --exclude-from=/R --exclude-dir= -L --files-without-match -l --files-with-matches -c --count -T --initial-tab \
      -Z --null -B: --before-context= -A: --after-context= -C: --context= --group-separator= \
      --no-group-separator --color=? --colour=? -U --binary"),
    ("rg", "after1 neg whole",
     "-A: --after-context= -B: --before-context= -C: --context= -a --text -b --byte-offset -c --count \
      --count-matches -d: --max-depth= --maxdepth= -E: --encoding= -e:/P --regexp=/P -f:/RP --file=/RP -F \
      --fixed-strings -g: --glob= --iglob= -H --with-filename -h --help -I --no-filename -i --ignore-case -j: \
      --threads= -L/L --follow/L -l --files-with-matches --files-without-match -M: --max-columns= -m: --max-count= \
      -N --no-line-number -n --line-number -o --only-matching -P --pcre2 -p --pretty -q --quiet -r: --replace= \
      -S --smart-case -s --case-sensitive -t: --type= -T: --type-not= -u --unrestricted -U --multiline -V --version \
      -v --invert-match -w --word-regexp -x --line-regexp -z/U --search-zip/U -0 --null --binary --block-buffered \
      --color= --colors= --column --context-separator= --crlf --debug --trace --dfa-size-limit= --engine= \
      --field-context-separator= --field-match-separator= --files/P --glob-case-insensitive --heading --hidden \
      --hostname-bin=/CX --hyperlink-format= --ignore-file=/R --ignore-file-case-insensitive --include-zero --json \
      --line-buffered --max-columns-preview --max-filesize= --mmap --multiline-dotall --null-data --one-file-system \
      --passthru --passthrough --path-separator= --pcre2-version --pre=/CX --pre-glob=/X --regex-size-limit= --sort= \
      --sortr= --sort-files --stats --stop-on-nonmatch --trim --type-add= --type-clear= --type-list --vimgrep \
      --auto-hybrid-regex --generate="),
    ("which", "", "-a -s --all --skip-alias --skip-dot --skip-tilde --show-dot --show-tilde --tty-only --read-alias -i \
      --read-functions --skip-functions -v -V --version --help"),
    ("whoami", "", "--help --version"),
    ("id", "", "-a -Z --context -g --group -G --groups -n --name -r --real -u --user -z --zero --help --version"),
    ("uname", "",
     "-a --all -s --kernel-name -n --nodename -r --kernel-release -v --kernel-version -m --machine -p --processor \
      -i --hardware-platform -o --operating-system --sysname --help --version"),
    ("basename", "", "-a --multiple -s: --suffix= -z --zero --help --version"),
    ("dirname", "", "-z --zero --help --version"),
    ("realpath", "files",
     "-e --canonicalize-existing -m --canonicalize-missing -L --logical -P --physical -q --quiet --relative-to= \
      --relative-base= -s --strip --no-symlinks -z --zero --help --version"),
    ("readlink", "files",
     "-f --canonicalize -e --canonicalize-existing -m --canonicalize-missing -n --no-newline -q --quiet -s --silent \
      -v --verbose -z --zero --help --version"),
    ("stat", "files",
     "-L --dereference -f --file-system --cached= -c: --format= --printf= -t --terse --help --version"),
    ("file", "files",
     "--help -v --version -m:/RS --magic-file=/RS -z --uncompress -Z --uncompress-noreport -b --brief -c \
      --checking-printout -e: --exclude= --exclude-quiet= -f:/RL --files-from=/RL -F: --separator= -i --mime \
      --mime-encoding --apple --extension --mime-type -k --keep-going -l --list -L --dereference -h --no-dereference \
      -n --no-buffer -N --no-pad -0 --print0 -p --preserve-date -P: --parameter= -r --raw -s --special-files -S \
      --no-sandbox -C/U --compile/U -d --debug"),
    ("du", "files",
     "-0 --null -a --all --apparent-size -B: --block-size= -b --bytes -c --total -D --dereference-args -d: \
      --max-depth= --summarize --files0-from=/RL -H -h --human-readable --inodes -k -L/L --dereference/L -l --count-links \
      -m -P --no-dereference -S --separate-dirs --si -s -t: --threshold= --time=? --time-style= -X:/R \
      --exclude-from=/R --exclude= -x --one-file-system --help --version"),
    ("df", "files",
     "-a --all -B: --block-size= -h --human-readable -H --si -i --inodes -k -l --local --no-sync --output=? -P \
      --portability --sync --total -t: --type= -T --print-type -x: --exclude-type= -v -m -F: --help --version"),
    ("printenv", "", "-0 --null --help --version"),
    ("diff", "files num",
     "--normal -q --brief -s --report-identical-files -c -C: --context=? -u -U: --unified=? -e --ed -n --rcs -y \
      --side-by-side -W: --width= --left-column --suppress-common-lines -p --show-c-function -F: \
      --show-function-line= --label= -L: -H -P -f -h --binary --forward-ed --inhibit-hunk-merge --sdiff-merge-assist -t --expand-tabs -T --initial-tab --tabsize= --suppress-blank-empty -l \
      --paginate -r/L --recursive/L --no-dereference -N --new-file --unidirectional-new-file --ignore-file-name-case \
      --no-ignore-file-name-case -x: --exclude= -X:/R --exclude-from=/R -S: --starting-file= --from-file=/R \
      --to-file=/R -i --ignore-case -E --ignore-tab-expansion -Z --ignore-trailing-space -b --ignore-space-change \
      -w --ignore-all-space -B --ignore-blank-lines -I: --ignore-matching-lines= -a --text --strip-trailing-cr -D: \
      --ifdef= --old-group-format= --new-group-format= --unchanged-group-format= --changed-group-format= \
      --line-format= --old-line-format= --new-line-format= --unchanged-line-format= -d --minimal --horizon-lines= \
      --speed-large-files --color=? --palette= --help -v --version"),
    ("cmp", "files",
     "-b --print-bytes -c --print-chars -i: --ignore-initial= -l --verbose -n: --bytes= -s --quiet --silent --help -v --version"),
    ("cut", "files",
     "-b: --bytes= -c: --characters= -d: --delimiter= -f: --fields= -n --complement -s --only-delimited \
      --output-delimiter= -z --zero-terminated --help --version"),
    ("tr", "", "-c -C --complement -d --delete -s --squeeze-repeats -t --truncate-set1 --help --version"),
    ("nl", "files",
     "-b: --body-numbering= -d: --section-delimiter= -f: --footer-numbering= -h: --header-numbering= -i: \
      --line-increment= -l: --join-blank-lines= -n: --number-format= -p --no-renumber -s: --number-separator= -v: \
      --starting-line-number= -w: --number-width= --help --version"),
    ("seq", "posix num", "-f: --format= -s: --separator= -w --equal-width --help --version"),
    // Numbers from its operands or standard input, reformatted (coreutils 9.1): no file, no
    // command (red team 82: `numfmt --to=iec 1048576` was asked).
    ("numfmt", "num",
     "--debug -d: --delimiter= --field= --format= --from= --from-unit= --grouping --header=? --invalid= \
      --padding= --round= --suffix= --unit-separator= --to= --to-unit= -z --zero-terminated --help --version"),
    ("sleep", "", "--help --version"),
    // A calculator (GNU bc 1.07: no shell escape), its files read; numbers factored; lines
    // shuffled (`-o F` a write the walker decides); a user's groups; the CPUs (`-s DIR` reads
    // another root); the sockets (`-K` closes them, `-D F` writes, `-N` enters a namespace).
    // Red team 83's over-asks.
    ("bc", "files", "-h --help -i --interactive -l --mathlib -w --warn -s --standard -q --quiet -v --version"),
    ("factor", "", "-h --exponents --help --version"),
    ("shuf", "files",
     "-e --echo -i: --input-range= -n: --head-count= -o:/W --output=/W --random-source=/R -r --repeat -z \
      --zero-terminated --help --version"),
    ("groups", "", "--help --version"),
    ("lscpu", "",
     "-a --all -b --online -B --bytes -C:: --caches=? -c --offline -J --json -e:: --extended=? -p:: --parse=? \
      -s:/R --sysroot=/R -x --hex -y --physical --output-all -h --help -V --version"),
    ("ss", "",
     "-h --help -V -v --version -n --numeric -r --resolve -a --all -l --listening -o --options -e --extended -m \
      --memory -p --processes -T --threads -i --info --tipcinfo -s --summary --tos --cgroup -b --bpf -E --events -Z \
      --context -z --contexts -N:/U --net=/U -4 --ipv4 -6 --ipv6 -0 --packet -t --tcp -M --mptcp -S --sctp -u --udp \
      -d --dccp -w --raw -x --unix --tipc --vsock --xdp -f: --family= -K/U --kill/U -H --no-header -O --oneline \
      --inet-sockopt -A: --query= --socket= -D:/W --diag=/W -F:/R --filter=/R"),
    // gzip 1.12: read-only only where it writes to standard output, lists or tests (the
    // walker decides the files it writes otherwise).
    ("gzip|gunzip", "files",
     "-a --ascii -c --stdout --to-stdout -d --decompress --uncompress -f --force -h --help -k --keep -l --list -L \
      --license -n --no-name -N --name -q --quiet -r/L --recursive/L --rsyncable -S: --suffix= --synchronous -t \
      --test -v --verbose -V --version -1 --fast -2 -3 -4 -5 -6 -7 -8 -9 --best"),
    ("jq", "after1 whole",
     "-c --compact-output -n --null-input -e --exit-status -s --slurp -r --raw-output -j --join-output --raw-output0 \
      -a --ascii-output -S --sort-keys -C --color-output -M --monochrome-output -R --raw-input --tab --indent= \
      --unbuffered --stream --stream-errors --seq -f:/RP --from-file=/RP -L:/R --library-path=/R --arg=2 --argjson=2 --slurpfile=2/R \
      --rawfile=2/R --args --jsonargs -h --help -V --version --build-configuration"),
    ("md5sum|sha1sum|sha224sum|sha256sum|sha384sum|sha512sum|b2sum", "files",
     "-b --binary -c/L --check/L --tag -t --text -z --zero --ignore-missing --quiet --status --strict -w --warn -l: \
      --length= --help --version"),
    ("cksum", "files",
     "-a: --algorithm= -c/L --check/L -l: --length= --tag --untagged --base64 --raw -z --zero --ignore-missing --quiet \
      --status --strict -w --warn --debug --help --version"),
    ("comm", "files",
     "-1 -2 -3 --check-order --nocheck-order --output-delimiter= --total -z --zero-terminated --help --version"),
    ("paste", "files", "-d: --delimiters= -s --serial -z --zero-terminated --help --version"),
    // `split [OPTION]... [FILE [PREFIX]]`: it reads FILE and writes PREFIX, then a made-up
    // suffix, then `--additional-suffix` (the walker decides those writes); `--filter` runs.
    ("split", "files",
     "-a: --suffix-length= --additional-suffix= -b: --bytes= -C: --line-bytes= -d --numeric-suffixes=? -x \
      --hex-suffixes=? -e --elide-empty-files --filter=/X -l: --lines= -n: --number= -t: --separator= -u \
      --unbuffered --verbose --help --version"),
    ("join", "files",
     "-a: -e: -i --ignore-case -j: -o: -t: -v: -1: -2: --check-order --nocheck-order --header -z --zero-terminated \
      --help --version"),
    ("fold", "files num", "-b --bytes -s --spaces -w: --width= --help --version"),
    // `fmt -72 F` (a width spelled as a number), and iconv's `-o F`, a write the walker
    // decides (red team 63); iconv opens a charset name with a `/` as a charmap file (red
    // team 64: `-f /etc/passwd`): its names are decided as reads.
    ("fmt", "files num",
     "-c --crown-margin -p: --prefix= -s --split-only -t --tagged-paragraph -u --uniform-spacing -w: --width= -g: \
      --goal= --help --version"),
    ("iconv", "files",
     "-f:/R --from-code=/R -t:/R --to-code=/R -l --list -c -o:/W --output=/W -s --silent --verbose --help --usage -V \
      --version"),
    ("expand", "files num", "-i --initial -t: --tabs= --help --version"),
    ("unexpand", "files num", "-a --all --first-only -t: --tabs= --help --version"),
    ("rev", "files", "-0 --zero -h --help -V --version"),
    ("tac", "files", "-b --before -r --regex -s: --separator= --help --version"),
    ("od", "files",
     "-A: --address-radix= --endian= -j: --skip-bytes= -N: --read-bytes= -S: --strings=? -t: --format= -v \
      --output-duplicates -w:: --width=? --traditional --help --version -a -b -c -d -f -i -l -o -s -x -B -D -F -H -I -L -O -X -e -h"),
    ("hexdump", "files",
     "-b --one-byte-octal -X --one-byte-hex -c --one-byte-char -C --canonical -d --two-bytes-decimal -o \
      --two-bytes-octal -x --two-bytes-hex -L --color=? -e: --format= -f:/R --format-file=/R -n: --length= -s: \
      --skip= -v --no-squeezing -h --help -V --version"),
    ("strings", "files num at",
     "-a --all -d --data -f --print-file-name -n: --bytes= -t: --radix= -o -T: --target= -e: --encoding= -U: \
      --unicode= -w --include-all-whitespace -s: --output-separator= -h --help -v -V --version"),
    ("base64|base32", "files", "-d --decode -i --ignore-garbage -w: --wrap= --help --version"),
    ("column", "files",
     "-t --table -n: --table-name= -O: --table-order= -N: --table-columns= -l: --table-columns-limit= -R: \
      --table-right= -T: --table-truncate= -E: --table-noextreme= -W: --table-wrap= -H: --table-hide= -C: \
      --table-column= -d --table-noheadings -e --table-header-repeat -m --table-maxout -L --keep-empty-lines -J \
      --json -r: --tree= -i: --tree-id= -p: --tree-parent= -c: --output-width= -o: --output-separator= -s: \
      --separator= -x --fillrows -h --help -V --version"),
    ("tree", "files whole nobundle",
     "-a -d -l/L -f -x -L: -R/X -P: -I: --gitignore --gitfile=/R --ignore-case --matchdirs --metafirst --prune --info \
      --infofile=/R --noreport --charset= --filelimit= -o:/W -q -N -Q -p -u -g -s -h --si --du -D --timefmt= -F \
      --inodes --device -v -t -c -U -r --dirsfirst --filesfirst --sort= -i -A -S -n -C -X -J -H: -T: --nolinks \
      --hintro=/R --houtro=/R --fromfile --fromtabfile --help --version -V"),
    // `-B`/`-M`/`-S` take lists of directories up to `-f`, each searched (a listing).
    ("whereis", "", "-b -B:/L -m -M:/L -s -S:/L -f -u -l -g -h --help -V --version"),
    ("free", "",
     "-b --bytes --kilo --mega --giga --tera --peta -k --kibi -m --mebi -g --gibi --tebi --pebi -h --human --si \
      -l --lohi -L --line -t --total -v --committed -s: --seconds= -c: --count= -w --wide --help -V --version"),
    ("uptime", "", "-p --pretty -h --help -s --since -r --raw -c --container -V --version"),
    ("nproc", "", "--all --ignore= --help --version"),
    ("locale", "",
     "-a --all-locales -m --charmaps -c --category-name -k --keyword-name -v --verbose -? --help --usage -V --version"),
    ("tee", "", "-a --append -i --ignore-interrupts -p --output-error=? --help --version"),
    // Writers of their operands (decided as writes by the walker); `-r F` reads F's times.
    ("truncate", "", "-c --no-create -o --io-blocks -r:/R --reference=/R -s: --size= --help --version"),
    ("touch", "", "-a -c --no-create -d: --date= -f -h --no-dereference -m -r:/R --reference=/R -t: --time= --help --version"),
    ("mkdir", "", "-m: --mode= -p --parents -v --verbose -Z --context=? --help --version"),
    // `cp SRC... DEST` reads its sources and writes DEST (or DEST/SRC's name). What copies
    // more than the named files is `U`: directories (`-r`, `-a`), links instead of copies
    // (`-l`, `-s`, `-d`, `-P`), backups under other names (`-b`, `-S`), `--parents`.
    ("cp", "files",
     "-a/U --archive/U --attributes-only --backup=?/U -b/U --copy-contents/U -d/U --no-dereference/U -f --force \
      -i --interactive -H -l/U --link/U -L --dereference -n --no-clobber -P/U -p --preserve=? --no-preserve= \
      --parents/U -R/U -r/U --recursive/U --reflink=? --remove-destination --sparse= --strip-trailing-slashes \
      -s/U --symbolic-link/U -S:/U --suffix=/U -t: --target-directory= -T --no-target-directory -u --update=? \
      -v --verbose -x --one-file-system -Z --context=? --help --version"),
    // `mv SRC... DEST` moves its sources (each a write, where it goes and where it was) to DEST
    // (or DEST/SRC's name). Backups under other names (`-b`, `-S`) and `--exchange` are `U`.
    ("mv", "files",
     "--backup=?/U -b/U --debug -f --force -i --interactive -n --no-clobber --no-copy --strip-trailing-slashes \
      -S:/U --suffix=/U -t: --target-directory= -T --no-target-directory -u --update=? -v --verbose -Z --context \
      --exchange/U --help --version"),
    ("date", "",
     "-d: --date= --debug -f:/R --file=/R -I:: --iso-8601=? --resolution -R --rfc-email --rfc-3339= -r:/R \
      --reference=/R -s:/U --set=/U -u --utc --universal --help --version"),
    ("hostname", "",
     "-a --alias -A --all-fqdns -d --domain -f --fqdn --long -i --ip-address -I --all-ip-addresses -s --short \
      -y --yp --nis -b/U --boot/U -F:/U --file=/U -V --version -h --help"),
    ("sort", "files",
     "-b --ignore-leading-blanks -d --dictionary-order -f --ignore-case -g --general-numeric-sort -i \
      --ignore-nonprinting -M --month-sort -h --human-numeric-sort -n --numeric-sort -R --random-sort \
      --random-source=/R -r --reverse --sort= -V --version-sort --batch-size= -c --check=? -C \
      --compress-program=/CX --debug --files0-from=/RL -k: --key= -m --merge -o:/W --output=/W -s --stable -S: \
      --buffer-size= -t: --field-separator= -T:/U --temporary-directory=/U --parallel= -u --unique -z \
      --zero-terminated --help --version"),
    ("tar", "files old",
     "-v --verbose -A/U --catenate/U --concatenate/U -c/U --create/U --delete/U -d/U --diff/U --compare/U -r/U --append/U \
      --test-label/U -t --list -u/U --update/U -x/U --extract/U --get/U --check-device -g:/W --listed-incremental=/W \
      -G --incremental --hole-detection= --ignore-failed-read --level= --no-check-device --no-seek -n --seek \
      --occurrence=? --sparse-version= -S --sparse --add-file=/R -C:/D --directory=/D --exclude= --exclude-backups \
      --exclude-caches --exclude-caches-all --exclude-caches-under --exclude-ignore=/R --exclude-ignore-recursive=/R \
      --exclude-tag= --exclude-tag-all= --exclude-tag-under= --exclude-vcs --exclude-vcs-ignores --no-null \
      --no-recursion --no-unquote --no-verbatim-files-from --null --recursion -T:/RU --files-from=/RU --unquote \
      --verbatim-files-from -X:/R --exclude-from=/R --anchored --ignore-case --no-anchored --no-ignore-case \
      --no-wildcards --no-wildcards-match-slash --wildcards --wildcards-match-slash --keep-directory-symlink \
      --keep-newer-files -k --keep-old-files --no-overwrite-dir --one-top-level=?/U --overwrite --overwrite-dir \
      --recursive-unlink/U --remove-files/U --skip-old-files -U/U --unlink-first/U -W --verify \
      --ignore-command-error --no-ignore-command-error -O --to-stdout --to-command=/C --atime-preserve=?/U \
      --clamp-mtime --delay-directory-restore --group= --group-map=/R --mode= --mtime=/R -m --touch \
      --no-delay-directory-restore --no-same-owner --no-same-permissions --numeric-owner --owner= --owner-map=/R \
      -p --preserve-permissions --same-permissions --same-owner --sort= -s --preserve-order --same-order --acls \
      --no-acls --no-selinux --no-xattrs --selinux --xattrs --xattrs-exclude= --xattrs-include= --force-local \
      -f:/R --file=/R -F:/CX --info-script=/CX --new-volume-script=/CX -L:/U --tape-length=/U -M/U --multi-volume/U \
      --rmt-command=/X --rsh-command=/X --volno-file=/W -b: --blocking-factor= -B --read-full-records -i \
      --ignore-zeros --record-size= -H: --format= --old-archive --portability --pax-option= --posix -V: --label= \
      -a --auto-compress -I:/CX --use-compress-program=/CX -j --bzip2 -J --xz --lzip --lzma --lzop \
      --no-auto-compress --zstd -z --gzip --gunzip --ungzip -Z --compress --uncompress --backup=?/U \
      --hard-dereference -h/L --dereference/L -K: --starting-file= --newer-mtime=/R -N:/R --newer=/R --after-date=/R \
      --one-file-system -P --absolute-names --suffix= --strip-components= --transform= --xform= --checkpoint=? \
      --checkpoint-action=/CX --full-time --index-file=/W -l --check-links --no-quote-chars= --quote-chars= \
      --quoting-style= -R --block-number --show-defaults --show-omitted-dirs --show-snapshot-field-ranges \
      --show-transformed-names --show-stored-names --totals=? --utc --warning= -w/U --interactive/U \
      --confirmation/U -o -? --help --restrict --usage --version"),
    ("zcat", "files",
     "-f --force -l --list -q --quiet -r/L --recursive/L -S: --suffix= -t --test -v --verbose -h --help -V --version"),
    ("uniq", "files num plus",
     "-c --count -d --repeated -D --all-repeated=? -f: --skip-fields= --group=? -i --ignore-case -s: --skip-chars= \
      -u --unique -z --zero-terminated -w: --check-chars= --help --version"),
    ("sed", "after1",
     "-n --quiet --silent --debug -e:/P --expression=/P -f:/RP --file=/RP --follow-symlinks -i::/U --in-place=?/U \
      -l: --line-length= --posix -E -r --regexp-extended -s --separate --sandbox -u --unbuffered -z --null-data \
      -b --binary --help --version"),
];

#[cfg(test)]
mod tests {
    use super::*;

    fn lits(s: &str) -> Vec<Word> {
        s.split_whitespace().map(|w| Word::Lit(w.into())).collect()
    }

    fn parse_of(program: &str, args: &str) -> Result<Parsed, String> {
        parse(grammar(program).unwrap(), &lits(args))
    }

    #[test]
    fn every_entry_compiles() {
        for (names, _, spec) in TABLE {
            for tok in spec.split_whitespace() {
                let o = entry(tok);
                assert!(o.eff != "X" || tok.contains("/X"), "{names}: malformed entry {tok}");
                assert!(o.eff.chars().all(|c| "RWCXUDPLS".contains(c)), "{names}: effect in {tok}");
            }
            for name in names.split('|') {
                let g = grammar(name).unwrap();
                let mut seen = std::collections::HashSet::new();
                for o in &g.opts {
                    assert!(seen.insert(o.name), "{name}: {} twice", o.name);
                }
            }
        }
    }

    #[test]
    fn old_style_bundles_take_their_values_in_order() {
        // `tar xfC a.tar dir` is `-x -f a.tar -C dir`, not `-f C`.
        let p = parse_of("tar", "xfC a.tar dir m").unwrap();
        assert_eq!(p.with('R').next().unwrap().value, Some(Word::Lit("a.tar".into())));
        assert_eq!(p.with('D').next().unwrap().value, Some(Word::Lit("dir".into())));
        assert_eq!(p.operands, lits("m"));
        // With a dash it is getopt's bundle: `f` takes the rest.
        let p = parse_of("tar", "-tfz a.tgz").unwrap();
        assert_eq!(p.with('R').next().unwrap().value, Some(Word::Lit("z".into())));
        assert!(parse_of("tar", "tf").is_err());
        assert!(parse_of("tar", "ty a.tar").is_err());
    }

    #[test]
    fn bundles_glued_and_abbreviated() {
        let p = parse_of("sort", "-mo.env x").unwrap();
        assert_eq!(p.with('W').next().unwrap().value, Some(Word::Lit(".env".into())));
        assert_eq!(p.operands, lits("x"));
        let p = parse_of("sort", "-m -o .env x").unwrap();
        assert_eq!(p.with('W').next().unwrap().value, Some(Word::Lit(".env".into())));
        let p = parse_of("sort", "--out=.env x").unwrap();
        assert_eq!(p.with('W').next().unwrap().value, Some(Word::Lit(".env".into())));
        let p = parse_of("sort", "--outp .env x").unwrap();
        assert_eq!(p.with('W').next().unwrap().value, Some(Word::Lit(".env".into())));
        assert!(parse_of("sort", "--compress=sh").unwrap().with('X').next().is_some());
        // Ambiguous and unknown are errors.
        assert!(parse_of("sort", "--s").is_err());
        assert!(parse_of("env", "-Z ls").unwrap_err().contains("env: option -Z not"));
    }

    #[test]
    fn posix_programs_stop_at_the_first_operand() {
        let p = parse_of("timeout", "-s KILL 5 rm -rf x").unwrap();
        assert_eq!(p.end, 2);
        assert_eq!(p.operands, lits("5 rm -rf x"));
        let p = parse_of("nice", "-10 rm x").unwrap();
        assert_eq!(p.operands, lits("rm x"));
        let p = parse_of("flock", "-xc 'rm x' f").unwrap();
        assert_eq!(p.with('C').next().unwrap().value, Some(Word::Lit("'rm".into())));
        // GNU programs permute: an option after an operand is still an option.
        let p = parse_of("sort", "x -o y").unwrap();
        assert_eq!(p.operands, lits("x"));
        // After `--` everything is an operand.
        let p = parse_of("cat", "-- -n").unwrap();
        assert_eq!(p.operands, lits("-n"));
    }

    #[test]
    fn run_time_words_in_option_position() {
        let dynw = |s: &str| vec![Word::Dyn(s.into())];
        // sort has options that write and run: `$x` could be `--compress-program=sh`.
        assert!(parse(grammar("sort").unwrap(), &dynw("$x")).is_err());
        // cat has none: whatever `$x` is, cat only reads.
        assert!(parse(grammar("cat").unwrap(), &dynw("$x")).is_ok());
        // A word that starts with a letter is no option.
        assert!(parse(grammar("sort").unwrap(), &dynw("src/$x")).is_ok());
    }

    /// One option entry in every spelling getopt accepts.
    fn spellings(g: &Grammar, o: &Opt, value: &str, k: usize) -> Vec<Vec<Word>> {
        let mut out = Vec::new();
        let flag = g.opts.iter().find(|f| f.val == Val::No && !f.name.starts_with("--") && f.eff.is_empty());
        if let Some(long) = o.name.strip_prefix("--") {
            // Every unambiguous prefix of the long name.
            let prefixes: Vec<&str> =
                (1..=long.len()).map(|n| &long[..n]).filter(|p| g.find_long(p).ok() == Some(o)).collect();
            let p = prefixes[k % prefixes.len()];
            match o.val {
                Val::No => out.push(lits(&format!("--{p}"))),
                Val::Req => {
                    out.push(vec![Word::Lit(format!("--{p}={value}"))]);
                    out.push(vec![Word::Lit(format!("--{p}")), Word::Lit(value.into())]);
                }
                Val::Opt => out.push(vec![Word::Lit(format!("--{p}={value}"))]),
                Val::Two => out.push(vec![Word::Lit(format!("--{p}")), Word::Lit("n".into()), Word::Lit(value.into())]),
            }
            return out;
        }
        let letter = &o.name[1..];
        // A program that is not getopt (`tree`) reads neither bundles nor glued values of a
        // letter that takes one: those spellings are refused, not read another way.
        let plain_only = g.no_bundles && o.val != Val::No;
        let bundles: Vec<String> = match flag {
            Some(f) if f.name != o.name && !plain_only => {
                vec![format!("-{letter}"), format!("-{}{letter}", &f.name[1..])]
            }
            _ => vec![format!("-{letter}")],
        };
        for b in bundles {
            match o.val {
                Val::No => out.push(vec![Word::Lit(b)]),
                Val::Req if plain_only => out.push(vec![Word::Lit(b), Word::Lit(value.into())]),
                Val::Req => {
                    out.push(vec![Word::Lit(format!("{b}{value}"))]);
                    out.push(vec![Word::Lit(b), Word::Lit(value.into())]);
                }
                Val::Opt => out.push(vec![Word::Lit(format!("{b}{value}"))]),
                Val::Two => out.push(vec![Word::Lit(b), Word::Lit("n".into()), Word::Lit(value.into())]),
            }
        }
        out
    }

    #[test]
    fn words_that_may_become_no_word_or_several() {
        for w in [
            "$x",
            "${x}",
            "$(true)",
            "`true`",
            "src/*.zz",
            "a$x",
            "\"$@\"",
            "\"${a[@]}\"",
            "\"${@:2}\"",
            "-n$x",
            "'a'$x",
        ] {
            assert!(may_split(w), "{w}");
        }
        for w in
            ["\"$x\"", "\"${x}\"", "\"$(cmd)\"", "$((1+2))", "\"${#a[@]}\"", "'$x'", "\"a b $x\"", "-n\"$x\"", "\\$x"]
        {
            assert!(!may_split(w), "{w}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        /// Every entry of every table, spelled bundled, glued, separate or abbreviated, is
        /// read as the same option with the same value, and the command it is part of gets
        /// the same reads, writes, read-only verdict and modelled-ness as the plain spelling.
        #[test]
        fn every_spelling_reads_the_same(pick in 0usize..100_000, k in 0usize..64, value in "[a-z./]{1,8}") {
            let programs = tabled_programs();
            let name = programs[pick % programs.len()];
            let g = grammar(name).unwrap();
            if g.opts.is_empty() {
                return Ok(());
            }
            let o = &g.opts[(pick / programs.len()) % g.opts.len()];
            let value = if value.starts_with('-') { format!("x{value}") } else { value };
            let plain = {
                let mut w = vec![Word::Lit(name.into())];
                w.extend(spellings(g, o, &value, usize::MAX).pop().unwrap());
                w.push(Word::Lit("operand".into()));
                w
            };
            let expect = parse(g, &plain[1..]).unwrap();
            for sp in spellings(g, o, &value, k) {
                let mut words = vec![Word::Lit(name.into())];
                words.extend(sp);
                words.push(Word::Lit("operand".into()));
                let got = parse(g, &words[1..]).unwrap();
                let key = |p: &Parsed| p.opts.iter().map(|f| (f.opt.name, f.opt.eff, f.value.clone())).filter(|(n, _, _)| *n == o.name).collect::<Vec<_>>();
                proptest::prop_assert_eq!(key(&got), key(&expect), "{:?}", words);
                proptest::prop_assert_eq!(&got.operands, &expect.operands, "{:?} vs {:?}", words, plain);
                proptest::prop_assert_eq!(super::super::tables::read_targets(&words), super::super::tables::read_targets(&plain));
                proptest::prop_assert_eq!(super::super::writes::write_targets(&words), super::super::writes::write_targets(&plain));
                proptest::prop_assert_eq!(super::super::tables::is_read_only(&words, super::super::Added::No), super::super::tables::is_read_only(&plain, super::super::Added::No), "{:?} vs {:?}", words, plain);
                proptest::prop_assert_eq!(unmodelled(&words).is_some(), unmodelled(&plain).is_some());
            }
        }
    }

    #[test]
    fn reads_follow_the_table() {
        let g = grammar("grep").unwrap();
        let p = parse(g, &lits("-e pat a b")).unwrap();
        assert_eq!(p.reads(g), lits("a b"));
        let p = parse(g, &lits("pat a b")).unwrap();
        assert_eq!(p.reads(g), lits("a b"));
        let p = parse(g, &lits("-f/etc/pats a")).unwrap();
        assert_eq!(p.reads(g), lits("/etc/pats a"));
        let g = grammar("jq").unwrap();
        let p = parse(g, &lits("-n --rawfile k /etc/shadow .")).unwrap();
        assert_eq!(p.reads(g), lits("/etc/shadow"));
    }
}
