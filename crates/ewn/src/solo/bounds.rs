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
//! off only nearest-first on each side of `g`, so the relaxed state is just how many pieces
//! below and above `g` are gone. The table covers every move number, set of living pieces and
//! distance, and is built once per instance in well under a millisecond.
//!
//! [`RefinedBounds`] tightens the same relaxation with the positions of a node: one move is
//! made by one piece, so a move that captures is a goal step only if the goal piece itself
//! captures; a piece cannot be captured before some piece could have reached it (the
//! Chebyshev distance between two pieces shrinks by at most one per move); and when the die
//! shows the goal piece's own number, only the goal piece moves. It costs a small dynamic
//! program per node, so the solver asks for it only when the table does not prune already.

use super::instance::DICE;
use super::rules::{CELLS, Position};

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

/// Chebyshev distances between cells, `[a * CELLS + b]`.
const CHEBYSHEV: [u8; CELLS * CELLS] = {
    let mut table = [0u8; CELLS * CELLS];
    let mut k = 0;
    while k < CELLS * CELLS {
        let (a, b) = (k / CELLS, k % CELLS);
        let dr = (a / 10).abs_diff(b / 10);
        let dc = (a % 10).abs_diff(b % 10);
        table[k] = if dr > dc { dr } else { dc } as u8;
        k += 1;
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

/// Chebyshev distance between two cells.
#[inline]
fn chebyshev(a: u8, b: u8) -> u32 {
    let (a, b) = (usize::from(a), usize::from(b));
    u32::from(CHEBYSHEV[(a * CELLS + b).min(CELLS * CELLS - 1)])
}

/// The pieces whose bits are set in `mask` (bit `p` for piece `p`), lowest first.
#[inline]
fn pieces(mut mask: u32) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let p = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            p & 7
        })
    })
}

/// Memo entries of [`RefinedBounds`] (a power of two).
const MEMO_SLOTS: usize = 1 << 20;

/// Bits `i..DICE` of a move mask.
fn from_move(i: usize) -> u32 {
    if i >= DICE {
        0
    } else {
        (u32::MAX << i) & ((1 << DICE) - 1)
    }
}

/// The positional bound (see the module documentation), memoised: it depends only on the move
/// number, the living pieces, the goal distance, the budget and, per blocker, the earliest
/// moves at which it could be captured, so sibling and transposed nodes share results.
#[derive(Clone, Debug)]
pub struct RefinedBounds {
    /// `dice_at[v]`: bit `j` set when die `j` shows `v`.
    dice_at: [u32; 7],
    memo: Vec<(u128, u32)>,
}

impl RefinedBounds {
    /// The bounds for one dice sequence.
    #[must_use]
    pub fn new(dice: &[u8; DICE]) -> RefinedBounds {
        let mut dice_at = [0u32; 7];
        for (j, &d) in dice.iter().enumerate() {
            dice_at[usize::from(d) % 7] |= 1 << j;
        }
        RefinedBounds {
            dice_at,
            memo: vec![(u128::MAX, 0); MEMO_SLOTS],
        }
    }

    /// For each living piece, the earliest move (counted from move `i`) at which it could be
    /// captured, `u32::MAX` if never.
    ///
    /// A piece `p` can move at move `j` only if die `j` shows `p`, or shows a piece that is gone
    /// by then: gone already, or captured at the earliest when some piece could first step onto
    /// it (Chebyshev distance, one step per move). Piece `p` captures `q` with a move of its own,
    /// after moves of `p` or `q` have closed the distance between them to one.
    fn capture_times(&self, i: usize, position: &Position) -> [u32; 7] {
        let future = from_move(i);
        let mut cells = [0u8; 7];
        // Bit `p` set for each living piece `p`.
        let mut living = 0u32;
        for p in 1..=6u8 {
            if let Some(c) = position.cell(p) {
                cells[usize::from(p)] = c;
                living |= 1 << p;
            }
        }
        // Distances between living pieces, each pair once.
        let mut gap = [[0u32; 7]; 7];
        for q in pieces(living) {
            for p in pieces(living & !(u32::MAX << q)) {
                let d = chebyshev(cells[p], cells[q]);
                gap[p][q] = d;
                gap[q][p] = d;
            }
        }
        let mut geometric = [u32::MAX; 7];
        for q in pieces(living) {
            for p in pieces(living & !(1 << q)) {
                geometric[q] = geometric[q].min(i as u32 + gap[p][q] - 1);
            }
        }
        // The dice of each piece that other pieces may use: all of them once it may be gone.
        let mut lent = [0u32; 7];
        for (v, lent) in lent.iter_mut().enumerate().skip(1) {
            *lent = match geometric[v] {
                u32::MAX => self.dice_at[v],
                t => self.dice_at[v] & from_move(t as usize + 1),
            };
        }
        let mut mobility = [0u32; 7];
        for p in pieces(living) {
            // Its own dice, and the dice of every other piece once that piece may be gone.
            let others = (1..=6).filter(|&v| v != p).fold(0, |m, v| m | lent[v]);
            mobility[p] = (self.dice_at[p] | others) & future;
        }
        let mut times = [u32::MAX; 7];
        for q in pieces(living) {
            for p in pieces(living & !(1 << q)) {
                // Moves of p or q before the capture must close the gap to one step: the
                // capture is p's first move after the `approach`-th such move.
                let approach = gap[p][q] - 1;
                let mut both = (mobility[p] | mobility[q]) & future;
                let after = if approach == 0 {
                    future
                } else {
                    for _ in 1..approach {
                        both &= both.wrapping_sub(1);
                    }
                    if both == 0 {
                        continue;
                    }
                    let k = both.trailing_zeros();
                    from_move(k as usize + 1)
                };
                let capture = mobility[p] & after;
                if capture != 0 {
                    let rel = capture.trailing_zeros() - i as u32;
                    times[q] = times[q].min(rel);
                }
            }
        }
        times
    }

