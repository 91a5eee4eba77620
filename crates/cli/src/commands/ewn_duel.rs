//! `ply ewn host`, `ply ewn agent`, `ply ewn replay`, `ply ewn playouts`: the two-player duel.

use std::io::{BufRead, Write};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use ply_ewn::duel::{
    Agent, AgentPlayer, AlphaBetaAgent, Board, Color, DuelMove, End, FastRng, Forfeit, GameRecord,
    MatchConfig, MctsAgent, MctsAgentConfig, MoveReport, Player, PlayerSummary, PlayoutStyle,
    ProcessPlayer, RandomAgent, Setup, parse_dice_file, parse_move, random_playout, run_agent,
    run_match, summarise,
};
use ply_search::MctsConfig;
use serde::Serialize;

use crate::format::{read_input, table, thousands};

/// The course's 60 dice sequences, bundled.
pub const COURSE_DICE: &str = include_str!("../../../../data/ewn-duel/dice_seq.txt");

/// Arguments of `ply ewn host`.
#[derive(Args, Debug)]
pub struct HostArgs {
    /// Player 0's command line (started with `sh -c`); omitted: a human at this terminal.
    #[arg(long = "p0", value_name = "CMD")]
    p0: Option<String>,
    /// Player 1's command line; omitted: a human at this terminal.
    #[arg(long = "p1", value_name = "CMD")]
    p1: Option<String>,
    /// Games to play (first mover alternates, starting with player 0).
    #[arg(short = 'r', long = "rounds", default_value_t = 1)]
    rounds: u32,
    /// A dice file (21 digits 0-5 per line); default: the course's 60 sequences.
    #[arg(long, value_name = "FILE")]
    dice_file: Option<String>,
    /// Seed of the cube permutations and the dice line of each game.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Seconds per move, measured by the host.
    #[arg(long, default_value_t = 2.0)]
    move_time: f64,
    /// Write every game as a JSON line here.
    #[arg(long, value_name = "FILE")]
    log: Option<String>,
    /// Print the results as JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Agent kinds.
#[derive(Subcommand, Debug, Clone)]
pub enum AgentKind {
    /// Uniformly random legal moves (the course's easy).
    Random {
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Negamax alpha-beta to a fixed depth with the course's evaluation (normal: 2, hard: 8).
    Alphabeta {
        /// Search depth in plies.
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Add iterative deepening and a transposition table (same depth, fewer nodes).
        #[arg(long)]
        strong: bool,
        /// ply's strongest alpha-beta: iterative deepening with the table, as deep as this
        /// many seconds per move allow (instead of a fixed depth).
        #[arg(long, conflicts_with_all = ["depth", "strong"])]
        move_time: Option<f64>,
    },
    /// Monte-Carlo tree search with UCB1 over the known dice (MCTS-Solver, tree reuse).
    Mcts(MctsArgs),
}

/// Playout policies of the MCTS agent.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayoutArg {
    /// Uniformly random moves.
    Random,
    /// Take an immediate win when there is one, else random.
    Wins,
    /// Take an immediate win, avoid moves that let the opponent win at once.
    Safe,
}

/// Arguments of `ply ewn agent mcts`.
#[derive(Args, Debug, Clone)]
pub struct MctsArgs {
    /// Seconds per move, counted from the moment the opponent's move arrives (the course's
    /// host allows 2).
    #[arg(long, default_value_t = 1.8)]
    move_time: f64,
    /// Playout seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Per move on stderr: iterations, tree size, the best move's visits and value, the
    /// principal variation.
    #[arg(long)]
    verbose: bool,
    /// UCB1 exploration constant.
    #[arg(long, default_value_t = MctsAgentConfig::default().search.exploration)]
    exploration: f64,
    /// Weight of implicit minimax backups of the distance evaluation (0: off).
    #[arg(long, default_value_t = MctsAgentConfig::default().search.minimax)]
    minimax: f64,
    /// Playout policy.
    #[arg(long, value_enum, default_value_t = PlayoutArg::Wins)]
    playouts: PlayoutArg,
    /// Do not prove wins and losses (plain UCT).
    #[arg(long)]
    no_solver: bool,
    /// Start a new tree every move instead of keeping the subtree of the moves played.
    #[arg(long)]
    no_reuse: bool,
    /// In a position proven lost, play the solver's arbitrary losing move instead of the
    /// choice of a search without proofs.
    #[arg(long)]
    no_resist: bool,
}

impl MctsArgs {
    /// The agent's configuration.
    fn config(&self) -> Result<MctsAgentConfig> {
        let move_time = positive_seconds(self.move_time, "--move-time")?;
        if !(0.0..=1.0).contains(&self.minimax) {
            bail!("--minimax {} is outside 0-1", self.minimax);
        }
        if !(self.exploration >= 0.0 && self.exploration.is_finite()) {
            bail!(
                "--exploration {} is not a finite non-negative number",
                self.exploration
            );
        }
        let defaults = MctsAgentConfig::default();
        Ok(MctsAgentConfig {
            move_time,
            search: MctsConfig {
                exploration: self.exploration,
                minimax: self.minimax,
                solver: !self.no_solver,
                ..defaults.search
            },
            playouts: PlayoutStyle {
                take_wins: self.playouts != PlayoutArg::Random,
                avoid_losses: self.playouts == PlayoutArg::Safe,
            },
            reuse: !self.no_reuse,
            resist: !self.no_resist,
            seed: self.seed,
        })
    }
}

/// The MCTS agent, reporting each move on stderr.
struct VerboseMcts(MctsAgent);

impl Agent for VerboseMcts {
    fn new_game(&mut self, board: &Board, me: Color) {
        self.0.new_game(board, me);
    }

