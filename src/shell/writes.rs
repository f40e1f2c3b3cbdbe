//! Files a command writes through its arguments, beyond redirections (issue 12 item 6, issue
//! 15 class 6): `tee F`, `cp A F`, `cp -t DIR A` (which writes `DIR/A`), `sed -i ... F`,
//! `sort -o F`, `curl --trace F`, `wget -a F`, `cargo test -- --logfile F`, `go test
//! -coverprofile=F`, `find -fprint F`, `xxd -r IN OUT`, split and csplit prefixes, archive
//! members, `patch -o F`, uniq's second operand, `git restore PATH`, `dd of=F`.
//!
//! Each path becomes an edit of that path, so a deny rule on it fires whatever program writes
//! it, and a path outside the workspace is asked even where an allow rule matched the command.
//! Pure: words in, paths out; it never decides and never touches the file system. A path it
//! can only name by its directory (an archive extracted into `DIR`) is `DIR/*`, a run-time
//! word, which the policy decides by that directory.

use super::tables::{option_values, spells_option};
use super::{grammar, program_name, Word, WriteKind};

/// Options whose value is a file (or a directory) the program writes, per program. Glued
/// (`-oF`, `--output=F`), bundled (`-so F`) and abbreviated (`--out F`) spellings count.
#[rustfmt::skip]
static OUTPUT_OPTIONS: &[(&str, &[&str])] = &[
    ("sort", &["-o", "--output"]),
    ("shuf", &["-o", "--output"]),
    ("tree", &["-o"]),
    ("git", &["--output"]),
    ("curl", &["-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar", "--trace", "--trace-ascii",
               "--stderr", "--libcurl", "--etag-save", "--hsts", "--alt-svc", "--output-dir"]),
    ("wget", &["-O", "--output-document", "-o", "--output-file", "-a", "--append-output", "--save-cookies",
               "--warc-file", "-P", "--directory-prefix", "--rejected-log", "--hsts-file"]),
    ("patch", &["-o", "--output", "-r", "--reject-file"]),
    ("sdiff", &["-o", "--output"]),
    ("iconv", &["-o", "--output"]),
    ("uudecode", &["-o", "--output-file"]),
    ("zstd", &["-o"]),
    ("unzstd", &["-o"]),
    ("rustc", &["-o", "--out-dir"]),
    ("pandoc", &["-o", "--output"]),
    ("info", &["-o", "--output"]),
    // `-o F` is saved below `-d DIR`; either spelled with `..` lands outside (red team 53).
    ("aria2c", &["-o", "--out", "-d", "--dir", "-l", "--log", "--save-session", "--save-cookies",
                 "--dht-file-path", "--dht-file-path6", "--server-stat-of"]),
];

/// Programs whose writes [`by_program`] models by their options and operands: one name for
/// each of its arms (an arm added there belongs here too).
const WRITE_TABLED: &[&str] = &[
    "apply_patch",
    "applypatch",
    "split",
    "csplit",
    "wget",
    "aria2c",
    "tee",
    "sponge",
    "history",
    "awk",
    "gawk",
    "cp",
    "mv",
    "install",
    "ln",
    "rsync",
    "scp",
    "ed",
    "red",
    "ex",
    "vi",
    "vim",
    "nvim",
    "view",
    "rvim",
    "rview",
    "vimdiff",
    "emacs",
    "touch",
    "truncate",
    "mkdir",
    "mkfifo",
    "chmod",
    "chown",
    "chgrp",
    "shred",
    "unlink",
    "sed",
    "perl",
    "dd",
    "xxd",
    "file",
    "patch",
    "uniq",
    "zip",
    "gcc",
    "g++",
    "cc",
    "c++",
    "clang",
    "clang++",
    "cpp",
    "rustc",
    "mktemp",
    "ssh-keygen",
    "sqlite3",
    "tar",
    "unzip",
    "gzip",
    "gunzip",
    "bzip2",
    "bunzip2",
    "xz",
    "unxz",
    "lzma",
    "unlzma",
    "zstd",
    "unzstd",
    "lz4",
    "git",
    "npm",
    "cargo",
    "ptx",
];

/// A compressor's options that write no file: to standard output, a listing, a test.
pub(crate) const NO_FILE_WRITTEN: &[&str] = &["-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list"];

/// Whether gate models which files `name` writes (its own arm or output options).
pub(crate) fn models_writes(name: &str) -> bool {
    WRITE_TABLED.contains(&name) || OUTPUT_OPTIONS.iter().any(|(n, _)| *n == name)
}

/// Whether `opt` (as a program's table spells it) is one of `name`'s options whose value is a
/// file it writes, which the walker decides as a write.
pub(crate) fn output_option(name: &str, opt: &str) -> bool {
    OUTPUT_OPTIONS.iter().any(|(n, opts)| *n == name && opts.contains(&opt))
}

/// Options naming the directory a build tool keeps its own output in (cargo's `target/`, npm's
/// cache and logs): written as the tool always writes its default one, so decided as paths
/// handed on: only where they land outside the workspace or under a deny or ask rule (red
/// team 40: `cargo test --target-dir target/ci` was asked as an edit).
#[rustfmt::skip]
static BUILD_DIRS: &[(&str, &[&str])] = &[
    ("cargo", &["--target-dir", "--artifact-dir", "--out-dir"]),
];

/// The files split and csplit write: PREFIX then a made-up suffix, as a glob (`PREFIX*`), so
/// that a deny rule any of them could match decides (red team 59: `split -n 22 -a 1 docs/a.md
/// .en` writes `.env`; `csplit -f Cargo -b '.toml%.0d' ...` writes `Cargo.toml`).
fn split_writes(name: &str, args: &[Word]) -> Vec<Word> {
    // split read by its table: PREFIX, then a made-up suffix, then `--additional-suffix`
    // (red team 62: `split -l1 --additional-suffix=.md docs/a.md docs/part-`).
    if name == "split" {
        if let Some(p) = tabled("split", args) {
            let prefix = p.operands.get(1).cloned().unwrap_or_else(|| Word::Lit("x".into()));
            let suffix = p
                .opts
                .iter()
                .filter(|f| f.opt.name == "--additional-suffix")
                .filter_map(|f| f.value.clone())
                .next_back();
            // (The made-up suffix is never empty: `-a 0` is the default length, two; red
            // team 67: `split ... docs/a.md Cargo.toml` never writes `Cargo.toml` itself.)
            return vec![match (prefix, suffix) {
                (Word::Lit(p), None) => Word::Dyn(format!("{}?*", super::shell_word(&p))),
                (Word::Lit(p), Some(Word::Lit(s))) if !s.contains('/') => {
                    Word::Dyn(format!("{}?*{}", super::shell_word(&p), super::shell_word(&s)))
                }
                // (A suffix with a `/` or only known at run time: anywhere below PREFIX's
                // directory, as a name only known at run time.)
                (Word::Lit(p), Some(s)) => Word::Dyn(format!("{}?*{}", super::shell_word(&p), s.display())),
                (Word::Dyn(d), _) => Word::Dyn(format!("{d}?*")),
            }];
        }
    }
    let (valued, default) = if name == "split" { ("abClnt", "x") } else { ("bfn", "xx") };
    const LONG_VALUED: &[&str] =
        &["prefix", "suffix-format", "digits", "bytes", "line-bytes", "lines", "number", "separator", "filter"];
    let mut operands: Vec<Word> = Vec::new();
    let mut prefix: Option<Word> = None;
    let mut ended = false;
    let mut it = args.iter();
    while let Some(w) = it.next() {
        let a = match w.lit() {
            Some(a) if !ended && a.len() > 1 && a.starts_with('-') => a,
            _ => {
                operands.push(w.clone());
                continue;
            }
        };
        if a == "--" {
            ended = true;
        } else if let Some(long) = a.strip_prefix("--") {
            let (opt, glued) = match long.split_once('=') {
                Some((o, v)) => (o, Some(Word::Lit(v.to_string()))),
                None => (long, None),
            };
            if LONG_VALUED.iter().any(|o| o.starts_with(opt)) {
                let value = glued.or_else(|| it.next().cloned());
                if name == "csplit" && "prefix".starts_with(opt) {
                    prefix = value;
                }
            }
        } else {
            // A bundle: the first letter that takes a value takes the rest, or the next word.
            if let Some((k, ch)) = a[1..].char_indices().find(|(_, ch)| valued.contains(*ch)) {
                let rest = &a[1 + k + ch.len_utf8()..];
                let value = if rest.is_empty() { it.next().cloned() } else { Some(Word::Lit(rest.to_string())) };
                if ch == 'f' && name == "csplit" {
                    prefix = value;
                }
            }
        }
    }
    if name == "split" {
        prefix = operands.get(1).cloned();
    }
    vec![match prefix {
        Some(Word::Lit(p)) => Word::Dyn(format!("{}*", super::shell_word(&p))),
        Some(Word::Dyn(d)) => Word::Dyn(format!("{d}*")),
        None => Word::Dyn(format!("{default}*")),
    }]
}

/// The directories npm itself writes below: its debug logs (`--logs-dir`) and its cache
/// (`--cache`, logs under `_logs`), options it reads with one or two dashes and in any case
/// up to a `--` (red team 59: `npm run test --logs-dir=docs/logs` wrote a log there).
fn npm_written_dirs(args: &[Word]) -> Vec<Word> {
    let mut out = Vec::new();
    let mut it = args.iter();
    while let Some(w) = it.next() {
        let Some(a) = w.lit() else { continue };
        if a == "--" {
            break;
        }
        let Some(name) = a.strip_prefix("--").or_else(|| a.strip_prefix('-')) else { continue };
        let (name, value) = match name.split_once('=') {
            Some((n, v)) => (n, Some(Word::Lit(v.to_string()))),
            None => (name, None),
        };
        // (nopt takes an abbreviation: `--logs-d=`, red team 62.) What npm writes is below
        // them: its debug logs (`2026-11-28T00_29_13_123Z-debug-0.log`) in the logs
        // directory, anything in the cache.
        let lower = name.to_ascii_lowercase();
        let logs = lower.len() >= 6 && "logs-dir".starts_with(&lower);
        let cache = lower.len() >= 3 && "cache".starts_with(&lower);
        if logs || cache {
            // (In the cache: `_logs/` and the content store `_cacache/`, named as one.)
            if let Some(d) = value.or_else(|| it.next().cloned()) {
                let dir = d.display().trim_end_matches('/').to_string();
                let logs_dir = if logs { dir.clone() } else { format!("{dir}/_logs") };
                out.push(Word::Dyn(format!("{logs_dir}/[0-9]*-debug-[0-9]*.log")));
                if cache {
                    out.push(under(Some(&d), &Word::Lit("_cacache".into())));
                }
            }
        }
    }
    out
}

/// Whether a path has a `..` segment.
fn climbs(path: &str) -> bool {
    path.split('/').any(|s| s == "..")
}

/// The directories on the way to a path, as spelled (`a/b/c`: `a`, `a/b`). Where the path
/// climbs back with `..`, `mkdir -p` makes them though they are not above what it finally
/// makes (red team 58: `mkdir -p src/gen/../../docs/n.md` makes `src/gen`).
fn prefixes(path: &str) -> Vec<Word> {
    let mut out = Vec::new();
    let mut at = 0;
    while let Some(k) = path[at..].find('/') {
        let prefix = &path[..at + k];
        at += k + 1;
        let last = prefix.rsplit('/').next().unwrap_or(prefix);
        if !matches!(last, "" | "." | "..") {
            out.push(Word::Lit(prefix.to_string()));
        }
    }
    out
}

/// The directories above each operand of `mkdir -p` that it makes where they are missing:
/// decided where a deny rule holds them or they land outside the workspace (`mkdir -p .env/x`
/// makes `.env`), not asked for where they may already be (`mkdir -p docs/guide`).
pub(crate) fn made_parents(words: &[Word]) -> Vec<Word> {
    if words.first().and_then(Word::lit).map(program_name) != Some("mkdir") {
        return Vec::new();
    }
    let Some(p) = tabled("mkdir", &words[1..]) else { return Vec::new() };
    if !p.opts.iter().any(|f| matches!(f.opt.name, "-p" | "--parents")) {
        return Vec::new();
    }
    let mut out = Vec::new();
    for path in p.operands.iter().filter_map(Word::lit).filter(|p| !climbs(p)) {
        out.extend(prefixes(path));
    }
    out
}

/// The build directories a command names ([`BUILD_DIRS`]).
pub(crate) fn build_dirs(words: &[Word]) -> Vec<Word> {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return Vec::new() };
    match BUILD_DIRS.iter().find(|(p, _)| *p == name) {
        Some((_, opts)) => option_values(&words[1..], opts),
        None => Vec::new(),
    }
}

