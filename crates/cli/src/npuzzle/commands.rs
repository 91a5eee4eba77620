//! The `ply npuzzle` verbs: solve, bench, and the pattern databases' build and list.

use super::args::{BenchArgs, PdbCommand, SolveArgs};
use super::ops::{
    Databases, build_and_save, choice, disagreement, file_name, load, place, required_dir,
    solve_verified, temporary_files,
};
use crate::batch::{self, Job};
use crate::format::{plural, progress, table, thousands};
use crate::outcome::Reported;
use crate::record::{Record, record, refused_unsolvable, write_line};
use anyhow::{Result, bail};
use clap::ValueEnum;
use ply_npuzzle::instances::bundled;
use ply_npuzzle::pdb::{PatternDatabase, Published};
use ply_npuzzle::{BoardError, Direction, Instance, PdbError, moves_to_string};
use ply_search::IdaReport;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::io::Write;
use std::time::Duration;

fn per_second(count: u64, elapsed: Duration) -> u64 {
    let secs = elapsed.as_secs_f64();
    if secs > 0.0 {
        (count as f64 / secs) as u64
    } else {
        0
    }
}

/// `ply npuzzle solve`: the course's report for each instance (`--json`: a record a line).
/// An instance that cannot be answered (unsolvable, or a budget ran out) is reported and the
/// others are still solved; the command then fails at the end.
pub(super) fn run_solve(args: &SolveArgs) -> Result<()> {
    // An interrupt stops the search in hand, whose report (with the bound it proved) is
    // printed like any other before the command ends.
    let interrupt = crate::signals::interrupt_flag()?;
    let limits = args.budget.limits()?.with_stop(interrupt.clone());
    let choice = choice(args.search.heuristic);
    let mut databases = Databases::new(&args.search.pdb)?;
    let mut failures = Vec::new();
    let mut first = true;
    let mut solved = Vec::new();
    for path in &args.files {
        let file = file_name(path);
        for instance in load(path)? {
            let answer = if instance.board.is_solvable() {
                let chosen = databases.prepare(choice, instance.board.width())?;
                let heuristic = databases.heuristic(&chosen);
                let report = solve_verified(
                    &instance,
                    heuristic,
                    &limits,
                    args.search.threads,
                    args.search.plan(&heuristic),
                )?;
                Some((report, heuristic.name()))
            } else {
                None
            };
            if args.json {
                write_record(&file, &instance, answer.as_ref())?;
            } else {
                let report = answer.as_ref().map(|(report, _)| report);
                write_course_report(&instance, report, args.moves, first)?;
            }
            first = false;
            let Some((report, _)) = &answer else {
                failures.push(format!(
                    "{}: {}",
                    place(&file, &instance),
                    BoardError::Unsolvable
                ));
                continue;
            };
            if let Some(why) = report.stopped {
                failures.push(format!("gave up on {}: {why}", place(&file, &instance)));
            }
            if let (Some(moves), true) = (report.moves(), args.svg.is_some()) {
                solved.push(super::picture::Solved {
                    name: place(&file, &instance),
                    board: instance.board,
                    moves: moves.to_vec(),
                });
            }
            if interrupt.is_stopped() {
                return Err(crate::outcome::interrupted(format!(
                    "interrupted while solving {}",
                    place(&file, &instance)
                )));
            }
            if let Some(why) = disagreement(&instance, report) {
                errln!("ply: warning: {}: {why}", place(&file, &instance));
            }
        }
    }
    if let Some(svg) = &args.svg {
        super::picture::save(svg, &solved)?;
    }
    if failures.is_empty() {
        Ok(())
    } else {
        for line in failures {
            errln!("ply: error: {line}");
        }
        Err(Reported.into())
    }
}

