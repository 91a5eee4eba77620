//! The classic player: certain moves first (the single-number rules, then the exact
//! analysis); then, when it must guess: exact play when few placements are left
//! ([`super::endgame`]), an unavoidable 50/50 at once, or the candidate whose click most likely
//! leaves a safe next click (a one-move look-ahead), ties going to the cell likeliest to open a
//! zero (a corner before an edge before the middle, a cell beside safe ground before one
//! beside mines).

use ply_search::StopFlag;
use ply_search::messages::thousands;
use serde::{Deserialize, Serialize};

use super::analysis::{Analyzer, Probabilities};
use super::endgame::{MAX_ENDGAME, MAX_PLACEMENTS, best_click};
use super::game::{ClassicGame, HIDDEN, Reveal, Status, for_neighbours};
use super::rules::Rules;
use crate::MinesError;

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
    /// How it guesses.
    strategy: Strategy,
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
            strategy: Strategy::default(),
        }
    }

    /// The same solver guessing by `strategy`.
    #[must_use]
    pub fn with_strategy(self, strategy: Strategy) -> Solver {
        Solver { strategy, ..self }
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

    /// A cell of a pair that shares one mine and can never be told apart (every cell that
    /// sees one of them but not the other is open or a mine): the guess will have to be made,
    /// and made now its number may spare later guesses.
    fn unavoidable_pair(&mut self, view: &[u8], odds: &Probabilities) -> Option<u32> {
        let rules = self.rules;
        let (w, h) = (u32::from(rules.width), u32::from(rules.height));
        let known = self.known_mine.clone();
        let unknown = |c: u32| {
            view[c as usize] == HIDDEN && !known[c as usize] && !odds.certain_mine[c as usize]
        };
        for a in 0..view.len() as u32 {
            if !unknown(a) || (odds.mine[a as usize] - 0.5).abs() > 1e-9 {
                continue;
            }
            let (r, c) = (a / w, a % w);
            for b in [(c + 1 < w).then_some(a + 1), (r + 1 < h).then_some(a + w)]
                .into_iter()
                .flatten()
            {
                if !unknown(b) || (odds.mine[b as usize] - 0.5).abs() > 1e-9 {
                    continue;
                }
                let near = |x: u32, y: u32| {
                    let (xr, xc, yr, yc) = (x / w, x % w, y / w, y % w);
                    xr.abs_diff(yr) <= 1 && xc.abs_diff(yc) <= 1
                };
                let mut alike = true;
                for (own, other) in [(a, b), (b, a)] {
                    for_neighbours(&rules, own, |nb| {
                        if nb != other
                            && !near(nb, other)
                            && !known[nb as usize]
                            && !odds.certain_mine[nb as usize]
                        {
                            alike = false;
                        }
                    });
                }
                if !alike {
                    continue;
                }
                self.known_mine[a as usize] = true;
                let given = self.analyzer.run(&rules, view, &self.known_mine);
                self.known_mine[a as usize] = false;
                if given.ln_placements.is_finite() && given.safe[b as usize] {
                    return Some(a);
                }
            }
        }
        None
    }

    /// The guess: among the cells nearly as safe as the safest, the one whose click most
    /// likely leaves a safe next click (a one-move look-ahead over the numbers it may show,
    /// each weighed by its share of the placements); ties to the safer cell, then to the
    /// likelier zero.
    fn guess(&mut self, view: &[u8], odds: &Probabilities) -> Option<u32> {
        if let Some((cell, _)) = best_click(
            &self.rules,
            view,
            &self.known_mine,
            odds,
            self.strategy.endgame,
        ) {
            return Some(cell);
        }
        if let Some(cell) = self.unavoidable_pair(view, odds) {
            return Some(cell);
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
        let mut candidates: Vec<(u32, f64, f64)> = (0..view.len() as u32)
            .filter(|&c| view[c as usize] == HIDDEN && !self.known_mine[c as usize])
            .map(|c| (c, odds.mine[c as usize], zero(c)))
            .collect();
        let best = candidates.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
        if !best.is_finite() {
            return None;
        }
        candidates.retain(|c| c.1 <= best + LOOKAHEAD_MARGIN * (1.0 - best));
        candidates.sort_by(|a, b| a.1.total_cmp(&b.1).then(b.2.total_cmp(&a.2)));
        if self.strategy.lookahead == 0 || candidates.len() == 1 || !odds.ln_placements.is_finite()
        {
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
        candidates.truncate(self.strategy.lookahead);
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
            let mut values = 0;
            for number in mines..=mines + hidden {
                scratch[cell as usize] = number;
                let after = self.analyzer.run(&self.rules, &scratch, &self.known_mine);
                if !after.ln_placements.is_finite() {
                    continue;
                }
                values += 1;
                let chance = (after.ln_placements - odds.ln_placements).exp();
                score += chance * next_safety(&scratch, &self.known_mine, &after);
            }
            scratch[cell as usize] = HIDDEN;
            // A cell that can show one number only tells nothing when it is safe (a dead
            // cell): any living candidate goes first.
            if values == 1 {
                score -= 2.0;
            }
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
    let (mut best, mut second): (f64, f64) = (0.0, 0.0);
    for (c, &v) in view.iter().enumerate() {
        if v == HIDDEN && !known_mine[c] && !after.certain_mine[c] {
            if after.safe[c] {
                return 1.0;
            }
            let s = 1.0 - after.mine[c];
            if s > best {
                second = best;
                best = s;
            } else if s > second {
                second = s;
            }
        }
    }
    (4.0 * best + second) / 5.0
}

/// How much less safe than the safest cell a guess may be, as a share of the safest cell's
/// safety, and still be weighed by the look-ahead (JSMinesweeper's cut-off: 90 % of the best
/// safety).
const LOOKAHEAD_MARGIN: f64 = 0.1;
/// The most cells that no number sees the look-ahead weighs (the likeliest zeros).
const UNSEEN_CANDIDATES: usize = 2;
/// How the player guesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Strategy {
    /// The most candidate guesses (those at least 90 % as safe as the safest) weighed by a
    /// one-move look-ahead: the chance that the click is safe and leaves a safe next click
    /// (the safest two next clicks blended, as JSMinesweeper's secondary safety), a cell
    /// that can show one number only ranked last. 0: always the safest cell, ties to the
    /// likeliest zero.
    pub lookahead: usize,
    /// The most mine placements the exact endgame lists: with no more left, the click that
    /// wins most often is found by playing out every placement (0: never).
    pub endgame: usize,
}

impl Strategy {
    /// A strategy, checked: `endgame` at most [`MAX_ENDGAME`] (a listing beyond it would
    /// exhaust memory before it helped).
    ///
    /// # Errors
    /// An `endgame` over [`MAX_ENDGAME`].
    pub fn new(lookahead: usize, endgame: u64) -> Result<Strategy, MinesError> {
        match usize::try_from(endgame) {
            Ok(endgame) if endgame <= MAX_ENDGAME => Ok(Strategy { lookahead, endgame }),
            _ => Err(MinesError::BadParameters(format!(
                "an endgame of {} placements is more than the {} the exact endgame can list",
                thousands(endgame),
                thousands(MAX_ENDGAME as u64)
            ))),
        }
    }
}

impl Default for Strategy {
    /// Eight cells weighed (more cost time and win nothing measurable), the endgame played
    /// exactly from 500 placements (more cost time and win nothing measurable).
    fn default() -> Self {
        Strategy {
            lookahead: 8,
            endgame: MAX_PLACEMENTS,
        }
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
    seen: impl FnMut(&Move, Reveal),
) -> GameRecord {
    play_until(rules, strategy, seed, &StopFlag::new(), seen)
        .expect("a flag nobody holds is never raised")
}

/// [`play_traced`], giving up before the next move once `stop` is raised (`None`): on a
/// large board one game takes seconds, which a user's Ctrl-C should not wait for.
pub fn play_until(
    rules: &Rules,
    strategy: &Strategy,
    seed: u64,
    stop: &StopFlag,
    mut seen: impl FnMut(&Move, Reveal),
) -> Option<GameRecord> {
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
        if stop.is_stopped() {
            return None;
        }
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
    Some(record)
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

    #[test]
    fn an_unavoidable_fifty_fifty_is_taken_at_once() {
        // Two hidden cells over two ones and two zeros: one mine, and nothing can tell them
        // apart.
        let rules = Rules::new(2, 3, 1, FirstClick::Safe).unwrap();
        let view = [HIDDEN, HIDDEN, 1, 1, 0, 0];
        let mut solver = Solver::new(rules).with_strategy(Strategy {
            lookahead: 8,
            endgame: 0,
        });
        let odds = solver.probabilities(&view);
        assert_eq!(solver.unavoidable_pair(&view, &odds), Some(0));
        let mv = solver.next_move(&view).unwrap();
        assert_eq!((mv.row, mv.col, mv.certain), (0, 0, false));
        assert!((mv.mine_probability - 0.5).abs() < 1e-9);
    }

    #[test]
    fn an_unavoidable_fifty_fifty_is_a_best_click() {
        // Wherever the pair is found on small boards, clicking it now wins as often as the
        // best play found from the game itself.
        let mut found = 0;
        for seed in 0..3000u64 {
            let (w, h, mines) = [(4, 3, 3), (5, 3, 4), (4, 4, 5)][seed as usize % 3];
            let rules = Rules::new(w, h, mines, FirstClick::Safe).unwrap();
            let mut game = ClassicGame::new(rules, seed);
            let mut solver = Solver::new(rules).with_strategy(Strategy {
                lookahead: 0,
                endgame: 0,
            });
            while game.status() == Status::Playing {
                let view = game.view().to_vec();
                let hidden = view.iter().filter(|&&v| v == HIDDEN).count();
                if hidden <= 12 && view.iter().any(|&v| v <= 8) {
                    let odds = solver.probabilities(&view);
                    if let Some(cell) = solver.unavoidable_pair(&view, &odds) {
                        let (best, per_cell) = super::super::endgame::brute::chances(&rules, &view);
                        assert!(
                            (per_cell[cell as usize] - best).abs() < 1e-9,
                            "seed {seed}: {} against {best}",
                            per_cell[cell as usize]
                        );
                        found += 1;
                    }
                }
                let mv = solver.next_move(&view).unwrap();
                if game.click(mv.row, mv.col).unwrap() == Reveal::Mine {
                    break;
                }
            }
        }
        assert!(found > 20, "{found}");
    }
}
