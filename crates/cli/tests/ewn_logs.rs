//! The duel's logs end to end: one format for host and tournament logs, read by `replay` and
//! `--resume` alike; damaged, duplicated or foreign lines named; existing files and symbolic
//! links left alone; a log that cannot be written still leaves the standings printed.

mod common;

use std::process::{Command, Stdio};

use common::tty::Tty;
use common::{path_in, ply, scratch_dir, text};

/// The command line of this build's agent `kind`.
fn agent(kind: &str) -> String {
    format!("{} ewn agent {kind}", env!("CARGO_BIN_EXE_ply"))
}

/// A tournament of two random agents over `openings` openings (2 games an opening), with
/// `extra` arguments; its output.
fn tournament(openings: &str, extra: &[&str]) -> std::process::Output {
    let (a, b) = (
        format!("a={}", agent("random --seed 1")),
        format!("b={}", agent("random --seed 2")),
    );
    let mut args = vec![
        "ewn",
        "tournament",
        &a,
        &b,
        "--openings",
        openings,
        "-j",
        "2",
        "--json",
    ];
    args.extend_from_slice(extra);
    ply(&args, "")
}

/// The lines of the file at `path`.
fn lines(path: &str) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

/// Asserts that `out` failed with exit status 1 and a one-line error containing `says`.
fn refused(out: &std::process::Output, says: &str) {
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("ply: error: ") && last.contains(says),
        "{stderr}"
    );
}

