//! The cheapest pairing of empty boxes with balls, repaired push by push.

use super::{Bound, INFINITE, SLOTS};
use crate::state::{State, bits};

/// A minimum-cost perfect matching of empty boxes (rows) to balls (columns) with its dual
/// values, by shortest augmenting paths with potentials (the Hungarian method: Kuhn (1955), in
/// the shortest-augmenting-path form of Jonker and Volgenant (1987)). Rows and columns keep
/// their slots when objects move or leave, so a push changes one row or one column, or removes
/// one of each, and a single augmentation restores optimality: the potentials stay feasible
/// (every reduced cost non-negative) once the changed row's or column's potential is lowered
/// to its smallest reduced cost, and every other matched pair stays tight.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Matching {
    /// The cell of the box in each row slot.
    pub(super) rows: [u8; SLOTS],
    /// The cell of the ball in each column slot.
    pub(super) cols: [u8; SLOTS],
    /// Row slots in use.
    pub(super) live_rows: u16,
    /// Column slots in use.
    pub(super) live_cols: u16,
    /// Row potentials, `u[row + 1]` (index 0 unused).
    pub(super) u: [i32; SLOTS + 1],
    /// Column potentials, `v[col + 1]`; index 0 is the augmentation's virtual start column.
    pub(super) v: [i32; SLOTS + 1],
    /// `owner[col + 1]`: the row matched to a column, plus one (0: none).
    pub(super) owner: [u8; SLOTS + 1],
}

impl Matching {
    /// The matched pairs, as the cells of each box and its ball.
    pub(crate) fn pairs(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        bits(self.live_cols.into())
            .map(|c| (self.rows[usize::from(self.owner[c + 1]) - 1], self.cols[c]))
    }

    /// The matching's cost, or `None` when every perfect matching pairs a box with a ball it can
    /// never meet (the position is dead).
    #[must_use]
    pub(crate) fn value(&self, bound: &Bound) -> Option<u32> {
        let total: i32 = bits(self.live_cols.into())
            .map(|c| bound.cost(self.rows[usize::from(self.owner[c + 1]) - 1], self.cols[c]))
            .sum();
        u32::try_from(total).ok().filter(|_| total < INFINITE)
    }

    /// The matching after one push that turned `before` into `after`, on the same board. A box
    /// or a ball that moved keeps its slot; a ball that filled a box removes both.
    #[must_use]
    #[inline]
    pub(crate) fn after(&self, bound: &Bound, before: &State, after: &State) -> Matching {
        let mut next = *self;
        let boxes = before.empty ^ after.empty;
        let balls = before.balls ^ after.balls;
        match (boxes.count_ones(), balls.count_ones()) {
            (2, 0) => {
                let row = next.row_at(before.empty & boxes);
                next.rows[row] = (after.empty & boxes).trailing_zeros() as u8;
                next.reprice_row(bound, row);
            }
            (0, 2) => {
                let col = next.col_at(before.balls & balls);
                next.cols[col] = (after.balls & balls).trailing_zeros() as u8;
                next.reprice_col(bound, col);
            }
            (1, 1) => next.remove(bound, boxes, balls),
            // A full box moved: the matching does not see it.
            _ => {}
        }
        next
    }

    /// Whether the push that turned `before` (this matching's state) into `after` might lower
    /// the matching's cost. A push that fills a box may. Otherwise one box (a row) or one
    /// ball (a column) moved, and the dual values bound the new cost from below: keeping the
    /// others and giving the moved row the potential `u' = min over columns of (new cost -
    /// v)` keeps every reduced cost non-negative, so the new cost is at least the old one
    /// minus `u` plus `u'`. It can fall only if `u' < u`: some ball is cheaper, against its
    /// potential, than the row's potential allows (likewise for a column).
    #[must_use]
    pub(crate) fn may_lower(&self, bound: &Bound, before: &State, after: &State) -> bool {
        let boxes = before.empty ^ after.empty;
        let balls = before.balls ^ after.balls;
        match (boxes.count_ones(), balls.count_ones()) {
            (2, 0) => {
                let row = self.row_at(before.empty & boxes);
                let to = (after.empty & boxes).trailing_zeros() as u8;
                bits(self.live_cols.into())
                    .any(|c| bound.cost(to, self.cols[c]) - self.v[c + 1] < self.u[row + 1])
            }
            (0, 2) => {
                let col = self.col_at(before.balls & balls);
                let to = (after.balls & balls).trailing_zeros() as u8;
                bits(self.live_rows.into())
                    .any(|r| bound.cost(self.rows[r], to) - self.u[r + 1] < self.v[col + 1])
            }
            // A full box moved: the matching does not see it.
            (0, 0) => false,
            // A box was filled.
            _ => true,
        }
    }

