//! Solving a whole file under one deadline: an answer for every case first, then the time
//! left where it improves the file most, then proofs.
//!
//! The course scores a file only if every case has an answer, and a case's second half point
//! grows with how close its penalty is to the optimum. So the schedule runs in two phases:
//! first [`first_answer`] and [`cheaper_answer`] for every case (milliseconds each), then the
//! cases again in file order, each with an exact search ([`solve_from`] the answer in hand) on
//! an even share of the time left, keeping the better answer. The cases that run out of time
//! get a second try with the time the others left over. When the time is ample (seconds a
//! case), the exact searches do not wait for every first answer.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use ply_search::{AStarError, GiveUp, Limits, MemoryPool};

use crate::puzzle::Puzzle;
use crate::solver::{
    DEFAULT_MEMORY, Solution, SolveError, Unproven, cheaper_answer, first_answer, solve,
    solve_anytime, solve_from,
};

/// A case's answer: proven optimal, proven unsolvable, or the best found when a budget ran
/// out ([`SolveError::GaveUp`], with a solution if any search found one).
pub type Answer = Result<Solution, SolveError>;

/// How to solve a file.
#[derive(Clone, Debug, Default)]
pub struct FileOptions {
    /// Threads: the cases run in parallel, and a thread whose cases are done helps the
    /// searches still running.
    pub threads: usize,
    /// Each case's own budget (nodes, time), within the file's deadline.
    pub limits: Limits,
    /// When the whole file must be done, if ever.
    pub deadline: Option<Instant>,
}

/// The best answer of every case so far, for a caller that must print them before the
/// schedule ends (on a signal, say): [`Progress::best`] reads them while [`solve_file`] runs.
#[derive(Debug)]
pub struct Progress {
    best: Mutex<Vec<Answer>>,
}

impl Progress {
    /// Room for the answers of `cases` cases, each "no solution yet" until one is found.
    #[must_use]
    pub fn new(cases: usize) -> Progress {
        let none_yet = Err(SolveError::GaveUp {
            reason: stopped(),
            lower_bound: 0,
            best: None,
        });
        Progress {
            best: Mutex::new(vec![none_yet; cases]),
        }
    }

