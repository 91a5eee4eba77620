//! A best-first search that stops at a budget and goes on later from where it stopped.

use std::hash::Hash;
use std::ops::Add;

use super::{
    AStarError, AStarSolution, AStarStats, Batch, Children, Frontier, NoDominance, Sequential,
    sequential_expand,
};
use crate::limits::Limits;

/// A sequential best-first search ([`astar_with`](crate::astar_with) on one thread, without
/// an upper bound or dominance) that keeps its stored states and open list when a budget
/// stops it, so that a further run goes on where the last one stopped instead of starting
/// over. A portfolio of searches that each get a growing budget in turn (as restarts with
/// growing budgets would) then does each search's work once; the price is memory, as every
/// paused search keeps its states.
///
/// Each [`resume`](Resumable::resume) runs under its own limits: its node budget counts the
/// states generated in that run, its time starts with it, and its memory is taken from its
/// limits' pool (given back when the search is dropped). The counters
/// ([`stats`](Resumable::stats), and those of a result) are the search's over all its runs.
/// A run after a solution goes on to the next one.
///
/// ```
/// use ply_search::{AStarError, GiveUp, Limits, Resumable};
///
/// // The cheapest way from 0 to 20 by steps of +1 (cost 2) or +3 (cost 5), 10 states a run.
/// let successors = |&n: &u32, _g: u32| {
///     let h = |m: u32| 2 * 20u32.saturating_sub(m).div_ceil(3);
///     [(n + 1, 2), (n + 3, 5)].into_iter().filter(|&(m, _)| m <= 20).map(move |(m, c)| (m, c, h(m)))
/// };
/// let mut search = Resumable::new(&0, 14);
/// let mut runs = 1;
/// let found = loop {
///     let limits = Limits::default().with_max_nodes(10);
///     match search.resume(successors, |&n| n == 20, limits, false) {
///         Err(AStarError::GaveUp { why: GiveUp::NodeLimit, .. }) => runs += 1,
///         outcome => break outcome.unwrap(),
///     }
/// };
/// assert_eq!(found.cost, 34);
/// assert!(runs > 1);
/// ```
pub struct Resumable<N, C> {
    frontier: Frontier<N, C>,
    /// The state expanded last.
    taken: Batch<N, C>,
    /// Its children not stored yet, when a budget stopped the last run among them.
    children: Children<N, C>,
}

