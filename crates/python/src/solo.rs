//! `ply_games._ply.ewn_solo`: single-player EWN with a known dice sequence.

use ply_ewn::solo::{DICE, GenOptions, Instance, SoloGame, check, generate, parse_solution};
use ply_search::StopFlag;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::args;
use crate::common::{
    Float, claimed_cost, illegal_move, input_error, internal_error, limits, parse_error, refused,
    rejected, words,
};
use crate::run::{check_stop, stoppable};

/// Fills the submodule.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyInstance>()?;
    m.add_class::<Solution>()?;
    m.add_class::<PyVerdict>()?;
    m.add_class::<State>()?;
    m.add_function(wrap_pyfunction!(solve_py, m)?)?;
    m.add_function(wrap_pyfunction!(check_py, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(parse_solution_py, m)?)?;
    m.add_function(wrap_pyfunction!(generate_py, m)?)?;
    m.add("DICE", DICE)?;
    Ok(())
}

/// An instance: the goal piece (1-6), the cells of pieces 1-6 (`10 * row + col` on the
/// 10 x 10 board, the hole at 33) and 30 dice (1-6); the goal piece must reach cell 0.
/// Immutable: copies are the instance itself; it pickles as its text.
#[pyclass(
    name = "Instance",
    module = "ply_games.ewn.solo",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyInstance(Instance);

value_methods! {
    PyInstance, itself,
    /// Pickles as its text (`Instance.parse(str(instance))`).
    reduce("parse", |this| (this.0.to_string(),));

    /// An instance from its parts, checked as the file format is.
    #[new]
    #[pyo3(signature = (goal, cells, dice, known_optimum=None))]
    fn new(
        #[pyo3(from_py_with = args::goal)] goal: u8,
        #[pyo3(from_py_with = cells_arg)] cells: Vec<u8>,
        #[pyo3(from_py_with = dice_arg)] dice: Vec<u8>,
        #[pyo3(from_py_with = args::opt::known_optimum)] known_optimum: Option<u32>,
    ) -> PyResult<Self> {
        Instance::from_parts(goal, &cells, &dice, known_optimum)
            .map(PyInstance)
            .map_err(input_error)
    }

    /// Parses the course's format: three lines (goal piece, six cells, 30 dice), and an
    /// optional fourth (the known optimum, or `none`). `ValueError` names the bad line.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<Self> {
        Instance::parse(text).map(PyInstance).map_err(parse_error)
    }

    /// Parses several instances separated by blank lines (what `generate` and
    /// `ply ewn solo gen` write).
    #[staticmethod]
    fn parse_many(text: &str) -> PyResult<Vec<Self>> {
        Ok(Instance::parse_many(text)
            .map_err(parse_error)?
            .into_iter()
            .map(PyInstance)
            .collect())
    }

    /// The piece that must reach cell 0, 1-6.
    #[getter]
    fn goal(&self) -> u8 {
        self.0.goal
    }

    /// The start cells of pieces 1-6.
    #[getter]
    fn cells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.cells)
    }

    /// The 30 dice; move `i` uses `dice[i]`.
    #[getter]
    fn dice<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.dice)
    }

    /// The optimum the file states (a 4th line), if any; the solver ignores it.
    #[getter]
    fn known_optimum(&self) -> Option<u32> {
        self.0.known_optimum
    }

    /// Whether the file states that there is no solution (a 4th line `none`).
    #[getter]
    fn known_unsolvable(&self) -> bool {
        self.0.known_unsolvable
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }
}

/// Argument `cells`: the cells of pieces 1-6.
fn cells_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    args::elements(obj, "cells", "a sequence of cells")
}

/// Argument `dice`: 30 dice.
fn dice_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    args::elements(obj, "dice", "a sequence of dice")
}

/// Argument `moves`: `(from, to)` pairs.
fn moves_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(u8, u8)>> {
    args::pairs(obj, "moves", "a sequence of (from, to) pairs")
}

/// The result of `solve`, in the words every `ply_games` solution uses: `cost`, `moves`,
/// `proven`, `lower_bound`, `initial_bound`, the work done (`generated`, `expanded`) and
/// `seconds`.
#[pyclass(
    name = "Solution",
    module = "ply_games.ewn.solo",
    frozen,
    get_all,
    eq,
    hash
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Solution {
    /// The moves as `(from, to)` cell pairs, or `None` (no solution, or the search gave up).
    moves: Option<Vec<(u8, u8)>>,
    /// The number of moves, or `None`.
    cost: Option<u32>,
    /// Whether the answer is proven: an optimal solution, or a proof that none exists.
    proven: bool,
    /// Whether the goal piece is proven unable to reach cell 0 within the 30 dice.
    unsolvable: bool,
    /// Which budget ran out (`time limit reached`, ...), or `None`.
    stopped: Option<String>,
    /// The lower bound of the start position.
    initial_bound: u32,
    /// Every IDA* bound tried.
    thresholds: Vec<u32>,
    /// Nodes generated.
    generated: u64,
    /// Nodes of the region relaxation generated to evaluate them.
    relaxed_generated: u64,
    /// Nodes expanded.
    expanded: u64,
    /// Search time in seconds.
    seconds: Float,
}

