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

use crate::freeze::frozen;
use crate::puzzle::{MAX_CELLS, Puzzle};
use crate::state::{Dir, State, bits};

/// A pair cost meaning "these two can never meet".
const NEVER: u16 = u16::MAX;

/// Per-puzzle tables for the lower bound.
#[derive(Clone, Debug)]
pub struct Bound {
    /// `pair[box][ball]`: the fewest pushes and slides that bring a box at `box` and a ball at
    /// `ball` together, or [`INFINITE`] (kept as `i32`, so that the matching's inner loops read
    /// a cost with no conversion).
    pair: Vec<[i32; MAX_CELLS]>,
}

impl Bound {
    /// Precomputes the pair costs of `puzzle`: its walls, and the objects frozen at its start,
    /// which never move. The bound holds for the positions reachable from that start.
    #[must_use]
    pub fn new(puzzle: &Puzzle) -> Bound {
        Bound::weighted(puzzle, &[[1; 4]; MAX_CELLS])
    }

    /// Precomputes pair costs in which a push or slide of an object on cell `c` in direction
    /// `Dir::ALL[i]` costs `weight[c][i]` instead of 1, so that the matching bounds a weighted
    /// count of the pushes still needed ([`crate::Drift`] uses this).
    #[must_use]
    pub fn weighted(puzzle: &Puzzle, weight: &[[u16; 4]; MAX_CELLS]) -> Bound {
        let everywhere = u64::MAX >> (64 - puzzle.cells());
        Relaxed::new(puzzle).pair_costs(weight, everywhere, everywhere)
    }

    /// A lower bound on the penalty still needed from `state`, or `None` when `state` can never
    /// be solved.
    #[must_use]
    pub fn estimate(&self, state: &State) -> Option<u32> {
        if state.empty == 0 {
            return Some(0);
        }
        self.matching(state)?.value(self)
    }

