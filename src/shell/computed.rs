//! Words computed from the call's own constants (issue 15, red team 76): `$(expr substr xrmx
//! 2 2)`, `$(xxd -r -p <<< 726d)`, `$(awk 'BEGIN{printf "%s%s", "r", "m"}')`, `"$(jq -rn
//! '".en"+"v"')"`. What they print is fixed by the call's text (no variable, file, glob or
//! program gate cannot bound is involved), so what runs is fixed too: where gate cannot compute
//! it and a deny rule could match it, the policy denies rather than asks (a person asked to
//! approve obfuscated text learns nothing from the prompt).
//!
//! Pure: text in, a yes or no out. It must never say yes for a word whose value depends on
//! anything but the call's text, the clock, or the programs listed in [`CONSTANT_FILTERS`];
//! a wrong yes only turns an ask into a deny, never into an allow.

use brush_parser::word::{self as bword, WordPiece};

use super::Word;

/// Programs that print a function of their arguments and standard input only (and the clock,
/// for `date`), when given no file operand: each either reads no file by name or has its
/// file operands in gate's tables ([`super::read_targets`]), which must find none.
const CONSTANT_FILTERS: &[&str] = &[
    "awk", "base32", "base64", "cat", "cut", "date", "echo", "expr", "fold", "head", "iconv", "jq", "nl", "od",
    "paste", "printf", "rev", "sed", "seq", "sort", "tac", "tail", "tr", "uniq", "xxd",
];

/// Whether `raw`, a word's source text, is made only of literal text and command
/// substitutions that compute from constants ([`constant_script`]), with at least one such
/// substitution: `$(expr substr xrmx 2 2)`, `r"$(printf m)"`. A variable, a glob, a `~` or
/// arithmetic makes it no. Without `clock`, `date` is not one of the filters (a dated file name,
/// `> "docs/$(date +%c).md"`, is everyday work; a dated program name is not).
pub fn computed_from_constants(raw: &str, clock: bool) -> bool {
    let Ok(Ok(pieces)) = std::panic::catch_unwind(|| bword::parse(raw, &brush_parser::ParserOptions::default())) else {
        return false;
    };
    let mut found = false;
    pieces_constant(&pieces, clock, &mut found) && found
}

fn pieces_constant(pieces: &[bword::WordPieceWithSource], clock: bool, found: &mut bool) -> bool {
    for piece in pieces {
        let ok = match &piece.piece {
            WordPiece::Text(t) => !t.contains(['*', '?', '[']),
            WordPiece::SingleQuotedText(_) | WordPiece::AnsiCQuotedText(_) | WordPiece::EscapeSequence(_) => true,
            WordPiece::DoubleQuotedSequence(inner) | WordPiece::GettextDoubleQuotedSequence(inner) => {
                pieces_constant(inner, clock, found)
            }
            WordPiece::CommandSubstitution(s) | WordPiece::BackquotedCommandSubstitution(s) => {
                *found = true;
                constant_script(s, clock)
            }
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Whether the script `text` (a substitution's) is commands of [`CONSTANT_FILTERS`] whose
/// words are all literal, with no expansion anywhere in its text (here-strings and documents
/// included), reading, writing and running nothing gate does not see: what it prints is a
/// function of its text.
fn constant_script(text: &str, clock: bool) -> bool {
    if !expands_nothing(text) {
        return false;
    }
    let a = super::analyze(text);
    !a.commands.is_empty()
        && a.reads.is_empty()
        && a.writes.is_empty()
        && a.unknown.is_empty()
        && a.commands.iter().all(|c| {
            c.wrappers.is_empty()
                && c.unknown.is_none()
                && !c.open_args
                && c.words.iter().all(|w| matches!(w, Word::Lit(_)))
                && super::read_targets(&c.words).is_empty()
                && c.words
                    .first()
                    .and_then(Word::lit)
                    .is_some_and(|p| CONSTANT_FILTERS.contains(&p) && (clock || p != "date"))
        })
}

/// Whether `text` holds no `$` expansion and no backquote outside single quotes (`$'...'`
/// is a quote, not an expansion).
fn expands_nothing(text: &str) -> bool {
    let (mut single, mut double) = (false, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if !single => {
                chars.next();
            }
            '\'' if !double => single = !single,
            '"' if !single => double = !double,
            '`' if !single => return false,
            '$' if !single && (double || chars.peek() != Some(&'\'')) => return false,
            _ => {}
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_and_not() {
        for yes in [
            "$(expr substr xrmx 2 2)",
            "$(xxd -r -p <<< 726d)",
            "$(awk 'BEGIN{printf \"%s%s\", \"r\", \"m\"}')",
            "\"$(jq -rn '\".en\"+\"v\"')\"",
            "$(sed 's/l./rm/' <<< ls)",
            "$(date +%C | sed s/26/ls/ | sed s/20/rm/)",
            "r`echo m`",
        ] {
            assert!(computed_from_constants(yes, true), "{yes}");
        }
        for no in [
            "$x",
            "$(echo $x | rev)",
            "$(cat list.txt)",
            "$(sed s/a/b/ file)",
            "$(which python3)",
            "$(ls)",
            "$(echo r)*",
            "$(xxd -r -p <<< \"$h\")",
            "$(python3 -c 'print(1)')",
            "plain",
            "$(awk '{print}' /etc/passwd)",
            "$(date -f /etc/passwd)",
            "$(date -r /etc/passwd +%s)",
            "$(sed -f s.sed <<< x)",
            "$(awk -f p.awk <<< x)",
            "$(jq -rn --rawfile a /etc/passwd '$a')",
            "$(sort -o out <<< x)",
            "$(bc <<< 1+1)",
        ] {
            assert!(!computed_from_constants(no, true), "{no}");
        }
        for dated in ["\"docs/$(date +%c).md\"", "$(date +%C | sed s/26/ls/)"] {
            assert!(!computed_from_constants(dated, false), "{dated}");
        }
    }
}
