//! Decisions remembered while nothing they depended on has changed, so that an agent's
//! hundredth `git status` is not parsed and resolved a hundredth time (issue 13: round trips).
//!
//! A decision is a function of the policy, the session's state (active skills, session
//! approvals), the call, and the file system as the resolver saw it ([`crate::resolve::Facts`]:
//! each path it looked up, each directory it listed). The memo keeps a decision only when
//! those facts are complete: no symbolic link met, and every directory watched with inotify
//! *before* anything in it was looked up, so no later change can go unseen. It forgets every
//! decision when:
//! - a watched directory reports a name created, deleted or moved that a remembered decision
//!   looked up or that is itself a watched directory, any such change in a listed directory,
//!   a watched directory itself deleted or moved, or the event queue overflowed;
//! - the policy, the active skills or the session approvals are not those it was filled with.
//!
//! Events are read before every look-up, on the deciding thread (an `epoll_wait` that finds
//! none waiting).
//! inotify queues an event within the system call that made the change, so a change the agent
//! made before it sent a call is in the queue when that call is looked up.
//!
//! Attributes are not watched (a watch for them costs the kernel a walk of every cached name
//! in the directory: 30 ms for a busy `/tmp`): a look-up or listing that permissions could
//! have hidden leaves the facts incomplete ([`crate::resolve`]), and among complete facts a
//! change of permissions changes no answer, since no link was met.
//!
//! Mounts are not watched (inotify does not report them): a decision never depended on them.
//! An agent that can mount a directory over a path gate decided can mount the file it wants
//! read there just as well, and gate, remembering or not, sees a plain file inside the
//! workspace.
//!
//! It must not decide, and it must never answer from a decision whose facts it cannot check:
//! when inotify cannot be used or reading its events fails, it remembers nothing. A decision that errored is not remembered.

use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::hash::{BuildHasherDefault, Hasher};
use std::mem::MaybeUninit;
use std::os::fd::OwnedFd;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};

use super::sys::Readable;
use crate::policy::{Call, Context, Decision, Layer, Policy};
use crate::resolve::{Facts, Resolver};

/// At most this many remembered decisions; past it the memo starts again empty.
const MAX_ENTRIES: usize = 4096;
/// At most this many watched directories; past it a decision's facts are incomplete.
const MAX_WATCHES: usize = 4096;

/// See the module documentation.
pub struct Memo {
    inner: Option<Inner>,
    /// Look-ups answered and not, for tests and benchmarks ([`Memo::report`]).
    pub hits: u64,
    pub misses: u64,
    /// How many times it was emptied because something changed.
    pub clears: u64,
}

struct Inner {
    inotify: OwnedFd,
    /// An epoll instance holding only `inotify`: asking it whether events wait (timeout 0) is
    /// a lockless check in the kernel, cheaper than a read that finds none.
    ready: Readable,
    watches: std::cell::RefCell<Watches>,
    /// Paths whose entries remembered decisions looked up.
    names: HashSet<PathBuf>,
    /// Directories whose names remembered decisions listed.
    listed: HashSet<PathBuf>,
    /// By [`call_hash`]; the calls in one bucket are told apart by [`same_call`].
    entries: HashMap<u64, Vec<Entry>, BuildHasherDefault<Given>>,
    count: usize,
    /// The session state the entries were decided in.
    stamp: Option<Stamp>,
    buf: Vec<MaybeUninit<u8>>,
}

/// One remembered decision and the call it was made on.
struct Entry {
    tool: String,
    arguments: serde_json::Value,
    annotations: Option<serde_json::Value>,
    decision: Decision,
}

/// The map's keys are already hashes ([`call_hash`]): used as they are.
#[derive(Default)]
struct Given(u64);

impl Hasher for Given {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | u64::from(*b);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

#[derive(Default)]
struct Watches {
    /// Each watch's directory, under every path it was added with: one directory may be
    /// reached as `docs` and `docs/../docs`, or through a bind mount, and the kernel gives
    /// both the one watch.
    dirs: HashMap<i32, Vec<PathBuf>>,
    /// Directories watched since the memo was last emptied.
    watched: HashSet<PathBuf>,
}

/// What a remembered decision was decided in besides the call and the file system.
#[derive(PartialEq)]
struct Stamp {
    policy: u64,
    skills: Vec<String>,
    approvals: Vec<String>,
}

impl Memo {
    /// A memo watching with inotify; one that remembers nothing when inotify cannot be used.
    pub fn new() -> Memo {
        let inner = instance().map(|(inotify, ready)| Inner {
            inotify,
            ready,
            watches: Default::default(),
            names: HashSet::new(),
            listed: HashSet::new(),
            entries: HashMap::default(),
            count: 0,
            stamp: None,
            buf: vec![MaybeUninit::uninit(); 16 * 1024],
        });
        Memo { inner, hits: 0, misses: 0, clears: 0 }
    }

