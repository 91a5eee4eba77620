//! What the `ply npuzzle` commands and the demo share: loading instances, choosing and
//! loading pattern databases, and solving with every answer checked.

use super::args::{HeuristicArg, PartitionArg, PdbArgs};
use crate::format::{progress, read_parsed, thousands};
use anyhow::{Context, Result, bail};
use ply_npuzzle::pdb::PatternDatabase;
use ply_npuzzle::{Heuristic, Instance, PdbError, check_solution, parse_instances, solve_parallel};
use ply_search::{IdaOutcome, IdaReport, Limits};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Reads and parses an instance file, naming it in errors.
pub fn load(path: &str) -> Result<Vec<Instance>> {
    read_parsed(path, parse_instances)
}

/// Solves one instance and checks the solution before anyone sees it.
pub fn solve_checked(
    instance: &Instance,
    heuristic: Heuristic<'_>,
    limits: Limits,
    threads: u16,
) -> Result<IdaReport<ply_npuzzle::Direction>> {
    let report = solve_parallel(&instance.board, heuristic, limits, usize::from(threads))
        .with_context(|| format!("instance {}", instance.label()))?;
    if let IdaOutcome::Solved { cost, path } = &report.outcome {
        if let Err(why) = check_solution(&instance.board, path) {
            bail!(
                "internal error: solution for {} is wrong: {why}",
                instance.label()
            );
        }
        if path.len() != *cost as usize {
            bail!(
                "internal error: solution for {} has {} moves but cost {cost}",
                instance.label(),
                path.len()
            );
        }
        if let Some(known) = instance.optimal {
            if known != *cost {
                bail!(
                    "solution for {} has {cost} moves but the known optimum is {known}",
                    instance.label()
                );
            }
        }
    }
    Ok(report)
}

/// The choice a `--heuristic` value (or its absence) makes.
pub fn choice(arg: Option<HeuristicArg>) -> Choice {
    match arg {
        None => Choice::Strongest,
        Some(HeuristicArg::Manhattan) => Choice::Manhattan,
        Some(HeuristicArg::LinearConflict) => Choice::LinearConflict,
        Some(HeuristicArg::Pdb555) => Choice::Pdb(PartitionArg::P555),
        Some(HeuristicArg::Pdb663) => Choice::Pdb(PartitionArg::P663),
        Some(HeuristicArg::Pdb78) => Choice::Pdb(PartitionArg::P78),
        Some(HeuristicArg::Pdb6666) => Choice::Pdb(PartitionArg::P6666),
    }
}

/// The heuristic a user asked for: a table-free one, a database, or the default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Manhattan distance.
    Manhattan,
    /// Linear conflict.
    LinearConflict,
    /// A published partition's databases.
    Pdb(PartitionArg),
    /// The strongest database present for the board's size, else linear conflict.
    Strongest,
}

/// Databases loaded (or built) on demand, each once per run.
pub struct Databases {
    dir: PathBuf,
    args: PdbArgs,
    loaded: HashMap<PartitionArg, PatternDatabase>,
    noted: bool,
}

impl Databases {
    /// A store over the directory the arguments name.
    pub fn new(args: &PdbArgs) -> Result<Self> {
        Ok(Self {
            dir: args.dir()?,
            args: args.clone(),
            loaded: HashMap::new(),
            noted: false,
        })
    }

    /// Makes sure the databases `choice` needs for boards of `width` are loaded (building
    /// them if allowed), and returns which partition to use (`None`: a table-free heuristic).
    pub fn prepare(&mut self, choice: Choice, width: usize) -> Result<Option<PartitionArg>> {
        let wanted = match choice {
            Choice::Manhattan | Choice::LinearConflict => return Ok(None),
            Choice::Pdb(p) => {
                let (w, name) = p.spec();
                if w != width {
                    let flag = name.replace('-', "");
                    bail!("--heuristic pdb{flag} is for {w}x{w} boards, not {width}x{width}");
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
    pub fn heuristic(&self, choice: Choice, partition: Option<PartitionArg>) -> Heuristic<'_> {
        match (choice, partition) {
            (Choice::Manhattan, _) => Heuristic::Manhattan,
            (_, Some(p)) => Heuristic::Pdb {
                database: &self.loaded[&p],
                reflect: !self.args.no_reflection,
            },
            _ => Heuristic::LinearConflict,
        }
    }

    /// The strongest sound database file present for `width` (built if allowed and none is),
    /// noting on stderr when there is none and linear conflict stands in.
    fn strongest_present(&mut self, width: usize) -> Result<Option<PartitionArg>> {
        let mut candidates = PartitionArg::strongest_first(width).peekable();
        let Some(&strongest) = candidates.peek() else {
            return Ok(None);
        };
        for p in candidates {
            if self.loaded.contains_key(&p) {
                return Ok(Some(p));
            }
            match PatternDatabase::load(&self.path(p), &p.partition()) {
                Ok(db) => {
                    self.loaded.insert(p, db);
                    return Ok(Some(p));
                }
                Err(PdbError::Missing { .. }) => {}
                Err(e) => errln!("ply: warning: {e}; not used"),
            }
        }
        if self.args.build_missing {
            return Ok(Some(strongest));
        }
        if !self.noted {
            self.noted = true;
            errln!(
                "ply: note: no pattern database for {width}x{width} boards in {}; using \
                 linear conflict (build one with `ply npuzzle pdb build --partition {}`)",
                self.dir.display(),
                strongest.name()
            );
        }
        Ok(None)
    }

    /// The file of a partition.
    fn path(&self, p: PartitionArg) -> PathBuf {
        self.dir.join(p.partition().file_name())
    }

    fn load_or_build(&self, p: PartitionArg) -> Result<PatternDatabase> {
        let path = self.path(p);
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

impl PdbArgs {
    /// The database directory: `--pdb-dir`, `PLY_PDB_DIR`, the user's cache directory.
    pub fn dir(&self) -> Result<PathBuf> {
        resolve_dir(self.pdb_dir.as_deref())
    }
}

/// `--pdb-dir` (or `PLY_PDB_DIR`, which clap reads into it), else `$XDG_CACHE_HOME/ply`,
/// else `~/.cache/ply`.
pub fn resolve_dir(explicit: Option<&Path>) -> Result<PathBuf> {
    if let Some(dir) = explicit {
        return Ok(dir.to_path_buf());
    }
    let non_empty = |name| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(cache) = non_empty("XDG_CACHE_HOME") {
        return Ok(PathBuf::from(cache).join("ply"));
    }
    match non_empty("HOME") {
        Some(home) => Ok(PathBuf::from(home).join(".cache").join("ply")),
        None => bail!("no database directory: set --pdb-dir, PLY_PDB_DIR or HOME"),
    }
}

/// Builds a partition's databases with a progress bar on stderr and saves them to `path`.
pub fn build_and_save(p: PartitionArg, path: &Path) -> Result<()> {
    PatternDatabase::check_writable(path)?;
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
    db.save(path)?;
    bar.finish_and_clear();
    errln!(
        "ply: built the {partition} pattern databases ({} entries) in {:.1} s: {}",
        thousands(total),
        started.elapsed().as_secs_f64(),
        path.display()
    );
    Ok(())
}
