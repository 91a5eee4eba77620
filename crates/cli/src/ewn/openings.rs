//! `ply ewn openings`: proves who wins the duel's starts, checks and summarises the proofs.

use super::args::{OpeningsProveArgs, OpeningsSummaryArgs, OpeningsVerifyArgs};
use super::ops::{dice_lines, positive_seconds};
use crate::format::{progress, read_input, table, thousands};
use crate::signals::interrupt_flag;
use anyhow::{Context, Result, bail};
use ply_ewn::duel::{
    DICE, LineSummary, OpeningProver, OpeningRecord, OpeningsTally, Prover, STARTS, Verifier, draw,
    parse_dice_file, sample, start_index, verify,
};
use ply_search::Limits;
use serde::Serialize;
use std::collections::HashSet;
use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// log2 of the verifier's table slots (16 bytes each): 64 MiB.
const VERIFIER_BITS: u32 = 22;

/// The starts of `--starts FILE`: permutation pairs or start numbers, one a line (blank
/// lines and `#` comments skipped).
fn listed_starts(path: &str) -> Result<Vec<u32>> {
    let text = read_input(path)?;
    let mut out = Vec::new();
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
            Some(n) => out.push(n),
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
        None => dice_lines(args.dice_file.as_ref()),
    }
}

/// How many of `items` to check: `requested`, else one in a hundred (at least one).
fn check_count(requested: Option<u32>, items: u64) -> u64 {
    requested.map_or((items / 100).max(1), u64::from).min(items)
}

/// Mixed into `--seed` for the checks' draw, so that it is another draw than the starts'.
const CHECK_SEED: u64 = 0x5eed_0f00_c4ec;

/// `count` distinct positions among `items`, drawn with `seed`.
fn drawn(items: u64, count: u64, seed: u64) -> HashSet<u64> {
    draw(items, count, seed ^ CHECK_SEED).into_iter().collect()
}

/// `dice 343...2, start 1234 (red 012345, blue 543210)`: how errors name a start.
fn named(record: &OpeningRecord) -> String {
    format!(
        "dice {}, start {} (red {}, blue {})",
        record.dice, record.start, record.red, record.blue
    )
}

/// The second prover's tally.
#[derive(Debug, Default, Serialize)]
struct Checked {
    /// Winning lines replayed.
    lines: u64,
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
    /// Proves `record` again; a disagreement is an error naming the start.
    fn reprove(
        &mut self,
        record: &OpeningRecord,
        verifier: &mut Verifier,
        limits: &Limits,
    ) -> Result<()> {
        self.drawn += 1;
        if record.winner.is_none() {
            self.open += 1;
            return Ok(());
        }
        match verify(record, verifier, limits) {
            Ok(true) => self.confirmed += 1,
            Ok(false) => self.undecided += 1,
            Err(e) => bail!("{}: {e}", named(record)),
        }
        Ok(())
    }

