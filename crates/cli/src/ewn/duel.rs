//! `ply ewn host`, `ply ewn agent` and `ply ewn playouts`: the duel's referee, agents and
//! engine speed.

use super::args::{AgentArgs, AgentKind, HostArgs, PlayoutArgs};
use super::ops::{LogMode, dice_lines, open_log, positive_seconds};
use crate::format::{plural, table, thousands};
use crate::programs::{adopt_orphans, checked_command, stop_orphans};
use crate::signals::{exit_after, interrupt_flag};
use anyhow::{Context, Result};
use ply_ewn::duel::agents::{
    AlphaBetaAgent, HOST_MOVE_TIME_VAR, MctsAgent, MoveReport, RandomAgent, WIN, thinking_time,
};
use ply_ewn::duel::protocol::{Setup, parse_move};
use ply_ewn::duel::referee::{
    End, Forfeit, GameRecord, Player, PlayerSummary, ProcessPlayer, run_match_until,
    stop_all_agents, summarise,
};
use ply_ewn::duel::tournament::record_line;
use ply_ewn::duel::{Agent, Board, Color, DeepAgent, DuelMove, MatchConfig};
use ply_search::StopFlag;
use ply_search::is_proven;
use serde::Serialize;
use std::io::{BufRead, IsTerminal, Read, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Mutex, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// The MCTS agent, reporting each move on stderr.
struct VerboseMcts(MctsAgent);

impl Agent for VerboseMcts {
    fn new_game(&mut self, board: &Board, me: Color) {
        self.0.new_game(board, me);
    }

    fn choose(&mut self, board: &Board, received: Instant) -> DuelMove {
        let mv = self.0.choose(board, received);
        if let Some(report) = self.0.last_report() {
            errln!("{}", describe_move(board, report));
        }
        mv
    }

    fn observe(&mut self, board: &Board, mv: DuelMove) {
        self.0.observe(board, mv);
    }
}

/// ply's strongest agent, reporting each move on stderr.
struct VerboseDeep(DeepAgent);

impl Agent for VerboseDeep {
    fn new_game(&mut self, board: &Board, me: Color) {
        self.0.new_game(board, me);
    }

    fn choose(&mut self, board: &Board, received: Instant) -> DuelMove {
        let decision = self.0.decide(board, received);
        let how = match (decision.proven, decision.depth) {
            (Some(true), 0) => "proven win".to_string(),
            (proven, depth) => {
                let value = decision.value;
                let proof = if is_proven(value) {
                    // Alpha-beta's own proof says how far the end is.
                    let plies = WIN - value.abs();
                    let what = if value > 0 { "win" } else { "loss" };
                    format!(
                        " (proven {what} in {})",
                        plural(u64::from(plies.unsigned_abs()), "ply")
                    )
                } else {
                    match proven {
                        Some(true) => " (proven win)".to_string(),
                        Some(false) => " (proven loss)".to_string(),
                        None => String::new(),
                    }
                };
                format!("depth {depth}, value {value}{proof}")
            }
        };
        errln!(
            "ply {} die {}: {} after {:.3} s, {how}",
            board.ply(),
            board.die(),
            decision.mv,
            received.elapsed().as_secs_f64()
        );
        decision.mv
    }

    fn ponder(&mut self, board: &Board, stop: &ply_search::StopFlag) {
        self.0.ponder(board, stop);
    }
}

/// Whether standard input has nothing to read yet (the opponent's move is still to come).
fn stdin_waiting() -> bool {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    let stdin = std::io::stdin();
    let mut fds = [PollFd::new(stdin.as_fd(), PollFlags::POLLIN)];
    // An error or anything but "nothing yet" (input, end of input, a hang-up) ends pondering.
    matches!(poll(&mut fds, PollTimeout::ZERO), Ok(0))
}

/// Standard input without a buffer of its own, so that [`stdin_waiting`] sees every byte not
/// read yet (the protocol reads one character at a time anyway).
fn unbuffered_stdin() -> Result<std::fs::File> {
    use std::os::fd::AsFd;
    let fd = std::io::stdin()
        .as_fd()
        .try_clone_to_owned()
        .context("duplicating standard input")?;
    Ok(std::fs::File::from(fd))
}

/// One `--verbose` line: ply, move, iterations, tree, best move's visits and value, proof, line.
fn describe_move(board: &Board, report: &MoveReport) -> String {
    let chosen = report.children.iter().find(|c| c.mv == report.mv);
    let (visits, value) = chosen.map_or((0, 0.5), |c| (c.visits, c.value));
    let proof = match report.proven {
        Some(true) => " proven win",
        Some(false) => " proven loss",
        None => "",
    };
    let line: Vec<String> = report.line.iter().map(ToString::to_string).collect();
    format!(
        "ply {} die {}: {} after {} iterations in {:.3} s, tree {} nodes, depth {}; visits {visits}, \
         value {value:.3}{proof}; line {}",
        board.ply(),
        board.die(),
        report.mv,
        thousands(report.stats.iterations),
        report.seconds,
        thousands(report.stats.nodes as u64),
        report.stats.depth,
        line.join(" ")
    )
}

/// The longest line a person may type at the prompt: a move is two characters, and a line
/// far longer is not typed by a person (a file or a device on standard input).
const MAX_HUMAN_LINE: usize = 256;

/// What the standard input reader passes to a human player.
enum Typed {
    /// A line, without its line break.
    Line(String),
    /// A line longer than [`MAX_HUMAN_LINE`]: the input is not a person's, and is not read
    /// any further.
    TooLong,
}

/// Standard input, read line by line on a thread of its own so that a waiting human player
/// can still see the stop flag; shared by both human players of a game between two people.
fn typed_lines() -> &'static Mutex<Receiver<Typed>> {
    static LINES: OnceLock<Mutex<Receiver<Typed>>> = OnceLock::new();
    LINES.get_or_init(|| {
        let (send, lines) = mpsc::sync_channel(1);
        std::thread::spawn(move || {
            let mut stdin = std::io::stdin().lock();
            loop {
                let mut line = Vec::new();
                let limit = MAX_HUMAN_LINE as u64 + 1;
                match (&mut stdin).take(limit).read_until(b'\n', &mut line) {
                    Ok(0) | Err(_) => return,
                    Ok(_) => {}
                }
                let typed = if line.ends_with(b"\n") || line.len() <= MAX_HUMAN_LINE {
                    Typed::Line(String::from_utf8_lossy(&line).trim().to_string())
                } else {
                    Typed::TooLong
                };
                let last = matches!(typed, Typed::TooLong);
                if send.send(typed).is_err() || last {
                    return;
                }
            }
        });
        Mutex::new(lines)
    })
}

