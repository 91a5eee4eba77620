//! Optimal solving with ply-search's IDA*, and the choice of heuristic it searches with.
//!
//! [`Heuristic`] lives here rather than in [`crate::heuristic`] because it names the pattern
//! databases, whose lookups build on the table-free heuristics: keeping it beside the solver
//! keeps the dependency one way (`pdb` uses `heuristic`, never the reverse).

use ply_search::{
    Ending, IdaProblem, IdaReport, IdaStates, Limits, Prepared, WrongAnswer, astar_ida_star,
    ida_star, parallel_ida_star,
};

use crate::board::Board;
use crate::error::{BoardError, SolveError};
use crate::fsm::{MIN_FSM_DEPTH, MoveFsm, Pruning, Reversals};
use crate::geometry::{Direction, MAX_CELLS};
use crate::geometry::{Geometry, MoveSlots, SLOTS};
use crate::heuristic::{HeuristicKind, LinearConflict, Manhattan, TileHeuristic};
use crate::pdb::{Chosen, PatternDatabase, PdbHeuristic};

/// A heuristic ready to search with: a table-free kind, or pattern databases.
#[derive(Clone, Copy, Debug)]
pub enum Heuristic<'a> {
    /// Sum of Manhattan distances.
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// Additive pattern databases.
    Pdb {
        /// The databases.
        database: &'a PatternDatabase,
        /// Whether to maximise with the reflection about the main diagonal.
        reflect: bool,
    },
}

impl Heuristic<'_> {
    /// A short name: `manhattan`, `linear-conflict`, `pdb 7-8 + reflection`.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Heuristic::Manhattan => HeuristicKind::Manhattan.name().into(),
            Heuristic::LinearConflict => HeuristicKind::LinearConflict.name().into(),
            Heuristic::Pdb { database, reflect } => format!(
                "pdb {}{}",
                database.partition().name(),
                if *reflect { " + reflection" } else { "" }
            ),
        }
    }

    /// The duplicate pruning a search with this heuristic uses unless told otherwise: the
    /// machine of [`MoveFsm::standard`] with pattern databases; parent pruning only
    /// ([`MoveFsm::reversals`]) with Manhattan distance and linear conflict, whose node counts
    /// the course's table and Korf's 1985 figures give.
    #[must_use]
    pub fn default_fsm(&self) -> &'static MoveFsm {
        match self {
            Heuristic::Pdb { .. } => MoveFsm::standard(),
            Heuristic::Manhattan | Heuristic::LinearConflict => MoveFsm::reversals(),
        }
    }

    /// The value of this heuristic for `board` (which must fit the databases' size).
    #[must_use]
    pub fn evaluate(&self, board: &Board) -> u32 {
        match self {
            Heuristic::Manhattan => HeuristicKind::Manhattan.evaluate(board),
            Heuristic::LinearConflict => HeuristicKind::LinearConflict.evaluate(board),
            Heuristic::Pdb { database, reflect } => {
                let mut state = PdbHeuristic::new(database, board, *reflect);
                state.0.value(state.1, u32::MAX)
            }
        }
    }
}

impl From<HeuristicKind> for Heuristic<'static> {
    fn from(kind: HeuristicKind) -> Self {
        match kind {
            HeuristicKind::Manhattan => Heuristic::Manhattan,
            HeuristicKind::LinearConflict => Heuristic::LinearConflict,
        }
    }
}

/// The mutable search state: tiles and the heuristic's incremental state, pruning duplicates
/// with `P` (a [`MoveFsm`], or [`Reversals`] for parent pruning alone).
#[derive(Clone, Debug)]
pub struct TileSearch<H, P: Pruning = &'static MoveFsm> {
    tiles: [u8; SLOTS],
    goal: [u8; SLOTS],
    start: TileNode<P::State>,
    geometry: &'static Geometry,
    heuristic: H,
    fsm: P,
}

/// What the search carries per node by value: the blank's cell, the heuristic value and the
/// state of the duplicate-pruning machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileNode<S = u32> {
    blank: u32,
    h: u32,
    fsm: S,
}

impl<H: TileHeuristic> TileSearch<H> {
    /// A search state starting at `board`, with a heuristic state for it and its value `h`,
    /// pruning duplicates with [`MoveFsm::standard`].
    #[must_use]
    pub fn new(board: &Board, heuristic: (H, u32)) -> Self {
        TileSearch::with_fsm(board, heuristic, MoveFsm::standard())
    }

