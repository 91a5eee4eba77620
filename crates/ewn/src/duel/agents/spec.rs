//! Agents by specification: the kinds and parameters a front end lets a user ask for (the
//! Python binding's `Agent`), checked as one, built, and written as one line of text that
//! reads back (what a copy or a pickle of an agent holds: not its tables).

use std::fmt;
use std::str::FromStr;

use ply_search::messages::excerpt;
use ply_search::{BadSeconds, SecondsRule};
use thiserror::Error;

use super::agent::{Agent, AlphaBetaAgent, Eval, RandomAgent, UnknownEval};
use super::baselines::{Pace, UnknownAgent, agent_by_name, named_pace};
use super::deep::DeepAgent;
use super::mcts::{MctsAgent, MctsAgentConfig};

/// The deepest fixed-depth alpha-beta an [`AgentSpec`] builds.
pub const MAX_SPEC_DEPTH: u32 = 64;

/// How to make an agent: its kind and parameters, unchecked until [`AgentSpec::build`]. A
/// time per move is in seconds, as the user gave it, and must keep ply-search's
/// [`SecondsRule::MoveTime`] (more than zero, at most a day).
///
/// Its text (`Display`, read back by `FromStr`) is the kind, then its parameters as
/// `key=value` words, every one the kind takes: `named name=hard seed=0`, `random seed=4`,
/// `alphabeta depth=3 eval=race table=true` (or `move_time=0.05` instead of the depth),
/// `deep move_time=1.8`, `mcts move_time=1.8 seed=1`. A spec that builds reads back as
/// itself.
///
/// ```
/// use ply_ewn::duel::agents::{AgentSpec, Eval, Pace};
/// let spec = AgentSpec::AlphaBeta { depth: Some(3), move_time: None, eval: Eval::Race, table: true };
/// assert_eq!(spec.to_string(), "alphabeta depth=3 eval=race table=true");
/// assert_eq!("alphabeta depth=3 eval=race table=true".parse(), Ok(spec.clone()));
/// let built = spec.build()?;
/// assert_eq!((built.name.as_str(), built.pace), ("alphabeta-3", Pace::Search));
/// # Ok::<(), ply_ewn::duel::agents::AgentSpecError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum AgentSpec {
    /// The agent `name` stands for ([`agent_by_name`]), `seed` making the random ones'
    /// moves.
    Named {
        /// `random`, `easy`, `normal`, `hard`, `deep` or `alphabeta-D`.
        name: String,
        /// The seed of a random agent's moves.
        seed: u64,
    },
    /// Uniformly random legal moves, deterministic for `seed` ([`RandomAgent`]).
    Random {
        /// The seed of the moves.
        seed: u64,
    },
    /// Alpha-beta over the known dice ([`AlphaBetaAgent`]) valuing leaves with `eval`: to
    /// `depth` plies (1 to [`MAX_SPEC_DEPTH`]), with the table and its move ordering if
    /// `table`, or, with `move_time` instead, iterative deepening with the table as deep as
    /// the time allows (`table` then changes nothing).
    AlphaBeta {
        /// The fixed depth in plies.
        depth: Option<u32>,
        /// The time per move in seconds, for the timed search.
        move_time: Option<f64>,
        /// The leaf evaluation.
        eval: Eval,
        /// Whether a fixed-depth search keeps a transposition table.
        table: bool,
    },
    /// ply's strongest agent ([`DeepAgent`]).
    Deep {
        /// The time per move in seconds.
        move_time: f64,
    },
    /// Monte-Carlo tree search ([`MctsAgent`], its default settings), with playouts
    /// deterministic for `seed`.
    Mcts {
        /// The time per move in seconds.
        move_time: f64,
        /// The seed of the playouts.
        seed: u64,
    },
}

/// An agent [`AgentSpec::build`] made, with what a front end needs to know of it.
pub struct BuiltAgent {
    /// The agent.
    pub agent: Box<dyn Agent + Send>,
    /// Its name: a named agent's own, `alphabeta-D` for a fixed depth, else the kind
    /// (`random`, `alphabeta`, `deep`, `mcts`).
    pub name: String,
    /// How it spends a move: a fixed-depth search to depth 2 is [`Pace::Instant`].
    pub pace: Pace,
}

