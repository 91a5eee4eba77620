//! The database file: a 4 KiB header, then the packed tables back to back.
//!
//! Header (little-endian): magic `PLYPDB\r\n`; format version (u32); width, pattern count and
//! packing (one byte each, packing 1 = half-excess nibbles), one reserved byte; per pattern
//! (up to six) 32 bytes: its tile count, then its tiles; the data length (u64); the XXH3-64
//! checksum of the header (with the checksum zeroed) and the data. Files are written to a
//! temporary name (the file's name, `.tmp` and the writer's process id) and renamed, so a
//! reader sees a whole file or none; they are read into memory (never mapped: a mapping dies
//! with SIGBUS when another program truncates the file) and checked completely before use.

use std::ffi::OsString;
use std::fs::{self, File, FileType};
use std::io::{BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use xxhash_rust::xxh3::Xxh3;

use super::database::{PatternDatabase, packed_len};
use super::partition::{MAX_PATTERNS, Partition};
use crate::error::{PdbError, plural};
use ply_search::advise_huge_pages;

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
        if let Ok(meta) = fs::metadata(dir)
            && !meta.is_dir()
        {
            return Err(io_error(dir)(std::io::Error::other(
                "is not a directory, so databases cannot be kept in it",
            )));
        }
        fs::create_dir_all(dir).map_err(io_error(dir))?;
        if let Ok(meta) = fs::symlink_metadata(path)
            && !meta.file_type().is_file()
        {
            let what = kind(meta.file_type());
            return Err(io_error(path)(std::io::Error::other(format!(
                "is {what}, not a database file; refusing to replace it"
            ))));
        }
        let probe = dir.join(format!(".ply-write-test-{}", std::process::id()));
        File::create(&probe).map_err(io_error(dir))?;
        let _ = fs::remove_file(&probe);
        Ok(())
    }

    /// The temporary file [`PatternDatabase::save`] of this process writes before renaming
    /// it to `path`: `path` with `.tmp` and the process id appended.
    #[must_use]
    pub fn temp_path(path: &Path) -> PathBuf {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(format!(".tmp{}", std::process::id()));
        PathBuf::from(tmp)
    }

    /// The temporary files of database saves in `dir` (names ending in `.pdb.tmp` and a
    /// process id), with the id of the process that wrote each: those of a process that no
    /// longer runs were left by an interrupted save and can be removed. A directory that
    /// cannot be read has none.
    #[must_use]
    pub fn temp_files(dir: &Path) -> Vec<(PathBuf, u32)> {
        let Ok(entries) = fs::read_dir(dir) else {
            return Vec::new();
        };
        let mut found: Vec<(PathBuf, u32)> = entries
            .filter_map(Result::ok)
            .filter_map(|entry| {
                let name = entry.file_name();
                let pid = temp_pid(&name)?;
                entry
                    .file_type()
                    .is_ok_and(|t| t.is_file())
                    .then(|| (entry.path(), pid))
            })
            .collect();
        found.sort();
        found
    }

    /// Writes the database to `path` atomically: to a temporary file in the same directory
    /// ([`PatternDatabase::temp_path`]), synced, then renamed over `path`. Creates the
    /// directory if needed; on failure, the temporary file is removed.
    ///
    /// # Errors
    /// [`PdbError::Io`] naming the file that could not be written.
    pub fn save(&self, path: &Path) -> Result<(), PdbError> {
        Self::check_writable(path)?;
        let tmp = Self::temp_path(path);
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

    /// Reads the database file at `path` into memory and checks it completely (magic,
    /// version, partition, length, checksum) before returning it. Anything but a regular file
    /// (a directory, a FIFO, a device) is refused without being read, so that a FIFO in the
    /// database's place cannot block the caller.
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
        let not_regular = |t: FileType| corrupt(format!("{}, not a regular file", kind(t)));
        match fs::metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(PdbError::Missing {
                    partition: expected.to_string(),
                    path: shown,
                });
            }
            Err(e) => return Err(io_error(path)(e)),
            Ok(meta) if !meta.is_file() => return Err(not_regular(meta.file_type())),
            Ok(_) => {}
        }
        // Not blocking, in case a FIFO took the file's place since the check above; the type
        // is checked again on what was opened.
        let mut options = fs::OpenOptions::new();
        options.read(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::custom_flags(&mut options, libc::O_NONBLOCK);
        let file = options.open(path).map_err(io_error(path))?;
        let meta = file.metadata().map_err(io_error(path))?;
        if !meta.is_file() {
            return Err(not_regular(meta.file_type()));
        }
        let len = meta.len();
        if len < HEADER_LEN as u64 {
            return Err(corrupt(format!(
                "{}, too short for a pattern database",
                plural(len, "byte")
            )));
        }
        let mut reader = &file;
        let mut head = vec![0u8; HEADER_LEN];
        reader.read_exact(&mut head).map_err(io_error(path))?;
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
        let found = partition_of(&head).map_err(&corrupt)?;
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
        let truncated = || {
            corrupt(format!(
                "{len} bytes, expected {} (truncated or extended)",
                HEADER_LEN + want
            ))
        };
        if len != (HEADER_LEN + want) as u64 {
            return Err(truncated());
        }
        // The lookups read the tables at random: huge pages spare most TLB misses.
        let mut data = Vec::with_capacity(want);
        advise_huge_pages(data.spare_capacity_mut());
        reader
            .take(want as u64)
            .read_to_end(&mut data)
            .map_err(io_error(path))?;
        // The file may have changed since its length was read.
        let mut more = [0u8; 1];
        if data.len() != want || reader.read(&mut more).map_err(io_error(path))? != 0 {
            return Err(truncated());
        }
        let stored = u64::from_le_bytes(head[CHECKSUM_AT..CHECKSUM_AT + 8].try_into().expect("8"));
        if checksum(&head, &data) != stored {
            return Err(corrupt("checksum mismatch: the file is corrupt".into()));
        }
        Ok(Self::from_data(expected.clone(), data, true))
    }
}

/// What a file that is not a regular file is, for a message.
fn kind(t: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
    }
    if t.is_dir() {
        "a directory"
    } else if t.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
    }
}

/// The process id of a temporary database file's name (`NAME.pdb.tmpPID`).
fn temp_pid(name: &OsString) -> Option<u32> {
    let name = name.to_str()?;
    let (_, pid) = name.rsplit_once(".pdb.tmp")?;
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok()
}

fn tiles_of(p: &Partition) -> Vec<Vec<u8>> {
    p.patterns().iter().map(|p| p.tiles().to_vec()).collect()
}
