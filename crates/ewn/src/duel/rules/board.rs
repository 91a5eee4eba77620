//! The duel's rules: a 6 x 7 board, six cubes a side, a known cyclic dice sequence.

use std::fmt;

use ply_search::{Game, Outcome};
use thiserror::Error;

/// Rows of the board.
pub const ROWS: usize = 6;
/// Columns of the board.
pub const COLS: usize = 7;
/// Cells of the board (`row * 7 + col`).
const CELLS: usize = ROWS * COLS;
/// Length of the dice sequence.
pub const DICE: usize = 21;
/// Red's starting cells, in the protocol's order.
const RED_START: [u8; 6] = [0, 1, 2, 7, 8, 14];
/// Blue's starting cells, in the protocol's order.
const BLUE_START: [u8; 6] = [27, 33, 34, 39, 40, 41];

/// A side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Color {
    /// Top-left, moves first, aims at cell 41.
    Red,
    /// Bottom-right, aims at cell 0.
    Blue,
}

impl Color {
    /// The other side.
    #[must_use]
    pub fn other(self) -> Color {
        match self {
            Color::Red => Color::Blue,
            Color::Blue => Color::Red,
        }
    }

    /// 0 for red, 1 for blue.
    #[must_use]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side of index `index` (0 red, 1 blue, as [`Color::index`]), or `None` for
    /// another.
    ///
    /// ```
    /// use ply_ewn::duel::Color;
    /// assert_eq!(Color::from_index(1), Some(Color::Blue));
    /// assert_eq!(Color::from_index(2), None);
    /// ```
    #[must_use]
    pub fn from_index(index: usize) -> Option<Color> {
        match index {
            0 => Some(Color::Red),
            1 => Some(Color::Blue),
            _ => None,
        }
    }

    /// The corner this side must reach.
    #[must_use]
    pub fn goal(self) -> u8 {
        match self {
            Color::Red => 41,
            Color::Blue => 0,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Red => "red",
            Color::Blue => "blue",
        })
    }
}

/// A move: which cube, in which of the mover's four directions (the protocol's `ND`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DuelMove {
    /// The cube's number, 0..5.
    pub cube: u8,
    /// The direction code, 0..3 (see the spec's table).
    pub dir: u8,
}

impl fmt::Display for DuelMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.cube, self.dir)
    }
}

/// Row and column steps of the four directions, for red; blue's are the negations.
const STEPS: [(i8, i8); 4] = [(0, 1), (1, 0), (1, 1), (-1, 1)];

/// `TARGET[color][cell][dir]`: the cell a move reaches, or `NONE` off the board.
const TARGET: [[[u8; 4]; CELLS]; 2] = targets();
const NONE: u8 = u8::MAX;
const EMPTY: u8 = u8::MAX;

/// `REACH[color][cell]`: the cells one move from `cell` reaches, as a bit set, so that a
/// position without an immediate win is told in one test per movable cube.
const REACH: [[u64; CELLS]; 2] = reaches();

const fn reaches() -> [[u64; CELLS]; 2] {
    let mut out = [[0u64; CELLS]; 2];
    let mut color = 0;
    while color < 2 {
        let mut cell = 0;
        while cell < CELLS {
            let mut dir = 0;
            while dir < 4 {
                let to = TARGET[color][cell][dir];
                if to != NONE {
                    out[color][cell] |= 1 << to;
                }
                dir += 1;
            }
            cell += 1;
        }
        color += 1;
    }
    out
}

const fn targets() -> [[[u8; 4]; CELLS]; 2] {
    let mut out = [[[NONE; 4]; CELLS]; 2];
    let mut color = 0;
    while color < 2 {
        let mut cell = 0;
        while cell < CELLS {
            let mut dir = 0;
            while dir < 4 {
                let sign = if color == 0 { 1 } else { -1 };
                let r = (cell / COLS) as i8 + sign * STEPS[dir].0;
                let c = (cell % COLS) as i8 + sign * STEPS[dir].1;
                if r >= 0 && r < ROWS as i8 && c >= 0 && c < COLS as i8 {
                    out[color][cell][dir] = (r as usize * COLS + c as usize) as u8;
                }
                dir += 1;
            }
            cell += 1;
        }
        color += 1;
    }
    out
}

