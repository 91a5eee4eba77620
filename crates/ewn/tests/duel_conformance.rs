//! Conformance of the duel engine over random games (in the OpenSpiel spirit): every move
//! undoes exactly, the incremental hash equals the hash from scratch, every listed move is
//! accepted by the checked path, no side is ever without a move while it has a cube, and
//! every game ends.

use ply_ewn::duel::{Board, DICE, DuelMove};
use ply_search::testing::check_game;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_board(rng: &mut ChaCha8Rng) -> Board {
    let mut red = [0, 1, 2, 3, 4, 5];
    let mut blue = [0, 1, 2, 3, 4, 5];
    red.shuffle(rng);
    blue.shuffle(rng);
    let mut dice = [0; DICE];
    for d in &mut dice {
        *d = rng.random_range(0..6);
    }
    Board::new(red, blue, dice).unwrap()
}

#[test]
fn the_board_passes_ply_searchs_game_conformance() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let starts: Vec<Board> = (0..500).map(|_| random_board(&mut rng)).collect();
    let report = check_game(starts, 1000, 3, Some(&Board::compute_hash));
    assert_eq!(report.games, 500);
    assert_eq!(report.draws, 0, "the duel has no draws");
    assert!(report.wins[0] > 100 && report.wins[1] > 100, "{report:?}");
}

#[test]
fn random_games_keep_every_invariant() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut winners = [0u32; 2];
    for _ in 0..3000 {
        let mut board = random_board(&mut rng);
        let mut history: Vec<(Board, DuelMove)> = Vec::new();
        while board.winner().is_none() {
            assert!(board.ply() < 1000, "a game must end");
            let moves = board.moves();
            assert!(
                !moves.is_empty(),
                "no pass while a cube lives:\n{}",
                board.render()
            );
            for &mv in moves.iter() {
                assert_eq!(board.check(mv), Ok(()));
                let before = board.clone();
                let undo = board.play(mv);
                assert_eq!(board.hash(), board.compute_hash());
                assert_ne!(board.hash(), before.hash());
                board.undo(mv, undo);
                assert_eq!(board, before, "make/unmake round trip");
            }
            let mv = moves[rng.random_range(0..moves.len())];
            history.push((board.clone(), mv));
            board.play_checked(mv).unwrap();
        }
        let winner = board.winner().unwrap();
        winners[winner.index()] += 1;
        // The winner's condition holds.
        let won = board.alive(winner.other()) == 0
            || board.at(winner.goal()).is_some_and(|(c, _)| c == winner);
        assert!(won, "{}", board.render());
        assert!(board.moves().is_empty());
        // Unwinding the whole game restores every earlier position.
        let mut replay = history[0].0.clone();
        for (before, mv) in &history {
            assert_eq!(&replay, before);
            replay.play(*mv);
        }
        assert_eq!(replay, board);
    }
    assert!(winners[0] > 500 && winners[1] > 500, "{winners:?}");
}

#[test]
fn cube_choice_follows_the_die() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..500 {
        let mut board = random_board(&mut rng);
        while board.winner().is_none() {
            let me = board.to_move();
            let die = board.die();
            let (cubes, n) = board.movable();
            if board.cube_cell(me, die).is_some() {
                assert_eq!(&cubes[..n], &[die]);
            } else {
                let below = (0..die).rev().find(|&c| board.cube_cell(me, c).is_some());
                let above = (die + 1..6).find(|&c| board.cube_cell(me, c).is_some());
                let want: Vec<u8> = below.into_iter().chain(above).collect();
                assert_eq!(&cubes[..n], want.as_slice());
            }
            let moves = board.moves();
            board.play(moves[rng.random_range(0..moves.len())]);
        }
    }
}
