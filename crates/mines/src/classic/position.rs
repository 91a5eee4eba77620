//! A classic position written as text, for a board a person pastes or draws: covered cells,
//! flags, open numbers, and the mines on the board.

use std::fmt::Write as _;

use super::game::{EXPLODED, HIDDEN};
use super::rules::{FirstClick, Level, Rules};
use crate::MinesError;

/// A position read by [`parse_position`]: the rules (the board's size and mines), what is
/// open (as [`super::ClassicGame::view`]: 0 to 8 open, [`HIDDEN`] covered) and which covered
/// cells carry a flag. A flag is the player's mark, not a fact: the probabilities of
/// [`super::probabilities`] treat a flagged cell as covered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    /// The board's size and mines (the first-click rule as given to the parser).
    pub rules: Rules,
    /// Per cell, row by row: the number of an open cell, or [`HIDDEN`].
    pub view: Vec<u8>,
    /// Per cell, row by row: whether a covered cell is flagged.
    pub flagged: Vec<bool>,
}

impl Position {
    /// The position in the text [`parse_position`] reads: a `mines N` line, then a line a
    /// row.
    #[must_use]
    pub fn to_text(&self) -> String {
        let width = usize::from(self.rules.width);
        let mut out = format!("mines {}\n", self.rules.mines);
        for (row, cells) in self.view.chunks(width).enumerate() {
            for (col, &v) in cells.iter().enumerate() {
                out.push(match v {
                    0 => '.',
                    1..=8 => char::from(b'0' + v),
                    _ if self.flagged[row * width + col] => 'F',
                    _ => '#',
                });
            }
            let _ = writeln!(out);
        }
        out
    }
}

/// A view given as numbers, row by row (a front end's array of a view): 0 to 8 an open cell's
/// number, [`HIDDEN`] a covered cell, as [`super::ClassicGame::view`] writes them.
///
/// ```
/// use ply_mines::classic::{HIDDEN, view_from_numbers};
/// assert_eq!(view_from_numbers(&[0, 9, 8])?, [0, HIDDEN, 8]);
/// assert!(view_from_numbers(&[-1]).is_err());
/// # Ok::<(), ply_mines::MinesError>(())
/// ```
///
/// # Errors
/// An exploded mine ([`EXPLODED`]: the game is over, nothing is left to know), or a number
/// that is no cell.
pub fn view_from_numbers(numbers: &[i64]) -> Result<Vec<u8>, MinesError> {
    let bad = |what: String| Err(MinesError::BadParameters(what));
    numbers
        .iter()
        .map(|&n| match u8::try_from(n) {
            Ok(cell @ 0..=HIDDEN) => Ok(cell),
            Ok(EXPLODED) => bad(format!(
                "view holds an exploded mine ({EXPLODED}): the game is over"
            )),
            _ => bad(format!("view: {n} is not a cell (0-8 a number, 9 hidden)")),
        })
        .collect()
}

/// What a cell's character may be, for messages.
const CELLS: &str = "# covered, F flagged, . or 0-8 open";

