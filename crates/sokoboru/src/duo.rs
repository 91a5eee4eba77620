//! A second lower bound that counts walking: the exact cost of a relaxed game of one empty box,
//! one ball and the player.
//!
//! Keep only the walls, one ball `b`, the empty box `x` that will end up holding it, and the
//! player. Every remaining line of play of the real game is also a line of play of this small
//! game: a step onto floor or into any other object is a step onto a free cell, pushes of `x`
//! and `b` are the same pushes, and a slide of `b` that another object stops early is a slide
//! that may stop on any cell of its line (the small game allows it). Each real move costs at
//! least 1, as each move of the small game does. So the small game's optimal cost from
//! `(x, b, player)` is a lower bound on the real remaining penalty; as `x` is unknown, the bound
//! of one ball is its cheapest box, and the bound of a position is its largest ball.
//!
//! Unlike the matching of [`crate::bound`], which counts only pushes, this bound counts the
//! walks around one ball and one box (every turn of a pushed box costs two steps, a ball must
//! be approached from the side it is pushed from); it cannot be summed over balls, because one
//! move of the player counts in every ball's game. The table holds the cost of every
//! `(x, b, player)` and is filled by one breadth-first search backwards from the moves that put
//! the ball in the box (every move costs 1): pattern databases for a relaxed game
//! (Culberson and Schaeffer, *Pattern databases*, Computational Intelligence 14(3), 1998).

use crate::puzzle::Puzzle;
use crate::state::{Dir, State};

/// A cost meaning "the ball can never reach the box from here".
const NEVER: u8 = u8::MAX;

/// The table's stride per `(player, ball)`: a row of every box cell, padded to 64 so that
/// the cheapest box of a ball is one fixed-length minimum, which the compiler vectorises.
const ROW: usize = 64;

/// The optimal costs of the one-box, one-ball game of a board.
#[derive(Clone, Debug)]
pub(crate) struct Duo {
    /// Cells on the board.
    cells: usize,
    /// `cost[(player * cells + ball) * ROW + boxed]`, [`NEVER`] when unsolvable or invalid.
    cost: Vec<u8>,
}

impl Duo {
    /// Solves the small game of `puzzle`'s walls for every placement.
    #[must_use]
    pub(crate) fn new(puzzle: &Puzzle) -> Duo {
        let cells = puzzle.cells();
        let open = |cell: usize| puzzle.walls & (1u64 << cell) == 0;
        let index = |x: usize, b: usize, p: usize| (p * cells + b) * ROW + x;
        let mut cost = vec![NEVER; cells * cells * ROW];
        let mut queue = Vec::with_capacity(cost.len());
        // One move from the goal: the box pushed onto the ball, or the ball slid into the box.
        for x in (0..cells).filter(|&c| open(c)) {
            for b in (0..cells).filter(|&c| open(c) && c != x) {
                for p in (0..cells).filter(|&c| open(c) && c != x && c != b) {
                    let wins = Dir::ALL.into_iter().any(|dir| {
                        let next = puzzle.neighbour(p, dir);
                        if next == Some(x) {
                            puzzle.neighbour(x, dir) == Some(b)
                        } else if next == Some(b) {
                            let mut at = b;
                            loop {
                                match puzzle.neighbour(at, dir).filter(|&c| open(c)) {
                                    Some(c) if c == x => break true,
                                    Some(c) => at = c,
                                    None => break false,
                                }
                            }
                        } else {
                            false
                        }
                    });
                    if wins {
                        cost[index(x, b, p)] = 1;
                        queue.push((x as u8, b as u8, p as u8));
                    }
                }
            }
        }
        let mut head = 0;
        while head < queue.len() {
            let (x, b, p) = queue[head];
            head += 1;
            let (x, b, p) = (usize::from(x), usize::from(b), usize::from(p));
            let next_cost = cost[index(x, b, p)] + 1;
            let mut reach = |x: usize, b: usize, p: usize| {
                let i = index(x, b, p);
                if cost[i] == NEVER {
                    cost[i] = next_cost;
                    queue.push((x as u8, b as u8, p as u8));
                }
            };
            for dir in Dir::ALL {
                let back = puzzle.neighbour(p, dir.opposite()).filter(|&c| open(c));
                // A step from the cell behind.
                if let Some(from) = back.filter(|&c| c != x && c != b) {
                    reach(x, b, from);
                }
                // A push of the box, which stood on the player's cell, from the cell behind.
                if puzzle.neighbour(p, dir) == Some(x)
                    && let Some(from) = back.filter(|&c| c != b)
                {
                    reach(p, b, from);
                }
                // A slide of the ball, which stood on the player's cell, along a line free of
                // walls and of the box, from the cell behind.
                let mut at = p;
                while let Some(c) = puzzle.neighbour(at, dir).filter(|&c| open(c) && c != x) {
                    if c == b {
                        if let Some(from) = back.filter(|&c| c != x) {
                            reach(x, p, from);
                        }
                        break;
                    }
                    at = c;
                }
            }
        }
        Duo { cells, cost }
    }

