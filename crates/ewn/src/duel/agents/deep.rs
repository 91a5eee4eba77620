//! ply's strongest duel agent: proofs first (df-pn over the known dice), deep alpha-beta for
//! the positions not yet proven.

use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use ply_search::{AlphaBetaResult, Limits, Searcher, StopFlag, TranspositionTable, is_proven};

use super::agent::{Agent, deadline_after, limits_until, race_value};
use crate::duel::prover::{Proof, Prover};
use crate::duel::rules::{Board, Color, DICE, DuelMove};

/// log2 of the alpha-beta table's entries: 4 M entries, about 100 MB (the course allows 1 GiB).
const TABLE_BITS: u32 = 22;

/// log2 of the prover's table slots: 8 M slots of 24 bytes, 192 MiB.
const PROVER_BITS: u32 = 23;

/// The deepest the search goes (games are far shorter).
const MAX_DEPTH: u32 = 128;

/// The share of a move's time the prover gets before alpha-beta takes the rest.
const PROVE_SHARE: f64 = 0.4;

/// The longest the agent ponders on one of the opponent's moves (a human may take minutes).
const PONDER_CAP: Duration = Duration::from_secs(30);

/// How a move was chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    /// The move.
    pub mv: DuelMove,
    /// `Some(true)`: the prover holds the position won for the agent (the move keeps the
    /// win); `Some(false)`: lost against every defence; `None`: not proven.
    pub proven: Option<bool>,
    /// Alpha-beta's value for the agent (0 when a proof chose the move).
    pub value: i32,
    /// Alpha-beta's deepest complete depth (0 when a proof chose the move).
    pub depth: u32,
}

/// The agent: a position the prover holds as won is answered with its proven move at once;
/// otherwise the prover (df-pn, [`Prover`]) gets a share of the move's time, and a proven win
/// is played; otherwise iterative-deepening alpha-beta with the race evaluation
/// ([`race_value`]), wins and losses valued by their distance (the quickest win; when lost,
/// the longest resistance), PVS and killer moves, chooses within the rest. Both tables are
/// kept for the whole game (positions recur from move to move): the alpha-beta table is
/// cleared when the dice change, the prover's keeps each dice line apart. While the opponent
/// thinks (where the protocol's input can tell when its move arrives), the prover works on
/// the position the opponent must answer.
pub struct DeepAgent {
    move_time: Duration,
    table: TranspositionTable<DuelMove>,
    dice: Option<[u8; DICE]>,
    /// The prover, once its table is filled.
    prover: Option<Prover>,
    /// The thread filling the prover's table (hundreds of MB, most of a second in a debug
    /// build), so that the first move, which a host times from the agent's start, is not
    /// late: alpha-beta alone answers until the prover is ready.
    building: Option<JoinHandle<Prover>>,
    ponder: bool,
}

impl DeepAgent {
    /// An agent that answers within `move_time` of the opponent's move.
    #[must_use]
    pub fn new(move_time: Duration) -> Self {
        DeepAgent {
            move_time,
            table: TranspositionTable::new(TABLE_BITS),
            dice: None,
            prover: None,
            building: std::thread::Builder::new()
                .name("prover table".into())
                .spawn(|| Prover::new(PROVER_BITS))
                .ok(),
            ponder: true,
        }
    }

    /// The prover, waiting for its table if it is still being filled.
    fn prover_now(&mut self) -> &mut Prover {
        if let Some(building) = self.building.take() {
            // The thread only allocates: if it failed, so would this, but try once more.
            self.prover = Some(building.join().unwrap_or_else(|_| Prover::new(PROVER_BITS)));
        }
        self.prover.get_or_insert_with(|| Prover::new(PROVER_BITS))
    }

    /// The prover if its table is ready.
    fn prover_if_ready(&mut self) -> Option<&mut Prover> {
        if self.building.as_ref().is_some_and(JoinHandle::is_finished) || self.prover.is_some() {
            return Some(self.prover_now());
        }
        None
    }

