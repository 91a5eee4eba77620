//! The solver against a plain breadth-first search on random instances, and unsolvable cases.

use std::collections::HashSet;

use ply_ewn::solo::{
    DICE, DiceBounds, HOLE, Instance, Position, Verdict, check, king_distance, solve,
};
use ply_search::{Ending, Limits};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The first layer within `limit` that holds a position with the goal piece on (0,0), by
/// breadth-first search over piece placements (layer `k` holds the distinct positions after
/// `k` moves) that keeps a position only when `keep(k, position, goal cell)` says so; `None`
/// if there is none.
fn layered_search(
    instance: &Instance,
    limit: usize,
    keep: impl Fn(usize, &Position, u8) -> bool,
) -> Option<usize> {
    let start = instance.position();
    if start.cell(instance.goal) == Some(0) {
        return Some(0);
    }
    let mut layer = vec![start];
    for depth in 0..limit.min(DICE) {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for pos in &layer {
            for mv in pos.legal_moves(instance.dice[depth]) {
                let mut child: Position = pos.clone();
                child.play(mv);
                let Some(cell) = child.cell(instance.goal) else {
                    continue;
                };
                if cell == 0 {
                    return Some(depth + 1);
                }
                if keep(depth + 1, &child, cell) && seen.insert(child.key()) {
                    next.push(child);
                }
            }
        }
        layer = next;
    }
    None
}

/// The fewest moves by plain breadth-first search, or `None` if more than `limit` are needed.
fn bfs_optimum(instance: &Instance, limit: usize) -> Option<usize> {
    layered_search(instance, limit, |_, _, _| true)
}

/// The fewest moves if at most `limit`, by breadth-first search that drops a position when its
/// move number plus the dice table's bound ([`DiceBounds`], a free-capture relaxation tested on
/// its own) exceeds `limit`: admissible pruning, so every line of at most `limit` moves is
/// kept.
fn pruned_bfs_optimum(instance: &Instance, limit: u32) -> Option<u32> {
    let bounds = DiceBounds::new(instance.goal, &instance.dice);
    let keep = |moves: usize, pos: &Position, cell: u8| {
        let bound = bounds.get(moves, pos.alive_mask(), king_distance(cell));
        (moves as u32).saturating_add(bound) <= limit
    };
    layered_search(instance, limit as usize, keep).map(|moves| moves as u32)
}

/// A random instance whose goal piece starts within `near` king steps of (0,0) (so that short
/// optima are common).
fn random_instance(rng: &mut ChaCha8Rng, near: u8) -> Instance {
    let goal = rng.random_range(1..=6u8);
    let mut cells: Vec<u8> = (0..100).filter(|&c| c != HOLE).collect();
    cells.shuffle(rng);
    let goal_cell = *cells
        .iter()
        .find(|&&c| c / 10 < near && c % 10 < near)
        .expect("a cell near the corner");
    cells.retain(|&c| c != goal_cell);
    let mut chosen = [0u8; 6];
    let mut rest = cells.into_iter();
    for (p, slot) in chosen.iter_mut().enumerate() {
        *slot = if p + 1 == usize::from(goal) {
            goal_cell
        } else {
            rest.next().expect("enough cells")
        };
    }
    let mut dice = [0u8; DICE];
    for d in &mut dice {
        *d = rng.random_range(1..=6);
    }
    Instance {
        goal,
        cells: chosen,
        dice,
        known_optimum: None,
        known_unsolvable: false,
    }
}

#[test]
fn solver_matches_breadth_first_search() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let limit = 7;
    let (mut within, mut beyond) = (0, 0);
    for _ in 0..300 {
        let instance = random_instance(&mut rng, 5);
        let reference = bfs_optimum(&instance, limit);
        let report = solve(&instance, Limits::UNLIMITED);
        match (&report.ending, reference) {
            (Ending::Solved { moves, .. }, Some(opt)) => {
                assert_eq!(moves.len(), opt, "{instance}");
                let pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
                assert!(check(&instance, &pairs, Some(opt as u32)).is_legal());
                within += 1;
            }
            (Ending::Solved { moves, .. }, None) => {
                assert!(
                    moves.len() > limit,
                    "{instance}: BFS found nothing within {limit}"
                );
                beyond += 1;
            }
            (Ending::Unsolvable, None) => beyond += 1,
            (outcome, reference) => panic!("{instance}: {outcome:?} but BFS says {reference:?}"),
        }
    }
    assert!(
        within >= 80,
        "only {within} instances had optima within {limit}"
    );
    assert!(beyond > 0);
}

#[test]
fn solver_matches_pruned_breadth_first_search_on_longer_instances() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let mut longest = 0;
    let mut checked = 0;
    while checked < 60 {
        let instance = random_instance(&mut rng, 10);
        let report = solve(&instance, Limits::UNLIMITED);
        let Ending::Solved { moves, .. } = &report.ending else {
            continue;
        };
        let optimum = moves.len() as u32;
        if !(8..=17).contains(&optimum) {
            continue;
        }
        let pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
        assert!(check(&instance, &pairs, None).is_legal(), "{instance}");
        assert_eq!(
            pruned_bfs_optimum(&instance, optimum),
            Some(optimum),
            "{instance}"
        );
        longest = longest.max(optimum);
        checked += 1;
    }
    assert!(longest >= 15, "the longest optimum checked is {longest}");
}

#[test]
fn an_instance_an_inadmissible_bound_once_got_wrong_is_solved_in_19() {
    // An earlier positional bound assumed the pieces above the goal fall nearest first, while
    // here piece 3 falls before pieces 4 and 2: it answered 20.
    let instance =
        Instance::parse("1\n49 25 97 37 18 48\n543634331555213655634512321132\n").unwrap();
    let report = solve(&instance, Limits::UNLIMITED);
    let Ending::Solved { moves, .. } = &report.ending else {
        panic!("{:?}", report.ending);
    };
    assert_eq!(moves.len(), 19);
    assert_eq!(pruned_bfs_optimum(&instance, 19), Some(19));
}

#[test]
fn a_goal_that_never_moves_is_proven_unsolvable() {
    // Every die is 1 and piece 1 is never captured (only piece 1 ever moves), so goal 6 never
    // gets a turn.
    let text = format!("6\n0 55 56 57 58 99\n{}\n", "1".repeat(DICE));
    let instance = Instance::parse(&text).unwrap();
    let report = solve(&instance, Limits::UNLIMITED);
    assert_eq!(report.ending, Ending::Unsolvable);
    // The region relaxation proves it at the start: piece 1 moves at every die, and no other
    // piece ever moves to capture it.
    assert_eq!(report.initial_bound, u32::MAX);
    assert_eq!(report.generated, 0);
}

#[test]
fn checker_verdicts() {
    let text = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n";
    let instance = Instance::parse(text).unwrap();
    // Die 6 moves piece 6 on 36; 36 -> 26 captures piece 2, the goal.
    match check(&instance, &[(36, 26)], None) {
        Verdict::NotReached {
            captured_at: Some(0),
            ..
        } => {}
        other => panic!("{other}"),
    }
    match check(&instance, &[(62, 52)], None) {
        Verdict::Illegal { index: 0, reason } => assert!(reason.contains("die 6"), "{reason}"),
        other => panic!("{other}"),
    }
    match check(&instance, &[(36, 47)], None) {
        Verdict::NotReached {
            moves: 1,
            captured_at: None,
        } => {}
        other => panic!("{other}"),
    }
}
