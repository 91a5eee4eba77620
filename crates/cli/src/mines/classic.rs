//! `ply mines classic`: classic Minesweeper as the field measures its solvers: one seeded
//! game solved move by move, and a win-rate benchmark as a batch (items: blocks of games).

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::builder::RangedU64ValueParser;
use clap::{Args, Subcommand};
use ply_mines::classic::{
    BLOCK_GAMES, ClassicGame, EXPLODED, FirstClick, HIDDEN, Level, MAX_GAMES, Reveal, Rules,
    Strategy, Tally, block_games, blocks, check_block, game_seed, play_games, play_traced,
    published_rates,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::batch::{self, BatchArgs, Header, Job};
use crate::format::{plural, progress, table, thousands};
use crate::signals::interrupt_flag;

use super::picture::Guess;

/// `ply mines classic` verbs.
#[derive(Subcommand, Debug)]
pub(crate) enum ClassicCommand {
    /// Plays a classic game by hand in a terminal UI, with the solver's hints.
    Play(ClassicPlayArgs),
    /// Solves one seeded game: each move, whether it was certain, and the chance that each
    /// guess was a mine.
    Solve(ClassicSolveArgs),
    /// The solver's win rate over many seeded games, with its 95 % interval (a batch:
    /// --shard, --log, --resume, --emit-slurm; items are blocks of 1,000 games).
    Bench(ClassicBenchArgs),
}

/// The board: a standard level, or a size and a number of mines; the first-click rule and
/// where the first click goes.
#[derive(Args, Debug, Clone)]
pub(crate) struct BoardArgs {
    /// A standard level: beginner (9 x 9, 10 mines), intermediate (16 x 16, 40) or expert
    /// (30 x 16, 99). The default without --width, --height and --mines: expert.
    #[arg(long, conflicts_with_all = ["width", "height", "mines"])]
    pub level: Option<Level>,
    /// Columns of a custom board (with --height and --mines).
    #[arg(long, requires_all = ["height", "mines"])]
    pub width: Option<u16>,
    /// Rows of a custom board.
    #[arg(long, requires_all = ["width", "mines"])]
    pub height: Option<u16>,
    /// Mines of a custom board.
    #[arg(long, requires_all = ["width", "height"])]
    pub mines: Option<u32>,
    /// What the first click is promised: `safe` (the clicked cell is no mine) or `zero` (it
    /// and its neighbours are none, so it opens a region).
    #[arg(long, default_value = "safe")]
    pub rule: FirstClick,
    /// Where the first click goes, ROW,COL from 0 (default: a corner under `safe`; under
    /// `zero`, (3, 3) on expert and (2, 2) elsewhere).
    #[arg(long, value_name = "ROW,COL", value_parser = parse_cell, allow_hyphen_values = true)]
    pub start: Option<(u16, u16)>,
}

/// `--endgame`, within the library's cap.
fn parse_endgame(text: &str) -> Result<usize, String> {
    let n: u64 = text
        .parse()
        .map_err(|_| format!("'{text}' is not a whole number of placements"))?;
    Strategy::new(0, n)
        .map(|s| s.endgame)
        .map_err(|e| e.to_string())
}

fn parse_cell(text: &str) -> Result<(u16, u16), String> {
    let bad = || format!("'{text}' is not ROW,COL (two numbers from 0, with a comma)");
    let (row, col) = text.split_once(',').ok_or_else(bad)?;
    Ok((
        row.trim().parse().map_err(|_| bad())?,
        col.trim().parse().map_err(|_| bad())?,
    ))
}

impl BoardArgs {
    /// The rules these arguments name.
    ///
    /// # Errors
    /// Rules the library refuses (a usage error).
    pub(crate) fn rules(&self) -> Result<Rules> {
        let rules = Rules::from_options(
            self.level,
            self.width,
            self.height,
            self.mines,
            self.rule,
            self.start,
        );
        rules.map_err(|e| crate::outcome::usage(e.to_string()))
    }

    /// The board's name for people: the level, or its size and mines.
    pub(crate) fn describe(rules: &Rules) -> String {
        let size = format!(
            "{}, {}",
            rules.size_name(),
            plural(u64::from(rules.mines), "mine")
        );
        match rules.known_level() {
            Some(level) => format!("{level} ({size})"),
            None => size,
        }
    }
}

/// Arguments of `ply mines classic play`.
#[derive(Args, Debug)]
pub(crate) struct ClassicPlayArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The game's seed (default: from the clock, shown on screen to replay it).
    #[arg(long)]
    pub seed: Option<u64>,
}

