//! `ply merge`'s generic part: the shards' logs of one batch, checked against each other and
//! put together into the report the whole run prints.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow, bail};

use super::{Contents, Header, Job, Shard};
use crate::format::plural;

/// What `ply merge` was asked.
#[derive(Debug, Clone, Default)]
pub(crate) struct Request {
    /// The logs.
    pub logs: Vec<PathBuf>,
    /// JSON instead of the table.
    pub json: bool,
    /// Also write `DIR/result.json` and `DIR/result.txt` here.
    pub out: Option<PathBuf>,
    /// Only check each log on its own: whole, and holding every item of its shard.
    pub check: bool,
}

/// A log, read and named.
struct Read<I> {
    name: String,
    header: Header,
    items: Vec<(u64, I)>,
}

/// At most this many items or shards are named in a message; the rest are counted.
const NAMED: usize = 8;

/// The first of `total` things as a message names them: all of them when they are few, else
/// the first [`NAMED`] and how many more.
fn named(first: &[String], total: u64) -> String {
    let shown = first.len().min(NAMED);
    let list = first[..shown].join(", ");
    match total.saturating_sub(shown as u64) {
        0 => list,
        more => format!("{list} and {more} more"),
    }
}

/// Reads the log at `path` with `J`'s reader.
fn read<J: Job>(path: &Path) -> Result<Read<J::Item>> {
    let name = path.display().to_string();
    let mut file = File::open(path).with_context(|| format!("cannot read {name}"))?;
    let Contents {
        header,
        items,
        unfinished,
        ..
    } = J::read_log(&mut file).map_err(|e| anyhow!("{name}:{}: {}", e.line, e.problem))?;
    if let Some(line) = unfinished {
        errln!(
            "ply: note: {name}:{line}: the last line is unfinished (the run writing it was \
             stopped); it is left out"
        );
    }
    let header = header.ok_or_else(|| anyhow!("{name} holds no header: nothing to merge"))?;
    Ok(Read {
        name,
        header,
        items,
    })
}

/// The items of `log`'s shard it lacks, numbered from 1.
fn missing_items<I>(log: &Read<I>) -> Vec<String> {
    let have: std::collections::HashSet<u64> = log.items.iter().map(|(i, _)| *i).collect();
    log.header
        .shard
        .items(log.header.items)
        .filter(|i| !have.contains(i))
        .take(NAMED + 1)
        .map(|i| (i + 1).to_string())
        .collect()
}

/// What `log` lacks of its own shard, as a message, if anything.
fn incomplete<J: Job, I>(log: &Read<I>) -> Option<String> {
    let missing = missing_items(log);
    if missing.is_empty() {
        return None;
    }
    let count = log.header.shard.size(log.header.items) - log.items.len() as u64;
    let numbers = named(&missing, count);
    Some(format!(
        "{} (shard {}) lacks {count} of its {}: {numbers}; run its shard again with --resume",
        log.name,
        log.header.shard,
        plural(log.header.shard.size(log.header.items), J::NOUN),
    ))
}

/// Merges the logs of `request` as a batch of `J`, prints the report (and writes it to
/// `--out`), then the problems it finds.
///
/// # Errors
/// Logs that cannot be read, that are of different runs, that miss a shard or an item or
/// hold one twice; a failed write; [`Reported`](crate::outcome::Reported) when the report
/// found problems.
pub(crate) fn merge<J: Job>(request: &Request) -> Result<()> {
    let logs = request
        .logs
        .iter()
        .map(|path| read::<J>(path))
        .collect::<Result<Vec<_>>>()?;
    if request.check {
        for log in &logs {
            if let Some(message) = incomplete::<J, _>(log) {
                bail!("{message}");
            }
        }
        return Ok(());
    }
    let first = &logs[0];
    for log in &logs[1..] {
        if let Some((field, a, b)) = first.header.difference(&log.header, false) {
            bail!(
                "{} and {} are not of one run: {field} is {a} in {}, {b} in {}",
                first.name,
                log.name,
                first.name,
                log.name
            );
        }
        if first.header.shard.count != log.header.shard.count {
            bail!(
                "{} is shard {} and {} is shard {}: the logs split the run in different \
                 numbers of shards",
                first.name,
                first.header.shard,
                log.name,
                log.header.shard
            );
        }
    }
    // Each shard once, and every shard.
    let count = first.header.shard.count;
    let mut shards: BTreeMap<u64, &Read<J::Item>> = BTreeMap::new();
    for log in &logs {
        if let Some(other) = shards.insert(log.header.shard.index, log) {
            bail!(
                "{} and {} are both shard {}",
                other.name,
                log.name,
                log.header.shard
            );
        }
    }
    let absent: Vec<String> = (1..=count)
        .filter(|k| !shards.contains_key(k))
        .take(NAMED + 1)
        .map(|index| Shard { index, count }.to_string())
        .collect();
    if !absent.is_empty() {
        let missing = count - shards.len() as u64;
        let names = named(&absent, missing);
        let (noun, verb) = if missing == 1 {
            ("shard", "is")
        } else {
            ("shards", "are")
        };
        bail!(
            "{noun} {names} {verb} missing: the logs given hold {} of {count}",
            plural(shards.len() as u64, "shard")
        );
    }
    for log in &logs {
        if let Some(message) = incomplete::<J, _>(log) {
            bail!("{message}");
        }
    }
    let work = logs[0].header.work.clone();
    // The shards hold their own items only (their reader checks), so they cannot overlap.
    let mut items = BTreeMap::new();
    for log in logs {
        let name = log.name;
        for (index, item) in log.items {
            if items.insert(index, item).is_some() {
                bail!(
                    "{} {} is logged twice (again in {name})",
                    J::NOUN,
                    index + 1
                );
            }
        }
    }
    let items: Vec<J::Item> = items.into_values().collect();
    if let Some(dir) = &request.out {
        write_results::<J>(dir, &work, &items)?;
    }
    super::print_report::<J>(&work, &items, request.json)
}

/// Writes the report as `DIR/result.json` and `DIR/result.txt`, each to a temporary name
/// first and then renamed, so that a result file is always whole.
fn write_results<J: Job>(
    dir: &Path,
    work: &serde_json::Map<String, serde_json::Value>,
    items: &[J::Item],
) -> Result<()> {
    crate::format::output_dir(dir)?;
    for (json, name) in [(true, "result.json"), (false, "result.txt")] {
        let mut text = Vec::new();
        J::report(work, items, json, &mut text)?;
        crate::format::write_whole(&dir.join(name), &text)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::named;

    #[test]
    fn long_lists_are_cut_short() {
        let numbers: Vec<String> = (1..=9).map(|i| i.to_string()).collect();
        assert_eq!(named(&numbers[..3], 3), "1, 2, 3");
        assert_eq!(named(&numbers, 9), "1, 2, 3, 4, 5, 6, 7, 8 and 1 more");
        assert_eq!(named(&numbers, 20), "1, 2, 3, 4, 5, 6, 7, 8 and 12 more");
    }
}
