//! The `ply sokoboru` verbs that run without a terminal UI.

use super::args::{GenArgs, ScoreArgs, SolveArgs, VerifyArgs};
use super::ops::{load_puzzles, solve_file};
use crate::format::{plural, progress, read_parsed, table};
use crate::outcome::{Reported, interrupted, usage};
use anyhow::{Context, Result};
use ply_search::{AStarError, GiveUp};
use ply_sokoboru::{
    Answer, CASE_POINTS, FileOptions, GenOptions, Keep, Progress, ScrambleOptions, SolveError,
    VerifyError, check_case, generate, parse_optima, parse_solutions, score_file, scramble,
};
use serde_json::json;
use std::io::Write;
use std::sync::mpsc::RecvTimeoutError;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// `ply sokoboru solve`: solves a file, printing each case as soon as it and those before it
/// are final. A signal prints the best answer of every case not printed yet; a failed write
/// to standard output ends the command at once (quietly for a closed pipe).
pub(super) fn run_solve(args: &SolveArgs) -> Result<()> {
    let limits = args.budget.limits()?;
    // The rule `gen` has: a search that may generate no state cannot run.
    if limits.max_nodes == Some(0) {
        return Err(usage("--max-nodes must be at least 1"));
    }
    // A deadline later than any instant the clock can name is none.
    let deadline = args.deadline.duration()?.and_then(ply_search::deadline_in);
    let options = FileOptions {
        threads: args.threads,
        limits,
        deadline,
    };
    let puzzles = Arc::new(load_puzzles(&args.file)?);
    let interrupt = crate::signals::interrupt_flag()?;
    let shared = Arc::new(Shared {
        progress: Progress::new(puzzles.len()),
        printer: Mutex::new(Printer {
            next: 0,
            unanswered: 0,
            stats: args.stats,
            time_limit: options.limits.max_time.is_some(),
            failed: None,
        }),
    });
    // On a terminal, the cases printed (final) and answered so far: a file may take its whole
    // deadline, a minute, with nothing else to show.
    let bar = progress(puzzles.len() as u64, "sokoboru solve");
    let (done, finished) = std::sync::mpsc::channel::<Result<()>>();
    // The searches run on a thread of their own, so that this one can end the command (and
    // with it every search) at a signal or a failed write, without waiting for them.
    let solving = {
        let (puzzles, shared, bar) = (Arc::clone(&puzzles), Arc::clone(&shared), bar.clone());
        std::thread::spawn(move || {
            let result = solve_file(&puzzles, &options, &shared.progress, |at, answer| {
                let printed = bar.suspend(|| shared.printer().print(at, &answer, false));
                bar.set_position(shared.printer().next as u64);
                Ok(printed?)
            });
            drop(done.send(result));
        })
    };
    let mut shown = Instant::now();
    loop {
        if !bar.is_hidden() && shown.elapsed() >= Duration::from_millis(250) {
            shown = Instant::now();
            let answered = (0..puzzles.len())
                .filter(|&at| match shared.progress.best(at) {
                    Ok(_) | Err(SolveError::NoSolution(_)) => true,
                    Err(SolveError::GaveUp { best, .. }) => best.is_some(),
                })
                .count();
            bar.set_message(format!("final, {answered} answered"));
        }
        // Wakes when the solving ends or every 20 ms to look for a signal or a failed write.
        let result = match finished.recv_timeout(Duration::from_millis(20)) {
            Ok(result) => Some(result),
            Err(RecvTimeoutError::Timeout) => None,
            // The solving thread ended without a result, so it panicked: raise its panic here.
            Err(RecvTimeoutError::Disconnected) => {
                return match solving.join() {
                    Err(panic) => std::panic::resume_unwind(panic),
                    Ok(()) => Err(anyhow::anyhow!(
                        "internal error: the solver ended without a result"
                    )),
                };
            }
        };
        let mut printer = shared.printer();
        if let Some(failure) = printer.failed.take() {
            return Err(anyhow::Error::from(failure).context("writing standard output"));
        }
        if let Some(result) = result {
            drop(printer);
            bar.finish_and_clear();
            result?;
            break;
        }
        // A reader that has gone (`| head -1`) would only be noticed at the next case's
        // write, which may be a long search away.
        if reader_gone() {
            let gone = std::io::Error::from(std::io::ErrorKind::BrokenPipe);
            return Err(anyhow::Error::from(gone).context("writing standard output"));
        }
        if interrupt.is_stopped() {
            bar.finish_and_clear();
            // The best answer of every case not printed yet, then out: the searches still
            // running end with the process.
            for (at, puzzle) in puzzles.iter().enumerate().skip(printer.next) {
                let answer = shared.progress.best(at);
                ply_sokoboru::check_answer(puzzle, &answer)?;
                printer
                    .print(at, &answer, true)
                    .context("writing standard output")?;
            }
            return Err(interrupted(
                "interrupted; printed the best answer found for each case",
            ));
        }
    }
    if let Some(svg) = &args.svg {
        let answers: Vec<Answer> = (0..puzzles.len())
            .map(|at| shared.progress.best(at))
            .collect();
        let cases: Vec<super::picture::Answered<'_>> = puzzles
            .iter()
            .zip(&answers)
            .map(|(puzzle, answer)| super::picture::Answered {
                puzzle,
                answer: match answer {
                    Ok(s) => Some((&s.moves[..], s.penalty, true)),
                    Err(SolveError::GaveUp {
                        best: Some(best), ..
                    }) => Some((&best.moves[..], best.penalty, false)),
                    Err(_) => None,
                },
            })
            .collect();
        super::picture::save(svg, &cases)?;
    }
    if shared.printer().unanswered > 0 {
        return Err(Reported.into());
    }
    Ok(())
}

