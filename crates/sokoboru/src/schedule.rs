//! Solving a whole file under one deadline: an answer for every case first, then cheaper
//! answers, then proofs.
//!
//! The course scores a file only if every case has an answer, and a case's second half point
//! grows with how close its penalty is to the optimum. So the schedule runs the phases of
//! every case's pipeline ([`Case`]) in rounds. First every case's first answer (milliseconds
//! each) before anything else starts, so that a caller stopped at any moment (a signal, a
//! deadline) has an answer for every case that has one. Then every case's cheaper answer,
//! then the cases again in file order, each with its proof (the exact search below the
//! answer in hand) on an even share of the time left. The cases that run out of time get a
//! second try with the time the others left over, part of it spent looking for cheaper
//! solutions. When the time is ample (seconds a case), one thread looks for the cheaper
//! answers while the others start the proofs.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use ply_search::{Ending, GiveUp, Limits, Report};

use crate::puzzle::Puzzle;
use crate::solver::{
    AMPLE, Case, CaseExtra, CaseReport, MIN_EXACT, MIN_RETRY, STOPPING_SHARE, head_start,
    with_default_memory,
};

/// How to solve a file.
#[derive(Clone, Debug, Default)]
pub struct FileOptions {
    /// Threads: the cases run in parallel, and a thread whose cases are done helps the
    /// searches still running.
    pub threads: usize,
    /// Each case's own budget, its nodes and time shared by all of the case's searches; and
    /// their deadline, when the whole file must be done.
    pub limits: Limits,
}

/// The best answer of every case so far, for a caller that must print them before the
/// schedule ends (on a signal, say): [`Progress::best`] reads them while [`solve_file`] runs.
#[derive(Debug)]
pub struct Progress {
    cases: Mutex<Vec<CaseReport>>,
}

impl Progress {
    /// Room for the answers of `cases` cases, each "no solution yet" until one is found.
    #[must_use]
    pub fn new(cases: usize) -> Progress {
        let none_yet = || Report {
            ending: Ending::Stopped,
            stopped: Some(GiveUp::Cancelled),
            initial_bound: 0,
            lower_bound: 0,
            generated: 0,
            expanded: 0,
            elapsed: Duration::ZERO,
            extra: CaseExtra::default(),
        };
        Progress {
            cases: Mutex::new((0..cases).map(|_| none_yet()).collect()),
        }
    }

    /// Case `case`'s best answer so far ([`Ending::Stopped`] before a solution is found). An
    /// unproven answer's lower bound is the largest any search of the case proved (at least
    /// the bound at the start once the first search has run), and it counts the states of
    /// every search of the case.
    ///
    /// # Panics
    /// When `case` is not a case of the file.
    pub fn best(&self, case: usize) -> CaseReport {
        self.lock()[case].clone()
    }

    fn lock(&self) -> MutexGuard<'_, Vec<CaseReport>> {
        self.cases.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Records case `case`'s answer so far.
    fn set(&self, case: usize, report: CaseReport) {
        self.lock()[case] = report;
    }
}

/// Solves every case of a file on `options.threads` threads and hands each case's final answer
/// to `report` in file order, as soon as it and every case before it are final (so a caller
/// that prints them loses nothing already solved if it is stopped later). `progress` holds
/// every case's best answer so far.
///
/// The searches draw on one memory budget ([`DEFAULT_MEMORY`](crate::DEFAULT_MEMORY) unless `options.limits` sets
/// one), so a hard case may use what the easy ones leave. Every case first gets its first
/// answer ([`first_answer`](crate::first_answer)'s portfolio), each within an even share of
/// the time, and no other search starts before every first answer is done. Then every case
/// gets a cheaper answer (a weighted search below the first, which may prove it optimal), and
/// the cases run again in file order, each with its proof from the answer in hand on an even
/// share of what is left when it starts (among the rounds of cases still to run); those that
/// run out of time get a second try with the time the others left over, three quarters for
/// the proof and the rest for improving searches (unless `options.limits` caps each case's
/// time itself). The cases of the last round, which no time is left over for, get that
/// second try's split at once. When each case's share is ample (or there is no deadline),
/// one thread finds the cheaper answers while the others start the proofs, each after a
/// cheaper answer of its own for a case no thread has looked for one yet.
///
/// Once `report` fails, no search starts any more (those running finish within their
/// budgets). A panic in `report` or in a search stops the schedule the same way and is raised
/// again once the threads are done; no thread is left waiting for the case that panicked.
///
/// # Errors
/// The first error of `report`.
pub fn solve_file<E>(
    puzzles: &[Puzzle],
    options: &FileOptions,
    progress: &Progress,
    report: impl FnMut(usize, CaseReport) -> Result<(), E> + Send,
) -> Result<(), E>
where
    E: Send,
{
    let run = FileRun::new(puzzles, options, progress, report);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(run.threads)
        .build()
        .ok();
    on_threads(pool.as_ref(), run.threads, || run.work());
    run.into_result()
}

