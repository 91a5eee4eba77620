//! Search budgets.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::progress::SearchProgress;
use crate::seconds::{BadSeconds, SecondsRule};

/// The one budget of every ply-search search: at most this many nodes, until this much wall
/// time has passed or this instant, within this much memory.
///
/// What a node is depends on the search: a generated state for IDA* and A*, a visited
/// position for alpha-beta, an iteration for MCTS. The default is unlimited. A search that
/// exhausts a budget stops and reports a [`GiveUp`] rather than an answer it has not proven
/// (alpha-beta and MCTS, which always have a move, return the best one found so far).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum number of nodes, if any.
    pub max_nodes: Option<u64>,
    /// Maximum wall-clock time from the start of the search, if any.
    pub max_time: Option<Duration>,
    /// An instant the search must not run past, if any (for a budget that started before the
    /// search did, such as a move's time counted from the opponent's move).
    pub deadline: Option<Instant>,
    /// Maximum estimated memory of stored states in bytes, if any (best-first search only:
    /// IDA* and alpha-beta need memory linear in the depth, MCTS caps its tree in
    /// [`MctsConfig`](crate::MctsConfig)).
    pub max_memory: Option<usize>,
    /// Memory shared with searches running at the same time, if any: a best-first search
    /// takes what it stores from the pool (and gives it back when it returns), so one hard
    /// search may use what easy ones leave. Checked besides `max_memory`.
    pub memory_pool: Option<Arc<MemoryPool>>,
    /// A flag that stops the search from outside (another thread, a signal handler), if any:
    /// checked whenever the clock would be (see [`StopFlag`]).
    pub stop: Option<StopFlag>,
    /// A window that the search publishes its work in as it runs, if any (see
    /// [`SearchProgress`]): looked after whenever the clock is.
    pub progress: Option<SearchProgress>,
}

/// A flag raised from outside a search to stop it: the search gives up with
/// [`GiveUp::Stopped`] at its next look at the clock (every few thousand nodes), as if a time
/// budget had run out, so a caller can end a search the moment its user asks (a Python
/// binding on Ctrl-C) without a deadline fixed in advance. Clones share the flag.
///
/// A [`child`](StopFlag::child) is raised on its own or with its parent: a tournament stops
/// its games at a decided test without stopping the program, and at the program's interrupt
/// with no thread copying one flag into the other.
///
/// ```
/// use ply_search::StopFlag;
/// let interrupt = StopFlag::new();
/// let games = interrupt.child();
/// games.stop();
/// assert!(games.is_stopped() && !interrupt.is_stopped());
/// let other = interrupt.child();
/// interrupt.stop();
/// assert!(other.is_stopped());
/// ```
#[derive(Clone, Debug, Default)]
pub struct StopFlag {
    /// Raised by this flag's own [`StopFlag::stop`] (or a clone's).
    raised: Arc<AtomicBool>,
    /// The flag whose stop stops this one too, if any.
    parent: Option<Arc<StopFlag>>,
}

impl StopFlag {
    /// A flag not raised yet.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// A new flag that is raised by its own [`StopFlag::stop`] or by this one's: stopping it
    /// leaves this one as it is.
    #[must_use]
    pub fn child(&self) -> Self {
        StopFlag {
            raised: Arc::default(),
            parent: Some(Arc::new(self.clone())),
        }
    }

    /// Raises the flag: every search holding it (or a clone, or a child) stops at its next
    /// check. Only an atomic store, so a signal handler may call it.
    pub fn stop(&self) {
        self.raised.store(true, Ordering::Relaxed);
    }

    /// Whether the flag, or a flag it is a child of, is raised.
    #[must_use]
    pub fn is_stopped(&self) -> bool {
        self.raised.load(Ordering::Relaxed)
            || self
                .parent
                .as_ref()
                .is_some_and(|parent| parent.is_stopped())
    }
}

/// Flags are equal only to their clones.
impl PartialEq for StopFlag {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.raised, &other.raised)
    }
}
impl Eq for StopFlag {}

/// How long after its limits are made a search may start: a century.
const HEADROOM: Duration = Duration::from_secs(100 * 365 * 24 * 3600);

