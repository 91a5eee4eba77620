//! The click pipeline of one worker: claimed cells wait in a queue, one click is in flight
//! while the worker goes on deducing, and an answer is collected as soon as the worker looks
//! (it looks often) and the next click sent before the answer is recorded.
//!
//! Looking often matters: the contest's server thread spins only about a microsecond after
//! each answer before it sleeps on a futex, and waking it costs several microseconds on both
//! sides.

use std::collections::VecDeque;
use std::ops::Range;

use super::clicker::{Clicker, Reply};
use super::knowledge::{CLAIMED, Knowledge};
use crate::error::MinesError;
use crate::protocol::Entry;

/// A collected answer, to be recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Answer {
    /// The clicked cell.
    pub cell: u32,
    /// Whether it was a guess (not known to be safe).
    pub guess: bool,
    /// What the server said.
    pub reply: Reply,
    /// The opened cells, as indices for [`Pipeline::entry`].
    pub entries: Range<usize>,
}

/// What is in flight: a claimed safe cell, or a guess.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Flight {
    cell: u32,
    guess: bool,
}

/// One worker's clicks on its clicker.
pub(super) struct Pipeline<C> {
    clicker: C,
    /// Server-side expansion (`click` with `skip_when_reopen`), else `click_do_not_expand`.
    expand: bool,
    in_flight: Option<Flight>,
    /// Claimed cells waiting to be clicked: those that may be zeros first, then those next
    /// to a known mine (numbers, which an opening clicked meanwhile may bring for free).
    queued: VecDeque<u32>,
    later: VecDeque<u32>,
    /// Collected answers, oldest first, and the cells they opened.
    answers: VecDeque<Answer>,
    entries: Vec<Entry>,
    clicks: u64,
}

impl<C: Clicker> Pipeline<C> {
    /// A pipeline on `clicker`; `expand` chooses the kind of click.
    pub(super) fn new(clicker: C, expand: bool) -> Self {
        Pipeline {
            clicker,
            expand,
            in_flight: None,
            queued: VecDeque::new(),
            later: VecDeque::new(),
            answers: VecDeque::new(),
            entries: Vec::new(),
            clicks: 0,
        }
    }

    /// Round trips made.
    pub(super) fn clicks(&self) -> u64 {
        self.clicks
    }

    /// Queues a claimed cell for clicking (after the others if it is `next_to_mine`) and
    /// sends it if nothing is in flight.
    #[inline]
    pub(super) fn queue(
        &mut self,
        kn: &Knowledge,
        cell: u32,
        next_to_mine: bool,
    ) -> Result<(), MinesError> {
        if next_to_mine {
            self.later.push_back(cell);
        } else {
            self.queued.push_back(cell);
        }
        self.tick(kn)
    }

    /// Collects the answer in flight if it has come, and sends the next click.
    #[inline]
    pub(super) fn tick(&mut self, kn: &Knowledge) -> Result<(), MinesError> {
        if self.in_flight.is_some() {
            if !self.clicker.answered() {
                return Ok(());
            }
            self.collect()?;
        }
        self.send(kn)
    }

    /// Waits for the answer in flight, if any, and keeps it.
    fn collect(&mut self) -> Result<(), MinesError> {
        if let Some(Flight { cell, guess }) = self.in_flight.take() {
            let start = self.entries.len();
            let reply = self.clicker.finish(&mut self.entries)?;
            self.answers.push_back(Answer {
                cell,
                guess,
                reply,
                entries: start..self.entries.len(),
            });
        }
        Ok(())
    }

    /// Sends the next queued cell still claimed (an earlier opening may have opened it);
    /// nothing is in flight.
    fn send(&mut self, kn: &Knowledge) -> Result<(), MinesError> {
        while let Some(cell) = self.queued.pop_front().or_else(|| self.later.pop_front()) {
            if kn.state(cell) == CLAIMED {
                return self.submit(kn, cell, false);
            }
        }
        Ok(())
    }

    fn submit(&mut self, kn: &Knowledge, cell: u32, guess: bool) -> Result<(), MinesError> {
        let (r, c) = kn.coords(cell);
        self.clicks += 1;
        self.clicker.submit(r, c, self.expand)?;
        self.in_flight = Some(Flight { cell, guess });
        Ok(())
    }

    /// Whether a click is in flight or queued.
    pub(super) fn busy(&self) -> bool {
        self.in_flight.is_some() || !self.queued.is_empty() || !self.later.is_empty()
    }

    /// Waits for the click in flight, collects it and sends the next.
    pub(super) fn wait(&mut self, kn: &Knowledge) -> Result<(), MinesError> {
        self.collect()?;
        self.send(kn)
    }

