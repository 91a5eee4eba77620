//! `ply_games._ply.ewn_duel`: the two-player 6 x 7 EWN duel over a known dice sequence, in
//! OpenSpiel's vocabulary (a game, its states, integer actions), its agents and its referee.
//!
//! An action is `4 * cube + direction` (0-23): the protocol's move `ND` as one number, as
//! ply-ewn encodes it (`ply_ewn::duel::rules::action`), with its observation layout.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::Instant;

use numpy::PyArray1;
use ply_ewn::duel::agents::{AgentSpec, Pace};
use ply_ewn::duel::playouts::playouts_until;
use ply_ewn::duel::protocol::Setup;
use ply_ewn::duel::referee::{
    AgentPlayer, Player, ProcessPlayer, command_problem, first_setup, run_match_until,
};
use ply_ewn::duel::rules::{self as encoding, MAX_GAME_LENGTH, NUM_ACTIONS, OBSERVATION_SIZE};
use ply_ewn::duel::{Agent, Board, Color, DuelMove, MatchConfig, course_dice, parse_dice_file};
use ply_search::StopFlag;
use ply_search::messages::excerpt;
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::args;
use crate::common::{
    Float, Reduced, illegal_move, input_error, internal_error, parse_error, positive_seconds,
    reduce,
};
use crate::run::{detached, interruptible, stoppable};

/// Fills the submodule.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Game>()?;
    m.add_class::<State>()?;
    m.add_class::<PyAgent>()?;
    m.add_class::<Playouts>()?;
    m.add_function(wrap_pyfunction!(playouts, m)?)?;
    m.add_function(wrap_pyfunction!(host_records, m)?)?;
    m.add_function(wrap_pyfunction!(parse_dice, m)?)?;
    m.add("NUM_ACTIONS", NUM_ACTIONS)?;
    m.add("OBSERVATION_SIZE", OBSERVATION_SIZE)?;
    m.add("MAX_GAME_LENGTH", MAX_GAME_LENGTH)?;
    m.add("TERMINAL", TERMINAL)?;
    Ok(())
}

/// OpenSpiel's player id of a finished game.
const TERMINAL: i32 = -4;

/// A move as an action number (ply-ewn's encoding, `4 * cube + direction`).
fn action(mv: DuelMove) -> u32 {
    u32::from(encoding::action(mv))
}

/// An action number already checked to be 0-23 as a move (not checked against the position).
fn move_of(action: u8) -> DuelMove {
    encoding::action_move(action).unwrap_or_default()
}

/// Argument `action`: an int of 0-23, or an error naming it.
fn action_arg(obj: &Bound<'_, PyAny>) -> PyResult<u8> {
    let check = |a| {
        u8::try_from(a)
            .ok()
            .filter(|&a| usize::from(a) < NUM_ACTIONS)
    };
    let refuse = |shown| {
        input_error(format!(
            "action {shown} is not in 0-23 (4 * cube + direction)"
        ))
    };
    args::ranged(obj, "action", check, refuse)
}

/// Argument `history`: a sequence of actions.
fn history_arg(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    args::sequence(obj, "history", "a sequence of actions")?
        .iter()
        .map(action_arg)
        .collect()
}

/// Argument `player`: 0 (red) or 1 (blue), or an error naming it.
fn player_arg(obj: &Bound<'_, PyAny>) -> PyResult<Color> {
    let check = |p| usize::try_from(p).ok().and_then(Color::from_index);
    let refuse = |shown| input_error(format!("player {shown} is not 0 or 1"));
    args::ranged(obj, "player", check, refuse)
}

/// Optional argument `player`.
fn opt_player_arg(obj: &Bound<'_, PyAny>) -> PyResult<Option<Color>> {
    args::optional(obj, player_arg)
}

