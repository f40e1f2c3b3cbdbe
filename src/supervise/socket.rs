//! The protocol side channel of `--pty`: a Unix socket in a private directory, its path given to
//! the agent as `GATE_SOCKET`, that takes exactly one connection, from the same user.
//!
//! Layers of protection, each enough on its own against other users: the directory is created
//! fresh (never reused) with mode 0700 and checked to be ours; the connecting process's
//! credentials are read from the kernel (SO_PEERCRED) and a connection from another uid is
//! refused; once the agent is connected the socket's name is removed, so nobody can connect
//! after it. The directory and everything in it are removed when gate exits ([`Drop`]).
//!
//! This module must not read or write protocol lines: the connection is handed to the same
//! reader and writer as the agent's stdout and stdin in pipe mode.

use std::io;
use std::os::fd::AsRawFd;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use std::sync::mpsc::Sender;

use super::reader::{Event, Passthrough, Reader};
use super::sys;

/// Longest socket path the kernel takes (sun_path is 108 bytes with its NUL).
const MAX_PATH: usize = 100;

/// A listening socket in a private directory; both are removed when this is dropped.
pub struct SideChannel {
    dir: PathBuf,
    path: PathBuf,
    listener: Option<UnixListener>,
}

/// What waiting for the agent's connection came to.
pub enum Accepted {
    /// The agent (same user) connected.
    Agent(UnixStream),
    /// The agent exited (or `wake` fired) before connecting.
    Gone,
}

impl SideChannel {
    /// Create the directory (under $XDG_RUNTIME_DIR when usable, else the temporary
    /// directory) and listen in it.
    pub fn create() -> io::Result<SideChannel> {
        let mut last = io::Error::other("no directory for the socket");
        for base in private_bases() {
            match SideChannel::create_in(&base) {
                Ok(s) => return Ok(s),
                Err(e) => last = e,
            }
        }
        Err(last)
    }

    fn create_in(base: &Path) -> io::Result<SideChannel> {
        let dir = private_dir_in(base)?;
        let path = dir.join("gate.sock");
        let mut ch = SideChannel { dir, path, listener: None };
        if ch.path.as_os_str().len() > MAX_PATH {
            return Err(io::Error::other(format!("{} is too long for a socket path", ch.path.display())));
        }
        ch.listener = Some(UnixListener::bind(&ch.path)?);
        Ok(ch)
    }

    /// The socket's path (`GATE_SOCKET`).
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The listener, for the thread that waits for the agent (see [`accept_agent`]).
    pub fn take_listener(&mut self) -> Option<UnixListener> {
        self.listener.take()
    }
}

/// A new directory only this user can enter (mode 0700, checked to be ours), under
/// $XDG_RUNTIME_DIR when usable, else the temporary directory. The caller removes it.
pub fn private_dir() -> io::Result<PathBuf> {
    let mut last = io::Error::other("no directory for gate's private files");
    for base in private_bases() {
        match private_dir_in(&base) {
            Ok(d) => return Ok(d),
            Err(e) => last = e,
        }
    }
    Err(last)
}

fn private_bases() -> Vec<PathBuf> {
    let mut bases = Vec::new();
    if let Some(x) = std::env::var_os("XDG_RUNTIME_DIR").map(PathBuf::from) {
        if x.is_absolute() && x.is_dir() {
            bases.push(x);
        }
    }
    bases.push(std::env::temp_dir());
    bases.push(PathBuf::from("/tmp"));
    bases
}

fn private_dir_in(base: &Path) -> io::Result<PathBuf> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    for _ in 0..16 {
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let dir = base.join(format!("gate-{}-{nanos:08x}{n}", std::process::id()));
        if dir.join("gate.sock").as_os_str().len() > MAX_PATH {
            return Err(io::Error::other(format!("{} is too long for a socket path", dir.display())));
        }
        // mkdir fails if the name exists (a file, a directory or a symlink someone planted):
        // the directory we use is always one we just created.
        match std::fs::DirBuilder::new().mode(0o700).create(&dir) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
        // The umask can only have removed bits; make the mode exact, and check the owner.
        let checked = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700))
            .and_then(|_| std::fs::symlink_metadata(&dir))
            .and_then(|meta| {
                if !meta.is_dir() || meta.uid() != sys::euid() || meta.mode() & 0o077 != 0 {
                    Err(io::Error::other(format!("{} is not a private directory", dir.display())))
                } else {
                    Ok(())
                }
            });
        if let Err(e) = checked {
            let _ = std::fs::remove_dir(&dir);
            return Err(e);
        }
        return Ok(dir);
    }
    Err(io::Error::other(format!("cannot create a private directory in {}", base.display())))
}