    /// The row of the box on the one cell of `cell`.
    fn row_at(&self, cell: u64) -> usize {
        let cell = cell.trailing_zeros() as u8;
        bits(self.live_rows.into())
            .find(|&r| self.rows[r] == cell)
            .expect("the box that moved has a row")
    }

    /// The column of the ball on the one cell of `cell`.
    fn col_at(&self, cell: u64) -> usize {
        let cell = cell.trailing_zeros() as u8;
        bits(self.live_cols.into())
            .find(|&c| self.cols[c] == cell)
            .expect("the ball that moved has a column")
    }

    /// The column matched to `row`.
    fn col_of(&self, row: usize) -> usize {
        bits(self.live_cols.into())
            .find(|&c| usize::from(self.owner[c + 1]) == row + 1)
            .expect("every live row is matched")
    }

    /// Row `row` changed its costs: unmatch it, lower its potential to its smallest reduced
    /// cost, and match it again.
    fn reprice_row(&mut self, bound: &Bound, row: usize) {
        let col = self.col_of(row);
        self.owner[col + 1] = 0;
        self.u[row + 1] = bits(self.live_cols.into())
            .map(|c| bound.cost(self.rows[row], self.cols[c]) - self.v[c + 1])
            .min()
            .unwrap_or(0);
        self.augment(bound, row);
    }

    /// Column `col` changed its costs: the same for the column, then its row is matched again.
    fn reprice_col(&mut self, bound: &Bound, col: usize) {
        let row = usize::from(self.owner[col + 1]) - 1;
        self.owner[col + 1] = 0;
        self.v[col + 1] = bits(self.live_rows.into())
            .map(|r| bound.cost(self.rows[r], self.cols[col]) - self.u[r + 1])
            .min()
            .unwrap_or(0);
        self.augment(bound, row);
    }

    /// The box on `boxes` and the ball on `balls` left the board together: drop their row and
    /// column; if they were not matched to each other, match again the row they leave alone.
    fn remove(&mut self, bound: &Bound, boxes: u64, balls: u64) {
        let row = self.row_at(boxes);
        let col = self.col_at(balls);
        let row_col = self.col_of(row);
        let col_row = usize::from(self.owner[col + 1]) - 1;
        self.owner[row_col + 1] = 0;
        self.owner[col + 1] = 0;
        self.live_rows &= !(1 << row);
        self.live_cols &= !(1 << col);
        if row_col != col {
            self.augment(bound, col_row);
        }
    }

    /// Matches the unmatched `row` along a shortest augmenting path in reduced costs, updating
    /// the potentials (O(n^2)).
    pub(super) fn augment(&mut self, bound: &Bound, row: usize) {
        let mut min_to = [i32::MAX; SLOTS + 1];
        let mut way = [0usize; SLOTS + 1];
        let mut used = 0u32;
        self.owner[0] = row as u8 + 1;
        let mut col0 = 0;
        loop {
            used |= 1 << col0;
            let r = usize::from(self.owner[col0]);
            let mut delta = i32::MAX;
            let mut next = 0;
            for c in bits(self.live_cols.into()) {
                let col = c + 1;
                if used & (1 << col) != 0 {
                    continue;
                }
                let reduced = bound.cost(self.rows[r - 1], self.cols[c]) - self.u[r] - self.v[col];
                if reduced < min_to[col] {
                    min_to[col] = reduced;
                    way[col] = col0;
                }
                if min_to[col] < delta {
                    delta = min_to[col];
                    next = col;
                }
            }
            self.u[usize::from(self.owner[0])] += delta;
            self.v[0] -= delta;
            for c in bits(self.live_cols.into()) {
                let col = c + 1;
                if used & (1 << col) != 0 {
                    self.u[usize::from(self.owner[col])] += delta;
                    self.v[col] -= delta;
                } else {
                    min_to[col] -= delta;
                }
            }
            col0 = next;
            if self.owner[col0] == 0 {
                break;
            }
        }
        loop {
            let prev = way[col0];
            self.owner[col0] = self.owner[prev];
            col0 = prev;
            if col0 == 0 {
                break;
            }
        }
    }
}
