//! Batches of random playouts from the referee's setups: the engine's speed figure (`ply ewn
//! playouts`), in the library so every front end measures the same thing.

use std::time::{Duration, Instant};

use ply_search::StopFlag;

use super::playout::random_playout;
use crate::duel::referee::{MatchConfig, setups};
use crate::duel::rules::{Board, Color, FastRng, course_dice};

/// How many distinct setups a batch cycles through.
const STARTS: u32 = 64;

/// What a batch of playouts did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayoutTally {
    /// Games played.
    pub games: u64,
    /// Moves played in all.
    pub moves: u64,
    /// Games red won.
    pub red_wins: u64,
    /// Wall time of the games (the setups drawn before excluded).
    pub elapsed: Duration,
}

/// Plays `games` uniformly random games from the first 64 setups a match of `seed` would use
/// on the course's dice (game `i` from setup `i mod 64`), with one [`FastRng`] of `seed`:
/// the same games for the same arguments.
#[must_use]
pub fn playouts(games: u64, seed: u64) -> PlayoutTally {
    playouts_until(games, seed, &StopFlag::new())
}

/// Games between two looks at the stop flag.
const CHECK_EVERY: u64 = 1024;

/// [`playouts`] that stops early once `stop` is raised (looked at every 1024 games); the
/// tally counts the games played.
#[must_use]
pub fn playouts_until(games: u64, seed: u64, stop: &StopFlag) -> PlayoutTally {
    let config = MatchConfig {
        rounds: STARTS,
        seed,
        dice: course_dice(),
        move_time: Duration::from_secs(1),
    };
    let starts: Vec<Board> = setups(&config)
        .map(|s| s.board().expect("setups are valid"))
        .collect();
    let mut rng = FastRng::new(seed);
    let (mut moves, mut red_wins) = (0u64, 0u64);
    let started = Instant::now();
    let mut played = 0;
    for game in 0..games {
        if game % CHECK_EVERY == 0 && stop.is_stopped() {
            break;
        }
        played += 1;
        let mut board = starts[(game % u64::from(STARTS)) as usize].clone();
        let (winner, n) = random_playout(&mut board, &mut rng);
        moves += u64::from(n);
        red_wins += u64::from(winner == Color::Red);
    }
    PlayoutTally {
        games: played,
        moves,
        red_wins,
        elapsed: started.elapsed(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batches_are_reproducible_and_play_whole_games() {
        let a = playouts(200, 7);
        assert_eq!((a.games, a.moves, a.red_wins), {
            let b = playouts(200, 7);
            (b.games, b.moves, b.red_wins)
        });
        // A game takes at least 9 moves: each side's nearest cube is 5 steps from its corner,
        // and capturing every enemy cube takes 6.
        assert!(a.moves >= 9 * a.games, "{a:?}");
        assert!(a.red_wins <= a.games);
        assert_eq!(playouts(0, 7).moves, 0);
    }

    #[test]
    fn a_raised_flag_stops_a_batch() {
        let stop = StopFlag::new();
        stop.stop();
        let tally = playouts_until(10_000, 7, &stop);
        assert_eq!((tally.games, tally.moves), (0, 0));
    }
}
