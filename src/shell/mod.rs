//! Shell analysis (SPEC 3.3): shell text in, the simple commands and writes it contains out,
//! plus what could not be known statically.
//!
//! Pure: no I/O, no environment, no policy. It parses with brush-parser, walks every construct
//! (lists, pipelines, subshells, groups, loops, functions, `$(...)`, backticks, `<(...)`,
//! parameter defaults, unquoted heredocs), resolves quoting and escapes into the real words,
//! unwraps wrappers (`sudo`, `env`, `timeout`, `xargs`, `find -exec`, `bash -c`, ...), and
//! records redirections and `tee` targets as writes. Anything it does not fully understand is
//! reported as unknown, never guessed: the policy must not allow an unknown part.

mod abort;
pub mod compose;
mod computed;
mod dirs;
mod git_tables;
mod grammar;
mod scripts;
mod tables;
mod unwrap;
mod walk;
mod words;
mod writes;

pub use computed::computed_from_constants;
pub(crate) use grammar::could_be_option;
pub use grammar::tabled_programs;
pub use tables::{
    copies_below, find_listing_dirs, git_pathspecs_added, glob_base, has_no_table, is_dangerous_variable, is_read_only,
    listing_patterns, parameter_default, read_targets, reads_below, reads_operands, runs_unseen_code,
    toolchain_version, unquoted_glob, walks_below, writes_unmodelled, Below,
};
pub(crate) use tables::{git_subcommand_at, is_identifier, is_modelled_program, PWD_SPELLINGS};
pub(crate) use unwrap::xargs_replace_str;
pub(crate) use walk::{below_a_start, plain_byte};
pub(crate) use words::{brace_expand, braced_rewritten};

/// One word of a command after quoting and escapes are resolved.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Word {
    /// The exact text the program receives.
    Lit(String),
    /// Text only known at run time (a variable, a substitution, a glob): it may be any number
    /// of words, with any content. Holds the source text for display.
    Dyn(String),
}

impl Word {
    pub fn lit(&self) -> Option<&str> {
        match self {
            Word::Lit(s) => Some(s),
            Word::Dyn(_) => None,
        }
    }

    /// The word as a person reads it (shell-quoted when needed).
    pub fn display(&self) -> String {
        match self {
            Word::Lit(s) => quote(s),
            Word::Dyn(s) => s.clone(),
        }
    }
}

/// Quote a literal word for display so that it reads back as the same word.
pub fn quote(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^{}~".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// A word quoted for shell text that runs (`sh -c`, a hook's command): single quotes unless
/// it holds only characters no shell treats specially.
pub fn shell_word(s: &str) -> String {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:@%+,".contains(c)) {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

/// Shell text that runs `command` in `dir`, as gate decides it: a `cd` that must succeed.
pub fn run_in(dir: &str, command: &str) -> String {
    format!("cd -- {} || exit 1; {command}", shell_word(dir))
}

/// The argument fields in which agents' shell tools name the directory a command runs in
/// (Codex `workdir`, ACP `terminal/create` and others `cwd`, Gemini `dir_path`).
pub const SHELL_DIR_FIELDS: &[&str] = &["cwd", "workdir", "dir_path", "directory", "dir"];

/// How a wrapper relates to the command it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WrapperKind {
    /// Runs the command unchanged (`nice`, `timeout`, `env`, `nohup`, `xargs`, ...): the
    /// command decides, but a deny or ask rule on the wrapper itself still applies.
    Transparent,
    /// Runs the command with other privileges (`sudo`, `doas`, `su`, `chroot`): an allow needs
    /// the wrapper itself allowed by an explicit rule as well as the command.
    Privileged,
    /// A loop whose variable takes each name a listing prints (`for f in $(find src)`,
    /// `find src | while read -r f`), read as `find ... -exec CMD {}`: the wrapper's words
    /// are the listing as a `find`, and the variable is `{}` in the command. What splits the
    /// names on the way (word splitting, a line a name's newline ends) is checked by the edge.
    Listing(Split),
}

/// What a name a listing prints may be cut at on its way into a loop's variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Split {
    /// Nothing (NUL-separated names read with `read -d ''`; git's quoted names).
    Whole,
    /// Newlines (`read` of a line).
    Lines,
    /// Blanks, and glob characters bash expands (`for f in $(find ...)`).
    Blanks,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Wrapper {
    /// The wrapper's words from its name to the end of the whole command.
    pub words: Vec<Word>,
    pub kind: WrapperKind,
}

/// The arguments a command is given at run time, after its words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Added {
    /// None.
    No,
    /// Paths a listing prints, each starting with one of its literal start points, so never
    /// an option (find's names; GNU find takes no start point that starts with `-`).
    Paths,
    /// Any words (xargs fed input gate does not know): options too.
    Any,
}

