//! Batch commands in shards: one module that every batch command (`npuzzle bench`, `ewn solo
//! bench`, `ewn tournament`, `ewn openings prove`, `sokoboru bench`, `mines bench`, `mines
//! classic bench`) runs through.
//!
//! A command contributes its item type (the result of one instance, game, case or map, which
//! serde writes to the log), the number of its items in a deterministic order, the arguments
//! that define its work, and one `report` function that prints the table or JSON of a list of
//! results. The live run and `ply merge` both call that function, so that the merged shards
//! print what the whole run prints. This module gives the command `--shard K/N` (which items
//! it runs), `--log FILE` and `--resume` (a log to go on from and to merge), and
//! `--emit-slurm N --out DIR` (an sbatch script that runs the shards as an array job and
//! merges them).
//!
//! A command adopts it in four steps: implement [`Job`] (its `Item`, `COMMAND`, `NOUN`,
//! `work`, `len`, `report`), flatten [`BatchArgs`] into its arguments, run
//! `batch::start(&job, &args.batch)?` (which prints the Slurm script and returns `None`, or
//! opens the log) and give each result of [`Session::pending`] to [`Session::record`], then
//! [`Session::finish`]; and add one line for its command to `ply merge`'s list.

pub(crate) mod digest;
pub(crate) mod log;
pub(crate) mod merge;
pub(crate) mod shard;
pub(crate) mod slurm;

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::io::{BufReader, Seek, SeekFrom, Write};
use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, anyhow, bail};
use clap::Args;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::outcome::Reported;
pub(crate) use log::{Contents, Header, LineError, LogMode, VERSION, open_log};
pub(crate) use shard::Shard;

/// The options every batch command has: which shard to run, its log, and the cluster's
/// script instead of a run.
#[derive(Args, Debug, Clone, Default)]
pub(crate) struct BatchArgs {
    /// Run only shard K of N: the items numbered i (from 0, in the command's order) with
    /// i mod N = K - 1, whatever the machine, threads or timing. `ply merge` puts the shards'
    /// logs together.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Log the run here: a header naming the command, its arguments, ply's version and the
    /// shard, then each finished item as a JSON line, written as it finishes (a new file: an
    /// existing one is refused without --resume or --force).
    #[arg(long, value_name = "FILE", value_parser = crate::format::Utf8Path)]
    pub log: Option<String>,
    /// Go on with the run of --log: its items are kept, not run again (its header must match
    /// this command; an unfinished last line is dropped); a missing or empty log is started.
    #[arg(long, requires = "log")]
    pub resume: bool,
    /// Replace an existing --log file with a new run (never a symbolic link or anything but
    /// a file).
    #[arg(long, requires = "log", conflicts_with = "resume")]
    pub force: bool,
    #[command(flatten)]
    pub slurm: Box<slurm::SlurmArgs>,
}

/// A batch command's part: what its items are and how a list of results is reported.
pub(crate) trait Job {
    /// One item's result, as the log holds it.
    type Item: Serialize + DeserializeOwned;
    /// The command, without `ply` (`npuzzle bench`).
    const COMMAND: &'static str;
    /// What one item is called in messages (`instance`, `game`).
    const NOUN: &'static str;

    /// Prints the results `items` (in item order) as the command's table, or its JSON, to
    /// `out`; returns the problems to report after it (one line each, without `ply: error:`),
    /// which make the command fail. `work` is the one the run was started with ([`start`]).
    ///
    /// # Errors
    /// A failed write, or a `work` that is not the command's.
    fn report(
        work: &Map<String, Value>,
        items: &[Self::Item],
        json: bool,
        out: &mut dyn Write,
    ) -> Result<Vec<String>>;

    /// The log's header line (without its line break).
    fn header_line(header: &Header) -> String {
        log::header_line(header)
    }

    /// The log's line of item `index` (without its line break).
    fn item_line(index: u64, item: &Self::Item) -> String {
        log::item_line(index, item)
    }

    /// The problem of a log's header that no run of this command writes (a work that
    /// contradicts the number of items), if any.
    fn check_header(header: &Header) -> Result<(), String> {
        let _ = header;
        Ok(())
    }

    /// The problem of item `index`'s result that no run of this command writes (a tally
    /// larger than the item), if any.
    fn check_item(header: &Header, index: u64, item: &Self::Item) -> Result<(), String> {
        let _ = (header, index, item);
        Ok(())
    }

    /// Reads a log of this command from its start.
    ///
    /// # Errors
    /// The first line that cannot be read or used.
    fn read_log(file: &mut File) -> Result<Contents<Self::Item>, LineError> {
        let checks = log::Checks {
            header: &Self::check_header,
            item: &Self::check_item,
        };
        log::read_checked(BufReader::new(file), Self::COMMAND, Self::NOUN, &checks)
    }
}

/// A run of a batch command: its header, its log, and the results it has.
pub(crate) struct Session<J: Job> {
    header: Header,
    log: Option<(String, std::io::BufWriter<File>)>,
    done: BTreeMap<u64, J::Item>,
}

/// What a run of `command` is called in messages (`tournament`, `bench`).
fn run_name(command: &str) -> &str {
    command.rsplit(' ').next().unwrap_or(command)
}

