//! Partitions of the tiles into disjoint patterns, and the published ones.

use std::fmt;
use std::str::FromStr;

use super::pattern::Pattern;
use crate::error::{PdbError, excerpt};

/// The most patterns a partition may have.
pub const MAX_PATTERNS: usize = 6;

/// The most tiles a pattern may have (a ninth tile would make the 15-puzzle's table 4 G
/// entries).
pub const MAX_PATTERN_TILES: usize = 8;

/// A published partition: the one list every front end (the `ply` command's values, the
/// Python binding's names) takes its partitions from, weakest first within a puzzle size.
///
/// The 24-puzzle's is Korf and Felner's, "Disjoint pattern database heuristics" (Artificial
/// Intelligence 134, 2002); 7-8 is theirs too (tiles 1-7 and 8-15). For 5-5-5 and 6-6-3
/// Felner, Korf and Hanan ("Additive pattern database heuristics", JAIR 22, 2004) publish
/// mean values (41.56 and 42.92 without reflection) rather than tiles here; these are the
/// strongest of the compact partitions measured on Korf's 100 (means 41.55 and 42.37).
///
/// ```
/// use ply_npuzzle::pdb::Published;
/// assert_eq!(Published::from_name("pdb78"), Some(Published::P78));
/// assert_eq!("6-6-6-6".parse(), Ok(Published::P6666));
/// assert_eq!(Published::P78.partition().file_name(), "npuzzle-4x4-7-8.pdb");
/// let strongest: Vec<_> = Published::strongest_first(4).map(Published::name).collect();
/// assert_eq!(strongest, ["7-8", "6-6-3", "5-5-5"]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Published {
    /// 15-puzzle: three patterns of 5 tiles.
    P555,
    /// 15-puzzle: 6, 6 and 3 tiles.
    P663,
    /// 15-puzzle: tiles 1-7 and 8-15.
    P78,
    /// 24-puzzle: four patterns of 6 tiles.
    P6666,
}

impl Published {
    /// Every published partition, 15-puzzle first, weakest first within a size.
    pub const ALL: [Published; 4] = [
        Published::P555,
        Published::P663,
        Published::P78,
        Published::P6666,
    ];

    /// The width of the puzzle it is for.
    #[must_use]
    pub const fn width(self) -> usize {
        match self {
            Published::P555 | Published::P663 | Published::P78 => 4,
            Published::P6666 => 5,
        }
    }

    /// The name: pattern sizes joined by dashes (`7-8`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Published::P555 => "5-5-5",
            Published::P663 => "6-6-3",
            Published::P78 => "7-8",
            Published::P6666 => "6-6-6-6",
        }
    }

    /// The heuristic's name, as `ply npuzzle --heuristic` and Python's `solve` spell it
    /// (`pdb78`).
    #[must_use]
    pub const fn heuristic_name(self) -> &'static str {
        match self {
            Published::P555 => "pdb555",
            Published::P663 => "pdb663",
            Published::P78 => "pdb78",
            Published::P6666 => "pdb6666",
        }
    }

    /// One line on its patterns, their size and the time to build them.
    #[must_use]
    pub const fn summary(self) -> &'static str {
        match self {
            Published::P555 => {
                "15-puzzle: three patterns of 5 tiles (3 x 524,160 entries, about a second to build)"
            }
            Published::P663 => "15-puzzle: 6, 6 and 3 tiles (2 x 5.8 M + 3,360 entries, seconds)",
            Published::P78 => "15-puzzle: tiles 1-7 and 8-15 (57.7 M + 518.9 M entries, minutes)",
            Published::P6666 => {
                "24-puzzle: Korf and Felner's four patterns of 6 tiles (4 x 127.5 M entries)"
            }
        }
    }

    /// The tiles of each pattern.
    #[must_use]
    pub const fn tiles(self) -> &'static [&'static [u8]] {
        match self {
            Published::P555 => &[&[1, 4, 5, 8, 9], &[2, 3, 6, 7, 11], &[10, 12, 13, 14, 15]],
            Published::P663 => &[&[1, 4, 5, 8, 9, 12], &[2, 3, 6, 7, 10, 11], &[13, 14, 15]],
            Published::P78 => &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
            Published::P6666 => &[
                &[1, 2, 5, 6, 7, 12],
                &[3, 4, 8, 9, 13, 14],
                &[10, 11, 15, 16, 20, 21],
                &[17, 18, 19, 22, 23, 24],
            ],
        }
    }

    /// The partition.
    #[must_use]
    pub fn partition(self) -> Partition {
        Partition::new(self.width(), self.tiles()).expect("published partitions are valid")
    }

    /// The published partitions of `width`, strongest first: the order in which a front end
    /// looks for the strongest database present.
    pub fn strongest_first(width: usize) -> impl Iterator<Item = Published> {
        Published::ALL
            .into_iter()
            .rev()
            .filter(move |p| p.width() == width)
    }

    /// The partition a name stands for: its own (`7-8`), without dashes (`78`) or as a
    /// heuristic (`pdb78`).
    #[must_use]
    pub fn from_name(name: &str) -> Option<Published> {
        let key = name.strip_prefix("pdb").unwrap_or(name).replace('-', "");
        Published::ALL
            .into_iter()
            .find(|p| p.name().replace('-', "") == key)
    }
}

