//! Guessing policies: which cell to click when no deduction is left.
//!
//! [`LeastRisk`] is ply's: the least likely mine among the frontier cells whose odds the
//! enumeration computed and the interior cells (which carry the density of the unknown
//! remainder). [`RandomThenSweep`] is the contest's reference approach: random unknown cells
//! until 95 % of the safe cells are known, then one thread sweeps the board in row-major
//! order.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::ops::Range;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::FxHashMap;

use super::deduce::constraint;
use super::knowledge::{Knowledge, UNKNOWN, is_open};

/// What a policy decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Choice {
    /// Click this unknown cell; `frontier` if it touches an open number.
    Click {
        /// The cell.
        cell: u32,
        /// Whether its odds came from a frontier analysis.
        frontier: bool,
    },
    /// This unknown cell is proven a mine: mark it.
    Mine(u32),
    /// Nothing this time; ask again.
    Pass,
    /// This worker guesses no more.
    Done,
}

/// A guessing policy.
pub(super) trait Guesser {
    /// Learns the mine probability `p` of a frontier cell (the latest value counts).
    fn note(&mut self, _cell: u32, _p: f64) {}

    /// The next guess.
    fn choose(&mut self, kn: &Knowledge) -> Choice;
}

/// ply's policy: the least likely mine, frontier or interior.
pub(super) struct LeastRisk {
    /// The cells of the worker's stripe.
    stripe: Range<u64>,
    /// Next stripe cell to consider for an interior guess; then the whole board.
    cursor: u64,
    board_cursor: u64,
    /// Cells of the last resort's scan passed (from the stripe's start, wrapping): every one
    /// of them is known, and stays so.
    scanned: u64,
    /// Frontier cells by mine probability (bits of an `f32`), with the latest value per cell.
    candidates: BinaryHeap<Reverse<(u32, u32)>>,
    latest: FxHashMap<u32, u32>,
}

impl LeastRisk {
    /// A policy for the worker of the cells `stripe`.
    pub(super) fn new(stripe: Range<u64>) -> Self {
        LeastRisk {
            cursor: stripe.start,
            board_cursor: 0,
            scanned: 0,
            stripe,
            candidates: BinaryHeap::new(),
            latest: FxHashMap::default(),
        }
    }

    /// The best frontier candidate still valid: its cell and probability.
    fn best_candidate(&mut self, kn: &Knowledge) -> Option<(u32, f64)> {
        while let Some(&Reverse((key, cell))) = self.candidates.peek() {
            if kn.state(cell) == UNKNOWN && self.latest.get(&cell) == Some(&key) {
                return Some((cell, f64::from(f32::from_bits(key))));
            }
            self.candidates.pop();
            if self.latest.get(&cell) == Some(&key) {
                self.latest.remove(&cell);
            }
        }
        None
    }

    /// The next interior cell of the stripe, then of the board.
    fn next_interior(&mut self, kn: &Knowledge) -> Option<u32> {
        while self.cursor < self.stripe.end {
            let cell = self.cursor as u32;
            if interior(kn, cell) {
                return Some(cell);
            }
            self.cursor += 1;
        }
        let cells = kn.len() as u64;
        while self.board_cursor < cells {
            let cell = self.board_cursor as u32;
            if interior(kn, cell) {
                return Some(cell);
            }
            self.board_cursor += 1;
        }
        None
    }
}

impl Guesser for LeastRisk {
    fn note(&mut self, cell: u32, p: f64) {
        let key = (p as f32).to_bits();
        self.latest.insert(cell, key);
        self.candidates.push(Reverse((key, cell)));
    }

