//! The walker over brush-parser's syntax tree. Every construct that can run a command is
//! visited; every construct that is not understood makes the result unknown.

use brush_parser::ast;
use brush_parser::word::{self as bword, ParameterExpr, WordPiece, WordPieceWithSource};

use super::abort;
use super::dirs::Cwd;
use super::grammar;
use super::tables::{self, harmless_setting, is_identifier, WrapperSpec};
use super::unwrap::{option_commands, script_flag, skip_options, split_find, xargs_replace_str};
use super::words::{arithmetic_reads_variables, decode_ansi_c, expands, nesting_depth};
use super::words::{braced_rewritten, Braces};
use super::{
    program_name, Analysis, SimpleCommand, Split, Word, Wrapper, WrapperKind, Write, WriteKind, ADDED_AT_RUN_TIME,
    MAX_DEPTH,
};

/// Deepest nesting of brackets, substitutions and compound commands parsed at all.
const MAX_NESTING: usize = 16;

fn parser_options() -> brush_parser::ParserOptions {
    brush_parser::ParserOptions::default()
}

/// Parse `text` and add what it runs and writes to `a`.
pub(crate) fn analyze_into(text: &str, depth: usize, a: &mut Analysis, cwd: &mut Cwd) {
    // Fullwidth digits stand for the digits of values gate only samples (`date +%s`,
    // [`is_sample_digit`]): a text that holds some itself is not read (red team 112 A: `n=１`
    // was taken for a sample of one integer, where arithmetic refuses it).
    if depth == 0 && holds_sample(text) {
        a.unknown.push("the text holds fullwidth digits, which gate keeps for values it only samples".into());
    }
    let mut w = Walker {
        a,
        depth,
        cwd,
        wrappers: Vec::new(),
        stdin_script: None,
        piped_in: None,
        stage_output: None,
        replace_str: None,
        last_arg: None,
        dollar_underscore: None,
        simple_last: None,
        stdin_listing: None,
        stdin_lines: Lines::Other,
        fed_args: Vec::new(),
        params: None,
        next_params: None,
        functions: Vec::new(),
        sure: Vec::new(),
        unsure: 0,
        params_at: (0, 0),
        line_abort: None,
        in_line: false,
        readonly: Vec::new(),
        failglob: false,
        integer_names: Vec::new(),
        may_fail_text: false,
        conditional: 0,
        last_line_at: 0,
        same_shell: false,
        bodies: Vec::new(),
        traps: Vec::new(),
        rewalked: 0,
        unrolled: 0,
        locals: Vec::new(),
        defining: Vec::new(),
        integers: Vec::new(),
        errexit: false,
        bound: Vec::new(),
        assigned: Vec::new(),
        jumps: 0,
        in_eval: false,
        alt_cwd: None,
        rewalks: 0,
        counters: Vec::new(),
        untrusted_values: false,
        attributed: Vec::new(),
        cased: Vec::new(),
        plain: Vec::new(),
        keyed: Vec::new(),
        arrays: Vec::new(),
        declared_arrays: Vec::new(),
        declared_here: Vec::new(),
        glob_pieces: None,
        stdin_moved: false,
        stdout_piped: false,
        own_stdin: false,
        redirected: false,
        loose_assignments: false,
        allexport: false,
        listings: Vec::new(),
        command_env: Vec::new(),
        std_closed: false,
        split_names: Vec::new(),
        restricted: false,
        read_fds: Vec::new(),
        globbed: false,
        assigning: false,
        cwd_tilde: false,
        cwd_after: None,
        exiting: false,
        exit_trap: false,
        keep_alt: false,
    };
    w.script(text);
    // An action that expands a value runs once more as the shell exits, with the values of
    // then (red team 75: `trap 'echo $x' EXIT; x='/etc/*'` lists /etc).
    let traps = std::mem::take(&mut w.traps);
    for action in traps.iter().filter(|a| a.contains('$')) {
        w.walk_again(|x| x.nested(action, None));
    }
}

/// Variables bash itself gives the integer attribute: a value assigned to one is evaluated
/// as arithmetic, and a subscript in it runs its `$(...)` (`OPTIND='a[$(cmd)]'`).
const BASH_INTEGERS: &[&str] = &["OPTIND", "RANDOM", "SRANDOM", "HISTCMD", "BASHPID", "PPID", "UID", "EUID", "SECONDS"];

struct Walker<'a> {
    a: &'a mut Analysis,
    depth: usize,
    cwd: &'a mut Cwd,
    /// Wrappers around the script being walked (`sudo bash -c '...'`): prepended to every
    /// command found inside.
    wrappers: Vec<Wrapper>,
    /// What the simple command being walked reads on its standard input from a heredoc or
    /// here-string: `Some(Ok(text))` when known, `Some(Err(()))` when only known at run time.
    stdin_script: Option<Result<String, ()>>,
    /// What the pipeline stage before this simple command writes, where gate knows it
    /// (`echo TEXT |`, `cat <<EOF |`): its standard input.
    piped_in: Option<String>,
    /// What the simple command just walked writes to its standard output, where gate knows it.
    stage_output: Option<String>,
    /// Text that xargs or find substitutes into the command's arguments at run time.
    replace_str: Option<String>,
    /// The last word of the simple command walked last, where the next one surely runs right
    /// after it (`mkdir -p docs/x && cd "$_"`): what bash's `$_` then holds. `None` after
    /// anything else (a pipeline, a compound command, a list that may have skipped it).
    last_arg: Option<String>,
    /// `$_` in the simple command being walked ([`Walker::last_arg`] when it began).
    dollar_underscore: Option<String>,
    /// The literal last word of the simple command being walked, once its words are known.
    simple_last: Option<String>,
    /// The command being walked reads, on its standard input, the listing this `find` prints
    /// (its words: `find src | xargs ...`): what xargs appends is paths under its start points.
    stdin_listing: Option<Vec<Word>>,
    /// What the lines the command being walked reads on its standard input are known to be:
    /// object names git lists one a line (`git log --format=%H -n 3 | while read -r sha`: red
    /// team 67), or `wc`'s counts.
    stdin_lines: Lines,
    /// The listing a command's last word substitutes (`wc -l $(find src -name '*.rs')`), as
    /// the `find` xargs would hand its names on from: taken by the next [`Walker::unwrap`].
    fed_args: Vec<Word>,
    /// The positional parameters `$1`, `$2`, ... of a `sh -c TEXT NAME ARGS...` script.
    params: Option<Vec<Word>>,
    /// Those to give the next nested script (set by `sh -c` just before nesting it).
    next_params: Option<Vec<Word>>,
    /// Functions this script defines (a call of one may do anything its body does).
    functions: Vec<String>,
    /// Those whose definition certainly ran before this point (not in a branch, a loop, the
    /// right of `&&`/`||`, a subshell or another function) and was not unset since: a call of
    /// one runs its body, which is decided where it was defined (or again where it is called).
    sure: Vec<String>,
    /// How many enclosing constructs may not run what they hold (or run it in a subshell).
    unsure: usize,
    /// [`Walker::unsure`] and [`Walker::conditional`] where the positional parameters were
    /// given (a function's body walked with its call's words): `shift` surely runs there.
    params_at: (usize, usize),
    /// Within a top-level line: where a command that can abort the rest of the line (an
    /// arithmetic error, a read-only variable assigned, a bad subscript, a glob under
    /// `failglob`) began; what follows it on the line may not have happened.
    line_abort: Option<MayNotHappen>,
    /// Walking a top-level line (or what runs within it).
    in_line: bool,
    /// Variables the text makes read-only (`readonly x`, `declare -r x`), and whether it turns
    /// `failglob` on: both make errors that abort a line.
    readonly: Vec<String>,
    failglob: bool,
    /// Whether the text holds anything an error that ends a line can come from.
    may_fail_text: bool,
    /// The names the whole text may give the integer attribute ([`integer_names`]).
    integer_names: Vec<String>,
    /// Where in `a.commands` the commands of the last top-level line of the text this walker
    /// (or, after a nested walk, the nested one) walked begin.
    last_line_at: usize,
    /// How many enclosing branches (`if`, `case`) and loop bodies this text is in: there a
    /// `set --` may or may not run, so the positional parameters after it are not known.
    conditional: usize,
    /// The text about to be nested runs in this shell, later (a trap's action): it has this
    /// shell's functions.
    same_shell: bool,
    /// Their bodies and where they were defined, walked again where one is called from
    /// another directory: a body runs in the caller's directory, not where it was defined (sixth red team: `cd src; ls(){ cat ../x; }; cd ..; ls`).
    bodies: Vec<(String, ast::FunctionBody, Cwd)>,
    /// Trap actions set so far, walked again after every change of directory: an action runs
    /// wherever the shell is when it fires.
    traps: Vec<String>,
    /// How many bodies and actions were walked again (at most [`MAX_REWALKED`]).
    rewalked: usize,
    /// Passes of loops walked one by one so far ([`MAX_UNROLLED`] in all: nested loops
    /// multiply them).
    unrolled: usize,
    /// Names a function's body being walked made local (`local f`, `declare f` there), each
    /// with the length of [`Self::assigned`] when it did: what the body assigns to them after
    /// that is not the caller's.
    locals: Vec<(String, usize)>,
    /// The functions whose bodies are being walked: a call of one of them from its own body
    /// recurses (`:(){ :|:& };:`, the fork bomb) and is never allowed.
    defining: Vec<String>,
    /// Variables with the integer attribute (bash's own, and those given it by `declare -i`
    /// anywhere earlier, in any scope: kept once seen).
    integers: Vec<String>,
    /// `set -e` is on: a failing command on its own ends the script.
    errexit: bool,
    /// Variables whose value gate knows (`f=src/a.rs`, `files=(src/*.rs)`, a loop's variable):
    /// `"$f"` and `"${files[@]}"` are these words. A run-time glob stays a glob (`src/*`), which
    /// the policy decides by what it can expand to.
    bound: Vec<(String, Vec<Word>)>,
    /// Every variable name assigned so far, in order (to see what a loop body or a branch
    /// changed).
    assigned: Vec<String>,
    /// How many `break`, `continue`, `return` and `exit` have been walked (an unrolled loop
    /// with one is not followed iteration by iteration).
    jumps: usize,
    /// The next nested script is `eval`'s: it runs in this shell and sees its variables.
    in_eval: bool,
    /// Set by a list item that is one `cd` (or `pushd`) whose failure bash would go past:
    /// the directory the commands after it run in if it failed. The enclosing list walks
    /// what follows from both directories.
    alt_cwd: Option<Cwd>,
    /// The counters of the `for ((...))` loops walked as passes over their numbers, innermost
    /// last, each with whether anything in its body assigned it ([`Self::unbind`]).
    counters: Vec<(String, bool)>,
    /// How many such walks enclose this point (at most [`MAX_REWALKS`]; beyond, the directory
    /// is forgotten).
    rewalks: usize,
    /// A trap that runs at any later point (DEBUG before every command, ERR, RETURN, a
    /// signal the script can send itself) is installed: its action may assign any variable
    /// between any two commands, so no value is believed from here on (fourth red team).
    untrusted_values: bool,
    /// Names given an attribute that changes or blocks later assignments (`readonly`, `-r`,
    /// `-l`, `-u`): a later `x=VALUE` may fail or store another value (fifth red team).
    attributed: Vec<String>,
    /// Names given `-l`, `-u` or `-c` (and not `-r`), with the letter: a literal value given
    /// later is stored in that case ([`Walker::bind`]).
    cased: Vec<(String, char)>,
    /// Variables assigned here whose value is unknown but holds no text the command could have
    /// written in (a number, a commit id, names a listing printed): an unquoted expansion of
    /// one is split and globbed like any, but globs only names where they came from. Any
    /// other variable assigned here with an unknown value may hold a glob (red team 40).
    plain: Vec<String>,
    /// Names a `declare`, `local` or `typeset` gave `-A` or `-n` anywhere so far, in any scope
    /// and whether or not bash made it so (kept once seen): their keys may be words. Any other
    /// array the text assigned is indexed, its keys numbers.
    keyed: Vec<String>,
    /// Names made arrays anywhere so far (`a=(...)`, `a[1]=`, `declare -a`, `read -a`,
    /// `mapfile`), in any scope, kept once seen; `*` for a name gate could not read. A
    /// `declare a=VALUE` of such a name reads VALUE again as `a=(...)`.
    arrays: Vec<String>,
    /// Arrays a declaration builtin's words give (`declare -a f=(src/*.rs)`), bound once the
    /// builtin has run.
    declared_arrays: Vec<(String, Vec<Word>)>,
    /// Names a declaration builtin's words give the directory it runs in (`export
    /// ROOT="$PWD"`), kept as `ROOT=$PWD` keeps it once the builtin has run.
    declared_here: Vec<String>,
    /// While [`Walker::word`] reads a word: where in its text names of globs were put
    /// ([`Walker::glob_name_piece`]); `None` elsewhere (a here-document's text, arithmetic).
    glob_pieces: Option<Vec<(usize, usize)>>,
    /// The standard input of what is walked is not the one the enclosing text started with
    /// (a later stage of a pipeline, a compound command's redirection).
    stdin_moved: bool,
    /// The standard output of what is walked goes to the next stage of a pipeline (no
    /// terminal).
    stdout_piped: bool,
    /// The simple command being walked redirects its own standard input.
    own_stdin: bool,
    /// The simple command being walked has a redirection (which may fail, and then the
    /// command does not run).
    redirected: bool,
    /// `set -a` (`-o allexport`) is on: a function defined now is exported to child shells.
    allexport: bool,
    /// The simple command being unwrapped has `NAME=VALUE` words after a command word that
    /// is not, as written, a declaration builtin (`command declare x=$v`): bash split and
    /// globbed them, so a run-time one may give any name.
    loose_assignments: bool,
    /// The listings arrays `mapfile -t NAME < <(LISTING)` were filled from, a name a line (or,
    /// with `-d ''`, a NUL-separated record), and whether NUL-separated: NAME is bound to
    /// [`LISTED_ARRAY`] and the index here, so that a subshell's, a branch's or a function's
    /// array goes where its other bindings go.
    listings: Vec<(Vec<Word>, bool)>,
    /// The literal values the current command's own assignments put in its environment
    /// (`V=x git --config-env=k=V`): what the program sees, not the shell's words.
    command_env: Vec<(String, Vec<Word>)>,
    /// A redirection closed a standard descriptor (`exec 2>&-`): duplicating it can fail.
    std_closed: bool,
    /// Listings (as `find BASE`) whose names an unquoted name of a glob split at blanks and
    /// globbed again ([`Walker::split_glob_name`]), put on the next command recorded: the
    /// edge asks where a name below holds a blank or a glob character.
    split_names: Vec<Wrapper>,
    /// `set -r` turned on the restricted shell: every output redirection fails, even to
    /// `/dev/null`, and `cd` is refused (red team 90: `set -r; cd docs; cat ../x` read the
    /// directory above the workspace).
    restricted: bool,
    /// Descriptors a redirection opened on a file for reading (`3<Cargo.toml`, `<.env` for
    /// 0), with the file: one put where the standard output or error go (`>&3`) is a file a
    /// program that opens `/dev/stdout` by name writes (red team 50: `tee /dev/stdout >&3`).
    read_fds: Vec<(u32, Word)>,
    /// The word being resolved holds an unquoted glob (bash expands it against the files).
    globbed: bool,
    /// The word being resolved is an assignment's value: bash neither splits nor globs it
    /// (`x=/etc/*` stores the text `/etc/*`).
    assigning: bool,
    /// The current command's words hold a `~+` or `~-` gate wrote relative to the current
    /// directory: bash expands them to absolute paths, so a variable bound to one would name
    /// another place after a `cd` (`x=~+; cd docs && echo > $x/a.md` writes `./a.md`).
    cwd_tilde: bool,
    /// The directory the current command left, where a wrapper runs it in another one (`env
    /// -C docs cat a.md`): back once it is decided.
    cwd_after: Option<Cwd>,
    /// Walking an action that runs only as the shell exits (`trap '...' EXIT`): a directory
    /// change there moves nothing that runs after the action.
    exiting: bool,
    /// The next nested walk is such an action.
    exit_trap: bool,
    /// The list about to be walked is a top-level line: a `cd` that may fail at its end
    /// leaves `alt_cwd` for the next line instead of forgetting the directory.
    keep_alt: bool,
}

/// Nested walks from both directories of a `cd` that may fail (each doubles what follows).
/// bash's builtins: a function of the same name is decided as the builtin as well.
const BASH_BUILTINS: &[&str] = &[
    ":",
    ".",
    "[",
    "alias",
    "bg",
    "bind",
    "break",
    "builtin",
    "caller",
    "cd",
    "command",
    "compgen",
    "complete",
    "compopt",
    "continue",
    "declare",
    "dirs",
    "disown",
    "echo",
    "enable",
    "eval",
    "exec",
    "exit",
    "export",
    "false",
    "fc",
    "fg",
    "getopts",
    "hash",
    "help",
    "history",
    "jobs",
    "kill",
    "let",
    "local",
    "logout",
    "mapfile",
    "popd",
    "printf",
    "pushd",
    "pwd",
    "read",
    "readarray",
    "readonly",
    "return",
    "set",
    "shift",
    "shopt",
    "source",
    "suspend",
    "test",
    "times",
    "trap",
    "true",
    "type",
    "typeset",
    "ulimit",
    "umask",
    "unalias",
    "unset",
    "wait",
];

/// Whether `set -e` can be trusted to end the script at a failed command. It cannot: bash
/// ignores errexit inside any command of an `&&` or `||` list but the last, and agents run
/// the command that way (Claude Code's shell tool: `eval 'COMMAND' < /dev/null && pwd -P
/// >| FILE`), so `set -e; cd build; cat ../x` reads `../x` from the start when `cd` fails (red
/// team 41). A failed `cd` is followed from both directories whatever errexit says.
const ERREXIT_HOLDS: bool = false;

/// How many function bodies and trap actions one command walks again where they run.
const MAX_REWALKED: usize = 64;
const MAX_REWALKS: usize = 4;

/// Branches of `if` and `case`: each starts from the state before them; afterwards the
/// directory is unknown if any branch changed it, and so is every variable any assigned.
struct Branches {
    cwd: Cwd,
    bound: Vec<(String, Vec<Word>)>,
    log: usize,
    moved: bool,
    /// Names some branch left holding no number, and some no single integer.
    not_numbers: Vec<String>,
    not_integers: Vec<String>,
}

impl Branches {
    fn start(w: &Walker<'_>) -> Branches {
        Branches {
            cwd: w.cwd.clone(),
            bound: w.bound.clone(),
            log: w.assigned.len(),
            moved: false,
            not_numbers: Vec::new(),
            not_integers: Vec::new(),
        }
    }

    fn enter(&self, w: &mut Walker<'_>) {
        *w.cwd = self.cwd.clone();
        w.bound = self.bound.clone();
        w.conditional += 1;
    }

    fn leave(&mut self, w: &mut Walker<'_>) {
        self.moved |= *w.cwd != self.cwd;
        w.conditional -= 1;
        // (A log shorter than at the start: every name, as [`Walker::may_not_have_happened`].)
        let changed = w.changed_since(self.log, &[]);
        for n in &changed {
            if !w.is_number(n) {
                self.not_numbers.push(n.clone());
            }
            if w.held(n) == abort::Held::Other {
                self.not_integers.push(n.clone());
            }
        }
    }

    /// After the branches: what any branch assigned is unknown, but a number where it held
    /// one before and every branch left one (red team 103: `errors=0; if ...; then
    /// errors=$((errors + 1)); fi; echo $errors` was asked).
    fn end(self, w: &mut Walker<'_>) {
        *w.cwd = self.cwd;
        if self.moved {
            w.cwd.forget();
        }
        w.bound = self.bound;
        let changed = w.changed_since(self.log, &[]);
        for n in changed {
            let number = w.is_number(&n) && !self.not_numbers.contains(&n);
            let integer = number && w.held(&n) != abort::Held::Other && !self.not_integers.contains(&n);
            w.unbind(&n);
            if integer {
                w.bind(&n, vec![Word::Dyn(INTEGER.into())]);
            } else if number {
                w.bind_number(&n);
            }
        }
    }
}

/// Whether a pipeline is `exit` or `return` (or a group that ends with one): the failure path
/// it is on ends there.
/// `in_function`: `return` ends something only inside a function (at the top level it fails
/// and bash goes on); `functions`: names the script defines (an `exit` function ends nothing).
/// A redirection that fails (`exit 0<&7`) skips the command, and `exit &` ends only a
/// background subshell (fifth red team).
fn ends_script(p: &ast::Pipeline, in_function: bool, functions: &[String]) -> bool {
    let [c] = p.seq.as_slice() else { return false };
    match c {
        ast::Command::Simple(sc) => {
            let plain = sc.prefix.is_none()
                && sc
                    .suffix
                    .as_ref()
                    .is_none_or(|s| s.0.iter().all(|i| matches!(i, ast::CommandPrefixOrSuffixItem::Word(_))));
            // `exit --help` prints help and goes on (red team 47: `cd X || exit --help` was
            // believed to end the script): its words must be ones that cannot be `--help`.
            let args_end = sc.suffix.as_ref().is_none_or(|s| {
                let words = s.0.iter().filter_map(|i| match i {
                    ast::CommandPrefixOrSuffixItem::Word(w) => Some(w.value.as_str()),
                    _ => None,
                });
                for raw in words {
                    if raw == "--" {
                        break;
                    }
                    let plain: String = raw.chars().filter(|c| !matches!(c, '\'' | '"' | '\\')).collect();
                    let status = matches!(plain.as_str(), "$?" | "${?}");
                    if (raw.contains(['$', '`']) && !status) || plain == "--help" {
                        return false;
                    }
                }
                true
            });
            plain
                && args_end
                && sc.word_or_name.as_ref().is_some_and(|w| {
                    (w.value == "exit" || (w.value == "return" && in_function)) && !functions.contains(&w.value)
                })
        }
        ast::Command::Compound(ast::CompoundCommand::BraceGroup(b), None) => b.list.0.last().is_some_and(|item| {
            item.0.additional.is_empty()
                && matches!(item.1, ast::SeparatorOperator::Sequence)
                && ends_script(&item.0.first, in_function, functions)
        }),
        _ => false,
    }
}

/// The most values a loop's passes are walked with, one by one (red team 69: `seq -w 1 12`,
/// `for ((i=1;i<=10;i++))`); a loop over more is walked as any other.
const MAX_PASSES: usize = 16;

/// The most passes of loops walked one by one in one text: beyond, a loop is walked as any
/// other (four nested loops of 16 would be 65536 passes).
const MAX_UNROLLED: usize = 256;

/// A whole word that is bash's integer sequence (`{1..5}`, `{10..0..2}`, `{01..10}`): its
/// numbers as bash writes them when there are at most [`MAX_PASSES`], `Some(None)` when more;
/// `None` when the word is no such sequence.
fn integer_sequence(word: &str) -> Option<Option<Vec<String>>> {
    let inner = word.strip_prefix('{')?.strip_suffix('}')?;
    let parts: Vec<&str> = inner.split("..").collect();
    if !(2..=3).contains(&parts.len()) {
        return None;
    }
    let int = |p: &str| -> Option<i64> {
        let digits = p.strip_prefix('-').unwrap_or(p);
        (!digits.is_empty() && digits.len() <= 9 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| p.parse().ok())
            .flatten()
    };
    let (a, b) = (int(parts[0])?, int(parts[1])?);
    let step = match parts.get(2) {
        Some(p) => int(p)?.unsigned_abs().max(1),
        None => 1,
    };
    let count = a.abs_diff(b) / step + 1;
    if count > MAX_PASSES as u64 {
        return Some(None);
    }
    // Zero-padded to the wider end when either end has a leading zero.
    let padded = |p: &str| p.trim_start_matches('-').len() > 1 && p.trim_start_matches('-').starts_with('0');
    let width = if padded(parts[0]) || padded(parts[1]) { parts[0].len().max(parts[1].len()) } else { 0 };
    let mut out = Vec::new();
    let mut n = a;
    for _ in 0..count {
        out.push(if n < 0 { format!("-{:0>w$}", -n, w = width.saturating_sub(1)) } else { format!("{n:0>width$}") });
        n = if a <= b { n + step as i64 } else { n - step as i64 };
    }
    Some(Some(out))
}

/// The variable a plain reference names: `$n` or `${n}` (no operator, no subscript).
pub(super) fn referenced_variable(text: &str) -> Option<&str> {
    let t = text.strip_prefix('$')?;
    let n = t.strip_prefix('{').and_then(|t| t.strip_suffix('}')).unwrap_or(t);
    is_identifier(n).then_some(n)
}

/// Whether a redirection gives standard input something else to read. `listed` says whether
/// a variable holds a name a listing printed (never `/dev/stdin`).
fn stdin_redirect(io: &ast::IoRedirect, listed: &dyn Fn(&str) -> bool) -> bool {
    use ast::IoFileRedirectKind as K;
    match io {
        // (Not `<&0`, `< /dev/stdin`: the same input again.)
        ast::IoRedirect::File(fd, kind, target) => {
            let same = match target {
                ast::IoFileRedirectTarget::Duplicate(w) => w.value.trim_matches(['"', '\'']) == "0",
                ast::IoFileRedirectTarget::Filename(w) => {
                    let t = w.value.trim_matches(['"', '\'']);
                    // (`< "docs/$name"` of a listed name is a file below `docs`: to be
                    // `/dev/stdin` the name would climb out from a listing of `/`, which is
                    // read outside the workspace; red team 74.)
                    let below = t.rsplit_once('/').is_some_and(|(dir, v)| {
                        !dir.is_empty()
                            && !dir.starts_with('/')
                            && dir.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_./".contains(&b))
                            && referenced_variable(v).is_some_and(listed)
                    });
                    (t.contains('$') || t.contains('`') || is_stdin_path(t))
                        && !referenced_variable(t).is_some_and(listed)
                        && !below
                }
                ast::IoFileRedirectTarget::Fd(f) => *f == 0,
                ast::IoFileRedirectTarget::ProcessSubstitution(..) => false,
            };
            fd.is_none_or(|f| f == 0) && matches!(kind, K::Read | K::ReadAndWrite | K::DuplicateInput) && !same
        }
        ast::IoRedirect::HereDocument(fd, _) | ast::IoRedirect::HereString(fd, _) => fd.is_none_or(|f| f == 0),
        ast::IoRedirect::OutputAndError(..) => false,
    }
}

/// Whether a redirection may give descriptor 0 another file: any of 0 itself (`0>&3`), an
/// input one of the default descriptor, a here-document or here-string.
fn may_move_stdin(io: &ast::IoRedirect) -> bool {
    use ast::IoFileRedirectKind as K;
    match io {
        ast::IoRedirect::File(fd, kind, _) => match fd {
            Some(f) => *f == 0,
            None => matches!(kind, K::Read | K::ReadAndWrite | K::DuplicateInput),
        },
        ast::IoRedirect::HereDocument(fd, _) | ast::IoRedirect::HereString(fd, _) => fd.is_none_or(|f| f == 0),
        ast::IoRedirect::OutputAndError(..) => false,
    }
}

/// Whether a simple command's own redirections send its standard output to a file or pipe
/// (`> f`, `1>> f`, `&> f`, `>& f`), not a copy of another descriptor (`>&2`).
fn sends_stdout(sc: &ast::SimpleCommand) -> bool {
    use ast::IoFileRedirectKind as K;
    redirects_of(sc).into_iter().any(|io| match io {
        ast::IoRedirect::OutputAndError(..) => true,
        ast::IoRedirect::File(fd, kind, target) => {
            fd.is_none_or(|f| f == 1)
                && match kind {
                    K::Write | K::Append | K::Clobber => true,
                    K::ReadAndWrite => *fd == Some(1),
                    K::DuplicateOutput => matches!(target, ast::IoFileRedirectTarget::Filename(_)),
                    _ => false,
                }
        }
        _ => false,
    })
}

/// Commands that never read their standard input.
const NO_STDIN: &[&str] = &[
    "echo", "printf", "cd", "pwd", "true", "false", ":", "export", "unset", "set", "shift", "test", "[", "local",
    "declare", "typeset", "readonly", "exit", "return", "let", "umask", "pushd", "popd", "dirs", "ls", "mkdir",
    "touch", "sleep", "basename", "dirname", "break", "continue",
];

/// Whether a command may read its standard input: not one of [`NO_STDIN`], nor a program
/// gate has the grammar of given files to read instead (none of them `-` or a value that
/// could be one), nor `grep PATTERN FILE...` without an option that takes a value.
fn may_read_stdin(c: &SimpleCommand) -> bool {
    if c.words.is_empty() {
        return false;
    }
    let Some(name) = c.program() else { return true };
    if NO_STDIN.contains(&name) {
        return false;
    }
    let file = |w: &Word| match w {
        Word::Lit(l) => !matches!(l.as_str(), "-" | "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0"),
        // (The listing's name, below its start points: never `-`.)
        Word::Dyn(d) => d.contains("{}"),
    };
    let args = &c.words[1..];
    // git's listings and inspections, none handed `-` or told to read it (red team 69: `git log
    // -1 -- "$f"` in a loop over names read from a pipe). (Not `shortlog`, which reads a log
    // there without a revision; nor `grep -f -`, `blame --contents -`, `--stdin`, `--batch`.)
    if name == "git" {
        const QUIET: &[&str] = &[
            "log",
            "show",
            "diff",
            "status",
            "rev-parse",
            "rev-list",
            "ls-files",
            "ls-tree",
            "describe",
            "merge-base",
            "show-ref",
            "for-each-ref",
            "cat-file",
        ];
        let sub = args.first().and_then(Word::lit).is_some_and(|s| QUIET.contains(&s));
        let stdin = |w: &Word| match w {
            Word::Lit(a) => {
                a == "-"
                    || a.ends_with("=-")
                    || a.starts_with("--stdin")
                    || a.starts_with("--batch")
                    || a == "--no-index"
            }
            // (The listing's name, below its start points: never `-`.)
            Word::Dyn(d) => !d.contains("{}"),
        };
        return !sub || args.iter().any(stdin);
    }
    if let Some(g) = grammar::grammar(name) {
        let Ok(p) = grammar::parse(g, args) else { return true };
        let skip = match g.files {
            grammar::Files::None => return true,
            grammar::Files::All => 0,
            grammar::Files::AfterFirst => usize::from(p.with('P').next().is_none()),
        };
        let files = p.operands.get(skip..).unwrap_or_default();
        return files.is_empty() || !files.iter().all(file);
    }
    if matches!(name, "grep" | "egrep" | "fgrep") {
        const PLAIN_LONGS: &[&str] = &[
            "--count",
            "--line-number",
            "--ignore-case",
            "--with-filename",
            "--no-filename",
            "--files-with-matches",
            "--files-without-match",
            "--invert-match",
            "--word-regexp",
            "--line-regexp",
            "--extended-regexp",
            "--fixed-strings",
            "--perl-regexp",
            "--quiet",
            "--silent",
            "--no-messages",
            "--only-matching",
            "--color",
            "--colour",
        ];
        let mut operands: Vec<&Word> = Vec::new();
        let mut ended = false;
        for w in args {
            match w.lit() {
                Some("--") if !ended => ended = true,
                Some(a) if !ended && a.starts_with("--") => {
                    if !PLAIN_LONGS.contains(&a) {
                        return true;
                    }
                }
                Some(a) if !ended && a.starts_with('-') && a.len() > 1 => {
                    if !a[1..].chars().all(|ch| "cHhilLnoqsvwxEFGPz".contains(ch)) {
                        return true;
                    }
                }
                _ => operands.push(w),
            }
        }
        return operands.len() < 2 || !operands[1..].iter().all(|w| file(w));
    }
    true
}

/// The prefix of the pseudo-variable that marks a name as an associative array (no variable
/// name holds `%`).
const ASSOCIATIVE: &str = "%assoc%";

/// The prefix of the pseudo-variable that holds the directory (relative to the start) a
/// variable was given by `d=$(pwd)` or `d=$PWD` (no variable name holds `%`): `cd "$d"` goes
/// back there.
const PWD_OF: &str = "%pwd%";
/// The second word of a [`PWD_OF`] binding whose value may also be nothing: git's top
/// without a fallback (`ROOT=$(git rev-parse --show-toplevel)`).
const NO_TOP: &str = "%no-top%";
/// The prefix of the pseudo-variable that holds the directory (relative to the start) a
/// `for` loop's pass over a glob ran in, beside the variable the pass bound (gone with any
/// other value it is given): where its name, unquoted, is split and globbed again.
const GLOB_DIR_OF: &str = "%glob-dir%";

/// The variable a pseudo-variable ([`PWD_OF`], [`GLOB_DIR_OF`]) goes with, which any new
/// value of it ends.
fn companion_of(pseudo: &str) -> Option<&str> {
    pseudo.strip_prefix(PWD_OF).or_else(|| pseudo.strip_prefix(GLOB_DIR_OF))
}

/// The longest printed text kept for the scan of code run unseen ([`Analysis::produced`]).
const MAX_PRODUCED: usize = 4096;

/// What the lines a command reads on its standard input are known to be
/// ([`Walker::stdin_lines`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Lines {
    /// Anything.
    #[default]
    Other,
    /// Object names git lists, one a line.
    Objects,
    /// `wc`'s lines: a count first.
    Counts,
    /// Numbers, one a line (`seq 1 5`); with `true`, each one plain integer (not `seq -w`'s
    /// `08`, nor `date +%F`).
    Numbers(bool),
}

/// What gate binds an array to that `mapfile` filled with a listing's names, before the
/// listing's index in [`Walker::listings`].
const LISTED_ARRAY: &str = "(names mapfile read from a listing) #";

/// What gate binds a variable to that holds the names a listing printed (`f=$(ls src/*.rs |
/// head -1)`), before the listing's index in [`Walker::listings`] ([`Walker::listed_value`]).
const LISTED_VALUE: &str = "(names a listing printed) #";

/// The value gate binds a variable to that holds a number it does not know: maybe several,
/// one a line, or with `.`, `-` or `:` in it (`date +%F`), which arithmetic may refuse.
const NUMBER: &str = "$((number))";

/// The value gate binds a variable to that holds one integer, or nothing: what arithmetic
/// that cannot fail gives, a count of one input, a count `read` takes from `wc`'s line.
const INTEGER: &str = "$((integer))";

/// The value gate binds a variable to that holds what `git merge-base`, `git rev-parse`...
/// print ([`git_prints_object_names`]): an object name, or nothing.
const OBJECT_VALUE: &str = "$(an object name git prints, or nothing)";

/// The value gate binds a loop's variable to that takes each object name git lists
/// ([`git_prints_object_names`] with `lines`): one hexadecimal name, never nothing.
const OBJECT_LISTED: &str = "$(an object name git lists)";

/// What stands for such a name in a word ([`OBJECT_LISTED`]); in a word that is no
/// revision expression, the glob `[0-9a-f]*`.
const LISTED_NAME: &str = "fedcba9876543210fedcba9876543210fedcba98";

/// bash's own variables that always read as a number (until the text assigns or unsets them).
/// (Not `UID`, `EUID`, `PPID` or `OPTIND`: bash keeps a value imported from the environment as
/// text there.)
const NUMERIC_SPECIALS: &[&str] = &["RANDOM", "SRANDOM", "LINENO", "SECONDS", "EPOCHSECONDS", "BASHPID"];

/// Whether a bound value is one number: a literal one, or [`NUMBER`].
fn number_value(v: &[Word]) -> bool {
    match v {
        // (Digits, after one `-` at most: not `-` or `--`, review of red team 106.)
        [Word::Lit(x)] => {
            let d = x.strip_prefix('-').unwrap_or(x);
            !d.is_empty() && d.bytes().all(|c| c.is_ascii_digit()) || sample_integer(x)
        }
        // (`n=$#`, `pid=$!`, `len=${#x}`: a number, or nothing, which arithmetic reads as 0.)
        [Word::Dyn(d)] => d == NUMBER || d == INTEGER || tables::number_parameter(d),
        _ => false,
    }
}

/// Variables whose assigned value bash ignores or replaces by itself: `$_` (every command sets
/// it), `FUNCNAME` (assignments ignored: fifth red team), and the ones bash recomputes.
const UNBINDABLE: &[&str] = &[
    "_",
    "FUNCNAME",
    "GROUPS",
    "PPID",
    "UID",
    "EUID",
    "BASHPID",
    "SECONDS",
    "RANDOM",
    "SRANDOM",
    "LINENO",
    "EPOCHSECONDS",
    "EPOCHREALTIME",
    "HISTCMD",
    "PIPESTATUS",
    "BASH_COMMAND",
    "BASH_REMATCH",
    "DIRSTACK",
];

/// The state before a command bash may skip: variables, the assignment log's length,
/// errexit, the directory, the positional parameters.
type MayNotHappen = (Vec<(String, Vec<Word>)>, usize, bool, Cwd, Option<Vec<Word>>);

/// The directories a list of `cd` steps may stop in (`..` taken lexically), each with what
/// the ways that stop there agree on.
fn places_of(steps: &[Cwd]) -> Vec<Cwd> {
    let mut places: Vec<Cwd> = Vec::new();
    for c in steps.iter().map(Cwd::lexical) {
        match places.iter_mut().find(|p| p.0 == c.0) {
            Some(p) => *p = p.merged(&c),
            None => places.push(c),
        }
    }
    places
}

/// Whether a known value expands unquoted to itself, one word: not empty (it would vanish),
/// no blank to split at, no glob character.
fn stays_unquoted(v: &str) -> bool {
    // (`(` too: under `shopt -s extglob`, `.e@(n)v` is a glob that matches `.env`; red team
    // 111 C.)
    !v.is_empty() && !v.contains(|c: char| c.is_whitespace() || "*?[(".contains(c))
}

/// An integer constant as bash's arithmetic reads it: decimal, octal after `0` (`010` is 8),
/// hexadecimal after `0x`, or `BASE#DIGITS` (`2#1`; digits `0-9a-zA-Z@_`, letters of either
/// case alike up to base 36). `None` for anything else, and for a digit bash refuses (an
/// error: the command does not run), or a number too long to be sure of.
fn integer_constant(t: &str) -> Option<i64> {
    let digits_in = |digits: &str, base: u32| -> Option<i64> {
        if digits.is_empty() || digits.len() > 12 {
            return None;
        }
        digits.chars().try_fold(0i64, |n, c| {
            let d = match c {
                '0'..='9' => c as u32 - '0' as u32,
                'a'..='z' => c as u32 - 'a' as u32 + 10,
                'A'..='Z' if base <= 36 => c as u32 - 'A' as u32 + 10,
                'A'..='Z' => c as u32 - 'A' as u32 + 36,
                '@' => 62,
                '_' => 63,
                _ => return None,
            };
            (d < base).then(|| n * i64::from(base) + i64::from(d))
        })
    };
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return digits_in(hex, 16);
    }
    if let Some((base, digits)) = t.split_once('#') {
        let base: u32 =
            (!base.starts_with('0') && base.bytes().all(|b| b.is_ascii_digit())).then(|| base.parse().ok())??;
        return (2..=64).contains(&base).then(|| digits_in(digits, base))?;
    }
    if t.len() > 1 && t.starts_with('0') {
        return digits_in(&t[1..], 8);
    }
    (t.bytes().all(|b| b.is_ascii_digit())).then(|| digits_in(t, 10))?
}

/// `${x:offset:length}` of a known ASCII value, as bash 5.2 computes it, when offset and length
/// are integer constants (`1`, ` -2`, `010`, `0x2`, `2#1`); `None` for anything else, and for
/// a length that ends before the start (an expansion error: the command does not run).
fn substring(v: &str, offset: &str, length: Option<&str>) -> Option<String> {
    let number = |t: &str| -> Option<i64> {
        let t = t.trim();
        let (negative, digits) = match t.strip_prefix('-') {
            Some(r) => (true, r.trim_start()),
            None => (false, t),
        };
        let n = integer_constant(digits)?;
        Some(if negative { -n } else { n })
    };
    if !v.is_ascii() {
        return None;
    }
    let len = v.len() as i64;
    // An empty offset is 0 (`${x::2}`); one in parentheses is that number (`${x:(-3)}`).
    let offset = offset.trim();
    let offset = offset.strip_prefix('(').and_then(|o| o.strip_suffix(')')).unwrap_or(offset);
    let mut start = if offset.trim().is_empty() { 0 } else { number(offset)? };
    if start < 0 {
        start += len;
    }
    if !(0..=len).contains(&start) {
        return Some(String::new());
    }
    let end = match length.map(number) {
        None => len,
        Some(None) => return None,
        Some(Some(l)) if l < 0 => Some(len + l).filter(|e| *e >= start)?,
        Some(Some(l)) => (start + l).min(len),
    };
    Some(v[start as usize..end as usize].to_string())
}

/// A bash pattern gate matches itself: letters, digits and `._-/:,=+@%`, with `*` and `?`;
/// anything else (quotes, `$`, `\`, brackets, extglob) is not read here.
fn simple_pattern(p: &str) -> bool {
    p.is_ascii() && p.chars().all(|c| c.is_ascii_alphanumeric() || "._-/:,=+@%*?".contains(c))
}

/// Whether a simple pattern matches all of `s`: `*` any text, `/` and a leading dot included;
/// `?` any one character (bash's `${x#p}`, and git's wildmatch without WM_PATHNAME).
pub(super) fn pattern_matches(p: &[u8], s: &[u8]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => (0..=s.len()).any(|k| pattern_matches(rest, &s[k..])),
        Some((b'?', rest)) => !s.is_empty() && pattern_matches(rest, &s[1..]),
        Some((c, rest)) => s.first() == Some(c) && pattern_matches(rest, &s[1..]),
    }
}

/// `${x#p}`, `${x##p}`, `${x%p}`, `${x%%p}` of a known ASCII value and a simple pattern.
fn trim_pattern(v: &str, p: &str, prefix: bool, largest: bool) -> Option<String> {
    // (A sample's digits: see [`sampled_match`]; `${f%.md}` keeps working on names with one.)
    let digits = v.bytes().any(|b| b.is_ascii_digit()) && p.bytes().any(|b| b.is_ascii_digit());
    if !v.is_ascii() || !simple_pattern(p) || digits || (v.contains(OBJECT_NAME) && sampled_match(v, p)) {
        return None;
    }
    let (s, p) = (v.as_bytes(), p.as_bytes());
    let mut cuts: Vec<usize> = (0..=s.len()).collect();
    if prefix == largest {
        cuts.reverse();
    }
    for k in cuts {
        let (hit, rest) = if prefix { (&s[..k], &v[k..]) } else { (&s[k..], &v[..k]) };
        if pattern_matches(p, hit) {
            return Some(rest.to_string());
        }
    }
    Some(v.to_string())
}

/// `${x/p/r}` and its `//`, `/#`, `/%` forms of a known value, where the pattern is plain
/// literal text (no `*` or `?`) and so is the replacement but for `&`, which bash 5.2
/// (`patsub_replacement`, on by default) replaces with the text matched (red team 53:
/// `x=r; ${x/r/&m}` runs rm).
/// A pattern substitution's replacement after quote removal, which bash 5.2 does to it in
/// and out of double quotes (red team 72: `x=m; "${x/#/'r'}" f` runs rm): quoted pieces of
/// plain text joined; `None` where it holds an expansion or a backslash.
fn quotes_removed(r: &str) -> Option<String> {
    let mut out = String::with_capacity(r.len());
    let mut quote = None;
    for c in r.chars() {
        match (quote, c) {
            // (A quoted `&` is itself, not the matched text: kept out.)
            (_, '\\' | '$' | '`') | (Some(_), '&') => return None,
            (None, '\'' | '"') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (_, c) => out.push(c),
        }
    }
    quote.is_none().then_some(out)
}

/// `"${a[@]/PAT/REP}"`'s words: `slice` (`/PAT/REP`, `//...`, `/#...`, `/%...`) applied to
/// each item, where all are literals and the pattern and replacement plain text.
fn each_replaced(items: &[Word], slice: &str) -> Option<Vec<Word>> {
    use bword::SubstringMatchKind as K;
    let rest = slice.strip_prefix('/')?;
    let (kind, rest) = match rest.as_bytes().first() {
        Some(b'/') => (K::Anywhere, &rest[1..]),
        Some(b'#') => (K::Prefix, &rest[1..]),
        Some(b'%') => (K::Suffix, &rest[1..]),
        _ => (K::FirstOccurrence, rest),
    };
    let (pattern, replacement) = rest.split_once('/').unwrap_or((rest, ""));
    if pattern.contains(['\\', '\'', '"', '$', '`']) {
        return None;
    }
    let replacement = quotes_removed(replacement)?;
    items.iter().map(|w| Some(Word::Lit(replace_literal(w.lit()?, pattern, &replacement, &kind)?))).collect()
}

fn replace_literal(v: &str, p: &str, r: &str, kind: &bword::SubstringMatchKind) -> Option<String> {
    use bword::SubstringMatchKind as K;
    if sampled_match(v, p) {
        return None;
    }
    let plain = |t: &str| simple_pattern(&t.replace('#', "")) && !t.contains(['*', '?']);
    if !plain(p) || !(r.is_empty() || plain(&r.replace('&', ""))) {
        return None;
    }
    let with = |matched: &str| r.replace('&', matched);
    // An empty pattern matches at the start for `/#`, at the end for `/%`, and nowhere
    // otherwise (red team 70: `x=m; ${x/#/r} y` runs rm).
    if p.is_empty() {
        return Some(match kind {
            K::Prefix => format!("{}{v}", with("")),
            K::Suffix => format!("{v}{}", with("")),
            K::Anywhere | K::FirstOccurrence => v.to_string(),
        });
    }
    let replaced = |v: &str, p: &str| match kind {
        K::Prefix => v.strip_prefix(p).map_or_else(|| v.to_string(), |rest| format!("{}{rest}", with(p))),
        K::Suffix => v.strip_suffix(p).map_or_else(|| v.to_string(), |rest| format!("{rest}{}", with(p))),
        K::Anywhere => v.replace(p, &with(p)),
        K::FirstOccurrence => v.replacen(p, &with(p), 1),
    };
    // Under `shopt -s nocasematch` bash matches the pattern in any case (red team 48:
    // `x=ls; shopt -s nocasematch; ${x/LS/rm}` runs rm): known only where both readings agree.
    let exact = replaced(v, p);
    let folded = (v.is_ascii() && p.is_ascii()).then(|| {
        let (lower, p) = (v.to_ascii_lowercase(), p.to_ascii_lowercase());
        match kind {
            K::Prefix if lower.starts_with(&p) => format!("{}{}", with(&v[..p.len()]), &v[p.len()..]),
            K::Suffix if lower.ends_with(&p) => {
                let k = v.len() - p.len();
                format!("{}{}", &v[..k], with(&v[k..]))
            }
            K::Prefix | K::Suffix => v.to_string(),
            K::FirstOccurrence | K::Anywhere => {
                let mut out = String::new();
                let mut at = 0;
                while let Some(k) = lower[at..].find(&p).map(|k| k + at) {
                    out.push_str(&v[at..k]);
                    out.push_str(&with(&v[k..k + p.len()]));
                    at = k + p.len();
                    if matches!(kind, K::FirstOccurrence) {
                        break;
                    }
                }
                out.push_str(&v[at..]);
                out
            }
        }
    })?;
    (exact == folded).then_some(exact)
}

/// Standard base64 decoded as `base64 -d` does (line breaks skipped, `=` padding at the end),
/// when it is all valid and the result is text; `None` otherwise.
fn base64_decoded(text: &str, ignore: bool) -> Option<String> {
    decoded_by(text, 6, ignore, |b| match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'a'..=b'z' => Some(b - b'a' + 26),
        b'0'..=b'9' => Some(b - b'0' + 52),
        b'+' => Some(62),
        b'/' => Some(63),
        _ => None,
    })
}

/// RFC 4648 base32 decoded as `base32 -d` does ([`base64_decoded`]).
fn base32_decoded(text: &str, ignore: bool) -> Option<String> {
    decoded_by(text, 5, ignore, |b| match b {
        b'A'..=b'Z' => Some(b - b'A'),
        b'2'..=b'7' => Some(b - b'2' + 26),
        _ => None,
    })
}

/// Text in `width`-bit digits (`digit` gives each one's value) as coreutils decodes it: line
/// breaks skipped, `=` padding ending a chunk (GNU goes on after it: red team 60's
/// `bHM=CnJtIHgK` is `ls` then `rm x`); another byte skipped with `-i` (`ignore`), else
/// the end, after what the whole groups before it gave (red team 61: GNU prints `rm ` from
/// `cm0g eA==` before it fails); `None` for a result that is not text.
fn decoded_by(text: &str, width: u32, ignore: bool, digit: impl Fn(u8) -> Option<u8>) -> Option<String> {
    let group = if width == 6 { 4 } else { 8 };
    let mut bits: u32 = 0;
    let mut count = 0u32;
    let mut out = Vec::new();
    let (mut digits, mut whole) = (0usize, 0usize);
    for b in text.bytes() {
        if b == b'\n' {
            continue;
        }
        if b == b'=' {
            (bits, count, digits) = (0, 0, 0);
            whole = out.len();
            continue;
        }
        let Some(v) = digit(b) else {
            if ignore {
                continue;
            }
            out.truncate(whole);
            break;
        };
        bits = ((bits << width) | u32::from(v)) & 0xffff;
        count += width;
        if count >= 8 {
            count -= 8;
            out.push(u8::try_from((bits >> count) & 0xff).ok()?);
        }
        digits += 1;
        if digits == group {
            (bits, count, digits) = (0, 0, 0);
            whole = out.len();
        }
    }
    String::from_utf8(out).ok()
}

/// What `printf FORMAT ARGS...` prints, as bash's printf does, for a format of text and the
/// conversions `%s`, `%c`, `%b`, `%q` (of plain words), `%d`/`%i` and `%%`, each with the flags
/// `-` and `0`, a width and a precision, either of them `*` (an argument read as bash reads
/// numbers: [`printf_number`]); the format is used again while arguments are left. `None` for
/// anything else. A NUL byte (`\0`, `%c` of nothing) stays in the text: what reads it
/// decides what it does with it.
pub(super) fn printf_output(format: &str, args: &[&str]) -> Option<String> {
    /// A width or precision: written in the format, or `*`, the next argument.
    #[derive(Clone, Copy)]
    enum Count {
        Fixed(usize),
        Star,
    }
    enum Piece {
        /// Text, its backslash escapes decoded ([`format_escapes`]).
        Text(String),
        Conversion {
            left: bool,
            zero: bool,
            width: Option<Count>,
            precision: Option<Count>,
            letter: u8,
        },
        /// `%(FORMAT)T`: a time as strftime prints it, one value of its shape
        /// ([`date_sample`]); it takes an argument (`-1`, now).
        Time(String),
    }
    let mut pieces = Vec::new();
    let mut rest = format;
    while let Some(k) = rest.find('%') {
        pieces.push(Piece::Text(format_escapes(&rest[..k])?));
        let spec = &rest.as_bytes()[k + 1..];
        if spec.first() == Some(&b'%') {
            pieces.push(Piece::Text("%".into()));
            rest = &rest[k + 2..];
            continue;
        }
        // (Red team 69H: `printf -v today '%(%F)T' -1`.)
        if let Some((time, after)) = rest[k + 1..].strip_prefix('(').and_then(|t| t.split_once(")T")) {
            pieces.push(Piece::Time(date_sample(time)?));
            rest = after;
            continue;
        }
        let mut i = 0;
        let (mut left, mut zero) = (false, false);
        while let Some(&f) = spec.get(i).filter(|f| matches!(f, b'-' | b'0')) {
            left |= f == b'-';
            zero |= f == b'0';
            i += 1;
        }
        let count = |i: &mut usize| -> Option<Option<Count>> {
            if spec.get(*i) == Some(&b'*') {
                *i += 1;
                return Some(Some(Count::Star));
            }
            let n = spec[*i..].iter().take_while(|b| b.is_ascii_digit()).count();
            let digits = std::str::from_utf8(&spec[*i..*i + n]).ok()?;
            *i += n;
            // (At most four digits: a wider field is not computed.)
            match n {
                0 => Some(None),
                1..=4 => Some(Some(Count::Fixed(digits.parse().ok()?))),
                _ => None,
            }
        };
        let width = count(&mut i)?;
        let precision = match spec.get(i) {
            Some(b'.') => {
                i += 1;
                Some(count(&mut i)?.unwrap_or(Count::Fixed(0)))
            }
            _ => None,
        };
        let letter = *spec.get(i).filter(|l| b"scbqdi".contains(l))?;
        pieces.push(Piece::Conversion { left, zero, width, precision, letter });
        rest = &rest[k + 1 + i + 1..];
    }
    pieces.push(Piece::Text(format_escapes(rest)?));
    let per = pieces.iter().filter(|p| !matches!(p, Piece::Text(_))).count();
    let mut out = String::new();
    let mut args = args.iter().copied();
    loop {
        for p in &pieces {
            let Piece::Conversion { left, zero, width, precision, letter } = p else {
                match p {
                    Piece::Text(t) => out.push_str(t),
                    // (Of now only: `-1` or `-2`, or no argument; another time, `-100`, may
                    // print a negative number: red team 112 A.)
                    Piece::Time(t) => {
                        if !matches!(args.next(), None | Some("-1" | "-2")) {
                            return None;
                        }
                        out.push_str(t);
                    }
                    Piece::Conversion { .. } => {}
                }
                continue;
            };
            // `*` reads a number as an int: a negative width pads on the right, a negative
            // precision is none.
            let mut left = *left;
            let width = match width {
                Some(Count::Star) => {
                    let w = printf_number(args.next().unwrap_or(""))?;
                    left |= w < 0;
                    usize::try_from(w.unsigned_abs()).ok().filter(|w| *w <= 4096)?
                }
                Some(Count::Fixed(w)) => *w,
                None => 0,
            };
            let precision = match precision {
                Some(Count::Star) => usize::try_from(printf_number(args.next().unwrap_or(""))?).ok(),
                Some(Count::Fixed(m)) => Some(*m),
                None => None,
            };
            let arg = args.next();
            let (text, stop) = match letter {
                b's' => (arg.unwrap_or("").to_string(), false),
                b'b' => percent_b(arg.unwrap_or(""))?,
                b'q' => {
                    let a = arg.unwrap_or("");
                    if a.is_empty() || !a.chars().all(|c| c.is_ascii_alphanumeric() || "_./-".contains(c)) {
                        return None;
                    }
                    (a.to_string(), false)
                }
                // (The first letter, or a NUL byte for an empty argument, as bash's does.)
                b'c' => (arg.unwrap_or("").chars().next().unwrap_or('\0').to_string(), false),
                _ => {
                    // `%d`: plain, without a precision.
                    if precision.is_some() {
                        return None;
                    }
                    let n = printf_number(arg.unwrap_or("0"))?;
                    let w = width;
                    out.push_str(&match (left, *zero) {
                        (true, _) => format!("{n:<w$}"),
                        (false, true) => format!("{n:0w$}"),
                        (false, false) => format!("{n:>w$}"),
                    });
                    continue;
                }
            };
            // A precision cuts `%s`, `%b` and `%q` to that many bytes (`%c` takes none).
            let text = match precision.filter(|_| *letter != b'c') {
                Some(m) => text.get(..m.min(text.len()))?.to_string(),
                None => text,
            };
            let w = width;
            out.push_str(&if left { format!("{text:<w$}") } else { format!("{text:>w$}") });
            // `\c` in a `%b` argument ends all output.
            if stop {
                return Some(out);
            }
        }
        if per == 0 || args.len() == 0 {
            break;
        }
    }
    Some(out)
}

/// A number as bash's printf reads an argument of `%d` or `*`: `'c` (or `"c`) is the
/// letter's code; otherwise as `strtoimax(3)` with base 0 reads it (blanks, a sign, `0x` hex,
/// a leading `0` octal), the value read before the first letter it cannot take (bash
/// complains of the rest and prints that value: `2e0` is 2, `08` is 0). `None` where it
/// overflows, or for a letter beyond ASCII.
fn printf_number(a: &str) -> Option<i64> {
    if let Some(rest) = a.strip_prefix(['\'', '"']) {
        return match rest.chars().next() {
            None => Some(0),
            Some(c) if c.is_ascii() => Some(i64::from(u8::try_from(c).ok()?)),
            Some(_) => None,
        };
    }
    let t = a.trim_start_matches([' ', '\t', '\n', '\u{b}', '\u{c}', '\r']);
    let (negative, t) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let hex = t
        .strip_prefix("0x")
        .or_else(|| t.strip_prefix("0X"))
        .filter(|h| h.starts_with(|c: char| c.is_ascii_hexdigit()));
    let (radix, digits) = match hex {
        Some(h) => (16, h),
        None if t.starts_with('0') => (8, t),
        None => (10, t),
    };
    let n = digits.chars().take_while(|c| c.is_digit(radix)).count();
    let v = if n == 0 { 0 } else { i64::from_str_radix(&digits[..n], radix).ok()? };
    Some(if negative { -v } else { v })
}

/// Text of a printf format with its backslash escapes decoded as bash's printf does: the
/// letter escapes, `\\`, `\"`, octal `\NNN` (one to three digits) and `\xHH`; `None` for
/// any other (`\c` ends all output, `\u` is Unicode).
fn format_escapes(text: &str) -> Option<String> {
    printf_escapes(text, true)
}

/// printf's backslash escapes decoded, in its format (`in_format`) or in a `%b` argument:
/// the same letters, but only a format takes `\"`, and octal there is `\NNN` (one to three
/// digits, a leading `0` among them) where `%b` reads `\0NNN` (three after the `0`) or
/// `\NNN`. An octal code above `\377` wraps, as bash's does.
fn printf_escapes(text: &str, in_format: bool) -> Option<String> {
    if !text.contains('\\') {
        return Some(text.to_string());
    }
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let e = chars.next()?;
        let simple = match e {
            '\\' => Some('\\'),
            '"' if in_format => Some('"'),
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'e' | 'E' => Some('\u{1b}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\u{b}'),
            _ => None,
        };
        if let Some(s) = simple {
            out.push(s);
            continue;
        }
        let (radix, max, mut digits) = match e {
            'x' => (16, 2, String::new()),
            '0' if !in_format => (8, 3, String::new()),
            '0'..='7' => (8, 3, e.to_string()),
            _ => return None,
        };
        while digits.len() < max && chars.peek().is_some_and(|d| d.is_digit(radix)) {
            digits.extend(chars.next());
        }
        // (`%b`'s `\0` alone is a NUL byte.)
        let code = match digits.is_empty() {
            true if e == '0' => 0,
            true => return None,
            false => u32::from_str_radix(&digits, radix).ok()?,
        };
        out.push(char::from_u32(code & 0xff)?);
    }
    Some(out)
}

/// An argument of printf's `%b` as bash decodes it: `\\`, the letter escapes, octal (`\0NNN`,
/// `\NNN`) and `\xHH`, and whether a `\c` ended it (and all output: red team 69); `None` for
/// another escape (`\u` is Unicode).
fn percent_b(arg: &str) -> Option<(String, bool)> {
    match arg.find("\\c") {
        // (Where that `\c` is an escape, not `\\` then `c`.)
        Some(k) if arg[..k].bytes().rev().take_while(|b| *b == b'\\').count() % 2 == 0 => {
            Some((printf_escapes(&arg[..k], false)?, true))
        }
        _ => Some((printf_escapes(arg, false)?, false)),
    }
}

/// `printf -v NAME FORMAT ARGS...` as bash's printf reads its words: the last `-v` (also glued,
/// `-vNAME`) names the variable, `--` ends the options, and any other word starting with `-`
/// before the format is an error, which assigns nothing (red team 54: `printf -v x -- %s rm`
/// sets x to `rm`; `printf -v x -%s v` fails and leaves x as it was). `None` without `-v`, or
/// where printf fails.
fn printf_into<'a>(args: &'a [&'a str]) -> Option<(&'a str, &'a str, &'a [&'a str])> {
    let mut name = None;
    let mut i = 0;
    loop {
        match args.get(i).copied() {
            Some("-v") => {
                name = Some(*args.get(i + 1)?);
                i += 2;
            }
            Some("--") => {
                i += 1;
                break;
            }
            Some(a) if a.starts_with("-v") => {
                name = Some(&a[2..]);
                i += 1;
            }
            Some(a) if a.starts_with('-') && a.len() > 1 => return None,
            _ => break,
        }
    }
    let (format, rest) = args[i..].split_first()?;
    Some((name?, format, rest))
}

/// Whether `words` are getopts leaving its index, a number, in OPTIND (red team 53), not
/// storing the option's letter there, which bash evaluates as arithmetic (red team 55:
/// `getopts a OPTIND`).
fn getopts_keeps_its_index(words: &[Word]) -> bool {
    words.first().and_then(Word::lit).map(program_name) == Some("getopts")
        && words.get(2).and_then(Word::lit) != Some("OPTIND")
}

/// A case change's pattern that changes every letter: none, or empty.
fn no_pattern(p: &Option<String>) -> bool {
    p.as_deref().is_none_or(str::is_empty)
}

/// What stands for an object name git prints ([`git_prints_object_names`]).
const OBJECT_NAME: &str = "0123456789abcdef0123456789abcdef01234567";

/// Each `name` (an object name's stand-in) in `buf` replaced by `glob`, marked as a glob's
/// piece in `globs`; `false` (nothing replaced) where the word already holds another glob's
/// name, or where `glob` is `*` and a name may be a whole path segment or start one with a
/// dot (bash's `*` never is nothing there: `"$(...)/x"` may be `/x`).
fn names_as_glob(buf: &mut String, name: &str, glob: &str, globs: &mut Vec<(usize, usize)>) -> bool {
    let lone = |at: usize| {
        let after = &buf[at + name.len()..];
        (at == 0 || buf[..at].ends_with('/')) && (after.is_empty() || after.starts_with(['/', '.']))
    };
    if !globs.is_empty() || (glob == "*" && buf.match_indices(name).any(|(at, _)| lone(at))) {
        return false;
    }
    while let Some(at) = buf.find(name) {
        buf.replace_range(at..at + name.len(), glob);
        globs.push((at, at + glob.len()));
    }
    true
}

/// Why `NAME+=VALUE` of an integer NAME whose value gate does not know to be a number is not
/// modelled: bash evaluates the old value as arithmetic too (red team 77: `n='q[$(rm x)]';
/// declare -i n; n+=1` runs rm).
fn appends_to_integer(name: &str) -> String {
    format!(
        "{name} has the integer attribute: `+=` evaluates its value, which gate does not know to be a number, as arithmetic, which can run code"
    )
}

/// A simple command's redirections, in the order bash makes them.
fn redirects_of(sc: &ast::SimpleCommand) -> Vec<&ast::IoRedirect> {
    sc.prefix
        .iter()
        .flat_map(|p| p.0.iter())
        .chain(sc.suffix.iter().flat_map(|s| s.0.iter()))
        .filter_map(|it| match it {
            ast::CommandPrefixOrSuffixItem::IoRedirect(io) => Some(io),
            _ => None,
        })
        .collect()
}

/// Whether a `cd`, `pushd` or `popd` has the one shape whose only way to fail is a directory
/// that is not there: `cd [-L|-P|-e]... [--] DIR`, `pushd DIR`, `popd`, DIR at most 1024
/// bytes (red team 84: bash refuses `cd docs src`, `cd -Q docs`, `cd --help docs` and stays
/// where it was).
fn plain_dir_change(c: &SimpleCommand) -> bool {
    if !c.wrappers.is_empty() || c.unknown.is_some() {
        return false;
    }
    let args: Vec<Option<&str>> = c.words[1..].iter().map(Word::lit).collect();
    // (Short enough for the kernel to take whole: red team 85's `cd -P docs/./././...`, past
    // PATH_MAX, failed with `File name too long`.)
    let operand = |a: &Option<&str>| a.is_some_and(|a| !a.is_empty() && !a.starts_with(['-', '+']) && a.len() <= 1024);
    match c.program() {
        Some("cd") => {
            let options = args.iter().take_while(|a| a.is_some_and(|a| a.len() > 1 && a.starts_with('-'))).count();
            let valid =
                args[..options].iter().flatten().all(|a| *a == "--" || a[1..].chars().all(|c| "LPe".contains(c)));
            let dashes = args[..options].iter().flatten().filter(|a| **a == "--").count();
            valid
                && dashes <= 1
                && args[..options].last().is_none_or(|a| dashes == 0 || *a == Some("--"))
                && matches!(&args[options..], [one] if operand(one))
        }
        Some("pushd") => matches!(args.as_slice(), [one] if operand(one)),
        Some("popd") => args.is_empty(),
        _ => false,
    }
}

/// bash's own indexed arrays, which `declare -A` (or `local -A` in a function, for most)
/// does not turn associative: bash refuses, and their subscripts stay arithmetic (red team
/// 81: `declare -A GROUPS; k='a[$(rm x)]'; echo "${GROUPS[$k]}"` ran `rm`). Checked with bash
/// 5.2; the other special arrays convert. `PIPESTATUS` is one once any command ran (red team
/// 83: `true; declare -A PIPESTATUS; PIPESTATUS[x]=1` with `x='y[$(rm m)]'`),
/// `BASH_REMATCH` once `[[ =~ ]]` ran, `COPROC` once `coproc` ran.
const BASH_INDEXED: &[&str] = &[
    "GROUPS",
    "FUNCNAME",
    "DIRSTACK",
    "BASH_ARGV",
    "BASH_ARGC",
    "BASH_LINENO",
    "BASH_SOURCE",
    "BASH_VERSINFO",
    "PIPESTATUS",
    "BASH_REMATCH",
    "COPROC",
];

/// A byte the shell treats as itself in a word, wherever it stands (no quote, expansion,
/// glob, brace, tilde or escape).
pub(crate) fn plain_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b"-_./,:@%+=".contains(&b)
}

/// Whether a word holding object names git prints ([`OBJECT_NAME`]) is a revision
/// expression, whatever each name is (hexadecimal, `HEAD` or nothing): each one the word's
/// start, after `^` or a range's `..`, and its end or before `..`, `:PATH`, `^`, `~` or `@{`
/// (`A..B`, `A...B`, `A:src/a.rs`, `A^`, `A~2`). It is never an option, and no path.
fn object_revision(word: &str) -> bool {
    let parts: Vec<&str> = word.split(OBJECT_NAME).collect();
    let (Some(first), Some(last)) = (parts.first(), parts.last()) else { return false };
    let first_ok = first.is_empty() || *first == "^" || (first.ends_with("..") && !first.starts_with('-'));
    let last_ok =
        last.is_empty() || last.starts_with("..") || last.starts_with([':', '^', '~']) || last.starts_with("@{");
    let between_ok = parts.len() < 3 || parts[1..parts.len() - 1].iter().all(|b| matches!(*b, ".." | "..."));
    parts.len() >= 2 && first_ok && last_ok && between_ok
}

/// Whether `git ARGS` prints only object names (or nothing): `merge-base` of revisions,
/// `rev-parse [--verify] [-q] [--short] REV...`, `rev-list` of revisions with a count, and
/// `log` with a count and a `%H`/`%h` format; every revision a literal that is no option.
/// With `lines`, any number of them, one a line: `rev-list` and `log` with any count and
/// revisions that may be ranges (`main..HEAD`, `^A`).
fn git_prints_object_names(args: &[&str], lines: bool) -> bool {
    let Some((sub, rest)) = args.split_first() else { return false };
    if lines && !matches!(*sub, "rev-list" | "log") {
        return false;
    }
    // One revision, no range or negation (`^HEAD` prints `^` and a name, `A..B` two words).
    let revision =
        |a: &&str| !a.is_empty() && !a.starts_with('-') && (lines || (!a.starts_with('^') && !a.contains("..")));
    // A count of one: at most one line (with `lines`, any count).
    let counted = |o: &str| {
        o.strip_prefix("--max-count=").or_else(|| o.strip_prefix("-n")).or_else(|| o.strip_prefix('-')).is_some_and(
            |n| n == "1" || (lines && !n.is_empty() && n.len() < 6 && n.bytes().all(|b| b.is_ascii_digit())),
        )
    };
    let (mut options, mut revisions): (Vec<&str>, Vec<&str>) = (Vec::new(), Vec::new());
    let mut words = rest.iter();
    let mut separate_count = false;
    while let Some(a) = words.next() {
        match *a {
            // `git log -1 --format=%H -- src/a.rs`: pathspecs after `--` only choose which
            // commits (red team 63 found it asked).
            "--" if matches!(*sub, "log" | "rev-list") => break,
            // `-n 1`, the count a word of its own, read as its glued spelling (red team 56
            // found it asked); only once.
            "-n" if !separate_count => {
                let n = words.next().copied().unwrap_or("");
                if !counted(&format!("-n{n}")) {
                    return false;
                }
                separate_count = true;
                options.push("-n1");
            }
            a if a.starts_with('-') => options.push(a),
            a => revisions.push(a),
        }
    }
    let wanted = match *sub {
        "merge-base" => 2..=2,
        _ if lines => 0..=4,
        "log" => 0..=1,
        _ => 1..=1,
    };
    if !wanted.contains(&revisions.len()) || !revisions.iter().all(revision) {
        return false;
    }
    let format = |o: &str| {
        ["--format=", "--pretty="].iter().any(|p| {
            o.strip_prefix(p).is_some_and(|f| {
                matches!(f.strip_prefix("format:").or_else(|| f.strip_prefix("tformat:")).unwrap_or(f), "%H" | "%h")
            })
        })
    };
    match *sub {
        "merge-base" => options.is_empty(),
        // Without `--verify`, rev-parse prints an operand that names no object as it is
        // (`git rev-parse rm` prints `rm`): only HEAD's own spellings are taken then.
        "rev-parse" => {
            let head = |r: &&str| {
                r.strip_prefix("HEAD")
                    .or_else(|| r.strip_prefix('@'))
                    .is_some_and(|t| t.trim_start_matches(['~', '^']).bytes().all(|b| b.is_ascii_digit()))
            };
            (options.contains(&"--verify") || revisions.iter().all(head))
                && options.iter().all(|o| {
                    matches!(*o, "--verify" | "-q" | "--quiet" | "--short")
                        || o.strip_prefix("--short=").is_some_and(|n| n.parse::<u8>().is_ok())
                })
        }
        // (`--max-parents=0`, the root commits: one or a few, a line each; inside quotes
        // still text of hexadecimal names and line ends, never an option nor a `/`: red team
        // 69's `git diff --stat "$(git rev-list --max-parents=0 HEAD)" HEAD`.)
        "rev-list" => {
            (lines || options.iter().any(|o| counted(o) || *o == "--max-parents=0"))
                && options.iter().all(|o| {
                    counted(o)
                        || *o == "--max-parents=0"
                        || matches!(
                            *o,
                            "--reverse"
                                | "--all"
                                | "--first-parent"
                                | "--no-merges"
                                | "--merges"
                                | "--topo-order"
                                | "--date-order"
                        )
                        // (Each commit's parents beside it, on its line: names too.)
                        || (lines && *o == "--parents")
                })
        }
        "log" => {
            (lines || options.iter().any(|o| counted(o)))
                && options.iter().any(|o| format(o))
                && options.iter().all(|o| {
                    counted(o)
                        || format(o)
                        || matches!(*o, "--first-parent" | "--no-merges" | "--merges" | "--reverse" | "--all")
                })
        }
        _ => false,
    }
}

/// What `basename [-a] [-s SUFFIX | --suffix=SUFFIX] NAME [SUFFIX]` prints for one name:
/// the last part of NAME without the suffix (unless that is all of it). `None` for other
/// options, several names, or text with a `\\`.
fn basename_output(args: &[&str]) -> Option<String> {
    let mut suffix: Option<&str> = None;
    let mut multiple = false;
    let mut operands: Vec<&str> = Vec::new();
    let mut it = args.iter();
    let mut options = true;
    while let Some(a) = it.next() {
        if a.contains('\\') {
            return None;
        }
        match *a {
            // (Options end at the first operand: coreutils reads them with getopt's `+`, so
            // `basename echo -s x` is three names, an error that prints nothing: red team 54.)
            a if options && !operands.is_empty() && a.starts_with('-') => return None,
            "--" if options => options = false,
            "-s" | "--suffix" if options => suffix = Some(it.next()?),
            "-a" | "--multiple" if options => multiple = true,
            a if options && a.starts_with("--suffix=") => suffix = Some(&a[9..]),
            a if options && a.starts_with("-s") && a.len() > 2 => suffix = Some(&a[2..]),
            a if options && a.starts_with('-') && a.len() > 1 => return None,
            a => operands.push(a),
        }
    }
    let (path, suffix) = match (operands.as_slice(), suffix) {
        ([path], s) => (*path, s),
        ([path, s], None) if !multiple => (*path, Some(*s)),
        _ => return None,
    };
    let t = path.trim_end_matches('/');
    let base = match t.rsplit_once('/') {
        _ if t.is_empty() && !path.is_empty() => "/",
        None => t,
        Some((_, last)) => last,
    };
    Some(match suffix.and_then(|s| base.strip_suffix(s)).filter(|b| !b.is_empty()) {
        Some(b) => b.to_string(),
        None => base.to_string(),
    })
}

/// Result of resolving one word.
struct Resolved {
    word: Word,
    /// Why the word makes its command unknowable (arithmetic over variables, ...).
    unknown: Option<String>,
}

impl Walker<'_> {
    fn script(&mut self, text: &str) {
        if self.depth > MAX_DEPTH {
            self.a.unknown.push(format!("commands nested more than {MAX_DEPTH} levels deep"));
            return;
        }
        let odd = |c: char| (c.is_control() && !matches!(c, '\t' | '\n' | '\r')) || c == '\u{7f}';
        let sanitized: String;
        let text = if let Some(c) = text.chars().find(|c| odd(*c)) {
            // Control characters have no place in a command, and the tokenizer can loop on some
            // (a form feed starting a here-document delimiter hung it for minutes: fuzzing).
            // The call is asked; the text is still read with each one as a plain `_`, so that
            // a denied command in it is still denied.
            self.a.unknown.push(format!("the text holds a control character ({c:?})"));
            sanitized = text.chars().map(|c| if odd(c) { '_' } else { c }).collect();
            sanitized.as_str()
        } else {
            text
        };
        let hashes = super::words::hash_after_process_substitution(text);
        let unhashed: String;
        let text = if hashes.is_empty() {
            text
        } else {
            // Read as bash reads it: the `#` is a letter of the word. Asked all the same.
            self.a.unknown.push("`#` right after a process substitution: bash reads it as part of the word".into());
            let mut bytes = text.as_bytes().to_vec();
            for h in hashes {
                bytes[h] = b'_';
            }
            unhashed = String::from_utf8_lossy(&bytes).into_owned();
            unhashed.as_str()
        };
        if let Some(what) = super::words::parser_reads_otherwise(text) {
            self.a.unknown.push(format!("{what}: bash reads it otherwise than gate's parser"));
        }
        if huge_number(text) {
            // The parser panics on a descriptor number that overflows (found by fuzzing).
            self.a.unknown.push("a descriptor or directory-stack number too large to be real".into());
            return;
        }
        if super::words::heredoc_in_expansion(text) {
            // bash reads it as text; the parser would hide the lines after it in a
            // here-document. Not parsed: asked, and a deny rule's words in it deny.
            self.a.unknown.push("`<<` inside `${...}`: bash reads it as text, not as a here-document".into());
            return;
        }
        let depth = nesting_depth(text);
        if depth > MAX_NESTING {
            self.a.unknown.push(format!("constructs nested {depth} deep: more than gate analyses ({MAX_NESTING})"));
            return;
        }
        let opts = parser_options();
        let mut parser = brush_parser::Parser::new(std::io::BufReader::new(text.as_bytes()), &opts);
        // The parser is third-party code: a panic in it means "not understood", like an error.
        let parsed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| parser.parse_program()));
        match parsed {
            Ok(Ok(program)) => {
                self.readonly.extend(readonly_names(text));
                self.integer_names.extend(integer_names(text));
                // (A name known only at run time, or `_`, given the integer attribute: every
                // command's last word may be evaluated.)
                if self.integer_names.iter().any(|n| n == "_" || n == "*") {
                    self.a.unknown.push(
                        "`_` may get the integer attribute: bash evaluates every command's last word as arithmetic"
                            .into(),
                    );
                }
                // A bad substitution (`${ x}`) ends the line where bash meets it; the parser
                // reads it as good (red team 101).
                if let Some(bad) = abort::bad_substitution(text) {
                    self.a.unknown.push(format!("`{bad}` is a bad substitution, which ends the line it is on"));
                }
                // (Spelled in pieces too: `shopt -s fail''glob`, red team 102.)
                let plain = text.replace(['\'', '"', '\\'], "");
                self.failglob |= plain.contains("failglob");
                // (Only a text with an expansion, a subscript, an assignment (`=`, or a builtin
                // that assigns: `for n in 08` to an integer name, red team 105) or `shopt` can
                // hold an error that ends a line: any other is not looked at command by command.)
                const ASSIGNERS: [&str; 9] =
                    ["shopt", "for", "select", "read", "getopts", "printf", "wait", "let", "mapfile"];
                self.may_fail_text = text.contains(['$', '[', '=', '`']) || ASSIGNERS.iter().any(|w| plain.contains(w));
                self.lines(&program.complete_commands)
            }
            Ok(Err(e)) => self.a.unknown.push(format!("the shell text does not parse ({e})")),
            Err(_) => self.a.unknown.push("the shell parser failed on this text".into()),
        }
    }

    /// Analyse a nested script (substitution, `bash -c`, `eval`) one level deeper, with the
    /// given extra wrapper around everything it contains.
    /// Walk `text` as code that the command `words` (under `wrappers`) runs: every command
    /// found in it is wrapped by that command too.
    fn nested_run_by(&mut self, text: &str, words: &[Word], wrappers: &[Wrapper]) {
        let mut inner = wrappers.to_vec();
        inner.push(Wrapper { words: words.to_vec(), kind: WrapperKind::Transparent });
        self.nested_with(text, inner);
    }

    /// [`Walker::nested_run_by`] for code a program runs in a directory of its own finding:
    /// git's `!` aliases at the top of the work tree, npm's scripts in the package root (red
    /// team 59: `cd docs && git -c alias.x='!cat ../x' x` read above the workspace). Walked
    /// from an unknown directory, unless `here` says it runs where the text started.
    fn nested_run_at_root(&mut self, text: &str, words: &[Word], wrappers: &[Wrapper], here: bool) {
        if here && self.cwd.0.as_deref() == Some("") {
            return self.nested_run_by(text, words, wrappers);
        }
        let saved = self.cwd.clone();
        self.cwd.forget();
        self.nested_run_by(text, words, wrappers);
        *self.cwd = saved;
    }

    fn nested(&mut self, text: &str, wrapper: Option<Wrapper>) {
        self.nested_params(text, wrapper, None)
    }

    /// A command substitution: a copy of this shell, its positional parameters included
    /// (red team 53: `f(){ n=$(wc -l < "$1"); }; f src/a.rs` was asked as a run-time read).
    fn substitution(&mut self, text: &str) {
        let params = self.params.clone();
        self.nested_params(text, None, params)
    }

    fn nested_params(&mut self, text: &str, wrapper: Option<Wrapper>, params: Option<Vec<Word>>) {
        let mut sub_cwd = self.cwd.clone();
        let mut w = Walker {
            a: &mut *self.a,
            depth: self.depth + 1,
            cwd: &mut sub_cwd,
            wrappers: self.wrappers.clone(),
            stdin_script: None,
            piped_in: None,
            stage_output: None,
            replace_str: None,
            last_arg: None,
            dollar_underscore: None,
            simple_last: None,
            stdin_listing: None,
            stdin_lines: Lines::Other,
            fed_args: Vec::new(),
            params,
            next_params: None,
            functions: self.functions.clone(),
            sure: self.sure.clone(),
            unsure: self.unsure,
            params_at: self.params_at,
            line_abort: None,
            in_line: false,
            readonly: self.readonly.clone(),
            failglob: self.failglob,
            integer_names: self.integer_names.clone(),
            may_fail_text: self.may_fail_text,
            conditional: self.conditional,
            last_line_at: 0,
            same_shell: false,
            bodies: self.bodies.clone(),
            traps: self.traps.clone(),
            rewalked: self.rewalked,
            unrolled: self.unrolled,
            locals: Vec::new(),
            defining: self.defining.clone(),
            integers: self.integers.clone(),
            errexit: false,
            bound: self.bound.clone(),
            assigned: Vec::new(),
            jumps: 0,
            in_eval: false,
            alt_cwd: None,
            rewalks: self.rewalks,
            counters: Vec::new(),
            untrusted_values: self.untrusted_values,
            attributed: self.attributed.clone(),
            cased: self.cased.clone(),
            plain: self.plain.clone(),
            keyed: self.keyed.clone(),
            arrays: self.arrays.clone(),
            declared_arrays: Vec::new(),
            declared_here: Vec::new(),
            glob_pieces: None,
            stdin_moved: self.stdin_moved,
            stdout_piped: self.stdout_piped,
            own_stdin: false,
            redirected: false,
            loose_assignments: false,
            allexport: self.allexport,
            listings: Vec::new(),
            command_env: Vec::new(),
            std_closed: self.std_closed,
            split_names: Vec::new(),
            restricted: self.restricted,
            read_fds: self.read_fds.clone(),
            globbed: false,
            assigning: false,
            cwd_tilde: false,
            cwd_after: None,
            exiting: false,
            exit_trap: false,
            keep_alt: false,
        };
        if let Some(wr) = wrapper {
            w.wrappers.push(wr);
        }
        w.script(text);
        let integers = std::mem::take(&mut w.integers);
        let keyed = std::mem::take(&mut w.keyed);
        let arrays = std::mem::take(&mut w.arrays);
        self.add_integers(integers);
        self.add_keyed(keyed);
        self.add_arrays(arrays);
    }

    fn add_arrays(&mut self, names: Vec<String>) {
        for n in names {
            if !self.arrays.contains(&n) {
                self.arrays.push(n);
            }
        }
    }

    /// Whether `name` may be an array when a declaration builtin assigns it: bash's own
    /// arrays, and those the text made ([`Walker::arrays`]).
    fn may_be_array(&self, name: &str) -> bool {
        const BASH_ARRAYS: &[&str] = &[
            "BASH_ALIASES",
            "BASH_ARGC",
            "BASH_ARGV",
            "BASH_CMDS",
            "BASH_LINENO",
            "BASH_REMATCH",
            "BASH_SOURCE",
            "BASH_VERSINFO",
            "COMP_WORDS",
            "COMPREPLY",
            "COPROC",
            "DIRSTACK",
            "FUNCNAME",
            "GROUPS",
            "MAPFILE",
            "PIPESTATUS",
        ];
        BASH_ARRAYS.contains(&name) || self.arrays.iter().any(|a| a == name || a == "*")
    }

    fn add_keyed(&mut self, names: Vec<String>) {
        for n in names {
            if !self.keyed.contains(&n) {
                self.keyed.push(n);
            }
        }
    }

    fn add_integers(&mut self, names: Vec<String>) {
        // `declare -i _`: bash puts every command's last word in `_`, evaluated as arithmetic
        // from then on (red team 106: `declare -i _; echo 'a[$(rm x)]'` runs rm).
        if names.iter().any(|n| n == "_") {
            self.a
                .unknown
                .push("`_` gets the integer attribute: bash evaluates every command's last word as arithmetic".into());
        }
        for n in names {
            if !self.integers.contains(&n) {
                // A function defined before may assign it, and was walked when it was not an
                // integer yet (sixth red team: `f(){ x='a[$(rm y)]'; }; declare -i x; f`).
                // (Only where a call may be unseen, known once the whole text is walked:
                // every call gate sees walks the body again with the attribute; red team 81:
                // `f(){ local -i c; c=$(grep -c fn "$1"); }; f src/a.rs` was asked.)
                if !self.functions.is_empty() {
                    self.a.late_integers.push(n.clone());
                }
                self.integers.push(n);
            }
        }
    }

    /// A variable's value that names files (`TZ=:/path`, `MAGIC=a:b`, `JAVA_HOME=/opt/jdk`):
    /// programs read what it names, so each path in it is decided as a read (found by the
    /// oracle red team: `TZ=$HOME/secret.txt date`, `MAGIC=~/.ssh/id_rsa file x`).
    fn path_value(&mut self, value: &Word) {
        let paths: Vec<Word> = match value {
            Word::Lit(v) if !v.contains("://") => v
                .split([':', '=', ' ', '\t', '\n'])
                .filter(|c| c.contains('/') || c.starts_with('~'))
                .map(|c| Word::Lit(c.to_string()))
                .collect(),
            // (A `/` inside a substitution is the command's, not the value's: `n="$(wc -l <
            // src/a.rs)"` is a count, red team 63.)
            Word::Dyn(d)
                if {
                    let own = without_substitutions(d, true);
                    (own.contains('/') || own.contains('~')) && !own.contains("://")
                } =>
            {
                vec![value.clone()]
            }
            _ => Vec::new(),
        };
        // (A device that only gives or swallows bytes names no file: `dd if=/dev/zero`, red
        // team 80.)
        for path in paths.into_iter().filter(|p| !p.lit().is_some_and(tables::plain_device)) {
            self.a.reads.push(Write { path, kind: WriteKind::Redirect, cwd: self.cwd.0.clone() });
        }
        // And the program may write it: a test harness's report file (`JEST_JUNIT_OUTPUT_FILE=
        // .env npm test`, `PYTEST_ADDOPTS='--junitxml /root/r.xml'`: red team 40), each word
        // and each text after `=` or `:` in the value, decided as a path handed on.
        if let Word::Lit(v) = value {
            let words: Vec<Word> = v.split_whitespace().map(|w| Word::Lit(w.to_string())).collect();
            for path in
                super::writes::paths_in_words(&words).into_iter().filter(|p| !p.lit().is_some_and(tables::plain_device))
            {
                self.a.writes.push(Write { path, kind: WriteKind::Handed, cwd: self.cwd.0.clone() });
            }
        }
    }

    fn unbind(&mut self, name: &str) {
        let base = name.split('[').next().unwrap_or(name).trim_end_matches('+');
        self.bound.retain(|(n, _)| n != base && companion_of(n) != Some(base));
        self.plain.retain(|n| n != base);
        for (c, hit) in &mut self.counters {
            *hit |= c == base;
        }
        self.assigned.push(base.to_string());
    }

    /// `bind` or `unbind` of a loop's own variable, which is no assignment by its body.
    fn pass_variable(&mut self, name: &str, counted: bool, value: Option<Word>) {
        let own = if counted { self.counters.pop() } else { None };
        match value {
            Some(v) => {
                let glob = matches!(&v, Word::Dyn(d) if plain_glob(d));
                self.bind(name, vec![v]);
                if let (true, Some(dir)) = (glob, self.cwd.0.clone()) {
                    if self.bound.last().is_some_and(|(n, _)| n == name) {
                        self.bound.push((format!("{GLOB_DIR_OF}{name}"), vec![Word::Lit(dir)]));
                    }
                }
            }
            None => self.unbind(name),
        }
        self.counters.extend(own);
    }

    /// Whether `name` holds a number for certain: bound to a literal number, to a number
    /// arithmetic gave it (every value it had in this text a number, the first a literal), or
    /// one of bash's own numeric variables nothing in the text assigned. Arithmetic reading
    /// it runs no code (eleventh red team: `for ((i=0; i<3; i++))` was asked).
    fn is_number(&self, name: &str) -> bool {
        if NUMERIC_SPECIALS.contains(&name) && !self.assigned.iter().any(|a| a == name) {
            return true;
        }
        self.bound.iter().rev().find(|(b, _)| b == name).is_some_and(|(_, v)| number_value(v))
    }

    /// `sed -n "${n}p" F`, `sed -n "$(( $(wc -l < F) - 2 )),\$p" F` (red teams 80, 100): a sed
    /// script whose only run-time parts are numbers is read with each number as `1`; a number
    /// there is an address, a count or a flag whatever its digits (empty, it drops out; `-1`
    /// at the start makes an option sed refuses). Only the word sed reads as its script
    /// (where it reads one word): a file operand stays a path known only at run time.
    fn sed_number_scripts(&self, mut words: Vec<Word>) -> Vec<Word> {
        let sed =
            words.first().and_then(Word::lit).is_some_and(|p| p == "sed") && !self.functions.iter().any(|f| f == "sed");
        if !sed {
            return words;
        }
        let templated: Vec<Option<String>> = words
            .iter()
            .map(|w| match w {
                Word::Dyn(d) => self.number_template(d),
                Word::Lit(_) => None,
            })
            .collect();
        if templated.iter().all(Option::is_none) {
            return words;
        }
        let trial: Vec<Word> =
            words.iter().zip(&templated).map(|(w, t)| t.clone().map(Word::Lit).unwrap_or_else(|| w.clone())).collect();
        let Some(Ok(parsed)) = grammar::grammar("sed").map(|g| grammar::parse(g, &trial[1..])) else { return words };
        let Some(script) = tables::sed_script(&parsed) else { return words };
        if let Some(k) = (1..trial.len()).find(|&k| templated[k].is_some() && trial[k] == script) {
            words[k] = trial[k].clone();
        }
        words
    }

    /// A double-quoted word whose only expansions are numbers (`"${n}p"`, `"$((n - 2)),\$p"`,
    /// `"$(wc -l < f)d"`), with each as `1`; `None` otherwise.
    fn number_template(&self, raw: &str) -> Option<String> {
        let t = raw.strip_prefix('"')?.strip_suffix('"')?;
        let mut out = String::new();
        let mut numbers = 0;
        let mut rest = t;
        while let Some(c) = rest.chars().next() {
            if let Some(after) = rest.strip_prefix("$((") {
                let end = after.find("))")?;
                rest = &after[end + 2..];
            } else if let Some(after) = rest.strip_prefix("$(") {
                let end = after.find(')')?;
                let inner = &after[..end];
                // (One integer only: a line end in a sed script starts a command, red team 102's
                // `"1a $(du -s docs src | cut -f1)!e rm ..."`.)
                if inner.contains('(') || self.counted_output(inner) != Some(true) {
                    return None;
                }
                rest = &after[end + 1..];
            } else if let Some(after) = rest.strip_prefix('$') {
                let (name, tail) = match after.strip_prefix('{') {
                    Some(b) => {
                        let e = b.find('}')?;
                        (&b[..e], &b[e + 1..])
                    }
                    None => {
                        let e = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
                        (&after[..e], &after[e..])
                    }
                };
                if !is_identifier(name) || self.held(name) == abort::Held::Other {
                    return None;
                }
                rest = tail;
            } else if let Some(after) = rest.strip_prefix('\\') {
                // In double quotes a backslash escapes `$`, `` ` ``, `"`, `\` and a line end.
                let e = after.chars().next()?;
                if !matches!(e, '$' | '`' | '"' | '\\') {
                    out.push('\\');
                }
                out.push(e);
                rest = &after[e.len_utf8()..];
                continue;
            } else if c == '`' {
                return None;
            } else {
                out.push(c);
                rest = &rest[c.len_utf8()..];
                continue;
            }
            out.push('1');
            numbers += 1;
        }
        (numbers > 0).then_some(out)
    }

    /// Whether a command substitution prints numbers only ([`numeric_output`],
    /// [`counts_one_input`]), and whether one integer (or nothing): `wc -l < F`, `... | wc -l`,
    /// `grep -c P F` of one file. Read through what keeps numbers numbers (red team 101 B): a
    /// trailing `|| true` (or `|| :`, `|| echo 0`, which may add a line), `| tr -d ' '`
    /// (`'[:space:]'`), `| xargs`, `wc ... | awk '{print $1}'`; a quoted `"$f"` of a name gate
    /// knows is one plain name (a literal, or a name of a glob that starts with a plain
    /// character: never an option) as that name (`c=$(grep -c fn "$f")` in `for f in src/*.rs`).
    fn counted_output(&self, inner: &str) -> Option<bool> {
        let mut t = inner.trim().to_string();
        let mut several = false;
        for (suffix, adds) in [(" || true", false), (" || :", false), (" || echo 0", true)] {
            if let Some(rest) = t.strip_suffix(suffix) {
                t = rest.to_string();
                several |= adds;
            }
        }
        for filter in [" | tr -d ' '", " | tr -d '[:space:]'", " | xargs"] {
            if let Some(rest) = t.strip_suffix(filter) {
                t = rest.to_string();
            }
        }
        let mut awk_first = false;
        if let Some(rest) = t.strip_suffix(" | awk '{print $1}'") {
            t = rest.to_string();
            awk_first = true;
        }
        // `wc -l < "$f"`: one count of its input whatever `$f` names (wc prints no name; a
        // name that cannot be opened leaves nothing): red team 112 C's `lines=$(wc -l <
        // "$f")` in a loop over `$(git ls-files)`.
        if let Some((cmd, target)) = t.split_once('<') {
            let quoted = target.trim().strip_prefix('"').and_then(|r| r.strip_suffix('"'));
            let name = quoted.and_then(referenced_variable);
            let counts =
                matches!(cmd.split_whitespace().collect::<Vec<_>>().as_slice(), ["wc", "-l" | "-c" | "-w" | "-m"]);
            if counts && name.is_some() && !self.functions.iter().any(|f| f == "wc") {
                return Some(!several);
            }
        }
        // (`"$f"` of one plain name: as a word with no expansion.)
        let mut plain = String::new();
        let mut rest = t.as_str();
        while let Some(at) = rest.find("\"$") {
            plain.push_str(&rest[..at]);
            let after = &rest[at + 2..];
            let end = after.find('"')?;
            let name = after[..end].strip_prefix('{').and_then(|n| n.strip_suffix('}')).unwrap_or(&after[..end]);
            let one = is_identifier(name)
                && match self.bound.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_slice()) {
                    Some([Word::Lit(v)]) | Some([Word::Dyn(v)]) => {
                        v.starts_with(|c: char| c.is_ascii_alphanumeric() || "_./".contains(c))
                            && !v.contains(|c: char| c.is_whitespace() || "$`'\"\\;&|<>()".contains(c))
                    }
                    _ => false,
                };
            if !one {
                return None;
            }
            plain.push_str("name");
            rest = &after[end + 1..];
        }
        plain.push_str(rest);
        let t = plain;
        // (After the names gate knows are put in: what is left must be no option in disguise.)
        if quotes_hide_an_option(&t) {
            return None;
        }
        if awk_first {
            // `wc -l src/a.rs | awk '{print $1}'`: the counts wc prints first on each line.
            let words: Vec<&str> = t.split_whitespace().collect();
            let counts_only = matches!(words.split_first(), Some((&"wc", args)) if args.iter().any(|a| a.starts_with('-'))
                && args.iter().all(|a| !a.starts_with('-') || (a.len() > 1 && a[1..].chars().all(|c| "lcwm".contains(c))))
                && args.iter().all(|a| !a.contains(['$', '`', '(', ')', '<', '>', '|', ';', '&'])));
            // (Where wc quotes a name holding a line end: else a line may be a name's rest.)
            return (counts_only && super::quotes_wc()).then_some(false);
        }
        let one_grep = {
            let words: Vec<&str> = t.split_whitespace().collect();
            matches!(words.as_slice(), ["grep", flags, _, file] if flags.starts_with('-') && !file.starts_with('-'))
        };
        let last_count = t.rsplit('|').next().is_some_and(|l| {
            matches!(l.split_whitespace().collect::<Vec<_>>().as_slice(), ["wc", "-l" | "-c" | "-w" | "-m"])
        });
        if counts_one_input(&t) {
            return Some(!several);
        }
        numeric_output(&t).then_some(!several && (one_grep || (last_count && t.contains('|'))))
    }

    /// Whether `declare -A` made `name` an associative array in this scope.
    fn is_associative(&self, name: &str) -> bool {
        self.bound.iter().any(|(b, _)| b.strip_prefix(ASSOCIATIVE) == Some(name))
    }

    /// Whether `name` holds a name a listing loop's listing printed (find's `{}`); also a
    /// positional parameter of a function called with one (red team 111 B: `s() { wc -l <
    /// "$1"; }` called as `s "$f"` in a `read` loop).
    fn listed_name(&self, name: &str) -> bool {
        if let Ok(k) = name.parse::<usize>() {
            return k > 0 && matches!(self.param(k), Some(Some(Word::Dyn(d))) if d == "{}");
        }
        is_identifier(name)
            && self
                .bound
                .iter()
                .rev()
                .find(|(b, _)| b == name)
                .is_some_and(|(_, v)| matches!(v.as_slice(), [Word::Dyn(d)] if d == "{}"))
    }

    /// Bind `name` to "a number" (what arithmetic assigns when every value before was one).
    fn bind_number(&mut self, name: &str) {
        self.bind(name, vec![Word::Dyn(NUMBER.into())]);
    }

    /// After a stretch that may or may not have run (a loop, a `cd` that may fail): each name
    /// it assigned is unknown again, unless it held a number before (in `before`) and holds one
    /// now, so a number whatever ran.
    fn forget_changed(&mut self, changed: Vec<String>, before: &[(String, Vec<Word>)]) {
        for n in changed {
            // (`[ -f "$f" ] && files+=("$f")`: the items before, and maybe a name of the glob.)
            let gathered =
                before.iter().rev().find(|(b, _)| *b == n).and_then(|(_, v)| {
                    Some(v.iter().cloned().chain([Word::Dyn(self.gathered_item(&n, v)?)]).collect())
                });
            if self.stays_number(&n, before) {
                self.bind_number(&n);
            } else if let Some(v) = gathered {
                self.bind(&n, v);
            } else {
                self.unbind(&n);
            }
        }
    }

    /// Whether `name` held a number in `before` and holds one now: a number whichever of the
    /// two states bash is in.
    fn stays_number(&self, name: &str, before: &[(String, Vec<Word>)]) -> bool {
        before.iter().rev().find(|(b, _)| b == name).is_some_and(|(_, v)| number_value(v)) && self.is_number(name)
    }

    fn bind(&mut self, name: &str, values: Vec<Word>) {
        self.unbind(name);
        // bash sets `$_` to the last word of every command: a value given to it does not last.
        if self.cwd_tilde || self.untrusted_values || UNBINDABLE.contains(&name) {
            return;
        }
        if self.attributed.iter().any(|n| n == name) {
            // `declare -c f; f=cargo.toml`: f holds `Cargo.toml` (red team 100: a write of
            // `$f` was asked, not denied). Bound as unknown with that default, which a write
            // is decided by too (where the attribute ended with a function, the value as
            // given: unknown either way).
            let case = self.cased.iter().rev().find(|(n, _)| n == name).map(|(_, c)| *c);
            if let (Some(case), [Word::Lit(v)]) = (case, values.as_slice()) {
                if !v.is_empty() && v.chars().all(|c| c.is_ascii_alphanumeric() || "-_./,+@".contains(c)) {
                    let changed = match case {
                        'l' => v.to_lowercase(),
                        'u' => v.to_uppercase(),
                        _ => v[..1].to_uppercase() + &v[1..].to_lowercase(),
                    };
                    self.bound.push((name.to_string(), vec![Word::Dyn(format!("${{{name}:-{changed}}}"))]));
                }
            }
            return;
        }
        self.bound.push((name.to_string(), values));
    }

    /// What was assigned since the assignment log held `log0` names is no longer known.
    fn unbind_since(&mut self, log0: usize) {
        let changed: Vec<String> = self.assigned[log0..].to_vec();
        for n in changed {
            self.unbind(&n);
        }
    }

    /// Nothing about any variable's value is known any more (a function call, `source`).
    fn unbind_all(&mut self) {
        // `set --` and `shift` in what ran (a sourced file, a trap action) change `$1`...
        self.params = None;
        let names: Vec<String> = self.bound.iter().map(|(n, _)| n.clone()).collect();
        for n in names {
            self.unbind(&n);
        }
    }

    /// `"$f"`, `${f}`, `"$arr"` of a bound variable: its (first) value. Unquoted, only a value
    /// that splitting and globbing leave one word, or a number parameter's (`pid=$!`).
    fn bound_word(&self, raw: &str) -> Option<Word> {
        let (inner, quoted) = match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            Some(i) => (i, true),
            None => (raw, false),
        };
        let name = inner.strip_prefix("${").and_then(|r| r.strip_suffix('}')).or_else(|| inner.strip_prefix('$'))?;
        // `"${files[2]}"` of an array filled by one glob (red team 47): one name it gives.
        if let Some((array, index)) = name.strip_suffix(']').and_then(|n| n.split_once('[')) {
            // (A counter gate knows holds a number: `"${files[i]}"` in a `for ((i=0; ...))`.)
            // (`-1` counts from the end: one of the names too, or an error where there is none:
            // red team 57's `"${files[-1]}"`.)
            // (`"${files[$i]}"`, `"${files[${i}]}"`: the index reads the variable as `i` does.)
            let index = referenced_variable(index).unwrap_or(index);
            let digits = index.strip_prefix('-').unwrap_or(index);
            let number = (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()))
                || (is_identifier(index) && self.is_number(index));
            if !quoted || index.is_empty() || !number || self.is_associative(array) {
                return None;
            }
            let (_, values) = self.bound.iter().rev().find(|(n, _)| n == array)?;
            return match values.as_slice() {
                [Word::Dyn(d)]
                    if !d.starts_with('"') && tables::unquoted_glob(&format!("\"{d}\"")) != format!("\"{d}\"") =>
                {
                    Some(Word::Dyn(format!("\"{d}\"")))
                }
                _ => None,
            };
        }
        if name.is_empty()
            || name.starts_with(|c: char| c.is_ascii_digit())
            || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return None;
        }
        let (_, values) = self.bound.iter().rev().find(|(n, _)| n == name)?;
        // `base=$(git merge-base HEAD main); git diff "$base"`: quoted, one word whatever git
        // printed, decided as the substitution in its place is (red team 63).
        if matches!(values.as_slice(), [Word::Dyn(d)] if d == OBJECT_VALUE) {
            return quoted.then(|| Word::Lit(OBJECT_NAME.to_string()));
        }
        // (A listed name is one hexadecimal word, never nothing, and IFS only blanks where
        // it is bound: unquoted it is the same word; red team 74's `git show $sha`.)
        if matches!(values.as_slice(), [Word::Dyn(d)] if d == OBJECT_LISTED) {
            return Some(Word::Lit(LISTED_NAME.to_string()));
        }
        if matches!(values.as_slice(), [Word::Dyn(d)] if d == NUMBER || d == INTEGER) {
            // A number: one word, never an option or a glob.
            return Some(Word::Dyn(format!("\"{inner}\"")));
        }
        // (A value a case attribute changed, `${f:-Cargo.toml}` ([`Walker::bind`]): plain
        // characters, the same one word unquoted where IFS is blanks.)
        if let [Word::Dyn(d)] = values.as_slice() {
            if !quoted
                && self.ifs().is_some()
                && d.starts_with(&format!("${{{name}:-"))
                && self.cased.iter().any(|(n, _)| n == name)
            {
                return Some(Word::Dyn(d.clone()));
            }
        }
        match values.first()? {
            w @ Word::Lit(v) if quoted || stays_unquoted(v) => Some(w.clone()),
            // Unquoted, a value that is a plain glob is globbed like one written so (red team
            // 48: `f=.en?; echo x > $f` writes `.env`).
            Word::Lit(v)
                if values.len() == 1
                    && v.contains(['*', '?', '['])
                    && !v.contains(|c: char| c.is_whitespace() || "{}'\"$`\\".contains(c)) =>
            {
                Some(Word::Dyn(v.clone()))
            }
            // One name a glob gives (a loop's pass): one word when quoted.
            Word::Dyn(d)
                if quoted
                    && !d.starts_with('"')
                    && tables::unquoted_glob(&format!("\"{d}\"")) != format!("\"{d}\"") =>
            {
                Some(Word::Dyn(format!("\"{d}\"")))
            }
            w @ Word::Dyn(d) if quoted || tables::number_parameter(d) => Some(w.clone()),
            // Unquoted, a name of a `for` loop over `$(LISTING)` (red team 71: `for f in $(ls
            // src/*.rs); do head -3 $f`): the loop's words were split at blanks and globbed
            // already (the edge asks where a name below holds a blank or a glob character), so
            // with IFS still blanks it is one word again, globbing to names beside it.
            w @ Word::Dyn(d) if d == "{}" && self.ifs().is_some() && self.blanks_listing() => Some(w.clone()),
            _ => None,
        }
    }

    /// Whether the innermost listing walked around here splits its names at blanks (a `for`
    /// loop over `$(...)`).
    fn blanks_listing(&self) -> bool {
        self.wrappers
            .iter()
            .rev()
            .find_map(|w| match w.kind {
                WrapperKind::Listing(split) => Some(split == Split::Blanks),
                _ => None,
            })
            .unwrap_or(false)
    }

    /// IFS as the text has it: bash's default (bash never takes it from the environment), or
    /// a value of blanks the text gave it (`IFS=$'\n\t'`, the "strict mode" opening); `None`
    /// when it holds anything else or what it holds is not known (such an assignment is not
    /// allowed).
    fn ifs(&self) -> Option<String> {
        match self.bound.iter().rev().find(|(n, _)| n == "IFS") {
            Some((_, v)) => match v.as_slice() {
                [Word::Lit(v)] if v.chars().all(|c| " \t\n".contains(c)) => Some(v.clone()),
                _ => None,
            },
            None if self.assigned.iter().any(|n| n == "IFS") => None,
            None => Some(" \t\n".to_string()),
        }
    }

    /// Word splitting gate can do as bash does, with IFS made of blanks ([`Walker::ifs`]): an
    /// unquoted `$IFS`/`${IFS}` between other text (`rm${IFS}-rf${IFS}x`), and an unquoted
    /// variable bound to plain words (`x='rm x'; $x`). The pieces, as shell text; `None`
    /// otherwise.
    fn split_by_default_ifs(&self, raw: &str) -> Option<Vec<String>> {
        let plain = |t: &str| t.chars().all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^~".contains(c));
        let split = |t: &str, ifs: &str| -> Vec<String> {
            t.split(|c| ifs.contains(c)).filter(|p| !p.is_empty()).map(str::to_string).collect()
        };
        // (IFS is looked up only for a word it may split: this runs for every word.)
        if let Some(name) = raw.strip_prefix("${").and_then(|r| r.strip_suffix('}')).or_else(|| raw.strip_prefix('$')) {
            if let Some((_, values)) = self.bound.iter().rev().find(|(n, _)| n == name) {
                if let [Word::Lit(v)] = values.as_slice() {
                    let pieces: Vec<String> = split(v, &self.ifs()?);
                    // (One piece with blanks around it, `c=" rm"; $c`, is that piece.)
                    let split = pieces.len() > 1 || pieces.first().is_some_and(|p| p != v);
                    if split && pieces.iter().all(|p| plain(p)) {
                        return Some(pieces);
                    }
                }
            }
            return None;
        }
        if raw.contains(['\'', '"', '\\']) || !raw.contains("IFS") {
            return None;
        }
        let ifs = self.ifs()?;
        // (An empty IFS expands to nothing and splits nothing.)
        let sep = if ifs.is_empty() { "" } else { " " };
        let mut text = raw.replace("${IFS}", sep);
        let mut from = 0;
        while let Some(i) = text[from..].find("$IFS").map(|i| i + from) {
            let next = text[i + 4..].chars().next();
            if next.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') {
                from = i + 4;
                continue;
            }
            text.replace_range(i..i + 4, sep);
        }
        let pieces: Vec<String> = if ifs.is_empty() { vec![text.clone()] } else { split(&text, &ifs) };
        (text != raw && !pieces.is_empty()).then_some(pieces)
    }

    /// `"${arr[@]}"` of a bound array: all its values. `"${arr[@]:N}"`, `"${arr[@]:N:M}"`
    /// (literal counts): those of an array of literal items, or every name of an array filled
    /// by one glob (some of them).
    fn bound_all(&self, raw: &str) -> Option<Vec<Word>> {
        let inner = raw.strip_prefix("\"${")?.strip_suffix("}\"")?;
        // `"${@/#/r}"`: each positional parameter (red team 72).
        if let Some(slice) = inner.strip_prefix('@').filter(|s| s.starts_with('/')) {
            let params = self.params.as_ref().filter(|p| p.iter().all(|w| matches!(w, Word::Lit(_))))?;
            return each_replaced(params, slice);
        }
        // `"${a[*]/#/r}"`, `"${*/#/r}"`: each item replaced, then joined by IFS's first
        // letter into one word (red team 74: `a=(m); "${a[*]/#/r}" x` runs rm).
        let star =
            inner.strip_prefix('*').map(|s| (None, s)).or_else(|| inner.split_once("[*]").map(|(n, s)| (Some(n), s)));
        if let Some((name, slice)) = star.filter(|(_, s)| s.starts_with('/')) {
            let values = match name {
                None => self.params.clone()?,
                Some(n) => self.bound.iter().rev().find(|(b, _)| b == n).map(|(_, v)| v.clone())?,
            };
            let sep = self.ifs()?.chars().next().map(String::from).unwrap_or_default();
            let replaced = each_replaced(&values, slice)?;
            let lits: Option<Vec<&str>> = replaced.iter().map(Word::lit).collect();
            return Some(vec![Word::Lit(lits?.join(&sep))]);
        }
        let (name, slice) = inner.split_once("[@]")?;
        let values = self.bound.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.clone())?;
        if slice.is_empty() {
            return Some(values);
        }
        // `"${a[@]/#/r}"`: each item of an array of literals (red team 72).
        if slice.starts_with('/') {
            return each_replaced(&values, slice);
        }
        let count = |t: &str| {
            (!t.is_empty() && t.len() < 6 && t.bytes().all(|b| b.is_ascii_digit()))
                .then(|| t.parse::<usize>().ok())
                .flatten()
        };
        let rest = slice.strip_prefix(':')?;
        let (from, len) = match rest.split_once(':') {
            Some((f, l)) => (count(f)?, Some(count(l)?)),
            None => (count(rest)?, None),
        };
        if self.is_associative(name) {
            return None;
        }
        match values.as_slice() {
            [Word::Dyn(d)] if tables::unquoted_glob(d) == d && tables::glob_base(d).is_some() => Some(values),
            v if v.iter().all(|w| matches!(w, Word::Lit(_))) => {
                let end = len.map_or(v.len(), |l| from.saturating_add(l).min(v.len()));
                Some(v.get(from.min(v.len())..end.max(from.min(v.len()))).unwrap_or_default().to_vec())
            }
            _ => None,
        }
    }

    fn mark(&self) -> [usize; 4] {
        [self.a.commands.len(), self.a.writes.len(), self.a.reads.len(), self.a.unknown.len()]
    }

    fn truncate(&mut self, m: [usize; 4]) {
        self.a.commands.truncate(m[0]);
        self.a.writes.truncate(m[1]);
        self.a.reads.truncate(m[2]);
        self.a.unknown.truncate(m[3]);
    }

    /// A loop body runs again from the state an earlier pass left (a `cd`, an assignment).
    /// Walked once from the state before the loop; if that pass changed the directory or a
    /// bound variable, walked again from the merge: the changed ones unknown. Afterwards
    /// what the body assigned is unknown (it may not have run).
    fn loop_body(&mut self, walk: &dyn Fn(&mut Self)) {
        let jumps0 = self.jumps;
        let m = self.mark();
        let cwd0 = self.cwd.clone();
        let bound0 = self.bound.clone();
        let log0 = self.assigned.len();
        let params0 = self.params.clone();
        let integers0 = self.integers.len();
        let keyed0 = self.keyed.len();
        self.conditional += 1;
        walk(self);
        self.conditional -= 1;
        let changed: Vec<String> = self.assigned[log0..].to_vec();
        let cwd_changed = *self.cwd != cwd0;
        // `shift` or `set --` in the body: the next pass sees other `$1`... (sixth red team).
        let params_changed = self.params != params0;
        // An integer attribute given in the body applies to its assignments on the next pass,
        // and a `-A` or `-n` to what its keys are.
        let attributes_changed = self.integers.len() != integers0 || self.keyed.len() != keyed0;
        // Arrays a pass adds one name of a glob to (`files+=("$f")` over `for f in src/*.rs`):
        // after any number of passes, the items before and any names of the glob.
        let mut gathered: Vec<(String, Vec<Word>)> = if attributes_changed {
            Vec::new()
        } else {
            changed
                .iter()
                .filter_map(|n| {
                    let (_, before) = bound0.iter().rev().find(|(b, _)| b == n)?;
                    let glob = self.gathered_item(n, before)?;
                    Some((n.clone(), before.iter().cloned().chain([Word::Dyn(glob)]).collect()))
                })
                .collect()
        };
        gathered.dedup_by(|a, b| a.0 == b.0);
        if cwd_changed
            || params_changed
            || attributes_changed
            || changed.iter().any(|n| bound0.iter().any(|(b, _)| b == n))
        {
            self.truncate(m);
            *self.cwd = cwd0.merged(self.cwd);
            self.params = if params_changed { None } else { params0 };
            let numbers: Vec<String> = changed.iter().filter(|n| self.stays_number(n, &bound0)).cloned().collect();
            self.bound = bound0
                .iter()
                .filter(|(n, _)| !changed.iter().any(|c| c == n || companion_of(n) == Some(c)))
                .cloned()
                .collect();
            for n in &numbers {
                self.bind_number(n);
            }
            for (n, v) in &gathered {
                self.bind(n, v.clone());
            }
            walk(self);
            // (The pass from the gathered items adds one more name of the same glob.)
            gathered.retain(|(n, v)| self.gathered_item(n, v).is_some_and(|g| v.last() == Some(&Word::Dyn(g))));
            // (After any number of passes, or none.)
            *self.cwd = self.cwd.merged(&cwd0);
        }
        // A `break` or `continue` leaves the loop in the middle of a pass: what it held there
        // is not what the pass ends with (eleventh round).
        if self.jumps != jumps0 {
            for n in changed {
                self.unbind(&n);
            }
        } else {
            self.forget_changed(changed, &bound0);
        }
        // (A `break` or `continue` leaves fewer names: still names of the glob.)
        for (n, v) in gathered {
            self.bind(&n, v);
        }
    }

    /// The glob names of which a pass added to the array `name` (red team 63): `name` is
    /// bound to `before`'s items and one more, a quoted glob (`"src/*.rs"`, one name it
    /// gives) or an unquoted one (any of its names), and to nothing else. The glob, unquoted
    /// (any of its names: after any number of passes, each adding one or none).
    fn gathered_item(&self, name: &str, before: &[Word]) -> Option<String> {
        let (_, now) = self.bound.iter().rev().find(|(b, _)| b == name)?;
        let (last, rest) = now.split_last()?;
        let Word::Dyn(d) = last else { return None };
        let glob = tables::unquoted_glob(d);
        (rest == before && tables::glob_base(glob).is_some() && glob.contains(['*', '?', '[']))
            .then(|| glob.to_string())
    }

    /// A `for` loop: over literal words, one pass per word in order, the variable bound to
    /// it (exact, unless the body jumps with `break` or `continue`); over a glob, passes of
    /// `loop_body` with the variable bound to the glob; otherwise the variable is unknown.
    /// (`objects`: the one value is `$(git ...)` listing object names, [`Self::lists_object_names`].)
    fn for_loop(
        &mut self,
        name: &str,
        values: Option<Vec<Word>>,
        body: &ast::CompoundList,
        counted: bool,
        objects: bool,
    ) {
        let bindable = |w: &Word| match w {
            Word::Lit(_) => true,
            Word::Dyn(d) => tables::glob_base(d).is_some() && integer_sequence(d).is_none(),
        };
        let fixed = !tables::is_dangerous_variable(name) && !self.is_integer(name);
        // `for i in $(seq 1 3)`: the numbers seq prints, where IFS splits its lines and no
        // digit or `-` (red team 63: `sed -n "${i}p"` was asked).
        let values = match values.as_deref() {
            Some([Word::Dyn(d)]) => {
                let lines = self
                    .ifs()
                    .is_some_and(|i| i.contains('\n') && !i.contains(|c: char| c.is_ascii_digit() || c == '-'));
                match d.strip_prefix("$(").and_then(|r| r.strip_suffix(')')).and_then(seq_numbers) {
                    Some(numbers) if lines && !numbers.is_empty() && self.functions.iter().all(|f| f != "seq") => {
                        Some(numbers.into_iter().map(Word::Lit).collect())
                    }
                    _ => values,
                }
            }
            _ => values,
        };
        if let Some(values) = values.clone().filter(|v| {
            fixed
                && !v.is_empty()
                && v.len() <= MAX_PASSES
                && v.iter().all(bindable)
                && self.unrolled + v.len() <= MAX_UNROLLED
        }) {
            self.unrolled += values.len();
            let m = self.mark();
            let (cwd0, bound0, jumps0) = (self.cwd.clone(), self.bound.clone(), self.jumps);
            let log0 = self.assigned.len();
            for v in &values {
                self.pass_variable(name, counted, Some(v.clone()));
                match v {
                    Word::Lit(_) => self.compound_list(body),
                    Word::Dyn(_) => self.loop_body(&|w: &mut Self| w.compound_list(body)),
                }
            }
            if self.jumps == jumps0 {
                self.pass_variable(name, counted, None);
                return;
            }
            // A `break` or `continue` ends a pass in its middle, so a pass does not start
            // where the one before ended: each is walked from the state before the loop, with
            // what any pass assigns unknown and the directory unknown if any pass may move it,
            // the variable bound to its value (red team 62: `[ -f "$f" ] || continue` made
            // `"$f"` unknown).
            let moves = self.a.commands[m[0]..]
                .iter()
                .any(|c| c.words.first().and_then(Word::lit).is_some_and(|p| matches!(p, "cd" | "pushd" | "popd")));
            let changed: Vec<String> = self.assigned[log0..].iter().filter(|n| *n != name).cloned().collect();
            // (Arrays the passes gathered names of globs into hold those at any pass's start.)
            let gathered: Vec<(String, Vec<Word>)> = changed
                .iter()
                .filter_map(|n| {
                    let (_, was) = bound0.iter().rev().find(|(b, _)| b == n)?;
                    let (_, now) = self.bound.iter().rev().find(|(b, _)| b == n)?;
                    let added = now.strip_prefix(was.as_slice())?;
                    let globs = added.iter().all(|w| {
                        matches!(w, Word::Dyn(d) if tables::unquoted_glob(d) == d
                            && d.contains(['*', '?', '['])
                            && tables::glob_base(d).is_some())
                    });
                    (globs && !added.is_empty()).then(|| (n.clone(), now.clone()))
                })
                .collect();
            self.truncate(m);
            *self.cwd = cwd0;
            self.bound = bound0;
            for n in &changed {
                self.unbind(n);
            }
            for (n, v) in gathered {
                self.bind(&n, v);
            }
            if moves {
                self.cwd.forget();
            }
            let (start_cwd, start_bound) = (self.cwd.clone(), self.bound.clone());
            for v in &values {
                *self.cwd = start_cwd.clone();
                self.bound = start_bound.clone();
                self.pass_variable(name, counted, Some(v.clone()));
                self.loop_body(&|w: &mut Self| w.compound_list(body));
            }
            *self.cwd = start_cwd;
            self.bound = start_bound;
            self.pass_variable(name, counted, None);
            return;
        }
        self.unbind(name);
        // Over the output of commands that print only numbers, or names and ids (`$(seq 1 3)`,
        // `$(git ls-files)`), the variable holds no text the command wrote (red team 40).
        let list = values.as_deref().unwrap_or_default();
        let of = |w: &Word| {
            let t = w.display();
            let t = t.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(&t).to_string();
            t.strip_prefix("$(").and_then(|r| r.strip_suffix(')')).map(str::to_string)
        };
        // `"${!arr[@]}"` of an indexed array the text filled (with literal items, or a glob's
        // names): its keys, numbers (red team 40 found `for i in "${!arr[@]}"; do echo
        // "${arr[i]}"` asked, red team 42 the same over `files=(src/*.rs)`). An associative
        // array's keys are words, and so may a nameref's be: neither may ever have been
        // declared for the name, in any scope (a `declare -A` in a branch that ran leaves
        // `arr=(...)` refused and the old keys in place).
        let keys_of = |w: &Word| {
            let t = w.display();
            let t = t.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(&t).to_string();
            t.strip_prefix("${!").and_then(|r| r.strip_suffix("[@]}").or_else(|| r.strip_suffix("[*]}"))).is_some_and(
                |n| {
                    // (Any other name is an indexed array or a scalar, whose one key is `0`:
                    // only the text makes an associative array, and bash's own two hold
                    // command and alias names; red team 91's `mapfile -t lines < f; for i in
                    // "${!lines[@]}"` was asked.)
                    is_identifier(n)
                        && !matches!(n, "BASH_CMDS" | "BASH_ALIASES")
                        && !self.is_associative(n)
                        && !self.keyed.iter().any(|k| k == n || k == "*")
                },
            )
        };
        // `{1..100}`: a sequence of numbers (red team 43).
        let sequence = |w: &Word| integer_sequence(&w.display()).is_some();
        let numbers = !list.is_empty()
            && list.iter().all(|w| of(w).is_some_and(|i| numeric_output(&i)) || keys_of(w) || sequence(w));
        let plain = !list.is_empty()
            && list.iter().all(|w| match w {
                Word::Lit(l) => !expands(l),
                Word::Dyn(d) => tables::glob_base(d).is_some() || of(w).is_some_and(|i| plain_output(&i)),
            });
        // (Object names, where IFS splits at blanks only.)
        let objects = objects && self.ifs().is_some();
        if numbers && fixed {
            self.bind_number(name);
        } else if objects && fixed {
            self.bind(name, vec![Word::Dyn(OBJECT_LISTED.into())]);
        } else if plain {
            self.plain.push(name.to_string());
        }
        self.loop_body(&|w: &mut Self| w.compound_list(body));
        self.unbind(name);
    }

    /// Walks `< <(...)` (`io`) and gives the listing it feeds in: a listing alone, or piped
    /// only through line filters (red team 67: `< <(find src -name '*.rs' | sort)`), without
    /// its error text (`2>&1`, red team 64).
    fn substituted_input(&mut self, io: &ast::IoRedirect) -> Option<Vec<Word>> {
        let before = self.a.commands.len();
        let script0 = self.stdin_script.take();
        let merges0 = self.a.stderr_merges;
        self.redirect(io);
        let merged = self.a.stderr_merges != merges0;
        self.stdin_script = script0;
        let ast::IoRedirect::File(_, _, ast::IoFileRedirectTarget::ProcessSubstitution(_, sub)) = io else {
            return None;
        };
        let stages = match sub.list.0.as_slice() {
            [item] if item.0.additional.is_empty() && !item.0.first.bang => {
                item.0.first.seq.iter().all(|c| matches!(c, ast::Command::Simple(_))).then_some(item.0.first.seq.len())
            }
            _ => None,
        }?;
        let cmds = self.a.commands.get(before..)?;
        // (`done < <(git ls-files | xargs wc -l | head -n -1)`: counts, whatever wc counts;
        // red team 100.)
        if !merged && cmds.len() == stages && self.counts_lines(cmds) {
            self.stdin_lines = Lines::Counts;
            return None;
        }
        let (first, rest) = cmds.split_first()?;
        if merged || cmds.len() != stages || !rest.iter().all(line_filter) {
            return None;
        }
        // (Object names git lists, through filters, for a `while read` loop: red team 69H's
        // `done < <(git rev-list --all | sort)`.)
        let listing = listing_of(first).filter(|l| rest.is_empty() || !nul_listing(l));
        self.stdin_lines = if self.lists_object_names(first) { Lines::Objects } else { Lines::Other };
        listing
    }

    /// Whether the stages of a pipeline gate walked print `wc`'s counts, as this machine's wc
    /// prints them ([`super::quotes_wc`]: one line a file): the last stage but line filters
    /// is `wc` with only counting options (`-l`, `-c`, `-w`, `-m`, `-L`), run by the shell or
    /// by `xargs`, wc no function here; what feeds it does not matter. Each line's first field
    /// is then a number.
    fn counts_lines(&self, cmds: &[SimpleCommand]) -> bool {
        if !super::quotes_wc() || self.functions.iter().any(|f| f == "wc" || f == "xargs") {
            return false;
        }
        let Some(at) = cmds.iter().rposition(|c| !line_filter(c)) else { return false };
        let c = &cmds[at];
        if c.unknown.is_some() || !c.wrappers.iter().all(|w| w.program() == Some("xargs")) || c.program() != Some("wc")
        {
            return false;
        }
        // (A word known only at run time is one name where it starts with a plain character:
        // `src/*.rs` is no option.)
        fn plain(w: &Word) -> Option<&str> {
            match w {
                Word::Lit(a) => Some(a.as_str()),
                Word::Dyn(d) => {
                    d.starts_with(|c: char| c.is_ascii_alphanumeric() || "_./".contains(c)).then_some("name")
                }
            }
        }
        let Some(args) = c.words.get(1..).and_then(|a| a.iter().map(plain).collect::<Option<Vec<&str>>>()) else {
            return false;
        };
        let mut ended = false;
        let mut counts = false;
        for a in args {
            match a.strip_prefix('-') {
                _ if ended => {}
                Some("-") => ended = true,
                Some(flags) if !flags.is_empty() => {
                    if !flags.chars().all(|f| "lcwmL".contains(f)) {
                        return false;
                    }
                    counts = true;
                }
                _ => {}
            }
        }
        counts
    }

    /// Whether a command gate walked prints only numbers, one a line ([`numeric_output`] of its
    /// literal words: `seq 1 5`, `wc -l` of its input), the program no function here.
    /// With `true` where each is one plain integer: `seq` of plain decimal bounds, `wc` of its
    /// input.
    fn prints_numbers(&self, c: &SimpleCommand) -> Option<bool> {
        if c.unknown.is_some() || !c.wrappers.is_empty() || c.open_args {
            return None;
        }
        let words = c.words.iter().map(Word::lit).collect::<Option<Vec<&str>>>()?;
        // (Each word plain: joined, a quoted `'x | seq 1'` would read as a pipeline, red team
        // 104.)
        let numbers = words.iter().all(|w| !w.is_empty() && w.bytes().all(plain_byte))
            && !self.functions.iter().any(|f| Some(f.as_str()) == words.first().copied())
            && numeric_output(&words.join(" "));
        let integers = match words.as_slice() {
            ["seq", bounds @ ..] => bounds.iter().all(|b| abort::plain_decimal(b)),
            ["wc", _] => true,
            _ => false,
        };
        numbers.then_some(integers)
    }

    /// `read [-r] NAME REST...` as the whole condition of a `while` loop, with no redirection
    /// and no assignment before it and IFS splitting at blanks: NAME, the first field of each
    /// line (of `wc`'s output, a count: [`Walker::counts_lines`]; with `whole_line`, of lines
    /// that are each one number, NAME alone too).
    fn read_count_into(&self, cond: &ast::CompoundList, whole_line: bool) -> Option<String> {
        let [item] = cond.0.as_slice() else { return None };
        let l = &item.0;
        if !l.additional.is_empty() || l.first.bang || !self.ifs().is_some_and(|i| i.contains(' ')) {
            return None;
        }
        let [ast::Command::Simple(sc)] = l.first.seq.as_slice() else { return None };
        if sc.word_or_name.as_ref()?.value != "read"
            || self.functions.iter().any(|f| f == "read")
            || sc.prefix.is_some()
        {
            return None;
        }
        let mut words = Vec::new();
        for it in sc.suffix.as_ref().map(|s| s.0.as_slice()).unwrap_or_default() {
            let ast::CommandPrefixOrSuffixItem::Word(w) = it else { return None };
            words.push(w.value.as_str());
        }
        let names = words.strip_prefix(&["-r"]).unwrap_or(&words);
        let [name, rest @ ..] = names else { return None };
        ((whole_line || !rest.is_empty())
            && names.iter().all(|n| is_identifier(n))
            && !tables::is_dangerous_variable(name)
            && !self.is_integer(name))
        .then(|| name.to_string())
    }

    /// Whether a command gate walked is `git` listing object names one a line
    /// ([`git_prints_object_names`]), git no function here.
    fn lists_object_names(&self, c: &SimpleCommand) -> bool {
        if c.unknown.is_some() || !c.wrappers.is_empty() || c.open_args || self.functions.iter().any(|f| f == "git") {
            return false;
        }
        let Some(words) = c.words.iter().map(Word::lit).collect::<Option<Vec<&str>>>() else { return false };
        matches!(words.split_first(), Some((&"git", args)) if git_prints_object_names(args, true))
    }

    /// Whether what is walked runs under `find` (a listing loop's body, or `-exec`): there `{}`
    /// is a name below its start points.
    fn under_find(&self) -> bool {
        self.wrappers.iter().any(|w| w.program() == Some("find"))
    }

    /// The body of a loop whose variable `name` takes each name a listing prints, walked
    /// with the variable as find's `{}` under `wrapper` (the listing as a `find`): a command
    /// that reads `"$f"` reads a name below the listing's start points, as `find ... -exec
    /// CMD {} ;` does; any other use of the variable (`"$f.bak"`, unquoted `$f`) is a value
    /// only known at run time.
    fn listing_loop(&mut self, name: &str, wrapper: Wrapper, body: &ast::CompoundList) {
        if tables::is_dangerous_variable(name) || self.is_integer(name) {
            self.loop_body(&|w: &mut Self| w.compound_list(body));
            self.unbind(name);
            return;
        }
        self.wrappers.push(wrapper);
        self.loop_body(&|w: &mut Self| {
            w.bind(name, vec![Word::Dyn("{}".into())]);
            w.compound_list(body);
        });
        self.wrappers.pop();
        self.unbind(name);
    }

    /// The listing a `for` loop's one value `raw` prints, where it is `$(LISTING)` piped only
    /// through line filters (`$(find src -name '*.rs' | sort)`): the commands its walk pushed
    /// from `pushed` on are those stages, in order.
    fn substituted_listing(&self, raw: &str, pushed: usize) -> Option<Vec<Word>> {
        let inner = raw.strip_prefix("$(")?.strip_suffix(')')?;
        // (A `|` in quotes is no pipe: the count of stages below then does not match.)
        if inner.contains([';', '&', '\n', '(', ')', '`', '<', '>', '$']) || inner.contains("||") {
            return None;
        }
        let cmds = self.a.commands.get(pushed..)?;
        let stages = inner.split('|').count();
        let (first, rest) = cmds.split_first()?;
        (cmds.len() == stages && rest.iter().all(line_filter)).then_some(())?;
        listing_of(first).filter(|l| rest.is_empty() || !nul_listing(l))
    }

    /// `read [-r] [-d ''] NAME` as the whole condition of a `while` loop, with no redirection
    /// and no assignment before it but an empty `IFS`: the name, and whether it reads
    /// NUL-separated records (`-d ''`), and whether it keeps backslashes (`-r`; asked for
    /// with `raw`: names may hold them, object names do not).
    fn read_line_into(&self, cond: &ast::CompoundList, raw: bool) -> Option<(String, bool, bool)> {
        let [item] = cond.0.as_slice() else { return None };
        let l = &item.0;
        if !l.additional.is_empty() || l.first.bang {
            return None;
        }
        let [ast::Command::Simple(sc)] = l.first.seq.as_slice() else { return None };
        if sc.word_or_name.as_ref()?.value != "read" || self.functions.iter().any(|f| f == "read") {
            return None;
        }
        if !sc.prefix.as_ref().is_none_or(|p| p.0.iter().all(empty_ifs)) {
            return None;
        }
        let mut words = Vec::new();
        for it in sc.suffix.as_ref().map(|s| s.0.as_slice()).unwrap_or_default() {
            let ast::CommandPrefixOrSuffixItem::Word(w) = it else { return None };
            words.push(w.value.as_str());
        }
        let (name, opts) = words.split_last()?;
        if !is_identifier(name) {
            return None;
        }
        let mut nul = false;
        let mut k = 0;
        while k < opts.len() {
            match opts[k] {
                "-r" => {}
                "-d" | "-rd" if matches!(opts.get(k + 1), Some(&("''" | "\"\""))) => {
                    nul = true;
                    k += 1;
                }
                _ => return None,
            }
            k += 1;
        }
        // (Without `-r`, read drops each backslash: a listed `docs/.\./.\.` becomes
        // `docs/../..`; review of red team 75. Object names hold none. A listing's names are
        // then split as a `for` loop's, [`Split::Blanks`], for the edge to look for a
        // backslash.)
        if raw && !opts.iter().any(|o| o.starts_with("-r")) {
            return Some((name.to_string(), nul, false));
        }
        Some((name.to_string(), nul, true))
    }

    fn is_integer(&self, name: &str) -> bool {
        let base = name.split('[').next().unwrap_or(name);
        BASH_INTEGERS.contains(&base) || self.integers.iter().any(|n| n == base)
    }

    /// A value given to an integer variable is evaluated as arithmetic: a subscript in it
    /// runs its `$(...)`, even from single quotes, and a name in it is evaluated in turn.
    /// Only a plain number (or arithmetic on numbers) is modelled.
    fn integer_value(&mut self, name: &str, value: &Word, raw: &str) -> Option<String> {
        let text = match value {
            Word::Lit(v) => v.as_str(),
            Word::Dyn(_) => raw,
        };
        if (text.contains("$(") || text.contains('`')) && (matches!(value, Word::Lit(_)) || raw.contains('\'')) {
            self.substitutions_in(text);
        }
        let plain = |t: &str| t.chars().all(|c| c.is_ascii_digit() || " +-*/%()".contains(c));
        // `total+=$(wc -l < "$f")`, `total+=$n`: a count (or nothing), or a number gate knows.
        let unquoted = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')).unwrap_or(raw);
        // (Or with the values gate knows in place: `c=$(grep -c fn "$1")` in `f src/a.rs`.)
        let count = |t: &str| numbers_substituted(t).is_some_and(|t| t.trim() == "0");
        let counted = count(unquoted) || self.values_inlined(unquoted).is_some_and(|t| count(&t));
        let copied = referenced_variable(unquoted).is_some_and(|n| self.is_number(n));
        match value {
            Word::Dyn(_) if counted || copied => None,
            Word::Lit(v) if plain(v) => None,
            // (Names that hold numbers: `declare -i n=5; n=n+1`, red team 88.)
            Word::Lit(v)
                if !v.contains(['$', '`', '[', '\'', '"', '\\'])
                    && identifiers(v).iter().all(|n| self.is_number(n))
                    && v.chars().all(|c| c.is_ascii_alphanumeric() || " _+-*/%()".contains(c)) =>
            {
                None
            }
            Word::Lit(v) => Some(format!(
                "{name} has the integer attribute: bash evaluates `{v}` as arithmetic, which can run code"
            )),
            Word::Dyn(d) => Some(format!(
                "{name} has the integer attribute: bash evaluates `{d}`, known only at run time, as arithmetic, which can run code"
            )),
        }
    }

    /// Whether a text may end the line it is on ([`abort::may_abort_line`]), read with what
    /// the walk knows here.
    fn may_abort(&self, text: &str) -> bool {
        let integer = |n: &str| self.is_integer(n) || self.integer_names.iter().any(|i| i == n || i == "*");
        let held = |n: &str| self.held(n);
        // (The bodies' text only where the text may call one.)
        let bodies: Vec<(String, String)> = if self.bodies.iter().any(|(n, _, _)| text.contains(n.as_str())) {
            self.bodies.iter().map(|(n, b, _)| (n.clone(), b.to_string())).collect()
        } else {
            Vec::new()
        };
        // (Read-only as the text says, or as the walk found: `readonly{,} r`.)
        let readonly: Vec<String> = self.readonly.iter().chain(&self.attributed).cloned().collect();
        let reading = abort::Reading {
            readonly: &readonly,
            failglob: self.failglob,
            integer: &integer,
            held: &held,
            bodies: &bodies,
        };
        abort::may_abort_line(text, &reading)
    }

    /// What a name holds as arithmetic reads it ([`abort::Held`]).
    fn held(&self, name: &str) -> abort::Held {
        use abort::Held;
        let plain = |x: &str| abort::plain_decimal(x.strip_prefix('-').unwrap_or(x));
        match self.bound.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_slice()) {
            // (Negative: `$n` in `$((1 -$n))` makes `--`, and an assigned subscript fails.)
            Some([Word::Lit(x)]) if plain(x) && !x.starts_with('-') || sample_integer(x) => Held::Number,
            Some([Word::Lit(x)]) if x.is_empty() || plain(x) => Held::NumberOrNothing,
            Some([Word::Dyn(d)]) if d == INTEGER => Held::NumberOrNothing,
            Some([Word::Dyn(d)]) if tables::number_parameter(d) && !d.contains('!') => Held::Number,
            Some([Word::Dyn(d)]) if tables::number_parameter(d) => Held::NumberOrNothing,
            None if NUMERIC_SPECIALS.contains(&name) && !self.assigned.iter().any(|n| n == name) => Held::Number,
            _ => Held::Other,
        }
    }

    /// The script's top-level lines in order. A `cd` that may fail at the end of one leaves
    /// the lines after it to run from either directory, as within a line (red team 41:
    /// `cd src` and `grep -n fn a.rs` on two lines was asked, `cd src; grep ...` allowed).
    fn lines(&mut self, lines: &[ast::CompoundList]) {
        for (k, list) in lines.iter().enumerate() {
            self.last_line_at = self.a.commands.len();
            self.keep_alt = true;
            // (Every line is read command by command: whether one may fail rests on what the
            // walk learns on the way, a `declare -i` spelled so that no reading of the text
            // finds it (`declare $'-i' n`, `declare -i{,} n`: red team 103).)
            let in_line0 = std::mem::replace(&mut self.in_line, true);
            let abort0 = self.line_abort.take();
            self.compound_list(list);
            self.in_line = in_line0;
            // An error that aborts a line skips the rest of it, and bash goes on with the
            // next line (red team 52: `: $((1/0)); rm(){ echo; }` then `rm -f m` on the next
            // line runs rm): what the rest changed may not have happened, and the functions
            // it defined are not surely defined (walked with `unsure`).
            if let Some(start) = std::mem::replace(&mut self.line_abort, abort0) {
                self.unsure -= 1;
                self.may_not_have_happened(start);
            }
            self.keep_alt = false;
            if let Some(alt) = self.alt_cwd.take() {
                let rest = &lines[k + 1..];
                if rest.is_empty() {
                    self.cwd.forget();
                } else {
                    self.walk_twice(&|w: &mut Self| w.lines(rest), alt);
                }
                return;
            }
        }
    }

    fn compound_list(&mut self, list: &ast::CompoundList) {
        self.items(&list.0);
    }

    fn items(&mut self, items: &[ast::CompoundListItem]) {
        let keep_alt = std::mem::take(&mut self.keep_alt);
        for (k, item) in items.iter().enumerate() {
            // (Defining a function runs nothing: a call may end the line, [`Walker::may_abort`].)
            let defines =
                matches!(item.0.first.seq.as_slice(), [ast::Command::Function(_)]) && item.0.additional.is_empty();
            if self.in_line
                && self.line_abort.is_none()
                && !defines
                && (self.may_fail_text || self.failglob)
                && self.may_abort(&item.0.to_string())
            {
                self.line_abort = Some(self.may_not_happen_start());
                self.unsure += 1;
            }
            if matches!(item.1, ast::SeparatorOperator::Async) {
                // `LIST &` runs in a subshell: its `cd` and assignments never reach this shell
                // (sixth red team: `x=rm; x=echo & $x victim`).
                self.last_arg = None;
                self.apart(&|w: &mut Self| w.and_or(&item.0));
                self.last_arg = None;
                continue;
            }
            self.and_or(&item.0);
            if let Some(alt) = self.alt_cwd.take() {
                let rest = &items[k + 1..];
                if rest.is_empty() && keep_alt {
                    // The script's next line goes on from either directory.
                    self.alt_cwd = Some(alt);
                } else if rest.is_empty() {
                    // The list ends here: where it leaves the shell is unknown.
                    self.cwd.forget();
                } else {
                    self.walk_from_both(rest, alt);
                }
                return;
            }
        }
    }

    /// Whether a pipeline is one plain `cd`, `pushd` or `popd` (not a function of that name):
    /// it either moves once or, failing, not at all.
    fn is_one_cd(&self, p: &ast::Pipeline) -> bool {
        matches!(self.one_dir_builtin(p), Some("cd" | "pushd" | "popd"))
    }

    /// The directory builtin (`cd`, `pushd`, `popd`, `dirs`) a pipeline is, alone (not a
    /// function of that name).
    fn one_dir_builtin<'p>(&self, p: &'p ast::Pipeline) -> Option<&'p str> {
        let [ast::Command::Simple(sc)] = p.seq.as_slice() else { return None };
        let w = sc.word_or_name.as_ref()?;
        (matches!(w.value.as_str(), "cd" | "pushd" | "popd" | "dirs") && !self.functions.contains(&w.value))
            .then_some(w.value.as_str())
    }

    /// Whether a command walked so far may have opened descriptors until they run out (`exec
    /// 3<f ...`, `ulimit -n`, a command gate cannot see): then opening even `/dev/null`, or a
    /// process substitution, may fail.
    fn may_open_descriptors(&self) -> bool {
        self.a.commands.iter().any(|c| matches!(c.program(), Some("exec" | "ulimit")) || c.unknown.is_some())
    }

    /// Whether none of a lone `cd`'s redirections can fail: each sends a descriptor to
    /// `/dev/null`, or copies one an earlier of them sent there (`>/dev/null 2>&1`). A copy of
    /// any other descriptor may fail where the shell closed it, which a compound command's
    /// redirection walked after its body does, a move (`2>&1-`) or a quoted `-` (red teams 86
    /// and 87: `cd docs >&- 2>&1`, `{ cd docs >&2; cat ../x; } 2>&-`), and bash then skips the
    /// `cd` and goes on where it was.
    fn redirections_hold(&self, p: &ast::Pipeline) -> bool {
        use ast::IoFileRedirectKind as K;
        use ast::IoFileRedirectTarget as T;
        let [ast::Command::Simple(sc)] = p.seq.as_slice() else { return false };
        let redirects = redirects_of(sc);
        // (Even `/dev/null` cannot be opened once descriptors run out, which a text that
        // opens them may bring about: `exec 3<. 4<. ...`, `ulimit -n`; red team 89.)
        if !redirects.is_empty() && self.may_open_descriptors() || self.restricted {
            return false;
        }
        let mut opened: Vec<u32> = Vec::new();
        let null = |w: &ast::Word| w.value == "/dev/null";
        for io in redirects {
            match io {
                // (Standard descriptors only: one past the limit fails, red team 88's `cd docs
                // 1048577>/dev/null`.)
                ast::IoRedirect::File(fd, kind, T::Filename(w)) if null(w) && fd.is_none_or(|f| f <= 2) => {
                    let fd = fd.map_or(if matches!(kind, K::Read) { 0 } else { 1 }, |f| f as u32);
                    opened.push(fd);
                }
                ast::IoRedirect::File(fd, _, T::Duplicate(w))
                    if fd.is_none_or(|f| f <= 2) && w.value.parse::<u32>().is_ok_and(|from| opened.contains(&from)) => {
                }
                ast::IoRedirect::OutputAndError(w, _) if null(w) => opened.extend([1, 2]),
                _ => return false,
            }
        }
        true
    }

    /// Whether a condition is one plain `cd`, `pushd` or `popd` and nothing else (not negated,
    /// not in the background): its branches run where it moved or where it failed.
    fn is_cd_condition(&self, item: &ast::CompoundListItem) -> bool {
        !matches!(item.1, ast::SeparatorOperator::Async)
            && item.0.additional.is_empty()
            && !item.0.first.bang
            && self.is_one_cd(&item.0.first)
    }

    /// What follows a `cd` that may fail, walked twice: from the directory it reaches, and
    /// from `alt`, where bash goes on if it fails (`cd src; cat a.rs` reads `src/a.rs` or
    /// `a.rs`; both are decided). Afterwards the directory is kept only if both walks end in
    /// the same one, and what either walk assigned is unknown.
    fn walk_from_both(&mut self, rest: &[ast::CompoundListItem], alt: Cwd) {
        self.walk_twice(&|w: &mut Self| w.items(rest), alt);
    }

    /// `walk` from the current directory, then from `alt`, as [`Self::walk_from_both`]; the
    /// directory each walk ended in.
    fn walk_twice(&mut self, walk: &dyn Fn(&mut Self), alt: Cwd) -> (Cwd, Cwd) {
        let (bound0, log0, errexit0, params0) =
            (self.bound.clone(), self.assigned.len(), self.errexit, self.params.clone());
        self.rewalks += 1;
        walk(self);
        let end = self.cwd.clone();
        let before = bound0.clone();
        self.bound = bound0;
        self.errexit = errexit0;
        self.params = params0;
        *self.cwd = alt;
        walk(self);
        self.rewalks -= 1;
        let ends = (end.clone(), self.cwd.clone());
        *self.cwd = self.cwd.merged(&end);
        let changed: Vec<String> = self.assigned[log0..].to_vec();
        self.forget_changed(changed, &before);
        ends
    }

    /// A `cd` can fail (the directory may not exist), and bash then goes on where it was:
    /// `cd src; cat secret.txt` reads `secret.txt` or `src/secret.txt`. The directory after a
    /// change is kept only where the failure path ends the script (`cd x || exit`, `set -e`)
    /// or cannot be reached (`cd x && ...`, within the list); otherwise it is unknown.
    fn and_or(&mut self, l: &ast::AndOrList) {
        let before = self.cwd.clone();
        let log0 = self.assigned.len();
        // (What held a number before the list and holds one where a later part runs holds a
        // number whichever way the list went: `((count++)) || true`, red team 82.)
        let bound0 = if l.additional.is_empty() { Vec::new() } else { self.bound.clone() };
        self.pipeline(&l.first);
        // (Whether the first pipeline is a `cd` that fails only where its directory is
        // missing, read while it is the last command walked; only in the reading that takes
        // such a `cd` to succeed.)
        let plain_cd = super::entering()
            && self.is_one_cd(&l.first)
            && self.a.commands.last().is_some_and(plain_dir_change)
            && self.redirections_hold(&l.first);
        let after_first = self.cwd.clone();
        let first_log = self.assigned.len();
        let bound_first = (!l.additional.is_empty()).then(|| self.bound.clone());
        // bash ignores errexit for a negated pipeline (and in conditions and lists, which
        // `compound` and the `&&`/`||` cases below account for).
        let mut guarded = l.additional.is_empty() && self.errexit && !l.first.bang;
        // `cd X || P`: P runs where the `cd` failed, so from where it was.
        let cd_or = matches!(l.additional.as_slice(), [ast::AndOr::Or(_)]) && !l.first.bang && self.is_one_cd(&l.first);
        // ... and where P does not move, the list ends in one of two known directories.
        let mut cd_or_stays = None;
        // `cd X && A && cd Y && B`: where each step may stop the list (red team 57: `cd docs
        // && ls && cd ..; cat README.md` was asked), while every step is a plain `cd` or
        // leaves the directory as it was.
        let mut chained_or = None;
        let mut steps: Option<Vec<Cwd>> = (self.one_dir_builtin(&l.first) == Some("cd")
            && !l.first.to_string().split_whitespace().nth(1).is_some_and(|a| a.starts_with('-')))
        .then(|| vec![before.clone(), after_first.clone()]);
        self.unsure += 1;
        for (k, next) in l.additional.iter().enumerate() {
            // `A && B && C`, `A || B || C`: each runs right after the one before it ran; after
            // a change of operator (`A && B || C`) C may follow A.
            if std::mem::discriminant(next) != std::mem::discriminant(&l.additional[0]) {
                self.last_arg = None;
            }
            match next {
                ast::AndOr::And(p) => {
                    let at = self.cwd.clone();
                    self.pipeline(p);
                    // (Without options: `cd -P` takes `..` physically.)
                    let plain_cd = self.one_dir_builtin(p) == Some("cd")
                        && !p.to_string().split_whitespace().nth(1).is_some_and(|a| a.starts_with('-'));
                    match steps.as_mut() {
                        Some(s) if plain_cd || *self.cwd == at => s.push(self.cwd.clone()),
                        _ => steps = None,
                    }
                }
                ast::AndOr::Or(p)
                    if k > 0
                        && k + 1 == l.additional.len()
                        && steps.is_some()
                        && !ends_script(p, !self.defining.is_empty(), &self.functions) =>
                {
                    // `cd X && A || B`: B runs where a step stopped, at X or where the list
                    // started; where B does not move, the list ends in one of those two
                    // (red team 57: `cd /abs/ws && git diff --quiet || git diff --stat`, as
                    // agents write it, was asked).
                    let places = steps.take().map(|s| places_of(&s)).unwrap_or_default();
                    let end = self.cwd.lexical().0;
                    match places.as_slice() {
                        [a, b] if a.0.is_some() && b.0.is_some() && self.rewalks < MAX_REWALKS => {
                            let (here, alt) = if a.0 == end { (a.clone(), b.clone()) } else { (b.clone(), a.clone()) };
                            self.unbind_since(log0);
                            *self.cwd = here.clone();
                            let (e1, e2) = self.walk_twice(&|w: &mut Self| w.pipeline(p), alt.clone());
                            if e1.lexical().0 == here.0 && e2.lexical().0 == alt.0 {
                                *self.cwd = here;
                                chained_or = Some(alt);
                            } else {
                                self.cwd.forget();
                            }
                        }
                        _ => {
                            self.cwd.forget();
                            self.unbind_since(log0);
                            self.pipeline(p);
                        }
                    }
                }
                ast::AndOr::Or(p) => {
                    steps = None;
                    // Runs after a failure: maybe of the `cd`, so from either directory, and
                    // maybe before an assignment earlier in the list.
                    let success = self.cwd.clone();
                    if cd_or {
                        *self.cwd = before.clone();
                    } else if success != before {
                        self.cwd.forget();
                    }
                    let numbers: Vec<String> =
                        self.assigned[log0..].iter().filter(|n| self.stays_number(n, &bound0)).cloned().collect();
                    self.unbind_since(log0);
                    for n in numbers {
                        self.bind_number(&n);
                    }
                    self.pipeline(p);
                    let last = k + 1 == l.additional.len();
                    if last && ends_script(p, !self.defining.is_empty(), &self.functions) {
                        *self.cwd = success;
                        guarded = true;
                    } else if cd_or && *self.cwd == before {
                        cd_or_stays = Some(std::mem::replace(&mut *self.cwd, success));
                    }
                }
            }
        }
        self.unsure -= 1;
        // (After the list, the last command that ran may be any of them.)
        if !l.additional.is_empty() {
            self.last_arg = None;
        }
        if let Some(alt) = chained_or {
            self.alt_cwd = Some(alt);
            self.unbind_since(first_log);
            return;
        }
        // A chain with a second `cd` ends in the directory any step left (the list stops at
        // the first step that fails): with two such directories, what follows is walked from
        // both; `OLDPWD` and the stack kept only where the ways that end in one agree.
        if let Some(steps) = steps.filter(|s| s[2..].iter().zip(&s[1..]).any(|(b, a)| b.0 != a.0)) {
            let places = places_of(&steps);
            let known = places.iter().all(|p| p.0.is_some()) && self.rewalks < MAX_REWALKS;
            match places.as_slice() {
                [one] if known => *self.cwd = one.clone(),
                [a, b] if known => {
                    let end = self.cwd.lexical().0;
                    let (here, alt) = if a.0 == end { (a, b) } else { (b, a) };
                    *self.cwd = here.clone();
                    self.alt_cwd = Some(alt.clone());
                }
                _ => self.cwd.forget(),
            }
            self.unbind_since(first_log);
            return;
        }
        if *self.cwd != before && !guarded {
            // One `cd` on its own (no `&&`, `||` or pipe): if it fails, nothing moved, so the
            // commands after it run in one of two known directories; the list walks both.
            // So does `cd X || true`.
            // And so does `cd X && A && B` where nothing after the `cd` moves: it ends where the
            // `cd` went or, failing, where it was (red team 55: `cd /abs/ws && ls; cat x`, the
            // way agents write, was asked).
            let cd_and = !l.additional.is_empty()
                && l.additional.iter().all(|a| matches!(a, ast::AndOr::And(_)))
                && *self.cwd == after_first;
            let one_cd = (l.additional.is_empty() || cd_or_stays.is_some() || cd_and) && self.is_one_cd(&l.first);
            // `dirs -c` cannot fail; what else only changed the stack may not have happened.
            let dirs_only = self.cwd.same_place(&before);
            let one_dirs = l.additional.is_empty() && self.one_dir_builtin(&l.first) == Some("dirs");
            // `cd -` back to a directory this text was just in does not fail: no second walk
            // from where it was (red team 44: `cd X; cd -; npm test` decided X's scripts).
            let back =
                one_cd
                    && before.knows_old()
                    && self.a.commands.last().is_some_and(|c| {
                        c.program() == Some("cd") && c.words.len() == 2 && c.words[1].lit() == Some("-")
                    });
            if dirs_only {
                if !one_dirs {
                    *self.cwd = self.cwd.merged(&before);
                }
            } else if back {
            } else if let Some(dir) = self.cwd.0.clone().filter(|_| one_cd && plain_cd) {
                // Taken to succeed: the edge holds this reading only where `dir`, as written
                // (each part before a `..` too), is a directory the call does not write.
                self.a.entered.push(dir);
            } else if one_cd && self.rewalks < MAX_REWALKS && before.0.is_some() && self.cwd.0.is_some() {
                // (Where a `pushd` failed, the stack is still what the shell had: a `popd`
                // after it pops that, which may be anywhere (red team 59: `pushd docs/nothere;
                // popd; touch docs/x.md` wrote below a directory an earlier command pushed).)
                self.alt_cwd = Some(before);
            } else {
                self.cwd.forget();
            }
        }
        // What the list assigned after its first pipeline may not have happened (a number
        // either way stays one, an item added from a glob is gathered).
        match bound_first {
            Some(b) => self.forget_changed(self.assigned[first_log..].to_vec(), &b),
            None => self.unbind_since(first_log),
        }
    }

    fn pipeline(&mut self, p: &ast::Pipeline) {
        // `! cd x && A`: A runs where the `cd` failed (red team 42 wrote outside the
        // workspace with `! cd docs/ref/x && echo p >> ../notes.md`): what a negated pipeline
        // changed may or may not have happened, whichever way the list goes on.
        let negated = p.bang.then(|| (self.cwd.clone(), self.assigned.len()));
        self.pipeline_stages(p);
        // (Stages run in subshells: `$_` after them is what it was before, not kept.)
        if p.seq.len() > 1 {
            self.last_arg = None;
        }
        if let Some((cwd0, log0)) = negated {
            if *self.cwd != cwd0 {
                self.cwd.forget();
            }
            self.unbind_since(log0);
        }
    }

    fn pipeline_stages(&mut self, p: &ast::Pipeline) {
        // Stages of a pipeline run side by side, each in a subshell (the last one maybe
        // not, with `lastpipe`): each starts from the state before it; afterwards what any
        // changed is unknown.
        let staged = p.seq.len() > 1;
        if staged {
            self.last_arg = None;
        }
        let start = staged.then(|| (self.cwd.clone(), self.bound.clone(), self.assigned.len()));
        // `set -e | true`: a stage's `set` does not reach this shell (but may, with lastpipe,
        // turn errexit off): on after only if it was on before and still is.
        let errexit0 = self.errexit;
        self.unsure += usize::from(staged);
        let mut moved = false;
        let mut piped: Option<String> = None;
        for (k, c) in p.seq.iter().enumerate() {
            if let Some((cwd0, bound0, _)) = &start {
                *self.cwd = cwd0.clone();
                self.bound = bound0.clone();
            }
            let before = self.a.commands.len();
            self.piped_in = piped.take();
            self.stage_output = None;
            let moved0 = self.stdin_moved;
            self.stdin_moved |= k > 0;
            let piped0 = self.stdout_piped;
            self.stdout_piped |= k + 1 < p.seq.len();
            let merges0 = self.a.stderr_merges;
            self.command(c);
            let merged = self.a.stderr_merges != merges0;
            self.stdin_moved = moved0;
            self.stdout_piped = piped0;
            // Only a simple command's own output is known (`{ echo a; rm x; } |` is not `a`).
            piped = if matches!(c, ast::Command::Simple(_)) { self.stage_output.take() } else { None };
            self.piped_in = None;
            if let Some((cwd0, _, _)) = &start {
                moved |= *self.cwd != *cwd0;
            }
            let fed = self.stdin_listing.take();
            let fed_lines = std::mem::take(&mut self.stdin_lines);
            // A stage that only lists paths (`find src -name '*.rs'`) feeds the next one
            // paths under its start points; so does one that passes on some of the lines of
            // a listing it is fed (`| sort`, `| head -n 5`, `| grep -v test`).
            if k + 1 < p.seq.len() && self.a.commands.len() == before + 1 && !merged {
                let last = self.a.commands.last();
                let filter = matches!(c, ast::Command::Simple(_)) && last.is_some_and(line_filter);
                // (A NUL-separated listing only through the filter's NUL form, `sort -z`: red
                // team 80's `find ... -print0 | sort -z | xargs -0 ...` was asked.)
                let nul_filter = matches!(c, ast::Command::Simple(_)) && last.is_some_and(nul_line_filter);
                self.stdin_listing = last
                    .and_then(listing_of)
                    .or_else(|| fed.filter(|l| if nul_listing(l) { nul_filter } else { filter }));
                // (Object names pass a line filter too: red team 71's `git rev-list --reverse
                // HEAD | head -1 | xargs git show --stat`.)
                // (And `wc`'s counts: `wc -l src/*.rs | head -n -1 | while read -r n _`.)
                let numbers = last.and_then(|c| self.prints_numbers(c));
                self.stdin_lines = match (last, numbers) {
                    (Some(c), _) if self.lists_object_names(c) => Lines::Objects,
                    (Some(c), _) if self.counts_lines(std::slice::from_ref(c)) => Lines::Counts,
                    (_, Some(integers)) => Lines::Numbers(integers),
                    _ if filter => fed_lines,
                    _ => Lines::Other,
                };
            }
        }
        self.stdin_listing = None;
        self.stdin_lines = Lines::Other;
        self.unsure -= usize::from(staged);
        if staged {
            self.errexit = errexit0 && self.errexit;
        }
        if let Some((cwd0, bound0, log0)) = start {
            *self.cwd = cwd0;
            if moved {
                self.cwd.forget();
            }
            self.bound = bound0;
            self.unbind_since(log0);
        }
    }

    fn command(&mut self, c: &ast::Command) {
        use ast::{IoFileRedirectKind as K, IoFileRedirectTarget as T, ProcessSubstitutionKind as PK};
        if !matches!(c, ast::Command::Simple(_)) {
            // (`[[ ]]`, `(( ))`, a loop's next pass, a function's definition: `$_` is
            // something else there, or after.)
            self.last_arg = None;
        }
        let compound = !matches!(c, ast::Command::Simple(_));
        match c {
            ast::Command::Simple(sc) => self.simple(sc),
            ast::Command::Compound(cc, redirects) => {
                // A redirection that fails (`<&9` on a closed descriptor, a missing file) skips
                // the whole command: what it changes may not have happened (eleventh round:
                // `x=rm; { x=echo; } <&9; $x y` ran rm).
                let fallible = redirects
                    .as_ref()
                    .is_some_and(|r| r.0.iter().any(|io| may_fail(io, self.std_closed, self.restricted)));
                let start = fallible.then(|| self.may_not_happen_start());
                // With a redirection of its input it may not be the listing piped in (`find src
                // | while read -r f; do ...; done < names`); one of its output keeps it (red
                // team 67: `... | while read -r f; do ...; done > docs/heads.md`).
                if redirects.as_ref().is_some_and(|r| r.0.iter().any(may_move_stdin)) {
                    self.stdin_listing = None;
                    self.stdin_lines = Lines::Other;
                }
                let moved0 = self.stdin_moved;
                let listed = |n: &str| self.listed_name(n);
                let moves = redirects.as_ref().is_some_and(|r| r.0.iter().any(|io| stdin_redirect(io, &listed)));
                self.stdin_moved |= moves;
                // `while read -r f; do ...; done < <(find src -name '*.md')`: the listing is the
                // loop's input, as through a pipe (red team 47: was asked).
                // (Beside redirections of its output: `done < <(find ...) > docs/all.md`, red
                // team 68.)
                let fed_at = match (cc, redirects.as_ref()) {
                    (ast::CompoundCommand::WhileClause(_), Some(r)) => {
                        let input = |io: &ast::IoRedirect| matches!(io, ast::IoRedirect::File(fd, K::Read, T::ProcessSubstitution(PK::Read, _)) if fd.is_none_or(|f| f == 0));
                        let inputs: Vec<usize> = (0..r.0.len()).filter(|k| input(&r.0[*k])).collect();
                        match inputs.as_slice() {
                            [k] if r.0.iter().enumerate().all(|(j, io)| j == *k || !may_move_stdin(io)) => Some(*k),
                            _ => None,
                        }
                    }
                    _ => None,
                };
                if let (Some(k), Some(r)) = (fed_at, redirects.as_ref()) {
                    self.stdin_listing = self.substituted_input(&r.0[k]);
                }
                let fed = fed_at.is_some();
                // (Its functions are not surely defined either: red team 52, `{ rm(){ echo;
                // }; } <&9; rm -f m` ran rm.)
                self.unsure += usize::from(fallible);
                self.compound(cc);
                self.unsure -= usize::from(fallible);
                self.stdin_moved = moved0;
                match redirects {
                    Some(r) if fed => {
                        for (k, io) in r.0.iter().enumerate() {
                            if Some(k) != fed_at {
                                self.redirect(io);
                            }
                        }
                        self.stdin_script = Some(Err(()));
                    }
                    Some(r) => self.redirect_list(r),
                    None => {}
                }
                if let Some(start) = start {
                    self.may_not_have_happened(start);
                }
            }
            ast::Command::Function(f) => {
                // A function named like a builtin or a program gate models (`builtin`,
                // `command`, `cd`, `local`, `pwd`, `git`) replaces it everywhere after, in
                // bodies already walked too, and in `$(pwd)` or `builtin cd` forms gate reads
                // as the original (red team 41: `builtin(){ :; }; builtin cd src || exit;
                // cat ../.env`, `g(){ cd src && cat ../x; }; cd(){ :; }; g`): not modelled.
                let fname = f.fname.value.as_str();
                // (`/bin/true(){ V=rm; }; /bin/true; $V -f x`: bash calls the function for the
                // command word `/bin/true`, which gate reads as the program; red team 110 D.)
                if fname.contains('/') {
                    self.a.unknown.push(format!("a function named `{fname}` replaces that program path"));
                }
                // (Under `set -a` it is exported to every child shell, where a script calls
                // commands by bare name: a `python3` shim of pyenv runs `pyenv-hooks`; red team
                // 114 A.)
                if self.allexport {
                    self.a.unknown.push(format!(
                        "`set -a` exports the function `{fname}` to child shells, where scripts may call it"
                    ));
                }
                if BASH_BUILTINS.contains(&fname) || tables::is_modelled_program(fname) {
                    self.a.unknown.push(format!(
                        "a function named `{fname}` replaces the {} gate models",
                        if BASH_BUILTINS.contains(&fname) { "builtin" } else { "program" }
                    ));
                }
                self.functions.push(f.fname.value.clone());
                self.a.defined.push(f.fname.value.clone());
                self.bodies.push((f.fname.value.clone(), f.body.clone(), self.cwd.clone()));
                if self.unsure == 0 {
                    self.sure.push(f.fname.value.clone());
                }
                if fname == "command_not_found_handle" {
                    self.a.hidden_calls = true;
                }
                if self.a.deferred.iter().any(|d| d == fname) {
                    // Walked at each call (every one seen, with known words).
                    return;
                }
                self.unsure += 1;
                // The body runs whenever the function is called: its commands are parts. A
                // function that shadows a command (`:`, `ls`) is decided by that body.
                let saved = self.cwd.clone();
                // Its variables hold what they hold when it is called: unknown here; so do its
                // positional parameters, the call's arguments (sixth red team:
                // `sh -c 'echo(){ "$1" "$2"; }; echo rm x' _ true y`).
                let bound = std::mem::take(&mut self.bound);
                let params = self.params.take();
                let log0 = self.assigned.len();
                let jumps0 = self.jumps;
                self.defining.push(f.fname.value.clone());
                let locals0 = self.locals.len();
                self.compound(&f.body.0);
                self.locals.truncate(locals0);
                if let Some(r) = &f.body.1 {
                    self.redirect_list(r);
                }
                self.defining.pop();
                self.unsure -= 1;
                *self.cwd = saved;
                self.bound = bound;
                self.params = params;
                // Defining it assigns nothing, and jumps nowhere.
                self.assigned.truncate(log0);
                self.jumps = jumps0;
            }
            ast::Command::ExtendedTest(t, redirects) => {
                self.extended_test(&t.expr);
                if let Some(r) = redirects {
                    self.redirect_list(r);
                }
            }
        }
        if compound {
            self.last_arg = None;
        }
    }

    fn extended_test(&mut self, e: &ast::ExtendedTestExpr) {
        use ast::ExtendedTestExpr as E;
        match e {
            E::And(a, b) | E::Or(a, b) => {
                self.extended_test(a);
                self.extended_test(b);
            }
            E::Not(a) | E::Parenthesized(a) => self.extended_test(a),
            E::UnaryTest(pred, w) => {
                let v = matches!(pred, ast::UnaryPredicate::ShellVariableIsSetAndAssigned);
                // `[[ ]]` does not glob: `a[x]` there is that text, not a pattern.
                let saved = self.assigning;
                self.assigning |= v;
                let r = self.word(&w.value);
                self.assigning = saved;
                self.note_unknown(r.unknown);
                // A file test looks at a file: a known one is a read, as `test`'s are (red
                // team 62: `[[ -s ~/.ssh/id_rsa ]]`).
                let on_string = matches!(
                    pred,
                    ast::UnaryPredicate::StringHasZeroLength
                        | ast::UnaryPredicate::StringHasNonZeroLength
                        | ast::UnaryPredicate::ShellOptionEnabled
                        | ast::UnaryPredicate::ShellVariableIsSetAndAssigned
                        | ast::UnaryPredicate::ShellVariableIsSetAndNameRef
                        | ast::UnaryPredicate::FdIsOpenTerminal
                );
                if let (false, Word::Lit(_)) = (on_string, &r.word) {
                    self.a.reads.push(Write { path: r.word.clone(), kind: WriteKind::Tee, cwd: self.cwd.0.clone() });
                }
                if v {
                    match &r.word {
                        // (A literal number: `[[ -v files[0] ]]` evaluates nothing, red team 62.)
                        Word::Lit(name)
                            if name.split_once('[').is_some_and(|(_, k)| {
                                let k = k.trim_end_matches(']');
                                !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) && name.ends_with(']')
                            }) => {}
                        Word::Lit(name) if name.contains('[') => {
                            self.a.unknown.push(format!("`[[ -v {name} ]]` evaluates a subscript, which can run code"));
                            let name = name.clone();
                            self.substitutions_in(&name);
                            self.values_evaluated(name.split_once('[').map_or("", |(_, k)| k));
                        }
                        Word::Lit(_) => {}
                        // Seventh red team: `[[ -v $(cat f) ]]` with `a[$(cmd)]` in f.
                        Word::Dyn(d) => self.a.unknown.push(format!(
                            "`[[ -v {d} ]]`: a name only known at run time may hold a subscript, which can run code"
                        )),
                    }
                }
            }
            E::BinaryTest(pred, l, r) => {
                let arithmetic = matches!(
                    pred,
                    ast::BinaryPredicate::ArithmeticEqualTo
                        | ast::BinaryPredicate::ArithmeticNotEqualTo
                        | ast::BinaryPredicate::ArithmeticLessThan
                        | ast::BinaryPredicate::ArithmeticLessThanOrEqualTo
                        | ast::BinaryPredicate::ArithmeticGreaterThan
                        | ast::BinaryPredicate::ArithmeticGreaterThanOrEqualTo
                );
                for w in [l, r] {
                    let res = self.word(&w.value);
                    self.note_unknown(res.unknown);
                    if arithmetic {
                        // `[[ IFS=0 -eq 0 ]]` assigns as arithmetic does (review).
                        self.arithmetic_assigns(w.value.trim().trim_matches('"'));
                    }
                    if arithmetic && !self.arithmetic_known(w.value.trim().trim_matches('"')) {
                        self.a
                            .unknown
                            .push(format!("`[[ ... ]]` evaluates `{}` as arithmetic, which can run code", w.value));
                    }
                }
            }
        }
    }

    fn note_unknown(&mut self, u: Option<String>) {
        if let Some(u) = u {
            self.a.unknown.push(u);
        }
    }

    fn compound(&mut self, cc: &ast::CompoundCommand) {
        // Inside a compound command errexit may be ignored (a condition, a list the compound
        // is part of, `!`): gate does not follow which, so it is not relied on there, nor
        // after it (fifth red team: `set -e; ! { cd x; cat ../y; }`).
        self.errexit = false;
        let unsure = !matches!(cc, ast::CompoundCommand::BraceGroup(_));
        self.unsure += usize::from(unsure);
        self.compound_inner(cc);
        self.unsure -= usize::from(unsure);
        self.errexit = false;
    }

    fn compound_inner(&mut self, cc: &ast::CompoundCommand) {
        use ast::CompoundCommand as C;
        let saved = self.cwd.clone();
        match cc {
            C::Arithmetic(a) => self.arithmetic(&a.expr.value),
            C::ArithmeticForClause(f) => {
                for e in [&f.initializer, &f.condition, &f.updater].into_iter().flatten() {
                    self.arithmetic(&e.value);
                }
                let text = |e: &Option<ast::UnexpandedArithmeticExpr>| e.as_ref().map(|e| e.value.clone());
                let counted = counted_loop(&text(&f.initializer), &text(&f.condition), &text(&f.updater))
                    .filter(|(name, _)| !tables::is_dangerous_variable(name) && !self.is_integer(name));
                let mut passes = false;
                if let Some((name, values)) = counted {
                    // `for ((i=1; i<=3; i++))`: the passes over those numbers, as `for i in 1 2
                    // 3` (red team 66), where the body leaves the counter alone.
                    let m = self.mark();
                    let (cwd0, bound0, params0, jumps0) =
                        (self.cwd.clone(), self.bound.clone(), self.params.clone(), self.jumps);
                    self.counters.push((name.clone(), false));
                    self.for_loop(&name, Some(values.into_iter().map(Word::Lit).collect()), &f.body.list, true, false);
                    passes = !self.counters.pop().is_none_or(|(_, hit)| hit);
                    if passes {
                        self.bind_number(&name);
                    } else {
                        // (Else walked again as any loop: the passes are not those.)
                        self.truncate(m);
                        (*self.cwd, self.bound, self.params, self.jumps) = (cwd0, bound0, params0, jumps0);
                    }
                }
                if !passes {
                    self.loop_body(&|w: &mut Self| w.compound_list(&f.body.list));
                    // The condition and the update run again after the body, which may have
                    // changed what they read.
                    for e in [&f.condition, &f.updater].into_iter().flatten() {
                        self.arithmetic(&e.value);
                    }
                }
            }
            C::BraceGroup(b) => self.compound_list(&b.list),
            C::Subshell(s) => {
                let bound = self.bound.clone();
                self.compound_list(&s.list);
                // A subshell's `cd` and assignments end with it.
                *self.cwd = saved;
                self.bound = bound;
                return;
            }
            C::ForClause(f) => {
                if tables::is_dangerous_variable(&f.variable_name) {
                    self.a.unknown.push(format!("the loop sets {}, which changes what runs", f.variable_name));
                }
                let mut words: Option<Vec<Word>> = f.values.as_ref().map(|_| Vec::new());
                self.cwd_tilde = false;
                let pushed = self.a.commands.len();
                if let Some(values) = &f.values {
                    for v in values {
                        for r in self.words(&v.value) {
                            self.note_unknown(r.unknown);
                            if self.is_integer(&f.variable_name) {
                                let u = self.integer_value(&f.variable_name, &r.word, &v.value);
                                self.note_unknown(u);
                            }
                            if let Some(w) = words.as_mut() {
                                // `{1..5}`: bash's sequence, the numbers themselves (a few), or
                                // numbers gate does not list (red team 43).
                                let text = match &r.word {
                                    Word::Lit(t) | Word::Dyn(t) => t.as_str(),
                                };
                                match integer_sequence(text) {
                                    Some(Some(ns)) => w.extend(ns.into_iter().map(Word::Lit)),
                                    Some(None) => w.push(Word::Dyn(r.word.display())),
                                    None => w.push(r.word),
                                }
                            }
                        }
                    }
                } else if self.is_integer(&f.variable_name) {
                    self.a.unknown.push(format!(
                        "the loop gives the positional parameters to {}, which has the integer attribute",
                        f.variable_name
                    ));
                } else if let Some(params) = self.params.clone() {
                    // `set -- src/a.rs src/b.rs; for f; do ...`: the parameters gate knows.
                    words = Some(params);
                }
                // (`for d in ~+`: an absolute path bash gives, relative here: not bound.)
                let words = words.filter(|_| !std::mem::take(&mut self.cwd_tilde));
                // `for f in $(find src -name '*.rs')`: each pass's `$f` is a name it prints.
                // (Or `for f in $files` of `files=$(LISTING)`.)
                let listing = match f.values.as_deref() {
                    Some([v]) => self
                        .substituted_listing(&v.value, pushed)
                        .or_else(|| self.listed_value(&v.value).filter(|(_, q)| !q).map(|(l, _)| l)),
                    _ => None,
                };
                // `for rev in $(git rev-list -n 5 HEAD)`: each pass's `$rev` is an object name
                // (red team 67), where the one substitution walked one command, git listing.
                let objects = match (f.values.as_deref(), self.a.commands.get(pushed..)) {
                    (Some([v]), Some([c])) => {
                        v.value
                            .strip_prefix("$(")
                            .and_then(|r| r.strip_suffix(')'))
                            .is_some_and(|i| !i.contains(['$', '`', ';', '&', '<', '>', '|', '(', ')', '\n']))
                            && self.lists_object_names(c)
                    }
                    _ => false,
                };
                // (`for f in "${rs[@]}"` of an array `mapfile` filled with a listing.)
                let array = match f.values.as_deref() {
                    Some([v]) => self.listed_array(&v.value),
                    _ => None,
                };
                match listing.and_then(|l| loop_listing(&l, None)).or(array) {
                    Some(wrapper) => self.listing_loop(&f.variable_name, wrapper, &f.body.list),
                    None => self.for_loop(&f.variable_name, words, &f.body.list, false, objects),
                }
            }
            C::CaseClause(c) => {
                let r = self.word(&c.value.value);
                self.note_unknown(r.unknown);
                // `;&` and `;;&` go on into the next branch with the state this one left: walked
                // in order, as a loop body is, so what a branch changes is unknown to the
                // next (sixth red team: `x=echo; case a in a) x=rm ;& b) $x victim ;; esac`).
                if c.cases.iter().any(|i| !matches!(i.post_action, ast::CaseItemPostAction::ExitCase)) {
                    self.loop_body(&|w: &mut Self| {
                        for item in &c.cases {
                            w.case_patterns(item);
                            if let Some(l) = &item.cmd {
                                w.compound_list(l);
                            }
                        }
                    });
                } else {
                    let mut branches = Branches::start(self);
                    for item in &c.cases {
                        self.case_patterns(item);
                        if let Some(l) = &item.cmd {
                            branches.enter(self);
                            self.compound_list(l);
                            branches.leave(self);
                        }
                    }
                    branches.end(self);
                }
            }
            C::IfClause(i) => {
                // `if cd src; then cat a.rs; fi`: the branch runs only where the `cd` worked,
                // the other branches only where it failed (issue 15 over-ask).
                let failed = match i.condition.0.as_slice() {
                    [item] if self.is_cd_condition(item) => {
                        self.and_or(&item.0);
                        self.alt_cwd.take()
                    }
                    _ => {
                        self.compound_list(&i.condition);
                        None
                    }
                };
                // Each branch starts from the state after the condition; afterwards what any
                // of them changed is unknown.
                let mut branches = Branches::start(self);
                branches.enter(self);
                self.compound_list(&i.then);
                branches.leave(self);
                for e in i.elses.iter().flatten() {
                    branches.enter(self);
                    if let Some(f) = &failed {
                        *self.cwd = f.clone();
                    }
                    if let Some(c) = &e.condition {
                        self.compound_list(c);
                    }
                    self.compound_list(&e.body);
                    branches.leave(self);
                }
                branches.end(self);
                if failed.is_some() {
                    // Where the `cd` failed and no branch ran, the shell is still where it was.
                    self.cwd.forget();
                }
            }
            C::WhileClause(w) | C::UntilClause(w) => {
                // `find src -name '*.rs' | while read -r f; do wc -l "$f"; done`: each pass's
                // `$f` is a name the listing prints.
                let listing = self.stdin_listing.take().filter(|l| matches!(cc, C::WhileClause(_)) && !echo_listing(l));
                // `git log --format=%H -n 3 | while read -r sha; do git show "$sha"`: each
                // pass's `$sha` is an object name (red team 67).
                let lines = std::mem::take(&mut self.stdin_lines);
                let objects = lines == Lines::Objects && matches!(cc, C::WhileClause(_));
                // `while read -r n _; do total=$((total + n)); done < <(wc -l src/*.rs)`: each
                // pass's `$n` is a count (red teams 82, 84, 91, 100).
                // (Or of numbers, one a line: `seq 1 5 | while read i`, red team 103.)
                let count_name = (matches!(lines, Lines::Counts | Lines::Numbers(_))
                    && matches!(cc, C::WhileClause(_)))
                .then(|| self.read_count_into(&w.0, matches!(lines, Lines::Numbers(_))))
                .flatten();
                let counted_value =
                    if matches!(lines, Lines::Counts | Lines::Numbers(true)) { INTEGER } else { NUMBER };
                let object_name = objects
                    .then(|| self.read_line_into(&w.0, false))
                    .flatten()
                    .filter(|(name, nul, _)| {
                        !nul && !tables::is_dangerous_variable(name) && !self.is_integer(name) && self.ifs().is_some()
                    })
                    .map(|(name, _, _)| name);
                let looped = listing.and_then(|l| {
                    let (name, nul, kept) = self.read_line_into(&w.0, true)?;
                    // (git's names are bare, from the top: `read` without `IFS=` drops the
                    // blanks a name starts with, and ` /etc/passwd`, a directory ` ` in the
                    // index, becomes `/etc/passwd`; red team 75.)
                    let git =
                        l.first().and_then(Word::lit).is_some_and(|f| f == GIT_NUL_LISTING || f == GIT_LINE_LISTING);
                    if git && !read_keeps_blanks(&w.0) {
                        return None;
                    }
                    let mut wrapper = loop_listing(&l, Some(nul))?;
                    // (The index's names read whole with `IFS=`: the edge then looks only for
                    // one that starts with `-`.)
                    if l.first().and_then(Word::lit) == Some(GIT_INDEX_LISTING) && read_keeps_blanks(&w.0) {
                        wrapper.kind = WrapperKind::Listing(Split::Whole);
                    }
                    // (Without `-r`: no name may hold a backslash, nor a blank `read` trims.)
                    if !kept {
                        if git {
                            return None;
                        }
                        wrapper.kind = WrapperKind::Listing(Split::Blanks);
                    }
                    Some((name, wrapper))
                });
                match looped {
                    _ if count_name.is_some() => {
                        let name = count_name.unwrap_or_default();
                        self.compound_list(&w.0);
                        self.loop_body(&|x: &mut Self| {
                            x.bind(&name, vec![Word::Dyn(counted_value.into())]);
                            x.compound_list(&w.1.list);
                        });
                        self.unbind(&name);
                    }
                    _ if object_name.is_some() => {
                        let name = object_name.unwrap_or_default();
                        self.compound_list(&w.0);
                        self.loop_body(&|x: &mut Self| {
                            x.bind(&name, vec![Word::Dyn(OBJECT_LISTED.into())]);
                            x.compound_list(&w.1.list);
                        });
                        self.unbind(&name);
                    }
                    Some((name, wrapper)) => {
                        self.compound_list(&w.0);
                        // A command in the body that reads the loop's input takes some of it
                        // from the next `read`, which then gets what is left of a name (red
                        // team 43: `head -c1 >/dev/null` turns `./etc/hostname` into
                        // `/etc/hostname`).
                        let watch0 = self.a.stdin_readers.replace(Vec::new());
                        let moved0 = std::mem::replace(&mut self.stdin_moved, false);
                        self.listing_loop(&name, wrapper, &w.1.list);
                        self.stdin_moved = moved0;
                        let readers = std::mem::replace(&mut self.a.stdin_readers, watch0).unwrap_or_default();
                        if let Some(r) = readers.first() {
                            self.a.unknown.push(format!(
                                "`{r}` in the loop may read the names the loop reads from its input, and cut the next one"
                            ));
                        }
                    }
                    None => self.loop_body(&|x: &mut Self| {
                        x.compound_list(&w.0);
                        x.compound_list(&w.1.list);
                    }),
                }
                // The loop ends after its condition, which runs after the body: the state is
                // the condition's (`while i=text; false; do i=1; done`).
                self.compound_list(&w.0);
            }
            C::Coprocess(c) => {
                self.apart(&|w: &mut Self| w.command(&c.body));
                if let Some(u) = self.coproc_name(c.name.as_ref()) {
                    self.a.unknown.push(u);
                }
                return;
            }
        }
        // A `cd` that may or may not have happened leaves the directory unknown.
        if *self.cwd != saved {
            self.cwd.forget();
        }
    }

    /// A `case` item's patterns: words bash expands when it tries them.
    fn case_patterns(&mut self, item: &ast::CaseItem) {
        for p in &item.patterns {
            let r = self.word(&p.value);
            self.note_unknown(r.unknown);
        }
    }

    fn arithmetic(&mut self, expr: &str) {
        let known = self.arithmetic_known(expr);
        self.values_evaluated(expr);
        // (bash runs the substitutions before it assigns: `(( t += $(wc -l < "$f") ))` reads
        // the loop's `f`, red team 87.)
        if expr.contains("$(") || expr.contains('`') {
            self.substitutions_in(expr);
        }
        self.arithmetic_assigns(expr);
        if !known {
            self.a.unknown.push(format!("arithmetic `{}` evaluates variables, which can run code", expr.trim()));
        }
    }

    /// `(( f = 1 ))`, `(( f++ ))`: a name in arithmetic that assigns may be assigned.
    fn arithmetic_assigns(&mut self, expr: &str) {
        let b = expr.as_bytes();
        let assigns = expr.contains("++")
            || expr.contains("--")
            || (0..b.len()).any(|i| {
                b[i] == b'='
                    && !matches!(i.checked_sub(1).map(|j| b[j]), Some(b'=' | b'!' | b'<' | b'>'))
                    && b.get(i + 1) != Some(&b'=')
            });
        if assigns {
            // A name that held a number holds one after (arithmetic assigns numbers, and a
            // failed assignment leaves the old one); `i=0` makes one unless a division can
            // end the expression before it.
            let literal: Vec<String> = if !arithmetic_cannot_fail(expr) || expr.contains(',') {
                Vec::new()
            } else {
                expr.split(',')
                    .flat_map(|part| {
                        let (targets, rhs) = assignment_targets(part);
                        // A right side of numbers only (`i=0`, `y=x+1` with x a number).
                        let number = !rhs.trim().is_empty()
                            && !rhs.contains(['$', '`', '[', '='])
                            && identifiers(rhs).iter().all(|n| self.is_number(n));
                        if number {
                            targets
                        } else {
                            Vec::new()
                        }
                    })
                    .collect()
            };
            // (Not the names inside a substitution's text, which runs apart: `(( t += $(wc -l
            // < "$f") ))` assigns t, not f; red team 87.)
            for n in identifiers(&without_substitutions(expr, false)) {
                // `((IFS=0))` splits later words on `0` (sixth red team).
                if tables::is_dangerous_variable(&n) || n == "IFS" {
                    self.a
                        .unknown
                        .push(format!("arithmetic `{}` may assign {n}, which changes what runs", expr.trim()));
                }
                let number = self.is_number(&n) || literal.contains(&n);
                self.unbind(&n);
                if number && !NUMERIC_SPECIALS.contains(&n.as_str()) {
                    self.bind_number(&n);
                }
            }
        }
    }

    /// Arithmetic evaluates the value of each variable it reads as arithmetic in turn, and a
    /// subscript there expands its `$(...)` (seventh red team: `x='a[$(rm y)]'; let z=x*1`):
    /// where gate knows such a value, what it runs is decided as run (one level deep).
    fn values_evaluated(&mut self, expr: &str) {
        self.values_evaluated_from(expr, 0);
    }

    /// [`Self::values_evaluated`], following a value that is itself an expression naming other
    /// variables (`m='a[$(cmd)]'; n=m; b=([n]=1)`), a few levels deep.
    fn values_evaluated_from(&mut self, expr: &str, depth: usize) {
        if depth > 4 {
            return;
        }
        for n in identifiers(expr) {
            let value = self.bound.iter().rev().find(|(b, _)| *b == n).map(|(_, v)| v.clone());
            if let Some([Word::Lit(v)]) = value.as_deref() {
                if v.contains('[') && (v.contains("$(") || v.contains('`')) {
                    let v = v.clone();
                    self.substitutions_in(&v);
                } else if v != &n && !v.contains(['$', '`']) && !identifiers(v).is_empty() {
                    let v = v.clone();
                    self.values_evaluated_from(&v, depth + 1);
                }
            }
        }
    }

    /// Whether arithmetic reads only numbers gate knows: literals, `$?`, `$#`, `$$`, `$!`, and
    /// variables bound to a literal number (`n=5`, `for i in 1 2 3`). Anything else is a value
    /// bash evaluates in turn, which can run code.
    fn arithmetic_known(&self, expr: &str) -> bool {
        if !arithmetic_reads_variables(expr) {
            return true;
        }
        // `$(wc -l < "$f")`, `$(grep -c x f)`: a count, or nothing (the command itself is
        // decided where it runs).
        let Some(expr) = numbers_substituted(expr) else { return false };
        // Arithmetic inside arithmetic (`${a[$((${#a[@]}-1))]}`, `$(( $((n+1)) * 2 ))`): a
        // number where its own text is known.
        let Some(expr) = self.nested_arithmetic_as_numbers(&expr) else { return false };
        // A length is a plain number: `${#name}`, `${#name[@]}`, `${#name[*]}`; so is an item
        // of an array of literal numbers (red team 84: `arr=(3 4); echo $(( ${arr[0]} *
        // ${arr[1]} ))` was asked).
        let mut text = self.number_items_as_numbers(&lengths_as_numbers(&defaults_as_names(&expr)));
        if text.contains('[') {
            return false;
        }
        for special in ["$?", "$#", "$$", "$!"] {
            text = text.replace(special, "0");
        }
        // `$1`, `${2}`, `$@`, `$-`: values gate does not know.
        let b = text.as_bytes();
        let named = |k: usize| b.get(k).is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_');
        if (0..b.len()).any(|i| b[i] == b'$' && !(named(i + 1) || b.get(i + 1) == Some(&b'{') && named(i + 2))) {
            return false;
        }
        let text = text.replace("${", "").replace(['$', '}'], " ");
        let number = |n: &str| self.is_number(n);
        // In order, each comma-separated expression: the targets of a plain `=` are written,
        // not read, and hold a number for the rest of this expression (an assignment that
        // fails, to a read-only name or by division by zero, ends the expression). Nothing is
        // assumed after it: a failed, backgrounded or never-called assignment leaves the old
        // value (found in review).
        let mut assigned: Vec<String> = Vec::new();
        for part in text.split(',') {
            let (targets, rhs) = assignment_targets(part);
            if !identifiers(rhs).iter().all(|n| number(n) || assigned.contains(n)) {
                return false;
            }
            assigned.extend(targets);
        }
        !text.contains(['$', '`', '['])
    }

    /// `expr` with each `$((INNER))` whose INNER is known arithmetic as `0`; `None` where one
    /// is not, or does not close with `))` after balanced parentheses (where bash may read a
    /// command substitution of a subshell instead).
    fn nested_arithmetic_as_numbers(&self, expr: &str) -> Option<String> {
        let mut out = String::new();
        let mut rest = expr;
        while let Some(at) = rest.find("$((") {
            out.push_str(&rest[..at]);
            let body = &rest[at + 3..];
            let mut depth = 0usize;
            let mut end = None;
            let b = body.as_bytes();
            for (i, c) in b.iter().enumerate() {
                match c {
                    b'(' => depth += 1,
                    b')' if depth > 0 => depth -= 1,
                    b')' => {
                        end = Some(i);
                        break;
                    }
                    _ => {}
                }
            }
            let end = end.filter(|e| b.get(e + 1) == Some(&b')'))?;
            if !self.arithmetic_known(&body[..end]) {
                return None;
            }
            out.push('0');
            rest = &body[end + 2..];
        }
        out.push_str(rest);
        Some(out)
    }

    /// `expr` with each item of an indexed array whose every item is a literal decimal number
    /// (`${a[1]}`, `a[0]`, `a[i]`; the index literal digits or a name holding a number) as
    /// `0`: a number, or nothing where the index is past the end. Other subscripts are left as
    /// they are.
    fn number_items_as_numbers(&self, expr: &str) -> String {
        // (`PIPESTATUS` holds exit statuses where the text gave it nothing: red team 87.)
        let statuses = |name: &str| name == "PIPESTATUS" && !self.assigned.iter().any(|a| a == name);
        let numbers = |name: &str| {
            !self.is_associative(name) && statuses(name)
                || !self.is_associative(name)
                    && self.bound.iter().rev().find(|(b, _)| b == name).is_some_and(|(_, v)| {
                        !v.is_empty()
                            && v.iter().all(|w| {
                                w.lit().is_some_and(|t| {
                                    let d = t.strip_prefix('-').unwrap_or(t);
                                    !d.is_empty()
                                        && d.bytes().all(|b| b.is_ascii_digit())
                                        && (d == "0" || !d.starts_with('0'))
                                })
                            })
                    })
        };
        let b = expr.as_bytes();
        let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
        let mut out = String::with_capacity(expr.len());
        let mut i = 0;
        while i < b.len() {
            // An identifier (not a number's letters: `0x1f`) followed by `[DIGITS]`, maybe
            // inside `${...}`.
            if (b[i].is_ascii_alphabetic() || b[i] == b'_') && (i == 0 || !ident(b[i - 1])) {
                let end = (i..b.len()).find(|&k| !ident(b[k])).unwrap_or(b.len());
                let name = &expr[i..end];
                // (The index digits, or a name holding a number: red team 85's `for i in 0 1
                // 2; do echo $((a[i] * 2)); done`.)
                let close = (b.get(end) == Some(&b'['))
                    .then(|| (end + 1..b.len()).find(|&k| b[k] == b']'))
                    .flatten()
                    .filter(|&k| {
                        // (`$1` is a positional parameter, whose text bash evaluates again:
                        // red team 88's `a[$1]` with `set -- i`, `i='z[$(rm -f m)]'`.)
                        let index = &expr[end + 1..k];
                        match index.strip_prefix('$') {
                            Some(name) => is_identifier(name) && self.is_number(name),
                            None => {
                                (!index.is_empty() && index.bytes().all(|c| c.is_ascii_digit()))
                                    || (is_identifier(index) && self.is_number(index))
                            }
                        }
                    });
                if let Some(k) = close.filter(|_| numbers(name)) {
                    let braced = i >= 2 && &expr[i - 2..i] == "${" && b.get(k + 1) == Some(&b'}');
                    if braced {
                        out.truncate(out.len() - 2);
                        out.push('0');
                        i = k + 2;
                    } else {
                        out.push('0');
                        i = k + 1;
                    }
                    continue;
                }
                out.push_str(name);
                i = end;
                continue;
            }
            let ch = expr[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
        out
    }

    /// The value of arithmetic gate can compute: decimal literals and variables bound to one
    /// (as bash reads them: no leading `0`, which is octal), `+ - * / %`, unary `+`/`-` and
    /// parentheses, in 64 bits without overflow; `None` for anything else (an assignment, a
    /// division by zero, a name gate does not know).
    fn arithmetic_value(&self, expr: &str) -> Option<i64> {
        let decimal = |t: &str| -> Option<i64> {
            let digits = t.strip_prefix('-').unwrap_or(t);
            let plain = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
            (plain && (digits == "0" || !digits.starts_with('0'))).then(|| t.parse().ok()).flatten()
        };
        let mut tokens: Vec<Arith> = Vec::new();
        let b = expr.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            if c.is_ascii_whitespace() {
                i += 1;
            } else if c.is_ascii_digit() {
                let end = (i..b.len()).find(|&k| !b[k].is_ascii_alphanumeric()).unwrap_or(b.len());
                tokens.push(Arith::Number(decimal(&expr[i..end])?));
                i = end;
            } else if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
                // `n`, `$n`, `${n}`.
                let (name, end) = if let Some(r) = expr[i..].strip_prefix("${") {
                    let close = r.find('}')?;
                    (&r[..close], i + 2 + close + 1)
                } else {
                    let from = if c == b'$' { i + 1 } else { i };
                    let end =
                        (from..b.len()).find(|&k| !(b[k].is_ascii_alphanumeric() || b[k] == b'_')).unwrap_or(b.len());
                    (&expr[from..end], end)
                };
                if !is_identifier(name) {
                    return None;
                }
                let (_, values) = self.bound.iter().rev().find(|(n, _)| n == name)?;
                let [Word::Lit(v)] = values.as_slice() else { return None };
                tokens.push(Arith::Number(decimal(v)?));
                i = end;
            } else if b"+-*/%()".contains(&c) {
                // (`++`, `--`, `**` are other operators.)
                if b"+-*".contains(&c) && b.get(i + 1) == Some(&c) {
                    return None;
                }
                tokens.push(Arith::Op(c));
                i += 1;
            } else {
                return None;
            }
        }
        let mut at = 0;
        let v = arith_sum(&tokens, &mut at)?;
        (at == tokens.len()).then_some(v)
    }

    /// Find the substitutions in free text (arithmetic, parameter defaults) and analyse them.
    fn substitutions_in(&mut self, text: &str) {
        let Ok(parsed) = std::panic::catch_unwind(|| bword::parse_heredoc(text, &parser_options())) else {
            self.a.unknown.push(format!("cannot read `{text}`"));
            return;
        };
        match parsed {
            Ok(pieces) => {
                let mut unknown = None;
                let mut buf = String::new();
                let mut dynamic = false;
                self.pieces(&pieces, true, &mut buf, &mut dynamic, &mut unknown);
                self.note_unknown(unknown);
            }
            Err(_) => self.a.unknown.push(format!("cannot read `{text}`")),
        }
    }

    fn redirect_list(&mut self, r: &ast::RedirectList) {
        for io in &r.0 {
            self.redirect(io);
        }
    }

    fn redirect(&mut self, io: &ast::IoRedirect) {
        use ast::IoFileRedirectKind as K;
        match io {
            ast::IoRedirect::File(fd, kind, target) => {
                // `2>&1` (and `|&`, which brush reads as it): the error text, which repeats a
                // command's own words (`find -D rates ... -newer .env`), joins the output a
                // listing would be (red team 64).
                let to_descriptor = match target {
                    ast::IoFileRedirectTarget::Fd(_) => true,
                    ast::IoFileRedirectTarget::Duplicate(w) => w.value != "-",
                    _ => false,
                };
                if *fd == Some(2) && to_descriptor {
                    self.a.stderr_merges += 1;
                }
                // A later redirection of standard input replaces a here-string or
                // here-document before it (sixth red team: `bash <<< "echo hi" < x.md`).
                if matches!(kind, K::Read | K::ReadAndWrite | K::DuplicateInput) && fd.is_none_or(|f| f == 0) {
                    self.stdin_script = Some(Err(()));
                }
                if let ast::IoFileRedirectTarget::Duplicate(w) = target {
                    if w.value == "-" && fd.is_none_or(|f| f <= 2) {
                        self.std_closed = true;
                    }

                    // `>&3`, `2>&0`, `1<&3`: a descriptor a redirection opened on a file for
                    // reading, put where writes to the standard output or error go: a program
                    // that opens `/dev/stdout` or `/dev/stderr` by name (tee, `sort -o`, `git
                    // --output=`) opens that file again, for writing (red team 50: `tee
                    // /dev/stdout 3<Cargo.toml >&3`).
                    let onto_output = matches!(
                        (fd, kind),
                        (Some(1 | 2), K::DuplicateInput) | (Some(1 | 2) | None, K::DuplicateOutput)
                    );
                    if let Some(file) = self.read_fd(w.value.trim_end_matches('-').parse().ok()).filter(|_| onto_output)
                    {
                        self.write(file, WriteKind::Redirect);
                    }
                    // `1<&3`: a descriptor opened elsewhere (maybe on a file, for reading) put
                    // where `/dev/stdout` writes go.
                    if matches!(fd, Some(1 | 2)) && matches!(kind, K::DuplicateInput) && w.value != "-" {
                        self.a.unknown.push(format!(
                            "`{}<&{}` puts another descriptor where writes to the standard output go",
                            fd.unwrap_or(0),
                            w.value
                        ));
                    }
                }
                // `2<.env`: a program that writes `/dev/stderr` (tee, a redirection) opens the
                // file on that descriptor again, for writing (eleventh round).
                if let (Some(1 | 2), K::Read, ast::IoFileRedirectTarget::Filename(w)) = (fd, kind, target) {
                    let r = self.word(&w.value);
                    self.write(r.word, WriteKind::Redirect);
                }
                self.file_redirect(fd.map_or(0, |f| f as u32), kind, target);
            }
            ast::IoRedirect::HereDocument(fd, doc) => {
                if let Some(why) = heredoc_read_otherwise(doc) {
                    self.a.unknown.push(why);
                }
                let dynamic = doc.requires_expansion && (doc.doc.value.contains('$') || doc.doc.value.contains('`'));
                if doc.requires_expansion {
                    self.substitutions_in(&doc.doc.value);
                }
                if fd.is_none_or(|f| f == 0) {
                    // An unquoted here-document loses the backslash of `\\`, `\$`, `` \` `` and
                    // of a line's end before the shell reading it sees the text (sixth red team:
                    // `sh <<EOF` with `echo \\'` lines around `rm victim`).
                    let text =
                        if doc.requires_expansion { heredoc_unescape(&doc.doc.value) } else { doc.doc.value.clone() };
                    self.stdin_script = Some(if dynamic { Err(()) } else { Ok(text) });
                }
            }
            ast::IoRedirect::HereString(fd, w) => {
                let r = self.word(&w.value);
                self.note_unknown(r.unknown);
                if fd.is_none_or(|f| f == 0) {
                    self.stdin_script = Some(match r.word {
                        Word::Lit(t) => Ok(t),
                        Word::Dyn(_) => Err(()),
                    });
                }
            }
            ast::IoRedirect::OutputAndError(w, append) => {
                let r = self.word(&w.value);
                self.note_unknown(r.unknown);
                self.write(r.word, if *append { WriteKind::Append } else { WriteKind::Redirect });
            }
        }
    }

    /// The file a redirection opened descriptor `n` on for reading, where gate saw it.
    fn read_fd(&self, n: Option<u32>) -> Option<Word> {
        self.read_fds.iter().find(|(m, _)| Some(*m) == n).map(|(_, f)| f.clone())
    }

    /// `fd` is the redirection's descriptor (0 where none is written before `<`).
    fn file_redirect(&mut self, fd: u32, kind: &ast::IoFileRedirectKind, target: &ast::IoFileRedirectTarget) {
        use ast::IoFileRedirectKind as K;
        use ast::IoFileRedirectTarget as T;
        match target {
            T::Filename(w) => {
                // bash expands braces in a redirection's word too, to one word or an error
                // (red team 52: `> .{e..e}nv` writes `.env`).
                let one = match super::words::shell_brace_expand(&w.value) {
                    super::words::Braces::Words(v) if v.len() == 1 => v.into_iter().next(),
                    _ => None,
                };
                let r = self.word(one.as_deref().unwrap_or(&w.value));
                self.note_unknown(r.unknown);
                if matches!(kind, K::Read | K::ReadAndWrite) {
                    self.read_fds.retain(|(m, _)| *m != fd);
                    self.read_fds.push((fd, r.word.clone()));
                }
                match kind {
                    K::Write | K::Clobber | K::ReadAndWrite => self.write(r.word, WriteKind::Redirect),
                    K::Append => self.write(r.word, WriteKind::Append),
                    K::DuplicateOutput => self.write(r.word, WriteKind::Redirect),
                    // Reading a device that holds nothing reads nothing.
                    K::Read if r.word.lit().is_some_and(tables::plain_device) => {}
                    // `< "$f"` in a loop over a listing: a name the listing lists, below its
                    // start points, which are decided as its reads (as `cat "$f"` is: red
                    // team 49's D26 was asked).
                    K::Read if r.word == Word::Dyn("{}".into()) && self.under_find() => {}
                    K::Read => {
                        self.a.reads.push(Write { path: r.word, kind: WriteKind::Redirect, cwd: self.cwd.0.clone() })
                    }
                    K::DuplicateInput => {}
                }
            }
            T::Duplicate(w) => {
                let r = self.word(&w.value);
                self.note_unknown(r.unknown);
                let is_fd = r
                    .word
                    .lit()
                    .is_some_and(|s| s == "-" || s.trim_end_matches('-').chars().all(|c| c.is_ascii_digit()));
                if !is_fd && matches!(kind, K::DuplicateOutput) {
                    // `>&file` writes to a file.
                    self.write(r.word, WriteKind::Redirect);
                }
            }
            T::Fd(_) => {}
            T::ProcessSubstitution(_, sub) => self.subshell(sub),
        }
    }

    fn subshell(&mut self, sub: &ast::SubshellCommand) {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.a.unknown.push(format!("commands nested more than {MAX_DEPTH} levels deep"));
        } else {
            self.apart(&|w: &mut Self| w.compound_list(&sub.list));
        }
        self.depth -= 1;
    }

    /// A call of a function of this script from another directory than it was defined in:
    /// its body, walked again from here, unless it is being walked already (recursion).
    /// Returns whether the call may have changed the directory, and the variables it may
    /// have assigned: a deferred body walked here says which (`Some`); otherwise any (`None`).
    fn call_function(&mut self, name: &str, args: &[Word]) -> (bool, Option<Vec<String>>) {
        if self.defining.iter().any(|d| d == name) {
            return (true, None);
        }
        // A function called from a body may `unset` that body's locals or `declare -g` them,
        // after which the body's assignments are the caller's (red team 110 D: `f(){ local
        // d=x; g; d=/etc; }; g(){ unset d; }`): where its text could, no name of the bodies
        // walked is their own any more. (One that only assigns, `g(){ x=/etc/passwd; }`,
        // assigns the body's local: red team 69.)
        let touches = self.bodies.iter().filter(|(n, _, _)| n == name).any(|(_, b, _)| {
            // (Quotes and backslashes dropped: `un\set`, `"un"set` run `unset`; red team 111 A.)
            let t = b.to_string().replace(['\\', '"', '\''], "");
            ["unset", "declare", "typeset", "eval", "source", "-g"].iter().any(|k| t.contains(k))
                || t.split_whitespace().any(|w| w == ".")
        });
        if touches {
            self.locals.clear();
        }
        // A function defined more than once: every body seen is walked (which one runs
        // depends on branches, subshells and `readonly -f`, which gate does not follow).
        let all: Vec<ast::FunctionBody> =
            self.bodies.iter().filter(|(n, _, _)| n == name).map(|(_, b, _)| b.clone()).collect();
        let last = self.bodies.iter().rev().find(|(n, _, _)| n == name);
        // Walked again where the directory differs from where it was defined, or with the
        // call's words as its positional parameters (a name a glob gives as well: `for f in
        // src/*.rs; do summarize "$f"; done`; or a glob's names, `count src/*.rs`, which only
        // `"$@"` hands on: [`Self::param`]); at every call where it is deferred.
        let literal = args.iter().all(glob_or_literal);
        self.a.calls.push(name.to_string());
        let deferred = self.a.deferred.iter().any(|d| d == name);
        let known_args = literal && !args.is_empty();
        let Some((_, last_body, _)) =
            last.filter(|(_, _, at)| deferred || at != &*self.cwd || known_args || all.len() > 1).cloned()
        else {
            // Not walked again: it changes the directory only if its text could (red team 44:
            // `main(){ setup; }; ...; main; npm test` lost the directory of `npm test`).
            let moves = all.iter().any(|b| self.may_change_directory(&b.to_string()));
            return (moves, None);
        };
        let bodies = if all.len() > 1 { all } else { vec![last_body] };
        let body_jumps = bodies.iter().any(|b| {
            let t = b.to_string();
            t.contains("break") || t.contains("continue")
        });
        let mut changes = (true, None);
        for body in bodies {
            self.walk_again(|w| {
                let (cwd0, bound0, params0, log0) = (w.cwd.clone(), w.bound.clone(), w.params.take(), w.assigned.len());
                // (A `return`, or a `break` bash refuses there, ends the body, not a loop of
                // the caller's: red team 62's `check "$f"` in a loop, with `return 1` inside.)
                let jumps0 = w.jumps;
                let locals0 = w.locals.len();
                // Its positional parameters are the call's words, when all are literal.
                if literal {
                    w.params = Some(args.to_vec());
                }
                w.defining.push(name.to_string());
                w.unsure += 1;
                // (`shift` at the body's own level runs wherever the body does: red team 110
                // C's `f() { local pat=$1; shift; grep -c -- "$pat" "$@"; }; f fn src/a.rs`.)
                let params_at0 = std::mem::replace(&mut w.params_at, (w.unsure, w.conditional));
                w.compound(&body.0);
                w.params_at = params_at0;
                w.unsure -= 1;
                if let Some(r) = &body.1 {
                    w.redirect_list(r);
                }
                w.defining.pop();
                // (What the body assigned, each name it may have: red team 62's `todo_count(){
                // n=$(grep -c TODO "$1"); ...}` in a loop over a glob lost the loop's variable.)
                if deferred {
                    // (Not a name the body made its own before it assigned it.)
                    // (A called function's `unset` may have forgotten locals from before.)
                    let locals = w.locals.get(locals0..).unwrap_or_default();
                    let assigned = w.assigned[log0..]
                        .iter()
                        .enumerate()
                        .filter(|(k, n)| !locals.iter().any(|(l, at)| l == *n && *at <= log0 + k))
                        .map(|(_, n)| n.clone())
                        .collect();
                    changes = (*w.cwd != cwd0, Some(assigned));
                }
                w.locals.truncate(locals0);
                *w.cwd = cwd0;
                w.bound = bound0;
                w.params = params0;
                w.assigned.truncate(log0);
                // (A `break` or `continue` is kept: shells other than bash 5 let it leave the
                // caller's loop.)
                if !body_jumps {
                    w.jumps = jumps0;
                }
            });
        }
        changes
    }

    /// Whether a function body's text could change the shell's directory: a word that moves
    /// it, runs text (`eval`, `source`), or calls a function (which may).
    fn may_change_directory(&self, text: &str) -> bool {
        text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-' || c == '.')).any(|w| {
            matches!(w, "cd" | "pushd" | "popd" | "eval" | "source" | "." | "exec" | "trap" | "builtin" | "command")
                || self.functions.iter().any(|f| f == w)
        }) || text.contains(['$', '`'])
    }

    /// Code walked again where it runs (a function's body, a trap's action), at most
    /// [`MAX_REWALKED`] times in all: beyond, what it does there is not followed.
    fn walk_again(&mut self, walk: impl FnOnce(&mut Self)) {
        if self.rewalked >= MAX_REWALKED {
            self.a.unknown.push("functions and traps run in more places than gate follows".to_string());
            return;
        }
        self.rewalked += 1;
        walk(self);
    }

    /// Walks what runs in a subshell (a process substitution, a background list, a
    /// coprocess): its directory, variables, positional parameters and errexit end with it.
    fn apart(&mut self, walk: &dyn Fn(&mut Self)) {
        let (cwd0, bound0, params0, errexit0) =
            (self.cwd.clone(), self.bound.clone(), self.params.clone(), self.errexit);
        self.unsure += 1;
        walk(self);
        self.unsure -= 1;
        self.alt_cwd = None;
        *self.cwd = cwd0;
        self.bound = bound0;
        self.params = params0;
        self.errexit = errexit0;
    }

    fn write(&mut self, path: Word, kind: WriteKind) {
        // A process substitution (`tee >(wc -l)`) is a pipe to a command walked on its own:
        // writing it writes no file (red team 69).
        if matches!(&path, Word::Dyn(d) if d == grammar::PROCESS_SUBSTITUTION) {
            return;
        }
        // xargs's (or find's) replace string as the whole path: a name its input gives at run
        // time (red team 62: `find . -name '.e*' | xargs -I{} sort -o {} docs/a.md` writes
        // `.env`), decided with the listing that feeds it.
        let path = match path {
            Word::Lit(p) if self.replace_str.as_deref() == Some(p.as_str()) && !p.is_empty() => {
                Word::Dyn(ADDED_AT_RUN_TIME.into())
            }
            // (`DIR/{}`, kept as text for what reads it: [`below_a_start`].)
            Word::Lit(p) if self.replace_str.as_deref().is_some_and(|r| !r.is_empty() && p.contains(r)) => Word::Dyn(p),
            other => other,
        };
        if let Word::Lit(p) = &path {
            if matches!(p.as_str(), "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty") {
                return;
            }
            // A descriptor by name (`tee /dev/fd/3 3<Cargo.toml`, `sort -o /dev/stdin <
            // .env`): the file it is open on, which may be one a redirection opened for
            // reading (red team 50): a write of a file only known at run time.
            if p == "/dev/stdin" || p.starts_with("/dev/fd/") || (p.starts_with("/proc/") && p.contains("/fd/")) {
                // The file a redirection opened on that descriptor, where gate saw it.
                let n =
                    if p == "/dev/stdin" { Some(0) } else { p.rsplit('/').next().and_then(|n| n.parse::<u32>().ok()) };
                let file = self.read_fd(n);
                self.a.writes.push(Write { path: file.unwrap_or(Word::Dyn(p.clone())), kind, cwd: self.cwd.0.clone() });
                return;
            }
        }
        self.a.writes.push(Write { path, kind, cwd: self.cwd.0.clone() });
    }

    // ---- words ----

    /// A command's argument as the words it becomes, each added to `words`; what makes one
    /// not known statically goes to `unknown`.
    fn argument_words(&mut self, raw: &str, words: &mut Vec<Word>, unknown: &mut Option<String>) {
        if let Some(inner) = self.lone_object_operand(raw, words) {
            if let Some(text) = inner {
                self.substitution(text);
            }
            words.push(Word::Lit(OBJECT_NAME.into()));
            return;
        }
        for r in self.words(raw) {
            if r.unknown.is_some() {
                *unknown = r.unknown;
            }
            if let Some(u) = self.fd_variable(&r.word) {
                *unknown = Some(u);
            }
            words.push(r.word);
        }
    }

    /// `git show $(git rev-parse HEAD)` (red team 71: asked where the quoted spelling was
    /// allowed): an unquoted `$(...)` alone, of a command that prints object names
    /// ([`git_prints_object_names`]), as an operand of git's subcommands that read
    /// revisions. Unquoted it is hexadecimal names split by IFS (whatever IFS holds, each piece
    /// hexadecimal: no option, no glob, no path out) or no word at all, which only takes one
    /// operand from a subcommand that reads, where the option parser placed it as an operand
    /// (not an option's value, which would take the next word instead). Its inner text then;
    /// also a variable holding such a name (`git diff --stat $BASE`), with no text to walk.
    fn lone_object_operand<'r>(&self, raw: &'r str, words: &[Word]) -> Option<Option<&'r str>> {
        const SUBCOMMANDS: &[&str] = &[
            "show",
            "log",
            "diff",
            "diff-tree",
            "rev-list",
            "shortlog",
            "whatchanged",
            "describe",
            "ls-tree",
            "cat-file",
            "name-rev",
            "merge-base",
        ];
        let name = raw.strip_prefix("${").and_then(|r| r.strip_suffix('}')).or_else(|| raw.strip_prefix('$'));
        let variable = name.filter(|n| is_identifier(n)).is_some_and(|n| {
            matches!(self.bound.iter().rev().find(|(b, _)| b == n).map(|(_, v)| v.as_slice()), Some([Word::Dyn(d)]) if d == OBJECT_VALUE)
        });
        let inner = if variable { None } else { Some(raw.strip_prefix("$(")?.strip_suffix(')')?) };
        if self.assigning
            || words.first().and_then(Word::lit) != Some("git")
            || self.functions.iter().any(|f| f == "git")
        {
            return None;
        }
        let at = tables::git_subcommand_at(&words[1..]) + 1;
        let sub = words.get(at).and_then(Word::lit).filter(|s| SUBCOMMANDS.contains(s))?;
        let g = grammar::grammar(&format!("git-{sub}"))?;
        let mut args = words[at + 1..].to_vec();
        args.push(Word::Lit(OBJECT_NAME.into()));
        let parsed = grammar::parse(g, &args).ok()?;
        let operand = parsed.operands.last().and_then(Word::lit) == Some(OBJECT_NAME);
        let names = inner.is_none_or(|t| self.constant_output(t).as_deref() == Some(OBJECT_NAME));
        (operand && names).then_some(inner)
    }

    /// A word as the command's argument list sees it: brace expansion (static, unlike every
    /// other expansion) may turn one written word into several (`{--output=.env,}`).
    fn words(&mut self, raw: &str) -> Vec<Resolved> {
        if let Some(values) = self.bound_all(raw) {
            return values.into_iter().map(|word| Resolved { word, unknown: None }).collect();
        }
        // `"$@"` of known positional parameters: each one word (red team 30: `set -- rm -f x;
        // "$@"` and `f(){ "$@"; }; f rm -f x` were only asked).
        if let (Some(params), "\"$@\"" | "\"${@}\"") = (&self.params, raw) {
            return params.iter().map(|w| Resolved { word: w.clone(), unknown: None }).collect();
        }
        // `"${a[*]}"` of a bound array of literals: one word, joined by IFS's first letter
        // (red team 53: under `IFS=$'\n'` the items are lines of text a shell runs one by one).
        if let Some(name) = raw.strip_prefix("\"${").and_then(|r| r.strip_suffix("[*]}\"")) {
            if let (Some((_, v)), Some(ifs)) = (self.bound.iter().rev().find(|(n, _)| n == name), self.ifs()) {
                let lits: Option<Vec<&str>> = v.iter().map(Word::lit).collect();
                if let Some(lits) = lits.filter(|l| !l.is_empty()) {
                    let sep = ifs.chars().next().map(String::from).unwrap_or_default();
                    return vec![Resolved { word: Word::Lit(lits.join(&sep)), unknown: None }];
                }
            }
        }
        if let Some(pieces) = self.split_by_default_ifs(raw) {
            return pieces.iter().flat_map(|p| self.words(p)).collect();
        }
        let alternatives = match super::words::shell_brace_expand(raw) {
            Braces::Words(alternatives) => alternatives.into_iter().filter(|a| !a.is_empty()).collect(),
            Braces::None => vec![raw.to_string()],
            // More than gate follows: words only known at run time (where that matters, as a
            // program name, an option or a path, the command is not allowed).
            // The word is still walked: its substitutions run and its globs list (review:
            // `echo {1..3}$(rm -rf ~)` was left unwalked).
            Braces::TooMany => {
                let r = self.word_listed(raw);
                return vec![Resolved { word: Word::Dyn(raw.to_string()), unknown: r.unknown }];
            }
        };
        alternatives.iter().map(|a| self.word_listed(a)).collect()
    }

    /// [`Walker::word`], and a glob in it decided as the listing bash makes of its directory.
    fn word_listed(&mut self, raw: &str) -> Resolved {
        let (r, globbed) = self.word_globbed(raw);
        if globbed {
            self.listing(&r.word);
        }
        for glob in self.expansion_globs(raw) {
            self.listing(&glob);
        }
        r
    }

    /// Unquoted expansions of known values that hold a glob (`x=/etc/*; echo $x`,
    /// `set -- '/etc/*'; echo $1`): bash globs the expanded text, so each is a listing. The
    /// glob pieces of a word that is one expansion; the whole word (a directory only known at
    /// run time) where the value is part of a larger one (`$x/a`).
    fn expansion_globs(&self, raw: &str) -> Vec<Word> {
        if !raw.contains('$') {
            return Vec::new();
        }
        let mut values: Vec<&Word> = Vec::new();
        let mut refs = 0;
        let (mut single, mut double, mut escaped) = (false, false, false);
        let b = raw.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let c = b[i];
            i += 1;
            match c {
                _ if escaped => escaped = false,
                b'\\' if !single => escaped = true,
                b'\'' if !double => single = !single,
                b'"' if !single => double = !double,
                b'$' if !single && !double => {
                    let braced = b.get(i) == Some(&b'{');
                    let start = i + usize::from(braced);
                    let mut end = start;
                    while end < b.len() && (b[end].is_ascii_alphanumeric() || b[end] == b'_') {
                        end += 1;
                        if b[start].is_ascii_digit() && !braced {
                            break;
                        }
                    }
                    if end == start && matches!(b.get(start), Some(b'@' | b'*')) {
                        end += 1;
                    }
                    let name = &raw[start..end];
                    refs += 1;
                    // `${x:-/etc/*}`, `${x/a/*}`: the text bash puts in is globbed too.
                    if braced {
                        let close = raw[end..].find('}').map_or(raw.len(), |k| end + k);
                        let rest = &raw[end..close];
                        let put = ["[@]", "[*]", ""].iter().filter_map(|sub| rest.strip_prefix(sub)).find_map(|r| {
                            let r = r.strip_prefix(':').unwrap_or(r);
                            r.strip_prefix(['-', '+', '=', '?'])
                                .or_else(|| r.strip_prefix('/').and_then(|x| x.split_once('/')).map(|(_, to)| to))
                        });
                        if put.is_some_and(expands) {
                            return vec![Word::Dyn(raw.to_string())];
                        }
                    }
                    if name.is_empty() {
                        continue;
                    }
                    if name.bytes().all(|d| d.is_ascii_digit()) || name == "@" || name == "*" {
                        if let Some(params) = &self.params {
                            // (Any of them, where one may be several words.)
                            let n: usize = name.parse().unwrap_or(0);
                            let spread = !params.iter().all(one_param_word);
                            values.extend(
                                params
                                    .iter()
                                    .enumerate()
                                    .filter(|(k, _)| n == 0 || k + 1 == n || spread)
                                    .map(|(_, w)| w),
                            );
                        }
                    } else if let Some((_, v)) = self.bound.iter().rev().find(|(n, _)| n == name) {
                        values.extend(v.iter());
                    } else if self.assigned.iter().any(|a| a == name)
                        && !self.plain.iter().any(|p| p == name)
                        && !self.is_integer(name)
                    {
                        // Assigned here a value gate does not know (`read`, `mapfile`, `$(...)`,
                        // `+=`, `${y:-/etc/*}`): it may hold a glob (red team 40).
                        return vec![Word::Dyn(raw.to_string())];
                    }
                    i = end;
                }
                _ => {}
            }
        }
        let globs: Vec<&str> = values
            .iter()
            .filter_map(|w| w.lit())
            .flat_map(str::split_whitespace)
            .filter(|piece| expands(piece))
            .collect();
        if globs.is_empty() {
            return Vec::new();
        }
        let whole = refs == 1 && {
            let inner = raw.strip_prefix("${").and_then(|r| r.strip_suffix('}')).or_else(|| raw.strip_prefix('$'));
            inner.is_some_and(|n| {
                let n = n.strip_suffix("[@]").or_else(|| n.strip_suffix("[*]")).unwrap_or(n);
                n.bytes().all(|d| d.is_ascii_alphanumeric() || d == b'_') || n == "@" || n == "*"
            })
        };
        if whole {
            globs.into_iter().map(|g| Word::Dyn(g.to_string())).collect()
        } else {
            vec![Word::Dyn(raw.to_string())]
        }
    }

    /// bash expands a glob by reading the directories it names, whichever program gets the
    /// names (`echo ~/.ssh/*`, `for f in /etc/*`, `a=(/root/*)`): a read of the glob, which
    /// the policy decides by its directory (issue 15 class 5).
    fn listing(&mut self, word: &Word) {
        if matches!(word, Word::Dyn(_)) {
            self.a.reads.push(Write { path: word.clone(), kind: WriteKind::List, cwd: self.cwd.0.clone() });
        }
    }

    /// [`Walker::word`], and whether the word holds an unquoted glob.
    fn word_globbed(&mut self, raw: &str) -> (Resolved, bool) {
        let saved = std::mem::replace(&mut self.globbed, false);
        let r = self.word(raw);
        (r, std::mem::replace(&mut self.globbed, saved))
    }

    fn word(&mut self, raw: &str) -> Resolved {
        // Text with no character the shell treats specially in a word (no quote, expansion,
        // glob, brace, tilde or escape) is itself: most words, read without the word parser.
        if !raw.is_empty() && raw.bytes().all(plain_byte) {
            return Resolved { word: Word::Lit(raw.to_string()), unknown: None };
        }
        if let Some(word) = self.bound_word(raw) {
            return Resolved { word, unknown: None };
        }
        if let Some(word) = self.split_glob_name(raw) {
            return Resolved { word, unknown: None };
        }
        // `"docs/$f"` of a listing loop's name (`for f in $(ls docs)`, red team 73): the name
        // below that directory, `docs/{}`, which reads the listing's names where the directory
        // is below a start point ([`below_a_start`]); anything else it does is unknown.
        // (Unquoted too, where the loop's words were split at blanks and globbed already and
        // IFS is still blanks: one word again, as for a whole `$f`; red team 111 B's `for f in
        // $(ls docs); do wc -w docs/$f; done`.)
        let quoted = raw.strip_prefix('"').and_then(|r| r.strip_suffix('"'));
        let unquoted = || (self.ifs().is_some() && self.blanks_listing()).then_some(raw);
        if let Some((dir, name)) = quoted
            .or_else(unquoted)
            .and_then(|r| r.rsplit_once("/$"))
            .filter(|(d, _)| !d.is_empty() && d.bytes().all(plain_byte) && !d.contains('%'))
        {
            let name = name.strip_prefix('{').and_then(|n| n.strip_suffix('}')).unwrap_or(name);
            let listed = is_identifier(name)
                && self.under_find()
                && matches!(self.bound.iter().rev().find(|(n, _)| n == name).map(|(_, v)| v.as_slice()), Some([Word::Dyn(d)]) if d == "{}");
            if listed {
                return Resolved { word: Word::Dyn(format!("{dir}/{{}}")), unknown: None };
            }
        }
        // An unquoted `$(...)` that prints one number (`$(git rev-list --count HEAD)`, `$(grep
        // -c fn f)`, `$(... | wc -l)`): one word where IFS holds only blanks, as quoted, never
        // an option (red teams 75 and 76: `[ $(git rev-list --count HEAD) -gt 0 ]` was asked
        // for a `-v NAME` it cannot split into). Not where a function takes the program's name.
        if let Some(inner) = raw.strip_prefix("$(").and_then(|t| t.strip_suffix(')')) {
            let program = inner.rsplit('|').next().and_then(|l| l.split_whitespace().next()).unwrap_or("");
            let counted = numeric_output(inner) || counts_one_input(inner);
            // (Counts only: `$(seq ...)`, `$(date ...)` are computed where gate can.)
            let counter = matches!(program, "wc" | "grep" | "egrep" | "fgrep" | "git");
            if counted
                && counter
                && self.ifs().is_some()
                && !self.functions.iter().any(|f| f == program)
                && !self.assigning
            {
                self.substitution(inner);
                return Resolved { word: Word::Dyn(format!("\"{raw}\"")), unknown: None };
            }
        }
        // Unquoted `$PWD/x`, `$(pwd)/x`: one word, as quoted, where the directory's name has
        // only plain characters (the part the text named checked here, the start by the
        // policy: [`Analysis::plain_start`]) and IFS only blanks (red team 74).
        let unquoted_pwd = ["$PWD", "${PWD}", "$(pwd)"].iter().any(|p| {
            raw.strip_prefix(p)
                .is_some_and(|rest| (rest.is_empty() || rest.starts_with('/')) && rest.bytes().all(plain_byte))
        });
        if unquoted_pwd && self.ifs().is_some() && self.cwd.0.as_deref().is_some_and(|c| c.bytes().all(plain_byte)) {
            if let Some(here) = self.directory_word(&format!("\"{raw}\"")) {
                self.a.plain_start = true;
                let r = self.word(&here);
                self.cwd_tilde = true;
                return r;
            }
        }
        // `"$(git rev-parse --show-toplevel)/src/a.rs"` without `|| pwd`: the start's
        // `./src/a.rs`, or `/src/a.rs` where git prints nothing ([`Analysis::no_top`]; red
        // teams 69, 71, 73 and 74 found it asked).
        if let Some(inner) = raw.strip_prefix('"').filter(|i| self.git_top_prefix(i, true).is_none()) {
            if let Some(rest) = self.git_top_prefix(inner, false) {
                let tail = rest.replacen('"', "", 1);
                let one_quote = rest.matches('"').count() == 1;
                if one_quote && (tail.is_empty() || tail.starts_with('/')) && tail.bytes().all(plain_byte) {
                    let walked = format!(".{tail}");
                    let fallback = tail.split('/').nth(1).map(|first| format!("/{first}")).unwrap_or_default();
                    self.a.no_top.push((walked.clone(), fallback));
                    self.a.at_git_top = true;
                    self.cwd_tilde = true;
                    return Resolved { word: Word::Lit(walked), unknown: None };
                }
            }
        }
        // (`"$ROOT"/etc/*` of a top without a fallback, red team 76: not a directory gate
        // follows, so read as any word of a value known only at run time, a glob listing.)
        let no_top = self.no_top_tail(raw);
        let plain_tail = |t: &String| t.starts_with('/') && t.bytes().all(plain_byte);
        if let Some(here) = self.directory_word(raw).filter(|_| no_top.as_ref().is_none_or(plain_tail)) {
            self.a.at_git_top |= raw.starts_with("\"$(git ");
            // `"$ROOT/src/a.rs"` of `ROOT=$(git rev-parse --show-toplevel)`: as the inline
            // form, `/src/a.rs` where git prints nothing.
            if let Some(tail) = no_top {
                let fallback = tail.split('/').nth(1).map(|first| format!("/{first}")).unwrap_or_default();
                self.a.no_top.push((format!(".{tail}"), fallback));
                self.a.at_git_top = true;
            }
            let r = self.word(&here);
            self.cwd_tilde = true;
            return r;
        }
        // `"$*"` of known positional parameters: one word, joined by IFS's first letter (red
        // team 59: `set -- r m; IFS=; c="$*"` is `rm`).
        if let (Some(params), "\"$*\"" | "\"${*}\"") = (&self.params, raw) {
            let lits: Option<Vec<&str>> = params.iter().map(Word::lit).collect();
            if let (Some(lits), Some(ifs)) = (lits, self.ifs()) {
                let sep = ifs.chars().next().map(String::from).unwrap_or_default();
                return Resolved { word: Word::Lit(lits.join(&sep)), unknown: None };
            }
        }
        if let Some(body) = super::words::function_substitution(raw) {
            // `${ cmd; }` / `${| cmd; }` (bash 5.3, ksh, mksh) run commands in this shell.
            self.nested(&body, None);
            return Resolved {
                word: Word::Dyn(raw.to_string()),
                unknown: Some(format!("`{raw}` runs commands in the current shell (bash 5.3 / ksh)")),
            };
        }
        let parsed = std::panic::catch_unwind(|| bword::parse(raw, &parser_options()));
        let Ok(parsed) = parsed else {
            return Resolved {
                word: Word::Dyn(raw.to_string()),
                unknown: Some(format!("cannot read the word `{raw}`")),
            };
        };
        match parsed {
            Ok(pieces) => {
                let mut buf = String::new();
                let mut dynamic = false;
                let mut unknown = None;
                let outer = self.glob_pieces.replace(Vec::new());
                self.pieces(&pieces, false, &mut buf, &mut dynamic, &mut unknown);
                let mut globs = std::mem::replace(&mut self.glob_pieces, outer).unwrap_or_default();
                // An object name git prints is a hexadecimal name, `HEAD` (rev-parse in a
                // repository without commits) or nothing (merge-base of unrelated histories):
                // where the word is no revision expression, any text there (red team 66:
                // `> "docs/$(git merge-base A B).env.md"` may write `docs/.env.md`).
                // (A name a loop takes from git's list is never nothing: `[0-9a-f]*` there, red
                // team 68: `> "docs/guide/$sha.md"`.)
                if !dynamic && buf.contains(LISTED_NAME) && !object_revision(&buf.replace(LISTED_NAME, OBJECT_NAME)) {
                    dynamic = !names_as_glob(&mut buf, LISTED_NAME, "[0-9a-f]*", &mut globs);
                }
                if !dynamic && buf.contains(OBJECT_NAME) && !object_revision(&buf) {
                    dynamic = !names_as_glob(&mut buf, OBJECT_NAME, "*", &mut globs);
                }
                let word = if dynamic {
                    // (A glob beside variables gate knows, `"$DIR"/*.md` of `DIR=docs`: the
                    // glob with their text, red team 80.)
                    match self.glob_of_known(&pieces).filter(|_| unknown.is_none()) {
                        Some(g) => Word::Dyn(g),
                        None => self.positional(raw),
                    }
                } else if globs.is_empty() {
                    Word::Lit(buf)
                } else {
                    // `"docs/${f##*/}.md"` of a name a glob gives: one name the glob the word
                    // spells matches, where the rest is text with no glob character.
                    let mut rest = buf.clone();
                    for (from, to) in globs.iter().rev() {
                        rest.replace_range(*from..*to, "");
                    }
                    if rest.contains(['*', '?', '[', ']', '\\', '"', '$', '`', '{', '}'])
                        || buf.contains(['"', '$', '`'])
                    {
                        self.positional(raw)
                    } else {
                        Word::Dyn(format!("\"{buf}\""))
                    }
                };
                Resolved { word, unknown }
            }
            Err(_) => {
                Resolved { word: Word::Dyn(raw.to_string()), unknown: Some(format!("cannot read the word `{raw}`")) }
            }
        }
    }

    fn pieces(
        &mut self,
        pieces: &[WordPieceWithSource],
        quoted: bool,
        buf: &mut String,
        dynamic: &mut bool,
        unknown: &mut Option<String>,
    ) {
        // Whether the word has literal text beside its expansions, so it is never no word.
        // (Where the substitution leads, what follows must be no option once it prints
        // nothing: `$(...)--output=.env` is `--output=.env`, red team 64.)
        let plain_text = |t: &str| !t.is_empty() && !t.contains(['$', '*', '?', '[', '{']);
        let beside = match pieces {
            [first, ..] if matches!(&first.piece, WordPiece::Text(t) if plain_text(t) && !t.starts_with('-')) => true,
            [_, second, ..] => {
                matches!(&second.piece, WordPiece::Text(t) if plain_text(t) && t.starts_with(['.', '^', '~', ':']))
            }
            _ => false,
        };
        for p in pieces {
            match &p.piece {
                WordPiece::Text(t) => {
                    if !quoted && t.contains('\n') {
                        // The word reader ended a substitution before where the tokenizer did
                        // (`$(cat <<EOF` ... `EOF)` ... `)`, as bash does): what follows is
                        // commands to bash and text to gate (found by the fourth red team).
                        self.a.unknown.push(format!("a line break outside quotes inside the word `{}`", t.trim()));
                    }
                    if !quoted && !self.assigning && expands(t) {
                        *dynamic = true;
                        self.globbed = true;
                    }
                    // An expansion the word reader left as text (red team 46: bash's
                    // case-toggling `${x~}` and `${x~~}` read as the text `$` and `{x~~}`):
                    // bash expands it, so the word is known only at run time.
                    if t.contains("${") || (t.starts_with('{') && (buf.ends_with('$') || t == "$")) {
                        *dynamic = true;
                        unknown.get_or_insert_with(|| format!("`{}`: an expansion gate does not read", t.trim()));
                    }
                    buf.push_str(t);
                }
                WordPiece::SingleQuotedText(t) => buf.push_str(t),
                // (Not a sample's fullwidth digits spelled `$'\uff11'`: review of red team 113.)
                WordPiece::AnsiCQuotedText(t) => {
                    let decoded = decode_ansi_c(t);
                    if holds_sample(&decoded) {
                        *dynamic = true;
                        *unknown =
                            Some("`$'...'` makes fullwidth digits, which gate keeps for values it only samples".into());
                    } else {
                        buf.push_str(&decoded);
                    }
                }
                WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
                    self.pieces(inner, true, buf, dynamic, unknown)
                }
                WordPiece::TildeExpansion(t) => match t {
                    bword::TildeExpr::Home => buf.push('~'),
                    bword::TildeExpr::UserHome(u) => {
                        buf.push('~');
                        buf.push_str(u);
                    }
                    // `~+` and `~-` are PWD and OLDPWD where gate follows them.
                    bword::TildeExpr::WorkingDir | bword::TildeExpr::OldWorkingDir => {
                        match self.cwd.tilde(matches!(t, bword::TildeExpr::WorkingDir)) {
                            Some(d) => {
                                self.cwd_tilde |= !d.starts_with('/');
                                buf.push_str(&d);
                            }
                            None => *dynamic = true,
                        }
                    }
                    bword::TildeExpr::NthDirFromTopOfDirStack { n, .. } => match self.cwd.stack_tilde(*n) {
                        Some(d) => {
                            self.cwd_tilde |= !d.starts_with('/');
                            buf.push_str(&d);
                        }
                        None => *dynamic = true,
                    },
                    _ => *dynamic = true,
                },
                WordPiece::ParameterExpansion(expr) => {
                    // A variable holding an object name git printed, inside a longer word
                    // (`"$BASE..HEAD"`, `"$SHA":src/a.rs`, `"$BASE"..HEAD`): as the
                    // substitution in its place (red team 66); [`Self::word`] decides where it
                    // stands.
                    if let ParameterExpr::Parameter { parameter: bword::Parameter::Named(n), indirect: false } = expr {
                        let object =
                            self.bound.iter().rev().find(|(b, _)| b == n).and_then(|(_, v)| match v.as_slice() {
                                [Word::Dyn(d)] if d == OBJECT_VALUE => Some(OBJECT_NAME),
                                [Word::Dyn(d)] if d == OBJECT_LISTED => Some(LISTED_NAME),
                                _ => None,
                            });
                        if let Some(o) =
                            object.filter(|_| !self.assigning && (quoted || (beside && self.ifs().is_some())))
                        {
                            buf.push_str(o);
                            continue;
                        }
                    }
                    // A variable gate knows, inside a longer word (`"$d/a.rs"`, `${c}m`): its
                    // text (red team 30: only a whole-word `$d` was resolved).
                    if let Some(v) = self.known_piece(expr, quoted) {
                        buf.push_str(&v);
                        continue;
                    }
                    // A name a glob gives, quoted, inside a longer word (red team 62:
                    // `cp "$f" "docs/${f##*/}.md"`): the glob its names match, marked.
                    if let (true, Some(g)) =
                        ((quoted || self.assigning) && self.glob_pieces.is_some(), self.glob_name_piece(expr))
                    {
                        let from = buf.len();
                        buf.push_str(&g);
                        if let Some(p) = self.glob_pieces.as_mut() {
                            p.push((from, buf.len()));
                        }
                        continue;
                    }
                    *dynamic = true;
                    self.parameter(expr, unknown);
                }
                WordPiece::CommandSubstitution(s) => {
                    // `"docs/$(basename "$f" .rs).md"` of one name of a glob: the glob's
                    // last segment, marked as a glob name's piece is.
                    if let (true, Some(g)) = (quoted && self.glob_pieces.is_some(), self.basename_of_glob_name(s)) {
                        self.substitution(s);
                        let from = buf.len();
                        buf.push_str(&g);
                        if let Some(p) = self.glob_pieces.as_mut() {
                            p.push((from, buf.len()));
                        }
                        continue;
                    }
                    // A command that prints constant text (`$(echo r)m`, `$(date +rm)`): that
                    // text, where nothing splits or globs it (red team 47).
                    // (An object name git prints may also be nothing: only inside double quotes
                    // is it one word whatever it is, and a variable holding it is not one known
                    // value: red team 55.)
                    if let Some(out) = self.constant_output(s).filter(|o| {
                        if o == OBJECT_NAME {
                            // (Unquoted with text beside it, `$(git merge-base A B)..HEAD`, it
                            // is still one word where IFS holds only blanks: red team 63.)
                            (quoted || (beside && self.ifs().is_some())) && !self.assigning
                        } else {
                            quoted || self.assigning || stays_unquoted(o)
                        }
                    }) {
                        self.substitution(s);
                        buf.push_str(&out);
                        continue;
                    }
                    *dynamic = true;
                    // Unquoted, its output is split and globbed: text the command wrote
                    // (`$(echo '/etc/*')`, `$(base64 -d <<< ...)`) lists what it names.
                    if !quoted && !self.assigning && !plain_output(s) {
                        self.globbed = true;
                    }
                    self.substitution(s);
                }
                WordPiece::BackquotedCommandSubstitution(s) => {
                    *dynamic = true;
                    let unescaped = unescape_backquoted(s, quoted);
                    if !quoted && !self.assigning && !plain_output(&unescaped) {
                        self.globbed = true;
                    }
                    self.substitution(&unescaped);
                }
                WordPiece::EscapeSequence(e) => {
                    let rest = e.strip_prefix('\\').unwrap_or(e);
                    if rest != "\n" {
                        if quoted && !matches!(rest, "\"" | "\\" | "$" | "`") {
                            buf.push('\\');
                        }
                        buf.push_str(rest);
                    }
                }
                WordPiece::ArithmeticExpression(e) => {
                    // Arithmetic on numbers gate knows (`n=120; sed -n "$((n-10)),$((n+10))p"`):
                    // its value, a literal (unquoted, where IFS splits no digit or `-`).
                    let splits = || self.ifs().is_none_or(|i| i.contains(|c: char| c.is_ascii_digit() || c == '-'));
                    if let Some(v) = self.arithmetic_value(&e.value).filter(|_| quoted || !splits()) {
                        buf.push_str(&v.to_string());
                        continue;
                    }
                    *dynamic = true;
                    let known = self.arithmetic_known(&e.value);
                    self.values_evaluated(&e.value);
                    if e.value.contains("$(") || e.value.contains('`') {
                        self.substitutions_in(&e.value);
                    }
                    self.arithmetic_assigns(&e.value);
                    if !known {
                        *unknown =
                            Some(format!("arithmetic `{}` evaluates variables, which can run code", e.value.trim()));
                    }
                }
            }
        }
    }

    /// The text of a word whose only expansions are an unquoted glob and variables gate
    /// knows, each holding plain text (no blank, quote or glob character, so that neither
    /// quoting nor splitting changes it): `"$DIR"/*.md` of `DIR=docs` is the glob `docs/*.md`
    /// (red team 80: asked where `docs/*.md` was allowed). `None` for anything else.
    fn glob_of_known(&self, pieces: &[WordPieceWithSource]) -> Option<String> {
        let plain = |t: &str| t.bytes().all(plain_byte);
        let mut out = String::new();
        for p in pieces {
            match &p.piece {
                WordPiece::Text(t) if t.bytes().all(|b| plain_byte(b) || b"*?[]".contains(&b)) => out.push_str(t),
                WordPiece::SingleQuotedText(t) if plain(t) => out.push_str(t),
                WordPiece::DoubleQuotedSequence(inner) => {
                    for q in inner {
                        match &q.piece {
                            WordPiece::Text(t) if plain(t) => out.push_str(t),
                            WordPiece::ParameterExpansion(e) => {
                                out.push_str(&self.known_piece(e, true).filter(|v| plain(v))?)
                            }
                            _ => return None,
                        }
                    }
                }
                WordPiece::ParameterExpansion(e) if self.ifs().is_some() => {
                    out.push_str(&self.known_piece(e, false).filter(|v| !v.is_empty() && plain(v))?)
                }
                _ => return None,
            }
        }
        (expands(&out) && !out.is_empty()).then_some(out)
    }

    /// The text a `$name`/`${name}` piece of a word expands to, when gate knows the variable
    /// holds one literal value (red team 45: also its substring `${x:1}`, a literal prefix or
    /// suffix removed `${x#x}`, a literal replaced `${x/x/}`, its case changed `${x^^}`), that
    /// expands to itself there: any inside double quotes; unquoted, only a non-empty one that
    /// no splitting or globbing changes.
    fn known_piece(&self, expr: &ParameterExpr, quoted: bool) -> Option<String> {
        use ParameterExpr as P;
        // An operator's operand: never a value with a sample's digits, whose real digits
        // gate does not know ([`is_sample_digit`]).
        let operand = |p: &bword::Parameter| self.known_value(p).filter(|v| !holds_sample(v));
        let v = match expr {
            P::Parameter { parameter, indirect: false } => self.known_value(parameter)?.to_string(),
            // `${!y}` where y holds the name of a variable gate knows (red team 54).
            P::Parameter { parameter, indirect: true } => {
                let target = self.known_value(parameter)?;
                if !is_identifier(target) {
                    return None;
                }
                self.known_value(&bword::Parameter::Named(target.to_string()))?.to_string()
            }
            P::Substring { parameter, indirect: false, offset, length } => {
                substring(operand(parameter)?, &offset.value, length.as_ref().map(|l| l.value.as_str()))?
            }
            // `${2:-10}` of parameters gate knows (red team 67: `show src/a.rs` of `show() {
            // sed -n "1,${2:-10}p" "$1"; }`): the value, or the default, plain text.
            P::UseDefaultValues { parameter, indirect: false, test_type, default_value } => {
                let default = default_value.as_deref().unwrap_or("");
                let value = match parameter {
                    bword::Parameter::Positional(k) => match self.param(*k as usize)? {
                        Some(Word::Lit(v)) => Some(v.as_str()),
                        Some(Word::Dyn(_)) => return None,
                        None => None,
                    },
                    bword::Parameter::Named(_) => Some(self.known_value(parameter)?),
                    _ => return None,
                };
                match value {
                    Some(v) if !(v.is_empty() && matches!(test_type, bword::ParameterTestType::UnsetOrNull)) => {
                        v.to_string()
                    }
                    _ if default.bytes().all(plain_byte) => default.to_string(),
                    _ => return None,
                }
            }
            P::RemoveSmallestPrefixPattern { parameter, indirect: false, pattern: Some(p) } => {
                trim_pattern(operand(parameter)?, p, true, false)?
            }
            P::RemoveLargestPrefixPattern { parameter, indirect: false, pattern: Some(p) } => {
                trim_pattern(operand(parameter)?, p, true, true)?
            }
            P::RemoveSmallestSuffixPattern { parameter, indirect: false, pattern: Some(p) } => {
                trim_pattern(operand(parameter)?, p, false, false)?
            }
            P::RemoveLargestSuffixPattern { parameter, indirect: false, pattern: Some(p) } => {
                trim_pattern(operand(parameter)?, p, false, true)?
            }
            // (A quoted pattern is literal text: `${x/"#"/r}` replaces a `#`, red team 73.)
            P::ReplaceSubstring { parameter, indirect: false, pattern, replacement, match_kind } => replace_literal(
                operand(parameter)?,
                &quotes_removed(pattern)?,
                &quotes_removed(replacement.as_deref().unwrap_or(""))?,
                match_kind,
            )?,
            // (The parser gives `${x,,}` an empty pattern, which is no pattern: red team 54.)
            P::UppercasePattern { parameter, indirect: false, pattern } if no_pattern(pattern) => {
                Some(operand(parameter)?).filter(|v| v.is_ascii())?.to_ascii_uppercase()
            }
            P::LowercasePattern { parameter, indirect: false, pattern } if no_pattern(pattern) => {
                Some(operand(parameter)?).filter(|v| v.is_ascii())?.to_ascii_lowercase()
            }
            P::UppercaseFirstChar { parameter, indirect: false, pattern }
            | P::LowercaseFirstChar { parameter, indirect: false, pattern }
                if no_pattern(pattern) =>
            {
                let v = Some(operand(parameter)?).filter(|v| v.is_ascii())?;
                let (first, rest) = v.split_at(v.len().min(1));
                let first = match expr {
                    P::UppercaseFirstChar { .. } => first.to_ascii_uppercase(),
                    _ => first.to_ascii_lowercase(),
                };
                first + rest
            }
            _ => return None,
        };
        (quoted || stays_unquoted(&v)).then_some(v)
    }

    /// `text` with each word that is one variable gate knows the one literal value of
    /// (`"$DOC"`, `"${DOC}"`, or unquoted where its value stays one word) replaced by that
    /// value, quoted; `None` where a `$` is anything else (inside longer quoted text, a
    /// variable gate does not know).
    fn values_inlined(&self, text: &str) -> Option<String> {
        if !text.contains('$') {
            return Some(text.to_string());
        }
        let b = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        while let Some(k) = text[at..].find('$').map(|k| k + at) {
            let start = text[..k].rfind([' ', '\t']).map_or(0, |s| s + 1);
            let end = text[k..].find([' ', '\t']).map_or(text.len(), |e| e + k);
            // (Outside any quoted text that runs on before this word.)
            let before = &text[..start];
            if start < at || before.matches('"').count() % 2 == 1 || before.matches('\'').count() % 2 == 1 {
                return None;
            }
            let token = &text[start..end];
            let (inner, quoted) = match token.strip_prefix('"').and_then(|t| t.strip_suffix('"')) {
                Some(i) => (i, true),
                None => (token, false),
            };
            let name =
                inner.strip_prefix("${").and_then(|r| r.strip_suffix('}')).or_else(|| inner.strip_prefix('$'))?;
            if b.get(start).is_some_and(|c| *c == b'\'') {
                return None;
            }
            // (A positional parameter a call gave, `"$1"` in `f src/a.rs`: red team 81.)
            let parameter = match name.parse::<u32>() {
                Ok(k) if (1..=9).contains(&k) && name.len() == 1 => bword::Parameter::Positional(k),
                _ if is_identifier(name) => bword::Parameter::Named(name.to_string()),
                _ => return None,
            };
            let value = self.known_value(&parameter)?;
            if !quoted && !stays_unquoted(value) || holds_sample(value) {
                return None;
            }
            out.push_str(&text[at..start]);
            out.push_str(&super::shell_word(value));
            at = end;
        }
        out.push_str(&text[at..]);
        Some(out)
    }

    /// `$f` (or `${f}`) unquoted, where `f` is a `for` loop's variable over a glob in the
    /// directory the shell is in now (red team 109: `for f in src/*.rs; do wc -l $f; done` was
    /// asked), with IFS only blanks: bash splits the name at blanks and globs each piece, which
    /// leaves it one name, the same as `"$f"`, where no name below the glob's base holds a
    /// blank or a glob character; the listing put on the command makes the edge look.
    fn split_glob_name(&mut self, raw: &str) -> Option<Word> {
        let name = referenced_variable(raw)?;
        self.ifs()?;
        let dir = format!("{GLOB_DIR_OF}{name}");
        let here = self.cwd.0.as_deref()?;
        let passed = self.bound.iter().rev().find(|(n, _)| *n == dir).map(|(_, v)| v.as_slice());
        if !matches!(passed, Some([Word::Lit(d)]) if d == here) {
            return None;
        }
        let (_, values) = self.bound.iter().rev().find(|(n, _)| n == name)?;
        let [Word::Dyn(glob)] = values.as_slice() else { return None };
        if !plain_glob(glob) {
            return None;
        }
        let base = tables::glob_base(glob)?;
        let glob = glob.clone();
        self.split_names.push(Wrapper {
            words: vec![Word::Lit("find".into()), Word::Lit(base)],
            kind: WrapperKind::Listing(Split::Blanks),
        });
        Some(Word::Dyn(format!("\"{glob}\"")))
    }

    /// The glob whose one name variable `n` holds: a loop's variable over a glob, or one a
    /// name was copied to (`g="$f"`).
    fn glob_name_of(&self, n: &str) -> Option<String> {
        let (_, values) = self.bound.iter().rev().find(|(b, _)| b == n)?;
        // (A loop's variable holds the glob, unquoted; a quoted one is one name too.)
        let [Word::Dyn(d)] = values.as_slice() else { return None };
        let glob = tables::unquoted_glob(d);
        let one_name = glob != d.as_str() || !d.starts_with('"');
        (one_name && glob.contains(['*', '?', '[']) && tables::glob_base(glob).is_some()).then(|| glob.to_string())
    }

    /// `basename "$f" [SUFFIX]` of one name of a glob (`$f` over `src/*.rs`): the glob's last
    /// segment, SUFFIX taken off where what is left ends in `*` (red team 69: `name=$(basename
    /// "$f" .rs)`). Only where the glob cannot give a name starting with `-`, which basename
    /// would take for an option.
    fn basename_of_glob_name(&self, text: &str) -> Option<String> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let (var, suffix) = match words.as_slice() {
            ["basename", v] => (*v, None),
            ["basename", v, s] => (*v, Some(*s)),
            _ => return None,
        };
        if self.functions.iter().any(|f| f == "basename") {
            return None;
        }
        let var = var.strip_prefix("\"$")?.strip_suffix('"')?;
        let var = var.strip_prefix('{').and_then(|v| v.strip_suffix('}')).unwrap_or(var);
        let glob = self
            .glob_name_of(var)
            .filter(|g| g.starts_with(|c: char| c.is_ascii_alphanumeric() || "/._".contains(c)))?;
        let last = glob.trim_end_matches('/').rsplit('/').next()?.to_string();
        match suffix {
            None => Some(last),
            Some(sfx) => {
                if sfx.is_empty() || sfx.contains(|c: char| !(c.is_ascii_alphanumeric() || "._-".contains(c))) {
                    return None;
                }
                let kept = last.strip_suffix(sfx)?;
                kept.ends_with('*').then(|| kept.to_string())
            }
        }
    }

    /// The glob whose names a parameter expansion gives, where the variable holds one name of
    /// a glob (a loop's pass over `src/*.rs`): `$f` that glob, `${f##*/}` its last segment,
    /// `${f%.rs}` it without a literal suffix it ends with. `None` otherwise.
    fn glob_name_piece(&self, expr: &ParameterExpr) -> Option<String> {
        use ParameterExpr as P;
        let name = |parameter: &bword::Parameter| {
            let d = match parameter {
                bword::Parameter::Named(n) => return self.glob_name_of(n),
                // `$1` of a function called with one name of a glob (red team 67: `local
                // file="$1"`), or with the glob itself, whose names `"$1"` is one of (red team
                // 73: `f docs/*.md`).
                bword::Parameter::Positional(k) => {
                    let Word::Dyn(d) = self.param(*k as usize)?? else { return None };
                    if !d.starts_with('"') && tables::glob_base(d).is_none() {
                        return None;
                    }
                    d
                }
                _ => return None,
            };
            {
                let glob = tables::unquoted_glob(d);
                let one_name = glob != d.as_str() || !d.starts_with('"');
                (one_name && glob.contains(['*', '?', '[']) && tables::glob_base(glob).is_some())
                    .then(|| glob.to_string())
            }
        };
        let literal = |p: &str| !p.is_empty() && !p.contains(['*', '?', '[', ']', '\\', '/', '$', '`', '\'', '"']);
        match expr {
            P::Parameter { parameter, indirect: false } => name(parameter),
            P::RemoveLargestPrefixPattern { parameter, indirect: false, pattern: Some(p) } if p == "*/" => {
                let g = name(parameter)?;
                Some(g.rsplit('/').next().unwrap_or(&g).to_string())
            }
            P::RemoveSmallestSuffixPattern { parameter, indirect: false, pattern: Some(p) }
            | P::RemoveLargestSuffixPattern { parameter, indirect: false, pattern: Some(p) }
                if literal(p) =>
            {
                let g = name(parameter)?;
                let kept = g.strip_suffix(p.as_str())?;
                // (What is left must still end the name: not a `/`, nor nothing.)
                (!kept.is_empty() && !kept.ends_with('/')).then(|| kept.to_string())
            }
            _ => None,
        }
    }

    /// What a command substitution prints, where it is one command that prints constant
    /// text: `echo WORDS` (no option, no backslash), `printf FORMAT ARGS` with only `%s`,
    /// `date +TEXT` without `%`, `dirname PATH`, `basename PATH`; not a function of that name.
    /// Its trailing newline is what `$(...)` removes.
    fn constant_output(&self, text: &str) -> Option<String> {
        // `$(git merge-base HEAD main 2>/dev/null || git rev-list --max-parents=0 HEAD)`: each
        // side object names (or nothing), so the whole too (red team 69).
        if text.contains(" || ") && !text.contains(['&', ';', '\n', '`', '$', '(', ')', '<']) {
            let quiet = |t: &str| t.trim().trim_end_matches("2>/dev/null").trim().to_string();
            let sides: Vec<String> = text.split(" || ").map(quiet).collect();
            let names = sides
                .iter()
                .all(|t| !t.contains(['|', '>']) && self.constant_output(t).as_deref() == Some(OBJECT_NAME));
            return names.then(|| OBJECT_NAME.to_string());
        }
        // `$(echo mr | rev)`, `$(sed s/q/r/ <<< qm)` (red team 74): text gate knows, through
        // filters whose output it computes.
        if let Some(out) = self.filtered_output(text) {
            return Some(out);
        }
        // (`$(dirname "$DOC")` with DOC known: its value in its place, red team 62; and so
        // through filters, `x=mr; $(rev <<< $x)`, red team 80.)
        let inlined = self.values_inlined(text)?;
        let inlined_any = inlined != text;
        let text = inlined.as_str();
        if let Some(out) = self.filtered_output(text).filter(|_| inlined_any) {
            return Some(out);
        }
        // (Looked at first, before a walk of its own: a `$(...)` inside is never constant.)
        let first = text.split_whitespace().next()?;
        // (Nor one with a `~`: gate writes `~+` relative, `.`, where bash gives the absolute
        // directory, whose `dirname` is its parent: red team 52.)
        if !matches!(first, "echo" | "printf" | "date" | "dirname" | "basename" | "git")
            || text.contains(['<', '>', '|', ';', '&', '\n', '`', '$', '(', ')', '~'])
        {
            return None;
        }
        let a = super::analyze(text);
        let [c] = a.commands.as_slice() else { return None };
        if !a.writes.is_empty() || !a.reads.is_empty() || !a.unknown.is_empty() || c.unknown.is_some() {
            return None;
        }
        if !c.wrappers.is_empty() || c.open_args {
            return None;
        }
        let words: Vec<&str> = c.words.iter().map(Word::lit).collect::<Option<_>>()?;
        let (name, args) = words.split_first()?;
        if self.functions.iter().any(|f| f == name) || name.contains('/') {
            return None;
        }
        // `basename -s SUFFIX NAME`, `basename --suffix=SUFFIX NAME` (red team 53).
        if *name == "basename" {
            return basename_output(args);
        }
        // `git merge-base A B`, `git rev-parse HEAD`, `git rev-list -n 3 HEAD`, `git log -1
        // --format=%H`: object names, hexadecimal, never an option or a path outside. Which
        // ones is not known, but every one is decided alike: as one such name (red team 49's
        // `git diff --stat "$(git merge-base HEAD master)"` was asked).
        if *name == "git" {
            return git_prints_object_names(args, false).then(|| OBJECT_NAME.to_string());
        }
        // `date [-u] +FORMAT`: one value of the format's shape (UTC or not, the same shape).
        if *name == "date" {
            let rest: Vec<&str> = args.iter().copied().filter(|a| !matches!(*a, "-u" | "--utc")).collect();
            let format = match rest.as_slice() {
                [format] => format.strip_prefix('+')?,
                _ => return None,
            };
            // (Text with no conversion is printed as it is: `$(date +rm)`.)
            if !format.contains('%') {
                return (args.len() == 1 && !format.contains('\\')).then(|| format.to_string());
            }
            return date_sample(format);
        }
        // (printf decodes its format's escapes and `%b`'s itself, red team 67: `$(printf
        // "%s\n" r)m`.)
        let plain = |w: &&str| (*name == "printf" || !w.contains('\\')) && !w.starts_with('-');
        let echo_n = *name == "echo" && args.first() == Some(&"-n");
        if !args.iter().skip(usize::from(echo_n)).all(plain) {
            return None;
        }
        match (*name, args) {
            // `$(echo -n r)m` (red team 69): the same text, without the line end `$(...)` drops.
            ("echo", ["-n", rest @ ..]) => Some(rest.join(" ")),
            ("echo", _) => Some(args.join(" ")),
            // (bash drops the NUL bytes a substitution prints: red team 69.)
            ("printf", [format, rest @ ..]) => {
                Some(printf_output(format, rest)?.replace('\0', "").trim_end_matches('\n').to_string())
            }
            ("dirname", [path]) => {
                let t = path.trim_end_matches('/');
                Some(match t.rsplit_once('/') {
                    _ if t.is_empty() && !path.is_empty() => "/".to_string(),
                    None => ".".to_string(),
                    Some((head, _)) => match head.trim_end_matches('/') {
                        "" => "/".to_string(),
                        h => h.to_string(),
                    },
                })
            }
            _ => None,
        }
    }

    /// What `CONSTANT | FILTER...` or `FILTER <<< WORD` prints, where the constant's output
    /// is known ([`Walker::constant_output`]) and each filter is one gate computes
    /// ([`filter_output`]): `rev`, sed's `s/LITERAL/LITERAL/[g]`, tr of literal sets. The
    /// line end a substitution drops is dropped.
    fn filtered_output(&self, text: &str) -> Option<String> {
        if text.contains(['>', ';', '&', '\n', '`', '$', '(', ')', '~']) || text.contains("||") {
            return None;
        }
        let (mut out, filters): (String, Vec<&str>) = match text.split_once("<<<") {
            Some((filter, word)) => {
                if filter.contains(['|', '<']) || word.contains(['|', '<']) {
                    return None;
                }
                let a = super::analyze(&format!("echo {}", word.trim()));
                let [c] = a.commands.as_slice() else { return None };
                let [_, w] = c.words.as_slice() else { return None };
                (format!("{}\n", w.lit()?), vec![filter])
            }
            None => {
                let mut stages = text.split('|');
                let first = stages.next()?;
                let filters: Vec<&str> = stages.collect();
                if filters.is_empty() || text.contains('<') {
                    return None;
                }
                // (Only text the call holds: not git's stand-in for an object name nor date's
                // sample.)
                (self.piped_text(first.trim())?, filters)
            }
        };
        for f in filters {
            let a = super::analyze(f.trim());
            let [c] = a.commands.as_slice() else { return None };
            if c.unknown.is_some() || !c.wrappers.is_empty() || c.open_args || !a.unknown.is_empty() {
                return None;
            }
            let words: Vec<&str> = c.words.iter().map(Word::lit).collect::<Option<_>>()?;
            if words.first().is_some_and(|n| self.functions.iter().any(|f| f == n)) {
                return None;
            }
            out = filter_output(&words, &out)?;
        }
        // (bash drops the NUL bytes a substitution prints, after the filters met them: red
        // team 75's `$(printf 'r\0m' | sed s/rm/ls/)` runs rm.)
        Some(out.replace('\0', "").trim_end_matches('\n').to_string())
    }

    /// The bytes `echo WORDS` (no backslash) or `printf FORMAT ARGS` (escapes and `%c` of an
    /// empty argument decoded, NUL bytes kept, no `%(...)T` time) writes into a pipe: exactly
    /// what the next command reads, its line ends included.
    fn piped_text(&self, text: &str) -> Option<String> {
        if text.starts_with("echo ") && !text.contains('\\') {
            let out = self.constant_output(text)?;
            return Some(if text.starts_with("echo -n ") { out } else { format!("{out}\n") });
        }
        if !text.starts_with("printf ") || text.contains("%(") || self.functions.iter().any(|f| f == "printf") {
            return None;
        }
        let a = super::analyze(text);
        let [c] = a.commands.as_slice() else { return None };
        if !a.writes.is_empty() || !a.unknown.is_empty() || c.unknown.is_some() || !c.wrappers.is_empty() {
            return None;
        }
        let words: Vec<&str> = c.words.iter().map(Word::lit).collect::<Option<_>>()?;
        match words.as_slice() {
            ["printf", format, args @ ..] if !format.starts_with('-') => printf_output(format, args),
            _ => None,
        }
    }

    /// A quoted word that starts with a directory gate follows, spelled as the way to it from
    /// the current one: `"$PWD/docs"`, `"$(pwd)"/src`, `"$OLDPWD/x"`, `"$ROOT/docs"` after
    /// `ROOT=$(pwd)` (red team 62: `cd "$ROOT/docs"` and `cat "$PWD/src/a.rs"` were asked).
    /// Only the whole parameter, quoted (unquoted, a path with blanks would split), followed by
    /// `/` or nothing; `PWD`/`OLDPWD` only while nothing here assigned them, `pwd` only while
    /// no function takes its name. `None` where any of that does not hold.
    fn directory_word(&self, raw: &str) -> Option<String> {
        let inner = raw.strip_prefix('"')?;
        let untouched = |n: &str| !self.assigned.iter().any(|a| a == n);
        let pwd_runs = !self.functions.iter().any(|f| f == "pwd");
        let mut found: Option<(String, &str)> = None;
        for prefix in ["$(pwd)", "$(pwd -L)", "$(pwd -P)", "`pwd`"] {
            if let Some(rest) = inner.strip_prefix(prefix).filter(|_| pwd_runs) {
                found = Some((self.cwd.tilde(true)?, rest));
            }
        }
        // The top of the repository where the command starts, when that is the start (red
        // team 71: `wc -l "$(git rev-parse --show-toplevel || pwd)/src/a.rs"`); the caller
        // marks the analysis [`Analysis::at_git_top`].
        if let Some(rest) = self.git_top_prefix(inner, true) {
            found = Some((".".to_string(), rest));
        }
        if found.is_none() {
            let t = inner.strip_prefix('$')?;
            let (name, rest) = match t.strip_prefix('{') {
                Some(b) => b.split_once('}')?,
                None => t.split_at(t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(t.len())),
            };
            if !is_identifier(name) {
                return None;
            }
            let dir = match name {
                "PWD" if untouched("PWD") => self.cwd.tilde(true)?,
                "OLDPWD" if untouched("OLDPWD") => self.cwd.tilde(false)?,
                _ => {
                    let pseudo = format!("{PWD_OF}{name}");
                    let (_, v) = self.bound.iter().rev().find(|(b, _)| *b == pseudo)?;
                    self.cwd.way_to(v.first()?.lit()?)?
                }
            };
            found = Some((dir, rest));
        }
        let (dir, rest) = found?;
        // (The rest: `/...` inside the quotes, or the quote closed and `/...` or nothing after.)
        let fits = rest.starts_with('/') || rest.strip_prefix('"').is_some_and(|a| a.is_empty() || a.starts_with('/'));
        let plain = dir.chars().all(|c| c.is_ascii_alphanumeric() || "-_./+,@%".contains(c));
        // (The quotes closed right after it: a plain name needs none, so a glob after it stays
        // one, `"$PWD"/src/*.rs`.)
        (fits && plain).then(|| match rest.strip_prefix('"') {
            Some(after) => format!("{dir}{after}"),
            None => format!("\"{dir}{rest}"),
        })
    }

    /// The path after `"$NAME` (quotes dropped) where NAME holds git's top without a
    /// fallback ([`NO_TOP`]); `None` for any other word.
    fn no_top_tail(&self, raw: &str) -> Option<String> {
        let t = raw.strip_prefix("\"$")?;
        let (name, rest) = match t.strip_prefix('{') {
            Some(b) => b.split_once('}')?,
            None => t.split_at(t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(t.len())),
        };
        let pseudo = format!("{PWD_OF}{name}");
        let (_, v) = self.bound.iter().rev().find(|(b, _)| *b == pseudo)?;
        (v.get(1) == Some(&Word::Dyn(NO_TOP.into()))).then(|| rest.replacen('"', "", 1))
    }

    /// The positional parameter `$k` (from 1) as gate knows it: `Some(None)` where it is
    /// unset, `None` where gate cannot tell, because a parameter before it (or, for one beyond
    /// the last, any) may be no word or several (`f src/*.rs docs/a.md`: `$2` is the glob's
    /// second name where it has two).
    fn param(&self, k: usize) -> Option<Option<&Word>> {
        let params = self.params.as_ref()?;
        let i = k.checked_sub(1)?;
        let before = params.get(..i).unwrap_or(params);
        if !before.iter().all(one_param_word) {
            return None;
        }
        match params.get(i) {
            // A glob gives its names, or nothing at all under `nullglob` (which an agent's
            // shell may keep on from an earlier command): then the words after it move up
            // (red team 71: `shopt -s nullglob; set -- src/*.zz /etc/passwd; cat "$1"`).
            Some(w) if !one_param_word(w) && i + 1 < params.len() => None,
            Some(w) => Some(Some(w)),
            None => params.iter().all(one_param_word).then_some(None),
        }
    }

    /// The one literal value gate knows a parameter holds: a variable bound to one literal, or
    /// a positional parameter the call gave (`local n=$1` in `f 3`).
    fn known_value(&self, parameter: &bword::Parameter) -> Option<&str> {
        match parameter {
            bword::Parameter::Positional(k) => self.param(*k as usize)??.lit(),
            bword::Parameter::Named(name) if name == "_" => self.dollar_underscore.as_deref(),
            bword::Parameter::Named(name) => {
                let (_, values) = self.bound.iter().rev().find(|(n, _)| n == name)?;
                let [Word::Lit(v)] = values.as_slice() else { return None };
                Some(v)
            }
            // An element of an indexed array gate knows every element of, each one literal
            // word (red team 47: `x=(r m); "${x[0]}${x[1]}" m`).
            // (A negative one counts from the end: `${x[-1]}`, red team 54.)
            bword::Parameter::NamedWithIndex { name, index } => {
                // `${a[i]}`, `${a[$i]}` of a variable holding a literal number (a counted
                // loop's counter: red team 71's `for ((i=0;i<2;i++)); do cat "${a[i]}"`).
                let held = index.strip_prefix('$').unwrap_or(index);
                let index = match self.bound.iter().rev().find(|(n, _)| n == held).map(|(_, v)| v.as_slice()) {
                    Some([Word::Lit(v)])
                        if is_identifier(held) && !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) =>
                    {
                        v
                    }
                    _ => index,
                };
                let (negative, digits) = match index.strip_prefix('-') {
                    Some(d) => (true, d),
                    None => (false, index.as_str()),
                };
                let k: usize = Some(digits)
                    .filter(|i| {
                        !i.is_empty() && i.bytes().all(|b| b.is_ascii_digit()) && (i == &"0" || !i.starts_with('0'))
                    })?
                    .parse()
                    .ok()?;
                if self.is_associative(name) {
                    return None;
                }
                let (_, values) = self.bound.iter().rev().find(|(n, _)| n == name)?;
                if !values.iter().all(|v| matches!(v, Word::Lit(_))) {
                    return None;
                }
                let k = if negative { values.len().checked_sub(k)? } else { k };
                values.get(k)?.lit()
            }
            _ => None,
        }
    }

    fn parameter(&mut self, expr: &ParameterExpr, unknown: &mut Option<String>) {
        use ParameterExpr as P;
        let (param, indirect, texts): (&bword::Parameter, bool, Vec<&str>) = match expr {
            P::Parameter { parameter, indirect } => (parameter, *indirect, vec![]),
            P::UseDefaultValues { parameter, indirect, default_value, .. } => {
                (parameter, *indirect, default_value.as_deref().into_iter().collect())
            }
            P::AssignDefaultValues { parameter, indirect, default_value, .. } => {
                let name = match parameter {
                    bword::Parameter::Named(n) | bword::Parameter::NamedWithIndex { name: n, .. } => Some(n),
                    _ => None,
                };
                if let Some(n) = name {
                    self.unbind(&n.clone());
                }
                // An assignment like any other: to a variable that changes what runs
                // (`set -a; : ${TAR_OPTIONS:=...}` exports it too), or to one named only at
                // run time (`${!x:=...}`).
                match (name, *indirect) {
                    (_, true) => {
                        *unknown = Some("`${!...:=...}` assigns a variable named only at run time".to_string());
                    }
                    (Some(n), false) if tables::is_dangerous_variable(n) => {
                        *unknown = Some(format!("`${{{n}:=...}}` sets {n}, which changes what runs"));
                    }
                    (None, false) if !matches!(parameter, bword::Parameter::Positional(_)) => {
                        *unknown = Some("`${...:=...}` assigns a variable gate cannot name".to_string());
                    }
                    _ => {}
                }
                if let Some(n) = name.filter(|n| self.is_integer(n)).cloned() {
                    *unknown = Some(format!(
                        "`${{{n}:=...}}` assigns {n}, which has the integer attribute: bash evaluates the value as arithmetic"
                    ));
                    // The value as assigned (quotes and escapes resolved) is arithmetic text.
                    if let Some(d) = default_value.as_deref() {
                        let r = self.word(d);
                        self.integer_value(&n, &r.word, d);
                    }
                }
                (parameter, *indirect, default_value.as_deref().into_iter().collect())
            }
            P::IndicateErrorIfNullOrUnset { parameter, indirect, error_message, .. } => {
                (parameter, *indirect, error_message.as_deref().into_iter().collect())
            }
            P::UseAlternativeValue { parameter, indirect, alternative_value, .. } => {
                (parameter, *indirect, alternative_value.as_deref().into_iter().collect())
            }
            P::ParameterLength { parameter, indirect } => (parameter, *indirect, vec![]),
            P::RemoveSmallestSuffixPattern { parameter, indirect, pattern }
            | P::RemoveLargestSuffixPattern { parameter, indirect, pattern }
            | P::RemoveSmallestPrefixPattern { parameter, indirect, pattern }
            | P::RemoveLargestPrefixPattern { parameter, indirect, pattern }
            | P::UppercaseFirstChar { parameter, indirect, pattern }
            | P::UppercasePattern { parameter, indirect, pattern }
            | P::LowercaseFirstChar { parameter, indirect, pattern }
            | P::LowercasePattern { parameter, indirect, pattern } => {
                (parameter, *indirect, pattern.as_deref().into_iter().collect())
            }
            P::Substring { parameter, indirect, offset, length } => {
                self.arithmetic_in_word(&offset.value, unknown);
                if let Some(l) = length {
                    self.arithmetic_in_word(&l.value, unknown);
                }
                (parameter, *indirect, vec![])
            }
            P::Transform { parameter, indirect, op } => {
                if matches!(op, bword::ParameterTransformOp::PromptExpand) {
                    // ${x@P} expands the value as a prompt string, which runs substitutions.
                    *unknown = Some("`${...@P}` expands a value as a prompt, which can run code".into());
                    // A value gate knows is decided as the substitutions it runs.
                    if let (bword::Parameter::Named(n), false) = (parameter, *indirect) {
                        let value = self.bound.iter().rev().find(|(b, _)| b == n).map(|(_, v)| v.clone());
                        if let Some([Word::Lit(v)]) = value.as_deref() {
                            let v = v.clone();
                            self.substitutions_in(&v);
                        }
                    }
                }
                (parameter, *indirect, vec![])
            }
            P::ReplaceSubstring { parameter, indirect, pattern, replacement, .. } => {
                let mut t = vec![pattern.as_str()];
                if let Some(r) = replacement {
                    t.push(r.as_str());
                }
                (parameter, *indirect, t)
            }
            P::VariableNames { .. } | P::MemberKeys { .. } => return,
        };
        // `for v in HOME SHELL; do echo "${!v}"`: the variable named is one gate knows the
        // name of, so this is `${HOME}` (red team 63); anything else is named at run time.
        let named_here = match param {
            bword::Parameter::Named(n) => self
                .bound
                .iter()
                .rev()
                .find(|(b, _)| b == n)
                .is_some_and(|(_, v)| matches!(v.as_slice(), [Word::Lit(t)] if is_identifier(t))),
            _ => false,
        };
        if indirect && !named_here {
            *unknown = Some("indirect expansion `${!...}` reads a variable named at run time".into());
            // The name it reads, where gate knows it: a subscript there is evaluated, its
            // `$(...)` run (`x='a[$(cmd)]'; echo "${!x}"`: red team 41).
            if let bword::Parameter::Named(n) = param {
                let named: Vec<String> = self
                    .bound
                    .iter()
                    .rev()
                    .find(|(b, _)| b == n)
                    .map(|(_, v)| v.iter().filter_map(Word::lit).map(str::to_string).collect())
                    .unwrap_or_default();
                for v in named {
                    if v.contains('[') && (v.contains("$(") || v.contains('`')) {
                        self.substitutions_in(&v);
                    }
                }
            }
        }
        if let bword::Parameter::NamedWithIndex { name, index } = param {
            if self.is_associative(name) {
                // A key, expanded as a word: only its substitutions run.
                if index.contains("$(") || index.contains('`') {
                    self.substitutions_in(index);
                }
            } else if !index.trim().chars().all(|c| c.is_ascii_digit()) {
                self.arithmetic_in_word(index, unknown);
            }
        }
        for t in texts {
            if t.contains('$') || t.contains('`') {
                self.substitutions_in(t);
            }
        }
    }

    /// A subscript's text after quote removal (`'$(cmd)'` is `$(cmd)`) holds a substitution:
    /// bash runs it when it evaluates the subscript. Decided as run; the reason, if so.
    fn subscript_runs(&mut self, key: &Word) -> Option<String> {
        let text = match key {
            Word::Lit(t) => t,
            Word::Dyn(_) => return None, // walked as the word was resolved
        };
        if !(text.contains("$(") || text.contains('`')) {
            return None;
        }
        self.substitutions_in(text);
        Some(format!("the subscript `[{text}]` is evaluated as arithmetic, which runs its substitution"))
    }

    /// `{name}>file`, `{name[subscript]}<file` open a descriptor into a variable (brush reads
    /// the `{...}` as a word): bash assigns the descriptor's number to it, so its known value
    /// is gone, and a variable that changes what runs is not allowed (seventh red team:
    /// `{IFS}>f` makes IFS `10`, and gate's word splitting wrong). A subscript is evaluated,
    /// running a `$(...)` in it even inside quotes.
    fn fd_variable(&mut self, word: &Word) -> Option<String> {
        let inner = word.lit()?.strip_prefix('{')?.strip_suffix('}')?;
        let (name, rest) = match inner.split_once('[') {
            Some((n, r)) => (n, Some(r)),
            None => (inner, None),
        };
        if !is_identifier(name) {
            return None;
        }
        self.unbind(name);
        let dangerous =
            tables::is_dangerous_variable(name).then(|| format!("`{{{name}}}>` sets {name}, which changes what runs"));
        match rest {
            Some(rest) => {
                let key = rest.strip_suffix(']').unwrap_or(rest);
                self.subscript_runs(&Word::Lit(key.to_string())).or(dangerous)
            }
            None => dangerous,
        }
    }

    /// `coproc NAME ...` assigns the array NAME (its descriptors) and NAME_PID; `COPROC`
    /// without a name (seventh red team: `coproc PATH { :; }`). The reason, for a name that
    /// changes what runs.
    fn coproc_name(&mut self, name: Option<&ast::Word>) -> Option<String> {
        let name = match name {
            Some(w) => match self.word(&w.value).word {
                Word::Lit(n) => n,
                Word::Dyn(d) => return Some(format!("`coproc {d}` assigns a variable named only at run time")),
            },
            None => "COPROC".to_string(),
        };
        let pid = format!("{name}_PID");
        self.unbind(&name);
        self.unbind(&pid);
        [name, pid]
            .into_iter()
            .find(|n| tables::is_dangerous_variable(n))
            .map(|n| format!("`coproc` sets {n}, which changes what runs"))
    }

    fn arithmetic_in_word(&mut self, expr: &str, unknown: &mut Option<String>) {
        let known = self.arithmetic_known(expr);
        self.values_evaluated(expr);
        // (bash runs the substitutions before it assigns: `(( t += $(wc -l < "$f") ))` reads
        // the loop's `f`, red team 87.)
        if expr.contains("$(") || expr.contains('`') {
            self.substitutions_in(expr);
        }
        self.arithmetic_assigns(expr);
        if !known {
            *unknown = Some(format!("arithmetic `{}` evaluates variables, which can run code", expr.trim()));
        }
    }

    // ---- simple commands ----

    /// The names assigned since the assignment log held `log0` names; where the log is shorter
    /// now (a function's scope ended in between), every name bound now or in `before`.
    fn changed_since(&self, log0: usize, before: &[(String, Vec<Word>)]) -> Vec<String> {
        match self.assigned.get(log0..) {
            Some(log) => log.to_vec(),
            None => before.iter().chain(&self.bound).map(|(n, _)| n.clone()).collect(),
        }
    }

    /// The state a command that may be skipped starts from.
    fn may_not_happen_start(&self) -> MayNotHappen {
        (self.bound.clone(), self.assigned.len(), self.errexit, self.cwd.clone(), self.params.clone())
    }

    /// After a command bash may have skipped (a redirection of it failed): what it changed may
    /// not have happened.
    fn may_not_have_happened(&mut self, start: MayNotHappen) {
        let (before, log0, errexit0, cwd0, params0) = start;
        // (red team 30: `set -- rm x; set -- ls <missing; "$@"` ran rm.)
        if self.params != params0 {
            self.params = None;
        }
        // (A log shorter than at the start (a function's scope ended in between): every name
        // bound then or now may have changed.)
        let changed = self.changed_since(log0, &before);
        self.forget_changed(changed, &before);
        self.errexit = errexit0 && self.errexit;
        if *self.cwd != cwd0 {
            self.cwd.forget();
        }
    }

    /// A simple command, with `$_` (red team 69: `mkdir -p docs/guide && cd "$_"` was asked):
    /// the previous command's last word where [`Walker::last_arg`] knows it, and none while
    /// a trap may run commands between the two.
    fn simple(&mut self, sc: &ast::SimpleCommand) {
        let traps = self.a.traps_set;
        self.dollar_underscore = self.last_arg.take().filter(|_| !traps);
        self.simple_last = None;
        self.simple_words(sc);
        self.dollar_underscore = None;
        self.last_arg = self.simple_last.take();
    }

    fn simple_words(&mut self, sc: &ast::SimpleCommand) {
        let redirects = redirects_of(sc);
        let fallible = redirects.iter().any(|io| may_fail(io, self.std_closed, self.restricted));
        let start = fallible.then(|| self.may_not_happen_start());
        let own = redirects.iter().any(|io| stdin_redirect(io, &|n| self.listed_name(n)));
        // Its own input is not the listing piped in (red team 44: `find src | xargs cat <<<
        // /etc/passwd`, `find src | sort < names | while read -r f`).
        if own {
            self.stdin_listing = None;
            self.stdin_lines = Lines::Other;
        }
        let own0 = std::mem::replace(&mut self.own_stdin, own);
        let redirected0 = std::mem::replace(&mut self.redirected, !redirects.is_empty());
        let pushed = self.a.commands.len();
        // (Arrays the text emptied: `rs=()`.)
        let emptied: Vec<String> = self.bound.iter().filter(|(_, v)| v.is_empty()).map(|(n, _)| n.clone()).collect();
        self.simple_inner(sc);
        self.own_stdin = own0;
        self.redirected = redirected0;
        let listed = self.mapfile_listing(sc, &redirects, pushed);

        let fallible = start.is_some();
        if let Some(start) = start {
            self.may_not_have_happened(start);
        }
        // A process substitution may fail (no descriptor left: `exec 3<f 4<f ...`), and
        // mapfile then does not run: NAME keeps what it held, which must be known to be
        // nothing (`rs=(); mapfile -t rs < <(...)`), or an earlier command's value is read.
        // (A process substitution fails only where descriptors run out, which takes a text
        // that opens them, `exec 3<f ...`, or lowers the limit, `ulimit -n`: red team 83's
        // `mapfile -t a < <(find docs -name '*.md'); sed -i ... "${a[@]}"` was asked.)
        if let Some((name, listing, nul)) =
            listed.filter(|(n, _, _)| !fallible || emptied.contains(n) || !self.may_open_descriptors())
        {
            self.listings.push((listing, nul));
            let k = self.listings.len() - 1;
            self.bind(&name, vec![Word::Dyn(format!("{LISTED_ARRAY}{k}"))]);
        }
    }

    /// `mapfile -t NAME < <(LISTING)` (also `readarray`, `-d ''` of a NUL-separated listing):
    /// NAME's items are the listing's names, whole (red team 69: `mapfile -t rs < <(find src
    /// -name '*.rs'); wc -l "${rs[@]}"` was asked). Recorded in [`Walker::listings`] where
    /// the command walked was that builtin (no function) after the listing's stages, each a
    /// command gate walked.
    fn mapfile_listing(
        &self,
        sc: &ast::SimpleCommand,
        redirects: &[&ast::IoRedirect],
        pushed: usize,
    ) -> Option<(String, Vec<Word>, bool)> {
        let name = sc.word_or_name.as_ref().map(|w| w.value.as_str())?;
        if !matches!(name, "mapfile" | "readarray") || self.functions.iter().any(|f| f == name) {
            return None;
        }
        let [ast::IoRedirect::File(
            None | Some(0),
            ast::IoFileRedirectKind::Read,
            ast::IoFileRedirectTarget::ProcessSubstitution(_, sub),
        )] = redirects
        else {
            return None;
        };
        let stages = match sub.list.0.as_slice() {
            [item] if item.0.additional.is_empty() && !item.0.first.bang => {
                item.0.first.seq.iter().all(|c| matches!(c, ast::Command::Simple(_))).then_some(item.0.first.seq.len())
            }
            _ => None,
        };
        let cmds = self.a.commands.get(pushed..)?;
        let (own, listed) = cmds.split_last()?;
        let (first, rest) = listed.split_first()?;
        if stages != Some(listed.len()) || !rest.iter().all(line_filter) || own.program() != Some(name) {
            return None;
        }
        let args = own.words.get(1..).and_then(|a| a.iter().map(Word::lit).collect::<Option<Vec<&str>>>())?;
        let (nul, array) = match args.as_slice() {
            ["-t", n] => (false, *n),
            ["-t", "-d", "", n] | ["-d", "", "-t", n] => (true, *n),
            _ => return None,
        };
        let listing =
            listing_of(first).filter(|l| nul_listing(l) == nul && (rest.is_empty() || !nul) && !echo_listing(l))?;
        (is_identifier(array) && own.unknown.is_none() && self.a.stderr_merges == 0)
            .then(|| (array.to_string(), listing, nul))
    }

    /// The listing a word `"${NAME[@]}"` gives the names of ([`Walker::listings`]), as the
    /// wrapper of a loop over them.
    fn listed_array(&self, raw: &str) -> Option<Wrapper> {
        let name = raw.strip_prefix("\"${")?.strip_suffix("[@]}\"")?;
        let (_, values) = self.bound.iter().rev().find(|(n, _)| n == name)?;
        let [Word::Dyn(d)] = values.as_slice() else { return None };
        let (listing, nul) = self.listings.get(d.strip_prefix(LISTED_ARRAY)?.parse::<usize>().ok()?)?;
        Some(Wrapper {
            words: as_find(listing),
            kind: WrapperKind::Listing(if *nul { Split::Whole } else { Split::Lines }),
        })
    }

    /// The listing a word `"$NAME"` (quoted: `true`) or `$NAME` gives the names of, where
    /// NAME holds what a listing printed ([`LISTED_VALUE`]): the word is that substitution.
    fn listed_value(&self, raw: &str) -> Option<(Vec<Word>, bool)> {
        let (inner, quoted) = match raw.strip_prefix('"').and_then(|r| r.strip_suffix('"')) {
            Some(i) => (i, true),
            None => (raw, false),
        };
        let name = referenced_variable(inner)?;
        let (_, values) = self.bound.iter().rev().find(|(n, _)| n == name)?;
        let [Word::Dyn(d)] = values.as_slice() else { return None };
        let (listing, _) = self.listings.get(d.strip_prefix(LISTED_VALUE)?.parse::<usize>().ok()?)?;
        Some((listing.clone(), quoted))
    }

    fn simple_inner(&mut self, sc: &ast::SimpleCommand) {
        self.cwd_tilde = false;
        // (A redirection of its own replaces what the stage before writes.)
        self.stdin_script = self.piped_in.take().map(Ok);
        self.stage_output = None;
        self.replace_str = None;
        let mut words: Vec<Word> = Vec::new();
        let mut unknown: Option<String> = None;
        let mut assignments: Vec<String> = Vec::new();
        // Names the command's own assignment words give values to (after it, unknown unless
        // the command is only assignments).
        let mut given: Vec<String> = Vec::new();
        // Only a command with assignment words in front needs the bindings from before them.
        let assigns_before = sc
            .prefix
            .as_ref()
            .is_some_and(|p| p.0.iter().any(|it| matches!(it, ast::CommandPrefixOrSuffixItem::AssignmentWord(..))));
        let bound0 = (assigns_before && sc.word_or_name.is_some()).then(|| self.bound.clone());

        // bash reads `NAME=VALUE` after the command word as an assignment (neither split nor
        // globbed) only where that word is, as written, a declaration builtin: not `command
        // declare`, `builtin typeset`, `\export`, `"readonly"`, `$d` (red team 113 A: `v="a
        // c=rm"; command declare x=$v` sets c).
        let declaration = sc
            .word_or_name
            .as_ref()
            .is_some_and(|w| matches!(w.value.as_str(), "declare" | "typeset" | "local" | "export" | "readonly"));
        let mut item = |this: &mut Self,
                        it: &ast::CommandPrefixOrSuffixItem,
                        words: &mut Vec<Word>,
                        unknown: &mut Option<String>,
                        in_prefix: bool| {
            use ast::CommandPrefixOrSuffixItem as I;
            match it {
                I::IoRedirect(io) => this.redirect(io),
                I::Word(w) => this.argument_words(&w.value, words, unknown),
                I::AssignmentWord(_, w) if !in_prefix && !declaration => {
                    let at = words.len();
                    this.argument_words(&w.value, words, unknown);
                    // (`env MOCHA_FILE=.env.xml npm test`, `command export X_FILE=.env`: a
                    // value the programs after may write, as below; to `grep`, `echo` or `git
                    // log --grep` it is only text, red team 114 A's `grep -rn LOG_FILE=.env src`.)
                    // (Any word before it: `nice env PREFIX=/x npm test`, `find . -exec env
                    // ...`, red team 115 A.)
                    let sets = words[..at].iter().filter_map(Word::lit).map(program_name).any(|p| {
                        matches!(
                            p,
                            "env"
                                | "sudo"
                                | "doas"
                                | "command"
                                | "builtin"
                                | "declare"
                                | "typeset"
                                | "local"
                                | "export"
                                | "readonly"
                        )
                    });
                    let given: Vec<String> = if !sets {
                        Vec::new()
                    } else {
                        words[at..]
                            .iter()
                            .filter_map(Word::lit)
                            .filter_map(|w| w.split_once('='))
                            .filter(|(n, _)| n.bytes().any(|b| b.is_ascii_uppercase()))
                            .map(|(_, v)| v.to_string())
                            .collect()
                    };
                    for v in given {
                        this.path_value(&Word::Lit(v));
                    }
                }
                // `declare x={a,b}` is `declare x=a x=b`: a declaration builtin's assignment
                // words are brace-expanded as its other words are (red team 53: `{a..Z}`
                // makes a backquote that opens a command substitution).
                I::AssignmentWord(_, w) if !in_prefix && super::words::shell_brace_expand(&w.value) != Braces::None => {
                    this.argument_words(&w.value, words, unknown)
                }
                I::AssignmentWord(a, w) => {
                    let name = match &a.name {
                        ast::AssignmentName::VariableName(n) => n.clone(),
                        ast::AssignmentName::ArrayElementName(n, idx) => {
                            if this.is_associative(n) {
                                // An associative array's key: a word, not arithmetic.
                                if idx.contains("$(") || idx.contains('`') {
                                    this.substitutions_in(idx);
                                }
                            } else if !idx.trim().chars().all(|c| c.is_ascii_digit()) {
                                let mut u = None;
                                this.arithmetic_in_word(idx, &mut u);
                                if u.is_some() {
                                    *unknown = u;
                                }
                            }
                            n.clone()
                        }
                    };
                    let mut harmless_value = false;
                    let integer = this.is_integer(&name);
                    // An integer variable given a number (or a count): it holds one after.
                    let mut integer_number = false;
                    if matches!(a.value, ast::AssignmentValue::Array(_))
                        || matches!(a.name, ast::AssignmentName::ArrayElementName(..))
                    {
                        this.add_arrays(vec![name.split('[').next().unwrap_or(&name).to_string()]);
                    }
                    if name == "DIRSTACK" {
                        // `DIRSTACK[1]=/etc`: the next `popd` goes there.
                        this.cwd.forget_stack();
                    }
                    // A GLOBIGNORE turns dotglob on.
                    if name == "GLOBIGNORE" {
                        this.a.dotglob = true;
                    }
                    // A compound value whose keys and items are all literal, as the builtin
                    // sees it (`declare -a m=([0]=a b)`).
                    let mut compound: Option<String> = None;
                    // The value as resolved, for binding: `None` when not known.
                    let mut resolved: Option<Vec<Word>> = Some(Vec::new());
                    let plain_value: bool;
                    let was_plain = {
                        let base = name.split('[').next().unwrap_or(&name);
                        this.plain.iter().any(|p| p == base) || !this.assigned.iter().any(|n| n == base)
                    };
                    match &a.value {
                        ast::AssignmentValue::Scalar(v) => {
                            plain_value = plain_text(&v.value);
                            let pushed = this.a.commands.len();
                            this.assigning = true;
                            let r = this.word(&v.value);
                            this.assigning = false;
                            // A prompt bash expands (PS4 before each command under `set -x`):
                            // its substitutions are decided as if they ran.
                            if let (true, Word::Lit(t)) =
                                (matches!(name.as_str(), "PS0" | "PS1" | "PS2" | "PS4"), &r.word)
                            {
                                if t.contains("$(") || t.contains('`') {
                                    let t = t.clone();
                                    this.substitutions_in(&t);
                                }
                            }
                            // A value names files for the programs that read the variable:
                            // environment variables (upper case by convention, or given to a
                            // command). A lower-case shell variable (`n=$(grep -c x src/a.rs)`,
                            // `d=/etc`: red team 30 found `x=/etc; ls src` asked) is read by no
                            // program; where it is used, its value is decided there.
                            // (So is one `declare`, `local`, `typeset` or `readonly` gives a value
                            // without exporting it: `declare n="$(wc -l < f)"`.)
                            let declared = words
                                .first()
                                .and_then(Word::lit)
                                .is_some_and(|p| matches!(p, "declare" | "typeset" | "local" | "readonly"))
                                && words[1..]
                                    .iter()
                                    .all(|w| w.lit().is_some_and(|a| !(a.starts_with('-') && a.contains('x'))));
                            let shell_local = (sc.word_or_name.is_none() || declared)
                                && !name.bytes().any(|b| b.is_ascii_uppercase());
                            // (`IFS=/ read -r a b`: the shell's separators name no file.)
                            if !shell_local && name != "IFS" {
                                this.path_value(&r.word);
                            }
                            // No splitting or globbing in an assignment: `g=$f` is `g="$f"`.
                            let quoted = this.bound_word(&format!("\"{}\"", v.value.trim_matches('"')));
                            // `n=$((n+1))`: a number, if n held one (a failed expansion
                            // leaves the old value).
                            // `y=$((x*2))` with x a number, and no way for it to fail: a
                            // number whatever y held. `n=$#`, `s=$SECONDS`: numbers.
                            let text = v.value.trim_matches('"');
                            // (`total=$((total + $(wc -l < "$f")))`: a count is a number.)
                            // (`last=$(( ${#files[@]} - 1 ))`: a length is a number.)
                            let inner = text
                                .strip_prefix("$((")
                                .and_then(|t| t.strip_suffix("))"))
                                .filter(|t| !t.contains("))"))
                                .and_then(numbers_substituted)
                                .map(|t| names_unbraced(&lengths_as_numbers(&defaults_as_names(&t))))
                                .filter(|t| !t.contains(['\'', '"', '`', '$']));
                            let arith = inner.is_some();
                            let sure = inner.is_some_and(|t| {
                                arithmetic_cannot_fail(&t) && identifiers(&t).iter().all(|n| this.is_number(n))
                            });
                            let copied = referenced_variable(text).is_some_and(|n| this.is_number(n));
                            // `n=$(wc -l < "$f")`, `n=$(git ls-files | wc -l)`: a count, or
                            // nothing (red team 41 found `echo $((lines / 2))` asked).
                            let counts = text
                                .strip_prefix("$(")
                                .and_then(|t| t.strip_suffix(')'))
                                .and_then(|inner| this.counted_output(inner));
                            let counted = counts.is_some();
                            let keeps_number = (arith && this.is_number(&name)) || sure || copied || counted;
                            // (One integer where arithmetic cannot fail, or a count of one input;
                            // other numbers may be several, or `2026-08-01`.)
                            let one_integer =
                                sure || counts == Some(true) || (arith && this.held(&name) != abort::Held::Other);
                            let object = text
                                .strip_prefix("$(")
                                .and_then(|t| t.strip_suffix(')'))
                                .is_some_and(|inner| this.constant_output(inner).as_deref() == Some(OBJECT_NAME));
                            // `f=$(ls src/*.rs | head -1)`, `files=$(git ls-files '*.rs')`: the
                            // names a listing printed, which `cat "$f"` and `wc -l $files` read
                            // as they would read the substitution in place (red team 94).
                            let listed =
                                (!a.append && !integer && matches!(a.name, ast::AssignmentName::VariableName(_)))
                                    .then(|| this.substituted_listing(text, pushed))
                                    .flatten()
                                    .filter(|_| r.unknown.is_none() && r.word.lit().is_none());
                            resolved = match (quoted, &r.word) {
                                // (A value gate knows is kept as it is: `d=$(date +%F)` is one
                                // of that shape, red team 63.)
                                _ if keeps_number && one_integer && r.word.lit().is_none() => {
                                    Some(vec![Word::Dyn(INTEGER.into())])
                                }
                                _ if keeps_number && r.word.lit().is_none() => Some(vec![Word::Dyn(NUMBER.into())]),
                                _ if object && r.word.lit().is_none() => Some(vec![Word::Dyn(OBJECT_VALUE.into())]),
                                _ if listed.is_some() => {
                                    this.listings.extend(listed.map(|l| (l, false)));
                                    Some(vec![Word::Dyn(format!("{LISTED_VALUE}{}", this.listings.len() - 1))])
                                }
                                (Some(w), _) => Some(vec![w]),
                                (None, w @ Word::Lit(_)) => Some(vec![w.clone()]),
                                // `pid=$!`: one number or nothing, never an option (`wait $pid`).
                                (None, w @ Word::Dyn(d)) if tables::number_parameter(d) => Some(vec![w.clone()]),
                                // `file="$1"` of a function called with one name of a glob
                                // (red team 67).
                                (None, w @ Word::Dyn(d)) if d.starts_with('"') && tables::unquoted_glob(d) != d => {
                                    Some(vec![w.clone()])
                                }
                                // `b=${f##*/}`, `n=$(basename "$f" .rs)`: no splitting in an
                                // assignment, so as `b="${f##*/}"` (red team 69).
                                (None, Word::Dyn(_))
                                    if !text.contains(['\'', '\\', '`'])
                                        && ((text.starts_with("${") && !text.contains('"'))
                                            || (text.starts_with("$(basename ") && text.ends_with(')'))) =>
                                {
                                    match this.word(&format!("\"{text}\"")).word {
                                        w @ Word::Dyn(_)
                                            if w.display().starts_with('"')
                                                && tables::unquoted_glob(&w.display()) != w.display() =>
                                        {
                                            Some(vec![w])
                                        }
                                        _ => None,
                                    }
                                }
                                // `F=${F:-.env}`: unknown, or its default, which a write of
                                // `"$F"` is decided by (red team 63).
                                (None, w @ Word::Dyn(d)) if tables::parameter_default(d).is_some() => {
                                    Some(vec![w.clone()])
                                }
                                _ => None,
                            };
                            if r.unknown.is_some() {
                                *unknown = r.unknown;
                            }
                            if integer {
                                let u = this.integer_value(&name, &r.word, &v.value);
                                integer_number = u.is_none() && (!a.append || this.is_number(&name));
                                if let Some(u) = u {
                                    *unknown = Some(u);
                                }
                                // `n+=1` evaluates n's value too (red team 77: `n='q[$(rm
                                // x)]'; declare -i n; n+=1` runs rm).
                                if a.append && !this.is_number(&name) {
                                    *unknown = Some(appends_to_integer(&name));
                                }
                            }
                            // A pager that only copies, or git's lock hint: nothing runs.
                            // (Or the shell's own value, `PATH="$PATH" ls`: red team 83.)
                            harmless_value = r.word.lit().is_some_and(|v| harmless_setting(&name, v))
                                || tables::own_value(&a.to_string());
                            if !harmless_value {
                                this.trace_file(&name, &r.word);
                            }
                            // `BASH_CMDS[ls]=/bin/rm`: the name runs that program from then on,
                            // decided as if it ran (red team 40).
                            // `BASH_ALIASES[ls]='rm -rf'` is `alias ls='rm -rf'` (red team 41).
                            if let (true, Word::Lit(text)) = (name.starts_with("BASH_ALIASES"), &r.word) {
                                let text = text.clone();
                                this.nested(&text, None);
                            }
                            if let (true, Word::Lit(program)) = (name.starts_with("BASH_CMDS"), &r.word) {
                                let program = super::shell_word(program);
                                this.nested(&program, None);
                            }
                        }
                        ast::AssignmentValue::Array(items) => {
                            // Items and keys all literal text without a glob: known text.
                            plain_value = items
                                .iter()
                                .all(|(k, v)| k.as_ref().is_none_or(|k| plain_text(&k.value)) && plain_text(&v.value));
                            let mut text = Some(String::new());
                            // brush leaves `[KEY]=VALUE` whole when KEY holds brackets
                            // (`x=(['a[$(cmd)]']=1)`: red team 40); bash splits it at the
                            // `]` that closes the first `[`, quotes and nesting skipped.
                            let items: Vec<(Option<ast::Word>, ast::Word)> = items
                                .iter()
                                .map(|(k, v)| match k.is_none().then(|| keyed_element(&v.value)).flatten() {
                                    Some((key, value)) => (
                                        Some(ast::Word { value: key.to_string(), loc: None }),
                                        ast::Word { value: value.to_string(), loc: None },
                                    ),
                                    None => (k.clone(), v.clone()),
                                })
                                .collect();
                            for (k, v) in &items {
                                if k.is_none() && v.value.starts_with('[') && v.value.contains(['$', '`']) {
                                    // A `[` element gate could not split: bash may read a key.
                                    *unknown =
                                        Some(format!("the array element `{}` may be a key gate cannot read", v.value));
                                    this.substitutions_in(&v.value);
                                }
                                if let Some(k) = k {
                                    let r = this.word(&k.value);
                                    if r.unknown.is_some() {
                                        *unknown = r.unknown;
                                    }
                                    // An indexed array's key is arithmetic, and bash expands a
                                    // `$(...)` in it even inside quotes (`a=(['$(cmd)']=1)`).
                                    if let Some(u) = this.subscript_runs(&r.word) {
                                        *unknown = Some(u);
                                    }
                                    // And it reads the variables it names, evaluating their
                                    // values in turn (`n='a[$(cmd)]'; b=([n]=1)`: eleventh
                                    // round). An associative array's key is a word.
                                    // (A key with an expansion or a `*` is read from its text:
                                    // arithmetic expands it first.)
                                    let key = r.word.lit().unwrap_or(&k.value).to_string();
                                    // (`declare -A m=([k]=v)`: the builtin makes m associative.)
                                    let declared_assoc =
                                        words.first().and_then(Word::lit).is_some_and(|p| {
                                            matches!(program_name(p), "declare" | "typeset" | "local")
                                        }) && words[1..]
                                            .iter()
                                            .filter_map(Word::lit)
                                            .any(|a| a.starts_with('-') && a.contains('A'));
                                    if !this.is_associative(&name)
                                        && !declared_assoc
                                        && !key.trim().chars().all(|c| c.is_ascii_digit())
                                    {
                                        let mut u = None;
                                        this.arithmetic_in_word(&key, &mut u);
                                        if u.is_some() {
                                            *unknown = u;
                                        }
                                    }
                                    // `a=([IFS=0]=x)` assigns as arithmetic does (review).
                                    if let Some(key) = r.word.lit() {
                                        this.arithmetic_assigns(key);
                                    }
                                    match (&mut text, r.word.lit()) {
                                        (Some(t), Some(key)) => t.push_str(&format!("[{key}]=")),
                                        _ => text = None,
                                    }
                                }
                                // (An item without a key is brace-expanded into several:
                                // `a=({src,/etc}/passwd)`, red team 75.)
                                let rs =
                                    if k.is_none() { this.words(&v.value) } else { vec![this.word_listed(&v.value)] };
                                for r in rs {
                                    let bindable = k.is_none()
                                        && match &r.word {
                                            Word::Lit(_) => true,
                                            Word::Dyn(d) => tables::glob_base(d).is_some(),
                                        };
                                    match (&mut resolved, bindable) {
                                        (Some(o), true) => o.push(r.word.clone()),
                                        _ => resolved = None,
                                    }
                                    match (&mut text, r.word.lit()) {
                                        (Some(t), Some(item)) if !item.contains(char::is_whitespace) => {
                                            t.push_str(item);
                                            t.push(' ');
                                        }
                                        _ => text = None,
                                    }
                                    if r.unknown.is_some() {
                                        *unknown = r.unknown;
                                    }
                                    if integer {
                                        if let Some(u) = this.integer_value(&name, &r.word, &v.value) {
                                            *unknown = Some(u);
                                        }
                                    }
                                }
                            }
                            compound = text.map(|t| format!("({})", t.trim_end()));
                        }
                    }
                    if in_prefix {
                        given.push(name.clone());
                        // Later assignment words see this value (`f=a g=$f`).
                        // `x+=m` of a scalar gate knows: the two joined (red team 62: `x=r;
                        // x+=m; $x b` runs `rm`).
                        let plain_name = matches!(a.name, ast::AssignmentName::VariableName(_));
                        let scalar = matches!(a.value, ast::AssignmentValue::Scalar(_));
                        let appended = match (a.append && plain_name && scalar, resolved.as_deref()) {
                            (true, Some([Word::Lit(more)])) => {
                                match this.bound.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| v.as_slice()) {
                                    Some([Word::Lit(was)]) => Some(vec![Word::Lit(format!("{was}{more}"))]),
                                    _ => None,
                                }
                            }
                            _ => None,
                        };
                        // `files+=("$f")` of an indexed array gate knows every item of: the
                        // items joined (red team 63: an array filled in a loop, then used).
                        let keyed = this.is_associative(&name) || this.keyed.iter().any(|k| k == &name || k == "*");
                        let appended =
                            appended.or_else(|| match (a.append && plain_name && !scalar && !keyed, &resolved) {
                                (true, Some(more)) => this
                                    .bound
                                    .iter()
                                    .rev()
                                    .find(|(n, _)| *n == name)
                                    .map(|(_, was)| was.iter().chain(more).cloned().collect()),
                                _ => None,
                            });
                        // (`files=()`: an array of no items, bound so that items may be added.)
                        let value = appended
                            .or_else(|| resolved.filter(|v| !a.append && plain_name && (!v.is_empty() || !scalar)));
                        // `a=x` of an array replaces `a[0]` only: the rest stays (red team 55:
                        // `f=(docs/a.md Cargo.toml); f=docs/new.md; tee "${f[@]}"`).
                        let scalar_of_array =
                            matches!(a.value, ast::AssignmentValue::Scalar(_)) && this.may_be_array(&name);
                        match value {
                            Some(v) if !integer && !scalar_of_array => this.bind(&name, v),
                            _ if integer && integer_number && plain_name && scalar && !scalar_of_array => {
                                this.bind_number(&name)
                            }
                            _ => this.unbind(&name),
                        }
                        // `ROOT=$(pwd)`, `here=$PWD`: the directory it was run in, which a
                        // later `cd "$ROOT"` goes back to (red team 42 found it asked).
                        if let (Some(dir), false, ast::AssignmentValue::Scalar(v)) =
                            (this.cwd.0.clone(), a.append || integer, &a.value)
                        {
                            let v = v.value.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(&v.value);
                            let printed = matches!(v, "$(pwd)" | "$(pwd -L)" | "$(pwd -P)" | "`pwd`")
                                && !this.functions.iter().any(|f| f == "pwd");
                            let variable = matches!(v, "$PWD" | "${PWD}") && !this.assigned.iter().any(|n| n == "PWD");
                            // `DOCS="$PWD/docs"`, `OUT="$ROOT/docs/out"`: a directory below
                            // one gate follows (red team 62), its rest plain text.
                            let here = this.directory_word(&format!("\"{v}\""));
                            this.a.at_git_top |= v.starts_with("$(git ") && here.is_some();
                            let below = here
                                .filter(|w| w.bytes().all(|b| b.is_ascii_alphanumeric() || b"\"-_./".contains(&b)))
                                .and_then(|w| this.cwd.joined(Some(w.trim_matches('"'))))
                                .map(|d| {
                                    let mut c = this.cwd.clone();
                                    c.move_to(Some(d));
                                    c.lexical().0
                                });
                            // `ROOT=$(git rev-parse --show-toplevel)` without `|| pwd`: the start,
                            // or nothing where git prints nothing; marked so that each use
                            // below it is held as the inline form is ([`Analysis::no_top`]).
                            let bare_top = !printed
                                && !variable
                                && below.is_none()
                                && this.git_top_prefix(v, false).is_some_and(str::is_empty);
                            let dir = if printed || variable || bare_top { Some(dir) } else { below.flatten() };
                            if let (Some(dir), true) = (dir, is_identifier(&name)) {
                                // (Relative to the start, not to where it was read: kept even
                                // where the value spelled `~+`'s way from here.)
                                let tilde = std::mem::take(&mut this.cwd_tilde);
                                let mut value = vec![Word::Lit(dir)];
                                if bare_top {
                                    value.push(Word::Dyn(NO_TOP.into()));
                                }
                                this.bind(&format!("{PWD_OF}{name}"), value);
                                this.cwd_tilde = tilde;
                            }
                        }
                        // An element or `+=` keeps the rest: plain only if it all was.
                        let base = name.split('[').next().unwrap_or(&name).to_string();
                        let whole = !a.append && !name.contains('[');
                        if plain_value && (whole || was_plain) {
                            this.plain.push(base);
                        }
                        if !harmless_value {
                            assignments.push(name);
                        }
                    } else {
                        // `declare -a files=(src/*.rs)`, `local files=(...)`: the array as the
                        // same assignment alone would make it, bound once the builtin has run
                        // (red team 53 found the glob's names asked where `files=(...)` was not).
                        let declarer = words
                            .first()
                            .and_then(Word::lit)
                            .is_some_and(|p| matches!(p, "declare" | "typeset" | "local"))
                            && words[1..].iter().all(|w| {
                                w.lit().is_some_and(|a| a.starts_with('-') && a[1..].chars().all(|c| c == 'a'))
                            });
                        if let (true, false, ast::AssignmentValue::Array(_), Some(v)) =
                            (declarer, a.append, &a.value, resolved.clone())
                        {
                            if matches!(a.name, ast::AssignmentName::VariableName(_)) && !v.is_empty() && !integer {
                                this.declared_arrays.push((name.clone(), v));
                            }
                        }
                        // (`export ROOT="$PWD"`: kept where the builtin keeps the value.)
                        if let ast::AssignmentValue::Scalar(v) = &a.value {
                            let v = v.value.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(&v.value);
                            let variable = matches!(v, "$PWD" | "${PWD}") && !this.assigned.iter().any(|n| n == "PWD");
                            let printed = matches!(v, "$(pwd)" | "$(pwd -L)" | "$(pwd -P)")
                                && !this.functions.iter().any(|f| f == "pwd");
                            if (variable || printed) && !a.append && is_identifier(&name) {
                                this.declared_here.push(name.clone());
                            }
                        }
                        // `export A=b` and friends: the word is an argument and an assignment.
                        match compound.take() {
                            Some(value) if matches!(a.name, ast::AssignmentName::VariableName(_)) => {
                                words.push(Word::Lit(format!("{name}={value}")))
                            }
                            // (An assignment to the builtin: neither split nor globbed, as
                            // alone; `local file=$1` of a glob's name is that name, red team
                            // 112 C.)
                            _ => {
                                let saved = std::mem::replace(&mut this.assigning, true);
                                let r = this.word(&w.value);
                                this.assigning = saved;
                                words.push(r.word)
                            }
                        }
                        let value = words.last().and_then(Word::lit).and_then(|w| w.split_once('=')).map(|(_, v)| v);
                        // `export X_FILE=.env`: a value every later program may read or write.
                        if let Some(v) = value.filter(|_| name.bytes().any(|b| b.is_ascii_uppercase())) {
                            let v = Word::Lit(v.to_string());
                            this.path_value(&v);
                        }
                        if tables::is_dangerous_variable(&name)
                            && !value.is_some_and(|v| harmless_setting(&name, v))
                            && !tables::own_value(&w.value)
                        {
                            *unknown = Some(format!("sets {name}, which changes what runs"));
                            let traced = value.map_or_else(|| Word::Dyn(w.value.clone()), |v| Word::Lit(v.to_string()));
                            this.trace_file(&name, &traced);
                        }
                    }
                }
                I::ProcessSubstitution(_, sub) => {
                    this.subshell(sub);
                    words.push(Word::Dyn(grammar::PROCESS_SUBSTITUTION.into()));
                }
            }
        };

        if let Some(prefix) = &sc.prefix {
            for it in &prefix.0 {
                item(self, it, &mut words, &mut unknown, true);
            }
        }
        // Before a command, assignments only reach its environment: its words see the
        // values from before them.
        let command = sc.word_or_name.is_some();
        if let Some(b) = bound0 {
            let names: Vec<String> = sc
                .prefix
                .iter()
                .flat_map(|p| p.0.iter())
                .filter_map(|it| match it {
                    ast::CommandPrefixOrSuffixItem::AssignmentWord(a, _) => match &a.name {
                        ast::AssignmentName::VariableName(n) => Some(n.clone()),
                        _ => None,
                    },
                    _ => None,
                })
                .collect();
            self.command_env =
                names.iter().filter_map(|n| self.bound.iter().rev().find(|(b, _)| b == n).cloned()).collect();
            self.bound = b;
        } else {
            self.command_env.clear();
        }
        // Prefix words are never the command; anything pushed there came from redirect-like items.
        if let Some(w) = &sc.word_or_name {
            for r in self.words(&w.value) {
                if r.unknown.is_some() {
                    unknown = r.unknown;
                }
                if let Some(u) = self.fd_variable(&r.word) {
                    unknown = Some(u);
                }
                words.push(r.word);
            }
        }
        let mut fed: Vec<Word> = Vec::new();
        if let Some(suffix) = &sc.suffix {
            // The last word, where it is `$(LISTING)` of a command that reads its operands
            // (`wc -l $(find src -name '*.rs')`, `cat $(git ls-files docs)`): the names the
            // listing prints, split at blanks and globbed, are appended as xargs appends them
            // (the edge looks for a name below that the split would cut).
            let last = suffix.0.iter().rposition(|it| {
                matches!(
                    it,
                    ast::CommandPrefixOrSuffixItem::Word(_) | ast::CommandPrefixOrSuffixItem::AssignmentWord(..)
                )
            });
            for (k, it) in suffix.0.iter().enumerate() {
                let pushed = self.a.commands.len();
                let count = words.len();
                item(self, it, &mut words, &mut unknown, false);
                if let (true, ast::CommandPrefixOrSuffixItem::Word(w)) = (Some(k) == last, it) {
                    // `head -5 "$(find src -name lib.rs)"`, `cat "$(ls -t docs/*.md | head -1)"`
                    // (red team 69: asked): in quotes, the names joined by line ends, one word,
                    // still a path below the start point the first name is below (no name is
                    // `..`); for programs that only read it.
                    let quoted = w.value.strip_prefix('"').and_then(|r| r.strip_suffix('"'));
                    let reader = || {
                        words.first().and_then(Word::lit).map(program_name).is_some_and(|p| {
                            matches!(
                                p,
                                "cat"
                                    | "head"
                                    | "tail"
                                    | "wc"
                                    | "file"
                                    | "stat"
                                    | "nl"
                                    | "md5sum"
                                    | "sha1sum"
                                    | "sha256sum"
                            )
                        }) && !self.functions.iter().any(|f| Some(f.as_str()) == words.first().and_then(Word::lit))
                    };
                    // (`wc -l "${rs[@]}"` of an array `mapfile` filled with a listing: its
                    // names whole, as xargs hands them on.)
                    let array = self.listed_array(&w.value).map(|l| l.words);
                    let from_array = array.is_some();
                    // (`cat "$f"`, `wc -l $files` of `f=$(LISTING)`: as the substitution.)
                    let value = self.listed_value(&w.value);
                    let listing = match quoted {
                        _ if from_array => array,
                        _ if value.is_some() => value.filter(|(_, q)| !q || reader()).map(|(l, _)| l),
                        Some(inner) if reader() => self.substituted_listing(inner, pushed),
                        Some(_) => None,
                        None => self.substituted_listing(&w.value, pushed),
                    }
                    .filter(|l| words.len() == count + 1 && (loop_listing(l, None).is_some() || from_array));
                    if let Some(l) = listing.filter(|_| tables::reads_operands(&words[..count])) {
                        words.truncate(count);
                        fed = as_find(&l);
                    }
                }
            }
        }
        // `exec < FILE` with no command: a shell reading its commands from standard input
        // (`bash <<EOF`, `bash < script`) goes on reading them from FILE (eleventh round).
        if words.len() == 1 && words[0].lit() == Some("exec") && self.stdin_script.is_some() {
            unknown.get_or_insert_with(|| {
                "`exec` with a new standard input: a shell reading its commands from there runs that file".into()
            });
        }
        // `IFS=, read -r a b`: for `read` alone, IFS only says where it splits its input.
        let splits_only = command
            && words.first().and_then(Word::lit).is_some_and(|p| p == "read")
            && !self.functions.iter().any(|f| f == "read");
        // `IFS=$'\n\t'` alone: blanks gate splits by from then on ([`Walker::ifs`]). Not in a
        // function's body: bash keeps it after the call, gate's walk of the call does not
        // (red team 55: `f(){ IFS=; }; f; sed -n $x` was split on the default blanks).
        let ifs_blanks = !command && self.defining.is_empty() && self.ifs().is_some();
        if let Some(d) = assignments
            .iter()
            .find(|n| tables::is_dangerous_variable(n) && !((splits_only || ifs_blanks) && *n == "IFS"))
        {
            unknown = Some(format!("sets {d}, which changes what runs"));
        }
        if command {
            // A special builtin or a function keeps them; a program does not: unknown.
            for n in &given {
                self.unbind(n);
            }
        }
        // Programs the command's environment names to run (`GIT_EDITOR='rm x' git commit`).
        self.env_assignments_code(sc);
        if words.is_empty() {
            if let Some(u) = unknown {
                let text = assignments.join(" ");
                self.push(SimpleCommand {
                    words: vec![Word::Lit(format!("{text}=..."))],
                    wrappers: Vec::new(),
                    aliases: Vec::new(),
                    cwd: None,
                    open_args: false,
                    args_from: Vec::new(),
                    unknown: Some(u),
                    lands: None,
                });
            }
            return;
        }
        let output = if unknown.is_none() { self.known_output(&words) } else { None };
        self.a.produced.extend(output.iter().filter(|o| o.len() <= MAX_PRODUCED).cloned());
        let pushed = self.a.commands.len();
        let open = !fed.is_empty();
        self.fed_args = fed;
        // (What the shell passed: xargs's own input or a wrapper's run changes nothing.)
        // (Not where a listing's names were taken off the end: `wc -l $(find ...)`.)
        self.simple_last = words.last().and_then(Word::lit).filter(|_| unknown.is_none() && !open).map(str::to_string);
        let words = self.sed_number_scripts(words);
        let loose =
            sc.suffix
                .as_ref()
                .is_some_and(|x| x.0.iter().any(|it| matches!(it, ast::CommandPrefixOrSuffixItem::AssignmentWord(..))))
                && !sc.word_or_name.as_ref().is_some_and(|w| {
                    matches!(w.value.as_str(), "declare" | "typeset" | "local" | "export" | "readonly")
                });
        let loose0 = std::mem::replace(&mut self.loose_assignments, loose);
        self.unwrap(words, Vec::new(), open, unknown);
        self.loose_assignments = loose0;
        if let Some(c) = self.cwd_after.take() {
            *self.cwd = c;
        }
        self.fed_args.clear();
        // nohup appends the output to `nohup.out` (else `~/nohup.out`) where its standard
        // output is a terminal: one this command does not redirect or pipe may be (a pty, as
        // Gemini CLI and `gate run --pty` give; red team 62's `nohup npm run dev &`).
        let nohup = self.a.commands[pushed..].iter().any(|c| {
            c.wrappers.iter().any(|w| w.program() == Some("nohup"))
                || c.words.first().and_then(Word::lit).is_some_and(|p| program_name(p) == "nohup")
        });
        if nohup && !self.stdout_piped && !sends_stdout(sc) {
            self.write(Word::Lit("nohup.out".into()), WriteKind::Append);
            self.write(Word::Lit("~/nohup.out".into()), WriteKind::Append);
        }
        self.stage_output = output;
    }

    /// A shell reading its script from its standard input reads it a line at a time, and a
    /// command of the script that reads standard input takes the lines after its own: text
    /// gate read as a here-document or a quoted string then runs as commands (red team 30:
    /// `printf 'read x\n: <<"E"\nrm -f x\nE\n' | bash`). Not modelled unless every command
    /// before the script's last top-level line (`commands[before..last_line_at]`, walked just
    /// now) is one known never to read standard input: the last line is read whole before it
    /// runs, and nothing follows it.
    fn script_on_stdin_read_by_itself(&mut self, before: usize, words: &[Word], wrappers: &[Wrapper], text: &str) {
        // The commands of the last line read nothing after them, unless the script goes on
        // with a comment: bash reads it as text of its own, and what a reader left of it is
        // run (red team 43: `od -N 5 >/dev/null` then `#abc rm m` runs `rm m`).
        let comment_after = text.trim_end().rsplit('\n').next().is_some_and(|l| l.trim_start().starts_with('#'));
        let end =
            if comment_after { self.a.commands.len() } else { self.last_line_at.clamp(before, self.a.commands.len()) };
        let reader = self.a.commands[before..end].iter().find(|c| {
            // Only git's listings that never read their input (red team 30: `git cat-file
            // --batch-command` and `git blame --contents -` read the script's next block).
            let git_reads = c.program() == Some("git")
                && tables::is_read_only(&c.words, super::Added::No)
                && c.words.iter().skip(1).find_map(Word::lit).is_some_and(|s| {
                    matches!(s, "status" | "log" | "diff" | "show" | "branch" | "rev-parse" | "describe")
                })
                && !c.words.iter().any(|w| {
                    w.lit().is_none_or(|a| {
                        a == "-" || a.ends_with("=-") || a.contains("stdin") || a.starts_with("--no-index")
                    })
                });
            !git_reads && c.program().is_none_or(|p| !NO_STDIN.contains(&p))
        });
        if let Some(c) = reader {
            let mut u = Some(format!(
                "`{}` may read the lines of the script after it, which the shell reads from the same input",
                c.display()
            ));
            self.keep_unknown(words, wrappers, &mut u);
            // What a reader leaves of a comment after it runs: each tail of each such line is
            // decided as if it ran, so a deny rule that matches one denies (red team 43:
            // `od -N 5` then `#abc rm m` runs `rm m`).
            if comment_after {
                let tails: Vec<&str> =
                    text.trim_end().lines().rev().take_while(|l| l.trim_start().starts_with('#')).collect();
                let mut budget = 2000usize;
                for line in tails {
                    for (k, _) in line.char_indices().skip(1) {
                        let tail = &line[k..];
                        if budget < tail.len() {
                            return;
                        }
                        budget -= tail.len();
                        if !tail.trim().is_empty() {
                            let tail = tail.to_string();
                            self.nested_run_by(&tail, words, wrappers);
                        }
                    }
                }
            }
        }
    }

    /// What a simple command writes to its standard output, where gate knows it exactly: `echo`
    /// of literal words (no option), `printf` of a literal format with no conversion or escape
    /// but `\n`, `cat` copying a here-document or here-string. Builtins only (no function of
    /// that name).
    fn known_output(&self, words: &[Word]) -> Option<String> {
        let name = words.first()?.lit()?;
        if !matches!(name, "echo" | "printf" | "cat" | "base64" | "base32") || self.functions.iter().any(|f| f == name)
        {
            return None;
        }
        let lits: Vec<&str> = words[1..].iter().map(Word::lit).collect::<Option<_>>()?;
        match (name, lits.as_slice()) {
            // What a decoding stage gives the next (red team 59: `echo cm0g... | base64 -d |
            // sh` runs `rm`).
            ("base64" | "base32", flags) => {
                // `-d`, with `-i` (garbage skipped) and `-w N` (ignored when decoding), in any
                // order and bundle (red team 61: `base64 -di`, `base64 -d -w0`).
                let (mut decode, mut ignore) = (false, false);
                let mut it = flags.iter();
                while let Some(f) = it.next() {
                    match *f {
                        "--decode" => decode = true,
                        "--ignore-garbage" => ignore = true,
                        "-w" | "--wrap" => {
                            it.next()?;
                        }
                        f if f.starts_with("--wrap=") => {}
                        f if f.starts_with('-') && f.len() > 1 && !f.starts_with("--") => {
                            let letters = f[1..].split_once('w').map_or(&f[1..], |(l, _)| l);
                            if !letters.chars().all(|c| matches!(c, 'd' | 'i')) {
                                return None;
                            }
                            decode |= letters.contains('d');
                            ignore |= letters.contains('i');
                            if f[1..].ends_with('w') {
                                it.next()?;
                            }
                        }
                        _ => return None,
                    }
                }
                let text = self.stdin_script.as_ref()?.as_deref().ok()?;
                match (decode, name) {
                    (false, _) => None,
                    (true, "base64") => base64_decoded(text, ignore),
                    (true, _) => base32_decoded(text, ignore),
                }
            }
            ("echo", ["-n", l @ ..]) if !l.iter().any(|a| a.starts_with('-') || a.contains('\\')) => Some(l.join(" ")),
            // `printf FORMAT ARGS...` with `%s`-like conversions and `\n` (red team 59:
            // `printf '%s' r m ' -rf x' | sh`).
            // (Its format's escapes decoded as printf does: `\562` is `r`, red team 68.)
            ("printf", [f, args @ ..]) if !f.starts_with('-') => printf_output(f, args),
            // (`printf -- FORMAT ...`: red team 69.)
            ("printf", ["--", f, args @ ..]) => printf_output(f, args),
            // (No backslash: dash's `echo`, and bash's with `xpg_echo`, read escapes.)
            ("echo", l) if l.first().is_none_or(|a| !a.starts_with('-')) && !l.iter().any(|a| a.contains('\\')) => {
                Some(format!("{}\n", l.join(" ")))
            }
            ("cat", [] | ["-"]) => self.stdin_script.clone()?.ok(),
            _ => None,
        }
    }

    fn push(&mut self, mut c: SimpleCommand) {
        if let Some(readers) = self.a.stdin_readers.as_mut().filter(|_| !self.stdin_moved && !self.own_stdin) {
            if may_read_stdin(&c) {
                readers.push(c.display());
            }
        }
        c.cwd = self.cwd.0.clone();
        if !self.wrappers.is_empty() || !self.split_names.is_empty() {
            let mut w = std::mem::take(&mut self.split_names);
            w.extend(self.wrappers.iter().cloned());
            w.extend(c.wrappers);
            c.wrappers = w;
        }
        self.a.commands.push(c);
    }

    /// A transparent wrapper hands its command on; an unknown found on the way (a dangerous
    /// assignment before `bash -c`, say) must not be lost with it.
    fn keep_unknown(&mut self, words: &[Word], wrappers: &[Wrapper], unknown: &mut Option<String>) {
        if let Some(u) = unknown.take() {
            let c = SimpleCommand {
                words: words.to_vec(),
                wrappers: wrappers.to_vec(),
                aliases: Vec::new(),
                cwd: None,
                open_args: false,
                args_from: Vec::new(),
                unknown: Some(u),
                lands: None,
            };
            self.push(c);
        }
    }

    /// Peel wrappers off `words` and record the command that finally runs.
    fn unwrap(
        &mut self,
        mut words: Vec<Word>,
        mut wrappers: Vec<Wrapper>,
        mut open_args: bool,
        mut unknown: Option<String>,
    ) {
        let mut args_from = std::mem::take(&mut self.fed_args);
        let mut steps = 0;
        loop {
            steps += 1;
            words = git_values_glued(std::mem::take(&mut words));
            let name = match words.first() {
                // A file that is only called like a wrapper or a shell (`./bash -c ls`,
                // `/tmp/x/timeout 1 ls`): what runs is that file, whatever its arguments say.
                // Decided as itself (no rule allows a program outside the system directories).
                Some(Word::Lit(p)) if p.contains('/') && !super::is_trusted_program_path(p) => break,
                Some(Word::Lit(p)) => program_name(p).to_string(),
                Some(Word::Dyn(d)) => {
                    unknown.get_or_insert_with(|| format!("the program `{d}` is only known at run time"));
                    break;
                }
                None => break,
            };
            if steps > MAX_DEPTH {
                unknown.get_or_insert_with(|| "too many wrappers".into());
                break;
            }
            // bash's `time` keyword (`time -- CMD`, `time -p -- CMD`) takes one `--` after
            // itself, and the parser leaves it as the first word. As the command written, `--`
            // is nothing bash could run but a function of that name, whose body is decided
            // where it is defined: the command is what follows.
            if steps == 1 && wrappers.is_empty() && name == "--" && words.len() > 1 {
                words.remove(0);
                steps = 0;
                continue;
            }
            // (`bash --version` prints and exits: decided as a program's `--version`.)
            if tables::is_shell(&name) && !(words.len() == 2 && words[1].lit() == Some("--version")) {
                // Without PATH a shell looks up commands in `.` too (bash's default PATH ends
                // in `.`): `env -i bash -c 'cargo test'` runs `./cargo` where cargo is not in
                // a system directory (ninth red team).
                if wrappers.iter().any(|w| clears_path(&w.words)) {
                    unknown.get_or_insert_with(|| {
                        "the shell starts without PATH, so it looks up commands in the current directory".into()
                    });
                }
                self.keep_unknown(&words, &wrappers, &mut unknown);
                self.shell_invocation(&words, &wrappers, &mut unknown);
                return;
            }
            match name.as_str() {
                "eval" => {
                    let args = &words[1..];
                    if let Some(text) = all_literal(args) {
                        self.keep_unknown(&words, &wrappers, &mut unknown);
                        let wr = Wrapper { words: words.clone(), kind: WrapperKind::Transparent };
                        let mut inner_wrappers = wrappers.clone();
                        inner_wrappers.push(wr);
                        self.in_eval = true;
                        self.nested_with(&text.join(" "), inner_wrappers);
                        self.in_eval = false;
                        // Its `set --` or `shift` changed this shell's `$1`... (sixth red team),
                        // and its `set +e` this shell's errexit (eleventh red team: `set -e;
                        // eval 'set +e'; cd docs/sub; cat ../../x`).
                        self.params = None;
                        self.errexit = false;
                        // (And its `set -a`, however quoted, this shell's allexport: red team
                        // 115 A's `eval 'set -a'; f(){ ...; }`.)
                        self.allexport = true;
                        // The eval part itself: transparent, decided by what it runs.
                        return;
                    }
                    unknown.get_or_insert_with(|| "`eval` runs text only known at run time".into());
                    break;
                }
                // `history -s TEXT` stores TEXT as the last command, which `fc -s` or `fc -e -`
                // runs (red team 42): decided as if it ran.
                "history"
                    if words.get(1).and_then(Word::lit).is_some_and(|f| {
                        f.len() > 1 && f.starts_with('-') && !f.starts_with("--") && f.contains('s')
                    }) =>
                {
                    match all_literal(&words[2..]) {
                        Some(text) => self.nested_run_by(&text.join(" "), &words, &wrappers),
                        None => {
                            unknown.get_or_insert_with(|| {
                                "`history -s` stores text only known at run time, which `fc` may run".into()
                            });
                        }
                    }
                    break;
                }
                "source" | "." => {
                    self.unbind_all();
                    // `source /dev/stdin <<< TEXT`: the commands are right here, run in this shell.
                    if words.get(1).and_then(Word::lit).is_some_and(is_stdin_path) {
                        if let Some(Ok(text)) = self.stdin_script.take() {
                            self.keep_unknown(&words, &wrappers, &mut unknown);
                            let before = self.a.commands.len();
                            self.nested_run_by(&text, &words, &wrappers);
                            self.script_on_stdin_read_by_itself(before, &words, &wrappers, &text);
                            self.unbind_all();
                        }
                    }
                    let what = words.get(1).map(Word::display).unwrap_or_default();
                    unknown
                        .get_or_insert_with(|| format!("`{name}` runs the commands in {what}, which gate cannot see"));
                    break;
                }
                // npm's built-in `env` script runs its arguments as a command (`npm run env --
                // rm -rf src`, red team 41): decided as if it ran, whatever rule allows npm.
                "npm" => {
                    // npm's own aliases, as npm reads them (red team 63: `npm t` was asked where
                    // `Bash(npm test)` allows): `t`/`tst` are `test`, `run-script`/`rum`/`urn`
                    // are `run`, in first place.
                    let canonical = match words.get(1).and_then(Word::lit) {
                        Some("t" | "tst") => Some("test"),
                        Some("run-script" | "rum" | "urn") => Some("run"),
                        _ => None,
                    };
                    if let Some(c) = canonical {
                        words[1] = Word::Lit(c.into());
                    }
                    // (Options before it may take a value: `npm --prefix . run env`, red team 43.)
                    let at_run = (1..words.len())
                        .find(|&j| words[j].lit().is_some_and(|s| matches!(s, "run" | "run-script" | "rum" | "urn")));
                    let run = at_run.is_some();
                    let k = at_run.unwrap_or(words.len());
                    let at_env = (k + 1..words.len()).find(|&j| words[j].lit().is_none_or(|a| !a.starts_with('-')));
                    if let (true, Some(j)) = (run, at_env) {
                        if words[j].lit().is_none_or(|s| s == "env") {
                            let rest: Vec<String> = words[j + 1..]
                                .iter()
                                .filter(|w| w.lit() != Some("--"))
                                .map(tables::as_shell_text)
                                .collect();
                            if !rest.is_empty() {
                                self.nested_run_at_root(&format!("env {}", rest.join(" ")), &words, &wrappers, true);
                            }
                        }
                    }
                }
                // `jobs -x COMMAND ARGS` runs COMMAND, with job specs in ARGS replaced by
                // process ids (red team 45: `jobs -x rm -f m`): decided as if it ran.
                "jobs" => {
                    let x = words[1..].iter().position(|w| w.lit().is_none_or(|a| !a.starts_with('-') || a == "--"));
                    let opts = &words[1..1 + x.unwrap_or(words.len() - 1)];
                    if opts.iter().any(|w| w.lit().is_some_and(|a| a.contains('x'))) {
                        let rest: Vec<String> = words[1 + opts.len()..]
                            .iter()
                            .skip_while(|w| w.lit() == Some("--"))
                            .map(tables::as_shell_text)
                            .collect();
                        if !rest.is_empty() {
                            self.nested_run_by(&rest.join(" "), &words, &wrappers);
                        }
                    }
                }
                "mapfile" | "readarray" => {
                    // `-C CALLBACK`: bash runs `CALLBACK INDEX LINE` every `-c` lines, in this
                    // shell: decided as if it ran here (with a line known only at run time).
                    if let Some(cb) = mapfile_callback(&words[1..]) {
                        self.nested_run_by(&format!("{cb} 0 \"$MAPFILE_LINE\""), &words, &wrappers);
                    }
                }
                "trap" => {
                    // `trap [-lpP] [--] [ACTION SIGNAL...]`: the action runs later, in this
                    // shell, and is decided as if it ran here; the trap itself adds nothing.
                    // Listing (`-p`, `-l`) and resetting (`-`) are left to the safe list.
                    let mut i = 1;
                    let mut listing = false;
                    while let Some(Word::Lit(a)) = words.get(i) {
                        if a == "--" {
                            i += 1;
                            break;
                        }
                        if a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|c| "lpP".contains(c)) {
                            listing = true;
                            i += 1;
                            continue;
                        }
                        break;
                    }
                    let later = words.iter().skip(i + 1).any(|w| {
                        w.lit()
                            .is_none_or(|s| !matches!(s.to_ascii_uppercase().trim_start_matches("SIG"), "EXIT" | "0"))
                    });
                    if !listing && later && words.len() > i + 1 {
                        self.untrusted_values = true;
                        self.unbind_all();
                        // An action that runs between commands may turn errexit off.
                        self.errexit = false;
                    }
                    match words.get(i) {
                        _ if listing => {}
                        Some(Word::Lit(action)) if action != "-" => {
                            let action = action.clone();
                            self.keep_unknown(&words, &wrappers, &mut unknown);
                            self.same_shell = true;
                            // (Installed after its own walk: an action that changes directory,
                            // `trap 'cd - >/dev/null' EXIT`, is not walked again from inside
                            // itself, which nested without end: red team 40.)
                            let traps = std::mem::take(&mut self.traps);
                            self.exit_trap = !later;
                            self.nested_run_by(&action, &words, &wrappers);
                            self.exit_trap = false;
                            self.traps = traps;
                            self.traps.push(action);
                            self.a.traps_set = true;
                            self.same_shell = false;
                            return;
                        }
                        Some(Word::Dyn(_)) => {
                            unknown.get_or_insert_with(|| "`trap` installs a command only known at run time".into());
                        }
                        _ => {}
                    }
                    break;
                }
                "complete" | "compgen" => {
                    self.completion(&words, &wrappers, &mut unknown);
                    break;
                }
                "bind" => {
                    self.key_bindings(&words, &wrappers, &mut unknown);
                    break;
                }
                // `git -C "$(git rev-parse --show-toplevel)" ...` where the command starts: `-C
                // .` (red team 69).
                "git"
                    if words.get(1).and_then(Word::lit) == Some("-C")
                        && words.get(2).is_some_and(|d| d.lit().is_none() && self.git_top_here(&d.display())) =>
                {
                    words[2] = Word::Lit(".".into());
                    self.a.at_git_top = true;
                    continue;
                }
                "git" => match self.git_code(&words, &wrappers, &mut unknown) {
                    GitStep::Expanded(w) => {
                        wrappers.push(Wrapper { words: words.clone(), kind: WrapperKind::Transparent });
                        words = w;
                        continue;
                    }
                    GitStep::Ran => return,
                    GitStep::Plain => {}
                },
                "alias" if words[1..].iter().any(|w| w.lit() != Some("-p")) => {
                    unknown.get_or_insert_with(|| "`alias` changes what later command names run".into());
                    // What an alias runs is code stored to run later: decided as if it ran
                    // (red team 40: `shopt -s expand_aliases; alias ls='rm -rf'` then `ls`).
                    let values: Vec<String> = words[1..]
                        .iter()
                        .filter_map(Word::lit)
                        .filter_map(|a| a.split_once('=').map(|(_, v)| v.to_string()))
                        .filter(|v| !v.trim().is_empty())
                        .collect();
                    for v in values {
                        self.nested(&v, None);
                    }
                    break;
                }
                "env" => match self.env_wrapper(&words, &mut unknown) {
                    Some(EnvResult::Inner(rest)) => {
                        wrappers.push(Wrapper { words: words.clone(), kind: WrapperKind::Transparent });
                        words = rest;
                        continue;
                    }
                    Some(EnvResult::Script(text, rest)) => {
                        // env's own splitter: `\_` separates words, and `\c`, `${VAR}`, `#`
                        // and its quoting rules differ from bash (fourth red team:
                        // `env -S 'A=b\_rm\_x'` runs `rm x`).
                        let text = text.replace("\\_", " ");
                        if text.contains(['\\', '$', '#']) {
                            unknown.get_or_insert_with(|| {
                                "`env -S` splits its text by its own rules, which gate does not model".into()
                            });
                        }
                        self.keep_unknown(&words, &wrappers, &mut unknown);
                        // The split words are env's own again: options, assignments, then the
                        // command (eleventh red team: `env -S '-i rm x'` runs `rm x`).
                        let mut joined = format!("env {text}");
                        for w in &rest {
                            joined.push(' ');
                            joined.push_str(&w.display());
                        }
                        self.nested_run_by(&joined, &words, &wrappers);
                        return;
                    }
                    None => break,
                },
                "find" => {
                    let (own, execs) = split_find(&words);
                    for (e, in_dir) in execs {
                        let mut w = wrappers.clone();
                        w.push(Wrapper { words: words.clone(), kind: WrapperKind::Transparent });
                        let saved = self.replace_str.replace("{}".into());
                        // `-execdir`/`-okdir` run the command in each match's directory.
                        let cwd = in_dir.then(|| {
                            let c = self.cwd.clone();
                            self.cwd.forget();
                            c
                        });
                        // (A command without `{}` is handed no names: `-exec touch
                        // docs/x.md \;` runs just that, red team 82's over-ask.)
                        let names = e.iter().any(|w| matches!(w, Word::Dyn(d) if d.contains("{}")));
                        self.unwrap(e, w, names, None);
                        if let Some(c) = cwd {
                            *self.cwd = c;
                        }
                        self.replace_str = saved;
                    }
                    words = own;
                    break;
                }
                // (`-pv` too: red team 41 found it decided as `command -p` running `v`; and
                // `-p -v`: bash reads every option word before the name, red team 50.)
                "command"
                    if {
                        let opts: Vec<&str> = words[1..]
                            .iter()
                            .map_while(|w| w.lit().filter(|f| f.len() > 1 && f.starts_with('-') && *f != "--"))
                            .collect();
                        opts.iter().all(|f| f[1..].chars().all(|c| "pvV".contains(c)))
                            && opts.iter().any(|f| f.contains(['v', 'V']))
                    } =>
                {
                    break
                }
                "watch" => {
                    let rest = skip_options(
                        &words,
                        &WrapperSpec {
                            name: "watch",
                            value_flags: &["-n", "--interval", "-d", "--differences", "-q", "--equexit", "--chgexit"],
                            positionals: 0,
                            kind: WrapperKind::Transparent,
                        },
                        &mut unknown,
                    );
                    if let Some(rest) = rest.filter(|r| !r.is_empty()) {
                        match all_literal(&rest) {
                            Some(parts) => {
                                // watch runs its words with `sh -c`.
                                let text = parts.join(" ");
                                if let Some(u) = posix_sh_note("`watch`", &text) {
                                    unknown.get_or_insert(u);
                                }
                                self.keep_unknown(&words, &wrappers, &mut unknown);
                                self.nested_run_by(&text, &words, &wrappers);
                                return;
                            }
                            None => {
                                unknown.get_or_insert_with(|| "`watch` runs text only known at run time".into());
                            }
                        }
                    }
                    break;
                }
                _ => {}
            }
            if let Some(spec) = tables::wrapper(&name) {
                if let Some(why) = tables::opaque_wrapper(&name) {
                    unknown.get_or_insert(why);
                }
                // Files the wrapper itself writes (`time -o F`, `script -O F`), the directory
                // it moves to (`sudo -D`).
                self.wrapper_effects(&words, &mut unknown);
                // (`script -V` prints its version and exits: red team 63.)
                let prints = words.len() == 2 && matches!(words[1].lit(), Some("-V" | "--version" | "-h" | "--help"));
                if name == "script" && prints {
                    break;
                }
                if name == "script" && script_flag(&words, spec).is_none() {
                    unknown.get_or_insert_with(|| "`script` without -c starts an interactive shell".into());
                    break;
                }
                // `su -c`, `flock -c`: the value of -c is a script.
                if let Some(script) = script_flag(&words, spec) {
                    match script {
                        Some(text) => {
                            // Run by `$SHELL -c` or the user's shell, often a POSIX `sh`.
                            if let Some(u) = posix_sh_note(&format!("`{name} -c`"), &text) {
                                unknown.get_or_insert(u);
                            }
                            let mut inner = wrappers.clone();
                            inner.push(Wrapper { words: words.clone(), kind: spec.kind });
                            self.nested_with(&text, inner);
                            // The wrapper itself still needs deciding (privileged, rules).
                            self.push(SimpleCommand {
                                words: words.clone(),
                                wrappers,
                                aliases: Vec::new(),
                                cwd: None,
                                open_args,
                                args_from: Vec::new(),
                                unknown,
                                lands: None,
                            });
                            return;
                        }
                        None => {
                            unknown.get_or_insert_with(|| format!("`{name} -c` runs text only known at run time"));
                            break;
                        }
                    }
                }
                match skip_options(&words, spec, &mut unknown) {
                    Some(rest) if !rest.is_empty() || name == "xargs" => {
                        // Under a wrapper that appends arguments (`xargs -r xargs`, `find -exec
                        // xargs {} +`), an xargs without a command is given one at run time
                        // (red team 76: `echo 'rm -f x' | xargs -r xargs` runs rm).
                        if rest.is_empty() && open_args {
                            unknown.get_or_insert_with(|| {
                                "`xargs` without a command under arguments appended at run time runs them".into()
                            });
                        }
                        // xargs without a command runs `echo` (red team 51: `wc -l < F | xargs`).
                        let rest = if rest.is_empty() { vec![Word::Lit("echo".into())] } else { rest };
                        wrappers.push(Wrapper { words: words.clone(), kind: spec.kind });
                        // Plain `xargs` fed constant text (`echo src/a.rs src/b.rs | xargs wc
                        // -l`): its words, split at blanks, are the arguments (red team 47).
                        let fed = match &self.stdin_script {
                            Some(Ok(t))
                                if name == "xargs"
                                    && rest.len() + 1 == words.len()
                                    && !t.contains(['\'', '"', '\\']) =>
                            {
                                Some(t.clone())
                            }
                            _ => None,
                        };
                        if let Some(text) = fed {
                            words = rest
                                .into_iter()
                                .chain(text.split_whitespace().map(|w| Word::Lit(w.to_string())))
                                .collect();
                            continue;
                        }
                        // `git log --format=%H -n 3 | xargs -n1 git show --stat`: git handed
                        // object names, each read as one (red teams 68, 69). (Not with a
                        // replace string inside a longer word, nor git a function: red team 71's
                        // `xargs -I{} git show --stat {}` is one name a line, each whole.)
                        let replace = xargs_replace_str(&words).filter(|r| !r.is_empty());
                        // (Or a revision expression around it: `{}:src/a.rs`, `{}^`, red
                        // team 73.)
                        let whole = |w: &Word| match (&replace, w) {
                            (Some(r), Word::Lit(a)) => {
                                !a.contains(r.as_str())
                                    || a == r
                                    || object_revision(&a.replace(r.as_str(), OBJECT_NAME))
                            }
                            (Some(_), Word::Dyn(_)) => false,
                            (None, _) => true,
                        };
                        let objects = name == "xargs"
                            && self.stdin_lines == Lines::Objects
                            && rest.first().and_then(Word::lit) == Some("git")
                            && rest.iter().all(whole)
                            && words[..words.len() - rest.len()].iter().all(|w| {
                                // (Its input, not a file's: no `-a FILE`.)
                                let file = |a: &str| match a.strip_prefix("--") {
                                    Some(long) => long.starts_with('a'),
                                    None => a.starts_with('-') && a.contains('a'),
                                };
                                w.lit().is_some_and(|a| !file(a))
                            })
                            && !self.functions.iter().any(|f| f == "git");
                        // (Each name an operand of git's subcommand: `git -C {} show` runs in a
                        // directory named as the commit, maybe another repository.)
                        let objects = objects && {
                            let named: Vec<Word> = match &replace {
                                Some(r) => rest
                                    .iter()
                                    .map(|w| match w {
                                        Word::Lit(a) if a.contains(r.as_str()) => {
                                            Word::Lit(a.replace(r.as_str(), OBJECT_NAME))
                                        }
                                        w => w.clone(),
                                    })
                                    .collect(),
                                None => rest.iter().cloned().chain([Word::Lit(OBJECT_NAME.into())]).collect(),
                            };
                            objects_are_operands(&named)
                        };
                        if objects {
                            self.stdin_lines = Lines::Other;
                            words = match &replace {
                                Some(r) => rest
                                    .into_iter()
                                    .map(|w| match w {
                                        Word::Lit(a) if a.contains(r.as_str()) => {
                                            Word::Lit(a.replace(r.as_str(), OBJECT_NAME))
                                        }
                                        w => w,
                                    })
                                    .collect(),
                                None => rest.into_iter().chain([Word::Lit(OBJECT_NAME.into())]).collect(),
                            };
                            continue;
                        }
                        if name == "xargs" {
                            open_args = true;
                            self.replace_str = xargs_replace_str(&words);
                            args_from = xargs_listing(self.stdin_listing.take(), &words);
                        }
                        words = rest;
                        // A word holding xargs's replace string is completed by input at run
                        // time (`cat {}{}/secret` with `.` as input is `cat ../secret`:
                        // eleventh red team).
                        if let Some(r) = self.replace_str.clone().filter(|r| !r.is_empty()) {
                            for w in words.iter_mut().skip(1) {
                                if let Word::Lit(t) = w {
                                    // (The whole replace string is one input line:
                                    // decided with xargs's other input, `args_from`.)
                                    if t.contains(r.as_str()) && *t != r && !below_a_start(t, &r, &args_from) {
                                        *w = Word::Dyn(t.clone());
                                    }
                                }
                            }
                        }
                        continue;
                    }
                    _ => break,
                }
            }
            break;
        }
        // Commands the program's own options give it to run (`tar -I CMD`,
        // `--checkpoint-action=exec=CMD`): decided as if they ran. Wrappers' are above.
        let runs_own = words.first().and_then(Word::lit).map(program_name).is_some_and(|n| {
            tables::wrapper(n).is_none() && !matches!(n, "env" | "complete" | "compgen" | "trap" | "watch")
        });
        if runs_own {
            for text in option_commands(&words) {
                match text {
                    Ok(t) => {
                        self.nested_run_by(&t, &words, &wrappers);
                    }
                    Err(d) => {
                        unknown.get_or_insert_with(|| format!("runs `{d}`, only known at run time"));
                    }
                }
            }
        }
        // Only the command that finally runs: `cd`, files it writes, names it assigns.
        let append = words.first().and_then(Word::lit).is_some_and(|p| program_name(p) == "tee")
            && words.iter().any(|w| w.lit().is_some_and(|s| s == "-a" || s == "--append"));
        let makes_dirs = words.first().and_then(Word::lit).is_some_and(|p| program_name(p) == "mkdir");
        let copied = super::writes::cp_targets(&words);
        for (target, kind) in copied.iter().flatten() {
            self.write(target.clone(), *kind);
        }
        let targets = super::writes::write_targets(&words);
        // git's pathspecs name what is below them too, where they are directories.
        let git = words.first().and_then(Word::lit).is_some_and(|p| program_name(p) == "git");
        let below = |t: &Word| {
            git && matches!(t, Word::Dyn(d) if targets.iter().any(|p| match p {
                Word::Lit(p) => d.strip_prefix(p.trim_end_matches('/')).is_some_and(|r| r.starts_with('/')),
                Word::Dyn(_) => false,
            }))
        };
        for target in targets.iter().filter(|_| copied.is_none()) {
            let target = target.clone();
            if below(&target) {
                self.write(target, WriteKind::Below);
                continue;
            }
            if makes_dirs {
                self.write(target, WriteKind::MakeDir);
                continue;
            }
            // A patch the call holds (a heredoc, a here-string): the files it names (red team
            // 48: `git apply <<'EOF'` of docs/a.md was asked).
            if target == Word::Dyn(super::writes::PATCHED.into()) {
                let named = match &self.stdin_script {
                    Some(Ok(text)) => super::writes::patched_files(&words, text),
                    _ => None,
                };
                if let Some(files) = named {
                    for f in files {
                        self.write(Word::Lit(f), WriteKind::Tee);
                    }
                    continue;
                }
            }
            self.write(target, if append { WriteKind::Append } else { WriteKind::Tee });
        }
        // Operands xargs adds at run time that the program writes (red team 44: `find . -name
        // '*.toml' | xargs tee` empties Cargo.toml): a write of a path only known at run time.
        if open_args {
            let added = Word::Dyn(ADDED_AT_RUN_TIME.into());
            let with_added: Vec<Word> = words.iter().cloned().chain([added.clone()]).collect();
            // (And what else a name adds: sed's backup `-i'../*'` of each, red team 75.)
            let before = super::writes::write_targets(&words);
            for t in super::writes::write_targets(&with_added) {
                if t == added || !before.contains(&t) {
                    self.write(t, WriteKind::Tee);
                }
            }
        }
        let handed = super::writes::handed_paths(&words).into_iter().chain(super::writes::build_dirs(&words));
        for target in handed.filter(|t| !t.lit().is_some_and(tables::plain_device)) {
            self.write(target, WriteKind::Handed);
        }
        for target in super::writes::made_parents(&words) {
            self.write(target, WriteKind::Parent);
        }
        // What may call a function gate does not see called: a command named at run time,
        // a script sourced, text evaluated or stored to run, a function exported to shells.
        let dyn_words = words.iter().any(|w| w.lit().is_none());
        let calls_unseen = match words.first().and_then(Word::lit).map(program_name) {
            None => !words.is_empty(),
            Some("source" | ".") => true,
            Some("export" | "declare" | "typeset") => {
                words.iter().any(|w| w.lit().is_none_or(|a| a.starts_with('-') && a.contains('f')))
            }
            Some(
                "eval" | "trap" | "mapfile" | "readarray" | "complete" | "compgen" | "bind" | "command" | "builtin"
                | "exec" | "alias" | "xargs" | "env" | "time" | "nohup" | "timeout" | "nice",
            ) => dyn_words,
            Some(_) => false,
        } || !wrappers.is_empty() && dyn_words;
        // (In a function's body it runs only where the function is called: decided there.)
        if calls_unseen && self.defining.is_empty() {
            self.a.hidden_calls = true;
        }
        // A builtin's name that a wrapper runs (`nice declare x=ls`, `xargs -r cd d`, `find
        // -exec cd d \;`, `setsid -f pushd d`) is a program the wrapper executes: a child
        // process, or none at all (there is no `/usr/bin/declare`). The shell's variables,
        // positional parameters and directory stay as they were (red team 51: gate took
        // `nice declare tool=ls; $tool rm m` for `ls rm m`). `command`, `builtin` and `time`
        // run the builtin in the shell itself.
        let in_child = words.first().and_then(Word::lit).is_some_and(|p| BASH_BUILTINS.contains(&program_name(p)))
            && wrappers.iter().any(|w| {
                w.words
                    .first()
                    .and_then(Word::lit)
                    .map(program_name)
                    .is_none_or(|n| !matches!(n, "command" | "builtin" | "time"))
            });
        let kept = in_child
            .then(|| (self.cwd.clone(), self.alt_cwd.clone(), self.bound.clone(), self.params.clone(), self.errexit));
        self.simple_command_effects(words, wrappers, open_args, args_from, unknown);
        if let Some((cwd, alt, bound, params, errexit)) = kept {
            *self.cwd = cwd;
            self.alt_cwd = alt;
            self.bound = bound;
            self.params = params;
            self.errexit = errexit;
        }
    }

    /// The rest of [`Self::unwrap`]: what the command does to the shell's state, and
    /// the command itself.
    fn simple_command_effects(
        &mut self,
        words: Vec<Word>,
        wrappers: Vec<Wrapper>,
        open_args: bool,
        args_from: Vec<Word>,
        mut unknown: Option<String>,
    ) {
        // A directory change applies to what comes after this command, not to the command.
        let mut new_cwd: Option<Cwd> = None;
        let mut moves = false;
        if let Some(Word::Lit(p)) = words.first() {
            if self.defining.iter().any(|f| f == p) {
                unknown = Some(format!(
                    "function `{p}` calls itself: it can recurse without end (the fork bomb `:(){{ :|:& }};:`)"
                ));
            }
            // A function of this script runs: it may change directory (a function named `cd`
            // or `pushd` included) and assign any variable. Its definition may not have run
            // (`if false; then let(){ :; }; fi`, `unset -f let`), so a builtin of that name is
            // decided as well (sixth red team).
            let function = self.functions.iter().any(|f| f == program_name(p));
            if function {
                let (moves, assigns) = self.call_function(program_name(p), &words[1..]);
                if moves {
                    let mut c = self.cwd.clone();
                    c.forget();
                    new_cwd = Some(c);
                }
                match assigns {
                    Some(names) => {
                        for n in names {
                            self.unbind(&n);
                        }
                    }
                    None => self.unbind_all(),
                }
            }
            match program_name(p) {
                "unset" => {
                    // `unset NAME` (or `-f NAME`) may remove a function: its calls run a program.
                    if words[1..].iter().any(|w| w.lit().is_none()) {
                        self.sure.clear();
                    }
                    let names: Vec<&str> = words[1..].iter().filter_map(Word::lit).collect();
                    self.sure.retain(|f| !names.contains(&f.as_str()));
                    // A called function's `unset` removes the caller's local, and the
                    // caller's assignments after are to the name outside (red team 110 D).
                    if words[1..].iter().any(|w| w.lit().is_none()) {
                        self.locals.clear();
                    }
                    self.locals.retain(|(l, _)| !names.contains(&l.as_str()));
                }
                "cd" | "pushd" | "popd" | "dirs" if function => {}
                n @ ("set" | "shift") if function => {
                    self.params = None;
                    if n == "set" {
                        self.errexit = false;
                    }
                }
                "break" | "continue" | "return" | "exit" => self.jumps += 1,
                "cd" | "pushd" | "popd" | "dirs" => {
                    moves = program_name(p) != "dirs";
                    let mut c = self.cwd.clone();
                    match program_name(p) {
                        "cd" => {
                            // `cd "$OLDPWD"` is `cd -` while nothing here assigned OLDPWD
                            // (unquoted, a path with a space would be two words).
                            let args: Vec<Word> = words[1..]
                                .iter()
                                .map(|w| match w {
                                    Word::Dyn(d)
                                        if matches!(d.as_str(), "\"$OLDPWD\"" | "\"${OLDPWD}\"")
                                            && !self.assigned.iter().any(|n| n == "OLDPWD") =>
                                    {
                                        Word::Lit("-".into())
                                    }
                                    w => w.clone(),
                                })
                                .collect();
                            // `cd "$ROOT"` after `ROOT=$(pwd)`: back where that ran.
                            let saved = match args.as_slice() {
                                [Word::Dyn(d)] => d
                                    .strip_prefix('"')
                                    .and_then(|t| t.strip_suffix('"'))
                                    .and_then(referenced_variable)
                                    .and_then(|n| {
                                        let pseudo = format!("{PWD_OF}{n}");
                                        self.bound.iter().rev().find(|(b, _)| *b == pseudo).map(|(_, v)| v.clone())
                                    }),
                                _ => None,
                            };
                            // `cd "$(git rev-parse --show-toplevel)"` where the command starts:
                            // there, where the policy finds the start is the top (red teams 66,
                            // 67). (Printing nothing, git leaves `cd ""`, which stays.)
                            // (And `cd -- "$(...)"`, red team 69.)
                            let top = match args.as_slice() {
                                [Word::Dyn(_)] | [Word::Lit(_), Word::Dyn(_)] => {
                                    args.len() == 1 || args[0].lit() == Some("--")
                                }
                                _ => false,
                            } && args.last().is_some_and(|d| self.git_top_here(&d.display()));
                            match saved.as_deref() {
                                Some([Word::Lit(dir)]) => c.move_to(Some(dir.clone())),
                                // (git's top without a fallback, or `cd ""`, which stays: the
                                // same only where the command is still at the start.)
                                Some([Word::Lit(dir), Word::Dyn(m)]) if m == NO_TOP && c.0.as_ref() == Some(dir) => {
                                    self.a.at_git_top = true
                                }
                                _ if top => self.a.at_git_top = true,
                                _ => c.cd(&args),
                            }
                        }
                        // `pushd "$(git rev-parse --show-toplevel)"` as its `cd` (red team 71); git
                        // printing nothing, `pushd ""` fails and moves nothing.
                        "pushd" if matches!(&words[1..], [d @ Word::Dyn(_)] if self.git_top_here(&d.display())) => {
                            self.a.at_git_top = true;
                            c.pushd(&[Word::Lit(".".into())]);
                        }
                        "pushd" => c.pushd(&words[1..]),
                        "popd" => c.popd(&words[1..]),
                        _ => c.dirs(&words[1..]),
                    }
                    new_cwd = Some(c);
                }
                n @ ("set" | "shift") => {
                    let params0 = self.params.take();
                    // `shift [N]` of known parameters, where it surely runs: bash refuses a
                    // count beyond them and shifts nothing.
                    if n == "shift" && (self.unsure, self.conditional) == self.params_at {
                        let count = match words.get(1..) {
                            Some([]) => Some(1),
                            Some([Word::Lit(k)]) => k.parse::<usize>().ok(),
                            _ => None,
                        };
                        if let (Some(k), Some(p)) = (count, params0.clone()) {
                            self.params =
                                p.iter().all(one_param_word).then(|| if k <= p.len() { p[k..].to_vec() } else { p });
                        }
                    }
                    if n == "set" {
                        // Options as bash reads them, the last one winning; `--` or `-` and the
                        // first operand end them (`set -- -e` sets `$1`: fifth red team).
                        // Options that change how later text is read or run are not
                        // modelled (eleventh red team: `set -o history -H` rewrites later
                        // lines from earlier text; `set -o posix` turns on aliases and, with
                        // `-a`, exports POSIXLY_CORRECT, which changes every GNU program's
                        // options; `-k` takes assignments anywhere; `-P` changes `cd`).
                        let changed = |what: &str, unknown: &mut Option<String>| {
                            unknown.get_or_insert_with(|| format!("`set {what}` changes how later commands are read"));
                        };
                        let mut o_on: Option<bool> = None;
                        let mut invalid = false;
                        let errexit0 = self.errexit;
                        // Where the operands start (after `--`, `-`, or at the first word that
                        // is no option): they are the new `$1`...
                        let mut operands_at: Option<usize> = None;
                        for (k, w) in words.iter().enumerate().skip(1) {
                            let Some(a) = w.lit() else {
                                // (It may be an operand: the parameters are not known.)
                                operands_at = Some(k);
                                self.errexit = false;
                                unknown.get_or_insert_with(|| {
                                    "`set` with a word only known at run time may change how later commands are read".into()
                                });
                                break;
                            };
                            if let Some(on) = o_on.take() {
                                if a == "errexit" {
                                    self.errexit = on && ERREXIT_HOLDS;
                                }
                                if a == "allexport" {
                                    self.allexport = on;
                                }
                                if !tables::harmless_set_option(a, on) {
                                    changed(&format!("-o {a}"), &mut unknown);
                                }
                                continue;
                            }
                            // (`set -` without words after it leaves the parameters as
                            // they are, where `set --` empties them: red team 111 C.)
                            if a == "--" || a == "-" && k + 1 < words.len() {
                                operands_at = Some(k + 1);
                                break;
                            }
                            if a == "-" {
                                break;
                            }
                            // A lone `+` is skipped: options go on after it (red team 48:
                            // `set + ls rm` made `$1` ls, not `+`).
                            if a == "+" {
                                continue;
                            }
                            if !(a.starts_with('-') || a.starts_with('+')) || a.len() < 2 {
                                operands_at = Some(k);
                                break;
                            }
                            let on = a.starts_with('-');
                            for c in a[1..].chars() {
                                match c {
                                    'e' => self.errexit = on && ERREXIT_HOLDS,
                                    'a' => self.allexport = on,
                                    'o' => o_on = Some(on),
                                    'H' | 'k' | 'P' if on => changed(&format!("-{c}"), &mut unknown),
                                    // (bash takes `-r`, the restricted shell, though `set
                                    // --help` leaves it out: red team 90.)
                                    'r' if on => {
                                        self.restricted = true;
                                        changed("-r", &mut unknown);
                                    }
                                    // A letter `set` does not take, or a long option (`--help`):
                                    // it fails and changes nothing (red team 47: `set -L a.md`
                                    // left `$1` as it was).
                                    c if !"abefhkmnptuvxBCEHPT".contains(c) => invalid = true,
                                    _ => {}
                                }
                            }
                            invalid |= a.starts_with("--");
                        }
                        // `set -- WORDS` of literal words, where it surely runs: `$1`... and
                        // `"$@"` are those words.
                        match operands_at {
                            _ if invalid => {
                                // (Nor any option before it: `set -e -L` leaves errexit off.)
                                self.params = None;
                                self.errexit = errexit0;
                            }
                            Some(k)
                                if self.unsure == 0
                                    && self.conditional == 0
                                    && words[k..].iter().all(glob_or_literal) =>
                            {
                                self.params = Some(words[k..].to_vec());
                            }
                            Some(_) => {}
                            // No operand and no `--`: the parameters stay.
                            None => self.params = params0,
                        }
                    }
                }
                "let" => {
                    for w in &words[1..] {
                        match w {
                            Word::Lit(s) => {
                                let mut u = None;
                                self.arithmetic_in_word(s, &mut u);
                                if u.is_some() {
                                    unknown = u;
                                }
                            }
                            // Arithmetic only known at run time, or a glob bash may turn into
                            // other text (seventh red team: `let z=x*1`, `let "$(cat f)"`).
                            Word::Dyn(d) => {
                                self.values_evaluated(d);
                                unknown =
                                    Some(format!("`let {d}`: arithmetic only known at run time, which can run code"))
                            }
                        }
                    }
                }
                _ => {}
            }
            if let Some(reason) = tables::exec_option(&words) {
                unknown.get_or_insert(reason);
            }
            for text in tables::option_command_texts(&words) {
                self.nested_run_by(&text, &words, &wrappers);
            }
            if let Some(reason) = grammar::unmodelled(&words) {
                unknown.get_or_insert(reason);
            }
            // `declare -a a='($(rm y))'`: bash reads the value again as `a=(...)`, whose items
            // it expands: decided as that assignment. So does `declare a='(...)'` where `a` is
            // an array already (red team 53: `a=(); declare a='($(rm m))'`): any such value
            // of declare, typeset or local is decided so, and a run-time value of a name that
            // may be an array is not modelled.
            let builtin = words.first().and_then(Word::lit).map(program_name);
            self.note_arrays(&words);
            let declares = matches!(builtin, Some("declare" | "typeset" | "local"));
            let array_declared = tables::declared_array(&words[1..].iter().collect::<Vec<_>>());
            if declares && !array_declared {
                if let Some(d) = words[1..].iter().find_map(|w| match w {
                    Word::Dyn(d) => d
                        .split_once('=')
                        .filter(|(n, v)| !v.starts_with('(') && self.may_be_array(n.trim_end_matches('+')))
                        .map(|_| d),
                    Word::Lit(_) => None,
                }) {
                    unknown.get_or_insert(format!(
                        "`{d}`: the name may be an array, so bash reads a value only known at run time again as an array assignment, which can run code"
                    ));
                }
            }
            if (declares || array_declared)
                && matches!(builtin, Some("declare" | "typeset" | "local" | "export" | "readonly"))
            {
                let compound: Vec<String> = words[1..]
                    .iter()
                    .filter_map(Word::lit)
                    .filter(|a| !a.starts_with(['-', '+']))
                    .filter_map(|a| a.split_once('='))
                    .filter(|(n, v)| {
                        let v = v.trim();
                        v.starts_with('(') && v.ends_with(')') && !n.is_empty()
                    })
                    .map(|(n, v)| format!("{}={}", n.trim_end_matches('+'), v.trim()))
                    .collect();
                let assoc = words[1..].iter().filter_map(Word::lit).any(|a| a.starts_with('-') && a.contains('A'));
                for text in compound {
                    if assoc {
                        // Keys are words: only the substitutions in the text run.
                        if text.contains("$(") || text.contains('`') {
                            self.substitutions_in(&text);
                        }
                    } else {
                        self.nested_run_by(&text, &words, &wrappers);
                    }
                }
            }
            // `shopt -s dotglob`: every glob read or written is also decided as its dotted
            // spellings (`dotted_globs`), so that a denied dot file is denied, not only asked.
            if words.first().and_then(Word::lit).map(program_name) == Some("shopt")
                && words[1..].iter().any(|w| w.lit().is_none_or(|a| a == "dotglob"))
            {
                self.a.dotglob = true;
            }
            // `shopt -s failglob` however spelled (`"fail${e}glob"`, `$'\x66ailglob'`: red team
            // 103): from here a glob that matches nothing ends the line.
            if words.first().and_then(Word::lit).map(program_name) == Some("shopt")
                && words[1..].iter().any(|w| w.lit().is_none_or(|a| a == "failglob"))
            {
                self.failglob = true;
            }
            if let Some(reason) = tables::builtin_state_change(&words) {
                unknown.get_or_insert(reason);
                // `hash -p PATH NAME`: NAME runs PATH from then on, decided as if it ran (red
                // team 40: `hash -p /bin/rm ls; ls x`).
                if words.first().and_then(Word::lit).map(program_name) == Some("hash") {
                    let mut programs: Vec<String> = Vec::new();
                    let mut k = 1;
                    // (bash's getopt `lp:dt`: `-p` anywhere in a bundle takes the rest, or the
                    // next word: red team 42's `hash -dp /bin/rm ls`.)
                    while let Some(Word::Lit(a)) = words.get(k) {
                        if a == "--" || !a.starts_with('-') {
                            break;
                        }
                        if let Some((_, v)) = a[1..].split_once('p') {
                            if v.is_empty() {
                                programs.extend(words.get(k + 1).and_then(Word::lit).map(str::to_string));
                                k += 1;
                            } else {
                                programs.push(v.to_string());
                            }
                        }
                        k += 1;
                    }
                    for p in programs {
                        self.nested(&super::shell_word(&p), None);
                    }
                }
                // A subscript is arithmetic, and bash expands `$(...)` in it even inside quotes:
                // what it runs is decided too.
                let subscripts: Vec<String> =
                    words[1..].iter().filter_map(Word::lit).filter(|a| a.contains('[')).map(str::to_string).collect();
                for s in subscripts {
                    self.substitutions_in(&s);
                }
                // And the values of the variables a subscript reads, as arithmetic does
                // (`x='a[$(cmd)]'; test -v a[x]`, `wait -p a[x]`).
                let keys: Vec<String> = words[1..]
                    .iter()
                    .filter_map(|w| match w {
                        Word::Lit(t) | Word::Dyn(t) => t.split_once('[').map(|(_, k)| k.to_string()),
                    })
                    .collect();
                for k in keys {
                    self.values_evaluated(&k);
                }
            }
        }
        self.integer_effects(&words, &mut unknown);
        self.builtin_assigns(&words);
        let local_outside = words.first().and_then(Word::lit) == Some("local") && self.defining.is_empty();
        // (Only a name the builtin assigns once: bash applies its words left to right, so
        // `declare -a a=(ls) a=(rm)` leaves `rm`, `a+=(rm)` appends, `a[1]=x` sets an
        // element: red team 57 found the first value kept. A run-time word may be any name.)
        let assigned_names: Vec<&str> = words[1..]
            .iter()
            .map(|w| match w {
                Word::Lit(a) if !a.starts_with(['-', '+']) => a.split(['=', '[', '+']).next().unwrap_or(a),
                Word::Lit(_) => "",
                // (`f=(src/*.rs)`: a value only known at run time, to a known name.)
                Word::Dyn(d) => {
                    d.split(['=', '[', '+']).next().filter(|n| d.len() > n.len() && is_identifier(n)).unwrap_or("*")
                }
            })
            .filter(|n| !n.is_empty())
            .collect();
        let once = |n: &str| !assigned_names.contains(&"*") && assigned_names.iter().filter(|a| **a == n).count() == 1;
        for (n, v) in std::mem::take(&mut self.declared_arrays) {
            if !local_outside && !tables::is_dangerous_variable(&n) && once(&n) {
                self.bind(&n, v);
            }
        }
        self.script_effects(&words, &wrappers, &mut unknown);
        let aliases = tables::aliases(&words);
        let mut lands = new_cwd.as_ref().filter(|_| moves).map(|c| c.0.clone());
        // In an action that runs as the shell exits, a directory change takes nothing after
        // the action anywhere (`trap 'cd - >/dev/null' EXIT`): decided as staying where it
        // was; the commands after it in the action are decided where it lands.
        if self.exiting && lands.is_some() && self.cwd.0.is_some() {
            lands = Some(self.cwd.0.clone());
        }
        // A call of a function whose definition certainly ran, by its plain name, runs its body
        // (decided where it was defined, and again here if that was elsewhere), not a program
        // of that name. A builtin's name is still decided as the builtin (POSIX mode runs a
        // special builtin before a function).
        let body_runs = unknown.is_none()
            && wrappers.is_empty()
            && words.first().and_then(Word::lit).is_some_and(|p| {
                self.sure.iter().any(|f| f == p) && !BASH_BUILTINS.contains(&p) && !self.defining.iter().any(|d| d == p)
            });
        if !body_runs {
            self.push(SimpleCommand { words, wrappers, aliases, open_args, args_from, unknown, cwd: None, lands });
        }
        if let Some(c) = new_cwd {
            let moved = *self.cwd != c;
            *self.cwd = c;
            if moved {
                // An action walked again does not walk the actions again when it moves.
                let traps = std::mem::take(&mut self.traps);
                for action in &traps {
                    self.walk_again(|w| w.nested(action, None));
                }
                self.traps = traps;
            }
        }
    }

    /// Integer attributes given (`declare -i N`, `local -i`, `typeset -i`), values assigned to
    /// integer variables by those builtins, and run-time text read into one (`read OPTIND`,
    /// `printf -v`, `mapfile`, `getopts`, `wait -p`): bash evaluates it as arithmetic.
    fn integer_effects(&mut self, words: &[Word], unknown: &mut Option<String>) {
        let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return };
        match name {
            "declare" | "typeset" | "local" | "export" | "readonly" => {
                let flags = |on: &str| {
                    words[1..]
                        .iter()
                        .filter_map(Word::lit)
                        .any(|a| a.strip_prefix('-').is_some_and(|f| !f.starts_with('-') && f.contains(on)))
                };
                let integer = flags("i");
                for w in &words[1..] {
                    let Some(a) = w.lit() else { continue };
                    if a.starts_with(['-', '+']) {
                        continue;
                    }
                    let (n, value) = match a.split_once('=') {
                        Some((n, v)) => (n.trim_end_matches('+'), Some(v)),
                        None => (a, None),
                    };
                    // (`declare [-i] n+=0` of an integer n evaluates n's value too.)
                    let appends = a.split_once('=').is_some_and(|(n, _)| n.ends_with('+'));
                    if appends && (integer || self.is_integer(n)) && !self.is_number(n) {
                        unknown.get_or_insert(appends_to_integer(n));
                    }
                    if integer {
                        self.add_integers(vec![n.split('[').next().unwrap_or(n).to_string()]);
                    } else if let Some(v) = value.filter(|_| self.is_integer(n)) {
                        if let Some(u) = self.integer_value(n, &Word::Lit(v.to_string()), v) {
                            unknown.get_or_insert(u);
                        }
                    }
                }
            }
            "read" | "printf" | "mapfile" | "readarray" | "getopts" | "wait" => {
                let own_index = getopts_keeps_its_index(words);
                if let Some(n) = tables::input_assigned(words)
                    .into_iter()
                    .find(|n| self.is_integer(n) && !(own_index && n == "OPTIND"))
                {
                    // What would be evaluated, where gate can see it, is decided as if it ran.
                    let mut texts: Vec<String> = words[1..].iter().filter_map(Word::lit).map(str::to_string).collect();
                    if let Some(Ok(t)) = &self.stdin_script {
                        texts.push(t.clone());
                    }
                    for t in texts.iter().filter(|t| t.contains("$(") || t.contains('`')) {
                        self.substitutions_in(t);
                    }
                    unknown.get_or_insert_with(|| {
                        format!(
                            "`{name}` puts text known only at run time in {n}, which has the integer \
                             attribute: bash evaluates it as arithmetic, which can run code"
                        )
                    });
                }
            }
            _ => {}
        }
    }

    /// `complete`/`compgen`: a command (`-C`) or function (`-F`) they run for completions is
    /// decided as if it ran; a word list (`-W`) is expanded, substitutions included.
    fn completion(&mut self, words: &[Word], wrappers: &[Wrapper], unknown: &mut Option<String>) {
        let Some(g) = grammar::grammar("complete") else { return };
        let Ok(p) = grammar::parse(g, &words[1..]) else { return };
        for f in &p.opts {
            let value = f.value.clone();
            match (f.opt.name, value) {
                ("-C", Some(Word::Lit(text))) => {
                    self.nested_run_by(&text, words, wrappers);
                }
                ("-F", Some(Word::Lit(func))) if self.functions.contains(&func) => {}
                ("-F", Some(v)) => {
                    unknown.get_or_insert_with(|| format!("`-F {}` runs a function gate has not seen", v.display()));
                }
                ("-W", Some(Word::Lit(list))) if list.contains(['$', '`']) => self.substitutions_in(&list),
                ("-C" | "-W", Some(Word::Dyn(d))) => {
                    unknown.get_or_insert_with(|| format!("`{} {d}` is only known at run time", f.opt.name));
                }
                _ => {}
            }
        }
    }

    /// git writes its traces (`GIT_TRACE`, `GIT_TRACE2_EVENT`, `GIT_TRACE_PACKET`, ...) to a
    /// file when the value is an absolute path (appending): a write of it (red team 40:
    /// `GIT_TRACE=$PWD/.env git status`). A value only known at run time may be one.
    fn trace_file(&mut self, name: &str, value: &Word) {
        if !(name.starts_with("GIT_TRACE") || name == "GIT_CURL_VERBOSE") {
            return;
        }
        let path = match value {
            Word::Lit(p) if p.starts_with('/') || p.starts_with('~') => value.clone(),
            Word::Lit(_) => return,
            Word::Dyn(_) => value.clone(),
        };
        self.a.writes.push(Write { path, kind: WriteKind::Append, cwd: self.cwd.0.clone() });
    }

    /// `bind -x KEYSEQ:COMMAND`: the command a key runs is decided as if it ran. KEYSEQ is
    /// either double-quoted (`"\C-a": cmd`, backslash escapes inside) or runs to the first
    /// `:`; what follows, blanks and one `:` skipped, is the command. Anything else the
    /// grammar cannot read leaves the command unmodelled.
    fn key_bindings(&mut self, words: &[Word], wrappers: &[Wrapper], unknown: &mut Option<String>) {
        let Some(g) = grammar::grammar("bind") else { return };
        let Ok(p) = grammar::parse(g, &words[1..]) else {
            unknown.get_or_insert_with(|| "`bind`: a word not in its option table".into());
            return;
        };
        for f in p.opts.iter().filter(|f| f.opt.name == "-x") {
            match &f.value {
                Some(Word::Lit(spec)) => match bound_command(spec) {
                    Some(text) => {
                        // bash strips quotes around the whole command: decide both readings.
                        let inner = text.len() > 1 && text.starts_with(['"', '\'']) && text.ends_with(&text[..1]);
                        if inner {
                            self.nested_run_by(&text[1..text.len() - 1], words, wrappers);
                        }
                        self.nested_run_by(text, words, wrappers);
                    }
                    None => {
                        unknown.get_or_insert_with(|| format!("`bind -x {spec}`: no `KEYSEQ:COMMAND` gate can read"));
                    }
                },
                Some(Word::Dyn(d)) => {
                    unknown.get_or_insert_with(|| format!("`bind -x {d}` is only known at run time"));
                }
                None => {}
            }
        }
    }

    /// Whether `word` is `"$(git rev-parse --show-toplevel)"` (or with `2>/dev/null`, or
    /// falling back to `pwd`) where the command starts, git and pwd no functions and no `GIT_`
    /// variable assigned: the start, where the policy finds `.git` there
    /// ([`Analysis::at_git_top`]). (Printing nothing, git leaves `""`, which `cd` and `git -C`
    /// take for where they are.)
    fn git_top_here(&self, word: &str) -> bool {
        word.strip_prefix('"')
            .and_then(|w| w.strip_suffix('"'))
            .and_then(|w| self.git_top_prefix(w, false))
            .is_some_and(str::is_empty)
    }

    /// The rest of `text` after a `$(git rev-parse --show-toplevel)` it starts with (the
    /// forms of [`Self::git_top_here`]), where that is the start. As the start of a longer
    /// word (`prefix`) only where it falls back to `pwd`: git may print nothing though the
    /// start holds `.git` (a repository owned by another user, `GIT_DIR` in the agent's
    /// environment), and `"$(...)/etc/passwd"` is then `/etc/passwd`.
    fn git_top_prefix<'t>(&self, text: &'t str, prefix: bool) -> Option<&'t str> {
        const TOPS: &[(&str, bool)] = &[
            ("$(git rev-parse --show-toplevel)", false),
            ("$(git rev-parse --show-toplevel 2>/dev/null)", false),
            ("$(git rev-parse --show-toplevel 2>/dev/null || pwd)", true),
            ("$(git rev-parse --show-toplevel || pwd)", true),
        ];
        let here = self.git_at_start() && !self.functions.iter().any(|f| f == "git" || f == "pwd");
        TOPS.iter()
            .filter(|(_, falls_back)| *falls_back || !prefix)
            .find_map(|(t, _)| text.strip_prefix(t))
            .filter(|_| here)
    }

    /// Whether git runs where the command starts, with no `GIT_` variable this text assigned
    /// (`GIT_DIR`, `GIT_WORK_TREE`) pointing it elsewhere: its top is then the start where the
    /// policy finds `.git` there ([`Analysis::at_git_top`]).
    fn git_at_start(&self) -> bool {
        self.cwd.0.as_deref() == Some("") && !self.assigned.iter().any(|n| n.starts_with("GIT_"))
    }

    /// git's own code paths: `-c alias.NAME=...` (and `git config alias.NAME ...`) define
    /// commands; `-c core.pager=...` and the other keys that name a program run it. A `!`
    /// alias of the subcommand runs as a shell script with the remaining words; any other
    /// alias of it is git with its words in place of the subcommand.
    fn git_code(&mut self, words: &[Word], wrappers: &[Wrapper], unknown: &mut Option<String>) -> GitStep {
        // An `ext::` URL is a command git runs to reach the remote, where `protocol.allow`
        // lets it (red team 47: `git -c protocol.ext.allow=always ls-remote 'ext::rm m'`):
        // decided as if it ran, allowed or not.
        for w in &words[1..] {
            if let Some(cmd) =
                w.lit().and_then(|a| a.get(..5).filter(|p| p.eq_ignore_ascii_case("ext::")).map(|_| &a[5..]))
            {
                let cmd = cmd.replace("% ", " ");
                self.nested_run_by(&cmd, words, wrappers);
            }
        }
        let mut i = 1;
        let mut configs: Vec<String> = Vec::new();
        while let Some(w) = words.get(i) {
            let Word::Lit(a) = w else {
                return GitStep::Plain;
            };
            if a == "-c" {
                match words.get(i + 1) {
                    Some(Word::Lit(v)) => configs.push(v.clone()),
                    Some(Word::Dyn(d)) => {
                        unknown
                            .get_or_insert_with(|| format!("`git -c {d}` sets configuration only known at run time"));
                    }
                    None => {}
                }
                i += 2;
            } else if let Some(v) = a.strip_prefix("-c").filter(|v| !v.is_empty() && !a.starts_with("--")) {
                configs.push(v.to_string());
                i += 1;
            } else if a == "--config-env" || a.starts_with("--config-env=") {
                // `--config-env=KEY=VAR`: KEY takes VAR's value; known, it is decided as `-c`.
                let spec = match a.strip_prefix("--config-env=") {
                    Some(v) => Some(v.to_string()),
                    None => words.get(i + 1).and_then(Word::lit).map(str::to_string),
                };
                if let Some((key, var)) = spec.as_deref().and_then(|s| s.rsplit_once('=')) {
                    let value = self
                        .command_env
                        .iter()
                        .chain(self.bound.iter())
                        .rev()
                        .find(|(b, _)| b == var)
                        .map(|(_, v)| v.clone());
                    if let Some([Word::Lit(v)]) = value.as_deref() {
                        configs.push(format!("{key}={v}"));
                    }
                }
                i += if a == "--config-env" { 2 } else { 1 };
            } else if tables::git_global_takes_value(a) {
                i += 2;
            } else if a.starts_with('-') {
                i += 1;
            } else {
                break;
            }
        }
        let sub = words.get(i).and_then(Word::lit);
        // Commands given to the subcommand to run (`rebase -x CMD`, `bisect run CMD`, ...).
        for text in tables::git_commands(sub.unwrap_or(""), words.get(i + 1..).unwrap_or_default()) {
            match text {
                Ok(t) => {
                    self.nested_run_by(&t, words, wrappers);
                }
                Err(d) => {
                    unknown.get_or_insert_with(|| {
                        format!("`git {}` runs `{d}`, only known at run time", sub.unwrap_or(""))
                    });
                }
            }
        }
        if configs.is_empty() && sub != Some("config") {
            return GitStep::Plain;
        }
        // `git config [set] [--global ...] KEY VALUE`: the value is stored to run later.
        if sub == Some("config") {
            // Read as git's own option parser reads them: an option's value is neither KEY
            // nor VALUE (`git config -f F alias.x '!rm x'`).
            match grammar::git_config(&words[i + 1..]) {
                Some(Ok(p)) => {
                    let rest = match p.operands.first().and_then(Word::lit) {
                        Some("set") => &p.operands[1..],
                        _ => &p.operands[..],
                    };
                    match rest {
                        [Word::Lit(key), Word::Lit(value), ..] => configs.push(format!("{key}={value}")),
                        [Word::Dyn(d), ..] | [_, Word::Dyn(d), ..] => {
                            unknown.get_or_insert_with(|| format!("`git config` stores `{d}`, only known at run time"));
                        }
                        _ => {}
                    }
                }
                Some(Err(e)) => {
                    unknown.get_or_insert(e);
                }
                None => {}
            }
        }
        // Only `git config` stores: a stored alias runs whenever its name is used later.
        let stored = if sub == Some("config") { configs.len().saturating_sub(1) } else { usize::MAX };
        let mut step = GitStep::Plain;
        for (k, c) in configs.into_iter().enumerate() {
            let Some((key, value)) = c.split_once('=') else { continue };
            let lower = key.to_ascii_lowercase();
            if let Some(name) = lower.strip_prefix("alias.") {
                // (git never takes an alias of its own command's name: `git -c alias.rm=log rm
                // x` is `git rm x`, red team 77.)
                let used = sub.is_some_and(|s| s.eq_ignore_ascii_case(name) && !super::git_tables::is_git_command(s));
                if let Some(script) = value.strip_prefix('!') {
                    // git runs `sh -c 'SCRIPT "$@"' SCRIPT ARGS...`.
                    let mut u = posix_sh_note("git's `!` alias", script);
                    self.keep_unknown(words, wrappers, &mut u);
                    let mut text = script.to_string();
                    if used {
                        for w in &words[i + 1..] {
                            text.push(' ');
                            text.push_str(&tables::as_shell_text(w));
                        }
                    }
                    // At the top of the work tree: the start, where the command starts there
                    // and git is given no other directory (only `-c` settings before the
                    // subcommand), as the policy checks ([`Analysis::at_git_top`]; red team
                    // 71: `git -c alias.s='!git status' s` was asked).
                    let mut only_settings = true;
                    let mut k = 1;
                    while k < i {
                        match words[k].lit() {
                            Some("-c") => k += 2,
                            Some(a) if a.starts_with("-c") && !a.starts_with("--") => k += 1,
                            _ => {
                                only_settings = false;
                                break;
                            }
                        }
                    }
                    let here = used && only_settings && self.git_at_start();
                    self.a.at_git_top |= here;
                    self.nested_run_at_root(&text, words, wrappers, here);
                    if used {
                        step = GitStep::Ran;
                    }
                } else if used {
                    let mut expanded = vec![words[0].clone()];
                    // The alias's own `-c alias.NAME=...` has done its work: the rest of the
                    // global options stay (`git -c alias.s=status s` is `git status`).
                    let mut k = 1;
                    while k < i {
                        let alias_def = |w: Option<&Word>| {
                            w.and_then(Word::lit).is_some_and(|v| {
                                v.split_once('=')
                                    .is_some_and(|(key, _)| key.eq_ignore_ascii_case(&format!("alias.{name}")))
                            })
                        };
                        match words[k].lit() {
                            Some("-c") if alias_def(words.get(k + 1)) => k += 2,
                            Some(a)
                                if a.starts_with("-c")
                                    && !a.starts_with("--")
                                    && alias_def(Some(&Word::Lit(a[2..].to_string()))) =>
                            {
                                k += 1
                            }
                            _ => {
                                expanded.push(words[k].clone());
                                k += 1;
                            }
                        }
                    }
                    // (Split as git splits it, quotes and backslashes removed: red team 76's
                    // `-c alias.x='grep "-Orm" ref'` runs `git grep -Orm ref`.)
                    let Some(split) = git_split_cmdline(value) else {
                        unknown.get_or_insert_with(|| format!("git cannot split the alias `{name}`: `{value}`"));
                        continue;
                    };
                    expanded.extend(split.into_iter().map(Word::Lit));
                    expanded.extend(words[i + 1..].iter().cloned());
                    step = GitStep::Expanded(expanded);
                } else if k == stored {
                    // `git config alias.x 'reset --hard'`: later `git x` runs git with these words.
                    match git_split_cmdline(value) {
                        Some(split) => {
                            let text: Vec<String> = split.iter().map(|w| super::quote(w)).collect();
                            self.nested_run_by(&format!("git {}", text.join(" ")), words, wrappers);
                        }
                        None => {
                            unknown.get_or_insert_with(|| format!("git cannot split the alias `{name}`: `{value}`"));
                        }
                    }
                }
            } else if tables::git_key_runs_code(&lower) && !tables::git_display_config(&c) {
                let script = value.strip_prefix('!').unwrap_or(value);
                self.nested_run_by(script, words, wrappers);
                unknown.get_or_insert_with(|| format!("git's `{key}` runs `{value}` when git wants it"));
            }
        }
        step
    }

    /// The code a command's literal environment assignments make programs run, decided as
    /// if it ran (`GIT_EXTERNAL_DIFF='rm x' git diff`, `EDITOR=... git commit`,
    /// `GIT_CONFIG_KEY_0=diff.external GIT_CONFIG_VALUE_0=...`): the assignments before it, and
    /// those `export`/`declare` make (exported, they reach every later command).
    fn env_assignments_code(&mut self, sc: &ast::SimpleCommand) {
        use ast::CommandPrefixOrSuffixItem as I;
        let exporting = sc
            .word_or_name
            .as_ref()
            .is_some_and(|w| matches!(w.value.as_str(), "export" | "declare" | "typeset" | "local" | "readonly"));
        let prefix = sc.prefix.iter().flat_map(|p| p.0.iter());
        let suffix = sc.suffix.iter().flat_map(|p| p.0.iter()).filter(|_| exporting);
        let mut env: Vec<(String, String)> = Vec::new();
        for it in prefix.chain(suffix) {
            let I::AssignmentWord(a, _) = it else { continue };
            let (ast::AssignmentName::VariableName(name), ast::AssignmentValue::Scalar(v)) = (&a.name, &a.value) else {
                continue;
            };
            // Only a value with no expansion: resolving it walks nothing a second time.
            if v.value.contains(['$', '`', '<', '>']) {
                continue;
            }
            if let Word::Lit(value) = self.word(&v.value).word {
                env.push((name.clone(), value));
            }
        }
        self.env_code(&env, &[]);
    }

    fn env_code(&mut self, env: &[(String, String)], wrappers: &[Wrapper]) {
        if env.is_empty() {
            return;
        }
        for text in tables::env_code(env) {
            self.nested_with(&text, wrappers.to_vec());
        }
    }

    /// The arrays a builtin makes: `declare -a`/`-A` names (any, with an option only known at
    /// run time), `read -a`'s and `mapfile`'s.
    fn note_arrays(&mut self, words: &[Word]) {
        let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return };
        let args = &words[1..];
        let flag = |c: char| {
            args.iter().filter_map(Word::lit).any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains(c))
        };
        let names: Vec<String> = match name {
            "declare" | "typeset" | "local" if tables::declared_array(&args.iter().collect::<Vec<_>>()) => {
                if args.iter().any(|w| matches!(w, Word::Dyn(d) if !d.contains('='))) {
                    vec!["*".to_string()]
                } else {
                    args.iter()
                        .filter_map(Word::lit)
                        .filter(|a| !a.starts_with(['-', '+']))
                        .map(|a| a.split(['=', '[', '+']).next().unwrap_or(a).to_string())
                        .collect()
                }
            }
            "read" if flag('a') => tables::input_names(words).0,
            "mapfile" | "readarray" => tables::input_names(words).0,
            _ => return,
        };
        self.add_arrays(names);
    }

    /// Variables a builtin assigns or unsets: their values are no longer known.
    fn builtin_assigns(&mut self, words: &[Word]) {
        let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return };
        let args = &words[1..];
        let mut names: Vec<String> = Vec::new();
        // A run-time word that may be a name or an option assigns who knows what.
        let mut any = args.iter().any(|w| matches!(w, Word::Dyn(_)));
        let mut assoc: Vec<String> = Vec::new();
        let mut numbers: Vec<String> = Vec::new();
        // `declare x=rm`, `export f=src/a.rs`: the value is certain after it.
        let mut values: Vec<(String, Word)> = Vec::new();
        let mut plains: Vec<String> = Vec::new();
        // `export ROOT=$PWD`: the directory it ran in, as `ROOT=$PWD` alone keeps it.
        let mut here: Vec<String> = Vec::new();
        let declared_here = std::mem::take(&mut self.declared_here);
        let attributed0 = self.attributed.len();
        // `local f="$1"` in a function's body: f is the body's own from here (red team 69:
        // a loop over `f` calling it lost its `$f`).
        let global = args.iter().filter_map(Word::lit).any(|a| a.starts_with('-') && a.contains('g'));
        // (`declare -g x=...` there sets the caller's x: none of its names is the body's own
        // any more, which forgets more, never less.)
        // (Only where it declares for certain: no redirection that may fail and skip it, and
        // only options that give attributes; `declare -F t`, `local -p t`, `typeset --help t`,
        // `local -Z t` make nothing local: red team 111 A.)
        let declares = !self.redirected
            && args
                .iter()
                .filter_map(Word::lit)
                .filter(|a| a.starts_with(['-', '+']))
                .all(|a| a.len() > 1 && a[1..].chars().all(|c| "aAilurxtcg".contains(c)));
        if matches!(name, "local" | "declare" | "typeset") && !self.defining.is_empty() {
            for w in args {
                let text = match w {
                    Word::Lit(a) if !a.starts_with(['-', '+']) => a.as_str(),
                    Word::Dyn(d) => d.trim_start_matches('"'),
                    Word::Lit(_) => continue,
                };
                let n = text.split(['=', '[', '+']).next().unwrap_or_default();
                if !is_identifier(n) {
                    continue;
                }
                // (Only a `local` that surely runs, at the body's own level: one in a branch, a
                // loop, a pipeline stage or a subshell may not make the name the body's; red
                // team 110 D's `f(){ [ -f x ] && local o; o=.env; }`.)
                let sure = (self.unsure, self.conditional) == self.params_at && declares;
                match global {
                    false if sure => self.locals.push((n.to_string(), self.assigned.len())),
                    false => {}
                    true => self.locals.retain(|(l, _)| l != n),
                }
            }
        }
        match name {
            "declare" | "typeset" | "local" | "export" | "readonly" | "unset" => {
                // `x=$y`: only x is assigned (where bash reads it as an assignment: not
                // `command declare x=$v`, red team 113 A).
                // (`local g="$f"` of a glob's name, `"g=src/*.rs"`, too.)
                any = any && self.loose_assignments
                    || args.iter().any(|w| match w {
                        Word::Dyn(d) => {
                            !d.split_once('=').is_some_and(|(n, _)| is_identifier(n))
                                && tables::glob_name_assignment(d).is_none()
                        }
                        Word::Lit(_) => false,
                    });
                // Plain values only: no attribute that changes them (`-i`, `-l`, `-u`, `-a`,
                // `-A`, `-n`), and `local` only inside a function (elsewhere it fails).
                // Only options known to leave the value as given (`-x`, `-g`, `-r`, `-t`;
                // none for `export` and `readonly`): an option bash refuses assigns nothing,
                // and `declare -c` capitalises.
                let allowed = if matches!(name, "declare" | "typeset" | "local") { "gxrt" } else { "" };
                // (`declare -g x=v` in a function sets the global x, but `$x` there is still a
                // local x of that name, if the function or its callers made one: red team 54.)
                let global_in_function = !self.defining.is_empty()
                    && args.iter().filter_map(Word::lit).any(|a| a.starts_with('-') && a.contains('g'));
                let plain = name != "unset"
                    && !global_in_function
                    && (name != "local" || !self.defining.is_empty())
                    && args
                        .iter()
                        .filter_map(Word::lit)
                        .filter(|a| a.starts_with(['-', '+']) && *a != "--")
                        .all(|a| a[1..].chars().all(|c| allowed.contains(c)));
                // `declare -i n=3`: a number (only `-i` among the flags, a literal number).
                let integer_only = name != "unset"
                    && (name != "local" || !self.defining.is_empty())
                    && args
                        .iter()
                        .filter_map(Word::lit)
                        .filter(|a| a.starts_with(['-', '+']))
                        .all(|a| a.starts_with('-') && a[1..].chars().all(|c| matches!(c, 'i' | 'x' | 'g')))
                    && args.iter().filter_map(Word::lit).any(|a| a.starts_with('-') && a.contains('i'));
                if integer_only {
                    for a in args.iter().filter_map(Word::lit).filter(|a| !a.starts_with(['-', '+'])) {
                        if let Some((n, v)) = a.split_once('=') {
                            let number = !v.is_empty() && v.trim_start_matches('-').chars().all(|c| c.is_ascii_digit());
                            if is_identifier(n) && number {
                                numbers.push(n.to_string());
                            }
                        }
                    }
                }
                if plain {
                    here = declared_here;
                    // (A word brush leaves whole, `ROOT="$PWD"`.)
                    let pwd = !self.assigned.iter().any(|n| n == "PWD");
                    let pwd_program = !self.functions.iter().any(|f| f == "pwd");
                    for w in args {
                        let Word::Dyn(d) = w else { continue };
                        let Some((n, v)) = d.split_once('=') else { continue };
                        let v = v.strip_prefix('"').and_then(|t| t.strip_suffix('"')).unwrap_or(v);
                        let variable = pwd && matches!(v, "$PWD" | "${PWD}");
                        let printed = pwd_program && matches!(v, "$(pwd)" | "$(pwd -L)" | "$(pwd -P)");
                        if is_identifier(n) && (variable || printed) && !here.iter().any(|h| h == n) {
                            here.push(n.to_string());
                        }
                    }
                    // In the words' order, the last assignment of a name winning (red team
                    // 68: `local x=ls x=$(cat f)` gives x what `f` holds): a literal value, or
                    // one name a glob gives (`local g="$f"`, `"g=src/*.rs"`: red team 67);
                    // any other makes it unknown.
                    let mut given: Vec<(String, Option<Word>)> = Vec::new();
                    for w in args {
                        match w {
                            Word::Lit(a) if !a.starts_with(['-', '+']) => {
                                if let Some((n, v)) = a.split_once('=') {
                                    let append = n.ends_with('+');
                                    let n = n.trim_end_matches('+');
                                    let plain = is_identifier(n) && !v.starts_with('(');
                                    // `declare c=r c+=m` (red team 69): the value before it,
                                    // given here or known, and this one after it.
                                    let before = || match given.iter().rev().find(|(m, _)| m == n) {
                                        Some((_, Some(Word::Lit(b)))) => Some(b.clone()),
                                        Some(_) => None,
                                        None if !self.may_be_array(n) && !self.is_integer(n) => self
                                            .known_value(&bword::Parameter::Named(n.to_string()))
                                            .map(str::to_string),
                                        None => None,
                                    };
                                    let value = match append {
                                        false => Some(v.to_string()),
                                        true => before().map(|b| format!("{b}{v}")),
                                    };
                                    given.push((n.to_string(), value.filter(|_| plain).map(Word::Lit)));
                                }
                            }
                            Word::Lit(_) => {}
                            Word::Dyn(d) => match tables::glob_name_assignment(d) {
                                Some((n, g)) => given.push((n.to_string(), Some(Word::Dyn(format!("\"{g}\""))))),
                                None => {
                                    let n = d.trim_start_matches('"').split(['=', '[', '+']).next().unwrap_or_default();
                                    given.push((n.to_string(), None));
                                }
                            },
                        }
                    }
                    // (Read-only, `readonly c=rm c=ls` or `declare -r c={rm,ls}`, the first
                    // stays and the next fails: a name given twice there is not known; red team
                    // 113 A.)
                    let read_only = name == "readonly"
                        || args.iter().filter_map(Word::lit).any(|a| a.starts_with('-') && a.contains('r'));
                    for (k, (n, v)) in given.iter().enumerate() {
                        let again = given[k + 1..].iter().any(|(m, _)| m == n);
                        let twice = again || given[..k].iter().any(|(m, _)| m == n);
                        if let (Some(v), false) = (v, again || read_only && twice) {
                            values.push((n.clone(), v.clone()));
                        }
                    }
                }
                // `declare -A m=([a]=1 [b]=2)`: literal items without a glob (red team 40's
                // taint of unknown values).
                for a in args.iter().filter_map(Word::lit).filter(|a| !a.starts_with(['-', '+'])) {
                    if let Some((n, v)) = a.split_once('=') {
                        let items = v.strip_prefix('(').and_then(|v| v.strip_suffix(')'));
                        let item = |i: &str| match i.strip_prefix('[').and_then(|i| i.split_once("]=")) {
                            Some((k, v)) => plain_text(k) && plain_text(v),
                            None => plain_text(i),
                        };
                        if is_identifier(n) && items.is_some_and(|i| i.split_whitespace().all(item)) {
                            plains.push(n.to_string());
                        }
                    }
                }
                // (A run-time word may be `-A`: every name's keys may be words, `*`.)
                if matches!(name, "declare" | "typeset" | "local" | "readonly")
                    && args.iter().any(|w| matches!(w, Word::Dyn(_)))
                {
                    self.add_keyed(vec!["*".to_string()]);
                }
                // (`readonly -A h` too.)
                if matches!(name, "declare" | "typeset" | "local" | "readonly")
                    && args.iter().filter_map(Word::lit).any(|a| a.starts_with('-') && a.contains(['A', 'n']))
                {
                    let keyed: Vec<String> = args
                        .iter()
                        .filter_map(Word::lit)
                        .filter(|a| !a.starts_with(['-', '+']))
                        .map(|a| a.split(['=', '[']).next().unwrap_or(a).to_string())
                        .collect();
                    self.add_keyed(keyed);
                }
                // `export V` and `readonly V` keep V's value (`declare V` in a function makes
                // it local and empty; `local V` does).
                let keeps = matches!(name, "export" | "readonly")
                    && !args.iter().filter_map(Word::lit).any(|a| a.starts_with(['-', '+']) && a.contains('n'));
                // `export R=$(cat f)`: R is assigned a value only known at run time (red team 66:
                // `R=ls; export R=$(cat f); $R y` ran `ls`, as gate read it).
                names.extend(args.iter().filter_map(|w| {
                    match w {
                        Word::Dyn(d) => d
                            .split_once('=')
                            .map(|(n, _)| n.trim_end_matches('+').split('[').next().unwrap_or(n).to_string())
                            .filter(|n| is_identifier(n))
                            .or_else(|| tables::glob_name_assignment(d).map(|(n, _)| n.to_string()))
                            .filter(|n| is_identifier(n)),
                        Word::Lit(_) => None,
                    }
                }));
                names.extend(
                    args.iter()
                        .filter_map(Word::lit)
                        .filter(|a| !a.starts_with(['-', '+']))
                        .filter(|a| !keeps || a.contains('='))
                        .map(|a| a.split('=').next().unwrap_or(a).to_string()),
                );
                // Read-only names keep their value; `-l`/`-u`/`-c` change every later value
                // (red team 53: `declare -c x; x=cargo.toml` is `Cargo.toml`).
                let attributes = name == "readonly"
                    || (name != "unset"
                        && args
                            .iter()
                            .filter_map(Word::lit)
                            .any(|a| a.starts_with('-') && a.contains(['r', 'l', 'u', 'c'])));
                // (Which case a value is changed to: the last of `-l`, `-u`, `-c` given, where
                // nothing makes the name read-only.)
                let case = (name != "readonly")
                    .then(|| {
                        let flags: String = args
                            .iter()
                            .filter_map(Word::lit)
                            .filter(|a| a.starts_with('-') && !a.starts_with("--"))
                            .flat_map(|a| a.chars().skip(1))
                            .collect();
                        // (One of them only: bash 5.2 leaves `-lc` values as given, makes `-cu`
                        // ones lower case.)
                        let cases: Vec<char> = flags.chars().filter(|c| matches!(c, 'l' | 'u' | 'c')).collect();
                        (!flags.contains('r') && cases.windows(2).all(|p| p[0] == p[1]))
                            .then(|| cases.first().copied())
                            .flatten()
                    })
                    .flatten();
                if let Some(case) = case {
                    self.cased.extend(
                        args.iter()
                            .filter_map(Word::lit)
                            .filter(|a| !a.starts_with(['-', '+']))
                            .map(|a| (a.split('=').next().unwrap_or(a).to_string(), case)),
                    );
                }
                if attributes {
                    // (Every name given: `readonly x` keeps x's value and refuses later ones.)
                    self.attributed.extend(
                        args.iter()
                            .filter_map(Word::lit)
                            .filter(|a| !a.starts_with(['-', '+']))
                            .map(|a| a.split('=').next().unwrap_or(a).to_string()),
                    );
                }
                // `declare -A h`: h's keys are words, not arithmetic. Kept as a binding of its
                // own, so it ends where the scope that made it ends (a function's call, a
                // subshell, a branch that may not have run), and only for a name the text
                // never gave a value before (bash refuses `-A` for an indexed array).
                // (Only where bash makes it: not `local` outside a function, not with `-p`,
                // `-f`, `-F` or an option bash refuses.)
                let options: Vec<&str> =
                    args.iter().filter_map(Word::lit).filter(|a| a.starts_with(['-', '+']) && *a != "--").collect();
                let associative = matches!(name, "declare" | "typeset" | "local")
                    && (name != "local" || !self.defining.is_empty())
                    && options.iter().any(|a| a.starts_with('-') && a.contains('A'))
                    && options.iter().all(|a| a[1..].chars().all(|c| "Agxrt".contains(c)));
                if associative {
                    for n in &names {
                        // (Not bash's own arrays: it refuses to convert `GROUPS`, `FUNCNAME`,
                        // `DIRSTACK`, `BASH_ARGV`... and they stay indexed, their subscripts
                        // arithmetic; red team 81.)
                        if !self.assigned.iter().any(|a| a == n)
                            && !self.bound.iter().any(|(b, _)| b == n)
                            && !BASH_INDEXED.contains(&n.as_str())
                        {
                            assoc.push(n.clone());
                        }
                    }
                }
            }
            "read" | "printf" | "mapfile" | "readarray" | "getopts" | "wait" => {
                // (`printf '%s\n' "$x"` assigns nothing: only a run-time word where a name or
                // an option could be matters.)
                let (assigned, unknown) = tables::input_assigned_or_any(words);
                names.extend(assigned);
                any = unknown;
                // `printf -v c %s r m`: c is what printf would print (red team 53).
                let lits: Option<Vec<&str>> = args.iter().map(Word::lit).collect();
                if let (true, Some((n, format, rest))) = (name == "printf", lits.as_deref().and_then(printf_into)) {
                    if let Some(out) = is_identifier(n).then(|| printf_output(format, rest)).flatten() {
                        // (A variable's value ends at a NUL byte.)
                        let out = out.split('\0').next().unwrap_or_default().to_string();
                        values.push((n.to_string(), Word::Lit(out)));
                    }
                }
                // (`shift $((OPTIND-1))` after it: red team 55.)
                if getopts_keeps_its_index(words) {
                    numbers.push("OPTIND".to_string());
                }
            }
            // (Its arithmetic, walked already, kept the names that hold numbers.)
            "let" => {
                names.extend(args.iter().filter_map(Word::lit).flat_map(identifiers).filter(|n| !self.is_number(n)))
            }
            _ => return,
        }
        if any {
            self.unbind_all();
        }
        // `DIRSTACK[1]=/etc`, `read -a DIRSTACK`: the next `popd` goes there.
        if any || names.iter().any(|n| n.split('[').next() == Some("DIRSTACK")) {
            self.cwd.forget_stack();
        }
        for n in names {
            self.unbind(&n);
            self.unbind(&format!("{ASSOCIATIVE}{n}"));
        }
        for n in assoc {
            self.bind(&format!("{ASSOCIATIVE}{n}"), Vec::new());
        }
        self.plain.extend(plains);
        for n in numbers {
            if !tables::is_dangerous_variable(&n) {
                self.bind_number(&n);
            }
        }
        // `unset IFS` (not `-f`), outside a function (where a caller's own IFS could show
        // again): bash splits as by default.
        let unsets_ifs = name == "unset"
            && self.defining.is_empty()
            && args.iter().all(|w| w.lit().is_some_and(|a| !a.starts_with('-') || a == "-v"))
            && args.iter().any(|w| w.lit() == Some("IFS"));
        if unsets_ifs {
            self.bind("IFS", vec![Word::Lit(" \t\n".into())]);
        }
        if let Some(dir) = self.cwd.0.clone() {
            // (Relative to the start, whatever spelling of `~+` the value had here.)
            let tilde = std::mem::take(&mut self.cwd_tilde);
            for n in here {
                self.bind(&format!("{PWD_OF}{n}"), vec![Word::Lit(dir.clone())]);
            }
            self.cwd_tilde = tilde;
        }
        // `readonly D=docs`, `declare -r D=docs`: D holds the value given (red team 80: asked);
        // only later assignments are refused. (Not a name read-only before it: bash refuses
        // this one too. `-l`, `-u`, `-c` change the value.)
        let changes = args.iter().filter_map(Word::lit).any(|a| a.starts_with('-') && a.contains(['l', 'u', 'c']));
        let added: Vec<String> = match changes {
            true => Vec::new(),
            false => {
                let (before, new) = self.attributed.split_at(attributed0.min(self.attributed.len()));
                new.iter().filter(|n| !before.contains(n)).cloned().collect()
            }
        };
        self.attributed.retain(|n| !added.contains(n));
        // (A value given to an array's name replaces its first element only: red team 55.)
        for (n, v) in values {
            if !tables::is_dangerous_variable(&n) && !self.is_integer(&n) && !self.may_be_array(&n) {
                self.bind(&n, vec![v]);
            }
        }
        self.attributed.extend(added);
    }

    /// What an awk program or a sed script given on the command line writes, reads and runs
    /// (`awk '{print > ".env"}'`, `sed '1e rm x'`): writes and reads are decided as such,
    /// commands as if they ran.
    fn script_effects(&mut self, words: &[Word], wrappers: &[Wrapper], unknown: &mut Option<String>) {
        let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return };
        let mut texts: Vec<Word> = Vec::new();
        let mut inputs: Vec<Word> = Vec::new();
        let awk = matches!(name, "awk" | "gawk" | "mawk" | "nawk");
        if awk && tables::awk_version(&words[1..]) {
            return;
        }
        if awk {
            let a = super::scripts::awk_args(&words[1..]);
            if let Some(o) = a.from_file {
                unknown.get_or_insert_with(|| format!("`{name} {o}`: an awk option gate does not model (a program or extension from a file, a file it writes, or `ARGV`/`ARGC` set)"));
            }
            texts = a.programs;
            inputs = a.operands.into_iter().filter(|w| w.lit().is_none_or(|s| !s.contains('='))).collect();
        } else if name == "sed" {
            if let Some(Ok(p)) = grammar::grammar("sed").map(|g| grammar::parse(g, &words[1..])) {
                texts.extend(tables::sed_script(&p));
            }
        } else {
            return;
        }
        for t in texts {
            let Word::Lit(text) = t else {
                unknown.get_or_insert_with(|| format!("`{name}` runs a script known only at run time"));
                continue;
            };
            let e = if awk { super::scripts::awk(&text) } else { super::scripts::sed(&text) };
            for f in e.writes {
                self.write(Word::Lit(f), WriteKind::Tee);
            }
            if e.writes_inputs {
                if inputs.is_empty() {
                    unknown.get_or_insert_with(|| "awk writes to `FILENAME` while reading its input".into());
                }
                for f in &inputs {
                    self.write(f.clone(), WriteKind::Tee);
                }
            }
            for f in e.reads {
                self.a.reads.push(Write { path: Word::Lit(f), kind: WriteKind::Redirect, cwd: self.cwd.0.clone() });
            }
            for c in e.commands {
                self.nested_run_by(&c, words, wrappers);
            }
            if let Some(u) = e.unknown {
                unknown.get_or_insert(u);
            }
        }
    }

    /// What a tabled wrapper's own options do: files it writes (`time -o F`, `script -O F`,
    /// `script F`, flock's lock file), the directory the command runs in (`sudo -D DIR`:
    /// later relative paths are not known).
    fn wrapper_effects(&mut self, words: &[Word], unknown: &mut Option<String>) {
        let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return };
        let Some(g) = grammar::grammar(name) else { return };
        let Ok(p) = grammar::parse(g, &words[1..]) else { return };
        for f in p.with('W') {
            match &f.value {
                Some(v) => self.write(v.clone(), WriteKind::Tee),
                None => {
                    unknown.get_or_insert_with(|| format!("`{}` writes a file gate cannot name", f.given));
                }
            }
        }
        if name == "script" {
            // script's operand is the typescript file it writes, not a command.
            for v in p.operands.iter().take(1) {
                self.write(v.clone(), WriteKind::Tee);
            }
        }
        if name == "flock" && p.operands.len() >= 2 {
            // `flock FILE CMD...`: FILE is opened with O_CREAT (made if missing). A lone
            // operand is a file descriptor.
            self.write(p.operands[0].clone(), WriteKind::Tee);
        }
        let dir = p.with('D').next().map(|f| f.given.clone());
        if let Some(given) = dir {
            unknown.get_or_insert_with(|| format!("`{given}` runs the command in another directory"));
        }
    }

    /// A word that is exactly one positional parameter of a `sh -c` script (`"$1"`, `${2}`)
    /// is the argument given for it; unquoted, only when splitting and globbing leave it
    /// one word. Any other run-time word stays run-time.
    fn positional(&self, raw: &str) -> Word {
        let dynamic = || Word::Dyn(raw.to_string());
        let quoted = raw.len() >= 2 && raw.starts_with('"') && raw.ends_with('"');
        let inner = if quoted { &raw[1..raw.len() - 1] } else { raw };
        let digits = inner.strip_prefix("${").and_then(|r| r.strip_suffix('}')).or_else(|| inner.strip_prefix('$'));
        let Some(n) = digits.filter(|d| d.len() == 1).and_then(|d| d.parse::<usize>().ok()).filter(|n| *n >= 1) else {
            return dynamic();
        };
        match self.param(n).flatten() {
            Some(w @ Word::Lit(v)) if quoted || !v.contains(|c: char| c.is_whitespace() || "*?[".contains(c)) => {
                w.clone()
            }
            // (A glob's name in quotes is one name of it, written as the walker writes one a
            // loop over the glob gives: `f(){ local file="$1"; cat "$file"; }; f docs/*.md`,
            // red team 73.)
            Some(Word::Dyn(d)) if quoted && !d.starts_with('"') && tables::glob_base(d).is_some() => {
                Word::Dyn(format!("\"{d}\""))
            }
            Some(w @ Word::Dyn(_)) if quoted => w.clone(),
            _ => dynamic(),
        }
    }

    fn nested_with(&mut self, text: &str, wrappers: Vec<Wrapper>) {
        let saved = std::mem::take(&mut self.wrappers);
        // Wrappers of the outer script are already part of `wrappers`' context via push().
        let mut all = saved.clone();
        all.extend(wrappers);
        let mut sub_cwd = self.cwd.clone();
        // `eval`'s text and a trap's action run in this shell.
        let here = self.in_eval || self.same_shell;
        let exiting = std::mem::take(&mut self.exit_trap);
        let last_line_at: usize;
        {
            let mut w = Walker {
                a: &mut *self.a,
                depth: self.depth + 1,
                cwd: &mut sub_cwd,
                wrappers: all,
                stdin_script: None,
                piped_in: None,
                stage_output: None,
                replace_str: None,
                last_arg: None,
                dollar_underscore: None,
                simple_last: None,
                stdin_listing: None,
                stdin_lines: Lines::Other,
                fed_args: Vec::new(),
                params: self.next_params.take(),
                next_params: None,
                functions: self.functions.clone(),
                // Another shell process (`sh -c`, an alias, `find -exec sh -c`) has none of this
                // shell's functions: a name there is a program (`rm(){ :; }; bash -c 'rm -rf x'`).
                // Only `eval` and a trap's action run their text in this shell.
                sure: if self.in_eval || self.same_shell { self.sure.clone() } else { Vec::new() },
                unsure: self.unsure,
                params_at: self.params_at,
                line_abort: None,
                in_line: false,
                readonly: self.readonly.clone(),
                failglob: self.failglob,
                integer_names: self.integer_names.clone(),
                may_fail_text: self.may_fail_text,
                conditional: self.conditional,
                last_line_at: 0,
                same_shell: false,
                bodies: self.bodies.clone(),
                traps: self.traps.clone(),
                rewalked: self.rewalked,
                unrolled: self.unrolled,
                locals: Vec::new(),
                defining: self.defining.clone(),
                integers: self.integers.clone(),
                errexit: false,
                // Only `eval` runs its text in this shell, now: a new shell (`bash -c`, git's
                // `!` alias, awk's `system`) sees only exported variables, and a trap runs later.
                bound: if self.in_eval { self.bound.clone() } else { Vec::new() },
                assigned: Vec::new(),
                jumps: 0,
                in_eval: false,
                alt_cwd: None,
                rewalks: self.rewalks,
                counters: Vec::new(),
                untrusted_values: self.untrusted_values,
                attributed: self.attributed.clone(),
                cased: self.cased.clone(),
                plain: self.plain.clone(),
                keyed: self.keyed.clone(),
                arrays: self.arrays.clone(),
                declared_arrays: Vec::new(),
                declared_here: Vec::new(),
                glob_pieces: None,
                stdin_moved: self.stdin_moved,
                stdout_piped: self.stdout_piped,
                own_stdin: false,
                redirected: false,
                loose_assignments: false,
                allexport: self.allexport,
                listings: Vec::new(),
                command_env: Vec::new(),
                std_closed: self.std_closed,
                split_names: Vec::new(),
                restricted: self.restricted,
                read_fds: self.read_fds.clone(),
                globbed: false,
                assigning: false,
                cwd_tilde: false,
                cwd_after: None,
                exiting,
                exit_trap: false,
                keep_alt: false,
            };
            w.script(text);
            last_line_at = w.last_line_at;
            // Functions `eval` or a trap's action defines are this shell's from then on (red
            // team 30: `eval 'echo(){ ...; }'; echo ls | sh`).
            if here {
                for f in std::mem::take(&mut w.functions) {
                    if !self.functions.contains(&f) {
                        self.functions.push(f);
                    }
                }
            }
            let integers = std::mem::take(&mut w.integers);
            let keyed = std::mem::take(&mut w.keyed);
            let arrays = std::mem::take(&mut w.arrays);
            let assigned = std::mem::take(&mut w.assigned);
            let jumps = w.jumps;
            let untrusted = w.untrusted_values;
            self.add_integers(integers);
            self.add_keyed(keyed);
            self.add_arrays(arrays);
            // A trap `eval` set runs between this shell's later commands (review: `eval "trap
            // p=rm DEBUG"; p=echo; $p x`); for another shell's text this only errs on the safe side.
            if untrusted && !self.untrusted_values {
                self.untrusted_values = true;
                self.unbind_all();
            }
            // `eval` runs in this shell: what it assigned is no longer known here.
            for n in assigned {
                self.unbind(&n);
            }
            self.jumps += jumps;
        }
        // `bash -c 'cd x'` does not change our directory, but `eval 'cd x'` does: be safe.
        // (An exit trap's action moves nothing: it runs as the shell ends.)
        if sub_cwd != *self.cwd && !exiting {
            self.cwd.forget();
        }
        self.wrappers = saved;
        self.last_line_at = last_line_at;
    }

    /// `bash -c '...'`, `sh script.sh`, `bash` reading stdin.
    fn shell_invocation(&mut self, words: &[Word], wrappers: &[Wrapper], unknown: &mut Option<String>) {
        let name = words[0].display();
        let mut i = 1;
        let mut has_c = false;
        let mut has_s = false;
        while i < words.len() {
            match &words[i] {
                Word::Lit(s) if s == "--" => {
                    i += 1;
                    break;
                }
                Word::Lit(s) if s.starts_with("--") => {
                    if matches!(s.as_str(), "--rcfile" | "--init-file") {
                        unknown.get_or_insert_with(|| format!("`{name} {s}` runs the commands of another file first"));
                        i += 1;
                    }
                    // `--posix` (aliases, and POSIXLY_CORRECT with `-a`), `--debugger`: not
                    // modelled. A login shell (`-l`, `--login`) runs the user's profile files
                    // first; the shared corpus holds `bash -lc 'git status'` allowed (agents run
                    // commands so), so they are taken as the user's own environment.
                    if !matches!(
                        s.as_str(),
                        "--norc" | "--noprofile" | "--noediting" | "--rcfile" | "--init-file" | "--login"
                    ) {
                        unknown.get_or_insert_with(|| format!("`{name} {s}` changes how the text is read or run"));
                    }
                    i += 1;
                }
                Word::Lit(s) if (s.starts_with('-') || s.starts_with('+')) && s.len() > 1 => {
                    let flags = &s[1..];
                    if flags.contains('c') {
                        has_c = true;
                    }
                    if s.starts_with('-') && flags.contains('s') {
                        has_s = true;
                    }
                    if s.starts_with('-') && flags.contains('i') {
                        unknown.get_or_insert_with(|| {
                            format!("`{name} -i` is interactive: it runs the commands of rc files first")
                        });
                    }
                    let on = s.starts_with('-');
                    // (`-r`: the restricted shell, where `cd` and redirections fail: red team 90.)
                    // (`-a`: every function the text defines is exported to the shells it
                    // starts, where scripts call commands by bare name: red team 115 A's `bash
                    // -ac 'pyenv-which(){ ...; }; python3 --version'`.)
                    if on && flags.contains(['k', 'H', 'P', 'r', 'a']) {
                        unknown.get_or_insert_with(|| format!("`{name} {s}` changes how the text is read or run"));
                    }
                    // -o OPTION / +O shopt take a value.
                    if flags.ends_with('o') || flags.ends_with('O') {
                        let value = words.get(i + 1).and_then(Word::lit).unwrap_or("");
                        let harmless = if flags.ends_with('o') {
                            tables::harmless_set_option(value, on) && !(on && value == "allexport")
                        } else {
                            // (Off too: `bash +O globskipdots -c 'cat .*/x'` matches `..` again,
                            // red team 92; `+O patsub_replacement` changes `${x/a/&}`.)
                            tables::harmless_shopt(value)
                        };
                        if !harmless {
                            unknown.get_or_insert_with(|| {
                                format!("`{name} {s} {value}` changes how the text is read or run")
                            });
                        }
                        i += 1;
                    }
                    i += 1;
                }
                _ => break,
            }
        }
        let mut inner = wrappers.to_vec();
        inner.push(Wrapper { words: words.to_vec(), kind: WrapperKind::Transparent });
        // Other shells read the text with other rules (dash has no `$'...'`; zsh and ksh have
        // expansions bash lacks): their parts are still decided, but what runs is not certain.
        let dialect = program_name(words[0].lit().unwrap_or(""));
        let foreign = match dialect {
            "bash" | "rbash" => None,
            "sh" | "dash" | "ash" | "busybox-sh" => {
                let text = if has_c {
                    words.get(i).and_then(Word::lit)
                } else {
                    self.stdin_script.as_ref().and_then(|s| s.as_ref().ok()).map(String::as_str)
                };
                text.and_then(|t| posix_sh_note(&format!("`{dialect}`"), t))
            }
            other => Some(format!("`{other}` syntax differs from bash's")),
        };
        if has_c {
            self.keep_unknown(words, wrappers, unknown);
            if let Some(f) = foreign {
                let mut u = Some(format!("{f}: gate cannot be sure what the -c text runs"));
                self.keep_unknown(words, wrappers, &mut u);
            }
            match words.get(i) {
                // (find's and xargs's words holding the placeholder come as run-time words.)
                Some(Word::Lit(text) | Word::Dyn(text))
                    if self.replace_str.as_ref().is_some_and(|r| text.contains(r.as_str())) =>
                {
                    // The script's text is completed with input at run time: what it runs is
                    // not known. Its known commands are still decided (a deny still denies).
                    let r = self.replace_str.clone().unwrap_or_default();
                    let mut u = Some(format!(
                        "`{name} -c` runs a script completed at run time (`{r}` is replaced by input text)"
                    ));
                    self.keep_unknown(words, wrappers, &mut u);
                    let text = text.clone();
                    self.nested_with(&text, inner);
                    return;
                }
                Some(Word::Lit(text)) => {
                    let text = text.clone();
                    // `sh -c TEXT NAME ARGS...`: `$0` is NAME, which gate does not track: one
                    // that may glob, used, is a listing of what it names (red team 40:
                    // `bash -c 'echo $0' '/etc/*'`).
                    let zero_globs = words.get(i + 1).is_some_and(|w| w.lit().is_none_or(expands));
                    if zero_globs && (text.contains("$0") || text.contains("${0")) {
                        let mut u = Some(format!("`{name} -c`: `$0` is a word that may expand to paths"));
                        self.keep_unknown(words, wrappers, &mut u);
                    }
                    // `sh -c TEXT NAME ARGS...`: `$1`... are ARGS, and under xargs the names
                    // it adds after them, not known (red team 44: `... | xargs sh -c 'tee
                    // "$@"' _` emptied Cargo.toml).
                    let xargs = wrappers.iter().any(|w| w.program() == Some("xargs"));
                    self.next_params = (!xargs).then(|| words.get(i + 2..).unwrap_or_default().to_vec());
                    self.nested_with(&text, inner);
                    return;
                }
                Some(Word::Dyn(d)) => {
                    unknown.get_or_insert_with(|| format!("`{name} -c` runs `{d}`, only known at run time"));
                }
                None => {
                    unknown.get_or_insert_with(|| format!("`{name} -c` without a command"));
                }
            }
        } else if let Some(script) = words.get(i).filter(|w| !has_s && !w.lit().is_some_and(is_stdin_path)) {
            unknown
                .get_or_insert_with(|| format!("`{name}` runs the script {}, which gate cannot see", script.display()));
        } else if let Some(Ok(text)) = self.stdin_script.take() {
            // (A shell skips the NUL bytes of a script it reads: `printf 'r\0m x' | sh` runs
            // rm, red team 69.)
            let text = text.replace('\0', "");
            // (`bash -i <<< '...'` runs rc files first as `bash -ic` does: red team 30.)
            self.keep_unknown(words, wrappers, unknown);
            if let Some(f) = foreign {
                let mut u = Some(format!("{f}: gate cannot be sure what the script on its input runs"));
                self.keep_unknown(words, wrappers, &mut u);
            }
            // `bash <<'EOF' ... EOF`, `sh <<< '...'`, `bash -s -- ARGS <<< ...`,
            // `bash /dev/stdin <<< ...`: the script is right here; what follows `-s` (or the
            // `/dev/stdin` operand) is its `$1`...
            let params = if has_s { i } else { i + 1 };
            self.next_params = Some(words.get(params..).unwrap_or_default().to_vec());
            let before = self.a.commands.len();
            self.nested_with(&text, inner);
            self.script_on_stdin_read_by_itself(before, words, wrappers, &text);
            return;
        } else if let Some(Err(())) = self.stdin_script {
            unknown.get_or_insert_with(|| format!("`{name}` runs a here-document only known at run time"));
        } else {
            unknown.get_or_insert_with(|| format!("`{name}` runs commands read from its input, which gate cannot see"));
        }
        self.push(SimpleCommand {
            words: words.to_vec(),
            wrappers: wrappers.to_vec(),
            aliases: Vec::new(),
            cwd: None,
            open_args: false,
            args_from: Vec::new(),
            unknown: unknown.take(),
            lands: None,
        });
    }

    fn env_wrapper(&mut self, words: &[Word], unknown: &mut Option<String>) -> Option<EnvResult> {
        match grammar::grammar("env").map(|g| grammar::parse(g, &words[1..])) {
            Some(Ok(p)) => {
                // `-C DIR` runs the command in DIR (one chdir, the last given): followed as a
                // `cd` where DIR is known and climbs no `..` (chdir takes `..` after a link
                // physically, where the walker's `cd` is lexical).
                if let Some(f) = p.with('D').last() {
                    let dir = f
                        .value
                        .as_ref()
                        .and_then(Word::lit)
                        .filter(|d| !d.split('/').any(|s| s == ".."))
                        .and_then(|d| self.cwd.joined(Some(d)));
                    match dir {
                        Some(d) if self.cwd_after.is_none() => {
                            // Decided as the `cd` it is: a directory outside the workspace, or
                            // a link out of it, is asked (red team 71: `env --chd=/tmp ls`
                            // lists /tmp).
                            self.push(SimpleCommand {
                                words: vec![Word::Lit("cd".into()), f.value.clone().unwrap_or(Word::Lit(d.clone()))],
                                wrappers: Vec::new(),
                                aliases: Vec::new(),
                                cwd: None,
                                open_args: false,
                                args_from: Vec::new(),
                                unknown: None,
                                lands: None,
                            });
                            self.cwd_after = Some(self.cwd.clone());
                            self.cwd.enter(d);
                        }
                        _ => {
                            self.cwd.forget();
                            let given = f.given.clone();
                            unknown.get_or_insert_with(|| format!("`{given}` runs the command in another directory"));
                        }
                    }
                }
                if let Some(f) = p.with('C').last() {
                    return match &f.value {
                        Some(Word::Lit(text)) => Some(EnvResult::Script(text.clone(), p.operands.clone())),
                        _ => {
                            unknown.get_or_insert_with(|| "`env -S` runs text only known at run time".into());
                            None
                        }
                    };
                }
                // A lone `-` first is `-i` (GNU env).
                let mut i = usize::from(p.operands.first().and_then(Word::lit) == Some("-"));
                // env takes every word holding a `=` as an assignment (`BASH_FUNC_ls%%=...`).
                let env: Vec<(String, String)> = p.operands[i..]
                    .iter()
                    .map_while(|w| w.lit().filter(|s| env_assignment(s)))
                    .filter_map(|s| s.split_once('=').map(|(n, v)| (n.to_string(), v.to_string())))
                    .collect();
                let wrapper = vec![Wrapper { words: words.to_vec(), kind: WrapperKind::Transparent }];
                self.env_code(&env, &wrapper);
                while let Some(w) = p.operands.get(i) {
                    let (name, harmless) = match w {
                        Word::Lit(s) if env_assignment(s) => {
                            let (n, v) = s.split_once('=').unwrap_or((s, ""));
                            (n, harmless_setting(n, v))
                        }
                        Word::Dyn(d) if d.contains('=') && !d.starts_with('$') => {
                            (d.split('=').next().unwrap_or(""), tables::own_value(d))
                        }
                        _ => break,
                    };
                    if tables::is_dangerous_variable(name) && !harmless {
                        unknown.get_or_insert_with(|| format!("sets {name}, which changes what runs"));
                    }
                    i += 1;
                }
                return (i < p.operands.len()).then(|| EnvResult::Inner(p.operands[i..].to_vec()));
            }
            // Not modelled: asked; the reading below still lets a deny rule see the command.
            Some(Err(e)) => {
                unknown.get_or_insert(e);
            }
            None => {}
        }
        let mut i = 1;
        while i < words.len() {
            match &words[i] {
                Word::Lit(s) if s == "--" || s == "-" => {
                    i += 1;
                    break;
                }
                Word::Lit(s) if s == "-S" || s == "--split-string" => {
                    let Some(Word::Lit(text)) = words.get(i + 1) else {
                        unknown.get_or_insert_with(|| "`env -S` runs text only known at run time".into());
                        return None;
                    };
                    return Some(EnvResult::Script(text.clone(), words[i + 2..].to_vec()));
                }
                Word::Lit(s) if s.starts_with("-S") || s.starts_with("--split-string=") => {
                    let text = s.strip_prefix("--split-string=").unwrap_or_else(|| &s[2..]);
                    return Some(EnvResult::Script(text.to_string(), words[i + 1..].to_vec()));
                }
                Word::Lit(s) if matches!(s.as_str(), "-u" | "--unset" | "-C" | "--chdir") => {
                    if matches!(s.as_str(), "-C" | "--chdir") {
                        self.cwd.forget();
                        unknown.get_or_insert_with(|| "`env -C` runs the command in another directory".into());
                    }
                    i += 2
                }
                Word::Lit(s) if s.starts_with('-') && s.len() > 1 => {
                    if tables::spells_option(s, "-C") || tables::spells_option(s, "--chdir") {
                        self.cwd.forget();
                        unknown.get_or_insert_with(|| "`env -C` runs the command in another directory".into());
                    }
                    i += 1
                }
                Word::Lit(s) if is_assignment(s) => {
                    let name = &s[..s.find('=').unwrap_or(0)];
                    if tables::is_dangerous_variable(name) && !harmless_setting(name, &s[name.len() + 1..]) {
                        unknown.get_or_insert_with(|| format!("sets {name}, which changes what runs"));
                        self.trace_file(name, &Word::Lit(s[name.len() + 1..].to_string()));
                    }
                    self.path_value(&Word::Lit(s[name.len() + 1..].to_string()));
                    i += 1;
                }
                Word::Dyn(d) if d.contains('=') && !d.starts_with('$') => {
                    // `env X=$(...) cmd`: an assignment with a dynamic value.
                    let name = d.split('=').next().unwrap_or("");
                    if tables::is_dangerous_variable(name) && !tables::own_value(d) {
                        unknown.get_or_insert_with(|| format!("sets {name}, which changes what runs"));
                    }
                    i += 1;
                }
                _ => break,
            }
        }
        // Assignments may also follow `--`.
        while let Some(Word::Lit(s)) = words.get(i) {
            if !is_assignment(s) {
                break;
            }
            let name = &s[..s.find('=').unwrap_or(0)];
            if tables::is_dangerous_variable(name) && !harmless_setting(name, &s[name.len() + 1..]) {
                unknown.get_or_insert_with(|| format!("sets {name}, which changes what runs"));
            }
            i += 1;
        }
        if i >= words.len() {
            return None;
        }
        Some(EnvResult::Inner(words[i..].to_vec()))
    }
}

/// The names in arithmetic text (any of them may be assigned by it).
/// A path that names the reader's own standard input.
fn is_stdin_path(p: &str) -> bool {
    matches!(p, "/dev/stdin" | "/dev/fd/0" | "/proc/self/fd/0")
}

/// The callback of `mapfile`/`readarray` options (`-C CB`, `-CCB`, `-tC CB`), as bash's
/// getopt reads them: `d n O s u c C` take a value (the rest of the bundle or the next word).
fn mapfile_callback(args: &[Word]) -> Option<String> {
    let mut found = None;
    let mut i = 0;
    while let Some(Word::Lit(a)) = args.get(i) {
        if a == "--" || !a.starts_with('-') || a.len() < 2 {
            break;
        }
        for (k, c) in a[1..].char_indices() {
            if "dnOsucC".contains(c) {
                let glued = &a[1 + k + c.len_utf8()..];
                let value = if glued.is_empty() {
                    i += 1;
                    args.get(i).map(|w| w.lit().map(str::to_string).unwrap_or_else(|| w.display()))
                } else {
                    Some(glued.to_string())
                };
                if c == 'C' {
                    found = value;
                }
                break;
            }
        }
        i += 1;
    }
    found
}

/// The name at the start of `text` (letters, digits, `_`; not checked to be an identifier)
/// and what follows it.
fn name_split(text: &str) -> (&str, &str) {
    text.split_at(text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(text.len()))
}

/// `${NAME:-DIGITS}` and `${NAME-DIGITS}` in arithmetic as `NAME`'s reference where the
/// default is a decimal number: the value is NAME's or that number (red team 87's `c=$((
/// ${c:-0} + 1 ))` with `c=0` before it was asked).
fn defaults_as_names(expr: &str) -> String {
    braced_rewritten(expr, |after| {
        let (name, tail) = name_split(after);
        let default = tail.strip_prefix(":-").or_else(|| tail.strip_prefix('-'))?;
        let (digits, after_close) = default.split_once('}')?;
        let number = !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        (number && is_identifier(name)).then(|| (format!("${{{name}}}"), after_close))
    })
}

/// `${NAME}` in arithmetic as `NAME` (the same value read the same way, where NAME is a
/// plain name).
fn names_unbraced(expr: &str) -> String {
    braced_rewritten(expr, |after| {
        after.split_once('}').filter(|(n, _)| is_identifier(n)).map(|(name, tail)| (name.to_string(), tail))
    })
}

/// `${#name}`, `${#name[@]}` and `${#name[*]}` replaced by `0`: bash expands each to a
/// plain number (any other subscript is evaluated, and stays).
fn lengths_as_numbers(expr: &str) -> String {
    braced_rewritten(expr, |after| {
        let (name, tail) = name_split(after.strip_prefix('#')?);
        let valid = name.chars().next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
        let close = ["}", "[@]}", "[*]}"].into_iter().find(|c| tail.starts_with(c)).filter(|_| valid)?;
        Some(("0".to_string(), &tail[close.len()..]))
    })
}

/// The names a comma-free arithmetic expression assigns with a plain `=` at its front
/// (`a = b = 1`), and the rest, which is read.
fn assignment_targets(part: &str) -> (Vec<String>, &str) {
    let mut targets = Vec::new();
    let mut rest = part;
    loop {
        let t = rest.trim_start();
        let n = t.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(t.len());
        let name = &t[..n];
        let after = t[n..].trim_start();
        let plain_eq = after.starts_with('=') && !after.starts_with("==");
        if n == 0 || name.starts_with(|c: char| c.is_ascii_digit()) || !plain_eq {
            return (targets, rest);
        }
        targets.push(name.to_string());
        rest = &after[1..];
    }
}

fn identifiers(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for c in text.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_alphanumeric() || c == '_' {
            cur.push(c);
        } else if !cur.is_empty() {
            if !cur.starts_with(|d: char| d.is_ascii_digit()) {
                out.push(std::mem::take(&mut cur));
            }
            cur.clear();
        }
    }
    out
}

enum GitStep {
    /// Nothing to unwrap: decide git as written.
    Plain,
    /// An alias of the subcommand: decide git with these words instead.
    Expanded(Vec<Word>),
    /// A `!` alias of the subcommand ran as a script, already decided.
    Ran,
}

enum EnvResult {
    Inner(Vec<Word>),
    Script(String, Vec<Word>),
}

/// A run of ten or more digits right before `<` or `>`: a redirection's descriptor number
/// that does not fit the parser's integer.
/// Likewise a directory-stack index (`~+12345678901`): both overflow the parser's integers,
/// which makes it panic (found by fuzzing).
fn huge_number(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut run = 0;
    for (i, &b) in bytes.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                run += 1;
                if run >= 10 {
                    // Walk back over the digits (and a `+`/`-`) to see whether a `~` starts them.
                    let start = i + 1 - run;
                    let before = &bytes[..start];
                    let tilde = match before.last() {
                        Some(b'~') => true,
                        Some(b'+') | Some(b'-') => before.len() >= 2 && before[before.len() - 2] == b'~',
                        _ => false,
                    };
                    if tilde {
                        return true;
                    }
                }
            }
            b'<' | b'>' if run >= 10 => return true,
            _ => run = 0,
        }
    }
    false
}

fn is_assignment(s: &str) -> bool {
    match s.find('=') {
        Some(0) | None => false,
        Some(i) => is_identifier(&s[..i]),
    }
}

/// Where bash may end a here-document elsewhere than the parser gate uses, or read its body
/// differently (found by the fourth red team): in an unquoted one, a line that ends with a
/// backslash is joined to the next before the end is looked for, so `EO\` + `F` ends it and
/// `$\` + `(rm x)` is a substitution; and inside `$(...)` a line `EOF)` ends both the document
/// and the substitution. Then the text after it may be commands that gate took as text.
fn heredoc_read_otherwise(doc: &ast::IoHereDocument) -> Option<String> {
    let body = &doc.doc.value;
    let end: String = doc.here_end.value.chars().filter(|c| !matches!(c, '\'' | '"' | '\\')).collect();
    if doc.requires_expansion {
        // Join the lines as bash does. It matters where a joined line is the end, or where a
        // join meets a `$` or a backquote (`$\` + `(rm x)`); a plain continuation does not.
        let mut joined = String::new();
        for l in body.lines() {
            let l = if doc.remove_tabs && joined.is_empty() { l.trim_start_matches('\t') } else { l };
            if (l.len() - l.trim_end_matches('\\').len()) % 2 == 1 {
                let part = &l[..l.len() - 1];
                if part.ends_with(['$', '`']) {
                    return Some(
                        "a here-document line ends in `$` or a backquote and a backslash: bash joins it to the next"
                            .into(),
                    );
                }
                joined.push_str(part);
                continue;
            }
            if !joined.is_empty() {
                joined.push_str(l);
                if joined == end {
                    return Some(format!("here-document lines that bash joins spell its end `{end}`"));
                }
                joined.clear();
            }
        }
    }
    let ends_early = body.lines().any(|l| {
        let l = if doc.remove_tabs { l.trim_start_matches('\t') } else { l };
        l.strip_prefix(end.as_str()).is_some_and(|rest| rest.starts_with(')'))
    });
    ends_early.then(|| format!("a here-document line starts with its end `{end}` and a `)`: bash may end it there"))
}

/// Whether env reads `s` as an assignment: any word holding a `=` after its first character
/// (GNU env puts it in the environment as it is).
fn env_assignment(s: &str) -> bool {
    s.find('=').is_some_and(|i| i > 0)
}

/// The words git splits a (non-`!`) alias's value into, as its `split_cmdline` does: blanks
/// (C's `isspace`) part words outside quotes, `'...'` and `"..."` quote, a backslash outside
/// single quotes takes the next character as it is. `None` where git refuses the value (an
/// unclosed quote, a backslash at the end).
fn git_split_cmdline(value: &str) -> Option<Vec<String>> {
    let space = |c: char| matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r');
    let mut words = vec![String::new()];
    let mut quoted: Option<char> = None;
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        let word = words.last_mut()?;
        if quoted.is_none() && space(c) {
            while chars.next_if(|n| space(*n)).is_some() {}
            words.push(String::new());
        } else if quoted.is_none() && matches!(c, '\'' | '"') {
            quoted = Some(c);
        } else if quoted == Some(c) {
            quoted = None;
        } else if c == '\\' && quoted != Some('\'') {
            word.push(chars.next()?);
        } else {
            word.push(c);
        }
    }
    quoted.is_none().then_some(words)
}

/// Why text that `runner` has a POSIX `sh` run (dash is Debian's `/bin/sh`) may run otherwise
/// than gate, which reads it with bash's grammar, sees it.
fn posix_sh_note(runner: &str, text: &str) -> Option<String> {
    super::words::posix_sh_reads_otherwise(text)
        .map(|what| format!("{runner} runs it with a POSIX sh, which may not read {what} as bash does"))
}

/// Whether a wrapper (`env -i`, `env -`, `env -u PATH`) starts its command without PATH.
fn clears_path(words: &[Word]) -> bool {
    if words.first().and_then(Word::lit).map(program_name) != Some("env") {
        return false;
    }
    match grammar::grammar("env").map(|g| grammar::parse(g, &words[1..])) {
        Some(Ok(p)) => {
            p.operands.first().and_then(Word::lit) == Some("-")
                || p.opts.iter().any(|f| {
                    matches!(f.opt.name, "-i" | "--ignore-environment")
                        || (matches!(f.opt.name, "-u" | "--unset")
                            && f.value.as_ref().and_then(Word::lit).is_none_or(|v| v == "PATH"))
                })
        }
        _ => true,
    }
}

fn all_literal(words: &[Word]) -> Option<Vec<String>> {
    words.iter().map(|w| w.lit().map(str::to_string)).collect()
}

fn unescape_backquoted(s: &str, in_double_quotes: bool) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(&n) = chars.peek() {
                if n == '\n' {
                    // A line continuation.
                    chars.next();
                    continue;
                }
                // Inside double quotes bash also removes the backslash before `"` (found by
                // the fourth red team: `"`echo \"'\"; rm x; echo \"'\"`"` hid `rm x`).
                if matches!(n, '$' | '`' | '\\') || (in_double_quotes && n == '"') {
                    out.push(n);
                    chars.next();
                    continue;
                }
            }
        }
        out.push(c);
    }
    out
}

/// The text of an unquoted here-document as the shell reading it gets it: a backslash before
/// `\\`, `$`, `` ` `` or a line break is removed (with the line break), every other one kept.
fn heredoc_unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\n') => {}
            Some(n @ ('\\' | '$' | '`')) => out.push(n),
            Some(n) => {
                out.push('\\');
                out.push(n);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// A command that prints paths one per line, when that is all it prints: `find` (its words)
/// without actions that print anything else.
/// The first word of the listing `git ls-files -z` gives xargs (read as `find .`).
const GIT_NUL_LISTING: &str = "git-ls-files-z";

/// The first word of the listing plain `git ls-files` gives: one name a line, a name with a
/// newline, a quote or a backslash in C quotes (so one line each), but split by xargs at
/// blanks; and the index may name files that are not on disk for the edge to look at. Only a
/// `read` loop takes it (read as `find .`).
const GIT_LINE_LISTING: &str = "git-ls-files";

/// The first word of the listing plain `git ls-files` gives (the words after it: its start
/// points, `.` for none), a name a line: the edge reads the index and holds it only where
/// every name there is plain, no blank, quote, backslash, glob character or `=`, and no part
/// starts with `-` ([`crate::shell::GIT_INDEX_LISTED`]); then xargs, a `for` loop over
/// `$(...)` and a `read` loop take each name whole (red team 76: `git ls-files '*.rs' | xargs
/// wc -l` was asked).
const GIT_INDEX_LISTING: &str = "git-ls-files-index";

/// A listing as the words of the `find` that lists the same names: a `git ls-files` one as
/// `find .`, for the edge to look at the links below.
fn as_find(listing: &[Word]) -> Vec<Word> {
    match listing.first().and_then(Word::lit) {
        Some(GIT_LINE_LISTING) => vec![Word::Lit("find".into()), Word::Lit(super::BARE_NAMES.into())],
        // (`git ls-files -z PATHSPEC`: below its pathspecs, as the index listing.)
        Some(GIT_INDEX_LISTING | GIT_NUL_LISTING) => {
            let starts = listing[1..].iter().map(|w| match w.lit() {
                Some(".") => Word::Lit(super::BARE_NAMES.into()),
                _ => w.clone(),
            });
            std::iter::once(Word::Lit("find".into())).chain(starts).collect()
        }
        _ => listing.to_vec(),
    }
}

/// Whether a word is a glob written unquoted with a base gate knows (`src/*.rs`), as a
/// `for` loop's pass over it binds its variable.
fn plain_glob(d: &str) -> bool {
    tables::unquoted_glob(d) == d && d.contains(['*', '?', '[']) && tables::glob_base(d).is_some()
}

/// Whether a listing separates its names with NULs (`-print0`, `git ls-files -z`).
fn nul_listing(listing: &[Word]) -> bool {
    listing.first().and_then(Word::lit) == Some(GIT_NUL_LISTING) || listing.iter().any(|w| w.lit() == Some("-print0"))
}

/// The wrapper standing for a listing a loop's variable takes its names from (as a `find`),
/// with what may cut a name on the way: `read_nul` says whether a `read` loop reads
/// NUL-separated records (`-d ''`), `None` for a `for` loop (its words split at blanks and
/// are globbed). `None` where the loop does not read the listing's names whole (`-print0`
/// read a line at a time runs names together).
/// Whether the loop's `read` is given `IFS=` (empty) before it: it then keeps the blanks
/// around the line.
fn read_keeps_blanks(cond: &ast::CompoundList) -> bool {
    let [item] = cond.0.as_slice() else { return false };
    let [ast::Command::Simple(sc)] = item.0.first.seq.as_slice() else { return false };
    sc.prefix.as_ref().is_some_and(|p| p.0.iter().any(empty_ifs))
}

/// Whether a prefix item is `IFS=` (empty).
fn empty_ifs(it: &ast::CommandPrefixOrSuffixItem) -> bool {
    match it {
        ast::CommandPrefixOrSuffixItem::AssignmentWord(a, _) => {
            matches!(&a.name, ast::AssignmentName::VariableName(n) if n == "IFS")
                && !a.append
                && matches!(&a.value, ast::AssignmentValue::Scalar(v) if matches!(v.value.as_str(), "" | "''" | "\"\""))
        }
        _ => false,
    }
}

fn loop_listing(listing: &[Word], read_nul: Option<bool>) -> Option<Wrapper> {
    let first = listing.first().and_then(Word::lit)?;
    let git = first == GIT_NUL_LISTING || first == GIT_LINE_LISTING;
    let nul = nul_listing(listing);
    let split = match read_nul {
        Some(r) if r != nul => return None,
        Some(_) if nul || git => Split::Whole,
        Some(_) => Split::Lines,
        None if nul || git => return None,
        None => Split::Blanks,
    };
    Some(Wrapper { words: as_find(listing), kind: WrapperKind::Listing(split) })
}

/// A command that prints some of the lines it reads from its input, each unchanged (`sort`,
/// `uniq`, `head -n 5`, `tail -n +2`, `grep -v test`): a listing piped through it is still
/// one.
fn line_filter(c: &SimpleCommand) -> bool {
    record_filter(c, false)
}

/// [`line_filter`] reading and writing NUL-ended records (`sort -z`, `uniq -z`, `grep -z`):
/// what a `-print0` listing goes through whole, each record a name.
fn nul_line_filter(c: &SimpleCommand) -> bool {
    record_filter(c, true)
}

/// [`line_filter`] (`nul`: of NUL-ended records, with `-z` given, for sort, uniq and grep).
fn record_filter(c: &SimpleCommand, nul: bool) -> bool {
    if c.unknown.is_some() || !c.wrappers.is_empty() || c.open_args {
        return false;
    }
    let Some(args) = c.words.get(1..).and_then(|a| a.iter().map(Word::lit).collect::<Option<Vec<&str>>>()) else {
        return false;
    };
    // (A lone `-` is standard input, for the NUL forms as before.)
    let args: Vec<&str> = args.into_iter().filter(|a| !(nul && *a == "-")).collect();
    let z = args.iter().any(|a| a.len() > 1 && a.starts_with('-') && !a.starts_with("--") && a.contains('z'));
    if z != nul {
        return false;
    }
    let zs = if nul { "z" } else { "" };
    let letters = |a: &str, of: &str| {
        a.len() > 1 && a.starts_with('-') && a[1..].chars().all(|ch| of.contains(ch) || zs.contains(ch))
    };
    // (`head -n -1`: all but the last line.)
    let count = |n: &str| n.strip_prefix(['+', '-']).unwrap_or(n).parse::<u64>().is_ok();
    match c.program() {
        Some("sort") => args.iter().all(|a| letters(a, "bdfhiMnrsuV")),
        Some("uniq") => args.iter().all(|a| letters(a, "diu")),
        Some("head" | "tail") if !nul => match args.as_slice() {
            [] => true,
            ["-n", n] => count(n),
            [a] => a.strip_prefix("-n").or_else(|| a.strip_prefix('-')).is_some_and(count),
            _ => false,
        },
        Some("grep") => match args.split_last() {
            Some((pattern, flags)) => !pattern.starts_with('-') && flags.iter().all(|a| letters(a, "viEFwx")),
            None => false,
        },
        _ => false,
    }
}

/// The directories `git ls-files PATHSPEC...` prints names below: each pathspec named
/// plainly (no glob character, `:` magic, `..`, leading `-` or `/`) with nothing after it but
/// `/`; `None` where there is none, or one is not plain (then `.`).
fn git_ls_files_starts(rest: &[Word]) -> Option<Vec<Word>> {
    // The pathspecs: the words that are no option, and every word after `--`.
    let mut dashes = false;
    let mut specs: Vec<&str> = Vec::new();
    for w in rest {
        let a = w.lit()?;
        if !dashes && a == "--" {
            dashes = true;
        } else if dashes || !a.starts_with('-') {
            specs.push(a);
        }
    }
    // One pattern `DIR/*SUFFIX` (or `*SUFFIX`): below DIR, names ending in SUFFIX.
    if let Some((dir, filter)) = pathspec_suffix(&specs) {
        return Some(std::iter::once(Word::Lit(dir.unwrap_or(".").into())).chain(filter).collect());
    }
    let starts = specs
        .iter()
        .map(|a| {
            let a = a.trim_end_matches('/');
            let plain = !a.is_empty()
                && a != "."
                && !a.contains(['*', '?', '[', ']', '\\', ':'])
                && !a.starts_with(['-', '/', '~'])
                && !a.split('/').any(|s| s == ".." || s == ".");
            plain.then(|| Word::Lit(a.to_string()))
        })
        .collect::<Option<Vec<Word>>>()?;
    (!starts.is_empty()).then_some(starts)
}

/// The one pathspec of `specs` when it is a pattern `DIR/*SUFFIX` or `*SUFFIX` (SUFFIX with no
/// glob character or `/`, DIR plain): git's `*` matches `/` too, so it names every path below
/// DIR whose name ends in SUFFIX, as find's `-iname '*SUFFIX'` below DIR lists them (`-iname`:
/// with `--icase-pathspecs` or its variable git ignores case; red team 80: `git ls-files
/// '*.md' | xargs sed -i ...` was denied for the `.env` a walk of the whole tree found).
fn pathspec_suffix<'a>(specs: &[&'a str]) -> Option<(Option<&'a str>, Vec<Word>)> {
    let [spec] = specs else { return None };
    let star = spec.find(['*', '?', '[', ']', '\\'])?;
    let (dir, pattern) = match spec[..star].strip_suffix('/') {
        Some(dir) => (Some(dir), &spec[star..]),
        None if star == 0 => (None, *spec),
        None => return None,
    };
    let suffix = pattern.strip_prefix('*')?;
    let plain_dir = dir.is_none_or(|d| {
        !d.is_empty()
            && !d.contains(['*', '?', '[', ']', '\\', ':'])
            && !d.starts_with(['-', '/', '~'])
            && !d.split('/').any(|s| matches!(s, "" | "." | ".."))
    });
    let plain_suffix = !suffix.is_empty() && !suffix.contains(['*', '?', '[', ']', '\\', '/', '{', '}']);
    (plain_dir && plain_suffix && !spec.starts_with(':'))
        .then(|| (dir, vec![Word::Lit("-iname".into()), Word::Lit(pattern.to_string())]))
}

/// Where the names `git grep -l PATTERN -- PATHSPEC...` prints start (`rest`: its words
/// after `grep`, each a flag of its names-only table or a plain word): below each plain
/// pathspec after `--`, as typed and relative to the directory it runs in (red team 73: `git grep -l ref
/// -- docs | xargs sed -i ...` was denied for the `.env` a walk of `./` found), or below a
/// pattern's directory. Without one, or where one is `.` or a pattern with no directory
/// (`'*.md'`), the bare names below `./`.
fn git_grep_starts(rest: &[Word]) -> Option<Vec<Word>> {
    let bare = || Some(vec![Word::Lit(super::BARE_NAMES.into())]);
    let mut pattern_given = rest.iter().any(|w| w.lit() == Some("-e"));
    let (mut after_e, mut dashes) = (false, false);
    let mut specs = Vec::new();
    for w in rest {
        let Some(a) = w.lit() else { return bare() };
        if after_e {
            after_e = false;
        } else if !dashes && a == "-e" {
            after_e = true;
        } else if !dashes && a == "--" {
            dashes = true;
        } else if !dashes && a.starts_with('-') {
        } else if !pattern_given {
            pattern_given = true;
        } else if dashes {
            specs.push(a);
        } else if a.contains(['*', '?', '[']) && !a.contains([':', '^', '~', '@', '{', '}', '\\']) {
            // A glob no revision can be (no ref name holds `*`, `?` or `[`), which git takes
            // for a pathspec without `--` (red team 83: `git grep -l ref '*.md' | xargs sed
            // -i` was asked).
            specs.push(a);
        } else {
            // A word before `--` may be a revision, whose names git prints as `REV:PATH`
            // (`HEAD:docs/a.md`, where a link `HEAD:docs` may lead anywhere): no names of
            // the disk (found this session: `git grep -l root HEAD | xargs cat` read
            // `/etc/passwd` through such a link).
            return None;
        }
    }
    // (A pattern's names are below the directory before its first glob character: git's `*`
    // matches `/` too, so `docs/*.md` is any name below `docs`.)
    let start = |a: &str| {
        let a = match a.find(['*', '?', '[']) {
            Some(k) => a[..k].rsplit_once('/').map_or("", |(d, _)| d),
            None => a,
        };
        let a = a.trim_end_matches('/');
        let plain = !a.is_empty() && a != "." && !a.contains(['\\', ':', ']']) && !a.starts_with(['-', '/', '~']);
        plain.then(|| Word::Lit(a.to_string()))
    };
    if let Some((dir, filter)) = pathspec_suffix(&specs) {
        let dir = dir.map_or_else(|| Word::Lit(super::BARE_NAMES.into()), |d| Word::Lit(d.into()));
        return Some(std::iter::once(dir).chain(filter).collect());
    }
    match specs.into_iter().map(start).collect::<Option<Vec<Word>>>() {
        Some(starts) if !starts.is_empty() => Some(starts),
        _ => bare(),
    }
}

/// Whether every word of `git ARGS` holding an object name's stand-in ([`OBJECT_NAME`]) is an
/// operand of the subcommand as its option table reads it: none before the subcommand (`-C`'s
/// directory), none an option's value.
fn objects_are_operands(words: &[Word]) -> bool {
    let holds = |w: &Word| w.lit().is_some_and(|a| a.contains(OBJECT_NAME));
    let at = tables::git_subcommand_at(words.get(1..).unwrap_or_default()) + 1;
    let Some(sub) = words.get(at).and_then(Word::lit) else { return false };
    if words[..=at].iter().any(holds) {
        return false;
    }
    let Some(g) = grammar::grammar(&format!("git-{sub}")) else { return false };
    let Ok(parsed) = grammar::parse(g, &words[at + 1..]) else { return false };
    let given = words[at + 1..].iter().filter(|w| holds(w)).count();
    parsed.operands.iter().filter(|w| holds(w)).count() == given
}

/// Whether `word` is `DIR/` then xargs's replace string `r` (`ls -1 src | xargs -I{} wc -l
/// src/{}`, red team 71): DIR relative, plain, with no `..`, below a start point of the listing
/// xargs reads (`args_from`). Each name there is a path below its start points with no `..`
/// (the edge asks where a name would be cut into pieces), so `DIR/NAME` is below DIR, whose
/// links the edge looks at below that start point: as a read it is the listing's. Its writes
/// stay unknown ([`Walker::write`]).
pub(crate) fn below_a_start(word: &str, r: &str, args_from: &[Word]) -> bool {
    let Some(dir) = word.strip_suffix(r).and_then(|d| d.strip_suffix('/')) else { return false };
    let plain = !dir.is_empty()
        && !dir.starts_with(['/', '-', '~'])
        && dir.bytes().all(plain_byte)
        && !dir.contains(r)
        && !dir.split('/').any(|s| s == "..");
    plain
        && tables::find_listing_dirs(args_from).iter().any(|start| {
            start.lit().is_some_and(|s| {
                let s = s.trim_end_matches('/');
                matches!(s, "." | "") || dir == s || dir.starts_with(&format!("{s}/"))
            })
        })
}

/// The listing xargs's input is, as the words of a `find` (`args_from`): a NUL-separated one
/// only where xargs reads NUL-separated input (`-0`, `--null`).
fn xargs_listing(listing: Option<Vec<Word>>, xargs: &[Word]) -> Vec<Word> {
    if xargs.iter().skip(1).any(|w| w.lit().is_none()) {
        return Vec::new();
    }
    // xargs's options as its getopt reads them (red team 83: `--de=/`, an abbreviation of
    // `--delimiter`, split `../ws/docs/a.md` into `..`).
    let Some(Ok(p)) = super::grammar::grammar("xargs").map(|g| super::grammar::parse(g, &xargs[1..])) else {
        return Vec::new();
    };
    // Names read from a file (`-a F`, `--arg-file=F`), or split at another delimiter (`-d .`
    // splits `./.env` into `/`: red team 44): not the listing's lines.
    let newline =
        |f: &super::grammar::Found| f.value.as_ref().and_then(Word::lit).is_some_and(|v| matches!(v, "\\n" | "\n"));
    let other_input = p.opts.iter().any(|f| {
        matches!(f.opt.name, "-a" | "--arg-file") || (matches!(f.opt.name, "-d" | "--delimiter") && !newline(f))
    });
    if other_input {
        return Vec::new();
    }
    // (The last of `-0` and `-d '\n'` sets the delimiter.)
    let nul = p
        .opts
        .iter()
        .rev()
        .find(|f| matches!(f.opt.name, "-0" | "--null" | "-d" | "--delimiter"))
        .is_some_and(|f| matches!(f.opt.name, "-0" | "--null"));
    match listing {
        Some(l) if l.first().and_then(Word::lit) == Some(GIT_NUL_LISTING) && !nul => Vec::new(),
        Some(l) if l.first().and_then(Word::lit) == Some(GIT_LINE_LISTING) => Vec::new(),
        // As `find .`, for the edge to look at the links below (red team 42: `git ls-files
        // -o -z | xargs -0 cat` read `docs/pw`, a link to /etc/passwd).
        Some(l) => as_find(&l),
        None => Vec::new(),
    }
}

/// What a filter gate computes prints for `input` (lines ending in `\n`): `rev`; sed with one
/// script `s/A/B/` or `s/A/B/g` whose A and B are letters, digits, blanks, `_` and `-` (no
/// regular expression, no `&`); tr of two such sets of one length, or `-d SET`. `None` for
/// anything else.
fn filter_output(words: &[&str], input: &str) -> Option<String> {
    // (Not of a sample's digits, which the program sees as others: red team 112 A's `sed
    // s/20/-i/ <<< $x` of `x=$(date +%C)`.)
    if holds_sample(input) {
        return None;
    }
    let literal = |t: &str| t.chars().all(|c| c.is_ascii_alphanumeric() || c == ' ' || c == '_' || c == '-');
    match words {
        // (rev reads a line only up to a NUL byte, so its line end is lost and the next
        // line's text joins it: `printf 'vne\0x\nb' | rev` prints `benv`; a last line
        // without a line end gets none.)
        ["rev"] if input.is_ascii() => {
            let (mut out, mut line) = (String::new(), String::new());
            for l in input.split_inclusive('\n') {
                line.push_str(l.split_once('\0').map_or(l, |(head, _)| head));
                if let Some(full) = line.strip_suffix('\n') {
                    out.extend(full.chars().rev());
                    out.push('\n');
                    line.clear();
                }
            }
            out.extend(line.chars().rev());
            Some(out)
        }
        ["sed", script] | ["sed", "-e", script] => {
            let rest = script.strip_prefix('s')?;
            let delim = rest.chars().next()?;
            if delim.is_ascii_alphanumeric() || delim == '\\' || delim == ' ' {
                return None;
            }
            let parts: Vec<&str> = rest[delim.len_utf8()..].split(delim).collect();
            let [from, to, flags] = parts.as_slice() else { return None };
            if from.is_empty() || !literal(from) || !literal(to) || !matches!(*flags, "" | "g") {
                return None;
            }
            let all = *flags == "g";
            // (GNU sed keeps a last line's missing line end missing.)
            Some(
                input
                    .split_inclusive('\n')
                    .map(|l| {
                        let (line, end) = l.strip_suffix('\n').map_or((l, ""), |t| (t, "\n"));
                        let line = if all { line.replace(from, to) } else { line.replacen(from, to, 1) };
                        format!("{line}{end}")
                    })
                    .collect(),
            )
        }
        // (tr reads `a-z` as a range: no `-` in its sets.)
        ["tr", "-d", set] if literal(set) && !set.contains('-') => {
            Some(input.chars().filter(|c| !set.contains(*c)).collect())
        }
        ["tr", from, to]
            if literal(from) && literal(to) && from.len() == to.len() && !from.contains('-') && !to.contains('-') =>
        {
            let map: Vec<(char, char)> = from.chars().zip(to.chars()).collect();
            // (tr maps a letter given twice by its last place.)
            Some(input.chars().map(|c| map.iter().rev().find(|(f, _)| *f == c).map_or(c, |(_, t)| *t)).collect())
        }
        _ => None,
    }
}

/// The words printf or echo prints, a name each, as the `find` of the same names: below the
/// directories the globs walk, or the files named (red team 42).
fn printed_listing(words: &[Word]) -> Option<Vec<Word>> {
    let mut dirs = vec![Word::Lit("find".into())];
    for w in words {
        let at = match w {
            Word::Lit(l) => l.clone(),
            Word::Dyn(d) => tables::glob_base(d)?,
        };
        // (xargs would split a word with a blank or a quote: `'a /etc/passwd'`.)
        if at.is_empty()
            || at.starts_with(['-', '(', '!'])
            || at.contains(|ch: char| ch.is_whitespace() || "'\"\\".contains(ch))
        {
            return None;
        }
        dirs.push(Word::Lit(at));
    }
    Some(dirs)
}

/// find's `-name GLOB` (`-iname` where `fold`) for a listing that keeps only the files whose
/// name matches the one glob given (grep's `--include`, rg's `-g`); none for several (any of
/// them may match), a glob with a `/` (matched against more than the name) or an empty one.
fn one_name_filter(globs: &[(String, bool)]) -> Vec<Word> {
    match globs {
        [(g, fold)] if !g.is_empty() && !g.contains('/') => {
            vec![Word::Lit(if *fold { "-iname" } else { "-name" }.into()), Word::Lit(g.clone())]
        }
        _ => Vec::new(),
    }
}

/// Whether a listing is echo's, its names on one line ([`listing_of`]): only xargs and a
/// `for` loop split it into names.
fn echo_listing(listing: &[Word]) -> bool {
    listing.first().and_then(Word::lit) == Some("find")
        && listing.len() > ECHO_MARK.len()
        && listing[listing.len() - ECHO_MARK.len()..].iter().map(Word::lit).eq(ECHO_MARK.iter().map(|m| Some(*m)))
}

/// What ends the `find` an echo's listing is read as: tests that change nothing (`-true
/// -true`), which no find gate reads from a text ends with, so a `read` loop can tell it.
const ECHO_MARK: &[&str] = &["-true", "-true", "-true"];

fn listing_of(c: &SimpleCommand) -> Option<Vec<Word>> {
    if c.unknown.is_some() {
        return None;
    }
    let find_of = |dirs: Vec<Word>| Some(std::iter::once(Word::Lit("find".into())).chain(dirs).collect());
    // (grep and rg print the names of files only, never of a directory: red team 64.)
    let files_of = |dirs: Vec<Word>| {
        let typed = [Word::Lit("-type".into()), Word::Lit("f".into())];
        Some(std::iter::once(Word::Lit("find".into())).chain(dirs).chain(typed).collect::<Vec<Word>>())
    };
    match c.program() {
        Some("find") => {}
        // `git ls-files` lists the tracked names below the directory it runs in (red team 41:
        // `git ls-files -z '*.rs' | xargs -0 wc -l` was asked): as `find .`, for plain
        // pathspecs and options that print names only.
        Some("git") => {
            const NAMES: &[&str] = &[
                "-z",
                "-c",
                "--cached",
                "-m",
                "--modified",
                "-o",
                "--others",
                "-d",
                "--deleted",
                "-i",
                "--ignored",
                "--exclude-standard",
                "--directory",
                "--no-empty-directory",
                "--",
                "--error-unmatch",
                "--deduplicate",
            ];
            // (git grep's flags bundled as parse-options reads them: `-lz` is `-l -z`, red team
            // 76.)
            let unbundled: Vec<Word> = match c.words.get(1).and_then(Word::lit) {
                Some("grep") => c
                    .words
                    .get(2..)?
                    .iter()
                    .flat_map(|w| match w.lit() {
                        Some(a)
                            if a.len() > 2
                                && a.starts_with('-')
                                && !a.starts_with("--")
                                && a[1..].chars().all(|l| "lLziwEFGPI".contains(l)) =>
                        {
                            a[1..].chars().map(|l| Word::Lit(format!("-{l}"))).collect()
                        }
                        _ => vec![w.clone()],
                    })
                    .collect(),
                _ => c.words.get(2..)?.to_vec(),
            };
            let rest = unbundled.as_slice();
            let plain = |w: &Word| {
                w.lit().is_some_and(|a| {
                    NAMES.contains(&a)
                        || (!a.starts_with(['-', ':', '/', '~'])
                            && !a.split('/').any(|s| s == "..")
                            && !a.contains('\n'))
                })
            };
            // (Only NUL-separated, `-z`, for xargs: the index may hold a name with a blank that
            // is not on disk, where the check of names xargs splits looks; see `xargs_listing`.)
            // `git diff --name-only [--cached] [REV...]` prints changed names from the top of
            // the repository, below the directory it runs in when that is the top, and only
            // inside it otherwise (git's names never climb; red team 43).
            let diff_names = c.words.get(1).and_then(Word::lit) == Some("diff")
                && rest.iter().any(|w| w.lit() == Some("--name-only"))
                && rest.iter().all(|w| {
                    matches!(w.lit(), Some("--name-only" | "--cached" | "--staged" | "-z" | "--"))
                        || (plain(w) && w.lit().is_some_and(|a| !a.starts_with('-')))
                });
            // `git grep -l PATTERN [PATHSPEC...]` and `git ls-tree --name-only [-r] TREE`: tracked
            // names below the directory, as ls-files prints them (red team 56: `git grep -l
            // version | xargs sed -i ...` was only asked where it rewrites Cargo.toml).
            let sub = c.words.get(1).and_then(Word::lit);
            let names_only = |flags: &[&str], extra: &[&str]| {
                rest.iter().any(|w| w.lit().is_some_and(|a| flags.contains(&a)))
                    && rest.iter().all(|w| {
                        w.lit().is_some_and(|a| flags.contains(&a) || extra.contains(&a) || a == "-z") || plain(w)
                    })
            };
            let grep_names = sub == Some("grep")
                && names_only(
                    &["-l", "--name-only", "--files-with-matches", "-L", "--files-without-match"],
                    &[
                        "-i",
                        "--ignore-case",
                        "-w",
                        "--word-regexp",
                        "-E",
                        "-F",
                        "-G",
                        "-P",
                        "-e",
                        "--",
                        "--cached",
                        "-I",
                    ],
                );
            let tree_names = sub == Some("ls-tree") && names_only(&["--name-only"], &["-r", "-t", "-d", "--"]);
            let listed = (sub == Some("ls-files") && rest.iter().all(plain) || diff_names || grep_names || tree_names)
                && c.wrappers.is_empty();
            // `git grep -l` reads the files of the working tree (not `--cached`): what it
            // prints is on disk, below the directory it runs in, as `grep -rl` prints (red team
            // 71: `git grep -l fn | xargs sed -n 1,3p` was asked).
            let z = rest.iter().any(|w| w.lit() == Some("-z"));
            // (With a revision, `HEAD:docs/a.md`, its names are a tree's, not the disk's, and
            // a link `HEAD:docs` may lead anywhere: read as `git ls-files`' below, whose
            // links the edge looks at.)
            let starts = git_grep_starts(rest);
            if let Some(starts) = starts
                .filter(|_| grep_names && c.wrappers.is_empty() && !rest.iter().any(|w| w.lit() == Some("--cached")))
            {
                // (git's names are the index's, which pass through a link to a directory that
                // replaced a tracked one (`sub/passwd` where `sub` leads to `/etc`, found this
                // session): as `find -L`, whose walk follows links.)
                let mut l = files_of(starts)?;
                l.insert(1, Word::Lit("-L".into()));
                if z {
                    l.push(Word::Lit("-print0".into()));
                }
                return Some(l);
            }
            // `git diff --name-only [-- PATHSPEC...]` (the work tree against the index, no
            // revision, not `--cached`): names of the index too, from the top of the repository
            // (below the directory it runs in, whatever the top: none climbs).
            let index_diff = diff_names
                && !rest.iter().any(|w| matches!(w.lit(), Some("--cached" | "--staged")))
                && rest
                    .iter()
                    .take_while(|w| w.lit() != Some("--"))
                    .all(|w| w.lit().is_some_and(|a| a.starts_with('-')));
            if index_diff && c.wrappers.is_empty() && !z {
                return Some(vec![Word::Lit(GIT_INDEX_LISTING.into()), Word::Lit(".".into())]);
            }
            // (Plain `git ls-files`: the index's names, below its pathspecs where they are
            // directories named plainly.)
            // (With `-z`, the names on disk below them: one in the index only is not there to
            // be read or written, and NULs end every name whole; red team 80: `git ls-files -z
            // docs | xargs -0 sed -i ...` was denied for the `.env` a walk of `./` found.)
            if sub == Some("ls-files") && listed {
                let starts = git_ls_files_starts(rest).unwrap_or_else(|| vec![Word::Lit(".".into())]);
                let first = if z { GIT_NUL_LISTING } else { GIT_INDEX_LISTING };
                return Some(std::iter::once(Word::Lit(first.into())).chain(starts).collect());
            }
            let first = match z {
                true => GIT_NUL_LISTING,
                false => GIT_LINE_LISTING,
            };
            return listed.then(|| vec![Word::Lit(first.into()), Word::Lit(".".into())]);
        }
        // `printf '%s\n' src/*.rs docs/a.md` prints its words a line each: names below the
        // directories the globs walk, or the files named (red team 42).
        // `echo src/*.rs` prints its words on one line, which xargs splits at blanks as it
        // does a name a line (red teams 69, 71: `echo src/*.rs | xargs -n1 wc -l` was asked):
        // as printf's, marked ([`ECHO_MARK`]) for a `read` loop or `mapfile`, which would take the
        // line whole ([`echo_listing`]). (No option and no backslash: `-e`, `xpg_echo`.)
        Some("echo") => {
            let words = c.words.get(1..)?;
            // (A first word that may be `-e`: a literal option, or a glob matching such a name.)
            if words.first().is_none_or(|w| w.display().starts_with(['-', '*', '?', '[']))
                || words.iter().any(|w| w.display().contains('\\'))
            {
                return None;
            }
            let mut l = printed_listing(words)?;
            l.extend(ECHO_MARK.iter().map(|m| Word::Lit((*m).into())));
            return Some(l);
        }
        Some("printf") => {
            let (format, words) = c.words.get(1..)?.split_first()?;
            // (`%s\0` for `xargs -0`: red team 49 D; `read` drops the NULs, xargs without
            // `-0` splits as it does find's names, which the edge checks.)
            if !matches!(format.lit(), Some("%s\\n" | "%s\n" | "%s\\0")) || words.is_empty() {
                return None;
            }
            return printed_listing(words);
        }
        // `ls [OPTION...] [FILE...]` piped prints a name a line: each FILE as given (a glob's
        // names), and for a directory its entries' bare names, with a `DIR:` header where
        // there are several: as `find . FILE...`, since a bare name (no `/`, and no `.` or
        // `..` without `-a`) is used from the directory the command runs in (red team 71:
        // `ls docs/*.md | xargs wc -l` was asked). Only options that change no more than
        // which names and their order; `-l`, `-F`, `-Q` and the like print other text (`-l`'s
        // `link -> /etc/passwd`).
        Some("ls") => {
            const ORDER: &[&str] =
                &["-1", "-t", "-r", "-S", "-X", "-v", "-U", "-A", "-d", "-c", "-u", "--color=never", "--reverse"];
            let mut dirs = vec![Word::Lit(super::BARE_NAMES.into())];
            // (`-d`: the operands themselves, never a directory's entries, so no bare names
            // where there is one: `ls -d docs/*.md | xargs sed -i ...`.)
            let mut itself = false;
            for w in c.words.get(1..)? {
                let at = match w {
                    Word::Lit(a) if a.starts_with('-') => {
                        let known = ORDER.contains(&a.as_str())
                            || (!a.starts_with("--") && a[1..].chars().all(|l| "1trSXvUAdcu".contains(l)));
                        if known && a.len() > 1 {
                            itself |= !a.starts_with("--") && a.contains('d');
                            continue;
                        }
                        return None;
                    }
                    Word::Lit(a) => a.clone(),
                    Word::Dyn(d) => tables::glob_base(d)?,
                };
                if at.is_empty() || at.contains(|ch: char| ch.is_whitespace() || "'\"\\".contains(ch)) {
                    return None;
                }
                dirs.push(Word::Lit(at));
            }
            if itself && dirs.len() > 1 {
                dirs.remove(0);
            }
            return find_of(dirs);
        }
        // `rg -l PATTERN [PATH...]` as `grep -rl`, `rg --files [PATH...]` as `find`.
        Some("rg") => {
            let gr = super::grammar::grammar("rg")?;
            let p = super::grammar::parse(gr, c.words.get(1..)?).ok()?;
            let has = |names: &[&str]| p.opts.iter().any(|f| names.contains(&f.opt.name));
            let files_only = has(&["--files"]);
            if !(files_only || has(&["-l", "--files-with-matches", "--files-without-match"]))
                || has(&[
                    "-c",
                    "--count",
                    "--count-matches",
                    "--json",
                    "-o",
                    "--only-matching",
                    "--replace",
                    "-r",
                    "--pre",
                    "-L",
                    "--follow",
                ])
            {
                return None;
            }
            let pattern_given = files_only || has(&["-e", "--regexp", "-f", "--file"]);
            let paths: Vec<Word> = p.operands.iter().skip(usize::from(!pattern_given)).cloned().collect();
            if paths.iter().any(|w| w.lit().is_none_or(|a| a.starts_with('-'))) {
                return None;
            }
            let mut l = files_of(if paths.is_empty() { vec![Word::Lit(super::BARE_NAMES.into())] } else { paths })?;
            // One glob that names files (`-g '*.md'`; `!` ones only leave names out), as
            // find's `-name` (red team 76: `rg --files -g '*.md' | xargs sed -i ...` was asked).
            // (Read as the policy reads them, `tables::name_globs`: red team 83's `-g
            // '*.{md,toml}'` lists Cargo.toml.)
            if let Some((true, globs)) = tables::name_globs("rg", &c.words[1..]) {
                l.extend(one_name_filter(&globs));
            }
            // `-0`: each name ends in a NUL, as find's `-print0` (red team 76: `rg -l0 ref docs
            // | xargs -0 sed -i ...` was asked).
            if has(&["-0", "--null"]) {
                l.push(Word::Lit("-print0".into()));
            }
            return Some(l);
        }
        // `grep -l PATTERN DIR...` prints the names of files it read, below its operands.
        Some(g @ ("grep" | "egrep" | "fgrep")) => {
            let gr = super::grammar::grammar(g)?;
            let p = super::grammar::parse(gr, c.words.get(1..)?).ok()?;
            let has = |names: &[&str]| p.opts.iter().any(|f| names.contains(&f.opt.name));
            if !has(&["-l", "--files-with-matches", "-L", "--files-without-match"])
                || has(&["-c", "--count", "--label", "-o", "--only-matching"])
            {
                return None;
            }
            // `-Z`: each name ends in a NUL, as find's `-print0` (red team 63: `grep -rlZ fn
            // src | xargs -0 wc -l` was asked).
            let nul = has(&["-Z", "--null"]);
            let pattern_given = has(&["-e", "--regexp", "-f", "--file"]);
            // (A glob's names are below its literal directory: `grep -l x src/*.rs`, red team
            // 69H.)
            let files: Vec<Word> = p
                .operands
                .iter()
                .skip(usize::from(!pattern_given))
                .map(|w| match w {
                    Word::Lit(_) => Some(w.clone()),
                    Word::Dyn(d) => tables::glob_base(d).map(Word::Lit),
                })
                .collect::<Option<_>>()?;
            if files.iter().any(|w| w.lit().is_none_or(|a| a.is_empty() || a.starts_with('-'))) {
                return None;
            }
            let listing = match files.is_empty() {
                true if has(&["-r", "--recursive", "-R", "--dereference-recursive"]) => {
                    files_of(vec![Word::Lit(".".into())])
                }
                true => None,
                false => files_of(files),
            };
            // One `--include` (its files only; `--exclude` only leaves names out), as find's
            // `-name` (red team 76: `grep -rl ref --include='*.md' . | xargs sed -i ...` was
            // asked); only where `--include` comes before any `--exclude`: a name neither
            // matches is listed unless the first of them is `--include` (red team 83:
            // `--exclude=zzz --include='*.md'` listed Cargo.toml).
            let includes = tables::name_globs(g, &c.words[1..]);
            return listing.map(|mut l| {
                if let Some((true, includes)) = includes {
                    l.extend(one_name_filter(&includes));
                }
                if nul {
                    l.push(Word::Lit("-print0".into()));
                }
                l
            });
        }
        _ => return None,
    }
    let prints_other = c.words.iter().any(|w| {
        w.lit().is_none_or(|s| {
            matches!(s, "-printf" | "-fprintf" | "-ls" | "-fls" | "-exec" | "-execdir" | "-ok" | "-okdir" | "-fprint")
        })
    });
    (!prints_other).then(|| c.words.clone())
}

/// What `date +FORMAT` prints, one value of its shape: literal text as it is, each numeric
/// conversion a fixed value of its width (`%F` `2026-01-01`, `%s` `1700000000`): digits and
/// `-`, `:`, `+`, never a blank, a glob or a `/` (red team 63's dated names). `None` for a
/// conversion that prints words or blanks (`%c`, `%A`, `%e`), a flag or width, or other text.
/// Whether matching `pattern` against `value` may turn on digits gate only knows a sample of
/// (date's [`date_sample`], git's [`OBJECT_NAME`]): a value with a digit and a pattern with a
/// hexadecimal one. (Red team 75: `x=$(date +%C); ls "${x/20//etc}"` lists /etc in this
/// century, where the sample is `26`.)
fn sampled_match(value: &str, pattern: &str) -> bool {
    value.chars().any(|c| c.is_ascii_digit() || is_sample_digit(c)) && pattern.bytes().any(|b| b.is_ascii_hexdigit())
}

/// A digit of a sample ([`date_sample`]): FULLWIDTH DIGIT ZERO to NINE, which no computation
/// gate makes reads as a digit (a substring, an index, a `shift` count, arithmetic: red team
/// 111 C's `x=$(date +%C); i=${x:1}; "${a[i]}"` picked the item the sample `26` gave, where
/// this century's `20` gives another) and which a path holds as plain text.
fn is_sample_digit(c: char) -> bool {
    ('\u{ff10}'..='\u{ff19}').contains(&c)
}

/// Whether a text holds a sample's digit ([`is_sample_digit`]).
fn holds_sample(text: &str) -> bool {
    text.chars().any(is_sample_digit)
}

/// A sample's digits of `ascii`'s ([`is_sample_digit`]).
fn sample_digits(ascii: &str) -> String {
    ascii.chars().map(|c| c.to_digit(10).and_then(|d| char::from_u32(0xff10 + d)).unwrap_or(c)).collect()
}

/// Whether a value is a sample of one integer that arithmetic reads as decimal: sample
/// digits only, one, or several without a leading zero (`%s`, `%Y` print no `0` first;
/// `%d`'s `08` is a bad octal number, and its sample starts with a zero too).
fn sample_integer(v: &str) -> bool {
    !v.is_empty() && v.chars().all(is_sample_digit) && (v.chars().count() == 1 || !v.starts_with('\u{ff10}'))
}

fn date_sample(format: &str) -> Option<String> {
    let sample = date_sample_ascii(format)?;
    Some(sample_digits(&sample))
}

/// [`date_sample`] in ASCII digits: `%w` and the two-digit fields whose first digit may be
/// `0` start with one.
fn date_sample_ascii(format: &str) -> Option<String> {
    let mut out = String::new();
    let mut chars = format.chars();
    while let Some(c) = chars.next() {
        match c {
            '%' => out.push_str(match chars.next()? {
                'Y' | 'G' => "2026",
                'm' | 'd' | 'H' | 'M' | 'S' | 'V' | 'U' | 'W' => "01",
                'y' | 'g' => "06",
                'C' => "20",
                'F' => "2026-01-01",
                'T' => "01:01:01",
                'R' => "01:01",
                's' => "1700000000",
                'j' => "001",
                'u' => "1",
                'w' => "0",
                'N' => "000000001",
                'z' => "+0000",
                '%' => "%",
                _ => return None,
            }),
            c if c.is_ascii_alphanumeric() || "_.,:+=@-".contains(c) => out.push(c),
            _ => return None,
        }
    }
    Some(out)
}

/// `text` without the text of its command substitutions (`$(...)`, balanced, and backquoted):
/// what the shell itself reads of it. With `arithmetic`, `$((...))` goes too; without, its
/// text stays (an assignment there counts: `$((x=5))`) and only the substitutions in it go.
/// Unbalanced text is kept whole.
fn without_substitutions(text: &str, arithmetic: bool) -> String {
    let b = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'$' && b.get(i + 1) == Some(&b'(') && (arithmetic || b.get(i + 2) != Some(&b'(')) {
            let Some(end) = super::words::paren_end(b, i + 1) else { return text.to_string() };
            out.push_str("$()");
            i = end;
            continue;
        }
        if b[i] == b'`' {
            match text[i + 1..].find('`') {
                Some(k) => {
                    out.push_str("``");
                    i += k + 2;
                    continue;
                }
                None => return text.to_string(),
            }
        }
        let ch = text[i..].chars().next().unwrap_or(' ');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

/// Whether arithmetic text can never fail once the names it reads hold numbers: no division
/// or remainder (by zero), no power (a negative exponent), no constant with a leading zero (an
/// octal `08`) or a base (`2#9`), no assignment to a name bash may refuse (`UID=1`), and no
/// subscript.
fn arithmetic_cannot_fail(expr: &str) -> bool {
    if expr.contains(['/', '%', '#', '[', '$', '`', '\'', '"']) || expr.contains("**") {
        return false;
    }
    let b = expr.as_bytes();
    let leading_zero = (0..b.len()).any(|i| {
        b[i] == b'0'
            && b.get(i + 1).is_some_and(|c| c.is_ascii_alphanumeric())
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
    });
    let readonly = identifiers(expr).iter().any(|n| NUMERIC_SPECIALS.contains(&n.as_str()));
    !leading_zero && !readonly
}

/// What `seq [FIRST [INCREMENT]] LAST` prints, for decimal integers (no leading `0`, no
/// option) and at most [`MAX_PASSES`] numbers; `None` otherwise.
fn seq_numbers(inner: &str) -> Option<Vec<String>> {
    let words: Vec<&str> = inner.split(' ').collect();
    // `seq -w`: each as wide as the widest of FIRST and LAST, padded with zeros (red team 66).
    let (equal, words) = match words.as_slice() {
        ["seq", "-w" | "--equal-width", rest @ ..] => (true, [&["seq"][..], rest].concat()),
        _ => (false, words),
    };
    let number = |t: &str| -> Option<i64> {
        let digits = t.strip_prefix('-').unwrap_or(t);
        let plain = !digits.is_empty() && digits.len() < 10 && digits.bytes().all(|b| b.is_ascii_digit());
        (plain && (digits == "0" || !digits.starts_with('0')) && !t.starts_with("-")).then(|| t.parse().ok()).flatten()
    };
    let (first, step, last) = match words.as_slice() {
        ["seq", l] => (1, 1, number(l)?),
        ["seq", f, l] => (number(f)?, 1, number(l)?),
        ["seq", f, s, l] => (number(f)?, number(s)?, number(l)?),
        _ => return None,
    };
    if step == 0 || last.checked_sub(first)? / step >= MAX_PASSES as i64 {
        return None;
    }
    let width = if equal { first.to_string().len().max(last.to_string().len()) } else { 0 };
    Some((0..).map(|k| first + k * step).take_while(|v| *v <= last).map(|v| format!("{v:0width$}")).collect())
}

/// Whether a word is literal, one name of a glob (`"$f"` in a loop over one), or a glob's
/// names (`src/*.rs`): words gate can hold as positional parameters.
fn glob_or_literal(w: &Word) -> bool {
    match w {
        Word::Lit(_) => true,
        Word::Dyn(d) if d.starts_with('"') => tables::glob_base(tables::unquoted_glob(d)).is_some(),
        // (Not `$PWD/*`: read again where the directory may differ.)
        Word::Dyn(d) => !d.contains(['$', '`']) && tables::glob_base(d).is_some(),
    }
}

/// Whether a positional parameter's word is surely one word: literal, or quoted whole without
/// `@` (`"$x"`, one name of a glob `"src/*.rs"`; not `"$@"`, `"${a[@]}"`, unquoted `src/*.rs`).
fn one_param_word(w: &Word) -> bool {
    match w {
        Word::Lit(_) => true,
        Word::Dyn(d) => tables::quoted_one_word(d),
    }
}

/// The numbers a counted `for ((NAME=A; NAME<B; NAME++))` loop passes over: its counter and
/// those values (at most [`MAX_PASSES`]), for decimal literals, `<`, `<=`, `>`, `>=` or `!=`, and `++`,
/// `--`, `+=K`, `-=K` or `NAME=NAME+K`; `None` for any other loop.
fn counted_loop(
    init: &Option<String>,
    cond: &Option<String>,
    update: &Option<String>,
) -> Option<(String, Vec<String>)> {
    let squeeze = |t: &Option<String>| -> Option<String> { Some(t.as_ref()?.chars().filter(|c| *c != ' ').collect()) };
    let (init, cond, update) = (squeeze(init)?, squeeze(cond)?, squeeze(update)?);
    let literal = |t: &str| -> Option<i64> {
        let plain =
            !t.is_empty() && t.len() < 10 && t.bytes().all(|b| b.is_ascii_digit()) && (t == "0" || !t.starts_with('0'));
        plain.then(|| t.parse().ok()).flatten()
    };
    let (name, start) = init.split_once('=')?;
    if !is_identifier(name) {
        return None;
    }
    let start = literal(start)?;
    let rest = cond.strip_prefix(name)?;
    let (op, bound) = ["<=", ">=", "!=", "<", ">"].iter().find_map(|op| Some((*op, rest.strip_prefix(op)?)))?;
    let bound = literal(bound)?;
    let step = match update.as_str() {
        u if u == format!("{name}++") || u == format!("++{name}") => 1,
        u if u == format!("{name}--") || u == format!("--{name}") => -1,
        u => {
            let by = |t: &str| literal(t).filter(|k| *k > 0);
            if let Some(k) = u.strip_prefix(name).and_then(|r| r.strip_prefix("+=")) {
                by(k)?
            } else if let Some(k) = u.strip_prefix(name).and_then(|r| r.strip_prefix("-=")) {
                -by(k)?
            } else {
                by(u.strip_prefix(&format!("{name}={name}+"))?)?
            }
        }
    };
    let holds = |v: i64| match op {
        "<=" => v <= bound,
        ">=" => v >= bound,
        "!=" => v != bound,
        "<" => v < bound,
        _ => v > bound,
    };
    let mut values = Vec::new();
    let mut v = start;
    while holds(v) {
        if values.len() == MAX_PASSES {
            return None;
        }
        values.push(v.to_string());
        v = v.checked_add(step)?;
    }
    Some((name.to_string(), values))
}

/// A token of the arithmetic [`Walker::arithmetic_value`] computes.
#[derive(Clone, Copy)]
enum Arith {
    Number(i64),
    Op(u8),
}

/// `term (('+'|'-') term)*`.
fn arith_sum(t: &[Arith], at: &mut usize) -> Option<i64> {
    let mut v = arith_product(t, at)?;
    while let Some(Arith::Op(op @ (b'+' | b'-'))) = t.get(*at) {
        *at += 1;
        let r = arith_product(t, at)?;
        v = if *op == b'+' { v.checked_add(r)? } else { v.checked_sub(r)? };
    }
    Some(v)
}

/// `unary (('*'|'/'|'%') unary)*`; a division by zero is no value (bash fails there).
fn arith_product(t: &[Arith], at: &mut usize) -> Option<i64> {
    let mut v = arith_unary(t, at)?;
    while let Some(Arith::Op(op @ (b'*' | b'/' | b'%'))) = t.get(*at) {
        *at += 1;
        let r = arith_unary(t, at)?;
        v = match op {
            b'*' => v.checked_mul(r)?,
            b'/' => v.checked_div(r)?,
            _ => v.checked_rem(r)?,
        };
    }
    Some(v)
}

/// `('+'|'-') unary | number | '(' sum ')'`.
fn arith_unary(t: &[Arith], at: &mut usize) -> Option<i64> {
    let token = *t.get(*at)?;
    *at += 1;
    match token {
        Arith::Number(n) => Some(n),
        Arith::Op(b'-') => arith_unary(t, at)?.checked_neg(),
        Arith::Op(b'+') => arith_unary(t, at),
        Arith::Op(b'(') => {
            let v = arith_sum(t, at)?;
            matches!(t.get(*at), Some(Arith::Op(b')'))).then(|| *at += 1)?;
            Some(v)
        }
        Arith::Op(_) => None,
    }
}

/// git's log family reads `--decorate-refs X`, `--decorate-refs-exclude X` and `-L X` with its
/// own option parser before it looks for `--`, so X may be `--` itself and the word after it
/// an option (red team 93: `git log --decorate-refs -- --output=Cargo.toml` writes
/// Cargo.toml): each such value glued to its option, as git reads it, before anything looks
/// for git's `--`.
fn git_values_glued(words: Vec<Word>) -> Vec<Word> {
    if words.first().and_then(Word::lit).map(program_name) != Some("git") {
        return words;
    }
    let at = 1 + tables::git_subcommand_at(&words[1..]);
    if !matches!(words.get(at).and_then(Word::lit), Some("log" | "show" | "whatchanged" | "reflog")) {
        return words;
    }
    let mut out: Vec<Word> = words[..=at].to_vec();
    let mut rest = words[at + 1..].iter();
    while let Some(w) = rest.next() {
        match w.lit() {
            Some("--") => {
                out.push(w.clone());
                out.extend(rest.cloned());
                break;
            }
            Some(o @ ("--decorate-refs" | "--decorate-refs-exclude" | "-L")) => {
                let glue = if o == "-L" { "" } else { "=" };
                out.push(match rest.next() {
                    Some(Word::Lit(v)) => Word::Lit(format!("{o}{glue}{v}")),
                    Some(Word::Dyn(v)) => Word::Dyn(format!("{o}{glue}{v}")),
                    None => w.clone(),
                });
            }
            _ => out.push(w.clone()),
        }
    }
    out
}

/// Whether a redirection can fail, so that bash skips its command: anything but `/dev/null`,
/// the standard descriptors (unless the text closed one), here-documents and here-strings;
/// in the restricted shell, any redirection but a here-document or here-string.
fn may_fail(io: &ast::IoRedirect, std_closed: bool, restricted: bool) -> bool {
    use ast::IoFileRedirectTarget as T;
    if restricted && !matches!(io, ast::IoRedirect::HereDocument(..) | ast::IoRedirect::HereString(..)) {
        return true;
    }
    let null = |w: &ast::Word| w.value == "/dev/null";
    match io {
        ast::IoRedirect::File(_, _, T::Filename(w)) => !null(w),
        ast::IoRedirect::File(_, _, T::Fd(n)) => std_closed || !(0..=2).contains(n),
        ast::IoRedirect::File(_, _, T::Duplicate(w)) => {
            w.value != "-" && (std_closed || !matches!(w.value.as_str(), "0" | "1" | "2"))
        }
        ast::IoRedirect::File(_, _, T::ProcessSubstitution(..)) => true,
        ast::IoRedirect::HereDocument(..) | ast::IoRedirect::HereString(..) => false,
        ast::IoRedirect::OutputAndError(w, _) => !null(w),
    }
}

/// The command of a `bind -x` spec: after a double-quoted key sequence (or the text up to the
/// first `:`), the blanks and colons bash skips. None when there is no `:` where one must be.
fn bound_command(spec: &str) -> Option<&str> {
    let s = spec.trim_start();
    let rest = if let Some(q) = s.strip_prefix('"') {
        let mut escaped = false;
        let end = q.char_indices().find_map(|(i, c)| {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                return Some(i);
            }
            None
        })?;
        let after = q[end + 1..].trim_start();
        after.starts_with(':').then_some(after)?
    } else {
        &s[s.find(':')?..]
    };
    Some(rest.trim_start_matches(|c: char| c == ':' || c.is_whitespace()))
}

/// A compound array element `[KEY]=VALUE` (or `[KEY]+=VALUE`) split as bash splits it: KEY
/// ends at the `]` that closes the first `[`, nested brackets, quotes and backslashes skipped.
/// None when the text is no such element.
fn keyed_element(text: &str) -> Option<(&str, &str)> {
    let b = text.as_bytes();
    if b.first() != Some(&b'[') {
        return None;
    }
    let (mut depth, mut i) = (0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'\'' => i += b[i + 1..].iter().position(|&c| c == b'\'')? + 1,
            b'"' => {
                let mut j = i + 1;
                while j < b.len() && b[j] != b'"' {
                    j += if b[j] == b'\\' { 2 } else { 1 };
                }
                if j >= b.len() {
                    return None;
                }
                i = j;
            }
            b'[' => depth += 1,
            b']' => {
                depth -= 1;
                if depth == 0 {
                    let rest = &text[i + 1..];
                    let value = rest.strip_prefix('=').or_else(|| rest.strip_prefix("+="))?;
                    return Some((&text[1..i], value));
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether an assignment's value, unknown to gate, can only be text the command did not write:
/// plain literal text, arithmetic (`$((...))`), or one command substitution whose output is
/// such ([`plain_output`]), quoted or not.
fn plain_text(value: &str) -> bool {
    if value.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.,:@%+=/".contains(&b)) {
        return true;
    }
    let v = value.strip_prefix('"').and_then(|v| v.strip_suffix('"')).unwrap_or(value);
    if let Some(inner) = v.strip_prefix("$((").and_then(|r| r.strip_suffix("))")) {
        return !inner.contains(['$', '`', '(']);
    }
    v.strip_prefix("$(")
        .and_then(|r| r.strip_suffix(')'))
        .is_some_and(|inner| !inner.starts_with('(') && plain_output(inner))
}

/// `text` with each `$(...)` that prints a count or nothing ([`numeric_output`],
/// [`counts_one_input`]) written `0`; `None` if any other substitution (or a backquote) is
/// left.
fn numbers_substituted(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find("$(") {
        out.push_str(&rest[..at]);
        let after = &rest[at + 2..];
        if let Some(arith) = after.strip_prefix('(') {
            // `$((`: arithmetic, read by the caller.
            out.push_str("$((");
            rest = arith;
            continue;
        }
        let end = after.find(')')?;
        let inner = &after[..end];
        if inner.contains('(') || !(numeric_output(inner) || counts_one_input(inner)) {
            return None;
        }
        out.push('0');
        rest = &after[end + 1..];
    }
    out.push_str(rest);
    (!out.contains('`')).then_some(out)
}

/// Whether a command substitution prints only numbers: `seq`, `nproc`, `wc -l` (or `-c`,
/// `-w`, `-m`) of its input, `git rev-list --count`.
/// `wc -l < FILE` (or `-c`, `-w`, `-m`): one count, of one input, never a name.
fn counts_one_input(inner: &str) -> bool {
    if quotes_hide_an_option(inner) {
        return false;
    }
    let Some((cmd, target)) = inner.split_once('<') else { return false };
    let words: Vec<&str> = cmd.split_whitespace().collect();
    // (Or `grep -c PATTERN < FILE`: one count of its input; red team 77.)
    let grep_count = match words.as_slice() {
        ["grep", flags, pattern] => {
            flags.len() > 1
                && flags.starts_with('-')
                && flags[1..].contains('c')
                && flags[1..].chars().all(|c| "civwxEFG".contains(c))
                && !pattern.starts_with('-')
                && pattern.chars().all(|c| c.is_ascii_alphanumeric() || "_.".contains(c))
        }
        _ => false,
    };
    (matches!(words.as_slice(), ["wc", "-l" | "-c" | "-w" | "-m"]) || grep_count)
        && !target.trim().is_empty()
        && !target.contains(['<', '>', '|', ';', '&', '`', '(', ')', '\n'])
        && !target.trim().contains(char::is_whitespace)
}

/// Whether a word of a command substitution's text, read here as written, may be an option
/// once bash has expanded it: its quotes gone (`grep -c '-r' docs`, `grep -c x
/// "--recursive"`, `wc -l \\--help`: red team 109, where the recognisers below took it for a
/// pattern or a file and grep printed `NAME:COUNT` lines), or a brace expansion or a glob
/// outside quotes (`grep -c {-r,x} docs`, `[-]r`: red team 110). `${...}` is no brace.
fn quotes_hide_an_option(inner: &str) -> bool {
    let mut quote: Option<char> = None;
    // Per word: its first character as written and once unquoted.
    let mut first: Option<(char, Option<char>)> = None;
    let mut prev = ' ';
    // The word before was `<`: this one is a file, never an option.
    let mut redirected = false;
    let mut word = String::new();
    let mut chars = inner.chars().peekable();
    let hidden = |first: Option<(char, Option<char>)>| first.is_some_and(|(raw, bare)| raw != '-' && bare == Some('-'));
    while let Some(c) = chars.next() {
        if quote.is_none() && c.is_whitespace() {
            if hidden(first.take()) {
                return true;
            }
            if !word.is_empty() {
                redirected = word == "<";
                word.clear();
            }
            prev = c;
            continue;
        }
        word.push(c);
        let raw = first.get_or_insert((c, None));
        match quote {
            Some(q) if c == q => quote = None,
            // (A variable's value first, quoted or not, may start with `-`: `"$f"`, and `$r-`
            // of an empty `r`; not where the word is a redirection's file.)
            Some('"') if c == '$' && raw.1.is_none() && !redirected => return true,
            Some(_) => {
                if raw.1.is_none() {
                    raw.1 = Some(c);
                }
            }
            None => match c {
                '\'' | '"' => quote = Some(c),
                '\\' => {
                    if let (None, Some(&e)) = (raw.1, chars.peek()) {
                        raw.1 = Some(e);
                    }
                    chars.next();
                }
                '*' | '?' | '[' => return true,
                '{' if prev != '$' => return true,
                // (`$'\x2dr'` is `-r`.)
                '$' if chars.peek() == Some(&'\'') => return true,
                '$' if raw.1.is_none() && !redirected => return true,
                '$' => {}
                _ => {
                    if raw.1.is_none() {
                        raw.1 = Some(c);
                    }
                }
            },
        }
        prev = c;
    }
    hidden(first)
}

fn numeric_output(inner: &str) -> bool {
    if quotes_hide_an_option(inner) {
        return false;
    }
    if du_sizes(inner) || jq_length(inner) {
        return true;
    }
    if !plain_output(inner) && !git_prints_times(inner) {
        return false;
    }
    let last: Vec<&str> = inner.rsplit('|').next().unwrap_or("").split_whitespace().collect();
    // Only the forms that print numbers: `seq --help`, `seq -s +x+ 1 2` and `nproc --version`
    // print words, which arithmetic evaluates as names (red team 42).
    let number = |a: &&str| a.parse::<i64>().is_ok();
    match last.as_slice() {
        ["seq", rest @ ..] => {
            let rest = rest.strip_prefix(&["-w"]).unwrap_or(rest);
            !rest.is_empty() && rest.len() <= 3 && rest.iter().all(number)
        }
        ["nproc", rest @ ..] => {
            rest.iter().all(|a| *a == "--all" || a.strip_prefix("--ignore=").is_some_and(|n| number(&n)))
        }
        ["wc", flag] => matches!(*flag, "-l" | "-c" | "-w" | "-m"),
        // `date +%s`: seconds since the epoch (red team 43); `date +%Y`, `+%Y%m%d`: numbers
        // (red team 50); `%F`, `%T`, `%R`: numbers with `-` and `:` (red team 60).
        // (Of a file's time, `date -r FILE +%s`: red team 90; the file is decided as read
        // where date runs, and one not there prints nothing.)
        ["date", rest @ ..] => {
            let mut words: Vec<&str> = Vec::new();
            let mut it = rest.iter();
            while let Some(a) = it.next() {
                match *a {
                    "-r" | "--reference" => {
                        if it.next().is_none_or(|f| f.starts_with(['-', '+'])) {
                            return false;
                        }
                    }
                    a if a.starts_with("--reference=") => {}
                    a => words.push(a),
                }
            }
            words.iter().filter(|a| a.starts_with('+')).count() == 1
                && words.iter().all(|a| {
                    matches!(*a, "-u" | "--utc")
                        || a.strip_prefix('+').is_some_and(|f| numeric_format(f, "YmdHMSsjuwyCGgVUWNeklFTR"))
                })
        }
        // `id -u`, `id -g` (`-r`: the real one): one number (red team 50). Not `-n`: a name.
        ["id", flags @ ..] => {
            flags.iter().all(|a| {
                matches!(*a, "-u" | "-g" | "-r" | "-ur" | "-ru" | "-gr" | "-rg" | "--user" | "--group" | "--real")
            }) && flags.iter().filter(|a| !matches!(**a, "-r" | "--real")).count() == 1
        }
        // `stat -c %s FILE`: sizes, inode and link counts, ids, times as numbers, of one file
        // (red team 50). Not `%f`, `%D`, `%t`: hexadecimal, with letters.
        ["stat", rest @ ..] => {
            let (format, file) = match rest {
                ["-c" | "--format" | "--printf", f, file] => (Some(*f), *file),
                [f, file] => (f.strip_prefix("-c").or_else(|| f.strip_prefix("--format=")), *file),
                _ => (None, ""),
            };
            format.is_some_and(|f| !f.is_empty() && numeric_format(f, "sibBhugXYZWod"))
                && !file.starts_with('-')
                && !file.contains(['*', '?', '[', '{'])
        }
        // `grep -c PATTERN [FILE]`: one count (a second file would print `name:count`).
        ["git", "log", ..] => git_prints_times(inner),
        ["grep" | "egrep" | "fgrep", rest @ ..] => {
            let mut count = false;
            let mut operands = 0;
            let mut ended = false;
            for a in rest {
                if *a == "--" && !ended {
                    ended = true;
                    continue;
                }
                match a.strip_prefix('-').filter(|_| !ended) {
                    Some(long) if long.starts_with('-') => match &long[1..] {
                        "count" => count = true,
                        "ignore-case" | "invert-match" | "word-regexp" | "line-regexp" | "extended-regexp"
                        | "fixed-strings" | "perl-regexp" | "basic-regexp" | "no-messages" => {}
                        _ => return false,
                    },
                    // (An option after the operands is one too: GNU grep permutes, red team 77's
                    // `grep -c x -H` prints `(standard input):0`.)
                    Some(bundle) if !bundle.is_empty() => {
                        if !bundle.chars().all(|c| "civwxEFGPs".contains(c)) {
                            return false;
                        }
                        count |= bundle.contains('c');
                    }
                    _ => {
                        // (The file operand is one name, not a glob of many.)
                        if operands == 1 && a.contains(['*', '?', '[', '{']) {
                            return false;
                        }
                        operands += 1;
                    }
                }
            }
            count && (1..=2).contains(&operands)
        }
        // (Pathspecs after `--` count only their commits: `git rev-list --count HEAD -- docs`,
        // red team 90.)
        ["git", "rev-list", rest @ ..] => {
            let ended = rest.iter().position(|a| *a == "--").unwrap_or(rest.len());
            rest[..ended].contains(&"--count")
                && rest[..ended].iter().all(|a| {
                    matches!(*a, "--count" | "--all" | "--no-merges" | "--first-parent") || !a.starts_with('-')
                })
        }
        _ => false,
    }
}

/// `du -s NAME... | cut -f1` (`-k`, `-m`, `-b`, `-c` beside `-s`): a size a line, each
/// operand one literal name (a name a glob matched may hold a line end, which du prints as it
/// is, and `-a` lists the names below: red team 92's `size=$(du -sk src | cut -f1)`).
fn du_sizes(inner: &str) -> bool {
    let Some((du, cut)) = inner.split_once('|') else { return false };
    if !matches!(cut.split_whitespace().collect::<Vec<_>>().as_slice(), ["cut", "-f1"] | ["cut", "-f", "1"]) {
        return false;
    }
    let Some(("du", rest)) = du.trim().split_once(' ') else { return false };
    let mut summarized = false;
    let mut operands = 0;
    for w in rest.split_whitespace() {
        match w.strip_prefix('-') {
            Some(flags) if !flags.is_empty() && flags.chars().all(|c| "skmbc".contains(c)) => {
                summarized |= flags.contains('s')
            }
            Some(_) => return false,
            None if w.chars().all(|c| c.is_ascii_alphanumeric() || "_./-+,@".contains(c)) => operands += 1,
            None => return false,
        }
    }
    summarized && operands > 0
}

/// `jq 'PATH | keys | length' FILE...`: numbers, where the filter is paths (`.`, `.name`,
/// `[N]`, `[]`) piped at the top into a builtin whose output is never a number (`keys`,
/// `keys_unsorted`, `to_entries`, `tostring`, `tojson`) and then `length`, which prints an
/// integer or fails (red team 92's `count=$(jq '.scripts | keys | length' package.json)`).
/// Not `PATH | length` straight: a number's length is its absolute value, and jq 1.6 reads
/// `NaN` in a file and prints its length as `null`, a name arithmetic evaluates (red team
/// 109, session 32: `echo '{"b": NaN}' > docs/n.md` then `$(( $(jq '.b | length'
/// docs/n.md) ))` ran `$null`'s subscript). No `,` (whose outputs `length` would not see),
/// no quote, no `$`, no parenthesis, no other builtin (`nan | length`): nothing else reaches
/// the output.
fn jq_length(inner: &str) -> bool {
    let Some(rest) = inner.trim().strip_prefix("jq ") else { return false };
    let Some((opts, after)) = rest.split_once('\'') else { return false };
    let Some((filter, files)) = after.split_once('\'') else { return false };
    let opts_known = opts.split_whitespace().all(|o| {
        matches!(o, "-r" | "-c" | "-e" | "-M" | "-S" | "-s" | "--raw-output" | "--compact-output" | "--slurp")
    });
    let path = |stage: &str| {
        let stage = stage.trim();
        stage.starts_with('.')
            && stage.chars().all(|c| c.is_ascii_alphanumeric() || "_.[]".contains(c))
            && stage
                .split('[')
                .skip(1)
                .all(|b| b.split_once(']').is_some_and(|(i, _)| i.bytes().all(|d| d.is_ascii_digit())))
            && !stage.split(['[', ']']).enumerate().any(|(k, piece)| {
                k % 2 == 0 && piece.split('.').skip(1).any(|n| n.starts_with(|c: char| c.is_ascii_digit()))
            })
    };
    const NOT_NUMBERS: [&str; 5] = ["keys", "keys_unsorted", "to_entries", "tostring", "tojson"];
    let stages: Vec<&str> = filter.split('|').map(str::trim).collect();
    let filter_known = match stages.as_slice() {
        [paths @ .., before, "length"] => NOT_NUMBERS.contains(before) && paths.iter().all(|p| path(p)),
        _ => false,
    };
    let files_known = files
        .split_whitespace()
        .all(|f| !f.starts_with('-') && f.chars().all(|c| c.is_ascii_alphanumeric() || "_./-+,@".contains(c)));
    opts_known && filter_known && files_known
}

/// Whether a `date` or `stat` format prints only numbers: each conversion one of `specs`,
/// the text between them digits, `-`, `:` or `.` (arithmetic reads no name in them).
fn numeric_format(format: &str, specs: &str) -> bool {
    let mut chars = format.chars();
    let mut any = false;
    while let Some(c) = chars.next() {
        match c {
            '%' => match chars.next() {
                Some(s) if specs.contains(s) => any = true,
                _ => return false,
            },
            c if c.is_ascii_digit() || "-:.".contains(c) => {}
            _ => return false,
        }
    }
    any
}

/// Whether a command substitution's output holds no text the command itself wrote: numbers,
/// ids, or names a listing printed (which, globbed again, match names where they were
/// listed). The last stage of a plain pipeline decides (`sort`, `uniq`, `head`, `tail` pass
/// on what the stage before printed). Anything else may print a glob the text spelled
/// (`echo '/etc/*'`, `base64 -d`, `tr`, `cat` of a file).
/// Whether a command substitution is `git log` printing commit times as seconds, one line a
/// commit (`git log -1 --format=%ct`: red team 63), every word from a closed set.
fn git_prints_times(inner: &str) -> bool {
    if inner.contains(['$', '`', ';', '&', '<', '>', '|', '(', ')', '\\', '\'', '"']) {
        return false;
    }
    let words: Vec<&str> = inner.split_whitespace().collect();
    let Some(rest) = words.strip_prefix(&["git", "log"]) else { return false };
    let format = |a: &str| {
        ["--format=", "--pretty=format:", "--pretty=tformat:"]
            .iter()
            .find_map(|p| a.strip_prefix(p))
            .is_some_and(|f| f.starts_with('%') && f.split('%').skip(1).all(|c| matches!(c, "ct" | "at")))
    };
    let count = |a: &str| {
        let n = a.strip_prefix("--max-count=").or_else(|| a.strip_prefix('-')).unwrap_or("");
        !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())
    };
    rest.iter().filter(|a| format(a)).count() == 1
        && rest.iter().all(|a| format(a) || count(a) || matches!(*a, "HEAD" | "--no-merges" | "--first-parent"))
}

fn plain_output(inner: &str) -> bool {
    // Text written right here, with no glob character (or escape that could make one), that
    // echo, printf or a here-document's cat prints as it is.
    let t = inner.trim();
    let printer = ["echo ", "printf ", "cat <<", "cat<<"].iter().any(|p| t.starts_with(p))
        && !t.starts_with("printf -")
        && !t.starts_with("echo -e");
    if printer && !t.contains(['*', '?', '[', '\\', '$', '`', '%', '|', ';', '&', '>', '(', ')']) {
        // `cat <<DELIM` alone on its line: no file operand, no other redirection.
        let first = t.lines().next().unwrap_or("");
        let cat_alone = first
            .strip_prefix("cat")
            .map(|r| r.trim_start().trim_start_matches("<<").trim_start_matches('-'))
            .is_some_and(|d| !d.trim().is_empty() && !d.trim().contains([' ', '\t', '<']));
        let echo_alone = !first.starts_with("cat") && !t.contains(['<', '\n']);
        return cat_alone || echo_alone;
    }
    // (`printf '%s\n' NAMES`: its format's escape is a newline, red team 64.)
    let inner = &inner.replace("'%s\\n'", "%s").replace("\"%s\\n\"", "%s");
    if inner.contains(['$', '`', ';', '&', '<', '>', '\n', '(', ')', '\\']) || inner.contains("||") {
        return false;
    }
    let plain_args = |args: &[&str]| {
        args.iter().all(|a| a.chars().all(|c| c.is_ascii_alphanumeric() || "-_.,:=@{}~^/+%".contains(c)))
    };
    let stages: Vec<&str> = inner.split('|').collect();
    for stage in stages.iter().rev() {
        let words: Vec<&str> = stage.split_whitespace().collect();
        let Some((&program, args)) = words.split_first() else { return false };
        match program {
            "sort" | "uniq" | "head" | "tail"
                if plain_args(args) && !args.iter().any(|a| !a.starts_with('-') && a.parse::<u64>().is_err()) =>
            {
                continue
            }
            "wc" | "seq" | "nproc" | "pwd" | "whoami" | "id" | "uname" | "hostname" | "date" | "basename"
            | "dirname" | "expr" | "stat" => {
                return plain_args(args);
            }
            // Its words, a line each, where none holds a glob character (red team 64).
            "printf" => {
                return args.first() == Some(&"%s")
                    && plain_args(&args[1..])
                    && !args[1..].iter().any(|a| a.contains(['{', '}', '~']));
            }
            // Some of the lines it is fed, each unchanged.
            "grep"
                if args.split_last().is_some_and(|(p, flags)| {
                    !p.starts_with('-')
                        && plain_args(&[p])
                        && flags
                            .iter()
                            .all(|f| f.len() > 1 && f.starts_with('-') && f[1..].chars().all(|c| "viEFwx".contains(c)))
                }) =>
            {
                continue
            }
            // Names, or counts, of what is there; their patterns only filter.
            "ls" => return !args.iter().any(|a| a.starts_with("--format") || a.starts_with("--hide") || *a == "-L"),
            "find" => {
                return !args.iter().any(|a| {
                    matches!(
                        *a,
                        "-L" | "-follow"
                            | "-printf"
                            | "-fprintf"
                            | "-fprint"
                            | "-fprint0"
                            | "-fls"
                            | "-exec"
                            | "-execdir"
                            | "-ok"
                            | "-okdir"
                    )
                })
            }
            // Counts or the names of files that match.
            // (Not `--label=TEXT`, the name it prints for its standard input: red team 83's
            // `echo $(echo x | grep -l --label='/etc/pass*' x)` listed /etc.)
            "grep" | "egrep" | "fgrep" if args.iter().any(|a| a.starts_with("--la")) => return false,
            "grep" | "egrep" | "fgrep" => {
                return args.iter().any(|a| {
                    matches!(*a, "--count" | "--files-with-matches" | "--files-without-match")
                        || (a.starts_with('-')
                            && !a.starts_with("--")
                            && a[1..].contains(['c', 'l', 'L'])
                            && !a[1..].contains(['e', 'f', 'm', 'A', 'B', 'C', 'd', 'D']))
                })
            }
            // rg's names of files (`rg -l PATTERN DIR`, `rg --files`): red team 63.
            "rg" => {
                let names = args.iter().any(|a| {
                    matches!(*a, "--files" | "--files-with-matches" | "--files-without-match" | "--count")
                        || (a.starts_with('-') && !a.starts_with("--") && a[1..].contains(['l', 'c']))
                });
                return names
                    && !args.iter().any(|a| {
                        a.starts_with("--pre")
                            || a.starts_with("--replace")
                            || a.starts_with("--hostname")
                            || a.starts_with("--json")
                            || matches!(*a, "--follow" | "-L" | "-0" | "--null")
                            || (a.starts_with('-')
                                && !a.starts_with("--")
                                && a[1..].contains([
                                    'r', 'L', 'e', 'f', 'g', 'A', 'B', 'C', 'j', 'M', 'm', 't', 'T', 'E', 'd',
                                ]))
                    });
            }
            "git" => {
                let sub = args.first().copied().unwrap_or("");
                // `git log --format=%H -n 5`: object names (red team 68).
                if sub == "log" && git_prints_object_names(args, true) {
                    return plain_args(args);
                }
                return match sub {
                    // (rev-list's formats print any text, `%x2f%x2a` is `/*`, and `--objects`
                    // paths: only options that choose and order commits, red team 76.)
                    // (Pathspecs after `--` only choose commits: red team 90.)
                    "rev-list" => {
                        plain_args(args)
                            && args[1..].iter().take_while(|a| **a != "--").all(|a| {
                                !a.starts_with('-')
                                    || a[1..].bytes().all(|b| b.is_ascii_digit())
                                    || REV_LIST_PLAIN.iter().any(|o| match o.strip_suffix('=') {
                                        Some(prefix) => a.starts_with(o) || *a == prefix,
                                        None => a == o,
                                    })
                            })
                    }
                    "rev-parse" | "describe" | "merge-base" | "symbolic-ref" | "write-tree" | "hash-object" => {
                        plain_args(args) && !args.iter().any(|a| a.starts_with("--sq") || a.starts_with("--local-env"))
                    }
                    "ls-files" | "diff" | "status" | "branch" | "tag" => {
                        !args.iter().any(|a| a.starts_with("--format") || a.starts_with("-m") && sub == "tag")
                            && (sub != "diff"
                                || args.iter().any(|a| {
                                    matches!(
                                        *a,
                                        "--name-only" | "--name-status" | "--stat" | "--numstat" | "--shortstat"
                                    )
                                }))
                    }
                    _ => false,
                };
            }
            _ => return false,
        }
    }
    false
}

/// rev-list's options that choose or order the commits it names, or count them, and print
/// nothing else (`NAME=` takes a value glued): object names, `<`/`>`/`-` marks and counts.
const REV_LIST_PLAIN: &[&str] = &[
    "-n",
    "--max-count=",
    "--skip=",
    "--max-parents=",
    "--min-parents=",
    "--no-merges",
    "--merges",
    "--first-parent",
    "--reverse",
    "--all",
    "--branches",
    "--tags",
    "--remotes",
    "--topo-order",
    "--date-order",
    "--author-date-order",
    "--parents",
    "--count",
    "--abbrev-commit",
    "--abbrev=",
    "--no-walk",
    "--since=",
    "--until=",
    "--after=",
    "--before=",
    "--author=",
    "--committer=",
    "--grep=",
    "-i",
    "--left-right",
    "--cherry-pick",
    "--cherry-mark",
    "--boundary",
    "--ancestry-path",
];

/// The names a text makes read-only: the operands of `readonly`, and of `declare`, `typeset`,
/// `local` or `export` with an `r` among their flags.
fn readonly_names(text: &str) -> Vec<String> {
    flagged_names(text, 'r')
}

/// The names a text may give the integer attribute: the operands of a declaration builtin
/// with an `i` among its flags (for [`abort::may_abort_line`], which reads every line with
/// them, before the walk reaches the declaration).
fn integer_names(text: &str) -> Vec<String> {
    flagged_names(text, 'i')
}

/// The operands of `declare`, `typeset`, `local`, `export` (and, for `r`, `readonly`) with
/// `flag` among their flags.
fn flagged_names(text: &str, flag: char) -> Vec<String> {
    const DECLARERS: [&str; 5] = ["readonly", "declare", "typeset", "local", "export"];
    let mut out = Vec::new();
    if !DECLARERS.iter().any(|d| text.contains(d)) {
        return out;
    }
    for stmt in text.split(['\n', ';', '&', '|', '(', ')', '{', '}']) {
        // (Quotes and backslashes dropped: `"declare" -i "n"` is `declare -i n`, red team 101.)
        let words: Vec<String> = stmt.split_whitespace().map(|w| w.replace(['"', '\'', '\\'], "")).collect();
        let Some(k) = words.iter().position(|w| DECLARERS.contains(&w.as_str())) else {
            continue;
        };
        let rest = &words[k + 1..];
        let flagged = (words[k] == "readonly" && flag == 'r')
            || rest.iter().any(|w| w.starts_with('-') && !w.starts_with("--") && w.contains(flag));
        if flagged {
            for w in rest.iter().filter(|w| !w.starts_with(['-', '+'])) {
                let name = w.split(['=', '[']).next().unwrap_or(w);
                // (A name known only at run time may be any: `*`.)
                out.push(if tables::is_identifier(name) { name.to_string() } else { "*".to_string() });
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::printf_output;
    use proptest::prelude::*;

    /// The first argument bash makes of `word` (expanded as a command's word would be, in an
    /// empty directory), or nothing.
    fn bash_first_argument(word: &str) -> String {
        let dir = tempfile::tempdir().expect("a scratch directory");
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg(format!("set -- {word}; printf %s \"$1\""))
            .current_dir(dir.path())
            .stdin(std::process::Stdio::null())
            .output()
            .expect("bash runs");
        String::from_utf8_lossy(&out.stdout).to_string()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]
        /// A word the number recognisers read as written is an option to bash only where it
        /// is one as written (red teams 109-110: `'-r'`, `{-r,x}`, `$'\x2dr'`, `\-r`).
        #[test]
        fn hidden_options_are_found(word in "[-'\"\\{},$rx ]{1,7}") {
            let bare = bash_first_argument(&word);
            if !super::quotes_hide_an_option(&word) && bare.starts_with('-') {
                prop_assert!(word.trim_start().starts_with('-'), "{:?} is {:?}", word, bare);
            }
        }
    }

    /// What bash's printf prints for `format` and `args` (bash is the oracle).
    fn bash_printf(format: &str, args: &[&str]) -> Vec<u8> {
        let out = std::process::Command::new("bash")
            .arg("-c")
            .arg("printf -- \"$@\"")
            .arg("_")
            .arg(format)
            .args(args)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("bash runs");
        out.stdout
    }

    /// What `words` prints given `input`, run for real.
    fn real_filter(words: &[&str], input: &str) -> Vec<u8> {
        use std::io::Write as _;
        let mut child = std::process::Command::new(words[0])
            .args(&words[1..])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("the filter runs");
        child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("input written");
        child.wait_with_output().expect("filter output").stdout
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]
        /// The filters gate computes print what the programs print, NUL bytes and missing
        /// line ends included (red team 76: `$(printf 'vne\0tnirp' | rev)` is `env`).
        #[test]
        fn filters_print_what_the_programs_print(input in "[rmlsx\n\u{0}]{0,8}", which in 0usize..5) {
            let words: &[&str] = match which {
                0 => &["rev"],
                1 => &["sed", "s/rm/ls/"],
                2 => &["sed", "s/m/x/g"],
                3 => &["tr", "-d", "x"],
                _ => &["tr", "rx", "mr"],
            };
            if let Some(out) = crate::shell::walk::filter_output(words, &input) {
                let real = real_filter(words, &input);
                prop_assert_eq!(out.as_bytes(), real.as_slice(), "{:?} {:?}", words, input);
            }
        }
    }

    #[test]
    fn printf_fields_as_bash_prints_them() {
        for (format, args) in [
            ("%5.1s%.1s x", &["r", "m"][..]),
            ("%.*s|%*s|%-*s|", &["0x2", "rmdir", "-3", "a", "2", "b"][..]),
            ("%b|%s", &["a\\cb", "z"][..]),
            ("%d %d %d %03d", &["010", "'a", "2e0", "-7"][..]),
        ] {
            let out = printf_output(format, args).expect("computed");
            assert_eq!(out.as_bytes(), bash_printf(format, args).as_slice(), "{format} {args:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(192))]
        /// Where gate computes what printf prints (flags, widths, precisions, `*`, numbers read
        /// as bash reads them, `%b`'s escapes and `\c`, NUL bytes), it is what bash prints
        /// (red teams 68-69 found `%.*s` of `010`, `0x2`, `+2` and `%5.1s` computed wrong or
        /// not at all).
        #[test]
        fn printf_output_is_what_bash_prints(
            pieces in proptest::collection::vec((
                "[a-z ]{0,3}",
                proptest::sample::select(vec!["", "-", "0", "-0"]),
                proptest::sample::select(vec!["", "1", "5", "*"]),
                proptest::sample::select(vec!["", ".", ".0", ".2", ".*"]),
                proptest::sample::select(vec!["s", "c", "d", "b", "q", "%"]),
            ), 1..4),
            args in proptest::collection::vec(proptest::sample::select(vec![
                "rm", "ls", "abc", "7", "-3", "010", "0x1f", "+2", " 2", "2e0", "'a", "r\\0m", "ls \\c x", "-1", "08",
            ]), 0..6),
        ) {
            let format: String = pieces
                .iter()
                .map(|(text, flags, width, precision, conversion)| {
                    if *conversion == "%" { format!("{text}%%") } else { format!("{text}%{flags}{width}{precision}{conversion}") }
                })
                .collect();
            if let Some(out) = printf_output(&format, &args) {
                let bash = bash_printf(&format, &args);
                prop_assert_eq!(out.as_bytes(), bash.as_slice(), "printf {:?} {:?}", format, args);
            }
        }
    }
}