/// Options of test harnesses and the tools they run whose value is a file they write. They
/// count wherever they appear in a runner's words, also after the `--` that passes them on
/// to the test binary or script (`cargo test -- --logfile F`, `npm test -- --outputFile=F`).
#[rustfmt::skip]
static HARNESS_OPTIONS: &[&str] = &[
    "--logfile", "--outputFile", "--outputfile", "--output-file", "--junitxml", "--junit-xml", "--junit-prefix-file",
    "--basetemp", "--html", "--json-report-file", "--report-log", "--resultlog", "--result-log",
    "--coverageDirectory", "--coverage-directory", "--cov-report", "--reporter-output", "--log-file",
];

/// Programs that run tests or scripts and hand their options on.
#[rustfmt::skip]
static RUNNERS: &[&str] = &[
    "cargo", "npm", "pnpm", "yarn", "bun", "npx", "pnpx", "bunx", "pytest", "py.test", "jest", "vitest", "mocha",
    "tox", "nox", "uv", "poetry", "deno", "node", "python", "python3", "make", "nextest", "cargo-nextest",
];

/// Single-dash long options whose value is a file written (`-coverprofile=F`, `-fprint F`).
#[rustfmt::skip]
static SINGLE_DASH_OUTPUTS: &[(&str, &[&str])] = &[
    ("go", &["o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace",
             "outputdir", "test.coverprofile", "test.cpuprofile", "test.memprofile", "test.blockprofile",
             "test.mutexprofile", "test.trace", "test.outputdir"]),
    ("find", &["fprint", "fprint0", "fls", "fprintf"]),
    ("openssl", &["out", "keyout"]),
];

/// What a patch program writes: the files its patch names, known only at run time.
pub(crate) const PATCHED: &str = "(the files the patch names)";

/// The files a unified diff names for `git apply` (or `patch`) to write, with the leading
/// directory its `-p` strips (1 by default: `b/docs/a.md` is `docs/a.md`): every `---`, `+++`,
/// `rename`/`copy` `from`/`to` name. `None` where any name is quoted (C escapes), `/dev/null`
/// aside, or an option moves or filters them (`--directory`, `--include`, `-d`, `-o`...).
pub(crate) fn patched_files(words: &[Word], text: &str) -> Option<Vec<String>> {
    let args: Vec<&str> = words[1..].iter().map(Word::lit).collect::<Option<_>>()?;
    // Codex's `apply_patch` (its shell form, which Codex runs itself): each file a header
    // names is added, rewritten, deleted or moved to (red team 59: `apply_patch <<'EOF'` with
    // `*** Delete File: Cargo.toml` was only asked).
    if matches!(words.first().and_then(Word::lit).map(program_name), Some("apply_patch" | "applypatch")) {
        if !args.is_empty() {
            return None;
        }
        const HEADERS: [&str; 4] = ["*** Add File: ", "*** Update File: ", "*** Delete File: ", "*** Move to: "];
        let files: Vec<String> =
            text.lines().filter_map(|l| HEADERS.iter().find_map(|h| l.strip_prefix(h))).map(str::to_string).collect();
        return (!files.is_empty()).then_some(files);
    }
    let git = words.first().and_then(Word::lit).map(program_name) == Some("git");
    let mut strip = 1usize;
    for a in args.iter().skip(usize::from(git)) {
        match *a {
            "-v" | "--verbose" | "--index" | "--cached" | "-3" | "--3way" | "--whitespace=nowarn" | "--binary" => {}
            "--forward" | "-N" | "-s" | "--silent" | "--quiet" | "-f" | "--force" | "-t" | "--batch" => {}
            p if p.starts_with("-p") && p[2..].parse::<usize>().is_ok() => strip = p[2..].parse().ok()?,
            _ => return None,
        }
    }
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        // A patch that makes a symbolic link (mode 120000) or a submodule (160000): later
        // paths through that name lead where gate cannot see when it decides (red team 51:
        // `docs/e.md` made a link to `../.env`, then `echo x > docs/e.md`).
        // (git reads the mode with strtoul, so `0120000` and ` 120000` are links too: red team
        // 110 A. Anything but a regular file's mode, or one not read as octal, is not known.)
        if let Some(m) =
            ["new file mode ", "new mode ", "old mode ", "deleted file mode "].iter().find_map(|h| line.strip_prefix(h))
        {
            let digits = m.trim_start_matches([' ', '\t']);
            let digits = digits.split(|c: char| !c.is_ascii_digit()).next().unwrap_or_default();
            let regular = u32::from_str_radix(digits, 8).is_ok_and(|mode| mode & 0o170000 == 0o100000);
            if !regular {
                return None;
            }
        }
        // `diff --git a/X b/Y`: git takes the names there where a section has no `---`/`+++`
        // (red team 109: a binary patch of Cargo.toml, an empty `.env.local` created, a mode
        // changed, beside a text hunk of `docs/a.md`). Both, prefixed as `---`/`+++` are;
        // a header that does not split at one ` b/` is not known.
        if let Some(pair) = line.strip_prefix("diff --git ") {
            let mut halves = pair.split(" b/");
            let (Some(a), Some(b), None) = (halves.next(), halves.next(), halves.next()) else { return None };
            for n in [a.to_string(), format!("b/{b}")] {
                out_push(&mut out, &n, strip)?;
            }
            continue;
        }
        // (git still reads the old `rename old`/`rename new` spellings: red team 110 A moved
        // docs/a.md to `.env.local` with one.)
        const NAMED: [&str; 8] =
            ["--- ", "+++ ", "rename from ", "rename to ", "rename old ", "rename new ", "copy from ", "copy to "];
        let name =
            NAMED.iter().find_map(|h| line.strip_prefix(h)).map(|n| n.split('\t').next().unwrap_or(n).trim_end());
        let Some(name) = name else { continue };
        if name == "/dev/null" {
            continue;
        }
        // (git strips one directory less from `rename`/`copy` names than `-p` says: red team
        // 110 A's `-p2` with `rename to docs/CLAUDE.md` wrote `CLAUDE.md`.)
        if line.starts_with("---") || line.starts_with("+++") {
            out_push(&mut out, name, strip)?;
        } else {
            out_push(&mut out, name, strip.saturating_sub(1))?;
        }
    }
    (!out.is_empty()).then_some(out)
}

/// Add a patch's `name` with its first `strip` directories removed to `out`; `None` where the
/// name is quoted (C escapes), empty, shorter than the strip, or climbs `..`.
fn out_push(out: &mut Vec<String>, name: &str, strip: usize) -> Option<()> {
    if name.starts_with('"') || name.contains('\\') || name.is_empty() {
        return None;
    }
    let stripped = name.splitn(strip + 1, '/').nth(strip)?.to_string();
    if stripped.is_empty() || stripped.split('/').any(|s| s == "..") {
        return None;
    }
    if !out.contains(&stripped) {
        out.push(stripped);
    }
    Some(())
}

/// The files a command writes through its arguments (literal or run-time words).
pub(crate) fn write_targets(words: &[Word]) -> Vec<Word> {
    let Some(Word::Lit(first)) = words.first() else { return Vec::new() };
    let name = program_name(first);
    let args = &words[1..];
    let mut out: Vec<Word> = Vec::new();
    // A tabled program: its grammar says which option values are written (`sort -to x`
    // is `-t o`, not `-o x`). Otherwise the per-program list, read generously.
    match grammar::grammar(name).map(|g| (g.writes || name == "tee").then(|| grammar::parse(g, args))) {
        // A tabled program with no option that writes: nothing to find there.
        Some(None) => {}
        Some(Some(Ok(p))) => {
            out.extend(p.with('W').filter_map(|f| f.value.clone()));
            if name == "tee" {
                out.extend(p.operands.iter().cloned());
                return out;
            }
        }
        _ => {
            if let Some((_, opts)) = OUTPUT_OPTIONS.iter().find(|(p, _)| *p == name) {
                out.extend(option_values(args, opts));
            }
        }
    }
    if RUNNERS.contains(&name) {
        out.extend(values_anywhere(args, HARNESS_OPTIONS).into_iter().map(strip_report_kind));
    }
    if let Some((_, opts)) = SINGLE_DASH_OUTPUTS.iter().find(|(p, _)| *p == name) {
        out.extend(single_dash_values(args, opts));
    }
    out.extend(by_program(name, args));
    if name == "git" {
        // `git -C DIR`: the files it writes are below DIR.
        let dirs = option_values(&args[..super::tables::git_subcommand_at(args)], &["-C"]);
        return super::tables::git_relative_to(&dirs, out);
    }
    out
}

/// `--cov-report=xml:PATH` names its file after the report kind.
fn strip_report_kind(w: Word) -> Word {
    match &w {
        Word::Lit(v) => match v.split_once(':') {
            Some((kind, path)) if ["xml", "html", "json", "lcov", "annotate", "markdown"].contains(&kind) => {
                Word::Lit(path.to_string())
            }
            _ => w,
        },
        Word::Dyn(_) => w,
    }
}

/// The words that are not options, up to `--` and all after it; `value_letters` are short
/// options whose value is the next word when not glued (`-l 16`). A long option is read as
/// taking no value (more operands: callers that write every operand lose nothing).
fn operands<'a>(args: &'a [Word], value_letters: &str) -> Vec<&'a Word> {
    read_operands(args, value_letters, &[], false)
}

/// The operands as a program's getopt may read them: `shorts` take the rest of a bundle or
/// the next word, `longs` (any unambiguous prefix) the next word unless glued with `=`. A long
/// option in neither list, unglued, may take the next word or none, so `unknown_takes` says
/// which reading to make.
fn read_operands<'a>(args: &'a [Word], shorts: &str, longs: &[&str], unknown_takes: bool) -> Vec<&'a Word> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < args.len() {
        let w = &args[k];
        k += 1;
        match w.lit() {
            Some("--") => {
                out.extend(&args[k..]);
                break;
            }
            Some(a) if a.starts_with("--") => {
                let known = longs.iter().any(|o| a.len() > 2 && spells_option(a, o));
                if !a.contains('=') && (known || unknown_takes) {
                    k += 1;
                }
            }
            Some(a) if a.starts_with('-') && a.len() > 1 => {
                // In a bundle, the first letter that takes a value takes the rest of it, or
                // the next word when it is last.
                let letters: Vec<char> = a[1..].chars().collect();
                if letters.iter().position(|c| shorts.contains(*c)).is_some_and(|p| p + 1 == letters.len()) {
                    k += 1;
                }
            }
            _ => out.push(w),
        }
    }
    out
}

/// The operand a program writes by its place (`ln A B` writes the last, `patch F` the first),
/// under both readings of a long option not in `longs` (taking the next word, or not): one
/// name where they agree, both where they differ (`rsync a .env --log-file docs/x.md` writes
/// `.env`, not the log's value, which a reading without the value would call last).
fn placed<'a>(
    args: &'a [Word],
    shorts: &str,
    longs: &[&str],
    at: impl Fn(&[&'a Word]) -> Option<&'a Word>,
) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    for takes in [false, true] {
        if let Some(w) = at(&read_operands(args, shorts, longs, takes)) {
            if !out.contains(w) {
                out.push(w.clone());
            }
        }
    }
    out
}

/// xxd's words as its own parser reads them.
pub(crate) struct Xxd<'a> {
    pub operands: Vec<&'a Word>,
    pub reverse: bool,
}

/// Read xxd's words as its own loop does (xxd.c, 2022): a word is matched by its first two
/// letters (`-ps`, `-psfoo` are `-p`; `--ps` is `-ps`). For the options with a value (`-c`,
/// `-g`, `-o`, `-s`, `-l`, `-n`), the rest of the word is the value unless it spells the long
/// name's start (`-cols`, `-groupsize`, `-offset`, `-seek`/`-skip`, `-len`, `-name`, and
/// anything after: `-seekfoo 0` takes the next word, red team 40); then the next word is.
/// `None` for a letter xxd does not know (it prints its usage), or a word only known at run
/// time where an option could be.
pub(crate) fn xxd_words(args: &[Word]) -> Option<Xxd<'_>> {
    let mut x = Xxd { operands: Vec::new(), reverse: false };
    let mut it = args.iter();
    let mut only_operands = false;
    while let Some(w) = it.next() {
        let a = match w {
            Word::Lit(a) => a.as_str(),
            Word::Dyn(raw) if only_operands || !grammar::could_be_option(raw) => {
                x.operands.push(w);
                only_operands = true;
                continue;
            }
            Word::Dyn(_) => return None,
        };
        if only_operands || a == "-" || !a.starts_with('-') {
            // Options end at the first operand: `xxd IN -ps` writes a file named `-ps`.
            x.operands.push(w);
            only_operands = true;
            continue;
        }
        if a == "--" {
            only_operands = true;
            continue;
        }
        // `--x...` is read as `-x...`.
        let p = if a.starts_with("--") { &a[1..] } else { a };
        let mut chars = p[1..].chars();
        let letter = chars.next()?;
        let rest = chars.as_str();
        let long = match letter {
            'a' | 'b' | 'e' | 'u' | 'p' | 'i' | 'C' | 'd' | 'E' | 'v' | 'h' => continue,
            'r' => {
                x.reverse = true;
                continue;
            }
            'c' if rest.starts_with("apitalize") => continue,
            'c' => &["ols"][..],
            'g' => &["roup"][..],
            'o' => &["ffset"][..],
            's' => &["kip", "eek"][..],
            'l' => &["en"][..],
            'n' => &["ame"][..],
            'R' => &[""][..],
            _ => return None,
        };
        if rest.is_empty() || long.iter().any(|l| rest.starts_with(l)) {
            it.next()?;
        }
    }
    Some(x)
}

