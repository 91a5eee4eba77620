//! Many games: seeds derived from one, games played in parallel (one thread a game), and
//! the tally a win-rate benchmark reports.

use std::ops::Range;

use ply_search::StopFlag;
use ply_search::messages::plural;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::player::{Strategy, play_until};
use super::rules::Rules;
use crate::MinesError;

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
/// on rayon's current pool (each game on one thread), calling `done` after each game; `None`
/// once `stop` is raised (the games in play give up at their next move, the rest are not
/// started), so that a part is tallied whole or not at all.
pub fn play_games(
    rules: &Rules,
    strategy: &Strategy,
    seed: u64,
    indices: Range<u64>,
    stop: &StopFlag,
    done: &(dyn Fn() + Sync),
) -> Option<Tally> {
    indices
        .into_par_iter()
        .map(|index| {
            let record = play_until(rules, strategy, game_seed(seed, index), stop, |_, _| {})?;
            done();
            Some(Tally {
                games: 1,
                wins: u64::from(record.won),
                guesses: u64::from(record.guesses),
            })
        })
        .try_reduce(Tally::default, |a, b| Some(a.merged(b)))
}

/// [`play_games`] without a callback, on a pool of `threads` threads of its own (`None`:
/// rayon's current pool): a run's tally, `None` once `stop` is raised.
///
/// # Errors
/// The threads could not be started.
pub fn play_run(
    rules: &Rules,
    strategy: &Strategy,
    seed: u64,
    indices: Range<u64>,
    threads: Option<usize>,
    stop: &StopFlag,
) -> Result<Option<Tally>, rayon::ThreadPoolBuildError> {
    let play = || play_games(rules, strategy, seed, indices, stop, &|| {});
    Ok(match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .thread_name(|i| format!("ply-classic-{i}"))
            .build()?
            .install(play),
        None => play(),
    })
}

/// Games per block of a run that is logged as it goes (`ply mines classic bench`): a block is
/// recorded whole once its games are played, so a stopped run loses at most a block's games.
pub const BLOCK_GAMES: u64 = 1_000;

/// The number of blocks of a run of `games` games.
#[must_use]
pub fn blocks(games: u64) -> u64 {
    games.div_ceil(BLOCK_GAMES)
}

/// The games of block `block` (from 0) of a run of `games` games; empty past the last block.
#[must_use]
pub fn block_games(games: u64, block: u64) -> Range<u64> {
    let first = block.saturating_mul(BLOCK_GAMES).min(games);
    first..first.saturating_add(BLOCK_GAMES).min(games)
}

/// The problem of a block's recorded `tally`, if any: a block of a run of `games` games
/// tallies exactly its games, and no more wins than games.
///
/// # Errors
/// The tally no run of this size records, in words.
pub fn check_block(games: u64, block: u64, tally: &Tally) -> Result<(), MinesError> {
    let expected = block_games(games, block);
    let size = expected.end - expected.start;
    let bad = |what: String| Err(MinesError::BadParameters(what));
    if size == 0 {
        return bad(format!(
            "block {} is not in a run of {} ({})",
            block.saturating_add(1),
            plural(games, "game"),
            plural(blocks(games), "block")
        ));
    }
    if tally.games != size {
        return bad(format!(
            "the block tallies {} where block {} of a run of {} holds {}",
            plural(tally.games, "game"),
            block + 1,
            plural(games, "game"),
            plural(size, "game")
        ));
    }
    if tally.wins > tally.games {
        return bad(format!(
            "the block tallies {} of {}",
            plural(tally.wins, "win"),
            plural(tally.games, "game")
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::{FirstClick, Level};
    use super::*;

    #[test]
    fn a_run_splits_into_parts_that_add_up() {
        let rules = Rules::level(Level::Beginner, FirstClick::Safe);
        let play = |games| {
            play_games(
                &rules,
                &Strategy::default(),
                9,
                games,
                &StopFlag::new(),
                &|| {},
            )
            .unwrap()
        };
        let whole = play(0..60);
        let parts = play(0..25).merged(play(25..60));
        assert_eq!(whole, parts);
        assert_eq!(whole.games, 60);
        assert!(whole.wins > 30 && whole.wins < 60, "{whole:?}");
        assert_ne!(game_seed(1, 0), game_seed(0, 1));
        let run = |threads| {
            play_run(
                &rules,
                &Strategy::default(),
                9,
                0..60,
                threads,
                &StopFlag::new(),
            )
            .unwrap()
            .unwrap()
        };
        assert_eq!(run(Some(2)), whole);
        assert_eq!(run(None), whole);
        let stopped = StopFlag::new();
        stopped.stop();
        let none = play_run(&rules, &Strategy::default(), 9, 0..60, Some(1), &stopped);
        assert_eq!(none.unwrap(), None);
    }
}

#[cfg(test)]
mod block_tests {
    use super::super::{FirstClick, Level};
    use super::*;

    #[test]
    fn blocks_cover_the_run_once() {
        for games in [1, 999, 1_000, 1_001, 12_345, MAX_GAMES] {
            let n = blocks(games);
            assert_eq!(block_games(games, 0).start, 0);
            assert_eq!(block_games(games, n - 1).end, games, "{games}");
            assert!(block_games(games, n).is_empty());
            if n > 1 {
                assert_eq!(
                    block_games(games, n - 2).end,
                    block_games(games, n - 1).start
                );
            }
        }
    }

    #[test]
    fn a_block_tallies_its_games_and_no_more_wins() {
        let tally = |games, wins| Tally {
            games,
            wins,
            guesses: 0,
        };
        assert!(check_block(40_000, 3, &tally(1_000, 400)).is_ok());
        assert!(check_block(1_500, 1, &tally(500, 500)).is_ok());
        let more = check_block(40_000, 3, &tally(5_000, 4_999)).unwrap_err();
        assert!(
            more.to_string().contains("5,000 games where block 4"),
            "{more}"
        );
        let wins = check_block(40_000, 0, &tally(1_000, 1_001)).unwrap_err();
        assert!(
            wins.to_string().contains("1,001 wins of 1,000 games"),
            "{wins}"
        );
        assert!(check_block(1_500, 2, &tally(0, 0)).is_err());
    }

    #[test]
    fn a_raised_flag_stops_the_games() {
        let rules = Rules::level(Level::Beginner, FirstClick::Safe);
        let stop = StopFlag::new();
        stop.stop();
        assert_eq!(
            play_games(&rules, &Strategy::default(), 1, 0..10, &stop, &|| {}),
            None
        );
        // Raised during the run: the games in play give up, the part is not tallied.
        let stop = StopFlag::new();
        let played = std::sync::atomic::AtomicU64::new(0);
        let raise = || {
            if played.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 3 {
                stop.stop();
            }
        };
        assert_eq!(
            play_games(&rules, &Strategy::default(), 1, 0..1_000, &stop, &raise),
            None
        );
        assert!(played.load(std::sync::atomic::Ordering::Relaxed) < 1_000);
    }
}
