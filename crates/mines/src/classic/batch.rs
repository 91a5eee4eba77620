//! Many games: seeds derived from one, games played in parallel (one thread a game), and
//! the tally a win-rate benchmark reports.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::player::{Strategy, play_traced};
use super::rules::Rules;

/// The seed of game `index` of a run seeded `seed`: SplitMix64 of both (Steele, Lea and
/// Flood, *Fast splittable pseudorandom number generators*, OOPSLA 2014), so that runs with
/// neighbouring seeds share no games.
#[must_use]
pub fn game_seed(seed: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(index)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The most games one run plays (a game's number must leave room for the seeds' mixing, and
/// no run needs more).
pub const MAX_GAMES: u64 = 1_000_000_000_000;

/// What a set of games came to.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Guesses made (neither the first click nor certain), over all games.
    pub guesses: u64,
}

impl Tally {
    /// The win rate (0 for no games).
    #[must_use]
    pub fn rate(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            self.wins as f64 / self.games as f64
        }
    }

    /// The 95 % Wilson interval of the win rate.
    #[must_use]
    pub fn interval(&self) -> (f64, f64) {
        ply_search::wilson(self.wins, self.games)
    }

    /// Both tallies together.
    #[must_use]
    pub fn merged(self, other: Tally) -> Tally {
        Tally {
            games: self.games + other.games,
            wins: self.wins + other.wins,
            guesses: self.guesses + other.guesses,
        }
    }
}

/// Plays games `indices` of the run seeded `seed` under `rules` with `strategy`, in parallel
/// on rayon's current pool (each game on one thread), calling `done` after each game.
pub fn play_games(
    rules: &Rules,
    strategy: &Strategy,
    seed: u64,
    indices: std::ops::Range<u64>,
    done: &(dyn Fn() + Sync),
) -> Tally {
    indices
        .into_par_iter()
        .map(|index| {
            let record = play_traced(rules, strategy, game_seed(seed, index), |_, _| {});
            done();
            Tally {
                games: 1,
                wins: u64::from(record.won),
                guesses: u64::from(record.guesses),
            }
        })
        .reduce(Tally::default, Tally::merged)
}

#[cfg(test)]
mod tests {
    use super::super::{FirstClick, Level};
    use super::*;

    #[test]
    fn a_run_splits_into_parts_that_add_up() {
        let rules = Rules::level(Level::Beginner, FirstClick::Safe);
        let whole = play_games(&rules, &Strategy::default(), 9, 0..60, &|| {});
        let parts = play_games(&rules, &Strategy::default(), 9, 0..25, &|| {}).merged(play_games(
            &rules,
            &Strategy::default(),
            9,
            25..60,
            &|| {},
        ));
        assert_eq!(whole, parts);
        assert_eq!(whole.games, 60);
        assert!(whole.wins > 30 && whole.wins < 60, "{whole:?}");
        assert_ne!(game_seed(1, 0), game_seed(0, 1));
    }
}
