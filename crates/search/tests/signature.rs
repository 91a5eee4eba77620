//! Node-count signatures of ply-search's adversarial searches on tic-tac-toe, as chess
//! engines keep a bench signature (shakmaty's perft counts, viridithas's `bench` node
//! count): the exact nodes of plain alpha-beta at fixed depths, of the full searcher (table,
//! PVS, killers, distances) by iterative deepening, and of MCTS over a fixed number of
//! iterations with seeded playouts. Each search runs on one thread without a clock, so the
//! counts are the same on any machine and in any build; a changed count is a changed search
//! (the new signature if meant, a bug if not).

mod common;

use common::{LINES, TicTacToe, after};
use ply_search::alpha_beta;
use ply_search::{Game, Limits, Mcts, MctsConfig, Policy, Searcher, TranspositionTable};

/// Lines still open to the side to move minus those open to the other side.
fn open_lines(game: &TicTacToe) -> i32 {
    let me = game.to_move() + 1;
    let open = |who: u8| {
        LINES
            .iter()
            .filter(|line| {
                line.iter()
                    .all(|&c| game.cells[c] == 0 || game.cells[c] == who)
            })
            .count() as i32
    };
    open(me) - open(3 - me)
}

#[test]
fn alpha_beta_node_counts() {
    // (position, depth) -> (nodes, best move, value): plain alpha-beta in cell order.
    let mut found = Vec::new();
    for (name, moves) in [("empty", &[][..]), ("corner", &[0, 4, 8][..])] {
        for depth in [1, 3, 9] {
            let mut game = after(moves);
            let result = alpha_beta(&mut game, depth, open_lines);
            found.push((name, depth, result.nodes, result.best, result.value));
        }
    }
    // Both positions are draws with best play; depth 9 searches every game to its end.
    let want = vec![
        ("empty", 1, 9, Some(4), 4),
        ("empty", 3, 162, Some(4), 3),
        ("empty", 9, 18_296, Some(0), 0),
        ("corner", 1, 6, Some(2), 1),
        ("corner", 3, 90, Some(1), 1),
        ("corner", 9, 317, Some(1), 0),
    ];
    assert_eq!(found, want);
}

#[test]
fn full_searcher_node_counts() {
    // Iterative deepening to the end of the game with a table, PVS, killers and distances.
    let mut found = Vec::new();
    for (name, moves) in [("empty", &[][..]), ("corner", &[0, 4, 8][..])] {
        let mut table = TranspositionTable::new(12);
        let mut game = after(moves);
        let result = Searcher::new(open_lines)
            .with_table(&mut table)
            .with_pvs()
            .with_killers()
            .with_mate_distance()
            .iterative(&mut game, 9);
        found.push((name, result.depth, result.nodes, result.best, result.value));
    }
    let want = vec![
        ("empty", 9, 6_277, Some(4), 0),
        ("corner", 9, 742, Some(1), 0),
    ];
    assert_eq!(found, want);
}

/// Uniformly random playouts from a seeded generator (SplitMix64).
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

impl Policy<TicTacToe> for Random {
    fn playout(&mut self, game: &mut TicTacToe) -> f64 {
        loop {
            if let Some(outcome) = game.outcome() {
                return outcome.reward0();
            }
            let moves = game.moves();
            let mv = moves[self.below(moves.len())];
            game.play(mv);
        }
    }
}

#[test]
fn mcts_node_counts() {
    // Up to 2,000 iterations with the default settings (UCB1, the solver) and seed 7: the
    // iterations run, the tree's size, the deepest node, the most visited move and the root
    // children's visits.
    let mut found = Vec::new();
    for (name, moves) in [("empty", &[][..]), ("corner", &[0, 4, 8][..])] {
        let mut tree = Mcts::new(after(moves), MctsConfig::default(), 0);
        let stats = tree.search(&mut Random(7), &Limits::default().with_max_nodes(2000));
        let visits: Vec<u32> = tree.root_children().iter().map(|c| c.visits).collect();
        found.push((
            name,
            stats.iterations,
            stats.nodes,
            stats.depth,
            tree.best_move(),
            visits,
        ));
    }
    // The solver proves the second position a draw after 152 iterations, and stops.
    let want = vec![
        (
            "empty",
            2000,
            4046,
            6,
            Some(4),
            vec![190, 115, 243, 102, 612, 94, 234, 154, 256],
        ),
        ("corner", 152, 261, 6, Some(1), vec![32, 18, 27, 30, 18, 27]),
    ];
    assert_eq!(found, want);
}
