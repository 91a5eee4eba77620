//! The map file: a text header `N K\n`, then N*N/8 bytes, cell (r, c) at bit `r*N + c`
//! (byte `i/8`, bit `i%8`, least significant first), 1 = mine.

use ply_search::StopFlag;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use memmap2::Mmap;
use rayon::prelude::*;

use crate::error::MinesError;

/// The smallest board side the format allows.
pub const MIN_SIZE: u32 = 16;
/// The largest board side the format allows (rows and columns are `u16` on the wire).
pub const MAX_SIZE: u32 = 65536;
/// The longest header line accepted, newline included.
const MAX_HEADER: usize = 64;

/// Checks that `n` is a power of two in `MIN_SIZE..=MAX_SIZE`.
pub fn check_size(n: u64) -> Result<u32, MinesError> {
    if n.is_power_of_two() && (u64::from(MIN_SIZE)..=u64::from(MAX_SIZE)).contains(&n) {
        Ok(n as u32)
    } else {
        Err(MinesError::BadParameters(format!(
            "board size {n} is not a power of two from {MIN_SIZE} to {MAX_SIZE}"
        )))
    }
}

/// The contest's mine count for an `n x n` board: N*N/8.
pub fn default_mines(n: u32) -> u64 {
    u64::from(n) * u64::from(n) / 8
}

/// Parses a header line (without its newline) into `(N, K)`.
fn parse_header(line: &[u8]) -> Result<(u32, u64), String> {
    let text = std::str::from_utf8(line).map_err(|_| "header is not text".to_string())?;
    let mut fields = text.split_ascii_whitespace();
    let (Some(n), Some(k), None) = (fields.next(), fields.next(), fields.next()) else {
        return Err(format!("header {text:?} is not `N K`"));
    };
    let n: u64 = n
        .parse()
        .map_err(|_| format!("header: N {n:?} is not a number"))?;
    let k: u64 = k
        .parse()
        .map_err(|_| format!("header: K {k:?} is not a number"))?;
    let n = check_size(n).map_err(|e| format!("header: {e}"))?;
    if k > u64::from(n) * u64::from(n) {
        return Err(format!("header: K = {k} exceeds the {n} x {n} cells"));
    }
    Ok((n, k))
}

/// Opens `path` for reading if it is a regular file. The open does not block (a FIFO
/// without a writer would block a plain open forever, signals or not), and the type is
/// checked on the opened file, so it cannot change between the check and the use.
fn open_regular(path: &Path) -> Result<File, MinesError> {
    let io = |e| MinesError::io(format!("{}", path.display()), e);
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(io)?;
    if !file.metadata().map_err(io)?.is_file() {
        return Err(MinesError::BadMap {
            path: path.to_path_buf(),
            reason: "not a regular file".into(),
        });
    }
    Ok(file)
}

/// Where a map's bits live.
#[derive(Debug)]
enum Storage {
    /// A read-only memory map of the file; the bits start at `offset`.
    Mapped { mmap: Mmap, offset: usize },
    /// Bits in memory (generated and read maps, tests), shared by [`MineMap::share`].
    Owned(Arc<Vec<u8>>),
}

/// An `N x N` board of mines, read-only.
#[derive(Debug)]
pub struct MineMap {
    n: u32,
    k: u64,
    storage: Storage,
}

impl MineMap {
    /// Opens a map file by memory map, checking the header and the file size (not the mine
    /// count: see [`MineMap::count_mines`]). Only a regular file is a map: a FIFO, a pipe
    /// (`<(...)`), a device or a directory is refused without waiting for a writer.
    pub fn open(path: &Path) -> Result<Self, MinesError> {
        let (file, n, k, offset) = Self::open_checked(path)?;
        let mmap = crate::sys::map_file(&file)
            .map_err(|e| MinesError::io(format!("{}", path.display()), e))?;
        Ok(Self {
            n,
            k,
            storage: Storage::Mapped { mmap, offset },
        })
    }

    /// Reads a map file into memory (N*N/8 bytes: 512 MiB at N = 65536) with the checks of
    /// [`MineMap::open`]. Unlike a mapped map, it cannot fault when another program
    /// truncates the file while it is used.
    pub fn read(path: &Path) -> Result<Self, MinesError> {
        let (mut file, n, k, offset) = Self::open_checked(path)?;
        let io = |e| MinesError::io(format!("{}", path.display()), e);
        let mut bits = vec![0u8; (u64::from(n) * u64::from(n) / 8) as usize];
        file.seek(SeekFrom::Start(offset as u64)).map_err(io)?;
        file.read_exact(&mut bits).map_err(io)?;
        Self::from_bits(n, k, bits)
    }

