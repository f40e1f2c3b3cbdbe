//! gate's native wire protocol, version 1 (docs/protocol.md): what a line from the agent
//! means, and the bytes of every line gate sends back.
//!
//! Only translation between bytes and the neutral values of [`super`]: no I/O, no decisions,
//! no state. Everything is a pure function of its input, safe on hostile bytes.

use serde_json::{json, Map, Value};

use super::{
    message_for_model, strict, BatchItem, CallId, Decoder, Encoder, Incoming, IncomingCall, Resolution, Shown,
};
use crate::policy::Call;

/// Reads native protocol lines.
#[derive(Default)]
pub struct NativeDecoder;

impl Decoder for NativeDecoder {
    fn line(&mut self, line: &[u8]) -> (Shown, Incoming) {
        match parse_line(line) {
            Line::Passthrough => (Shown::Line, Incoming::Nothing),
            Line::Incoming(m @ Incoming::Malformed(_)) => (Shown::Line, m),
            Line::Incoming(i) => (Shown::Hidden, i),
        }
    }

    fn oversize(&mut self, head: &[u8], limit: usize) -> Option<Incoming> {
        let s = salvage(head);
        match s.kind.as_deref() {
            Some(t) if is_protocol_type(t) => {
                let id = if REQUEST_TYPES.contains(&t) { s.id.map(CallId::plain) } else { None };
                Some(Incoming::Bad {
                    id,
                    tool: s.tool,
                    error: format!("a {t} line longer than --max-line ({limit} bytes)"),
                })
            }
            _ => None,
        }
    }
}

/// Writes native protocol lines.
#[derive(Default)]
pub struct NativeEncoder;

impl Encoder for NativeEncoder {
    fn resolution(&mut self, id: &CallId, call: &Call, r: &Resolution) -> Vec<u8> {
        decision_line(&id.wire, &call.tool, r)
    }

    fn welcome(&mut self, mode: &Value, disabled_tools: &[String]) -> Option<Vec<u8>> {
        Some(welcome_line(mode, disabled_tools))
    }

    fn policy_changed(&mut self, disabled_tools: &[String]) -> Option<Vec<u8>> {
        Some(policy_changed_line(disabled_tools))
    }
}

/// The protocol version gate speaks.
pub const PROTOCOL_VERSION: u64 = 1;

/// One line from the agent's stdout, classified by the native protocol.
#[derive(Clone, Debug, PartialEq)]
#[allow(clippy::large_enum_variant)] // one value per line, never stored
pub enum Line {
    Incoming(Incoming),
    /// Not for gate: written to gate's stdout unchanged.
    Passthrough,
}

const REQUEST_TYPES: [&str; 2] = ["tool_request", "approval_needed"];
const PROTOCOL_TYPES: [&str; 5] = ["tool_request", "approval_needed", "hello", "skill", "turn_end"];

/// Is `t` the `type` of a line meant for gate?
pub fn is_protocol_type(t: &str) -> bool {
    PROTOCOL_TYPES.contains(&t)
}

/// Classify one line from the agent (without its `\n`). Only lines that start with `{` can be
/// protocol lines; the caller passes every other line through without calling this.
pub fn parse_line(line: &[u8]) -> Line {
    match plain_request(line) {
        Some(call) => Line::Incoming(Incoming::Call(call)),
        None => parse_general(line),
    }
}

/// [`parse_line`] without the shortcut for plain requests.
fn parse_general(line: &[u8]) -> Line {
    // One strict parse in the common case; only a line it refuses is parsed again to tell a
    // key given twice from text that is not JSON.
    let (parsed, strict_err) = match strict::parse(line) {
        Ok(v) => (Ok(v), None),
        Err(e) => (serde_json::from_slice::<Value>(line), Some(e)),
    };
    match parsed {
        Ok(Value::Object(map)) => {
            if let Some(e) = strict_err {
                // Valid JSON with a key given twice: refuse it if it is meant for gate.
                if let Some(Value::String(t)) = map.get("type").filter(|t| t.as_str().is_some_and(is_protocol_type)) {
                    let t = t.clone();
                    return Line::Incoming(Incoming::Bad {
                        id: if REQUEST_TYPES.contains(&t.as_str()) {
                            map.get("id").cloned().map(CallId::plain)
                        } else {
                            None
                        },
                        tool: map.get("tool").and_then(Value::as_str).map(str::to_string),
                        error: format!("a {t} line with {e}: gate will not guess which one the agent would use"),
                    });
                }
            }
            classify(map)
        }
        Ok(_) => Line::Passthrough,
        Err(e) => {
            // Not JSON. It is for gate only if it says so: a line whose top-level "type" is a
            // protocol type. Anything else is the agent's own output.
            let s = salvage(line);
            match s.kind.as_deref() {
                Some(t) if is_protocol_type(t) => Line::Incoming(Incoming::Bad {
                    id: if REQUEST_TYPES.contains(&t) { s.id.map(CallId::plain) } else { None },
                    tool: s.tool,
                    error: format!("a {t} line that is not valid JSON ({e})"),
                }),
                _ if looks_like_request(line) => {
                    Line::Incoming(Incoming::Malformed(format!("is not valid JSON ({e})")))
                }
                _ => Line::Passthrough,
            }
        }
    }
}

