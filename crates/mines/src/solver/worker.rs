//! One worker thread of the solver: its work lists, its stripe and its guesses.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, VecDeque};
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rustc_hash::{FxHashMap, FxHashSet};

use super::deduce::{constraint, enumerate, pair};
use super::knowledge::{CLAIMED, FRESH, GUESSING, Knowledge, MINE, OPEN, SEEDED, UNKNOWN, is_open};
use super::{Clicker, Reply, SolveStats, SolverConfig, Strategy};
use crate::error::MinesError;
use crate::protocol::Entry;

/// What the workers share besides the knowledge: the numbers each must examine in its
/// stripe, who is idle, and the stop flag.
pub struct Shared {
    threads: usize,
    /// Rows per stripe (the last stripe takes the rest).
    stripe_rows: u32,
    inboxes: Vec<Mutex<Vec<u32>>>,
    /// Cells sitting in inboxes, not yet taken.
    pending: AtomicUsize,
    idle: AtomicUsize,
    stop: AtomicBool,
}

impl Shared {
    /// State for `threads` workers on an N x N board.
    #[must_use]
    pub fn new(threads: usize, n: u32) -> Self {
        Shared {
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
    pub fn stripe(&self, id: usize, n: u32) -> Range<u32> {
        let start = self.stripe_rows * id as u32;
        let end = if id + 1 == self.threads {
            n
        } else {
            start + self.stripe_rows
        };
        start..end
    }

    /// The worker whose stripe holds row `r`.
    fn owner(&self, r: u32) -> usize {
        ((r / self.stripe_rows) as usize).min(self.threads - 1)
    }

    /// Tells every worker to stop.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }
}

/// What a worker out of deductions learns while it waits.
enum Wait {
    /// Every worker is out of deductions: guess.
    Quiet,
    /// Numbers to examine arrived.
    Work,
    /// The game is over.
    Done,
}

/// How long an idle worker sleeps between looks at the others.
const IDLE_NAP: std::time::Duration = std::time::Duration::from_micros(50);

/// How often the reference re-examines an unresolved number before giving up on it.
const RETRIES: u8 = 16;

/// Numbers queued for another stripe before they are handed over.
const OUTBOX_BATCH: usize = 256;

/// A worker.
pub(super) struct Worker<'a, C> {
    kn: &'a Knowledge,
    shared: &'a Shared,
    clicker: C,
    config: &'a SolverConfig,
    id: usize,
    /// The cells of this worker's stripe.
    stripe: Range<u64>,
    /// Next stripe cell to consider for an interior guess; then the whole board.
    cursor: u64,
    board_cursor: u64,
    /// Open numbers of this stripe to examine with the single-cell rules, first in first out
    /// (a breadth-first wave keeps the list to the wave's length, where a stack would grow
    /// with the area behind it).
    work: VecDeque<u32>,
    /// Numbers of other stripes to hand to their workers.
    outboxes: Vec<Vec<u32>>,
    /// The reference's unresolved numbers, retried in turn, and their retry counts.
    retry: VecDeque<u32>,
    retries: FxHashMap<u32, u8>,
    /// Numbers the single-cell rules left unresolved since the last pair pass.
    fresh: Vec<u32>,
    /// Unresolved numbers since the last enumeration.
    seeds: Vec<u32>,
    /// Frontier cells by mine probability (bits of an `f32`), with the latest value per cell.
    candidates: BinaryHeap<Reverse<(u32, u32)>>,
    latest: FxHashMap<u32, u32>,
    /// The cell of the click in flight (always a claimed safe cell: guesses wait for their
    /// answer); its answer is collected while the worker goes on examining.
    in_flight: Option<u32>,
    /// Cells claimed as safe, waiting for the click in flight to finish.
    to_click: VecDeque<u32>,
    out: Vec<Entry>,
    /// The state each cell of `out` had before (scratch for [`Worker::click`]).
    before: Vec<u8>,
    found_safe: Vec<u32>,
    found_mines: Vec<u32>,
    rng: ChaCha8Rng,
    stats: SolveStats,
}

impl<'a, C: Clicker> Worker<'a, C> {
    pub(super) fn new(
        kn: &'a Knowledge,
        shared: &'a Shared,
        clicker: C,
        config: &'a SolverConfig,
        id: usize,
        rows: Range<u32>,
    ) -> Self {
        let n = u64::from(kn.n());
        let stripe = u64::from(rows.start) * n..u64::from(rows.end) * n;
        Worker {
            kn,
            shared,
            clicker,
            config,
            id,
            cursor: stripe.start,
            board_cursor: 0,
            stripe,
            work: VecDeque::new(),
            outboxes: vec![Vec::new(); shared.threads],
            retry: VecDeque::new(),
            retries: FxHashMap::default(),
            fresh: Vec::new(),
            seeds: Vec::new(),
            candidates: BinaryHeap::new(),
            latest: FxHashMap::default(),
            in_flight: None,
            to_click: VecDeque::new(),
            out: Vec::new(),
            before: Vec::new(),
            found_safe: Vec::new(),
            found_mines: Vec::new(),
            rng: ChaCha8Rng::seed_from_u64(config.seed ^ (id as u64).wrapping_mul(0x9e37_79b9)),
            stats: SolveStats::default(),
        }
    }

