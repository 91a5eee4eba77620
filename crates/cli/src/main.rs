//! `ply`: optimal puzzle solvers, game agents, referees and judges.

#[macro_use]
mod format;
mod budget;
mod demo;
mod ewn;
mod mines;
mod npuzzle;
mod signals;
mod sokoboru;
mod terminal;

use std::io::ErrorKind;
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

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
    Demo(demo::DemoArgs),
    /// Sliding-tile puzzles (8, 15, 24): optimal IDA* solving and benchmarks.
    #[command(subcommand)]
    Npuzzle(npuzzle::NpuzzleCommand),
    /// EWN (Einstein wuerfelt nicht!): the single-player puzzle and the two-player duel.
    #[command(subcommand)]
    Ewn(ewn::EwnCommand),
    /// Sokoboru (Sokoban with sliding balls): optimal solver and verifier.
    #[command(subcommand)]
    Sokoboru(sokoboru::SokoboruCommand),
    /// Minesweeper at scale: maps, the game server, the judge and players.
    #[command(subcommand)]
    Mines(mines::MinesCommand),
}

/// When the process started (as near as `main` can tell).
static STARTED: OnceLock<Instant> = OnceLock::new();

/// The instant `main` started; timings "since process start" count from here.
pub fn started() -> Instant {
    *STARTED.get_or_init(Instant::now)
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
    started();
    let cli = Cli::parse_from(ewn::course_spellings(std::env::args()));
    let result = match cli.command {
        Command::Demo(args) => demo::run(&args),
        Command::Npuzzle(cmd) => npuzzle::run(cmd),
        Command::Ewn(cmd) => ewn::run(cmd),
        Command::Sokoboru(cmd) => sokoboru::run(cmd),
        Command::Mines(cmd) => mines::run(cmd),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.is::<Reported>() => ExitCode::FAILURE,
        // A reader that closed the pipe (`ply ... | head`) wants no more: end quietly,
        // whatever context the write's error was given on its way up.
        Err(err)
            if err.chain().any(|cause| {
                let io = cause
                    .downcast_ref::<std::io::Error>()
                    .map(std::io::Error::kind);
                let json = cause
                    .downcast_ref::<serde_json::Error>()
                    .and_then(serde_json::Error::io_error_kind);
                io.or(json) == Some(ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("ply: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