/// The course's report of one instance on standard output: the board, the initial estimate,
/// every threshold, the solution's length (or why there is none), the counts and the time;
/// `moves` adds the moves. `None` for a board refused as unsolvable.
fn write_course_report(
    instance: &Instance,
    report: Option<&IdaReport<Direction>>,
    moves: bool,
    first: bool,
) -> Result<()> {
    let mut out = std::io::stdout().lock();
    if !first {
        writeln!(out)?;
    }
    writeln!(out, "Initial State:\n{}", instance.board)?;
    let Some(report) = report else {
        writeln!(out, "Solution = none (unsolvable)")?;
        out.flush()?;
        return Ok(());
    };
    writeln!(out, "Initial Estimate = {}", report.initial_bound)?;
    let thresholds: Vec<String> = report.extra.thresholds.iter().map(u32::to_string).collect();
    writeln!(out, "Threshold = {}", thresholds.join(" "))?;
    match (report.cost(), report.stopped) {
        (Some(cost), None) => writeln!(out, "Solution = {cost}")?,
        (None, Some(why)) => writeln!(
            out,
            "Solution = unknown ({why}; optimal >= {})",
            report.lower_bound
        )?,
        _ => bail!("internal error: solvable board without a solution"),
    }
    writeln!(out, "Generated = {}", thousands(report.generated))?;
    writeln!(out, "Expanded = {}", thousands(report.expanded))?;
    writeln!(out, "Time (seconds) = {:.2}", report.elapsed.as_secs_f64())?;
    writeln!(
        out,
        "Expanded/Second = {}",
        thousands(per_second(report.expanded, report.elapsed))
    )?;
    if let (Some(path), true) = (report.moves(), moves) {
        writeln!(out, "Moves = {}", moves_to_string(path))?;
    }
    out.flush()?;
    Ok(())
}

/// One instance's record of `solve --json`: where it is, the report in the words of
/// `ply_games.npuzzle.Solution` (its thresholds and heuristic too), as one line.
fn write_record(
    file: &str,
    instance: &Instance,
    answer: Option<&(IdaReport<Direction>, String)>,
) -> Result<()> {
    #[derive(Serialize)]
    struct SolveLine<'a> {
        file: &'a str,
        line: usize,
        id: Option<Id>,
        #[serde(flatten)]
        record: Record,
        thresholds: Option<&'a [u32]>,
        heuristic: Option<&'a str>,
    }
    let record = match answer {
        Some((report, _)) => record(report, |moves| json!(moves_to_string(moves))),
        None => refused_unsolvable(),
    };
    write_line(&SolveLine {
        file,
        line: instance.line,
        id: instance.id.as_deref().map(Id::of),
        record,
        thresholds: answer.map(|(report, _)| &report.extra.thresholds[..]),
        heuristic: answer.map(|(_, name)| name.as_str()),
    })
}

/// An instance's id in JSON: a number when it is one (as in Korf's sets), else the text.
#[derive(Serialize, Deserialize, Debug)]
#[serde(untagged)]
enum Id {
    /// A numeric id, written as it reads.
    Number(u64),
    /// Any other id.
    Text(String),
}

impl Id {
    fn of(id: &str) -> Id {
        match id.parse::<u64>() {
            Ok(n) if n.to_string() == id => Id::Number(n),
            _ => Id::Text(id.to_string()),
        }
    }
}

/// One bench row, also the JSON record.
#[derive(Serialize, Deserialize, Debug)]
struct BenchRow {
    /// The set's id (`null` for a plain line).
    id: Option<Id>,
    /// The instance's line in its file.
    line: usize,
    /// The answer, in the words of `solve --json` and Python.
    #[serde(flatten)]
    record: Record,
    /// The file's optimum, if it gives one.
    known_optimum: Option<u32>,
    /// `initial_bound` under its old name, kept for one release.
    h0: Option<u32>,
    /// `cost` of a proven answer under its old name, kept for one release.
    optimal: Option<u32>,
    /// `known_optimum` under its old name, kept for one release.
    known_optimal: Option<u32>,
}

