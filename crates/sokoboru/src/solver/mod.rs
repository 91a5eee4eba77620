//! An optimal solver: ply-search's A* over push states ([`ply_search::astar_with`], which
//! estimates the children of a batch of states in parallel).
//!
//! Between two pushes the objects stand still, so the player's cheapest walk is a shortest
//! path over free cells. The search therefore moves from push to push: a state is the object
//! layout plus the player's cell right after a push, and an edge is "walk to the cell behind an
//! object (breadth-first distance), then push it" with cost walk + push penalty. Every solution
//! decomposes this way, so the cheapest path of this graph is an optimal solution (Junghanns
//! and Schaeffer's Sokoban solvers search the same push graph). The heuristic is the largest
//! of three admissible bounds: the matching of [`crate::bound`] (pushes and slides) plus the
//! moves before the next push that may lower it (the walk to the nearest push, one more when
//! no push that near may lower the matching), the one-box, one-ball game of [`crate::duo`]
//! (which counts walking but only for one ball at a time), and the drift bound of
//! [`crate::drift`] (which counts the walks back between pushes that run one way), fitted to
//! positions along the weighted solution. All of them prune positions that can never be
//! solved. The exact search's matching counts the objects frozen in the position expanded as
//! walls, with pair costs kept per frozen layout ([`crate::frozen_tables`]).
//!
//! The exact search also drops a state when another one of the same layout, reached no
//! dearer than the walk between the two player cells allows, is stored (dominance), and it
//! leaves out children whose `f` exceeds the weighted search's solution before repairing
//! their matching: the parent's matching drops by at most one per push, so a child with a
//! long walk is often known to be too dear before its own matching is found. For the same
//! reason a push is not even listed when its walk alone would take the child past that bound.

mod estimate;
mod key;
mod layouts;
mod pushes;
mod quick;

use std::time::{Duration, Instant};

use ply_search::{AStarError, AStarOptions, Limits, PARALLEL_BATCH, astar_with};
use thiserror::Error;

use crate::bound::Bound;
use crate::drift::Drift;
use crate::frozen_tables::FrozenTables;
use crate::puzzle::Puzzle;
use crate::state::{Dir, State};
use estimate::Estimator;
use key::Key;
use layouts::Layouts;
use pushes::moves_along;
pub use quick::{Cheaper, cheaper_answer, first_answer};

/// An optimal solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    /// The moves.
    pub moves: Vec<Dir>,
    /// Their penalty (optimal).
    pub penalty: u32,
    /// States expanded by the search (the exact one; the weighted one's are not counted).
    pub expanded: u64,
    /// The penalty of the weighted search's solution, the upper bound that pruned the exact
    /// search (`None` when the weighted search ran out of nodes).
    pub upper: Option<u32>,
    /// Search time (the weighted searches included).
    pub elapsed: Duration,
}

/// Why no solution was returned.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SolveError {
    /// Every reachable state was searched: the puzzle has no solution.
    #[error("no solution: all {0} reachable states searched")]
    NoSolution(usize),
    /// A budget ran out before the optimum was proven.
    #[error("{reason}; the optimum is at least {lower_bound}")]
    GaveUp {
        /// The budget that ran out.
        reason: AStarError,
        /// What was proven by then: no solution is cheaper than this (the largest `f` the
        /// exact search reached, or the bound at the start).
        lower_bound: u32,
        /// The cheapest solution found on the way (by a weighted search), if any: legal, but
        /// not known to be optimal.
        best: Option<Unproven>,
    },
}

/// A legal solution whose penalty is not proven optimal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unproven {
    /// The moves.
    pub moves: Vec<Dir>,
    /// Their penalty, an upper bound on the optimum.
    pub penalty: u32,
}

/// The default memory cap of the solver's search (of all searches together when they share a
/// [`ply_search::MemoryPool`]), well inside the course's 4 GB.
///
/// The estimate counts the stored states' capacity but not the copies a growing table makes,
/// and resident memory runs to about 1.5 times the estimate, so the cap is half the course's
/// 4 GB (ledger row "memory cap"). The pair-cost tables of the layouts frozen during play
/// add at most about 80 MB per search.
pub const DEFAULT_MEMORY: usize = 2 << 30;

/// `limits`, capped at [`DEFAULT_MEMORY`] unless they cap memory themselves.
fn with_default_memory(limits: Limits) -> Limits {
    if limits.max_memory.is_none() && limits.memory_pool.is_none() {
        limits.with_max_memory(DEFAULT_MEMORY)
    } else {
        limits
    }
}

