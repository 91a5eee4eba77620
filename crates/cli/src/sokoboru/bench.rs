//! `ply sokoboru bench`: every case of some puzzle files solved optimally, one after another,
//! and tabulated; a batch whose items are the cases, file by file.
//!
//! `solve` is the course's program: one file, a deadline shared among its cases, its output
//! the solution file. A bench measures instead: each case gets the same budget whatever the
//! others took, so that its result depends on nothing but the case, which is what lets the
//! cases run in shards on any machine and be merged.

use super::args::BenchArgs;
use super::ops::load_puzzles;
use crate::batch::{self, Job};
use crate::format::{plural, progress, table, thousands};
use crate::record::{Record, record};
use anyhow::{Context, Result};
use ply_sokoboru::solve_checked;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::io::Write;
use std::path::PathBuf;

/// One case's row, also its JSON record.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub(super) struct BenchRow {
    /// The puzzle file, as named on the command line.
    file: String,
    /// The case's number in its file, from 1.
    case: usize,
    /// The answer, in the words of `solve --json` and Python (`cost` is the penalty).
    #[serde(flatten)]
    record: Record,
    /// `cost` under its old name, kept for one release.
    penalty: Option<u32>,
    /// `proven` of a solution under its old name, kept for one release.
    optimal: bool,
}

impl BenchRow {
    /// How many moves the answer takes.
    fn move_count(&self) -> Option<usize> {
        self.record
            .moves
            .as_ref()
            .and_then(Value::as_str)
            .map(|moves| moves.chars().count())
    }
}

/// One case's result, as the log holds it: its row and what is wrong with it.
#[derive(Serialize, Deserialize, Debug)]
pub(crate) struct BenchItem {
    row: BenchRow,
    problem: Option<String>,
}

/// The bench's totals.
#[derive(Serialize, Debug)]
struct Totals {
    cases: usize,
    optimal: usize,
    penalty: u64,
    generated: u64,
    seconds: f64,
}

/// The JSON document.
#[derive(Serialize, Debug)]
struct Document<'a> {
    rows: Vec<&'a BenchRow>,
    totals: Totals,
}

/// `ply sokoboru bench` as a batch.
pub(crate) struct BenchJob;

impl Job for BenchJob {
    type Item = BenchItem;
    const COMMAND: &'static str = "sokoboru bench";
    const NOUN: &'static str = "case";

    fn report(
        _work: &Map<String, Value>,
        items: &[BenchItem],
        json: bool,
        out: &mut dyn Write,
    ) -> Result<Vec<String>> {
        let rows: Vec<&BenchRow> = items.iter().map(|item| &item.row).collect();
        let totals = Totals {
            cases: rows.len(),
            optimal: rows.iter().filter(|r| r.optimal).count(),
            penalty: rows
                .iter()
                .filter_map(|r| r.record.cost)
                .map(u64::from)
                .sum(),
            generated: rows.iter().map(|r| r.record.generated).sum(),
            seconds: rows.iter().map(|r| r.record.seconds).sum(),
        };
        if json {
            serde_json::to_writer_pretty(&mut *out, &Document { rows, totals })?;
            writeln!(out)?;
        } else {
            let mut t = table([
                "file",
                "case",
                "penalty",
                "moves",
                "expanded",
                "generated",
                "seconds",
            ]);
            for r in &rows {
                let record = &r.record;
                let penalty = match (record.cost, record.lower_bound) {
                    _ if record.unsolvable => "no solution".to_string(),
                    (Some(p), _) if record.proven => p.to_string(),
                    (Some(p), Some(low)) => format!("{p} (optimum {}-{p})", low.min(p)),
                    (Some(p), None) => format!("{p} (unproven)"),
                    (None, Some(low)) => format!("gave up (optimum >= {low})"),
                    (None, None) => "gave up".to_string(),
                };
                t.add_row([
                    r.file.clone(),
                    r.case.to_string(),
                    penalty,
                    r.move_count().map_or_else(String::new, |m| m.to_string()),
                    thousands(record.expanded),
                    thousands(record.generated),
                    format!("{:.3}", record.seconds),
                ]);
            }
            writeln!(out, "{t}")?;
            writeln!(
                out,
                "{}, {} proven optimal, total penalty {}, {} generated in {:.3} s",
                plural(totals.cases as u64, "case"),
                thousands(totals.optimal as u64),
                thousands(totals.penalty),
                thousands(totals.generated),
                totals.seconds
            )?;
        }
        Ok(items.iter().filter_map(|i| i.problem.clone()).collect())
    }
}

/// Runs `ply sokoboru bench`.
pub(super) fn run(args: &BenchArgs) -> Result<()> {
    let limits = args.budget.limits()?;
    if limits.max_nodes == Some(0) {
        return Err(crate::outcome::usage("--max-nodes must be at least 1"));
    }
    let mut cases = Vec::new();
    for path in &args.files {
        let name = path.display().to_string();
        for (i, puzzle) in load_puzzles(path)?.into_iter().enumerate() {
            cases.push((name.clone(), i + 1, puzzle));
        }
    }
    let mut work = Map::new();
    work.insert(
        "files".into(),
        json!(
            args.files
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
        ),
    );
    work.extend(args.budget.work());
    work.insert(
        batch::digest::KEY.into(),
        batch::digest::of_inputs(args.files.iter().map(PathBuf::as_path))?,
    );
    let Some(mut session) = batch::start::<BenchJob>(work, cases.len() as u64, &args.batch)? else {
        return Ok(());
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .context("starting the search's threads")?;
    let pending: Vec<u64> = session.pending().collect();
    let bar = progress(pending.len() as u64, "sokoboru bench");
    for at in pending {
        let (file, case, puzzle) = &cases[at as usize];
        bar.set_message(format!("{file} case {case}"));
        let report = pool.install(|| solve_checked(puzzle, &limits))?;
        let place = format!("{file}: case {case}");
        let generated = plural(report.generated, "generated state");
        let problem = match (report.cost(), report.stopped) {
            (Some(_), None) => None,
            (None, None) => Some(format!("{place}: proven unsolvable ({generated})")),
            (Some(_), Some(why)) => Some(format!(
                "{place}: not proven optimal ({why} after {generated}; the optimum is at least {})",
                report.lower_bound
            )),
            (None, Some(why)) => Some(format!(
                "{place}: no solution found ({why} after {generated}; the optimum is at least {})",
                report.lower_bound
            )),
        };
        let row = BenchRow {
            file: file.clone(),
            case: *case,
            record: record(&report, |moves| {
                json!(moves.iter().map(|d| d.symbol()).collect::<String>())
            }),
            penalty: report.cost(),
            optimal: report.cost().is_some() && report.proven(),
        };
        session.record_or_fail(at, BenchItem { row, problem })?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    session.finish(args.json)
}
