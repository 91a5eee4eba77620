//! Every answer checked before anyone sees it: the `ply` command and the Python binding both
//! solve through here, so that an answer whose moves do not replay to its penalty is an error
//! rather than output.

use ply_search::WrongAnswer;

use crate::puzzle::Puzzle;
use crate::schedule::{FileOptions, Progress, solve_file};
use crate::solver::{Answer, SolveError};
use crate::state::Dir;
use crate::verify::replay;

/// Checks that `moves` solve `puzzle` (no empty box left) with exactly `penalty`.
///
/// # Errors
/// An illegal move, an empty box left, or another penalty.
pub fn check_moves(puzzle: &Puzzle, moves: &[Dir], penalty: u32) -> Result<(), WrongAnswer> {
    let replayed = replay(puzzle, moves)
        .map_err(|(i, why)| WrongAnswer(format!("move {} is illegal: {why}", i + 1)))?;
    if replayed.left != 0 || replayed.penalty != penalty {
        return Err(WrongAnswer(
            "the moves do not replay to the answer's penalty".into(),
        ));
    }
    Ok(())
}

/// Checks an answer's solution, proven or the best found when a budget ran out (an answer
/// without one has nothing to replay).
///
/// # Errors
/// As [`check_moves`].
pub fn check_answer(puzzle: &Puzzle, answer: &Answer) -> Result<(), WrongAnswer> {
    match answer {
        Ok(solution) => check_moves(puzzle, &solution.moves, solution.penalty),
        Err(SolveError::GaveUp {
            best: Some(best), ..
        }) => check_moves(puzzle, &best.moves, best.penalty),
        Err(_) => Ok(()),
    }
}

/// [`solve_file`], with each case's answer checked ([`check_answer`]) before `report` sees it.
///
/// ```
/// use ply_sokoboru::{FileOptions, Progress, parse_puzzles, solve_file_checked};
/// let puzzles = parse_puzzles("1 6\n@O---$\n")?;
/// let mut penalties = Vec::new();
/// solve_file_checked(&puzzles, &FileOptions::default(), &Progress::new(1), |_, answer| {
///     penalties.push(answer.map(|s| s.penalty).ok());
///     Ok::<(), ply_search::WrongAnswer>(())
/// })?;
/// assert_eq!(penalties, [Some(1)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The first answer that fails its check, or the first error of `report`.
pub fn solve_file_checked<E>(
    puzzles: &[Puzzle],
    options: &FileOptions,
    progress: &Progress,
    mut report: impl FnMut(usize, Answer) -> Result<(), E> + Send,
) -> Result<(), E>
where
    E: From<WrongAnswer> + Send,
{
    solve_file(puzzles, options, progress, |at, answer| {
        check_answer(&puzzles[at], &answer)?;
        report(at, answer)
    })
}
