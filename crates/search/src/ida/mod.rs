//! Iterative-deepening A* (IDA*): [`ida_star`], whose docs give the algorithm and its
//! sources, [`parallel_ida_star`] and [`ida_probe`], over an [`IdaProblem`].

mod hybrid;
mod table;

pub use hybrid::{IdaStates, astar_ida_star};
pub use table::BoundTable;

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::limits::{CLOCK_INTERVAL, GiveUp, Limits, Poller, SharedBudget};
use crate::report::{Ending, Report};

/// A problem searched by [`ida_star`]: one mutable state that moves are applied to and undone.
///
/// The problem is mutated in place: [`IdaProblem::apply`] and [`IdaProblem::undo`] make and
/// unmake a move and keep the heuristic up to date incrementally, and [`IdaProblem::moves`]
/// returns an owned iterator (a bit set, a small array) so no node allocates.
///
/// Besides the state held by the problem, each node may carry a small `Copy` value, its
/// [`IdaProblem::Node`], which the search passes down the recursion by value so that it lives in
/// registers (for the sliding-tile puzzles: the blank's cell and the heuristic value). Problems
/// that keep everything in `self` use `()`.
///
/// Parent pruning is the problem's business: [`IdaProblem::moves`] receives the move that led to
/// the current state and may leave out its inverse.
pub trait IdaProblem {
    /// A move; small and `Copy` (a direction, a pair of cells).
    type Move: Copy;
    /// The moves of one state: an owned iterator that does not borrow the problem, over
    /// slots that each hold a move or are empty (`None`). A problem with a fixed set of moves
    /// returns a fixed-size array of slots (the four directions of a sliding-tile puzzle, the
    /// unavailable ones empty): the compiler then unrolls the loop over them into one branch
    /// per move, each predicted on its own, which is faster than a loop over the available
    /// moves only (ledger row "IDA*: move slots"). Other problems wrap their move list in [`Filled`].
    type Moves: Iterator<Item = Option<Self::Move>>;
    /// Per-node values carried by value through the recursion.
    type Node: Copy;

    /// The node of the current (start) state.
    fn root(&mut self) -> Self::Node;

    /// An admissible lower bound on the remaining cost from the current state.
    ///
    /// `budget` is the largest value that would not prune the state; a heuristic made of
    /// several parts may stop computing and return any value above `budget` once it knows the
    /// state is pruned (for example it may skip a reflected lookup).
    fn heuristic(&mut self, node: Self::Node, budget: u32) -> u32;

    /// Whether the current state is a goal.
    fn is_goal(&self, node: Self::Node) -> bool;

    /// The moves to try from the current state; `last` is the move that led here, if any.
    fn moves(&self, node: Self::Node, last: Option<Self::Move>) -> Self::Moves;

    /// Applies `mv` to the current state, whose node is `node`, and returns the new node and
    /// the move's cost.
    fn apply(&mut self, node: Self::Node, mv: Self::Move) -> (Self::Node, u32);

    /// Undoes `mv`, the last move applied; `node` is the node before it was applied and
    /// `child` the node after.
    fn undo(&mut self, node: Self::Node, mv: Self::Move, child: Self::Node);

    /// The child `mv` leads to, evaluated without applying it, if the problem can tell
    /// cheaply: its node, the move's cost and an admissible lower bound for it. IDA* then prunes
    /// the child without paying for `apply` and `undo`; a child it keeps is applied with
    /// [`IdaProblem::apply_prepared`] and not evaluated again. `budget` is the largest lower
    /// bound that would not prune the child. The default, `None`, means "apply it and ask
    /// [`IdaProblem::heuristic`]".
    #[inline(always)]
    fn lookahead(
        &mut self,
        node: Self::Node,
        mv: Self::Move,
        budget: u32,
    ) -> Option<Prepared<Self::Node>> {
        let _ = (node, mv, budget);
        None
    }

    /// Applies `mv`, whose child [`IdaProblem::lookahead`] prepared as `child`. The default
    /// calls [`IdaProblem::apply`].
    #[inline(always)]
    fn apply_prepared(&mut self, node: Self::Node, mv: Self::Move, child: Self::Node) {
        let _ = (child, self.apply(node, mv));
    }

    /// Called when the subtree below the current state has been searched completely with
    /// `budget` left (the bound minus the state's path cost) and holds no goal: the state's
    /// remaining cost is above `budget`. A problem with a transposition table ([`BoundTable`]) records it and
    /// may later return `budget + 1` from [`IdaProblem::heuristic`] for the same state, which
    /// is admissible. The default does nothing.
    #[inline(always)]
    fn exhausted(&mut self, node: Self::Node, budget: u32) {
        let _ = (node, budget);
    }
}

