//! Best-first search, A* and Dijkstra for non-negative integer costs: [`astar`], whose docs
//! give the algorithm and its sources, [`astar_with`] and [`dijkstra`].

use std::collections::BTreeMap;
use std::hash::Hash;
use std::ops::Add;
use std::sync::Arc;
use std::time::{Duration, Instant};

use indexmap::IndexMap;
use indexmap::map::Entry;
use rayon::prelude::*;
use rustc_hash::FxBuildHasher;

use crate::limits::{CLOCK_INTERVAL, GiveUp, Limits, MemoryPool, Poller};

mod resumable;
pub use resumable::Resumable;

/// Counters of a best-first search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AStarStats {
    /// States taken from the open list and expanded.
    pub expanded: u64,
    /// Successors generated (before duplicate detection).
    pub generated: u64,
    /// Distinct states stored.
    pub stored: usize,
    /// Estimated bytes held by the stored states and the open list.
    pub memory: usize,
    /// Wall time of the search.
    pub elapsed: Duration,
    /// The largest `f` taken from the open list so far (`None` before the first state, or if
    /// it does not fit): with an admissible heuristic, a lower bound on the cost of every
    /// goal, as the open list always holds a state of an optimal path at an `f` no larger than
    /// the optimum (Hart, Nilsson and Raphael, 1968). So a search stopped by a budget has still
    /// proven that much. With an inflated heuristic (weighted A*) it bounds nothing.
    pub lower_bound: Option<u64>,
}

/// An optimal path found by [`astar`] or [`dijkstra`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AStarSolution<N, C> {
    /// The states from the start to the goal, both included.
    pub path: Vec<N>,
    /// The cost of the path.
    pub cost: C,
    /// The search's counters.
    pub stats: AStarStats,
}

/// Why a best-first search returned no path.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AStarError {
    /// Every reachable state was expanded and none is a goal.
    #[error("no solution: all {} reachable states searched", .0.stored)]
    NoSolution(AStarStats),
    /// The stored states would exceed the memory budget.
    #[error(
        "memory limit of {limit} bytes reached after storing {} states",
        .stats.stored
    )]
    MemoryLimit {
        /// The budget in bytes.
        limit: usize,
        /// The counters when the search stopped.
        stats: AStarStats,
    },
    /// A node or time budget ran out.
    #[error("{why} after {}", crate::messages::plural(.stats.generated, "generated state"))]
    GaveUp {
        /// Which budget ran out.
        why: GiveUp,
        /// The counters when the search stopped.
        stats: AStarStats,
    },
}

impl AStarError {
    /// The budget that stopped the search (`None` when it ran out of states, which proves
    /// that no goal is reachable).
    #[must_use]
    pub fn why(&self) -> Option<GiveUp> {
        match self {
            AStarError::NoSolution(_) => None,
            AStarError::MemoryLimit { .. } => Some(GiveUp::MemoryLimit),
            AStarError::GaveUp { why, .. } => Some(*why),
        }
    }

    /// The counters when the search stopped.
    #[must_use]
    pub fn stats(&self) -> &AStarStats {
        match self {
            AStarError::NoSolution(stats)
            | AStarError::MemoryLimit { stats, .. }
            | AStarError::GaveUp { stats, .. } => stats,
        }
    }
}

/// An open-list entry: the cost at which a stored state was queued, and its index.
struct Open<C> {
    g: C,
    index: u32,
}

/// The open list: one stack of entries per value of `f` (a bucket queue; a search has few
/// distinct `f` values), taken lowest `f` first and, within one `f`, last pushed first, which
/// goes deep. Pushing and taking cost no heap sift through a large array.
struct OpenList<C> {
    layers: BTreeMap<C, Vec<Open<C>>>,
    /// The entries' capacity over every layer, for the memory estimate.
    capacity: usize,
}

impl<C: Ord> Default for OpenList<C> {
    fn default() -> Self {
        OpenList {
            layers: BTreeMap::new(),
            capacity: 0,
        }
    }
}

impl<C: Copy + Ord> OpenList<C> {
    fn push(&mut self, f: C, entry: Open<C>) {
        let layer = self.layers.entry(f).or_default();
        let before = layer.capacity();
        layer.push(entry);
        self.capacity += layer.capacity() - before;
    }

    /// Moves up to `most` entries of the lowest `f` (only if that is `only`, when given) into
    /// `out`, emptied first, and returns that `f`; `None` when there are none.
    fn pop_layer(&mut self, most: usize, only: Option<C>, out: &mut Vec<Open<C>>) -> Option<C> {
        out.clear();
        while let Some(mut lowest) = self.layers.first_entry() {
            let f = *lowest.key();
            if only.is_some_and(|only| only != f) {
                return None;
            }
            let layer = lowest.get_mut();
            let keep = layer.len().saturating_sub(most);
            out.extend(layer.drain(keep..).rev());
            if layer.is_empty() {
                self.capacity -= lowest.remove().capacity();
            }
            if !out.is_empty() {
                return Some(f);
            }
        }
        None
    }

    fn capacity(&self) -> usize {
        self.capacity
    }
}

/// The stored states: each with its parent's index (`NO_PARENT` for the start) and best cost.
type Seen<N, C> = IndexMap<N, (u32, C), FxBuildHasher>;

/// The parent index of the start state.
const NO_PARENT: u32 = u32::MAX;

/// The bytes a search has taken from its [`MemoryPool`], given back when it returns.
struct PoolShare {
    pool: Option<Arc<MemoryPool>>,
    bytes: usize,
}

impl PoolShare {
    /// Takes from the pool what `used` bytes need beyond those taken; the pool's limit (what
    /// this search had plus what was free) when it cannot.
    fn grow(&mut self, used: usize) -> Option<usize> {
        let pool = self.pool.as_ref()?;
        if used <= self.bytes {
            return None;
        }
        if pool.take(used - self.bytes) {
            self.bytes = used;
            None
        } else {
            Some(self.bytes + pool.free())
        }
    }
}

impl Drop for PoolShare {
    fn drop(&mut self) {
        if let Some(pool) = &self.pool {
            pool.give(self.bytes);
        }
    }
}

/// Estimated bytes held by a map of `capacity` states and an open list of `heap` entries: per
/// state the map's entry (the hash, the state, parent and cost) and its index table (an index and a
/// control byte).
fn memory_estimate<N, C>(capacity: usize, heap: usize) -> usize {
    let entry = std::mem::size_of::<(u64, N, (u32, C))>();
    capacity * (entry + std::mem::size_of::<usize>() + 1) + heap * std::mem::size_of::<Open<C>>()
}

