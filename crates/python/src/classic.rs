//! Classic Minesweeper in `ply_games._ply.mines` ([`ply_mines::classic`]): games on boards of
//! any size under both first-click rules, exact mine probabilities, the classic player and
//! its seeded win-rate runs.
//!
//! Every entry point takes the board as `ply mines classic` does: a level by name, or
//! `width`, `height` and `mines`; the first-click `rule` (`safe` or `zero`); and `start`, the
//! player's first click as `(row, col)`.

use std::str::FromStr;
use std::time::Instant;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use ply_mines::classic::{
    ClassicGame, EXPLODED, FirstClick, HIDDEN, Level, MAX_GAMES, MAX_SIDE, Reveal, Rules, Status,
    Strategy, Tally, game_seed, play_run, play_traced,
};
use ply_search::StopFlag;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args;
use crate::common::{Float, Reduced, illegal_move, input_error, reduce};
use crate::pool;
use crate::run::stoppable;

/// Fills the classic part of the `mines` submodule.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyClassicGame>()?;
    m.add_class::<ClassicRecord>()?;
    m.add_class::<ClassicTally>()?;
    m.add_function(wrap_pyfunction!(probabilities, m)?)?;
    m.add_function(wrap_pyfunction!(play, m)?)?;
    m.add_function(wrap_pyfunction!(win_rate, m)?)?;
    m.add_function(wrap_pyfunction!(game_seed_of, m)?)?;
    let levels = PyDict::new(m.py());
    for level in Level::ALL {
        levels.set_item(level.name(), level.size())?;
    }
    m.add("LEVELS", levels)?;
    m.add("HIDDEN", HIDDEN)?;
    m.add("EXPLODED", EXPLODED)?;
    m.add("MAX_SIDE", MAX_SIDE)?;
    Ok(())
}

/// Argument `games` of a run: 1 to [`MAX_GAMES`].
fn games_arg(obj: &Bound<'_, PyAny>) -> PyResult<u64> {
    let check = |n| {
        u64::try_from(n)
            .ok()
            .filter(|g| (1..=MAX_GAMES).contains(g))
    };
    let refuse = |shown| input_error(format!("games {shown} is not in 1..={MAX_GAMES}"));
    args::ranged(obj, "games", check, refuse)
}

/// Argument `start`: `None`, or a `(row, col)` pair.
fn start_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<(u16, u16)>> {
    if obj.is_none() {
        return Ok(None);
    }
    let what = "a (row, col) pair or None";
    let items = args::sequence(obj, "start", what)?;
    let [row, col] = &items[..] else {
        return Err(input_error(format!(
            "start {} is not a (row, col) pair",
            args::shown(obj)
        )));
    };
    let one = |x: &Bound<'_, PyAny>| {
        args::natural::<u16>(x).map_err(|bad| args::element_error("start", x, bad, u16::MAX))
    };
    Ok(Some((one(row)?, one(col)?)))
}

/// Argument `rule`: `safe` or `zero`.
fn rule_arg(obj: &Bound<'_, PyAny>) -> PyResult<FirstClick> {
    let text: String = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!("rule must be a str, not {}", args::type_name(obj)))
    })?;
    FirstClick::from_str(&text).map_err(input_error)
}

/// Argument `level`: `None`, or a level's name.
fn level_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<Level>> {
    if obj.is_none() {
        return Ok(None);
    }
    let text: String = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!(
            "level must be a str or None, not {}",
            args::type_name(obj)
        ))
    })?;
    Level::from_str(&text).map(Some).map_err(input_error)
}

/// What a click did, as `Game.click` reports it: `None` for a mine, else the cells it opened
/// as `(row, col, number)` (found in the views before and after; empty when nothing opened).
type Clicked = Option<Vec<(u16, u16, u8)>>;

