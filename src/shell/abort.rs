//! Errors that make bash skip the rest of the line they are on.
//!
//! bash in its non-POSIX mode, reading a script, abandons the rest of the current line (the
//! complete command being run, with everything after it up to the line's end) when an
//! expansion fails, and goes on with the next line: what the rest of the line would have
//! changed (a `cd`, an assignment, a function) did not happen (red teams 52 and 100: `: $((1
//! 2)); cd src` then `ls ..` on the next line lists the workspace's parent). The walker asks
//! [`may_abort_line`] of each line and each command in it, and walks what follows an item that
//! may abort as maybe not run.
//!
//! The rule is fail closed: an expansion may fail unless it is one gate proves cannot
//! (arithmetic made of plain numbers, names holding plain numbers and operators that cannot
//! err; a substring with literal bounds; a subscript that is a plain index). This module reads
//! text only; it does no I/O and knows the walk only through [`Reading`].

use super::tables;

/// What [`may_abort_line`] knows of the walk where it looks.
pub(super) struct Reading<'a> {
    /// Names the text makes read-only (an assignment to one fails).
    pub readonly: &'a [String],
    /// Whether `failglob` may be on (a glob that matches nothing fails).
    pub failglob: bool,
    /// Whether a name may have the integer attribute (an assignment evaluates arithmetic).
    pub integer: &'a dyn Fn(&str) -> bool,
    /// What a name holds as arithmetic reads it: [`Held::Number`], a plain decimal number (no
    /// leading zero); [`Held::NumberOrNothing`]; or anything else.
    pub held: &'a dyn Fn(&str) -> Held,
    /// The functions defined so far, with their bodies' text: calling one runs its body on
    /// the caller's line, and an error there ends that line too.
    pub bodies: &'a [(String, String)],
}

/// What a name holds, as [`Reading::held`] says.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Held {
    /// A plain decimal number, never nothing.
    Number,
    /// A plain decimal number, or nothing (which arithmetic reads as 0 by name, but which
    /// leaves a hole where `$NAME` is expanded).
    NumberOrNothing,
    /// Anything.
    Other,
}

/// What bash's arithmetic skips between tokens (not `\r`, `\f`, `\v`: red team 102).
const BLANKS: &[char] = &[' ', '\t', '\n'];

/// A decimal number bash reads as itself: digits, no leading zero (`08` is a bad octal
/// number), at most 18 of them (bash wraps past 2^63 - 1 without a word: `18446744073709551616`
/// is 0, red team 102's divisor).
pub(super) fn plain_decimal(t: &str) -> bool {
    !t.is_empty() && t.len() <= 18 && t.bytes().all(|c| c.is_ascii_digit()) && (t == "0" || !t.starts_with('0'))
}

/// Whether the text after a name (`=VALUE`, `+=VALUE`) gives it a plain decimal number, or a
/// negative one: what an integer name takes without an error.
fn plain_assigned(after: &str) -> bool {
    let value = after.trim_start_matches('+').strip_prefix('=').unwrap_or("");
    let value = &value[..value.find([' ', '\t', '\n', ';', '&', '|', ')']).unwrap_or(value.len())];
    plain_decimal(value.strip_prefix('-').unwrap_or(value))
}

/// Whether a name is read-only: one of bash's own, or one the text or the walk makes so (`*`: a
/// name known only at run time, which may be any).
fn read_only(name: &str, r: &Reading) -> bool {
    READONLY_VARIABLES.contains(&name) || r.readonly.iter().any(|n| n == name || n == "*")
}

/// bash's variables that are read-only from the start: assigning one is an error.
const READONLY_VARIABLES: &[&str] = &["UID", "EUID", "PPID", "BASHOPTS", "SHELLOPTS", "BASH_VERSINFO"];

/// Whether a command (as text) can raise an error that makes bash skip the rest of the line
/// it is on (bash's non-POSIX mode goes on with the next line; red team 52): arithmetic
/// that can divide by zero, raise to a negative power or read an invalid number (`$((1/0))`,
/// `$((08))`); an assignment to a read-only variable (`UID=`, a `readonly` name) or through a
/// subscript not known to be a plain index (`a[-1]=x`); `${x?}` of an unset name; any glob
/// under `failglob`. (A text a command substitution or subshell runs counts too: erring on
/// the side of the line not running on.)
pub(super) fn may_abort_line(text: &str, r: &Reading) -> bool {
    may_abort_seen(text, r, &mut Vec::new())
}