/// Every move of a list as a filled slot: the [`IdaProblem::Moves`] of a problem whose
/// moves vary in number.
#[derive(Clone, Debug, Default)]
pub struct Filled<I>(pub I);

impl<I: Iterator> Iterator for Filled<I> {
    type Item = Option<I::Item>;

    #[inline(always)]
    fn next(&mut self) -> Option<Option<I::Item>> {
        self.0.next().map(Some)
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.0.size_hint()
    }
}

/// A child evaluated by [`IdaProblem::lookahead`] before it is applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prepared<N> {
    /// The child's node.
    pub node: N,
    /// The cost of the move.
    pub cost: u32,
    /// An admissible lower bound on the child's remaining cost.
    pub bound: u32,
}

/// How an IDA* search ended, before it becomes its [`Report`].
#[derive(Clone, Debug, PartialEq, Eq)]
enum IdaOutcome<M> {
    /// An optimal solution: its cost and its moves from the start state.
    Solved { cost: u32, path: Vec<M> },
    /// The whole reachable space was searched: no goal exists.
    NoSolution,
    /// A budget ran out before the search could prove an answer.
    GaveUp(GiveUp),
}

/// What an IDA* search adds to its [`Report`]: every bound it tried, in order (the last one
/// is the solution's cost when solved, and the lower bound it proved when stopped).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct IdaExtra {
    /// Every bound tried, first to last.
    pub thresholds: Vec<u32>,
}

/// The report of [`ida_star`] and [`parallel_ida_star`]: its initial bound is the heuristic
/// value of the start, its lower bound the last threshold, and its counts the nodes generated
/// (children created by [`IdaProblem::apply`], the root excluded) and expanded (nodes whose
/// children were generated, the root included).
pub type IdaReport<M> = Report<M, IdaExtra>;

/// The report of a search that ended with `outcome`, from the start's `initial_estimate`,
/// after trying `thresholds`.
fn report<M>(
    outcome: IdaOutcome<M>,
    initial_estimate: u32,
    thresholds: Vec<u32>,
    (generated, expanded): (u64, u64),
    elapsed: Duration,
) -> IdaReport<M> {
    let (ending, stopped) = match outcome {
        IdaOutcome::Solved { cost, path } => (Ending::Solved { cost, moves: path }, None),
        IdaOutcome::NoSolution => (Ending::Unsolvable, None),
        IdaOutcome::GaveUp(why) => (Ending::Stopped, Some(why)),
    };
    Report {
        ending,
        stopped,
        initial_bound: initial_estimate,
        // Every bound before the last was searched through without a goal.
        lower_bound: thresholds.last().copied().unwrap_or(initial_estimate),
        generated,
        expanded,
        elapsed,
        extra: IdaExtra { thresholds },
    }
}

/// What a depth-first iteration found.
enum Flow {
    /// Nothing within the bound below this node.
    Continue,
    /// A goal: the path is collected while unwinding.
    Found,
    /// A budget ran out.
    Stop(GiveUp),
}

/// State of one IDA* run.
struct Search<'p, P: IdaProblem> {
    problem: &'p mut P,
    bound: u32,
    next_bound: u32,
    generated: u64,
    expanded: u64,
    budget: Poller<'p>,
    /// The moves to the goal, collected while unwinding when `collect_path` is set.
    path: Vec<P::Move>,
    collect_path: bool,
    cost: u32,
}

impl<'p, P: IdaProblem> Search<'p, P> {
    /// A search of `problem` with a first `bound`, checking `budget`, collecting the path to a
    /// goal if `collect_path`.
    fn new(problem: &'p mut P, bound: u32, budget: Poller<'p>, collect_path: bool) -> Self {
        Search {
            problem,
            bound,
            next_bound: u32::MAX,
            generated: 0,
            expanded: 0,
            budget,
            path: Vec::new(),
            collect_path,
            cost: 0,
        }
    }