/// A dominance check, given to [`AStarOptions::dominance`].
///
/// `dominated(state, g)` is asked right before a new or cheaper state would be stored with
/// cost `g`, and the state is dropped when it says yes. It may say yes only when a state it
/// was earlier asked about (and allowed) makes this one redundant: every path from this state
/// at cost `g` can be matched at no greater cost from that one, whose `f` is no larger. The
/// answer then stays optimal. Every state it allows is stored, so the check may record them
/// as the stored states. Any `FnMut(&N, C) -> bool` is one.
pub trait Dominance<N, C> {
    /// Whether `node`, about to be stored at cost `g`, is made redundant by a stored state.
    fn dominated(&mut self, node: &N, g: C) -> bool;
}

/// The default: no state is dominated.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoDominance;

impl<N, C> Dominance<N, C> for NoDominance {
    #[inline]
    fn dominated(&mut self, _: &N, _: C) -> bool {
        false
    }
}

impl<N, C, F: FnMut(&N, C) -> bool> Dominance<N, C> for F {
    #[inline]
    fn dominated(&mut self, node: &N, g: C) -> bool {
        self(node, g)
    }
}

/// How [`astar_with`] is bounded, pruned and run: budgets, an upper bound on the cost, a
/// dominance check and parallel expansion. The default is one thread, no bound, no dominance
/// and [`Limits::default`].
///
/// ```
/// use ply_search::{AStarOptions, Limits, astar_with};
///
/// // The cheapest way from 0 to 10 by steps of +1 (cost 2) or +3 (cost 5).
/// let successors = |&n: &u32, _g: u32| {
///     let h = |m: u32| 2 * 10u32.saturating_sub(m).div_ceil(3);
///     [(n + 1, 2), (n + 3, 5)].into_iter().filter(|&(m, _)| m <= 10).map(move |(m, c)| (m, c, h(m)))
/// };
/// let options = AStarOptions::new()
///     .limits(Limits::default().with_max_nodes(1_000))
///     .upper_bound(Some(20))
///     .parallel(64);
/// let found = astar_with(&0, 8, successors, |&n| n == 10, options).unwrap();
/// assert_eq!(found.cost, 17);
/// ```
#[derive(Clone, Debug)]
pub struct AStarOptions<C, D = NoDominance> {
    limits: Limits,
    upper: Option<C>,
    dominance: D,
    batch: usize,
    any_goal: bool,
}

impl<C> AStarOptions<C> {
    /// One thread, no bound, no dominance, default limits.
    #[must_use]
    pub fn new() -> Self {
        AStarOptions {
            limits: Limits::default(),
            upper: None,
            dominance: NoDominance,
            batch: 1,
            any_goal: false,
        }
    }
}

impl<C> Default for AStarOptions<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<C, D> AStarOptions<C, D> {
    /// Bounds generated states, wall time and the estimated memory of stored states (the
    /// estimate counts allocated capacity; the map's growth is checked before it happens).
    #[must_use]
    pub fn limits(mut self, limits: Limits) -> Self {
        self.limits = limits;
        self
    }

    /// Drops every state whose `f = g + h` exceeds `upper`, a known upper bound on the optimal
    /// cost (the cost of any solution, found for example by a quick weighted search). No state
    /// of a path costing at most `upper` is dropped, so the answer is still optimal, while the
    /// states that A* would store but never expand (often most of them) are neither stored
    /// nor queued; [`AStarError::NoSolution`] then means that no path costs at most `upper`.
    #[must_use]
    pub fn upper_bound(mut self, upper: Option<C>) -> Self {
        self.upper = upper;
        self
    }

    /// Drops the states that `dominance` finds redundant (see [`Dominance`]).
    #[must_use]
    pub fn dominance<E>(self, dominance: E) -> AStarOptions<C, E> {
        AStarOptions {
            limits: self.limits,
            upper: self.upper,
            dominance,
            batch: self.batch,
            any_goal: self.any_goal,
        }
    }

    /// Expands up to `batch` states of the lowest `f` at once on rayon's current thread pool
    /// ([`PARALLEL_BATCH`] suits most searches; 1 is sequential). The children are stored in
    /// order, one batch at a time, while the next batch (of the same `f` only) is expanded:
    /// storing, where the dominance check runs, overlaps expanding. A batch never mixes values
    /// of `f`, and every goal found costs the lowest `f` in the open list, so the answer stays
    /// optimal and the search is the same whatever the number of threads. Inside a parallel
    /// loop over several searches, rayon's work stealing lets a thread whose own work ran out
    /// help the searches still running.
    #[must_use]
    pub fn parallel(mut self, batch: usize) -> Self {
        self.batch = batch.max(1);
        self
    }

    /// Ends the search at the first goal *stored* (generated and kept), not at the first
    /// taken from the open list: the answer is then any solution, not the cheapest. A
    /// weighted search (`h` scaled up) may generate goals early and leave them behind many
    /// open states of lower `f`, where this ends it at once; an exact search loses its
    /// optimality. A search that runs out of states still proves that no goal is reachable
    /// within the upper bound.
    #[must_use]
    pub fn any_goal(mut self, any: bool) -> Self {
        self.any_goal = any;
        self
    }
}

