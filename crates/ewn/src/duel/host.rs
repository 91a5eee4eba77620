//! The referee: runs games between two players, enforces the rules and the move time, and
//! survives any agent (slow, silent, dead, or writing garbage).

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use nix::sys::signal::{Signal, killpg};
use nix::unistd::Pid;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::protocol::{Setup, encode_move, parse_move, role_char};
use super::rules::{Board, Color, DICE, DuelMove};

/// Why a player lost a game without the rules deciding it.
#[derive(Clone, Debug, PartialEq, Error, Serialize, Deserialize)]
pub enum Forfeit {
    /// No complete move within the move time.
    #[error("no move within {0:.1} s")]
    Timeout(f64),
    /// Characters that are not a move.
    #[error("malformed move: {0}")]
    Malformed(String),
    /// A well-formed move the rules forbid.
    #[error("illegal move {mv}: {why}")]
    Illegal {
        /// The move as sent.
        mv: String,
        /// The rule it breaks.
        why: String,
    },
    /// The player closed its output or exited.
    #[error("closed its output ({0})")]
    Closed(String),
    /// The host could not write to the player (it no longer reads).
    #[error("stopped reading its input")]
    Unreachable,
    /// The player could not be started.
    #[error("could not be started: {0}")]
    Unstartable(String),
}

/// One side of a game, as the referee sees it.
pub trait Player {
    /// A name for tables and logs.
    fn name(&self) -> &str;
    /// Sends the setup and role of a new game.
    ///
    /// # Errors
    /// A [`Forfeit`] when the player cannot be reached.
    fn start_game(&mut self, setup: &Setup, color: Color) -> Result<(), Forfeit>;
    /// Waits for the player's move, at most `limit` after the last message sent to it.
    /// Returns the move and the time it took.
    ///
    /// # Errors
    /// A [`Forfeit`] for a timeout, malformed output or a dead player.
    fn request_move(
        &mut self,
        board: &Board,
        limit: Duration,
    ) -> Result<(Option<DuelMove>, Duration), Forfeit>;
    /// Forwards the opponent's move.
    ///
    /// # Errors
    /// A [`Forfeit`] when the player cannot be reached.
    fn tell(&mut self, mv: Option<DuelMove>) -> Result<(), Forfeit>;
    /// Tells the player whether another game follows (after a game decided by the rules).
    fn end_game(&mut self, more: bool);
    /// Stops the player (it is started afresh for the next game, if any).
    fn reset(&mut self);
}

/// A byte from an agent's output, or the end of it.
enum Output {
    Byte(u8),
    End(String),
}

/// An agent process speaking the protocol on its stdin/stdout, started with `sh -c` in a
/// process group of its own so that everything it spawned can be killed together.
pub struct ProcessPlayer {
    name: String,
    command: String,
    running: Option<Running>,
}

struct Running {
    child: Child,
    stdin: ChildStdin,
    output: Receiver<Output>,
    last_sent: Instant,
}

impl ProcessPlayer {
    /// A player running the shell command line `command` (started at the first game).
    #[must_use]
    pub fn new(name: &str, command: &str) -> Self {
        ProcessPlayer {
            name: name.to_string(),
            command: command.to_string(),
            running: None,
        }
    }

