//! Persisted "always" approvals: `.gate/approvals.yaml` beside host.yaml (docs/host-yaml.md,
//! "Approvals a person gives"). Not [`crate::approve`], which asks the person: this module only
//! keeps what they answered with `a`. Written atomically (temp file, fsync, rename) under a
//! lock file so two gates cannot lose each other's approvals. Loaded at start as allow rules below host.yaml's (never above a deny or
//! an ask rule: the chain puts them there).

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Approval {
    pub id: String,
    pub pattern: String,
    pub added: String,
    /// The call the person saw when they approved.
    #[serde(default)]
    pub call: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct File {
    #[serde(default)]
    version: u32,
    #[serde(default)]
    approvals: Vec<Approval>,
}

/// Where the approvals of a policy live: `.gate/approvals.yaml` beside host.yaml, or in the
/// current directory for the built-in policy.
pub fn path_for(policy_path: Option<&Path>) -> PathBuf {
    let dir = policy_path
        .and_then(|p| std::path::absolute(p).ok())
        .and_then(|p| p.parent().map(crate::policy::model::normalize))
        .or_else(|| std::env::current_dir().ok())
        .unwrap_or_else(|| PathBuf::from("."));
    dir.join(".gate").join("approvals.yaml")
}

/// Read the approvals; a missing file is an empty list.
pub fn load(path: &Path) -> anyhow::Result<Vec<Approval>> {
    match fs::read_to_string(path) {
        Ok(text) if text.trim().is_empty() => Ok(Vec::new()),
        Ok(text) => {
            let f: File = serde_saphyr::from_str(&text)
                .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.to_string().lines().next().unwrap_or("")))?;
            Ok(f.approvals)
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(anyhow::anyhow!("cannot read {}: {e}", path.display())),
    }
}

fn render(list: &[Approval]) -> String {
    let q = |s: &str| serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into());
    let mut out = String::from("# \"Always\" approvals, written by gate. `gate approvals list | revoke ID | clear`.\n# Each is an allow rule below host.yaml's: it never overrides a deny or an ask rule.\nversion: 1\napprovals:\n");
    if list.is_empty() {
        out = out.replace("approvals:\n", "approvals: []\n");
    }
    for a in list {
        out.push_str(&format!(
            "  - id: {}\n    pattern: {}\n    added: {}\n    call: {}\n",
            q(&a.id),
            q(&a.pattern),
            q(&a.added),
            q(&a.call)
        ));
    }
    out
}

/// A held lock on the approvals file; released on drop.
struct Lock(PathBuf);

impl Drop for Lock {
    fn drop(&mut self) {
        let _ = fs::remove_file(&self.0);
    }
}

fn lock(path: &Path) -> anyhow::Result<Lock> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| anyhow::anyhow!("cannot create {}: {e}", dir.display()))?;
    }
    let lock = path.with_extension("yaml.lock");
    for attempt in 0..200 {
        match fs::OpenOptions::new().write(true).create_new(true).open(&lock) {
            Ok(mut f) => {
                let _ = writeln!(f, "{}", std::process::id());
                return Ok(Lock(lock));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                // A lock older than 10 s belongs to a gate that died: take it over.
                if let Ok(meta) = fs::metadata(&lock) {
                    if meta.modified().ok().and_then(|m| m.elapsed().ok()).is_some_and(|age| age.as_secs() > 10) {
                        let _ = fs::remove_file(&lock);
                        continue;
                    }
                }
                if attempt == 199 {
                    anyhow::bail!("{} is locked by another gate", path.display());
                }
                std::thread::sleep(std::time::Duration::from_millis(25));
            }
            Err(e) => anyhow::bail!("cannot lock {}: {e}", path.display()),
        }
    }
    anyhow::bail!("{} is locked by another gate", path.display())
}

fn write_atomic(path: &Path, list: &[Approval]) -> anyhow::Result<()> {
    crate::config::write_atomic(path, render(list).as_bytes(), None)
        .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", path.display()))
}

/// Change the stored list under the lock: read, apply `f`, write atomically.
pub fn update<T>(path: &Path, f: impl FnOnce(&mut Vec<Approval>) -> T) -> anyhow::Result<T> {
    let _lock = lock(path)?;
    let mut list = load(path)?;
    let out = f(&mut list);
    write_atomic(path, &list)?;
    Ok(out)
}

/// Store patterns (skipping ones already stored); returns the new entries.
pub fn add(path: &Path, patterns: &[String], call: &str) -> anyhow::Result<Vec<Approval>> {
    let now = crate::clock::now_rfc3339(false);
    update(path, |list| {
        let mut added = Vec::new();
        for p in patterns {
            if list.iter().any(|a| &a.pattern == p) {
                continue;
            }
            let id = short_id(p, &now, list.len());
            let a = Approval { id, pattern: p.clone(), added: now.clone(), call: call.to_string() };
            list.push(a.clone());
            added.push(a);
        }
        added
    })
}

fn short_id(pattern: &str, now: &str, n: usize) -> String {
    // FNV-1a over the pattern, time and position: short, stable enough to type.
    let mut h: u64 = 0xcbf29ce484222325;
    for b in pattern.bytes().chain(now.bytes()).chain(n.to_le_bytes()) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    format!("{:06x}", h & 0xff_ffff)
}
