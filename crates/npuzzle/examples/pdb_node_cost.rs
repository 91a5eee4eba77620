//! What a 24-puzzle node costs with tables that miss the processor's caches against tables
//! that fit them: the time per generated node of IDA* on one of Korf's 50 with the 6-6-6-6
//! databases (four tables of 64 MB) and with a 5-5-5-5-4 partition built in memory (13 MB,
//! inside a 32 MB last-level cache), both without reflection and with the same duplicate
//! pruning, under the same node budget.
//!
//! `cargo run --release -p ply-npuzzle --example pdb_node_cost -- DIR [ID [NODES [ROUNDS]]]`:
//! DIR holds npuzzle-5x5-6-6-6-6.pdb (`ply npuzzle pdb build --partition 6-6-6-6 --pdb-dir
//! DIR`), ID is the instance (default 25), NODES the budget (default 100 million), ROUNDS the
//! runs of each, alternated (default 3).

use std::path::Path;
use std::time::Instant;

use ply_npuzzle::instances::bundled;
use ply_npuzzle::pdb::{Partition, PatternDatabase, Published};
use ply_npuzzle::{Heuristic, MoveFsm, solve_with};
use ply_search::Limits;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let dir = args.first().expect("the databases' directory");
    let id = args.get(1).map_or("25", String::as_str);
    let nodes: u64 = args
        .get(2)
        .map_or(100_000_000, |n| n.parse().expect("NODES"));
    let rounds: usize = args.get(3).map_or(3, |n| n.parse().expect("ROUNDS"));
    let instance = bundled::korf50_24()
        .into_iter()
        .find(|i| i.id.as_deref() == Some(id))
        .expect("one of Korf's 50");
    let big_partition = Published::P6666.partition();
    let big = PatternDatabase::load(
        &Path::new(dir).join(big_partition.file_name()),
        &big_partition,
    )
    .expect("the 6-6-6-6 databases");
    let small_partition = Partition::new(
        5,
        &[
            &[1, 2, 5, 6, 10],
            &[3, 4, 7, 8, 9],
            &[11, 15, 16, 20, 21],
            &[12, 13, 14, 17, 18],
            &[19, 22, 23, 24],
        ],
    )
    .expect("a partition");
    let small = PatternDatabase::build(&small_partition, &|_, _, _| {}).expect("built");
    let limits = Limits::UNLIMITED.with_max_nodes(nodes);
    for round in 1..=rounds {
        for (name, database) in [("6-6-6-6", &big), ("5-5-5-5-4", &small)] {
            let heuristic = Heuristic::Pdb {
                database,
                reflect: false,
            };
            let began = Instant::now();
            let report = solve_with(
                &instance.board,
                heuristic,
                limits.clone(),
                1,
                MoveFsm::standard(),
            )
            .expect("a solvable board");
            let took = began.elapsed().as_secs_f64();
            println!(
                "round {round} {name:>9}: {} generated in {took:.2} s, {:.1} ns a node, h0 {}",
                report.generated,
                took * 1e9 / report.generated as f64,
                report.initial_bound
            );
        }
    }
}