impl FromStr for Published {
    type Err = UnknownPartition;

    /// [`Published::from_name`], or the error listing the names.
    fn from_str(name: &str) -> Result<Published, UnknownPartition> {
        Published::from_name(name).ok_or_else(|| UnknownPartition(excerpt(name)))
    }
}

/// A name that is no published partition (its text, shortened by [`excerpt`]); the message
/// lists the names: `unknown partition '4-4' (expected 5-5-5, 6-6-3, 7-8 or 6-6-6-6)`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown partition '{0}' (expected {names})", names = published_names())]
pub struct UnknownPartition(pub String);

/// The published partitions' names, `5-5-5, 6-6-3, 7-8 or 6-6-6-6`.
fn published_names() -> String {
    let names = Published::ALL.map(Published::name);
    let (last, others) = names.split_last().expect("partitions are published");
    format!("{} or {last}", others.join(", "))
}

/// Disjoint patterns that together hold every tile of a `width x width` puzzle: the sum of
/// their database values is an admissible heuristic.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Partition {
    width: usize,
    patterns: Vec<Pattern>,
}

impl Partition {
    /// A partition of the tiles of a `width x width` puzzle.
    ///
    /// # Errors
    /// [`PdbError::Partition`] unless the width is 3, 4 or 5 and the patterns (at most
    /// [`MAX_PATTERNS`], none empty) hold every tile exactly once.
    pub fn new(width: usize, patterns: &[&[u8]]) -> Result<Self, PdbError> {
        let bad = |why: String| Err(PdbError::Partition(why));
        if !(3..=5).contains(&width) {
            return bad(format!("width {width} is not 3, 4 or 5"));
        }
        if patterns.is_empty() || patterns.len() > MAX_PATTERNS {
            return bad(format!("{} patterns (1 to {MAX_PATTERNS})", patterns.len()));
        }
        let cells = width * width;
        let mut seen = vec![false; cells];
        for pattern in patterns {
            if pattern.is_empty() || pattern.len() > MAX_PATTERN_TILES {
                return bad(format!(
                    "a pattern of {} tiles (1 to {MAX_PATTERN_TILES})",
                    pattern.len()
                ));
            }
            for &tile in *pattern {
                let t = usize::from(tile);
                if t == 0 || t >= cells {
                    return bad(format!(
                        "tile {tile} is not a tile of the {cells}-cell puzzle"
                    ));
                }
                if std::mem::replace(&mut seen[t], true) {
                    return bad(format!("tile {tile} is in two patterns"));
                }
            }
        }
        if let Some(missing) = (1..cells).find(|&t| !seen[t]) {
            return bad(format!("tile {missing} is in no pattern"));
        }
        Ok(Self {
            width,
            patterns: patterns.iter().map(|p| Pattern::new(width, p)).collect(),
        })
    }

    /// A published partition by name (`5-5-5`, `6-6-3`, `7-8` for width 4, `6-6-6-6` for
    /// width 5).
    #[must_use]
    pub fn named(width: usize, name: &str) -> Option<Self> {
        Published::ALL
            .into_iter()
            .find(|p| p.width() == width && p.name() == name)
            .map(Published::partition)
    }

