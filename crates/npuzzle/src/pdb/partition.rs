//! Partitions of the tiles into disjoint patterns, and the published ones.

use std::fmt;

use super::pattern::Pattern;
use crate::error::PdbError;

/// The most patterns a partition may have.
pub const MAX_PATTERNS: usize = 6;

/// The most tiles a pattern may have (a ninth tile would make the 15-puzzle's table 4 G
/// entries).
pub const MAX_PATTERN_TILES: usize = 8;

/// The partitions `ply npuzzle pdb build` knows by name: width, name, patterns.
///
/// The 24-puzzle's is Korf and Felner's, "Disjoint pattern database heuristics" (Artificial
/// Intelligence 134, 2002); 7-8 is theirs too (tiles 1-7 and 8-15). For 5-5-5 and 6-6-3
/// Felner, Korf and Hanan ("Additive pattern database heuristics", JAIR 22, 2004) publish
/// mean values (41.56 and 42.92 without reflection) rather than tiles here; these are the
/// strongest of the compact partitions measured on Korf's 100 (means 41.55 and 42.37).
const NAMED: [(usize, &str, &[&[u8]]); 4] = [
    (
        4,
        "5-5-5",
        &[&[1, 4, 5, 8, 9], &[2, 3, 6, 7, 11], &[10, 12, 13, 14, 15]],
    ),
    (
        4,
        "6-6-3",
        &[&[1, 4, 5, 8, 9, 12], &[2, 3, 6, 7, 10, 11], &[13, 14, 15]],
    ),
    (
        4,
        "7-8",
        &[&[1, 2, 3, 4, 5, 6, 7], &[8, 9, 10, 11, 12, 13, 14, 15]],
    ),
    (
        5,
        "6-6-6-6",
        &[
            &[1, 2, 5, 6, 7, 12],
            &[3, 4, 8, 9, 13, 14],
            &[10, 11, 15, 16, 20, 21],
            &[17, 18, 19, 22, 23, 24],
        ],
    ),
];

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
        NAMED
            .iter()
            .find(|(w, n, _)| *w == width && *n == name)
            .map(|(w, _, patterns)| Self::new(*w, patterns).expect("published partitions"))
    }

    /// Every published partition of `width`, weakest first.
    #[must_use]
    pub fn published(width: usize) -> Vec<Self> {
        NAMED
            .iter()
            .filter(|(w, _, _)| *w == width)
            .map(|(w, _, patterns)| Self::new(*w, patterns).expect("published partitions"))
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
        for (width, name, _) in NAMED {
            let p = Partition::named(width, name).unwrap();
            assert_eq!(p.name(), name);
            assert!(p.is_published());
        }
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
