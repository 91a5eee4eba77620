//! `ply ewn`: EWN systems: the single-player puzzle (`solo`) and the two-player duel.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use ply_ewn::solo::{
    DICE, Instance, SoloMove, SoloOutcome, SoloReport, Verdict, check, generate, parse_solution,
    solve,
};
use ply_search::Limits;
use serde::Serialize;

use crate::Reported;
use crate::commands::BudgetArgs;
use crate::format::{progress, read_input, read_parsed, table, thousands};

/// `ply ewn` systems.
#[derive(Subcommand, Debug)]
pub enum EwnCommand {
    /// Single-player EWN on a 10x10 board with a fixed dice sequence, solved optimally.
    #[command(subcommand)]
    Solo(SoloCommand),
    /// Referees duel games between agents (or humans) on the 6x7 board.
    Host(super::ewn_duel::HostArgs),
    /// Runs a duel agent on stdin/stdout, speaking the course's protocol.
    Agent(super::ewn_duel::AgentArgs),
    /// Plays the duel in the terminal against an agent or another human.
    Play(super::ewn_duel::PlayArgs),
    /// Steps through a logged duel game in the terminal.
    Replay(super::ewn_duel::ReplayArgs),
    /// Measures the duel engine: random playouts per second.
    Playouts(super::ewn_duel::PlayoutArgs),
}

