//! A scripted agent for gate's integration tests: a real child process that speaks the native
//! protocol (or misbehaves) exactly as its arguments say. Not for users: behind the
//! `dev-tools` feature, which `cargo test` turns on and `cargo install` does not.
//!
//! Usage: `gate-test-agent OP [ARG] OP [ARG] ...`, ops run in order:
//!
//! | op | effect |
//! | --- | --- |
//! | `log PATH` | append every line read from stdin (`< line`) and notes (`# ...`) to PATH |
//! | `send TEXT` | write TEXT and `\n` to stdout |
//! | `raw HEX` | write the bytes HEX (no newline added) |
//! | `bigline PREFIX N SUFFIX` | write PREFIX, N times `a`, SUFFIX, `\n` |
//! | `await ID` | read stdin lines until a decision for ID |
//! | `await-type TYPE[#N]` | read stdin lines until one (the N-th) with that `type` |
//! | `readall` | read stdin to its end |
//! | `flood N` | send N requests (ids f0..) while a thread reads their N decisions |
//! | `sleep MS` | sleep |
//! | `sh CMD` | run `sh -c CMD` and wait for it; log `# sh exit CODE` |
//! | `exit CODE` | exit with CODE |
//! | `signal N` | send itself signal N (default action restored first) |
//! | `ignore N` | ignore signal N |
//! | `close-stdout`, `close-stdin` | close that descriptor |
//! | `spawn-sleeper SECS` | start `sleep SECS` in the background and log its pid |
//! | `spawn-holder SECS` | the same, keeping our stdout open in the sleeper |
//! | `note TEXT` | log `# TEXT` |
//! | `wait-file PATH` | wait until PATH exists |
//! | `spam N` | write N plain lines to stdout |
//! | `env NAME` | log `# env NAME=VALUE` |
//! | `connect` | connect to `$GATE_SOCKET`: from then on `send`, `raw`, `await`, ... use the socket |
//! | `connect-again` | try a second connection to `$GATE_SOCKET` and log whether it worked |
//! | `print TEXT` | write TEXT and `\n` to stdout (the terminal, whatever `connect` did) |
//! | `tty-check` | log whether stdin and stdout are terminals, and the terminal's size |
//! | `watch-winch` | count SIGWINCH from now on |
//! | `await-winch N` | wait until N SIGWINCH were counted; log it and the terminal's size |
//! | `read-until TEXT` | read stdin (the terminal) until TEXT was typed; log `# got TEXT` |
//!
//! SIGPIPE has its default action (as in most programs an agent is written in), so writing
//! to a closed stdout kills it.
//!
//! Without `exit`, it exits 0 after the last op.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

use std::fs::OpenOptions;
use std::io::{self, BufRead, BufReader, Write};

use std::io::Read;
use std::os::unix::net::UnixStream;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

static LOG: Mutex<Option<std::fs::File>> = Mutex::new(None);
/// The protocol socket, once `connect` ran: protocol lines go there instead of stdout.
static SOCKET: Mutex<Option<UnixStream>> = Mutex::new(None);
static WINCH: AtomicUsize = AtomicUsize::new(0);

extern "C" fn on_winch(_: libc::c_int) {
    WINCH.fetch_add(1, Ordering::SeqCst);
}

type Input = BufReader<Box<dyn Read + Send>>;

/// "RxC" of the terminal on stdout, or "none".
fn tty_size() -> String {
    // SAFETY: winsize is a plain C struct (all-zero is valid); TIOCGWINSZ writes one into the
    // valid pointer, or fails with ENOTTY.
    unsafe {
        let mut ws: libc::winsize = std::mem::zeroed();
        if libc::ioctl(1, libc::TIOCGWINSZ, &mut ws) == 0 {
            format!("{}x{}", ws.ws_row, ws.ws_col)
        } else {
            "none".into()
        }
    }
}
/// Every `type` and decision id read so far (by any op), so `await` never misses one.
static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn seen_count(key: &str) -> usize {
    SEEN.lock().unwrap().iter().filter(|k| *k == key).count()
}

fn seen(key: &str) -> bool {
    SEEN.lock().unwrap().iter().any(|k| k == key)
}

fn log(line: &str) {
    if let Some(f) = LOG.lock().unwrap().as_mut() {
        let _ = f.write_all(format!("{line}\n").as_bytes());
        let _ = f.flush();
    }
}

fn out(bytes: &[u8]) {
    if let Some(sock) = SOCKET.lock().unwrap().as_mut() {
        if sock.write_all(bytes).is_err() {
            log("# socket write failed");
        }
        return;
    }
    let mut o = io::stdout().lock();
    if o.write_all(bytes).and_then(|_| o.flush()).is_err() {
        log("# stdout write failed");
    }
}

fn decision_id(line: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    if v["type"] != "decision" {
        return None;
    }
    Some(match &v["id"] {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    })
}

fn line_type(line: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    v["type"].as_str().map(str::to_string)
}