/// The common line, a well-formed request with no other keys, read without a map for the line
/// itself: what [`parse_request`] makes of it, or `None` for the general reading to take
/// (anything else, an error included, so every message about a bad line comes from one place).
fn plain_request(line: &[u8]) -> Option<IncomingCall> {
    let r = strict::request(line)?;
    if !REQUEST_TYPES.contains(&r.kind.as_str()) || r.tool.is_empty() {
        return None;
    }
    if !matches!(r.id, Value::String(_) | Value::Number(_)) {
        return None;
    }
    let arguments = normalize_arguments(r.arguments).ok()?;
    Some(IncomingCall {
        id: CallId::plain(r.id),
        call: Call { tool: r.tool, arguments, annotations: r.annotations.filter(|a| !a.is_null()) },
        batch_remaining: Vec::new(),
        report_only: false,
        agent_asks: false,
    })
}

fn classify(mut map: Map<String, Value>) -> Line {
    let kind = match map.get("type") {
        Some(Value::String(t)) if is_protocol_type(t) => t.clone(),
        _ => return Line::Passthrough,
    };
    Line::Incoming(match kind.as_str() {
        "tool_request" | "approval_needed" => parse_request(&kind, &mut map),
        "hello" => Incoming::Hello { protocol: map.get("protocol").and_then(Value::as_u64) },
        "skill" => match map.get("name") {
            Some(Value::String(name)) if !name.is_empty() => Incoming::Skill {
                name: name.clone(),
                active: map.get("active").and_then(Value::as_bool).unwrap_or(true),
            },
            _ => Incoming::Bad { id: None, tool: None, error: "a skill line without a \"name\" string".into() },
        },
        _ => Incoming::TurnEnd,
    })
}

