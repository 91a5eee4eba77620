//! The `ply ewn solo` verbs that run without a terminal UI.

use super::args::{BenchArgs, CheckArgs, GenArgs, SolveArgs};
use super::ops::{describe, load_instance, solve_checked};
use crate::batch::{self, Job};
use crate::format::{plural, progress, read_input, table, thousands};
use crate::outcome::Reported;
use crate::record::{Record, record, write_line};
use anyhow::{Context, Result, bail};
use ply_ewn::solo::{GenError, GenOptions, Instance, SoloReport, check, generate, parse_solution};
use ply_search::{Ending, Limits};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// How messages name an input (`<stdin>` for `-`).
fn shown(path: &Path) -> String {
    if crate::format::is_stdin(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// `ply ewn solo solve`: the course's three lines (`--json`: one record).
pub(super) fn run_solve(args: &SolveArgs) -> Result<()> {
    let instance = load_instance(&args.file)?;
    let report = solve_checked(&instance, &args.budget.limits()?)?;
    if args.json {
        write_record(&report)?;
    }
    if args.stats {
        let thresholds: Vec<String> = report.extra.thresholds.iter().map(u32::to_string).collect();
        errln!(
            "bound {} thresholds {} generated {} expanded {} relaxed {} seconds {:.4}",
            report.initial_bound,
            thresholds.join(" "),
            thousands(report.generated),
            thousands(report.expanded),
            thousands(report.extra.relaxed_generated),
            report.elapsed.as_secs_f64()
        );
    }
    match report.ending {
        Ending::Solved { moves, .. } => {
            if args.json {
            } else if args.explain {
                for (i, mv) in moves.iter().enumerate() {
                    errln!("{}", describe(i, instance.dice[i], mv));
                }
            }
            if !args.json {
                let pairs: Vec<String> = moves
                    .iter()
                    .map(|m| format!("{} {}", m.from, m.to))
                    .collect();
                let seconds = crate::outcome::started().elapsed().as_secs_f64();
                let mut out = std::io::stdout().lock();
                writeln!(out, "{seconds:.6}\n{}\n{}", moves.len(), pairs.join(" "))?;
                out.flush()?;
            }
            if let Some(svg) = &args.svg {
                super::picture::save(svg, &instance, &moves)?;
            }
            Ok(())
        }
        Ending::Unsolvable => bail!(
            "no solution: goal piece {} cannot reach (0,0) within the 30 dice (proven)",
            instance.goal
        ),
        Ending::Stopped => bail!("gave up: {}", stopped_by(&report)),
    }
}

/// Why a solve stopped, for its error message.
fn stopped_by(report: &SoloReport) -> String {
    report
        .stopped
        .map_or_else(|| "stopped".to_string(), |why| why.to_string())
}

/// The words of `report`, its moves as `[from, to]` pairs.
fn solve_record(report: &SoloReport) -> Record {
    record(report, |moves| {
        json!(moves.iter().map(|m| [m.from, m.to]).collect::<Vec<_>>())
    })
}

/// The record of `solve --json`: the report in the words of `ply_games.ewn.solo.Solution`
/// (its thresholds and relaxed count too), as one line.
fn write_record(report: &SoloReport) -> Result<()> {
    #[derive(Serialize)]
    struct SolveLine<'a> {
        #[serde(flatten)]
        record: Record,
        thresholds: &'a [u32],
        relaxed_generated: u64,
    }
    write_line(&SolveLine {
        record: solve_record(report),
        thresholds: &report.extra.thresholds,
        relaxed_generated: report.extra.relaxed_generated,
    })
}

/// `ply ewn solo check`: a verdict on a solution.
pub(super) fn run_check(args: &CheckArgs) -> Result<()> {
    let instance = load_instance(&args.instance)?;
    let text = read_input(&args.solution)?;
    let pairs = parse_solution(&text)
        .map_err(|e| anyhow::anyhow!(e))
        .with_context(|| shown(&args.solution))?;
    // The optimum is solved for, not read from the instance's optional 4th line, which a
    // checker cannot trust; a 4th line that disagrees is named.
    let optimum = solve_checked(&instance, &Limits::UNLIMITED)?.cost();
    if let Some(stated) = instance.known_optimum
        && Some(stated) != optimum
    {
        let actual = optimum.map_or_else(|| "no solution".to_string(), |m| format!("{m}"));
        errln!(
            "ply: warning: {}: the 4th line says {}, but the optimum is {actual}",
            shown(&args.instance),
            plural(u64::from(stated), "move")
        );
    }
    let verdict = check(&instance, &pairs, optimum);
    outln!("{verdict}")?;
    if verdict.is_legal() {
        Ok(())
    } else {
        Err(Reported.into())
    }
}

/// The file of instance `n` (from 1) of `seed` in `dir`.
fn instance_file(dir: &Path, seed: u64, n: usize) -> PathBuf {
    dir.join(format!("{seed}-{n}.in"))
}

/// Whether `name` is the file of an instance from 1 to `count` of `seed`.
fn is_instance_file(name: &str, seed: u64, count: usize) -> bool {
    name.strip_prefix(&format!("{seed}-"))
        .and_then(|rest| rest.strip_suffix(".in"))
        .filter(|n| !n.starts_with('0'))
        .and_then(|n| n.parse::<usize>().ok())
        .is_some_and(|n| (1..=count).contains(&n))
}

/// Checks, before anything is generated, that `dir` can take the files of `args`: it is a
/// directory (made if missing), and files of the same names are there only with `--force`,
/// and then only as regular files (a symbolic link is never written through).
fn prepare_out_dir(dir: &Path, args: &GenArgs) -> Result<()> {
    if fs::metadata(dir).is_ok_and(|meta| !meta.is_dir()) {
        bail!("--out {}: not a directory", dir.display());
    }
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut taken: Vec<PathBuf> = fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(Result::ok)
        .filter(|entry| {
            entry
                .file_name()
                .to_str()
                .is_some_and(|name| is_instance_file(name, args.seed, args.count))
        })
        .map(|entry| entry.path())
        .collect();
    taken.sort();
    for path in &taken {
        refuse_unless_regular(path)?;
    }
    if let Some(first) = taken.first()
        && !args.force
    {
        let more = match taken.len() - 1 {
            0 => String::new(),
            n => format!(" (and {})", plural(n as u64, "more file")),
        };
        bail!(
            "{} already exists{more}; --force replaces instance files",
            first.display()
        );
    }
    Ok(())
}

/// Fails unless `path` is a regular file (not a symbolic link, a directory or a device).
fn refuse_unless_regular(path: &Path) -> Result<()> {
    let meta =
        fs::symlink_metadata(path).with_context(|| format!("cannot read {}", path.display()))?;
    if meta.file_type().is_symlink() {
        bail!(
            "{} is a symbolic link; refusing to write through it",
            path.display()
        );
    }
    if !meta.is_file() {
        bail!(
            "{} is not a regular file; refusing to replace it",
            path.display()
        );
    }
    Ok(())
}

/// Writes `text` to a new file at `path`. An existing file is replaced only with `force`,
/// and only a regular file: the new file is created exclusively, so that a symbolic link
/// planted at `path` is never followed.
fn write_instance_file(path: &Path, text: &str, force: bool) -> Result<()> {
    let create = || {
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
    };
    let mut file = match create() {
        Ok(file) => file,
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            refuse_unless_regular(path)?;
            if !force {
                bail!(
                    "{} already exists; --force replaces instance files",
                    path.display()
                );
            }
            fs::remove_file(path)
                .and_then(|()| create())
                .with_context(|| format!("cannot replace {}", path.display()))?
        }
        Err(e) => return Err(e).with_context(|| format!("cannot write {}", path.display())),
    };
    file.write_all(text.as_bytes())
        .with_context(|| format!("cannot write {}", path.display()))
}

