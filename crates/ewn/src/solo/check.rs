//! Replaying a solution under the rules, with a verdict.

use std::fmt;

use super::instance::{DICE, Instance, excerpt};
use super::rules::SoloMove;
use super::solver::{SoloReport, solve};
use ply_search::messages::plural;
use ply_search::{Limits, WrongAnswer};

/// What the checker concluded about a solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every move is legal and the goal piece ends on (0,0); `over` is how many moves it takes
    /// beyond the optimum (0: optimal), when the optimum is known.
    Solved {
        /// The solution's moves.
        moves: Vec<SoloMove>,
        /// Moves beyond the optimum, when known.
        over: Option<u32>,
    },
    /// Move `index` (0-based) is illegal.
    Illegal {
        /// 0-based index of the move.
        index: usize,
        /// Why.
        reason: String,
    },
    /// The moves are legal but the goal piece does not end on (0,0).
    NotReached {
        /// How many moves were replayed.
        moves: usize,
        /// The 0-based index of the move that captured the goal piece, if one did.
        captured_at: Option<usize>,
    },
}

impl Verdict {
    /// Whether the solution is legal and reaches the goal.
    #[must_use]
    pub fn is_legal(&self) -> bool {
        matches!(self, Verdict::Solved { .. })
    }

    /// Moves beyond the optimum (0: optimal) of a legal solution, when the optimum is known.
    #[must_use]
    pub fn over(&self) -> Option<u32> {
        match self {
            Verdict::Solved { over, .. } => *over,
            _ => None,
        }
    }

    /// The 0-based index of the illegal move, if one is.
    #[must_use]
    pub fn illegal_at(&self) -> Option<usize> {
        match self {
            Verdict::Illegal { index, .. } => Some(*index),
            _ => None,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Solved {
                moves,
                over: Some(0),
            } => {
                write!(
                    f,
                    "legal and optimal: {}",
                    plural(moves.len() as u64, "move")
                )
            }
            Verdict::Solved {
                moves,
                over: Some(n),
            } => write!(
                f,
                "legal but {} over optimal: {}",
                plural(u64::from(*n), "move"),
                plural(moves.len() as u64, "move")
            ),
            Verdict::Solved { moves, over: None } => {
                write!(
                    f,
                    "legal: {} (optimum unknown)",
                    plural(moves.len() as u64, "move")
                )
            }
            Verdict::Illegal { index, reason } => {
                write!(f, "illegal at move {}: {reason}", index + 1)
            }
            Verdict::NotReached {
                captured_at: Some(i),
                ..
            } => write!(
                f,
                "goal not reached: move {} captures the goal piece",
                i + 1
            ),
            Verdict::NotReached { moves, .. } => {
                write!(
                    f,
                    "goal not reached: the goal piece is not on (0,0) after {}",
                    plural(*moves as u64, "move")
                )
            }
        }
    }
}

/// Parses a solution in the course's output format (time, move count, from/to pairs); the
/// time line must be a number of seconds (finite, not negative) but its value is not checked.
/// Returns the `(from, to)` pairs.
///
/// # Errors
/// A message naming the line that is malformed.
pub fn parse_solution(text: &str) -> Result<Vec<(u8, u8)>, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let lines: Vec<&str> = text.lines().collect();
    let time = lines.first().map(|l| l.trim()).unwrap_or("");
    if !time.parse::<f64>().is_ok_and(|t| t.is_finite() && t >= 0.0) {
        return Err(format!(
            "line 1: expected the running time in seconds, found '{}'",
            excerpt(time)
        ));
    }
    let count_text = lines.get(1).map(|l| l.trim()).unwrap_or("");
    let count: usize = count_text.parse().map_err(|_| {
        format!(
            "line 2: expected the number of moves, found '{}'",
            excerpt(count_text)
        )
    })?;
    let cells: Vec<u8> = lines
        .get(2)
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .map(|t| {
            t.parse::<u8>()
                .ok()
                .filter(|&c| c < 100)
                .ok_or_else(|| format!("line 3: '{}' is not a cell 0..99", excerpt(t)))
        })
        .collect::<Result<_, _>>()?;
    if cells.len() != 2 * count {
        return Err(format!(
            "line 3: expected {} cells for {}, found {}",
            2 * count,
            plural(count as u64, "move"),
            cells.len()
        ));
    }
    if let Some((n, _)) = lines
        .iter()
        .enumerate()
        .skip(3)
        .find(|(_, l)| !l.trim().is_empty())
    {
        return Err(format!("line {}: unexpected extra line", n + 1));
    }
    Ok(cells.chunks(2).map(|p| (p[0], p[1])).collect())
}