/// Nodes each weighted search that looks for an upper bound may generate.
const WEIGHTED_NODES: u64 = 10_000_000;
/// The heuristic's weights of those searches, tried in turn until one finds a solution.
const WEIGHTS: [u32; 3] = [2, 4, 8];

/// Solves `puzzle` to the optimal penalty.
///
/// # Errors
/// [`SolveError::NoSolution`] when the puzzle cannot be solved, [`SolveError::GaveUp`] when a
/// budget in `limits` runs out first (with the best solution found by then, if any).
pub fn solve(puzzle: &Puzzle, limits: Limits) -> Result<Solution, SolveError> {
    search(puzzle, limits, false, WEIGHTED_NODES)
}

/// Solves `puzzle` as [`solve`] does, but under a time limit keeps some time back for a better
/// answer in case the optimum cannot be proven in time: the exact search gets
/// [`EXACT_SHARE`] of the time left after the first weighted search, and if it stops
/// unfinished, the rest goes to weighted searches of falling weight that each look only for a
/// solution cheaper than the best so far (as in Likhachev, Gordon and Thrun's ARA*, *ARA\*:
/// Anytime A\* with provable bounds on sub-optimality*, NIPS 2003). One of those that
/// searches every state under its bound without finding a cheaper solution proves the best
/// one optimal: it prunes by the admissible bound and reopens states reached more cheaply, so
/// it visits every state of every cheaper solution. Without a time limit the exact search
/// gets all the time it needs, and the improving searches run only if it stops on memory or
/// nodes.
///
/// Under a time limit, a case whose first weighted searches found no solution within their
/// node caps gets [`first_answer`] for up to half the time left before the exact search: the
/// course scored a file only if every case had an answer.
///
/// # Errors
/// As [`solve`]; [`SolveError::GaveUp`] holds the best solution found by any of the searches.
pub fn solve_anytime(puzzle: &Puzzle, limits: Limits) -> Result<Solution, SolveError> {
    search(puzzle, limits, true, WEIGHTED_NODES)
}

/// The part of the time left after the first weighted search that [`solve_anytime`] gives the
/// exact search; the rest is kept for better answers if the exact search cannot finish.
pub const EXACT_SHARE: f64 = 0.75;

/// The weights `(num, den)` of [`solve_anytime`]'s searches for a cheaper solution, `f = g +
/// num / den * h`, one search each, in turn, each below the best found so far: weights this
/// close to 1 often find the optimum itself, and the last search, run dry, proves it (ledger
/// row "improving weights").
const IMPROVING: [(u32, u32); 3] = [(3, 2), (5, 4), (9, 8)];

/// [`solve`], and with `anytime` [`solve_anytime`]; `weighted_nodes` caps each of the first
/// weighted searches (tests lower it).
fn search(
    puzzle: &Puzzle,
    limits: Limits,
    anytime: bool,
    weighted_nodes: u64,
) -> Result<Solution, SolveError> {
    search_from(puzzle, limits, anytime, weighted_nodes, None)
}

/// Solves `puzzle` as [`solve`] does (as [`solve_anytime`] does with `anytime`), starting
/// from `best`, a solution in hand (from [`first_answer`] or [`cheaper_answer`]): its penalty
/// bounds the exact search from the start, in place of the weighted searches that would
/// otherwise look for one.
///
/// # Errors
/// As [`solve`]; [`SolveError::GaveUp`] holds `best` or a cheaper solution.
pub fn solve_from(
    puzzle: &Puzzle,
    limits: Limits,
    best: &Unproven,
    anytime: bool,
) -> Result<Solution, SolveError> {
    search_from(puzzle, limits, anytime, WEIGHTED_NODES, Some(best))
}

/// The push states a solution passes through, the start first: the path the searches would
/// have found for it.
fn push_path(puzzle: &Puzzle, moves: &[Dir]) -> Vec<Key> {
    let mut state = puzzle.start;
    let mut path = vec![Key::new(&state)];
    for &dir in moves {
        let Ok(step) = state.step(puzzle, dir) else {
            break;
        };
        let moved = (step.state.empty, step.state.full, step.state.balls)
            != (state.empty, state.full, state.balls);
        state = step.state;
        if moved {
            path.push(Key::new(&state));
        }
    }
    path
}

