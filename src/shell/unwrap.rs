//! Reading a wrapper's own words to find the command it runs: its options and leading
//! operands (`sudo -u x`, `timeout 5`), a `-c` script (`su -c`, `flock -c`), xargs's
//! replacement string, and the commands find's `-exec` actions run. Used by the walker's
//! `unwrap`; pure, no policy.

use super::grammar;
use super::tables::WrapperSpec;
use super::Word;

/// The text `xargs -I R` (or `-i`, `--replace`) substitutes into its command's arguments, as
/// xargs's own parser reads its words: in a bundle too (`-0I%`, `-rI%`), the last of several
/// winning, `-i` and `--replace` with an optional glued value (default `{}`). A replace string
/// only known at run time is the empty string, which every text contains.
pub(crate) fn xargs_replace_str(words: &[Word]) -> Option<String> {
    let replace = |f: &grammar::Found| match &f.value {
        Some(Word::Lit(v)) => v.clone(),
        Some(Word::Dyn(_)) => String::new(),
        None => "{}".into(),
    };
    if let Some(Ok(p)) = grammar::grammar("xargs").map(|g| grammar::parse(g, &words[1..])) {
        // A later `-L`, `-l` or `--max-lines` cancels it: GNU xargs warns, drops the replace
        // string and appends the names after the words, the replace string's own word
        // standing as written (red team 80: `xargs -I .env -L1 sed -i s/a/b/ .env` rewrote
        // `.env`). A later replace option cancels the line count in turn.
        let last = |names: &[&str]| p.opts.iter().rposition(|f| names.contains(&f.opt.name));
        let replaced = last(&["-I", "-i", "--replace"]);
        if replaced < last(&["-L", "-l", "--max-lines"]) {
            return None;
        }
        return replaced.map(|k| replace(&p.opts[k]));
    }
    // Words the table does not place (the part is unmodelled anyway): any word that could
    // give a replace string makes every text one completed at run time.
    let args = words.iter().skip(1).map_while(Word::lit).take_while(|s| s.starts_with('-') && *s != "--");
    let mut seen = false;
    for a in args {
        seen |= a.starts_with("--rep") || (!a.starts_with("--") && a[1..].contains(['I', 'i']));
    }
    seen.then(String::new)
}

/// Skip a wrapper's options and leading operands; the rest is the command it runs.
/// `None` when a word in the option area is only known at run time.
pub(super) fn skip_options(words: &[Word], spec: &WrapperSpec, unknown: &mut Option<String>) -> Option<Vec<Word>> {
    if let Some(g) = grammar::grammar(spec.name) {
        match grammar::parse(g, &words[1..]) {
            Ok(p) => {
                if let Some(f) = p.with('X').next() {
                    unknown
                        .get_or_insert_with(|| format!("`{}` makes {} run code gate cannot see", f.given, spec.name));
                }
                let start = 1 + p.end + spec.positionals;
                return Some(words[start.min(words.len())..].to_vec());
            }
            // Not modelled: the call is not allowed; the best-effort reading below still lets
            // a deny rule see the command.
            Err(e) => {
                unknown.get_or_insert(e);
            }
        }
    }
    let mut i = 1;
    while i < words.len() {
        match &words[i] {
            Word::Lit(s) if s == "--" => {
                i += 1;
                break;
            }
            Word::Lit(s) if s.starts_with("--") => {
                if !s.contains('=') && spec.value_flags.contains(&s.as_str()) {
                    i += 1;
                }
                i += 1;
            }
            Word::Lit(s) if s.starts_with('-') && s.len() > 1 => {
                if spec.value_flags.contains(&s.as_str()) {
                    i += 1;
                }
                i += 1;
            }
            Word::Lit(_) => break,
            Word::Dyn(d) => {
                // Could be an option or the command: the command is unknowable.
                if spec.positionals == 0 {
                    unknown
                        .get_or_insert_with(|| format!("`{}` runs a command only known at run time ({d})", spec.name));
                    return None;
                }
                break;
            }
        }
    }
    let mut skipped = 0;
    while skipped < spec.positionals && i < words.len() {
        i += 1;
        skipped += 1;
    }
    Some(words[i.min(words.len())..].to_vec())
}

