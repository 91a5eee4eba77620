//! Exact races. Once no cube of one side can ever reach a cell a cube of the other side can
//! reach, the sides never meet again: each side's fewest turns to its corner under the known
//! dice is a one-player problem, and the side that needs fewer turns (the side to move on a
//! tie) wins. [`RaceOracle`] solves that problem exactly by IDA* (Korf 1985) on own turns,
//! with a small table of exact values and lower bounds: a side may move any cube the die
//! allows in any direction, and may capture its own cubes to steer later dice to the cube it
//! wants (the greedy race of `race_length` only estimates it).

use super::super::rules::{Board, Color, DICE, movable_cubes};

/// Columns of the board.
const COLS: i8 = 7;
/// Rows of the board.
const ROWS: i8 = 6;
/// Cells of the board.
const CELLS: usize = 42;
/// The goal corner in the mover's orientation (red's own: blue's cells are turned).
const CORNER: u8 = 41;
/// No cube (a captured one), and no target (off the board).
const NONE: u8 = u8::MAX;

/// The most turns a race is searched to: every race on a 6x7 board with at least one cube
/// ends far sooner (each cube needs at most six steps, and a die names a cube or its nearest
/// neighbour every turn), so the cap only guards the search.
const MAX_TURNS: u8 = 60;

/// log2 of the table's entries (16 bytes each: 1 MiB).
const TABLE_BITS: u32 = 16;

/// Row and column steps of red's four directions (blue's, turned, are the same).
const STEPS: [(i8, i8); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];

/// `TARGET[cell][dir]`: the cell a move reaches in the mover's orientation, or [`NONE`].
const TARGET: [[u8; 4]; CELLS] = targets();

const fn targets() -> [[u8; 4]; CELLS] {
    let mut out = [[NONE; 4]; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let mut dir = 0;
        while dir < 4 {
            let r = (cell as i8) / COLS + STEPS[dir].0;
            let c = (cell as i8) % COLS + STEPS[dir].1;
            if r >= 0 && r < ROWS && c >= 0 && c < COLS {
                out[cell][dir] = (r * COLS + c) as u8;
            }
            dir += 1;
        }
        cell += 1;
    }
    out
}

/// `DIST[cell]`: Chebyshev distance to the corner in the mover's orientation, the fewest
/// moves one cube needs from there.
const DIST: [u8; CELLS] = distances();

const fn distances() -> [u8; CELLS] {
    let mut out = [0; CELLS];
    let mut cell = 0;
    while cell < CELLS {
        let (r, c) = ((cell / 7) as u8, (cell % 7) as u8);
        let (dr, dc) = (5 - r, 6 - c);
        out[cell] = if dr > dc { dr } else { dc };
        cell += 1;
    }
    out
}

/// `cell` of `color` in its own orientation (blue's board turned by 180 degrees).
#[inline]
fn oriented(color: Color, cell: u8) -> u8 {
    match color {
        Color::Red => cell,
        Color::Blue => 41 - cell,
    }
}

/// One table entry: the key (0 for an empty slot) and what is known of the fewest turns.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Exact turns when `exact`, else a lower bound.
    turns: u8,
    exact: bool,
}

/// A side's position in its race: its cubes' cells in its own orientation ([`NONE`] for a
/// captured cube), which of them live, and the index of the die of its next turn.
#[derive(Clone, Copy)]
struct Racer {
    cells: [u8; 6],
    living: u8,
    die: u8,
}

impl Racer {
    fn key(&self) -> u64 {
        let mut key = 1u64 << 63 | u64::from(self.die) << 36;
        for (i, &cell) in self.cells.iter().enumerate() {
            key |= u64::from(cell & 63) << (6 * i);
        }
        key
    }

    /// The fewest moves any cube needs: a lower bound on the turns (one cube moves one step
    /// a turn).
    fn nearest(&self) -> u8 {
        let mut best = MAX_TURNS;
        let mut living = self.living;
        while living != 0 {
            let cube = living.trailing_zeros() as usize;
            living &= living - 1;
            best = best.min(DIST[usize::from(self.cells[cube])]);
        }
        best
    }

    /// The cubes the die of this turn lets the side move (the duel's rule: the named cube,
    /// else the nearest living ones below and above it in number).
    fn movable(&self, dice: &[u8; DICE]) -> ([u8; 2], usize) {
        movable_cubes(self.living, dice[usize::from(self.die)])
    }

