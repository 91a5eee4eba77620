//! How `ply sokoboru solve` ends when it cannot finish: at a signal, when standard output
//! goes away or fills up, when standard error cannot be written. Every case that has an
//! answer is printed, and nothing keeps searching for a reader that has gone.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use common::{temp_file, text};

fn data(name: &str) -> String {
    format!("{}/../../data/sokoboru/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Case `k` (1-based) of a bundled puzzle file, as text.
fn case(name: &str, k: usize) -> String {
    let file = std::fs::read_to_string(data(name)).unwrap();
    let mut lines = file.lines();
    let mut taken = String::new();
    for at in 1..=k {
        let header = lines.next().unwrap();
        let rows: usize = header.split(' ').next().unwrap().parse().unwrap();
        let board: Vec<&str> = lines.by_ref().take(rows).collect();
        if at == k {
            taken = std::iter::once(header)
                .chain(board)
                .map(|l| format!("{l}\n"))
                .collect();
        }
    }
    taken
}

/// A `ply` this test started, killed and reaped when the test ends, whichever way it ends.
struct Running(Child);

impl std::ops::Deref for Running {
    type Target = Child;

    fn deref(&self) -> &Child {
        &self.0
    }
}

impl std::ops::DerefMut for Running {
    fn deref_mut(&mut self) -> &mut Child {
        &mut self.0
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        // Both fail harmlessly once the process has been reaped.
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// `child`'s exit status if it ends within `limit`; otherwise it is killed and `None`.
fn wait_at_most(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(status) = child.try_wait().expect("wait for ply") {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().expect("kill ply");
    child.wait().expect("reap ply");
    None
}

/// A file whose first case is solved at once and whose other cases take minutes on one
/// thread, though each has its first answer within milliseconds: three of medium.in's,
/// eight times over.
fn long_file() -> common::TempFile {
    let mut text = case("tiny.in", 1);
    for _ in 0..8 {
        for k in [1, 2, 9] {
            text += &case("medium.in", k);
        }
    }
    temp_file("long.in", &text)
}

/// A signal while a file is being solved prints an answer for every case not printed yet,
/// and the status is the shell's for that signal. Every case has one: the first answers of
/// all cases come before any case is searched further, and the first case printed (tiny.in's
/// first, whose first answer does not prove itself optimal) comes after them.
#[test]
fn a_signal_prints_an_answer_for_every_case() {
    use nix::sys::signal::Signal;
    let mut file = case("tiny.in", 1);
    for k in 2..=10 {
        file += &case("medium.in", k);
    }
    let puzzles = temp_file("signal.in", &file);
    for signal in [Signal::SIGINT, Signal::SIGTERM, Signal::SIGHUP] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(["sokoboru", "solve", "--deadline", "none", &puzzles])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map(Running)
            .expect("ply starts");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        // The first case printed shows the handlers are in place; the whole file takes
        // seconds.
        let mut first = String::new();
        stdout.read_line(&mut first).expect("read the first case");
        let pid = nix::unistd::Pid::from_raw(i32::try_from(child.id()).expect("pid"));
        nix::sys::signal::kill(pid, signal).expect("send the signal");
        let mut rest = String::new();
        stdout.read_to_string(&mut rest).expect("read the rest");
        let status = child.wait().expect("ply ends");
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .expect("stderr")
            .read_to_string(&mut stderr)
            .expect("read stderr");
        let output = first + &rest;
        assert_eq!(output.lines().count(), 20, "{signal}: {output}\n{stderr}");
        // Finished before the signal arrived, or stopped with the signal's status.
        let code = 128 + signal as i32;
        assert!(
            status.success() || (status.code() == Some(code) && stderr.contains("interrupted")),
            "{signal}: {status:?}: {stderr}"
        );
        assert!(!stderr.contains("ply: error: case"), "{signal}: {stderr}");
        let solutions = temp_file("interrupted.out", &output);
        let verify = common::ply(
            &["sokoboru", "verify", "-i", &puzzles, "-o", &solutions],
            "",
        );
        assert!(
            text(&verify.stdout).contains("all 10 cases accepted"),
            "{signal}: {}{}",
            text(&verify.stdout),
            text(&verify.stderr)
        );
    }
}

/// `ply sokoboru solve FILE | head -1`: once the reader has gone, the command ends quietly
/// at once rather than search the rest of the file for nobody.
#[test]
fn a_reader_that_has_gone_ends_the_search() {
    let file = long_file();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            "sokoboru",
            "solve",
            "--threads",
            "1",
            "--deadline",
            "none",
            &file,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map(Running)
        .expect("ply starts");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut first = String::new();
    stdout.read_line(&mut first).expect("read the first line");
    assert_eq!(first, "44\n");
    drop(stdout);
    let status = wait_at_most(&mut child, Duration::from_secs(30));
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    assert!(
        status.is_some_and(|status| status.success()),
        "{status:?}: {stderr}"
    );
    assert!(stderr.is_empty(), "{stderr}");
}

/// A full disk stops the search at the first failed write, with the error.
#[test]
fn a_full_standard_output_ends_the_search_with_an_error() {
    let file = long_file();
    let mut child = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            "sokoboru",
            "solve",
            "--threads",
            "1",
            "--deadline",
            "none",
            &file,
        ])
        .stdin(Stdio::null())
        .stdout(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full"),
        )
        .stderr(Stdio::piped())
        .spawn()
        .map(Running)
        .expect("ply starts");
    let status = wait_at_most(&mut child, Duration::from_secs(60));
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut stderr)
        .expect("read stderr");
    assert_eq!(status.and_then(|status| status.code()), Some(1), "{stderr}");
    assert_eq!(
        stderr,
        "ply: error: writing standard output: No space left on device (os error 28)\n"
    );
}

/// A standard error that cannot be written (a full disk) changes nothing on standard
/// output: every case is printed, and the command succeeds.
#[test]
fn an_unwritable_standard_error_loses_no_answer() {
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["sokoboru", "solve", "--stats", &data("tiny.in")])
        .stdin(Stdio::null())
        .stderr(
            std::fs::OpenOptions::new()
                .write(true)
                .open("/dev/full")
                .expect("/dev/full"),
        )
        .output()
        .expect("ply runs");
    assert_eq!(out.status.code(), Some(0));
    let penalties: Vec<String> = text(&out.stdout)
        .lines()
        .step_by(2)
        .map(str::to_string)
        .collect();
    assert_eq!(
        penalties.join(" "),
        "44 14 28 23 18 26 22 23 24 37",
        "{}",
        text(&out.stdout)
    );
}
