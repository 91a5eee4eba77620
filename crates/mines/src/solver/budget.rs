//! A solve's budget in clicks (the solver's nodes), time and a stop flag, charged as the
//! clickers click: the budget that runs out first refuses the next click, which ends the solve.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use ply_search::{GiveUp, Limits, StopFlag};

use super::clicker::{Clicker, Reply};
use crate::error::MinesError;
use crate::protocol::Entry;

/// What the clickers of one solve share of its [`Limits`].
pub(super) struct ClickBudget {
    max_clicks: Option<u64>,
    deadline: Option<Instant>,
    stop: Option<StopFlag>,
    clicks: AtomicU64,
    /// The budget that ran out first, once one has.
    spent: Mutex<Option<GiveUp>>,
}

impl ClickBudget {
    /// The budget of `limits` for a solve started at `started`; `None` when they limit
    /// nothing, so that the clicks need no counting.
    pub(super) fn of(limits: &Limits, started: Instant) -> Option<ClickBudget> {
        let deadline = limits.stop_at(started);
        (limits.max_nodes.is_some() || deadline.is_some() || limits.stop.is_some()).then(|| {
            ClickBudget {
                max_clicks: limits.max_nodes,
                deadline,
                stop: limits.stop.clone(),
                clicks: AtomicU64::new(0),
                spent: Mutex::new(None),
            }
        })
    }

    /// Counts a click, or says which budget it would overspend (and remembers the first).
    fn charge(&self) -> Result<(), GiveUp> {
        let clicks = self.clicks.fetch_add(1, Ordering::Relaxed) + 1;
        let spent = if self.stop.as_ref().is_some_and(StopFlag::is_stopped) {
            Some(GiveUp::Stopped)
        } else if self.max_clicks.is_some_and(|max| clicks > max) {
            Some(GiveUp::NodeLimit)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(GiveUp::TimeLimit)
        } else {
            None
        };
        match spent {
            None => Ok(()),
            Some(why) => {
                self.clicks.fetch_sub(1, Ordering::Relaxed);
                let mut first = self.spent.lock().unwrap_or_else(PoisonError::into_inner);
                Err(*first.get_or_insert(why))
            }
        }
    }

    /// The budget that ran out, if one did.
    pub(super) fn spent(&self) -> Option<GiveUp> {
        *self.spent.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The clicks charged.
    pub(super) fn clicks(&self) -> u64 {
        self.clicks.load(Ordering::Relaxed)
    }
}

/// A clicker that refuses further clicks once its solve's budget is spent, which ends the
/// solve.
pub(super) struct Budgeted<'b, C> {
    pub(super) inner: C,
    pub(super) budget: &'b ClickBudget,
}

impl<C: Clicker> Clicker for Budgeted<'_, C> {
    fn submit(&mut self, r: u32, c: u32, expand: bool) -> Result<(), MinesError> {
        self.budget
            .charge()
            .map_err(|why| MinesError::Protocol(why.to_string()))?;
        self.inner.submit(r, c, expand)
    }

    fn answered(&self) -> bool {
        self.inner.answered()
    }

    fn finish(&mut self, out: &mut Vec<Entry>) -> Result<Reply, MinesError> {
        self.inner.finish(out)
    }
}
