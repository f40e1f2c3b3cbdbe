//! The names a git index holds (`.git/index`, versions 2 to 4): what plain `git ls-files`
//! prints, read without running git. The edge ([`crate::resolve`]) reads the file; this
//! module only parses bytes, so that a listing of the index handed to xargs or a loop is
//! decided by the names it really holds, including those no longer on disk (red team 75's
//! tracked ` /etc/passwd`, a directory named by a blank).
//!
//! Pure: bytes in, names out. Anything it does not fully understand (a version other than 2
//! to 4, a length that does not add up, a name holding a NUL, a split or sparse index, any
//! extension a reader must understand) is `None`, never a partial list: the caller must then
//! treat the names as unknown.

/// The names, in index order, of the index `bytes` of a repository whose object names are
/// `hash_len` bytes long (20 for SHA-1, 32 for SHA-256). `None` where the bytes are not an
/// index this parser fully reads.
pub fn index_names(bytes: &[u8], hash_len: usize) -> Option<Vec<Vec<u8>>> {
    let word = |at: usize| -> Option<u32> { Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?)) };
    if bytes.get(..4)? != b"DIRC" {
        return None;
    }
    let version = word(4)?;
    let count = word(8)? as usize;
    if !(2..=4).contains(&version) {
        return None;
    }
    // (Ten 32-bit stat fields, the object name, then 16 bits of flags.)
    let fixed = 40 + hash_len;
    let mut names: Vec<Vec<u8>> = Vec::with_capacity(count.min(1 << 16));
    let mut previous: Vec<u8> = Vec::new();
    let mut at = 12;
    for _ in 0..count {
        let start = at;
        // A directory entry (`040000`) is a sparse index's folder, whose names are a tree's.
        if word(start + 24)? >> 12 == 0o04 {
            return None;
        }
        let flags = u16::from_be_bytes(bytes.get(start + fixed..start + fixed + 2)?.try_into().ok()?);
        at = start + fixed + 2;
        if flags & 0x4000 != 0 {
            // The extended flags of version 3 and later.
            if version < 3 {
                return None;
            }
            at += 2;
        }
        let length = usize::from(flags & 0x0fff);
        let name = if version == 4 {
            // The length of the previous name to drop, then the rest of this one, NUL-ended.
            let (strip, used) = varint(bytes.get(at..)?)?;
            at += used;
            let end = bytes.get(at..)?.iter().position(|&b| b == 0)?;
            let kept = previous.len().checked_sub(strip)?;
            let mut name = previous[..kept].to_vec();
            name.extend_from_slice(&bytes[at..at + end]);
            at += end + 1;
            name
        } else {
            let end = bytes.get(at..)?.iter().position(|&b| b == 0)?;
            let name = bytes[at..at + end].to_vec();
            // The entry padded with 1 to 8 NULs to a multiple of 8 bytes.
            let len = at - start + end;
            at = start + (len + 8) / 8 * 8;
            if at > bytes.len() || bytes[start + len..at].iter().any(|&b| b != 0) {
                return None;
            }
            name
        };
        if name.is_empty() || (length < 0x0fff && name.len() != length) {
            return None;
        }
        previous.clone_from(&name);
        names.push(name);
    }
    // The extensions, up to the closing hash: one a reader must understand (a lower-case
    // signature: `link`, a split index whose names are in another file; `sdir`, a sparse
    // one) is not read here (red team 78: a split index's file held no name at all).
    let end = bytes.len().checked_sub(hash_len)?;
    while at < end {
        let signature = bytes.get(at..at + 4)?;
        let size = word(at + 4)? as usize;
        if signature[0].is_ascii_lowercase() {
            return None;
        }
        at = at.checked_add(8)?.checked_add(size)?;
    }
    (at == end).then_some(names)
}

/// git's offset encoding (`decode_varint`): seven bits a byte, high bit set on all but the
/// last, each continuation adding one. The value and the bytes used.
fn varint(bytes: &[u8]) -> Option<(usize, usize)> {
    let mut used = 0;
    let mut c = *bytes.first()?;
    used += 1;
    let mut value = usize::from(c & 127);
    while c & 128 != 0 {
        c = *bytes.get(used)?;
        used += 1;
        value = value.checked_add(1)?.checked_mul(128)?.checked_add(usize::from(c & 127))?;
    }
    Some((value, used))
}

