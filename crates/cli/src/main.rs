//! `ply`: optimal puzzle solvers, game agents, referees and judges.

mod commands;
mod format;

use std::io::ErrorKind;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// ply: solves puzzles optimally and plays games well.
#[derive(Parser, Debug)]
#[command(name = "ply", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// The systems.
#[derive(Subcommand, Debug)]
enum Command {
    /// Runs every available system on a bundled instance and prints a summary.
    Demo(commands::demo::DemoArgs),
    /// Sliding-tile puzzles (8, 15, 24): optimal IDA* solving and benchmarks.
    #[command(subcommand)]
    Npuzzle(commands::npuzzle::NpuzzleCommand),
}

/// A failure that has already been reported on stderr and only sets the exit code.
#[derive(Debug)]
pub struct Reported;

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("failure reported above")
    }
}

impl std::error::Error for Reported {}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Demo(args) => commands::demo::run(&args),
        Command::Npuzzle(cmd) => commands::npuzzle::run(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.is::<Reported>() => ExitCode::FAILURE,
        Err(err)
            if err
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| e.kind() == ErrorKind::BrokenPipe) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("ply: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
