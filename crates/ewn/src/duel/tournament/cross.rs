//! What the games say pair by pair: the cross-table of wins between each two agents, and the
//! share of games lost on time, above which the ratings say more about the move time than
//! about the play.

use serde::{Deserialize, Serialize};

use super::schedule::Played;
use crate::duel::referee::{End, Forfeit};

/// The games each agent won against each other agent: `wins(a, b)` games won by `a` against
/// `b`, whatever the colours, so `a` and `b` met `wins(a, b) + wins(b, a)` times (EWN has no
/// draws). Serialized as the square matrix of those counts, row `a` column `b`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CrossTable {
    wins: Vec<Vec<u32>>,
}

impl CrossTable {
    /// The cross-table of `agents` agents after the games `played`.
    ///
    /// # Panics
    /// When a game names an agent of index `agents` or more.
    #[must_use]
    pub fn new(agents: usize, played: &[Played]) -> CrossTable {
        let mut table = CrossTable {
            wins: vec![vec![0; agents]; agents],
        };
        for game in played {
            table.add(game);
        }
        table
    }

    /// Counts one more game.
    ///
    /// # Panics
    /// When the game names an agent outside the table.
    pub fn add(&mut self, game: &Played) {
        let [red, blue] = game.pairing.agents;
        let loser = if game.winner == red { blue } else { red };
        self.wins[game.winner][loser] += 1;
    }

    /// The number of agents.
    #[must_use]
    pub fn agents(&self) -> usize {
        self.wins.len()
    }

    /// The games `agent` won against `opponent`.
    #[must_use]
    pub fn wins(&self, agent: usize, opponent: usize) -> u32 {
        self.wins[agent][opponent]
    }

    /// The games `a` and `b` played against each other.
    #[must_use]
    pub fn games(&self, a: usize, b: usize) -> u32 {
        self.wins[a][b] + self.wins[b][a]
    }
}

/// The share of the games lost on time, as (numerator, denominator), at or above which a
/// tournament's ratings are flagged: when a third or more of the games end because an agent
/// did not move in time, the ratings and the test measure which agent keeps to the move time
/// (a slow machine, too many games at once) rather than which plays better, and a longer
/// move time or fewer games at once make them mean something again. A fraction, so that the
/// comparison is exact.
pub const TIME_LOSS_WARNING: (u32, u32) = (1, 3);

/// How many of a tournament's games were lost on time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimeLosses {
    /// The games.
    pub games: u32,
    /// Of those, the games lost because an agent sent no move within the move time
    /// ([`Forfeit::Timeout`]).
    pub lost_on_time: u32,
}

impl TimeLosses {
    /// The games of `played` lost on time.
    #[must_use]
    pub fn new(played: &[Played]) -> TimeLosses {
        let lost_on_time = played
            .iter()
            .filter(|game| matches!(game.record.end, End::Forfeit(Forfeit::Timeout(_))))
            .count();
        TimeLosses {
            games: u32::try_from(played.len()).unwrap_or(u32::MAX),
            lost_on_time: u32::try_from(lost_on_time).unwrap_or(u32::MAX),
        }
    }

    /// The share of the games lost on time (0 without games).
    #[must_use]
    pub fn share(&self) -> f64 {
        if self.games == 0 {
            0.0
        } else {
            f64::from(self.lost_on_time) / f64::from(self.games)
        }
    }

    /// Whether so many games were lost on time ([`TIME_LOSS_WARNING`] or more of them) that
    /// the ratings mean little.
    #[must_use]
    pub fn too_many(&self) -> bool {
        let (numerator, denominator) = TIME_LOSS_WARNING;
        self.games > 0
            && u64::from(self.lost_on_time) * u64::from(denominator)
                >= u64::from(self.games) * u64::from(numerator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(agents: [usize; 2], winner: usize, end: End) -> Played {
        Played::fixture(agents, winner, end)
    }

    #[test]
    fn the_cross_table_counts_each_pair_whatever_the_colours() {
        let games = [
            game([0, 1], 0, End::Corner),
            game([1, 0], 0, End::Captures),
            game([1, 0], 1, End::Corner),
            game([2, 0], 2, End::Corner),
            game([1, 2], 2, End::Forfeit(Forfeit::Timeout(0.5))),
        ];
        let table = CrossTable::new(3, &games);
        assert_eq!(table.agents(), 3);
        assert_eq!((table.wins(0, 1), table.wins(1, 0)), (2, 1));
        assert_eq!((table.wins(0, 2), table.wins(2, 0)), (0, 1));
        assert_eq!((table.wins(1, 2), table.wins(2, 1)), (0, 1));
        assert_eq!(table.games(0, 1), 3);
        assert_eq!(table.games(2, 1), 1);
        assert_eq!(table.wins(1, 1), 0);
        assert_eq!(
            serde_json::to_string(&table).unwrap(),
            "[[0,2,0],[1,0,0],[1,1,0]]"
        );
    }

    #[test]
    fn a_third_of_the_games_lost_on_time_is_too_many() {
        let on_time = |n: usize, of: usize| -> TimeLosses {
            let games: Vec<Played> = (0..of)
                .map(|i| {
                    let end = if i < n {
                        End::Forfeit(Forfeit::Timeout(0.5))
                    } else if i == n {
                        // Another forfeit is no loss on time.
                        End::Forfeit(Forfeit::Closed("exit".into()))
                    } else {
                        End::Corner
                    };
                    game([0, 1], 0, end)
                })
                .collect();
            TimeLosses::new(&games)
        };
        assert_eq!(on_time(3, 9).lost_on_time, 3);
        assert!(on_time(3, 9).too_many());
        assert!(!on_time(2, 9).too_many());
        assert!(on_time(4, 10).too_many());
        assert!(!on_time(3, 10).too_many());
        assert!(!TimeLosses::default().too_many());
        assert!((on_time(1, 4).share() - 0.25).abs() < 1e-12);
    }
}
