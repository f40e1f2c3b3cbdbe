//! Mock of the Anthropic Messages API, for Claude Code (`ANTHROPIC_BASE_URL`).
//!
//! - `POST /v1/messages` (any query): when the request offers tools and the script has a step
//!   due, one assistant message with a text block and the step's `tool_use` blocks
//!   (`stop_reason: tool_use`, ids `toolu_mock<step>_<i>`); otherwise the text "done."
//!   (`end_turn`). Streams SSE when the body has `"stream": true`, else one JSON message.
//! - `POST /v1/messages/count_tokens`: `{"input_tokens": 42}`.
//! - anything else: 404.
//!
//! Tool results counted: `tool_result` blocks in user messages. Script calls: `name` is the
//! tool (`Bash`, `Write`, ...), `args` its input (`{"command": "echo hi"}`).

use serde_json::{json, Value};

use super::mock::{content_text, not_found, path_only, sse_event, Api, Mock, Reply, Step, ToolResult};

pub struct Anthropic;

/// Starts the mock with `script` (see module docs).
pub fn start(script: Vec<Step>) -> Mock {
    Mock::start(Anthropic, script)
}

impl Api for Anthropic {
    fn tool_results(&self, body: &Value) -> Vec<ToolResult> {
        let mut out = Vec::new();
        for m in body["messages"].as_array().into_iter().flatten() {
            if m["role"] != "user" {
                continue;
            }
            for b in m["content"].as_array().into_iter().flatten() {
                if b["type"] == "tool_result" {
                    out.push(ToolResult {
                        id: b["tool_use_id"].as_str().unwrap_or_default().to_string(),
                        content: content_text(&b["content"]),
                        is_error: b["is_error"].as_bool(),
                    });
                }
            }
        }
        out
    }

    fn reply(&self, method: &str, path: &str, body: &Value, next: Option<(usize, &Step)>) -> (Reply, Option<usize>) {
        let p = path_only(path);
        if method != "POST" {
            return (not_found(path), None);
        }
        if p.ends_with("/v1/messages/count_tokens") {
            return (Reply::Json(200, json!({"input_tokens": 42})), None);
        }
        if !p.ends_with("/v1/messages") {
            return (not_found(path), None);
        }
        let offers_tools = body["tools"].as_array().is_some_and(|t| !t.is_empty());
        let (blocks, stop, sent) = match next {
            Some((k, step)) if offers_tools => {
                let mut blocks = vec![json!({"type": "text", "text": format!("Step {}.", k + 1)})];
                for (i, c) in step.iter().enumerate() {
                    blocks.push(json!({"type": "tool_use", "id": format!("toolu_mock{k}_{i}"),
                                       "name": c.name, "input": c.args}));
                }
                (blocks, "tool_use", Some(k))
            }
            _ => (vec![json!({"type": "text", "text": "done."})], "end_turn", None),
        };
        let model = body["model"].as_str().unwrap_or("claude-mock");
        let id = format!("msg_mock{}", sent.map_or("done".to_string(), |k| k.to_string()));
        let usage = json!({"input_tokens": 10, "output_tokens": 5,
                           "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0});
        if body["stream"] != true {
            let msg = json!({"id": id, "type": "message", "role": "assistant", "model": model,
                "content": blocks, "stop_reason": stop, "stop_sequence": null, "usage": usage});
            return (Reply::Json(200, msg), sent);
        }
        let mut s = sse_event(
            Some("message_start"),
            &json!({"type": "message_start", "message": {"id": id, "type": "message",
                "role": "assistant", "model": model, "content": [], "stop_reason": null,
                "stop_sequence": null, "usage": usage}}),
        );
        for (i, b) in blocks.iter().enumerate() {
            let (start, delta) = if b["type"] == "text" {
                (json!({"type": "text", "text": ""}), json!({"type": "text_delta", "text": b["text"]}))
            } else {
                (
                    json!({"type": "tool_use", "id": b["id"], "name": b["name"], "input": {}}),
                    json!({"type": "input_json_delta", "partial_json": b["input"].to_string()}),
                )
            };
            s += &sse_event(
                Some("content_block_start"),
                &json!({"type": "content_block_start", "index": i, "content_block": start}),
            );
            s += &sse_event(
                Some("content_block_delta"),
                &json!({"type": "content_block_delta", "index": i, "delta": delta}),
            );
            s += &sse_event(Some("content_block_stop"), &json!({"type": "content_block_stop", "index": i}));
        }
        s += &sse_event(
            Some("message_delta"),
            &json!({"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": null},
                    "usage": {"output_tokens": 5}}),
        );
        s += &sse_event(Some("message_stop"), &json!({"type": "message_stop"}));
        (Reply::Sse(s), sent)
    }
}
