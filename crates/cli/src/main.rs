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
mod record;
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
    /// Minesweeper: the contest at scale (maps, the game server, the judge and players) and
    /// classic Minesweeper (`mines classic play | solve | bench`: the standard levels, a
    /// seeded game solved move by move, the solver's win rate).
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
            let tip = missing_tip(&err, &args);
            errln!("ply: error: {}", one_line(&rendered, &args, tip));
            std::process::exit(2)
        }
    }
}

/// The subcommands named on the command line, from `ply` down (`ply npuzzle solve`): the
/// words that name a subcommand of the one before, options skipped, up to the first word
/// that does not (an unknown subcommand, or the arguments of the last), so that a misspelt
/// subcommand (`ply mines clasic solve`) does not send the user to the help of a word after
/// it (`ply mines solve`). A leading `help` (`ply help mines clasic`) is clap's own
/// subcommand and is passed over.
fn command_path(args: &[std::ffi::OsString]) -> String {
    let (_, path) = named_commands(args);
    let mut names = vec!["ply".to_string()];
    names.extend(path);
    names.join(" ")
}

/// The deepest command the words of `args` name ([`command_path`]), and the names of the
/// subcommands that lead to it.
fn named_commands(args: &[std::ffi::OsString]) -> (clap::Command, Vec<String>) {
    let mut command = Cli::command();
    let mut path = Vec::new();
    let mut words = args.iter().skip(1).peekable();
    if words.peek().is_some_and(|w| w.to_str() == Some("help")) {
        words.next();
    }
    for arg in words {
        let Some(arg) = arg.to_str() else {
            break;
        };
        if arg.starts_with('-') {
            continue;
        }
        let Some(sub) = command.find_subcommand(arg).cloned() else {
            break;
        };
        path.push(sub.get_name().to_string());
        command = sub;
    }
    (command, path)
}

/// The subcommand of the command `args` name that `word` most likely misspells, for the
/// errors of clap that come without one (`ply help mines clasic`): the name nearest to it by
/// edit distance, if at most two letters or a third of the longer of the two differ.
fn similar_subcommand(args: &[std::ffi::OsString], word: &str) -> Option<String> {
    let (command, _) = named_commands(args);
    command
        .get_subcommands()
        .map(|sub| sub.get_name().to_string())
        .map(|name| (edit_distance(word, &name), name))
        .filter(|(distance, name)| {
            *distance <= (word.chars().count().max(name.chars().count()) / 3).max(2)
        })
        .min()
        .map(|(_, name)| name)
}

/// The Levenshtein distance between `a` and `b`: the fewest characters inserted, deleted or
/// replaced that turn one into the other.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = (diagonal + usize::from(ca != cb))
                .min(above + 1)
                .min(row[j] + 1);
            diagonal = above;
        }
    }
    row[b.len()]
}

/// A "did you mean" for an unknown subcommand whose error has none (clap gives one, except
/// after its `help` subcommand).
fn missing_tip(err: &clap::Error, args: &[std::ffi::OsString]) -> Option<String> {
    use clap::error::{ContextKind, ContextValue};
    if err.kind() != ErrorKind::InvalidSubcommand
        || err.get(ContextKind::SuggestedSubcommand).is_some()
    {
        return None;
    }
    let Some(ContextValue::String(word)) = err.get(ContextKind::InvalidSubcommand) else {
        return None;
    };
    similar_subcommand(args, word).map(|name| format!("tip: a similar subcommand exists: '{name}'"))
}

/// clap's rendered error as one line: the message with its context (the missing arguments,
/// the possible values, a "did you mean" tip), then where to read more.
fn one_line(rendered: &str, args: &[std::ffi::OsString], tip: Option<String>) -> String {
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
    if let Some(tip) = tip {
        line.push_str("; ");
        line.push_str(&tip);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("clasic", "classic"), 1);
        assert_eq!(edit_distance("sovle", "solve"), 2);
        assert_eq!(edit_distance("", "gen"), 3);
        assert_eq!(edit_distance("mines", "mines"), 0);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn the_help_named_is_the_last_subcommand_before_an_unknown_word() {
        let args = |words: &[&str]| -> Vec<std::ffi::OsString> {
            std::iter::once("ply")
                .chain(words.iter().copied())
                .map(Into::into)
                .collect()
        };
        assert_eq!(
            command_path(&args(&["mines", "clasic", "solve"])),
            "ply mines"
        );
        assert_eq!(
            command_path(&args(&["help", "mines", "classic", "bench"])),
            "ply mines classic bench"
        );
        assert_eq!(
            command_path(&args(&["npuzzle", "solve", "--heuristic", "pdb", "solve"])),
            "ply npuzzle solve"
        );
        assert_eq!(
            similar_subcommand(&args(&["help", "mines", "clasic"]), "clasic").as_deref(),
            Some("classic")
        );
        assert_eq!(similar_subcommand(&args(&["mines"]), "zzzzzz"), None);
    }
}