/// The instant `time` from now, or `None` when the clock cannot name it (a deadline that far
/// off is no deadline).
///
/// ```
/// use std::time::Duration;
/// assert!(ply_search::deadline_in(Duration::from_secs(1)).is_some());
/// assert!(ply_search::deadline_in(Duration::MAX).is_none());
/// ```
#[must_use]
pub fn deadline_in(time: Duration) -> Option<Instant> {
    Instant::now().checked_add(time)
}

/// The most threads any ply search takes, from the CLI or the Python binding: far more than
/// the cores of any machine it runs on, and a bound on what a mistaken argument can cost (each
/// thread is a stack and a share of the work, and an operating system refuses new threads
/// long before a count such as 10^6).
pub const MAX_THREADS: usize = 256;

/// A thread count outside its range, `1..=max`: one wording for every front end, which names
/// the count as its user gave it (`--threads`, `threads`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadThreads {
    /// The count as given (a front end may refuse one no `u128` holds, such as `-1`).
    pub given: String,
    /// The most threads allowed.
    pub max: usize,
}

impl BadThreads {
    /// The count `given` refused, `max` the most allowed.
    pub fn new(given: impl std::fmt::Display, max: usize) -> Self {
        BadThreads {
            given: given.to_string(),
            max,
        }
    }

    /// The message naming the argument or option `name`: `NAME N is not in 1..=MAX`.
    ///
    /// ```
    /// use ply_search::check_threads;
    /// let bad = check_threads(0).unwrap_err();
    /// assert_eq!(bad.named("--threads"), "--threads 0 is not in 1..=256");
    /// ```
    #[must_use]
    pub fn named(&self, name: &str) -> String {
        format!("{name} {} is not in 1..={}", self.given, self.max)
    }
}

impl std::fmt::Display for BadThreads {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.named("threads"))
    }
}

impl std::error::Error for BadThreads {}

/// `threads` if it lies in `1..=`[`MAX_THREADS`], the one range of every front end.
///
/// ```
/// use ply_search::{check_threads, MAX_THREADS};
/// assert_eq!(check_threads(2), Ok(2));
/// assert_eq!(check_threads(0).unwrap_err().to_string(), "threads 0 is not in 1..=256");
/// assert!(check_threads(MAX_THREADS as u128 + 1).is_err());
/// ```
pub fn check_threads(threads: u128) -> Result<usize, BadThreads> {
    check_threads_up_to(threads, MAX_THREADS)
}

/// `threads` if it lies in `1..=max`: for a component with a range of its own (a Minesweeper
/// player's workers), refused in the same words as [`check_threads`].
///
/// ```
/// use ply_search::check_threads_up_to;
/// assert_eq!(check_threads_up_to(1023, 1023), Ok(1023));
/// let bad = check_threads_up_to(1024, 1023).unwrap_err();
/// assert_eq!(bad.named("--threads"), "--threads 1024 is not in 1..=1023");
/// ```
pub fn check_threads_up_to(threads: u128, max: usize) -> Result<usize, BadThreads> {
    match usize::try_from(threads) {
        Ok(n) if (1..=max).contains(&n) => Ok(n),
        _ => Err(BadThreads::new(threads, max)),
    }
}

/// Bytes shared by concurrent best-first searches (see [`Limits::memory_pool`]).
#[derive(Debug)]
pub struct MemoryPool {
    free: AtomicUsize,
}

impl MemoryPool {
    /// A pool of `bytes`, to hand to the [`Limits`] of every search that shares it.
    #[must_use]
    pub fn shared(bytes: usize) -> Arc<MemoryPool> {
        Arc::new(MemoryPool {
            free: AtomicUsize::new(bytes),
        })
    }

    /// Bytes not taken.
    #[must_use]
    pub fn free(&self) -> usize {
        self.free.load(Ordering::Relaxed)
    }

    /// Takes `bytes` if that many are free.
    pub(crate) fn take(&self, bytes: usize) -> bool {
        self.free
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |free| {
                free.checked_sub(bytes)
            })
            .is_ok()
    }

    /// Gives back `bytes` taken before.
    pub(crate) fn give(&self, bytes: usize) {
        self.free.fetch_add(bytes, Ordering::AcqRel);
    }
}

