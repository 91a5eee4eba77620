//! The heuristic a search uses, named by its user or chosen for them, and the databases it
//! needs, each loaded once while its file is unchanged: one store for the `ply` command and
//! the Python binding, which keep only their words (notes, warnings, errors).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;
use std::time::SystemTime;

use super::database::PatternDatabase;
use super::directory::strongest_present;
use super::partition::{Partition, Published};
use crate::error::PdbError;
use crate::heuristic::HeuristicKind;

/// The heuristic a user asks for: a table-free one, a published partition's databases, or
/// the default, the strongest database present for the board's size.
///
/// ```
/// use ply_npuzzle::pdb::{Choice, Published};
/// assert_eq!("pdb78".parse(), Ok(Choice::Pdb(Published::P78)));
/// assert_eq!("strongest".parse(), Ok(Choice::Strongest));
/// assert!("7-8".parse::<Choice>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Manhattan distance.
    Manhattan,
    /// Linear conflict.
    LinearConflict,
    /// A published partition's databases.
    Pdb(Published),
    /// The strongest database present for the board's size, else linear conflict.
    Strongest,
}

impl Choice {
    /// Every heuristic a user can name, in the order the front ends list them (`ply npuzzle
    /// --heuristic`, Python's `HEURISTICS`): the table-free ones, then the published
    /// partitions' databases ([`Choice::Strongest`], the default, aside).
    pub fn named() -> impl Iterator<Item = Choice> {
        [Choice::Manhattan, Choice::LinearConflict]
            .into_iter()
            .chain(Published::ALL.map(Choice::Pdb))
    }

    /// The names of [`Choice::named`].
    ///
    /// ```
    /// let names = ply_npuzzle::pdb::Choice::names();
    /// assert_eq!(names[..3], ["manhattan", "linear-conflict", "pdb555"]);
    /// ```
    #[must_use]
    pub fn names() -> Vec<&'static str> {
        Choice::named().map(Choice::name).collect()
    }

    /// The name a user gives for it (`pdb78`), which parses back to it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Choice::Manhattan => HeuristicKind::Manhattan.name(),
            Choice::LinearConflict => HeuristicKind::LinearConflict.name(),
            Choice::Pdb(published) => published.heuristic_name(),
            Choice::Strongest => "strongest",
        }
    }
}

/// A name that is no [`Choice`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown heuristic '{0}'")]
pub struct UnknownChoice(pub String);

impl FromStr for Choice {
    type Err = UnknownChoice;

    /// `manhattan`, `linear-conflict`, `strongest`, or `pdb` and a published partition's
    /// name (`pdb78`, also `pdb7-8`).
    fn from_str(name: &str) -> Result<Self, UnknownChoice> {
        match name {
            "manhattan" => Ok(Choice::Manhattan),
            "linear-conflict" => Ok(Choice::LinearConflict),
            "strongest" => Ok(Choice::Strongest),
            _ => name
                .starts_with("pdb")
                .then(|| Published::from_name(name))
                .flatten()
                .map(Choice::Pdb)
                .ok_or_else(|| UnknownChoice(name.to_string())),
        }
    }
}

/// What a [`Choice`] comes to for a board size: a table-free heuristic or databases.
#[derive(Clone, Debug)]
pub enum Chosen {
    /// Manhattan distance or linear conflict.
    Kind(HeuristicKind),
    /// Pattern databases.
    Database(Arc<PatternDatabase>),
}

/// Why [`Choice::Strongest`] came to linear conflict for a size that has databases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fallback {
    /// There is no database directory.
    NoDirectory,
    /// No file in `dir` could be used: none is there, or those there are unusable (see
    /// [`Choosing::unusable`]). `strongest` is the partition worth building.
    Absent {
        /// The directory searched.
        dir: PathBuf,
        /// The strongest partition for the size.
        strongest: Published,
    },
}

/// What [`Databases::choose`] found.
#[derive(Debug)]
pub struct Choosing {
    /// The heuristic.
    pub chosen: Chosen,
    /// The files that are there but could not be used, strongest first (each worth a
    /// warning, since a weaker heuristic is used instead).
    pub unusable: Vec<PdbError>,
    /// Why the default came to linear conflict, if it did for a size that has databases.
    pub fallback: Option<Fallback>,
}