/// The paths a runner hands on to a script or test binary gate cannot see (`npm run test --
/// --test-reporter-destination=.env`, `cargo test -- --config /tmp/x`): each word and each
/// text after a `=` or `:` in it that reads as a path (has a `/`, starts with `.` or `~`).
/// What that program does with them is not known: the policy decides them as writes where
/// they land outside the workspace or under a deny or ask rule (eleventh red team: a list of
/// harness options is never complete).
pub(crate) fn handed_paths(words: &[Word]) -> Vec<Word> {
    let Some(name) = words.first().and_then(Word::lit).map(program_name) else { return Vec::new() };
    if !RUNNERS.contains(&name) {
        return Vec::new();
    }
    paths_in_words(&words[1..])
}

/// What [`handed_paths`] finds in words given to a program gate cannot see (a runner's
/// arguments, an environment variable's value).
pub(crate) fn paths_in_words(words: &[Word]) -> Vec<Word> {
    // A name with a dot is a file name too (`output=Cargo.toml`: red team 53); one inside the
    // workspace that no rule names costs nothing.
    let pathy = |t: &str| !t.is_empty() && t.contains(['/', '.', '~']) && t != ".";
    let mut out: Vec<Word> = Vec::new();
    for w in words {
        // A run-time word may be any path (`$HOME/x`): decided as one only known at run time.
        let Word::Lit(w) = w else {
            if !out.contains(w) {
                out.push(w.clone());
            }
            continue;
        };
        // Text with no `/`, `.` or `~` holds nothing that reads as a path (most words).
        if !w.contains(['/', '.', '~']) {
            continue;
        }
        // A URL (`--registry=https://host/path`) names no file here; a `file:` one does.
        let w = match w.split_once("file://") {
            Some((_, path)) => path,
            None if w.contains("://") => continue,
            None => w.as_str(),
        };
        let mut texts: Vec<&str> = Vec::new();
        if !w.starts_with('-') {
            texts.push(w);
        }
        // A value glued to a short option (`-o/tmp/x`, `-o.env`), also behind other letters
        // of a bundle (`-uo.env`: red team 44).
        if w.len() > 2 && w.starts_with('-') && !w.starts_with("--") {
            texts.push(&w[2..]);
            texts.extend(w.char_indices().skip(2).filter(|(_, c)| matches!(c, '.' | '/' | '~')).map(|(i, _)| &w[i..]));
        }
        // What follows a value's separator, a response file's `@` (`@/etc/passwd`, which
        // compilers and javac read), a list's `;` or blank, a quote or a bracket (inline JSON
        // config): red team 30 handed `/etc/passwd` on in each of these.
        const STARTS: &[char] = &['=', ':', ',', ';', '@', '\'', '"', ' ', '\t', '\n', '{', '[', '('];
        for (i, c) in w.char_indices() {
            if STARTS.contains(&c) {
                texts.push(&w[i + 1..]);
            }
        }
        // Lists: each item (`--files=a,../x`), up to where it ends.
        const ENDS: &[char] = &[',', ';', '\'', '"', ' ', '\t', '\n', '}', ']', ')'];
        let texts: Vec<&str> = texts.into_iter().flat_map(|t| t.split(ENDS)).collect();
        for t in texts.into_iter().filter(|t| pathy(t)) {
            let t = Word::Lit(t.to_string());
            if !out.contains(&t) {
                out.push(t);
            }
        }
    }
    out
}

/// Values of long options wherever they appear, `--` included (a runner's pass-through).
fn values_anywhere(args: &[Word], opts: &[&str]) -> Vec<Word> {
    let mut out = Vec::new();
    for (i, w) in args.iter().enumerate() {
        let Word::Lit(a) = w else {
            let raw = w.display();
            let text = raw.trim_start_matches(['"', '\'']);
            if opts.iter().any(|o| text.starts_with(&format!("{o}="))) {
                out.push(w.clone());
            }
            continue;
        };
        if !a.starts_with("--") || a == "--" {
            continue;
        }
        // Whole names only: the harness is another program than the runner, with its own
        // flags (jest's `--coverage` is no `--coverageDirectory`). A path-like value in any
        // spelling is decided anyway, as handed on (`handed_paths`).
        let name = a.split('=').next().unwrap_or(a);
        if let Some(o) = opts.iter().find(|o| name == **o) {
            match a.split_once('=') {
                Some((_, v)) => out.push(Word::Lit(v.to_string())),
                None if !o.is_empty() => {
                    out.extend(args.get(i + 1).filter(|v| !v.lit().is_some_and(|v| v.starts_with('-'))).cloned())
                }
                None => {}
            }
        }
    }
    out
}

/// Values of single-dash long options (`-name=V`, `-name V`; Go also takes `--name`).
fn single_dash_values(args: &[Word], names: &[&str]) -> Vec<Word> {
    let mut out = Vec::new();
    for (i, w) in args.iter().enumerate() {
        let Some(a) = w.lit() else { continue };
        if a == "--" {
            break;
        }
        let Some(body) = a.strip_prefix("--").or_else(|| a.strip_prefix('-')) else { continue };
        let (n, v) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        if names.contains(&n) {
            match v {
                Some(v) => out.push(Word::Lit(v.to_string())),
                None => out.extend(args.get(i + 1).cloned()),
            }
        }
    }
    out
}

/// A path under a directory: `DIR/NAME`, or the word itself when there is no directory.
fn under(dir: Option<&Word>, name: &Word) -> Word {
    match (dir, name) {
        (None, n) => n.clone(),
        (Some(Word::Lit(d)), Word::Lit(n)) if !n.starts_with('/') => {
            Word::Lit(format!("{}/{}", d.trim_end_matches('/'), n))
        }
        (Some(_), Word::Lit(n)) if n.starts_with('/') => name.clone(),
        // (A directory's name, then one name of a glob with no `/`: one name of the glob
        // below it, `"docs/guide/*.md"`.)
        (Some(Word::Lit(d)), Word::Dyn(n))
            if super::tables::unquoted_glob(n) != n
                && !super::tables::unquoted_glob(n).contains('/')
                && !d.contains(['*', '?', '[', ']', '\\', '"', '$', '`', '{', '}', '\'']) =>
        {
            Word::Dyn(format!("\"{}/{}\"", d.trim_end_matches('/'), super::tables::unquoted_glob(n)))
        }
        // (One name of a glob, then a name with no `/`, or one name of a glob with none: one
        // name of the glob below, `"docs/guide/*.md/*.md"`: red team 67, `cp "$f"
        // "docs/guide/${f##*/}"`.)
        (Some(Word::Dyn(d)), n) if one_glob_name(d).is_some() && name_piece(n).is_some() => Word::Dyn(format!(
            "\"{}/{}\"",
            one_glob_name(d).unwrap_or_default().trim_end_matches('/'),
            name_piece(n).unwrap_or_default()
        )),
        (Some(d), n) => Word::Dyn(format!("{}/{}", d.display().trim_end_matches('/'), n.display())),
    }
}

/// The glob a word that is one name of it stands for (`"docs/*.md"`: `docs/*.md`).
fn one_glob_name(d: &str) -> Option<&str> {
    let glob = super::tables::unquoted_glob(d);
    (glob != d && d.starts_with('"')).then_some(glob)
}

/// A last path segment as glob text: a literal name with no `/` and no glob character, or
/// one name of a glob with no `/`.
fn name_piece(n: &Word) -> Option<String> {
    match n {
        Word::Lit(l) => (!l.is_empty()
            && !l.contains(['/', '*', '?', '[', ']', '\\', '"', '$', '`', '{', '}', '\''])
            && l != "."
            && l != "..")
            .then(|| l.clone()),
        Word::Dyn(d) => one_glob_name(d).filter(|g| !g.contains('/')).map(str::to_string),
    }
}

/// Everything below a directory: the policy decides it by the directory (`glob_base`).
fn all_under(dir: &Word) -> Word {
    Word::Dyn(format!("{}/*", dir.display().trim_end_matches('/')))
}

fn base_name(w: &Word) -> Word {
    match w {
        Word::Lit(s) => Word::Lit(s.trim_end_matches('/').rsplit('/').next().unwrap_or(s).to_string()),
        // (One name of a glob, `"src/*.rs"`: one name of its last segment, `"*.rs"`.)
        Word::Dyn(d) if super::tables::unquoted_glob(d) != d && !d.ends_with("/\"") => {
            let glob = super::tables::unquoted_glob(d);
            Word::Dyn(format!("\"{}\"", glob.rsplit('/').next().unwrap_or(glob)))
        }
        Word::Dyn(d) => Word::Dyn(d.clone()),
    }
}

/// A tabled program's words as its own parser reads them; `None` when untabled or unread.
fn tabled(name: &str, args: &[Word]) -> Option<grammar::Parsed> {
    grammar::grammar(name).and_then(|g| grammar::parse(g, args).ok())
}

/// What cp writes, read by its table, each with the condition it is written on: DEST, or,
/// where DEST is a directory, each source's name below it (`cp x/.env .` writes `./.env`);
/// `-t DIR` puts every source below DIR. The conditions: DEST unless it is a directory
/// ([`WriteKind::Onto`]), `DEST/NAME` only where DEST is one ([`WriteKind::Into`]).
fn cp_kinds(p: &grammar::Parsed) -> Vec<(Word, WriteKind)> {
    let dir = p.opts.iter().find(|f| matches!(f.opt.name, "-t" | "--target-directory")).and_then(|f| f.value.clone());
    let plain = p.opts.iter().any(|f| matches!(f.opt.name, "-T" | "--no-target-directory"));
    let (sources, dest) = match &dir {
        Some(d) => (&p.operands[..], d.clone()),
        None => match p.operands.split_last() {
            Some((last, rest)) => (rest, last.clone()),
            None => return Vec::new(),
        },
    };
    let mut t = Vec::new();
    // (`DEST/` names a directory: cp writes nothing at DEST itself, red team 60.)
    if dir.is_none() && dest.lit().is_none_or(|d| !d.ends_with('/')) {
        t.push((dest.clone(), WriteKind::Onto));
    }
    if !plain {
        t.extend(sources.iter().map(|s| (under(Some(&dest), &base_name(s)), WriteKind::Into)));
    }
    t
}

/// The files a tabled `cp` of files writes, each with its condition ([`cp_kinds`]); `None`
/// for any other command, or a cp its table does not read.
pub(crate) fn cp_targets(words: &[Word]) -> Option<Vec<(Word, WriteKind)>> {
    let name = words.first().and_then(Word::lit).map(program_name)?;
    if !matches!(name, "cp" | "mv") {
        return None;
    }
    tabled(name, &words[1..]).map(|p| mv_kinds(name, &p))
}

/// [`cp_kinds`], and for mv each source too: it goes away where it was ([`WriteKind::Moved`]).
fn mv_kinds(name: &str, p: &grammar::Parsed) -> Vec<(Word, WriteKind)> {
    let mut t = cp_kinds(p);
    if name == "mv" {
        let to_dir = p.opts.iter().any(|f| matches!(f.opt.name, "-t" | "--target-directory"));
        let sources = if to_dir { &p.operands[..] } else { p.operands.split_last().map_or(&[][..], |(_, s)| s) };
        t.extend(sources.iter().map(|s| (s.clone(), WriteKind::Moved)));
    }
    t
}

