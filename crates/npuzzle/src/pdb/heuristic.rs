//! The additive pattern-database heuristic, looked up incrementally and maximised with its
//! reflection about the main diagonal (Korf and Felner 2002, section 5; Felner, Korf and
//! Hanan 2004, section 6.2).
//!
//! The search keeps the regular sum in its node. A move of tile `t` changes the placement of
//! one pattern only, so only that pattern is ranked and looked up again. The reflected sum
//! (the same tables applied to the mirror image of the state) is kept per pattern too, but a
//! reflected pattern touched by a move is only marked stale: it is looked up when the regular
//! sum alone does not prune the node, which for a node that is expanded means exactly one
//! reflected lookup, since its parent's were all fresh.

use super::database::{PatternDatabase, nibble};
use super::partition::{MAX_PATTERN_TILES, MAX_PATTERNS};
use super::pattern::popcount;
use crate::board::Board;
use crate::geometry::transpose;
use crate::geometry::{Directions, SLOTS};
use crate::heuristic::{TileHeuristic, distance_table};
use ply_search::Filled;

/// Per-pattern array length: a power of two at least [`MAX_PATTERNS`], so that masking a
/// pattern number proves it in bounds.
const GROUPS: usize = 8;
const _: () = assert!(GROUPS >= MAX_PATTERNS && GROUPS.is_power_of_two());

/// What a move overwrites, restored when it is undone.
#[derive(Clone, Copy, Debug)]
struct Saved {
    value: u8,
    reflected: u8,
    stale: u8,
}

/// Per-pattern data the lookups need.
#[derive(Clone, Copy, Debug)]
struct Group<'a> {
    table: &'a [u8],
    size: usize,
    /// The pattern's tiles, in rank order.
    tiles: [u8; MAX_PATTERN_TILES],
    /// Their mirror images: the reflected placement of tile `tiles[i]` is the transposed cell
    /// of tile `mirrored[i]`.
    mirrored: [u8; MAX_PATTERN_TILES],
}

/// Additive pattern databases as a [`TileHeuristic`] for IDA*.
#[derive(Clone, Debug)]
pub struct PdbHeuristic<'a> {
    cells: u64,
    groups: [Group<'a>; GROUPS],
    count: usize,
    reflect: bool,
    distance: &'static [[u8; SLOTS]; SLOTS],
    transpose: [u8; SLOTS],
    /// Pattern of each tile.
    group_of: [u8; SLOTS],
    /// Reflected pattern each tile's moves change: the pattern of its mirror tile.
    mirror_group_of: [u8; SLOTS],
    /// Cell of each tile.
    cell_of: [u8; SLOTS],
    /// Regular value and Manhattan distance of each pattern.
    value: [u8; GROUPS],
    md: [u8; GROUPS],
    /// The same for the reflected state, and which reflected values are stale (a bit set).
    reflected: [u8; GROUPS],
    reflected_md: [u8; GROUPS],
    stale: u8,
    saved: Vec<Saved>,
}

impl<'a> PdbHeuristic<'a> {
    /// The heuristic's state for `board` (which must have the database's width, see
    /// [`PatternDatabase::check_width`]) and its regular value; `reflect` also maximises with
    /// the reflection.
    #[must_use]
    pub fn new(database: &'a PatternDatabase, board: &Board, reflect: bool) -> (Self, u32) {
        let width = board.width();
        debug_assert_eq!(width, database.partition().width());
        let mut transposed = [0u8; SLOTS];
        for (cell, t) in transposed.iter_mut().enumerate().take(board.cells()) {
            *t = transpose(width, cell) as u8;
        }
        let empty = Group {
            table: &[],
            size: 0,
            tiles: [0; MAX_PATTERN_TILES],
            mirrored: [0; MAX_PATTERN_TILES],
        };
        let mut groups = [empty; GROUPS];
        let mut group_of = [0u8; SLOTS];
        let mut mirror_group_of = [0u8; SLOTS];
        let patterns = database.partition().patterns();
        for (g, pattern) in patterns.iter().enumerate() {
            let group = &mut groups[g];
            group.table = database.table(g);
            group.size = pattern.tiles().len();
            for (i, &t) in pattern.tiles().iter().enumerate() {
                group.tiles[i] = t;
                group.mirrored[i] = transposed[usize::from(t)];
                group_of[usize::from(t)] = g as u8;
                mirror_group_of[usize::from(transposed[usize::from(t)])] = g as u8;
            }
        }
        let mut heuristic = Self {
            cells: board.cells() as u64,
            groups,
            count: patterns.len(),
            reflect,
            distance: distance_table(width),
            transpose: transposed,
            group_of,
            mirror_group_of,
            cell_of: [0; SLOTS],
            value: [0; GROUPS],
            md: [0; GROUPS],
            reflected: [0; GROUPS],
            reflected_md: [0; GROUPS],
            stale: 0,
            saved: Vec::with_capacity(256),
        };
        let h = heuristic.load(board);
        (heuristic, h)
    }

