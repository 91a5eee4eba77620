//! One search of a case: what sets it apart from the others (a [`Search`]), and the one
//! function that runs it on ply-search's A*.

use ply_search::{AStarError, AStarOptions, AStarStats, Limits, Resumable, astar_with};

use super::board::Board;
pub(crate) use super::board::Techniques;
use super::estimate::{Children, Estimator};
use super::frozen_tables::FrozenTables;
use super::key::Key;
use super::layouts::Layouts;
use super::tuning::FIT_SAMPLES;
use crate::bound::Bound;
use crate::drift::Drift;
use crate::puzzle::Puzzle;
use crate::state::State;

/// How a search weighs its estimates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `f = g + h` with every bound the board's [`Techniques`] allow: its first solution is
    /// optimal, and running out of states proves that nothing cheaper exists.
    Exact,
    /// `f = g + num / den * h` with the matching and the walk to the next push alone, which
    /// finds solutions sooner and cheaper than the exact estimates (ledger row "weighted
    /// searches: plain estimates"). Not optimal, but one that runs out of states below a
    /// penalty proves that nothing cheaper exists all the same: it lists every push whose
    /// admissible `f` stays below it and reopens states reached more cheaply.
    Weighted {
        /// The weight's numerator.
        num: u32,
        /// The weight's denominator.
        den: u32,
    },
}

/// One search of a case.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Search {
    /// How it weighs its estimates.
    pub(crate) mode: Mode,
    /// It looks only for solutions cheaper than this (the penalty of the answer in hand).
    pub(crate) below: Option<u32>,
    /// States whose children are estimated in parallel at a time (1: on this thread alone).
    pub(crate) batch: usize,
    /// Whether it ends at the first solved position it stores rather than the first it takes
    /// (a weighted search's answer either way, not the cheapest).
    pub(crate) any: bool,
}

impl Search {
    /// A weighted search at `(num, den)` below `below`, `batch` states at a time.
    pub(crate) fn weighted((num, den): (u32, u32), below: Option<u32>, batch: usize) -> Search {
        Search {
            mode: Mode::Weighted { num, den },
            below,
            batch,
            any: false,
        }
    }

    /// This search, ending at the first solved position it stores when `any` is set.
    pub(crate) fn ending_at_any(self, any: bool) -> Search {
        Search { any, ..self }
    }
}

/// A solution a search found: its push states, the start first, and its penalty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// The push states.
    pub(crate) path: Vec<Key>,
    /// The penalty.
    pub(crate) penalty: u32,
}

/// Runs `search` on `board` within `limits`. An exact search fits its drift bound along
/// `along` (the solution in hand), or to the start without one.
///
/// # Errors
/// As [`astar_with`]: [`AStarError::NoSolution`] when no solution is cheaper than
/// `search.below` (none at all without it), or a budget ran out.
pub(crate) fn run(
    board: &Board<'_>,
    search: Search,
    along: Option<&[Key]>,
    limits: Limits,
) -> Result<(Found, AStarStats), AStarError> {
    let puzzle = board.puzzle;
    let start = Key::new(&puzzle.start);
    let solved = |key: &Key| key.state().is_solved();
    // No state whose `f` reaches `below` is stored: nothing through it is cheaper.
    let limit = search.below.map(|below| below.saturating_sub(1));
    match search.mode {
        Mode::Weighted { num, den } => {
            let estimator = weighted_estimator(board, search);
            let successors = weighted_successors(board, &estimator, (num, den), search.below);
            let options = AStarOptions::new()
                .limits(limits)
                .parallel(search.batch)
                .any_goal(search.any);
            let found = astar_with(&start, num * board.start_h, successors, solved, options)?;
            Ok((
                Found {
                    path: found.path,
                    penalty: found.cost / den,
                },
                found.stats,
            ))
        }
        Mode::Exact => {
            let techniques = board.techniques;
            let tables = FrozenTables::new(puzzle, board.bound.clone());
            let drift = if techniques.drift {
                fit_drift(puzzle, &board.bound, along)
            } else {
                None
            };
            let estimator = Estimator {
                duo: techniques.duo.then_some(&board.duo),
                drift,
                progress: techniques.progress,
                plain_guide: false,
            };
            let successors = |key: &Key, g: u32| {
                let state = key.state();
                if techniques.frozen_tables {
                    tables.with(puzzle, &state, |bound| {
                        estimator.children(puzzle, bound, &state, g, limit)
                    })
                } else {
                    estimator.children(puzzle, &board.bound, &state, g, limit)
                }
            };
            let start_h = estimator.start(&board.bound, &puzzle.start);
            // Two stored states with one layout differ only in the player's cell: the one
            // the other can walk to at no more than its own extra cost makes it redundant.
            let mut layouts = Layouts::new(puzzle);
            let dominated = |key: &Key, g: u32| techniques.dominance && layouts.dominated(key, g);
            let options = AStarOptions::new()
                .limits(limits)
                .upper_bound(limit)
                .dominance(dominated)
                .parallel(search.batch);
            let found = astar_with(&start, start_h, successors, solved, options)?;
            Ok((
                Found {
                    path: found.path,
                    penalty: found.cost,
                },
                found.stats,
            ))
        }
    }
}

