//! End-to-end tests of `ply npuzzle` and `ply demo`: output format, exit codes, errors.

mod common;

use common::{path_in, ply, scratch_dir, text};

use ply_npuzzle::{Board, Direction, check_solution};

/// Korf's instance #2 (55 moves, h = 43 with Manhattan distance).
const KORF2: &str = "13 5 4 10 9 12 8 14 2 3 7 1 0 15 11 6";

#[test]
fn solve_prints_the_course_report_exactly() {
    let out = ply(
        &["npuzzle", "solve", "--heuristic", "manhattan", "-"],
        KORF2,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        lines[..7],
        [
            "Initial State:",
            "13 5 4 10",
            "9 12 8 14",
            "2 3 7 1",
            "0 15 11 6",
            "",
            "Initial Estimate = 43",
        ]
    );
    assert_eq!(lines[7], "Threshold = 43 45 47 49 51 53 55");
    assert_eq!(lines[8], "Solution = 55");
    // Korf (1985) reports 15,300,442 nodes for this instance, the root included.
    assert_eq!(lines[9], "Generated = 15,300,441");
    assert!(lines[10].starts_with("Expanded = "), "{}", lines[10]);
    let time = lines[11]
        .strip_prefix("Time (seconds) = ")
        .expect("time line");
    let (whole, frac) = time.split_once('.').expect("two decimals");
    assert!(whole.parse::<u32>().is_ok() && frac.len() == 2, "{time}");
    let rate = lines[12]
        .strip_prefix("Expanded/Second = ")
        .expect("rate line");
    assert!(
        rate.chars().all(|c| c.is_ascii_digit() || c == ','),
        "{rate}"
    );
    assert_eq!(lines.len(), 13);
}

#[test]
fn moves_replay_to_the_goal_and_instances_are_separated() {
    let input = "# two 8-puzzles\n1 2 5 3 4 0 6 7 8\n\n8 0 6 5 4 7 2 3 1\n";
    let out = ply(&["npuzzle", "solve", "--moves", "-"], input);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let blocks: Vec<&str> = stdout.split("\n\nInitial State:").collect();
    assert_eq!(blocks.len(), 2, "{stdout}");
    let starts = ["1 2 5 3 4 0 6 7 8", "8 0 6 5 4 7 2 3 1"];
    let expected = [3, 31];
    for ((block, start), cost) in blocks.iter().zip(starts).zip(expected) {
        let solution = block
            .lines()
            .find_map(|l| l.strip_prefix("Solution = "))
            .expect("solution line");
        assert_eq!(solution, cost.to_string());
        let moves: Vec<Direction> = block
            .lines()
            .find_map(|l| l.strip_prefix("Moves = "))
            .expect("moves line")
            .chars()
            .map(|c| Direction::from_letter(c).expect("move letter"))
            .collect();
        assert_eq!(moves.len(), cost);
        let board: Board = start.parse().unwrap();
        check_solution(&board, &moves).expect("moves reach the goal");
    }
}

