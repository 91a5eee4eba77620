//! A transposition table of "needs more than `r` moves" facts, shared by the real search and
//! the search on the region relaxation.

/// Slots probed per lookup.
const PROBES: usize = 4;

/// Facts "the state `key` needs more than `r` moves", keyed exactly.
///
/// Each slot packs a key of at most 121 bits and `r + 1` (6 bits) into a `u128`; zero is an
/// empty slot, so a key must not be zero. When the probed slots are full, the least informative
/// fact (the smallest `r`) gives way.
pub(crate) struct Transpositions {
    slots: Vec<u128>,
    mask: usize,
}

impl Transpositions {
    /// A table of `1 << bits` slots (16 bytes each).
    pub(crate) fn new(bits: u32) -> Self {
        Transpositions {
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
    pub(crate) fn get(&self, key: u128) -> Option<u32> {
        let home = self.home(key);
        (0..PROBES).find_map(|k| {
            let entry = self.slots[(home + k) & self.mask];
            (entry != 0 && entry >> 6 == key).then(|| (entry & 63) as u32 - 1)
        })
    }

    /// Records that `key` needs more than `room` moves.
    #[inline]
    pub(crate) fn put(&mut self, key: u128, room: u32) {
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
        let mut table = Transpositions::new(4);
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
