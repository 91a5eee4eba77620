//! The contest's process protocol: environment variables and the short messages on the pipes.
//!
//! Messages are NUL-terminated ASCII. Each is written with one `write` of fewer than
//! `PIPE_BUF` bytes, so one `read` receives it whole; readers also accept a message without
//! its NUL (the contest's own server sends none) and skip stray NULs.

use std::fs::File;
use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::time::{Duration, Instant};

use nix::poll::{PollFd, PollFlags, PollTimeout, poll};

use crate::error::MinesError;

pub use crate::sys::{
    CHANNELS, Entry, MAX_ENTRIES, REGION_SIZE, Region, SHM_SIZE, SharedMemory, futex_wait,
    futex_wake,
};

/// Set to 1 by the judge for both processes.
pub const LAUNCHED_BY_JUDGER: &str = "MINESWEEPER_LAUNCHED_BY_JUDGER";
/// The shared-memory object's name, for both processes.
pub const SHM_NAME: &str = "MINESWEEPER_SHM_NAME";
/// Server: descriptor to write to the player.
pub const GS_TO_PL: &str = "MINESWEEPER_FD_GS_TO_PL";
/// Server: descriptor to read from the player.
pub const GS_FROM_PL: &str = "MINESWEEPER_FD_GS_FROM_PL";
/// Server: descriptor to write to the judge.
pub const GS_TO_JU: &str = "MINESWEEPER_FD_GS_TO_JU";
/// Server: descriptor to read from the judge.
pub const GS_FROM_JU: &str = "MINESWEEPER_FD_GS_FROM_JU";
/// Server: the map file.
pub const MAP_FILE_PATH: &str = "MINESWEEPER_MAP_FILE_PATH";
/// Player: descriptor to write to the server.
pub const PL_TO_GS: &str = "MINESWEEPER_FD_PL_TO_GS";
/// Player: descriptor to read from the server.
pub const PL_FROM_GS: &str = "MINESWEEPER_FD_PL_FROM_GS";
/// Player: the score's constant A.
pub const CONSTANT_A: &str = "MINESWEEPER_CONSTANT_A";

/// Server, ply's own addition (a contest server ignores it, and ply's server works without
/// it): a descriptor on which to write `safe mines\n`, the distinct cells opened so far, a
/// few times a second, for the judge's progress bar.
pub const PROGRESS_FD: &str = "PLY_MINES_PROGRESS_FD";

/// The player's request for a channel.
pub const CREATE_CHANNEL: u8 = b'C';
/// The judge's request for the final counts.
pub const FINISH: u8 = b'F';
/// The lowest descriptor the judge places the pipes on.
pub const FIRST_FD: i32 = 102;

/// Reads a required environment variable.
pub fn env(name: &'static str) -> Result<String, MinesError> {
    std::env::var(name).map_err(|_| MinesError::Environment {
        name,
        reason: "not set (this program is meant to be started by a judge)".into(),
    })
}

/// Reads a required environment variable holding a path, which need not be UTF-8.
pub fn env_path(name: &'static str) -> Result<std::path::PathBuf, MinesError> {
    std::env::var_os(name)
        .map(std::path::PathBuf::from)
        .ok_or_else(|| MinesError::Environment {
            name,
            reason: "not set (this program is meant to be started by a judge)".into(),
        })
}

/// Reads a required environment variable holding a number.
pub fn env_number<T: std::str::FromStr>(name: &'static str) -> Result<T, MinesError> {
    let text = env(name)?;
    text.trim().parse().map_err(|_| MinesError::Environment {
        name,
        reason: format!("{text:?} is not a number"),
    })
}

/// Takes the descriptor a judge passed in environment variable `name`.
pub fn env_fd(name: &'static str) -> Result<File, MinesError> {
    crate::sys::inherited_fd(env_number(name)?).map_err(|e| MinesError::Environment {
        name,
        reason: e.to_string(),
    })
}

/// Checks that a judge launched this process.
pub fn require_judge() -> Result<(), MinesError> {
    env(LAUNCHED_BY_JUDGER).map(|_| ())
}

/// Sends one message, NUL-terminated.
pub fn send(file: &mut File, text: &str) -> std::io::Result<()> {
    let mut bytes = Vec::with_capacity(text.len() + 1);
    bytes.extend_from_slice(text.as_bytes());
    bytes.push(0);
    file.write_all(&bytes)
}

