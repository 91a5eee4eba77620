//! Board, pieces, legal moves, make and unmake.

use std::sync::OnceLock;

use thiserror::Error;

/// Cells on the 10 x 10 board; cell `10 * row + col`.
pub const CELLS: usize = 100;
/// The hole at (3,3): no piece may enter it.
pub const HOLE: u8 = 33;
/// The cell of a piece that has been removed.
pub const DEAD: u8 = u8::MAX;
/// Marks an empty cell in the board array.
const EMPTY: u8 = 0;

/// The 8 king-move neighbours of each cell (off-board and the hole excluded), `u8::MAX` padded.
fn neighbours() -> &'static [[u8; 8]; CELLS] {
    static TABLE: OnceLock<[[u8; 8]; CELLS]> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [[u8::MAX; 8]; CELLS];
        for (cell, slots) in table.iter_mut().enumerate() {
            let (r, c) = ((cell / 10) as i32, (cell % 10) as i32);
            let mut n = 0;
            for dr in -1..=1 {
                for dc in -1..=1 {
                    let (nr, nc) = (r + dr, c + dc);
                    if (dr, dc) == (0, 0) || !(0..10).contains(&nr) || !(0..10).contains(&nc) {
                        continue;
                    }
                    let to = (nr * 10 + nc) as u8;
                    if to != HOLE {
                        slots[n] = to;
                        n += 1;
                    }
                }
            }
        }
        table
    })
}

/// Whether `to` is one king step from `from` on the board, avoiding the hole.
#[must_use]
pub(super) fn is_step(from: u8, to: u8) -> bool {
    usize::from(from) < CELLS && neighbours()[usize::from(from)].contains(&to)
}

/// One move: `piece` steps from `from` to `to`, removing `captured` (0 when the cell was empty).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SoloMove {
    /// The moving piece, 1..=6.
    pub piece: u8,
    /// Its cell before the move.
    pub from: u8,
    /// Its cell after the move.
    pub to: u8,
    /// The piece removed from `to`, or 0.
    pub captured: u8,
}

/// Up to 16 moves (two pieces, eight directions) on the stack, iterated by value.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveList {
    moves: [SoloMove; 16],
    len: u8,
    next: u8,
}

impl MoveList {
    fn push(&mut self, mv: SoloMove) {
        self.moves[usize::from(self.len)] = mv;
        self.len += 1;
    }

    /// The moves not yet iterated.
    #[must_use]
    pub fn as_slice(&self) -> &[SoloMove] {
        &self.moves[usize::from(self.next)..usize::from(self.len)]
    }

    /// Sorts the remaining moves by descending `score` (stable: ties keep generation order);
    /// each move is scored once.
    pub fn sort_by_score(&mut self, mut score: impl FnMut(&SoloMove) -> i32) {
        let (start, end) = (usize::from(self.next), usize::from(self.len));
        let mut keyed = [(0i32, SoloMove::default()); 16];
        for (slot, mv) in keyed.iter_mut().zip(&self.moves[start..end]) {
            *slot = (score(mv), *mv);
        }
        let keyed = &mut keyed[..end - start];
        for i in 1..keyed.len() {
            let item = keyed[i];
            let mut j = i;
            while j > 0 && keyed[j - 1].0 < item.0 {
                keyed[j] = keyed[j - 1];
                j -= 1;
            }
            keyed[j] = item;
        }
        for (slot, (_, mv)) in self.moves[start..end].iter_mut().zip(keyed.iter()) {
            *slot = *mv;
        }
    }
}

impl Iterator for MoveList {
    type Item = SoloMove;

    #[inline]
    fn next(&mut self) -> Option<SoloMove> {
        if self.next < self.len {
            self.next += 1;
            Some(self.moves[usize::from(self.next - 1)])
        } else {
            None
        }
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = usize::from(self.len - self.next);
        (n, Some(n))
    }
}

impl ExactSizeIterator for MoveList {}

