//! Claude Code (placeholder, filled below).
