//! Boards, moves and solvability.

use std::fmt;
use std::str::FromStr;

use crate::error::{BoardError, NotAMove, excerpt};
use crate::geometry::{Direction, Geometry, MAX_CELLS, transpose};

/// Renders moves as a string of letters (the blank's directions).
#[must_use]
pub fn moves_to_string(moves: &[Direction]) -> String {
    moves.iter().map(|d| d.letter()).collect()
}

/// Reads moves from a string of letters `U L R D` (either case), as [`moves_to_string`]
/// writes them.
///
/// ```
/// use ply_npuzzle::{Direction, parse_moves};
/// assert_eq!(parse_moves("uL"), Ok(vec![Direction::Up, Direction::Left]));
/// let bad = parse_moves("UX").unwrap_err().to_string();
/// assert_eq!(bad, "'X' is not a move (expected U, L, R or D: the blank's direction)");
/// ```
///
/// # Errors
/// [`NotAMove`] quoting the first character that is no move.
pub fn parse_moves(text: &str) -> Result<Vec<Direction>, NotAMove> {
    text.chars()
        .map(|c| Direction::from_letter(c).ok_or_else(|| NotAMove(excerpt(&c.to_string()))))
        .collect()
}

impl FromStr for Direction {
    type Err = NotAMove;

    /// One move letter, `U`, `L`, `R` or `D` (either case), and nothing else.
    fn from_str(text: &str) -> Result<Direction, NotAMove> {
        let mut chars = text.chars();
        match (chars.next().and_then(Direction::from_letter), chars.next()) {
            (Some(dir), None) => Ok(dir),
            _ => Err(NotAMove(excerpt(text))),
        }
    }
}

/// A W x W sliding-tile board (W = 3, 4 or 5); tile 0 is the blank.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    width: u8,
    tiles: [u8; MAX_CELLS],
}

impl Board {
    /// The goal board of width `width`: `0 1 2 ... W*W-1`, blank top-left.
    ///
    /// # Panics
    /// If `width` is not 3, 4 or 5.
    #[must_use]
    pub fn goal(width: usize) -> Board {
        assert!((3..=5).contains(&width), "width must be 3, 4 or 5");
        let mut tiles = [0; MAX_CELLS];
        for (i, t) in tiles.iter_mut().enumerate().take(width * width) {
            *t = i as u8;
        }
        Board {
            width: width as u8,
            tiles,
        }
    }

    /// Builds a board from its tiles in row-major order, checking that they form a
    /// permutation of `0..W*W` for W = 3, 4 or 5. Solvability is not checked here.
    ///
    /// # Errors
    /// The board of `width` whose cells hold `tiles` (a permutation, checked by the caller).
    pub(crate) fn from_cells(width: usize, tiles: &[u8]) -> Board {
        let mut cells = [0; MAX_CELLS];
        cells[..width * width].copy_from_slice(&tiles[..width * width]);
        Board {
            width: width as u8,
            tiles: cells,
        }
    }

    /// A [`BoardError`] naming the problem.
    pub fn from_tiles(values: &[u64]) -> Result<Board, BoardError> {
        let width = match values.len() {
            9 => 3,
            16 => 4,
            25 => 5,
            n => return Err(BoardError::WrongCount(n)),
        };
        let cells = width * width;
        let mut tiles = [0; MAX_CELLS];
        let mut seen = [false; MAX_CELLS];
        for (slot, &v) in tiles.iter_mut().zip(values) {
            if v >= cells as u64 {
                return Err(BoardError::OutOfRange {
                    value: v,
                    max: cells - 1,
                });
            }
            if seen[v as usize] {
                return Err(BoardError::Duplicate(v as u8));
            }
            seen[v as usize] = true;
            *slot = v as u8;
        }
        Ok(Board {
            width: width as u8,
            tiles,
        })
    }

    /// The width W.
    #[must_use]
    pub fn width(&self) -> usize {
        usize::from(self.width)
    }

    /// The number of cells, W * W.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.width() * self.width()
    }

    /// The tiles in row-major order.
    #[must_use]
    pub fn tiles(&self) -> &[u8] {
        &self.tiles[..self.cells()]
    }

    /// The cell of the blank.
    #[must_use]
    pub fn blank(&self) -> usize {
        self.tiles().iter().position(|&t| t == 0).unwrap_or(0)
    }

    /// Whether this is the goal board.
    #[must_use]
    pub fn is_goal(&self) -> bool {
        self.tiles()
            .iter()
            .enumerate()
            .all(|(i, &t)| usize::from(t) == i)
    }

    /// Whether the goal can be reached, decided by parity without searching.
    ///
    /// For odd W the number of inversions among the tiles (blank excluded) must be even; for
    /// even W the inversions plus the blank's row must be even, since a vertical move changes
    /// the inversion count by W - 1 and the blank's row by one (Johnson and Story, 1879).
    #[must_use]
    pub fn is_solvable(&self) -> bool {
        let tiles: Vec<u8> = self.tiles().iter().copied().filter(|&t| t != 0).collect();
        let mut inversions = 0usize;
        for i in 0..tiles.len() {
            for j in i + 1..tiles.len() {
                if tiles[i] > tiles[j] {
                    inversions += 1;
                }
            }
        }
        if self.width % 2 == 1 {
            inversions.is_multiple_of(2)
        } else {
            (inversions + self.blank() / self.width()).is_multiple_of(2)
        }
    }

    /// The board after the blank moves in `dir`, or `None` if it would leave the board.
    #[must_use]
    pub fn moved(&self, dir: Direction) -> Option<Board> {
        let blank = self.blank();
        let to = Geometry::of(self.width()).neighbour(blank, dir)?;
        let mut next = *self;
        next.tiles.swap(blank, to);
        Some(next)
    }

    /// The mirror image about the main diagonal: tile `t` on cell `c` becomes tile `T(t)` on
    /// cell `T(c)`, where `T` swaps row and column. The goal is its own mirror image, and a
    /// board is exactly as far from the goal as its mirror image.
    #[must_use]
    pub fn reflected(&self) -> Board {
        let w = self.width();
        let mut next = *self;
        for (cell, &t) in self.tiles().iter().enumerate() {
            next.tiles[transpose(w, cell)] = transpose(w, usize::from(t)) as u8;
        }
        next
    }

    /// The board after a sequence of moves, or the index of the first illegal move.
    ///
    /// # Errors
    /// The 0-based index of the first move that would leave the board.
    pub fn replay(&self, moves: &[Direction]) -> Result<Board, usize> {
        let mut board = *self;
        for (i, &dir) in moves.iter().enumerate() {
            board = board.moved(dir).ok_or(i)?;
        }
        Ok(board)
    }
}

