//! The arguments of `ply ewn`: the single-player puzzle and the two-player duel.

use crate::batch::BatchArgs;
use crate::budget::BudgetArgs;
use clap::{Args, Subcommand};
use ply_ewn::duel::agents::MctsAgentConfig;
use ply_ewn::solo::DICE;
use std::path::PathBuf;

/// `ply ewn` systems.
#[derive(Subcommand, Debug)]
pub(crate) enum EwnCommand {
    /// Single-player EWN on a 10x10 board with a fixed dice sequence, solved optimally.
    #[command(subcommand)]
    Solo(SoloCommand),
    /// Referees duel games between agents (or humans) on the 6x7 board.
    Host(HostArgs),
    /// Runs a tournament of duel agents: round robin or gauntlet, Elo, or an SPRT.
    Tournament(TournamentArgs),
    /// Runs a duel agent on stdin/stdout, speaking the course's protocol.
    Agent(AgentArgs),
    /// Plays the duel in the terminal against an agent or another human.
    Play(PlayArgs),
    /// Steps through a logged duel game in the terminal.
    Replay(ReplayArgs),
    /// Measures the duel engine: random playouts per second.
    Playouts(PlayoutArgs),
    /// Proves who wins the duel's openings (the dice are known: every start is a forced win).
    #[command(subcommand)]
    Openings(OpeningsCommand),
}

/// `ply ewn openings` verbs.
#[derive(Subcommand, Debug)]
pub(crate) enum OpeningsCommand {
    /// Proves who wins each start of the dice lines and writes one JSON line per start: the
    /// winner ("red", "blue", or null when the budget ran out), the winning line, nodes and
    /// seconds. Every winning line is replayed against the rules, and a sample is proven
    /// again by a second prover. The lines go to standard output and the summary to
    /// standard error; with --log, the lines go to the batch log (a header, then one line
    /// per start) and the summary to standard output. A batch: --shard, --resume and
    /// --emit-slurm run it in parts, which `ply merge` puts together.
    Prove(OpeningsProveArgs),
    /// Checks a log of `prove`: replays every winning line and proves its claims again with
    /// the second prover (every one of up to 1,000, else a sample); any disagreement is an
    /// error naming the start.
    Verify(OpeningsVerifyArgs),
    /// Summarises logs of `prove` per dice line: the share won by red (the first mover), the
    /// plies of the winning lines, times and the hardest starts.
    Summary(OpeningsSummaryArgs),
}

