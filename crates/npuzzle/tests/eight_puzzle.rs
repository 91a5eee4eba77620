//! Every 8-puzzle optimum against a plain breadth-first search over all 181,440 states.

mod common;

use common::bfs_distances;
use ply_npuzzle::{
    Board, Direction, HeuristicKind, MoveFsm, Plan, check_solution, solve, solve_parallel,
    solve_with,
};
use ply_search::{Ending, Limits, astar, dijkstra};

fn neighbours(board: &Board) -> Vec<(Board, u32)> {
    Direction::ALL
        .into_iter()
        .filter_map(|d| board.moved(d).map(|b| (b, 1)))
        .collect()
}

#[test]
fn ida_star_matches_bfs_on_every_state() {
    let dist = bfs_distances();
    assert_eq!(dist.len(), 181_440);
    assert_eq!(dist.values().max(), Some(&31));
    for (board, &d) in &dist {
        assert!(board.is_solvable());
        for heuristic in HeuristicKind::ALL {
            let h = heuristic.evaluate(board);
            assert!(
                h <= d,
                "{heuristic} is inadmissible on {board:?}: {h} > {d}"
            );
            let report = solve(board, heuristic, Limits::UNLIMITED).expect("solvable");
            match &report.ending {
                Ending::Solved { cost, moves: path } => {
                    assert_eq!(*cost, d, "{heuristic} on {board:?}");
                    assert_eq!(path.len(), d as usize);
                    check_solution(board, path).expect("solution reaches the goal");
                }
                other => panic!("{heuristic} on {board:?}: {other:?}"),
            }
            assert_eq!(report.extra.thresholds.first(), Some(&h));
            assert_eq!(report.extra.thresholds.last(), Some(&d));
        }
        // Duplicate pruning, where the board's edges are nearest every string it forbids.
        let report = solve_with(
            board,
            HeuristicKind::Manhattan,
            Limits::UNLIMITED,
            1,
            MoveFsm::standard(),
        )
        .expect("solvable");
        let Ending::Solved { cost, moves: path } = &report.ending else {
            panic!("duplicate pruning on {board:?}: {:?}", report.ending);
        };
        assert_eq!(*cost, d, "duplicate pruning on {board:?}");
        check_solution(board, path).expect("solution reaches the goal");
        assert!(MoveFsm::standard().accepts(path), "{board:?}");
    }
}

#[test]
fn parallel_ida_star_matches_bfs_on_a_sample() {
    let dist = bfs_distances();
    let mut boards: Vec<(&Board, &u32)> = dist.iter().step_by(211).collect();
    boards.extend(dist.iter().filter(|(_, d)| **d == 31));
    for (board, &d) in boards {
        let report = solve_parallel(board, HeuristicKind::Manhattan, Limits::UNLIMITED, 2)
            .expect("solvable");
        let Ending::Solved { cost, moves: path } = &report.ending else {
            panic!("{board:?}: {:?}", report.ending);
        };
        assert_eq!(*cost, d, "{board:?}");
        check_solution(board, path).expect("solution reaches the goal");
        assert_eq!(report.extra.thresholds.last(), Some(&d));
        // The parallel search carries the duplicate-pruning machine's state in its nodes.
        let pruned = solve_with(
            board,
            HeuristicKind::Manhattan,
            Limits::UNLIMITED,
            2,
            MoveFsm::standard(),
        )
        .expect("solvable");
        assert_eq!(
            pruned.cost(),
            Some(d),
            "duplicate pruning, 2 threads, {board:?}"
        );
    }
}

#[test]
fn astar_and_dijkstra_match_bfs_on_a_sample() {
    let dist = bfs_distances();
    let manhattan = |b: &Board| HeuristicKind::Manhattan.evaluate(b);
    // Every 97th state, plus the two hardest.
    let mut boards: Vec<(&Board, &u32)> = dist.iter().step_by(97).collect();
    boards.extend(dist.iter().filter(|(_, d)| **d == 31));
    for (board, &d) in boards {
        let sol = astar(
            board,
            neighbours,
            manhattan,
            Board::is_goal,
            Limits::UNLIMITED,
        )
        .expect("reachable");
        assert_eq!(sol.cost, d, "A* on {board:?}");
        assert_eq!(sol.path.len(), d as usize + 1);
        assert_eq!(sol.path.first(), Some(board));
        assert!(
            sol.path
                .windows(2)
                .all(|w| neighbours(&w[0]).iter().any(|(b, _)| *b == w[1]))
        );
        assert!(sol.path.last().is_some_and(Board::is_goal));
    }
    for (board, &d) in dist.iter().step_by(9973) {
        let sol =
            dijkstra(board, neighbours, Board::is_goal, Limits::UNLIMITED).expect("reachable");
        assert_eq!(sol.cost, d, "Dijkstra on {board:?}");
    }
}

#[test]
fn astar_reports_unreachable_goal_after_exhausting_the_component() {
    // From an unsolvable board, the goal is not in its component of 181,440 boards.
    let board = Board::from_tiles(&[0, 2, 1, 3, 4, 5, 6, 7, 8]).unwrap();
    let err = dijkstra(&board, neighbours, Board::is_goal, Limits::UNLIMITED).unwrap_err();
    match err {
        ply_search::AStarError::NoSolution(stats) => assert_eq!(stats.stored, 181_440),
        other => panic!("unexpected {other:?}"),
    }
}

/// A*+IDA* with the duplicate-pruning machine started over below each frontier state: optimal
/// on a share of all states, at every A* share from nothing but the start to the whole
/// space, on one thread and two.
#[test]
fn a_star_then_ida_star_matches_bfs() {
    let dist = bfs_distances();
    let mut boards: Vec<_> = dist.iter().collect();
    boards.sort_unstable_by_key(|(board, _)| board.tiles().to_vec());
    for (i, (board, &d)) in boards.into_iter().enumerate().step_by(61) {
        let plan = Plan {
            fsm: MoveFsm::standard(),
            top_states: [1, 3, 40, 2_000, 200_000][i % 5],
        };
        let threads = 1 + i % 2;
        let report = solve_with(
            board,
            HeuristicKind::Manhattan,
            Limits::UNLIMITED,
            threads,
            plan,
        )
        .expect("solvable");
        let Ending::Solved { cost, moves: path } = &report.ending else {
            panic!("A*+IDA* on {board:?}: {:?}", report.ending);
        };
        assert_eq!(*cost, d, "A*+IDA* on {board:?} with {plan:?}");
        check_solution(board, path).expect("solution reaches the goal");
    }
}
