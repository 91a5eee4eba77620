//! Sokoboru: Sokoban with sliding balls, solved to the optimal penalty.
//!
//! The binding rules are ply's `sokoboru` spec: boxes are pushed one cell, balls slide until
//! they meet something and drop into an empty box they reach; a move costs 1 and pushing a
//! full box costs 2. A puzzle is solved when no empty box is left.
//!
//! Parse a puzzle, solve it to the optimal penalty, and check the answer as the course's
//! verifier does (legal moves, solved at the end, the stated penalty):
//!
//! ```
//! use ply_search::Limits;
//! use ply_sokoboru::{check_case, parse_puzzles, parse_solutions, solve};
//!
//! let puzzles = parse_puzzles("5 6\n---###\n$$----\n------\n---OO-\n---@--\n")?;
//! let solution = solve(&puzzles[0], Limits::UNLIMITED)?;
//! assert_eq!(solution.penalty, 14);
//!
//! // The solution file's two lines: the penalty, then the moves.
//! let moves: String = solution.moves.iter().map(|dir| dir.symbol()).collect();
//! let file = format!("{}\n{moves}\n", solution.penalty);
//! let entries = parse_solutions(&file)?;
//! let replayed = check_case(1, &puzzles[0], &entries[0])?;
//! assert_eq!((replayed.penalty, replayed.left), (14, 0));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`solve_file`] solves a whole file under one deadline, an answer for every case first.

#[cfg(test)]
mod ablation;
mod bound;
mod checked;
#[cfg(test)]
mod diag_tests;
mod drift;
mod duo;
mod freeze;
#[cfg(test)]
mod gap;
mod generate;
mod puzzle;
#[cfg(test)]
mod reference_tests;
mod rules;
mod schedule;
mod score;
mod scramble;
mod solver;
mod state;
mod verify;

pub use checked::{check_answer, check_moves, check_report, solve_checked, solve_file_checked};
pub use generate::{GenError, GenOptions, Generated, Keep, generate};
pub use puzzle::{MAX_CELLS, MAX_PAIRS, Puzzle, PuzzleError, parse_puzzles};
pub use rules::{IllegalMove, Step};
pub use schedule::{FileOptions, Progress, solve_file};
pub use score::{
    CASE_POINTS, CaseScore, FileScore, ScoreError, case_points, parse_optima, score_file,
};
pub use scramble::{ScrambleOptions, Scrambled, scramble};
pub use solver::{
    Answer, CaseExtra, CaseReport, DEFAULT_MEMORY, Solution, SolveError, Unproven, first_answer,
    solve,
};
pub use state::{Dir, State};
pub use verify::{
    BadMove, MAX_MOVES, Replay, SolutionEntry, VerifyError, check_case, check_file, check_solved,
    moves_to_string, parse_moves, parse_solutions, replay,
};
