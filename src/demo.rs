//! `gate demo`: the README's first command. gate supervises a scripted agent (itself, run as
//! `gate __demo-agent`, a real child process) under a small built-in policy, and the agent
//! narrates each step and the decision it got: a safe read, a rule-allowed command, a compound
//! command denied because of one part, an edit that needs approval, and a batch stopped with
//! reject_hard.
//!
//! The demo writes its policy to a temporary directory and runs there; it must not touch the
//! user's files or host.yaml, and it exits 0 with or without a terminal. Without a terminal
//! (nobody to press `h`), the demo itself plays the person for the batch step, and says so.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use serde_json::{json, Value};

use crate::approve::{Answer, ApproveError, Approver, PromptInfo, Reply};
use crate::cli::{ConfigArg, DemoArgs, RunArgs};

const DEMO_POLICY: &str = r#"# gate demo policy
version: 1
mode: default
workspace: .
safe_tools: [read_file]
permissions:
  allow:
    - Bash(cargo test *)
  deny:
    - Bash(rm *)
"#;

/// Tells the demo agent whether a person can be asked (so it can say what will happen).
const ENV_INTERACTIVE: &str = "GATE_DEMO_INTERACTIVE";

/// `gate demo`. Returns the exit code.
pub fn run(args: &DemoArgs) -> anyhow::Result<i32> {
    let dir = TempDir::new()?;
    let policy = dir.0.join("host.yaml");
    std::fs::write(&policy, DEMO_POLICY)?;
    std::fs::write(dir.0.join("README.md"), "# demo project\n")?;
    let exe = std::env::current_exe()?;
    let run_args = RunArgs {
        config: ConfigArg { config: Some(policy) },
        approve_all: false,
        strict: false,
        mode: None,
        audit: None,
        non_interactive: args.non_interactive,
        max_line: 16 * 1024 * 1024,
        prompt_timeout: None,
        kill_grace: 5,
        pty: false,
        protocol: Some(crate::cli::ProtocolArg::Native),
        prompt: None,
        quiet: true,
        name: None,
        web: None,
        web_bind_any: false,
        notify: None,
        program: vec![exe.into_os_string(), "__demo-agent".into()],
    };
    let interactive = !args.non_interactive && crate::approve::tty::TermPrompt::open(None).is_ok();
    // The agent inherits the working directory and this variable. Set before any thread of
    // this process exists (the supervisor starts its threads later).
    std::env::set_current_dir(&dir.0)?;
    std::env::set_var(ENV_INTERACTIVE, if interactive { "1" } else { "0" });
    let hooks = crate::supervise::Hooks {
        wrap_approver: Some(Box::new(|inner: Box<dyn Approver>| Box::new(DemoApprover { inner }) as Box<dyn Approver>)),
    };
    let code = crate::supervise::run_with(&run_args, hooks)?;
    Ok(code)
}

