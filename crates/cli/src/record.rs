//! A solve's record as one JSON line: every `solve --json` and `bench --json` of an optimal
//! solver writes ply-search's [`Record`](ply_search::Record) (the Python package's words) with
//! its moves as JSON, so the command, the studio and the binding say the same thing.

use serde::Serialize;
use serde_json::Value;

/// The shared record with its moves as JSON (docs/protocols.md, "Solve records").
pub(crate) type Record = ply_search::Record<Value>;

/// The record of `report`, its moves written by `moves`.
pub(crate) fn record<M, X>(
    report: &ply_search::Report<M, X>,
    moves: impl FnOnce(&[M]) -> Value,
) -> Record {
    report.record(moves)
}

/// The record of a problem refused as unsolvable without a search.
pub(crate) fn refused_unsolvable() -> Record {
    Record::refused_unsolvable()
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
    use ply_search::{Ending, Report};
    use std::time::Duration;

    #[test]
    fn a_record_serializes_in_the_python_words() {
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
    }
}