/// [`solve`], with the answer replayed through [`check`] before anyone sees it: what the
/// `ply` command and the Python binding both call.
///
/// ```
/// use ply_ewn::solo::{Instance, solve_checked};
/// let instance = Instance::parse("2\n62 26 66 42 32 36\n665545154156655451541566554515\n")?;
/// let report = solve_checked(&instance, &ply_search::Limits::UNLIMITED)?;
/// assert_eq!(report.cost(), Some(16));
/// assert!(report.proven() && report.lower_bound == 16);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// The solution fails the checker (a bug in ply).
pub fn solve_checked(instance: &Instance, limits: &Limits) -> Result<SoloReport, WrongAnswer> {
    let report = solve(instance, limits.clone());
    if let Some(moves) = report.moves() {
        let pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
        let verdict = check(instance, &pairs, None);
        if !verdict.is_legal() {
            return Err(WrongAnswer(verdict.to_string()));
        }
    }
    Ok(report)
}

/// Replays `moves` on `instance`; `optimum`, when known, grades the length.
#[must_use]
pub fn check(instance: &Instance, moves: &[(u8, u8)], optimum: Option<u32>) -> Verdict {
    let mut position = instance.position();
    let mut played = Vec::with_capacity(moves.len());
    for (index, &(from, to)) in moves.iter().enumerate() {
        if position.cell(instance.goal) == Some(0) {
            return Verdict::Illegal {
                index,
                reason: "the goal piece is already on (0,0): the game is over".into(),
            };
        }
        if index >= DICE {
            return Verdict::Illegal {
                index,
                reason: "all 30 dice are used".into(),
            };
        }
        let die = instance.dice[index];
        match position.check_move(die, from, to) {
            Ok(mv) => {
                if mv.captured == instance.goal {
                    return Verdict::NotReached {
                        moves: moves.len(),
                        captured_at: Some(index),
                    };
                }
                position.play(mv);
                played.push(mv);
            }
            Err(e) => {
                return Verdict::Illegal {
                    index,
                    reason: e.to_string(),
                };
            }
        }
    }
    if position.cell(instance.goal) != Some(0) {
        return Verdict::NotReached {
            moves: moves.len(),
            captured_at: None,
        };
    }
    let over = optimum.map(|opt| (played.len() as u32).saturating_sub(opt));
    Verdict::Solved {
        moves: played,
        over,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verdict_says_how_far_over_and_where_illegal() {
        let sample = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n";
        let instance = Instance::parse(sample).unwrap();
        let illegal = check(&instance, &[(36, 25), (36, 25)], None);
        assert_eq!((illegal.illegal_at(), illegal.over()), (Some(1), None));
        let short = check(&instance, &[(36, 25)], Some(16));
        assert_eq!((short.illegal_at(), short.over()), (None, None));
    }

    #[test]
    fn the_time_line_is_a_number_of_seconds() {
        assert_eq!(parse_solution("0.1\n1\n36 45\n"), Ok(vec![(36, 45)]));
        assert_eq!(parse_solution("\u{feff}0\n0\n\n"), Ok(vec![]));
        for time in ["-5", "NaN", "inf", "-0.1", "x"] {
            let err = parse_solution(&format!("{time}\n0\n\n")).unwrap_err();
            assert!(
                err.starts_with("line 1: expected the running time in seconds"),
                "{time}: {err}"
            );
        }
        let err = parse_solution("0.1\n1\n36\n").unwrap_err();
        assert_eq!(err, "line 3: expected 2 cells for 1 move, found 1");
        let huge = "9".repeat(100_000);
        let err = parse_solution(&format!("0.1\n1\n{huge} 45\n")).unwrap_err();
        assert!(err.len() < 100, "{err}");
    }
}