    pub(super) fn stats(&self) -> SolveStats {
        self.stats
    }

    fn finished(&self) -> bool {
        self.kn.unknown() == 0 || self.shared.stopped()
    }

    /// Plays until every cell is known and every click is answered.
    pub(super) fn run(&mut self) -> Result<(), MinesError> {
        self.play()?;
        self.settle_clicks()
    }

    /// Plays until every cell is known (clicks may still be in flight).
    fn play(&mut self) -> Result<(), MinesError> {
        let reference = self.config.strategy == Strategy::Reference;
        loop {
            self.drain()?;
            if self.finished() {
                return Ok(());
            }
            if !reference && self.advanced()? {
                continue;
            }
            if reference {
                if !self.reference_guess()? {
                    return Ok(());
                }
                continue;
            }
            match self.wait_for_quiet() {
                Wait::Quiet => self.guess()?,
                Wait::Work => {}
                Wait::Done => return Ok(()),
            }
        }
    }

    /// Applies the single-cell rules until no number changes.
    fn drain(&mut self) -> Result<(), MinesError> {
        loop {
            while let Some(cell) = self.work.pop_front() {
                if self.finished() {
                    return Ok(());
                }
                self.examine(cell)?;
                self.poll()?;
            }
            if self.in_flight.is_some() {
                self.complete()?;
                continue;
            }
            self.flush();
            if self.take_inbox() {
                continue;
            }
            match self.retry.pop_front() {
                Some(cell) => self.examine(cell)?,
                None => return Ok(()),
            }
        }
    }

    /// The reference's patience: an unresolved number goes to the back of a queue, to be
    /// examined again up to `RETRIES` times before its worker gives up on it.
    fn retry_later(&mut self, cell: u32) {
        let tries = self.retries.get(&cell).copied().unwrap_or(0);
        if tries < RETRIES {
            self.retries.insert(cell, tries + 1);
            self.retry.push_back(cell);
        }
    }

    /// Queues the number at `cell` for the worker of its stripe, unless it is not an open
    /// number, is resolved, or is queued already.
    fn push_work(&mut self, cell: u32) {
        // Without server-side expansion a zero's neighbours are opened by examining it.
        let zeros = self.config.strategy == Strategy::Reference;
        if !self.kn.enqueue(cell, zeros) {
            return;
        }
        // The reference's workers follow their own region wherever it goes.
        let local = self.config.strategy == Strategy::Reference
            || (u64::from(cell) >= self.stripe.start && u64::from(cell) < self.stripe.end);
        if local {
            self.work.push_back(cell);
            return;
        }
        let owner = self.shared.owner(self.kn.coords(cell).0);
        if owner == self.id {
            self.work.push_back(cell);
        } else {
            self.outboxes[owner].push(cell);
            if self.outboxes[owner].len() >= OUTBOX_BATCH {
                self.send(owner);
            }
        }
    }

    /// Hands the numbers queued for `owner` to it.
    fn send(&mut self, owner: usize) {
        let batch = &mut self.outboxes[owner];
        if batch.is_empty() {
            return;
        }
        self.shared.pending.fetch_add(batch.len(), Ordering::SeqCst);
        let mut inbox = self.shared.inboxes[owner]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        inbox.append(batch);
    }

    /// Hands every queued number to its worker.
    fn flush(&mut self) {
        for owner in 0..self.outboxes.len() {
            self.send(owner);
        }
    }

    /// Moves the numbers other workers sent into the work list; false if there were none.
    fn take_inbox(&mut self) -> bool {
        if self.shared.threads == 1 {
            return false;
        }
        let mut inbox = self.shared.inboxes[self.id]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if inbox.is_empty() {
            return false;
        }
        let taken = inbox.len();
        self.work.extend(inbox.drain(..));
        drop(inbox);
        self.shared.pending.fetch_sub(taken, Ordering::SeqCst);
        true
    }

