//! Positions: directions, and the objects and the player as bit sets over cells.

/// A direction of movement, written `^ v < >`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// `^`
    Up,
    /// `v`
    Down,
    /// `<`
    Left,
    /// `>`
    Right,
}

impl Dir {
    /// Every direction.
    pub const ALL: [Dir; 4] = [Dir::Up, Dir::Down, Dir::Left, Dir::Right];

    /// The character in solution strings.
    #[must_use]
    pub fn symbol(self) -> char {
        match self {
            Dir::Up => '^',
            Dir::Down => 'v',
            Dir::Left => '<',
            Dir::Right => '>',
        }
    }

    /// The opposite direction.
    #[must_use]
    pub fn opposite(self) -> Dir {
        match self {
            Dir::Up => Dir::Down,
            Dir::Down => Dir::Up,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        }
    }

    /// Parses a solution character.
    #[must_use]
    pub fn from_symbol(c: char) -> Option<Dir> {
        match c {
            '^' => Some(Dir::Up),
            'v' => Some(Dir::Down),
            '<' => Some(Dir::Left),
            '>' => Some(Dir::Right),
            _ => None,
        }
    }
}

/// The movable part of a position: objects as bit sets over cells, and the player's cell.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    /// Empty boxes `$`.
    pub empty: u64,
    /// Full boxes `*`.
    pub full: u64,
    /// Balls `O`.
    pub balls: u64,
    /// The player's cell.
    pub player: u8,
}

/// The positions of the bits set in `mask` (cells, or slots), lowest first.
pub(crate) fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            bit
        })
    })
}
