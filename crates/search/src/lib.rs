//! Generic search algorithms shared by every ply system.
//!
//! The algorithms are small generic functions and types in the style of the `pathfinding`
//! crate, all at the crate's root (each is called one way); the games supply their rules
//! through traits or closures and keep their own state compact. Each algorithm's entry point
//! gives the algorithm and its sources.
//!
//! - [`ida_star`]: iterative-deepening A* over an [`IdaProblem`] that applies and undoes
//!   moves in place; [`parallel_ida_star`] on several threads, [`ida_probe`] for one
//!   iteration, [`BoundTable`] for a transposition table of lower bounds; [`astar_ida_star`]
//!   runs A* over the top of the tree, then IDA* below its open list ([`IdaStates`]).
//! - [`astar`]: A* (and [`dijkstra`], A* with a zero heuristic) with duplicate detection,
//!   path reconstruction and a memory cap; [`astar_with`] adds an upper bound, dominance and
//!   parallel expansion through [`AStarOptions`]; [`Resumable`] runs a search in runs, each
//!   under its own budget, going on where the last stopped.
//! - [`Game`]: the deterministic two-player game both adversarial searches play, holding
//!   rules only; each search takes its valuation from outside.
//! - [`Searcher`]: negamax alpha-beta with iterative deepening, move ordering and a
//!   transposition table, valuing positions with an [`Evaluator`]; [`alpha_beta()`] is the
//!   plain search at one depth.
//! - [`Mcts`]: Monte-Carlo tree search with UCB1, progressive bias, MCTS-Solver proofs and
//!   tree reuse, with playouts, priors and evaluations from a [`Policy`].
//! - [`DfPn`]: depth-first proof-number search (df-pn), which proves who wins a game from a
//!   position, with game [`Knowledge`] that solves or estimates positions.
//! - [`NullWindow`]: a second prover, iterative-deepening alpha-beta with a null window, to
//!   check the first.
//! - [`testing`]: conformance checks each game crate runs on its games and problems;
//!   [`messages`]: the wording of the libraries' error messages.
//! - [`Report`]: the one record of an optimal solve (how it [`Ending`]ed, what is proven,
//!   the bounds and the work), which every solver's checked entry point returns and every
//!   front end only converts.
//! - [`Limits`]: the one budget of every search (nodes, time, deadline, memory), polled the
//!   same way by all; a search that runs out says so instead of returning a possibly wrong
//!   answer. Its [`StopFlag`] is the one way to stop a search from outside; a user's seconds
//!   become a budget by one [`SecondsRule`] in every front end.
//!
//! # Example
//!
//! A game supplies its rules through [`Game`]; alpha-beta takes a leaf valuation from
//! outside. Here a tiny Nim (take one or two counters; whoever takes the last wins) is solved:
//! from 7 counters the mover wins by leaving a multiple of three.
//!
//! ```
//! use ply_search::{Game, Outcome, WIN, alpha_beta};
//!
//! struct Nim {
//!     counters: u32,
//!     to_move: u8,
//! }
//!
//! impl Game for Nim {
//!     type Move = u32;
//!     type Moves = Vec<u32>;
//!     type Undo = ();
//!
//!     fn to_move(&self) -> u8 {
//!         self.to_move
//!     }
//!     fn moves(&self) -> Vec<u32> {
//!         (1..=2).filter(|&take| take <= self.counters).collect()
//!     }
//!     fn play(&mut self, take: u32) {
//!         self.counters -= take;
//!         self.to_move ^= 1;
//!     }
//!     fn undo(&mut self, take: u32, (): ()) {
//!         self.counters += take;
//!         self.to_move ^= 1;
//!     }
//!     fn outcome(&self) -> Option<Outcome> {
//!         // The player who took the last counter, the one not to move, has won.
//!         (self.counters == 0).then_some(Outcome::Win(self.to_move ^ 1))
//!     }
//! }
//!
//! let mut game = Nim { counters: 7, to_move: 0 };
//! // Deep enough to see every game end; no heuristic needed (every leaf is worth 0).
//! let result = alpha_beta(&mut game, 7, |_: &Nim| 0);
//! assert_eq!(result.best, Some(1));
//! assert_eq!(result.value, WIN);
//! ```

// The algorithms' modules are private: their items are re-exported below, so that each is
// named one way (`ply_search::alpha_beta` is the function, never a module).
mod alpha_beta;
mod best_first;
mod checked;
mod game;
mod ida;
mod limits;
mod mcts;
mod memory;
pub mod messages;
mod null_window;
mod progress;
mod proof_number;
mod record;
mod report;
mod seconds;
mod stats;
pub mod testing;

pub use alpha_beta::{
    AlphaBetaResult, Evaluator, INFINITY, OrderHook, PROVEN, Searcher, TranspositionTable, WIN,
    alpha_beta, is_proven,
};
pub use best_first::{
    AStarError, AStarOptions, AStarSolution, AStarStats, Dominance, NoDominance, PARALLEL_BATCH,
    Resumable, astar, astar_with, dijkstra,
};
pub use checked::WrongAnswer;
pub use game::{Game, Outcome};
pub use ida::{
    BoundTable, Filled, IdaExtra, IdaProblem, IdaReport, IdaStates, Prepared, Probe,
    astar_ida_star, ida_probe, ida_star, parallel_ida_star,
};
pub use limits::{
    BadThreads, GiveUp, Limits, MAX_THREADS, MemoryPool, StopFlag, check_threads,
    check_threads_up_to, deadline_in,
};
pub use mcts::{Mcts, MctsConfig, MctsStats, Policy, RootChild};
pub use memory::{advise_huge_pages, prefetch};
pub use null_window::{MoveOrder, NullWindow, SolvedTable, WinBound};
pub use progress::{IterationDone, ProgressSnapshot, SearchProgress};
pub use proof_number::{
    DfPn, Knowledge, NoKnowledge, PN_INFINITY, ProofEntry, ProofResult, ProofTable,
};
pub use record::Record;
pub use report::{Ending, Report};
pub use seconds::{BadSeconds, MAX_MOVE_TIME, SecondsProblem, SecondsRule};
pub use stats::wilson;
