//! One module per `ply` system, plus the demo.

pub mod demo;
pub mod npuzzle;
