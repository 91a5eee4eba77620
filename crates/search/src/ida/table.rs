//! A transposition table for IDA*, [`BoundTable`], whose docs give its source.

/// Slots probed per lookup.
const PROBES: usize = 4;

/// A transposition table for IDA*: facts "the state `key` needs more than `r` moves", keyed
/// exactly, which [`IdaProblem::exhausted`](crate::IdaProblem::exhausted) records and
/// [`IdaProblem::heuristic`](crate::IdaProblem::heuristic) reads back as `r + 1`.
///
/// Reinefeld, A. and Marsland, T. A. (1994). *Enhanced iterative-deepening search.* IEEE
/// Transactions on Pattern Analysis and Machine Intelligence 16(7), 701-710: a table of
/// lower bounds learned from exhausted subtrees removes IDA*'s repeated work on transpositions.
///
/// ```
/// use ply_search::BoundTable;
///
/// let mut table = BoundTable::new(10);
/// table.put(42, 7);
/// assert_eq!(table.get(42), Some(7));
/// assert_eq!(table.get(43), None);
/// ```
///
/// Each slot packs a key of at most 121 bits and `r + 1` (6 bits, so `r` is capped at 62)
/// into a `u128`; zero is an empty slot, so a key must not be zero. A key is the state itself,
/// packed, not a hash: a lookup never returns another state's fact. When the probed slots are
/// full, the least informative fact (the smallest `r`) gives way.
#[derive(Clone, Debug)]
pub struct BoundTable {
    slots: Vec<u128>,
    mask: usize,
}

impl BoundTable {
    /// A table of `1 << bits` slots (16 bytes each).
    #[must_use]
    pub fn new(bits: u32) -> Self {
        BoundTable {
            slots: vec![0; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    #[inline]
    fn home(&self, key: u128) -> usize {
        let folded = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
        (folded.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) as usize & self.mask
    }

    /// The largest `r` recorded for `key`, if any.
    #[inline]
    #[must_use]
    pub fn get(&self, key: u128) -> Option<u32> {
        let home = self.home(key);
        (0..PROBES).find_map(|k| {
            let entry = self.slots[(home + k) & self.mask];
            (entry != 0 && entry >> 6 == key).then(|| (entry & 63) as u32 - 1)
        })
    }

    /// Records that `key` needs more than `room` moves.
    #[inline]
    pub fn put(&mut self, key: u128, room: u32) {
        let entry = key << 6 | u128::from(room.min(62) + 1);
        let home = self.home(key);
        let mut victim = home;
        for k in 0..PROBES {
            let slot = (home + k) & self.mask;
            let old = self.slots[slot];
            if old == 0 || old >> 6 == key {
                if old & 63 < entry & 63 {
                    self.slots[slot] = entry;
                }
                return;
            }
            if k == 0 || old & 63 < self.slots[victim] & 63 {
                victim = slot;
            }
        }
        self.slots[victim] = entry;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_largest_fact_per_key_and_evicts_the_smallest() {
        let mut table = BoundTable::new(4);
        assert_eq!(table.get(7), None);
        table.put(7, 3);
        table.put(7, 1);
        assert_eq!(
            table.get(7),
            Some(3),
            "a smaller fact does not replace a larger one"
        );
        table.put(7, 5);
        assert_eq!(table.get(7), Some(5));
        let big = (1u128 << 120) | 7;
        table.put(big, 9);
        assert_eq!(table.get(big), Some(9), "121-bit keys are kept whole");
        assert_eq!(table.get(7), Some(5));
        // Fill every slot: lookups still never return a fact recorded for another key.
        for key in 1..200u128 {
            table.put(key << 40, (key % 20) as u32);
        }
        for key in 1..200u128 {
            if let Some(room) = table.get(key << 40) {
                assert_eq!(room, (key % 20) as u32);
            }
        }
    }
}
