//! `ply_games._ply.sokoboru`: Sokoban with sliding balls, solved to the optimal penalty.

use numpy::{PyArray2, PyArrayMethods};
use ply_search::messages::excerpt;
use ply_search::{SecondsRule, StopFlag, WrongAnswer};
use ply_sokoboru::{
    CaseReport, Dir, GenOptions, IllegalMove, Keep, Progress, Puzzle, SolutionEntry, State,
    VerifyError, check_case, generate, parse_puzzles, parse_solutions, replay, solve_file_checked,
};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;

use crate::args;
use crate::common::{
    Float, claimed_cost, illegal_move, input_error, internal_error, limits, parse_error, refused,
    rejected, renamed, seconds, words,
};
use crate::run::{check_stop, stoppable};

/// Fills the submodule.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyPuzzle>()?;
    m.add_class::<Solution>()?;
    m.add_class::<Game>()?;
    m.add_function(wrap_pyfunction!(parse_puzzles_py, m)?)?;
    m.add_function(wrap_pyfunction!(solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve_all, m)?)?;
    m.add_function(wrap_pyfunction!(verify, m)?)?;
    m.add_function(wrap_pyfunction!(verify_solutions, m)?)?;
    m.add_function(wrap_pyfunction!(generate_py, m)?)?;
    Ok(())
}

/// A puzzle: a board of at most 50 cells (`#` wall, `@` player, `O` ball, `$` empty box, `*`
/// full box, `-` floor). It is solved when no empty box is left; a move costs 1, pushing a
/// full box 2. Immutable: copies are the puzzle itself; it pickles as its text.
#[pyclass(
    name = "Puzzle",
    module = "ply_games.sokoboru",
    frozen,
    eq,
    hash,
    from_py_object
)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct PyPuzzle(Puzzle);

/// Moves as the solution format writes them: `^ v < >`.
fn moves_text(moves: &[Dir]) -> String {
    moves.iter().map(|d| d.symbol()).collect()
}

/// Moves from a string of `^ v < >` (whitespace ignored), or `ValueError` naming the first
/// other character.
fn moves_arg(text: &str) -> PyResult<Vec<Dir>> {
    text.chars()
        .filter(|c| !c.is_whitespace())
        .enumerate()
        .map(|(i, c)| {
            Dir::from_symbol(c).ok_or_else(|| {
                input_error(format!(
                    "move {}: '{}' is not one of ^ v < >",
                    i + 1,
                    excerpt(&c.to_string())
                ))
            })
        })
        .collect()
}

/// The cells of `state` on `puzzle` as a rows x cols array of ply-sokoboru's codes.
fn grid<'py>(
    py: Python<'py>,
    puzzle: &Puzzle,
    state: &State,
) -> PyResult<Bound<'py, PyArray2<i8>>> {
    numpy::PyArray1::from_vec(py, puzzle.codes(state)).reshape([puzzle.rows, puzzle.cols])
}

value_methods! {
    PyPuzzle, itself,
    /// Pickles as its text (`Puzzle(str(puzzle))`).
    reduce("", |this| (this.0.to_string(),));

    /// Parses one puzzle in the file format (`n m`, then `n` rows).
    #[new]
    fn new(text: &str) -> PyResult<Self> {
        let mut puzzles = parse_puzzles(text).map_err(parse_error)?;
        match puzzles.len() {
            1 => Ok(PyPuzzle(puzzles.remove(0))),
            n => Err(parse_error(format!(
                "expected one puzzle, found {n} (use parse_puzzles for a file)"
            ))),
        }
    }

    /// Rows.
    #[getter]
    fn rows(&self) -> usize {
        self.0.rows
    }

    /// Columns.
    #[getter]
    fn cols(&self) -> usize {
        self.0.cols
    }

    /// The board as codes (0 floor, 1 wall, 2 player, 3 ball, 4 empty box, 5 full box), a
    /// rows x cols NumPy `int8` array.
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        grid(py, &self.0, &self.0.start)
    }

    fn __str__(&self) -> String {
        self.0.to_string()
    }
}

