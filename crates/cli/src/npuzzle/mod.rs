//! `ply npuzzle`: optimal sliding-tile solving, benchmarks and pattern databases.

use anyhow::Result;
pub(crate) use args::NpuzzleCommand;
pub(crate) use commands::BenchJob;
pub(crate) use ops::solve_checked;

mod args;
mod commands;
mod ops;
mod picture;

/// Runs a `ply npuzzle` command.
pub(crate) fn run(cmd: NpuzzleCommand) -> Result<()> {
    match cmd {
        NpuzzleCommand::Solve(args) => commands::run_solve(&args),
        NpuzzleCommand::Bench(args) => commands::run_bench(&args),
        NpuzzleCommand::Pdb(cmd) => commands::run_pdb(cmd),
    }
}