impl Drop for SideChannel {
    fn drop(&mut self) {
        self.listener = None;
        let _ = std::fs::remove_file(&self.path);
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// Wait for the agent's connection: the first one from our own user. Connections from other
/// users are refused (closed) with a message. Returns when the agent connected or `wake`
/// became readable (the agent exited). The listener is closed and the socket's name removed
/// once the agent is connected, so no second connection can be made.
pub fn accept_agent(listener: UnixListener, socket_path: &Path, wake: &impl AsRawFd) -> io::Result<Accepted> {
    let fds = [listener.as_raw_fd(), wake.as_raw_fd()];
    loop {
        let ready = sys::poll_readable(&fds, -1)?;
        if ready[1] && !ready[0] {
            return Ok(Accepted::Gone);
        }
        if !ready[0] {
            continue;
        }
        let (stream, _) = match listener.accept() {
            Ok(s) => s,
            Err(e) if e.kind() == io::ErrorKind::Interrupted || e.kind() == io::ErrorKind::WouldBlock => continue,
            Err(e) => return Err(e),
        };
        match check_peer(&stream, sys::euid()) {
            Ok(()) => {
                drop(listener);
                let _ = std::fs::remove_file(socket_path);
                return Ok(Accepted::Agent(stream));
            }
            Err(why) => {
                eprintln!("gate: refused a connection on GATE_SOCKET: {why}");
                drop(stream);
            }
        }
    }
}

/// Serve decision requests on `listener` from any number of connections, one after another
/// or at once (a hook process per call, an extension's connection), until `wake` becomes
/// readable (the agent exited); then send [`Event::Eof`] and return. Only connections from
/// our own user are served. Each connection's lines are read by a [`Reader`] made by
/// `reader`, whose answers go back on that connection; the socket's name stays while the agent
/// runs, so hooks started later can connect.
pub fn serve_many(
    listener: UnixListener,
    wake: &impl AsRawFd,
    events: Sender<Event>,
    reader: impl Fn() -> io::Result<Reader>,
) {
    let fds = [listener.as_raw_fd(), wake.as_raw_fd()];
    loop {
        let ready = match sys::poll_readable(&fds, -1) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("gate: cannot wait for connections on GATE_SOCKET: {e}");
                break;
            }
        };
        if ready[1] {
            break;
        }
        if !ready[0] {
            continue;
        }
        let stream = match listener.accept() {
            Ok((s, _)) => s,
            Err(e) if e.kind() == io::ErrorKind::Interrupted || e.kind() == io::ErrorKind::WouldBlock => continue,
            Err(e) => {
                eprintln!("gate: cannot accept a connection on GATE_SOCKET: {e}");
                break;
            }
        };
        if let Err(why) = check_peer(&stream, sys::euid()) {
            eprintln!("gate: refused a connection on GATE_SOCKET: {why}");
            continue;
        }
        if let Err(e) = serve_one(stream, &reader) {
            eprintln!("gate: cannot serve a connection on GATE_SOCKET: {e}");
        }
    }
    let _ = events.send(Event::Eof);
}

/// One connection: a reader thread (answers go to this connection) and a writer thread.
fn serve_one(stream: UnixStream, reader: &impl Fn() -> io::Result<Reader>) -> io::Result<()> {
    let mut rd = reader()?;
    let (reply_tx, reply_rx) = std::sync::mpsc::channel::<Vec<u8>>();
    rd.decoder.connected(&reply_tx);
    rd.reply = Some(reply_tx);
    rd.passthrough = Passthrough::Discard;
    rd.send_eof = false;
    let mut out = stream.try_clone()?;
    std::thread::Builder::new().name("socket-conn-out".into()).spawn(move || {
        for line in reply_rx {
            if io::Write::write_all(&mut out, &line).is_err() {
                break;
            }
        }
    })?;
    std::thread::Builder::new().name("socket-conn-in".into()).spawn(move || rd.run(stream))?;
    Ok(())
}

/// Accept a connection only from a process running as `uid`.
pub fn check_peer(stream: &UnixStream, uid: u32) -> Result<(), String> {
    match sys::peer_uid(stream.as_raw_fd()) {
        Ok(u) if u == uid => Ok(()),
        Ok(u) => Err(format!("it comes from user id {u}, not {uid}")),
        Err(e) => Err(format!("its credentials cannot be read ({e})")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_directory_and_cleanup() {
        let mut ch = SideChannel::create().unwrap();
        let dir = ch.path().parent().unwrap().to_path_buf();
        let meta = std::fs::metadata(&dir).unwrap();
        assert_eq!(meta.mode() & 0o777, 0o700);
        assert!(ch.path().exists());
        let l = ch.take_listener().unwrap();
        let path = ch.path().to_path_buf();
        let t = std::thread::spawn(move || UnixStream::connect(&path).unwrap());
        let (_w, wake) = UnixStream::pair().unwrap();
        let got = accept_agent(l, ch.path(), &wake).unwrap();
        assert!(matches!(got, Accepted::Agent(_)));
        let _client = t.join().unwrap();
        assert!(!ch.path().exists(), "the name is removed once the agent is connected");
        assert!(UnixStream::connect(ch.path()).is_err(), "no second connection");
        drop(ch);
        assert!(!dir.exists());
    }

    #[test]
    fn other_users_are_refused() {
        let (a, _b) = UnixStream::pair().unwrap();
        assert!(check_peer(&a, sys::euid()).is_ok());
        let other = sys::euid().wrapping_add(1);
        assert!(check_peer(&a, other).unwrap_err().contains("user id"));
    }

    #[test]
    fn wake_ends_the_wait() {
        let mut ch = SideChannel::create().unwrap();
        let l = ch.take_listener().unwrap();
        let (w, wake) = UnixStream::pair().unwrap();
        io::Write::write_all(&mut &w, b"x").unwrap();
        assert!(matches!(accept_agent(l, ch.path(), &wake).unwrap(), Accepted::Gone));
    }
}
