//! `ply ewn host`, `ply ewn agent` and `ply ewn playouts`: the duel's referee, agents and
//! engine speed.

use super::args::{AgentArgs, AgentKind, HostArgs, PlayoutArgs};
use super::ops::{COURSE_DICE, dice_lines, positive_seconds};
use crate::format::{plural, table, thousands};
use crate::programs::{adopt_orphans, checked_command, stop_orphans};
use crate::signals::{exit_after, interrupt_flag};
use anyhow::{Context, Result};
use ply_ewn::duel::{
    Agent, AlphaBetaAgent, Board, Color, DeepAgent, DuelMove, End, FastRng, Forfeit, GameRecord,
    MatchConfig, MctsAgent, MoveReport, Player, PlayerSummary, ProcessPlayer, RandomAgent, Setup,
    parse_dice_file, parse_move, random_playout, run_match_until, stop_all_agents, summarise,
};
use serde::Serialize;
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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
                let proof = match proven {
                    Some(true) => " (proven win)",
                    Some(false) => " (proven loss)",
                    None => "",
                };
                format!("depth {depth}, value {}{proof}", decision.value)
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

    fn ponder(&mut self, board: &Board, waiting: &dyn Fn() -> bool) {
        self.0.ponder(board, waiting);
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

/// A human at the terminal: the board on stderr, moves typed as `ND` on stdin.
struct HumanPlayer {
    name: String,
    board: Option<Board>,
    color: Color,
}

impl HumanPlayer {
    fn show(&self) {
        if let Some(board) = &self.board {
            errln!("{}", board.render());
        }
    }
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
        errln!(
            "{}: you play {color} ({}); R = red, b = blue",
            self.name,
            if color == Color::Red {
                "moving first, to the bottom-right corner"
            } else {
                "moving second, to the top-left corner"
            }
        );
        Ok(())
    }

    fn request_move(
        &mut self,
        _: &Board,
        _: Duration,
    ) -> Result<(Option<DuelMove>, Duration), Forfeit> {
        let started = Instant::now();
        self.show();
        let board = self.board.as_mut().expect("a game is running");
        let legal: Vec<String> = board.moves().iter().map(ToString::to_string).collect();
        let stdin = std::io::stdin();
        loop {
            errprint!(
                "die {}: your move as cube+direction ({}): ",
                board.die(),
                legal.join(" ")
            );
            let mut line = String::new();
            match stdin.lock().read_line(&mut line) {
                Ok(0) | Err(_) => return Err(Forfeit::Closed("end of terminal input".into())),
                Ok(_) => {}
            }
            let text = line.trim().as_bytes();
            let parsed = <[u8; 2]>::try_from(text)
                .ok()
                .and_then(|t| parse_move(t).ok());
            match parsed.map(|mv| (mv, board.check(mv))) {
                Some((mv, Ok(()))) => {
                    board.play(mv);
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

fn player(name: &str, command: Option<&String>, stop: &Arc<AtomicBool>) -> Box<dyn Player> {
    match command {
        Some(cmd) => Box::new(ProcessPlayer::new(name, cmd).with_stop(Arc::clone(stop))),
        None => Box::new(HumanPlayer {
            name: name.to_string(),
            board: None,
            color: Color::Red,
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
pub fn run_host(args: &HostArgs) -> Result<()> {
    let dice = dice_lines(args.dice_file.as_ref())?;
    let move_time = positive_seconds(args.move_time, "--move-time")?;
    if args.rounds == 0 {
        return Err(crate::outcome::usage("-r/--rounds must be at least 1"));
    }
    let mut log = match &args.log {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).with_context(|| format!("cannot create {path}"))?,
        )),
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
    let stop = interrupt_flag()?;
    adopt_orphans();
    exit_after(Arc::clone(&stop), Duration::from_secs(3), || {
        stop_all_agents();
        stop_orphans();
    });
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
    let mut p0 = player(&name0, command0.as_ref(), &stop);
    let mut p1 = player(&name1, command1.as_ref(), &stop);
    let mut log_error = None;
    let mut out_error = None;
    let records = run_match_until(&mut [p0.as_mut(), p1.as_mut()], &config, &stop, |record| {
        let line = game_line(record, names);
        if args.json {
            errln!("{line}");
        } else if let Err(e) = outln!("{line}") {
            // Nobody reads the results any more (a closed pipe): the match stops.
            out_error.get_or_insert(e);
            stop.store(true, Ordering::SeqCst);
        }
        if let Some(log) = log.as_mut() {
            let written = serde_json::to_string(record)
                .map_err(anyhow::Error::from)
                .and_then(|json| Ok(writeln!(log, "{json}").and_then(|()| log.flush())?));
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
    if let Some(e) = log_error {
        return Err(e.context("writing the log"));
    }
    let interrupted = stop.load(Ordering::SeqCst);
    let summary = summarise(&records, names);
    let mut out = std::io::stdout().lock();
    if args.json {
        let report = MatchReport {
            games: records.len(),
            seed: args.seed,
            move_time: args.move_time,
            players: &summary,
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return finish(interrupted, records.len());
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
    finish(interrupted, records.len())
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

/// Runs `ply ewn agent KIND` on stdin/stdout.
pub fn run_agent(args: &AgentArgs) -> Result<()> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    let kind = args
        .kind
        .clone()
        .unwrap_or_else(|| AgentKind::Deep(args.deep.clone()));
    match kind {
        AgentKind::Deep(deep) => {
            let agent = DeepAgent::new(positive_seconds(deep.move_time, "--move-time")?)
                .with_ponder(!deep.no_ponder);
            drop(stdin);
            let input = unbuffered_stdin()?;
            if deep.verbose {
                let mut agent = VerboseDeep(agent);
                ply_ewn::duel::run_agent_with(&mut agent, input, stdout, &stdin_waiting)?
            } else {
                let mut agent = agent;
                ply_ewn::duel::run_agent_with(&mut agent, input, stdout, &stdin_waiting)?
            }
        }
        AgentKind::Random { seed } => {
            ply_ewn::duel::run_agent(&mut RandomAgent::new(seed), stdin, stdout)?
        }
        AgentKind::Alphabeta {
            move_time: Some(secs),
            eval,
            ..
        } => {
            let time = positive_seconds(secs, "--move-time")?;
            let mut agent = AlphaBetaAgent::timed(time).with_eval(eval.into());
            ply_ewn::duel::run_agent(&mut agent, stdin, stdout)?
        }
        AgentKind::Alphabeta {
            depth,
            strong,
            eval,
            ..
        } => {
            let mut agent = AlphaBetaAgent::new(depth, strong).with_eval(eval.into());
            ply_ewn::duel::run_agent(&mut agent, stdin, stdout)?
        }
        AgentKind::Mcts(mcts) => {
            let agent = MctsAgent::new(mcts.config()?);
            if mcts.verbose {
                ply_ewn::duel::run_agent(&mut VerboseMcts(agent), stdin, stdout)?
            } else {
                let mut agent = agent;
                ply_ewn::duel::run_agent(&mut agent, stdin, stdout)?
            }
        }
    };
    Ok(())
}

/// Runs `ply ewn playouts`: random games from random setups, moves per second.
pub fn run_playouts(args: &PlayoutArgs) -> Result<()> {
    let dice = parse_dice_file(COURSE_DICE)?;
    let config = MatchConfig {
        rounds: 64,
        seed: args.seed,
        dice,
        move_time: Duration::from_secs(1),
    };
    let starts: Vec<Board> = ply_ewn::duel::setups(&config)
        .map(|s| s.board().expect("valid setups"))
        .collect();
    let mut rng = FastRng::new(args.seed);
    let mut moves = 0u64;
    let mut red = 0u64;
    let started = Instant::now();
    for game in 0..args.games {
        let mut board = starts[(game % 64) as usize].clone();
        let (winner, n) = random_playout(&mut board, &mut rng);
        moves += u64::from(n);
        red += u64::from(winner == Color::Red);
    }
    let secs = started.elapsed().as_secs_f64();
    outln!(
        "{} playouts, {} moves in {secs:.3} s: {} moves/s, {:.1} moves per game, red won {:.1}%",
        thousands(args.games),
        thousands(moves),
        thousands((moves as f64 / secs) as u64),
        moves as f64 / args.games.max(1) as f64,
        100.0 * red as f64 / args.games.max(1) as f64
    )?;
    Ok(())
}
