//! Admissible heuristics for the sliding-tile puzzles, updated incrementally per move.

mod linear_conflict;
mod manhattan;

use std::fmt;
use std::str::FromStr;

pub use linear_conflict::LinearConflict;
pub use manhattan::Manhattan;

use crate::board::Board;

/// A lower bound on the moves to the goal, kept up to date as tiles move.
pub trait TileHeuristic: Sized {
    /// The heuristic of `board`, computed from scratch.
    fn new(board: &Board) -> Self;

    /// The current value. `budget` is the largest value that would not prune the state: a
    /// heuristic made of several parts may return early with any value above it.
    fn value(&mut self, budget: u32) -> u32;

    /// Tile `tile` moved from cell `from` to the adjacent cell `to` (vertically if `vertical`).
    fn moved(&mut self, tile: u8, from: usize, to: usize, vertical: bool);
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
            HeuristicKind::Manhattan => Manhattan::new(board).value(u32::MAX),
            HeuristicKind::LinearConflict => LinearConflict::new(board).value(u32::MAX),
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