/// What touch and mkdir write, read by their tables: every operand (`touch -r F X` writes
/// only X), and the directories `mkdir -p` makes on the way to a path that climbs with `..`.
fn made_writes(name: &str, p: &grammar::Parsed) -> Vec<Word> {
    let parents = name == "mkdir" && p.opts.iter().any(|f| matches!(f.opt.name, "-p" | "--parents"));
    let mut t = Vec::new();
    for w in &p.operands {
        if let (true, Word::Lit(path)) = (parents, w) {
            if climbs(path) {
                t.extend(prefixes(path));
            }
        }
        t.push(w.clone());
    }
    t
}

fn by_program(name: &str, args: &[Word]) -> Vec<Word> {
    let flagged = |short: &[&str]| option_values(args, short);
    let has = |opts: &[&str]| args.iter().filter_map(Word::lit).any(|a| opts.iter().any(|o| spells_option(a, o)));
    match name {
        "apply_patch" | "applypatch" => vec![Word::Dyn(PATCHED.into())],
        // `find ... -delete` removes what it finds: names only known at run time, which a deny
        // rule on the names it filters by decides (red team 59: `find . -name '.env*' -delete`).
        "find" if args.iter().any(|w| w.lit() == Some("-delete")) => vec![Word::Dyn(super::ADDED_AT_RUN_TIME.into())],
        "split" | "csplit" => split_writes(name, args),
        // `ptx -G IN OUT` (traditional mode) writes its second operand (red team 63).
        "ptx"
            if has(&["-G", "--traditional"])
                || args
                    .iter()
                    .filter_map(Word::lit)
                    .any(|a| a.starts_with('-') && !a.starts_with("--") && a.contains('G')) =>
        {
            operands(args, "bFgiMoSWw").get(1).map(|w| vec![(*w).clone()]).unwrap_or_default()
        }
        "wget" => wget_writes(args),
        // aria2c saves each URL under its last name, below `-d DIR` (red team 57:
        // `aria2c https://h/.env.prod` writes `.env.prod`), unless `-o` names the file.
        "aria2c" if flagged(&["-o", "--out"]).is_empty() => {
            let dir = flagged(&["-d", "--dir"]).pop();
            url_names(args, dir.as_ref(), &Word::Lit("index.html".into()))
        }
        "tee" => operands(args, "").into_iter().cloned().collect(),
        // `sponge F` soaks up its input, then writes F (red team 62).
        "sponge" => operands(args, "").into_iter().cloned().collect(),
        // `history -w F` / `-a F` write the history to F (red team 30).
        "history" => {
            let writes = args.iter().filter_map(Word::lit).any(|a| a.starts_with('-') && a.contains(['w', 'a']));
            if writes {
                operands(args, "d").into_iter().cloned().collect()
            } else {
                Vec::new()
            }
        }
        // gawk's `inplace` extension rewrites every file operand (red team 30: `awk -i inplace
        // ... .env`). Read generously: every operand after the program, and the words the
        // options around them may have taken.
        "awk" | "gawk" => {
            let lits: Vec<&str> = args.iter().filter_map(Word::lit).collect();
            let include = |o: &str| o == "-i" || (o.len() > 3 && "--include".starts_with(o));
            let inplace = lits.windows(2).any(|w| include(w[0]) && w[1].starts_with("inplace"))
                || lits.iter().any(|a| a.starts_with("-iinplace") || a.starts_with("--include=inplace"));
            if !inplace {
                return Vec::new();
            }
            let ops = operands(args, "fvFilEe");
            let from_file = lits.iter().any(|a| {
                matches!(*a, "-f" | "-E" | "-e")
                    || a.starts_with("--file")
                    || a.starts_with("--exec")
                    || a.starts_with("--source")
            });
            ops.into_iter().skip(usize::from(!from_file)).cloned().collect()
        }
        "cp" | "mv" | "install" | "ln" | "rsync" | "scp" => {
            if let Some(p) = matches!(name, "cp" | "mv").then(|| tabled(name, args)).flatten() {
                return mv_kinds(name, &p).into_iter().map(|(w, _)| w).collect();
            }
            let (values, longs): (&str, &[&str]) = match name {
                "install" => {
                    ("gmoSt", &["--group", "--mode", "--owner", "--suffix", "--target-directory", "--strip-program"])
                }
                "rsync" => ("eTfB", &[]),
                "scp" => ("cFiJloPS", &[]),
                _ => ("St", &["--suffix", "--target-directory"]),
            };
            let sources = read_operands(args, values, longs, false);
            let mut t: Vec<Word> = Vec::new();
            let dirs = flagged(&["-t", "--target-directory"]);
            match dirs.first() {
                // `cp -t DIR A B` writes DIR/A and DIR/B.
                Some(dir) => t.extend(sources.iter().map(|s| under(Some(dir), &base_name(s)))),
                None => t.extend(placed(args, values, longs, |o| o.last().copied())),
            }
            if name == "mv" {
                // The sources are removed: editing them away is an edit too.
                let n = if dirs.is_empty() { sources.len().saturating_sub(1) } else { sources.len() };
                t.extend(sources.iter().take(n).map(|w| (*w).clone()));
            }
            t
        }
        // Editors run from a script (`ed -s F`, `ex -sc 'x' F`, `vim -es -c wq F`) write the
        // files they are given: every operand counts as written (red team 49: `ed Cargo.toml`
        // was asked, not denied). They also run shell commands (`!cmd`), so they are never
        // allowed; this only lets a deny rule on what they write decide. Option values count
        // as operands too (`--cmd X`): more writes can only make a deny more likely.
        "ed" | "red" | "ex" | "vi" | "vim" | "nvim" | "view" | "rvim" | "rview" | "vimdiff" | "emacs" => {
            operands(args, "").into_iter().filter(|w| !w.lit().is_some_and(|s| s.starts_with('+'))).cloned().collect()
        }
        "touch" | "truncate" | "mkdir" | "mkfifo" | "chmod" | "chown" | "chgrp" | "shred" | "unlink" => {
            if let Some(p) = matches!(name, "touch" | "truncate" | "mkdir").then(|| tabled(name, args)).flatten() {
                return made_writes(name, &p);
            }
            let p = operands(args, if name == "truncate" { "sr" } else { "" });
            // chmod/chown take the mode/owner first; truncate its size by flag.
            let skip = usize::from(matches!(name, "chmod" | "chown" | "chgrp"));
            p.into_iter().skip(skip).cloned().collect()
        }
        "sed" | "perl" => {
            // sed read by its table: `-ei` is the script `i`, not an in-place edit.
            if let Some(Ok(p)) = grammar::grammar(name).map(|g| grammar::parse(g, args)) {
                if !p.opts.iter().any(|f| f.opt.name == "-i" || f.opt.name == "--in-place") {
                    return Vec::new();
                }
                let skip = usize::from(p.with('P').next().is_none());
                let files: Vec<Word> = p.operands.iter().skip(skip).cloned().collect();
                // The backup each file gets (`-i.bak`): FILE.bak, or with `*` in the suffix,
                // the suffix with each `*` the operand as typed, from where sed runs (GNU sed
                // 4.9: `-i'x*'` backs `docs/a.md` up to `xdocs/a.md`, `-i'.*.md'` backs
                // `./docs/a.md` up to `../docs/a.md.md`; red team 73 found gate placing it
                // beside the file, as only a bare name's is).
                // (Given more than once, the last `-i` says, with its suffix or none: red team
                // 74's `sed -i.md -i'.env*'` backs up to `.envFILE`.)
                let suffix = p
                    .opts
                    .iter()
                    .rfind(|f| f.opt.name == "-i" || f.opt.name == "--in-place")
                    .and_then(|f| f.value.clone());
                let mut out = files.clone();
                out.extend(backups(&files, suffix.as_ref()));
                return out;
            }
            let in_place = args.iter().any(|a| {
                a.lit().is_some_and(|s| {
                    s == "-i"
                        || s.starts_with("-i") && !s.starts_with("-i=")
                        || (s.starts_with("--i") && "--in-place".starts_with(s.split('=').next().unwrap_or(s)))
                        || (s.starts_with('-') && !s.starts_with("--") && s.contains('i'))
                })
            });
            if !in_place {
                return Vec::new();
            }
            // The files after the script are rewritten in place, each backed up with the
            // last in-place option's suffix (red team 75: a name only known at run time,
            // `xargs sed -i'../*'`, is read here, outside the table).
            let p = operands(args, if name == "sed" { "ef" } else { "e" });
            let has_e = has(&["-e", "--expression"]);
            let files: Vec<Word> = p.into_iter().skip(usize::from(!has_e)).cloned().collect();
            let mut suffix = args.iter().filter_map(Word::lit).filter_map(|s| {
                // (`--in-pl=SFX`, `--i`: getopt takes any prefix; only --in-place starts `--i`.)
                if let Some(long) = s.strip_prefix("--").filter(|l| l.starts_with('i')) {
                    return long.split_once('=').map(|(_, v)| v);
                }
                (s.starts_with('-') && !s.starts_with("--")).then(|| s.split_once('i').map(|(_, v)| v)).flatten()
            });
            let suffix = suffix.next_back().map(|v| Word::Lit(v.to_string()));
            let mut out = files.clone();
            out.extend(backups(&files, suffix.as_ref()));
            out
        }
        "dd" => args
            .iter()
            .filter_map(|a| a.lit().and_then(|s| s.strip_prefix("of=")).map(|v| Word::Lit(v.to_string())))
            .collect(),
        // `xxd [-r] [IN [OUT]]`: OUT is written, in either direction.
        // (A run-time operand may be none, or several, words: any operand may then be OUT,
        // red team 58's `xxd $(true) docs/a.md .env.local`.)
        "xxd" => match xxd_words(args) {
            Some(x) if x.operands.iter().any(|w| matches!(w, Word::Dyn(_))) => {
                x.operands.iter().map(|w| (*w).clone()).collect()
            }
            Some(x) => x.operands.get(1).map(|w| (*w).clone()).into_iter().collect(),
            // (Unread: any operand may be OUT.)
            None => operands(args, "cglnosR").into_iter().cloned().collect(),
        },
        // `file -C -m LIST` compiles each magic file of LIST into `NAME.mgc` in the working
        // directory (red team 48: `file -C -m .env` writes `.env.mgc`).
        "file" => match grammar::grammar("file").map(|g| grammar::parse(g, args)) {
            Some(Ok(p)) if p.opts.iter().any(|f| matches!(f.opt.name, "-C" | "--compile")) => p
                .opts
                .iter()
                .filter(|f| matches!(f.opt.name, "-m" | "--magic-file"))
                .filter_map(|f| f.value.clone())
                .flat_map(|v| match v {
                    Word::Lit(list) => {
                        // (In the working directory, by the magic file's last name.)
                        list.split(':')
                            .filter_map(|m| m.rsplit('/').next().filter(|b| !b.is_empty()))
                            .map(|b| Word::Lit(format!("{b}.mgc")))
                            .collect()
                    }
                    dynamic => vec![dynamic],
                })
                .collect(),
            _ => Vec::new(),
        },
        // `patch [ORIGINAL [PATCH]]`: ORIGINAL is rewritten unless `-o` sends it elsewhere;
        // `-d DIR` moves everything.
        "patch" => {
            let dir = flagged(&["-d", "--directory"]).into_iter().next();
            let mut t = Vec::new();
            if !has(&["-o", "--output", "--dry-run"]) {
                const LONGS: &[&str] = &[
                    "--strip",
                    "--input",
                    "--output",
                    "--reject-file",
                    "--directory",
                    "--define",
                    "--prefix",
                    "--basename-prefix",
                    "--suffix",
                    "--version-control",
                    "--fuzz",
                    "--get",
                    "--quoting-style",
                    "--reject-format",
                    "--read-only",
                ];
                let first = placed(args, "pioRrdDBYzVFg", LONGS, |o| o.first().copied());
                t.extend(first.iter().map(|w| under(dir.as_ref(), w)));
            }
            if t.is_empty() {
                match &dir {
                    Some(d) => t.push(all_under(d)),
                    // The files the patch names.
                    None if !has(&["-o", "--output", "--dry-run"]) => t.push(Word::Dyn(PATCHED.into())),
                    None => {}
                }
            }
            t
        }
        // `uniq [IN [OUT]]`.
        "uniq" => match grammar::grammar("uniq").map(|g| grammar::parse(g, args)) {
            // A run-time operand may be two words, or none (an empty `$x`, a glob under
            // nullglob): any operand may be the one written (red team 58: `uniq $nothing
            // docs/a.md Cargo.toml`).
            Some(Ok(p)) if p.operands.iter().any(grammar::could_be_several) => p.operands.clone(),
            // (`-` is standard output: red team 82's `uniq -c src/a.rs -` wrote no file.)
            Some(Ok(p)) => p.operands.get(1).filter(|w| w.lit() != Some("-")).cloned().into_iter().collect(),
            _ => placed(
                args,
                "fsw",
                &["--skip-fields", "--skip-chars", "--check-chars", "--group", "--all-repeated"],
                |o| o.get(1).copied(),
            ),
        },
        // `zip [OPTS] ARCHIVE FILES...`: the archive, with `.zip` added when its name has no
        // suffix (red team 43: `zip -r .env.zip src` was only asked).
        "zip" => {
            let mut t = flagged(&["-O", "--output-file"]);
            for w in placed(args, "bnOtPZ", &["--temp-path", "--suffixes", "--output-file", "--password"], |o| {
                o.first().copied()
            }) {
                if let Word::Lit(a) = &w {
                    if !base_name(&w).lit().is_some_and(|b| b.contains('.')) {
                        t.push(Word::Lit(format!("{a}.zip")));
                    }
                }
                t.push(w);
            }
            t
        }
        // A C compiler's dependency file (`-MF F`, `-MFF`), and the preprocessor's second
        // operand (`cpp IN OUT`).
        "gcc" | "g++" | "cc" | "c++" | "clang" | "clang++" | "cpp" => {
            // (A compiler's options are whole words, never bundles: `-dumpversion` holds no
            // `-o`. Its output is `-o F`, `-oF`, `--output F` or `--output=F`; a run-time word
            // may be any.)
            let mut t = Vec::new();
            for (i, w) in args.iter().enumerate() {
                match w.lit() {
                    Some("-MF" | "-o" | "--output") => t.extend(args.get(i + 1).cloned()),
                    Some(a) if a.starts_with("--output=") => t.push(Word::Lit(a["--output=".len()..].to_string())),
                    Some(a) if a.starts_with("-MF") => t.push(Word::Lit(a[3..].to_string())),
                    Some(a) if a.starts_with("-o") => t.push(Word::Lit(a[2..].to_string())),
                    Some(_) => {}
                    None => {
                        let raw = w.display();
                        let text = raw.trim_start_matches(['"', '\'']);
                        if text.starts_with("-o") || text.starts_with("--output=") {
                            t.push(w.clone());
                        }
                    }
                }
            }
            if name == "cpp" {
                t.extend(placed(args, "oIDUAiFx", &[], |o| o.get(1).copied()));
                t.extend(flagged(&["-o"]));
            }
            t
        }
        // `rustc --emit KIND=PATH,...`.
        "rustc" => flagged(&["--emit"])
            .into_iter()
            .flat_map(|v| match v {
                Word::Lit(l) => l
                    .split(',')
                    .filter_map(|k| k.split_once('=').map(|(_, p)| Word::Lit(p.to_string())))
                    .collect::<Vec<_>>(),
                d => vec![d],
            })
            .collect(),
        // `mktemp [-p DIR] TEMPLATE` creates a file (or directory) named by its template.
        "mktemp" if !has(&["-u", "--dry-run"]) => {
            let dir = flagged(&["-p", "--tmpdir"]).into_iter().next();
            operands(args, "p").into_iter().map(|w| under(dir.as_ref(), w)).collect()
        }
        // `ssh-keygen -f F` writes F and F.pub when it makes or changes a key; listing,
        // printing and finding forms only read it.
        "ssh-keygen" => {
            let reads_only = args
                .iter()
                .filter_map(Word::lit)
                .any(|a| a.starts_with('-') && !a.starts_with("--") && a[1..].contains(['l', 'y', 'B', 'F', 'L', 'Q']));
            if reads_only {
                return Vec::new();
            }
            flagged(&["-f"]).into_iter().flat_map(|f| [suffixed(&f, ".pub"), f]).collect()
        }
        // sqlite3's dot-commands that write a file (`.output F`, `.once F`, `.save F`,
        // `.backup F`, `.log F`), given as its arguments after the database: the last word
        // of the line is the file.
        "sqlite3" => {
            // The database is written: the first word that is no option, or, where an option
            // stands before it (its value, `-cmd X DB`), the next one too. Every word's lines
            // are read for dot-commands, option values included (red team 62: `sqlite3 -cmd
            // '.output .env' x.db 'select 1'`).
            let option = |w: &Word| w.lit().is_some_and(|a| a.starts_with('-'));
            let mut t: Vec<Word> = Vec::new();
            if let Some(i) = args.iter().position(|w| !option(w)) {
                t.push(args[i].clone());
                if i > 0 && option(&args[i - 1]) {
                    t.extend(args[i + 1..].iter().find(|w| !option(w)).cloned());
                }
            }
            for w in args {
                let Word::Lit(text) = w else { continue };
                for line in text.lines() {
                    let mut words = line.split_whitespace();
                    let dot = words.next().unwrap_or("");
                    // (sqlite3 takes any prefix of their names: `.o F`.)
                    let writes = [".output", ".once", ".save", ".backup", ".log"];
                    if dot.len() >= 2 && writes.iter().any(|c| c.starts_with(dot)) {
                        t.extend(words.last().map(|p| Word::Lit(p.trim_matches(['"', '\'']).to_string())));
                    }
                }
            }
            t
        }
        "tar" => tar_writes(args),
        "unzip" => unzip_writes(args),
        // Compressors replace each file with its (de)compressed form, unless writing to stdout.
        "gzip" | "gunzip" | "bzip2" | "bunzip2" | "xz" | "unxz" | "lzma" | "unlzma" | "zstd" | "unzstd" | "lz4" => {
            // (gzip's words read by its table where it has one: `--suf .toml` too.)
            let parsed = tabled(name, args);
            let to_stdout = match &parsed {
                Some(p) => p.opts.iter().any(|f| NO_FILE_WRITTEN.contains(&f.opt.name)),
                None => has(NO_FILE_WRITTEN),
            };
            if to_stdout {
                return Vec::new();
            }
            let mut t = Vec::new();
            // `-S SUF` names the result FILE.SUF (or FILE without SUF): red team 62's `gzip -S
            // .toml Cargo` writes `Cargo.toml`. A suffix known only at run time may make any.
            let (suffixes, files) = match &parsed {
                Some(p) => (
                    p.opts
                        .iter()
                        .filter(|f| matches!(f.opt.name, "-S" | "--suffix"))
                        .filter_map(|f| f.value.clone())
                        .collect(),
                    p.operands.iter().collect(),
                ),
                None => (flagged(&["-S", "--suffix"]), operands(args, "SbTo")),
            };
            for w in files {
                t.push(w.clone());
                for sfx in &suffixes {
                    match (w, sfx) {
                        (Word::Lit(f), Word::Lit(x)) => {
                            t.push(Word::Lit(format!("{f}{x}")));
                            t.extend(f.strip_suffix(x.as_str()).map(|stem| Word::Lit(stem.to_string())));
                        }
                        (Word::Lit(f), Word::Dyn(_)) => t.push(Word::Dyn(format!("{}*", super::shell_word(f)))),
                        (Word::Dyn(d), _) => t.push(Word::Dyn(d.clone())),
                    }
                }
                if let Word::Lit(s) = w {
                    let ext = match name {
                        "bzip2" | "bunzip2" => ".bz2",
                        "xz" | "unxz" => ".xz",
                        "lzma" | "unlzma" => ".lzma",
                        "zstd" | "unzstd" => ".zst",
                        "lz4" => ".lz4",
                        _ => ".gz",
                    };
                    t.push(Word::Lit(match s.strip_suffix(ext) {
                        Some(stem) => stem.to_string(),
                        None => format!("{s}{ext}"),
                    }));
                }
            }
            t
        }
        // `git restore PATH`, `git checkout [REV] -- PATH`, `git rm`, `git mv`: paths in the
        // tree are rewritten or removed.
        "git" => git_writes(args),
        // Another project, named by a path that may leave the workspace: npm runs and writes
        // in its prefix, cargo builds next to the manifest (`target/`, `Cargo.lock`).
        "npm" => {
            let mut t: Vec<Word> = flagged(&["--prefix", "-C"]).into_iter().filter(may_leave).collect();
            // (What npm writes is below them: `--logs-dir=docs/l.md` writes `docs/l.md/*.log`,
            // red team 62.)
            t.extend(npm_written_dirs(args));
            t
        }
        "cargo" => {
            let manifests = flagged(&["--manifest-path"]);
            let mut t: Vec<Word> = manifests
                .iter()
                .filter(|m| may_leave(m))
                .map(|m| match m {
                    Word::Lit(p) => Word::Lit(p.rsplit_once('/').map_or(".", |(d, _)| d).to_string()),
                    Word::Dyn(_) => m.clone(),
                })
                .collect();
            t.extend(cargo_manifest_writes(args, &manifests));
            t
        }
        _ => Vec::new(),
    }
}

