//! Known optima: Korf's 15-puzzle instances, the course's table, and 24-puzzle consistency.

use ply_npuzzle::{Board, Direction, HeuristicKind, check_solution, instances::bundled, solve};
use ply_search::{Ending, Limits};

/// Korf instances that linear conflict solves in well under a second each.
const QUICK: [&str; 20] = [
    "79", "9", "97", "47", "48", "12", "42", "86", "93", "74", "94", "55", "19", "31", "61", "30",
    "45", "71", "90", "23",
];

fn solve_to_known(id: &str, heuristic: HeuristicKind) {
    let instance = bundled::korf100()
        .into_iter()
        .find(|i| i.id.as_deref() == Some(id))
        .expect("bundled instance");
    let report = solve(&instance.board, heuristic, Limits::UNLIMITED).expect("solvable");
    match report.ending {
        Ending::Solved { cost, moves: path } => {
            assert_eq!(Some(cost), instance.optimal, "#{id} with {heuristic}");
            check_solution(&instance.board, &path).expect("solution reaches the goal");
        }
        other => panic!("#{id}: {other:?}"),
    }
}

#[test]
fn linear_conflict_finds_korf_optima() {
    for id in QUICK {
        solve_to_known(id, HeuristicKind::LinearConflict);
    }
}

#[test]
fn manhattan_finds_korf_optima() {
    for id in &QUICK[..8] {
        solve_to_known(id, HeuristicKind::Manhattan);
    }
}

#[test]
fn course_table_initial_estimates() {
    let table = [(1, 41), (2, 43), (3, 41), (4, 42), (14, 41), (88, 43)];
    let set = bundled::korf100();
    for (id, h0) in table {
        let instance = &set[id - 1];
        assert_eq!(instance.id.as_deref(), Some(id.to_string().as_str()));
        assert_eq!(
            HeuristicKind::Manhattan.evaluate(&instance.board),
            h0,
            "#{id}"
        );
        assert!(HeuristicKind::LinearConflict.evaluate(&instance.board) >= h0);
    }
}

#[test]
fn every_bundled_instance_is_solvable_and_bounded() {
    for instance in bundled::korf100().into_iter().chain(bundled::korf50_24()) {
        assert!(instance.board.is_solvable());
        let optimal = instance.optimal.expect("known optimum");
        for heuristic in HeuristicKind::ALL {
            let h = heuristic.evaluate(&instance.board);
            assert!(
                h <= optimal,
                "{} {heuristic}: {h} > {optimal}",
                instance.label()
            );
            assert_eq!(h % 2, optimal % 2, "parity of h and the optimum agree");
        }
    }
}

#[test]
fn twenty_four_puzzle_heuristics_agree_on_scrambles() {
    let mut seed = 2024u64;
    for _ in 0..20 {
        let mut board = Board::goal(5);
        for _ in 0..40 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            if let Some(next) = board.moved(Direction::from_index((seed >> 35) as u32)) {
                board = next;
            }
        }
        let costs: Vec<u32> = HeuristicKind::ALL
            .into_iter()
            .map(|h| {
                let report = solve(&board, h, Limits::UNLIMITED).expect("solvable");
                let Ending::Solved { cost, moves: path } = report.ending else {
                    panic!("unsolved {board:?}")
                };
                check_solution(&board, &path).expect("reaches goal");
                cost
            })
            .collect();
        assert!(
            costs.iter().all(|&c| c == costs[0] && c <= 40),
            "{board:?}: {costs:?}"
        );
    }
}