/// Whether `name` (an index name) is one that xargs, a `for` loop over `$(...)` and `read`
/// take whole and as a file name: letters, digits and `._/+,@%~^:-` only (no blank, quote,
/// backslash, glob character, `=` that awk reads as an assignment, nor anything git would
/// print quoted), and no part starting with `-` (an option where it is printed bare).
pub fn plain_name(name: &[u8]) -> bool {
    name.iter().all(|&b| b.is_ascii_alphanumeric() || b"._/+,@%~^:-".contains(&b))
        && !name.split(|&b| b == b'/').any(|part| part.first() == Some(&b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn git(dir: &std::path::Path, args: &[&str]) -> Vec<u8> {
        let out = Command::new("git").args(args).current_dir(dir).output().expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        out.stdout
    }

    /// Every index version git writes, with names that share prefixes, hold blanks, quotes,
    /// newlines and non-ASCII letters: the parser's names are `git ls-files -z`'s.
    #[test]
    fn names_are_what_git_lists() {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        git(d, &["init", "-q"]);
        let names = [
            "a.md",
            "docs/a.md",
            "docs/ab.md",
            "docs/guide/x y.md",
            " lead/passwd",
            "q'uote\"d",
            "new\nline",
            "dé.md",
            "-rf",
        ];
        for n in names {
            let p = d.join(n);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
            std::fs::write(&p, "x").expect("file");
        }
        git(d, &["add", "-A"]);
        // A name longer than the 12 bits of an entry's length (NUL-ended only), in the index
        // but on no disk (a path that long cannot be made).
        let blob = String::from_utf8(git(d, &["hash-object", "-w", "a.md"])).expect("utf-8");
        let long = vec!["n".repeat(200); 21].join("/");
        git(d, &["update-index", "--add", "--cacheinfo", &format!("100644,{},{long}", blob.trim())]);
        for version in ["2", "3", "4"] {
            git(d, &["update-index", "--index-version", version]);
            if version == "3" {
                // (An extended flag, so version 3's extra bytes are there.)
                git(d, &["update-index", "--skip-worktree", "a.md"]);
            }
            let bytes = std::fs::read(d.join(".git/index")).expect("index");
            let parsed = index_names(&bytes, 20).expect("parsed");
            // (With the optional extensions git writes: the cache tree after a commit.)
            if version == "2" {
                git(d, &["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]);
                let bytes = std::fs::read(d.join(".git/index")).expect("index");
                assert_eq!(index_names(&bytes, 20).as_ref(), Some(&parsed), "with a cache tree");
            }
            let listed: Vec<Vec<u8>> =
                git(d, &["ls-files", "-z"]).split(|&b| b == 0).filter(|n| !n.is_empty()).map(<[u8]>::to_vec).collect();
            assert_eq!(parsed, listed, "version {version}");
        }
    }

    #[test]
    fn refuses_what_it_does_not_read() {
        assert_eq!(index_names(b"", 20), None);
        assert_eq!(index_names(b"DIRC\0\0\0\x05\0\0\0\0", 20), None);
        assert_eq!(index_names(b"DIRC\0\0\0\x02\0\0\0\x01", 20), None);
        let mut empty = b"DIRC\0\0\0\x02\0\0\0\0".to_vec();
        empty.extend([0; 20]);
        assert_eq!(index_names(&empty, 20), Some(Vec::new()));
    }

    /// A split index (its names in `sharedindex.*`) and a sparse one (folders for names):
    /// not read (red team 78).
    #[test]
    fn split_and_sparse_indexes_are_not_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let d = dir.path();
        git(d, &["init", "-q"]);
        for n in ["src/a.rs", "docs/a.md", "lib/x.md"] {
            let p = d.join(n);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("dirs");
            std::fs::write(&p, "x").expect("file");
        }
        git(d, &["add", "-A"]);
        git(d, &["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]);
        git(d, &["update-index", "--split-index"]);
        let bytes = std::fs::read(d.join(".git/index")).expect("index");
        assert_eq!(index_names(&bytes, 20), None, "split");
        git(d, &["update-index", "--no-split-index"]);
        git(d, &["config", "index.sparse", "true"]);
        git(d, &["sparse-checkout", "set", "--cone", "src"]);
        let bytes = std::fs::read(d.join(".git/index")).expect("index");
        assert_eq!(index_names(&bytes, 20), None, "sparse");
    }

    #[test]
    fn plain_names() {
        for yes in ["src/a.rs", "docs/guide.md", "a-b/c_d.e+f@g", "x/y-z"] {
            assert!(plain_name(yes.as_bytes()), "{yes}");
        }
        for no in [" a", "a b", "a'b", "a\\b", "a*", "x=y", "-rf", "docs/-n", "dé", "a\nb"] {
            assert!(!plain_name(no.as_bytes()), "{no}");
        }
    }

    proptest::proptest! {
        /// Any bytes: a list or `None`, never a panic, and never more names than claimed.
        #[test]
        fn any_bytes(tail in proptest::collection::vec(proptest::num::u8::ANY, 0..400), version in 2u8..5, count in 0u8..4) {
            let mut bytes = b"DIRC\0\0\0".to_vec();
            bytes.push(version);
            bytes.extend_from_slice(&[0, 0, 0, count]);
            bytes.extend_from_slice(&tail);
            if let Some(names) = index_names(&bytes, 20) {
                proptest::prop_assert_eq!(names.len(), usize::from(count));
            }
        }
    }
}
