//! The audit log: one JSON line per decision, appended to `--audit PATH` (or `audit:` in
//! host.yaml). A record is written before the decision is sent; when it cannot be written the
//! supervisor denies the call instead (fail closed). This module only formats and appends: it
//! must not decide or change an outcome itself.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use crate::protocol::{CallId, Resolution};

pub struct Audit {
    file: File,
    path: PathBuf,
}

impl Audit {
    /// Open for appending, creating the file if needed.
    pub fn open(path: &Path) -> io::Result<Audit> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        Ok(Audit { file, path: path.to_path_buf() })
    }

    /// The log was deleted or replaced under gate (rotated, removed by hand): write to the path
    /// again rather than to a file nobody can read, and say so.
    fn reopen_if_gone(&mut self) -> io::Result<()> {
        use std::os::unix::fs::MetadataExt;
        let open = self.file.metadata()?;
        let same = match std::fs::metadata(&self.path) {
            Ok(m) => m.dev() == open.dev() && m.ino() == open.ino(),
            Err(_) => false,
        };
        if !same {
            self.file = OpenOptions::new().create(true).append(true).open(&self.path)?;
            eprintln!(
                "gate: the audit log {} was removed or replaced; writing to a new one there",
                self.path.display()
            );
        }
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Append one record. The line is written with a single write on an O_APPEND file, so
    /// records from two gates sharing a log do not interleave.
    pub fn record(&mut self, rec: &Record) -> io::Result<()> {
        self.reopen_if_gone()?;
        let mut line = serde_json::to_vec(&rec.to_json()).map_err(io::Error::other)?;
        line.push(b'\n');
        self.file.write_all(&line)?;
        self.file.flush()
    }
}

/// What one audit line holds.
pub struct Record<'a> {
    pub time: SystemTime,
    pub id: &'a CallId,
    pub tool: Option<&'a str>,
    pub arguments: Option<&'a Value>,
    pub resolution: &'a Resolution,
    pub micros: u128,
    /// The agent ran the call without asking (it only reported it): the line says what the
    /// policy would have decided, under `"asked": false`.
    pub not_asked: bool,
}

impl Record<'_> {
    pub fn to_json(&self) -> Value {
        let o = self.resolution;
        let mut v = json!({
            "time": rfc3339(self.time),
            "id": self.id.wire,
            "tool": self.tool,
            "arguments": self.arguments,
            "decision": if o.approved { "allow" } else { "deny" },
            "scope": if o.approved { Some(o.scope.as_str()) } else { None },
            "mode": if o.approved { None } else { Some(o.mode_str()) },
            "layer": o.layer(),
            "rule": o.rule(),
            "source": o.source(),
            "reason": o.reason,
            "feedback": o.feedback,
            "micros": self.micros as u64,
        });
        if self.not_asked {
            if let Some(map) = v.as_object_mut() {
                map.insert("decision".into(), json!(o.decision.decision.as_str()));
                map.insert("asked".into(), json!(false));
                map.insert("note".into(), json!("not asked by the agent: it ran the call without asking gate; decision is what the policy says of it"));
            }
        }
        // Every part's verdict, for shell calls: which part decided, and what the others were.
        if let (Some(parts), Some(map)) = (&o.decision.parts, v.as_object_mut()) {
            map.insert("parts".into(), serde_json::to_value(parts).unwrap_or(Value::Null));
        }
        v
    }
}

/// RFC 3339 in UTC with microseconds: `2025-03-01T12:34:56.123456Z`.
pub fn rfc3339(t: SystemTime) -> String {
    let d = t.duration_since(UNIX_EPOCH).unwrap_or(Duration::ZERO);
    crate::clock::format_unix(d.as_secs() as i64, Some(d.subsec_micros()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_rfc3339() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000000Z");
        let t = UNIX_EPOCH + Duration::from_micros(951_827_696_000_123);
        assert_eq!(rfc3339(t), "2000-02-29T12:34:56.000123Z");
    }
}
