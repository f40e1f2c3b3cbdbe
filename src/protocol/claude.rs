//! Claude Code's protocols (docs/agents/claude-code.md): the stream-json control protocol of
//! `claude -p` (gate is the SDK host: a PreToolUse hook for every tool registered in
//! `initialize`, and `--permission-prompt-tool stdio`), and the PreToolUse hook's JSON (for
//! `gate hook claude` and the hook gate installs for interactive Claude Code).
//!
//! Measured on Claude Code 2.1.197 (see the tests): a hook answer `allow` skips Claude Code's
//! own prompt but not the user's deny rules in its settings, so gate is never looser than
//! them; `updatedInput` is required in an allow of `can_use_tool`; Claude Code exits at the end
//! of its input, so gate closes it once the `result` arrives.
//!
//! Translation only: no I/O, no decisions. Every request gate cannot map is answered deny (a
//! hook or permission request) or with an error (another control request), never allow.

use std::ffi::{OsStr, OsString};
use std::path::Path;

use serde_json::{json, Value};

use super::{message_for_model, BatchItem, CallId, Decoder, Encoder, Incoming, IncomingCall, Resolution, Shown};
use crate::policy::Call;

/// The id gate gives its PreToolUse hook callback in `initialize`.
pub const HOOK_ID: &str = "gate_pretooluse";

/// What Claude Code prints for the user's `--output-format`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    Text,
    Json,
    StreamJson,
}

/// `claude -p TASK ...` rewritten for gate: the arguments Claude Code is started with, and
/// the task gate sends it.
#[derive(Clone, Debug, PartialEq)]
pub struct Headless {
    pub argv: Vec<OsString>,
    pub task: String,
    pub output: Output,
}

/// Claude Code's options that take a value (the next word, or `--opt=value`).
const VALUE_OPTIONS: &[&str] = &[
    "--output-format",
    "--input-format",
    "--model",
    "--fallback-model",
    "--settings",
    "--setting-sources",
    "--allowedTools",
    "--allowed-tools",
    "--disallowedTools",
    "--disallowed-tools",
    "--tools",
    "--permission-mode",
    "--permission-prompt-tool",
    "--append-system-prompt",
    "--system-prompt",
    "--system-prompt-file",
    "--append-system-prompt-file",
    "--mcp-config",
    "--add-dir",
    "--session-id",
    "--resume",
    "-r",
    "--max-turns",
    "--max-budget-usd",
    "--agents",
    "--agent",
    "--betas",
    "--json-schema",
    "--plugin-dir",
    "--fork-session-id",
];

/// Is this `claude` invocation headless (`-p`/`--print`)?
pub fn is_headless(args: &[OsString]) -> bool {
    args.iter().any(|a| a == "-p" || a == "--print")
}

/// Rewrite `claude -p TASK [flags]` so that gate can be its host. The task is the first word
/// that is neither an option nor an option's value.
pub fn headless(program: &OsStr, args: &[OsString]) -> Result<Headless, String> {
    let mut argv = vec![program.to_os_string()];
    let mut task: Option<String> = None;
    let mut output = Output::Text;
    let mut i = 0;
    let mut after_dashes = false;
    while i < args.len() {
        let a = &args[i];
        let s = a.to_string_lossy();
        i += 1;
        if !after_dashes && s == "--" {
            after_dashes = true;
            continue;
        }
        if after_dashes || !s.starts_with('-') || s == "-" {
            if task.is_none() {
                task = Some(a.to_str().ok_or("the task is not UTF-8")?.to_string());
                continue;
            }
            argv.push(a.clone());
            continue;
        }
        let (name, inline) = match s.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n.to_string(), Some(v.to_string())),
            _ => (s.to_string(), None),
        };
        let takes_value = VALUE_OPTIONS.contains(&name.as_str());
        let value = match (takes_value, inline) {
            (true, Some(v)) => Some(v),
            (true, None) => {
                let v = args.get(i).ok_or_else(|| format!("claude's option {name} needs a value"))?;
                i += 1;
                Some(v.to_string_lossy().into_owned())
            }
            (false, _) => None,
        };
        match name.as_str() {
            "--output-format" => {
                output = match value.as_deref() {
                    Some("text") => Output::Text,
                    Some("json") => Output::Json,
                    Some("stream-json") => Output::StreamJson,
                    other => return Err(format!("unknown --output-format {other:?} (text, json or stream-json)")),
                }
            }
            // gate sets these itself.
            "--input-format" | "--permission-prompt-tool" | "--verbose" | "-p" | "--print" => {}
            _ => {
                argv.push(OsString::from(&name));
                if let Some(v) = value {
                    argv.push(OsString::from(v));
                }
            }
        }
    }
    let task = task.ok_or("no task: pass it as `claude -p \"TASK\"`")?;
    argv.extend(
        ["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"]
            .into_iter()
            .chain(["--permission-prompt-tool", "stdio"])
            .map(OsString::from),
    );
    Ok(Headless { argv, task, output })
}