    fn choose(&mut self, board: &Board, received: Instant) -> DuelMove {
        let mv = self.0.choose(board, received);
        if let Some(report) = self.0.last_report() {
            eprintln!("{}", describe_move(board, report));
        }
        mv
    }

    fn observe(&mut self, board: &Board, mv: DuelMove) {
        self.0.observe(board, mv);
    }
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

/// Arguments of `ply ewn agent`.
#[derive(Args, Debug)]
pub struct AgentArgs {
    #[command(subcommand)]
    kind: AgentKind,
}

/// Arguments of `ply ewn replay`.
#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A log written by `ply ewn host --log`.
    pub log: String,
    /// The game to show (1-based).
    #[arg(long, default_value_t = 1)]
    pub game: usize,
}

/// Arguments of `ply ewn play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The opponent: random (easy), normal (alpha-beta depth 2), hard (depth 8) or
    /// alphabeta-D; omitted: two humans at this terminal.
    #[arg(long, value_name = "KIND")]
    pub vs: Option<String>,
    /// Play red and move first (the default).
    #[arg(long, conflicts_with = "second")]
    pub first: bool,
    /// Play blue and move second.
    #[arg(long)]
    pub second: bool,
    /// Seed of the cube permutations and the dice line.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of `ply ewn playouts`.
#[derive(Args, Debug)]
pub struct PlayoutArgs {
    /// Random playouts to run.
    #[arg(long, default_value_t = 1_000_000)]
    games: u64,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// `secs` as a positive duration, or an error naming the option.
fn positive_seconds(secs: f64, option: &str) -> Result<Duration> {
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .with_context(|| format!("{option} {secs} is not a positive duration"))
}

/// Rewrites the course's single-dash spellings `-p0 CMD` and `-p1 CMD` to `--p0` and `--p1`.
pub fn course_spellings(args: impl Iterator<Item = String>) -> Vec<String> {
    args.map(|a| match a.as_str() {
        "-p0" => "--p0".to_string(),
        "-p1" => "--p1".to_string(),
        _ => a,
    })
    .collect()
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
            eprintln!("{}", board.render());
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
        eprintln!(
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
            eprint!(
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
                Some((_, Err(why))) => eprintln!("illegal: {why}"),
                None => eprintln!("type two digits: the cube 0-5 and the direction 0-3"),
            }
        }
    }

