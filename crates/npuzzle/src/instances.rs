//! Instance files and the bundled instance sets.
//!
//! Two line formats are read, one instance per line; blank lines and lines starting with `#`
//! are skipped:
//! - plain: W*W whitespace-separated tile numbers (the course's format);
//! - an instance set (tab-separated): `id<TAB>optimal<TAB>...<TAB>tiles`, the tiles last, as in
//!   the bundled `korf100.tsv`. The optimal length may be blank where unknown.

use crate::board::Board;
use crate::error::InstanceError;

/// One instance read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Instance {
    /// 1-based line number in its file.
    pub line: usize,
    /// The set's identifier, if the line had one.
    pub id: Option<String>,
    /// The known optimal length, if the line had one.
    pub optimal: Option<u32>,
    /// The start board (always solvable).
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

/// Reads every instance of a file's text, stopping at the first bad line.
///
/// # Errors
/// An [`InstanceError`] naming the first bad line, or [`InstanceError::Empty`].
pub fn parse_instances(text: &str) -> Result<Vec<Instance>, InstanceError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (id, optimal, tiles) = if raw.contains('\t') {
            let fields: Vec<&str> = raw.split('\t').map(str::trim).collect();
            if fields.len() < 3 {
                return Err(InstanceError::Field {
                    line,
                    message: format!(
                        "expected id, optimal length and tiles separated by tabs, found {} field(s)",
                        fields.len()
                    ),
                });
            }
            let optimal = match fields[1] {
                "" => None,
                text => Some(text.parse::<u32>().map_err(|_| InstanceError::Field {
                    line,
                    message: format!("optimal length '{text}' is not a number"),
                })?),
            };
            (
                Some(fields[0].to_string()),
                optimal,
                fields[fields.len() - 1],
            )
        } else {
            (None, None, trimmed)
        };
        let board = tiles
            .parse::<Board>()
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
}
