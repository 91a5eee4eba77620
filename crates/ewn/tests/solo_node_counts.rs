//! Exact node counts of the single-player solver, which are deterministic (one thread, a
//! transposition table filled in a fixed order): a change to the move order, the bounds or the
//! search that changes how many nodes are generated, expanded or relaxed shows here, as
//! engine benches pin their perft counts. docs/BENCHMARKS.md quotes two of them: at most 131
//! real nodes and 29,582 relaxed ones on the public cases (both bonus_sample3's).

use std::path::PathBuf;

use ply_ewn::solo::{Instance, solve};
use ply_search::{Ending, Limits};

fn instances(name: &str) -> Vec<Instance> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/ewn-solo")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Instance::parse_many(&text).unwrap()
}

/// The optimum (`None`: no solution), the root's bound and the counts: generated, expanded,
/// relaxed generated.
fn counts(instance: &Instance) -> (Option<usize>, u32, u64, u64, u64) {
    let report = solve(instance, Limits::UNLIMITED);
    let optimum = match &report.ending {
        Ending::Solved { moves, .. } => Some(moves.len()),
        Ending::Unsolvable => None,
        Ending::Stopped => panic!("gave up: {:?}", report.stopped),
    };
    (
        optimum,
        report.initial_bound,
        report.generated,
        report.expanded,
        report.extra.relaxed_generated,
    )
}

#[test]
fn the_public_cases_and_the_sample() {
    let expected = [
        ("sample.in", Some(16), 16, 42, 16, 4_824),
        ("tcg2024-public/1.1", Some(0), 0, 0, 0, 0),
        ("tcg2024-public/1.2", Some(6), 6, 7, 6, 26),
        ("tcg2024-public/1.3", Some(10), 10, 18, 10, 330),
        ("tcg2024-public/2.1", Some(10), 10, 12, 10, 83),
        ("tcg2024-public/2.2", Some(15), 15, 21, 15, 7_524),
        ("tcg2024-public/2.3", Some(15), 15, 18, 15, 1_263),
        ("tcg2024-public/3.1", Some(18), 18, 36, 18, 1_940),
        ("tcg2024-public/3.2", Some(18), 18, 44, 18, 6_720),
        ("tcg2024-public/3.3", Some(20), 20, 33, 20, 16_523),
        ("tcg2024-public/bonus_sample1", Some(23), 23, 39, 23, 10_119),
        ("tcg2024-public/bonus_sample2", Some(25), 25, 38, 25, 13_971),
        (
            "tcg2024-public/bonus_sample3",
            Some(25),
            25,
            131,
            33,
            29_582,
        ),
    ];
    for (name, optimum, bound, generated, expanded, relaxed) in expected {
        assert_eq!(
            counts(&instances(name)[0]),
            (optimum, bound, generated, expanded, relaxed),
            "{name}"
        );
    }
}

#[test]
fn hard_and_unsolvable_instances() {
    let hard = instances("generated/hard10-seed400-min28.txt");
    assert_eq!(counts(&hard[0]), (Some(28), 28, 77, 28, 324_846));
    assert_eq!(counts(&hard[1]), (Some(28), 28, 68, 28, 22_881));
    // Proven unsolvable at the root by the relaxed game alone.
    let unsolvable = instances("generated/unsolvable10-crafted.txt");
    let relaxed = [481_889, 392_867, 1_172_011];
    for (instance, relaxed) in unsolvable.iter().zip(relaxed) {
        assert_eq!(counts(instance), (None, u32::MAX, 0, 0, relaxed));
    }
}