/// Zobrist keys: one per (piece, cell) and one per ply modulo 42 (side to move and die).
struct Keys {
    piece: [[u64; CELLS]; 12],
    ply: [u64; 2 * DICE],
}

const KEYS: Keys = keys();

const fn keys() -> Keys {
    let mut state = 0x2545_f491_4f6c_dd1d_u64;
    let mut piece = [[0; CELLS]; 12];
    let mut ply = [0; 2 * DICE];
    let mut p = 0;
    while p < 12 {
        let mut c = 0;
        while c < CELLS {
            state = splitmix(state);
            piece[p][c] = state;
            c += 1;
        }
        p += 1;
    }
    let mut k = 0;
    while k < 2 * DICE {
        state = splitmix(state);
        ply[k] = state;
        k += 1;
    }
    Keys { piece, ply }
}

const fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Why a setup or a move is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DuelError {
    /// A cube permutation is not a permutation of 0..5.
    #[error("'{0}' is not a permutation of the cube numbers 0-5")]
    Permutation(String),
    /// A die is outside 0..5.
    #[error("die {0} is outside 0-5")]
    Die(u8),
    /// The cube may not move with this die.
    #[error("cube {cube} may not move with die {die}")]
    WrongCube {
        /// The cube named.
        cube: u8,
        /// The die.
        die: u8,
    },
    /// The direction code is not 0..3.
    #[error("direction {0} is not 0-3")]
    Direction(u8),
    /// The move leaves the board.
    #[error("cube {cube} cannot move in direction {dir}: it would leave the board")]
    OffBoard {
        /// The cube.
        cube: u8,
        /// The direction.
        dir: u8,
    },
    /// The game is already over.
    #[error("the game is over")]
    Over,
    /// A hand-made position is impossible.
    #[error("bad position: {0}")]
    Setup(String),
}

/// The legal moves of a position: at most two cubes times four directions, on the stack.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveList {
    moves: [DuelMove; 8],
    len: usize,
}

impl MoveList {
    fn push(&mut self, mv: DuelMove) {
        self.moves[self.len] = mv;
        self.len += 1;
    }
}

impl AsRef<[DuelMove]> for MoveList {
    fn as_ref(&self) -> &[DuelMove] {
        &self.moves[..self.len]
    }
}

impl AsMut<[DuelMove]> for MoveList {
    fn as_mut(&mut self) -> &mut [DuelMove] {
        &mut self.moves[..self.len]
    }
}

impl std::ops::Deref for MoveList {
    type Target = [DuelMove];
    fn deref(&self) -> &[DuelMove] {
        self.as_ref()
    }
}

/// What [`Board::play`] returns for [`Board::undo`]: the cells and the captured piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Undo {
    from: u8,
    to: u8,
    captured: u8,
}

/// A game position: the cubes, the dice and the ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    /// `cell[c]`: the piece on cell `c` (`color * 6 + cube`) or `EMPTY`.
    cells: [u8; CELLS],
    /// `pos[piece]`: its cell or `EMPTY` when captured.
    pos: [u8; 12],
    alive: [u8; 2],
    /// Living cubes per side as bits.
    living: [u8; 2],
    dice: [u8; DICE],
    ply: u32,
    hash: u64,
    winner: Option<Color>,
}

/// The cubes a side whose living cubes are the bits of `living` may move when `die` is
/// rolled: the named cube if it lives, else the nearest living ones below and above it in
/// number (one or two; the count is second).
#[must_use]
#[inline]
pub(crate) fn movable_cubes(living: u8, die: u8) -> ([u8; 2], usize) {
    let (cubes, n) = MOVABLE[usize::from(living & 63)][usize::from(die)];
    (cubes, usize::from(n))
}

