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

use std::cell::OnceCell;
use std::time::{Duration, Instant};

use ply_search::{AStarError, AStarOptions, Limits, PARALLEL_BATCH, astar_with};
use rustc_hash::FxHashMap;
use smallvec::SmallVec;
use thiserror::Error;

use crate::bound::{Bound, Duals, Matching};
use crate::drift::Drift;
use crate::duo::Duo;
use crate::freeze::frozen_dead_after;
use crate::frozen_tables::FrozenTables;
use crate::puzzle::{MAX_CELLS, Puzzle};
use crate::state::{Dir, State};

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

/// Nodes each weighted search that looks for an upper bound may generate.
const WEIGHTED_NODES: u64 = 10_000_000;
/// The heuristic's weights of those searches, tried in turn until one finds a solution.
const WEIGHTS: [u32; 3] = [2, 4, 8];
/// The weight of [`solve_anytime`]'s last search for a first solution, when those at
/// [`WEIGHTS`] found none within [`WEIGHTED_NODES`] each: on boards the quick searches miss,
/// a low weight finds a solution where much higher weights find none (ledger row "fallback
/// weight").
const FALLBACK_WEIGHT: u32 = 3;

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
/// node caps gets one more at [`FALLBACK_WEIGHT`], uncapped, for up to half the time left,
/// before the exact search: the course scored a file only if every case had an answer, and a
/// random 7x7 board of eight pairs that they missed then got one of 55 (the optimum is at
/// least 41) where it had got none.
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
    let limits = if limits.max_memory.is_none() && limits.memory_pool.is_none() {
        limits.with_max_memory(DEFAULT_MEMORY)
    } else {
        limits
    };
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
    // `solve_anytime` follows them with one more, without the node cap, for up to half the
    // time left; any solution it finds also bounds the exact search.
    let fallback = (anytime && limits.max_time.is_some()).then_some(FALLBACK_WEIGHT);
    let mut generated = 0;
    let mut weighted_best = None;
    for (tried, w) in WEIGHTS.into_iter().chain(fallback).enumerate() {
        let left = limits.remaining(generated, started.elapsed());
        let weighted = if tried < WEIGHTS.len() {
            // Each but the greediest takes at most half of the caller's budget left, so that
            // a search that uses it up still leaves the greedier ones room to find something.
            let share: u32 = if tried + 1 < WEIGHTS.len() { 2 } else { 1 };
            Limits {
                max_nodes: Some(left.max_nodes.map_or(weighted_nodes, |n| {
                    (n / u64::from(share)).min(weighted_nodes)
                })),
                max_time: left.max_time.map(|time| time / share),
                ..left
            }
        } else {
            Limits {
                max_time: left.max_time.map(|time| time / 2),
                ..left
            }
        };
        match weighted_search(puzzle, bound, &estimator, start_h, (w, 1), None, weighted) {
            Ok(found) => {
                generated += found.stats.generated;
                weighted_best = Some(found);
                break;
            }
            // Every reachable live state was searched: proven, whatever the weight.
            Err(AStarError::NoSolution(stats)) => return Err(SolveError::NoSolution(stats.stored)),
            Err(other) => generated += other.stats().generated,
        }
    }
    let upper = weighted_best.as_ref().map(|found| found.cost);
    let mut exact = limits.remaining(generated, started.elapsed());
    if anytime && upper.is_some() {
        exact.max_time = exact.max_time.map(|time| time.mul_f64(EXACT_SHARE));
    }
    // With a solution of penalty U in hand, the exact search only has to look for a cheaper
    // one: it never stores a state whose f reaches U, and if it finds nothing, U is optimal.
    // (The states with f = U are often the largest layer of an A* search.)
    if let Some(found) = weighted_best.as_ref().filter(|found| found.cost == 0) {
        return Ok(Solution {
            moves: moves_along(puzzle, &found.path),
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
        weighted_best.as_ref().map(|found| found.path.as_slice()),
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
            Some(found) => Ok(Solution {
                moves: moves_along(puzzle, &found.path),
                penalty: found.cost,
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
            let mut best = weighted_best.map(|found| (found.path, found.cost));
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
            weight,
            Some(best.1),
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

/// One weighted search of `puzzle` with `f = g + num / den * h` (`weight` is `(num, den)`),
/// for a solution cheaper than `below` if given: costs are scaled by `den`, so the solution's
/// `cost` is `den` times its penalty. It goes without the exact search's extra bounds, which
/// made the weighted searches' solutions dearer.
fn weighted_search(
    puzzle: &Puzzle,
    bound: &Bound,
    estimator: &Estimator,
    start_h: u32,
    (num, den): (u32, u32),
    below: Option<u32>,
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
    let options = AStarOptions::new().limits(limits).parallel(PARALLEL_BATCH);
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

/// The children of a state with their estimates.
struct Estimator {
    /// The one-box, one-ball game's bound.
    duo: Duo,
    /// The player's drift bound of the exact search ([`fit_drift`]).
    drift: Option<Drift>,
}

impl Estimator {
    fn new(puzzle: &Puzzle) -> Estimator {
        Estimator {
            duo: Duo::new(puzzle),
            drift: None,
        }
    }

    /// The live pushes from `state`, reached at cost `g`, with their costs and estimates. When
    /// `exact` holds, the estimates include [`Duo`]'s bound and the drift bound, and count the
    /// walk to a push that may lower the matching ([`progress_near`]) rather than to any push;
    /// the weighted searches do without them, which finds their solutions sooner and cheaper
    /// (ledger row "weighted searches: plain estimates"). With a `limit`, a child whose `f` would
    /// exceed it is left out, and its estimate is cut short as soon as a cheap part of it
    /// shows that.
    fn children(
        &self,
        puzzle: &Puzzle,
        bound: &Bound,
        state: &State,
        g: u32,
        limit: Option<u32>,
        exact: bool,
    ) -> Children {
        let matching = bound.matching(state);
        // The drift bound's duals, found when a child first needs them: each child's drift
        // bound is read off them in O(n).
        let drift = self.drift.as_ref().filter(|_| exact);
        let duals: OnceCell<Option<Duals>> = OnceCell::new();
        // One push changes one pair cost of a row or a column by at most one step of the
        // relaxed game, or fills a box whose pair cost was one, so the matching drops by at
        // most one.
        let floor = matching
            .as_ref()
            .and_then(|m| m.value(bound))
            .map_or(0, |h| h.saturating_sub(1));
        // A push costs at least one more than its walk, so longer walks need not be listed.
        let longest = limit.map(|limit| limit.saturating_sub(g + floor + 1));
        let mut listed = SmallVec::new();
        pushes(puzzle, state, longest, &mut listed);
        let estimated = listed.iter().filter_map(|&(key, cost)| {
            let child = key.state();
            let within = |h: u32| limit.is_none_or(|limit| g + cost + h <= limit);
            let estimate = match &matching {
                _ if child.empty == 0 => Some(0),
                Some(matching) if within(floor) => {
                    // The cheap parts first: the walk, then the one-box game.
                    let walk =
                        walk_to_push(puzzle, &child).filter(|walk| within(floor + walk.steps));
                    let duo = walk.and_then(|walk| {
                        if exact {
                            Some((floor + walk.steps).max(self.duo.estimate(&child)?))
                        } else {
                            Some(floor + walk.steps)
                        }
                    });
                    let duo = duo.filter(|&h| within(h)).and_then(|h| match drift {
                        Some(drift) => {
                            let duals = duals.get_or_init(|| drift.bound().duals(state));
                            let pushes =
                                duals.as_ref()?.lower_after(drift.bound(), state, &child)?;
                            Some(h.max(pushes.saturating_sub(drift.slack(child.player))))
                        }
                        None => Some(h),
                    });
                    duo.filter(|&h| within(h)).and_then(|h| {
                        let walk = walk?;
                        let after = matching.after(bound, state, &child);
                        let pushes = after.value(bound)?;
                        let mut h = h.max(pushes + walk.steps);
                        // One more move when no push that near may lower the matching; asked
                        // only when that would raise the estimate.
                        if exact
                            && h == pushes + walk.steps
                            && !progress_near(puzzle, bound, &after, &child, walk)
                        {
                            h += 1;
                        }
                        Some(h).filter(|&h| within(h))
                    })
                }
                _ => None,
            };
            // Last, as it rarely applies: frozen objects that can never be paired (a new dead
            // end can only involve the object just pushed).
            let estimate = estimate.filter(|_| !frozen_dead_after(puzzle, state, &child))?;
            Some((key, cost, estimate))
        });
        let mut children = Vec::with_capacity(listed.len());
        children.extend(estimated);
        children
    }
}

/// Pushes listed without a heap allocation (a crowded board has more; they spill to the heap).
const LISTED: usize = 48;

/// The children of a state as [`Estimator::children`] gives them: state, step cost, estimate.
type Children = Vec<(Key, u32, u32)>;

/// Most states kept per layout by [`Layouts`].
const PER_LAYOUT: usize = 3;

/// The stored states grouped by layout (the objects without the player), for dominance
/// pruning: a state `(L, p)` reached at cost `g` is redundant when a stored `(L, q)` was
/// reached at cost `g'` with `g' + walk(q, p) <= g`, since the player can walk from `q` to `p`
/// and then do whatever it would do from `(L, p)`. With an admissible bound, the `f` of
/// `(L, q)` is at most `g' + walk(q, p)` plus the cheapest finish from `(L, p)`, so `(L, q)`
/// is expanded before any solution through `(L, p)` could be taken. Up to [`PER_LAYOUT`]
/// states are kept per layout (forgetting one only loses pruning).
struct Layouts {
    /// Per layout, the player's cells and costs of stored states (cell `u8::MAX`: empty).
    seen: FxHashMap<u128, [(u8, u16); PER_LAYOUT]>,
    /// The board, for walking.
    puzzle: Puzzle,
}

impl Layouts {
    fn new(puzzle: &Puzzle) -> Layouts {
        Layouts {
            seen: FxHashMap::default(),
            puzzle: puzzle.clone(),
        }
    }

    /// Whether `key` reached at cost `g` is redundant; if not, it is recorded.
    fn dominated(&mut self, key: &Key, g: u32) -> bool {
        let layout = key.0 & ((1u128 << PLAYER) - 1);
        let state = key.state();
        let player = state.player;
        let g = u16::try_from(g).unwrap_or(u16::MAX);
        let kept = self
            .seen
            .entry(layout)
            .or_insert([(u8::MAX, 0); PER_LAYOUT]);
        // The cheaper states of the layout, and by how much they are cheaper.
        let mut cheaper = [(0u64, 0u16); PER_LAYOUT];
        let mut widest = 0;
        for (slot, &(cell, cost)) in kept.iter().enumerate() {
            if cell == u8::MAX {
                continue;
            }
            if cell == player && cost <= g {
                return true;
            }
            if cost < g {
                cheaper[slot] = (1 << cell, g - cost);
                widest = widest.max(g - cost);
            }
        }
        if widest > 0 {
            // A cell within `slack` steps of a state `slack` cheaper dominates: walk out from
            // the player layer by layer, looking for the states with at least that much slack.
            let free =
                self.puzzle.board() & !(self.puzzle.walls | state.empty | state.full | state.balls);
            let mut seen_cells = 1u64 << player;
            let mut frontier = seen_cells;
            for steps in 1..=widest {
                frontier = self.puzzle.spread(frontier) & free & !seen_cells;
                if frontier == 0 {
                    break;
                }
                let targets = cheaper
                    .iter()
                    .filter(|&&(_, slack)| slack >= steps)
                    .fold(0, |targets, &(cell, _)| targets | cell);
                if frontier & targets != 0 {
                    return true;
                }
                seen_cells |= frontier;
            }
        }
        // Keep it: in its own slot, an empty one, or the costliest one's.
        let slot = kept
            .iter()
            .position(|&(cell, _)| cell == player)
            .or_else(|| kept.iter().position(|&(cell, _)| cell == u8::MAX))
            .unwrap_or_else(|| {
                (0..PER_LAYOUT)
                    .max_by_key(|&i| kept[i].1)
                    .expect("at least one slot")
            });
        kept[slot] = (player, g);
        false
    }
}

/// The fewest walking steps before the player can push anything (0 when it can push from where
/// it stands), with the cells that far, or `None` when it can never push again. The walk comes
/// before the next push, and the matching counts only pushes and slides, so the two add up to
/// a lower bound.
///
/// A cell is ready when an object next to it can be pushed away from it: a ball needs a cell
/// that is not a wall, a ball or a full box behind it (an empty box takes it in), an empty box
/// one that is not a wall or a box, a full box one that is not a wall, a box or a ball.
fn walk_to_push(puzzle: &Puzzle, state: &State) -> Option<Walk> {
    let free = puzzle.board() & !(puzzle.walls | state.empty | state.full | state.balls);
    let open = puzzle.board() & !puzzle.walls;
    let for_ball = open & !(state.balls | state.full);
    let for_empty = open & !(state.empty | state.full);
    let for_full = for_empty & !state.balls;
    let ready = Dir::ALL.into_iter().fold(0, |ready, dir| {
        let back = dir.opposite();
        let pushable = (state.balls & puzzle.shift(for_ball, back))
            | (state.empty & puzzle.shift(for_empty, back))
            | (state.full & puzzle.shift(for_full, back));
        ready | puzzle.shift(pushable, back)
    }) & free;
    let mut seen = 1u64 << state.player;
    let mut frontier = seen;
    let mut steps = 0;
    while frontier & ready == 0 {
        frontier = puzzle.spread(frontier) & free & !seen;
        if frontier == 0 {
            return None;
        }
        seen |= frontier;
        steps += 1;
    }
    Some(Walk {
        steps,
        nearest: frontier,
    })
}

/// The walk to the nearest push ([`walk_to_push`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Walk {
    /// Its length.
    steps: u32,
    /// The cells that far from the player.
    nearest: u64,
}

/// Whether some push from the cells of `walk` may lower `state`'s `matching`
/// ([`Matching::may_lower`]).
///
/// If none may, the moves before the next push that lowers the matching are at least one more
/// than the walk, and they add to the matching, which does not fall before it. If those moves
/// are all walks, the layout stands still and that push is one of this layout's, from a cell
/// farther than the nearest ones; otherwise some push comes first, after at least the walk,
/// and costs at least one more.
fn progress_near(
    puzzle: &Puzzle,
    bound: &Bound,
    matching: &Matching,
    state: &State,
    walk: Walk,
) -> bool {
    let objects = state.empty | state.full | state.balls;
    Dir::ALL.into_iter().any(|dir| {
        let mut from = walk.nearest & puzzle.shift(objects, dir.opposite());
        while from != 0 {
            let cell = from.trailing_zeros() as u8;
            from &= from - 1;
            let at = State {
                player: cell,
                ..*state
            };
            if at
                .step(puzzle, dir)
                .is_ok_and(|step| matching.may_lower(bound, state, &step.state))
            {
                return true;
            }
        }
        false
    })
}

/// The moves of a path of push states: each step's walk, then its push.
fn moves_along(puzzle: &Puzzle, path: &[Key]) -> Vec<Dir> {
    let mut moves = Vec::new();
    for pair in path.windows(2) {
        let (walk, push) = connect(puzzle, &pair[0].state(), &pair[1].state());
        moves.extend(walk);
        moves.push(push);
    }
    moves
}

/// A state packed into 128 bits, as the search stores it: two bits per cell (bit `c` of
/// `low` and of `high`: floor 00, empty box 10, full box 01, ball 11, reading low then high)
/// and the player's cell, 106 bits for the largest board. Half the size of a [`State`], which
/// doubles the states a search can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key(u128);

/// Where the high plane and the player's cell start in a [`Key`].
const HIGH: u32 = MAX_CELLS as u32;
const PLAYER: u32 = 2 * MAX_CELLS as u32;

impl Key {
    fn new(state: &State) -> Key {
        let low = state.empty | state.balls;
        let high = state.full | state.balls;
        Key(u128::from(low) | u128::from(high) << HIGH | u128::from(state.player) << PLAYER)
    }

    fn state(self) -> State {
        let mask = (1u64 << MAX_CELLS) - 1;
        let low = self.0 as u64 & mask;
        let high = (self.0 >> HIGH) as u64 & mask;
        State {
            empty: low & !high,
            full: high & !low,
            balls: low & high,
            player: (self.0 >> PLAYER) as u8,
        }
    }
}

/// Breadth-first walking distances from the player over free cells, with the first step of a
/// shortest path into each cell (for rebuilding the walk); `u8::MAX` where unreachable.
fn walks(puzzle: &Puzzle, state: &State) -> ([u8; MAX_CELLS], [Option<Dir>; MAX_CELLS]) {
    let blocked = puzzle.walls | state.empty | state.full | state.balls;
    let mut dist = [u8::MAX; MAX_CELLS];
    let mut via = [None; MAX_CELLS];
    let mut queue = [0u8; MAX_CELLS];
    let (mut head, mut tail) = (0, 1);
    queue[0] = state.player;
    dist[usize::from(state.player)] = 0;
    while head < tail {
        let cell = usize::from(queue[head]);
        head += 1;
        for dir in Dir::ALL {
            if let Some(next) = puzzle.neighbour(cell, dir) {
                if blocked & (1 << next) == 0 && dist[next] == u8::MAX {
                    dist[next] = dist[cell] + 1;
                    via[next] = Some(dir);
                    queue[tail] = next as u8;
                    tail += 1;
                }
            }
        }
    }
    (dist, via)
}

/// Walking distances from the player over free cells, `u8::MAX` where unreachable: a
/// breadth-first search run on bit sets, one shift per direction and layer.
#[cfg(test)]
fn walk_distances(puzzle: &Puzzle, state: &State) -> [u8; MAX_CELLS] {
    let free = puzzle.board() & !(puzzle.walls | state.empty | state.full | state.balls);
    let mut dist = [u8::MAX; MAX_CELLS];
    dist[usize::from(state.player)] = 0;
    let mut seen = 1u64 << state.player;
    let mut frontier = seen;
    let mut layer = 0;
    while frontier != 0 {
        layer += 1;
        frontier = puzzle.spread(frontier) & free & !seen;
        seen |= frontier;
        let mut cells = frontier;
        while cells != 0 {
            dist[cells.trailing_zeros() as usize] = layer;
            cells &= cells - 1;
        }
    }
    dist
}

/// Every push from `state` after a walk of at most `longest` steps (of any length without
/// it), added to `out`: the state after it and its cost (walk plus push penalty). The walk is
/// a breadth-first search on bit sets, layer by layer; from each layer a push is tried only on
/// the objects next to it whose far side is on the board and not a wall.
fn pushes(
    puzzle: &Puzzle,
    state: &State,
    longest: Option<u32>,
    out: &mut SmallVec<[(Key, u32); LISTED]>,
) {
    let objects = state.empty | state.full | state.balls;
    let free = puzzle.board() & !(puzzle.walls | objects);
    let open = puzzle.board() & !puzzle.walls;
    let mut seen = 0u64;
    let mut layer = 1u64 << state.player;
    let mut walk = 0;
    while layer != 0 {
        seen |= layer;
        for dir in Dir::ALL {
            let mut movable =
                objects & puzzle.shift(layer, dir) & puzzle.shift(open, dir.opposite());
            while movable != 0 {
                let cell = movable.trailing_zeros() as usize;
                movable &= movable - 1;
                let Some(from) = puzzle.neighbour(cell, dir.opposite()) else {
                    continue;
                };
                let at = State {
                    player: from as u8,
                    ..*state
                };
                if let Ok(step) = at.step(puzzle, dir) {
                    out.push((Key::new(&step.state), walk + step.cost));
                }
            }
        }
        if longest.is_some_and(|longest| walk >= longest) {
            break;
        }
        walk += 1;
        layer = puzzle.spread(layer) & free & !seen;
    }
}

/// The walk and push that lead from `from` to `to`, two consecutive push states.
fn connect(puzzle: &Puzzle, from: &State, to: &State) -> (Vec<Dir>, Dir) {
    let (dist, via) = walks(puzzle, from);
    let mut best: Option<(u32, usize, Dir)> = None;
    for (cell, &walk) in dist.iter().enumerate().take(puzzle.cells()) {
        if walk == u8::MAX {
            continue;
        }
        for dir in Dir::ALL {
            let at = State {
                player: cell as u8,
                ..*from
            };
            if let Ok(step) = at.step(puzzle, dir) {
                let cost = u32::from(walk) + step.cost;
                if step.state == *to && best.is_none_or(|b| cost < b.0) {
                    best = Some((cost, cell, dir));
                }
            }
        }
    }
    let (_, mut cell, push) = best.expect("consecutive push states are connected by a push");
    let mut walk = Vec::new();
    while let Some(dir) = via[cell] {
        walk.push(dir);
        cell = puzzle
            .neighbour(cell, dir.opposite())
            .expect("a walk step has a cell behind it");
    }
    walk.reverse();
    (walk, push)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;
    use crate::verify::replay;

    /// [`pushes`] into a vector of its own.
    fn listed(puzzle: &Puzzle, state: &State, longest: Option<u32>) -> Vec<(Key, u32)> {
        let mut out = SmallVec::new();
        pushes(puzzle, state, longest, &mut out);
        out.into_vec()
    }

    #[test]
    fn tiny_optima() {
        let text = include_str!("../../../data/sokoboru/tiny.in");
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

    /// Every push by the rules: walk to any reachable cell, then any legal push from it; with
    /// its cost and its walk.
    fn pushes_by_the_rules(puzzle: &Puzzle, state: &State) -> Vec<(Key, u32, u32)> {
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

    /// Each case of the bundled medium file with the states of its first `layers` layers of pushes (the start
    /// is layer 0; at most 200 states a layer).
    fn near_the_medium_starts(layers: usize) -> Vec<(Puzzle, Vec<State>)> {
        let text = include_str!("../../../data/sokoboru/medium.in");
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

    #[test]
    fn pushes_are_every_push_by_the_rules_within_the_walk_limit() {
        let mut checked = 0;
        for (puzzle, states) in near_the_medium_starts(3) {
            for state in &states {
                let all = pushes_by_the_rules(&puzzle, state);
                for longest in [None, Some(0), Some(1), Some(3)] {
                    let mut listed = listed(&puzzle, state, longest);
                    listed.sort_unstable_by_key(|&(key, cost)| (key.0, cost));
                    let expected: Vec<_> = all
                        .iter()
                        .filter(|&&(_, _, walk)| longest.is_none_or(|l| walk <= l))
                        .map(|&(key, cost, _)| (key, cost))
                        .collect();
                    assert_eq!(listed, expected);
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked} lists checked");
    }

    #[test]
    fn keys_round_trip() {
        let text = include_str!("../../../data/sokoboru/medium.in");
        for puzzle in parse_puzzles(text).unwrap() {
            let start = puzzle.start;
            assert_eq!(Key::new(&start).state(), start);
            for (next, _) in listed(&puzzle, &start, None) {
                let state = next.state();
                assert_eq!(Key::new(&state), next);
                // Boxes stay boxes, and a ball leaves the board only by filling a box.
                let boxes = |s: &State| s.empty.count_ones() + s.full.count_ones();
                assert_eq!(boxes(&state), boxes(&start));
                assert_eq!(
                    start.balls.count_ones() - state.balls.count_ones(),
                    start.empty.count_ones() - state.empty.count_ones()
                );
            }
        }
    }

    /// A node budget's report counts the weighted searches' nodes too.
    #[test]
    fn a_node_budget_counts_every_search() {
        let text = include_str!("../../../data/sokoboru/small.in");
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
        let text = include_str!("../../../data/sokoboru/small.in");
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
        let text = include_str!("../../../data/sokoboru/medium.in");
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
    /// [`solve_anytime`] under a time limit gets a solution from the fallback search, whose
    /// penalty then bounds the exact search; the answers stay the known optima.
    #[test]
    fn the_fallback_search_supplies_the_upper_bound() {
        let text = include_str!("../../../data/sokoboru/tiny.in");
        let known = [44, 14, 28, 23, 18, 26, 22, 23, 24, 37];
        let timed = Limits::UNLIMITED.with_max_time(Duration::from_secs(60));
        let mut missed = 0;
        for (i, puzzle) in parse_puzzles(text).unwrap().iter().enumerate() {
            let plain = search(puzzle, timed.clone(), false, 40).unwrap();
            let anytime = search(puzzle, timed.clone(), true, 40).unwrap();
            assert_eq!((plain.penalty, anytime.penalty), (known[i], known[i]));
            if plain.upper.is_none() {
                missed += 1;
                let upper = anytime.upper.expect("the fallback found a solution");
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
            parse_puzzles(include_str!("../../../data/sokoboru/tiny.in"))
                .unwrap()
                .into_iter()
                .zip(tiny)
                .collect();
        // All but case 2, whose searches take most of the time.
        let small = parse_puzzles(include_str!("../../../data/sokoboru/small.in")).unwrap();
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
                (8, 1),
                None,
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
        let text = include_str!("../../../data/sokoboru/small.in");
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
    fn the_walk_to_the_next_push_agrees_with_the_rules() {
        let mut seen = [0usize; 3];
        for (puzzle, states) in near_the_medium_starts(3) {
            for state in &states {
                for (key, _) in listed(&puzzle, state, None) {
                    let child = key.state();
                    // The nearest cell the player can walk to and push from, by the rules.
                    let dist = walk_distances(&puzzle, &child);
                    let objects = child.empty | child.full | child.balls;
                    let by_rules = (0..puzzle.cells())
                        .filter(|&cell| dist[cell] != u8::MAX)
                        .filter(|&cell| {
                            let at = State {
                                player: cell as u8,
                                ..child
                            };
                            Dir::ALL.into_iter().any(|dir| {
                                puzzle
                                    .neighbour(cell, dir)
                                    .is_some_and(|n| objects & (1 << n) != 0)
                                    && at.step(&puzzle, dir).is_ok()
                            })
                        })
                        .map(|cell| u32::from(dist[cell]))
                        .min();
                    assert_eq!(
                        walk_to_push(&puzzle, &child).map(|walk| walk.steps),
                        by_rules
                    );
                    seen[by_rules.map_or(2, |d| usize::from(d > 0))] += 1;
                }
            }
        }
        assert!(
            seen[0] > 100 && seen[1] > 100,
            "at a push, walking, stuck: {seen:?}"
        );
    }

    /// A push that `may_lower` rules out never lowers the matching, and the walk to the next
    /// push that may lower it is the nearest such push by the rules (or one more than the
    /// walk to any push, whichever is less).
    #[test]
    fn the_walk_to_progress_agrees_with_the_rules() {
        let mut seen = [0usize; 3];
        for (puzzle, states) in near_the_medium_starts(3) {
            let bound = Bound::new(&puzzle);
            for state in &states {
                let matching = bound.estimate(state);
                let Some(duals) = bound.matching(state) else {
                    continue;
                };
                let dist = walk_distances(&puzzle, state);
                let mut nearest = None::<u32>;
                for cell in (0..puzzle.cells()).filter(|&cell| dist[cell] != u8::MAX) {
                    let at = State {
                        player: cell as u8,
                        ..*state
                    };
                    for dir in Dir::ALL {
                        let Ok(step) = at.step(&puzzle, dir) else {
                            continue;
                        };
                        if step.state.balls == at.balls
                            && step.state.empty == at.empty
                            && step.state.full == at.full
                        {
                            continue;
                        }
                        let lowers = duals.may_lower(&bound, state, &step.state);
                        if !lowers {
                            let after = bound.estimate(&step.state);
                            assert!(
                                after.is_none() || after >= matching,
                                "{}",
                                puzzle.render(&at)
                            );
                        }
                        let cost = u32::from(dist[cell]) + u32::from(!lowers);
                        nearest = Some(nearest.map_or(cost, |n| n.min(cost)));
                    }
                }
                let plain = walk_to_push(&puzzle, state);
                let walk = plain.map(|walk| {
                    walk.steps + u32::from(!progress_near(&puzzle, &bound, &duals, state, walk))
                });
                assert_eq!(walk, nearest, "{}", puzzle.render(state));
                let plain = plain.map(|walk| walk.steps);
                seen[match (walk, plain) {
                    (Some(w), Some(p)) if w > p => 1,
                    (Some(_), Some(_)) => 0,
                    _ => 2,
                }] += 1;
            }
        }
        assert!(
            seen[0] > 100 && seen[1] > 100,
            "at the walk, one more, stuck: {seen:?}"
        );
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