/// Pools are equal only to themselves.
impl PartialEq for MemoryPool {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}
impl Eq for MemoryPool {}

impl Limits {
    /// No budget at all.
    pub const UNLIMITED: Limits = Limits {
        max_nodes: None,
        max_time: None,
        deadline: None,
        max_memory: None,
        memory_pool: None,
        stop: None,
        progress: None,
    };

    /// Limits with a node budget.
    #[must_use]
    pub fn with_max_nodes(mut self, nodes: u64) -> Self {
        self.max_nodes = Some(nodes);
        self
    }

    /// Limits with a time budget.
    #[must_use]
    pub fn with_max_time(mut self, time: Duration) -> Self {
        self.max_time = Some(time);
        self
    }

    /// Limits with a time budget of `secs` seconds from a user, checked by
    /// [`SecondsRule::Budget`] (the error names the argument `name`). A budget the clock
    /// cannot reach within a century of now is no limit at all: a search that starts later
    /// could not add it to its start.
    ///
    /// ```
    /// use ply_search::Limits;
    /// use std::time::Duration;
    /// let limits = Limits::UNLIMITED.with_time_limit_secs("--time-limit", 2.5)?;
    /// assert_eq!(limits.max_time, Some(Duration::from_millis(2500)));
    /// assert_eq!(Limits::UNLIMITED.with_time_limit_secs("t", 1e19)?.max_time, None);
    /// let bad = Limits::UNLIMITED.with_time_limit_secs("--time-limit", -1.0).unwrap_err();
    /// assert_eq!(bad.to_string(), "--time-limit -1 is negative");
    /// # Ok::<(), ply_search::BadSeconds>(())
    /// ```
    ///
    /// # Errors
    /// The seconds break [`SecondsRule::Budget`].
    pub fn with_time_limit_secs(self, name: &str, secs: f64) -> Result<Self, BadSeconds> {
        let time = SecondsRule::Budget.named(name, secs)?;
        Ok(
            if Instant::now()
                .checked_add(time.saturating_add(HEADROOM))
                .is_some()
            {
                self.with_max_time(time)
            } else {
                self
            },
        )
    }

    /// Limits that stop at `deadline`.
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Self {
        self.deadline = Some(deadline);
        self
    }

    /// Limits with a memory budget in bytes.
    #[must_use]
    pub fn with_max_memory(mut self, bytes: usize) -> Self {
        self.max_memory = Some(bytes);
        self
    }

    /// Limits drawing memory from `pool`, shared with other searches.
    #[must_use]
    pub fn with_memory_pool(mut self, pool: Arc<MemoryPool>) -> Self {
        self.memory_pool = Some(pool);
        self
    }

    /// Limits that stop when `flag` is raised.
    #[must_use]
    pub fn with_stop(mut self, flag: StopFlag) -> Self {
        self.stop = Some(flag);
        self
    }

    /// Limits that publish the search's work in `progress` as it runs.
    #[must_use]
    pub fn with_progress(mut self, progress: SearchProgress) -> Self {
        self.progress = Some(progress);
        self
    }

    /// What is left of these limits after a search that generated `generated` nodes in
    /// `elapsed` (for a second search that must share the first one's budget).
    #[must_use]
    pub fn remaining(&self, generated: u64, elapsed: Duration) -> Self {
        Limits {
            max_nodes: self.max_nodes.map(|n| n.saturating_sub(generated)),
            max_time: self.max_time.map(|t| t.saturating_sub(elapsed)),
            ..self.clone()
        }
    }

    /// The instant the search started at `start` must stop, if any: the earlier of the
    /// deadline and the end of the time budget (a budget that reaches past what [`Instant`]
    /// can represent does not limit the search).
    #[must_use]
    pub fn stop_at(&self, start: Instant) -> Option<Instant> {
        // A time budget too large for the clock to represent is no limit at all.
        let end = self.max_time.and_then(|t| start.checked_add(t));
        match (end, self.deadline) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// A poller for a search started at `start` that looks at the clock every `interval`
    /// nodes (searches whose nodes are expensive look more often).
    pub(crate) fn poller(&self, start: Instant, interval: u64) -> Poller<'static> {
        let max_nodes = self.max_nodes.unwrap_or(u64::MAX);
        let deadline = self.stop_at(start);
        let timed = deadline.is_some() || self.stop.is_some() || self.progress.is_some();
        Poller {
            max_nodes,
            deadline,
            stop: self.stop.clone(),
            progress: self.progress.clone(),
            interval,
            next_check: if timed { 0 } else { max_nodes },
            shared: None,
            reported: 0,
        }
    }

