//! The rules of a classic game: the board's size, its mines, the first-click rule and where
//! the first click goes.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use ply_search::messages::plural;

use crate::MinesError;

/// The three standard levels of Windows Minesweeper.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// 9 x 9 with 10 mines.
    Beginner,
    /// 16 x 16 with 40 mines.
    Intermediate,
    /// 30 x 16 (30 columns, 16 rows) with 99 mines.
    Expert,
}

impl Level {
    /// Every level, from the smallest.
    pub const ALL: [Level; 3] = [Level::Beginner, Level::Intermediate, Level::Expert];

    /// The level's width (columns), height (rows) and mines.
    #[must_use]
    pub fn size(self) -> (u16, u16, u32) {
        match self {
            Level::Beginner => (9, 9, 10),
            Level::Intermediate => (16, 16, 40),
            Level::Expert => (30, 16, 99),
        }
    }

    /// The level's name (`beginner`, `intermediate`, `expert`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Intermediate => "intermediate",
            Level::Expert => "expert",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Level {
    type Err = MinesError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Level::ALL
            .into_iter()
            .find(|level| level.name() == s)
            .ok_or_else(|| {
                MinesError::BadParameters(format!(
                    "unknown level {s:?} (beginner, intermediate or expert)"
                ))
            })
    }
}

/// What the first click is promised.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FirstClick {
    /// The clicked cell is never a mine (Windows XP's rule): the mines are placed among
    /// the other cells.
    Safe,
    /// The clicked cell and its neighbours are never mines, so that it opens a zero (newer
    /// clients' rule): the mines are placed outside that block.
    Zero,
}

impl FirstClick {
    /// Both rules.
    pub const ALL: [FirstClick; 2] = [FirstClick::Safe, FirstClick::Zero];

    /// The rule's name (`safe`, `zero`).
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            FirstClick::Safe => "safe",
            FirstClick::Zero => "zero",
        }
    }
}

impl fmt::Display for FirstClick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for FirstClick {
    type Err = MinesError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        FirstClick::ALL
            .into_iter()
            .find(|rule| rule.name() == s)
            .ok_or_else(|| {
                MinesError::BadParameters(format!("unknown first-click rule {s:?} (safe or zero)"))
            })
    }
}

/// The largest side of a classic board.
pub const MAX_SIDE: u16 = 1024;

/// A classic game's rules: `width` columns, `height` rows, `mines` mines, the first-click
/// rule, and the cell `(row, col)` the player's first click goes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Rules {
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
    /// Mines on the board.
    pub mines: u32,
    /// What the first click is promised.
    pub first_click: FirstClick,
    /// Where the first click goes, `(row, col)` from 0.
    pub start: (u16, u16),
}

impl Rules {
    /// Rules for a board of `width` x `height` with `mines` mines, the first click on the
    /// best known cell for the rule ([`default_start`]).
    ///
    /// # Errors
    /// A side of 0 or over [`MAX_SIDE`], or more mines than the rule leaves room for
    /// ([`Rules::room`]: at least one safe cell must remain besides those the first click is
    /// promised).
    pub fn new(
        width: u16,
        height: u16,
        mines: u32,
        first_click: FirstClick,
    ) -> Result<Rules, MinesError> {
        let rules = Rules {
            width,
            height,
            mines,
            first_click,
            start: default_start(width, height, first_click),
        };
        rules.check()?;
        Ok(rules)
    }

    /// The rules of a standard level.
    #[must_use]
    pub fn level(level: Level, first_click: FirstClick) -> Rules {
        let (width, height, mines) = level.size();
        Rules {
            width,
            height,
            mines,
            first_click,
            start: default_start(width, height, first_click),
        }
    }

    /// The rules that a front end's board options name: a `level` (expert without one), or
    /// all of `width`, `height` and `mines`; the first click on `start`, or the rule's
    /// default cell.
    ///
    /// # Errors
    /// A level together with a size, a size without all three parts, or rules that
    /// [`Rules::check`] refuses.
    pub fn from_options(
        level: Option<Level>,
        width: Option<u16>,
        height: Option<u16>,
        mines: Option<u32>,
        first_click: FirstClick,
        start: Option<(u16, u16)>,
    ) -> Result<Rules, MinesError> {
        let (width, height, mines) = match (level, width, height, mines) {
            (None, Some(width), Some(height), Some(mines)) => (width, height, mines),
            (level, None, None, None) => level.unwrap_or(Level::Expert).size(),
            (Some(level), ..) => {
                return Err(MinesError::BadParameters(format!(
                    "level '{level}' and width, height or mines: give a level or a board's \
                     width, height and mines, not both"
                )));
            }
            (None, ..) => {
                return Err(MinesError::BadParameters(
                    "a custom board needs width, height and mines, all three".into(),
                ));
            }
        };
        // The room is checked once, for the first click where it goes: a given start may
        // leave room that the default one does not, and the reverse.
        let rules = Rules {
            width,
            height,
            mines,
            first_click,
            start: start.unwrap_or_else(|| default_start(width, height, first_click)),
        };
        rules.check()?;
        Ok(rules)
    }

