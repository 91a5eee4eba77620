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
    assert!(text(&verify.stdout).contains("all 10 case(s) accepted, total penalty 259"));
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
        ("0\n\n", "case 1: 1 empty box(es) left"),
        (
            "1\n>\n1\n>\n",
            "the solution file has 2 case(s), the puzzle file 1",
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
    assert!(text(&out.stderr).contains("2 balls but 1 empty boxes"));
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
    assert!(report.contains("case 1: 1 empty box(es) left"), "{report}");
    assert!(report.contains("case 2: accepted, penalty 1"), "{report}");
}

#[test]
fn a_case_given_up_prints_its_best_solution_marked_unproven() {
    // small.in's first case (optimum 26): 2,000 nodes find a solution but prove nothing.
    let first = case("small.in", 1);
    assert!(first.starts_with("5 5\n"));
    let puzzle = temp_file("small-case1.in", &first);
    let out = ply(&["sokoboru", "solve", "--max-nodes", "2000", &puzzle], "");
    assert_eq!(out.status.code(), Some(1), "the optimum was not proven");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("case 1: node limit reached")
            && stderr.contains("NOT proven optimal (the optimum is "),
        "{stderr}"
    );
    let stdout = text(&out.stdout);
    let penalty: u32 = stdout.lines().next().unwrap().parse().unwrap();
    assert!(penalty >= 26, "never below the optimum");
    let solutions = temp_file("small-case1.out", &stdout);
    let verify = ply(&["sokoboru", "verify", "-i", &puzzle, "-o", &solutions], "");
    assert!(verify.status.success(), "{}", text(&verify.stderr));
    assert!(text(&verify.stdout).contains(&format!("penalty {penalty}")));
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
fn a_deadline_stops_every_search_and_prints_what_was_found() {
    // small.in's case 2 takes seconds to prove; tiny.in's case 1 (optimum 44) takes none.
    let puzzles = temp_file("deadline.in", &(case("small.in", 2) + &case("tiny.in", 1)));
    let out = ply(&["sokoboru", "solve", "--deadline", "0.5", &puzzles], "");
    assert_eq!(out.status.code(), Some(1), "the first case was not proven");
    let stderr = text(&out.stderr);
    assert!(stderr.contains("case 1: time limit reached"), "{stderr}");
    assert!(!stderr.contains("case 2"), "{stderr}");
    let stdout = text(&out.stdout);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{stdout}");
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
    let out = ply(&["sokoboru", "solve", &data("large.in")], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let penalties: Vec<String> = text(&out.stdout)
        .lines()
        .step_by(2)
        .map(str::to_string)
        .collect();
    let recorded = std::fs::read_to_string(data("large.optima")).unwrap();
    assert_eq!(penalties.join(" "), recorded.trim());
}

/// SIGINT while a file is being solved prints an answer for every case not printed yet and
/// exits 130: a well-formed solution file, which the verifier reads case by case.
#[test]
fn an_interrupt_prints_the_best_answer_of_every_case() {
    use std::io::{BufRead, BufReader, Read};
    let medium = data("medium.in");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["sokoboru", "solve", "--deadline", "none", &medium])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("ply starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    // The first case printed shows the handlers are in place; the whole file takes seconds.
    let mut first = String::new();
    stdout.read_line(&mut first).expect("read the first case");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(child.id()).expect("pid")),
        nix::sys::signal::Signal::SIGINT,
    )
    .expect("send SIGINT");
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).expect("read the rest");
    let status = child.wait().expect("ply ends");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    let output = first + &rest;
    assert_eq!(output.lines().count(), 20, "{output}\n{stderr}");
    // Finished before the signal arrived, or interrupted with every case printed.
    assert!(
        status.success() || (status.code() == Some(130) && stderr.contains("interrupted")),
        "{status:?}: {stderr}"
    );
    let solutions = temp_file("interrupted.out", &output);
    let verify = ply(&["sokoboru", "verify", "-i", &medium, "-o", &solutions], "");
    assert!(
        !text(&verify.stderr).contains("line"),
        "the file is malformed: {}",
        text(&verify.stderr)
    );
}
