//! Pattern databases: admissible and consistent against the 8-puzzle's true distances, never
//! below Manhattan distance, looked up incrementally exactly as from scratch, reflected
//! correctly, optimal on Korf instances, and never used when their file is damaged.

mod common;

use std::collections::{HashMap, VecDeque};
use std::sync::OnceLock;

use ply_npuzzle::heuristic::{Manhattan, TileHeuristic};
use ply_npuzzle::pdb::{Partition, PatternDatabase, PdbHeuristic};
use ply_npuzzle::{
    Board, Direction, Heuristic, PdbError, check_solution, instances::bundled, solve,
    solve_parallel,
};
use ply_search::{Ending, Limits};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// Distances to the goal of every reachable 8-puzzle board, computed once.
fn bfs_distances() -> &'static HashMap<Board, u32> {
    static DIST: OnceLock<HashMap<Board, u32>> = OnceLock::new();
    DIST.get_or_init(common::bfs_distances)
}

/// 8-puzzle partitions: two halves, three groups with a reflection-symmetric one, and the
/// whole puzzle as one pattern.
fn eight_puzzle_partitions() -> Vec<Partition> {
    [
        &[&[1u8, 2, 3, 4][..], &[5, 6, 7, 8]][..],
        &[&[1, 3, 4], &[2, 5, 8], &[6, 7]],
        &[&[1, 2, 3, 4, 5, 6, 7, 8]],
    ]
    .iter()
    .map(|p| Partition::new(3, p).unwrap())
    .collect()
}

fn build(partition: &Partition) -> PatternDatabase {
    PatternDatabase::build(partition, &|_, _, _| {}).unwrap()
}

/// The 5-5-5 database of the 15-puzzle, built once per test binary (seconds).
fn db555() -> &'static PatternDatabase {
    static DB: OnceLock<PatternDatabase> = OnceLock::new();
    DB.get_or_init(|| build(&Partition::named(4, "5-5-5").unwrap()))
}

fn random_board(rng: &mut StdRng, width: usize, steps: usize) -> Board {
    let mut board = Board::goal(width);
    for _ in 0..steps {
        if let Some(next) = board.moved(Direction::ALL[rng.random_range(0..4)]) {
            board = next;
        }
    }
    board
}

fn manhattan(board: &Board) -> u32 {
    Manhattan::new(board).1
}

/// The exact value of a pattern by a plain 0-1 breadth-first search over (placement, blank
/// cell), where moving a pattern tile costs 1 and any other tile 0: the least cost of each
/// placement over all blank cells.
fn pattern_reference(width: usize, tiles: &[u8]) -> HashMap<Vec<u8>, u32> {
    let cells = width * width;
    let start: (Vec<u8>, usize) = (tiles.to_vec(), 0);
    let mut best: HashMap<(Vec<u8>, usize), u32> = HashMap::from([(start.clone(), 0)]);
    let mut deque = VecDeque::from([(start, 0u32)]);
    while let Some(((placement, blank), d)) = deque.pop_front() {
        if best[&(placement.clone(), blank)] < d {
            continue;
        }
        let (r, c) = (blank / width, blank % width);
        let mut next_cells = Vec::new();
        if r > 0 {
            next_cells.push(blank - width);
        }
        if r + 1 < width {
            next_cells.push(blank + width);
        }
        if c > 0 {
            next_cells.push(blank - 1);
        }
        if c + 1 < width {
            next_cells.push(blank + 1);
        }
        for to in next_cells {
            let mut next = placement.clone();
            let cost = match next.iter().position(|&p| usize::from(p) == to) {
                Some(i) => {
                    next[i] = blank as u8;
                    1
                }
                None => 0,
            };
            let key = (next, to);
            if best.get(&key).is_none_or(|&old| old > d + cost) {
                best.insert(key.clone(), d + cost);
                if cost == 0 {
                    deque.push_front((key, d));
                } else {
                    deque.push_back((key, d + 1));
                }
            }
        }
    }
    assert!(
        best.keys()
            .all(|(p, b)| *b < cells && !p.contains(&(*b as u8)))
    );
    let mut values: HashMap<Vec<u8>, u32> = HashMap::new();
    for ((placement, _), d) in best {
        let v = values.entry(placement).or_insert(d);
        *v = (*v).min(d);
    }
    values
}

