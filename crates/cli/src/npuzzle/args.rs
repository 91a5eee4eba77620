//! The arguments of `ply npuzzle`.

use crate::batch::BatchArgs;
use crate::budget::BudgetArgs;
use clap::builder::PossibleValue;
use clap::{Args, Subcommand, ValueEnum};
use ply_npuzzle::pdb::{Choice, Published};
use std::path::PathBuf;
use std::sync::LazyLock;

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

/// Heuristics selectable on the command line: ply-npuzzle's [`Choice::named`], the table-free
/// ones and the databases of each published partition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HeuristicArg(pub Choice);

impl ValueEnum for HeuristicArg {
    fn value_variants<'a>() -> &'a [Self] {
        static VARIANTS: LazyLock<Vec<HeuristicArg>> =
            LazyLock::new(|| Choice::named().map(HeuristicArg).collect());
        &VARIANTS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        let value = PossibleValue::new(self.0.name());
        Some(match self.0 {
            Choice::Manhattan => value.help("Sum of Manhattan distances"),
            Choice::LinearConflict => value.help("Manhattan distance plus linear conflicts"),
            Choice::Pdb(p) => {
                let tiles = p.width() * p.width() - 1;
                value.help(format!(
                    "{tiles}-puzzle: the {} additive pattern databases (+ reflection)",
                    p.name()
                ))
            }
            // Not a value: the default, without `--heuristic`.
            Choice::Strongest => value.hide(true),
        })
    }
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
    /// A*+IDA* (Bu and Korf): A* first stores up to this many states over the top of the
    /// tree (about 60 bytes each, at most 100,000,000), then IDA* searches below its open
    /// list, lowest `f` and then lowest `h` first; 0 runs IDA* alone. Where the goal falls
    /// in that order decides the last iteration, so against IDA* alone it can save most of
    /// the nodes or cost several times more.
    #[arg(long, default_value_t = 0, value_name = "STATES", value_parser = clap::value_parser!(u32).range(0..=ply_npuzzle::MAX_TOP_STATES as i64))]
    pub astar_states: u32,
}

impl SearchArgs {
    /// The search asked for: the duplicate-pruning machine and the A* states.
    pub(crate) fn plan(&self, heuristic: &ply_npuzzle::Heuristic<'_>) -> ply_npuzzle::Plan {
        ply_npuzzle::Plan {
            fsm: self.fsm(heuristic),
            top_states: self.astar_states as usize,
        }
    }

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
    /// Print one JSON record a line instead of the course's report (the words of Python's
    /// `npuzzle.Solution`: cost, moves, proven, lower_bound, ...).
    #[arg(long, conflicts_with = "moves")]
    pub json: bool,
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

/// A published partition as a command-line value: ply-npuzzle's [`Published`], named and
/// described as the library names and describes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PartitionArg(pub Published);

impl ValueEnum for PartitionArg {
    fn value_variants<'a>() -> &'a [Self] {
        static VARIANTS: [PartitionArg; Published::ALL.len()] = {
            let mut all = [PartitionArg(Published::P555); Published::ALL.len()];
            let mut i = 0;
            while i < all.len() {
                all[i] = PartitionArg(Published::ALL[i]);
                i += 1;
            }
            all
        };
        &VARIANTS
    }

    fn to_possible_value(&self) -> Option<PossibleValue> {
        Some(PossibleValue::new(self.0.name()).help(self.0.summary()))
    }
}
