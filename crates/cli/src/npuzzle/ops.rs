//! What the `ply npuzzle` commands and the demo share: loading instances, choosing and
//! loading pattern databases, and solving with every answer checked.

use super::args::{HeuristicArg, PdbArgs};
use crate::format::{is_stdin, progress, read_parsed, thousands};
use crate::signals::{exit_after, interrupt_flag};
use anyhow::{Context, Result, bail};
use ply_npuzzle::pdb::{
    self, Choice, ChoiceError, Chosen, Fallback, PatternDatabase, Published, database_dir,
};
use ply_npuzzle::{Heuristic, Instance, PdbError, Plan, parse_instances};
use ply_search::{IdaReport, Limits};
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
    plan: impl Into<Plan>,
) -> Result<IdaReport<ply_npuzzle::Direction>> {
    ply_npuzzle::solve_checked(
        &instance.board,
        heuristic,
        limits,
        usize::from(threads),
        plan,
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
    plan: impl Into<Plan>,
) -> Result<IdaReport<ply_npuzzle::Direction>> {
    let report = solve_verified(instance, heuristic, &limits, threads, plan)?;
    if let Some(why) = disagreement(instance, &report) {
        bail!("instance {}: {why}", instance.label());
    }
    Ok(report)
}

/// The choice a `--heuristic` value (or its absence) makes.
pub(super) fn choice(arg: Option<HeuristicArg>) -> Choice {
    arg.map_or(Choice::Strongest, |arg| arg.0)
}

/// ply-npuzzle's store of databases over the directory the arguments name, with the
/// command's words: notes and warnings on stderr, and `--build-missing`.
pub(super) struct Databases {
    /// The directory, if there is one (without HOME and the variables there may be none).
    dir: Option<PathBuf>,
    args: PdbArgs,
    store: pdb::Databases,
    noted: bool,
}

impl Databases {
    /// A store over the directory the arguments name.
    pub(super) fn new(args: &PdbArgs) -> Result<Self> {
        Ok(Self {
            dir: database_dir(args.pdb_dir.as_deref())?,
            args: args.clone(),
            store: pdb::Databases::new(),
            noted: false,
        })
    }

    /// What `choice` comes to for boards of `width` (ply-npuzzle's [`pdb::Databases::choose`];
    /// a missing database built if allowed), warning of the files not used and noting once
    /// when linear conflict stands in for the default.
    pub(super) fn prepare(&mut self, choice: Choice, width: usize) -> Result<Chosen> {
        let choosing = match self.store.choose(choice, width, self.dir.as_deref()) {
            Ok(choosing) => choosing,
            Err(e) => return self.unchosen(e),
        };
        for e in &choosing.unusable {
            errln!("ply: warning: {e}; not used");
        }
        match choosing.fallback {
            Some(Fallback::Absent { strongest, .. }) if self.args.build_missing => {
                self.prepare(Choice::Pdb(strongest), width)
            }
            Some(fallback) if !self.noted => {
                self.noted = true;
                note(&fallback, width, !choosing.unusable.is_empty());
                Ok(choosing.chosen)
            }
            _ => Ok(choosing.chosen),
        }
    }

    /// The heuristic of `chosen`, reflected unless `--no-reflection`.
    pub(super) fn heuristic<'a>(&self, chosen: &'a Chosen) -> Heuristic<'a> {
        chosen.heuristic(!self.args.no_reflection)
    }

    /// The databases named, built if missing and allowed, or the error that they cannot be
    /// used.
    fn unchosen(&mut self, e: ChoiceError) -> Result<Chosen> {
        let p = match e {
            ChoiceError::Width {
                published: p,
                width,
            } => {
                let (flag, w) = (p.heuristic_name(), p.width());
                bail!("--heuristic {flag} is for {w}x{w} boards, not {width}x{width}");
            }
            ChoiceError::NoDirectory(p) => bail!(
                "no pattern database directory for --heuristic {}: set --pdb-dir, \
                 PLY_PDB_DIR, XDG_CACHE_HOME or HOME",
                p.heuristic_name()
            ),
            ChoiceError::Load { published: p, .. } => p,
        };
        match e {
            ChoiceError::Load {
                error: PdbError::Missing { .. },
                path,
                ..
            } if self.args.build_missing => {
                build_and_save(p, &path)?;
                Ok(Chosen::Database(self.store.load(&path, &p.partition())?))
            }
            ChoiceError::Load {
                error: e @ PdbError::Missing { .. },
                ..
            } => bail!(
                "{e}; build it with `ply npuzzle pdb build --partition {}`, or pass \
                 --build-missing",
                p.name()
            ),
            e => bail!(
                "{e}; rebuild it with `ply npuzzle pdb build --partition {}`",
                p.name()
            ),
        }
    }
}

/// The note that linear conflict stands in for the default heuristic on boards of `width`.
fn note(fallback: &Fallback, width: usize, unusable: bool) {
    match fallback {
        Fallback::NoDirectory => errln!(
            "ply: note: no pattern database directory (set --pdb-dir, PLY_PDB_DIR, \
             XDG_CACHE_HOME or HOME); using linear conflict"
        ),
        Fallback::Absent { dir, .. } if unusable => errln!(
            "ply: note: no usable pattern database for {width}x{width} boards in {} \
             (see the warning above); using linear conflict",
            dir.display()
        ),
        Fallback::Absent { dir, strongest } => errln!(
            "ply: note: no pattern database for {width}x{width} boards in {}; using \
             linear conflict (build one with `ply npuzzle pdb build --partition {}`)",
            dir.display(),
            strongest.name()
        ),
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