    /// The same agent, thinking during the opponent's time or not.
    #[must_use]
    pub fn with_ponder(mut self, ponder: bool) -> Self {
        self.ponder = ponder;
        self
    }

    /// The time per move.
    #[must_use]
    pub fn move_time(&self) -> Duration {
        self.move_time
    }

    /// Proves, as the agent does in its own and the opponent's time, whether `me` wins from
    /// `board` within `limits`; what is proven stays in the agent's table for the game.
    pub fn prove(&mut self, board: &Board, me: Color, limits: &Limits) -> Proof {
        self.prover_now().prove_for(board, me, limits)
    }

    /// The move for `board` searched by alpha-beta until `deadline` (depth 1 always
    /// completes); its value for the side to move and the deepest depth completed.
    pub fn search_until(&mut self, board: &Board, deadline: Instant) -> (DuelMove, i32, u32) {
        self.search_by(board, Some(deadline))
    }

    /// The answer to the turn that began at `received`: the move searched for the agent's
    /// move time from then (with no deadline when the clock cannot represent its end), its
    /// value and the deepest depth completed.
    pub fn answer(&mut self, board: &Board, received: Instant) -> (DuelMove, i32, u32) {
        self.search_by(board, deadline_after(received, self.move_time))
    }

    /// The agent's search of `board` to `depth` plies at most, with no deadline (it stops
    /// early only on a proven result), and the table kept as in a game: the same search a
    /// move runs, to a fixed depth, for analysis and for node-count signatures.
    pub fn search_depth(&mut self, board: &Board, depth: u32) -> AlphaBetaResult<DuelMove> {
        self.search(board, depth, None)
    }

    fn search_by(&mut self, board: &Board, deadline: Option<Instant>) -> (DuelMove, i32, u32) {
        let result = self.search(board, MAX_DEPTH, deadline);
        let best = result.best.unwrap_or_else(|| board.moves()[0]);
        (best, result.value, result.depth)
    }

    fn search(
        &mut self,
        board: &Board,
        depth: u32,
        deadline: Option<Instant>,
    ) -> AlphaBetaResult<DuelMove> {
        if self.dice != Some(*board.dice()) {
            self.table.clear();
            self.dice = Some(*board.dice());
        }
        let mut board = board.clone();
        Searcher::new(race_value)
            .with_table(&mut self.table)
            .with_mate_distance()
            .with_pvs()
            .with_killers()
            .with_limits(&limits_until(deadline))
            .iterative(&mut board, depth)
    }

    /// The move for `board` (the agent to move), the turn having begun at `received`: a
    /// proven move if the prover holds or finds one in its share of the time, else
    /// alpha-beta's by `received` + the move time (alpha-beta's alone while the prover's
    /// table is still being filled).
    pub fn decide(&mut self, board: &Board, received: Instant) -> Decision {
        let me = board.to_move();
        let proven = |mv| Decision {
            mv,
            proven: Some(true),
            value: 0,
            depth: 0,
        };
        let share = self.move_time.mul_f64(PROVE_SHARE);
        let mut winner = None;
        if let Some(prover) = self.prover_if_ready() {
            // A win is in the table under either attacker: proven by the agent (itself the
            // attacker) or refuted while the opponent attacked (pondering, or a proof of the
            // start).
            for attacker in [me, me.other()] {
                if let Some(mv) = prover.known_move(board, attacker) {
                    return proven(mv);
                }
            }
            let until = deadline_after(received, share);
            let proof = prover.prove_for(board, me, &limits_until(until));
            if proof.winner == Some(me)
                && let Some(mv) = proof.best
            {
                return proven(mv);
            }
            winner = proof.winner;
        }
        let (mv, value, depth) = self.answer(board, received);
        Decision {
            mv,
            // Alpha-beta may prove too (wins and losses by distance).
            proven: winner
                .map(|w| w == me)
                .or_else(|| is_proven(value).then_some(value > 0)),
            value,
            depth,
        }
    }
}

impl Agent for DeepAgent {
    fn new_game(&mut self, _board: &Board, _me: Color) {
        self.table.clear();
        self.dice = None;
    }