/// One simple command, after unwrapping.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimpleCommand {
    /// The command that finally runs: program then arguments.
    pub words: Vec<Word>,
    /// Wrappers around it, outermost first.
    pub wrappers: Vec<Wrapper>,
    /// Alternative spellings of `words` that mean the same command, for deny and ask rules
    /// only (e.g. `git -C . reset --hard` also seen as `git reset --hard`).
    pub aliases: Vec<Vec<Word>>,
    /// Arguments are appended at run time (`xargs`, `find -exec ... {} +`).
    pub open_args: bool,
    /// Where those arguments come from when known: the words of the `find` whose listing
    /// they are, so paths under its start points (`find src | xargs grep x`). Empty when
    /// unknown.
    pub args_from: Vec<Word>,
    /// Why what runs cannot be known statically, if so.
    pub unknown: Option<String>,
    /// The directory it runs in, relative to the start (`None` after a `cd` gate cannot
    /// follow), for the files it reads.
    pub cwd: Option<String>,
    /// For `cd`, `pushd` and `popd`: the directory it lands in, relative to the start or
    /// absolute (`Some(None)` when gate cannot follow it: `cd -` with an inherited OLDPWD).
    pub lands: Option<Option<String>>,
}

impl Wrapper {
    /// The wrapper's program name, as [`SimpleCommand::program`] gives a command's.
    pub fn program(&self) -> Option<&str> {
        self.words.first().and_then(Word::lit).map(program_name)
    }
}

impl SimpleCommand {
    /// The program name: the last path segment of the first word (`/bin/rm` is `rm`).
    pub fn program(&self) -> Option<&str> {
        self.words.first().and_then(Word::lit).map(program_name)
    }

    /// What the arguments appended at run time can be ([`Added`]): the names a `find` prints
    /// where the innermost wrapper that appends them is that `find` (`-exec ... {} +`) or an
    /// `xargs` fed a listing gate knows (`find docs | xargs sed -n 1p`), or a last word that
    /// substitutes one (`wc -l $(find src -name '*.rs')`; a name the split would cut is
    /// found by the edge, which looks below the start points).
    pub fn added(&self) -> Added {
        if !self.open_args {
            return Added::No;
        }
        let appender = self.wrappers.iter().rev().find(|w| matches!(w.program(), Some("find" | "xargs")));
        match appender.and_then(Wrapper::program) {
            Some("find") => Added::Paths,
            // (xargs, or nothing: a command's last word `$(find ...)`.)
            _ if !self.args_from.is_empty() => Added::Paths,
            _ => Added::Any,
        }
    }

    /// The whole command as a person reads it, wrappers included.
    pub fn display(&self) -> String {
        // The outermost wrapper written around this very command (`sudo -u bob ls`), not
        // the script it came from (`bash -c '...'`).
        let words = self.wrappers.iter().map(|w| &w.words).find(|w| w.ends_with(&self.words)).unwrap_or(&self.words);
        let mut s = words.iter().map(Word::display).collect::<Vec<_>>().join(" ");
        // Names a last word `$(find ...)` appends (not xargs's: xargs is shown).
        if self.open_args && !self.args_from.is_empty() && !self.wrappers.iter().any(|w| w.program() == Some("xargs")) {
            let listing = self.args_from.iter().map(Word::display).collect::<Vec<_>>().join(" ");
            s.push_str(&format!(" $({listing})"));
        }
        if s.is_empty() {
            s = "(empty command)".into();
        }
        s
    }
}

