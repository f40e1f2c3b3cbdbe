//! Live policy reload (SPEC 2 `policy_changed`, SPEC 4): watch host.yaml and
//! `.gate/approvals.yaml`, load a new policy off the deciding thread, and hand it over whole.
//!
//! The *parent directories* are watched (non-recursively, notify with notify-debouncer-full),
//! not the files: editors save by writing a temporary file and renaming it over the old one,
//! which replaces the inode a file watch would be attached to. Events are filtered by path and
//! then the two files' contents are compared with what was last seen, so unrelated files in
//! the same directory, `touch`, and gate's own "always" writes (see [`NotingStore`]) cause no
//! reload.
//!
//! The watcher thread never decides and never swaps the policy in use: it parks a fully loaded
//! [`Policy`] (or the errors that kept it from loading) in [`Shared`] and wakes the session,
//! which takes it between two decisions ([`Shared::take`]). So a decision always has a policy,
//! and a decision in progress (a prompt included) sees exactly one. An invalid file is never
//! applied: the session keeps the last good policy and prints every error. This module must not
//! write to the agent or the terminal itself: the session prints what is parked here, between
//! decisions, so nothing lands in the middle of a prompt.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

use notify_debouncer_full::notify::{RecommendedWatcher, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};

use super::reader::Event;
use crate::approve::AlwaysStore;
use crate::policy::Policy;

/// How long the debouncer waits for a burst of events to settle.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// The files a policy was loaded from.
#[derive(Clone, Debug)]
pub struct Sources {
    /// host.yaml, or `None` for the built-in defaults (then only the approvals are watched).
    pub host: Option<PathBuf>,
    /// `.gate/approvals.yaml` beside it.
    pub approvals: PathBuf,
}

impl Sources {
    pub fn new(host: Option<&Path>) -> Sources {
        Sources {
            host: host.map(|h| std::path::absolute(h).unwrap_or_else(|_| h.to_path_buf())),
            approvals: crate::always::path_for(host),
        }
    }

    /// What the files hold now (`None`: missing or unreadable).
    pub fn contents(&self) -> Contents {
        let read = |p: &Path| std::fs::read(p).ok();
        Contents { host: self.host.as_deref().and_then(read), approvals: read(&self.approvals) }
    }
}

/// The bytes of both files, to tell a real change from a touch or an unrelated event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Contents {
    host: Option<Vec<u8>>,
    approvals: Option<Vec<u8>>,
}

/// A policy loaded after a change, waiting for the session.
pub struct Reload {
    pub policy: Policy,
    /// host.yaml changed (else only the approvals did).
    pub host_changed: bool,
}

/// What the session takes between two decisions.
#[derive(Default)]
pub struct Parked {
    /// The newest good policy, if one was loaded since the last take.
    pub reload: Option<Reload>,
    /// Lines for stderr (without the `gate: ` prefix), in order.
    pub messages: Vec<String>,
}

/// Shared between the watcher thread and the session.
pub struct Shared {
    sources: Sources,
    parked: Mutex<Parked>,
    seen: Mutex<Contents>,
}

impl Shared {
    /// `seen`: what the files held when the policy in use was loaded (read them *before*
    /// loading, so that an edit in between is seen as a change).
    pub fn new(sources: Sources, seen: Contents) -> Arc<Shared> {
        Arc::new(Shared { sources, parked: Mutex::default(), seen: Mutex::new(seen) })
    }

    pub fn sources(&self) -> &Sources {
        &self.sources
    }

    /// Take what was parked since the last call (the session, between decisions).
    pub fn take(&self) -> Parked {
        std::mem::take(&mut *self.parked.lock().unwrap_or_else(|e| e.into_inner()))
    }

    /// gate itself just wrote the approvals file (an "always" answer, already in force for the
    /// session): remember its contents so that the write does not come back as a reload.
    pub fn note_own_approvals_write(&self) {
        let now = std::fs::read(&self.sources.approvals).ok();
        self.seen.lock().unwrap_or_else(|e| e.into_inner()).approvals = now;
    }

    /// Compare the files with what was last seen; on a change, load and park the result.
    /// Returns true when something was parked.
    pub fn check(&self) -> bool {
        let now = self.sources.contents();
        let host_changed = {
            let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
            if *seen == now {
                return false;
            }
            let host_changed = seen.host != now.host;
            *seen = now;
            host_changed
        };
        let changed = if host_changed { self.host_name() } else { self.sources.approvals.display().to_string() };
        let loaded = std::panic::catch_unwind(|| crate::config::load_from(self.sources.host.as_deref()));
        let mut parked = self.parked.lock().unwrap_or_else(|e| e.into_inner());
        match loaded {
            Ok(Ok(loaded)) => {
                parked.messages.extend(loaded.warnings);
                let host_changed = host_changed || parked.reload.as_ref().is_some_and(|r| r.host_changed);
                parked.reload = Some(Reload { policy: loaded.policy, host_changed });
            }
            Ok(Err(e)) => {
                // A broken file never replaces a good policy. A good one parked earlier and not
                // yet taken stays: it is the last good policy.
                parked
                    .messages
                    .push(format!("{changed} changed but cannot be used; keeping the last good policy:\n{e}"));
            }
            Err(_) => {
                parked.messages.push(format!(
                    "{changed} changed but loading it failed (internal error); keeping the last good policy"
                ));
            }
        }
        true
    }

    fn host_name(&self) -> String {
        self.sources.host.as_deref().map(|p| p.display().to_string()).unwrap_or_else(|| "host.yaml".into())
    }

    /// Is this event path one of ours (a policy file, or the `.gate` directory itself)?
    fn relevant(&self, p: &Path, interesting: &HashSet<PathBuf>) -> bool {
        interesting.contains(p) || self.sources.approvals.parent().is_some_and(|d| d == p)
    }
}