/// One instance's result, as the log holds it: its row, and what the table and the messages
/// after it need.
#[derive(Serialize, Deserialize, Debug)]
pub(crate) struct BenchItem {
    /// The instance's name in the table.
    label: String,
    /// The heuristic that solved it (`None` for an unsolvable board).
    heuristic: Option<String>,
    /// What is wrong with it, for the message after the table.
    problem: Option<String>,
    /// The row.
    row: BenchRow,
}

/// Bench totals.
#[derive(Serialize, Debug)]
struct BenchTotals {
    instances: usize,
    solved: usize,
    generated: u64,
    expanded: u64,
    seconds: f64,
    generated_per_second: u64,
}

/// The bench JSON document.
#[derive(Serialize, Debug)]
struct BenchJson<'a> {
    heuristic: &'a str,
    rows: Vec<&'a BenchRow>,
    totals: &'a BenchTotals,
}

/// `ply npuzzle bench` as a batch: its items are the instances, in file order.
pub(crate) struct BenchJob;

impl Job for BenchJob {
    type Item = BenchItem;
    const COMMAND: &'static str = "npuzzle bench";
    const NOUN: &'static str = "instance";

    fn report(
        _work: &Map<String, Value>,
        items: &[BenchItem],
        json: bool,
        out: &mut dyn Write,
    ) -> Result<Vec<String>> {
        bench_report(items, json, out)
    }
}

/// The arguments that define a bench's work.
fn bench_work(args: &BenchArgs) -> Result<Map<String, Value>> {
    let heuristic = args
        .search
        .heuristic
        .and_then(|h| h.to_possible_value())
        .map(|v| v.get_name().to_string());
    let mut work = Map::new();
    work.insert(
        "file".into(),
        json!(args.file.as_ref().map(|f| f.display().to_string())),
    );
    work.insert("first".into(), json!(args.first));
    work.insert("heuristic".into(), json!(heuristic));
    work.insert("no_reflection".into(), json!(args.search.pdb.no_reflection));
    work.insert("fsm_depth".into(), json!(args.search.fsm_depth));
    // Only when asked for, so that the logs of IDA* alone written before still resume.
    if args.search.astar_states > 0 {
        work.insert("astar_states".into(), json!(args.search.astar_states));
    }
    work.extend(args.budget.work());
    work.insert(
        batch::digest::KEY.into(),
        batch::digest::of_inputs(args.file.as_deref())?,
    );
    Ok(work)
}

