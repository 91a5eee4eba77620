//! `ply ewn openings`: proves who wins the duel's starts, checks and summarises the proofs.

use super::args::{OpeningsProveArgs, OpeningsSummaryArgs, OpeningsVerifyArgs};
use super::ops::{dice_lines, positive_seconds};
use crate::batch::{self, Job};
use crate::format::{plural, progress, read_input, table, thousands};
use crate::signals::interrupt_flag;
use anyhow::{Context, Result, bail};
use ply_ewn::duel::openings::{
    self, Check, LineSummary, LogError, OpeningItem, OpeningProver, OpeningRecord, OpeningsTally,
    PROVE_COMMAND, SECOND_PROVER_BITS, STARTS, SecondProver, check_count, checks_drawn,
    prove_checked, reproofs_drawn, reprove, sample, start_index,
};
use ply_ewn::duel::prover::Verifier;
use ply_ewn::duel::{DICE, Prover, parse_dice_file};
use ply_search::messages::short_number;
use ply_search::{Limits, StopFlag};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::io::Write;

/// The starts of `--starts FILE`: permutation pairs or start numbers, one a line (blank
/// lines and `#` comments skipped).
fn listed_starts(path: &str) -> Result<Vec<u32>> {
    let text = read_input(path)?;
    let mut out = Vec::new();
    // The line of each start listed, so that one listed twice (proven and counted twice
    // otherwise) is named with both lines.
    let mut listed: std::collections::HashMap<u32, usize> = std::collections::HashMap::new();
    for (number, raw) in text.lines().enumerate() {
        let line = raw.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let parsed = match fields.as_slice() {
            [n] => n.parse::<u32>().ok().filter(|&n| n < STARTS),
            [red, blue] => {
                let perm = |t: &str| -> Option<[u8; 6]> {
                    let digits: Vec<u8> =
                        t.bytes().map(|b| b.wrapping_sub(b'0')).collect::<Vec<_>>();
                    digits.try_into().ok()
                };
                perm(red)
                    .zip(perm(blue))
                    .and_then(|(r, b)| start_index(&r, &b))
            }
            _ => None,
        };
        match parsed {
            Some(n) => {
                if let Some(first) = listed.insert(n, number + 1) {
                    bail!(
                        "{path}:{}: start {n} is listed already, on line {first}",
                        number + 1
                    );
                }
                out.push(n);
            }
            None => bail!(
                "{path}:{}: '{line}' is neither a start number (0-{}) nor two permutations \
                 of 0-5 (red's and blue's, as in '012345 543210')",
                number + 1,
                STARTS - 1
            ),
        }
    }
    if out.is_empty() {
        bail!("{path} lists no start");
    }
    Ok(out)
}

/// The dice lines of `--dice` or `--dice-file`, else the course's.
fn chosen_dice(args: &OpeningsProveArgs) -> Result<Vec<[u8; DICE]>> {
    match &args.dice {
        Some(line) => {
            let dice = parse_dice_file(line)
                .map_err(|e| crate::outcome::usage(format!("--dice '{line}': {e}")))?;
            if dice.len() != 1 {
                return Err(crate::outcome::usage(
                    "--dice takes one line of 21 digits (use --dice-file for several)",
                ));
            }
            Ok(dice)
        }
        None => {
            let dice = dice_lines(args.dice_file.as_ref())?;
            for (i, line) in dice.iter().enumerate() {
                if let Some(first) = dice[..i].iter().position(|d| d == line) {
                    bail!(
                        "{}: dice line {} is dice line {} again (each line is proven once)",
                        args.dice_file.as_deref().unwrap_or("the dice"),
                        i + 1,
                        first + 1
                    );
                }
            }
            Ok(dice)
        }
    }
}

/// The second prover's tally.
#[derive(Debug, Default, Serialize)]
struct Checked {
    /// Winning lines replayed.
    lines: u64,
    /// Certificates made and checked (the prover's) or checked (`verify`).
    certified: u64,
    /// Starts drawn for the second prover.
    drawn: u64,
    /// Of those, proven again with the same winner.
    confirmed: u64,
    /// Of those, open in the record (nothing to confirm).
    open: u64,
    /// Of those, not decided by the second prover within its budget.
    undecided: u64,
}

impl Checked {
    /// Counts what the second prover found of a start.
    fn add(&mut self, check: Check) {
        self.drawn += 1;
        match check {
            Check::Confirmed => self.confirmed += 1,
            Check::Undecided => self.undecided += 1,
            Check::Open => self.open += 1,
        }
    }

