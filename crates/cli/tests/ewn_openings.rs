//! `ply ewn openings`: proofs of the duel's starts, their checks and summaries, as a user
//! runs them.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{path_in, ply, scratch_dir, temp_file, text};
use ply_ewn::duel::playouts::FastRng;
use ply_ewn::duel::protocol::parse_move;
use ply_ewn::duel::{Board, Color};

/// The course's first dice line.
const DICE: &str = "343242404031241152042";

/// Two starts of that line whose proofs take a few tens of thousands of positions.
const EASY: &str = "230154 432150\n542013 520431\n";

/// Replays a record's line from its start and returns the winner at its end.
fn replay(record: &serde_json::Value) -> Color {
    let digits = |key: &str| -> Vec<u8> {
        record[key]
            .as_str()
            .unwrap()
            .bytes()
            .map(|b| b - b'0')
            .collect()
    };
    let mut board = Board::new(
        digits("red").try_into().unwrap(),
        digits("blue").try_into().unwrap(),
        digits("dice").try_into().unwrap(),
    )
    .unwrap();
    for mv in record["line"].as_array().unwrap() {
        let mv = mv.as_str().unwrap().as_bytes();
        board
            .play_checked(parse_move([mv[0], mv[1]]).unwrap())
            .unwrap();
    }
    board.winner().expect("the line ends the game")
}

fn records(jsonl: &str) -> Vec<serde_json::Value> {
    jsonl
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON record"))
        .collect()
}

