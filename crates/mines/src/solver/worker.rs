//! ply's worker thread: the single-cell rules on a breadth-first wave of numbers, the pair
//! rule and enumeration when the wave stops, and a guess when every worker has stopped.

use std::collections::VecDeque;
use std::ops::Range;

use rustc_hash::FxHashSet;

use super::clicker::{Clicker, Reply};
use super::deduce::{Rule, constraint, enumerate, pair, single_rule};
use super::guess::{Choice, Guesser};
use super::knowledge::{CLAIMED, FRESH, GUESSING, Knowledge, MINE, OPEN, SEEDED, UNKNOWN, is_open};
use super::pipeline::{Answer, Pipeline};
use super::schedule::{Outboxes, Schedule, Wait};
use super::{SolveStats, SolverConfig};
use crate::error::MinesError;

/// Entries of an opening recorded between two looks at the click in flight.
const ENTRIES_PER_TICK: usize = 4;
/// Cells of an opening marked open between two looks (marking is cheaper than queueing).
const MARKS_PER_TICK: usize = 16;

/// The length of the fresh list below which it is never compacted.
const MIN_COMPACTION: usize = 1 << 16;

/// Whether an unknown cell touches `cell`.
fn has_unknown_neighbour(kn: &Knowledge, cell: u32) -> bool {
    let (nbrs, len) = kn.neighbours(cell);
    nbrs[..len].iter().any(|&nb| kn.state(nb) == UNKNOWN)
}

/// A worker.
pub(super) struct Worker<'a, C, G> {
    kn: &'a Knowledge,
    schedule: &'a Schedule,
    pipe: Pipeline<C>,
    guesser: G,
    config: &'a SolverConfig,
    id: usize,
    /// The cells of this worker's stripe.
    stripe: Range<u64>,
    /// Open numbers of this stripe to examine with the single-cell rules, first in first out
    /// (a breadth-first wave keeps the list to the wave's length, where a stack would grow
    /// with the area behind it).
    work: VecDeque<u32>,
    /// Numbers of other stripes, for their workers.
    outboxes: Outboxes,
    /// Numbers the single-cell rules left unresolved since the last pair pass. Compacted to
    /// the still unresolved ones when it reaches `fresh_limit`: a cascade between two guesses
    /// may cover most of the board, and its resolved numbers need not be kept.
    fresh: Vec<u32>,
    fresh_limit: usize,
    /// Unresolved numbers since the last enumeration.
    seeds: Vec<u32>,
    found_safe: Vec<u32>,
    found_mines: Vec<u32>,
    /// The state each cell of an opening had before (scratch for [`Worker::record`]).
    before: Vec<u8>,
    stats: SolveStats,
}

impl<'a, C: Clicker, G: Guesser> Worker<'a, C, G> {
    /// Worker `id` of `schedule`, owning the rows `rows`.
    pub(super) fn new(
        kn: &'a Knowledge,
        schedule: &'a Schedule,
        pipe: Pipeline<C>,
        guesser: G,
        config: &'a SolverConfig,
        id: usize,
        rows: Range<u32>,
    ) -> Self {
        let n = u64::from(kn.n());
        Worker {
            kn,
            schedule,
            pipe,
            guesser,
            config,
            id,
            stripe: u64::from(rows.start) * n..u64::from(rows.end) * n,
            work: VecDeque::new(),
            outboxes: Outboxes::new(schedule),
            fresh: Vec::new(),
            fresh_limit: MIN_COMPACTION,
            seeds: Vec::new(),
            found_safe: Vec::new(),
            found_mines: Vec::new(),
            before: Vec::new(),
            stats: SolveStats::default(),
        }
    }

    /// What this worker did.
    pub(super) fn stats(&self) -> SolveStats {
        SolveStats {
            clicks: self.pipe.clicks(),
            ..self.stats
        }
    }

    fn finished(&self) -> bool {
        self.schedule.over(self.kn)
    }

    /// Plays until every cell is known and every click is answered.
    pub(super) fn run(&mut self) -> Result<(), MinesError> {
        loop {
            self.drain()?;
            if self.finished() {
                break;
            }
            if self.advanced()? {
                continue;
            }
            self.outboxes.flush(self.schedule);
            match self
                .schedule
                .wait_for_quiet(self.id, &mut self.work, self.kn)
            {
                Wait::Quiet => {
                    if !self.guess()? {
                        break;
                    }
                }
                Wait::Work => {}
                Wait::Done => break,
            }
        }
        self.pipe.settle(self.kn)?;
        self.record_answers()
    }