    /// The position after `cube` moves to `to` (capturing an own cube there).
    fn moved(&self, cube: u8, to: u8) -> Racer {
        let mut next = *self;
        let mut living = self.living;
        while living != 0 {
            let other = living.trailing_zeros() as usize;
            living &= living - 1;
            if self.cells[other] == to {
                next.cells[other] = NONE;
                next.living &= !(1 << other);
            }
        }
        next.cells[usize::from(cube)] = to;
        next.die = if self.die + 2 >= DICE as u8 {
            self.die + 2 - DICE as u8
        } else {
            self.die + 2
        };
        next
    }
}

/// The exact race of each side, memoised for one dice line at a time.
pub(crate) struct RaceOracle {
    dice: [u8; DICE],
    table: Box<[Entry]>,
}

impl Default for RaceOracle {
    fn default() -> Self {
        RaceOracle {
            dice: [u8::MAX; DICE],
            table: vec![Entry::default(); 1 << TABLE_BITS].into_boxed_slice(),
        }
    }
}

impl Clone for RaceOracle {
    /// A new oracle: what one knows is cheap to find again.
    fn clone(&self) -> Self {
        RaceOracle::default()
    }
}

impl RaceOracle {
    /// The winner of a position whose sides are [`Board::separated`] (the caller checks), not over:
    /// the side needing fewer turns, the side to move on a tie.
    pub(crate) fn winner(&mut self, board: &Board) -> Color {
        let me = board.to_move();
        if self.turns(board, me) <= self.turns(board, me.other()) {
            me
        } else {
            me.other()
        }
    }

    /// The fewest own turns, from `color`'s next turn on, in which `color` surely brings a
    /// cube to its corner if the other side never interferes: exact when the sides are
    /// [`Board::separated`], otherwise an estimate that ignores the other side's captures.
    pub(crate) fn turns(&mut self, board: &Board, color: Color) -> u32 {
        if *board.dice() != self.dice {
            self.dice = *board.dice();
            self.table.fill(Entry::default());
        }
        let mut cells = [NONE; 6];
        let mut living = 0;
        for (cube, cell) in cells.iter_mut().enumerate() {
            if let Some(at) = board.cube_cell(color, cube as u8) {
                *cell = oriented(color, at);
                living |= 1 << cube;
            }
        }
        let first_ply = board.ply() + u32::from(board.to_move() != color);
        let racer = Racer {
            cells,
            living,
            die: (first_ply % DICE as u32) as u8,
        };
        let mut bound = racer.nearest();
        loop {
            let found = self.search(racer, bound);
            if found <= bound || found >= MAX_TURNS {
                return u32::from(found.min(MAX_TURNS));
            }
            bound = found;
        }
    }

