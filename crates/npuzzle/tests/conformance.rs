//! ply-search's conformance checks on the sliding-tile search: every move undone exactly, and
//! the incremental estimate of each heuristic equal to the estimate computed afresh.

use ply_npuzzle::heuristic::{LinearConflict, Manhattan};
use ply_npuzzle::pdb::{Partition, PatternDatabase, PdbHeuristic};
use ply_npuzzle::{Board, Heuristic, HeuristicKind, TileSearch};
use ply_search::testing::check_ida_problem;

/// Korf's instance 1 and a 24-puzzle start scrambled from the goal.
fn boards() -> Vec<Board> {
    let korf1: Vec<u64> = [14, 13, 15, 7, 11, 12, 9, 5, 6, 0, 2, 1, 4, 8, 10, 3].to_vec();
    let mut wide = Board::goal(5);
    for (i, dir) in "RRDDLURDDRULLDRRUULDDDRUL".chars().enumerate() {
        let dir = ply_npuzzle::Direction::from_letter(dir).expect("a letter");
        wide = wide
            .moved(dir)
            .unwrap_or_else(|| panic!("move {i} stays on the board"));
    }
    vec![Board::from_tiles(&korf1).unwrap(), wide, Board::goal(3)]
}

/// The board a search is at, to compare before and after a move.
fn snapshot<H>(search: &TileSearch<H>) -> Board {
    search.board()
}

/// The estimate of `kind` for the board a search is at, computed afresh.
fn fresh<H>(kind: HeuristicKind) -> impl Fn(&TileSearch<H>) -> u32 {
    move |search| kind.evaluate(&search.board())
}

#[test]
fn moves_undo_and_estimates_stay_exact_for_every_heuristic() {
    for board in boards() {
        let mut manhattan = TileSearch::new(&board, Manhattan::new(&board));
        let walked = check_ida_problem(
            &mut manhattan,
            30,
            40,
            1,
            snapshot,
            fresh(HeuristicKind::Manhattan),
        );
        assert!(walked.deepest >= 30, "{walked:?}");
        assert_eq!(manhattan.board(), board, "back at the root");
        let mut conflict = TileSearch::new(&board, LinearConflict::new(&board));
        check_ida_problem(
            &mut conflict,
            30,
            40,
            2,
            snapshot,
            fresh(HeuristicKind::LinearConflict),
        );
    }
}

#[test]
fn pattern_database_estimates_stay_exact() {
    let partition = Partition::new(3, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap();
    let database = PatternDatabase::build(&partition, &|_, _, _| {}).unwrap();
    let board = Board::from_tiles(&[8, 6, 7, 2, 5, 4, 3, 0, 1]).unwrap();
    for reflect in [false, true] {
        let heuristic = Heuristic::Pdb {
            database: &database,
            reflect,
        };
        let mut search = TileSearch::new(&board, PdbHeuristic::new(&database, &board, reflect));
        check_ida_problem(&mut search, 30, 40, 3, snapshot, |s| {
            heuristic.evaluate(&s.board())
        });
    }
}