/// Admissible against the true distances of all 181,440 states, exact against a reference
/// search of each pattern's abstract space, never below Manhattan distance.
///
/// Consistency: a database value is the least cost over all cells of the blank, so it is
/// not consistent in general (nor were Korf and Felner's): one move can lower a value by 3
/// (Zahavi, Felner, Schaeffer and Sturtevant, "Inconsistent heuristics", AAAI 2007). What
/// holds, and is checked, is that each move changes the sum by an odd amount (every pattern
/// value has the parity of its tiles' Manhattan distance), that the whole puzzle as one
/// pattern is exact and therefore consistent, and that IDA* stays optimal (below).
#[test]
fn eight_puzzle_databases_are_exact_admissible_and_above_manhattan() {
    let dist = bfs_distances();
    for partition in eight_puzzle_partitions() {
        let db = build(&partition);
        for (i, pattern) in partition.patterns().iter().enumerate() {
            let reference = pattern_reference(3, pattern.tiles());
            // With two free cells or more every placement is reachable; with the blank alone,
            // half of them (the parity).
            let reachable = if pattern.tiles().len() + 1 < pattern.cells() {
                pattern.entries()
            } else {
                pattern.entries() / 2
            };
            assert_eq!(reference.len() as u64, reachable, "{partition}");
            for (placement, &v) in &reference {
                assert_eq!(
                    db.pattern_value(i, placement),
                    v,
                    "{partition} {placement:?}"
                );
            }
        }
        let whole = partition.patterns().len() == 1;
        let mut inconsistent = 0;
        for (board, &d) in dist {
            let h = db.value(board).unwrap();
            let hr = db.value_reflected(board).unwrap();
            assert!(hr <= d, "{partition}: h {hr} > distance {d} at {board}");
            assert!(
                h >= manhattan(board),
                "{partition}: below Manhattan at {board}"
            );
            assert!(hr >= h);
            if whole {
                assert_eq!(h, d, "the whole puzzle as one pattern is exact at {board}");
            }
            for dir in Direction::ALL {
                if let Some(next) = board.moved(dir) {
                    let step = h.abs_diff(db.value(&next).unwrap());
                    assert_eq!(step % 2, 1, "{partition}: even change at {board}");
                    inconsistent += usize::from(step > 1);
                }
            }
        }
        // Exact values are consistent; the split databases are not (see above).
        assert_eq!(
            inconsistent == 0,
            whole,
            "{partition}: {inconsistent} inconsistent moves"
        );
        // Each pattern's value is at least the Manhattan distance of its own tiles.
        let mut rng = StdRng::seed_from_u64(5);
        for _ in 0..2000 {
            let board = random_board(&mut rng, 3, 60);
            for (i, pattern) in partition.patterns().iter().enumerate() {
                let positions: Vec<u8> = pattern
                    .tiles()
                    .iter()
                    .map(|&t| board.tiles().iter().position(|&x| x == t).unwrap() as u8)
                    .collect();
                let md: u32 = pattern
                    .tiles()
                    .iter()
                    .zip(&positions)
                    .map(|(&t, &p)| {
                        let (t, p) = (usize::from(t), usize::from(p));
                        ((t / 3).abs_diff(p / 3) + (t % 3).abs_diff(p % 3)) as u32
                    })
                    .sum();
                assert!(db.pattern_value(i, &positions) >= md);
            }
        }
    }
}

#[test]
fn fifteen_puzzle_database_is_never_below_manhattan() {
    let db = db555();
    let mut rng = StdRng::seed_from_u64(7);
    for _ in 0..20_000 {
        let board = random_board(&mut rng, 4, 200);
        let h = db.value(&board).unwrap();
        assert!(h >= manhattan(&board), "{board}");
        assert_eq!(
            h % 2,
            manhattan(&board) % 2,
            "values keep Manhattan's parity"
        );
    }
}

#[test]
fn reflection_is_the_database_of_the_mirror_image() {
    let db = db555();
    let mut rng = StdRng::seed_from_u64(11);
    let mut differs = 0;
    for _ in 0..5000 {
        let board = random_board(&mut rng, 4, 300);
        let mirror = board.reflected();
        assert_eq!(mirror.reflected(), board);
        let (mut state, h) = PdbHeuristic::new(db, &board, true);
        let (_, h_mirror) = PdbHeuristic::new(db, &mirror, false);
        assert_eq!(h, db.value(&board).unwrap());
        assert_eq!(h_mirror, db.value(&mirror).unwrap());
        // The maximised value is the larger of the state's and its mirror image's.
        assert_eq!(state.value(h, u32::MAX), h.max(h_mirror));
        assert_eq!(db.value_reflected(&board).unwrap(), h.max(h_mirror));
        differs += usize::from(h != h_mirror);
    }
    assert!(
        differs > 1000,
        "the 5-5-5 partition is not symmetric: {differs}"
    );
}