#[test]
fn bad_input_is_one_line_naming_the_line_and_exit_1() {
    let cases = [
        ("1 2 3 4\n", "line 1", "found 4"),
        (
            "0 1 2 3 4 5 6 7 8\n0 1 2 3 4 5 6 7 7\n",
            "line 2",
            "appears twice",
        ),
        ("0 1 2 3 4 5 6 7 9\n", "line 1", "out of range"),
        (
            "\n\n0 1 2 3 4 5 6 7 x\n",
            "line 3",
            "'x' is not a tile number",
        ),
        ("0 2 1 3 4 5 6 7 8\n", "line 1", "unsolvable"),
        ("# nothing\n", "<stdin>", "no instance"),
    ];
    for (input, place, what) in cases {
        let out = ply(&["npuzzle", "solve", "-"], input);
        assert_eq!(out.status.code(), Some(1), "{input:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with("ply: error: "), "{stderr}");
        assert!(
            stderr.contains(place) && stderr.contains(what),
            "{input:?}: {stderr}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn missing_file_is_an_error() {
    let out = ply(&["npuzzle", "solve", "/nonexistent/ply-test.txt"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/nonexistent/ply-test.txt"));
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["npuzzle", "solve"][..],
        &["npuzzle", "solve", "--heuristic", "magic", "x"],
        &["npuzzle", "frobnicate"],
        &["nothing"],
    ] {
        let out = ply(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
    let out = ply(&["npuzzle", "solve", "--help"], "");
    assert!(out.status.success());
    assert!(text(&out.stdout).contains("--heuristic"));
}

#[test]
fn a_budget_gives_up_honestly() {
    let out = ply(
        &[
            "npuzzle",
            "solve",
            "--heuristic",
            "manhattan",
            "--max-nodes",
            "1000",
            "-",
        ],
        KORF2,
    );
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Solution = unknown (node limit reached; optimal >= 4"),
        "{stdout}"
    );
    assert!(text(&out.stderr).contains("gave up"));
}

#[test]
fn bench_reports_known_optima_as_json() {
    let out = ply(
        &["npuzzle", "bench", "--first", "3", "--json", "-"],
        &format!("a\t55\t\t{KORF2}\nb\t3\t\t1 2 5 3 4 0 6 7 8\n"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc["heuristic"], "linear-conflict");
    assert_eq!(doc["rows"][0]["optimal"], 55);
    assert_eq!(doc["rows"][1]["optimal"], 3);
    assert_eq!(doc["totals"]["solved"], 2);
}

#[test]
fn bench_rejects_a_wrong_known_optimum() {
    let out = ply(&["npuzzle", "bench", "-"], "a\t4\t\t1 2 5 3 4 0 6 7 8\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("known optimum is 4"));
}

#[test]
fn demo_prints_a_summary() {
    let out = ply(&["demo"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("npuzzle") && stdout.contains("optimal: 55 moves"),
        "{stdout}"
    );
}

fn generated(stdout: &str) -> u64 {
    let line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("Generated = "))
        .expect("generated line");
    line.replace(',', "").parse().expect("a count")
}

/// `ply npuzzle solve ARGS -` on Korf's #2.
fn solve_korf2(args: &[&str]) -> std::process::Output {
    ply(&[&["npuzzle", "solve"], args, &["-"]].concat(), KORF2)
}

/// `ply npuzzle pdb build --partition 5-5-5` into `dir`.
fn build_555(dir: &str) -> std::process::Output {
    ply(
        &[
            "npuzzle",
            "pdb",
            "build",
            "--partition",
            "5-5-5",
            "--pdb-dir",
            dir,
        ],
        "",
    )
}

#[test]
fn pattern_databases_build_list_and_solve() {
    let scratch = scratch_dir();
    let dir = path_in(&scratch, "pdb");
    let out = build_555(&dir);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let path = text(&out.stdout).trim().to_string();
    assert!(path.ends_with("npuzzle-4x4-5-5-5.pdb"), "{path}");
    assert!(std::path::Path::new(&path).is_file());
    assert!(text(&out.stderr).contains("built the 5-5-5"));

    let again = build_555(&dir);
    assert!(again.status.success());
    assert!(
        text(&again.stderr).contains("already built"),
        "{}",
        text(&again.stderr)
    );

    let list = ply(&["npuzzle", "pdb", "list", "--pdb-dir", &dir], "");
    let listing = text(&list.stdout);
    assert!(
        listing
            .lines()
            .any(|l| l.contains("5-5-5") && l.contains("ok")),
        "{listing}"
    );
    assert!(
        listing
            .lines()
            .any(|l| l.contains("7-8") && l.contains("missing")),
        "{listing}"
    );

    // The default is the strongest database present; it beats linear conflict.
    let pdb = solve_korf2(&["--pdb-dir", &dir]);
    assert!(pdb.status.success(), "{}", text(&pdb.stderr));
    assert!(text(&pdb.stderr).is_empty(), "{}", text(&pdb.stderr));
    assert!(text(&pdb.stdout).contains("Solution = 55"));
    let lc = solve_korf2(&["--heuristic", "linear-conflict"]);
    assert!(generated(&text(&pdb.stdout)) * 10 < generated(&text(&lc.stdout)));

    let bench = ply(
        &[
            "npuzzle",
            "bench",
            "--first",
            "5",
            "--json",
            "--heuristic",
            "pdb555",
            "--pdb-dir",
            &dir,
        ],
        "",
    );
    assert!(bench.status.success(), "{}", text(&bench.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&bench.stdout).expect("json");
    assert_eq!(doc["heuristic"], "pdb 5-5-5 + reflection");
    assert_eq!(doc["totals"]["solved"], 5);

    // A damaged file is refused when asked for, and passed over (with a warning) by default.
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&path, &bytes).unwrap();
    let bad = solve_korf2(&["--heuristic", "pdb555", "--pdb-dir", &dir]);
    assert_eq!(bad.status.code(), Some(1));
    let err = text(&bad.stderr);
    assert!(
        err.contains("checksum") && err.contains("ply npuzzle pdb build --partition 5-5-5"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(bad.stdout.is_empty());
    let fallback = solve_korf2(&["--pdb-dir", &dir]);
    assert!(fallback.status.success());
    let err = text(&fallback.stderr);
    assert!(
        err.contains("checksum") && err.contains("linear conflict"),
        "{err}"
    );
    assert!(text(&fallback.stdout).contains("Solution = 55"));
}

#[test]
fn a_missing_database_says_how_to_build_it_or_is_built() {
    let scratch = scratch_dir();
    let dir = path_in(&scratch, "pdb");
    let out = solve_korf2(&["--heuristic", "pdb663", "--pdb-dir", &dir]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("ply: error: ")
            && err.contains("not found")
            && err.contains("ply npuzzle pdb build --partition 6-6-3")
            && err.contains("--build-missing"),
        "{err}"
    );
    let built = solve_korf2(&[
        "--heuristic",
        "pdb555",
        "--build-missing",
        "--pdb-dir",
        &dir,
    ]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    assert!(text(&built.stdout).contains("Solution = 55"));
    assert!(
        std::path::Path::new(&dir)
            .join("npuzzle-4x4-5-5-5.pdb")
            .is_file()
    );
    // Without any database the default notes that linear conflict stands in.
    let plain = solve_korf2(&[]);
    assert!(plain.status.success());
    assert!(
        text(&plain.stderr).contains("using linear conflict"),
        "{}",
        text(&plain.stderr)
    );
}

#[test]
fn a_database_for_another_size_is_a_clear_error() {
    let out = ply(
        &["npuzzle", "solve", "--heuristic", "pdb78", "-"],
        "1 2 5 3 4 0 6 7 8\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is for 4x4 boards, not 3x3"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn a_database_that_cannot_be_written_is_refused_before_it_is_built() {
    let scratch = scratch_dir();
    // A directory under a regular file cannot exist, whoever runs the test.
    let file = path_in(&scratch, "plain");
    std::fs::write(&file, "x").unwrap();
    let under_file = format!("{file}/pdb");
    let out = ply(
        &[
            "npuzzle",
            "pdb",
            "build",
            "--partition",
            "7-8",
            "--pdb-dir",
            &under_file,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("ply: error: ") && stderr.contains("Not a directory"),
        "{stderr}"
    );
    assert!(!stderr.contains("built"), "{stderr}");
    // A directory where the file would go is named, and left alone.
    let dir = path_in(&scratch, "pdb");
    std::fs::create_dir_all(format!("{dir}/npuzzle-4x4-5-5-5.pdb")).unwrap();
    let out = ply(
        &[
            "npuzzle",
            "pdb",
            "build",
            "--partition",
            "5-5-5",
            "--pdb-dir",
            &dir,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("is a directory, not a database file"),
        "{}",
        text(&out.stderr)
    );
    assert!(std::path::Path::new(&format!("{dir}/npuzzle-4x4-5-5-5.pdb")).is_dir());
}