/// A human at the terminal: the board on stderr, moves typed as `ND` on stdin.
struct HumanPlayer {
    name: String,
    board: Option<Board>,
    color: Color,
    stop: StopFlag,
}

impl HumanPlayer {
    fn show(&self) {
        if let Some(board) = &self.board {
            errln!("{}", board.render());
        }
    }

    /// The next line typed, waiting until there is one or the referee is stopped.
    fn next_line(&self) -> Result<String, Forfeit> {
        let lines = typed_lines().lock().unwrap_or_else(PoisonError::into_inner);
        let why = loop {
            if self.stop.is_stopped() {
                break Forfeit::Closed("the referee was stopped".into());
            }
            match lines.recv_timeout(Duration::from_millis(50)) {
                Ok(Typed::Line(line)) => return Ok(line),
                Ok(Typed::TooLong) => {
                    break Forfeit::Malformed(format!(
                        "a line of more than {MAX_HUMAN_LINE} bytes at the prompt"
                    ));
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    break Forfeit::Closed("end of terminal input".into());
                }
            }
        };
        // No line was typed: what follows starts below the prompt.
        errln!();
        Err(why)
    }
}

/// The line that tells a person which side they play (at most 80 columns).
fn human_start_line(name: &str, color: Color) -> String {
    match color {
        Color::Red => format!("{name}: you play red (R), moving first, to the bottom-right corner"),
        Color::Blue => format!("{name}: you play blue (b), moving second, to the top-left corner"),
    }
}