/// A* from `start` to the first state satisfying `success`, in the `pathfinding` crate's
/// shape: `successors` lists each neighbour with the non-negative cost of reaching it;
/// `heuristic` must be admissible (never above the true remaining cost) for the answer to be
/// optimal. A state whose cost improves is reopened, so an inconsistent heuristic is fine.
/// [`astar_with`] takes an upper bound, dominance and parallel expansion.
///
/// Hart, P. E., Nilsson, N. J. and Raphael, B. (1968). *A formal basis for the heuristic
/// determination of minimum cost paths.* IEEE Transactions on Systems Science and Cybernetics
/// 4(2), 100-107. Dijkstra, E. W. (1959). *A note on two problems in connexion with graphs.*
///
/// States are stored once in an insertion-ordered hash map (state -> parent index, best cost),
/// so a path is rebuilt by following parent indices, as in the `pathfinding` crate. Indices
/// are 32 bits (a search stops with [`AStarError::MemoryLimit`] before 2^32 - 1 states), which
/// keeps the bookkeeping per stored state small: memory, not time, is what ends hard
/// searches. The open list is a bucket queue, one stack per value of `f`, with lazy deletion;
/// ties on `f` go to the last queued, which tends to be the deepest.
///
/// ```
/// use ply_search::{Limits, astar};
///
/// let successors = |&n: &i32| [(n + 1, 1), (n * 2, 1)];
/// let found = astar(&1, successors, |&n| i32::from(n < 10), |&n| n == 10, Limits::default());
/// assert_eq!(found.unwrap().path, [1, 2, 4, 5, 10]);
/// ```
///
/// # Errors
/// [`AStarError::NoSolution`] when no goal is reachable, [`AStarError::MemoryLimit`] or
/// [`AStarError::GaveUp`] when a budget in `limits` runs out first.
pub fn astar<N, C, FN, IN, FH, FS>(
    start: &N,
    mut successors: FN,
    mut heuristic: FH,
    success: FS,
    limits: Limits,
) -> Result<AStarSolution<N, C>, AStarError>
where
    N: Eq + Hash + Clone,
    C: Copy + Ord + Default + Add<Output = C> + TryInto<u64>,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FH: FnMut(&N) -> C,
    FS: FnMut(&N) -> bool,
{
    let start_h = heuristic(start);
    let expand = |batch: &[(N, C)]| {
        let mut children = Vec::new();
        for (at, (node, _)) in batch.iter().enumerate() {
            children.extend(successors(node).into_iter().map(|(next, step)| {
                let h = heuristic(&next);
                (at, next, step, h)
            }));
        }
        children
    };
    let hooks = Hooks {
        success,
        dominance: NoDominance,
        limits,
        upper: None,
        any_goal: false,
    };
    search(start, start_h, expand, hooks)
}

/// The general best-first search behind [`astar`] and [`dijkstra`]: `start` with its
/// estimate `start_h`, and `successors(state, g)` listing, for a state expanded at cost `g`,
/// each child with its step cost and its estimate. It leaves out the children it knows to be
/// dead (no goal reachable: the pruning must be provably safe) or whose `f` exceeds the
/// options' upper bound. With admissible estimates, the first goal taken from the open list
/// is optimal; `options` add budgets, an upper bound, dominance and parallel expansion.
///
/// # Errors
/// As [`astar`]; with an upper bound, [`AStarError::NoSolution`] means that no path costs at
/// most that.
pub fn astar_with<N, C, FN, IN, FS, D>(
    start: &N,
    start_h: C,
    successors: FN,
    success: FS,
    options: AStarOptions<C, D>,
) -> Result<AStarSolution<N, C>, AStarError>
where
    N: Eq + Hash + Clone + Send + Sync,
    C: Copy + Ord + Default + Add<Output = C> + TryInto<u64> + Send + Sync,
    FN: Fn(&N, C) -> IN + Sync,
    IN: IntoIterator<Item = (N, C, C)>,
    FS: FnMut(&N) -> bool,
    D: Dominance<N, C> + Send,
{
    let AStarOptions {
        limits,
        upper,
        dominance,
        batch,
        any_goal,
    } = options;
    let hooks = Hooks {
        success,
        dominance,
        limits,
        upper,
        any_goal,
    };
    if batch <= 1 {
        search(start, start_h, sequential_expand(successors), hooks)
    } else {
        search_pipelined(start, start_h, parallel_expand(&successors), hooks, batch)
    }
}

/// States expanded together by a parallel search: enough to share out and to make the thread
/// pool's hand-offs rare, few enough that the batch's children, held until they are stored,
/// stay small (tens of kilobytes). Larger and smaller batches were measured (ledger row
/// "parallel A* batch size").
pub const PARALLEL_BATCH: usize = 1024;

/// Lists the children of a batch of states in parallel: each with its parent's place in the
/// batch, its step cost and its estimate.
fn parallel_expand<N, C, FN, IN>(successors: &FN) -> impl Fn(&[(N, C)]) -> Children<N, C> + Sync
where
    N: Send + Sync,
    C: Copy + Send + Sync,
    FN: Fn(&N, C) -> IN + Sync,
    IN: IntoIterator<Item = (N, C, C)>,
{
    |batch: &[(N, C)]| {
        batch
            .par_iter()
            .enumerate()
            .flat_map_iter(|(at, (node, g))| {
                successors(node, *g)
                    .into_iter()
                    .map(move |(next, step, h)| (at, next, step, h))
            })
            .collect()
    }
}

/// What a best-first search is asked and bounded by, besides its expansions.
struct Hooks<FS, D, C> {
    success: FS,
    dominance: D,
    limits: Limits,
    upper: Option<C>,
    /// Whether a goal ends the search when stored rather than when taken.
    any_goal: bool,
}

/// The children of a batch of expanded states, in order: each with its parent's place in the
/// batch, its step cost and its estimate.
type Children<N, C> = Vec<(usize, N, C, C)>;

/// States taken from the open list to be expanded together: each with its cost, and its index
/// among the stored states.
struct Batch<N, C> {
    nodes: Vec<(N, C)>,
    indices: Vec<u32>,
}

impl<N, C> Batch<N, C> {
    fn new(size: usize) -> Self {
        Batch {
            nodes: Vec::with_capacity(size),
            indices: Vec::with_capacity(size),
        }
    }
}

/// What taking a batch found.
enum Taken<N, C> {
    /// A goal, reached at its optimal cost.
    Goal(AStarSolution<N, C>),
    /// States to expand, of this `f` (none: the layer asked for, or the list, is empty).
    Batch(Option<C>),
}

/// A best-first search's stored states, open list, counters and budgets.
struct Frontier<N, C> {
    seen: Seen<N, C>,
    open: OpenList<C>,
    stats: AStarStats,
    budget: Poller<'static>,
    pool: PoolShare,
    limits: Limits,
    upper: Option<C>,
    started: Instant,
    /// Entries taken from the open list, reused.
    popped: Vec<Open<C>>,
    /// The largest `f` taken from the open list so far.
    floor: Option<C>,
    /// The time of the search's earlier runs ([`Resumable`]), before `started`.
    earlier: Duration,
    /// Whether a goal that the goal test of [`Frontier::store`] finds is noted in `noted`
    /// rather than returned: a [`Resumable`] run that ends at goals taken notes those stored,
    /// for a later run that ends at goals stored.
    noting: bool,
    /// The first goal stored while `noting`, by index.
    noted: Option<u32>,
}

