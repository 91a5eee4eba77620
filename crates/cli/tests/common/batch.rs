//! Helpers of the batch tests: a command run whole and in shards, the shards merged, and the
//! two compared with the measured times left out.

use super::{path_in, ply, scratch_dir, text};
use serde_json::Value;
use std::process::Output;

/// The keys of measured times in the commands' JSON.
const TIMES: [&str; 7] = [
    "seconds",
    "generated_per_second",
    "elapsed",
    "secs",
    "time",
    "games_per_second",
    "games_per_thread_second",
];

/// `value` without the measured times, at any depth.
pub(crate) fn without_times(mut value: Value) -> Value {
    fn strip(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.retain(|key, _| !TIMES.contains(&key.as_str()));
                map.values_mut().for_each(strip);
            }
            Value::Array(items) => items.iter_mut().for_each(strip),
            _ => {}
        }
    }
    strip(&mut value);
    value
}

/// Standard output parsed as JSON, without the measured times.
pub(crate) fn json_of(out: &Output) -> Value {
    let value: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}{}", text(&out.stdout), text(&out.stderr)));
    without_times(value)
}

/// Whether `word` is a decimal number such as `0.123` (a measured time outside the table).
fn decimal(word: &str) -> bool {
    let word = word.trim_end_matches([',', '.']);
    word.split_once('.').is_some_and(|(a, b)| {
        !a.is_empty()
            && !b.is_empty()
            && a.bytes().all(|c| c.is_ascii_digit())
            && b.bytes().all(|c| c.is_ascii_digit())
    })
}

/// A table as its rows of trimmed cells, with the columns `times` masked, and the other
/// lines with their decimal numbers masked (so that neither the times nor the widths they
/// give the columns count); lines starting with one of `dropped` are left out.
pub(crate) fn table_of(out: &Output, times: &[usize], dropped: &[&str]) -> Vec<String> {
    text(&out.stdout)
        .lines()
        .filter(|line| !dropped.iter().any(|d| line.starts_with(d)))
        .filter(|line| !line.starts_with(['┌', '╞', '└', '├']))
        .map(|line| {
            if line.contains('│') {
                line.trim_matches('│')
                    .split(['│', '┆'])
                    .enumerate()
                    .map(|(i, cell)| if times.contains(&i) { "#" } else { cell.trim() })
                    .collect::<Vec<_>>()
                    .join("|")
            } else {
                line.split(' ')
                    .map(|word| if decimal(word) { "#" } else { word })
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        })
        .collect()
}

/// The error lines of standard error.
pub(crate) fn errors_of(out: &Output) -> Vec<String> {
    text(&out.stderr)
        .lines()
        .filter(|line| line.starts_with("ply: error:"))
        .map(str::to_string)
        .collect()
}

/// Runs `ply args`.
pub(crate) fn run(args: &[String]) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    ply(&args, "")
}

/// `args` followed by `more`.
pub(crate) fn with(args: &[String], more: &[&str]) -> Vec<String> {
    args.iter()
        .cloned()
        .chain(more.iter().map(|s| (*s).to_string()))
        .collect()
}

/// Runs the batch `args` whole (its table, then its JSON; `whole_extra` goes to the first
/// run only), then in N = 1, 2 and 7 shards with their logs, merges each set of logs (given
/// in reverse order), and asserts that the merge prints the whole run's table and JSON, its
/// errors and its exit status, the measured times and the columns `times` left out. Returns
/// each N with the directory of its logs, `shard-K.jsonl`.
pub(crate) fn shards_equal_whole(
    args: &[String],
    whole_extra: &[&str],
    times: &[usize],
    dropped: &[&str],
) -> Vec<(u64, tempfile::TempDir)> {
    let whole = run(&with(args, whole_extra));
    let whole_json = run(&with(args, &["--json"]));
    assert!(
        matches!(whole.status.code(), Some(0 | 1)) && whole_json.status == whole.status,
        "{}",
        text(&whole.stderr)
    );
    let expected_table = table_of(&whole, times, dropped);
    assert!(expected_table.len() > 2, "{expected_table:?}");
    let expected_json = json_of(&whole_json);
    let mut sets = Vec::new();
    for n in [1u64, 2, 7] {
        let dir = scratch_dir();
        let mut logs = Vec::new();
        for k in 1..=n {
            let log = path_in(&dir, &format!("shard-{k}.jsonl"));
            let out = run(&with(
                args,
                &["--shard", &format!("{k}/{n}"), "--log", &log],
            ));
            let stderr = text(&out.stderr);
            assert!(matches!(out.status.code(), Some(0 | 1)), "{stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
            logs.push(log);
        }
        logs.reverse();
        let merge = |json: bool| {
            let mut all = vec!["merge".to_string()];
            if json {
                all.push("--json".into());
            }
            all.extend(logs.iter().cloned());
            run(&all)
        };
        let merged = merge(false);
        assert_eq!(
            merged.status.code(),
            whole.status.code(),
            "N = {n}: {}",
            text(&merged.stderr)
        );
        assert_eq!(errors_of(&merged), errors_of(&whole), "N = {n}");
        assert_eq!(table_of(&merged, times, dropped), expected_table, "N = {n}");
        let merged_json = merge(true);
        assert_eq!(json_of(&merged_json), expected_json, "N = {n}");
        sets.push((n, dir));
    }
    sets
}