/// Whether standard output is a pipe or socket whose reader has gone, so that nothing
/// written to it can be read any more.
fn reader_gone() -> bool {
    use nix::poll::{PollFd, PollFlags, PollTimeout, poll};
    use std::os::fd::AsFd;
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(stdout.as_fd(), PollFlags::empty())];
    // The error and hang-up flags are reported whatever events were asked for.
    poll(&mut fds, PollTimeout::ZERO).is_ok_and(|ready| ready > 0)
        && fds[0]
            .revents()
            .is_some_and(|events| events.intersects(PollFlags::POLLERR | PollFlags::POLLHUP))
}

/// What the solving thread and the command's own thread share.
struct Shared {
    /// Every case's best answer so far.
    progress: Progress,
    /// Where the answers go.
    printer: Mutex<Printer>,
}

impl Shared {
    fn printer(&self) -> MutexGuard<'_, Printer> {
        self.printer.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Prints the cases of a solution file in order, each once.
struct Printer {
    /// The next case to print.
    next: usize,
    /// Cases printed without a solution (an empty answer in their place).
    unanswered: usize,
    /// Whether to report each case on stderr.
    stats: bool,
    /// Whether each case has a time limit of its own (`--time-limit`).
    time_limit: bool,
    /// The first failed write to standard output, for the command's thread to end on.
    failed: Option<std::io::Error>,
}

impl Printer {
    /// Prints case `at` (unless it was printed already): its penalty and moves, or for a
    /// case without a solution an empty answer (penalty 0, no moves), which keeps the file
    /// well-formed so that a verifier rejects that case alone; the reason goes to stderr, and
    /// a note for a solution not proven optimal. After a failed write, prints nothing more.
    fn print(&mut self, at: usize, answer: &Answer, interrupted: bool) -> std::io::Result<()> {
        if at != self.next || self.failed.is_some() {
            return Ok(());
        }
        self.next += 1;
        self.write(at + 1, answer, interrupted)
            .inspect_err(|failure| {
                self.failed = Some(std::io::Error::new(failure.kind(), failure.to_string()));
            })
    }

    /// [`Printer::print`]'s output for case number `case`.
    fn write(&mut self, case: usize, answer: &Answer, interrupted: bool) -> std::io::Result<()> {
        let mut out = std::io::stdout().lock();
        let moves =
            |moves: &[ply_sokoboru::Dir]| -> String { moves.iter().map(|d| d.symbol()).collect() };
        match answer {
            Ok(solution) => {
                writeln!(out, "{}\n{}", solution.penalty, moves(&solution.moves))?;
                if self.stats {
                    errln!(
                        "case {case}: penalty {} moves {} expanded {} generated {} seconds {:.3} \
                         upper bound {}",
                        solution.penalty,
                        solution.moves.len(),
                        solution.expanded,
                        solution.generated,
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
                writeln!(out, "{}\n{}", best.penalty, moves(&best.moves))?;
                let by = if interrupted {
                    "before the interrupt"
                } else {
                    self.stopped_by(reason)
                };
                // The bound never passes a solution in hand.
                let lower = (*lower_bound).min(best.penalty);
                errln!(
                    "ply: note: case {case}: not proven optimal {by}: penalty {}, the optimum is \
                     {lower} to {} ({} generated)",
                    best.penalty,
                    best.penalty,
                    plural(reason.stats().generated, "state")
                );
            }
            Err(why) => {
                self.unanswered += 1;
                writeln!(out, "0\n")?;
                let what = match why {
                    SolveError::NoSolution(_) => "proven unsolvable",
                    SolveError::GaveUp { .. } if interrupted => {
                        "no solution found before the interrupt"
                    }
                    SolveError::GaveUp { .. } => "no solution found",
                };
                errln!(
                    "ply: error: case {case}: {what} ({why}); printed an empty answer in its place"
                );
            }
        }
        out.flush()
    }

    /// What stopped a case's proof, as the note says it.
    fn stopped_by(&self, reason: &AStarError) -> &'static str {
        match reason {
            AStarError::MemoryLimit { .. } => "within the memory limit",
            AStarError::GaveUp {
                why: GiveUp::NodeLimit,
                ..
            } => "within --max-nodes",
            AStarError::GaveUp {
                why: GiveUp::TimeLimit,
                ..
            } if self.time_limit => "within --time-limit",
            _ => "by the deadline",
        }
    }
}

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
