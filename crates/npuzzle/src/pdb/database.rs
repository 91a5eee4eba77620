//! A pattern database: one table per pattern, packed four bits per placement.
//!
//! A pattern's value counts moves of its own tiles only, and each such move changes the
//! pattern's Manhattan distance by exactly one; so the value is the Manhattan distance plus
//! an even number of extra moves. The table stores half of that excess, which fits in four
//! bits for every published partition (half the size of a byte per entry), and a
//! lookup adds it back to the Manhattan distance the search keeps anyway.

use rayon::prelude::*;

use super::build::{UNSEEN, build};
use super::partition::Partition;
use super::pattern::Pattern;
use crate::board::Board;
use crate::error::PdbError;
use crate::heuristic::distance_table;

/// The largest excess (value minus Manhattan distance, halved) four bits hold.
const MAX_EXCESS: u8 = 15;

/// The Manhattan distance of tile `tile` on cell `cell` of a `width`-wide board.
fn distance(width: usize, tile: usize, cell: usize) -> u32 {
    u32::from(distance_table(width)[tile][cell])
}

/// Additive pattern databases for one partition, built in memory or read from a file.
///
/// The tables are always this process's own memory, never a mapping of the file: a mapped
/// file that another program truncates kills its reader with SIGBUS at the next lookup, while
/// a copy cannot change under the search.
#[derive(Debug)]
pub struct PatternDatabase {
    partition: Partition,
    data: Vec<u8>,
    /// Byte range of each pattern's table in `data`.
    ranges: Vec<(usize, usize)>,
    /// Whether the tables were read from a file.
    loaded: bool,
}

/// Byte length of a packed table of `entries` values.
pub(crate) fn packed_len(entries: u64) -> usize {
    entries.div_ceil(2) as usize
}

impl PatternDatabase {
    /// Builds the databases of `partition` in memory, every pattern with all cores.
    /// `progress(pattern, depth, placements_reached)` is called after each depth of each
    /// pattern's search.
    ///
    /// # Errors
    /// [`PdbError::Partition`] if a value's excess over the Manhattan distance does not fit the
    /// four-bit packing (no published partition comes close).
    pub fn build(
        partition: &Partition,
        progress: &(dyn Fn(usize, u32, u64) + Sync),
    ) -> Result<Self, PdbError> {
        let mut data = Vec::with_capacity(
            partition
                .patterns()
                .iter()
                .map(|p| packed_len(p.entries()))
                .sum(),
        );
        for (i, pattern) in partition.patterns().iter().enumerate() {
            let values = build(pattern, &|depth, reached| progress(i, depth, reached));
            data.extend(pack(pattern, &values)?);
        }
        Ok(Self::from_data(partition.clone(), data, false))
    }

    /// Wraps packed tables (already checked to have the right length); `loaded` says whether
    /// they come from a file.
    pub(crate) fn from_data(partition: Partition, data: Vec<u8>, loaded: bool) -> Self {
        let mut ranges = Vec::with_capacity(partition.patterns().len());
        let mut start = 0;
        for p in partition.patterns() {
            let len = packed_len(p.entries());
            ranges.push((start, len));
            start += len;
        }
        debug_assert_eq!(start, data.len());
        Self {
            partition,
            data,
            ranges,
            loaded,
        }
    }

    /// The partition.
    #[must_use]
    pub fn partition(&self) -> &Partition {
        &self.partition
    }

    /// All packed tables, back to back (what the file stores after its header).
    #[must_use]
    pub fn data(&self) -> &[u8] {
        &self.data
    }

    /// The packed table of pattern `i`.
    #[must_use]
    pub fn table(&self, i: usize) -> &[u8] {
        let (start, len) = self.ranges[i];
        &self.data[start..start + len]
    }

    /// Whether the tables were read from a file (rather than built in this process).
    #[must_use]
    pub fn is_loaded(&self) -> bool {
        self.loaded
    }

    /// The value of pattern `i` for its tiles at `positions` (in the pattern's tile order):
    /// the least number of moves of these tiles that brings them home.
    #[must_use]
    pub fn pattern_value(&self, i: usize, positions: &[u8]) -> u32 {
        let pattern = &self.partition.patterns()[i];
        let md: u32 = pattern
            .tiles()
            .iter()
            .zip(positions)
            .map(|(&t, &p)| distance(pattern.width(), usize::from(t), usize::from(p)))
            .sum();
        md + 2 * u32::from(nibble(self.table(i), pattern.rank(positions)))
    }

