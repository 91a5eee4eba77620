//! A match's statistics: wins, forfeits and move times per player, and Wilson score intervals.

use super::referee::{End, GameRecord};
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
        s.interval = wilson(s.wins, n);
        s.average_move = if time[p].1 == 0 {
            0.0
        } else {
            time[p].0 / f64::from(time[p].1)
        };
    }
    out
}

/// The 95 % Wilson score interval for `wins` of `n` (Wilson, E. B. (1927), *Probable
/// inference, the law of succession, and statistical inference*, JASA 22, 209-212).
#[must_use]
pub fn wilson(wins: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let n = f64::from(n);
    let p = f64::from(wins) / n;
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z * z / n;
    (
        ((centre - spread) / denominator).max(0.0),
        ((centre + spread) / denominator).min(1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson(90, 100);
        assert!(
            (lo - 0.8256).abs() < 1e-3 && (hi - 0.9448).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(10, 10);
        assert!(lo > 0.69 && (hi - 1.0).abs() < 1e-12);
    }
}
