//! Where a path really lands: the edge half of deciding on resolved paths ([`crate::policy`]
//! decides on both forms; this module does the file-system look-ups it must not). Every
//! decision of `gate run`, `gate check` and `gate hook` goes through [`real_for`] or
//! [`Resolver::watched`].
//!
//! A watched resolver also says what its decision depended on ([`Resolver::facts`]): every path
//! it looked up, every directory it listed, and whether it met a symbolic link. `gate run`
//! remembers decisions with those facts ([`crate::supervise::memo`]); a watcher is told of each
//! directory before anything in it is looked up, so that no change after the look-up can go
//! unseen.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ffi::OsString;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

/// The workspace as written and as the kernel reaches it now, for one decision. Nothing is
/// kept between decisions: a workspace reached through a link that is pointed elsewhere
/// mid-session must not keep its old directory "inside".
pub struct Resolver<'w> {
    ws_lex: PathBuf,
    ws_real: PathBuf,
    /// What each path prefix is (missing, plain, a link and where to), looked up once per
    /// decision however many of the call's paths pass through it.
    seen: RefCell<HashMap<PathBuf, Step>>,
    /// Each directory a glob lists, read once per decision: its names, and for each whether
    /// it is a link and whether it is a directory.
    listings: RefCell<HashMap<PathBuf, Rc<Vec<Entry>>>>,
    /// Each directory walked below ([`Resolver::walk`]), by whether links were followed: a
    /// command's link walk, read-rule walk and xargs check share one.
    walks: RefCell<HashMap<(PathBuf, bool), WalkResult>>,
    /// How many more names the globs of this decision may look at (see [`GLOB_BUDGET`]).
    budget: Cell<usize>,
    /// Told of each directory before a name in it is looked up or it is listed; `false`: it
    /// cannot be watched, and the decision's facts are not complete.
    watch: Option<&'w dyn Fn(&Path) -> bool>,
    record: RefCell<Record>,
}

/// What a watched decision looked at.
#[derive(Default)]
struct Record {
    looked: Vec<PathBuf>,
    listed: Vec<PathBuf>,
    /// A link was met, a directory could not be watched, or the workspace could not be walked:
    /// the facts do not cover the decision.
    incomplete: bool,
}

/// What a decision depended on in the file system, when that is known completely: no
/// symbolic link on the way, every directory watched before it was looked in.
#[derive(Debug, Default)]
pub struct Facts {
    /// Each path whose entry was looked up (missing, a file, a directory).
    pub looked: Vec<PathBuf>,
    /// Each directory whose names were listed (a glob).
    pub listed: Vec<PathBuf>,
}

/// What a walk below a directory found: each link and where it leads, and every name below.
struct Walked(Vec<(PathBuf, PathBuf)>, Vec<PathBuf>);

/// A walk's result, `None` over the budget.
type WalkResult = Option<Rc<Walked>>;

/// One name in a listed directory.
struct Entry {
    name: OsString,
    link: bool,
    dir: bool,
}