    /// The bound of `state`: over its balls, the largest of each ball's cheapest game with an
    /// empty box, and likewise over its empty boxes, each with its cheapest ball (the box's
    /// own ball ends in it no sooner than that); `None` when some ball can reach no empty box
    /// or some empty box no ball (the position is dead).
    #[must_use]
    pub(crate) fn estimate(&self, state: &State) -> Option<u32> {
        if state.empty == 0 {
            return Some(0);
        }
        let cells = self.cells;
        // NEVER on every cell but the empty boxes: OR-ed into a row of the table, it leaves the
        // costs of the boxes alone, so the row's minimum is the ball's cheapest box.
        let mut others = [NEVER; ROW];
        let mut boxes = state.empty;
        while boxes != 0 {
            others[boxes.trailing_zeros() as usize] = 0;
            boxes &= boxes - 1;
        }
        let mut costs = [0u8; 16];
        // Each empty box's cheapest ball so far (NEVER elsewhere).
        let mut by_box = [NEVER; ROW];
        let mut n = 0;
        let mut balls = state.balls;
        while balls != 0 && n < costs.len() {
            let b = balls.trailing_zeros() as usize;
            balls &= balls - 1;
            let at = (usize::from(state.player) * cells + b) * ROW;
            let row: &[u8; ROW] = self.cost[at..at + ROW]
                .try_into()
                .expect("a row of the table");
            let best = row
                .iter()
                .zip(&others)
                .fold(NEVER, |best, (&cost, &other)| best.min(cost | other));
            if best == NEVER {
                return None;
            }
            for ((low, &cost), &other) in by_box.iter_mut().zip(row).zip(&others) {
                *low = (*low).min(cost | other);
            }
            costs[n] = best;
            n += 1;
        }
        let by_balls = latest(&mut costs[..n]);
        let mut costs = [0u8; 16];
        let mut n = 0;
        let mut boxes = state.empty;
        while boxes != 0 && n < costs.len() {
            let x = boxes.trailing_zeros() as usize;
            boxes &= boxes - 1;
            if by_box[x] == NEVER {
                return None;
            }
            costs[n] = by_box[x];
            n += 1;
        }
        Some(by_balls.max(latest(&mut costs[..n])))
    }
}