/// `ply npuzzle bench`: an instance set as a table with totals. Every instance is solved and
/// shown; those not solved, and optima that disagree with the file's, are errors named after
/// the table.
pub(super) fn run_bench(args: &BenchArgs) -> Result<()> {
    let limits = args.budget.limits()?;
    let choice = choice(args.search.heuristic);
    let (file, mut instances): (String, Vec<Instance>) = match &args.file {
        Some(path) => (file_name(path), load(path)?),
        None => ("korf100".to_string(), bundled::korf100()),
    };
    if let Some(n) = args.first {
        instances.truncate(usize::try_from(n).unwrap_or(usize::MAX));
    }
    let Some(mut session) =
        batch::start::<BenchJob>(bench_work(args)?, instances.len() as u64, &args.batch)?
    else {
        return Ok(());
    };
    let mut databases = Databases::new(&args.search.pdb)?;
    let pending: Vec<usize> = session.pending().map(|i| i as usize).collect();
    // The databases (and their notes, or builds with their own progress) before the bar.
    let mut widths: Vec<usize> = pending
        .iter()
        .map(|&i| instances[i].board.width())
        .collect();
    widths.sort_unstable();
    widths.dedup();
    for &width in &widths {
        databases.prepare(choice, width)?;
    }
    let bar = progress(pending.len() as u64, "npuzzle bench");
    for index in pending {
        let instance = &instances[index];
        bar.set_message(format!("instance {}", instance.label()));
        let mut item = BenchItem {
            label: instance.label(),
            heuristic: None,
            problem: None,
            row: BenchRow {
                id: instance.id.as_deref().map(Id::of),
                line: instance.line,
                record: refused_unsolvable(),
                known_optimum: instance.optimal,
                h0: None,
                optimal: None,
                known_optimal: instance.optimal,
            },
        };
        if instance.board.is_solvable() {
            let chosen = databases.prepare(choice, instance.board.width())?;
            let heuristic = databases.heuristic(&chosen);
            let plan = args.search.plan(&heuristic);
            let mut name = heuristic.name();
            if plan.fsm.depth() > 2 {
                name = format!("{name} + fsm {}", plan.fsm.depth());
            }
            if plan.top_states > 0 {
                name = format!("{name} + A* {}", plan.top_states);
            }
            item.heuristic = Some(name);
            let report = solve_verified(instance, heuristic, &limits, args.search.threads, plan)?;
            item.problem = disagreement(instance, &report)
                .map(|why| format!("{}: {why}", place(&file, instance)));
            item.row.record = record(&report, |moves| json!(moves_to_string(moves)));
            item.row.h0 = Some(report.initial_bound);
            item.row.optimal = report.cost().filter(|_| report.proven());
        } else {
            item.problem = Some(format!(
                "{}: {}",
                place(&file, instance),
                BoardError::Unsolvable
            ));
        }
        session.record_or_fail(index as u64, item)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    if let Some(svg) = &args.svg {
        let bars: Vec<(String, u64)> = session
            .results()
            .map(|item| {
                let label = item
                    .label
                    .strip_prefix('#')
                    .unwrap_or(&item.label)
                    .to_string();
                (label, item.row.record.generated)
            })
            .collect();
        crate::picture::log_bars(
            &format!("{file}: nodes generated per instance"),
            "instance (in the set's order); generated nodes on a log scale",
            &bars,
        )
        .save(svg)?;
    }
    session.finish(args.json)
}

/// The bench's table (or JSON) of `items`, and its problems: those of the instances, then
/// how many it gave up on.
fn bench_report(items: &[BenchItem], json: bool, out: &mut dyn Write) -> Result<Vec<String>> {
    let rows: Vec<&BenchRow> = items.iter().map(|item| &item.row).collect();
    let mut names: Vec<&str> = Vec::new();
    for name in items.iter().filter_map(|item| item.heuristic.as_deref()) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    let seconds: f64 = rows.iter().map(|r| r.record.seconds).sum();
    let generated: u64 = rows.iter().map(|r| r.record.generated).sum();
    let totals = BenchTotals {
        instances: rows.len(),
        solved: rows.iter().filter(|r| r.optimal.is_some()).count(),
        generated,
        expanded: rows.iter().map(|r| r.record.expanded).sum(),
        seconds,
        generated_per_second: per_second(generated, Duration::from_secs_f64(seconds)),
    };
    let heuristic = names.join(", ");
    if json {
        let doc = BenchJson {
            heuristic: &heuristic,
            rows: rows.clone(),
            totals: &totals,
        };
        serde_json::to_writer_pretty(&mut *out, &doc)?;
        writeln!(out)?;
    } else {
        let mut table = table(["id", "h0", "optimal", "generated", "expanded", "seconds"]);
        for item in items {
            let r = &item.row;
            let optimal = match r.optimal {
                Some(cost) => cost.to_string(),
                None if r.record.unsolvable => "unsolvable".into(),
                None => "gave up".into(),
            };
            table.add_row([
                item.label.clone(),
                r.h0.map_or_else(String::new, |h| h.to_string()),
                optimal,
                thousands(r.record.generated),
                thousands(r.record.expanded),
                format!("{:.3}", r.record.seconds),
            ]);
        }
        table.add_row([
            "total".to_string(),
            String::new(),
            format!("{}/{} solved", totals.solved, totals.instances),
            thousands(totals.generated),
            thousands(totals.expanded),
            format!("{:.3}", totals.seconds),
        ]);
        writeln!(out, "heuristic: {heuristic}")?;
        writeln!(out, "{table}")?;
        writeln!(
            out,
            "generated per second: {}",
            thousands(totals.generated_per_second)
        )?;
    }
    let mut problems: Vec<String> = items.iter().filter_map(|i| i.problem.clone()).collect();
    // A row is checked on its own as well as by its recorded problem, which a hand-edited
    // log could leave out: an optimum below the row's admissible bound, or unlike the file's.
    for item in items.iter().filter(|i| i.problem.is_none()) {
        let r = &item.row;
        if let (Some(optimal), Some(h0)) = (r.optimal, r.h0)
            && optimal < h0
        {
            problems.push(format!(
                "{}: the row's optimum {optimal} is below its lower bound {h0} (an edited log?)",
                item.label
            ));
        }
        if let (Some(optimal), Some(known)) = (r.optimal, r.known_optimal)
            && optimal != known
        {
            problems.push(format!(
                "{}: the row's optimum {optimal} is not the file's {known}, and the row \
                     names no problem (an edited log?)",
                item.label
            ));
        }
    }
    let gave_up = rows
        .iter()
        .filter(|r| r.optimal.is_none() && !r.record.unsolvable)
        .count();
    if gave_up > 0 {
        problems.push(format!(
            "gave up on {} of {}",
            gave_up,
            plural(totals.instances as u64, "instance")
        ));
    }
    Ok(problems)
}

/// Runs a `ply npuzzle pdb` verb.
pub(super) fn run_pdb(cmd: PdbCommand) -> Result<()> {
    match cmd {
        PdbCommand::Build(args) => {
            let path = required_dir(args.pdb_dir.as_deref())?
                .join(args.partition.0.partition().file_name());
            PatternDatabase::check_writable(&path)?;
            if !args.force {
                match PatternDatabase::load(&path, &args.partition.0.partition()) {
                    Ok(_) => {
                        errln!(
                            "ply: {} is already built and sound (--force rebuilds it)",
                            path.display()
                        );
                        outln!("{}", path.display())?;
                        return Ok(());
                    }
                    Err(PdbError::Missing { .. }) => {}
                    Err(e) => errln!("ply: warning: {e}; rebuilding it"),
                }
            }
            build_and_save(args.partition.0, &path)?;
            outln!("{}", path.display())?;
            Ok(())
        }
        PdbCommand::List(args) => {
            let dir = required_dir(args.pdb_dir.as_deref())?;
            let mut out = std::io::stdout().lock();
            let mut t = table(["puzzle", "partition", "entries", "file", "status"]);
            for p in Published::ALL {
                let partition = p.partition();
                let path = dir.join(partition.file_name());
                let status = match PatternDatabase::load(&path, &partition) {
                    Ok(db) => format!("ok, {} MiB", db.data().len().div_ceil(1 << 20)),
                    Err(PdbError::Missing { .. }) => "missing".to_string(),
                    Err(PdbError::Corrupt { why, .. }) => format!("unusable: {why}"),
                    Err(e) => format!("unusable: {e}"),
                };
                let w = partition.width();
                t.add_row([
                    format!("{w}x{w}"),
                    p.name().to_string(),
                    thousands(partition.entries()),
                    partition.file_name(),
                    status,
                ]);
            }
            writeln!(out, "directory: {}", dir.display())?;
            writeln!(out, "{t}")?;
            let (stale, live) = temporary_files(&dir);
            for path in stale {
                writeln!(
                    out,
                    "left by an interrupted build: {} ({}); the next `ply npuzzle pdb build` \
                     removes it",
                    file_of(&path),
                    size_of(&path)
                )?;
            }
            for (path, pid) in live {
                writeln!(
                    out,
                    "being written by process {pid}: {} ({} so far)",
                    file_of(&path),
                    size_of(&path)
                )?;
            }
            Ok(())
        }
    }
}

/// The last part of a path, for a listing of one directory.
fn file_of(path: &std::path::Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

/// A file's size in MiB (rounded up), or `?` when it cannot be read.
fn size_of(path: &std::path::Path) -> String {
    std::fs::metadata(path).map_or_else(
        |_| "?".to_string(),
        |meta| format!("{} MiB", meta.len().div_ceil(1 << 20)),
    )
}
