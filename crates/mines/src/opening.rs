//! Openings: the 8-connected region of zeros around a clicked zero, with its numbered border.

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use crate::map::MineMap;
use crate::protocol::Entry;

/// Counts of distinct opened cells.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
pub struct Counts {
    /// Safe cells opened.
    pub safe: u64,
    /// Mines opened.
    pub mines: u64,
}
/// The eight neighbour offsets, in the order the contest's server visits them.
pub const NEIGHBOURS: [(i64, i64); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// An opening larger than the room given for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

/// Breadth-first expansion with reusable scratch space (no allocation once warm): one per
/// thread that clicks. It also tallies the cells its thread's clicks opened for the first time
/// ([`Expander::opened`]), which a server publishes as progress without a shared counter.
#[derive(Debug, Default)]
pub struct Expander {
    seen: FxHashSet<u32>,
    opened: Counts,
}

impl Expander {
    /// The distinct cells that clicks made with this expander opened first (safe cells and
    /// mines); a cell opened before by another thread's click is not counted again.
    pub fn opened(&self) -> Counts {
        self.opened
    }

    /// Counts `safe` safe cells and `mines` mines as newly opened.
    pub(crate) fn tally(&mut self, safe: u64, mines: u64) {
        self.opened.safe += safe;
        self.opened.mines += mines;
    }

    /// Appends to `out` the opening of the safe cell (r, c) in breadth-first order: the cell,
    /// then, for every zero in the list, its unseen neighbours. A nonzero cell opens alone.
    /// Stops with `TooLarge` once `out` would exceed `cap` entries.
    pub fn expand(
        &mut self,
        map: &MineMap,
        r: u16,
        c: u16,
        out: &mut Vec<Entry>,
        cap: usize,
    ) -> Result<(), TooLarge> {
        let key = |r: u16, c: u16| (u32::from(r) << 16) | u32::from(c);
        let n = i64::from(map.n());
        self.seen.clear();
        out.clear();
        if cap == 0 {
            return Err(TooLarge);
        }
        self.seen.insert(key(r, c));
        out.push([r, c, u16::from(map.number(i64::from(r), i64::from(c)))]);
        let mut next = 0;
        while next < out.len() {
            let [r, c, number] = out[next];
            next += 1;
            if number != 0 {
                continue;
            }
            for (dr, dc) in NEIGHBOURS {
                let (nr, nc) = (i64::from(r) + dr, i64::from(c) + dc);
                if nr < 0 || nc < 0 || nr >= n || nc >= n {
                    continue;
                }
                let (nr16, nc16) = (nr as u16, nc as u16);
                if self.seen.insert(key(nr16, nc16)) {
                    if out.len() == cap {
                        return Err(TooLarge);
                    }
                    out.push([nr16, nc16, u16::from(map.number(nr, nc))]);
                }
            }
        }
        Ok(())
    }
}

/// The largest opening of a map: its size in cells (zeros plus numbered border) and the first
/// zero of it in row-major order; `None` when the map has no zero.
///
/// Rows are split into stripes searched in parallel; a stripe expands each zero it has not yet
/// covered and keeps the opening only if that zero is the opening's first cell, so openings
/// that cross stripes are counted once.
pub fn largest_opening(map: &MineMap) -> Option<(u64, (u32, u32))> {
    let n = map.n() as usize;
    let stripe_rows = (n / 64).max(1);
    (0..n.div_ceil(stripe_rows))
        .into_par_iter()
        .filter_map(|stripe| {
            let rows = stripe * stripe_rows..((stripe + 1) * stripe_rows).min(n);
            let mut covered = vec![false; rows.len() * n];
            let mut expander = Expander::default();
            let mut out = Vec::new();
            let mut best: Option<(u64, (u32, u32))> = None;
            for r in rows.clone() {
                for c in 0..n {
                    let local = (r - rows.start) * n + c;
                    if covered[local]
                        || map.is_mine(r as i64, c as i64)
                        || map.number(r as i64, c as i64) != 0
                    {
                        continue;
                    }
                    expander
                        .expand(map, r as u16, c as u16, &mut out, usize::MAX)
                        .expect("an uncapped expansion always fits");
                    let mut first = true;
                    for &[er, ec, number] in &out {
                        let (er, ec) = (usize::from(er), usize::from(ec));
                        if number == 0 && (er, ec) < (r, c) {
                            first = false;
                        }
                        if number == 0 && rows.contains(&er) {
                            covered[(er - rows.start) * n + ec] = true;
                        }
                    }
                    let size = out.len() as u64;
                    if first && best.is_none_or(|(b, _)| size > b) {
                        best = Some((size, (r as u32, c as u32)));
                    }
                }
            }
            best
        })
        .reduce_with(|a, b| {
            if b.0 > a.0 || (b.0 == a.0 && b.1 < a.1) {
                b
            } else {
                a
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's 3 x 3 example, placed in the corner of a 16 x 16 board walled by mines.
    fn example() -> MineMap {
        let mut mines = vec![(0, 2), (2, 0)];
        for i in 0..4 {
            mines.push((3, i));
            if i < 3 {
                mines.push((i, 3));
            }
        }
        MineMap::from_mines(16, &mines).unwrap()
    }

    #[test]
    fn the_specs_example_openings() {
        let map = example();
        let mut ex = Expander::default();
        let mut out = Vec::new();
        ex.expand(&map, 0, 0, &mut out, 100).unwrap();
        let mut cells: Vec<_> = out.iter().map(|e| (e[0], e[1])).collect();
        cells.sort();
        assert_eq!(cells, vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
        assert_eq!(out[0], [0, 0, 0]);
        assert_eq!(ex.expand(&map, 0, 0, &mut out, 3), Err(TooLarge));
        ex.expand(&map, 0, 1, &mut out, 100).unwrap();
        assert_eq!(out, vec![[0, 1, 1]]);
    }

    #[test]
    fn largest_opening_of_an_empty_board_is_the_board() {
        let map = MineMap::from_mines(32, &[]).unwrap();
        assert_eq!(largest_opening(&map), Some((1024, (0, 0))));
        let map = MineMap::from_mines(16, &[(8, 8)]).unwrap();
        assert_eq!(largest_opening(&map), Some((255, (0, 0))));
    }

    #[test]
    fn largest_opening_matches_a_scan_of_every_zero() {
        for seed in 0..5 {
            let bits = crate::generate::generate(128, 1200, seed, &|_, _| {}).unwrap();
            let map = MineMap::from_bits(128, 1200, bits).unwrap();
            let mut ex = Expander::default();
            let mut out = Vec::new();
            let mut best = 0;
            for r in 0..128u16 {
                for c in 0..128u16 {
                    if !map.is_mine(r.into(), c.into()) && map.number(r.into(), c.into()) == 0 {
                        ex.expand(&map, r, c, &mut out, usize::MAX).unwrap();
                        best = best.max(out.len() as u64);
                    }
                }
            }
            assert_eq!(largest_opening(&map).map(|b| b.0), Some(best));
        }
    }
}
