//! The push-level solver against a plain Dijkstra over single moves on small random boards.

use ply_search::{Limits, dijkstra};
use ply_sokoboru::{Dir, Puzzle, SolveError, State, parse_puzzles, replay, solve};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The optimal penalty by Dijkstra over single moves, or `None` if unsolvable.
fn reference(puzzle: &Puzzle) -> Option<u32> {
    let successors = |s: &State| {
        Dir::ALL
            .into_iter()
            .filter_map(|d| s.step(puzzle, d).ok())
            .map(|step| (step.state, step.cost))
            .collect::<Vec<_>>()
    };
    dijkstra(
        &puzzle.start,
        successors,
        State::is_solved,
        Limits::UNLIMITED,
    )
    .ok()
    .map(|s| s.cost)
}

/// A random board of `rows x cols` with `pairs` balls and empty boxes, some walls and full
/// boxes.
fn random_puzzle(rng: &mut ChaCha8Rng, rows: usize, cols: usize, pairs: usize) -> Puzzle {
    let mut cells: Vec<char> = vec!['-'; rows * cols];
    let mut free: Vec<usize> = (0..rows * cols).collect();
    let mut place = |rng: &mut ChaCha8Rng, ch: char| {
        if !free.is_empty() {
            cells[free.swap_remove(rng.random_range(0..free.len()))] = ch;
        }
    };
    place(rng, '@');
    for _ in 0..pairs {
        place(rng, 'O');
        place(rng, '$');
    }
    for _ in 0..rng.random_range(0..=2) {
        place(rng, '#');
    }
    if rng.random_bool(0.3) {
        place(rng, '*');
    }
    let mut text = format!("{rows} {cols}\n");
    for row in cells.chunks(cols) {
        text.extend(row);
        text.push('\n');
    }
    parse_puzzles(&text).expect("valid random board").remove(0)
}

#[test]
fn push_search_matches_single_move_dijkstra() {
    let mut rng = ChaCha8Rng::seed_from_u64(42);
    let (mut solved, mut unsolvable) = (0, 0);
    for _ in 0..300 {
        let (rows, cols) = (rng.random_range(2..=4), rng.random_range(4..=5));
        let pairs = rng.random_range(1..=2);
        let puzzle = random_puzzle(&mut rng, rows, cols, pairs);
        let expected = reference(&puzzle);
        match (solve(&puzzle, Limits::UNLIMITED), expected) {
            (Ok(solution), Some(cost)) => {
                assert_eq!(solution.penalty, cost, "{puzzle}");
                let replayed = replay(&puzzle, &solution.moves).expect("legal moves");
                assert_eq!((replayed.penalty, replayed.left), (cost, 0), "{puzzle}");
                solved += 1;
            }
            (Err(SolveError::NoSolution(_)), None) => unsolvable += 1,
            (got, want) => panic!("{puzzle}: solver {got:?}, reference {want:?}"),
        }
    }
    assert!(
        solved >= 100 && unsolvable >= 10,
        "{solved} solved, {unsolvable} unsolvable"
    );
}
