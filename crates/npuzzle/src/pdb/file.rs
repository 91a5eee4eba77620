//! The database file: a 4 KiB header, then the packed tables back to back.
//!
//! Header (little-endian): magic `PLYPDB\r\n`; format version (u32); width, pattern count and
//! packing (one byte each, packing 1 = half-excess nibbles), one reserved byte; per pattern
//! (up to six) 32 bytes: its tile count, then its tiles; the data length (u64); the XXH3-64
//! checksum of the header (with the checksum zeroed) and the data. Files are written to a
//! temporary name and renamed, so a reader sees a whole file or none; they are loaded by
//! memory map and checked completely before use.
#![allow(unsafe_code)]

use std::fs::{self, File};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use memmap2::MmapOptions;
use xxhash_rust::xxh3::Xxh3;

use super::database::{PatternDatabase, Storage, packed_len};
use super::partition::{MAX_PATTERNS, Partition};
use crate::error::PdbError;

/// Identifies a ply pattern database.
const MAGIC: &[u8; 8] = b"PLYPDB\r\n";
/// The format this code reads and writes.
pub const FORMAT_VERSION: u32 = 1;
/// Packing code of half-excess nibbles.
const PACKING_NIBBLES: u8 = 1;
/// Bytes before the tables.
const HEADER_LEN: usize = 4096;
/// Where the pattern descriptions start.
const PATTERNS_AT: usize = 16;
/// Where the data length is.
const LENGTH_AT: usize = PATTERNS_AT + 32 * MAX_PATTERNS;
/// Where the checksum is.
const CHECKSUM_AT: usize = LENGTH_AT + 8;

/// The header of `partition`'s file with `data_len` bytes of tables, checksum zero.
fn header(partition: &Partition, data_len: usize) -> Vec<u8> {
    let mut h = vec![0u8; HEADER_LEN];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&FORMAT_VERSION.to_le_bytes());
    h[12] = partition.width() as u8;
    h[13] = partition.patterns().len() as u8;
    h[14] = PACKING_NIBBLES;
    for (i, p) in partition.patterns().iter().enumerate() {
        let at = PATTERNS_AT + 32 * i;
        h[at] = p.tiles().len() as u8;
        h[at + 1..at + 1 + p.tiles().len()].copy_from_slice(p.tiles());
    }
    h[LENGTH_AT..LENGTH_AT + 8].copy_from_slice(&(data_len as u64).to_le_bytes());
    h
}

/// XXH3-64 of a header (its checksum field read as zero) and the data.
fn checksum(header: &[u8], data: &[u8]) -> u64 {
    let mut hasher = Xxh3::new();
    hasher.update(&header[..CHECKSUM_AT]);
    hasher.update(&[0u8; 8]);
    hasher.update(&header[CHECKSUM_AT + 8..]);
    hasher.update(data);
    hasher.digest()
}

/// Reads the partition a header describes.
fn partition_of(h: &[u8]) -> Result<Partition, String> {
    let width = usize::from(h[12]);
    let count = usize::from(h[13]);
    if count == 0 || count > MAX_PATTERNS {
        return Err(format!("header names {count} patterns"));
    }
    let patterns: Vec<&[u8]> = (0..count)
        .map(|i| {
            let at = PATTERNS_AT + 32 * i;
            let k = usize::from(h[at]).min(31);
            &h[at + 1..at + 1 + k]
        })
        .collect();
    Partition::new(width, &patterns).map_err(|e| format!("header holds an {e}"))
}

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> PdbError + '_ {
    move |error| PdbError::Io {
        path: path.display().to_string(),
        error,
    }
}

impl PatternDatabase {
    /// Checks, before minutes of building, that a database can be saved at `path`: its
    /// directory exists or can be made and takes a new file, and `path` is not something
    /// other than a regular file (a directory, a device, a symbolic link), which is never
    /// replaced.
    ///
    /// # Errors
    /// [`PdbError::Io`] naming the directory or the file and what is wrong.
    pub fn check_writable(path: &Path) -> Result<(), PdbError> {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        if let Ok(meta) = fs::symlink_metadata(path) {
            if !meta.file_type().is_file() {
                let what = if meta.is_dir() {
                    "a directory"
                } else {
                    "not a regular file"
                };
                return Err(io_error(path)(std::io::Error::other(format!(
                    "is {what}, not a database file; refusing to replace it"
                ))));
            }
        }
        let probe = dir.join(format!(".ply-write-test-{}", std::process::id()));
        File::create(&probe).map_err(io_error(dir))?;
        let _ = fs::remove_file(&probe);
        Ok(())
    }

