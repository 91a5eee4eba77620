//! Solution files and replaying them, with the course verifier's acceptance rules.

use ply_search::messages::plural;
use thiserror::Error;

use crate::puzzle::{Puzzle, empty_boxes, excerpt, without_bom};
use crate::rules::IllegalMove;
use crate::state::Dir;

/// The course verifier rejects move strings longer than this.
pub const MAX_MOVES: usize = 998;

/// One case of a solution file: the claimed penalty and the moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolutionEntry {
    /// 1-based line of the penalty.
    pub line: usize,
    /// The penalty the file claims.
    pub penalty: u32,
    /// The moves.
    pub moves: Vec<Dir>,
}

/// Moves as solution files write them, `^ v < >`.
///
/// ```
/// use ply_sokoboru::{Dir, moves_to_string, parse_moves};
/// assert_eq!(moves_to_string(&[Dir::Up, Dir::Right]), "^>");
/// assert_eq!(parse_moves("^ >"), Ok(vec![Dir::Up, Dir::Right]));
/// assert_eq!(parse_moves("^x").unwrap_err().to_string(), "move 2: 'x' is not one of ^ v < >");
/// ```
#[must_use]
pub fn moves_to_string(moves: &[Dir]) -> String {
    moves.iter().map(|d| d.symbol()).collect()
}

/// Moves from a string of `^ v < >`, whitespace ignored (a front end's argument; a solution
/// file's line is read by [`parse_solutions`]).
///
/// # Errors
/// [`BadMove`] naming the first other character.
pub fn parse_moves(text: &str) -> Result<Vec<Dir>, BadMove> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .enumerate()
        .map(|(i, symbol)| {
            Dir::from_symbol(symbol).ok_or(BadMove {
                index: i + 1,
                symbol,
            })
        })
        .collect()
}

/// A character of a move string that is no move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("move {index}: '{}' is not one of ^ v < >", excerpt(&.symbol.to_string()))]
pub struct BadMove {
    /// 1-based index of the move, whitespace not counted.
    pub index: usize,
    /// The character.
    pub symbol: char,
}

/// A rejected solution file or solution, naming the case and line or move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum VerifyError {
    /// The file itself is malformed.
    #[error("case {case}, line {line}: {message}")]
    Format {
        /// 1-based case number.
        case: usize,
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A move cannot be played.
    #[error("case {case}: move {index} ('{symbol}') is illegal: {why}")]
    Illegal {
        /// 1-based case number.
        case: usize,
        /// 1-based move index.
        index: usize,
        /// The move's character.
        symbol: char,
        /// Which rule it breaks.
        why: IllegalMove,
    },
    /// The moves end with an empty box left.
    #[error("case {case}: {} left after the last move", empty_boxes(*left))]
    NotSolved {
        /// 1-based case number.
        case: usize,
        /// Empty boxes left.
        left: u32,
    },
    /// The claimed penalty is not the replayed one.
    #[error("case {case}: the file says penalty {claimed} but the moves cost {actual}")]
    WrongPenalty {
        /// 1-based case number.
        case: usize,
        /// The penalty in the file.
        claimed: u32,
        /// The replayed penalty.
        actual: u32,
    },
    /// The file has a different number of cases than the puzzle file.
    #[error("the solution file has {}, the puzzle file {expected}", plural(*found as u64, "case"))]
    CaseCount {
        /// Cases in the puzzle file.
        expected: usize,
        /// Cases in the solution file.
        found: usize,
    },
}

