//! The game state a server keeps: the map and one "opened" bit per cell, shared by all
//! channel threads, with the contest's click semantics.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use rayon::prelude::*;

use crate::MinesError;
use crate::backoff::Backoff;
use crate::map::MineMap;
use crate::opening::{Counts, Expander, TooLarge};
use crate::protocol::Entry;

/// What a click did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Click {
    /// The cell is a mine (now opened).
    Mine,
    /// `skip_when_reopen` and the cell was already open; `mine` tells whether it is a mine.
    Skipped {
        /// Whether the skipped cell is a mine.
        mine: bool,
    },
    /// Safe: this many entries were written to the output.
    Opened(usize),
}

/// Expansions that may run at once (the contest's server had this many BFS buffers).
pub const EXPANSIONS: u32 = 8;

/// A map and its opened cells.
#[derive(Debug)]
pub struct Game {
    map: MineMap,
    opened: Vec<AtomicU64>,
    expansions: AtomicU32,
}

impl Game {
    /// A fresh game on `map`, nothing opened.
    pub fn new(map: MineMap) -> Self {
        let cells = u64::from(map.n()) * u64::from(map.n());
        let opened = (0..cells.div_ceil(64)).map(|_| AtomicU64::new(0)).collect();
        Self {
            map,
            opened,
            expansions: AtomicU32::new(0),
        }
    }

    /// The map.
    pub fn map(&self) -> &MineMap {
        &self.map
    }

    fn index(&self, r: u16, c: u16) -> usize {
        usize::from(r) * self.map.n() as usize + usize::from(c)
    }

    /// Whether (r, c) has been opened.
    pub fn is_open(&self, r: u16, c: u16) -> bool {
        let i = self.index(r, c);
        self.opened[i / 64].load(Ordering::Relaxed) >> (i % 64) & 1 == 1
    }

    /// The opened cells, one bit each as in a map's bits (cell `i = r * N + c` at bit `i % 8`
    /// of byte `i / 8`).
    pub fn open_bits(&self) -> Vec<u8> {
        let n = self.map.n() as usize;
        let words = self.opened.iter().map(|w| w.load(Ordering::Relaxed));
        words.flat_map(u64::to_le_bytes).take(n * n / 8).collect()
    }

    /// Opens the cells of `bits` (as [`Game::open_bits`] gives them), each alone, without
    /// expansion.
    ///
    /// # Errors
    /// `bits` is not `N * N / 8` bytes long (nothing is opened).
    pub fn open_from_bits(&self, bits: &[u8]) -> Result<(), MinesError> {
        let n = self.map.n() as usize;
        if bits.len() != n * n / 8 {
            return Err(MinesError::BadParameters(format!(
                "{} bytes of open cells for a {n} x {n} board; it needs {}",
                bits.len(),
                n * n / 8
            )));
        }
        for (word, chunk) in self.opened.iter().zip(bits.chunks(8)) {
            let mut bytes = [0u8; 8];
            bytes[..chunk.len()].copy_from_slice(chunk);
            word.fetch_or(u64::from_le_bytes(bytes), Ordering::Relaxed);
        }
        Ok(())
    }

    /// What a player sees, row-major: -1 for a closed cell, 0-8 for an open number, 9 for an
    /// open mine.
    pub fn view(&self) -> Vec<i8> {
        let n = self.map.n() as usize;
        (0..n * n)
            .map(|i| {
                let (r, c) = ((i / n) as u16, (i % n) as u16);
                let (ri, ci) = (i64::from(r), i64::from(c));
                match (self.is_open(r, c), self.map.is_mine(ri, ci)) {
                    (false, _) => -1,
                    (true, true) => 9,
                    (true, false) => self.map.number(ri, ci) as i8,
                }
            })
            .collect()
    }

    /// Marks (r, c) opened; 1 if it was not open before, else 0.
    fn open(&self, r: u16, c: u16) -> u64 {
        let i = self.index(r, c);
        let bit = 1 << (i % 64);
        u64::from(self.opened[i / 64].fetch_or(bit, Ordering::Relaxed) & bit == 0)
    }