    /// The single-cell rules on the open number at `cell`.
    fn examine(&mut self, cell: u32) -> Result<(), MinesError> {
        self.stats.examined += 1;
        let state = self.kn.dequeue(cell);
        if !is_open(state) {
            return Ok(());
        }
        let number = state - OPEN;
        let (nbrs, len) = self.kn.neighbours(cell);
        // Counted without branches: the states around a number are close to random.
        let (mut mines, mut count, mut guessing) = (0u8, 0usize, false);
        for &nb in &nbrs[..len] {
            let s = self.kn.state(nb);
            count += usize::from(s == UNKNOWN);
            mines += u8::from(s == MINE);
            guessing |= s == GUESSING;
        }
        // A guess in flight: its answer queues this number again.
        if guessing {
            return Ok(());
        }
        if count == 0 {
            self.kn.set_resolved(cell, state);
            return Ok(());
        }
        if mines == number {
            for &u in &nbrs[..len] {
                if self.kn.state(u) == UNKNOWN {
                    self.open_safe(u)?;
                }
            }
        } else if usize::from(mines) + count == usize::from(number) {
            for &u in &nbrs[..len] {
                if self.kn.state(u) == UNKNOWN {
                    self.mark_mine(u);
                }
            }
        } else if self.config.strategy == Strategy::Ply {
            if self.kn.set_flag(cell, FRESH) {
                self.fresh.push(cell);
            }
        } else {
            self.retry_later(cell);
        }
        Ok(())
    }

    /// Queues the open numbers around `cell` (something about `cell` became known).
    fn push_neighbours(&mut self, cell: u32) {
        let (nbrs, len) = self.kn.neighbours(cell);
        for &nb in &nbrs[..len] {
            self.push_work(nb);
        }
    }

    fn mark_mine(&mut self, cell: u32) {
        if self.kn.mark_mine(cell) {
            self.push_neighbours(cell);
        }
    }

    /// Claims and clicks a cell deduced safe.
    fn open_safe(&mut self, cell: u32) -> Result<(), MinesError> {
        if self.kn.claim(cell, CLAIMED) {
            self.push_neighbours(cell);
            self.click_claimed(cell)?;
        }
        Ok(())
    }

    /// Clicks a cell claimed as safe: ply's solver sends it when the click in flight is
    /// answered and goes on working meanwhile; the reference waits for every answer.
    fn click_claimed(&mut self, cell: u32) -> Result<(), MinesError> {
        if self.config.strategy == Strategy::Reference {
            return self.click(cell, false);
        }
        self.to_click.push_back(cell);
        if self.in_flight.is_none() {
            self.send_next()?;
        }
        Ok(())
    }

    /// Sends the next waiting claimed cell that is still unopened (an earlier opening may
    /// have opened it).
    fn send_next(&mut self) -> Result<(), MinesError> {
        while let Some(cell) = self.to_click.pop_front() {
            if self.kn.state(cell) == CLAIMED {
                let (r, c) = self.kn.coords(cell);
                self.stats.clicks += 1;
                self.clicker.submit(r, c, true)?;
                self.in_flight = Some(cell);
                return Ok(());
            }
        }
        Ok(())
    }

    /// Collects the answer in flight if it has come.
    fn poll(&mut self) -> Result<(), MinesError> {
        if self.in_flight.is_some() && self.clicker.answered() {
            self.complete()?;
        }
        Ok(())
    }

    /// Waits for the answer in flight, records it and sends the next click.
    fn complete(&mut self) -> Result<(), MinesError> {
        if let Some(cell) = self.in_flight.take() {
            let reply = self.clicker.finish(&mut self.out)?;
            self.record(cell, false, reply);
            self.send_next()?;
        }
        Ok(())
    }

    /// Waits until every claimed cell is clicked and answered.
    fn settle_clicks(&mut self) -> Result<(), MinesError> {
        if self.in_flight.is_none() {
            self.send_next()?;
        }
        while self.in_flight.is_some() {
            self.complete()?;
        }
        Ok(())
    }

    /// Claims and clicks a guess; false if the cell was no longer unknown.
    fn open_guess(&mut self, cell: u32) -> Result<bool, MinesError> {
        if !self.kn.claim(cell, GUESSING) {
            return Ok(false);
        }
        self.stats.guesses += 1;
        self.click(cell, true)?;
        Ok(true)
    }

