//! The classic player: certain moves first (the single-number rules, then the exact
//! analysis), then the guess least likely to be a mine, ties going to the cell likeliest to
//! open a zero (a corner before an edge before the middle, a cell beside safe ground before
//! one beside mines).

use serde::{Deserialize, Serialize};

use super::analysis::{Analyzer, Probabilities};
use super::game::{ClassicGame, HIDDEN, Reveal, Status, for_neighbours};
use super::rules::Rules;

/// A move the solver chooses: the cell to open and the probability that it is a mine (0 for
/// a certain one).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Move {
    /// The cell's row, from 0.
    pub row: u16,
    /// The cell's column, from 0.
    pub col: u16,
    /// The probability that the cell is a mine.
    pub mine_probability: f64,
    /// Whether the cell is certainly safe (the first click, or a deduction).
    pub certain: bool,
}

/// The classic player's knowledge of one game: the mines it proved and the safe cells it has
/// yet to open.
pub struct Solver {
    rules: Rules,
    known_mine: Vec<bool>,
    safe: Vec<u32>,
    analyzer: Analyzer,
}

impl Solver {
    /// A solver for a game under `rules`, before the first click.
    #[must_use]
    pub fn new(rules: Rules) -> Solver {
        Solver {
            rules,
            known_mine: vec![false; rules.cells() as usize],
            safe: Vec::new(),
            analyzer: Analyzer::default(),
        }
    }

    /// The mines the solver has proved, per cell row by row.
    #[must_use]
    pub fn known_mines(&self) -> &[bool] {
        &self.known_mine
    }

    /// The exact probabilities of the position `view` with the solver's proved mines.
    pub fn probabilities(&mut self, view: &[u8]) -> Probabilities {
        self.analyzer.run(&self.rules, view, &self.known_mine)
    }

    fn at(&self, cell: u32, p: f64, certain: bool) -> Move {
        let w = u32::from(self.rules.width);
        Move {
            row: (cell / w) as u16,
            col: (cell % w) as u16,
            mine_probability: p,
            certain,
        }
    }

    /// The next move in the position `view` ([`ClassicGame::view`] of a game under the
    /// solver's rules, which only ever gains open cells): `None` when no hidden safe cell is
    /// left to open.
    pub fn next_move(&mut self, view: &[u8]) -> Option<Move> {
        if !view.iter().any(|&v| v <= 8) {
            let (row, col) = self.rules.start;
            return Some(Move {
                row,
                col,
                mine_probability: 0.0,
                certain: true,
            });
        }
        if let Some(cell) = self.pop_safe(view) {
            return Some(self.at(cell, 0.0, true));
        }
        self.single_rules(view);
        if let Some(cell) = self.pop_safe(view) {
            return Some(self.at(cell, 0.0, true));
        }
        let odds = self.analyzer.run(&self.rules, view, &self.known_mine);
        for (cell, &v) in view.iter().enumerate() {
            if v != HIDDEN || self.known_mine[cell] {
                continue;
            }
            if odds.certain_mine[cell] && odds.exact {
                self.known_mine[cell] = true;
            } else if odds.safe[cell] {
                self.safe.push(cell as u32);
            }
        }
        if let Some(cell) = self.pop_safe(view) {
            return Some(self.at(cell, 0.0, true));
        }
        let cell = self.guess(view, &odds)?;
        Some(self.at(cell, odds.mine[cell as usize], false))
    }

    /// A safe cell still hidden, from the queue.
    fn pop_safe(&mut self, view: &[u8]) -> Option<u32> {
        while let Some(cell) = self.safe.pop() {
            if view[cell as usize] == HIDDEN {
                return Some(cell);
            }
        }
        None
    }

    /// The rules of one number, to a fixed point: its proved mines account for it (the other
    /// hidden neighbours are safe), or its hidden neighbours are exactly its missing mines.
    fn single_rules(&mut self, view: &[u8]) {
        let rules = self.rules;
        loop {
            let mut changed = false;
            for at in 0..view.len() as u32 {
                let v = view[at as usize];
                if v == 0 || v > 8 {
                    continue;
                }
                let (mut mines, mut hidden) = (0u8, 0u8);
                for_neighbours(&rules, at, |nb| {
                    if self.known_mine[nb as usize] {
                        mines += 1;
                    } else if view[nb as usize] == HIDDEN {
                        hidden += 1;
                    }
                });
                if hidden == 0 {
                    continue;
                }
                if mines == v {
                    for_neighbours(&rules, at, |nb| {
                        if view[nb as usize] == HIDDEN && !self.known_mine[nb as usize] {
                            self.safe.push(nb);
                        }
                    });
                } else if mines + hidden == v {
                    for_neighbours(&rules, at, |nb| {
                        if view[nb as usize] == HIDDEN {
                            self.known_mine[nb as usize] = true;
                        }
                    });
                    changed = true;
                }
            }
            if !changed || !self.safe.is_empty() {
                return;
            }
        }
    }