/// [`search`], from the solution `seed` if given.
fn search_from(
    puzzle: &Puzzle,
    limits: Limits,
    anytime: bool,
    weighted_nodes: u64,
    seed: Option<&Unproven>,
) -> Result<Solution, SolveError> {
    let limits = with_default_memory(limits);
    let started = Instant::now();
    let tables = FrozenTables::new(puzzle, Bound::new(puzzle));
    let bound = tables.start();
    // Each state's children come with their estimates: each is found from the parent's
    // matching by one augmentation, and dead children are left out.
    let mut estimator = Estimator::new(puzzle);
    let solved = |key: &Key| key.state().is_solved();
    let start = Key::new(&puzzle.start);
    let start_h = bound.estimate(&puzzle.start).unwrap_or_default();
    // Quick weighted searches (f = g + w h, not optimal; greedier when the node budget runs
    // out) bound the optimum from above; the exact search then never stores a state that
    // cannot lie on a path that cheap. All of them share the caller's node and time budget.
    // They do without the one-box game, which made their solutions dearer (worse bounds).
    // The course scored a file only if every case had an answer, so under a time limit
    // `solve_anytime` follows them, if they found nothing, with `first_answer` for up to half
    // the time left; any solution it finds also bounds the exact search.
    let mut generated = 0;
    let mut weighted_best = seed.map(|best| (push_path(puzzle, &best.moves), best.penalty));
    let weights = if seed.is_some() {
        &[][..]
    } else {
        &WEIGHTS[..]
    };
    for (tried, &w) in weights.iter().enumerate() {
        // Each but the greediest takes at most half of the caller's budget left, so that a
        // search that uses it up still leaves the greedier ones room to find something.
        let share: u32 = if tried + 1 < WEIGHTS.len() { 2 } else { 1 };
        let left = limits.remaining(generated, started.elapsed());
        let weighted = Limits {
            max_nodes: Some(left.max_nodes.map_or(weighted_nodes, |n| {
                (n / u64::from(share)).min(weighted_nodes)
            })),
            max_time: left.max_time.map(|time| time / share),
            ..left
        };
        match weighted_search(
            puzzle,
            bound,
            &estimator,
            start_h,
            Weighted {
                weight: (w, 1),
                below: None,
                batch: PARALLEL_BATCH,
            },
            weighted,
        ) {
            Ok(found) => {
                generated += found.stats.generated;
                weighted_best = Some((found.path, found.cost));
                break;
            }
            // Every reachable live state was searched: proven, whatever the weight.
            Err(AStarError::NoSolution(stats)) => return Err(SolveError::NoSolution(stats.stored)),
            Err(other) => generated += other.stats().generated,
        }
    }
    if weighted_best.is_none() && anytime && limits.max_time.is_some() {
        let left = limits.remaining(generated, started.elapsed());
        let half = Limits {
            max_time: left.max_time.map(|time| time / 2),
            ..left
        };
        let (first, spent) = quick::portfolio(puzzle, half);
        generated += spent;
        match first {
            Ok(first) => weighted_best = Some((push_path(puzzle, &first.moves), first.penalty)),
            Err(proof @ SolveError::NoSolution(_)) => return Err(proof),
            Err(_) => {}
        }
    }
    let upper = weighted_best.as_ref().map(|found| found.1);
    let mut exact = limits.remaining(generated, started.elapsed());
    if anytime && upper.is_some() {
        exact.max_time = exact.max_time.map(|time| time.mul_f64(EXACT_SHARE));
    }
    // With a solution of penalty U in hand, the exact search only has to look for a cheaper
    // one: it never stores a state whose f reaches U, and if it finds nothing, U is optimal.
    // (The states with f = U are often the largest layer of an A* search.)
    if let Some(found) = weighted_best.as_ref().filter(|found| found.1 == 0) {
        return Ok(Solution {
            moves: moves_along(puzzle, &found.0),
            penalty: 0,
            expanded: 0,
            upper,
            elapsed: started.elapsed(),
        });
    }
    let cheaper = upper.map(|u| u - 1);
    estimator.drift = fit_drift(
        puzzle,
        bound,
        weighted_best.as_ref().map(|found| found.0.as_slice()),
    );
    // The one-box game and the drift bound raise the exact search's bound.
    let successors = |key: &Key, g: u32| {
        let state = key.state();
        tables.with(puzzle, &state, |bound| {
            estimator.children(puzzle, bound, &state, g, cheaper, true)
        })
    };
    let start_h = estimator
        .duo
        .estimate(&puzzle.start)
        .map_or(start_h, |duo| duo.max(start_h));
    let start_h = estimator
        .drift
        .as_ref()
        .and_then(|drift| drift.estimate(&puzzle.start))
        .map_or(start_h, |drift| drift.max(start_h));
    // Two stored states with one layout differ only in the player's cell: the one the other
    // can walk to at no more than its own extra cost makes it redundant.
    let mut layouts = Layouts::new(puzzle);
    let dominated = |key: &Key, g: u32| layouts.dominated(key, g);
    let options = AStarOptions::new()
        .limits(exact)
        .upper_bound(cheaper)
        .dominance(dominated)
        .parallel(PARALLEL_BATCH);
    match astar_with(&start, start_h, successors, solved, options) {
        Ok(found) => Ok(Solution {
            moves: moves_along(puzzle, &found.path),
            penalty: found.cost,
            expanded: found.stats.expanded,
            upper,
            elapsed: started.elapsed(),
        }),
        Err(AStarError::NoSolution(stats)) => match weighted_best {
            Some((path, penalty)) => Ok(Solution {
                moves: moves_along(puzzle, &path),
                penalty,
                expanded: stats.expanded,
                upper,
                elapsed: started.elapsed(),
            }),
            None => Err(SolveError::NoSolution(stats.stored)),
        },
        Err(reason) => {
            let lower_bound = reason
                .stats()
                .lower_bound
                .and_then(|f| u32::try_from(f).ok())
                .map_or(start_h, |f| f.max(start_h));
            let mut best = weighted_best;
            let mut improving = 0;
            if let Some(incumbent) = best.take_if(|_| anytime) {
                let spent = generated + reason.stats().generated;
                let left = limits.remaining(spent, started.elapsed());
                let improved =
                    improve(puzzle, tables.start(), &estimator, start_h, incumbent, left);
                improving = improved.generated;
                if let Some(expanded) = improved.proven {
                    let (path, penalty) = improved.best;
                    return Ok(Solution {
                        moves: moves_along(puzzle, &path),
                        penalty,
                        expanded,
                        upper,
                        elapsed: started.elapsed(),
                    });
                }
                best = Some(improved.best);
            }
            Err(SolveError::GaveUp {
                lower_bound,
                reason: counting(reason, generated + improving),
                best: best.map(|(path, penalty)| Unproven {
                    moves: moves_along(puzzle, &path),
                    penalty,
                }),
            })
        }
    }
}