/// A classic game: the mines are placed at the first click, from the seed, so that the
/// first-click rule holds wherever it goes. A copy is independent; a pickle holds the rules,
/// the seed (or the mines of a game built from them) and the clicks. Games are equal when
/// those are (unhashable: a game changes).
#[pyclass(name = "ClassicGame", module = "ply_games.mines", eq)]
#[derive(Clone)]
pub struct PyClassicGame {
    game: ClassicGame,
    /// The mines of a game built on them (`from_mines`); `None` for a seeded game.
    layout: Option<Vec<(u32, u32)>>,
    /// The clicks that changed the game, in order.
    clicks: Vec<(u16, u16)>,
}

impl PartialEq for PyClassicGame {
    fn eq(&self, other: &Self) -> bool {
        (self.rules(), self.game.seed(), &self.layout, &self.clicks)
            == (
                other.rules(),
                other.game.seed(),
                &other.layout,
                &other.clicks,
            )
    }
}

impl PyClassicGame {
    fn rules(&self) -> &Rules {
        self.game.rules()
    }

    /// Clicks `(row, col)`, recording the click when it changed the game.
    fn click_at(&mut self, row: u64, col: u64) -> PyResult<Clicked> {
        let rules = *self.rules();
        let (w, h) = (u64::from(rules.width), u64::from(rules.height));
        if row >= h || col >= w {
            return Err(input_error(format!(
                "({row}, {col}) is off the {w} x {h} board (rows and columns count from 0)"
            )));
        }
        let (row, col) = (row as u16, col as u16);
        let (reveal, opened) = self.game.click_opening(row, col).map_err(illegal_move)?;
        if reveal != Reveal::Nothing {
            self.clicks.push((row, col));
        }
        Ok((reveal != Reveal::Mine).then_some(opened))
    }

    /// The game on the mines `layout` (`(row, col)` pairs), from ply-mines' `on_layout`.
    fn on_layout(
        (width, height): (u16, u16),
        layout: Vec<(u32, u32)>,
        rule: FirstClick,
        start: Option<(u16, u16)>,
    ) -> PyResult<Self> {
        let game =
            ClassicGame::on_layout(width, height, &layout, rule, start).map_err(input_error)?;
        Ok(PyClassicGame {
            game,
            layout: Some(layout),
            clicks: Vec::new(),
        })
    }
}

/// A status as Python names it.
fn status_name(status: Status) -> &'static str {
    match status {
        Status::Playing => "playing",
        Status::Won => "won",
        Status::Lost => "lost",
    }
}

/// A view, `width` cells a row, as a `(height, width)` NumPy `uint8` array.
fn view_array<'py>(
    py: Python<'py>,
    view: &[u8],
    rules: &Rules,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    PyArray1::from_slice(py, view).reshape([usize::from(rules.height), usize::from(rules.width)])
}

/// A probability array from per-cell values.
fn probability_array<'py>(
    py: Python<'py>,
    mine: Vec<f64>,
    rules: &Rules,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    PyArray1::from_vec(py, mine).reshape([usize::from(rules.height), usize::from(rules.width)])
}

/// The fields a [`PyClassicGame`] pickles as: width, height, mines, rule, start, seed,
/// layout, clicks.
type GameFields = (
    u16,
    u16,
    u32,
    String,
    (u16, u16),
    u64,
    Option<Vec<(u32, u32)>>,
    Vec<(u16, u16)>,
);