/// Why an [`AgentSpec`] makes no agent, or a text is none.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum AgentSpecError {
    /// A name [`agent_by_name`] does not know.
    #[error(transparent)]
    UnknownAgent(#[from] UnknownAgent),
    /// An evaluation's name that is neither `course` nor `race`.
    #[error(transparent)]
    UnknownEval(#[from] UnknownEval),
    /// A fixed depth out of 1 to [`MAX_SPEC_DEPTH`].
    #[error("depth {0} is not 1-{MAX_SPEC_DEPTH}")]
    Depth(u32),
    /// An alpha-beta given both a depth and a move time, or neither.
    #[error("give alphabeta a depth or a move_time, not both nor neither")]
    DepthOrMoveTime,
    /// A time per move that breaks [`SecondsRule::MoveTime`] (named `move_time`).
    #[error(transparent)]
    MoveTime(#[from] BadSeconds),
    /// A text that is no spec's.
    #[error("'{}' is not an agent's specification", excerpt(.0))]
    NotASpec(String),
}

impl AgentSpec {
    /// The agent of this spec, its name and its pace.
    ///
    /// # Errors
    /// An [`AgentSpecError`] naming the first parameter that makes no agent: an unknown
    /// name, an alpha-beta with both a depth and a move time (or neither), a depth out of
    /// range, a move time out of [`SecondsRule::MoveTime`].
    pub fn build(&self) -> Result<BuiltAgent, AgentSpecError> {
        let seconds = |secs| SecondsRule::MoveTime.named("move_time", secs);
        let (agent, name, pace): (Box<dyn Agent + Send>, String, _) = match *self {
            AgentSpec::Named { ref name, seed } => {
                let agent = agent_by_name(name, seed)?;
                (
                    agent,
                    name.clone(),
                    named_pace(name).unwrap_or(Pace::Search),
                )
            }
            AgentSpec::Random { seed } => (
                Box::new(RandomAgent::new(seed)),
                "random".into(),
                Pace::Instant,
            ),
            AgentSpec::AlphaBeta {
                depth: Some(depth),
                move_time: None,
                eval,
                table,
            } => {
                if !(1..=MAX_SPEC_DEPTH).contains(&depth) {
                    return Err(AgentSpecError::Depth(depth));
                }
                let agent = AlphaBetaAgent::new(depth, table).with_eval(eval);
                let pace = if depth <= 2 {
                    Pace::Instant
                } else {
                    Pace::Search
                };
                (Box::new(agent), format!("alphabeta-{depth}"), pace)
            }
            AgentSpec::AlphaBeta {
                depth: None,
                move_time: Some(secs),
                eval,
                ..
            } => {
                let time = seconds(secs)?;
                let agent = AlphaBetaAgent::timed(time).with_eval(eval);
                (Box::new(agent), "alphabeta".into(), Pace::Timed(time))
            }
            AgentSpec::AlphaBeta { .. } => return Err(AgentSpecError::DepthOrMoveTime),
            AgentSpec::Deep { move_time } => {
                let time = seconds(move_time)?;
                (
                    Box::new(DeepAgent::new(time)),
                    "deep".into(),
                    Pace::Timed(time),
                )
            }
            AgentSpec::Mcts { move_time, seed } => {
                let time = seconds(move_time)?;
                let config = MctsAgentConfig {
                    move_time: time,
                    seed,
                    ..MctsAgentConfig::default()
                };
                (
                    Box::new(MctsAgent::new(config)),
                    "mcts".into(),
                    Pace::Timed(time),
                )
            }
        };
        Ok(BuiltAgent { agent, name, pace })
    }
}

impl fmt::Display for AgentSpec {
    /// The spec's text, which `from_str` reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AgentSpec::Named { name, seed } => write!(f, "named name={name} seed={seed}"),
            AgentSpec::Random { seed } => write!(f, "random seed={seed}"),
            AgentSpec::AlphaBeta {
                depth,
                move_time,
                eval,
                table,
            } => {
                f.write_str("alphabeta")?;
                if let Some(depth) = depth {
                    write!(f, " depth={depth}")?;
                }
                // A float's `Display` is the shortest text that reads back as it.
                if let Some(secs) = move_time {
                    write!(f, " move_time={secs}")?;
                }
                write!(f, " eval={eval} table={table}")
            }
            AgentSpec::Deep { move_time } => write!(f, "deep move_time={move_time}"),
            AgentSpec::Mcts { move_time, seed } => {
                write!(f, "mcts move_time={move_time} seed={seed}")
            }
        }
    }
}

impl FromStr for AgentSpec {
    type Err = AgentSpecError;

    /// The spec of a text `Display` wrote: the kind, then each of its parameters once.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let mut words = text.split_whitespace();
        let kind = words.next().unwrap_or_default();
        let mut fields = Fields(words.map(|word| word.split_once('=')).collect());
        fields
            .spec(kind)
            .filter(|_| fields.0.is_empty())
            .ok_or_else(|| AgentSpecError::NotASpec(text.to_string()))
    }
}

/// The `key=value` words of a spec's text (`None` for a word without `=`), taken as a kind
/// reads its parameters.
struct Fields<'a>(Vec<Option<(&'a str, &'a str)>>);

