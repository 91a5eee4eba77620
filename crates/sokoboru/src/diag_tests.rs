//! Development diagnostics (ignored tests): bounds at the start and where the exact search
//! spends its nodes.

use crate::bound::Bound;
use crate::drift::Drift;
use crate::duo::Duo;
use crate::parse_puzzles;
use crate::solver::Case;
use ply_search::Limits;

#[test]
#[ignore]
fn start_bounds() {
    let path = std::env::var("FILE").unwrap();
    let puzzles = parse_puzzles(&std::fs::read_to_string(path).unwrap()).unwrap();
    for (i, p) in puzzles.iter().enumerate() {
        let bound = Bound::new(p);
        let m = bound.estimate(&p.start);
        let duo = Duo::new(p).estimate(&p.start);
        let drift = Drift::fitted(p, &bound, &[p.start]).and_then(|d| d.estimate(&p.start));
        let mut case = Case::new(p);
        case.first_answer(&Limits::UNLIMITED.with_max_nodes(2_000_000));
        let first = case.unproven().unwrap();
        case.improve(&[(2, 1)], 1, &Limits::UNLIMITED.with_max_nodes(2_000_000));
        let cheaper = case.unproven().unwrap();
        println!(
            "case {}: pairs {} matching {:?} duo {:?} drift {:?} first {} cheaper {}{}",
            i + 1,
            p.start.balls.count_ones(),
            m,
            duo,
            drift,
            first.penalty,
            cheaper.penalty,
            if case.is_final() { " proven" } else { "" }
        );
    }
}

/// Along each case's solution (SOL, a solution file), the remaining penalty against the bounds.
#[test]
#[ignore]
fn bounds_along_solutions() {
    use crate::solver::estimate::walk_to_push;
    use crate::{Dir, State, parse_solutions};
    let path = std::env::var("FILE").unwrap();
    let puzzles = parse_puzzles(&std::fs::read_to_string(path).unwrap()).unwrap();
    let sols =
        parse_solutions(&std::fs::read_to_string(std::env::var("SOL").unwrap()).unwrap()).unwrap();
    for (i, (p, sol)) in puzzles.iter().zip(&sols).enumerate() {
        let bound = Bound::new(p);
        let duo = Duo::new(p);
        let drift = Drift::fitted(p, &bound, &[p.start]);
        let moves: Vec<Dir> = sol.moves.clone();
        // Push states with the cost so far.
        let mut state = p.start;
        let mut g = 0;
        let mut states: Vec<(State, u32)> = vec![(state, 0)];
        for &d in &moves {
            let step = state.step(p, d).unwrap();
            g += step.cost;
            let moved = (step.state.empty, step.state.full, step.state.balls)
                != (state.empty, state.full, state.balls);
            state = step.state;
            if moved {
                states.push((state, g));
            }
        }
        let total = g;
        let mut line = String::new();
        for (s, g) in &states {
            let m = bound.estimate(s).unwrap_or(99);
            let w = walk_to_push(p, s).map_or(0, |w| w.steps);
            let du = duo.estimate(s).unwrap_or(99);
            let dr = drift.as_ref().and_then(|d| d.estimate(s)).unwrap_or(0);
            let h = (m + w).max(du).max(dr);
            line += &format!(
                " {}:{}/{}{}",
                total - g,
                h,
                m,
                if dr >= h && dr > m + w {
                    "d"
                } else if du >= h && du > m + w {
                    "u"
                } else {
                    ""
                }
            );
        }
        println!("case {} ({}): {line}", i + 1, total);
    }
}
