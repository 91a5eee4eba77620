//! A*+IDA*: A* over the top of the tree while its stored states fit a budget, then IDA* below
//! each state left in its open list.
//!
//! Bu, Z. and Korf, R. E. (2019). *A\*+IDA\*: A simple hybrid search algorithm.* IJCAI 2019.
//! Past its early iterations, IDA*'s waste is duplicates: one state reached by several paths
//! in one iteration. A* stores the top of the tree once per state, so nothing up there is
//! searched twice, and its open list, the *frontier*, orders the subtrees below: each
//! iteration searches only the frontier states whose `f` equals the bound (a state whose
//! subtree was searched without a goal raises its `f` to the least `f` pruned below it, as
//! A* would), those of lowest `h` first (Bu and Korf, *A\*+BFHS*, AAAI 2022). Where the goal
//! lies in that order decides the last iteration, which dominates: a goal below an early
//! frontier state ends it after a small share of its subtrees, one below a late state only
//! after nearly all of them, where plain IDA*'s order may have met it sooner.
//!
//! Moves must cost more than nothing (the move back to a frontier state's parent is never
//! on an optimal path), and a problem without a solution ends only where A* stores every
//! reachable state, or a budget runs out, as plain IDA* does.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::hash::Hash;
use std::time::Instant;

use indexmap::IndexMap;
use indexmap::map::Entry;
use rustc_hash::FxBuildHasher;

use super::{
    Flow, IdaOutcome, IdaProblem, IdaReport, Search, SubtreeResult, Tally, estimate, report,
    share_out,
};
use crate::limits::{CLOCK_INTERVAL, Limits, SharedBudget};

/// An [`IdaProblem`] whose states can be told apart, for [`astar_ida_star`].
pub trait IdaStates: IdaProblem {
    /// What identifies the current state (the tiles of a sliding-tile puzzle, packed).
    type Key: Hash + Eq + Send + Sync;

    /// The key of the current state.
    fn key(&self) -> Self::Key;

    /// Makes the state of `key` the current one and returns its node, carrying nothing of
    /// the moves that led to it (a duplicate-pruning machine starts over): A* keeps one path
    /// to each state, so below a frontier state only strings of moves that lie wholly below
    /// it may be pruned. The move back to the state's parent is left out by
    /// [`astar_ida_star`] itself.
    fn restore(&mut self, key: &Self::Key) -> Self::Node;
}

/// A state stored by the A* phase: its parent's index, the move from it, and its path cost.
struct Stored<M> {
    parent: u32,
    mv: Option<M>,
    g: u32,
}

/// The states stored by the A* phase, in the order they were first reached.
type StoredMap<K, M> = IndexMap<K, Stored<M>, FxBuildHasher>;

/// A frontier state: its index among the stored states, its estimate, and its `f`, raised
/// each time its subtree is searched without a goal (`u32::MAX`: nothing below).
#[derive(Clone, Copy, Debug)]
struct Front {
    index: u32,
    h: u32,
    f: u32,
}

/// The A* phase's stored states, and how it ended.
type TopOf<P> = (
    StoredMap<<P as IdaStates>::Key, <P as IdaProblem>::Move>,
    Top<<P as IdaProblem>::Move>,
);

/// How the A* phase ended.
enum Top<M> {
    /// A goal taken from the open list, so optimal: its moves and cost.
    Goal(Vec<M>, u32),
    /// The stored states reached the budget: the open list's states, by `f`, then `h`.
    Frontier(Vec<Front>),
    /// Out of states (no solution), or a budget ran out.
    Ended(IdaOutcome<M>),
}