/// What gate sends Claude Code first: `initialize` with a PreToolUse hook on every tool, then
/// the task as the user's message.
pub fn start_lines(task: &str) -> Vec<Vec<u8>> {
    let init = json!({
        "type": "control_request",
        "request_id": "gate_init",
        "request": {"subtype": "initialize", "hooks": {"PreToolUse": [{"matcher": "*", "hookCallbackIds": [HOOK_ID]}]}}
    });
    let user = json!({
        "type": "user",
        "session_id": "",
        "message": {"role": "user", "content": task},
        "parent_tool_use_id": null
    });
    [init, user].iter().map(line).collect()
}

/// The control request that interrupts Claude Code's turn (Ctrl-C).
pub fn interrupt_line() -> Vec<u8> {
    line(&json!({"type": "control_request", "request_id": "gate_interrupt", "request": {"subtype": "interrupt"}}))
}

fn line(v: &Value) -> Vec<u8> {
    let mut out = serde_json::to_vec(v).unwrap_or_default();
    out.push(b'\n');
    out
}

/// A Claude Code tool call as the call gate decides. Rules use Claude Code's names (`Bash`,
/// `Write`, `Read`, `WebFetch`, `mcp__server__tool`); the arguments are reshaped only where a
/// tool names its path in another field: NotebookEdit is an edit of `notebook_path`; Glob,
/// Grep and LS keep their own names and fields, with `path` the session's directory when
/// absent.
pub fn to_call(tool: &str, input: &Value, cwd: &Path) -> Call {
    let get = |k: &str| input.get(k).and_then(Value::as_str);
    let mapped = |tool: &str, args: Value| Call { tool: tool.into(), arguments: args, annotations: None };
    match tool {
        "NotebookEdit" => {
            let mut args = input.as_object().cloned().unwrap_or_default();
            if let Some(p) = get("notebook_path") {
                args.insert("file_path".into(), json!(p));
            }
            let content = get("new_source").unwrap_or("");
            args.insert("content".into(), json!(content));
            mapped("Edit", Value::Object(args))
        }
        "Glob" | "Grep" | "LS" => {
            // Decided as the tools they are, whose every path field and pattern the policy
            // checks where it lands (red team 45: mapped to a `Read` of the directory, a Glob
            // of `{src,lnk}/*.conf` through a link to /etc lost its pattern and was allowed),
            // from the session's directory when they name none.
            let mut args = input.as_object().cloned().unwrap_or_default();
            // (A `path` that is not a string is kept, and checked as the path it holds.)
            if input.get("path").is_none_or(|p| p.is_null() || p.as_str() == Some("")) {
                args.insert("path".into(), json!(cwd.display().to_string()));
            }
            mapped(tool, Value::Object(args))
        }
        _ => mapped(tool, input.clone()),
    }
}

/// Reads Claude Code's stream-json output.
pub struct ClaudeDecoder {
    pub output: Output,
    pub cwd: std::path::PathBuf,
}

impl ClaudeDecoder {
    fn shown(&self, line: &[u8], kind: &str) -> Shown {
        match self.output {
            Output::StreamJson => Shown::Line,
            Output::Json if kind == "result" => {
                let mut l = line.to_vec();
                l.push(b'\n');
                Shown::Text(l)
            }
            Output::Text if kind == "result" => match serde_json::from_slice::<Value>(line) {
                Ok(v) => match v.get("result").and_then(Value::as_str) {
                    Some(text) => Shown::Text(format!("{text}\n").into_bytes()),
                    None => Shown::Hidden,
                },
                Err(_) => Shown::Hidden,
            },
            _ => Shown::Hidden,
        }
    }
}

