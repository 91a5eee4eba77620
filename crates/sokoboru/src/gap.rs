//! Where the bound falls short, as an ignored test (it solves every case it is given): for
//! each case proven optimal, the optimum less the bound at the start, split into the part the
//! pushes make (the optimal solution's pushes and full-box surcharges less the matching,
//! which counts pushes and slides) and the part the walking makes (its steps that move no
//! object, less the walk to the first push, which the bound already counts). The split says
//! which knowledge to build: a stronger push bound (pair conflicts, two-pair tables) or a
//! walking bound.
//!
//! ```sh
//! FILES=data/sokoboru/medium.in SECONDS=60 cargo test --profile ci -p ply-sokoboru --lib \
//!     gap::split -- --ignored --nocapture
//! ```

use std::time::Duration;

use ply_search::Limits;

use crate::bound::Bound;
use crate::duo::Duo;
use crate::puzzle::parse_puzzles;
use crate::solver::estimate::walk_to_push;
use crate::state::State;
use crate::{Puzzle, solve};

/// What an optimal solution spends, move by move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Spent {
    /// Moves that push or slide an object.
    pushes: u32,
    /// The extra penalty of pushing full boxes.
    surcharges: u32,
    /// Moves that move no object.
    walks: u32,
}

/// The moves of `moves` from the start of `puzzle`, by kind.
fn spent(puzzle: &Puzzle, moves: &[crate::Dir]) -> Spent {
    let mut state = puzzle.start;
    let mut out = Spent::default();
    for &dir in moves {
        let step = state.step(puzzle, dir).expect("a verified solution");
        let objects = |s: &State| (s.empty, s.full, s.balls);
        if objects(&step.state) == objects(&state) {
            out.walks += 1;
        } else {
            out.pushes += 1;
            out.surcharges += step.cost - 1;
        }
        state = step.state;
    }
    out
}

/// The bound at the start of `puzzle`, as the solver has it: the matching plus the walk to the
/// first push, or the one-box game if larger; and its parts.
fn start_bound(puzzle: &Puzzle) -> (u32, u32, u32) {
    let matching = Bound::new(puzzle).estimate(&puzzle.start).unwrap_or(0);
    let walk = walk_to_push(puzzle, &puzzle.start).map_or(0, |w| w.steps);
    let duo = Duo::new(puzzle).estimate(&puzzle.start).unwrap_or(0);
    ((matching + walk).max(duo), matching, walk)
}

#[test]
#[ignore]
fn split() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    let seconds: u64 = std::env::var("SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60);
    println!(
        "| file | case | optimum | bound | matching + walk | pushes | surcharges | walks | push part | walk part |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for name in std::env::var("FILES")
        .expect("FILES lists puzzle files")
        .split(',')
    {
        let text = std::fs::read_to_string(format!("{root}{name}")).expect("a puzzle file");
        let (mut gap, mut push_part, mut walk_part, mut proven) = (0i64, 0i64, 0i64, 0);
        let puzzles = parse_puzzles(&text).expect("puzzles");
        for (at, puzzle) in puzzles.iter().enumerate() {
            let limits = Limits::UNLIMITED.with_max_time(Duration::from_secs(seconds));
            let Ok(solution) = solve(puzzle, limits) else {
                println!(
                    "| {name} | {} | not proven in {seconds} s | | | | | | | |",
                    at + 1
                );
                continue;
            };
            let (bound, matching, walk) = start_bound(puzzle);
            let s = spent(puzzle, &solution.moves);
            assert_eq!(s.pushes + s.surcharges + s.walks, solution.penalty);
            let pushes = i64::from(s.pushes + s.surcharges) - i64::from(matching);
            let walks = i64::from(s.walks) - i64::from(walk);
            println!(
                "| {name} | {} | {} | {bound} | {matching} + {walk} | {} | {} | {} | {pushes} | {walks} |",
                at + 1,
                solution.penalty,
                s.pushes,
                s.surcharges,
                s.walks
            );
            gap += i64::from(solution.penalty) - i64::from(bound);
            push_part += pushes;
            walk_part += walks;
            proven += 1;
        }
        println!(
            "| {name} | {proven} of {} proven | gap {gap} | | | | | | {push_part} | {walk_part} |",
            puzzles.len()
        );
    }
}

#[test]
fn a_solution_is_split_into_pushes_surcharges_and_walks() {
    // Walk down, push the full box right (2), walk round and push the ball into it.
    let puzzle = &parse_puzzles("2 3\n@*-\n-O$\n").unwrap()[0];
    let solution = solve(puzzle, Limits::UNLIMITED).unwrap();
    let s = spent(puzzle, &solution.moves);
    assert_eq!(s.pushes + s.surcharges + s.walks, solution.penalty);
    assert!(s.pushes >= 1 && s.walks >= 1, "{s:?}");
}
