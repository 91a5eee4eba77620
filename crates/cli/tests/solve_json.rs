//! `solve --json` of the optimal solvers: a record a line in the words of the Python
//! package's solutions (python/tests/test_json_words.py compares the values with Python's).

mod common;

use common::{ply, temp_file, text};
use serde_json::Value;

/// The words every record holds.
const WORDS: [&str; 10] = [
    "cost",
    "moves",
    "proven",
    "unsolvable",
    "initial_bound",
    "lower_bound",
    "generated",
    "expanded",
    "seconds",
    "stopped",
];

/// The records of `ply ARGS`, one a line, each holding every word.
fn records(args: &[&str], stdin: &str) -> (Vec<Value>, Option<i32>) {
    let out = ply(args, stdin);
    let lines: Vec<Value> = text(&out.stdout)
        .lines()
        .map(|line| serde_json::from_str(line).expect("a JSON line"))
        .collect();
    for line in &lines {
        for word in WORDS {
            assert!(line.get(word).is_some(), "{word} missing from {line}");
        }
    }
    (lines, out.status.code())
}

#[test]
fn npuzzle_records_each_instance_and_an_unsolvable_board_without_a_search() {
    let (lines, status) = records(
        &["npuzzle", "solve", "--json", "-"],
        "1 2 0 3 4 5 6 7 8\n2 1 0 3 4 5 6 7 8\n",
    );
    assert_eq!(status, Some(1), "the unsolvable board fails the command");
    assert_eq!(lines.len(), 2);
    let solved = &lines[0];
    assert_eq!(
        (&solved["cost"], &solved["moves"], &solved["proven"]),
        (&Value::from(2), &Value::from("LL"), &Value::from(true))
    );
    assert_eq!(solved["lower_bound"], solved["cost"]);
    assert_eq!(solved["thresholds"], serde_json::json!([2]));
    let refused = &lines[1];
    assert_eq!(refused["unsolvable"], true);
    assert!(refused["initial_bound"].is_null() && refused["cost"].is_null());
    let (stopped, _) = records(
        &[
            "npuzzle",
            "solve",
            "--json",
            "--heuristic",
            "manhattan",
            "--max-nodes",
            "10",
            "-",
        ],
        "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\n",
    );
    assert_eq!(stopped[0]["stopped"], "node limit reached");
    assert_eq!(stopped[0]["proven"], false);
}

#[test]
fn ewn_solo_and_sokoboru_records_say_the_same_words() {
    let sample = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n";
    let (solo, status) = records(&["ewn", "solo", "solve", "--json"], sample);
    assert_eq!(status, Some(0));
    assert_eq!(solo[0]["cost"], 16);
    assert_eq!(solo[0]["moves"].as_array().map(Vec::len), Some(16));
    assert_eq!(solo[0]["moves"][0], serde_json::json!([36, 25]));
    let puzzles = temp_file("two.in", "1 6\n@O---$\n1 4\n$@O-\n");
    let (cases, status) = records(&["sokoboru", "solve", "--json", &puzzles], "");
    assert_eq!(status, Some(1), "the unsolvable case fails the command");
    assert_eq!(cases[0]["case"], 1);
    assert_eq!(
        (&cases[0]["cost"], &cases[0]["moves"]),
        (&Value::from(1), &Value::from(">"))
    );
    assert_eq!(
        (&cases[1]["unsolvable"], &cases[1]["proven"]),
        (&Value::from(true), &Value::from(true))
    );
}