/// Arguments of `ply mines classic solve`.
#[derive(Args, Debug)]
pub(crate) struct ClassicSolveArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// The seed of the run the game belongs to (as `classic bench --seed`).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The game's number in that run, from 0 (as the bench numbers its games).
    #[arg(long, default_value_t = 0)]
    pub game: u64,
    /// The most guesses weighed by a one-move look-ahead (0: always the safest cell).
    #[arg(long, default_value_t = Strategy::default().lookahead)]
    pub lookahead: usize,
    /// The most mine placements left for exact play of the endgame (every placement played
    /// out to find the click that wins most often; 0: never; at most 65,535).
    #[arg(long, default_value_t = Strategy::default().endgame, value_parser = parse_endgame)]
    pub endgame: usize,
    /// Print JSON (the moves and the result) instead of text.
    #[arg(long)]
    pub json: bool,
    /// Also draw the game's last position as an SVG picture in FILE: every mine, the one hit,
    /// and each guess with its number (listed under the board with its chance).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
}

/// Arguments of `ply mines classic bench`.
#[derive(Args, Debug)]
pub(crate) struct ClassicBenchArgs {
    #[command(flatten)]
    pub board: BoardArgs,
    /// Games to play.
    #[arg(long, default_value_t = 10_000,
          value_parser = RangedU64ValueParser::<u64>::new().range(1..=MAX_GAMES))]
    pub games: u64,
    /// The run's seed: game i plays the board of seed i of this run, whatever the shard.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The most guesses weighed by a one-move look-ahead (0: always the safest cell).
    #[arg(long, default_value_t = Strategy::default().lookahead)]
    pub lookahead: usize,
    /// The most mine placements left for exact play of the endgame (every placement played
    /// out to find the click that wins most often; 0: never; at most 65,535).
    #[arg(long, default_value_t = Strategy::default().endgame, value_parser = parse_endgame)]
    pub endgame: usize,
    /// Worker threads (games in parallel, one thread a game; default: every core).
    #[arg(long, value_parser = RangedU64ValueParser::<usize>::new().range(1..=ply_search::MAX_THREADS as u64))]
    pub threads: Option<usize>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Runs a `ply mines classic` command.
pub(super) fn run(cmd: ClassicCommand) -> Result<()> {
    match cmd {
        ClassicCommand::Play(args) => super::classic_tui::run_game(args.board.rules()?, args.seed),
        ClassicCommand::Solve(args) => solve(&args),
        ClassicCommand::Bench(args) => bench(&args),
    }
}

/// One move of a solved game, also its JSON record.
#[derive(Serialize, Debug)]
struct MoveRow {
    row: u16,
    col: u16,
    certain: bool,
    mine_probability: f64,
    /// `opened` (with the cells opened) or `mine`.
    result: &'static str,
    opened: u32,
}

