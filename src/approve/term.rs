//! The terminal under the prompt: raw mode with a guaranteed restore, and the keys read in it.
//!
//! [`RawMode`] saves the terminal's settings (termios), switches to a mode where each key
//! arrives at once, unechoed, and Ctrl-C arrives as a key rather than a signal; dropping it
//! restores the saved settings exactly, on every return path and while a panic unwinds. A
//! panic hook ([`install_panic_hook`]) restores them too, before any other hook prints,
//! for a panic on the prompt's thread. [`Keys`] turns the bytes read into keys, swallowing
//! escape sequences whole, so an arrow key can never be read as the letter at its end.
//!
//! Why not dialoguer: `console::Term::read_key`, which dialoguer's prompts use, blocks until a
//! key comes, with no timeout and no way to notice that the agent exited or that Ctrl-C
//! arrived as a signal; the prompt needs all three (`--prompt-timeout`, a dead agent, SIGINT
//! before raw mode is on). So the terminal modes are set here with `rustix`'s safe termios
//! calls, and `console` is used for colour and text width. No `unsafe` in this module.
//!
//! It must not decide anything or write to the terminal: it only sets modes and decodes keys.

use std::fs::File;
use std::sync::{Mutex, Once};
use std::thread::ThreadId;

use rustix::termios::{self, InputModes, LocalModes, OptionalActions, QueueSelector, SpecialCodeIndex, Termios};

/// The settings to put back if the prompt's thread panics: a duplicate of the terminal's
/// descriptor, the saved settings, and the thread that owns them.
static ACTIVE: Mutex<Option<(File, Termios, ThreadId)>> = Mutex::new(None);
static HOOK: Once = Once::new();

/// Restore the terminal from the panic hook, before the panic message is printed. Only for a
/// panic on the thread that holds raw mode: another thread's panic must not change the
/// terminal under an open prompt. (The unwinding drop of [`RawMode`] restores again; setting
/// the same settings twice is harmless.)
pub fn install_panic_hook() {
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            restore_for_panic();
            previous(info);
        }));
    });
}

fn restore_for_panic() {
    // try_lock: never block inside a panic (the lock may be held by this very thread).
    if let Ok(guard) = ACTIVE.try_lock() {
        if let Some((tty, saved, owner)) = guard.as_ref() {
            if *owner == std::thread::current().id() {
                let _ = termios::tcsetattr(tty, OptionalActions::Now, saved);
            }
        }
    }
}

/// Raw mode on a terminal; the saved settings come back when this is dropped.
pub struct RawMode<'a> {
    tty: &'a File,
    saved: Termios,
}

impl<'a> RawMode<'a> {
    /// Save the terminal's settings and switch to raw input: no line buffering, no echo, no
    /// signals from keys (Ctrl-C is byte 3), no flow control, Enter as `\r`. Output
    /// processing is kept, so `\n` still starts a new line.
    pub fn enter(tty: &'a File) -> std::io::Result<RawMode<'a>> {
        let saved = termios::tcgetattr(tty)?;
        let mut raw = saved.clone();
        raw.local_modes.remove(LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG | LocalModes::IEXTEN);
        raw.input_modes.remove(InputModes::IXON | InputModes::ICRNL | InputModes::INLCR | InputModes::IGNCR);
        raw.special_codes[SpecialCodeIndex::VMIN] = 1;
        raw.special_codes[SpecialCodeIndex::VTIME] = 0;
        // Register for the panic hook before changing anything.
        if let Ok(dup) = tty.try_clone() {
            *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) = Some((dup, saved.clone(), std::thread::current().id()));
        }
        let guard = RawMode { tty, saved };
        termios::tcsetattr(tty, OptionalActions::Now, &raw)?;
        Ok(guard)
    }

    /// The settings saved on entry.
    pub fn saved(&self) -> &Termios {
        &self.saved
    }

    /// Put the saved settings back for a while (the pager runs in them), then raw again.
    pub fn suspended<T>(&self, f: impl FnOnce() -> T) -> std::io::Result<T> {
        let raw = termios::tcgetattr(self.tty)?;
        termios::tcsetattr(self.tty, OptionalActions::Now, &self.saved)?;
        let out = f();
        termios::tcsetattr(self.tty, OptionalActions::Now, &raw)?;
        Ok(out)
    }
}

