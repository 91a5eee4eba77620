//! The arguments of `ply sokoboru`.

use crate::batch::BatchArgs;
use crate::budget::BudgetArgs;
use anyhow::Result;
use clap::builder::RangedU64ValueParser;
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::time::Duration;

/// `ply sokoboru` verbs.
#[derive(Subcommand, Debug)]
pub(crate) enum SokoboruCommand {
    /// Solves every case of a puzzle file and prints the penalty and moves of each.
    Solve(SolveArgs),
    /// Validates a puzzle file, a solution file, or replays solutions against puzzles.
    Verify(VerifyArgs),
    /// Plays a puzzle file in the terminal, recording solutions.
    Play(PlayArgs),
    /// Generates random puzzles with their optimal penalty (puzzles on stdout, optima on stderr).
    Gen(GenArgs),
    /// Solves every case of puzzle files optimally, one case after another, each with the
    /// same budget, and tabulates them (a batch: --shard, --log, --emit-slurm).
    Bench(BenchArgs),
    /// Scores a solution file as the course does: nothing if one case is not solved
    /// correctly, else 0.1 + 0.1 * K0/K a case (K0 the optimum, K the answer's penalty).
    Score(ScoreArgs),
}

/// Arguments of `ply sokoboru score`.
#[derive(Args, Debug)]
pub(crate) struct ScoreArgs {
    /// The puzzle file.
    #[arg(short = 'i', long = "puzzles", value_name = "PUZZLES")]
    pub input: PathBuf,
    /// The solution file to score.
    #[arg(short = 'o', long = "solutions", value_name = "SOLUTIONS")]
    pub output: PathBuf,
    /// The optimal penalties (or the best known ones), one per case, separated by blanks or
    /// lines (`#` starts a comment).
    #[arg(long, value_name = "FILE")]
    pub optima: PathBuf,
    /// The points the whole file is worth (the course: 1 for tiny.in, 2 for small.in and
    /// medium.in, 3 for large.in); its score is this share of them.
    #[arg(long, default_value_t = 1.0)]
    pub points: f64,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `ply sokoboru bench`.
#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Puzzle files; their cases, file by file, are the bench's items.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Threads of each case's search.
    #[arg(long, default_value_t = 2,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS))]
    pub threads: usize,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Arguments of `ply sokoboru solve`.
#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    /// The puzzle file (`-` or nothing: standard input).
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,
    /// Worker threads: the cases run in parallel, and a thread whose cases are done helps the
    /// searches still running (the course allowed 2).
    #[arg(long, default_value_t = 2,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=MAX_THREADS))]
    pub threads: usize,
    /// Report each proven case on stderr: penalty, moves, states expanded and generated,
    /// seconds.
    #[arg(long)]
    pub stats: bool,
    /// Print one JSON record a case instead of the solution file (the words of Python's
    /// `sokoboru.Solution`: cost, moves, proven, lower_bound, ...).
    #[arg(long)]
    pub json: bool,
    /// Also draw each case as an SVG picture in FILE: its start with the player's walk,
    /// beside the position its answer ends in.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub budget: BudgetArgs,
    /// Stop searching this many seconds after the start, `none` for never. The default keeps
    /// within the course's 60 s per file, with time to print and exit. Every case first gets
    /// an answer, before any case is searched further; then each case gets an even share of
    /// the time left when it starts, and the cases that run out get a second try with the
    /// time the others left over, part of it spent looking for cheaper solutions. A case
    /// still unproven then prints the best solution found, with a note on stderr; the exit
    /// status is 0 when every case has an answer. Each case is printed as soon as it and the
    /// cases before it are done.
    #[arg(long, value_name = "SECS", default_value = "58", value_parser = parse_deadline,
          allow_negative_numbers = true)]
    pub deadline: Deadline,
}

/// The most threads `solve` takes: ply's one limit ([`ply_search::MAX_THREADS`]).
const MAX_THREADS: u64 = ply_search::MAX_THREADS as u64;

/// The `--deadline` of `ply sokoboru solve` as given: seconds after the start, or `none`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Deadline(Option<f64>);

impl Deadline {
    /// How long after the start, if at all, checked by ply-search's rule for a deadline
    /// (zero or more) in its shared words.
    ///
    /// # Errors
    /// A usage error naming `--deadline`.
    pub(crate) fn duration(self) -> anyhow::Result<Option<Duration>> {
        self.0
            .map(|secs| ply_search::SecondsRule::Budget.named("--deadline", secs))
            .transpose()
            .map_err(|bad| crate::outcome::usage(bad.to_string()))
    }
}

fn parse_deadline(text: &str) -> Result<Deadline, String> {
    if text == "none" {
        return Ok(Deadline(None));
    }
    let secs: f64 = text.parse().map_err(|_| {
        format!(
            "'{}' is neither a number of seconds nor `none`",
            excerpt(text)
        )
    })?;
    Ok(Deadline(Some(secs)))
}

use ply_search::messages::excerpt;

