//! `ply sokoboru`: solve puzzle files and verify solutions.

use std::io::Write;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use ply_sokoboru::{
    GenOptions, Puzzle, Solution, SolveError, VerifyError, check_case, generate, parse_puzzles,
    parse_solutions, replay, solve,
};

use crate::Reported;
use crate::commands::BudgetArgs;
use crate::format::{progress, read_parsed};

/// `ply sokoboru` verbs.
#[derive(Subcommand, Debug)]
pub enum SokoboruCommand {
    /// Solves every case of a puzzle file and prints the penalty and moves of each.
    Solve(SolveArgs),
    /// Validates a puzzle file, a solution file, or replays solutions against puzzles.
    Verify(VerifyArgs),
    /// Plays a puzzle file in the terminal, recording solutions.
    Play(PlayArgs),
    /// Generates random puzzles with their optimal penalty (puzzles on stdout, optima on stderr).
    Gen(GenArgs),
}

/// Arguments of `ply sokoboru play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// The puzzle file.
    #[arg(short = 'i', value_name = "PUZZLES")]
    pub input: String,
    /// Record solutions here (the solution format, the true penalty of each solved stage).
    #[arg(short = 'o', value_name = "SOLUTIONS")]
    pub output: Option<String>,
    /// The stage to start from (1-based).
    #[arg(short = 's', value_name = "N", default_value_t = 1)]
    pub stage: usize,
    /// Show the solver's next optimal move.
    #[arg(long)]
    pub hint: bool,
}

/// Arguments of `ply sokoboru gen`.
#[derive(Args, Debug)]
pub struct GenArgs {
    /// Random seed; the same seed and options give the same puzzles.
    #[arg(long)]
    seed: u64,
    /// How many puzzles.
    #[arg(long)]
    count: usize,
    /// Board size as ROWSxCOLS (n*m <= 50).
    #[arg(long, default_value = "5x8", value_parser = parse_size)]
    size: (usize, usize),
    /// Balls (and as many empty boxes) per board.
    #[arg(long, default_value_t = 5)]
    balls: usize,
    /// Keep only puzzles whose optimal penalty is at least this.
    #[arg(long, default_value_t = 0)]
    min_penalty: u32,
    /// The chance that a cell is a wall.
    #[arg(long, default_value_t = 0.2)]
    wall_density: f64,
    /// Drop boards whose search generates more states than this.
    #[arg(long, default_value_t = 5_000_000)]
    max_nodes: u64,
}

fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let (r, c) = text
        .split_once(['x', 'X'])
        .ok_or_else(|| format!("expected ROWSxCOLS, found '{text}'"))?;
    match (r.trim().parse(), c.trim().parse()) {
        (Ok(r), Ok(c)) => Ok((r, c)),
        _ => Err(format!("expected ROWSxCOLS, found '{text}'")),
    }
}

/// Arguments of `ply sokoboru solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The puzzle file (`-` or nothing: standard input).
    #[arg(value_name = "FILE", default_value = "-")]
    file: String,
    /// Worker threads: the cases run in parallel, and a thread whose cases are done helps the
    /// searches still running (the course allowed 2).
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Report each case on stderr: penalty, moves, states expanded, seconds.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// Arguments of `ply sokoboru verify`.
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The puzzle file.
    #[arg(short = 'i', value_name = "PUZZLES")]
    input: Option<String>,
    /// The solution file.
    #[arg(short = 'o', value_name = "SOLUTIONS")]
    output: Option<String>,
}

/// Runs a `ply sokoboru` verb.
pub fn run(cmd: SokoboruCommand) -> Result<()> {
    match cmd {
        SokoboruCommand::Solve(args) => run_solve(&args),
        SokoboruCommand::Verify(args) => run_verify(&args),
        SokoboruCommand::Play(args) => crate::tui::sokoboru::run(&args),
        SokoboruCommand::Gen(args) => run_gen(&args),
    }
}