    /// A poller that never stops a search: for searches without limits, which then need
    /// no clock.
    pub(crate) fn unchecked() -> Poller<'static> {
        Poller {
            max_nodes: u64::MAX,
            deadline: None,
            stop: None,
            progress: None,
            interval: u64::MAX,
            next_check: u64::MAX,
            shared: None,
            reported: 0,
        }
    }

    /// A poller for one of several threads sharing `shared`: the node budget counts every
    /// thread's nodes, and a cancellation stops them all, each within `interval` nodes.
    pub(crate) fn shared_poller<'a>(
        &self,
        start: Instant,
        interval: u64,
        shared: &'a SharedBudget,
    ) -> Poller<'a> {
        Poller {
            next_check: 0,
            shared: Some(shared),
            ..self.poller(start, interval)
        }
    }
}

/// What threads searching together share: the nodes generated so far and a stop flag.
#[derive(Debug, Default)]
pub(crate) struct SharedBudget {
    generated: AtomicU64,
    cancelled: AtomicBool,
}

impl SharedBudget {
    /// Tells every thread to stop at its next check.
    pub(crate) fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }

    /// Adds nodes counted outside any thread's budget.
    pub(crate) fn add(&self, generated: u64) {
        self.generated.fetch_add(generated, Ordering::Relaxed);
    }
}

/// Why a search stopped without an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GiveUp {
    /// The node budget ran out.
    NodeLimit,
    /// The time budget ran out.
    TimeLimit,
    /// Another thread of the same search stopped it (it found the answer, or gave up).
    Cancelled,
    /// The caller raised the search's [`StopFlag`].
    Stopped,
    /// What the search would store passed its memory budget.
    MemoryLimit,
}

impl std::fmt::Display for GiveUp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GiveUp::NodeLimit => f.write_str("node limit reached"),
            GiveUp::TimeLimit => f.write_str("time limit reached"),
            GiveUp::Cancelled => f.write_str("cancelled"),
            GiveUp::Stopped => f.write_str("stopped"),
            GiveUp::MemoryLimit => f.write_str("memory limit reached"),
        }
    }
}

/// How many generated states of IDA* and A* pass between two looks at the clock.
pub(crate) const CLOCK_INTERVAL: u64 = 1 << 14;

/// A running budget, checked on every node with a single comparison: the clock is read only
/// when the count reaches the next checkpoint.
#[derive(Clone, Debug)]
pub(crate) struct Poller<'a> {
    max_nodes: u64,
    deadline: Option<Instant>,
    /// The caller's stop flag, looked at with the clock.
    stop: Option<StopFlag>,
    /// The window the nodes generated are published in, with each look at the clock.
    progress: Option<SearchProgress>,
    /// Nodes between two looks at the clock.
    interval: u64,
    next_check: u64,
    /// The budget shared with other threads, if any.
    shared: Option<&'a SharedBudget>,
    /// This thread's nodes already added to the shared count.
    reported: u64,
}