    /// Another map on the same bits: free for a map in memory ([`MineMap::from_bits`],
    /// [`MineMap::read`]), a copy of the bits of a mapped one.
    pub fn share(&self) -> Self {
        let bits = match &self.storage {
            Storage::Owned(bits) => Arc::clone(bits),
            Storage::Mapped { .. } => Arc::new(self.bits().to_vec()),
        };
        Self {
            n: self.n,
            k: self.k,
            storage: Storage::Owned(bits),
        }
    }

    /// A map file opened and checked: the file, N, K and where the bits start.
    fn open_checked(path: &Path) -> Result<(File, u32, u64, usize), MinesError> {
        let bad = |reason: String| MinesError::BadMap {
            path: path.to_path_buf(),
            reason,
        };
        let mut file = open_regular(path)?;
        let mut head = [0u8; MAX_HEADER];
        let mut got = 0;
        while got < head.len() {
            let read = file
                .read(&mut head[got..])
                .map_err(|e| MinesError::io(format!("{}", path.display()), e))?;
            if read == 0 {
                break;
            }
            got += read;
        }
        let Some(newline) = head[..got].iter().position(|&b| b == b'\n') else {
            return Err(bad(format!(
                "no header line `N K` in the first {MAX_HEADER} bytes"
            )));
        };
        let (n, k) = parse_header(&head[..newline]).map_err(bad)?;
        let offset = newline + 1;
        let want = offset as u64 + u64::from(n) * u64::from(n) / 8;
        let size = file
            .metadata()
            .map_err(|e| MinesError::io(format!("{}", path.display()), e))?
            .len();
        if size != want {
            return Err(bad(format!(
                "file has {size} bytes; a {n} x {n} map needs {want} ({offset} header + {} map)",
                want - offset as u64
            )));
        }
        Ok((file, n, k, offset))
    }

    /// A map from its bits (N*N/8 bytes) and its declared mine count.
    pub fn from_bits(n: u32, k: u64, bits: Vec<u8>) -> Result<Self, MinesError> {
        let n = check_size(u64::from(n))?;
        let want = u64::from(n) * u64::from(n) / 8;
        if bits.len() as u64 != want {
            return Err(MinesError::BadParameters(format!(
                "{} bytes of bits for a {n} x {n} map; it needs {want}",
                bits.len()
            )));
        }
        Ok(Self {
            n,
            k,
            storage: Storage::Owned(Arc::new(bits)),
        })
    }

    /// A map with mines exactly at `mines` (for tests and examples).
    ///
    /// # Errors
    /// A size the format does not hold, a mine off the board, or one listed twice (the map
    /// would hold fewer mines than were given).
    pub fn from_mines(n: u32, mines: &[(u32, u32)]) -> Result<Self, MinesError> {
        let n = check_size(u64::from(n))?;
        let mut bits = vec![0u8; (u64::from(n) * u64::from(n) / 8) as usize];
        for &(r, c) in mines {
            if r >= n || c >= n {
                return Err(MinesError::BadParameters(format!(
                    "mine ({r}, {c}) outside the {n} x {n} board"
                )));
            }
            let i = r as usize * n as usize + c as usize;
            if bits[i / 8] & 1 << (i % 8) != 0 {
                return Err(MinesError::BadParameters(format!(
                    "mine ({r}, {c}) is listed twice"
                )));
            }
            bits[i / 8] |= 1 << (i % 8);
        }
        let k = bits.iter().map(|b| u64::from(b.count_ones())).sum();
        Self::from_bits(n, k, bits)
    }

    /// Checks that (r, c) is a cell of the board, as a front end's arguments give it.
    ///
    /// # Errors
    /// A cell off the board.
    pub fn check_cell(&self, r: u32, c: u32) -> Result<(), MinesError> {
        let n = self.n;
        if r >= n || c >= n {
            return Err(MinesError::BadParameters(format!(
                "cell ({r}, {c}) is outside the {n} x {n} board"
            )));
        }
        Ok(())
    }

    /// The board side N.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// The mine count K from the header.
    pub fn k(&self) -> u64 {
        self.k
    }

    /// The N*N/8 bytes of mine bits.
    pub fn bits(&self) -> &[u8] {
        match &self.storage {
            Storage::Mapped { mmap, offset } => &mmap[*offset..],
            Storage::Owned(bits) => bits,
        }
    }

    /// Whether cell (r, c) holds a mine; cells off the board hold none.
    #[inline]
    pub fn is_mine(&self, r: i64, c: i64) -> bool {
        let n = i64::from(self.n);
        if r < 0 || c < 0 || r >= n || c >= n {
            return false;
        }
        let i = (r * n + c) as usize;
        self.bits()[i >> 3] >> (i & 7) & 1 == 1
    }

