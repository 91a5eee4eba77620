//! Agents and the agent side of the protocol.

use std::fmt;
use std::io::{self, Read, Write};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ply_search::{Limits, Searcher, StopFlag, TranspositionTable, alpha_beta};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use thiserror::Error;

use crate::duel::protocol::{ProtocolError, Setup, encode_move, parse_move};
use crate::duel::rules::{Board, Color, DICE, DuelMove};

/// The value of a won position for the side to move: ply-search's default, the course
/// baselines' 10000.
pub use ply_search::WIN;

/// The course's leaf value for the side to move: the opponent's smallest distance to its goal
/// corner minus the side to move's own (won and lost games are worth [`WIN`] and `-WIN`).
#[must_use]
pub fn course_value(board: &Board) -> i32 {
    let me = board.to_move();
    board.goal_distance(me.other()) - board.goal_distance(me)
}

/// Turns `color` needs to bring a cube to its goal corner if it moved alone, from ply
/// `ply` on (its own plies are `ply`, `ply + 2`, ...): each turn the die's cube (or, when it
/// is gone, the nearer of its living neighbours in number) steps toward the corner. Capped
/// at `RACE_CAP`.
fn race_turns(board: &Board, color: Color, mut ply: u32) -> i32 {
    let mut dist = [i32::MAX; 6];
    let mut living = 0u8;
    for cube in 0..6u8 {
        if let Some(cell) = board.cube_cell(color, cube) {
            let (r, c) = (i32::from(cell) / 7, i32::from(cell) % 7);
            dist[usize::from(cube)] = match color {
                Color::Red => (5 - r).max(6 - c),
                Color::Blue => r.max(c),
            };
            living |= 1 << cube;
        }
    }
    if living == 0 {
        return RACE_CAP;
    }
    for turn in 1..=RACE_CAP {
        let die = board.dice()[ply as usize % DICE];
        let cube = if living & (1 << die) != 0 {
            die
        } else {
            let below = living & ((1u8 << die) - 1);
            let above = living & !((2u8 << die) - 1);
            let low = (below != 0).then(|| 7 - below.leading_zeros() as u8);
            let high = (above != 0).then(|| above.trailing_zeros() as u8);
            match (low, high) {
                (Some(l), Some(h)) if dist[usize::from(h)] < dist[usize::from(l)] => h,
                (Some(l), _) => l,
                (None, Some(h)) => h,
                (None, None) => unreachable!("a living cube"),
            }
        };
        dist[usize::from(cube)] -= 1;
        if dist[usize::from(cube)] == 0 {
            return turn;
        }
        ply += 2;
    }
    RACE_CAP
}

/// The longest race [`race_turns`] simulates.
const RACE_CAP: i32 = 40;

/// A leaf value for the side to move aware of the dice: the difference of the two sides'
/// race lengths (the turns each side needs alone, the side to move moving first), then
/// material, then the course's distances.
#[must_use]
pub fn race_value(board: &Board) -> i32 {
    let me = board.to_move();
    let ply = board.ply();
    let mine = race_turns(board, me, ply);
    let theirs = race_turns(board, me.other(), ply + 1);
    64 * (theirs - mine)
        + 8 * (i32::from(board.alive(me)) - i32::from(board.alive(me.other())))
        + course_value(board)
}

/// A leaf evaluation of the alpha-beta agents.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Eval {
    /// The course's: [`course_value`].
    #[default]
    Course,
    /// Dice-aware: [`race_value`].
    Race,
}

impl Eval {
    /// The evaluation as a function.
    #[must_use]
    pub fn value(self) -> fn(&Board) -> i32 {
        match self {
            Eval::Course => course_value,
            Eval::Race => race_value,
        }
    }
}

/// A name [`Eval`]'s `from_str` does not know.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error(
    "unknown evaluation '{}' (expected course or race)",
    ply_search::messages::excerpt(.0)
)]
pub struct UnknownEval(pub String);

impl FromStr for Eval {
    type Err = UnknownEval;