/// Why the databases a user named cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ChoiceError {
    /// They are for another board size.
    #[error("{} is for {w}x{w} boards, not {width}x{width}", .published.heuristic_name(), w = .published.width())]
    Width {
        /// The partition named.
        published: Published,
        /// The boards' width.
        width: usize,
    },
    /// There is no database directory to find their file in.
    #[error("no pattern database directory for {}", .0.heuristic_name())]
    NoDirectory(Published),
    /// Their file could not be loaded (missing, damaged, of another partition).
    #[error("{error}")]
    Load {
        /// The partition named.
        published: Published,
        /// Its file.
        path: PathBuf,
        /// Why loading failed.
        error: PdbError,
    },
}

/// A loaded database with its file's length and modification time when loaded.
type Stamped = ((u64, Option<SystemTime>), Arc<PatternDatabase>);

/// Pattern databases loaded from files, by file, kept while the file is unchanged (same
/// length and time): loading checks the whole file, so a loop of solves must not pay for it
/// every time.
#[derive(Debug, Default)]
pub struct Databases {
    loaded: HashMap<PathBuf, Stamped>,
}

impl Databases {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// The databases of `partition` at `path`, from the store while the file is unchanged.
    ///
    /// # Errors
    /// [`PatternDatabase::load`]'s.
    pub fn load(
        &mut self,
        path: &Path,
        partition: &Partition,
    ) -> Result<Arc<PatternDatabase>, PdbError> {
        let stamp = std::fs::metadata(path)
            .map(|m| (m.len(), m.modified().ok()))
            .ok();
        let unchanged = self
            .loaded
            .get(path)
            .filter(|(at, db)| stamp == Some(*at) && db.partition() == partition);
        if let Some((_, db)) = unchanged {
            return Ok(Arc::clone(db));
        }
        let db = Arc::new(PatternDatabase::load(path, partition)?);
        if let Some(stamp) = stamp {
            self.loaded
                .insert(path.to_path_buf(), (stamp, Arc::clone(&db)));
        }
        Ok(db)
    }

    /// The heuristic `choice` comes to for boards of `width`, with the databases of `dir`
    /// (none: there is no directory). The default is the strongest sound database present
    /// ([`strongest_present`]), else linear conflict.
    ///
    /// # Errors
    /// The databases named are for another size, there is no directory, or their file could
    /// not be loaded.
    pub fn choose(
        &mut self,
        choice: Choice,
        width: usize,
        dir: Option<&Path>,
    ) -> Result<Choosing, ChoiceError> {
        let table = |kind| Choosing {
            chosen: Chosen::Kind(kind),
            unusable: Vec::new(),
            fallback: None,
        };
        let published = match choice {
            Choice::Manhattan => return Ok(table(HeuristicKind::Manhattan)),
            Choice::LinearConflict => return Ok(table(HeuristicKind::LinearConflict)),
            Choice::Strongest => return Ok(self.strongest(width, dir)),
            Choice::Pdb(published) => published,
        };
        if published.width() != width {
            return Err(ChoiceError::Width { published, width });
        }
        let dir = dir.ok_or(ChoiceError::NoDirectory(published))?;
        let path = dir.join(published.partition().file_name());
        match self.load(&path, &published.partition()) {
            Ok(db) => Ok(Choosing {
                chosen: Chosen::Database(db),
                unusable: Vec::new(),
                fallback: None,
            }),
            Err(error) => Err(ChoiceError::Load {
                published,
                path,
                error,
            }),
        }
    }