    fn running(&mut self) -> Result<&mut Running, Forfeit> {
        if self.running.is_none() {
            let mut child = Command::new("sh")
                .arg("-c")
                .arg(&self.command)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .process_group(0)
                .spawn()
                .map_err(|e| Forfeit::Unstartable(e.to_string()))?;
            let stdin = child.stdin.take().expect("piped stdin");
            let mut stdout = child.stdout.take().expect("piped stdout");
            let (send, output) = mpsc::channel();
            std::thread::spawn(move || {
                let mut buffer = [0u8; 256];
                loop {
                    match stdout.read(&mut buffer) {
                        Ok(0) => {
                            let _ = send.send(Output::End("end of output".into()));
                            return;
                        }
                        Ok(n) => {
                            for &b in &buffer[..n] {
                                if send.send(Output::Byte(b)).is_err() {
                                    return;
                                }
                            }
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(e) => {
                            let _ = send.send(Output::End(e.to_string()));
                            return;
                        }
                    }
                }
            });
            self.running = Some(Running {
                child,
                stdin,
                output,
                last_sent: Instant::now(),
            });
        }
        Ok(self.running.as_mut().expect("started above"))
    }

    fn send(&mut self, bytes: &[u8]) -> Result<(), Forfeit> {
        let running = self.running()?;
        if running
            .stdin
            .write_all(bytes)
            .and_then(|()| running.stdin.flush())
            .is_err()
        {
            std::thread::sleep(Duration::from_millis(20));
            return Err(match Self::exit_status(running) {
                Some(status) => Forfeit::Closed(status),
                None => Forfeit::Unreachable,
            });
        }
        running.last_sent = Instant::now();
        Ok(())
    }

    /// Describes how the process ended, if it has.
    fn exit_status(running: &mut Running) -> Option<String> {
        running
            .child
            .try_wait()
            .ok()
            .flatten()
            .map(|status| status.to_string())
    }
}

impl Player for ProcessPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, setup: &Setup, color: Color) -> Result<(), Forfeit> {
        let mut message = setup.encode().into_bytes();
        message.push(role_char(color));
        self.send(&message)
    }

    fn request_move(
        &mut self,
        _: &Board,
        limit: Duration,
    ) -> Result<(Option<DuelMove>, Duration), Forfeit> {
        let running = self.running()?;
        let start = running.last_sent;
        let deadline = start + limit;
        let mut got = Vec::with_capacity(2);
        while got.len() < 2 {
            let left = deadline.saturating_duration_since(Instant::now());
            match running.output.recv_timeout(left) {
                Ok(Output::Byte(b)) if b.is_ascii_whitespace() => {}
                Ok(Output::Byte(b)) => got.push(b),
                Ok(Output::End(why)) => {
                    // Give the process a moment to be reaped so the status can be named.
                    std::thread::sleep(Duration::from_millis(20));
                    let status = Self::exit_status(running).unwrap_or(why);
                    return Err(Forfeit::Closed(status));
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(Forfeit::Timeout(limit.as_secs_f64()));
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Forfeit::Closed("output reader stopped".into()));
                }
            }
        }
        let took = start.elapsed();
        let text = [got[0], got[1]];
        if text == *b"??" {
            return Ok((None, took));
        }
        match parse_move(text) {
            Ok(mv) => Ok((Some(mv), took)),
            Err(e) => Err(Forfeit::Malformed(format!(
                "{:?}: {e}",
                String::from_utf8_lossy(&text)
            ))),
        }
    }

    fn tell(&mut self, mv: Option<DuelMove>) -> Result<(), Forfeit> {
        let bytes = mv.map_or(*b"??", encode_move);
        self.send(&bytes)
    }

    fn end_game(&mut self, more: bool) {
        if self.send(if more { b"y" } else { b"n" }).is_err() {
            self.reset();
        }
    }

    fn reset(&mut self) {
        if let Some(mut running) = self.running.take() {
            if let Ok(pid) = i32::try_from(running.child.id()) {
                let _ = killpg(Pid::from_raw(pid), Signal::SIGKILL);
            }
            let _ = running.child.kill();
            let _ = running.child.wait();
        }
    }
}

impl Drop for ProcessPlayer {
    fn drop(&mut self) {
        self.reset();
    }
}

/// An agent running inside the host's process (for demos and tests: no pipes, no time
/// enforcement beyond measuring).
pub struct AgentPlayer<A: super::agent::Agent> {
    name: String,
    agent: A,
    board: Option<Board>,
}

impl<A: super::agent::Agent> AgentPlayer<A> {
    /// Wraps `agent` under `name`.
    pub fn new(name: &str, agent: A) -> Self {
        AgentPlayer {
            name: name.to_string(),
            agent,
            board: None,
        }
    }
}

