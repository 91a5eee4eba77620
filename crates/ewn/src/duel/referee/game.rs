//! The referee: runs games between two players, enforces the rules and the move time, and
//! survives any agent (slow, silent, dead, or writing garbage); and the match around them,
//! from a dice file and a seed.

use super::player::{Forfeit, Player};
use crate::duel::agents::COURSE_MOVE_TIME;
use crate::duel::protocol::{ProtocolError, Setup, parse_move};
use crate::duel::rules::{Board, Color, DICE, course_dice};
use ply_search::StopFlag;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum End {
    /// A cube reached the far corner.
    Corner,
    /// Every enemy cube was captured.
    Captures,
    /// The loser forfeited.
    Forfeit(Forfeit),
}

/// One move of a logged game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The move as sent (`ND`, or `??` for a pass).
    pub mv: String,
    /// The player (0 or 1) who made it.
    pub player: usize,
    /// Seconds it took, measured by the host.
    pub secs: f64,
}

/// One game, as logged (a line of the JSON-lines log).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in its match, from 1.
    pub game: u32,
    /// The player (0 or 1) who was red and moved first.
    pub red_player: usize,
    /// Red's cube numbers on cells 0, 1, 2, 7, 8, 14.
    pub red: String,
    /// Blue's cube numbers on cells 27, 33, 34, 39, 40, 41.
    pub blue: String,
    /// The dice sequence.
    pub dice: String,
    /// The moves in order.
    pub moves: Vec<MoveRecord>,
    /// The winning player (0 or 1).
    pub winner: usize,
    /// How the game ended.
    pub end: End,
}

impl GameRecord {
    /// The setup of the game.
    ///
    /// # Errors
    /// When the logged setup is not valid.
    pub fn setup(&self) -> Result<Setup, ProtocolError> {
        Setup::decode(format!("{}{}{}", self.red, self.blue, self.dice).as_bytes())
    }

    /// The board after each move (the start first), replaying the logged moves up to the
    /// first one that is not legal (a forfeit's move).
    ///
    /// # Errors
    /// When the logged setup is not valid.
    pub fn positions(&self) -> Result<Vec<Board>, ProtocolError> {
        let mut board = self.setup()?.board()?;
        let mut out = vec![board.clone()];
        for record in &self.moves {
            let Ok(mv) = parse_move(record.mv.as_bytes().try_into().unwrap_or([0, 0])) else {
                break;
            };
            if board.play_checked(mv).is_err() {
                break;
            }
            out.push(board.clone());
        }
        Ok(out)
    }
}

/// The referee's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games to play.
    pub rounds: u32,
    /// Seed of the cube permutations and dice-line choices.
    pub seed: u64,
    /// Dice sequences to draw from.
    pub dice: Vec<[u8; DICE]>,
    /// The time per move.
    pub move_time: Duration,
}

/// The setups of a match, game by game (drawn as they are needed, so a long match costs no
/// memory up front), deterministic for the seed.
pub fn setups(config: &MatchConfig) -> impl Iterator<Item = Setup> + '_ {
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    (0..config.rounds).map(move |_| {
        let mut red = [0, 1, 2, 3, 4, 5];
        let mut blue = [0, 1, 2, 3, 4, 5];
        red.shuffle(&mut rng);
        blue.shuffle(&mut rng);
        let dice = config.dice[rng.random_range(0..config.dice.len())];
        Setup { red, blue, dice }
    })
}

/// The setup of the first game of a match of `seed` over the course's dice: what `ply ewn
/// host --seed SEED` plays first and `ply ewn play --seed SEED` starts from.
#[must_use]
pub fn first_setup(seed: u64) -> Setup {
    let config = MatchConfig {
        rounds: 1,
        seed,
        dice: course_dice(),
        move_time: COURSE_MOVE_TIME,
    };
    setups(&config)
        .next()
        .expect("a match of one game has a setup")
}

