//! The course's score of a solution file: nothing for a file with one case not solved
//! correctly, otherwise each case earns 0.1, and a second 0.1 scaled by K0/K (K0 the optimal
//! penalty, K the one printed), so that only optimal answers earn fully.

use thiserror::Error;

use crate::puzzle::Puzzle;
use crate::verify::{SolutionEntry, VerifyError, check_case};

/// What one case earns at most (0.1 for a correct answer, 0.1 more for an optimal one).
pub const CASE_POINTS: f64 = 0.2;

/// The points of a correct answer of penalty `penalty` to a case whose optimum is `optimum`:
/// 0.1 + 0.1 * optimum / penalty.
///
/// ```
/// use ply_sokoboru::case_points;
/// assert_eq!(case_points(30, 30), 0.2);
/// assert!((case_points(30, 40) - 0.175).abs() < 1e-12);
/// ```
#[must_use]
pub fn case_points(optimum: u32, penalty: u32) -> f64 {
    0.1 + 0.1 * f64::from(optimum) / f64::from(penalty.max(1))
}

/// One case of a scored file.
#[derive(Clone, Debug, PartialEq)]
pub struct CaseScore {
    /// The answer's replayed penalty.
    pub penalty: u32,
    /// The optimum (or best known penalty) it is scored against.
    pub optimum: u32,
    /// Its points ([`case_points`]).
    pub points: f64,
}

/// The score of a whole file.
#[derive(Clone, Debug, PartialEq)]
pub struct FileScore {
    /// Every case, in order.
    pub cases: Vec<CaseScore>,
    /// The points of the file: the cases' sum.
    pub points: f64,
    /// The points as a share of the file's maximum ([`CASE_POINTS`] a case).
    pub fraction: f64,
}

/// Why a file scores nothing, or cannot be scored.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum ScoreError {
    /// An answer is not a correct solution: the course gives the whole file nothing.
    #[error("{0}; the file scores 0")]
    Rejected(VerifyError),
    /// The optima do not match the puzzles.
    #[error("{optima} optima for {cases} cases")]
    OptimaCount {
        /// Optima given.
        optima: usize,
        /// Cases of the puzzle file.
        cases: usize,
    },
    /// A word of an optima file is not a penalty.
    #[error("line {line}: '{word}' is not a penalty")]
    Optimum {
        /// 1-based line.
        line: usize,
        /// The word, cut short.
        word: String,
    },
    /// An answer is cheaper than the optimum it is scored against: the optima are wrong.
    #[error("case {case}: the answer's penalty {penalty} is below the optimum {optimum} given")]
    BelowOptimum {
        /// 1-based case number.
        case: usize,
        /// The answer's penalty.
        penalty: u32,
        /// The optimum given.
        optimum: u32,
    },
}

/// Scores `solutions` of `puzzles` as the course does, against `optima` (one per case, the
/// optimal penalties or the best known ones).
///
/// # Errors
/// [`ScoreError::Rejected`] for the first case not solved correctly (the course then gives the
/// file nothing), or optima that do not fit the file.
pub fn score_file(
    puzzles: &[Puzzle],
    solutions: &[SolutionEntry],
    optima: &[u32],
) -> Result<FileScore, ScoreError> {
    if optima.len() != puzzles.len() {
        return Err(ScoreError::OptimaCount {
            optima: optima.len(),
            cases: puzzles.len(),
        });
    }
    if solutions.len() != puzzles.len() {
        return Err(ScoreError::Rejected(VerifyError::CaseCount {
            expected: puzzles.len(),
            found: solutions.len(),
        }));
    }
    let mut cases = Vec::with_capacity(puzzles.len());
    for (i, ((puzzle, entry), &optimum)) in puzzles.iter().zip(solutions).zip(optima).enumerate() {
        let replayed = check_case(i + 1, puzzle, entry).map_err(ScoreError::Rejected)?;
        if replayed.penalty < optimum {
            return Err(ScoreError::BelowOptimum {
                case: i + 1,
                penalty: replayed.penalty,
                optimum,
            });
        }
        cases.push(CaseScore {
            penalty: replayed.penalty,
            optimum,
            points: case_points(optimum, replayed.penalty),
        });
    }
    let points: f64 = cases.iter().map(|c| c.points).sum();
    let fraction = points / (CASE_POINTS * cases.len().max(1) as f64);
    Ok(FileScore {
        cases,
        points,
        fraction,
    })
}

