//! Optimal solving with ply-search's IDA*.

use ply_search::{IdaProblem, IdaReport, Limits, ida_star};

use crate::board::{Board, Direction, MAX_CELLS};
use crate::error::BoardError;
use crate::geometry::{Directions, Geometry};
use crate::heuristic::{HeuristicKind, LinearConflict, Manhattan, TileHeuristic};

/// The mutable search state: tiles, blank and an incrementally updated heuristic.
#[derive(Clone, Debug)]
pub struct TileSearch<H> {
    tiles: [u8; MAX_CELLS],
    goal: [u8; MAX_CELLS],
    blank: usize,
    geometry: &'static Geometry,
    heuristic: H,
}

impl<H: TileHeuristic> TileSearch<H> {
    /// A search state starting at `board`.
    #[must_use]
    pub fn new(board: &Board) -> Self {
        let mut tiles = [0; MAX_CELLS];
        tiles[..board.cells()].copy_from_slice(board.tiles());
        let mut goal = [0; MAX_CELLS];
        goal[..board.cells()].copy_from_slice(Board::goal(board.width()).tiles());
        TileSearch {
            tiles,
            goal,
            blank: board.blank(),
            geometry: Geometry::of(board.width()),
            heuristic: H::new(board),
        }
    }
}

impl<H: TileHeuristic> IdaProblem for TileSearch<H> {
    type Move = Direction;
    type Moves = Directions;

    #[inline(always)]
    fn heuristic(&mut self, budget: u32) -> u32 {
        self.heuristic.value(budget)
    }

    #[inline(always)]
    fn is_goal(&self) -> bool {
        self.blank == 0 && self.tiles == self.goal
    }

    #[inline(always)]
    fn moves(&self, last: Option<Direction>) -> Directions {
        let back = last.map_or(0, |d| 1 << d.opposite() as u8);
        Directions(self.geometry.move_mask(self.blank) & !back)
    }

    #[inline(always)]
    fn apply(&mut self, dir: Direction) -> u32 {
        let to = self.geometry.neighbour_unchecked(self.blank, dir);
        let tile = self.tiles[to];
        self.tiles[self.blank] = tile;
        self.tiles[to] = 0;
        self.heuristic
            .moved(tile, to, self.blank, dir.is_vertical());
        self.blank = to;
        1
    }

    #[inline(always)]
    fn undo(&mut self, dir: Direction) {
        let from = self
            .geometry
            .neighbour_unchecked(self.blank, dir.opposite());
        let tile = self.tiles[from];
        self.tiles[self.blank] = tile;
        self.tiles[from] = 0;
        self.heuristic
            .moved(tile, from, self.blank, dir.is_vertical());
        self.blank = from;
    }
}

/// Solves `board` optimally with IDA* and the chosen heuristic.
///
/// # Errors
/// [`BoardError::Unsolvable`] when the board's parity rules out the goal (no search is run).
pub fn solve(
    board: &Board,
    heuristic: HeuristicKind,
    limits: Limits,
) -> Result<IdaReport<Direction>, BoardError> {
    if !board.is_solvable() {
        return Err(BoardError::Unsolvable);
    }
    Ok(match heuristic {
        HeuristicKind::Manhattan => ida_star(&mut TileSearch::<Manhattan>::new(board), limits),
        HeuristicKind::LinearConflict => {
            ida_star(&mut TileSearch::<LinearConflict>::new(board), limits)
        }
    })
}

/// Checks that `moves` take `board` to the goal; returns a description of the failure.
///
/// # Errors
/// Which move leaves the board, or that the final board is not the goal.
pub fn check_solution(board: &Board, moves: &[Direction]) -> Result<(), String> {
    match board.replay(moves) {
        Err(i) => Err(format!(
            "move {} ({}) leaves the board",
            i + 1,
            moves[i].letter()
        )),
        Ok(end) if end.is_goal() => Ok(()),
        Ok(_) => Err(format!("the {} moves do not reach the goal", moves.len())),
    }
}