/// Programs that read or list the directory they run in where no path is given (and some
/// where one is): decided as a read of `.` wherever they run below the start.
pub fn reads_where_it_runs(c: &SimpleCommand) -> bool {
    match c.program() {
        Some("ls" | "dir" | "vdir" | "du" | "tree" | "find" | "fd" | "fdfind" | "rg" | "ag" | "git") => true,
        // (grep only where it recurses: `grep -l ref {}` reads what it is given.)
        Some("grep" | "egrep" | "fgrep") => c.words[1..].iter().any(|w| {
            w.lit().is_some_and(|a| {
                a.starts_with("--r")
                    || a.starts_with("--dereference-r")
                    || a.starts_with("--d")
                    || (a.starts_with('-') && !a.starts_with("--") && a.contains(['r', 'R', 'd']))
            })
        }),
        _ => false,
    }
}

/// Whether xargs's words (`xargs ...` to the command it runs) make it take each input record
/// whole, as its getopt reads them: any `-0`/`--null` or `-d`/`--delimiter` given (either
/// way no blank splits a record; not `-E -0`, where `-0` is the end-of-input string: red team
/// 111 D). `false` where its options cannot be read (then names are taken as split at
/// blanks, which the edge checks).
pub fn xargs_takes_records_whole(words: &[Word]) -> bool {
    if words.iter().skip(1).any(|w| w.lit().is_none()) {
        return false;
    }
    let args = words.get(1..).unwrap_or_default();
    let Some(Ok(p)) = grammar::grammar("xargs").map(|g| grammar::parse(g, args)) else { return false };
    p.opts.iter().any(|f| matches!(f.opt.name, "-0" | "--null" | "-d" | "--delimiter"))
}

/// The last path segment of a program word.
pub fn program_name(word: &str) -> &str {
    match word.rfind('/') {
        Some(i) if i + 1 < word.len() => &word[i + 1..],
        _ => word,
    }
}

/// Whether a program word names the program itself rather than some file that happens to be
/// called the same: a bare name, or a path in a system directory (`/bin/rm`, `/usr/bin/git`).
/// `./git` or `/tmp/x/git` is not `git` for an allow rule.
pub fn is_trusted_program_path(word: &str) -> bool {
    if !word.contains('/') {
        return true;
    }
    const SYSTEM_DIRS: &[&str] = &["/bin/", "/usr/bin/", "/usr/local/bin/", "/sbin/", "/usr/sbin/", "/usr/local/sbin/"];
    SYSTEM_DIRS.iter().any(|d| word.strip_prefix(d).is_some_and(|rest| !rest.contains('/') && !rest.is_empty()))
}

/// How a write happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WriteKind {
    /// `>`, `>|`, `&>`, `<>`
    Redirect,
    /// `>>`, `&>>`
    Append,
    /// an argument of a command that writes it (`tee F`, `cp A F`, `sed -i`, `sort -o F`)
    Tee,
    /// (reads only) a glob bash expands by listing its directories (`echo /etc/*`)
    List,
    /// a path handed on to a program gate cannot see, which may write it or run it (`npm run
    /// test -- --reporter-destination=/tmp/x`), or one a program may write (the directories
    /// `mkdir -p` makes where missing): decided only where it lands outside the workspace or
    /// under a deny or ask rule
    Handed,
    /// a directory `mkdir -p` makes on the way to its operand where it is missing: decided as
    /// [`WriteKind::Handed`] is, and not at all where it is a directory already
    Parent,
    /// a directory `mkdir` makes: a write, also allowed where an allow rule allows files in
    /// it (`mkdir -p docs/guide` under `docs/**/*.md`)
    MakeDir,
    /// cp's DEST: written unless it is a directory (then the sources go below it)
    Onto,
    /// `DEST/NAME` for each source cp copies: written only where DEST is a directory
    Into,
    /// a source `mv` moves away: a write, and only modelled where it is no directory (one
    /// moves everything below it)
    Moved,
    /// what lies below a path a git pathspec names (`git restore docs` rewrites `docs/*`):
    /// written unless that path is a file
    Below,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Write {
    /// The target as written (relative paths are relative to `cwd`).
    pub path: Word,
    pub kind: WriteKind,
    /// The directory the write happens in, relative to where the command starts: `None` when
    /// a `cd` made it unknowable, `Some("")` when unchanged.
    pub cwd: Option<String>,
}

