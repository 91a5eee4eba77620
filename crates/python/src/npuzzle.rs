//! `ply_games._ply.npuzzle`: sliding-tile boards, the optimal solver and pattern databases.

use std::ffi::CString;
use std::path::PathBuf;
use std::sync::{Arc, LazyLock, Mutex, MutexGuard, PoisonError};

use numpy::{PyArray2, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use ply_npuzzle::pdb::{
    Choice, ChoiceError, Chosen, Databases, Partition, PatternDatabase, Published, database_dir,
};
use ply_npuzzle::{
    Board, Heuristic, HeuristicKind, Instance, MAX_FSM_DEPTH, MAX_TOP_STATES, MIN_FSM_DEPTH,
    MoveFsm, PdbError, Plan, SolveError, moves_to_string, parse_instances, parse_moves,
    solve_checked,
};
use ply_search::StopFlag;
use ply_search::messages::excerpt;
use pyo3::exceptions::{PyTypeError, PyUserWarning};
use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use crate::args::{self, Bad, value_record};
use crate::common::{
    Float, Reduced, check_path, claimed_cost, database_error, illegal_move, input_error,
    internal_error, limits, missing_file, parse_error, reduce, rejected, words,
};
use crate::pool;
use crate::run::{check_stop, stoppable};

/// Fills the submodule.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyBoard>()?;
    m.add_class::<PyInstance>()?;
    m.add_class::<Solution>()?;
    m.add_class::<PyDatabase>()?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(parse_instances_py, m)?)?;
    m.add_function(wrap_pyfunction!(korf100, m)?)?;
    m.add_function(wrap_pyfunction!(korf50_24, m)?)?;
    m.add_function(wrap_pyfunction!(pdb_directory, m)?)?;
    m.add("HEURISTICS", Choice::names())?;
    m.add("PARTITIONS", Published::ALL.map(Published::name).to_vec())?;
    Ok(())
}

/// A W x W sliding-tile board (W = 3, 4 or 5), tiles row-major with 0 for the blank; the goal
/// is `0 1 2 ... W*W-1`, blank top-left. Immutable: copies are the board itself; it pickles
/// as its tiles.
#[pyclass(
    name = "Board",
    module = "ply_games.npuzzle",
    frozen,
    eq,
    hash,
    weakref,
    from_py_object
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyBoard(Board);

/// The board an argument stands for: a `Board`, a string of tile numbers (checked for
/// solvability, as instance files are), a sequence of tile numbers, or a NumPy array of them
/// (flat, or W x W as `Board.to_numpy` gives it).
fn board_arg(arg: &Bound<'_, PyAny>) -> PyResult<Board> {
    if let Ok(board) = arg.cast::<PyBoard>() {
        return Ok(board.get().0);
    }
    if let Ok(text) = arg.cast::<PyString>() {
        return text.to_cow()?.parse().map_err(parse_error);
    }
    let mut items = arg.clone();
    if let Ok(array) = arg.cast::<PyUntypedArray>() {
        match array.shape() {
            [_] => {}
            [rows, cols] if rows == cols => items = arg.call_method0("ravel")?,
            [rows, cols] => {
                return Err(input_error(format!(
                    "tiles: a {rows} x {cols} array is not a square board"
                )));
            }
            shape => {
                return Err(input_error(format!(
                    "tiles: a {}-dimensional array is not a board",
                    shape.len()
                )));
            }
        }
    }
    let items: Vec<Bound<'_, PyAny>> = match items.try_iter() {
        Ok(iter) => iter.collect::<PyResult<_>>()?,
        Err(_) => {
            return Err(PyTypeError::new_err(format!(
                "expected a Board, a string of tile numbers or a sequence of ints, not {}",
                args::type_name(arg)
            )));
        }
    };
    let top = items.len().saturating_sub(1);
    let tiles = items
        .iter()
        .map(|item| {
            args::natural::<u64>(item).map_err(|bad| match bad {
                Bad::NotInt(_) => {
                    PyTypeError::new_err(format!("tile {} is not an int", args::shown(item)))
                }
                Bad::Negative(t) | Bad::TooLarge(t) => {
                    input_error(format!("tile {t} is out of range 0..={top}"))
                }
            })
        })
        .collect::<PyResult<Vec<u64>>>()?;
    Board::from_tiles(&tiles).map_err(input_error)
}

