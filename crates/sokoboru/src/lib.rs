//! Sokoboru: Sokoban with sliding balls, solved to the optimal penalty.
//!
//! The binding rules are ply's `sokoboru` spec: boxes are pushed one cell, balls slide until
//! they meet something and drop into an empty box they reach; a move costs 1 and pushing a
//! full box costs 2. A puzzle is solved when no empty box is left.

mod bound;
mod drift;
mod duo;
mod freeze;
mod frozen_tables;
mod generate;
mod puzzle;
#[cfg(test)]
mod reference_tests;
mod rules;
mod schedule;
mod solver;
mod state;
mod verify;

pub use generate::{GenError, GenOptions, Generated, Keep, generate};
pub use puzzle::{MAX_CELLS, Puzzle, PuzzleError, parse_puzzles};
pub use rules::{IllegalMove, Step};
pub use schedule::{Answer, FileOptions, Progress, better, case_time, solve_file};
pub use solver::{
    Cheaper, DEFAULT_MEMORY, Solution, SolveError, Unproven, cheaper_answer, first_answer, solve,
    solve_anytime, solve_from,
};
pub use state::{Dir, State};
pub use verify::{
    MAX_MOVES, Replay, SolutionEntry, VerifyError, check_case, parse_solutions, replay,
};
