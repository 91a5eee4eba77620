//! MCTS on tic-tac-toe: it never loses to random play, its proofs agree with a full minimax,
//! and tree reuse keeps the statistics of the move played.

mod common;

use common::TicTacToe;
use ply_search::testing::check_game;
use ply_search::{Game, Limits, Mcts, MctsConfig, Outcome, Policy};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Uniformly random playouts.
struct RandomPlayouts(StdRng);

impl Policy<TicTacToe> for RandomPlayouts {
    fn playout(&mut self, game: &mut TicTacToe) -> f64 {
        loop {
            if let Some(outcome) = game.outcome() {
                return outcome.reward0();
            }
            let moves = game.moves();
            let moves: &[u8] = &moves;
            game.play(moves[self.0.random_range(0..moves.len())]);
        }
    }
}

/// The exact outcome under perfect play (plain minimax, the reference).
fn minimax(game: &TicTacToe) -> Outcome {
    if let Some(outcome) = game.outcome() {
        return outcome;
    }
    let me = game.to_move();
    let mut best = Outcome::Win(1 - me);
    for &mv in &game.moves() {
        let mut next = game.clone();
        next.play(mv);
        match minimax(&next) {
            Outcome::Win(p) if p == me => return Outcome::Win(me),
            Outcome::Draw => best = Outcome::Draw,
            _ => {}
        }
    }
    best
}

fn search(game: &TicTacToe, iterations: u64, solver: bool, seed: u64) -> Mcts<TicTacToe> {
    let config = MctsConfig {
        solver,
        ..MctsConfig::default()
    };
    let mut tree = Mcts::new(game.clone(), config, 0);
    let limits = Limits::default().with_max_nodes(iterations);
    tree.search(&mut RandomPlayouts(StdRng::seed_from_u64(seed)), &limits);
    tree
}

fn random_position(rng: &mut StdRng, plies: usize) -> TicTacToe {
    loop {
        let mut game = TicTacToe::default();
        for _ in 0..plies {
            let moves = game.moves();
            let moves: &[u8] = &moves;
            if moves.is_empty() {
                break;
            }
            game.play(moves[rng.random_range(0..moves.len())]);
        }
        if game.outcome().is_none() {
            return game;
        }
    }
}

#[test]
fn never_loses_to_random_play() {
    let mut rng = StdRng::seed_from_u64(7);
    for game_no in 0..40u64 {
        let mcts_player = (game_no % 2) as u8;
        let mut game = TicTacToe::default();
        while game.outcome().is_none() {
            let mv = if game.to_move() == mcts_player {
                search(&game, 3000, game_no % 4 < 2, game_no)
                    .best_move()
                    .unwrap()
            } else {
                let moves = game.moves();
                moves[rng.random_range(0..moves.len())]
            };
            game.play(mv);
        }
        assert_ne!(
            game.outcome(),
            Some(Outcome::Win(1 - mcts_player)),
            "game {game_no}: {:?}",
            game.cells
        );
    }
}

#[test]
fn proofs_agree_with_minimax() {
    let mut rng = StdRng::seed_from_u64(11);
    let mut proven = 0;
    for case in 0..200 {
        let game = random_position(&mut rng, 2 + case % 6);
        let tree = search(&game, 20_000, true, case as u64);
        let exact = minimax(&game);
        let proof = tree.proof();
        assert!(proof.is_none() || proof == Some(exact), "{:?}", game.cells);
        if let Some(proof) = proof {
            proven += 1;
            // A proven root's chosen move keeps the proven value.
            let mut next = game.clone();
            next.play(tree.best_move().unwrap());
            assert_eq!(minimax(&next), proof, "{:?}", game.cells);
        }
    }
    assert!(proven >= 150, "only {proven} of 200 positions proven");
}

#[test]
fn finds_forced_wins() {
    // A win in one: X on 0 and 1, O on 3 and 4, X to move.
    let mut game = TicTacToe::default();
    for mv in [0, 3, 1, 4] {
        game.play(mv);
    }
    let tree = search(&game, 50, true, 1);
    assert_eq!(tree.proof(), Some(Outcome::Win(0)));
    assert_eq!(tree.best_move(), Some(2));
    // Forced wins that take more than one move: every one is proven and played.
    let mut rng = StdRng::seed_from_u64(4);
    let mut found = 0;
    while found < 20 {
        let game = random_position(&mut rng, 2 + found % 3);
        let me = game.to_move();
        let immediate = game.moves().iter().any(|&mv| {
            let mut next = game.clone();
            next.play(mv);
            next.outcome() == Some(Outcome::Win(me))
        });
        if immediate || minimax(&game) != Outcome::Win(me) {
            continue;
        }
        found += 1;
        let tree = search(&game, 20_000, true, found as u64);
        assert_eq!(tree.proof(), Some(Outcome::Win(me)), "{:?}", game.cells);
        let mut next = game.clone();
        next.play(tree.best_move().unwrap());
        assert_eq!(minimax(&next), Outcome::Win(me), "{:?}", game.cells);
        // Without the solver the most visited move wins too.
        let plain = search(&game, 20_000, false, found as u64);
        assert_eq!(plain.proof(), None);
        let mut next = game.clone();
        next.play(plain.best_move().unwrap());
        assert_eq!(minimax(&next), Outcome::Win(me), "{:?}", game.cells);
    }
}

#[test]
fn tree_reuse_keeps_the_subtree_of_the_move_played() {
    let game = TicTacToe::default();
    let mut tree = search(&game, 2000, false, 5);
    let children = tree.root_children();
    let chosen = children.iter().max_by_key(|c| c.visits).unwrap();
    let before = tree.len();
    tree.advance(chosen.mv);
    assert!(tree.len() < before);
    assert!(tree.len() > 1);
    let visits: u32 = tree.root_children().iter().map(|c| c.visits).sum();
    // The kept root's visits are its children's plus the one that expanded it.
    assert_eq!(visits + 1, chosen.visits);
    let mut expected = game.clone();
    expected.play(chosen.mv);
    assert_eq!(tree.root().cells, expected.cells);
    // A move never expanded starts a fresh tree.
    let mut fresh = Mcts::new(TicTacToe::default(), MctsConfig::default(), 0);
    fresh.advance(4);
    assert_eq!(fresh.len(), 1);
    assert_eq!(fresh.root().cells[4], 1);
}

#[test]
fn a_full_arena_still_searches() {
    let config = MctsConfig {
        max_nodes: 30,
        ..MctsConfig::default()
    };
    let mut tree = Mcts::new(TicTacToe::default(), config, 0);
    let limits = Limits::default().with_max_nodes(500);
    let stats = tree.search(&mut RandomPlayouts(StdRng::seed_from_u64(9)), &limits);
    assert_eq!(stats.iterations, 500);
    assert!(stats.nodes <= 30);
    assert!(tree.best_move().is_some());
}

#[test]
fn tic_tac_toe_passes_the_game_conformance_checks() {
    let report = check_game(vec![TicTacToe::default(); 200], 9, 5, None);
    assert_eq!(report.games, 200);
    assert!(
        report.wins[0] > 0 && report.wins[1] > 0 && report.draws > 0,
        "{report:?}"
    );
}
