//! End-to-end tests of `ply sokoboru`: solve, verify, errors.

mod common;

use common::{ply, temp_file, text};

fn data(name: &str) -> String {
    format!("{}/../../data/sokoboru/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn solves_tiny_optimally_and_the_verifier_accepts_it() {
    let out = ply(&["sokoboru", "solve", "--stats", &data("tiny.in")], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 20);
    let penalties: Vec<u32> = lines
        .iter()
        .step_by(2)
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(penalties, [44, 14, 28, 23, 18, 26, 22, 23, 24, 37]);
    assert!(
        lines
            .iter()
            .skip(1)
            .step_by(2)
            .all(|l| l.chars().all(|c| "^v<>".contains(c)))
    );
    assert_eq!(
        text(&out.stderr).lines().count(),
        10,
        "one stats line per case"
    );
    let solutions = temp_file("tiny.out", &stdout);
    let verify = ply(
        &[
            "sokoboru",
            "verify",
            "-i",
            &data("tiny.in"),
            "-o",
            &solutions,
        ],
        "",
    );
    assert!(verify.status.success(), "{}", text(&verify.stdout));
    assert!(text(&verify.stdout).contains("all 10 cases accepted, total penalty 259"));
}

#[test]
fn verifier_rejections_name_case_and_move() {
    let puzzle = temp_file("one.in", "1 6\n@O---$\n");
    let cases = [
        (
            "2\n>\n",
            "case 1: the file says penalty 2 but the moves cost 1",
        ),
        ("1\n<\n", "case 1: move 1 ('<') is illegal"),
        ("0\n\n", "case 1: 1 empty box left"),
        (
            "1\n>\n1\n>\n",
            "the solution file has 2 cases, the puzzle file 1",
        ),
        ("x\n>\n", "case 1, line 1: expected a penalty"),
    ];
    for (solution, want) in cases {
        let file = temp_file("one.out", solution);
        let out = ply(&["sokoboru", "verify", "-i", &puzzle, "-o", &file], "");
        assert_eq!(out.status.code(), Some(1), "{solution:?}");
        let all = text(&out.stdout) + &text(&out.stderr);
        assert!(all.contains(want), "{solution:?}: {all}");
    }
}

#[test]
fn bad_puzzles_name_case_and_line() {
    let out = ply(&["sokoboru", "solve", "-"], "2 2\n@$\nO-\n2 3\n@$O\nO-\n");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with("ply: error: <stdin>: case 2, line 6: row 2 has 2 characters"),
        "{stderr}"
    );
    let out = ply(&["sokoboru", "verify", "-i", "-"], "2 2\n@$\nOO\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("2 balls but 1 empty box"));
}

#[test]
fn an_unsolvable_case_keeps_the_file_valid_and_the_verifier_names_it() {
    let puzzles = temp_file("unsolvable.in", "1 4\n$@O-\n1 3\n@O$\n");
    let out = ply(&["sokoboru", "solve", &puzzles], "");
    assert_eq!(out.status.code(), Some(1));
    // An empty answer in the unsolvable case's place, so that the file stays well-formed.
    assert_eq!(text(&out.stdout), "0\n\n1\n>\n");
    assert!(
        text(&out.stderr).contains("case 1: proven unsolvable"),
        "{}",
        text(&out.stderr)
    );
    let solutions = temp_file("unsolvable.out", &text(&out.stdout));
    let verify = ply(
        &["sokoboru", "verify", "-i", &puzzles, "-o", &solutions],
        "",
    );
    assert_eq!(verify.status.code(), Some(1));
    let report = text(&verify.stdout);
    assert!(report.contains("case 1: 1 empty box left"), "{report}");
    assert!(report.contains("case 2: accepted, penalty 1"), "{report}");
}

#[test]
fn a_case_given_up_prints_its_best_solution_with_a_note() {
    // small.in's first case (optimum 26): 2,000 nodes find a solution but prove nothing.
    let first = case("small.in", 1);
    assert!(first.starts_with("5 5\n"));
    let puzzle = temp_file("small-case1.in", &first);
    let out = ply(&["sokoboru", "solve", "--max-nodes", "2000", &puzzle], "");
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "every case is answered: {stderr}"
    );
    let note = Note::of(&stderr, 1, "within --max-nodes");
    assert!((1..=26).contains(&note.lower), "{stderr}");
    assert!(note.penalty >= 26, "never below the optimum");
    // Every search of the case shares the budget, and the note counts them all.
    assert!(
        (1_000..=2_100).contains(&note.generated),
        "{} states: {stderr}",
        note.generated
    );
    assert!(!stderr.contains("ply: error"), "{stderr}");
    let stdout = text(&out.stdout);
    assert_eq!(
        stdout.lines().next(),
        Some(note.penalty.to_string().as_str())
    );
    let solutions = temp_file("small-case1.out", &stdout);
    let verify = ply(&["sokoboru", "verify", "-i", &puzzle, "-o", &solutions], "");
    assert!(verify.status.success(), "{}", text(&verify.stderr));
    assert!(text(&verify.stdout).contains(&format!("penalty {}", note.penalty)));
}