    /// Depth-first search below the current state, whose path cost is `g`.
    fn dfs(&mut self, g: u32, node: P::Node, last: Option<P::Move>) -> Flow {
        self.expanded += 1;
        let room = self.bound - g;
        if let Err(why) = self.budget.check(self.generated) {
            return Flow::Stop(why);
        }
        for slot in self.problem.moves(node, last) {
            let Some(mv) = slot else { continue };
            // Children are counted as they are tried: those left untried when a goal is found
            // are not generated.
            self.generated += 1;
            let (child, child_g);
            if let Some(prepared) = self.problem.lookahead(node, mv, room) {
                let estimate = prepared.cost.saturating_add(prepared.bound);
                if estimate > room {
                    self.next_bound = self.next_bound.min(g.saturating_add(estimate));
                    continue;
                }
                self.problem.apply_prepared(node, mv, prepared.node);
                (child, child_g) = (prepared.node, g + prepared.cost);
            } else {
                let (next, step) = self.problem.apply(node, mv);
                (child, child_g) = (next, g + step);
                let f = estimate(self.problem, child, child_g, self.bound);
                if f > self.bound {
                    self.next_bound = self.next_bound.min(f);
                    self.problem.undo(node, mv, child);
                    continue;
                }
            }
            if self.problem.is_goal(child) {
                self.cost = child_g;
                if self.collect_path {
                    self.path.push(mv);
                }
                self.problem.undo(node, mv, child);
                return Flow::Found;
            }
            let flow = self.dfs(child_g, child, Some(mv));
            self.problem.undo(node, mv, child);
            match flow {
                Flow::Continue => {}
                Flow::Found => {
                    if self.collect_path {
                        self.path.push(mv);
                    }
                    return Flow::Found;
                }
                Flow::Stop(why) => return Flow::Stop(why),
            }
        }
        self.problem.exhausted(node, room);
        Flow::Continue
    }
}

impl<P: IdaProblem> Search<'_, P> {
    /// The result of a subtree's search that ended with `flow`: its counts, and the goal's
    /// cost and moves below the subtree's root; a goal tells the threads sharing `shared` to
    /// stop.
    fn result(&mut self, flow: Flow, shared: &SharedBudget) -> SubtreeResult<P::Move> {
        if matches!(flow, Flow::Found) {
            shared.cancel();
        }
        let mut path = std::mem::take(&mut self.path);
        path.reverse();
        SubtreeResult {
            flow,
            tally: Tally {
                generated: self.generated,
                expanded: self.expanded,
                next_bound: self.next_bound,
            },
            cost: self.cost,
            path,
        }
    }
}

/// The `f` value of a child at path cost `g`: `g` plus the heuristic, which need not be
/// computed in full beyond what `bound` allows.
#[inline(always)]
fn estimate<P: IdaProblem>(problem: &mut P, child: P::Node, g: u32, bound: u32) -> u32 {
    match bound.checked_sub(g) {
        Some(room) => g.saturating_add(problem.heuristic(child, room)),
        None => g,
    }
}

/// One frontier node of [`parallel_ida_star`]: the moves from the root.
struct Subtree<M> {
    path: Vec<M>,
}

/// What splitting an iteration's top levels found.
enum Split<M> {
    /// A goal above the split depth.
    Goal(Vec<M>, u32),
    /// The nodes at the split depth (or fewer, when the tree is shallow).
    Frontier(Vec<Subtree<M>>),
}

/// Applies `path` from the root; returns the nodes along it (root first) and the path cost.
fn descend<P: IdaProblem>(problem: &mut P, root: P::Node, path: &[P::Move]) -> (Vec<P::Node>, u32) {
    let mut nodes = Vec::with_capacity(path.len() + 1);
    nodes.push(root);
    let mut g = 0;
    for &mv in path {
        let (child, cost) = problem.apply(*nodes.last().expect("root"), mv);
        g += cost;
        nodes.push(child);
    }
    (nodes, g)
}

/// Undoes what [`descend`] applied.
fn ascend<P: IdaProblem>(problem: &mut P, nodes: &[P::Node], path: &[P::Move]) {
    for (i, &mv) in path.iter().enumerate().rev() {
        problem.undo(nodes[i], mv, nodes[i + 1]);
    }
}

/// Counters of one parallel iteration.
#[derive(Default)]
struct Tally {
    generated: u64,
    expanded: u64,
    next_bound: u32,
}

/// Expands the top of the tree level by level, within `bound`, until there are at least
/// `wanted` nodes or `max_depth` levels.
fn split<P: IdaProblem>(
    problem: &mut P,
    root: P::Node,
    bound: u32,
    wanted: usize,
    max_depth: usize,
    tally: &mut Tally,
) -> Split<P::Move> {
    let mut level = vec![Subtree { path: Vec::new() }];
    for _ in 0..max_depth {
        if level.len() >= wanted {
            break;
        }
        let mut next = Vec::with_capacity(level.len() * 3);
        for subtree in &level {
            let (nodes, g) = descend(problem, root, &subtree.path);
            let node = *nodes.last().expect("root");
            tally.expanded += 1;
            let moves = problem.moves(node, subtree.path.last().copied());
            for mv in moves.flatten() {
                tally.generated += 1;
                let (child, cost) = problem.apply(node, mv);
                let child_g = g + cost;
                let f = estimate(problem, child, child_g, bound);
                let goal = f <= bound && problem.is_goal(child);
                problem.undo(node, mv, child);
                if f > bound {
                    tally.next_bound = tally.next_bound.min(f);
                    continue;
                }
                let mut path = subtree.path.clone();
                path.push(mv);
                if goal {
                    ascend(problem, &nodes, &subtree.path);
                    return Split::Goal(path, child_g);
                }
                next.push(Subtree { path });
            }
            ascend(problem, &nodes, &subtree.path);
        }
        level = next;
    }
    Split::Frontier(level)
}

