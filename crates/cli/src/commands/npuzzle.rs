//! `ply npuzzle`: solve and bench sliding-tile puzzles.

use std::io::Write;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use ply_npuzzle::{
    Heuristic, Instance, check_solution, instances::bundled, moves_to_string, parse_instances,
    solve_parallel,
};
use ply_search::{IdaOutcome, IdaReport, Limits};
use serde::Serialize;

use crate::Reported;
use crate::commands::BudgetArgs;
use crate::commands::npuzzle_pdb::{Choice, Databases, PartitionArg, PdbArgs, PdbCommand};
use crate::format::{progress, read_parsed, table, thousands};

/// `ply npuzzle` verbs.
#[derive(Subcommand, Debug)]
pub enum NpuzzleCommand {
    /// Solves each instance optimally and prints the course's report for it.
    Solve(SolveArgs),
    /// Solves an instance set (default: Korf's 100) and prints a table with totals.
    Bench(BenchArgs),
    /// Pattern databases: build them, list them.
    #[command(subcommand)]
    Pdb(PdbCommand),
}

/// Heuristics selectable on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum HeuristicArg {
    /// Sum of Manhattan distances.
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// 15-puzzle: the 5-5-5 additive pattern databases (+ reflection).
    Pdb555,
    /// 15-puzzle: the 6-6-3 additive pattern databases (+ reflection).
    Pdb663,
    /// 15-puzzle: the 7-8 additive pattern databases (+ reflection).
    Pdb78,
    /// 24-puzzle: the 6-6-6-6 additive pattern databases (+ reflection).
    Pdb6666,
}

/// The choice a `--heuristic` value (or its absence) makes.
fn choice(arg: Option<HeuristicArg>) -> Choice {
    match arg {
        None => Choice::Strongest,
        Some(HeuristicArg::Manhattan) => Choice::Manhattan,
        Some(HeuristicArg::LinearConflict) => Choice::LinearConflict,
        Some(HeuristicArg::Pdb555) => Choice::Pdb(PartitionArg::P555),
        Some(HeuristicArg::Pdb663) => Choice::Pdb(PartitionArg::P663),
        Some(HeuristicArg::Pdb78) => Choice::Pdb(PartitionArg::P78),
        Some(HeuristicArg::Pdb6666) => Choice::Pdb(PartitionArg::P6666),
    }
}

/// How `solve` and `bench` search: heuristic, databases, threads.
#[derive(Args, Debug)]
pub struct SearchArgs {
    /// The heuristic guiding IDA* [default: the strongest pattern database present for the
    /// board's size, else linear conflict].
    #[arg(long, value_enum)]
    heuristic: Option<HeuristicArg>,
    #[command(flatten)]
    pdb: PdbArgs,
    /// Threads for IDA* (subtrees of each iteration in parallel; node counts then vary).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: u16,
}

/// Arguments of `ply npuzzle solve`.
#[derive(Args, Debug)]
pub struct SolveArgs {
    /// Instance files, one board per line as W*W numbers (`-` reads standard input).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    #[command(flatten)]
    search: SearchArgs,
    /// Also print the solution as a move string (U, L, R, D: the direction the blank moves).
    #[arg(long)]
    moves: bool,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// Arguments of `ply npuzzle bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// An instance set or plain instance file (default: the bundled Korf 100).
    #[arg(value_name = "FILE")]
    file: Option<String>,
    #[command(flatten)]
    search: SearchArgs,
    /// Only the first N instances.
    #[arg(long, value_name = "N")]
    first: Option<usize>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// Runs a `ply npuzzle` verb.
pub fn run(cmd: NpuzzleCommand) -> Result<()> {
    match cmd {
        NpuzzleCommand::Solve(args) => run_solve(&args),
        NpuzzleCommand::Bench(args) => run_bench(&args),
        NpuzzleCommand::Pdb(cmd) => crate::commands::npuzzle_pdb::run(cmd),
    }
}

/// Reads and parses an instance file, naming it in errors.
fn load(path: &str) -> Result<Vec<Instance>> {
    read_parsed(path, parse_instances)
}

/// Solves one instance and checks the solution before anyone sees it.
pub fn solve_checked(
    instance: &Instance,
    heuristic: Heuristic<'_>,
    limits: Limits,
    threads: u16,
) -> Result<IdaReport<ply_npuzzle::Direction>> {
    let report = solve_parallel(&instance.board, heuristic, limits, usize::from(threads))
        .with_context(|| format!("instance {}", instance.label()))?;
    if let IdaOutcome::Solved { cost, path } = &report.outcome {
        if let Err(why) = check_solution(&instance.board, path) {
            bail!(
                "internal error: solution for {} is wrong: {why}",
                instance.label()
            );
        }
        if path.len() != *cost as usize {
            bail!(
                "internal error: solution for {} has {} moves but cost {cost}",
                instance.label(),
                path.len()
            );
        }
        if let Some(known) = instance.optimal {
            if known != *cost {
                bail!(
                    "solution for {} has {cost} moves but the known optimum is {known}",
                    instance.label()
                );
            }
        }
    }
    Ok(report)
}

fn per_second(count: u64, elapsed: Duration) -> u64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        (count as f64 / secs) as u64
    } else {
        0
    }
}