/// Runs `ply mines classic solve`.
fn solve(args: &ClassicSolveArgs) -> Result<()> {
    let rules = args.board.rules()?;
    let seed = game_seed(args.seed, args.game);
    let mut moves = Vec::new();
    let strategy = Strategy {
        lookahead: args.lookahead,
        endgame: args.endgame,
    };
    let record = play_traced(&rules, &strategy, seed, |mv, reveal| {
        let (result, opened) = match reveal {
            Reveal::Opened(n) => ("opened", n),
            Reveal::Mine => ("mine", 0),
            Reveal::Nothing => ("nothing", 0),
        };
        moves.push(MoveRow {
            row: mv.row,
            col: mv.col,
            certain: mv.certain,
            mine_probability: mv.mine_probability,
            result,
            opened,
        });
    });
    // The final board, replayed from the moves (the game is the seed's).
    let mut game = ClassicGame::new(rules, seed);
    for mv in &moves {
        game.click(mv.row, mv.col)?;
    }
    if let Some(path) = &args.svg {
        let guesses: Vec<Guess> = moves
            .iter()
            .enumerate()
            .filter(|(_, mv)| !mv.certain)
            .map(|(i, mv)| Guess {
                at: (mv.row, mv.col),
                number: i + 1,
                mine_probability: mv.mine_probability,
            })
            .collect();
        let title = format!(
            "{}, first click {} at ({}, {}), game {} of seed {}: {}",
            BoardArgs::describe(&rules),
            rules.first_click,
            rules.start.0,
            rules.start.1,
            args.game,
            args.seed,
            if record.won { "won" } else { "lost" }
        );
        super::picture::save(path, &title, &game, &guesses)?;
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        let doc = json!({
            "rules": rules,
            "seed": args.seed,
            "game": args.game,
            "won": record.won,
            "opened": record.opened,
            "clicks": record.clicks,
            "guesses": record.guesses,
            "guessed_safety": record.guessed_safety,
            "moves": moves,
        });
        serde_json::to_writer_pretty(&mut out, &doc)?;
        writeln!(out)?;
        return Ok(());
    }
    writeln!(
        out,
        "{}, first click {} at ({}, {}); game {} of seed {}",
        BoardArgs::describe(&rules),
        rules.first_click,
        rules.start.0,
        rules.start.1,
        args.game,
        args.seed
    )?;
    for (i, mv) in moves.iter().enumerate() {
        let kind = if mv.certain {
            "certain".to_string()
        } else {
            format!("guess, {:.2} % a mine", 100.0 * mv.mine_probability)
        };
        let result = match mv.result {
            "opened" => format!("opened {}", mv.opened),
            other => other.to_string(),
        };
        writeln!(
            out,
            "{:>4}  ({:>2}, {:>2})  {kind:<24} {result}",
            i + 1,
            mv.row,
            mv.col
        )?;
    }
    write_board(&mut out, &game)?;
    writeln!(
        out,
        "{}: {} of {} safe cells opened, {} {}, the guesses' chance {:.2} %",
        if record.won { "won" } else { "lost" },
        record.opened,
        rules.cells() - rules.mines,
        thousands(u64::from(record.guesses)),
        if record.guesses == 1 {
            "guess"
        } else {
            "guesses"
        },
        100.0 * record.guessed_safety
    )?;
    Ok(())
}

/// The characters of the board `solve` prints, and the legend under it.
const LEGEND: &str =
    "legend: . open, no mine around; 1-8 open, mines around; x mine; X the mine hit; # not opened";

/// Writes the last position of `game` with every mine shown, then [`LEGEND`].
fn write_board(out: &mut impl Write, game: &ClassicGame) -> Result<()> {
    let rules = game.rules();
    for row in 0..rules.height {
        let line: String = (0..rules.width)
            .map(|col| {
                let v = game.view()[usize::from(row) * usize::from(rules.width) + usize::from(col)];
                match v {
                    EXPLODED => 'X',
                    HIDDEN if game.is_mine(row, col) == Some(true) => 'x',
                    HIDDEN => '#',
                    0 => '.',
                    n => char::from(b'0' + n),
                }
            })
            .collect();
        writeln!(out, "{line}")?;
    }
    writeln!(out, "{LEGEND}")?;
    Ok(())
}

