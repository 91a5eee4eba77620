//! `ply mines classic`: a seeded game solved and replayed, the win-rate bench in shards, and
//! boards the rules refuse.

mod common;

use common::batch::shards_equal_whole;
use common::{ply, text};

#[test]
fn a_seeded_game_is_solved_the_same_way_twice() {
    let args = [
        "mines", "classic", "solve", "--level", "beginner", "--seed", "5", "--game", "3",
    ];
    let first = ply(&args, "");
    assert!(first.status.success(), "{}", text(&first.stderr));
    let out = text(&first.stdout);
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("won: 71 of 71") || last.starts_with("lost: "),
        "{out}"
    );
    assert_eq!(text(&ply(&args, "").stdout), out);
    // JSON: the moves, the first at the rule's default cell and certain.
    let json = ply(&[&args[..], &["--json"]].concat(), "");
    let doc: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    let first_move = &doc["moves"][0];
    assert_eq!(
        (first_move["row"].as_u64(), first_move["col"].as_u64()),
        (Some(0), Some(0))
    );
    assert_eq!(first_move["certain"], true);
    let won = doc["won"].as_bool().unwrap();
    assert_eq!(won, last.starts_with("won"));
}

#[test]
fn a_sharded_bench_merges_to_the_whole_bench() {
    let args: Vec<String> = [
        "mines",
        "classic",
        "bench",
        "--level",
        "beginner",
        "--rule",
        "zero",
        "--games",
        "2500",
        "--seed",
        "3",
        "--threads",
        "2",
    ]
    .map(String::from)
    .to_vec();
    // Column 6 is the games a second.
    shards_equal_whole(&args, &[], &[6], &[]);
}

#[test]
fn boards_the_rules_refuse_are_usage_errors() {
    for (args, needle) in [
        (
            vec!["--width", "3", "--height", "3", "--mines", "9"],
            "do not fit",
        ),
        (
            vec!["--width", "0", "--height", "3", "--mines", "1"],
            "each side",
        ),
        (
            vec!["--level", "expert", "--start", "16,0"],
            "off the board of 30 columns x 16 rows",
        ),
        (
            vec!["--level", "expert", "--rule", "zero", "--width", "3"],
            "cannot be used",
        ),
        (vec!["--level", "huge"], "unknown level"),
        (vec!["--start", "1"], "ROW,COL"),
    ] {
        let all = [&["mines", "classic", "solve"][..], &args[..]].concat();
        let out = ply(&all, "");
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{all:?}: {stderr}");
        assert!(stderr.contains(needle), "{all:?}: {stderr}");
        assert_eq!(
            stderr
                .trim()
                .lines()
                .filter(|l| l.contains("error"))
                .count(),
            1,
            "{stderr}"
        );
    }
}

#[test]
fn the_endgame_setting_is_recorded_and_zero_turns_it_off() {
    let run = |endgame: &str| {
        let args = [
            "mines",
            "classic",
            "bench",
            "--level",
            "beginner",
            "--games",
            "400",
            "--seed",
            "11",
            "--json",
            "--endgame",
            endgame,
        ];
        let out = ply(&args, "");
        assert!(out.status.success(), "{}", text(&out.stderr));
        let doc: serde_json::Value = serde_json::from_str(&text(&out.stdout)).unwrap();
        assert_eq!(doc["endgame"], endgame.parse::<u64>().unwrap());
        doc["wins"].as_u64().unwrap()
    };
    let exact = run("500");
    let off = run("0");
    // Exact play in the endgame never wins a board less often on average; on 400 boards
    // it wins at least as many as the heuristics alone minus a few games of noise.
    assert!(exact + 5 >= off, "{exact} against {off}");
}

