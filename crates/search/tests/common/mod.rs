//! Tic-tac-toe, the small game with a known answer (a draw) that the search tests share.

#![allow(dead_code)]

use ply_search::{Game, Outcome};

/// The eight lines of three cells.
pub(crate) const LINES: [[usize; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// Tic-tac-toe: cells hold 0 (empty), 1 (player 0) or 2 (player 1).
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct TicTacToe {
    /// The cells, row by row.
    pub cells: [u8; 9],
    /// Moves played.
    pub played: u8,
}

impl Game for TicTacToe {
    type Move = u8;
    type Moves = Vec<u8>;
    type Undo = ();

    fn to_move(&self) -> u8 {
        self.played % 2
    }
    fn moves(&self) -> Vec<u8> {
        if self.outcome().is_some() {
            return Vec::new();
        }
        (0..9)
            .filter(|&c| self.cells[usize::from(c)] == 0)
            .collect()
    }
    fn play(&mut self, mv: u8) {
        self.cells[usize::from(mv)] = self.to_move() + 1;
        self.played += 1;
    }
    fn undo(&mut self, mv: u8, (): ()) {
        self.cells[usize::from(mv)] = 0;
        self.played -= 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        for line in LINES {
            let v = self.cells[line[0]];
            if v != 0 && line.iter().all(|&c| self.cells[c] == v) {
                return Some(Outcome::Win(v - 1));
            }
        }
        (self.played == 9).then_some(Outcome::Draw)
    }
    /// The cells in base 3: a perfect hash (the player to move follows from the cells).
    fn hash(&self) -> u64 {
        self.cells
            .iter()
            .fold(0, |h, &c| h * 3 + u64::from(c))
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }
}

/// The position after the moves `cells`, in order.
pub(crate) fn after(cells: &[u8]) -> TicTacToe {
    let mut game = TicTacToe::default();
    for &c in cells {
        game.play(c);
    }
    game
}
