//! A classic game: mines placed at the first click from a seed, then clicks that open a
//! cell (and a zero's whole region) until a mine is hit or every safe cell is open.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::rules::{FirstClick, MAX_SIDE, Rules, default_start};
use crate::MinesError;

/// A cell not opened yet, in [`ClassicGame::view`].
pub const HIDDEN: u8 = 9;
/// A mine the player opened (the game is lost), in [`ClassicGame::view`].
pub const EXPLODED: u8 = 10;

/// Where a game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Safe cells are still hidden.
    Playing,
    /// Every safe cell is open.
    Won,
    /// A mine was opened.
    Lost,
}

impl Status {
    /// The status's name: `playing`, `won` or `lost`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Status::Playing => "playing",
            Status::Won => "won",
            Status::Lost => "lost",
        }
    }
}

/// The cells a click opened, `(row, col, number)` in row-major order.
pub type Opened = Vec<(u16, u16, u8)>;

/// What a click did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reveal {
    /// It opened this many cells (a zero opens its region).
    Opened(u32),
    /// It opened a mine: the game is lost.
    Mine,
    /// The cell was open already, or the game is over: nothing changed.
    Nothing,
}

/// One classic game: its rules, its seed, the mines (placed at the first click, so that the
/// first-click rule holds wherever it goes), and what is open.
///
/// ```
/// use ply_mines::classic::{ClassicGame, FirstClick, Level, Reveal, Rules, Status};
///
/// let rules = Rules::level(Level::Beginner, FirstClick::Zero);
/// let mut game = ClassicGame::new(rules, 42);
/// let Reveal::Opened(cells) = game.click(4, 4).unwrap() else { unreachable!() };
/// assert!(cells >= 9, "the first click opens a zero");
/// assert_eq!(game.status(), Status::Playing);
/// assert_eq!(game.status().name(), "playing");
/// ```
#[derive(Clone, Debug)]
pub struct ClassicGame {
    rules: Rules,
    seed: u64,
    /// One byte per cell, row by row: a mine; empty until the first click.
    mines: Vec<bool>,
    view: Vec<u8>,
    opened: u32,
    status: Status,
}

impl ClassicGame {
    /// A game under `rules` (which [`Rules::check`] accepts) whose mines come from `seed`:
    /// the same rules, seed and first click give the same board.
    #[must_use]
    pub fn new(rules: Rules, seed: u64) -> ClassicGame {
        ClassicGame {
            rules,
            seed,
            mines: Vec::new(),
            view: vec![HIDDEN; rules.cells() as usize],
            opened: 0,
            status: Status::Playing,
        }
    }

    /// A game on a given board: `mines[row * width + col]` says where the mines are (the
    /// first-click rule is then the caller's business).
    ///
    /// # Errors
    /// A board of another size than the rules', or with another number of mines.
    pub fn with_mines(rules: Rules, mines: Vec<bool>) -> Result<ClassicGame, MinesError> {
        let count = mines.iter().filter(|&&m| m).count();
        if mines.len() != rules.cells() as usize || count != rules.mines as usize {
            return Err(MinesError::BadParameters(format!(
                "a board of {} cells with {count} mines for rules of {} cells and {} mines",
                mines.len(),
                rules.cells(),
                rules.mines
            )));
        }
        let mut game = ClassicGame::new(rules, 0);
        game.mines = mines;
        Ok(game)
    }