/// Starts a run of job `J` as `args` say: prints the Slurm script and returns `None` for
/// `--emit-slurm`; otherwise opens the log (reading back what a resumed one holds) and
/// returns the session. `work` holds the arguments that define the work, normalised:
/// everything that can change an item's result, and nothing else (not the threads, the
/// output's form, the log, the shard or the cluster's options); `items` is the number of
/// items of the whole batch.
///
/// # Errors
/// A log that cannot be opened, read or written, or is of another run.
pub(crate) fn start<J: Job>(
    work: Map<String, Value>,
    items: u64,
    args: &BatchArgs,
) -> Result<Option<Session<J>>> {
    if args.slurm.emit_slurm.is_some() {
        slurm::emit(J::COMMAND, &args.slurm)?;
        return Ok(None);
    }
    let header = Header {
        command: J::COMMAND.to_string(),
        version: VERSION.to_string(),
        shard: args.shard.unwrap_or(Shard::WHOLE),
        items,
        work,
    };
    let mut session = Session {
        header,
        log: None,
        done: BTreeMap::new(),
    };
    if let Some(path) = &args.log {
        let mode = if args.resume {
            LogMode::Resume
        } else {
            LogMode::Create {
                force: args.force,
                resumable: true,
            }
        };
        let mut file = open_log(path, mode)?;
        let mut fresh = true;
        if args.resume {
            fresh = session.resume(path, &mut file)?;
        }
        let mut writer = std::io::BufWriter::new(file);
        if fresh {
            writeln!(writer, "{}", J::header_line(&session.header))
                .and_then(|()| writer.flush())
                .with_context(|| format!("writing the log {path}"))?;
        }
        session.log = Some((path.clone(), writer));
    }
    Ok(Some(session))
}

impl<J: Job> Session<J> {
    /// Reads back the log `file` (at `path`) to go on from it: checks its header against this
    /// run's, keeps its items, and leaves the file ready to append to (an unfinished last
    /// line, dropped with a note, is cut off). Returns whether the log was empty, so that it
    /// needs its header.
    fn resume(&mut self, path: &str, file: &mut File) -> Result<bool> {
        let contents =
            J::read_log(file).map_err(|e| anyhow!("{path}:{}: {}", e.line, e.problem))?;
        if let Some(line) = contents.unfinished {
            errln!(
                "ply: note: {path}:{line}: the last line is unfinished (the run writing it was \
                 stopped); it is dropped and its {} run again",
                J::NOUN
            );
        }
        let Some(found) = contents.header else {
            // Nothing was done: the run stopped before its header was whole.
            file.set_len(0)
                .and_then(|()| file.seek(SeekFrom::Start(0)).map(drop))
                .with_context(|| format!("cannot write to {path}"))?;
            return Ok(true);
        };
        if let Some((field, there, here)) = found.difference(&self.header, true) {
            bail!(
                "{path}:1: the log is of another {}: its {field} is {there}, this run's {here}",
                run_name(J::COMMAND)
            );
        }
        log::cut_to(path, file, contents.complete, contents.newline_missing)?;
        self.done.extend(contents.items);
        Ok(false)
    }

    /// The shard this run has.
    pub(crate) fn shard(&self) -> Shard {
        self.header.shard
    }

    /// The work this run was started with.
    pub(crate) fn work(&self) -> &Map<String, Value> {
        &self.header.work
    }

    /// The number of items of the whole batch.
    pub(crate) fn items(&self) -> u64 {
        self.header.items
    }

    /// The items still to run, in order: this shard's, less those the log already had.
    pub(crate) fn pending(&self) -> impl Iterator<Item = u64> + Send + 'static {
        let done: Arc<BTreeSet<u64>> = Arc::new(self.done.keys().copied().collect());
        self.header
            .shard
            .items(self.header.items)
            .filter(move |i| !done.contains(i))
    }

    /// The results so far (the log's and this run's), in item order.
    pub(crate) fn results(&self) -> impl Iterator<Item = &J::Item> {
        self.done.values()
    }

    /// Records item `index`'s result: logs it (flushed at once) and keeps it for the report.
    ///
    /// # Errors
    /// The log's write failed; the result is then not kept.
    pub(crate) fn record(&mut self, index: u64, item: J::Item) -> std::io::Result<()> {
        if let Some((_, log)) = &mut self.log {
            writeln!(log, "{}", J::item_line(index, &item)).and_then(|()| log.flush())?;
        }
        self.done.insert(index, item);
        Ok(())
    }

    /// [`Session::record`], with a failed write as an error naming the log.
    ///
    /// # Errors
    /// The log's write failed.
    pub(crate) fn record_or_fail(&mut self, index: u64, item: J::Item) -> Result<()> {
        self.record(index, item).with_context(|| {
            let path = self.log.as_ref().map_or("", |(path, _)| path.as_str());
            format!("writing the log {path} (--resume goes on from the items it holds)")
        })
    }

    /// Prints the report of the results so far on standard output, and the problems it finds
    /// on standard error.
    ///
    /// # Errors
    /// A failed write; [`Reported`] when there were problems.
    pub(crate) fn finish(self, json: bool) -> Result<()> {
        let items: Vec<J::Item> = self.done.into_values().collect();
        print_report::<J>(&self.header.work, &items, json)
    }
}

/// Prints `J`'s report of `items` on standard output, then its problems on standard error.
///
/// # Errors
/// A failed write; [`Reported`] when there were problems.
pub(crate) fn print_report<J: Job>(
    work: &Map<String, Value>,
    items: &[J::Item],
    json: bool,
) -> Result<()> {
    let mut out = std::io::stdout().lock();
    let problems = J::report(work, items, json, &mut out)?;
    out.flush()?;
    if problems.is_empty() {
        return Ok(());
    }
    for problem in &problems {
        errln!("ply: error: {problem}");
    }
    Err(Reported.into())
}

/// The directory `--out` names, absolute (relative to the current directory).
///
/// # Errors
/// The current directory cannot be read.
pub(crate) fn absolute(dir: &std::path::Path) -> Result<PathBuf> {
    std::path::absolute(dir).with_context(|| format!("cannot resolve {}", dir.display()))
}
