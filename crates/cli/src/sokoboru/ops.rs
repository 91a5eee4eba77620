//! What the `ply sokoboru` commands, the terminal game and the demo share: loading puzzle
//! files, and a whole file solved with every answer replayed before anyone sees it.

use crate::format::read_parsed;
use anyhow::{Result, bail};
use ply_sokoboru::{Answer, FileOptions, Progress, Puzzle, SolveError, parse_puzzles, replay};

/// Reads and parses a puzzle file (or standard input for `-`).
pub(super) fn load_puzzles(path: impl AsRef<std::path::Path>) -> Result<Vec<Puzzle>> {
    read_parsed(path, parse_puzzles)
}

/// Fails unless `moves` solve `puzzle` with exactly `penalty`.
pub(super) fn check_replay(
    puzzle: &Puzzle,
    moves: &[ply_sokoboru::Dir],
    penalty: u32,
) -> Result<()> {
    let replayed = replay(puzzle, moves)
        .map_err(|(i, why)| anyhow::anyhow!("internal error: move {} is illegal: {why}", i + 1))?;
    if replayed.left != 0 || replayed.penalty != penalty {
        bail!("internal error: the solver's answer does not replay to its penalty");
    }
    Ok(())
}

/// Fails unless every solution in `answer` replays to its penalty.
pub(super) fn check_answer(puzzle: &Puzzle, answer: &Answer) -> Result<()> {
    match answer {
        Ok(solution) => check_replay(puzzle, &solution.moves, solution.penalty),
        Err(SolveError::GaveUp {
            best: Some(best), ..
        }) => check_replay(puzzle, &best.moves, best.penalty),
        Err(_) => Ok(()),
    }
}

/// Solves a file with [`ply_sokoboru::solve_file`] and hands each case's answer, checked by
/// replay, to `report` in file order.
///
/// # Errors
/// An answer failed its check, or `report` failed.
pub(crate) fn solve_file(
    puzzles: &[Puzzle],
    options: &FileOptions,
    progress: &Progress,
    mut report: impl FnMut(usize, Answer) -> Result<()> + Send,
) -> Result<()> {
    ply_sokoboru::solve_file(puzzles, options, progress, |at, answer| {
        check_answer(&puzzles[at], &answer)?;
        report(at, answer)
    })
}
