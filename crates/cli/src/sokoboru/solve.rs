//! `ply sokoboru solve`: a whole file under one deadline, each case printed as soon as it and
//! those before it are final.

use super::args::SolveArgs;
use super::ops::{load_puzzles, solve_file};
use crate::format::{plural, progress};
use crate::outcome::{Reported, interrupted, usage};
use crate::record::{record, write_line};
use anyhow::{Context, Result};
use indicatif::ProgressBar;
use ply_search::{GiveUp, Limits, StopFlag};
use ply_sokoboru::{CaseReport, Dir, Progress, Puzzle, moves_to_string};
use serde::Serialize;
use serde_json::json;
use std::io::Write;
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What `solve` was asked for, checked: the puzzles and each case's budget, the file's
/// deadline among it.
struct Plan {
    puzzles: Arc<Vec<Puzzle>>,
    threads: usize,
    limits: Limits,
    /// How each case is printed.
    style: Style,
}

/// How the cases are printed.
#[derive(Clone, Copy, Debug)]
struct Style {
    /// A JSON record a line instead of the solution file.
    json: bool,
    /// Whether to report each case on stderr.
    stats: bool,
    /// Whether each case has a time limit of its own (`--time-limit`).
    time_limit: bool,
}

impl Plan {
    /// The plan of `args`: a usage error for a budget no search can run in.
    fn of(args: &SolveArgs) -> Result<Plan> {
        let mut limits = args.budget.limits()?;
        // The rule `gen` has: a search that may generate no state cannot run.
        if limits.max_nodes == Some(0) {
            return Err(usage("--max-nodes must be at least 1"));
        }
        // A deadline later than any instant the clock can name is none.
        limits.deadline = args.deadline.duration()?.and_then(ply_search::deadline_in);
        Ok(Plan {
            puzzles: Arc::new(load_puzzles(&args.file)?),
            threads: args.threads,
            style: Style {
                json: args.json,
                stats: args.stats,
                time_limit: limits.max_time.is_some(),
            },
            limits,
        })
    }
}

/// `ply sokoboru solve`: solves a file, printing each case as soon as it and those before it
/// are final. A signal prints the best answer of every case not printed yet; a failed write
/// to standard output ends the command at once (quietly for a closed pipe).
pub(super) fn run_solve(args: &SolveArgs) -> Result<()> {
    let plan = Plan::of(args)?;
    let interrupt = crate::signals::interrupt_flag()?;
    let shared = Arc::new(Shared {
        progress: Progress::new(plan.puzzles.len()),
        printer: Mutex::new(Printer {
            next: 0,
            unanswered: 0,
            style: plan.style,
            failed: None,
        }),
    });
    // On a terminal, the cases printed (final) and answered so far: a file may take its whole
    // deadline, a minute, with nothing else to show.
    let bar = progress(plan.puzzles.len() as u64, "sokoboru solve");
    let (finished, solving) = start(&plan, &shared, &bar);
    watch(&plan.puzzles, &shared, &bar, &interrupt, &finished, solving)?;
    if let Some(svg) = &args.svg {
        let reports: Vec<CaseReport> = (0..plan.puzzles.len())
            .map(|at| shared.progress.best(at))
            .collect();
        let cases: Vec<super::picture::Answered<'_>> = plan
            .puzzles
            .iter()
            .zip(&reports)
            .map(|(puzzle, report)| super::picture::Answered {
                puzzle,
                answer: report
                    .moves()
                    .zip(report.cost())
                    .map(|(moves, cost)| (moves, cost, report.proven())),
            })
            .collect();
        super::picture::save(svg, &cases)?;
    }
    if shared.printer().unanswered > 0 {
        return Err(Reported.into());
    }
    Ok(())
}

/// Starts the searches on a thread of their own, so that this one can end the command (and
/// with it every search) at a signal or a failed write, without waiting for them. The
/// receiver hears the schedule's result.
fn start(
    plan: &Plan,
    shared: &Arc<Shared>,
    bar: &ProgressBar,
) -> (Receiver<Result<()>>, JoinHandle<()>) {
    let (done, finished) = std::sync::mpsc::channel::<Result<()>>();
    let (puzzles, shared, bar) = (Arc::clone(&plan.puzzles), Arc::clone(shared), bar.clone());
    let (threads, limits) = (plan.threads, plan.limits.clone());
    let solving = std::thread::spawn(move || {
        let result = solve_file(
            &puzzles,
            threads,
            &limits,
            &shared.progress,
            |at, report| {
                let printed = bar.suspend(|| shared.printer().print(at, &report, false));
                bar.set_position(shared.printer().next as u64);
                Ok(printed?)
            },
        );
        drop(done.send(result));
    });
    (finished, solving)
}

