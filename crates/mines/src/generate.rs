//! Random maps with exactly K mines, uniform over all K-subsets of cells, deterministic for
//! (N, K, seed) whatever the thread count.
//!
//! The board is cut into fixed chunks of 2^24 cells. The mines are first shared out among the
//! chunks by recursive halving with hypergeometric draws (the number of mines of a uniform
//! K-subset that fall in one half of a set is hypergeometric), then each chunk places its share
//! uniformly with its own random stream. The result is exactly uniform, and the chunks are
//! independent, so they fill in parallel.

use std::sync::atomic::{AtomicU64, Ordering};

use ply_search::StopFlag;

use rand::{Rng, RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rand_distr::{Distribution, Hypergeometric};
use rayon::prelude::*;

use crate::error::MinesError;
use crate::map::check_size;

/// Cells per chunk (a power of two, so a random cell is a masked random word).
const CHUNK_CELLS: u64 = 1 << 24;

/// Generates the bits of an `n x n` map with exactly `k` mines from `seed`. `progress` is
/// called with (cells done, cells in all) as chunks finish.
pub fn generate(
    n: u32,
    k: u64,
    seed: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Vec<u8>, MinesError> {
    generate_until(n, k, seed, progress, &StopFlag::new())
}

/// [`generate`], stopped once `stop` is raised: no chunk starts after that, and the result
/// is [`MinesError::Interrupted`] (a 65536 map takes seconds; a chunk, milliseconds).
pub fn generate_until(
    n: u32,
    k: u64,
    seed: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
    stop: &StopFlag,
) -> Result<Vec<u8>, MinesError> {
    let n = check_size(u64::from(n))?;
    let cells = u64::from(n) * u64::from(n);
    if k > cells {
        return Err(MinesError::BadParameters(format!(
            "{k} mines do not fit in {cells} cells"
        )));
    }
    let chunk_cells = CHUNK_CELLS.min(cells);
    let chunks = (cells / chunk_cells) as usize;
    let mut shares = vec![0u64; chunks];
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    share_out(&mut shares, chunk_cells, k, &mut rng)?;

    let mut bits = vec![0u8; (cells / 8) as usize];
    let done = AtomicU64::new(0);
    bits.par_chunks_mut((chunk_cells / 8) as usize)
        .zip(shares.par_iter())
        .enumerate()
        .for_each(|(index, (bytes, &share))| {
            if stop.is_stopped() {
                return;
            }
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rng.set_stream(index as u64 + 1);
            fill_chunk(bytes, share, &mut rng);
            let now = done.fetch_add(chunk_cells, Ordering::Relaxed) + chunk_cells;
            progress(now, cells);
        });
    if stop.is_stopped() {
        return Err(MinesError::Interrupted);
    }
    Ok(bits)
}

/// Shares `k` mines out among equal chunks of `chunk_cells` cells, as a uniform K-subset
/// of their union would fall.
fn share_out(
    shares: &mut [u64],
    chunk_cells: u64,
    k: u64,
    rng: &mut ChaCha8Rng,
) -> Result<(), MinesError> {
    if shares.len() == 1 {
        shares[0] = k;
        return Ok(());
    }
    let mid = shares.len() / 2;
    let total = shares.len() as u64 * chunk_cells;
    let left_cells = mid as u64 * chunk_cells;
    let left = Hypergeometric::new(total, left_cells, k)
        .map_err(|e| MinesError::BadParameters(format!("hypergeometric draw: {e}")))?
        .sample(rng);
    let (low, high) = shares.split_at_mut(mid);
    share_out(low, chunk_cells, left, rng)?;
    share_out(high, chunk_cells, k - left, rng)
}

/// Places exactly `k` mines uniformly in a chunk (`bytes` zeroed on entry): rejection
/// sampling of cells for up to half the chunk, of the empty cells above that.
fn fill_chunk(bytes: &mut [u8], k: u64, rng: &mut ChaCha8Rng) {
    let cells = bytes.len() as u64 * 8;
    let (mark, fill) = if 2 * k <= cells {
        (k, 0u8)
    } else {
        (cells - k, 0xFF)
    };
    bytes.fill(fill);
    let mask = cells - 1;
    let mut placed = 0;
    while placed < mark {
        let cell = if cells <= 1 << 32 {
            u64::from(rng.next_u32()) & mask
        } else {
            rng.random_range(0..cells)
        };
        let (byte, bit) = ((cell / 8) as usize, 1u8 << (cell % 8));
        if (bytes[byte] & bit == 0) == (fill == 0) {
            bytes[byte] ^= bit;
            placed += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ones(bits: &[u8]) -> u64 {
        bits.iter().map(|b| u64::from(b.count_ones())).sum()
    }

    #[test]
    fn exactly_k_mines_for_any_density() {
        for (n, k) in [
            (16, 0),
            (16, 32),
            (16, 200),
            (16, 256),
            (64, 512),
            (4096, 2_097_152),
        ] {
            let bits = generate(n, k, 7, &|_, _| {}).unwrap();
            assert_eq!(ones(&bits), k, "n {n} k {k}");
        }
        assert!(generate(16, 257, 1, &|_, _| {}).is_err());
        assert!(generate(24, 1, 1, &|_, _| {}).is_err());
    }

    #[test]
    fn a_raised_flag_stops_the_generation() {
        let stop = StopFlag::new();
        stop.stop();
        let got = generate_until(8192, 100, 1, &|_, _| panic!("no chunk is filled"), &stop);
        assert!(matches!(got, Err(MinesError::Interrupted)), "{got:?}");
    }

    #[test]
    fn deterministic_for_a_seed_whatever_the_thread_count() {
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let a = one.install(|| generate(8192, 8_388_608, 3, &|_, _| {}).unwrap());
        let b = generate(8192, 8_388_608, 3, &|_, _| {}).unwrap();
        let c = generate(8192, 8_388_608, 4, &|_, _| {}).unwrap();
        assert!(a == b);
        assert!(a != c);
    }

    #[test]
    fn every_cell_is_equally_likely() {
        // 4,000 maps of 16 x 16 with 32 mines: each cell should hold a mine 500 times
        // (sd ~ 21); a biased placement (say, by chunk or by bit) would stand out.
        let mut hits = [0u32; 256];
        for seed in 0..4000 {
            let bits = generate(16, 32, seed, &|_, _| {}).unwrap();
            for (i, hit) in hits.iter_mut().enumerate() {
                *hit += u32::from(bits[i / 8] >> (i % 8) & 1);
            }
        }
        assert!(hits.iter().all(|&h| (400..600).contains(&h)), "{hits:?}");
    }
}