/// Digits 0-5 from a string (`"345..."`) or a sequence of ints, `N` of them; the error names
/// the first other item (`dice: -1 is not a digit 0-5`) or the count: a `ParseError` for a
/// string (a text that cannot be read, as in `parse_dice`), an `InputError` for a sequence.
fn digits<const N: usize>(arg: &Bound<'_, PyAny>, what: &str) -> PyResult<[u8; N]> {
    let text = arg.cast::<PyString>().ok();
    let refuse = |message: String| {
        if text.is_some() {
            parse_error(message)
        } else {
            input_error(message)
        }
    };
    let not_digit = |shown: String| refuse(format!("{what}: {shown} is not a digit 0-5"));
    let digits: Vec<u8> = match &text {
        Some(text) => text
            .to_cow()?
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                '0'..='5' => Ok(c as u8 - b'0'),
                _ => Err(not_digit(format!("{c:?}"))),
            })
            .collect::<PyResult<_>>()?,
        None => args::sequence(arg, what, "a string of digits or a sequence of ints")?
            .iter()
            .map(|item| match args::integer(item) {
                Ok(d @ 0..=5) => Ok(d as u8),
                _ => Err(not_digit(args::shown(item))),
            })
            .collect::<PyResult<_>>()?,
    };
    let found = digits.len();
    digits
        .try_into()
        .map_err(|_| refuse(format!("{what}: {found} digits, expected {N}")))
}

/// The duel from one opening: the cube permutations and the dice line. `Game(seed)` draws the
/// opening the referee draws for the first game of a match with that seed (`ply ewn host
/// --seed`): shuffled cubes and one of the course's 60 dice lines; `red`, `blue` (the cube
/// numbers on each side's start cells, in the protocol's order) and `dice` (21 digits 0-5)
/// replace parts of it. Immutable: copies are the game itself; it pickles as its opening.
/// Games are equal when their openings and seeds are.
#[pyclass(module = "ply_games.ewn.duel", frozen, eq, hash)]
#[derive(PartialEq, Eq, Hash)]
pub struct Game {
    setup: Setup,
    seed: u64,
}

value_methods! {
    Game, itself,
    /// Pickles as its opening and seed.
    reduce("_from_setup", |this| (this.setup.encode(), this.seed));

    #[new]
    #[pyo3(signature = (seed=1, *, red=None, blue=None, dice=None))]
    fn new(
        #[pyo3(from_py_with = args::seed)] seed: u64,
        red: Option<&Bound<'_, PyAny>>,
        blue: Option<&Bound<'_, PyAny>>,
        dice: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let mut setup = first_setup(seed);
        if let Some(red) = red {
            setup.red = digits(red, "red")?;
        }
        if let Some(blue) = blue {
            setup.blue = digits(blue, "blue")?;
        }
        if let Some(dice) = dice {
            setup.dice = digits(dice, "dice")?;
        }
        setup.board().map_err(input_error)?;
        Ok(Game { setup, seed })
    }

    /// The game of the opening `setup` (33 digits, as `Game.setup`) drawn from `seed` (what
    /// a pickle holds).
    #[staticmethod]
    fn _from_setup(setup: &str, seed: u64) -> PyResult<Self> {
        let setup = Setup::decode(setup.as_bytes()).map_err(parse_error)?;
        setup.board().map_err(parse_error)?;
        Ok(Game { setup, seed })
    }

    /// The opening as the protocol sends it: red's cubes, blue's cubes, the dice (33 digits).
    #[getter]
    fn setup(&self) -> String {
        self.setup.encode()
    }

    /// The seed the opening was drawn from.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The dice line: the die of ply `k` is `dice[k % 21]`.
    #[getter]
    fn dice(&self) -> Vec<u32> {
        self.setup.dice.iter().map(|&d| u32::from(d)).collect()
    }

    /// The first position (red to move).
    fn new_initial_state(&self) -> State {
        State {
            board: self.setup.board().expect("checked when made"),
            start: self.setup,
            history: Vec::new(),
        }
    }
}

/// A position of a game, mutable with `apply_action`. Red is player 0 and moves on even plies.
/// States are equal when they are the same actions from the same opening (unhashable: a
/// state changes).
#[pyclass(module = "ply_games.ewn.duel", eq)]
#[derive(Clone, PartialEq)]
pub struct State {
    board: Board,
    /// The opening, which with the history makes the state (for pickling).
    start: Setup,
    history: Vec<u32>,
}

