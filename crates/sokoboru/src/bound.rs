//! An admissible lower bound on the remaining penalty, and provably safe dead-state detection.
//!
//! Balls move only when the player pushes them and boxes only when the player pushes them, and
//! every push is a move of penalty at least 1. Each empty box must end up holding a distinct
//! ball, so the remaining penalty is at least the cheapest way to pair every empty box with a
//! ball, where a pair costs the fewest pushes of that box plus slides of that ball that bring
//! them together. Those per-pair costs come from a relaxation that keeps only the walls: a box
//! moves one cell per push and needs a free cell behind it for the player; a ball slides any
//! distance along a wall-free line (another object could stop it anywhere) and also needs a
//! free cell behind it. The cheapest pairing is a minimum-cost perfect matching (the Hungarian
//! method: Kuhn, H. W. (1955), *The Hungarian method for the assignment problem*, in the
//! shortest-augmenting-path form of Jonker and Volgenant), as in the matching bounds of
//! Junghanns and Schaeffer's Rolling Stone Sokoban solver. A position with no finite matching
//! can never be solved, whatever the other objects do, so pruning it is safe.
//!
//! Walking is not counted: adding the walk to the nearest push cell (admissible, as those
//! steps are not pushes) cut expansions by about 10 % on small.in but cost more time than it
//! saved.

use crate::puzzle::{MAX_CELLS, Puzzle};
use crate::rules::{Dir, State};

/// A pair cost meaning "these two can never meet".
const NEVER: u16 = u16::MAX;

/// Per-puzzle tables for the lower bound.
#[derive(Clone, Debug)]
pub struct Bound {
    /// `pair[box][ball]`: the fewest pushes and slides that bring a box at `box` and a ball at
    /// `ball` together, or [`NEVER`].
    pair: Vec<[u16; MAX_CELLS]>,
}

impl Bound {
    /// Precomputes the pair costs of `puzzle` (its walls only).
    #[must_use]
    pub fn new(puzzle: &Puzzle) -> Bound {
        let cells = puzzle.cells();
        let open = |cell: usize| puzzle.walls & (1u64 << cell) == 0;
        // Whether an object at a cell can be pushed in each direction (the player stands on a
        // free cell behind it and the cell ahead is free).
        let mut pushable = [[false; 4]; MAX_CELLS];
        for (cell, from) in pushable.iter_mut().enumerate().take(cells) {
            for (i, dir) in Dir::ALL.into_iter().enumerate() {
                if let (Some(behind), Some(ahead)) = (
                    puzzle.neighbour(cell, dir.opposite()),
                    puzzle.neighbour(cell, dir),
                ) {
                    from[i] = open(behind) && open(ahead);
                }
            }
        }
        let box_dist: Vec<[u16; MAX_CELLS]> = (0..cells)
            .map(|start| {
                relaxed_distances(puzzle, start, &pushable, |cell, dir| {
                    puzzle.neighbour(cell, dir).into_iter().collect()
                })
            })
            .collect();
        let ball_dist: Vec<[u16; MAX_CELLS]> = (0..cells)
            .map(|start| {
                relaxed_distances(puzzle, start, &pushable, |cell, dir| {
                    let mut line = Vec::new();
                    let mut at = cell;
                    while let Some(next) = puzzle.neighbour(at, dir).filter(|&n| open(n)) {
                        line.push(next);
                        at = next;
                    }
                    line
                })
            })
            .collect();
        let pair = (0..cells)
            .map(|x| {
                let mut row = [NEVER; MAX_CELLS];
                for (b, cost) in row.iter_mut().enumerate().take(cells) {
                    *cost = (0..cells)
                        .filter(|&d| box_dist[x][d] != NEVER && ball_dist[b][d] != NEVER)
                        .map(|d| box_dist[x][d] + ball_dist[b][d])
                        .min()
                        .unwrap_or(NEVER);
                }
                row
            })
            .collect();
        Bound { pair }
    }

    /// A lower bound on the penalty still needed from `state`, or `None` when `state` can never
    /// be solved.
    #[must_use]
    pub fn estimate(&self, state: &State) -> Option<u32> {
        if state.empty == 0 {
            return Some(0);
        }
        self.matching(state)
    }

    /// The minimum-cost perfect matching of empty boxes to balls, or `None` if there is none.
    fn matching(&self, state: &State) -> Option<u32> {
        let mut boxes = [0usize; 16];
        let mut balls = [0usize; 16];
        let n = collect(state.empty, &mut boxes);
        if collect(state.balls, &mut balls) != n {
            return None;
        }
        let mut cost = [[0u32; 16]; 16];
        for i in 0..n {
            let row = &self.pair[boxes[i]];
            let mut finite = false;
            for j in 0..n {
                let c = row[balls[j]];
                finite |= c != NEVER;
                cost[i][j] = if c == NEVER { INFINITE } else { u32::from(c) };
            }
            if !finite {
                return None;
            }
        }
        let total = assignment(&cost, n);
        (total < INFINITE).then_some(total)
    }
}

