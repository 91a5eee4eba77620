//! The region relaxation: a smaller game whose optimum bounds the real one from below.
//!
//! In the relaxed game the goal piece stands on a cell, as in the real game, but every other
//! piece stands *somewhere in a rectangle* of cells. The dice, the living pieces and who moves
//! are exactly as in the real game; only where the other pieces are is forgotten:
//! - the goal piece steps to a neighbouring cell (never the hole) and may capture a piece whose
//!   rectangle holds that cell, or capture nothing;
//! - another piece that moves either grows its rectangle by one king step (clipped to the
//!   board), or captures a piece whose rectangle lies within one step of its own, and then
//!   stands in the part of the victim's rectangle it can reach;
//! - a move never captures the goal piece (that loses the real game).
//!
//! Every real line of play is a line of the relaxed game of the same length, with each piece's
//! real cell inside its rectangle all along (by induction over the moves: a step lands in the
//! grown rectangle; a capture needs the two cells adjacent, so the rectangles are within one
//! step, and the capturer lands on the victim's cell, which is in both the victim's rectangle
//! and its own grown one). So the relaxed optimum from a position is a lower bound on the real
//! one. It is a strong bound: it knows which piece each die moves, given the captures so far,
//! and that a capture needs the capturer to have come close on its own moves; on the course's
//! twelve public cases it equals the optimum at the start. And the relaxed game is small: a
//! piece that moves without capturing has one relaxed move, not eight.
//!
//! [`RegionGame`] searches it with ply-search's IDA* ([`ply_search::ida_probe`]), pruned by the
//! dice table ([`DiceBounds`], a relaxation of this relaxation) and by its own transposition
//! table, which lasts for the whole solve: hierarchical heuristic search (Holte, Perez, Zimmer
//! and MacDonald, *Hierarchical A\**, AAAI-96).

use ply_search::{BoundTable, Ending, IdaProblem, Limits, Prepared, Probe, ida_probe, ida_star};

use super::bounds::{DiceBounds, king_distance};
use super::instance::DICE;
use super::rules::{CELLS, HOLE, Position};

/// A rectangle of cells: rows `top..=bottom`, columns `left..=right`, packed in 16 bits as
/// four 4-bit coordinates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Rect(u16);

impl Rect {
    fn new(top: u8, bottom: u8, left: u8, right: u8) -> Rect {
        Rect(
            u16::from(top) << 12 | u16::from(bottom) << 8 | u16::from(left) << 4 | u16::from(right),
        )
    }

    /// The single cell `cell`.
    fn cell(cell: u8) -> Rect {
        let (row, col) = (cell / 10, cell % 10);
        Rect::new(row, row, col, col)
    }

    fn top(self) -> u8 {
        (self.0 >> 12) as u8
    }

    fn bottom(self) -> u8 {
        (self.0 >> 8) as u8 & 15
    }

    fn left(self) -> u8 {
        (self.0 >> 4) as u8 & 15
    }

    fn right(self) -> u8 {
        self.0 as u8 & 15
    }

    /// The cell of a one-cell rectangle (the top-left cell of any other).
    fn first_cell(self) -> u8 {
        self.top() * 10 + self.left()
    }

    /// Every cell one king step from a cell of `self`, or in it, clipped to the board.
    fn grown(self) -> Rect {
        Rect::new(
            self.top().saturating_sub(1),
            (self.bottom() + 1).min(9),
            self.left().saturating_sub(1),
            (self.right() + 1).min(9),
        )
    }

    /// The Chebyshev distance between the nearest cells of two rectangles.
    fn gap(self, other: Rect) -> u8 {
        let rows = other
            .top()
            .saturating_sub(self.bottom())
            .max(self.top().saturating_sub(other.bottom()));
        let cols = other
            .left()
            .saturating_sub(self.right())
            .max(self.left().saturating_sub(other.right()));
        rows.max(cols)
    }

    /// The cells in both rectangles (they overlap whenever this is called: see `gap`).
    fn meet(self, other: Rect) -> Rect {
        Rect::new(
            self.top().max(other.top()),
            self.bottom().min(other.bottom()),
            self.left().max(other.left()),
            self.right().min(other.right()),
        )
    }