/// A*+IDA* on `threads` threads: A* until it stores `stored` states, then IDA* below the
/// states of its open list, each iteration's subtrees shared out in order as in
/// [`super::parallel_ida_star`]. The answer is optimal: every optimal path leaves A*'s
/// closed states through an open one reached at its optimal cost, each frontier state's `f`
/// stays a lower bound on the solutions below it, and the bound is the least of them.
/// Counters include the A* phase's states; with several threads the last iteration's depend
/// on timing.
pub fn astar_ida_star<P>(
    problem: &P,
    limits: Limits,
    threads: usize,
    stored: usize,
) -> IdaReport<P::Move>
where
    P: IdaStates + Clone + Send + Sync,
    P::Move: Send + Sync,
    P::Node: Send + Sync,
{
    let start = Instant::now();
    let mut top_problem = problem.clone();
    let root = top_problem.root();
    let initial_estimate = top_problem.heuristic(root, u32::MAX);
    let mut tally = Tally::default();
    let mut thresholds = Vec::new();
    let outcome = if initial_estimate == u32::MAX {
        IdaOutcome::NoSolution
    } else {
        let mut lower = initial_estimate;
        let (states, top) = top(
            &mut top_problem,
            initial_estimate,
            // Indices are 32 bits.
            stored.clamp(1, u32::MAX as usize),
            (&limits, start),
            &mut tally,
            &mut lower,
        );
        match top {
            Top::Goal(path, cost) => {
                thresholds.push(cost);
                IdaOutcome::Solved { cost, path }
            }
            Top::Ended(outcome) => {
                thresholds.push(lower);
                outcome
            }
            Top::Frontier(front) => {
                let run = Below {
                    problem,
                    states: &states,
                    limits: &limits,
                    threads: threads.max(1),
                    start,
                    shared: SharedBudget::default(),
                };
                run.shared.add(tally.generated);
                run.iterate(front, &mut thresholds, &mut tally)
            }
        }
    };
    report(
        outcome,
        initial_estimate,
        thresholds,
        (tally.generated, tally.expanded),
        start.elapsed(),
    )
}

/// The moves from the start to the stored state `index`.
fn moves_to<K, M: Copy>(states: &StoredMap<K, M>, index: u32) -> Vec<M> {
    let mut path = Vec::new();
    let mut at = index as usize;
    while let Some(mv) = states[at].mv {
        path.push(mv);
        at = states[at].parent as usize;
    }
    path.reverse();
    path
}

/// The A* phase, from the problem's current state (estimate `root_h`) until `most` states
/// are stored; `lower` rises to the largest `f` it expanded.
fn top<P: IdaStates>(
    problem: &mut P,
    root_h: u32,
    most: usize,
    (limits, start): (&Limits, Instant),
    tally: &mut Tally,
    lower: &mut u32,
) -> TopOf<P> {
    let mut states = StoredMap::default();
    let no_parent = u32::MAX;
    states.insert(
        problem.key(),
        Stored {
            parent: no_parent,
            mv: None,
            g: 0,
        },
    );
    // Lowest `f` first, then lowest `h`: the deepest.
    let mut open = BinaryHeap::new();
    open.push(Reverse((root_h, root_h, 0u32)));
    let mut budget = limits.poller(start, CLOCK_INTERVAL);
    while states.len() < most {
        let Some(Reverse((f, h, index))) = open.pop() else {
            return (states, Top::Ended(IdaOutcome::NoSolution));
        };
        let g = f - h;
        if states[index as usize].g != g {
            // Reached more cheaply since it was queued.
            continue;
        }
        *lower = (*lower).max(f);
        let (key, stored) = states.get_index(index as usize).expect("stored");
        let last = stored.mv;
        let node = problem.restore(key);
        if problem.is_goal(node) {
            let path = moves_to(&states, index);
            return (states, Top::Goal(path, g));
        }
        tally.expanded += 1;
        for slot in problem.moves(node, last) {
            let Some(mv) = slot else { continue };
            tally.generated += 1;
            if let Err(why) = budget.check(tally.generated) {
                return (states, Top::Ended(IdaOutcome::GaveUp(why)));
            }
            let (child, cost) = problem.apply(node, mv);
            let child_h = problem.heuristic(child, u32::MAX);
            let key = problem.key();
            problem.undo(node, mv, child);
            if child_h == u32::MAX {
                continue;
            }
            let child_g = g + cost;
            let child_index = match states.entry(key) {
                Entry::Vacant(slot) => {
                    let at = slot.index();
                    slot.insert(Stored {
                        parent: index,
                        mv: Some(mv),
                        g: child_g,
                    });
                    at
                }
                Entry::Occupied(mut slot) if child_g < slot.get().g => {
                    *slot.get_mut() = Stored {
                        parent: index,
                        mv: Some(mv),
                        g: child_g,
                    };
                    slot.index()
                }
                Entry::Occupied(_) => continue,
            };
            let child_index = u32::try_from(child_index).expect("fewer states than 2^32");
            open.push(Reverse((child_g + child_h, child_h, child_index)));
        }
    }
    let mut front: Vec<Front> = open
        .into_iter()
        .filter_map(|Reverse((f, h, index))| {
            (states[index as usize].g == f - h).then_some(Front { index, h, f })
        })
        .collect();
    front.sort_unstable_by_key(|s| (s.f, s.h, s.index));
    (states, Top::Frontier(front))
}

