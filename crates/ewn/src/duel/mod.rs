//! Two-player EWN on a 6 x 7 board with a known dice sequence: rules, the agent protocol,
//! agents, the referee, tournaments and their logs.
//!
//! The binding rules are ply's `ewn-duel` spec: six cubes a side, the die of ply `k` is
//! `dice[k mod 21]`, the die's cube moves (or its nearest living neighbour in number), one step
//! in one of four forward directions, capturing whatever it lands on; a side wins by reaching the
//! far corner or capturing every enemy cube.
//!
//! The names are grouped in namespaces:
//! - [`rules`]: the board, cubes, moves and dice lines;
//! - [`protocol`]: the course's encoding of a game's setup and of moves;
//! - [`agents`]: the [`Agent`] trait, the course's baselines, ply's timed agents, and the loop
//!   that runs an agent over the protocol;
//! - [`referee`]: players, agent processes, games and matches, and a match's results;
//! - [`tournament`]: schedules, games in parallel, ratings, the SPRT, and the logs;
//! - [`openings`]: a dice line's starts, their proofs and records;
//! - [`prover`]: the df-pn prover with the duel's knowledge, and an independent verifier;
//! - [`playouts`]: random games and batches of them.
//!
//! The root re-exports the names most users need.

pub mod agents;
pub mod openings;
pub mod playouts;
pub mod protocol;
pub mod prover;
pub mod referee;
pub mod rules;
pub mod tournament;

pub use agents::{Agent, DeepAgent, agent_by_name};
pub use prover::Prover;
pub use referee::{MatchConfig, run_match};
pub use rules::{
    Board, COURSE_DICE, Color, DICE, DuelError, DuelMove, course_dice, parse_dice_file,
};
