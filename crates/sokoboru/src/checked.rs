//! Every answer checked before anyone sees it: the `ply` command and the Python binding both
//! solve through here, so that an answer whose moves do not replay to its penalty is an error
//! rather than output.

use ply_search::{Limits, WrongAnswer};

use crate::puzzle::Puzzle;
use crate::schedule::{FileOptions, Progress, solve_file};
use crate::solver::{Answer, CaseReport, SolveError, solved};
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

/// Checks a report's solution, proven or not (a report without one has nothing to replay).
///
/// # Errors
/// As [`check_moves`].
pub fn check_report(puzzle: &Puzzle, report: &CaseReport) -> Result<(), WrongAnswer> {
    match (report.moves(), report.cost()) {
        (Some(moves), Some(penalty)) => check_moves(puzzle, moves, penalty),
        _ => Ok(()),
    }
}

/// [`solve`](crate::solve) as ply-search's one record, with its solution checked
/// ([`check_report`]) before anyone sees it: one case on the threads of the caller's rayon
/// pool, within `limits` (a deadline among them).
///
/// ```
/// use ply_search::Limits;
/// use ply_sokoboru::{parse_puzzles, solve_checked};
/// let puzzles = parse_puzzles("1 6\n@O---$\n")?;
/// let report = solve_checked(&puzzles[0], &Limits::UNLIMITED)?;
/// assert_eq!((report.cost(), report.proven(), report.lower_bound), (Some(1), true, 1));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The solution fails its check (a bug in ply).
pub fn solve_checked(puzzle: &Puzzle, limits: &Limits) -> Result<CaseReport, WrongAnswer> {
    let report = solved(puzzle, limits.clone()).report();
    check_report(puzzle, &report)?;
    Ok(report)
}

/// [`solve_file`], with each case's report checked ([`check_report`]) before `report` sees
/// it. `limits` bound each case (its nodes and time shared by all of its searches, as
/// [`solve_checked`]'s), and their deadline is the whole file's; the cases run on `threads`
/// threads.
///
/// ```
/// use ply_search::Limits;
/// use ply_sokoboru::{Progress, parse_puzzles, solve_file_checked};
/// let puzzles = parse_puzzles("1 6\n@O---$\n")?;
/// let mut penalties = Vec::new();
/// solve_file_checked(&puzzles, 1, &Limits::UNLIMITED, &Progress::new(1), |_, case| {
///     penalties.push(case.cost());
///     Ok::<(), ply_search::WrongAnswer>(())
/// })?;
/// assert_eq!(penalties, [Some(1)]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The first report that fails its check, or the first error of `report`.
pub fn solve_file_checked<E>(
    puzzles: &[Puzzle],
    threads: usize,
    limits: &Limits,
    progress: &Progress,
    mut report: impl FnMut(usize, CaseReport) -> Result<(), E> + Send,
) -> Result<(), E>
where
    E: From<WrongAnswer> + Send,
{
    let options = FileOptions {
        threads,
        limits: limits.clone(),
    };
    solve_file(puzzles, &options, progress, |at, case| {
        check_report(&puzzles[at], &case)?;
        report(at, case)
    })
}