/// What [`improve`] found.
struct Improved {
    /// The cheapest solution found, the one it started from if none is cheaper: its path and
    /// penalty.
    best: (Vec<Key>, u32),
    /// The states expanded by the search that proved `best` optimal, if one did.
    proven: Option<u64>,
    /// The states the searches generated.
    generated: u64,
}

/// Weighted searches for solutions cheaper than `best` (a path and its penalty), at each
/// weight of [`IMPROVING`] in turn while `limits` last. A search that runs out of states
/// without finding one proves `best` optimal: it lists every push whose child's `g + h` stays
/// under the best penalty (`h` admissible) and reopens states reached more cheaply, so every
/// state of a cheaper solution would have been reached at its own cost and expanded.
fn improve(
    puzzle: &Puzzle,
    bound: &Bound,
    estimator: &Estimator,
    start_h: u32,
    mut best: (Vec<Key>, u32),
    limits: Limits,
) -> Improved {
    let started = Instant::now();
    let mut generated = 0;
    for weight in IMPROVING {
        let left = limits.remaining(generated, started.elapsed());
        if left.max_time.is_some_and(|time| time.is_zero()) {
            break;
        }
        match weighted_search(
            puzzle,
            bound,
            estimator,
            start_h,
            Weighted {
                weight,
                below: Some(best.1),
                batch: PARALLEL_BATCH,
            },
            left,
        ) {
            Ok(found) => {
                generated += found.stats.generated;
                best = (found.path, found.cost / weight.1);
            }
            Err(AStarError::NoSolution(stats)) => {
                return Improved {
                    best,
                    proven: Some(stats.expanded),
                    generated: generated + stats.generated,
                };
            }
            Err(other) => generated += other.stats().generated,
        }
    }
    Improved {
        best,
        proven: None,
        generated,
    }
}