impl Write {
    pub fn display(&self) -> String {
        let op = match self.kind {
            WriteKind::Redirect => ">",
            WriteKind::Append => ">>",
            WriteKind::Tee | WriteKind::Onto | WriteKind::Into | WriteKind::Below => "writes",
            WriteKind::Moved => "moves",
            WriteKind::List => "lists",
            WriteKind::Handed => "may write",
            WriteKind::Parent => "may make directory",
            WriteKind::MakeDir => "makes directory",
        };
        format!("{op} {}", self.path.display())
    }
}

/// Everything found in one shell text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Analysis {
    pub commands: Vec<SimpleCommand>,
    pub writes: Vec<Write>,
    /// Files read through input redirections (`< file`, `3< file`).
    pub reads: Vec<Write>,
    /// Reasons the text as a whole cannot be known (a parse error, nesting too deep).
    pub unknown: Vec<String>,
    /// The text turns on globs that match dot files (`shopt -s dotglob`, `GLOBIGNORE=...`).
    pub dotglob: bool,
    /// The text sets a trap's action (directly, through `eval`, a function, ...): code that
    /// may run after its last command.
    pub traps_set: bool,
    /// How many redirections of the standard error onto another descriptor (`2>&1`, `|&`)
    /// were walked: one in a stage makes its output no listing.
    pub(crate) stderr_merges: usize,
    /// The functions the text calls; and whether something may call one unseen (a command
    /// named at run time, `source`, `eval` of run-time text). Read by [`analyze`].
    pub(crate) calls: Vec<String>,
    pub(crate) hidden_calls: bool,
    /// Names given the integer attribute after functions were defined: a body that assigns
    /// one was walked where it was defined, the name not an integer yet, so a call gate does
    /// not see (`hidden_calls`) may evaluate its value as arithmetic unseen. Read by
    /// [`analyze`].
    pub(crate) late_integers: Vec<String>,
    /// Functions whose body is walked only where it is called, with the call's words as its
    /// positional parameters, where nothing may call one unseen (red team 41: `count_lines(){
    /// wc -l "$1"; }; count_lines src/a.rs` was asked, the body read with `$1` unknown).
    pub(crate) deferred: Vec<String>,
    /// Every function definition seen, by name, once per definition: a function defined more
    /// than once is never deferred, and a call of it walks every body (red team 44: which
    /// body runs depends on branches, subshells, traps, loops and `readonly -f`).
    pub(crate) defined: Vec<String>,
    /// While a loop reads names from its input: the commands in its body that may read that
    /// input too.
    pub(crate) stdin_readers: Option<Vec<String>>,
    /// What commands whose output gate knows print (`printf 'r%s -rf x' m`): text that may
    /// run later (red team 62: `printf ... > f && sh f`), for the scan of code run unseen.
    pub produced: Vec<String>,
    /// The text took the directory it starts in for its repository's top (`cd "$(git
    /// rev-parse --show-toplevel)"` there): the policy holds it only where the edge finds
    /// `.git` there (red teams 66, 67).
    pub at_git_top: bool,
    /// The text took an unquoted `$PWD` or `$(pwd)` for one word (`cat $PWD/src/lib.rs`): the
    /// policy holds it only where the directory the command starts in has no character word
    /// splitting or a glob would act on (red team 74).
    pub plain_start: bool,
    /// Paths the text names below its repository's top without a fallback (`cat "$(git
    /// rev-parse --show-toplevel)/src/a.rs"`), each as walked (`./src/a.rs`) and as it is where
    /// git prints nothing (a repository owned by another user, `GIT_DIR` in the agent's
    /// environment): `/src/a.rs`. The policy holds them only where nothing is at the latter's
    /// first name (`/src`), so that it reads nothing, and nothing in the call writes them.
    pub no_top: Vec<(String, String)>,
    /// Read by [`analyze_entering`] only: the directories (relative to the start, or
    /// absolute; as written, `..` kept) that a `cd`, `pushd` or `popd` whose failure bash
    /// would go past was taken to enter. The policy holds that reading only where the edge
    /// finds each a directory the process may enter and the call does not write (otherwise it
    /// decides the reading where each may fail, [`analyze`]'s).
    pub entered: Vec<String>,
}