fn next_line(r: &mut Input) -> Option<String> {
    let mut l = Vec::new();
    match r.read_until(b'\n', &mut l) {
        Ok(0) | Err(_) => None,
        Ok(_) => {
            let l = String::from_utf8_lossy(&l).trim_end_matches('\n').to_string();
            log(&format!("< {l}"));
            if let Some(t) = line_type(&l) {
                SEEN.lock().unwrap().push(format!("type:{t}"));
            }
            if let Some(id) = decision_id(&l) {
                SEEN.lock().unwrap().push(format!("id:{id}"));
            }
            Some(l)
        }
    }
}

fn libc_isatty(fd: i32) -> bool {
    // SAFETY: isatty takes a plain integer and touches no memory of ours.
    unsafe { libc::isatty(fd) == 1 }
}

fn main() {
    // SAFETY: restoring default actions installs no handler code. SIGINT, SIGTERM and SIGHUP
    // too: a test run from a background job (`cmd &` in a script) inherits them ignored, and
    // the tests expect an agent that dies of the signals gate passes on, as most agents do.
    unsafe {
        for sig in [libc::SIGPIPE, libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
            libc::signal(sig, libc::SIG_DFL);
        }
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut stdin: Option<Input> = Some(BufReader::new(Box::new(io::stdin())));
    let next = |r: &mut Option<Input>| next_line(r.as_mut().expect("stdin"));
    let mut i = 0;
    let arg = |i: usize| -> String { args.get(i).cloned().unwrap_or_else(|| panic!("missing argument after op {i}")) };
    while i < args.len() {
        let op = args[i].as_str();
        i += 1;
        match op {
            "log" => {
                let f = OpenOptions::new().create(true).append(true).open(arg(i)).expect("open log");
                *LOG.lock().unwrap() = Some(f);
                i += 1;
            }
            "send" => {
                out(format!("{}\n", arg(i)).as_bytes());
                i += 1;
            }
            "raw" => {
                let hex = arg(i);
                let bytes: Vec<u8> =
                    (0..hex.len()).step_by(2).map(|k| u8::from_str_radix(&hex[k..k + 2], 16).expect("hex")).collect();
                out(&bytes);
                i += 1;
            }
            "bigline" => {
                let (prefix, n, suffix) = (arg(i), arg(i + 1).parse::<usize>().expect("N"), arg(i + 2));
                let mut line = Vec::with_capacity(prefix.len() + n + suffix.len() + 1);
                line.extend_from_slice(prefix.as_bytes());
                line.resize(prefix.len() + n, b'a');
                line.extend_from_slice(suffix.as_bytes());
                line.push(b'\n');
                out(&line);
                i += 3;
            }
            "await" => {
                let id = arg(i);
                i += 1;
                while !seen(&format!("id:{id}")) {
                    match next(&mut stdin) {
                        Some(_) => {}
                        None => {
                            log(&format!("# eof before decision {id}"));
                            break;
                        }
                    }
                }
            }
            "await-type" => {
                // `TYPE#N`: until the N-th line of that type.
                let spec = arg(i);
                let (t, n) = match spec.split_once('#') {
                    Some((t, n)) => (t.to_string(), n.parse::<usize>().expect("N")),
                    None => (spec.clone(), 1),
                };
                i += 1;
                while seen_count(&format!("type:{t}")) < n {
                    match next(&mut stdin) {
                        Some(_) => {}
                        None => {
                            log(&format!("# eof before {t}"));
                            break;
                        }
                    }
                }
            }
            "readall" => while next(&mut stdin).is_some() {},
            "flood" => {
                let n: usize = arg(i).parse().expect("N");
                i += 1;
                let mut input = stdin.take().expect("stdin");
                let reader = std::thread::spawn(move || {
                    let mut got = 0;
                    while got < n {
                        match next_line(&mut input) {
                            Some(l) if decision_id(&l).is_some() => got += 1,
                            Some(_) => {}
                            None => break,
                        }
                    }
                    (got, input)
                });
                let mut o = io::BufWriter::new(io::stdout().lock());
                for k in 0..n {
                    let _ = writeln!(
                        o,
                        r#"{{"type":"tool_request","id":"f{k}","tool":"read_file","arguments":{{"file_path":"f{k}.txt"}}}}"#
                    );
                }
                let _ = o.flush();
                drop(o);
                let (got, input) = reader.join().unwrap();
                stdin = Some(input);
                log(&format!("# flood decisions={got}"));
            }
            "sleep" => {
                std::thread::sleep(Duration::from_millis(arg(i).parse().expect("MS")));
                i += 1;
            }
            "sh" => {
                let status = std::process::Command::new("sh").arg("-c").arg(arg(i)).status().expect("sh");
                log(&format!("# sh exit {}", status.code().unwrap_or(-1)));
                i += 1;
            }
            "exit" => {
                let code: i32 = arg(i).parse().expect("code");
                log(&format!("# exit {code}"));
                std::process::exit(code);
            }
            "signal" => {
                let sig: i32 = arg(i).parse().expect("N");
                log(&format!("# signal {sig}"));
                // SAFETY: signal() and raise() take plain integers; restoring the default
                // action and raising the signal touches no memory of ours.
                unsafe {
                    libc::signal(sig, libc::SIG_DFL);
                    libc::raise(sig);
                }
                i += 1;
            }
            "ignore" => {
                let sig: i32 = arg(i).parse().expect("N");
                // SAFETY: setting a signal to SIG_IGN installs no handler code and touches no
                // memory of ours.
                unsafe {
                    libc::signal(sig, libc::SIG_IGN);
                }
                log(&format!("# ignoring {sig}"));
                i += 1;
            }
            "close-stdout" | "close-stdin" => {
                let fd = if op == "close-stdout" { 1 } else { 0 };
                // SAFETY: closing a descriptor number we own; nothing in this program uses it
                // afterwards except through calls that report EBADF.
                unsafe {
                    libc::close(fd);
                }
                log(&format!("# {op}"));
            }
            "spawn-sleeper" | "spawn-holder" => {
                let mut cmd = std::process::Command::new("sleep");
                cmd.arg(arg(i)).stdin(std::process::Stdio::null());
                if op == "spawn-sleeper" {
                    cmd.stdout(std::process::Stdio::null());
                }
                let child = cmd.spawn().expect("spawn sleep");
                log(&format!("# sleeper {}", child.id()));
                std::mem::forget(child);
                i += 1;
            }
            "note" => {
                log(&format!("# {}", arg(i)));
                i += 1;
            }
            "wait-file" => {
                let p = arg(i);
                while !std::path::Path::new(&p).exists() {
                    std::thread::sleep(Duration::from_millis(10));
                }
                i += 1;
            }
            "spam" => {
                let n: usize = arg(i).parse().expect("N");
                let mut o = io::BufWriter::new(io::stdout().lock());
                for k in 0..n {
                    if writeln!(o, "spam line {k}").is_err() {
                        break;
                    }
                }
                let _ = o.flush();
                i += 1;
            }
            "env" => {
                let name = arg(i);
                i += 1;
                let v = std::env::var_os(&name).map(|v| v.to_string_lossy().into_owned()).unwrap_or_default();
                log(&format!("# env {name}={v}"));
            }
            "connect" => match std::env::var_os("GATE_SOCKET") {
                None => log("# no GATE_SOCKET"),
                Some(path) => match UnixStream::connect(&path) {
                    Ok(sock) => {
                        let input = sock.try_clone().expect("clone socket");
                        stdin = Some(BufReader::new(Box::new(input)));
                        *SOCKET.lock().unwrap() = Some(sock);
                        log("# connected");
                    }
                    Err(e) => log(&format!("# connect failed: {e}")),
                },
            },
            "connect-again" => {
                let path = std::env::var_os("GATE_SOCKET").unwrap_or_default();
                match UnixStream::connect(&path) {
                    Ok(mut s) => {
                        // Connected at the socket level: does gate talk to us?
                        let _ = s.write_all(b"{\"type\":\"hello\",\"protocol\":1}\n");
                        let _ = s.set_read_timeout(Some(Duration::from_secs(2)));
                        let mut b = [0u8; 1];
                        match s.read(&mut b) {
                            Ok(1) => log("# second connection answered"),
                            _ => log("# second connection refused"),
                        }
                    }
                    Err(_) => log("# second connection refused"),
                }
            }
            "print" => {
                let mut o = io::stdout().lock();
                let _ = o.write_all(format!("{}\n", arg(i)).as_bytes()).and_then(|_| o.flush());
                i += 1;
            }
            "tty-check" => {
                let (a, b) = (libc_isatty(0), libc_isatty(1));
                log(&format!("# tty stdin={a} stdout={b} size={}", tty_size()));
            }
            "watch-winch" => {
                // SAFETY: the handler only increments an atomic, which is async-signal-safe.
                unsafe {
                    libc::signal(libc::SIGWINCH, on_winch as *const () as libc::sighandler_t);
                }
                log("# watching SIGWINCH");
            }
            "await-winch" => {
                let n: usize = arg(i).parse().expect("N");
                i += 1;
                while WINCH.load(Ordering::SeqCst) < n {
                    std::thread::sleep(Duration::from_millis(10));
                }
                log(&format!("# winch {n} size={}", tty_size()));
            }
            "read-until" => {
                let want = arg(i);
                i += 1;
                let mut got = Vec::new();
                let mut b = [0u8; 256];
                loop {
                    match io::stdin().lock().read(&mut b) {
                        Ok(0) | Err(_) => {
                            log(&format!("# eof before {want}"));
                            break;
                        }
                        Ok(n) => got.extend_from_slice(&b[..n]),
                    }
                    if String::from_utf8_lossy(&got).contains(&want) {
                        log(&format!("# got {want}"));
                        break;
                    }
                }
            }
            other => panic!("unknown op {other}"),
        }
    }
    log("# done");
}