    /// The guess: the least likely mine; among equals, the cell likeliest to be a zero
    /// (its hidden neighbours all safe, taken as independent).
    fn guess(&self, view: &[u8], odds: &Probabilities) -> Option<u32> {
        let candidates = (0..view.len() as u32)
            .filter(|&c| view[c as usize] == HIDDEN && !self.known_mine[c as usize]);
        let best = candidates
            .clone()
            .map(|c| odds.mine[c as usize])
            .fold(f64::INFINITY, f64::min);
        if !best.is_finite() {
            return None;
        }
        let zero = |c: u32| {
            let mut p = 1.0;
            for_neighbours(&self.rules, c, |nb| {
                if view[nb as usize] == HIDDEN {
                    p *= 1.0 - odds.mine[nb as usize];
                }
            });
            p
        };
        candidates
            .filter(|&c| odds.mine[c as usize] <= best + 1e-12)
            .map(|c| (c, zero(c)))
            .fold(None, |acc: Option<(u32, f64)>, (c, z)| match acc {
                Some((_, best_z)) if best_z >= z => acc,
                _ => Some((c, z)),
            })
            .map(|(c, _)| c)
    }
}

/// How a game went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// Whether every safe cell was opened.
    pub won: bool,
    /// Safe cells opened.
    pub opened: u32,
    /// Clicks made (the first included).
    pub clicks: u32,
    /// Clicks that were guesses (neither the first nor certain).
    pub guesses: u32,
    /// The product of the guesses' chances to be safe.
    pub guessed_safety: f64,
}

/// Plays the game of `seed` under `rules` with the [`Solver`] to its end.
#[must_use]
pub fn play(rules: &Rules, seed: u64) -> GameRecord {
    play_traced(rules, seed, |_, _| {})
}

/// [`play`], calling `seen` with each move and what it did.
pub fn play_traced(rules: &Rules, seed: u64, mut seen: impl FnMut(&Move, Reveal)) -> GameRecord {
    let mut game = ClassicGame::new(*rules, seed);
    let mut solver = Solver::new(*rules);
    let mut record = GameRecord {
        won: false,
        opened: 0,
        clicks: 0,
        guesses: 0,
        guessed_safety: 1.0,
    };
    while game.status() == Status::Playing {
        let Some(mv) = solver.next_move(game.view()) else {
            break;
        };
        let reveal =
            game.click_cell(u32::from(mv.row) * u32::from(rules.width) + u32::from(mv.col));
        record.clicks += 1;
        if !mv.certain {
            record.guesses += 1;
            record.guessed_safety *= 1.0 - mv.mine_probability;
        }
        seen(&mv, reveal);
        if reveal == Reveal::Nothing {
            // A move the game refused would repeat forever.
            break;
        }
    }
    record.won = game.status() == Status::Won;
    record.opened = game.opened();
    record
}

#[cfg(test)]
mod tests {
    use super::super::{FirstClick, Level};
    use super::*;

    #[test]
    fn certain_moves_are_safe_and_games_end() {
        for level in Level::ALL {
            for rule in FirstClick::ALL {
                let rules = Rules::level(level, rule);
                let mut wins = 0;
                for seed in 0..40 {
                    let mut game = ClassicGame::new(rules, seed);
                    let mut solver = Solver::new(rules);
                    while game.status() == Status::Playing {
                        let mv = solver.next_move(game.view()).expect("a move while playing");
                        let reveal = game.click(mv.row, mv.col).unwrap();
                        assert_ne!(reveal, Reveal::Nothing);
                        if mv.certain {
                            assert_ne!(reveal, Reveal::Mine, "{level} {rule} seed {seed}");
                        }
                        for (cell, &known) in solver.known_mines().iter().enumerate() {
                            if known {
                                let w = rules.width as usize;
                                assert_eq!(
                                    game.is_mine((cell / w) as u16, (cell % w) as u16),
                                    Some(true)
                                );
                            }
                        }
                    }
                    wins += u32::from(game.status() == Status::Won);
                }
                assert!(wins > 0, "{level} {rule}: no win in 40 games");
            }
        }
    }
}