    fn tell(&mut self, mv: Option<DuelMove>) -> Result<(), Forfeit> {
        if let (Some(board), Some(mv)) = (self.board.as_mut(), mv) {
            eprintln!("opponent plays {mv}");
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

fn player(name: &str, command: Option<&String>) -> Box<dyn Player> {
    match command {
        Some(cmd) => Box::new(ProcessPlayer::new(name, cmd)),
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
        "game {}: p{} {} ({color}) wins, {how}, {} moves",
        record.game + 1,
        record.winner,
        names[record.winner],
        record.moves.len()
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
    let dice_text = match &args.dice_file {
        Some(path) => read_input(path)?,
        None => COURSE_DICE.to_string(),
    };
    let dice = parse_dice_file(&dice_text)
        .map_err(|e| anyhow::anyhow!(e))
        .with_context(|| args.dice_file.clone().unwrap_or("bundled dice".into()))?;
    let move_time = positive_seconds(args.move_time, "--move-time")?;
    if args.rounds == 0 {
        bail!("-r/--rounds must be at least 1");
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
    let mut p0 = player(&name0, args.p0.as_ref());
    let mut p1 = player(&name1, args.p1.as_ref());
    let mut log_error = None;
    let records = run_match(&mut [p0.as_mut(), p1.as_mut()], &config, |record| {
        let line = game_line(record, names);
        if args.json {
            eprintln!("{line}");
        } else {
            println!("{line}");
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
    if let Some(e) = log_error {
        return Err(e.context("writing the log"));
    }
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

/// Runs `ply ewn agent KIND` on stdin/stdout.
pub fn run_agent_command(args: &AgentArgs) -> Result<()> {
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match args.kind {
        AgentKind::Random { seed } => run_agent(&mut RandomAgent::new(seed), stdin, stdout)?,
        AgentKind::Alphabeta {
            move_time: Some(secs),
            ..
        } => {
            let time = positive_seconds(secs, "--move-time")?;
            run_agent(&mut AlphaBetaAgent::timed(time), stdin, stdout)?
        }
        AgentKind::Alphabeta { depth, strong, .. } => {
            run_agent(&mut AlphaBetaAgent::new(depth, strong), stdin, stdout)?
        }
        AgentKind::Mcts(ref mcts) => {
            let agent = MctsAgent::new(mcts.config()?);
            if mcts.verbose {
                run_agent(&mut VerboseMcts(agent), stdin, stdout)?
            } else {
                let mut agent = agent;
                run_agent(&mut agent, stdin, stdout)?
            }
        }
    };
    Ok(())
}

/// Runs `ply ewn playouts`: random games from random setups, moves per second.
pub fn run_playouts(args: &PlayoutArgs) -> Result<()> {
    let dice = parse_dice_file(COURSE_DICE).map_err(|e| anyhow::anyhow!(e))?;
    let config = MatchConfig {
        rounds: 64,
        seed: args.seed,
        dice,
        move_time: Duration::from_secs(1),
    };
    let starts: Vec<Board> = ply_ewn::duel::setups(&config)
        .iter()
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
    println!(
        "{} playouts, {} moves in {secs:.3} s: {} moves/s, {:.1} moves per game, red won {:.1}%",
        thousands(args.games),
        thousands(moves),
        thousands((moves as f64 / secs) as u64),
        moves as f64 / args.games.max(1) as f64,
        100.0 * red as f64 / args.games.max(1) as f64
    );
    Ok(())
}

/// A short in-process match for the demo: `games` games on the course's dice (seed 1),
/// first mover alternating. Returns player 0's wins and its average move time.
fn demo_match(p0: &mut dyn Player, p1: &mut dyn Player, games: u32) -> Result<(u32, f64)> {
    let dice = parse_dice_file(COURSE_DICE).map_err(|e| anyhow::anyhow!(e))?;
    let config = MatchConfig {
        rounds: games,
        seed: 1,
        dice,
        move_time: Duration::from_secs(2),
    };
    let names = [p0.name().to_string(), p1.name().to_string()];
    let records = run_match(&mut [p0, p1], &config, |_| {});
    let summary = summarise(&records, [names[0].as_str(), names[1].as_str()]);
    Ok((summary[0].wins, summary[0].average_move))
}

/// The demo's baseline match: alpha-beta depth 8 against random.
pub fn demo_duel(games: u32) -> Result<(u32, f64)> {
    let mut ab = AgentPlayer::new("alphabeta-8", AlphaBetaAgent::new(8, false));
    let mut random = AgentPlayer::new("random", RandomAgent::new(1));
    demo_match(&mut ab, &mut random, games)
}

/// The demo's MCTS match: MCTS with `move_time` per move against alpha-beta depth 8.
pub fn demo_mcts(games: u32, move_time: Duration) -> Result<(u32, f64)> {
    let config = MctsAgentConfig {
        move_time,
        ..MctsAgentConfig::default()
    };
    let mut mcts = AgentPlayer::new("mcts", MctsAgent::new(config));
    let mut ab = AgentPlayer::new("alphabeta-8", AlphaBetaAgent::new(8, false));
    demo_match(&mut mcts, &mut ab, games)
}