/// IDA* on `threads` threads: each iteration expands the top levels of the tree and searches
/// the subtrees below in parallel, each thread on its own clone of the problem taking the next
/// subtree in order (a few hundred per thread) when it is done with one. With one thread it is
/// [`ida_star`].
///
/// The answer is optimal for the same reason: every iteration's bound is the least `f` the
/// previous one pruned, so no solution is cheaper, and any goal found within it costs exactly
/// the bound. When one thread finds a goal the others stop; counters then depend on timing.
/// The node budget is shared, counted in steps of a few thousand nodes per thread.
///
/// Subtree search in parallel: Rao, Kumar and Ramesh, "A parallel implementation of
/// Iterative-Deepening-A*", AAAI 1987; Powley and Korf, "Single-agent parallel window
/// search", IEEE PAMI 13(5), 1991.
pub fn parallel_ida_star<P>(problem: &P, limits: Limits, threads: usize) -> IdaReport<P::Move>
where
    P: IdaProblem + Clone + Send + Sync,
    P::Move: Send + Sync,
    P::Node: Send + Sync,
{
    let mut root_problem = problem.clone();
    if threads <= 1 {
        return ida_star(&mut root_problem, limits);
    }
    let start = Instant::now();
    let root = root_problem.root();
    let initial_estimate = root_problem.heuristic(root, u32::MAX);
    let mut totals = Totals::default();
    let outcome = match settled_at_the_root(&root_problem, root, initial_estimate) {
        Some((outcome, thresholds)) => {
            totals.thresholds = thresholds;
            outcome
        }
        None => {
            let run = ParallelRun {
                problem,
                root,
                limits: &limits,
                threads,
                start,
                shared: SharedBudget::default(),
            };
            let mut bound = initial_estimate;
            loop {
                if let Some(progress) = &limits.progress {
                    progress.iteration_started(bound);
                }
                let step = run.iteration(&mut root_problem, bound, &mut totals);
                if let Some(progress) = &limits.progress
                    && !matches!(step, Iteration::Ended(IdaOutcome::GaveUp(_)))
                {
                    progress.iteration_ended(bound, totals.generated, totals.expanded);
                }
                match step {
                    Iteration::Ended(outcome) => break outcome,
                    Iteration::Deepen(next_bound) => bound = next_bound,
                }
            }
        }
    };
    report(
        outcome,
        initial_estimate,
        totals.thresholds,
        (totals.generated, totals.expanded),
        start.elapsed(),
    )
}

/// The outcome of [`parallel_ida_star`] before any iteration, with its bounds tried, if the
/// root alone settles it: a goal at the root (cost 0, after the one bound 0, as [`ida_star`]
/// reports it), or a heuristic that proves the root a dead end (no bound tried). Neither may
/// start an iteration, which would split a tree that has nothing to search.
fn settled_at_the_root<P: IdaProblem>(
    problem: &P,
    root: P::Node,
    initial_estimate: u32,
) -> Option<(IdaOutcome<P::Move>, Vec<u32>)> {
    if problem.is_goal(root) {
        let outcome = IdaOutcome::Solved {
            cost: 0,
            path: Vec::new(),
        };
        return Some((outcome, vec![0]));
    }
    (initial_estimate == u32::MAX).then(|| (IdaOutcome::NoSolution, Vec::new()))
}

/// What every iteration of [`parallel_ida_star`] adds to its report: the bounds tried and
/// the nodes of the splits and of every subtree.
#[derive(Default)]
struct Totals {
    thresholds: Vec<u32>,
    generated: u64,
    expanded: u64,
}

/// How one iteration of [`parallel_ida_star`] ended.
enum Iteration<M> {
    /// The search is over: solved, gave up, or no goal below any bound.
    Ended(IdaOutcome<M>),
    /// No goal within the bound: the next iteration's bound, the least `f` pruned.
    Deepen(u32),
}

/// What stays the same through the iterations of one [`parallel_ida_star`].
struct ParallelRun<'a, P: IdaProblem> {
    /// The problem every thread clones, in its start state.
    problem: &'a P,
    root: P::Node,
    limits: &'a Limits,
    threads: usize,
    start: Instant,
    /// The node budget and the cancellation the threads share for the whole search.
    shared: SharedBudget,
}

