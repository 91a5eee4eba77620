//! Helpers shared by the CLI tests: run `ply` with arguments and standard input.

// Each test binary uses only some of these helpers.
#![allow(dead_code)]

pub mod tty;

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the `ply` binary with `args`, feeding `stdin`, and collects its output. The pattern
/// database directory is an empty one of this test process (`--pdb-dir` overrides it), so
/// that databases in the user's cache do not change what the tests see.
pub fn ply(args: &[&str], stdin: &str) -> Output {
    let no_databases = std::env::temp_dir().join(format!("ply-test-{}-no-pdb", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .env("PLY_PDB_DIR", no_databases)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("ply starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write stdin");
    child.wait_with_output().expect("ply runs")
}

/// Output bytes as text.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("utf-8 output")
}

/// A file in the temporary directory, removed when dropped.
pub struct TempFile(tempfile::TempPath);

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
pub fn temp_file(name: &str, contents: &str) -> TempFile {
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
pub fn scratch_dir() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("ply-test-")
        .tempdir()
        .expect("create a temporary directory")
}

/// The path of `name` inside `dir`, as a string for a command line.
pub fn path_in(dir: &tempfile::TempDir, name: &str) -> String {
    dir.path().join(name).display().to_string()
}

/// How many processes run a command line containing `marker`, once the kernel has had time to
/// tear down those just killed (up to 30 s; a survivor would stay for minutes).
pub fn processes_running(marker: &str) -> usize {
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
pub fn small_map(dir: &tempfile::TempDir) -> String {
    let map = path_in(dir, "m.map");
    let out = ply(
        &["mines", "gen", "--size", "64", "--seed", "1", "-o", &map],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    map
}