    /// The additive heuristic of `board`, without reflection.
    ///
    /// # Errors
    /// [`PdbError::WrongWidth`] if the board is not of the database's size.
    pub fn value(&self, board: &Board) -> Result<u32, PdbError> {
        self.check_width(board.width())?;
        Ok(self.sum(board.tiles()))
    }

    /// The additive heuristic of `board` maximised with its reflection about the main
    /// diagonal: the larger of [`PatternDatabase::value`] for the board and for its mirror
    /// image (tile `t` on cell `c` becomes tile `T(t)` on cell `T(c)`, where `T` transposes).
    ///
    /// # Errors
    /// [`PdbError::WrongWidth`] if the board is not of the database's size.
    pub fn value_reflected(&self, board: &Board) -> Result<u32, PdbError> {
        self.check_width(board.width())?;
        Ok(self
            .sum(board.tiles())
            .max(self.sum(board.reflected().tiles())))
    }

    /// Fails unless boards of `width` fit the database.
    ///
    /// # Errors
    /// [`PdbError::WrongWidth`] otherwise.
    pub fn check_width(&self, width: usize) -> Result<(), PdbError> {
        if width == self.partition.width() {
            Ok(())
        } else {
            Err(PdbError::WrongWidth {
                partition: self.partition.to_string(),
                width,
            })
        }
    }

    /// The sum of the pattern values for tiles laid out as `tiles` (cell to tile).
    fn sum(&self, tiles: &[u8]) -> u32 {
        let mut cell_of = [0u8; 25];
        for (cell, &t) in tiles.iter().enumerate() {
            cell_of[usize::from(t)] = cell as u8;
        }
        let mut positions = [0u8; 25];
        let mut total = 0;
        for (i, pattern) in self.partition.patterns().iter().enumerate() {
            let k = pattern.tiles().len();
            for (p, &t) in positions.iter_mut().zip(pattern.tiles()) {
                *p = cell_of[usize::from(t)];
            }
            total += self.pattern_value(i, &positions[..k]);
        }
        total
    }
}

/// Entry `index` of a packed table.
#[inline(always)]
pub(crate) fn nibble(table: &[u8], index: u64) -> u8 {
    (table[(index >> 1) as usize] >> ((index & 1) << 2)) & 0xF
}

/// Packs one pattern's byte values into half-excess nibbles.
fn pack(pattern: &Pattern, values: &[u8]) -> Result<Vec<u8>, PdbError> {
    const CHUNK: usize = 1 << 15;
    let k = pattern.tiles().len();
    let width = pattern.width();
    let mut packed = vec![0u8; packed_len(values.len() as u64)];
    let worst = packed
        .par_chunks_mut(CHUNK)
        .enumerate()
        .map(|(c, bytes)| {
            let mut positions = [0u8; 25];
            let mut worst = 0u8;
            for (j, byte) in bytes.iter_mut().enumerate() {
                for half in 0..2 {
                    let index = ((c * CHUNK + j) << 1) + half;
                    let Some(&value) = values.get(index) else {
                        break;
                    };
                    if value == UNSEEN {
                        continue;
                    }
                    pattern.unrank(index as u64, &mut positions[..k]);
                    let md: u32 = pattern
                        .tiles()
                        .iter()
                        .zip(&positions)
                        .map(|(&t, &p)| distance(width, usize::from(t), usize::from(p)))
                        .sum();
                    let excess = ((u32::from(value) - md) / 2) as u8;
                    debug_assert_eq!((u32::from(value) - md) % 2, 0);
                    worst = worst.max(excess);
                    *byte |= excess.min(MAX_EXCESS) << (half * 4);
                }
            }
            worst
        })
        .max()
        .unwrap_or(0);
    if worst > MAX_EXCESS {
        return Err(PdbError::Partition(format!(
            "pattern {:?} has values {worst} x 2 moves above Manhattan distance, more than \
             four bits hold",
            pattern.tiles()
        )));
    }
    Ok(packed)
}
