//! The agents that play the duel: the [`Agent`] trait, the course's baselines (random and
//! alpha-beta) and their names, ply's timed agents (alpha-beta, MCTS and the deep agent that
//! adds the prover), the leaf evaluations, and the loop that runs an agent over the course's
//! protocol on stdin and stdout; agents by specification, as front ends ask for them.

mod agent;
mod baselines;
mod deep;
mod mcts;
mod spec;

pub(crate) use agent::HOST_PONDER_VAR;
pub use agent::{
    Agent, AgentError, AlphaBetaAgent, Eval, HOST_MOVE_TIME_VAR, RandomAgent, UnknownEval, WIN,
    course_value, host_allows_pondering, pondering_fits, race_value, run_agent, run_agent_since,
    run_agent_with, thinking_time,
};
pub use baselines::{
    COURSE_MOVE_TIME, MAX_MOVE_SECONDS, Pace, UnknownAgent, agent_by_name, named_pace,
};
pub use deep::{Decision, DeepAgent};
pub use mcts::{DuelPlayouts, MctsAgent, MctsAgentConfig, MoveReport};
pub use spec::{AgentSpec, AgentSpecError, BuiltAgent, MAX_SPEC_DEPTH};

/// The start of the course's first dice line with each side's cubes in number order: a
/// position the agents' tests play from.
#[cfg(test)]
fn ordered_start() -> crate::duel::Board {
    crate::duel::protocol::Setup {
        red: [0, 1, 2, 3, 4, 5],
        blue: [0, 1, 2, 3, 4, 5],
        dice: crate::duel::rules::course_dice()[0],
    }
    .board()
    .expect("a legal start")
}
