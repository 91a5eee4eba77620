//! A raised `StopFlag` stops every search as a budget would, and says so: never an answer,
//! never "no solution".

use std::time::Instant;

use ply_search::{
    AStarError, Filled, GiveUp, IdaOutcome, IdaProblem, Limits, StopFlag, astar, ida_star,
    parallel_ida_star,
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
    assert_eq!(report.outcome, IdaOutcome::GaveUp(GiveUp::Stopped));
}

#[test]
fn parallel_ida_star_reports_the_flag_not_a_finished_iteration() {
    // Threads stopped by the caller must not be taken for threads cancelled by a sibling
    // that solved the problem, which would end the iteration as if it were searched in full.
    for threads in [2, 3] {
        let report = parallel_ida_star(&Tree, stopped(), threads);
        assert_eq!(report.outcome, IdaOutcome::GaveUp(GiveUp::Stopped));
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
