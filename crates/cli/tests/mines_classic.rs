//! `ply mines classic`: a seeded game solved and replayed, the win-rate bench in shards, and
//! boards the rules refuse.

mod common;

use common::batch::shards_equal_whole;
use common::{ply, text};

#[test]
fn a_seeded_game_is_solved_the_same_way_twice() {
    let args = [
        "mines", "classic", "solve", "--level", "beginner", "--seed", "5", "--game", "3",
    ];
    let first = ply(&args, "");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let out = text(&first.stdout);
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("won: 71 of 71") || last.starts_with("lost: "),
        "{out}"
    );
    assert_eq!(text(&ply(&args, "").stdout), out);
    // JSON: the moves, the first at the rule's default cell and certain.
    let json = ply(&[&args[..], &["--json"]].concat(), "");
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let first_move = &doc["moves"][0];
    assert_eq!(
        (first_move["row"].as_u64(), first_move["col"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(first_move["certain"], true);
    let won = doc["won"].as_bool().unwrap();
    assert_eq!(won, last.starts_with("won"));
}

#[test]
fn a_sharded_bench_merges_to_the_whole_bench() {
    let args: Vec<String> = [
        "mines",
        "classic",
        "bench",
        "--level",
        "beginner",
        "--rule",
        "zero",
        "--games",
        "2500",
        "--seed",
        "3",
        "--threads",
        "2",
    ]
    .map(String::from)
    .to_vec();
    // Column 6 is the games a second.
    shards_equal_whole(&args, &[], &[6], &[]);
}

#[test]
fn boards_the_rules_refuse_are_usage_errors() {
    for (args, needle) in [
        (
            vec!["--width", "3", "--height", "3", "--mines", "9"],
            "do not fit",
        ),
        (
            vec!["--width", "0", "--height", "3", "--mines", "1"],
            "each side",
        ),
        (
            vec!["--level", "expert", "--start", "16,0"],
            "off the 30 x 16 board",
        ),
        (
            vec!["--level", "expert", "--rule", "zero", "--width", "3"],
            "cannot be used",
        ),
        (vec!["--level", "huge"], "unknown level"),
        (vec!["--start", "1"], "ROW,COL"),
    ] {
        let all = [&["mines", "classic", "solve"][..], &args[..]].concat();
        let out = ply(&all, "");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {stderr}");
        assert!(stderr.contains(needle), "{all:?}: {stderr}");
        assert_eq!(
            stderr
                .trim()
                .lines()
                .filter(|l| l.contains("error"))
                .count(),
            1,
            "{stderr}"
        );
    }
}

#[test]
fn the_endgame_setting_is_recorded_and_zero_turns_it_off() {
    let run = |endgame: &str| {
        let args = [
            "mines",
            "classic",
            "bench",
            "--level",
            "beginner",
            "--games",
            "400",
            "--seed",
            "11",
            "--json",
            "--endgame",
            endgame,
        ];
        let out = ply(&args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let doc: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
        assert_eq!(doc["endgame"], endgame.parse::<u64>().unwrap());
        doc["wins"].as_u64().unwrap()
    };
    let exact = run("500");
    let off = run("0");
    // Exact play in the endgame never wins a board less often on average; on 400 boards
    // it wins at least as many as the heuristics alone minus a few games of noise.
    assert!(exact + 5 >= off, "{exact} against {off}");
}