/// Why a move is illegal.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum IllegalMove {
    /// No piece stands on the source cell.
    #[error("no piece on cell {0}")]
    NoPiece(u8),
    /// The die does not allow this piece to move.
    #[error("die {die} moves piece {allowed}, not piece {piece}")]
    WrongPiece {
        /// The die value.
        die: u8,
        /// The piece on the source cell.
        piece: u8,
        /// The pieces the die allows, e.g. `3` or `2 or 5`.
        allowed: String,
    },
    /// The destination is not one king step away, is off the board, or is the hole.
    #[error("piece {piece} cannot step from {from} to {to}")]
    NotAStep {
        /// The piece.
        piece: u8,
        /// Source cell.
        from: u8,
        /// Destination cell.
        to: u8,
    },
}

/// Where the six pieces stand; make/unmake in place.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// `cells[p]` is the cell of piece `p` (1..=6), or [`DEAD`]; index 0 unused.
    cells: [u8; 7],
    /// `board[cell]` is the piece there, or 0.
    board: [u8; CELLS],
}

impl Position {
    /// A position with piece `p` on `cells[p - 1]`; the cells must be distinct and not the hole
    /// (checked when an [`crate::solo::Instance`] is parsed).
    #[must_use]
    pub fn new(cells: [u8; 6]) -> Position {
        let mut pos = Position {
            cells: [DEAD; 7],
            board: [EMPTY; CELLS],
        };
        for (i, &cell) in cells.iter().enumerate() {
            pos.cells[i + 1] = cell;
            pos.board[usize::from(cell)] = i as u8 + 1;
        }
        pos
    }

    /// The cell of `piece`, if it is on the board.
    #[inline]
    #[must_use]
    pub fn cell(&self, piece: u8) -> Option<u8> {
        match self.cells[usize::from(piece)] {
            DEAD => None,
            c => Some(c),
        }
    }

    /// The piece on `cell`, if any.
    #[must_use]
    pub fn piece_at(&self, cell: u8) -> Option<u8> {
        match self.board.get(usize::from(cell)) {
            Some(&p) if p != EMPTY => Some(p),
            _ => None,
        }
    }

    /// Living pieces as a bit set: bit `p - 1` for piece `p`.
    #[inline]
    #[must_use]
    pub fn alive_mask(&self) -> u8 {
        (1..=6u8)
            .filter(|&p| self.cells[usize::from(p)] != DEAD)
            .fold(0, |m, p| m | 1 << (p - 1))
    }

    /// The pieces die `die` lets move: the piece itself if alive, else the smallest living
    /// piece above it and the largest below it (those that exist).
    #[inline]
    #[must_use]
    pub fn movable(&self, die: u8) -> ([u8; 2], usize) {
        let alive = |p: u8| self.cells[usize::from(p)] != DEAD;
        if alive(die) {
            return ([die, 0], 1);
        }
        let mut out = [0; 2];
        let mut n = 0;
        if let Some(up) = (die + 1..=6).find(|&p| alive(p)) {
            out[n] = up;
            n += 1;
        }
        if let Some(down) = (1..die).rev().find(|&p| alive(p)) {
            out[n] = down;
            n += 1;
        }
        (out, n)
    }

    /// Every legal move for die `die`.
    #[must_use]
    pub fn legal_moves(&self, die: u8) -> MoveList {
        let mut list = MoveList::default();
        let (pieces, n) = self.movable(die);
        for &piece in &pieces[..n] {
            let from = self.cells[usize::from(piece)];
            for &to in &neighbours()[usize::from(from)] {
                if to == u8::MAX {
                    break;
                }
                list.push(SoloMove {
                    piece,
                    from,
                    to,
                    captured: self.board[usize::from(to)],
                });
            }
        }
        list
    }

    /// Checks a move given by its cells against die `die` and returns it with its capture.
    ///
    /// # Errors
    /// Which rule the move breaks.
    pub fn check_move(&self, die: u8, from: u8, to: u8) -> Result<SoloMove, IllegalMove> {
        let piece = self.piece_at(from).ok_or(IllegalMove::NoPiece(from))?;
        let (pieces, n) = self.movable(die);
        if !pieces[..n].contains(&piece) {
            let allowed: Vec<String> = pieces[..n].iter().map(u8::to_string).collect();
            return Err(IllegalMove::WrongPiece {
                die,
                piece,
                allowed: allowed.join(" or "),
            });
        }
        if !is_step(from, to) {
            return Err(IllegalMove::NotAStep { piece, from, to });
        }
        Ok(SoloMove {
            piece,
            from,
            to,
            captured: self.board[usize::from(to)],
        })
    }

