//! The `ply sokoboru` verbs that run without a terminal UI.

use super::args::{GenArgs, SolveArgs, VerifyArgs};
use super::ops::{check_answer, load_puzzles, solve_file};
use crate::format::{progress, read_parsed};
use crate::outcome::Reported;
use anyhow::Result;
use ply_sokoboru::{
    Answer, FileOptions, GenOptions, Keep, Progress, SolveError, VerifyError, check_case, generate,
    parse_solutions,
};
use std::io::Write;
use std::sync::atomic::Ordering;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// `ply sokoboru solve`: solves a file, printing each case as soon as it and those before it
/// are final; a signal prints the best answer of every case not printed yet.
pub fn run_solve(args: &SolveArgs) -> Result<()> {
    let deadline = args.deadline.0.map(|time| Instant::now() + time);
    let options = FileOptions {
        threads: args.threads,
        limits: args.budget.limits()?,
        deadline,
    };
    let puzzles = load_puzzles(&args.file)?;
    let interrupted = crate::signals::interrupt_flag()?;
    let progress = Progress::new(puzzles.len());
    let printer = Mutex::new(Printer {
        next: 0,
        unproven: 0,
        stats: args.stats,
    });
    let print = |at: usize, answer: Answer| -> Result<()> {
        printer
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .print(at, &answer)
    };
    std::thread::scope(|scope| {
        let (done, finished) = std::sync::mpsc::channel::<()>();
        let solving = scope.spawn(|| {
            let result = solve_file(&puzzles, &options, &progress, print);
            drop(done);
            result
        });
        // Wakes when the solving ends (its sender drops) or every 20 ms to look for a signal.
        while finished.recv_timeout(Duration::from_millis(20)) == Err(RecvTimeoutError::Timeout) {
            if interrupted.load(Ordering::SeqCst) {
                // The best answer of every case not printed yet, then out: the searches
                // still running end with the process.
                let mut printer = printer.lock().unwrap_or_else(PoisonError::into_inner);
                for (at, puzzle) in puzzles.iter().enumerate().skip(printer.next) {
                    let answer = progress.best(at);
                    check_answer(puzzle, &answer)?;
                    printer.print(at, &answer)?;
                }
                errln!("ply: error: interrupted; printed the best answer found for each case");
                std::process::exit(crate::signals::exit_status().into());
            }
        }
        solving
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })?;
    let unproven = printer
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner)
        .unproven;
    if unproven > 0 {
        return Err(Reported.into());
    }
    Ok(())
}

/// Prints the cases of a solution file in order, each once.
struct Printer {
    /// The next case to print.
    next: usize,
    /// Cases printed without a proven optimum.
    unproven: usize,
    /// Whether to report each case on stderr.
    stats: bool,
}

impl Printer {
    /// Prints case `at` (unless it was printed already): its penalty and moves, or for a
    /// case without a solution an empty answer (penalty 0, no moves), which keeps the file
    /// well-formed so that a verifier rejects that case alone; the reason goes to stderr.
    fn print(&mut self, at: usize, answer: &Answer) -> Result<()> {
        if at != self.next {
            return Ok(());
        }
        self.next += 1;
        let case = at + 1;
        let mut out = std::io::stdout().lock();
        let moves =
            |moves: &[ply_sokoboru::Dir]| -> String { moves.iter().map(|d| d.symbol()).collect() };
        match answer {
            Ok(solution) => {
                writeln!(out, "{}\n{}", solution.penalty, moves(&solution.moves))?;
                if self.stats {
                    errln!(
                        "case {case}: penalty {} moves {} expanded {} seconds {:.3} upper bound {}",
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
                self.unproven += 1;
                writeln!(out, "{}\n{}", best.penalty, moves(&best.moves))?;
                errln!(
                    "ply: error: case {case}: {reason}; printed the best solution found (penalty \
                     {}), which is NOT proven optimal (the optimum is {lower_bound} to {})",
                    best.penalty,
                    best.penalty
                );
            }
            Err(why) => {
                self.unproven += 1;
                writeln!(out, "0\n")?;
                let what = match why {
                    SolveError::NoSolution(_) => "proven unsolvable",
                    SolveError::GaveUp { .. } => "no solution found",
                };
                errln!(
                    "ply: error: case {case}: {what} ({why}); printed an empty answer in its place"
                );
            }
        }
        out.flush()?;
        Ok(())
    }
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
            return Err(crate::outcome::usage(
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
                errln!(
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

/// `ply sokoboru gen`: random puzzles with their proven optima (or best known penalties).
pub fn run_generate(args: &GenArgs) -> Result<()> {
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
