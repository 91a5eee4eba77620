//! `ply mines`: maps, the game server, the judge and simple players.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use ply_mines::client::Session;
use ply_mines::judge::{Ending, JudgeConfig, Verdict, judge};
use ply_mines::map::{MineMap, check_size, default_mines, write_map};
use ply_mines::opening::largest_opening;
use ply_mines::players;
use ply_mines::server::{ServerSetup, serve};
use ply_mines::solver::{SolverConfig, Strategy, solve_session};

use crate::format::{progress, thousands};

/// `ply mines` verbs.
#[derive(Subcommand, Debug)]
pub enum MinesCommand {
    /// Writes a random map with exactly K mines.
    Gen(GenArgs),
    /// Checks a map file and reports its size, mines and largest opening.
    Info(InfoArgs),
    /// Judges a player: starts a server and the player, enforces the time limit, scores.
    Judge(JudgeArgs),
    /// The game server (started by a judge, ply's or the contest's).
    Server,
    /// The contest's naive player: clicks every cell on one channel (run under a judge).
    Naive,
    /// Benchmark player: click_do_not_expand round trips on one channel (run under a judge).
    Probe(ProbeArgs),
    /// Plays a map by hand in a terminal UI (under a judge, or with --local).
    Play(crate::tui::mines::PlayArgs),
    /// The parallel solver: logic first, least-risk guesses, one channel per thread (run
    /// under a judge).
    Solve(SolveArgs),
    /// The contest's reference solution, re-implemented for comparison (run under a judge).
    Reference(ReferenceArgs),
}

/// Arguments of `ply mines solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Worker threads, one channel each (default: half the cores, at least 1 and at most 8:
    /// each busy channel also keeps a server thread spinning on a core).
    #[arg(long)]
    threads: Option<usize>,
    /// Print the solver's figures as JSON on stderr at the end.
    #[arg(long)]
    json: bool,
}

/// Arguments of `ply mines reference`.
#[derive(Args, Debug)]
pub struct ReferenceArgs {
    /// Worker threads, one channel each (the contest's reference used 8).
    #[arg(long, default_value_t = 8)]
    threads: usize,
    /// Seed of the random guesses.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Arguments of `ply mines gen`.
#[derive(Args, Debug)]
pub struct GenArgs {
    /// Board side N: a power of two from 16 to 65536.
    #[arg(long)]
    size: u64,
    /// Number of mines K (default N*N/8).
    #[arg(long)]
    mines: Option<u64>,
    /// Random seed: the same (N, K, seed) always gives the same map.
    #[arg(long)]
    seed: u64,
    /// The map file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: PathBuf,
    /// Replace FILE if it exists.
    #[arg(long)]
    force: bool,
}

/// Arguments of `ply mines info`.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// The map file.
    file: PathBuf,
    /// Skip the largest-opening scan (slow on the largest maps).
    #[arg(long)]
    no_opening: bool,
}

/// Arguments of `ply mines judge`, in the contest's positional order.
#[derive(Args, Debug)]
pub struct JudgeArgs {
    /// The player's command line (run with `sh -c` in its own process group).
    player: String,
    /// The map file.
    map: PathBuf,
    /// The score's constant A (the contest's tests use 0 or 8).
    #[arg(value_name = "A")]
    a: Option<i64>,
    /// Wall-clock limit in seconds, from the start of the server and the player.
    #[arg(value_name = "TIME_LIMIT")]
    time_limit_pos: Option<f64>,
    /// The server's command line (default: this program's `mines server`).
    #[arg(value_name = "SERVER")]
    server_pos: Option<String>,
    /// The constant A (overrides the positional one).
    #[arg(long)]
    constant_a: Option<i64>,
    /// The time limit in seconds (overrides the positional one).
    #[arg(long)]
    time_limit: Option<f64>,
    /// The server's command line (overrides the positional one).
    #[arg(long)]
    server: Option<String>,
    /// Print the result as one JSON object.
    #[arg(long)]
    json: bool,
}

/// Arguments of `ply mines probe`.
#[derive(Args, Debug)]
pub struct ProbeArgs {
    /// Round trips to make.
    #[arg(long, default_value_t = 10_000_000)]
    clicks: u64,
    /// Visit cells this far apart (row-major, wrapping).
    #[arg(long, default_value_t = 1)]
    stride: u64,
}