/// [`may_abort_line`], with the functions whose bodies are read already (each once: a body
/// read again adds nothing, and reading each with every other left was factorial in the
/// number of functions that call each other, review of red team 106).
fn may_abort_seen(text: &str, r: &Reading, seen: &mut Vec<String>) -> bool {
    if r.failglob && text.contains(['*', '?', '[']) {
        return true;
    }
    if text.contains(":?") || text.contains("?}") {
        return true;
    }
    if arithmetic_may_fail(text) || expansion_may_fail(text, r) || calls_may_abort(text, r, seen) {
        return true;
    }
    // Assignments: NAME=, NAME+=, NAME[SUB]=, `for NAME`, `read ... NAME`, `-v NAME`.
    let b = text.as_bytes();
    let is_name = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        if is_name(b[i]) && (i == 0 || !is_name(b[i - 1]) && !matches!(b[i - 1], b'$' | b'{' | b'-' | b'.' | b'/')) {
            let start = i;
            while i < b.len() && is_name(b[i]) {
                i += 1;
            }
            let name = &text[start..i];
            let rest = &text[i..];
            let assigns = rest.starts_with('=') || rest.starts_with("+=");
            let ro = read_only(name, r);
            // A name with the integer attribute (or `OPTIND`, `SRANDOM`, `HISTCMD`) evaluates
            // what it is given as arithmetic, which may fail, even in a declaration (`declare
            // -i n="1 2"`, red team 100); but for a plain number.
            let plain_value = assigns && plain_assigned(rest);
            if (r.integer)(name) && !plain_value && (assigns || text[..start].trim_end().ends_with(" -v")) {
                return true;
            }
            // (`read ... n`, `mapfile n`, `printf -v n`: an operand of that command.)
            let command = &text
                [text[..start].rfind([';', '&', '|', '\n', '(', ')', '{', '}', '<', '>']).map_or(0, |k| k + 1)..start];
            let reader = command.split_whitespace().any(|w| {
                matches!(w, "read" | "mapfile" | "readarray" | "printf" | "for" | "getopts" | "wait" | "select")
            });
            if (r.integer)(name) && reader {
                return true;
            }
            // (A declaration builtin's own assignment fails without ending the line: `readonly
            // OUT=docs/x.md` on its line, where the text makes OUT read-only, red team 91.)
            let declared = assigns && !READONLY_VARIABLES.contains(&name) && declaration_word(&text[..start]);
            if ro && !declared && (assigns || rest.starts_with('[') || text[..start].trim_end().ends_with(" -v")) {
                return true;
            }
            if ro && (text[..start].trim_end().ends_with("for") || text[..start].contains("read ")) {
                return true;
            }
            if let Some(sub) = rest.strip_prefix('[') {
                if let Some(end) = sub.find(']') {
                    let after = &sub[end + 1..];
                    // A subscript that can be negative or empty: one computed at run time, a
                    // `-`, or a name the text gives a negative value (`k=-1; a[k]=x`).
                    // (Red team 101: `k="-9"; a[k]=x`.) Sure only for a plain index, or a
                    // name holding one that is not negative.
                    let inner = &sub[..end];
                    let named = super::walk::referenced_variable(inner).unwrap_or(inner);
                    let plain_index = plain_decimal(inner);
                    let may_be_bad =
                        !(plain_index || (tables::is_identifier(named) && (r.held)(named) == Held::Number));
                    let assigned = after.starts_with('=') || after.starts_with("+=");
                    if assigned && may_be_bad && tables::is_identifier(name) {
                        return true;
                    }
                    // An integer array's element evaluates its value (`declare -ai a; a[0]="1
                    // 2"`, red team 103).
                    if assigned && (r.integer)(name) && !plain_assigned(after) {
                        return true;
                    }
                }
            }
            continue;
        }
        i += 1;
    }
    false
}

