//! `ply`: optimal puzzle solvers, game agents, referees and judges.

#[macro_use]
mod format;
mod budget;
mod demo;
mod ewn;
mod mines;
mod npuzzle;
mod programs;
mod signals;
mod sokoboru;
mod terminal;

use std::io::ErrorKind;
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

use clap::{CommandFactory, Parser, Subcommand};

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
    /// Prints a shell completion script (e.g. `ply completions bash > ~/.local/share/bash-completion/completions/ply`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Prints the manual page in roff (e.g. `ply man > ply.1; man ./ply.1`).
    Man,
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

/// A command called wrongly (a missing or contradictory argument, a value out of range):
/// reported like any error, with exit status 2.
#[derive(Debug)]
pub struct Usage(String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// The error of a command called wrongly, which exits with status 2.
pub fn usage(message: impl Into<String>) -> anyhow::Error {
    Usage(message.into()).into()
}

/// Parses the command line; clap's own errors take ply's one-line form, with status 2.
fn parse() -> Cli {
    match Cli::try_parse_from(ewn::course_spellings(std::env::args_os())) {
        Ok(cli) => cli,
        Err(err) if !err.use_stderr() => err.exit(),
        Err(err) => {
            let rendered = err.render().to_string();
            let first = rendered.lines().next().unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("ply: error: {first} (see --help)");
            std::process::exit(2);
        }
    }
}

fn main() -> ExitCode {
    started();
    let cli = parse();
    let result = match cli.command {
        Command::Demo(args) => demo::run(&args),
        Command::Npuzzle(cmd) => npuzzle::run(cmd),
        Command::Ewn(cmd) => ewn::run(cmd),
        Command::Sokoboru(cmd) => sokoboru::run(cmd),
        Command::Mines(cmd) => mines::run(cmd),
        Command::Completions { shell } => {
            // Rendered to memory first: the generator panics on a failed write.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Cli::command(), "ply", &mut script);
            std::io::Write::write_all(&mut std::io::stdout().lock(), &script).map_err(Into::into)
        }
        Command::Man => clap_mangen::Man::new(Cli::command())
            .render(&mut std::io::stdout())
            .map_err(Into::into),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.is::<Reported>() => ExitCode::FAILURE,
        Err(err) if err.chain().any(|cause| cause.is::<Usage>()) => {
            eprintln!("ply: error: {err:#}");
            ExitCode::from(2)
        }
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
