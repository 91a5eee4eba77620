//! Building a pattern database: a breadth-first search backwards from the goal in the
//! abstract space of pattern placements and blank positions, where a move of a pattern tile
//! costs 1 and a move of any other tile costs 0 (Korf and Felner, "Disjoint pattern database
//! heuristics", Artificial Intelligence 134, 2002; Felner, Korf and Hanan, "Additive pattern
//! database heuristics", JAIR 22, 2004).
//!
//! Free moves never change the placement, only where the blank is within its connected region
//! of non-pattern cells, so a state is a placement plus one such region. Each placement keeps
//! three small bit sets over its free cells (in cell order): regions seen, regions of the
//! current depth, regions of the next depth. A depth scans all placements in parallel and
//! expands the current ones; the database value of a placement is the depth it was first
//! reached at.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use super::pattern::{Pattern, popcount};

/// Value of a placement not reached (never left after a complete build).
pub const UNSEEN: u8 = u8::MAX;

/// An atomic bit set over a placement's free cells.
trait Word: Send + Sync {
    fn zero() -> Self;
    fn get(&self) -> u32;
    fn or(&self, bits: u32) -> u32;
    fn clear(&self);
}

macro_rules! word {
    ($atomic:ty, $int:ty) => {
        impl Word for $atomic {
            fn zero() -> Self {
                <$atomic>::new(0)
            }
            #[inline]
            fn get(&self) -> u32 {
                u32::from(self.load(Ordering::Relaxed))
            }
            #[inline]
            fn or(&self, bits: u32) -> u32 {
                u32::from(self.fetch_or(bits as $int, Ordering::Relaxed))
            }
            #[inline]
            fn clear(&self) {
                self.store(0, Ordering::Relaxed);
            }
        }
    };
}

word!(AtomicU8, u8);
word!(AtomicU16, u16);
word!(AtomicU32, u32);

/// The grid's bit tricks: neighbours and flood fill over cell masks.
struct Grid {
    width: usize,
    all: u32,
    not_first_column: u32,
    not_last_column: u32,
    neighbours: [u32; 25],
}

impl Grid {
    fn new(width: usize) -> Self {
        let cells = width * width;
        let all = (1u32 << cells) - 1;
        let mut first = 0u32;
        let mut last = 0u32;
        for r in 0..width {
            first |= 1 << (r * width);
            last |= 1 << (r * width + width - 1);
        }
        let mut neighbours = [0u32; 25];
        for (cell, n) in neighbours.iter_mut().enumerate().take(cells) {
            let (r, c) = (cell / width, cell % width);
            if r > 0 {
                *n |= 1 << (cell - width);
            }
            if r + 1 < width {
                *n |= 1 << (cell + width);
            }
            if c > 0 {
                *n |= 1 << (cell - 1);
            }
            if c + 1 < width {
                *n |= 1 << (cell + 1);
            }
        }
        Self {
            width,
            all,
            not_first_column: all & !first,
            not_last_column: all & !last,
            neighbours,
        }
    }