    /// The same rules with the first click on `(row, col)`.
    ///
    /// # Errors
    /// A cell off the board, or one that leaves no room for the mines.
    pub fn with_start(self, row: u16, col: u16) -> Result<Rules, MinesError> {
        let rules = Rules {
            start: (row, col),
            ..self
        };
        rules.check()?;
        Ok(rules)
    }

    /// The rules [`super::probabilities`] needs for a view of `width` x `height` with `mines`
    /// mines: the first click's rule and cell do not change the probabilities, and the room
    /// is not checked, since a view may hold more mines than a first click leaves room for.
    ///
    /// ```
    /// use ply_mines::classic::Rules;
    /// assert_eq!(Rules::of_view(3, 2, 6)?.cells(), 6);
    /// assert!(Rules::of_view(3, 2, 7).is_err());
    /// # Ok::<(), ply_mines::MinesError>(())
    /// ```
    ///
    /// # Errors
    /// A side of 0 or over [`MAX_SIDE`], or more mines than cells.
    pub fn of_view(width: usize, height: usize, mines: u32) -> Result<Rules, MinesError> {
        check_view_size(width, height)?;
        if mines as usize > width * height {
            return Err(MinesError::BadParameters(format!(
                "{mines} mines do not fit a {width} x {height} board"
            )));
        }
        Ok(Rules {
            width: width as u16,
            height: height as u16,
            mines,
            first_click: FirstClick::Safe,
            start: (0, 0),
        })
    }

    /// The cell `(row, col)` of the board, as a front end's numbers give it.
    ///
    /// ```
    /// use ply_mines::classic::{FirstClick, Level, Rules};
    /// let expert = Rules::level(Level::Expert, FirstClick::Safe);
    /// assert_eq!(expert.cell(15, 29)?, (15, 29));
    /// assert!(expert.cell(16, 0).is_err());
    /// # Ok::<(), ply_mines::MinesError>(())
    /// ```
    ///
    /// # Errors
    /// A cell off the board.
    pub fn cell(&self, row: u64, col: u64) -> Result<(u16, u16), MinesError> {
        let (w, h) = (u64::from(self.width), u64::from(self.height));
        if row >= h || col >= w {
            return Err(MinesError::BadParameters(format!(
                "({row}, {col}) is off the {w} x {h} board (rows and columns count from 0)"
            )));
        }
        Ok((row as u16, col as u16))
    }

    /// Checks the rules.
    ///
    /// # Errors
    /// What is wrong, as [`Rules::new`] and [`Rules::with_start`] say.
    pub fn check(&self) -> Result<(), MinesError> {
        let bad = |s: String| Err(MinesError::BadParameters(s));
        if !(1..=MAX_SIDE).contains(&self.width) || !(1..=MAX_SIDE).contains(&self.height) {
            return bad(format!(
                "a board of {}: each side must be 1 to {MAX_SIDE}",
                self.size_name()
            ));
        }
        let (row, col) = self.start;
        if row >= self.height || col >= self.width {
            return bad(format!(
                "the first click ({row}, {col}) is off the board of {} (rows and columns \
                 count from 0)",
                self.size_name()
            ));
        }
        let kept = self.promised(self.start) as u32;
        if self.cells() <= kept {
            return bad(format!(
                "a board of {} leaves no cell to play after a first click at ({row}, {col}), \
                 which keeps {} free",
                self.size_name(),
                plural(u64::from(kept), "cell"),
            ));
        }
        let room = self.room();
        if self.mines > room {
            return bad(format!(
                "{} not fit a board of {} whose first click at ({row}, {col}) keeps {} free \
                 and must leave a safe cell to play (at most {room})",
                if self.mines == 1 {
                    "1 mine does".to_string()
                } else {
                    format!("{} do", plural(u64::from(self.mines), "mine"))
                },
                self.size_name(),
                plural(u64::from(kept), "cell"),
            ));
        }
        Ok(())
    }