impl<A: super::agent::Agent> Player for AgentPlayer<A> {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, setup: &Setup, color: Color) -> Result<(), Forfeit> {
        let board = setup
            .board()
            .map_err(|e| Forfeit::Unstartable(e.to_string()))?;
        self.agent.new_game(&board, color);
        self.board = Some(board);
        Ok(())
    }

    fn request_move(
        &mut self,
        _: &Board,
        _: Duration,
    ) -> Result<(Option<DuelMove>, Duration), Forfeit> {
        let started = Instant::now();
        let board = self
            .board
            .as_mut()
            .ok_or_else(|| Forfeit::Unstartable("no game started".into()))?;
        let mv = self.agent.choose(board, started);
        self.agent.observe(board, mv);
        board.play_checked(mv).map_err(|why| Forfeit::Illegal {
            mv: mv.to_string(),
            why: why.to_string(),
        })?;
        Ok((Some(mv), started.elapsed()))
    }

    fn tell(&mut self, mv: Option<DuelMove>) -> Result<(), Forfeit> {
        if let (Some(board), Some(mv)) = (self.board.as_mut(), mv) {
            self.agent.observe(board, mv);
            board.play(mv);
        }
        Ok(())
    }

    fn end_game(&mut self, _: bool) {
        self.board = None;
    }

    fn reset(&mut self) {
        self.board = None;
    }
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum End {
    /// A cube reached the far corner.
    Corner,
    /// Every enemy cube was captured.
    Captures,
    /// The loser forfeited.
    Forfeit(Forfeit),
}

/// One move of a logged game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The move as sent (`ND`, or `??` for a pass).
    pub mv: String,
    /// The player (0 or 1) who made it.
    pub player: usize,
    /// Seconds it took, measured by the host.
    pub secs: f64,
}

/// One game, as logged (a line of the JSON-lines log).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// 0-based game number.
    pub game: u32,
    /// The player (0 or 1) who was red and moved first.
    pub red_player: usize,
    /// Red's cube numbers on cells 0, 1, 2, 7, 8, 14.
    pub red: String,
    /// Blue's cube numbers on cells 27, 33, 34, 39, 40, 41.
    pub blue: String,
    /// The dice sequence.
    pub dice: String,
    /// The moves in order.
    pub moves: Vec<MoveRecord>,
    /// The winning player (0 or 1).
    pub winner: usize,
    /// How the game ended.
    pub end: End,
}

impl GameRecord {
    /// The setup of the game.
    ///
    /// # Errors
    /// When the logged setup is not valid.
    pub fn setup(&self) -> Result<Setup, super::protocol::ProtocolError> {
        Setup::decode(format!("{}{}{}", self.red, self.blue, self.dice).as_bytes())
    }

    /// The board after each move (the start first), replaying the logged moves up to the
    /// first one that is not legal (a forfeit's move).
    ///
    /// # Errors
    /// When the logged setup is not valid.
    pub fn positions(&self) -> Result<Vec<Board>, super::protocol::ProtocolError> {
        let mut board = self.setup()?.board()?;
        let mut out = vec![board.clone()];
        for record in &self.moves {
            let Ok(mv) = parse_move(record.mv.as_bytes().try_into().unwrap_or([0, 0])) else {
                break;
            };
            if board.play_checked(mv).is_err() {
                break;
            }
            out.push(board.clone());
        }
        Ok(out)
    }
}

/// The referee's settings.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games to play.
    pub rounds: u32,
    /// Seed of the cube permutations and dice-line choices.
    pub seed: u64,
    /// Dice sequences to draw from.
    pub dice: Vec<[u8; DICE]>,
    /// The time per move.
    pub move_time: Duration,
}

/// Reads a dice file: one sequence of 21 digits 0-5 per line (spaces allowed).
///
/// # Errors
/// A message naming the line.
pub fn parse_dice_file(text: &str) -> Result<Vec<[u8; DICE]>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let digits: Vec<u8> = line
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| match c {
                '0'..='5' => Ok(c as u8 - b'0'),
                _ => Err(format!("line {}: {c:?} is not a die 0-5", i + 1)),
            })
            .collect::<Result<_, _>>()?;
        if digits.is_empty() {
            continue;
        }
        let dice: [u8; DICE] = digits
            .try_into()
            .map_err(|d: Vec<u8>| format!("line {}: {} dice, expected {DICE}", i + 1, d.len()))?;
        out.push(dice);
    }
    if out.is_empty() {
        return Err("no dice sequence found".into());
    }
    Ok(out)
}