/// [`movable_cubes`] of every set of living cubes and die, looked up: every move list and
/// race estimate asks it, most of them several times.
const MOVABLE: [[([u8; 2], u8); 6]; 64] = {
    let mut out = [[([0u8; 2], 0u8); 6]; 64];
    let mut living = 0;
    while living < 64 {
        let mut die = 0;
        while die < 6 {
            let (cubes, n) = movable_cubes_of(living as u8, die as u8);
            out[living][die] = (cubes, n as u8);
            die += 1;
        }
        living += 1;
    }
    out
};

/// [`movable_cubes`], computed.
const fn movable_cubes_of(living: u8, die: u8) -> ([u8; 2], usize) {
    if living & (1 << die) != 0 {
        return ([die, 0], 1);
    }
    let mut out = [0; 2];
    let mut n = 0;
    let below = living & ((1u8 << die) - 1);
    if below != 0 {
        out[n] = 7 - below.leading_zeros() as u8;
        n += 1;
    }
    let above = living & !((2u8 << die) - 1);
    if above != 0 {
        out[n] = above.trailing_zeros() as u8;
        n += 1;
    }
    (out, n)
}

impl Board {
    /// The start of a game: `red[i]` is the cube on cell 0, 1, 2, 7, 8, 14 (in that order),
    /// `blue[i]` on cell 27, 33, 34, 39, 40, 41.
    ///
    /// # Errors
    /// [`DuelError`] for a setup that is not two permutations and 21 dice in 0..5.
    pub fn new(red: [u8; 6], blue: [u8; 6], dice: [u8; DICE]) -> Result<Board, DuelError> {
        for perm in [red, blue] {
            let mut seen = 0u8;
            for &c in &perm {
                if c > 5 || seen & (1 << c) != 0 {
                    return Err(DuelError::Permutation(
                        perm.iter().map(|d| char::from(b'0' + d.min(&9))).collect(),
                    ));
                }
                seen |= 1 << c;
            }
        }
        if let Some(&d) = dice.iter().find(|&&d| d > 5) {
            return Err(DuelError::Die(d));
        }
        let mut board = Board {
            cells: [EMPTY; CELLS],
            pos: [EMPTY; 12],
            alive: [6, 6],
            living: [0x3f, 0x3f],
            dice,
            ply: 0,
            hash: 0,
            winner: None,
        };
        for (color, (perm, start)) in [(red, RED_START), (blue, BLUE_START)].iter().enumerate() {
            for (&cube, &cell) in perm.iter().zip(start) {
                let piece = color as u8 * 6 + cube;
                board.cells[usize::from(cell)] = piece;
                board.pos[usize::from(piece)] = cell;
            }
        }
        board.hash = board.compute_hash();
        Ok(board)
    }

    /// A position with the given cube cells (`None`: captured), for analysis and tests.
    ///
    /// # Errors
    /// [`DuelError::Setup`] when two cubes share a cell, a cell is off the board, or a side has
    /// no cube.
    pub fn from_cubes(
        red: [Option<u8>; 6],
        blue: [Option<u8>; 6],
        dice: [u8; DICE],
        ply: u32,
    ) -> Result<Board, DuelError> {
        let mut board = Board::new([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], dice)?;
        board.cells = [EMPTY; CELLS];
        board.pos = [EMPTY; 12];
        board.living = [0; 2];
        board.alive = [0; 2];
        for (side, cubes) in [red, blue].iter().enumerate() {
            for (cube, cell) in cubes.iter().enumerate() {
                let Some(cell) = *cell else { continue };
                if usize::from(cell) >= CELLS || board.cells[usize::from(cell)] != EMPTY {
                    return Err(DuelError::Setup(format!(
                        "cell {cell} is off the board or taken"
                    )));
                }
                let piece = (side * 6 + cube) as u8;
                board.cells[usize::from(cell)] = piece;
                board.pos[usize::from(piece)] = cell;
                board.living[side] |= 1 << cube;
                board.alive[side] += 1;
            }
        }
        if board.alive.contains(&0) {
            return Err(DuelError::Setup("each side needs a cube".into()));
        }
        board.ply = ply;
        board.hash = board.compute_hash();
        Ok(board)
    }