impl<'w> Resolver<'w> {
    /// A resolver for one decision in `workspace` that watches nothing ([`real_for`]).
    pub fn unwatched(workspace: &Path) -> Resolver<'static> {
        let mut r = Resolver::new_unresolved(workspace);
        r.ws_real = std::fs::canonicalize(workspace).unwrap_or_else(|_| r.ws_lex.clone());
        r
    }

    /// A resolver for one decision in `workspace` that calls `watch` with each directory before
    /// it looks in it, and records what it looked at ([`Resolver::facts`]). The workspace is
    /// walked as any path is; one reached through a link, or missing, is resolved as
    /// [`real_for`] does and leaves the facts incomplete.
    pub fn watched(workspace: &Path, watch: &'w dyn Fn(&Path) -> bool) -> Resolver<'w> {
        let mut r = Resolver::new_unresolved(workspace);
        r.watch = Some(watch);
        let walked = r.kernel_path(workspace).filter(|_| !r.record.borrow().incomplete);
        let plain = walked.filter(|w| *w == crate::policy::normalize_path(workspace) && w.is_dir());
        r.ws_real = match plain {
            Some(w) => w,
            None => {
                r.incomplete();
                std::fs::canonicalize(workspace).unwrap_or_else(|_| r.ws_lex.clone())
            }
        };
        r
    }

    fn new_unresolved(workspace: &Path) -> Resolver<'w> {
        Resolver {
            ws_lex: workspace.to_path_buf(),
            ws_real: workspace.to_path_buf(),
            seen: RefCell::new(HashMap::new()),
            listings: RefCell::new(HashMap::new()),
            walks: RefCell::new(HashMap::new()),
            budget: Cell::new(GLOB_BUDGET),
            watch: None,
            record: RefCell::new(Record::default()),
        }
    }

    /// What the decisions made with this resolver depended on; `None` when that is not known
    /// completely (a link, a directory that could not be watched, no watcher).
    pub fn facts(self) -> Option<Facts> {
        let r = self.record.into_inner();
        (self.watch.is_some() && !r.incomplete).then_some(Facts { looked: r.looked, listed: r.listed })
    }

    /// Tell the watcher of `dir` before looking in it.
    fn before(&self, dir: &Path) {
        if self.watch.is_some_and(|w| !w(dir)) {
            self.incomplete();
        }
    }

    fn incomplete(&self) {
        self.record.borrow_mut().incomplete = true;
    }

    /// Where `written` lands: symbolic links followed in the longest existing prefix of the path
    /// (applying `..` after each link, as the kernel does), and a result inside the workspace
    /// spelled with the workspace's own (lexical) path; `None` when that is the path as written.
    /// A glob is matched against the directories ([`Resolver::glob`]): where the one place its
    /// links lead is; `/` (outside, so never allowed) when they lead to several places or it
    /// would look at more names than [`GLOB_BUDGET`].
    pub fn resolve(&self, written: &Path) -> Option<PathBuf> {
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
        let real = self.kernel_path(written)?;
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
        let matcher = segment_matcher(&pattern);
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
                self.incomplete();
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
        self.before(dir);
        if self.watch.is_some() {
            self.record.borrow_mut().listed.push(dir.to_path_buf());
        }
        let read = match std::fs::read_dir(dir) {
            Ok(r) => r,
            Err(e) => {
                // Not there: matches nothing, until it is created (its directory is watched).
                // Not readable: whatever hides it may change unseen.
                if e.kind() != std::io::ErrorKind::NotFound {
                    self.incomplete();
                }
                return None;
            }
        };
        let mut entries = Vec::new();
        for e in read {
            let Ok(e) = e else {
                self.incomplete();
                continue;
            };
            let t = e.file_type().ok();
            if t.is_none() {
                self.incomplete();
            }
            entries.push(Entry {
                name: e.file_name(),
                link: t.is_none_or(|t| t.is_symlink()),
                dir: t.is_some_and(|t| t.is_dir()),
            });
        }
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

impl crate::policy::Edge for Resolver<'_> {
    fn real(&self, written: &Path) -> Option<PathBuf> {
        self.resolve(written)
    }

    fn real_name(&self, written: &Path) -> Option<PathBuf> {
        self.plain(written)
    }

    fn links_below(&self, dir: &Path) -> Option<Vec<(PathBuf, PathBuf)>> {
        self.walk(dir, true).map(|w| w.0.clone())
    }

    fn files_below(&self, dir: &Path, follow: bool) -> Option<Vec<PathBuf>> {
        self.walk(dir, follow).map(|w| w.1.clone())
    }

    fn foreign_repo(&self, dir: &Path, root: &Path) -> Option<PathBuf> {
        self.nested_repo(dir, root)
    }

    fn enterable(&self, written: &Path) -> bool {
        // (As written: the kernel walks every directory on the way, `..` after a link too.)
        self.incomplete();
        rustix::fs::access(written, rustix::fs::Access::EXEC_OK).is_ok()
    }

    fn wc_quotes_names(&self) -> bool {
        // (Asked once a process: `wc --version` of GNU coreutils 8.25 or later, whose NEWS
        // says "wc now ensures a single line per file for counts on standard output, by
        // quoting names containing '\n' characters".)
        static QUOTES: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *QUOTES.get_or_init(|| {
            let out = std::process::Command::new("wc")
                .arg("--version")
                .stdin(std::process::Stdio::null())
                .stderr(std::process::Stdio::null())
                .output();
            out.is_ok_and(|o| o.status.success() && gnu_wc_quotes(&String::from_utf8_lossy(&o.stdout)))
        })
    }

    fn skips_dot_names(&self) -> bool {
        // (Asked once a process: `bash -c 'shopt -q globskipdots'` succeeds only where the
        // option exists and is on; a bash that cannot run skips nothing. Of the `bash` on the
        // PATH and of `/bin/bash` and `/usr/bin/bash` where they are, which agents name
        // (codex-acp runs `/bin/bash -lc`): a macOS `/bin/bash` 3.2 beside a newer one on the
        // PATH matches `..`.)
        static SKIPS: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
        *SKIPS.get_or_init(|| {
            let skips = |bash: &str| {
                std::process::Command::new(bash)
                    .args(["--norc", "--noprofile", "-c", "shopt -q globskipdots"])
                    .env_remove("BASH_ENV")
                    .stdin(std::process::Stdio::null())
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .status()
                    .map(|s| s.success())
            };
            skips("bash").is_ok_and(|s| s)
                && ["/bin/bash", "/usr/bin/bash"].iter().all(|b| match skips(b) {
                    Ok(s) => s,
                    Err(e) => e.kind() == std::io::ErrorKind::NotFound,
                })
        })
    }

    fn is_dir(&self, written: &Path) -> Option<bool> {
        let p = self.kernel_path(written)?;
        // (What is there may change: the decision is not remembered.)
        self.incomplete();
        match std::fs::metadata(&p) {
            Ok(m) => Some(m.is_dir()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(false),
            Err(_) => None,
        }
    }

    fn small_file(&self, written: &Path) -> Option<String> {
        let p = self.kernel_path(written)?;
        self.incomplete();
        let m = std::fs::metadata(&p).ok()?;
        (m.is_file() && m.len() <= 1 << 20).then(|| std::fs::read_to_string(&p).ok()).flatten()
    }

    fn option_names(&self, written: &Path) -> Vec<String> {
        let parts: Vec<Component> = written.components().collect();
        let Some(k) = parts.iter().position(|c| is_glob(c.as_os_str())) else { return Vec::new() };
        let dir: PathBuf = parts[..k].iter().collect();
        let pattern = parts[k].as_os_str().to_string_lossy();
        // A directory reached through a link is listed where it leads.
        let dir = self.plain(&dir).unwrap_or(dir);
        let Some(entries) = self.listing(&dir) else { return Vec::new() };
        let matcher = segment_matcher(&pattern);
        entries
            .iter()
            .map(|e| e.name.to_string_lossy())
            .filter(|n| n.starts_with('-') && matcher.as_ref().is_none_or(|m| m.is_match(n.as_ref())))
            .map(|n| n.to_string())
            .take(3)
            .collect()
    }

    fn git_index_names(&self, dir: &Path) -> Option<Vec<Vec<u8>>> {
        // (Another index or repository named by the environment: not looked for.)
        if ["GIT_DIR", "GIT_INDEX_FILE", "GIT_WORK_TREE", "GIT_COMMON_DIR"]
            .iter()
            .any(|v| std::env::var_os(v).is_some())
        {
            return None;
        }
        let mut d = self.kernel_path(dir)?;
        // (What is there may change: the decision is not remembered.)
        self.incomplete();
        let git_dir = loop {
            let dot = d.join(".git");
            match std::fs::metadata(&dot) {
                Ok(m) if m.is_dir() => break dot,
                // `gitdir: PATH` (a linked worktree, a submodule).
                Ok(m) if m.is_file() => {
                    let text = std::fs::read_to_string(&dot).ok()?;
                    let to = text.lines().next()?.strip_prefix("gitdir:")?.trim();
                    break d.join(to);
                }
                Ok(_) => return None,
                // (No repository: git lists nothing.)
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                    if !d.pop() {
                        return Some(Vec::new());
                    }
                }
                Err(_) => return None,
            }
        };
        // The object format is the common directory's (a linked worktree's `commondir`).
        let common = match std::fs::read_to_string(git_dir.join("commondir")) {
            Ok(c) => git_dir.join(c.trim()),
            Err(_) => git_dir.clone(),
        };
        let config = std::fs::read_to_string(common.join("config")).ok()?.to_ascii_lowercase();
        let sha256 = config
            .lines()
            .any(|l| l.split_once('=').is_some_and(|(k, v)| k.trim() == "objectformat" && v.trim() == "sha256"));
        let index = git_dir.join("index");
        match std::fs::metadata(&index) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Some(Vec::new()),
            Ok(m) if m.is_file() && m.len() <= 64 << 20 => {
                crate::git_index::index_names(&std::fs::read(&index).ok()?, if sha256 { 32 } else { 20 })
            }
            _ => None,
        }
    }

    fn exists(&self, written: &Path) -> bool {
        let Some(p) = self.kernel_path(written) else { return false };
        // (What is there may change: the decision is not remembered.)
        self.incomplete();
        std::fs::symlink_metadata(&p).is_ok()
    }

    fn other_names(&self, written: &Path) -> u64 {
        use std::os::unix::fs::MetadataExt;
        let Some(p) = self.kernel_path(written) else { return 0 };
        match std::fs::metadata(&p) {
            Ok(m) if m.is_file() && m.nlink() > 1 => {
                // Where the other names are is not looked up: the decision is not remembered.
                self.incomplete();
                m.nlink() - 1
            }
            _ => 0,
        }
    }
}