value_methods! {
    PyClassicGame, clones;

    /// A game of a level (`beginner`, `intermediate`, `expert`; expert by default) or of a
    /// board of `width` x `height` with `mines` mines, under the first-click `rule` (`safe`:
    /// the first click is no mine; `zero`: nor are its neighbours), its mines drawn from
    /// `seed` at the first click. `start` is the cell the player's first click is meant for
    /// (default: a corner under `safe`, a cell off the edges under `zero`, as `ply mines
    /// classic` chooses it); any cell may be clicked first.
    #[new]
    #[pyo3(signature = (level=None, *, width=None, height=None, mines=None, rule=FirstClick::Safe, start=None, seed=0))]
    #[pyo3(
        text_signature = "(level=None, *, width=None, height=None, mines=None, rule='safe', start=None, seed=0)"
    )]
    #[allow(clippy::too_many_arguments)]
    fn new(
        #[pyo3(from_py_with = level_arg)] level: Option<Level>,
        #[pyo3(from_py_with = args::opt::side_width)] width: Option<u16>,
        #[pyo3(from_py_with = args::opt::side_height)] height: Option<u16>,
        #[pyo3(from_py_with = args::opt::mine_count)] mines: Option<u32>,
        #[pyo3(from_py_with = rule_arg)] rule: FirstClick,
        #[pyo3(from_py_with = start_arg)] start: Option<(u16, u16)>,
        #[pyo3(from_py_with = args::seed)] seed: u64,
    ) -> PyResult<Self> {
        let rules =
            Rules::from_options(level, width, height, mines, rule, start).map_err(input_error)?;
        Ok(PyClassicGame {
            game: ClassicGame::new(rules, seed),
            layout: None,
            clicks: Vec::new(),
        })
    }

    /// A game of `width` x `height` with mines exactly on `mines` (`(row, col)` pairs, each
    /// once: a pair listed twice is a `ValueError`, not one mine): the first-click rule is then
    /// the caller's business (`rule` and `start` are recorded).
    #[staticmethod]
    #[pyo3(signature = (width, height, mines, *, rule=FirstClick::Safe, start=None))]
    #[pyo3(text_signature = "(width, height, mines, *, rule='safe', start=None)")]
    fn from_mines(
        #[pyo3(from_py_with = args::side_width)] width: u16,
        #[pyo3(from_py_with = args::side_height)] height: u16,
        #[pyo3(from_py_with = args::mine_cells)] mines: Vec<(u32, u32)>,
        #[pyo3(from_py_with = rule_arg)] rule: FirstClick,
        #[pyo3(from_py_with = start_arg)] start: Option<(u16, u16)>,
    ) -> PyResult<Self> {
        PyClassicGame::on_layout((width, height), mines, rule, start)
    }

    /// The game from its pickled fields.
    #[staticmethod]
    fn _restore(fields: GameFields) -> PyResult<Self> {
        let (width, height, mines, rule, start, seed, layout, clicks) = fields;
        let rules = Rules {
            width,
            height,
            mines,
            first_click: FirstClick::from_str(&rule).map_err(input_error)?,
            start,
        };
        let mut game = match layout {
            Some(layout) => {
                PyClassicGame::on_layout((width, height), layout, rules.first_click, Some(start))?
            }
            None => {
                rules.check().map_err(input_error)?;
                PyClassicGame {
                    game: ClassicGame::new(rules, seed),
                    layout: None,
                    clicks: Vec::new(),
                }
            }
        };
        for (row, col) in clicks {
            game.click_at(u64::from(row), u64::from(col))?;
        }
        Ok(game)
    }

    /// Pickles as the rules, the seed or the mines, and the clicks.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let this = slf.borrow();
        let r = this.rules();
        let fields: GameFields = (
            r.width,
            r.height,
            r.mines,
            r.first_click.name().to_string(),
            r.start,
            this.game.seed(),
            this.layout.clone(),
            this.clicks.clone(),
        );
        reduce(slf.get_type().getattr("_restore")?, (fields,))
    }

    /// Clicks (row, col): `None` when it is a mine (the game is lost), else the cells it
    /// opened as `(row, col, number)` (a zero opens its whole region; empty when the cell was
    /// open already or the game is over).
    fn click(
        &mut self,
        #[pyo3(from_py_with = args::row)] row: u64,
        #[pyo3(from_py_with = args::col)] col: u64,
    ) -> PyResult<Clicked> {
        self.click_at(row, col)
    }

    /// What the player sees, a (height, width) NumPy `uint8` array: 0-8 for an open cell's
    /// number, 9 (`HIDDEN`) for a hidden cell, 10 (`EXPLODED`) for the mine that was opened.
    fn view<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        view_array(py, self.game.view(), self.rules())
    }

    /// The exact probability that each cell is a mine, knowing what the view shows and the
    /// number of mines: a (height, width) NumPy `float64` array, 0 for open cells (see
    /// `probabilities`).
    fn probabilities<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let rules = *self.rules();
        let view = self.game.view().to_vec();
        if view.contains(&EXPLODED) {
            return Err(input_error("the game is lost: a mine was opened"));
        }
        let odds = pool::detach(py, || ply_mines::classic::probabilities(&rules, &view))?;
        probability_array(py, odds.mine, &rules)
    }

    /// Whether (row, col) is a mine: `None` before the first click placed the mines.
    fn is_mine(
        &self,
        #[pyo3(from_py_with = args::row)] row: u64,
        #[pyo3(from_py_with = args::col)] col: u64,
    ) -> PyResult<Option<bool>> {
        let r = self.rules();
        if row >= u64::from(r.height) || col >= u64::from(r.width) {
            return Err(input_error(format!(
                "({row}, {col}) is off the {} x {} board (rows and columns count from 0)",
                r.width, r.height
            )));
        }
        Ok(self.game.is_mine(row as u16, col as u16))
    }

    /// The clicks that changed the game, in order, as `(row, col)`.
    fn history(&self) -> Vec<(u16, u16)> {
        self.clicks.clone()
    }

    /// `playing`, `won` (every safe cell is open) or `lost` (a mine was opened).
    #[getter]
    fn status(&self) -> &'static str {
        status_name(self.game.status())
    }

    /// Safe cells opened so far.
    #[getter]
    fn opened(&self) -> u32 {
        self.game.opened()
    }

    /// Columns.
    #[getter]
    fn width(&self) -> u16 {
        self.rules().width
    }

    /// Rows.
    #[getter]
    fn height(&self) -> u16 {
        self.rules().height
    }

    /// Mines on the board.
    #[getter]
    fn mines(&self) -> u32 {
        self.rules().mines
    }

    /// The first-click rule: `safe` or `zero`.
    #[getter]
    fn rule(&self) -> &'static str {
        self.rules().first_click.name()
    }

    /// The cell `(row, col)` the player's first click is meant for.
    #[getter]
    fn start(&self) -> (u16, u16) {
        self.rules().start
    }

    /// The level these rules are (`beginner`, `intermediate`, `expert`), or `None`.
    #[getter]
    fn level(&self) -> Option<&'static str> {
        self.rules().known_level().map(Level::name)
    }

    /// The seed the mines are drawn from (0 for a game built on given mines).
    #[getter]
    fn seed(&self) -> u64 {
        self.game.seed()
    }
}

