//! Solves one puzzle file's cases with a large memory cap, for measuring how many states the
//! search needs: `cargo run --release -p ply-sokoboru --example big_memory FILE GIB`.

use ply_search::Limits;
use ply_sokoboru::{parse_puzzles, solve};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(&args[1]).expect("readable file");
    let gib: usize = args[2].parse().expect("GiB");
    for (i, puzzle) in parse_puzzles(&text).expect("valid file").iter().enumerate() {
        let limits = Limits::default().with_max_memory(gib << 30);
        match solve(puzzle, limits) {
            Ok(s) => println!(
                "case {}: penalty {} expanded {} in {:.2?}",
                i + 1,
                s.penalty,
                s.expanded,
                s.elapsed
            ),
            Err(e) => println!("case {}: {e}", i + 1),
        }
    }
}