    /// A game of `width` x `height` with mines exactly on `layout` (`(row, col)` pairs, each
    /// once): the first-click rule and `start` (default: [`default_start`]) are recorded, the
    /// caller's business, so the board needs no room for the first click.
    ///
    /// # Errors
    /// A side out of 1 to [`MAX_SIDE`], or `start` or a mine off the board.
    pub fn on_layout(
        width: u16,
        height: u16,
        layout: &[(u32, u32)],
        first_click: FirstClick,
        start: Option<(u16, u16)>,
    ) -> Result<ClassicGame, MinesError> {
        let bad = |s: String| Err(MinesError::BadParameters(s));
        if !(1..=MAX_SIDE).contains(&width) || !(1..=MAX_SIDE).contains(&height) {
            return bad(format!(
                "a board of {width} x {height}: each side must be 1 to {MAX_SIDE}"
            ));
        }
        let start = start.unwrap_or_else(|| default_start(width, height, first_click));
        if start.0 >= height || start.1 >= width {
            return bad(format!(
                "the first click ({}, {}) is off the {width} x {height} board (rows and columns \
                 count from 0)",
                start.0, start.1
            ));
        }
        let (w, h) = (u32::from(width), u32::from(height));
        let mut mines = vec![false; (w * h) as usize];
        for &(row, col) in layout {
            if row >= h || col >= w {
                return bad(format!("mines: ({row}, {col}) is off the {w} x {h} board"));
            }
            mines[(row * w + col) as usize] = true;
        }
        let rules = Rules {
            width,
            height,
            mines: layout.len() as u32,
            first_click,
            start,
        };
        ClassicGame::with_mines(rules, mines)
    }

    /// The rules.
    #[must_use]
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The seed.
    #[must_use]
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Where the game stands.
    #[must_use]
    pub fn status(&self) -> Status {
        self.status
    }

    /// What the player sees, one byte per cell row by row: the number (0 to 8) of an open
    /// cell, [`HIDDEN`], or [`EXPLODED`].
    #[must_use]
    pub fn view(&self) -> &[u8] {
        &self.view
    }

    /// Safe cells opened so far.
    #[must_use]
    pub fn opened(&self) -> u32 {
        self.opened
    }

    /// Whether `(row, col)` is a mine: `None` before the first click placed them.
    #[must_use]
    pub fn is_mine(&self, row: u16, col: u16) -> Option<bool> {
        let cell = self.index(row, col)?;
        self.mines.get(cell as usize).copied()
    }

    fn index(&self, row: u16, col: u16) -> Option<u32> {
        (row < self.rules.height && col < self.rules.width)
            .then(|| u32::from(row) * u32::from(self.rules.width) + u32::from(col))
    }

    /// Places the mines for a first click at `at`: uniformly among the cells the rule leaves
    /// free (a partial Fisher-Yates shuffle driven by the seed).
    ///
    /// The rules make room for the block of `start`; under [`FirstClick::Zero`] a first click
    /// elsewhere may have a larger block (an edge start, a click inside) than the mines leave
    /// free. The board then still holds every mine: the clicked cell stays safe and the
    /// mines that do not fit outside its block are drawn among its neighbours, so the click
    /// opens a number instead of a zero.
    ///
    /// [`FirstClick::Zero`]: super::FirstClick::Zero
    fn place(&mut self, at: (u16, u16)) {
        let rules = self.rules;
        let clicked = u32::from(at.0) * u32::from(rules.width) + u32::from(at.1);
        let mut kept = vec![false; rules.cells() as usize];
        if rules.first_click == super::FirstClick::Zero {
            for cell in rules.block(at) {
                kept[cell as usize] = true;
            }
        }
        kept[clicked as usize] = true;
        // The cells outside the promise first, then the promised neighbours: only as many
        // of those are drawn as the mines that do not fit outside.
        let mut cells: Vec<u32> = (0..rules.cells()).filter(|&c| !kept[c as usize]).collect();
        let outside = cells.len();
        cells.extend((0..rules.cells()).filter(|&c| kept[c as usize] && c != clicked));
        let mines = rules.mines as usize;
        debug_assert!(mines <= cells.len(), "Rules::check leaves a safe cell");
        let mut rng = ChaCha8Rng::seed_from_u64(self.seed);
        self.mines = vec![false; rules.cells() as usize];
        if mines <= outside {
            for i in 0..mines {
                let j = rng.random_range(i..outside);
                cells.swap(i, j);
                self.mines[cells[i] as usize] = true;
            }
        } else {
            for &cell in &cells[..outside] {
                self.mines[cell as usize] = true;
            }
            for i in outside..mines {
                let j = rng.random_range(i..cells.len());
                cells.swap(i, j);
                self.mines[cells[i] as usize] = true;
            }
        }
    }