/// How a path git opens from the top of its work tree is shown, before the path as written
/// (`git blame --contents=F`): the policy knows where that top is only from the edge.
pub const FROM_GIT_TOP: &str = "(the repository's top)/";

/// Before a word only known at run time after `--` of git's history commands (`git log -1 --
/// "$f"`): git matches it against the repository's paths, never a file outside the
/// repository, and reads no file from the disk for it (the policy decides it so where the
/// repository is the workspace, and as the word read anywhere else).
pub const GIT_PATHSPEC: &str = "(a pathspec of the repository) ";

/// How a path xargs adds to a command at run time is shown.
pub const ADDED_AT_RUN_TIME: &str = "(paths added at run time)";

/// The start point of a listing whose names are bare, not below a start point as find's are
/// (`ls docs` prints `a.md`, `git ls-files` `-x` for a file `-x` at the top): the directory
/// the command runs in, as `find .` (the same directory to every reader of it), spelled so that
/// the edge looks for a name that starts with `-` below it.
pub const BARE_NAMES: &str = "./";

/// How deep `bash -c`, `eval` and substitutions may nest before gate gives up (and asks).
pub const MAX_DEPTH: usize = 16;

/// Analyse shell text. Never panics on any input (fuzzed); what it cannot understand is
/// reported in `unknown` or on the command concerned.
pub fn analyze(text: &str) -> Analysis {
    let entering = (ENTERING.get() > 0, SKIPPING_DOTS.get() > 0, QUOTING_WC.get() > 0);
    if KEEPING.get() > 0 {
        if let Some(a) =
            KEPT.with_borrow(|k| k.as_ref().filter(|(t, e, _)| t == text && *e == entering).map(|(_, _, a)| a.clone()))
        {
            return a;
        }
    }
    let mut a = Analysis::default();
    walk::analyze_into(text, 0, &mut a, &mut dirs::Cwd::start());
    // A name given the integer attribute after functions were defined, where a call may be
    // unseen (where every call is seen, each walks the body with the attribute as it is).
    if a.hidden_calls {
        if let Some(n) = a.late_integers.first() {
            let reason = format!(
                "{n} gets the integer attribute after functions were defined that may assign it, and a function may be called where gate does not see it"
            );
            a.unknown.push(reason);
        }
    }
    // A second reading where every call of a function was seen: its body walked at each
    // call only, with the call's words, not also where it is defined with its parameters
    // unknown. (A call with words gate does not know walks the body with its parameters
    // unknown, as its definition did.)
    if !a.hidden_calls && !a.calls.is_empty() {
        let mut deferred = std::mem::take(&mut a.calls);
        deferred.sort();
        deferred.dedup();
        deferred.retain(|f| a.defined.iter().filter(|d| *d == f).count() == 1);
        let mut b = Analysis { deferred, ..Analysis::default() };
        walk::analyze_into(text, 0, &mut b, &mut dirs::Cwd::start());
        a = b;
    }
    if a.dotglob {
        dotted_globs(&mut a);
    }
    through_made_links(&mut a);
    if KEEPING.get() > 0 {
        KEPT.set(Some((text.to_string(), entering, a.clone())));
    }
    a
}

