//! The solver on small maps in process: deductions never open a mine, every safe cell is
//! opened, and a score of 100 under A = 8.

use ply_mines::Game;
use ply_mines::generate;
use ply_mines::{LocalClicker, SolverConfig, Strategy, solve_with};
use ply_mines::{MineMap, default_mines};
use ply_search::{GiveUp, Limits, StopFlag};

fn game(n: u32, seed: u64) -> Game {
    let k = default_mines(n);
    let bits = generate(n, k, seed, &|_, _| {}).unwrap();
    Game::new(MineMap::from_bits(n, k, bits).unwrap())
}

/// The contest's score.
fn score(n: u32, k: u64, safe: u64, mines: u64, a: f64) -> f64 {
    let cells = f64::from(n) * f64::from(n);
    let value = (safe as f64 - a * (mines as f64 - 0.0002 * k as f64))
        / ((cells - k as f64) * 0.9998)
        * 100.0;
    value.clamp(0.0, 100.0)
}

#[test]
fn every_safe_cell_is_opened_and_no_deduction_hits_a_mine() {
    for (n, seed, threads) in [(16, 1, 1), (32, 2, 2), (64, 3, 1), (128, 4, 2), (256, 5, 2)] {
        let game = game(n, seed);
        let k = game.map().k();
        let config = SolverConfig {
            threads,
            ..SolverConfig::default()
        };
        let clickers = (0..threads).map(|_| LocalClicker::new(&game)).collect();
        let stats = solve_with(n, k, clickers, &config, &Limits::UNLIMITED).unwrap();
        let counts = game.counts();
        assert_eq!(stats.wrong_deductions, 0, "n {n}");
        assert_eq!(
            counts.safe,
            u64::from(n) * u64::from(n) - k,
            "n {n}: every safe cell"
        );
        assert_eq!(counts.mines, stats.mines_hit, "n {n}");
        assert!(stats.mines_hit <= stats.guesses, "n {n}");
        eprintln!("n {n}: {stats:?}");
    }
}

#[test]
fn scores_100_with_a_8_at_512() {
    for seed in 1..=4 {
        let n = 512;
        let game = game(n, seed);
        let k = game.map().k();
        let config = SolverConfig {
            threads: 2,
            ..SolverConfig::default()
        };
        let clickers = (0..2).map(|_| LocalClicker::new(&game)).collect();
        let stats = solve_with(n, k, clickers, &config, &Limits::UNLIMITED).unwrap();
        let counts = game.counts();
        let s = score(n, k, counts.safe, counts.mines, 8.0);
        eprintln!("seed {seed}: {stats:?} score {s}");
        assert!(s >= 100.0, "seed {seed}: score {s}, {counts:?}");
    }
}

#[test]
fn the_reference_approach_opens_everything_too() {
    let n = 128;
    let game = game(n, 9);
    let k = game.map().k();
    let config = SolverConfig {
        threads: 4,
        strategy: Strategy::Reference,
        ..SolverConfig::default()
    };
    let clickers = (0..4).map(|_| LocalClicker::new(&game)).collect();
    let stats = solve_with(n, k, clickers, &config, &Limits::UNLIMITED).unwrap();
    let counts = game.counts();
    assert_eq!(stats.wrong_deductions, 0);
    assert_eq!(counts.safe, u64::from(n) * u64::from(n) - k);
    assert_eq!(counts.mines, stats.mines_hit);
}

/// The solver's exact figures on one map with one worker, which are deterministic (no clock,
/// no thread race, no unseeded randomness): a change to the logic or the guessing policy shows
/// here as a changed signature, to be checked and then recorded.
#[test]
fn one_worker_has_a_fixed_signature_on_a_fixed_map() {
    let run = || {
        let game = game(256, 7);
        let k = game.map().k();
        let config = SolverConfig {
            threads: 1,
            ..SolverConfig::default()
        };
        let stats = solve_with(
            256,
            k,
            vec![LocalClicker::new(&game)],
            &config,
            &Limits::UNLIMITED,
        )
        .unwrap();
        (stats, game.counts())
    };
    let (stats, counts) = run();
    let (again, _) = run();
    let signature = |s: &ply_mines::SolveStats| {
        [
            s.clicks,
            s.opened,
            s.guesses,
            s.frontier_guesses,
            s.mines_hit,
            s.pair_deductions,
            s.enum_deductions,
            s.examined,
        ]
    };
    assert_eq!(signature(&stats), signature(&again), "deterministic");
    assert_eq!(counts.safe, 256 * 256 - 8192, "every safe cell opened");
    assert_eq!(stats.wrong_deductions, 0);
    // clicks, opened, guesses (frontier ones), mines hit, pair and enumeration deductions,
    // numbers examined.
    assert_eq!(
        signature(&stats),
        [14398, 57344, 3, 2, 2, 13, 0, 63948],
        "the solver's figures changed"
    );
}

/// A solve's limits count clicks as nodes: one that runs out of clicks, time or is stopped
/// ends with the clicks it charged and the budget that ran out; without limits it has none.
#[test]
fn limits_end_a_solve_and_say_which() {
    let n = 64;
    let k = default_mines(n);
    let map = || MineMap::from_bits(n, k, generate(n, k, 2, &|_, _| {}).unwrap()).unwrap();
    let config = SolverConfig {
        threads: 1,
        ..SolverConfig::default()
    };
    let game = Game::new(map());
    let clicked = solve_with(
        n,
        k,
        vec![LocalClicker::new(&game)],
        &config,
        &Limits::UNLIMITED,
    );
    assert_eq!(clicked.unwrap().stopped, None);
    let game = Game::new(map());
    let limits = Limits::UNLIMITED.with_max_nodes(3);
    let stats = solve_with(n, k, vec![LocalClicker::new(&game)], &config, &limits).unwrap();
    assert_eq!((stats.stopped, stats.clicks), (Some(GiveUp::NodeLimit), 3));
    let game = Game::new(map());
    let limits = Limits::UNLIMITED.with_max_time(std::time::Duration::ZERO);
    let stats = solve_with(n, k, vec![LocalClicker::new(&game)], &config, &limits).unwrap();
    assert_eq!((stats.stopped, stats.clicks), (Some(GiveUp::TimeLimit), 0));
    let stop = StopFlag::new();
    stop.stop();
    let game = Game::new(map());
    let limits = Limits::UNLIMITED.with_stop(stop);
    let stats = solve_with(n, k, vec![LocalClicker::new(&game)], &config, &limits).unwrap();
    assert_eq!(stats.stopped, Some(GiveUp::Stopped));
}