    /// The number of mines among the 8 neighbours of (r, c).
    #[inline]
    pub fn number(&self, r: i64, c: i64) -> u8 {
        let n = i64::from(self.n);
        if r >= 1 && c >= 1 && r + 1 < n && c + 1 < n {
            // Interior: three 3-bit windows, one per row, each within two bytes.
            let bits = self.bits();
            let window = |row: i64| {
                let i = (row * n + c - 1) as usize;
                let pair =
                    u16::from(bits[i >> 3]) | u16::from(*bits.get((i >> 3) + 1).unwrap_or(&0)) << 8;
                (pair >> (i & 7)) & 0b111
            };
            let around = window(r - 1).count_ones()
                + window(r + 1).count_ones()
                + (window(r) & 0b101).count_ones();
            return around as u8;
        }
        let mut count = 0;
        for dr in -1..=1 {
            for dc in -1..=1 {
                if (dr, dc) != (0, 0) && self.is_mine(r + dr, c + dc) {
                    count += 1;
                }
            }
        }
        count
    }

    /// Counts the mines actually in the bits (in parallel).
    pub fn count_mines(&self) -> u64 {
        self.bits()
            .par_chunks(1 << 20)
            .map(|chunk| chunk.iter().map(|b| u64::from(b.count_ones())).sum::<u64>())
            .sum()
    }
}

/// Writes a map file atomically: a temporary file beside `path`, then a rename. Refuses to
/// replace an existing file unless `force`, and never replaces anything but a regular file
/// (a device, a directory or a symbolic link named by `path` is left alone).
pub fn write_map(path: &Path, n: u32, k: u64, bits: &[u8], force: bool) -> Result<(), MinesError> {
    write_map_interruptible(path, n, k, bits, force, &StopFlag::new())
}

/// Bytes written between two looks at the stop flag.
const WRITE_CHUNK: usize = 1 << 20;

