//! Where pattern database files live, and which one a search uses when its user names none:
//! one policy for the `ply` command and the Python binding.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::partition::Published;
use crate::error::PdbError;

/// The database directory: `explicit` (a command-line option, a keyword argument), else
/// `$PLY_PDB_DIR`, else `$XDG_CACHE_HOME/ply`, else `$HOME/.cache/ply`; `None` when none of
/// them is set. An empty variable counts as unset, and a relative `XDG_CACHE_HOME` is
/// ignored, as the XDG Base Directory specification says.
///
/// ```
/// use std::path::Path;
/// let dir = ply_npuzzle::pdb::database_dir(Some(Path::new("/tmp")))?;
/// assert_eq!(dir.as_deref(), Some(Path::new("/tmp")));
/// # Ok::<(), ply_npuzzle::PdbError>(())
/// ```
///
/// # Errors
/// [`PdbError::NotADirectory`] when the path exists but is not a directory (a regular file,
/// say).
pub fn database_dir(explicit: Option<&Path>) -> Result<Option<PathBuf>, PdbError> {
    let dir = choose_dir(explicit, |name| std::env::var_os(name));
    if let Some(dir) = &dir
        && std::fs::metadata(dir).is_ok_and(|meta| !meta.is_dir())
    {
        return Err(PdbError::NotADirectory {
            path: dir.display().to_string(),
        });
    }
    Ok(dir)
}

/// [`database_dir`]'s choice, with the environment read through `var`.
fn choose_dir(explicit: Option<&Path>, var: impl Fn(&str) -> Option<OsString>) -> Option<PathBuf> {
    let non_empty = |name| var(name).filter(|v| !v.is_empty());
    explicit
        .map(Path::to_path_buf)
        .or_else(|| non_empty("PLY_PDB_DIR").map(PathBuf::from))
        .or_else(|| {
            non_empty("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .filter(|cache| cache.is_absolute())
                .map(|cache| cache.join("ply"))
        })
        .or_else(|| non_empty("HOME").map(|home| PathBuf::from(home).join(".cache").join("ply")))
}

/// What [`strongest_present`] found for a board size.
#[derive(Debug)]
pub struct Present<T> {
    /// The strongest partition whose database was loaded, and what loading it gave.
    pub found: Option<(Published, T)>,
    /// The files that are there but could not be used (damaged, of another partition,
    /// unreadable), strongest first: each is worth a warning, since a weaker database or none
    /// is used instead.
    pub unusable: Vec<PdbError>,
}

/// The strongest published database present in `dir` for boards of `width`, the default of
/// every front end when its user names no heuristic: the partitions are tried strongest
/// first with `load` (given each partition and its file), missing files are skipped, and the
/// problems of files that are there but unusable are kept. `load` is the front end's, so that
/// it can keep databases loaded from one solve to the next.
///
/// ```
/// use ply_npuzzle::pdb::{Published, strongest_present};
/// let dir = tempfile::tempdir()?;
/// let present = strongest_present(dir.path(), 4, |p, path| {
///     ply_npuzzle::pdb::PatternDatabase::load(path, &p.partition())
/// });
/// assert!(present.found.is_none() && present.unusable.is_empty());
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn strongest_present<T>(
    dir: &Path,
    width: usize,
    mut load: impl FnMut(Published, &Path) -> Result<T, PdbError>,
) -> Present<T> {
    let mut unusable = Vec::new();
    for published in Published::strongest_first(width) {
        let path = dir.join(published.partition().file_name());
        match load(published, &path) {
            Ok(found) => {
                return Present {
                    found: Some((published, found)),
                    unusable,
                };
            }
            Err(PdbError::Missing { .. }) => {}
            Err(e) => unusable.push(e),
        }
    }
    Present {
        found: None,
        unusable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(explicit: Option<&str>, vars: &[(&str, &str)]) -> Option<PathBuf> {
        let vars: Vec<(String, OsString)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), OsString::from(v)))
            .collect();
        choose_dir(explicit.map(Path::new), |name| {
            vars.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
        })
    }

    #[test]
    fn the_directory_comes_from_the_first_source_set() {
        let all = [
            ("PLY_PDB_DIR", "/pdb"),
            ("XDG_CACHE_HOME", "/cache"),
            ("HOME", "/home/u"),
        ];
        assert_eq!(dir(Some("x"), &all), Some(PathBuf::from("x")));
        assert_eq!(dir(None, &all), Some(PathBuf::from("/pdb")));
        assert_eq!(dir(None, &all[1..]), Some(PathBuf::from("/cache/ply")));
        assert_eq!(
            dir(None, &all[2..]),
            Some(PathBuf::from("/home/u/.cache/ply"))
        );
        assert_eq!(dir(None, &[]), None);
        // Empty variables count as unset; a relative cache directory is ignored.
        let odd = [
            ("PLY_PDB_DIR", ""),
            ("XDG_CACHE_HOME", "rel"),
            ("HOME", "/h"),
        ];
        assert_eq!(dir(None, &odd), Some(PathBuf::from("/h/.cache/ply")));
    }

    #[test]
    fn the_strongest_usable_file_wins_and_unusable_ones_are_reported() {
        let present = strongest_present(Path::new("/nowhere"), 4, |p, path| match p {
            Published::P78 => Err(PdbError::Corrupt {
                path: path.display().to_string(),
                why: "damaged".into(),
            }),
            Published::P663 => Ok("6-6-3"),
            _ => panic!("{p:?} is weaker than a database present"),
        });
        assert_eq!(present.found, Some((Published::P663, "6-6-3")));
        assert_eq!(present.unusable.len(), 1);
        let none = strongest_present(Path::new("/nowhere"), 3, |_, _| Ok(()));
        assert!(none.found.is_none());
    }
}