/// An "always" store that tells the watcher about gate's own writes (see
/// [`Shared::note_own_approvals_write`]).
pub struct NotingStore {
    pub inner: Box<dyn AlwaysStore>,
    pub shared: Arc<Shared>,
}

impl AlwaysStore for NotingStore {
    fn persist(&mut self, patterns: &[String], call: &str) -> Result<(), String> {
        let r = self.inner.persist(patterns, call);
        if r.is_ok() {
            self.shared.note_own_approvals_write();
        }
        r
    }
}

enum Msg {
    Events(DebounceEventResult),
    Stop,
}

/// The running watcher; stops (and joins its thread) when dropped.
pub struct Watcher {
    tx: Sender<Msg>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Drop for Watcher {
    fn drop(&mut self) {
        let _ = self.tx.send(Msg::Stop);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Start watching. `wake` is the session's event queue: a [`Event::Wake`] is sent whenever
/// something is parked.
pub fn start(shared: Arc<Shared>, wake: Sender<Event>) -> anyhow::Result<Watcher> {
    let (tx, rx) = mpsc::channel();
    let events_tx = tx.clone();
    let mut debouncer = new_debouncer(DEBOUNCE, None, move |r: DebounceEventResult| {
        let _ = events_tx.send(Msg::Events(r));
    })?;
    let sources = shared.sources().clone();
    let mut interesting = HashSet::new();
    let mut dirs = Vec::new();
    let mut add = |p: &Path| {
        interesting.insert(p.to_path_buf());
        if let Ok(c) = std::fs::canonicalize(p) {
            // A symlinked host.yaml: its target's directory is watched too.
            if let Some(d) = c.parent() {
                dirs.push(d.to_path_buf());
            }
            interesting.insert(c);
        }
        if let Some(d) = p.parent() {
            dirs.push(d.to_path_buf());
        }
    };
    if let Some(h) = &sources.host {
        add(h);
    }
    add(&sources.approvals);
    let gate_dir = sources.approvals.parent().map(Path::to_path_buf).unwrap_or_default();
    // `.gate` may not exist yet: its parent is watched, and `.gate` is added once it appears.
    if let Some(p) = gate_dir.parent() {
        dirs.push(p.to_path_buf());
    }
    let mut watched = HashSet::new();
    for d in dirs {
        if d == gate_dir || !watched.insert(d.clone()) {
            continue;
        }
        debouncer
            .watch(&d, RecursiveMode::NonRecursive)
            .map_err(|e| anyhow::anyhow!("cannot watch {}: {e}", d.display()))?;
    }
    let mut gate_watched = watch_gate_dir(&mut debouncer, &gate_dir, false);

    let thread = thread::Builder::new().name("policy-watch".into()).spawn(move || {
        // An edit between loading the policy and starting the watch is caught here.
        if shared.check() {
            let _ = wake.send(Event::Wake);
        }
        let mut warned = false;
        while let Ok(msg) = rx.recv() {
            let relevant = match msg {
                Msg::Stop => break,
                Msg::Events(Ok(events)) => {
                    events.iter().any(|e| e.need_rescan() || e.paths.iter().any(|p| shared.relevant(p, &interesting)))
                }
                Msg::Events(Err(errors)) => {
                    if !warned {
                        warned = true;
                        if let Some(e) = errors.first() {
                            shared
                                .parked
                                .lock()
                                .unwrap_or_else(|e| e.into_inner())
                                .messages
                                .push(format!("watching the policy files: {e}"));
                        }
                    }
                    true
                }
            };
            if !relevant {
                continue;
            }
            // `.gate` was created (or removed and created again): watch it afresh.
            gate_watched = watch_gate_dir(&mut debouncer, &gate_dir, gate_watched);
            if shared.check() && wake.send(Event::Wake).is_err() {
                break;
            }
        }
        drop(debouncer);
    })?;
    Ok(Watcher { tx, thread: Some(thread) })
}

fn watch_gate_dir(d: &mut Debouncer<RecommendedWatcher, RecommendedCache>, gate_dir: &Path, was_watched: bool) -> bool {
    if was_watched {
        let _ = d.unwatch(gate_dir);
    }
    gate_dir.is_dir() && d.watch(gate_dir, RecursiveMode::NonRecursive).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unchanged_contents_park_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let host = dir.path().join("host.yaml");
        std::fs::write(&host, "version: 1\n").unwrap();
        let sources = Sources::new(Some(&host));
        let shared = Shared::new(sources.clone(), sources.contents());
        assert!(!shared.check());
        std::fs::write(&host, "version: 1\nmode: plan\n").unwrap();
        assert!(shared.check());
        let p = shared.take();
        assert!(p.reload.as_ref().is_some_and(|r| r.host_changed));
        assert!(!shared.check(), "the same contents again");
        std::fs::write(&host, "version: 1\npermissions: [\n").unwrap();
        assert!(shared.check());
        let p = shared.take();
        assert!(p.reload.is_none());
        assert!(p.messages[0].contains("keeping the last good policy"), "{:?}", p.messages);
    }

    #[test]
    fn own_approvals_write_is_not_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let host = dir.path().join("host.yaml");
        std::fs::write(&host, "version: 1\n").unwrap();
        let sources = Sources::new(Some(&host));
        let shared = Shared::new(sources.clone(), sources.contents());
        crate::always::add(&sources.approvals, &["Bash(cargo build *)".into()], "cargo build").unwrap();
        shared.note_own_approvals_write();
        assert!(!shared.check());
        crate::always::update(&sources.approvals, |l| l.clear()).unwrap();
        assert!(shared.check());
        assert!(shared.take().reload.is_some_and(|r| !r.host_changed));
    }
}