/// [`analyze`], where each `cd`, `pushd` or `popd` whose failure bash would go past (`cd docs;
/// ls`, on its own in a list or on a line) is taken to succeed: what follows is walked from
/// where it lands only, and the directory is listed in [`Analysis::entered`]. Sound only where
/// each of those is a directory when the call runs, which the edge checks. (What the stack
/// held before the call is still unknown: a `popd` past what the text pushed is not followed.)
pub fn analyze_entering(text: &str) -> Analysis {
    let _on = entering_dirs();
    analyze(text)
}

/// While the returned guard lives, [`analyze`] on this thread reads as
/// [`analyze_entering`] does: one decision whose entered directories the edge found holds it,
/// so that every look at the command (as written, its paths resolved, its scripts) agrees.
pub fn entering_dirs() -> Reading {
    Reading::open(&ENTERING)
}

/// A way of reading that [`analyze`] on this thread follows while the guard lives
/// ([`entering_dirs`], [`skipping_dots`]): it counts itself in that reading's counter and out
/// again when dropped. Not `Send`: it must end on the thread that opened it.
pub struct Reading {
    counter: &'static std::thread::LocalKey<std::cell::Cell<u32>>,
    _thread: std::marker::PhantomData<*const ()>,
}

impl Reading {
    fn open(counter: &'static std::thread::LocalKey<std::cell::Cell<u32>>) -> Reading {
        counter.set(counter.get() + 1);
        Reading { counter, _thread: std::marker::PhantomData }
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        self.counter.set(self.counter.get().saturating_sub(1));
    }
}

/// Whether [`analyze`] reads as [`analyze_entering`] (for the walker).
pub(crate) fn entering() -> bool {
    ENTERING.get() > 0
}

/// While the returned guard lives, [`analyze`] on this thread reads globs as a bash whose
/// `globskipdots` is on (bash 5.2's default) expands them: no pattern matches `.` or `..`, so
/// `ls -d .*` names only the dot files where it runs. The edge opens it where the bash on this
/// machine has that option on ([`crate::policy::Edge::skips_dot_names`]); a text that turns it
/// off (`shopt -u globskipdots`) is unmodelled anyway, and one run by a POSIX `sh` that holds
/// such a glob too.
pub fn skipping_dots() -> Reading {
    Reading::open(&SKIPPING_DOTS)
}

/// Whether globs are read as [`skipping_dots`] says.
pub(crate) fn skips_dots() -> bool {
    SKIPPING_DOTS.get() > 0
}

/// While the returned guard lives, [`analyze`] on this thread reads `wc`'s output as GNU wc
/// 8.25 and later prints it: one line a file, a name holding a line end quoted (`'a'$'\n''b'`),
/// so the first field of each line is a count (`while read -r n _; do total=$((total + n));
/// done < <(wc -l src/*.rs)`). The edge opens it where the `wc` on the PATH is such a one
/// ([`crate::policy::Edge::wc_quotes_names`]); elsewhere (BSD, BusyBox) a line may be the
/// rest of a name, which arithmetic would evaluate.
pub fn wc_quoting() -> Reading {
    Reading::open(&QUOTING_WC)
}

/// Whether `wc`'s output is read as [`wc_quoting`] says.
pub(crate) fn quotes_wc() -> bool {
    QUOTING_WC.get() > 0
}

/// Whether a text may read `wc`'s output with `read` or `awk` (only such a text asks the edge
/// which `wc` this machine has).
pub fn reads_wc_lines(text: &str) -> bool {
    text.contains("wc ") && (text.contains("read") || text.contains("awk"))
}

/// Whether a text holds a glob segment that starts with `.` and a wildcard or bracket (`.*`,
/// `.?`, `.[...]`), which a bash without `globskipdots` matches with `.` and `..`: only such
/// a text asks the edge whether this machine's bash skips them.
pub fn has_dot_glob(text: &str) -> bool {
    text.match_indices('.').any(|(i, _)| {
        text[i + 1..].starts_with(['*', '?', '['])
            && (i == 0 || text[..i].ends_with(|c: char| c == '/' || c.is_whitespace() || "'\"=(\\".contains(c)))
    })
}

