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
//! box that is filled becomes a wall), so that is its key. The exact search keeps a table per
//! frozen layout it meets often: building one costs about as much as 20 expansions, and most
//! layouts are met only a few times (on large.in's boards, with 30 K expansions per case,
//! building a table for every layout met made the file 20 % slower).

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering};
use std::sync::{PoisonError, RwLock};

use rustc_hash::FxHashMap;

use crate::bound::Bound;
use crate::freeze::frozen;
use crate::puzzle::Puzzle;
use crate::rules::State;

/// The meeting of a frozen layout that builds its table; until then its positions use the
/// start's table, which holds for them too.
const BUILT_AFTER: u32 = 16;
/// Most tables built (about 10 KB each).
const MAX_TABLES: usize = 4096;
/// Most frozen layouts counted; positions of later ones use the start's table.
const MAX_LAYOUTS: usize = 1 << 16;

/// The frozen objects of a position: its frozen balls, empty boxes and full boxes.
type FrozenLayout = [u64; 3];

/// What is known of one frozen layout.
enum Met {
    /// How many times it was met, its table not built yet.
    Counted(AtomicU32),
    /// Its table.
    Built(Box<Bound>),
}

/// The lower bound's tables per frozen layout of a puzzle, shared by the search's threads.
pub(crate) struct FrozenTables {
    /// The start's table.
    start: Bound,
    /// The objects frozen at the start (in every position reachable from it, they are among
    /// the frozen ones).
    fixed: FrozenLayout,
    /// The layouts met so far.
    layouts: RwLock<FxHashMap<FrozenLayout, Met>>,
    /// How many of them have a table.
    built: AtomicUsize,
}

impl FrozenTables {
    /// The tables of `puzzle`, with `start` its start's table ([`Bound::new`]).
    pub(crate) fn new(puzzle: &Puzzle, start: Bound) -> FrozenTables {
        FrozenTables {
            start,
            fixed: layout(puzzle, &puzzle.start),
            layouts: RwLock::new(FxHashMap::default()),
            built: AtomicUsize::new(0),
        }
    }

    /// The start's table.
    pub(crate) fn start(&self) -> &Bound {
        &self.start
    }

    /// Calls `f` with a table for `state`, a position reachable from the puzzle's start: the
    /// one built for the objects frozen in it, or the start's when nothing more is frozen
    /// there or that layout has no table yet ([`BUILT_AFTER`]).
    pub(crate) fn with<R>(&self, puzzle: &Puzzle, state: &State, f: impl FnOnce(&Bound) -> R) -> R {
        let key = layout(puzzle, state);
        if key == self.fixed {
            return f(&self.start);
        }
        // A poisoned lock only means that another thread panicked; the map is still whole.
        let read = self.layouts.read().unwrap_or_else(PoisonError::into_inner);
        let build = match read.get(&key) {
            Some(Met::Built(table)) => return f(table),
            // Exactly one meeting counts up to the threshold, and it builds the table.
            Some(Met::Counted(times)) => {
                times.fetch_add(1, Ordering::Relaxed) + 1 == BUILT_AFTER
                    && self.built.load(Ordering::Relaxed) < MAX_TABLES
            }
            None => {
                let room = read.len() < MAX_LAYOUTS;
                drop(read);
                if room {
                    self.layouts
                        .write()
                        .unwrap_or_else(PoisonError::into_inner)
                        .entry(key)
                        .or_insert_with(|| Met::Counted(AtomicU32::new(1)));
                }
                return f(&self.start);
            }
        };
        drop(read);
        if !build {
            return f(&self.start);
        }
        let table = Box::new(Bound::new(&puzzle.with_start(*state)));
        let result = f(&table);
        self.layouts
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, Met::Built(table));
        self.built.fetch_add(1, Ordering::Relaxed);
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
    use crate::rules::Dir;

    /// The ball that slides into the box leaves the other ball frozen on the top row next to
    /// the full box: only a box pushed up onto it can take it, so the last box needs three
    /// pushes, not the two of the start's table (where the ball could slide left to it). The
    /// position's own table is used from its layout's [`BUILT_AFTER`]-th meeting on.
    #[test]
    fn a_layout_gets_its_own_table_when_met_often() {
        let puzzle = parse_puzzles("3 5\n@O$O-\n-$---\n-----\n")
            .unwrap()
            .remove(0);
        let after = puzzle.start.step(&puzzle, Dir::Right).unwrap().state;
        let tables = FrozenTables::new(&puzzle, Bound::new(&puzzle));
        let estimate = |state: &State| tables.with(&puzzle, state, |bound| bound.estimate(state));
        assert_eq!(layout(&puzzle, &puzzle.start), [0; 3]);
        assert_eq!(layout(&puzzle, &after), [1 << 3, 0, 1 << 2]);
        assert_eq!(
            estimate(&puzzle.start),
            tables.start().estimate(&puzzle.start)
        );
        for _ in 1..BUILT_AFTER {
            assert_eq!(estimate(&after), Some(2));
        }
        assert_eq!(estimate(&after), Some(3));
        assert_eq!(estimate(&after), Some(3));
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
