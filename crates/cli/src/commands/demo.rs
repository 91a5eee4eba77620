//! `ply demo`: every available system on a bundled instance, summarised in one table.

use std::io::Write;

use anyhow::{Context, Result};
use clap::Args;
use comfy_table::{Table, presets::UTF8_FULL_CONDENSED};
use ply_npuzzle::{HeuristicKind, instances::bundled};
use ply_search::Limits;

use crate::format::thousands;

/// Arguments of `ply demo`.
#[derive(Args, Debug)]
pub struct DemoArgs {}

/// One line of the summary.
struct Row {
    system: &'static str,
    instance: String,
    result: String,
    method: String,
    seconds: f64,
}

/// The bundled 15-puzzle the demo solves: Korf's instance #2 (55 moves).
const NPUZZLE_INSTANCE: usize = 2;

fn npuzzle() -> Result<Row> {
    let instance = bundled::korf100()
        .into_iter()
        .find(|i| i.id.as_deref() == Some(&NPUZZLE_INSTANCE.to_string()))
        .context("bundled Korf instance missing")?;
    let heuristic = HeuristicKind::LinearConflict;
    let report = super::npuzzle::solve_checked(&instance, heuristic, Limits::UNLIMITED)?;
    let cost = report.cost().context("demo instance not solved")?;
    Ok(Row {
        system: "npuzzle",
        instance: format!("Korf #{NPUZZLE_INSTANCE} (15-puzzle)"),
        result: format!("optimal: {cost} moves (verified)"),
        method: format!(
            "IDA*, {}, {} nodes",
            heuristic.name(),
            thousands(report.generated)
        ),
        seconds: report.elapsed.as_secs_f64(),
    })
}

/// Runs the demo.
pub fn run(_args: &DemoArgs) -> Result<()> {
    let rows = vec![npuzzle()?];
    let mut table = Table::new();
    table.load_preset(UTF8_FULL_CONDENSED);
    table.set_header(["system", "instance", "result", "how", "seconds"]);
    for r in &rows {
        table.add_row([
            r.system.to_string(),
            r.instance.clone(),
            r.result.clone(),
            r.method.clone(),
            format!("{:.3}", r.seconds),
        ]);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{table}")?;
    writeln!(
        out,
        "planned: ewn solo, sokoboru, ewn duel, mines (see README.md)"
    )?;
    Ok(())
}