impl<P> ParallelRun<'_, P>
where
    P: IdaProblem + Clone + Send + Sync,
    P::Move: Send + Sync,
    P::Node: Send + Sync,
{
    /// One iteration with `bound`: the top of the tree is split on `root_problem` (a goal
    /// there ends the search at once), the subtrees below are searched in parallel, and what
    /// they found decides. Its bound and nodes are added to `totals`.
    fn iteration(
        &self,
        root_problem: &mut P,
        bound: u32,
        totals: &mut Totals,
    ) -> Iteration<P::Move> {
        totals.thresholds.push(bound);
        let mut tally = Tally {
            next_bound: u32::MAX,
            ..Tally::default()
        };
        // About 256 subtrees a thread, so that a thread that drew easy ones finds more.
        let frontier = match split(
            root_problem,
            self.root,
            bound,
            256 * self.threads,
            40,
            &mut tally,
        ) {
            Split::Goal(path, cost) => {
                totals.generated += tally.generated;
                totals.expanded += tally.expanded;
                return Iteration::Ended(IdaOutcome::Solved { cost, path });
            }
            Split::Frontier(frontier) => frontier,
        };
        self.shared.add(tally.generated);
        let results = self.search_frontier(&frontier, bound);
        totals.generated += tally.generated;
        totals.expanded += tally.expanded;
        merge(&frontier, results, tally.next_bound, totals)
    }

    /// Searches the subtrees of `frontier` within `bound` on the run's threads, and returns
    /// each thread's results (the subtree's index and how its search ended), thread by thread.
    fn search_frontier(
        &self,
        frontier: &[Subtree<P::Move>],
        bound: u32,
    ) -> Vec<(usize, SubtreeResult<P::Move>)> {
        share_out(self.problem, self.threads, frontier.len(), |local, i| {
            search_subtree(
                local,
                self.root,
                &frontier[i],
                bound,
                self.limits,
                self.start,
                &self.shared,
            )
        })
    }
}

/// Searches `count` subtrees with `search` (given a thread's own clone of `problem` and the
/// subtree's index) on `threads` threads, and returns each thread's results (the index and
/// how its search ended), thread by thread.
///
/// Subtrees are handed out in order from a shared counter, so that the threads together
/// search the last iteration's tree in about the sequential order and stop about where the
/// sequential search would; a thread stops at a subtree that ends the iteration (a goal, or a
/// budget that ran out, which stops the other threads too).
fn share_out<P, F>(
    problem: &P,
    threads: usize,
    count: usize,
    search: F,
) -> Vec<(usize, SubtreeResult<P::Move>)>
where
    P: IdaProblem + Clone + Sync,
    P::Move: Send,
    F: Fn(&mut P, usize) -> SubtreeResult<P::Move> + Sync,
{
    let next = AtomicUsize::new(0);
    let work = || {
        let mut local = problem.clone();
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= count {
                break;
            }
            let result = search(&mut local, i);
            let stop = !matches!(result.flow, Flow::Continue);
            done.push((i, result));
            if stop {
                break;
            }
        }
        done
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().expect("an IDA* worker panicked"))
            .collect()
    })
}

/// Adds up the subtrees' `results` in `totals` and decides the iteration: the goal met first
/// in the threads' order (its path from the root is the subtree's path and the goal's within
/// it), else a budget that ran out (a thread cancelled by a sibling that found the goal is not
/// one), else no goal when nothing was pruned, else the next bound, the least `f` pruned by
/// the split (`split_next_bound`) or any subtree.
fn merge<M: Clone>(
    frontier: &[Subtree<M>],
    results: Vec<(usize, SubtreeResult<M>)>,
    split_next_bound: u32,
    totals: &mut Totals,
) -> Iteration<M> {
    let mut next_bound = split_next_bound;
    let mut found: Option<(u32, Vec<M>)> = None;
    let mut gave_up = None;
    for (
        i,
        SubtreeResult {
            flow,
            tally,
            cost,
            path,
        },
    ) in results
    {
        totals.generated += tally.generated;
        totals.expanded += tally.expanded;
        next_bound = next_bound.min(tally.next_bound);
        match flow {
            Flow::Found if found.is_none() => {
                let mut full = frontier[i].path.clone();
                full.extend(path);
                found = Some((cost, full));
            }
            Flow::Stop(why) if why != GiveUp::Cancelled => gave_up = Some(why),
            _ => {}
        }
    }
    if let Some((cost, path)) = found {
        return Iteration::Ended(IdaOutcome::Solved { cost, path });
    }
    if let Some(why) = gave_up {
        return Iteration::Ended(IdaOutcome::GaveUp(why));
    }
    if next_bound == u32::MAX {
        return Iteration::Ended(IdaOutcome::NoSolution);
    }
    Iteration::Deepen(next_bound)
}

/// How the search of one frontier subtree ended.
struct SubtreeResult<M> {
    flow: Flow,
    tally: Tally,
    /// The cost of the goal found from the root, if any.
    cost: u32,
    /// The moves from the subtree's root to the goal found, if any.
    path: Vec<M>,
}