/// Reads every puzzle of a puzzle file's text; `ValueError` names the bad case and line.
#[pyfunction]
#[pyo3(name = "parse_puzzles")]
fn parse_puzzles_py(text: &str) -> PyResult<Vec<PyPuzzle>> {
    Ok(parse_puzzles(text)
        .map_err(parse_error)?
        .into_iter()
        .map(PyPuzzle)
        .collect())
}

/// A puzzle's answer, in the words every `ply_games` solution uses: `cost` (the penalty),
/// `moves`, `proven`, `lower_bound`, the work done (`generated`, `expanded`) and `seconds`.
#[pyclass(module = "ply_games.sokoboru", frozen, get_all, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Solution {
    /// The penalty of `moves`, or `None` without a solution.
    cost: Option<u32>,
    /// The moves as `^ v < >`, or `None` without a solution.
    moves: Option<String>,
    /// Whether `cost` is proven optimal (or, without moves, the puzzle proven unsolvable).
    proven: bool,
    /// Whether the puzzle is proven to have no solution.
    unsolvable: bool,
    /// What was proven about the optimum: no solution is cheaper (the cost when proven).
    lower_bound: u32,
    /// Why the search stopped short of a proof, or `None`.
    stopped: Option<String>,
    /// States the exact search expanded.
    expanded: u64,
    /// Seconds of search.
    seconds: Float,
    /// States generated by all the searches of the case.
    generated: u64,
}

value_methods! {
    Solution,
    fields(
        cost: Option<u32>,
        moves: Option<String>,
        proven: bool,
        unsolvable: bool,
        lower_bound: u32,
        stopped: Option<String>,
        expanded: u64,
        seconds: Float,
    )
    // Added later: pickled apart, so that older pickles load.
    later(generated: u64 = 0);
}

impl Solution {
    /// The solution of a case's report (already checked by ply-sokoboru's checked solve).
    fn of(report: &CaseReport) -> Self {
        let words = words(report);
        Solution {
            cost: words.cost,
            moves: report.moves().map(moves_text),
            proven: words.proven,
            unsolvable: words.unsolvable,
            lower_bound: words.lower_bound,
            stopped: words.stopped,
            expanded: words.expanded,
            seconds: words.seconds,
            generated: words.generated,
        }
    }
}

/// Argument `puzzles`: a sequence of `Puzzle`s, or `TypeError` naming it.
fn puzzles_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<PyPuzzle>> {
    args::sequence(obj, "puzzles", "a sequence of Puzzles")?
        .iter()
        .map(|item| {
            item.cast::<PyPuzzle>()
                .map(|p| p.get().clone())
                .map_err(|_| {
                    PyTypeError::new_err(format!("puzzles: {} is not a Puzzle", args::shown(item)))
                })
        })
        .collect()
}

/// Seconds argument `name` as a deadline from now (`None`: no deadline), by ply-search's rule
/// of budgets.
fn deadline_arg(name: &str, secs: Option<f64>) -> PyResult<Option<std::time::Instant>> {
    Ok(secs
        .map(|secs| seconds(secs, name, SecondsRule::Budget))
        .transpose()?
        .and_then(ply_search::deadline_in))
}