    /// The hash computed from scratch (equal to the incremental [`Board::hash`]).
    #[must_use]
    pub fn compute_hash(&self) -> u64 {
        let mut h = KEYS.ply[(self.ply as usize) % (2 * DICE)];
        for (piece, &cell) in self.pos.iter().enumerate() {
            if cell != EMPTY {
                h ^= KEYS.piece[piece][usize::from(cell)];
            }
        }
        h
    }

    /// The Zobrist hash of the position (cubes, side to move, die).
    #[must_use]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The dice sequence.
    #[must_use]
    pub fn dice(&self) -> &[u8; DICE] {
        &self.dice
    }

    /// The cells of `color`'s cubes 0 to 5, `u8::MAX` for a captured one.
    #[must_use]
    #[inline]
    pub(crate) fn side_cells(&self, color: Color) -> [u8; 6] {
        let base = color.index() * 6;
        let mut out = [0; 6];
        out.copy_from_slice(&self.pos[base..base + 6]);
        out
    }

    /// Plies played.
    #[must_use]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The side to move: red on even plies.
    #[must_use]
    pub fn to_move(&self) -> Color {
        if self.ply.is_multiple_of(2) {
            Color::Red
        } else {
            Color::Blue
        }
    }

    /// The die of the ply to play.
    #[must_use]
    pub fn die(&self) -> u8 {
        self.dice[self.ply as usize % DICE]
    }

    /// The winner, once the game is over.
    #[must_use]
    pub fn winner(&self) -> Option<Color> {
        self.winner
    }

    /// The cell of `color`'s cube `cube`, if alive.
    #[must_use]
    pub fn cube_cell(&self, color: Color, cube: u8) -> Option<u8> {
        let cell = self.pos[color.index() * 6 + usize::from(cube)];
        (cell != EMPTY).then_some(cell)
    }

    /// The cube on `cell`, if any: its side and number.
    #[must_use]
    pub fn at(&self, cell: u8) -> Option<(Color, u8)> {
        match self.cells[usize::from(cell)] {
            EMPTY => None,
            p if p < 6 => Some((Color::Red, p)),
            p => Some((Color::Blue, p - 6)),
        }
    }

    /// Whether the sides can never meet again: for every red cube and every blue cube, the red
    /// one is in a later column, or in the same column and a later row. Columns never move back
    /// (red's never decrease, blue's never increase) and within its column a cube only moves
    /// forward (red's down, blue's up), so such a pair stays apart for the rest of the game and
    /// no capture between the sides is possible: each side's race to its corner is its own.
    #[must_use]
    pub fn separated(&self) -> bool {
        let cells = |color: Color| {
            (0..6u8).filter_map(move |cube| self.cube_cell(color, cube).map(|c| (c / 7, c % 7)))
        };
        cells(Color::Red)
            .all(|(rr, rc)| cells(Color::Blue).all(|(br, bc)| rc > bc || (rc == bc && rr > br)))
    }

    /// Living cubes of `color`.
    #[must_use]
    pub fn alive(&self, color: Color) -> u8 {
        self.alive[color.index()]
    }

    /// The cubes the side to move may move with the current die (one or two).
    #[must_use]
    pub fn movable(&self) -> ([u8; 2], usize) {
        movable_cubes(self.living[self.to_move().index()], self.die())
    }

    /// The legal moves: the movable cubes in increasing number, directions 0..3 (empty once
    /// the game is over).
    #[must_use]
    pub fn moves(&self) -> MoveList {
        let mut list = MoveList::default();
        if self.winner.is_some() {
            return list;
        }
        let color = self.to_move().index();
        let (cubes, n) = self.movable();
        for &cube in &cubes[..n] {
            let from = usize::from(self.pos[color * 6 + usize::from(cube)]);
            for dir in 0..4u8 {
                if TARGET[color][from][usize::from(dir)] != NONE {
                    list.push(DuelMove { cube, dir });
                }
            }
        }
        list
    }