    /// Clicks a claimed cell now and records what it shows (after every click in flight).
    fn click(&mut self, cell: u32, guess: bool) -> Result<(), MinesError> {
        self.settle_clicks()?;
        let (r, c) = self.kn.coords(cell);
        let expand = self.config.strategy == Strategy::Ply;
        self.stats.clicks += 1;
        let reply = self.clicker.click(r, c, expand, &mut self.out)?;
        self.record(cell, guess, reply);
        Ok(())
    }

    /// Records the answer to a click on `cell` (in `self.out` when cells opened).
    fn record(&mut self, cell: u32, guess: bool, reply: Reply) {
        let expand = self.config.strategy == Strategy::Ply;
        match reply {
            Reply::Mine | Reply::Skipped { mine: true } => {
                self.stats.mines_hit += 1;
                if !guess {
                    self.stats.wrong_deductions += 1;
                }
                self.kn.hit_mine(cell);
                self.push_neighbours(cell);
            }
            Reply::Skipped { mine: false } => {
                // Opened meanwhile by another channel's expansion, whose entries carry the
                // number; a guess still releases the numbers around it.
                if guess {
                    self.push_neighbours(cell);
                }
            }
            Reply::Opened => {
                // First record every cell, then queue: a number queued for another worker
                // must not be examined before the rest of this opening is known.
                self.before.clear();
                for &[r, c, number] in &self.out {
                    let at = self.kn.cell(u32::from(r), u32::from(c));
                    self.before.push(self.kn.set_open(at, number as u8));
                }
                for i in 0..self.out.len() {
                    let [r, c, number] = self.out[i];
                    let at = self.kn.cell(u32::from(r), u32::from(c));
                    let before = self.before[i];
                    if !is_open(before) {
                        self.stats.opened += 1;
                    }
                    // An expanded zero's neighbours are all in this opening: the new ones are
                    // queued here in turn, and the numbers opened before are queued as such.
                    if number == 0 && expand {
                        continue;
                    }
                    self.push_work(at);
                    // A claimed cell's neighbours were queued when it was claimed; an
                    // unknown or guessed one's are queued now.
                    if !is_open(before) && before != CLAIMED {
                        self.push_neighbours(at);
                    }
                }
            }
        }
    }

    /// The pair rule on the numbers left unresolved, then enumeration; true if it found
    /// anything (new work).
    fn advanced(&mut self) -> Result<bool, MinesError> {
        if !self.fresh.is_empty() {
            let fresh = std::mem::take(&mut self.fresh);
            for &a in &fresh {
                self.kn.clear_flag(a, FRESH);
                self.pairs_around(a);
                if self.kn.set_flag(a, SEEDED) {
                    self.seeds.push(a);
                }
            }
            self.fresh = fresh;
            self.fresh.clear();
            let found = self.apply_found(true)?;
            if found {
                return Ok(true);
            }
        }
        if self.seeds.is_empty() {
            return Ok(false);
        }
        let seeds = std::mem::take(&mut self.seeds);
        let mut covered = FxHashSet::default();
        let density = self.kn.density();
        for &seed in &seeds {
            self.kn.clear_flag(seed, SEEDED);
            if covered.contains(&seed) || constraint(self.kn, seed).is_none() {
                continue;
            }
            let analysis = enumerate(
                self.kn,
                seed,
                density,
                self.config.enumeration,
                &mut covered,
            );
            self.found_safe.extend_from_slice(&analysis.safe);
            self.found_mines.extend_from_slice(&analysis.mines);
            for (cell, p) in analysis.odds {
                let key = (p as f32).to_bits();
                self.latest.insert(cell, key);
                self.candidates.push(Reverse((key, cell)));
            }
        }
        self.seeds = seeds;
        self.seeds.clear();
        self.apply_found(false)
    }

    /// The pair rule between the number at `a` and every number within two cells.
    fn pairs_around(&mut self, a: u32) {
        let Some(ca) = constraint(self.kn, a) else {
            return;
        };
        let (r, c) = self.kn.coords(a);
        let n = self.kn.n();
        for rr in r.saturating_sub(2)..=(r + 2).min(n - 1) {
            for cc in c.saturating_sub(2)..=(c + 2).min(n - 1) {
                let b = self.kn.cell(rr, cc);
                if b == a {
                    continue;
                }
                if let Some(cb) = constraint(self.kn, b) {
                    pair(&ca, &cb, &mut self.found_safe, &mut self.found_mines);
                }
            }
        }
    }

