//! Random instances with their optimum, deterministic for a seed.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply_search::Limits;

use super::instance::{DICE, Instance};
use super::rules::{CELLS, HOLE};
use super::solver::{SoloOutcome, solve};

/// Draws random instances and solves each, keeping those whose optimum lies in `min..=max`
/// (with the optimum set) until `count` are kept; with `unsolvable`, keeps only instances
/// proven to have no solution instead (marked as such). `on_keep` receives each kept instance
/// as soon as it is found and returns whether to go on; `on_try` receives the number of draws
/// so far (for progress).
/// Deterministic for `seed`.
pub fn generate(
    seed: u64,
    count: usize,
    (min, max): (u32, u32),
    unsolvable: bool,
    mut on_keep: impl FnMut(&Instance) -> bool,
    mut on_try: impl FnMut(usize),
) -> Vec<Instance> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let cells: Vec<u8> = (0..CELLS as u8).filter(|&c| c != HOLE).collect();
    let mut kept = Vec::with_capacity(count);
    let mut tries = 0;
    while kept.len() < count {
        tries += 1;
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
        match solve(&instance, Limits::UNLIMITED).outcome {
            SoloOutcome::Solved(moves) if !unsolvable => {
                let n = moves.len() as u32;
                if (min..=max).contains(&n) {
                    instance.known_optimum = Some(n);
                    let go_on = on_keep(&instance);
                    kept.push(instance);
                    if !go_on {
                        break;
                    }
                }
            }
            SoloOutcome::NoSolution if unsolvable => {
                instance.known_unsolvable = true;
                let go_on = on_keep(&instance);
                kept.push(instance);
                if !go_on {
                    break;
                }
            }
            _ => {}
        }
        on_try(tries);
    }
    kept
}
