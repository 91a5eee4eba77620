//! The error of an answer that fails its check: every ply front end checks each answer
//! independently (replays its moves, recounts its cost) before anyone sees it.

use std::fmt;

/// A solver's answer that failed the independent check each answer passes before anyone sees
/// it: a bug in ply, never bad input. Holds what the check found.
///
/// ```
/// let wrong = ply_search::WrongAnswer("move 3 leaves the board".into());
/// assert_eq!(
///     wrong.to_string(),
///     "internal error: the solver's answer fails its check: move 3 leaves the board"
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WrongAnswer(pub String);

impl fmt::Display for WrongAnswer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "internal error: the solver's answer fails its check: {}",
            self.0
        )
    }
}

impl std::error::Error for WrongAnswer {}
