//! The logs of `ply ewn openings prove`: one item a start (its record, and what the second
//! prover found of it when it was drawn for one), and their one reader, which every front end
//! (`ply ewn openings verify` and `summary`, any other program) reads them with.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use thiserror::Error;

use super::OpeningRecord;

/// The command a batch log of the prover names in its header (docs/protocols.md).
pub const PROVE_COMMAND: &str = "ewn openings prove";

/// What the second prover found of a start drawn for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Check {
    /// It proved the record's winner.
    Confirmed,
    /// It could not decide within its budget.
    Undecided,
    /// The record is open: nothing to confirm.
    Open,
}

/// One start's result, a line of a log: its record and, for a start drawn for the second
/// prover, what that found.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningItem {
    /// The start's record.
    #[serde(flatten)]
    pub record: OpeningRecord,
    /// What the second prover found, for a start drawn for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub check: Option<Check>,
}

/// Why a log cannot be read.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LogError {
    /// A line that is no record of the prover (or a batch log of another command).
    #[error("line {line}: {problem}")]
    Line {
        /// Its number, from 1.
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// No line holds a record.
    #[error("no record")]
    Empty,
}

/// A line of a batch log of the prover: the item is its result.
#[derive(Deserialize)]
struct LoggedStart {
    result: OpeningItem,
}

/// The command a batch log's header line names, if `line` is one.
fn batch_command(line: &str) -> Option<String> {
    let value: Value = serde_json::from_str(line).ok()?;
    let object = value.as_object().filter(|o| o.len() == 1)?;
    if object.contains_key("tournament") {
        return Some("ewn tournament".to_string());
    }
    Some(object.get("batch")?.get("command")?.as_str()?.to_string())
}

/// The records of a log's `text`, each with its line number (from 1): a batch log (`ply ewn
/// openings prove --log`: a header, then one line per start) or the prover's standard output
/// (one item a line). Blank lines are skipped.
///
/// ```
/// use ply_ewn::duel::openings::read_log;
/// let err = read_log("{\"batch\": {\"command\": \"npuzzle bench\"}}\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 1: a log of `ply npuzzle bench`, not of `ply ewn openings prove`");
/// ```
///
/// # Errors
/// The first line that is no record, a batch log of another command, or a log without any
/// record.
pub fn read_log(text: &str) -> Result<Vec<(usize, OpeningRecord)>, LogError> {
    let mut out = Vec::new();
    let mut batch = false;
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let line_error = |problem: String| LogError::Line {
            line: number + 1,
            problem,
        };
        if out.is_empty()
            && !batch
            && let Some(command) = batch_command(line)
        {
            if command != PROVE_COMMAND {
                return Err(line_error(format!(
                    "a log of `ply {command}`, not of `ply {PROVE_COMMAND}`"
                )));
            }
            batch = true;
            continue;
        }
        let item = if batch {
            serde_json::from_str::<LoggedStart>(line).map(|l| l.result)
        } else {
            serde_json::from_str::<OpeningItem>(line)
        };
        let item = item.map_err(|e| line_error(format!("not a record of {PROVE_COMMAND}: {e}")))?;
        out.push((number + 1, item.record));
    }
    if out.is_empty() {
        return Err(LogError::Empty);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::Prover;
    use crate::duel::openings::OpeningProver;
    use crate::duel::rules::course_dice;

    fn line() -> [u8; crate::duel::DICE] {
        course_dice()[0]
    }
    use ply_search::Limits;

    /// A proven start's item, as `prove` prints it.
    fn item() -> OpeningItem {
        let mut prover = OpeningProver::new(Prover::new(16));
        let record = prover.prove(&line(), 0, &Limits::default().with_max_nodes(10_000));
        OpeningItem {
            record,
            check: Some(Check::Undecided),
        }
    }

    #[test]
    fn printed_and_logged_items_read_as_the_same_records() {
        let item = item();
        let line = serde_json::to_string(&item).unwrap();
        let printed = format!("\n{line}\n{line}\n");
        let records = read_log(&printed).unwrap();
        assert_eq!(records.len(), 2);
        assert_eq!((records[0].0, &records[0].1), (2, &item.record));
        let header = r#"{"batch": {"command": "ewn openings prove", "work": {}}}"#;
        let logged = format!("{header}\n{{\"item\": 0, \"result\": {line}}}\n");
        assert_eq!(read_log(&logged).unwrap(), vec![(2, item.record)]);
    }

    #[test]
    fn a_log_of_another_command_or_of_nothing_is_refused_naming_the_line() {
        let tournament = read_log("{\"tournament\": {}}\n").unwrap_err();
        assert_eq!(
            tournament.to_string(),
            "line 1: a log of `ply ewn tournament`, not of `ply ewn openings prove`"
        );
        let garbage = read_log("\n{\"dice\": 1}\n").unwrap_err();
        assert!(
            matches!(&garbage, LogError::Line { line: 2, problem }
                if problem.starts_with("not a record of ewn openings prove: ")),
            "{garbage}"
        );
        assert_eq!(read_log("\n \n"), Err(LogError::Empty));
    }
}