    /// [`Choice::Strongest`] for boards of `width`.
    fn strongest(&mut self, width: usize, dir: Option<&Path>) -> Choosing {
        let linear = |unusable, fallback| Choosing {
            chosen: Chosen::Kind(HeuristicKind::LinearConflict),
            unusable,
            fallback,
        };
        let Some(strongest) = Published::strongest_first(width).next() else {
            return linear(Vec::new(), None);
        };
        let Some(dir) = dir else {
            return linear(Vec::new(), Some(Fallback::NoDirectory));
        };
        let present = strongest_present(dir, width, |p, path| self.load(path, &p.partition()));
        match present.found {
            Some((_, db)) => Choosing {
                chosen: Chosen::Database(db),
                unusable: present.unusable,
                fallback: None,
            },
            None => linear(
                present.unusable,
                Some(Fallback::Absent {
                    dir: dir.to_path_buf(),
                    strongest,
                }),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(choosing: &Choosing) -> String {
        choosing.chosen.heuristic(true).name()
    }

    #[test]
    fn names_parse_as_the_front_ends_spell_them() {
        assert_eq!("manhattan".parse(), Ok(Choice::Manhattan));
        assert_eq!("linear-conflict".parse(), Ok(Choice::LinearConflict));
        assert_eq!("pdb6666".parse(), Ok(Choice::Pdb(Published::P6666)));
        assert_eq!("pdb5-5-5".parse(), Ok(Choice::Pdb(Published::P555)));
        for choice in Choice::named().chain([Choice::Strongest]) {
            assert_eq!(choice.name().parse(), Ok(choice));
        }
        assert_eq!(Choice::names().len(), 2 + Published::ALL.len());
        for bad in ["fast", "pdb44", "78", ""] {
            assert_eq!(bad.parse::<Choice>(), Err(UnknownChoice(bad.into())));
        }
    }

    #[test]
    fn the_default_is_linear_conflict_without_a_database() {
        let mut store = Databases::new();
        let none = store.choose(Choice::Strongest, 4, None).unwrap();
        assert_eq!(name(&none), "linear-conflict");
        assert_eq!(none.fallback, Some(Fallback::NoDirectory));
        // The 8-puzzle has no published partition: nothing to say.
        let small = store.choose(Choice::Strongest, 3, None).unwrap();
        assert!(small.fallback.is_none());
        let dir = tempfile::tempdir().unwrap();
        let empty = store
            .choose(Choice::Strongest, 4, Some(dir.path()))
            .unwrap();
        assert!(empty.unusable.is_empty());
        assert_eq!(
            empty.fallback,
            Some(Fallback::Absent {
                dir: dir.path().to_path_buf(),
                strongest: Published::P78,
            })
        );
        // An unusable file is reported, not used.
        std::fs::write(dir.path().join(Published::P78.partition().file_name()), "x").unwrap();
        let damaged = store
            .choose(Choice::Strongest, 4, Some(dir.path()))
            .unwrap();
        assert_eq!(damaged.unusable.len(), 1);
        assert_eq!(name(&damaged), "linear-conflict");
    }

    #[test]
    fn named_databases_are_checked_and_loaded_once() {
        let mut store = Databases::new();
        assert_eq!(
            name(&store.choose(Choice::Manhattan, 5, None).unwrap()),
            "manhattan"
        );
        let p78 = Choice::Pdb(Published::P78);
        let err = store.choose(p78, 3, None).unwrap_err();
        assert_eq!(err.to_string(), "pdb78 is for 4x4 boards, not 3x3");
        assert!(matches!(
            store.choose(p78, 4, None),
            Err(ChoiceError::NoDirectory(Published::P78))
        ));
        let dir = tempfile::tempdir().unwrap();
        let missing = store.choose(p78, 4, Some(dir.path())).unwrap_err();
        assert!(matches!(
            missing,
            ChoiceError::Load {
                error: PdbError::Missing { .. },
                ..
            }
        ));
        // A small partition of the 8-puzzle stands in for a published one in the cache.
        let partition = Partition::new(3, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap();
        let path = dir.path().join(partition.file_name());
        PatternDatabase::build(&partition, &|_, _, _| {})
            .unwrap()
            .save(&path)
            .unwrap();
        let first = store.load(&path, &partition).unwrap();
        let again = store.load(&path, &partition).unwrap();
        assert!(Arc::ptr_eq(&first, &again));
        assert!(first.is_loaded());
    }
}
