//! Running a tournament: games in parallel between fresh agent processes, each under the
//! referee's rules.

use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use ply_search::StopFlag;
use serde::{Deserialize, Serialize};

use super::schedule::{Pairing, Played};
use crate::duel::agents::pondering_fits;
use crate::duel::protocol::Setup;
use crate::duel::referee::{
    End, GameRecord, MatchConfig, Player, ProcessPlayer, play_game, setups,
};

/// An agent of a tournament.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    /// Its name in tables.
    pub name: String,
    /// Its command line (run with `sh -c`).
    pub command: String,
}

/// Runs the games of `pairings` on up to `concurrency` games at once, each between fresh
/// agent processes under the referee's rules (forfeits included); openings come from
/// `config`'s seed and dice lines (`config.rounds` of them, drawn as the games reach them).
/// `on_game` sees each game as it ends, in the order they end, and returns whether to go on
/// (no new game starts once it says no, or once `stop` is set; games in progress then are
/// dropped, their agents stopped). Each agent is told the move time
/// ([`ProcessPlayer::with_move_time`]), and may ponder only when every agent running at once
/// has a core ([`pondering_fits`]).
pub fn run_tournament(
    entrants: &[Entrant],
    pairings: impl Iterator<Item = Pairing> + Send,
    config: &MatchConfig,
    concurrency: usize,
    stop: &StopFlag,
    on_game: impl FnMut(Played) -> bool + Send,
) {
    let workers = concurrency.max(1);
    let tournament = Tournament {
        entrants,
        openings: Mutex::new((setups(config), Vec::new())),
        queue: Mutex::new(pairings),
        on_game: Mutex::new(on_game),
        move_time: config.move_time,
        ponder: pondering_fits(workers),
        stop,
    };
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| tournament.work());
        }
    });
}

/// What the worker threads of a running tournament share.
struct Tournament<'a, S, P, F> {
    /// The agents.
    entrants: &'a [Entrant],
    /// The openings' setups still to draw, and those drawn so far: the setups come from one
    /// seeded sequence, so opening k needs the k before it, and the schedule reaches them in
    /// order.
    openings: Mutex<(S, Vec<Setup>)>,
    /// The games not started yet.
    queue: Mutex<P>,
    /// The caller's callback, which sees each finished game.
    on_game: Mutex<F>,
    /// The time per move.
    move_time: Duration,
    /// Whether the agents may ponder.
    ponder: bool,
    /// Set to start no new game and cut short those in progress.
    stop: &'a StopFlag,
}

impl<S, P, F> Tournament<'_, S, P, F>
where
    S: Iterator<Item = Setup>,
    P: Iterator<Item = Pairing>,
    F: FnMut(Played) -> bool,
{
    /// One worker thread: takes the next game, plays it and reports it, until the schedule or
    /// the openings run out or `stop` is set.
    fn work(&self) {
        while let Some(pairing) = self.next_pairing() {
            let Some(setup) = self.opening(pairing.opening) else {
                return;
            };
            let Some(played) = self.play(pairing, &setup) else {
                return;
            };
            self.report(played);
        }
    }

    /// The next game of the schedule; `None` once `stop` is set or every game has started.
    fn next_pairing(&self) -> Option<Pairing> {
        if self.stop.is_stopped() {
            return None;
        }
        self.queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .next()
    }

    /// The setup of opening `k`, drawing the openings up to it; `None` past the match's last.
    fn opening(&self, k: u32) -> Option<Setup> {
        let mut guard = self.openings.lock().unwrap_or_else(PoisonError::into_inner);
        let (drawn, known) = &mut *guard;
        while known.len() <= k as usize {
            known.push(drawn.next()?);
        }
        Some(known[k as usize])
    }

    /// Plays one game between fresh processes; `None` when `stop` was set meanwhile.
    fn play(&self, pairing: Pairing, setup: &Setup) -> Option<Played> {
        let [mut red, mut blue] = self.start_players(pairing);
        let record = referee(&mut [&mut red, &mut blue], pairing, setup, self.move_time);
        dismiss([&mut red, &mut blue]);
        if self.stop.is_stopped() {
            return None;
        }
        Some(Played {
            pairing,
            winner: pairing.agents[record.winner],
            record,
        })
    }

    /// The pairing's agents, red then blue, as fresh processes told the move time, whether
    /// they may ponder, and the flag that stops them.
    fn start_players(&self, pairing: Pairing) -> [ProcessPlayer; 2] {
        pairing.agents.map(|a| {
            ProcessPlayer::new(&self.entrants[a].name, &self.entrants[a].command)
                .with_stop(self.stop.clone())
                .with_move_time(self.move_time)
                .with_ponder(self.ponder)
        })
    }

    /// Hands a finished game to the caller's callback, unless `stop` is set meanwhile, and
    /// sets `stop` when the callback says to go no further.
    fn report(&self, played: Played) {
        let mut on_game = self.on_game.lock().unwrap_or_else(PoisonError::into_inner);
        if !self.stop.is_stopped() && !(*on_game)(played) {
            self.stop.stop();
        }
    }
}

/// Plays the pairing's game under the referee's rules, then closes it for both players: reset
/// after a forfeit, told that the game is over (and no other follows) after any other end.
fn referee(
    players: &mut [&mut dyn Player; 2],
    pairing: Pairing,
    setup: &Setup,
    move_time: Duration,
) -> GameRecord {
    let record = play_game(players, pairing.index + 1, 0, setup, move_time);
    for p in players {
        if matches!(record.end, End::Forfeit(_)) {
            p.reset();
        } else {
            p.end_game(false);
        }
    }
    record
}

/// Lets the agents see the final `n` and leave on their own, then makes sure they are gone.
fn dismiss(players: [&mut ProcessPlayer; 2]) {
    std::thread::sleep(Duration::from_millis(20));
    for player in players {
        player.reset();
    }
}
