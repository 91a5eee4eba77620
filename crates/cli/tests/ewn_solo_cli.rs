//! End-to-end tests of `ply ewn solo`: the course's output, the checker, the generator, errors.

mod common;

use common::{path_in, ply, scratch_dir, temp_file, text};

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::path::PathBuf;
use std::process::Command;

fn data(name: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/ewn-solo")
        .join(name)
        .display()
        .to_string()
}

const SAMPLE: &str = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n";

#[test]
fn solve_prints_three_lines_from_stdin() {
    let started = std::time::Instant::now();
    let out = ply(&["ewn", "solo", "solve"], SAMPLE);
    let wall = started.elapsed().as_secs_f64();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{stdout}");
    let seconds: f64 = lines[0].parse().expect("seconds");
    assert_eq!(lines[0].split('.').nth(1).map(str::len), Some(6));
    assert!(
        seconds <= wall + 0.1,
        "printed {seconds} s, observed {wall} s"
    );
    let moves: usize = lines[1].parse().expect("move count");
    assert!(moves <= 16, "the sample has a 16-move solution");
    assert_eq!(lines[2].split_whitespace().count(), 2 * moves);
    // The solution passes the checker as optimal.
    let instance = temp_file("sample.in", SAMPLE);
    let solution = temp_file("sample.out", &stdout);
    let check = ply(&["ewn", "solo", "check", &instance, &solution], "");
    assert!(check.status.success(), "{}", text(&check.stdout));
    assert!(
        text(&check.stdout).starts_with("legal and optimal"),
        "{}",
        text(&check.stdout)
    );
}

#[test]
fn zero_moves_leave_the_third_line_empty() {
    let out = ply(&["ewn", "solo", "solve", &data("tcg2024-public/1.1")], "");
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.split('\n').collect();
    assert_eq!(lines.len(), 4, "{stdout:?}");
    assert_eq!(lines[1], "0");
    assert_eq!(lines[2], "");
}

#[test]
fn explain_describes_moves_on_stderr() {
    let out = ply(
        &[
            "ewn",
            "solo",
            "solve",
            "--explain",
            &data("tcg2024-public/1.2"),
        ],
        "",
    );
    assert!(out.status.success());
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 6, "{stderr}");
    assert!(
        stderr
            .lines()
            .all(|l| l.contains("die") && l.contains("piece"))
    );
}