    /// The minimum-cost matching of `state`'s empty boxes to its balls, kept with its dual
    /// values so that the matching of a state one push away is found with one augmentation
    /// ([`Matching::after`]); `None` when the counts differ.
    #[must_use]
    pub fn matching(&self, state: &State) -> Option<Matching> {
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
pub struct Duals {
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
    pub fn duals(&self, state: &State) -> Option<Duals> {
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
    pub fn total(&self) -> u32 {
        let sum: i32 = self.u[..self.n].iter().chain(&self.v[..self.n]).sum();
        u32::try_from(sum).unwrap_or(0)
    }

    /// A lower bound on the matching's cost after the push that turned `before` (these duals'
    /// state) into `after`: the moved box's row (or ball's column) takes the potential `min
    /// over columns of (new cost - v)`, which keeps every reduced cost non-negative, and a
    /// filled box's row and its ball's column are dropped. `None` when the moved object can
    /// meet no partner at all (the position is dead).
    #[must_use]
    pub fn lower_after(&self, bound: &Bound, before: &State, after: &State) -> Option<u32> {
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

/// A minimum-cost perfect matching of empty boxes (rows) to balls (columns) with its dual
/// values, by shortest augmenting paths with potentials (the Hungarian method: Kuhn (1955), in
/// the shortest-augmenting-path form of Jonker and Volgenant (1987)). Rows and columns keep
/// their slots when objects move or leave, so a push changes one row or one column, or removes
/// one of each, and a single augmentation restores optimality: the potentials stay feasible
/// (every reduced cost non-negative) once the changed row's or column's potential is lowered
/// to its smallest reduced cost, and every other matched pair stays tight.
#[derive(Clone, Copy, Debug)]
pub struct Matching {
    /// The cell of the box in each row slot.
    rows: [u8; SLOTS],
    /// The cell of the ball in each column slot.
    cols: [u8; SLOTS],
    /// Row slots in use.
    live_rows: u16,
    /// Column slots in use.
    live_cols: u16,
    /// Row potentials, `u[row + 1]` (index 0 unused).
    u: [i32; SLOTS + 1],
    /// Column potentials, `v[col + 1]`; index 0 is the augmentation's virtual start column.
    v: [i32; SLOTS + 1],
    /// `owner[col + 1]`: the row matched to a column, plus one (0: none).
    owner: [u8; SLOTS + 1],
}

impl Matching {
    /// The matched pairs, as the cells of each box and its ball.
    pub fn pairs(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        bits(self.live_cols.into())
            .map(|c| (self.rows[usize::from(self.owner[c + 1]) - 1], self.cols[c]))
    }

    /// The matching's cost, or `None` when every perfect matching pairs a box with a ball it can
    /// never meet (the position is dead).
    #[must_use]
    pub fn value(&self, bound: &Bound) -> Option<u32> {
        let total: i32 = bits(self.live_cols.into())
            .map(|c| bound.cost(self.rows[usize::from(self.owner[c + 1]) - 1], self.cols[c]))
            .sum();
        u32::try_from(total).ok().filter(|_| total < INFINITE)
    }

    /// The matching after one push that turned `before` into `after`, on the same board. A box
    /// or a ball that moved keeps its slot; a ball that filled a box removes both.
    #[must_use]
    #[inline]
    pub fn after(&self, bound: &Bound, before: &State, after: &State) -> Matching {
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
    pub fn may_lower(&self, bound: &Bound, before: &State, after: &State) -> bool {
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
    fn augment(&mut self, bound: &Bound, row: usize) {
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

/// The relaxed game of one object on the walls and the objects frozen at the start alone: a box
/// moves one cell per push, a ball slides any distance along a free line, and either needs an
/// open cell behind it for the player; a frozen object is met where the other is pushed onto
/// it. Prepared once per board, it gives pair costs for any weights of the pushes.
#[derive(Clone, Debug)]
pub(crate) struct Relaxed {
    /// Cells on the board.
    cells: usize,
    /// How far an object on each cell can go in each direction of [`Dir::ALL`] when pushed
    /// (0: it cannot be pushed that way): cells of open line ahead, the player standing behind.
    reach: [[u8; 4]; MAX_CELLS],
    /// The cells open to moving objects and the player: neither walls nor [`fixed`].
    open: u64,
    /// Per direction of [`Dir::ALL`], the cells an object can be pushed from that way (a
    /// nonzero `reach`).
    pushable: [u64; 4],
    /// The board, for moving bit sets of cells.
    puzzle: Puzzle,
    /// The balls frozen at the start ([`fixed`]): each is met only where a box is pushed
    /// onto it.
    fixed_balls: u64,
    /// The empty boxes frozen at the start: each is met only by a ball sliding into it.
    fixed_boxes: u64,
}

/// The cells of `puzzle` whose objects never move, in any play from its start: the objects
/// frozen there ([`crate::frozen`]). None of them can be the first of them to move, and a ball
/// among them is only ever swallowed where it stands, by a box that then stays there, so each
/// of these cells holds an unmoving object for good. To every other object and to the player
/// they are walls.
pub(crate) fn fixed(puzzle: &Puzzle) -> u64 {
    frozen(puzzle, &puzzle.start)
}

impl Relaxed {
    /// The relaxed game of `puzzle`.
    pub(crate) fn new(puzzle: &Puzzle) -> Relaxed {
        let cells = puzzle.cells();
        let fixed = fixed(puzzle);
        let walls = puzzle.walls | fixed;
        let open = |cell: usize| walls & (1u64 << cell) == 0;
        let mut reach = [[0; 4]; MAX_CELLS];
        for (cell, reach) in reach.iter_mut().enumerate().take(cells) {
            for (reach, dir) in reach.iter_mut().zip(Dir::ALL) {
                if !puzzle.neighbour(cell, dir.opposite()).is_some_and(open) {
                    continue;
                }
                let mut at = cell;
                while let Some(ahead) = puzzle.neighbour(at, dir).filter(|&n| open(n)) {
                    *reach += 1;
                    at = ahead;
                }
            }
        }
        let pushable = std::array::from_fn(|i| {
            (0..cells)
                .filter(|&cell| reach[cell][i] > 0)
                .fold(0u64, |set, cell| set | 1 << cell)
        });
        Relaxed {
            cells,
            reach,
            open: !walls & (u64::MAX >> (64 - cells)),
            pushable,
            puzzle: puzzle.clone(),
            fixed_balls: fixed & puzzle.start.balls,
            fixed_boxes: fixed & puzzle.start.empty,
        }
    }

    /// The neighbour of `cell` in direction `Dir::ALL[dir]`, if any.
    fn step(&self, cell: usize, dir: usize) -> Option<usize> {
        self.puzzle.neighbour(cell, Dir::ALL[dir])
    }

    /// Whether `cell` is open to moving objects and the player: no wall, no fixed object.
    fn is_open(&self, cell: usize) -> bool {
        self.open & (1 << cell) != 0
    }

    /// The last pushes that can bring an object onto the fixed object on `cell`, as the cell
    /// the moving object is pushed from and the direction (an index into [`Dir::ALL`]), the
    /// player on the open cell behind: a box onto a fixed ball from an open neighbour, or (with
    /// `slides`) a ball into a fixed empty box from any cell of an open line ending there.
    fn entries(&self, cell: usize, slides: bool) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..4).flat_map(move |dir| {
            let mut at = cell;
            std::iter::from_fn(move || {
                let from = self.step(at, dir ^ 1).filter(|&c| self.is_open(c))?;
                at = from;
                Some(from)
            })
            .take(if slides { MAX_CELLS } else { 1 })
            .filter(move |&from| self.step(from, dir ^ 1).is_some_and(|c| self.is_open(c)))
            .map(move |from| (from, dir))
        })
    }

    /// The cheapest way, by the moving object's costs `to`, to bring it onto the fixed object on
    /// `cell` ([`Relaxed::entries`]), with that last push.
    fn onto_fixed(
        &self,
        weight: &[[u16; 4]; MAX_CELLS],
        to: &[u16; MAX_CELLS],
        cell: usize,
        slides: bool,
    ) -> Option<(u16, (usize, usize))> {
        self.entries(cell, slides)
            .map(|(from, dir)| (to[from].saturating_add(weight[from][dir]), (from, dir)))
            .filter(|&(cost, _)| cost != NEVER)
            .min_by_key(|&(cost, _)| cost)
    }

    /// Pair costs under `weight` (see [`Bound::weighted`]) for boxes on `boxes` and balls on
    /// `balls` only: every other pair is left at "never" (a cheap way to try a weighting on one
    /// position).
    pub(crate) fn pair_costs(
        &self,
        weight: &[[u16; 4]; MAX_CELLS],
        boxes: u64,
        balls: u64,
    ) -> Bound {
        let cells = self.cells;
        let wanted = |set: u64, cell: usize| set & (1u64 << cell) != 0;
        let uniform = weight[..cells].iter().all(|&w| w == [1; 4]);
        let distances = |set: u64, ball: bool| -> Vec<[u16; MAX_CELLS]> {
            (0..cells)
                .map(|start| {
                    if wanted(set, start) {
                        if uniform {
                            self.layers(start, ball)
                        } else {
                            self.distances(start, ball, weight)
                        }
                    } else {
                        [NEVER; MAX_CELLS]
                    }
                })
                .collect()
        };
        // Only open cells start a search: no object stands on a wall, and a fixed object is
        // met by the other, whose search ends next to it.
        let box_dist = distances(boxes & self.open, false);
        let ball_dist = distances(balls & self.open, true);
        let pair = (0..cells)
            .map(|x| {
                let mut row = [INFINITE; MAX_CELLS];
                for (b, cost) in row.iter_mut().enumerate().take(cells) {
                    if !wanted(boxes, x) || !wanted(balls, b) {
                        continue;
                    }
                    let fixed_box = wanted(self.fixed_boxes, x);
                    let fixed_ball = wanted(self.fixed_balls, b);
                    let cheapest = if fixed_box || fixed_ball {
                        match (fixed_box, fixed_ball) {
                            (false, true) => self.onto_fixed(weight, &box_dist[x], b, false),
                            (true, false) => self.onto_fixed(weight, &ball_dist[b], x, true),
                            _ => None,
                        }
                        .map_or(NEVER, |(cost, _)| cost)
                    } else {
                        // Saturating at NEVER (u16::MAX), so that a cell either cannot reach
                        // stays out of the minimum; over whole rows (the cells off the board
                        // are NEVER), a fixed length the compiler vectorises.
                        box_dist[x]
                            .iter()
                            .zip(&ball_dist[b])
                            .fold(NEVER, |cheapest, (&to, &from)| {
                                cheapest.min(to.saturating_add(from))
                            })
                    };
                    *cost = match cheapest {
                        NEVER => INFINITE,
                        c => i32::from(c),
                    };
                }
                row
            })
            .collect();
        Bound { pair }
    }

    /// The pushes of one cheapest plan (under `weight`) that brings a box on `box_cell` and a
    /// ball on `ball_cell` together, each as the pushed object's cell and the direction (an
    /// index into [`Dir::ALL`]); empty when they can never meet.
    pub(crate) fn plan(
        &self,
        weight: &[[u16; 4]; MAX_CELLS],
        box_cell: usize,
        ball_cell: usize,
    ) -> Vec<(usize, usize)> {
        let mut box_preds = [(0, 0); MAX_CELLS];
        let mut ball_preds = [(0, 0); MAX_CELLS];
        let to_box = self.search(box_cell, false, weight, Some(&mut box_preds));
        let to_ball = self.search(ball_cell, true, weight, Some(&mut ball_preds));
        let fixed_box = self.fixed_boxes & (1 << box_cell) != 0;
        let fixed_ball = self.fixed_balls & (1 << ball_cell) != 0;
        let mut pushes = Vec::new();
        // Where the moving objects' paths end, and the last push onto a fixed object.
        let (meeting, last) = match (fixed_box, fixed_ball) {
            (false, false) => {
                let meeting = (0..self.cells)
                    .min_by_key(|&d| to_box[d].saturating_add(to_ball[d]))
                    .filter(|&d| to_box[d].saturating_add(to_ball[d]) != NEVER);
                (meeting, None)
            }
            (false, true) => match self.onto_fixed(weight, &to_box, ball_cell, false) {
                Some((_, (from, dir))) => (Some(from), Some((from, dir))),
                None => (None, None),
            },
            (true, false) => match self.onto_fixed(weight, &to_ball, box_cell, true) {
                Some((_, (from, dir))) => (Some(from), Some((from, dir))),
                None => (None, None),
            },
            (true, true) => (None, None),
        };
        if let Some(meeting) = meeting {
            pushes.extend(last);
            for (start, preds, fixed) in [
                (box_cell, &box_preds, fixed_box),
                (ball_cell, &ball_preds, fixed_ball),
            ] {
                // A fixed object does not move, and the path of the other ends at `meeting`.
                let mut at = if fixed { start } else { meeting };
                while at != start {
                    let (from, dir) = preds[at];
                    pushes.push((usize::from(from), usize::from(dir)));
                    at = usize::from(from);
                }
            }
        }
        pushes
    }

    /// The cheapest costs of moving one object from `start`: a box moves one cell per push, a
    /// `ball` may end on any cell of the open line ahead. Dijkstra's algorithm with a bucket per
    /// distance (Dial's, with weights of at most 2 three buckets suffice, each a bit set of
    /// cells; a weight may be zero).
    fn distances(
        &self,
        start: usize,
        ball: bool,
        weight: &[[u16; 4]; MAX_CELLS],
    ) -> [u16; MAX_CELLS] {
        self.search(start, ball, weight, None)
    }

    /// [`Relaxed::distances`] when every push costs 1: a breadth-first search on bit sets, one
    /// layer of cells per push, a ball's layer filled out along each open line ahead.
    fn layers(&self, start: usize, ball: bool) -> [u16; MAX_CELLS] {
        let mut dist = [NEVER; MAX_CELLS];
        dist[start] = 0;
        let mut seen = 1u64 << start;
        let mut frontier = seen;
        let mut d = 0;
        while frontier != 0 {
            d += 1;
            let mut next = 0;
            for (i, dir) in Dir::ALL.into_iter().enumerate() {
                let mut line = self.puzzle.shift(frontier & self.pushable[i], dir);
                next |= line;
                while ball && line != 0 {
                    line = self.puzzle.shift(line, dir) & self.open;
                    next |= line;
                }
            }
            frontier = next & !seen;
            seen |= frontier;
            for cell in bits(frontier) {
                dist[cell] = d;
            }
        }
        dist
    }

    /// [`Relaxed::distances`], also recording in `preds` the cell each cell was reached from
    /// and the direction of that push (an index into [`Dir::ALL`]).
    fn search(
        &self,
        start: usize,
        ball: bool,
        weight: &[[u16; 4]; MAX_CELLS],
        mut preds: Option<&mut [(u8, u8); MAX_CELLS]>,
    ) -> [u16; MAX_CELLS] {
        let mut dist = [NEVER; MAX_CELLS];
        let mut buckets = [0u64; 3];
        buckets[0] = 1 << start;
        dist[start] = 0;
        let mut d = 0u16;
        while buckets != [0; 3] {
            let slot = usize::from(d % 3);
            while buckets[slot] != 0 {
                let cell = buckets[slot].trailing_zeros() as usize;
                buckets[slot] &= buckets[slot] - 1;
                // A cell lowered after it was put in a later bucket was settled already.
                if dist[cell] != d {
                    continue;
                }
                for (i, (&reach, &cost)) in self.reach[cell].iter().zip(&weight[cell]).enumerate() {
                    debug_assert!(cost <= 2, "three buckets hold weights up to 2");
                    let steps = if ball { reach } else { reach.min(1) };
                    let through = d + cost;
                    let mut at = cell;
                    for _ in 0..steps {
                        let Some(ahead) = self.puzzle.neighbour(at, Dir::ALL[i]) else {
                            break;
                        };
                        at = ahead;
                        if through < dist[at] {
                            dist[at] = through;
                            buckets[usize::from(through % 3)] |= 1 << at;
                            if let Some(preds) = preds.as_deref_mut() {
                                preds[at] = (cell as u8, i as u8);
                            }
                        }
                    }
                }
            }
            d += 1;
        }
        dist
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;
    use crate::state::State;

    /// With every push costing 1, the breadth-first layers on bit sets give the same distances
    /// as Dial's search, for boxes and balls from every cell of boards with walls and frozen
    /// objects (the medium.in starts and random positions near them).
    #[test]
    fn layers_agree_with_dials_search() {
        let ones = [[1; 4]; MAX_CELLS];
        let mut next = rng(11);
        let mut compared = 0;
        for puzzle in parse_puzzles(include_str!("../../../data/sokoboru/medium.in")).unwrap() {
            let mut state = puzzle.start;
            for _ in 0..40 {
                let dir = Dir::ALL[next(4) as usize];
                if let Ok(step) = state.step(&puzzle, dir) {
                    state = step.state;
                }
                let relaxed = Relaxed::new(&puzzle.with_start(state));
                for cell in bits(relaxed.open) {
                    for ball in [false, true] {
                        assert_eq!(
                            relaxed.layers(cell, ball),
                            relaxed.distances(cell, ball, &ones)
                        );
                        compared += 1;
                    }
                }
            }
        }
        assert!(compared > 30_000, "{compared}");
    }

    /// A small xorshift generator, enough to draw test layouts.
    fn rng(mut seed: u64) -> impl FnMut(u64) -> u64 {
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
        let mut puzzles = parse_puzzles(include_str!("../../../data/sokoboru/small.in")).unwrap();
        puzzles.extend(parse_puzzles(include_str!("../../../data/sokoboru/medium.in")).unwrap());
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
