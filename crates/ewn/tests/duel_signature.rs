//! Node-count signatures of the duel's searches, as chess engines keep a bench signature
//! (shakmaty's perft counts, viridithas's `bench` node count): the exact nodes of the
//! course's alpha-beta at fixed depths, of the deep agent at a fixed depth, and of MCTS over
//! a fixed number of iterations from a fixed seed, on fixed positions. Every search here runs
//! on one thread without a clock, so the counts are the same on any machine and in any
//! build. A change to the rules, the move order, an evaluation or a search shows up as a
//! changed count: if the change is meant, the new counts are the new signature (say so in the
//! commit); if not, it is a bug.

use ply_ewn::duel::agents::{DuelPlayouts, MctsAgentConfig, course_value};
use ply_ewn::duel::protocol::Setup;
use ply_ewn::duel::{Board, DeepAgent, DuelMove};
use ply_search::{Limits, Mcts, alpha_beta};
use std::time::Duration;

/// The course's first dice line, red's and blue's cubes in order.
fn start() -> Board {
    Setup::decode(b"012345012345343242404031241152042")
        .unwrap()
        .board()
        .unwrap()
}

/// A middle game: another setup, after ten plies of each position's first legal move.
fn middle() -> Board {
    let mut board = Setup::decode(b"310452425013110324250214534310125")
        .unwrap()
        .board()
        .unwrap();
    for _ in 0..10 {
        let first = board.moves()[0];
        board.play(first);
    }
    assert!(board.winner().is_none());
    board
}

#[test]
fn course_alpha_beta_node_counts() {
    // (position, depth) -> (nodes, best move, value): the baselines' search, plain
    // alpha-beta in the rules' move order with the course's leaf value.
    let mut found = Vec::new();
    for (name, board) in [("start", start()), ("middle", middle())] {
        for depth in [2, 4, 8] {
            let mut board = board.clone();
            let result = alpha_beta(&mut board, depth, course_value);
            found.push((
                name,
                depth,
                result.nodes,
                result.best.map(|m| m.to_string()),
                result.value,
            ));
        }
    }
    let want = [
        ("start", 2, 16, "30", -1),
        ("start", 4, 97, "30", 0),
        ("start", 8, 1921, "30", 1),
        ("middle", 2, 9, "10", 0),
        ("middle", 4, 47, "10", 0),
        ("middle", 8, 2466, "11", 0),
    ]
    .map(|(name, depth, nodes, best, value)| (name, depth, nodes, Some(best.to_string()), value));
    assert_eq!(found, want);
}

#[test]
fn deep_agent_node_counts() {
    // The default agent's search (race value, table, PVS, killers, distances) to depth 12
    // on each position, with a fresh table.
    let mut found = Vec::new();
    for (name, board) in [("start", start()), ("middle", middle())] {
        let mut agent = DeepAgent::new(Duration::from_secs(1));
        let result = agent.search_depth(&board, 12);
        found.push((
            name,
            result.depth,
            result.nodes,
            result.best.map(|m| m.to_string()),
            result.value,
        ));
    }
    let want = [
        ("start", 12, 44_788, "31", -17),
        ("middle", 12, 13_572, "11", -192),
    ]
    .map(|(name, depth, nodes, best, value)| (name, depth, nodes, Some(best.to_string()), value));
    assert_eq!(found, want);
}

#[test]
fn mcts_node_counts() {
    // The MCTS agent's tree search (its default settings and playouts, seed 1) for 3,000
    // iterations: the tree's size, the deepest node, and the most visited root move.
    let mut found = Vec::new();
    for (name, board) in [("start", start()), ("middle", middle())] {
        let config = MctsAgentConfig::default();
        let mut tree = Mcts::new(board.clone(), config.search, DuelMove::default());
        let mut playouts = DuelPlayouts::new(1);
        let stats = tree.search(&mut playouts, &Limits::default().with_max_nodes(3000));
        let best = tree.best_move().map(|m| m.to_string());
        let visits = tree
            .root_children()
            .iter()
            .map(|c| c.visits)
            .collect::<Vec<_>>();
        found.push((
            name,
            stats.iterations,
            stats.nodes,
            stats.depth,
            best,
            visits,
        ));
    }
    let want = [
        ("start", 3000, 4704, 9, "33", vec![579, 258, 324, 1839]),
        ("middle", 3000, 4254, 13, "12", vec![88, 193, 2719]),
    ]
    .map(|(name, iterations, nodes, depth, best, visits)| {
        (
            name,
            iterations,
            nodes,
            depth,
            Some(best.to_string()),
            visits,
        )
    });
    assert_eq!(found, want);
}
