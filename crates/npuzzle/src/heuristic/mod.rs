//! Admissible heuristics for the sliding-tile puzzles, updated incrementally per move.

mod linear_conflict;
mod manhattan;

use std::fmt;
use std::str::FromStr;

pub use linear_conflict::LinearConflict;
pub use manhattan::Manhattan;
pub(crate) use manhattan::distance_table;

use crate::board::Board;
use crate::geometry::MoveSlots;

/// A lower bound on the moves to the goal, kept up to date as tiles move.
///
/// The value itself travels with the search node (see [`ply_search::IdaProblem::Node`]); the
/// heuristic holds whatever else it needs (line codes, pattern indices) and updates it in
/// [`TileHeuristic::moved`] and [`TileHeuristic::unmoved`].
///
/// Each heuristic has its own constructor returning its state for a board and its value.
pub trait TileHeuristic {
    /// How the search loops over the blank's moves (see [`MoveSlots`]).
    type Moves: MoveSlots;

    /// The final value of a node whose incremental value is `h`. `budget` is the largest value
    /// that would not prune the node: a heuristic with a second, optional part (a reflected
    /// lookup) computes it only when `h` alone does not exceed `budget`.
    #[inline(always)]
    fn value(&mut self, h: u32, budget: u32) -> u32 {
        let _ = budget;
        h
    }

    /// The value after `tile` would move from cell `from` to the adjacent cell `to`, if it is
    /// cheap to tell without moving it (see [`ply_search::IdaProblem::lookahead`]).
    #[inline(always)]
    fn peek(&self, h: u32, tile: u8, from: usize, to: usize, vertical: bool) -> Option<u32> {
        let _ = (h, tile, from, to, vertical);
        None
    }

    /// Tile `tile` moved from cell `from` to the adjacent cell `to` (vertically if `vertical`);
    /// `h` was the value before the move; returns the value after it.
    fn moved(&mut self, h: u32, tile: u8, from: usize, to: usize, vertical: bool) -> u32;

    /// Like [`TileHeuristic::moved`] when the new value is already known from
    /// [`TileHeuristic::peek`]: only the heuristic's state is updated.
    #[inline(always)]
    fn commit(&mut self, h: u32, tile: u8, from: usize, to: usize, vertical: bool) {
        let _ = self.moved(h, tile, from, to, vertical);
    }

    /// Takes back [`TileHeuristic::moved`] with the same arguments: the tile returns from `to`
    /// to `from`.
    fn unmoved(&mut self, tile: u8, from: usize, to: usize, vertical: bool);

    /// Starts over at `board` (of the same width), as if built for it; returns its value.
    fn reset(&mut self, board: &Board) -> u32;
}

/// The heuristics `ply npuzzle` offers, weakest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum HeuristicKind {
    /// Sum of Manhattan distances of the tiles.
    Manhattan,
    /// Manhattan distance plus linear conflicts (Hansson, Mayer and Yung 1992).
    LinearConflict,
}

impl HeuristicKind {
    /// Every kind, weakest first.
    pub const ALL: [HeuristicKind; 2] = [HeuristicKind::Manhattan, HeuristicKind::LinearConflict];

    /// The name used on the command line.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            HeuristicKind::Manhattan => "manhattan",
            HeuristicKind::LinearConflict => "linear-conflict",
        }
    }

    /// The value of this heuristic for `board`.
    #[must_use]
    pub fn evaluate(self, board: &Board) -> u32 {
        match self {
            HeuristicKind::Manhattan => Manhattan::new(board).1,
            HeuristicKind::LinearConflict => LinearConflict::new(board).1,
        }
    }
}

impl fmt::Display for HeuristicKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for HeuristicKind {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        HeuristicKind::ALL
            .into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| {
                format!("unknown heuristic '{s}' (expected manhattan or linear-conflict)")
            })
    }
}