    fn contains(self, cell: u8) -> bool {
        let (row, col) = (cell / 10, cell % 10);
        (self.top()..=self.bottom()).contains(&row) && (self.left()..=self.right()).contains(&col)
    }
}

/// One relaxed move: `piece` goes from rectangle `from` to `to`, capturing `captured` (or 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegionMove {
    piece: u8,
    captured: u8,
    from: Rect,
    to: Rect,
}

/// The most relaxed moves of one state: 8 goal steps with up to 5 captures each, and 5 moves
/// of another piece.
const MAX_MOVES: usize = 56;

/// The relaxed moves of one state, as ply-search slots.
#[derive(Clone, Copy, Debug)]
pub struct RegionMoves {
    moves: [RegionMove; MAX_MOVES],
    len: u8,
    next: u8,
}

impl RegionMoves {
    fn push(&mut self, mv: RegionMove) {
        self.moves[usize::from(self.len)] = mv;
        self.len += 1;
    }
}

impl Iterator for RegionMoves {
    type Item = Option<RegionMove>;

    #[inline]
    fn next(&mut self) -> Option<Option<RegionMove>> {
        (self.next < self.len).then(|| {
            self.next += 1;
            Some(self.moves[usize::from(self.next - 1)])
        })
    }
}

/// The goal piece's steps from each cell (never into the hole), nearest to (0,0) first.
const STEPS: [[u8; 8]; CELLS] = {
    let mut table = [[u8::MAX; 8]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = ((cell / 10) as i32, (cell % 10) as i32);
        let mut n = 0;
        // King distances to (0,0) range over 0..=10: list the neighbours by distance.
        let mut want = 0;
        while want <= 10 {
            let mut d = 0;
            while d < 9 {
                let (nr, nc) = (r + d / 3 - 1, c + d % 3 - 1);
                let to = nr * 10 + nc;
                if d != 4 && nr >= 0 && nr < 10 && nc >= 0 && nc < 10 && to != HOLE as i32 {
                    let far = if nr > nc { nr } else { nc };
                    let dist = far + (nr == nc && nr > 3) as i32;
                    if dist == want {
                        table[cell][n] = to as u8;
                        n += 1;
                    }
                }
                d += 1;
            }
            want += 1;
        }
        cell += 1;
    }
    table
};

/// Entries in the relaxed game's transposition table (a power of two): 16 MiB.
const TABLE_BITS: u32 = 18;

/// The relaxed game of one instance, with a transposition table kept across searches.
pub struct RegionGame {
    goal: u8,
    dice: [u8; DICE],
    bounds: DiceBounds,
    table: BoundTable,
    /// Living pieces: bit `p - 1` for piece `p`.
    alive: u8,
    /// `rects[p]`: where piece `p` may stand (one cell for the goal piece); index 0 unused.
    rects: [Rect; 7],
    /// The move number the current search starts from.
    start: u8,
    /// Relaxed nodes generated over every search so far.
    generated: u64,
}

impl RegionGame {
    /// The relaxed game of an instance: goal piece `goal`, dice `dice`, and the instance's dice
    /// table.
    #[must_use]
    pub fn new(goal: u8, dice: [u8; DICE], bounds: DiceBounds) -> RegionGame {
        RegionGame {
            goal,
            dice,
            bounds,
            table: BoundTable::new(TABLE_BITS),
            alive: 0,
            rects: [Rect::default(); 7],
            start: 0,
            generated: 0,
        }
    }

    /// Relaxed nodes generated by every search so far.
    #[must_use]
    pub fn generated(&self) -> u64 {
        self.generated
    }

    /// Whether the relaxed game from `position` at move `i` reaches the goal within `budget`
    /// moves; if not, [`Probe::next_bound`] is a lower bound on the moves the real game
    /// needs from there.
    pub fn probe(&mut self, i: usize, position: &Position, budget: u32) -> Probe {
        self.set(i, position);
        let probe = ida_probe(self, budget);
        self.generated += probe.generated;
        probe
    }

