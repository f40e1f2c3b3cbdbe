//! The few POSIX calls the supervisor and the terminal prompt need that std does not offer:
//! poll, raw reads, non-blocking mode, isatty, signals to a process group, the signal mask for
//! the signal thread, and for `--pty`: terminal modes and sizes, the foreground process group,
//! descriptor duplication, and a socket peer's credentials.
//!
//! Thin, safe wrappers only: every `unsafe` block is here, each with the argument for why it
//! is sound. No policy, no protocol, no state.
// The one module where `unsafe` is allowed (Cargo.toml's [lints] denies it everywhere else).
#![allow(unsafe_code)]

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

/// Waits until one of a fixed set of descriptors is readable (or at end of file, or in
/// error). The set is registered once (epoll), so a wait costs less than [`poll_readable`],
/// which registers every descriptor again on each call: the reader waits once per line, the
/// memo asks once per decision.
pub struct Readable {
    ep: std::os::fd::OwnedFd,
}

impl Readable {
    /// Watch `fds`; [`Readable::wait`] reports each of the first two by its index. A
    /// descriptor closed while registered leaves the set by itself.
    pub fn new(fds: &[std::os::fd::BorrowedFd<'_>]) -> io::Result<Readable> {
        use rustix::event::epoll;
        let ep = epoll::create(epoll::CreateFlags::CLOEXEC)?;
        for (i, fd) in fds.iter().enumerate() {
            epoll::add(&ep, fd, epoll::EventData::new_u64(i as u64), epoll::EventFlags::IN)?;
        }
        Ok(Readable { ep })
    }

    /// Block until one is ready; for each of the first two descriptors, whether it is.
    pub fn wait(&self) -> io::Result<[bool; 2]> {
        self.ready(None)
    }

    /// Whether one is ready now, without waiting (an `epoll_wait` with no timeout: a lockless
    /// look at the ready list in the kernel).
    pub fn ready_now(&self) -> io::Result<bool> {
        Ok(self.ready(Some(&rustix::event::Timespec { tv_sec: 0, tv_nsec: 0 }))?.contains(&true))
    }

    /// For each of the first two descriptors, whether it is ready, waiting at most `timeout`.
    fn ready(&self, timeout: Option<&rustix::event::Timespec>) -> io::Result<[bool; 2]> {
        use rustix::event::epoll;
        let mut events = [std::mem::MaybeUninit::<epoll::Event>::uninit(); 2];
        loop {
            match epoll::wait(&self.ep, &mut events[..], timeout) {
                Ok((ready, _)) => {
                    let mut out = [false; 2];
                    for e in ready.iter() {
                        if let Some(slot) = out.get_mut(e.data.u64() as usize) {
                            *slot = true;
                        }
                    }
                    return Ok(out);
                }
                Err(rustix::io::Errno::INTR) => continue,
                Err(e) => return Err(e.into()),
            }
        }
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
        SignalSet::block(&FORWARDED)
    }

    /// Block `signals` as [`SignalSet::block_forwarded`] does (with `--pty`, SIGWINCH too).
    pub fn block(signals: &[i32]) -> io::Result<SignalSet> {
        // SAFETY: sigset_t is a plain C value; an all-zero one is a valid argument for
        // sigemptyset, which initialises it before any other use. sigaddset only writes the
        // set; pthread_sigmask only reads it (the old-mask pointer is null, which is allowed).
        unsafe {
            let mut set: libc::sigset_t = std::mem::zeroed();
            libc::sigemptyset(&mut set);
            for &s in signals {
                libc::sigaddset(&mut set, s);
            }
            let r = libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut());
            if r != 0 {
                return Err(io::Error::from_raw_os_error(r));
            }
            Ok(SignalSet(set))
        }
    }

    /// Make `cmd`'s child start with no signal blocked (gate blocks the forwarded ones in every
    /// thread, and std does not reset the mask a child inherits).
    pub fn reset_in_child(cmd: &mut std::process::Command) {
        use std::os::unix::process::CommandExt;
        // SAFETY: the closure runs in the child between fork and exec, where only
        // async-signal-safe calls are allowed: `unblock_all_in_child` makes one sigprocmask
        // call on a stack value, takes no lock and allocates nothing.
        unsafe {
            cmd.pre_exec(SignalSet::unblock_all_in_child);
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
        libc::SIGQUIT => "SIGQUIT".into(),
        libc::SIGPIPE => "SIGPIPE".into(),
        libc::SIGWINCH => "SIGWINCH".into(),
        n => format!("signal {n}"),
    }
}

/// A terminal's mode (termios), as read by [`get_termios`].
#[derive(Clone, Copy)]
pub struct Termios(libc::termios);

impl Termios {
    /// The same mode made raw (cfmakeraw): no echo, no line editing, no signals from keys, no
    /// output processing. Every byte typed goes through as it is.
    pub fn raw(&self) -> Termios {
        let mut t = self.0;
        // SAFETY: `t` is an initialised termios (copied from one tcgetattr filled in) that
        // cfmakeraw only rewrites in place.
        unsafe { libc::cfmakeraw(&mut t) };
        Termios(t)
    }

