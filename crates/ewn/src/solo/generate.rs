//! Random instances with their optimum, deterministic for a seed.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use ply_search::{Ending, Limits};
use thiserror::Error;

use super::bounds::king_distance;
use super::instance::{DICE, Instance};
use super::rules::{CELLS, HOLE};
use super::solver::solve;
use ply_search::messages::plural;

/// How far from (0,0) (king distance) the goal piece of a drawn unsolvable candidate stands.
const FAR: u32 = 6;

/// The share of a drawn unsolvable candidate's dice that select the piece at the other end of
/// the numbers from the goal piece, in percent.
const BIAS: u32 = 85;

/// A candidate for an unsolvable instance. Uniform draws almost never are unsolvable: with
/// thirty dice the player captures its way to control of them. Here the goal piece is 1 or 6
/// and stands far from (0,0), and most dice select the piece at the other end (6 or 1), which
/// must move and cannot be captured while it does; a die of its number selects the goal piece
/// only once the four pieces in between and it are all gone. About half of these are
/// unsolvable; the solver decides which.
fn unsolvable_candidate(rng: &mut ChaCha8Rng, cells: &[u8]) -> Instance {
    let goal = if rng.random_bool(0.5) { 1 } else { 6 };
    let other = 7 - goal;
    let mut shuffled = cells.to_vec();
    let mut instance = Instance {
        goal,
        cells: [0; 6],
        dice: [0; DICE],
        known_optimum: None,
        known_unsolvable: false,
    };
    loop {
        shuffled.shuffle(rng);
        instance.cells.copy_from_slice(&shuffled[..6]);
        if king_distance(instance.cells[usize::from(goal - 1)]) >= FAR {
            break;
        }
    }
    for d in &mut instance.dice {
        *d = if rng.random_range(0..100) < BIAS {
            other
        } else {
            rng.random_range(1..=6)
        };
    }
    instance
}

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
    #[error(
        "gave up after {} with {kept} of {} kept",
        plural(*.draws, "draw"),
        plural(*.count as u64, "instance")
    )]
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
/// `options.unsolvable`, draws from a distribution where about half the instances have no
/// solution and keeps those proven to have none (marked as such). `on_keep` receives each kept instance as soon as it is found and returns whether to
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
        let mut instance = if options.unsolvable {
            unsolvable_candidate(&mut rng, &cells)
        } else {
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
            instance
        };
        let keep = match solve(&instance, Limits::UNLIMITED).ending {
            Ending::Solved { moves, .. } if !options.unsolvable => {
                let n = moves.len() as u32;
                instance.known_optimum = Some(n);
                (min..=max).contains(&n)
            }
            Ending::Unsolvable if options.unsolvable => {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsolvable_instances_come_quickly() {
        let options = GenOptions {
            count: 5,
            moves: (0, DICE as u32),
            unsolvable: true,
            max_draws: 50,
        };
        let kept = generate(7, options, |_| true, |_| {}).expect("five within 50 draws");
        assert_eq!(kept.len(), 5);
        for instance in &kept {
            assert!(instance.known_unsolvable);
            assert_eq!(
                solve(instance, Limits::UNLIMITED).ending,
                Ending::Unsolvable
            );
        }
        assert_eq!(generate(7, options, |_| true, |_| {}).unwrap(), kept);
    }

    #[test]
    fn giving_up_counts_in_words() {
        let error = GenError::GaveUp {
            draws: 1,
            kept: 0,
            count: 1,
        };
        assert_eq!(
            error.to_string(),
            "gave up after 1 draw with 0 of 1 instance kept"
        );
    }
}