#[test]
fn resume_names_the_lines_it_cannot_use() {
    let dir = scratch_dir();
    let log = path_in(&dir, "t.jsonl");
    let out = tournament("2", &["--log", &log]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let good = lines(&log);
    assert_eq!(good.len(), 5, "a header and 4 games");
    let resume_with = |lines: &[String]| {
        std::fs::write(&log, lines.join("\n") + "\n").unwrap();
        tournament("2", &["--log", &log, "--resume"])
    };
    // An agent or a winner the tournament does not have (this panicked).
    let mut bad = good.clone();
    bad[1] = bad[1].replacen("\"agents\":[", "\"agents\":[5,0],\"was\":[", 1);
    refused(
        &resume_with(&bad),
        "t.jsonl:2: the game names agent 5, the tournament has 2",
    );
    let mut bad = good.clone();
    let winner = bad[1].find("\"winner\":").unwrap() + "\"winner\":".len();
    bad[1].replace_range(winner..=winner, "4000000000");
    refused(
        &resume_with(&bad),
        "t.jsonl:2: the game names agent 4000000000",
    );
    // A game logged twice (two runs appended to one log), and one outside the schedule.
    let mut twice = good.clone();
    twice.push(good[2].clone());
    refused(&resume_with(&twice), "is logged twice (first on line 3)");
    let mut stray = good.clone();
    stray[1] = stray[1].replacen("\"index\":", "\"index\":999,\"was\":", 1);
    refused(
        &resume_with(&stray),
        "t.jsonl:2: game 1000 is not in the tournament's schedule of 4 games",
    );
    // A host's log is not a tournament to resume.
    let game: serde_json::Value = serde_json::from_str(&good[1]).unwrap();
    let host_line = game["game"]["record"].to_string();
    refused(
        &resume_with(&[host_line]),
        "t.jsonl:1: not a tournament log",
    );
    // An empty log holds nothing to lose: the tournament starts in it (a shard's first
    // run under Slurm is a resume too).
    let out = resume_with(&[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(lines(&log).len(), 5, "a header and 4 games");
}

#[test]
fn an_unfinished_last_line_is_dropped_with_a_note_and_its_game_replayed() {
    let dir = scratch_dir();
    let log = path_in(&dir, "t.jsonl");
    let out = tournament("2", &["--log", &log]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let good = lines(&log);
    // A writer stopped mid-line (a full disk, a kill) leaves half a line and no line break.
    let cut = &good[4][..good[4].len() / 2];
    std::fs::write(&log, good[..4].join("\n") + "\n" + cut).unwrap();
    let out = tournament("2", &["--log", &log, "--resume"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("t.jsonl:5: the last line is unfinished"),
        "{}",
        text(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 4);
    let resumed = lines(&log);
    assert_eq!(resumed.len(), 5, "{resumed:?}");
    for line in &resumed {
        let _: serde_json::Value = serde_json::from_str(line).expect("every line whole");
    }
    assert_eq!(resumed[..4], good[..4], "the games kept are not replayed");
}

#[test]
fn a_log_that_cannot_be_written_still_leaves_the_standings() {
    let dir = scratch_dir();
    let log = path_in(&dir, "t.jsonl");
    // A file size limit makes the log's writes fail part way (with SIGXFSZ ignored, the
    // write returns EFBIG): the header fits, the games do not all fit.
    let (a, b) = (
        format!("a={}", agent("random --seed 1")),
        format!("b={}", agent("random --seed 2")),
    );
    let script = "trap '' XFSZ; ulimit -f 2; exec \"$0\" ewn tournament \"$1\" \"$2\" \
                  --openings 4 -j 1 --json --log \"$3\"";
    let out = Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_ply"), &a, &b, &log])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("writing the log"), "{stderr}");
    let report: serde_json::Value =
        serde_json::from_slice(&out.stdout).expect("the standings, before the error");
    assert!(report["games"].as_u64().unwrap() < 8, "{report}");
    // Once there is room again, the tournament goes on from the log.
    let out = tournament("4", &["--log", &log, "--resume"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 8);
    assert_eq!(lines(&log).len(), 9);
}

#[test]
fn existing_logs_and_symbolic_links_are_left_alone() {
    let dir = scratch_dir();
    let keep = path_in(&dir, "keep.txt");
    std::fs::write(&keep, "keep\n").unwrap();
    let link = path_in(&dir, "link.jsonl");
    std::os::unix::fs::symlink(&keep, &link).unwrap();
    let random = agent("random");
    let host = |log: &str, extra: &[&str]| {
        let mut args = vec![
            "ewn", "host", "--p0", &random, "--p1", &random, "--log", log,
        ];
        args.extend_from_slice(extra);
        ply(&args, "")
    };
    // Without --force (or, for a tournament, --resume), an existing file is refused.
    refused(&host(&keep, &[]), "keep.txt exists (use --force");
    refused(
        &tournament("1", &["--log", &keep]),
        "keep.txt exists (use --resume to go on with it, or --force",
    );
    // A symbolic link is never written through, --force or not.
    refused(
        &host(&link, &["--force"]),
        "link.jsonl is not a regular file",
    );
    refused(
        &tournament("1", &["--log", &link, "--force"]),
        "link.jsonl is not a regular file",
    );
    refused(
        &tournament("1", &["--log", &link, "--resume"]),
        "link.jsonl is not a regular file",
    );
    assert_eq!(std::fs::read_to_string(&keep).unwrap(), "keep\n");
    // --force replaces a regular file.
    let out = host(&keep, &["--force"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(lines(&keep).len(), 1, "one game");
    let out = tournament("1", &["--log", &keep, "--force"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(lines(&keep).len(), 3, "a header and two games");
}

#[test]
fn a_huge_schedule_starts_at_once_in_little_memory() {
    // 200 million games: the schedule is computed game by game, not built first (which took
    // about 126 bytes a game and aborted under this limit on virtual memory).
    let (a, b) = (
        format!("a={}", agent("random --seed 1")),
        format!("b={}", agent("random --seed 2")),
    );
    let script = "ulimit -v 2000000; exec \"$0\" ewn tournament \"$1\" \"$2\" \
                  --openings 100000000 -j 1";
    let mut run = Command::new("sh")
        .args(["-c", script, env!("CARGO_BIN_EXE_ply"), &a, &b])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::BufRead;
    let mut errors = std::io::BufReader::new(run.stderr.take().unwrap()).lines();
    let first = errors.next().expect("a line").unwrap();
    assert!(first.starts_with("game 1: a (red) - b: "), "{first}");
    let pid = nix::unistd::Pid::from_raw(run.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let rest: Vec<String> = errors.map_while(Result::ok).collect();
    let out = run.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "{rest:?}");
    assert!(
        text(&out.stdout).contains("Elo (95%)"),
        "the games are reported"
    );
}

#[test]
fn replay_steps_through_host_and_tournament_logs() {
    let dir = scratch_dir();
    let host_log = path_in(&dir, "host.jsonl");
    let random = agent("random");
    let out = ply(
        &[
            "ewn", "host", "--p0", &random, "--p1", &random, "-r", "2", "--log", &host_log,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let tournament_log = path_in(&dir, "t.jsonl");
    let out = tournament("1", &["--log", &tournament_log]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // A game the log does not hold is named with those it does.
    let out = ply(&["ewn", "replay", &tournament_log, "--game", "9"], "");
    refused(&out, "no game 9: the log holds 2 games, numbered 1 to 2");
    for (log, red) in [(&host_log, "red: p1"), (&tournament_log, "red: p0 b")] {
        let mut tty = Tty::spawn(&["ewn", "replay", log, "--game", "2"], 80, 24);
        let screen = tty.wait_for("the game", |s| s.contains("move 0/"));
        assert!(screen.contains(red), "{screen}");
        tty.keys("G");
        tty.wait_for("the end", |s| s.contains(" wins by "));
        tty.keys("q");
        assert!(tty.wait_exit().success(), "{}", tty.screen());
    }
}

#[test]
fn an_agent_started_at_a_terminal_says_what_it_reads() {
    let mut tty = Tty::spawn(&["ewn", "agent", "random"], 80, 24);
    let screen = tty.wait_for("the agent's note", |s| s.contains("course's protocol"));
    // One row of the 80-column terminal: the note is not wrapped.
    assert!(
        screen.lines().any(
            |row| row.starts_with("ply ewn agent: reads the course's protocol")
                && row.trim_end().ends_with("f or s, moves")
        ),
        "{screen}"
    );
    // End of input at the terminal (Ctrl-D) ends it quietly.
    tty.keys("\u{4}");
    assert!(tty.wait_exit().success(), "{}", tty.screen());
}
