//! The `ply ewn solo` verbs that run without a terminal UI.

use super::args::{BenchArgs, CheckArgs, GenArgs, SolveArgs};
use super::ops::{describe, load_instance, solve_checked};
use crate::format::{plural, progress, read_input, table, thousands};
use crate::outcome::Reported;
use anyhow::{Context, Result, bail};
use ply_ewn::solo::{GenError, GenOptions, Instance, SoloOutcome, check, generate, parse_solution};
use ply_search::Limits;
use serde::Serialize;
use std::io::Write;

/// `ply ewn solo solve`: the course's three lines.
pub fn run_solve(args: &SolveArgs) -> Result<()> {
    let instance = load_instance(&args.file)?;
    let report = solve_checked(&instance, args.budget.limits()?)?;
    if args.stats {
        let thresholds: Vec<String> = report.thresholds.iter().map(u32::to_string).collect();
        errln!(
            "bound {} thresholds {} generated {} expanded {} relaxed {} seconds {:.4}",
            report.initial_bound,
            thresholds.join(" "),
            thousands(report.generated),
            thousands(report.expanded),
            thousands(report.relaxed_generated),
            report.elapsed.as_secs_f64()
        );
    }
    match report.outcome {
        SoloOutcome::Solved(moves) => {
            if args.explain {
                for (i, mv) in moves.iter().enumerate() {
                    errln!("{}", describe(i, instance.dice[i], mv));
                }
            }
            let pairs: Vec<String> = moves
                .iter()
                .map(|m| format!("{} {}", m.from, m.to))
                .collect();
            let seconds = crate::outcome::started().elapsed().as_secs_f64();
            let mut out = std::io::stdout().lock();
            writeln!(out, "{seconds:.6}\n{}\n{}", moves.len(), pairs.join(" "))?;
            out.flush()?;
            Ok(())
        }
        SoloOutcome::NoSolution => bail!(
            "no solution: goal piece {} cannot reach (0,0) within the 30 dice (proven)",
            instance.goal
        ),
        SoloOutcome::GaveUp(why) => bail!("gave up: {why}"),
    }
}

/// `ply ewn solo check`: a verdict on a solution.
pub fn run_check(args: &CheckArgs) -> Result<()> {
    let instance = load_instance(&args.instance)?;
    let text = read_input(&args.solution)?;
    let pairs = parse_solution(&text)
        .map_err(|e| anyhow::anyhow!(e))
        .with_context(|| args.solution.clone())?;
    // The optimum is solved for, not read from the instance's optional 4th line, which a
    // checker cannot trust; a 4th line that disagrees is named.
    let optimum = match solve_checked(&instance, Limits::UNLIMITED)?.outcome {
        SoloOutcome::Solved(moves) => Some(moves.len() as u32),
        _ => None,
    };
    if let Some(stated) = instance.known_optimum {
        if Some(stated) != optimum {
            let actual = optimum.map_or_else(|| "no solution".to_string(), |m| format!("{m}"));
            errln!(
                "ply: warning: {}: the 4th line says {}, but the optimum is {actual}",
                args.instance,
                plural(u64::from(stated), "move")
            );
        }
    }
    let verdict = check(&instance, &pairs, optimum);
    outln!("{verdict}")?;
    if verdict.is_legal() {
        Ok(())
    } else {
        Err(Reported.into())
    }
}

/// `ply ewn solo gen`: random instances with their optima.
pub fn run_generate(args: &GenArgs) -> Result<()> {
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let bar = progress(args.count as u64, "ewn solo gen");
    let mut out = std::io::stdout().lock();
    let mut kept = 0usize;
    let mut failure = None;
    let options = GenOptions {
        count: args.count,
        moves: (args.min_moves, args.max_moves),
        unsolvable: args.unsolvable,
        max_draws: args.max_draws,
    };
    let generated = generate(
        args.seed,
        options,
        |instance| {
            let written = match &args.out {
                Some(dir) => {
                    let path = dir.join(format!("{}-{}.in", args.seed, kept + 1));
                    std::fs::write(&path, instance.to_string())
                        .with_context(|| format!("cannot write {}", path.display()))
                }
                None => {
                    let separator = if kept > 0 { "\n" } else { "" };
                    write!(out, "{separator}{instance}")
                        .and_then(|()| out.flush())
                        .context("writing standard output")
                }
            };
            kept += 1;
            bar.inc(1);
            match written {
                Ok(()) => true,
                Err(e) => {
                    failure = Some(e);
                    false
                }
            }
        },
        |tries| bar.set_message(format!("{tries} drawn")),
    );
    bar.finish_and_clear();
    if let Some(failure) = failure {
        return Err(failure);
    }
    match generated {
        Err(impossible @ GenError::Impossible(_)) => {
            Err(crate::outcome::usage(impossible.to_string()))
        }
        other => other.map(drop).map_err(Into::into),
    }
}

/// One bench row.
#[derive(Serialize, Debug)]
struct BenchRow {
    file: String,
    index: usize,
    moves: Option<u32>,
    known: Option<u32>,
    generated: u64,
    seconds: f64,
}

/// `ply ewn solo bench`: instance files solved, checked against their optima and timed.
pub fn run_bench(args: &BenchArgs) -> Result<()> {
    let mut instances = Vec::new();
    for path in &args.files {
        let text = read_input(path)?;
        for (i, inst) in Instance::parse_many(&text)
            .with_context(|| path.clone())?
            .into_iter()
            .enumerate()
        {
            instances.push((path.clone(), i + 1, inst));
        }
    }
    let bar = progress(instances.len() as u64, "ewn solo bench");
    let mut rows = Vec::new();
    for (file, index, instance) in &instances {
        let report = solve_checked(instance, Limits::UNLIMITED)?;
        let moves = match &report.outcome {
            SoloOutcome::Solved(m) => Some(m.len() as u32),
            SoloOutcome::NoSolution => None,
            SoloOutcome::GaveUp(why) => bail!("{file} #{index}: gave up: {why}"),
        };
        if moves != instance.known_optimum
            && (instance.known_optimum.is_some() || instance.known_unsolvable)
        {
            bail!(
                "{file} #{index}: found {moves:?} but the file says {:?}",
                instance.known_optimum
            );
        }
        rows.push(BenchRow {
            file: file.clone(),
            index: *index,
            moves,
            known: instance.known_optimum,
            generated: report.generated,
            seconds: report.elapsed.as_secs_f64(),
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &rows)?;
        writeln!(out)?;
        return Ok(());
    }
    let mut table = table(["file", "#", "moves", "generated", "seconds"]);
    for r in &rows {
        table.add_row([
            r.file.clone(),
            r.index.to_string(),
            r.moves.map_or_else(|| "none".into(), |m| m.to_string()),
            thousands(r.generated),
            format!("{:.4}", r.seconds),
        ]);
    }
    writeln!(out, "{table}")?;
    let worst = rows.iter().map(|r| r.seconds).fold(0.0, f64::max);
    let total: f64 = rows.iter().map(|r| r.seconds).sum();
    writeln!(
        out,
        "{} instances, total {total:.3} s, worst {worst:.4} s",
        rows.len()
    )?;
    Ok(())
}