impl<N, C> Frontier<N, C>
where
    N: Eq + Hash + Clone,
    C: Copy + Ord + Default + Add<Output = C> + TryInto<u64>,
{
    fn new(start: &N, start_h: C, limits: Limits, upper: Option<C>) -> Self {
        let started = Instant::now();
        let mut seen: Seen<N, C> = IndexMap::default();
        seen.insert(start.clone(), (NO_PARENT, C::default()));
        let mut open = OpenList::default();
        open.push(
            start_h,
            Open {
                g: C::default(),
                index: 0,
            },
        );
        Frontier {
            seen,
            open,
            stats: AStarStats::default(),
            budget: limits.poller(started, CLOCK_INTERVAL),
            pool: PoolShare {
                pool: limits.memory_pool.clone(),
                bytes: 0,
            },
            limits,
            upper,
            started,
            popped: Vec::new(),
            floor: None,
            earlier: Duration::ZERO,
            noting: false,
            noted: None,
        }
    }

    /// Starts a further run of the search under `limits`, counted from now: its node budget
    /// counts the states generated from here on, its memory is taken again from the new
    /// limits' pool (what the earlier run took goes back to its own).
    fn resume(&mut self, limits: Limits) -> Result<(), AStarError> {
        let now = Instant::now();
        self.earlier += now - self.started;
        self.started = now;
        // The budget stops the search at the state that reaches it, not after it: the
        // states generated so far and `n` more pass.
        let generated = self.stats.generated;
        let limits = Limits {
            max_nodes: limits.max_nodes.map(|n| generated.saturating_add(n) + 1),
            ..limits
        };
        self.budget = limits.poller(now, CLOCK_INTERVAL);
        self.pool = PoolShare {
            pool: limits.memory_pool.clone(),
            bytes: 0,
        };
        self.limits = limits;
        self.within_memory(self.seen.capacity())
    }

    /// The counters, completed.
    fn stats(&self, open: usize) -> AStarStats {
        let mut stats = self.stats;
        stats.stored = self.seen.len();
        stats.memory = memory_estimate::<N, C>(self.seen.capacity(), open);
        stats.elapsed = self.earlier + self.started.elapsed();
        stats.lower_bound = self.floor.and_then(|f| f.try_into().ok());
        stats
    }

    /// Takes up to `most` live states of the lowest `f` (of `f == only` when given) into
    /// `batch`, unless one of them is a goal.
    fn take<FS: FnMut(&N) -> bool>(
        &mut self,
        most: usize,
        only: Option<C>,
        success: &mut FS,
        batch: &mut Batch<N, C>,
    ) -> Taken<N, C> {
        batch.nodes.clear();
        batch.indices.clear();
        let Some(f) = self.open.pop_layer(most, only, &mut self.popped) else {
            return Taken::Batch(None);
        };
        self.floor = Some(self.floor.map_or(f, |floor| floor.max(f)));
        for &Open { g, index } in &self.popped {
            let (node, &(_, best)) = self
                .seen
                .get_index(index as usize)
                .expect("open entries index stored states");
            if g > best {
                continue;
            }
            if success(node) {
                return Taken::Goal(AStarSolution {
                    path: rebuild_path(&self.seen, index),
                    cost: g,
                    stats: self.stats(self.open.capacity()),
                });
            }
            self.stats.expanded += 1;
            batch.nodes.push((node.clone(), g));
            batch.indices.push(index);
        }
        Taken::Batch(Some(f))
    }

    /// Stores the children of `batch` that are new or cheaper, within the upper bound and not
    /// dominated, and queues them. With `goal`, a stored child that satisfies it ends the
    /// search: its path is returned (or, while `noting`, the first is noted). Stopped by a
    /// budget or a goal, it leaves in `children` those not stored yet (from the one the budget
    /// stopped it at), which a [`Resumable`] search stores when it goes on; otherwise
    /// `children` is left empty.
    fn store<D: Dominance<N, C>, FS: FnMut(&N) -> bool>(
        &mut self,
        batch: &Batch<N, C>,
        children: &mut Children<N, C>,
        dominance: &mut D,
        mut goal: Option<&mut FS>,
    ) -> Result<Option<AStarSolution<N, C>>, AStarError> {
        let upper = self.upper;
        let beyond = |f: C| upper.is_some_and(|u| f > u);
        let mut queue = std::mem::take(children).into_iter();
        while let Some(child) = queue.next() {
            let (at, next, step, h) = child;
            let (g, index) = (batch.nodes[at].1, batch.indices[at]);
            self.stats.generated += 1;
            let next_g = g + step;
            let stopped = match self.budget.check(self.stats.generated) {
                Err(why) => Some(AStarError::GaveUp {
                    why,
                    stats: self.stats(self.open.capacity()),
                }),
                Ok(()) if beyond(next_g + h) => continue,
                Ok(()) => self.make_room().err(),
            };
            if let Some(stopped) = stopped {
                // Counted again when stored.
                self.stats.generated -= 1;
                children.push((at, next, step, h));
                children.extend(queue);
                return Err(stopped);
            }
            let next_index = match self.seen.entry(next) {
                Entry::Vacant(slot) => {
                    if dominance.dominated(slot.key(), next_g) {
                        continue;
                    }
                    let next_index = match u32::try_from(slot.index()) {
                        Ok(i) if i != NO_PARENT => i,
                        _ => {
                            // The 32-bit indices are used up: a memory limit in effect.
                            let limit = self.limits.max_memory.unwrap_or(usize::MAX);
                            let stats = self.stats(self.open.capacity());
                            return Err(AStarError::MemoryLimit { limit, stats });
                        }
                    };
                    slot.insert((index, next_g));
                    next_index
                }
                Entry::Occupied(mut slot) => {
                    if next_g >= slot.get().1 || dominance.dominated(slot.key(), next_g) {
                        continue;
                    }
                    *slot.get_mut() = (index, next_g);
                    // Already stored, so its index fits.
                    slot.index() as u32
                }
            };
            debug_assert!((next_index as usize) < self.seen.len());
            if let Some(goal) = goal.as_deref_mut() {
                let (node, _) = self
                    .seen
                    .get_index(next_index as usize)
                    .expect("just stored");
                if goal(node) {
                    if !self.noting {
                        children.extend(queue);
                        return Ok(Some(self.solution(next_index)));
                    }
                    self.noted.get_or_insert(next_index);
                }
            }
            self.open.push(
                next_g + h,
                Open {
                    g: next_g,
                    index: next_index,
                },
            );
        }
        self.within_memory(self.seen.capacity())?;
        Ok(None)
    }

    /// Makes room for one more stored state, if the memory budget allows the map it needs.
    /// A full map doubles when it grows, so its growth is checked against the budget before it
    /// happens: past a few million states, one doubling takes seconds and would overrun both
    /// the memory cap and a deadline.
    #[inline]
    fn make_room(&mut self) -> Result<(), AStarError> {
        let capacity = self.seen.capacity();
        if self.seen.len() < capacity {
            return Ok(());
        }
        let grown = (2 * capacity).max(1);
        self.within_memory(grown)?;
        self.seen.reserve(grown - self.seen.len());
        Ok(())
    }

    /// Checks the estimated memory of a map of `capacity` stored states and the open list
    /// against the memory budget, taking what it needs from a shared pool.
    fn within_memory(&mut self, capacity: usize) -> Result<(), AStarError> {
        let used = memory_estimate::<N, C>(capacity, self.open.capacity());
        let over = match self.limits.max_memory {
            Some(limit) if used > limit => Some(limit),
            _ => self.pool.grow(used),
        };
        match over {
            Some(limit) => Err(AStarError::MemoryLimit {
                limit,
                stats: self.stats(self.open.capacity()),
            }),
            None => Ok(()),
        }
    }

    /// The path to the stored state `index`, at its cost.
    fn solution(&self, index: u32) -> AStarSolution<N, C> {
        let (_, &(_, cost)) = self.seen.get_index(index as usize).expect("stored");
        AStarSolution {
            path: rebuild_path(&self.seen, index),
            cost,
            stats: self.stats(self.open.capacity()),
        }
    }

    /// The error of a search that ran out of states.
    fn exhausted(&self) -> AStarError {
        AStarError::NoSolution(self.stats(0))
    }
}

