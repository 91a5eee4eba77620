//! Instance files and the bundled instance sets.
//!
//! Two line formats are read, one instance per line; blank lines and lines starting with `#`
//! are skipped, and so is a byte-order mark at the start of the text:
//! - plain: W*W tile numbers separated by any whitespace, tabs included (the course's format);
//! - an instance set (tab-separated): `id<TAB>optimal<TAB>...<TAB>tiles`, the tiles last, as in
//!   the bundled `korf100.tsv`. The optimal length may be blank where unknown. A line is read
//!   this way only when it has at least three tab-separated fields and the last one holds
//!   9, 16 or 25 numbers, so that tab-separated tiles are plain.

use crate::board::Board;
use crate::error::{InstanceError, excerpt};

/// One instance read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// 1-based line number in its file.
    pub line: usize,
    /// The set's identifier, if the line had one.
    pub id: Option<String>,
    /// The known optimal length, if the line had one (a claim of the file, which a solver
    /// checks rather than trusts).
    pub optimal: Option<u32>,
    /// The start board: a permutation of the tiles, not necessarily solvable (see
    /// [`Board::is_solvable`]; [`crate::solve`] refuses an unsolvable one without searching).
    pub board: Board,
}

impl Instance {
    /// The identifier, or the line number when the file had none.
    #[must_use]
    pub fn label(&self) -> String {
        self.id
            .clone()
            .unwrap_or_else(|| format!("line {}", self.line))
    }
}

/// The fields of an instance-set line (id, optimal length, tiles), or `None` for a plain line.
fn set_fields(raw: &str) -> Option<(&str, &str, &str)> {
    if !raw.contains('\t') {
        return None;
    }
    let fields: Vec<&str> = raw.split('\t').map(str::trim).collect();
    let tiles = *fields.last()?;
    let numbers = tiles.split_whitespace().count();
    (fields.len() >= 3 && matches!(numbers, 9 | 16 | 25)).then(|| (fields[0], fields[1], tiles))
}

/// Reads every instance of a file's text, stopping at the first malformed line. A line whose
/// board is a permutation of the right size but cannot reach the goal is an instance like any
/// other (the solver says it is unsolvable), so that one such line does not hide the others.
///
/// # Errors
/// An [`InstanceError`] naming the first malformed line, or [`InstanceError::Empty`].
pub fn parse_instances(text: &str) -> Result<Vec<Instance>, InstanceError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (id, optimal, tiles) = match set_fields(raw) {
            Some((id, optimal, tiles)) => {
                let optimal = match optimal {
                    "" => None,
                    text => Some(text.parse::<u32>().map_err(|_| InstanceError::Field {
                        line,
                        message: format!("optimal length '{}' is not a number", excerpt(text)),
                    })?),
                };
                (Some(id.to_string()), optimal, tiles)
            }
            None => (None, None, trimmed),
        };
        let board = Board::parse_permutation(tiles)
            .map_err(|error| InstanceError::Board { line, error })?;
        out.push(Instance {
            line,
            id,
            optimal,
            board,
        });
    }
    if out.is_empty() {
        return Err(InstanceError::Empty);
    }
    Ok(out)
}

/// The bundled instance sets.
pub mod bundled {
    use super::{Instance, parse_instances};

    /// Korf's 100 random 15-puzzle instances (1985) with their optimal lengths.
    pub const KORF100: &str = include_str!("../../../data/npuzzle/korf100.tsv");
    /// Korf and Felner's 50 random 24-puzzle instances (2002) with their optimal lengths.
    pub const KORF50_24: &str = include_str!("../../../data/npuzzle/korf50-24.tsv");

    /// Korf's 100 instances, parsed.
    ///
    /// # Panics
    /// Never: the bundled file is checked by the tests.
    #[must_use]
    pub fn korf100() -> Vec<Instance> {
        parse_instances(KORF100).expect("bundled korf100.tsv is valid")
    }

    /// Korf and Felner's 50 24-puzzle instances, parsed.
    ///
    /// # Panics
    /// Never: the bundled file is checked by the tests.
    #[must_use]
    pub fn korf50_24() -> Vec<Instance> {
        parse_instances(KORF50_24).expect("bundled korf50-24.tsv is valid")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::BoardError;

    #[test]
    fn bundled_sets_parse() {
        let k = bundled::korf100();
        assert_eq!(k.len(), 100);
        assert_eq!(k[0].id.as_deref(), Some("1"));
        assert_eq!(k[0].optimal, Some(57));
        let mean = k.iter().map(|i| i.optimal.unwrap()).sum::<u32>() as f64 / 100.0;
        assert!((mean - 53.05).abs() < 1e-9);
        let k24 = bundled::korf50_24();
        assert_eq!(k24.len(), 50);
        assert!(k24.iter().all(|i| i.board.width() == 5));
    }

    #[test]
    fn errors_name_the_line() {
        let text = "# comment\n\n1 0 2 3 4 5 6 7 8\n1 2 3\n";
        assert_eq!(
            parse_instances(text),
            Err(InstanceError::Board {
                line: 4,
                error: BoardError::WrongCount(3)
            })
        );
        let err = parse_instances("x\tfoo\t0 1 2 3 4 5 6 7 8\n").unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 1: optimal length 'foo' is not a number"
        );
        assert_eq!(parse_instances("\n# only\n"), Err(InstanceError::Empty));
    }

    #[test]
    fn tab_separated_tiles_are_a_plain_line() {
        let set = parse_instances("1\t2\t0\t3\t4\t5\t6\t7\t8\n1 2 0\t3 4 5\t6 7 8\n").unwrap();
        assert_eq!(set.len(), 2);
        for instance in &set {
            assert_eq!(instance.id, None);
            assert_eq!(instance.board.tiles(), &[1, 2, 0, 3, 4, 5, 6, 7, 8]);
        }
        let tsv = parse_instances("k\t\t\t1 2 0 3 4 5 6 7 8\n").unwrap();
        assert_eq!(tsv[0].id.as_deref(), Some("k"));
        assert_eq!(tsv[0].optimal, None);
    }

    #[test]
    fn a_byte_order_mark_is_skipped_and_quotes_are_short_and_visible() {
        let set = parse_instances("\u{feff}1 2 0 3 4 5 6 7 8\n").unwrap();
        assert_eq!(set[0].board.tiles(), &[1, 2, 0, 3, 4, 5, 6, 7, 8]);
        let long = "9".repeat(100_000);
        let err = parse_instances(&format!("0 1 2 3 4 5 6 7 x{long}\n"))
            .unwrap_err()
            .to_string();
        assert!(err.len() < 120, "{err}");
        assert!(err.contains(&format!("'x{}...'", &long[..39])), "{err}");
        let err = parse_instances("0 1 2 3 4 5 6 7 \u{feff}8\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains(r"'\u{feff}8'"), "{err}");
    }

    #[test]
    fn an_unsolvable_line_is_an_instance() {
        let set = parse_instances("0 2 1 3 4 5 6 7 8\n1 0 2 3 4 5 6 7 8\n").unwrap();
        assert_eq!(set.len(), 2);
        assert!(!set[0].board.is_solvable());
        assert!(set[1].board.is_solvable());
    }
}