    /// Case `case`'s best answer so far ([`SolveError::GaveUp`] without a solution before
    /// one is found).
    ///
    /// # Panics
    /// When `case` is not a case of the file.
    pub fn best(&self, case: usize) -> Answer {
        self.lock()[case].clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Answer>> {
        self.best.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records `answer` for `case`, keeping the better of it and the one before; returns
    /// the one kept.
    fn offer(&self, case: usize, answer: Answer) -> Answer {
        let mut best = self.lock();
        let kept = better(best[case].clone(), answer);
        best[case] = kept.clone();
        kept
    }

    /// Records a case's answer that is not final yet.
    fn note(&self, case: usize, answer: Answer) {
        drop(self.offer(case, answer));
    }
}

/// Solves every case of a file on `options.threads` threads and hands each case's final answer
/// to `report` in file order, as soon as it and every case before it are final (so a caller
/// that prints them loses nothing already solved if it is stopped later). `progress` holds
/// every case's best answer so far.
///
/// The searches draw on one memory budget ([`DEFAULT_MEMORY`] unless `options.limits` sets
/// one), so a hard case may use what the easy ones leave. Every case first gets
/// [`first_answer`] within its even share of the time and [`cheaper_answer`] within what it
/// leaves of that share (which may prove the answer optimal), then the cases run again in file
/// order, each an exact search from its answer with an even share of what is left when it
/// starts ([`case_time`]); those that run out of time get a second try, from scratch, with the
/// time the others left over, by [`solve_anytime`] (unless `options.limits` caps each case's
/// time itself). The cases of the last round, which no time is left over for, search anytime
/// at once. When each case's share is ample (or there is no deadline), one thread finds the
/// first answers while the others start the exact searches, from scratch for a case no first
/// answer has been started for.
///
/// # Errors
/// The first error of `report`; the cases still running are finished but no longer reported.
pub fn solve_file<E>(
    puzzles: &[Puzzle],
    options: &FileOptions,
    progress: &Progress,
    report: impl FnMut(usize, Answer) -> Result<(), E> + Send,
) -> Result<(), E>
where
    E: Send,
{
    let limits = if options.limits.max_memory.is_none() && options.limits.memory_pool.is_none() {
        options
            .limits
            .clone()
            .with_memory_pool(MemoryPool::shared(DEFAULT_MEMORY))
    } else {
        options.limits.clone()
    };
    let threads = options.threads.max(1);
    // The searches stop a little after their time is up (between two looks at the clock,
    // and while freeing their tables), so they aim at a twentieth of the time before it.
    let deadline = options.deadline.map(|deadline| {
        let now = Instant::now();
        deadline - deadline.saturating_duration_since(now) / STOPPING_SHARE
    });
    let reporter = Mutex::new(InOrder {
        done: puzzles.iter().map(|_| None).collect(),
        reported: 0,
        report,
        failed: None,
    });
    let finished = |at: usize, answer: Answer| {
        let kept = progress.offer(at, answer);
        reporter
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .finished(at, kept);
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .ok();
    // First answers, each within its share of the time (most take milliseconds): the course
    // scores a file only if every case has one.
    let stages = Stages::new(puzzles.len());
    let next_first = AtomicUsize::new(0);
    let first = |at: usize| -> bool {
        let waiting = puzzles.len() - at - 1;
        let mut budget = until(&limits, deadline, waiting, threads);
        if budget.max_time.is_none() {
            // Without a deadline the exact search follows anyway: the first answer is only a
            // head start.
            budget.max_nodes = Some(budget.max_nodes.map_or(FIRST_NODES, |n| n.min(FIRST_NODES)));
        }
        let started = Instant::now();
        match first_answer(&puzzles[at], budget.clone()) {
            Ok(best) => {
                // Then a cheaper one, with what is left of the share: the second half point
                // of a case grows as its penalty nears the optimum.
                let left = budget.remaining(0, started.elapsed());
                let cheaper = cheaper_answer(&puzzles[at], &best, left);
                if cheaper.optimal {
                    finished(at, Ok(proven(cheaper.best, started)));
                } else {
                    progress.note(at, unproven(cheaper.best));
                }
                cheaper.optimal
            }
            // Proven unsolvable: final.
            Err(proof @ SolveError::NoSolution(_)) => {
                finished(at, Err(proof));
                true
            }
            Err(other) => {
                progress.note(at, Err(other));
                false
            }
        }
    };
    // Second tries share what a deadline leaves; a time limit per case is the user's own
    // cap, and a second try would only run it again.
    let retry = deadline.is_some() && limits.max_time.is_none();
    let retries = Mutex::new(VecDeque::new());
    let run = |at: usize, waiting: usize| {
        let budget = until(&limits, deadline, waiting, threads);
        // A case of the last round gets no time others leave over, so its first try is its
        // only one.
        let last = deadline.is_some() && waiting < threads;
        // The exact search starts from the answer in hand, if any; without time enough to
        // build its tables, the answer in hand stands.
        let answer = match progress.best(at) {
            best if budget.max_time.is_some_and(|time| time < MIN_EXACT) => {
                better(best, out_of_time_without_search())
            }
            Err(SolveError::GaveUp {
                best: Some(best), ..
            }) => solve_from(&puzzles[at], budget, &best, last),
            _ if last => solve_anytime(&puzzles[at], budget),
            _ => solve(&puzzles[at], budget),
        };
        if retry && out_of_time(&answer) {
            retries
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push_back((at, answer));
        } else {
            finished(at, answer);
        }
    };
    // When time is short, every first answer is started before any exact search. When it is
    // ample, one thread finds the first answers while the others run the exact searches in
    // file order, each from the case's first answer if it has one and from scratch if no
    // thread has started on it, so that a hard case starts as early as it can.
    let ample = deadline.is_none_or(|deadline| {
        let left = deadline.saturating_duration_since(Instant::now());
        case_time(left, puzzles.len().saturating_sub(1), threads) >= AMPLE
    });
    let started = AtomicUsize::new(0);
    let work = || {
        let finder = started.fetch_add(1, Ordering::Relaxed) == 0;
        // A thread that finds no first answer left to start goes on to the exact searches
        // at once rather than wait for the others' first answers.
        if finder || !ample {
            while let Some(at) = next_below(&next_first, puzzles.len()) {
                if stages.take_first(at) {
                    let done = first(at);
                    stages.first_done(at, done);
                }
            }
        }
        while let Some(at) = stages.take_exact() {
            run(at, stages.open_after(at));
            stages.exact_done(at);
        }
        loop {
            let (taken, waiting) = {
                let mut retries = retries.lock().unwrap_or_else(PoisonError::into_inner);
                (retries.pop_front(), retries.len())
            };
            let Some((at, first)) = taken else {
                break;
            };
            let budget = until(&limits, deadline, waiting, threads);
            let answer = if budget.max_time.is_some_and(|time| time < MIN_RETRY) {
                first
            } else {
                better(first, solve_anytime(&puzzles[at], budget))
            };
            finished(at, answer);
        }
    };
    on_threads(pool.as_ref(), threads, work);
    let reporter = reporter
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    reporter.failed.map_or(Ok(()), Err)
}

/// Runs `work` on each of `threads` threads of `pool`, or once on this thread when the pool
/// could not start.
fn on_threads(pool: Option<&rayon::ThreadPool>, threads: usize, work: impl Fn() + Sync) {
    match pool {
        Some(pool) => pool.scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|_| work());
            }
        }),
        None => work(),
    }
}

