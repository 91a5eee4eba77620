//! The `ply sokoboru` verbs that run without a terminal UI.

use super::args::{GenArgs, SolveArgs, VerifyArgs};
use super::ops::{load_puzzles, solve_file};
use crate::Reported;
use crate::format::{progress, read_parsed};
use anyhow::Result;
use ply_sokoboru::{GenOptions, SolveError, VerifyError, check_case, generate, parse_solutions};
use std::io::Write;
use std::time::Instant;

/// `ply sokoboru solve`: solves a file, printing each case as soon as it and those before it are done.
pub fn run_solve(args: &SolveArgs) -> Result<()> {
    let deadline = args.deadline.0.map(|time| Instant::now() + time);
    let limits = args.budget.limits()?;
    let puzzles = load_puzzles(&args.file)?;
    // Not locked: the reports come from the worker threads.
    let mut out = std::io::stdout();
    let mut failed = 0;
    let stats = args.stats;
    solve_file(&puzzles, args.threads, limits, deadline, |i, result| {
        match result? {
            Ok(solution) => {
                let moves: String = solution.moves.iter().map(|d| d.symbol()).collect();
                writeln!(out, "{}\n{moves}", solution.penalty)?;
                if stats {
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
                lower_bound,
                best: Some(best),
            }) => {
                // A legal answer in its place, flagged: the optimum was not proven.
                failed += 1;
                let moves: String = best.moves.iter().map(|d| d.symbol()).collect();
                writeln!(out, "{}\n{moves}", best.penalty)?;
                eprintln!(
                    "ply: error: case {}: {reason}; printed the best solution found (penalty {}), \
                     which is NOT proven optimal (the optimum is {lower_bound} to {})",
                    i + 1,
                    best.penalty,
                    best.penalty
                );
            }
            Err(why) => {
                failed += 1;
                writeln!(out, "-1\n")?;
                eprintln!("ply: error: case {}: {why}", i + 1);
            }
        }
        out.flush()?;
        Ok(())
    })?;
    if failed > 0 {
        return Err(Reported.into());
    }
    Ok(())
}

/// `ply sokoboru verify`: checks a puzzle file, a solution file, or one against the other.
pub fn run_verify(args: &VerifyArgs) -> Result<()> {
    let puzzles = args.input.as_deref().map(load_puzzles).transpose()?;
    let solutions = match &args.output {
        Some(path) => Some(read_parsed(path, parse_solutions)?),
        None => None,
    };
    let mut out = std::io::stdout().lock();
    match (puzzles, solutions) {
        (None, None) => {
            return Err(crate::usage(
                "give a puzzle file (-i), a solution file (-o), or both",
            ));
        }
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

/// `ply sokoboru gen`: random puzzles with their proven optima.
pub fn run_generate(args: &GenArgs) -> Result<()> {
    let options = GenOptions {
        rows: args.size.0,
        cols: args.size.1,
        balls: args.balls,
        min_penalty: args.min_penalty,
        wall_density: args.wall_density,
        limits: ply_search::Limits::UNLIMITED.with_max_nodes(args.max_nodes),
        max_draws: args.max_draws,
    };
    let bar = progress(args.count as u64, "sokoboru gen");
    let mut out = std::io::stdout().lock();
    let mut failure = None;
    let mut kept = 0;
    let generated = generate(
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
    );
    bar.finish_and_clear();
    if let Some(failure) = failure {
        return Err(failure);
    }
    generated?;
    Ok(())
}
