//! End-to-end tests of the duel referee and agents: real processes, broken on purpose.

mod common;

use std::time::{Duration, Instant};

use common::{ply, temp_file, text};

fn agent(kind: &str) -> String {
    format!("{} ewn agent {kind}", env!("CARGO_BIN_EXE_ply"))
}

/// Runs a match of `rounds` games with player 1 = `broken`, returning stdout and the time.
fn against(broken: &str, rounds: &str, extra: &[&str]) -> (String, String, Duration) {
    let p0 = agent("random --seed 3");
    let mut args = vec![
        "ewn",
        "host",
        "-p0",
        &p0,
        "-p1",
        broken,
        "-r",
        rounds,
        "--move-time",
        "0.5",
    ];
    args.extend_from_slice(extra);
    let started = Instant::now();
    let out = ply(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    (text(&out.stdout), text(&out.stderr), started.elapsed())
}

#[test]
fn agents_play_a_match_and_the_log_replays() {
    let dir = common::scratch_dir();
    let log = common::path_in(&dir, "duel.log");
    let p0 = agent("alphabeta --depth 8");
    let p1 = agent("random");
    let out = ply(
        &[
            "ewn", "host", "--p0", &p0, "--p1", &p1, "-r", "6", "--log", &log, "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 6);
    let p0 = &report["players"][0];
    assert_eq!(p0["games_first"], 3, "first mover alternates");
    assert!(p0["wins"].as_u64().unwrap() >= 5, "{report}");
    assert!(p0["forfeits"].as_array().unwrap().is_empty());
    let lines = std::fs::read_to_string(&log).unwrap();
    assert_eq!(lines.lines().count(), 6);
    for (i, line) in lines.lines().enumerate() {
        let game: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(game["game"], i + 1, "games count from 1");
        assert_eq!(game["dice"].as_str().unwrap().len(), 21);
        assert!(!game["moves"].as_array().unwrap().is_empty());
    }
    // The same seed gives the same games.
    let again = common::path_in(&dir, "duel2.log");
    let p0 = agent("alphabeta --depth 8");
    let p1 = agent("random");
    let out = ply(
        &[
            "ewn", "host", "--p0", &p0, "--p1", &p1, "-r", "6", "--log", &again,
        ],
        "",
    );
    assert!(out.status.success());
    let strip = |s: String| -> Vec<String> {
        s.lines()
            .map(|l| {
                let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
                for m in v["moves"].as_array_mut().unwrap() {
                    m["secs"] = 0.into();
                }
                v.to_string()
            })
            .collect()
    };
    assert_eq!(
        strip(lines),
        strip(std::fs::read_to_string(&again).unwrap())
    );
}

#[test]
fn a_silent_agent_times_out_and_is_restarted() {
    let (out, _, took) = against("sleep 600", "2", &[]);
    assert_eq!(out.matches("p1 forfeited game").count(), 2, "{out}");
    assert!(out.contains("no move within 0.5 s"), "{out}");
    assert!(out.contains("p1 forfeited game 1"), "{out}");
    // The bound only tells a timeout from a hang: the agent would sleep for minutes.
    assert!(took < Duration::from_secs(300), "never hangs: {took:?}");
}

#[test]
fn garbage_illegal_moves_and_dead_agents_lose() {
    let (out, _, _) = against("printf 'x7'; sleep 5", "1", &[]);
    assert!(out.contains("malformed move"), "{out}");
    // With dice of all zeros cube 0 must move; cube 1 is illegal.
    let zeros = temp_file("zeros.txt", &"0 ".repeat(21));
    let (out, _, _) = against("printf 10; sleep 5", "2", &["--dice-file", &zeros]);
    assert!(
        out.contains("illegal move 10: cube 1 may not move with die 0"),
        "{out}"
    );
    let (out, _, _) = against("exit 3", "1", &[]);
    assert!(out.contains("closed its output"), "{out}");
    let (out, _, _) = against("exec >&-; sleep 5", "1", &[]);
    assert!(out.contains("closed its output"), "{out}");
    // A program that is not there is a usage error before game 1, not a match of forfeits.
    let out = ply(
        &[
            "ewn",
            "host",
            "--p0",
            "exit 0",
            "--p1",
            "/nonexistent/agent",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("p1: `/nonexistent/agent` cannot be started"),
        "{}",
        text(&out.stderr)
    );
    // `ply` in an agent's command is this program when no `ply` is on PATH.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            "ewn",
            "host",
            "--p0",
            "ply ewn agent random",
            "--p1",
            "ply ewn agent random",
        ])
        .args(["-r", "2", "--json"])
        .env("PATH", "/usr/bin:/bin")
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(
        report["players"][0]["forfeits"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{report}"
    );
}

#[test]
fn an_agent_that_floods_or_drips_whitespace_loses_its_game() {
    // An endless flood is cut off after a bounded number of bytes. The move time is long, so
    // that only the byte bound can end the game, however slowly a busy machine runs the agent.
    let random = agent("random --seed 3");
    let out = ply(
        &[
            "ewn",
            "host",
            "--p0",
            &random,
            "--p1",
            "yes ' '",
            "-r",
            "1",
            "--move-time",
            "600",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("p1 forfeited game 1: malformed move: more than"),
        "{}",
        text(&out.stdout)
    );
    // A slow drip keeps bytes arriving, but the move time counts from the request.
    let drip = "while :; do printf ' '; sleep 0.01; done";
    let (out, _, _) = against(drip, "1", &[]);
    assert!(
        out.contains("p1 forfeited game 1: no move within 0.5 s"),
        "{out}"
    );
}

#[test]
fn no_process_is_left_behind() {
    let marker = "97.25";
    let cmd = format!("sleep {marker} & sleep {marker}");
    let (out, _, _) = against(&cmd, "1", &[]);
    assert!(out.contains("no move within"), "{out}");
    // SIGKILLed processes vanish from the table once the kernel has torn them down, which
    // a busy machine may take a moment to do; a survivor would stay for 97 s.
    assert_eq!(
        common::processes_running(&format!("sleep {marker}")),
        0,
        "the agent's whole process group is killed"
    );
}

#[test]
fn usage_errors() {
    let out = ply(
        &["ewn", "host", "--p0", "true", "--p1", "true", "-r", "0"],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(text(&out.stderr).starts_with("ply: error: -r/--rounds must be at least 1"));
    for args in [
        &["ewn", "play", "--vs", "godlike"][..],
        &["ewn", "agent", "mcts", "--minimax", "2"],
        &[
            "ewn",
            "host",
            "--move-time",
            "-1",
            "--p0",
            "true",
            "--p1",
            "true",
        ],
        &["ewn", "solo", "gen", "--seed", "1", "--count", "x"],
    ] {
        let out = ply(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert!(
            stderr.starts_with("ply: error: ") && stderr.lines().count() == 1,
            "{args:?}: {stderr}"
        );
    }
    let bad = temp_file("bad-dice.txt", "1 2 3\n");
    let out = ply(
        &[
            "ewn",
            "host",
            "--p0",
            "true",
            "--p1",
            "true",
            "--dice-file",
            &bad,
        ],
        "",
    );
    assert!(
        text(&out.stderr).contains("line 1: 3 dice"),
        "{}",
        text(&out.stderr)
    );
    let out = ply(&["ewn", "agent", "alphabeta", "--depth", "x"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_agent_answers_the_protocol_on_stdin() {
    // Red's setup, the course's first dice line, role 'f': the agent moves first, then the
    // input ends.
    let setup = "012345012345343242404031241152042f";
    let out = ply(&["ewn", "agent", "alphabeta", "--depth", "2"], setup);
    assert_eq!(out.stdout.len(), 2, "{:?}", text(&out.stdout));
    assert_eq!(out.stdout[0], b'3', "die 3 moves cube 3");
    // The default agent (deep), and the same by name with --verbose.
    for args in [
        &["ewn", "agent", "--move-time", "0.05"][..],
        &["ewn", "agent", "deep", "--move-time", "0.05", "--verbose"][..],
    ] {
        let out = ply(args, setup);
        assert!(out.status.success(), "{}", text(&out.stderr));
        assert_eq!(out.stdout.len(), 2, "{:?}", text(&out.stdout));
        assert_eq!(out.stdout[0], b'3', "die 3 moves cube 3");
        if args.contains(&"--verbose") {
            assert!(text(&out.stderr).contains("depth"), "{}", text(&out.stderr));
        }
    }
    let out = ply(&["ewn", "agent", "--move-time", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    let out = ply(
        &["ewn", "agent", "random"],
        "0123450123453432424040312411520420f",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("'f' or 's'"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
/// Strength is a benchmark (docs/BENCHMARKS.md), not a test: a test that counted wins or timed
/// moves would depend on the machine's load. What must hold is that the agent never forfeits.
fn the_mcts_agent_plays_whole_games_and_reports_each_move() {
    let p0 = agent("mcts --move-time 0.1 --verbose");
    let p1 = agent("alphabeta --depth 8");
    let out = ply(
        &[
            "ewn", "host", "--p0", &p0, "--p1", &p1, "-r", "4", "--json", "--seed", "5",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let mcts = &report["players"][0];
    assert_eq!(report["games"], 4, "{report}");
    assert!(mcts["forfeits"].as_array().unwrap().is_empty(), "{report}");
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("iterations in") && stderr.contains("line "),
        "--verbose reports each move: {stderr}"
    );
    // Timed alpha-beta and the MCTS options parse; bad values are usage errors or named.
    let out = ply(&["ewn", "agent", "mcts", "--move-time", "0"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("--move-time 0"));
    let out = ply(&["ewn", "agent", "mcts", "--move-time", "soon"], "");
    assert_eq!(out.status.code(), Some(2));
    let setup = "012345012345343242404031241152042f";
    let out = ply(&["ewn", "agent", "alphabeta", "--move-time", "0.05"], setup);
    assert_eq!(out.stdout.len(), 2, "{:?}", text(&out.stdout));
    assert_eq!(out.stdout[0], b'3', "die 3 moves cube 3");
}

/// Starts `ply ewn host` with player 1 = an agent that marks its start and sleeps, and
/// player 0 = `p0` (or a human at a standard input that stays open), waits until the agent
/// runs, sends `signal`, and returns the host's exit code and stderr.
fn interrupted_host(
    p0: Option<&str>,
    signal: nix::sys::signal::Signal,
    tag: &str,
) -> (i32, String) {
    let scratch = common::scratch_dir();
    let started = common::path_in(&scratch, "started");
    let sleeper = format!("touch '{started}'; exec sleep 97.{tag}");
    let mut args = vec![
        "ewn",
        "host",
        "--p1",
        &sleeper,
        "-r",
        "3",
        "--move-time",
        "60",
    ];
    if let Some(p0) = p0 {
        args.extend(["--p0", p0]);
    }
    let mut host = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(&args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let waited = Instant::now();
    while !std::path::Path::new(&started).exists() {
        assert!(
            waited.elapsed() < Duration::from_secs(300),
            "the agent never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let pid = nix::unistd::Pid::from_raw(host.id() as i32);
    nix::sys::signal::kill(pid, signal).unwrap();
    let _stdin = host.stdin.take();
    let out = host.wait_with_output().unwrap();
    assert_eq!(
        common::processes_running(&format!("sleep 97.{tag}")),
        0,
        "the agent was stopped with the host"
    );
    (out.status.code().unwrap_or(-1), text(&out.stderr))
}

#[test]
fn an_interrupted_host_stops_its_agents_and_says_so() {
    let random = agent("random");
    // The shell's status for the signal: 128 + its number.
    let (code, stderr) = interrupted_host(Some(&random), nix::sys::signal::Signal::SIGINT, "51");
    assert_eq!(code, 130, "{stderr}");
    assert!(stderr.contains("interrupted after 0 games"), "{stderr}");
    let (code, stderr) = interrupted_host(Some(&random), nix::sys::signal::Signal::SIGTERM, "52");
    assert_eq!(code, 143, "{stderr}");
    // A human at the prompt is waited for on a thread of its own: the host leaves the prompt
    // at once and reports like any interrupted match (rather than being cut off by the
    // fallback that ends a host stuck for seconds, which reports nothing).
    let (code, stderr) = interrupted_host(None, nix::sys::signal::Signal::SIGINT, "53");
    assert_eq!(code, 130, "{stderr}");
    assert!(stderr.contains("interrupted after 0 games"), "{stderr}");
}

#[test]
fn a_match_of_four_billion_games_starts_at_once_and_stops_on_a_signal() {
    use std::io::BufRead;
    let random = agent("random");
    let mut host = std::process::Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            "ewn",
            "host",
            "--p0",
            &random,
            "--p1",
            &random,
            "-r",
            "4294967295",
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = std::io::BufReader::new(host.stdout.take().unwrap()).lines();
    let first = lines.next().expect("a line").unwrap();
    assert!(first.starts_with("game 1: "), "{first}");
    let pid = nix::unistd::Pid::from_raw(host.id() as i32);
    nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    let rest: Vec<String> = lines.map_while(Result::ok).collect();
    let out = host.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(143), "128 + SIGTERM");
    assert!(
        text(&out.stderr).contains("interrupted after"),
        "{}",
        text(&out.stderr)
    );
    assert!(
        rest.iter().any(|l| l.contains("win rate")),
        "the games played are reported"
    );
}

/// Runs `ply ewn tournament` with `args`; its stdout as JSON.
fn tournament(args: &[&str]) -> serde_json::Value {
    tournament_and_stderr(args).0
}

/// Runs `ply ewn tournament` with `args`; its stdout as JSON, and its stderr.
fn tournament_and_stderr(args: &[&str]) -> (serde_json::Value, String) {
    let mut all = vec!["ewn", "tournament", "--move-time", "0.5", "--json"];
    all.extend_from_slice(args);
    let out = ply(&all, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    (
        serde_json::from_slice(&out.stdout).unwrap(),
        text(&out.stderr),
    )
}

#[test]
fn a_round_robin_ranks_the_baselines_and_resumes_from_its_log() {
    let easy = format!("easy={}", agent("random"));
    let hard = format!("hard={}", agent("alphabeta --depth 8"));
    let silent = "silent=sleep 5".to_string();
    let dir = common::scratch_dir();
    let log = common::path_in(&dir, "tournament.log");
    let agents = [easy.as_str(), hard.as_str(), silent.as_str()];
    let mut args = agents.to_vec();
    args.extend_from_slice(&["--openings", "3", "--log", &log, "-j", "2"]);
    let (report, stderr) = tournament_and_stderr(&args);
    // Each game's line says why a forfeit was one.
    assert_eq!(
        stderr
            .matches("silent forfeited: no move within 0.5 s")
            .count(),
        12,
        "{stderr}"
    );
    // Three pairs, three openings, both colours.
    assert_eq!(report["games"], 18);
    let standings = report["standings"].as_array().unwrap();
    let name = |s: &serde_json::Value| {
        report["agents"][s["agent"].as_u64().unwrap() as usize]["name"].clone()
    };
    assert_eq!(name(&standings[0]), "hard", "{report}");
    assert_eq!(name(&standings[2]), "silent", "{report}");
    // The silent agent loses every game by forfeit (out of time).
    assert_eq!(standings[2]["wins"], 0);
    assert_eq!(standings[2]["forfeits"], 12);
    for s in standings {
        assert_eq!(s["games"], 12);
        let (elo, low, high) = (
            s["elo"].as_f64().unwrap(),
            s["elo_interval"][0].as_f64().unwrap(),
            s["elo_interval"][1].as_f64().unwrap(),
        );
        assert!(low < elo && elo < high, "{s}");
    }
    the_cross_table_and_the_time_losses_are_the_logs(&report, &stderr, &log);
    // A log cut short resumes: the games in it are kept, the rest played.
    let lines: Vec<String> = std::fs::read_to_string(&log)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 19, "a header and every game");
    std::fs::write(&log, lines[..7].join("\n") + "\n").unwrap();
    args.push("--resume");
    let resumed = tournament(&args);
    assert_eq!(resumed["games"], 18);
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 19);
    // Another tournament's log is refused.
    let out = ply(
        &[
            "ewn",
            "tournament",
            &easy,
            &hard,
            "--openings",
            "2",
            "--log",
            &log,
            "--resume",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("another tournament"),
        "{}",
        text(&out.stderr)
    );
}

/// The games of a tournament log: each game's red and blue agents, its winner, and whether
/// it was lost on time.
fn logged_games(log: &str) -> Vec<([usize; 2], usize, bool)> {
    std::fs::read_to_string(log)
        .unwrap()
        .lines()
        .skip(1)
        .map(|line| {
            let game: serde_json::Value = serde_json::from_str(line).unwrap();
            let game = &game["game"];
            let agent = |v: &serde_json::Value| v.as_u64().unwrap() as usize;
            let agents = [
                agent(&game["pairing"]["agents"][0]),
                agent(&game["pairing"]["agents"][1]),
            ];
            let on_time = game["record"]["end"]["Forfeit"].get("Timeout").is_some();
            (agents, agent(&game["winner"]), on_time)
        })
        .collect()
}

/// The cross-table of the tournament's report and of `ply merge` (its text and its JSON)
/// agree with one counted here from the log's games, and so do the games lost on time and
/// the warning about them.
fn the_cross_table_and_the_time_losses_are_the_logs(
    report: &serde_json::Value,
    stderr: &str,
    log: &str,
) {
    let games = logged_games(log);
    let agents = report["agents"].as_array().unwrap().len();
    let mut wins = vec![vec![0u64; agents]; agents];
    for &([red, blue], winner, _) in &games {
        let loser = if winner == red { blue } else { red };
        wins[winner][loser] += 1;
    }
    let matrix: Vec<Vec<u64>> = serde_json::from_value(report["cross_table"].clone()).unwrap();
    assert_eq!(matrix, wins, "{report}");
    let on_time = games.iter().filter(|g| g.2).count();
    assert_eq!(report["lost_on_time"], on_time);
    assert_eq!(on_time, 12, "the silent agent's games");
    assert!(
        stderr.contains("ply: warning: 12 of 18 games (66.7 %) were lost on time"),
        "{stderr}"
    );
    // The merge of the log prints the same cross-table, row by row in the standings' order.
    let out = ply(&["merge", "--json", log], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let merged: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(merged["cross_table"], report["cross_table"]);
    let out = ply(&["merge", log], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("were lost on time"));
    let printed = text(&out.stdout);
    let (_, cross) = printed
        .split_once("cross-table:")
        .unwrap_or_else(|| panic!("no cross-table:\n{printed}"));
    let names: Vec<String> = report["agents"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap().to_string())
        .collect();
    let rows: Vec<Vec<String>> = cross
        .lines()
        .filter(|l| l.starts_with('│'))
        .map(|l| {
            l.trim_matches('│')
                .split('┆')
                .map(|cell| cell.trim().to_string())
                .collect()
        })
        .collect();
    let order: Vec<usize> = report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["agent"].as_u64().unwrap() as usize)
        .collect();
    assert_eq!(
        rows.len(),
        agents + 1,
        "a header and a row per agent:\n{cross}"
    );
    let header: Vec<String> = order.iter().map(|&a| names[a].clone()).collect();
    assert_eq!(rows[0][1..], header[..], "{cross}");
    for (row, &a) in rows[1..].iter().zip(&order) {
        assert_eq!(row[0], names[a], "{cross}");
        for (cell, &b) in row[1..].iter().zip(&order) {
            let want = if a == b {
                String::new()
            } else {
                format!("{}-{}", wins[a][b], wins[b][a])
            };
            assert_eq!(*cell, want, "{} against {}:\n{cross}", names[a], names[b]);
        }
    }
}

/// The `Score of A vs B: W - L - D  [S] N` line cutechess-cli prints, from a duel's report.
fn final_score(report: &serde_json::Value) -> String {
    let games = report["games"].as_u64().unwrap();
    let first = report["standings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["agent"] == 0)
        .unwrap();
    let wins = first["wins"].as_u64().unwrap();
    format!(
        "Score of a vs b: {wins} - {} - 0  [{:.3}] {games}",
        games - wins,
        wins as f64 / games as f64
    )
}

#[test]
fn a_duel_prints_its_running_score_as_cutechess_does() {
    let a = format!("a={}", agent("random --seed 5"));
    let b = format!("b={}", agent("alphabeta --depth 2"));
    let args = [a.as_str(), &b, "--openings", "2", "-j", "2"];
    // Off a terminal, the score comes once, after the last game.
    let (report, stderr) = tournament_and_stderr(&args);
    assert_eq!(report["games"], 4);
    let scores: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("Score of"))
        .collect();
    assert_eq!(scores, [final_score(&report).as_str()], "{stderr}");
    assert!(
        stderr.lines().last().unwrap().starts_with("Score of"),
        "{stderr}"
    );
    assert!(!stderr.contains("lost on time"), "{stderr}");
    // On a terminal, after every game: the score of the games so far.
    let mut all = vec!["ewn", "tournament", "--move-time", "0.5"];
    all.extend_from_slice(&args);
    let mut tty = common::tty::Tty::spawn(&all, 200, 50);
    assert!(
        tty.wait_exit().success(),
        "{}",
        tty.printed_lines().join("\n")
    );
    let lines = tty.printed_lines();
    let (mut wins, mut losses, mut scores) = (0, 0, 0);
    for (i, line) in lines.iter().enumerate() {
        if line.starts_with("game ") {
            if line.contains(": a wins") {
                wins += 1;
            } else {
                losses += 1;
            }
            let games = wins + losses;
            let want = format!(
                "Score of a vs b: {wins} - {losses} - 0  [{:.3}] {games}",
                f64::from(wins) / f64::from(games)
            );
            assert_eq!(lines.get(i + 1), Some(&want), "{}", lines.join("\n"));
            scores += 1;
        }
    }
    assert_eq!(scores, 4, "{}", lines.join("\n"));
    assert_eq!(
        lines.iter().filter(|l| l.starts_with("Score of")).count(),
        4,
        "not repeated at the end:\n{}",
        lines.join("\n")
    );
}

#[test]
fn an_sprt_stops_as_soon_as_it_is_decided() {
    let hard = format!("hard={}", agent("alphabeta --depth 8"));
    let easy = format!("easy={}", agent("random"));
    let report = tournament(&[
        &hard,
        &easy,
        "--sprt",
        "0,100",
        "--openings",
        "100",
        "-j",
        "2",
    ]);
    let sprt = &report["sprt"];
    assert_eq!(sprt["verdict"], "H1", "{report}");
    let games = report["games"].as_u64().unwrap();
    // Decided long before the 200 games allowed (and no later than a few games past it).
    assert!(games < 60, "{games} games");
    assert!(sprt["llr"].as_f64().unwrap() >= sprt["bounds"][1].as_f64().unwrap());
}

#[test]
fn tournament_arguments_are_checked() {
    let easy = format!("easy={}", agent("random"));
    for (args, needle) in [
        (vec![easy.as_str()], "AGENT"),
        (vec![easy.as_str(), easy.as_str()], "same name"),
        (
            vec![easy.as_str(), "b=true", "c=true", "--sprt", "0,10"],
            "exactly two",
        ),
        (
            vec![easy.as_str(), "b=true", "--sprt", "10,0"],
            "ELO0 < ELO1",
        ),
        (
            vec![easy.as_str(), "b=true", "--openings", "0"],
            "at least 1",
        ),
    ] {
        let mut all = vec!["ewn", "tournament"];
        all.extend_from_slice(&args);
        let out = ply(&all, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(
            text(&out.stderr).contains(needle),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn agents_keep_within_the_hosts_move_time_whatever_their_own() {
    // The README's tournament gives the host 1.8 s a move, the agents' own default: the
    // agents learn the host's time from the environment and think a tenth less, so none
    // forfeits on time (before, every move the deep agent searched for its 1.8 s was late).
    let deep = format!("deep={}", agent(""));
    let easy = format!("easy={}", agent("random"));
    let out = ply(
        &[
            "ewn",
            "tournament",
            &deep,
            &easy,
            "--openings",
            "1",
            "--move-time",
            "1.8",
            "-j",
            "2",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    for s in report["standings"].as_array().unwrap() {
        assert_eq!(s["forfeits"], 0, "{}", text(&out.stderr));
    }
}

#[test]
fn the_human_prompt_fits_80_columns_and_a_flood_forfeits() {
    // Player 0 is a person at standard input, which here holds one bad move and ends.
    let random = agent("random");
    let out = ply(&["ewn", "host", "--p1", &random, "-r", "2"], "77\n");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("you play red (R)"), "{stderr}");
    assert!(stderr.contains("you play blue (b)"), "{stderr}");
    assert!(stderr.contains("your move as cube+direction"), "{stderr}");
    // What the direction digits mean, for each side.
    assert!(
        stderr.contains("0 right, 1 down, 2 down-right, 3 up-right"),
        "{stderr}"
    );
    assert!(
        stderr.contains("0 left, 1 up, 2 up-left, 3 down-left"),
        "{stderr}"
    );
    // At a terminal the person's Enter ends the prompt's line; here nothing echoes it.
    for line in stderr.replace("): ", "):\n").lines() {
        assert!(line.chars().count() <= 80, "{} columns: {line}", line.len());
    }
    // A line without end at the prompt is not a person's: it is not read past a bound, and
    // the person's side forfeits. (It fits the pipe's buffer, so that the test can write it
    // whole to a host that stops reading.)
    let flood = "x".repeat(60_000);
    let out = ply(&["ewn", "host", "--p1", &random, "-r", "1"], &flood);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("p0 forfeited game 1: malformed move: a line of more than"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn a_missing_program_is_a_usage_error_before_anything_is_written() {
    // Host and tournament alike: exit 2 before the first game, and the log (here an existing
    // one that --force would replace) is left as it was.
    let dir = common::scratch_dir();
    let log = common::path_in(&dir, "keep.jsonl");
    std::fs::write(&log, "keep\n").unwrap();
    let random = agent("random");
    let out = ply(
        &[
            "ewn",
            "host",
            "--p0",
            &random,
            "--p1",
            "/nonexistent/agent",
            "--log",
            &log,
            "--force",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("p1: `/nonexistent/agent` cannot be started"));
    let named = format!("a={random}");
    let out = ply(
        &[
            "ewn",
            "tournament",
            &named,
            "b=/nonexistent/agent",
            "--log",
            &log,
            "--force",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("agent b: `/nonexistent/agent` cannot be started"));
    assert_eq!(std::fs::read_to_string(&log).unwrap(), "keep\n");
}

/// Asserts `ply args` is a usage error: exit 2, one `ply: error:` line containing `says`,
/// no panic.
fn usage_error(args: &[&str], says: &str) {
    let out = ply(args, "");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.starts_with("ply: error: ") && stderr.lines().count() == 1,
        "{args:?}: {stderr}"
    );
    assert!(stderr.contains(says), "{args:?}: {stderr}");
}

#[test]
fn absurd_times_tests_and_schedules_are_usage_errors() {
    let random = agent("random");
    let (a, b) = (format!("a={random}"), format!("b={random}"));
    // Move times the clock cannot reach (they overflowed an instant and panicked).
    for time in ["1e19", "9.3e18"] {
        usage_error(
            &[
                "ewn",
                "host",
                "--p0",
                &random,
                "--p1",
                &random,
                "--move-time",
                time,
            ],
            "is more than a day",
        );
        usage_error(
            &["ewn", "tournament", &a, &b, "--move-time", time],
            "is more than a day",
        );
        for kind in [&["--move-time", time][..], &["deep", "--move-time", time]] {
            let mut args = vec!["ewn", "agent"];
            args.extend_from_slice(kind);
            usage_error(&args, "is more than a day");
        }
        usage_error(
            &["ewn", "agent", "alphabeta", "--move-time", time],
            "is more than a day",
        );
        usage_error(
            &["ewn", "agent", "mcts", "--move-time", time],
            "is more than a day",
        );
    }
    // Huge values are named briefly, not in 301 digits.
    usage_error(
        &["ewn", "agent", "--move-time", "1e300"],
        "--move-time 1e300 is more than a day",
    );
    // An SPRT whose bounds leave the Elo model's range could never decide.
    usage_error(
        &["ewn", "tournament", &a, &b, "--sprt=-1e308,1e308"],
        "--sprt -1e308,1e308: each bound must lie within",
    );
    // Too many games to number, and more games at once than any machine runs.
    usage_error(
        &["ewn", "tournament", &a, &b, "--openings", "4294967295"],
        "--openings 4,294,967,295 gives 8,589,934,590 games",
    );
    usage_error(
        &["ewn", "tournament", &a, &b, "-j", "100000"],
        "--concurrency 100,000 is more than 256",
    );
}

#[test]
fn empty_commands_and_bare_assignments_are_usage_errors() {
    let random = agent("random");
    usage_error(
        &["ewn", "host", "--p0", "", "--p1", &random],
        "p0: the command is empty",
    );
    usage_error(
        &["ewn", "host", "--p0", "A=1 B=2", "--p1", &random],
        "only sets shell variables",
    );
    for (spec, says) in [
        ("", "an agent is empty"),
        ("=", "`=` cannot be started"),
        ("name=", "agent name: the command is empty"),
        ("a=b=cmd", "agent a: `b=cmd` only sets shell variables"),
    ] {
        usage_error(&["ewn", "tournament", spec, &random], says);
    }
}

#[test]
fn messages_name_things_once_and_count_in_words() {
    // A broken setup is described once, not as `X: X`.
    let out = ply(
        &["ewn", "agent", "random"],
        "000000012345343242404031241152042f",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stderr).trim_end(),
        "ply: error: bad setup: '000000' is not a permutation of the cube numbers 0-5"
    );
    let out = ply(&["ewn", "playouts", "--games", "1"], "");
    assert!(
        text(&out.stdout).starts_with("1 playout, "),
        "{}",
        text(&out.stdout)
    );
    // The timed alpha-beta is not ply's strongest agent; `deep` is.
    let out = ply(&["ewn", "agent", "alphabeta", "--help"], "");
    let help = text(&out.stdout);
    assert!(
        help.contains("--move-time") && !help.contains("strongest"),
        "{help}"
    );
}

#[test]
fn the_referee_lets_agents_ponder_only_when_every_agent_has_a_core() {
    // Each agent writes what its referee said into a file of its own game's, then plays.
    let dir = common::scratch_dir();
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    for (games_at_once, expected) in [(1, if cores >= 2 { "1" } else { "0" }), (cores, "0")] {
        let said = common::path_in(&dir, &format!("ponder-{games_at_once}"));
        let recording = |name: &str| {
            format!(
                "{name}=echo \"$PLY_EWN_HOST_PONDER\" >> '{said}'; exec {}",
                agent("random")
            )
        };
        let jobs = games_at_once.to_string();
        let out = ply(
            &[
                "ewn",
                "tournament",
                &recording("a"),
                &recording("b"),
                "--openings",
                "1",
                "--move-time",
                "1",
                "-j",
                &jobs,
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let lines = std::fs::read_to_string(&said).unwrap();
        assert!(
            !lines.is_empty() && lines.lines().all(|l| l == expected),
            "-j {games_at_once} on {cores} cores: {lines:?}"
        );
    }
}
