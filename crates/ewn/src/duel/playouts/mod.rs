//! Random playouts: a fast generator, one uniformly random game, and batches of them from the
//! course's openings (who wins, how often, in how many plies).

mod batch;
mod playout;

pub use batch::{PlayoutTally, playouts, playouts_until};
pub use playout::FastRng;
