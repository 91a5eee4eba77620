//! Cells and directions, and per-width tables: neighbours and legal moves of each cell.

use std::sync::OnceLock;

use ply_search::Filled;

/// The largest supported board has 5 x 5 cells.
pub const MAX_CELLS: usize = 25;

/// A direction in which the blank moves (the tile moves the other way).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Direction {
    /// The blank moves up.
    Up = 0,
    /// The blank moves left.
    Left = 1,
    /// The blank moves right.
    Right = 2,
    /// The blank moves down.
    Down = 3,
}

impl Direction {
    /// All directions, in the order the solver tries them.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Left,
        Direction::Right,
        Direction::Down,
    ];

    /// The direction with index `i` (0..4) in [`Direction::ALL`].
    #[inline(always)]
    #[must_use]
    pub fn from_index(i: u32) -> Direction {
        match i & 3 {
            0 => Direction::Up,
            1 => Direction::Left,
            2 => Direction::Right,
            _ => Direction::Down,
        }
    }

    /// The opposite direction.
    #[inline(always)]
    #[must_use]
    pub fn opposite(self) -> Direction {
        Direction::from_index(3 - self as u32)
    }

    /// The letter used in move strings: `U`, `L`, `R`, `D`.
    #[must_use]
    pub fn letter(self) -> char {
        ['U', 'L', 'R', 'D'][self as usize]
    }

    /// Parses a move letter (either case).
    #[must_use]
    pub fn from_letter(c: char) -> Option<Direction> {
        match c.to_ascii_uppercase() {
            'U' => Some(Direction::Up),
            'L' => Some(Direction::Left),
            'R' => Some(Direction::Right),
            'D' => Some(Direction::Down),
            _ => None,
        }
    }

    /// Whether the move is vertical.
    #[inline(always)]
    #[must_use]
    pub fn is_vertical(self) -> bool {
        matches!(self, Direction::Up | Direction::Down)
    }
}

/// Table rows per width: a power of two so that masking a cell index proves it in bounds.
pub(crate) const SLOTS: usize = 32;

/// The cell of `cell` reflected about the main diagonal of a `width`-wide board; tiles
/// reflect the same way, since a tile's number is its goal cell.
#[inline(always)]
pub(crate) fn transpose(width: usize, cell: usize) -> usize {
    (cell % width) * width + cell / width
}

/// Marks a missing neighbour in [`Geometry`] tables.
const NONE: u8 = u8::MAX;

/// Neighbour tables for one board width, built once and shared (and small enough to copy
/// into a search state, next to the tiles).
#[derive(Clone, Debug)]
pub struct Geometry {
    width: usize,
    neighbours: [[u8; 4]; SLOTS],
    move_masks: [u8; SLOTS],
}

impl Geometry {
    /// The tables of width 3, 4 or 5.
    ///
    /// # Panics
    /// If `width` is not 3, 4 or 5.
    #[must_use]
    pub fn of(width: usize) -> &'static Geometry {
        static TABLES: [OnceLock<Geometry>; 3] =
            [OnceLock::new(), OnceLock::new(), OnceLock::new()];
        assert!((3..=5).contains(&width), "width must be 3, 4 or 5");
        TABLES[width - 3].get_or_init(|| Geometry::build(width))
    }

    fn build(width: usize) -> Geometry {
        let mut neighbours = [[NONE; 4]; SLOTS];
        let mut move_masks = [0; SLOTS];
        debug_assert!(width * width <= MAX_CELLS);
        for cell in 0..width * width {
            let (r, c) = (cell / width, cell % width);
            for dir in Direction::ALL {
                let target = match dir {
                    Direction::Up if r > 0 => Some(cell - width),
                    Direction::Down if r + 1 < width => Some(cell + width),
                    Direction::Left if c > 0 => Some(cell - 1),
                    Direction::Right if c + 1 < width => Some(cell + 1),
                    _ => None,
                };
                if let Some(t) = target {
                    neighbours[cell][dir as usize] = t as u8;
                    move_masks[cell] |= 1 << dir as u8;
                }
            }
        }
        Geometry {
            width,
            neighbours,
            move_masks,
        }
    }

    /// The width W.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// The cell next to `cell` in direction `dir`, if it is on the board.
    #[inline(always)]
    #[must_use]
    pub fn neighbour(&self, cell: usize, dir: Direction) -> Option<usize> {
        match self.neighbours[cell & (SLOTS - 1)][dir as usize] {
            NONE => None,
            t => Some(usize::from(t)),
        }
    }

    /// The cell next to `cell` in direction `dir`, which must be on the board.
    #[inline(always)]
    #[must_use]
    pub fn neighbour_unchecked(&self, cell: usize, dir: Direction) -> usize {
        usize::from(self.neighbours[cell & (SLOTS - 1)][dir as usize & 3])
    }

    /// The legal directions of a blank on `cell`, as a bit set over direction indices.
    #[inline(always)]
    #[must_use]
    pub fn move_mask(&self, cell: usize) -> u8 {
        self.move_masks[cell & (SLOTS - 1)]
    }
}

/// Iterates over the directions in a bit set, in [`Direction::ALL`] order.
#[derive(Clone, Copy, Debug)]
pub struct Directions(pub u8);

impl Iterator for Directions {
    type Item = Direction;

    #[inline(always)]
    fn next(&mut self) -> Option<Direction> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros();
        self.0 &= self.0 - 1;
        Some(Direction::from_index(i))
    }

    #[inline(always)]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for Directions {}

/// The blank's moves from one cell as ply-search's IDA* move slots (see
/// [`ply_search::IdaProblem::Moves`]); each heuristic picks the loop shape that suits it.
pub trait MoveSlots: Iterator<Item = Option<Direction>> {
    /// The slots of the directions in `mask`, a bit set over direction indices.
    fn from_mask(mask: u8) -> Self;
}

/// Only the available directions: a short loop, best when each child costs much (linear
/// conflict, pattern databases) and the code of one iteration is large.
impl MoveSlots for Filled<Directions> {
    #[inline(always)]
    fn from_mask(mask: u8) -> Self {
        Filled(Directions(mask))
    }
}

/// One slot per direction, in [`Direction::ALL`] order, empty where the direction is not in
/// the set: a fixed-length loop the compiler unrolls, best when each child costs little
/// (Manhattan distance: 1.2x the speed of [`Directions`]).
#[derive(Clone, Debug)]
pub struct AllDirections(std::array::IntoIter<Option<Direction>, 4>);

impl Iterator for AllDirections {
    type Item = Option<Direction>;

    #[inline(always)]
    fn next(&mut self) -> Option<Option<Direction>> {
        self.0.next()
    }
}

impl MoveSlots for AllDirections {
    #[inline(always)]
    fn from_mask(mask: u8) -> Self {
        AllDirections(
            Direction::ALL
                .map(|d| (mask & 1 << d as u8 != 0).then_some(d))
                .into_iter(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_have_two_moves_and_centre_four() {
        let g = Geometry::of(4);
        assert_eq!(g.move_mask(0).count_ones(), 2);
        assert_eq!(g.move_mask(15).count_ones(), 2);
        assert_eq!(g.move_mask(5).count_ones(), 4);
        assert_eq!(g.neighbour(0, Direction::Up), None);
        assert_eq!(g.neighbour(0, Direction::Right), Some(1));
        assert_eq!(g.neighbour(0, Direction::Down), Some(4));
        let dirs: Vec<_> = Directions(g.move_mask(0)).collect();
        assert_eq!(dirs, vec![Direction::Right, Direction::Down]);
    }
}