impl Resolver<'_> {
    /// [`crate::policy::Edge::foreign_repo`].
    fn nested_repo(&self, dir: &Path, root: &Path) -> Option<PathBuf> {
        let real_dir = self.kernel_path(dir)?;
        let real_root = self.kernel_path(root)?;
        let own = real_root.join(".git");
        if real_dir == real_root || !real_dir.starts_with(&real_root) || real_dir.starts_with(&own) {
            return None;
        }
        // (What is there may change: the decision is not remembered.)
        self.incomplete();
        let mut d = real_dir;
        while d != real_root && d.starts_with(&real_root) {
            let dot_git = d.join(".git");
            match std::fs::symlink_metadata(&dot_git) {
                Ok(m) if m.is_file() => {
                    // `gitdir: ../.git/modules/x`: a submodule, whose config is the user's.
                    let to = std::fs::read_to_string(&dot_git)
                        .ok()
                        .and_then(|t| {
                            t.lines().next().and_then(|l| l.strip_prefix("gitdir:")).map(|g| d.join(g.trim()))
                        })
                        .and_then(|g| std::fs::canonicalize(g).ok());
                    return match to {
                        Some(g) if g.starts_with(&own) => None,
                        _ => Some(d),
                    };
                }
                Ok(_) => return Some(d),
                Err(_) => {}
            }
            let bare = d.join("HEAD").is_file() && d.join("objects").is_dir() && d.join("refs").is_dir();
            if bare {
                return Some(d);
            }
            d.pop();
        }
        None
    }

    /// The walk behind [`crate::policy::Edge::links_below`] and `files_below`: every directory
    /// below `dir` (and, with `follow`, below each directory a link there leads to, each
    /// walked once) listed, each name charged to the decision's budget; the links found with
    /// where they lead, and every name below (directories and links included). Such a
    /// decision is not remembered: its facts would be every directory below, too many to watch.
    /// Walked once per decision for each `dir` and `follow`.
    fn walk(&self, dir: &Path, follow: bool) -> WalkResult {
        let key = (dir.to_path_buf(), follow);
        if let Some(w) = self.walks.borrow().get(&key) {
            return w.clone();
        }
        let w = self.walk_now(dir, follow).map(Rc::new);
        self.walks.borrow_mut().insert(key, w.clone());
        w
    }

    fn walk_now(&self, dir: &Path, follow: bool) -> Option<Walked> {
        self.incomplete();
        let mut out = Vec::new();
        let mut files = Vec::new();
        let mut walked = std::collections::HashSet::new();
        let start = self.kernel_path(dir)?;
        let mut todo = vec![start.clone()];
        while let Some(d) = todo.pop() {
            if !walked.insert(d.clone()) {
                continue;
            }
            // Not a directory, not there, or not readable: nothing below it to follow.
            let Ok(read) = std::fs::read_dir(&d) else { continue };
            for e in read {
                if !self.charge() {
                    return None;
                }
                // A name that cannot be read may be anything.
                let e = e.ok()?;
                let t = e.file_type().ok()?;
                let path = e.path();
                if t.is_symlink() {
                    let to = match step(&path) {
                        Step::Link(to, _) => to,
                        _ => return None,
                    };
                    // A directory a link leads to outside the workspace (and outside the walk's
                    // start) is decided as a read of itself: not walked.
                    let inside = to.starts_with(&self.ws_real) || to.starts_with(&start);
                    if follow && inside && to.is_dir() {
                        todo.push(to.clone());
                    }
                    files.push(self.spelled(path.clone()));
                    out.push((self.spelled(path), self.spelled(to)));
                } else if t.is_dir() {
                    files.push(self.spelled(path.clone()));
                    todo.push(path);
                } else {
                    files.push(self.spelled(path));
                }
            }
        }
        Some(Walked(out, files))
    }

    /// A path the kernel reaches, spelled with the workspace's own (lexical) path when inside.
    fn spelled(&self, real: PathBuf) -> PathBuf {
        match real.strip_prefix(&self.ws_real) {
            Ok(rest) => self.ws_lex.join(rest),
            Err(_) => real,
        }
    }
}