/// The files cargo's manifest-editing subcommands write (red team 62: `cargo add serde`
/// rewrites Cargo.toml): `add`/`remove`/`rm` the manifest (`--manifest-path`, else the
/// package's, found from here upward, named as here) and the lock file; `update` and
/// `generate-lockfile` the lock file; `init`/`new` everything below their directory.
fn cargo_manifest_writes(args: &[Word], manifests: &[Word]) -> Vec<Word> {
    // The subcommand: the first word that is no option, no `+toolchain` and no global
    // option's value.
    const GLOBAL_VALUED: &[&str] = &["--config", "-Z", "-C", "--color"];
    let mut k = 0;
    while let Some(a) = args.get(k).and_then(Word::lit) {
        if GLOBAL_VALUED.contains(&a) {
            k += 2;
        } else if a.starts_with(['-', '+']) {
            k += 1;
        } else {
            break;
        }
    }
    let Some(sub) = args.get(k) else { return Vec::new() };
    let manifest = || match manifests.first() {
        Some(m) => m.clone(),
        None => Word::Lit("Cargo.toml".into()),
    };
    let lock = || match manifests.first() {
        Some(Word::Lit(p)) => {
            Word::Lit(format!("{}Cargo.lock", p.rsplit_once('/').map_or(String::new(), |(d, _)| format!("{d}/"))))
        }
        Some(d) => d.clone(),
        None => Word::Lit("Cargo.lock".into()),
    };
    match sub.lit() {
        Some("add" | "remove" | "rm") => vec![manifest(), lock()],
        Some("update" | "generate-lockfile") => vec![lock()],
        Some("init" | "new") => {
            let dir = operands(&args[k + 1..], "").first().map(|w| (*w).clone()).unwrap_or(Word::Lit(".".into()));
            vec![Word::Lit(format!("{}/Cargo.toml", dir.display().trim_end_matches('/'))), all_under(&dir)]
        }
        Some(_) => Vec::new(),
        None => vec![Word::Dyn(sub.display())],
    }
}

/// Whether a path as written may lead out of the working directory: absolute, from home,
/// with `..`, or only known at run time.
fn may_leave(w: &Word) -> bool {
    match w {
        Word::Lit(p) => p.starts_with(['/', '~']) || p.split('/').any(|s| s == ".."),
        Word::Dyn(_) => true,
    }
}

fn suffixed(prefix: &Word, suffix: &str) -> Word {
    match prefix {
        Word::Lit(p) => Word::Lit(format!("{p}{suffix}")),
        Word::Dyn(d) => Word::Dyn(format!("{d}{suffix}")),
    }
}