/// What sets one weighted search apart from another.
#[derive(Clone, Copy, Debug)]
struct Weighted {
    /// The heuristic's weight `(num, den)`: `f = g + num / den * h`.
    weight: (u32, u32),
    /// Look only for solutions cheaper than this, if given.
    below: Option<u32>,
    /// States whose children are estimated in parallel at a time (1: on this thread alone).
    batch: usize,
}

/// One weighted search of `puzzle` with `f = g + num / den * h` (`weight` is `(num, den)`),
/// for a solution cheaper than `below` if given: costs are scaled by `den`, so the solution's
/// `cost` is `den` times its penalty. It goes without the exact search's extra bounds, which
/// made the weighted searches' solutions dearer.
fn weighted_search(
    puzzle: &Puzzle,
    bound: &Bound,
    estimator: &Estimator,
    start_h: u32,
    Weighted {
        weight: (num, den),
        below,
        batch,
    }: Weighted,
    limits: Limits,
) -> Result<ply_search::AStarSolution<Key, u32>, AStarError> {
    let limit = below.map(|below| below.saturating_sub(1));
    let successors = |key: &Key, g: u32| {
        let mut children = estimator.children(puzzle, bound, &key.state(), g / den, limit, false);
        for child in &mut children {
            child.1 *= den;
            child.2 *= num;
        }
        children
    };
    let solved = |key: &Key| key.state().is_solved();
    let options = AStarOptions::new().limits(limits).parallel(batch);
    astar_with(
        &Key::new(&puzzle.start),
        num * start_h,
        successors,
        solved,
        options,
    )
}

/// `reason` with the `earlier` nodes of the weighted searches counted in its generated
/// states, so that a node budget's report adds up to the budget.
fn counting(mut reason: AStarError, earlier: u64) -> AStarError {
    match &mut reason {
        AStarError::NoSolution(stats)
        | AStarError::MemoryLimit { stats, .. }
        | AStarError::GaveUp { stats, .. } => stats.generated += earlier,
    }
    reason
}

/// Positions the drift bound is fitted to.
const FIT_SAMPLES: usize = 7;

/// The drift bound for the exact search, fitted to up to [`FIT_SAMPLES`] positions spread
/// along the weighted search's solution `path`, the start first (near which the exact search
/// spends its time), or to the start alone without a path; `None` when it beats the matching
/// at none of them. A fit along the path raises the bound where the search spends its time,
/// which a fit to the start alone can miss; keeping both fits as two bounds saved too few
/// expansions for its cost per expansion (ledger row "drift: fitted along the path").
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

/// What the tests of the solver's parts share: pushes listed by the code and by the rules, and
/// positions near the starts of the bundled medium file.
#[cfg(test)]
pub(crate) mod testing {
    use smallvec::SmallVec;

    use super::key::Key;
    use super::pushes::{pushes, walk_distances};
    use crate::puzzle::{Puzzle, parse_puzzles};
    use crate::state::{Dir, State};

    /// [`pushes`] into a vector of its own.
    pub(crate) fn listed(puzzle: &Puzzle, state: &State, longest: Option<u32>) -> Vec<(Key, u32)> {
        let mut out = SmallVec::new();
        pushes(puzzle, state, longest, &mut out);
        out.into_vec()
    }

    /// its cost and its walk.
    pub(crate) fn pushes_by_the_rules(puzzle: &Puzzle, state: &State) -> Vec<(Key, u32, u32)> {
        let dist = walk_distances(puzzle, state);
        let mut out = Vec::new();
        for cell in (0..puzzle.cells()).filter(|&cell| dist[cell] != u8::MAX) {
            for dir in Dir::ALL {
                let at = State {
                    player: cell as u8,
                    ..*state
                };
                if let Ok(step) = at.step(puzzle, dir) {
                    let moved = (step.state.empty, step.state.full, step.state.balls)
                        != (state.empty, state.full, state.balls);
                    if moved {
                        let walk = u32::from(dist[cell]);
                        out.push((Key::new(&step.state), walk + step.cost, walk));
                    }
                }
            }
        }
        out.sort_unstable_by_key(|&(key, cost, _)| (key.0, cost));
        out
    }

