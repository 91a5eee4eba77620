//! `ply_games._ply.mines`: Minesweeper maps, games in this process, and the solver.

use std::hash::{Hash, Hasher};
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

use numpy::{PyArray2, PyArrayMethods};
use ply_mines::protocol::Entry;
use ply_mines::{
    Click, Expander, Game as MinesGame, LocalClicker, MAX_SIZE, MIN_SIZE, MineMap, MinesError,
    SolverConfig, Strategy, check_score, check_size, default_mines, generate_until,
    largest_opening, score, solve_with, write_map,
};
use ply_search::StopFlag;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::args::{self, value_record};
use crate::common::{
    Float, Reduced, check_path, input_error, limits, missing_file, parse_error, reduce,
};
use crate::pool;
use crate::run::stoppable;

/// Fills the submodule.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Map>()?;
    m.add_class::<Game>()?;
    m.add_class::<SolveStats>()?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(contest_score, m)?)?;
    m.add("MIN_SIZE", MIN_SIZE)?;
    m.add("MAX_SIZE", MAX_SIZE)?;
    crate::classic::register(m)
}

/// A map file's error: `MissingFileError` when the file is not there, `ParseError` for a bad
/// header or length, `InputError` otherwise.
fn map_file_error(e: MinesError) -> PyErr {
    match &e {
        MinesError::Io { error, .. } if error.kind() == std::io::ErrorKind::NotFound => {
            missing_file(e)
        }
        MinesError::BadMap { .. } => parse_error(e),
        _ => input_error(e),
    }
}

/// A map: an N x N board (N a power of two from 16 to 65536) with K mines, as the contest's
/// map files hold it. Immutable: copies are the map itself; a pickle holds its bits. Maps are
/// equal when their mines are.
#[pyclass(module = "ply_games.mines", frozen, eq, hash)]
pub struct Map {
    /// The bits, in memory (never a mapped file, which faults when truncated meanwhile);
    /// games share them.
    map: MineMap,
}

/// Whether two maps hold the same mines.
fn same_mines(a: &MineMap, b: &MineMap) -> bool {
    (a.n(), a.k()) == (b.n(), b.k()) && a.bits() == b.bits()
}

impl PartialEq for Map {
    fn eq(&self, other: &Self) -> bool {
        same_mines(&self.map, &other.map)
    }
}

impl Eq for Map {}

impl Hash for Map {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (self.map.n(), self.map.k(), self.map.bits()).hash(state);
    }
}

impl Map {
    /// Another map on the same bits, for a game, which owns its map.
    fn for_game(&self) -> MineMap {
        self.map.share()
    }
}