/// Solves puzzles as `ply sokoboru solve` solves a file, on `threads` threads, by `deadline`
/// for them all (`None`: no deadline) and within `time_limit`/`max_nodes` for each puzzle.
fn solve_many(
    py: Python<'_>,
    puzzles: &[Puzzle],
    deadline: Option<std::time::Instant>,
    threads: usize,
    time_limit: Option<f64>,
    max_nodes: Option<u64>,
) -> PyResult<Vec<Solution>> {
    let stop = StopFlag::new();
    let mut limits = limits(time_limit, max_nodes, &stop)?;
    limits.deadline = deadline;
    let progress = Progress::new(puzzles.len());
    let mut answers: Vec<Option<Solution>> = vec![None; puzzles.len()];
    // ply-sokoboru's checked solve: every answer is replayed before anyone sees it, as
    // `ply sokoboru solve` does.
    stoppable(py, &stop, || {
        solve_file_checked(puzzles, threads, &limits, &progress, |at, report| {
            answers[at] = Some(Solution::of(&report));
            Ok::<(), WrongAnswer>(())
        })
    })?
    .map_err(internal_error)?;
    answers
        .into_iter()
        .map(|answer| answer.ok_or_else(|| internal_error("internal error: a case was skipped")))
        .collect()
}

/// Solves a puzzle to the optimal penalty (`cost`). Within `time_limit` seconds (`None`: as
/// long as it takes) it returns the best solution found, with `proven` false when the
/// optimum was not proven in time; `max_nodes` bounds its states the same way. A solution is
/// found first (milliseconds on the course's files), then a cheaper one is searched for, on
/// `threads` threads. The GIL is released; Ctrl-C stops the search (`KeyboardInterrupt`).
/// `deadline` is the deprecated name of `time_limit` (`InputError` when both are given).
#[pyfunction]
#[pyo3(signature = (puzzle, *, threads=1, time_limit=None, max_nodes=None, deadline=None))]
fn solve(
    py: Python<'_>,
    puzzle: &PyPuzzle,
    #[pyo3(from_py_with = args::threads)] threads: usize,
    #[pyo3(from_py_with = args::opt::time_limit)] time_limit: Option<f64>,
    #[pyo3(from_py_with = args::opt::max_nodes)] max_nodes: Option<u64>,
    #[pyo3(from_py_with = args::opt::deadline)] deadline: Option<f64>,
) -> PyResult<Solution> {
    // The solve's one time budget is its deadline: the best answer by then is returned.
    let budget = match renamed(
        py,
        "solve",
        ("time_limit", time_limit),
        ("deadline", deadline),
    )? {
        Some((name, secs)) => deadline_arg(name, Some(secs))?,
        None => None,
    };
    let puzzles = [puzzle.0.clone()];
    let mut answers = solve_many(py, &puzzles, budget, threads, None, max_nodes)?;
    Ok(answers.remove(0))
}

/// Solves every puzzle of a file as `ply sokoboru solve` does: `threads` cases at once (a
/// thread whose cases are done helps the others), `deadline` seconds for them all (58 by
/// default, the course's 60 less time to write the answers; `None`: no deadline), and
/// `time_limit` seconds and `max_nodes` for each puzzle (shared by its searches, as in
/// `solve`).
#[pyfunction]
#[pyo3(signature = (puzzles, *, deadline=Some(58.0), threads=1, time_limit=None, max_nodes=None))]
fn solve_all(
    py: Python<'_>,
    #[pyo3(from_py_with = puzzles_arg)] puzzles: Vec<PyPuzzle>,
    #[pyo3(from_py_with = args::opt::deadline)] deadline: Option<f64>,
    #[pyo3(from_py_with = args::threads)] threads: usize,
    #[pyo3(from_py_with = args::opt::time_limit)] time_limit: Option<f64>,
    #[pyo3(from_py_with = args::opt::max_nodes)] max_nodes: Option<u64>,
) -> PyResult<Vec<Solution>> {
    let puzzles: Vec<Puzzle> = puzzles.into_iter().map(|p| p.0).collect();
    let deadline = deadline_arg("deadline", deadline)?;
    solve_many(py, &puzzles, deadline, threads, time_limit, max_nodes)
}