    pub fn local_flags(&self) -> libc::tcflag_t {
        self.0.c_lflag
    }
}

/// Read the mode of terminal `fd`.
pub fn get_termios(fd: RawFd) -> io::Result<Termios> {
    // SAFETY: termios is a plain C struct for which all-zero bytes are a valid value;
    // tcgetattr writes one whole struct into the valid pointer we pass and nothing else.
    unsafe {
        let mut t: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(fd, &mut t) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Termios(t))
    }
}

/// Set the mode of terminal `fd` now.
pub fn set_termios(fd: RawFd, t: &Termios) -> io::Result<()> {
    // SAFETY: tcsetattr only reads the termios behind the valid reference for the call.
    if unsafe { libc::tcsetattr(fd, libc::TCSANOW, &t.0) } != 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A terminal's size: rows, columns, and pixel width and height (0 when unknown).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WinSize {
    pub rows: u16,
    pub cols: u16,
    pub x_pixels: u16,
    pub y_pixels: u16,
}

/// The size of terminal `fd`; `None` when it is not a terminal or reports no size.
pub fn window_size(fd: RawFd) -> Option<WinSize> {
    // SAFETY: winsize is a plain C struct (all-zero is valid); TIOCGWINSZ writes one winsize
    // into the valid pointer we pass. A descriptor that is not a terminal gives ENOTTY.
    let ws = unsafe {
        let mut ws: libc::winsize = std::mem::zeroed();
        if libc::ioctl(fd, libc::TIOCGWINSZ, &mut ws) != 0 {
            return None;
        }
        ws
    };
    (ws.ws_row > 0 && ws.ws_col > 0).then_some(WinSize {
        rows: ws.ws_row,
        cols: ws.ws_col,
        x_pixels: ws.ws_xpixel,
        y_pixels: ws.ws_ypixel,
    })
}

/// What waiting for a child came to.
pub enum Waited {
    Exited(std::process::ExitStatus),
    /// It was stopped (SIGTSTP, SIGSTOP, ...); it can be continued.
    Stopped,
}

/// Wait for child `pid` to exit or stop.
pub fn wait_exit_or_stop(pid: i32) -> io::Result<Waited> {
    use std::os::unix::process::ExitStatusExt;
    loop {
        let mut status: libc::c_int = 0;
        // SAFETY: waitpid writes one int to a valid place; the pid is our own child.
        let r = unsafe { libc::waitpid(pid, &mut status, libc::WUNTRACED) };
        if r < 0 {
            let e = io::Error::last_os_error();
            if e.kind() == io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        if libc::WIFSTOPPED(status) {
            return Ok(Waited::Stopped);
        }
        return Ok(Waited::Exited(std::process::ExitStatus::from_raw(status)));
    }
}

/// Stop gate's own process group as a terminal's Ctrl-Z would (its job, for the shell that
/// started it). Returns once continued (at once when the group is orphaned: the kernel then
/// discards the signal).
pub fn stop_own_job() {
    // SAFETY: kill with plain integers: our own process group, a standard signal.
    unsafe {
        libc::kill(0, libc::SIGTSTP);
    }
}

/// This process's process group.
pub fn own_group() -> i32 {
    // SAFETY: getpgrp takes no arguments and cannot fail.
    unsafe { libc::getpgrp() }
}

/// Make `pgid` the foreground process group of terminal `fd` (how a shell hands its terminal
/// to a job, and takes it back). SIGTTOU is blocked in the calling thread for the call, so a
/// process in a background group of the terminal's session may do it.
pub fn set_foreground_group(fd: RawFd, pgid: i32) -> io::Result<()> {
    // SAFETY: the sigset_t values are initialised by sigemptyset before use; pthread_sigmask
    // reads `set` and writes `old`, both valid; tcsetpgrp takes plain integers.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigemptyset(&mut old);
        libc::sigaddset(&mut set, libc::SIGTTOU);
        let r = libc::pthread_sigmask(libc::SIG_BLOCK, &set, &mut old);
        if r != 0 {
            return Err(io::Error::from_raw_os_error(r));
        }
        let done = libc::tcsetpgrp(fd, pgid);
        let err = io::Error::last_os_error();
        libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        if done != 0 {
            return Err(err);
        }
    }
    Ok(())
}