impl Fields<'_> {
    /// The spec of `kind` made of its parameters, `None` when one is missing, given twice or
    /// unreadable; the words left are not the kind's.
    fn spec(&mut self, kind: &str) -> Option<AgentSpec> {
        Some(match kind {
            "named" => AgentSpec::Named {
                name: self.get("name")?,
                seed: self.get("seed")?,
            },
            "random" => AgentSpec::Random {
                seed: self.get("seed")?,
            },
            "alphabeta" => AgentSpec::AlphaBeta {
                depth: self.optional("depth")?,
                move_time: self.optional("move_time")?,
                eval: self.get("eval")?,
                table: self.get("table")?,
            },
            "deep" => AgentSpec::Deep {
                move_time: self.get("move_time")?,
            },
            "mcts" => AgentSpec::Mcts {
                move_time: self.get("move_time")?,
                seed: self.get("seed")?,
            },
            _ => return None,
        })
    }

    /// The value of `key`, which must be there.
    fn get<T: FromStr>(&mut self, key: &str) -> Option<T> {
        self.optional(key)?
    }

    /// The value of `key`, `Some(None)` when it is not there; `None` when it cannot be read
    /// or is there twice.
    fn optional<T: FromStr>(&mut self, key: &str) -> Option<Option<T>> {
        let Some(at) = self.0.iter().position(|w| w.is_some_and(|(k, _)| k == key)) else {
            return Some(None);
        };
        let (_, value) = self.0.remove(at)?;
        if self.0.iter().any(|w| w.is_some_and(|(k, _)| k == key)) {
            return None;
        }
        value.parse().ok().map(Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// One spec of each kind and shape.
    fn specs() -> Vec<AgentSpec> {
        vec![
            AgentSpec::Named {
                name: "hard".into(),
                seed: 0,
            },
            AgentSpec::Named {
                name: "easy".into(),
                seed: 2,
            },
            AgentSpec::Random { seed: 4 },
            AgentSpec::AlphaBeta {
                depth: Some(3),
                move_time: None,
                eval: Eval::Race,
                table: true,
            },
            AgentSpec::AlphaBeta {
                depth: None,
                move_time: Some(0.05),
                eval: Eval::Course,
                table: false,
            },
            AgentSpec::Deep { move_time: 0.05 },
            AgentSpec::Mcts {
                move_time: 0.1,
                seed: 7,
            },
        ]
    }

    #[test]
    fn specs_build_agents_and_read_back_from_their_text() {
        let board = super::super::ordered_start();
        let mut shown = Vec::new();
        for spec in specs() {
            let text = spec.to_string();
            assert_eq!(text.parse::<AgentSpec>(), Ok(spec.clone()), "{text}");
            let mut built = spec.build().unwrap();
            let mv = built.agent.choose(&board, Instant::now());
            assert!(board.moves().contains(&mv), "{text}");
            shown.push((built.name, built.pace));
        }
        let timed = |ms| Pace::Timed(Duration::from_millis(ms));
        let expected = [
            ("hard", Pace::Search),
            ("easy", Pace::Instant),
            ("random", Pace::Instant),
            ("alphabeta-3", Pace::Search),
            ("alphabeta", timed(50)),
            ("deep", timed(50)),
            ("mcts", timed(100)),
        ];
        let shown: Vec<(&str, Pace)> = shown.iter().map(|(n, p)| (n.as_str(), *p)).collect();
        assert_eq!(shown, expected);
    }

    #[test]
    fn bad_specs_say_what_makes_no_agent() {
        let error = |spec: AgentSpec| spec.build().err().unwrap().to_string();
        let alphabeta = |depth, move_time| AgentSpec::AlphaBeta {
            depth,
            move_time,
            eval: Eval::Course,
            table: false,
        };
        assert_eq!(error(alphabeta(Some(65), None)), "depth 65 is not 1-64");
        assert_eq!(error(alphabeta(Some(0), None)), "depth 0 is not 1-64");
        let neither = "give alphabeta a depth or a move_time, not both nor neither";
        assert_eq!(error(alphabeta(None, None)), neither);
        assert_eq!(error(alphabeta(Some(2), Some(1.0))), neither);
        assert_eq!(
            error(AgentSpec::Deep { move_time: 0.0 }),
            "move_time 0 is not a positive duration"
        );
        assert_eq!(
            error(AgentSpec::Mcts {
                move_time: 86_401.0,
                seed: 1
            }),
            "move_time 86401 is more than a day (86,400 s)"
        );
        assert!(
            error(AgentSpec::Named {
                name: "bogus".into(),
                seed: 0
            })
            .starts_with("unknown agent 'bogus': use random")
        );
    }

    #[test]
    fn texts_that_are_no_specs_are_refused() {
        for text in [
            "",
            "robot seed=1",
            "random",
            "random seed=x",
            "random seed=1 seed=1",
            "random seed=1 depth=2",
            "random seed",
            "alphabeta depth=3 eval=fast table=true",
        ] {
            assert_eq!(
                text.parse::<AgentSpec>(),
                Err(AgentSpecError::NotASpec(text.to_string())),
                "{text}"
            );
        }
        assert_eq!(
            AgentSpecError::NotASpec("x\n".into()).to_string(),
            "'x\\n' is not an agent's specification"
        );
    }
}