    /// Clicks every queued cell and collects every answer; nothing is left in flight.
    pub(super) fn settle(&mut self, kn: &Knowledge) -> Result<(), MinesError> {
        while self.busy() {
            self.wait(kn)?;
        }
        Ok(())
    }

    /// Clicks `cell` now, after every queued click, and collects its answer; `guess` says
    /// whether it is known to be safe.
    pub(super) fn click_now(
        &mut self,
        kn: &Knowledge,
        cell: u32,
        guess: bool,
    ) -> Result<(), MinesError> {
        self.settle(kn)?;
        self.submit(kn, cell, guess)?;
        self.collect()
    }

    /// The oldest collected answer not yet recorded. The entries of the answers taken before
    /// are dropped when none is left.
    pub(super) fn next_answer(&mut self) -> Option<Answer> {
        let answer = self.answers.pop_front();
        if answer.is_none() {
            self.entries.clear();
        }
        answer
    }

    /// Whether collected answers wait to be recorded.
    #[inline]
    pub(super) fn has_answers(&self) -> bool {
        !self.answers.is_empty()
    }

    /// Entry `i` of a collected answer.
    #[inline]
    pub(super) fn entry(&self, i: usize) -> Entry {
        self.entries[i]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clicker that answers every click at once and logs them: a cell (r, c) with r even
    /// opens itself with number r, an odd row is a mine, and a cell clicked before is
    /// "skipped".
    #[derive(Default)]
    struct Log {
        clicks: Vec<(u32, u32)>,
        answer: Option<(Reply, Vec<Entry>)>,
    }

    impl Clicker for Log {
        fn submit(&mut self, r: u32, c: u32, _: bool) -> Result<(), MinesError> {
            let seen = self.clicks.contains(&(r, c));
            self.clicks.push((r, c));
            self.answer = Some(if seen {
                (Reply::Skipped { mine: r % 2 == 1 }, Vec::new())
            } else if r % 2 == 1 {
                (Reply::Mine, Vec::new())
            } else {
                (Reply::Opened, vec![[r as u16, c as u16, r as u16]])
            });
            Ok(())
        }

        fn answered(&self) -> bool {
            self.answer.is_some()
        }

        fn finish(&mut self, out: &mut Vec<Entry>) -> Result<Reply, MinesError> {
            let (reply, entries) = self.answer.take().expect("a click in flight");
            out.extend(entries);
            Ok(reply)
        }
    }

    #[test]
    fn answers_come_in_order_and_cells_opened_meanwhile_are_not_clicked() {
        let kn = Knowledge::new(16, 8);
        let mut pipe = Pipeline::new(Log::default(), true);
        for (r, c) in [(2, 3), (4, 5), (6, 7)] {
            assert!(kn.claim(kn.cell(r, c), CLAIMED));
        }
        // (4, 5) is opened by another answer before its turn: it is not clicked.
        pipe.queue(&kn, kn.cell(2, 3), false).unwrap();
        kn.set_open(kn.cell(4, 5), 1);
        pipe.queue(&kn, kn.cell(4, 5), false).unwrap();
        pipe.queue(&kn, kn.cell(6, 7), false).unwrap();
        pipe.settle(&kn).unwrap();
        let mut got = Vec::new();
        while let Some(a) = pipe.next_answer() {
            let entries: Vec<Entry> = a.entries.clone().map(|i| pipe.entry(i)).collect();
            got.push((kn.coords(a.cell), a.reply, entries));
        }
        assert_eq!(
            got,
            vec![
                ((2, 3), Reply::Opened, vec![[2, 3, 2]]),
                ((6, 7), Reply::Opened, vec![[6, 7, 6]]),
            ]
        );
        assert_eq!(pipe.clicks(), 2);
        assert_eq!(pipe.clicker.clicks, vec![(2, 3), (6, 7)]);
    }

    #[test]
    fn a_guess_waits_for_the_queue_and_reports_a_mine() {
        let kn = Knowledge::new(16, 8);
        let mut pipe = Pipeline::new(Log::default(), false);
        assert!(kn.claim(kn.cell(0, 1), CLAIMED));
        pipe.queue(&kn, kn.cell(0, 1), false).unwrap();
        pipe.click_now(&kn, kn.cell(3, 3), true).unwrap();
        let first = pipe.next_answer().unwrap();
        assert_eq!(
            (first.cell, first.guess, first.reply),
            (kn.cell(0, 1), false, Reply::Opened)
        );
        let second = pipe.next_answer().unwrap();
        assert_eq!(
            (second.cell, second.guess, second.reply),
            (kn.cell(3, 3), true, Reply::Mine)
        );
        assert!(pipe.next_answer().is_none());
        assert_eq!(pipe.clicker.clicks, vec![(0, 1), (3, 3)]);
    }
}