impl Drop for RawMode<'_> {
    fn drop(&mut self) {
        let _ = termios::tcsetattr(self.tty, OptionalActions::Now, &self.saved);
        *ACTIVE.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// Throw away what was typed before the prompt was shown, so that a key pressed for something
/// else never answers a question the person has not seen.
pub fn discard_typeahead(tty: &File) -> std::io::Result<()> {
    termios::tcflush(tty, QueueSelector::IFlush).map_err(Into::into)
}

/// The terminal's width in columns, when it says.
pub fn width(tty: &File) -> Option<usize> {
    termios::tcgetwinsize(tty).ok().map(|w| w.ws_col as usize).filter(|&w| w > 0)
}

/// Is this a terminal (can its settings be read)?
pub fn is_terminal(tty: &File) -> bool {
    termios::tcgetattr(tty).is_ok()
}

/// One key, as the prompt cares about it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Key {
    Char(char),
    Enter,
    Backspace,
    /// Ctrl-U: erase the line.
    KillLine,
    CtrlC,
    /// Ctrl-D.
    Eof,
    /// An escape sequence (arrows, function keys, Alt+key), another control key, or bytes
    /// that are not UTF-8.
    Other,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Esc {
    #[default]
    None,
    /// After ESC.
    Start,
    /// Inside `ESC [ ...` until its final byte.
    Csi,
    /// After `ESC O`: one more byte.
    Ss3,
}

/// Decodes the bytes read from the terminal into keys. Keeps its state across reads, so an
/// escape sequence split between two reads is still swallowed whole.
#[derive(Debug, Default)]
pub struct Keys {
    esc: Esc,
    utf8: Vec<u8>,
}

impl Keys {
    pub fn feed(&mut self, bytes: &[u8]) -> Vec<Key> {
        let mut out = Vec::new();
        for &b in bytes {
            match self.esc {
                Esc::Start => {
                    self.esc = match b {
                        b'[' => Esc::Csi,
                        b'O' => Esc::Ss3,
                        _ => {
                            out.push(Key::Other);
                            Esc::None
                        }
                    };
                    continue;
                }
                Esc::Csi => {
                    if (0x40..=0x7e).contains(&b) {
                        self.esc = Esc::None;
                        out.push(Key::Other);
                    }
                    continue;
                }
                Esc::Ss3 => {
                    self.esc = Esc::None;
                    out.push(Key::Other);
                    continue;
                }
                Esc::None => {}
            }
            if !self.utf8.is_empty() || b >= 0x80 {
                self.utf8.push(b);
                match std::str::from_utf8(&self.utf8) {
                    Ok(s) => {
                        out.extend(s.chars().map(Key::Char));
                        self.utf8.clear();
                    }
                    Err(e) if e.error_len().is_some() || self.utf8.len() >= 4 => {
                        out.push(Key::Other);
                        self.utf8.clear();
                    }
                    Err(_) => {}
                }
                continue;
            }
            out.push(match b {
                0x1b => {
                    self.esc = Esc::Start;
                    continue;
                }
                0x03 => Key::CtrlC,
                0x04 => Key::Eof,
                b'\r' | b'\n' => Key::Enter,
                0x7f | 0x08 => Key::Backspace,
                0x15 => Key::KillLine,
                0x20..=0x7e => Key::Char(b as char),
                _ => Key::Other,
            });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs::OpenOptions;
    use std::panic::{catch_unwind, AssertUnwindSafe};

    #[test]
    fn escape_sequences_are_never_letters() {
        let mut k = Keys::default();
        // Up arrow (ESC [ A), SS3 up (ESC O A), a function key (ESC [ 1 5 ~), Alt-y.
        assert_eq!(k.feed(b"\x1b[A\x1bOA\x1b[15~\x1by"), vec![Key::Other; 4]);
        // Split across reads.
        assert_eq!(k.feed(b"\x1b["), vec![]);
        assert_eq!(k.feed(b"1;5"), vec![]);
        assert_eq!(k.feed(b"A"), vec![Key::Other]);
        assert_eq!(k.feed(b"y\x03\r\x7f"), vec![Key::Char('y'), Key::CtrlC, Key::Enter, Key::Backspace]);
        assert_eq!(k.feed("é".as_bytes()), vec![Key::Char('é')]);
        let e = "é".as_bytes();
        assert_eq!(k.feed(&e[..1]), vec![]);
        assert_eq!(k.feed(&e[1..]), vec![Key::Char('é')]);
        assert_eq!(k.feed(b"\xff"), vec![Key::Other]);
    }

    /// A pseudo-terminal pair: the master, and the slave opened as a file.
    fn pty() -> (std::os::fd::OwnedFd, File) {
        use rustix::pty::{grantpt, openpt, ptsname, unlockpt, OpenptFlags};
        let master = openpt(OpenptFlags::RDWR | OpenptFlags::NOCTTY).expect("openpt");
        grantpt(&master).expect("grantpt");
        unlockpt(&master).expect("unlockpt");
        let name = ptsname(&master, Vec::new()).expect("ptsname");
        let slave = OpenOptions::new().read(true).write(true).open(name.to_str().unwrap()).expect("open slave");
        (master, slave)
    }

    fn lflags(f: &File) -> LocalModes {
        termios::tcgetattr(f).unwrap().local_modes
    }

    #[test]
    fn raw_mode_is_restored_on_drop_on_panic_and_by_the_hook() {
        let (_master, tty) = pty();
        let before = termios::tcgetattr(&tty).unwrap();
        assert!(before.local_modes.contains(LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG));
        {
            let raw = RawMode::enter(&tty).unwrap();
            assert!(!lflags(&tty).intersects(LocalModes::ICANON | LocalModes::ECHO | LocalModes::ISIG));
            raw.suspended(|| assert_eq!(lflags(&tty), before.local_modes)).unwrap();
            assert!(!lflags(&tty).contains(LocalModes::ICANON));
        }
        assert_eq!(lflags(&tty), before.local_modes);
        assert_eq!(termios::tcgetattr(&tty).unwrap().input_modes, before.input_modes);

        let r = catch_unwind(AssertUnwindSafe(|| {
            let _raw = RawMode::enter(&tty).unwrap();
            panic!("in the prompt");
        }));
        assert!(r.is_err());
        assert_eq!(lflags(&tty), before.local_modes);
        assert_eq!(termios::tcgetattr(&tty).unwrap().input_modes, before.input_modes);

        // The hook's restore, on its own (as when the drop cannot run).
        let raw = RawMode::enter(&tty).unwrap();
        restore_for_panic();
        assert_eq!(lflags(&tty), before.local_modes);
        drop(raw);
        assert!(ACTIVE.lock().unwrap().is_none());
    }
}