#[test]
fn incremental_lookups_match_lookups_from_scratch() {
    let db = db555();
    let mut rng = StdRng::seed_from_u64(13);
    let start = random_board(&mut rng, 4, 100);
    let (mut state, mut h) = PdbHeuristic::new(db, &start, true);
    let mut board = start;
    let mut trail: Vec<(Board, u32, u8, usize, usize, bool)> = Vec::new();
    for step in 0..4000 {
        // Mostly forward, sometimes back: exercises the undo stack at every depth.
        if !trail.is_empty() && rng.random_range(0..3) == 0 {
            let (before, h_before, tile, from, to, vertical) = trail.pop().unwrap();
            state.unmoved(tile, from, to, vertical);
            board = before;
            h = h_before;
        } else {
            let dir = Direction::ALL[rng.random_range(0..4)];
            let Some(next) = board.moved(dir) else {
                continue;
            };
            let (blank, to) = (board.blank(), next.blank());
            let tile = board.tiles()[to];
            let new_h = state.moved(h, tile, to, blank, dir.is_vertical());
            trail.push((board, h, tile, to, blank, dir.is_vertical()));
            board = next;
            h = new_h;
        }
        assert_eq!(h, db.value(&board).unwrap(), "step {step}");
        // Skipping the reflected part (pruned nodes) must not spoil later values.
        if step % 3 != 0 {
            assert_eq!(
                state.value(h, u32::MAX),
                db.value_reflected(&board).unwrap(),
                "step {step}"
            );
        } else if h > 0 {
            assert_eq!(state.value(h, h - 1), h, "pruned: the regular value only");
        }
    }
}

#[test]
fn databases_solve_the_eight_puzzle_optimally() {
    let dist = bfs_distances();
    let dbs: Vec<PatternDatabase> = eight_puzzle_partitions().iter().map(build).collect();
    for (i, (board, &d)) in dist.iter().enumerate().filter(|(i, _)| i % 97 == 0) {
        let db = &dbs[i % dbs.len()];
        let report = solve(
            board,
            Heuristic::Pdb {
                database: db,
                reflect: i % 2 == 0,
            },
            Limits::UNLIMITED,
        )
        .unwrap();
        let Ending::Solved { cost, moves: path } = report.ending else {
            panic!("not solved");
        };
        assert_eq!(cost, d, "{board}");
        check_solution(board, &path).unwrap();
    }
}

#[test]
fn the_555_database_solves_korf_instances_optimally() {
    let db = db555();
    for instance in bundled::korf100().iter().take(6) {
        let lc = solve(
            &instance.board,
            Heuristic::LinearConflict,
            Limits::UNLIMITED,
        )
        .unwrap();
        for (reflect, threads) in [(false, 1), (true, 1), (true, 2)] {
            let report = solve_parallel(
                &instance.board,
                Heuristic::Pdb {
                    database: db,
                    reflect,
                },
                Limits::UNLIMITED,
                threads,
            )
            .unwrap();
            let Ending::Solved { cost, moves: path } = &report.ending else {
                panic!("not solved");
            };
            assert_eq!(Some(*cost), instance.optimal, "{}", instance.label());
            check_solution(&instance.board, path).unwrap();
            assert!(report.generated < lc.generated, "{}", instance.label());
        }
    }
}

#[test]
fn a_database_of_another_size_is_refused() {
    let board: Board = "1 2 0 3 4 5 6 7 8".parse().unwrap();
    let err = solve(
        &board,
        Heuristic::Pdb {
            database: db555(),
            reflect: true,
        },
        Limits::UNLIMITED,
    )
    .unwrap_err();
    assert!(err.to_string().contains("4x4"), "{err}");
}

/// A directory removed when dropped, so also when the test panics.
fn scratch() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("ply-pdb-test-")
        .tempdir()
        .unwrap()
}