    /// The cells of `free` connected to `seed`.
    #[inline]
    fn flood(&self, seed: u32, free: u32) -> u32 {
        let mut region = seed;
        loop {
            let grown = (region
                | ((region << 1) & self.not_first_column)
                | ((region >> 1) & self.not_last_column)
                | (region << self.width)
                | (region >> self.width))
                & free
                & self.all;
            let grown = grown | seed;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }
}

/// `cells` (a subset of `free`) as bits in the order of `free`'s cells.
#[inline]
fn compress(cells: u32, mut free: u32) -> u32 {
    let mut bits = 0;
    let mut bit = 1;
    while free != 0 {
        let low = free & free.wrapping_neg();
        if cells & low != 0 {
            bits |= bit;
        }
        bit <<= 1;
        free ^= low;
    }
    bits
}

/// The inverse of [`compress`].
#[inline]
fn decompress(mut bits: u32, mut free: u32) -> u32 {
    let mut cells = 0;
    while free != 0 && bits != 0 {
        let low = free & free.wrapping_neg();
        if bits & 1 != 0 {
            cells |= low;
        }
        bits >>= 1;
        free ^= low;
    }
    cells
}

/// Builds the database of `pattern`: one byte per placement, the least number of pattern-tile
/// moves that bring the pattern home. `progress(depth, placements_reached)` is called after
/// each depth.
#[must_use]
pub fn build(pattern: &Pattern, progress: &(dyn Fn(u32, u64) + Sync)) -> Vec<u8> {
    let free = pattern.cells() - pattern.tiles().len();
    if free <= 8 {
        build_with::<AtomicU8>(pattern, progress)
    } else if free <= 16 {
        build_with::<AtomicU16>(pattern, progress)
    } else {
        build_with::<AtomicU32>(pattern, progress)
    }
}

fn build_with<W: Word>(pattern: &Pattern, progress: &(dyn Fn(u32, u64) + Sync)) -> Vec<u8> {
    let entries = pattern.entries() as usize;
    let grid = Grid::new(pattern.width());
    let k = pattern.tiles().len();
    let dist: Vec<AtomicU8> = (0..entries)
        .into_par_iter()
        .map(|_| AtomicU8::new(UNSEEN))
        .collect();
    let seen: Vec<W> = (0..entries).into_par_iter().map(|_| W::zero()).collect();
    let mut current: Vec<W> = (0..entries).into_par_iter().map(|_| W::zero()).collect();
    let mut next: Vec<W> = (0..entries).into_par_iter().map(|_| W::zero()).collect();

    let goal: Vec<u8> = pattern.tiles().to_vec();
    let occupied = goal.iter().fold(0u32, |m, &p| m | 1 << p);
    let free = grid.all & !occupied;
    let start = pattern.rank(&goal) as usize;
    let bits = compress(grid.flood(1, free), free);
    seen[start].or(bits);
    current[start].or(bits);
    dist[start].store(0, Ordering::Relaxed);
    let reached = AtomicU64::new(1);
    let mut depth = 0u32;
    loop {
        let expanded = AtomicU64::new(0);
        current
            .par_chunks(1 << 14)
            .enumerate()
            .for_each(|(chunk, words)| {
                let mut positions = [0u8; 25];
                let mut count = 0u64;
                for (j, word) in words.iter().enumerate() {
                    let regions = word.get();
                    if regions == 0 {
                        continue;
                    }
                    word.clear();
                    count += 1;
                    let index = (chunk << 14) + j;
                    pattern.unrank(index as u64, &mut positions[..k]);
                    let occupied = positions[..k].iter().fold(0u32, |m, &p| m | 1 << p);
                    let free = grid.all & !occupied;
                    let blank = decompress(regions, free);
                    for i in 0..k {
                        let from = positions[i];
                        let mut targets = grid.neighbours[usize::from(from)] & blank;
                        while targets != 0 {
                            let to = targets.trailing_zeros() as u8;
                            targets &= targets - 1;
                            positions[i] = to;
                            let child = pattern.rank(&positions[..k]) as usize;
                            positions[i] = from;
                            let child_free = (free & !(1 << to)) | (1 << from);
                            // The blank's new cell alone tells whether its region was seen.
                            let bit = 1 << popcount(child_free & ((1 << from) - 1));
                            if seen[child].get() & bit != 0 {
                                continue;
                            }
                            let region = compress(grid.flood(1 << from, child_free), child_free);
                            if seen[child].or(region) & region == 0 {
                                next[child].or(region);
                                if dist[child]
                                    .compare_exchange(
                                        UNSEEN,
                                        (depth + 1) as u8,
                                        Ordering::Relaxed,
                                        Ordering::Relaxed,
                                    )
                                    .is_ok()
                                {
                                    reached.fetch_add(1, Ordering::Relaxed);
                                }
                            }
                        }
                    }
                }
                expanded.fetch_add(count, Ordering::Relaxed);
            });
        if expanded.load(Ordering::Relaxed) == 0 {
            break;
        }
        depth += 1;
        progress(depth, reached.load(Ordering::Relaxed));
        std::mem::swap(&mut current, &mut next);
    }
    dist.into_iter().map(AtomicU8::into_inner).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use std::collections::{HashMap, VecDeque};

    #[test]
    fn flood_compress_and_decompress() {
        let grid = Grid::new(4);
        // Cells 0, 1, 4 free and connected; 15 free but apart.
        let free = 0b1000_0000_0001_0011;
        assert_eq!(grid.flood(1, free), 0b1_0011);
        assert_eq!(grid.flood(1 << 15, free), 1 << 15);
        // Row wrap: cell 3 and cell 4 are not neighbours.
        assert_eq!(grid.flood(1 << 3, 0b1_1000), 1 << 3);
        assert_eq!(compress(0b1_0001, free), 0b101);
        assert_eq!(decompress(0b101, free), 0b1_0001);
    }

    /// With every tile in the pattern, the database is the true distance: check it against a
    /// plain breadth-first search of the whole 8-puzzle.
    #[test]
    fn the_full_pattern_of_the_8_puzzle_is_the_true_distance() {
        let pattern = Pattern::new(3, &[1, 2, 3, 4, 5, 6, 7, 8]);
        let table = build(&pattern, &|_, _| {});
        let goal = Board::goal(3);
        let mut distance = HashMap::new();
        distance.insert(goal, 0u8);
        let mut queue = VecDeque::from([goal]);
        while let Some(board) = queue.pop_front() {
            let d = distance[&board];
            for dir in crate::board::Direction::ALL {
                if let Some(next) = board.moved(dir) {
                    if let std::collections::hash_map::Entry::Vacant(e) = distance.entry(next) {
                        e.insert(d + 1);
                        queue.push_back(next);
                    }
                }
            }
        }
        assert_eq!(distance.len(), 181_440);
        let mut positions = [0u8; 8];
        for (board, &d) in &distance {
            for (cell, &tile) in board.tiles().iter().enumerate() {
                if tile != 0 {
                    positions[usize::from(tile) - 1] = cell as u8;
                }
            }
            assert_eq!(table[pattern.rank(&positions) as usize], d, "{board}");
        }
        // Unsolvable placements are never reached.
        assert_eq!(table.iter().filter(|&&v| v == UNSEEN).count(), 181_440);
    }
}
