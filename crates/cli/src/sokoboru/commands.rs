//! The `ply sokoboru` verbs that run without a terminal UI.

use super::args::{GenArgs, ScoreArgs, VerifyArgs};
use super::ops::load_puzzles;
use crate::format::{plural, progress, read_parsed, table};
use crate::outcome::Reported;
use anyhow::Result;
use ply_sokoboru::{
    CASE_POINTS, GenOptions, Keep, ScrambleOptions, VerifyError, check_case, generate,
    parse_optima, parse_solutions, score_file, scramble,
};
use serde_json::json;
use std::io::Write;

/// `ply sokoboru verify`: checks a puzzle file, a solution file, or one against the other.
pub(super) fn run_verify(args: &VerifyArgs) -> Result<()> {
    let puzzles = args.input.as_deref().map(load_puzzles).transpose()?;
    let solutions = match &args.output {
        Some(path) => Some(read_parsed(path, parse_solutions)?),
        None => None,
    };
    let mut out = std::io::stdout().lock();
    match (puzzles, solutions) {
        (None, None) => {
            return Err(crate::outcome::usage(
                "give a puzzle file (-i), a solution file (-o), or both",
            ));
        }
        (Some(puzzles), None) => writeln!(
            out,
            "puzzle file OK: {}",
            plural(puzzles.len() as u64, "case")
        )?,
        (None, Some(solutions)) => {
            writeln!(
                out,
                "solution file OK: {}",
                plural(solutions.len() as u64, "case")
            )?;
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
                errln!(
                    "ply: error: {rejected} of {} rejected",
                    plural(puzzles.len() as u64, "case")
                );
                return Err(Reported.into());
            }
            let all = match puzzles.len() {
                1 => "the case".to_string(),
                n => format!("all {n} cases"),
            };
            writeln!(out, "{all} accepted, total penalty {total}")?;
        }
    }
    Ok(())
}

/// `ply sokoboru score`: the course's score of a solution file.
pub(super) fn run_score(args: &ScoreArgs) -> Result<()> {
    if !(args.points.is_finite() && args.points > 0.0) {
        return Err(crate::outcome::usage(format!(
            "--points {} is not a positive number",
            args.points
        )));
    }
    let puzzles = load_puzzles(&args.input)?;
    let solutions = read_parsed(&args.output, parse_solutions)?;
    let optima = read_parsed(&args.optima, parse_optima)?;
    let score = score_file(&puzzles, &solutions, &optima)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        let cases: Vec<_> = score
            .cases
            .iter()
            .map(|c| json!({"penalty": c.penalty, "optimum": c.optimum, "points": c.points}))
            .collect();
        let doc = json!({
            "cases": cases,
            "points": score.points,
            "fraction": score.fraction,
            "score": score.fraction * args.points,
        });
        serde_json::to_writer_pretty(&mut out, &doc)?;
        writeln!(out)?;
        return Ok(());
    }
    let mut t = table(["case", "penalty", "optimum", "points"]);
    for (i, c) in score.cases.iter().enumerate() {
        t.add_row([
            (i + 1).to_string(),
            c.penalty.to_string(),
            c.optimum.to_string(),
            format!("{:.4}", c.points),
        ]);
    }
    writeln!(out, "{t}")?;
    writeln!(
        out,
        "{:.4} of {:.1} case points: {:.2} % of the file's maximum, {:.3} of {} points",
        score.points,
        CASE_POINTS * score.cases.len() as f64,
        100.0 * score.fraction,
        score.fraction * args.points,
        args.points
    )?;
    Ok(())
}

/// `ply sokoboru gen --backward`: puzzles solvable by construction.
fn run_scramble(args: &GenArgs) -> Result<()> {
    let options = ScrambleOptions {
        rows: args.size.0,
        cols: args.size.1,
        pairs: args.balls,
        full: args.full,
        wall_density: args.wall_density,
        moves: args.pushes,
        max_draws: args.max_draws,
    };
    let drawn = scramble(args.seed, args.count, &options)?;
    let mut out = std::io::stdout().lock();
    for (i, found) in drawn.iter().enumerate() {
        errln!(
            "case {}: solvable by construction (a solution of penalty {})",
            i + 1,
            found.penalty
        );
        write!(out, "{}", found.puzzle)?;
    }
    Ok(())
}

/// `ply sokoboru gen`: random puzzles with their proven optima (or best known penalties).
pub(super) fn run_generate(args: &GenArgs) -> Result<()> {
    if args.backward {
        return run_scramble(args);
    }
    let options = GenOptions {
        rows: args.size.0,
        cols: args.size.1,
        balls: args.balls,
        min_penalty: args.min_penalty,
        wall_density: args.wall_density,
        limits: ply_search::Limits::UNLIMITED.with_max_nodes(args.max_nodes),
        max_draws: args.max_draws,
        keep: if args.answered {
            Keep::Answered
        } else {
            Keep::Proven
        },
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
            let what = if found.proven {
                "optimal penalty"
            } else {
                "best known penalty"
            };
            bar.suspend(|| errln!("case {kept}: {what} {}", found.penalty));
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
