//! A solve's record as JSON, in the words of the Python package (`cost`, `moves`, `proven`,
//! `initial_bound`, `lower_bound`, `generated`, `expanded`, `seconds`, `stopped`): every
//! `solve --json` and `bench --json` of an optimal solver writes ply-search's report through
//! [`record`], so the command and the binding say the same thing in the same words.

use ply_search::Report;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The words of a solve (docs/protocols.md, "Solve records").
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub(crate) struct Record {
    /// The solution's cost, or `null` without one.
    pub(crate) cost: Option<u32>,
    /// The solution's moves in the solver's notation, or `null` without one.
    pub(crate) moves: Option<Value>,
    /// Whether the answer is proven: an optimal solution, or no solution at all.
    pub(crate) proven: bool,
    /// Whether the problem is proven to have no solution.
    pub(crate) unsolvable: bool,
    /// The lower bound of the start (`null` for a board refused without a search).
    pub(crate) initial_bound: Option<u32>,
    /// The largest lower bound proven (`null` for a board refused without a search).
    pub(crate) lower_bound: Option<u32>,
    /// Nodes generated.
    pub(crate) generated: u64,
    /// Nodes expanded.
    pub(crate) expanded: u64,
    /// Seconds of search.
    pub(crate) seconds: f64,
    /// Why the solve stopped short of a proof (`node limit reached`, ...), or `null`.
    pub(crate) stopped: Option<String>,
}

/// The record of `report`, its moves written by `moves`.
pub(crate) fn record<M, X>(report: &Report<M, X>, moves: impl FnOnce(&[M]) -> Value) -> Record {
    Record {
        cost: report.cost(),
        moves: report.moves().map(moves),
        proven: report.proven(),
        unsolvable: report.is_unsolvable(),
        initial_bound: Some(report.initial_bound),
        lower_bound: Some(report.lower_bound),
        generated: report.generated,
        expanded: report.expanded,
        seconds: report.elapsed.as_secs_f64(),
        stopped: report.stopped.map(|why| why.to_string()),
    }
}

/// The record of a problem refused as unsolvable without a search (a sliding-tile board of
/// the wrong parity).
pub(crate) fn refused_unsolvable() -> Record {
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

/// Writes `value` as one line of JSON on standard output (a record of `solve --json`).
pub(crate) fn write_line(value: &impl Serialize) -> anyhow::Result<()> {
    let line = serde_json::to_string(value)?;
    outln!("{line}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_search::{Ending, GiveUp};
    use std::time::Duration;

    #[test]
    fn a_record_speaks_the_python_words() {
        let report: Report<char> = Report {
            ending: Ending::Solved {
                cost: 2,
                moves: vec!['L', 'L'],
            },
            stopped: None,
            initial_bound: 1,
            lower_bound: 2,
            generated: 5,
            expanded: 3,
            elapsed: Duration::from_millis(250),
            extra: (),
        };
        let json =
            serde_json::to_value(record(&report, |m| Value::String(m.iter().collect()))).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "cost": 2, "moves": "LL", "proven": true, "unsolvable": false,
                "initial_bound": 1, "lower_bound": 2, "generated": 5, "expanded": 3,
                "seconds": 0.25, "stopped": null
            })
        );
        let stopped = Report {
            ending: Ending::Stopped,
            stopped: Some(GiveUp::NodeLimit),
            ..report
        };
        let json = record(&stopped, |_| Value::Null);
        assert_eq!(
            (json.cost, json.proven, json.stopped.as_deref()),
            (None, false, Some("node limit reached"))
        );
    }
}