value_methods! {
    PyBoard, itself,
    /// Pickles as its tiles.
    reduce("", |this, py| (PyTuple::new(py, this.0.tiles())?,));

    /// A board from its tiles: a sequence of 9, 16 or 25 numbers (any permutation), or a
    /// string of them (which must also be solvable, as in an instance file).
    #[new]
    fn new(tiles: &Bound<'_, PyAny>) -> PyResult<Self> {
        board_arg(tiles).map(PyBoard)
    }

    /// The goal board of width 3, 4 or 5.
    #[staticmethod]
    fn goal(#[pyo3(from_py_with = args::width)] width: i128) -> PyResult<Self> {
        match usize::try_from(width) {
            Ok(width @ 3..=5) => Ok(PyBoard(Board::goal(width))),
            _ => Err(input_error(format!("width {width} is not 3, 4 or 5"))),
        }
    }

    /// The width W.
    #[getter]
    fn width(&self) -> usize {
        self.0.width()
    }

    /// The tiles, row-major, 0 for the blank.
    #[getter]
    fn tiles<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.0.tiles())
    }

    /// The blank's cell (row-major index).
    #[getter]
    fn blank(&self) -> usize {
        self.0.blank()
    }

    /// Whether this is the goal.
    fn is_goal(&self) -> bool {
        self.0.is_goal()
    }

    /// Whether the goal can be reached (the permutation's parity).
    fn is_solvable(&self) -> bool {
        self.0.is_solvable()
    }

    /// The board after the blank moves in `direction` (`U`, `L`, `R` or `D`), or `None` when
    /// the blank would leave the board.
    fn moved(&self, direction: &str) -> PyResult<Option<Self>> {
        Ok(self.0.moved(direction.parse().map_err(input_error)?).map(PyBoard))
    }

    /// The board after the moves of a string of letters; `ValueError` names the first move
    /// that leaves the board.
    fn replay(&self, moves: &str) -> PyResult<Self> {
        let dirs = parse_moves(moves).map_err(input_error)?;
        self.0.replay(&dirs).map(PyBoard).map_err(|i| {
            illegal_move(format!(
                "move {} ({}) leaves the board",
                i + 1,
                dirs[i].letter()
            ))
        })
    }

    /// The board reflected about the main diagonal (tiles renumbered to match).
    fn reflected(&self) -> Self {
        PyBoard(self.0.reflected())
    }

    /// The value of a table-free heuristic, `manhattan` or `linear-conflict`.
    fn heuristic(&self, name: &str) -> PyResult<u32> {
        let kind: HeuristicKind = name.parse().map_err(input_error)?;
        Ok(kind.evaluate(&self.0))
    }

    /// The tiles as a W x W NumPy array of `uint8`.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let w = self.0.width();
        numpy::PyArray1::from_slice(py, self.0.tiles()).reshape([w, w])
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }
}

value_record! {
    "ply_games.npuzzle" as "Instance", args;
    /// One instance of an instance file: the board, its line and, in an instance set, its id
    /// and known optimal cost (`known_optimum`).
    pub struct PyInstance {
        /// The start board (always solvable).
        board: PyBoard,
        /// The 1-based line in its file.
        line: usize,
        /// The set's identifier, if the line had one.
        id: Option<String>,
        /// The known optimal cost (moves), if the line had one.
        known_optimum: Option<u32>,
    }
}

impl From<Instance> for PyInstance {
    fn from(i: Instance) -> Self {
        PyInstance {
            board: PyBoard(i.board),
            line: i.line,
            id: i.id,
            known_optimum: i.optimal,
        }
    }
}

/// Reads an instance file's text: one board per line (tile numbers), or tab-separated
/// `id, optimal, ..., tiles` lines; blank lines and `#` comments are skipped.
#[pyfunction]
#[pyo3(name = "parse_instances")]
fn parse_instances_py(text: &str) -> PyResult<Vec<PyInstance>> {
    Ok(instances(parse_instances(text).map_err(parse_error)?))
}

