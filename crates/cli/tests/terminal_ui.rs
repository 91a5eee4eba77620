//! The terminal UIs and tables as a user meets them: `ply` on a pseudo-terminal, keys typed
//! as bytes, the screen read back through a terminal emulator.

mod common;

use common::tty::Tty;
use common::{scratch_dir, small_map};

fn data(path: &str) -> String {
    format!("{}/../../data/{path}", env!("CARGO_MANIFEST_DIR"))
}

/// The number after `label` on the screen ("opened 12/3584" gives 12 for "opened ").
fn number_after(screen: &str, label: &str) -> Option<u64> {
    let rest = &screen[screen.find(label)? + label.len()..];
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[test]
fn mines_play_local_answers_keys_and_ends_on_ctrl_c_with_its_score() {
    let dir = scratch_dir();
    let map = small_map(&dir);
    let mut tty = Tty::spawn(&["mines", "play", "--local", &map], 100, 30);
    tty.wait_for("the board", |s| s.contains("opened 0/"));
    assert!(tty.full_screen());
    // A click at the cursor opens cells or hits a mine; either way the status line changes.
    tty.keys(" ");
    tty.wait_for("the click's result", |s| {
        number_after(s, "opened ").is_some_and(|n| n > 0)
            || number_after(s, "mines hit ").is_some_and(|n| n > 0)
    });
    tty.keys("\x03");
    let status = tty.wait_exit();
    assert!(status.success(), "{status:?}");
    assert!(!tty.full_screen(), "the terminal is restored");
    let screen = tty.screen();
    assert!(
        screen.contains("safe cells, hit") && screen.contains("score"),
        "{screen}"
    );
}

#[test]
fn a_terminal_without_rows_or_columns_is_an_error_not_a_blank_screen() {
    let dir = scratch_dir();
    let map = small_map(&dir);
    let mut tty = Tty::spawn(&["mines", "play", "--local", &map], 0, 0);
    let status = tty.wait_exit();
    assert_eq!(status.exit_code(), 1, "{status:?}");
    let screen = tty.screen();
    assert!(screen.contains("this one is 0 x 0"), "{screen}");
}

#[test]
fn sokoboru_hints_come_from_the_background_and_lead_to_a_solve() {
    let small = data("sokoboru/small.in");
    let mut tty = Tty::spawn(
        &["sokoboru", "play", "--hint", "--stage", "2", "-i", &small],
        100,
        30,
    );
    tty.wait_for("stage 2", |s| s.contains("stage 2/"));
    // Keys are answered while the hint search runs: the stage changes and changes back.
    tty.keys("n");
    tty.wait_for("stage 3", |s| s.contains("stage 3/"));
    tty.keys("p");
    tty.wait_for("stage 2 again", |s| s.contains("stage 2/"));
    // Following the hints solves the stage.
    let mut moves = 0;
    loop {
        let screen = tty.wait_for("a hint or the solve", |s| {
            s.contains("SOLVED") || s.contains("hint: none") || hint(s).is_some()
        });
        if screen.contains("SOLVED") {
            break;
        }
        let key = match hint(&screen) {
            Some('^') => "k",
            Some('v') => "j",
            Some('<') => "h",
            Some('>') => "l",
            _ => panic!("the hint search gave up:\n{screen}"),
        };
        tty.keys(key);
        moves += 1;
        assert!(moves < 500, "the hints go round in circles:\n{screen}");
        tty.wait_for("the move", |s| {
            number_after(s, "moves ").is_some_and(|n| n == moves)
        });
    }
    tty.keys("q");
    assert!(tty.wait_exit().success());
    assert!(!tty.full_screen(), "the terminal is restored");
}

/// The direction the screen's hint line shows, if it shows one.
fn hint(screen: &str) -> Option<char> {
    let rest = &screen[screen.find("hint: ")? + "hint: ".len()..];
    rest.chars().next().filter(|c| "^v<>".contains(*c))
}

#[test]
fn tables_fit_the_terminal_width() {
    let dir = scratch_dir();
    let instances = common::path_in(&dir, "three.txt");
    // Three easy 8-puzzles: enough rows for a table whose columns do not fit 40 columns.
    std::fs::write(
        &instances,
        "1 2 3 4 5 6 7 0 8\n1 2 3 4 5 6 0 7 8\n1 2 0 4 5 3 7 8 6\n",
    )
    .expect("write instances");
    let mut tty = Tty::spawn(&["npuzzle", "bench", &instances], 40, 40);
    assert!(tty.wait_exit().success(), "{}", tty.screen());
    let lines = tty.printed_lines();
    let screen = lines.join("\n");
    // Too narrow for its seven columns, the table becomes blocks of name and value, every
    // line within the terminal and every instance shown.
    for line in &lines {
        assert!(
            line.chars().count() <= 40,
            "a line wider than 40:\n{screen}"
        );
    }
    for id in [
        "id         line 1",
        "id         line 3",
        "optimal    3/3 solved",
    ] {
        assert!(screen.contains(id), "no {id}:\n{screen}");
    }
}