/// What one `read` from a pipe brought.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Received {
    /// A message, its NULs dropped.
    Message(String),
    /// Nothing yet: only NULs, or a read interrupted by a signal. Look again (after checking
    /// the caller's deadline and interrupt flag).
    Nothing,
    /// End of file: the writer closed its end.
    Closed,
}

/// Reads once: a message, nothing (stray NULs, a signal) or end of file. Call it when
/// [`readable`] says so, so that it does not block; it never reads twice, so a peer that
/// sends only NULs cannot hold the caller in it.
pub fn receive_once(file: &mut File) -> std::io::Result<Received> {
    let mut buf = [0u8; 256];
    let got = match file.read(&mut buf) {
        Ok(got) => got,
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => return Ok(Received::Nothing),
        Err(e) => return Err(e),
    };
    if got == 0 {
        return Ok(Received::Closed);
    }
    let text: String = String::from_utf8_lossy(&buf[..got])
        .chars()
        .filter(|&ch| ch != '\0')
        .collect();
    Ok(if text.is_empty() {
        Received::Nothing
    } else {
        Received::Message(text)
    })
}

/// Reads one message, blocking until it comes: `None` at end of file. NULs are dropped. For
/// a player, which its judge stops if the server never answers; a judge or a server waits
/// with [`readable`] and [`receive_once`] instead.
pub fn receive(file: &mut File) -> std::io::Result<Option<String>> {
    loop {
        match receive_once(file)? {
            Received::Message(text) => return Ok(Some(text)),
            Received::Closed => return Ok(None),
            Received::Nothing => {}
        }
    }
}

/// Waits until `file` is readable (or closed), at most `timeout`; true if it is.
pub fn readable(file: &impl AsFd, timeout: Duration) -> Result<bool, MinesError> {
    let deadline = Instant::now() + timeout;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        let ms =
            PollTimeout::try_from(left.as_millis().min(60_000) as u32).unwrap_or(PollTimeout::MAX);
        let mut fds = [PollFd::new(file.as_fd(), PollFlags::POLLIN)];
        match poll(&mut fds, ms) {
            Ok(0) if left.is_zero() => return Ok(false),
            Ok(0) => continue,
            Ok(_) => return Ok(true),
            Err(nix::Error::EINTR) => continue,
            Err(e) => return Err(e.into()),
        }
    }
}

/// The server's final report: `0 N K safe_opened mines_opened`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    /// Board side.
    pub n: u64,
    /// Mines on the board.
    pub k: u64,
    /// Distinct safe cells opened.
    pub safe: u64,
    /// Distinct mines opened.
    pub mines: u64,
}

impl Report {
    /// The message for the judge.
    pub fn encode(&self) -> String {
        format!("0 {} {} {} {}", self.n, self.k, self.safe, self.mines)
    }

    /// Parses the server's report; `None` for anything else (an error message).
    pub fn decode(text: &str) -> Option<Self> {
        let fields: Vec<u64> = text
            .split_ascii_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .ok()?;
        match fields[..] {
            [0, n, k, safe, mines] => Some(Self { n, k, safe, mines }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_round_trip_and_errors_are_not_reports() {
        let report = Report {
            n: 512,
            k: 32768,
            safe: 229376,
            mines: 3,
        };
        assert_eq!(Report::decode(&report.encode()), Some(report));
        assert_eq!(Report::decode("0 512 32768 1"), None);
        assert_eq!(
            Report::decode("Error! The player's program has opened too many channels."),
            None
        );
    }

    #[test]
    fn one_read_at_a_time_and_nuls_are_not_messages() {
        let (read, write) = nix::unistd::pipe().unwrap();
        let (mut read, mut write) = (File::from(read), File::from(write));
        write.write_all(b"\0\0").unwrap();
        assert_eq!(receive_once(&mut read).unwrap(), Received::Nothing);
        send(&mut write, "12").unwrap();
        assert_eq!(
            receive_once(&mut read).unwrap(),
            Received::Message("12".into())
        );
        write.write_all(b"\0").unwrap();
        send(&mut write, "3 4").unwrap();
        drop(write);
        assert_eq!(receive(&mut read).unwrap(), Some("3 4".into()));
        assert_eq!(receive_once(&mut read).unwrap(), Received::Closed);
    }
}
