//! EWN ("Einstein wuerfelt nicht!") in the two variants ply plays.
//!
//! - [`solo`]: the single-player, deterministic puzzle on a 10 x 10 board with a fixed dice
//!   sequence, solved to the fewest moves.
//! - [`duel`]: the two-player game on a 6 x 7 board: rules, protocol, agents, referee,
//!   tournaments and their logs.
//!
//! # Examples
//!
//! A duel position from the course's protocol, answered by the course's `normal` baseline
//! (alpha-beta to depth 2) and by ply's strongest agent with 50 ms to think:
//!
//! ```
//! use std::time::{Duration, Instant};
//! use ply_ewn::duel::DeepAgent;
//! use ply_ewn::duel::agents::AlphaBetaAgent;
//! use ply_ewn::duel::protocol::Setup;
//!
//! // Red's and blue's cube numbers on their start cells, then the 21 dice.
//! let setup = Setup::decode(b"012345012345343242404031241152042")?;
//! let mut board = setup.board()?;
//! let (mv, _value) = AlphaBetaAgent::new(2, false).search(&board);
//! board.play_checked(mv)?;
//! let mut deep = DeepAgent::new(Duration::from_millis(50));
//! let (reply, _value, _depth) = deep.answer(&board, Instant::now());
//! board.play_checked(reply)?;
//! assert_eq!(board.ply(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! A solo instance (the goal piece, the six pieces' cells, the 30 dice) solved to the fewest
//! moves:
//!
//! ```
//! use ply_ewn::solo::{Instance, solve};
//! use ply_search::{Ending, Limits};
//!
//! let instance = Instance::parse("2\n62 11 66 42 32 36\n222222222222222222222222222222\n")?;
//! let report = solve(&instance, Limits::default());
//! let Ending::Solved { moves, .. } = report.ending else {
//!     panic!("solvable");
//! };
//! // Piece 2 steps from (1,1) to the goal corner (0,0) at once.
//! assert_eq!((moves.len(), moves[0].from, moves[0].to), (1, 11, 0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod duel;
pub mod solo;
