//! Running a tournament: games in parallel between fresh agent processes, each under the
//! referee's rules.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::schedule::{Pairing, Played};
use crate::duel::protocol::Setup;
use crate::duel::referee::{End, MatchConfig, Player, ProcessPlayer, play_game, setups};

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
/// has a core ([`pondering_fits`](crate::duel::agents::pondering_fits)).
pub fn run_tournament(
    entrants: &[Entrant],
    pairings: impl Iterator<Item = Pairing> + Send,
    config: &MatchConfig,
    concurrency: usize,
    stop: &Arc<AtomicBool>,
    on_game: impl FnMut(Played) -> bool + Send,
) {
    // The openings drawn so far: the setups come from one seeded sequence, so opening k
    // needs the k before it, and the schedule reaches them in order.
    let openings = Mutex::new((setups(config), Vec::<Setup>::new()));
    let opening = |k: u32| {
        let mut guard = openings.lock().unwrap_or_else(PoisonError::into_inner);
        let (drawn, known) = &mut *guard;
        while known.len() <= k as usize {
            known.push(drawn.next()?);
        }
        Some(known[k as usize])
    };
    let queue = Mutex::new(pairings);
    let on_game = Mutex::new(on_game);
    let move_time = config.move_time;
    let ponder = crate::duel::agents::pondering_fits(concurrency.max(1));
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let Some(pairing) = queue.lock().unwrap_or_else(PoisonError::into_inner).next()
                    else {
                        return;
                    };
                    let Some(setup) = opening(pairing.opening) else {
                        return;
                    };
                    let Some(played) = play(entrants, pairing, &setup, move_time, ponder, stop)
                    else {
                        return;
                    };
                    let mut on_game = on_game.lock().unwrap_or_else(PoisonError::into_inner);
                    if !stop.load(Ordering::SeqCst) && !(*on_game)(played) {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
            });
        }
    });
}

/// Plays one game between fresh processes; `None` when `stop` was set meanwhile.
fn play(
    entrants: &[Entrant],
    pairing: Pairing,
    setup: &Setup,
    move_time: Duration,
    ponder: bool,
    stop: &Arc<AtomicBool>,
) -> Option<Played> {
    let [mut red, mut blue] = pairing.agents.map(|a| {
        ProcessPlayer::new(&entrants[a].name, &entrants[a].command)
            .with_stop(Arc::clone(stop))
            .with_move_time(move_time)
            .with_ponder(ponder)
    });
    let record = {
        let mut players: [&mut dyn Player; 2] = [&mut red, &mut blue];
        let record = play_game(&mut players, pairing.index + 1, 0, setup, move_time);
        for p in &mut players {
            if matches!(record.end, End::Forfeit(_)) {
                p.reset();
            } else {
                p.end_game(false);
            }
        }
        record
    };
    // Let the agents see the final `n` and leave on their own, then make sure they are gone.
    std::thread::sleep(Duration::from_millis(20));
    red.reset();
    blue.reset();
    if stop.load(Ordering::SeqCst) {
        return None;
    }
    Some(Played {
        pairing,
        winner: pairing.agents[record.winner],
        record,
    })
}
