//! `ply mines`: maps, the game server, the judge, players and the terminal game.

use anyhow::Result;
pub(crate) use args::MinesCommand;
pub(crate) use bench::BenchJob;
pub(crate) use classic::{BoardArgs, ClassicBenchJob};
pub(crate) use ops::judge_locally;

mod args;
mod bench;
mod classic;
mod classic_tui;
mod commands;
mod ops;
mod picture;
mod tui;

/// Runs a `ply mines` command.
pub(crate) fn run(cmd: MinesCommand) -> Result<()> {
    match cmd {
        MinesCommand::Gen(args) => commands::run_gen(&args),
        MinesCommand::Info(args) => commands::run_info(&args),
        MinesCommand::Judge(args) => commands::run_judge(&args),
        MinesCommand::Server => commands::run_server(),
        MinesCommand::Naive => commands::run_naive(),
        MinesCommand::Probe(args) => commands::run_probe(&args),
        MinesCommand::Play(args) => tui::play(&args),
        MinesCommand::Solve(args) => commands::run_solve(&args),
        MinesCommand::Reference(args) => commands::run_reference(&args),
        MinesCommand::Bench(args) => bench::run(&args),
        MinesCommand::Classic(cmd) => classic::run(cmd),
    }
}