impl Board {
    /// Parses whitespace-separated tile numbers into a board without checking solvability
    /// (an instance file may hold an unsolvable line, which the solver then names).
    pub(crate) fn parse_permutation(s: &str) -> Result<Board, BoardError> {
        let values = s
            .split_whitespace()
            .map(|tok| {
                tok.parse::<u64>()
                    .map_err(|_| BoardError::NotANumber(excerpt(tok)))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Board::from_tiles(&values)
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Parses whitespace-separated tile numbers and checks solvability.
    fn from_str(s: &str) -> Result<Board, BoardError> {
        let board = Board::parse_permutation(s)?;
        if board.is_solvable() {
            Ok(board)
        } else {
            Err(BoardError::Unsolvable)
        }
    }
}

impl fmt::Display for Board {
    /// The grid, one row per line, numbers separated by single spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for row in self.tiles().chunks(self.width()) {
            let line: Vec<String> = row.iter().map(u8::to_string).collect();
            writeln!(f, "{}", line.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line: Vec<String> = self.tiles().iter().map(u8::to_string).collect();
        write!(f, "Board({})", line.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_letters_of_either_case() {
        assert_eq!("d".parse(), Ok(Direction::Down));
        for bad in ["", "UL", "x", "\n"] {
            assert!(bad.parse::<Direction>().is_err(), "{bad:?}");
        }
        let odd = "U".repeat(100);
        let quoted = odd.parse::<Direction>().unwrap_err().0;
        assert_eq!(quoted, format!("{}...", "U".repeat(40)));
        assert_eq!(parse_moves(""), Ok(Vec::new()));
        let moves = parse_moves("RDlu").unwrap();
        assert_eq!(moves_to_string(&moves), "RDLU");
        assert_eq!(parse_moves("R\tD"), Err(NotAMove("\\t".into())));
    }

    #[test]
    fn parses_and_renders() {
        let b: Board = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3".parse().unwrap();
        assert_eq!(b.width(), 4);
        assert_eq!(b.blank(), 9);
        assert_eq!(b.to_string(), "14 13 15 7\n11 12 9 5\n6 0 2 1\n4 8 10 3\n");
    }

    #[test]
    fn rejects_bad_lines() {
        assert_eq!("1 2 3".parse::<Board>(), Err(BoardError::WrongCount(3)));
        assert_eq!(
            "0 1 2 3 4 5 6 7 x".parse::<Board>(),
            Err(BoardError::NotANumber("x".into()))
        );
        assert_eq!(
            "0 1 2 3 4 5 6 7 9".parse::<Board>(),
            Err(BoardError::OutOfRange { value: 9, max: 8 })
        );
        assert_eq!(
            "0 1 2 3 4 5 6 7 7".parse::<Board>(),
            Err(BoardError::Duplicate(7))
        );
        assert_eq!(
            "0 2 1 3 4 5 6 7 8".parse::<Board>(),
            Err(BoardError::Unsolvable)
        );
        assert_eq!(
            "0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15".parse::<Board>(),
            Err(BoardError::Unsolvable)
        );
    }

    #[test]
    fn parity_matches_reachability() {
        // Every board reached by moves from the goal is solvable; swapping two tiles is not.
        for width in 3..=5 {
            let mut board = Board::goal(width);
            let mut seed = 12345u64;
            for _ in 0..500 {
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                if let Some(next) = board.moved(Direction::from_index((seed >> 33) as u32)) {
                    board = next;
                }
                assert!(board.is_solvable(), "{board:?}");
                let mut swapped = board;
                let (a, b) = if board.blank() > 1 { (0, 1) } else { (2, 3) };
                swapped.tiles.swap(a, b);
                assert!(!swapped.is_solvable(), "{swapped:?}");
            }
        }
    }

    #[test]
    fn replay_reports_illegal_move() {
        let goal = Board::goal(3);
        assert_eq!(goal.replay(&[Direction::Up]), Err(0));
        let b = goal.replay(&[Direction::Right, Direction::Down]).unwrap();
        assert_eq!(b.tiles(), &[1, 4, 2, 3, 0, 5, 6, 7, 8]);
        assert_eq!(b.replay(&[Direction::Up, Direction::Left]).unwrap(), goal);
    }
}
