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
use crate::geometry::SLOTS;

/// Per-width tables for linear conflicts.
#[derive(Debug)]
struct Tables {
    width: usize,
    /// `pow[k] = (W + 1)^k`.
    pow: [u32; 5],
    /// Row and column of each cell.
    row_col: [(u8, u8); SLOTS],
    /// `row_digit[tile][r]`: the tile's digit when it stands in row `r`.
    row_digit: [[u32; 5]; SLOTS],
    /// `col_digit[tile][c]`: the tile's digit when it stands in column `c`.
    col_digit: [[u32; 5]; SLOTS],
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
        let mut row_col = [(0, 0); SLOTS];
        let mut row_digit = [[0; 5]; SLOTS];
        let mut col_digit = [[0; 5]; SLOTS];
        for (cell, rc) in row_col.iter_mut().enumerate().take(cells) {
            *rc = ((cell / width) as u8, (cell % width) as u8);
        }
        for tile in 1..cells {
            let (gr, gc) = (tile / width, tile % width);
            row_digit[tile][gr] = gc as u32 + 1;
            col_digit[tile][gc] = gr as u32 + 1;
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
            row_col,
            row_digit,
            col_digit,
            conflicts,
        }
    }

    #[inline(always)]
    fn conflict(&self, code: u32) -> u32 {
        self.conflicts
            .get(code as usize)
            .map_or(0, |&c| u32::from(c))
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

/// The line codes after one move: the line the tile moves along (its order is unchanged) and
/// the two crossing lines it leaves and enters.
#[derive(Clone, Copy, Debug)]
struct LineChange {
    /// Index of the line the tile moves along, and its new code.
    along: (usize, u32),
    /// Index of the crossing line the tile leaves, and its new code.
    left: (usize, u32),
    /// Index of the crossing line the tile enters, and its new code.
    entered: (usize, u32),
    /// Tiles that must leave their line, after the move.
    leaving: u32,
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

    /// The line codes after `tile` moves from `from` to `to`.
    #[inline(always)]
    fn change(&self, tile: u8, from: usize, to: usize, vertical: bool) -> LineChange {
        let t = self.tables;
        let tile = usize::from(tile) & (SLOTS - 1);
        let (fr, fc) = t.row_col[from & (SLOTS - 1)];
        let (tr, tc) = t.row_col[to & (SLOTS - 1)];
        let (fr, fc, tr, tc) = (
            usize::from(fr),
            usize::from(fc),
            usize::from(tr),
            usize::from(tc),
        );
        // Moving along a column (vertical) shifts the tile's digit in that column and moves it
        // from row `fr` to row `tr`; a horizontal move is the same with rows and columns swapped.
        let (along_lines, cross_lines, along_digit, cross_digit, a, f_pos, t_pos, pos) = if vertical
        {
            (
                &self.cols,
                &self.rows,
                &t.col_digit[tile],
                &t.row_digit[tile],
                fc,
                fr,
                tr,
                fc,
            )
        } else {
            (
                &self.rows,
                &self.cols,
                &t.row_digit[tile],
                &t.col_digit[tile],
                fr,
                fc,
                tc,
                fr,
            )
        };
        let d = along_digit[a];
        let along = along_lines[a] + d * t.pow[t_pos] - d * t.pow[f_pos];
        let (old_left, old_entered) = (cross_lines[f_pos], cross_lines[t_pos]);
        let left = old_left - cross_digit[f_pos] * t.pow[pos];
        let entered = old_entered + cross_digit[t_pos] * t.pow[pos];
        let leaving = self.leaving + t.conflict(left) + t.conflict(entered)
            - t.conflict(old_left)
            - t.conflict(old_entered);
        LineChange {
            along: (a, along),
            left: (f_pos, left),
            entered: (t_pos, entered),
            leaving,
        }
    }

    /// Stores a change computed by [`LinearConflict::change`].
    #[inline(always)]
    fn store(&mut self, change: LineChange, vertical: bool) {
        let (along, cross) = if vertical {
            (&mut self.cols, &mut self.rows)
        } else {
            (&mut self.rows, &mut self.cols)
        };
        along[change.along.0 % 5] = change.along.1;
        cross[change.left.0 % 5] = change.left.1;
        cross[change.entered.0 % 5] = change.entered.1;
        self.leaving = change.leaving;
    }
}

impl TileHeuristic for LinearConflict {
    fn new(board: &Board) -> (Self, u32) {
        let tables = Tables::of(board.width());
        let w = tables.width;
        let mut rows = [0; 5];
        let mut cols = [0; 5];
        for (cell, &t) in board.tiles().iter().enumerate() {
            let (r, c) = (cell / w, cell % w);
            let t = usize::from(t);
            rows[r] += tables.row_digit[t][r] * tables.pow[c];
            cols[c] += tables.col_digit[t][c] * tables.pow[r];
        }
        let leaving = (0..w)
            .map(|i| tables.conflict(rows[i]) + tables.conflict(cols[i]))
            .sum();
        let (manhattan, md) = Manhattan::new(board);
        let lc = LinearConflict {
            manhattan,
            tables,
            rows,
            cols,
            leaving,
        };
        (lc, md + 2 * leaving)
    }

    #[inline(always)]
    fn peek(&self, h: u32, tile: u8, from: usize, to: usize, vertical: bool) -> Option<u32> {
        let md = self.manhattan.after(h - 2 * self.leaving, tile, from, to);
        Some(md + 2 * self.change(tile, from, to, vertical).leaving)
    }

    #[inline(always)]
    fn moved(&mut self, h: u32, tile: u8, from: usize, to: usize, vertical: bool) -> u32 {
        let md = self.manhattan.after(h - 2 * self.leaving, tile, from, to);
        let change = self.change(tile, from, to, vertical);
        self.store(change, vertical);
        md + 2 * change.leaving
    }

    #[inline(always)]
    fn unmoved(&mut self, tile: u8, from: usize, to: usize, vertical: bool) {
        let change = self.change(tile, to, from, vertical);
        self.store(change, vertical);
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
                let before = (lc.rows, lc.cols, lc.leaving);
                h = lc.moved(h, tile, from, to, vertical);
                assert_eq!(peeked, Some(h));
                board = next;
                let (fresh, fresh_h) = LinearConflict::new(&board);
                assert_eq!(lc.rows, fresh.rows, "{board:?}");
                assert_eq!(lc.cols, fresh.cols, "{board:?}");
                assert_eq!(h, fresh_h, "{board:?}");
                if seed % 7 == 0 {
                    let mut back = lc.clone();
                    back.unmoved(tile, from, to, vertical);
                    assert_eq!((back.rows, back.cols, back.leaving), before);
                }
            }
        }
    }
}