/// Reads a solution file: per case a penalty line and a moves line (empty when no move is
/// needed).
///
/// A leading byte order mark is skipped.
///
/// # Errors
/// [`VerifyError::Format`] naming the case and line.
pub fn parse_solutions(text: &str) -> Result<Vec<SolutionEntry>, VerifyError> {
    let mut lines: Vec<&str> = without_bom(text)
        .lines()
        .map(|l| l.trim_end_matches('\r'))
        .collect();
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    let mut out = Vec::new();
    let mut at = 0;
    while at < lines.len() {
        let case = out.len() + 1;
        let format = |line: usize, message: String| VerifyError::Format {
            case,
            line: line + 1,
            message,
        };
        let penalty = lines[at].trim().parse::<u32>().map_err(|_| {
            format(
                at,
                format!("expected a penalty, found '{}'", excerpt(lines[at].trim())),
            )
        })?;
        let moves_text = lines.get(at + 1).copied().unwrap_or("").trim();
        let count = moves_text.chars().count();
        if count > MAX_MOVES {
            return Err(format(
                at + 1,
                format!("{count} moves; the verifier accepts at most {MAX_MOVES}"),
            ));
        }
        let moves = moves_text
            .chars()
            .enumerate()
            .map(|(i, ch)| {
                Dir::from_symbol(ch).ok_or_else(|| {
                    format(
                        at + 1,
                        format!("move {} is {ch:?}, not one of ^ v < >", i + 1),
                    )
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        out.push(SolutionEntry {
            line: at + 1,
            penalty,
            moves,
        });
        at += 2;
    }
    Ok(out)
}

/// What replaying a solution found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The penalty of the moves.
    pub penalty: u32,
    /// Empty boxes left at the end (0: solved).
    pub left: u32,
}

/// Replays `moves` on `puzzle`.
///
/// # Errors
/// The 0-based index of the first illegal move and why.
pub fn replay(puzzle: &Puzzle, moves: &[Dir]) -> Result<Replay, (usize, IllegalMove)> {
    let mut state = puzzle.start;
    let mut penalty = 0;
    for (i, &dir) in moves.iter().enumerate() {
        let step = state.step(puzzle, dir).map_err(|why| (i, why))?;
        state = step.state;
        penalty += step.cost;
    }
    Ok(Replay {
        penalty,
        left: state.empty.count_ones(),
    })
}

/// Checks one case as the course's verifier does: legal moves, solved at the end, and the
/// claimed penalty equal to the replayed one.
///
/// # Errors
/// The first reason the case is rejected.
pub fn check_case(
    case: usize,
    puzzle: &Puzzle,
    entry: &SolutionEntry,
) -> Result<Replay, VerifyError> {
    let result = check_solved(case, puzzle, &entry.moves)?;
    if result.penalty != entry.penalty {
        return Err(VerifyError::WrongPenalty {
            case,
            claimed: entry.penalty,
            actual: result.penalty,
        });
    }
    Ok(result)
}

/// Checks the moves of case `case` as the course's verifier does, without a claimed penalty:
/// legal moves, solved at the end.
///
/// # Errors
/// [`VerifyError::Illegal`] or [`VerifyError::NotSolved`].
pub fn check_solved(case: usize, puzzle: &Puzzle, moves: &[Dir]) -> Result<Replay, VerifyError> {
    let result = replay(puzzle, moves).map_err(|(i, why)| VerifyError::Illegal {
        case,
        index: i + 1,
        symbol: moves[i].symbol(),
        why,
    })?;
    if result.left > 0 {
        return Err(VerifyError::NotSolved {
            case,
            left: result.left,
        });
    }
    Ok(result)
}

/// Checks every case of a solution file against the puzzles as the course's verifier does
/// ([`check_case`]), up to the first rejected one.
///
/// # Errors
/// [`VerifyError::CaseCount`] when the files hold different numbers of cases, else the first
/// case's rejection.
pub fn check_file(
    puzzles: &[Puzzle],
    entries: &[SolutionEntry],
) -> Result<Vec<Replay>, VerifyError> {
    if entries.len() != puzzles.len() {
        return Err(VerifyError::CaseCount {
            expected: puzzles.len(),
            found: entries.len(),
        });
    }
    let cases = puzzles.iter().zip(entries).enumerate();
    cases.map(|(i, (p, e))| check_case(i + 1, p, e)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;

    #[test]
    fn accepts_and_rejects_like_the_course_verifier() {
        let puzzle = parse_puzzles("1 6\n@O---$\n").unwrap().remove(0);
        let good = parse_solutions("1\n>\n").unwrap();
        assert_eq!(check_case(1, &puzzle, &good[0]).unwrap().penalty, 1);
        let wrong = parse_solutions("2\n>\n").unwrap();
        assert!(matches!(
            check_case(1, &puzzle, &wrong[0]),
            Err(VerifyError::WrongPenalty {
                claimed: 2,
                actual: 1,
                ..
            })
        ));
        let unsolved = parse_solutions("0\n\n").unwrap();
        assert!(matches!(
            check_case(1, &puzzle, &unsolved[0]),
            Err(VerifyError::NotSolved { .. })
        ));
        let illegal = parse_solutions("1\n<\n").unwrap();
        let err = check_case(1, &puzzle, &illegal[0]).unwrap_err();
        assert_eq!(
            err.to_string(),
            "case 1: move 1 ('<') is illegal: the player would walk into a wall or off the board"
        );
        let bad = parse_solutions("1\n>x\n").unwrap_err();
        assert_eq!(
            bad.to_string(),
            "case 1, line 2: move 2 is 'x', not one of ^ v < >"
        );
        let long = format!("1\n{}\n", ">".repeat(999));
        assert!(
            parse_solutions(&long)
                .unwrap_err()
                .to_string()
                .contains("at most 998")
        );
    }

    #[test]
    fn moves_and_files_are_checked_as_a_whole() {
        let puzzle = parse_puzzles("1 6\n@O---$\n").unwrap().remove(0);
        assert_eq!(check_solved(3, &puzzle, &[Dir::Right]).unwrap().penalty, 1);
        assert_eq!(
            check_solved(3, &puzzle, &[]).unwrap_err().to_string(),
            "case 3: 1 empty box left after the last move"
        );
        let puzzles = [puzzle.clone(), puzzle];
        let good = parse_solutions("1\n>\n1\n>\n").unwrap();
        assert_eq!(check_file(&puzzles, &good).unwrap().len(), 2);
        let count = check_file(&puzzles, &good[..1]).unwrap_err();
        assert_eq!(
            count.to_string(),
            "the solution file has 1 case, the puzzle file 2"
        );
        let second = parse_solutions("1\n>\n2\n>\n").unwrap();
        assert!(matches!(
            check_file(&puzzles, &second),
            Err(VerifyError::WrongPenalty { case: 2, .. })
        ));
        assert_eq!(parse_moves(" \t"), Ok(Vec::new()));
        let bad = parse_moves("> <\u{1}").unwrap_err();
        assert_eq!(
            (bad.index, bad.to_string()),
            (3, "move 3: '\\u{1}' is not one of ^ v < >".into())
        );
        assert_eq!(moves_to_string(&parse_moves("^v<>").unwrap()), "^v<>");
    }

    #[test]
    fn a_leading_byte_order_mark_is_skipped_and_long_lines_are_quoted_in_part() {
        let entries = parse_solutions("\u{feff}1\n>\n").unwrap();
        assert_eq!(entries[0].penalty, 1);
        let err = parse_solutions(&"x".repeat(100_000))
            .unwrap_err()
            .to_string();
        assert_eq!(
            err,
            format!(
                "case 1, line 1: expected a penalty, found '{}...'",
                "x".repeat(40)
            )
        );
    }
}