    /// [`TileSearch::new`] with another duplicate-pruning machine ([`MoveFsm::reversals`]:
    /// parent pruning only).
    #[must_use]
    pub fn with_fsm(board: &Board, heuristic: (H, u32), fsm: &'static MoveFsm) -> Self {
        TileSearch::with_pruning(board, heuristic, fsm)
    }
}

impl<H: TileHeuristic, P: Pruning> TileSearch<H, P> {
    /// [`TileSearch::new`] with any duplicate pruning: a machine, or [`Reversals`].
    #[must_use]
    pub fn with_pruning(board: &Board, (heuristic, h): (H, u32), fsm: P) -> Self {
        debug_assert!(board.cells() <= MAX_CELLS);
        let mut tiles = [0; SLOTS];
        tiles[..board.cells()].copy_from_slice(board.tiles());
        let mut goal = [0; SLOTS];
        goal[..board.cells()].copy_from_slice(Board::goal(board.width()).tiles());
        TileSearch {
            tiles,
            goal,
            start: TileNode {
                blank: board.blank() as u32,
                h,
                fsm: P::START,
            },
            geometry: Geometry::of(board.width()),
            heuristic,
            fsm,
        }
    }
}

impl<H, P: Pruning> TileSearch<H, P> {
    /// The board the search is at.
    #[must_use]
    pub fn board(&self) -> Board {
        Board::from_cells(self.geometry.width(), &self.tiles)
    }

    /// Moves the tile on `to` into the blank on `blank` and returns it.
    #[inline(always)]
    fn slide(&mut self, blank: usize, to: usize) -> u8 {
        let tile = self.tiles[to & (SLOTS - 1)];
        self.tiles[blank & (SLOTS - 1)] = tile;
        self.tiles[to & (SLOTS - 1)] = 0;
        tile
    }
}

impl<H: TileHeuristic, P: Pruning> IdaProblem for TileSearch<H, P> {
    type Move = Direction;
    /// The directions the blank can take that the duplicate-pruning machine allows, in the
    /// loop shape the heuristic prefers.
    type Moves = H::Moves;
    type Node = TileNode<P::State>;

    fn root(&mut self) -> TileNode<P::State> {
        self.start
    }

    #[inline(always)]
    fn heuristic(&mut self, node: TileNode<P::State>, budget: u32) -> u32 {
        self.heuristic.value(node.h, budget)
    }

    #[inline(always)]
    fn is_goal(&self, node: TileNode<P::State>) -> bool {
        node.h == 0 && node.blank == 0 && self.tiles == self.goal
    }

    #[inline(always)]
    fn moves(&self, node: TileNode<P::State>, last: Option<Direction>) -> Self::Moves {
        H::Moves::from_mask(
            self.geometry.move_mask(node.blank as usize) & self.fsm.allowed(node.fsm, last),
        )
    }

    #[inline(always)]
    fn lookahead(
        &mut self,
        node: TileNode<P::State>,
        dir: Direction,
        _budget: u32,
    ) -> Option<Prepared<TileNode<P::State>>> {
        let blank = node.blank as usize;
        let to = self.geometry.neighbour_unchecked(blank, dir);
        let tile = self.tiles[to & (SLOTS - 1)];
        let h = self
            .heuristic
            .peek(node.h, tile, to, blank, dir.is_vertical())?;
        Some(Prepared {
            node: TileNode {
                blank: to as u32,
                h,
                fsm: self.fsm.next(node.fsm, dir),
            },
            cost: 1,
            bound: h,
        })
    }

    #[inline(always)]
    fn apply_prepared(
        &mut self,
        node: TileNode<P::State>,
        dir: Direction,
        child: TileNode<P::State>,
    ) {
        let (blank, to) = (node.blank as usize, child.blank as usize);
        let tile = self.slide(blank, to);
        self.heuristic
            .commit(node.h, tile, to, blank, dir.is_vertical());
    }

    #[inline(always)]
    fn apply(&mut self, node: TileNode<P::State>, dir: Direction) -> (TileNode<P::State>, u32) {
        let blank = node.blank as usize;
        let to = self.geometry.neighbour_unchecked(blank, dir);
        let tile = self.slide(blank, to);
        let h = self
            .heuristic
            .moved(node.h, tile, to, blank, dir.is_vertical());
        (
            TileNode {
                blank: to as u32,
                h,
                fsm: self.fsm.next(node.fsm, dir),
            },
            1,
        )
    }

