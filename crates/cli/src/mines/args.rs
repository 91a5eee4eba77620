//! The arguments of `ply mines`.

use crate::batch::BatchArgs;
use clap::{Args, Subcommand};
use std::path::PathBuf;

/// `ply mines` verbs.
#[derive(Subcommand, Debug)]
pub(crate) enum MinesCommand {
    /// Writes a random map with exactly K mines.
    Gen(GenArgs),
    /// Checks a map file and reports its size, mines and largest opening.
    Info(InfoArgs),
    /// Judges a player: starts a server and the player, enforces the time limit, scores.
    Judge(JudgeArgs),
    /// The game server (started by a judge, ply's or the contest's).
    Server,
    /// The contest's naive player: clicks every cell on one channel (run under a judge).
    Naive,
    /// Benchmark player: click_do_not_expand round trips on one channel (run under a judge).
    Probe(ProbeArgs),
    /// Plays a map by hand in a terminal UI (under a judge, or with --local).
    Play(PlayArgs),
    /// The parallel solver: logic first, least-risk guesses, one channel per thread (run
    /// under a judge).
    Solve(SolveArgs),
    /// The contest's reference solution, re-implemented for comparison (run under a judge).
    Reference(ReferenceArgs),
    /// Judges a player on each of several maps, one after another, and tabulates the scores
    /// (a batch: --shard, --log, --emit-slurm).
    Bench(BenchArgs),
    /// Classic Minesweeper (the standard levels, first-click rules): play, solve a seeded
    /// game, or measure the solver's win rate.
    #[command(subcommand)]
    Classic(super::classic::ClassicCommand),
}

/// Arguments of `ply mines bench`.
#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// The player's command line (run with `sh -c` in its own process group, once a map).
    pub player: String,
    /// The map files; each is an item of the batch.
    #[arg(required = true, value_name = "MAP")]
    pub maps: Vec<PathBuf>,
    /// The score's constant A (the contest's tests use 0 or 8).
    #[arg(long, default_value_t = 0)]
    pub constant_a: i64,
    /// The time limit of each map in seconds (default: the contest's limit for the map's
    /// size and A).
    #[arg(long, conflicts_with = "no_time_limit")]
    pub time_limit: Option<f64>,
    /// Wait for the player however long it takes.
    #[arg(long)]
    pub no_time_limit: bool,
    /// The server's command line (default: this program's `mines server`).
    #[arg(long)]
    pub server: Option<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Arguments of `ply mines solve`.
#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    /// Worker threads, one channel each (default: half the cores, at least 1 and at most 8:
    /// each busy channel also keeps a server thread spinning on a core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Print the solver's figures as JSON on stderr at the end.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `ply mines reference`.
#[derive(Args, Debug)]
pub(crate) struct ReferenceArgs {
    /// Worker threads, one channel each (the contest's reference used 8).
    #[arg(long, default_value_t = 8)]
    pub threads: usize,
    /// Seed of the random guesses.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of `ply mines gen`.
#[derive(Args, Debug)]
pub(crate) struct GenArgs {
    /// Board side N: a power of two from 16 to 65536.
    #[arg(long)]
    pub size: u64,
    /// Number of mines K (default N*N/8).
    #[arg(long)]
    pub mines: Option<u64>,
    /// Random seed: the same (N, K, seed) always gives the same map.
    #[arg(long)]
    pub seed: u64,
    /// The map file to write.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: PathBuf,
    /// Replace FILE if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `ply mines info`.
#[derive(Args, Debug)]
pub(crate) struct InfoArgs {
    /// The map file.
    pub file: PathBuf,
    /// Skip the largest-opening scan (slow on the largest maps).
    #[arg(long)]
    pub no_opening: bool,
}

/// Arguments of `ply mines judge`, in the contest's positional order.
#[derive(Args, Debug)]
pub(crate) struct JudgeArgs {
    /// The player's command line (run with `sh -c` in its own process group).
    pub player: String,
    /// The map file.
    pub map: PathBuf,
    /// The score's constant A (the contest's tests use 0 or 8).
    #[arg(value_name = "A")]
    pub a: Option<i64>,
    /// Wall-clock limit in seconds, from the start of the server and the player (default:
    /// the contest's limit for the map's size and A).
    #[arg(value_name = "TIME_LIMIT")]
    pub time_limit_pos: Option<f64>,
    /// The server's command line (default: this program's `mines server`).
    #[arg(value_name = "SERVER")]
    pub server_pos: Option<String>,
    /// The constant A (overrides the positional one).
    #[arg(long)]
    pub constant_a: Option<i64>,
    /// The time limit in seconds (overrides the positional one).
    #[arg(long, conflicts_with = "no_time_limit")]
    pub time_limit: Option<f64>,
    /// Wait for the player however long it takes.
    #[arg(long)]
    pub no_time_limit: bool,
    /// The server's command line (overrides the positional one).
    #[arg(long)]
    pub server: Option<String>,
    /// Print the result as one JSON object.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `ply mines probe`.
#[derive(Args, Debug)]
pub(crate) struct ProbeArgs {
    /// Round trips to make.
    #[arg(long, default_value_t = 10_000_000)]
    pub clicks: u64,
    /// Visit cells this far apart (row-major, wrapping).
    #[arg(long, default_value_t = 1)]
    pub stride: u64,
}

/// Arguments of `ply mines play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// Start ply's own judge and server on this map, with the game as the player.
    #[arg(long, value_name = "MAP")]
    pub local: Option<PathBuf>,
    /// The constant A for the local judge's score.
    #[arg(long, default_value_t = 8)]
    pub constant_a: i64,
}
