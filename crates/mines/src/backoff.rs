//! Waiting for another thread or process that answers through shared memory: spin while the
//! answer is likely to come at once, sleep when spinning would only keep the other side from a
//! core.
//!
//! Spinning pays when both sides run on cores of their own: an answer comes within a
//! microsecond. On a machine with fewer free cores than busy threads (other programs, or more
//! channels than cores), what a waiter should do depends on which side it is ([`Policy`]):
//!
//! - A thread that waits for work (a server's channel thread between clicks) holds a core
//!   that the thread it waits for may need, until the scheduler preempts it, which takes
//!   milliseconds; yielding is no cure, since it hands the core to any other program just as
//!   well. Sleeping frees the core, and an idle core takes over a thread that waits for one.
//!   So such a waiter spins as long as its caller allows only while its thread gets a core
//!   whenever it wants one. It looks every few milliseconds at how long its thread waited for
//!   a core (the kernel's run delay, `/proc/thread-self/schedstat`), and it notices when it
//!   loses its core in the middle of a spin (a long gap between two looks at the clock).
//!   While either says that the cores are contended, it spins only `MIN_SPIN` before it
//!   sleeps.
//! - A thread that waits for an answer (a player's click) holds its core for as long as its
//!   caller allows, contended or not. A player that naps while its server thread is
//!   preempted looks like a light thread to the scheduler, which then puts the two on one
//!   core, where every click costs two context switches instead of a round trip through a
//!   shared cache line. A player that holds its core is a heavy thread; the scheduler keeps
//!   it on a core of its own and lets the server thread share the other core with the other
//!   program, so the pair loses about the share of the machine that the other program takes.

use std::time::{Duration, Instant};

/// A gap this long between two looks at the clock while spinning means the spinning thread
/// was descheduled: some other thread wanted its core.
const LOST_CORE: Duration = Duration::from_micros(50);
/// How long a lost core keeps a waiter to the shortest spins.
const CONTENDED_FOR: Duration = Duration::from_millis(250);
/// How often a waiter looks at its thread's run delay.
const SAMPLE_EVERY: Duration = Duration::from_millis(10);
/// The share of the time its thread may wait for a core before a waiter counts the cores as
/// contended (a free machine's share is near 0).
const CONTENDED_SHARE: f64 = 0.1;
/// The shortest spin before a sleep (about what waking a sleeping thread takes).
const MIN_SPIN: Duration = Duration::from_micros(5);
/// Spins between two looks at the clock.
const SPINS_PER_LOOK: u32 = 64;

/// The calling thread's run delay: the time it has spent ready to run without a core.
/// `None` where the kernel does not keep it.
fn run_delay() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanos = stat.split_ascii_whitespace().nth(1)?.parse().ok()?;
    Some(Duration::from_nanos(nanos))
}

/// What a waiter does when the cores are contended (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum Policy {
    /// Spin only `MIN_SPIN` before sleeping: the thread waited for may need this core.
    #[default]
    Yield,
    /// Spin as long as the caller allows: keeping the core keeps the two sides apart.
    Hold,
}

/// One waiter's state, kept from one wait to the next (one per thread that waits).
#[derive(Debug, Default)]
pub(crate) struct Backoff {
    /// What this waiter does when the cores are contended.
    policy: Policy,
    /// When this waiter last lost its core while spinning.
    lost_core: Option<Instant>,
    /// The last look at the run delay: when, and what it was.
    sample: Option<(Instant, Duration)>,
    /// Whether the thread waited for a core more than `CONTENDED_SHARE` of the time between
    /// the last two looks.
    starved: bool,
}

impl Backoff {
    /// A waiter with `policy`.
    pub(crate) fn new(policy: Policy) -> Self {
        Backoff {
            policy,
            ..Backoff::default()
        }
    }

    /// Looks at the run delay if the last look is `SAMPLE_EVERY` old.
    fn observe(&mut self, now: Instant) {
        if self
            .sample
            .is_some_and(|(then, _)| now - then < SAMPLE_EVERY)
        {
            return;
        }
        let Some(delay) = run_delay() else {
            // No run delay to read: the lost-core sign alone, and no more looks.
            self.sample = Some((now + Duration::from_secs(1 << 20), Duration::ZERO));
            return;
        };
        if let Some((then, before)) = self.sample {
            let waited = delay.saturating_sub(before).as_secs_f64();
            self.starved = waited > CONTENDED_SHARE * (now - then).as_secs_f64();
        }
        self.sample = Some((now, delay));
    }

