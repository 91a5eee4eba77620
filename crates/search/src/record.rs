//! A solve's record in the words every front end shares (`cost`, `moves`, `proven`,
//! `unsolvable`, `initial_bound`, `lower_bound`, `generated`, `expanded`, `seconds`,
//! `stopped`): the `ply` command's `--json`, the studio's API and the Python package's
//! solutions all say what a [`Report`] says through this one conversion.

use crate::report::Report;

/// A [`Report`] in the shared words, its moves already written in a solver's notation `V`
/// (docs/protocols.md, "Solve records"). With the `serde` feature it serializes to exactly
/// these keys.
///
/// ```
/// use std::time::Duration;
/// use ply_search::{Ending, Record, Report};
///
/// let report: Report<char> = Report {
///     ending: Ending::Solved { cost: 2, moves: vec!['L', 'L'] },
///     stopped: None,
///     initial_bound: 1,
///     lower_bound: 2,
///     generated: 5,
///     expanded: 3,
///     elapsed: Duration::from_millis(250),
///     extra: (),
/// };
/// let record: Record<String> = report.record(|moves| moves.iter().collect());
/// assert_eq!((record.cost, record.moves.as_deref()), (Some(2), Some("LL")));
/// assert!(record.proven && !record.unsolvable && record.seconds == 0.25);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Record<V> {
    /// The solution's cost, or `None` without one.
    pub cost: Option<u32>,
    /// The solution's moves in the solver's notation, or `None` without one.
    pub moves: Option<V>,
    /// Whether the answer is proven: an optimal solution, or no solution at all.
    pub proven: bool,
    /// Whether the problem is proven to have no solution.
    pub unsolvable: bool,
    /// The lower bound of the start (`None` for a problem refused without a search).
    pub initial_bound: Option<u32>,
    /// The largest lower bound proven (`None` for a problem refused without a search).
    pub lower_bound: Option<u32>,
    /// Nodes generated.
    pub generated: u64,
    /// Nodes expanded.
    pub expanded: u64,
    /// Seconds of search.
    pub seconds: f64,
    /// Why the solve stopped short of a proof (`node limit reached`, ...), or `None`.
    pub stopped: Option<String>,
}

impl<V> Record<V> {
    /// The record of a problem refused as unsolvable without a search (a sliding-tile board
    /// of the wrong parity, say).
    pub fn refused_unsolvable() -> Self {
        Record {
            cost: None,
            moves: None,
            proven: true,
            unsolvable: true,
            initial_bound: None,
            lower_bound: None,
            generated: 0,
            expanded: 0,
            seconds: 0.0,
            stopped: None,
        }
    }
}

impl<M, X> Report<M, X> {
    /// This report in the shared words, its moves written by `moves`.
    pub fn record<V>(&self, moves: impl FnOnce(&[M]) -> V) -> Record<V> {
        Record {
            cost: self.cost(),
            moves: self.moves().map(moves),
            proven: self.proven(),
            unsolvable: self.is_unsolvable(),
            initial_bound: Some(self.initial_bound),
            lower_bound: Some(self.lower_bound),
            generated: self.generated,
            expanded: self.expanded,
            seconds: self.elapsed.as_secs_f64(),
            stopped: self.stopped.map(|why| why.to_string()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Ending, GiveUp};
    use std::time::Duration;

    #[test]
    fn a_stopped_report_has_no_answer_and_says_why() {
        let report: Report<char> = Report {
            ending: Ending::Stopped,
            stopped: Some(GiveUp::NodeLimit),
            initial_bound: 3,
            lower_bound: 7,
            generated: 10,
            expanded: 4,
            elapsed: Duration::ZERO,
            extra: (),
        };
        let record = report.record(|_| unreachable!("no moves to write"));
        assert_eq!(
            (record.cost, record.proven, record.stopped.as_deref()),
            (None::<u32>, false, Some("node limit reached"))
        );
        assert_eq!(
            (record.initial_bound, record.lower_bound),
            (Some(3), Some(7))
        );
        let refused = Record::<()>::refused_unsolvable();
        assert!(refused.proven && refused.unsolvable && refused.initial_bound.is_none());
    }
}