value_methods! {
    State, clones,
    /// Pickles as the opening and the actions played.
    reduce("from_history", |this| (this.start.encode(), this.history.clone()));

    /// The player to move (0 red, 1 blue), or -4 (OpenSpiel's terminal id) once over.
    fn current_player(&self) -> i32 {
        if self.board.winner().is_some() {
            TERMINAL
        } else {
            self.board.to_move().index() as i32
        }
    }

    /// The legal actions in increasing order (empty once the game is over, or for a player
    /// who is not to move).
    #[pyo3(signature = (player=None))]
    fn legal_actions(
        &self,
        #[pyo3(from_py_with = opt_player_arg)] player: Option<Color>,
    ) -> PyResult<Vec<u32>> {
        if player.is_some_and(|p| p != self.board.to_move()) {
            return Ok(Vec::new());
        }
        Ok(self.board.moves().iter().map(|&m| action(m)).collect())
    }

    /// The legal actions as a NumPy `int8` array of 24 zeros and ones.
    fn action_mask<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i8>> {
        let mut mask = [0i8; NUM_ACTIONS];
        for &m in self.board.moves().iter() {
            mask[action(m) as usize] = 1;
        }
        PyArray1::from_slice(py, &mask)
    }

    /// Plays an action of `legal_actions`; `ValueError` says why another one is illegal.
    fn apply_action(&mut self, #[pyo3(from_py_with = action_arg)] action: u8) -> PyResult<()> {
        let mv = move_of(action);
        self.board.play_checked(mv).map_err(|why| {
            illegal_move(format!(
                "action {action} (move {mv}) is illegal here: {why}"
            ))
        })?;
        self.history.push(u32::from(action));
        Ok(())
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.board.winner().is_some()
    }

    /// `player`'s return.
    fn player_return(&self, #[pyo3(from_py_with = player_arg)] player: Color) -> f64 {
        match self.board.winner() {
            Some(winner) if winner == player => 1.0,
            Some(_) => -1.0,
            None => 0.0,
        }
    }

    /// The winner (0 red, 1 blue), or `None`.
    #[getter]
    fn winner(&self) -> Option<usize> {
        self.board.winner().map(Color::index)
    }

    /// Plies played.
    #[getter]
    fn ply(&self) -> u32 {
        self.board.ply()
    }

    /// The die of the ply to play (0-5): which cube moves, or its nearest living neighbours.
    #[getter]
    fn die(&self) -> u8 {
        self.board.die()
    }

    /// The dice line.
    #[getter]
    fn dice(&self) -> Vec<u32> {
        self.board.dice().iter().map(|&d| u32::from(d)).collect()
    }

    /// The actions played so far.
    fn history(&self) -> Vec<u32> {
        self.history.clone()
    }

    /// The cells (`7 * row + col`) of `player`'s cubes 0-5, `None` for a captured cube.
    fn cubes(&self, #[pyo3(from_py_with = player_arg)] player: Color) -> Vec<Option<u8>> {
        (0..6).map(|c| self.board.cube_cell(player, c)).collect()
    }

    /// A fixed-length `float32` vector of 632 from `player`'s point of view (default: the
    /// player to move, red once over), in ply-ewn's layout (`ply_ewn::duel::rules::
    /// observation`): for each of the player's cubes 0-5 a one-hot plane of its cell (6 x 42,
    /// all zero when captured), the same for the opponent's cubes, then whether `player` is
    /// to move and whether `player` is red, then the next 21 dice from the ply to play on,
    /// one-hot over 0-5 (21 x 6).
    #[pyo3(signature = (player=None))]
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        #[pyo3(from_py_with = opt_player_arg)] player: Option<Color>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let me = match player {
            Some(p) => p,
            None if self.board.winner().is_some() => Color::Red,
            None => self.board.to_move(),
        };
        let out = encoding::observation(&self.board, me);
        Ok(PyArray1::from_vec(py, out))
    }

    /// The position as text (rows of `R0`-`R5`, `b0`-`b5` and `..`), the side to move and the
    /// die; the same for both players (perfect information).
    #[pyo3(signature = (player=None))]
    fn observation_string(
        &self,
        #[pyo3(from_py_with = opt_player_arg)] player: Option<Color>,
    ) -> String {
        let _ = player;
        self.__str__()
    }

    /// The protocol's move `ND` (cube, direction) of an action; `action_to_string(player,
    /// action)` as OpenSpiel spells it works too.
    #[pyo3(signature = (first, second=None))]
    fn action_to_string(
        &self,
        first: &Bound<'_, PyAny>,
        second: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<String> {
        Ok(move_of(action_arg(second.unwrap_or(first))?).to_string())
    }

    /// The action of a protocol move `ND`.
    fn string_to_action(&self, text: &str) -> PyResult<u32> {
        let bytes: [u8; 2] = text.as_bytes().try_into().map_err(|_| {
            parse_error(format!(
                "'{}' is not a move: expected two digits ND",
                excerpt(text)
            ))
        })?;
        ply_ewn::duel::protocol::parse_move(bytes)
            .map(action)
            .map_err(parse_error)
    }

    /// The state after `history` (actions) from the opening `setup` (33 digits, as
    /// `Game.setup`); `ValueError` names an illegal action.
    #[staticmethod]
    fn from_history(
        setup: &str,
        #[pyo3(from_py_with = history_arg)] history: Vec<u8>,
    ) -> PyResult<Self> {
        let mut state = Game::_from_setup(setup, 0)?.new_initial_state();
        for action in history {
            state.apply_action(action)?;
        }
        Ok(state)
    }

    /// The opening the state started from (33 digits, as `Game.setup`).
    #[getter]
    fn setup(&self) -> String {
        self.start.encode()
    }

    fn __str__(&self) -> String {
        let status = match self.board.winner() {
            Some(winner) => format!("{winner} won"),
            None => format!("{} to move, die {}", self.board.to_move(), self.board.die()),
        };
        format!("{}{status} (ply {})", self.board.render(), self.board.ply())
    }
}