/// git subcommands that write the paths they name into the working tree. Their operands are
/// pathspecs, which git reads itself (see [`git_pathspec_targets`]).
fn git_writes(args: &[Word]) -> Vec<Word> {
    let i = super::tables::git_subcommand_at(args);
    let Some(sub) = args.get(i).and_then(Word::lit) else { return Vec::new() };
    let global = |o: &str| args[..i].iter().any(|w| w.lit() == Some(o));
    let (literal, icase) = (global("--literal-pathspecs"), global("--icase-pathspecs"));
    let rest = &args[i + 1..];
    let dd = rest.iter().position(|w| w.lit() == Some("--"));
    // `git rm -n`, `git mv --dry-run`: only say what they would do (their short options take no
    // value, so an `n` in a bundle is `-n`; a long one may be abbreviated: red team 63).
    let dry_run = matches!(sub, "rm" | "mv")
        && rest.iter().take(dd.unwrap_or(rest.len())).filter_map(Word::lit).any(|a| {
            (a.len() > 2 && "--dry-run".starts_with(a))
                || (a.starts_with('-')
                    && !a.starts_with("--")
                    && a[1..].chars().all(|c| "fnqrkv".contains(c))
                    && a.contains('n'))
        });
    if dry_run {
        return Vec::new();
    }
    let pathspecs = match sub {
        // `git mv` takes paths, not pathspecs.
        "mv" => return operands(rest, "").into_iter().cloned().collect(),
        // `git archive -o F` / `-oF` (and `--output`, read for every subcommand).
        "archive" => return option_values(rest, &["-o"]),
        // `git bundle create F REV...`.
        "bundle" => {
            return match operands(rest, "").as_slice() {
                [create, file, ..] if create.lit() == Some("create") => vec![(*file).clone()],
                _ => Vec::new(),
            }
        }
        "checkout-index" => return checkout_index_writes(rest),
        // `git apply` and `git am` write the files their patch names, known only at run time
        // (red team 45: a heredoc patch to Cargo.toml); `apply`'s report forms only read.
        // `--build-fake-ancestor=F` writes an index file F, even with `--stat` (red team 47).
        "apply" | "am" => {
            let lits: Vec<&str> = rest.iter().filter_map(Word::lit).collect();
            let reports = lits.iter().any(|a| matches!(*a, "--check" | "--stat" | "--numstat" | "--summary"));
            let mut t = option_values(rest, &["--build-fake-ancestor"]);
            if sub == "am" || !reports || lits.contains(&"--apply") {
                t.push(Word::Dyn(PATCHED.into()));
            }
            return t;
        }
        // `git credential-store --file=F store` writes the credential to F (red team 63).
        "credential-store" => return option_values(rest, &["--file"]),
        // `git read-tree --index-output=F` writes the index to F (red team 47).
        "read-tree" => return option_values(rest, &["--index-output"]),
        // `git pack-objects BASE` writes `BASE-<hash>.pack`, `.idx`, `.rev` (red team 47:
        // `pack-objects .env` wrote `.env-<hash>.pack`), unless `--stdout`.
        "pack-objects" => {
            if rest.iter().filter_map(Word::lit).any(|a| a == "--stdout") {
                return Vec::new();
            }
            return operands(rest, "")
                .first()
                .map(|b| match b {
                    Word::Lit(base) if !base.contains(['*', '?', '[']) => Word::Dyn(format!("{base}-*.pack")),
                    other => (*other).clone(),
                })
                .into_iter()
                .collect();
        }
        // `git merge-file CURRENT BASE OTHER` writes the merge into CURRENT unless `-p`.
        "merge-file" => {
            if rest.iter().filter_map(Word::lit).any(|a| a == "-p" || spells_option(a, "--stdout") && a.len() > 2) {
                return Vec::new();
            }
            return operands(rest, "L").first().map(|w| (*w).clone()).into_iter().collect();
        }
        // `git interpret-trailers --in-place FILE...` rewrites each FILE.
        "interpret-trailers" => {
            if !rest.iter().filter_map(Word::lit).any(|a| spells_option(a, "--in-place") && a.len() > 4) {
                return Vec::new();
            }
            return operands(rest, "").into_iter().cloned().collect();
        }
        // `git mailinfo MSG PATCH` writes both.
        "mailinfo" => return operands(rest, "").into_iter().cloned().collect(),
        // Marks files (`git fast-export --export-marks=F`, `git fast-import`'s too).
        "fast-export" | "fast-import" => return option_values(rest, &["--export-marks"]),
        // `git config -f F KEY VALUE` (and `set`, `unset`, `--add`, `--edit`...) rewrites F;
        // only the listing and getting forms leave it (red team 30: `-f .env` was only asked).
        // Read with git-config's option table, as the walker reads KEY and VALUE (`-lf F` is
        // `-l -f F`, a listing; `--get-r` is `--get-regexp`).
        "config" => {
            const READS: &[&str] = &[
                "--get",
                "--get-all",
                "--get-regexp",
                "--get-urlmatch",
                "-l",
                "--list",
                "--get-color",
                "--get-colorbool",
            ];
            return match grammar::git_config(rest) {
                Some(Ok(p)) => {
                    // (`git config -f F KEY`, one key and no value, gets it: red team 84.)
                    const EDITS: &[&str] = &[
                        "--add",
                        "--unset",
                        "--unset-all",
                        "--replace-all",
                        "--rename-section",
                        "--remove-section",
                        "-e",
                        "--edit",
                    ];
                    let one_key = matches!(p.operands.as_slice(), [Word::Lit(k)] if k.contains('.'))
                        && !p.opts.iter().any(|f| EDITS.contains(&f.opt.name));
                    let reads = p.opts.iter().any(|f| READS.contains(&f.opt.name))
                        || one_key
                        || matches!(p.operands.first().and_then(Word::lit), Some("get" | "list" | "get-color"));
                    if reads {
                        Vec::new()
                    } else {
                        p.with('R').filter_map(|f| f.value.clone()).collect()
                    }
                }
                // Not read by the table (asked anyway): every `-f` value may be written.
                _ => option_values(rest, &["-f", "--file"]),
            };
        }
        // `-p` is `--patch` (eleventh red team: `git restore -p .env` read `.env` as its value).
        // (`--staged` alone restores only the index: red team 62.)
        "restore" => {
            let lits: Vec<&str> = rest.iter().take_while(|w| w.lit() != Some("--")).filter_map(Word::lit).collect();
            // (In a bundle, the letters before one that takes a value: `-sW` is a source.)
            let short = |l: char| {
                lits.iter().any(|a| {
                    a.starts_with('-')
                        && !a.starts_with("--")
                        && a[1..].chars().take_while(|c| !"sU".contains(*c)).any(|c| c == l)
                })
            };
            let long = |o: &str| lits.iter().any(|a| a.len() > 4 && spells_option(a, o));
            if (short('S') || long("--staged")) && !(short('W') || long("--worktree")) {
                return Vec::new();
            }
            git_operands(rest, "sU", &["--source", "--unified", "--inter-hunk-context", "--conflict"])
        }
        // `--cached` only drops paths from the index (.git/index, gate's own to ask about):
        // the files stay as they are (`git rm --cached .env` stops tracking a secret).
        // (The last of `--cached` and `--no-cached` counts: red team 60.)
        "rm" if rest
            .iter()
            .take_while(|w| w.lit() != Some("--"))
            .filter_map(Word::lit)
            .filter_map(|a| {
                if a.len() > 4 && "--cached".starts_with(a) {
                    Some(true)
                } else if a.len() > 5 && "--no-cached".starts_with(a) {
                    Some(false)
                } else {
                    None
                }
            })
            .last()
            == Some(true) =>
        {
            Vec::new()
        }
        "rm" => git_operands(rest, "", &[]),
        // `git clean PATH` deletes the untracked files PATH matches (`-n` only says which).
        "clean" => {
            let dry = rest.iter().take(dd.unwrap_or(rest.len())).filter_map(Word::lit).any(|a| {
                spells_option(a, "--dry-run") && a.len() > 2
                    || a.starts_with('-') && !a.starts_with("--") && {
                        // In a bundle, letters after `e` are its pattern.
                        let letters = &a[1..];
                        letters.split('e').next().unwrap_or("").contains('n')
                    }
            });
            if dry {
                return Vec::new();
            }
            git_operands(rest, "e", &["--exclude"])
        }
        // `git stash push [--] PATH...` (also `git stash -- PATH`, `git stash -p PATH`)
        // saves PATH's changes and resets it to HEAD.
        "stash" => match rest.first().and_then(Word::lit) {
            Some("push") => git_operands(&rest[1..], "m", &["--message", "--pathspec-from-file"]),
            Some(a) if a.starts_with('-') => git_operands(rest, "m", &["--message", "--pathspec-from-file"]),
            _ => Vec::new(),
        },
        // `git reset --hard` (`--merge`, `--keep`) sets every tracked file to the commit, as
        // `git checkout .` does (red team 85: `git reset --hard HEAD` rewrote Cargo.toml).
        "reset"
            if rest
                .iter()
                .take(dd.unwrap_or(rest.len()))
                .filter_map(Word::lit)
                .any(|a| ["--hard", "--merge", "--keep"].iter().any(|o| a.len() > 3 && spells_option(a, o))) =>
        {
            vec![Word::Lit(".".into())]
        }
        "checkout" => match dd {
            Some(k) => rest[k + 1..].to_vec(),
            // Without `--`, every operand after the first may be a path (`git checkout REV
            // PATH`), and the first too when it looks like one (`git checkout .env`; `main`
            // is taken for the branch it most likely is, and git takes a branch first). A
            // word starting with `:` is never a branch: it is pathspec magic.
            None if !rest.iter().filter_map(Word::lit).any(|a| matches!(a, "-b" | "-B" | "--orphan")) => {
                let ops = operands(rest, "bB");
                let path_like =
                    |w: &Word| w.lit().is_none_or(|a| a.contains(['.', '*', '?', '[']) || a.starts_with(['/', ':']));
                let mut t: Vec<Word> = ops.iter().skip(1).map(|w| (*w).clone()).collect();
                t.extend(ops.first().filter(|w| path_like(w)).map(|w| (*w).clone()));
                t
            }
            None => Vec::new(),
        },
        _ => return Vec::new(),
    };
    let mut out = git_pathspec_targets(&pathspecs, literal, icase);
    // Pathspecs read from a file: paths gate cannot name.
    out.extend(
        option_values(rest, &["--pathspec-from-file"])
            .iter()
            .map(|f| Word::Dyn(format!("(the paths listed in {})", f.display()))),
    );
    out
}

/// The operands of a git subcommand: the words that are not options, all words after `--`;
/// `shorts` are the letters whose value is the rest of a bundle or the next word, `longs`
/// the long options whose value may be the next word (abbreviations included).
fn git_operands(rest: &[Word], shorts: &str, longs: &[&str]) -> Vec<Word> {
    read_operands(rest, shorts, longs, false).into_iter().cloned().collect()
}

/// What a git pathspec is, once its magic is read as git reads it (`:(top,icase)P`, `:/!P`).
enum Pathspec<'a> {
    /// `:!P`, `:^P`, `:(exclude)P`: names what is left alone.
    Exclude,
    /// Magic git refuses (it stops), or a form gate does not read.
    Unread,
    Path {
        top: bool,
        literal: bool,
        icase: bool,
        pattern: &'a str,
    },
}

fn read_pathspec(spec: &str) -> Pathspec<'_> {
    let Some(after) = spec.strip_prefix(':') else {
        return Pathspec::Path { top: false, literal: false, icase: false, pattern: spec };
    };
    let (mut top, mut literal, mut icase, mut exclude) = (false, false, false, false);
    let pattern = if let Some(long) = after.strip_prefix('(') {
        let Some((magic, pattern)) = long.split_once(')') else { return Pathspec::Unread };
        for m in magic.split(',') {
            match m {
                "top" => top = true,
                "literal" => literal = true,
                "icase" => icase = true,
                "exclude" => exclude = true,
                // `glob` only narrows what `*` matches; `attr:` only narrows by attributes.
                "glob" => {}
                m if m.starts_with("attr:") => {}
                _ => return Pathspec::Unread,
            }
        }
        pattern
    } else {
        // Short magic: mnemonics up to a non-magic character or a `:` (git's
        // parse_short_magic; any other punctuation of its magic set is refused).
        let mut rest = after;
        loop {
            match rest.chars().next() {
                Some(':') => {
                    rest = &rest[1..];
                    break;
                }
                Some('/') => top = true,
                Some('!' | '^') => exclude = true,
                Some(c) if "\"#%&',-;<=>@_`~".contains(c) => return Pathspec::Unread,
                _ => break,
            }
            rest = &rest[1..];
        }
        rest
    };
    if exclude {
        return Pathspec::Exclude;
    }
    Pathspec::Path { top, literal, icase, pattern }
}