impl<N, C> Resumable<N, C>
where
    N: Eq + Hash + Clone,
    C: Copy + Ord + Default + Add<Output = C> + TryInto<u64>,
{
    /// A search from `start`, whose estimate is `start_h`, that has not run yet.
    pub fn new(start: &N, start_h: C) -> Self {
        Resumable {
            frontier: Frontier::new(start, start_h, Limits::UNLIMITED, None),
            taken: Batch::new(1),
            children: Vec::new(),
        }
    }

    /// Runs the search on within `limits`, as [`astar_with`](crate::astar_with) would:
    /// `successors(state, g)` lists a state's children with their step costs and estimates,
    /// `success` tells a goal, and with `any_goal` the run ends at the first goal stored
    /// rather than the first taken (see [`AStarOptions::any_goal`](crate::AStarOptions::any_goal)),
    /// in this run or in an earlier one without `any_goal` (those note the first goal they
    /// store). Every run of one search must be given the same `successors` and `success`.
    ///
    /// # Errors
    /// As [`astar_with`](crate::astar_with): [`AStarError::GaveUp`] or
    /// [`AStarError::MemoryLimit`] when a budget of this run stops it (a later run goes on
    /// from there), [`AStarError::NoSolution`] when no state is left.
    pub fn resume<FN, IN, FS>(
        &mut self,
        successors: FN,
        mut success: FS,
        limits: Limits,
        any_goal: bool,
    ) -> Result<AStarSolution<N, C>, AStarError>
    where
        FN: FnMut(&N, C) -> IN,
        IN: IntoIterator<Item = (N, C, C)>,
        FS: FnMut(&N) -> bool,
    {
        self.frontier.resume(limits)?;
        // Every run tests the goals it stores: a run that ends at goals taken notes the first,
        // which ends the first run that ends at goals stored.
        self.frontier.noting = !any_goal;
        if any_goal && let Some(index) = self.frontier.noted.take() {
            return Ok(self.frontier.solution(index));
        }
        let mut run = Sequential {
            frontier: &mut self.frontier,
            taken: &mut self.taken,
            children: &mut self.children,
        };
        let found = run.go_on(
            sequential_expand(successors),
            &mut success,
            &mut NoDominance,
            true,
        );
        if found.is_ok() {
            self.frontier.noted = None;
        }
        found
    }

    /// The search's counters over all its runs.
    pub fn stats(&self) -> AStarStats {
        self.frontier.stats(self.frontier.open.capacity())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::{GiveUp, MemoryPool};
    use crate::{AStarOptions, astar_with};

    /// A 30 x 30 grid with pseudo-random step costs 1..=9 and the Manhattan distance to the
    /// far corner as the estimate.
    fn successors(&(r, c): &(u8, u8), _: u32) -> Vec<((u8, u8), u32, u32)> {
        let cost = (u32::from(r) * 7 + u32::from(c) * 13) % 9 + 1;
        let mut out = Vec::new();
        for (dr, dc) in [(0i8, 1i8), (1, 0), (0, -1), (-1, 0)] {
            let (nr, nc) = (r as i8 + dr, c as i8 + dc);
            if (0..30).contains(&nr) && (0..30).contains(&nc) {
                let h = (29 - nr as u32) + (29 - nc as u32);
                out.push(((nr as u8, nc as u8), cost, h));
            }
        }
        out
    }

    fn goal(&n: &(u8, u8)) -> bool {
        n == (29, 29)
    }

    #[test]
    fn runs_cut_short_find_what_one_run_finds_with_the_same_work() {
        let whole = astar_with(&(0, 0), 58, successors, goal, AStarOptions::new());
        let whole = whole.expect("reachable");
        for (step, any_goal) in [(1, false), (7, false), (100, true)] {
            let mut search = Resumable::new(&(0, 0), 58);
            let mut runs = 0;
            let found = loop {
                runs += 1;
                assert!(
                    runs <= whole.stats.generated + 1,
                    "a run that makes no progress"
                );
                let limits = Limits::UNLIMITED.with_max_nodes(step);
                match search.resume(successors, goal, limits, any_goal) {
                    Err(AStarError::GaveUp {
                        why: GiveUp::NodeLimit,
                        stats,
                    }) => assert_eq!(stats.generated, search.stats().generated + 1),
                    outcome => break outcome.expect("reachable"),
                }
            };
            if any_goal {
                assert!(found.cost >= whole.cost);
                continue;
            }
            assert_eq!((found.cost, &found.path), (whole.cost, &whole.path));
            let (stats, once) = (found.stats, whole.stats);
            assert_eq!(
                (stats.generated, stats.expanded),
                (once.generated, once.expanded)
            );
            assert_eq!(stats.stored, once.stored);
            assert!(runs >= once.generated / step);
        }
    }

    #[test]
    fn a_paused_search_holds_its_memory_until_dropped() {
        let pool = MemoryPool::shared(1 << 30);
        let mut search = Resumable::new(&(0u8, 0u8), 58);
        let mut limits = Limits::UNLIMITED.with_max_nodes(200);
        limits.memory_pool = Some(pool.clone());
        let stopped = search.resume(successors, goal, limits.clone(), false);
        assert!(matches!(stopped, Err(AStarError::GaveUp { .. })));
        let held = (1 << 30) - pool.free();
        assert!(held > 0 && held >= search.stats().memory / 2, "{held}");
        // A further run takes its share again, not twice.
        let stopped = search.resume(successors, goal, limits, false);
        assert!(matches!(stopped, Err(AStarError::GaveUp { .. })));
        assert!((1 << 30) - pool.free() <= 2 * search.stats().memory);
        drop(search);
        assert_eq!(pool.free(), 1 << 30);
    }

    #[test]
    fn a_goal_stored_before_runs_ended_at_goals_stored_ends_the_first_such_run() {
        // Start -> goal (10) and start -> x (1, h 1) -> y (1, h 1) -> goal (1).
        let successors = |&n: &char, _: u32| match n {
            's' => vec![('g', 10, 0), ('x', 1, 1)],
            'x' => vec![('y', 1, 1)],
            'y' => vec![('g', 1, 0)],
            _ => vec![],
        };
        let goal = |&n: &char| n == 'g';
        let one = || Limits::UNLIMITED.with_max_nodes(2);
        // The first run stores the dear goal with the start's children and goes on.
        let mut search = Resumable::new(&'s', 0);
        let stopped = search.resume(successors, goal, one(), false);
        assert!(
            matches!(stopped, Err(AStarError::GaveUp { .. })),
            "{stopped:?}"
        );
        let any = search.resume(successors, goal, one(), true).expect("noted");
        assert_eq!((any.cost, any.path), (10, vec!['s', 'g']));
        // Without the switch, the cheapest goal is taken.
        let mut search = Resumable::new(&'s', 0);
        let cheapest = search.resume(successors, goal, Limits::UNLIMITED, false);
        assert_eq!(cheapest.expect("reachable").cost, 3);
    }

    #[test]
    fn a_run_after_a_goal_stored_goes_on_to_the_next() {
        // Start -> g (10), h (10) and x (1, h 1): the first run ends at g as it is stored,
        // the next at h, whose storing was still to come.
        let successors = |&n: &char, _: u32| match n {
            's' => vec![('g', 10, 0), ('h', 10, 0), ('x', 1, 1)],
            _ => vec![],
        };
        let goal = |&n: &char| n == 'g' || n == 'h';
        let mut search = Resumable::new(&'s', 0);
        let first = search.resume(successors, goal, Limits::UNLIMITED, true);
        assert_eq!(first.expect("reachable").path, ['s', 'g']);
        let next = search.resume(successors, goal, Limits::UNLIMITED, true);
        assert_eq!(next.expect("reachable").path, ['s', 'h']);
    }

    #[test]
    fn a_search_out_of_states_says_so_again() {
        let none = |_: &u8, _: u32| Vec::<(u8, u32, u32)>::new();
        let mut search = Resumable::new(&0u8, 0);
        for _ in 0..2 {
            let outcome = search.resume(none, |&n| n == 1, Limits::UNLIMITED, false);
            assert!(matches!(outcome, Err(AStarError::NoSolution(s)) if s.stored == 1));
        }
    }
}
