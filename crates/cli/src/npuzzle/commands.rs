//! The `ply npuzzle` verbs: solve, bench, and the pattern databases' build and list.

use super::args::{BenchArgs, PartitionArg, PdbCommand, SolveArgs};
use super::ops::{Databases, build_and_save, choice, load, resolve_dir, solve_checked};
use crate::format::{progress, table, thousands};
use crate::outcome::Reported;
use anyhow::{Result, bail};
use ply_npuzzle::instances::bundled;
use ply_npuzzle::pdb::PatternDatabase;
use ply_npuzzle::{PdbError, moves_to_string};
use ply_search::IdaOutcome;
use serde::Serialize;
use std::io::Write;
use std::time::Duration;

fn per_second(count: u64, elapsed: Duration) -> u64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        (count as f64 / secs) as u64
    } else {
        0
    }
}

/// `ply npuzzle solve`: the course's report for each instance.
pub fn run_solve(args: &SolveArgs) -> Result<()> {
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
            let report = solve_checked(&instance, heuristic, limits.clone(), args.search.threads)?;
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
            errln!("ply: error: gave up on {line}");
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

/// `ply npuzzle bench`: an instance set as a table with totals.
pub fn run_bench(args: &BenchArgs) -> Result<()> {
    let limits = args.budget.limits()?;
    let choice = choice(args.search.heuristic);
    let mut databases = Databases::new(&args.search.pdb)?;
    let mut instances = match &args.file {
        Some(path) => load(path)?,
        None => bundled::korf100(),
    };
    if let Some(n) = args.first {
        instances.truncate(usize::try_from(n).unwrap_or(usize::MAX));
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
        let report = solve_checked(instance, heuristic, limits.clone(), args.search.threads)?;
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
        errln!(
            "ply: error: gave up on {} of {} instances",
            totals.instances - totals.solved,
            totals.instances
        );
        return Err(Reported.into());
    }
    Ok(())
}

/// Runs a `ply npuzzle pdb` verb.
pub fn run_pdb(cmd: PdbCommand) -> Result<()> {
    match cmd {
        PdbCommand::Build(args) => {
            let path =
                resolve_dir(args.pdb_dir.as_deref())?.join(args.partition.partition().file_name());
            PatternDatabase::check_writable(&path)?;
            if !args.force {
                match PatternDatabase::load(&path, &args.partition.partition()) {
                    Ok(_) => {
                        errln!(
                            "ply: {} is already built and sound (--force rebuilds it)",
                            path.display()
                        );
                        outln!("{}", path.display())?;
                        return Ok(());
                    }
                    Err(PdbError::Missing { .. }) => {}
                    Err(e) => errln!("ply: warning: {e}; rebuilding it"),
                }
            }
            build_and_save(args.partition, &path)?;
            outln!("{}", path.display())?;
            Ok(())
        }
        PdbCommand::List(args) => {
            let dir = resolve_dir(args.pdb_dir.as_deref())?;
            let mut out = std::io::stdout().lock();
            let mut t = table(["puzzle", "partition", "entries", "file", "status"]);
            for p in PartitionArg::ALL {
                let partition = p.partition();
                let path = dir.join(partition.file_name());
                let status = match PatternDatabase::load(&path, &partition) {
                    Ok(db) => format!("ok, {} MB", db.data().len().div_ceil(1 << 20)),
                    Err(PdbError::Missing { .. }) => "missing".to_string(),
                    Err(PdbError::Corrupt { why, .. }) => format!("unusable: {why}"),
                    Err(e) => format!("unusable: {e}"),
                };
                let w = partition.width();
                t.add_row([
                    format!("{w}x{w}"),
                    p.name().to_string(),
                    thousands(partition.entries()),
                    partition.file_name(),
                    status,
                ]);
            }
            writeln!(out, "directory: {}", dir.display())?;
            writeln!(out, "{t}")?;
            Ok(())
        }
    }
}