/// Plays one game, number `game` (from 1) of its match; `red` is the index of the player who
/// moves first.
pub fn play_game(
    players: &mut [&mut dyn Player; 2],
    game: u32,
    red: usize,
    setup: &Setup,
    move_time: Duration,
) -> GameRecord {
    let code = |digits: &[u8]| -> String { digits.iter().map(|&d| char::from(b'0' + d)).collect() };
    let mut record = GameRecord {
        game,
        red_player: red,
        red: code(&setup.red),
        blue: code(&setup.blue),
        dice: code(&setup.dice),
        moves: Vec::new(),
        winner: 0,
        end: End::Corner,
    };
    let forfeit = |record: &mut GameRecord, loser: usize, why: Forfeit| {
        record.winner = 1 - loser;
        record.end = End::Forfeit(why);
    };
    let mut board = setup.board().expect("setups are valid");
    for (i, color) in [(red, Color::Red), (1 - red, Color::Blue)] {
        if let Err(why) = players[i].start_game(setup, color) {
            forfeit(&mut record, i, why);
            return record;
        }
    }
    loop {
        let mover = if board.to_move() == Color::Red {
            red
        } else {
            1 - red
        };
        let (mv, took) = match players[mover].request_move(&board, move_time) {
            Ok(answer) => answer,
            Err(why) => {
                forfeit(&mut record, mover, why);
                return record;
            }
        };
        let text = mv.map_or_else(|| "??".to_string(), |m| m.to_string());
        record.moves.push(MoveRecord {
            mv: text.clone(),
            player: mover,
            secs: took.as_secs_f64(),
        });
        match mv {
            Some(mv) => {
                if let Err(why) = board.play_checked(mv) {
                    forfeit(
                        &mut record,
                        mover,
                        Forfeit::Illegal {
                            mv: text,
                            why: why.to_string(),
                        },
                    );
                    return record;
                }
            }
            None if board.moves().is_empty() => board.pass(),
            None => {
                forfeit(
                    &mut record,
                    mover,
                    Forfeit::Illegal {
                        mv: text,
                        why: "a pass while a move is legal".into(),
                    },
                );
                return record;
            }
        }
        let told = players[1 - mover].tell(mv);
        if let Some(winner) = board.winner() {
            record.winner = if winner == Color::Red { red } else { 1 - red };
            record.end = if board.alive(winner.other()) == 0 {
                End::Captures
            } else {
                End::Corner
            };
            return record;
        }
        if let Err(why) = told {
            forfeit(&mut record, 1 - mover, why);
            return record;
        }
    }
}

/// Plays a match: first player alternates by game, starting with player 0. After a forfeit
/// both players are restarted (the survivor's protocol state is mid-game); after the last
/// game both are stopped. `on_game` sees each game as it ends.
pub fn run_match(
    players: &mut [&mut dyn Player; 2],
    config: &MatchConfig,
    on_game: impl FnMut(&GameRecord),
) -> Vec<GameRecord> {
    run_match_until(players, config, &StopFlag::new(), on_game)
}

/// [`run_match`] that stops when `stop` is raised: no game starts after that, and the game in
/// progress then is not counted (its players should give up waiting on the same flag, as
/// [`ProcessPlayer::with_stop`](super::ProcessPlayer::with_stop) does). The games finished
/// before are returned, and both players are stopped.
pub fn run_match_until(
    players: &mut [&mut dyn Player; 2],
    config: &MatchConfig,
    stop: &StopFlag,
    mut on_game: impl FnMut(&GameRecord),
) -> Vec<GameRecord> {
    let mut records = Vec::new();
    for (game, setup) in setups(config).enumerate() {
        if stop.is_stopped() {
            break;
        }
        let game = game as u32;
        let red = (game % 2) as usize;
        let record = play_game(players, game + 1, red, &setup, config.move_time);
        if stop.is_stopped() {
            break;
        }
        let more = game + 1 < config.rounds;
        if matches!(record.end, End::Forfeit(_)) {
            players[0].reset();
            players[1].reset();
        } else {
            players[0].end_game(more);
            players[1].end_game(more);
        }
        on_game(&record);
        records.push(record);
    }
    // Let the agents see the final `n` and leave on their own, then make sure they are gone.
    std::thread::sleep(Duration::from_millis(50));
    players[0].reset();
    players[1].reset();
    records
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::rules::parse_dice_file;

    #[test]
    fn setups_are_reproducible() {
        let config = MatchConfig {
            rounds: 5,
            seed: 9,
            dice: parse_dice_file(include_str!("../../../../../data/ewn-duel/dice_seq.txt"))
                .unwrap(),
            move_time: Duration::from_secs(2),
        };
        let all = |config: &MatchConfig| setups(config).collect::<Vec<_>>();
        assert_eq!(all(&config), all(&config));
        assert_eq!(all(&config).len(), 5);
        let other = MatchConfig {
            seed: 10,
            ..config.clone()
        };
        assert_ne!(all(&config), all(&other));
        // The course's dice: the first setup of a match of one game.
        let first = MatchConfig {
            rounds: 1,
            dice: course_dice(),
            ..config
        };
        assert_eq!(all(&first), [first_setup(9)]);
    }
}