/// For wrappers whose `-c` takes a script (`su -c`, `flock -c`): `Some(Some(text))` for a
/// literal script, `Some(None)` for a dynamic one, `None` when there is no `-c`.
pub(super) fn script_flag(words: &[Word], spec: &WrapperSpec) -> Option<Option<String>> {
    if let Some(g) = grammar::grammar(spec.name) {
        let p = grammar::parse(g, &words[1..]).ok()?;
        if let Some(f) = p.with('C').last() {
            return Some(f.value.as_ref().and_then(Word::lit).map(str::to_string));
        }
        // util-linux flock reads `-c CMD` / `--command CMD` after the lock file (`flock FILE
        // -c CMD`): exactly those words, right after it.
        if spec.name == "flock" && matches!(p.operands.get(1).and_then(Word::lit), Some("-c" | "--command")) {
            return Some(p.operands.get(2).and_then(Word::lit).map(str::to_string));
        }
        return None;
    }
    // `sg [-] GROUP [-c] COMMAND`: COMMAND is text for `sh -c`.
    if spec.name == "sg" {
        let mut rest = words[1..].iter().skip_while(|w| w.lit() == Some("-"));
        rest.next()?;
        let text = match rest.next()? {
            w if w.lit() == Some("-c") => rest.next()?,
            w => w,
        };
        return Some(text.lit().map(str::to_string));
    }
    if !matches!(spec.name, "su" | "flock" | "runuser" | "script") {
        return None;
    }
    for (i, w) in words.iter().enumerate().skip(1) {
        if let Word::Lit(s) = w {
            if s == "-c" || s == "--command" {
                return Some(words.get(i + 1).and_then(Word::lit).map(str::to_string));
            }
            if let Some(v) = s.strip_prefix("--command=") {
                return Some(Some(v.to_string()));
            }
        }
    }
    None
}

/// The commands a program's own options give it to run (effect `C` in its table), for
/// programs that are not wrappers: `tar -I CMD`, `--to-command=CMD`, `--info-script=CMD`,
/// `--checkpoint-action=exec=CMD`, `sort --compress-program=CMD`, `rg --pre=CMD`. Each is shell
/// text or a program, decided as if it ran. A value only known at run time is an `Err`.
pub(super) fn option_commands(words: &[Word]) -> Vec<Result<String, String>> {
    let Some(name) = words.first().and_then(Word::lit).map(super::program_name) else { return Vec::new() };
    let Some(Ok(p)) = grammar::grammar(name).map(|g| grammar::parse(g, &words[1..])) else { return Vec::new() };
    let mut out = Vec::new();
    for f in p.with('C') {
        match &f.value {
            // Only the `exec=` action runs a command (`echo`, `dot`, `sleep=N`... do not).
            Some(Word::Lit(v)) if f.opt.name == "--checkpoint-action" => {
                out.extend(v.strip_prefix("exec=").map(|c| Ok(c.to_string())));
            }
            Some(Word::Lit(v)) => out.push(Ok(v.clone())),
            Some(Word::Dyn(d)) => out.push(Err(d.clone())),
            None => {}
        }
    }
    out
}

/// Split `find ... -exec cmd {} ;` into find's own words and the commands it runs.
pub(super) fn split_find(words: &[Word]) -> (Vec<Word>, Vec<(Vec<Word>, bool)>) {
    let mut own = Vec::new();
    let mut execs = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let is_exec = words[i].lit().is_some_and(|s| matches!(s, "-exec" | "-execdir" | "-ok" | "-okdir"));
        if is_exec {
            let in_dir = words[i].lit().is_some_and(|s| s.ends_with("dir"));
            let mut cmd = Vec::new();
            i += 1;
            while i < words.len() {
                match words[i].lit() {
                    Some(";") => break,
                    // GNU find ends the command at `+` only right after `{}`: elsewhere it is
                    // an argument (found by the fourth red team: `-exec cat + /etc/passwd ;`).
                    Some("+") if words[i - 1].lit() == Some("{}") => break,
                    Some("{}") => cmd.push(Word::Dyn("{}".into())),
                    // GNU find replaces `{}` inside a word too: `{}/../x` from `.` is `../x`,
                    // `{}{}` is `..` (eleventh red team). Such a word is only known at run time.
                    Some(s) if s.contains("{}") => cmd.push(Word::Dyn(s.into())),
                    _ => cmd.push(words[i].clone()),
                }
                i += 1;
            }
            i += 1;
            if cmd.is_empty() {
                cmd.push(Word::Dyn("(missing command)".into()));
            }
            execs.push((cmd, in_dir));
            continue;
        }
        own.push(words[i].clone());
        i += 1;
    }
    (own, execs)
}
