//! Absurd arguments and impossible requests: a one-line error and exit 2 (a usage error) or
//! exit 1 (a request that cannot be met), never a panic, an abort or a run without end.

mod common;

use std::ffi::OsStr;
use std::os::unix::ffi::OsStrExt;
use std::process::Command;

use common::{ply, scratch_dir, small_map, text};

/// Asserts `ply args` exits with `code` and one `ply: error:` line naming `what`.
fn fails(args: &[&str], code: i32, what: &str) {
    let out = ply(args, "");
    let stderr = text(&out.stderr);
    assert_eq!(out.status.code(), Some(code), "{args:?}: {stderr}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("ply: error: ") && last.contains(what),
        "{args:?}: {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
}

#[test]
fn absurd_values_are_usage_errors() {
    let dir = scratch_dir();
    let map = small_map(&dir);
    fails(
        &[
            "sokoboru",
            "gen",
            "--seed",
            "1",
            "--count",
            "1",
            "--wall-density",
            "nan",
        ],
        2,
        "chance",
    );
    fails(
        &[
            "sokoboru",
            "gen",
            "--seed",
            "1",
            "--count",
            "1",
            "--max-nodes",
            "0",
        ],
        2,
        "--max-nodes",
    );
    // A huge limit is shown short, with the reason (it was 301 digits "not a positive number").
    fails(
        &["mines", "judge", "true", &map, "0", "1e300"],
        2,
        "TIME_LIMIT 1e300 is more than a duration can hold",
    );
    fails(
        &["mines", "judge", "true", &map, "0", "--time-limit", "nan"],
        2,
        "--time-limit NaN is not a number",
    );
    fails(
        &["npuzzle", "solve", "--time-limit", "1e300", &map],
        2,
        "--time-limit 1e300 is more than a duration can hold",
    );
    fails(
        &["npuzzle", "bench", "--time-limit", "-1", &map],
        2,
        "--time-limit -1 is negative",
    );
    // An empty player command, or one that only sets variables, runs no program: it was
    // judged (score 0.023) instead of refused.
    fails(
        &["mines", "judge", "", &map, "0", "1"],
        2,
        "the player: the command is empty",
    );
    fails(
        &["mines", "judge", "A=1", &map, "0", "1"],
        2,
        "only sets shell variables",
    );
    fails(
        &[
            "ewn",
            "solo",
            "gen",
            "--seed",
            "1",
            "--count",
            "1",
            "--min-moves",
            "31",
        ],
        2,
        "moves",
    );
    // A file name that is not UTF-8 is a file name like any other: this one does not exist.
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args([
            OsStr::new("npuzzle"),
            OsStr::new("solve"),
            OsStr::from_bytes(b"\xff.txt"),
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).starts_with("ply: error: "),
        "{}",
        text(&out.stderr)
    );
    // Paths that ply records as text (logs, dice files) must be UTF-8: the error names the
    // option (it was clap's "invalid UTF-8 was detected in one or more arguments").
    for (args, option) in [
        (&["ewn", "host", "--log"][..], "--log"),
        (&["ewn", "host", "--dice-file"][..], "--dice-file"),
        (&["ewn", "tournament", "a=x", "b=y", "--log"][..], "--log"),
        (&["ewn", "replay"][..], "<LOG>"),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(args)
            .arg(OsStr::from_bytes(b"t\xff.log"))
            .output()
            .unwrap();
        let stderr = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.starts_with(&format!("ply: error: {option}"))
                && stderr.contains("'t\\xff.log' is not UTF-8")
                && stderr.lines().count() == 1,
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn requests_no_draw_can_meet_give_up_after_their_draws() {
    fails(
        &[
            "ewn",
            "solo",
            "gen",
            "--seed",
            "1",
            "--count",
            "2",
            "--min-moves",
            "30",
            "--max-draws",
            "30",
        ],
        1,
        "gave up after 30 draws with 0 of 2",
    );
    fails(
        &[
            "sokoboru",
            "gen",
            "--seed",
            "1",
            "--count",
            "1",
            "--wall-density",
            "0.99",
            "--max-draws",
            "20",
        ],
        1,
        "gave up after 20 boards drawn",
    );
    // A count no memory could hold is drawn lazily, and the draw budget ends it.
    let out = ply(
        &[
            "ewn",
            "solo",
            "gen",
            "--seed",
            "1",
            "--count",
            "18446744073709551615",
            "--max-draws",
            "5",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(
        text(&out.stdout).matches("\n\n").count(),
        4,
        "five instances kept"
    );
    assert!(text(&out.stderr).contains("gave up after 5 draws with 5 of"));
}

#[test]
fn negative_values_reach_the_commands_own_checks() {
    // Before, clap took `-1` for an option and advised `-- -1`.
    fails(
        &[
            "ewn", "openings", "prove", "--sample", "1", "--budget", "-1",
        ],
        2,
        "--budget -1 is negative",
    );
    fails(
        &["npuzzle", "solve", "--time-limit", "-1", "-"],
        2,
        "--time-limit -1 is negative",
    );
    let dir = scratch_dir();
    let out = dir.path().join("o");
    let out = out.to_str().unwrap();
    for (time, says) in [
        ("-1", "is not a Slurm time"),
        ("99:99:99", "must be below 60"),
    ] {
        fails(
            &[
                "npuzzle",
                "bench",
                "--emit-slurm",
                "2",
                "--out",
                out,
                "--slurm-time",
                time,
            ],
            2,
            says,
        );
    }
    let random = |name: &str| format!("{name}={} ewn agent random", env!("CARGO_BIN_EXE_ply"));
    fails(
        &[
            "ewn",
            "tournament",
            &random("a"),
            &random("b"),
            "--sprt",
            "-50,-60",
        ],
        2,
        "--sprt",
    );
}
