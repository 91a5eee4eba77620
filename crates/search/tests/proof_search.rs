//! The two provers on small real games, against plain minimax: a subtraction game (no
//! draws, transpositions everywhere) and tic-tac-toe (draws).

mod common;

use common::TicTacToe;
use ply_search::testing::wins;
use ply_search::{
    DfPn, Game, Knowledge, Limits, NoKnowledge, NullWindow, Outcome, ProofTable, SolvedTable,
};

/// Take 1, 2 or 3 counters; whoever takes the last one wins. The mover loses exactly when
/// the counters are a multiple of four.
#[derive(Clone)]
struct Subtraction {
    left: u32,
    mover: u8,
}

impl Game for Subtraction {
    type Move = u32;
    type Moves = Vec<u32>;
    type Undo = ();
    fn to_move(&self) -> u8 {
        self.mover
    }
    fn moves(&self) -> Vec<u32> {
        (1..=3.min(self.left)).collect()
    }
    fn play(&mut self, take: u32) {
        self.left -= take;
        self.mover = 1 - self.mover;
    }
    fn undo(&mut self, take: u32, (): ()) {
        self.left += take;
        self.mover = 1 - self.mover;
    }
    fn outcome(&self) -> Option<Outcome> {
        // The player who took the last counter (not the one to move) has won.
        (self.left == 0).then_some(Outcome::Win(1 - self.mover))
    }
    fn hash(&self) -> u64 {
        u64::from(self.left) * 2 + u64::from(self.mover)
    }
}

#[test]
fn both_provers_solve_the_subtraction_game() {
    let mut table = ProofTable::new(10);
    let mut solved = SolvedTable::new(10);
    for left in 1..=60 {
        let mut game = Subtraction { left, mover: 0 };
        let mover_wins = left % 4 != 0;
        let result = DfPn::new(&mut table, NoKnowledge).prove(&mut game, 0);
        assert_eq!(result.proven, Some(mover_wins), "{left} counters");
        if mover_wins {
            assert_eq!(result.best, Some(left % 4), "the winning take");
        }
        let mut keep = |_: &Subtraction, _: &mut [u32]| {};
        // A player needs at least one ply to take the last counter.
        let mut bound = |_: &Subtraction, _: u8| 1;
        let winner = NullWindow::new(&mut solved, &mut keep, &mut bound).winner(&mut game, 100);
        assert_eq!(winner, Some(if mover_wins { 0 } else { 1 }), "{left}");
    }
}

/// Knowledge that knows the subtraction game's answer: the search then needs no depth.
struct Formula;

impl Knowledge<Subtraction> for Formula {
    fn solve(&mut self, game: &Subtraction) -> Option<Outcome> {
        let mover = game.to_move();
        Some(Outcome::Win(if !game.left.is_multiple_of(4) {
            mover
        } else {
            1 - mover
        }))
    }
}

#[test]
fn knowledge_that_solves_positions_ends_the_search_at_once() {
    let mut table = ProofTable::new(6);
    let mut game = Subtraction {
        left: 1_000_001,
        mover: 1,
    };
    let result = DfPn::new(&mut table, Formula)
        .with_limits(&Limits::default().with_max_nodes(10))
        .prove(&mut game, 1);
    assert_eq!(result.proven, Some(true));
    assert_eq!(result.best, Some(1));
    assert_eq!(result.nodes, 1, "only the root is expanded");
}

#[test]
fn tic_tac_toe_is_a_draw_and_its_positions_agree_with_minimax() {
    let mut table = ProofTable::new(12);
    let mut solved = SolvedTable::new(12);
    let mut game = TicTacToe::default();
    for attacker in 0..2 {
        let result = DfPn::new(&mut table, NoKnowledge).prove(&mut game, attacker);
        assert_eq!(result.proven, Some(false), "neither player wins");
    }
    let mut keep = |_: &TicTacToe, _: &mut [u8]| {};
    let mut bound = |_: &TicTacToe, _: u8| 0;
    let winner = NullWindow::new(&mut solved, &mut keep, &mut bound).winner(&mut game, 9);
    assert_eq!(winner, None, "a draw");
    // Every position after two moves, for both players.
    for a in 0..9u8 {
        for b in (0..9).filter(|&b| b != a) {
            let mut game = TicTacToe::default();
            game.play(a);
            game.play(b);
            for attacker in 0..2 {
                let want = wins(&mut game, attacker);
                let result = DfPn::new(&mut table, NoKnowledge).prove(&mut game, attacker);
                assert_eq!(result.proven, Some(want), "{a} {b} attacker {attacker}");
            }
            let want = (0..2).find(|&p| wins(&mut game, p));
            let winner = NullWindow::new(&mut solved, &mut keep, &mut bound).winner(&mut game, 9);
            assert_eq!(winner, want, "{a} {b}");
        }
    }
}
