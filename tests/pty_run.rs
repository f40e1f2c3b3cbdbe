//! `gate run --pty` through the real binary, itself run on a pseudo-terminal made by the test
//! (portable-pty), with the scripted `gate-test-agent` as the agent: the agent has a terminal
//! of gate's size and talks over `GATE_SOCKET`; a prompt in the middle of its output is
//! answered by typing; keys, Ctrl-C and resizes reach the agent; the terminal's mode is
//! restored after a normal exit and after a signal; the socket's directory is removed.
// Test and development code: unwrap, expect and panic are how it fails (gate itself denies
// them: Cargo.toml [lints]); it drives processes and terminals with libc calls.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic, unsafe_code)]

mod run_common;

use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{CommandBuilder, MasterPty, PtySize};
use run_common::*;

struct Term {
    master: Box<dyn MasterPty + Send>,
    input: Box<dyn Write + Send>,
    screen: Arc<Mutex<Vec<u8>>>,
    child: Box<dyn portable_pty::Child + Send + Sync>,
    /// The local flags of the terminal before gate started.
    lflags_before: libc::tcflag_t,
}

fn size(rows: u16, cols: u16) -> PtySize {
    PtySize { rows, cols, pixel_width: 0, pixel_height: 0 }
}

fn lflags(master: &dyn MasterPty) -> libc::tcflag_t {
    let fd = master.as_raw_fd().expect("master fd");
    gate::supervise::sys::get_termios(fd).expect("tcgetattr").local_flags()
}

impl Term {
    /// `gate run --pty GATE_ARGS -- gate-test-agent log LOG OPS` on a new terminal.
    fn start(ws: &Ws, gate_args: &[&str], ops: &[String], at: PtySize) -> Term {
        let pair = portable_pty::native_pty_system().openpty(at).expect("openpty");
        let lflags_before = lflags(&*pair.master);
        let mut cmd = CommandBuilder::new(GATE);
        cmd.args(["run", "--pty", "--kill-grace", "2"]);
        cmd.args(gate_args);
        cmd.arg("--");
        cmd.arg(AGENT);
        cmd.arg("log");
        cmd.arg(ws.log_path());
        cmd.args(ops);
        cmd.cwd(ws.path());
        cmd.env("HOME", ws.home.path());
        cmd.env_remove("XDG_CONFIG_HOME");
        cmd.env_remove("GATE_SOCKET");
        cmd.env("NO_COLOR", "1");
        cmd.env("TERM", "xterm");
        let child = pair.slave.spawn_command(cmd).expect("start gate");
        drop(pair.slave);
        let reader = pair.master.try_clone_reader().unwrap();
        let input = pair.master.take_writer().unwrap();
        let screen = capture(reader);
        Term { master: pair.master, input, screen, child, lflags_before }
    }

    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.screen.lock().unwrap()).into_owned()
    }

    fn wait_screen(&self, needle: &str) {
        let deadline = Instant::now() + TIMEOUT;
        while Instant::now() < deadline {
            if self.screen().contains(needle) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        panic!("never saw {needle:?}; screen:\n{}", self.screen());
    }

    fn type_keys(&mut self, keys: &[u8]) {
        self.input.write_all(keys).unwrap();
        self.input.flush().unwrap();
    }

    fn pid(&self) -> i32 {
        self.child.process_id().expect("pid") as i32
    }

    /// Wait for gate to exit; its exit code.
    fn finish(mut self, ws: &Ws) -> (u32, String, Term) {
        let deadline = Instant::now() + TIMEOUT;
        let status = loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                break s;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("gate did not exit; screen:\n{}\nlog: {:#?}", self.screen(), ws.log());
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        // Let the reader take what gate wrote last.
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut last = 0;
        while Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
            let n = self.screen.lock().unwrap().len();
            if n == last {
                break;
            }
            last = n;
        }
        let screen = self.screen();
        (status.exit_code(), screen, self)
    }

    /// The terminal is in the mode it had before gate started.
    fn assert_restored(&self) {
        let now = lflags(&*self.master);
        assert_eq!(now, self.lflags_before, "local flags after gate exited (ICANON/ECHO/ISIG must be back)");
        assert_ne!(now & libc::ICANON, 0);
        assert_ne!(now & libc::ECHO, 0);
    }
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn socket_of(ws: &Ws) -> String {
    ws.log()
        .iter()
        .find_map(|l| l.strip_prefix("# env GATE_SOCKET=").map(str::to_string))
        .expect("the agent logged GATE_SOCKET")
}