/// How many names the globs of one decision may look at (each time a pattern is matched
/// against a directory's name): beyond, the glob is decided as outside the workspace.
const GLOB_BUDGET: usize = 100_000;

/// A matcher of one glob segment as bash reads it; `None` for what globset cannot read so (a
/// POSIX class, an extended glob), which then matches every name.
fn segment_matcher(pattern: &str) -> Option<globset::GlobMatcher> {
    (!pattern.contains("[[:") && !pattern.contains('('))
        .then(|| globset::GlobBuilder::new(pattern).literal_separator(true).backslash_escape(true).build().ok())
        .flatten()
        .map(|g| g.compile_matcher())
}

fn is_glob(name: &std::ffi::OsStr) -> bool {
    name.to_str().is_some_and(|n| n.contains(['*', '?', '[']))
}

/// The edge for [`crate::policy::Policy::decide_real`], for one decision in `workspace`.
pub fn real_for(workspace: &Path) -> Resolver<'static> {
    Resolver::unwatched(workspace)
}

/// What one existing-prefix path is, as `kernel_path` needs it.
#[derive(Clone)]
enum Step {
    Missing,
    /// Could not be looked up (no permission, not a directory on the way): walked as missing,
    /// but what hides it may change without a change of names.
    Hidden,
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
                Err(_) => Step::Hidden,
            },
        },
        Ok(_) => Step::Plain,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Step::Missing,
        Err(_) => Step::Hidden,
    }
}