/// One block's record: its games' tally and the seconds they took.
#[derive(Serialize, Deserialize, Debug, Clone, Copy)]
pub(crate) struct BlockItem {
    /// The tally of the block's games.
    #[serde(flatten)]
    tally: Tally,
    /// Wall-clock seconds of the block (on the run's threads).
    seconds: f64,
    /// The run's threads.
    threads: usize,
}

/// The work of a classic bench's log header, checked: rules the library accepts, a number of
/// games it plays, an endgame within its cap.
#[derive(Deserialize)]
struct BenchWork {
    rules: Rules,
    games: u64,
    endgame: u64,
}

impl BenchWork {
    fn of(work: &Map<String, Value>) -> Result<BenchWork, String> {
        let work: BenchWork = serde_json::from_value(Value::Object(work.clone()))
            .map_err(|e| format!("not a classic bench's header: {e}"))?;
        work.rules.check().map_err(|e| e.to_string())?;
        if !(1..=MAX_GAMES).contains(&work.games) {
            return Err(format!(
                "{} is not a number of games (1 to {})",
                work.games,
                thousands(MAX_GAMES)
            ));
        }
        Strategy::new(0, work.endgame).map_err(|e| e.to_string())?;
        Ok(work)
    }
}

/// `ply mines classic bench` as a batch.
pub(crate) struct ClassicBenchJob;

impl Job for ClassicBenchJob {
    type Item = BlockItem;
    const COMMAND: &'static str = "mines classic bench";
    const NOUN: &'static str = "block";

    fn check_header(header: &Header) -> Result<(), String> {
        let work = BenchWork::of(&header.work)?;
        if blocks(work.games) != header.items {
            return Err(format!(
                "its {} make {}, not the {} it says",
                plural(work.games, "game"),
                plural(blocks(work.games), "block"),
                thousands(header.items)
            ));
        }
        Ok(())
    }

    fn check_item(header: &Header, index: u64, item: &BlockItem) -> Result<(), String> {
        let work = BenchWork::of(&header.work)?;
        check_block(work.games, index, &item.tally).map_err(|e| e.to_string())?;
        if !(item.seconds.is_finite() && item.seconds >= 0.0) {
            return Err(format!("{} seconds is not a duration", item.seconds));
        }
        if !(1..=ply_search::MAX_THREADS).contains(&item.threads) {
            return Err(format!(
                "{} threads is not in 1-{}",
                item.threads,
                ply_search::MAX_THREADS
            ));
        }
        Ok(())
    }

