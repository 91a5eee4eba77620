//! A referee owns everything it starts: agents that leave their process group (`setsid`) are
//! stopped at the end, and a referee killed outright takes its agents with it.

mod common;

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{ply, processes_running, scratch_dir, small_map, text};

/// Waits until a process whose command line is `marker` runs: the agent itself, exec'd, not
/// the referee or a shell whose command lines only contain it.
fn started(marker: &str) {
    let start = Instant::now();
    loop {
        let ps = Command::new("ps").args(["-eo", "args"]).output().unwrap();
        if text(&ps.stdout).lines().any(|l| l.trim() == marker) {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(300),
            "{marker} never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn processes_that_leave_their_group_are_stopped_with_the_referee() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let agent = format!("{} ewn agent random", env!("CARGO_BIN_EXE_ply"));
    let escaping = "setsid sleep 96.11 & sleep 96.12";
    let out = ply(
        &[
            "ewn",
            "host",
            "--p0",
            &agent,
            "--p1",
            escaping,
            "-r",
            "1",
            "--move-time",
            "0.5",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        processes_running("sleep 96.1"),
        0,
        "the host left an agent's process behind"
    );

    let dir = scratch_dir();
    let map = small_map(&dir);
    let escaping = "setsid sleep 96.21 & sleep 96.22";
    let out = ply(&["mines", "judge", escaping, &map, "0", "0.5"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        processes_running("sleep 96.2"),
        0,
        "the judge left a player's process behind"
    );
}

/// The tests of this file run one at a time: two of them wait for the same command line.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn a_referee_killed_outright_takes_its_agents_with_it() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch_dir();
    let map = small_map(&dir);
    let names = common::path_in(&dir, "shm-names");
    let player = common::recording_shm(&names, "exec sleep 97.31");
    let mut judge = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["mines", "judge", &player, &map, "0", "600"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    started("sleep 97.31");
    judge.kill().unwrap();
    judge.wait().unwrap();
    assert_eq!(
        processes_running("sleep 97.31"),
        0,
        "the player outlived its judge"
    );
    // SIGKILL leaves the judge no moment to remove its shared memory: the test removes that
    // judge's object (and no one else's).
    common::remove_recorded_shm(&names);

    let agent = format!("{} ewn agent random", env!("CARGO_BIN_EXE_ply"));
    let mut host = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            "ewn",
            "host",
            "--p0",
            &agent,
            "--p1",
            "sleep 97.32",
            "--move-time",
            "600",
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    started("sleep 97.32");
    host.kill().unwrap();
    host.wait().unwrap();
    assert_eq!(
        processes_running("sleep 97.32"),
        0,
        "the agent outlived its host"
    );
}

#[test]
fn an_interrupted_tournament_reports_its_games_and_stops_its_agents() {
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch_dir();
    let log = common::path_in(&dir, "t.log");
    let quick = format!("quick={} ewn agent random", env!("CARGO_BIN_EXE_ply"));
    // An agent that never answers: every game against it lasts the move time.
    let slow = "slow=sleep 97.31".to_string();
    let args = [
        "ewn",
        "tournament",
        quick.as_str(),
        slow.as_str(),
        "--openings",
        "50",
        "--move-time",
        "3",
        "-j",
        "2",
        "--log",
        &log,
        "--json",
    ];
    let child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    started("sleep 97.31");
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(child.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "128 + SIGINT: {}",
        text(&out.stderr)
    );
    assert!(
        text(&out.stderr).contains("--resume"),
        "{}",
        text(&out.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let logged = std::fs::read_to_string(&log).unwrap().lines().count();
    assert_eq!(
        report["games"].as_u64().unwrap() as usize + 1,
        logged,
        "header and games"
    );
    assert_eq!(
        processes_running("sleep 97.3"),
        0,
        "an agent outlived the tournament"
    );
}