/// What stays the same through the IDA* iterations below the frontier.
struct Below<'a, P: IdaStates> {
    /// The problem every thread clones.
    problem: &'a P,
    states: &'a StoredMap<P::Key, P::Move>,
    limits: &'a Limits,
    threads: usize,
    start: Instant,
    /// The node budget and the cancellation the threads share.
    shared: SharedBudget,
}

impl<P> Below<'_, P>
where
    P: IdaStates + Clone + Send + Sync,
    P::Move: Send + Sync,
    P::Node: Send + Sync,
{
    /// The iterations: each searches the frontier states whose `f` is the least, by `h`,
    /// raises the `f` of those without a goal, and stops at the first goal in that order.
    fn iterate(
        &self,
        mut front: Vec<Front>,
        thresholds: &mut Vec<u32>,
        tally: &mut Tally,
    ) -> IdaOutcome<P::Move> {
        let mut chosen = Vec::new();
        loop {
            let bound = front.iter().map(|s| s.f).min().unwrap_or(u32::MAX);
            if bound == u32::MAX {
                return IdaOutcome::NoSolution;
            }
            thresholds.push(bound);
            if let Some(progress) = &self.limits.progress {
                progress.iteration_started(bound);
            }
            chosen.clear();
            chosen.extend((0..front.len()).filter(|&i| front[i].f == bound));
            // The deepest first (Bu and Korf); stable, so equal `h` keep A*'s order.
            chosen.sort_by_key(|&i| front[i].h);
            let results = self.search(&front, &chosen, bound);
            let mut found: Option<(usize, u32, Vec<P::Move>)> = None;
            let mut gave_up = None;
            for (k, result) in results {
                tally.generated += result.tally.generated;
                tally.expanded += result.tally.expanded;
                match result.flow {
                    Flow::Continue => front[chosen[k]].f = result.tally.next_bound,
                    Flow::Found if found.as_ref().is_none_or(|(first, ..)| k < *first) => {
                        found = Some((k, result.cost, result.path));
                    }
                    Flow::Found => {}
                    Flow::Stop(why) => gave_up = gave_up.or(Some(why)),
                }
            }
            if let Some((k, cost, below)) = found {
                let mut path = moves_to(self.states, front[chosen[k]].index);
                path.extend(below);
                return IdaOutcome::Solved { cost, path };
            }
            if let Some(why) = gave_up.filter(|why| *why != crate::GiveUp::Cancelled) {
                return IdaOutcome::GaveUp(why);
            }
            if let Some(progress) = &self.limits.progress {
                progress.iteration_ended(bound, tally.generated, tally.expanded);
            }
        }
    }

    /// Searches the frontier states `chosen` (indices into `front`) within `bound`, handed
    /// out in order to the threads; each result with its place in `chosen`.
    fn search(
        &self,
        front: &[Front],
        chosen: &[usize],
        bound: u32,
    ) -> Vec<(usize, SubtreeResult<P::Move>)> {
        share_out(self.problem, self.threads, chosen.len(), |local, k| {
            self.search_one(local, front[chosen[k]].index, bound)
        })
    }

    /// IDA* within `bound` below the stored state `index`, on a thread's own problem.
    fn search_one(&self, problem: &mut P, index: u32, bound: u32) -> SubtreeResult<P::Move> {
        let (key, stored) = self.states.get_index(index as usize).expect("stored");
        let parent_key = self
            .states
            .get_index(stored.parent as usize)
            .map(|(key, _)| key);
        let node = problem.restore(key);
        let budget = self
            .limits
            .shared_poller(self.start, CLOCK_INTERVAL, &self.shared);
        let mut search = Search::new(problem, bound, budget, true);
        let flow = expand_front(&mut search, stored.g, node, stored.mv, parent_key);
        search.result(flow, &self.shared)
    }
}