impl Decoder for ClaudeDecoder {
    fn line(&mut self, line: &[u8]) -> (Shown, Incoming) {
        let v: Value = match super::strict::parse(line) {
            Ok(v) => v,
            Err(e) => {
                // Not a message gate can read: never a call. Shown in stream-json as it came.
                let shown = if self.output == Output::StreamJson { Shown::Line } else { Shown::Hidden };
                return (shown, Incoming::Malformed(format!("is not valid JSON ({e})")));
            }
        };
        let kind = v.get("type").and_then(Value::as_str).unwrap_or("");
        match kind {
            "control_request" => (Shown::Hidden, control_request(&v, &self.cwd)),
            "control_response" => {
                let r = v.get("response");
                if r.and_then(|r| r.get("subtype")).and_then(Value::as_str) == Some("error") {
                    let what = r.and_then(|r| r.get("request_id")).and_then(Value::as_str).unwrap_or("?");
                    let err = r.and_then(|r| r.get("error")).map(Value::to_string).unwrap_or_default();
                    return (Shown::Hidden, Incoming::Malformed(format!("is an error answer to {what}: {err}")));
                }
                (Shown::Hidden, Incoming::Nothing)
            }
            "control_cancel_request" => {
                let id = v.get("request_id").and_then(Value::as_str).unwrap_or("");
                (Shown::Hidden, Incoming::Cancel { key: format!("claude:{id}") })
            }
            "result" => (self.shown(line, kind), Incoming::Finished),
            _ => (self.shown(line, kind), Incoming::Nothing),
        }
    }

    fn oversize(&mut self, head: &[u8], limit: usize) -> Option<Incoming> {
        // A control request cut at the limit is still a request: deny it (if its id can be
        // read), never let it pass unanswered.
        let s = super::native::salvage(head);
        if s.kind.as_deref() == Some("control_request") {
            let id = find_request_id(head).map(|rid| CallId {
                key: format!("claude:{rid}"),
                shown: rid.clone(),
                wire: json!({"request_id": rid, "kind": "unknown"}),
            });
            return Some(Incoming::Bad {
                id,
                tool: None,
                error: format!("a control request longer than --max-line ({limit} bytes)"),
            });
        }
        None
    }

    fn passes_plain_lines(&self) -> bool {
        self.output == Output::StreamJson
    }
}

/// The `"request_id":"..."` of a (possibly cut) control request.
fn find_request_id(head: &[u8]) -> Option<String> {
    let at = memchr::memmem::find(head, b"\"request_id\":\"")? + 14;
    let end = memchr::memchr(b'"', &head[at..])?;
    std::str::from_utf8(&head[at..at + end]).ok().map(str::to_string)
}

fn control_request(v: &Value, cwd: &Path) -> Incoming {
    let rid = match v.get("request_id") {
        Some(Value::String(s)) if !s.is_empty() => s.clone(),
        _ => return Incoming::Bad { id: None, tool: None, error: "a control_request without a request_id".into() },
    };
    let req = v.get("request").cloned().unwrap_or(Value::Null);
    let subtype = req.get("subtype").and_then(Value::as_str).unwrap_or("");
    let id = |kind: &str, input: &Value| CallId {
        key: format!("claude:{rid}"),
        shown: req.get("tool_use_id").and_then(Value::as_str).unwrap_or(&rid).to_string(),
        wire: json!({"request_id": rid, "kind": kind, "input": input}),
    };
    let (tool, input, kind) = match subtype {
        "can_use_tool" => (req.get("tool_name"), req.get("input"), "can_use_tool"),
        "hook_callback" => {
            let hin = req.get("input");
            let event = hin.and_then(|i| i.get("hook_event_name")).and_then(Value::as_str);
            if event != Some("PreToolUse") {
                return Incoming::Bad {
                    id: Some(id("hook_other", &Value::Null)),
                    tool: None,
                    error: format!("a hook callback for {event:?}, which gate did not register"),
                };
            }
            (hin.and_then(|i| i.get("tool_name")), hin.and_then(|i| i.get("tool_input")), "hook")
        }
        other => {
            return Incoming::Bad {
                id: Some(id("unknown", &Value::Null)),
                tool: None,
                error: format!("a control request gate does not know ({other:?})"),
            }
        }
    };
    let (Some(Value::String(tool)), Some(input @ Value::Object(_))) = (tool, input) else {
        return Incoming::Bad {
            id: Some(id(kind, &Value::Null)),
            tool: tool.and_then(Value::as_str).map(str::to_string),
            error: format!("a {subtype} request without a tool name and an input object"),
        };
    };
    // A hook's input says where the call runs (Claude Code's shell may have moved).
    let runs_in = req.get("input").and_then(|i| i.get("cwd")).and_then(Value::as_str).map(Path::new).unwrap_or(cwd);
    let call = super::anchored(to_call(tool, input, runs_in), runs_in, cwd);
    Incoming::Call(IncomingCall {
        id: id(kind, input),
        call,
        batch_remaining: Vec::<BatchItem>::new(),
        report_only: false,
        agent_asks: kind == "can_use_tool",
    })
}

