//! Tournaments between agent commands: the schedule (round robin or gauntlet, every opening
//! played with both colours), games in parallel, ratings with error bars, and the sequential
//! probability ratio test that decides "is A stronger than B" as soon as the games allow.
//!
//! Ratings are the maximum-likelihood Bradley-Terry fit on the Elo scale, computed with
//! Hunter's minorization-maximization iteration (Hunter, D. R. (2004), *MM algorithms for
//! generalized Bradley-Terry models*, Annals of Statistics 32, 384-406). The SPRT is Wald's
//! (Wald, A. (1945), *Sequential tests of statistical hypotheses*), on the win probability of
//! the Elo model, as chess engine testing runs it (cutechess-cli, fishtest); EWN has no draws.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::player::Player;
use super::process::ProcessPlayer;
use super::protocol::Setup;
use super::referee::{End, GameRecord, MatchConfig, play_game, setups};
use super::stats::wilson;

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Format {
    /// Every pair of agents.
    RoundRobin,
    /// The first agent against each of the others.
    Gauntlet,
}

/// One game of a tournament.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pairing {
    /// The game's number in the schedule, from 0.
    pub index: u32,
    /// The agents, red (moving first) then blue.
    pub agents: [usize; 2],
    /// The opening (cube permutations and dice line), an index into the match's setups.
    pub opening: u32,
}

/// The games of a tournament of `agents` agents over `openings` openings: for each pair, each
/// opening twice, once with each agent red. Ordered opening by opening, so a tournament cut
/// short has played every pair about equally.
#[must_use]
pub fn schedule(agents: usize, openings: u32, format: Format) -> Vec<Pairing> {
    let pairs: Vec<(usize, usize)> = match format {
        Format::RoundRobin => (0..agents)
            .flat_map(|a| (a + 1..agents).map(move |b| (a, b)))
            .collect(),
        Format::Gauntlet => (1..agents).map(|b| (0, b)).collect(),
    };
    let mut out = Vec::new();
    for opening in 0..openings {
        for &(a, b) in &pairs {
            for agents in [[a, b], [b, a]] {
                out.push(Pairing {
                    index: out.len() as u32,
                    agents,
                    opening,
                });
            }
        }
    }
    out
}

/// A finished game: its pairing, the winning agent, and the referee's record.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Played {
    /// The game.
    pub pairing: Pairing,
    /// The winning agent.
    pub winner: usize,
    /// The referee's record (players 0 and 1 are the pairing's red and blue).
    pub record: GameRecord,
}

/// An agent's results and rating.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Standing {
    /// The agent's index.
    pub agent: usize,
    /// Games played.
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games lost by forfeit.
    pub forfeits: u32,
    /// Rating on the Elo scale, the field's average at 0.
    pub elo: f64,
    /// The 95 % interval of the rating (from the Wilson interval of the agent's score).
    pub elo_interval: (f64, f64),
}

/// The Elo difference that scores `score` (a fraction strictly between 0 and 1).
#[must_use]
pub fn elo_of_score(score: f64) -> f64 {
    -400.0 * (1.0 / score - 1.0).log10()
}

/// The expected score of a player `elo` points stronger.
#[must_use]
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Standings of `agents` agents after the games `played`, best first.
#[must_use]
pub fn standings(agents: usize, played: &[Played]) -> Vec<Standing> {
    let mut wins = vec![0u32; agents];
    let mut games = vec![0u32; agents];
    let mut forfeits = vec![0u32; agents];
    // Games between each pair.
    let mut meetings = vec![vec![0u32; agents]; agents];
    for p in played {
        let [a, b] = p.pairing.agents;
        games[a] += 1;
        games[b] += 1;
        wins[p.winner] += 1;
        meetings[a][b] += 1;
        meetings[b][a] += 1;
        if matches!(p.record.end, End::Forfeit(_)) {
            forfeits[if p.winner == a { b } else { a }] += 1;
        }
    }
    let strength = bradley_terry(&wins, &meetings);
    let mean = strength.iter().map(|s| s.log10()).sum::<f64>() / agents.max(1) as f64;
    let mut out: Vec<Standing> = (0..agents)
        .map(|i| {
            let elo = 400.0 * (strength[i].log10() - mean);
            // The interval shifts the rating by the Elo width of the Wilson interval of the
            // agent's score around its score with the fit's half game either way (so an
            // unbeaten agent's interval still reaches above its rating).
            let (low, high) = if games[i] == 0 {
                (f64::NEG_INFINITY, f64::INFINITY)
            } else {
                let n = f64::from(games[i]);
                let edge = 0.25 / (n + 1.0);
                let to_elo = |x: f64| elo_of_score(x.clamp(edge, 1.0 - edge));
                let centre = to_elo((f64::from(wins[i]) + 0.5) / (n + 1.0));
                let (lo, hi) = wilson(wins[i], games[i]);
                (elo + to_elo(lo) - centre, elo + to_elo(hi) - centre)
            };
            Standing {
                agent: i,
                games: games[i],
                wins: wins[i],
                forfeits: forfeits[i],
                elo,
                elo_interval: (low, high),
            }
        })
        .collect();
    out.sort_by(|a, b| b.elo.total_cmp(&a.elo).then(a.agent.cmp(&b.agent)));
    out
}

