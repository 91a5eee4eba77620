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

/// The move numbers of an EWN solo picture (its text 9 units high): their positions (the
/// middle of the baseline) and their text.
fn move_numbers(svg: &str) -> Vec<(f64, f64, String)> {
    svg.lines()
        .filter(|l| l.starts_with("<text ") && l.contains(r#"font-size="9.0""#))
        .map(|l| {
            let attribute = |name: &str| -> f64 {
                let from = l.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                let to = from + l[from..].find('"').unwrap();
                l[from..to].parse().unwrap()
            };
            let text = &l[l.find('>').unwrap() + 1..l.rfind("</text>").unwrap()];
            (attribute("x"), attribute("y"), text.to_string())
        })
        .collect()
}

#[test]
fn no_move_number_of_an_ewn_solo_picture_covers_another() {
    // The course's bonus_sample3 moves pieces over the same cells again and across each other:
    // moves 1 and 23, and 5, 14 and 17, were numbered at the very same point.
    let dir = scratch_dir();
    let svg = path_in(&dir, "solo.svg");
    let out = ply(
        &[
            "ewn",
            "solo",
            "solve",
            "../../data/ewn-solo/tcg2024-public/bonus_sample3",
            "--svg",
            &svg,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let picture = std::fs::read_to_string(&svg).unwrap();
    let numbers = move_numbers(&picture);
    let mut shown: Vec<&str> = numbers.iter().map(|n| n.2.as_str()).collect();
    shown.sort_by_key(|n| n.parse::<u32>().unwrap());
    let all: Vec<String> = (1..=25).map(|n| n.to_string()).collect();
    assert_eq!(shown, all, "every move numbered once");
    // A digit of a 9-unit sans-serif font is at most 0.6 of it wide and rises 0.75 of it
    // above the baseline; text is centred on x.
    let boxes: Vec<(f64, f64, f64, f64)> = numbers
        .iter()
        .map(|(x, y, t)| {
            let half = t.len() as f64 * 9.0 * 0.6 / 2.0;
            (x - half, y - 9.0 * 0.75, x + half, *y)
        })
        .collect();
    for (i, a) in boxes.iter().enumerate() {
        for (j, b) in boxes.iter().enumerate().skip(i + 1) {
            let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
            assert!(
                apart,
                "move {} and move {} overlap",
                numbers[i].2, numbers[j].2
            );
        }
    }
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
