//! `ply mines` against hostile inputs and signals: servers that send nonsense, maps that are
//! not files, names that are not UTF-8, servers that are missing or outlive their judge, and
//! interrupted or killed map writers.

mod common;

use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{
    RecordedShm, path_in, ply, ply_within, processes_running, recording_shm, scratch_dir, shm_left,
    small_map, text, wait_for_process,
};

const PLY: &str = env!("CARGO_BIN_EXE_ply");

/// Far longer than any of these commands takes when it works; a hang fails the test.
const HANG: Duration = Duration::from_secs(120);

fn os(args: &[&str]) -> Vec<OsString> {
    args.iter().map(OsString::from).collect()
}

fn refs(args: &[OsString]) -> Vec<&OsStr> {
    args.iter().map(OsString::as_os_str).collect()
}

#[test]
fn a_server_that_sends_only_a_nul_cannot_hold_the_judge_past_its_limit() {
    let dir = scratch_dir();
    let map = small_map(&dir);
    let names = path_in(&dir, "shm-names");
    // The server greets the player, sends the judge a bare NUL, and then says nothing more.
    let server = "printf '64 512\\0' > /proc/self/fd/$MINESWEEPER_FD_GS_TO_PL; \
        printf '\\0' > /proc/self/fd/$MINESWEEPER_FD_GS_TO_JU; exec sleep 600";
    let player = recording_shm(&names, "exec sleep 600");
    let args = os(&["mines", "judge", &player, &map, "8", "1", server, "--json"]);
    let _cleanup = RecordedShm(names.clone());
    let out = ply_within(&refs(&args), HANG);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    assert_eq!(
        shm_left(&names),
        Vec::<String>::new(),
        "the judge removed its object"
    );
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let why = verdict["ending"]["server_failed"]
        .as_str()
        .unwrap_or_default();
    assert!(why.contains("did not report its counts"), "{verdict}");
    assert_eq!(verdict["score"], 0.0);
}

#[test]
fn a_map_that_is_not_a_regular_file_is_refused_without_waiting() {
    let dir = scratch_dir();
    let fifo = path_in(&dir, "f.map");
    nix::unistd::mkfifo(fifo.as_str(), nix::sys::stat::Mode::S_IRWXU).unwrap();
    for args in [
        vec!["mines", "judge", "true", &fifo, "8", "2"],
        vec!["mines", "judge", "true", &fifo, "8"],
        vec!["mines", "info", &fifo],
        vec!["mines", "play", "--local", &fifo],
    ] {
        let out = ply_within(&refs(&os(&args)), HANG);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains(&format!("{fifo}: not a regular file")),
            "{args:?}: {err}"
        );
    }
    // A map given through a pipe (`<(cat map)` in a shell) is named as such, not as an empty
    // file.
    let map = std::fs::read(small_map(&dir)).unwrap();
    let mut child = Command::new(PLY)
        .args(["mines", "info", "/dev/stdin"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        // The reader may refuse the pipe before reading it all.
        let _ = std::io::Write::write_all(&mut stdin, &map);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("/dev/stdin: not a regular file"), "{err}");
}