impl Poller<'_> {
    /// Checks the budget after `generated` nodes.
    #[inline(always)]
    pub(crate) fn check(&mut self, generated: u64) -> Result<(), GiveUp> {
        if generated < self.next_check {
            return Ok(());
        }
        self.checkpoint(generated)
    }

    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self, generated: u64) -> Result<(), GiveUp> {
        // Before the shared flag: threads stopped by their caller must not read as threads
        // stopped by a sibling that found the answer.
        if self.stop.as_ref().is_some_and(StopFlag::is_stopped) {
            return Err(GiveUp::Stopped);
        }
        let mut total = generated;
        if let Some(shared) = self.shared {
            if shared.cancelled.load(Ordering::Relaxed) {
                return Err(GiveUp::Cancelled);
            }
            let fresh = generated - self.reported;
            self.reported = generated;
            total = shared.generated.fetch_add(fresh, Ordering::Relaxed) + fresh;
        }
        if let Some(progress) = &self.progress {
            progress.generated(total);
        }
        if total >= self.max_nodes {
            return Err(GiveUp::NodeLimit);
        }
        if let Some(deadline) = self.deadline
            && Instant::now() >= deadline
        {
            return Err(GiveUp::TimeLimit);
        }
        let next = generated.saturating_add(self.interval);
        self.next_check = if self.shared.is_some() {
            next
        } else {
            self.max_nodes.min(next)
        };
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remaining_limits_subtract_what_was_spent() {
        let limits = Limits::default()
            .with_max_nodes(100)
            .with_max_time(Duration::from_secs(2));
        let left = limits.remaining(30, Duration::from_millis(500));
        assert_eq!(left.max_nodes, Some(70));
        assert_eq!(left.max_time, Some(Duration::from_millis(1500)));
        let spent = limits.remaining(300, Duration::from_secs(9));
        assert_eq!(spent.max_nodes, Some(0));
        assert_eq!(spent.max_time, Some(Duration::ZERO));
        assert_eq!(
            Limits::UNLIMITED.remaining(5, Duration::from_secs(1)),
            Limits::UNLIMITED
        );
    }

    #[test]
    fn time_limits_past_the_clocks_range_are_no_limit() {
        let limit = |secs| {
            Limits::UNLIMITED
                .with_time_limit_secs("t", secs)
                .expect("a valid limit")
                .max_time
        };
        assert_eq!(limit(2.5), Some(Duration::from_millis(2500)));
        for secs in [9.3e18, 1e19, 1.8e19] {
            assert_eq!(limit(secs), None, "{secs}");
        }
        assert!(limit(1e9).is_some());
    }

    #[test]
    fn a_deadline_and_a_time_budget_stop_at_the_earlier() {
        let start = Instant::now();
        let soon = start + Duration::from_secs(1);
        let later = start + Duration::from_secs(5);
        let both = Limits::default()
            .with_max_time(Duration::from_secs(3))
            .with_deadline(soon);
        assert_eq!(both.stop_at(start), Some(soon));
        let both = both.with_deadline(later);
        assert_eq!(both.stop_at(start), Some(start + Duration::from_secs(3)));
        assert_eq!(Limits::UNLIMITED.stop_at(start), None);
    }

    #[test]
    fn a_time_budget_past_the_clocks_end_is_no_limit() {
        // About 1.8e19 s: `start + time` would overflow (and panic).
        let start = Instant::now();
        let endless = Limits::default().with_max_time(Duration::from_secs(u64::MAX));
        assert_eq!(endless.stop_at(start), None);
        let soon = start + Duration::from_secs(1);
        assert_eq!(endless.with_deadline(soon).stop_at(start), Some(soon));
    }

    #[test]
    fn a_poller_stops_at_the_node_budget_and_at_a_passed_deadline() {
        let start = Instant::now();
        let mut nodes = Limits::default().with_max_nodes(100).poller(start, 10);
        assert_eq!(nodes.check(99), Ok(()));
        assert_eq!(nodes.check(100), Err(GiveUp::NodeLimit));
        let mut passed = Limits::default().with_deadline(start).poller(start, 1);
        assert_eq!(passed.check(1), Err(GiveUp::TimeLimit));
        let mut free = Limits::unchecked();
        assert_eq!(free.check(u64::MAX - 1), Ok(()));
    }

    #[test]
    fn a_poller_stops_once_its_flag_is_raised() {
        let start = Instant::now();
        let flag = StopFlag::new();
        let mut poller = Limits::default().with_stop(flag.clone()).poller(start, 10);
        assert_eq!(poller.check(0), Ok(()));
        assert_eq!(poller.check(5), Ok(()));
        flag.stop();
        assert_eq!(poller.check(9), Ok(()), "looked at only every 10 nodes");
        assert_eq!(poller.check(10), Err(GiveUp::Stopped));
        assert_eq!(flag, flag.clone());
        assert_ne!(flag, StopFlag::new());
    }
}