/// Bradley-Terry strengths by Hunter's MM iteration, with a virtual half win and half loss
/// against each opponent so that an unbeaten or winless agent keeps a finite rating.
fn bradley_terry(wins: &[u32], meetings: &[Vec<u32>]) -> Vec<f64> {
    let agents = wins.len();
    let mut gamma = vec![1.0f64; agents];
    let played: Vec<u32> = meetings.iter().map(|row| row.iter().sum()).collect();
    for _ in 0..1000 {
        let mut next = gamma.clone();
        let mut change = 0.0f64;
        for i in 0..agents {
            if played[i] == 0 {
                continue;
            }
            let opponents = meetings[i].iter().filter(|&&m| m > 0).count() as f64;
            let w = f64::from(wins[i]) + 0.5 * opponents;
            let denominator: f64 = (0..agents)
                .filter(|&j| meetings[i][j] > 0)
                .map(|j| (f64::from(meetings[i][j]) + 1.0) / (gamma[i] + gamma[j]))
                .sum();
            next[i] = w / denominator;
            change = change.max((next[i] / gamma[i]).ln().abs());
        }
        // Fix the scale: the geometric mean stays 1.
        let mean = next.iter().map(|g| g.ln()).sum::<f64>() / agents as f64;
        gamma = next.iter().map(|g| (g.ln() - mean).exp()).collect();
        if change < 1e-10 {
            break;
        }
    }
    gamma
}

/// A sequential probability ratio test of H0 "A is `elo0` stronger than B" against H1 "A is
/// `elo1` stronger", with error rates `alpha` (accepting H1 when H0 holds) and `beta`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The false positive rate.
    pub alpha: f64,
    /// The false negative rate.
    pub beta: f64,
}

/// What an SPRT says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// H1 accepted: A is stronger by about `elo1` or more.
    H1,
    /// H0 accepted: A is not stronger by `elo1`.
    H0,
    /// Not decided yet.
    Open,
}

