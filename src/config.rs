//! Loading at the edge: find host.yaml (SPEC section 1's search order), read it and the
//! persisted approvals beside it, and hand the text to the pure [`crate::policy`] engine.

use std::path::{Path, PathBuf};

use crate::policy::{Env, Policy, PolicyErrors};

/// A policy and where it came from.
#[derive(Debug)]
pub struct Loaded {
    pub policy: Policy,
    /// The host.yaml that was read, or `None` for the built-in defaults.
    pub path: Option<PathBuf>,
    /// Problems that did not stop loading (unreadable approvals: they are left out).
    pub warnings: Vec<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("cannot read {path}: {source}")]
    Io { path: PathBuf, source: std::io::Error },
    #[error("{0}")]
    Invalid(PolicyErrors),
}

/// Find the policy file: an explicit path, else ./host.yaml, else the XDG one, else none.
pub fn find(explicit: Option<&Path>) -> Option<PathBuf> {
    if let Some(p) = explicit {
        return Some(p.to_path_buf());
    }
    let local = PathBuf::from("host.yaml");
    if local.is_file() {
        return Some(local);
    }
    let xdg = std::env::var_os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| home().map(|h| h.join(".config")))?;
    let p = xdg.join("gate").join("host.yaml");
    p.is_file().then_some(p)
}

pub fn home() -> Option<PathBuf> {
    std::env::var_os("HOME").filter(|h| !h.is_empty()).map(PathBuf::from)
}

/// [`home`], for the commands that must write there (`gate hook install --user`).
pub(crate) fn home_required() -> anyhow::Result<PathBuf> {
    home().ok_or_else(|| anyhow::anyhow!("HOME is not set"))
}

/// Write `bytes` to `path` atomically: a temporary file beside it (named for this process),
/// synced, then renamed over it; the folder is created first and the temporary file removed
/// on failure. `mode` sets the file's permissions (otherwise the umask decides). Every file
/// gate writes for the user (approvals, agents' settings, pi's extension) goes through here.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8], mode: Option<u32>) -> std::io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::PermissionsExt as _;
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.gate-tmp{}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        if let Some(m) = mode {
            f.set_permissions(std::fs::Permissions::from_mode(m))?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Load the policy (and its persisted approvals) from the search order.
pub fn load(explicit: Option<&Path>) -> Result<Loaded, ConfigError> {
    load_from(find(explicit).as_deref())
}

/// Load the policy from `path` as found (no search: `None` is the built-in defaults), with
/// its persisted approvals. A live reload uses this, so the source never changes mid-run.
pub fn load_from(path: Option<&Path>) -> Result<Loaded, ConfigError> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let mut loaded = match path.map(Path::to_path_buf) {
        None => Loaded {
            policy: Policy::builtin(&Env { base_dir: cwd.clone(), home: home(), cwd }),
            path: None,
            warnings: Vec::new(),
        },
        Some(path) => {
            let text =
                std::fs::read_to_string(&path).map_err(|source| ConfigError::Io { path: path.clone(), source })?;
            let policy = load_text(&text, &path)?;
            Loaded { policy, path: Some(path), warnings: Vec::new() }
        }
    };
    let store = crate::always::path_for(loaded.path.as_deref());
    match crate::always::load(&store) {
        Ok(list) => {
            let patterns: Vec<String> = list.into_iter().map(|a| a.pattern).collect();
            if let Err(e) = loaded.policy.set_always(&patterns) {
                loaded.warnings.push(format!("{}: approvals left out: {e}", store.display()));
            }
        }
        Err(e) => loaded.warnings.push(format!("approvals left out: {e}")),
    }
    Ok(loaded)
}

/// Compile host.yaml text that was read from `path`.
pub fn load_text(text: &str, path: &Path) -> Result<Policy, ConfigError> {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    let base_dir = abs.parent().map(Path::to_path_buf).unwrap_or_else(|| PathBuf::from("/"));
    let cwd = std::env::current_dir().unwrap_or_else(|_| base_dir.clone());
    let env = Env { base_dir, home: home(), cwd };
    Policy::from_yaml(text, &path.display().to_string(), &env).map_err(ConfigError::Invalid)
}