value_methods! {
    Map, itself,
    /// Pickles as the side, the mine count and the bits.
    reduce("_from_bits", |this, py| (this.map.n(), this.map.k(), PyBytes::new(py, this.map.bits())));

    /// A map with mines exactly on `mines` (`(row, col)` pairs, each once: a pair listed twice
    /// is a `ValueError`, not one mine) on an `n` x `n` board.
    #[new]
    fn new(
        #[pyo3(from_py_with = args::n)] n: u64,
        #[pyo3(from_py_with = args::mine_cells)] mines: Vec<(u32, u32)>,
    ) -> PyResult<Self> {
        let n = check_size(n).map_err(input_error)?;
        let map = MineMap::from_mines(n, &mines).map_err(input_error)?;
        Ok(Map { map })
    }

    /// Reads a map file into memory (N*N/8 bytes: 512 MiB for N = 65536), checking its header
    /// and length; the file is not used afterwards.
    #[staticmethod]
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        check_path(&path, "path", true)?;
        let map = py.detach(|| MineMap::read(&path)).map_err(map_file_error)?;
        Ok(Map { map })
    }

    /// The map from its side, mine count and bits (what a pickle holds).
    #[staticmethod]
    fn _from_bits(n: u32, k: u64, bits: Vec<u8>) -> PyResult<Self> {
        let map = MineMap::from_bits(n, k, bits).map_err(input_error)?;
        Ok(Map { map })
    }

    /// Writes the map file atomically; an existing file is replaced only with `force`.
    #[pyo3(signature = (path, *, force=false))]
    fn save(&self, py: Python<'_>, path: PathBuf, force: bool) -> PyResult<()> {
        check_path(&path, "path", true)?;
        if !force && path.exists() {
            return Err(input_error(format!(
                "{} exists (pass force=True to overwrite)",
                path.display()
            )));
        }
        let map = &self.map;
        py.detach(|| write_map(&path, map.n(), map.k(), map.bits(), force))
            .map_err(input_error)
    }

    /// The board side N.
    #[getter]
    fn n(&self) -> u32 {
        self.map.n()
    }

    /// The mine count K.
    #[getter]
    fn mines(&self) -> u64 {
        self.map.k()
    }

    /// Whether (row, col) holds a mine.
    fn is_mine(
        &self,
        #[pyo3(from_py_with = args::r)] r: u32,
        #[pyo3(from_py_with = args::c)] c: u32,
    ) -> PyResult<bool> {
        self.map.check_cell(r, c).map_err(input_error)?;
        Ok(self.map.is_mine(i64::from(r), i64::from(c)))
    }

    /// The number of mines around (row, col).
    fn number(
        &self,
        #[pyo3(from_py_with = args::r)] r: u32,
        #[pyo3(from_py_with = args::c)] c: u32,
    ) -> PyResult<u8> {
        self.map.check_cell(r, c).map_err(input_error)?;
        Ok(self.map.number(i64::from(r), i64::from(c)))
    }

    /// The mines as an N x N NumPy `bool` array (N*N bytes: for small boards).
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<bool>>> {
        let n = self.map.n() as usize;
        let cells: Vec<bool> = (0..n * n)
            .map(|i| self.map.bits()[i / 8] >> (i % 8) & 1 == 1)
            .collect();
        numpy::PyArray1::from_vec(py, cells).reshape([n, n])
    }

    /// The largest opening (zero region with its border) as `(cells, (row, col))`, or `None`
    /// when the map has no zero.
    fn largest_opening(&self, py: Python<'_>) -> PyResult<Option<(u64, (u32, u32))>> {
        let map = &self.map;
        pool::detach(py, || largest_opening(map))
    }
}

/// A random `n` x `n` map with exactly `mines` mines (default N*N/8), uniform over all
/// placements and deterministic for `seed` (`ply mines gen --size N --mines K --seed S`).
/// The GIL is released; Ctrl-C stops the generation (a 65536 map takes seconds).
#[pyfunction]
#[pyo3(signature = (n, mines=None, *, seed=0))]
fn generate(
    py: Python<'_>,
    #[pyo3(from_py_with = args::n)] n: u64,
    #[pyo3(from_py_with = args::opt::mines)] mines: Option<u64>,
    #[pyo3(from_py_with = args::seed)] seed: u64,
) -> PyResult<Map> {
    let n = check_size(n).map_err(input_error)?;
    let k = mines.unwrap_or_else(|| default_mines(n));
    let stop = StopFlag::new();
    let map = stoppable(py, &stop, || {
        let bits = generate_until(n, k, seed, &|_, _| {}, &stop)?;
        MineMap::from_bits(n, k, bits)
    })?
    .map_err(input_error)?;
    Ok(Map { map })
}

/// The most workers a solve starts ([`ply_mines::MAX_PLAYER_THREADS`]).
const MAX_WORKERS: usize = ply_mines::MAX_PLAYER_THREADS;

/// Argument `threads` of `solve`: 1 to [`MAX_WORKERS`].
fn workers_arg(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    args::thread_count(obj, MAX_WORKERS)
}

/// Argument `a`, the contest's constant (0 or 8 there).
fn a_arg(obj: &Bound<'_, PyAny>) -> PyResult<i64> {
    let refuse = |shown| input_error(format!("a {shown} is out of range"));
    args::ranged(obj, "a", |a| i64::try_from(a).ok(), refuse)
}