    /// With `GATE_MEMO_STATS` set (tests, benchmarks): its counters, one line on stderr.
    pub fn report(&self) {
        if std::env::var_os("GATE_MEMO_STATS").is_some() {
            eprintln!("gate: memo: {} hits, {} misses, {} times emptied", self.hits, self.misses, self.clears);
        }
    }

    /// Whether it may remember anything.
    pub fn is_on(&self) -> bool {
        self.inner.is_some()
    }

    /// `policy`'s decision on `call` in `ctx` (`policy_gen` names the policy: another number,
    /// another policy), as [`Policy::decide_real`] with [`crate::resolve::real_for`] makes it:
    /// the one remembered for the call (`hash`: its [`call_hash`]) if nothing it depended on
    /// changed, else made now and remembered when what it depended on is known. A panic while
    /// deciding is a denial.
    pub fn decide(&mut self, policy: &Policy, ctx: &Context, policy_gen: u64, call: &Call, hash: u64) -> Decision {
        let skills = ctx.active_skills;
        let approvals = ctx.session.map(|s| s.patterns.as_slice()).unwrap_or_default();
        if let Some(d) = self.get(call, hash, policy_gen, skills, approvals) {
            return d;
        }
        let on = self.is_on();
        let watch = |dir: &Path| self.watch(dir);
        let resolver =
            if on { Resolver::watched(policy.workspace(), &watch) } else { Resolver::unwatched(policy.workspace()) };
        let decided =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| policy.decide_real(call, ctx, &resolver)));
        let d = match decided {
            Ok(d) => d,
            Err(p) => return Decision::error(format!("the policy engine panicked: {}", panic_text(&p))),
        };
        let facts = resolver.facts();
        self.put(call, hash, &d, facts);
        d
    }

    /// The decision remembered for `call` in this state, if nothing it depended on changed.
    fn get(
        &mut self,
        call: &Call,
        hash: u64,
        policy: u64,
        skills: &[String],
        approvals: &[String],
    ) -> Option<Decision> {
        self.changed();
        let inner = self.inner.as_mut()?;
        let same =
            inner.stamp.as_ref().is_some_and(|s| s.policy == policy && s.skills == skills && s.approvals == approvals);
        if !same {
            if !inner.clear() {
                self.inner = None;
                return None;
            }
            let inner = self.inner.as_mut()?;
            inner.stamp = Some(Stamp { policy, skills: skills.to_vec(), approvals: approvals.to_vec() });
            return None;
        }
        let d =
            inner.entries.get(&hash).and_then(|b| b.iter().find(|e| same_call(e, call))).map(|e| e.decision.clone());
        match d {
            Some(_) => self.hits += 1,
            None => self.misses += 1,
        }
        d
    }

    /// Watch `dir` for changes of its names (the resolver calls this before it looks in it);
    /// `false` when it cannot be watched.
    pub fn watch(&self, dir: &Path) -> bool {
        let Some(inner) = &self.inner else { return false };
        let mut w = inner.watches.borrow_mut();
        if w.watched.contains(dir) {
            return true;
        }
        if w.watched.len() >= MAX_WATCHES {
            return false;
        }
        let flags = WatchFlags::CREATE
            | WatchFlags::DELETE
            | WatchFlags::MOVED_FROM
            | WatchFlags::MOVED_TO
            | WatchFlags::DELETE_SELF
            | WatchFlags::MOVE_SELF
            | WatchFlags::DONT_FOLLOW
            | WatchFlags::ONLYDIR;
        match inotify::add_watch(&inner.inotify, dir, flags) {
            Ok(wd) => {
                let paths = w.dirs.entry(wd).or_default();
                if !paths.iter().any(|p| p == dir) {
                    paths.push(dir.to_path_buf());
                }
                // Watched first, then checked: what is there now is what the watch is on.
                if !reports_every_change(dir) {
                    return false;
                }
                w.watched.insert(dir.to_path_buf());
                true
            }
            Err(_) => false,
        }
    }

    /// Remember `d` for `call`, decided in the state last given to [`Memo::get`], when its
    /// facts are complete.
    fn put(&mut self, call: &Call, hash: u64, d: &Decision, facts: Option<Facts>) {
        let (Some(inner), Some(facts)) = (self.inner.as_mut(), facts) else { return };
        if d.layer == Layer::Error || inner.stamp.is_none() {
            return;
        }
        if inner.count >= MAX_ENTRIES {
            if !inner.clear() {
                self.inner = None;
            }
            return;
        }
        inner.names.extend(facts.looked);
        inner.listed.extend(facts.listed);
        inner.count += 1;
        inner.entries.entry(hash).or_default().push(Entry {
            tool: call.tool.clone(),
            arguments: call.arguments.clone(),
            annotations: call.annotations.clone(),
            decision: d.clone(),
        });
    }

    /// Read what changed since the last look-up; forget everything if it matters.
    fn changed(&mut self) {
        let Some(inner) = self.inner.as_mut() else { return };
        match inner.drain() {
            None => self.inner = None,
            Some(true) => self.clears += 1,
            Some(false) => {}
        }
    }
}

