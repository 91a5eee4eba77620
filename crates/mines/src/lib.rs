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
//! - [`classic`]: classic Minesweeper as the field measures its solvers: the standard
//!   levels, first-click rules, seeded games, exact probabilities and the classic player.
//! - [`protocol`]: environment variables, pipe messages and the shared-memory layout (the only
//!   unsafe code, in a private module behind it: shared memory, futexes, inherited
//!   descriptors).
//!
//! A game in this process, without a server: generate a map, click by hand, then let the
//! solver open the rest (under a judge, a player does the same through [`Session`] and its
//! [`Channel`]s, which are [`Clicker`]s too).
//!
//! ```
//! use ply_mines::{
//!     Click, Expander, Game, LocalClicker, MineMap, SolverConfig, default_mines, generate,
//!     score, solve_with,
//! };
//!
//! # fn main() -> Result<(), ply_mines::MinesError> {
//! // A 64 x 64 board with the contest's density (N*N/8 mines): the same seed, the same map.
//! let n = 64;
//! let k = default_mines(n);
//! let bits = generate(n, k, 7, &|_, _| {})?;
//! let game = Game::new(MineMap::from_bits(n, k, bits)?);
//!
//! // One click by hand: a mine, a number, or a zero whose whole opening comes back.
//! let (mut expander, mut cells) = (Expander::default(), Vec::new());
//! match game.click(0, 0, true, false, &mut expander, &mut cells, usize::MAX) {
//!     Ok(Click::Mine) => println!("(0, 0) is a mine"),
//!     Ok(Click::Opened(count)) => println!("{count} cells opened; (0, 0) shows {}", cells[0][2]),
//!     Ok(Click::Skipped { .. }) | Err(_) => unreachable!("a first click, without a cap"),
//! }
//!
//! // The solver: two workers, each clicking on the game through its own clicker.
//! let config = SolverConfig { threads: 2, ..SolverConfig::default() };
//! let clickers = (0..2).map(|_| LocalClicker::new(&game)).collect();
//! let stats = solve_with(n, k, clickers, &config, &ply_search::Limits::UNLIMITED)?;
//! let counts = game.counts();
//! assert_eq!(counts.safe, u64::from(n * n) - k, "every safe cell is open");
//! assert_eq!(stats.wrong_deductions, 0);
//! let points = score(n.into(), k, counts.safe, counts.mines, 8);
//! println!("{} guesses, {} mines hit: {points:.3} points with A = 8", stats.guesses, counts.mines);
//! # Ok(())
//! # }
//! ```

mod backoff;
pub mod classic;
mod client;
mod error;
mod frontier;
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

pub use client::{Channel, ClickResult, MAX_PLAYER_THREADS, Session};
pub use error::MinesError;
pub use game::{Click, EXPANSIONS, Game};
pub use generate::{generate, generate_until};
pub use judge::{
    Ending, JudgeConfig, Progress, Verdict, check_score, contest_time_limit, judge,
    judge_with_progress, score,
};
pub use map::{
    MAX_SIZE, MIN_SIZE, MineMap, check_size, default_mines, write_map, write_map_interruptible,
};
pub use opening::{Counts, Expander, NEIGHBOURS, TooLarge, largest_opening};
pub use players::{PlayStats, naive, probe};
pub use server::{ServerSetup, serve};
pub use solver::{
    Clicker, LocalClicker, Reply, SolveStats, SolverConfig, Strategy, default_threads,
    solve_session, solve_with,
};