    /// Waits until `ready()`: spins for up to `spin` (with [`Policy::Yield`], `MIN_SPIN` while
    /// the cores are contended, as the module documentation says), then calls `sleep(nap)` with naps
    /// doubling from `first_nap` up to `max_nap`, looking again after each. `sleep` may return
    /// early (a futex wake, say). Returns whether the wait ended while spinning.
    pub(crate) fn wait(
        &mut self,
        mut ready: impl FnMut() -> bool,
        spin: Duration,
        mut sleep: impl FnMut(Duration),
        first_nap: Duration,
        max_nap: Duration,
    ) -> bool {
        if ready() {
            return true;
        }
        let start = Instant::now();
        let hold = self.policy == Policy::Hold;
        if !hold {
            self.observe(start);
        }
        let mut last = start;
        let mut spins = 0u32;
        loop {
            if ready() {
                return true;
            }
            spins = spins.wrapping_add(1);
            if !spins.is_multiple_of(SPINS_PER_LOOK) {
                std::hint::spin_loop();
                continue;
            }
            let now = Instant::now();
            if now - last > LOST_CORE {
                self.lost_core = Some(now);
            }
            last = now;
            let budget = if !hold && self.contended(now) {
                spin.min(MIN_SPIN)
            } else {
                spin
            };
            if now - start >= budget {
                break;
            }
        }
        let mut nap = first_nap;
        while !ready() {
            sleep(nap);
            nap = (nap * 2).min(max_nap);
        }
        false
    }

    /// Whether the cores are contended as this waiter saw them lately: its thread waited for a
    /// core, or lost its core while spinning.
    fn contended(&self, now: Instant) -> bool {
        self.starved
            || self
                .lost_core
                .is_some_and(|lost| now - lost < CONTENDED_FOR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::{Cell, RefCell};

    #[test]
    fn a_wait_past_its_spin_naps_with_doubling_naps() {
        let mut backoff = Backoff::default();
        let naps = RefCell::new(Vec::new());
        let spun = backoff.wait(
            || naps.borrow().len() == 6,
            Duration::ZERO,
            |nap| naps.borrow_mut().push(nap.as_micros()),
            Duration::from_micros(1),
            Duration::from_micros(8),
        );
        assert!(!spun);
        assert_eq!(*naps.borrow(), [1, 2, 4, 8, 8, 8]);
    }

    #[test]
    fn a_starved_waiter_spins_briefly_whatever_its_caller_allows() {
        let mut backoff = Backoff {
            starved: true,
            // No look at the run delay, which would decide from this machine's load.
            sample: Some((Instant::now() + Duration::from_secs(3600), Duration::ZERO)),
            ..Backoff::default()
        };
        let slept = Cell::new(false);
        let start = Instant::now();
        backoff.wait(
            || {
                assert!(start.elapsed() < Duration::from_secs(60), "spun on");
                slept.get()
            },
            Duration::from_secs(600),
            |_| slept.set(true),
            Duration::from_micros(1),
            Duration::from_micros(1),
        );
        assert!(slept.get());
    }

    #[test]
    fn a_holding_waiter_spins_its_whole_budget_even_when_starved() {
        let mut backoff = Backoff {
            starved: true,
            lost_core: Some(Instant::now()),
            ..Backoff::new(Policy::Hold)
        };
        let looks = Cell::new(0);
        let spun = backoff.wait(
            || {
                looks.set(looks.get() + 1);
                looks.get() > 100 * SPINS_PER_LOOK as usize
            },
            Duration::from_secs(600),
            |_| panic!("a holding waiter slept within its budget"),
            Duration::from_micros(1),
            Duration::from_micros(1),
        );
        assert!(spun);
    }

    #[test]
    fn losing_the_core_while_spinning_counts_as_contention() {
        let mut backoff = Backoff::default();
        // A spin stalled for 2 ms, as when its thread is descheduled, then a quick answer.
        let looks = Cell::new(0);
        backoff.wait(
            || {
                looks.set(looks.get() + 1);
                if looks.get() == 2 * SPINS_PER_LOOK as usize {
                    std::thread::sleep(Duration::from_millis(2));
                }
                looks.get() > 4 * SPINS_PER_LOOK as usize
            },
            Duration::from_secs(10),
            |_| {},
            Duration::from_micros(1),
            Duration::from_micros(1),
        );
        assert!(backoff.lost_core.is_some());
        assert!(backoff.contended(Instant::now()));
    }
}
