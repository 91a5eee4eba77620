//! An admissible lower bound on the remaining penalty, and provably safe dead-state detection.
//!
//! Balls move only when the player pushes them and boxes only when the player pushes them, and
//! every push is a move of penalty at least 1. Each empty box must end up holding a distinct
//! ball, so the remaining penalty is at least the cheapest way to pair every empty box with a
//! ball, where a pair costs the fewest pushes of that box plus slides of that ball that bring
//! them together. Those per-pair costs come from a relaxation that keeps only the walls and the
//! objects frozen at the start, which never move ([`fixed`]): a box moves one cell per push and
//! needs a free cell behind it for the player; a ball slides any distance along a free line
//! (another object could stop it anywhere) and also needs a free cell behind it; a frozen ball
//! is met only by a box pushed onto it, a frozen empty box only by a ball sliding in. The
//! cheapest pairing is a minimum-cost perfect matching (the Hungarian method: Kuhn, H. W.
//! (1955), *The Hungarian method for the assignment problem*, in the shortest-augmenting-path
//! form of Jonker and Volgenant), as in the matching bounds of Junghanns and Schaeffer's
//! Rolling Stone Sokoban solver. A position with no finite matching
//! can never be solved, whatever the other objects do, so pruning it is safe.
//!
//! Walking is not counted here: adding the walk to the nearest push cell (admissible, as those
//! steps are not pushes) saved fewer expansions than it cost time (ledger row "matching plus
//! the walk"). The solver adds a cheap form of it to the children it estimates: the walk to the
//! nearest cell the player can push anything from, by a breadth-first search on bit sets.

mod matching;
mod relaxed;

pub(crate) use matching::Matching;
pub(crate) use relaxed::Relaxed;

use crate::puzzle::{MAX_CELLS, Puzzle};
use crate::state::{State, bits};

/// A pair cost meaning "these two can never meet".
const NEVER: u16 = u16::MAX;

/// Per-puzzle tables for the lower bound.
#[derive(Clone, Debug)]
pub(crate) struct Bound {
    /// `pair[box][ball]`: the fewest pushes and slides that bring a box at `box` and a ball at
    /// `ball` together, or [`INFINITE`] (kept as `i32`, so that the matching's inner loops read
    /// a cost with no conversion).
    pair: Vec<[i32; MAX_CELLS]>,
}

impl Bound {
    /// Precomputes the pair costs of `puzzle`: its walls, and the objects frozen at its start,
    /// which never move. The bound holds for the positions reachable from that start.
    #[must_use]
    pub(crate) fn new(puzzle: &Puzzle) -> Bound {
        Bound::weighted(puzzle, &[[1; 4]; MAX_CELLS])
    }

    /// Precomputes pair costs in which a push or slide of an object on cell `c` in direction
    /// `Dir::ALL[i]` costs `weight[c][i]` instead of 1, so that the matching bounds a weighted
    /// count of the pushes still needed ([`crate::Drift`] uses this).
    #[must_use]
    pub(crate) fn weighted(puzzle: &Puzzle, weight: &[[u16; 4]; MAX_CELLS]) -> Bound {
        let everywhere = u64::MAX >> (64 - puzzle.cells());
        Relaxed::new(puzzle).pair_costs(weight, everywhere, everywhere)
    }

    /// A lower bound on the penalty still needed from `state`, or `None` when `state` can never
    /// be solved.
    #[must_use]
    pub(crate) fn estimate(&self, state: &State) -> Option<u32> {
        if state.empty == 0 {
            return Some(0);
        }
        self.matching(state)?.value(self)
    }

