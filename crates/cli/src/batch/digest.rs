//! The digests of a batch's input files, which its log's header records beside their names:
//! a file edited between the shards of a run (or before a `--resume`) would otherwise mix the
//! results of two inputs under one name, which `--resume` and `ply merge` now refuse.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result};
use serde_json::Value;

/// The key of the digests in a header's work.
pub(crate) const KEY: &str = "digests";

/// A 64-bit hash of a byte stream, eight bytes a step (the multiply-rotate step of FxHash),
/// fed in pieces; written out here so that a digest never changes with a library's version.
struct Hash {
    state: u64,
    bytes: u64,
    /// The bytes of an unfinished word.
    pending: [u8; 8],
    filled: usize,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hash {
    fn new() -> Self {
        Hash {
            state: 0,
            bytes: 0,
            pending: [0; 8],
            filled: 0,
        }
    }

    fn word(&mut self, word: u64) {
        self.state = (self.state.rotate_left(5) ^ word).wrapping_mul(SEED);
    }

    fn feed(&mut self, mut data: &[u8]) {
        self.bytes += data.len() as u64;
        if self.filled > 0 {
            let take = (8 - self.filled).min(data.len());
            self.pending[self.filled..self.filled + take].copy_from_slice(&data[..take]);
            self.filled += take;
            data = &data[take..];
            if self.filled < 8 {
                return;
            }
            self.word(u64::from_le_bytes(self.pending));
            self.filled = 0;
        }
        let mut words = data.chunks_exact(8);
        for chunk in &mut words {
            self.word(u64::from_le_bytes(chunk.try_into().expect("eight bytes")));
        }
        let rest = words.remainder();
        self.pending[..rest.len()].copy_from_slice(rest);
        self.filled = rest.len();
    }

    /// `SIZE:HASH`, the size in bytes and the hash in hexadecimal.
    fn finish(mut self) -> String {
        if self.filled > 0 {
            let mut last = [0u8; 8];
            last[..self.filled].copy_from_slice(&self.pending[..self.filled]);
            self.word(u64::from_le_bytes(last));
        }
        self.word(self.bytes);
        format!("{}:{:016x}", self.bytes, self.state)
    }
}

/// The digest of `bytes`, as a header records it (`SIZE:HASH`): what [`of_file`] gives a file
/// of these bytes.
#[cfg(test)]
fn of_bytes(bytes: &[u8]) -> String {
    let mut hash = Hash::new();
    hash.feed(bytes);
    hash.finish()
}

/// The digest of the file at `path`, read in pieces (a map can be half a gigabyte).
///
/// # Errors
/// The file cannot be read, named.
pub(crate) fn of_file(path: &Path) -> Result<String> {
    let mut file = File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut hash = Hash::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let got = file
            .read(&mut buffer)
            .with_context(|| format!("cannot read {}", path.display()))?;
        if got == 0 {
            break;
        }
        hash.feed(&buffer[..got]);
    }
    Ok(hash.finish())
}

/// The digest of an input named on the command line: its file's, or `stdin` for standard
/// input (`-`), which cannot be read twice.
///
/// # Errors
/// The file cannot be read, named.
pub(crate) fn of_input(path: &Path) -> Result<String> {
    if crate::format::is_stdin(path) {
        Ok("stdin".to_string())
    } else {
        of_file(path)
    }
}

/// The digests of `paths` as a header's value: one per input, in their order.
///
/// # Errors
/// A file cannot be read, named.
pub(crate) fn of_inputs<'a>(paths: impl IntoIterator<Item = &'a Path>) -> Result<Value> {
    let digests = paths
        .into_iter()
        .map(of_input)
        .collect::<Result<Vec<String>>>()?;
    Ok(Value::from(digests))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_digest_is_the_same_in_pieces_and_changes_with_any_byte() {
        let text: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let whole = of_bytes(&text);
        assert!(whole.starts_with("1000:"), "{whole}");
        for cut in [1, 3, 8, 13, 999] {
            let mut hash = Hash::new();
            for piece in text.chunks(cut) {
                hash.feed(piece);
            }
            assert_eq!(hash.finish(), whole, "pieces of {cut}");
        }
        for at in [0, 500, 999] {
            let mut edited = text.clone();
            edited[at] ^= 1;
            assert_ne!(of_bytes(&edited), whole, "byte {at}");
        }
        // A trailing zero byte is not the same file.
        let mut longer = text.clone();
        longer.push(0);
        assert_ne!(of_bytes(&longer), whole);
    }

    #[test]
    fn a_file_digests_as_its_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, b"13 5 4 10\n").unwrap();
        assert_eq!(of_file(&path).unwrap(), of_bytes(b"13 5 4 10\n"));
        assert!(of_file(&dir.path().join("missing")).is_err());
    }
}