    #[inline(always)]
    fn undo(&mut self, node: TileNode<P::State>, dir: Direction, child: TileNode<P::State>) {
        let (blank, to) = (node.blank as usize, child.blank as usize);
        let tile = self.slide(to, blank);
        self.heuristic.unmoved(tile, to, blank, dir.is_vertical());
    }
}

/// States told apart for A*+IDA* ([`astar_ida_star`]): the tiles, five bits a cell.
impl<H: TileHeuristic, P: Pruning> IdaStates for TileSearch<H, P> {
    type Key = u128;

    fn key(&self) -> u128 {
        const _: () = assert!(MAX_CELLS * 5 <= 128);
        let cells = self.geometry.width() * self.geometry.width();
        self.tiles[..cells]
            .iter()
            .rev()
            .fold(0, |key, &tile| key << 5 | u128::from(tile))
    }

    fn restore(&mut self, key: &u128) -> TileNode<P::State> {
        let cells = self.geometry.width() * self.geometry.width();
        let mut blank = 0;
        for (cell, tile) in self.tiles[..cells].iter_mut().enumerate() {
            *tile = (key >> (5 * cell)) as u8 & 31;
            if *tile == 0 {
                blank = cell as u32;
            }
        }
        let h = self.heuristic.reset(&self.board());
        TileNode {
            blank,
            h,
            fsm: P::START,
        }
    }
}

/// Solves `board` optimally with IDA* and the chosen heuristic.
///
/// # Errors
/// [`BoardError::Unsolvable`] when the board's parity rules out the goal (no search is run);
/// [`BoardError::WrongSize`] when pattern databases of another puzzle size are given.
pub fn solve<'a>(
    board: &Board,
    heuristic: impl Into<Heuristic<'a>>,
    limits: Limits,
) -> Result<IdaReport<Direction>, BoardError> {
    solve_parallel(board, heuristic, limits, 1)
}

/// Like [`solve`], on `threads` threads with ply-search's [`parallel_ida_star`] (one thread:
/// the sequential IDA*), with the heuristic's [`Heuristic::default_fsm`]. The answer is optimal either way; with several threads the node
/// counts of the last iteration depend on timing.
///
/// # Errors
/// As [`solve`].
pub fn solve_parallel<'a>(
    board: &Board,
    heuristic: impl Into<Heuristic<'a>>,
    limits: Limits,
    threads: usize,
) -> Result<IdaReport<Direction>, BoardError> {
    let heuristic = heuristic.into();
    solve_with(board, heuristic, limits, threads, heuristic.default_fsm())
}

/// The most states [`Plan::top_states`] may ask A* to store: about 6 GB at some 60 bytes a
/// state, and within the search's 32-bit indices.
pub const MAX_TOP_STATES: usize = 100_000_000;

/// How a search prunes and stores: the duplicate-pruning machine, and how many states A*
/// stores over the top of the tree before IDA* searches below its open list
/// ([`astar_ida_star`], Bu and Korf 2019). A machine alone converts into a plan of IDA*
/// alone.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// The duplicate-pruning machine ([`MoveFsm::of_depth`]; [`MoveFsm::reversals`] prunes
    /// only the move back), below A*'s frontier when A* runs.
    pub fsm: &'static MoveFsm,
    /// The states A* stores first (0: IDA* alone), at most [`MAX_TOP_STATES`] (more are
    /// taken as that many).
    pub top_states: usize,
}

impl From<&'static MoveFsm> for Plan {
    fn from(fsm: &'static MoveFsm) -> Plan {
        Plan { fsm, top_states: 0 }
    }
}

