//! What the `ply sokoboru` commands, the terminal game and the demo share: loading puzzle
//! files, solving with every answer replayed, and the schedule of a whole file.

use crate::format::read_parsed;
use anyhow::{Context, Result, bail};
use ply_search::{AStarError, GiveUp};
use ply_sokoboru::{Puzzle, Solution, SolveError, parse_puzzles, replay, solve, solve_anytime};
use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Reads and parses a puzzle file (or standard input for `-`).
pub fn load_puzzles(path: &str) -> Result<Vec<Puzzle>> {
    read_parsed(path, parse_puzzles)
}

/// Solves one case with `solve` ([`ply_sokoboru::solve`] or [`solve_anytime`]) and replays
/// the answer through the verifier before anyone sees it.
pub fn solve_checked(
    puzzle: &Puzzle,
    limits: ply_search::Limits,
    solve: fn(&Puzzle, ply_search::Limits) -> Result<Solution, SolveError>,
) -> Result<Result<Solution, SolveError>> {
    let result = solve(puzzle, limits);
    match &result {
        Ok(solution) => check_replay(puzzle, &solution.moves, solution.penalty)?,
        Err(SolveError::GaveUp {
            best: Some(best), ..
        }) => check_replay(puzzle, &best.moves, best.penalty)?,
        Err(_) => {}
    }
    Ok(result)
}

/// Fails unless `moves` solve `puzzle` with exactly `penalty`.
pub fn check_replay(puzzle: &Puzzle, moves: &[ply_sokoboru::Dir], penalty: u32) -> Result<()> {
    let replayed = replay(puzzle, moves)
        .map_err(|(i, why)| anyhow::anyhow!("internal error: move {} is illegal: {why}", i + 1))?;
    if replayed.left != 0 || replayed.penalty != penalty {
        bail!("internal error: the solver's answer does not replay to its penalty");
    }
    Ok(())
}

/// A case's answer, checked by replay (the outer error: the check failed).
pub type Checked = Result<Result<Solution, SolveError>>;

/// Solves every case of a file on `threads` threads, each answer checked by replay, and hands
/// each case's answer to `report` in file order as soon as it and every case before it are
/// done (so a caller that prints them loses nothing already solved if it is stopped later).
///
/// The cases run in parallel, and a thread whose cases are done helps the searches still
/// running. Parallel searches draw on one memory budget (the course allowed 4 GB in all), so
/// a hard case may use what the easy ones leave. With a `deadline`, each case gets an even
/// share of what is left when it starts ([`case_time`]). The cases that run out of time get a
/// second try, from scratch, with the time the others left over (split evenly again), by
/// [`solve_anytime`], which spends part of it on a first solution if the quick searches found
/// none and keeps part for cheaper solutions, and keep the better of their two answers
/// (unless `limits` caps each case's time itself). The cases of the last round, which no time
/// is left over for, get [`solve_anytime`] on their first try.
///
/// # Errors
/// The worker threads cannot start, or `report` failed (its first error; the cases still
/// running are finished but no longer reported).
pub fn solve_file(
    puzzles: &[Puzzle],
    threads: usize,
    limits: ply_search::Limits,
    deadline: Option<Instant>,
    report: impl FnMut(usize, Checked) -> Result<()> + Send,
) -> Result<()> {
    let limits =
        limits.with_memory_pool(ply_search::MemoryPool::shared(ply_sokoboru::DEFAULT_MEMORY));
    let threads = threads.max(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the worker threads")?;
    let next = AtomicUsize::new(0);
    // Second tries share what a deadline leaves; a time limit per case (`--time-limit`) is
    // the user's own cap, and a second try would only run it again.
    let retry = deadline.is_some() && limits.max_time.is_none();
    // The cases out of time on their first try, with that try's answer.
    let retries = Mutex::new(VecDeque::new());
    let reporter = Mutex::new(InOrder {
        done: puzzles.iter().map(|_| None).collect(),
        reported: 0,
        report,
        failed: None,
    });
    let finished = |at: usize, result: Checked| {
        reporter
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .finished(at, result);
    };
    pool.scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|_| {
                // Each thread takes the next case in file order while there is one, then the
                // second tries; a thread that finds neither helps the searches still running.
                while let Some(at) =
                    Some(next.fetch_add(1, Ordering::Relaxed)).filter(|&at| at < puzzles.len())
                {
                    let waiting = puzzles.len() - at - 1;
                    // A case of the last round gets no time others leave over, so its first
                    // try is its only one.
                    let last = deadline.is_some() && waiting < threads;
                    let result = solve_checked(
                        &puzzles[at],
                        until(&limits, deadline, waiting, threads),
                        if last { solve_anytime } else { solve },
                    );
                    if retry && out_of_time(&result) {
                        retries
                            .lock()
                            .unwrap_or_else(PoisonError::into_inner)
                            .push_back((at, result));
                    } else {
                        finished(at, result);
                    }
                }
                loop {
                    let (taken, waiting) = {
                        let mut retries = retries.lock().unwrap_or_else(PoisonError::into_inner);
                        (retries.pop_front(), retries.len())
                    };
                    let Some((at, first)) = taken else {
                        break;
                    };
                    let limits = until(&limits, deadline, waiting, threads);
                    let result = if limits.max_time.is_some_and(|time| time < MIN_RETRY) {
                        first
                    } else {
                        better(first, solve_checked(&puzzles[at], limits, solve_anytime))
                    };
                    finished(at, result);
                }
            });
        }
    });
    let reporter = reporter
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    match reporter.failed {
        Some(why) => Err(why),
        None if reporter.reported < puzzles.len() => {
            bail!("internal error: a case was not solved")
        }
        None => Ok(()),
    }
}

