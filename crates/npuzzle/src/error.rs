//! Errors of the sliding-tile crate.

use thiserror::Error;

pub(crate) use ply_search::messages::excerpt;

pub(crate) use ply_search::messages::plural;

/// What is wrong with one instance line.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum BoardError {
    /// The line does not hold 9, 16 or 25 numbers.
    #[error("expected 9, 16 or 25 numbers (a 3x3, 4x4 or 5x5 board), found {0}")]
    WrongCount(usize),
    /// A token is not a non-negative integer (its text, shortened by [`excerpt`]).
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
    /// Pattern databases of another puzzle size were given for this board.
    #[error(
        "the pattern databases are for {database}x{database} boards, this board is {board}x{board}"
    )]
    WrongSize {
        /// The board's width.
        board: usize,
        /// The databases' width.
        database: usize,
    },
    /// The permutation cannot reach the goal (wrong parity).
    #[error("unsolvable: this permutation has the wrong parity to reach the goal 0 1 2 ...")]
    Unsolvable,
}

/// Text that is no move of the blank: not one of the letters `U L R D` (either case), shortened
/// by [`excerpt`].
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("'{0}' is not a move (expected U, L, R or D: the blank's direction)")]
pub struct NotAMove(pub String);

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

/// A problem with a pattern database: its partition, its file, or its use.
#[derive(Debug, Error)]
pub enum PdbError {
    /// The tiles do not form a valid partition.
    #[error("invalid partition: {0}")]
    Partition(String),
    /// The database file is missing.
    #[error("pattern database {partition} not found at {path}")]
    Missing {
        /// The partition's name and puzzle size.
        partition: String,
        /// Where it was looked for.
        path: String,
    },
    /// The file exists but is not a sound database for the partition.
    #[error("{path}: {why}")]
    Corrupt {
        /// The file.
        path: String,
        /// What is wrong with it.
        why: String,
    },
    /// Reading or writing the file failed. The operating system's error is part of the
    /// message (and not also a `source`, which would make a printed chain say it twice).
    #[error("{path}: {error}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The database directory is there but is not a directory.
    #[error("{path}: not a directory (the pattern database directory)")]
    NotADirectory {
        /// The path.
        path: String,
    },
    /// A database is used on a board of another size.
    #[error("the {partition} database does not fit a {width}x{width} board")]
    WrongWidth {
        /// The database's partition and size.
        partition: String,
        /// The board's width.
        width: usize,
    },
}

/// Why [`solve_checked`](crate::solve_checked) has no report to give.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolveError {
    /// The board cannot be searched (unsolvable, or databases of another size).
    #[error(transparent)]
    Board(#[from] BoardError),
    /// The solver's answer failed its check (a bug in ply).
    #[error(transparent)]
    Wrong(#[from] ply_search::WrongAnswer),
}