/// A game on a map in this process, with the contest's click semantics: a zero opens its
/// whole opening, a number opens alone, a mine is opened and reported. A copy or a pickle
/// holds the map and the open cells. Games are equal when their maps and open cells are
/// (unhashable: a game changes).
#[pyclass(module = "ply_games.mines", frozen, eq)]
pub struct Game {
    game: MinesGame,
    expander: Mutex<Expander>,
    /// The map played on (for copies).
    map: Py<Map>,
}

impl PartialEq for Game {
    fn eq(&self, other: &Self) -> bool {
        same_mines(self.game.map(), other.game.map())
            && self.game.open_bits() == other.game.open_bits()
    }
}

impl Game {
    /// A fresh game on `map`.
    fn on(map: &Bound<'_, Map>) -> Self {
        Game {
            game: MinesGame::new(map.get().for_game()),
            expander: Mutex::default(),
            map: map.clone().unbind(),
        }
    }
}

#[pymethods]
impl Game {
    /// A fresh game on `map`, nothing opened.
    #[new]
    fn new(map: &Bound<'_, Map>) -> Self {
        Game::on(map)
    }

    /// The game on `map` with the cells of `open` open (what a pickle holds).
    #[staticmethod]
    fn _with_open(map: &Bound<'_, Map>, open: &[u8]) -> PyResult<Self> {
        let game = Game::on(map);
        game.game.open_from_bits(open).map_err(input_error)?;
        Ok(game)
    }

    /// Pickles as the map and the open cells.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let this = slf.get();
        let open = PyBytes::new(slf.py(), &this.game.open_bits());
        reduce(
            slf.get_type().getattr("_with_open")?,
            (this.map.bind(slf.py()), open),
        )
    }

    /// The map played on.
    #[getter]
    fn map(&self, py: Python<'_>) -> Py<Map> {
        self.map.clone_ref(py)
    }

    /// Clicks (row, col): `None` when it is a mine, else the cells it opened as `(row, col,
    /// number)` (empty when the cell was open already).
    fn click(
        &self,
        #[pyo3(from_py_with = args::r)] r: u32,
        #[pyo3(from_py_with = args::c)] c: u32,
    ) -> PyResult<Option<Vec<(u16, u16, u8)>>> {
        self.game.map().check_cell(r, c).map_err(input_error)?;
        let mut out: Vec<Entry> = Vec::new();
        let mut expander = self.expander.lock().unwrap_or_else(PoisonError::into_inner);
        let clicked = self
            .game
            .click(
                r as u16,
                c as u16,
                true,
                false,
                &mut expander,
                &mut out,
                usize::MAX,
            )
            .map_err(|_| input_error("the opening is too large"))?;
        Ok(match clicked {
            Click::Mine | Click::Skipped { mine: true } => None,
            Click::Skipped { mine: false } => Some(Vec::new()),
            Click::Opened(_) => Some(out.iter().map(|&[r, c, v]| (r, c, v as u8)).collect()),
        })
    }

    /// Whether (row, col) is open.
    fn is_open(
        &self,
        #[pyo3(from_py_with = args::r)] r: u32,
        #[pyo3(from_py_with = args::c)] c: u32,
    ) -> bool {
        let n = self.game.map().n();
        r < n && c < n && self.game.is_open(r as u16, c as u16)
    }

    /// Distinct `(safe, mines)` cells opened so far.
    fn counts(&self, py: Python<'_>) -> PyResult<(u64, u64)> {
        let counts = pool::detach(py, || self.game.counts())?;
        Ok((counts.safe, counts.mines))
    }

    /// What a player sees, an N x N NumPy `int8` array: -1 for a closed cell, 0-8 for an
    /// open number, 9 for an open mine.
    fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        let n = self.game.map().n() as usize;
        numpy::PyArray1::from_vec(py, self.game.view()).reshape([n, n])
    }
}