/// Argument `view` of `probabilities`: a 2-D array of cells 0-9, as a byte per cell and the
/// board's rows and columns.
fn view_arg(obj: &Bound<'_, PyAny>) -> PyResult<(Vec<u8>, usize, usize)> {
    let py = obj.py();
    let array = py.import("numpy")?.call_method1("asarray", (obj,))?;
    let kind: String = array.getattr("dtype")?.getattr("kind")?.extract()?;
    if !matches!(kind.as_str(), "i" | "u") {
        return Err(PyTypeError::new_err(format!(
            "view must be a 2-D array of ints, not of {}",
            array.getattr("dtype")?.str()?
        )));
    }
    let array = array.call_method1("astype", ("int64",))?;
    let array = array
        .cast_into::<PyArray2<i64>>()
        .map_err(|_| input_error("view must be 2-D: (height, width)"))?;
    let (height, width) = (array.shape()[0], array.shape()[1]);
    let side = usize::from(MAX_SIDE);
    if !(1..=side).contains(&height) || !(1..=side).contains(&width) {
        return Err(input_error(format!(
            "a view of {width} x {height}: each side must be 1 to {MAX_SIDE}"
        )));
    }
    let values = array.to_vec().map_err(input_error)?;
    let cells = values
        .iter()
        .map(|&v| match v {
            0..=9 => Ok(v as u8),
            10 => Err(input_error(
                "view holds an exploded mine (10): the game is over",
            )),
            _ => Err(input_error(format!(
                "view: {v} is not a cell (0-8 a number, 9 hidden)"
            ))),
        })
        .collect::<PyResult<Vec<u8>>>()?;
    Ok((cells, height, width))
}