/// Runs a `ply mines` command.
pub fn run(cmd: MinesCommand) -> Result<()> {
    match cmd {
        MinesCommand::Gen(args) => gen_map(&args),
        MinesCommand::Info(args) => info(&args),
        MinesCommand::Judge(args) => run_judge(&args),
        MinesCommand::Server => {
            let setup = ServerSetup::from_env().context("mines server")?;
            serve(setup).context("mines server")?;
            Ok(())
        }
        MinesCommand::Naive => {
            let session = Session::connect().context("naive player")?;
            let stats = players::naive(&session).context("naive player")?;
            eprintln!(
                "naive: {} clicks ({} skipped, {} mines) in {:.2} s",
                thousands(stats.clicks),
                thousands(stats.skipped),
                thousands(stats.mines),
                stats.elapsed.as_secs_f64()
            );
            Ok(())
        }
        MinesCommand::Probe(args) => {
            let session = Session::connect().context("probe")?;
            let stats = players::probe(&session, args.clicks, args.stride).context("probe")?;
            let secs = stats.elapsed.as_secs_f64();
            eprintln!(
                "probe: {} click_do_not_expand round trips in {secs:.3} s: {:.2} M/s",
                thousands(stats.clicks),
                stats.clicks as f64 / secs / 1e6
            );
            Ok(())
        }
        MinesCommand::Play(args) => crate::tui::mines::play(&args),
        MinesCommand::Solve(args) => {
            let mut config = SolverConfig::default();
            if let Some(threads) = args.threads {
                if !(1..=MAX_THREADS).contains(&threads) {
                    bail!("--threads {threads} is outside 1-{MAX_THREADS}");
                }
                config.threads = threads;
            }
            play(&config, "solve", args.json)
        }
        MinesCommand::Reference(args) => {
            if !(1..=MAX_THREADS).contains(&args.threads) {
                bail!("--threads {} is outside 1-{MAX_THREADS}", args.threads);
            }
            let config = SolverConfig {
                threads: args.threads,
                strategy: Strategy::Reference,
                seed: args.seed,
                ..SolverConfig::default()
            };
            play(&config, "reference", false)
        }
    }
}

/// The most worker threads a player may start (the server allows 1024 channels).
const MAX_THREADS: usize = 1023;

/// Connects to the judge's server and runs a solver; a summary line (or JSON) on stderr.
fn play(config: &SolverConfig, name: &str, json: bool) -> Result<()> {
    let session = Session::connect().with_context(|| format!("mines {name}"))?;
    let stats = solve_session(&session, config).with_context(|| format!("mines {name}"))?;
    if json {
        eprintln!("{}", serde_json::to_string(&stats)?);
    } else {
        eprintln!(
            "{name}: {} threads, {} clicks, {} cells opened, {} guesses ({} on the frontier), \
             {} mines hit, {} pair and {} enumeration deductions in {:.2} s",
            config.threads,
            thousands(stats.clicks),
            thousands(stats.opened),
            thousands(stats.guesses),
            thousands(stats.frontier_guesses),
            thousands(stats.mines_hit),
            thousands(stats.pair_deductions),
            thousands(stats.enum_deductions),
            stats.elapsed.as_secs_f64()
        );
    }
    Ok(())
}