/// A write to a name the text itself makes a link (`ln -s ../.env docs/e.md && echo x >
/// docs/e.md`, red team 57) lands in the file the link leads to, which the edge cannot see
/// yet: each such write is also decided as a write of that file, read both as a symbolic
/// link's text (from the link's directory) and as a path from where `ln` ran (a hard link,
/// `ln -r`).
fn through_made_links(a: &mut Analysis) {
    let join = |cwd: &Option<String>, p: &str| -> Option<String> {
        let cwd = cwd.as_ref()?;
        let full = if p.starts_with('/') || cwd.is_empty() { p.to_string() } else { format!("{cwd}/{p}") };
        let mut parts: Vec<&str> = Vec::new();
        for seg in full.split('/') {
            match seg {
                "" | "." => {}
                ".." => {
                    if parts.pop().is_none() && !full.starts_with('/') {
                        parts.push("..");
                    }
                }
                s => parts.push(s),
            }
        }
        Some(format!("{}{}", if full.starts_with('/') { "/" } else { "" }, parts.join("/")))
    };
    let base = |p: &str| p.trim_end_matches('/').rsplit('/').next().unwrap_or(p).to_string();
    // (link name, what it leads to, whether that is a glob or other run-time word), both from
    // where the text started. `link A B` is `ln A B` (red team 59: `link .env docs/e.md`); a
    // target only known at run time (red team 59: `ln .e* docs/x.md`) is written as that word.
    let mut links: Vec<(String, String, bool)> = Vec::new();
    let mut globbed: Vec<&str> = Vec::new();
    for c in a.commands.iter().filter(|c| matches!(c.program(), Some("ln" | "link"))) {
        let mut operands: Vec<&str> = Vec::new();
        let mut dir: Option<&str> = None;
        let mut ended = c.program() == Some("link");
        let mut it = c.words[1..].iter();
        while let Some(w) = it.next() {
            let t = match w {
                Word::Lit(t) => t.as_str(),
                Word::Dyn(d) => {
                    globbed.push(d);
                    operands.push(d);
                    continue;
                }
            };
            match t {
                "--" if !ended => ended = true,
                "-t" | "--target-directory" if !ended => dir = it.next().and_then(Word::lit),
                "-S" | "--suffix" if !ended => {
                    it.next();
                }
                _ if !ended && t.starts_with("--target-directory=") => dir = t.split_once('=').map(|(_, d)| d),
                _ if !ended && t.starts_with('-') && t.len() > 1 => {}
                _ => operands.push(t),
            }
        }
        let pairs: Vec<(String, &str)> = match (dir, operands.as_slice()) {
            (Some(d), targets) => targets.iter().map(|t| (format!("{d}/{}", base(t)), *t)).collect(),
            (None, [t]) => vec![(base(t), *t)],
            (None, [targets @ .., name]) => {
                let mut v: Vec<(String, &str)> = targets.iter().map(|t| (format!("{name}/{}", base(t)), *t)).collect();
                if let [t] = targets {
                    v.push((name.to_string(), *t));
                }
                v
            }
            _ => Vec::new(),
        };
        for (name, target) in pairs {
            if globbed.contains(&name.as_str()) {
                continue;
            }
            let Some(link) = join(&c.cwd, &name) else { continue };
            let parent = link.rsplit_once('/').map_or(String::new(), |(d, _)| d.to_string());
            let dynamic = globbed.contains(&target);
            for to in [join(&Some(parent), target), join(&c.cwd, target)].into_iter().flatten() {
                links.push((link.clone(), to, dynamic));
            }
        }
    }
    if links.is_empty() {
        return;
    }
    let mut extra = Vec::new();
    for w in &a.writes {
        let Word::Lit(p) = &w.path else { continue };
        let Some(at) = join(&w.cwd, p) else { continue };
        for (_, to, dynamic) in links.iter().filter(|(l, _, _)| *l == at) {
            let path = if *dynamic { Word::Dyn(to.clone()) } else { Word::Lit(to.clone()) };
            extra.push(Write { path, kind: w.kind, cwd: Some(String::new()) });
        }
    }
    a.writes.extend(extra);
}

