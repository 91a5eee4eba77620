//! Every command that writes to standard output ends quietly, with status 0, when the reader
//! has gone (`ply ... | head -1`): no panic, no error message.

mod common;

use std::os::fd::OwnedFd;
use std::process::{Command, Stdio};

use common::{path_in, scratch_dir, text};

/// Runs `ply args` with standard output a pipe whose reading end is already closed.
fn with_closed_stdout(args: &[&str], pdb_dir: &str) -> (Option<i32>, String) {
    let (reader, writer): (OwnedFd, OwnedFd) = nix::unistd::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(args)
        .env("PLY_PDB_DIR", pdb_dir)
        .stdin(Stdio::null())
        .stdout(Stdio::from(writer))
        .stderr(Stdio::piped())
        .output()
        .expect("ply runs");
    (out.status.code(), text(&out.stderr))
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let dir = scratch_dir();
    let map = path_in(&dir, "m.map");
    let generated = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["mines", "gen", "--size", "64", "--seed", "1", "-o", &map])
        .output()
        .unwrap();
    assert!(generated.status.success());
    let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data");
    let sample = format!("{data}/ewn-solo/tcg2024-public/bonus_sample3");
    let solution = path_in(&dir, "sample.out");
    let solved = Command::new(env!("CARGO_BIN_EXE_ply"))
        .args(["ewn", "solo", "solve", &sample])
        .output()
        .unwrap();
    std::fs::write(&solution, &solved.stdout).unwrap();
    let random = format!("{} ewn agent random", env!("CARGO_BIN_EXE_ply"));
    let tiny = format!("{data}/sokoboru/tiny.in");
    let commands: Vec<Vec<&str>> = vec![
        vec!["mines", "info", &map],
        vec!["ewn", "solo", "check", &sample, &solution],
        vec!["ewn", "solo", "solve", &sample],
        vec!["ewn", "solo", "gen", "--seed", "1", "--count", "3"],
        vec!["npuzzle", "bench", "--first", "1", "--json"],
        vec!["npuzzle", "bench", "--first", "1"],
        vec!["sokoboru", "solve", &tiny],
        vec!["ewn", "host", "--p0", &random, "--p1", &random, "-r", "3"],
        vec![
            "ewn", "host", "--p0", &random, "--p1", &random, "-r", "3", "--json",
        ],
        vec!["completions", "bash"],
        vec!["man"],
    ];
    for args in commands {
        let (code, stderr) = with_closed_stdout(&args, &path_in(&dir, "no-pdb"));
        assert_eq!(code, Some(0), "{args:?}: {stderr}");
        assert!(
            !stderr.contains("panicked") && !stderr.contains("ply: error"),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn completions_and_the_manual_page_are_generated() {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_ply"))
            .args(args)
            .output()
            .unwrap();
        assert!(out.status.success(), "{args:?}: {}", text(&out.stderr));
        text(&out.stdout)
    };
    for (shell, marker) in [
        ("bash", "_ply()"),
        ("zsh", "#compdef ply"),
        ("fish", "complete -c ply"),
    ] {
        let script = run(&["completions", shell]);
        assert!(script.contains(marker), "{shell}");
        assert!(
            script.contains("sokoboru") && script.contains("npuzzle"),
            "{shell}"
        );
    }
    let page = run(&["man"]);
    assert!(
        page.starts_with(".ie") && page.contains(".TH ply 1"),
        "{page}"
    );
    assert!(page.contains("mines"), "the subcommands are listed");
}
