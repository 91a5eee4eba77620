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

/// How many of the states the exact search expands can never be solved: a sample of them,
/// each searched to the end (within a budget) by a weighted search.
#[test]
#[ignore]
fn dead_share() {
    use crate::solver::estimate::Estimator;
    use crate::solver::key::Key;
    use ply_search::{AStarError, AStarOptions, astar_with};
    use std::sync::Mutex;
    let path = std::env::var("FILE").unwrap();
    let case: usize = std::env::var("CASE").map_or(1, |n| n.parse().unwrap());
    let puzzles = parse_puzzles(&std::fs::read_to_string(path).unwrap()).unwrap();
    let p = &puzzles[case - 1];
    let bound = Bound::new(p);
    let duo = Duo::new(p);
    let est = Estimator {
        duo: Some(&duo),
        drift: None,
        progress: true,
        plain_guide: false,
    };
    let sample = Mutex::new(Vec::new());
    let count = std::sync::atomic::AtomicU64::new(0);
    let successors = |key: &Key, g: u32| {
        let n = count.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        if n.is_multiple_of(97) {
            sample.lock().unwrap().push((key.state(), g));
        }
        est.children(p, &bound, &key.state(), g, Some(35))
    };
    let options = AStarOptions::new()
        .limits(Limits::UNLIMITED.with_max_nodes(1_000_000))
        .upper_bound(Some(35))
        .parallel(1);
    let _ = astar_with(
        &Key::new(&p.start),
        0,
        successors,
        |k: &Key| k.state().is_solved(),
        options,
    );
    let sample = sample.into_inner().unwrap();
    let (mut dead, mut live, mut unknown) = (0, 0, 0);
    for (state, _) in sample.iter().take(120) {
        let q = p.with_start(*state);
        let b = Bound::new(&q);
        let plain = Estimator::plain();
        let succ = |key: &Key, g: u32| {
            let mut c = plain.children(&q, &b, &key.state(), g, None);
            for x in &mut c {
                x.2 *= 5;
            }
            c
        };
        let budget: u64 = std::env::var("SUB").map_or(300_000, |n| n.parse().unwrap());
        let o = AStarOptions::new().limits(Limits::UNLIMITED.with_max_nodes(budget));
        match astar_with(
            &Key::new(state),
            0,
            succ,
            |k: &Key| k.state().is_solved(),
            o,
        ) {
            Ok(_) => live += 1,
            Err(AStarError::NoSolution(_)) => dead += 1,
            Err(_) => unknown += 1,
        }
    }
    println!(
        "sampled {}: dead {dead} live {live} unknown {unknown}",
        sample.len()
    );
}

/// Each case's first answer: penalty, states and time, then a cheaper one at weight 2.
#[test]
#[ignore]
fn first_answers() {
    let path = std::env::var("FILE").unwrap();
    let puzzles = parse_puzzles(&std::fs::read_to_string(path).unwrap()).unwrap();
    let (mut t1, mut t2) = (0, 0);
    for (i, p) in puzzles.iter().enumerate() {
        let started = std::time::Instant::now();
        let techniques = crate::solver::search::Techniques {
            pruned_answers: std::env::var("PRUNED").is_ok(),
            ..Default::default()
        };
        let mut case = Case::with(p, techniques);
        let built = started.elapsed();
        case.first_answer(&Limits::UNLIMITED);
        let first = case.unproven().unwrap().penalty;
        let (g1, e1) = (case.generated(), started.elapsed());
        let weights: Vec<(u32, u32)> = std::env::var("WEIGHTS").map_or(vec![(2, 1)], |w| {
            w.split(',')
                .map(|x| {
                    let (a, b) = x.split_once('/').unwrap();
                    (a.parse().unwrap(), b.parse().unwrap())
                })
                .collect()
        });
        let mut steps = String::new();
        for w in weights {
            let g = case.generated();
            let t = std::time::Instant::now();
            case.improve(&[w], 1, &Limits::UNLIMITED.with_max_nodes(5_000_000));
            steps += &format!(
                " w{}/{}:{}@{}k,{:.0}ms",
                w.0,
                w.1,
                case.unproven().unwrap().penalty,
                (case.generated() - g) / 1000,
                t.elapsed().as_secs_f64() * 1e3
            );
        }
        println!("{steps}");
        let second = case.unproven().unwrap().penalty;
        t1 += first;
        t2 += second;
        println!(
            "case {}: built {:.1} ms; first {first} after {g1} states {:.1} ms; cheaper {second} after {} states {:.1} ms{}",
            i + 1,
            built.as_secs_f64() * 1e3,
            e1.as_secs_f64() * 1e3,
            case.generated() - g1,
            (started.elapsed() - e1).as_secs_f64() * 1e3,
            if case.is_final() { " proven" } else { "" }
        );
    }
    println!("totals: first {t1} cheaper {t2}");
}