    /// The minimum-cost matching of `state`'s empty boxes to its balls, kept with its dual
    /// values so that the matching of a state one push away is found with one augmentation
    /// ([`Matching::after`]); `None` when the counts differ.
    #[must_use]
    pub(crate) fn matching(&self, state: &State) -> Option<Matching> {
        let mut matching = Matching {
            rows: [0; SLOTS],
            cols: [0; SLOTS],
            live_rows: 0,
            live_cols: 0,
            u: [0; SLOTS + 1],
            v: [0; SLOTS + 1],
            owner: [0; SLOTS + 1],
        };
        let n = collect(state.empty, &mut matching.rows);
        if collect(state.balls, &mut matching.cols) != n {
            return None;
        }
        matching.live_rows = ((1u32 << n) - 1) as u16;
        matching.live_cols = matching.live_rows;
        // Each row's potential starts at its cheapest cost, and each column's at its cheapest
        // reduced cost after that (the row and column reductions of Jonker and Volgenant), which
        // keeps every reduced cost non-negative and makes some pairs of each row and column
        // tight. Each row takes a free tight column if it has one; the others are augmented.
        let mut cost = [[0i32; SLOTS]; SLOTS];
        for ((row, &cell), u) in cost
            .iter_mut()
            .zip(&matching.rows[..n])
            .zip(&mut matching.u[1..])
        {
            for (pair, &ball) in row.iter_mut().zip(&matching.cols[..n]) {
                *pair = self.cost(cell, ball);
            }
            *u = *row[..n].iter().min().expect("at least one ball");
        }
        let u = &matching.u[1..=n];
        for (col, v) in matching.v[1..=n].iter_mut().enumerate() {
            *v = cost[..n]
                .iter()
                .zip(u)
                .map(|(row, &u)| row[col] - u)
                .min()
                .expect("at least one box");
        }
        let mut unmatched = 0u16;
        for (row, (pairs, &u)) in cost[..n].iter().zip(&matching.u[1..]).enumerate() {
            let tight = (0..n)
                .find(|&col| matching.owner[col + 1] == 0 && pairs[col] == u + matching.v[col + 1]);
            match tight {
                Some(col) => matching.owner[col + 1] = row as u8 + 1,
                None => unmatched |= 1 << row,
            }
        }
        for row in bits(unmatched.into()) {
            matching.augment(self, row);
        }
        Some(matching)
    }

    /// The cost of pairing the box at `box_cell` with the ball at `ball_cell`.
    #[inline]
    fn cost(&self, box_cell: u8, ball_cell: u8) -> i32 {
        self.pair[usize::from(box_cell)][usize::from(ball_cell)]
    }
}

/// Most boxes (and balls) on a board.
const SLOTS: usize = 16;

/// Feasible dual values of the assignment of a state's empty boxes (rows) to its balls
/// (columns): potentials `u` and `v` with `u[r] + v[c]` at most the cost of every pair, so
/// that their sum bounds the cheapest perfect matching from below (linear programming
/// duality). Cheaper than a [`Matching`] (no augmentation), and a push changes them in O(n)
/// ([`Duals::lower_after`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Duals {
    /// The cell of the box in each row.
    rows: [u8; SLOTS],
    /// The cell of the ball in each column.
    cols: [u8; SLOTS],
    /// Rows (and columns) in use.
    n: usize,
    /// Row potentials.
    u: [i32; SLOTS],
    /// Column potentials.
    v: [i32; SLOTS],
}

impl Bound {
    /// Quick feasible duals of `state`: each row takes its cheapest pair, each column its
    /// cheapest remaining reduced cost (O(n^2)). `None` when the counts differ or some box or
    /// ball can meet no partner at all (the position is dead).
    #[must_use]
    pub(crate) fn duals(&self, state: &State) -> Option<Duals> {
        let mut duals = Duals {
            rows: [0; SLOTS],
            cols: [0; SLOTS],
            n: 0,
            u: [0; SLOTS],
            v: [0; SLOTS],
        };
        duals.n = collect(state.empty, &mut duals.rows);
        if collect(state.balls, &mut duals.cols) != duals.n {
            return None;
        }
        let n = duals.n;
        for r in 0..n {
            duals.u[r] = (0..n)
                .map(|c| self.cost(duals.rows[r], duals.cols[c]))
                .min()
                .filter(|&u| u < INFINITE)?;
        }
        for c in 0..n {
            duals.v[c] = (0..n)
                .map(|r| self.cost(duals.rows[r], duals.cols[c]) - duals.u[r])
                .min()
                .filter(|&v| v < INFINITE / 2)?;
        }
        Some(duals)
    }
}

impl Duals {
    /// The sum of the potentials: a lower bound on the matching's cost.
    #[must_use]
    pub(crate) fn total(&self) -> u32 {
        let sum: i32 = self.u[..self.n].iter().chain(&self.v[..self.n]).sum();
        u32::try_from(sum).unwrap_or(0)
    }