fn gen_map(args: &GenArgs) -> Result<()> {
    let n = check_size(args.size)?;
    let k = args.mines.unwrap_or_else(|| default_mines(n));
    if !args.force && args.output.exists() {
        bail!(
            "{} exists (use --force to overwrite)",
            args.output.display()
        );
    }
    let start = Instant::now();
    let cells = u64::from(n) * u64::from(n);
    let bar = progress(cells, "placing mines");
    let bits = ply_mines::generate::generate(n, k, args.seed, &|done, _| bar.set_position(done))?;
    bar.finish_and_clear();
    write_map(&args.output, n, k, &bits, args.force)?;
    eprintln!(
        "wrote {}: {n} x {n}, {} mines, seed {} in {:.2} s",
        args.output.display(),
        thousands(k),
        args.seed,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn info(args: &InfoArgs) -> Result<()> {
    let map = MineMap::open(&args.file)?;
    let (n, k) = (map.n(), map.k());
    let counted = map.count_mines();
    println!("file     {}", args.file.display());
    println!(
        "size     {n} x {n} ({} cells)",
        thousands(u64::from(n) * u64::from(n))
    );
    println!(
        "mines    {} in the header, {} in the bits",
        thousands(k),
        thousands(counted)
    );
    if counted != k {
        bail!(
            "{}: the header says {k} mines but the bits hold {counted}",
            args.file.display()
        );
    }
    if !args.no_opening {
        let start = Instant::now();
        match largest_opening(&map) {
            Some((size, (r, c))) => println!(
                "opening  largest {} cells, from ({r}, {c}) ({:.1} s)",
                thousands(size),
                start.elapsed().as_secs_f64()
            ),
            None => println!("opening  none (no cell without neighbouring mines)"),
        }
    }
    println!("check    ok");
    Ok(())
}

/// Quotes `text` for `sh`.
pub fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', r"'\''"))
}

/// This program's `mines server` as a command line.
fn own_server() -> Result<String> {
    let exe = std::env::current_exe().context("locating the ply executable")?;
    Ok(format!(
        "{} mines server",
        shell_quote(&exe.display().to_string())
    ))
}

/// Installs SIGINT/SIGTERM/SIGHUP handlers that raise a flag.
pub fn interrupt_flag() -> Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        signal_hook::flag::register(signal, Arc::clone(&flag))
            .context("installing a signal handler")?;
    }
    Ok(flag)
}

/// Judges `player` on `map` (no time limit) with ply's server.
pub fn judge_locally(player: String, map: PathBuf, constant_a: i64) -> Result<Verdict> {
    let config = JudgeConfig {
        player,
        map,
        constant_a,
        time_limit: None,
        server: own_server()?,
    };
    Ok(judge(&config, &*interrupt_flag()?)?)
}

fn run_judge(args: &JudgeArgs) -> Result<()> {
    let limit = args.time_limit.or(args.time_limit_pos);
    let time_limit = match limit {
        Some(secs) if secs > 0.0 && secs.is_finite() => Some(Duration::from_secs_f64(secs)),
        Some(secs) => bail!("time limit {secs} is not a positive number of seconds"),
        None => None,
    };
    let config = JudgeConfig {
        player: args.player.clone(),
        map: args.map.clone(),
        constant_a: args.constant_a.or(args.a).unwrap_or(0),
        time_limit,
        server: match args.server.clone().or(args.server_pos.clone()) {
            Some(server) => server,
            None => own_server()?,
        },
    };
    let verdict = judge(&config, &*interrupt_flag()?)?;
    if args.json {
        println!("{}", serde_json::to_string(&verdict)?);
    } else {
        print_verdict(&verdict);
    }
    if verdict.ending == Ending::Interrupted {
        bail!("interrupted; the player and the server were stopped");
    }
    Ok(())
}

/// Prints a verdict for people.
pub fn print_verdict(v: &Verdict) {
    let safe_cells = v.n * v.n - v.k;
    let ending = match &v.ending {
        Ending::Exited(0) => "exited normally".to_string(),
        Ending::Exited(code) => format!("exited with status {code}"),
        Ending::Signalled(signal) => format!("was killed by signal {signal}"),
        Ending::TimeLimit => "was stopped at the time limit".to_string(),
        Ending::ServerError(e) => format!("was stopped by a server error: {e}"),
        Ending::Interrupted => "was interrupted".to_string(),
    };
    println!("map      {} x {}, {} mines", v.n, v.n, thousands(v.k));
    println!("player   {ending} after {:.3} s", v.elapsed);
    println!(
        "safe     {} of {} opened ({:.4} %)",
        thousands(v.safe_opened),
        thousands(safe_cells),
        100.0 * v.safe_opened as f64 / safe_cells.max(1) as f64
    );
    println!(
        "mines    {} opened ({:.4} % of K)",
        thousands(v.mines_opened),
        100.0 * v.mines_opened as f64 / v.k.max(1) as f64
    );
    println!("score    {:.3} (A = {})", v.score, v.constant_a);
}
