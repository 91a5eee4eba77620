//! The bit operations of the database builder's inner loop, portable or with x86-64's BMI2
//! and POPCNT instructions, chosen once per build by what the processor has.
//!
//! The builder names a blank region by the bits of its cells among a placement's free cells:
//! gathering those bits is `PEXT` and scattering them back `PDEP` (Intel's BMI2, 2013 on), and
//! ranking a cell among the free ones is a population count. The portable versions loop over
//! the free cells instead. The code that runs them is compiled twice: [`Bits::expand`] of
//! [`Bmi2`] enters a copy compiled with the instructions enabled (ledger row "PDB build: BMI2"),
//! and a [`Bmi2`] value exists only where the processor was seen to have them.
#![allow(unsafe_code)]

use super::pattern::popcount;

/// A way of doing the builder's bit operations; values are zero-sized proofs that the way
/// works on this processor.
pub(crate) trait Bits: Copy + Send + Sync {
    /// The number of bits set in `mask`.
    fn popcount(self, mask: u32) -> u32;

    /// `cells` (a subset of `free`) as bits in the order of `free`'s cells.
    fn compress(self, cells: u32, free: u32) -> u32;

    /// The inverse of [`Bits::compress`]: the cells of `free` whose order numbers are set in
    /// `bits`.
    fn decompress(self, bits: u32, free: u32) -> u32;

    /// Runs `work` (which uses these operations; it is inlined into this call) compiled for
    /// them.
    fn expand<R>(self, work: impl FnOnce() -> R) -> R;
}

/// Loops over the free cells and a table for counting: works everywhere.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Portable;

impl Bits for Portable {
    #[inline(always)]
    fn popcount(self, mask: u32) -> u32 {
        popcount(mask)
    }

    #[inline(always)]
    fn compress(self, cells: u32, mut free: u32) -> u32 {
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

    #[inline(always)]
    fn decompress(self, mut bits: u32, mut free: u32) -> u32 {
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

    #[inline(always)]
    fn expand<R>(self, work: impl FnOnce() -> R) -> R {
        work()
    }
}

/// `PEXT`, `PDEP` and `POPCNT`; only made by [`Bmi2::detect`], on a processor that has them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Bmi2 {
    _detected: (),
}

impl Bmi2 {
    /// The instructions, if this processor has them.
    pub(crate) fn detect() -> Option<Bmi2> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2")
            && std::arch::is_x86_feature_detected!("popcnt")
        {
            return Some(Bmi2 { _detected: () });
        }
        None
    }
}

#[cfg(target_arch = "x86_64")]
impl Bits for Bmi2 {
    #[inline(always)]
    fn popcount(self, mask: u32) -> u32 {
        // One POPCNT where `expand` compiled the caller for it.
        mask.count_ones()
    }

    #[inline(always)]
    fn compress(self, cells: u32, free: u32) -> u32 {
        // SAFETY: a `Bmi2` exists only on a processor with BMI2 (see `Bmi2::detect`).
        unsafe { std::arch::x86_64::_pext_u32(cells, free) }
    }

    #[inline(always)]
    fn decompress(self, bits: u32, free: u32) -> u32 {
        // SAFETY: as in `compress`.
        unsafe { std::arch::x86_64::_pdep_u32(bits, free) }
    }

    #[inline(always)]
    fn expand<R>(self, work: impl FnOnce() -> R) -> R {
        /// `work` compiled with the instructions enabled.
        #[target_feature(enable = "bmi1,bmi2,popcnt")]
        fn with_bmi2<R>(work: impl FnOnce() -> R) -> R {
            work()
        }
        // SAFETY: a `Bmi2` exists only on a processor with these features.
        unsafe { with_bmi2(work) }
    }
}

/// A processor without x86-64's instructions never makes a [`Bmi2`]; the portable code
/// stands in so that the builder compiles everywhere.
#[cfg(not(target_arch = "x86_64"))]
impl Bits for Bmi2 {
    fn popcount(self, mask: u32) -> u32 {
        Portable.popcount(mask)
    }
    fn compress(self, cells: u32, free: u32) -> u32 {
        Portable.compress(cells, free)
    }
    fn decompress(self, bits: u32, free: u32) -> u32 {
        Portable.decompress(bits, free)
    }
    fn expand<R>(self, work: impl FnOnce() -> R) -> R {
        work()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The portable operations are exact inverses and count right on every subset of a few
    /// free-cell masks, and BMI2 (where this processor has it) agrees with them.
    #[test]
    fn portable_and_bmi2_agree() {
        let bmi2 = Bmi2::detect();
        for free in [0u32, 0b1011_0110, 0xFFFF, 0x1F0_0F0F, 0x1FF_FFFF] {
            let n = free.count_ones();
            for bits in 0..(1u32 << n.min(12)) {
                let cells = Portable.decompress(bits, free);
                assert_eq!(cells & !free, 0, "only free cells");
                assert_eq!(Portable.popcount(cells), bits.count_ones());
                assert_eq!(Portable.compress(cells, free), bits);
                if let Some(bmi2) = bmi2 {
                    assert_eq!(bmi2.decompress(bits, free), cells);
                    assert_eq!(bmi2.compress(cells, free), bits);
                    assert_eq!(bmi2.popcount(cells), bits.count_ones());
                }
            }
        }
    }
}
