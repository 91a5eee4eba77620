//! `--svg FILE`: a picture of a solved puzzle, a tournament or a benchmark, well formed and
//! showing what the command found.

mod common;

use common::{path_in, ply, scratch_dir, text};

/// Whether every tag of `svg` is closed in order (a light check that it is well formed).
fn balanced(svg: &str) -> bool {
    let mut open: Vec<String> = Vec::new();
    let mut rest = svg;
    while let Some(start) = rest.find('<') {
        let Some(end) = rest[start..].find('>') else {
            return false;
        };
        let tag = &rest[start + 1..start + end];
        rest = &rest[start + end + 1..];
        if let Some(name) = tag.strip_prefix('/') {
            if open.pop().as_deref() != Some(name) {
                return false;
            }
        } else if !tag.ends_with('/') {
            open.push(tag.split_whitespace().next().unwrap_or("").to_string());
        }
    }
    open.is_empty()
}

/// Runs `ply args --svg FILE`, checks it succeeds and that FILE is an SVG document holding
/// every one of `shows`.
fn draws(args: &[&str], shows: &[&str]) {
    let dir = scratch_dir();
    let svg = path_in(&dir, "picture.svg");
    let mut all = args.to_vec();
    all.extend(["--svg", &svg]);
    let out = ply(&all, "");
    assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
    let picture = std::fs::read_to_string(&svg).expect("the picture is written");
    assert!(picture.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(balanced(&picture), "{args:?}: not well formed");
    for shown in shows {
        assert!(
            picture.contains(shown),
            "{args:?}: no {shown:?} in the picture"
        );
    }
}

#[test]
fn solved_puzzles_are_drawn() {
    let dir = scratch_dir();
    let boards = path_in(&dir, "b.txt");
    std::fs::write(&boards, "1 2 5 3 4 0 6 7 8\n").unwrap();
    // The start, the goal, and the board after each of the 3 moves, the last one `3 L`.
    draws(
        &["npuzzle", "solve", "--heuristic", "manhattan", &boards],
        &["line 1: 3 moves", ">goal<", ">3 L<", "<polyline"],
    );
    draws(
        &["sokoboru", "solve", "../../data/sokoboru/tiny.in"],
        &[
            "case 1: penalty 44 (optimal), 41 moves",
            "case 10:",
            "the end",
        ],
    );
    draws(
        &[
            "ewn",
            "solo",
            "solve",
            "../../data/ewn-solo/tcg2024-public/bonus_sample3",
        ],
        &["goal piece 6 to (0,0): 25 moves", ">25<"],
    );
}

#[test]
fn a_tournament_and_a_bench_are_charted() {
    let agent =
        |name: &str, kind: &str| format!("{name}={} ewn agent {kind}", env!("CARGO_BIN_EXE_ply"));
    draws(
        &[
            "ewn",
            "tournament",
            &agent("easy", "random"),
            &agent("normal", "alphabeta --depth 2"),
            "--openings",
            "2",
            "--move-time",
            "1",
        ],
        &["4 games: ratings", ">easy (", ">normal ("],
    );
    draws(
        &[
            "npuzzle",
            "bench",
            "--first",
            "3",
            "--heuristic",
            "linear-conflict",
        ],
        &["korf100: nodes generated per instance", ">1e8<"],
    );
}