/// `ply ewn solo gen`: random instances with their optima.
pub(super) fn run_generate(args: &GenArgs) -> Result<()> {
    if let Some(dir) = &args.out {
        prepare_out_dir(dir, args)?;
    }
    let bar = progress(args.count as u64, "ewn solo gen");
    let mut out = std::io::stdout().lock();
    let mut kept = 0usize;
    let mut failure = None;
    let options = GenOptions {
        count: args.count,
        moves: (args.min_moves, args.max_moves),
        unsolvable: args.unsolvable,
        max_draws: args.max_draws,
    };
    let generated = generate(
        args.seed,
        options,
        |instance| {
            let written = match &args.out {
                Some(dir) => {
                    let path = instance_file(dir, args.seed, kept + 1);
                    write_instance_file(&path, &instance.to_string(), args.force)
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
        |tries| bar.set_message(format!("{} drawn", thousands(tries))),
    );
    bar.finish_and_clear();
    if let Some(failure) = failure {
        return Err(failure);
    }
    match generated {
        Err(impossible @ GenError::Impossible(_)) => {
            Err(crate::outcome::usage(impossible.to_string()))
        }
        other => other.map(drop).map_err(Into::into),
    }
}

/// One bench row, also the JSON record.
#[derive(Serialize, Deserialize, Debug)]
pub(super) struct BenchRow {
    /// The instance file.
    file: String,
    /// The instance's number in its file, from 1.
    index: usize,
    /// The answer, in the words of `solve --json` and Python.
    #[serde(flatten)]
    record: Record,
    /// The optimum the file states, if any.
    known_optimum: Option<u32>,
    /// `known_optimum` under its old name, kept for one release.
    known: Option<u32>,
}

/// One instance's result, as the log holds it: its row, and a solver's answer that disagrees
/// with the file's.
#[derive(Serialize, Deserialize, Debug)]
pub(crate) struct SoloBenchItem {
    row: BenchRow,
    problem: Option<String>,
}

/// `ply ewn solo bench` as a batch: its items are the instances, file by file.
pub(crate) struct SoloBenchJob;

impl Job for SoloBenchJob {
    type Item = SoloBenchItem;
    const COMMAND: &'static str = "ewn solo bench";
    const NOUN: &'static str = "instance";

    fn report(
        _work: &Map<String, Value>,
        items: &[SoloBenchItem],
        json: bool,
        out: &mut dyn Write,
    ) -> Result<Vec<String>> {
        let rows: Vec<&BenchRow> = items.iter().map(|item| &item.row).collect();
        if json {
            serde_json::to_writer_pretty(&mut *out, &rows)?;
            writeln!(out)?;
        } else {
            let mut table = table(["file", "#", "moves", "generated", "seconds"]);
            for r in &rows {
                table.add_row([
                    r.file.clone(),
                    r.index.to_string(),
                    r.record
                        .cost
                        .map_or_else(|| "none".into(), |m| m.to_string()),
                    thousands(r.record.generated),
                    format!("{:.4}", r.record.seconds),
                ]);
            }
            writeln!(out, "{table}")?;
            let worst = rows.iter().map(|r| r.record.seconds).fold(0.0, f64::max);
            let total: f64 = rows.iter().map(|r| r.record.seconds).sum();
            writeln!(
                out,
                "{}, total {total:.3} s, worst {worst:.4} s",
                plural(rows.len() as u64, "instance")
            )?;
        }
        Ok(items.iter().filter_map(|i| i.problem.clone()).collect())
    }
}

/// An optimum in words: `16 moves`, or `no solution`.
fn optimum_text(moves: Option<u32>) -> String {
    moves.map_or_else(
        || "no solution".to_string(),
        |m| plural(u64::from(m), "move"),
    )
}

/// `ply ewn solo bench`: instance files solved, checked against their optima and timed. Every
/// instance is solved and shown; optima that disagree with the file's are errors named after
/// the table.
pub(super) fn run_bench(args: &BenchArgs) -> Result<()> {
    let mut instances = Vec::new();
    for path in &args.files {
        let name = shown(path);
        let text = read_input(path)?;
        for (i, inst) in Instance::parse_many(&text)
            .with_context(|| name.clone())?
            .into_iter()
            .enumerate()
        {
            instances.push((name.clone(), i + 1, inst));
        }
    }
    let files: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
    let mut work = Map::new();
    work.insert("files".into(), json!(files));
    work.insert(
        batch::digest::KEY.into(),
        batch::digest::of_inputs(args.files.iter().map(PathBuf::as_path))?,
    );
    let Some(mut session) =
        batch::start::<SoloBenchJob>(work, instances.len() as u64, &args.batch)?
    else {
        return Ok(());
    };
    let pending: Vec<u64> = session.pending().collect();
    let bar = progress(pending.len() as u64, "ewn solo bench");
    for at in pending {
        let (file, index, instance) = &instances[at as usize];
        let report = solve_checked(instance, &Limits::UNLIMITED)?;
        if report.ending == Ending::Stopped {
            bail!("{file} #{index}: gave up: {}", stopped_by(&report));
        }
        let moves = report.cost();
        let problem = (moves != instance.known_optimum
            && (instance.known_optimum.is_some() || instance.known_unsolvable))
            .then(|| {
                format!(
                    "{file} #{index}: the solver proved {}, but the file says {}",
                    optimum_text(moves),
                    optimum_text(instance.known_optimum)
                )
            });
        let row = BenchRow {
            file: file.clone(),
            index: *index,
            record: solve_record(&report),
            known_optimum: instance.known_optimum,
            known: instance.known_optimum,
        };
        session.record_or_fail(at, SoloBenchItem { row, problem })?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    session.finish(args.json)
}