fn parse_request(kind: &str, map: &mut Map<String, Value>) -> Incoming {
    let id = match map.remove("id") {
        Some(v @ Value::String(_)) | Some(v @ Value::Number(_)) => Some(v),
        _ => None,
    };
    let tool = match map.get("tool") {
        Some(Value::String(t)) if !t.is_empty() => Some(t.clone()),
        _ => None,
    };
    let (id, tool) = match (id, tool) {
        (Some(id), Some(tool)) => (id, tool),
        (id, tool) => {
            let missing = match (&id, &tool) {
                (None, None) => "an \"id\" (string or number) and a \"tool\" (string)",
                (None, Some(_)) => "an \"id\" (string or number)",
                _ => "a \"tool\" (non-empty string)",
            };
            return Incoming::Bad {
                id: id.map(CallId::plain),
                tool,
                error: format!("a {kind} line without {missing}"),
            };
        }
    };
    let arguments = match normalize_arguments(map.remove("arguments")) {
        Ok(a) => a,
        Err(e) => return Incoming::Bad { id: Some(CallId::plain(id)), tool: Some(tool), error: e },
    };
    let annotations = map.remove("annotations").filter(|a| !a.is_null());
    let batch_remaining = match map.remove("batch_remaining") {
        Some(Value::Array(items)) => items
            .into_iter()
            .filter_map(|item| match item {
                Value::Object(mut m) => {
                    let tool = m.get("tool").and_then(Value::as_str)?.to_string();
                    let arguments = normalize_arguments(m.remove("arguments")).unwrap_or(Value::Null);
                    Some(BatchItem { tool, arguments })
                }
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    Incoming::Call(IncomingCall {
        id: CallId::plain(id),
        call: Call { tool, arguments, annotations },
        batch_remaining,
        report_only: false,
        agent_asks: false,
    })
}

/// Arguments are a JSON object. Missing or null means `{}`; a string holding a JSON object (as
/// some agents send them) is decoded; anything else is an error.
fn normalize_arguments(v: Option<Value>) -> Result<Value, String> {
    match v {
        None | Some(Value::Null) => Ok(Value::Object(Map::new())),
        Some(v @ Value::Object(_)) => Ok(v),
        Some(Value::String(s)) => match strict::parse(s.as_bytes()) {
            Ok(v @ Value::Object(_)) => Ok(v),
            _ => Err("\"arguments\" is a string that does not hold a JSON object".into()),
        },
        Some(_) => Err("\"arguments\" is not a JSON object".into()),
    }
}

/// Does text that is not JSON look like a tool request (a hand-written or JavaScript-style
/// object naming a request type)?
fn looks_like_request(line: &[u8]) -> bool {
    REQUEST_TYPES.iter().any(|t| memchr::memmem::find(line, t.as_bytes()).is_some())
}

/// What could be read from a line that is not valid JSON (or was cut at the line limit).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Salvaged {
    /// The top-level `"type"` string.
    pub kind: Option<String>,
    /// The top-level `"id"`, a string or a number.
    pub id: Option<Value>,
    /// The top-level `"tool"` string.
    pub tool: Option<String>,
}

/// Read the top-level `type`, `id` and `tool` of a JSON object that may be broken or truncated,
/// without trusting anything after the point where it breaks. Linear in the input.
pub fn salvage(bytes: &[u8]) -> Salvaged {
    let mut out = Salvaged::default();
    let mut depth: usize = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let Some(end) = string_end(bytes, i) else { break };
                if depth == 1 {
                    let mut j = skip_ws(bytes, end);
                    if bytes.get(j) == Some(&b':') {
                        j = skip_ws(bytes, j + 1);
                        let key = &bytes[i + 1..end - 1];
                        if key == b"type" || key == b"id" || key == b"tool" {
                            match bytes.get(j) {
                                Some(b'"') => {
                                    let Some(vend) = string_end(bytes, j) else { break };
                                    if let Ok(s) = serde_json::from_slice::<String>(&bytes[j..vend]) {
                                        match key {
                                            b"type" => out.kind = out.kind.take().or(Some(s)),
                                            b"id" => out.id = out.id.take().or(Some(Value::String(s))),
                                            _ => out.tool = out.tool.take().or(Some(s)),
                                        }
                                    }
                                    i = vend;
                                    continue;
                                }
                                Some(c) if key == b"id" && (c.is_ascii_digit() || *c == b'-') => {
                                    let mut k = j;
                                    while k < bytes.len()
                                        && matches!(bytes[k], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                                    {
                                        k += 1;
                                    }
                                    // A number cut by the end of the input is not trusted.
                                    if k < bytes.len() {
                                        if let Ok(n) = serde_json::from_slice::<serde_json::Number>(&bytes[j..k]) {
                                            out.id = out.id.take().or(Some(Value::Number(n)));
                                        }
                                    }
                                    i = k;
                                    continue;
                                }
                                _ => {}
                            }
                        }
                    }
                }
                i = end;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    out
}

/// Index just past the closing quote of the string that opens at `start`, or `None` if the
/// input ends first.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'\r' | b'\n') {
        i += 1;
    }
    i
}

/// A `decision` line, `\n`-terminated, with its fields in the order of SPEC section 2.
pub fn decision_line(id: &Value, tool: &str, o: &Resolution) -> Vec<u8> {
    // Written field by field: no value is copied into a `Value` first (one line per call).
    let mut l = ObjectLine::default();
    l.field("type", "decision");
    l.field("id", id);
    l.field("approved", &o.approved);
    if o.approved {
        l.field("scope", o.scope.as_str());
        l.field("source", o.source());
        l.field("rule", &o.rule());
        if !o.reason.is_empty() {
            l.field("reason", &o.reason);
        }
    } else {
        l.field("mode", o.mode_str());
        l.field("source", o.source());
        l.field("rule", &o.rule());
        l.field("reason", &o.reason);
        l.field("feedback", &o.feedback);
        l.field("message", &message_for_model(tool, o));
    }
    l.end()
}

/// A JSON object line written a field at a time, keys in the order written.
struct ObjectLine(Vec<u8>);

impl Default for ObjectLine {
    fn default() -> Self {
        let mut out = Vec::with_capacity(256);
        out.push(b'{');
        ObjectLine(out)
    }
}

impl ObjectLine {
    fn field<T: serde::Serialize + ?Sized>(&mut self, key: &str, value: &T) {
        if self.0.len() > 1 {
            self.0.push(b',');
        }
        // Strings, numbers, booleans and Values always serialize.
        let _ = serde_json::to_writer(&mut self.0, key);
        self.0.push(b':');
        let _ = serde_json::to_writer(&mut self.0, value);
    }

    fn end(mut self) -> Vec<u8> {
        self.0.extend_from_slice(b"}\n");
        self.0
    }
}

/// One JSON object line with its keys in the given order.
pub(crate) fn ordered_line(fields: &[(&str, Value)]) -> Vec<u8> {
    let mut out = Vec::with_capacity(256);
    out.push(b'{');
    for (i, (k, v)) in fields.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        // Strings and Values always serialize.
        let _ = serde_json::to_writer(&mut out, k);
        out.push(b':');
        let _ = serde_json::to_writer(&mut out, v);
    }
    out.extend_from_slice(b"}\n");
    out
}