/// Whether the simple command a text ends inside is a declaration builtin (`readonly`,
/// `declare`, `typeset`, `local`, `export`) whose words so far are options or assignments of
/// plain words: an assignment there is the builtin's, which fails without ending the line.
pub(super) fn declaration_word(before: &str) -> bool {
    let start = before.rfind([';', '&', '|', '\n', '(', ')', '{', '}', '`', '$', '"', '\'', '\\']).map_or(0, |k| k + 1);
    let mut words = before[start..].split_whitespace().skip_while(|w| matches!(*w, "then" | "do" | "else" | "!"));
    let Some(first) = words.next() else { return false };
    matches!(first, "readonly" | "declare" | "typeset" | "local" | "export")
        && words.all(|w| w.starts_with('-') || w.split_once('=').is_some_and(|(n, _)| tables::is_identifier(n)))
}

/// Whether arithmetic in a text (`$((...))`, `$[...]`, `((...))`, `let ...`) can fail
/// (the first check, kept for `((...))` and `let`, which bash 5.2 lets fail without ending
/// the line, and every expansion checked again by [`expansion_may_fail`]):
/// `/` or `%` by what is not a literal non-zero number, `**`, a number with a leading zero and
/// an 8 or 9 in it (not octal), or a base (`#`).
fn arithmetic_may_fail(text: &str) -> bool {
    let mut segments: Vec<&str> = Vec::new();
    for (open, close) in [("((", "))"), ("$[", "]")] {
        let mut rest = text;
        while let Some(k) = rest.find(open) {
            let after = &rest[k + open.len()..];
            let end = after.find(close).unwrap_or(after.len());
            segments.push(&after[..end]);
            rest = &after[end..];
        }
    }
    for stmt in text.split(['\n', ';', '&', '|']) {
        let t = stmt.trim_start();
        if let Some(args) = t.strip_prefix("let ") {
            segments.push(args);
        }
    }
    segments.iter().any(|seg| {
        let b = seg.as_bytes();
        if seg.contains("**") || seg.contains('#') {
            return true;
        }
        for (k, &c) in b.iter().enumerate() {
            if c == b'/' || c == b'%' {
                let rest = seg[k + 1..].trim_start_matches('=').trim_start();
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                let next = rest[digits.len()..].chars().next();
                let literal = !digits.is_empty()
                    && !digits.starts_with('0')
                    && next.is_none_or(|n| !n.is_ascii_alphanumeric() && n != '_' && n != '.');
                if !literal {
                    return true;
                }
            }
        }
        // A literal with a leading zero is octal: 8 and 9 are not digits there.
        seg.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').any(|tok| {
            tok.len() > 1
                && tok.starts_with('0')
                && !tok.starts_with("0x")
                && !tok.starts_with("0X")
                && tok.contains(['8', '9'])
                && tok.bytes().all(|c| c.is_ascii_digit())
        })
    })
}

/// Whether an expansion in a text may fail (and end the line): `$((...))` or `$[...]` whose
/// arithmetic [`arithmetic_is_sure`] cannot prove, a substring `${NAME:OFFSET:LENGTH}` whose
/// bounds are not plain numbers (a negative length past the start fails: `${x:0:-5}`), an
/// indirection `${!NAME}` (an invalid name fails), and a subscript `NAME[SUB]` anywhere that
/// is not a plain index, `@` or `*` (arithmetic, or a bad subscript).
fn expansion_may_fail(text: &str, r: &Reading) -> bool {
    let b = text.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"$((") {
            let Some(end) = closing(text, i + 1) else { return true };
            // (`$((` closes with `))`: the content is between the two parentheses.)
            let inner = &text[i + 3..end];
            if !inner.ends_with(')') || !arithmetic_is_sure(&inner[..inner.len() - 1], r) {
                return true;
            }
            i = end + 1;
            continue;
        }
        if b[i..].starts_with(b"$[") {
            let Some(end) = text[i..].find(']') else { return true };
            if !arithmetic_is_sure(&text[i + 2..i + end], r) {
                return true;
            }
            i += end + 1;
            continue;
        }
        if b[i..].starts_with(b"${") {
            if braced_may_fail(&text[i + 2..], r) {
                return true;
            }
            i += 2;
            continue;
        }
        if b[i] == b'[' && i > 0 {
            // `NAME[SUB]` (not `$NAME[...]`, which is `$NAME` and text).
            let before = &text[..i];
            let name_start = before.trim_end_matches(|c: char| c.is_ascii_alphanumeric() || c == '_').len();
            let name = &before[name_start..];
            let prefixed = before[..name_start].ends_with('$');
            if tables::is_identifier(name) && !prefixed {
                let Some(end) = text[i + 1..].find(']') else { return true };
                if !subscript_is_sure(&text[i + 1..i + 1 + end], r) {
                    return true;
                }
            } else if name.is_empty() && before.ends_with(|c: char| c == '(' || BLANKS.contains(&c)) {
                // A compound assignment's `[KEY]=VALUE` (`a=([1/0]=x)`, red team 103): an
                // indexed array's key is arithmetic.
                if let Some(end) = text[i + 1..].find(']') {
                    let after = &text[i + 2 + end..];
                    if (after.starts_with('=') || after.starts_with("+="))
                        && !subscript_is_sure(&text[i + 1..i + 1 + end], r)
                    {
                        return true;
                    }
                }
            }
        }
        i += 1;
    }
    false
}

