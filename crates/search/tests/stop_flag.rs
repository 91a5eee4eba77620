//! A raised `StopFlag` stops every search as a budget would, and says so: never an answer,
//! never "no solution".

use std::time::Instant;

use ply_search::{
    AStarError, DfPn, Filled, Game, GiveUp, IdaProblem, Limits, NoKnowledge, NullWindow, Outcome,
    ProofResult, ProofTable, SolvedTable, StopFlag, astar, ida_star, parallel_ida_star,
};

/// A binary tree `DEPTH` levels deep without a goal: searched in full, it is proven to have
/// no solution, which takes far longer than any test may (2^28 leaves per iteration).
#[derive(Clone, Debug, Default)]
struct Tree;

const DEPTH: u32 = 28;

impl IdaProblem for Tree {
    type Move = u8;
    type Moves = Filled<std::ops::Range<u8>>;
    type Node = u32;

    fn root(&mut self) -> u32 {
        0
    }

    fn heuristic(&mut self, _: u32, _: u32) -> u32 {
        0
    }

    fn is_goal(&self, _: u32) -> bool {
        false
    }

    fn moves(&self, depth: u32, _: Option<u8>) -> Self::Moves {
        Filled(0..if depth < DEPTH { 2 } else { 0 })
    }

    fn apply(&mut self, depth: u32, _: u8) -> (u32, u32) {
        (depth + 1, 1)
    }

    fn undo(&mut self, _: u32, _: u8, _: u32) {}
}

fn stopped() -> Limits {
    let flag = StopFlag::new();
    flag.stop();
    Limits::default().with_stop(flag)
}

#[test]
fn ida_star_stops_on_the_flag() {
    let report = ida_star(&mut Tree, stopped());
    assert_eq!(report.stopped, Some(GiveUp::Stopped));
}

#[test]
fn parallel_ida_star_reports_the_flag_not_a_finished_iteration() {
    // Threads stopped by the caller must not be taken for threads cancelled by a sibling
    // that solved the problem, which would end the iteration as if it were searched in full.
    for threads in [2, 3] {
        let report = parallel_ida_star(&Tree, stopped(), threads);
        assert_eq!(report.stopped, Some(GiveUp::Stopped));
    }
}

#[test]
fn astar_stops_on_the_flag() {
    let started = Instant::now();
    let result = astar(
        &0u64,
        |&n: &u64| [(2 * n + 1, 1u32), (2 * n + 2, 1)],
        |_| 0,
        |_| false,
        stopped(),
    );
    assert!(
        matches!(
            result,
            Err(AStarError::GaveUp {
                why: GiveUp::Stopped,
                ..
            })
        ),
        "{result:?} after {:?}",
        started.elapsed()
    );
}

/// A game of `COIN_PLIES` plies of two moves each, no two paths meeting, each end a win for
/// the player a hash of its path draws: each prover needs thousands of positions, past several of
/// its looks at the clock.
#[derive(Clone, Debug)]
struct Coins {
    /// The moves so far as bits, below a leading 1.
    path: u64,
    plies: u32,
}

const COIN_PLIES: u32 = 20;

impl Coins {
    fn new() -> Self {
        Coins { path: 1, plies: 0 }
    }
}

impl Game for Coins {
    type Move = u8;
    type Moves = Vec<u8>;
    type Undo = ();
    fn to_move(&self) -> u8 {
        (self.plies % 2) as u8
    }
    fn moves(&self) -> Vec<u8> {
        if self.plies < COIN_PLIES {
            vec![0, 1]
        } else {
            Vec::new()
        }
    }
    fn play(&mut self, mv: u8) {
        self.path = self.path << 1 | u64::from(mv);
        self.plies += 1;
    }
    fn undo(&mut self, _: u8, (): ()) {
        self.path >>= 1;
        self.plies -= 1;
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.plies == COIN_PLIES)
            .then(|| Outcome::Win((self.path.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 63) as u8))
    }
    fn hash(&self) -> u64 {
        self.path.wrapping_mul(0xff51_afd7_ed55_8ccd)
    }
}

/// Proves whether player 0 wins [`Coins`] with df-pn within `limits`.
fn df_pn(limits: &Limits) -> ProofResult<u8> {
    let mut table = ProofTable::new(18);
    DfPn::new(&mut table, NoKnowledge)
        .with_limits(limits)
        .prove(&mut Coins::new(), 0)
}

/// Who wins [`Coins`] by null-window deepening within `limits`, and the positions searched.
fn null_window(limits: &Limits) -> (Option<u8>, u64) {
    let mut table = SolvedTable::new(18);
    let mut keep = |_: &Coins, _: &mut [u8]| {};
    let mut bound = |game: &Coins, _: u8| COIN_PLIES - game.plies;
    let mut search = NullWindow::new(&mut table, &mut keep, &mut bound).with_limits(limits);
    let winner = search.winner(&mut Coins::new(), COIN_PLIES);
    (winner, search.nodes())
}

#[test]
fn the_provers_stop_on_the_flag() {
    let result = df_pn(&stopped());
    assert_eq!(result.proven, None);
    assert_eq!(result.nodes, 1, "stopped at the root, the first look");
    assert_eq!(null_window(&stopped()), (None, 1));
}

#[test]
fn a_flag_never_raised_changes_no_proof_and_no_count() {
    // A flag makes the provers look at it every few thousand nodes even without a clock:
    // that must not move where a node budget stops them, nor change a proof.
    for nodes in [1_000, 20_000, 50_000, u64::MAX] {
        let budget = Limits::default().with_max_nodes(nodes);
        let flagged = budget.clone().with_stop(StopFlag::new());
        assert_eq!(df_pn(&budget), df_pn(&flagged), "{nodes} nodes");
        assert_eq!(null_window(&budget), null_window(&flagged), "{nodes} nodes");
    }
}
