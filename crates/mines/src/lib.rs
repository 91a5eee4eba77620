//! ply-mines: Minesweeper at 65536 x 65536, played through the contest's process protocol
//! (spec: shared/specs/mines.md).
//!
//! - [`map`]: the map file format; [`generate`]: maps with exactly K mines, uniformly;
//!   [`opening`]: zero-region expansion and the largest opening of a map.
//! - [`game`]: the click semantics over an opened-bit per cell; [`server`]: the game server
//!   (one thread per channel, shared memory, futexes); [`judge`]: starts a server and a player,
//!   enforces the time limit and scores.
//! - [`client`]: the player's library; [`players`]: the naive player and a benchmark probe;
//!   [`solver`]: the parallel logical player (and the contest's reference approach).
//! - [`protocol`]: environment variables and pipe messages; [`sys`]: the only unsafe code
//!   (shared memory, futexes, inherited descriptors).

pub mod client;
pub mod error;
pub mod game;
pub mod generate;
pub mod judge;
pub mod map;
pub mod opening;
pub mod players;
pub mod protocol;
pub mod server;
pub mod solver;
pub mod sys;

pub use error::MinesError;