/// One run of [`solve_file`]: the file's cases, their shared budget and where each stands.
/// Its methods are a case's phases as the schedule runs them; any thread may run any of them,
/// one thread at a time on a case.
struct FileRun<'p, F, E> {
    puzzles: &'p [Puzzle],
    /// Each case's budget, on the file's memory pool.
    limits: Limits,
    threads: usize,
    /// When the searches aim to be done (a little before the file's deadline).
    deadline: Option<Instant>,
    stages: Stages,
    reporter: Mutex<InOrder<F, E>>,
    /// Each case's pipeline, built by its first task.
    cases: Vec<Mutex<Option<Case<'p>>>>,
    progress: &'p Progress,
    /// Whether a case whose proof ran out of time gets a second try.
    retry: bool,
    /// The cases waiting for their second try, in the order their first ended.
    retries: Mutex<VecDeque<usize>>,
    /// Whether each case's share of the time is ample (see [`AMPLE`]).
    ample: bool,
    /// Threads started so far (the first one finds the cheaper answers).
    started: AtomicUsize,
}

impl<'p, F, E> FileRun<'p, F, E>
where
    F: FnMut(usize, CaseReport) -> Result<(), E> + Send,
    E: Send,
{
    /// The run of `puzzles` under `options`, reporting to `report`.
    fn new(
        puzzles: &'p [Puzzle],
        options: &FileOptions,
        progress: &'p Progress,
        report: F,
    ) -> Self {
        let mut limits = with_default_memory(options.limits.clone());
        // The file's deadline is met through each case's share of the time (`until`).
        let file_deadline = limits.deadline.take();
        let threads = options.threads.max(1);
        // The searches stop a little after their time is up (between two looks at the clock,
        // and while freeing their tables), so they aim at a twentieth of the time before it.
        let deadline = file_deadline.map(|deadline| {
            let now = Instant::now();
            deadline - deadline.saturating_duration_since(now) / STOPPING_SHARE
        });
        // When time is short, every cheaper answer is started before any proof. When it is
        // ample, one thread finds the cheaper answers while the others run the proofs in file
        // order, looking for the cheaper answer themselves where no thread has, so that a hard
        // case starts as early as it can.
        let ample = deadline.is_none_or(|deadline| {
            let left = deadline.saturating_duration_since(Instant::now());
            case_time(left, puzzles.len().saturating_sub(1), threads) >= AMPLE
        });
        FileRun {
            puzzles,
            // Second tries share what a deadline leaves; a time limit per case is the user's
            // own cap, and a second try would only run it again.
            retry: deadline.is_some() && limits.max_time.is_none(),
            limits,
            threads,
            deadline,
            stages: Stages::new(puzzles.len()),
            reporter: Mutex::new(InOrder {
                done: puzzles.iter().map(|_| None).collect(),
                reported: 0,
                report,
                failed: None,
            }),
            cases: puzzles.iter().map(|_| Mutex::new(None)).collect(),
            progress,
            retries: Mutex::new(VecDeque::new()),
            ample,
            started: AtomicUsize::new(0),
        }
    }

    /// Case `at`'s pipeline, built when first asked for, held by this thread.
    fn case(&self, at: usize) -> MutexGuard<'_, Option<Case<'p>>> {
        let mut case = self.cases[at]
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        case.get_or_insert_with(|| Case::new(&self.puzzles[at]));
        case
    }

    /// Records case `at`'s final answer and reports what is next in line.
    fn finished(&self, at: usize, report: CaseReport) {
        self.progress.set(at, report.clone());
        let mut reporter = self.reporter.lock().unwrap_or_else(PoisonError::into_inner);
        reporter.finished(at, report);
        if reporter.failed.is_some() {
            // Nobody takes the answers any more.
            self.stages.stop();
        }
    }

    /// A case's budget with `after` cases behind it: its share of the time, and of its own
    /// nodes and time what its searches before left.
    fn budget(&self, case: &Case<'_>, after: usize) -> Limits {
        let own = self.limits.remaining(case.generated(), case.elapsed());
        until(&own, self.deadline, after, self.threads)
    }

    /// A case's budget for its first and cheaper answers: without a deadline the proof
    /// follows anyway, so they are only a head start. `after` is the number of cases still to
    /// share the time.
    fn head_start(&self, case: &Case<'_>, after: usize) -> Limits {
        head_start(self.budget(case, after))
    }

    /// Where a case stands after a phase: final (and reported), answered, or neither.
    fn after_phase(&self, at: usize, case: &Case<'_>) -> Stage {
        if case.is_final() {
            self.finished(at, case.report());
            Stage::Final
        } else {
            self.progress.set(at, case.report());
            if case.is_answered() {
                Stage::Answered
            } else {
                Stage::Open
            }
        }
    }

    /// The first answer, within the case's share of the time (most take milliseconds): the
    /// course scores a file only if every case has one. A case whose share ran out gets a
    /// second try (`again`), once every case has had its first, with an even share of what
    /// is left among the cases still without one.
    fn first(&self, at: usize, again: bool) -> Stage {
        let mut case = self.case(at);
        let case = case.as_mut().expect("built");
        let after = if again {
            self.stages.unanswered_after(at)
        } else {
            self.puzzles.len() - at - 1
        };
        let budget = self.head_start(case, after);
        case.first_answer(&budget);
        match self.after_phase(at, case) {
            Stage::Open if !again && case.stopped_by_time() => Stage::Unanswered,
            stage => stage,
        }
    }

    /// A cheaper answer: the second half point of a case grows as its penalty nears the
    /// optimum.
    fn cheaper(&self, at: usize) -> Stage {
        let mut case = self.case(at);
        let case = case.as_mut().expect("built");
        if !case.is_answered() {
            return Stage::Open;
        }
        let budget = self.head_start(case, self.puzzles.len() - at - 1);
        case.cheapen(&budget);
        match self.after_phase(at, case) {
            Stage::Final => Stage::Final,
            _ => Stage::Open,
        }
    }

    /// The proof below the answer in hand, on the case's share of the time; a case that runs
    /// out of it waits for a second try when there is one.
    fn exact(&self, at: usize) {
        let mut case = self.case(at);
        let case = case.as_mut().expect("built");
        let waiting = self.stages.open_after(at);
        let budget = self.budget(case, waiting);
        // A case of the last round gets no time others leave over, so its first try is its
        // only one.
        let last = self.deadline.is_some() && waiting < self.threads;
        if budget.max_time.is_some_and(|time| time < MIN_EXACT) {
            // Without time enough to build its tables, the answer in hand stands.
            case.out_of_time();
        } else if last {
            case.prove_then_improve(&budget);
        } else {
            case.prove(&budget);
        }
        if self.retry && case.stopped_by_time() {
            self.progress.set(at, case.report());
            self.retries
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push_back(at);
        } else {
            self.finished(at, case.report());
        }
    }

    /// One thread's work: the phases' tasks as the stages hand them out, then second tries.
    fn work(&self) {
        let finder = self.started.fetch_add(1, Ordering::Relaxed) == 0;
        while let Some((task, at)) = self.stages.next(finder || !self.ample) {
            let claim = Claim {
                stages: &self.stages,
                at: Some(at),
            };
            let stage = match task {
                Task::First => self.first(at, false),
                Task::FirstAgain => self.first(at, true),
                Task::Cheaper => self.cheaper(at),
                Task::Exact => {
                    self.exact(at);
                    Stage::Final
                }
                // A first answer is often far dearer than the optimum, and a bound that loose
                // prunes little of the proof: a cheaper answer first.
                Task::CheaperThenExact => {
                    if self.cheaper(at) != Stage::Final {
                        self.exact(at);
                    }
                    Stage::Final
                }
            };
            self.stages.set(at, stage);
            drop(claim);
        }
        self.second_tries();
    }

    /// The second tries of the cases whose proofs ran out of time, each on an even share of
    /// what the others left over, proof first, then cheaper solutions.
    fn second_tries(&self) {
        while !self.stages.stopped() {
            let (taken, waiting) = {
                let mut retries = self.retries.lock().unwrap_or_else(PoisonError::into_inner);
                (retries.pop_front(), retries.len())
            };
            let Some(at) = taken else {
                break;
            };
            let claim = Claim {
                stages: &self.stages,
                at: None,
            };
            let mut case = self.case(at);
            let case = case.as_mut().expect("built");
            let budget = self.budget(case, waiting);
            if budget.max_time.is_some_and(|time| time < MIN_RETRY) {
                case.out_of_time();
            } else {
                case.prove_then_improve(&budget);
            }
            self.finished(at, case.report());
            drop(claim);
        }
    }

    /// The first error the report returned, if any.
    fn into_result(self) -> Result<(), E> {
        let reporter = self
            .reporter
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner);
        reporter.failed.map_or(Ok(()), Err)
    }
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

