//! The patterns that "approve for session" and "approve always" store (SPEC 3.6): the
//! narrowest useful pattern per part, by the arity table; banned prefixes store only the exact
//! command. Pure.

use serde_json::Value;

use super::model::ToolKind;
use super::rules::RuleSet;
use super::suggest_tables::{arity_prefix_len, is_banned_prefix};
use super::{Call, Context, Policy, Verdict};
use crate::shell::{self, quote, Word};

impl Policy {
    pub(crate) fn suggest_inner(&self, call: &Call) -> Vec<String> {
        let tools = &self.model.tools;
        let tool = tools.canonical(&call.tool).to_string();
        let spec = tools.spec(&tool);
        let display = |name: &str| -> String {
            tools
                .specs
                .get(name)
                .and_then(|s| s.aliases.iter().find(|a| a.chars().next().is_some_and(char::is_uppercase)).cloned())
                .unwrap_or_else(|| name.to_string())
        };
        let mut out: Vec<String> = Vec::new();
        let mut push = |p: String| {
            if !out.contains(&p) {
                out.push(p);
            }
        };
        match spec.map(|s| s.kind) {
            Some(ToolKind::Shell) => {
                let field = spec.and_then(|s| s.command.as_deref()).unwrap_or("command");
                let Some(cmd) = call.arguments.get(field).and_then(Value::as_str) else { return Vec::new() };
                let ctx = Context::default();
                let none = RuleSet::default();
                let a = shell::analyze(cmd);
                let name = display(&tool);
                let path_pattern = |tool: &str, raw: &str, cwd: Option<&str>| -> Option<String> {
                    let cwd = match cwd {
                        Some(c) => c,
                        None if raw.starts_with('/') || raw.starts_with('~') => "",
                        None => return None,
                    };
                    let p = self.resolve_path(raw, cwd).ok()?;
                    Some(format!("{}({})", display(tool), glob_escape(p.rel.as_deref().unwrap_or(&p.abs))))
                };
                for c in &a.commands {
                    if c.unknown.is_none() && self.command_verdict(&tool, c, &ctx, &none) == Verdict::Ask {
                        for w in c.wrappers.iter().filter(|w| w.kind == shell::WrapperKind::Privileged) {
                            if let Some(p) = command_pattern(&w.words, true) {
                                push(format!("{name}({p})"));
                            }
                        }
                        if let Some(p) = command_pattern(&c.words, false) {
                            push(format!("{name}({p})"));
                        }
                    }
                    if let Some(read) = tools.specs.values().find(|t| t.kind == ToolKind::Read) {
                        let reads = shell::read_targets(&c.words).into_iter().map(|w| (w, c.cwd.clone()));
                        let redirected = a.reads.iter().map(|r| (r.path.clone(), r.cwd.clone()));
                        for (w, cwd) in reads.chain(redirected) {
                            let Word::Lit(raw) = w else { continue };
                            if self.read_verdict(&raw, cwd.as_deref(), &ctx, &none) == Some(Verdict::Ask) {
                                if let Some(p) = path_pattern(&read.name, &raw, cwd.as_deref()) {
                                    push(p);
                                }
                            }
                        }
                    }
                }
                if let Some(edit) = tools.edit_tool() {
                    for w in &a.writes {
                        if let (Word::Lit(raw), Verdict::Ask) = (&w.path, self.write_verdict(w, &ctx, &none)) {
                            if let Some(p) = path_pattern(&edit.name, raw, w.cwd.as_deref()) {
                                push(p);
                            }
                        }
                    }
                }
            }
            Some(ToolKind::Edit) | Some(ToolKind::Read) => {
                let field = spec.and_then(|s| s.path.as_deref()).unwrap_or("file_path");
                if let Some(raw) = call.arguments.get(field).and_then(Value::as_str) {
                    if let Ok(p) = self.resolve_path(raw, "") {
                        push(format!("{}({})", display(&tool), glob_escape(p.rel.as_deref().unwrap_or(&p.abs))));
                    }
                }
            }
            _ => push(call.tool.clone()),
        }
        out
    }
}

/// The pattern for one command: the arity prefix then `*`, or the exact command for a banned
/// prefix (or when `exact` is asked). `None` when the words are not all known.
fn command_pattern(words: &[Word], exact: bool) -> Option<String> {
    let lits: Vec<&str> = words.iter().map(Word::lit).collect::<Option<Vec<_>>>()?;
    if lits.is_empty() {
        return None;
    }
    let mut lits = lits;
    let prog = shell::program_name(lits[0]);
    lits[0] = prog;
    let n = arity_prefix_len(&lits);
    let head = &lits[..n];
    if exact || is_banned_prefix(head) || has_destructive_forms(&lits) {
        return Some(lits.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" "));
    }
    Some(format!("{} *", head.iter().map(|w| quote(w)).collect::<Vec<_>>().join(" ")))
}

/// Commands whose forms include ones that throw work away, by the words that start them. A
/// pattern `PREFIX *` stored for the harmless form a person saw would cover the others too
/// (`git checkout *` covers `git checkout -- .` and `git checkout -f`, `git push *` covers
/// `git push --force`, `git clean *` from `git clean -n` covers `git clean -fdx`), and a
/// pattern cannot leave forms out: for these only the exact command is stored.
#[rustfmt::skip]
static DESTRUCTIVE_FORMS: &[&str] = &[
    // git: discard changes in the working tree or the index, rewrite or delete history, refs
    // or branches, or overwrite a remote.
    "git checkout", "git switch", "git restore", "git reset", "git clean", "git rm", "git branch", "git push",
    "git rebase", "git tag", "git worktree", "git reflog", "git gc", "git prune", "git update-ref",
    "git filter-branch", "git filter-repo", "git stash drop", "git stash clear", "git remote remove",
    "git remote rm", "git remote set-url",
    // Container, cluster and cloud tools: the same verb deletes other things than the one seen.
    "docker system", "docker volume", "docker image", "docker container", "docker network", "docker builder",
    "kubectl delete", "kubectl drain", "helm uninstall", "helm delete", "terraform destroy", "terraform apply",
    "gh repo delete", "gh release delete",
];

/// Whether `words` (program first) is a command with destructive forms ([`DESTRUCTIVE_FORMS`]).
fn has_destructive_forms(words: &[&str]) -> bool {
    DESTRUCTIVE_FORMS.iter().any(|form| {
        let form: Vec<&str> = form.split(' ').collect();
        // The subcommand's words anywhere among the words that are not options (`git -C dir
        // checkout x` is `git checkout`): a false match only makes the pattern narrower.
        let rest: Vec<&str> = words.iter().skip(1).filter(|w| !w.starts_with('-')).copied().collect();
        words.first() == Some(&form[0]) && rest.windows(form.len() - 1).any(|w| w == &form[1..])
    })
}

/// Escape glob characters in a literal path so the pattern names exactly that path.
fn glob_escape(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    for c in p.chars() {
        if matches!(c, '*' | '?' | '[' | ']' | '{' | '}' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
