//! JSON that is read one way only: an object with the same key twice is an error. serde_json
//! keeps the last `"command"` of `{"command":"rm x","command":"ls"}`; an agent's parser might
//! keep the first, so gate would decide one command and the agent run another. Fail closed.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

pub(crate) struct Strict(pub(crate) Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(StrictVisitor).map(Strict)
    }
}

struct StrictVisitor;

impl<'de> Visitor<'de> for StrictVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("JSON")
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
        Ok(Value::from(v))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Ok(serde_json::Number::from_f64(v).map(Value::Number).unwrap_or(Value::Null))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut v = Vec::new();
        while let Some(Strict(x)) = seq.next_element()? {
            v.push(x);
        }
        Ok(Value::Array(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Value, A::Error> {
        let mut out = Map::new();
        while let Some(k) = m.next_key::<String>()? {
            let Strict(v) = m.next_value()?;
            match out.entry(k) {
                serde_json::map::Entry::Occupied(e) => {
                    return Err(de::Error::custom(format!("duplicate key `{}`", e.key())));
                }
                serde_json::map::Entry::Vacant(e) => {
                    e.insert(v);
                }
            }
        }
        Ok(Value::Object(out))
    }
}

/// Parse JSON, refusing objects that name a key twice (at any depth).
pub fn parse(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    serde_json::from_slice::<Strict>(bytes).map(|s| s.0)
}

/// The top-level fields of a native request line with nothing else in it, each key once:
/// read without building a map for the line itself ([`request`]).
#[derive(Default)]
pub(crate) struct Request {
    pub kind: String,
    pub id: Value,
    pub tool: String,
    pub arguments: Option<Value>,
    pub annotations: Option<Value>,
}

impl<'de> Deserialize<'de> for Request {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(RequestVisitor)
    }
}

struct RequestVisitor;

impl<'de> Visitor<'de> for RequestVisitor {
    type Value = Request;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a request object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Request, A::Error> {
        let mut r = Request::default();
        let mut seen = [false; 5];
        while let Some(k) = m.next_key::<std::borrow::Cow<'de, str>>()? {
            let slot = match k.as_ref() {
                "type" => 0,
                "id" => 1,
                "tool" => 2,
                "arguments" => 3,
                "annotations" => 4,
                // Anything else: the general reading decides what it means.
                _ => return Err(de::Error::custom("another key")),
            };
            if std::mem::replace(&mut seen[slot], true) {
                return Err(de::Error::custom("a key given twice"));
            }
            match slot {
                0 => r.kind = m.next_value()?,
                1 => r.id = m.next_value::<Strict>()?.0,
                2 => r.tool = m.next_value()?,
                3 => r.arguments = Some(m.next_value::<Strict>()?.0),
                _ => r.annotations = Some(m.next_value::<Strict>()?.0),
            }
        }
        if !(seen[0] && seen[1] && seen[2]) {
            return Err(de::Error::custom("a key missing"));
        }
        Ok(r)
    }
}

/// A line that is exactly a request object ([`Request`]); `None` for every other line, which
/// the general reading ([`parse`]) then takes as it always did.
pub(crate) fn request(bytes: &[u8]) -> Option<Request> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let r = Request::deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(r)
}

#[cfg(test)]
mod tests {
    #[test]
    fn duplicates_are_refused_at_any_depth() {
        assert!(super::parse(br#"{"a":1,"b":{"c":[1,{"d":2}]}}"#).is_ok());
        assert!(super::parse(br#"{"command":"rm x","command":"ls"}"#).is_err());
        assert!(super::parse(br#"{"arguments":{"command":"rm x","command":"ls"}}"#).is_err());
        assert!(super::parse(br#"[{"a":1,"a":1}]"#).is_err());
    }
}