value_methods! {
    Solution,
    fields(
        moves: Option<Vec<(u8, u8)>>,
        cost: Option<u32>,
        proven: bool,
        unsolvable: bool,
        stopped: Option<String>,
        initial_bound: u32,
        thresholds: Vec<u32>,
        generated: u64,
        relaxed_generated: u64,
        expanded: u64,
        seconds: Float,
    );
}

/// Solves an instance to the fewest moves (IDA* over the dice table and the region
/// relaxation). `time_limit` (seconds) and `max_nodes` bound the search; the GIL is released
/// and Ctrl-C stops it. The search runs on one thread (its node counts are the CLI's), so
/// `threads` is 1: another count is refused (`InputError`) rather than ignored.
#[pyfunction]
#[pyo3(name = "solve", signature = (instance, *, threads=1, time_limit=None, max_nodes=None))]
fn solve_py(
    py: Python<'_>,
    instance: &PyInstance,
    #[pyo3(from_py_with = args::threads)] threads: usize,
    #[pyo3(from_py_with = args::opt::time_limit)] time_limit: Option<f64>,
    #[pyo3(from_py_with = args::opt::max_nodes)] max_nodes: Option<u64>,
) -> PyResult<Solution> {
    if threads != 1 {
        return Err(input_error(format!(
            "threads {threads}: the EWN solo solver runs on one thread (give threads=1)"
        )));
    }
    let stop = StopFlag::new();
    let limits = limits(time_limit, max_nodes, &stop)?;
    // ply-ewn's checked solve: the answer is replayed through the checker before anyone
    // sees it.
    let report = stoppable(py, &stop, || {
        ply_ewn::solo::solve_checked(&instance.0, &limits)
    })?
    .map_err(internal_error)?;
    let words = words(&report);
    Ok(Solution {
        moves: report
            .moves()
            .map(|moves| moves.iter().map(|m| (m.from, m.to)).collect()),
        cost: words.cost,
        proven: words.proven,
        unsolvable: words.unsolvable,
        stopped: words.stopped,
        initial_bound: words.initial_bound,
        thresholds: report.extra.thresholds,
        generated: words.generated,
        relaxed_generated: report.extra.relaxed_generated,
        expanded: words.expanded,
        seconds: words.seconds,
    })
}

/// What the checker concluded about a solution.
#[pyclass(
    name = "Verdict",
    module = "ply_games.ewn.solo",
    frozen,
    get_all,
    eq,
    hash
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyVerdict {
    /// Whether every move is legal and the goal piece ends on cell 0.
    legal: bool,
    /// Moves beyond the optimum (0: optimal) when legal and the optimum is known.
    over: Option<u32>,
    /// The 0-based index of the illegal move, if one is.
    illegal_at: Option<usize>,
    /// The verdict as `ply ewn solo check` prints it (`legal and optimal: 9 moves`, ...).
    message: String,
}

value_methods! {
    PyVerdict,
    args(legal: bool, over: Option<u32>, illegal_at: Option<usize>, message: String);
}

/// Replays `moves` (`(from, to)` pairs) on `instance` and grades them against `optimum`;
/// when `optimum` is `None` it is solved for, as `ply ewn solo check` does (the instance's
/// stated optimum is not trusted).
#[pyfunction]
#[pyo3(name = "check", signature = (instance, moves, *, optimum=None))]
fn check_py(
    py: Python<'_>,
    instance: &PyInstance,
    #[pyo3(from_py_with = moves_arg)] moves: Vec<(u8, u8)>,
    #[pyo3(from_py_with = args::opt::optimum)] optimum: Option<u32>,
) -> PyResult<PyVerdict> {
    let optimum = match optimum {
        Some(o) => Some(o),
        None => solve_py(py, instance, 1, None, None)?.cost,
    };
    let verdict = check(&instance.0, &moves, optimum);
    Ok(PyVerdict {
        legal: verdict.is_legal(),
        over: verdict.over(),
        illegal_at: verdict.illegal_at(),
        message: verdict.to_string(),
    })
}

