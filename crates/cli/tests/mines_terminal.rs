//! `ply mines judge` as a user meets it on a terminal: a progress bar while the player runs,
//! none when stderr is not a terminal.

mod common;

use common::tty::Tty;
use common::{RecordedShm, path_in, ply, recording_shm, scratch_dir, small_map, text};

const PLY: &str = env!("CARGO_BIN_EXE_ply");

#[test]
fn the_judge_shows_the_cells_opened_on_a_terminal_and_nothing_elsewhere() {
    let dir = scratch_dir();
    let map = small_map(&dir);
    // The player opens the first 100 cells one by one, then waits: the bar must come to the
    // safe ones among them, of the board's 64 * 64 - 512 safe cells.
    let bytes = std::fs::read(&map).unwrap();
    let bits = &bytes[bytes.iter().position(|&b| b == b'\n').unwrap() + 1..];
    let safe = (0..100)
        .filter(|&i| bits[i / 8] >> (i % 8) & 1 == 0)
        .count();
    let names = path_in(&dir, "shm-names");
    let _cleanup = RecordedShm(names.clone());
    let player = recording_shm(
        &names,
        &format!("'{PLY}' mines probe --clicks 100 2>/dev/null; exec sleep 600"),
    );
    let mut tty = Tty::spawn(&["mines", "judge", &player, &map, "0", "600"], 120, 12);
    // The bar counts with thousands separators, as every count ply prints.
    let want = format!("{safe}/3,584");
    tty.wait_for(&want, |s| s.contains("judging [") && s.contains(&want));
    // Ctrl-C reaches the judge alone (the player and the server have process groups of
    // their own), which stops the game.
    tty.keys("\x03");
    let status = tty.wait_exit();
    assert_eq!(status.exit_code(), 130, "{}", tty.screen());
    let screen = tty.screen();
    assert!(screen.contains("player   was interrupted"), "{screen}");

    let out = ply(&["mines", "judge", "true", &map, "0", "5"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        !text(&out.stderr).contains("judging"),
        "{}",
        text(&out.stderr)
    );
}
