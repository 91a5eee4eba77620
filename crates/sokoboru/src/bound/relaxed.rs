//! The relaxed game behind the pair costs: one object at a time on the walls and the objects
//! frozen at the start.

use super::{Bound, INFINITE, NEVER};
use crate::freeze::frozen;
use crate::puzzle::{MAX_CELLS, Puzzle};
use crate::state::{Dir, bits};

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
    use crate::bound::tests::rng;
    use crate::puzzle::parse_puzzles;

    /// With every push costing 1, the breadth-first layers on bit sets give the same distances
    /// as Dial's search, for boxes and balls from every cell of boards with walls and frozen
    /// objects (the medium.in starts and random positions near them).
    #[test]
    fn layers_agree_with_dials_search() {
        let ones = [[1; 4]; MAX_CELLS];
        let mut next = rng(11);
        let mut compared = 0;
        for puzzle in parse_puzzles(include_str!("../../../../data/sokoboru/medium.in")).unwrap() {
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
}