/// What the direction digit of a move means for `color` (the course's codes), for a person.
fn human_directions(color: Color) -> &'static str {
    match color {
        Color::Red => "a move is cube+direction: 0 right, 1 down, 2 down-right, 3 up-right",
        Color::Blue => "a move is cube+direction: 0 left, 1 up, 2 up-left, 3 down-left",
    }
}

/// The prompt for a move (at most 80 columns: eight legal moves at the most).
fn human_prompt(die: u8, legal: &[String]) -> String {
    format!(
        "die {die}: your move as cube+direction ({}): ",
        legal.join(" ")
    )
}

impl Player for HumanPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, setup: &Setup, color: Color) -> Result<(), Forfeit> {
        self.board = Some(
            setup
                .board()
                .map_err(|e| Forfeit::Unstartable(e.to_string()))?,
        );
        self.color = color;
        errln!("{}", human_start_line(&self.name, color));
        errln!("{}", human_directions(color));
        Ok(())
    }

    fn request_move(
        &mut self,
        _: &Board,
        _: Duration,
    ) -> Result<(Option<DuelMove>, Duration), Forfeit> {
        let started = Instant::now();
        self.show();
        let Some(board) = self.board.clone() else {
            return Err(Forfeit::Unstartable("no game started".into()));
        };
        let legal: Vec<String> = board.moves().iter().map(ToString::to_string).collect();
        loop {
            errprint!("{}", human_prompt(board.die(), &legal));
            let line = self.next_line()?;
            let parsed = <[u8; 2]>::try_from(line.as_bytes())
                .ok()
                .and_then(|t| parse_move(t).ok());
            match parsed.map(|mv| (mv, board.check(mv))) {
                Some((mv, Ok(()))) => {
                    if let Some(board) = self.board.as_mut() {
                        board.play(mv);
                    }
                    return Ok((Some(mv), started.elapsed()));
                }
                Some((_, Err(why))) => errln!("illegal: {why}"),
                None => errln!("type two digits: the cube 0-5 and the direction 0-3"),
            }
        }
    }

    fn tell(&mut self, mv: Option<DuelMove>) -> Result<(), Forfeit> {
        if let (Some(board), Some(mv)) = (self.board.as_mut(), mv) {
            errln!("opponent plays {mv}");
            board.play(mv);
        }
        Ok(())
    }

    fn end_game(&mut self, _: bool) {
        self.show();
        self.board = None;
    }

    fn reset(&mut self) {
        self.board = None;
    }
}

fn player(
    name: &str,
    command: Option<&String>,
    stop: &StopFlag,
    move_time: Duration,
) -> Box<dyn Player> {
    match command {
        Some(cmd) => Box::new(
            ProcessPlayer::new(name, cmd)
                .with_stop(stop.clone())
                .with_move_time(move_time)
                .with_ponder(ply_ewn::duel::agents::pondering_fits(1)),
        ),
        None => Box::new(HumanPlayer {
            name: name.to_string(),
            board: None,
            color: Color::Red,
            stop: stop.clone(),
        }),
    }
}

/// One line per game: who won, how, in how many moves.
fn game_line(record: &GameRecord, names: [&str; 2]) -> String {
    let how = match &record.end {
        End::Corner => "reached the corner".to_string(),
        End::Captures => "captured every cube".to_string(),
        End::Forfeit(why) => format!("opponent forfeited: {why}"),
    };
    let color = if record.winner == record.red_player {
        "red"
    } else {
        "blue"
    };
    format!(
        "game {}: p{} {} ({color}) wins, {how}, {}",
        record.game,
        record.winner,
        names[record.winner],
        plural(record.moves.len() as u64, "move")
    )
}

#[derive(Serialize)]
struct MatchReport<'a> {
    games: usize,
    seed: u64,
    move_time: f64,
    players: &'a [PlayerSummary; 2],
}