    /// Clicks (r, c), which must be on the board, with the contest's semantics:
    /// `do_not_expand` opens that one cell whatever it is; otherwise `skip_when_reopen`
    /// answers "skipped" for an opened cell, a mine opens alone, a number opens alone, and a
    /// zero opens its whole opening (cells opened before included), marked opened only when
    /// the expansion is complete; at most `EXPANSIONS` expansions run at once. An opening of
    /// more than `cap` cells opens nothing and is `TooLarge`. Entries go to `out`; the cells
    /// opened for the first time are tallied in `expander` ([`Expander::opened`]).
    #[allow(clippy::too_many_arguments)]
    pub fn click(
        &self,
        r: u16,
        c: u16,
        skip_when_reopen: bool,
        do_not_expand: bool,
        expander: &mut Expander,
        out: &mut Vec<Entry>,
        cap: usize,
    ) -> Result<Click, TooLarge> {
        out.clear();
        let (ri, ci) = (i64::from(r), i64::from(c));
        if do_not_expand {
            let new = self.open(r, c);
            if self.map.is_mine(ri, ci) {
                expander.tally(0, new);
                return Ok(Click::Mine);
            }
            expander.tally(new, 0);
            out.push([r, c, u16::from(self.map.number(ri, ci))]);
            return Ok(Click::Opened(1));
        }
        if skip_when_reopen && self.is_open(r, c) {
            return Ok(Click::Skipped {
                mine: self.map.is_mine(ri, ci),
            });
        }
        if self.map.is_mine(ri, ci) {
            expander.tally(0, self.open(r, c));
            return Ok(Click::Mine);
        }
        let number = self.map.number(ri, ci);
        if number != 0 {
            expander.tally(self.open(r, c), 0);
            out.push([r, c, u16::from(number)]);
            return Ok(Click::Opened(1));
        }
        self.take_expansion_slot();
        let expanded = expander.expand(&self.map, r, c, out, cap);
        self.expansions.fetch_sub(1, Ordering::Release);
        expanded?;
        let new = out.iter().map(|&[r, c, _]| self.open(r, c)).sum();
        expander.tally(new, 0);
        Ok(Click::Opened(out.len()))
    }

    /// Takes one of the `EXPANSIONS` slots, spinning briefly and then napping while none is
    /// free (a yield would hand the core to any other program, not to the expansions this
    /// waits for).
    fn take_expansion_slot(&self) {
        let take = || {
            let used = self.expansions.load(Ordering::Relaxed);
            used < EXPANSIONS
                && self
                    .expansions
                    .compare_exchange_weak(used, used + 1, Ordering::Acquire, Ordering::Relaxed)
                    .is_ok()
        };
        Backoff::default().wait(
            take,
            Duration::from_micros(20),
            std::thread::sleep,
            Duration::from_micros(20),
            Duration::from_micros(500),
        );
    }