    /// Counts a start of the log: its line, and its check if it was drawn.
    fn add_item(&mut self, item: &OpeningItem) {
        self.lines += u64::from(item.record.winner.is_some());
        self.certified += u64::from(item.record.certificate.is_some());
        if let Some(check) = item.check {
            self.add(check);
        }
    }

    /// What `verify` checked of a log: its certificates, of strategies with `sizes` positions
    /// of the winner each, and of its `proven` proven records without one, of which `planned`
    /// were for the second prover (drawn with `seed` when not all), how many it re-proved,
    /// and that the rest were not.
    fn describe_verified(&self, proven: u64, planned: u64, seed: u64, sizes: &mut [u64]) -> String {
        let lines = format!(
            "{} replayed against the rules (a line shows a legal game, not who wins){}",
            plural(self.lines, "winning line"),
            certificates_checked(sizes)
        );
        if proven == 0 && !sizes.is_empty() {
            return format!("{lines}; every proven claim certified");
        }
        if proven == 0 {
            return format!("{lines}; no proven claim to re-prove");
        }
        // With certificates, the claims left to the second prover are those without one.
        let what = if sizes.is_empty() {
            "proven claim"
        } else {
            "uncertified proven claim"
        };
        if self.drawn == 0 && planned == 0 {
            return format!(
                "{lines}; none of the {} {what}s re-proven (--sample 0)",
                thousands(proven)
            );
        }
        let outcome = format!(
            "{} re-proven, {} undecided within its budget",
            thousands(self.confirmed),
            thousands(self.undecided)
        );
        if self.drawn == proven {
            return format!(
                "{lines}; every {what} ({}) given to the second prover: {outcome}",
                thousands(proven)
            );
        }
        let how = if planned < proven {
            format!(", drawn at random (seed {seed}),")
        } else {
            String::new()
        };
        let hint = if planned < proven {
            format!(" (--sample {proven} re-proves every one)")
        } else {
            String::new()
        };
        format!(
            "{lines}; {} of the {} {what}s{how} given to the second prover: {outcome}; \
             the other {} not re-proven{hint}",
            thousands(self.drawn),
            thousands(proven),
            thousands(proven - self.drawn)
        )
    }

    fn describe(&self) -> String {
        let certified = if self.certified > 0 {
            format!(
                ", {} made and checked with the rules alone",
                plural(self.certified, "certificate")
            )
        } else {
            String::new()
        };
        format!(
            "{} replayed against the rules{certified}; {} of {} drawn proven again by the \
             second prover ({} undecided within its budget, {} open)",
            plural(self.lines, "winning line"),
            thousands(self.confirmed),
            plural(self.drawn, "start"),
            thousands(self.undecided),
            thousands(self.open)
        )
    }
}

/// The summary tables, one row per dice line, and the hardest starts.
fn summary_text(summaries: &[LineSummary]) -> String {
    let mut t = table([
        "dice",
        "starts",
        "red (first mover)",
        "blue",
        "open",
        "plies: median, max",
        "seconds: median, p99, max",
        "nodes: median",
    ]);
    let share = |n: u32, of: u32| format!("{n} ({:.1}%)", 100.0 * f64::from(n) / f64::from(of));
    for s in summaries {
        t.add_row(vec![
            s.dice.clone(),
            thousands(u64::from(s.starts)),
            share(s.red, s.starts),
            share(s.blue, s.starts),
            s.open.to_string(),
            format!("{}, {}", s.plies.0, s.plies.1),
            format!("{:.3}, {:.3}, {:.3}", s.seconds.0, s.seconds.1, s.seconds.2),
            thousands(s.nodes.0),
        ]);
    }
    let mut out = t.to_string();
    for s in summaries {
        let hardest: Vec<String> = s
            .hardest
            .iter()
            .map(|(start, nodes)| format!("{start} ({} nodes)", thousands(*nodes)))
            .collect();
        if !hardest.is_empty() {
            out.push_str(&format!(
                "\n{}: hardest starts {}",
                s.dice,
                hardest.join(", ")
            ));
        }
    }
    out
}

/// The JSON summary.
#[derive(Serialize)]
struct JsonSummary<'a> {
    lines: &'a [LineSummary],
    checked: &'a Checked,
}

