//! Seconds a user gives for a time budget, checked by one rule in every front end (the `ply`
//! command's options and the Python binding's keyword arguments alike).

use std::fmt;
use std::time::Duration;

use crate::messages::{short_number, thousands};

/// The longest time per move a front end accepts: a day. Far beyond any use, and small
/// enough that every deadline an agent or a referee computes from it is a valid instant.
pub const MAX_MOVE_TIME: Duration = Duration::from_secs(86_400);

/// What a number of seconds from a user must be, by what it budgets. Every rule refuses a
/// NaN and a negative number; they differ in zero and in how much is too much:
///
/// - [`SecondsRule::Budget`], a search's time limit or a deadline: zero or more (zero gives
///   up at once), at most what a [`Duration`] holds (about 1.8e19 s). A budget the clock
///   cannot reach is accepted and means no limit (see [`Limits::with_time_limit_secs`]).
/// - [`SecondsRule::Positive`], a time something is given before it is judged (a
///   Minesweeper player's whole game): more than zero, at most what a [`Duration`] holds.
/// - [`SecondsRule::MoveTime`], the time of one move or one bounded proof: more than zero and
///   at most [`MAX_MOVE_TIME`], since agents and referees add it to the clock at every move.
///
/// ```
/// use ply_search::SecondsRule;
/// use std::time::Duration;
/// assert_eq!(SecondsRule::Budget.check(0.0), Ok(Duration::ZERO));
/// let bad = SecondsRule::MoveTime.named("--move-time", 1e300).unwrap_err();
/// assert_eq!(bad.to_string(), "--move-time 1e300 is more than a day (86,400 s)");
/// let bad = SecondsRule::Positive.named("move_time", 0.0).unwrap_err();
/// assert_eq!(bad.to_string(), "move_time 0 is not a positive duration");
/// ```
///
/// [`Limits::with_time_limit_secs`]: crate::Limits::with_time_limit_secs
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondsRule {
    /// Zero or more: a search's time limit, a deadline.
    Budget,
    /// More than zero: a time given before something is judged.
    Positive,
    /// More than zero and at most [`MAX_MOVE_TIME`]: a move's time.
    MoveTime,
}

/// Why a number of seconds breaks its [`SecondsRule`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondsProblem {
    /// NaN.
    NotANumber,
    /// Less than zero.
    Negative,
    /// Zero (or less than a nanosecond) where more is needed.
    NotPositive,
    /// More than [`MAX_MOVE_TIME`] for a move's time.
    MoreThanADay,
    /// More than a [`Duration`] holds.
    TooLarge,
}

impl fmt::Display for SecondsProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SecondsProblem::NotANumber => f.write_str("is not a number"),
            SecondsProblem::Negative => f.write_str("is negative"),
            SecondsProblem::NotPositive => f.write_str("is not a positive duration"),
            SecondsProblem::MoreThanADay => write!(
                f,
                "is more than a day ({} s)",
                thousands(MAX_MOVE_TIME.as_secs())
            ),
            SecondsProblem::TooLarge => {
                f.write_str("is more than a duration can hold (at most 1.8e19 s)")
            }
        }
    }
}

impl std::error::Error for SecondsProblem {}

/// A number of seconds refused, with the argument or option that gave it: its message is one
/// line, `NAME SECONDS PROBLEM` (`--time-limit -1 is negative`).
#[derive(Clone, Debug, PartialEq)]
pub struct BadSeconds {
    /// How the front end names the argument (`--move-time`, `move_time`).
    pub name: String,
    /// The seconds given.
    pub secs: f64,
    /// What is wrong with them.
    pub problem: SecondsProblem,
}

impl fmt::Display for BadSeconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {}",
            self.name,
            short_number(self.secs),
            self.problem
        )
    }
}

impl std::error::Error for BadSeconds {}

impl SecondsRule {
    /// `secs` as a duration if it keeps this rule.
    ///
    /// # Errors
    /// The first problem found, in the order of [`SecondsProblem`].
    pub fn check(self, secs: f64) -> Result<Duration, SecondsProblem> {
        if secs.is_nan() {
            return Err(SecondsProblem::NotANumber);
        }
        if secs < 0.0 {
            return Err(SecondsProblem::Negative);
        }
        if self == SecondsRule::MoveTime && secs > MAX_MOVE_TIME.as_secs_f64() {
            return Err(SecondsProblem::MoreThanADay);
        }
        let time = Duration::try_from_secs_f64(secs).map_err(|_| SecondsProblem::TooLarge)?;
        if self != SecondsRule::Budget && time.is_zero() {
            return Err(SecondsProblem::NotPositive);
        }
        Ok(time)
    }

    /// [`SecondsRule::check`], with an error naming the argument `name`.
    ///
    /// # Errors
    /// As [`SecondsRule::check`].
    pub fn named(self, name: &str, secs: f64) -> Result<Duration, BadSeconds> {
        self.check(secs).map_err(|problem| BadSeconds {
            name: name.to_string(),
            secs,
            problem,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_rule_refuses_what_it_must() {
        use SecondsProblem::*;
        use SecondsRule::*;
        for rule in [Budget, Positive, MoveTime] {
            assert_eq!(rule.check(f64::NAN), Err(NotANumber));
            assert_eq!(rule.check(-1.0), Err(Negative));
            assert_eq!(rule.check(f64::NEG_INFINITY), Err(Negative));
            assert_eq!(rule.check(2.5), Ok(Duration::from_millis(2500)));
        }
        assert_eq!(Budget.check(0.0), Ok(Duration::ZERO));
        assert_eq!(Budget.check(-0.0), Ok(Duration::ZERO));
        assert_eq!(Positive.check(0.0), Err(NotPositive));
        assert_eq!(MoveTime.check(1e-12), Err(NotPositive));
        assert_eq!(Budget.check(1e300), Err(TooLarge));
        assert_eq!(Positive.check(f64::INFINITY), Err(TooLarge));
        assert_eq!(Positive.check(1e6), Ok(Duration::from_secs(1_000_000)));
        assert_eq!(MoveTime.check(86_400.0), Ok(MAX_MOVE_TIME));
        assert_eq!(MoveTime.check(86_401.0), Err(MoreThanADay));
        assert_eq!(MoveTime.check(f64::INFINITY), Err(MoreThanADay));
    }

    #[test]
    fn messages_name_the_argument_and_show_the_number_short() {
        let bad = |rule: SecondsRule, secs| rule.named("x", secs).unwrap_err().to_string();
        assert_eq!(bad(SecondsRule::Budget, f64::NAN), "x NaN is not a number");
        assert_eq!(bad(SecondsRule::Budget, -1.0), "x -1 is negative");
        assert_eq!(
            bad(SecondsRule::Budget, 1e300),
            "x 1e300 is more than a duration can hold (at most 1.8e19 s)"
        );
        assert_eq!(
            bad(SecondsRule::MoveTime, 1e19),
            "x 1e19 is more than a day (86,400 s)"
        );
    }
}