    /// Distinct safe cells and mines opened so far (in parallel).
    pub fn counts(&self) -> Counts {
        let bits = self.map.bits();
        let (safe, mines) = self
            .opened
            .par_chunks(1 << 14)
            .enumerate()
            .map(|(chunk, words)| {
                let mut counts = (0u64, 0u64);
                for (j, word) in words.iter().enumerate() {
                    let open = word.load(Ordering::Relaxed);
                    if open == 0 {
                        continue;
                    }
                    let at = ((chunk << 14) + j) * 8;
                    let mut mine = [0u8; 8];
                    let have = bits.len().saturating_sub(at).min(8);
                    mine[..have].copy_from_slice(&bits[at..at + have]);
                    let mine = u64::from_le_bytes(mine);
                    counts.0 += u64::from((open & !mine).count_ones());
                    counts.1 += u64::from((open & mine).count_ones());
                }
                counts
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
        Counts { safe, mines }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_bits_round_trip_and_views_show_them() {
        let map = MineMap::from_mines(16, &[(0, 0)]).unwrap();
        let game = Game::new(map.share());
        let (mut expander, mut out) = (Expander::default(), Vec::new());
        game.click(0, 0, true, false, &mut expander, &mut out, usize::MAX)
            .unwrap();
        game.click(0, 1, true, false, &mut expander, &mut out, usize::MAX)
            .unwrap();
        let bits = game.open_bits();
        assert_eq!((bits.len(), bits[0]), (32, 0b11));
        let again = Game::new(map);
        again.open_from_bits(&bits).unwrap();
        let short = again.open_from_bits(&bits[1..]).unwrap_err();
        assert_eq!(
            short.to_string(),
            "31 bytes of open cells for a 16 x 16 board; it needs 32"
        );
        assert_eq!(again.open_bits(), bits);
        assert_eq!(&again.view()[..3], [9, 1, -1]);
    }

    #[test]
    fn click_semantics_follow_the_contest() {
        // The spec's 3 x 3 example in the corner, walled off by mines on row 4 and column 4.
        let mut mines = vec![(0, 2), (2, 0)];
        for i in 0..5 {
            mines.push((4, i));
            if i < 4 {
                mines.push((i, 4));
            }
        }
        let game = Game::new(MineMap::from_mines(16, &mines).unwrap());
        let mut ex = Expander::default();
        let mut out = Vec::new();
        let mut click = |r, c, skip, dne, out: &mut Vec<Entry>| {
            game.click(r, c, skip, dne, &mut ex, out, 1000).unwrap()
        };
        let cells = |out: &Vec<Entry>| {
            let mut cells: Vec<(u16, u16)> = out.iter().map(|e| (e[0], e[1])).collect();
            cells.sort();
            cells
        };
        assert_eq!(click(0, 0, true, false, &mut out), Click::Opened(4));
        assert_eq!(cells(&out), vec![(0, 0), (0, 1), (1, 0), (1, 1)]);
        assert_eq!(out[3], [1, 1, 2]);
        // Reopening a zero returns the whole opening again, unless skipped.
        assert_eq!(click(0, 0, false, false, &mut out), Click::Opened(4));
        assert_eq!(
            click(1, 1, true, false, &mut out),
            Click::Skipped { mine: false }
        );
        // (2, 2)'s opening shares (1, 1) with (0, 0)'s and has the wall's numbers as border.
        assert_eq!(click(2, 2, false, false, &mut out), Click::Opened(9));
        assert!(cells(&out).contains(&(1, 1)) && cells(&out).contains(&(3, 3)));
        assert_eq!(click(0, 2, false, false, &mut out), Click::Mine);
        assert_eq!(
            click(0, 2, true, false, &mut out),
            Click::Skipped { mine: true }
        );
        // do_not_expand opens only the cell, ignores skip, and counts mines.
        assert_eq!(click(8, 8, true, true, &mut out), Click::Opened(1));
        assert_eq!(out, vec![[8, 8, 0]]);
        assert_eq!(click(4, 4, false, true, &mut out), Click::Mine);
        assert_eq!(click(4, 4, false, true, &mut out), Click::Mine);
        // Distinct cells: the openings' 12 cells and (8, 8) are safe; 2 mines.
        assert_eq!(game.counts(), Counts { safe: 13, mines: 2 });
        assert_eq!(ex.opened(), game.counts(), "each cell tallied once");
    }

    #[test]
    fn too_large_openings_open_nothing() {
        let game = Game::new(MineMap::from_mines(16, &[]).unwrap());
        let mut out = Vec::new();
        let got = game.click(5, 5, false, false, &mut Expander::default(), &mut out, 255);
        assert_eq!(got, Err(TooLarge));
        assert_eq!(game.counts(), Counts::default());
        let got = game.click(5, 5, false, false, &mut Expander::default(), &mut out, 256);
        assert_eq!(got, Ok(Click::Opened(256)));
        assert_eq!(
            game.counts(),
            Counts {
                safe: 256,
                mines: 0
            }
        );
    }
}
