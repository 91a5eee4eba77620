//! Errors of the sliding-tile crate.

use thiserror::Error;

/// What is wrong with one instance line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// The line does not hold 9, 16 or 25 numbers.
    #[error("expected 9, 16 or 25 numbers (a 3x3, 4x4 or 5x5 board), found {0}")]
    WrongCount(usize),
    /// A token is not a non-negative integer.
    #[error("'{0}' is not a tile number")]
    NotANumber(String),
    /// A tile number is too large for the board.
    #[error("tile {value} is out of range 0..={max}")]
    OutOfRange {
        /// The offending value.
        value: u64,
        /// The largest tile of this board size.
        max: usize,
    },
    /// A tile appears twice.
    #[error("tile {0} appears twice")]
    Duplicate(u8),
    /// The permutation cannot reach the goal (wrong parity).
    #[error("unsolvable: this permutation has the wrong parity to reach the goal 0 1 2 ...")]
    Unsolvable,
}

/// A problem with an instance file, naming its line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum InstanceError {
    /// A bad board on a line (1-based).
    #[error("line {line}: {error}")]
    Board {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        error: BoardError,
    },
    /// A bad field in an instance-set (TSV) line.
    #[error("line {line}: {message}")]
    Field {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The file holds no instance.
    #[error("no instance found (expected one board per line)")]
    Empty,
}