    /// The bound for `position` at move `i` with goal piece `goal`, looking at most
    /// `budget + 1` moves ahead: a result above `budget` means only "more than `budget`".
    /// `u32::MAX` when the goal piece is gone or cannot arrive in time.
    pub fn get(
        &mut self,
        goal: u8,
        dice: &[u8; DICE],
        i: usize,
        position: &Position,
        budget: u32,
    ) -> u32 {
        let Some(goal_cell) = position.cell(goal) else {
            return u32::MAX;
        };
        let distance = king_distance(goal_cell);
        if distance == 0 {
            return 0;
        }
        let remaining = DICE - i.min(DICE);
        let horizon = (budget as usize).saturating_add(1).min(remaining);
        // Blockers nearest first, with the earliest relative move at which anyone (`any`) or
        // the goal piece (`by_goal`) could capture them, clamped to the horizon.
        let clamp = |t: u32| t.min(horizon as u32);
        let times = self.capture_times(i, position);
        let blocker = |q: u8| {
            let cell = position.cell(q).unwrap_or(0);
            (
                q,
                clamp(times[usize::from(q)]),
                clamp(chebyshev(goal_cell, cell) - 1),
            )
        };
        let mut below = [(0u8, 0u32, 0u32); 5];
        let mut above = [(0u8, 0u32, 0u32); 5];
        let (mut nb, mut na) = (0, 0);
        let mut key = (i as u128) << 5 | u128::from(distance);
        key = key << 6 | u128::from(position.alive_mask());
        key = key << 5 | horizon as u128;
        for q in (1..goal).rev().filter(|&q| position.cell(q).is_some()) {
            below[nb] = blocker(q);
            key = key << 10 | u128::from(below[nb].1 << 5 | below[nb].2);
            nb += 1;
        }
        for q in (goal + 1..=6).filter(|&q| position.cell(q).is_some()) {
            above[na] = blocker(q);
            key = key << 10 | u128::from(above[na].1 << 5 | above[na].2);
            na += 1;
        }
        let slot = ((key as u64 ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 44)
            as usize
            & (MEMO_SLOTS - 1);
        if self.memo[slot].0 == key {
            return self.memo[slot].1;
        }
        let value = relaxed_steps(goal, dice, i, horizon, distance, &below[..nb], &above[..na]);
        self.memo[slot] = (key, value);
        value
    }
}

/// The relaxed game of [`RefinedBounds`] over `horizon` moves from move `i`: the fewest moves
/// for `distance` goal steps, or `horizon + 1` (`u32::MAX` when the dice run out) if none.
fn relaxed_steps(
    goal: u8,
    dice: &[u8; DICE],
    i: usize,
    horizon: usize,
    distance: u32,
    below: &[(u8, u32, u32)],
    above: &[(u8, u32, u32)],
) -> u32 {
    let (nb, na) = (below.len(), above.len());
    let width = na + 1;
    let mut best = [-1i8; 36];
    best[0] = 0;
    for (j, &die) in dice.iter().enumerate().skip(i).take(horizon) {
        let rel = (j - i) as u32;
        let mut next = [-1i8; 36];
        for a in 0..=nb {
            for b in 0..=na {
                let steps = best[a * width + b];
                if steps < 0 {
                    continue;
                }
                let lowest_gone = below.get(a).map_or(0, |q| q.0);
                let highest_gone = above.get(b).map_or(7, |q| q.0);
                let selects = die == goal
                    || (die < goal && die > lowest_gone)
                    || (die > goal && die < highest_gone);
                let others_move = die != goal;
                let stepped = steps + i8::from(selects);
                let here = a * width + b;
                next[here] = next[here].max(stepped);
                let capture = |blocker: Option<&(u8, u32, u32)>| match blocker {
                    Some(&(_, _, by_goal)) if selects && rel >= by_goal => stepped,
                    Some(&(_, any, _)) if others_move && rel >= any => steps,
                    _ => -1,
                };
                if a < nb {
                    next[here + width] = next[here + width].max(capture(below.get(a)));
                }
                if b < na {
                    next[here + 1] = next[here + 1].max(capture(above.get(b)));
                }
            }
        }
        let most = next.iter().copied().max().unwrap_or(-1);
        if i32::from(most) >= distance as i32 {
            return rel + 1;
        }
        best = next;
    }
    if horizon < DICE - i.min(DICE) {
        horizon as u32 + 1
    } else {
        u32::MAX
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
    fn refined_bound_is_tighter_on_the_bonus_samples() {
        let cases = [
            (
                6,
                [17, 12, 77, 42, 84, 99],
                "214434322425134123151534355513",
                12,
                19,
            ),
            (
                1,
                [95, 14, 58, 73, 20, 78],
                "246333334335445635431332233526",
                12,
                15,
            ),
        ];
        for (goal, cells, dice_text, table, refined) in cases {
            let mut dice = [0u8; DICE];
            for (d, ch) in dice.iter_mut().zip(dice_text.bytes()) {
                *d = ch - b'0';
            }
            let position = Position::new(cells);
            let distance = king_distance(position.cell(goal).unwrap());
            let bounds = DiceBounds::new(goal, &dice);
            assert_eq!(bounds.get(0, position.alive_mask(), distance), table);
            let mut refined_bounds = RefinedBounds::new(&dice);
            assert_eq!(refined_bounds.get(goal, &dice, 0, &position, 30), refined);
            assert!(refined_bounds.get(goal, &dice, 0, &position, 10) > 10);
            assert_eq!(refined_bounds.get(goal, &dice, 0, &position, 30), refined);
        }
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