/// Arguments of `ply ewn openings prove`.
#[derive(Args, Debug)]
pub(crate) struct OpeningsProveArgs {
    /// One dice line: 21 digits 0-5 (spaces allowed).
    #[arg(long, value_name = "LINE", conflicts_with = "dice_file")]
    pub dice: Option<String>,
    /// A dice file (21 digits 0-5 per line); default: the course's 60 sequences.
    #[arg(long, value_name = "FILE")]
    pub dice_file: Option<String>,
    /// Prove N starts of each dice line drawn at random (see --seed) instead of all 518,400.
    #[arg(long, value_name = "N", conflicts_with = "starts")]
    pub sample: Option<u32>,
    /// Seed of --sample and of the verifier's sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Prove the starts listed in FILE, one a line: red's and blue's permutations in the
    /// protocol's order (`012345 543210`) or a start number (0-518399).
    #[arg(long, value_name = "FILE")]
    pub starts: Option<String>,
    /// Seconds per start: a start not proven in time is recorded as open, with its bounds.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub budget: f64,
    /// Positions per start besides --budget: a budget that gives the same records on every
    /// machine.
    #[arg(long, value_name = "NODES")]
    pub max_nodes: Option<u64>,
    /// The most memory of the prover's table, in MiB: it starts small and grows as a proof
    /// needs, and each start is proven afresh in a table shrunk back.
    #[arg(long, value_name = "MIB", default_value_t = 512)]
    pub memory: u64,
    /// Starts proven again by the second prover, drawn at random (default: one in a hundred,
    /// at least one; 0: none).
    #[arg(long, value_name = "N")]
    pub verify: Option<u32>,
    /// Seconds per start for the second prover (a start it cannot decide in time is counted
    /// as unconfirmed, not as a disagreement).
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub verify_budget: f64,
    /// Write each proven start's certificate (its winner's whole strategy, walked to the end
    /// of every game) into its record, so that `openings verify` checks the claim with the
    /// rules alone, without proving it again. Several times the proof's time; a strategy of
    /// more than 2,000,000 positions gets none.
    #[arg(long)]
    pub certify: bool,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Arguments of `ply ewn openings verify`.
#[derive(Args, Debug)]
pub(crate) struct OpeningsVerifyArgs {
    /// A log written by `ply ewn openings prove` (its --log, or its standard output).
    pub log: String,
    /// Proven records without a certificate proven again by the second prover, drawn at
    /// random among them, since a replayed line shows a legal game but not who wins (default:
    /// every one of up to 1,000, else one in a hundred and at least 1,000; 0: none). Every
    /// certificate is checked, with the rules alone. The output says how many claims were
    /// certified, re-proven and neither.
    #[arg(long, value_name = "N")]
    pub sample: Option<u32>,
    /// Seed of the sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds per start for the second prover.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    pub budget: f64,
}

/// Arguments of `ply ewn openings summary`.
#[derive(Args, Debug)]
pub(crate) struct OpeningsSummaryArgs {
    /// Logs written by `ply ewn openings prove` (shards of one run, say).
    #[arg(required = true, value_name = "LOG")]
    pub logs: Vec<String>,
    /// Print the summary as JSON.
    #[arg(long)]
    pub json: bool,
}

/// `ply ewn solo` verbs.
#[derive(Subcommand, Debug)]
pub(crate) enum SoloCommand {
    /// Solves an instance and prints the course's 3-line output (time, moves, from/to pairs).
    Solve(SolveArgs),
    /// Replays a solution and prints a verdict; exit 0 only for a legal solution.
    Check(CheckArgs),
    /// Shows an instance and a solution step by step in the terminal.
    View(ViewArgs),
    /// Generates random instances with their optimum as a 4th line.
    Gen(GenArgs),
    /// Solves instance files (several per file, separated by blank lines) and tabulates them.
    Bench(BenchArgs),
}

/// Arguments of `ply ewn solo solve`.
#[derive(Args, Debug)]
pub(crate) struct SolveArgs {
    /// The instance (`-` or nothing: standard input).
    #[arg(value_name = "FILE", default_value = "-")]
    pub file: PathBuf,
    /// Also describe each move on stderr (die, piece, from, to, capture).
    #[arg(long)]
    pub explain: bool,
    /// Report the search on stderr: initial bound, thresholds, nodes, time.
    #[arg(long)]
    pub stats: bool,
    /// Print one JSON record instead of the course's lines (the words of Python's
    /// `ewn.solo.Solution`: cost, moves, proven, lower_bound, ...).
    #[arg(long, conflicts_with = "explain")]
    pub json: bool,
    /// Also draw the solution as an SVG picture in FILE: the start, each move an arrow.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    #[command(flatten)]
    pub budget: BudgetArgs,
}

/// Arguments of `ply ewn solo check`.
#[derive(Args, Debug)]
pub(crate) struct CheckArgs {
    /// The instance file.
    pub instance: PathBuf,
    /// The solution file, in the solver's output format.
    pub solution: PathBuf,
}

/// Arguments of `ply ewn solo view`.
#[derive(Args, Debug)]
pub(crate) struct ViewArgs {
    /// The instance file.
    pub instance: PathBuf,
    /// A solution file; without one the instance is solved first.
    pub solution: Option<PathBuf>,
}

/// Arguments of `ply ewn solo gen`.
#[derive(Args, Debug)]
pub(crate) struct GenArgs {
    /// Random seed; the same seed gives the same instances.
    #[arg(long)]
    pub seed: u64,
    /// How many instances.
    #[arg(long)]
    pub count: usize,
    /// Keep only instances whose optimum is at least this.
    #[arg(long, default_value_t = 0)]
    pub min_moves: u32,
    /// Keep only instances whose optimum is at most this.
    #[arg(long, default_value_t = DICE as u32)]
    pub max_moves: u32,
    /// Keep only instances that have no solution (their 4th line is `none`), drawn from a
    /// distribution where about half have none.
    #[arg(long, conflicts_with_all = ["min_moves", "max_moves"])]
    pub unsolvable: bool,
    /// Write one file per instance (`DIR/<seed>-<n>.in`, n from 1) instead of all to stdout.
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// With --out: replace files of these names that are already there (never a symbolic
    /// link or anything but a regular file).
    #[arg(long, requires = "out")]
    pub force: bool,
    /// Give up after this many random instances drawn (rare requests may need many;
    /// impossible ones would never end).
    #[arg(long, default_value_t = 100_000)]
    pub max_draws: u64,
}

/// Arguments of `ply ewn solo bench`.
#[derive(Args, Debug)]
pub(crate) struct BenchArgs {
    /// Instance files (several instances per file, separated by blank lines).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Print JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Arguments of `ply ewn host`.
#[derive(Args, Debug)]
pub(crate) struct HostArgs {
    /// Player 0's command line (started with `sh -c`); omitted: a human at this terminal.
    #[arg(long = "p0", value_name = "CMD")]
    pub p0: Option<String>,
    /// Player 1's command line; omitted: a human at this terminal.
    #[arg(long = "p1", value_name = "CMD")]
    pub p1: Option<String>,
    /// Games to play (first mover alternates, starting with player 0).
    #[arg(short = 'r', long = "rounds", default_value_t = 1)]
    pub rounds: u32,
    /// A dice file (21 digits 0-5 per line); default: the course's 60 sequences.
    #[arg(long, value_name = "FILE", value_parser = crate::format::Utf8Path)]
    pub dice_file: Option<String>,
    /// Seed of the cube permutations and the dice line of each game.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Seconds per move, measured by the host.
    #[arg(long, default_value_t = 2.0)]
    pub move_time: f64,
    /// Write every game as a JSON line here (a new file: an existing one is refused
    /// without --force).
    #[arg(long, value_name = "FILE", value_parser = crate::format::Utf8Path)]
    pub log: Option<String>,
    /// Replace an existing --log file (never a symbolic link or anything but a file).
    #[arg(long, requires = "log")]
    pub force: bool,
    /// Print the results as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
}

/// Arguments of `ply ewn tournament`.
#[derive(Args, Debug)]
pub(crate) struct TournamentArgs {
    /// The agents: `NAME=COMMAND` or a command line (its own name); two or more.
    #[arg(value_name = "AGENT", required = true, num_args = 2..)]
    pub agents: Vec<String>,
    /// The first agent against each of the others, instead of every pair.
    #[arg(long)]
    pub gauntlet: bool,
    /// Openings (seeded cube permutations and dice lines); each pair plays each one twice,
    /// once with each colour. With --sprt, the most the test may use.
    #[arg(long, default_value_t = 50)]
    pub openings: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A dice file (21 digits 0-5 per line); default: the course's 60 sequences.
    #[arg(long, value_name = "FILE", value_parser = crate::format::Utf8Path)]
    pub dice_file: Option<String>,
    /// Seconds per move, measured by the host.
    #[arg(long, default_value_t = 2.0)]
    pub move_time: f64,
    /// Games at once, at most 256 (default: the cores; each agent should think on one
    /// thread).
    #[arg(long, short = 'j')]
    pub concurrency: Option<usize>,
    /// Two agents only: test "the first is ELO0 Elo stronger" against "ELO1 stronger" and
    /// stop as soon as it is decided (alpha = beta = 0.05).
    #[arg(
        long,
        value_name = "ELO0,ELO1",
        value_delimiter = ',',
        allow_hyphen_values = true
    )]
    pub sprt: Option<Vec<f64>>,
    /// Print the results as JSON instead of a table.
    #[arg(long)]
    pub json: bool,
    /// Also draw the ratings with their 95 % intervals as an SVG chart in FILE.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub batch: BatchArgs,
}

