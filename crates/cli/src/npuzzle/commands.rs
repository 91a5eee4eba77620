//! The `ply npuzzle` verbs: solve, bench, and the pattern databases' build and list.

use super::args::{BenchArgs, PartitionArg, PdbCommand, SolveArgs};
use super::ops::{
    Databases, build_and_save, choice, disagreement, file_name, load, place, required_dir,
    solve_verified, temporary_files,
};
use crate::format::{plural, progress, table, thousands};
use crate::outcome::Reported;
use anyhow::{Result, bail};
use ply_npuzzle::instances::bundled;
use ply_npuzzle::pdb::PatternDatabase;
use ply_npuzzle::{BoardError, Instance, PdbError, moves_to_string};
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

/// `ply npuzzle solve`: the course's report for each instance. An instance that cannot be
/// answered (unsolvable, or a budget ran out) is reported and the others are still solved;
/// the command then fails at the end.
pub fn run_solve(args: &SolveArgs) -> Result<()> {
    let limits = args.budget.limits()?;
    let choice = choice(args.search.heuristic);
    let mut databases = Databases::new(&args.search.pdb)?;
    let mut out = std::io::stdout().lock();
    let mut failures = Vec::new();
    let mut first = true;
    for path in &args.files {
        let file = file_name(path);
        for instance in load(path)? {
            let separator = if first { "" } else { "\n" };
            first = false;
            if !instance.board.is_solvable() {
                writeln!(
                    out,
                    "{separator}Initial State:\n{}\nSolution = none (unsolvable)",
                    instance.board
                )?;
                out.flush()?;
                failures.push(format!(
                    "{}: {}",
                    place(&file, &instance),
                    BoardError::Unsolvable
                ));
                continue;
            }
            let partition = databases.prepare(choice, instance.board.width())?;
            let heuristic = databases.heuristic(choice, partition);
            let report = solve_verified(&instance, heuristic, limits.clone(), args.search.threads)?;
            write!(out, "{separator}")?;
            writeln!(out, "Initial State:\n{}", instance.board)?;
            writeln!(out, "Initial Estimate = {}", report.initial_estimate)?;
            let thresholds: Vec<String> = report.thresholds.iter().map(u32::to_string).collect();
            writeln!(out, "Threshold = {}", thresholds.join(" "))?;
            match &report.outcome {
                IdaOutcome::Solved { cost, .. } => writeln!(out, "Solution = {cost}")?,
                IdaOutcome::GaveUp(why) => {
                    let bound = report.thresholds.last().copied().unwrap_or(0);
                    writeln!(out, "Solution = unknown ({why}; optimal >= {bound})")?;
                    failures.push(format!("gave up on {}: {why}", place(&file, &instance)));
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
            if let Some(why) = disagreement(&instance, &report) {
                errln!("ply: warning: {}: {why}", place(&file, &instance));
            }
        }
    }
    if failures.is_empty() {
        Ok(())
    } else {
        for line in failures {
            errln!("ply: error: {line}");
        }
        Err(Reported.into())
    }
}

/// An instance's id in JSON: a number when it is one (as in Korf's sets), else the text.
#[derive(Serialize, Debug)]
#[serde(untagged)]
enum Id {
    /// A numeric id, written as it reads.
    Number(u64),
    /// Any other id.
    Text(String),
}

impl Id {
    fn of(id: &str) -> Id {
        match id.parse::<u64>() {
            Ok(n) if n.to_string() == id => Id::Number(n),
            _ => Id::Text(id.to_string()),
        }
    }
}

/// One bench row, also the JSON record.
#[derive(Serialize, Debug)]
struct BenchRow {
    /// The set's id (`null` for a plain line).
    id: Option<Id>,
    /// The instance's line in its file.
    line: usize,
    /// The initial estimate (`null` for an unsolvable board, which is not searched).
    h0: Option<u32>,
    optimal: Option<u32>,
    known_optimal: Option<u32>,
    unsolvable: bool,
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

/// `ply npuzzle bench`: an instance set as a table with totals. Every instance is solved and
/// shown; those not solved, and optima that disagree with the file's, are errors named after
/// the table.
pub fn run_bench(args: &BenchArgs) -> Result<()> {
    let limits = args.budget.limits()?;
    let choice = choice(args.search.heuristic);
    let mut databases = Databases::new(&args.search.pdb)?;
    let (file, mut instances): (String, Vec<Instance>) = match &args.file {
        Some(path) => (file_name(path), load(path)?),
        None => ("korf100".to_string(), bundled::korf100()),
    };
    if let Some(n) = args.first {
        instances.truncate(usize::try_from(n).unwrap_or(usize::MAX));
    }
    // The databases (and their notes, or builds with their own progress) before the bar.
    let mut widths: Vec<usize> = instances.iter().map(|i| i.board.width()).collect();
    widths.sort_unstable();
    widths.dedup();
    for &width in &widths {
        databases.prepare(choice, width)?;
    }
    let mut names: Vec<String> = Vec::new();
    let mut problems = Vec::new();
    let bar = progress(instances.len() as u64, "npuzzle bench");
    let mut rows = Vec::with_capacity(instances.len());
    for instance in &instances {
        bar.set_message(format!("instance {}", instance.label()));
        let mut row = BenchRow {
            id: instance.id.as_deref().map(Id::of),
            line: instance.line,
            h0: None,
            optimal: None,
            known_optimal: instance.optimal,
            unsolvable: false,
            generated: 0,
            expanded: 0,
            seconds: 0.0,
        };
        if instance.board.is_solvable() {
            let partition = databases.prepare(choice, instance.board.width())?;
            let heuristic = databases.heuristic(choice, partition);
            if !names.contains(&heuristic.name()) {
                names.push(heuristic.name());
            }
            let report = solve_verified(instance, heuristic, limits.clone(), args.search.threads)?;
            if let Some(why) = disagreement(instance, &report) {
                problems.push(format!("{}: {why}", place(&file, instance)));
            }
            row.h0 = Some(report.initial_estimate);
            row.optimal = report.cost();
            row.generated = report.generated;
            row.expanded = report.expanded;
            row.seconds = report.elapsed.as_secs_f64();
        } else {
            row.unsolvable = true;
            problems.push(format!(
                "{}: {}",
                place(&file, instance),
                BoardError::Unsolvable
            ));
        }
        rows.push(row);
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
        for (r, instance) in rows.iter().zip(&instances) {
            let optimal = match r.optimal {
                Some(cost) => cost.to_string(),
                None if r.unsolvable => "unsolvable".into(),
                None => "gave up".into(),
            };
            table.add_row([
                instance.label(),
                r.h0.map_or_else(String::new, |h| h.to_string()),
                optimal,
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
    out.flush()?;
    for problem in &problems {
        errln!("ply: error: {problem}");
    }
    let gave_up = rows
        .iter()
        .filter(|r| r.optimal.is_none() && !r.unsolvable)
        .count();
    if gave_up > 0 {
        errln!(
            "ply: error: gave up on {} of {}",
            gave_up,
            plural(totals.instances as u64, "instance")
        );
    }
    if problems.is_empty() && gave_up == 0 {
        Ok(())
    } else {
        Err(Reported.into())
    }
}

/// Runs a `ply npuzzle pdb` verb.
pub fn run_pdb(cmd: PdbCommand) -> Result<()> {
    match cmd {
        PdbCommand::Build(args) => {
            let path =
                required_dir(args.pdb_dir.as_deref())?.join(args.partition.partition().file_name());
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
            let dir = required_dir(args.pdb_dir.as_deref())?;
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
            let (stale, live) = temporary_files(&dir);
            for path in stale {
                writeln!(
                    out,
                    "left by an interrupted build: {} ({}); the next `ply npuzzle pdb build` \
                     removes it",
                    file_of(&path),
                    size_of(&path)
                )?;
            }
            for (path, pid) in live {
                writeln!(
                    out,
                    "being written by process {pid}: {} ({} so far)",
                    file_of(&path),
                    size_of(&path)
                )?;
            }
            Ok(())
        }
    }
}

/// The last part of a path, for a listing of one directory.
fn file_of(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// A file's size in MB (rounded up), or `?` when it cannot be read.
fn size_of(path: &std::path::Path) -> String {
    std::fs::metadata(path).map_or_else(
        |_| "?".to_string(),
        |meta| format!("{} MB", meta.len().div_ceil(1 << 20)),
    )
}
