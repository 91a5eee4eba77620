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
//! the line's conflict count. A move changes the code of at most three lines by one digit each,
//! found in per-tile, per-cell tables.

use std::sync::OnceLock;

use super::{Manhattan, TileHeuristic};
use crate::board::Board;
use crate::geometry::{Directions, SLOTS};
use ply_search::Filled;

/// Line slots: rows at `0..W`, columns at `COLS..COLS + W`.
const COLS: usize = 5;

/// Size of the conflict table: a power of two above 6^5 codes, so a masked code is in bounds.
const CODES: usize = 8192;

/// Per-width tables for linear conflicts.
#[derive(Debug)]
struct Tables {
    width: usize,
    /// Row and column line slots of each cell.
    lines_of: [(u8, u8); SLOTS],
    /// `in_row[tile][cell]`: what the tile adds to the code of the row of `cell` when it stands
    /// there (zero unless that row is the tile's goal row).
    in_row: [[u16; SLOTS]; SLOTS],
    /// `in_col[tile][cell]`: the same for the column of `cell`.
    in_col: [[u16; SLOTS]; SLOTS],
    /// Tiles that must leave the line, by line code.
    conflicts: [u8; CODES],
}

impl Tables {
    fn of(width: usize) -> &'static Tables {
        static TABLES: [OnceLock<Tables>; 3] = [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        TABLES[width - 3].get_or_init(|| Tables::build(width))
    }

    fn build(width: usize) -> Tables {
        let base = width as u32 + 1;
        let pow = |k: usize| base.pow(k as u32);
        let cells = width * width;
        let mut lines_of = [(0, 0); SLOTS];
        let mut in_row = [[0; SLOTS]; SLOTS];
        let mut in_col = [[0; SLOTS]; SLOTS];
        for cell in 0..cells {
            let (r, c) = (cell / width, cell % width);
            lines_of[cell] = (r as u8, (COLS + c) as u8);
            for tile in 1..cells {
                let (gr, gc) = (tile / width, tile % width);
                if gr == r {
                    in_row[tile][cell] = ((gc as u32 + 1) * pow(c)) as u16;
                }
                if gc == c {
                    in_col[tile][cell] = ((gr as u32 + 1) * pow(r)) as u16;
                }
            }
        }
        let mut conflicts = [0; CODES];
        for (code, slot) in conflicts.iter_mut().enumerate().take(pow(width) as usize) {
            let goals: Vec<u32> = (0..width)
                .map(|k| (code as u32 / pow(k)) % base)
                .filter(|&d| d != 0)
                .collect();
            *slot = (goals.len() - longest_increasing(&goals)) as u8;
        }
        Tables {
            width,
            lines_of,
            in_row,
            in_col,
            conflicts,
        }
    }

