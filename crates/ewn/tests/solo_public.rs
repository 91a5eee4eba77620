//! The course's public cases: every optimum, checked by replaying the solution.

use std::path::PathBuf;

use ply_ewn::solo::{Instance, Verdict, check, parse_solution, solve};
use ply_search::{Ending, Limits};

fn data(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../data/ewn-solo")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

const PUBLIC: [&str; 12] = [
    "1.1",
    "1.2",
    "1.3",
    "2.1",
    "2.2",
    "2.3",
    "3.1",
    "3.2",
    "3.3",
    "bonus_sample1",
    "bonus_sample2",
    "bonus_sample3",
];

#[test]
fn public_cases_are_solved_optimally() {
    for name in PUBLIC {
        let instance = Instance::parse(&data(&format!("tcg2024-public/{name}"))).unwrap();
        let optimum = instance
            .known_optimum
            .expect("public cases carry their optimum");
        let report = solve(&instance, Limits::UNLIMITED);
        let Ending::Solved { moves, .. } = report.ending else {
            panic!("{name}: {:?}", report.ending)
        };
        assert_eq!(moves.len() as u32, optimum, "{name}");
        let pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
        let verdict = check(&instance, &pairs, Some(optimum));
        assert!(
            matches!(verdict, Verdict::Solved { over: Some(0), .. }),
            "{name}: {verdict}"
        );
        assert!(report.initial_bound <= optimum);
    }
}

#[test]
fn sample_solution_is_legal_and_the_optimum_is_not_longer() {
    let instance = Instance::parse(&data("sample.in")).unwrap();
    let pairs = parse_solution(&data("sample.out")).unwrap();
    assert_eq!(pairs.len(), 16);
    let verdict = check(&instance, &pairs, None);
    assert!(verdict.is_legal(), "{verdict}");
    let Ending::Solved { moves, .. } = solve(&instance, Limits::UNLIMITED).ending else {
        panic!("sample unsolved")
    };
    assert!(moves.len() <= 16);
    let graded = check(&instance, &pairs, Some(moves.len() as u32));
    assert_eq!(
        graded,
        Verdict::Solved {
            moves: match check(&instance, &pairs, None) {
                Verdict::Solved { moves, .. } => moves,
                other => panic!("{other}"),
            },
            over: Some(16 - moves.len() as u32)
        }
    );
}

#[test]
fn bundled_generated_sets_keep_their_answers() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../data/ewn-solo/generated");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .collect();
    files.sort();
    let (mut solved, mut unsolvable) = (0, 0);
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for block in text.split("\n\n").filter(|b| !b.trim().is_empty()) {
            let instance = Instance::parse(block).unwrap();
            let report = solve(&instance, Limits::UNLIMITED);
            match report.ending {
                Ending::Solved { moves, .. } => {
                    let optimum = instance.known_optimum.expect("an optimum on the 4th line");
                    assert_eq!(
                        moves.len() as u32,
                        optimum,
                        "{}: {instance}",
                        file.display()
                    );
                    let pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
                    assert!(check(&instance, &pairs, None).is_legal());
                    solved += 1;
                }
                Ending::Unsolvable => {
                    assert!(instance.known_unsolvable, "{}: {instance}", file.display());
                    unsolvable += 1;
                }
                Ending::Stopped => panic!("{}: {instance}: {:?}", file.display(), report.stopped),
            }
        }
    }
    assert!(
        solved >= 240 && unsolvable >= 10,
        "{solved} solved, {unsolvable} unsolvable"
    );
}
