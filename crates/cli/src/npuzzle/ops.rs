//! What the `ply npuzzle` commands and the demo share: loading instances, choosing and
//! loading pattern databases, and solving with every answer checked.

use super::args::{HeuristicArg, PdbArgs};
use crate::format::{is_stdin, progress, read_parsed, thousands};
use crate::signals::{exit_after, interrupt_flag};
use anyhow::{Context, Result, bail};
use ply_npuzzle::pdb::{PatternDatabase, Published, database_dir, strongest_present};
use ply_npuzzle::{Heuristic, Instance, MoveFsm, PdbError, parse_instances};
use ply_search::{IdaReport, Limits};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Reads and parses an instance file, naming it in errors.
pub(super) fn load(path: &Path) -> Result<Vec<Instance>> {
    read_parsed(path, parse_instances)
}

/// How messages name an instance file (`<stdin>` for `-`).
pub(super) fn file_name(path: &Path) -> String {
    if is_stdin(path) {
        "<stdin>".to_string()
    } else {
        path.display().to_string()
    }
}

/// Where an instance is, for a message: `FILE: line N`, with the set's id when it has one.
pub(super) fn place(file: &str, instance: &Instance) -> String {
    match &instance.id {
        Some(id) => format!("{file}: line {} (id {id})", instance.line),
        None => format!("{file}: line {}", instance.line),
    }
}

/// Solves one solvable instance with ply-npuzzle's checked solve: the solution is checked
/// before anyone sees it. The file's optimal length, if any, is not consulted: see
/// [`disagreement`].
pub(super) fn solve_verified(
    instance: &Instance,
    heuristic: Heuristic<'_>,
    limits: &Limits,
    threads: u16,
    fsm: &'static MoveFsm,
) -> Result<IdaReport<ply_npuzzle::Direction>> {
    ply_npuzzle::solve_checked(
        &instance.board,
        heuristic,
        limits,
        usize::from(threads),
        fsm,
    )
    .with_context(|| format!("instance {}", instance.label()))
}

/// How the file's optimal length disagrees with the proven one, if it does. The solver's
/// answer is proven optimal and checked move by move; the file's column is a claim.
pub(super) fn disagreement(
    instance: &Instance,
    report: &IdaReport<ply_npuzzle::Direction>,
) -> Option<String> {
    let (known, cost) = (instance.optimal?, report.cost()?);
    (known != cost).then(|| {
        format!("the file says the optimum is {known}, but the solver proved it is {cost}")
    })
}

/// [`solve_verified`], and an error if the instance's known optimum disagrees: for the
/// bundled instances, whose optima are Korf's.
pub(crate) fn solve_checked(
    instance: &Instance,
    heuristic: Heuristic<'_>,
    limits: Limits,
    threads: u16,
    fsm: &'static MoveFsm,
) -> Result<IdaReport<ply_npuzzle::Direction>> {
    let report = solve_verified(instance, heuristic, &limits, threads, fsm)?;
    if let Some(why) = disagreement(instance, &report) {
        bail!("instance {}: {why}", instance.label());
    }
    Ok(report)
}

/// The choice a `--heuristic` value (or its absence) makes.
pub(super) fn choice(arg: Option<HeuristicArg>) -> Choice {
    match arg {
        None => Choice::Strongest,
        Some(HeuristicArg::Manhattan) => Choice::Manhattan,
        Some(HeuristicArg::LinearConflict) => Choice::LinearConflict,
        Some(HeuristicArg::Pdb(p)) => Choice::Pdb(p),
    }
}

/// The heuristic a user asked for: a table-free one, a database, or the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Choice {
    /// Manhattan distance.
    Manhattan,
    /// Linear conflict.
    LinearConflict,
    /// A published partition's databases.
    Pdb(Published),
    /// The strongest database present for the board's size, else linear conflict.
    Strongest,
}

/// Databases loaded (or built) on demand, each once per run.
pub(super) struct Databases {
    /// The directory, if there is one (without HOME and the variables there may be none).
    dir: Option<PathBuf>,
    args: PdbArgs,
    loaded: HashMap<Published, PatternDatabase>,
    noted: bool,
}