/// Runs `ply ewn host`.
pub(super) fn run_host(args: &HostArgs) -> Result<()> {
    let dice = dice_lines(args.dice_file.as_ref())?;
    let move_time = positive_seconds(args.move_time, "--move-time")?;
    if args.rounds == 0 {
        return Err(crate::outcome::usage("-r/--rounds must be at least 1"));
    }
    // Every player command is checked before anything is written: a program that is not
    // there is a usage error, and leaves an existing log as it was.
    let command0 = args
        .p0
        .as_deref()
        .map(|c| checked_command("p0", c))
        .transpose()?;
    let command1 = args
        .p1
        .as_deref()
        .map(|c| checked_command("p1", c))
        .transpose()?;
    let mut log = match &args.log {
        Some(path) => Some(std::io::BufWriter::new(open_log(
            path,
            LogMode::Create {
                force: args.force,
                resumable: false,
            },
        )?)),
        None => None,
    };
    let config = MatchConfig {
        rounds: args.rounds,
        seed: args.seed,
        dice,
        move_time,
    };
    let name0 = args.p0.clone().unwrap_or_else(|| "human".into());
    let name1 = args.p1.clone().unwrap_or_else(|| "human".into());
    let names = [name0.as_str(), name1.as_str()];
    // An interrupt stops the match after the games already played, which are reported;
    // the agents are stopped either way.
    let interrupt = interrupt_flag()?;
    adopt_orphans();
    exit_after(interrupt.clone(), Duration::from_secs(3), || {
        stop_all_agents();
        stop_orphans();
    });
    // The match stops at an interrupt, or on its own when nobody reads its results.
    let stop = interrupt.child();
    let mut p0 = player(&name0, command0.as_ref(), &stop, move_time);
    let mut p1 = player(&name1, command1.as_ref(), &stop, move_time);
    let mut log_error = None;
    let mut out_error = None;
    let records = run_match_until(&mut [p0.as_mut(), p1.as_mut()], &config, &stop, |record| {
        let line = game_line(record, names);
        if args.json {
            errln!("{line}");
        } else if let Err(e) = outln!("{line}") {
            // Nobody reads the results any more (a closed pipe): the match stops.
            out_error.get_or_insert(e);
            stop.stop();
        }
        if let Some(log) = log.as_mut() {
            let written = writeln!(log, "{}", record_line(record)).and_then(|()| log.flush());
            if let Err(e) = written {
                log_error.get_or_insert(e);
            }
        }
    });
    // Whatever the agents left behind, out of their process groups, goes with them.
    stop_orphans();
    if let Some(e) = out_error {
        return Err(e.into());
    }
    let interrupted = interrupt.is_stopped();
    // The games played are reported even when the log could not take them all.
    report_match(args, &records, names)?;
    if let Some(e) = log_error {
        let path = args.log.as_deref().unwrap_or_default();
        return Err(anyhow::Error::from(e).context(format!("writing the log {path}")));
    }
    finish(interrupted, records.len())
}