/// Waits until the file at `path` holds at least `lines` lines, then returns them.
fn wait_for_lines(path: &str, lines: usize) -> Vec<String> {
    let start = std::time::Instant::now();
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let found: Vec<String> = text.lines().map(String::from).collect();
        if found.len() >= lines && text.ends_with('\n') {
            return found;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(600),
            "{path} never had {lines} lines"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Runs `ply args` in the background, with its standard error kept.
fn spawn(args: &[&str]) -> std::process::Child {
    std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("ply starts")
}

fn interrupt(child: &std::process::Child) {
    let pid = nix::unistd::Pid::from_raw(child.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
}

/// A run of the most games allowed starts playing at once, in little memory: its blocks are
/// counted, not listed (a billion of them took 8 GB).
#[test]
fn the_largest_bench_starts_without_listing_its_blocks() {
    let dir = common::scratch_dir();
    let log = common::path_in(&dir, "big.jsonl");
    let child = std::process::Command::new("sh")
        .args([
            "-c",
            "ulimit -v 2000000 && exec \"$0\" \"$@\"",
            env!("CARGO_BIN_EXE_ply"),
            "mines",
            "classic",
            "bench",
            "--level",
            "beginner",
            "--games",
            "1000000000000",
            "--threads",
            "1",
            "--log",
            &log,
        ])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let lines = wait_for_lines(&log, 2);
    assert!(
        lines[1].starts_with(r#"{"item":0,"result":{"games":1000,"#),
        "{lines:?}"
    );
    interrupt(&child);
    let out = child.wait_with_output().unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("the block in play was dropped"), "{stderr}");
}

/// Ctrl-C (or a Slurm time limit's SIGTERM) stops a bench within the game in play, not at
/// the end of its block: a block of large games takes many minutes.
#[test]
fn an_interrupted_bench_stops_within_a_game() {
    let dir = common::scratch_dir();
    let log = common::path_in(&dir, "large.jsonl");
    let args = [
        "mines",
        "classic",
        "bench",
        "--width",
        "300",
        "--height",
        "300",
        "--mines",
        "18000",
        "--games",
        "1000",
        "--threads",
        "2",
        "--log",
        &log,
    ];
    let child = spawn(&args);
    wait_for_lines(&log, 1);
    // The games are under way once the header is written; a block would take minutes.
    std::thread::sleep(std::time::Duration::from_millis(300));
    interrupt(&child);
    let out = common::wait_within(child, std::time::Duration::from_secs(120));
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted after 0 whole blocks"),
        "{stderr}"
    );
    assert_eq!(wait_for_lines(&log, 1).len(), 1, "no block recorded");
}

/// Log rows no run writes are refused by `merge` and `--resume` with their line: a block of
/// more games than blocks hold, more wins than games, a negative time, no threads, and a
/// header whose games and blocks disagree.
#[test]
fn edited_bench_logs_are_refused() {
    let dir = common::scratch_dir();
    let log = common::path_in(&dir, "run.jsonl");
    let args = [
        "mines",
        "classic",
        "bench",
        "--level",
        "beginner",
        "--games",
        "2500",
        "--threads",
        "2",
        "--log",
        &log,
    ];
    let out = ply(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let good = std::fs::read_to_string(&log).unwrap();
    let merged = ply(&["merge", &log], "");
    assert!(merged.status.success(), "{}", text(&merged.stderr));
    let block = good.lines().nth(2).unwrap().to_string();
    let edits: [(&str, String, &str); 5] = [
        (
            "more games",
            block.replacen(r#""games":1000"#, r#""games":5000"#, 1),
            "run.jsonl:3: block 2: the block tallies 5,000 games where block 2 of a run of \
             2,500 games holds 1,000 games (an edited log?)",
        ),
        (
            "more wins",
            block.replacen(r#""wins":"#, r#""wins":1001,"was":"#, 1),
            "1,001 wins of 1,000 games",
        ),
        (
            "negative time",
            block.replacen(r#""seconds":"#, r#""seconds":-1,"was":"#, 1),
            "-1 seconds is not a duration",
        ),
        (
            "no threads",
            block.replacen(r#""threads":2"#, r#""threads":0"#, 1),
            "0 threads is not in 1-256",
        ),
        (
            "the last block whole",
            good.lines()
                .nth(3)
                .unwrap()
                .replacen(r#""games":500"#, r#""games":1000"#, 1),
            "block 3 of a run of 2,500 games holds 500 games",
        ),
    ];
    for (what, edited, needle) in &edits {
        let line = if what.starts_with("the last") { 3 } else { 2 };
        let text_edited: String = good
            .lines()
            .enumerate()
            .map(|(i, l)| if i == line { edited.clone() } else { l.to_string() } + "\n")
            .collect();
        std::fs::write(&log, &text_edited).unwrap();
        for run in [
            ply(&["merge", &log], ""),
            ply(&[&args[..], &["--resume"]].concat(), ""),
        ] {
            let stderr = text(&run.stderr);
            assert_eq!(run.status.code(), Some(1), "{what}: {stderr}");
            assert!(stderr.contains(needle), "{what}: {stderr}");
        }
    }
    // A header whose games make another number of blocks.
    let header = good
        .lines()
        .next()
        .unwrap()
        .replacen(r#""games":2500"#, r#""games":39000"#, 1);
    let rest: String = good.lines().skip(1).map(|l| format!("{l}\n")).collect();
    std::fs::write(&log, format!("{header}\n{rest}")).unwrap();
    let run = ply(&["merge", &log], "");
    let stderr = text(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("run.jsonl:1: its 39,000 games make 39 blocks, not the 3 it says"),
        "{stderr}"
    );
}

#[test]
fn a_start_with_a_minus_sign_gets_the_options_own_message() {
    let out = ply(
        &[
            "mines", "classic", "solve", "--level", "beginner", "--start", "-1,0",
        ],
        "",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("'-1,0' is not ROW,COL (two numbers from 0, with a comma)"),
        "{stderr}"
    );
}

#[test]
fn the_endgame_is_capped_and_solve_draws_and_explains_its_board() {
    let out = ply(
        &[
            "mines",
            "classic",
            "bench",
            "--level",
            "expert",
            "--games",
            "10",
            "--endgame",
            "18446744073709551615",
        ],
        "",
    );
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("more than the 65,535 the exact endgame can list"),
        "{stderr}"
    );
    let dir = common::scratch_dir();
    let svg = common::path_in(&dir, "game.svg");
    let out = ply(
        &[
            "mines", "classic", "solve", "--level", "expert", "--game", "4", "--svg", &svg,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let shown = text(&out.stdout);
    assert!(shown.contains("legend: . open, no mine around"), "{shown}");
    assert!(
        shown.contains("expert (30 columns x 16 rows, 99 mines)"),
        "{shown}"
    );
    // Every mine is on the last board: hit (X) or not (x).
    let board: String = shown.lines().filter(|l| l.len() == 30).collect();
    assert_eq!(board.matches(['x', 'X']).count(), 99, "{shown}");
    let picture = std::fs::read_to_string(&svg).unwrap();
    assert!(
        picture.starts_with("<svg") && picture.contains("guess "),
        "{picture}"
    );
}

#[test]
fn a_bench_of_a_level_shows_the_published_rates() {
    let out = ply(
        &[
            "mines", "classic", "bench", "--level", "beginner", "--games", "200", "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["published"][0]["solver"], "MineSweeperProb D256");
    let out = ply(
        &[
            "mines", "classic", "bench", "--level", "beginner", "--games", "200",
        ],
        "",
    );
    assert!(text(&out.stdout).contains("published on these rules: MineSweeperProb D256 91.69 %"));
    let custom = ply(
        &[
            "mines", "classic", "bench", "--width", "8", "--height", "8", "--mines", "10",
            "--games", "100",
        ],
        "",
    );
    assert!(!text(&custom.stdout).contains("published"));
}