impl Databases {
    /// A store over the directory the arguments name.
    pub(super) fn new(args: &PdbArgs) -> Result<Self> {
        Ok(Self {
            dir: database_dir(args.pdb_dir.as_deref())?,
            args: args.clone(),
            loaded: HashMap::new(),
            noted: false,
        })
    }

    /// Makes sure the databases `choice` needs for boards of `width` are loaded (building
    /// them if allowed), and returns which partition to use (`None`: a table-free heuristic).
    pub(super) fn prepare(&mut self, choice: Choice, width: usize) -> Result<Option<Published>> {
        let wanted = match choice {
            Choice::Manhattan | Choice::LinearConflict => return Ok(None),
            Choice::Pdb(p) => {
                let w = p.width();
                if w != width {
                    let flag = p.heuristic_name();
                    bail!("--heuristic {flag} is for {w}x{w} boards, not {width}x{width}");
                }
                p
            }
            Choice::Strongest => match self.strongest_present(width)? {
                Some(p) => p,
                None => return Ok(None),
            },
        };
        if !self.loaded.contains_key(&wanted) {
            let db = self.load_or_build(wanted)?;
            self.loaded.insert(wanted, db);
        }
        Ok(Some(wanted))
    }

    /// The heuristic for `choice` after [`Databases::prepare`] returned `partition`.
    pub(super) fn heuristic(&self, choice: Choice, partition: Option<Published>) -> Heuristic<'_> {
        match (choice, partition) {
            (Choice::Manhattan, _) => Heuristic::Manhattan,
            (_, Some(p)) => Heuristic::Pdb {
                database: &self.loaded[&p],
                reflect: !self.args.no_reflection,
            },
            _ => Heuristic::LinearConflict,
        }
    }

    /// The strongest sound database file present for `width` (ply-npuzzle's
    /// [`strongest_present`]; built if allowed and none is), noting on stderr when there is
    /// none and linear conflict stands in.
    fn strongest_present(&mut self, width: usize) -> Result<Option<Published>> {
        let Some(strongest) = Published::strongest_first(width).next() else {
            return Ok(None);
        };
        let Some(dir) = self.dir.clone() else {
            if !self.noted {
                self.noted = true;
                errln!(
                    "ply: note: no pattern database directory (set --pdb-dir, PLY_PDB_DIR, \
                     XDG_CACHE_HOME or HOME); using linear conflict"
                );
            }
            return Ok(None);
        };
        let loaded = &mut self.loaded;
        let present = strongest_present(&dir, width, |p, path| {
            if let std::collections::hash_map::Entry::Vacant(slot) = loaded.entry(p) {
                slot.insert(PatternDatabase::load(path, &p.partition())?);
            }
            Ok(())
        });
        // Whether a file was there but could not be used (each said in a warning).
        let unusable = !present.unusable.is_empty();
        for e in present.unusable {
            errln!("ply: warning: {e}; not used");
        }
        if let Some((p, ())) = present.found {
            return Ok(Some(p));
        }
        if self.args.build_missing {
            return Ok(Some(strongest));
        }
        if !self.noted {
            self.noted = true;
            if unusable {
                errln!(
                    "ply: note: no usable pattern database for {width}x{width} boards in {} \
                     (see the warning above); using linear conflict",
                    dir.display()
                );
            } else {
                errln!(
                    "ply: note: no pattern database for {width}x{width} boards in {}; using \
                     linear conflict (build one with `ply npuzzle pdb build --partition {}`)",
                    dir.display(),
                    strongest.name()
                );
            }
        }
        Ok(None)
    }

    /// The file of a partition.
    fn path(&self, p: Published) -> Result<PathBuf> {
        match &self.dir {
            Some(dir) => Ok(dir.join(p.partition().file_name())),
            None => bail!(
                "no pattern database directory for --heuristic {}: set --pdb-dir, \
                 PLY_PDB_DIR, XDG_CACHE_HOME or HOME",
                p.heuristic_name()
            ),
        }
    }

    fn load_or_build(&self, p: Published) -> Result<PatternDatabase> {
        let path = self.path(p)?;
        match PatternDatabase::load(&path, &p.partition()) {
            Ok(db) => Ok(db),
            Err(PdbError::Missing { .. }) if self.args.build_missing => {
                build_and_save(p, &path)?;
                PatternDatabase::load(&path, &p.partition()).map_err(Into::into)
            }
            Err(e @ PdbError::Missing { .. }) => bail!(
                "{e}; build it with `ply npuzzle pdb build --partition {}`, or pass \
                 --build-missing",
                p.name()
            ),
            Err(e) => bail!(
                "{e}; rebuild it with `ply npuzzle pdb build --partition {}`",
                p.name()
            ),
        }
    }
}