/// Korf's 100 random 15-puzzle instances (1985), with their optimal lengths.
#[pyfunction]
fn korf100() -> Vec<PyInstance> {
    instances(ply_npuzzle::instances::bundled::korf100())
}

/// Korf and Felner's 50 random 24-puzzle instances (2002), with their optimal lengths.
#[pyfunction]
fn korf50_24() -> Vec<PyInstance> {
    instances(ply_npuzzle::instances::bundled::korf50_24())
}

/// The instances as Python's.
fn instances(list: Vec<Instance>) -> Vec<PyInstance> {
    list.into_iter().map(PyInstance::from).collect()
}

value_record! {
    "ply_games.npuzzle", fields;
    /// The result of `solve`, in the words every `ply_games` solution uses: `cost`, `moves`,
    /// `proven`, `lower_bound`, `initial_bound`, the work done (`generated`, `expanded`) and
    /// `seconds`.
    pub struct Solution {
        /// The blank's moves as letters `U L R D`, or `None` when the search gave up.
        moves: Option<String>,
        /// The number of moves (optimal), or `None` when the search gave up.
        cost: Option<u32>,
        /// Whether `moves` is a proven optimal solution (false only when a budget ran out).
        proven: bool,
        /// The heuristic's value of the start board: the first lower bound.
        initial_bound: u32,
        /// Every IDA* threshold tried; the last one is the cost when solved.
        thresholds: Vec<u32>,
        /// Nodes generated (Korf's count: children created).
        generated: u64,
        /// Nodes expanded.
        expanded: u64,
        /// Search time in seconds.
        seconds: Float,
        /// The heuristic used, as `ply npuzzle` names it (`pdb 7-8 + reflection`, ...).
        heuristic: String,
        /// Which budget ran out (`time limit reached`, ...), or `None`.
        stopped: Option<String>,
        /// A proven lower bound on the optimal cost (the cost itself when solved).
        lower_bound: u32,
    }
}

/// The pattern database directory: `$PLY_PDB_DIR`, else `$XDG_CACHE_HOME/ply` (an absolute
/// one), else `~/.cache/ply`: ply-npuzzle's `database_dir`, as `ply npuzzle` finds it.
/// `ValueError` when none is set or the path is not a directory.
#[pyfunction]
pub(crate) fn pdb_directory() -> PyResult<PathBuf> {
    database_dir(None)
        .map_err(input_error)?
        .ok_or_else(no_directory)
}

/// The error of a database wanted where there is no directory.
fn no_directory() -> PyErr {
    input_error(
        "no database directory: set PLY_PDB_DIR, XDG_CACHE_HOME or HOME, or pass directory=",
    )
}

/// A published partition by name (`7-8`) or heuristic name (`pdb78`).
fn partition(name: &str) -> PyResult<Partition> {
    Ok(name.parse::<Published>().map_err(input_error)?.partition())
}

/// The databases loaded in this process, kept while their files are unchanged.
fn store() -> MutexGuard<'static, Databases> {
    static STORE: LazyLock<Mutex<Databases>> = LazyLock::new(Mutex::default);
    STORE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The file of `partition`'s databases: `path`, or their file in `directory` (default:
/// [`pdb_directory`]); `ValueError` for a path no file can have.
fn database_file(
    path: Option<PathBuf>,
    directory: Option<PathBuf>,
    partition: &Partition,
) -> PyResult<PathBuf> {
    if let Some(path) = path {
        check_path(&path, "path", true)?;
        return Ok(path);
    }
    let directory = directory.map_or_else(pdb_directory, Ok)?;
    check_path(&directory, "directory", false)?;
    Ok(directory.join(partition.file_name()))
}

/// A missing or damaged database as the exception a caller can act on.
fn pdb_error(e: PdbError, partition: &Partition) -> PyErr {
    let (verb, error): (&str, fn(String) -> PyErr) = match e {
        PdbError::Missing { .. } => ("build", missing_file),
        PdbError::Corrupt { .. } => ("rebuild", database_error),
        other => return database_error(other),
    };
    let name = partition.name();
    error(format!(
        "{e}; {verb} it with PatternDatabase.build('{name}').save() or `ply npuzzle pdb build \
         --partition {name}`"
    ))
}