    /// A lower bound on the matching's cost after the push that turned `before` (these duals'
    /// state) into `after`: the moved box's row (or ball's column) takes the potential `min
    /// over columns of (new cost - v)`, which keeps every reduced cost non-negative, and a
    /// filled box's row and its ball's column are dropped. `None` when the moved object can
    /// meet no partner at all (the position is dead).
    #[must_use]
    pub(crate) fn lower_after(&self, bound: &Bound, before: &State, after: &State) -> Option<u32> {
        let n = self.n;
        let boxes = before.empty ^ after.empty;
        let balls = before.balls ^ after.balls;
        let index = |cells: &[u8; SLOTS], set: u64| {
            let cell = set.trailing_zeros() as u8;
            cells[..n]
                .iter()
                .position(|&c| c == cell)
                .expect("the object that moved has a slot")
        };
        let total = i64::from(self.total());
        let lower = match (boxes.count_ones(), balls.count_ones()) {
            (2, 0) => {
                let row = index(&self.rows, before.empty & boxes);
                let to = (after.empty & boxes).trailing_zeros() as u8;
                let u = (0..n)
                    .map(|c| bound.cost(to, self.cols[c]) - self.v[c])
                    .min()
                    .filter(|&u| u < INFINITE / 2)?;
                total - i64::from(self.u[row]) + i64::from(u)
            }
            (0, 2) => {
                let col = index(&self.cols, before.balls & balls);
                let to = (after.balls & balls).trailing_zeros() as u8;
                let v = (0..n)
                    .map(|r| bound.cost(self.rows[r], to) - self.u[r])
                    .min()
                    .filter(|&v| v < INFINITE / 2)?;
                total - i64::from(self.v[col]) + i64::from(v)
            }
            (1, 1) => {
                let row = index(&self.rows, boxes);
                let col = index(&self.cols, balls);
                total - i64::from(self.u[row]) - i64::from(self.v[col])
            }
            // A full box moved: the matching does not see it.
            _ => total,
        };
        Some(u32::try_from(lower.max(0)).unwrap_or(0))
    }
}

/// A cost standing for "impossible" inside the assignment: larger than any real total.
const INFINITE: i32 = 1 << 20;