/// Waits for the solving to end, looking every 20 ms for a signal (which prints the best
/// answer of every case not printed yet and ends the command), a failed write or a reader
/// that has gone, and showing on the bar how many cases are answered.
fn watch(
    puzzles: &[Puzzle],
    shared: &Shared,
    bar: &ProgressBar,
    interrupt: &StopFlag,
    finished: &Receiver<Result<()>>,
    solving: JoinHandle<()>,
) -> Result<()> {
    let mut shown = Instant::now();
    loop {
        if !bar.is_hidden() && shown.elapsed() >= Duration::from_millis(250) {
            shown = Instant::now();
            let answered = (0..puzzles.len())
                .filter(|&at| {
                    let best = shared.progress.best(at);
                    best.is_unsolvable() || best.cost().is_some()
                })
                .count();
            bar.set_message(format!("final, {answered} answered"));
        }
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
            return result;
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
                let report = shared.progress.best(at);
                ply_sokoboru::check_report(puzzle, &report)?;
                printer
                    .print(at, &report, true)
                    .context("writing standard output")?;
            }
            return Err(interrupted(
                "interrupted; printed the best answer found for each case",
            ));
        }
    }
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
    /// How to print them.
    style: Style,
    /// The first failed write to standard output, for the command's thread to end on.
    failed: Option<std::io::Error>,
}

impl Printer {
    /// Prints case `at` (unless it was printed already): its penalty and moves, or for a
    /// case without a solution an empty answer (penalty 0, no moves), which keeps the file
    /// well-formed so that a verifier rejects that case alone; the reason goes to stderr, and
    /// a note for a solution not proven optimal. After a failed write, prints nothing more.
    fn print(&mut self, at: usize, report: &CaseReport, interrupted: bool) -> std::io::Result<()> {
        if at != self.next || self.failed.is_some() {
            return Ok(());
        }
        self.next += 1;
        self.write(at + 1, report, interrupted)
            .inspect_err(|failure| {
                self.failed = Some(std::io::Error::new(failure.kind(), failure.to_string()));
            })
    }

    /// [`Printer::print`]'s output for case number `case`.
    fn write(
        &mut self,
        case: usize,
        report: &CaseReport,
        interrupted: bool,
    ) -> std::io::Result<()> {
        if self.style.json {
            write_record(case, report).map_err(std::io::Error::other)?;
        } else {
            let mut out = std::io::stdout().lock();
            let (penalty, moves) = (report.cost().unwrap_or(0), report.moves().unwrap_or(&[]));
            writeln!(out, "{penalty}\n{}", moves_to_string(moves))?;
            out.flush()?;
        }
        match (report.cost(), report.stopped) {
            (Some(penalty), None) if self.style.stats => errln!(
                "case {case}: penalty {penalty} moves {} expanded {} generated {} seconds {:.3} \
                 upper bound {}",
                report.moves().map_or(0, <[Dir]>::len),
                report.expanded,
                report.generated,
                report.elapsed.as_secs_f64(),
                report
                    .extra
                    .upper
                    .map_or_else(|| "none".to_string(), |u| u.to_string())
            ),
            (Some(_), None) => {}
            (Some(penalty), Some(why)) => {
                let by = if interrupted {
                    "before the interrupt"
                } else {
                    self.stopped_by(why)
                };
                // The bound never passes a solution in hand.
                let lower = report.lower_bound.min(penalty);
                errln!(
                    "ply: note: case {case}: not proven optimal {by}: penalty {penalty}, the \
                     optimum is {lower} to {penalty} ({} generated)",
                    plural(report.generated, "state")
                );
            }
            (None, _) => {
                self.unanswered += 1;
                let what = match report.stopped {
                    None => "proven unsolvable (every reachable state searched".to_string(),
                    Some(why) if interrupted => {
                        format!("no solution found before the interrupt ({why}")
                    }
                    Some(why) => format!("no solution found ({why}"),
                };
                errln!(
                    "ply: error: case {case}: {what}, {} generated); printed an empty answer \
                     in its place",
                    plural(report.generated, "state")
                );
            }
        }
        Ok(())
    }

    /// What stopped a case's proof, as the note says it.
    fn stopped_by(&self, why: GiveUp) -> &'static str {
        match why {
            GiveUp::MemoryLimit => "within the memory limit",
            GiveUp::NodeLimit => "within --max-nodes",
            GiveUp::TimeLimit if self.style.time_limit => "within --time-limit",
            _ => "by the deadline",
        }
    }
}

/// One case's record of `solve --json`: its number (from 1) and the report in the words of
/// `ply_games.sokoboru.Solution`, as one line.
fn write_record(case: usize, report: &CaseReport) -> Result<()> {
    #[derive(Serialize)]
    struct SolveLine {
        case: usize,
        #[serde(flatten)]
        record: crate::record::Record,
    }
    write_line(&SolveLine {
        case,
        record: record(report, |moves| json!(moves_to_string(moves))),
    })
}
