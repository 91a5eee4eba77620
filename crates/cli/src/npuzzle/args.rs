//! The arguments of `ply npuzzle`.

use crate::batch::BatchArgs;
use crate::budget::BudgetArgs;
use clap::{Args, Subcommand, ValueEnum};
use ply_npuzzle::pdb::Partition;
use std::path::PathBuf;

/// `ply npuzzle` verbs.
#[derive(Subcommand, Debug)]
pub(crate) enum NpuzzleCommand {
    /// Solves each instance optimally and prints the course's report for it.
    Solve(SolveArgs),
    /// Solves an instance set (default: Korf's 100) and prints a table with totals.
    Bench(BenchArgs),
    /// Pattern databases: build them, list them.
    #[command(subcommand)]
    Pdb(PdbCommand),
}

/// Heuristics selectable on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum HeuristicArg {
    /// Sum of Manhattan distances.
    Manhattan,
    /// Manhattan distance plus linear conflicts.
    LinearConflict,
    /// 15-puzzle: the 5-5-5 additive pattern databases (+ reflection).
    Pdb555,
    /// 15-puzzle: the 6-6-3 additive pattern databases (+ reflection).
    Pdb663,
    /// 15-puzzle: the 7-8 additive pattern databases (+ reflection).
    Pdb78,
    /// 24-puzzle: the 6-6-6-6 additive pattern databases (+ reflection).
    Pdb6666,
}

/// How `solve` and `bench` search: heuristic, databases, threads.
#[derive(Args, Debug)]
pub(crate) struct SearchArgs {
    /// The heuristic guiding IDA* [default: the strongest pattern database present for the
    /// board's size, else linear conflict].
    #[arg(long, value_enum)]
    pub heuristic: Option<HeuristicArg>,
    #[command(flatten)]
    pub pdb: PdbArgs,
    /// Threads for IDA* (subtrees of each iteration in parallel; node counts then vary).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=ply_search::MAX_THREADS as i64))]
    pub threads: u16,
    /// The longest move strings the duplicate-pruning machine checks (Taylor and Korf);
    /// 2 prunes only the move back [default: 12 with pattern databases, 2 with Manhattan
    /// distance and linear conflict, whose node counts the course's table gives].
    #[arg(long, value_parser = clap::value_parser!(u16).range(ply_npuzzle::MIN_FSM_DEPTH as i64..=ply_npuzzle::MAX_FSM_DEPTH as i64))]
    pub fsm_depth: Option<u16>,
}

impl SearchArgs {
    /// The duplicate-pruning machine asked for, or the heuristic's own.
    pub(crate) fn fsm(
        &self,
        heuristic: &ply_npuzzle::Heuristic<'_>,
    ) -> &'static ply_npuzzle::MoveFsm {
        self.fsm_depth.map_or_else(
            || heuristic.default_fsm(),
            |depth| ply_npuzzle::MoveFsm::of_depth(usize::from(depth)),
        )
    }
}

/// Arguments of `ply npuzzle solve`.
#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    /// Instance files, one board per line as W*W numbers (`-` reads standard input).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Also print the solution as a move string (U, L, R, D: the direction the blank moves).
    #[arg(long)]
    pub moves: bool,
    /// Also draw each solved board as an SVG picture in FILE: the start with the blank's
    /// path, beside the goal.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

/// Arguments of `ply npuzzle bench`.
#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// An instance set or plain instance file (default: the bundled Korf 100).
    #[arg(value_name = "FILE")]
    pub file: Option<PathBuf>,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Only the first N instances.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), value_name = "N")]
    pub first: Option<u64>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also draw the nodes generated per instance as an SVG bar chart in FILE (log scale).
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub budget: BudgetArgs,
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// `ply npuzzle pdb` verbs.
#[derive(Subcommand, Debug)]
pub(crate) enum PdbCommand {
    /// Builds a partition's pattern databases (all cores) and saves them atomically.
    Build(BuildArgs),
    /// Lists the published partitions and the state of their files.
    List(ListArgs),
}

/// Arguments of `ply npuzzle pdb build`.
#[derive(Args, Debug)]
pub(crate) struct BuildArgs {
    /// The partition to build.
    #[arg(long, value_enum)]
    pub partition: PartitionArg,
    /// Directory of pattern database files [default: $PLY_PDB_DIR, else $XDG_CACHE_HOME/ply,
    /// else ~/.cache/ply].
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
    /// Rebuild even if a sound file is already there.
    #[arg(long)]
    pub force: bool,
}

/// Arguments of `ply npuzzle pdb list`.
#[derive(Args, Debug)]
pub(crate) struct ListArgs {
    /// Directory of pattern database files [default: $PLY_PDB_DIR, else $XDG_CACHE_HOME/ply,
    /// else ~/.cache/ply].
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
}

/// Where databases are looked for and what to do when one is missing.
#[derive(Args, Debug, Clone)]
pub(crate) struct PdbArgs {
    /// Directory of pattern database files [default: $PLY_PDB_DIR, else $XDG_CACHE_HOME/ply,
    /// else ~/.cache/ply].
    #[arg(long, value_name = "DIR")]
    pub pdb_dir: Option<PathBuf>,
    /// Build a needed database that is missing (and save it) instead of failing.
    #[arg(long)]
    pub build_missing: bool,
    /// Use the pattern databases without maximising with their reflection.
    #[arg(long)]
    pub no_reflection: bool,
}

/// The published partitions, as command-line values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum)]
pub(crate) enum PartitionArg {
    /// 15-puzzle: three patterns of 5 tiles (3 x 524,160 entries, about a second to build).
    #[value(name = "5-5-5")]
    P555,
    /// 15-puzzle: 6, 6 and 3 tiles (2 x 5.8 M + 3,360 entries, seconds).
    #[value(name = "6-6-3")]
    P663,
    /// 15-puzzle: tiles 1-7 and 8-15 (57.7 M + 518.9 M entries, minutes).
    #[value(name = "7-8")]
    P78,
    /// 24-puzzle: Korf and Felner's four patterns of 6 tiles (4 x 127.5 M entries).
    #[value(name = "6-6-6-6")]
    P6666,
}

impl PartitionArg {
    /// Every partition, 15-puzzle first, weakest first.
    pub(crate) const ALL: [PartitionArg; 4] = [
        PartitionArg::P555,
        PartitionArg::P663,
        PartitionArg::P78,
        PartitionArg::P6666,
    ];

    /// The puzzle width and the partition's name.
    pub(crate) fn spec(self) -> (usize, &'static str) {
        match self {
            PartitionArg::P555 => (4, "5-5-5"),
            PartitionArg::P663 => (4, "6-6-3"),
            PartitionArg::P78 => (4, "7-8"),
            PartitionArg::P6666 => (5, "6-6-6-6"),
        }
    }

    /// The partition.
    pub(crate) fn partition(self) -> Partition {
        let (width, name) = self.spec();
        Partition::named(width, name).expect("published partition")
    }

    /// The name on the command line.
    pub(crate) fn name(self) -> &'static str {
        self.spec().1
    }

    /// The strongest first, for a width.
    pub(crate) fn strongest_first(width: usize) -> impl Iterator<Item = PartitionArg> {
        PartitionArg::ALL
            .into_iter()
            .rev()
            .filter(move |p| p.spec().0 == width)
    }
}