/// Writes gate's answers as Claude Code's control responses.
#[derive(Default)]
pub struct ClaudeEncoder;

impl Encoder for ClaudeEncoder {
    fn resolution(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<u8> {
        let rid = id.wire.get("request_id").cloned().unwrap_or(Value::Null);
        let kind = id.wire.get("kind").and_then(Value::as_str).unwrap_or("unknown");
        let tool = id.wire.get("input").map(|_| call.tool.as_str()).unwrap_or(call.tool.as_str());
        let response = match kind {
            "hook" => hook_output(r.approved, &reason_for(tool, r)),
            "can_use_tool" if r.approved => {
                json!({"behavior": "allow", "updatedInput": id.wire.get("input").cloned().unwrap_or(json!({}))})
            }
            "can_use_tool" => {
                let mut d = json!({"behavior": "deny", "message": message_for_model(tool, r)});
                if r.hard {
                    d["interrupt"] = json!(true);
                }
                d
            }
            _ => {
                return line(&json!({
                    "type": "control_response",
                    "response": {"subtype": "error", "request_id": rid, "error": format!("gate: {}", r.reason)}
                }))
            }
        };
        line(&json!({
            "type": "control_response",
            "response": {"subtype": "success", "request_id": rid, "response": response}
        }))
    }
}

fn reason_for(tool: &str, r: &Resolution) -> String {
    if r.approved {
        format!("gate: {}", r.reason)
    } else {
        message_for_model(tool, r)
    }
}

/// A PreToolUse hook's answer: `allow` or `deny` with the reason (the model sees a denial's).
pub fn hook_output(approved: bool, reason: &str) -> Value {
    json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": if approved { "allow" } else { "deny" },
        "permissionDecisionReason": reason,
    }})
}

/// The hook's `ask`: Claude Code shows its own dialog.
pub fn hook_ask(reason: &str) -> Value {
    json!({"hookSpecificOutput": {
        "hookEventName": "PreToolUse",
        "permissionDecision": "ask",
        "permissionDecisionReason": reason,
    }})
}

/// The `--settings` value for interactive Claude Code: the user's own settings (a path or
/// JSON, as Claude Code takes them) with gate's PreToolUse hook added to their hooks. Only the
/// last `--settings` counts in Claude Code, so gate merges instead of passing a second one.
pub fn merged_settings(user: Option<&Value>, hook_command: &str, timeout_secs: u64) -> Value {
    let mut settings = match user {
        Some(Value::Object(m)) => Value::Object(m.clone()),
        _ => json!({}),
    };
    let entry =
        json!({"matcher": "*", "hooks": [{"type": "command", "command": hook_command, "timeout": timeout_secs}]});
    let hooks = settings.as_object_mut().map(|m| m.entry("hooks").or_insert_with(|| json!({})));
    if let Some(Value::Object(h)) = hooks {
        let pre = h.entry("PreToolUse").or_insert_with(|| json!([]));
        match pre {
            // gate's hook first: it decides before any other hook can act.
            Value::Array(list) => list.insert(0, entry),
            other => *other = json!([entry]),
        }
    }
    settings
}

