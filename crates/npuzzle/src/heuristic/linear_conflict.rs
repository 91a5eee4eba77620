//! Manhattan distance plus linear conflicts.
//!
//! Hansson, O., Mayer, A. and Yung, M. (1992). *Criticizing solutions to relaxed models yields
//! powerful admissible heuristics.* Information Sciences 63(3). Korf, R. E. and Taylor, L. A.
//! (1996). *Finding optimal solutions to the twenty-four puzzle.* AAAI-96.
//!
//! Two tiles in their goal line (row or column) whose order there is reversed cannot pass each
//! other inside the line: one must leave it and come back, two moves beyond Manhattan distance.
//! Per line, the fewest tiles that must leave is the number of goal tiles in the line minus the
//! longest subsequence already in goal order; each costs 2. Row conflicts need vertical detours
//! and column conflicts horizontal ones, so both add up admissibly.
//!
//! Each line is encoded as a number in base W + 1 (digit 0: no tile of this line's goal, digit
//! 1 + k: the tile whose goal is position k of the line), and a table indexed by that code gives
//! the line's conflict count. A move changes the code of at most three lines by one digit each.

use std::sync::OnceLock;

use super::{Manhattan, TileHeuristic};
use crate::board::Board;

/// Per-width tables for linear conflicts.
#[derive(Debug)]
struct Tables {
    width: usize,
    /// `pow[k] = (W + 1)^k`.
    pow: [u32; 5],
    /// `row_digit[tile * W + r]`: the tile's digit when it stands in row `r`.
    row_digit: Vec<u32>,
    /// `col_digit[tile * W + c]`: the tile's digit when it stands in column `c`.
    col_digit: Vec<u32>,
    /// Tiles that must leave the line, by line code.
    conflicts: Vec<u8>,
}

impl Tables {
    fn of(width: usize) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        TABLES[width - 3].get_or_init(|| Tables::build(width))
    }

    fn build(width: usize) -> Tables {
        let base = width as u32 + 1;
        let mut pow = [0; 5];
        for (k, p) in pow.iter_mut().enumerate().take(width) {
            *p = base.pow(k as u32);
        }
        let cells = width * width;
        let mut row_digit = vec![0; cells * width];
        let mut col_digit = vec![0; cells * width];
        for tile in 1..cells {
            let (gr, gc) = (tile / width, tile % width);
            row_digit[tile * width + gr] = gc as u32 + 1;
            col_digit[tile * width + gc] = gr as u32 + 1;
        }
        let codes = base.pow(width as u32);
        let conflicts = (0..codes)
            .map(|code| {
                let goals: Vec<u32> = (0..width)
                    .map(|k| (code / pow[k]) % base)
                    .filter(|&d| d != 0)
                    .collect();
                (goals.len() - longest_increasing(&goals)) as u8
            })
            .collect();
        Tables {
            width,
            pow,
            row_digit,
            col_digit,
            conflicts,
        }
    }
}

/// Length of the longest strictly increasing subsequence (quadratic; lines are short).
fn longest_increasing(values: &[u32]) -> usize {
    let mut best = vec![1usize; values.len()];
    for i in 0..values.len() {
        for j in 0..i {
            if values[j] < values[i] {
                best[i] = best[i].max(best[j] + 1);
            }
        }
    }
    best.into_iter().max().unwrap_or(0)
}

/// Manhattan distance plus twice the tiles that must leave their goal line.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    manhattan: Manhattan,
    tables: &'static Tables,
    rows: [u32; 5],
    cols: [u32; 5],
    /// Tiles that must leave their line, summed over rows and columns.
    leaving: u32,
}

impl LinearConflict {
    /// Tiles that must leave their goal line, over all rows and columns (each costs two moves).
    #[must_use]
    pub fn conflicts(&self) -> u32 {
        self.leaving
    }

    #[inline(always)]
    fn conflict(&self, code: u32) -> u32 {
        u32::from(self.tables.conflicts[code as usize])
    }
}

