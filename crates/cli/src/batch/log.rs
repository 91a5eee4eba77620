//! A batch's log: one JSON value a line, a header that says which run and which shard it is,
//! then one line per finished item, flushed as it finishes; how it is opened, read back and
//! compared.
//!
//! The generic form, of every batch command but the tournament:
//! `{"batch":{"command":"npuzzle bench","version":"0.1.0","shard":"2/7","items":100,
//! "work":{...}}}`, then `{"item":4,"result":{...}}` a line, `item` counted from 0 in the
//! command's order. The tournament keeps the log it already had
//! (`ply_ewn::duel::tournament::read_log` reads it), whose header carries the same facts.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, Read, Seek, SeekFrom, Write};

use anyhow::{Context, Result, bail};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::shard::Shard;

/// ply's version, as logs record it.
pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The longest line a log may have: an item's result is some hundreds of bytes, a tournament
/// game some tens of bytes a move.
const MAX_LINE: u64 = 1 << 20;

/// What a log's first line says: the run it belongs to and the shard it holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Header {
    /// The command, without `ply` (`npuzzle bench`).
    pub command: String,
    /// The version of ply that wrote it.
    pub version: String,
    /// The shard (1/1 for a run that was not sharded).
    pub shard: Shard,
    /// The items of the whole batch, every shard together.
    pub items: u64,
    /// The arguments that define the work, normalised: those that change an item's result,
    /// never the threads, the output's form, the log or the cluster's options.
    pub work: Map<String, Value>,
}

impl Header {
    /// The first difference between this header and `other` that makes their items
    /// incompatible, as (field, this one's value, the other's): the command, the version, the
    /// work's arguments, the number of items; the shard only with `shard`.
    pub(crate) fn difference(
        &self,
        other: &Header,
        shard: bool,
    ) -> Option<(String, String, String)> {
        let differ = |field: &str, a: String, b: String| Some((field.to_string(), a, b));
        if self.command != other.command {
            return differ(
                "command",
                format!("`ply {}`", self.command),
                format!("`ply {}`", other.command),
            );
        }
        if self.version != other.version {
            return differ("ply version", self.version.clone(), other.version.clone());
        }
        let keys = self.work.keys().chain(other.work.keys());
        for key in keys {
            let (a, b) = (self.work.get(key), other.work.get(key));
            if a != b {
                if key == super::digest::KEY {
                    return differ("input files' contents (size and hash)", shown(a), shown(b));
                }
                return differ(key, shown(a), shown(b));
            }
        }
        if self.items != other.items {
            return differ("items", self.items.to_string(), other.items.to_string());
        }
        if shard && self.shard != other.shard {
            return differ("shard", self.shard.to_string(), other.shard.to_string());
        }
        None
    }
}

/// A JSON value as a message shows it: compact, and cut short when long.
fn shown(value: Option<&Value>) -> String {
    let Some(value) = value else {
        return "absent".to_string();
    };
    let text = value.to_string();
    match text.char_indices().nth(60) {
        Some((end, _)) => format!("{}...", &text[..end]),
        None => text,
    }
}

/// A log read back.
#[derive(Debug)]
pub(crate) struct Contents<I> {
    /// The header; `None` for an empty file, or one whose only line is an unfinished header
    /// (its writer was stopped before anything was done).
    pub header: Option<Header>,
    /// The items, by index from 0, in the order of the lines.
    pub items: Vec<(u64, I)>,
    /// The line number of an unfinished last line (cut short by a writer that was stopped),
    /// which was dropped.
    pub unfinished: Option<usize>,
    /// The bytes up to the end of the last complete line: where an appended line starts.
    pub complete: u64,
    /// Whether the last complete line lacks its line break.
    pub newline_missing: bool,
}

/// A line of a log that cannot be used.
#[derive(Debug)]
pub(crate) struct LineError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub problem: String,
}

/// The generic log's header line.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    /// The header.
    Batch(Header),
}

/// An item's line.
#[derive(Serialize, Deserialize)]
struct ItemLine<I> {
    item: u64,
    result: I,
}

/// The generic header line (without its line break).
pub(crate) fn header_line(header: &Header) -> String {
    serde_json::to_string(&Line::Batch(header.clone())).expect("a header is plain data")
}