/// Under dotglob, a glob segment that starts with a wildcard also matches names that start
/// with a dot (red team 40: `shopt -s dotglob; sed -i ... *` edits `.env`): each such write
/// and read is also decided as its dotted spelling (`*` as `.*`, `src/?x` as `src/.x`, `[ab.]x` as `.x`).
fn dotted_globs(a: &mut Analysis) {
    // A segment's dotted spellings: `*` under dotglob never matches `.` or `..`, in any bash,
    // so its are `.[!.]*` and `..?*`, which do not either (a listing stays where it was); the
    // one character `?` or a bracket matches is the dot (red team 47: `?env` writes `.env`).
    let spellings = |s: &str| -> Vec<String> {
        match s.as_bytes().first() {
            Some(b'*') => vec![format!(".[!.]{s}"), format!("..?{s}")],
            Some(b'?') => vec![format!(".{}", &s[1..])],
            Some(b'[') => match s.get(2..).and_then(|r| r.find(']')) {
                Some(k) => vec![format!(".{}", &s[k + 3..])],
                None => vec![format!(".{s}")],
            },
            _ => Vec::new(),
        }
    };
    let dotted = |w: &Write| -> Vec<Write> {
        let Word::Dyn(d) = &w.path else { return Vec::new() };
        if d.contains(['$', '`', '\'', '"', '\\', '{']) || !d.contains(['*', '?', '[']) {
            return Vec::new();
        }
        let segs: Vec<&str> = d.split('/').collect();
        let mut paths: Vec<String> = Vec::new();
        // Each segment dotted alone, and every one dotted at once (`*/*` may be `src/.env`,
        // `.git/x` or `.a/.b`).
        let mut all: Vec<String> = segs.iter().map(|s| s.to_string()).collect();
        for (k, s) in segs.iter().enumerate() {
            let forms = spellings(s);
            if let Some(first) = forms.first() {
                all[k] = first.clone();
            }
            for f in forms {
                let mut one: Vec<String> = segs.iter().map(|s| s.to_string()).collect();
                one[k] = f;
                paths.push(one.join("/"));
            }
        }
        paths.push(all.join("/"));
        paths.sort();
        paths.dedup();
        paths.retain(|p| p != d);
        paths.into_iter().map(|p| Write { path: Word::Dyn(p), ..w.clone() }).collect()
    };
    let writes: Vec<Write> = a.writes.iter().flat_map(dotted).collect();
    let reads: Vec<Write> = a.reads.iter().flat_map(dotted).collect();
    a.writes.extend(writes);
    a.reads.extend(reads);
}

/// The last analysis [`keep_last`] keeps: its text, how it was read ([`entering_dirs`],
/// [`skipping_dots`], [`wc_quoting`]), and the result.
type Kept = (String, (bool, bool, bool), Analysis);

thread_local! {
    static KEEPING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    static KEPT: std::cell::RefCell<Option<Kept>> = const { std::cell::RefCell::new(None) };
    static ENTERING: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    static SKIPPING_DOTS: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
    static QUOTING_WC: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// While the returned guard lives, [`analyze`] on this thread keeps its last result and answers
/// the same text again with a copy of it instead of parsing it twice. Sound because an
/// analysis is a function of the text alone (and of the reading, [`entering_dirs`]). One decision that looks at a command twice (as
/// written, then for the paths in it) holds a guard; nothing outlives it.
pub fn keep_last() -> KeepLast {
    KEEPING.set(KEEPING.get() + 1);
    KeepLast(std::marker::PhantomData)
}

/// See [`keep_last`]. Not `Send`: it must end on the thread whose memo it opened.
pub struct KeepLast(std::marker::PhantomData<*const ()>);

impl Drop for KeepLast {
    fn drop(&mut self) {
        KEEPING.set(KEEPING.get().saturating_sub(1));
        if KEEPING.get() == 0 {
            KEPT.set(None);
        }
    }
}
