//! "bad!" (Dmitry Vyukov's example, BENCHMARKS.md): an input fails iff it starts with the bytes
//! `b`, `a`, `d`, `!`, tested one byte at a time, so each matched byte is a new branch.
//! `BAD_BUG=0` disables the failure, for throughput measurements.

use std::sync::OnceLock;

/// Whether `input` starts with `bad!`.
pub fn triggers(input: &[u8]) -> bool {
    input.first() == Some(&b'b')
        && input.get(1) == Some(&b'a')
        && input.get(2) == Some(&b'd')
        && input.get(3) == Some(&b'!')
}

/// The property both targets fuzz: panics on `bad!` (unless `BAD_BUG=0`).
pub fn property(input: &[u8]) {
    static BUG: OnceLock<bool> = OnceLock::new();
    let bug = *BUG.get_or_init(|| std::env::var("BAD_BUG").map_or(true, |v| v != "0"));
    if bug && triggers(input) {
        panic!("bad! found: {input:?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_prefix_triggers() {
        assert!(triggers(b"bad!"));
        assert!(triggers(b"bad!xyz"));
        assert!(!triggers(b"bad"));
        assert!(!triggers(b"xbad!"));
    }
}