#[test]
fn checker_grades_the_course_sample() {
    let out = ply(
        &[
            "ewn",
            "solo",
            "check",
            &data("sample.in"),
            &data("sample.out"),
        ],
        "",
    );
    assert!(out.status.success());
    let verdict = text(&out.stdout);
    assert!(verdict.starts_with("legal"), "{verdict}");
    let truncated = temp_file("short.out", "0.1\n2\n36 45 45 55\n");
    let out = ply(
        &["ewn", "solo", "check", &data("sample.in"), &truncated],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).starts_with("goal not reached"));
    let illegal = temp_file("bad.out", "0.1\n1\n62 52\n");
    let out = ply(&["ewn", "solo", "check", &data("sample.in"), &illegal], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stdout).starts_with("illegal at move 1"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn the_checker_does_not_trust_an_instances_4th_line() {
    let solved = ply(&["ewn", "solo", "solve"], SAMPLE);
    let optimum: u32 = text(&solved.stdout)
        .lines()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let solution = temp_file("opt.out", &text(&solved.stdout));
    for stated in [optimum - 5, optimum + 1] {
        let instance = temp_file("lying.in", &format!("{SAMPLE}{stated}\n"));
        let out = ply(&["ewn", "solo", "check", &instance, &solution], "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert!(
            text(&out.stdout).starts_with("legal and optimal"),
            "stated {stated}: {}",
            text(&out.stdout)
        );
        assert!(
            text(&out.stderr).contains(&format!(
                "the 4th line says {stated} moves, but the optimum is {optimum}"
            )),
            "{}",
            text(&out.stderr)
        );
    }
}

#[test]
fn malformed_input_names_the_line() {
    let out = ply(
        &["ewn", "solo", "solve"],
        "2\n62 26 66 42 32\n665545154156655451541566554515\n",
    );
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("ply: error: <stdin>: line 2: expected 6 cells"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn no_solution_is_reported_with_exit_1() {
    let out = ply(
        &["ewn", "solo", "solve"],
        &format!("6\n0 55 56 57 58 99\n{}\n", "1".repeat(30)),
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("no solution"));
    assert!(out.stdout.is_empty());
}

#[test]
fn generator_is_deterministic_and_its_optima_check_out() {
    let args = [
        "ewn",
        "solo",
        "gen",
        "--seed",
        "11",
        "--count",
        "3",
        "--max-moves",
        "12",
    ];
    let first = ply(&args, "");
    assert!(first.status.success(), "{}", text(&first.stderr));
    assert_eq!(first.stdout, ply(&args, "").stdout);
    let set = temp_file("gen.txt", &text(&first.stdout));
    let bench = ply(&["ewn", "solo", "bench", "--json", &set], "");
    assert!(bench.status.success(), "{}", text(&bench.stderr));
    let rows: serde_json::Value = serde_json::from_slice(&bench.stdout).expect("json");
    assert_eq!(rows.as_array().map(Vec::len), Some(3));
    for (i, row) in rows.as_array().unwrap().iter().enumerate() {
        assert_eq!(row["index"], i + 1, "instances count from 1");
        // Python's words: the cost, the moves as [from, to] pairs.
        assert_eq!(row["cost"], row["known_optimum"]);
        assert!(row["cost"].as_u64().unwrap() <= 12);
        assert_eq!(
            row["moves"].as_array().map(Vec::len),
            row["cost"].as_u64().map(|c| c as usize)
        );
        assert_eq!(row["proven"], true);
    }
}

#[test]
fn bench_prints_its_table_then_a_wrong_optimum_in_words() {
    let set = temp_file("set.txt", &format!("{SAMPLE}19\n\n{SAMPLE}16\n"));
    let out = ply(&["ewn", "solo", "bench", &set], "");
    assert_eq!(out.status.code(), Some(1));
    let table = text(&out.stdout);
    assert!(table.contains("2 instances, total"), "{table}");
    assert_eq!(table.matches("┆ 16 ").count(), 2, "{table}");
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("ply: error: ")
            && stderr.ends_with("#1: the solver proved 16 moves, but the file says 19 moves\n"),
        "{stderr}"
    );
    assert!(!stderr.contains("Some("), "{stderr}");
}

#[test]
fn unsolvable_instances_are_generated_with_the_default_draws() {
    let out = ply(
        &[
            "ewn",
            "solo",
            "gen",
            "--seed",
            "1",
            "--count",
            "3",
            "--unsolvable",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let set = text(&out.stdout);
    assert_eq!(set.lines().filter(|l| *l == "none").count(), 3, "{set}");
    let file = temp_file("unsolvable.txt", &set);
    let bench = ply(&["ewn", "solo", "bench", "--json", &file], "");
    assert!(bench.status.success(), "{}", text(&bench.stderr));
    let rows: serde_json::Value = serde_json::from_slice(&bench.stdout).expect("json");
    assert!(
        rows.as_array()
            .unwrap()
            .iter()
            .all(|r| r["moves"].is_null()),
        "{rows}"
    );
    // An unsolvable instance has no optimum to range over.
    let out = ply(
        &[
            "ewn",
            "solo",
            "gen",
            "--seed",
            "1",
            "--count",
            "1",
            "--unsolvable",
            "--min-moves",
            "3",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("'--unsolvable' cannot be used with '--min-moves"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_checker_refuses_a_negative_or_nan_time() {
    let instance = data("tcg2024-public/1.1");
    for time in ["-5", "NaN", "inf"] {
        let solution = temp_file("time.out", &format!("{time}\n0\n\n"));
        let out = ply(&["ewn", "solo", "check", &instance, &solution], "");
        assert_eq!(out.status.code(), Some(1), "{time}");
        assert!(
            text(&out.stderr).contains(&format!(
                "line 1: expected the running time in seconds, found '{time}'"
            )),
            "{time}: {}",
            text(&out.stderr)
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn gen_out_keeps_existing_files_and_never_follows_a_symbolic_link() {
    let scratch = scratch_dir();
    let dir = path_in(&scratch, "set");
    let gen_into = |extra: &[&str]| {
        let args = [
            &[
                "ewn", "solo", "gen", "--seed", "1", "--count", "2", "--out", &dir,
            ][..],
            extra,
        ]
        .concat();
        ply(&args, "")
    };
    assert!(gen_into(&[]).status.success());
    let first = format!("{dir}/1-1.in");
    let original = std::fs::read_to_string(&first).unwrap();
    std::fs::write(&first, "mine\n").unwrap();
    let again = gen_into(&[]);
    assert_eq!(again.status.code(), Some(1));
    assert!(
        text(&again.stderr).contains(&format!(
            "{first} already exists (and 1 more file); --force replaces instance files"
        )),
        "{}",
        text(&again.stderr)
    );
    assert_eq!(std::fs::read_to_string(&first).unwrap(), "mine\n");
    assert!(gen_into(&["--force"]).status.success());
    assert_eq!(std::fs::read_to_string(&first).unwrap(), original);
    // A symbolic link is refused, --force or not, and its target is left alone.
    let target = path_in(&scratch, "keep.txt");
    std::fs::write(&target, "keep\n").unwrap();
    std::fs::remove_file(&first).unwrap();
    std::os::unix::fs::symlink(&target, &first).unwrap();
    for extra in [&[][..], &["--force"]] {
        let out = gen_into(extra);
        assert_eq!(out.status.code(), Some(1), "{extra:?}");
        assert!(
            text(&out.stderr).contains(&format!(
                "{first} is a symbolic link; refusing to write through it"
            )),
            "{}",
            text(&out.stderr)
        );
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep\n");
    }
    // A regular file named as the directory.
    let out = ply(
        &[
            "ewn", "solo", "gen", "--seed", "1", "--count", "1", "--out", &target,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim_end(),
        format!("ply: error: --out {target}: not a directory")
    );
}

#[test]
fn absurd_time_limits_are_no_limit() {
    for limit in ["9.3e18", "1e19", "1.8e19"] {
        let out = ply(&["ewn", "solo", "solve", "--time-limit", limit], SAMPLE);
        assert!(out.status.success(), "{limit}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout).lines().nth(1), Some("16"));
    }
}

#[test]
fn file_names_need_not_be_utf8_and_a_byte_order_mark_is_skipped() {
    let scratch = scratch_dir();
    let mut name = scratch.path().as_os_str().as_bytes().to_vec();
    name.extend_from_slice(b"/s\xff.in");
    let path = OsStr::from_bytes(&name);
    std::fs::write(path, format!("\u{feff}{SAMPLE}")).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            OsStr::new("ewn"),
            OsStr::new("solo"),
            OsStr::new("solve"),
            path,
        ])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout).lines().nth(1), Some("16"));
}

#[test]
fn a_huge_token_is_quoted_short() {
    let token = "9".repeat(1 << 20);
    let out = ply(&["ewn", "solo", "solve"], &format!("x{token}\n"));
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.len() < 200, "{} bytes", stderr.len());
    assert!(
        stderr.contains(&format!("goal piece 'x{}...' is not 1..6", &token[..39])),
        "{stderr}"
    );
}