/// A cost standing for "impossible" inside the assignment: larger than any real total.
const INFINITE: u32 = 1 << 20;

/// Writes the cells of `set` into `out`, returning how many there are (at most 16).
fn collect(mut set: u64, out: &mut [usize; 16]) -> usize {
    let mut n = 0;
    while set != 0 && n < out.len() {
        out[n] = set.trailing_zeros() as usize;
        set &= set - 1;
        n += 1;
    }
    n
}

/// Breadth-first distances from `start` over the relaxed moves of one object: in direction
/// `dir` from `cell` (when the player can stand behind it), the object may end on any cell of
/// `reach(cell, dir)`, at a cost of 1.
fn relaxed_distances(
    puzzle: &Puzzle,
    start: usize,
    pushable: &[[bool; 4]; MAX_CELLS],
    reach: impl Fn(usize, Dir) -> Vec<usize>,
) -> [u16; MAX_CELLS] {
    let mut dist = [NEVER; MAX_CELLS];
    if puzzle.walls & (1u64 << start) != 0 {
        return dist;
    }
    let mut queue = std::collections::VecDeque::from([start]);
    dist[start] = 0;
    while let Some(cell) = queue.pop_front() {
        for (i, dir) in Dir::ALL.into_iter().enumerate() {
            if !pushable[cell][i] {
                continue;
            }
            for next in reach(cell, dir) {
                if dist[next] == NEVER {
                    dist[next] = dist[cell] + 1;
                    queue.push_back(next);
                }
            }
        }
    }
    dist
}

/// The minimum total of an `n x n` assignment (rows to distinct columns) by shortest augmenting
/// paths with potentials, O(n^3). Entries of [`INFINITE`] stand for forbidden pairs; the result
/// is at least [`INFINITE`] when every assignment uses one.
fn assignment(cost: &[[u32; 16]; 16], n: usize) -> u32 {
    // 1-based arrays as in the classic formulation: column 0 is the virtual start.
    let mut u = [0i64; 17];
    let mut v = [0i64; 17];
    let mut owner = [0usize; 17];
    let mut way = [0usize; 17];
    for row in 1..=n {
        owner[0] = row;
        let mut col0 = 0;
        let mut min_to = [i64::MAX; 17];
        let mut used = [false; 17];
        loop {
            used[col0] = true;
            let r = owner[col0];
            let mut delta = i64::MAX;
            let mut next = 0;
            for col in 1..=n {
                if used[col] {
                    continue;
                }
                let reduced = i64::from(cost[r - 1][col - 1]) - u[r] - v[col];
                if reduced < min_to[col] {
                    min_to[col] = reduced;
                    way[col] = col0;
                }
                if min_to[col] < delta {
                    delta = min_to[col];
                    next = col;
                }
            }
            for col in 0..=n {
                if used[col] {
                    u[owner[col]] += delta;
                    v[col] -= delta;
                } else {
                    min_to[col] -= delta;
                }
            }
            col0 = next;
            if owner[col0] == 0 {
                break;
            }
        }
        loop {
            let prev = way[col0];
            owner[col0] = owner[prev];
            col0 = prev;
            if col0 == 0 {
                break;
            }
        }
    }
    let total: i64 = (1..=n)
        .map(|col| i64::from(cost[owner[col] - 1][col - 1]))
        .sum();
    u32::try_from(total).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;

    /// Every assignment of a small matrix, for comparison.
    fn brute_force(cost: &[[u32; 16]; 16], n: usize) -> u32 {
        fn go(cost: &[[u32; 16]; 16], n: usize, row: usize, used: u32) -> u32 {
            if row == n {
                return 0;
            }
            (0..n)
                .filter(|&c| used & (1 << c) == 0)
                .map(|c| cost[row][c] + go(cost, n, row + 1, used | (1 << c)))
                .min()
                .unwrap_or(0)
        }
        go(cost, n, 0, 0)
    }

    #[test]
    fn assignment_matches_brute_force() {
        let mut seed = 12345u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for n in 1..=6 {
            for _ in 0..200 {
                let mut cost = [[0u32; 16]; 16];
                for row in cost.iter_mut().take(n) {
                    for c in row.iter_mut().take(n) {
                        *c = if next() % 7 == 0 {
                            INFINITE
                        } else {
                            (next() % 20) as u32
                        };
                    }
                }
                let want = brute_force(&cost, n);
                let got = assignment(&cost, n);
                if want >= INFINITE {
                    assert!(got >= INFINITE);
                } else {
                    assert_eq!(got, want, "{n}x{n}: {cost:?}");
                }
            }
        }
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
