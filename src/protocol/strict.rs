//! JSON that is read one way only: an object with the same key twice is an error. serde_json
//! keeps the last `"command"` of `{"command":"rm x","command":"ls"}`; an agent's parser might
//! keep the first, so gate would decide one command and the agent run another. Fail closed.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};

struct Strict(Value);

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
            if out.contains_key(&k) {
                return Err(de::Error::custom(format!("duplicate key `{k}`")));
            }
            out.insert(k, v);
        }
        Ok(Value::Object(out))
    }
}

/// Parse JSON, refusing objects that name a key twice (at any depth).
pub fn parse(bytes: &[u8]) -> Result<Value, serde_json::Error> {
    serde_json::from_slice::<Strict>(bytes).map(|s| s.0)
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