/// Additive pattern databases of a published partition (5-5-5, 6-6-3 or 7-8 for the
/// 15-puzzle, 6-6-6-6 for the 24-puzzle), built in memory or mapped from a file checked in
/// full when loaded. Immutable: copies are the database itself; a pickle refers to its file
/// (the one it was loaded from or last saved to), since the tables take up to gigabytes.
#[pyclass(name = "PatternDatabase", module = "ply_games.npuzzle", frozen)]
pub struct PyDatabase {
    db: Arc<PatternDatabase>,
    /// The file it was loaded from or last saved to, if any.
    file: Mutex<Option<PathBuf>>,
}

value_methods! {
    PyDatabase, itself;

    /// Loads the databases of `partition` from `path`, or from their file in `directory`
    /// (default: `pdb_directory()`). A file already loaded by this process and unchanged
    /// since is not read again. `FileNotFoundError` when there is none, `ValueError` when
    /// the file is damaged or holds another partition.
    #[staticmethod]
    #[pyo3(signature = (partition, *, directory=None, path=None))]
    fn load(
        py: Python<'_>,
        partition: &str,
        directory: Option<PathBuf>,
        path: Option<PathBuf>,
    ) -> PyResult<Self> {
        let partition = self::partition(partition)?;
        let path = database_file(path, directory, &partition)?;
        let db = pool::detach(py, || store().load(&path, &partition))?
            .map_err(|e| pdb_error(e, &partition))?;
        Ok(PyDatabase {
            db,
            file: Mutex::new(Some(std::path::absolute(&path).unwrap_or(path))),
        })
    }

    /// Pickles as its partition and file; `TypeError` for one built in memory and never
    /// saved.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let this = slf.get();
        let file = this
            .file
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let Some(path) = file else {
            return Err(PyTypeError::new_err(
                "a PatternDatabase built in memory cannot be pickled: save() it first (a \
                 pickle refers to its file)",
            ));
        };
        let load = slf.get_type().getattr("_load_file")?;
        reduce(load, (this.db.partition().name(), path))
    }

    /// Loads the databases of `partition` from `path` (what a pickle holds).
    #[staticmethod]
    fn _load_file(py: Python<'_>, partition: &str, path: PathBuf) -> PyResult<Self> {
        Self::load(py, partition, None, Some(path))
    }

    /// Builds the databases of `partition` in memory with every core (7-8: about 3 minutes
    /// and 2.5 GB while building; 6-6-6-6: about 2 minutes). Ctrl-C stops the build.
    #[staticmethod]
    fn build(py: Python<'_>, partition: &str) -> PyResult<Self> {
        let partition = self::partition(partition)?;
        let stop = StopFlag::new();
        // The library's build takes no stop flag; its progress callback, called between two
        // depths of the breadth-first search, ends a stopped build.
        let db = stoppable(py, &stop, || {
            PatternDatabase::build(&partition, &|_, _, _| check_stop(&stop))
        })?
        .map_err(input_error)?;
        Ok(PyDatabase {
            db: Arc::new(db),
            file: Mutex::new(None),
        })
    }

    /// Writes the databases to `path`, or to their file in `directory` (default:
    /// `pdb_directory()`), atomically (a temporary file renamed); returns the path.
    #[pyo3(signature = (path=None, *, directory=None))]
    fn save(
        &self,
        py: Python<'_>,
        path: Option<PathBuf>,
        directory: Option<PathBuf>,
    ) -> PyResult<PathBuf> {
        let path = database_file(path, directory, self.db.partition())?;
        pool::detach(py, || self.db.save(&path))?.map_err(database_error)?;
        let file = std::path::absolute(&path).unwrap_or_else(|_| path.clone());
        *self.file.lock().unwrap_or_else(PoisonError::into_inner) = Some(file);
        Ok(path)
    }

    /// The partition's name (`7-8`).
    #[getter]
    fn partition(&self) -> String {
        self.db.partition().name()
    }

    /// The width of the boards it is for.
    #[getter]
    fn width(&self) -> usize {
        self.db.partition().width()
    }

    /// The file name it is saved under in a database directory.
    #[getter]
    fn file_name(&self) -> String {
        self.db.partition().file_name()
    }

    /// Whether the tables were loaded from a file (rather than built in memory).
    #[getter]
    fn is_loaded(&self) -> bool {
        self.db.is_loaded()
    }

    /// The heuristic value of `board` (maximised with its reflection when `reflect`).
    #[pyo3(signature = (board, *, reflect=true))]
    fn value(&self, board: &Bound<'_, PyAny>, reflect: bool) -> PyResult<u32> {
        let board = board_arg(board)?;
        self.db.check_width(board.width()).map_err(input_error)?;
        Ok(Heuristic::Pdb {
            database: &self.db,
            reflect,
        }
        .evaluate(&board))
    }
}

