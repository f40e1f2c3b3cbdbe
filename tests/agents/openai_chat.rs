//! Mock of the OpenAI Chat Completions API, for pi (`api: "openai-completions"`) and opencode
//! (`@ai-sdk/openai-compatible`); their base URL is `<url>/v1`.
//!
//! - `POST /v1/chat/completions`: when the request offers tools and the script has a step due,
//!   the step's calls as `tool_calls` (ids `call_<step>_<i>`, `finish_reason: tool_calls`);
//!   otherwise the text "done." (`stop`). Streams `chat.completion.chunk`s as SSE ending in
//!   `data: [DONE]` when `"stream": true`, else one `chat.completion`.
//! - `GET /v1/models`: one model, `mock-model`.
//! - anything else: 404.
//!
//! Tool results counted: `role: "tool"` messages. Script calls: `name` is the function
//! (`bash`, `read`, ...), `args` its arguments object (sent as a JSON string).

use serde_json::{json, Value};

use super::mock::{content_text, not_found, path_only, sse_event, Api, Mock, Reply, Step, ToolResult};

pub struct OpenAiChat;

/// Starts the mock with `script` (see module docs).
pub fn start(script: Vec<Step>) -> Mock {
    Mock::start(OpenAiChat, script)
}

fn chunk(delta: Value, finish: Option<&str>) -> Value {
    json!({"id": "chatcmpl-mock", "object": "chat.completion.chunk", "created": 1_700_000_000,
           "model": "mock-model", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})
}

impl Api for OpenAiChat {
    fn tool_results(&self, body: &Value) -> Vec<ToolResult> {
        body["messages"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|m| m["role"] == "tool")
            .map(|m| ToolResult {
                id: m["tool_call_id"].as_str().unwrap_or_default().to_string(),
                content: content_text(&m["content"]),
                is_error: None,
            })
            .collect()
    }

    fn reply(&self, method: &str, path: &str, body: &Value, next: Option<(usize, &Step)>) -> (Reply, Option<usize>) {
        let p = path_only(path);
        if method == "GET" && p.ends_with("/models") {
            return (
                Reply::Json(200, json!({"object": "list", "data": [{"id": "mock-model", "object": "model"}]})),
                None,
            );
        }
        if method != "POST" || !p.ends_with("/chat/completions") {
            return (not_found(path), None);
        }
        let offers_tools = body["tools"].as_array().is_some_and(|t| !t.is_empty());
        let calls: Option<(usize, Vec<Value>)> = match next {
            Some((k, step)) if offers_tools => Some((
                k,
                step.iter()
                    .enumerate()
                    .map(|(i, c)| {
                        json!({"index": i, "id": format!("call_{k}_{i}"), "type": "function",
                               "function": {"name": c.name, "arguments": c.args.to_string()}})
                    })
                    .collect(),
            )),
            _ => None,
        };
        let sent = calls.as_ref().map(|c| c.0);
        let usage = json!({"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15});
        if body["stream"] != true {
            let (message, finish) = match calls {
                Some((_, calls)) => (json!({"role": "assistant", "content": null, "tool_calls": calls}), "tool_calls"),
                None => (json!({"role": "assistant", "content": "done."}), "stop"),
            };
            let v = json!({"id": "chatcmpl-mock", "object": "chat.completion", "created": 1_700_000_000,
                "model": "mock-model", "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                "usage": usage});
            return (Reply::Json(200, v), sent);
        }
        let mut chunks = vec![chunk(json!({"role": "assistant", "content": ""}), None)];
        match calls {
            Some((_, calls)) => {
                for c in calls {
                    chunks.push(chunk(json!({"tool_calls": [c]}), None));
                }
                chunks.push(chunk(json!({}), Some("tool_calls")));
            }
            None => {
                chunks.push(chunk(json!({"content": "done."}), None));
                chunks.push(chunk(json!({}), Some("stop")));
            }
        }
        chunks.last_mut().unwrap()["usage"] = usage;
        let mut s: String = chunks.iter().map(|c| sse_event(None, c)).collect();
        s += "data: [DONE]\n\n";
        (Reply::Sse(s), sent)
    }
}