    fn describe(&self) -> String {
        format!(
            "{} winning lines replayed against the rules; {} of {} starts drawn proven again \
             by the second prover ({} undecided within its budget, {} open)",
            thousands(self.lines),
            thousands(self.confirmed),
            thousands(self.drawn),
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

/// A log file to create: refused if the path names something other than a regular file (a
/// directory, a device, a symbolic link).
fn create_log(path: &str) -> Result<std::io::BufWriter<std::fs::File>> {
    if let Ok(meta) = std::fs::symlink_metadata(path) {
        if !meta.file_type().is_file() {
            return Err(crate::outcome::usage(format!(
                "--log {path} exists and is not a regular file"
            )));
        }
    }
    let file = std::fs::File::create(path).with_context(|| format!("cannot create {path}"))?;
    Ok(std::io::BufWriter::new(file))
}

/// Runs `ply ewn openings prove`.
pub fn run_prove(args: &OpeningsProveArgs) -> Result<()> {
    let budget = positive_seconds(args.budget, "--budget")?;
    let verify_budget = positive_seconds(args.verify_budget, "--verify-budget")?;
    if args.memory == 0 {
        return Err(crate::outcome::usage("--memory must be at least 1 MiB"));
    }
    if args.max_nodes == Some(0) {
        return Err(crate::outcome::usage("--max-nodes must be at least 1"));
    }
    let dice = chosen_dice(args)?;
    let starts: Vec<u32> = match (&args.starts, args.sample) {
        (Some(path), _) => listed_starts(path)?,
        (None, Some(0)) => return Err(crate::outcome::usage("--sample must be at least 1")),
        (None, Some(n)) => sample(n, args.seed),
        (None, None) => (0..STARTS).collect(),
    };
    let items = dice.len() as u64 * starts.len() as u64;
    let checks = drawn(items, check_count(args.verify, items), args.seed);
    let mut limits = Limits::default().with_max_time(budget);
    if let Some(nodes) = args.max_nodes {
        limits = limits.with_max_nodes(nodes);
    }
    let verify_limits = Limits::default().with_max_time(verify_budget);
    let mut log = args.log.as_deref().map(create_log).transpose()?;
    let stop = interrupt_flag()?;
    let bytes = usize::try_from(args.memory.saturating_mul(1 << 20)).unwrap_or(usize::MAX);
    let mut prover = OpeningProver::new(Prover::within(bytes).with_stop(Arc::clone(&stop)));
    let mut verifier =
        (!checks.is_empty()).then(|| Verifier::new(VERIFIER_BITS).with_stop(Arc::clone(&stop)));
    let bar = progress(items, "ewn openings prove");
    let mut tally = OpeningsTally::default();
    let mut checked = Checked::default();
    let mut item = 0u64;
    let interrupted = 'lines: {
        for line in &dice {
            for &index in &starts {
                let record = prover.prove(line, index, &limits);
                if stop.load(Ordering::SeqCst) {
                    break 'lines true;
                }
                if let Err(e) = record.check_line() {
                    bail!(
                        "internal error: {}: the prover's winning line fails the rules: {e}",
                        named(&record)
                    );
                }
                checked.lines += u64::from(record.winner.is_some());
                let json = serde_json::to_string(&record)?;
                match log.as_mut() {
                    Some(log) => writeln!(log, "{json}")
                        .and_then(|()| log.flush())
                        .with_context(|| {
                            format!("writing {}", args.log.as_deref().unwrap_or_default())
                        })?,
                    None => outln!("{json}")?,
                }
                tally.add(&record);
                if checks.contains(&item) {
                    let verifier = verifier.as_mut().expect("a verifier when checks are drawn");
                    checked.reprove(&record, verifier, &verify_limits)?;
                    if stop.load(Ordering::SeqCst) {
                        break 'lines true;
                    }
                }
                item += 1;
                bar.inc(1);
            }
        }
        false
    };
    bar.finish_and_clear();
    let summaries = tally.summaries();
    if log.is_some() {
        write_summary(
            &mut std::io::stdout().lock(),
            &summaries,
            &checked,
            args.json,
        )?;
    } else {
        let mut text = Vec::new();
        write_summary(&mut text, &summaries, &checked, args.json)?;
        errprint!("{}", String::from_utf8_lossy(&text));
    }
    if interrupted {
        return Err(crate::outcome::interrupted(format!(
            "interrupted after {} of {}; every start finished is recorded",
            crate::format::plural(tally.records() as u64, "start"),
            thousands(items)
        )));
    }
    Ok(())
}

/// The records of a log, each with its line number.
fn read_log(path: &str) -> Result<Vec<(usize, OpeningRecord)>> {
    let text = read_input(path)?;
    let mut out = Vec::new();
    for (number, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record: OpeningRecord = serde_json::from_str(line).with_context(|| {
            format!("{path}:{}: not a record of ewn openings prove", number + 1)
        })?;
        out.push((number + 1, record));
    }
    if out.is_empty() {
        bail!("{path} holds no record");
    }
    Ok(out)
}

/// Runs `ply ewn openings verify`.
pub fn run_verify(args: &OpeningsVerifyArgs) -> Result<()> {
    let budget = positive_seconds(args.budget, "--budget")?;
    let records = read_log(&args.log)?;
    let mut checked = Checked::default();
    for (number, record) in &records {
        record
            .check_line()
            .with_context(|| format!("{}:{number}: {}", args.log, named(record)))?;
        checked.lines += u64::from(record.winner.is_some());
    }
    let items = records.len() as u64;
    let picks = draw(
        items,
        check_count(args.sample, items),
        args.seed ^ CHECK_SEED,
    );
    let stop: Arc<AtomicBool> = interrupt_flag()?;
    let mut verifier = Verifier::new(VERIFIER_BITS).with_stop(Arc::clone(&stop));
    let limits = Limits::default().with_max_time(budget);
    let bar = progress(picks.len() as u64, "ewn openings verify");
    for pick in picks {
        let (number, record) = &records[pick as usize];
        checked
            .reprove(record, &mut verifier, &limits)
            .with_context(|| format!("{}:{number}", args.log))?;
        if stop.load(Ordering::SeqCst) {
            bar.finish_and_clear();
            return Err(crate::outcome::interrupted(format!(
                "interrupted: {}",
                checked.describe()
            )));
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    outln!(
        "{}: {} records; {}",
        args.log,
        thousands(items),
        checked.describe()
    )?;
    Ok(())
}

/// Runs `ply ewn openings summary`.
pub fn run_summary(args: &OpeningsSummaryArgs) -> Result<()> {
    let mut tally = OpeningsTally::default();
    let mut seen = HashSet::new();
    for path in &args.logs {
        for (number, record) in read_log(path)? {
            if !seen.insert((record.dice.clone(), record.start)) {
                bail!(
                    "{path}:{number}: {} is recorded twice (logs of overlapping runs?)",
                    named(&record)
                );
            }
            // The start itself is checked, not the line (that is `verify`'s work).
            record
                .board()
                .with_context(|| format!("{path}:{number}: {}", named(&record)))?;
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
