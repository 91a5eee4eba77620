//! Single-player EWN with a fixed dice sequence: rules, instances, games played move by move,
//! an optimal solver, a checker and a generator.
//!
//! The binding rules are in ply's `ewn-solo` spec: a 10 x 10 board with a hole at (3,3), six
//! pieces, 30 dice; the die selects the piece to move (or its nearest living neighbours in
//! number), which steps to any of its 8 neighbours and removes whatever stands there. The goal
//! piece must reach (0,0) in the fewest moves.
//!
//! ```
//! use ply_ewn::solo::{Instance, Verdict, check, solve};
//! use ply_search::{Ending, Limits};
//!
//! // The course's sample: goal piece 2, the cells of pieces 1..6, the 30 dice.
//! let instance = Instance::parse("2\n62 26 66 42 32 36\n665545154156655451541566554515\n")?;
//! let report = solve(&instance, Limits::UNLIMITED);
//! let Ending::Solved { moves, .. } = &report.ending else {
//!     panic!("the sample has a solution");
//! };
//! assert_eq!(moves.len(), 16);
//! // The course's output line: from/to cell pairs (cell = 10 * row + column).
//! let pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
//! let verdict = check(&instance, &pairs, Some(16));
//! assert!(matches!(verdict, Verdict::Solved { over: Some(0), .. }));
//! // One thread and a fixed move order: the node counts are deterministic.
//! assert_eq!((report.generated, report.expanded), (42, 16));
//! # Ok::<(), ply_ewn::solo::InstanceError>(())
//! ```

mod bounds;
mod check;
mod game;
mod generate;
mod instance;
mod regions;
mod rules;
mod solver;

pub use bounds::{DiceBounds, king_distance};
pub use check::{Verdict, check, parse_solution, solve_checked};
pub use game::{PlayError, ReplayError, SoloGame};
pub use generate::{GenError, GenOptions, generate};
pub use instance::{DICE, Instance, InstanceError};
pub use regions::{RegionGame, RegionMove, RegionMoves};
pub use rules::{CELLS, DEAD, HOLE, IllegalMove, MoveList, Position, SoloMove};
pub use solver::{SoloExtra, SoloReport, solve};