/// Reads an optima file: the penalties, one per case, separated by blanks or lines (the form
/// of `large.optima`); a `#` starts a comment to the end of its line.
///
/// # Errors
/// [`ScoreError::Optimum`] for the first word that is not a penalty.
pub fn parse_optima(text: &str) -> Result<Vec<u32>, ScoreError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or_default();
        for word in line.split_whitespace() {
            let penalty = word.parse().map_err(|_| ScoreError::Optimum {
                line: i + 1,
                word: crate::puzzle::excerpt(word),
            })?;
            out.push(penalty);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;
    use crate::verify::parse_solutions;

    const TINY_OPTIMA: [u32; 10] = [44, 14, 28, 23, 18, 26, 22, 23, 24, 37];

    fn tiny() -> Vec<Puzzle> {
        parse_puzzles(include_str!("../../../data/sokoboru/tiny.in")).unwrap()
    }

    /// The optimal answers of tiny.in, by the solver.
    fn optimal_file() -> String {
        tiny()
            .iter()
            .map(|p| {
                let s = crate::solve(p, ply_search::Limits::UNLIMITED).unwrap();
                let moves: String = s.moves.iter().map(|d| d.symbol()).collect();
                format!("{}\n{moves}\n", s.penalty)
            })
            .collect()
    }

    #[test]
    fn optimal_answers_score_the_whole_file_and_dearer_ones_less() {
        let file = optimal_file();
        let solutions = parse_solutions(&file).unwrap();
        let score = score_file(&tiny(), &solutions, &TINY_OPTIMA).unwrap();
        assert!((score.fraction - 1.0).abs() < 1e-12);
        assert!((score.points - 2.0).abs() < 1e-12);
        // Scored against optima one lower than the answers' (as if they were dearer).
        let lower: Vec<u32> = TINY_OPTIMA.iter().map(|k| k - 1).collect();
        let score = score_file(&tiny(), &solutions, &lower).unwrap();
        let want: f64 = TINY_OPTIMA.iter().map(|&k| case_points(k - 1, k)).sum();
        assert!((score.points - want).abs() < 1e-12);
        assert!(score.fraction < 1.0);
    }

    #[test]
    fn one_wrong_case_scores_the_file_nothing() {
        let file = optimal_file();
        let mut lines: Vec<&str> = file.lines().collect();
        lines[3] = ">";
        let broken = lines.join("\n") + "\n";
        let solutions = parse_solutions(&broken).unwrap();
        let refused = score_file(&tiny(), &solutions, &TINY_OPTIMA).unwrap_err();
        assert!(matches!(refused, ScoreError::Rejected(_)), "{refused}");
        assert!(
            refused.to_string().ends_with("the file scores 0"),
            "{refused}"
        );
        let fewer = parse_solutions(&lines[..4].join("\n")).unwrap();
        assert!(score_file(&tiny(), &fewer, &TINY_OPTIMA).is_err());
        let higher: Vec<u32> = TINY_OPTIMA.iter().map(|k| k + 1).collect();
        let solutions = parse_solutions(&file).unwrap();
        assert!(matches!(
            score_file(&tiny(), &solutions, &higher),
            Err(ScoreError::BelowOptimum { case: 1, .. })
        ));
        assert!(matches!(
            score_file(&tiny(), &solutions, &TINY_OPTIMA[..9]),
            Err(ScoreError::OptimaCount {
                optima: 9,
                cases: 10
            })
        ));
    }

    #[test]
    fn optima_files_are_read_as_written() {
        assert_eq!(
            parse_optima("31 31 34\n# more\n34 # the fourth\n").unwrap(),
            [31, 31, 34, 34]
        );
        let bad = parse_optima("31\n x").unwrap_err().to_string();
        assert_eq!(bad, "line 2: 'x' is not a penalty");
    }
}