fn run_solve(args: &SolveArgs) -> Result<()> {
    let limits = args.budget.limits()?;
    let choice = choice(args.search.heuristic);
    let mut databases = Databases::new(&args.search.pdb)?;
    let mut out = std::io::stdout().lock();
    let mut gave_up = Vec::new();
    let mut first = true;
    for path in &args.files {
        for instance in load(path)? {
            let partition = databases.prepare(choice, instance.board.width())?;
            let heuristic = databases.heuristic(choice, partition);
            let report = solve_checked(&instance, heuristic, limits, args.search.threads)?;
            if !first {
                writeln!(out)?;
            }
            first = false;
            writeln!(out, "Initial State:\n{}", instance.board)?;
            writeln!(out, "Initial Estimate = {}", report.initial_estimate)?;
            let thresholds: Vec<String> = report.thresholds.iter().map(u32::to_string).collect();
            writeln!(out, "Threshold = {}", thresholds.join(" "))?;
            match &report.outcome {
                IdaOutcome::Solved { cost, .. } => writeln!(out, "Solution = {cost}")?,
                IdaOutcome::GaveUp(why) => {
                    let bound = report.thresholds.last().copied().unwrap_or(0);
                    writeln!(out, "Solution = unknown ({why}; optimal >= {bound})")?;
                    gave_up.push(format!("{path}: {}: {why}", instance.label()));
                }
                IdaOutcome::NoSolution => {
                    bail!("internal error: solvable board without a solution")
                }
            }
            writeln!(out, "Generated = {}", thousands(report.generated))?;
            writeln!(out, "Expanded = {}", thousands(report.expanded))?;
            writeln!(out, "Time (seconds) = {:.2}", report.elapsed.as_secs_f64())?;
            writeln!(
                out,
                "Expanded/Second = {}",
                thousands(per_second(report.expanded, report.elapsed))
            )?;
            if args.moves {
                if let IdaOutcome::Solved { path, .. } = &report.outcome {
                    writeln!(out, "Moves = {}", moves_to_string(path))?;
                }
            }
            out.flush()?;
        }
    }
    if gave_up.is_empty() {
        Ok(())
    } else {
        for line in gave_up {
            eprintln!("ply: error: gave up on {line}");
        }
        Err(Reported.into())
    }
}

/// One bench row, also the JSON record.
#[derive(Serialize, Debug)]
struct BenchRow {
    id: String,
    h0: u32,
    optimal: Option<u32>,
    known_optimal: Option<u32>,
    generated: u64,
    expanded: u64,
    seconds: f64,
}

/// Bench totals.
#[derive(Serialize, Debug)]
struct BenchTotals {
    instances: usize,
    solved: usize,
    generated: u64,
    expanded: u64,
    seconds: f64,
    generated_per_second: u64,
}

/// The bench JSON document.
#[derive(Serialize, Debug)]
struct BenchJson<'a> {
    heuristic: &'a str,
    rows: &'a [BenchRow],
    totals: &'a BenchTotals,
}

fn run_bench(args: &BenchArgs) -> Result<()> {
    let limits = args.budget.limits()?;
    let choice = choice(args.search.heuristic);
    let mut databases = Databases::new(&args.search.pdb)?;
    let mut instances = match &args.file {
        Some(path) => load(path)?,
        None => bundled::korf100(),
    };
    if let Some(n) = args.first {
        instances.truncate(n);
    }
    let mut names: Vec<String> = Vec::new();
    let bar = progress(instances.len() as u64, "npuzzle bench");
    let mut rows = Vec::with_capacity(instances.len());
    for instance in &instances {
        bar.set_message(format!("instance {}", instance.label()));
        let partition = databases.prepare(choice, instance.board.width())?;
        let heuristic = databases.heuristic(choice, partition);
        if !names.contains(&heuristic.name()) {
            names.push(heuristic.name());
        }
        let report = solve_checked(instance, heuristic, limits, args.search.threads)?;
        rows.push(BenchRow {
            id: instance.label(),
            h0: report.initial_estimate,
            optimal: report.cost(),
            known_optimal: instance.optimal,
            generated: report.generated,
            expanded: report.expanded,
            seconds: report.elapsed.as_secs_f64(),
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    let seconds: f64 = rows.iter().map(|r| r.seconds).sum();
    let generated: u64 = rows.iter().map(|r| r.generated).sum();
    let totals = BenchTotals {
        instances: rows.len(),
        solved: rows.iter().filter(|r| r.optimal.is_some()).count(),
        generated,
        expanded: rows.iter().map(|r| r.expanded).sum(),
        seconds,
        generated_per_second: per_second(generated, Duration::from_secs_f64(seconds)),
    };
    let mut out = std::io::stdout().lock();
    let heuristic = names.join(", ");
    if args.json {
        let doc = BenchJson {
            heuristic: &heuristic,
            rows: &rows,
            totals: &totals,
        };
        serde_json::to_writer_pretty(&mut out, &doc)?;
        writeln!(out)?;
    } else {
        let mut table = table(["id", "h0", "optimal", "generated", "expanded", "seconds"]);
        for r in &rows {
            table.add_row([
                r.id.clone(),
                r.h0.to_string(),
                r.optimal
                    .map_or_else(|| "gave up".into(), |c| c.to_string()),
                thousands(r.generated),
                thousands(r.expanded),
                format!("{:.3}", r.seconds),
            ]);
        }
        table.add_row([
            "total".to_string(),
            String::new(),
            format!("{}/{} solved", totals.solved, totals.instances),
            thousands(totals.generated),
            thousands(totals.expanded),
            format!("{:.3}", totals.seconds),
        ]);
        writeln!(out, "heuristic: {heuristic}")?;
        writeln!(out, "{table}")?;
        writeln!(
            out,
            "generated per second: {}",
            thousands(totals.generated_per_second)
        )?;
    }
    if totals.solved < totals.instances {
        eprintln!(
            "ply: error: gave up on {} of {} instances",
            totals.instances - totals.solved,
            totals.instances
        );
        return Err(Reported.into());
    }
    Ok(())
}
