//! The sum of Manhattan distances.

use std::sync::OnceLock;

use super::TileHeuristic;
use crate::board::{Board, MAX_CELLS};

/// Distance tables `[tile * cells + cell]` for widths 3, 4 and 5.
pub(crate) fn distance_table(width: usize) -> &'static [u8] {
    static TABLES: [OnceLock<Vec<u8>>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
    TABLES[width - 3].get_or_init(|| {
        let cells = width * width;
        let mut table = vec![0; cells * cells];
        for tile in 1..cells {
            for cell in 0..cells {
                let dr = (tile / width).abs_diff(cell / width);
                let dc = (tile % width).abs_diff(cell % width);
                table[tile * cells + cell] = (dr + dc) as u8;
            }
        }
        table
    })
}

/// The sum over tiles (blank excluded) of the row and column distance to their goal cells;
/// each move changes it by exactly one, via a table lookup.
#[derive(Clone, Debug)]
pub struct Manhattan {
    h: u32,
    cells: usize,
    table: &'static [u8],
}

impl Manhattan {
    /// The current sum.
    #[inline(always)]
    #[must_use]
    pub fn sum(&self) -> u32 {
        self.h
    }
}

impl TileHeuristic for Manhattan {
    fn new(board: &Board) -> Self {
        let cells = board.cells();
        debug_assert!(cells <= MAX_CELLS);
        let table = distance_table(board.width());
        let h = board
            .tiles()
            .iter()
            .enumerate()
            .map(|(cell, &t)| u32::from(table[usize::from(t) * cells + cell]))
            .sum();
        Manhattan { h, cells, table }
    }

    #[inline(always)]
    fn value(&mut self, _budget: u32) -> u32 {
        self.h
    }

    #[inline(always)]
    fn moved(&mut self, tile: u8, from: usize, to: usize, _vertical: bool) {
        let row = usize::from(tile) * self.cells;
        self.h = self.h + u32::from(self.table[row + to]) - u32::from(self.table[row + from]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn course_example_values() {
        let b: Board = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3".parse().unwrap();
        assert_eq!(Manhattan::new(&b).sum(), 41);
        let b: Board = "15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4".parse().unwrap();
        assert_eq!(Manhattan::new(&b).sum(), 43);
        assert_eq!(Manhattan::new(&Board::goal(5)).sum(), 0);
    }
}