/// Arguments of `ply ewn agent`: without a kind, ply's strongest agent (`deep`).
#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct AgentArgs {
    #[command(subcommand)]
    pub kind: Option<AgentKind>,
    #[command(flatten)]
    pub deep: DeepArgs,
}

/// Arguments of ply's strongest agent.
#[derive(Args, Debug, Clone)]
pub(crate) struct DeepArgs {
    /// Seconds per move, counted from the moment the opponent's move arrives (the course's
    /// host allows 2); under `ply ewn host` or `tournament`, at most the host's own time
    /// less a safety margin of a tenth.
    #[arg(long, default_value_t = 1.8)]
    pub move_time: f64,
    /// Per move on stderr: the depth searched, the value, and a proven win or loss.
    #[arg(long)]
    pub verbose: bool,
    /// Do not prove during the opponent's time (for matches that run more agents than there
    /// are cores; under `ply ewn host` or `tournament` the referee turns pondering off by
    /// itself when the agents running at once outnumber the cores).
    #[arg(long)]
    pub no_ponder: bool,
}

/// Agent kinds.
#[derive(Subcommand, Debug, Clone)]
pub(crate) enum AgentKind {
    /// ply's strongest agent (the default): proofs over the known dice (df-pn, also during
    /// the opponent's time), a proven win never let go; otherwise deep alpha-beta with the
    /// race evaluation, principal variation search, killer moves, wins and losses by
    /// distance, and tables kept for the whole game.
    Deep(DeepArgs),
    /// Uniformly random legal moves (the course's easy).
    Random {
        /// Random seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Negamax alpha-beta to a fixed depth with the course's evaluation (normal: 2, hard: 8).
    Alphabeta {
        /// Search depth in plies.
        #[arg(long, default_value_t = 8)]
        depth: u32,
        /// Add iterative deepening and a transposition table (same depth, fewer nodes).
        #[arg(long)]
        strong: bool,
        /// The timed alpha-beta: iterative deepening with the table, as deep as this many
        /// seconds per move allow instead of a fixed depth (the default agent, `deep`, is
        /// stronger); under ply's host, at most the host's own time less a tenth.
        #[arg(long, conflicts_with_all = ["depth", "strong"])]
        move_time: Option<f64>,
        /// Leaf evaluation: the course's distances, or `race`, the dice-aware race lengths
        /// (about 57 % against `course` at 0.1 s a move).
        #[arg(long, value_enum, default_value_t = EvalArg::Course)]
        eval: EvalArg,
    },
    /// Monte-Carlo tree search with UCB1 over the known dice (MCTS-Solver, tree reuse).
    Mcts(MctsArgs),
}

/// `--eval` of `ply ewn agent alphabeta`.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum EvalArg {
    /// The course's: the opponent's distance to its corner minus one's own.
    Course,
    /// Turns each side needs to reach its corner alone with the known dice, then material.
    Race,
}