/// Reads a classic position from text: an optional first line `mines N` (every mine on the
/// board, flagged or not), then one line a row, every row as long: `#` a covered cell, `F`
/// (or `f`) a flagged one, `.` or `0` an open cell with no mine around, `1`-`8` an open
/// number. Spaces and tabs between cells are skipped, blank lines before and after the
/// board too; a line may end in `\r`, and a leading byte order mark is skipped. Without a
/// `mines` line the board must have a standard level's size, whose mines it takes (expert
/// is 30 columns x 16 rows). The rules get `first_click`, which the probabilities do not
/// depend on.
///
/// ```
/// use ply_mines::classic::{FirstClick, HIDDEN, checked_probabilities, parse_position};
///
/// let position = parse_position("mines 1\n1 # \n1 F\n", FirstClick::Safe)?;
/// assert_eq!((position.rules.width, position.rules.height), (2, 2));
/// assert_eq!(position.view, [1, HIDDEN, 1, HIDDEN]);
/// let odds = checked_probabilities(&position.rules, &position.view)?;
/// assert_eq!(odds.mine[1], 0.5);
/// # Ok::<(), ply_mines::MinesError>(())
/// ```
///
/// # Errors
/// A bad `mines` line, a character that is no cell (naming its line), rows of different
/// lengths, no row at all, a board of no standard size without a `mines` line, or rules that
/// [`Rules::new`] refuses (a side over [`super::MAX_SIDE`], more mines than leave room).
pub fn parse_position(text: &str, first_click: FirstClick) -> Result<Position, MinesError> {
    let bad = |what: String| MinesError::BadParameters(what);
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut mines = None;
    let mut rows: Vec<(usize, Vec<u8>, Vec<bool>)> = Vec::new();
    for (at, line) in text.lines().enumerate() {
        let number = at + 1;
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            if !rows.is_empty() {
                // Blank lines end the board; anything after them is an error below.
                rows.push((number, Vec::new(), Vec::new()));
            }
            continue;
        }
        if let Some(count) = line.trim().strip_prefix("mines") {
            if mines.is_some() || !rows.is_empty() {
                return Err(bad(format!(
                    "line {number}: the mines line must come first, once"
                )));
            }
            let count = count.trim();
            mines = Some(count.parse::<u32>().map_err(|_| {
                bad(format!(
                    "line {number}: mines {count:?} is not a count of mines"
                ))
            })?);
            continue;
        }
        if rows.last().is_some_and(|(_, cells, _)| cells.is_empty()) {
            return Err(bad(format!("line {number}: a row after a blank line")));
        }
        let mut view = Vec::new();
        let mut flags = Vec::new();
        for c in line.chars().filter(|c| *c != ' ' && *c != '\t') {
            let (v, flag) = match c {
                '#' => (HIDDEN, false),
                'F' | 'f' => (HIDDEN, true),
                '.' => (0, false),
                '0'..='8' => (c as u8 - b'0', false),
                _ => {
                    return Err(bad(format!("line {number}: {c:?} is not a cell ({CELLS})")));
                }
            };
            view.push(v);
            flags.push(flag);
        }
        rows.push((number, view, flags));
    }
    while rows.last().is_some_and(|(_, cells, _)| cells.is_empty()) {
        rows.pop();
    }
    let Some((_, first, _)) = rows.first() else {
        return Err(bad(format!("no board: a line a row ({CELLS})")));
    };
    let width = first.len();
    if let Some((number, cells, _)) = rows.iter().find(|(_, cells, _)| cells.len() != width) {
        return Err(bad(format!(
            "line {number}: {} cells, the first row has {width}",
            cells.len()
        )));
    }
    let side = |n: usize, what: &str| {
        u16::try_from(n).map_err(|_| bad(format!("{n} {what} is far too many")))
    };
    let (width, height) = (side(width, "columns")?, side(rows.len(), "rows")?);
    let mines = match mines {
        Some(mines) => mines,
        None => Level::ALL
            .into_iter()
            .map(Level::size)
            .find(|&(w, h, _)| (w, h) == (width, height))
            .map(|(_, _, mines)| mines)
            .ok_or_else(|| {
                bad(format!(
                    "a board of {width} columns x {height} rows is no standard level: give its \
                     mines on a first line 'mines N'"
                ))
            })?,
    };
    let rules = Rules::new(width, height, mines, first_click)?;
    let (view, flagged) = rows.into_iter().map(|(_, view, flags)| (view, flags)).fold(
        (Vec::new(), Vec::new()),
        |(mut v, mut f), (row, flags)| {
            v.extend(row);
            f.extend(flags);
            (v, f)
        },
    );
    Ok(Position {
        rules,
        view,
        flagged,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{ClassicGame, probabilities};
    use super::*;

    #[test]
    fn numbers_of_a_view_are_cells() {
        assert!(view_from_numbers(&[]).unwrap().is_empty());
        assert_eq!(
            view_from_numbers(&[1, 10]).unwrap_err().to_string(),
            "view holds an exploded mine (10): the game is over"
        );
        for bad in [11, -1, 256 + 1, i64::MIN] {
            let message = view_from_numbers(&[bad]).unwrap_err().to_string();
            assert_eq!(
                message,
                format!("view: {bad} is not a cell (0-8 a number, 9 hidden)")
            );
        }
    }

    #[test]
    fn a_game_written_and_read_back_has_the_same_view_and_odds() {
        let rules = Rules::level(Level::Expert, FirstClick::Safe);
        let mut game = ClassicGame::new(rules, 5);
        game.click(0, 0).unwrap();
        game.click(8, 15).unwrap();
        let position = Position {
            rules,
            view: game.view().to_vec(),
            flagged: vec![false; game.view().len()],
        };
        let again = parse_position(&position.to_text(), FirstClick::Safe).unwrap();
        assert_eq!(again, position);
        assert_eq!(
            probabilities(&rules, &again.view),
            probabilities(&rules, game.view())
        );
        // Without the mines line the level's count is taken.
        let text = position.to_text();
        let bare = text.split_once('\n').unwrap().1;
        assert_eq!(parse_position(bare, FirstClick::Safe).unwrap(), position);
    }

    #[test]
    fn spaces_flags_and_blank_lines_are_read_and_bad_boards_named() {
        let position =
            parse_position("\u{feff}\nmines 2\r\n1 F #\r\n# # #\n\n", FirstClick::Safe).unwrap();
        assert_eq!((position.rules.width, position.rules.height), (3, 2));
        assert_eq!(position.flagged, [false, true, false, false, false, false]);
        let error = |text: &str| {
            parse_position(text, FirstClick::Safe)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            error("mines 1\n##\n#x\n"),
            "line 3: 'x' is not a cell (# covered, F flagged, . or 0-8 open)"
        );
        assert_eq!(
            error("mines 1\n###\n##\n"),
            "line 3: 2 cells, the first row has 3"
        );
        assert_eq!(
            error("mines a\n##\n"),
            "line 1: mines \"a\" is not a count of mines"
        );
        assert_eq!(
            error("##\nmines 1\n"),
            "line 2: the mines line must come first, once"
        );
        assert_eq!(
            error("mines 1\n##\n\n##\n"),
            "line 4: a row after a blank line"
        );
        assert!(error("").starts_with("no board"));
        assert!(error("###\n###\n").contains("no standard level"));
        assert!(error("mines 4\n##\n##\n").contains("do not fit"));
    }
}
