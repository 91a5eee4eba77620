//! `ply npuzzle bench` in shards: merged, the shards print what the whole bench prints.

mod common;

use common::batch::{errors_of, shards_equal_whole};
use common::{path_in, scratch_dir};

/// Nine easy 15-puzzle boards (40 random moves from the goal) and, fifth, one that cannot be
/// solved, which the bench names after its table and fails on.
const BOARDS: &str = "\
4 6 0 3 5 2 7 10 12 14 1 15 13 9 11 8
8 3 0 1 5 4 2 7 9 14 6 10 12 13 15 11
1 10 7 2 6 12 5 3 0 8 11 15 9 4 13 14
12 11 2 3 1 0 6 7 4 5 9 10 8 13 14 15
0 2 1 3 4 5 6 7 8 9 10 11 12 13 14 15
5 6 1 10 12 4 2 0 9 15 7 3 13 8 11 14
2 9 6 3 1 5 7 11 4 13 15 14 12 0 10 8
1 5 6 3 2 15 4 11 8 7 0 14 12 9 13 10
1 2 6 10 4 3 5 7 12 8 0 15 9 13 11 14
5 3 7 6 1 11 2 15 4 9 8 14 12 0 13 10
";

#[test]
fn a_sharded_bench_merges_to_the_whole_bench() {
    let dir = scratch_dir();
    let boards = path_in(&dir, "boards.txt");
    std::fs::write(&boards, BOARDS).unwrap();
    let args: Vec<String> = [
        "npuzzle",
        "bench",
        &boards,
        "--heuristic",
        "linear-conflict",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let whole = common::batch::run(&args);
    assert_eq!(whole.status.code(), Some(1));
    let errors = errors_of(&whole);
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with(&format!("ply: error: {boards}: line 5: unsolvable")),
        "{errors:?}"
    );
    shards_equal_whole(&args, &[], &[5], &["generated per second"]);
}
