//! Building a pattern database: a breadth-first search backwards from the goal in the
//! abstract space of pattern placements and blank positions, where a move of a pattern tile
//! costs 1 and a move of any other tile costs 0 (Korf and Felner, "Disjoint pattern database
//! heuristics", Artificial Intelligence 134, 2002; Felner, Korf and Hanan, "Additive pattern
//! database heuristics", JAIR 22, 2004).
//!
//! Free moves never change the placement, only where the blank is within its connected region
//! of non-pattern cells, so a state is a placement plus one such region. Each placement keeps,
//! in one cache line, three small bit sets over its free cells (in cell order: a region is
//! named by its cells' bits) for the regions seen, those of the current depth and those of
//! the next, and the depth it was first reached at, which becomes its database value. A depth
//! scans all placements in parallel and expands the current ones.

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU32, Ordering};

use rayon::prelude::*;

use super::bits::{Bits, Bmi2, Portable};
use super::pattern::{Pattern, popcount};
use ply_search::{advise_huge_pages, prefetch};

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

/// The grid's bit tricks: flood fill over cell masks.
struct Grid {
    width: usize,
    all: u32,
    not_first_column: u32,
    not_last_column: u32,
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
        Self {
            width,
            all,
            not_first_column: all & !first,
            not_last_column: all & !last,
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

/// One placement as [`ChildRanks::children`] needs it, kept up to date by [`Odometer`].
struct Layout {
    /// `positions[i]`: the cell of tile `i`.
    positions: [u8; 25],
    /// `prefix[i]`: the cells of tiles `0..i` (`prefix[k]`: all of them).
    prefix: [u32; 26],
    /// The place value of the digit of the tile on each occupied cell (other entries are
    /// stale and never read).
    weight_at: [usize; 32],
}

/// Ranks of children from their parent's rank without ranking again (see [`Pattern::rank`]).
///
/// When tile `i` moves from `from` to `to`, digit `i` changes by `to - from` less the change
/// in the number of earlier tiles below it, and a later tile's digit changes by one when its
/// cell lies strictly between `from` and `to`. A horizontal move passes no cell, so the index
/// changes by the weight of digit `i` alone; a vertical move passes the `width - 1` cells in
/// between.
struct ChildRanks {
    width: usize,
    /// `weights[i]`: the place value of digit `i`.
    weights: [usize; 25],
    /// The cells outside the first and outside the last column (see [`Grid`]).
    not_first_column: u32,
    not_last_column: u32,
}

impl ChildRanks {
    fn new(pattern: &Pattern, grid: &Grid) -> Self {
        let k = pattern.tiles().len();
        let cells = pattern.cells();
        let mut weights = [0usize; 25];
        let mut w = 1;
        for i in (0..k).rev() {
            weights[i] = w;
            w *= cells - i;
        }
        Self {
            width: pattern.width(),
            weights,
            not_first_column: grid.not_first_column,
            not_last_column: grid.not_last_column,
        }
    }

    /// The distance a vertical move of tile `i` from `low` to `low + width` (down, or the
    /// reverse, up) changes the index of the placement laid out as `layout` by; `k` is the
    /// number of tiles. Without branches: the cells passed are a fixed run of `width - 1`.
    #[inline(always)]
    fn vertical_step<B: Bits>(
        &self,
        bits: B,
        layout: &Layout,
        k: usize,
        i: usize,
        low: u32,
    ) -> usize {
        let run = (1u32 << (self.width - 1)) - 1;
        let between = run.wrapping_shl(low.wrapping_add(1));
        let earlier = bits.popcount(layout.prefix[i] & between) as usize;
        let mut step = self.weights[i] * (self.width - earlier);
        let later = between & layout.prefix[k] & !layout.prefix[i + 1];
        for j in 1..self.width as u32 {
            let cell = low.wrapping_add(j);
            let passed = (later.wrapping_shr(cell) & 1) as usize;
            step += passed * layout.weight_at[cell as usize & 31];
        }
        step
    }

    /// Writes to `out` the children of the placement `index`, laid out as `layout` with `k`
    /// tiles, whose tiles move into the blank cells `blank`: each child's index and the cells
    /// its tile moves from and to. Returns how many there are.
    ///
    /// Every tile tries all four directions without a branch (whether a move is legal is
    /// unpredictable): an illegal one is written and then overwritten. `out` holds them all:
    /// a pattern has at most [`MAX_PATTERN_TILES`](super::MAX_PATTERN_TILES) (8) tiles.
    #[inline(always)]
    fn children<B: Bits>(
        &self,
        bits: B,
        index: usize,
        layout: &Layout,
        k: usize,
        blank: u32,
        out: &mut [(usize, u8, u8); 64],
    ) -> usize {
        let width = self.width as u32;
        let mut n = 0;
        for (i, &from) in layout.positions[..k].iter().enumerate() {
            let f = u32::from(from);
            let open = |to: u32| (blank.wrapping_shr(to) & 1) as usize;
            let weight = self.weights[i];
            let not_first = (self.not_first_column >> f & 1) as usize;
            let not_last = (self.not_last_column >> f & 1) as usize;
            // Left, right, up, down: each entry is kept only if its move is legal.
            let left = f.wrapping_sub(1);
            out[n & 63] = (index.wrapping_sub(weight), from, left as u8);
            n += not_first & open(left);
            let right = f + 1;
            out[n & 63] = (index.wrapping_add(weight), from, right as u8);
            n += not_last & open(right);
            let up = f.wrapping_sub(width);
            let step = self.vertical_step(bits, layout, k, i, up);
            out[n & 63] = (index.wrapping_sub(step), from, up as u8);
            n += usize::from(f >= width) & open(up);
            let down = f + width;
            let step = self.vertical_step(bits, layout, k, i, f);
            out[n & 63] = (index.wrapping_add(step), from, down as u8);
            n += open(down);
        }
        n
    }
}

/// Placements scanned by one task.
const CHUNK: usize = 1 << 14;

/// How many expanded placements have their children's cells fetched ahead of examining them.
const AHEAD: usize = 4;

/// The children of an expanded placement, waiting for their cells to arrive in the cache.
#[derive(Clone, Copy)]
struct Pending {
    /// The placement's free cells.
    free: u32,
    /// How many children there are.
    n: usize,
    /// Each child's index and the cells its tile moves from and to.
    children: [(usize, u8, u8); 64],
}

impl Pending {
    const EMPTY: Pending = Pending {
        free: 0,
        n: 0,
        children: [(0, 0, 0); 64],
    };

    /// Records the children not seen before in `cells` as reached at `depth + 1` and
    /// returns how many placements were reached for the first time.
    #[inline(always)]
    fn examine<W: Word, B: Bits>(
        &self,
        bits: B,
        cells: &[Cell<W>],
        grid: &Grid,
        odd: bool,
        depth: u32,
    ) -> u64 {
        // First the children not seen yet, listed without a branch per child (whether a
        // child is new is a coin toss the processor cannot predict); then the work on them.
        let mut fresh = [0u8; 64];
        let mut m = 0;
        for (c, &(child, from, to)) in self.children[..self.n].iter().enumerate() {
            let child_free = (self.free & !(1 << to)) | (1 << from);
            // The blank's new cell alone tells whether its region was seen.
            let bit = 1 << bits.popcount(child_free & ((1 << from) - 1));
            fresh[m & 63] = c as u8;
            m += usize::from(cells[child].seen.get() & bit == 0);
        }
        let mut found = 0;
        for &c in &fresh[..m.min(64)] {
            let (child, from, to) = self.children[usize::from(c) & 63];
            let child_free = (self.free & !(1 << to)) | (1 << from);
            let target = &cells[child];
            let region = bits.compress(grid.flood(1 << from, child_free), child_free);
            let before = target.seen.or(region);
            if before & region == 0 {
                target.frontiers(odd).1.or(region);
                if before == 0 {
                    // Only the thread that sets the first seen bit gets here.
                    target.depth.store((depth + 1) as u8, Ordering::Relaxed);
                    found += 1;
                }
            }
        }
        found
    }
}

/// Walks placements in index order without dividing: the mixed-radix digits of the index
/// (see [`Pattern::rank`]) count up like an odometer, and the cells are recomputed only from
/// the first digit that changed.
struct Odometer {
    k: usize,
    cells: u8,
    digits: [u8; 25],
    weights: [usize; 25],
    layout: Layout,
    /// The first digit whose cell is out of date.
    stale: usize,
}

impl Odometer {
    fn new(pattern: &Pattern, ranks: &ChildRanks, index: u64) -> Self {
        let k = pattern.tiles().len();
        let mut layout = Layout {
            positions: [0; 25],
            prefix: [0; 26],
            weight_at: [0; 32],
        };
        pattern.unrank(index, &mut layout.positions[..k]);
        let mut digits = [0u8; 25];
        for (i, digit) in digits.iter_mut().enumerate().take(k) {
            let p = layout.positions[i];
            *digit = p - popcount(layout.prefix[i] & ((1 << p) - 1)) as u8;
            layout.prefix[i + 1] = layout.prefix[i] | 1 << p;
            layout.weight_at[usize::from(p) & 31] = ranks.weights[i];
        }
        Self {
            k,
            cells: pattern.cells() as u8,
            digits,
            weights: ranks.weights,
            layout,
            stale: k,
        }
    }

    /// Moves `n` indices on (the index reached must exist): a mixed-radix addition that
    /// touches only the digits a carry reaches.
    #[inline]
    fn skip(&mut self, n: usize) {
        let mut i = self.k - 1;
        // Placements of one chunk are fewer than 2^32 apart.
        let mut carry = n as u32;
        loop {
            let radix = u32::from(self.cells) - i as u32;
            let sum = u32::from(self.digits[i]) + carry;
            if sum < radix {
                self.digits[i] = sum as u8;
                break;
            }
            // Most steps are short and carry one; only long jumps divide.
            (self.digits[i], carry) = if sum < 2 * radix {
                ((sum - radix) as u8, 1)
            } else {
                ((sum % radix) as u8, sum / radix)
            };
            i -= 1;
        }
        self.stale = self.stale.min(i);
    }

    /// The current placement.
    #[inline(always)]
    fn layout<B: Bits>(&mut self, bits: B) -> &Layout {
        let layout = &mut self.layout;
        for i in self.stale..self.k {
            // The cell of digit `d` is the `d`-th free cell.
            let free = !layout.prefix[i] & ((1u32 << self.cells) - 1);
            let cell = bits.decompress(1 << self.digits[i], free).trailing_zeros();
            layout.positions[i] = cell as u8;
            layout.prefix[i + 1] = layout.prefix[i] | 1 << cell;
            layout.weight_at[cell as usize & 31] = self.weights[i];
        }
        self.stale = self.k;
        &self.layout
    }
}

/// Builds the database of `pattern`: one byte per placement, the least number of pattern-tile
/// moves that bring the pattern home. `progress(depth, placements_reached)` is called after
/// each depth.
#[must_use]
pub fn build(pattern: &Pattern, progress: &(dyn Fn(u32, u64) + Sync)) -> Vec<u8> {
    match Bmi2::detect() {
        Some(bmi2) => build_by(pattern, progress, bmi2),
        None => build_by(pattern, progress, Portable),
    }
}

/// [`build`] with the bit operations of `bits`.
fn build_by<B: Bits>(pattern: &Pattern, progress: &(dyn Fn(u32, u64) + Sync), bits: B) -> Vec<u8> {
    let free = pattern.cells() - pattern.tiles().len();
    if free <= 8 {
        build_with::<AtomicU8, B>(pattern, progress, bits)
    } else if free <= 16 {
        build_with::<AtomicU16, B>(pattern, progress, bits)
    } else {
        build_with::<AtomicU32, B>(pattern, progress, bits)
    }
}

/// Everything the search keeps about one placement, in one cache line: the blank regions
/// seen, those of two consecutive depths (the roles of `a` and `b` alternate), and the
/// depth the placement was first reached at.
#[repr(C)]
struct Cell<W> {
    seen: W,
    a: W,
    b: W,
    depth: AtomicU8,
}

impl<W: Word> Cell<W> {
    /// The regions of the depth being expanded and of the next one.
    #[inline(always)]
    fn frontiers(&self, odd: bool) -> (&W, &W) {
        if odd {
            (&self.b, &self.a)
        } else {
            (&self.a, &self.b)
        }
    }
}

fn build_with<W: Word, B: Bits>(
    pattern: &Pattern,
    progress: &(dyn Fn(u32, u64) + Sync),
    bits: B,
) -> Vec<u8> {
    let entries = pattern.entries() as usize;
    let grid = Grid::new(pattern.width());
    let k = pattern.tiles().len();
    let mut cells: Vec<Cell<W>> = Vec::with_capacity(entries);
    advise_huge_pages(cells.spare_capacity_mut());
    (0..entries)
        .into_par_iter()
        .map(|_| Cell {
            seen: W::zero(),
            a: W::zero(),
            b: W::zero(),
            depth: AtomicU8::new(UNSEEN),
        })
        .collect_into_vec(&mut cells);

    let goal: Vec<u8> = pattern.tiles().to_vec();
    let occupied = goal.iter().fold(0u32, |m, &p| m | 1 << p);
    let free = grid.all & !occupied;
    let start = &cells[pattern.rank(&goal) as usize];
    let home = bits.compress(grid.flood(1, free), free);
    start.seen.or(home);
    start.a.or(home);
    start.depth.store(0, Ordering::Relaxed);
    let ranks = ChildRanks::new(pattern, &grid);
    let mut reached = 1u64;
    let mut depth = 0u32;
    loop {
        let odd = depth % 2 == 1;
        let (expanded, found) = cells
            .par_chunks(CHUNK)
            .enumerate()
            .map(|(chunk, block)| {
                bits.expand(
                    #[inline(always)]
                    || {
                        let mut walk = Odometer::new(pattern, &ranks, (chunk * CHUNK) as u64);
                        let mut expanded = 0u64;
                        let mut found = 0u64;
                        // Expanded placements wait in a ring while their children's cells are
                        // fetched; each is examined once `AHEAD` later ones have been queued.
                        let mut ring = [Pending::EMPTY; AHEAD];
                        let (mut head, mut queued) = (0, 0);
                        // The odometer stands at placement `at` of the chunk and moves on only to
                        // the placements expanded.
                        let mut at = 0;
                        for (j, cell) in block.iter().enumerate() {
                            let (now, _) = cell.frontiers(odd);
                            let regions = now.get();
                            if regions == 0 {
                                continue;
                            }
                            now.clear();
                            if j > at {
                                walk.skip(j - at);
                                at = j;
                            }
                            expanded += 1;
                            if queued == AHEAD {
                                found += ring[head].examine(bits, &cells, &grid, odd, depth);
                                head = (head + 1) % AHEAD;
                                queued -= 1;
                            }
                            let layout = walk.layout(bits);
                            let free = grid.all & !layout.prefix[k];
                            let blank = bits.decompress(regions, free);
                            let index = chunk * CHUNK + j;
                            let pending = &mut ring[(head + queued) % AHEAD];
                            queued += 1;
                            pending.free = free;
                            pending.n = ranks.children(
                                bits,
                                index,
                                layout,
                                k,
                                blank,
                                &mut pending.children,
                            );
                            for &(child, _, _) in &pending.children[..pending.n] {
                                prefetch(&cells[child]);
                            }
                        }
                        while queued > 0 {
                            found += ring[head].examine(bits, &cells, &grid, odd, depth);
                            head = (head + 1) % AHEAD;
                            queued -= 1;
                        }
                        (expanded, found)
                    },
                )
            })
            .reduce(|| (0, 0), |x, y| (x.0 + y.0, x.1 + y.1));
        if expanded == 0 {
            break;
        }
        depth += 1;
        reached += found;
        progress(depth, reached);
    }
    cells
        .into_par_iter()
        .map(|c| c.depth.into_inner())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use std::collections::{HashMap, VecDeque};

    #[test]
    fn the_odometer_walks_placements_in_index_order() {
        let pattern = Pattern::new(4, &[3, 7, 1, 12, 9]);
        let ranks = ChildRanks::new(&pattern, &Grid::new(4));
        let start = 12_345;
        let mut walk = Odometer::new(&pattern, &ranks, start);
        let mut expected = [0u8; 5];
        // Steps of 1 (the common case), small ones and long jumps carrying through digits.
        let steps = [1, 1, 2, 7, 1, 13, 1, 1, 250, 3, 4_000, 1, 11];
        let mut index = start;
        for step in steps.iter().cycle().take(6_000) {
            let layout = walk.layout(Portable);
            pattern.unrank(index, &mut expected);
            assert_eq!(layout.positions[..5], expected, "index {index}");
            for (i, &p) in expected.iter().enumerate() {
                assert_eq!(layout.prefix[i + 1], layout.prefix[i] | 1 << p);
                assert_eq!(layout.weight_at[usize::from(p)], ranks.weights[i]);
            }
            if index + step >= pattern.entries() {
                break;
            }
            walk.skip(*step as usize);
            index += step;
        }
        assert!(index > 500_000, "the walk covered most of the range");
    }

    #[test]
    fn child_ranks_match_ranking_from_scratch() {
        for (width, tiles) in [
            (3, &[2u8, 7, 4][..]),
            (4, &[1, 5, 6, 9, 10, 13, 14, 15]),
            (5, &[3, 4, 8, 9, 13, 14]),
        ] {
            let pattern = Pattern::new(width, tiles);
            let grid = Grid::new(width);
            let ranks = ChildRanks::new(&pattern, &grid);
            let k = tiles.len();
            let step = (pattern.entries() / 5000).max(1);
            for index in (0..pattern.entries()).step_by(step as usize) {
                let mut walk = Odometer::new(&pattern, &ranks, index);
                let layout = walk.layout(Portable);
                let positions = layout.positions;
                let free = grid.all & !layout.prefix[k];
                let mut expected = Vec::new();
                for (i, &from) in positions[..k].iter().enumerate() {
                    let (r, c) = (usize::from(from) / width, usize::from(from) % width);
                    let adjacent = [
                        (c > 0).then(|| from - 1),
                        (c + 1 < width).then(|| from + 1),
                        (r > 0).then(|| from - width as u8),
                        (r + 1 < width).then(|| from + width as u8),
                    ];
                    for to in adjacent.into_iter().flatten() {
                        if free & 1 << to != 0 {
                            let mut moved = positions;
                            moved[i] = to;
                            expected.push((pattern.rank(&moved[..k]) as usize, from, to));
                        }
                    }
                }
                expected.sort_unstable();
                let mut out = [(0, 0, 0); 64];
                let n = ranks.children(Portable, index as usize, layout, k, free, &mut out);
                let mut got = out[..n].to_vec();
                got.sort_unstable();
                assert_eq!(got, expected, "{tiles:?} {positions:?}");
                if let Some(bmi2) = Bmi2::detect() {
                    let n = ranks.children(bmi2, index as usize, layout, k, free, &mut out);
                    let mut fast = out[..n].to_vec();
                    fast.sort_unstable();
                    assert_eq!(fast, expected, "{tiles:?} {positions:?}");
                }
            }
        }
    }

    #[test]
    fn flood_compress_and_decompress() {
        let grid = Grid::new(4);
        // Cells 0, 1, 4 free and connected; 15 free but apart.
        let free = 0b1000_0000_0001_0011;
        assert_eq!(grid.flood(1, free), 0b1_0011);
        assert_eq!(grid.flood(1 << 15, free), 1 << 15);
        // Row wrap: cell 3 and cell 4 are not neighbours.
        assert_eq!(grid.flood(1 << 3, 0b1_1000), 1 << 3);
        assert_eq!(Portable.compress(0b1_0001, free), 0b101);
        assert_eq!(Portable.decompress(0b101, free), 0b1_0001);
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
            for dir in crate::geometry::Direction::ALL {
                if let Some(next) = board.moved(dir)
                    && let std::collections::hash_map::Entry::Vacant(e) = distance.entry(next)
                {
                    e.insert(d + 1);
                    queue.push_back(next);
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