    /// The relaxed optimum from `position` at move `i` (ply-search's IDA* within `limits`): a
    /// lower bound on the moves the real game needs; `u32::MAX` when the relaxed goal piece
    /// cannot reach (0,0) within the dice, which proves the real game has no solution. When
    /// `limits` run out first, the largest bound the search had proven (its last threshold).
    pub fn optimum(&mut self, i: usize, position: &Position, limits: &Limits) -> u32 {
        self.set(i, position);
        let report = ida_star(self, limits.clone());
        self.generated += report.generated;
        match report.ending {
            Ending::Solved { cost, .. } => cost,
            Ending::Unsolvable => u32::MAX,
            Ending::Stopped => report.lower_bound,
        }
    }

    /// Starts the relaxed game from `position` at move `i`: every piece on its own cell.
    fn set(&mut self, i: usize, position: &Position) {
        self.alive = position.alive_mask();
        for p in 1..=6u8 {
            if let Some(cell) = position.cell(p) {
                self.rects[usize::from(p)] = Rect::cell(cell);
            }
        }
        self.start = i.min(DICE) as u8;
    }

    #[inline]
    fn is_alive(&self, piece: u8) -> bool {
        self.alive & (1 << (piece - 1)) != 0
    }

    #[inline]
    fn goal_cell(&self) -> u8 {
        self.rects[usize::from(self.goal)].first_cell()
    }

    /// The state key: move number, living pieces and their rectangles.
    #[inline]
    fn key(&self, i: u8) -> u128 {
        (1..=6u8).fold(u128::from(i) << 6 | u128::from(self.alive), |key, p| {
            let rect = if self.is_alive(p) {
                self.rects[usize::from(p)].0
            } else {
                0
            };
            key << 16 | u128::from(rect)
        })
    }

    /// The pieces die `die` lets move (the goal piece first), as in the real game.
    fn movers(&self, die: u8) -> ([u8; 2], usize) {
        if self.is_alive(die) {
            return ([die, 0], 1);
        }
        let mut out = [0; 2];
        let mut n = 0;
        if let Some(up) = (die + 1..=6).find(|&p| self.is_alive(p)) {
            out[n] = up;
            n += 1;
        }
        if let Some(down) = (1..die).rev().find(|&p| self.is_alive(p)) {
            out[n] = down;
            n += 1;
        }
        if n == 2 && out[1] == self.goal {
            out.swap(0, 1);
        }
        (out, n)
    }

    /// Moves of the goal piece: each step, capturing each piece that may stand there first.
    fn goal_moves(&self, list: &mut RegionMoves) {
        let from = self.rects[usize::from(self.goal)];
        for &to in &STEPS[usize::from(from.first_cell())] {
            if to == u8::MAX {
                break;
            }
            for q in (1..=6u8).filter(|&q| q != self.goal && self.is_alive(q)) {
                if self.rects[usize::from(q)].contains(to) {
                    list.push(RegionMove {
                        piece: self.goal,
                        captured: q,
                        from,
                        to: Rect::cell(to),
                    });
                }
            }
            list.push(RegionMove {
                piece: self.goal,
                captured: 0,
                from,
                to: Rect::cell(to),
            });
        }
    }

    /// Moves of another piece: each capture within reach first, then a plain step.
    fn other_moves(&self, piece: u8, list: &mut RegionMoves) {
        let from = self.rects[usize::from(piece)];
        let grown = from.grown();
        for q in (1..=6u8).filter(|&q| q != self.goal && q != piece && self.is_alive(q)) {
            let victim = self.rects[usize::from(q)];
            if from.gap(victim) <= 1 {
                list.push(RegionMove {
                    piece,
                    captured: q,
                    from,
                    to: victim.meet(grown),
                });
            }
        }
        list.push(RegionMove {
            piece,
            captured: 0,
            from,
            to: grown,
        });
    }
}

impl IdaProblem for RegionGame {
    type Move = RegionMove;
    type Moves = RegionMoves;
    /// The move number.
    type Node = u8;

    fn root(&mut self) -> u8 {
        self.start
    }

