//! `ply`: optimal puzzle solvers, game agents, referees and judges.

#[macro_use]
mod format;
mod batch;
mod budget;
mod demo;
mod ewn;
mod manual;
mod merge;
mod mines;
mod npuzzle;
mod outcome;
mod picture;
mod programs;
mod signals;
mod sokoboru;
mod studio;
mod terminal;

use std::process::ExitCode;

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

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
    /// Sokoboru (Sokoban with sliding balls): penalty-optimal solver, verifier, terminal game
    /// with hints, generator and benchmarks.
    #[command(subcommand)]
    Sokoboru(sokoboru::SokoboruCommand),
    /// Minesweeper at scale: maps, the game server, the judge and players.
    #[command(subcommand)]
    Mines(mines::MinesCommand),
    /// Puts the logs of a sharded batch (`--shard K/N --log FILE`) together into the report
    /// the whole run prints: the same table, or JSON with --json.
    Merge(merge::MergeArgs),
    /// Serves every system in the browser (a local web application; Ctrl-C stops it).
    Studio(studio::StudioArgs),
    /// Prints a shell completion script (e.g. `ply completions bash > ~/.local/share/bash-completion/completions/ply`).
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Writes the manual: a roff page per command into DIR (`ply man man1; man -l
    /// man1/ply-npuzzle-solve.1`), or without DIR the top page, ply(1), on stdout.
    Man {
        /// The directory for the pages (created if missing; pages there are replaced).
        #[arg(value_name = "DIR")]
        dir: Option<std::path::PathBuf>,
    },
}

/// `cmd` and its subcommands with every value of an argument allowed to be a negative
/// number, so that `--budget -1` reaches the command's own check ("is negative") instead of
/// clap's "unexpected argument '-1'" and its advice to write `-- -1`.
fn negative_values(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|arg| {
        if arg.get_num_args().is_some_and(|n| n.takes_values()) || arg.get_action().takes_values() {
            arg.allow_negative_numbers(true)
        } else {
            arg
        }
    })
    .mut_subcommands(negative_values)
}

/// The command-line interface as ply parses it ([`negative_values`]).
fn command() -> clap::Command {
    negative_values(Cli::command())
}

/// Parses the command line; clap's own errors take ply's one-line form, with status 2.
fn parse() -> Cli {
    let args: Vec<std::ffi::OsString> = ewn::course_spellings(std::env::args_os());
    let parsed = command()
        .try_get_matches_from(&args)
        .and_then(|matches| Cli::from_arg_matches(&matches));
    let err = match parsed {
        Ok(cli) => return cli,
        Err(err) => err,
    };
    let rendered = err.render().to_string();
    match err.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let written =
                std::io::Write::write_all(&mut std::io::stdout().lock(), rendered.as_bytes())
                    .and_then(|()| std::io::Write::flush(&mut std::io::stdout()));
            match written {
                Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                    errln!("ply: error: writing to standard output: {e}");
                    std::process::exit(1)
                }
                _ => std::process::exit(0),
            }
        }
        // `ply` or `ply npuzzle` alone: the help, which lists the subcommands, as a usage error.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            errprint!("{rendered}");
            std::process::exit(2)
        }
        _ => {
            errln!("ply: error: {}", one_line(&rendered, &args));
            std::process::exit(2)
        }
    }
}

/// The subcommands named on the command line, from `ply` down (`ply npuzzle solve`).
fn command_path(args: &[std::ffi::OsString]) -> String {
    let mut command = Cli::command();
    let mut path = vec!["ply".to_string()];
    for arg in args.iter().skip(1).filter_map(|arg| arg.to_str()) {
        let Some(sub) = command.find_subcommand(arg).cloned() else {
            continue;
        };
        path.push(sub.get_name().to_string());
        command = sub;
    }
    path.join(" ")
}

/// clap's rendered error as one line: the message with its context (the missing arguments,
/// the possible values, a "did you mean" tip), then where to read more.
fn one_line(rendered: &str, args: &[std::ffi::OsString]) -> String {
    let message = rendered
        .split_once("\nUsage:")
        .map_or(rendered, |(message, _)| message);
    let mut line = String::new();
    for part in message.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let part = part.strip_prefix("error: ").unwrap_or(part);
        if part.starts_with("For more information") {
            continue;
        }
        if !line.is_empty() {
            line.push_str(if part.starts_with("tip:") { "; " } else { " " });
        }
        line.push_str(part);
    }
    if line.is_empty() {
        line.push_str("invalid arguments");
    }
    line.push_str(&format!(" (see {} --help)", command_path(args)));
    line
}

fn main() -> ExitCode {
    outcome::started();
    let cli = parse();
    let result = match cli.command {
        Command::Demo(args) => demo::run(&args),
        Command::Npuzzle(cmd) => npuzzle::run(cmd),
        Command::Ewn(cmd) => ewn::run(cmd),
        Command::Sokoboru(cmd) => sokoboru::run(cmd),
        Command::Mines(cmd) => mines::run(cmd),
        Command::Merge(args) => merge::run(&args),
        Command::Studio(args) => studio::run(&args),
        Command::Completions { shell } => {
            // Rendered to memory first: the generator panics on a failed write.
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut command(), "ply", &mut script);
            std::io::Write::write_all(&mut std::io::stdout().lock(), &script).map_err(Into::into)
        }
        Command::Man { dir } => manual::run(command(), dir.as_deref()),
    };
    outcome::exit_code(result)
}