#[test]
fn files_round_trip_and_damaged_files_are_rejected() {
    let partition = Partition::new(3, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap();
    let db = build(&partition);
    let scratch = scratch();
    let dir = scratch.path();
    let path = dir.join("sub").join(partition.file_name());
    db.save(&path).unwrap();
    let loaded = PatternDatabase::load(&path, &partition).unwrap();
    assert!(loaded.is_loaded());
    assert_eq!(loaded.data(), db.data());
    let leftovers: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        leftovers.len(),
        1,
        "no temporary file is left: {leftovers:?}"
    );

    let bytes = std::fs::read(&path).unwrap();
    let reject = |name: &str, content: &[u8], expect: &str| {
        let bad = dir.join(name);
        std::fs::write(&bad, content).unwrap();
        match PatternDatabase::load(&bad, &partition) {
            Err(e @ PdbError::Corrupt { .. }) => {
                let msg = e.to_string();
                assert!(msg.contains(expect), "{name}: {msg}");
                assert!(msg.contains(name), "the message names the file: {msg}");
            }
            other => panic!("{name}: accepted or wrong error: {other:?}"),
        }
    };
    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x10;
    reject("flipped.pdb", &flipped, "checksum");
    reject("truncated.pdb", &bytes[..bytes.len() - 100], "truncated");
    reject("short.pdb", &bytes[..100], "too short");
    let mut magic = bytes.clone();
    magic[0] = b'X';
    reject("magic.pdb", &magic, "not a ply pattern database");
    let mut version = bytes.clone();
    version[8] = 99;
    reject("version.pdb", &version, "format version 99");
    let mut header = bytes.clone();
    header[4000] = 1;
    reject("header.pdb", &header, "checksum");

    let other = Partition::new(3, &[&[1, 2, 3, 5], &[4, 6, 7, 8]]).unwrap();
    match PatternDatabase::load(&path, &other) {
        Err(e @ PdbError::Corrupt { .. }) => assert!(e.to_string().contains("holds the"), "{e}"),
        other => panic!("a mismatched partition was accepted: {other:?}"),
    }
    match PatternDatabase::load(&dir.join("none.pdb"), &partition) {
        Err(PdbError::Missing { .. }) => {}
        other => panic!("missing file: {other:?}"),
    }
}

#[test]
fn a_loaded_database_survives_its_file_being_truncated() {
    let partition = Partition::new(3, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap();
    let scratch = scratch();
    let path = scratch.path().join(partition.file_name());
    build(&partition).save(&path).unwrap();
    let loaded = PatternDatabase::load(&path, &partition).unwrap();
    // Another program truncates the file in place (ply itself only ever renames over it); a
    // mapping of the file would now fault at the next lookup.
    std::fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .unwrap()
        .set_len(1000)
        .unwrap();
    let distances = bfs_distances();
    let mut total = 0u64;
    for board in distances.keys() {
        total += u64::from(loaded.value(board).unwrap());
    }
    assert!(total > 0);
}

#[cfg(unix)]
#[test]
fn a_fifo_in_place_of_a_database_is_refused_without_blocking() {
    let partition = Partition::new(3, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap();
    let scratch = scratch();
    let path = scratch.path().join(partition.file_name());
    let status = std::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    match PatternDatabase::load(&path, &partition) {
        Err(e @ PdbError::Corrupt { .. }) => {
            assert!(e.to_string().contains("a FIFO, not a regular file"), "{e}");
        }
        other => panic!("a FIFO was accepted: {other:?}"),
    }
    let err = PatternDatabase::load(scratch.path(), &partition).unwrap_err();
    assert!(
        err.to_string().contains("a directory, not a regular file"),
        "{err}"
    );
}

#[test]
fn temporary_files_of_saves_are_listed_with_their_writer() {
    let scratch = scratch();
    let dir = scratch.path();
    for name in [
        "npuzzle-4x4-6-6-3.pdb.tmp6062",
        "npuzzle-4x4-7-8.pdb.tmp17",
        "npuzzle-4x4-7-8.pdb",
        "npuzzle-4x4-7-8.pdb.tmp",
        "notes.pdb.tmpx1",
    ] {
        std::fs::write(dir.join(name), "x").unwrap();
    }
    let found = PatternDatabase::temp_files(dir);
    assert_eq!(
        found,
        vec![
            (dir.join("npuzzle-4x4-6-6-3.pdb.tmp6062"), 6062),
            (dir.join("npuzzle-4x4-7-8.pdb.tmp17"), 17),
        ]
    );
    let path = dir.join("npuzzle-4x4-5-5-5.pdb");
    let mine = PatternDatabase::temp_path(&path);
    assert_eq!(
        mine.file_name().unwrap().to_str().unwrap(),
        format!("npuzzle-4x4-5-5-5.pdb.tmp{}", std::process::id())
    );
}

#[test]
fn a_regular_file_in_place_of_the_directory_is_named() {
    let scratch = scratch();
    let file = scratch.path().join("plain");
    std::fs::write(&file, "x").unwrap();
    let err = PatternDatabase::check_writable(&file.join("npuzzle-4x4-5-5-5.pdb"))
        .unwrap_err()
        .to_string();
    assert!(err.contains("plain: is not a directory"), "{err}");
    assert!(!err.contains("os error"), "{err}");
}
