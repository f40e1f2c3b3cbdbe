//! Deciding a call where its paths really land (hardening round 2, item 1). A path is written
//! lexically (`docs/notes.md`), but the kernel follows symbolic links (`docs/notes.md` ->
//! `../.env`, `etcl/../root/x` with `etcl` -> `/etc`). This module stays pure: the caller passes
//! `real`, which maps a path as written (absolute, `..` not yet applied) to where it lands,
//! doing the I/O at the edge ([`crate::resolve`]). The call is decided as written and as
//! resolved, and the stricter decision wins: deny if either is denied, outside the workspace
//! if either is, gate's own files by their resolved identity.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::model::ToolKind;
use super::{Call, Context, Decision, Policy};
use crate::shell::{self, Word};

/// Maps a path as written (absolute, unnormalized) to where the kernel would reach it, in the
/// workspace's spelling when it lands inside; `None` when that is the path as written.
pub type Real<'a> = &'a dyn Fn(&Path) -> Option<PathBuf>;

impl Policy {
    /// [`Policy::decide`], also deciding the call with every path replaced by where it really
    /// lands; the stricter decision is the answer.
    pub fn decide_real(&self, call: &Call, ctx: &Context, real: Real) -> Decision {
        // A command is read once: the paths in it come from the same analysis.
        let _once = shell::keep_last();
        let d = self.decide(call, ctx);
        let Some((resolved, links)) = self.resolved_call(call, real) else { return d };
        let r = self.decide(&resolved, ctx);
        if r.decision > d.decision {
            let mut r = r;
            r.reason = format!("{} ({links})", r.reason);
            return r;
        }
        d
    }

    fn resolved_call(&self, call: &Call, real: Real) -> Option<(Call, String)> {
        let tools = &self.model.tools;
        let lexical = |raw: &str| -> Option<PathBuf> {
            if raw.is_empty() || raw.starts_with('~') {
                return None;
            }
            Some(if raw.starts_with('/') { PathBuf::from(raw) } else { self.cwd.join(raw) })
        };
        let mut links = Vec::new();
        let spec = tools.spec(tools.canonical(&call.tool));
        match spec.map(|s| s.kind) {
            Some(ToolKind::Shell) => {
                let spec = spec?;
                let field = spec.command.as_deref().unwrap_or("command");
                let mut command = call.arguments.get(field)?.as_str()?.to_string();
                for word in path_words(&command) {
                    let Some(to) = lexical(&word).and_then(|p| real(&p)) else { continue };
                    let to = to.display().to_string();
                    match replace_word(&command, &word, &to) {
                        Some(new) => command = new,
                        // A word the text spells another way (`{lnk,src}/passwd`, `lnk{,}/x`):
                        // decided as a read of where it lands as well.
                        None => command = format!("{command}\ncat -- {}", shell::shell_word(&to)),
                    }
                    links.push(format!("`{word}` leads to `{to}`"));
                }
                // The directory a shell tool's field moves the command to, where it lands.
                let mut args = call.arguments.clone();
                for k in shell::SHELL_DIR_FIELDS {
                    let Some(raw) = args.get(*k).and_then(Value::as_str).map(str::to_string) else { continue };
                    if let Some(to) = lexical(&raw).and_then(|p| real(&p)) {
                        links.push(format!("`{raw}` leads to `{}`", to.display()));
                        args[*k] = Value::String(to.display().to_string());
                    }
                }
                if links.is_empty() {
                    return None;
                }
                args[field] = Value::String(command);
                Some((Call { arguments: args, ..call.clone() }, links.join(", ")))
            }
            _ => {
                // Every field that names a path (issue 15 class 5: `path`, `paths`, `cwd`, an
                // MCP tool's `source`, ...), strings or arrays of them, and a glob's literal
                // directory, each where it lands.
                let declared = spec.and_then(|s| s.path.as_deref());
                let mut args = call.arguments.clone();
                let obj = args.as_object_mut()?;
                for (k, v) in obj.iter_mut() {
                    let glob = super::chain::is_glob_field(&call.tool, k);
                    if !(glob || Some(k.as_str()) == declared || super::chain::is_path_field(k)) {
                        continue;
                    }
                    let mut one = |v: &mut Value| {
                        let Some(raw) = v.as_str() else { return };
                        let (base, rest) = if glob {
                            match shell::glob_base(raw).filter(|b| b != "." && raw.starts_with(b.as_str())) {
                                Some(b) => (b.clone(), raw[b.len()..].to_string()),
                                None => return,
                            }
                        } else {
                            (raw.to_string(), String::new())
                        };
                        if let Some(to) = lexical(&base).and_then(|p| real(&p)) {
                            links.push(format!("`{base}` leads to `{}`", to.display()));
                            *v = Value::String(format!("{}{rest}", to.display()));
                        }
                    };
                    match v {
                        Value::Array(items) => items.iter_mut().for_each(&mut one),
                        v => one(v),
                    }
                }
                (!links.is_empty()).then(|| (Call { arguments: args, ..call.clone() }, links.join(", ")))
            }
        }
    }
}