/// In the agent between fork and exec: make its own (new) process group the foreground group
/// of terminal `fd`, as [`set_foreground_group`] does. The parent does the same after the
/// spawn; whichever runs first wins the race with the agent's first use of the terminal.
/// Async-signal-safe (sigprocmask, getpgrp, tcsetpgrp), allocation-free; errors are ignored.
/// Make `cmd`'s child take the foreground of gate's terminal (fd 0) before it execs.
pub fn take_terminal_on_exec(cmd: &mut std::process::Command) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure runs between fork and exec and calls only sigprocmask, getpgrp and
    // tcsetpgrp (async-signal-safe) on stack values; no lock, no allocation.
    unsafe {
        cmd.pre_exec(|| take_terminal_in_child(0));
    }
}

pub fn take_terminal_in_child(fd: RawFd) -> io::Result<()> {
    // SAFETY: as in `set_foreground_group`, with sigprocmask (single-threaded after fork).
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        libc::sigemptyset(&mut old);
        libc::sigaddset(&mut set, libc::SIGTTOU);
        if libc::sigprocmask(libc::SIG_BLOCK, &set, &mut old) == 0 {
            libc::tcsetpgrp(fd, libc::getpgrp());
            libc::sigprocmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        }
    }
    Ok(())
}

/// The foreground process group of terminal `fd` (for a pty master: of its slave).
pub fn foreground_group(fd: RawFd) -> Option<i32> {
    // SAFETY: tcgetpgrp takes a plain integer and touches no memory of ours.
    let pg = unsafe { libc::tcgetpgrp(fd) };
    (pg > 0).then_some(pg)
}

/// A new descriptor for the same open file, close-on-exec.
pub fn dup_cloexec(fd: RawFd) -> io::Result<std::os::fd::OwnedFd> {
    use std::os::fd::FromRawFd;
    // SAFETY: fcntl(F_DUPFD_CLOEXEC) takes plain integers and returns a new descriptor that
    // nothing else owns, so wrapping it in an OwnedFd (which closes it once) is sound.
    unsafe {
        let n = libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 3);
        if n < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(std::os::fd::OwnedFd::from_raw_fd(n))
    }
}

/// Make descriptor number `target` refer to what `src` refers to (dup2).
pub fn dup_onto(src: RawFd, target: RawFd) -> io::Result<()> {
    // SAFETY: dup2 takes plain integers. It closes whatever `target` referred to: callers use
    // it only on the standard descriptors, which no Rust object owns.
    if unsafe { libc::dup2(src, target) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// A pipe: (read end, write end), both close-on-exec.
pub fn pipe() -> io::Result<(std::os::fd::OwnedFd, std::os::fd::OwnedFd)> {
    use std::os::fd::FromRawFd;
    let mut fds = [0 as libc::c_int; 2];
    // SAFETY: pipe2 writes two descriptors into the valid two-int array; they are new and
    // owned by nobody else, so each goes into exactly one OwnedFd.
    unsafe {
        if libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            return Err(io::Error::last_os_error());
        }
        Ok((std::os::fd::OwnedFd::from_raw_fd(fds[0]), std::os::fd::OwnedFd::from_raw_fd(fds[1])))
    }
}

/// The effective user id of this process.
pub fn euid() -> u32 {
    // SAFETY: geteuid takes nothing, cannot fail and touches no memory of ours.
    unsafe { libc::geteuid() }
}

/// The user id of the process at the other end of a connected Unix socket (SO_PEERCRED: its
/// effective uid when it connected, as recorded by the kernel, not as claimed by the peer).
pub fn peer_uid(fd: RawFd) -> io::Result<u32> {
    let mut cred = libc::ucred { pid: 0, uid: 0, gid: 0 };
    let mut len = std::mem::size_of::<libc::ucred>() as libc::socklen_t;
    // SAFETY: getsockopt writes at most `len` bytes (the size of `cred`) into the valid,
    // initialised `cred`, and updates `len`, a valid socklen_t.
    let r = unsafe {
        libc::getsockopt(fd, libc::SOL_SOCKET, libc::SO_PEERCRED, (&mut cred as *mut libc::ucred).cast(), &mut len)
    };
    if r != 0 {
        return Err(io::Error::last_os_error());
    }
    if len as usize != std::mem::size_of::<libc::ucred>() {
        return Err(io::Error::other("SO_PEERCRED returned a short answer"));
    }
    Ok(cred.uid)
}
