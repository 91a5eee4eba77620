//! Tournaments between agent programs: the schedule (round robin or gauntlet, every opening
//! played with both colours), games in parallel, ratings with error bars, the sequential
//! probability ratio test, the cross-table of the pairs and the share of games lost on time,
//! and the logs of the host and of tournaments with their reader.

mod cross;
mod log;
mod ratings;
mod run;
mod schedule;

pub use cross::{CrossTable, TIME_LOSS_WARNING, TimeLosses};
pub use log::{
    DuelLog, LogError, LogProblem, LoggedGame, TournamentHeader, game_line, read_log, record_line,
};
pub use ratings::{Sprt, Standing, Verdict, standings};
pub use run::{Entrant, run_tournament};
pub use schedule::{Format, MAX_GAMES, Pairing, Played, Schedule, TooManyGames};
