//! Mock of the OpenAI Responses API, for Codex and codex-acp (a `wire_api = "responses"`
//! provider whose base URL is `<url>/v1`, see `codex_config`).
//!
//! - `POST /v1/responses`: when the request offers tools and the script has a step due, the
//!   step's calls as output items (call ids `call_<step>_<i>`); otherwise an assistant message
//!   "done.". Always SSE: `response.created`, one `response.output_item.done` per item,
//!   `response.completed`.
//! - `GET /v1/models`: an empty list.
//! - anything else: 404.
//!
//! Tool results counted: input items `function_call_output` and `custom_tool_call_output`.
//! Script calls, mapped onto the tools the request offers:
//! - `shell` with `{"command": "echo hi"}`: a `function_call` to `exec_command` `{"cmd": ..}`
//!   (what 0.169 offers), else `shell_command` `{"command": ..}`, else `shell`
//!   `{"command": ["bash", "-lc", ..]}`;
//! - `apply_patch` with `{"input": "*** Begin Patch ..."}`: a `custom_tool_call` when offered as
//!   a custom tool, else a `function_call`;
//! - any other name: a `function_call` with `args` as its arguments.

use std::collections::HashMap;

use serde_json::{json, Value};

use super::mock::{content_text, not_found, path_only, sse_event, Api, Mock, Reply, Step, ToolCall, ToolResult};

pub struct Responses;

/// Starts the mock with `script` (see module docs).
pub fn start(script: Vec<Step>) -> Mock {
    Mock::start(Responses, script)
}

/// The script call `shell {"command": cmd}`.
pub fn shell(cmd: &str) -> ToolCall {
    super::mock::call("shell", json!({ "command": cmd }))
}

/// The script call `apply_patch {"input": patch}`.
pub fn patch(patch: &str) -> ToolCall {
    super::mock::call("apply_patch", json!({ "input": patch }))
}

fn item(call: &ToolCall, call_id: String, tools: &HashMap<String, String>) -> Value {
    let function = |name: &str, args: &Value| json!({"type": "function_call", "call_id": call_id, "name": name, "arguments": args.to_string()});
    match call.name.as_str() {
        "shell" => {
            let cmd = call.args["command"].as_str().unwrap_or_default();
            if tools.contains_key("exec_command") {
                function("exec_command", &json!({ "cmd": cmd }))
            } else if tools.contains_key("shell_command") {
                function("shell_command", &json!({ "command": cmd }))
            } else {
                function("shell", &json!({"command": ["bash", "-lc", cmd]}))
            }
        }
        "apply_patch" if tools.get("apply_patch").is_some_and(|t| t == "custom") => json!({
            "type": "custom_tool_call", "call_id": call_id, "name": "apply_patch",
            "input": call.args["input"]}),
        name => function(name, &call.args),
    }
}

impl Api for Responses {
    fn tool_results(&self, body: &Value) -> Vec<ToolResult> {
        body["input"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|i| i["type"].as_str().is_some_and(|t| t.ends_with("call_output")))
            .map(|i| ToolResult {
                id: i["call_id"].as_str().unwrap_or_default().to_string(),
                content: content_text(&i["output"]),
                is_error: None,
            })
            .collect()
    }

    fn reply(&self, method: &str, path: &str, body: &Value, next: Option<(usize, &Step)>) -> (Reply, Option<usize>) {
        let p = path_only(path).trim_end_matches('/');
        if method == "GET" && p.ends_with("/models") {
            return (Reply::Json(200, json!({"object": "list", "data": [], "models": []})), None);
        }
        if method != "POST" || !p.ends_with("/responses") {
            return (not_found(path), None);
        }
        let tools: HashMap<String, String> = body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|t| {
                let kind = t["type"].as_str()?.to_string();
                Some((t["name"].as_str().map_or_else(|| kind.clone(), str::to_string), kind))
            })
            .collect();
        let (items, sent) = match next {
            Some((k, step)) if !tools.is_empty() => {
                (step.iter().enumerate().map(|(i, c)| item(c, format!("call_{k}_{i}"), &tools)).collect(), Some(k))
            }
            _ => (
                vec![json!({"type": "message", "role": "assistant", "id": "msg_mock_done", "status": "completed",
                    "content": [{"type": "output_text", "text": "done.", "annotations": []}]})],
                None,
            ),
        };
        let id = format!("resp_mock{}", sent.map_or("done".to_string(), |k| k.to_string()));
        let mut s = sse_event(Some("response.created"), &json!({"type": "response.created", "response": {"id": id}}));
        for it in items {
            s += &sse_event(
                Some("response.output_item.done"),
                &json!({"type": "response.output_item.done", "item": it}),
            );
        }
        s += &sse_event(
            Some("response.completed"),
            &json!({"type": "response.completed", "response": {"id": id, "usage": {
                "input_tokens": 10, "input_tokens_details": null, "output_tokens": 5,
                "output_tokens_details": null, "total_tokens": 15}}}),
        );
        (Reply::Sse(s), sent)
    }
}
