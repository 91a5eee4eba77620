//! The default duel agent proves over the known dice, also while the opponent thinks, and
//! stays within the protocol and its move time.

mod common;

use common::{ply, text};

fn agent(kind: &str) -> String {
    format!("{} ewn agent {kind}", env!("CARGO_BIN_EXE_ply"))
}

#[test]
fn the_default_agent_ponders_and_answers_in_time() {
    // The opponent thinks 0.3 s a move: the default agent proves during that time, and still
    // keeps to its own 0.3 s. The host's limit is far above both, so that only an agent that
    // lost track of its clock (pondering into its own move) forfeits, not a loaded machine.
    let p0 = agent("--move-time 0.3 --verbose");
    let p1 = agent("alphabeta --move-time 0.3");
    let out = ply(
        &[
            "ewn",
            "host",
            "--p0",
            &p0,
            "--p1",
            &p1,
            "-r",
            "4",
            "--move-time",
            "30",
            "--json",
            "--seed",
            "9",
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["games"], 4);
    for player in 0..2 {
        let forfeits = report["players"][player]["forfeits"].as_array().unwrap();
        assert!(forfeits.is_empty(), "{report}");
    }
    // Every game ends in a position the agent's proofs decide: its verbose lines say so.
    let stderr = text(&out.stderr);
    assert!(stderr.contains("proven"), "{stderr}");
}

#[test]
fn the_default_agent_can_keep_to_its_own_time() {
    let setup = "012345012345343242404031241152042f";
    let out = ply(
        &["ewn", "agent", "--move-time", "0.05", "--no-ponder"],
        setup,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(out.stdout.len(), 2, "{:?}", text(&out.stdout));
}