/// Searches one frontier subtree on a thread's own problem.
fn search_subtree<P: IdaProblem>(
    problem: &mut P,
    root: P::Node,
    subtree: &Subtree<P::Move>,
    bound: u32,
    limits: &Limits,
    start: Instant,
    shared: &SharedBudget,
) -> SubtreeResult<P::Move> {
    let (nodes, g) = descend(problem, root, &subtree.path);
    let mut search = Search::new(
        problem,
        bound,
        limits.shared_poller(start, CLOCK_INTERVAL, shared),
        true,
    );
    let node = *nodes.last().expect("root");
    let flow = search.dfs(g, node, subtree.path.last().copied());
    let result = search.result(flow, shared);
    ascend(search.problem, &nodes, &subtree.path);
    result
}

/// Runs IDA* from the problem's current state and returns an optimal solution, a proof that
/// none exists, or the budget that ran out.
///
/// Korf, R. E. (1985). *Depth-first iterative-deepening: an optimal admissible tree search.*
/// Artificial Intelligence 27(1), 97-109. The control loop follows the course's pseudocode:
/// the first bound is `h(s0)`; each iteration is a depth-first search that prunes a node when
/// `g + h > bound` and remembers the smallest pruned `f` as the next bound. The problem is
/// mutated in place ([`IdaProblem`]), and the solution path is collected only while unwinding
/// from the goal.
///
/// IDA* searches a tree: a problem whose moves can cycle and that has no solution is searched
/// until a budget runs out ([`Ending::Unsolvable`] needs a finite tree, or a heuristic
/// that returns `u32::MAX` on dead ends).
///
/// The problem is left in its start state. With an admissible heuristic the first goal found
/// is optimal: every solution costs at least the current bound, and the goal found costs at
/// most that bound.
pub fn ida_star<P: IdaProblem>(problem: &mut P, limits: Limits) -> IdaReport<P::Move> {
    let start = Instant::now();
    let root = problem.root();
    let initial_estimate = problem.heuristic(root, u32::MAX);
    let mut search = Search::new(
        problem,
        initial_estimate,
        limits.poller(start, CLOCK_INTERVAL),
        true,
    );
    let mut thresholds = Vec::new();
    let progress = limits.progress.clone();
    let outcome = if search.problem.is_goal(root) {
        thresholds.push(0);
        IdaOutcome::Solved {
            cost: 0,
            path: Vec::new(),
        }
    } else if initial_estimate == u32::MAX {
        // The heuristic proves the start a dead end.
        IdaOutcome::NoSolution
    } else {
        loop {
            thresholds.push(search.bound);
            search.next_bound = u32::MAX;
            if let Some(progress) = &progress {
                progress.iteration_started(search.bound);
            }
            let flow = search.dfs(0, root, None);
            if let (Some(progress), Flow::Found | Flow::Continue) = (&progress, &flow) {
                progress.iteration_ended(search.bound, search.generated, search.expanded);
            }
            match flow {
                Flow::Found => {
                    let mut path = std::mem::take(&mut search.path);
                    path.reverse();
                    break IdaOutcome::Solved {
                        cost: search.cost,
                        path,
                    };
                }
                Flow::Stop(why) => break IdaOutcome::GaveUp(why),
                Flow::Continue if search.next_bound == u32::MAX => break IdaOutcome::NoSolution,
                Flow::Continue => search.bound = search.next_bound,
            }
        }
    };
    report(
        outcome,
        initial_estimate,
        thresholds,
        (search.generated, search.expanded),
        start.elapsed(),
    )
}

/// What [`ida_probe`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Whether a goal costs at most the bound.
    pub within: bool,
    /// When no goal is within the bound: the smallest `f` above it met by the iteration, a
    /// lower bound on the cost of every goal (`u32::MAX` when no goal is reachable at all).
    pub next_bound: u32,
    /// Nodes generated.
    pub generated: u64,
    /// Nodes expanded.
    pub expanded: u64,
}

