//! The few POSIX calls the supervisor and the terminal prompt need that std does not offer:
//! poll, raw reads, non-blocking mode, isatty, signals to a process group, and the signal
//! mask for the signal thread.
//!
//! Thin, safe wrappers only: every `unsafe` block is here, each with the argument for why it
//! is sound. No policy, no protocol, no state.

use std::io;
use std::os::fd::RawFd;

/// Read into `buf` from a raw descriptor. Returns 0 at end of file.
pub fn read_fd(fd: RawFd, buf: &mut [u8]) -> io::Result<usize> {
    // SAFETY: `buf` is a valid, writable slice of `buf.len()` bytes for the duration of the
    // call, and read(2) writes at most that many bytes into it. A bad `fd` is reported as
    // EBADF, never undefined behaviour.
    let n = unsafe { libc::read(fd, buf.as_mut_ptr().cast(), buf.len()) };
    if n < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(n as usize)
    }
}

/// Wait until one of `fds` is readable (or at end of file, or in error), at most `timeout_ms`
/// milliseconds (-1: no limit). Returns, per descriptor, whether it is ready.
pub fn poll_readable(fds: &[RawFd], timeout_ms: i32) -> io::Result<Vec<bool>> {
    let mut pfds: Vec<libc::pollfd> =
        fds.iter().map(|&fd| libc::pollfd { fd, events: libc::POLLIN, revents: 0 }).collect();
    loop {
        // SAFETY: `pfds` is a valid array of `pfds.len()` initialised pollfd structs that
        // poll(2) may write (`revents`) for the duration of the call.
        let r = unsafe { libc::poll(pfds.as_mut_ptr(), pfds.len() as libc::nfds_t, timeout_ms) };
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        return Ok(pfds.iter().map(|p| p.revents != 0).collect());
    }
}

/// Put a descriptor in non-blocking mode.
pub fn set_nonblocking(fd: RawFd) -> io::Result<()> {
    // SAFETY: fcntl with F_GETFL/F_SETFL takes and returns plain integers and touches no
    // memory of ours; a bad `fd` is reported as EBADF.
    unsafe {
        let flags = libc::fcntl(fd, libc::F_GETFL);
        if flags < 0 || libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Is `fd` a terminal?
pub fn isatty(fd: RawFd) -> bool {
    // SAFETY: isatty takes a plain integer and touches no memory of ours.
    unsafe { libc::isatty(fd) == 1 }
}

/// Send `sig` to every process in process group `pgid`. False if none was there.
pub fn kill_group(pgid: i32, sig: i32) -> bool {
    if pgid <= 1 {
        // Never signal "every process" (-1) or our own group (0) by mistake.
        return false;
    }
    // SAFETY: kill(2) takes plain integers and touches no memory of ours.
    unsafe { libc::kill(-pgid, sig) == 0 }
}

/// Does process group `pgid` still have a member (zombies included)?
pub fn group_exists(pgid: i32) -> bool {
    kill_group(pgid, 0)
}

/// The signals gate forwards to the agent: SIGINT, SIGTERM, SIGHUP.
pub const FORWARDED: [i32; 3] = [libc::SIGINT, libc::SIGTERM, libc::SIGHUP];

/// A set of signals blocked in every thread of gate and waited for by one thread.
pub struct SignalSet(libc::sigset_t);

impl SignalSet {
    /// Block [`FORWARDED`] in the calling thread, so that every thread spawned after this
    /// inherits the mask and the signals wait for [`SignalSet::wait`]. Call before spawning
    /// threads. Child processes inherit the mask: clear it with
    /// [`SignalSet::unblock_all_in_child`] before exec.
    pub fn block_forwarded() -> io::Result<SignalSet> {
        // SAFETY: sigset_t is a plain C value; an all-zero one is a valid argument for
        // sigemptyset, which initialises it before any other use. sigaddset only writes the
        // set; pthread_sigmask only reads it (the old-mask pointer is null, which is allowed).
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for s in FORWARDED {
                libc::sigaddset(&mut set, s);
            }
            let r = libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            if r != 0 {
                return Err(io::Error::from_raw_os_error(r));
            }
            Ok(SignalSet(set))
        }
    }

    /// Unblock every signal in the calling thread. For the agent between fork and exec (std
    /// does not reset the mask it inherits): async-signal-safe, allocation-free.
    pub fn unblock_all_in_child() -> io::Result<()> {
        // SAFETY: as in `block_forwarded`: the set is initialised by sigemptyset before use and
        // only read by sigprocmask; both calls are async-signal-safe, so this may run between
        // fork and exec.
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            if libc::sigprocmask(libc::SIG_SETMASK, &set, std::ptr::null_mut()) != 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(())
    }

    /// Wait for one of the blocked signals and return its number.
    pub fn wait(&self) -> io::Result<i32> {
        let mut sig: libc::c_int = 0;
        // SAFETY: `self.0` is an initialised sigset_t (see `block_forwarded`) that sigwait
        // only reads; `sig` is a valid place for it to write one int.
        let r = unsafe { libc::sigwait(&self.0, &mut sig) };
        if r != 0 {
            return Err(io::Error::from_raw_os_error(r));
        }
        Ok(sig)
    }
}

/// The name of a signal, for messages.
pub fn signal_name(sig: i32) -> String {
    match sig {
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGHUP => "SIGHUP".into(),
        libc::SIGKILL => "SIGKILL".into(),
        libc::SIGPIPE => "SIGPIPE".into(),
        n => format!("signal {n}"),
    }
}
