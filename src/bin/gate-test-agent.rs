//! A scripted agent for gate's integration tests: a real child process that speaks the native
//! protocol (or misbehaves) exactly as its arguments say. Not for users.
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
//! | `await-type TYPE` | read stdin lines until one with that `type` |
//! | `readall` | read stdin to its end |
//! | `flood N` | send N requests (ids f0..) while a thread reads their N decisions |
//! | `sleep MS` | sleep |
//! | `exit CODE` | exit with CODE |
//! | `signal N` | send itself signal N (default action restored first) |
//! | `ignore N` | ignore signal N |
//! | `close-stdout`, `close-stdin` | close that descriptor |
//! | `spawn-sleeper SECS` | start `sleep SECS` in the background and log its pid |
//! | `spawn-holder SECS` | the same, keeping our stdout open in the sleeper |
//! | `note TEXT` | log `# TEXT` |
//! | `wait-file PATH` | wait until PATH exists |
//! | `spam N` | write N plain lines to stdout |
//!
//! SIGPIPE has its default action (as in most programs an agent is written in), so writing
//! to a closed stdout kills it.
//!
//! Without `exit`, it exits 0 after the last op.

use std::fs::OpenOptions;
use std::io::{self, BufRead, BufReader, Write};

use std::sync::Mutex;
use std::time::Duration;

static LOG: Mutex<Option<std::fs::File>> = Mutex::new(None);
/// Every `type` and decision id read so far (by any op), so `await` never misses one.
static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

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

fn next_line(r: &mut BufReader<io::Stdin>) -> Option<String> {
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

fn main() {
    // SAFETY: restoring the default action of SIGPIPE installs no handler code.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut stdin = Some(BufReader::new(io::stdin()));
    let next = |r: &mut Option<BufReader<io::Stdin>>| next_line(r.as_mut().expect("stdin"));
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
                let t = arg(i);
                i += 1;
                while !seen(&format!("type:{t}")) {
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
            other => panic!("unknown op {other}"),
        }
    }
    log("# done");
}