impl Resolver<'_> {
    /// `p` (absolute) as the kernel walks it: each existing component's links followed before
    /// the next `..` applies; the rest, which does not exist, appended as written. Each
    /// component is looked up once per decision (`seen`), its directory watched first.
    fn kernel_path(&self, p: &Path) -> Option<PathBuf> {
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
                    if !exists {
                        continue;
                    }
                    let known = self.seen.borrow().get(&cur).cloned();
                    let s = match known {
                        Some(s) => s,
                        None => {
                            if let Some(dir) = cur.parent() {
                                self.before(dir);
                            }
                            let s = step(&cur);
                            if matches!(s, Step::Link(..) | Step::Hidden) {
                                self.incomplete();
                            }
                            if self.watch.is_some() {
                                self.record.borrow_mut().looked.push(cur.clone());
                            }
                            self.seen.borrow_mut().insert(cur.clone(), s.clone());
                            s
                        }
                    };
                    match s {
                        Step::Link(t, live) => {
                            cur = t;
                            exists = live;
                        }
                        Step::Plain => {}
                        Step::Missing | Step::Hidden => exists = false,
                    }
                }
            }
        }
        Some(cur)
    }
}

/// Whether `wc --version` printed `wc (GNU coreutils) X.Y` with X.Y at least 8.25 (the first
/// that quotes a name holding a line end).
fn gnu_wc_quotes(version: &str) -> bool {
    let first = version.lines().next().unwrap_or("");
    let Some(v) = first.strip_prefix("wc (GNU coreutils) ") else { return false };
    let mut parts = v.trim().split('.').map(|p| p.parse::<u32>().ok());
    matches!((parts.next().flatten(), parts.next().flatten()), (Some(major), Some(minor)) if (major, minor) >= (8, 25))
}