/// Arguments of `ply sokoboru verify`.
#[derive(Args, Debug)]
pub(crate) struct VerifyArgs {
    /// The puzzle file (`-i`, the course verifier's spelling).
    #[arg(short = 'i', long = "puzzles", value_name = "PUZZLES")]
    pub input: Option<PathBuf>,
    /// The solution file to check (`-o`, the course verifier's spelling).
    #[arg(short = 'o', long = "solutions", value_name = "SOLUTIONS")]
    pub output: Option<PathBuf>,
}

/// Arguments of `ply sokoboru play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// The puzzle file.
    #[arg(short = 'i', long = "puzzles", value_name = "PUZZLES")]
    pub input: PathBuf,
    /// Record solutions in this file (the solution format, the true penalty of each solved
    /// stage).
    #[arg(short = 'o', long = "record", value_name = "SOLUTIONS")]
    pub output: Option<PathBuf>,
    /// The stage to start from (from 1).
    #[arg(short = 's', long = "stage", value_name = "N", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..))]
    pub stage: u64,
    /// Show the solver's next optimal move.
    #[arg(long)]
    pub hint: bool,
}

/// Arguments of `ply sokoboru gen`.
#[derive(Args, Debug)]
pub(crate) struct GenArgs {
    /// Random seed; the same seed and options give the same puzzles.
    #[arg(long)]
    pub seed: u64,
    /// How many puzzles.
    #[arg(long)]
    pub count: usize,
    /// Board size as ROWSxCOLS (n*m <= 50).
    #[arg(long, default_value = "5x8", value_parser = parse_size)]
    pub size: (usize, usize),
    /// Balls (and as many empty boxes) per board.
    #[arg(long, default_value_t = 5)]
    pub balls: usize,
    /// Keep only puzzles whose optimal penalty is at least this.
    #[arg(long, default_value_t = 0)]
    pub min_penalty: u32,
    /// The chance that a cell is a wall, from 0 up to (not including) 1.
    #[arg(long, default_value_t = 0.2, value_parser = parse_chance)]
    pub wall_density: f64,
    /// Drop boards whose search generates more states than this.
    #[arg(long, default_value_t = 5_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub max_nodes: u64,
    /// Give up after this many boards drawn (a request few boards meet, or none, would
    /// otherwise run forever).
    #[arg(long, default_value_t = 1_000)]
    pub max_draws: u64,
    /// Keep boards with any solution found within the budget, not only those proven optimal
    /// (hard boards for `solve --deadline`); their best known penalty goes to stderr.
    #[arg(long, conflicts_with = "backward")]
    pub answered: bool,
    /// Boards solvable by construction instead: a solved layout played backwards (no solver
    /// decides what is kept, so none is biased to what ply finds easy); stderr gives the
    /// penalty of the construction's solution, an upper bound far above the optimum.
    #[arg(long, conflicts_with_all = ["min_penalty", "max_nodes"])]
    pub backward: bool,
    /// With --backward: boxes already full at the start, as the course's files have.
    #[arg(long, default_value_t = 0, requires = "backward")]
    pub full: usize,
    /// With --backward: pushes taken back from the solved layout (more scatter the objects
    /// further).
    #[arg(long, default_value_t = 200, requires = "backward",
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=100_000))]
    pub pushes: usize,
}

fn parse_chance(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(p) if (0.0..1.0).contains(&p) => Ok(p),
        _ => Err(format!(
            "'{}' is not a chance from 0 up to (not including) 1",
            excerpt(text)
        )),
    }
}

fn parse_size(text: &str) -> Result<(usize, usize), String> {
    let wrong = || format!("expected ROWSxCOLS, found '{}'", excerpt(text));
    let (r, c) = text.split_once(['x', 'X']).ok_or_else(wrong)?;
    match (r.trim().parse(), c.trim().parse()) {
        (Ok(r), Ok(c)) => Ok((r, c)),
        _ => Err(wrong()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_value_is_quoted_in_part() {
        let long = "x".repeat(1000);
        let message = parse_deadline(&long).unwrap_err();
        assert!(
            message.contains(&format!(
                "'{}...'",
                "x".repeat(ply_search::messages::EXCERPT_CHARS)
            )),
            "{message}"
        );
        assert!(message.len() < 100, "{message}");
        assert_eq!(excerpt("é".repeat(41).as_str()), "é".repeat(40) + "...");
        assert_eq!(excerpt("5"), "5");
    }

    #[test]
    fn deadlines_are_seconds_from_zero_or_none() {
        let duration = |text| parse_deadline(text).unwrap().duration();
        assert!(duration("none").unwrap().is_none());
        assert_eq!(duration("1.5").unwrap(), Some(Duration::from_millis(1500)));
        let said = |text| duration(text).unwrap_err().to_string();
        assert_eq!(said("-1"), "--deadline -1 is negative");
        assert_eq!(said("NaN"), "--deadline NaN is not a number");
        assert!(said("1e300").contains("more than a duration can hold"));
        assert!(parse_deadline("soon").is_err());
    }
}