/// A case's time when `left` remains before the deadline and `after` cases wait behind it on
/// `threads` threads: an even share of what is left among the rounds of cases still to run,
/// this case's round included. What a case leaves unused goes to the cases after it.
pub(crate) fn case_time(left: Duration, after: usize, threads: usize) -> Duration {
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
    /// Its first answer is being searched for a second time.
    Again,
    /// Its first answer ran out of time: a second try comes once every case has had its
    /// first.
    Unanswered,
    /// It has a first answer: a cheaper one is next.
    Answered,
    /// A cheaper answer is being searched for.
    Cheaper,
    /// It has no final answer: the exact search is next.
    Open,
    /// Its exact search is running.
    Taken,
    /// It needs no more searching in this phase: its answer is final (proven optimal or
    /// unsolvable), or its exact search is done.
    Final,
}

/// What a thread does next with a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Task {
    /// Look for its first answer.
    First,
    /// Look for its first answer again, after every case has had its first try.
    FirstAgain,
    /// Look for an answer cheaper than the one in hand.
    Cheaper,
    /// Search it exactly.
    Exact,
    /// Look for a cheaper answer, then search it exactly unless that proved the answer.
    CheaperThenExact,
}

/// Every case's [`Stage`], the order in which the threads take them, and a flag that stops
/// them all.
struct Stages {
    stages: Mutex<Vec<Stage>>,
    changed: Condvar,
    stopped: AtomicBool,
}

