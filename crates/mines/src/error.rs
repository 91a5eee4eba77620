//! The one error type of ply-mines.

use std::path::PathBuf;

/// Everything that can go wrong in maps, the server, the judge and the client.
#[derive(Debug, thiserror::Error)]
pub enum MinesError {
    /// A map file's header or size is wrong.
    #[error("{path}: {reason}")]
    BadMap {
        /// The map file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// Map parameters out of range (size not a power of two, too many mines, ...).
    #[error("{0}")]
    BadParameters(String),
    /// An environment variable the protocol needs is missing or malformed.
    #[error("environment variable {name}: {reason}")]
    Environment {
        /// The variable.
        name: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// The peer broke the process protocol.
    #[error("protocol: {0}")]
    Protocol(String),
    /// Stopped on request (the caller's stop flag, raised by a signal, say) before the work
    /// was done; nothing was left behind.
    #[error("interrupted")]
    Interrupted,
    /// A system call failed. The operating system's error is part of the message (and not
    /// also a `source`, which would make a printed chain say it twice).
    #[error("{what}: {error}")]
    Io {
        /// What was being done.
        what: String,
        /// The underlying error.
        error: std::io::Error,
    },
}

impl MinesError {
    /// Wraps an I/O error with what was being done.
    pub fn io(what: impl Into<String>, source: std::io::Error) -> Self {
        Self::Io {
            what: what.into(),
            error: source,
        }
    }
}

impl From<nix::Error> for MinesError {
    fn from(e: nix::Error) -> Self {
        Self::io("system call", std::io::Error::from(e))
    }
}
