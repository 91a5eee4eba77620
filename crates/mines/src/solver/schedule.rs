//! How the workers share the board: each owns a stripe of rows, numbers found in another
//! stripe go to its owner's inbox in batches, and a guess waits until every worker is out of
//! deductions.

use std::collections::VecDeque;
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use super::knowledge::Knowledge;

/// Numbers queued for another stripe before they are handed over.
const OUTBOX_BATCH: usize = 256;

/// How long an idle worker sleeps between looks at the others.
const IDLE_NAP: Duration = Duration::from_micros(50);

/// What the workers share besides the knowledge: the numbers each must examine in its
/// stripe, who is idle, and the stop flag.
pub(crate) struct Schedule {
    threads: usize,
    /// Rows per stripe (the last stripe takes the rest).
    stripe_rows: u32,
    inboxes: Vec<Mutex<Vec<u32>>>,
    /// Cells sitting in inboxes, not yet taken.
    pending: AtomicUsize,
    idle: AtomicUsize,
    stop: AtomicBool,
}

/// What a worker out of deductions learns while it waits.
pub(super) enum Wait {
    /// Every worker is out of deductions: guess.
    Quiet,
    /// Numbers to examine arrived.
    Work,
    /// The game is over.
    Done,
}

impl Schedule {
    /// The schedule of `threads` workers on an N x N board.
    #[must_use]
    pub(crate) fn new(threads: usize, n: u32) -> Self {
        Schedule {
            threads,
            stripe_rows: (n / threads as u32).max(1),
            inboxes: (0..threads).map(|_| Mutex::new(Vec::new())).collect(),
            pending: AtomicUsize::new(0),
            idle: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        }
    }

    /// The rows of worker `id`'s stripe.
    #[must_use]
    pub(crate) fn stripe(&self, id: usize, n: u32) -> Range<u32> {
        let start = self.stripe_rows * id as u32;
        let end = if id + 1 == self.threads {
            n
        } else {
            start + self.stripe_rows
        };
        start..end
    }

    /// The worker whose stripe holds row `r`.
    pub(super) fn owner(&self, r: u32) -> usize {
        ((r / self.stripe_rows) as usize).min(self.threads - 1)
    }

    /// Tells every worker to stop.
    pub(crate) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Whether the workers were told to stop: the check before each cell, which reads one
    /// line no worker writes (the count of unknown cells lives on every worker's lines).
    #[inline]
    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Whether the game is over for the workers: every cell of `kn` known, or told to stop.
    #[inline]
    pub(super) fn over(&self, kn: &Knowledge) -> bool {
        kn.unknown() == 0 || self.stop.load(Ordering::Relaxed)
    }

    /// Moves the numbers sent to worker `id` into `work`; false if there were none.
    pub(super) fn take_inbox(&self, id: usize, work: &mut VecDeque<u32>) -> bool {
        if self.threads == 1 {
            return false;
        }
        let mut inbox = self.inboxes[id].lock().unwrap_or_else(|e| e.into_inner());
        if inbox.is_empty() {
            return false;
        }
        let taken = inbox.len();
        work.extend(inbox.drain(..));
        drop(inbox);
        self.pending.fetch_sub(taken, Ordering::SeqCst);
        true
    }

    /// Waits until every worker is out of deductions and no numbers are in flight between
    /// them, or until numbers arrive for worker `id` (moved into `work`), or until the game
    /// on `kn` is over.
    pub(super) fn wait_for_quiet(
        &self,
        id: usize,
        work: &mut VecDeque<u32>,
        kn: &Knowledge,
    ) -> Wait {
        self.idle.fetch_add(1, Ordering::SeqCst);
        let mut spins = 0u32;
        let wait = loop {
            if self.over(kn) {
                break Wait::Done;
            }
            if self.take_inbox(id, work) {
                break Wait::Work;
            }
            if self.idle.load(Ordering::SeqCst) >= self.threads
                && self.pending.load(Ordering::SeqCst) == 0
            {
                break Wait::Quiet;
            }
            spins += 1;
            if spins < 64 {
                std::hint::spin_loop();
            } else {
                // Sleep rather than spin: the busy workers and their server threads need the
                // cores.
                std::thread::sleep(IDLE_NAP);
            }
        };
        self.idle.fetch_sub(1, Ordering::SeqCst);
        wait
    }
}

/// A worker's numbers for other stripes, handed over in batches.
pub(super) struct Outboxes {
    boxes: Vec<Vec<u32>>,
}

impl Outboxes {
    /// Empty outboxes, one per worker of `schedule`.
    pub(super) fn new(schedule: &Schedule) -> Self {
        Outboxes {
            boxes: vec![Vec::new(); schedule.threads],
        }
    }

    /// Queues `cell` for worker `owner`, handing the batch over when it is full.
    pub(super) fn push(&mut self, schedule: &Schedule, owner: usize, cell: u32) {
        self.boxes[owner].push(cell);
        if self.boxes[owner].len() >= OUTBOX_BATCH {
            self.send(schedule, owner);
        }
    }

    /// Hands the numbers queued for `owner` to it.
    fn send(&mut self, schedule: &Schedule, owner: usize) {
        let batch = &mut self.boxes[owner];
        if batch.is_empty() {
            return;
        }
        schedule.pending.fetch_add(batch.len(), Ordering::SeqCst);
        let mut inbox = schedule.inboxes[owner]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        inbox.append(batch);
    }

    /// Hands every queued number to its worker.
    pub(super) fn flush(&mut self, schedule: &Schedule) {
        for owner in 0..self.boxes.len() {
            self.send(schedule, owner);
        }
    }
}
