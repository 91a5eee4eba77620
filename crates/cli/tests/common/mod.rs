//! Helpers shared by the CLI tests: run `ply` with arguments and standard input.

// Each test binary uses only some of these helpers.
#![allow(dead_code)]

pub(crate) mod batch;
pub(crate) mod tty;

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the `ply` binary with `args`, feeding `stdin`, and collects its output. The pattern
/// database directory is an empty one of this test process (`--pdb-dir` overrides it), so
/// that databases in the user's cache do not change what the tests see.
pub(crate) fn ply(args: &[&str], stdin: &str) -> Output {
    let no_databases = std::env::temp_dir().join(format!("ply-test-{}-no-pdb", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .env("PLY_PDB_DIR", no_databases)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ply starts");
    // A command that does not read its input may end before it is written: a closed pipe
    // then is no failure of the test.
    let written = child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes());
    if let Err(e) = written {
        assert_eq!(e.kind(), std::io::ErrorKind::BrokenPipe, "write stdin: {e}");
    }
    child.wait_with_output().expect("ply runs")
}

/// Output bytes as text.
pub(crate) fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8 output")
}

/// A file in the temporary directory, removed when dropped.
pub(crate) struct TempFile(tempfile::TempPath);

impl std::ops::Deref for TempFile {
    type Target = str;

    fn deref(&self) -> &str {
        self.0.to_str().expect("temporary paths are UTF-8")
    }
}

impl AsRef<std::path::Path> for TempFile {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

/// Writes `contents` to a new file in the temporary directory whose name ends in `name`.
pub(crate) fn temp_file(name: &str, contents: &str) -> TempFile {
    let mut file = tempfile::Builder::new()
        .prefix("ply-test-")
        .suffix(&format!("-{name}"))
        .tempfile()
        .expect("create temp file");
    file.write_all(contents.as_bytes())
        .expect("write temp file");
    TempFile(file.into_temp_path())
}

/// A directory for one test's files, removed when dropped, so also when the test panics.
pub(crate) fn scratch_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("ply-test-")
        .tempdir()
        .expect("create a temporary directory")
}

/// The path of `name` inside `dir`, as a string for a command line.
pub(crate) fn path_in(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).display().to_string()
}

/// How many processes run a command line containing `marker`, once the kernel has had time to
/// tear down those just killed (up to 30 s; a survivor would stay for minutes).
pub(crate) fn processes_running(marker: &str) -> usize {
    let count = || {
        let ps = Command::new("ps")
            .args(["-eo", "args"])
            .output()
            .expect("ps runs");
        text(&ps.stdout)
            .lines()
            .filter(|l| l.contains(marker))
            .count()
    };
    let start = std::time::Instant::now();
    while count() > 0 && start.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    count()
}

/// A 64 x 64 map with 512 mines (seed 1) in `dir`.
pub(crate) fn small_map(dir: &tempfile::TempDir) -> String {
    let map = path_in(dir, "m.map");
    let out = ply(
        &["mines", "gen", "--size", "64", "--seed", "1", "-o", &map],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    map
}

/// Runs `ply args` with no input and collects its output, killing it (and failing the test)
/// if it has not ended within `limit`: for commands that used to hang, so that a hang fails
/// the test instead of stalling the suite.
pub(crate) fn ply_within(args: &[&std::ffi::OsStr], limit: std::time::Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ply starts");
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait for ply").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("ply ends");
            panic!(
                "`ply {args:?}` was still running after {limit:?}; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("ply ends")
}

/// Waits for `child` to end and collects its output, killing it (and failing the test) if it
/// has not ended within `limit`: for a command that must stop when told to, so that one that
/// does not fails the test instead of stalling the suite.
pub(crate) fn wait_within(mut child: std::process::Child, limit: std::time::Duration) -> Output {
    let start = std::time::Instant::now();
    while child.try_wait().expect("wait for ply").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("ply ends");
            panic!(
                "ply was still running {limit:?} after it was told to stop; stderr: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    child.wait_with_output().expect("ply ends")
}

/// Waits until a process whose whole command line is `marker` runs (a program exec'd with
/// exactly those arguments, not a shell whose command line only contains it).
pub(crate) fn wait_for_process(marker: &str) {
    let start = std::time::Instant::now();
    loop {
        let ps = Command::new("ps")
            .args(["-eo", "args"])
            .output()
            .expect("ps runs");
        if text(&ps.stdout).lines().any(|l| l.trim() == marker) {
            return;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(300),
            "{marker} never started"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// A `mines judge` player command line that first appends the judge's shared-memory name to
/// the file `names`, then runs `player`: so that a test checks (or removes) only the objects
/// of the judges it started, never those of a judge someone else runs beside it.
pub(crate) fn recording_shm(names: &str, player: &str) -> String {
    format!("printf '%s\\n' \"$MINESWEEPER_SHM_NAME\" >> '{names}'; {player}")
}

/// The shared-memory objects recorded in `names` (by [`recording_shm`] players) that still
/// exist. Panics if none was recorded, so that a check of an empty list cannot pass unseen.
pub(crate) fn shm_left(names: &str) -> Vec<String> {
    let recorded = std::fs::read_to_string(names).unwrap_or_default();
    let recorded: Vec<&str> = recorded.lines().filter(|l| !l.is_empty()).collect();
    assert!(
        !recorded.is_empty(),
        "no judge recorded its shared memory in {names}"
    );
    recorded
        .into_iter()
        .filter(|name| shm_path(name).exists())
        .map(str::to_string)
        .collect()
}

/// Removes the shared-memory objects recorded in `names` (those of judges a test killed
/// outright, which had no moment to remove them).
pub(crate) fn remove_recorded_shm(names: &str) {
    for name in std::fs::read_to_string(names).unwrap_or_default().lines() {
        if name.starts_with("/minesweeper_shm_") && !name[1..].contains('/') {
            let _ = std::fs::remove_file(shm_path(name));
        }
    }
}

/// Where Linux keeps the POSIX shared-memory object `name` ("/minesweeper_shm_...").
fn shm_path(name: &str) -> std::path::PathBuf {
    std::path::Path::new("/dev/shm").join(name.trim_start_matches('/'))
}

/// Removes the shared-memory objects recorded in its file when dropped, so also when the test
/// fails half-way (a judge killed by the test leaves its object behind).
pub(crate) struct RecordedShm(pub String);

impl Drop for RecordedShm {
    fn drop(&mut self) {
        remove_recorded_shm(&self.0);
    }
}
