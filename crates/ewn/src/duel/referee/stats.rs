//! A match's statistics: wins, forfeits and move times per player, with Wilson score
//! intervals ([`wilson`], shared from ply-search).

use ply_search::wilson;

use super::game::{End, GameRecord};
use serde::{Deserialize, Serialize};

/// A match's results per player.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    /// The player's name.
    pub name: String,
    /// Games won.
    pub wins: u32,
    /// Games won as red (first mover).
    pub wins_first: u32,
    /// Games played as red.
    pub games_first: u32,
    /// Games won as blue.
    pub wins_second: u32,
    /// Games played as blue.
    pub games_second: u32,
    /// The win rate.
    pub win_rate: f64,
    /// The 95 % Wilson score interval of the win rate.
    pub interval: (f64, f64),
    /// Average seconds per move.
    pub average_move: f64,
    /// Longest move in seconds.
    pub max_move: f64,
    /// Games lost by forfeit, with the reasons.
    pub forfeits: Vec<String>,
}

/// Summarises a match for players named `names`.
#[must_use]
pub fn summarise(records: &[GameRecord], names: [&str; 2]) -> [PlayerSummary; 2] {
    let mut out: [PlayerSummary; 2] = Default::default();
    let mut time = [(0.0f64, 0u32); 2];
    for (p, summary) in out.iter_mut().enumerate() {
        summary.name = names[p].to_string();
    }
    for r in records {
        for (p, s) in out.iter_mut().enumerate() {
            let first = r.red_player == p;
            let won = r.winner == p;
            s.wins += u32::from(won);
            if first {
                s.games_first += 1;
                s.wins_first += u32::from(won);
            } else {
                s.games_second += 1;
                s.wins_second += u32::from(won);
            }
            if let End::Forfeit(why) = &r.end
                && !won
            {
                s.forfeits.push(format!("game {}: {why}", r.game));
            }
        }
        for m in &r.moves {
            time[m.player].0 += m.secs;
            time[m.player].1 += 1;
            out[m.player].max_move = out[m.player].max_move.max(m.secs);
        }
    }
    let n = records.len() as u32;
    for (p, s) in out.iter_mut().enumerate() {
        s.win_rate = if n == 0 {
            0.0
        } else {
            f64::from(s.wins) / f64::from(n)
        };
        s.interval = wilson(u64::from(s.wins), u64::from(n));
        s.average_move = if time[p].1 == 0 {
            0.0
        } else {
            time[p].0 / f64::from(time[p].1)
        };
    }
    out
}