    /// Writes the database to `path` atomically: to a temporary file in the same directory,
    /// synced, then renamed over `path`. Creates the directory if needed.
    ///
    /// # Errors
    /// [`PdbError::Io`] naming the file that could not be written.
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        Self::check_writable(path)?;
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(format!(".tmp{}", std::process::id()));
        let tmp = PathBuf::from(tmp);
        let data = self.data();
        let mut head = header(self.partition(), data.len());
        let sum = checksum(&head, data);
        head[CHECKSUM_AT..CHECKSUM_AT + 8].copy_from_slice(&sum.to_le_bytes());
        let written = (|| {
            let file = File::create(&tmp)?;
            let mut out = BufWriter::with_capacity(1 << 20, file);
            out.write_all(&head)?;
            out.write_all(data)?;
            out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
            fs::rename(&tmp, path)
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(io_error(path)(e));
        }
        Ok(())
    }

    /// Maps the database file at `path` and checks it completely (magic, version, partition,
    /// length, checksum) before returning it.
    ///
    /// # Errors
    /// [`PdbError::Missing`] if there is no file; [`PdbError::Corrupt`] naming what is wrong
    /// if it is not a sound database of `expected`; [`PdbError::Io`] if it cannot be read.
    pub fn load(path: &Path, expected: &Partition) -> Result<Self, PdbError> {
        let shown = path.display().to_string();
        let corrupt = |why: String| PdbError::Corrupt {
            path: shown.clone(),
            why,
        };
        let file = match File::open(path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(PdbError::Missing {
                    partition: expected.to_string(),
                    path: shown,
                });
            }
            Err(e) => return Err(io_error(path)(e)),
        };
        let meta = file.metadata().map_err(io_error(path))?;
        if !meta.is_file() {
            return Err(corrupt("a directory or device, not a database file".into()));
        }
        let len = meta.len();
        if len < HEADER_LEN as u64 {
            return Err(corrupt(format!(
                "{len} bytes, too short for a pattern database"
            )));
        }
        // SAFETY: the map is read-only and private to this process; ply replaces database
        // files only by renaming new ones over them, which leaves this mapping's pages intact.
        // A file truncated by someone else while mapped could still fault, as with any mapped
        // file.
        let map = unsafe { MmapOptions::new().populate().map(&file) }.map_err(io_error(path))?;
        let head = &map[..HEADER_LEN];
        if &head[..8] != MAGIC {
            return Err(corrupt("not a ply pattern database (bad magic)".into()));
        }
        let version = u32::from_le_bytes(head[8..12].try_into().expect("4 bytes"));
        if version != FORMAT_VERSION {
            return Err(corrupt(format!(
                "format version {version}, but this ply reads version {FORMAT_VERSION}"
            )));
        }
        if head[14] != PACKING_NIBBLES {
            return Err(corrupt(format!("unknown packing {}", head[14])));
        }
        let found = partition_of(head).map_err(&corrupt)?;
        if found != *expected {
            return Err(corrupt(format!(
                "holds the {found} partition {:?}, not {expected} {:?}",
                tiles_of(&found),
                tiles_of(expected)
            )));
        }
        let data_len = u64::from_le_bytes(head[LENGTH_AT..LENGTH_AT + 8].try_into().expect("8"));
        let want = expected
            .patterns()
            .iter()
            .map(|p| packed_len(p.entries()))
            .sum::<usize>();
        if data_len != want as u64 {
            return Err(corrupt(format!(
                "header says {data_len} bytes of tables, the partition needs {want}"
            )));
        }
        if len != (HEADER_LEN + want) as u64 {
            return Err(corrupt(format!(
                "{len} bytes, expected {} (truncated or extended)",
                HEADER_LEN + want
            )));
        }
        let stored = u64::from_le_bytes(head[CHECKSUM_AT..CHECKSUM_AT + 8].try_into().expect("8"));
        if checksum(head, &map[HEADER_LEN..]) != stored {
            return Err(corrupt("checksum mismatch: the file is corrupt".into()));
        }
        Ok(Self::from_storage(
            expected.clone(),
            Storage::Mapped {
                map,
                tables_at: HEADER_LEN,
            },
        ))
    }
}

fn tiles_of(p: &Partition) -> Vec<Vec<u8>> {
    p.patterns().iter().map(|p| p.tiles().to_vec()).collect()
}