    /// Checks a move against the rules.
    ///
    /// # Errors
    /// Which rule it breaks.
    pub fn check(&self, mv: DuelMove) -> Result<(), DuelError> {
        if self.winner.is_some() {
            return Err(DuelError::Over);
        }
        if mv.dir > 3 {
            return Err(DuelError::Direction(mv.dir));
        }
        let (cubes, n) = self.movable();
        if !cubes[..n].contains(&mv.cube) {
            return Err(DuelError::WrongCube {
                cube: mv.cube,
                die: self.die(),
            });
        }
        let color = self.to_move().index();
        let from = usize::from(self.pos[color * 6 + usize::from(mv.cube)]);
        if TARGET[color][from][usize::from(mv.dir)] == NONE {
            return Err(DuelError::OffBoard {
                cube: mv.cube,
                dir: mv.dir,
            });
        }
        Ok(())
    }

    /// Plays a move after checking it.
    ///
    /// # Errors
    /// As [`Board::check`]; the board is unchanged then.
    pub fn play_checked(&mut self, mv: DuelMove) -> Result<Undo, DuelError> {
        self.check(mv)?;
        Ok(self.play(mv))
    }

    /// Plays a legal move (unchecked: the move must come from [`Board::moves`]).
    pub fn play(&mut self, mv: DuelMove) -> Undo {
        let color = self.to_move().index();
        let piece = color * 6 + usize::from(mv.cube);
        let from = self.pos[piece];
        let to = TARGET[color][usize::from(from)][usize::from(mv.dir)];
        let captured = self.cells[usize::from(to)];
        let mut h = self.hash
            ^ KEYS.piece[piece][usize::from(from)]
            ^ KEYS.piece[piece][usize::from(to)]
            ^ KEYS.ply[self.ply as usize % (2 * DICE)]
            ^ KEYS.ply[(self.ply as usize + 1) % (2 * DICE)];
        if captured != EMPTY {
            let side = usize::from(captured / 6);
            h ^= KEYS.piece[usize::from(captured)][usize::from(to)];
            self.pos[usize::from(captured)] = EMPTY;
            self.alive[side] -= 1;
            self.living[side] &= !(1 << (captured % 6));
        }
        self.cells[usize::from(from)] = EMPTY;
        self.cells[usize::from(to)] = piece as u8;
        self.pos[piece] = to;
        self.hash = h;
        self.ply += 1;
        self.winner = if self.alive[1] == 0 {
            Some(Color::Red)
        } else if self.alive[0] == 0 {
            Some(Color::Blue)
        } else if self.cells[41] != EMPTY && self.cells[41] < 6 {
            Some(Color::Red)
        } else if self.cells[0] != EMPTY && self.cells[0] >= 6 {
            Some(Color::Blue)
        } else {
            None
        };
        Undo { from, to, captured }
    }

    /// Passes the turn: only for a side with no legal move, which the rules never produce
    /// while it has a cube (the protocol's `??`).
    pub fn pass(&mut self) {
        self.hash ^= KEYS.ply[self.ply as usize % (2 * DICE)]
            ^ KEYS.ply[(self.ply as usize + 1) % (2 * DICE)];
        self.ply += 1;
    }

    /// Takes back `mv`, played with result `undo`.
    pub fn undo(&mut self, mv: DuelMove, undo: Undo) {
        self.ply -= 1;
        let color = self.to_move().index();
        let piece = color * 6 + usize::from(mv.cube);
        let Undo { from, to, captured } = undo;
        let mut h = self.hash
            ^ KEYS.piece[piece][usize::from(from)]
            ^ KEYS.piece[piece][usize::from(to)]
            ^ KEYS.ply[self.ply as usize % (2 * DICE)]
            ^ KEYS.ply[(self.ply as usize + 1) % (2 * DICE)];
        self.cells[usize::from(from)] = piece as u8;
        self.pos[piece] = from;
        self.cells[usize::from(to)] = captured;
        if captured != EMPTY {
            let side = usize::from(captured / 6);
            h ^= KEYS.piece[usize::from(captured)][usize::from(to)];
            self.pos[usize::from(captured)] = to;
            self.alive[side] += 1;
            self.living[side] |= 1 << (captured % 6);
        }
        self.hash = h;
        self.winner = None;
    }

