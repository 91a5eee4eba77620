//! ply-mines: Minesweeper at 65536 x 65536, played through the contest's process protocol
//! (spec: shared/specs/mines.md).
//!
//! - `map`: the map file format; `generate`: maps with exactly K mines, uniformly;
//!   `opening`: zero-region expansion and the largest opening of a map.
//! - `game`: the click semantics over an opened-bit per cell; `server`: the game server
//!   (one thread per channel, shared memory, futexes); `judge`: starts a server and a player,
//!   enforces the time limit and scores.
//! - `client`: the player's library; `players`: the naive player and a benchmark probe;
//!   `solver`: the parallel logical player (and the contest's reference approach).
//! - [`protocol`]: environment variables, pipe messages and the shared-memory layout (the only
//!   unsafe code, in a private module behind it: shared memory, futexes, inherited
//!   descriptors).

mod backoff;
mod client;
mod error;
mod game;
mod generate;
mod judge;
mod map;
mod opening;
mod players;
pub mod protocol;
mod server;
mod solver;
mod sys;

pub use client::{Channel, ClickResult, Session};
pub use error::MinesError;
pub use game::{Click, Counts, EXPANSIONS, Game};
pub use generate::generate;
pub use judge::{
    Ending, JudgeConfig, Progress, Verdict, contest_time_limit, judge, judge_with_progress, score,
};
pub use map::{
    MAX_SIZE, MIN_SIZE, MineMap, check_size, default_mines, write_map, write_map_interruptible,
};
pub use opening::{Expander, NEIGHBOURS, TooLarge, largest_opening};
pub use players::{PlayStats, naive, probe};
pub use server::{ServerSetup, serve};
pub use solver::{
    Clicker, LocalClicker, Reply, SolveStats, SolverConfig, Strategy, default_threads,
    solve_session, solve_with,
};
