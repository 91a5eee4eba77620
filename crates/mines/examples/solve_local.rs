//! The solver's logic alone: solves a generated map in process (no server, no IPC) and
//! prints its figures. `cargo run --release -p ply-mines --example solve_local -- N SEED THREADS`

use std::time::Instant;

use ply_mines::Game;
use ply_mines::generate;
use ply_mines::{LocalClicker, SolverConfig, solve_with};
use ply_mines::{MineMap, default_mines};

fn main() {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers: N SEED THREADS"))
        .collect();
    let [n, seed, threads] = args[..] else {
        panic!("usage: solve_local N SEED THREADS");
    };
    let k = default_mines(n as u32);
    let bits = generate(n as u32, k, seed, &|_, _| {}).expect("map");
    let game = Game::new(MineMap::from_bits(n as u32, k, bits).expect("map"));
    let config = SolverConfig {
        threads: threads as usize,
        ..SolverConfig::default()
    };
    let started = Instant::now();
    let clickers = (0..threads).map(|_| LocalClicker::new(&game)).collect();
    let stats = solve_with(
        n as u32,
        k,
        clickers,
        &config,
        &ply_search::Limits::UNLIMITED,
    )
    .expect("solve");
    let counts = game.counts();
    println!(
        "N {n}: {:.3} s, {stats:?}, safe {} of {}, mines {}",
        started.elapsed().as_secs_f64(),
        counts.safe,
        n * n - k,
        counts.mines
    );
}
