//! End-to-end tests of `ply npuzzle` and `ply demo`: output format, exit codes, errors.

mod common;

use common::tty::Tty;
use common::{path_in, ply, scratch_dir, temp_file, text};
use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
fn bench_shows_every_row_then_names_a_wrong_known_optimum() {
    let out = ply(
        &["npuzzle", "bench", "-"],
        "a\t4\t\t1 2 5 3 4 0 6 7 8\nb\t2\t\t1 2 0 3 4 5 6 7 8\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let table = text(&out.stdout);
    assert!(table.contains("2/2 solved"), "{table}");
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.trim_end(),
        "ply: error: <stdin>: line 1 (id a): the file says the optimum is 4, but the solver \
         proved it is 3"
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
    assert_eq!(doc["heuristic"], "pdb 5-5-5 + reflection + fsm 12");
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

/// Runs `ply args` with the database variables of the environment replaced by `env` (unset
/// where `None`), so that the user's own `HOME` and caches play no part.
fn ply_env(args: &[&str], env: &[(&str, Option<&str>)]) -> std::process::Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_ply"));
    command.args(args).stdin(Stdio::null());
    for name in ["HOME", "XDG_CACHE_HOME", "PLY_PDB_DIR"] {
        command.env_remove(name);
    }
    for (name, value) in env {
        if let Some(value) = value {
            command.env(name, value);
        }
    }
    command.output().expect("ply runs")
}

/// Runs `command`, failing the test (and killing it) if it has not ended after a minute: for
/// commands that used to block forever.
fn output_within_a_minute(mut command: Command) -> std::process::Output {
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ply starts");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("ply blocked for a minute");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.wait_with_output().expect("ply ends")
}

#[test]
fn tab_separated_tiles_are_a_plain_board() {
    let out = ply(&["npuzzle", "solve", "-"], "1\t2\t0\t3\t4\t5\t6\t7\t8\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("Solution = 2"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_wrong_optimum_in_the_file_is_a_warning_and_every_instance_is_answered() {
    let set = format!("k1\t56\t14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3\nk2\t\t{KORF2}\n");
    let file = temp_file("w.tsv", &set);
    let out = ply(
        &["npuzzle", "solve", "--heuristic", "linear-conflict", &file],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("Solution = 57") && stdout.contains("Solution = 55"),
        "{stdout}"
    );
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("ply: warning: ")
            && stderr.contains(
                "line 1 (id k1): the file says the optimum is 56, but the solver proved it is 57"
            ),
        "{stderr}"
    );
}

#[test]
fn an_unsolvable_line_is_reported_and_the_others_answered() {
    let input = "1 2 0 3 4 5 6 7 8\n0 2 1 3 4 5 6 7 8\n1 2 5 3 4 0 6 7 8\n";
    let out = ply(&["npuzzle", "solve", "-"], input);
    assert_eq!(out.status.code(), Some(1));
    let stdout = text(&out.stdout);
    assert_eq!(stdout.matches("Initial State:").count(), 3, "{stdout}");
    let solutions: Vec<&str> = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("Solution = "))
        .collect();
    assert_eq!(solutions, ["2", "none (unsolvable)", "3"], "{stdout}");
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("ply: error: <stdin>: line 2: unsolvable"),
        "{stderr}"
    );
}