impl Stages {
    /// `cases` cases, none taken yet.
    fn new(cases: usize) -> Stages {
        Stages {
            stages: Mutex::new(vec![Stage::Waiting; cases]),
            changed: Condvar::new(),
            stopped: AtomicBool::new(false),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Vec<Stage>> {
        self.stages.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The next task and its case, in file order within each phase: a first answer while
    /// any case waits for one; once every first try is done, a second try for each case
    /// whose first ran out of time; then a cheaper answer with `cheaper_first`, else the
    /// proof of the first case with an answer in hand (or none to be found), after a cheaper
    /// answer if no thread has looked for one. Waits while first answers still run, or while
    /// the only cases left are being searched by other threads; `None` when no case is left,
    /// or once the schedule is stopped.
    fn next(&self, cheaper_first: bool) -> Option<(Task, usize)> {
        let mut stages = self.lock();
        loop {
            if self.stopped() {
                return None;
            }
            let find = |wanted: &[Stage]| stages.iter().position(|stage| wanted.contains(stage));
            let task = if let Some(at) = find(&[Stage::Waiting]) {
                Some((Task::First, at))
            } else if stages.contains(&Stage::First) {
                // Nothing else starts before every first answer is in.
                None
            } else if let Some(at) = find(&[Stage::Unanswered]) {
                Some((Task::FirstAgain, at))
            } else if stages.contains(&Stage::Again) {
                // Nor before every second try.
                None
            } else if let Some(at) = find(&[Stage::Answered]).filter(|_| cheaper_first) {
                Some((Task::Cheaper, at))
            } else {
                find(&[Stage::Open, Stage::Answered]).map(|at| match stages[at] {
                    Stage::Answered => (Task::CheaperThenExact, at),
                    _ => (Task::Exact, at),
                })
            };
            if let Some((task, at)) = task {
                stages[at] = match task {
                    Task::First => Stage::First,
                    Task::FirstAgain => Stage::Again,
                    Task::Cheaper => Stage::Cheaper,
                    Task::Exact | Task::CheaperThenExact => Stage::Taken,
                };
                return Some((task, at));
            }
            let pending = stages.iter().any(|stage| {
                matches!(
                    stage,
                    Stage::First
                        | Stage::Again
                        | Stage::Unanswered
                        | Stage::Answered
                        | Stage::Cheaper
                        | Stage::Open
                )
            });
            if !pending {
                return None;
            }
            stages = self
                .changed
                .wait(stages)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Records that case `at` is done with its task and now stands at `stage`.
    fn set(&self, at: usize, stage: Stage) {
        self.lock()[at] = stage;
        self.changed.notify_all();
    }

    /// Stops the schedule: no thread takes a task any more, and none waits for one.
    fn stop(&self) {
        // Raised under the lock, so that a thread about to wait sees it first.
        let _stages = self.lock();
        self.stopped.store(true, Ordering::SeqCst);
        self.changed.notify_all();
    }

    /// Whether the schedule is stopped.
    fn stopped(&self) -> bool {
        self.stopped.load(Ordering::SeqCst)
    }

    /// How many cases after `at` wait for a second try at their first answer.
    fn unanswered_after(&self, at: usize) -> usize {
        self.lock()[at + 1..]
            .iter()
            .filter(|&&stage| stage == Stage::Unanswered)
            .count()
    }

    /// How many cases after `at` have no final answer yet.
    fn open_after(&self, at: usize) -> usize {
        self.lock()[at + 1..]
            .iter()
            .filter(|&&stage| stage != Stage::Final)
            .count()
    }
}

/// A thread's hold on a task (of case `at`, or a second try): if the task panics, the
/// schedule stops and the case counts as final, so that no thread waits for it and the
/// threads' scope ends (which raises the panic again).
struct Claim<'a> {
    stages: &'a Stages,
    at: Option<usize>,
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            if let Some(at) = self.at {
                self.stages.lock()[at] = Stage::Final;
            }
            self.stages.stop();
        }
    }
}

/// The answers finished so far, handed on in file order.
struct InOrder<F, E> {
    /// Finished answers not yet reported, by case.
    done: Vec<Option<CaseReport>>,
    /// Cases reported so far (all those before this index).
    reported: usize,
    /// Where the answers go.
    report: F,
    /// The first error `report` returned.
    failed: Option<E>,
}

impl<F: FnMut(usize, CaseReport) -> Result<(), E>, E> InOrder<F, E> {
    /// Records case `at`'s answer and reports every answer now next in line.
    fn finished(&mut self, at: usize, answer: CaseReport) {
        self.done[at] = Some(answer);
        while let Some(answer) = self.done.get_mut(self.reported).and_then(Option::take) {
            if self.failed.is_none()
                && let Err(why) = (self.report)(self.reported, answer)
            {
                self.failed = Some(why);
            }
            self.reported += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A stand-in answer for case `i`: a distinct proof.
    fn answer(i: usize) -> CaseReport {
        let mut report = Progress::new(1).best(0);
        report.ending = Ending::Unsolvable;
        report.generated = i as u64;
        report
    }

    #[test]
    fn answers_are_reported_in_file_order_as_soon_as_they_can_be() {
        let mut seen = Vec::new();
        let mut order = InOrder {
            done: (0..4).map(|_| None).collect(),
            reported: 0,
            report: |i: usize, answer: CaseReport| -> Result<(), ()> {
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
            report: |_: usize, _: CaseReport| {
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
    fn every_first_answer_comes_before_any_exact_search() {
        let stages = Stages::new(3);
        // A thread that leaves the cheaper answers to another (as when time is ample) still
        // takes every first answer before anything else.
        assert_eq!(stages.next(false), Some((Task::First, 0)));
        assert_eq!(stages.next(false), Some((Task::First, 1)));
        stages.set(0, Stage::Answered);
        assert_eq!(stages.next(false), Some((Task::First, 2)));
        stages.set(2, Stage::Open);
        // While case 1's first answer runs, nothing else starts: the next thread waits for
        // it, then takes the first case in file order for its exact search, which looks for a
        // cheaper answer first since no thread has.
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| stages.next(false));
            stages.set(1, Stage::Answered);
            assert_eq!(waiting.join().unwrap(), Some((Task::CheaperThenExact, 0)));
        });
        // The thread that finds the cheaper answers takes case 1's.
        assert_eq!(stages.next(true), Some((Task::Cheaper, 1)));
        assert_eq!(stages.open_after(0), 2);
        assert_eq!(stages.next(false), Some((Task::Exact, 2)));
        stages.set(2, Stage::Final);
        stages.set(0, Stage::Final);
        // Case 1 is left, on its cheaper answer: the next exact search waits for it.
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| stages.next(false));
            stages.set(1, Stage::Open);
            assert_eq!(waiting.join().unwrap(), Some((Task::Exact, 1)));
        });
        stages.set(1, Stage::Final);
        assert_eq!(stages.next(true), None);
        assert_eq!(stages.open_after(0), 0);
    }

    /// A case whose first answer ran out of time gets a second try before any cheaper answer
    /// or proof, once every other first try is done.
    #[test]
    fn a_first_answer_cut_short_is_tried_again_before_anything_else() {
        let stages = Stages::new(3);
        assert_eq!(stages.next(true), Some((Task::First, 0)));
        assert_eq!(stages.next(true), Some((Task::First, 1)));
        stages.set(0, Stage::Unanswered);
        assert_eq!(stages.unanswered_after(0), 0);
        assert_eq!(stages.next(true), Some((Task::First, 2)));
        stages.set(2, Stage::Answered);
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| stages.next(true));
            stages.set(1, Stage::Unanswered);
            assert_eq!(waiting.join().unwrap(), Some((Task::FirstAgain, 0)));
        });
        assert_eq!(stages.unanswered_after(0), 1);
        // Second tries run side by side; the cheaper answers wait for them all.
        assert_eq!(stages.next(true), Some((Task::FirstAgain, 1)));
        stages.set(0, Stage::Open);
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| stages.next(true));
            stages.set(1, Stage::Answered);
            assert_eq!(waiting.join().unwrap(), Some((Task::Cheaper, 1)));
        });
    }

    #[test]
    fn with_cheaper_answers_first_every_cheaper_answer_comes_before_any_exact_search() {
        let stages = Stages::new(2);
        assert_eq!(stages.next(true), Some((Task::First, 0)));
        assert_eq!(stages.next(true), Some((Task::First, 1)));
        stages.set(1, Stage::Answered);
        stages.set(0, Stage::Open);
        assert_eq!(stages.next(true), Some((Task::Cheaper, 1)));
        assert_eq!(stages.next(true), Some((Task::Exact, 0)));
    }

    #[test]
    fn a_stopped_schedule_hands_out_nothing_and_releases_its_waiters() {
        let stages = Stages::new(2);
        assert_eq!(stages.next(true), Some((Task::First, 0)));
        assert_eq!(stages.next(true), Some((Task::First, 1)));
        std::thread::scope(|scope| {
            let waiting = scope.spawn(|| stages.next(true));
            stages.stop();
            assert_eq!(waiting.join().unwrap(), None);
        });
        stages.set(0, Stage::Open);
        assert_eq!(stages.next(true), None);
    }

    /// A report that panics (as a print to a broken stderr once did) ends the schedule with
    /// that panic instead of leaving the other threads waiting for its case.
    #[test]
    fn a_panicking_report_ends_the_schedule() {
        let puzzles = crate::parse_puzzles(include_str!("../../../data/sokoboru/tiny.in")).unwrap();
        let (ended, end) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let options = FileOptions {
                threads: 2,
                ..FileOptions::default()
            };
            let progress = Progress::new(puzzles.len());
            let solved = std::panic::catch_unwind(|| {
                solve_file(&puzzles, &options, &progress, |_, _| -> Result<(), ()> {
                    panic!("the report failed")
                })
            });
            ended.send(solved.is_err()).unwrap();
        });
        // Seconds at most; a deadlock never ends.
        let panicked = end.recv_timeout(Duration::from_secs(300));
        assert_eq!(
            panicked,
            Ok(true),
            "the schedule did not end with the panic"
        );
    }

    /// Once the report fails, no search starts any more: the cases after it are never
    /// searched, so their progress stays at "no solution yet" beyond their first answers.
    #[test]
    fn a_failed_report_stops_the_schedule() {
        let puzzles = crate::parse_puzzles(include_str!("../../../data/sokoboru/tiny.in")).unwrap();
        let options = FileOptions {
            threads: 1,
            ..FileOptions::default()
        };
        let progress = Progress::new(puzzles.len());
        let mut calls = 0;
        let solved = solve_file(&puzzles, &options, &progress, |_, _| {
            calls += 1;
            Err("closed")
        });
        assert_eq!(solved, Err("closed"));
        assert_eq!(calls, 1);
        let unproven = (0..puzzles.len())
            .filter(|&at| !progress.best(at).proven())
            .count();
        assert!(unproven > 0, "every case was searched to the end");
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
                let Some(moves) = answer.moves() else {
                    panic!("case {}: no answer: {answer:?}", at + 1);
                };
                given_up += usize::from(!answer.proven());
                let replayed = crate::replay(&puzzles[at], moves).unwrap();
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