/// The best-first search behind the sequential A*s: takes a state of the lowest `f`, has
/// `expand` list its children (step cost and estimate, dead ones left out), and stores the
/// children that are new or cheaper, within `upper` and not dominated.
fn search<N, C, FE, FS, D>(
    start: &N,
    start_h: C,
    expand: FE,
    hooks: Hooks<FS, D, C>,
) -> Result<AStarSolution<N, C>, AStarError>
where
    N: Eq + Hash + Clone,
    C: Copy + Ord + Default + Add<Output = C> + TryInto<u64>,
    FE: FnMut(&[(N, C)]) -> Children<N, C>,
    FS: FnMut(&N) -> bool,
    D: Dominance<N, C>,
{
    let Hooks {
        mut success,
        mut dominance,
        limits,
        upper,
        any_goal,
    } = hooks;
    let mut frontier = Frontier::new(start, start_h, limits, upper);
    let mut run = Sequential {
        frontier: &mut frontier,
        taken: &mut Batch::new(1),
        children: &mut Vec::new(),
    };
    run.go_on(expand, &mut success, &mut dominance, any_goal)
}

/// A sequential best-first search's working parts: its stored states and open list, the
/// state taken last, and those of its children not stored yet (when a budget stopped the
/// search while it stored them).
struct Sequential<'a, N, C> {
    frontier: &'a mut Frontier<N, C>,
    taken: &'a mut Batch<N, C>,
    children: &'a mut Children<N, C>,
}

impl<N, C> Sequential<'_, N, C>
where
    N: Eq + Hash + Clone,
    C: Copy + Ord + Default + Add<Output = C> + TryInto<u64>,
{
    /// Stores the children left over, then takes a state of the lowest `f`, has `expand` list
    /// its children and stores them, until a goal, the end of the states or a budget.
    fn go_on<FE, FS, D>(
        &mut self,
        mut expand: FE,
        success: &mut FS,
        dominance: &mut D,
        any_goal: bool,
    ) -> Result<AStarSolution<N, C>, AStarError>
    where
        FE: FnMut(&[(N, C)]) -> Children<N, C>,
        FS: FnMut(&N) -> bool,
        D: Dominance<N, C>,
    {
        loop {
            if self.children.is_empty() {
                match self.frontier.take(1, None, success, self.taken) {
                    Taken::Goal(found) => return Ok(found),
                    Taken::Batch(None) => return Err(self.frontier.exhausted()),
                    Taken::Batch(Some(_)) => *self.children = expand(&self.taken.nodes),
                }
            }
            let goal = any_goal.then_some(&mut *success);
            let stored = self
                .frontier
                .store(self.taken, self.children, dominance, goal);
            if let Some(found) = stored? {
                return Ok(found);
            }
        }
    }
}

/// Lists the children of a batch of states one after another, each with its parent's place
/// in the batch, its step cost and its estimate.
fn sequential_expand<N, C, FN, IN>(mut successors: FN) -> impl FnMut(&[(N, C)]) -> Children<N, C>
where
    C: Copy,
    FN: FnMut(&N, C) -> IN,
    IN: IntoIterator<Item = (N, C, C)>,
{
    move |batch: &[(N, C)]| {
        let mut children = Vec::new();
        for (at, (node, g)) in batch.iter().enumerate() {
            children.extend(
                successors(node, *g)
                    .into_iter()
                    .map(|(next, step, h)| (at, next, step, h)),
            );
        }
        children
    }
}

/// A batch expanded whose children are not stored yet.
struct Pending<N, C> {
    batch: Batch<N, C>,
    children: Children<N, C>,
    /// The batch's `f`.
    f: C,
}

