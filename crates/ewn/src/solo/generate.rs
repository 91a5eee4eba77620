//! Random instances with their optimum, deterministic for a seed.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply_search::Limits;
use thiserror::Error;

use super::instance::{DICE, Instance};
use super::rules::{CELLS, HOLE};
use super::solver::{SoloOutcome, solve};

/// What to generate: how many instances, which optima, and how many draws to try at most.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// Instances to keep.
    pub count: usize,
    /// Keep only instances whose optimum lies in this range (inclusive).
    pub moves: (u32, u32),
    /// Keep only instances proven to have no solution instead.
    pub unsolvable: bool,
    /// Give up after this many draws (a rare or impossible request would run forever).
    pub max_draws: u64,
}

/// Why no (or not enough) instances came out.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum GenError {
    /// The options ask for instances that cannot exist.
    #[error("{0}")]
    Impossible(String),
    /// The draw budget ran out first.
    #[error("gave up after {draws} draws with {kept} of {count} instances kept")]
    GaveUp {
        /// Draws made.
        draws: u64,
        /// Instances kept (already handed to the caller).
        kept: usize,
        /// Instances asked for.
        count: usize,
    },
}

/// Draws random instances and solves each, keeping those whose optimum lies in
/// `options.moves` (with the optimum set) until `options.count` are kept; with
/// `options.unsolvable`, keeps only instances proven to have no solution instead (marked as
/// such). `on_keep` receives each kept instance as soon as it is found and returns whether to
/// go on; `on_try` receives the number of draws so far (for progress). Deterministic for
/// `seed`.
///
/// # Errors
/// [`GenError::Impossible`] for options no instance meets (a range outside 0 to [`DICE`]
/// moves), [`GenError::GaveUp`] when `options.max_draws` draws keep fewer than asked.
pub fn generate(
    seed: u64,
    options: GenOptions,
    mut on_keep: impl FnMut(&Instance) -> bool,
    mut on_try: impl FnMut(u64),
) -> Result<Vec<Instance>, GenError> {
    let (min, max) = options.moves;
    if min > max {
        return Err(GenError::Impossible(format!(
            "the fewest moves ({min}) exceed the most ({max})"
        )));
    }
    if !options.unsolvable && min > DICE as u32 {
        return Err(GenError::Impossible(format!(
            "no solution is longer than the {DICE} dice, so none needs {min} moves"
        )));
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cells: Vec<u8> = (0..CELLS as u8).filter(|&c| c != HOLE).collect();
    let mut kept = Vec::with_capacity(options.count.min(1 << 10));
    let mut draws = 0;
    while kept.len() < options.count {
        if draws == options.max_draws {
            return Err(GenError::GaveUp {
                draws,
                kept: kept.len(),
                count: options.count,
            });
        }
        draws += 1;
        let mut shuffled = cells.clone();
        shuffled.shuffle(&mut rng);
        let mut instance = Instance {
            goal: rng.random_range(1..=6),
            cells: [0; 6],
            dice: [0; DICE],
            known_optimum: None,
            known_unsolvable: false,
        };
        instance.cells.copy_from_slice(&shuffled[..6]);
        for d in &mut instance.dice {
            *d = rng.random_range(1..=6);
        }
        let keep = match solve(&instance, Limits::UNLIMITED).outcome {
            SoloOutcome::Solved(moves) if !options.unsolvable => {
                let n = moves.len() as u32;
                instance.known_optimum = Some(n);
                (min..=max).contains(&n)
            }
            SoloOutcome::NoSolution if options.unsolvable => {
                instance.known_unsolvable = true;
                true
            }
            _ => false,
        };
        if keep {
            let go_on = on_keep(&instance);
            kept.push(instance);
            if !go_on {
                break;
            }
        }
        on_try(draws);
    }
    Ok(kept)
}
