//! Admissible lower bounds for the single-player puzzle.
//!
//! Two facts bound the moves still needed from a position at move `i`:
//! - the goal piece needs at least its king distance to (0,0) on the board with the hole
//!   (a piece on the diagonal beyond the hole needs one extra step);
//! - it moves only at a move whose die selects it: die `v` selects the goal piece `g` when
//!   `v == g`, or when every piece numbered from `v` up to `g - 1` (or from `g + 1` up to `v`)
//!   is gone. Pieces go only by capture, at most one per move.
//!
//! [`DiceBounds`] combines them in a relaxed game solved exactly by dynamic programming over
//! the remaining dice: every move may capture any one piece for free, and the goal piece
//! advances one step at every move whose die selects it given the captures so far. The
//! fewest moves after which the relaxed goal piece has made `d` steps is a lower bound for the
//! real game, because every real line of play is also a line of the relaxed one. Captures pay
//! off only nearest-first on each side of `g` (because they are free: once each piece has its
//! own earliest capture time the exchange no longer holds, which made an earlier positional
//! bound of this module inadmissible), so the relaxed state is just how many pieces below and
//! above `g` are gone. The table covers every move number, set of living pieces and
//! distance, and is built once per instance in well under a millisecond.
//!
//! [`super::regions`] builds a much stronger bound on top of this one.

use ply_search::Prepared;

use super::instance::DICE;
use super::rules::CELLS;

/// The largest king distance to (0,0), plus one for the hole.
const MAX_DISTANCE: usize = 11;
/// Marks an unreachable goal in the table.
const NEVER: u8 = u8::MAX;

/// King distances to (0,0) on the board with the hole, by cell: the Chebyshev distance, plus
/// one on the diagonal beyond the hole, whose only shortest path would cross (3,3) (checked
/// against a breadth-first search in the tests).
const KING_DISTANCE: [u8; CELLS] = {
    let mut table = [0u8; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = (cell / 10, cell % 10);
        let far = if r > c { r } else { c };
        table[cell] = (far + (r == c && r > 3) as usize) as u8;
        cell += 1;
    }
    table
};

/// King distance from `cell` to (0,0) on the board with the hole.
#[inline]
#[must_use]
pub fn king_distance(cell: u8) -> u32 {
    u32::from(KING_DISTANCE[usize::from(cell) % CELLS])
}

/// Lower bounds on the moves still needed, by move number, living pieces and king distance.
#[derive(Clone, Debug)]
pub struct DiceBounds {
    /// `table[(i * 64 + alive) * MAX_DISTANCE + d]`.
    table: Vec<u8>,
}

impl DiceBounds {
    /// The bounds for goal piece `goal` and the dice sequence `dice`.
    #[must_use]
    pub fn new(goal: u8, dice: &[u8; DICE]) -> DiceBounds {
        let mut table = vec![NEVER; (DICE + 1) * 64 * MAX_DISTANCE];
        for i in 0..=DICE {
            for alive in 0..64u8 {
                if alive & (1 << (goal - 1)) == 0 {
                    continue;
                }
                let row =
                    &mut table[(i * 64 + usize::from(alive)) * MAX_DISTANCE..][..MAX_DISTANCE];
                fill_row(row, goal, alive, &dice[i..]);
            }
        }
        DiceBounds { table }
    }

    /// A lower bound on the moves needed from move `i` with living pieces `alive` (bit `p-1`
    /// for piece `p`) when the goal piece is `distance` king steps from (0,0); `u32::MAX`
    /// when the remaining dice cannot get it there.
    #[inline]
    #[must_use]
    pub fn get(&self, i: usize, alive: u8, distance: u32) -> u32 {
        let d = distance as usize;
        if d >= MAX_DISTANCE || i > DICE {
            return u32::MAX;
        }
        match self.table[(i * 64 + usize::from(alive & 63)) * MAX_DISTANCE + d] {
            NEVER => u32::MAX,
            t => u32::from(t),
        }
    }
}