/// A bound on when the last of some pairs is complete, from a lower bound on each pair's
/// completion (`costs`, sorted here): one move completes at most one pair, so the pairs
/// complete at distinct times, and the `n - k` pairs whose bounds are at least the `k`-th
/// smallest take at least `n - k - 1` moves more.
fn latest(costs: &mut [u8]) -> u32 {
    let n = costs.len();
    costs.sort_unstable();
    costs
        .iter()
        .enumerate()
        .map(|(k, &c)| u32::from(c) + (n - 1 - k) as u32)
        .max()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, VecDeque};

    use super::*;
    use crate::puzzle::parse_puzzles;

    /// The small game's cost from `(x, b, p)` by a forward breadth-first search of its moves,
    /// written independently of the table's backward one.
    fn forward(puzzle: &Puzzle, start: (usize, usize, usize)) -> Option<u8> {
        let open = |cell: usize| puzzle.walls & (1u64 << cell) == 0;
        let mut dist = HashMap::from([(start, 0u8)]);
        let mut queue = VecDeque::from([start]);
        while let Some((x, b, p)) = queue.pop_front() {
            let d = dist[&(x, b, p)];
            let mut next = Vec::new();
            for dir in Dir::ALL {
                let Some(q) = puzzle.neighbour(p, dir).filter(|&c| open(c)) else {
                    continue;
                };
                let beyond = puzzle.neighbour(q, dir).filter(|&c| open(c));
                if q == x {
                    match beyond {
                        Some(c) if c == b => return Some(d + 1),
                        Some(c) => next.push((c, b, q)),
                        None => {}
                    }
                } else if q == b {
                    let mut at = q;
                    while let Some(c) = puzzle.neighbour(at, dir).filter(|&c| open(c)) {
                        if c == x {
                            return Some(d + 1);
                        }
                        next.push((x, c, q));
                        at = c;
                    }
                } else {
                    next.push((x, b, q));
                }
            }
            for state in next {
                dist.entry(state).or_insert_with(|| {
                    queue.push_back(state);
                    d + 1
                });
            }
        }
        None
    }

    /// The bound is the larger of its two sides, each built from the small game's costs by
    /// the forward search: the balls with their cheapest boxes and the boxes with their
    /// cheapest balls; a box no ball can reach makes the position dead. On some random boards
    /// a box far from every ball raises it above the balls' side.
    #[test]
    fn the_bound_takes_the_larger_of_the_balls_and_the_boxes_sides() {
        use rand::{Rng, SeedableRng, seq::SliceRandom};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let mut boxes_above = 0;
        for _ in 0..200 {
            let (rows, cols) = (rng.random_range(3..=4), 5);
            let pairs = rng.random_range(2..=3);
            let mut cells = vec!['-'; rows * cols];
            let mut signs = vec!['@'];
            signs.extend(std::iter::repeat_n(['O', '$'], pairs).flatten());
            signs.extend(std::iter::repeat_n('#', rng.random_range(0..=2)));
            let mut at: Vec<usize> = (0..cells.len()).collect();
            at.shuffle(&mut rng);
            for (&cell, sign) in at.iter().zip(signs) {
                cells[cell] = sign;
            }
            let mut text = format!("{rows} {cols}\n");
            for row in cells.chunks(cols) {
                text.extend(row);
                text.push('\n');
            }
            let puzzle = parse_puzzles(&text).unwrap().remove(0);
            let state = puzzle.start;
            let cells = |bits: u64| (0..64).filter(move |&c| bits & (1u64 << c) != 0);
            let player = usize::from(state.player);
            let game = |x: usize, b: usize| forward(&puzzle, (x, b, player)).unwrap_or(NEVER);
            let mut by_balls: Vec<u8> = cells(state.balls)
                .map(|b| cells(state.empty).map(|x| game(x, b)).min().unwrap())
                .collect();
            let mut by_boxes: Vec<u8> = cells(state.empty)
                .map(|x| cells(state.balls).map(|b| game(x, b)).min().unwrap())
                .collect();
            let dead = by_balls.contains(&NEVER) || by_boxes.contains(&NEVER);
            let (balls, boxes) = (latest(&mut by_balls), latest(&mut by_boxes));
            let expected = (!dead).then_some(balls.max(boxes));
            assert_eq!(Duo::new(&puzzle).estimate(&state), expected, "{puzzle}");
            boxes_above += usize::from(!dead && boxes > balls);
        }
        assert!(boxes_above > 5, "{boxes_above}");
    }

    #[test]
    fn the_table_equals_a_forward_search() {
        let boards = [
            "3 4\n@-O-\n-#--\n$---\n",
            "4 4\n-O--\n-#-@\n----\n$--#\n",
            "2 5\n$-@-O\n--#--\n",
            "3 3\n@O-\n---\n--$\n",
        ];
        let mut seen = [0usize; 2];
        for text in boards {
            let puzzle = parse_puzzles(text).unwrap().remove(0);
            let duo = Duo::new(&puzzle);
            let cells = puzzle.cells();
            let open = |cell: usize| puzzle.walls & (1u64 << cell) == 0;
            for x in (0..cells).filter(|&c| open(c)) {
                for b in (0..cells).filter(|&c| open(c) && c != x) {
                    for p in (0..cells).filter(|&c| open(c) && c != x && c != b) {
                        let state = State {
                            empty: 1 << x,
                            balls: 1 << b,
                            full: 0,
                            player: p as u8,
                        };
                        let want = forward(&puzzle, (x, b, p));
                        seen[usize::from(want.is_some())] += 1;
                        assert_eq!(
                            duo.estimate(&state),
                            want.map(u32::from),
                            "{}",
                            puzzle.render(&state)
                        );
                    }
                }
            }
        }
        assert!(
            seen[0] > 10 && seen[1] > 100,
            "unsolvable, solvable: {seen:?}"
        );
    }
}