/// The least time worth a second try at a case.
const MIN_RETRY: Duration = Duration::from_millis(500);

/// Whether `result` is a case whose search ran out of time (worth a second try with more).
pub fn out_of_time(result: &Checked) -> bool {
    matches!(
        result,
        Ok(Err(SolveError::GaveUp {
            reason: AStarError::GaveUp {
                why: GiveUp::TimeLimit,
                ..
            },
            ..
        }))
    )
}

/// The better of a case's two answers: the second if it is proven (or failed its check),
/// else the cheaper best solution with the larger lower bound of the two.
pub fn better(first: Checked, second: Checked) -> Checked {
    match (first, second) {
        (
            Ok(Err(SolveError::GaveUp {
                lower_bound: first_bound,
                best: first_best,
                ..
            })),
            Ok(Err(SolveError::GaveUp {
                reason,
                lower_bound,
                best,
            })),
        ) => {
            let best = match (first_best, best) {
                (Some(a), Some(b)) => Some(if b.penalty < a.penalty { b } else { a }),
                (a, b) => b.or(a),
            };
            Ok(Err(SolveError::GaveUp {
                reason,
                lower_bound: lower_bound.max(first_bound),
                best,
            }))
        }
        (_, second) => second,
    }
}

/// A case's time when `left` remains before the deadline and `after` cases wait behind it on
/// `threads` threads: an even share of what is left among the rounds of cases still to run,
/// this case's round included. What a case leaves unused goes to the cases after it.
pub fn case_time(left: Duration, after: usize, threads: usize) -> Duration {
    let rounds = (after + 1).div_ceil(threads.max(1));
    left / u32::try_from(rounds).unwrap_or(u32::MAX)
}

/// `limits` with the time limit cut to the case's share of what is left before `deadline`
/// ([`case_time`]).
pub fn until(
    limits: &ply_search::Limits,
    deadline: Option<Instant>,
    after: usize,
    threads: usize,
) -> ply_search::Limits {
    match deadline {
        Some(deadline) => {
            let left = deadline.saturating_duration_since(Instant::now());
            let share = case_time(left, after, threads);
            let time = limits.max_time.map_or(share, |time| time.min(share));
            limits.clone().with_max_time(time)
        }
        None => limits.clone(),
    }
}

/// The answers finished so far, handed on in file order.
struct InOrder<F> {
    /// Finished answers not yet reported, by case.
    done: Vec<Option<Checked>>,
    /// Cases reported so far (all those before this index).
    reported: usize,
    /// Where the answers go.
    report: F,
    /// The first error `report` returned.
    failed: Option<anyhow::Error>,
}

