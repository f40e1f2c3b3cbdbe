//! A YAML document as a tree of nodes that know their line and column, so that validation can
//! report every error at once with file:line:column (serde stops at the first).

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_saphyr::Spanned;

#[derive(Clone, Debug)]
pub enum Node {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Str(String),
    Seq(Vec<SNode>),
    Map(Vec<(SNode, SNode)>),
}

/// A node and where it starts.
#[derive(Clone, Debug)]
pub struct SNode {
    pub node: Node,
    pub line: usize,
    pub column: usize,
}

impl SNode {
    pub fn as_str(&self) -> Option<&str> {
        match &self.node {
            Node::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A scalar as text (numbers and booleans included), for keys and patterns.
    pub fn scalar_text(&self) -> Option<String> {
        match &self.node {
            Node::Str(s) => Some(s.clone()),
            Node::Bool(b) => Some(b.to_string()),
            Node::Int(i) => Some(i.to_string()),
            Node::Float(f) => Some(f.to_string()),
            _ => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match &self.node {
            Node::Null => "nothing",
            Node::Bool(_) => "a boolean",
            Node::Int(_) | Node::Float(_) => "a number",
            Node::Str(_) => "a string",
            Node::Seq(_) => "a list",
            Node::Map(_) => "a mapping",
        }
    }
}

impl<'de> Deserialize<'de> for SNode {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s: Spanned<Node> = Spanned::deserialize(d)?;
        Ok(SNode { node: s.value, line: s.referenced.line() as usize, column: s.referenced.column() as usize })
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_none<E: de::Error>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        Node::deserialize(d)
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Node, E> {
        Ok(Node::Bool(v))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Node, E> {
        Ok(Node::Int(v))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Node, E> {
        Ok(i64::try_from(v).map(Node::Int).unwrap_or(Node::Float(v as f64)))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Node, E> {
        Ok(Node::Float(v))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Node, E> {
        Ok(Node::Str(v.to_string()))
    }
    fn visit_string<E: de::Error>(self, v: String) -> Result<Node, E> {
        Ok(Node::Str(v))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut out = Vec::new();
        while let Some(n) = seq.next_element::<SNode>()? {
            out.push(n);
        }
        Ok(Node::Seq(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut out = Vec::new();
        while let Some((k, v)) = map.next_entry::<SNode, SNode>()? {
            out.push((k, v));
        }
        Ok(Node::Map(out))
    }
}

/// Parse YAML text into a located tree. On a syntax error (duplicate keys included), returns
/// the message with its line and column.
pub fn parse(text: &str) -> Result<SNode, (usize, usize, String)> {
    match serde_saphyr::from_str::<SNode>(text) {
        Ok(n) => Ok(n),
        Err(e) => {
            let (line, col) = e.location().map(|l| (l.line() as usize, l.column() as usize)).unwrap_or((1, 1));
            let msg = e.to_string();
            // The library's message may carry a snippet after the first line; keep the gist.
            let mut first = msg.lines().next().unwrap_or("invalid YAML").trim().to_string();
            first = first.strip_prefix("error: ").unwrap_or(&first).to_string();
            // Drop a leading "line N column M: " (gate prints file:line:column itself).
            if first.starts_with("line ") {
                if let Some(i) = first.find(": ") {
                    first = first[i + 2..].to_string();
                }
            }
            if let Some(i) = first.find(", set DuplicateKeyPolicy") {
                first.truncate(i);
                first.push_str(" (each key may appear once)");
            }
            Err((line, col, first))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations() {
        let n = parse("version: 1\npermissions:\n  allow:\n    - Bash(ls)\n").unwrap();
        let Node::Map(m) = &n.node else { panic!() };
        let (k, v) = &m[1];
        assert_eq!(k.as_str(), Some("permissions"));
        assert_eq!(k.line, 2);
        let Node::Map(p) = &v.node else { panic!() };
        let Node::Seq(items) = &p[0].1.node else { panic!() };
        assert_eq!(items[0].line, 4);
        assert_eq!(items[0].column, 7);
    }

    #[test]
    fn duplicate_keys_rejected() {
        let e = parse("mode: default\nmode: plan\n").unwrap_err();
        assert_eq!(e.0, 2, "{e:?}");
    }

    #[test]
    fn empty_is_null() {
        assert!(matches!(parse("").map(|n| n.node), Ok(Node::Null) | Err(_)));
    }
}