/// The paths git writes for pathspecs (eleventh red team: `git restore ':(top).env'` and `git
/// checkout HEAD -- '*.env'` were asked under a deny rule on `**/.env*`). The magic is read as
/// git reads it: an exclusion names no write (with only exclusions git takes every path), a
/// path from the top of the repository lies where gate does not know (a run-time word, which
/// rules on its name decide), and a wildcard pattern is git's: `*`, `?` and `[...]` match `/`
/// and a leading dot, so it is given as the shell globs that together cover every path it
/// matches ([`git_glob_cover`]). A bash glob left unexpanded reaches git as such a pattern.
fn git_pathspec_targets(specs: &[Word], literal_all: bool, icase_all: bool) -> Vec<Word> {
    let mut out = Vec::new();
    let mut excluded = false;
    for w in specs {
        let text = match w {
            Word::Lit(s) if literal_all => {
                out.push(Word::Lit(s.clone()));
                continue;
            }
            Word::Lit(s) => s.as_str(),
            Word::Dyn(d) => {
                out.push(w.clone());
                // A bash glob that matches nothing reaches git unchanged.
                let plain = !d.contains(['$', '`', '\'', '"', '\\', '(', ')', '<', '>', '|', ';', '&', '{', '}'])
                    && !d.contains(char::is_whitespace);
                if !(plain && d.contains(['*', '?', '[']) && !literal_all) {
                    continue;
                }
                d.as_str()
            }
        };
        match read_pathspec(text) {
            Pathspec::Exclude => excluded = true,
            Pathspec::Unread => out.push(Word::Dyn(text.to_string())),
            Pathspec::Path { top, literal, icase, pattern } => {
                let icase = icase || icase_all;
                let wild = !literal && pattern.contains(['*', '?', '[', '\\']);
                match (wild || icase, top) {
                    (false, false) if w.lit().is_some() => {
                        out.push(Word::Lit(if pattern.is_empty() { ".".into() } else { pattern.into() }));
                        // A directory's path names everything below it (red team 62: `git
                        // checkout -- .` and `git restore .` rewrote `.env` and Cargo.toml).
                        let dir = pattern.trim_end_matches('/');
                        let below = if matches!(dir, "" | ".") { "*".to_string() } else { format!("{dir}/*") };
                        out.extend(git_glob_cover(&below, true, false).into_iter().map(Word::Dyn));
                    }
                    (false, false) => {}
                    (_, true) if pattern.is_empty() => {
                        out.push(Word::Dyn(format!("{text} (every path of the repository)")))
                    }
                    (false, true) => out.push(Word::Dyn(pattern.to_string())),
                    (true, _) => out.extend(git_glob_cover(pattern, wild, icase).into_iter().map(Word::Dyn)),
                }
            }
        }
    }
    if excluded && out.is_empty() {
        out.push(Word::Dyn("(every path but the excluded ones)".into()));
    }
    out
}

/// Shell globs (bash's `*`, `?`, `[...]` within one name, `**` across directories) that
/// together match every path git's wildmatch `pattern` matches, where `*`, `?` and `[...]`
/// also match `/` and a leading dot (`*.env` matches `.env` and `a/b.env`). Over-approximates:
/// the literal directory before the first wildcard is kept, then the first name starts with
/// the literal text before the first wildcard and the last name ends with the literal text
/// after the last one. `wild`: the pattern holds wildcards (otherwise it is literal and only
/// `icase` applies); `icase`: each letter matches either case.
fn git_glob_cover(pattern: &str, wild: bool, icase: bool) -> Vec<String> {
    let lit = |s: &str| -> String {
        if !icase {
            return s.to_string();
        }
        s.chars()
            .map(|c| {
                if c.is_ascii_alphabetic() {
                    format!("[{}{}]", c.to_ascii_lowercase(), c.to_ascii_uppercase())
                } else {
                    c.to_string()
                }
            })
            .collect()
    };
    let is_wild = |c: char| matches!(c, '*' | '?' | '[' | ']' | '\\');
    let (true, Some(first), Some(last)) = (wild, pattern.find(is_wild), pattern.rfind(is_wild)) else {
        return vec![lit(pattern)];
    };
    // Only `?` (a few): each matches one character, a `/` or a leading dot included, so the
    // paths are the pattern with each `?` as `/`, `.` or bash's `?` (`src/a.r?` writes no
    // `src/a.rx/.env`).
    let marks = pattern.matches('?').count();
    if !pattern.contains(['*', '[', ']', '\\']) && marks <= 3 {
        let pieces: Vec<&str> = pattern.split('?').collect();
        let mut out = Vec::new();
        for choice in 0..3usize.pow(marks as u32) {
            let mut g = lit(pieces[0]);
            for (k, piece) in pieces[1..].iter().enumerate() {
                g.push(['/', '.', '?'][choice / 3usize.pow(k as u32) % 3]);
                g.push_str(&lit(piece));
            }
            if !g.starts_with('/') && !g.ends_with('/') && !g.contains("//") {
                out.push(g);
            }
        }
        return out;
    }
    let dir_end = pattern[..first].rfind('/').map_or(0, |k| k + 1);
    let dir = lit(&pattern[..dir_end]);
    let head = lit(&pattern[dir_end..first]);
    let tail = &pattern[last + 1..];
    // Names (one path segment) that start with `start` and end with `end` (both literal,
    // already cased): bash's `*` skips a leading dot, so names that may start with one are
    // also given as `.*END`, and END itself.
    let names = |start: &str, end: &str| -> Vec<String> {
        if !start.is_empty() {
            return vec![format!("{start}*{end}")];
        }
        let mut v = vec![format!("*{end}"), format!(".*{end}")];
        if end.starts_with('.') {
            v.push(end.to_string());
        }
        v
    };
    // The last name's literal end, and the literal names after it.
    let (end, after) = match tail.split_once('/') {
        None => (lit(tail), String::new()),
        Some((e, rest)) => (lit(e), format!("/{}", lit(rest))),
    };
    let mut out: Vec<String> = names(&head, &end).into_iter().map(|n| format!("{dir}{n}{after}")).collect();
    // With `:(glob)`, `**/` also matches no directory at all (`src/**/.env` is `src/.env`).
    if pattern.contains("**") && !after.is_empty() {
        out.push(format!("{dir}{}", &after[1..]));
    }
    for a in names(&head, "") {
        for b in names("", &end) {
            out.push(format!("{dir}{a}/**/{b}{after}"));
        }
    }
    out
}

/// `git checkout-index [--prefix=P] PATH...` writes P+PATH for each path; with `-a`/`--all`
/// every tracked file, with `--stdin` the paths it reads, with `--temp` temporary files: paths
/// gate cannot name (under the prefix's directory when there is one).
fn checkout_index_writes(rest: &[Word]) -> Vec<Word> {
    let mut prefix: Option<Word> = None;
    let mut unnamed = false;
    let mut paths: Vec<&Word> = Vec::new();
    let mut after_dd = false;
    for w in rest {
        match w.lit() {
            Some("--") if !after_dd => after_dd = true,
            Some(a) if !after_dd && a.starts_with("--") => {
                let name = a.split('=').next().unwrap_or(a);
                if let Some(p) = a.strip_prefix("--prefix=") {
                    prefix = Some(Word::Lit(p.to_string()));
                } else if ["--all", "--stdin", "--temp"].iter().any(|o| o.starts_with(name) && name.len() > 2) {
                    unnamed = true;
                }
            }
            Some(a) if !after_dd && a.starts_with('-') && a.len() > 1 => unnamed |= a.contains('a'),
            None if !after_dd && w.display().starts_with("--prefix=") => {
                prefix = Some(Word::Dyn(w.display()));
            }
            _ => paths.push(w),
        }
    }
    let with_prefix = |p: &Word| match (&prefix, p) {
        (None, p) => p.clone(),
        (Some(Word::Lit(pre)), Word::Lit(p)) => Word::Lit(format!("{pre}{p}")),
        (Some(pre), p) => Word::Dyn(format!("{}{}", pre.display(), p.display())),
    };
    let mut out: Vec<Word> = paths.into_iter().map(with_prefix).collect();
    if unnamed {
        // Every file, its path glued to the prefix: under a directory prefix (`out/`), that
        // directory; else a glob of the names the prefix begins (`--prefix=.env` writes
        // `.env.env`, `.envhost.yaml`: red team 40).
        match &prefix {
            Some(Word::Lit(pre))
                if pre.contains('/') && (pre.ends_with('/') || pre.contains(['*', '?', '[', '\\'])) =>
            {
                out.push(Word::Dyn(format!("{}/*", pre[..pre.rfind('/').unwrap_or(0)].trim_end_matches('/'))));
            }
            Some(Word::Lit(pre)) if !pre.contains(['*', '?', '[', '\\']) => out.push(Word::Dyn(format!("{pre}*"))),
            Some(pre) => out.push(Word::Dyn(format!("({}... every file checkout-index writes)", pre.display()))),
            None => out.push(Word::Dyn("(every file checkout-index writes)".into())),
        }
    }
    out
}

/// The files wget names itself (red team 40: `wget https://host/.env` writes `.env`): without
/// `-O`, each URL's last path segment (`index.html` for none) under `-P DIR`; and a wgetrc
/// command given with `-e` that sets an output file (`-e output_document=.env`).
fn wget_writes(args: &[Word]) -> Vec<Word> {
    let mut out = Vec::new();
    for cmd in option_values(args, &["-e", "--execute"]).iter().filter_map(Word::lit) {
        if let Some((k, v)) = cmd.split_once('=') {
            let key: String =
                k.trim().chars().filter(|c| *c != '_' && *c != '-').collect::<String>().to_ascii_lowercase();
            if matches!(
                key.as_str(),
                "outputdocument"
                    | "logfile"
                    | "savecookies"
                    | "dirprefix"
                    | "warcfile"
                    | "rejectedlog"
                    | "hstsfile"
                    | "defaultpage"
            ) {
                out.push(Word::Lit(v.trim().to_string()));
            }
        }
    }
    if !option_values(args, &["-O", "--output-document"]).is_empty() {
        return out;
    }
    let dir = option_values(args, &["-P", "--directory-prefix"]).pop();
    // A URL ending in `/` is saved under `--default-page` (red team 57: `--default-page=.env`).
    let index = option_values(args, &["--default-page"]).pop();
    out.extend(url_names(args, dir.as_ref(), index.as_ref().unwrap_or(&Word::Lit("index.html".into()))));
    out
}

/// The files a downloader saves its URLs to by default: each URL's last name (`index` where
/// it has none), below `dir`.
fn url_names(args: &[Word], dir: Option<&Word>, index: &Word) -> Vec<Word> {
    let mut out = Vec::new();
    for url in args.iter().filter_map(Word::lit).filter(|a| a.contains("://") && !a.starts_with('-')) {
        let rest = url.split_once("://").map_or("", |(_, r)| r);
        let path = rest.split_once('/').map_or("", |(_, p)| p);
        let path = path.split(['#']).next().unwrap_or("");
        let name = match path.rsplit('/').next().filter(|n| !n.is_empty()) {
            Some(n) => Word::Lit(n.to_string()),
            None => index.clone(),
        };
        out.push(match dir {
            Some(d) => under(Some(d), &name),
            None => name,
        });
    }
    out
}

/// What tar writes: the archive it creates (`-cf A`), or the members it extracts, under
/// `-C DIR` (all of DIR when no member is named).
fn tar_writes(args: &[Word]) -> Vec<Word> {
    match grammar::grammar("tar").map(|g| grammar::parse(g, args)) {
        Some(Ok(p)) => {
            let given = |names: &[&str]| p.opts.iter().any(|f| names.contains(&f.opt.name));
            let last = |names: &[&str]| {
                p.opts.iter().filter(|f| names.contains(&f.opt.name)).rev().find_map(|f| f.value.clone())
            };
            // The modes that write the archive itself.
            let changes =
                ["-c", "--create", "-r", "--append", "-u", "--update", "-A", "--catenate", "--concatenate", "--delete"];
            let mode = if given(&["-x", "--extract", "--get"]) {
                // Extracted to stdout, nothing lands on disk.
                (!given(&["-O", "--to-stdout"])).then_some('x')
            } else {
                given(&changes).then_some('c')
            };
            tar_targets(mode, last(&["-f", "--file"]), last(&["-C", "--directory"]), &p.operands)
        }
        // Words the table does not place (the part is unmodelled anyway): read generously.
        _ => tar_writes_loosely(args),
    }
}