/// Reads and parses a puzzle file (or standard input for `-`).
pub fn load_puzzles(path: &str) -> Result<Vec<Puzzle>> {
    read_parsed(path, parse_puzzles)
}

/// Solves one case and replays the answer through the verifier before anyone sees it.
pub fn solve_checked(
    puzzle: &Puzzle,
    limits: ply_search::Limits,
) -> Result<Result<Solution, SolveError>> {
    let result = solve(puzzle, limits);
    match &result {
        Ok(solution) => check_replay(puzzle, &solution.moves, solution.penalty)?,
        Err(SolveError::GaveUp {
            best: Some(best), ..
        }) => check_replay(puzzle, &best.moves, best.penalty)?,
        Err(_) => {}
    }
    Ok(result)
}

/// Fails unless `moves` solve `puzzle` with exactly `penalty`.
fn check_replay(puzzle: &Puzzle, moves: &[ply_sokoboru::Dir], penalty: u32) -> Result<()> {
    let replayed = replay(puzzle, moves)
        .map_err(|(i, why)| anyhow::anyhow!("internal error: move {} is illegal: {why}", i + 1))?;
    if replayed.left != 0 || replayed.penalty != penalty {
        bail!("internal error: the solver's answer does not replay to its penalty");
    }
    Ok(())
}

/// A case's answer, checked by replay (the outer error: the check failed).
pub type Checked = Result<Result<Solution, SolveError>>;

/// Solves every case of a file on `threads` threads, each answer checked by replay: the
/// cases run in parallel, and a thread whose cases are done helps the searches still running.
/// Parallel searches draw on one memory budget (the course allowed 4 GB in all), so a hard
/// case may use what the easy ones leave.
pub fn solve_file(
    puzzles: &[Puzzle],
    threads: usize,
    limits: ply_search::Limits,
) -> Result<Vec<Checked>> {
    let limits =
        limits.with_memory_pool(ply_search::MemoryPool::leak(ply_sokoboru::DEFAULT_MEMORY));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads.max(1))
        .build()
        .context("cannot start the worker threads")?;
    // Each thread takes the next case in file order when its own is done, and a thread that
    // finds none left helps the searches still running (their batches of expansions).
    let next = AtomicUsize::new(0);
    let solved: Vec<Mutex<Option<Checked>>> = puzzles.iter().map(|_| Mutex::new(None)).collect();
    pool.scope(|scope| {
        for _ in 0..pool.current_num_threads() {
            scope.spawn(|_| {
                loop {
                    let at = next.fetch_add(1, Ordering::Relaxed);
                    let Some(puzzle) = puzzles.get(at) else {
                        break;
                    };
                    let result = solve_checked(puzzle, limits);
                    *solved[at].lock().unwrap_or_else(PoisonError::into_inner) = Some(result);
                }
            });
        }
    });
    Ok(solved
        .into_iter()
        .map(|slot| {
            slot.into_inner()
                .unwrap_or_else(PoisonError::into_inner)
                .unwrap_or_else(|| Err(anyhow::anyhow!("internal error: a case was not solved")))
        })
        .collect())
}