    /// Applies the single-cell rules until no number changes and every click is answered.
    fn drain(&mut self) -> Result<(), MinesError> {
        loop {
            while let Some(cell) = self.work.pop_front() {
                if self.schedule.stopped() {
                    return Ok(());
                }
                self.examine(cell)?;
                self.pipe.tick(self.kn)?;
                if self.pipe.has_answers() {
                    self.record_answers()?;
                }
            }
            if self.pipe.has_answers() {
                self.record_answers()?;
                continue;
            }
            if self.pipe.busy() {
                self.pipe.wait(self.kn)?;
                continue;
            }
            self.outboxes.flush(self.schedule);
            if !self.schedule.take_inbox(self.id, &mut self.work) {
                return Ok(());
            }
        }
    }

    /// Queues the number at `cell` for the worker of its stripe, unless it is not an open
    /// number, is resolved, or is queued already.
    #[inline]
    fn push_work(&mut self, cell: u32) {
        if !self.kn.enqueue(cell, false) {
            return;
        }
        if self.stripe.contains(&u64::from(cell)) {
            self.work.push_back(cell);
            return;
        }
        let owner = self.schedule.owner(self.kn.coords(cell).0);
        if owner == self.id {
            self.work.push_back(cell);
        } else {
            self.outboxes.push(self.schedule, owner, cell);
        }
    }

    /// Queues the open numbers around `cell` (something about `cell` became known).
    #[inline]
    fn push_neighbours(&mut self, cell: u32) {
        let (nbrs, len) = self.kn.neighbours(cell);
        for &nb in &nbrs[..len] {
            self.push_work(nb);
        }
    }

    /// The single-cell rules on the open number at `cell`.
    fn examine(&mut self, cell: u32) -> Result<(), MinesError> {
        self.stats.examined += 1;
        let state = self.kn.dequeue(cell);
        if !is_open(state) {
            return Ok(());
        }
        let (nbrs, len) = self.kn.neighbours(cell);
        match single_rule(self.kn, state - OPEN, &nbrs[..len]) {
            Rule::Waiting => {}
            Rule::Resolved => self.kn.set_resolved(cell, state),
            Rule::Safe => {
                for &u in &nbrs[..len] {
                    self.open_safe(u)?;
                }
            }
            Rule::Mines => {
                for &u in &nbrs[..len] {
                    self.mark_mine(u);
                }
            }
            Rule::Unresolved => {
                if self.kn.set_flag(cell, FRESH) {
                    self.fresh.push(cell);
                    if self.fresh.len() >= self.fresh_limit {
                        self.compact_fresh();
                    }
                }
            }
        }
        Ok(())
    }

    /// Drops the resolved numbers from the fresh list, and doubles the limit past what is
    /// left (so compaction costs O(1) a number).
    fn compact_fresh(&mut self) {
        let kn = self.kn;
        self.fresh.retain(|&cell| {
            let open = has_unknown_neighbour(kn, cell);
            if !open {
                kn.clear_flag(cell, FRESH);
            }
            open
        });
        self.fresh_limit = (2 * self.fresh.len()).max(MIN_COMPACTION);
    }

    /// Claims `cell` as safe and queues its click, unless it is no longer unknown.
    #[inline]
    fn open_safe(&mut self, cell: u32) -> Result<(), MinesError> {
        if self.kn.claim(cell, CLAIMED) {
            self.queue_claimed(cell)?;
        }
        Ok(())
    }

    /// Queues the numbers around a cell just claimed safe, and its click: after the others
    /// when a known mine touches it (a number for sure, which an opening may bring).
    #[inline]
    fn queue_claimed(&mut self, cell: u32) -> Result<(), MinesError> {
        let (nbrs, len) = self.kn.neighbours(cell);
        let mut next_to_mine = false;
        for &nb in &nbrs[..len] {
            next_to_mine |= self.kn.state(nb) == MINE;
            self.push_work(nb);
        }
        self.pipe.queue(self.kn, cell, next_to_mine)
    }

    fn mark_mine(&mut self, cell: u32) {
        if self.kn.mark_mine(cell) {
            self.push_neighbours(cell);
        }
    }

    /// Records every collected answer.
    fn record_answers(&mut self) -> Result<(), MinesError> {
        while let Some(answer) = self.pipe.next_answer() {
            self.record(answer)?;
        }
        Ok(())
    }