/// Checks that `moves` (`(from, to)` pairs) solve `instance` (the goal piece on cell 0) and
/// returns their cost (the number of moves); with `cost`, it must be that. `RejectedError` (a
/// `ValueError`) says why the moves are refused (a cell that is not one, an illegal move, the goal
/// piece short of cell 0, another cost). Unlike `check`, optimality is not graded.
#[pyfunction]
#[pyo3(signature = (instance, moves, cost=None))]
fn verify(
    py: Python<'_>,
    instance: &PyInstance,
    moves: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = args::opt::cost)] cost: Option<u32>,
) -> PyResult<u32> {
    let moves = moves_arg(moves).map_err(|e| refused(py, e))?;
    let verdict = check(&instance.0, &moves, None);
    if !verdict.is_legal() {
        return Err(rejected(verdict));
    }
    claimed_cost(moves.len() as u32, cost)
}

/// Reads a solution in the course's output format (seconds, move count, from/to pairs) as
/// `(from, to)` pairs; `ValueError` names the bad line.
#[pyfunction]
#[pyo3(name = "parse_solution")]
fn parse_solution_py(text: &str) -> PyResult<Vec<(u8, u8)>> {
    parse_solution(text).map_err(parse_error)
}

/// Random instances whose optimum lies in `min_moves..=max_moves` (or, with `unsolvable`,
/// proven to have none), each with its optimum; deterministic for `seed`.
#[pyfunction]
#[pyo3(name = "generate", signature = (seed, count=1, *, min_moves=0, max_moves=30, unsolvable=false, max_draws=100_000))]
fn generate_py(
    py: Python<'_>,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::count)] count: usize,
    #[pyo3(from_py_with = args::min_moves)] min_moves: u32,
    #[pyo3(from_py_with = args::max_moves)] max_moves: u32,
    unsolvable: bool,
    #[pyo3(from_py_with = args::max_draws)] max_draws: u64,
) -> PyResult<Vec<PyInstance>> {
    let options = GenOptions {
        count,
        moves: (min_moves, max_moves),
        unsolvable,
        max_draws,
    };
    let stop = StopFlag::new();
    let generated = stoppable(py, &stop, || {
        generate(seed, options, |_| true, |_| check_stop(&stop))
    })?;
    Ok(generated
        .map_err(input_error)?
        .into_iter()
        .map(PyInstance)
        .collect())
}

/// A game in progress: the position after some moves of an instance, the next die and the
/// legal moves (for environments and for stepping through a solution). A copy is
/// independent; a pickle holds the instance and the moves played. States are equal when they
/// are the same moves from the same instance (unhashable: a state changes).
#[pyclass(module = "ply_games.ewn.solo", eq)]
#[derive(Clone, PartialEq)]
pub struct State(SoloGame);

value_methods! {
    State, clones,
    /// Pickles as the instance and the moves played (`State.from_moves`).
    reduce("from_moves", |this| (this.instance(), this.moves()));

    /// The start of `instance`.
    #[new]
    fn new(instance: &PyInstance) -> Self {
        State(SoloGame::new(instance.0.clone()))
    }

    /// The state after `moves` (`(from, to)` pairs) from the start of `instance`;
    /// `ValueError` names an illegal move.
    #[staticmethod]
    fn from_moves(
        instance: &PyInstance,
        #[pyo3(from_py_with = moves_arg)] moves: Vec<(u8, u8)>,
    ) -> PyResult<Self> {
        SoloGame::replay(instance.0.clone(), &moves)
            .map(State)
            .map_err(illegal_move)
    }

    /// The moves played so far, as `(from, to)` pairs.
    #[getter]
    fn moves(&self) -> Vec<(u8, u8)> {
        self.0.moves().to_vec()
    }

    /// The instance played.
    #[getter]
    fn instance(&self) -> PyInstance {
        PyInstance(self.0.instance().clone())
    }

    /// The cells of pieces 1-6, `None` for a removed piece.
    #[getter]
    fn cells(&self) -> Vec<Option<u8>> {
        (1..=6).map(|p| self.0.position().cell(p)).collect()
    }

    /// The legal moves as `(from, to)` pairs (none once the game is over).
    fn legal_moves(&self) -> Vec<(u8, u8)> {
        self.0.legal_moves().map(|m| (m.from, m.to)).collect()
    }

    /// Plays the move from cell `source` to cell `target`; `ValueError` says why it is
    /// illegal.
    fn play(
        &mut self,
        #[pyo3(from_py_with = args::source)] source: u8,
        #[pyo3(from_py_with = args::target)] target: u8,
    ) -> PyResult<()> {
        self.0.play(source, target).map_err(illegal_move)?;
        Ok(())
    }

    /// Whether the goal piece stands on cell 0.
    fn is_solved(&self) -> bool {
        self.0.is_solved()
    }

    /// Whether the game is over: solved, the goal piece removed, or the dice used up.
    fn is_over(&self) -> bool {
        self.0.is_over()
    }
}