/// The index of the `)` that closes the `(` at `open` in `text` (quotes not read: a quote
/// inside makes the arithmetic unsure anyway).
fn closing(text: &str, open: usize) -> Option<usize> {
    let mut depth = 0usize;
    for (k, c) in text[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(open + k);
                }
            }
            _ => {}
        }
    }
    None
}

/// Whether what follows `${` may fail: a substring with bounds that are not plain numbers, an
/// indirection, or a subscript that is not sure ([`subscript_is_sure`], read by the caller's
/// scan of `[`).
fn braced_may_fail(after: &str, r: &Reading) -> bool {
    let Some(end) = after.find('}') else { return true };
    let body = &after[..end];
    if !braced_well_formed(body) {
        return true;
    }
    // `${r=W}`, `${r:=W}` assign W where r is unset (or empty): to a read-only name that fails,
    // to an integer one W is arithmetic (red team 103).
    let name = &body[..body.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(body.len())];
    let after_name = body[name.len()..].split_once(']').map_or(&body[name.len()..], |(sub, rest)| {
        if sub.starts_with('[') {
            rest
        } else {
            &body[name.len()..]
        }
    });
    if (after_name.starts_with('=') || after_name.starts_with(":="))
        && tables::is_identifier(name)
        && (read_only(name, r) || (r.integer)(name))
    {
        return true;
    }
    if let Some(name) = body.strip_prefix('!') {
        // `${!NAME}` and every operator on it: the value must be a valid name. Only the
        // listings `${!NAME[@]}`, `${!NAME[*]}`, `${!PREFIX*}`, `${!PREFIX@}` cannot fail (red
        // team 107: `${!x:-d}`, `${!x#d}`, `${!x[0]}` end the line).
        let listing = ["[@]", "[*]", "*", "@"].iter().any(|l| name.strip_suffix(l).is_some_and(tables::is_identifier));
        return !listing;
    }
    let name_len = body
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(body.len())
        .max(usize::from(body.starts_with(['@', '*', '#', '?', '$', '!', '-'])));
    let mut rest = &body[name_len..];
    if rest.starts_with('[') {
        let Some(close) = rest.find(']') else { return true };
        rest = &rest[close + 1..];
    }
    let Some(bounds) = rest.strip_prefix(':') else { return false };
    if bounds.starts_with(['-', '=', '?', '+']) {
        return false;
    }
    let (offset, length) = match bounds.split_once(':') {
        Some((o, l)) => (o, Some(l)),
        None => (bounds, None),
    };
    let plain = |t: &str| plain_decimal(t.trim_matches(BLANKS));
    let offset_sure = plain(offset)
        || offset.strip_prefix(' ').and_then(|o| o.trim_start_matches(BLANKS).strip_prefix('-')).is_some_and(plain);
    !(offset_sure && length.is_none_or(plain))
}