/// The database directory (`--pdb-dir`, else ply-npuzzle's [`database_dir`] from the
/// environment), which a command that reads or writes database files needs.
///
/// # Errors
/// The path is not a directory, or there is no directory.
pub(super) fn required_dir(explicit: Option<&Path>) -> Result<PathBuf> {
    database_dir(explicit)?.context(
        "no pattern database directory: set --pdb-dir, PLY_PDB_DIR, XDG_CACHE_HOME or HOME",
    )
}

/// Temporary files of database saves, removed if a signal stops the process while it saves.
static SAVING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes the temporary files of the saves in progress (the signal handler's cleanup).
fn remove_temporary_files() {
    let saving = SAVING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for path in saving.iter() {
        let _ = std::fs::remove_file(path);
    }
}

/// Whether process `pid` is running (or may be: it exists but belongs to someone else).
fn is_running(pid: u32) -> bool {
    match i32::try_from(pid) {
        Ok(pid @ 1..) => !matches!(
            nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), None),
            Err(nix::errno::Errno::ESRCH)
        ),
        _ => false,
    }
}

/// The temporary files in `dir` that an interrupted save left (their writer no longer runs),
/// and those a running save is writing.
pub(super) fn temporary_files(dir: &Path) -> (Vec<PathBuf>, Vec<(PathBuf, u32)>) {
    let (stale, live): (Vec<_>, Vec<_>) = PatternDatabase::temp_files(dir)
        .into_iter()
        .partition(|&(_, pid)| pid == std::process::id() || !is_running(pid));
    (stale.into_iter().map(|(path, _)| path).collect(), live)
}

/// Removes the temporary files interrupted saves left in `dir`, saying so.
fn sweep(dir: &Path) {
    for path in temporary_files(dir).0 {
        match std::fs::remove_file(&path) {
            Ok(()) => errln!(
                "ply: removed {}, left by an interrupted build",
                path.display()
            ),
            Err(e) => errln!("ply: warning: cannot remove {}: {e}", path.display()),
        }
    }
}

/// Builds a partition's databases with a progress bar on stderr and saves them to `path`.
/// Temporary files that interrupted builds left in the directory are removed first; if a
/// signal stops this build while it saves, its own temporary file is removed too.
pub(super) fn build_and_save(p: Published, path: &Path) -> Result<()> {
    PatternDatabase::check_writable(path)?;
    if let Some(dir) = path.parent() {
        sweep(dir);
    }
    let temporary = PatternDatabase::temp_path(path);
    SAVING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .push(temporary);
    exit_after(interrupt_flag()?, Duration::ZERO, remove_temporary_files);
    // A file size limit (`ulimit -f`) would kill the process mid-write with SIGXFSZ and leave
    // the temporary file; handled, the write fails instead and the file is removed.
    signal_hook::flag::register(
        signal_hook::consts::SIGXFSZ,
        std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false)),
    )
    .context("installing a signal handler")?;
    let partition = p.partition();
    let total = partition.entries();
    let sizes: Vec<u64> = partition.patterns().iter().map(|p| p.entries()).collect();
    let bar = progress(total, &format!("building pdb {}", p.name()));
    let started = Instant::now();
    let db = PatternDatabase::build(&partition, &|pattern, depth, reached| {
        let before: u64 = sizes[..pattern].iter().sum();
        bar.set_position(before + reached);
        bar.set_message(format!(
            "pattern {}/{}, depth {depth}",
            pattern + 1,
            sizes.len()
        ));
    })
    .with_context(|| format!("building the {partition} databases"))?;
    bar.set_message("writing");
    let saved = db.save(path);
    bar.finish_and_clear();
    saved?;
    errln!(
        "ply: built the {partition} pattern databases ({} entries) in {:.1} s: {}",
        thousands(total),
        started.elapsed().as_secs_f64(),
        path.display()
    );
    Ok(())
}
