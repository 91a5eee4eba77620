//! The contest's reference solution, re-implemented for comparison: `click_do_not_expand`
//! only, each thread follows its own region with the two single-cell rules (a zero's
//! neighbours opened by examining it), an unresolved number is retried a few times, and the
//! guesses are [`RandomThenSweep`]'s.

use std::collections::VecDeque;

use rustc_hash::FxHashMap;

use super::SolveStats;
use super::clicker::{Clicker, Reply};
use super::deduce::{Rule, single_rule};
use super::guess::{Choice, Guesser, RandomThenSweep};
use super::knowledge::{CLAIMED, GUESSING, Knowledge, OPEN, is_open};
use super::pipeline::{Answer, Pipeline};
use super::schedule::Schedule;
use crate::error::MinesError;

/// How often an unresolved number is examined again before its worker gives up on it.
const RETRIES: u8 = 16;

/// One thread of the reference approach.
pub(super) struct ReferenceWorker<'a, C> {
    kn: &'a Knowledge,
    schedule: &'a Schedule,
    pipe: Pipeline<C>,
    guesser: RandomThenSweep,
    /// Open cells to examine (zeros included).
    work: VecDeque<u32>,
    /// Unresolved numbers, retried in turn, and their retry counts.
    retry: VecDeque<u32>,
    retries: FxHashMap<u32, u8>,
    stats: SolveStats,
}

impl<'a, C: Clicker> ReferenceWorker<'a, C> {
    /// Worker `id`, clicking on `clicker`, its random guesses seeded by `seed`.
    pub(super) fn new(
        kn: &'a Knowledge,
        schedule: &'a Schedule,
        clicker: C,
        id: usize,
        seed: u64,
    ) -> Self {
        ReferenceWorker {
            kn,
            schedule,
            pipe: Pipeline::new(clicker, false),
            guesser: RandomThenSweep::new(id, seed),
            work: VecDeque::new(),
            retry: VecDeque::new(),
            retries: FxHashMap::default(),
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

    /// Plays until every cell is known or the policy stops this worker.
    pub(super) fn run(&mut self) -> Result<(), MinesError> {
        loop {
            self.drain()?;
            if self.finished() {
                return Ok(());
            }
            match self.guesser.choose(self.kn) {
                Choice::Click { cell, .. } => {
                    if self.kn.claim(cell, GUESSING) {
                        self.stats.guesses += 1;
                        self.click(cell, true)?;
                    }
                }
                Choice::Mine(cell) => self.mark_mine(cell),
                Choice::Pass => {}
                Choice::Done => return Ok(()),
            }
        }
    }

    /// Examines the work list, then the retries, until both are empty.
    fn drain(&mut self) -> Result<(), MinesError> {
        loop {
            while let Some(cell) = self.work.pop_front() {
                if self.schedule.stopped() {
                    return Ok(());
                }
                self.examine(cell)?;
            }
            match self.retry.pop_front() {
                Some(cell) => self.examine(cell)?,
                None => return Ok(()),
            }
        }
    }

    fn push_work(&mut self, cell: u32) {
        if self.kn.enqueue(cell, true) {
            self.work.push_back(cell);
        }
    }

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

    /// The single-cell rules on the open cell at `cell`.
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
                    if self.kn.claim(u, CLAIMED) {
                        self.push_neighbours(u);
                        self.click(u, false)?;
                    }
                }
            }
            Rule::Mines => {
                for &u in &nbrs[..len] {
                    self.mark_mine(u);
                }
            }
            Rule::Unresolved => {
                let tries = self.retries.entry(cell).or_insert(0);
                if *tries < RETRIES {
                    *tries += 1;
                    self.retry.push_back(cell);
                }
            }
        }
        Ok(())
    }

    /// Clicks a claimed cell (`guess`: not known to be safe) and records the answer.
    fn click(&mut self, cell: u32, guess: bool) -> Result<(), MinesError> {
        self.pipe.click_now(self.kn, cell, guess)?;
        while let Some(Answer {
            cell,
            reply,
            entries,
            ..
        }) = self.pipe.next_answer()
        {
            match reply {
                Reply::Mine | Reply::Skipped { mine: true } => {
                    self.stats.mines_hit += 1;
                    self.stats.wrong_deductions += u64::from(!guess);
                    self.kn.hit_mine(cell);
                    self.push_neighbours(cell);
                }
                Reply::Skipped { mine: false } => self.push_neighbours(cell),
                Reply::Opened => {
                    for i in entries {
                        let [r, c, number] = self.pipe.entry(i);
                        let at = self.kn.cell(u32::from(r), u32::from(c));
                        let before = self.kn.set_open(at, number as u8);
                        self.stats.opened += u64::from(!is_open(before));
                        self.push_work(at);
                        if !is_open(before) && before != CLAIMED {
                            self.push_neighbours(at);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