/// A new inotify instance, and the epoll set that says whether it has events.
fn instance() -> Option<(OwnedFd, Readable)> {
    use std::os::fd::AsFd;
    let inotify = inotify::init(CreateFlags::NONBLOCK | CreateFlags::CLOEXEC).ok()?;
    let ready = Readable::new(&[inotify.as_fd()]).ok()?;
    Some((inotify, ready))
}

/// Does inotify see every change of names in `dir`: a local file system whose changes all
/// pass through this kernel (not NFS, FUSE, 9p, virtiofs, /proc...), and a directory that
/// matches names exactly (not case-folded: an event for `x.md` would not name `X.md`).
fn reports_every_change(dir: &Path) -> bool {
    // f_type of the file systems that qualify (linux/magic.h): ext2/3/4, XFS, Btrfs, tmpfs,
    // overlayfs (what a container writes passes through it), F2FS, ramfs, ZFS, bcachefs,
    // squashfs (read-only).
    const LOCAL: [u64; 10] = [
        0xEF53,
        0x5846_5342,
        0x9123_683E,
        0x0102_1994,
        0x794C_7630,
        0xF2F5_2010,
        0x8584_58F6,
        0x2FC1_2FC1,
        0xCA45_1A4E,
        0x7371_7368,
    ];
    // Those where a directory may fold case (ext4, F2FS, tmpfs, bcachefs): asked per directory.
    const MAY_FOLD: [u64; 4] = [0xEF53, 0xF2F5_2010, 0x0102_1994, 0xCA45_1A4E];
    const FS_CASEFOLD_FL: u32 = 0x4000_0000;
    let Ok(st) = rustix::fs::statfs(dir) else { return false };
    let kind = st.f_type as u64;
    if !LOCAL.contains(&kind) {
        return false;
    }
    if !MAY_FOLD.contains(&kind) {
        return true;
    }
    let flags = rustix::fs::open(
        dir,
        rustix::fs::OFlags::RDONLY
            | rustix::fs::OFlags::DIRECTORY
            | rustix::fs::OFlags::NOFOLLOW
            | rustix::fs::OFlags::CLOEXEC,
        rustix::fs::Mode::empty(),
    )
    .and_then(rustix::fs::ioctl_getflags);
    match flags {
        Ok(f) => f.bits() & FS_CASEFOLD_FL == 0,
        // No inode flags at all (an older tmpfs): no case folding either.
        Err(rustix::io::Errno::NOTTY | rustix::io::Errno::OPNOTSUPP) => kind == 0x0102_1994,
        Err(_) => false,
    }
}

/// A call's identity for the memo and the doom-loop counter: a hash of its tool, its
/// arguments (object keys in their order) and its annotations. Calls with the same hash are
/// still told apart ([`same_call`]); only the doom-loop counter takes two calls with one hash
/// for the same call, which can only make it stricter.
pub fn call_hash(call: &Call) -> u64 {
    let mut h = Mix(0);
    h.bytes(call.tool.as_bytes());
    h.value(&call.arguments);
    match &call.annotations {
        Some(a) => h.value(a),
        None => h.add(u64::MAX),
    }
    h.0
}

