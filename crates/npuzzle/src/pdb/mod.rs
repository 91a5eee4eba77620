//! Additive pattern databases: disjoint sets of tiles whose exact costs (counting only their
//! own moves) add up to an admissible heuristic.

mod build;
mod pattern;

pub use build::{UNSEEN, build};
pub use pattern::Pattern;