/// The generic line of item `index` (without its line break).
pub(crate) fn item_line<I: Serialize>(index: u64, result: &I) -> String {
    serde_json::to_string(&ItemLine {
        item: index,
        result,
    })
    .expect("a result is plain data")
}

/// The command of a log's first line: `Some` for a batch log's header (a tournament's
/// included), `None` for anything else.
pub(crate) fn command_of(first_line: &str) -> Option<String> {
    let value: Value = serde_json::from_str(first_line).ok()?;
    let object = value.as_object().filter(|o| o.len() == 1)?;
    if object.contains_key("tournament") {
        return Some("ewn tournament".to_string());
    }
    let command = object.get("batch")?.get("command")?.as_str()?;
    Some(command.to_string())
}

/// Reads the lines of `input` one by one: each line's number, its text (at most
/// [`MAX_LINE`] bytes), whether it ended with a line break, and its length in bytes.
pub(crate) fn lines(
    mut input: impl BufRead,
    mut each: impl FnMut(usize, &str, bool, u64) -> Result<bool, LineError>,
) -> Result<(), LineError> {
    let mut bytes = Vec::new();
    for line in 1.. {
        bytes.clear();
        let read = Read::take(input.by_ref(), MAX_LINE + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| LineError {
                line,
                problem: format!("cannot read it: {e}"),
            })?;
        if read == 0 {
            break;
        }
        let ended = bytes.last() == Some(&b'\n');
        if !ended && read as u64 > MAX_LINE {
            return Err(LineError {
                line,
                problem: format!("longer than {MAX_LINE} bytes: not a log line"),
            });
        }
        let text = String::from_utf8_lossy(&bytes);
        if !each(line, &text, ended, read as u64)? {
            break;
        }
    }
    Ok(())
}

/// What a command checks of its log beyond the generic reader: its header's work against its
/// number of items, and each item against the header (a hand-edited line that no run of the
/// command could have written is refused with its line number, by `merge` and `--resume`
/// alike).
pub(crate) struct Checks<'a, I> {
    /// The header's problem, if any.
    pub header: &'a dyn Fn(&Header) -> Result<(), String>,
    /// Item `index`'s problem, if any.
    pub item: &'a dyn Fn(&Header, u64, &I) -> Result<(), String>,
}

/// Reads a generic log: the header, then items of its shard, each once, each passing the
/// command's own `checks`. `noun` names an item in messages. A log whose header names another
/// command than `command` is read no further than its header, which then says what is wrong
/// (its items are another command's).
pub(crate) fn read_checked<I: DeserializeOwned>(
    input: impl BufRead,
    command: &str,
    noun: &str,
    checks: &Checks<'_, I>,
) -> Result<Contents<I>, LineError> {
    let mut log = Contents {
        header: None,
        items: Vec::new(),
        unfinished: None,
        complete: 0,
        newline_missing: false,
    };
    let mut seen: HashMap<u64, usize> = HashMap::new();
    lines(input, |line, text, ended, read| {
        let fail = |problem: String| LineError { line, problem };
        if text.trim().is_empty() {
            log.complete += read;
            return Ok(true);
        }
        let value: Value = match serde_json::from_str(text) {
            Ok(value) => value,
            // A last line cut short: its writer was stopped mid-line.
            Err(e) if !ended && e.is_eof() => {
                log.unfinished = Some(line);
                return Ok(false);
            }
            Err(e) => return Err(fail(format!("not a log line: {e}"))),
        };
        match &log.header {
            None => {
                let Ok(Line::Batch(header)) = serde_json::from_value::<Line>(value) else {
                    return Err(fail(
                        "not a batch log: its first line is no `ply ... --log` header".into(),
                    ));
                };
                if line != 1 {
                    return Err(fail("the header must be the first line".into()));
                }
                let other = header.command != command;
                if !other {
                    (checks.header)(&header)
                        .map_err(|problem| fail(format!("{problem} (an edited log?)")))?;
                }
                log.header = Some(header);
                if other {
                    return Ok(false);
                }
            }
            Some(header) => {
                let ItemLine { item, result } = serde_json::from_value::<ItemLine<I>>(value)
                    .map_err(|e| fail(format!("not a result of `ply {}`: {e}", header.command)))?;
                if item >= header.items {
                    return Err(fail(format!(
                        "{noun} {} is not in the batch of {}",
                        item.saturating_add(1),
                        header.items
                    )));
                }
                if !header.shard.owns(item) {
                    return Err(fail(format!(
                        "{noun} {} is not shard {}'s",
                        item + 1,
                        header.shard
                    )));
                }
                (checks.item)(header, item, &result).map_err(|problem| {
                    fail(format!("{noun} {}: {problem} (an edited log?)", item + 1))
                })?;
                if let Some(first) = seen.insert(item, line) {
                    return Err(fail(format!(
                        "{noun} {} is logged twice (first on line {first})",
                        item + 1
                    )));
                }
                log.items.push((item, result));
            }
        }
        log.complete += read;
        log.newline_missing = !ended;
        Ok(true)
    })?;
    Ok(log)
}

