//! `ply ewn`: the single-player puzzle (`solo`) and the two-player duel.

mod args;
mod duel;
mod openings;
mod ops;
mod picture;
mod solo;
mod tournament;
mod tui;

use anyhow::Result;

pub(crate) use args::EwnCommand;
pub(crate) use openings::OpeningsJob;
pub(crate) use ops::{course_spellings, demo_deep, demo_duel, solve_checked};
pub(crate) use solo::SoloBenchJob;
pub(crate) use tournament::TournamentJob;

use args::{OpeningsCommand, SoloCommand};

/// Runs a `ply ewn` command.
pub(crate) fn run(cmd: EwnCommand) -> Result<()> {
    match cmd {
        EwnCommand::Solo(SoloCommand::Solve(args)) => solo::run_solve(&args),
        EwnCommand::Solo(SoloCommand::Check(args)) => solo::run_check(&args),
        EwnCommand::Solo(SoloCommand::View(args)) => tui::view::run(&args),
        EwnCommand::Solo(SoloCommand::Gen(args)) => solo::run_generate(&args),
        EwnCommand::Solo(SoloCommand::Bench(args)) => solo::run_bench(&args),
        EwnCommand::Host(args) => duel::run_host(&args),
        EwnCommand::Tournament(args) => tournament::run(&args),
        EwnCommand::Agent(args) => duel::run_agent(&args),
        EwnCommand::Play(args) => tui::play::run(&args),
        EwnCommand::Replay(args) => tui::replay::run(&args),
        EwnCommand::Playouts(args) => duel::run_playouts(&args),
        EwnCommand::Openings(OpeningsCommand::Prove(args)) => openings::run_prove(&args),
        EwnCommand::Openings(OpeningsCommand::Verify(args)) => openings::run_verify(&args),
        EwnCommand::Openings(OpeningsCommand::Summary(args)) => openings::run_summary(&args),
    }
}
