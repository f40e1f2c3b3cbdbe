//! What kind of call the prompt shows, read from the policy's tool table: a shell command, an
//! edit of a file (whole new content, or `old_string`/`new_string` replacements), or anything
//! else. The prompt picks its presentation from this ([`super::present`]).
//!
//! Pure and read-only: it looks at the call's arguments and the tool table, resolves the path
//! the way the policy does, and never touches the file system or decides anything. Reading
//! the current file for a diff is [`FileNow::read`], called by the terminal prompt only.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::policy::model::ToolKind;
use crate::policy::{Call, Policy};

/// How the prompt should show a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A shell tool: the command line, and any other arguments it was given.
    Shell { command: String, extra: Option<Value> },
    /// An edit tool with a path.
    Edit(EditView),
    /// Anything else: the arguments as indented JSON.
    Other,
}

/// An edit of one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EditView {
    /// The path as the agent wrote it.
    pub path: String,
    /// The path resolved as the policy resolves it; `None` when it cannot be.
    pub abs: Option<PathBuf>,
    pub change: Change,
    /// Arguments other than the path and the change, shown as they are.
    pub extra: Option<Value>,
}

/// What an edit does to its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// Write this whole content.
    Content(String),
    /// Replace strings in the current content, in order (`edit`, `multi_edit`).
    Replace(Vec<Replacement>),
    /// Arguments gate cannot read as an edit: shown as JSON.
    Unknown,
}

/// One `old_string` → `new_string` replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replacement {
    pub old: String,
    pub new: String,
    /// `replace_all`: every occurrence, rather than exactly one.
    pub all: bool,
}

impl Shape {
    /// Read a call through the policy's tool table (aliases included).
    pub fn of(policy: &Policy, call: &Call) -> Shape {
        let tools = &policy.model.tools;
        let Some(spec) = tools.spec(&call.tool) else { return Shape::Other };
        let args = &call.arguments;
        match spec.kind {
            ToolKind::Shell => {
                let field = spec.command.as_deref().unwrap_or("command");
                match args.get(field).and_then(Value::as_str) {
                    Some(c) => Shape::Shell { command: c.to_string(), extra: extra(args, &[field]) },
                    None => Shape::Other,
                }
            }
            ToolKind::Edit => {
                let field = spec.path.as_deref().unwrap_or("file_path");
                let Some(path) = args.get(field).and_then(Value::as_str) else { return Shape::Other };
                let abs = policy.resolve_path(path, "").ok().map(|p| PathBuf::from(p.abs));
                let content_field = spec.content.as_deref().unwrap_or("content");
                let change = change_of(args, content_field);
                let known: &[&str] = match change {
                    Change::Content(_) => &[field, content_field],
                    Change::Replace(_) => &[field, "old_string", "new_string", "replace_all", "edits"],
                    Change::Unknown => &[field],
                };
                Shape::Edit(EditView { path: path.to_string(), abs, extra: extra(args, known), change })
            }
            _ => Shape::Other,
        }
    }
}

/// The arguments not named in `known`, or `None` when there are none.
fn extra(args: &Value, known: &[&str]) -> Option<Value> {
    let obj = args.as_object()?;
    let rest: serde_json::Map<String, Value> =
        obj.iter().filter(|(k, _)| !known.contains(&k.as_str())).map(|(k, v)| (k.clone(), v.clone())).collect();
    (!rest.is_empty()).then_some(Value::Object(rest))
}

/// The change an edit's arguments describe: `content`, `old_string`/`new_string`
/// (`replace_all`), or `edits: [{old_string, new_string, replace_all}]`.
pub fn change_of(args: &Value, content_field: &str) -> Change {
    if let Some(c) = args.get(content_field).and_then(Value::as_str) {
        return Change::Content(c.to_string());
    }
    let one = |v: &Value| -> Option<Replacement> {
        Some(Replacement {
            old: v.get("old_string")?.as_str()?.to_string(),
            new: v.get("new_string")?.as_str()?.to_string(),
            all: v.get("replace_all").and_then(Value::as_bool).unwrap_or(false),
        })
    };
    if let Some(edits) = args.get("edits").and_then(Value::as_array) {
        let list: Option<Vec<Replacement>> = edits.iter().map(one).collect();
        return match list {
            Some(l) if !l.is_empty() => Change::Replace(l),
            _ => Change::Unknown,
        };
    }
    match one(args) {
        Some(r) => Change::Replace(vec![r]),
        None => Change::Unknown,
    }
}