    /// Plays a legal move (unchecked: see [`Position::check_move`]).
    #[inline]
    pub fn play(&mut self, mv: SoloMove) {
        if mv.captured != EMPTY {
            self.cells[usize::from(mv.captured)] = DEAD;
        }
        self.board[usize::from(mv.from)] = EMPTY;
        self.board[usize::from(mv.to)] = mv.piece;
        self.cells[usize::from(mv.piece)] = mv.to;
    }

    /// Takes back the last move played.
    #[inline]
    pub fn unplay(&mut self, mv: SoloMove) {
        self.board[usize::from(mv.to)] = mv.captured;
        if mv.captured != EMPTY {
            self.cells[usize::from(mv.captured)] = mv.to;
        }
        self.board[usize::from(mv.from)] = mv.piece;
        self.cells[usize::from(mv.piece)] = mv.from;
    }

    /// A perfect 42-bit encoding of the piece cells (7 bits each, 127 for a dead piece).
    #[inline]
    #[must_use]
    pub fn key(&self) -> u64 {
        (1..=6).fold(0u64, |k, p| k << 7 | u64::from(self.cells[p].min(127)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movable_pieces_follow_the_die() {
        let pos = Position::new([62, 26, 66, 42, 32, 36]);
        assert_eq!(pos.movable(4), ([4, 0], 1));
        // Remove 3 and 4: die 3 or 4 offers 5 and 2.
        let mut p2 = Position::new([62, 26, 66, 42, 32, 36]);
        p2.cells[3] = DEAD;
        p2.board[66] = 0;
        p2.cells[4] = DEAD;
        p2.board[42] = 0;
        assert_eq!(p2.movable(3), ([5, 2], 2));
        assert_eq!(p2.movable(4), ([5, 2], 2));
        p2.cells[6] = DEAD;
        p2.board[36] = 0;
        p2.cells[5] = DEAD;
        p2.board[32] = 0;
        assert_eq!(p2.movable(6), ([2, 0], 1));
    }

    #[test]
    fn corner_and_hole_limit_moves() {
        let pos = Position::new([0, 99, 22, 50, 60, 70]);
        assert_eq!(pos.legal_moves(1).count(), 3);
        // Piece 3 on (2,2) has 8 neighbours minus the hole.
        assert_eq!(pos.legal_moves(3).count(), 7);
        assert!(pos.legal_moves(3).all(|m| m.to != HOLE));
    }

    #[test]
    fn play_and_unplay_round_trip() {
        let start = Position::new([62, 26, 66, 42, 32, 36]);
        let mut pos = start.clone();
        let mv = pos.check_move(6, 36, 26).unwrap();
        assert_eq!(mv.captured, 2);
        pos.play(mv);
        assert_eq!(pos.cell(2), None);
        assert_eq!(pos.cell(6), Some(26));
        assert_eq!(pos.alive_mask(), 0b111101);
        pos.unplay(mv);
        assert_eq!(pos, start);
    }

    #[test]
    fn illegal_moves_are_explained() {
        let pos = Position::new([62, 26, 66, 42, 32, 36]);
        assert_eq!(pos.check_move(1, 11, 0), Err(IllegalMove::NoPiece(11)));
        assert!(matches!(
            pos.check_move(1, 26, 15),
            Err(IllegalMove::WrongPiece {
                die: 1,
                piece: 2,
                ..
            })
        ));
        assert!(matches!(
            pos.check_move(5, 32, 34),
            Err(IllegalMove::NotAStep { .. })
        ));
        assert!(matches!(
            pos.check_move(5, 32, 33),
            Err(IllegalMove::NotAStep { .. })
        ));
    }
}