impl TileHeuristic for LinearConflict {
    fn new(board: &Board) -> Self {
        let tables = Tables::of(board.width());
        let w = tables.width;
        let mut rows = [0; 5];
        let mut cols = [0; 5];
        for (cell, &t) in board.tiles().iter().enumerate() {
            let (r, c) = (cell / w, cell % w);
            let t = usize::from(t);
            rows[r] += tables.row_digit[t * w + r] * tables.pow[c];
            cols[c] += tables.col_digit[t * w + c] * tables.pow[r];
        }
        let mut lc = LinearConflict {
            manhattan: Manhattan::new(board),
            tables,
            rows,
            cols,
            leaving: 0,
        };
        lc.leaving = (0..w)
            .map(|i| lc.conflict(lc.rows[i]) + lc.conflict(lc.cols[i]))
            .sum();
        lc
    }

    #[inline(always)]
    fn value(&mut self, _budget: u32) -> u32 {
        self.manhattan.sum() + 2 * self.leaving
    }

    #[inline(always)]
    fn moved(&mut self, tile: u8, from: usize, to: usize, vertical: bool) {
        self.manhattan.moved(tile, from, to, vertical);
        let t = self.tables;
        let w = t.width;
        let base = usize::from(tile) * w;
        let (fr, fc) = (from / w, from % w);
        let (tr, tc) = (to / w, to % w);
        if vertical {
            // Same column, so its order is unchanged: only its code moves a digit.
            let d = t.col_digit[base + fc];
            self.cols[fc] = self.cols[fc] + d * t.pow[tr] - d * t.pow[fr];
            let (old_from, old_to) = (self.rows[fr], self.rows[tr]);
            let new_from = old_from - t.row_digit[base + fr] * t.pow[fc];
            let new_to = old_to + t.row_digit[base + tr] * t.pow[tc];
            self.rows[fr] = new_from;
            self.rows[tr] = new_to;
            self.leaving = self.leaving + self.conflict(new_from) + self.conflict(new_to)
                - self.conflict(old_from)
                - self.conflict(old_to);
        } else {
            let d = t.row_digit[base + fr];
            self.rows[fr] = self.rows[fr] + d * t.pow[tc] - d * t.pow[fc];
            let (old_from, old_to) = (self.cols[fc], self.cols[tc]);
            let new_from = old_from - t.col_digit[base + fc] * t.pow[fr];
            let new_to = old_to + t.col_digit[base + tc] * t.pow[tr];
            self.cols[fc] = new_from;
            self.cols[tc] = new_to;
            self.leaving = self.leaving + self.conflict(new_from) + self.conflict(new_to)
                - self.conflict(old_from)
                - self.conflict(old_to);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Direction;

    #[test]
    fn lis_counts() {
        assert_eq!(longest_increasing(&[]), 0);
        assert_eq!(longest_increasing(&[3, 1, 2]), 2);
        assert_eq!(longest_increasing(&[4, 3, 2, 1]), 1);
    }

    #[test]
    fn reversed_row_needs_detours() {
        // Row 0 holds 0 2 1 3 ... : tiles 1 and 2 in their goal row, reversed.
        let b = Board::from_tiles(&[0, 2, 1, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]).unwrap();
        let mut lc = LinearConflict::new(&b);
        assert_eq!(lc.conflicts(), 1);
        assert_eq!(lc.value(u32::MAX), 2 + 2);
    }

    #[test]
    fn incremental_equals_from_scratch_on_random_walks() {
        for width in 3..=5 {
            let mut board = Board::goal(width);
            let mut lc = LinearConflict::new(&board);
            let mut seed = 99u64 + width as u64;
            for _ in 0..5000 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let dir = Direction::from_index((seed >> 40) as u32);
                let Some(next) = board.moved(dir) else {
                    continue;
                };
                let tile = board.tiles()[next.blank()];
                lc.moved(tile, next.blank(), board.blank(), dir.is_vertical());
                board = next;
                let fresh = LinearConflict::new(&board);
                assert_eq!(lc.rows, fresh.rows, "{board:?}");
                assert_eq!(lc.cols, fresh.cols, "{board:?}");
                assert_eq!(
                    lc.value(u32::MAX),
                    fresh.clone().value(u32::MAX),
                    "{board:?}"
                );
            }
        }
    }
}