/// The file an edit would change, as it is now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileNow {
    /// Not there: the edit creates it.
    Missing,
    /// There, as text.
    Text(String),
    /// There, but it cannot be shown (binary, too large, unreadable): why.
    Unreadable(String),
    /// Not looked at (not an edit, or no path).
    NotApplicable,
}

/// Files larger than this are not read for a diff.
pub const MAX_DIFF_BYTES: u64 = 4 << 20;

impl FileNow {
    /// Read the current content of `path` (I/O; the only one in this module).
    pub fn read(path: &Path) -> FileNow {
        match std::fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return FileNow::Missing,
            Err(e) => return FileNow::Unreadable(format!("cannot look at it: {e}")),
            Ok(m) if m.is_dir() => return FileNow::Unreadable("it is a directory".into()),
            Ok(m) if m.len() > MAX_DIFF_BYTES => {
                return FileNow::Unreadable(format!("it is too large to diff ({} bytes)", m.len()))
            }
            Ok(_) => {}
        }
        match std::fs::read(path) {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(s) => FileNow::Text(s),
                Err(e) => FileNow::Unreadable(format!("it is not text ({} bytes)", e.as_bytes().len())),
            },
            Err(e) => FileNow::Unreadable(format!("cannot read it: {e}")),
        }
    }

    /// What the prompt needs to know about the file a shape edits.
    pub fn for_shape(shape: &Shape) -> FileNow {
        match shape {
            Shape::Edit(EditView { abs: Some(p), .. }) => FileNow::read(p),
            _ => FileNow::NotApplicable,
        }
    }
}

/// Why a replacement cannot be applied to the current content.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ApplyError {
    NotFound { index: usize },
    Ambiguous { index: usize, count: usize },
    EmptyOld { index: usize },
}

impl std::fmt::Display for ApplyError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ApplyError::NotFound { index } => write!(f, "edit {}: old_string is not in the file", index + 1),
            ApplyError::Ambiguous { index, count } => write!(
                f,
                "edit {}: old_string occurs {count} times and replace_all is not set, so the tool will refuse it",
                index + 1
            ),
            ApplyError::EmptyOld { index } => write!(f, "edit {}: old_string is empty", index + 1),
        }
    }
}

/// Apply replacements in order, as the edit tools do: each `old` must occur exactly once
/// unless `all` is set.
pub fn apply(current: &str, edits: &[Replacement]) -> Result<String, ApplyError> {
    let mut text = current.to_string();
    for (index, r) in edits.iter().enumerate() {
        if r.old.is_empty() {
            return Err(ApplyError::EmptyOld { index });
        }
        let count = text.matches(r.old.as_str()).count();
        if count == 0 {
            return Err(ApplyError::NotFound { index });
        }
        if r.all {
            text = text.replace(r.old.as_str(), &r.new);
        } else if count > 1 {
            return Err(ApplyError::Ambiguous { index, count });
        } else {
            text = text.replacen(r.old.as_str(), &r.new, 1);
        }
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_the_three_argument_forms() {
        assert_eq!(change_of(&json!({"content": "x"}), "content"), Change::Content("x".into()));
        assert_eq!(
            change_of(&json!({"old_string": "a", "new_string": "b", "replace_all": true}), "content"),
            Change::Replace(vec![Replacement { old: "a".into(), new: "b".into(), all: true }])
        );
        assert_eq!(
            change_of(&json!({"edits": [{"old_string": "a", "new_string": "b"}]}), "content"),
            Change::Replace(vec![Replacement { old: "a".into(), new: "b".into(), all: false }])
        );
        assert_eq!(change_of(&json!({"edits": [{"old_string": "a"}]}), "content"), Change::Unknown);
        assert_eq!(change_of(&json!({"x": 1}), "content"), Change::Unknown);
    }

    #[test]
    fn applies_like_the_edit_tools() {
        let r = |o: &str, n: &str, all| Replacement { old: o.into(), new: n.into(), all };
        assert_eq!(apply("a b a", &[r("b", "c", false)]).unwrap(), "a c a");
        assert_eq!(apply("a b a", &[r("a", "x", true)]).unwrap(), "x b x");
        assert_eq!(apply("a b a", &[r("a", "x", false)]), Err(ApplyError::Ambiguous { index: 0, count: 2 }));
        assert_eq!(apply("a", &[r("a", "b", false), r("z", "y", false)]), Err(ApplyError::NotFound { index: 1 }));
        assert_eq!(apply("a", &[r("", "b", false)]), Err(ApplyError::EmptyOld { index: 0 }));
    }
}