/// An agent shared between Python and the thread that runs its move.
type Shared = Arc<Mutex<Box<dyn Agent + Send>>>;

/// An agent: `Agent(name)` is one of the course's named agents (`random`/`easy`, `normal`,
/// `hard`, `deep`, `alphabeta-D`, as `ply ewn host` and `ply ewn play --vs` name them); the
/// static constructors make the others. A copy or a pickle is a new agent of the same
/// specification (kind and parameters): its tables and search tree start empty.
#[pyclass(name = "Agent", module = "ply_games.ewn.duel", frozen)]
pub struct PyAgent {
    name: String,
    /// How it was made.
    spec: AgentSpec,
    agent: Shared,
    /// How it spends a move: its own time per move, or whether a move is cheap enough to run
    /// on the caller's thread.
    pace: Pace,
}

impl PyAgent {
    /// The agent of `spec`, or `InputError` saying why there is none.
    fn build(spec: AgentSpec) -> PyResult<Self> {
        let built = spec.build().map_err(input_error)?;
        Ok(PyAgent {
            name: built.name,
            spec,
            agent: Arc::new(Mutex::new(built.agent)),
            pace: built.pace,
        })
    }
}

/// Runs `f` on the agent, whoever last held its lock.
fn with_agent<T>(agent: &Shared, f: impl FnOnce(&mut dyn Agent) -> T) -> T {
    let mut guard = agent.lock().unwrap_or_else(PoisonError::into_inner);
    f(guard.as_mut())
}

#[pymethods]
impl PyAgent {
    /// One of the course's named agents: `random` or `easy` (deterministic for `seed`),
    /// `normal` and `hard` (the course's alpha-beta baselines, depth 2 and 8), `deep` (ply's
    /// strongest, 1.8 s a move) or `alphabeta-D` (D = 1-20).
    #[new]
    #[pyo3(signature = (name, seed=0))]
    fn new(name: String, #[pyo3(from_py_with = args::seed)] seed: u64) -> PyResult<Self> {
        Self::build(AgentSpec::Named { name, seed })
    }

    /// Uniformly random legal moves, deterministic for `seed` (the course's `easy`).
    #[staticmethod]
    #[pyo3(signature = (seed=0))]
    fn random(#[pyo3(from_py_with = args::seed)] seed: u64) -> PyResult<Self> {
        Self::build(AgentSpec::Random { seed })
    }

    /// Alpha-beta over the known dice: to `depth` plies (the course's baselines: depth 2 and
    /// 8, plain negamax without a table), or, with `move_time`, iterative deepening with a
    /// transposition table as deep as the time allows. `eval` is the leaf value: `course`
    /// (the course's distances) or `race` (the turns each side needs to reach its corner).
    /// `table` adds the table and its move ordering to a fixed-depth search (same moves'
    /// values, fewer nodes).
    #[staticmethod]
    #[pyo3(signature = (depth=None, *, move_time=None, eval="course", table=false))]
    fn alphabeta(
        #[pyo3(from_py_with = args::opt::depth)] depth: Option<u32>,
        #[pyo3(from_py_with = args::opt::move_time)] move_time: Option<f64>,
        eval: &str,
        table: bool,
    ) -> PyResult<Self> {
        let eval = eval.parse().map_err(input_error)?;
        Self::build(AgentSpec::AlphaBeta {
            depth,
            move_time,
            eval,
            table,
        })
    }

