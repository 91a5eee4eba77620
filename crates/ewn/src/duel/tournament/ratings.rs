//! Ratings with error bars and the sequential probability ratio test that decides "is A
//! stronger than B" as soon as the games allow.
//!
//! Ratings are the maximum-likelihood Bradley-Terry fit on the Elo scale, computed with
//! Hunter's minorization-maximization iteration (Hunter, D. R. (2004), *MM algorithms for
//! generalized Bradley-Terry models*, Annals of Statistics 32, 384-406). The SPRT is Wald's
//! (Wald, A. (1945), *Sequential tests of statistical hypotheses*), on the win probability of
//! the Elo model, as chess engine testing runs it (cutechess-cli, fishtest); EWN has no draws.

use serde::{Deserialize, Serialize};

use super::schedule::Played;
use crate::duel::referee::End;

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
    /// The 95 % interval of the rating, relative to the field's average (from the
    /// Bradley-Terry fit's information matrix; infinite while the games do not connect every
    /// agent to every other).
    pub elo_interval: (f64, f64),
}

/// The expected score of a player `elo` points stronger.
#[must_use]
fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo points per unit of natural log-strength: the Elo model's win probability is
/// `1 / (1 + 10^(-d/400))`, the Bradley-Terry model's `1 / (1 + e^(-t))`.
const ELO_PER_LOG_STRENGTH: f64 = 400.0 / std::f64::consts::LN_10;

/// The normal quantile of a two-sided 95 % interval.
const Z95: f64 = 1.959_964;

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
    let errors = rating_errors(&strength, &meetings);
    let mut out: Vec<Standing> = (0..agents)
        .map(|i| {
            let elo = 400.0 * (strength[i].log10() - mean);
            let half = errors
                .as_ref()
                .map_or(f64::INFINITY, |e| Z95 * ELO_PER_LOG_STRENGTH * e[i]);
            Standing {
                agent: i,
                games: games[i],
                wins: wins[i],
                forfeits: forfeits[i],
                elo,
                elo_interval: (elo - half, elo + half),
            }
        })
        .collect();
    out.sort_by(|a, b| b.elo.total_cmp(&a.elo).then(a.agent.cmp(&b.agent)));
    out
}

/// The standard errors of the agents' natural log-strengths around their average, from the
/// Fisher information of the Bradley-Terry fit; `None` while some agent is not connected to
/// the others by games (their ratings relative to the field are then not determined).
///
/// The log-likelihood of log-strengths `t` is the sum over games of `ln p`, `p` the winner's
/// probability `1 / (1 + e^(t_loser - t_winner))`; its information matrix `I` has
/// `I[i][j] = -n_ij p_ij p_ji` off the diagonal and the row sums negated on it, with `n_ij`
/// the games between `i` and `j` (here with the fit's extra game a pair, the half win and half
/// loss that keep an unbeaten agent finite). `I` is singular (adding a constant to every
/// strength changes nothing), and the ratings are pinned by averaging 0; the covariance of
/// estimates constrained to a zero sum is the Moore-Penrose pseudo-inverse of `I`, here
/// `(I + J/k)^-1 - J/k` for `k` agents and `J` the all-ones matrix, because `I` maps the
/// constant vector to 0 and is invertible on the vectors of sum 0 once the games connect all
/// agents (Hunter, D. R. (2004), section 5; Agresti, A. (2013), *Categorical data analysis*,
/// 3rd ed., section 11.6, for the Bradley-Terry model as a logistic regression). With two
/// agents this is half the standard error of their difference, since each rating is half the
/// difference.
fn rating_errors(strength: &[f64], meetings: &[Vec<u32>]) -> Option<Vec<f64>> {
    let k = strength.len();
    if k == 0 || !connected(meetings) {
        return None;
    }
    let mut matrix = vec![vec![1.0 / k as f64; k]; k];
    for i in 0..k {
        for j in 0..k {
            if i == j || meetings[i][j] == 0 {
                continue;
            }
            let p = strength[i] / (strength[i] + strength[j]);
            let weight = (f64::from(meetings[i][j]) + 1.0) * p * (1.0 - p);
            matrix[i][j] -= weight;
            matrix[i][i] += weight;
        }
    }
    let inverse = invert(matrix)?;
    Some(
        (0..k)
            .map(|i| (inverse[i][i] - 1.0 / k as f64).max(0.0).sqrt())
            .collect(),
    )
}