    /// The evaluation named `course` or `race`, as front ends name them.
    ///
    /// ```
    /// use ply_ewn::duel::agents::Eval;
    /// assert_eq!("race".parse(), Ok(Eval::Race));
    /// assert_eq!(Eval::Course.to_string(), "course");
    /// let fast = "fast".parse::<Eval>().unwrap_err();
    /// assert_eq!(fast.to_string(), "unknown evaluation 'fast' (expected course or race)");
    /// ```
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        match name {
            "course" => Ok(Eval::Course),
            "race" => Ok(Eval::Race),
            other => Err(UnknownEval(other.to_string())),
        }
    }
}

impl fmt::Display for Eval {
    /// The name [`Eval`]'s `from_str` reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Eval::Course => "course",
            Eval::Race => "race",
        })
    }
}

/// The environment variable in which ply's referees (`ProcessPlayer`) tell each agent they
/// start the host's time per move, in seconds, so that an agent can keep within it
/// ([`thinking_time`]); the course's host sets none.
pub const HOST_MOVE_TIME_VAR: &str = "PLY_EWN_HOST_MOVE_TIME";

/// The environment variable in which ply's referees tell each agent they start whether it
/// may think during the opponent's time: `0` when it may not, because the agents running at
/// once on the machine outnumber its cores ([`pondering_fits`]) and an agent that ponders
/// would take its opponent's share; `1` when it may. The course's host sets none.
pub(crate) const HOST_PONDER_VAR: &str = "PLY_EWN_HOST_PONDER";

/// Whether agents may ponder when `games` games run at once on this machine under ply's
/// referee: two agents a game, and an agent that ponders is a busy thread all game long, so
/// only when every agent has a core of its own (a game on two cores, say, but not two).
#[must_use]
pub fn pondering_fits(games: usize) -> bool {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    games.saturating_mul(2) <= cores
}

/// Whether the referee that started this agent lets it ponder (`PLY_EWN_HOST_PONDER`): yes
/// unless it said `0` (a referee that says nothing, the course's, leaves it to the agent).
#[must_use]
pub fn host_allows_pondering() -> bool {
    std::env::var(HOST_PONDER_VAR).map_or(true, |v| v.trim() != "0")
}

/// How long an agent may think on a move when the host allows `limit` per move: the limit
/// less a safety margin of a tenth of it, at least 20 ms and at most 0.5 s (and never more
/// than half the limit). The host's clock starts when it writes the opponent's move, the
/// agent's when it reads it, and the answer still has to be written and read after the
/// search stops, so an agent that thinks for the host's whole limit loses on time. The
/// course's 2 s give the 1.8 s its agents think by default.
#[must_use]
pub fn thinking_time(limit: Duration) -> Duration {
    let margin = (limit / 10)
        .clamp(Duration::from_millis(20), Duration::from_millis(500))
        .min(limit / 2);
    limit - margin
}

/// `from + time`, or `None` (no deadline) when the clock cannot represent that instant: an
/// absurdly long move time means no limit rather than a panic.
#[must_use]
pub(crate) fn deadline_after(from: Instant, time: Duration) -> Option<Instant> {
    from.checked_add(time)
}

/// Limits that stop a search at `deadline`, if there is one.
pub(crate) fn limits_until(deadline: Option<Instant>) -> Limits {
    Limits {
        deadline,
        ..Limits::default()
    }
}

/// A program that plays the duel.
pub trait Agent {
    /// A new game starts; this agent plays `me`.
    fn new_game(&mut self, _board: &Board, _me: Color) {}
    /// Chooses a legal move for the side to move; `received` is when the turn began.
    fn choose(&mut self, board: &Board, received: Instant) -> DuelMove;
    /// A move was played (by either side), before it is applied to `board`.
    fn observe(&mut self, _board: &Board, _mv: DuelMove) {}
    /// The opponent is choosing its move at `board`: the agent may think until `stop` is
    /// raised (the move has arrived), and must then return at once; a search given `stop` in
    /// its [`Limits`] does. Called only where the input can tell ([`run_agent_with`]).
    fn ponder(&mut self, _board: &Board, _stop: &StopFlag) {}
}

/// Uniformly random legal moves (the course's `easy`).
pub struct RandomAgent {
    rng: ChaCha8Rng,
}

impl RandomAgent {
    /// A random agent, deterministic for `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        RandomAgent {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Agent for RandomAgent {
    fn choose(&mut self, board: &Board, _: Instant) -> DuelMove {
        let moves = board.moves();
        moves[self.rng.random_range(0..moves.len())]
    }
}