/// A `ply: note:` line for a case answered but not proven optimal.
struct Note {
    penalty: u32,
    lower: u32,
    generated: u64,
}

impl Note {
    /// The note of case `case` in `stderr`, which must say what stopped the proof (`by`).
    fn of(stderr: &str, case: usize, by: &str) -> Note {
        let start = format!("ply: note: case {case}: not proven optimal {by}: penalty ");
        let line = stderr
            .lines()
            .find_map(|line| line.strip_prefix(&start))
            .unwrap_or_else(|| panic!("no note for case {case}: {stderr}"));
        // "41, the optimum is 36 to 41 (1,234 states generated)"
        let number = |text: &str| -> u64 { text.replace(',', "").parse().expect(line) };
        let (penalty, rest) = line.split_once(", the optimum is ").expect(line);
        let (lower, rest) = rest.split_once(" to ").expect(line);
        let (upper, rest) = rest.split_once(" (").expect(line);
        let generated = rest.strip_suffix(" states generated)").expect(line);
        assert_eq!(penalty, upper, "{line}");
        Note {
            penalty: u32::try_from(number(penalty)).unwrap(),
            lower: u32::try_from(number(lower)).unwrap(),
            generated: number(generated),
        }
    }
}

/// Case `k` (1-based) of a bundled puzzle file, as text.
fn case(name: &str, k: usize) -> String {
    let file = std::fs::read_to_string(data(name)).unwrap();
    let mut lines = file.lines();
    for _ in 1..k {
        let rows: usize = lines
            .next()
            .unwrap()
            .split(' ')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        lines.nth(rows - 1);
    }
    let header = lines.next().unwrap();
    let rows: usize = header.split(' ').next().unwrap().parse().unwrap();
    std::iter::once(header)
        .chain(lines.take(rows))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn a_deadline_stops_every_search_and_notes_what_was_not_proven() {
    // medium.in's case 9 (optimum 37) has a first answer within milliseconds and takes
    // seconds to prove; tiny.in's case 1 has its optimum (44) as its first answer.
    let puzzles = temp_file("deadline.in", &(case("medium.in", 9) + &case("tiny.in", 1)));
    let out = ply(&["sokoboru", "solve", "--deadline", "1", &puzzles], "");
    let stderr = text(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "every case is answered: {stderr}"
    );
    // A note, not an error, with the bound proven at the start (16) or better, and the
    // states of every search of the case.
    let note = Note::of(&stderr, 1, "by the deadline");
    assert!((16..=37).contains(&note.lower), "{stderr}");
    assert!(note.penalty >= 37, "{stderr}");
    assert!(note.generated > 0, "{stderr}");
    assert!(!stderr.contains("ply: error"), "{stderr}");
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
    assert_eq!(lines[0], note.penalty.to_string());
    assert_eq!(lines[2], "44");
}

#[test]
fn gen_is_deterministic_and_its_puzzles_solve_to_the_stated_optimum() {
    let args = [
        "sokoboru", "gen", "--seed", "3", "--count", "3", "--size", "4x5", "--balls", "2",
    ];
    let first = ply(&args, "");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let again = ply(&args, "");
    assert_eq!(first.stdout, again.stdout);
    let optima: Vec<u32> = text(&first.stderr)
        .lines()
        .filter_map(|l| l.split("optimal penalty ").nth(1))
        .map(|p| p.trim().parse().unwrap())
        .collect();
    assert_eq!(optima.len(), 3);
    let puzzles = temp_file("gen.in", &text(&first.stdout));
    let solved = ply(&["sokoboru", "solve", &puzzles], "");
    assert!(solved.status.success());
    let penalties: Vec<u32> = text(&solved.stdout)
        .lines()
        .step_by(2)
        .map(|l| l.parse().unwrap())
        .collect();
    assert_eq!(penalties, optima);
    let bad = ply(
        &[
            "sokoboru", "gen", "--seed", "1", "--count", "1", "--size", "9x9",
        ],
        "",
    );
    assert_eq!(bad.status.code(), Some(1));
    assert!(text(&bad.stderr).contains("outside the limits"));
    let usage = ply(
        &[
            "sokoboru", "gen", "--seed", "1", "--count", "1", "--size", "9",
        ],
        "",
    );
    assert_eq!(usage.status.code(), Some(2));
}

#[test]
fn bundled_large_file_solves_to_its_recorded_optima() {
    // No deadline: the optima, however long a debug build on a busy machine takes.
    let out = ply(
        &["sokoboru", "solve", "--deadline", "none", &data("large.in")],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let penalties: Vec<String> = text(&out.stdout)
        .lines()
        .step_by(2)
        .map(str::to_string)
        .collect();
    let recorded = std::fs::read_to_string(data("large.optima")).unwrap();
    assert_eq!(penalties.join(" "), recorded.trim());
}

#[test]
fn bad_arguments_are_usage_errors_that_say_what_is_wrong() {
    let tiny = data("tiny.in");
    for (args, what) in [
        (&["--threads", "0"][..], "0 is not in 1..=256"),
        // The shared seconds rule, in its shared words.
        (&["--deadline", "-1"][..], "--deadline -1 is negative"),
        (&["--deadline", "-0.5"][..], "--deadline -0.5 is negative"),
        (&["--deadline", "nan"][..], "--deadline NaN is not a number"),
        (
            &["--deadline", "soon"][..],
            "'soon' is neither a number of seconds nor `none`",
        ),
        // One rule with `gen`: a search that may generate no state cannot run.
        (&["--max-nodes", "0"][..], "--max-nodes must be at least 1"),
    ] {
        let mut all = vec!["sokoboru", "solve"];
        all.extend_from_slice(args);
        all.push(&tiny);
        let out = ply(&all, "");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with("ply: error: ") && stderr.contains(what),
            "{args:?}: {stderr}"
        );
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

/// Times past what the clock can name (about 9.2e18 s on) are no limit, not a panic.
#[test]
fn times_too_far_to_reach_are_no_limit() {
    let tiny = data("tiny.in");
    for args in [
        &["--deadline", "1e19"][..],
        &["--deadline", "none", "--time-limit", "1e19"][..],
    ] {
        let mut all = vec!["sokoboru", "solve"];
        all.extend_from_slice(args);
        all.push(&tiny);
        let out = ply(&all, "");
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        assert_eq!(text(&out.stdout).lines().next(), Some("44"), "{args:?}");
    }
}

#[test]
fn file_names_need_not_be_utf8() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let dir = common::scratch_dir();
    let puzzles = dir.path().join(OsStr::from_bytes(b"case-\xff.in"));
    let solutions = dir.path().join(OsStr::from_bytes(b"case-\xff.out"));
    std::fs::write(&puzzles, "1 6\n@O---$\n").unwrap();
    let run = |args: &[&OsStr]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(args)
            .output()
            .expect("ply runs")
    };
    let solved = run(&[
        OsStr::new("sokoboru"),
        OsStr::new("solve"),
        puzzles.as_os_str(),
    ]);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    assert_eq!(text(&solved.stdout), "1\n>\n");
    std::fs::write(&solutions, &solved.stdout).unwrap();
    let verified = run(&[
        OsStr::new("sokoboru"),
        OsStr::new("verify"),
        OsStr::new("-i"),
        puzzles.as_os_str(),
        OsStr::new("-o"),
        solutions.as_os_str(),
    ]);
    assert!(verified.status.success(), "{}", text(&verified.stderr));
    assert!(text(&verified.stdout).contains("the case accepted"));
}

#[test]
fn puzzle_files_are_read_as_the_spec_says_and_messages_stay_short() {
    // A leading byte order mark is skipped, in puzzles and in solutions.
    let out = ply(&["sokoboru", "solve"], "\u{feff}1 6\n@O---$\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "1\n>\n");
    let puzzle = temp_file("bom.in", "1 6\n@O---$\n");
    let solution = temp_file("bom.out", "\u{feff}1\n>\n");
    let verify = ply(&["sokoboru", "verify", "-i", &puzzle, "-o", &solution], "");
    assert!(verify.status.success(), "{}", text(&verify.stderr));
    // 1 to 15 pairs a case.
    let sixteen = "2 2\n@$\nO-\n4 10\n@OOOOOOOOO\nOOOOOOO---\n$$$$$$$$$$\n$$$$$$----\n";
    let out = ply(&["sokoboru", "solve"], sixteen);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr),
        "ply: error: <stdin>: case 2, line 6: 16 balls and as many empty boxes; a case has 1 \
         to 15 of each\n"
    );
    assert!(out.stdout.is_empty());
    // A huge line is quoted in part.
    let huge = "7".repeat(10 << 20);
    for command in ["solve", "verify"] {
        let args: &[&str] = if command == "solve" {
            &["sokoboru", "solve"]
        } else {
            &["sokoboru", "verify", "-o", "-"]
        };
        let out = ply(args, &huge);
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{command}");
        assert!(stderr.len() < 200, "{command}: {} bytes", stderr.len());
        assert!(
            stderr.contains(&format!("found '{}...'", "7".repeat(40))),
            "{command}: {stderr}"
        );
    }
}

