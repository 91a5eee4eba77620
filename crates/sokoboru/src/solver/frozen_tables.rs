//! Pair-cost tables for the objects that freeze during play.
//!
//! [`Bound::new`] treats the objects frozen at a puzzle's start as walls (with a frozen ball
//! met only by a box pushed onto it and a frozen empty box only by a ball sliding in), which
//! is sound for every position reachable from that start because they never move. The same
//! holds for any position: the objects frozen there ([`crate::frozen`]) never move again, so
//! a `Bound` built with that position as the start holds for every position reachable from
//! it. A box pushed against a wall and a ball stuck beside it halfway through a search then
//! block the pair costs of the other objects as walls do.
//!
//! Such a table depends only on which objects are frozen and what they are (a frozen empty
//! box that is filled becomes a wall), so that is its key. The exact search builds the table
//! of each frozen layout when it first meets it, and shares it between its threads. Building
//! a table costs as much as a few dozen expansions, which small searches notice; waiting for
//! a layout's later meetings would save that, but then which positions have a table would
//! depend on the threads' timing, and the search would no longer be the same from run to
//! run.

use std::sync::{PoisonError, RwLock};

use rustc_hash::FxHashMap;

use super::tuning::MAX_TABLES;
use crate::bound::Bound;
use crate::freeze::frozen;
use crate::puzzle::Puzzle;
use crate::state::State;

/// The frozen objects of a position: its frozen balls, empty boxes and full boxes.
type FrozenLayout = [u64; 3];

/// The lower bound's tables per frozen layout of a puzzle, shared by the search's threads.
pub(crate) struct FrozenTables {
    /// The start's table.
    start: Bound,
    /// The objects frozen at the start (in every position reachable from it, they are among
    /// the frozen ones).
    fixed: FrozenLayout,
    /// The tables built so far.
    tables: RwLock<FxHashMap<FrozenLayout, Box<Bound>>>,
}

impl FrozenTables {
    /// The tables of `puzzle`, with `start` its start's table ([`Bound::new`]).
    pub(crate) fn new(puzzle: &Puzzle, start: Bound) -> FrozenTables {
        FrozenTables {
            start,
            fixed: layout(puzzle, &puzzle.start),
            tables: RwLock::new(FxHashMap::default()),
        }
    }

    /// The start's table.
    #[cfg(test)]
    pub(crate) fn start(&self) -> &Bound {
        &self.start
    }

    /// Calls `f` with the table for `state`, a position reachable from the puzzle's start: the
    /// one for the objects frozen in it (built now if need be), or the start's when nothing
    /// more is frozen there or [`MAX_TABLES`] are kept (positions of the layouts met later
    /// use the start's table, which holds for them too; which layouts those are then depends
    /// on the threads' timing).
    pub(crate) fn with<R>(&self, puzzle: &Puzzle, state: &State, f: impl FnOnce(&Bound) -> R) -> R {
        let key = layout(puzzle, state);
        if key == self.fixed {
            return f(&self.start);
        }
        {
            // A poisoned lock only means that another thread panicked; the map is whole.
            let read = self.tables.read().unwrap_or_else(PoisonError::into_inner);
            if let Some(table) = read.get(&key) {
                return f(table);
            }
            if read.len() >= MAX_TABLES {
                return f(&self.start);
            }
        }
        let table = Box::new(Bound::new(&puzzle.with_start(*state)));
        let result = f(&table);
        self.tables
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .entry(key)
            .or_insert(table);
        result
    }
}

/// The frozen objects of `state`.
fn layout(puzzle: &Puzzle, state: &State) -> FrozenLayout {
    let frozen = frozen(puzzle, state);
    [
        frozen & state.balls,
        frozen & state.empty,
        frozen & state.full,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;
    use crate::state::Dir;

    /// The ball that slides into the box leaves the other ball frozen on the top row next to
    /// the full box: only a box pushed up onto it can take it, so the last box needs three
    /// pushes, not the two of the start's table (where the ball could slide left to it).
    #[test]
    fn a_position_with_more_objects_frozen_gets_its_own_table() {
        let puzzle = parse_puzzles("3 5\n@O$O-\n-$---\n-----\n")
            .unwrap()
            .remove(0);
        let after = puzzle.start.step(&puzzle, Dir::Right).unwrap().state;
        let tables = FrozenTables::new(&puzzle, Bound::new(&puzzle));
        let estimate = |state: &State| tables.with(&puzzle, state, |bound| bound.estimate(state));
        assert_eq!(layout(&puzzle, &puzzle.start), [0; 3]);
        assert_eq!(layout(&puzzle, &after), [1 << 3, 0, 1 << 2]);
        assert_eq!(tables.start().estimate(&after), Some(2));
        for _ in 0..2 {
            assert_eq!(estimate(&after), Some(3));
            assert_eq!(
                estimate(&puzzle.start),
                tables.start().estimate(&puzzle.start)
            );
        }
    }

    /// A frozen empty box that a ball slides into is a full box, a wall to the others: a new
    /// layout with a table of its own.
    #[test]
    fn filling_a_frozen_box_changes_the_layout() {
        let puzzle = parse_puzzles("1 4\n$-O@\n").unwrap().remove(0);
        let filled = puzzle.start.step(&puzzle, Dir::Left).unwrap().state;
        assert_eq!(layout(&puzzle, &puzzle.start), [0, 1, 0]);
        assert_eq!(layout(&puzzle, &filled), [0, 0, 1]);
    }
}