    #[inline(always)]
    fn conflict(&self, code: u32) -> u32 {
        u32::from(self.conflicts[code as usize & (CODES - 1)])
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

/// The line codes after one move.
///
/// The tile moves along one line (a column for a vertical move), whose order is unchanged, so
/// only that line's code changes; it leaves one crossing line and enters another, whose
/// conflicts may change.
#[derive(Clone, Copy, Debug)]
struct LineChange {
    /// Slot and new code of the line the tile moves along.
    along: (usize, u32),
    /// Slot and new code of the crossing line the tile leaves.
    left: (usize, u32),
    /// Slot and new code of the crossing line the tile enters.
    entered: (usize, u32),
    /// Tiles that must leave their line, after the move.
    leaving: u32,
}

/// Manhattan distance plus twice the tiles that must leave their goal line.
#[derive(Clone, Debug)]
pub struct LinearConflict {
    manhattan: Manhattan,
    tables: &'static Tables,
    /// Line codes: rows at `0..W`, columns at `COLS..COLS + W`.
    lines: [u32; 2 * COLS],
    /// Tiles that must leave their line, summed over rows and columns.
    leaving: u32,
}

impl LinearConflict {
    /// Tiles that must leave their goal line, over all rows and columns (each costs two moves).
    #[must_use]
    pub fn conflicts(&self) -> u32 {
        self.leaving
    }

    /// The line codes after `tile` moves from `from` to `to`.
    #[inline(always)]
    fn change(&self, tile: u8, from: usize, to: usize, vertical: bool) -> LineChange {
        let t = self.tables;
        let tile = usize::from(tile) & (SLOTS - 1);
        let (from, to) = (from & (SLOTS - 1), to & (SLOTS - 1));
        let ((row_f, col_f), (row_t, col_t)) = (t.lines_of[from], t.lines_of[to]);
        let (in_row, in_col) = (&t.in_row[tile], &t.in_col[tile]);
        // Along the column (vertical) or row; across the rows or columns.
        let (along, cross_f, cross_t, along_table, cross_table) = if vertical {
            (
                usize::from(col_f),
                usize::from(row_f),
                usize::from(row_t),
                in_col,
                in_row,
            )
        } else {
            (
                usize::from(row_f),
                usize::from(col_f),
                usize::from(col_t),
                in_row,
                in_col,
            )
        };
        let along_code = self.lines[along % (2 * COLS)] + u32::from(along_table[to])
            - u32::from(along_table[from]);
        let old_f = self.lines[cross_f % (2 * COLS)];
        let old_t = self.lines[cross_t % (2 * COLS)];
        let new_f = old_f - u32::from(cross_table[from]);
        let new_t = old_t + u32::from(cross_table[to]);
        let leaving = self.leaving + t.conflict(new_f) + t.conflict(new_t)
            - t.conflict(old_f)
            - t.conflict(old_t);
        LineChange {
            along: (along, along_code),
            left: (cross_f, new_f),
            entered: (cross_t, new_t),
            leaving,
        }
    }

    /// Stores a change computed by [`LinearConflict::change`].
    #[inline(always)]
    fn store(&mut self, change: LineChange) {
        self.lines[change.along.0 % (2 * COLS)] = change.along.1;
        self.lines[change.left.0 % (2 * COLS)] = change.left.1;
        self.lines[change.entered.0 % (2 * COLS)] = change.entered.1;
        self.leaving = change.leaving;
    }

    /// The heuristic for `board` and its value.
    #[must_use]
    pub fn new(board: &Board) -> (Self, u32) {
        let tables = Tables::of(board.width());
        let mut lines = [0; 2 * COLS];
        for (cell, &t) in board.tiles().iter().enumerate() {
            let (row, col) = tables.lines_of[cell];
            lines[usize::from(row)] += u32::from(tables.in_row[usize::from(t)][cell]);
            lines[usize::from(col)] += u32::from(tables.in_col[usize::from(t)][cell]);
        }
        let leaving = (0..tables.width)
            .map(|i| tables.conflict(lines[i]) + tables.conflict(lines[COLS + i]))
            .sum();
        let (manhattan, md) = Manhattan::new(board);
        let lc = LinearConflict {
            manhattan,
            tables,
            lines,
            leaving,
        };
        (lc, md + 2 * leaving)
    }
}

impl TileHeuristic for LinearConflict {
    type Moves = Filled<Directions>;

    #[inline(always)]
    fn peek(&self, h: u32, tile: u8, from: usize, to: usize, vertical: bool) -> Option<u32> {
        let md = self.manhattan.after(h - 2 * self.leaving, tile, from, to);
        Some(md + 2 * self.change(tile, from, to, vertical).leaving)
    }

    #[inline(always)]
    fn moved(&mut self, h: u32, tile: u8, from: usize, to: usize, vertical: bool) -> u32 {
        let md = self.manhattan.after(h - 2 * self.leaving, tile, from, to);
        let change = self.change(tile, from, to, vertical);
        self.store(change);
        md + 2 * change.leaving
    }

    #[inline(always)]
    fn unmoved(&mut self, tile: u8, from: usize, to: usize, vertical: bool) {
        let change = self.change(tile, to, from, vertical);
        self.store(change);
    }

    fn reset(&mut self, board: &Board) -> u32 {
        let (fresh, h) = LinearConflict::new(board);
        *self = fresh;
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Direction;

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
        let (lc, h) = LinearConflict::new(&b);
        assert_eq!(lc.conflicts(), 1);
        assert_eq!(h, 2 + 2);
    }

    #[test]
    fn incremental_equals_from_scratch_on_random_walks() {
        for width in 3..=5 {
            let mut board = Board::goal(width);
            let (mut lc, mut h) = LinearConflict::new(&board);
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
                let (from, to, vertical) = (next.blank(), board.blank(), dir.is_vertical());
                let peeked = lc.peek(h, tile, from, to, vertical);
                let before = (lc.lines, lc.leaving);
                h = lc.moved(h, tile, from, to, vertical);
                assert_eq!(peeked, Some(h));
                board = next;
                let (fresh, fresh_h) = LinearConflict::new(&board);
                assert_eq!(lc.lines, fresh.lines, "{board:?}");
                assert_eq!(h, fresh_h, "{board:?}");
                if seed.is_multiple_of(7) {
                    let mut back = lc.clone();
                    back.unmoved(tile, from, to, vertical);
                    assert_eq!((back.lines, back.leaving), before);
                }
            }
        }
    }
}