/// What unzip extracts, read as unzip.c reads its words (sixth red team: `unzip -o x.zip .env`
/// and `unzip x.zip '.env*'` overwrote `.env` while gate saw no write): bundles of option
/// letters first (`-d DIR` and `-P PW` take the rest of the bundle or the next word), the
/// archive, then member patterns up to `-x` (the exclusions) or a first `-d DIR` (after
/// which more words are members only when `-d DIR` came right after the archive). Listing,
/// testing and piping (`-l -v -t -z -c -p -T`, zipinfo's `-Z`) write nothing. Each member is
/// written under DIR (or `.`); a pattern (unzip matches `*`, `?` and `[...]` itself, `*`
/// across `/`), a case-blind match (`-C`) or a junked path (`-j`) names only its start; no
/// member is all of DIR. `-:` lets names climb out of DIR, and words gate cannot place
/// (a negated letter, an unknown one, a run-time word that could be an option) are files it
/// cannot name.
fn unzip_writes(args: &[Word]) -> Vec<Word> {
    let unknown = |why: &str| vec![Word::Dyn(format!("(the files unzip extracts{why})"))];
    if args.first().and_then(Word::lit).is_some_and(|a| a.starts_with("-Z")) {
        return Vec::new(); // zipinfo
    }
    let mut exdir: Option<Word> = None;
    let (mut extracts, mut junk, mut climbs, mut caseless, mut lower) = (true, false, false, false, false);
    let mut i = 0;
    // The value of `-d`/`-P`: the rest of the bundle, or the next word.
    let value = |rest: &str, i: &mut usize| -> Option<Word> {
        if rest.is_empty() {
            *i += 1;
            args.get(*i - 1).cloned()
        } else {
            Some(Word::Lit(rest.to_string()))
        }
    };
    while let Some(w) = args.get(i) {
        let a = match w {
            Word::Lit(a) if a.starts_with('-') => a.as_str(),
            Word::Dyn(raw) if grammar::could_be_option(raw) => return unknown(""),
            _ => break,
        };
        i += 1;
        for (k, c) in a.char_indices().skip(1) {
            match c {
                'd' | 'P' => {
                    let v = value(&a[k + 1..], &mut i);
                    if c == 'd' {
                        exdir = v;
                    }
                    break;
                }
                'c' | 'p' | 'l' | 't' | 'v' | 'z' | 'T' | 'h' => extracts = false,
                'j' => junk = true,
                ':' => climbs = true,
                'C' => caseless = true,
                'L' => lower = true,
                'a' | 'b' | 'B' | 'D' | 'e' | 'f' | 'u' | 'K' | 'M' | 'n' | 'o' | 'q' | 'U' | 'V' | 'W' | 'x' | 'X'
                | '^' => {}
                // `-` negates the next letter; anything else gate does not model.
                _ => return unknown(""),
            }
        }
    }
    if !extracts || args.get(i).is_none() {
        return Vec::new();
    }
    let first = i + 1; // after the archive
    let mut members: Vec<Word> = Vec::new();
    let (mut closed, mut excluding) = (false, false);
    let mut k = first;
    while let Some(w) = args.get(k) {
        k += 1;
        match w {
            Word::Lit(a) if exdir.is_none() && a.starts_with("-d") => {
                exdir = value(&a[2..], &mut k);
                // `ARCHIVE -d DIR A B`: the members follow; `ARCHIVE A -d DIR B`: B is ignored.
                closed = k - 1 > first + usize::from(a == "-d") || excluding;
            }
            Word::Dyn(raw) if grammar::could_be_option(raw) => return unknown(""),
            _ if excluding || closed => {}
            Word::Lit(a) if a == "-x" => excluding = true,
            _ => members.push(w.clone()),
        }
    }
    let dir = exdir.unwrap_or_else(|| Word::Lit(".".into()));
    if climbs {
        return unknown(", which `-:` lets leave the directory");
    }
    if members.is_empty() {
        return vec![all_under(&dir)];
    }
    let mut out = Vec::new();
    for m in members {
        let pattern = match &m {
            Word::Lit(s) => s.contains(['*', '?', '[']) || caseless,
            Word::Dyn(_) => true,
        };
        if junk {
            out.push(if pattern { all_under(&dir) } else { under(Some(&dir), &base_name(&m)) });
            continue;
        }
        let target = under(Some(&dir), &m);
        // A case-blind name still matches its own spelling.
        if caseless && matches!(&m, Word::Lit(s) if !s.contains(['*', '?', '['])) {
            out.push(target.clone());
        }
        if lower {
            if let Word::Lit(s) = &target {
                out.push(Word::Lit(s.to_lowercase()));
            }
        }
        out.push(match target {
            Word::Lit(t) if pattern => Word::Dyn(t),
            t => t,
        });
    }
    out
}

fn tar_targets(mode: Option<char>, file: Option<Word>, dir: Option<Word>, members: &[Word]) -> Vec<Word> {
    match mode {
        Some('c') => file.into_iter().filter(|f| f.lit() != Some("-")).collect(),
        Some('x') if members.is_empty() => vec![all_under(dir.as_ref().unwrap_or(&Word::Lit(".".into())))],
        Some('x') => members.iter().map(|m| under(dir.as_ref(), m)).collect(),
        _ => Vec::new(),
    }
}

fn tar_writes_loosely(args: &[Word]) -> Vec<Word> {
    let mut mode: Option<char> = None;
    let mut file: Option<Word> = None;
    let mut dir: Option<Word> = None;
    let mut members: Vec<Word> = Vec::new();
    // Letters that take a value, in bundles and in the old style (`tar xfC a.tar dir`).
    let takes = |c: char| "fCTXbHKLNVg".contains(c);
    let mut pending: Vec<char> = Vec::new();
    let mut after_dd = false;
    for (k, w) in args.iter().enumerate() {
        if let Some(c) = pending.first().copied() {
            pending.remove(0);
            match c {
                'f' => file = Some(w.clone()),
                'C' => dir = Some(w.clone()),
                _ => {}
            }
            continue;
        }
        let Some(a) = w.lit() else {
            members.push(w.clone());
            continue;
        };
        if after_dd {
            members.push(w.clone());
        } else if a == "--" {
            after_dd = true;
        } else if let Some(long) = a.strip_prefix("--") {
            let (n, v) = match long.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (long, None),
            };
            let is = |full: &str| n.len() >= 3 && full.starts_with(n);
            if is("extract") || is("get") {
                mode = Some('x');
            } else if is("create") || is("append") || is("update") || is("catenate") || is("concatenate") {
                mode = Some('c');
            } else if is("file") || is("directory") {
                let target = if is("file") { &mut file } else { &mut dir };
                match v {
                    Some(v) => *target = Some(Word::Lit(v.to_string())),
                    None => pending.push(if is("file") { 'f' } else { 'C' }),
                }
            }
        } else if a.starts_with('-') || k == 0 {
            let letters: Vec<char> = a.trim_start_matches('-').chars().collect();
            let old_style = !a.starts_with('-');
            for (j, c) in letters.iter().enumerate() {
                match c {
                    'x' => mode = Some('x'),
                    'c' | 'r' | 'u' | 'A' => mode = Some('c'),
                    _ => {}
                }
                if takes(*c) {
                    if old_style {
                        pending.push(*c);
                    } else {
                        let rest: String = letters[j + 1..].iter().collect();
                        if rest.is_empty() {
                            pending.push(*c);
                        } else {
                            let v = Some(Word::Lit(rest));
                            match c {
                                'f' => file = v,
                                'C' => dir = v,
                                _ => {}
                            }
                        }
                        break;
                    }
                }
            }
        } else {
            members.push(w.clone());
        }
    }
    tar_targets(mode, file, dir, &members)
}

/// The backups sed (or perl) `-iSUFFIX` makes of `files`: FILE.SUFFIX, or with `*` in the
/// suffix, the suffix with each `*` the file as given (GNU sed 4.9: `-i'x*'` backs `docs/a.md`
/// up to `xdocs/a.md`; red team 73 found gate placing it beside the file).
fn backups(files: &[Word], suffix: Option<&Word>) -> Vec<Word> {
    let mut out = Vec::new();
    for f in files {
        match (suffix, f) {
            (Some(Word::Lit(sfx)), Word::Lit(file)) if !sfx.is_empty() => {
                out.push(Word::Lit(if sfx.contains('*') { sfx.replace('*', file) } else { format!("{file}{sfx}") }));
            }
            // A name only known at run time: a glob's (`*.md`, or one of its
            // names, a loop's `"$f"`), or a listing's (`{}`, xargs's), each `*`
            // of the suffix standing for it (red team 75: `cd docs && sed
            // -i'../../*' s/a/b/ *.md` wrote `../../a.md`; `ls | xargs sed
            // -i'.env*'` wrote `.enva.md`). A listing's name is any name there.
            (Some(Word::Lit(sfx)), Word::Dyn(d)) if !sfx.is_empty() => {
                let listed = d.contains("{}") || d == super::ADDED_AT_RUN_TIME;
                let name = if listed { "*" } else { d.trim_matches('"') };
                out.push(Word::Dyn(if sfx.contains('*') {
                    sfx.replace('*', name)
                } else if listed {
                    format!("{}{sfx}", super::ADDED_AT_RUN_TIME)
                } else {
                    format!("{name}{sfx}")
                }));
            }
            (Some(Word::Dyn(d)), _) => out.push(Word::Dyn(d.clone())),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// git's wildmatch without WM_PATHNAME (a pathspec's default): `*` any text, `/` and a
    /// leading dot included; `?` any one character. The walker's matcher for bash's
    /// `${x#p}` reads `*` and `?` the same way.
    use super::super::walk::pattern_matches as git_match;

    /// bash's glob within one name (`*` and `?` skip `/`, which names do not hold), with
    /// classes of plain characters.
    fn name_match(p: &[u8], s: &[u8]) -> bool {
        match p.split_first() {
            None => s.is_empty(),
            Some((b'*', rest)) => (0..=s.len()).any(|k| name_match(rest, &s[k..])),
            Some((b'?', rest)) => !s.is_empty() && name_match(rest, &s[1..]),
            Some((b'[', rest)) => {
                let Some(end) = rest.iter().position(|&c| c == b']') else { return false };
                !s.is_empty() && rest[..end].contains(&s[0]) && name_match(&rest[end + 1..], &s[1..])
            }
            Some((c, rest)) => s.first() == Some(c) && name_match(rest, &s[1..]),
        }
    }

    /// A path gate's shell-glob reading matches: name by name, `**` any number of names, and
    /// a name starting with a dot only where the glob's name starts with one.
    fn shell_match(p: &[&str], s: &[&str]) -> bool {
        match (p.split_first(), s.split_first()) {
            (None, None) => true,
            (Some((&"**", rest)), _) => (0..=s.len()).any(|k| shell_match(rest, &s[k..])),
            (Some((g, rest)), Some((n, more))) => {
                (g.starts_with('.') || !n.starts_with('.'))
                    && name_match(g.as_bytes(), n.as_bytes())
                    && shell_match(rest, more)
            }
            _ => false,
        }
    }

    fn covered(pattern: &str, path: &str) -> bool {
        let names: Vec<&str> = path.split('/').collect();
        git_glob_cover(pattern, true, false).iter().any(|g| shell_match(&g.split('/').collect::<Vec<_>>(), &names))
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]
        /// Sound: every path git's pattern matches is matched by one of the shell globs that
        /// stand for it.
        #[test]
        fn git_glob_cover_never_misses_a_path(
            pattern in "[ab.]{0,2}[*?][ab.*?/]{0,4}|[ab./]{0,2}\\?[ab./?]{0,4}",
            path in "\\.?[ab][ab.]{0,2}(/\\.?[ab][ab.]{0,2}){0,2}",
        ) {
            proptest::prop_assume!(!pattern.contains("//") && !pattern.starts_with('/'));
            if git_match(pattern.as_bytes(), path.as_bytes()) {
                proptest::prop_assert!(covered(&pattern, &path), "{pattern} {path} {:?}", git_glob_cover(&pattern, true, false));
            }
        }
    }

    #[test]
    fn git_pathspecs_as_git_reads_them() {
        let t = |s: &str| git_pathspec_targets(&[Word::Lit(s.into())], false, false);
        // A path, and what lies below it where it is a directory (red team 62).
        let path_and_below = |spec: &str, path: &str| {
            let got = t(spec);
            got.first() == Some(&Word::Lit(path.into()))
                && got[1..].iter().all(|w| matches!(w, Word::Dyn(d) if d.starts_with(&format!("{path}/"))))
                && got.len() > 1
        };
        assert!(path_and_below(".env", ".env"), "{:?}", t(".env"));
        assert_eq!(t(":(top).env"), vec![Word::Dyn(".env".into())]);
        assert_eq!(t(":/:.env"), vec![Word::Dyn(".env".into())]);
        assert!(path_and_below(":.env", ".env"));
        assert_eq!(t(":(literal)*.env").first(), Some(&Word::Lit("*.env".into())));
        assert!(t(".").contains(&Word::Dyn("*".into())), "{:?}", t("."));
        assert_eq!(t(":(icase).Env"), vec![Word::Dyn(".[eE][nN][vV]".into())]);
        assert!(matches!(t(":!src").as_slice(), [Word::Dyn(_)]), "only exclusions: every other path");
        assert!(t(":^src").len() == 1 && t(":(exclude)src").len() == 1);
        assert_eq!(
            git_pathspec_targets(&[Word::Lit(":!src".into()), Word::Lit("a".into())], false, false).first(),
            Some(&Word::Lit("a".into()))
        );
        assert_eq!(t(":#x"), vec![Word::Dyn(":#x".into())], "magic git refuses");
        assert_eq!(t(":(foo)x"), vec![Word::Dyn(":(foo)x".into())]);
        assert!(covered("*.env", ".env") && covered("*.env", "a/b.env") && covered("src*", "src/.env"));
        assert!(git_glob_cover("src/**/.env", true, false).contains(&"src/.env".to_string()));
    }
}