/// [`search`] with the expansion of each batch (up to `size` states, listed by `expand`)
/// overlapped with the storing of the previous batch's children, on rayon's pool. A batch is
/// taken before the previous one's children are stored only from the same layer of `f`: every
/// goal found then still costs the lowest `f` in the list, which no solution can undercut, so
/// the answer stays optimal.
fn search_pipelined<N, C, FE, FS, D>(
    start: &N,
    start_h: C,
    expand: FE,
    hooks: Hooks<FS, D, C>,
    size: usize,
) -> Result<AStarSolution<N, C>, AStarError>
where
    N: Eq + Hash + Clone + Send + Sync,
    C: Copy + Ord + Default + Add<Output = C> + TryInto<u64> + Send + Sync,
    FE: Fn(&[(N, C)]) -> Children<N, C> + Sync,
    FS: FnMut(&N) -> bool,
    D: Dominance<N, C> + Send,
{
    let Hooks {
        mut success,
        mut dominance,
        limits,
        upper,
        any_goal,
    } = hooks;
    let mut frontier = Frontier::new(start, start_h, limits, upper);
    let mut next = Batch::new(size);
    // The last batch expanded, its children (not stored yet) and its `f`.
    let mut pending: Option<Pending<N, C>> = None;
    loop {
        let only = pending.as_ref().map(|pending| pending.f);
        let f = match frontier.take(size, only, &mut success, &mut next) {
            Taken::Goal(found) => return Ok(found),
            Taken::Batch(f) => f,
        };
        pending = match (f, pending.take()) {
            (None, None) => return Err(frontier.exhausted()),
            (
                None,
                Some(Pending {
                    batch,
                    mut children,
                    ..
                }),
            ) => {
                let goal = any_goal.then_some(&mut success);
                if let Some(found) = frontier.store(&batch, &mut children, &mut dominance, goal)? {
                    return Ok(found);
                }
                None
            }
            (Some(f), None) => {
                let children = expand(&next.nodes);
                let batch = std::mem::replace(&mut next, Batch::new(size));
                Some(Pending { batch, children, f })
            }
            (
                Some(f),
                Some(Pending {
                    batch,
                    mut children,
                    ..
                }),
            ) => {
                let expanded = if any_goal {
                    // The goal test is the caller's and need not be `Send`: the batch's
                    // children are stored first, then the next batch is expanded.
                    let goal = Some(&mut success);
                    if let Some(found) =
                        frontier.store(&batch, &mut children, &mut dominance, goal)?
                    {
                        return Ok(found);
                    }
                    expand(&next.nodes)
                } else {
                    let (expanded, stored) = rayon::join(
                        || expand(&next.nodes),
                        || frontier.store(&batch, &mut children, &mut dominance, None::<&mut FS>),
                    );
                    stored?;
                    expanded
                };
                // The stored batch's buffers are reused for the next one.
                Some(Pending {
                    batch: std::mem::replace(&mut next, batch),
                    children: expanded,
                    f,
                })
            }
        };
    }
}

/// Dijkstra's algorithm: [`astar`] with a zero heuristic.
///
/// # Errors
/// As [`astar`].
pub fn dijkstra<N, C, FN, IN, FS>(
    start: &N,
    successors: FN,
    success: FS,
    limits: Limits,
) -> Result<AStarSolution<N, C>, AStarError>
where
    N: Eq + Hash + Clone,
    C: Copy + Ord + Default + Add<Output = C> + TryInto<u64>,
    FN: FnMut(&N) -> IN,
    IN: IntoIterator<Item = (N, C)>,
    FS: FnMut(&N) -> bool,
{
    astar(start, successors, |_| C::default(), success, limits)
}