    fn report(
        work: &Map<String, Value>,
        items: &[BlockItem],
        json: bool,
        out: &mut dyn Write,
    ) -> Result<Vec<String>> {
        let tally = items
            .iter()
            .fold(Tally::default(), |acc, item| acc.merged(item.tally));
        let seconds: f64 = items.iter().map(|i| i.seconds).sum();
        let thread_seconds: f64 = items.iter().map(|i| i.seconds * i.threads as f64).sum();
        let (low, high) = tally.interval();
        let per_second = if seconds > 0.0 {
            tally.games as f64 / seconds
        } else {
            0.0
        };
        let per_thread_second = if thread_seconds > 0.0 {
            tally.games as f64 / thread_seconds
        } else {
            0.0
        };
        let rules: Option<Rules> = work
            .get("rules")
            .and_then(|r| serde_json::from_value(r.clone()).ok());
        if json {
            let doc = json!({
                "rules": rules,
                "seed": work.get("seed"),
                "lookahead": work.get("lookahead"),
                "endgame": work.get("endgame"),
                "games": tally.games,
                "wins": tally.wins,
                "rate": tally.rate(),
                "interval": [low, high],
                "guesses_per_game": tally.guesses as f64 / tally.games.max(1) as f64,
                "seconds": seconds,
                "games_per_second": per_second,
                "games_per_thread_second": per_thread_second,
                "published": rules.as_ref().map(|r| {
                    published_rates(r)
                        .iter()
                        .map(|p| json!({ "solver": p.solver, "rate": p.rate }))
                        .collect::<Vec<_>>()
                }),
            });
            serde_json::to_writer_pretty(&mut *out, &doc)?;
            writeln!(out)?;
            return Ok(Vec::new());
        }
        let mut t = table([
            "board",
            "first click",
            "games",
            "wins",
            "win rate",
            "95 % interval",
            "games/s",
        ]);
        t.add_row([
            rules
                .as_ref()
                .map_or_else(|| "?".into(), BoardArgs::describe),
            rules.as_ref().map_or_else(
                || "?".into(),
                |r| format!("{} at ({}, {})", r.first_click, r.start.0, r.start.1),
            ),
            thousands(tally.games),
            thousands(tally.wins),
            format!("{:.2} %", 100.0 * tally.rate()),
            format!("{:.2}-{:.2} %", 100.0 * low, 100.0 * high),
            format!("{per_second:.0}"),
        ]);
        writeln!(out, "{t}")?;
        writeln!(
            out,
            "seed {}, look-ahead {}, exact endgame from {} placements: {:.2} guesses a game; \
             {per_thread_second:.1} games a second a thread",
            work.get("seed")
                .map_or_else(|| "?".into(), Value::to_string),
            work.get("lookahead")
                .map_or_else(|| "?".into(), Value::to_string),
            work.get("endgame")
                .map_or_else(|| "?".into(), Value::to_string),
            tally.guesses as f64 / tally.games.max(1) as f64,
        )?;
        let published = rules.as_ref().map_or(&[][..], published_rates);
        if !published.is_empty() {
            let list: Vec<String> = published
                .iter()
                .map(|p| format!("{} {:.2} %", p.solver, 100.0 * p.rate))
                .collect();
            writeln!(out, "published on these rules: {}", list.join(", "))?;
        }
        Ok(Vec::new())
    }
}

/// Runs `ply mines classic bench`.
fn bench(args: &ClassicBenchArgs) -> Result<()> {
    let rules = args.board.rules()?;
    let mut work = Map::new();
    work.insert("rules".into(), json!(rules));
    work.insert("games".into(), json!(args.games));
    work.insert("seed".into(), json!(args.seed));
    work.insert("lookahead".into(), json!(args.lookahead));
    work.insert("endgame".into(), json!(args.endgame));
    let strategy = Strategy {
        lookahead: args.lookahead,
        endgame: args.endgame,
    };
    let Some(mut session) = batch::start::<ClassicBenchJob>(work, blocks(args.games), &args.batch)?
    else {
        return Ok(());
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, std::num::NonZero::get));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("starting the bench's threads")?;
    let stop = interrupt_flag()?;
    // The shard's games less those its log holds, counted without listing the blocks (a
    // run may have a billion of them).
    let shard = session.shard();
    let last = blocks(args.games) - 1;
    let shard_games = shard.size(blocks(args.games)) * BLOCK_GAMES
        - if shard.owns(last) {
            BLOCK_GAMES - block_games(args.games, last).count() as u64
        } else {
            0
        };
    let done_games: u64 = session.results().map(|item| item.tally.games).sum();
    let bar = progress(shard_games - done_games, "mines classic bench");
    let mut stopped = false;
    for block in session.pending() {
        let started = Instant::now();
        let games = block_games(args.games, block);
        let played =
            pool.install(|| play_games(&rules, &strategy, args.seed, games, &stop, &|| bar.inc(1)));
        let Some(tally) = played else {
            stopped = true;
            break;
        };
        let item = BlockItem {
            tally,
            seconds: started.elapsed().as_secs_f64(),
            threads,
        };
        session.record_or_fail(block, item)?;
    }
    bar.finish_and_clear();
    let done = session.results().count() as u64;
    session.finish(args.json)?;
    if stopped {
        return Err(crate::outcome::interrupted(format!(
            "interrupted after {}: the block in play was dropped (--resume plays it again)",
            plural(done, "whole block")
        )));
    }
    Ok(())
}