/// Writes the summary (and the checks) as a table or JSON.
fn write_summary(
    out: &mut dyn Write,
    summaries: &[LineSummary],
    checked: &Checked,
    json: bool,
) -> Result<()> {
    if json {
        let report = JsonSummary {
            lines: summaries,
            checked,
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        writeln!(out, "{}", summary_text(summaries))?;
        writeln!(out, "{}", checked.describe())?;
    }
    Ok(())
}

/// `ply ewn openings prove` as a batch: its items are the starts of each dice line in turn
/// (item `i` is start `i mod S` of the list of S starts, on dice line `i / S`).
pub(crate) struct OpeningsJob;

impl Job for OpeningsJob {
    type Item = OpeningItem;
    const COMMAND: &'static str = PROVE_COMMAND;
    const NOUN: &'static str = "start";

    fn report(
        _work: &Map<String, Value>,
        items: &[OpeningItem],
        json: bool,
        out: &mut dyn Write,
    ) -> Result<Vec<String>> {
        let mut tally = OpeningsTally::default();
        let mut checked = Checked::default();
        for item in items {
            tally.add(&item.record);
            checked.add_item(item);
        }
        write_summary(out, &tally.summaries(), &checked, json)?;
        // A disagreement of the provers stops the run; an open start is no failure.
        Ok(Vec::new())
    }
}

/// The starts as a log's header names them: `"all"`, the sample's size and seed, or the
/// listed starts' number and a digest of the list (which can be too long for a header).
fn starts_work(args: &OpeningsProveArgs, starts: &[u32]) -> Value {
    match (&args.starts, args.sample) {
        (Some(_), _) => {
            // FNV-1a over the start numbers.
            let digest = starts.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &n| {
                n.to_le_bytes()
                    .iter()
                    .fold(h, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
            });
            json!({"listed": starts.len(), "digest": format!("{digest:016x}")})
        }
        (None, Some(n)) => json!({"sample": n, "seed": args.seed}),
        (None, None) => json!("all"),
    }
}

/// The bytes of the prover's table, `--memory` MiB, checked.
fn table_bytes(memory: u64) -> Result<usize> {
    if memory == 0 {
        return Err(crate::outcome::usage("--memory must be at least 1 MiB"));
    }
    memory
        .checked_mul(1 << 20)
        .and_then(|bytes| usize::try_from(bytes).ok())
        .ok_or_else(|| {
            crate::outcome::usage(format!(
                "--memory {} MiB is more bytes than this machine can address",
                thousands(memory)
            ))
        })
}

/// The starts of each dice line to prove: `--starts FILE`, a `--sample` of them, or all.
fn chosen_starts(args: &OpeningsProveArgs) -> Result<Vec<u32>> {
    match (&args.starts, args.sample) {
        (Some(path), _) => listed_starts(path),
        (None, Some(0)) => Err(crate::outcome::usage("--sample must be at least 1")),
        (None, Some(n)) if n > STARTS => Err(crate::outcome::usage(format!(
            "--sample {} is more than the {} starts of a dice line (leave --sample out for all \
             of them)",
            thousands(u64::from(n)),
            thousands(u64::from(STARTS))
        ))),
        (None, Some(n)) => Ok(sample(n, args.seed)),
        (None, None) => Ok((0..STARTS).collect()),
    }
}

/// The batch's work: everything that can change a start's record, not the output's form or
/// the log.
fn prove_work(
    args: &OpeningsProveArgs,
    dice: &[[u8; DICE]],
    starts: &[u32],
    check_total: u64,
) -> Map<String, Value> {
    let mut work = Map::new();
    let lines: Vec<String> = dice
        .iter()
        .map(|d| d.iter().map(|x| char::from(b'0' + x)).collect())
        .collect();
    work.insert("dice".into(), json!(lines));
    work.insert("starts".into(), starts_work(args, starts));
    work.insert("budget".into(), json!(args.budget));
    work.insert("max_nodes".into(), json!(args.max_nodes));
    work.insert("memory".into(), json!(args.memory));
    work.insert("verify".into(), json!(check_total));
    work.insert("verify_budget".into(), json!(args.verify_budget));
    work.insert("seed".into(), json!(args.seed));
    // Only when asked, so that the logs of earlier releases resume as they were.
    if args.certify {
        work.insert("certify".into(), json!(true));
    }
    work
}

/// Runs `ply ewn openings prove`.
pub(super) fn run_prove(args: &OpeningsProveArgs) -> Result<()> {
    let budget = positive_seconds(args.budget, "--budget")?;
    let verify_budget = positive_seconds(args.verify_budget, "--verify-budget")?;
    let bytes = table_bytes(args.memory)?;
    if args.max_nodes == Some(0) {
        return Err(crate::outcome::usage("--max-nodes must be at least 1"));
    }
    let dice = chosen_dice(args)?;
    let starts = chosen_starts(args)?;
    let items = dice.len() as u64 * starts.len() as u64;
    let check_total = check_count(args.verify.map(u64::from), items);
    let checks = checks_drawn(items, check_total, args.seed);
    let work = prove_work(args, &dice, &starts, check_total);
    // The table first: a size the system refuses is an error before any log is written.
    let stop = interrupt_flag()?;
    let prover = Prover::try_within(bytes).map_err(|_| {
        anyhow::anyhow!(
            "cannot allocate {} MiB for the proof table (--memory)",
            thousands(args.memory)
        )
    })?;
    let mut prover = OpeningProver::new(prover);
    if args.certify {
        prover = prover.with_certificates();
    }
    let Some(mut session) = batch::start::<OpeningsJob>(work, items, &args.batch)? else {
        return Ok(());
    };
    let logged = args.batch.log.is_some();
    // An interrupt stops the proof or check under way (through the limits' flag).
    let interrupt = stop.clone();
    let mut limits = Limits::default()
        .with_max_time(budget)
        .with_stop(interrupt.clone());
    if let Some(nodes) = args.max_nodes {
        limits = limits.with_max_nodes(nodes);
    }
    let verify_limits = Limits::default()
        .with_max_time(verify_budget)
        .with_stop(interrupt);
    let mut verifier = (!checks.is_empty()).then(|| Verifier::new(SECOND_PROVER_BITS));
    let pending: Vec<u64> = session.pending().collect();
    let bar = progress(pending.len() as u64, "ewn openings prove");
    let per_line = starts.len() as u64;
    let mut interrupted = false;
    for at in pending {
        let line = &dice[(at / per_line) as usize];
        let index = starts[(at % per_line) as usize];
        let second = checks.contains(&at).then(|| SecondProver {
            verifier: verifier.as_mut().expect("a verifier when checks are drawn"),
            limits: &verify_limits,
        });
        let item = prove_checked(&mut prover, line, index, &limits, second)?;
        // A proof or check cut short is no verdict: the start is not recorded, and runs again.
        if stop.is_stopped() {
            interrupted = true;
            break;
        }
        if !logged {
            outln!("{}", serde_json::to_string(&item)?)?;
        }
        session.record_or_fail(at, item)?;
        bar.inc(1);
    }
    bar.finish_and_clear();
    let done = session.results().count();
    let shard_items = session.shard().items(items).count();
    if logged {
        session.finish(args.json)?;
    } else {
        // Standard output holds the records only.
        let results: Vec<OpeningItem> = session.results().cloned().collect();
        let mut text = Vec::new();
        OpeningsJob::report(session.work(), &results, args.json, &mut text)?;
        errprint!("{}", String::from_utf8_lossy(&text));
    }
    if interrupted {
        let kept = match &args.batch.log {
            Some(log) => format!("every start finished is in {log}, and --resume goes on from it"),
            None => "the starts finished were printed; --log FILE keeps them for --resume".into(),
        };
        return Err(crate::outcome::interrupted(format!(
            "interrupted after {} of {}; {kept}",
            crate::format::plural(done as u64, "start"),
            thousands(shard_items as u64)
        )));
    }
    Ok(())
}

/// The records of the log at `path` (`-`: standard input), each with its line number: ply-ewn's
/// one reader of the prover's logs, its errors naming the file.
fn read_log(path: &str) -> Result<Vec<(usize, OpeningRecord)>> {
    let text = read_input(path)?;
    openings::read_log(&text).map_err(|e| match e {
        LogError::Line { line, problem } => anyhow::anyhow!("{path}:{line}: {problem}"),
        LogError::Empty => anyhow::anyhow!("{path} holds no record"),
    })
}

/// Checks the certificates of `records` (from the log at `path`) with the rules alone, on all
/// cores (each is independent, and a large one takes a fraction of a second), and returns the
/// winner's positions of each; the first failure in the log's order is the error.
fn check_certificates(
    path: &str,
    records: &[(usize, OpeningRecord)],
    stop: &StopFlag,
) -> Result<Vec<u64>> {
    let certified: Vec<&(usize, OpeningRecord)> = records
        .iter()
        .filter(|(_, r)| r.certificate.is_some())
        .collect();
    if certified.is_empty() {
        return Ok(Vec::new());
    }
    let bar = progress(certified.len() as u64, "ewn openings verify: certificates");
    let results: Vec<_> = certified
        .par_iter()
        .map(|(_, record)| {
            if stop.is_stopped() {
                return Ok(None);
            }
            let result = record.check_certificate();
            bar.inc(1);
            result
        })
        .collect();
    bar.finish_and_clear();
    if stop.is_stopped() {
        return Err(crate::outcome::interrupted(
            "interrupted while checking the certificates",
        ));
    }
    let mut sizes = Vec::with_capacity(results.len());
    for ((number, record), result) in certified.iter().zip(results) {
        let size = result.with_context(|| format!("{path}:{number}: {}", record.label()))?;
        sizes.extend(size.map(|s| s.winner_positions));
    }
    Ok(sizes)
}

/// Runs `ply ewn openings verify`.
///
/// A replayed line shows only that the game it records is legal and ends as it says; any
/// legal game won by the claimed winner would pass. Who wins is checked by the record's
/// certificate where it has one (with the rules alone, every one), else by the second prover,
/// on proven records only (an open record claims nothing), drawn at random.
pub(super) fn run_verify(args: &OpeningsVerifyArgs) -> Result<()> {
    let budget = positive_seconds(args.budget, "--budget")?;
    let records = read_log(&args.log)?;
    let mut checked = Checked::default();
    for (number, record) in &records {
        record
            .check_line()
            .with_context(|| format!("{}:{number}: {}", args.log, record.label()))?;
        checked.lines += u64::from(record.winner.is_some());
    }
    let stop = interrupt_flag()?;
    let mut sizes = check_certificates(&args.log, &records, &stop)?;
    checked.certified = sizes.len() as u64;
    let items = records.len() as u64;
    let all_proven = records.iter().filter(|r| r.1.winner.is_some()).count() as u64;
    // A certified claim is checked; the others can only be proven again.
    let proven: Vec<usize> = (0..records.len())
        .filter(|&i| records[i].1.winner.is_some() && records[i].1.certificate.is_none())
        .collect();
    let picks = reproofs_drawn(proven.len() as u64, args.sample.map(u64::from), args.seed);
    let count = picks.len() as u64;
    let mut verifier = Verifier::new(SECOND_PROVER_BITS);
    let limits = Limits::default()
        .with_max_time(budget)
        .with_stop(stop.clone());
    let bar = progress(picks.len() as u64, "ewn openings verify");
    for pick in picks {
        let (number, record) = &records[proven[pick as usize]];
        let check = reprove(record, &mut verifier, &limits)
            .with_context(|| format!("{}:{number}: {}", args.log, record.label()))?;
        if stop.is_stopped() {
            bar.finish_and_clear();
            return Err(crate::outcome::interrupted(format!(
                "interrupted: {}",
                checked.describe_verified(proven.len() as u64, count, args.seed, &mut sizes)
            )));
        }
        checked.add(check);
        bar.inc(1);
    }
    bar.finish_and_clear();
    outln!(
        "{}: {} ({} proven, {} open); {}",
        args.log,
        plural(items, "record"),
        thousands(all_proven),
        thousands(items - all_proven),
        checked.describe_verified(proven.len() as u64, count, args.seed, &mut sizes)
    )?;
    if checked.undecided > 0 {
        errln!(
            "ply: note: {} drawn could not be decided by the second prover within {} s a \
             start; --budget gives it more",
            plural(checked.undecided, "claim"),
            short_number(args.budget)
        );
    }
    Ok(())
}

/// What `verify` says of the certificates it checked, of strategies with `sizes` positions of
/// the winner each (empty: nothing).
fn certificates_checked(sizes: &mut [u64]) -> String {
    if sizes.is_empty() {
        return String::new();
    }
    sizes.sort_unstable();
    format!(
        "; {} checked with the rules alone (the winner's positions: median {}, largest {})",
        plural(sizes.len() as u64, "certificate"),
        thousands(sizes[sizes.len() / 2]),
        thousands(sizes[sizes.len() - 1])
    )
}

/// Runs `ply ewn openings summary`.
pub(super) fn run_summary(args: &OpeningsSummaryArgs) -> Result<()> {
    let mut tally = OpeningsTally::default();
    let mut seen = HashSet::new();
    for path in &args.logs {
        for (number, record) in read_log(path)? {
            if !seen.insert((record.dice.clone(), record.start)) {
                bail!(
                    "{path}:{number}: {} is recorded twice (logs of overlapping runs?)",
                    record.label()
                );
            }
            // The start itself is checked, not the line (that is `verify`'s work).
            record
                .board()
                .with_context(|| format!("{path}:{number}: {}", record.label()))?;
            tally.add(&record);
        }
    }
    let summaries = tally.summaries();
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{}", serde_json::to_string_pretty(&summaries)?)?;
    } else {
        writeln!(out, "{}", summary_text(&summaries))?;
    }
    Ok(())
}
