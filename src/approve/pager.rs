//! `v` at the prompt: the whole content in a pager on the terminal, then back to the prompt.
//!
//! `$PAGER` runs through `sh -c` (as git and man run it, so `PAGER="less -R"` works), else
//! `less`, else `more`; with none of them the text is written to the terminal as it is. The
//! pager reads the text from a pipe and writes to the terminal (`/dev/tty`), never to gate's
//! stdout, which may be a pipe to someone else.
//!
//! It must not approve or decide anything, and it must not leave the terminal changed: the
//! caller runs it with the terminal's own settings back in place (see
//! [`super::term::RawMode::suspended`]).

use std::fs::File;
use std::io::Write;
use std::process::{Command, Stdio};

/// How the text was shown.
#[derive(Debug, PartialEq, Eq)]
pub enum Shown {
    /// By this pager command.
    Pager(String),
    /// Written to the terminal directly (no pager could be started).
    Direct,
}

/// Show `text` in the pager. Errors only when the terminal cannot be written.
pub fn show(tty: &File, text: &str, pager_env: Option<&str>) -> std::io::Result<Shown> {
    let candidates: Vec<String> = match pager_env.map(str::trim).filter(|p| !p.is_empty()) {
        Some(p) => vec![p.to_string()],
        None => vec!["less".into(), "more".into()],
    };
    for cmd in candidates {
        if run(tty, &cmd, text)? {
            return Ok(Shown::Pager(cmd));
        }
    }
    let mut out = tty;
    out.write_all(text.as_bytes())?;
    if !text.ends_with('\n') {
        out.write_all(b"\n")?;
    }
    out.flush()?;
    Ok(Shown::Direct)
}

/// Run one pager; false when it could not be started (or the shell could not find it).
fn run(tty: &File, cmd: &str, text: &str) -> std::io::Result<bool> {
    let mut c = Command::new("sh");
    c.arg("-c").arg(cmd).stdin(Stdio::piped()).stdout(tty.try_clone()?).stderr(Stdio::null());
    if std::env::var_os("LESS").is_none() {
        // Quit at once when it fits on one screen, keep colours, leave the text on screen.
        c.env("LESS", "FRX");
    }
    let mut child = match c.spawn() {
        Ok(ch) => ch,
        Err(_) => return Ok(false),
    };
    if let Some(mut stdin) = child.stdin.take() {
        let text = text.to_string();
        // A thread, so a pager that quits before reading everything cannot block the prompt.
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
        let status = child.wait()?;
        let _ = writer.join();
        // 126/127: the shell could not run the command.
        return Ok(!matches!(status.code(), Some(126) | Some(127)));
    }
    let _ = child.wait();
    Ok(false)
}
