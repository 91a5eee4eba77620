//! Ablations as ignored tests (they take minutes): what each bound and pruning of the proof
//! brings, and how the answer phases fare, so that a technique is kept only for what it
//! saves. Run them on one thread, which makes every count the same from run to run:
//!
//! ```sh
//! FILES=data/sokoboru/medium.in cargo test --profile ci -p ply-sokoboru --lib \
//!     ablation::proofs -- --ignored --nocapture
//! ```
//!
//! `FILES` lists puzzle files (comma-separated, relative to the repository's root), `NODES`
//! caps the generated states of each case's proof, and of each of its answer phases (none by
//! default: the hard boards need it, their cheaper answers alone may take minutes), `WITHOUT` names the techniques to
//! measure one at a time (by default all of them, then none at all).

use std::time::{Duration, Instant};

use ply_search::Limits;

use crate::parse_puzzles;
use crate::puzzle::Puzzle;
use crate::solver::search::Techniques;
use crate::solver::{CHEAPER, Case};

/// The puzzles of each file of `FILES`, by name.
fn files() -> Vec<(String, Vec<Puzzle>)> {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
    std::env::var("FILES")
        .expect("FILES lists puzzle files")
        .split(',')
        .map(|name| {
            let text = std::fs::read_to_string(format!("{root}{name}")).expect("a puzzle file");
            (name.to_string(), parse_puzzles(&text).expect("puzzles"))
        })
        .collect()
}

/// The techniques with the one named turned off ("all": none off; "none": all off).
fn without(name: &str) -> Techniques {
    let mut t = Techniques::default();
    match name {
        "all" => {}
        "duo" => t.duo = false,
        "drift" => t.drift = false,
        "progress" => t.progress = false,
        "frozen_tables" => t.frozen_tables = false,
        "dominance" => t.dominance = false,
        "pruned_answers" => t.pruned_answers = false,
        "none" => {
            t = Techniques {
                duo: false,
                drift: false,
                progress: false,
                frozen_tables: false,
                dominance: false,
                pruned_answers: false,
            };
        }
        other => panic!("unknown technique {other}"),
    }
    t
}

/// Runs `f` on a pool of one thread.
fn on_one_thread<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .expect("a pool")
        .install(f)
}

/// Per file and technique left out: the cases proven, the states the proofs expanded and
/// generated, their time, and the sum of the lower bounds (the optima where proven). Every
/// case first gets its answers (the first and the cheaper ones), which no technique but
/// `pruned_answers` changes, so every proof starts from the same upper bound.
#[test]
#[ignore]
fn proofs() {
    let nodes: Option<u64> = std::env::var("NODES")
        .ok()
        .map(|n| n.parse().expect("NODES"));
    let names: Vec<String> = std::env::var("WITHOUT").map_or_else(
        |_| {
            [
                "all",
                "duo",
                "drift",
                "progress",
                "frozen_tables",
                "dominance",
                "none",
            ]
            .map(String::from)
            .to_vec()
        },
        |list| list.split(',').map(String::from).collect(),
    );
    for (file, puzzles) in files() {
        for name in &names {
            let techniques = without(name);
            let (mut proven, mut expanded, mut generated, mut bounds) = (0, 0, 0, 0);
            let mut time = Duration::ZERO;
            let mut per_case = String::new();
            for puzzle in &puzzles {
                on_one_thread(|| {
                    let limits = match nodes {
                        Some(n) => Limits::UNLIMITED.with_max_nodes(n),
                        None => Limits::UNLIMITED,
                    };
                    let mut case = Case::with(puzzle, techniques);
                    case.first_answer(&limits);
                    case.improve(&CHEAPER, 1, &limits);
                    let before = case.generated();
                    let started = Instant::now();
                    case.prove(&limits);
                    time += started.elapsed();
                    generated += case.generated() - before;
                    let (done, lower, count) = case.standing();
                    proven += usize::from(done);
                    expanded += count;
                    bounds += lower;
                    per_case += &format!(" {}{lower}", if done { "" } else { ">=" });
                });
            }
            println!(
                "{file} without {name}: proven {proven} of {}, expanded {expanded}, generated \
                 {generated}, {:.2} s, bounds {bounds} ({per_case} )",
                puzzles.len(),
                time.as_secs_f64()
            );
        }
    }
}

/// Per file: the first answers' total penalty and states, then after each weight of the
/// cheaper answers, with and without the proof's bounds pruning them.
#[test]
#[ignore]
fn answers() {
    for (file, puzzles) in files() {
        let names = std::env::var("WITHOUT").unwrap_or_else(|_| "all,pruned_answers".into());
        for name in names.split(',') {
            let techniques = without(name);
            let mut totals = vec![(0u32, 0u64, Duration::ZERO); 1 + CHEAPER.len()];
            let mut proven = 0;
            for puzzle in &puzzles {
                let mut case = Case::with(puzzle, techniques);
                let started = Instant::now();
                case.first_answer(&Limits::UNLIMITED);
                let mut add = |at: usize, case: &Case<'_>| {
                    let best = case.unproven().map_or(0, |best| best.penalty);
                    totals[at].0 += best;
                    totals[at].1 += case.generated();
                    totals[at].2 += started.elapsed();
                };
                add(0, &case);
                for (at, weight) in CHEAPER.iter().enumerate() {
                    case.improve(&[*weight], 1, &Limits::UNLIMITED);
                    add(at + 1, &case);
                }
                proven += usize::from(case.is_final());
            }
            let steps: Vec<String> = totals
                .iter()
                .map(|(total, states, time)| {
                    format!("{total} ({states} states, {:.2} s)", time.as_secs_f64())
                })
                .collect();
            println!(
                "{file} without {name}: {} ; {proven} proven",
                steps.join(" -> ")
            );
        }
    }
}
