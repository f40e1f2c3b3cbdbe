//! Mock of Google's Generative Language API (v1beta), for Gemini CLI (`GOOGLE_GEMINI_BASE_URL`).
//!
//! - `POST .../models/<m>:streamGenerateContent?alt=sse` and `:generateContent`: when every
//!   call of the due step names a tool the request declares (`functionDeclarations`), one
//!   candidate with the step's `functionCall` parts (ids `call_<step>_<i>`); a side query asking
//!   for JSON (`generationConfig.responseMimeType: application/json`: the CLI's router and
//!   next-speaker checks) gets a JSON text that satisfies them; anything else the text "done.".
//!   The streaming form is one SSE event.
//! - `POST ...:countTokens`: `{"totalTokens": 10}`.
//! - anything else: 404.
//!
//! Tool results counted: `functionResponse` parts. Script calls: `name` is the tool
//! (`run_shell_command`, `write_file`, ...), `args` its arguments.

use serde_json::{json, Value};

use super::mock::{not_found, path_only, Api, Mock, Reply, Step, ToolResult};

pub struct Gemini;

/// Starts the mock with `script` (see module docs).
pub fn start(script: Vec<Step>) -> Mock {
    Mock::start(Gemini, script)
}

impl Api for Gemini {
    fn tool_results(&self, body: &Value) -> Vec<ToolResult> {
        let mut out = Vec::new();
        for c in body["contents"].as_array().into_iter().flatten() {
            for p in c["parts"].as_array().into_iter().flatten() {
                let fr = &p["functionResponse"];
                if fr.is_object() {
                    let id = fr["id"].as_str().or(fr["name"].as_str()).unwrap_or_default();
                    let content = match &fr["response"] {
                        Value::Object(o) if o.len() == 1 && o.contains_key("output") => {
                            o["output"].as_str().map_or_else(|| o["output"].to_string(), str::to_string)
                        }
                        other => other.to_string(),
                    };
                    let is_error = fr["response"].get("error").map(|_| true);
                    out.push(ToolResult { id: id.to_string(), content, is_error });
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
        if p.ends_with(":countTokens") {
            return (Reply::Json(200, json!({"totalTokens": 10})), None);
        }
        let stream = p.ends_with(":streamGenerateContent");
        if !stream && !p.ends_with(":generateContent") {
            return (not_found(path), None);
        }
        let declared: Vec<&str> = body["tools"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|t| t["functionDeclarations"].as_array().into_iter().flatten())
            .filter_map(|d| d["name"].as_str())
            .collect();
        let wants_json = body["generationConfig"]["responseMimeType"] == "application/json";
        let (parts, sent) = match next {
            Some((k, step)) if !wants_json && step.iter().all(|c| declared.contains(&c.name.as_str())) => (
                step.iter()
                    .enumerate()
                    .map(|(i, c)| json!({"functionCall": {"name": c.name, "args": c.args, "id": format!("call_{k}_{i}")}}))
                    .collect(),
                Some(k),
            ),
            _ if wants_json => (
                vec![json!({"text": json!({"reasoning": "mock", "next_speaker": "user", "model_choice": "flash",
                    "complexity_reasoning": "mock", "complexity_score": 1}).to_string()})],
                None,
            ),
            _ => (vec![json!({"text": "done."})], None),
        };
        let resp = json!({"candidates": [{"content": {"role": "model", "parts": parts},
                "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15},
            "modelVersion": "gemini-mock"});
        if stream {
            (Reply::Sse(format!("data: {resp}\r\n\r\n")), sent)
        } else {
            (Reply::Json(200, resp), sent)
        }
    }
}
