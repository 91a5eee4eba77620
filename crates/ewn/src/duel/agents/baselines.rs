//! The course's named agents: what the CLI, the demo and the Python binding
//! all mean by `easy`, `normal`, `hard`, `deep` and `alphabeta-D`.

use std::time::{Duration, Instant};

use thiserror::Error;

use super::agent::{Agent, AlphaBetaAgent, RandomAgent};
use super::deep::DeepAgent;

/// The move time of the course's contest, which [`agent_by_name`]'s `deep` plays at.
pub const COURSE_MOVE_TIME: Duration = Duration::from_millis(1800);

/// The longest time per move a front end accepts, in seconds: ply-search's
/// [`MAX_MOVE_TIME`](ply_search::MAX_MOVE_TIME) (a day), which its
/// [`SecondsRule::MoveTime`](ply_search::SecondsRule::MoveTime) applies.
pub const MAX_MOVE_SECONDS: f64 = ply_search::MAX_MOVE_TIME.as_secs_f64();

/// The deepest `alphabeta-D` [`agent_by_name`] accepts.
const MAX_NAMED_DEPTH: u32 = 20;

/// A name [`agent_by_name`] does not know.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "unknown agent '{}': use random, easy, normal, hard, deep or alphabeta-D (D = 1-{MAX_NAMED_DEPTH})",
    ply_search::messages::excerpt(.0)
)]
pub struct UnknownAgent(pub String);

/// The agent a name stands for: `random` or `easy` (uniformly random moves, deterministic for
/// `seed`), `normal` and `hard` (the course's alpha-beta baselines, depth 2 and 8, move for
/// move), `deep` (ply's strongest, [`COURSE_MOVE_TIME`] a move) or `alphabeta-D` (alpha-beta
/// with its table to depth D, 1 to 20).
///
/// # Errors
/// [`UnknownAgent`] for any other name.
pub fn agent_by_name(name: &str, seed: u64) -> Result<Box<dyn Agent + Send>, UnknownAgent> {
    Ok(match name {
        "random" | "easy" => Box::new(RandomAgent::new(seed)),
        "normal" => Box::new(AlphaBetaAgent::new(2, false)),
        "hard" => Box::new(AlphaBetaAgent::new(8, false)),
        "deep" => Box::new(DeepAgent::new(COURSE_MOVE_TIME)),
        other => match other
            .strip_prefix("alphabeta-")
            .and_then(|d| d.parse::<u32>().ok())
        {
            Some(depth) if (1..=MAX_NAMED_DEPTH).contains(&depth) => {
                Box::new(AlphaBetaAgent::new(depth, true))
            }
            _ => return Err(UnknownAgent(other.to_string())),
        },
    })
}

/// How a named agent ([`agent_by_name`]) spends a move: what a front end needs to know of
/// it besides the agent itself (whether a move may run on the caller's thread, and what time
/// a move is given).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pace {
    /// Microseconds a move: random moves, or the depth-2 search of `normal`.
    Instant,
    /// A fixed-depth search, milliseconds to seconds a move: `hard`, `alphabeta-D`.
    Search,
    /// A search until its move time runs out: `deep`.
    Timed(Duration),
}

impl Pace {
    /// The time a timed agent gives a move, else `None`.
    #[must_use]
    pub fn move_time(self) -> Option<Duration> {
        match self {
            Pace::Timed(time) => Some(time),
            Pace::Instant | Pace::Search => None,
        }
    }

    /// The turn's start to tell an agent of this pace ([`Agent::choose`]'s `received`) for
    /// its move to end `wanted` after `now` rather than its own move time after: a timed
    /// agent's deadline is the turn's start plus its own time, so a turn that started `own -
    /// wanted` ago (or `wanted - own` ahead) ends `wanted` from now. `now` for an agent that
    /// is not timed, or without `wanted`.
    ///
    /// ```
    /// use std::time::{Duration, Instant};
    /// use ply_ewn::duel::agents::Pace;
    /// let (now, second) = (Instant::now(), Duration::from_secs(1));
    /// let timed = Pace::Timed(2 * second);
    /// assert_eq!(timed.turn_start(now, Some(second)) + 2 * second, now + second);
    /// assert_eq!(timed.turn_start(now, Some(3 * second)), now + second);
    /// assert_eq!(Pace::Search.turn_start(now, Some(second)), now);
    /// ```
    #[must_use]
    pub fn turn_start(self, now: Instant, wanted: Option<Duration>) -> Instant {
        match (self, wanted) {
            (Pace::Timed(own), Some(wanted)) if wanted <= own => {
                now.checked_sub(own - wanted).unwrap_or(now)
            }
            (Pace::Timed(own), Some(wanted)) => now + (wanted - own),
            _ => now,
        }
    }
}

/// The [`Pace`] of the agent `name` stands for, or `None` when [`agent_by_name`] does not
/// know it.
///
/// ```
/// use ply_ewn::duel::agents::{COURSE_MOVE_TIME, Pace, named_pace};
/// assert_eq!(named_pace("easy"), Some(Pace::Instant));
/// assert_eq!(named_pace("deep"), Some(Pace::Timed(COURSE_MOVE_TIME)));
/// assert_eq!(named_pace("alphabeta-21"), None);
/// ```
#[must_use]
pub fn named_pace(name: &str) -> Option<Pace> {
    match name {
        "random" | "easy" | "normal" => Some(Pace::Instant),
        "deep" => Some(Pace::Timed(COURSE_MOVE_TIME)),
        other => agent_by_name(other, 0).ok().map(|_| Pace::Search),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    #[test]
    fn names_make_the_agents_they_stand_for() {
        let board = super::super::ordered_start();
        // `hard` is the course's depth-8 search move for move.
        let mut hard = agent_by_name("hard", 0).unwrap();
        let expected = AlphaBetaAgent::new(8, false).search(&board).0;
        assert_eq!(hard.choose(&board, Instant::now()), expected);
        for name in ["random", "easy", "normal", "alphabeta-1", "alphabeta-20"] {
            let mut agent = agent_by_name(name, 3).unwrap();
            let mv = agent.choose(&board, Instant::now());
            assert!(board.moves().contains(&mv), "{name}");
        }
        for bad in ["alphabeta-0", "alphabeta-21", "alphabeta-x", "Hard", ""] {
            let err = agent_by_name(bad, 0).err().unwrap();
            assert_eq!(
                err.to_string(),
                format!(
                    "unknown agent '{bad}': use random, easy, normal, hard, deep or alphabeta-D (D = 1-20)"
                )
            );
        }
    }
}
