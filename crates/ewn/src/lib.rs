//! EWN ("Einstein wuerfelt nicht!") in the two variants ply plays.
//!
//! - [`solo`]: the single-player, deterministic puzzle on a 10 x 10 board with a fixed dice
//!   sequence, solved to the fewest moves.
//! - [`duel`]: the two-player game on a 6 x 7 board: rules, protocol, agents and referee.

pub mod duel;
pub mod solo;