#[test]
fn the_agent_has_a_terminal_of_gates_size_and_talks_over_the_socket() {
    let ws = Ws::new(POLICY);
    let mut ops = strs(&["tty-check", "env", "GATE_SOCKET", "print", "hello from the agent's screen", "connect"]);
    ops.extend([
        "send".into(),
        r#"{"type":"hello","protocol":1}"#.into(),
        "await-type".into(),
        "welcome".into(),
        "send".into(),
        bash("p1", "npm test"),
        "await".into(),
        "p1".into(),
        "send".into(),
        req("p2", "webfetch", serde_json::json!({"url": "https://example.com"})),
        "await".into(),
        "p2".into(),
        "send".into(),
        "not a protocol line".into(),
        "connect-again".into(),
        "print".into(),
        "bye from the agent".into(),
        "exit".into(),
        "7".into(),
    ]);
    let term = Term::start(&ws, &["--strict"], &ops, size(30, 100));
    let (code, screen, term) = term.finish(&ws);
    assert_eq!(code, 7, "the agent's exit code; screen:\n{screen}");
    let log = ws.log();
    assert!(log.contains(&"# tty stdin=true stdout=true size=30x100".to_string()), "{log:#?}");
    assert!(log.contains(&"# connected".to_string()), "{log:#?}");
    let o = Outcome { code: Some(code as i32), signal: None, stdout: Vec::new(), stderr: screen.clone(), log };
    let welcome = o.received_json().into_iter().find(|v| v["type"] == "welcome").expect("welcome");
    assert!(welcome["disabled_tools"].as_array().unwrap().iter().any(|t| t == "webfetch"), "{welcome:#}");
    assert_approved(&o.decision("p1"), "rule");
    assert_denied(&o.decision("p2"), "rule", "reject_soft");
    assert!(o.log.contains(&"# second connection refused".to_string()), "{:#?}", o.log);
    // The agent's screen went through; the protocol did not.
    assert!(screen.contains("hello from the agent's screen") && screen.contains("bye from the agent"), "{screen}");
    assert!(!screen.contains("tool_request") && !screen.contains("\"decision\""), "{screen}");
    assert!(screen.contains("not a protocol line (only protocol lines go there") || screen.contains("ignoring text"));
    term.assert_restored();
    let socket = socket_of(&ws);
    assert!(!socket.is_empty());
    let dir = Path::new(&socket).parent().unwrap();
    assert!(!dir.exists(), "the socket's directory {} is removed", dir.display());
}

#[test]
fn a_prompt_in_the_middle_of_the_agent_output() {
    let ws = Ws::new(POLICY);
    let mut ops = strs(&["watch-winch", "print", "\u{1b}[?1049hbefore the prompt", "connect", "send"]);
    ops.extend([
        bash("c1", "git push origin main"),
        "await".into(),
        "c1".into(),
        // gate makes the agent redraw after the prompt.
        "await-winch".into(),
        "1".into(),
        "print".into(),
        "after the prompt\u{1b}[?1049l".into(),
        "exit".into(),
        "0".into(),
    ]);
    let mut term = Term::start(&ws, &[], &ops, size(24, 80));
    term.wait_screen("before the prompt");
    // The prompt shows the call.
    term.wait_screen("git push origin main");
    term.type_keys(b"y");
    let (code, screen, term) = term.finish(&ws);
    assert_eq!(code, 0, "screen:\n{screen}");
    let o = Outcome { code: Some(0), signal: None, stdout: Vec::new(), stderr: screen.clone(), log: ws.log() };
    let c1 = o.decision("c1");
    assert_approved(&c1, "user");
    assert_eq!(c1["scope"], "once");
    assert!(o.log.iter().any(|l| l.starts_with("# winch 1")), "the agent was told to redraw: {:#?}", o.log);
    // In order on the screen: the agent's output, the alternate screen left for the prompt,
    // the prompt, the alternate screen back, the agent's output after it.
    let at = |needle: &str| screen.find(needle).unwrap_or_else(|| panic!("no {needle:?} in {screen:?}"));
    let before = at("before the prompt");
    let prompt = at("git push origin main");
    let after = at("after the prompt");
    let left = before + screen[before..].find("\u{1b}[?1049l").expect("alternate screen left for the prompt");
    let back = prompt + screen[prompt..].find("\u{1b}[?1049h").expect("alternate screen back after the prompt");
    assert!(before < left && left < prompt && prompt < back && back < after, "{screen:?}");
    // The key typed at the prompt went to the prompt, not to the agent (it reads no stdin
    // here, but nothing typed may show up as protocol input either).
    for l in o.received() {
        assert!(l.starts_with('{'), "the agent received typed text: {l:?}");
    }
    term.assert_restored();
}