/// Follows parent indices from `index` back to the start.
fn rebuild_path<N: Clone, C>(seen: &Seen<N, C>, index: u32) -> Vec<N> {
    let mut path = Vec::new();
    let mut at = index;
    while let Some((node, &(parent, _))) = seen.get_index(at as usize) {
        path.push(node.clone());
        at = parent;
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small weighted grid: moving right costs 1, moving down costs the row number + 1.
    fn grid_successors(&(r, c): &(u8, u8)) -> Vec<((u8, u8), u32)> {
        let mut out = Vec::new();
        if c < 4 {
            out.push(((r, c + 1), 1));
        }
        if r < 4 {
            out.push(((r + 1, c), u32::from(r) + 1));
        }
        out
    }

    #[test]
    fn dijkstra_finds_cheapest_path() {
        let solution = dijkstra(
            &(0u8, 0u8),
            grid_successors,
            |&n| n == (4, 4),
            Limits::UNLIMITED,
        )
        .expect("reachable");
        // Down costs 1+2+3+4 = 10 whatever the column, right costs 4.
        assert_eq!(solution.cost, 14);
        assert_eq!(solution.path.first(), Some(&(0, 0)));
        assert_eq!(solution.path.last(), Some(&(4, 4)));
        assert_eq!(solution.path.len(), 9);
    }

    #[test]
    fn astar_with_heuristic_expands_less() {
        let h = |&(r, c): &(u8, u8)| u32::from(4 - c) + u32::from(4 - r);
        let a = astar(
            &(0u8, 0u8),
            grid_successors,
            h,
            |&n| n == (4, 4),
            Limits::UNLIMITED,
        )
        .expect("reachable");
        let d = dijkstra(
            &(0u8, 0u8),
            grid_successors,
            |&n| n == (4, 4),
            Limits::UNLIMITED,
        )
        .expect("reachable");
        assert_eq!(a.cost, d.cost);
        assert!(a.stats.expanded <= d.stats.expanded);
    }

    #[test]
    fn pruned_states_are_never_entered() {
        // Column 4 above the last row is dead: the path must go down first, at a higher cost.
        let live = |&(r, c): &(u8, u8)| c != 4 || r == 4;
        let children = |n: &(u8, u8), _: u32| {
            grid_successors(n)
                .into_iter()
                .filter(|(next, _)| live(next))
                .map(|(next, step)| (next, step, 0))
        };
        let solution = astar_with(
            &(0u8, 0u8),
            0,
            children,
            |&n| n == (4, 4),
            AStarOptions::new(),
        )
        .expect("reachable");
        assert!(solution.path.iter().all(live));
        assert_eq!(solution.cost, 14);
        let none = |_: &(u8, u8), _: u32| std::iter::empty();
        let all_dead = astar_with(&(0u8, 0u8), 0, none, |&n| n == (4, 4), AStarOptions::new());
        assert!(matches!(all_dead, Err(AStarError::NoSolution(s)) if s.stored == 1));
    }

    #[test]
    fn dominated_states_are_dropped_and_the_answer_stays_optimal() {
        // The grid with a tag: every move may also set the tag, for one more. A tagged state
        // can do nothing its untagged twin cannot, so the twin reached no dearer dominates it.
        let successors = |&(r, c, _): &(u8, u8, bool), _: u32| {
            grid_successors(&(r, c))
                .into_iter()
                .flat_map(|((r, c), cost)| [((r, c, false), cost, 0), ((r, c, true), cost + 1, 0)])
                .collect::<Vec<_>>()
        };
        let goal = |&(r, c, _): &(u8, u8, bool)| (r, c) == (4, 4);
        let plain =
            astar_with(&(0, 0, true), 0, successors, goal, AStarOptions::new()).expect("reachable");
        let mut untagged = std::collections::HashMap::new();
        let dominance = |&(r, c, tagged): &(u8, u8, bool), g: u32| {
            if tagged {
                return untagged.get(&(r, c)).is_some_and(|&best| best <= g);
            }
            untagged.insert((r, c), g);
            false
        };
        let options = AStarOptions::new().dominance(dominance);
        let pruned = astar_with(&(0, 0, true), 0, successors, goal, options).expect("reachable");
        assert_eq!((plain.cost, pruned.cost), (14, 14));
        assert!(pruned.path[1..].iter().all(|&(_, _, tagged)| !tagged));
        assert!(
            pruned.stats.stored < plain.stats.stored,
            "{} stored, {} without dominance",
            pruned.stats.stored,
            plain.stats.stored
        );
    }

    /// A 40 x 40 grid with pseudo-random step costs 1..=9 (from the seed), every move in
    /// four directions, and a heuristic that is admissible but not consistent: the Manhattan
    /// distance to the corner (every step costs at least 1) on some cells, zero on the others.
    struct RoughGrid(u64);

    impl RoughGrid {
        fn mix(&self, r: u8, c: u8) -> u64 {
            let cell = u64::from(r) << 8 | u64::from(c);
            let mut x = self.0 ^ cell.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            x ^= x >> 29;
            x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x ^ (x >> 32)
        }

        fn successors(&self, &(r, c): &(u8, u8)) -> Vec<((u8, u8), u32)> {
            let cost = (self.mix(r, c) % 9) as u32 + 1;
            let mut out = Vec::new();
            for (dr, dc) in [(0i8, 1i8), (1, 0), (0, -1), (-1, 0)] {
                let (nr, nc) = (r as i8 + dr, c as i8 + dc);
                if (0..40).contains(&nr) && (0..40).contains(&nc) {
                    out.push(((nr as u8, nc as u8), cost));
                }
            }
            out
        }

        fn heuristic(&self, &(r, c): &(u8, u8)) -> u32 {
            if self.mix(c, r).is_multiple_of(3) {
                0
            } else {
                u32::from(39 - r) + u32::from(39 - c)
            }
        }
    }

    #[test]
    fn the_parallel_search_is_optimal_and_the_same_on_any_number_of_threads() {
        let goal = |&n: &(u8, u8)| n == (39, 39);
        for seed in 0..4 {
            let grid = RoughGrid(seed);
            let successors = |n: &(u8, u8)| grid.successors(n);
            let heuristic = |n: &(u8, u8)| grid.heuristic(n);
            let reference = dijkstra(&(0, 0), successors, goal, Limits::UNLIMITED)
                .expect("reachable")
                .cost;
            let batched = |threads: usize, upper: Option<u32>, size: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .expect("a pool");
                let children = |n: &(u8, u8), _: u32| {
                    successors(n)
                        .into_iter()
                        .map(|(next, step)| (next, step, heuristic(&next)))
                        .collect::<Vec<_>>()
                };
                let options = AStarOptions::new().upper_bound(upper).parallel(size);
                pool.install(|| {
                    astar_with(&(0u8, 0u8), heuristic(&(0, 0)), children, goal, options)
                })
            };
            let parallel = |threads, upper| batched(threads, upper, PARALLEL_BATCH);
            let one = parallel(1, None).expect("reachable");
            let two = parallel(2, None).expect("reachable");
            assert_eq!(one.cost, reference, "seed {seed}");
            assert_eq!(
                (two.cost, two.stats.expanded, &two.path),
                (one.cost, one.stats.expanded, &one.path)
            );
            // Small batches, so that these small graphs still fill several and batches are
            // expanded while others are stored; a batch of one is the sequential search.
            for size in [1, 2, 4] {
                let small = batched(2, None, size).expect("reachable");
                assert_eq!(small.cost, reference, "seed {seed}, batches of {size}");
                assert_eq!(
                    batched(1, None, size).map(|s| (s.stats.expanded, s.path)),
                    Ok((small.stats.expanded, small.path))
                );
            }
            let cost: u32 = one
                .path
                .windows(2)
                .map(|w| {
                    successors(&w[0])
                        .into_iter()
                        .find(|s| s.0 == w[1])
                        .expect("a move")
                        .1
                })
                .sum();
            assert_eq!(cost, one.cost, "the path costs what is claimed");
            // With the optimum as the upper bound it is found; below it, nothing is.
            assert_eq!(parallel(2, Some(reference)).map(|s| s.cost), Ok(reference));
            assert!(matches!(
                parallel(2, Some(reference - 1)),
                Err(AStarError::NoSolution(_))
            ));
        }
    }

    /// Start -> a, b (1 each, h 1) and -> goal (3); one of a and b -> goal (1). In batches of
    /// one, the second of a and b is expanded while the first one's children are stored; if
    /// it is the one that leads on, the cheaper goal is still waiting to be stored when layer
    /// 2 runs dry, and the dearer goal queued at 3 must not be taken.
    #[test]
    fn a_layer_is_not_left_while_its_children_wait_to_be_stored() {
        for leads in ['a', 'b'] {
            let children = |&n: &char, _: u32| match n {
                's' => vec![('a', 1, 1), ('b', 1, 1), ('g', 3, 0)],
                n if n == leads => vec![('g', 1, 0)],
                _ => vec![],
            };
            let found = search_pipelined(
                &'s',
                0,
                parallel_expand(&children),
                Hooks {
                    success: |&n: &char| n == 'g',
                    dominance: NoDominance,
                    limits: Limits::UNLIMITED,
                    upper: None,
                    any_goal: false,
                },
                1,
            )
            .expect("reachable");
            assert_eq!((found.cost, found.path), (2, vec!['s', leads, 'g']));
        }
    }

    #[test]
    fn a_dearer_goal_is_not_taken_while_cheaper_children_wait_to_be_stored() {
        // Start -> x (1, h 1) -> goal (1); start -> goal (3). While x's child (the goal at 2)
        // waits to be stored, the goal at 3 is already queued.
        let successors = |&n: &char, _: u32| match n {
            's' => vec![('x', 1, 1), ('g', 3, 0)],
            'x' => vec![('g', 1, 0)],
            _ => vec![],
        };
        let options = AStarOptions::new().parallel(PARALLEL_BATCH);
        let found = astar_with(&'s', 0, successors, |&n| n == 'g', options).expect("reachable");
        assert_eq!((found.cost, found.path), (2, vec!['s', 'x', 'g']));
    }

    #[test]
    fn any_goal_ends_at_the_first_goal_stored() {
        // Start -> goal (10) and start -> x (1, h 1) -> goal (1): the goal at 10 is stored
        // with the start's children, before x is taken, and ends a search for any goal.
        let successors = |&n: &char, _: u32| match n {
            's' => vec![('g', 10, 0), ('x', 1, 1)],
            'x' => vec![('g', 1, 0)],
            _ => vec![],
        };
        for batch in [1, PARALLEL_BATCH] {
            let options = AStarOptions::new().parallel(batch);
            let cheapest = astar_with(&'s', 0, successors, |&n| n == 'g', options.clone());
            let cheapest = cheapest.expect("reachable");
            assert_eq!((cheapest.cost, cheapest.stats.expanded), (2, 2));
            let any = astar_with(&'s', 0, successors, |&n| n == 'g', options.any_goal(true));
            let any = any.expect("reachable");
            assert_eq!((any.cost, any.path), (10, vec!['s', 'g']));
            assert_eq!(any.stats.expanded, 1);
        }
    }

    #[test]
    fn unreachable_goal_is_no_solution() {
        let err = dijkstra(
            &(0u8, 0u8),
            grid_successors,
            |&n| n == (9, 9),
            Limits::UNLIMITED,
        )
        .unwrap_err();
        match err {
            AStarError::NoSolution(stats) => assert_eq!(stats.stored, 25),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn memory_cap_stops_the_search() {
        // An unbounded line: only the memory cap can stop it.
        let err = dijkstra(
            &0u64,
            |&n| [(n + 1, 1u64)],
            |_| false,
            Limits::default().with_max_memory(1 << 16),
        )
        .unwrap_err();
        assert!(matches!(err, AStarError::MemoryLimit { limit, .. } if limit == 1 << 16));
        assert!(err.to_string().contains("memory limit"));
        // The map is not grown past the cap before the search stops.
        assert!(err.stats().memory <= 1 << 16, "{}", err.stats().memory);
    }

    #[test]
    fn an_upper_bound_keeps_the_optimum_and_stores_less() {
        let goal = |&(r, c): &(u8, u8)| (r, c) == (2, 2);
        let free = astar(&(0, 0), grid_successors, |_| 0, goal, Limits::default()).unwrap();
        let children = |n: &(u8, u8), _: u32| {
            grid_successors(n)
                .into_iter()
                .map(|(next, step)| (next, step, 0))
        };
        let bounded = |upper| {
            let options = AStarOptions::new().upper_bound(Some(upper));
            astar_with(&(0, 0), 0, children, goal, options)
        };
        let found = bounded(free.cost).unwrap();
        assert_eq!(found.cost, free.cost);
        assert!(found.stats.stored < free.stats.stored);
        let below = bounded(free.cost - 1);
        assert!(matches!(below, Err(AStarError::NoSolution(_))));
    }

    #[test]
    fn a_memory_pool_is_shared_and_given_back() {
        let pool = MemoryPool::shared(1 << 16);
        let limits = Limits::default().with_memory_pool(Arc::clone(&pool));
        let line = |&n: &u32| vec![(n + 1, 1u32)];
        let err = astar(&0u32, line, |_| 0, |_| false, limits.clone()).unwrap_err();
        assert!(matches!(err, AStarError::MemoryLimit { .. }), "{err}");
        assert_eq!(pool.free(), 1 << 16, "everything given back");
        // A search that fits takes part of the pool while it runs and returns it.
        let found = astar(&0u32, line, |_| 0, |&n| n == 100, limits).unwrap();
        assert_eq!(found.cost, 100);
        assert_eq!(pool.free(), 1 << 16);
    }

    #[test]
    fn a_stopped_search_reports_a_lower_bound_it_has_proven() {
        let goal = |&n: &(u8, u8)| n == (39, 39);
        for seed in 0..4 {
            let grid = RoughGrid(seed);
            let run = |budget: u64| {
                astar(
                    &(0u8, 0u8),
                    |n| grid.successors(n),
                    |n| grid.heuristic(n),
                    goal,
                    Limits::UNLIMITED.with_max_nodes(budget),
                )
            };
            let full = run(u64::MAX).expect("reachable");
            let (optimum, all) = (u64::from(full.cost), full.stats.generated);
            let mut last = 0;
            for budget in [50, all / 4, all / 2, all - 1] {
                let Err(AStarError::GaveUp { stats, .. }) = run(budget) else {
                    panic!("seed {seed}: {budget} nodes are not enough");
                };
                let bound = stats.lower_bound.expect("states were taken");
                assert!(
                    (last..=optimum).contains(&bound),
                    "seed {seed}: {bound} after {last}, optimum {optimum}"
                );
                last = bound;
            }
            // One node short of the end, the bound is less than the dearest step (9) short.
            assert!(optimum - last < 9, "seed {seed}: {last} against {optimum}");
        }
    }

    #[test]
    fn node_cap_stops_the_search() {
        let err = dijkstra(
            &0u64,
            |&n| [(n + 1, 1u64)],
            |_| false,
            Limits::default().with_max_nodes(100),
        )
        .unwrap_err();
        assert!(
            matches!(err, AStarError::GaveUp { why: GiveUp::NodeLimit, stats } if stats.generated == 100)
        );
    }

    #[test]
    fn reopens_states_under_inconsistent_heuristic() {
        // Graph: s->a (1), s->b (4), a->b (1), b->t (5). h(a) is large but admissible.
        let succ = |&n: &char| -> Vec<(char, u32)> {
            match n {
                's' => vec![('a', 1), ('b', 4)],
                'a' => vec![('b', 1)],
                'b' => vec![('t', 5)],
                _ => vec![],
            }
        };
        let h = |&n: &char| match n {
            'a' => 6,
            'b' => 0,
            's' => 0,
            _ => 0,
        };
        let sol = astar(&'s', succ, h, |&n| n == 't', Limits::UNLIMITED).expect("reachable");
        assert_eq!(sol.cost, 7);
        assert_eq!(sol.path, vec!['s', 'a', 'b', 't']);
    }
}