    /// The fewest turns of `racer` if at most `bound`, else a lower bound above `bound`.
    fn search(&mut self, racer: Racer, bound: u8) -> u8 {
        let nearest = racer.nearest();
        if nearest > bound {
            return nearest;
        }
        let key = racer.key();
        let slot = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - TABLE_BITS)) as usize;
        let entry = self.table[slot];
        if entry.key == key && (entry.exact || entry.turns > bound) {
            return entry.turns;
        }
        let (cubes, n) = racer.movable(&self.dice);
        let mut best = MAX_TURNS;
        'moves: for &cube in &cubes[..n] {
            let from = racer.cells[usize::from(cube)];
            for &to in &TARGET[usize::from(from)] {
                if to == NONE {
                    continue;
                }
                if to == CORNER {
                    best = 1;
                    break 'moves;
                }
                let next = racer.moved(cube, to);
                // `bound` >= `nearest` >= 1: no cube of a game not over is on its corner.
                let turns = 1 + self.search(next, bound.saturating_sub(1));
                best = best.min(turns);
                if best <= nearest {
                    // Nothing beats the lower bound.
                    break 'moves;
                }
            }
        }
        self.table[slot] = Entry {
            key,
            turns: best,
            exact: best <= bound,
        };
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;
    use std::collections::{HashSet, VecDeque};

    /// The fewest turns by breadth-first search over every reachable position, using the
    /// board's own rules: `color`'s moves only, the other side passing.
    fn brute_turns(board: &Board, color: Color) -> u32 {
        let mut start = board.clone();
        if start.to_move() != color {
            start.pass();
        }
        let mut seen = HashSet::new();
        let mut queue = VecDeque::from([(start, 0u32)]);
        while let Some((board, turns)) = queue.pop_front() {
            for mv in board.moves().iter().copied() {
                let mut next = board.clone();
                next.play(mv);
                if next.winner() == Some(color) {
                    return turns + 1;
                }
                next.pass();
                if seen.insert(next.hash()) {
                    queue.push_back((next, turns + 1));
                }
            }
        }
        unreachable!("a side with a cube always reaches its corner")
    }

    /// A random position with `red` and `blue` cubes (random numbers), red or blue to move.
    fn random_board(rng: &mut ChaCha8Rng, red: usize, blue: usize) -> Board {
        loop {
            let mut dice = [0; DICE];
            for d in &mut dice {
                *d = rng.random_range(0..6);
            }
            let mut cells: Vec<u8> = (1..41).collect();
            let mut take = |count: usize, rng: &mut ChaCha8Rng| {
                let mut cubes = [None; 6];
                let mut numbers: Vec<usize> = (0..6).collect();
                for _ in 0..count {
                    let n = numbers.swap_remove(rng.random_range(0..numbers.len()));
                    let c = cells.swap_remove(rng.random_range(0..cells.len()));
                    cubes[n] = Some(c);
                }
                cubes
            };
            let r = take(red, rng);
            let b = take(blue, rng);
            let ply = rng.random_range(0..42);
            if let Ok(board) = Board::from_cubes(r, b, dice, ply) {
                return board;
            }
        }
    }

    /// A crowded race: red's `count` cubes in rows 0-3 of columns 1-4 (where own captures
    /// steer the dice), one or two blue cubes in column 0, past which red always is.
    fn crowded_board(rng: &mut ChaCha8Rng, count: usize) -> Board {
        let mut dice = [0; DICE];
        for d in &mut dice {
            *d = rng.random_range(0..6);
        }
        let mut cells: Vec<u8> = (0..4u8)
            .flat_map(|r| (1..5u8).map(move |c| r * 7 + c))
            .collect();
        let mut red = [None; 6];
        let mut numbers: Vec<usize> = (0..6).collect();
        for _ in 0..count {
            let n = numbers.swap_remove(rng.random_range(0..numbers.len()));
            red[n] = Some(cells.swap_remove(rng.random_range(0..cells.len())));
        }
        let mut blue = [None; 6];
        blue[rng.random_range(0..6)] = Some(7 * rng.random_range(1..3u8));
        blue[rng.random_range(0..6)] = Some(7 * rng.random_range(3..6u8));
        Board::from_cubes(red, blue, dice, rng.random_range(0..42)).unwrap()
    }

    #[test]
    fn crowded_races_match_a_breadth_first_search() {
        // Six cubes packed together: the fastest race often captures its own cubes so that
        // the dice name the runner.
        let mut rng = ChaCha8Rng::seed_from_u64(55);
        let mut oracle = RaceOracle::default();
        for case in 0..200 {
            let board = crowded_board(&mut rng, 3 + case % 4);
            assert!(board.separated());
            assert_eq!(
                oracle.turns(&board, Color::Red),
                brute_turns(&board, Color::Red),
                "case {case}:\n{}",
                board.render()
            );
        }
    }

    #[test]
    fn turns_match_a_breadth_first_search() {
        let mut rng = ChaCha8Rng::seed_from_u64(53);
        let mut oracle = RaceOracle::default();
        let mut case = 0;
        while case < 300 {
            let board = random_board(&mut rng, 1 + case % 4, 1 + case % 3);
            // Separated: the breadth-first search then meets no cube of the other side.
            if board.winner().is_some() || !board.separated() {
                continue;
            }
            case += 1;
            for color in [Color::Red, Color::Blue] {
                assert_eq!(
                    oracle.turns(&board, color),
                    brute_turns(&board, color),
                    "case {case}, {color:?}:\n{}",
                    board.render()
                );
            }
        }
    }

    #[test]
    fn separated_positions_are_won_as_minimax_says() {
        let mut rng = ChaCha8Rng::seed_from_u64(54);
        let mut oracle = RaceOracle::default();
        let mut checked = 0;
        let mut verifier = super::super::Verifier::new(16);
        while checked < 200 {
            let board = random_board(&mut rng, 1 + checked % 3, 1 + checked % 2);
            if board.winner().is_some() || !board.separated() {
                continue;
            }
            let truth = verifier
                .winner(&board, &ply_search::Limits::default())
                .expect("a small position is solved");
            assert_eq!(oracle.winner(&board), truth, "\n{}", board.render());
            checked += 1;
        }
    }
}