/// Replays `moves` (`^ v < >`) on `puzzle` as the course's verifier does and returns their
/// cost (the penalty); with `cost`, it must be the replayed one. `RejectedError` (a
/// `ValueError`) says why the moves are refused (a character that is no move, an illegal move,
/// an empty box left, another cost). `penalty` is the deprecated name of `cost` (`InputError`
/// when both are given).
#[pyfunction]
#[pyo3(signature = (puzzle, moves, cost=None, *, penalty=None))]
fn verify(
    py: Python<'_>,
    puzzle: &PyPuzzle,
    moves: &str,
    #[pyo3(from_py_with = args::opt::cost)] cost: Option<u32>,
    #[pyo3(from_py_with = args::opt::penalty)] penalty: Option<u32>,
) -> PyResult<u32> {
    let claimed = renamed(py, "verify", ("cost", cost), ("penalty", penalty))?;
    let moves = moves_arg(moves).map_err(|e| refused(py, e))?;
    // The course verifier's checks of one case, claiming the replayed penalty: the claim, if
    // any, is compared below in the words of every module's `verify` (no file is involved).
    let entry = SolutionEntry {
        line: 1,
        penalty: replay(&puzzle.0, &moves).map_or(0, |r| r.penalty),
        moves,
    };
    let actual = check_case(1, &puzzle.0, &entry).map_err(rejected)?.penalty;
    claimed_cost(actual, claimed.map(|(_, cost)| cost))
}

/// Checks a solution file's text against the puzzles as `ply sokoboru verify` does and
/// returns each case's penalty; `ValueError` names the first rejected case.
#[pyfunction]
fn verify_solutions(
    #[pyo3(from_py_with = puzzles_arg)] puzzles: Vec<PyPuzzle>,
    text: &str,
) -> PyResult<Vec<u32>> {
    let entries = parse_solutions(text).map_err(parse_error)?;
    if entries.len() != puzzles.len() {
        return Err(rejected(VerifyError::CaseCount {
            expected: puzzles.len(),
            found: entries.len(),
        }));
    }
    puzzles
        .iter()
        .zip(&entries)
        .enumerate()
        .map(|(i, (p, e))| check_case(i + 1, &p.0, e).map(|r| r.penalty))
        .collect::<Result<_, _>>()
        .map_err(rejected)
}

/// Argument `wall_density` of `generate`, a number (its range is the generator's to check).
fn wall_density_arg(obj: &Bound<'_, PyAny>) -> PyResult<f64> {
    args::number(obj, "wall_density", "a number")
}

/// Random puzzles with their penalties, deterministic for `seed` (`ply sokoboru gen`): boards
/// of `rows` x `cols` with `balls` balls and as many empty boxes, each solved within
/// `max_nodes` and kept when its optimum is proven and at least `min_penalty` (with
/// `answered`, also boards solved but not proven). Returns `(puzzle, penalty, proven)`.
#[pyfunction]
#[pyo3(name = "generate", signature = (seed, count=1, *, rows=5, cols=8, balls=5, min_penalty=0, wall_density=0.2, max_nodes=5_000_000, max_draws=1_000, answered=false))]
#[allow(clippy::too_many_arguments)]
fn generate_py(
    py: Python<'_>,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::count)] count: usize,
    #[pyo3(from_py_with = args::rows)] rows: usize,
    #[pyo3(from_py_with = args::cols)] cols: usize,
    #[pyo3(from_py_with = args::balls)] balls: usize,
    #[pyo3(from_py_with = args::min_penalty)] min_penalty: u32,
    #[pyo3(from_py_with = wall_density_arg)] wall_density: f64,
    #[pyo3(from_py_with = args::max_nodes)] max_nodes: u64,
    #[pyo3(from_py_with = args::max_draws)] max_draws: u64,
    answered: bool,
) -> PyResult<Vec<(PyPuzzle, u32, bool)>> {
    let stop = StopFlag::new();
    let options = GenOptions {
        rows,
        cols,
        balls,
        min_penalty,
        wall_density,
        limits: limits(None, Some(max_nodes), &stop)?,
        max_draws,
        keep: if answered {
            Keep::Answered
        } else {
            Keep::Proven
        },
    };
    let generated = stoppable(py, &stop, || {
        generate(seed, count, &options, |_| true, |_| check_stop(&stop))
    })?
    .map_err(input_error)?;
    Ok(generated
        .into_iter()
        .map(|g| (PyPuzzle(g.puzzle), g.penalty, g.proven))
        .collect())
}