    /// Records an answer.
    fn record(&mut self, answer: Answer) -> Result<(), MinesError> {
        let Answer {
            cell,
            guess,
            reply,
            entries,
        } = answer;
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
                for (done, i) in entries.clone().enumerate() {
                    let [r, c, number] = self.pipe.entry(i);
                    let at = self.kn.cell(u32::from(r), u32::from(c));
                    self.before.push(self.kn.set_open(at, number as u8));
                    if done % MARKS_PER_TICK == MARKS_PER_TICK - 1 {
                        self.pipe.tick(self.kn)?;
                    }
                }
                for (done, i) in entries.enumerate() {
                    let [r, c, number] = self.pipe.entry(i);
                    let before = self.before[done];
                    let at = self.kn.cell(u32::from(r), u32::from(c));
                    if !is_open(before) {
                        self.stats.opened += 1;
                    }
                    // An expanded zero's neighbours are all in this opening: the new ones are
                    // queued here in turn, and the numbers opened before are queued as such.
                    if number != 0 {
                        self.push_work(at);
                        // A claimed cell's neighbours were queued when it was claimed; an
                        // unknown or guessed one's are queued now.
                        if !is_open(before) && before != CLAIMED {
                            self.push_neighbours(at);
                        }
                    }
                    if done % ENTRIES_PER_TICK == ENTRIES_PER_TICK - 1 {
                        self.pipe.tick(self.kn)?;
                    }
                }
            }
        }
        Ok(())
    }

    /// The pair rule on the numbers left unresolved, then enumeration; true if it found
    /// anything (new work).
    fn advanced(&mut self) -> Result<bool, MinesError> {
        if !self.fresh.is_empty() {
            let fresh = std::mem::take(&mut self.fresh);
            for &a in &fresh {
                self.kn.clear_flag(a, FRESH);
                if has_unknown_neighbour(self.kn, a) {
                    self.pairs_around(a);
                    if self.kn.set_flag(a, SEEDED) {
                        self.seeds.push(a);
                    }
                }
            }
            self.fresh = fresh;
            self.fresh.clear();
            self.fresh_limit = MIN_COMPACTION;
            if self.apply_found(true)? {
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
                self.guesser.note(cell, p);
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
                self.queue_claimed(cell)?;
            }
        }
        self.found_safe = safe;
        self.found_safe.clear();
        self.found_mines = mines;
        self.found_mines.clear();
        self.outboxes.flush(self.schedule);
        Ok(any || !self.work.is_empty())
    }

    fn count_deduction(&mut self, by_pairs: bool) {
        if by_pairs {
            self.stats.pair_deductions += 1;
        } else {
            self.stats.enum_deductions += 1;
        }
    }

    /// Makes one guess (or settles the end: every unknown cell safe, or every one a mine);
    /// false when the policy makes no more.
    fn guess(&mut self) -> Result<bool, MinesError> {
        let (left, unknown) = (self.kn.mines_left(), self.kn.unknown());
        if left == 0 || left == unknown {
            self.settle(left == 0)?;
            return Ok(true);
        }
        match self.guesser.choose(self.kn) {
            Choice::Click { cell, frontier } => {
                if self.kn.claim(cell, GUESSING) {
                    self.stats.guesses += 1;
                    self.stats.frontier_guesses += u64::from(frontier);
                    self.pipe.click_now(self.kn, cell, true)?;
                    self.record_answers()?;
                }
            }
            Choice::Mine(cell) => self.mark_mine(cell),
            Choice::Pass => {}
            Choice::Done => return Ok(false),
        }
        Ok(true)
    }

    /// Every unknown cell is safe (`safe`) or every one is a mine: open or mark them all.
    fn settle(&mut self, safe: bool) -> Result<(), MinesError> {
        for cell in 0..self.kn.len() as u64 {
            let cell = cell as u32;
            if self.kn.state(cell) != UNKNOWN {
                continue;
            }
            if !safe {
                self.mark_mine(cell);
            } else {
                self.open_safe(cell)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Entry;
    use crate::solver::deduce::tests::position;
    use crate::solver::guess::LeastRisk;

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
    fn guess_in(kn: &Knowledge, open: &[(u32, u32)]) -> Choice {
        let schedule = Schedule::new(1, kn.n());
        let config = SolverConfig {
            threads: 1,
            ..SolverConfig::default()
        };
        let pipe = Pipeline::new(NoClicks, true);
        let cells = u64::from(kn.n()) * u64::from(kn.n());
        let mut w = Worker::new(
            kn,
            &schedule,
            pipe,
            LeastRisk::new(0..cells),
            &config,
            0,
            0..kn.n(),
        );
        for &(r, c) in open {
            w.examine(kn.cell(r, c)).unwrap();
        }
        assert!(!w.advanced().unwrap(), "nothing to deduce here");
        w.guesser.choose(kn)
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
        let Choice::Click { cell, frontier } = guess_in(&kn, &[(0, 0), (5, 5)]) else {
            panic!("no guess");
        };
        assert!(frontier && near(&kn, cell, 5, 5), "{:?}", kn.coords(cell));
        // Sparse remainder (16 mines, about 1/16): an interior cell, touching no number.
        let kn = position(&rows, 16);
        let Choice::Click { cell, frontier } = guess_in(&kn, &[(0, 0), (5, 5)]) else {
            panic!("no guess");
        };
        assert!(!frontier, "{:?}", kn.coords(cell));
        assert!(!near(&kn, cell, 5, 5) && !near(&kn, cell, 0, 0));
    }
}