/// The exact probability that each hidden cell of `view` (a (height, width) array as
/// `ClassicGame.view` gives it: 0-8 open, 9 hidden) is a mine, with `mines` mines on the
/// board: a NumPy `float64` array of the view's shape, 0 for open cells. Every frontier
/// component is enumerated and weighed with the ways to place the other mines on the cells no
/// number sees; a component too large to enumerate (over a million search nodes) gives its
/// cells the density of the unseen cells instead. A view no placement of the mines fits
/// raises InputError.
#[pyfunction]
fn probabilities<'py>(
    py: Python<'py>,
    #[pyo3(from_py_with = view_arg)] view: (Vec<u8>, usize, usize),
    #[pyo3(from_py_with = args::mine_count)] mines: u32,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let (cells, height, width) = view;
    if mines as usize > cells.len() {
        return Err(input_error(format!(
            "{mines} mines do not fit a {width} x {height} board"
        )));
    }
    let rules = Rules {
        width: width as u16,
        height: height as u16,
        mines,
        first_click: FirstClick::Safe,
        start: (0, 0),
    };
    let odds = pool::detach(py, || {
        ply_mines::classic::checked_probabilities(&rules, &cells)
    })?
    .map_err(input_error)?;
    probability_array(py, odds.mine, &rules)
}

/// How the classic player's game went.
#[pyclass(module = "ply_games.mines", frozen, get_all, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ClassicRecord {
    /// The run's seed.
    seed: u64,
    /// The game's number in the run.
    game: u64,
    /// Whether every safe cell was opened.
    won: bool,
    /// Safe cells opened.
    opened: u32,
    /// Clicks made (the first included).
    clicks: u32,
    /// Clicks that were guesses (neither the first nor certain).
    guesses: u32,
    /// The product of the guesses' chances to be safe.
    guessed_safety: Float,
    /// Each click as `(row, col, certain, mine_probability)`.
    moves: Vec<(u16, u16, bool, Float)>,
}

value_methods! {
    ClassicRecord,
    fields(
        seed: u64,
        game: u64,
        won: bool,
        opened: u32,
        clicks: u32,
        guesses: u32,
        guessed_safety: Float,
        moves: Vec<(u16, u16, bool, Float)>,
    );
}

/// Plays game `game` of the run seeded `seed` (the mines of
/// `ClassicGame(seed=game_seed(seed, game))`) with ply's classic player to its end, as
/// `ply mines classic solve` does: certain moves first, then the guess least likely to be a
/// mine. The board is a level or `width`, `height` and `mines`; `rule` and `start` as for
/// `ClassicGame` (the player's first click goes to `start`). The GIL is released.
#[pyfunction]
#[pyo3(signature = (level=None, *, width=None, height=None, mines=None, rule=FirstClick::Safe, start=None, seed=1, game=0))]
#[pyo3(
    text_signature = "(level=None, *, width=None, height=None, mines=None, rule='safe', start=None, seed=1, game=0)"
)]
#[allow(clippy::too_many_arguments)]
fn play(
    py: Python<'_>,
    #[pyo3(from_py_with = level_arg)] level: Option<Level>,
    #[pyo3(from_py_with = args::opt::side_width)] width: Option<u16>,
    #[pyo3(from_py_with = args::opt::side_height)] height: Option<u16>,
    #[pyo3(from_py_with = args::opt::mine_count)] mines: Option<u32>,
    #[pyo3(from_py_with = rule_arg)] rule: FirstClick,
    #[pyo3(from_py_with = start_arg)] start: Option<(u16, u16)>,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::game)] game: u64,
) -> PyResult<ClassicRecord> {
    let rules =
        Rules::from_options(level, width, height, mines, rule, start).map_err(input_error)?;
    let (record, moves) = pool::detach(py, || {
        let mut moves = Vec::new();
        let record = play_traced(
            &rules,
            &Strategy::default(),
            game_seed(seed, game),
            |mv, _| {
                moves.push((mv.row, mv.col, mv.certain, Float(mv.mine_probability)));
            },
        );
        (record, moves)
    })?;
    Ok(ClassicRecord {
        seed,
        game,
        won: record.won,
        opened: record.opened,
        clicks: record.clicks,
        guesses: record.guesses,
        guessed_safety: Float(record.guessed_safety),
        moves,
    })
}