/// Goes on with `paused`, the weighted search of `board` at `(num, den)` without an answer
/// in hand (its last run stopped by a budget, or not run yet; see [`paused_start`]), within
/// `limits`, ending at the first solved position stored when `any` is set: the search
/// [`run`] would make, done in runs. The counters returned are this run's.
///
/// # Errors
/// As [`run`].
pub(crate) fn resume(
    board: &Board<'_>,
    (num, den): (u32, u32),
    any: bool,
    paused: &mut Resumable<Key, u32>,
    limits: Limits,
) -> Result<(Found, AStarStats), AStarError> {
    // Without an answer in hand, the plain estimates (see `weighted_estimator`).
    let estimator = Estimator::plain();
    let successors = weighted_successors(board, &estimator, (num, den), None);
    let solved = |key: &Key| key.state().is_solved();
    let before = paused.stats().generated;
    let this_run = |mut stats: AStarStats| {
        stats.generated -= before;
        stats
    };
    match paused.resume(successors, solved, limits, any) {
        Ok(found) => Ok((
            Found {
                path: found.path,
                penalty: found.cost / den,
            },
            this_run(found.stats),
        )),
        Err(AStarError::NoSolution(stats)) => Err(AStarError::NoSolution(this_run(stats))),
        Err(AStarError::GaveUp { why, stats }) => Err(AStarError::GaveUp {
            why,
            stats: this_run(stats),
        }),
        Err(AStarError::MemoryLimit { limit, stats }) => Err(AStarError::MemoryLimit {
            limit,
            stats: this_run(stats),
        }),
    }
}

/// The weighted search of `board` at weight `num` (over any denominator), before its first
/// run: for [`resume`].
pub(crate) fn paused_start(board: &Board<'_>, num: u32) -> Resumable<Key, u32> {
    Resumable::new(&Key::new(&board.puzzle.start), num * board.start_h)
}

/// The estimates of a weighted search: the one-box game and the walk to progress below an
/// answer in hand (when the board's techniques allow), the plain ones otherwise.
fn weighted_estimator<'b>(board: &'b Board<'_>, search: Search) -> Estimator<'b> {
    match search.below {
        Some(_) if board.techniques.pruned_answers => Estimator {
            duo: Some(&board.duo),
            drift: None,
            progress: true,
            plain_guide: true,
        },
        _ => Estimator::plain(),
    }
}

/// The children of a weighted search's state reached at cost `g`, with their step costs
/// and weighted estimates, those whose `f` would reach `below` left out. Costs are scaled by
/// the weight's denominator, so that the weight is a whole number.
fn weighted_successors<'a>(
    board: &'a Board<'_>,
    estimator: &'a Estimator<'_>,
    (num, den): (u32, u32),
    below: Option<u32>,
) -> impl Fn(&Key, u32) -> Children + Sync + 'a {
    let limit = below.map(|below| below.saturating_sub(1));
    move |key: &Key, g: u32| {
        let mut children =
            estimator.children(board.puzzle, &board.bound, &key.state(), g / den, limit);
        for child in &mut children {
            child.1 *= den;
            child.2 *= num;
        }
        children
    }
}

/// The drift bound for the exact search, fitted to up to [`FIT_SAMPLES`] positions spread
/// along the solution in hand `path`, the start first (near which the exact search spends its
/// time), or to the start alone without one; `None` when it beats the matching at none of
/// them. A fit along the path raises the bound where the search spends its time, which a fit
/// to the start alone can miss; keeping both fits as two bounds saved too few expansions for
/// its cost per expansion (ledger row "drift: fitted along the path").
fn fit_drift(puzzle: &Puzzle, bound: &Bound, path: Option<&[Key]>) -> Option<Drift> {
    let live: Vec<State> = match path {
        Some(path) => path
            .iter()
            .map(|key| key.state())
            .filter(|state| state.empty != 0)
            .collect(),
        None => vec![puzzle.start],
    };
    let step = live.len().div_ceil(FIT_SAMPLES).max(1);
    let states: Vec<State> = live.into_iter().step_by(step).collect();
    Drift::fitted(puzzle, bound, &states)
}
