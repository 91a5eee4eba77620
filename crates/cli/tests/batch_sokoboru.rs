//! `ply sokoboru bench` in shards: merged, the shards print what the whole bench prints.

mod common;

use common::batch::shards_equal_whole;
use common::{ply, text};

/// The bundled tiny puzzles.
fn tiny() -> String {
    format!("{}/../../data/sokoboru/tiny.in", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn a_sharded_bench_merges_to_the_whole_bench() {
    let args: Vec<String> = ["sokoboru", "bench", &tiny(), "--threads", "1"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    shards_equal_whole(&args, &[], &[6], &[]);
}

#[test]
fn a_case_out_of_budget_is_shown_and_named() {
    let out = ply(
        &[
            "sokoboru",
            "bench",
            &tiny(),
            "--max-nodes",
            "300",
            "--threads",
            "1",
        ],
        "",
    );
    let stdout = text(&out.stdout);
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stdout.contains("10 cases"), "{stdout}");
    assert!(stdout.contains("gave up (optimum >= "), "{stdout}");
    assert!(
        stderr.contains("tiny.in: case 10: no solution found"),
        "{stderr}"
    );
    assert!(!stderr.contains("case 4:"), "case 4 is solved: {stderr}");
}
