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
    /// The most guesses weighed by the look-ahead (0: the safest cell, no look-ahead).
    lookahead: usize,
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
            lookahead: Strategy::default().lookahead,
        }
    }

    /// The same solver guessing by `strategy`.
    #[must_use]
    pub fn with_strategy(self, strategy: Strategy) -> Solver {
        Solver {
            lookahead: strategy.lookahead,
            ..self
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

    /// The guess: among the cells nearly as safe as the safest, the one whose click most
    /// likely leaves a safe next click (a one-move look-ahead over the numbers it may show,
    /// each weighed by its share of the placements); ties to the safer cell, then to the
    /// likelier zero.
    fn guess(&mut self, view: &[u8], odds: &Probabilities) -> Option<u32> {
        let zero = |c: u32| {
            let mut p = 1.0;
            for_neighbours(&self.rules, c, |nb| {
                if view[nb as usize] == HIDDEN {
                    p *= 1.0 - odds.mine[nb as usize];
                }
            });
            p
        };
        let mut candidates: Vec<(u32, f64, f64)> = (0..view.len() as u32)
            .filter(|&c| view[c as usize] == HIDDEN && !self.known_mine[c as usize])
            .map(|c| (c, odds.mine[c as usize], zero(c)))
            .collect();
        let best = candidates.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
        if !best.is_finite() {
            return None;
        }
        candidates.retain(|c| c.1 <= best + LOOKAHEAD_MARGIN);
        candidates.sort_by(|a, b| a.1.total_cmp(&b.1).then(b.2.total_cmp(&a.2)));
        if self.lookahead == 0 || candidates.len() == 1 || !odds.ln_placements.is_finite() {
            return candidates.first().map(|c| c.0);
        }
        // Cells no number sees are alike but for their neighbourhoods: the few likeliest
        // zeros stand for them.
        let mut unseen = 0;
        candidates.retain(|&(c, _, _)| {
            let mut seen = false;
            for_neighbours(&self.rules, c, |nb| seen |= view[nb as usize] <= 8);
            unseen += usize::from(!seen);
            seen || unseen <= UNSEEN_CANDIDATES
        });
        candidates.truncate(self.lookahead);
        let mut scratch = view.to_vec();
        let mut chosen = (candidates[0].0, f64::NEG_INFINITY);
        for &(cell, _, _) in &candidates {
            let mut score = 0.0;
            // The numbers the cell can show: its proved mines, up to all its other hidden
            // neighbours besides.
            let (mut mines, mut hidden) = (0u8, 0u8);
            for_neighbours(&self.rules, cell, |nb| {
                if self.known_mine[nb as usize] {
                    mines += 1;
                } else if view[nb as usize] == HIDDEN {
                    hidden += 1;
                }
            });
            for number in mines..=mines + hidden {
                scratch[cell as usize] = number;
                let after = self.analyzer.run(&self.rules, &scratch, &self.known_mine);
                if !after.ln_placements.is_finite() {
                    continue;
                }
                let chance = (after.ln_placements - odds.ln_placements).exp();
                score += chance * next_safety(&scratch, &self.known_mine, &after);
            }
            scratch[cell as usize] = HIDDEN;
            // Rounding must not let a riskier cell win on equal prospects.
            if score > chosen.1 + 1e-9 {
                chosen = (cell, score);
            }
        }
        Some(chosen.0)
    }
}

/// The chance that the best next click is safe in the position `after` (1 with a certain
/// one).
fn next_safety(view: &[u8], known_mine: &[bool], after: &Probabilities) -> f64 {
    let mut best: f64 = 0.0;
    for (c, &v) in view.iter().enumerate() {
        if v == HIDDEN && !known_mine[c] && !after.certain_mine[c] {
            if after.safe[c] {
                return 1.0;
            }
            best = best.max(1.0 - after.mine[c]);
        }
    }
    best
}

/// How much likelier to be a mine than the safest cell a guess may be and still be weighed
/// by the look-ahead.
const LOOKAHEAD_MARGIN: f64 = 0.02;
/// The most cells that no number sees the look-ahead weighs (the likeliest zeros).
const UNSEEN_CANDIDATES: usize = 2;
/// How the player guesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strategy {
    /// The most candidate guesses (those within two points of the safest) weighed by a
    /// one-move look-ahead: the chance that the click is safe and leaves a safe next click.
    /// 0: always the safest cell, ties to the likeliest zero.
    pub lookahead: usize,
}

impl Default for Strategy {
    /// Eight cells weighed (more cost time and win nothing measurable).
    fn default() -> Self {
        Strategy { lookahead: 8 }
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

/// Plays the game of `seed` under `rules` with the [`Solver`] and its default strategy to
/// its end.
#[must_use]
pub fn play(rules: &Rules, seed: u64) -> GameRecord {
    play_traced(rules, &Strategy::default(), seed, |_, _| {})
}

/// Plays the game of `seed` under `rules` with the [`Solver`] guessing by `strategy`,
/// calling `seen` with each move and what it did.
pub fn play_traced(
    rules: &Rules,
    strategy: &Strategy,
    seed: u64,
    mut seen: impl FnMut(&Move, Reveal),
) -> GameRecord {
    let mut game = ClassicGame::new(*rules, seed);
    let mut solver = Solver::new(*rules).with_strategy(*strategy);
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