    fn choose(&mut self, board: &Board, received: Instant) -> DuelMove {
        self.decide(board, received).mv
    }

    fn ponder(&mut self, board: &Board, stop: &StopFlag) {
        if !self.ponder || board.winner().is_some() {
            return;
        }
        let me = board.to_move().other();
        let limits = Limits::default()
            .with_max_time(PONDER_CAP)
            .with_stop(stop.clone());
        // The opponent's time: waiting here for the prover's table costs no move time.
        let prover = self.prover_now();
        // On a thread of the idle class, so that pondering only takes time no one else
        // wants: an opponent on the same machine (a referee running both agents, a
        // tournament running games side by side) is never slowed by it.
        std::thread::scope(|scope| {
            // No thread to be had: no pondering, which costs only strength.
            let _ = std::thread::Builder::new()
                .name("ponder".into())
                .spawn_scoped(scope, || {
                    idle_priority();
                    prover.prove_for(board, me, &limits);
                });
        });
    }
}

/// Moves the calling thread to the idle scheduling class (Linux's `SCHED_IDLE`: it runs only
/// on a core no other thread wants), or, where that is refused, to the weakest niceness.
/// Both only lower the thread's claim, which any process may do; elsewhere, nothing.
#[allow(unsafe_code)]
fn idle_priority() {
    #[cfg(target_os = "linux")]
    {
        use nix::libc;
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: `sched_setscheduler` reads the parameter it is given, which lives across
        // the call; pid 0 names the calling thread. `setpriority` takes plain integers.
        let idle = unsafe { libc::sched_setscheduler(0, libc::SCHED_IDLE, &raw const param) };
        if idle != 0 {
            // SAFETY: as above; `gettid` names this thread, whose niceness alone changes.
            unsafe {
                libc::setpriority(libc::PRIO_PROCESS, libc::gettid() as libc::id_t, 19);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_search::{WIN, is_proven};

    /// Red to move with die 5: cube 5 on cell 33 reaches the corner 41 diagonally; cube 0
    /// could also run, slower.
    fn near_win() -> Board {
        let mut dice = [0; DICE];
        dice[0] = 5;
        Board::from_cubes(
            [Some(20), None, None, None, None, Some(33)],
            [Some(21), Some(22), None, None, None, None],
            dice,
            0,
        )
        .unwrap()
    }

    #[test]
    fn plays_a_won_game_at_once() {
        let board = near_win();
        let mut agent = DeepAgent::new(Duration::from_secs(60));
        // A proven result ends the search long before the deadline.
        let (mv, value, _) = agent.search_until(&board, Instant::now() + Duration::from_secs(60));
        assert_eq!(mv, DuelMove { cube: 5, dir: 2 });
        assert_eq!(value, WIN - 1);
        assert!(is_proven(value));
    }

    /// The course's first dice line.
    const DICE_LINE: [u8; DICE] = [
        3, 4, 3, 2, 4, 2, 4, 0, 4, 0, 3, 1, 2, 4, 1, 1, 5, 2, 0, 4, 2,
    ];

    #[test]
    fn a_proven_win_is_never_let_go() {
        // Two starts of the line, one won by each side, proven within a fixed budget; the
        // winner then plays them against random defenders and against a timed alpha-beta.
        let starts = [
            ([2, 3, 0, 1, 5, 4], [4, 3, 2, 1, 5, 0]),
            ([5, 4, 2, 0, 1, 3], [5, 2, 0, 4, 3, 1]),
        ];
        let mut winners = Vec::new();
        for (red, blue) in starts {
            let board = Board::new(red, blue, DICE_LINE).unwrap();
            let mut agent = DeepAgent::new(Duration::from_secs(10)).with_ponder(false);
            let proof = agent.prove(
                &board,
                Color::Red,
                &Limits::default().with_max_nodes(2_000_000),
            );
            let winner = proof.winner.expect("the start is proven");
            winners.push(winner);
            agent.new_game(&board, winner);
            for game in 0..6u64 {
                let mut defender: Box<dyn Agent> = if game < 5 {
                    Box::new(crate::duel::agents::RandomAgent::new(game))
                } else {
                    Box::new(crate::duel::agents::AlphaBetaAgent::timed(
                        Duration::from_millis(50),
                    ))
                };
                let mut board = board.clone();
                while board.winner().is_none() {
                    let mv = if board.to_move() == winner {
                        let decision = agent.decide(&board, Instant::now());
                        assert_eq!(decision.proven, Some(true), "game {game}: a proven move");
                        decision.mv
                    } else {
                        defender.choose(&board, Instant::now())
                    };
                    board.play_checked(mv).unwrap();
                }
                assert_eq!(board.winner(), Some(winner), "game {game}");
            }
        }
        assert_eq!(
            winners,
            [Color::Blue, Color::Red],
            "one start won by each side"
        );
    }

    /// A pondering thread asks only for what no one else wants: the idle class (policy 5 in
    /// field 41 of `/proc/thread-self/stat`), or failing that niceness 19 (field 19).
    #[cfg(target_os = "linux")]
    #[test]
    fn pondering_threads_take_the_idle_class() {
        let fields = || {
            let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
            // The name, in parentheses, may hold spaces: count fields after it (field 3 on).
            let rest = &stat[stat.rfind(')').unwrap() + 2..];
            let fields: Vec<i64> = rest
                .split_whitespace()
                .skip(1)
                .map(|f| f.parse().unwrap_or(-1))
                .collect();
            (fields[41 - 4], fields[19 - 4])
        };
        let parent = fields();
        let (before, after) = std::thread::spawn(move || {
            let before = fields();
            idle_priority();
            (before, fields())
        })
        .join()
        .unwrap();
        assert_eq!(
            before, parent,
            "a new thread starts as the thread that made it"
        );
        assert!(after.0 == 5 || after.1 == 19, "{after:?}");
        // The thread that made it is untouched.
        assert_eq!(fields(), parent);
    }

    #[test]
    fn pondering_ends_when_the_move_arrives() {
        let board = Board::new([3, 1, 4, 2, 5, 0], [2, 0, 3, 1, 4, 5], DICE_LINE).unwrap();
        let mut agent = DeepAgent::new(Duration::from_secs(1));
        // The move "arrives" a moment into the pondering, which then ends long before its
        // cap: the prover looks at the flag every few thousand positions.
        let arrived = StopFlag::new();
        let began = Instant::now();
        std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(Duration::from_millis(50));
                arrived.stop();
            });
            agent.ponder(&board, &arrived);
        });
        assert!(began.elapsed() < PONDER_CAP / 2, "{:?}", began.elapsed());
        // A move there already, or no pondering at all: it returns at once.
        let began = Instant::now();
        agent.ponder(&board, &arrived);
        let mut quiet = DeepAgent::new(Duration::from_secs(1)).with_ponder(false);
        quiet.ponder(&board, &StopFlag::new());
        assert!(began.elapsed() < PONDER_CAP / 2, "{:?}", began.elapsed());
    }

    #[test]
    fn a_new_dice_line_is_not_answered_from_the_old_table() {
        // Two lines that differ in red's second die only: the positions after the first two
        // plies are the same cubes at the same ply, with other futures. The hash does not
        // hold the dice, so a table kept across lines would answer with the first's values.
        let line = |second: u8| {
            let mut dice = [0; DICE];
            dice[2] = second;
            Board::from_cubes(
                [Some(20), None, None, None, None, Some(33)],
                [Some(21), Some(22), None, None, None, None],
                dice,
                0,
            )
            .unwrap()
        };
        let soon = || Instant::now() + Duration::from_secs(60);
        let mut agent = DeepAgent::new(Duration::from_secs(60));
        agent.search_until(&line(0), soon());
        let (_, reused, _) = agent.search_until(&line(5), soon());
        let (_, fresh, _) = DeepAgent::new(Duration::from_secs(60)).search_until(&line(5), soon());
        assert!(is_proven(fresh), "the small position is solved");
        assert_eq!(reused, fresh);
    }
}