#[test]
fn a_map_path_that_is_not_utf8_reaches_the_server_unchanged() {
    let dir = scratch_dir();
    let map = small_map(&dir);
    let mut odd = dir.path().as_os_str().as_bytes().to_vec();
    odd.extend_from_slice(b"/m\xff.map");
    let odd = OsStr::from_bytes(&odd);
    std::fs::copy(&map, odd).unwrap();
    let player = format!("'{PLY}' mines naive");
    let out = Command::new(PLY)
        .args(["mines", "judge", &player])
        .arg(odd)
        .args(["0", "--no-time-limit", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let verdict: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(verdict["score"], 100.0, "{verdict}");
}

#[test]
fn a_missing_server_is_a_usage_error() {
    let dir = scratch_dir();
    let map = small_map(&dir);
    for args in [
        vec!["mines", "judge", "true", &map, "0", "5", "./no-such-server"],
        vec![
            "mines",
            "judge",
            "true",
            &map,
            "--server",
            "no-such-server-x",
        ],
    ] {
        let out = ply(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains("the server: `") && err.contains("cannot be started"),
            "{err}"
        );
    }
}

#[test]
fn a_server_dies_with_a_judge_killed_outright() {
    let dir = scratch_dir();
    let map = small_map(&dir);
    let names = path_in(&dir, "shm-names");
    let player = recording_shm(&names, "exec sleep 98.12");
    let _cleanup = RecordedShm(names.clone());
    let mut judge = Command::new(PLY)
        .args(["mines", "judge", &player, &map, "0", "600", "sleep 98.11"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // The judge starts the server first, then the player.
    wait_for_process("sleep 98.12");
    judge.kill().unwrap();
    judge.wait().unwrap();
    assert_eq!(
        processes_running("sleep 98.1"),
        0,
        "the server or the player outlived its judge"
    );
}

/// The hidden temporary files in `dir`.
fn temporaries(dir: &tempfile::TempDir) -> Vec<String> {
    std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.contains(".tmp-"))
        .collect()
}

#[test]
fn an_interrupted_map_writer_leaves_no_temporary_file() {
    let dir = scratch_dir();
    // The signal must come while the temporary file exists: the test waits for it to appear,
    // and tries again with a fresh name if the writer was faster than the look.
    for attempt in 0..10 {
        let out_path = path_in(&dir, &format!("big{attempt}.map"));
        let child = Command::new(PLY)
            .args([
                "mines", "gen", "--size", "16384", "--seed", "1", "-o", &out_path,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let start = Instant::now();
        let mut seen = false;
        while start.elapsed() < HANG {
            if !temporaries(&dir).is_empty() {
                seen = true;
                break;
            }
            if std::path::Path::new(&out_path).exists() {
                break;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        if seen {
            nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(child.id() as i32),
                nix::sys::signal::Signal::SIGINT,
            )
            .unwrap();
        }
        let out = child.wait_with_output().unwrap();
        assert_eq!(temporaries(&dir), Vec::<String>::new(), "attempt {attempt}");
        if seen && out.status.code() == Some(130) {
            assert!(!std::path::Path::new(&out_path).exists());
            assert!(
                text(&out.stderr).contains("interrupted"),
                "{}",
                text(&out.stderr)
            );
            return;
        }
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    panic!("the writer was never caught with its temporary file");
}

#[test]
fn a_writer_killed_outright_has_its_temporary_file_removed_by_the_next() {
    let dir = scratch_dir();
    // A process that has ended: its pid names no process (a reused pid would only keep the
    // file, and fail the test, not remove anything else).
    let mut gone = Command::new("true").spawn().unwrap();
    let dead = gone.id();
    gone.wait().unwrap();
    let stale = path_in(&dir, &format!(".old.map.tmp-{dead}"));
    let live = path_in(&dir, &format!(".other.map.tmp-{}", std::process::id()));
    let unrelated = path_in(&dir, ".notes.tmp-x1");
    for file in [&stale, &live, &unrelated] {
        std::fs::write(file, b"16 32\n").unwrap();
    }
    let out = ply(
        &[
            "mines",
            "gen",
            "--size",
            "16",
            "--seed",
            "1",
            "-o",
            &path_in(&dir, "new.map"),
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !std::path::Path::new(&stale).exists(),
        "the stale file was removed"
    );
    assert!(
        std::path::Path::new(&live).exists(),
        "a live writer's file stays"
    );
    assert!(
        std::path::Path::new(&unrelated).exists(),
        "other files stay"
    );
}

#[test]
fn a_failed_map_write_names_the_output_not_the_temporary_file() {
    let dir = scratch_dir();
    let target = path_in(&dir, "missing/x.map");
    let out = ply(
        &["mines", "gen", "--size", "16", "--seed", "1", "-o", &target],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains(&format!("writing {target}:")), "{err}");
    assert!(!err.contains(".tmp-"), "{err}");
}
