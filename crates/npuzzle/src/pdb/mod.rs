//! Additive pattern databases: disjoint sets of tiles whose exact costs (counting only their
//! own moves) add up to an admissible heuristic.

mod bits;
mod build;
mod database;
mod directory;
mod file;
mod heuristic;
mod partition;
mod pattern;
mod store;

pub use build::{UNSEEN, build};
pub use database::PatternDatabase;
pub use directory::{Present, database_dir, strongest_present};
pub use file::FORMAT_VERSION;
pub use heuristic::PdbHeuristic;
pub use partition::{MAX_PATTERN_TILES, MAX_PATTERNS, Partition, Published, UnknownPartition};
pub use pattern::Pattern;
pub use store::{Choice, ChoiceError, Choosing, Chosen, Databases, Fallback, UnknownChoice};