    /// Every published partition of `width`, weakest first.
    #[must_use]
    pub fn published(width: usize) -> Vec<Self> {
        Published::ALL
            .into_iter()
            .filter(|p| p.width() == width)
            .map(Published::partition)
            .collect()
    }

    /// The puzzle's width.
    #[must_use]
    pub fn width(&self) -> usize {
        self.width
    }

    /// The patterns.
    #[must_use]
    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }

    /// The name: pattern sizes joined by dashes (`7-8`).
    #[must_use]
    pub fn name(&self) -> String {
        let sizes: Vec<String> = self
            .patterns
            .iter()
            .map(|p| p.tiles().len().to_string())
            .collect();
        sizes.join("-")
    }

    /// Whether this is the published partition of its name (custom partitions may share a
    /// name with a published one but not its tiles).
    #[must_use]
    pub fn is_published(&self) -> bool {
        Self::named(self.width, &self.name()).is_some_and(|p| p == *self)
    }

    /// The database file name: puzzle size and partition (`npuzzle-4x4-7-8.pdb`); custom
    /// partitions also carry their tiles.
    #[must_use]
    pub fn file_name(&self) -> String {
        let w = self.width;
        if self.is_published() {
            format!("npuzzle-{w}x{w}-{}.pdb", self.name())
        } else {
            let groups: Vec<String> = self
                .patterns
                .iter()
                .map(|p| {
                    let tiles: Vec<String> = p.tiles().iter().map(u8::to_string).collect();
                    tiles.join(".")
                })
                .collect();
            format!("npuzzle-{w}x{w}-custom-{}.pdb", groups.join("-"))
        }
    }

    /// Total entries over all patterns.
    #[must_use]
    pub fn entries(&self) -> u64 {
        self.patterns.iter().map(Pattern::entries).sum()
    }
}

impl fmt::Display for Partition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = self.width;
        write!(f, "{} ({w}x{w})", self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn published_partitions_cover_their_puzzles() {
        for published in Published::ALL {
            let p = Partition::named(published.width(), published.name()).unwrap();
            assert_eq!(p.name(), published.name());
            assert_eq!(p.width(), published.width());
            assert!(p.is_published());
            assert_eq!(
                Published::from_name(published.heuristic_name()),
                Some(published)
            );
            assert_eq!(Published::from_name(published.name()), Some(published));
        }
        assert_eq!(Published::from_name("pdb79"), None);
        assert_eq!("pdb78".parse(), Ok(Published::P78));
        assert_eq!(
            "4-4".parse::<Published>().unwrap_err().to_string(),
            "unknown partition '4-4' (expected 5-5-5, 6-6-3, 7-8 or 6-6-6-6)"
        );
        assert_eq!(
            Partition::named(4, "7-8").unwrap().entries(),
            57_657_600 + 518_918_400
        );
        assert_eq!(
            Partition::named(4, "7-8").unwrap().file_name(),
            "npuzzle-4x4-7-8.pdb"
        );
        assert!(Partition::named(5, "7-8").is_none());
        assert_eq!(Partition::published(4).len(), 3);
    }

    #[test]
    fn bad_partitions_are_named() {
        let err = |w, p: &[&[u8]]| Partition::new(w, p).unwrap_err().to_string();
        assert!(err(3, &[&[1, 2, 3], &[3, 4, 5, 6, 7, 8]]).contains("tile 3 is in two"));
        assert!(err(3, &[&[1, 2, 3], &[4, 5, 6, 7]]).contains("tile 8 is in no pattern"));
        assert!(err(3, &[&[1, 2, 3, 9], &[4, 5, 6, 7, 8]]).contains("tile 9"));
        assert!(err(6, &[&[1]]).contains("width 6"));
        let custom = Partition::new(3, &[&[1, 2, 3, 4], &[5, 6, 7, 8]]).unwrap();
        assert!(!custom.is_published());
        assert_eq!(custom.file_name(), "npuzzle-3x3-custom-1.2.3.4-5.6.7.8.pdb");
    }
}
