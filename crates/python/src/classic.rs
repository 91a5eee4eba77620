//! Classic Minesweeper in `ply_games._ply.mines` ([`ply_mines::classic`]): games on boards of
//! any size under both first-click rules, exact mine probabilities, the classic player and
//! its seeded win-rate runs.
//!
//! Every entry point takes the board as `ply mines classic` does: a level by name, or
//! `width`, `height` and `mines`; the first-click `rule` (`safe` or `zero`); and `start`, the
//! player's first click as `(row, col)`.

use std::str::FromStr;
use std::time::Instant;

use numpy::{Element, PyArray1, PyArray2, PyArrayMethods, PyUntypedArrayMethods};
use ply_mines::classic::{
    ClassicGame, EXPLODED, FirstClick, HIDDEN, Level, MAX_GAMES, MAX_SIDE, Reveal, Rules, Strategy,
    Tally, check_view_size, game_seed, play_run, play_traced, view_from_numbers,
};
use ply_search::StopFlag;
use pyo3::exceptions::{PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::args::{self, value_record};
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
    args::optional(obj, |obj| {
        let items = args::sequence(obj, "start", "a (row, col) pair or None")?;
        let not_pair = || format!("start {} is not a (row, col) pair", args::shown(obj));
        args::two(&items, "start", not_pair)
    })
}

/// Argument `rule`: `safe` or `zero`.
fn rule_arg(obj: &Bound<'_, PyAny>) -> PyResult<FirstClick> {
    args::parsed(obj, "rule", "a str")
}

/// Argument `level`: `None`, or a level's name.
fn level_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<Level>> {
    args::optional(obj, |obj| args::parsed(obj, "level", "a str or None"))
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

    /// A fresh game of `rules` whose mines are drawn from `seed`.
    fn seeded(rules: Rules, seed: u64) -> Self {
        PyClassicGame {
            game: ClassicGame::new(rules, seed),
            layout: None,
            clicks: Vec::new(),
        }
    }

    /// Clicks `(row, col)`, recording the click when it changed the game.
    fn click_at(&mut self, row: u64, col: u64) -> PyResult<Clicked> {
        let (row, col) = self.rules().cell(row, col).map_err(input_error)?;
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

/// Per-cell values, `width` a row (a view, probabilities), as a `(height, width)` NumPy array.
fn grid<'py, T: Element>(
    py: Python<'py>,
    cells: Vec<T>,
    rules: &Rules,
) -> PyResult<Bound<'py, PyArray2<T>>> {
    PyArray1::from_vec(py, cells).reshape([usize::from(rules.height), usize::from(rules.width)])
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
        Ok(PyClassicGame::seeded(rules, seed))
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
        let rule = FirstClick::from_str(&rule).map_err(input_error)?;
        let mut game = match layout {
            Some(layout) => PyClassicGame::on_layout((width, height), layout, rule, Some(start))?,
            None => {
                let (width, height, mines) = (Some(width), Some(height), Some(mines));
                let rules = Rules::from_options(None, width, height, mines, rule, Some(start));
                PyClassicGame::seeded(rules.map_err(input_error)?, seed)
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
        grid(py, self.game.view().to_vec(), self.rules())
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
        grid(py, odds.mine, &rules)
    }

    /// Whether (row, col) is a mine: `None` before the first click placed the mines.
    fn is_mine(
        &self,
        #[pyo3(from_py_with = args::row)] row: u64,
        #[pyo3(from_py_with = args::col)] col: u64,
    ) -> PyResult<Option<bool>> {
        let (row, col) = self.rules().cell(row, col).map_err(input_error)?;
        Ok(self.game.is_mine(row, col))
    }

    /// The clicks that changed the game, in order, as `(row, col)`.
    fn history(&self) -> Vec<(u16, u16)> {
        self.clicks.clone()
    }

    /// `playing`, `won` (every safe cell is open) or `lost` (a mine was opened).
    #[getter]
    fn status(&self) -> &'static str {
        self.game.status().name()
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
    check_view_size(width, height).map_err(input_error)?;
    let values = array.to_vec().map_err(input_error)?;
    let cells = view_from_numbers(&values).map_err(input_error)?;
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
    let rules = Rules::of_view(width, height, mines).map_err(input_error)?;
    let odds = pool::detach(py, || {
        ply_mines::classic::checked_probabilities(&rules, &cells)
    })?
    .map_err(input_error)?;
    grid(py, odds.mine, &rules)
}

value_record! {
    "ply_games.mines", fields;
    /// How the classic player's game went.
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

value_record! {
    "ply_games.mines", args;
    /// What a run of games came to.
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
    methods {
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