/// The next index below `count` that no thread has taken yet, if any.
fn next_below(next: &AtomicUsize, count: usize) -> Option<usize> {
    Some(next.fetch_add(1, Ordering::Relaxed)).filter(|&at| at < count)
}

/// `best`, proven optimal by a search that found nothing cheaper.
fn proven(best: Unproven, started: Instant) -> Solution {
    Solution {
        penalty: best.penalty,
        moves: best.moves,
        expanded: 0,
        upper: Some(best.penalty),
        elapsed: started.elapsed(),
    }
}

/// `best` as an answer the schedule has not finished with.
fn unproven(best: Unproven) -> Answer {
    Err(SolveError::GaveUp {
        reason: stopped(),
        lower_bound: 0,
        best: Some(best),
    })
}

/// A case's answer when no time was left to search it: whatever it had, out of time.
fn out_of_time_without_search() -> Answer {
    Err(SolveError::GaveUp {
        reason: AStarError::GaveUp {
            why: GiveUp::TimeLimit,
            stats: ply_search::AStarStats::default(),
        },
        lower_bound: 0,
        best: None,
    })
}

/// The reason of an answer the schedule has not finished with.
fn stopped() -> AStarError {
    AStarError::GaveUp {
        why: GiveUp::Cancelled,
        stats: ply_search::AStarStats::default(),
    }
}

/// The share of the time to the deadline kept for stopping: a twentieth.
const STOPPING_SHARE: u32 = 20;

/// The nodes of a case's first-answer search when no deadline bounds it.
const FIRST_NODES: u64 = 10_000_000;

/// A case's share of the time from which exact searches need not wait for every case's first
/// answer: with seconds a case, no case's first answer is at risk.
const AMPLE: Duration = Duration::from_secs(2);

/// The least time worth starting an exact search: building its tables takes milliseconds
/// (tens on boards of fifteen pairs), and a search that cannot start would only overrun the
/// deadline.
const MIN_EXACT: Duration = Duration::from_millis(25);

/// The least time worth a second try at a case.
const MIN_RETRY: Duration = Duration::from_millis(500);

/// Whether `answer` is a case whose search ran out of time (worth a second try with more).
fn out_of_time(answer: &Answer) -> bool {
    matches!(
        answer,
        Err(SolveError::GaveUp {
            reason: AStarError::GaveUp {
                why: GiveUp::TimeLimit,
                ..
            },
            ..
        })
    )
}

/// The better of a case's two answers: a proven one (optimal or unsolvable) if either is,
/// else the cheaper best solution with the larger lower bound of the two, and the second's
/// reason.
pub fn better(first: Answer, second: Answer) -> Answer {
    match (first, second) {
        (
            Err(SolveError::GaveUp {
                lower_bound: first_bound,
                best: first_best,
                ..
            }),
            Err(SolveError::GaveUp {
                reason,
                lower_bound,
                best,
            }),
        ) => {
            let best = match (first_best, best) {
                (Some(a), Some(b)) => Some(if b.penalty < a.penalty { b } else { a }),
                (a, b) => b.or(a),
            };
            Err(SolveError::GaveUp {
                reason,
                lower_bound: lower_bound.max(first_bound),
                best,
            })
        }
        (proven @ (Ok(_) | Err(SolveError::NoSolution(_))), Err(SolveError::GaveUp { .. })) => {
            proven
        }
        (_, second) => second,
    }
}

