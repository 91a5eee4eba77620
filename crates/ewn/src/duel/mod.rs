//! Two-player EWN on a 6 x 7 board with a known dice sequence: rules, the agent protocol,
//! agents, the referee, tournaments and their logs.
//!
//! The binding rules are ply's `ewn-duel` spec: six cubes a side, the die of ply `k` is
//! `dice[k mod 21]`, the die's cube moves (or its nearest living neighbour in number), one step
//! in one of four forward directions, capturing whatever it lands on; a side wins by reaching the
//! far corner or capturing every enemy cube.

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