    /// The mines around `cell`.
    fn number(&self, cell: u32) -> u8 {
        let mut n = 0;
        for_neighbours(&self.rules, cell, |nb| {
            n += u8::from(self.mines[nb as usize])
        });
        n
    }

    /// Clicks `(row, col)`: the first click places the mines; a mine loses the game; a
    /// number opens alone; a zero opens its whole region.
    ///
    /// # Errors
    /// A cell off the board.
    pub fn click(&mut self, row: u16, col: u16) -> Result<Reveal, MinesError> {
        let cell = self.index(row, col).ok_or_else(|| {
            MinesError::BadParameters(format!(
                "({row}, {col}) is off the board of {} (rows and columns count from 0)",
                self.rules.size_name()
            ))
        })?;
        Ok(self.click_cell(cell))
    }

    /// [`ClassicGame::click`], and the cells it opened with what they now show, as
    /// `(row, col, number)` in row-major order (none unless it [`Reveal::Opened`] them).
    ///
    /// # Errors
    /// As [`ClassicGame::click`].
    pub fn click_opening(&mut self, row: u16, col: u16) -> Result<(Reveal, Opened), MinesError> {
        let before = self.view.clone();
        let reveal = self.click(row, col)?;
        let w = usize::from(self.rules.width);
        let opened = match reveal {
            Reveal::Opened(_) => before
                .iter()
                .zip(&self.view)
                .enumerate()
                .filter(|(_, (was, now))| **was == HIDDEN && **now != HIDDEN)
                .map(|(cell, (_, &now))| ((cell / w) as u16, (cell % w) as u16, now))
                .collect(),
            Reveal::Mine | Reveal::Nothing => Vec::new(),
        };
        Ok((reveal, opened))
    }

    /// [`ClassicGame::click`] on the cell numbered `row * width + col`, which must be on the
    /// board.
    pub(crate) fn click_cell(&mut self, cell: u32) -> Reveal {
        if self.status != Status::Playing || self.view[cell as usize] != HIDDEN {
            return Reveal::Nothing;
        }
        if self.mines.is_empty() {
            let w = u32::from(self.rules.width);
            self.place(((cell / w) as u16, (cell % w) as u16));
        }
        if self.mines[cell as usize] {
            self.view[cell as usize] = EXPLODED;
            self.status = Status::Lost;
            return Reveal::Mine;
        }
        let before = self.opened;
        let mut stack = vec![cell];
        self.view[cell as usize] = self.number(cell);
        self.opened += 1;
        while let Some(at) = stack.pop() {
            if self.view[at as usize] != 0 {
                continue;
            }
            let rules = self.rules;
            for_neighbours(&rules, at, |nb| {
                if self.view[nb as usize] == HIDDEN {
                    self.view[nb as usize] = self.number(nb);
                    self.opened += 1;
                    stack.push(nb);
                }
            });
        }
        if self.opened == self.rules.cells() - self.rules.mines {
            self.status = Status::Won;
        }
        Reveal::Opened(self.opened - before)
    }
}

