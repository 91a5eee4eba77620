//! Two-player EWN on a 6 x 7 board with a known dice sequence: rules, the agent protocol,
//! agents and the referee.
//!
//! The binding rules are ply's `ewn-duel` spec: six cubes a side, the die of ply `k` is
//! `dice[k mod 21]`, the die's cube moves (or its nearest living neighbour in number), one step
//! in one of four forward directions, capturing whatever it lands on; a side wins by reaching the
//! far corner or capturing every enemy cube.

mod agent;
mod host;
mod mcts;
mod playout;
mod protocol;
mod rules;

pub use agent::{Agent, AgentError, AlphaBetaAgent, RandomAgent, WIN, course_value, run_agent};
pub use host::{
    AgentPlayer, End, Forfeit, GameRecord, MatchConfig, MoveRecord, Player, PlayerSummary,
    ProcessPlayer, parse_dice_file, play_game, run_match, setups, summarise, wilson,
};
pub use mcts::{DuelPlayouts, MctsAgent, MctsAgentConfig, MoveReport};
pub use playout::{FastRng, random_playout};
pub use protocol::{ProtocolError, Setup, encode_move, parse_move, role_char};
pub use rules::{
    BLUE_START, Board, CELLS, COLS, Color, DICE, DuelError, DuelMove, MoveList, RED_START, ROWS,
    Undo,
};
