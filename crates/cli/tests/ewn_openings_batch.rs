//! `ply ewn openings prove` as a batch: its shards merged print what the whole run prints and
//! hold its very records; a log cut mid-line resumes without a duplicate; a merge without
//! one of the shards names it; `--emit-slurm` gives the cluster's script.
//!
//! The starts get a node budget (`--max-nodes`), which ends every proof at the same place on
//! every machine and at any load, and keeps the runs short in a debug build.

mod common;

use std::collections::BTreeMap;

use common::batch::{errors_of, json_of, run, table_of, with, without_times};
use common::{path_in, scratch_dir, text};
use serde_json::Value;

/// The course's first dice line.
const DICE: &str = "343242404031241152042";

/// The summary table's column of measured seconds.
const SECONDS: usize = 6;

/// Eight starts of [`DICE`], 800 positions each: six that red wins within them (in 190 to
/// 700 positions), two left open; three drawn for the second prover.
fn prove(dir: &tempfile::TempDir) -> Vec<String> {
    let starts = path_in(dir, "starts.txt");
    std::fs::write(
        &starts,
        "141092\n160757\n162515 # open\n188214\n273470\n301689\n493518\n104327 # open\n",
    )
    .unwrap();
    [
        "ewn",
        "openings",
        "prove",
        "--dice",
        DICE,
        "--starts",
        &starts,
        "--max-nodes",
        "800",
        "--memory",
        "8",
        "--verify",
        "3",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// The records of batch logs by item, without the measured seconds; each item once.
fn records(logs: &[String]) -> BTreeMap<u64, Value> {
    let mut out = BTreeMap::new();
    for log in logs {
        let text = std::fs::read_to_string(log).unwrap();
        let mut lines = text.lines();
        let header: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(header["batch"]["command"], "ewn openings prove", "{header}");
        for line in lines {
            let value: Value = serde_json::from_str(line).unwrap();
            let item = value["item"].as_u64().unwrap();
            let result = without_times(value["result"].clone());
            assert!(out.insert(item, result).is_none(), "item {item} twice");
        }
    }
    out
}

/// Asserts that `out` succeeded.
fn ok(out: &std::process::Output) {
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
}

#[test]
fn shards_merged_print_the_whole_run_and_hold_its_records() {
    let dir = scratch_dir();
    let args = prove(&dir);
    let whole_log = path_in(&dir, "whole.jsonl");
    let whole = run(&with(&args, &["--log", &whole_log]));
    ok(&whole);
    let whole_json = run(&with(&args, &["--json"]));
    ok(&whole_json);
    // Without --log the records go to standard output and the summary to standard error.
    let summary: Value = serde_json::from_slice(&whole_json.stderr).unwrap();
    let expected_json = without_times(summary);
    let checked = &expected_json["checked"];
    assert_eq!(checked["drawn"], 3, "{expected_json}");
    assert_eq!(checked["lines"], 6, "{expected_json}");
    assert_eq!(expected_json["lines"][0]["open"], 2, "{expected_json}");
    let expected_table = table_of(&whole, &[SECONDS], &[]);
    assert!(
        expected_table.iter().any(|l| l.starts_with(DICE)),
        "{expected_table:?}"
    );
    let expected = records(std::slice::from_ref(&whole_log));
    assert_eq!(expected.len(), 8);
    for (n, out_of) in [(1u64, "1/1"), (2, "2/2"), (7, "7/7")] {
        let dir = scratch_dir();
        let mut logs = Vec::new();
        for k in 1..=n {
            let log = path_in(&dir, &format!("shard-{k}.jsonl"));
            ok(&run(&with(
                &args,
                &["--shard", &format!("{k}/{n}"), "--log", &log],
            )));
            logs.push(log);
        }
        assert_eq!(records(&logs), expected, "N = {n}: the same records");
        logs.reverse();
        let merged = run(&with(&["merge".to_string()], &to_str(&logs)));
        ok(&merged);
        assert_eq!(errors_of(&merged), errors_of(&whole), "{out_of}");
        assert_eq!(
            table_of(&merged, &[SECONDS], &[]),
            expected_table,
            "N = {n}"
        );
        let mut json = vec!["merge".to_string(), "--json".to_string()];
        json.extend(logs.iter().cloned());
        assert_eq!(json_of(&run(&json)), expected_json, "N = {n}");
    }
}

/// The paths as `&str`s.
fn to_str(paths: &[String]) -> Vec<&str> {
    paths.iter().map(String::as_str).collect()
}

#[test]
fn a_cut_log_resumes_without_duplicates() {
    let dir = scratch_dir();
    let args = prove(&dir);
    let whole_log = path_in(&dir, "whole.jsonl");
    let whole = run(&with(&args, &["--log", &whole_log]));
    ok(&whole);
    // The header, two records and half of the third: a run stopped while writing.
    let text_whole = std::fs::read_to_string(&whole_log).unwrap();
    let lines: Vec<&str> = text_whole.lines().collect();
    let cut = path_in(&dir, "cut.jsonl");
    let third = lines[3];
    std::fs::write(
        &cut,
        format!(
            "{}\n{}\n{}\n{}",
            lines[0],
            lines[1],
            lines[2],
            &third[..third.len() / 2]
        ),
    )
    .unwrap();
    let resumed = run(&with(&args, &["--log", &cut, "--resume"]));
    ok(&resumed);
    assert!(
        text(&resumed.stderr).contains(":4: the last line is unfinished"),
        "{}",
        text(&resumed.stderr)
    );
    assert_eq!(
        records(std::slice::from_ref(&cut)),
        records(std::slice::from_ref(&whole_log))
    );
    assert_eq!(
        table_of(&resumed, &[SECONDS], &[]),
        table_of(&whole, &[SECONDS], &[])
    );
    // A resumed run of other work is refused, naming what differs.
    let other = run(&with(
        &["ewn", "openings", "prove", "--dice", DICE, "--sample", "8"].map(String::from),
        &["--log", &cut, "--resume"],
    ));
    assert_eq!(other.status.code(), Some(1), "{}", text(&other.stderr));
    assert!(
        text(&other.stderr).contains("the log is of another prove"),
        "{}",
        text(&other.stderr)
    );
}

#[test]
fn a_merge_without_a_shard_names_it() {
    let dir = scratch_dir();
    let args = prove(&dir);
    let mut logs = Vec::new();
    for k in [1, 3] {
        let log = path_in(&dir, &format!("shard-{k}.jsonl"));
        ok(&run(&with(
            &args,
            &["--shard", &format!("{k}/3"), "--log", &log],
        )));
        logs.push(log);
    }
    let merged = run(&with(&["merge".to_string()], &to_str(&logs)));
    assert_eq!(merged.status.code(), Some(1), "{}", text(&merged.stderr));
    let err = text(&merged.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("ply: error: shard 2/3 is missing"), "{err}");
    assert!(merged.stdout.is_empty());
}

#[test]
fn emit_slurm_runs_the_shards_and_the_merge() {
    let dir = scratch_dir();
    let args = prove(&dir);
    let out_dir = path_in(&dir, "out");
    let out = run(&with(&args, &["--emit-slurm", "3", "--out", &out_dir]));
    ok(&out);
    let script = text(&out.stdout);
    for expected in [
        "#SBATCH --array=1-3%3\n",
        "'ewn' 'openings' 'prove' '--dice' '343242404031241152042' ",
        "--shard \"$task/3\" --log \"$log\" --resume\n",
        " merge --out ",
    ] {
        assert!(script.contains(expected), "{expected}\n{script}");
    }
}
