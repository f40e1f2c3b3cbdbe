//! Where a path really lands: the edge half of deciding on resolved paths ([`crate::policy`]
//! decides on both forms; this module does the file-system look-ups it must not). Every
//! decision of `gate run`, `gate check` and `gate hook` goes through [`real_for`].

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

/// The workspace as written and as the kernel reaches it now, for one decision. Nothing is
/// kept between decisions: a workspace reached through a link that is pointed elsewhere
/// mid-session must not keep its old directory "inside".
struct Resolver {
    ws_lex: PathBuf,
    ws_real: PathBuf,
    /// What each path prefix is (missing, plain, a link and where to), looked up once per
    /// decision however many of the call's paths pass through it.
    seen: RefCell<HashMap<PathBuf, Step>>,
    /// Each directory a glob lists, read once per decision: its names, and for each whether
    /// it is a link and whether it is a directory.
    listings: RefCell<HashMap<PathBuf, Rc<Vec<Entry>>>>,
    /// How many more names the globs of this decision may look at (see [`GLOB_BUDGET`]).
    budget: Cell<usize>,
}

/// One name in a listed directory.
struct Entry {
    name: OsString,
    link: bool,
    dir: bool,
}

impl Resolver {
    fn new(workspace: &Path) -> Resolver {
        let ws_lex = workspace.to_path_buf();
        let ws_real = std::fs::canonicalize(workspace).unwrap_or_else(|_| ws_lex.clone());
        Resolver {
            ws_lex,
            ws_real,
            seen: RefCell::new(HashMap::new()),
            listings: RefCell::new(HashMap::new()),
            budget: Cell::new(GLOB_BUDGET),
        }
    }

    /// Where `written` lands: symbolic links followed in the longest existing prefix of the path
    /// (applying `..` after each link, as the kernel does), and a result inside the workspace
    /// spelled with the workspace's own (lexical) path; `None` when that is the path as written.
    /// A glob is matched against the directories ([`Resolver::glob`]): where the one place its
    /// links lead is; `/` (outside, so never allowed) when they lead to several places or it
    /// would look at more names than [`GLOB_BUDGET`].
    fn resolve(&self, written: &Path) -> Option<PathBuf> {
        if !written.components().any(|c| is_glob(c.as_os_str())) {
            return self.plain(written);
        }
        let dirs_only = written.as_os_str().to_string_lossy().ends_with('/');
        let parts: Vec<Component> = written.components().skip(1).collect();
        let mut found = Vec::new();
        if !self.glob(PathBuf::from("/"), &parts, dirs_only, &mut found) {
            return Some(PathBuf::from("/"));
        }
        found.sort();
        found.dedup();
        match found.len() {
            0 => None,
            1 => found.pop(),
            _ => Some(PathBuf::from("/")),
        }
    }

    fn plain(&self, written: &Path) -> Option<PathBuf> {
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

    /// A glob's names matched against the directories as bash would (`*/passwd`, `p*`, `**`):
    /// where each matched name that is a link leads, with the rest of the pattern after it
    /// (`lnk/*` -> `/etc/*`, so a listing stays a listing), and where the plain path after the
    /// last pattern lands (`*/pw` -> `src/pw` -> `/etc/passwd`), added to `found`. `false` when
    /// the budget ran out.
    fn glob(&self, base: PathBuf, rest: &[Component], dirs_only: bool, found: &mut Vec<PathBuf>) -> bool {
        let join = |p: PathBuf, cs: &[Component]| cs.iter().fold(p, |p, c| p.join(c.as_os_str()));
        let Some(k) = rest.iter().position(|c| is_glob(c.as_os_str())) else {
            found.extend(self.plain(&join(base, rest)));
            return true;
        };
        let dir = join(base, &rest[..k]);
        let (pattern, tail) = (rest[k].as_os_str().to_string_lossy(), &rest[k + 1..]);
        // The directory to list is itself reached through a link (`lnk/*`).
        if let Some(real) = self.plain(&dir) {
            found.push(join(real, &rest[k..]));
            return true;
        }
        // An unreadable directory matches nothing, in bash too.
        let Some(entries) = self.listing(&dir) else { return true };
        if pattern == "**" {
            // globstar: no directory, or any number of them. bash does not descend into a
            // linked directory here (nor does ripgrep, behind agents' glob tools); a link that
            // the rest of the pattern matches is decided where it leads.
            if !self.glob(dir.clone(), tail, dirs_only, found) {
                return false;
            }
            for e in entries.iter() {
                if !self.charge() {
                    return false;
                }
                if !e.link && e.dir && !self.glob(dir.join(&e.name), &rest[k..], dirs_only, found) {
                    return false;
                }
            }
            return true;
        }
        // What globset cannot read as bash does (a POSIX class, an extended glob): every name
        // matches.
        let matcher = (!pattern.contains("[[:") && !pattern.contains('('))
            .then(|| globset::GlobBuilder::new(&pattern).literal_separator(true).backslash_escape(true).build().ok())
            .flatten()
            .map(|g| g.compile_matcher());
        for e in entries.iter() {
            if !self.charge() {
                return false;
            }
            if matcher.as_ref().is_some_and(|m| !m.is_match(&e.name)) {
                continue;
            }
            let path = dir.join(&e.name);
            let more = dirs_only || !tail.is_empty();
            if e.link {
                // A name followed by more of the pattern (or by `/`) matches only as a directory.
                if more && !std::fs::metadata(&path).is_ok_and(|m| m.is_dir()) {
                    continue;
                }
                match self.plain(&path) {
                    // A link into the workspace: the rest of the pattern is matched from there.
                    Some(real) if !tail.is_empty() && real.starts_with(&self.ws_lex) => {
                        let complete = self.glob(real, tail, dirs_only, found);
                        if !complete {
                            return false;
                        }
                    }
                    Some(real) => found.push(join(real, tail)),
                    None => {}
                }
            } else if !tail.is_empty() && e.dir && !self.glob(path, tail, dirs_only, found) {
                return false;
            }
        }
        true
    }

    /// The names in `dir` (read once per decision); `None` when it cannot be read.
    fn listing(&self, dir: &Path) -> Option<Rc<Vec<Entry>>> {
        if let Some(l) = self.listings.borrow().get(dir) {
            return Some(l.clone());
        }
        let entries: Vec<Entry> = std::fs::read_dir(dir)
            .ok()?
            .flatten()
            .map(|e| {
                let t = e.file_type().ok();
                Entry {
                    name: e.file_name(),
                    link: t.is_none_or(|t| t.is_symlink()),
                    dir: t.is_some_and(|t| t.is_dir()),
                }
            })
            .collect();
        let entries = Rc::new(entries);
        self.listings.borrow_mut().insert(dir.to_path_buf(), entries.clone());
        Some(entries)
    }

    /// One more name looked at; `false` when the decision's budget is spent.
    fn charge(&self) -> bool {
        let left = self.budget.get();
        self.budget.set(left.saturating_sub(1));
        left > 0
    }
}

/// How many names the globs of one decision may look at (each time a pattern is matched
/// against a directory's name): beyond, the glob is decided as outside the workspace.
const GLOB_BUDGET: usize = 100_000;

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