/// The literal words of a shell text that may name files: every command's words (options'
/// `=VALUE` parts included) and every read and write target.
fn path_words(command: &str) -> Vec<String> {
    let a = shell::analyze(command);
    let mut out: Vec<String> = Vec::new();
    let mut globs: Vec<String> = Vec::new();
    let mut add = |w: &Word| {
        if let Some(s) = w.lit() {
            let s = if s.starts_with('-') { s.split_once('=').map(|(_, v)| v).unwrap_or("") } else { s };
            if !s.is_empty() && !out.iter().any(|o| o == s) {
                out.push(s.to_string());
            }
        }
    };
    for c in &a.commands {
        c.words.iter().skip(1).for_each(&mut add);
    }
    for w in a.writes.iter().chain(a.reads.iter()) {
        add(&w.path);
        // A glob's literal directory (`echo lnk/*` lists where `lnk` leads), and a glob of
        // plain text itself: the edge matches it against the directories, and a name it
        // matches that is a link leads where the link does (`cat */passwd` through
        // `lnk` -> `/etc`, `cat p*` through `pw` -> `/etc/passwd`).
        if let Word::Dyn(d) = &w.path {
            if let Some(base) = shell::glob_base(d).filter(|b| b != "." && b != "/") {
                add(&Word::Lit(base));
            }
            let plain = !d.contains(['$', '`', '\'', '"', '\\', '(', ')', '<', '>', '|', ';', '&', '~'])
                && !d.contains(char::is_whitespace);
            if plain && d.contains(['*', '?', '[']) {
                globs.push(d.clone());
            }
        }
    }
    for g in globs {
        if !out.contains(&g) {
            out.push(g);
        }
    }
    out
}

/// `text` with each whole-word occurrence of `word` replaced by `to` (a word boundary is the
/// text's ends, white space, quotes, redirections, `=` and command separators); `None` when it
/// does not occur as a word.
fn replace_word(text: &str, word: &str, to: &str) -> Option<String> {
    let boundary = |c: Option<char>| c.is_none_or(|c| c.is_whitespace() || "'\"<>=;|&()`".contains(c));
    let mut out = String::with_capacity(text.len() + to.len());
    let mut rest = text;
    let mut found = false;
    while let Some(i) = rest.find(word) {
        let before = out.chars().last().or(None);
        let before = if i == 0 { before } else { rest[..i].chars().last() };
        let after = rest[i + word.len()..].chars().next();
        out.push_str(&rest[..i]);
        if boundary(before) && boundary(after) {
            out.push_str(to);
            found = true;
        } else {
            out.push_str(word);
        }
        rest = &rest[i + word.len()..];
    }
    out.push_str(rest);
    found.then_some(out)
}

#[cfg(test)]
mod tests {
    use super::replace_word;

    #[test]
    fn words_are_replaced_whole() {
        assert_eq!(
            replace_word("echo x > etcl/passwd", "etcl/passwd", "/etc/passwd").as_deref(),
            Some("echo x > /etc/passwd")
        );
        assert_eq!(replace_word("cat a/b a/bc", "a/b", "/x").as_deref(), Some("cat /x a/bc"));
        assert_eq!(replace_word("cat xa/b", "a/b", "/x"), None);
        assert_eq!(replace_word("cp 'a/b' --target=a/b", "a/b", "/x").as_deref(), Some("cp '/x' --target=/x"));
    }
}
