//! What the `ply sokoboru` commands, the terminal game and the demo share: loading puzzle
//! files, and a whole file solved with every answer replayed before anyone sees it.

use crate::format::read_parsed;
use anyhow::Result;
use ply_search::Limits;
use ply_sokoboru::{CaseReport, Progress, Puzzle, parse_puzzles, solve_file_checked};

/// Reads and parses a puzzle file (or standard input for `-`).
pub(super) fn load_puzzles(path: impl AsRef<std::path::Path>) -> Result<Vec<Puzzle>> {
    read_parsed(path, parse_puzzles)
}

/// Solves a file with ply-sokoboru's [`solve_file_checked`] on `threads` threads within
/// `limits` (the file's deadline among them) and hands each case's report, checked by
/// replay, to `report` in file order.
///
/// # Errors
/// An answer failed its check, or `report` failed.
pub(crate) fn solve_file(
    puzzles: &[Puzzle],
    threads: usize,
    limits: &Limits,
    progress: &Progress,
    report: impl FnMut(usize, CaseReport) -> Result<()> + Send,
) -> Result<()> {
    solve_file_checked(puzzles, threads, limits, progress, report)
}