impl<F: FnMut(usize, Checked) -> Result<()>> InOrder<F> {
    /// Records case `at`'s answer and reports every answer now next in line.
    fn finished(&mut self, at: usize, result: Checked) {
        self.done[at] = Some(result);
        while let Some(result) = self.done.get_mut(self.reported).and_then(Option::take) {
            if self.failed.is_none() {
                if let Err(why) = (self.report)(self.reported, result) {
                    self.failed = Some(why);
                }
            }
            self.reported += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stand-in answer for case `i`: a distinct error message.
    fn answer(i: usize) -> Checked {
        Err(anyhow::anyhow!("case {i}"))
    }

    #[test]
    fn a_case_gets_an_even_share_of_the_rounds_left() {
        let secs = |s: u64| Duration::from_secs(s);
        // Ten cases on two threads: five rounds, the first case's among them.
        assert_eq!(case_time(secs(60), 9, 2), secs(12));
        assert_eq!(case_time(secs(60), 8, 2), secs(12));
        assert_eq!(case_time(secs(60), 7, 2), secs(15));
        assert_eq!(
            case_time(secs(58), 0, 2),
            secs(58),
            "the last case takes all"
        );
        assert_eq!(case_time(secs(60), 3, 1), secs(15));
        assert_eq!(case_time(Duration::ZERO, 4, 2), Duration::ZERO);
    }

    /// An unproven answer of `penalty` with `lower_bound`.
    fn unproven(penalty: Option<u32>, lower_bound: u32) -> Checked {
        Ok(Err(SolveError::GaveUp {
            reason: AStarError::GaveUp {
                why: GiveUp::TimeLimit,
                stats: ply_search::AStarStats::default(),
            },
            lower_bound,
            best: penalty.map(|penalty| ply_sokoboru::Unproven {
                moves: Vec::new(),
                penalty,
            }),
        }))
    }

    /// The penalty and lower bound of an unproven answer.
    fn range(answer: &Checked) -> (Option<u32>, u32) {
        match answer {
            Ok(Err(SolveError::GaveUp {
                best, lower_bound, ..
            })) => (best.as_ref().map(|best| best.penalty), *lower_bound),
            other => panic!("not an unproven answer: {other:?}"),
        }
    }

    #[test]
    fn a_second_try_keeps_the_better_of_both_answers() {
        assert!(out_of_time(&unproven(Some(40), 30)));
        assert!(!out_of_time(&Ok(Err(SolveError::NoSolution(1)))));
        // The cheaper solution and the larger lower bound, whichever try found them.
        let kept = better(unproven(Some(40), 35), unproven(Some(42), 37));
        assert_eq!(range(&kept), (Some(40), 37));
        let kept = better(unproven(Some(42), 37), unproven(Some(40), 35));
        assert_eq!(range(&kept), (Some(40), 37));
        // A solution beats none.
        assert_eq!(
            range(&better(unproven(Some(44), 30), unproven(None, 31))),
            (Some(44), 31)
        );
        assert_eq!(
            range(&better(unproven(None, 30), unproven(Some(44), 29))),
            (Some(44), 30)
        );
        // A proven answer of the second try stands.
        let proven = better(unproven(Some(44), 30), Ok(Err(SolveError::NoSolution(7))));
        assert!(matches!(proven, Ok(Err(SolveError::NoSolution(7)))));
    }

    #[test]
    fn answers_are_reported_in_file_order_as_soon_as_they_can_be() {
        let mut seen = Vec::new();
        let mut order = InOrder {
            done: (0..4).map(|_| None).collect(),
            reported: 0,
            report: |i: usize, result: Checked| {
                seen.push((i, result.unwrap_err().to_string()));
                Ok(())
            },
            failed: None,
        };
        order.finished(0, answer(0));
        assert_eq!(order.reported, 1, "the first case goes out at once");
        order.finished(2, answer(2));
        order.finished(3, answer(3));
        assert_eq!(order.reported, 1, "later cases wait for case 2");
        order.finished(1, answer(1));
        assert_eq!(order.reported, 4);
        assert!(order.failed.is_none());
        let expected: Vec<_> = (0..4).map(|i| (i, format!("case {i}"))).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn a_failed_report_is_kept_and_later_answers_are_not_reported() {
        let mut calls = 0;
        let mut order = InOrder {
            done: (0..3).map(|_| None).collect(),
            reported: 0,
            report: |_: usize, _: Checked| {
                calls += 1;
                bail!("broken pipe")
            },
            failed: None,
        };
        for i in 0..3 {
            order.finished(i, answer(i));
        }
        assert_eq!(
            order.failed.map(|e| e.to_string()).as_deref(),
            Some("broken pipe")
        );
        assert_eq!(calls, 1);
    }
}
