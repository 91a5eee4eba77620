//! Random playouts: a fast generator, one uniformly random game, and batches of them from the
//! course's openings (who wins, how often, in how many plies).

mod batch;
mod playout;

/// The playouts' generator, which lives with the rules (agents draw from it too).
pub use crate::duel::rules::FastRng;
pub use batch::{PlayoutTally, playouts, playouts_until};