    /// Opens the cells found safe and marks the mines found; true if any was new.
    fn apply_found(&mut self, by_pairs: bool) -> Result<bool, MinesError> {
        let mut any = false;
        let safe = std::mem::take(&mut self.found_safe);
        let mines = std::mem::take(&mut self.found_mines);
        for &cell in &mines {
            if self.kn.state(cell) == UNKNOWN {
                self.mark_mine(cell);
                any = true;
                self.count_deduction(by_pairs);
            }
        }
        for &cell in &safe {
            if self.kn.claim(cell, CLAIMED) {
                any = true;
                self.count_deduction(by_pairs);
                self.push_neighbours(cell);
                self.click_claimed(cell)?;
            }
        }
        self.found_safe = safe;
        self.found_safe.clear();
        self.found_mines = mines;
        self.found_mines.clear();
        self.flush();
        Ok(any || !self.work.is_empty())
    }

    fn count_deduction(&mut self, by_pairs: bool) {
        if by_pairs {
            self.stats.pair_deductions += 1;
        } else {
            self.stats.enum_deductions += 1;
        }
    }

    /// Waits until every worker is out of deductions and no numbers are in flight between
    /// them, or until numbers arrive for this worker.
    fn wait_for_quiet(&mut self) -> Wait {
        self.flush();
        self.shared.idle.fetch_add(1, Ordering::SeqCst);
        let mut spins = 0u32;
        let wait = loop {
            if self.finished() {
                break Wait::Done;
            }
            if self.take_inbox() {
                break Wait::Work;
            }
            if self.shared.idle.load(Ordering::SeqCst) >= self.shared.threads
                && self.shared.pending.load(Ordering::SeqCst) == 0
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
        self.shared.idle.fetch_sub(1, Ordering::SeqCst);
        wait
    }

    /// The best frontier candidate still valid: its cell and probability.
    fn best_candidate(&mut self) -> Option<(u32, f64)> {
        while let Some(&Reverse((key, cell))) = self.candidates.peek() {
            if self.kn.state(cell) == UNKNOWN && self.latest.get(&cell) == Some(&key) {
                return Some((cell, f64::from(f32::from_bits(key))));
            }
            self.candidates.pop();
            if self.latest.get(&cell) == Some(&key) {
                self.latest.remove(&cell);
            }
        }
        None
    }

    /// Whether `cell` is unknown and touches no open cell.
    fn interior(&self, cell: u32) -> bool {
        if self.kn.state(cell) != UNKNOWN {
            return false;
        }
        let (nbrs, len) = self.kn.neighbours(cell);
        nbrs[..len].iter().all(|&nb| !is_open(self.kn.state(nb)))
    }

    /// The next interior cell of the stripe, then of the board.
    fn next_interior(&mut self) -> Option<u32> {
        while self.cursor < self.stripe.end {
            let cell = self.cursor as u32;
            if self.interior(cell) {
                return Some(cell);
            }
            self.cursor += 1;
        }
        let cells = self.kn.len() as u64;
        while self.board_cursor < cells {
            let cell = self.board_cursor as u32;
            if self.interior(cell) {
                return Some(cell);
            }
            self.board_cursor += 1;
        }
        None
    }

    /// The cell to guess: the least likely mine among the frontier candidates and the
    /// interior (whose cells carry the density of the unknown remainder); `None` when every
    /// cell is known.
    pub(super) fn choose_guess(&mut self) -> Option<(u32, bool)> {
        let density = self.kn.density();
        let frontier = self.best_candidate();
        if let Some((cell, p)) = frontier {
            if p < density {
                return Some((cell, true));
            }
        }
        if let Some(cell) = self.next_interior() {
            return Some((cell, false));
        }
        if let Some((cell, _)) = frontier {
            return Some((cell, true));
        }
        // Unknown cells no analysis reached (components too large): any of them.
        let cells = self.kn.len() as u64;
        let start = self.stripe.start;
        (0..cells)
            .map(|i| ((start + i) % cells) as u32)
            .find(|&cell| self.kn.state(cell) == UNKNOWN)
            .map(|cell| (cell, false))
    }

    /// Makes one guess (or settles the end: every unknown cell safe, or every one a mine).
    fn guess(&mut self) -> Result<(), MinesError> {
        let (left, unknown) = (self.kn.mines_left(), self.kn.unknown());
        if left == 0 || left == unknown {
            return self.settle(left == 0);
        }
        let Some((cell, frontier)) = self.choose_guess() else {
            return Ok(());
        };
        if self.open_guess(cell)? {
            self.stats.frontier_guesses += u64::from(frontier);
        }
        Ok(())
    }

    /// Every unknown cell is safe (`safe`) or every one is a mine: open or mark them all.
    fn settle(&mut self, safe: bool) -> Result<(), MinesError> {
        for cell in 0..self.kn.len() as u64 {
            let cell = cell as u32;
            if self.kn.state(cell) != UNKNOWN {
                continue;
            }
            if safe {
                self.open_safe(cell)?;
            } else {
                self.mark_mine(cell);
            }
        }
        Ok(())
    }

    /// The reference's guess: a random unknown cell while at most 95 % of the safe cells are
    /// open; then worker 0 alone sweeps the board in row-major order, clicking every unknown
    /// cell that no neighbouring number proves a mine. False when this worker is done.
    fn reference_guess(&mut self) -> Result<bool, MinesError> {
        let cells = self.kn.len() as u64;
        let safe = cells - self.kn.k();
        if self.kn.safe_known() * 20 > safe * 19 {
            if self.id != 0 {
                return Ok(false);
            }
            while self.board_cursor < cells {
                let cell = self.board_cursor as u32;
                self.board_cursor += 1;
                if self.kn.state(cell) != UNKNOWN {
                    continue;
                }
                if self.proven_mine(cell) {
                    self.mark_mine(cell);
                    continue;
                }
                if self.open_guess(cell)? {
                    return Ok(true);
                }
            }
            return Ok(false);
        }
        for _ in 0..64 {
            let cell = self.rng.random_range(0..cells) as u32;
            if self.open_guess(cell)? {
                return Ok(true);
            }
        }
        Ok(true)
    }

    /// Whether a number next to `cell` has exactly as many unknown neighbours as mines left.
    fn proven_mine(&self, cell: u32) -> bool {
        let (nbrs, len) = self.kn.neighbours(cell);
        nbrs[..len]
            .iter()
            .filter_map(|&nb| constraint(self.kn, nb))
            .any(|c| usize::from(c.mines) == c.len)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::deduce::tests::position;

    /// A clicker for positions where no click may happen.
    struct NoClicks;

    impl Clicker for NoClicks {
        fn submit(&mut self, r: u32, c: u32, _: bool) -> Result<(), MinesError> {
            panic!("unexpected click at ({r}, {c})");
        }

        fn answered(&self) -> bool {
            false
        }

        fn finish(&mut self, _: &mut Vec<Entry>) -> Result<Reply, MinesError> {
            panic!("no click was sent");
        }
    }

    /// The guess a lone worker makes in `kn` after examining the open cells `open`.
    fn guess_in(kn: &Knowledge, open: &[(u32, u32)]) -> (u32, bool) {
        let shared = Shared::new(1, kn.n());
        let config = SolverConfig {
            threads: 1,
            ..SolverConfig::default()
        };
        let mut w = Worker::new(kn, &shared, NoClicks, &config, 0, 0..kn.n());
        for &(r, c) in open {
            w.examine(kn.cell(r, c)).unwrap();
        }
        assert!(!w.advanced().unwrap(), "nothing to deduce here");
        w.choose_guess().unwrap()
    }

    fn near(kn: &Knowledge, cell: u32, r: u32, c: u32) -> bool {
        let (cr, cc) = kn.coords(cell);
        cr.abs_diff(r) <= 1 && cc.abs_diff(c) <= 1
    }

    #[test]
    fn the_guess_takes_the_least_likely_mine() {
        // A corner 1 (each of its three cells 1/3) and a lone 1 (each of eight cells 1/8).
        let rows = ["o*", "", "", "", "####*", "#####o"];
        // Dense remainder (64 mines in 254 unknown cells, about 1/4): the lone 1's cells win.
        let kn = position(&rows, 64);
        let (cell, frontier) = guess_in(&kn, &[(0, 0), (5, 5)]);
        assert!(frontier && near(&kn, cell, 5, 5), "{:?}", kn.coords(cell));
        // Sparse remainder (16 mines, about 1/16): an interior cell, touching no number.
        let kn = position(&rows, 16);
        let (cell, frontier) = guess_in(&kn, &[(0, 0), (5, 5)]);
        assert!(!frontier, "{:?}", kn.coords(cell));
        assert!(!near(&kn, cell, 5, 5) && !near(&kn, cell, 0, 0));
    }
}