fn run_solve(args: &SolveArgs) -> Result<()> {
    let puzzles = load_puzzles(&args.file)?;
    let results = solve_file(&puzzles, args.threads, args.budget.limits()?)?;
    let mut out = std::io::stdout().lock();
    let mut failed = 0;
    for (i, result) in results.into_iter().enumerate() {
        match result? {
            Ok(solution) => {
                let moves: String = solution.moves.iter().map(|d| d.symbol()).collect();
                writeln!(out, "{}\n{moves}", solution.penalty)?;
                if args.stats {
                    eprintln!(
                        "case {}: penalty {} moves {} expanded {} seconds {:.3} upper bound {}",
                        i + 1,
                        solution.penalty,
                        solution.moves.len(),
                        solution.expanded,
                        solution.elapsed.as_secs_f64(),
                        solution
                            .upper
                            .map_or_else(|| "none".to_string(), |u| u.to_string())
                    );
                }
            }
            Err(SolveError::GaveUp {
                reason,
                best: Some(best),
            }) => {
                // A legal answer in its place, flagged: the optimum was not proven.
                failed += 1;
                let moves: String = best.moves.iter().map(|d| d.symbol()).collect();
                writeln!(out, "{}\n{moves}", best.penalty)?;
                eprintln!(
                    "ply: error: case {}: {reason}; printed the best solution found (penalty {}), \
                     which is NOT proven optimal",
                    i + 1,
                    best.penalty
                );
            }
            Err(why) => {
                failed += 1;
                writeln!(out, "-1\n")?;
                eprintln!("ply: error: case {}: {why}", i + 1);
            }
        }
    }
    out.flush()?;
    if failed > 0 {
        return Err(Reported.into());
    }
    Ok(())
}

fn run_verify(args: &VerifyArgs) -> Result<()> {
    let puzzles = args.input.as_deref().map(load_puzzles).transpose()?;
    let solutions = match &args.output {
        Some(path) => Some(read_parsed(path, parse_solutions)?),
        None => None,
    };
    let mut out = std::io::stdout().lock();
    match (puzzles, solutions) {
        (None, None) => bail!("give a puzzle file (-i), a solution file (-o), or both"),
        (Some(puzzles), None) => writeln!(out, "puzzle file OK: {} case(s)", puzzles.len())?,
        (None, Some(solutions)) => {
            writeln!(out, "solution file OK: {} case(s)", solutions.len())?;
        }
        (Some(puzzles), Some(solutions)) => {
            if puzzles.len() != solutions.len() {
                return Err(VerifyError::CaseCount {
                    expected: puzzles.len(),
                    found: solutions.len(),
                }
                .into());
            }
            let mut rejected = 0;
            let mut total = 0;
            for (i, (puzzle, entry)) in puzzles.iter().zip(&solutions).enumerate() {
                match check_case(i + 1, puzzle, entry) {
                    Ok(replayed) => {
                        total += replayed.penalty;
                        writeln!(
                            out,
                            "case {}: accepted, penalty {}",
                            i + 1,
                            replayed.penalty
                        )?;
                    }
                    Err(e) => {
                        rejected += 1;
                        writeln!(out, "{e}")?;
                    }
                }
            }
            if rejected > 0 {
                eprintln!(
                    "ply: error: {rejected} of {} case(s) rejected",
                    puzzles.len()
                );
                return Err(Reported.into());
            }
            writeln!(
                out,
                "all {} case(s) accepted, total penalty {total}",
                puzzles.len()
            )?;
        }
    }
    Ok(())
}

fn run_gen(args: &GenArgs) -> Result<()> {
    let options = GenOptions {
        rows: args.size.0,
        cols: args.size.1,
        balls: args.balls,
        min_penalty: args.min_penalty,
        wall_density: args.wall_density,
        limits: ply_search::Limits::UNLIMITED.with_max_nodes(args.max_nodes),
    };
    let bar = progress(args.count as u64, "sokoboru gen");
    let mut out = std::io::stdout().lock();
    let mut failure = None;
    let mut kept = 0;
    generate(
        args.seed,
        args.count,
        &options,
        |found| {
            kept += 1;
            bar.inc(1);
            bar.suspend(|| eprintln!("case {kept}: optimal penalty {}", found.penalty));
            match write!(out, "{}", found.puzzle).and_then(|()| out.flush()) {
                Ok(()) => true,
                Err(e) => {
                    failure = Some(anyhow::Error::from(e).context("writing standard output"));
                    false
                }
            }
        },
        |tries| bar.set_message(format!("{tries} drawn")),
    )?;
    bar.finish_and_clear();
    failure.map_or(Ok(()), Err)
}