    /// ply's strongest agent: iterative-deepening alpha-beta with the race evaluation, PVS,
    /// killer moves, a table kept for the whole game and wins valued by their distance, and
    /// a df-pn prover. It takes about 290 MiB when made, before its first move (a 100 MB
    /// alpha-beta table and the prover's 192 MiB), held until the agent is collected: make
    /// one per player, not one per game.
    #[staticmethod]
    #[pyo3(signature = (move_time=1.8))]
    fn deep(#[pyo3(from_py_with = args::move_time)] move_time: f64) -> PyResult<Self> {
        Self::build(AgentSpec::Deep { move_time })
    }

    /// Monte-Carlo tree search over the known dice (UCB1, MCTS-Solver proofs, implicit
    /// minimax backups, the tree kept between moves when `observe` is called), with
    /// playouts deterministic for `seed`.
    #[staticmethod]
    #[pyo3(signature = (move_time=1.8, *, seed=1))]
    fn mcts(
        #[pyo3(from_py_with = args::move_time)] move_time: f64,
        #[pyo3(from_py_with = args::seed)] seed: u64,
    ) -> PyResult<Self> {
        Self::build(AgentSpec::Mcts { move_time, seed })
    }

    /// A new agent of the specification `spec` (its text, what a pickle holds).
    #[staticmethod]
    fn _from_spec(spec: &str) -> PyResult<Self> {
        Self::build(spec.parse().map_err(parse_error)?)
    }

    /// Pickles as its specification, not its tables.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        let rebuild = slf.get_type().getattr("_from_spec")?;
        reduce(rebuild, (slf.get().spec.to_string(),))
    }

    /// The agent's name.
    #[getter]
    fn name(&self) -> String {
        self.name.clone()
    }

    /// The time per move of a timed agent (seconds), else `None`.
    #[getter]
    fn move_time(&self) -> Option<f64> {
        self.pace.move_time().map(|t| t.as_secs_f64())
    }

    /// A new game begins, this agent playing `player` (0 red, 1 blue) from `state`.
    fn new_game(
        &self,
        py: Python<'_>,
        state: &State,
        #[pyo3(from_py_with = player_arg)] player: Color,
    ) -> PyResult<()> {
        // Without the GIL: a move interrupted by Ctrl-C may still hold the agent.
        let board = &state.board;
        py.detach(|| with_agent(&self.agent, |a| a.new_game(board, player)));
        Ok(())
    }

    /// A move was played in `state` (by either side), before it was applied: agents that
    /// keep a tree between moves follow the game this way.
    fn observe(
        &self,
        py: Python<'_>,
        state: &State,
        #[pyo3(from_py_with = action_arg)] action: u8,
    ) -> PyResult<()> {
        let mv = move_of(action);
        let board = &state.board;
        py.detach(|| with_agent(&self.agent, |a| a.observe(board, mv)));
        Ok(())
    }

    /// The action this agent plays in `state` (which must not be over). A timed agent
    /// searches for `move_time` seconds (default: its own); fixed-depth and random agents
    /// ignore it. The GIL is released during the search; Ctrl-C raises `KeyboardInterrupt`
    /// at once (the search itself ends by its deadline).
    #[pyo3(signature = (state, move_time=None))]
    fn choose(
        &self,
        py: Python<'_>,
        state: &State,
        #[pyo3(from_py_with = args::opt::move_time)] move_time: Option<f64>,
    ) -> PyResult<u32> {
        if state.board.winner().is_some() {
            return Err(input_error("the game is over: there is no move to choose"));
        }
        // Checked for every agent, as the CLI's options are, though only timed agents use it.
        let move_time = move_time
            .map(|secs| positive_seconds(secs, "move_time"))
            .transpose()?;
        let started = self.pace.turn_start(Instant::now(), move_time);
        let board = state.board.clone();
        let mv = if self.pace == Pace::Instant {
            with_agent(&self.agent, |a| a.choose(&board, started))
        } else {
            let agent = Arc::clone(&self.agent);
            detached(py, move || {
                with_agent(&agent, |a| a.choose(&board, started))
            })?
        };
        Ok(action(mv))
    }
}