/// Is the program Claude Code (`claude`, or a path ending in it)?
pub fn is_claude(program: &OsStr) -> bool {
    Path::new(program).file_name().is_some_and(|n| n == "claude")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn os(v: &[&str]) -> Vec<OsString> {
        v.iter().map(OsString::from).collect()
    }

    #[test]
    fn headless_finds_the_task_and_the_output_format() {
        let h =
            headless(OsStr::new("claude"), &os(&["-p", "fix it", "--model", "x", "--output-format", "json"])).unwrap();
        assert_eq!(h.task, "fix it");
        assert_eq!(h.output, Output::Json);
        assert!(h.argv.contains(&OsString::from("--model")));
        assert!(h.argv.contains(&OsString::from("x")));
        assert!(h.argv.windows(2).any(|w| w[0] == "--permission-prompt-tool" && w[1] == "stdio"));
        let h = headless(OsStr::new("claude"), &os(&["--model=y", "-p", "--", "-rf task"])).unwrap();
        assert_eq!(h.task, "-rf task");
        assert!(headless(OsStr::new("claude"), &os(&["-p"])).is_err());
        assert!(headless(OsStr::new("claude"), &os(&["-p", "t", "--model"])).is_err());
    }

    #[test]
    fn requests_become_calls_and_unknown_ones_are_bad() {
        let mut d = ClaudeDecoder { output: Output::Text, cwd: "/w".into() };
        let l = br#"{"type":"control_request","request_id":"r1","request":{"subtype":"can_use_tool","tool_name":"Bash","input":{"command":"ls"},"tool_use_id":"t1"}}"#;
        match d.line(l) {
            (Shown::Hidden, Incoming::Call(c)) => {
                assert_eq!(c.call.tool, "Bash");
                assert_eq!(c.id.shown, "t1");
                assert_eq!(c.id.wire["kind"], "can_use_tool");
            }
            other => panic!("{other:?}"),
        }
        let l = br#"{"type":"control_request","request_id":"r2","request":{"subtype":"mystery"}}"#;
        assert!(matches!(d.line(l), (Shown::Hidden, Incoming::Bad { id: Some(_), .. })));
        let l = br#"{"type":"control_request","request_id":"r3","request":{"subtype":"can_use_tool","tool_name":"Bash","input":"x"}}"#;
        assert!(matches!(d.line(l), (_, Incoming::Bad { id: Some(_), .. })));
        assert!(matches!(d.line(b"{oops"), (Shown::Hidden, Incoming::Malformed(_))));
        assert!(
            matches!(d.line(br#"{"type":"result","result":"hi"}"#), (Shown::Text(t), Incoming::Finished) if t == b"hi\n")
        );
    }

    #[test]
    fn answers_never_allow_an_unknown_request() {
        let mut e = ClaudeEncoder;
        let call = Call { tool: "Bash".into(), arguments: json!({}), annotations: None };
        let id = CallId { key: "k".into(), shown: "s".into(), wire: json!({"request_id":"r","kind":"unknown"}) };
        let mut r = Resolution::error("x");
        r.approved = true; // even a (wrong) approval of an unknown request is an error answer
        let v: Value = serde_json::from_slice(&e.resolution(&id, &call, &r)).unwrap();
        assert_eq!(v["response"]["subtype"], "error");
    }

    #[test]
    fn settings_are_merged_with_gate_first() {
        let user = json!({"model":"x","hooks":{"PreToolUse":[{"matcher":"Bash","hooks":[]}]}});
        let m = merged_settings(Some(&user), "gate hook claude", 600);
        assert_eq!(m["model"], "x");
        assert_eq!(m["hooks"]["PreToolUse"][0]["hooks"][0]["command"], "gate hook claude");
        assert_eq!(m["hooks"]["PreToolUse"][1]["matcher"], "Bash");
    }

    #[test]
    fn glob_grep_and_ls_keep_their_fields_with_the_sessions_directory() {
        // (Red team 45: mapped to a `Read` of their base, a glob's braces through a link were
        // lost.)
        let c = to_call("Glob", &json!({"pattern":"{src,lnk}/*.conf"}), Path::new("/w"));
        assert_eq!(
            (c.tool.as_str(), &c.arguments["path"], &c.arguments["pattern"]),
            ("Glob", &json!("/w"), &json!("{src,lnk}/*.conf"))
        );
        let c = to_call("Grep", &json!({"pattern":"x","path":""}), Path::new("/w"));
        assert_eq!((c.tool.as_str(), &c.arguments["path"]), ("Grep", &json!("/w")));
        let c = to_call("LS", &json!({"path":"/etc"}), Path::new("/w"));
        assert_eq!((c.tool.as_str(), &c.arguments["path"]), ("LS", &json!("/etc")));
    }
}
