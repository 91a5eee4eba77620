//! Nodes alpha-beta visits to each depth at the start of a game, with the race evaluation and
//! one table, plain and with each refinement the deep agent uses: the figures behind its
//! ledger rows.
//!
//! `cargo run --release -p ply-ewn --example alphabeta_nodes [SEED] [MAX_DEPTH]`

use std::time::Instant;

use ply_ewn::duel::agents::race_value;
use ply_ewn::duel::referee::setups;
use ply_ewn::duel::{DuelMove, MatchConfig, parse_dice_file};
use ply_search::{Searcher, TranspositionTable, is_proven};

fn main() {
    let mut args = std::env::args().skip(1);
    let seed = args.next().map_or(3, |s| s.parse().expect("a seed"));
    let max_depth = args.next().map_or(20, |s| s.parse().expect("a depth"));
    let dice = parse_dice_file(include_str!("../../../data/ewn-duel/dice_seq.txt"))
        .expect("the course's dice");
    let config = MatchConfig {
        rounds: 1,
        seed,
        dice,
        move_time: std::time::Duration::from_secs(1),
    };
    let setup = setups(&config).next().expect("one setup");
    let variants: [(&str, bool, bool); 3] = [
        ("table", false, false),
        ("table+pvs", true, false),
        ("table+pvs+killers", true, true),
    ];
    for (name, pvs, killers) in variants {
        let mut board = setup.board().expect("a valid setup");
        let mut table = TranspositionTable::<DuelMove>::new(22);
        for depth in 1..=max_depth {
            let started = Instant::now();
            let mut searcher = Searcher::new(race_value)
                .with_table(&mut table)
                .with_mate_distance();
            if pvs {
                searcher = searcher.with_pvs();
            }
            if killers {
                searcher = searcher.with_killers();
            }
            let result = searcher.root(&mut board, depth).expect("no limits");
            println!(
                "{name} depth {depth}: {} nodes in {:.3} s, value {}",
                result.nodes,
                started.elapsed().as_secs_f64(),
                result.value
            );
            if is_proven(result.value) {
                break;
            }
        }
    }
}