/// What `playouts` did.
#[pyclass(module = "ply_games.ewn.duel", frozen, get_all, eq, hash)]
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Playouts {
    /// Games played.
    games: u64,
    /// Moves played in all.
    moves: u64,
    /// Games red won.
    red_wins: u64,
    /// Seconds the games took.
    seconds: Float,
}

value_methods! {
    Playouts,
    args(games: u64, moves: u64, red_wins: u64, seconds: Float);
}

/// `games` uniformly random games in Rust (`ply ewn playouts --games N --seed S`): game `i`
/// starts from the `i mod 64`-th opening of a match of `seed`. The GIL is released; Ctrl-C
/// stops the batch.
#[pyfunction]
#[pyo3(signature = (games=100_000, seed=1))]
fn playouts(
    py: Python<'_>,
    #[pyo3(from_py_with = args::games)] games: u64,
    #[pyo3(from_py_with = args::seed)] seed: u64,
) -> PyResult<Playouts> {
    let stop = StopFlag::new();
    let tally = stoppable(py, &stop, || playouts_until(games, seed, &stop))?;
    Ok(Playouts {
        games: tally.games,
        moves: tally.moves,
        red_wins: tally.red_wins,
        seconds: Float(tally.elapsed.as_secs_f64()),
    })
}

/// Reads a dice file's text: one line of 21 dice (digits 0-5) per sequence; a leading
/// byte-order mark is skipped, as in the CLI's files.
#[pyfunction]
fn parse_dice(text: &str) -> PyResult<Vec<Vec<u32>>> {
    Ok(parse_dice_file(text)
        .map_err(parse_error)?
        .iter()
        .map(|d| d.iter().map(|&x| u32::from(x)).collect())
        .collect())
}

/// An agent running in this process for the referee: the Python object's agent, locked for
/// each call.
struct InProcess(Shared);

impl Agent for InProcess {
    fn new_game(&mut self, board: &Board, me: Color) {
        with_agent(&self.0, |a| a.new_game(board, me));
    }

    fn choose(&mut self, board: &Board, received: Instant) -> DuelMove {
        with_agent(&self.0, |a| a.choose(board, received))
    }

    fn observe(&mut self, board: &Board, mv: DuelMove) {
        with_agent(&self.0, |a| a.observe(board, mv));
    }
}

/// A referee's player: a shell command speaking the course's protocol, or an `Agent`.
fn player(arg: &Bound<'_, PyAny>, name: &str, stop: &StopFlag) -> PyResult<Box<dyn Player + Send>> {
    if let Ok(agent) = arg.cast::<PyAgent>() {
        let shared = Arc::clone(&agent.get().agent);
        return Ok(Box::new(AgentPlayer::new(name, InProcess(shared))));
    }
    let command: String = arg
        .extract()
        .map_err(|_| PyTypeError::new_err(format!("{name} must be a command line or an Agent")))?;
    // A program that is not there is refused before the first game, as by `ply ewn host`.
    if let Some(problem) = command_problem(&command) {
        return Err(input_error(format!("{name}: {problem}")));
    }
    Ok(Box::new(
        ProcessPlayer::new(name, &command).with_stop(stop.clone()),
    ))
}

/// Plays a match as `ply ewn host` does and returns each game as the JSON line of its log.
#[pyfunction]
#[pyo3(signature = (p0, p1, *, rounds=1, seed=1, move_time=2.0, dice=None))]
fn host_records(
    py: Python<'_>,
    p0: &Bound<'_, PyAny>,
    p1: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = args::rounds)] rounds: u32,
    #[pyo3(from_py_with = args::seed)] seed: u64,
    #[pyo3(from_py_with = args::move_time)] move_time: f64,
    dice: Option<&str>,
) -> PyResult<Vec<String>> {
    let move_time = positive_seconds(move_time, "move_time")?;
    let dice = match dice {
        Some(text) => parse_dice_file(text).map_err(parse_error)?,
        None => course_dice(),
    };
    let config = MatchConfig {
        rounds,
        seed,
        dice,
        move_time,
    };
    let stop = StopFlag::new();
    let mut players = [player(p0, "p0", &stop)?, player(p1, "p1", &stop)?];
    let records = interruptible(
        py,
        || stop.stop(),
        || {
            let [a, b] = &mut players;
            run_match_until(&mut [a.as_mut(), b.as_mut()], &config, &stop, |_| {})
        },
    )?;
    records
        .iter()
        .map(|r| serde_json::to_string(r).map_err(internal_error))
        .collect()
}