/// A puzzle being played: the position after some moves, for environments and for
/// stepping through a solution. A copy is independent; a pickle holds the puzzle and the
/// moves played. Games are equal when they are the same moves on the same puzzle (unhashable:
/// a game changes).
#[pyclass(module = "ply_games.sokoboru", eq)]
#[derive(Clone, PartialEq)]
pub struct Game {
    puzzle: Puzzle,
    state: State,
    penalty: u32,
    moves: Vec<Dir>,
}

impl Game {
    /// Plays `dir` and returns its penalty, or why it is illegal (the position is then
    /// unchanged).
    fn play(&mut self, dir: Dir) -> Result<u32, IllegalMove> {
        let step = self.state.step(&self.puzzle, dir)?;
        self.state = step.state;
        self.penalty += step.cost;
        self.moves.push(dir);
        Ok(step.cost)
    }
}

value_methods! {
    Game, clones,
    /// Pickles as the puzzle and the moves played (`Game.from_moves`).
    reduce("from_moves", |this| (PyPuzzle(this.puzzle.clone()), moves_text(&this.moves)));

    /// The start of `puzzle`.
    #[new]
    fn new(puzzle: &PyPuzzle) -> Self {
        Game {
            state: puzzle.0.start,
            puzzle: puzzle.0.clone(),
            penalty: 0,
            moves: Vec::new(),
        }
    }

    /// The game after `moves` (`^ v < >`) from the start of `puzzle`; `ValueError` names an
    /// illegal move.
    #[staticmethod]
    fn from_moves(puzzle: &PyPuzzle, moves: &str) -> PyResult<Self> {
        let mut game = Game::new(puzzle);
        for (i, dir) in moves_arg(moves)?.into_iter().enumerate() {
            game.play(dir)
                .map_err(|e| illegal_move(format!("move {}: {e}", i + 1)))?;
        }
        Ok(game)
    }

    /// The puzzle played.
    #[getter]
    fn puzzle(&self) -> PyPuzzle {
        PyPuzzle(self.puzzle.clone())
    }

    /// Plays a move (`^ v < >`) and returns its penalty (1, or 2 for pushing a full box);
    /// `ValueError` says why it is illegal (the position is then unchanged).
    fn step(&mut self, direction: &str) -> PyResult<u32> {
        let dirs = moves_arg(direction)?;
        let [dir] = dirs[..] else {
            return Err(input_error(format!(
                "'{}' is not one move: expected one of ^ v < >",
                excerpt(direction)
            )));
        };
        self.play(dir).map_err(illegal_move)
    }

    /// The moves that are legal now, as a string of `^ v < >`.
    fn legal_moves(&self) -> String {
        Dir::ALL
            .into_iter()
            .filter(|&d| self.state.step(&self.puzzle, d).is_ok())
            .map(Dir::symbol)
            .collect()
    }

    /// Whether no empty box is left.
    fn is_solved(&self) -> bool {
        self.state.is_solved()
    }

    /// The cost (penalty) so far.
    #[getter]
    fn cost(&self) -> u32 {
        self.penalty
    }

    /// The moves so far.
    #[getter]
    fn moves(&self) -> String {
        moves_text(&self.moves)
    }

    /// Empty boxes left.
    #[getter]
    fn empty_boxes(&self) -> u32 {
        self.state.empty.count_ones()
    }

    /// The position as codes (see `Puzzle.to_numpy`).
    fn to_numpy<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<i8>>> {
        grid(py, &self.puzzle, &self.state)
    }


    fn __str__(&self) -> String {
        self.puzzle.render(&self.state)
    }
}
