//! Where a path really lands: the edge half of deciding on resolved paths ([`crate::policy`]
//! decides on both forms; this module does the file-system look-ups it must not). Every
//! decision of `gate run`, `gate check` and `gate hook` goes through [`real_for`].

use std::path::{Component, Path, PathBuf};

/// A resolver for [`crate::policy::Policy::decide_real`]: follows symbolic links in the longest
/// existing prefix of a path (applying `..` after each link, as the kernel does), and spells a
/// result inside the workspace with the workspace's own (lexical) path.
pub fn real_for(workspace: &Path) -> impl Fn(&Path) -> Option<PathBuf> {
    let ws_lex = workspace.to_path_buf();
    let ws_real = std::fs::canonicalize(workspace).unwrap_or_else(|_| ws_lex.clone());
    move |written: &Path| {
        let real = kernel_path(written)?;
        let real = match real.strip_prefix(&ws_real) {
            Ok(rest) => ws_lex.join(rest),
            Err(_) => real,
        };
        let lexical = crate::policy::normalize_path(written);
        let lexical_in_ws = match lexical.strip_prefix(&ws_real) {
            Ok(rest) => ws_lex.join(rest),
            Err(_) => lexical,
        };
        (real != lexical_in_ws).then_some(real)
    }
}

/// `p` (absolute) as the kernel walks it: each existing component's links followed before the
/// next `..` applies; the rest, which does not exist, appended as written.
fn kernel_path(p: &Path) -> Option<PathBuf> {
    if !p.is_absolute() {
        return None;
    }
    let mut cur = PathBuf::from("/");
    let mut exists = true;
    for comp in p.components() {
        match comp {
            Component::RootDir | Component::Prefix(_) | Component::CurDir => {}
            Component::ParentDir => {
                cur.pop();
            }
            Component::Normal(name) => {
                cur.push(name);
                if exists {
                    match std::fs::symlink_metadata(&cur) {
                        Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(&cur) {
                            Ok(t) => cur = t,
                            // A dangling link: where it points, as far as that can be read.
                            Err(_) => match std::fs::read_link(&cur) {
                                Ok(t) => {
                                    let base = cur.parent().map(Path::to_path_buf).unwrap_or_default();
                                    cur = crate::policy::normalize_path(&base.join(t));
                                    exists = false;
                                }
                                Err(_) => exists = false,
                            },
                        },
                        Ok(_) => {}
                        Err(_) => exists = false,
                    }
                }
            }
        }
    }
    Some(cur)
}