    /// The smallest Chebyshev distance from a cube of `color` to its goal corner (0 if
    /// there, a large value if `color` has no cube).
    #[must_use]
    pub fn goal_distance(&self, color: Color) -> i32 {
        let base = color.index() * 6;
        let mut best = 100;
        for &cell in &self.pos[base..base + 6] {
            if cell != EMPTY {
                let (r, c) = (i32::from(cell) / 7, i32::from(cell) % 7);
                let d = match color {
                    Color::Red => (5 - r).max(6 - c),
                    Color::Blue => r.max(c),
                };
                best = best.min(d);
            }
        }
        best
    }

    /// A move that wins at once for the side to move (reaching the goal corner or capturing
    /// the opponent's last cube), if there is one.
    #[must_use]
    pub fn winning_move(&self) -> Option<DuelMove> {
        if self.winner.is_some() {
            return None;
        }
        let me = self.to_move();
        let color = me.index();
        let goal = me.goal();
        let last = (self.alive[1 - color] == 1)
            .then(|| self.pos[(1 - color) * 6 + self.living[1 - color].trailing_zeros() as usize]);
        let wins = (1u64 << goal) | last.map_or(0, |cell| 1u64 << cell);
        let (cubes, n) = self.movable();
        for &cube in &cubes[..n] {
            let from = usize::from(self.pos[color * 6 + usize::from(cube)]);
            if REACH[color][from] & wins == 0 {
                continue;
            }
            for dir in 0..4u8 {
                let to = TARGET[color][from][usize::from(dir)];
                if to != NONE && (to == goal || Some(to) == last) {
                    return Some(DuelMove { cube, dir });
                }
            }
        }
        None
    }

    /// The board as text: rows of `R0`..`R5` (red), `b0`..`b5` (blue) and `..`.
    #[must_use]
    pub fn render(&self) -> String {
        let mut out = String::new();
        for r in 0..ROWS {
            for c in 0..COLS {
                if c > 0 {
                    out.push(' ');
                }
                match self.at((r * COLS + c) as u8) {
                    Some((Color::Red, n)) => out.push_str(&format!("R{n}")),
                    Some((Color::Blue, n)) => out.push_str(&format!("b{n}")),
                    None => out.push_str(".."),
                }
            }
            out.push('\n');
        }
        out
    }
}

/// The rules as ply-search's two-player game: red is player 0, blue player 1.
impl Game for Board {
    type Move = DuelMove;
    type Moves = MoveList;
    type Undo = Undo;