/// The first `${...}` in a text that bash expands and refuses as a bad substitution (`${ x}`,
/// `${x y}`): not inside single quotes, nor in the body of a here-document whose delimiter is
/// quoted (`<<'EOF'`), where it is text (a JavaScript template `${a.b}` written to a file).
pub(super) fn bad_substitution(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut double = false;
    while i < b.len() {
        match b[i] {
            b'\\' => {
                i += 2;
                continue;
            }
            b'\'' if !double => {
                i += 1 + text.get(i + 1..)?.find('\'')? + 1;
                continue;
            }
            b'"' => double = !double,
            b'<' if !double && b[i..].starts_with(b"<<") && !b[i..].starts_with(b"<<<") => {
                let word = text[i + 2..].trim_start_matches('-').trim_start();
                let word =
                    &word[..word.find(|c: char| c.is_whitespace() || ";&|<>()".contains(c)).unwrap_or(word.len())];
                if word.contains(['\'', '"', '\\']) {
                    // A quoted delimiter: the body is text, up to a line that is the delimiter.
                    let delimiter = word.replace(['\'', '"', '\\'], "");
                    let body = i + text[i..].find('\n')? + 1;
                    let end = text[body..].split_inclusive('\n').scan(body, |at, line| {
                        let start = *at;
                        *at += line.len();
                        Some((start, line))
                    });
                    let close = end
                        .filter(|(_, line)| line.trim_start_matches('\t').trim_end_matches('\n') == delimiter)
                        .map(|(at, line)| at + line.len())
                        .next()?;
                    i = close;
                    continue;
                }
            }
            b'$' if b[i..].starts_with(b"${") => {
                let after = &text[i + 2..];
                if let Some(end) = after.find('}') {
                    if !braced_well_formed(&after[..end]) {
                        return Some(format!("${{{}}}", &after[..end]));
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// Whether the text of `${...}` up to its first `}` is a parameter expansion bash reads
/// (red team 101: `${ x}` is a bad substitution, which ends the line, and the parser gate
/// uses reads it as `${x}`): `!` or `#` before a name (letters, digits or one of `@*#?$!-`),
/// a subscript, then nothing or an operator.
fn braced_well_formed(body: &str) -> bool {
    let body = body.strip_prefix(['!', '#']).filter(|b| !b.is_empty()).unwrap_or(body);
    let name_len = match body.chars().next() {
        Some(c) if c.is_ascii_alphabetic() || c == '_' => {
            body.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(body.len())
        }
        Some(c) if c.is_ascii_digit() => body.find(|c: char| !c.is_ascii_digit()).unwrap_or(body.len()),
        Some('@' | '*' | '#' | '?' | '$' | '!' | '-') => 1,
        _ => return false,
    };
    let mut rest = &body[name_len..];
    if rest.starts_with('[') {
        match rest.find(']') {
            Some(k) => rest = &rest[k + 1..],
            None => return false,
        }
    }
    const OPERATORS: [&str; 14] = [":-", ":=", ":?", ":+", "-", "=", "?", "+", ":", "#", "%", "/", "^", ","];
    rest.is_empty()
        || rest.strip_prefix('@').is_some_and(|op| op.len() == 1 && "QEPAKaUuLk".contains(op))
        || OPERATORS.iter().any(|op| rest.starts_with(op))
        || rest == "*"
        || rest == "@"
}

/// Whether a subscript cannot fail: a plain index, `@`, `*`, or sure arithmetic.
fn subscript_is_sure(sub: &str, r: &Reading) -> bool {
    // (Not a negative one, nor arithmetic that may be: `${#a[-9]}` and `${a[-9]:=x}` end the
    // line where `${a[-9]}` goes on, red team 106. A plain index, or a name holding one.)
    let sub = sub.trim_matches(BLANKS);
    let name = super::walk::referenced_variable(sub).unwrap_or(sub);
    matches!(sub, "@" | "*")
        || plain_decimal(sub)
        || (tables::is_identifier(name) && (r.held)(name) == Held::Number && arithmetic_is_sure(sub, r))
}

/// Whether bash evaluates arithmetic text without an error: operands that are plain decimal
/// numbers (no leading zero: `08` is a bad octal number; no base, no `e`), names that hold
/// plain numbers ([`Reading::held`]), `$NAME` of one that is never empty, `${#NAME}`, `$#`,
/// `$?`, `$$`; operators that cannot err between them (not `**`, `=` or `,`; `/` and `%` only
/// by a plain non-zero number), and parentheses, in an order that parses. Anything else may
/// fail (`1 2`, `1+`, `1=2`, `1e3`, a name holding `a`, which recurses).
fn arithmetic_is_sure(expr: &str, r: &Reading) -> bool {
    let b = expr.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    // Whether an operand is expected next (at the start, after an operator or `(`).
    let mut operand = true;
    let plain_number = plain_decimal;
    let word_end = |from: usize| {
        from + expr[from..].find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(expr.len() - from)
    };
    while i < b.len() {
        let c = b[i];
        if BLANKS.contains(&char::from(c)) {
            i += 1;
            continue;
        }
        if operand {
            match c {
                b'+' | b'-' | b'!' | b'~' if !expr[i + 1..].starts_with(['+', '-']) || c == b'!' || c == b'~' => i += 1,
                b'(' => {
                    depth += 1;
                    i += 1;
                }
                b'0'..=b'9' => {
                    let end = word_end(i);
                    if !plain_number(&expr[i..end]) {
                        return false;
                    }
                    i = end;
                    operand = false;
                }
                b'a'..=b'z' | b'A'..=b'Z' | b'_' => {
                    let end = word_end(i);
                    let after = expr[end..].trim_start();
                    let assigned = after.starts_with('=') && !after.starts_with("==");
                    if (r.held)(&expr[i..end]) == Held::Other || after.starts_with('[') || assigned {
                        return false;
                    }
                    i = end;
                    operand = false;
                }
                b'$' => {
                    let rest = &expr[i + 1..];
                    let (name, len) = match rest.strip_prefix('{') {
                        Some(braced) => match braced.find('}') {
                            Some(e) => (&braced[..e], e + 2),
                            None => return false,
                        },
                        None => match rest.chars().next() {
                            Some(p @ ('#' | '?' | '$')) => (&rest[..p.len_utf8()], 1),
                            _ => {
                                let e =
                                    rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
                                (&rest[..e], e)
                            }
                        },
                    };
                    let length = name.strip_prefix('#').is_some_and(|n| {
                        let n = n.strip_suffix("[@]").or_else(|| n.strip_suffix("[*]")).unwrap_or(n);
                        tables::is_identifier(n)
                    });
                    let sure = matches!(name, "#" | "?" | "$")
                        || length
                        || (tables::is_identifier(name) && (r.held)(name) == Held::Number);
                    if !sure {
                        return false;
                    }
                    i += 1 + len;
                    operand = false;
                }
                _ => return false,
            }
            continue;
        }
        // An operator, or `)`.
        let rest = &expr[i..];
        if c == b')' {
            if depth == 0 {
                return false;
            }
            depth -= 1;
            i += 1;
            continue;
        }
        const BINARY: [&str; 17] =
            ["<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "+", "-", "*", "<", ">", "&", "|", "^", "/"];
        if rest.starts_with("**") || rest.starts_with("++") || rest.starts_with("--") {
            return false;
        }
        let Some(op) = BINARY.iter().chain(&["%"]).find(|op| rest.starts_with(**op)) else { return false };
        // (An assignment operator: `<<=`, `+=`, `/=`...)
        if rest[op.len()..].starts_with('=') && !matches!(*op, "<=" | ">=" | "==" | "!=") {
            return false;
        }
        i += op.len();
        if matches!(*op, "/" | "%") {
            // By a plain non-zero number only.
            let after = expr[i..].trim_start();
            let end = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
            if !plain_number(&after[..end]) || &after[..end] == "0" {
                return false;
            }
        }
        operand = true;
    }
    // (An empty expression is 0; one that ends after an operator is an error.)
    depth == 0 && (!operand || expr.trim_matches(BLANKS).is_empty())
}

/// Whether a text calls a function defined so far whose body may end the line (the call's
/// line ends with it): each body read as the text is, once (`seen`).
fn calls_may_abort(text: &str, r: &Reading, seen: &mut Vec<String>) -> bool {
    r.bodies.iter().any(|(name, body)| {
        if seen.contains(name) {
            return false;
        }
        let called = text.match_indices(name.as_str()).any(|(k, _)| {
            let before = text[..k].chars().next_back();
            let after = text[k + name.len()..].chars().next();
            let edge = |c: Option<char>| c.is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'));
            edge(before) && edge(after)
        });
        called && {
            seen.push(name.clone());
            may_abort_seen(body, r, seen)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::{arithmetic_is_sure, may_abort_line, Held, Reading};
    use proptest::prelude::*;

    /// `n` holds 5, `z` 0, `e` nothing; any other name anything.
    fn held(name: &str) -> Held {
        match name {
            "n" | "z" => Held::Number,
            "e" => Held::NumberOrNothing,
            _ => Held::Other,
        }
    }

    fn reading<'a>(held: &'a dyn Fn(&str) -> Held, integer: &'a dyn Fn(&str) -> bool) -> Reading<'a> {
        Reading { readonly: &[], failglob: false, integer, held, bodies: &[] }
    }

    /// Whether bash, running `line` from a script file, goes on after it on the same line.
    fn bash_runs_on(line: &str) -> bool {
        let file = tempfile::NamedTempFile::new().expect("a temporary file");
        std::fs::write(file.path(), format!("n=5; z=0; e=; x=abcdef; a=(1 2 3)\n{line}; echo on\n")).expect("written");
        let out = std::process::Command::new("bash")
            .arg(file.path())
            .stdin(std::process::Stdio::null())
            .output()
            .expect("bash runs");
        String::from_utf8_lossy(&out.stdout).ends_with("on\n")
    }

    /// The forms red team 100 found, and everyday ones.
    #[test]
    fn sure_and_unsure_forms() {
        let never = |_: &str| false;
        let r = reading(&held, &never);
        for sure in [
            "1 + 2",
            "n * 2 + 1",
            "(n + z) / 2",
            "n % 3",
            " ",
            "$n - 1",
            "${#x} - 1",
            "-n",
            "!n && z || 1",
            "n << 2",
            "n >= 1",
            "n == 5",
        ] {
            assert!(arithmetic_is_sure(sure, &r), "{sure}");
            assert!(bash_runs_on(&format!(": $(({sure}))")), "{sure}");
        }
        for unsure in [
            "1 2",
            "1+",
            "1=2",
            "1e3",
            "08",
            "n / z",
            "2 ** 3",
            "q",
            "$e + 1",
            "n++",
            "x = 1",
            "1 ? 2 : 3",
            "a[1]",
            "$(echo 1)",
            "2#1",
        ] {
            assert!(!arithmetic_is_sure(unsure, &r), "{unsure}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]
        /// Arithmetic gate calls sure never ends the line in bash (bash is the oracle): red team
        /// 100's `$((1 2))`, `$((1=2))`, `$((1e3))`, `$((08))` must all read as unsure.
        #[test]
        fn sure_arithmetic_never_fails(expr in "([0-9]|n|z|e|q|\\$n|\\$e|\\$\\{#x\\}|18446744073709551616|9223372036854775808|\r|\t|[ +*/%()<>=!&|^~-]){0,9}") {
            let never = |_: &str| false;
            if arithmetic_is_sure(&expr, &reading(&held, &never)) {
                prop_assert!(bash_runs_on(&format!(": $(({expr}))")), "{expr}");
            }
        }

        /// Substrings and subscripts gate calls sure never end the line either.
        #[test]
        fn sure_substrings_and_subscripts_never_fail(
            off in "(-?[0-9]{1,2}| -[0-9]| \\(-1\\)|n|e|\\$n|1 2)",
            len in proptest::option::of("(-?[0-9]{1,2}|n|0[89]|18446744073709551611|\r2)"),
            sub in "([0-9]{1,2}|-1|@|\\*|n|\\$n|\\$e|1 2|0[89])",
        ) {
            let never = |_: &str| false;
            let r = reading(&held, &never);
            let substring = match &len {
                Some(l) => format!(": ${{x:{off}:{l}}}"),
                None => format!(": ${{x:{off}}}"),
            };
            if !may_abort_line(&substring, &r) {
                prop_assert!(bash_runs_on(&substring), "{substring}");
            }
            let subscript = format!(": ${{a[{sub}]}}");
            if !may_abort_line(&subscript, &r) {
                prop_assert!(bash_runs_on(&subscript), "{subscript}");
            }
        }

        /// Any text at all: an answer, never a panic (multi-byte characters included).
        #[test]
        fn any_text_is_read(text in "\\PC{0,40}") {
            let never = |_: &str| false;
            let _ = may_abort_line(&text, &reading(&held, &never));
        }
    }
}
