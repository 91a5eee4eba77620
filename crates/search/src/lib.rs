//! Generic search algorithms shared by every ply system.
//!
//! The algorithms are small generic functions in the style of the `pathfinding` crate; the
//! games supply their rules through traits or closures and keep their own state compact.
//!
//! - [`ida`]: iterative-deepening A* over a problem that applies and undoes moves in place.
//! - [`best_first`]: A* (and Dijkstra as A* with a zero heuristic) with duplicate detection,
//!   path reconstruction and a memory cap; [`astar_with`] adds an upper bound, dominance and
//!   parallel expansion through [`AStarOptions`].
//! - [`Game`]: the deterministic two-player game both adversarial searches play, holding
//!   rules only; each search takes its valuation from outside.
//! - [`alpha_beta`](mod@alpha_beta): negamax alpha-beta with iterative deepening, move
//!   ordering and a transposition table, valuing positions with an [`Evaluator`].
//! - [`mcts`]: Monte-Carlo tree search with UCB1, progressive bias, MCTS-Solver proofs and
//!   tree reuse, with playouts, priors and evaluations from a [`Policy`].
//! - [`proof_number`]: depth-first proof-number search (df-pn), which proves who wins a
//!   game from a position, with game [`Knowledge`] that solves or estimates positions.
//! - [`null_window`]: a second prover, iterative-deepening alpha-beta with a null window,
//!   to check the first.
//! - [`testing`]: conformance checks each game crate runs on its games and problems.
//! - [`Limits`]: the one budget of every search (nodes, time, deadline, memory), polled the
//!   same way by all; a search that runs out says so instead of returning a possibly wrong
//!   answer.

pub mod alpha_beta;
pub mod best_first;
mod game;
pub mod ida;
mod limits;
pub mod mcts;
pub mod null_window;
pub mod proof_number;
pub mod testing;

pub use alpha_beta::{
    AlphaBetaResult, Evaluator, INFINITY, OrderHook, PROVEN, Searcher, TranspositionTable, WIN,
    alpha_beta, is_proven,
};
pub use best_first::{
    AStarError, AStarOptions, AStarSolution, AStarStats, Dominance, NoDominance, PARALLEL_BATCH,
    astar, astar_with, dijkstra,
};
pub use game::{Game, Outcome};
pub use ida::{
    BoundTable, Filled, IdaOutcome, IdaProblem, IdaReport, Prepared, Probe, ida_probe, ida_star,
    parallel_ida_star,
};
pub use limits::{GiveUp, Limits, MemoryPool};
pub use mcts::{Mcts, MctsConfig, MctsStats, Policy, RootChild};
pub use null_window::{MoveOrder, NullWindow, SolvedTable, WinBound};
pub use proof_number::{
    DfPn, Knowledge, NoKnowledge, PN_INFINITY, ProofEntry, ProofResult, ProofTable,
};