    #[inline]
    fn heuristic(&mut self, i: u8, budget: u32) -> u32 {
        let bound = self
            .bounds
            .get(usize::from(i), self.alive, king_distance(self.goal_cell()));
        if bound > budget {
            return bound;
        }
        let known = match self.table.get(self.key(i)) {
            Some(room) if room >= budget => room + 1,
            _ => bound,
        };
        if usize::from(i).saturating_add(known as usize) > DICE {
            u32::MAX
        } else {
            known
        }
    }

    #[inline]
    fn lookahead(&mut self, i: u8, mv: RegionMove, budget: u32) -> Option<Prepared<u8>> {
        let goal_cell = if mv.piece == self.goal {
            mv.to.first_cell()
        } else {
            self.goal_cell()
        };
        self.bounds
            .prune_child(i, self.alive, mv.captured, goal_cell, budget)
    }

    #[inline]
    fn is_goal(&self, _i: u8) -> bool {
        self.goal_cell() == 0
    }

    fn moves(&self, i: u8, _last: Option<RegionMove>) -> RegionMoves {
        let mut list = RegionMoves {
            moves: [RegionMove::default(); MAX_MOVES],
            len: 0,
            next: 0,
        };
        let Some(&die) = self.dice.get(usize::from(i)) else {
            return list;
        };
        let (movers, n) = self.movers(die);
        for &piece in &movers[..n] {
            if piece == self.goal {
                self.goal_moves(&mut list);
            } else {
                self.other_moves(piece, &mut list);
            }
        }
        list
    }

    #[inline]
    fn apply(&mut self, i: u8, mv: RegionMove) -> (u8, u32) {
        self.rects[usize::from(mv.piece)] = mv.to;
        if mv.captured != 0 {
            self.alive &= !(1 << (mv.captured - 1));
        }
        (i + 1, 1)
    }

    #[inline]
    fn undo(&mut self, _i: u8, mv: RegionMove, _child: u8) {
        self.rects[usize::from(mv.piece)] = mv.from;
        if mv.captured != 0 {
            self.alive |= 1 << (mv.captured - 1);
        }
    }

    #[inline]
    fn exhausted(&mut self, i: u8, budget: u32) {
        let key = self.key(i);
        self.table.put(key, budget);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rectangles_grow_meet_and_measure_gaps() {
        let a = Rect::cell(44);
        assert_eq!(a.grown(), Rect::new(3, 5, 3, 5));
        assert_eq!(
            Rect::cell(0).grown(),
            Rect::new(0, 1, 0, 1),
            "clipped to the board"
        );
        assert_eq!(Rect::cell(99).grown(), Rect::new(8, 9, 8, 9));
        assert_eq!(a.gap(Rect::cell(46)), 2);
        assert_eq!(a.grown().gap(Rect::cell(46)), 1);
        assert_eq!(a.gap(Rect::new(0, 9, 0, 9)), 0);
        assert_eq!(Rect::new(0, 2, 0, 2).gap(Rect::new(5, 6, 1, 1)), 3);
        assert_eq!(
            Rect::new(0, 5, 0, 5).meet(Rect::new(3, 9, 4, 9)),
            Rect::new(3, 5, 4, 5)
        );
        assert!(Rect::new(3, 5, 4, 5).contains(54));
        assert!(!Rect::new(3, 5, 4, 5).contains(53));
    }

    #[test]
    fn goal_steps_are_listed_nearest_first_and_avoid_the_hole() {
        for cell in 0..CELLS as u8 {
            let steps: Vec<u8> = STEPS[usize::from(cell)]
                .iter()
                .copied()
                .take_while(|&s| s != u8::MAX)
                .collect();
            assert!(!steps.contains(&HOLE));
            assert!(
                steps
                    .windows(2)
                    .all(|w| king_distance(w[0]) <= king_distance(w[1]))
            );
            let expected = (0..CELLS as u8)
                .filter(|&to| to != HOLE && super::super::rules::is_step(cell, to))
                .count();
            assert_eq!(steps.len(), expected, "cell {cell}");
        }
    }
}
