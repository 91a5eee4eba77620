//! Pattern databases on the command line: where they live, `ply npuzzle pdb build | list`,
//! and choosing, loading or building them for `solve` and `bench`.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand, ValueEnum};
use ply_npuzzle::pdb::{Partition, PatternDatabase};
use ply_npuzzle::{Heuristic, PdbError};

use crate::format::{progress, table, thousands};

/// The published partitions, as command-line values.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, ValueEnum)]
pub enum PartitionArg {
    /// 15-puzzle: three patterns of 5 tiles (3 x 524,160 entries, about a second to build).
    #[value(name = "5-5-5")]
    P555,
    /// 15-puzzle: 6, 6 and 3 tiles (2 x 5.8 M + 3,360 entries, seconds).
    #[value(name = "6-6-3")]
    P663,
    /// 15-puzzle: tiles 1-7 and 8-15 (57.7 M + 518.9 M entries, minutes).
    #[value(name = "7-8")]
    P78,
    /// 24-puzzle: Korf and Felner's four patterns of 6 tiles (4 x 127.5 M entries).
    #[value(name = "6-6-6-6")]
    P6666,
}

impl PartitionArg {
    /// Every partition, 15-puzzle first, weakest first.
    pub const ALL: [PartitionArg; 4] = [
        PartitionArg::P555,
        PartitionArg::P663,
        PartitionArg::P78,
        PartitionArg::P6666,
    ];

    /// The puzzle width and the partition's name.
    fn spec(self) -> (usize, &'static str) {
        match self {
            PartitionArg::P555 => (4, "5-5-5"),
            PartitionArg::P663 => (4, "6-6-3"),
            PartitionArg::P78 => (4, "7-8"),
            PartitionArg::P6666 => (5, "6-6-6-6"),
        }
    }

    /// The partition.
    pub fn partition(self) -> Partition {
        let (width, name) = self.spec();
        Partition::named(width, name).expect("published partition")
    }

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        self.spec().1
    }

    /// The strongest first, for a width.
    fn strongest_first(width: usize) -> impl Iterator<Item = PartitionArg> {
        PartitionArg::ALL
            .into_iter()
            .rev()
            .filter(move |p| p.spec().0 == width)
    }
}

/// Where databases are looked for and what to do when one is missing.
#[derive(Args, Debug, Clone)]
pub struct PdbArgs {
    /// Directory of pattern database files [default: $XDG_CACHE_HOME/ply, else ~/.cache/ply].
    #[arg(long, value_name = "DIR", env = "PLY_PDB_DIR")]
    pdb_dir: Option<PathBuf>,
    /// Build a needed database that is missing (and save it) instead of failing.
    #[arg(long)]
    build_missing: bool,
    /// Use the pattern databases without maximising with their reflection.
    #[arg(long)]
    no_reflection: bool,
}

impl PdbArgs {
    /// The database directory: `--pdb-dir`, `PLY_PDB_DIR`, the user's cache directory.
    pub fn dir(&self) -> Result<PathBuf> {
        resolve_dir(self.pdb_dir.as_deref())
    }
}

/// `--pdb-dir` (or `PLY_PDB_DIR`, which clap reads into it), else `$XDG_CACHE_HOME/ply`,
/// else `~/.cache/ply`.
fn resolve_dir(explicit: Option<&Path>) -> Result<PathBuf> {
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
                Err(e) => eprintln!("ply: warning: {e}; not used"),
            }
        }
        if self.args.build_missing {
            return Ok(Some(strongest));
        }
        if !self.noted {
            self.noted = true;
            eprintln!(
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

/// Builds a partition's databases with a progress bar on stderr and saves them to `path`.
fn build_and_save(p: PartitionArg, path: &Path) -> Result<()> {
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
    eprintln!(
        "ply: built the {partition} pattern databases ({} entries) in {:.1} s: {}",
        thousands(total),
        started.elapsed().as_secs_f64(),
        path.display()
    );
    Ok(())
}

/// `ply npuzzle pdb` verbs.
#[derive(Subcommand, Debug)]
pub enum PdbCommand {
    /// Builds a partition's pattern databases (all cores) and saves them atomically.
    Build(BuildArgs),
    /// Lists the published partitions and the state of their files.
    List(ListArgs),
}

/// Arguments of `ply npuzzle pdb build`.
#[derive(Args, Debug)]
pub struct BuildArgs {
    /// The partition to build.
    #[arg(long, value_enum)]
    partition: PartitionArg,
    /// Directory of pattern database files [default: $XDG_CACHE_HOME/ply, else ~/.cache/ply].
    #[arg(long, value_name = "DIR", env = "PLY_PDB_DIR")]
    pdb_dir: Option<PathBuf>,
    /// Rebuild even if a sound file is already there.
    #[arg(long)]
    force: bool,
}

/// Arguments of `ply npuzzle pdb list`.
#[derive(Args, Debug)]
pub struct ListArgs {
    /// Directory of pattern database files [default: $XDG_CACHE_HOME/ply, else ~/.cache/ply].
    #[arg(long, value_name = "DIR", env = "PLY_PDB_DIR")]
    pdb_dir: Option<PathBuf>,
}

/// Runs a `ply npuzzle pdb` verb.
pub fn run(cmd: PdbCommand) -> Result<()> {
    match cmd {
        PdbCommand::Build(args) => {
            let path =
                resolve_dir(args.pdb_dir.as_deref())?.join(args.partition.partition().file_name());
            if !args.force {
                match PatternDatabase::load(&path, &args.partition.partition()) {
                    Ok(_) => {
                        eprintln!(
                            "ply: {} is already built and sound (--force rebuilds it)",
                            path.display()
                        );
                        println!("{}", path.display());
                        return Ok(());
                    }
                    Err(PdbError::Missing { .. }) => {}
                    Err(e) => eprintln!("ply: warning: {e}; rebuilding it"),
                }
            }
            build_and_save(args.partition, &path)?;
            println!("{}", path.display());
            Ok(())
        }
        PdbCommand::List(args) => {
            let dir = resolve_dir(args.pdb_dir.as_deref())?;
            let mut out = std::io::stdout().lock();
            let mut t = table(["puzzle", "partition", "entries", "file", "status"]);
            for p in PartitionArg::ALL {
                let partition = p.partition();
                let path = dir.join(partition.file_name());
                let status = match PatternDatabase::load(&path, &partition) {
                    Ok(db) => format!("ok, {} MB", db.data().len().div_ceil(1 << 20)),
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
            Ok(())
        }
    }
}