/// Fixed-depth negamax alpha-beta over the known dice with the course's leaf value (the
/// course's `normal` is depth 2, `hard` depth 8). Like the baselines, it plays the first
/// diagonal move when every move loses. With `strong`, it adds iterative deepening, a
/// transposition table and table-move ordering (same depth, fewer nodes).
pub struct AlphaBetaAgent {
    depth: u32,
    eval: Eval,
    table: Option<TranspositionTable<DuelMove>>,
    move_time: Option<Duration>,
}

impl AlphaBetaAgent {
    /// An agent searching `depth` plies.
    #[must_use]
    pub fn new(depth: u32, strong: bool) -> Self {
        AlphaBetaAgent {
            depth: depth.max(1),
            eval: Eval::Course,
            table: strong.then(|| TranspositionTable::new(20)),
            move_time: None,
        }
    }

    /// The timed alpha-beta: iterative deepening with the table and table-move
    /// ordering, as deep as `move_time` (counted from the opponent's move) allows.
    #[must_use]
    pub fn timed(move_time: Duration) -> Self {
        AlphaBetaAgent {
            depth: TIMED_MAX_DEPTH,
            eval: Eval::Course,
            table: Some(TranspositionTable::new(20)),
            move_time: Some(move_time),
        }
    }

    /// The same agent valuing leaves with `eval` (the course's by default).
    #[must_use]
    pub fn with_eval(mut self, eval: Eval) -> Self {
        self.eval = eval;
        self
    }

    /// The move for `board` searched until `deadline` (depth 1 always completes); the value
    /// and the deepest depth completed.
    pub fn search_until(&mut self, board: &Board, deadline: Instant) -> (DuelMove, i32, u32) {
        self.search_by(board, Some(deadline))
    }

    /// [`AlphaBetaAgent::search_until`], without a deadline when there is none.
    fn search_by(&mut self, board: &Board, deadline: Option<Instant>) -> (DuelMove, i32, u32) {
        let mut board = board.clone();
        let table = self
            .table
            .get_or_insert_with(|| TranspositionTable::new(20));
        table.clear();
        let result = Searcher::new(self.eval.value())
            .with_table(table)
            .with_limits(&limits_until(deadline))
            .iterative(&mut board, self.depth);
        let moves = board.moves();
        let best = result.best.unwrap_or(moves[0]);
        (best, result.value, result.depth)
    }

    /// The move and its value for `board` (whose side to move is this agent).
    pub fn search(&mut self, board: &Board) -> (DuelMove, i32) {
        let mut board = board.clone();
        let result = match &mut self.table {
            None => alpha_beta(&mut board, self.depth, self.eval.value()),
            Some(table) => {
                table.clear();
                let mut searcher = Searcher::new(self.eval.value()).with_table(table);
                searcher.iterative(&mut board, self.depth)
            }
        };
        let moves = board.moves();
        let best = result.best.unwrap_or(moves[0]);
        if result.value <= -WIN
            && let Some(&diagonal) = moves.iter().find(|m| m.dir == 2)
        {
            return (diagonal, result.value);
        }
        (best, result.value)
    }
}

/// The deepest a timed search goes (games are far shorter).
const TIMED_MAX_DEPTH: u32 = 64;

impl Agent for AlphaBetaAgent {
    fn choose(&mut self, board: &Board, received: Instant) -> DuelMove {
        match self.move_time {
            Some(time) => self.search_by(board, deadline_after(received, time)).0,
            None => self.search(board).0,
        }
    }
}