/// A frontier state's own expansion, at path cost `g`: [`Search::dfs`]'s, leaving out the
/// child that is the state's parent in A*'s tree (the move back, which a pruning that
/// [`IdaStates::restore`] started over may no longer leave out).
fn expand_front<P: IdaStates>(
    search: &mut Search<'_, P>,
    g: u32,
    node: P::Node,
    last: Option<P::Move>,
    parent: Option<&P::Key>,
) -> Flow {
    if search.problem.is_goal(node) {
        search.cost = g;
        return Flow::Found;
    }
    search.expanded += 1;
    if let Err(why) = search.budget.check(search.generated) {
        return Flow::Stop(why);
    }
    for slot in search.problem.moves(node, last) {
        let Some(mv) = slot else { continue };
        let (child, step) = search.problem.apply(node, mv);
        if parent.is_some_and(|parent| *parent == search.problem.key()) {
            search.problem.undo(node, mv, child);
            continue;
        }
        search.generated += 1;
        let child_g = g + step;
        let f = estimate(search.problem, child, child_g, search.bound);
        if f > search.bound {
            search.next_bound = search.next_bound.min(f);
            search.problem.undo(node, mv, child);
            continue;
        }
        if search.problem.is_goal(child) {
            search.cost = child_g;
            search.path.push(mv);
            search.problem.undo(node, mv, child);
            return Flow::Found;
        }
        let flow = search.dfs(child_g, child, Some(mv));
        search.problem.undo(node, mv, child);
        match flow {
            Flow::Continue => {}
            Flow::Found => {
                search.path.push(mv);
                return Flow::Found;
            }
            Flow::Stop(why) => return Flow::Stop(why),
        }
    }
    Flow::Continue
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ending, Filled, GiveUp, ida_star};

    /// A walk on a grid with walls, where many paths reach each cell: moves cost 1, or 3
    /// into a cell of the rough column; the estimate is the Manhattan distance.
    #[derive(Clone)]
    struct Grid {
        walls: Vec<Vec<bool>>,
        at: (usize, usize),
        goal: (usize, usize),
    }

    impl Grid {
        fn new(rows: &[&str], goal: (usize, usize)) -> Grid {
            Grid {
                walls: rows
                    .iter()
                    .map(|row| row.chars().map(|c| c == '#').collect())
                    .collect(),
                at: (0, 0),
                goal,
            }
        }

        fn step(&self, (r, c): (usize, usize), mv: u8) -> Option<(usize, usize)> {
            let (r, c) = match mv {
                0 => (r.checked_sub(1)?, c),
                1 => (r + 1, c),
                2 => (r, c.checked_sub(1)?),
                _ => (r, c + 1),
            };
            (!*self.walls.get(r)?.get(c)?).then_some((r, c))
        }

        /// The cheapest cost from the start to every cell, by Dijkstra's algorithm.
        fn cheapest(&self) -> Option<u32> {
            let start = (0, 0);
            let found = crate::dijkstra(
                &start,
                |&at: &(usize, usize)| {
                    (0..4)
                        .filter_map(|mv| self.step(at, mv))
                        .map(|to| (to, Grid::cost(to)))
                        .collect::<Vec<_>>()
                },
                |&at| at == self.goal,
                Limits::UNLIMITED,
            );
            found.ok().map(|found| found.cost)
        }

        fn cost((_, c): (usize, usize)) -> u32 {
            if c == 3 { 3 } else { 1 }
        }
    }

    impl IdaProblem for Grid {
        type Move = u8;
        type Moves = Filled<std::vec::IntoIter<u8>>;
        type Node = ();

        fn root(&mut self) {}
        fn heuristic(&mut self, (): (), _budget: u32) -> u32 {
            (self.at.0.abs_diff(self.goal.0) + self.at.1.abs_diff(self.goal.1)) as u32
        }
        fn is_goal(&self, (): ()) -> bool {
            self.at == self.goal
        }
        fn moves(&self, (): (), _last: Option<u8>) -> Self::Moves {
            let moves: Vec<u8> = (0..4)
                .filter(|&mv| self.step(self.at, mv).is_some())
                .collect();
            Filled(moves.into_iter())
        }
        fn apply(&mut self, (): (), mv: u8) -> ((), u32) {
            self.at = self.step(self.at, mv).expect("a legal move");
            ((), Grid::cost(self.at))
        }
        fn undo(&mut self, (): (), mv: u8, (): ()) {
            self.at = self.step(self.at, mv ^ 1).expect("the move back");
        }
    }

    impl IdaStates for Grid {
        type Key = (usize, usize);
        fn key(&self) -> (usize, usize) {
            self.at
        }
        fn restore(&mut self, key: &(usize, usize)) {
            self.at = *key;
        }
    }

    const ROOM: [&str; 6] = ["......", ".##.#.", "...#..", ".#....", ".#.##.", "......"];

    #[test]
    fn optimal_on_every_goal_whatever_the_a_star_share_and_threads() {
        for r in 0..6 {
            for c in 0..6 {
                let grid = Grid::new(&ROOM, (r, c));
                if grid.walls[r][c] {
                    continue;
                }
                let cheapest = grid.cheapest();
                assert_eq!(
                    ida_star(&mut grid.clone(), Limits::UNLIMITED).cost(),
                    cheapest
                );
                for stored in [1, 2, 5, 20, 1000] {
                    for threads in [1, 2] {
                        let report = astar_ida_star(&grid, Limits::UNLIMITED, threads, stored);
                        assert_eq!(report.cost(), cheapest, "goal {r},{c}, {stored} stored");
                        let Ending::Solved { moves, .. } = report.ending else {
                            panic!("goal {r},{c}: not solved");
                        };
                        let mut walk = grid.clone();
                        let cost: u32 = moves.iter().map(|&mv| walk.apply((), mv).1).sum();
                        assert_eq!((walk.at, Some(cost)), ((r, c), cheapest));
                        assert_eq!(report.extra.thresholds.last().copied(), cheapest);
                    }
                }
            }
        }
    }

    #[test]
    fn an_unreachable_goal_is_no_solution_and_budgets_stop_it() {
        // A* that stores every reachable state proves the goal unreachable; below a smaller
        // frontier, IDA* would search the cycles until a budget ran out.
        let walled = ["..#.", "###.", "...."];
        let grid = Grid::new(&walled, (0, 3));
        for stored in [3, 100] {
            let report = astar_ida_star(&grid, Limits::UNLIMITED, 2, stored);
            assert_eq!(report.ending, Ending::Unsolvable, "{stored} stored");
        }
        let room = Grid::new(&["...#.", "...#.", "...#."], (0, 4));
        for stored in [1, 2, 5] {
            let limits = Limits::default().with_max_nodes(1_000);
            let report = astar_ida_star(&room, limits, 2, stored);
            assert_eq!(
                (report.ending, report.stopped),
                (Ending::Stopped, Some(GiveUp::NodeLimit)),
                "{stored} stored"
            );
        }
        let report = astar_ida_star(&room, Limits::UNLIMITED, 2, 10);
        assert_eq!(report.ending, Ending::Unsolvable);
    }
}