/// How a log is opened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LogMode {
    /// A new log; an existing file is refused, or replaced with `force`.
    Create {
        /// Replace an existing regular file.
        force: bool,
        /// Whether the command can go on from an existing log (`--resume`), which the
        /// refusal then suggests.
        resumable: bool,
    },
    /// A log to go on with: an existing one is read and then appended to; a missing one is
    /// created (the first run of a shard that is resumed whenever it starts).
    Resume,
}

/// Takes the exclusive lock of the log `file` at `path` for as long as the file is open, so
/// that a second run on the same log (another terminal, a doubled `xargs`, a requeued Slurm
/// task while the old one runs) is refused instead of doing the work again and interleaving
/// its lines. A file system without locks (some network ones) goes without.
fn lock(file: &File, path: &str) -> Result<()> {
    match file.try_lock() {
        Ok(()) => Ok(()),
        Err(std::fs::TryLockError::WouldBlock) => bail!(
            "{path} is in use by another run of ply (it holds the log's lock); wait for that \
             run to end, or give another --log"
        ),
        Err(std::fs::TryLockError::Error(e)) if e.kind() == std::io::ErrorKind::Unsupported => {
            Ok(())
        }
        Err(std::fs::TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("cannot lock {path}"))
        }
    }
}

/// Opens the log at `path`, with the policy of `ply mines gen`'s output: an existing file is
/// refused unless `--force` (or `--resume`) says what to do with it, and nothing but a
/// regular file is ever written: a symbolic link, a device or a directory is refused, even
/// with `--force`. The log is locked while the returned file is open ([`lock`]).
///
/// # Errors
/// A refused or unopenable path, named.
pub(crate) fn open_log(path: &str, mode: LogMode) -> Result<File> {
    let file = open_unlocked(path, mode)?;
    lock(&file, path)?;
    Ok(file)
}

/// [`open_log`] before the lock.
fn open_unlocked(path: &str, mode: LogMode) -> Result<File> {
    use std::os::unix::fs::MetadataExt;
    if path.is_empty() {
        bail!("the log's path is empty");
    }
    let not_regular = || {
        anyhow::anyhow!(
            "{path} is not a regular file (a symbolic link, a device or a directory); \
             refusing to write the log there"
        )
    };
    let existing = std::fs::symlink_metadata(path).ok();
    if existing.as_ref().is_some_and(|m| !m.file_type().is_file()) {
        return Err(not_regular());
    }
    // A new file only: whatever appeared at the path since the check (a symbolic link
    // included) makes this fail rather than be written through.
    let create = || {
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(path)
            .with_context(|| format!("cannot create {path}"))
    };
    match mode {
        LogMode::Create { force, resumable } => {
            if existing.is_some() {
                if !force {
                    if resumable {
                        bail!(
                            "{path} exists (use --resume to go on with it, or --force to \
                             overwrite it)"
                        );
                    }
                    bail!("{path} exists (use --force to overwrite it)");
                }
                // A run still writing it keeps it: its lock is asked for before it goes.
                if let Ok(running) = File::open(path) {
                    lock(&running, path)?;
                }
                std::fs::remove_file(path).with_context(|| format!("cannot replace {path}"))?;
            }
            create()
        }
        LogMode::Resume if existing.is_none() => match create() {
            // Another run created it since the check: go on with it (its lock decides).
            Err(_) if std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file()) => {
                open_unlocked(path, LogMode::Resume)
            }
            created => created,
        },
        LogMode::Resume => {
            let file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .open(path)
                .with_context(|| format!("cannot open {path}"))?;
            // The file opened must be the regular file checked, not one a link led to.
            let opened = file
                .metadata()
                .with_context(|| format!("cannot open {path}"))?;
            let named = std::fs::symlink_metadata(path).ok();
            let same = named.is_some_and(|m| {
                m.file_type().is_file() && m.ino() == opened.ino() && m.dev() == opened.dev()
            });
            if !same {
                return Err(not_regular());
            }
            Ok(file)
        }
    }
}

