//! Fuzz the git index parser the edge reads `git ls-files`' names with ([`gate::git_index`]):
//! any bytes give a list or `None`, never a panic or a hang; a list has exactly the count
//! the header claims, and no name is empty or holds a NUL.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    for hash in [20, 32] {
        if let Some(names) = gate::git_index::index_names(data, hash) {
            let count = u32::from_be_bytes(data[8..12].try_into().unwrap()) as usize;
            assert_eq!(names.len(), count);
            assert!(names.iter().all(|n| !n.is_empty() && !n.contains(&0)));
        }
    }
});