/// A fast, unkeyed mix (the memo's buckets tolerate collisions).
struct Mix(u64);

impl Mix {
    fn add(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(0x517c_c1b7_2722_0a95);
    }

    fn bytes(&mut self, b: &[u8]) {
        let mut chunks = b.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let mut w = [0u8; 8];
        w[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.add(u64::from_le_bytes(w));
        self.add(b.len() as u64);
    }

    fn value(&mut self, v: &serde_json::Value) {
        use serde_json::Value;
        match v {
            Value::Null => self.add(1),
            Value::Bool(b) => self.add(2 + u64::from(*b)),
            Value::Number(n) => {
                if let Some(u) = n.as_u64() {
                    self.add(4);
                    self.add(u);
                } else if let Some(i) = n.as_i64() {
                    self.add(5);
                    self.add(i as u64);
                } else {
                    self.add(6);
                    self.add(n.as_f64().unwrap_or_default().to_bits());
                }
            }
            Value::String(s) => {
                self.add(7);
                self.bytes(s.as_bytes());
            }
            Value::Array(a) => {
                self.add(8);
                self.add(a.len() as u64);
                for x in a {
                    self.value(x);
                }
            }
            Value::Object(m) => {
                self.add(9);
                self.add(m.len() as u64);
                for (k, x) in m {
                    self.bytes(k.as_bytes());
                    self.value(x);
                }
            }
        }
    }
}

/// Is `call` the call `e` was decided on: the same tool, and the same arguments and
/// annotations with object keys in the same order (a decision is not asked to be blind to
/// the order).
fn same_call(e: &Entry, call: &Call) -> bool {
    fn same(a: &serde_json::Value, b: &serde_json::Value) -> bool {
        use serde_json::Value;
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                x.len() == y.len() && x.iter().zip(y).all(|((k1, v1), (k2, v2))| k1 == k2 && same(v1, v2))
            }
            (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
            (Value::Object(_) | Value::Array(_), _) | (_, Value::Object(_) | Value::Array(_)) => false,
            _ => a == b,
        }
    }
    e.tool == call.tool
        && same(&e.arguments, &call.arguments)
        && match (&e.annotations, &call.annotations) {
            (None, None) => true,
            (Some(a), Some(b)) => same(a, b),
            _ => false,
        }
}

/// What a panic said.
pub fn panic_text(p: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = p.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = p.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".into()
    }
}

impl Default for Memo {
    fn default() -> Self {
        Memo::new()
    }
}

impl Inner {
    /// Forget everything, watches included (a new inotify instance: the kernel drops the old
    /// one's watches, so they never pile up); `false` when no new instance can be had.
    fn clear(&mut self) -> bool {
        self.entries.clear();
        self.count = 0;
        self.names.clear();
        self.listed.clear();
        *self.watches.get_mut() = Watches::default();
        let Some((inotify, ready)) = instance() else { return false };
        self.inotify = inotify;
        self.ready = ready;
        true
    }

    /// Read every queued event, forgetting everything if one matters (`Some(true)`); `None`
    /// when the events cannot be read (the memo must then stop).
    fn drain(&mut self) -> Option<bool> {
        match self.ready.ready_now() {
            Ok(false) => return Some(false),
            Ok(true) => {}
            Err(_) => return None,
        }
        let mut reader = inotify::Reader::new(&self.inotify, &mut self.buf);
        let mut matters = false;
        loop {
            let e = match reader.next() {
                Ok(e) => e,
                Err(rustix::io::Errno::AGAIN) => break,
                Err(_) => return None,
            };
            if matters {
                continue;
            }
            let flags = e.events();
            let w = self.watches.get_mut();
            let Some(dirs) = w.dirs.get(&e.wd()) else {
                // The queue overflowed, or a watch nobody knows: anything may have changed.
                matters = true;
                continue;
            };
            matters = match e.file_name() {
                _ if flags.intersects(ReadFlags::QUEUE_OVERFLOW | ReadFlags::UNMOUNT) => true,
                None => true,
                Some(name) => dirs.iter().any(|dir| {
                    let path = dir.join(OsStr::from_bytes(name.to_bytes()));
                    self.listed.contains(dir) || self.names.contains(&path) || w.watched.contains(&path)
                }),
            };
            if flags.contains(ReadFlags::IGNORED) {
                w.dirs.remove(&e.wd());
            }
        }
        if matters && !self.clear() {
            return None;
        }
        Some(matters)
    }
}