/// Prints a match's results: a table and the forfeits, or JSON.
fn report_match(args: &HostArgs, records: &[GameRecord], names: [&str; 2]) -> Result<()> {
    let summary = summarise(records, names);
    let mut out = std::io::stdout().lock();
    if args.json {
        let report = MatchReport {
            games: records.len(),
            seed: args.seed,
            move_time: args.move_time,
            players: &summary,
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    let mut t = table([
        "player",
        "wins",
        "win rate (95% CI)",
        "as first",
        "as second",
        "avg move s",
        "max move s",
        "forfeits",
    ]);
    for (p, s) in summary.iter().enumerate() {
        t.add_row(vec![
            format!("p{p} {}", s.name),
            s.wins.to_string(),
            format!(
                "{:.1}% ({:.1}-{:.1})",
                100.0 * s.win_rate,
                100.0 * s.interval.0,
                100.0 * s.interval.1
            ),
            format!("{}/{}", s.wins_first, s.games_first),
            format!("{}/{}", s.wins_second, s.games_second),
            format!("{:.3}", s.average_move),
            format!("{:.3}", s.max_move),
            s.forfeits.len().to_string(),
        ]);
    }
    writeln!(out, "{t}")?;
    for (p, s) in summary.iter().enumerate() {
        for why in &s.forfeits {
            writeln!(out, "p{p} forfeited {why}")?;
        }
    }
    Ok(())
}

/// The end of a match: an error after an interrupt, once the games played are reported.
fn finish(interrupted: bool, games: usize) -> Result<()> {
    if interrupted {
        return Err(crate::outcome::interrupted(format!(
            "interrupted after {}; the agents were stopped",
            crate::format::plural(games as u64, "game")
        )));
    }
    Ok(())
}

/// The host's time per move, when a ply referee started this agent and said it.
fn host_move_time() -> Option<Duration> {
    std::env::var(HOST_MOVE_TIME_VAR)
        .ok()
        .and_then(|secs| secs.trim().parse::<f64>().ok())
        .and_then(|secs| ply_search::SecondsRule::Positive.check(secs).ok())
}

/// The agent's thinking time: `--move-time` (`secs`), and never more than the host allows
/// less a margin when the host said what it allows.
fn thinking(secs: f64, host: Option<Duration>) -> Result<Duration> {
    let own = positive_seconds(secs, "--move-time")?;
    Ok(host.map_or(own, |limit| own.min(thinking_time(limit))))
}

/// What `ply ewn agent` says when a person starts it at a terminal, where it would otherwise
/// wait in silence.
const AGENT_AT_A_TERMINAL: &str =
    "ply ewn agent: reads the course's protocol on stdin: a setup, f or s, moves";

/// Runs `ply ewn agent KIND` on stdin/stdout.
pub(super) fn run_agent(args: &AgentArgs) -> Result<()> {
    let kind = args
        .kind
        .clone()
        .unwrap_or_else(|| AgentKind::Deep(args.deep.clone()));
    let host = host_move_time();
    let mut ponders = false;
    let mut agent: Box<dyn Agent> = match kind {
        AgentKind::Deep(deep) => {
            // The agent's own choice, unless its referee says the machine has no core to
            // spare for it (ply's host and tournament do, when agents outnumber cores).
            ponders = !deep.no_ponder && ply_ewn::duel::agents::host_allows_pondering();
            let agent = DeepAgent::new(thinking(deep.move_time, host)?).with_ponder(ponders);
            if deep.verbose {
                Box::new(VerboseDeep(agent))
            } else {
                Box::new(agent)
            }
        }
        AgentKind::Random { seed } => Box::new(RandomAgent::new(seed)),
        AgentKind::Alphabeta {
            move_time: Some(secs),
            eval,
            ..
        } => Box::new(AlphaBetaAgent::timed(thinking(secs, host)?).with_eval(eval.into())),
        AgentKind::Alphabeta {
            depth,
            strong,
            eval,
            ..
        } => Box::new(AlphaBetaAgent::new(depth, strong).with_eval(eval.into())),
        AgentKind::Mcts(mcts) => {
            let mut config = mcts.config()?;
            config.move_time = thinking(mcts.move_time, host)?;
            let agent = MctsAgent::new(config);
            if mcts.verbose {
                Box::new(VerboseMcts(agent))
            } else {
                Box::new(agent)
            }
        }
    };
    let stdin = std::io::stdin().lock();
    if stdin.is_terminal() {
        errln!("{AGENT_AT_A_TERMINAL}");
    }
    // The first move's clock runs from the process's start: a host sends the first setup
    // as it starts the agent, and counts from then.
    let started = crate::outcome::started();
    let stdout = std::io::stdout().lock();
    if ponders {
        // Pondering polls standard input for the opponent's move, which a buffer of ours
        // would hide.
        drop(stdin);
        let input = unbuffered_stdin()?;
        ply_ewn::duel::agents::run_agent_with(
            agent.as_mut(),
            started,
            input,
            stdout,
            &stdin_waiting,
        )?;
    } else {
        ply_ewn::duel::agents::run_agent_since(agent.as_mut(), started, stdin, stdout)?;
    }
    Ok(())
}

/// Runs `ply ewn playouts`: random games from random setups, moves per second.
pub(super) fn run_playouts(args: &PlayoutArgs) -> Result<()> {
    let tally = ply_ewn::duel::playouts::playouts(args.games, args.seed);
    let secs = tally.elapsed.as_secs_f64();
    let games = tally.games.max(1) as f64;
    outln!(
        "{}, {} moves in {secs:.3} s: {} moves/s, {:.1} moves per game, red won {:.1}%",
        plural(tally.games, "playout"),
        thousands(tally.moves),
        thousands((tally.moves as f64 / secs) as u64),
        tally.moves as f64 / games,
        100.0 * tally.red_wins as f64 / games
    )?;
    Ok(())
}