/// The setups of a match, deterministic for the seed.
#[must_use]
pub fn setups(config: &MatchConfig) -> Vec<Setup> {
    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    (0..config.rounds)
        .map(|_| {
            let mut red = [0, 1, 2, 3, 4, 5];
            let mut blue = [0, 1, 2, 3, 4, 5];
            red.shuffle(&mut rng);
            blue.shuffle(&mut rng);
            let dice = config.dice[rng.random_range(0..config.dice.len())];
            Setup { red, blue, dice }
        })
        .collect()
}

/// Plays one game; `red` is the index of the player who moves first.
pub fn play_game(
    players: &mut [&mut dyn Player; 2],
    game: u32,
    red: usize,
    setup: &Setup,
    move_time: Duration,
) -> GameRecord {
    let code = |digits: &[u8]| -> String { digits.iter().map(|&d| char::from(b'0' + d)).collect() };
    let mut record = GameRecord {
        game,
        red_player: red,
        red: code(&setup.red),
        blue: code(&setup.blue),
        dice: code(&setup.dice),
        moves: Vec::new(),
        winner: 0,
        end: End::Corner,
    };
    let forfeit = |record: &mut GameRecord, loser: usize, why: Forfeit| {
        record.winner = 1 - loser;
        record.end = End::Forfeit(why);
    };
    let mut board = setup.board().expect("setups are valid");
    for (i, color) in [(red, Color::Red), (1 - red, Color::Blue)] {
        if let Err(why) = players[i].start_game(setup, color) {
            forfeit(&mut record, i, why);
            return record;
        }
    }
    loop {
        let mover = if board.to_move() == Color::Red {
            red
        } else {
            1 - red
        };
        let (mv, took) = match players[mover].request_move(&board, move_time) {
            Ok(answer) => answer,
            Err(why) => {
                forfeit(&mut record, mover, why);
                return record;
            }
        };
        let text = mv.map_or_else(|| "??".to_string(), |m| m.to_string());
        record.moves.push(MoveRecord {
            mv: text.clone(),
            player: mover,
            secs: took.as_secs_f64(),
        });
        match mv {
            Some(mv) => {
                if let Err(why) = board.play_checked(mv) {
                    forfeit(
                        &mut record,
                        mover,
                        Forfeit::Illegal {
                            mv: text,
                            why: why.to_string(),
                        },
                    );
                    return record;
                }
            }
            None if board.moves().is_empty() => board.pass(),
            None => {
                forfeit(
                    &mut record,
                    mover,
                    Forfeit::Illegal {
                        mv: text,
                        why: "a pass while a move is legal".into(),
                    },
                );
                return record;
            }
        }
        let told = players[1 - mover].tell(mv);
        if let Some(winner) = board.winner() {
            record.winner = if winner == Color::Red { red } else { 1 - red };
            record.end = if board.alive(winner.other()) == 0 {
                End::Captures
            } else {
                End::Corner
            };
            return record;
        }
        if let Err(why) = told {
            forfeit(&mut record, 1 - mover, why);
            return record;
        }
    }
}

/// Plays a match: first player alternates by game, starting with player 0. After a forfeit
/// both players are restarted (the survivor's protocol state is mid-game); after the last
/// game both are stopped. `on_game` sees each game as it ends.
pub fn run_match(
    players: &mut [&mut dyn Player; 2],
    config: &MatchConfig,
    mut on_game: impl FnMut(&GameRecord),
) -> Vec<GameRecord> {
    let mut records = Vec::new();
    for (game, setup) in setups(config).iter().enumerate() {
        let game = game as u32;
        let red = (game % 2) as usize;
        let record = play_game(players, game, red, setup, config.move_time);
        let more = game + 1 < config.rounds;
        if matches!(record.end, End::Forfeit(_)) {
            players[0].reset();
            players[1].reset();
        } else {
            players[0].end_game(more);
            players[1].end_game(more);
        }
        on_game(&record);
        records.push(record);
    }
    // Let the agents see the final `n` and leave on their own, then make sure they are gone.
    std::thread::sleep(Duration::from_millis(50));
    players[0].reset();
    players[1].reset();
    records
}