/// Argument `fsm_depth`: `None`, or the duplicate-pruning machine of that depth.
fn fsm_depth_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<&'static MoveFsm>> {
    let check = |depth| i64::try_from(depth).ok().and_then(MoveFsm::try_of_depth);
    let refuse = |shown| {
        input_error(format!(
            "fsm_depth must be between {MIN_FSM_DEPTH} and {MAX_FSM_DEPTH}, not {shown}"
        ))
    };
    args::optional(obj, |obj| args::ranged(obj, "fsm_depth", check, refuse))
}

/// Argument `astar_states`: at most ply-npuzzle's [`MAX_TOP_STATES`].
fn astar_states_arg(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    let check = |n| usize::try_from(n).ok().filter(|&n| n <= MAX_TOP_STATES);
    let refuse = |shown| {
        input_error(format!(
            "astar_states must be between 0 and {MAX_TOP_STATES}, not {shown}"
        ))
    };
    args::ranged(obj, "astar_states", check, refuse)
}

/// The heuristic an argument names, for boards of `width`.
fn choose(
    py: Python<'_>,
    arg: Option<&Bound<'_, PyAny>>,
    width: usize,
    directory: Option<PathBuf>,
) -> PyResult<Chosen> {
    let name = match arg {
        None => "strongest".to_string(),
        Some(arg) => {
            if let Ok(db) = arg.cast::<PyDatabase>() {
                let db = &db.get().db;
                db.check_width(width).map_err(input_error)?;
                return Ok(Chosen::Database(Arc::clone(db)));
            }
            arg.extract::<String>().map_err(|_| {
                PyTypeError::new_err("heuristic must be a name or a PatternDatabase")
            })?
        }
    };
    let choice: Choice = name.parse().map_err(|_| match partition(&name) {
        Err(unknown) if name.starts_with("pdb") => unknown,
        _ => input_error(format!(
            "unknown heuristic '{}' (expected {}, strongest or a PatternDatabase)",
            excerpt(&name),
            Choice::names().join(", ")
        )),
    })?;
    // `solve` checked an explicit directory's path.
    let dir = database_dir(directory.as_deref()).map_err(input_error)?;
    // ply-npuzzle's choice, as `ply npuzzle`'s: the default is the strongest sound database
    // present, else linear conflict (also when there is no directory at all).
    let choosing = pool::detach(py, || store().choose(choice, width, dir.as_deref()))?.map_err(
        |e| match e {
            ChoiceError::Width { published, width } => {
                let w = published.width();
                input_error(format!(
                    "heuristic {name} is for {w}x{w} boards, not {width}x{width}"
                ))
            }
            ChoiceError::NoDirectory(_) => no_directory(),
            ChoiceError::Load {
                published, error, ..
            } => pdb_error(error, &published.partition()),
        },
    )?;
    for e in choosing.unusable {
        // A warning's text is a C string: any NUL escaped.
        let text = format!("{e}; not used").replace('\0', "\\0");
        let message = CString::new(text).unwrap_or_default();
        PyErr::warn(py, &py.get_type::<PyUserWarning>(), &message, 1)?;
    }
    Ok(choosing.chosen)
}