/// One depth-first iteration of IDA* from the problem's current state with `bound`: does a
/// goal cost at most `bound`, and if not, what lower bound does the iteration prove?
///
/// A search on an abstraction of a problem (a relaxed game whose optimal cost never exceeds the
/// real one) answers a real search's "is this state within its budget?" this way, the
/// abstraction's own transposition table carried from one probe to the next: hierarchical
/// heuristic search, Holte, Perez, Zimmer and MacDonald (1996), *Hierarchical A\*: searching
/// abstraction hierarchies efficiently*, AAAI-96, and Holte, Grajkowski and Tanner (2005),
/// *Hierarchical heuristic search revisited*, SARA. No path is collected (nothing allocates)
/// and no budget is checked; the problem is left in its current state.
pub fn ida_probe<P: IdaProblem>(problem: &mut P, bound: u32) -> Probe {
    let root = problem.root();
    let estimate = problem.heuristic(root, bound);
    if problem.is_goal(root) {
        return Probe {
            within: true,
            next_bound: u32::MAX,
            generated: 0,
            expanded: 0,
        };
    }
    if estimate > bound {
        return Probe {
            within: false,
            next_bound: estimate,
            generated: 0,
            expanded: 0,
        };
    }
    let mut search = Search::new(problem, bound, Limits::unchecked(), false);
    let within = matches!(search.dfs(0, root, None), Flow::Found);
    Probe {
        within,
        next_bound: if within { u32::MAX } else { search.next_bound },
        generated: search.generated,
        expanded: search.expanded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SearchProgress;

    /// A walk on the integer line from `pos` to `target` with steps of +1, +2 and (unless
    /// `forward_only`) -1, where a step of +2 costs 3; the heuristic is the remaining distance
    /// divided by two.
    #[derive(Clone)]
    struct Line {
        pos: i32,
        target: i32,
        max: i32,
        forward_only: bool,
    }

    impl IdaProblem for Line {
        type Move = i32;
        type Moves = Filled<std::vec::IntoIter<i32>>;
        type Node = ();

        fn root(&mut self) {}
        fn heuristic(&mut self, _node: (), _budget: u32) -> u32 {
            ((self.target - self.pos).unsigned_abs()).div_ceil(2)
        }
        fn is_goal(&self, _node: ()) -> bool {
            self.pos == self.target
        }
        fn moves(&self, _node: (), last: Option<i32>) -> Self::Moves {
            let moves = [1, 2, -1]
                .into_iter()
                .filter(|&m| last != Some(-m) && (self.pos + m).abs() <= self.max)
                .filter(|&m| m > 0 || !self.forward_only)
                .collect::<Vec<_>>();
            Filled(moves.into_iter())
        }
        fn apply(&mut self, _node: (), mv: i32) -> ((), u32) {
            self.pos += mv;
            ((), if mv == 2 { 3 } else { 1 })
        }
        fn undo(&mut self, _node: (), mv: i32, _child: ()) {
            self.pos -= mv;
        }
    }

    /// An endless corridor whose heuristic knows there is no way out.
    #[derive(Clone)]
    struct Hopeless;

    impl IdaProblem for Hopeless {
        type Move = ();
        type Moves = std::iter::Once<Option<()>>;
        type Node = ();

        fn root(&mut self) {}
        fn heuristic(&mut self, _node: (), _budget: u32) -> u32 {
            u32::MAX
        }
        fn is_goal(&self, _node: ()) -> bool {
            false
        }
        fn moves(&self, _node: (), _last: Option<()>) -> Self::Moves {
            std::iter::once(Some(()))
        }
        fn apply(&mut self, _node: (), _mv: ()) -> ((), u32) {
            ((), 1)
        }
        fn undo(&mut self, _node: (), _mv: (), _child: ()) {}
    }

    #[test]
    fn an_infinite_root_estimate_proves_no_solution_at_once() {
        let report = ida_star(&mut Hopeless, Limits::UNLIMITED);
        assert_eq!(report.ending, Ending::Unsolvable);
        assert_eq!(report.expanded, 0);
        let report = parallel_ida_star(&Hopeless, Limits::UNLIMITED, 2);
        assert_eq!(report.ending, Ending::Unsolvable);
        assert_eq!(report.expanded, 0);
    }

    #[test]
    fn probe_answers_each_bound_as_the_full_search_does() {
        for target in [0, 1, 5, 17] {
            let mut line = Line {
                pos: 0,
                target,
                max: 30,
                forward_only: false,
            };
            let optimum = ida_star(&mut line.clone(), Limits::UNLIMITED)
                .cost()
                .expect("solvable");
            for bound in 0..=optimum + 2 {
                let probe = ida_probe(&mut line, bound);
                assert_eq!(
                    probe.within,
                    bound >= optimum,
                    "target {target} bound {bound}"
                );
                if !probe.within {
                    assert!(probe.next_bound > bound && probe.next_bound <= optimum);
                }
                assert_eq!(line.pos, 0, "the problem is left where it was");
            }
        }
        let mut dead_end = Line {
            pos: 0,
            target: 5,
            max: 3,
            forward_only: true,
        };
        let probe = ida_probe(&mut dead_end, 100);
        assert_eq!((probe.within, probe.next_bound), (false, u32::MAX));
    }

    #[test]
    fn progress_records_every_iteration_as_the_report_does() {
        let line = Line {
            pos: 0,
            target: 17,
            max: 30,
            forward_only: false,
        };
        for threads in [1, 2] {
            let progress = SearchProgress::new();
            let limits = Limits::UNLIMITED.with_progress(progress.clone());
            let report = parallel_ida_star(&line, limits, threads);
            let seen = progress.snapshot();
            let bounds: Vec<u32> = seen.iterations.iter().map(|i| i.bound).collect();
            assert_eq!(bounds, report.extra.thresholds, "{threads} threads");
            let last = seen.iterations.last().expect("an iteration");
            assert_eq!(
                (last.generated, last.expanded),
                (report.generated, report.expanded)
            );
            assert_eq!(seen.generated, report.generated);
            assert_eq!(
                seen.bound, None,
                "no iteration in progress after the search"
            );
            assert!(
                seen.iterations
                    .windows(2)
                    .all(|w| w[0].generated <= w[1].generated)
            );
        }
    }

    #[test]
    fn parallel_search_agrees_with_the_sequential_one() {
        for target in [0, 1, 5, 17, 40] {
            let line = Line {
                pos: 0,
                target,
                max: 60,
                forward_only: false,
            };
            let sequential = ida_star(&mut line.clone(), Limits::UNLIMITED);
            for threads in [1, 2, 3] {
                let parallel = parallel_ida_star(&line, Limits::UNLIMITED, threads);
                assert_eq!(parallel.cost(), sequential.cost(), "target {target}");
                assert_eq!(
                    parallel.extra.thresholds, sequential.extra.thresholds,
                    "target {target}"
                );
                assert_eq!(parallel.initial_bound, sequential.initial_bound);
                let Ending::Solved { moves: path, .. } = parallel.ending else {
                    panic!("not solved");
                };
                assert_eq!(
                    path.iter().sum::<i32>(),
                    target,
                    "the path reaches the target"
                );
            }
        }
        let dead_end = Line {
            pos: 0,
            target: 5,
            max: 3,
            forward_only: true,
        };
        let report = parallel_ida_star(&dead_end, Limits::UNLIMITED, 2);
        assert_eq!(report.ending, Ending::Unsolvable);
        let far = Line {
            pos: 0,
            target: 60,
            max: 200,
            forward_only: false,
        };
        let report = parallel_ida_star(&far, Limits::default().with_max_nodes(200_000), 2);
        assert_eq!(
            (report.ending, report.stopped),
            (Ending::Stopped, Some(GiveUp::NodeLimit))
        );
    }

    #[test]
    fn finds_cheapest_not_shortest_path() {
        let mut line = Line {
            pos: 0,
            target: 4,
            max: 10,
            forward_only: false,
        };
        let report = ida_star(&mut line, Limits::UNLIMITED);
        assert_eq!(report.cost(), Some(4));
        assert_eq!(report.initial_bound, 2);
        assert_eq!(report.extra.thresholds.first(), Some(&2));
        assert_eq!(report.extra.thresholds.last(), Some(&4));
        match report.ending {
            Ending::Solved { moves: path, .. } => assert_eq!(path, vec![1, 1, 1, 1]),
            other => panic!("unexpected {other:?}"),
        }
        assert_eq!(line.pos, 0, "the problem is restored");
    }

    #[test]
    fn start_is_goal() {
        let mut line = Line {
            pos: 3,
            target: 3,
            max: 10,
            forward_only: false,
        };
        let report = ida_star(&mut line, Limits::UNLIMITED);
        assert_eq!(report.cost(), Some(0));
        assert_eq!(report.extra.thresholds, vec![0]);
    }

    #[test]
    fn reports_no_solution_when_space_is_exhausted() {
        let mut line = Line {
            pos: 0,
            target: 5,
            max: 3,
            forward_only: true,
        };
        let report = ida_star(&mut line, Limits::UNLIMITED);
        assert_eq!(report.ending, Ending::Unsolvable);
    }

    #[test]
    fn gives_up_on_node_budget() {
        let mut line = Line {
            pos: 0,
            target: 40,
            max: 100,
            forward_only: false,
        };
        let report = ida_star(&mut line, Limits::default().with_max_nodes(50));
        assert_eq!(
            (report.ending, report.stopped),
            (Ending::Stopped, Some(GiveUp::NodeLimit))
        );
        // The budget is checked once per expansion: it overshoots by less than one node's moves.
        assert!((50..53).contains(&report.generated), "{}", report.generated);
        assert_eq!(line.pos, 0, "the problem is restored after giving up");
    }

    #[test]
    fn gives_up_on_time_budget() {
        // The target is far and the tree is huge: only the clock stops the search.
        let mut line = Line {
            pos: 0,
            target: 1_000_000,
            max: 2_000_000,
            forward_only: false,
        };
        let report = ida_star(&mut line, Limits::default().with_max_time(Duration::ZERO));
        assert_eq!(
            (report.ending, report.stopped),
            (Ending::Stopped, Some(GiveUp::TimeLimit))
        );
    }
}