    /// is layer 0; at most 200 states a layer).
    pub(crate) fn near_the_medium_starts(layers: usize) -> Vec<(Puzzle, Vec<State>)> {
        let text = include_str!("../../../../data/sokoboru/medium.in");
        let mut out = Vec::new();
        for puzzle in parse_puzzles(text).unwrap() {
            let mut states = Vec::new();
            let mut layer = vec![puzzle.start];
            for _ in 0..layers {
                let mut next: Vec<State> = layer
                    .iter()
                    .flat_map(|state| listed(&puzzle, state, None))
                    .map(|(key, _)| key.state())
                    .collect();
                next.truncate(200);
                states.append(&mut layer);
                layer = next;
            }
            out.push((puzzle, states));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;
    use crate::verify::replay;

    #[test]
    fn tiny_optima() {
        let text = include_str!("../../../../data/sokoboru/tiny.in");
        let known = [44, 14, 28, 23, 18, 26, 22, 23, 24, 37];
        let puzzles = parse_puzzles(text).unwrap();
        assert_eq!(puzzles.len(), known.len());
        for (i, (puzzle, want)) in puzzles.iter().zip(known).enumerate() {
            let solution = solve(puzzle, Limits::UNLIMITED).unwrap();
            assert_eq!(solution.penalty, want, "case {}", i + 1);
            let replayed = replay(puzzle, &solution.moves).unwrap();
            assert_eq!(
                (replayed.penalty, replayed.left),
                (want, 0),
                "case {}",
                i + 1
            );
        }
    }

    /// A node budget's report counts the weighted searches' nodes too.
    #[test]
    fn a_node_budget_counts_every_search() {
        let text = include_str!("../../../../data/sokoboru/small.in");
        let hard = &parse_puzzles(text).unwrap()[1];
        let budget = 300_000;
        match solve(hard, Limits::UNLIMITED.with_max_nodes(budget)) {
            Err(SolveError::GaveUp { reason, .. }) => {
                let generated = reason.stats().generated;
                assert!(
                    (budget..budget + 10).contains(&generated),
                    "{generated} generated"
                );
            }
            other => panic!("expected to give up, got {other:?}"),
        }
    }

    /// A search stopped late in its exact phase reports how far it got: well past the matching
    /// at the start and never past the optimum.
    #[test]
    fn a_search_stopped_late_reports_what_it_has_proven() {
        let text = include_str!("../../../../data/sokoboru/small.in");
        let hard = &parse_puzzles(text).unwrap()[1];
        match solve(hard, Limits::UNLIMITED.with_max_nodes(2_000_000)) {
            Err(SolveError::GaveUp {
                lower_bound,
                best: Some(best),
                ..
            }) => {
                assert!((20..=33).contains(&lower_bound), "{lower_bound}");
                assert!(best.penalty >= 33);
            }
            other => panic!("expected to give up with a solution, got {other:?}"),
        }
    }

    /// A budget that the first weighted search alone would use up without a solution still
    /// leaves the greedier ones room to find one.
    #[test]
    fn a_small_budget_still_finds_a_solution() {
        let text = include_str!("../../../../data/sokoboru/medium.in");
        let hard = &parse_puzzles(text).unwrap()[9];
        match solve(hard, Limits::UNLIMITED.with_max_nodes(1_000_000)) {
            Err(SolveError::GaveUp {
                best: Some(best), ..
            }) => {
                let replayed = replay(hard, &best.moves).unwrap();
                assert_eq!((replayed.penalty, replayed.left), (best.penalty, 0));
            }
            other => panic!("expected an unproven solution, got {other:?}"),
        }
    }

    /// When the first weighted searches find nothing (here, capped at 40 nodes each), only
    /// [`solve_anytime`] under a time limit gets a solution from [`first_answer`], whose
    /// penalty then bounds the exact search; the answers stay the known optima.
    #[test]
    fn the_first_answer_supplies_the_upper_bound_when_the_weighted_searches_miss() {
        let text = include_str!("../../../../data/sokoboru/tiny.in");
        let known = [44, 14, 28, 23, 18, 26, 22, 23, 24, 37];
        let timed = Limits::UNLIMITED.with_max_time(Duration::from_secs(60));
        let mut missed = 0;
        for (i, puzzle) in parse_puzzles(text).unwrap().iter().enumerate() {
            let plain = search(puzzle, timed.clone(), false, 40).unwrap();
            let anytime = search(puzzle, timed.clone(), true, 40).unwrap();
            assert_eq!((plain.penalty, anytime.penalty), (known[i], known[i]));
            if plain.upper.is_none() {
                missed += 1;
                let upper = anytime.upper.expect("the first answer found a solution");
                assert!(upper >= known[i], "case {}", i + 1);
            }
        }
        assert!(missed >= 5, "only {missed} cases had no weighted solution");
    }

    /// From the greediest weighted search's solution, the improving searches end with the
    /// optimum and prove it by running out of cheaper states, on tiny.in (known optima) and
    /// small.in (against the exact search).
    #[test]
    fn improving_searches_reach_and_prove_the_optimum() {
        let tiny = [44, 14, 28, 23, 18, 26, 22, 23, 24, 37];
        let mut cases: Vec<(Puzzle, u32)> =
            parse_puzzles(include_str!("../../../../data/sokoboru/tiny.in"))
                .unwrap()
                .into_iter()
                .zip(tiny)
                .collect();
        // All but case 2, whose searches take most of the time.
        let small = parse_puzzles(include_str!("../../../../data/sokoboru/small.in")).unwrap();
        for (i, puzzle) in small.into_iter().enumerate() {
            if i == 1 {
                continue;
            }
            let optimum = solve(&puzzle, Limits::UNLIMITED).unwrap().penalty;
            cases.push((puzzle, optimum));
        }
        let mut improved = 0;
        for (i, (puzzle, optimum)) in cases.iter().enumerate() {
            let tables = FrozenTables::new(puzzle, Bound::new(puzzle));
            let bound = tables.start();
            let estimator = Estimator::new(puzzle);
            let start_h = bound.estimate(&puzzle.start).unwrap();
            let first = weighted_search(
                puzzle,
                bound,
                &estimator,
                start_h,
                Weighted {
                    weight: (8, 1),
                    below: None,
                    batch: PARALLEL_BATCH,
                },
                Limits::UNLIMITED,
            )
            .unwrap();
            let found = improve(
                puzzle,
                bound,
                &estimator,
                start_h,
                (first.path, first.cost),
                Limits::UNLIMITED,
            );
            assert!(found.proven.is_some(), "case {}", i + 1);
            assert_eq!(found.best.1, *optimum, "case {}", i + 1);
            let replayed = replay(puzzle, &moves_along(puzzle, &found.best.0)).unwrap();
            assert_eq!(
                (replayed.penalty, replayed.left),
                (*optimum, 0),
                "case {}",
                i + 1
            );
            improved += usize::from(first.cost > *optimum);
        }
        assert!(
            improved >= 10,
            "{improved} first solutions were dearer than the optimum"
        );
    }

    /// Under a node budget too small to prove the optimum, a case the weighted search solved
    /// still comes back with that solution, legal and never below the optimum, marked unproven.
    #[test]
    fn a_search_that_gives_up_returns_its_best_solution() {
        let text = include_str!("../../../../data/sokoboru/small.in");
        let optimum = [26, 33, 18, 37, 23, 44, 33, 30, 29, 30];
        let mut unproven = 0;
        for (i, puzzle) in parse_puzzles(text).unwrap().iter().enumerate() {
            match solve(puzzle, Limits::UNLIMITED.with_max_nodes(2_000)) {
                Ok(solution) => assert_eq!(solution.penalty, optimum[i], "case {}", i + 1),
                Err(SolveError::GaveUp {
                    best: Some(best),
                    lower_bound,
                    ..
                }) => {
                    unproven += 1;
                    let replayed = replay(puzzle, &best.moves).unwrap();
                    assert_eq!((replayed.penalty, replayed.left), (best.penalty, 0));
                    assert!(best.penalty >= optimum[i], "case {}", i + 1);
                    assert!(lower_bound <= optimum[i], "case {}", i + 1);
                }
                Err(SolveError::GaveUp {
                    best: None,
                    lower_bound,
                    ..
                }) => assert!(lower_bound <= optimum[i], "case {}", i + 1),
                Err(other) => panic!("case {}: {other}", i + 1),
            }
        }
        assert!(unproven > 0, "some case stopped with a solution in hand");
    }

    #[test]
    fn unsolvable_is_proven() {
        // The ball can only slide away from the box.
        let puzzle = parse_puzzles("1 4\n$@O-\n").unwrap().remove(0);
        assert!(matches!(
            solve(&puzzle, Limits::UNLIMITED),
            Err(SolveError::NoSolution(_))
        ));
    }
}