/// [`write_map`], stopping with [`MinesError::Interrupted`] once `stop` is raised (by a
/// signal handler, say): the temporary file is removed and `path` is left as it was.
///
/// Temporary files that earlier writers into the same directory left behind when they were
/// killed outright (`.NAME.tmp-PID` of this user, whose process is gone) are removed first.
/// Errors name `path`, not the temporary file, which the user never asked for.
pub fn write_map_interruptible(
    path: &Path,
    n: u32,
    k: u64,
    bits: &[u8],
    force: bool,
    stop: &StopFlag,
) -> Result<(), MinesError> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_file() {
            return Err(MinesError::BadParameters(format!(
                "{} is not a regular file; refusing to replace it",
                path.display()
            )));
        }
        if !force {
            return Err(MinesError::BadParameters(format!(
                "{} exists (use --force to overwrite)",
                path.display()
            )));
        }
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    remove_stale_temporaries(dir);
    let mut tmp = PathBuf::from(path);
    let name = path
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    tmp.set_file_name(format!(".{name}.tmp-{}", std::process::id()));
    let io = |e| MinesError::io(format!("writing {}", path.display()), e);
    let stopped = || -> Result<(), MinesError> {
        if stop.is_stopped() {
            Err(MinesError::Interrupted)
        } else {
            Ok(())
        }
    };
    let result = (|| {
        stopped()?;
        let mut file = std::io::BufWriter::with_capacity(1 << 20, File::create(&tmp).map_err(io)?);
        writeln!(file, "{n} {k}").map_err(io)?;
        for chunk in bits.chunks(WRITE_CHUNK) {
            stopped()?;
            file.write_all(chunk).map_err(io)?;
        }
        file.into_inner()
            .map_err(|e| io(e.into_error()))?
            .sync_all()
            .map_err(io)?;
        stopped()?;
        std::fs::rename(&tmp, path)
            .map_err(|e| MinesError::io(format!("renaming to {}", path.display()), e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The writer's process id in a temporary file name `.NAME.tmp-PID`, if it is one.
fn temporary_owner(name: &std::ffi::OsStr) -> Option<i32> {
    let name = name.to_str()?;
    let (head, pid) = name.rsplit_once(".tmp-")?;
    if !head.starts_with('.') || head.len() < 2 || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    pid.parse().ok().filter(|&pid| pid > 0)
}

/// Removes the temporary map files in `dir` whose writer is gone: regular files of this user
/// named `.NAME.tmp-PID` where no process PID exists. Failures are ignored (the directory
/// may not be readable; another writer may remove the same file first).
fn remove_stale_temporaries(dir: &Path) {
    use std::os::unix::fs::MetadataExt;
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let me = nix::unistd::geteuid().as_raw();
    for entry in entries.flatten() {
        let Some(pid) = temporary_owner(&entry.file_name()) else {
            continue;
        };
        let Ok(meta) = entry.metadata() else {
            continue;
        };
        let gone = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None)
            == Err(nix::errno::Errno::ESRCH);
        if meta.file_type().is_file() && meta.uid() == me && gone {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header_rules() {
        assert_eq!(parse_header(b"16 32"), Ok((16, 32)));
        assert!(parse_header(b"15 32").is_err());
        assert!(parse_header(b"16").is_err());
        assert!(parse_header(b"16 257").is_err());
        assert!(parse_header(b"16 3 4").is_err());
        assert!(parse_header(b"131072 1").is_err());
    }

    #[test]
    fn numbers_count_neighbours_and_ignore_the_edge() {
        let map = MineMap::from_mines(16, &[(0, 0), (1, 1), (15, 15)]).unwrap();
        assert_eq!(map.k(), 3);
        assert_eq!(map.number(0, 1), 2);
        assert_eq!(map.number(1, 0), 2);
        assert_eq!(map.number(2, 2), 1);
        assert_eq!(map.number(14, 14), 1);
        assert_eq!(map.number(8, 8), 0);
        assert!(map.check_cell(15, 0).is_ok());
        assert_eq!(
            map.check_cell(0, 16).unwrap_err().to_string(),
            "cell (0, 16) is outside the 16 x 16 board"
        );
        assert!(map.is_mine(15, 15));
        assert!(!map.is_mine(16, 15));
        assert!(!map.is_mine(-1, 0));
        let twice = MineMap::from_mines(16, &[(2, 3), (0, 0), (2, 3)]).unwrap_err();
        assert!(
            twice.to_string().contains("mine (2, 3) is listed twice"),
            "{twice}"
        );
    }

    #[test]
    fn files_round_trip_and_bad_files_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("16.map");
        let map = MineMap::from_mines(16, &[(3, 4), (15, 0)]).unwrap();
        write_map(&path, 16, map.k(), map.bits(), false).unwrap();
        assert!(write_map(&path, 16, map.k(), map.bits(), false).is_err());
        let back = MineMap::open(&path).unwrap();
        assert_eq!((back.n(), back.k(), back.count_mines()), (16, 2, 2));
        assert!(back.is_mine(3, 4) && back.is_mine(15, 0) && !back.is_mine(4, 3));

        std::fs::write(&path, b"16 2\nabc").unwrap();
        let err = MineMap::open(&path).unwrap_err().to_string();
        assert!(err.contains("file has 8 bytes"), "{err}");
        std::fs::write(&path, b"garbage").unwrap();
        let err = MineMap::open(&path).unwrap_err().to_string();
        assert!(err.contains("no header"), "{err}");
    }

    #[test]
    fn a_read_map_holds_its_bits_and_shares_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("16.map");
        let map = MineMap::from_mines(16, &[(3, 4), (15, 0)]).unwrap();
        write_map(&path, 16, map.k(), map.bits(), false).unwrap();
        let read = MineMap::read(&path).unwrap();
        // The file is not used after the read: truncating it changes nothing.
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(3)
            .unwrap();
        let shared = read.share();
        assert_eq!((read.n(), read.k(), read.bits()), (16, 2, map.bits()));
        assert_eq!(shared.bits().as_ptr(), read.bits().as_ptr());
        let err = MineMap::read(&path).unwrap_err().to_string();
        assert!(err.contains("no header line"), "{err}");
    }

    #[test]
    fn only_regular_files_are_maps() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("f.map");
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::S_IRWXU).unwrap();
        for path in [fifo.as_path(), dir.path()] {
            let err = MineMap::open(path).unwrap_err().to_string();
            assert!(err.ends_with(": not a regular file"), "{err}");
        }
    }

    #[test]
    fn a_stopped_write_leaves_nothing_and_stale_temporaries_are_recognised() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("16.map");
        let map = MineMap::from_mines(16, &[(3, 4)]).unwrap();
        let stop = StopFlag::new();
        stop.stop();
        let got = write_map_interruptible(&path, 16, 1, map.bits(), false, &stop);
        assert!(matches!(got, Err(MinesError::Interrupted)), "{got:?}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);

        let owner = |name: &str| temporary_owner(std::ffi::OsStr::new(name));
        assert_eq!(owner(".big.map.tmp-405"), Some(405));
        assert_eq!(owner(".a.tmp-1.tmp-7"), Some(7));
        for other in [
            "big.map.tmp-405",
            ".tmp-405",
            ".x.tmp-",
            ".x.tmp-4a",
            ".x.tmp-0",
        ] {
            assert_eq!(owner(other), None, "{other}");
        }
    }
}