/// What a run of games came to.
#[pyclass(module = "ply_games.mines", frozen, get_all, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct ClassicTally {
    /// Games played.
    games: u64,
    /// Games won.
    wins: u64,
    /// Guesses made (neither the first click nor certain), over all games.
    guesses: u64,
    /// Seconds the run took.
    seconds: Float,
}

impl ClassicTally {
    fn tally(&self) -> Tally {
        Tally {
            games: self.games,
            wins: self.wins,
            guesses: self.guesses,
        }
    }
}

value_methods! {
    ClassicTally,
    args(games: u64, wins: u64, guesses: u64, seconds: Float);

    /// The win rate, wins / games.
    #[getter]
    fn rate(&self) -> f64 {
        self.tally().rate()
    }

    /// The 95 % Wilson interval of the win rate, `(low, high)`.
    #[getter]
    fn interval(&self) -> (f64, f64) {
        self.tally().interval()
    }
}

/// The classic player's win rate over `games` games of the run seeded `seed`, games
/// `first_game` to `first_game + games - 1` (game i is `play(..., seed=seed, game=i)`), as
/// `ply mines classic bench` measures it: the same games give the same tally however they are
/// split or threaded. The games run in parallel on `threads` threads (default: one per core),
/// with the GIL released; Ctrl-C stops the run.
#[pyfunction]
#[pyo3(signature = (level=None, *, width=None, height=None, mines=None, rule=FirstClick::Safe, start=None, games=1000, seed=1, threads=None, first_game=0))]
#[pyo3(
    text_signature = "(level=None, *, width=None, height=None, mines=None, rule='safe', start=None, games=1000, seed=1, threads=None, first_game=0)"
)]
#[allow(clippy::too_many_arguments)]
fn win_rate(
    py: Python<'_>,
    #[pyo3(from_py_with = level_arg)] level: Option<Level>,
    #[pyo3(from_py_with = args::opt::side_width)] width: Option<u16>,
    #[pyo3(from_py_with = args::opt::side_height)] height: Option<u16>,
    #[pyo3(from_py_with = args::opt::mine_count)] mines: Option<u32>,
    #[pyo3(from_py_with = rule_arg)] rule: FirstClick,
    #[pyo3(from_py_with = start_arg)] start: Option<(u16, u16)>,
    #[pyo3(from_py_with = games_arg)] games: u64,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::opt::threads)] threads: Option<usize>,
    #[pyo3(from_py_with = args::first_game)] first_game: u64,
) -> PyResult<ClassicTally> {
    let rules =
        Rules::from_options(level, width, height, mines, rule, start).map_err(input_error)?;
    let end = first_game.checked_add(games).ok_or_else(|| {
        input_error(format!(
            "first_game {first_game} + games {games} is more than {}",
            u64::MAX
        ))
    })?;
    let stop = StopFlag::new();
    let started = Instant::now();
    let tally = stoppable(py, &stop, || {
        play_run(
            &rules,
            &Strategy::default(),
            seed,
            first_game..end,
            threads,
            &stop,
        )
    })?
    .map_err(|e| PyRuntimeError::new_err(format!("cannot start worker threads: {e}")))?
    .unwrap_or_default();
    Ok(ClassicTally {
        games: tally.games,
        wins: tally.wins,
        guesses: tally.guesses,
        seconds: Float(started.elapsed().as_secs_f64()),
    })
}

/// The seed of game `game` of the run seeded `seed`: `play(..., seed=seed, game=game)` plays
/// `ClassicGame(..., seed=game_seed(seed, game))` (SplitMix64 of both, so that runs with
/// neighbouring seeds share no games).
#[pyfunction(name = "game_seed")]
fn game_seed_of(
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::game)] game: u64,
) -> u64 {
    game_seed(seed, game)
}