#[test]
fn proves_listed_starts_and_every_line_replays() {
    let starts = temp_file("starts.txt", EASY);
    let out = ply(
        &[
            "ewn", "openings", "prove", "--dice", DICE, "--starts", &starts, "--memory", "32",
            "--verify", "2",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let found = records(&text(&out.stdout));
    assert_eq!(found.len(), 2);
    for (record, start) in found.iter().zip([208_647, 510_413]) {
        assert_eq!(record["start"], start);
        assert_eq!(record["dice"], DICE);
        let winner = match record["winner"].as_str() {
            Some("red") => Color::Red,
            Some("blue") => Color::Blue,
            other => panic!("winner {other:?}"),
        };
        assert_eq!(replay(record), winner);
        assert!(record["nodes"].as_u64().unwrap() > 0);
        assert!(record["seconds"].as_f64().unwrap() >= 0.0);
        assert!(
            record.get("proof_number").is_none(),
            "bounds only when open"
        );
    }
    let summary = text(&out.stderr);
    assert!(summary.contains("red (first mover)"), "{summary}");
    assert!(
        summary.contains("2 of 2 starts drawn proven again by the second prover"),
        "{summary}"
    );
}

#[test]
fn a_log_verifies_and_a_false_claim_is_named() {
    let dir = scratch_dir();
    let log = path_in(&dir, "proofs.jsonl");
    let starts = temp_file("starts.txt", EASY);
    let out = ply(
        &[
            "ewn", "openings", "prove", "--dice", DICE, "--starts", &starts, "--memory", "32",
            "--verify", "0", "--log", &log,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("red (first mover)"),
        "the summary on stdout"
    );
    let out = ply(&["ewn", "openings", "verify", &log, "--sample", "2"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout)
            .contains("every proven claim (2) given to the second prover: 2 re-proven"),
        "{}",
        text(&out.stdout)
    );
    let out = ply(&["ewn", "openings", "summary", &log], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stdout).contains(DICE));

    // A false claim with a legal line: the loser of the first start wins one random game.
    // The log's first record (after its header), written as prove's standard output has it.
    let mut record = records(&std::fs::read_to_string(&log).unwrap()).remove(1)["result"].take();
    let winner = replay(&record);
    let mut rng = FastRng::new(3);
    let line = loop {
        let mut board = Board::new([2, 3, 0, 1, 5, 4], [4, 3, 2, 1, 5, 0], dice()).unwrap();
        let mut line = Vec::new();
        while board.winner().is_none() {
            let moves = board.moves();
            let mv = moves[rng.below(moves.len())];
            board.play(mv);
            line.push(mv.to_string());
        }
        if board.winner() == Some(winner.other()) {
            break line;
        }
    };
    let loser = winner.other().to_string();
    record["winner"] = loser.clone().into();
    record["move"] = line[usize::from(winner.other() == Color::Blue)]
        .clone()
        .into();
    record["line"] = line.into();
    let forged = temp_file("forged.jsonl", &format!("{record}\n"));
    let out = ply(&["ewn", "openings", "verify", &forged, "--sample", "1"], "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let err = text(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("ply: error: "), "{err}");
    assert!(err.contains("start 208647"), "{err}");
    assert!(
        err.contains(&format!(
            "the verifier proves that {winner} wins, the record says {loser}"
        )),
        "{err}"
    );

    // Among many open records (which claim nothing), the one false claim is still drawn:
    // the second prover draws among proven records only.
    let out = ply(
        &[
            "ewn",
            "openings",
            "prove",
            "--dice",
            DICE,
            "--sample",
            "40",
            "--max-nodes",
            "50",
            "--memory",
            "32",
            "--verify",
            "0",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let open: Vec<String> = text(&out.stdout)
        .lines()
        .filter(|l| l.contains("\"winner\":null"))
        .map(str::to_string)
        .collect();
    assert!(open.len() >= 30, "{}", text(&out.stdout));
    let mixed = temp_file("mixed.jsonl", &format!("{}\n{record}\n", open.join("\n")));
    let out = ply(&["ewn", "openings", "verify", &mixed], "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("the verifier proves that"),
        "{}",
        text(&out.stderr)
    );

    // A line that breaks the rules is named with its place.
    record["line"][0] = "53".into();
    let broken = temp_file("broken.jsonl", &format!("{record}\n"));
    let out = ply(&["ewn", "openings", "verify", &broken], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(
        err.contains(":1: dice") && err.contains("move 0 of the winning line"),
        "{err}"
    );
}

fn dice() -> [u8; 21] {
    DICE.bytes()
        .map(|b| b - b'0')
        .collect::<Vec<_>>()
        .try_into()
        .unwrap()
}

#[test]
fn an_exhausted_budget_records_an_open_start_with_its_bounds() {
    let out = ply(
        &[
            "ewn",
            "openings",
            "prove",
            "--dice",
            DICE,
            "--sample",
            "1",
            "--max-nodes",
            "5",
            "--memory",
            "8",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let record = records(&text(&out.stdout)).remove(0);
    assert!(record["winner"].is_null());
    assert!(record["move"].is_null());
    assert_eq!(record["line"].as_array().unwrap().len(), 0);
    assert!(record["proof_number"].as_u64().unwrap() > 0);
    assert!(record["disproof_number"].as_u64().unwrap() > 0);
    assert!(
        text(&out.stderr).contains("1 open"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn bad_arguments_and_files_are_named() {
    let run = |args: &[&str]| {
        let mut all = vec!["ewn", "openings"];
        all.extend_from_slice(args);
        ply(&all, "")
    };
    let out = run(&["prove", "--dice", "3432424"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).starts_with("ply: error: --dice '3432424'"));
    let out = run(&["prove", "--budget", "0", "--sample", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--budget"));
    // A table beyond what a byte count holds is a usage error; one the system cannot give
    // (more than the address space) a one-line error, never an abort or a panic.
    let out = run(&["prove", "--sample", "1", "--memory", "18446744073709551615"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--memory 18,446,744,073,709,551,615 MiB is more bytes"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["prove", "--sample", "1", "--memory", "1000000000"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        text(&out.stderr),
        "ply: error: cannot allocate 1,000,000,000 MiB for the proof table (--memory)\n"
    );
    // A start or a dice line given twice would be proven and counted twice.
    let twice = temp_file("twice.txt", "7\n012345 543210\n7\n");
    let out = run(&["prove", "--dice", DICE, "--starts", &twice]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("twice.txt:3: start 7 is listed already, on line 1"),
        "{}",
        text(&out.stderr)
    );
    let dice_twice = temp_file("dice.txt", &format!("{DICE}\n{DICE}\n"));
    let out = run(&["prove", "--dice-file", &dice_twice, "--sample", "1"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("dice line 2 is dice line 1 again"),
        "{}",
        text(&out.stderr)
    );
    let out = run(&["prove", "--sample", "600000"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("--sample 600,000 is more than the 518,400 starts"),
        "{}",
        text(&out.stderr)
    );
    let starts = temp_file("bad.txt", "012345 543210\n012345 5432\n");
    let out = run(&["prove", "--dice", DICE, "--starts", &starts]);
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("bad.txt:2: '012345 5432'"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    let log = temp_file("twice.jsonl", "{\"dice\":1}\n");
    let out = run(&["summary", &log]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("twice.jsonl:1: not a record"));
    // The batch log's rule, as for every batch command: a failure (1), not a usage error.
    let dir = scratch_dir();
    let out = run(&[
        "prove",
        "--sample",
        "1",
        "--log",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("is not a regular file"));
}

#[test]
fn a_summary_refuses_a_start_recorded_twice() {
    let starts = temp_file("one.txt", "230154 432150\n");
    let out = ply(
        &[
            "ewn", "openings", "prove", "--dice", DICE, "--starts", &starts, "--memory", "8",
            "--verify", "0",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let twice = text(&out.stdout).repeat(2);
    let log = temp_file("twice.jsonl", &twice);
    let out = ply(&["ewn", "openings", "summary", &log], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("twice.jsonl:2: dice 343242404031241152042, start 208647"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn an_interrupt_keeps_every_finished_start() {
    let dir = scratch_dir();
    let log = path_in(&dir, "proofs.jsonl");
    // An easy start, then one whose proof takes millions of positions.
    let starts = temp_file("starts.txt", "230154 432150\n125430 401523\n");
    let child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            "ewn", "openings", "prove", "--dice", DICE, "--starts", &starts, "--memory", "64",
            "--verify", "0", "--log", &log,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let waited = Instant::now();
    // The header, then the first record.
    while std::fs::read_to_string(&log).map_or(0, |t| t.lines().count()) < 2 {
        assert!(
            waited.elapsed() < Duration::from_secs(120),
            "no first record"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("interrupted after 1 start of 2"));
    let kept = records(&std::fs::read_to_string(&log).unwrap());
    assert_eq!(kept.len(), 2, "the interrupted start is not recorded");
    assert_eq!(kept[0]["batch"]["command"], "ewn openings prove");
    assert_eq!(kept[1]["item"], 0);
    assert_eq!(kept[1]["result"]["start"], 208_647);
}

/// A dice line of zeros: each side moves its cube 0 or the nearest one left, so games are
/// short races and most starts are proven within a few thousand positions.
const ZEROS: &str = "000000000000000000000";

/// A legal game from `record`'s start on its dice, won by the side the record says loses,
/// from random games (at most `tries` of them); `None` if none of them was.
fn game_won_by_the_loser(record: &serde_json::Value, tries: u32) -> Option<Vec<String>> {
    let digits = |key: &str| -> Vec<u8> {
        record[key]
            .as_str()
            .unwrap()
            .bytes()
            .map(|b| b - b'0')
            .collect()
    };
    let loser = match record["winner"].as_str() {
        Some("red") => Color::Blue,
        Some("blue") => Color::Red,
        other => panic!("winner {other:?}"),
    };
    let mut rng = FastRng::new(u64::from(record["start"].as_u64().unwrap() as u32));
    for _ in 0..tries {
        let mut board = Board::new(
            digits("red").try_into().unwrap(),
            digits("blue").try_into().unwrap(),
            digits("dice").try_into().unwrap(),
        )
        .unwrap();
        let mut line = Vec::new();
        while board.winner().is_none() {
            let moves = board.moves();
            let mv = moves[rng.below(moves.len())];
            board.play(mv);
            line.push(mv.to_string());
        }
        if board.winner() == Some(loser) {
            return Some(line);
        }
    }
    None
}

/// Flips `record`'s claim to the other colour, with `line`, a legal game that colour wins:
/// its replay passes. Returns the colour now claimed.
fn flip(record: &mut serde_json::Value, line: Vec<String>) -> &'static str {
    let liar = if record["winner"] == "red" {
        "blue"
    } else {
        "red"
    };
    record["winner"] = liar.into();
    record["move"] = line[usize::from(liar == "blue")].clone().into();
    record["line"] = line.into();
    liar
}

/// The proven records of `sample` starts of the zeros' dice line, each proven within a small
/// budget, with `extra` arguments, and the command's standard output and error.
fn proven_claims(sample: &str, extra: &[&str]) -> (Vec<serde_json::Value>, String, String) {
    let mut args = vec![
        "ewn",
        "openings",
        "prove",
        "--dice",
        ZEROS,
        "--sample",
        sample,
        "--max-nodes",
        "2000",
        "--memory",
        "32",
        "--verify",
        "0",
    ];
    args.extend_from_slice(extra);
    let out = ply(&args, "");
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let proven = records(&stdout)
        .into_iter()
        .filter(|r| !r["winner"].is_null())
        .collect();
    (proven, stdout, stderr)
}

#[test]
fn one_false_claim_among_forty_is_refused_by_default_whatever_the_seed() {
    // Forty proven claims, each proven within a small budget.
    let (mut proven, stdout, _) = proven_claims("80", &[]);
    proven.truncate(40);
    assert_eq!(proven.len(), 40, "{stdout}");
    let honest: String = proven.iter().map(|r| format!("{r}\n")).collect();
    let honest = temp_file("honest.jsonl", &honest);
    let out = ply(&["ewn", "openings", "verify", &honest], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(
            "every proven claim (40) given to the second prover: 40 re-proven, 0 undecided"
        ),
        "{}",
        text(&out.stdout)
    );

    // One claim flipped to the other colour, with a legal line that colour wins: its replay
    // passes, so only proving it again tells it is false.
    let (flipped, line) = proven
        .iter()
        .enumerate()
        .skip(20)
        .find_map(|(i, r)| game_won_by_the_loser(r, 2_000).map(|line| (i, line)))
        .expect("a game won by the loser of some start");
    let liar = flip(&mut proven[flipped], line);
    let start = proven[flipped]["start"].clone();
    let forged: String = proven.iter().map(|r| format!("{r}\n")).collect();
    let forged = temp_file("forged.jsonl", &forged);
    for seed in ["1", "2", "3", "17"] {
        let out = ply(&["ewn", "openings", "verify", &forged, "--seed", seed], "");
        assert_eq!(
            out.status.code(),
            Some(1),
            "seed {seed}: {}",
            text(&out.stdout)
        );
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!(":{}: dice {ZEROS}, start {start}", flipped + 1))
                && err.contains(&format!("the record says {liar}")),
            "seed {seed}: {err}"
        );
    }
    // A sample can miss it, and then says how many claims it left unproven.
    let missed = (1..=10).find_map(|seed| {
        let seed = seed.to_string();
        let out = ply(
            &[
                "ewn", "openings", "verify", &forged, "--sample", "20", "--seed", &seed,
            ],
            "",
        );
        out.status.success().then(|| (seed, text(&out.stdout)))
    });
    let (seed, said) = missed.expect("a sample of half the claims that misses the false one");
    assert!(
        said.contains(&format!(
            "20 of the 40 proven claims, drawn at random (seed {seed}), given to the second \
             prover: 20 re-proven, 0 undecided within its budget; the other 20 not re-proven \
             (--sample 40 re-proves every one)"
        )),
        "{said}"
    );
}

#[test]
fn a_certified_log_is_checked_whole_without_a_proof_and_a_flipped_claim_is_refused() {
    let (mut proven, stdout, stderr) = proven_claims("30", &["--certify"]);
    assert!(
        stderr.contains("made and checked with the rules alone"),
        "{stderr}"
    );
    assert!(proven.len() >= 10, "{stdout}");
    assert!(proven.iter().all(|r| r["certificate"].is_string()));
    let honest: String = proven.iter().map(|r| format!("{r}\n")).collect();
    let honest = temp_file("certified.jsonl", &honest);
    // No claim is proven again: the certificates are the check.
    let out = ply(&["ewn", "openings", "verify", &honest, "--sample", "0"], "");
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let said = text(&out.stdout);
    assert!(
        said.contains(&format!(
            "{} checked with the rules alone",
            if proven.len() == 1 {
                "1 certificate".to_string()
            } else {
                format!("{} certificates", proven.len())
            }
        )) && said.contains("every proven claim certified"),
        "{said}"
    );

    // One claim flipped to the other colour with a legal line that colour wins, its
    // certificate kept: refused without any proof.
    let (flipped, line) = proven
        .iter()
        .enumerate()
        .find_map(|(i, r)| game_won_by_the_loser(r, 2_000).map(|line| (i, line)))
        .expect("a game won by the loser of some start");
    let liar = flip(&mut proven[flipped], line);
    let forged: String = proven.iter().map(|r| format!("{r}\n")).collect();
    let forged = temp_file("forged-certified.jsonl", &forged);
    let out = ply(&["ewn", "openings", "verify", &forged, "--sample", "0"], "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    let err = text(&out.stderr);
    assert!(
        err.contains(&format!(":{}: dice {ZEROS}", flipped + 1))
            && err.contains("the certificate fails"),
        "{err}"
    );
    // Without its certificate the flipped claim is proven again by default, and refused.
    proven[flipped]
        .as_object_mut()
        .unwrap()
        .remove("certificate");
    let forged: String = proven.iter().map(|r| format!("{r}\n")).collect();
    let forged = temp_file("forged-uncertified.jsonl", &forged);
    let out = ply(&["ewn", "openings", "verify", &forged], "");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains(&format!("the record says {liar}")),
        "{}",
        text(&out.stderr)
    );
}
