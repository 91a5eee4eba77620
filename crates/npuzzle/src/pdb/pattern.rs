//! Patterns (sets of tiles) and the perfect hash of their placements.

/// Bits set in each 16-bit value (the baseline x86-64 target has no `popcnt` instruction).
static POPCOUNT16: [u8; 1 << 16] = {
    let mut table = [0u8; 1 << 16];
    let mut i = 1;
    while i < table.len() {
        table[i] = table[i >> 1] + (i & 1) as u8;
        i += 1;
    }
    table
};

/// Bits set in a mask of up to 32 bits, by table.
#[inline(always)]
pub(crate) fn popcount(mask: u32) -> u32 {
    u32::from(POPCOUNT16[(mask & 0xFFFF) as usize]) + u32::from(POPCOUNT16[(mask >> 16) as usize])
}

/// A set of tiles of a `width x width` puzzle whose placements a database covers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pattern {
    width: usize,
    tiles: Vec<u8>,
}

impl Pattern {
    /// The pattern of `tiles` (nonzero, distinct, below width * width).
    ///
    /// # Panics
    /// If the tiles are not valid for the width.
    #[must_use]
    pub fn new(width: usize, tiles: &[u8]) -> Self {
        let cells = width * width;
        assert!((3..=5).contains(&width), "width must be 3, 4 or 5");
        assert!(!tiles.is_empty() && tiles.len() < cells, "pattern size");
        for (i, &t) in tiles.iter().enumerate() {
            assert!(
                t != 0 && usize::from(t) < cells && !tiles[..i].contains(&t),
                "tile {t}"
            );
        }
        Self {
            width,
            tiles: tiles.to_vec(),
        }
    }

    /// The puzzle's width.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// The puzzle's cell count.
    #[must_use]
    pub fn cells(&self) -> usize {
        self.width * self.width
    }

    /// The pattern's tiles, in the order of the placement's digits.
    #[must_use]
    pub fn tiles(&self) -> &[u8] {
        &self.tiles
    }

    /// Placements: cells! / (cells - k)!.
    #[must_use]
    pub fn entries(&self) -> u64 {
        let c = self.cells() as u64;
        (0..self.tiles.len() as u64).map(|i| c - i).product()
    }

    /// The index of a placement (`positions[i]` is the cell of `tiles()[i]`): a mixed-radix
    /// number whose i-th digit is the rank of `positions[i]` among the cells not used by
    /// earlier tiles (the lexicographic rank of a k-permutation).
    #[inline]
    #[must_use]
    pub fn rank(&self, positions: &[u8]) -> u64 {
        let cells = self.cells() as u64;
        let mut used = 0u32;
        let mut index = 0u64;
        for (i, &p) in positions.iter().enumerate() {
            let below = popcount(used & ((1u32 << p) - 1));
            index = index * (cells - i as u64) + u64::from(u32::from(p) - below);
            used |= 1 << p;
        }
        index
    }

    /// The placement of an index: the inverse of [`Pattern::rank`].
    #[inline]
    pub fn unrank(&self, mut index: u64, positions: &mut [u8]) {
        let cells = self.cells() as u64;
        let k = self.tiles.len();
        let mut digits = [0u8; 25];
        if index <= u64::from(u32::MAX) {
            // 32-bit division is much cheaper, and every database here has < 2^32 entries.
            let mut small = index as u32;
            for i in (0..k).rev() {
                let radix = (cells - i as u64) as u32;
                digits[i] = (small % radix) as u8;
                small /= radix;
            }
        } else {
            for i in (0..k).rev() {
                let radix = cells - i as u64;
                digits[i] = (index % radix) as u8;
                index /= radix;
            }
        }
        let mut used = 0u32;
        for i in 0..k {
            let mut free = !used & ((1u32 << cells) - 1);
            for _ in 0..digits[i] {
                free &= free - 1;
            }
            let cell = free.trailing_zeros() as u8;
            positions[i] = cell;
            used |= 1 << cell;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_and_unrank_are_inverse_and_dense() {
        let pattern = Pattern::new(3, &[3, 1, 7]);
        assert_eq!(pattern.entries(), 9 * 8 * 7);
        let mut seen = vec![false; 504];
        let mut positions = [0u8; 3];
        for a in 0..9u8 {
            for b in (0..9u8).filter(|&b| b != a) {
                for c in (0..9u8).filter(|&c| c != a && c != b) {
                    let index = pattern.rank(&[a, b, c]) as usize;
                    assert!(!seen[index]);
                    seen[index] = true;
                    pattern.unrank(index as u64, &mut positions);
                    assert_eq!(positions, [a, b, c]);
                }
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
