//! A proof is a strategy: "red wins" means red wins against every blue defence. The prover's
//! proofs of sample starts are played out against every defence (the whole strategy tree,
//! checked with the rules alone) and checked by the verifier.

use std::collections::HashSet;

use ply_ewn::duel::openings::{OpeningProver, OpeningRecord, start, verify};
use ply_ewn::duel::prover::{DuelKnowledge, Verifier};
use ply_ewn::duel::{Board, Color, Prover, parse_dice_file};
use ply_search::{Knowledge, Limits};

fn course_line(index: usize) -> [u8; 21] {
    parse_dice_file(include_str!("../../../data/ewn-duel/dice_seq.txt")).unwrap()[index]
}

/// Plays the winner's proven moves against every defence from `board`, each position once.
/// Where the prover's knowledge decided a position without search (a safe runner, a win in
/// three plies), the verifier, which knows none of it, must agree instead. Panics if a
/// defence escapes or a proven move is illegal.
fn every_defence(
    board: &mut Board,
    winner: Color,
    prover: &mut Prover,
    verifier: &mut Verifier,
    seen: &mut HashSet<u64>,
    knowledge: &mut DuelKnowledge,
) {
    if !seen.insert(board.hash()) {
        return;
    }
    if let Some(w) = board.winner() {
        assert_eq!(w, winner, "a defence escaped:\n{}", board.render());
        return;
    }
    if knowledge.solve(board).is_some() {
        let checked = verifier.winner(board, &Limits::default());
        assert_eq!(checked, Some(winner), "knowledge:\n{}", board.render());
        return;
    }
    if board.to_move() == winner {
        let mv = match prover.known_move(board, Color::Red) {
            Some(mv) => mv,
            None => {
                let proof = prover.prove(board, &Limits::default());
                assert_eq!(proof.winner, Some(winner), "a strategy position is won");
                proof.best.expect("a winning move")
            }
        };
        let undo = board.play_checked(mv).expect("a legal proven move");
        every_defence(board, winner, prover, verifier, seen, knowledge);
        board.undo(mv, undo);
    } else {
        for mv in board.moves().iter().copied() {
            let undo = board.play(mv);
            every_defence(board, winner, prover, verifier, seen, knowledge);
            board.undo(mv, undo);
        }
    }
}

#[test]
fn proven_starts_hold_against_every_defence() {
    let dice = course_line(0);
    let mut prover = Prover::new(20);
    let mut verifier = Verifier::new(20);
    let mut checked = 0;
    for index in (0..200).map(|i| i * 2_591) {
        let (red, blue) = start(index);
        let mut board = Board::new(red, blue, dice).unwrap();
        let proof = prover.prove(&board, &Limits::default().with_max_nodes(60_000));
        let Some(winner) = proof.winner else {
            continue;
        };
        let mut seen = HashSet::new();
        every_defence(
            &mut board,
            winner,
            &mut prover,
            &mut verifier,
            &mut seen,
            &mut DuelKnowledge::default(),
        );
        assert!(
            seen.len() > 10,
            "a strategy tree of {} positions",
            seen.len()
        );
        checked += 1;
        if checked == 4 {
            break;
        }
    }
    assert_eq!(checked, 4, "four small proofs among the first starts tried");
}

#[test]
fn records_of_another_dice_line_replay_and_verify() {
    let dice = course_line(7);
    let mut prover = OpeningProver::new(Prover::new(20));
    let mut verifier = Verifier::new(20);
    let records: Vec<OpeningRecord> = (0..40)
        .map(|i| {
            prover.prove(
                &dice,
                i * 12_959,
                &Limits::default().with_max_nodes(100_000),
            )
        })
        .filter(|r| r.winner.is_some())
        .take(3)
        .collect();
    assert_eq!(records.len(), 3);
    for record in &records {
        record.check_line().unwrap();
        let confirmed = verify(
            record,
            &mut verifier,
            &Limits::default().with_max_nodes(50_000_000),
        );
        assert_eq!(confirmed, Ok(true), "start {}", record.start);
    }
}
