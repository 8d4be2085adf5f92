//! Reads and writes a test's kept corpus file (`<test>-<fingerprint>.seeds`) in the format the
//! engine's `corpus::kept` module docs describe, so tests can lay one out and inspect it.

#![allow(dead_code)]

use std::path::Path;

const MAGIC: &[u8; 8] = b"TFSEEDS\x01";

/// One kept input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub bytes: Vec<u8>,
    /// The run it was last useful to.
    pub useful_in: u64,
    /// Left by a campaign.
    pub campaign: bool,
}

impl Entry {
    pub fn new(bytes: Vec<u8>, useful_in: u64) -> Entry {
        Entry {
            bytes,
            useful_in,
            campaign: false,
        }
    }
}

/// Writes a kept file holding `entries`, its run count the largest `useful_in`.
pub fn write(path: &Path, entries: &[Entry]) {
    let runs = entries.iter().map(|e| e.useful_in).max().unwrap_or(0);
    let mut out = MAGIC.to_vec();
    out.extend_from_slice(&runs.to_le_bytes());
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    for entry in entries {
        out.extend_from_slice(&entry.useful_in.to_le_bytes());
        out.push(u8::from(entry.campaign));
        out.extend_from_slice(&(entry.bytes.len() as u32).to_le_bytes());
        out.extend_from_slice(&entry.bytes);
    }
    out.extend_from_slice(&crc32fast::hash(&out).to_le_bytes());
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, out).unwrap();
}

/// The entries of the kept file at `path`; empty if there is none. Panics on a malformed file.
pub fn read(path: &Path) -> Vec<Entry> {
    let Ok(bytes) = std::fs::read(path) else {
        return Vec::new();
    };
    let (body, digest) = bytes.split_at(bytes.len() - 4);
    assert!(
        body.starts_with(MAGIC),
        "{}: not a kept file",
        path.display()
    );
    assert_eq!(
        crc32fast::hash(body).to_le_bytes(),
        digest,
        "{}: checksum",
        path.display()
    );
    let mut rest = &body[MAGIC.len() + 8..];
    let mut take = |n: usize| {
        let (head, tail) = rest.split_at(n);
        rest = tail;
        head
    };
    let count = u32::from_le_bytes(take(4).try_into().unwrap());
    let entries = (0..count)
        .map(|_| {
            let useful_in = u64::from_le_bytes(take(8).try_into().unwrap());
            let campaign = take(1)[0] & 1 == 1;
            let len = u32::from_le_bytes(take(4).try_into().unwrap()) as usize;
            Entry {
                bytes: take(len).to_vec(),
                useful_in,
                campaign,
            }
        })
        .collect();
    assert!(rest.is_empty(), "{}: trailing bytes", path.display());
    entries
}

/// The run count of the kept file at `path` (how many runs wrote it); 0 if there is none.
pub fn runs(path: &Path) -> u64 {
    let Ok(bytes) = std::fs::read(path) else {
        return 0;
    };
    assert!(
        bytes.starts_with(MAGIC),
        "{}: not a kept file",
        path.display()
    );
    u64::from_le_bytes(bytes[MAGIC.len()..MAGIC.len() + 8].try_into().unwrap())
}
