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
fn an_unsolvable_case_is_reported_and_the_others_solved() {
    let out = ply(&["sokoboru", "solve", "-"], "1 4\n$@O-\n1 3\n@O$\n");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "-1\n\n1\n>\n");
    assert!(text(&out.stderr).contains("case 1: no solution"));
}