    fn to_move(&self) -> u8 {
        Board::to_move(self).index() as u8
    }
    fn moves(&self) -> MoveList {
        Board::moves(self)
    }
    fn play(&mut self, mv: DuelMove) -> Undo {
        Board::play(self, mv)
    }
    fn undo(&mut self, mv: DuelMove, undo: Undo) {
        Board::undo(self, mv, undo);
    }
    fn outcome(&self) -> Option<Outcome> {
        self.winner().map(|w| Outcome::Win(w.index() as u8))
    }
    fn hash(&self) -> u64 {
        Board::hash(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board() -> Board {
        Board::new(
            [0, 1, 2, 3, 4, 5],
            [0, 1, 2, 3, 4, 5],
            [
                0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5, 0, 1, 2,
            ],
        )
        .unwrap()
    }

    #[test]
    fn setup_and_directions() {
        let b = board();
        assert_eq!(b.at(0), Some((Color::Red, 0)));
        assert_eq!(b.at(14), Some((Color::Red, 5)));
        assert_eq!(b.at(41), Some((Color::Blue, 5)));
        assert_eq!(b.to_move(), Color::Red);
        // Red cube 0 on cell 0: right, down, down-right; up-right leaves the board.
        let moves: Vec<String> = b.moves().iter().map(ToString::to_string).collect();
        assert_eq!(moves, ["00", "01", "02"]);
        assert_eq!(TARGET[1][41], [40, 34, 33, NONE]);
        assert_eq!(TARGET[0][14], [15, 21, 22, 8]);
    }

    #[test]
    fn missing_cube_gives_neighbours_in_number() {
        let mut b = board();
        b.living[0] = 0b10_0101; // cubes 0, 2, 5
        b.ply = 2; // red, die 2 present
        assert_eq!(b.movable(), ([2, 0], 1));
        b.ply = 4; // die 4: cubes 2 and 5
        assert_eq!(b.movable(), ([2, 5], 2));
        b.ply = 20; // die 2 again
        b.living[0] = 0b10_0000;
        b.ply = 0; // die 0: only cube 5 above
        assert_eq!(b.movable(), ([5, 0], 1));
    }

    #[test]
    fn capture_own_cube_and_win_checks() {
        let mut b = board();
        // Red cube 0 (cell 0) moves right onto its own cube 1 (cell 1).
        let undo = b.play_checked(DuelMove { cube: 0, dir: 0 }).unwrap();
        assert_eq!(b.alive(Color::Red), 5);
        assert_eq!(b.at(1), Some((Color::Red, 0)));
        assert_eq!(b.hash(), b.compute_hash());
        b.undo(DuelMove { cube: 0, dir: 0 }, undo);
        assert_eq!(b, board());
        assert_eq!(
            b.play_checked(DuelMove { cube: 1, dir: 0 }),
            Err(DuelError::WrongCube { cube: 1, die: 0 })
        );
        assert_eq!(
            b.play_checked(DuelMove { cube: 0, dir: 3 }),
            Err(DuelError::OffBoard { cube: 0, dir: 3 })
        );
        assert_eq!(b, board(), "refused moves change nothing");
    }

    #[test]
    fn reaching_the_corner_wins_and_captures_end_the_game() {
        let dice = [1; DICE];
        // Blue to move (ply 1) with die 1: cube 1 on cell 7 steps up to cell 0.
        let red = [None, Some(1), None, None, None, None];
        let blue = [None, Some(7), None, None, None, Some(41)];
        let mut b = Board::from_cubes(red, blue, dice, 1).unwrap();
        b.play_checked(DuelMove { cube: 1, dir: 1 }).unwrap();
        assert_eq!(b.winner(), Some(Color::Blue));
        assert!(b.moves().is_empty());
        assert_eq!(b.hash(), b.compute_hash());
        // Blue captures red's last cube (up-left from 9 onto 1) : blue wins.
        let mut b =
            Board::from_cubes(red, [None, Some(9), None, None, None, None], dice, 1).unwrap();
        b.play_checked(DuelMove { cube: 1, dir: 2 }).unwrap();
        assert_eq!(b.winner(), Some(Color::Blue));
        assert_eq!(b.alive(Color::Red), 0);
        assert!(Board::from_cubes(red, [None, Some(1), None, None, None, None], dice, 1).is_err());
    }

    #[test]
    fn winning_move_finds_exactly_the_immediate_wins() {
        let mut rng = crate::duel::rules::FastRng::new(9);
        let mut wins = 0;
        for game in 0..300 {
            let mut b = board();
            b.ply = game % 2;
            while b.winner().is_none() {
                let me = b.to_move();
                let any = b.moves().iter().any(|&mv| {
                    let mut next = b.clone();
                    next.play(mv);
                    next.winner() == Some(me)
                });
                match b.winning_move() {
                    Some(mv) => {
                        let mut next = b.clone();
                        next.play_checked(mv).unwrap();
                        assert_eq!(next.winner(), Some(me));
                        wins += 1;
                    }
                    None => assert!(!any, "a win was missed:\n{}", b.render()),
                }
                let list = b.moves();
                b.play(list[rng.below(list.len())]);
            }
        }
        assert!(wins > 300, "{wins}");
    }
}
