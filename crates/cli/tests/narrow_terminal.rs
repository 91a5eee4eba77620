//! Every table ply prints fits an 80-column terminal: on a pseudo-terminal that wide, no line
//! of a command's output runs past the right edge (a terminal would wrap it and break the
//! table's grid), and off a terminal the rows stay one line each for `grep` and `cut`.

mod common;

use common::tty::Tty;
use common::{path_in, ply, scratch_dir, text};

const COLUMNS: u16 = 80;

/// How long a command here may run before it is taken for hung: the whole demo, which runs
/// for minutes on a machine busy with other tests and builds.
const PATIENCE: std::time::Duration = std::time::Duration::from_secs(600);

/// Runs `ply args` on an 80 x 24 terminal, checks that it succeeds and that every line it
/// printed fits, and returns the lines.
fn on_80_columns(args: &[&str]) -> Vec<String> {
    let mut tty = Tty::spawn(args, COLUMNS, 24);
    let status = tty.wait_exit_within(PATIENCE);
    let lines = tty.printed_lines();
    assert!(
        status.success(),
        "ply {args:?}: {status:?}\n{}",
        lines.join("\n")
    );
    let wide: Vec<&String> = lines
        .iter()
        .filter(|l| l.chars().count() > usize::from(COLUMNS))
        .collect();
    assert!(
        wide.is_empty(),
        "ply {args:?} printed {} lines wider than {COLUMNS} columns:\n{}",
        wide.len(),
        lines.join("\n")
    );
    lines
}

#[test]
fn the_demo_fits_80_columns_in_a_screenful_or_two() {
    let lines = on_80_columns(&["demo"]);
    let table: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with(['│', '┌', '└', '╞', '├']))
        .collect();
    assert!(
        table.iter().any(|l| l.contains("optimal: 55")),
        "{}",
        lines.join("\n")
    );
    // Before, the result column shrank to a letter a line: 240 lines for seven rows.
    assert!(
        table.len() <= 60,
        "{} lines:\n{}",
        table.len(),
        lines.join("\n")
    );
}

#[test]
fn the_demo_off_a_terminal_prints_a_row_a_line() {
    let out = ply(&["demo"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    let rows = stdout.lines().filter(|l| l.starts_with('│')).count();
    // The header and the eight systems' rows.
    assert_eq!(rows, 9, "{stdout}");
    assert!(
        stdout.contains("npuzzle") && stdout.contains("optimal: 55 moves"),
        "{stdout}"
    );
    // The Minesweeper score says what it is out of.
    assert!(stdout.contains(" of 100: "), "{stdout}");
    // Classic Minesweeper: the games of the bench of the same seed, with its wins.
    let bench = ply(
        &[
            "mines", "classic", "bench", "--level", "expert", "--rule", "safe", "--games", "200",
            "--seed", "1", "--json",
        ],
        "",
    );
    assert!(bench.status.success(), "{}", text(&bench.stderr));
    let bench: serde_json::Value = serde_json::from_slice(&bench.stdout).unwrap();
    let classic = stdout
        .lines()
        .find(|l| l.contains("mines classic"))
        .unwrap_or_else(|| panic!("no classic row:\n{stdout}"));
    let (low, high) = (
        bench["interval"][0].as_f64().unwrap(),
        bench["interval"][1].as_f64().unwrap(),
    );
    let result = format!(
        "won {} of 200 ({:.1} %; 95 % interval {:.1}-{:.1} %)",
        bench["wins"],
        100.0 * bench["rate"].as_f64().unwrap(),
        100.0 * low,
        100.0 * high
    );
    assert!(classic.contains(&result), "{result} in {classic}");
    assert!(classic.contains("expert (30 columns x 16 rows, 99 mines), first click safe"));
}

#[test]
fn benches_and_lists_fit_80_columns() {
    let dir = scratch_dir();
    on_80_columns(&[
        "npuzzle",
        "bench",
        "--first",
        "3",
        "--heuristic",
        "manhattan",
    ]);
    let pdb_dir = path_in(&dir, "pdb");
    on_80_columns(&["npuzzle", "pdb", "list", "--pdb-dir", &pdb_dir]);
    on_80_columns(&["sokoboru", "bench", "../../data/sokoboru/tiny.in"]);
    let map = path_in(&dir, "m.map");
    let out = ply(
        &["mines", "gen", "--size", "64", "--seed", "1", "-o", &map],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The player's own summary on stderr is the player's to fit; the bench's table is ply's.
    let naive = format!("{} mines naive 2>/dev/null", env!("CARGO_BIN_EXE_ply"));
    on_80_columns(&["mines", "bench", &naive, &map]);
}

#[test]
fn the_openings_summary_and_a_tournament_fit_80_columns() {
    let dir = scratch_dir();
    let log = path_in(&dir, "proofs.jsonl");
    let out = ply(
        &[
            "ewn",
            "openings",
            "prove",
            "--dice",
            "343242404031241152042",
            "--sample",
            "3",
            "--max-nodes",
            "20000",
            "--memory",
            "32",
            "--verify",
            "0",
            "--log",
            &log,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    on_80_columns(&["ewn", "openings", "summary", &log]);
    let agent =
        |name: &str, kind: &str| format!("{name}={} ewn agent {kind}", env!("CARGO_BIN_EXE_ply"));
    on_80_columns(&[
        "ewn",
        "tournament",
        &agent("random", "random"),
        &agent("alphabeta-2", "alphabeta --depth 2"),
        "--openings",
        "1",
        "--move-time",
        "1",
    ]);
}