value_record! {
    "ply_games.mines", fields;
    /// What the solver did, with `stopped` and `seconds` in the words every `ply_games` result
    /// uses.
    pub struct SolveStats {
        /// Distinct safe cells opened.
        safe: u64,
        /// Distinct mines opened.
        mines: u64,
        /// Round trips to the game.
        clicks: u64,
        /// Guesses made (counted for a solve that ran to the end; 0 for one its budget stopped).
        guesses: u64,
        /// Mines clicked.
        mines_hit: u64,
        /// Seconds the solve took.
        seconds: Float,
    }
    later {
        /// Which budget ran out (`time limit reached`, `node limit reached`), or `None` when
        /// the solve opened every cell it could.
        stopped: Option<String> = None,
    }
}

/// Plays a map with ply's solver (logic first, least-risk guesses; `reference`: the
/// contest's reference approach) on `threads` workers, clicking on a game in this process.
/// `time_limit` (seconds) and `max_nodes` (clicks, the solver's unit of work) bound the solve:
/// one that runs out stops clicking and reports the cells opened so far, with `stopped` saying
/// which budget ran out. The GIL is released; Ctrl-C stops the solve.
#[pyfunction]
#[pyo3(signature = (map, *, threads=1, time_limit=None, max_nodes=None, reference=false, seed=1))]
fn solve(
    py: Python<'_>,
    map: &Map,
    #[pyo3(from_py_with = workers_arg)] threads: usize,
    #[pyo3(from_py_with = args::opt::time_limit)] time_limit: Option<f64>,
    #[pyo3(from_py_with = args::opt::max_nodes)] max_nodes: Option<u64>,
    reference: bool,
    #[pyo3(from_py_with = args::seed)] seed: u64,
) -> PyResult<SolveStats> {
    let game = MinesGame::new(map.for_game());
    let config = SolverConfig {
        threads,
        strategy: if reference {
            Strategy::Reference
        } else {
            Strategy::Ply
        },
        seed,
        ..SolverConfig::default()
    };
    let stop = StopFlag::new();
    let limits = limits(time_limit, max_nodes, &stop)?;
    let (n, k) = (map.map.n(), map.map.k());
    let (stats, counts) = stoppable(py, &stop, || {
        let clickers = (0..threads).map(|_| LocalClicker::new(&game)).collect();
        (solve_with(n, k, clickers, &config, &limits), game.counts())
    })?;
    let stats = stats.map_err(input_error)?;
    // A solve cut short reports the clicks it was charged and every mine opened by then.
    let (guesses, mines_hit) = match stats.stopped {
        Some(_) => (0, counts.mines),
        None => (stats.guesses, stats.mines_hit),
    };
    Ok(SolveStats {
        safe: counts.safe,
        mines: counts.mines,
        clicks: stats.clicks,
        guesses,
        mines_hit,
        seconds: Float(stats.elapsed.as_secs_f64()),
        stopped: stats.stopped.map(|why| why.to_string()),
    })
}

/// The contest's score in [0, 100] of `safe` safe cells and `mines` mines opened on an `n` x
/// `n` board with `k` mines: `(safe - a * (mines - 0.0002 k)) / ((n*n - k) * 0.9998) * 100`.
/// `ValueError` for counts that cannot happen (`k` > n*n, `safe` > n*n - k, `mines` > k, a
/// negative `a`, or `n` not a board size).
#[pyfunction]
#[pyo3(signature = (n, k, safe, mines, a=8))]
fn contest_score(
    #[pyo3(from_py_with = args::n)] n: u64,
    #[pyo3(from_py_with = args::k)] k: u64,
    #[pyo3(from_py_with = args::safe)] safe: u64,
    #[pyo3(from_py_with = args::mines)] mines: u64,
    #[pyo3(from_py_with = a_arg)] a: i64,
) -> PyResult<f64> {
    // The score of counts that cannot happen would mean nothing.
    check_score(n, k, safe, mines, a).map_err(input_error)?;
    Ok(score(n, k, safe, mines, a))
}