/// Solves a board optimally with IDA*. `heuristic` is `manhattan`, `linear-conflict`, a
/// database name (`pdb78`, loaded from `directory`, default `pdb_directory()`), a loaded
/// `PatternDatabase`, or `None`: the strongest database present for the board's size, else
/// linear conflict (as `ply npuzzle solve`). `threads` > 1 runs parallel IDA* (still optimal;
/// node counts then vary). `time_limit` (seconds) and `max_nodes` bound the search: a search
/// that runs out returns a `Solution` with `proven` false, `moves` None and the proven
/// `lower_bound`. `fsm_depth` (2-13) is the longest move string the duplicate-pruning
/// machine checks (2: parent pruning only); by default 12 with pattern databases and 2 with
/// Manhattan distance and linear conflict (as `ply npuzzle solve`). `astar_states` > 0 runs
/// A*+IDA*: A* stores that many states first, then IDA* searches below its open list
/// (`--astar-states`). The GIL is released; Ctrl-C stops the search (`KeyboardInterrupt`).
#[pyfunction]
#[pyo3(signature = (board, heuristic=None, *, threads=1, time_limit=None, max_nodes=None, directory=None, reflect=true, fsm_depth=None, astar_states=0))]
#[allow(clippy::too_many_arguments)]
fn solve(
    py: Python<'_>,
    board: &Bound<'_, PyAny>,
    heuristic: Option<&Bound<'_, PyAny>>,
    #[pyo3(from_py_with = args::threads)] threads: usize,
    #[pyo3(from_py_with = args::opt::time_limit)] time_limit: Option<f64>,
    #[pyo3(from_py_with = args::opt::max_nodes)] max_nodes: Option<u64>,
    directory: Option<PathBuf>,
    reflect: bool,
    #[pyo3(from_py_with = fsm_depth_arg)] fsm_depth: Option<&'static MoveFsm>,
    #[pyo3(from_py_with = astar_states_arg)] astar_states: usize,
) -> PyResult<Solution> {
    let board = board_arg(board)?;
    if let Some(directory) = &directory {
        check_path(directory, "directory", false)?;
    }
    let stop = StopFlag::new();
    let limits = limits(time_limit, max_nodes, &stop)?;
    let chosen = choose(py, heuristic, board.width(), directory)?;
    let heuristic = chosen.heuristic(reflect);
    let plan = Plan {
        fsm: fsm_depth.unwrap_or_else(|| heuristic.default_fsm()),
        top_states: astar_states,
    };
    // ply-npuzzle's checked solve: the answer is checked before anyone sees it.
    let report = stoppable(py, &stop, || {
        solve_checked(&board, heuristic, &limits, threads, plan)
    })?
    .map_err(|e| match e {
        SolveError::Board(e) => input_error(e),
        SolveError::Wrong(e) => internal_error(e),
    })?;
    let words = words(&report);
    Ok(Solution {
        moves: report.moves().map(moves_to_string),
        cost: words.cost,
        proven: words.proven,
        initial_bound: words.initial_bound,
        thresholds: report.extra.thresholds,
        generated: words.generated,
        expanded: words.expanded,
        seconds: words.seconds,
        heuristic: heuristic.name(),
        stopped: words.stopped,
        lower_bound: words.lower_bound,
    })
}

/// Checks that `moves` (letters `U L R D`) take `board` to the goal and returns their cost
/// (the number of moves); with `cost`, it must be that. `RejectedError` (a `ValueError`) says
/// why the moves are refused: a letter that is no move, a move off the board, a board left
/// unsolved, another cost.
#[pyfunction]
#[pyo3(signature = (board, moves, cost=None))]
fn verify(
    board: &Bound<'_, PyAny>,
    moves: &str,
    #[pyo3(from_py_with = args::opt::cost)] cost: Option<u32>,
) -> PyResult<u32> {
    let board = board_arg(board)?;
    let dirs = parse_moves(moves).map_err(rejected)?;
    ply_npuzzle::check_solution(&board, &dirs).map_err(rejected)?;
    claimed_cost(dirs.len() as u32, cost)
}