#[test]
fn keys_and_resizes_reach_the_agent() {
    let ws = Ws::new(POLICY);
    let ops = strs(&[
        "watch-winch",
        "tty-check",
        "print",
        "ready for keys",
        "read-until",
        "hello",
        "print",
        "ready for a resize",
        "await-winch",
        "1",
        "exit",
        "0",
    ]);
    let mut term = Term::start(&ws, &["--strict"], &ops, size(24, 80));
    term.wait_screen("ready for keys");
    term.type_keys(b"hello\r");
    ws.wait_log("# got hello");
    term.wait_screen("ready for a resize");
    term.master.resize(size(40, 120)).unwrap();
    let (code, screen, term) = term.finish(&ws);
    assert_eq!(code, 0, "screen:\n{screen}");
    let log = ws.log();
    assert!(log.contains(&"# tty stdin=true stdout=true size=24x80".to_string()), "{log:#?}");
    assert!(log.contains(&"# winch 1 size=40x120".to_string()), "{log:#?}");
    term.assert_restored();
}

#[test]
fn ctrl_c_is_the_agents_and_gate_exits_with_its_signal() {
    let ws = Ws::new(POLICY);
    let ops = strs(&["print", "sleeping", "sleep", "60000"]);
    let mut term = Term::start(&ws, &["--strict"], &ops, size(24, 80));
    term.wait_screen("sleeping");
    // Raw mode: ^C is a byte for the agent's terminal, whose line discipline makes it SIGINT.
    term.type_keys(&[3]);
    let (code, screen, term) = term.finish(&ws);
    assert_eq!(code, 128 + libc::SIGINT as u32, "screen:\n{screen}");
    term.assert_restored();
}

#[test]
fn sigterm_to_gate_ends_the_agent_and_restores_the_terminal() {
    let ws = Ws::new(POLICY);
    let ops = strs(&["env", "GATE_SOCKET", "print", "sleeping", "sleep", "60000"]);
    let term = Term::start(&ws, &["--strict"], &ops, size(24, 80));
    term.wait_screen("sleeping");
    // SAFETY: kill(2) with plain integers; the pid is gate's, our unreaped child.
    unsafe {
        libc::kill(term.pid(), libc::SIGTERM);
    }
    let (code, screen, term) = term.finish(&ws);
    assert_eq!(code, 128 + libc::SIGTERM as u32, "screen:\n{screen}");
    term.assert_restored();
    let socket = socket_of(&ws);
    assert!(!Path::new(&socket).parent().unwrap().exists(), "socket directory left behind");
}

#[test]
fn ctrl_c_at_a_prompt_answers_the_prompt_not_the_agent() {
    let ws = Ws::new(POLICY);
    let mut ops = strs(&["print", "asking", "connect", "send"]);
    ops.extend([bash("i1", "git push origin main"), "await".into(), "i1".into(), "exit".into(), "0".into()]);
    let mut term = Term::start(&ws, &[], &ops, size(24, 80));
    term.wait_screen("git push origin main");
    // The prompt reads keys raw: ^C is its key (SIGINT to gate if it comes as a signal), and
    // the open prompt takes it (reject and stop the batch); the agent lives on and exits 0.
    term.type_keys(&[3]);
    let (code, screen, term) = term.finish(&ws);
    assert_eq!(code, 0, "screen:\n{screen}");
    let o = Outcome { code: Some(0), signal: None, stdout: Vec::new(), stderr: screen, log: ws.log() };
    assert_denied(&o.decision("i1"), "user", "reject_hard");
    term.assert_restored();
}

#[test]
fn without_a_terminal_the_agent_still_gets_one() {
    // gate in its own session with no terminal (as in CI): the agent's pty is 24x80, its
    // output reaches gate's stdout, prompts are answered non-interactively.
    let ws = Ws::new(POLICY);
    let mut ops = strs(&["tty-check", "print", "plain output", "connect", "send"]);
    ops.extend([bash("n1", "git push origin main"), "await".into(), "n1".into(), "exit".into(), "3".into()]);
    let ops: Vec<&str> = ops.iter().map(String::as_str).collect();
    let o = ws.run(&["--pty"], &ops, None);
    o.assert_code(3);
    assert!(o.log.contains(&"# tty stdin=true stdout=true size=24x80".to_string()), "{:#?}", o.log);
    assert!(o.stdout_str().contains("plain output"), "{}", o.stdout_str());
    assert_denied(&o.decision("n1"), "non_interactive", "reject_soft");
}

#[test]
fn an_agent_that_never_connects_is_supervised_all_the_same() {
    let ws = Ws::new(POLICY);
    let ops = ["env", "GATE_SOCKET", "print", "a plain terminal program", "exit", "5"];
    let o = ws.run(&["--pty"], &ops, None);
    o.assert_code(5);
    assert!(o.stdout_str().contains("a plain terminal program"), "{}", o.stdout_str());
    let socket = socket_of(&ws);
    assert!(!Path::new(&socket).parent().unwrap().exists(), "socket directory left behind");
}
