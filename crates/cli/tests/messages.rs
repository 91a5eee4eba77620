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

#[test]
fn usage_errors_keep_clap_s_whole_message_on_one_line() {
    let out = ply(&["npuzzle", "solve"], "");
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("<FILE>"), "{stderr}");
    assert!(stderr.contains("ply npuzzle solve --help"), "{stderr}");

    let stderr = text(&ply(&["npuzzle", "solve", "--heuristic", "foo", "x"], "").stderr);
    assert!(stderr.contains("possible values: manhattan"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");

    let stderr = text(&ply(&["npuzzle", "slove"], "").stderr);
    assert!(
        stderr.contains("similar subcommand exists: 'solve'"),
        "{stderr}"
    );
}

#[test]
fn a_misspelt_subcommand_is_named_and_the_help_is_its_parents() {
    // The words after the misspelt one are its arguments, not subcommands of its parent:
    // `solve` here is classic's, not `ply mines solve`.
    for args in [
        &["mines", "clasic"][..],
        &["mines", "clasic", "solve", "--level", "expert"][..],
        &["help", "mines", "clasic"][..],
    ] {
        let out = ply(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = text(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("unrecognized subcommand 'clasic'; tip: a similar subcommand exists: 'classic' (see ply mines --help)"),
            "{args:?}: {stderr}"
        );
    }
    let stderr = text(&ply(&["mines", "classic", "sovle", "--json"], "").stderr);
    assert!(
        stderr.contains("'solve' (see ply mines classic --help)"),
        "{stderr}"
    );
    // Nothing like it: no tip.
    let stderr = text(&ply(&["help", "mines", "zzzzzz"], "").stderr);
    assert!(
        !stderr.contains("tip:") && stderr.contains("(see ply mines --help)"),
        "{stderr}"
    );
}

#[test]
fn the_top_help_names_classic_minesweeper() {
    let out = ply(&["--help"], "");
    assert!(out.status.success());
    let help = text(&out.stdout);
    let mines = help
        .lines()
        .find(|l| l.trim_start().starts_with("mines "))
        .unwrap_or_else(|| panic!("no mines line:\n{help}"));
    assert!(
        mines.contains("classic Minesweeper") && mines.contains("play | solve | bench"),
        "{mines}"
    );
}

#[test]
fn a_command_without_its_subcommand_shows_the_help_as_a_usage_error() {
    for args in [&[][..], &["npuzzle"][..]] {
        let out = ply(args, "");
        assert_eq!(out.status.code(), Some(2));
        let stderr = text(&out.stderr);
        assert!(stderr.contains("Usage: ply"), "{stderr}");
        assert!(!stderr.contains("ply: error:"), "{stderr}");
    }
}

/// Runs `ply` with stdout or stderr on /dev/full.
fn to_full(args: &[&str], stderr_full: bool) -> std::process::Output {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .expect("/dev/full")
    };
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_ply"));
    command.args(args).stdin(std::process::Stdio::null());
    if stderr_full {
        command.stderr(full()).stdout(std::process::Stdio::null());
    } else {
        command.stdout(full()).stderr(std::process::Stdio::piped());
    }
    command.output().expect("ply runs")
}

#[test]
fn help_that_cannot_be_written_is_a_failure() {
    for args in [&["--help"][..], &["--version"][..]] {
        let out = to_full(args, false);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(text(&out.stderr).contains("No space left"), "{args:?}");
    }
}

#[test]
fn a_failed_write_to_stderr_never_panics() {
    assert_eq!(
        to_full(&["sokoboru", "verify", "-i", "/nonexistent"], true)
            .status
            .code(),
        Some(1)
    );
    assert_eq!(to_full(&["npuzzle", "solve"], true).status.code(), Some(2));
    let tiny = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/sokoboru/tiny.in");
    let out = to_full(&["sokoboru", "solve", "--stats", tiny], true);
    assert_eq!(out.status.code(), Some(0));
}

#[test]
fn the_solver_counts_its_threads_in_words() {
    let dir = scratch_dir();
    let map = small_map(&dir);
    let player = format!("{} mines solve --threads 1", env!("CARGO_BIN_EXE_ply"));
    let out = ply(
        &["mines", "judge", &player, &map, "8", "--no-time-limit"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("solve: 1 thread,"), "{stderr}");
}
