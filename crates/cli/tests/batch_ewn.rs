//! `ply ewn solo bench` and `ply ewn tournament` in shards: merged, the shards print what the
//! whole run prints; a tournament's shards play the very games, move for move, of the whole
//! tournament, and the merge recomputes its ratings and its test from them.

mod common;

use common::batch::{shards_equal_whole, without_times};
use common::{path_in, ply, scratch_dir, text};

/// The command line of this build's agent `kind`.
fn agent(kind: &str) -> String {
    format!("{} ewn agent {kind}", env!("CARGO_BIN_EXE_ply"))
}

/// The arguments, owned.
fn owned(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

#[test]
fn a_sharded_solo_bench_merges_to_the_whole_bench() {
    let dir = scratch_dir();
    // Two files, so that the items run across a file's end.
    let mut files = Vec::new();
    for (seed, count) in [("3", "5"), ("4", "4")] {
        let out = ply(
            &[
                "ewn",
                "solo",
                "gen",
                "--seed",
                seed,
                "--count",
                count,
                "--max-moves",
                "10",
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let file = path_in(&dir, &format!("seed-{seed}.in"));
        std::fs::write(&file, &out.stdout).unwrap();
        files.push(file);
    }
    let args = owned(&["ewn", "solo", "bench", &files[0], &files[1]]);
    shards_equal_whole(&args, &[], &[4], &[]);
}

/// A log's games by index, without the measured move times.
fn games(logs: &[String]) -> std::collections::BTreeMap<u64, serde_json::Value> {
    let mut games = std::collections::BTreeMap::new();
    for log in logs {
        for line in std::fs::read_to_string(log).unwrap().lines().skip(1) {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            let index = value["game"]["pairing"]["index"].as_u64().unwrap();
            assert!(
                games.insert(index, without_times(value)).is_none(),
                "game {index} twice"
            );
        }
    }
    games
}

#[test]
fn a_sharded_tournament_plays_the_same_games_and_merges_to_the_same_standings() {
    let (a, b, c) = (
        format!("easy={}", agent("random --seed 3")),
        format!("normal={}", agent("alphabeta --depth 2")),
        format!("other={}", agent("random --seed 4")),
    );
    let dir = scratch_dir();
    let whole_log = path_in(&dir, "whole.jsonl");
    let args = owned(&[
        "ewn",
        "tournament",
        &a,
        &b,
        &c,
        "--openings",
        "3",
        "-j",
        "2",
        "--move-time",
        "2",
    ]);
    let sets = shards_equal_whole(&args, &["--log", &whole_log], &[], &[]);
    let whole = games(&[whole_log]);
    assert_eq!(whole.len(), 18);
    for (n, dir) in &sets {
        let logs: Vec<String> = (1..=*n)
            .map(|k| path_in(dir, &format!("shard-{k}.jsonl")))
            .collect();
        assert_eq!(
            games(&logs),
            whole,
            "N = {n}: the same games, move for move"
        );
    }
}

#[test]
fn a_sharded_test_is_recomputed_from_every_shard() {
    let (a, b) = (
        format!("normal={}", agent("alphabeta --depth 2")),
        format!("easy={}", agent("random --seed 5")),
    );
    // A narrow test stays open over these 8 games, so that the whole run plays them all.
    let args = owned(&[
        "ewn",
        "tournament",
        &a,
        &b,
        "--openings",
        "4",
        "-j",
        "2",
        "--move-time",
        "2",
        "--sprt",
        "0,5",
    ]);
    shards_equal_whole(&args, &[], &[], &[]);
}

#[test]
fn a_tournament_log_from_before_shards_still_merges_but_is_not_resumed() {
    let (a, b) = (
        format!("a={}", agent("random --seed 1")),
        format!("b={}", agent("random --seed 2")),
    );
    let dir = scratch_dir();
    let log = path_in(&dir, "old.jsonl");
    let args = ["ewn", "tournament", &a, &b, "--openings", "2", "-j", "1"];
    let mut with_log = args.to_vec();
    with_log.extend_from_slice(&["--log", &log, "--json"]);
    let whole = ply(&with_log, "");
    assert!(whole.status.success(), "{}", text(&whole.stderr));
    // The header as ply wrote it before shards: no version, shard or number of games.
    let text_now = std::fs::read_to_string(&log).unwrap();
    let (head, games) = text_now.split_once('\n').unwrap();
    let mut header: serde_json::Value = serde_json::from_str(head).unwrap();
    let fields = header["tournament"].as_object_mut().unwrap();
    for field in ["version", "shard", "games"] {
        assert!(fields.remove(field).is_some(), "{field}");
    }
    std::fs::write(&log, format!("{header}\n{games}")).unwrap();
    let merged = ply(&["merge", "--json", &log], "");
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    assert_eq!(
        without_times(serde_json::from_slice(&merged.stdout).unwrap()),
        without_times(serde_json::from_slice(&whole.stdout).unwrap())
    );
    let replay_missing = ply(&["ewn", "replay", &log, "--game", "9"], "");
    assert!(
        text(&replay_missing.stderr).contains("the log holds 4 games"),
        "{}",
        text(&replay_missing.stderr)
    );
    let mut resume = args.to_vec();
    resume.extend_from_slice(&["--log", &log, "--resume"]);
    let out = ply(&resume, "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("its ply version is unrecorded"),
        "{}",
        text(&out.stderr)
    );
}