#[test]
fn without_home_the_default_falls_back_to_linear_conflict() {
    let file = temp_file("korf2.txt", KORF2);
    let out = ply_env(&["npuzzle", "solve", &file], &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Solution = 55"));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("ply: note: no pattern database directory")
            && stderr.contains("using linear conflict"),
        "{stderr}"
    );
    // A database asked for by name needs a directory, and says so.
    let out = ply_env(&["npuzzle", "solve", "--heuristic", "pdb555", &file], &[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("no pattern database directory for --heuristic pdb555"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_database_directory_follows_the_variables() {
    let scratch = scratch_dir();
    let home = path_in(&scratch, "home");
    let listed = |env: &[(&str, Option<&str>)]| {
        let out = ply_env(&["npuzzle", "pdb", "list"], env);
        assert!(out.status.success(), "{}", text(&out.stderr));
        text(&out.stdout)
            .lines()
            .next()
            .unwrap_or_default()
            .to_string()
    };
    let cache = format!("directory: {home}/.cache/ply");
    // An empty PLY_PDB_DIR is unset, and a relative XDG_CACHE_HOME is ignored.
    assert_eq!(
        listed(&[("HOME", Some(&home)), ("PLY_PDB_DIR", Some(""))]),
        cache
    );
    assert_eq!(
        listed(&[
            ("HOME", Some(&home)),
            ("XDG_CACHE_HOME", Some("relative/cache"))
        ]),
        cache
    );
    let xdg = path_in(&scratch, "xdg");
    assert_eq!(
        listed(&[("HOME", Some(&home)), ("XDG_CACHE_HOME", Some(&xdg))]),
        format!("directory: {xdg}/ply")
    );
    let own = path_in(&scratch, "own");
    assert_eq!(
        listed(&[("HOME", Some(&home)), ("PLY_PDB_DIR", Some(&own))]),
        format!("directory: {own}")
    );
}

#[test]
fn a_regular_file_as_the_database_directory_is_named() {
    let scratch = scratch_dir();
    let file = path_in(&scratch, "plain");
    std::fs::write(&file, "x").unwrap();
    let korf2 = temp_file("korf2.txt", KORF2);
    for args in [
        &[
            "npuzzle",
            "pdb",
            "build",
            "--partition",
            "5-5-5",
            "--pdb-dir",
            &file,
        ][..],
        &["npuzzle", "pdb", "list", "--pdb-dir", &file],
        &["npuzzle", "solve", "--pdb-dir", &file, &korf2],
    ] {
        // Nothing on standard input: ply ends before it would read it.
        let out = ply(args, "");
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(
            stderr.trim_end(),
            format!("ply: error: {file}: not a directory (the pattern database directory)"),
            "{args:?}"
        );
    }
}

#[test]
fn a_fifo_in_place_of_a_database_is_refused_without_blocking() {
    let scratch = scratch_dir();
    let dir = path_in(&scratch, "pdb");
    std::fs::create_dir(&dir).unwrap();
    let fifo = format!("{dir}/npuzzle-4x4-5-5-5.pdb");
    assert!(
        Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap()
            .success()
    );
    let mut list = Command::new(env!("CARGO_BIN_EXE_ply"));
    list.args(["npuzzle", "pdb", "list", "--pdb-dir", &dir]);
    let out = output_within_a_minute(list);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listing = text(&out.stdout);
    assert!(
        listing
            .lines()
            .any(|l| l.contains("5-5-5") && l.contains("a FIFO, not a regular file")),
        "{listing}"
    );
    let korf2 = temp_file("korf2.txt", KORF2);
    let mut solve = Command::new(env!("CARGO_BIN_EXE_ply"));
    solve.args([
        "npuzzle",
        "solve",
        "--heuristic",
        "pdb555",
        "--pdb-dir",
        &dir,
        &korf2,
    ]);
    let out = output_within_a_minute(solve);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("a FIFO, not a regular file"),
        "{}",
        text(&out.stderr)
    );
    // Without --heuristic the strongest database is a FIFO too: a warning names it, the note
    // says that none was usable (not that none is there), and linear conflict solves.
    std::fs::rename(&fifo, format!("{dir}/npuzzle-4x4-7-8.pdb")).unwrap();
    let mut solve = Command::new(env!("CARGO_BIN_EXE_ply"));
    solve.args(["npuzzle", "solve", "--pdb-dir", &dir, &korf2]);
    let out = output_within_a_minute(solve);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<&str> = stderr.lines().collect();
    assert!(
        lines[0].starts_with("ply: warning: ") && lines[0].contains("7-8.pdb: a FIFO"),
        "{stderr}"
    );
    assert!(
        lines[1].starts_with("ply: note: no usable pattern database for 4x4 boards"),
        "{stderr}"
    );
}

#[test]
fn temporary_files_of_interrupted_builds_are_listed_then_swept() {
    let scratch = scratch_dir();
    let dir = path_in(&scratch, "pdb");
    std::fs::create_dir(&dir).unwrap();
    // No process can have this id (Linux's ids stop at 2^22).
    let stale = format!("{dir}/npuzzle-4x4-6-6-3.pdb.tmp2147483000");
    std::fs::write(&stale, vec![0u8; 3 << 20]).unwrap();
    let list = ply(&["npuzzle", "pdb", "list", "--pdb-dir", &dir], "");
    assert!(list.status.success());
    assert!(
        text(&list.stdout)
            .contains("left by an interrupted build: npuzzle-4x4-6-6-3.pdb.tmp2147483000 (3 MiB)"),
        "{}",
        text(&list.stdout)
    );
    assert!(
        std::path::Path::new(&stale).exists(),
        "list removes nothing"
    );
    let build = build_555(&dir);
    assert!(build.status.success(), "{}", text(&build.stderr));
    assert!(
        text(&build.stderr).contains(&format!("removed {stale}, left by an interrupted build")),
        "{}",
        text(&build.stderr)
    );
    assert!(!std::path::Path::new(&stale).exists());
    let list = ply(&["npuzzle", "pdb", "list", "--pdb-dir", &dir], "");
    assert!(
        !text(&list.stdout).contains("interrupted"),
        "{}",
        text(&list.stdout)
    );
}

#[test]
fn a_build_stopped_by_a_file_size_limit_leaves_no_temporary_file() {
    let scratch = scratch_dir();
    let dir = path_in(&scratch, "pdb");
    // The 5-5-5 file is 790 KB; the limit allows 64 blocks of at most 1 KiB.
    let out = Command::new("sh")
        .arg("-c")
        .arg("ulimit -f 64; exec \"$0\" npuzzle pdb build --partition 5-5-5 --pdb-dir \"$1\"")
        .arg(env!("CARGO_BIN_EXE_ply"))
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("File too large"), "{stderr}");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn bench_json_ids_are_numbers_where_they_are_numeric() {
    let out = ply(&["npuzzle", "bench", "--first", "2", "--json"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc["rows"][0]["id"], 1);
    assert_eq!(doc["rows"][1]["id"], 2);
    let out = ply(
        &["npuzzle", "bench", "--json", "-"],
        "x7\t3\t\t1 2 5 3 4 0 6 7 8\n\n1 2 0 3 4 5 6 7 8\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(doc["rows"][0]["id"], "x7");
    assert_eq!(doc["rows"][1]["id"], serde_json::Value::Null);
    assert_eq!(doc["rows"][1]["line"], 3);
}

#[test]
fn bench_leaves_no_progress_line_behind() {
    let scratch = scratch_dir();
    let dir = path_in(&scratch, "pdb");
    let set = temp_file("one.tsv", &format!("2\t55\t\t{KORF2}\n"));
    let mut tty = Tty::spawn(&["npuzzle", "bench", "--pdb-dir", &dir, &set], 80, 24);
    assert!(tty.wait_exit().success());
    let screen = tty.screen();
    assert!(screen.contains("1/1 solved"), "{screen}");
    assert!(
        screen.starts_with("ply: note: no pattern database for 4x4 boards"),
        "{screen}"
    );
    assert!(!screen.contains("npuzzle bench ["), "{screen}");
}

#[test]
fn absurd_time_limits_are_no_limit() {
    for limit in ["9.3e18", "1e19", "1.8e19"] {
        let out = ply(
            &["npuzzle", "solve", "--time-limit", limit, "-"],
            "1 2 5 3 4 0 6 7 8\n",
        );
        assert!(out.status.success(), "{limit}: {}", text(&out.stderr));
        assert!(text(&out.stdout).contains("Solution = 3"));
    }
}

#[test]
fn file_names_need_not_be_utf8_and_a_byte_order_mark_is_skipped() {
    let scratch = scratch_dir();
    let mut name = scratch.path().as_os_str().as_bytes().to_vec();
    name.extend_from_slice(b"/k\xff.txt");
    let path = OsStr::from_bytes(&name);
    std::fs::write(path, "\u{feff}1 2 5 3 4 0 6 7 8\n").unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([OsStr::new("npuzzle"), OsStr::new("solve"), path])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains("Solution = 3"));
}

#[test]
fn a_huge_token_is_quoted_short() {
    let token = "7".repeat(1 << 20);
    let out = ply(
        &["npuzzle", "solve", "-"],
        &format!("0 1 2 3 4 5 6 7 x{token}\n"),
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.len() < 200, "{} bytes", stderr.len());
    assert!(stderr.contains(&format!("'x{}...' is not a tile number", &token[..39])));
}

/// Waits until process `pid` catches SIGINT (its handler is installed), as /proc says.
fn catches_sigint(pid: u32) {
    let start = std::time::Instant::now();
    loop {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let caught = status
            .lines()
            .find_map(|l| l.strip_prefix("SigCgt:"))
            .and_then(|mask| u64::from_str_radix(mask.trim(), 16).ok())
            .unwrap_or(0);
        if caught & (1 << (2 - 1)) != 0 {
            return;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "ply never installed its SIGINT handler"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

#[test]
fn an_interrupted_solve_prints_its_report_with_the_bound_it_proved() {
    // Korf's #88 with Manhattan distance takes a minute or more: it is stopped mid-search,
    // with its output going to a pipe, not a terminal.
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["npuzzle", "solve", "--heuristic", "manhattan", "-"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut child = child;
    {
        use std::io::Write as _;
        let mut stdin = child.stdin.take().unwrap();
        stdin
            .write_all(b"15 2 12 11 14 13 9 5 1 3 8 7 0 10 6 4\n")
            .unwrap();
    }
    catches_sigint(child.id());
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(stdout.contains("Initial Estimate = 43"), "{stdout}");
    assert!(
        stdout.contains("Solution = unknown (stopped; optimal >= "),
        "{stdout}"
    );
    assert!(stdout.contains("Generated = "), "{stdout}");
    assert!(
        text(&out.stderr).contains("interrupted while solving <stdin>: line 1"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn duplicate_pruning_keeps_the_optimum_and_generates_fewer_nodes() {
    let generated = |depth: &str| {
        let out = ply(
            &[
                "npuzzle",
                "solve",
                "--heuristic",
                "manhattan",
                "--fsm-depth",
                depth,
                "-",
            ],
            KORF2,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("Solution = 55\n"), "{stdout}");
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix("Generated = "))
            .expect("a Generated line")
            .replace(',', "");
        line.parse::<u64>().expect("a count")
    };
    // Depth 2 is parent pruning: Korf's count less the root.
    assert_eq!(generated("2"), 15_300_441);
    assert!(generated("12") < 15_300_441 * 2 / 3);
    let out = ply(&["npuzzle", "solve", "--fsm-depth", "1", "-"], KORF2);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
}

#[test]
fn a_star_then_ida_star_keeps_the_optimum() {
    for states in ["1", "5000"] {
        let out = ply(
            &[
                "npuzzle",
                "solve",
                "--heuristic",
                "linear-conflict",
                "--astar-states",
                states,
                "--threads",
                "2",
                "--moves",
                "-",
            ],
            KORF2,
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        assert!(stdout.contains("Solution = 55\n"), "{stdout}");
    }
    for bad in ["-3", "100000001"] {
        let out = ply(&["npuzzle", "solve", "--astar-states", bad, "-"], KORF2);
        assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    }
}
