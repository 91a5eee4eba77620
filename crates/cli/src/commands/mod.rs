//! One module per `ply` system, plus the demo.

pub mod demo;
pub mod ewn;
pub mod npuzzle;