/// Writes the cells of `set` into `out`, returning how many there are (at most 16).
fn collect(mut set: u64, out: &mut [u8; SLOTS]) -> usize {
    let mut n = 0;
    while set != 0 && n < out.len() {
        out[n] = set.trailing_zeros() as u8;
        set &= set - 1;
        n += 1;
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;
    use crate::state::{Dir, State};

    /// A small xorshift generator, enough to draw test layouts.
    pub(super) fn rng(mut seed: u64) -> impl FnMut(u64) -> u64 {
        move |below| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % below
        }
    }

    /// The cheapest perfect matching by trying every permutation, `None` if all are infinite.
    fn brute_force(bound: &Bound, boxes: &[u8], balls: &[u8]) -> Option<u32> {
        fn go(bound: &Bound, boxes: &[u8], balls: &[u8], used: u32) -> i32 {
            let Some((&first, rest)) = boxes.split_first() else {
                return 0;
            };
            (0..balls.len())
                .filter(|&c| used & (1 << c) == 0)
                .map(|c| bound.cost(first, balls[c]) + go(bound, rest, balls, used | (1 << c)))
                .min()
                .unwrap_or(0)
        }
        let best = go(bound, boxes, balls, 0);
        (best < INFINITE).then_some(best as u32)
    }

    fn course_puzzles() -> Vec<Puzzle> {
        let mut puzzles =
            parse_puzzles(include_str!("../../../../data/sokoboru/small.in")).unwrap();
        puzzles.extend(parse_puzzles(include_str!("../../../../data/sokoboru/medium.in")).unwrap());
        puzzles
    }

    #[test]
    fn matching_equals_brute_force_on_random_layouts() {
        let mut next = rng(12345);
        let mut dead = 0;
        for puzzle in course_puzzles() {
            let bound = Bound::new(&puzzle);
            let open: Vec<u8> = (0..puzzle.cells() as u8)
                .filter(|&c| puzzle.walls & (1 << c) == 0)
                .collect();
            for _ in 0..60 {
                let k = 1 + next(6) as usize;
                let mut cells = open.clone();
                for i in 0..2 * k {
                    let j = i + next((cells.len() - i) as u64) as usize;
                    cells.swap(i, j);
                }
                let (boxes, balls) = cells[..2 * k].split_at(k);
                let state = State {
                    empty: boxes.iter().fold(0, |m, &c| m | 1 << c),
                    balls: balls.iter().fold(0, |m, &c| m | 1 << c),
                    full: 0,
                    player: cells[2 * k],
                };
                let want = brute_force(&bound, boxes, balls);
                dead += usize::from(want.is_none());
                assert_eq!(bound.estimate(&state), want, "{boxes:?} {balls:?}");
            }
        }
        assert!(dead > 0, "some layouts are dead");
    }

    #[test]
    fn a_repaired_matching_equals_a_fresh_one() {
        let mut next = rng(777);
        let mut pushes = [0usize; 3];
        for puzzle in course_puzzles() {
            let bound = Bound::new(&puzzle);
            for _ in 0..20 {
                let mut state = puzzle.start;
                let mut matching = bound.matching(&state).unwrap();
                for _ in 0..200 {
                    let dir = Dir::ALL[next(4) as usize];
                    let Ok(step) = state.step(&puzzle, dir) else {
                        continue;
                    };
                    let after = step.state;
                    let kind = usize::from(after.empty != state.empty)
                        + 2 * usize::from(after.balls != state.balls);
                    if kind > 0 {
                        pushes[kind - 1] += 1;
                    }
                    matching = matching.after(&bound, &state, &after);
                    state = after;
                    let fresh = bound.matching(&state).unwrap().value(&bound);
                    assert_eq!(matching.value(&bound), fresh, "{}", puzzle.render(&state));
                    if state.empty == 0 {
                        break;
                    }
                }
            }
        }
        assert!(
            pushes.iter().all(|&n| n > 20),
            "box, ball and filling pushes: {pushes:?}"
        );
    }

    /// Along random play, the quick duals and their O(n) update after each push never exceed
    /// the cheapest matching (for the plain costs and for lopsided weights), and are often
    /// equal to it.
    #[test]
    fn duals_bound_the_matching_from_below() {
        let mut next = rng(4242);
        let (mut checked, mut equal) = (0, 0);
        for puzzle in course_puzzles() {
            let mut weight = [[1; 4]; MAX_CELLS];
            for entry in weight.iter_mut() {
                *entry = [0, 1, 2, 1].map(|_| next(3) as u16);
            }
            for bound in [Bound::new(&puzzle), Bound::weighted(&puzzle, &weight)] {
                let mut state = puzzle.start;
                for _ in 0..200 {
                    let Ok(step) = state.step(&puzzle, Dir::ALL[next(4) as usize]) else {
                        continue;
                    };
                    let exact = bound.matching(&step.state).and_then(|m| m.value(&bound));
                    if let Some(duals) = bound.duals(&state) {
                        let lower = duals.lower_after(&bound, &state, &step.state);
                        let fresh = bound.duals(&step.state).map(|d| d.total());
                        for lower in [lower, fresh] {
                            match (lower, exact) {
                                (Some(lower), Some(exact)) => {
                                    assert!(lower <= exact, "{}", puzzle.render(&step.state));
                                    checked += 1;
                                    equal += usize::from(lower == exact);
                                }
                                // Only a live position may be called dead.
                                (None, Some(_)) => panic!("{}", puzzle.render(&step.state)),
                                _ => {}
                            }
                        }
                    }
                    state = step.state;
                    if state.empty == 0 {
                        break;
                    }
                }
            }
        }
        assert!(
            checked > 1000 && equal * 3 > checked,
            "{equal} of {checked} equal"
        );
    }

    #[test]
    fn dead_corner_box_is_detected() {
        // The box in the corner cannot move, and the ball can only slide left along the bottom
        // row: pushing it up would need the player below the board.
        let p = parse_puzzles("2 3\n$-@\n-O-\n").unwrap().remove(0);
        let bound = Bound::new(&p);
        assert_eq!(bound.estimate(&p.start), None);
    }

    #[test]
    fn simple_slide_costs_one() {
        let p = parse_puzzles("1 5\n@O--$\n").unwrap().remove(0);
        assert_eq!(Bound::new(&p).estimate(&p.start), Some(1));
    }
}
