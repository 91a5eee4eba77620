//! The referee: players (an agent in process, or an agent program run as a child process),
//! games and matches between them under the rules and the move time, the checks on a program's
//! command line, and a match's results per player.

mod command;
mod escaped;
mod game;
mod player;
mod process;
mod stats;

pub use command::{Program, command_problem, is_simple_command, missing_program, program_of};
pub use game::{
    End, GameRecord, MatchConfig, MoveRecord, first_setup, play_game, run_match, run_match_until,
    setups,
};
pub use player::{AgentPlayer, Forfeit, Player};
pub use process::{ProcessPlayer, stop_all_agents};
pub use stats::{PlayerSummary, summarise};
