//! The generator of random playouts and seeded choices.

/// A small, fast generator for playouts (xorshift64*, Vigna 2016); not for anything that
/// needs statistical quality beyond picking among at most eight moves.
#[derive(Clone, Debug)]
pub struct FastRng(u64);

impl FastRng {
    /// A generator from a seed (any value).
    #[must_use]
    pub fn new(seed: u64) -> Self {
        FastRng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// A number in `0..n` (`n` at least 1).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        (((x >> 32) * n as u64) >> 32) as usize
    }
}
