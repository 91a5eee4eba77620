//! Error and status messages say each thing once, in words, with the right number.

mod common;

use common::{ply, scratch_dir, small_map, text};

#[test]
fn a_cause_is_named_once() {
    let out = ply(&["mines", "info", "/nonexistent/x.map"], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert_eq!(
        stderr.matches("No such file or directory").count(),
        1,
        "{stderr}"
    );
}

#[test]
fn a_player_killed_by_a_signal_is_named_by_the_signal() {
    let dir = scratch_dir();
    let map = small_map(&dir);
    let out = ply(&["mines", "judge", "kill -SEGV $$", &map, "8", "600"], "");
    assert!(
        text(&out.stdout).contains("killed by signal 11 (SIGSEGV)"),
        "{}",
        text(&out.stdout)
    );
    // A shell that runs more after a command killed by a signal reports it as 128 + N.
    let nested = "sh -c 'kill -SEGV $$'; exit $?";
    let out = ply(&["mines", "judge", nested, &map, "8", "600"], "");
    assert!(
        text(&out.stdout)
            .contains("exited with status 139 (the shell's report of signal 11, SIGSEGV)"),
        "{}",
        text(&out.stdout)
    );
    let agent = format!("{} ewn agent random", env!("CARGO_BIN_EXE_ply"));
    let out = ply(
        &["ewn", "host", "--p0", &agent, "--p1", nested, "-r", "1"],
        "",
    );
    assert!(
        text(&out.stdout).contains("signal 11, SIGSEGV"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn endless_input_is_refused_and_counts_start_at_one() {
    let out = ply(&["npuzzle", "solve", "/dev/zero"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("/dev/zero is larger than"),
        "{}",
        text(&out.stderr)
    );
    let out = ply(&["npuzzle", "bench", "--first", "0"], "");
    assert_eq!(out.status.code(), Some(2));
}
