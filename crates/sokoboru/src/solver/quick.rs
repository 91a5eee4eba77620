//! A first answer fast: a portfolio of greedy searches for any solution, to have an answer for
//! every case before any time goes to better ones.

use ply_search::{AStarError, Limits};

use super::estimate::Estimator;
use super::pushes::moves_along;
use super::{SolveError, Unproven, Weighted, counting, weighted_search, with_default_memory};
use crate::bound::Bound;
use crate::puzzle::Puzzle;

/// The portfolio's searches: the weight `w` of each (`f = g + w h`), in the order tried each
/// round, and the share of the round's node budget it gets (`1/d`). Which weight finds a
/// solution soonest differs from board to board, by factors of ten and more: a greedy search
/// walks into regions of dead positions the estimate cannot see, which a lower weight may skirt
/// and a higher one may cross faster. These were chosen by replaying, for each board of the
/// course's files and of random hard ones, the nodes each weight needs (ledger row "first
/// answer: a portfolio of weights").
const PORTFOLIO: [(u32, u64); 4] = [(3, 1), (5, 1), (16, 2), (4, 1)];

/// The node budget of a full share in the first round; each round multiplies it by
/// [`GROWTH`], so that the repeated work stays a fixed share of the last round's.
const FIRST_ROUND_NODES: u64 = 10_000;
/// How much each round's budget grows.
const GROWTH: u64 = 4;

/// Some solution of `puzzle`, found fast on one thread: weighted A* searches over pushes
/// (Pohl, *Heuristic search viewed as path finding in a graph*, Artificial Intelligence 1,
/// 1970) at each weight of a portfolio in turn, restarted with a budget four times larger each
/// round (restarts with growing budgets, as in Luby, Sinclair and Zuckerman, *Optimal speedup
/// of Las Vegas algorithms*, 1993), until one finds a solution. Its penalty is only an upper
/// bound on the optimum.
///
/// # Errors
/// [`SolveError::NoSolution`] when a search ran through every reachable live state (the puzzle
/// cannot be solved), [`SolveError::GaveUp`] when a budget in `limits` ran out first.
pub fn first_answer(puzzle: &Puzzle, limits: Limits) -> Result<Unproven, SolveError> {
    portfolio(puzzle, limits).answer
}

/// What [`portfolio`] found.
#[derive(Clone, Debug)]
pub(crate) struct Portfolio {
    /// [`first_answer`]'s answer.
    pub(crate) answer: Result<Unproven, SolveError>,
    /// The states its searches generated, all of them.
    pub(crate) generated: u64,
    /// An admissible bound at the start (the larger of the matching and the one-box game):
    /// no solution is cheaper.
    pub(crate) lower_bound: u32,
}

/// [`first_answer`], with the states its searches generated and the bound at the start.
pub(crate) fn portfolio(puzzle: &Puzzle, limits: Limits) -> Portfolio {
    let limits = with_default_memory(limits);
    let started = std::time::Instant::now();
    let bound = Bound::new(puzzle);
    let estimator = Estimator::new(puzzle);
    let start_h = bound.estimate(&puzzle.start).unwrap_or_default();
    let lower_bound = estimator
        .duo
        .estimate(&puzzle.start)
        .map_or(start_h, |duo| duo.max(start_h));
    let mut generated = 0;
    let mut round_nodes = FIRST_ROUND_NODES;
    loop {
        for (weight, share) in PORTFOLIO {
            let nodes = round_nodes / share;
            let left = limits.remaining(generated, started.elapsed());
            let capped = left.max_nodes.is_some_and(|n| n <= nodes);
            let round = left
                .clone()
                .with_max_nodes(nodes.min(left.max_nodes.unwrap_or(u64::MAX)));
            match weighted_search(
                puzzle,
                &bound,
                &estimator,
                start_h,
                Weighted {
                    weight: (weight, 1),
                    below: None,
                    batch: 1,
                },
                round,
            ) {
                Ok(found) => {
                    let found_it = Unproven {
                        moves: moves_along(puzzle, &found.path),
                        penalty: found.cost,
                    };
                    return Portfolio {
                        answer: Ok(found_it),
                        generated: generated + found.stats.generated,
                        lower_bound,
                    };
                }
                Err(AStarError::NoSolution(stats)) => {
                    return Portfolio {
                        answer: Err(SolveError::NoSolution(stats.stored)),
                        generated: generated + stats.generated,
                        lower_bound,
                    };
                }
                Err(reason) => {
                    generated += reason.stats().generated;
                    let out_of_nodes = matches!(
                        reason,
                        AStarError::GaveUp {
                            why: ply_search::GiveUp::NodeLimit,
                            ..
                        }
                    );
                    // The caller's budget ran out, not this round's.
                    if !out_of_nodes || capped {
                        let earlier = generated - reason.stats().generated;
                        let gave_up = SolveError::GaveUp {
                            reason: counting(reason, earlier),
                            lower_bound,
                            best: None,
                        };
                        return Portfolio {
                            answer: Err(gave_up),
                            generated,
                            lower_bound,
                        };
                    }
                }
            }
        }
        round_nodes = round_nodes.saturating_mul(GROWTH);
    }
}

/// The weight of [`cheaper_answer`]'s search: low enough that its solutions come close to the
/// optimum, high enough to find them in a fraction of a second on the course's boards. Going
/// on at lower weights while time lasts, or a lower weight alone, made the course's files
/// dearer at a 1 s deadline (ledger row "cheaper answer: one weight").
const CHEAPER: u32 = 2;

/// What [`cheaper_answer`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cheaper {
    /// The cheapest solution found: the one in hand if none was cheaper.
    pub best: Unproven,
    /// Whether `best` is proven optimal.
    pub optimal: bool,
    /// The states its search generated.
    pub generated: u64,
}

/// A solution of `puzzle` cheaper than `best` (one in hand), by a weighted search on one
/// thread that lists only the pushes whose admissible `f` stays below `best`'s penalty; when
/// it runs out of states without one, `best` is optimal (as the last search of ARA*,
/// Likhachev, Gordon and Thrun, *ARA\*: Anytime A\* with provable bounds on
/// sub-optimality*, NIPS 2003). When `limits` run out first, `best` comes back unproven.
#[must_use]
pub fn cheaper_answer(puzzle: &Puzzle, best: &Unproven, limits: Limits) -> Cheaper {
    let limits = with_default_memory(limits);
    let bound = Bound::new(puzzle);
    let estimator = Estimator::new(puzzle);
    let start_h = bound.estimate(&puzzle.start).unwrap_or_default();
    let weighted = Weighted {
        weight: (CHEAPER, 1),
        below: Some(best.penalty),
        batch: 1,
    };
    match weighted_search(puzzle, &bound, &estimator, start_h, weighted, limits) {
        Ok(found) => Cheaper {
            best: Unproven {
                moves: moves_along(puzzle, &found.path),
                penalty: found.cost,
            },
            optimal: false,
            generated: found.stats.generated,
        },
        Err(AStarError::NoSolution(stats)) => Cheaper {
            best: best.clone(),
            optimal: true,
            generated: stats.generated,
        },
        Err(other) => Cheaper {
            best: best.clone(),
            optimal: false,
            generated: other.stats().generated,
        },
    }
}
