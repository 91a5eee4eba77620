//! Sliding-tile puzzles (the 8-, 15- and 24-puzzle), solved optimally.
//!
//! Rules and goal follow Korf's convention: tiles `0 1 2 ... W*W-1` row-major with the blank
//! (0) top-left. [`solve`] runs ply-search's IDA* with an incremental heuristic:
//! [`heuristic::Manhattan`], [`heuristic::LinearConflict`] or additive pattern databases
//! ([`pdb`]), chosen by a [`Heuristic`].
//!
//! ```
//! use ply_npuzzle::{Board, Heuristic, check_solution, moves_to_string, solve};
//! use ply_search::{Ending, Limits};
//!
//! let board: Board = "1 2 5 3 4 0 6 7 8".parse()?;
//! let report = solve(&board, Heuristic::LinearConflict, Limits::UNLIMITED)?;
//! let Ending::Solved { cost, moves } = &report.ending else {
//!     panic!("a solvable board without a budget is always solved");
//! };
//! assert_eq!(*cost, 3);
//! assert_eq!(moves_to_string(moves), "ULL");
//! assert!(check_solution(&board, moves).is_ok());
//! // Single-threaded IDA* counts are deterministic.
//! assert_eq!((report.generated, report.expanded), (3, 3));
//! # Ok::<(), ply_npuzzle::BoardError>(())
//! ```

mod board;
mod error;
mod fsm;
mod geometry;
pub mod heuristic;
pub mod instances;
pub mod pdb;
mod solver;

pub use board::{Board, moves_to_string, parse_moves};
pub use error::{BoardError, InstanceError, NotAMove, PdbError, SolveError};
pub use fsm::{DEFAULT_FSM_DEPTH, MAX_FSM_DEPTH, MIN_FSM_DEPTH, MoveFsm, Pruning, Reversals};
pub use geometry::{AllDirections, Direction, Directions, Geometry, MAX_CELLS, MoveSlots};
pub use heuristic::HeuristicKind;
pub use instances::{Instance, parse_instances};
pub use solver::{
    Heuristic, MAX_TOP_STATES, Plan, TileSearch, check_report, check_solution, solve,
    solve_checked, solve_parallel, solve_with,
};
