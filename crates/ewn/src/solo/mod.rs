//! Single-player EWN with a fixed dice sequence: rules, instances, an optimal solver, a checker
//! and a generator.
//!
//! The binding rules are in ply's `ewn-solo` spec: a 10 x 10 board with a hole at (3,3), six
//! pieces, 30 dice; the die selects the piece to move (or its nearest living neighbours in
//! number), which steps to any of its 8 neighbours and removes whatever stands there. The goal
//! piece must reach (0,0) in the fewest moves.

mod bounds;
mod check;
mod generate;
mod instance;
mod regions;
mod rules;
mod solver;

pub use bounds::{DiceBounds, king_distance};
pub use check::{Verdict, check, parse_solution};
pub use generate::{GenError, GenOptions, generate};
pub use instance::{DICE, Instance, InstanceError};
pub use regions::{RegionGame, RegionMove, RegionMoves};
pub use rules::{CELLS, DEAD, HOLE, IllegalMove, MoveList, Position, SoloMove};
pub use solver::{SoloOutcome, SoloReport, solve};