    fn choose(&mut self, kn: &Knowledge) -> Choice {
        let density = kn.density();
        let frontier = self.best_candidate(kn);
        if let Some((cell, p)) = frontier
            && p < density
        {
            return Choice::Click {
                cell,
                frontier: true,
            };
        }
        if let Some(cell) = self.next_interior(kn) {
            return Choice::Click {
                cell,
                frontier: false,
            };
        }
        if let Some((cell, _)) = frontier {
            return Choice::Click {
                cell,
                frontier: true,
            };
        }
        // Unknown cells no analysis reached (components too large): any of them.
        let cells = kn.len() as u64;
        while self.scanned < cells {
            let cell = ((self.stripe.start + self.scanned) % cells) as u32;
            if kn.state(cell) == UNKNOWN {
                return Choice::Click {
                    cell,
                    frontier: false,
                };
            }
            self.scanned += 1;
        }
        Choice::Done
    }
}

/// Whether `cell` is unknown and touches no open cell.
fn interior(kn: &Knowledge, cell: u32) -> bool {
    if kn.state(cell) != UNKNOWN {
        return false;
    }
    let (nbrs, len) = kn.neighbours(cell);
    nbrs[..len].iter().all(|&nb| !is_open(kn.state(nb)))
}

/// The contest's reference policy: a random unknown cell while at most 95 % of the safe
/// cells are known; then worker 0 alone sweeps the board in row-major order, clicking every
/// unknown cell that no neighbouring number proves a mine.
pub(super) struct RandomThenSweep {
    id: usize,
    rng: ChaCha8Rng,
    sweep: u64,
}

impl RandomThenSweep {
    /// The policy of worker `id`, its random guesses seeded by `seed`.
    pub(super) fn new(id: usize, seed: u64) -> Self {
        RandomThenSweep {
            id,
            rng: ChaCha8Rng::seed_from_u64(seed ^ (id as u64).wrapping_mul(0x9e37_79b9)),
            sweep: 0,
        }
    }
}

impl Guesser for RandomThenSweep {
    fn choose(&mut self, kn: &Knowledge) -> Choice {
        let cells = kn.len() as u64;
        let safe = cells - kn.k();
        if kn.safe_known() * 20 <= safe * 19 {
            for _ in 0..64 {
                let cell = self.rng.random_range(0..cells) as u32;
                if kn.state(cell) == UNKNOWN {
                    return Choice::Click {
                        cell,
                        frontier: false,
                    };
                }
            }
            return Choice::Pass;
        }
        if self.id != 0 {
            return Choice::Done;
        }
        while self.sweep < cells {
            let cell = self.sweep as u32;
            self.sweep += 1;
            if kn.state(cell) != UNKNOWN {
                continue;
            }
            if proven_mine(kn, cell) {
                return Choice::Mine(cell);
            }
            return Choice::Click {
                cell,
                frontier: false,
            };
        }
        Choice::Done
    }
}

/// Whether a number next to `cell` has exactly as many unknown neighbours as mines left.
fn proven_mine(kn: &Knowledge, cell: u32) -> bool {
    let (nbrs, len) = kn.neighbours(cell);
    nbrs[..len]
        .iter()
        .filter_map(|&nb| constraint(kn, nb))
        .any(|c| usize::from(c.mines) == c.len)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::knowledge::CLAIMED;

    #[test]
    fn the_last_resort_takes_every_unknown_cell_once_then_stops() {
        // Every cell open but three, each next to an open cell (so none is interior) and
        // with no odds known.
        let kn = Knowledge::new(16, 3);
        let left = [kn.cell(0, 5), kn.cell(7, 7), kn.cell(15, 0)];
        for cell in 0..kn.len() as u32 {
            if !left.contains(&cell) {
                kn.set_open(cell, 1);
            }
        }
        // The worker of the lower half starts its scan there and wraps around.
        let mut policy = LeastRisk::new(128..256);
        let mut chosen = Vec::new();
        while let Choice::Click { cell, frontier } = policy.choose(&kn) {
            assert!(!frontier);
            assert!(kn.claim(cell, CLAIMED));
            chosen.push(cell);
        }
        assert_eq!(chosen, vec![left[2], left[0], left[1]]);
    }
}
