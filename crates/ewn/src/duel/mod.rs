//! Two-player EWN on a 6 x 7 board with a known dice sequence: rules, the agent protocol,
//! agents, the referee, tournaments and their logs.
//!
//! The binding rules are ply's `ewn-duel` spec: six cubes a side, the die of ply `k` is
//! `dice[k mod 21]`, the die's cube moves (or its nearest living neighbour in number), one step
//! in one of four forward directions, capturing whatever it lands on; a side wins by reaching the
//! far corner or capturing every enemy cube.

mod agent;
mod baselines;
mod command;
mod deep;
mod log;
mod mcts;
mod openings;
mod player;
mod playout;
mod playouts;
mod process;
mod protocol;
mod prover;
mod referee;
mod rules;
mod stats;
mod tournament;

pub use agent::{
    Agent, AgentError, AlphaBetaAgent, Eval, HOST_MOVE_TIME_VAR, HOST_PONDER_VAR, RandomAgent, WIN,
    course_value, deadline_after, host_allows_pondering, pondering_fits, race_value, run_agent,
    run_agent_since, run_agent_with, thinking_time,
};
pub use baselines::{
    COURSE_DICE, COURSE_MOVE_TIME, MAX_MOVE_SECONDS, MAX_NAMED_DEPTH, UnknownAgent, agent_by_name,
    course_dice,
};
pub use command::{Program, command_problem, is_simple_command, missing_program, program_of};
pub use deep::{Decision, DeepAgent};
pub use log::{
    DuelLog, LogError, LogProblem, LoggedGame, MAX_LINE, TournamentHeader, game_line, header_line,
    read_log, record_line,
};
pub use mcts::{DuelPlayouts, MctsAgent, MctsAgentConfig, MoveReport};
pub use openings::{
    LineSummary, OpeningError, OpeningProver, OpeningRecord, OpeningsTally, PERMUTATIONS, STARTS,
    draw, permutation, permutation_index, sample, start, start_index,
    summarise as summarise_openings, verify,
};
pub use player::{AgentPlayer, Forfeit, Player};
pub use playout::{FastRng, random_playout};
pub use playouts::{PlayoutTally, playouts, playouts_until};
pub use process::{MAX_MOVE_BYTES, ProcessPlayer, stop_all_agents};
pub use protocol::{ProtocolError, Setup, encode_move, parse_move, role_char};
pub use prover::{
    DuelKnowledge, PROVER_TABLE_BITS, Proof, Prover, Verifier, corner_distance,
    fewest_plies_to_win, race_length, runner_outcome, safe_runner_turns, seconds_limit,
    wins_in_three,
};
pub use referee::{
    DiceError, End, GameRecord, MatchConfig, MoveRecord, parse_dice_file, play_game, run_match,
    run_match_until, setups,
};
pub use rules::{
    BLUE_START, Board, CELLS, COLS, Color, DICE, DuelError, DuelMove, MoveList, RED_START, ROWS,
    Undo,
};
pub use stats::{PlayerSummary, summarise, wilson};
pub use tournament::{
    Entrant, Format, MAX_GAMES, Pairing, Played, Schedule, Sprt, Standing, TooManyGames, Verdict,
    elo_of_score, run_tournament, score_of_elo, standings,
};
