//! Sliding-tile puzzles (the 8-, 15- and 24-puzzle), solved optimally.
//!
//! Rules and goal follow Korf's convention: tiles `0 1 2 ... W*W-1` row-major with the blank
//! (0) top-left. [`solve`] runs ply-search's IDA* with an incremental heuristic:
//! [`heuristic::Manhattan`] or [`heuristic::LinearConflict`].

mod board;
mod error;
mod geometry;
pub mod heuristic;
pub mod instances;
pub mod pdb;
mod solver;

pub use board::{Board, moves_to_string};
pub use error::{BoardError, InstanceError, PdbError};
pub use geometry::{AllDirections, Direction, Directions, Geometry, MAX_CELLS, MoveSlots};
pub use heuristic::{Heuristic, HeuristicKind};
pub use instances::{Instance, parse_instances};
pub use solver::{TileSearch, check_solution, solve, solve_parallel};
