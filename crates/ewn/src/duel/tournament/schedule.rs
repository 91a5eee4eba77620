//! A tournament's schedule: who meets whom on which opening, game by game, and the games as
//! they were played.

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::duel::referee::GameRecord;

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

/// The most games a tournament may have: games are numbered by a `u32`.
pub const MAX_GAMES: u64 = u32::MAX as u64;

/// A tournament with more games than [`MAX_GAMES`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("{games} games, more than the {MAX_GAMES} a tournament can number")]
pub struct TooManyGames {
    /// The games the schedule would have.
    pub games: u64,
}

/// The games of a tournament: for each pair of agents, each opening twice, once with each
/// agent red; ordered opening by opening, so a tournament cut short has played every pair
/// about equally. Each game is computed from its index when it is wanted, so a schedule of
/// any length costs no memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pairs: Vec<(usize, usize)>,
    openings: u32,
}

impl Schedule {
    /// The schedule of `agents` agents over `openings` openings.
    ///
    /// # Errors
    /// [`TooManyGames`] when it would hold more than [`MAX_GAMES`] games.
    pub fn new(agents: usize, openings: u32, format: Format) -> Result<Schedule, TooManyGames> {
        let pairs: Vec<(usize, usize)> = match format {
            Format::RoundRobin => (0..agents)
                .flat_map(|a| (a + 1..agents).map(move |b| (a, b)))
                .collect(),
            Format::Gauntlet => (1..agents).map(|b| (0, b)).collect(),
        };
        let games = (pairs.len() as u64)
            .saturating_mul(2)
            .saturating_mul(u64::from(openings));
        if games > MAX_GAMES {
            return Err(TooManyGames { games });
        }
        Ok(Schedule { pairs, openings })
    }

    /// The number of games.
    #[must_use]
    pub fn len(&self) -> u32 {
        // At most MAX_GAMES, checked when the schedule was made.
        (self.pairs.len() as u64 * 2 * u64::from(self.openings)) as u32
    }

    /// Whether there is no game at all (fewer than two agents, or no opening).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The game numbered `index` (from 0), if the schedule has it.
    #[must_use]
    pub fn get(&self, index: u32) -> Option<Pairing> {
        if index >= self.len() {
            return None;
        }
        let per_opening = self.pairs.len() * 2;
        let i = index as usize;
        let (a, b) = self.pairs[i % per_opening / 2];
        Some(Pairing {
            index,
            agents: if i.is_multiple_of(2) { [a, b] } else { [b, a] },
            opening: (i / per_opening) as u32,
        })
    }

    /// The games in order.
    pub fn iter(&self) -> impl Iterator<Item = Pairing> + Send + '_ {
        (0..self.len()).filter_map(|index| self.get(index))
    }
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

impl Played {
    /// A game of `agents` (red first) won by `winner` with `end`, without moves: the tests'
    /// one way to make a finished game.
    #[cfg(test)]
    pub(crate) fn fixture(
        agents: [usize; 2],
        winner: usize,
        end: crate::duel::referee::End,
    ) -> Played {
        Played {
            pairing: Pairing {
                index: 0,
                agents,
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
                winner: usize::from(winner == agents[1]),
                end,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn schedule(agents: usize, openings: u32, format: Format) -> Vec<Pairing> {
        Schedule::new(agents, openings, format)
            .unwrap()
            .iter()
            .collect()
    }

    #[test]
    fn every_pair_meets_on_every_opening_with_both_colours() {
        let games = schedule(4, 3, Format::RoundRobin);
        assert_eq!(games.len(), 6 * 3 * 2);
        // Opening by opening, each pair's two colours together.
        assert_eq!(
            games[..4]
                .iter()
                .map(|g| (g.agents, g.opening))
                .collect::<Vec<_>>(),
            vec![([0, 1], 0), ([1, 0], 0), ([0, 2], 0), ([2, 0], 0)]
        );
        assert_eq!(games[12].opening, 1);
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

    #[test]
    fn a_schedule_of_billions_of_games_costs_nothing_until_played() {
        // Two agents over u32::MAX / 2 openings: just under the most games a tournament can
        // number, computed game by game.
        let openings = u32::MAX / 2;
        let long = Schedule::new(2, openings, Format::RoundRobin).unwrap();
        assert_eq!(long.len(), u32::MAX - 1);
        let last = long.get(u32::MAX - 2).unwrap();
        assert_eq!((last.agents, last.opening), ([1, 0], openings - 1));
        assert_eq!(long.get(u32::MAX - 1), None);
        assert_eq!(
            Schedule::new(3, u32::MAX, Format::RoundRobin),
            Err(TooManyGames {
                games: 6 * u64::from(u32::MAX)
            })
        );
        assert!(Schedule::new(1, 5, Format::RoundRobin).unwrap().is_empty());
    }
}