impl DiceBounds {
    /// IDA*'s early look at the child of a move from move `i` (ply-search's
    /// `IdaProblem::lookahead`): the move leaves `alive` less `captured` (0: nothing) living
    /// and the goal piece on `goal_cell`. `Some` with the child's bound when the table already
    /// prunes it within `budget`, `None` when the child must be played and evaluated.
    #[inline]
    pub(crate) fn prune_child(
        &self,
        i: u8,
        alive: u8,
        captured: u8,
        goal_cell: u8,
        budget: u32,
    ) -> Option<Prepared<u8>> {
        let alive = match captured {
            0 => alive,
            q => alive & !(1 << (q - 1)),
        };
        let bound = self.get(usize::from(i) + 1, alive, king_distance(goal_cell));
        (bound > budget).then_some(Prepared {
            node: i + 1,
            cost: 1,
            bound,
        })
    }
}

/// Fills `row[d]` with the fewest relaxed moves for `d` goal steps, from the remaining `dice`.
fn fill_row(row: &mut [u8], goal: u8, alive: u8, dice: &[u8]) {
    let is_alive = |p: u8| alive & (1 << (p - 1)) != 0;
    // Pieces that must go before lower (upper) dice select the goal, nearest first.
    let below: Vec<u8> = (1..goal).rev().filter(|&p| is_alive(p)).collect();
    let above: Vec<u8> = (goal + 1..=6).filter(|&p| is_alive(p)).collect();
    let (nb, na) = (below.len() + 1, above.len() + 1);
    // best[a * na + b]: most goal steps with the a nearest below and b nearest above captured.
    let mut best = vec![-1i32; nb * na];
    best[0] = 0;
    row[0] = 0;
    let mut reached = 0;
    for (j, &die) in dice.iter().enumerate() {
        let mut next = vec![-1i32; nb * na];
        for a in 0..nb {
            for b in 0..na {
                let steps = best[a * na + b];
                if steps < 0 {
                    continue;
                }
                let lowest_gone = below.get(a).copied().unwrap_or(0);
                let highest_gone = above.get(b).copied().unwrap_or(7);
                let selects = die == goal
                    || (die < goal && die > lowest_gone)
                    || (die > goal && die < highest_gone);
                let steps = steps + i32::from(selects);
                for (na2, nb2) in [(a, b), (a + 1, b), (a, b + 1)] {
                    if na2 < nb && nb2 < na {
                        let slot = &mut next[na2 * na + nb2];
                        *slot = (*slot).max(steps);
                    }
                }
            }
        }
        best = next;
        let most = best.iter().copied().max().unwrap_or(-1).max(0) as usize;
        while reached < most && reached + 1 < row.len() {
            reached += 1;
            row[reached] = (j + 1) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn king_distance_equals_breadth_first_search() {
        use super::super::rules::{HOLE, is_step};
        let mut dist = [u32::MAX; CELLS];
        dist[0] = 0;
        let mut frontier = vec![0u8];
        while !frontier.is_empty() {
            let mut next = Vec::new();
            for &from in &frontier {
                for to in 0..CELLS as u8 {
                    if to != HOLE && dist[usize::from(to)] == u32::MAX && is_step(from, to) {
                        dist[usize::from(to)] = dist[usize::from(from)] + 1;
                        next.push(to);
                    }
                }
            }
            frontier = next;
        }
        for cell in (0..CELLS as u8).filter(|&c| c != HOLE) {
            assert_eq!(king_distance(cell), dist[usize::from(cell)], "cell {cell}");
        }
    }

    #[test]
    fn king_distance_detours_round_the_hole() {
        assert_eq!(king_distance(0), 0);
        assert_eq!(
            king_distance(99),
            10,
            "the diagonal through (3,3) needs one more step"
        );
        assert_eq!(king_distance(44), 5);
        assert_eq!(king_distance(22), 2);
        assert_eq!(king_distance(54), 5);
        assert_eq!(king_distance(9), 9);
    }

    #[test]
    fn only_selecting_dice_count() {
        // Goal 1 with every piece alive moves only on die 1.
        let mut dice = [2u8; DICE];
        dice[3] = 1;
        dice[7] = 1;
        let b = DiceBounds::new(1, &dice);
        assert_eq!(b.get(0, 0b111111, 0), 0);
        // Capturing piece 2 at move 0 lets every later die 2 select piece 1.
        assert_eq!(b.get(0, 0b111111, 1), 2);
        assert_eq!(b.get(0, 0b111111, 2), 3);
        // With piece 2 gone, every die 2 also selects piece 1.
        assert_eq!(b.get(0, 0b111101, 2), 2);
        assert_eq!(b.get(29, 0b111111, 2), u32::MAX);
        assert_eq!(b.get(DICE, 0b111111, 1), u32::MAX);
    }
}
