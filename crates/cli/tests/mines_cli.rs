//! `ply mines`: maps, the judge with ply's server and players, and every failure path.

mod common;

use std::os::unix::fs::FileTypeExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{path_in, ply, recording_shm, scratch_dir, shm_left, text};
use tempfile::TempDir;

const PLY: &str = env!("CARGO_BIN_EXE_ply");

fn gen_map(dir: &TempDir, name: &str, size: u32, mines: Option<u64>, seed: u64) -> String {
    let path = path_in(dir, name);
    let size = size.to_string();
    let seed = seed.to_string();
    let mut args = vec![
        "mines", "gen", "--size", &size, "--seed", &seed, "-o", &path, "--force",
    ];
    let mines = mines.map(|m| m.to_string());
    if let Some(m) = &mines {
        args.extend(["--mines", m]);
    }
    let out = ply(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    path
}

fn player(args: &str) -> String {
    format!("'{PLY}' mines {args}")
}

#[test]
fn gen_is_exact_deterministic_and_careful_and_info_checks_files() {
    let dir = scratch_dir();
    let a = gen_map(&dir, "a.map", 256, None, 5);
    let b = gen_map(&dir, "b.map", 256, None, 5);
    let c = gen_map(&dir, "c.map", 256, None, 6);
    let bytes = std::fs::read(&a).unwrap();
    assert!(bytes.starts_with(b"256 8192\n"));
    assert_eq!(bytes.len(), 9 + 256 * 256 / 8);
    assert_eq!(bytes, std::fs::read(&b).unwrap());
    assert_ne!(bytes, std::fs::read(&c).unwrap());

    let out = ply(&["mines", "info", &a], "");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        stdout.contains("8,192 in the header, 8,192 in the bits"),
        "{stdout}"
    );
    assert!(stdout.contains("opening  largest"), "{stdout}");

    let out = ply(
        &["mines", "gen", "--size", "256", "--seed", "1", "-o", &a],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("exists (use --force"),
        "{}",
        text(&out.stderr)
    );
    let out = ply(
        &[
            "mines",
            "gen",
            "--size",
            "100",
            "--seed",
            "1",
            "-o",
            &path_in(&dir, "x"),
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("not a power of two"));
    let out = ply(&["mines", "gen", "--seed", "1"], "");
    assert_eq!(out.status.code(), Some(2), "usage error");

    // Only a regular file is ever replaced: not a device, a directory or a symbolic link.
    let link = path_in(&dir, "link.map");
    std::os::unix::fs::symlink(&c, &link).unwrap();
    let c_before = std::fs::read(&c).unwrap();
    for target in ["/dev/null", dir.path().to_str().unwrap(), link.as_str()] {
        let out = ply(
            &[
                "mines", "gen", "--size", "256", "--seed", "9", "-o", target, "--force",
            ],
            "",
        );
        assert_eq!(out.status.code(), Some(1), "{target}");
        assert!(
            text(&out.stderr).contains("not a regular file"),
            "{}",
            text(&out.stderr)
        );
    }
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(
        std::fs::read(&c).unwrap(),
        c_before,
        "the link's target is untouched"
    );

    // A truncated file and a header that lies about K are both named.
    std::fs::write(&b, &bytes[..bytes.len() - 1]).unwrap();
    let out = ply(&["mines", "info", &b], "");
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("b.map") && err.contains("8200 bytes"), "{err}");
    let mut lying = bytes.clone();
    lying[9] ^= 1;
    std::fs::write(&b, &lying).unwrap();
    let out = ply(&["mines", "info", &b, "--no-opening"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the bits hold"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_naive_player_scores_100_at_512_with_a_zero() {
    let dir = scratch_dir();
    let map = gen_map(&dir, "naive512.map", 512, None, 1);
    let out = ply(
        &[
            "mines",
            "judge",
            &player("naive"),
            &map,
            "0",
            "--no-time-limit",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["score"], 100.0);
    assert_eq!(verdict["safe_opened"], 512 * 512 - 32768);
    assert_eq!(verdict["mines_opened"], 32768);
    assert_eq!(verdict["ending"]["exited"], 0);
    // The same with A = 8: every mine costs, so the score collapses to 0.
    let out = ply(
        &[
            "mines",
            "judge",
            &player("naive"),
            &map,
            "8",
            "--no-time-limit",
        ],
        "",
    );
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("score    0.000 (A = 8)"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn judge_failure_paths_are_reported_and_leave_nothing_behind() {
    let dir = scratch_dir();
    let map = gen_map(&dir, "fail.map", 64, None, 2);
    let sparse = gen_map(&dir, "sparse.map", 256, Some(10), 3);
    // Every player records its judge's shared-memory name, so that the test checks the objects
    // of its own judges only.
    let names = path_in(&dir, "shm-names");
    let rec = |player: &str| recording_shm(&names, player);
    let judge = |args: &[&str]| {
        let start = Instant::now();
        let out = ply(args, "");
        (out, start.elapsed())
    };

    let (out, _) = judge(&["mines", "judge", &rec("exit 3"), &map, "8"]);
    assert!(out.status.success());
    assert!(
        text(&out.stdout).contains("player   exited with status 3"),
        "{}",
        text(&out.stdout)
    );

    let (out, _) = judge(&["mines", "judge", &rec("kill -9 $$"), &map]);
    assert!(
        text(&out.stdout).contains("killed by signal 9"),
        "{}",
        text(&out.stdout)
    );

    // The judge stops a player at the limit instead of waiting for it (the bound on `took`
    // only tells a hang from a kill: the player would sleep for minutes).
    let (out, took) = judge(&["mines", "judge", &rec("sleep 600"), &map, "0", "0.5"]);
    assert!(
        text(&out.stdout).contains("stopped at the time limit"),
        "{}",
        text(&out.stdout)
    );
    assert!(
        took < Duration::from_secs(300),
        "the judge does not wait for the player: {took:?}"
    );

    // A player killed mid-click: the server is not wedged and still reports counts that fit
    // the board (how far the probe got by the limit depends on the machine's load).
    let (out, _) = judge(&[
        "mines",
        "judge",
        &rec(&player("probe --clicks 1000000000000")),
        &map,
        "--time-limit",
        "0.5",
        "--json",
    ]);
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["ending"], "time_limit", "{verdict}");
    assert!(verdict["safe_opened"].as_u64().unwrap() <= 64 * 64 - 512);
    assert!(verdict["mines_opened"].as_u64().unwrap() <= 512);

    // An opening larger than a channel's region ends the game with the server's error.
    let (out, _) = judge(&[
        "mines",
        "judge",
        &rec(&player("naive")),
        &sparse,
        "0",
        "--json",
    ]);
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let error = verdict["ending"]["server_error"]
        .as_str()
        .unwrap_or_default();
    assert!(error.contains("more than 43686 cells"), "{verdict}");
    assert_eq!(verdict["score"], 0.0);

    // A server that dies, a missing map, a bad limit: clear errors, no hang.
    let (out, took) = judge(&[
        "mines",
        "judge",
        &rec("sleep 600"),
        &map,
        "0",
        "20",
        "exit 4",
    ]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("server ended unexpectedly")
            && text(&out.stderr).contains("the player scores 0"),
        "{}",
        text(&out.stderr)
    );
    assert!(took < Duration::from_secs(300), "{took:?}");

    // A player that kills the server, or truncates the shared memory under it, scores 0 with
    // the reason; the judge still gives a verdict.
    let kill_server = "for p in /proc/[0-9]*; do \
        if grep -qz \"MINESWEEPER_SHM_NAME=$MINESWEEPER_SHM_NAME\" $p/environ 2>/dev/null \
        && grep -qz MINESWEEPER_MAP_FILE_PATH $p/environ 2>/dev/null; then kill -9 ${p#/proc/}; fi; \
        done; sleep 600";
    let truncate = "truncate -s 0 /dev/shm$MINESWEEPER_SHM_NAME; \
        printf C > /proc/self/fd/$MINESWEEPER_FD_PL_TO_GS; sleep 600";
    for hostile in [kill_server, truncate] {
        let (out, _) = judge(&["mines", "judge", &rec(hostile), &map, "8", "600", "--json"]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
        let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(verdict["score"], 0.0, "{verdict}");
        let why = verdict["ending"]["server_failed"]
            .as_str()
            .unwrap_or_default();
        assert!(why.contains("the server ended unexpectedly"), "{verdict}");
    }

    // Without a time limit given, the contest's limit for the map's size applies; a server
    // that never reports its counts is waited for a bounded time.
    let (out, _) = judge(&["mines", "judge", &rec("sleep 600"), &map, "0"]);
    assert!(
        text(&out.stdout).contains("stopped at the time limit"),
        "{}",
        text(&out.stdout)
    );
    let (out, _) = judge(&[
        "mines",
        "judge",
        &rec("true"),
        &map,
        "0",
        "5",
        "sleep 600",
        "--json",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let why = verdict["ending"]["server_failed"]
        .as_str()
        .unwrap_or_default();
    assert!(why.contains("did not report its counts"), "{verdict}");
    let (out, _) = judge(&["mines", "judge", "./no-such-answer", &map, "8"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "a missing player is a usage error"
    );
    assert!(text(&out.stderr).contains("`./no-such-answer` cannot be started"));
    let (out, _) = judge(&["mines", "judge", "true", "/nonexistent/x.map"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("/nonexistent/x.map"));
    let (out, _) = judge(&["mines", "judge", "true", &map, "0", "-1"]);
    assert_ne!(out.status.code(), Some(0));

    // A header that claims more mines than the bits hold would let a do-nothing player score
    // 100: the judge refuses the map.
    let mut bytes = std::fs::read(&map).unwrap();
    let header_end = bytes.iter().position(|&b| b == b'\n').unwrap();
    let mut lying = b"64 4096".to_vec();
    lying.extend_from_slice(&bytes.split_off(header_end));
    let liar = path_in(&dir, "liar.map");
    std::fs::write(&liar, &lying).unwrap();
    let (out, _) = judge(&["mines", "judge", "true", &liar, "8"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("the header says 4096 mines but the bits hold 512"),
        "{}",
        text(&out.stderr)
    );

    // The server is refused outside a judge, and so is a player.
    let out = ply(&["mines", "server"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("MINESWEEPER_LAUNCHED_BY_JUDGER"));
    let out = ply(&["mines", "naive"], "");
    assert_eq!(out.status.code(), Some(1));

    assert_eq!(
        shm_left(&names),
        Vec::<String>::new(),
        "every shared-memory object was removed"
    );
}

#[test]
fn an_interrupted_judge_stops_everything_and_cleans_up() {
    let dir = scratch_dir();
    let map = gen_map(&dir, "int.map", 64, None, 4);
    let started = path_in(&dir, "started");
    let names = path_in(&dir, "shm-names");
    // The player writes its pid and becomes `sleep`: the judge's own child, so that after the
    // judge has gone, no process with that pid may be left.
    let judge = Command::new(PLY)
        .args([
            "mines",
            "judge",
            &recording_shm(
                &names,
                &format!(
                    "echo $$ > '{started}.tmp' && mv '{started}.tmp' '{started}' && exec sleep 600"
                ),
            ),
            &map,
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The judge installs its signal handlers before it starts the player, so once the player
    // has written its pid, SIGINT is the judge's to handle.
    let wait_start = Instant::now();
    let pid = loop {
        if let Ok(pid) = std::fs::read_to_string(&started) {
            break pid.trim().parse::<i32>().expect("a pid");
        }
        assert!(
            wait_start.elapsed() < Duration::from_secs(300),
            "the player never started"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(judge.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = judge.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(130),
        "128 + SIGINT, as a shell reports it"
    );
    assert!(
        text(&out.stderr).contains("interrupted"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(shm_left(&names), Vec::<String>::new());
    assert_eq!(
        nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None),
        Err(nix::errno::Errno::ESRCH),
        "the player was killed and reaped"
    );
}

#[test]
fn an_interrupted_judge_reports_what_was_played() {
    let dir = scratch_dir();
    let map = gen_map(&dir, "played.map", 64, None, 4);
    let done = path_in(&dir, "done");
    // The naive player opens every cell (mines too), then the player waits: what it played
    // is all on the server when the judge is interrupted.
    let player = format!("{PLY} mines naive 2>/dev/null && touch '{done}' && exec sleep 600");
    let judge = Command::new(PLY)
        .args(["mines", "judge", "--no-time-limit", &player, &map])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let wait_start = Instant::now();
    while !std::path::Path::new(&done).exists() {
        assert!(
            wait_start.elapsed() < Duration::from_secs(300),
            "the player never finished its clicks"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(judge.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let out = judge.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    // 64 x 64 with the default 512 mines: 3,584 safe cells, all of them opened.
    assert!(
        stdout.contains("safe     3,584 of 3,584 opened"),
        "{stdout}"
    );
    assert!(stdout.contains("mines    512 opened"), "{stdout}");
    assert!(
        stdout.contains("so far: the game was interrupted"),
        "{stdout}"
    );
    assert!(stdout.contains("limit    none"), "{stdout}");
}

#[test]
fn a_c_player_speaking_the_raw_protocol_runs_unchanged() {
    let dir = scratch_dir();
    let source = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/c_player.c");
    let binary = path_in(&dir, "c_player");
    let compiled = Command::new("cc")
        .args(["-O2", "-Wall", "-Werror", "-o", &binary, source])
        .status();
    match compiled {
        Ok(status) => assert!(status.success(), "the C player compiles"),
        Err(e) => {
            eprintln!("skipped: no C compiler ({e})");
            return;
        }
    }
    let map = gen_map(&dir, "c.map", 256, None, 9);
    let out = ply(
        &[
            "mines",
            "judge",
            &binary,
            &map,
            "0",
            "--no-time-limit",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["ending"]["exited"], 0, "{}", text(&out.stderr));
    assert_eq!(verdict["score"], 100.0);
    assert!(
        text(&out.stderr).contains("c_player: "),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn the_solver_scores_100_at_512_with_a_8_on_several_seeds() {
    let dir = scratch_dir();
    for (seed, threads) in [(1, "1"), (2, "2"), (3, "2"), (4, "1")] {
        let map = gen_map(&dir, &format!("solve512-{seed}.map"), 512, None, seed);
        let solver = player(&format!("solve --threads {threads} --json"));
        let out = ply(
            &[
                "mines",
                "judge",
                &solver,
                &map,
                "8",
                "--no-time-limit",
                "--json",
            ],
            "",
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(verdict["score"], 100.0, "seed {seed}: {verdict}");
        assert_eq!(verdict["safe_opened"], 512 * 512 - 32768, "seed {seed}");
        assert_eq!(verdict["ending"]["exited"], 0);
    }
    // The reference approach also plays to the end.
    let map = gen_map(&dir, "reference512.map", 512, None, 5);
    let reference = player("reference --threads 2");
    let out = ply(
        &[
            "mines",
            "judge",
            &reference,
            &map,
            "8",
            "--no-time-limit",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["safe_opened"], 512 * 512 - 32768, "{verdict}");
    // More threads than the board has rows: one worker per row, the rest unused.
    let small = gen_map(&dir, "small16.map", 16, None, 3);
    let solver = player("solve --threads 40");
    let out = ply(
        &[
            "mines",
            "judge",
            &solver,
            &small,
            "8",
            "--no-time-limit",
            "--json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["ending"]["exited"], 0, "{verdict}");
    assert_eq!(verdict["safe_opened"], 16 * 16 - 32, "{verdict}");
    let out = ply(&["mines", "solve", "--threads", "0"], "");
    assert_eq!(out.status.code(), Some(2), "a usage error");
    assert!(
        text(&out.stderr).contains("--threads 0"),
        "{}",
        text(&out.stderr)
    );
}