/// A match's results per player.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerSummary {
    /// The player's name.
    pub name: String,
    /// Games won.
    pub wins: u32,
    /// Games won as red (first mover).
    pub wins_first: u32,
    /// Games played as red.
    pub games_first: u32,
    /// Games won as blue.
    pub wins_second: u32,
    /// Games played as blue.
    pub games_second: u32,
    /// The win rate.
    pub win_rate: f64,
    /// The 95 % Wilson score interval of the win rate.
    pub interval: (f64, f64),
    /// Average seconds per move.
    pub average_move: f64,
    /// Longest move in seconds.
    pub max_move: f64,
    /// Games lost by forfeit, with the reasons.
    pub forfeits: Vec<String>,
}

/// Summarises a match for players named `names`.
#[must_use]
pub fn summarise(records: &[GameRecord], names: [&str; 2]) -> [PlayerSummary; 2] {
    let mut out: [PlayerSummary; 2] = Default::default();
    let mut time = [(0.0f64, 0u32); 2];
    for (p, summary) in out.iter_mut().enumerate() {
        summary.name = names[p].to_string();
    }
    for r in records {
        for (p, s) in out.iter_mut().enumerate() {
            let first = r.red_player == p;
            let won = r.winner == p;
            s.wins += u32::from(won);
            if first {
                s.games_first += 1;
                s.wins_first += u32::from(won);
            } else {
                s.games_second += 1;
                s.wins_second += u32::from(won);
            }
            if let End::Forfeit(why) = &r.end {
                if !won {
                    s.forfeits.push(format!("game {}: {why}", r.game + 1));
                }
            }
        }
        for m in &r.moves {
            time[m.player].0 += m.secs;
            time[m.player].1 += 1;
            out[m.player].max_move = out[m.player].max_move.max(m.secs);
        }
    }
    let n = records.len() as u32;
    for (p, s) in out.iter_mut().enumerate() {
        s.win_rate = if n == 0 {
            0.0
        } else {
            f64::from(s.wins) / f64::from(n)
        };
        s.interval = wilson(s.wins, n);
        s.average_move = if time[p].1 == 0 {
            0.0
        } else {
            time[p].0 / f64::from(time[p].1)
        };
    }
    out
}

/// The 95 % Wilson score interval for `wins` of `n` (Wilson, E. B. (1927), *Probable
/// inference, the law of succession, and statistical inference*, JASA 22, 209-212).
#[must_use]
pub fn wilson(wins: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_964;
    let n = f64::from(n);
    let p = f64::from(wins) / n;
    let centre = p + z * z / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    let denominator = 1.0 + z * z / n;
    (
        ((centre - spread) / denominator).max(0.0),
        ((centre + spread) / denominator).min(1.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval() {
        let (lo, hi) = wilson(90, 100);
        assert!(
            (lo - 0.8256).abs() < 1e-3 && (hi - 0.9448).abs() < 1e-3,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(10, 10);
        assert!(lo > 0.69 && (hi - 1.0).abs() < 1e-12);
    }

    #[test]
    fn dice_file() {
        let text = include_str!("../../../../data/ewn-duel/dice_seq.txt");
        let dice = parse_dice_file(text).unwrap();
        assert_eq!(dice.len(), 60);
        assert_eq!(dice[0][..3], [3, 4, 3]);
        assert!(
            parse_dice_file("1 2 3\n")
                .unwrap_err()
                .contains("line 1: 3 dice")
        );
        assert!(parse_dice_file("1 2 x\n").unwrap_err().contains("'x'"));
    }

    #[test]
    fn setups_are_reproducible() {
        let config = MatchConfig {
            rounds: 5,
            seed: 9,
            dice: parse_dice_file(include_str!("../../../../data/ewn-duel/dice_seq.txt")).unwrap(),
            move_time: Duration::from_secs(2),
        };
        assert_eq!(setups(&config), setups(&config));
        let other = MatchConfig {
            seed: 10,
            ..config.clone()
        };
        assert_ne!(setups(&config), setups(&other));
    }
}