/// `ply ewn solo` verbs.
#[derive(Subcommand, Debug)]
pub enum SoloCommand {
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
pub struct SolveArgs {
    /// The instance (`-` or nothing: standard input).
    #[arg(value_name = "FILE", default_value = "-")]
    file: String,
    /// Also describe each move on stderr (die, piece, from, to, capture).
    #[arg(long)]
    explain: bool,
    /// Report the search on stderr: initial bound, thresholds, nodes, time.
    #[arg(long)]
    stats: bool,
    #[command(flatten)]
    budget: BudgetArgs,
}

/// Arguments of `ply ewn solo check`.
#[derive(Args, Debug)]
pub struct CheckArgs {
    /// The instance file.
    instance: String,
    /// The solution file, in the solver's output format.
    solution: String,
}

/// Arguments of `ply ewn solo view`.
#[derive(Args, Debug)]
pub struct ViewArgs {
    /// The instance file.
    pub instance: String,
    /// A solution file; without one the instance is solved first.
    pub solution: Option<String>,
}

/// Arguments of `ply ewn solo gen`.
#[derive(Args, Debug)]
pub struct GenArgs {
    /// Random seed; the same seed gives the same instances.
    #[arg(long)]
    seed: u64,
    /// How many instances.
    #[arg(long)]
    count: usize,
    /// Keep only instances whose optimum is at least this.
    #[arg(long, default_value_t = 0)]
    min_moves: u32,
    /// Keep only instances whose optimum is at most this.
    #[arg(long, default_value_t = DICE as u32)]
    max_moves: u32,
    /// Keep only instances that have no solution (their 4th line is `none`).
    #[arg(long)]
    unsolvable: bool,
    /// Write one file per instance (`DIR/<seed>-<n>.in`) instead of all to stdout.
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

/// Arguments of `ply ewn solo bench`.
#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Instance files (several instances per file, separated by blank lines).
    #[arg(required = true, value_name = "FILE")]
    files: Vec<String>,
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Runs a `ply ewn` command.
pub fn run(cmd: EwnCommand) -> Result<()> {
    match cmd {
        EwnCommand::Solo(SoloCommand::Solve(args)) => run_solve(&args),
        EwnCommand::Solo(SoloCommand::Check(args)) => run_check(&args),
        EwnCommand::Solo(SoloCommand::View(args)) => crate::tui::ewn_solo::run(&args),
        EwnCommand::Solo(SoloCommand::Gen(args)) => run_gen(&args),
        EwnCommand::Solo(SoloCommand::Bench(args)) => run_bench(&args),
        EwnCommand::Host(args) => super::ewn_duel::run_host(&args),
        EwnCommand::Agent(args) => super::ewn_duel::run_agent_command(&args),
        EwnCommand::Play(args) => crate::tui::ewn_play::run(&args),
        EwnCommand::Replay(args) => crate::tui::ewn_duel::run(&args),
        EwnCommand::Playouts(args) => super::ewn_duel::run_playouts(&args),
    }
}

/// Reads one instance, naming the file in errors.
pub fn load_instance(path: &str) -> Result<Instance> {
    read_parsed(path, Instance::parse)
}

/// Solves and replays the solution through the checker before anyone sees it.
pub fn solve_checked(instance: &Instance, limits: Limits) -> Result<SoloReport> {
    let report = solve(instance, limits);
    if let SoloOutcome::Solved(moves) = &report.outcome {
        let pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
        let verdict = check(instance, &pairs, None);
        if !verdict.is_legal() {
            bail!("internal error: the solver's solution fails the checker: {verdict}");
        }
    }
    Ok(report)
}

/// One line describing a move, for `--explain` and the viewer.
pub fn describe(index: usize, die: u8, mv: &SoloMove) -> String {
    let cell = |c: u8| format!("({},{})", c / 10, c % 10);
    let capture = match mv.captured {
        0 => String::new(),
        p => format!(", captures piece {p}"),
    };
    format!(
        "move {:>2}: die {die}, piece {} {} -> {}{capture}",
        index + 1,
        mv.piece,
        cell(mv.from),
        cell(mv.to)
    )
}

fn run_solve(args: &SolveArgs) -> Result<()> {
    let instance = load_instance(&args.file)?;
    let report = solve_checked(&instance, args.budget.limits()?)?;
    if args.stats {
        let thresholds: Vec<String> = report.thresholds.iter().map(u32::to_string).collect();
        eprintln!(
            "bound {} thresholds {} generated {} expanded {} relaxed {} seconds {:.4}",
            report.initial_bound,
            thresholds.join(" "),
            thousands(report.generated),
            thousands(report.expanded),
            thousands(report.relaxed_generated),
            report.elapsed.as_secs_f64()
        );
    }
    match report.outcome {
        SoloOutcome::Solved(moves) => {
            if args.explain {
                for (i, mv) in moves.iter().enumerate() {
                    eprintln!("{}", describe(i, instance.dice[i], mv));
                }
            }
            let pairs: Vec<String> = moves
                .iter()
                .map(|m| format!("{} {}", m.from, m.to))
                .collect();
            let seconds = crate::started().elapsed().as_secs_f64();
            let mut out = std::io::stdout().lock();
            writeln!(out, "{seconds:.6}\n{}\n{}", moves.len(), pairs.join(" "))?;
            out.flush()?;
            Ok(())
        }
        SoloOutcome::NoSolution => bail!(
            "no solution: goal piece {} cannot reach (0,0) within the 30 dice (proven)",
            instance.goal
        ),
        SoloOutcome::GaveUp(why) => bail!("gave up: {why}"),
    }
}

fn run_check(args: &CheckArgs) -> Result<()> {
    let instance = load_instance(&args.instance)?;
    let text = read_input(&args.solution)?;
    let pairs = parse_solution(&text)
        .map_err(|e| anyhow::anyhow!(e))
        .with_context(|| args.solution.clone())?;
    let optimum = match instance.known_optimum {
        Some(opt) => Some(opt),
        None => match solve_checked(&instance, Limits::UNLIMITED)?.outcome {
            SoloOutcome::Solved(moves) => Some(moves.len() as u32),
            _ => None,
        },
    };
    let verdict = check(&instance, &pairs, optimum);
    println!("{verdict}");
    if verdict.is_legal() {
        Ok(())
    } else {
        Err(Reported.into())
    }
}

fn run_gen(args: &GenArgs) -> Result<()> {
    if args.min_moves > args.max_moves {
        bail!(
            "--min-moves {} exceeds --max-moves {}",
            args.min_moves,
            args.max_moves
        );
    }
    if let Some(dir) = &args.out {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let bar = progress(args.count as u64, "ewn solo gen");
    let mut out = std::io::stdout().lock();
    let mut kept = 0usize;
    let mut failure = None;
    generate(
        args.seed,
        args.count,
        (args.min_moves, args.max_moves),
        args.unsolvable,
        |instance| {
            let written = match &args.out {
                Some(dir) => {
                    let path = dir.join(format!("{}-{kept}.in", args.seed));
                    std::fs::write(&path, instance.to_string())
                        .with_context(|| format!("cannot write {}", path.display()))
                }
                None => {
                    let separator = if kept > 0 { "\n" } else { "" };
                    write!(out, "{separator}{instance}")
                        .and_then(|()| out.flush())
                        .context("writing standard output")
                }
            };
            kept += 1;
            bar.inc(1);
            match written {
                Ok(()) => true,
                Err(e) => {
                    failure = Some(e);
                    false
                }
            }
        },
        |tries| bar.set_message(format!("{tries} drawn")),
    );
    bar.finish_and_clear();
    failure.map_or(Ok(()), Err)
}

/// One bench row.
#[derive(Serialize, Debug)]
struct BenchRow {
    file: String,
    index: usize,
    moves: Option<u32>,
    known: Option<u32>,
    generated: u64,
    seconds: f64,
}

fn run_bench(args: &BenchArgs) -> Result<()> {
    let mut instances = Vec::new();
    for path in &args.files {
        let text = read_input(path)?;
        for (i, inst) in Instance::parse_many(&text)
            .with_context(|| path.clone())?
            .into_iter()
            .enumerate()
        {
            instances.push((path.clone(), i, inst));
        }
    }
    let bar = progress(instances.len() as u64, "ewn solo bench");
    let mut rows = Vec::new();
    for (file, index, instance) in &instances {
        let report = solve_checked(instance, Limits::UNLIMITED)?;
        let moves = match &report.outcome {
            SoloOutcome::Solved(m) => Some(m.len() as u32),
            SoloOutcome::NoSolution => None,
            SoloOutcome::GaveUp(why) => bail!("{file} #{index}: gave up: {why}"),
        };
        if moves != instance.known_optimum
            && (instance.known_optimum.is_some() || instance.known_unsolvable)
        {
            bail!(
                "{file} #{index}: found {moves:?} but the file says {:?}",
                instance.known_optimum
            );
        }
        rows.push(BenchRow {
            file: file.clone(),
            index: *index,
            moves,
            known: instance.known_optimum,
            generated: report.generated,
            seconds: report.elapsed.as_secs_f64(),
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    let mut out = std::io::stdout().lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &rows)?;
        writeln!(out)?;
        return Ok(());
    }
    let mut table = table(["file", "#", "moves", "generated", "seconds"]);
    for r in &rows {
        table.add_row([
            r.file.clone(),
            r.index.to_string(),
            r.moves.map_or_else(|| "none".into(), |m| m.to_string()),
            thousands(r.generated),
            format!("{:.4}", r.seconds),
        ]);
    }
    writeln!(out, "{table}")?;
    let worst = rows.iter().map(|r| r.seconds).fold(0.0, f64::max);
    let total: f64 = rows.iter().map(|r| r.seconds).sum();
    writeln!(
        out,
        "{} instances, total {total:.3} s, worst {worst:.4} s",
        rows.len()
    )?;
    Ok(())
}

/// The verdict of a solution for the viewer's status line.
pub fn verdict_for(instance: &Instance, moves: &[SoloMove], optimum: Option<u32>) -> Verdict {
    let pairs: Vec<(u8, u8)> = moves.iter().map(|m| (m.from, m.to)).collect();
    check(instance, &pairs, optimum)
}