/// A temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> std::io::Result<TempDir> {
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_nanos();
        let p = std::env::temp_dir().join(format!("gate-demo-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&p)?;
        Ok(TempDir(p))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Without a terminal, the demo answers the batch step as a person would: `h`.
struct DemoApprover {
    inner: Box<dyn Approver>,
}

impl Approver for DemoApprover {
    fn uses_terminal(&self) -> bool {
        self.inner.uses_terminal()
    }

    fn ask(&mut self, info: &PromptInfo) -> Result<Reply, ApproveError> {
        if !self.inner.uses_terminal() && info.id.starts_with("demo-batch") {
            return Ok(Reply {
                answer: Answer::RejectHard { feedback: Some("let's review the config first".into()) },
                by: crate::protocol::By::Person,
                reason: Some("the demo played the person (no terminal) and pressed h".into()),
            });
        }
        self.inner.ask(info)
    }
}

/// The hidden scripted agent that `gate demo` starts as its child.
pub fn agent() -> anyhow::Result<i32> {
    let interactive = std::env::var(ENV_INTERACTIVE).is_ok_and(|v| v == "1");
    let mut a = DemoAgent { input: std::io::stdin().lock(), out: std::io::stdout() };
    a.say(&[
        "",
        "gate demo",
        "=========",
        "This is a scripted stand-in for an AI coding agent, running as a child of gate.",
        "Whenever it wants to use a tool it writes a JSON request line; gate decides it from",
        "the policy (host.yaml) and answers on the agent's stdin. Everything else the agent",
        "prints, like these lines, passes through gate untouched.",
        "",
        "The demo policy:",
        "  safe_tools: [read_file]         always allowed",
        "  allow:  Bash(cargo test *)      allowed by a rule",
        "  deny:   Bash(rm *)              denied, whatever else says",
        "  mode: default                   the rest: reads are fine, edits and commands ask you",
    ]);

    a.step(1, "A safe read: the agent wants to read README.md.");
    let d = a.request("demo-1", "read_file", json!({"file_path": "README.md"}), None)?;
    a.verdict(&d);

    a.step(2, "A command a rule allows: `cargo test --quiet`.");
    let d = a.request("demo-2", "bash", json!({"command": "cargo test --quiet"}), None)?;
    a.verdict(&d);

    a.step(3, "A compound command: `git status && rm -rf build`.");
    a.say(&[
        "   gate parses shell commands and decides every part: `git status` is a read-only",
        "   command, but `rm -rf build` matches the deny rule Bash(rm *), so the whole call is denied.",
    ]);
    let d = a.request("demo-3", "bash", json!({"command": "git status && rm -rf build"}), None)?;
    a.verdict(&d);

    a.step(4, "An edit: the agent wants to write src/main.rs.");
    if interactive {
        a.say(&[
            "   Edits need your approval in the default mode: gate asks you now on this terminal.",
            "   (y approves once, n rejects; try either.)",
        ]);
    } else {
        a.say(&[
            "   Edits need a person's approval in the default mode. There is no terminal here, so",
            "   nobody can be asked: gate denies, and tells the agent how that could change.",
        ]);
    }
    let d = a.request(
        "demo-4",
        "write",
        json!({"file_path": "src/main.rs", "content": "fn main() {\n    println!(\"hello\");\n}\n"}),
        None,
    )?;
    a.verdict(&d);

    a.step(5, "A batch: the model asked for three calls at once.");
    a.say(&[
        "   1. write config.json   2. bash `npm install`   3. bash `npm run build`",
        "   The request for the first one lists the other two in batch_remaining, so the person",
        "   sees what is coming and can reject the first and stop the rest (reject_hard).",
    ]);
    if interactive {
        a.say(&["   Press h at the prompt to reject it and stop the batch."]);
    } else {
        a.say(&["   No terminal here: the demo plays the person and answers h (reject and stop)."]);
    }
    let rest = json!([
        {"tool": "bash", "arguments": {"command": "npm install"}},
        {"tool": "bash", "arguments": {"command": "npm run build"}}
    ]);
    let d = a.request("demo-batch-1", "write", json!({"file_path": "config.json", "content": "{}\n"}), Some(rest))?;
    a.verdict(&d);
    let stopped = d["mode"] == "reject_hard";
    if stopped {
        a.say(&[
            "   A well-behaved agent stops the batch here and waits for the user. To show what gate",
            "   does if an agent does not, this one tries the next call anyway:",
        ]);
        let d = a.request("demo-batch-2", "bash", json!({"command": "npm install"}), None)?;
        a.verdict(&d);
        a.say(&["   Until the turn ends, every request gets reject_hard with source \"batch\"."]);
    } else {
        a.say(&["   The batch was not stopped; the demo skips the other two calls."]);
    }
    a.send(&json!({"type": "turn_end"}))?;
    if stopped {
        a.say(&["   The agent sends turn_end: the stop is lifted for the next turn."]);
    } else {
        a.say(&["   The agent sends turn_end: the turn is over."]);
    }
    a.say(&[
        "",
        "That is gate. Next:",
        "  gate init                                   write a commented host.yaml here",
        "  gate check 'Bash(git status && rm -rf /)'   see how one call is decided, and why",
        "  gate run -- your-agent                      put gate in front of a real agent",
        "",
    ]);
    Ok(0)
}

struct DemoAgent<R: BufRead> {
    input: R,
    out: std::io::Stdout,
}

impl<R: BufRead> DemoAgent<R> {
    fn say(&mut self, lines: &[&str]) {
        let mut o = self.out.lock();
        for l in lines {
            let _ = writeln!(o, "{l}");
        }
        let _ = o.flush();
    }

    fn step(&mut self, n: u32, title: &str) {
        self.say(&["", &format!("Step {n}/5. {title}")]);
    }

    fn send(&mut self, v: &Value) -> anyhow::Result<()> {
        let mut o = self.out.lock();
        writeln!(o, "{v}")?;
        o.flush()?;
        Ok(())
    }

    /// Send a request and wait for its decision (other lines from gate are skipped).
    fn request(&mut self, id: &str, tool: &str, arguments: Value, batch: Option<Value>) -> anyhow::Result<Value> {
        let mut req = json!({"type": "tool_request", "id": id, "tool": tool, "arguments": arguments});
        if let Some(b) = batch {
            req["batch_remaining"] = b;
        }
        self.say(&[&format!("   agent -> gate: {req}")]);
        self.send(&req)?;
        let mut line = String::new();
        loop {
            line.clear();
            if self.input.read_line(&mut line)? == 0 {
                anyhow::bail!("gate closed the agent's input before answering {id}");
            }
            let Ok(v) = serde_json::from_str::<Value>(&line) else { continue };
            if v["type"] == "decision" && v["id"] == id {
                return Ok(v);
            }
        }
    }

    fn verdict(&mut self, d: &Value) {
        let source = d["source"].as_str().unwrap_or("?");
        let reason = d["reason"].as_str().unwrap_or("");
        // The rule is named in the header only when the reason does not name it already.
        let rule =
            d["rule"].as_str().filter(|r| !reason.contains(r)).map(|r| format!(", rule {r}")).unwrap_or_default();
        if d["approved"] == true {
            self.say(&[&format!("   gate -> agent: ALLOWED (source: {source}{rule})"), &format!("      {reason}")]);
        } else {
            let mode = d["mode"].as_str().unwrap_or("reject_soft");
            let message = d["message"].as_str().unwrap_or("").lines().next().unwrap_or("").to_string();
            self.say(&[
                &format!("   gate -> agent: DENIED, {mode} (source: {source}{rule})"),
                &format!("      why: {reason}"),
                &format!("      the model is told: {message}"),
            ]);
        }
    }
}