impl Sprt {
    /// The log-likelihood ratio of H1 against H0 after A won `wins` and lost `losses`.
    #[must_use]
    pub fn llr(&self, wins: u32, losses: u32) -> f64 {
        let (p0, p1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        f64::from(wins) * (p1 / p0).ln() + f64::from(losses) * ((1.0 - p1) / (1.0 - p0)).ln()
    }

    /// The bounds on the log-likelihood ratio: below the first H0 is accepted, above the
    /// second H1.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The verdict after A won `wins` and lost `losses`.
    #[must_use]
    pub fn verdict(&self, wins: u32, losses: u32) -> Verdict {
        let llr = self.llr(wins, losses);
        let (low, high) = self.bounds();
        if llr >= high {
            Verdict::H1
        } else if llr <= low {
            Verdict::H0
        } else {
            Verdict::Open
        }
    }
}

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
/// `config`'s seed and dice lines. `on_game` sees each game as it ends, in the order they
/// end, and returns whether to go on (no new game starts once it says no, or once `stop` is
/// set; games in progress then are dropped, their agents stopped).
pub fn run_tournament(
    entrants: &[Entrant],
    pairings: &[Pairing],
    config: &MatchConfig,
    concurrency: usize,
    stop: &Arc<AtomicBool>,
    on_game: impl FnMut(Played) -> bool + Send,
) {
    let openings = pairings.iter().map(|p| p.opening + 1).max().unwrap_or(0);
    let setups: Vec<Setup> = setups(&MatchConfig {
        rounds: openings,
        ..config.clone()
    })
    .collect();
    let queue = Mutex::new(pairings.iter().copied().collect::<VecDeque<_>>());
    let on_game = Mutex::new(on_game);
    let move_time = config.move_time;
    std::thread::scope(|scope| {
        for _ in 0..concurrency.max(1) {
            scope.spawn(|| {
                loop {
                    if stop.load(Ordering::SeqCst) {
                        return;
                    }
                    let Some(pairing) = queue
                        .lock()
                        .unwrap_or_else(PoisonError::into_inner)
                        .pop_front()
                    else {
                        return;
                    };
                    let setup = &setups[pairing.opening as usize];
                    let Some(played) = play(entrants, pairing, setup, move_time, stop) else {
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
    stop: &Arc<AtomicBool>,
) -> Option<Played> {
    let [mut red, mut blue] = pairing.agents.map(|a| {
        ProcessPlayer::new(&entrants[a].name, &entrants[a].command).with_stop(Arc::clone(stop))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pair_meets_on_every_opening_with_both_colours() {
        let games = schedule(4, 3, Format::RoundRobin);
        assert_eq!(games.len(), 6 * 3 * 2);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.index as usize, i);
        }
        for a in 0..4 {
            for b in 0..4 {
                let n = games.iter().filter(|g| g.agents == [a, b]).count();
                assert_eq!(n, if a == b { 0 } else { 3 }, "{a} red against {b}");
            }
        }
        let gauntlet = schedule(4, 2, Format::Gauntlet);
        assert_eq!(gauntlet.len(), 3 * 2 * 2);
        assert!(gauntlet.iter().all(|g| g.agents.contains(&0)));
    }

    fn played(a: usize, b: usize, winner: usize) -> Played {
        Played {
            pairing: Pairing {
                index: 0,
                agents: [a, b],
                opening: 0,
            },
            winner,
            record: GameRecord {
                game: 1,
                red_player: 0,
                red: String::new(),
                blue: String::new(),
                dice: String::new(),
                moves: Vec::new(),
                winner: usize::from(winner == b),
                end: End::Corner,
            },
        }
    }

    #[test]
    fn ratings_follow_the_scores() {
        // A beats B 3 games in 4 (about +191 Elo); B beats C likewise; A beats C 9 in 10.
        let mut games = Vec::new();
        for (a, b, wins, n) in [(0, 1, 30, 40), (1, 2, 30, 40), (0, 2, 36, 40)] {
            for i in 0..n {
                games.push(played(a, b, if i < wins { a } else { b }));
            }
        }
        let table = standings(3, &games);
        let order: Vec<usize> = table.iter().map(|s| s.agent).collect();
        assert_eq!(order, vec![0, 1, 2]);
        let elo = |agent: usize| table.iter().find(|s| s.agent == agent).unwrap().elo;
        let ab = elo(0) - elo(1);
        assert!((150.0..260.0).contains(&ab), "{ab}");
        assert!(elo(0) + elo(1) + elo(2) < 1e-6);
        for s in &table {
            assert!(
                s.elo_interval.0 < s.elo && s.elo < s.elo_interval.1,
                "{s:?}"
            );
            assert_eq!(s.games, 80);
        }
        // Two agents only: the rating gap is the score's Elo (with the half-game prior).
        let two: Vec<Played> = (0..100)
            .map(|i| played(0, 1, if i < 64 { 0 } else { 1 }))
            .collect();
        let table = standings(2, &two);
        let gap = table[0].elo - table[1].elo;
        assert!((gap - elo_of_score(64.5 / 101.0)).abs() < 1.0, "{gap}");
    }

    #[test]
    fn the_sprt_decides_clear_cases_and_waits_on_close_ones() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (low, high) = sprt.bounds();
        assert!((low + 2.944).abs() < 1e-3 && (high - 2.944).abs() < 1e-3);
        assert_eq!(sprt.verdict(0, 0), Verdict::Open);
        assert_eq!(sprt.verdict(150, 50), Verdict::H1);
        assert_eq!(sprt.verdict(50, 150), Verdict::H0);
        assert_eq!(sprt.verdict(11, 9), Verdict::Open);
        // The log-likelihood ratio grows with wins and falls with losses.
        assert!(sprt.llr(11, 9) > sprt.llr(10, 10) && sprt.llr(10, 10) > sprt.llr(9, 11));
    }

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-400.0, -100.0, 0.0, 35.0, 200.0] {
            assert!((elo_of_score(score_of_elo(elo)) - elo).abs() < 1e-9);
        }
        assert!((score_of_elo(0.0) - 0.5).abs() < 1e-12);
    }
}