    /// Places the tiles of `board` and computes every pattern's regular value (the
    /// reflected ones stale until asked for); returns their sum.
    fn load(&mut self, board: &Board) -> u32 {
        for (cell, &t) in board.tiles().iter().enumerate() {
            self.cell_of[usize::from(t)] = cell as u8;
        }
        self.saved.clear();
        self.stale = 0;
        let mut h = 0;
        for g in 0..self.count {
            let group = self.groups[g];
            let mut md = 0;
            let mut reflected_md = 0;
            for i in 0..group.size {
                let (t, m) = (usize::from(group.tiles[i]), usize::from(group.mirrored[i]));
                md += self.distance[t][usize::from(self.cell_of[t])];
                reflected_md += self.distance[m][usize::from(self.cell_of[m])];
            }
            self.md[g] = md;
            self.reflected_md[g] = reflected_md;
            self.value[g] = self.lookup(g);
            h += u32::from(self.value[g]);
            self.stale |= 1 << g;
        }
        h
    }

    /// The regular value of pattern `g` from the tiles' cells.
    #[inline(always)]
    fn lookup(&self, g: usize) -> u8 {
        let group = &self.groups[g & (GROUPS - 1)];
        let mut used = 0u32;
        let mut index = 0u64;
        for i in 0..group.size {
            let p = u32::from(self.cell_of[usize::from(group.tiles[i]) & (SLOTS - 1)]);
            let below = popcount(used & ((1 << p) - 1));
            index = index * (self.cells - i as u64) + u64::from(p - below);
            used |= 1 << p;
        }
        self.md[g & (GROUPS - 1)] + 2 * nibble(group.table, index)
    }

    /// The reflected value of pattern `g`: its table at the mirror image of the state.
    #[inline(always)]
    fn lookup_reflected(&self, g: usize) -> u8 {
        let group = &self.groups[g & (GROUPS - 1)];
        let mut used = 0u32;
        let mut index = 0u64;
        for i in 0..group.size {
            let cell = self.cell_of[usize::from(group.mirrored[i]) & (SLOTS - 1)];
            let p = u32::from(self.transpose[usize::from(cell) & (SLOTS - 1)]);
            let below = popcount(used & ((1 << p) - 1));
            index = index * (self.cells - i as u64) + u64::from(p - below);
            used |= 1 << p;
        }
        self.reflected_md[g & (GROUPS - 1)] + 2 * nibble(group.table, index)
    }
}

impl TileHeuristic for PdbHeuristic<'_> {
    type Moves = Filled<Directions>;

    #[inline(always)]
    fn value(&mut self, h: u32, budget: u32) -> u32 {
        if !self.reflect || h > budget {
            return h;
        }
        let mut stale = self.stale;
        while stale != 0 {
            let g = stale.trailing_zeros() as usize;
            stale &= stale - 1;
            self.reflected[g & (GROUPS - 1)] = self.lookup_reflected(g);
        }
        self.stale = 0;
        let reflected: u32 = self.reflected[..self.count]
            .iter()
            .map(|&v| u32::from(v))
            .sum();
        h.max(reflected)
    }

    #[inline(always)]
    fn moved(&mut self, h: u32, tile: u8, from: usize, to: usize, _vertical: bool) -> u32 {
        let t = usize::from(tile) & (SLOTS - 1);
        let g = usize::from(self.group_of[t]) & (GROUPS - 1);
        let m = usize::from(self.mirror_group_of[t]) & (GROUPS - 1);
        self.saved.push(Saved {
            value: self.value[g],
            reflected: self.reflected[m],
            stale: self.stale,
        });
        let row = &self.distance[t];
        let delta = row[to & (SLOTS - 1)].wrapping_sub(row[from & (SLOTS - 1)]);
        self.cell_of[t] = to as u8;
        self.md[g] = self.md[g].wrapping_add(delta);
        self.reflected_md[m] = self.reflected_md[m].wrapping_add(delta);
        self.stale |= 1 << m;
        let old = self.value[g];
        let new = self.lookup(g);
        self.value[g] = new;
        h + u32::from(new) - u32::from(old)
    }

    #[inline(always)]
    fn unmoved(&mut self, tile: u8, from: usize, to: usize, _vertical: bool) {
        let t = usize::from(tile) & (SLOTS - 1);
        let g = usize::from(self.group_of[t]) & (GROUPS - 1);
        let m = usize::from(self.mirror_group_of[t]) & (GROUPS - 1);
        let saved = self.saved.pop().expect("a move to undo");
        let row = &self.distance[t];
        let delta = row[to & (SLOTS - 1)].wrapping_sub(row[from & (SLOTS - 1)]);
        self.cell_of[t] = from as u8;
        self.md[g] = self.md[g].wrapping_sub(delta);
        self.reflected_md[m] = self.reflected_md[m].wrapping_sub(delta);
        self.value[g] = saved.value;
        self.reflected[m] = saved.reflected;
        self.stale = saved.stale;
    }

    fn reset(&mut self, board: &Board) -> u32 {
        self.load(board)
    }
}