/// Whether the games connect every agent to every other (an agent with no game is
/// connected to nobody).
fn connected(meetings: &[Vec<u32>]) -> bool {
    let k = meetings.len();
    let mut seen = vec![false; k];
    let mut stack = vec![0];
    seen[0] = true;
    while let Some(i) = stack.pop() {
        for j in 0..k {
            if meetings[i][j] > 0 && !seen[j] {
                seen[j] = true;
                stack.push(j);
            }
        }
    }
    seen.into_iter().all(|s| s)
}

/// The inverse of a square matrix by Gauss-Jordan elimination with partial pivoting, or
/// `None` when it is singular.
fn invert(mut a: Vec<Vec<f64>>) -> Option<Vec<Vec<f64>>> {
    let n = a.len();
    let mut inverse: Vec<Vec<f64>> = (0..n)
        .map(|i| (0..n).map(|j| f64::from(u8::from(i == j))).collect())
        .collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        inverse.swap(col, pivot);
        let scale = a[col][col];
        for j in 0..n {
            a[col][j] /= scale;
            inverse[col][j] /= scale;
        }
        for row in 0..n {
            if row != col && a[row][col] != 0.0 {
                let factor = a[row][col];
                for j in 0..n {
                    a[row][j] -= factor * a[col][j];
                    inverse[row][j] -= factor * inverse[col][j];
                }
            }
        }
    }
    Some(inverse)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The Elo difference that scores `score` (a fraction strictly between 0 and 1).
    #[must_use]
    fn elo_of_score(score: f64) -> f64 {
        -400.0 * (1.0 / score - 1.0).log10()
    }

    fn played(a: usize, b: usize, winner: usize) -> Played {
        Played::fixture([a, b], winner, End::Corner)
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
    fn rating_intervals_match_an_independent_calculation() {
        let close = |found: f64, want: f64| (found - want).abs() < 0.01;
        // Two agents, 18 wins to 2. By hand: the fit's prior makes it 18.5 wins of 21, so
        // p = 18.5 / 21, the log-strength gap is ln(18.5 / 2.5) = 2.00148 and each rating is
        // half the gap on the Elo scale (400 / ln 10 = 173.718 a unit): +-173.846. The
        // information of the gap is w = 21 p (1 - p) = 2.20238; each rating is half the gap,
        // so its variance is 1 / (4 w) = 0.113514 and the 95 % half-width is
        // 1.959964 * 173.718 * sqrt(0.113514) = 114.714: the stronger at 59.13 to 288.56.
        let two: Vec<Played> = (0..20)
            .map(|i| played(0, 1, if i < 18 { 0 } else { 1 }))
            .collect();
        let table = standings(2, &two);
        assert!(close(table[0].elo, 173.846), "{:?}", table[0]);
        assert!(close(table[0].elo_interval.0, 59.132), "{:?}", table[0]);
        assert!(close(table[0].elo_interval.1, 288.560), "{:?}", table[0]);
        assert!(close(table[1].elo_interval.0, -288.560), "{:?}", table[1]);
        // Three agents: A beats B 30-10, B beats C 30-10, A beats C 36-4. Computed apart
        // from this code (a Python script: Newton's method on the penalised log-likelihood in
        // the free parameters t0, t1 with t2 = -t0 - t1, its Hessian by finite differences,
        // the covariance as the negated inverse, t2's variance as var t0 + var t1 +
        // 2 cov): ratings +183.517, 0, -183.517; 95 % half-widths 67.107, 57.291, 67.107.
        let mut games = Vec::new();
        for (a, b, wins, n) in [(0, 1, 30, 40), (1, 2, 30, 40), (0, 2, 36, 40)] {
            for i in 0..n {
                games.push(played(a, b, if i < wins { a } else { b }));
            }
        }
        let table = standings(3, &games);
        for (s, elo, half) in table
            .iter()
            .zip([(183.517, 67.107), (0.0, 57.291), (-183.517, 67.107)])
            .map(|(s, (elo, half))| (s, elo, half))
        {
            assert!(close(s.elo, elo), "{s:?}");
            assert!(close(s.elo_interval.1 - s.elo, half), "{s:?}");
            assert!(close(s.elo - s.elo_interval.0, half), "{s:?}");
        }
        // An agent that has not played leaves the field's average undetermined.
        let table = standings(3, &two);
        assert!(table.iter().all(|s| s.elo_interval.1.is_infinite()));
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