/// The `welcome` line that answers `hello`.
pub fn welcome_line(mode: &Value, disabled_tools: &[String]) -> Vec<u8> {
    ordered_line(&[
        ("type", json!("welcome")),
        ("protocol", json!(PROTOCOL_VERSION)),
        ("mode", mode.clone()),
        ("disabled_tools", json!(disabled_tools)),
    ])
}

/// The `policy_changed` line sent after host.yaml was reloaded.
pub fn policy_changed_line(disabled_tools: &[String]) -> Vec<u8> {
    ordered_line(&[("type", json!("policy_changed")), ("disabled_tools", json!(disabled_tools))])
}

/// `{"type":"input_closed"}`: gate's own stdin ended.
pub fn input_closed_line() -> Vec<u8> {
    b"{\"type\":\"input_closed\"}\n".to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::policy::{Decision, Layer, Verdict};

    /// The shortcut for plain requests reads every line it takes exactly as the general
    /// reading does (and leaves every other line to it).
    mod shortcut {
        use super::super::{parse_general, plain_request, Line};
        use crate::protocol::Incoming;
        use proptest::prelude::*;

        fn value() -> impl Strategy<Value = String> {
            prop_oneof![
                Just("null".to_string()),
                Just("1".to_string()),
                Just("-2.5".to_string()),
                Just("\"x\"".to_string()),
                Just("\"\"".to_string()),
                Just("\"tool_request\"".to_string()),
                Just("\"approval_needed\"".to_string()),
                Just("\"hello\"".to_string()),
                Just("\"bash\"".to_string()),
                Just("{}".to_string()),
                Just("[]".to_string()),
                Just("{\"command\":\"ls\"}".to_string()),
                Just("{\"command\":\"rm x\",\"command\":\"ls\"}".to_string()),
                Just("\"{\\\"command\\\":\\\"ls\\\"}\"".to_string()),
                Just("{\"a\":[1,{\"b\":null}]}".to_string()),
            ]
        }

        fn key() -> impl Strategy<Value = String> {
            prop_oneof![
                Just("type"),
                Just("id"),
                Just("tool"),
                Just("arguments"),
                Just("annotations"),
                Just("batch_remaining"),
                Just("other"),
                Just("t\\u0079pe"),
            ]
            .prop_map(str::to_string)
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
            #[test]
            fn a_line_the_shortcut_takes_means_what_it_means_to_the_general_reading(
                fields in prop::collection::vec((key(), value()), 0..5),
                base in prop::bool::ANY,
                tail in prop_oneof![Just(""), Just(""), Just(" "), Just("x"), Just("}")],
            ) {
                // Half the lines start as a plain request, so that the shortcut takes many.
                let start = [("type", "\"tool_request\""), ("id", "7"), ("tool", "\"bash\"")];
                let start = if base { &start[..] } else { &[] };
                let body: Vec<String> = start
                    .iter()
                    .map(|(k, v)| format!("\"{k}\":{v}"))
                    .chain(fields.iter().map(|(k, v)| format!("\"{k}\":{v}")))
                    .collect();
                let line = format!("{{{}}}{tail}", body.join(","));
                if let Some(call) = plain_request(line.as_bytes()) {
                    prop_assert_eq!(parse_general(line.as_bytes()), Line::Incoming(Incoming::Call(call)), "{}", line);
                }
            }
        }

        #[test]
        fn the_shortcut_takes_the_common_line() {
            let line = br#"{"type":"tool_request","id":"c1","tool":"bash","arguments":{"command":"ls"}}"#;
            assert!(plain_request(line).is_some());
            let twice = br#"{"type":"tool_request","id":"c1","tool":"bash","tool":"x","arguments":{}}"#;
            assert!(plain_request(twice).is_none());
        }
    }

    fn incoming(line: &[u8]) -> Incoming {
        match parse_line(line) {
            Line::Incoming(i) => i,
            Line::Passthrough => Incoming::Nothing,
        }
    }

    fn user_reject(reason: &str) -> Resolution {
        let mut r = Resolution::from_policy(Decision::new(Verdict::Ask, Layer::Mode, None, "asked"));
        r.by = crate::protocol::By::Person;
        r.reason = reason.into();
        r
    }

    #[test]
    fn request_and_synonym() {
        for t in ["tool_request", "approval_needed"] {
            let line = format!(r#"{{"type":"{t}","id":"c1","tool":"bash","arguments":{{"command":"ls"}}}}"#);
            match incoming(line.as_bytes()) {
                Incoming::Call(r) => {
                    assert_eq!(r.id.wire, json!("c1"));
                    assert_eq!(r.call.tool, "bash");
                    assert_eq!(r.call.arguments, json!({"command":"ls"}));
                }
                other => panic!("{other:?}"),
            }
        }
    }

    #[test]
    fn string_arguments_are_decoded() {
        let line = br#"{"type":"tool_request","id":1,"tool":"write","arguments":"{\"file_path\":\"a\"}"}"#;
        match incoming(line) {
            Incoming::Call(r) => {
                assert_eq!(r.id.wire, json!(1));
                assert_eq!(r.id.key, "1");
                assert_eq!(r.call.arguments, json!({"file_path":"a"}));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn missing_fields_are_bad() {
        assert!(matches!(incoming(br#"{"type":"tool_request","tool":"bash"}"#), Incoming::Bad { id: None, .. }));
        match incoming(br#"{"type":"tool_request","id":"x"}"#) {
            Incoming::Bad { id: Some(id), .. } => assert_eq!(id.wire, json!("x")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn other_json_passes_through() {
        assert_eq!(parse_line(br#"{"type":"result","x":1}"#), Line::Passthrough);
        assert_eq!(parse_line(br#"{"no_type":true}"#), Line::Passthrough);
        assert_eq!(parse_line(b"{not json at all"), Line::Passthrough);
    }

    #[test]
    fn broken_request_is_salvaged() {
        match incoming(br#"{"type":"tool_request","id":"c9","tool":"bash","arguments":{"command":"#) {
            Incoming::Bad { id: Some(id), tool, .. } => {
                assert_eq!(id.wire, json!("c9"));
                assert_eq!(tool.as_deref(), Some("bash"));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn salvage_ignores_nested_keys() {
        let s = salvage(br#"{"arguments":{"id":"inner","type":"tool_request"},"type":"x","id":"outer""#);
        assert_eq!(s.kind.as_deref(), Some("x"));
        assert_eq!(s.id, Some(json!("outer")));
        let s = salvage(br#"{"id":12,"type":"tool_request""#);
        assert_eq!(s.id, Some(json!(12)));
        // A number cut by the end of the input is not trusted.
        assert_eq!(salvage(br#"{"type":"tool_request","id":12"#).id, None);
    }

    #[test]
    fn messages_follow_seed_002() {
        let mut o = user_reject("rejected by the user");
        o.feedback = Some("use pnpm".into());
        let m = message_for_model("write", &o);
        assert!(m.starts_with("User rejected tool 'write'. Feedback: use pnpm\n\n[System reminder:"), "{m}");
        assert!(m.contains("Ask the user how to proceed"));
        o.hard = true;
        assert!(message_for_model("write", &o).contains("stopped the batch"));
    }

    #[test]
    fn decision_lines_are_single_lines() {
        let mut o = user_reject("no\nway");
        o.feedback = Some("line1\nline2".into());
        let line = decision_line(&json!("c1"), "bash", &o);
        assert_eq!(line.iter().filter(|&&b| b == b'\n').count(), 1);
        let v: Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(v["mode"], "reject_soft");
        assert_eq!(v["approved"], false);
        assert_eq!(v["source"], "user");
    }
}