impl From<EvalArg> for ply_ewn::duel::agents::Eval {
    fn from(arg: EvalArg) -> Self {
        match arg {
            EvalArg::Course => ply_ewn::duel::agents::Eval::Course,
            EvalArg::Race => ply_ewn::duel::agents::Eval::Race,
        }
    }
}

/// Arguments of `ply ewn agent mcts`.
#[derive(Args, Debug, Clone)]
pub(crate) struct MctsArgs {
    /// Seconds per move, counted from the moment the opponent's move arrives (the course's
    /// host allows 2); under `ply ewn host` or `tournament`, at most the host's own time
    /// less a safety margin of a tenth.
    #[arg(long, default_value_t = 1.8)]
    pub move_time: f64,
    /// Playout seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Per move on stderr: iterations, tree size, the best move's visits and value, the
    /// principal variation.
    #[arg(long)]
    pub verbose: bool,
    /// Tuning: the UCB1 exploration constant.
    #[arg(long, hide = true, default_value_t = MctsAgentConfig::default().search.exploration)]
    pub exploration: f64,
    /// Tuning: the weight of implicit minimax backups of the distance evaluation (0: off).
    #[arg(long, hide = true, default_value_t = MctsAgentConfig::default().search.minimax)]
    pub minimax: f64,
    /// Tuning: no proofs of wins and losses (plain UCT).
    #[arg(long, hide = true)]
    pub no_solver: bool,
    /// Tuning: a new tree every move instead of the subtree of the moves played.
    #[arg(long, hide = true)]
    pub no_reuse: bool,
}

/// Arguments of `ply ewn replay`.
#[derive(Args, Debug)]
pub(crate) struct ReplayArgs {
    /// A log written by `ply ewn host --log` or `ply ewn tournament --log` (`-`: standard
    /// input).
    #[arg(value_parser = crate::format::Utf8Path)]
    pub log: String,
    /// The game to show, by its number (1-based; in a tournament, as its game line says).
    #[arg(long, default_value_t = 1)]
    pub game: u32,
}

/// Arguments of `ply ewn play`.
#[derive(Args, Debug)]
pub(crate) struct PlayArgs {
    /// The opponent: random (easy), normal (alpha-beta depth 2), hard (depth 8) or
    /// alphabeta-D or deep (ply's strongest); omitted: two humans at this terminal.
    #[arg(long, value_name = "KIND")]
    pub vs: Option<String>,
    /// Play red and move first (the default).
    #[arg(long, conflicts_with = "second")]
    pub first: bool,
    /// Play blue and move second.
    #[arg(long)]
    pub second: bool,
    /// Seed of the cube permutations and the dice line.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// Arguments of `ply ewn playouts`.
#[derive(Args, Debug)]
pub(crate) struct PlayoutArgs {
    /// Random playouts to run.
    #[arg(long, default_value_t = 1_000_000)]
    pub games: u64,
    /// Seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}