/// Like [`solve_parallel`], searching as `plan` says: a duplicate-pruning machine
/// ([`MoveFsm::of_depth`]; [`MoveFsm::reversals`] prunes only the move back), or a [`Plan`]
/// that also runs A* over the top of the tree.
///
/// # Errors
/// As [`solve`].
pub fn solve_with<'a>(
    board: &Board,
    heuristic: impl Into<Heuristic<'a>>,
    limits: Limits,
    threads: usize,
    plan: impl Into<Plan>,
) -> Result<IdaReport<Direction>, BoardError> {
    fn search<H: TileHeuristic + Clone + Send + Sync, P: Pruning + Send + Sync>(
        mut search: TileSearch<H, P>,
        limits: Limits,
        threads: usize,
        top_states: usize,
    ) -> IdaReport<Direction> {
        if top_states > 0 {
            astar_ida_star(&search, limits, threads, top_states)
        } else if threads <= 1 {
            ida_star(&mut search, limits)
        } else {
            parallel_ida_star(&search, limits, threads)
        }
    }
    // The machine of depth 2 prunes exactly the reversals, which `Reversals` computes
    // without a table.
    fn run<H: TileHeuristic + Clone + Send + Sync>(
        board: &Board,
        heuristic: (H, u32),
        plan: Plan,
        limits: Limits,
        threads: usize,
    ) -> IdaReport<Direction> {
        let Plan { fsm, top_states } = plan;
        let top_states = top_states.min(MAX_TOP_STATES);
        if fsm.depth() == MIN_FSM_DEPTH {
            search(
                TileSearch::with_pruning(board, heuristic, Reversals),
                limits,
                threads,
                top_states,
            )
        } else {
            search(
                TileSearch::with_pruning(board, heuristic, fsm),
                limits,
                threads,
                top_states,
            )
        }
    }
    let (heuristic, fsm) = (heuristic.into(), plan.into());
    if let Heuristic::Pdb { database, .. } = heuristic {
        let width = database.partition().width();
        if width != board.width() {
            return Err(BoardError::WrongSize {
                board: board.width(),
                database: width,
            });
        }
    }
    if !board.is_solvable() {
        return Err(BoardError::Unsolvable);
    }
    Ok(match heuristic {
        Heuristic::Manhattan => run(board, Manhattan::new(board), fsm, limits, threads),
        Heuristic::LinearConflict => run(board, LinearConflict::new(board), fsm, limits, threads),
        Heuristic::Pdb { database, reflect } => run(
            board,
            PdbHeuristic::new(database, board, reflect),
            fsm,
            limits,
            threads,
        ),
    })
}

/// [`solve_with`], with the answer checked before anyone sees it ([`check_report`]): what
/// the `ply` command and the Python binding both call.
///
/// ```
/// use ply_npuzzle::{Board, Heuristic, MoveFsm, solve_checked};
/// use ply_search::Limits;
/// let board: Board = "1 2 5 3 4 0 6 7 8".parse()?;
/// let report = solve_checked(&board, Heuristic::Manhattan, &Limits::UNLIMITED, 1, MoveFsm::reversals())?;
/// assert_eq!(report.cost(), Some(3));
/// assert!(report.proven() && report.lower_bound == 3);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// As [`solve`], or [`SolveError::Wrong`] when the answer fails its check.
pub fn solve_checked<'a>(
    board: &Board,
    heuristic: impl Into<Heuristic<'a>>,
    limits: &Limits,
    threads: usize,
    plan: impl Into<Plan>,
) -> Result<IdaReport<Direction>, SolveError> {
    let report = solve_with(board, heuristic, limits.clone(), threads, plan)?;
    check_report(board, &report)?;
    Ok(report)
}

/// Checks a search's answer for the solvable `board`: a solution must take the board to the
/// goal in as many moves as its cost, and a solvable board must not be reported without one.
///
/// # Errors
/// What is wrong with the answer.
pub fn check_report(board: &Board, report: &IdaReport<Direction>) -> Result<(), WrongAnswer> {
    match &report.ending {
        Ending::Solved { cost, moves: path } => {
            check_solution(board, path).map_err(WrongAnswer)?;
            if path.len() != *cost as usize {
                return Err(WrongAnswer(format!(
                    "{} for cost {cost}",
                    crate::error::plural(path.len() as u64, "move")
                )));
            }
            Ok(())
        }
        Ending::Unsolvable => Err(WrongAnswer(
            "a solvable board reported without a solution".into(),
        )),
        Ending::Stopped => Ok(()),
    }
}

/// Checks that `moves` take `board` to the goal; returns a description of the failure.
///
/// # Errors
/// Which move leaves the board, or that the final board is not the goal.
pub fn check_solution(board: &Board, moves: &[Direction]) -> Result<(), String> {
    match board.replay(moves) {
        Err(i) => Err(format!(
            "move {} ({}) leaves the board",
            i + 1,
            moves[i].letter()
        )),
        Ok(end) if end.is_goal() => Ok(()),
        Ok(_) => Err(format!(
            "the board after {} is not the goal",
            crate::error::plural(moves.len() as u64, "move")
        )),
    }
}

// Beside the heuristic, not in the store: the store (`pdb`) must not reach back into the
// solver, which uses it.
impl Chosen {
    /// The heuristic to search with (databases maximised with their reflection when
    /// `reflect`).
    #[must_use]
    pub fn heuristic(&self, reflect: bool) -> Heuristic<'_> {
        match self {
            Chosen::Kind(kind) => Heuristic::from(*kind),
            Chosen::Database(database) => Heuristic::Pdb { database, reflect },
        }
    }
}