/// Boards drawn backwards from a solved layout are solvable: the solver answers every one,
/// the verifier accepts the answers, and the scorer gives the file the course's points.
#[test]
fn backward_boards_are_answered_and_scored_as_the_course_scores() {
    let drawn = ply(
        &[
            "sokoboru",
            "gen",
            "--backward",
            "--seed",
            "4",
            "--count",
            "3",
            "--size",
            "5x6",
            "--balls",
            "4",
            "--full",
            "1",
            "--wall-density",
            "0.05",
        ],
        "",
    );
    assert!(drawn.status.success(), "{}", text(&drawn.stderr));
    assert_eq!(
        text(&drawn.stderr)
            .matches("solvable by construction")
            .count(),
        3,
        "{}",
        text(&drawn.stderr)
    );
    let puzzles = temp_file("backward.in", &text(&drawn.stdout));
    let solved = ply(&["sokoboru", "solve", "--deadline", "none", &puzzles], "");
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    let answers = temp_file("backward.out", &text(&solved.stdout));
    let penalties: Vec<u32> = text(&solved.stdout)
        .lines()
        .step_by(2)
        .map(|l| l.parse().unwrap())
        .collect();
    // Scored against their own penalties, proven optimal: the whole file.
    let optima = temp_file(
        "backward.optima",
        &penalties
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" "),
    );
    let score = ply(
        &[
            "sokoboru", "score", "-i", &puzzles, "-o", &answers, "--optima", &optima, "--json",
        ],
        "",
    );
    assert!(score.status.success(), "{}", text(&score.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&score.stdout).unwrap();
    assert_eq!(doc["fraction"], 1.0);
    // Against optima one lower: each case 0.1 + 0.1 (K - 1) / K.
    let lower = temp_file(
        "lower.optima",
        &penalties
            .iter()
            .map(|k| (k - 1).to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    );
    let score = ply(
        &[
            "sokoboru", "score", "-i", &puzzles, "-o", &answers, "--optima", &lower, "--points",
            "3",
        ],
        "",
    );
    assert!(score.status.success(), "{}", text(&score.stderr));
    let want: f64 = penalties
        .iter()
        .map(|&k| 0.1 + 0.1 * f64::from(k - 1) / f64::from(k))
        .sum();
    assert!(
        text(&score.stdout).contains(&format!("{want:.4} of 0.6 case points")),
        "{}",
        text(&score.stdout)
    );
    // One case answered wrong: the file scores nothing, exit 1.
    let mut lines: Vec<String> = text(&solved.stdout).lines().map(String::from).collect();
    lines[1] = lines[1][..lines[1].len() - 1].to_string();
    let wrong = temp_file("wrong.out", &(lines.join("\n") + "\n"));
    let score = ply(
        &[
            "sokoboru", "score", "-i", &puzzles, "-o", &wrong, "--optima", &optima,
        ],
        "",
    );
    assert_eq!(score.status.code(), Some(1));
    assert!(
        text(&score.stderr).contains("the file scores 0"),
        "{}",
        text(&score.stderr)
    );
}