/// Why an agent stopped.
#[derive(Debug, Error)]
pub enum AgentError {
    /// Reading or writing failed.
    #[error(transparent)]
    Io(#[from] io::Error),
    /// The host broke the protocol.
    #[error(transparent)]
    Protocol(#[from] ProtocolError),
    /// The host sent an illegal move.
    #[error("the host sent the illegal move {mv}: {why}")]
    Illegal {
        /// The move.
        mv: DuelMove,
        /// Why it is illegal.
        why: crate::duel::rules::DuelError,
    },
}

/// Reads protocol characters one at a time, skipping whitespace (the course's host sends
/// none, but a human typing at a terminal does).
struct Chars<R: Read> {
    input: R,
    /// The earliest instant the message being read can have been sent: when the agent last
    /// waited for input (the message came then), or last wrote (the host answers only
    /// after). A message that was already waiting when the agent came to read it, because
    /// the agent was busy (starting up, clearing its tables for a new game), was sent no
    /// earlier than this, and the host's clock for it has run since.
    since: Instant,
}

/// A read that takes longer than this waited for its input.
const WAITED: Duration = Duration::from_millis(1);

impl<R: Read> Chars<R> {
    fn next(&mut self) -> io::Result<Option<u8>> {
        let mut byte = [0u8];
        loop {
            let asked = Instant::now();
            let read = self.input.read(&mut byte);
            if asked.elapsed() > WAITED {
                self.since = Instant::now();
            }
            match read {
                Ok(0) => return Ok(None),
                Ok(_) if byte[0].is_ascii_whitespace() => {}
                Ok(_) => return Ok(Some(byte[0])),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }

    fn exact<const N: usize>(&mut self, what: &'static str) -> Result<[u8; N], AgentError> {
        let mut out = [0u8; N];
        for slot in &mut out {
            *slot = self.next()?.ok_or(ProtocolError::Truncated(what))?;
        }
        Ok(out)
    }
}

/// Plays games over the protocol until the host says `n` or closes the input; returns the
/// number of games played. The clock of red's first move of the first game starts now
/// ([`run_agent_since`] takes an earlier start).
///
/// # Errors
/// [`AgentError`] when the host breaks the protocol or the pipes fail.
pub fn run_agent(
    agent: &mut dyn Agent,
    input: impl Read,
    output: impl Write,
) -> Result<u32, AgentError> {
    run_agent_since(agent, Instant::now(), input, output)
}

/// [`run_agent`] for an agent process that started at `started`. Each move is timed from
/// the arrival of the message that asked for it (the setup for red's first move, else the
/// opponent's move), as the host times it from sending that message. A message that was
/// already waiting when the agent came to read it (the agent was still starting up, or
/// clearing its tables for a new game) is timed from the earliest instant it can have been
/// sent: the agent's last wait for input, its last move written, or, before either,
/// `started`: a host starts an agent and sends it the first setup at once.
///
/// # Errors
/// [`AgentError`] when the host breaks the protocol or the pipes fail.
pub fn run_agent_since(
    agent: &mut dyn Agent,
    started: Instant,
    input: impl Read,
    output: impl Write,
) -> Result<u32, AgentError> {
    run_agent_with(agent, started, input, output, &|| false)
}

/// [`run_agent_since`] where `waiting()` tells whether the opponent's move is still to come
/// (no input ready): the agent ponders ([`Agent::ponder`]) while it is, and a move that
/// arrived during the pondering is timed from the last instant `waiting()` found no input.
/// While the agent ponders, `waiting()` is asked every millisecond on a thread of its own.
///
/// # Errors
/// [`AgentError`] when the host breaks the protocol or the pipes fail.
pub fn run_agent_with(
    agent: &mut dyn Agent,
    started: Instant,
    input: impl Read,
    mut output: impl Write,
    waiting: &(dyn Fn() -> bool + Sync),
) -> Result<u32, AgentError> {
    let mut chars = Chars {
        input,
        since: started,
    };
    let mut games = 0;
    loop {
        let Some(first) = chars.next()? else {
            return Ok(games);
        };
        let mut received = chars.since;
        let mut text = [0u8; 12 + DICE];
        text[0] = first;
        let rest: [u8; 11 + DICE] = chars.exact("the game setup")?;
        text[1..].copy_from_slice(&rest);
        let setup = Setup::decode(&text)?;
        let [role] = chars.exact::<1>("the game setup")?;
        let me = match role {
            b'f' => Color::Red,
            b's' => Color::Blue,
            c => {
                return Err(ProtocolError::Unexpected {
                    found: char::from(c),
                    expected: "'f' or 's'",
                }
                .into());
            }
        };
        let mut board = setup.board().map_err(ProtocolError::Setup)?;
        agent.new_game(&board, me);
        while board.winner().is_none() {
            let mv = if board.to_move() == me {
                let mv = agent.choose(&board, received);
                output.write_all(&encode_move(mv))?;
                output.flush()?;
                chars.since = Instant::now();
                mv
            } else {
                if waiting() {
                    // The move cannot have come before the last look that found no input.
                    chars.since = ponder_until_input(agent, &board, waiting);
                }
                // A host that is gone (the end of the input where a move would start) ends
                // the games, as the course's host does after the last one.
                let Some(first) = chars.next()? else {
                    return Ok(games);
                };
                received = chars.since;
                let [second] = chars.exact::<1>("a move")?;
                let text = [first, second];
                let mv = parse_move(text)?;
                board
                    .check(mv)
                    .map_err(|why| AgentError::Illegal { mv, why })?;
                mv
            };
            agent.observe(&board, mv);
            board.play(mv);
        }
        games += 1;
        match chars.next()? {
            Some(b'y') => {}
            Some(b'n') | None => return Ok(games),
            Some(c) => {
                return Err(ProtocolError::Unexpected {
                    found: char::from(c),
                    expected: "'y' or 'n' after a game",
                }
                .into());
            }
        }
    }
}

/// How often [`run_agent_with`] looks for the opponent's move while the agent ponders: often
/// enough that the move's clock, which starts at the last look that found nothing, loses
/// little, and seldom enough that looking costs nothing beside the search.
const INPUT_LOOK: Duration = Duration::from_millis(1);

/// Lets `agent` ponder at `board` until it is done or the opponent's move arrives: a thread
/// asks `waiting()` every [`INPUT_LOOK`] and raises the agent's [`StopFlag`] once there is
/// input, so that the search looks at a flag (one load) and never at the input itself (a
/// system call). Returns the last instant `waiting()` found no input, the earliest the move
/// can have come.
fn ponder_until_input(
    agent: &mut dyn Agent,
    board: &Board,
    waiting: &(dyn Fn() -> bool + Sync),
) -> Instant {
    let arrived = StopFlag::new();
    let pondered = AtomicBool::new(false);
    // The caller's look found no input just now.
    let first_look = Instant::now();
    std::thread::scope(|scope| {
        let watcher = scope.spawn(|| {
            let mut looked = first_look;
            while !pondered.load(Ordering::Relaxed) {
                if !waiting() {
                    arrived.stop();
                    break;
                }
                looked = Instant::now();
                std::thread::park_timeout(INPUT_LOOK);
            }
            looked
        });
        {
            // Even if the agent panics, the watcher must end for the scope to.
            let _done = Finished {
                pondered: &pondered,
                watcher: watcher.thread(),
            };
            agent.ponder(board, &arrived);
        }
        watcher.join().unwrap_or(first_look)
    })
}

/// Tells the thread watching the input that the agent is done pondering, when dropped.
struct Finished<'a> {
    pondered: &'a AtomicBool,
    watcher: &'a std::thread::Thread,
}

impl Drop for Finished<'_> {
    fn drop(&mut self) {
        self.pondered.store(true, Ordering::Relaxed);
        self.watcher.unpark();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn races_follow_the_dice() {
        // Red's cube 0 two steps from its corner (cell 41), cube 5 one step away; blue's
        // only cube three steps from its corner (cell 0). Red's dice on its plies 0, 2, 4:
        // 0, 0, 5: cube 0 needs two turns; the die 5 would have taken one.
        let mut dice = [1; DICE];
        (dice[0], dice[2], dice[4]) = (0, 0, 5);
        let red_cells = [Some(27), None, None, None, None, Some(33)];
        let board = Board::from_cubes(red_cells, [Some(21), None, None, None, None, None], dice, 0)
            .unwrap();
        assert_eq!(race_turns(&board, Color::Red, 0), 2);
        // Blue alone (die 1 every turn: its cube 0 is the nearest living one) needs three.
        assert_eq!(race_turns(&board, Color::Blue, 1), 3);
        assert!(race_value(&board) > 0);
        // With the die 5 first, red's cube 5 gets there at once.
        dice[0] = 5;
        let board = Board::from_cubes(red_cells, [Some(21), None, None, None, None, None], dice, 0)
            .unwrap();
        assert_eq!(race_turns(&board, Color::Red, 0), 1);
    }

    #[test]
    fn agents_think_within_the_hosts_limit_less_a_margin() {
        let ms = Duration::from_millis;
        // The course's 2 s: the 1.8 s its agents think by default.
        assert_eq!(thinking_time(ms(2000)), ms(1800));
        assert_eq!(thinking_time(ms(1800)), ms(1620));
        // At least 20 ms of margin, at most 0.5 s, never more than half the limit.
        assert_eq!(thinking_time(ms(100)), ms(80));
        assert_eq!(thinking_time(ms(60_000)), ms(59_500));
        assert_eq!(thinking_time(ms(30)), ms(15));
        // A move time the clock cannot reach is no deadline, not a panic.
        let now = Instant::now();
        assert_eq!(deadline_after(now, Duration::from_secs(u64::MAX)), None);
        assert_eq!(deadline_after(now, ms(5)), Some(now + ms(5)));
    }

    fn setup() -> Setup {
        Setup {
            red: [0, 1, 2, 3, 4, 5],
            blue: [5, 4, 3, 2, 1, 0],
            dice: [
                3, 4, 3, 2, 4, 2, 4, 0, 4, 0, 3, 1, 2, 4, 1, 1, 5, 2, 0, 4, 2,
            ],
        }
    }

    /// Plays a game between two agents in process, returning the winner and the moves.
    fn duel(red: &mut dyn Agent, blue: &mut dyn Agent, setup: &Setup) -> (Color, Vec<DuelMove>) {
        let mut board = setup.board().unwrap();
        red.new_game(&board, Color::Red);
        blue.new_game(&board, Color::Blue);
        let mut moves = Vec::new();
        while board.winner().is_none() {
            let mover: &mut dyn Agent = if board.to_move() == Color::Red {
                &mut *red
            } else {
                &mut *blue
            };
            let mv = mover.choose(&board, Instant::now());
            board.play_checked(mv).unwrap();
            moves.push(mv);
        }
        (board.winner().unwrap(), moves)
    }

    /// An agent that is slow to start a game and records the turns' start instants.
    struct Slow {
        ready: Option<Instant>,
        turns: Vec<Instant>,
    }

    impl Agent for Slow {
        fn new_game(&mut self, _: &Board, _: Color) {
            std::thread::sleep(Duration::from_millis(30));
            self.ready = Some(Instant::now());
        }

        fn choose(&mut self, board: &Board, received: Instant) -> DuelMove {
            self.turns.push(received);
            board.moves()[0]
        }
    }

    #[test]
    fn a_move_that_waited_while_the_agent_was_busy_is_timed_from_before() {
        // Blue: red's move is already in the input when the agent, slow to start the game,
        // comes to read it. The host has been counting since it sent the move, so the agent's
        // clock must start no later than the game's start (here: the agent's own start).
        let setup = setup();
        let red = setup.board().unwrap().moves()[0];
        let host = format!("{}s{red}", setup.encode());
        let started = Instant::now();
        let mut agent = Slow {
            ready: None,
            turns: Vec::new(),
        };
        run_agent_since(&mut agent, started, host.as_bytes(), &mut Vec::new()).unwrap();
        let ready = agent.ready.unwrap();
        assert_eq!(agent.turns.len(), 1);
        assert!(agent.turns[0] < ready, "timed from before the game's start");
        assert!(agent.turns[0] >= started);
    }

    /// An agent that ponders until told to stop (ten seconds at the most), noting how many
    /// looks at the input had been made when it saw the flag.
    struct Ponderer<'a> {
        looks: &'a AtomicUsize,
        stopped_at: Vec<usize>,
        turns: Vec<Instant>,
        saw_the_flag: Option<Instant>,
    }

    impl Agent for Ponderer<'_> {
        fn choose(&mut self, board: &Board, received: Instant) -> DuelMove {
            self.turns.push(received);
            board.moves()[0]
        }

        fn ponder(&mut self, _: &Board, stop: &StopFlag) {
            let cap = Instant::now() + Duration::from_secs(10);
            while !stop.is_stopped() && Instant::now() < cap {
                std::thread::sleep(Duration::from_micros(100));
            }
            self.saw_the_flag = Some(Instant::now());
            self.stopped_at.push(self.looks.load(Ordering::SeqCst));
        }
    }

    #[test]
    fn pondering_ends_when_the_move_arrives() {
        // Blue ponders while red's move is awaited; it "arrives" on the fifth look.
        let setup = setup();
        let red = setup.board().unwrap().moves()[0];
        let host = format!("{}s{red}", setup.encode());
        let looks = AtomicUsize::new(0);
        let waiting = || looks.fetch_add(1, Ordering::SeqCst) + 1 < 5;
        let mut agent = Ponderer {
            looks: &looks,
            stopped_at: Vec::new(),
            turns: Vec::new(),
            saw_the_flag: None,
        };
        let started = Instant::now();
        run_agent_with(
            &mut agent,
            started,
            host.as_bytes(),
            &mut Vec::new(),
            &waiting,
        )
        .unwrap();
        assert_eq!(
            agent.stopped_at,
            [5],
            "stopped at the first look after the arrival"
        );
        // The move is timed from the last look that found no input, before the flag.
        assert_eq!(agent.turns.len(), 1);
        assert!(agent.turns[0] >= started);
        assert!(agent.turns[0] < agent.saw_the_flag.unwrap());
    }

    #[test]
    fn an_agent_that_does_not_ponder_is_not_held_up() {
        let setup = setup();
        let red = setup.board().unwrap().moves()[0];
        let host = format!("{}s{red}", setup.encode());
        let mut agent = RandomAgent::new(1);
        let games = run_agent_with(
            &mut agent,
            Instant::now(),
            host.as_bytes(),
            &mut Vec::new(),
            &|| true,
        );
        assert_eq!(games.unwrap(), 0, "the host left mid-game");
    }

    #[test]
    fn strong_search_agrees_with_plain_search_on_values() {
        let mut board = setup().board().unwrap();
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for _ in 0..12 {
            if board.winner().is_some() {
                break;
            }
            let mut plain = AlphaBetaAgent::new(5, false);
            let mut strong = AlphaBetaAgent::new(5, true);
            assert_eq!(plain.search(&board).1, strong.search(&board).1);
            let moves = board.moves();
            board.play(moves[rng.random_range(0..moves.len())]);
        }
    }

    #[test]
    fn depth_eight_beats_random() {
        let lines = include_str!("../../../../../data/ewn-duel/dice_seq.txt");
        let mut wins = 0;
        for (game, line) in lines.lines().take(20).enumerate() {
            let digits: Vec<u8> = line
                .split_whitespace()
                .map(|d| d.parse().unwrap())
                .collect();
            let setup = Setup {
                dice: digits.try_into().unwrap(),
                ..setup()
            };
            let mut random = RandomAgent::new(game as u64);
            let mut ab = AlphaBetaAgent::new(8, game % 4 < 2);
            let (winner, _) = if game % 2 == 0 {
                duel(&mut ab, &mut random, &setup)
            } else {
                duel(&mut random, &mut ab, &setup)
            };
            let ab_color = if game % 2 == 0 {
                Color::Red
            } else {
                Color::Blue
            };
            wins += u32::from(winner == ab_color);
        }
        assert!(wins >= 18, "{wins} of 20");
    }

    #[test]
    fn speaks_the_protocol() {
        // Two games: in the first the agent is blue and answers red's moves.
        let setup = setup();
        let board = setup.board().unwrap();
        // Red's first move from the host: die 3, cube 3 on cell 7: right.
        let first = board.moves()[0];
        let host = format!("{} s{}", setup.encode(), first);
        let mut out = Vec::new();
        let mut agent = RandomAgent::new(1);
        // The host leaves where the next move would start: the games end, no error.
        assert_eq!(run_agent(&mut agent, host.as_bytes(), &mut out).unwrap(), 0);
        assert_eq!(out.len(), 2, "one reply before the input ran out");
        // Half a move is a broken protocol.
        let cut = format!("{host}{}", char::from(out[0]));
        let err = run_agent(&mut agent, cut.as_bytes(), &mut Vec::new()).unwrap_err();
        assert!(
            matches!(
                err,
                AgentError::Protocol(ProtocolError::Truncated("a move"))
            ),
            "{err}"
        );
        let mut after = board.clone();
        after.play(first);
        assert!(after.check(parse_move([out[0], out[1]]).unwrap()).is_ok());
        // An illegal move from the host is named.
        let host = format!("{}s99", setup.encode());
        assert!(run_agent(&mut agent, host.as_bytes(), &mut Vec::new()).is_err());
        // End of input before a game: zero games, no error.
        assert_eq!(run_agent(&mut agent, &b""[..], &mut Vec::new()).unwrap(), 0);
    }
}
