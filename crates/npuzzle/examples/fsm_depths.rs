//! The duplicate-pruning machines by depth: the strings they forbid, their states and the time
//! to build them; `--write FILE` writes the last one's bytes (how `src/fsm-12.bin` is made).
//!
//! `cargo run --release -p ply-npuzzle --example fsm_depths -- 2 8 10 12 [--write FILE]`
use std::time::Instant;

use ply_npuzzle::MoveFsm;

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let write = args
        .iter()
        .position(|a| a == "--write")
        .and_then(|i| args.get(i + 1));
    let depths: Vec<usize> = args.iter().filter_map(|a| a.parse().ok()).collect();
    println!("depth\tforbidden\tstates\tseconds");
    let mut last = None;
    for depth in depths {
        let t = Instant::now();
        let fsm = MoveFsm::build(depth);
        println!(
            "{}\t{}\t{}\t{:.3}",
            fsm.depth(),
            fsm.forbidden(),
            fsm.states(),
            t.elapsed().as_secs_f64()
        );
        last = Some(fsm);
    }
    if let (Some(path), Some(fsm)) = (write, last) {
        std::fs::write(path, fsm.to_bytes())?;
    }
    Ok(())
}