/// A case's time when `left` remains before the deadline and `after` cases wait behind it on
/// `threads` threads: an even share of what is left among the rounds of cases still to run,
/// this case's round included. What a case leaves unused goes to the cases after it.
#[must_use]
pub fn case_time(left: Duration, after: usize, threads: usize) -> Duration {
    let rounds = (after + 1).div_ceil(threads.max(1));
    left / u32::try_from(rounds).unwrap_or(u32::MAX)
}

/// `limits` with the time limit cut to the case's share of what is left before `deadline`
/// ([`case_time`]).
fn until(limits: &Limits, deadline: Option<Instant>, after: usize, threads: usize) -> Limits {
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

/// Where a case stands in the schedule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// No thread has taken it yet.
    Waiting,
    /// Its first answer is being searched for.
    First,
    /// It has a first answer (or none) but no final one: the exact search is next.
    Open,
    /// Its exact search is running.
    Taken,
    /// It needs no more searching in this phase: its answer is final (proven optimal or
    /// unsolvable), or its exact search is done.
    Final,
}

/// Every case's [`Stage`], and a way to wait for a case's first answer.
struct Stages {
    stages: Mutex<Vec<Stage>>,
    changed: Condvar,
}

impl Stages {
    /// `cases` cases, none taken yet.
    fn new(cases: usize) -> Stages {
        Stages {
            stages: Mutex::new(vec![Stage::Waiting; cases]),
            changed: Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Stage>> {
        self.stages.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Takes case `at` to search for its first answer; false if an exact search has it.
    fn take_first(&self, at: usize) -> bool {
        let mut stages = self.lock();
        let waiting = stages[at] == Stage::Waiting;
        if waiting {
            stages[at] = Stage::First;
        }
        waiting
    }

    /// Records that case `at` is done with its first answer (`final_` if it is proven).
    fn first_done(&self, at: usize, final_: bool) {
        self.lock()[at] = if final_ { Stage::Final } else { Stage::Open };
        self.changed.notify_all();
    }

    /// Records that case `at` needs no exact search any more.
    fn exact_done(&self, at: usize) {
        self.lock()[at] = Stage::Final;
    }

    /// The first case in file order that needs an exact search and that no thread is on:
    /// one with a first answer, or one no thread has started (whose exact search then starts
    /// from scratch). Waits while the only such cases are still searching for their first
    /// answer; `None` when no case is left.
    fn take_exact(&self) -> Option<usize> {
        let mut stages = self.lock();
        loop {
            let next = stages
                .iter()
                .position(|&stage| matches!(stage, Stage::Open | Stage::Waiting));
            if let Some(at) = next {
                stages[at] = Stage::Taken;
                return Some(at);
            }
            if !stages.contains(&Stage::First) {
                return None;
            }
            stages = self
                .changed
                .wait(stages)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// How many cases after `at` have no final answer yet.
    fn open_after(&self, at: usize) -> usize {
        self.lock()[at + 1..]
            .iter()
            .filter(|&&stage| stage != Stage::Final)
            .count()
    }
}

/// The answers finished so far, handed on in file order.
struct InOrder<F, E> {
    /// Finished answers not yet reported, by case.
    done: Vec<Option<Answer>>,
    /// Cases reported so far (all those before this index).
    reported: usize,
    /// Where the answers go.
    report: F,
    /// The first error `report` returned.
    failed: Option<E>,
}

impl<F: FnMut(usize, Answer) -> Result<(), E>, E> InOrder<F, E> {
    /// Records case `at`'s answer and reports every answer now next in line.
    fn finished(&mut self, at: usize, answer: Answer) {
        self.done[at] = Some(answer);
        while let Some(answer) = self.done.get_mut(self.reported).and_then(Option::take) {
            if self.failed.is_none() {
                if let Err(why) = (self.report)(self.reported, answer) {
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
    use crate::solver::Unproven;

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
    fn unproven(penalty: Option<u32>, lower_bound: u32) -> Answer {
        Err(SolveError::GaveUp {
            reason: AStarError::GaveUp {
                why: GiveUp::TimeLimit,
                stats: ply_search::AStarStats::default(),
            },
            lower_bound,
            best: penalty.map(|penalty| Unproven {
                moves: Vec::new(),
                penalty,
            }),
        })
    }

    /// The penalty and lower bound of an unproven answer.
    fn range(answer: &Answer) -> (Option<u32>, u32) {
        match answer {
            Err(SolveError::GaveUp {
                best, lower_bound, ..
            }) => (best.as_ref().map(|best| best.penalty), *lower_bound),
            other => panic!("not an unproven answer: {other:?}"),
        }
    }

    #[test]
    fn the_better_answer_keeps_the_cheaper_solution_and_the_larger_bound() {
        assert!(out_of_time(&unproven(Some(40), 30)));
        assert!(!out_of_time(&Err(SolveError::NoSolution(1))));
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
        // A proof stands, whichever try gave it.
        let proven = better(unproven(Some(44), 30), Err(SolveError::NoSolution(7)));
        assert!(matches!(proven, Err(SolveError::NoSolution(7))));
        let proven = better(Err(SolveError::NoSolution(7)), unproven(Some(44), 30));
        assert!(matches!(proven, Err(SolveError::NoSolution(7))));
    }

    /// A stand-in answer for case `i`: a distinct proof.
    fn answer(i: usize) -> Answer {
        Err(SolveError::NoSolution(i))
    }

    #[test]
    fn answers_are_reported_in_file_order_as_soon_as_they_can_be() {
        let mut seen = Vec::new();
        let mut order = InOrder {
            done: (0..4).map(|_| None).collect(),
            reported: 0,
            report: |i: usize, answer: Answer| -> Result<(), ()> {
                seen.push((i, answer));
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
        let expected: Vec<_> = (0..4).map(|i| (i, answer(i))).collect();
        assert_eq!(seen, expected);
    }

    #[test]
    fn a_failed_report_is_kept_and_later_answers_are_not_reported() {
        let mut calls = 0;
        let mut order = InOrder {
            done: (0..3).map(|_| None).collect(),
            reported: 0,
            report: |_: usize, _: Answer| {
                calls += 1;
                Err("broken pipe")
            },
            failed: None,
        };
        for i in 0..3 {
            order.finished(i, answer(i));
        }
        assert_eq!(order.failed, Some("broken pipe"));
        assert_eq!(calls, 1);
    }

    #[test]
    fn exact_searches_take_cases_in_file_order_and_wait_for_first_answers() {
        let stages = Stages::new(4);
        // Cases 0 and 1 are taken for first answers; 0 proves its answer, 1 is still running.
        assert!(stages.take_first(0));
        assert!(stages.take_first(1));
        stages.first_done(0, true);
        // The first case an exact search can take is 2, which no thread has started: it
        // starts from scratch, and no first answer is then searched for it.
        assert_eq!(stages.take_exact(), Some(2));
        assert!(!stages.take_first(2), "an exact search has case 2");
        assert_eq!(stages.open_after(0), 3);
        stages.exact_done(2);
        assert_eq!(stages.take_exact(), Some(3));
        stages.exact_done(3);
        // Only case 1 is left, still on its first answer: the next exact search waits for it.
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| stages.take_exact());
            stages.first_done(1, false);
            assert_eq!(waiting.join().unwrap(), Some(1));
        });
        stages.exact_done(1);
        assert_eq!(stages.take_exact(), None);
        assert_eq!(stages.open_after(0), 0);
    }

    /// Under a node budget too small to prove most of the medium file, every case still gets
    /// a legal answer, and the answers come in file order.
    #[test]
    fn a_small_budget_still_answers_every_case() {
        let puzzles =
            crate::parse_puzzles(include_str!("../../../data/sokoboru/medium.in")).unwrap();
        let options = FileOptions {
            threads: 2,
            limits: Limits::UNLIMITED.with_max_nodes(NODES_PER_CASE),
            deadline: None,
        };
        let progress = Progress::new(puzzles.len());
        let mut order = Vec::new();
        let mut given_up = 0;
        solve_file(
            &puzzles,
            &options,
            &progress,
            |at, answer| -> Result<(), ()> {
                assert_eq!(progress.best(at), answer, "case {}", at + 1);
                let moves = match answer {
                    Ok(solution) => solution.moves,
                    Err(SolveError::GaveUp {
                        best: Some(best), ..
                    }) => {
                        given_up += 1;
                        best.moves
                    }
                    Err(other) => panic!("case {}: no answer: {other}", at + 1),
                };
                let replayed = crate::replay(&puzzles[at], &moves).unwrap();
                assert_eq!(replayed.left, 0, "case {}", at + 1);
                order.push(at);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(order, (0..puzzles.len()).collect::<Vec<_>>());
        assert!(given_up > 0, "the budget proved every case");
    }

    /// Nodes per case in [`a_small_budget_still_answers_every_case`].
    const NODES_PER_CASE: u64 = 1_000_000;
}
