//! The sum of Manhattan distances.

use std::sync::OnceLock;

use super::TileHeuristic;
use crate::board::Board;
use crate::geometry::{AllDirections, SLOTS};

/// Distances `[tile][cell]` of a tile from its goal cell, for one width.
pub(crate) type DistanceTable = [[u8; SLOTS]; SLOTS];

/// Distance tables for widths 3, 4 and 5.
pub(crate) fn distance_table(width: usize) -> &'static DistanceTable {
    static TABLES: [OnceLock<DistanceTable>; 3] =
        [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    TABLES[width - 3].get_or_init(|| {
        let cells = width * width;
        let mut table = [[0; SLOTS]; SLOTS];
        for (tile, row) in table.iter_mut().enumerate().take(cells).skip(1) {
            for (cell, d) in row.iter_mut().enumerate().take(cells) {
                let dr = (tile / width).abs_diff(cell / width);
                let dc = (tile % width).abs_diff(cell % width);
                *d = (dr + dc) as u8;
            }
        }
        table
    })
}

/// The sum over tiles (blank excluded) of the row and column distance to their goal cells;
/// each move changes it by exactly one, found with two table lookups.
#[derive(Clone, Debug)]
pub struct Manhattan {
    table: &'static DistanceTable,
}

impl Manhattan {
    /// The sum after `tile` would move from `from` to `to`, given the sum `h` before.
    #[inline(always)]
    #[must_use]
    pub fn after(&self, h: u32, tile: u8, from: usize, to: usize) -> u32 {
        let row = &self.table[usize::from(tile) & (SLOTS - 1)];
        h + u32::from(row[to & (SLOTS - 1)]) - u32::from(row[from & (SLOTS - 1)])
    }
}

impl Manhattan {
    /// The heuristic for `board` and its value.
    #[must_use]
    pub fn new(board: &Board) -> (Self, u32) {
        let table = distance_table(board.width());
        let h = board
            .tiles()
            .iter()
            .enumerate()
            .map(|(cell, &t)| u32::from(table[usize::from(t)][cell]))
            .sum();
        (Manhattan { table }, h)
    }
}

impl TileHeuristic for Manhattan {
    type Moves = AllDirections;

    #[inline(always)]
    fn peek(&self, h: u32, tile: u8, from: usize, to: usize, _vertical: bool) -> Option<u32> {
        Some(self.after(h, tile, from, to))
    }

    #[inline(always)]
    fn moved(&mut self, h: u32, tile: u8, from: usize, to: usize, _vertical: bool) -> u32 {
        self.after(h, tile, from, to)
    }

    #[inline(always)]
    fn commit(&mut self, _h: u32, _tile: u8, _from: usize, _to: usize, _vertical: bool) {}

    #[inline(always)]
    fn unmoved(&mut self, _tile: u8, _from: usize, _to: usize, _vertical: bool) {}

    fn reset(&mut self, board: &Board) -> u32 {
        let (fresh, h) = Manhattan::new(board);
        *self = fresh;
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn course_example_values() {
        let b: Board = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3".parse().unwrap();
        assert_eq!(Manhattan::new(&b).1, 41);
        let b: Board = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4".parse().unwrap();
        assert_eq!(Manhattan::new(&b).1, 43);
        assert_eq!(Manhattan::new(&Board::goal(5)).1, 0);
    }
}
