//! Where a path really lands: the edge half of deciding on resolved paths ([`crate::policy`]
//! decides on both forms; this module does the file-system look-ups it must not). Every
//! decision of `gate run`, `gate check` and `gate hook` goes through [`real_for`].

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

/// The workspace as written and as the kernel reaches it now, for one decision. Nothing is
/// kept between decisions: a workspace reached through a link that is pointed elsewhere
/// mid-session must not keep its old directory "inside".
struct Resolver {
    ws_lex: PathBuf,
    ws_real: PathBuf,
    /// What each path prefix is (missing, plain, a link and where to), looked up once per
    /// decision however many of the call's paths pass through it.
    seen: RefCell<HashMap<PathBuf, Step>>,
}

impl Resolver {
    fn new(workspace: &Path) -> Resolver {
        let ws_lex = workspace.to_path_buf();
        let ws_real = std::fs::canonicalize(workspace).unwrap_or_else(|_| ws_lex.clone());
        Resolver { ws_lex, ws_real, seen: RefCell::new(HashMap::new()) }
    }

    /// Where `written` lands: symbolic links followed in the longest existing prefix of the path
    /// (applying `..` after each link, as the kernel does), and a result inside the workspace
    /// spelled with the workspace's own (lexical) path; `None` when that is the path as written.
    fn resolve(&self, written: &Path) -> Option<PathBuf> {
        if written.components().any(|c| is_glob(c.as_os_str())) {
            let mut budget = GLOB_BUDGET;
            let dirs_only = written.as_os_str().to_string_lossy().ends_with('/');
            let parts: Vec<Component> = written.components().skip(1).collect();
            return self.glob(PathBuf::from("/"), &parts, dirs_only, &mut budget);
        }
        let real = kernel_path(written, &self.seen)?;
        let real = match real.strip_prefix(&self.ws_real) {
            Ok(rest) => self.ws_lex.join(rest),
            Err(_) => real,
        };
        let lexical = crate::policy::normalize_path(written);
        let lexical_in_ws = match lexical.strip_prefix(&self.ws_real) {
            Ok(rest) => self.ws_lex.join(rest),
            Err(_) => lexical,
        };
        (real != lexical_in_ws).then_some(real)
    }
}

impl Resolver {
    /// A glob's names matched against the directories as bash would (`*/passwd`, `p*`): the
    /// first name that leads elsewhere through a link, where it leads, with the rest of the
    /// pattern after it (`lnk/*` -> `/etc/*`, so a listing stays a listing); `None` when no
    /// matched name does. More names than [`GLOB_BUDGET`] lead to `/`: decided as outside.
    fn glob(&self, base: PathBuf, rest: &[Component], dirs_only: bool, budget: &mut usize) -> Option<PathBuf> {
        let (first, tail) = rest.split_first()?;
        let name = first.as_os_str();
        if !is_glob(name) {
            return self.glob(base.join(name), tail, dirs_only, budget);
        }
        // The directory to list is itself reached through a link (`lnk/*`).
        if let Some(real) = self.resolve(&base) {
            return Some(rest.iter().fold(real, |p, c| p.join(c.as_os_str())));
        }
        let pattern = name.to_string_lossy();
        // A pattern globset cannot read (an extended glob): every name matches.
        let matcher = globset::GlobBuilder::new(&pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .ok()
            .map(|g| g.compile_matcher());
        // A link that leads inside the workspace is kept only if none leads outside.
        let mut inside = None;
        for entry in std::fs::read_dir(&base).ok()?.flatten() {
            if *budget == 0 {
                return Some(PathBuf::from("/"));
            }
            *budget -= 1;
            let entry_name = entry.file_name();
            if matcher.as_ref().is_some_and(|m| !m.is_match(&entry_name)) {
                continue;
            }
            let path = base.join(&entry_name);
            // A name followed by more of the pattern (or by `/`) matches only as a directory.
            if (dirs_only || !tail.is_empty()) && !std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
                continue;
            }
            let found = match self.resolve(&path) {
                Some(real) => Some(tail.iter().fold(real, |p, c| p.join(c.as_os_str()))),
                None if !tail.is_empty() => self.glob(path, tail, dirs_only, budget),
                None => None,
            };
            match found {
                Some(f) if !f.starts_with(&self.ws_lex) => return Some(f),
                Some(f) => inside = inside.or(Some(f)),
                None => {}
            }
        }
        inside
    }
}

/// How many directory entries one glob may look at before it is decided as outside.
const GLOB_BUDGET: usize = 20_000;

fn is_glob(name: &std::ffi::OsStr) -> bool {
    name.to_str().is_some_and(|n| n.contains(['*', '?', '[']))
}

/// A resolver for [`crate::policy::Policy::decide_real`], for one decision in `workspace`.
pub fn real_for(workspace: &Path) -> impl Fn(&Path) -> Option<PathBuf> {
    let r = Resolver::new(workspace);
    move |written: &Path| r.resolve(written)
}

/// What one existing-prefix path is, as `kernel_path` needs it.
#[derive(Clone)]
enum Step {
    Missing,
    Plain,
    /// A link and where it leads; `false` when the target does not exist (dangling).
    Link(PathBuf, bool),
}

fn step(cur: &Path) -> Step {
    match std::fs::symlink_metadata(cur) {
        Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(cur) {
            Ok(t) => Step::Link(t, true),
            // A dangling link: where it points, as far as that can be read.
            Err(_) => match std::fs::read_link(cur) {
                Ok(t) => {
                    let base = cur.parent().map(Path::to_path_buf).unwrap_or_default();
                    Step::Link(crate::policy::normalize_path(&base.join(t)), false)
                }
                Err(_) => Step::Missing,
            },
        },
        Ok(_) => Step::Plain,
        Err(_) => Step::Missing,
    }
}

/// `p` (absolute) as the kernel walks it: each existing component's links followed before the
/// next `..` applies; the rest, which does not exist, appended as written.
fn kernel_path(p: &Path, seen: &RefCell<HashMap<PathBuf, Step>>) -> Option<PathBuf> {
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
                    let known = seen.borrow().get(&cur).cloned();
                    let s = known.unwrap_or_else(|| {
                        let s = step(&cur);
                        seen.borrow_mut().insert(cur.clone(), s.clone());
                        s
                    });
                    match s {
                        Step::Link(t, live) => {
                            cur = t;
                            exists = live;
                        }
                        Step::Plain => {}
                        Step::Missing => exists = false,
                    }
                }
            }
        }
    }
    Some(cur)
}