/// Cuts the log `file` (at `path`) back to its complete lines, so that the next line
/// appended starts on a line of its own.
pub(crate) fn cut_to(
    path: &str,
    file: &mut File,
    complete: u64,
    newline_missing: bool,
) -> Result<()> {
    file.set_len(complete)
        .and_then(|()| file.seek(SeekFrom::End(0)).map(drop))
        .and_then(|()| {
            if newline_missing {
                file.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .with_context(|| format!("cannot append to {path}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header(shard: &str) -> Header {
        Header {
            command: "npuzzle bench".into(),
            version: VERSION.into(),
            shard: shard.parse().unwrap(),
            items: 5,
            work: serde_json::json!({"file": "a.txt", "first": null})
                .as_object()
                .unwrap()
                .clone(),
        }
    }

    fn read(text: &str) -> Result<Contents<u32>, LineError> {
        let checks = Checks {
            header: &|_| Ok(()),
            item: &|_, _, _: &u32| Ok(()),
        };
        read_checked(text.as_bytes(), "npuzzle bench", "instance", &checks)
    }

    #[test]
    fn a_log_reads_back_and_a_cut_line_is_dropped() {
        let whole = format!(
            "{}\n{}\n{}\n",
            header_line(&header("2/2")),
            item_line(1, &10u32),
            item_line(3, &30u32)
        );
        let log = read(&whole).unwrap();
        assert_eq!(log.header, Some(header("2/2")));
        assert_eq!(log.items, [(1, 10), (3, 30)]);
        assert_eq!(log.complete, whole.len() as u64);
        assert_eq!(
            command_of(whole.lines().next().unwrap()).as_deref(),
            Some("npuzzle bench")
        );
        let cut = format!("{whole}{{\"item\":5,\"res");
        let log = read(&cut).unwrap();
        assert_eq!((log.items.len(), log.unfinished), (2, Some(4)));
        assert_eq!(log.complete, whole.len() as u64);
        // A header cut short: nothing was done.
        let line = header_line(&header("1/1"));
        let log = read(&line[..10]).unwrap();
        assert!(log.header.is_none() && log.unfinished == Some(1));
    }

    #[test]
    fn bad_lines_are_named() {
        let head = header_line(&header("2/2"));
        let problem = |lines: &[String]| {
            let e = read(&(lines.join("\n") + "\n")).unwrap_err();
            format!("line {}: {}", e.line, e.problem)
        };
        assert_eq!(
            problem(&[head.clone(), item_line(2, &1u32)]),
            "line 2: instance 3 is not shard 2/2's"
        );
        assert_eq!(
            problem(&[head.clone(), item_line(7, &1u32)]),
            "line 2: instance 8 is not in the batch of 5"
        );
        assert_eq!(
            problem(&[head.clone(), item_line(1, &1u32), item_line(1, &1u32)]),
            "line 3: instance 2 is logged twice (first on line 2)"
        );
        assert!(problem(&[item_line(1, &1u32)]).contains("not a batch log"));
        assert!(
            problem(&[head.clone(), "{\"item\":1,".into(), head.clone()])
                .starts_with("line 2: not a log line")
        );
        assert!(
            problem(&[head.clone(), "{\"item\":1,\"result\":\"x\"}".into()])
                .starts_with("line 2: not a result of `ply npuzzle bench`")
        );
    }

    #[test]
    fn headers_name_their_first_difference() {
        let a = header("1/2");
        let mut b = header("2/2");
        assert_eq!(a.difference(&b, false), None);
        assert_eq!(
            a.difference(&b, true),
            Some(("shard".into(), "1/2".into(), "2/2".into()))
        );
        b.work.insert("first".into(), Value::from(3));
        assert_eq!(
            a.difference(&b, false),
            Some(("first".into(), "null".into(), "3".into()))
        );
        b.version = "9.9.9".into();
        assert_eq!(a.difference(&b, false).unwrap().0, "ply version");
    }
}
