//! `ply sokoboru`: the solver, the verifier, the generator and the terminal game.

use anyhow::Result;
pub(crate) use args::SokoboruCommand;
pub(crate) use bench::BenchJob;
pub(crate) use ops::solve_file;

mod args;
mod bench;
mod commands;
mod ops;
mod picture;
mod solve;
mod tui;

/// Runs a `ply sokoboru` command.
pub(crate) fn run(cmd: SokoboruCommand) -> Result<()> {
    match cmd {
        SokoboruCommand::Solve(args) => solve::run_solve(&args),
        SokoboruCommand::Verify(args) => commands::run_verify(&args),
        SokoboruCommand::Play(args) => tui::run(&args),
        SokoboruCommand::Gen(args) => commands::run_generate(&args),
        SokoboruCommand::Bench(args) => bench::run(&args),
        SokoboruCommand::Score(args) => commands::run_score(&args),
    }
}