    /// The board's size in words, columns first as levels are named and rows and columns
    /// said, since positions are `(row, col)`: "30 columns x 16 rows".
    #[must_use]
    pub fn size_name(&self) -> String {
        size_name(self.width, self.height)
    }

    /// The number of cells.
    #[must_use]
    pub fn cells(&self) -> u32 {
        u32::from(self.width) * u32::from(self.height)
    }

    /// The level these rules are, if they are one (with any first click).
    #[must_use]
    pub fn known_level(&self) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.size() == (self.width, self.height, self.mines))
    }

    /// The most mines these rules' board holds: every cell but those the first click at
    /// `start` keeps free and one more, so that the first click never ends the game by
    /// itself.
    #[must_use]
    pub fn room(&self) -> u32 {
        self.cells()
            .saturating_sub(self.promised(self.start) as u32)
            .saturating_sub(1)
    }

    /// The number of cells a first click at `at` keeps free of mines.
    fn promised(&self, at: (u16, u16)) -> usize {
        match self.first_click {
            FirstClick::Safe => 1,
            FirstClick::Zero => self.block(at).count(),
        }
    }

    /// The cells of the 3 x 3 block around `(row, col)` that are on the board.
    pub(crate) fn block(&self, (row, col): (u16, u16)) -> impl Iterator<Item = u32> + '_ {
        let (row, col) = (i32::from(row), i32::from(col));
        (-1..=1).flat_map(move |dr| {
            (-1..=1).filter_map(move |dc| {
                let (r, c) = (row + dr, col + dc);
                (r >= 0 && c >= 0 && r < i32::from(self.height) && c < i32::from(self.width))
                    .then(|| r as u32 * u32::from(self.width) + c as u32)
            })
        })
    }
}

/// The first click's default cell `(row, col)`: a corner under [`FirstClick::Safe`], where a
/// zero is likeliest; under [`FirstClick::Zero`], where the opening is sure anywhere, a cell
/// off the edges whose block's numbers still see the border: (3, 3) on the expert board and
/// (2, 2) elsewhere, the cells of MineSweeperProb's published figures (its 1-based `[4,4]`
/// and `[3,3]`).
#[must_use]
pub fn default_start(width: u16, height: u16, first_click: FirstClick) -> (u16, u16) {
    match first_click {
        FirstClick::Safe => (0, 0),
        FirstClick::Zero => {
            let off = if (width, height) == (30, 16) { 3 } else { 2 };
            (
                off.min(height.saturating_sub(1)),
                off.min(width.saturating_sub(1)),
            )
        }
    }
}

/// Checks the sides of a view a front end gives, `width` x `height`.
///
/// # Errors
/// A side of 0 or over [`MAX_SIDE`].
pub fn check_view_size(width: usize, height: usize) -> Result<(), MinesError> {
    let side = 1..=usize::from(MAX_SIDE);
    if !side.contains(&width) || !side.contains(&height) {
        return Err(MinesError::BadParameters(format!(
            "a view of {width} x {height}: each side must be 1 to {MAX_SIDE}"
        )));
    }
    Ok(())
}

/// A board's size in words, columns first: "30 columns x 16 rows", "1 column x 3 rows".
#[must_use]
pub fn size_name(width: u16, height: u16) -> String {
    format!(
        "{} x {}",
        plural(u64::from(width), "column"),
        plural(u64::from(height), "row")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_and_views_are_checked_against_the_board() {
        let beginner = Rules::level(Level::Beginner, FirstClick::Zero);
        assert_eq!(beginner.cell(8, 0).unwrap(), (8, 0));
        assert_eq!(
            beginner.cell(0, 1 << 40).unwrap_err().to_string(),
            "(0, 1099511627776) is off the 9 x 9 board (rows and columns count from 0)"
        );
        let view = Rules::of_view(1, 1, 1).unwrap();
        assert_eq!((view.width, view.height, view.mines), (1, 1, 1));
        assert_eq!(
            Rules::of_view(0, 5, 0).unwrap_err().to_string(),
            "a view of 0 x 5: each side must be 1 to 1024"
        );
        assert_eq!(
            Rules::of_view(2, 2, 5).unwrap_err().to_string(),
            "5 mines do not fit a 2 x 2 board"
        );
        assert!(check_view_size(1024, 1).is_ok() && check_view_size(1, 1025).is_err());
    }
}