/// Calls `f` on each neighbour of `cell` on the board of `rules`.
#[inline]
pub(crate) fn for_neighbours(rules: &Rules, cell: u32, mut f: impl FnMut(u32)) {
    let w = u32::from(rules.width);
    let h = u32::from(rules.height);
    let (r, c) = (cell / w, cell % w);
    for nr in r.saturating_sub(1)..=(r + 1).min(h - 1) {
        for nc in c.saturating_sub(1)..=(c + 1).min(w - 1) {
            if nr != r || nc != c {
                f(nr * w + nc);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{FirstClick, Level};
    use super::*;

    #[test]
    fn first_click_rules_hold_and_seeds_replay() {
        for seed in 0..200 {
            for rule in FirstClick::ALL {
                let rules = Rules::level(Level::Expert, rule);
                let mut game = ClassicGame::new(rules, seed);
                let (r, c) = rules.start;
                let reveal = game.click(r, c).unwrap();
                let mines = game.mines.iter().filter(|&&m| m).count();
                assert_eq!(mines, 99);
                assert_eq!(game.is_mine(r, c), Some(false));
                if rule == FirstClick::Zero {
                    assert_eq!(game.view()[usize::from(r) * 30 + usize::from(c)], 0);
                    assert!(matches!(reveal, Reveal::Opened(n) if n >= 9));
                }
                let mut again = ClassicGame::new(rules, seed);
                again.click(r, c).unwrap();
                assert_eq!(again.mines, game.mines);
            }
        }
    }

    #[test]
    fn a_click_says_which_cells_it_opened() {
        let rules = Rules::level(Level::Beginner, FirstClick::Zero);
        let mut game = ClassicGame::new(rules, 5);
        let (r, c) = rules.start;
        let (reveal, opened) = game.click_opening(r, c).unwrap();
        assert_eq!(reveal, Reveal::Opened(opened.len() as u32));
        assert!(opened.contains(&(r, c, 0)));
        for &(row, col, number) in &opened {
            assert_eq!(game.view()[usize::from(row) * 9 + usize::from(col)], number);
        }
        assert_eq!(
            game.click_opening(r, c).unwrap(),
            (Reveal::Nothing, Vec::new())
        );
        assert!(game.click_opening(9, 0).is_err());
    }

    #[test]
    fn opening_everything_safe_wins_and_a_mine_loses() {
        let rules = Rules::level(Level::Beginner, FirstClick::Safe);
        let mut game = ClassicGame::new(rules, 3);
        game.click(0, 0).unwrap();
        for row in 0..9 {
            for col in 0..9 {
                if game.is_mine(row, col) == Some(false) {
                    game.click(row, col).unwrap();
                }
            }
        }
        assert_eq!(game.status(), Status::Won);
        assert_eq!(game.opened(), 71);
        let mut game = ClassicGame::new(rules, 3);
        game.click(0, 0).unwrap();
        let mine = (0..81u32).find(|&c| game.mines[c as usize]).unwrap();
        assert_eq!(game.click_cell(mine), Reveal::Mine);
        assert_eq!(game.status(), Status::Lost);
        assert_eq!(game.click(0, 1).unwrap(), Reveal::Nothing);
        assert!(game.click(9, 0).is_err());
    }

    #[test]
    fn numbers_count_the_neighbouring_mines() {
        // . * .
        // . . .
        let rules = Rules::new(3, 2, 1, FirstClick::Safe).unwrap();
        let mut game =
            ClassicGame::with_mines(rules, vec![false, true, false, false, false, false]).unwrap();
        assert_eq!(game.click(1, 0).unwrap(), Reveal::Opened(1));
        assert_eq!(game.view()[3], 1);
        game.click(0, 0).unwrap();
        game.click(0, 2).unwrap();
        game.click(1, 1).unwrap();
        game.click(1, 2).unwrap();
        assert_eq!(game.status(), Status::Won);
        assert_eq!(&game.view()[..3], &[1, HIDDEN, 1]);
    }
}

#[cfg(test)]
mod first_click_tests {
    use super::super::{FirstClick, Rules};
    use super::*;

    /// Every first click on every small board with as many mines as the rules allow places
    /// all of them, keeps the clicked cell safe, and leaves a game that can still be won.
    #[test]
    fn every_first_click_places_every_mine() {
        for (w, h) in [(1, 2), (2, 2), (3, 3), (4, 3), (4, 4), (5, 2), (6, 4)] {
            for rule in FirstClick::ALL {
                for start in (0..h).flat_map(|r| (0..w).map(move |c| (r, c))) {
                    let Ok(rules) =
                        Rules::from_options(None, Some(w), Some(h), Some(0), rule, Some(start))
                    else {
                        continue;
                    };
                    let rules = Rules {
                        mines: rules.room(),
                        ..rules
                    };
                    rules.check().unwrap();
                    for click in 0..rules.cells() {
                        for seed in 0..4 {
                            let mut game = ClassicGame::new(rules, seed);
                            let reveal = game.click_cell(click);
                            let mines = game.mines.iter().filter(|&&m| m).count();
                            let what = format!("{w}x{h} {rule} start {start:?} click {click}");
                            assert_eq!(mines, rules.mines as usize, "{what}");
                            assert!(!game.mines[click as usize], "{what}");
                            assert!(matches!(reveal, Reveal::Opened(_)), "{what}");
                            if click == u32::from(start.0) * u32::from(w) + u32::from(start.1) {
                                // A safe cell beyond the promise: no first click wins by
                                // the rules alone (a region may still open to the end).
                                let promised: Vec<u32> = match rule {
                                    FirstClick::Safe => vec![click],
                                    FirstClick::Zero => rules.block(start).collect(),
                                };
                                let beyond = (0..rules.cells())
                                    .filter(|&c| !game.mines[c as usize] && !promised.contains(&c));
                                assert!(beyond.count() >= 1, "{what}");
                            }
                            let safe = (0..rules.cells()).filter(|&c| !game.mines[c as usize]);
                            for cell in safe.collect::<Vec<_>>() {
                                game.click_cell(cell);
                            }
                            assert_eq!(game.status(), Status::Won, "{what}");
                        }
                    }
                }
            }
        }
    }

    /// A first click whose block has room keeps its promise, the same board as before for
    /// the same seed: the draws of the cells outside the block are unchanged.
    #[test]
    fn a_zero_first_click_with_room_opens_a_zero() {
        let rules = Rules::new(6, 5, 12, FirstClick::Zero).unwrap();
        for click in 0..30 {
            let mut game = ClassicGame::new(rules, 7);
            game.click_cell(click);
            assert_eq!(game.view()[click as usize], 0, "click {click}");
        }
    }

    #[test]
    fn the_room_is_that_of_the_given_start() {
        let at = |start, mines| {
            Rules::from_options(None, Some(4), Some(4), Some(mines), FirstClick::Zero, start)
        };
        // A corner keeps 4 cells free, the default (2, 2) nine; one safe cell must remain.
        assert!(at(Some((0, 0)), 11).is_ok());
        let refused = at(Some((0, 0)), 12).unwrap_err().to_string();
        assert!(
            refused.contains(
                "12 mines do not fit a board of 4 columns x 4 rows whose first click at (0, 0) \
                 keeps 4 cells free"
            ) && refused.contains("(at most 11)"),
            "{refused}"
        );
        assert!(at(None, 7).is_err());
        assert!(at(None, 6).is_ok());
        let one = Rules::new(2, 1, 1, FirstClick::Safe)
            .unwrap_err()
            .to_string();
        assert!(
            one.starts_with("1 mine does not fit a board of 2 columns x 1 row"),
            "{one}"
        );
        assert!(
            one.contains("keeps 1 cell free") && one.contains("(at most 0)"),
            "{one}"
        );
        let none = Rules::new(1, 1, 0, FirstClick::Safe)
            .unwrap_err()
            .to_string();
        assert!(
            none.contains("a board of 1 column x 1 row leaves no cell to play"),
            "{none}"
        );
        // A first click that would win at once: 8 mines on 3 x 3 under the safe rule.
        assert!(Rules::new(3, 3, 8, FirstClick::Safe).is_err());
        assert!(Rules::new(3, 3, 7, FirstClick::Safe).is_ok());
    }
}
