//! Exact play in the endgame: when few mine placements fit the position, every placement is
//! listed and the click that wins most often is found by playing every order of clicks
//! against every placement (the brute-force analysis of JSMinesweeper, David Hill, and the
//! exhaustive endgames of MineSweeperProb).
//!
//! A set of placements is won outright when they all agree on every cell; otherwise a click
//! on a cell splits it by the number the cell shows (its placements with a mine on the cell
//! are lost), and the set's chance is the best click's sum over the parts, each weighed by
//! its share. Sets met twice are looked up; a click whose chance to be safe cannot beat the
//! best click found is not tried.

use rustc_hash::FxHashMap;

use super::analysis::Probabilities;
use super::game::{HIDDEN, for_neighbours};
use super::rules::Rules;

/// The most placements the analysis lists by default.
pub(crate) const MAX_PLACEMENTS: usize = 500;
/// The most placements the analysis may be asked to list ([`Strategy::endgame`]): they are
/// numbered in 16 bits, and the sets of so many are more than its budget of sets can value
/// anyway.
///
/// [`Strategy::endgame`]: super::Strategy::endgame
pub const MAX_ENDGAME: usize = u16::MAX as usize;
/// The most sets of placements the analysis values before it gives up.
const MAX_SETS: usize = 20_000;
/// The most cells in question (a placement is a 128-bit mask of them).
const MAX_CELLS: usize = 128;
/// A cell's value in a placement that puts a mine on it.
const MINE: u8 = u8::MAX;

/// The work space of one analysis: the placements and the sets valued so far.
struct Analysis {
    /// Cells in question.
    cells: usize,
    /// Per placement, the mines on the cells in question.
    masks: Vec<u128>,
    /// Per placement and cell (placement-major): the number the cell shows, or [`MINE`].
    values: Vec<u8>,
    /// The chance of each set of placements valued so far (placements in ascending order).
    known: FxHashMap<Vec<u16>, f64>,
}

/// The click that wins most often in the position `view` with the proved mines `known_mine`,
/// and its chance to win the game, when `odds` (the position's exact probabilities) leaves
/// at most `max_placements` placements and the search ends within its budget.
pub(crate) fn best_click(
    rules: &Rules,
    view: &[u8],
    known_mine: &[bool],
    odds: &Probabilities,
    max_placements: usize,
) -> Option<(u32, f64)> {
    let max_placements = max_placements.min(MAX_ENDGAME);
    if max_placements == 0
        || !odds.exact
        || odds.ln_placements > (max_placements as f64).ln() + 1e-9
    {
        return None;
    }
    let (mut analysis, question) = Analysis::list(rules, view, known_mine, odds, max_placements)?;
    let all: Vec<u16> = (0..analysis.masks.len() as u16).collect();
    let mut budget = MAX_SETS;
    let (cell, chance) = analysis.best(&all, &mut budget)?;
    Some((question[cell?], chance))
}

impl Analysis {
    /// Every placement of the mines left on the cells in question that fits the numbers, or
    /// `None` when there are more than `max_placements` or too many cells.
    fn list(
        rules: &Rules,
        view: &[u8],
        known_mine: &[bool],
        odds: &Probabilities,
        max_placements: usize,
    ) -> Option<(Analysis, Vec<u32>)> {
        let n = view.len();
        let fixed = |c: usize| known_mine[c] || (view[c] == HIDDEN && odds.certain_mine[c]);
        let question: Vec<u32> = (0..n as u32)
            .filter(|&c| view[c as usize] == HIDDEN && !fixed(c as usize))
            .collect();
        if question.is_empty() || question.len() > MAX_CELLS {
            return None;
        }
        let mut index = vec![usize::MAX; n];
        for (i, &c) in question.iter().enumerate() {
            index[c as usize] = i;
        }
        let fixed_mines = (0..n).filter(|&c| fixed(c)).count();
        let left = (rules.mines as usize).checked_sub(fixed_mines)?;
        // The numbers: their missing mines and the cells in question they see.
        let mut need: Vec<i32> = Vec::new();
        let mut free: Vec<i32> = Vec::new();
        let mut seen_by: Vec<Vec<usize>> = vec![Vec::new(); question.len()];
        for at in 0..n as u32 {
            let v = view[at as usize];
            if v > 8 {
                continue;
            }
            let (mut mines, mut open) = (0i32, Vec::new());
            for_neighbours(rules, at, |nb| {
                if fixed(nb as usize) {
                    mines += 1;
                } else if index[nb as usize] != usize::MAX {
                    open.push(index[nb as usize]);
                }
            });
            if open.is_empty() {
                continue;
            }
            let k = need.len();
            need.push(i32::from(v) - mines);
            free.push(open.len() as i32);
            for i in open {
                seen_by[i].push(k);
            }
        }
        // Cells some number sees first, then the unseen ones (only the count binds them).
        let order: Vec<usize> = (0..question.len())
            .filter(|&i| !seen_by[i].is_empty())
            .collect();
        let unseen: Vec<usize> = (0..question.len())
            .filter(|&i| seen_by[i].is_empty())
            .collect();
        let mut lister = Lister {
            seen_by: &seen_by,
            need,
            free,
            order: &order,
            unseen: &unseen,
            left,
            mask: 0,
            placed: 0,
            most: max_placements,
            found: Vec::new(),
        };
        if !lister.frontier(0) {
            return None;
        }
        let masks = lister.found;
        let cells = question.len();
        let mut values = vec![0u8; masks.len() * cells];
        let neighbours: Vec<Vec<usize>> = question
            .iter()
            .map(|&c| {
                let mut nbs = Vec::new();
                for_neighbours(rules, c, |nb| {
                    if index[nb as usize] != usize::MAX {
                        nbs.push(index[nb as usize]);
                    }
                });
                nbs
            })
            .collect();
        for (p, &mask) in masks.iter().enumerate() {
            for i in 0..cells {
                values[p * cells + i] = if mask >> i & 1 == 1 {
                    MINE
                } else {
                    neighbours[i]
                        .iter()
                        .filter(|&&j| mask >> j & 1 == 1)
                        .count() as u8
                };
            }
        }
        Some((
            Analysis {
                cells,
                masks,
                values,
                known: FxHashMap::default(),
            },
            question,
        ))
    }
}

/// The depth-first listing of the placements.
struct Lister<'a> {
    /// Per cell in question, the numbers that see it.
    seen_by: &'a [Vec<usize>],
    /// Per number, the mines it still misses.
    need: Vec<i32>,
    /// Per number, its cells in question not assigned yet.
    free: Vec<i32>,
    /// The cells some number sees, in the order they are assigned.
    order: &'a [usize],
    /// The cells no number sees.
    unseen: &'a [usize],
    /// The mines left to place.
    left: usize,
    /// The mines placed so far.
    mask: u128,
    /// How many mines are placed.
    placed: usize,
    /// The most placements wanted.
    most: usize,
    /// The placements found.
    found: Vec<u128>,
}

impl Lister<'_> {
    /// Assigns the seen cells from `at` on; false when there are too many placements.
    fn frontier(&mut self, at: usize) -> bool {
        if at == self.order.len() {
            if self.need.iter().any(|&n| n != 0) {
                return true;
            }
            let rest = self.left.wrapping_sub(self.placed);
            if self.placed > self.left || rest > self.unseen.len() {
                return true;
            }
            return self.choose(0, rest);
        }
        let cell = self.order[at];
        for mine in [false, true] {
            if mine && self.placed == self.left {
                continue;
            }
            let mut fits = true;
            for &k in &self.seen_by[cell] {
                self.free[k] -= 1;
                if mine {
                    self.need[k] -= 1;
                }
                fits &= self.need[k] >= 0 && self.need[k] <= self.free[k];
            }
            if fits {
                if mine {
                    self.mask |= 1 << cell;
                    self.placed += 1;
                }
                let more = self.frontier(at + 1);
                if mine {
                    self.mask &= !(1 << cell);
                    self.placed -= 1;
                }
                if !more {
                    return false;
                }
            }
            for &k in &self.seen_by[cell] {
                self.free[k] += 1;
                if mine {
                    self.need[k] += 1;
                }
            }
        }
        true
    }

    /// Puts `rest` mines on the unseen cells from `from` on, every way.
    fn choose(&mut self, from: usize, rest: usize) -> bool {
        if rest == 0 {
            if self.found.len() == self.most {
                return false;
            }
            self.found.push(self.mask);
            return true;
        }
        for i in from..=self.unseen.len() - rest {
            let bit = 1u128 << self.unseen[i];
            self.mask |= bit;
            let more = self.choose(i + 1, rest - 1);
            self.mask &= !bit;
            if !more {
                return false;
            }
        }
        true
    }
}

impl Analysis {
    /// The cell (in question) whose click wins `set` most often and the chance, or `None`
    /// when the budget of sets ran out; the cell is `None` when `set` is won already.
    fn best(&mut self, set: &[u16], budget: &mut usize) -> Option<(Option<usize>, f64)> {
        let first = self.masks[set[0] as usize];
        if set.iter().all(|&p| self.masks[p as usize] == first) {
            return Some((None, 1.0));
        }
        *budget = budget.checked_sub(1)?;
        let cells = self.cells;
        let total = set.len() as f64;
        // The clicks that may tell something, safest first.
        let mut clicks: Vec<(usize, usize)> = Vec::new();
        for cell in 0..cells {
            let mut safe = 0;
            let mut shown = None;
            let mut informative = false;
            for &p in set {
                let v = self.values[p as usize * cells + cell];
                if v != MINE {
                    safe += 1;
                }
                informative |= shown.is_some_and(|s| s != v);
                shown = Some(v);
            }
            if safe > 0 && informative {
                clicks.push((cell, safe));
            }
        }
        clicks.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut best: (Option<usize>, f64) = (None, 0.0);
        let mut parts: [Vec<u16>; 9] = Default::default();
        for (cell, safe) in clicks {
            if safe as f64 / total <= best.1 + 1e-12 {
                break;
            }
            for part in &mut parts {
                part.clear();
            }
            for &p in set {
                let v = self.values[p as usize * cells + cell];
                if v != MINE {
                    parts[v as usize].push(p);
                }
            }
            let mut chance = 0.0;
            for part in &parts {
                if !part.is_empty() {
                    chance += part.len() as f64 / total * self.value(part, budget)?;
                }
            }
            if chance > best.1 + 1e-12 {
                best = (Some(cell), chance);
            }
        }
        Some(best)
    }

    /// The chance to win `set` with best play, looked up when it was valued before.
    fn value(&mut self, set: &[u16], budget: &mut usize) -> Option<f64> {
        if let Some(&v) = self.known.get(set) {
            return Some(v);
        }
        let (_, v) = self.best(set, budget)?;
        self.known.insert(set.to_vec(), v);
        Some(v)
    }
}

/// The best chance to win a position, found from the game itself: every placement of the
/// mines that fits the view listed by brute force, every click played on each with the
/// game's own opening of zeros, positions told apart by what the player sees.
#[cfg(test)]
pub(super) mod brute {
    use rustc_hash::FxHashMap;

    use super::super::game::{HIDDEN, for_neighbours};
    use super::super::rules::Rules;

    /// The placements (mine per cell) that fit `view`.
    pub(in super::super) fn placements(rules: &Rules, view: &[u8]) -> Vec<Vec<bool>> {
        let cells = view.len();
        let hidden: Vec<usize> = (0..cells).filter(|&c| view[c] == HIDDEN).collect();
        let mut found = Vec::new();
        for mask in 0u64..(1 << hidden.len()) {
            if mask.count_ones() != rules.mines {
                continue;
            }
            let mut mine = vec![false; cells];
            for (i, &c) in hidden.iter().enumerate() {
                mine[c] = mask >> i & 1 == 1;
            }
            let fits = (0..cells).all(|c| {
                view[c] == HIDDEN || {
                    let mut n = 0;
                    for_neighbours(rules, c as u32, |nb| n += u8::from(mine[nb as usize]));
                    n == view[c]
                }
            });
            if fits {
                found.push(mine);
            }
        }
        found
    }

    /// `view` after a click on the safe `cell` of the placement `mine`.
    fn opened(rules: &Rules, view: &[u8], mine: &[bool], cell: u32) -> Vec<u8> {
        let number = |c: u32| {
            let mut n = 0;
            for_neighbours(rules, c, |nb| n += u8::from(mine[nb as usize]));
            n
        };
        let mut next = view.to_vec();
        let mut stack = vec![cell];
        next[cell as usize] = number(cell);
        while let Some(at) = stack.pop() {
            if next[at as usize] != 0 {
                continue;
            }
            for_neighbours(rules, at, |nb| {
                if next[nb as usize] == HIDDEN {
                    next[nb as usize] = number(nb);
                    stack.push(nb);
                }
            });
        }
        next
    }

    /// The best chance to win `view`, and the chance of a click on each hidden cell.
    pub(in super::super) fn chances(rules: &Rules, view: &[u8]) -> (f64, Vec<f64>) {
        let mut memo = FxHashMap::default();
        let all = placements(rules, view);
        let per_cell = (0..view.len() as u32)
            .map(|c| click(rules, view, &all, c, &mut memo))
            .collect::<Vec<_>>();
        (win(rules, view, &mut memo), per_cell)
    }

    fn win(rules: &Rules, view: &[u8], memo: &mut FxHashMap<Vec<u8>, f64>) -> f64 {
        if let Some(&v) = memo.get(view) {
            return v;
        }
        let hidden = view.iter().filter(|&&v| v == HIDDEN).count();
        let v = if hidden == rules.mines as usize {
            1.0
        } else {
            let all = placements(rules, view);
            (0..view.len() as u32)
                .map(|c| click(rules, view, &all, c, memo))
                .fold(0.0, f64::max)
        };
        memo.insert(view.to_vec(), v);
        v
    }

    fn click(
        rules: &Rules,
        view: &[u8],
        all: &[Vec<bool>],
        cell: u32,
        memo: &mut FxHashMap<Vec<u8>, f64>,
    ) -> f64 {
        if view[cell as usize] != HIDDEN {
            return 0.0;
        }
        let mut outcomes: FxHashMap<Vec<u8>, usize> = FxHashMap::default();
        for mine in all.iter().filter(|m| !m[cell as usize]) {
            *outcomes.entry(opened(rules, view, mine, cell)).or_default() += 1;
        }
        outcomes
            .into_iter()
            .map(|(next, n)| n as f64 / all.len() as f64 * win(rules, &next, memo))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::super::analysis::probabilities;
    use super::super::game::{ClassicGame, HIDDEN};
    use super::super::{FirstClick, Rules, Status};
    use super::*;

    #[test]
    fn the_exact_endgame_wins_as_often_as_the_game_allows() {
        // Small boards after a first click and a few safe ones: the click chosen and its
        // chance against the best chance found by playing the game itself.
        let mut checked = 0;
        for seed in 0..200u64 {
            let (w, h, mines) = [(4, 4, 3), (5, 3, 3), (4, 3, 2), (5, 4, 4)][seed as usize % 4];
            let rules = Rules::new(w, h, mines, FirstClick::Safe).unwrap();
            let mut game = ClassicGame::new(rules, seed);
            game.click(0, 0).unwrap();
            // Safe clicks until at most 12 cells are hidden (the brute force's reach).
            let cells = u64::from(w * h);
            let mut next = seed;
            while game.status() == Status::Playing
                && game.view().iter().filter(|&&v| v == HIDDEN).count() > 12
            {
                next = next.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let c = ((next >> 33) % cells) as u32;
                if game.is_mine((c / u32::from(w)) as u16, (c % u32::from(w)) as u16) == Some(false)
                {
                    game.click_cell(c);
                }
            }
            if game.status() != Status::Playing {
                continue;
            }
            let view = game.view();
            let odds = probabilities(&rules, view);
            let none = vec![false; view.len()];
            if (0..view.len()).all(|c| view[c] != HIDDEN || odds.safe[c] || odds.certain_mine[c]) {
                // Nothing left to guess: no click is chosen.
                assert!(best_click(&rules, view, &none, &odds, MAX_PLACEMENTS).is_none());
                continue;
            }
            let (best, per_cell) = brute::chances(&rules, view);
            let (cell, chance) = best_click(&rules, view, &none, &odds, MAX_PLACEMENTS)
                .expect("few placements and cells");
            assert!(
                (chance - best).abs() < 1e-9,
                "seed {seed}: {chance} against {best}"
            );
            assert!(
                (per_cell[cell as usize] - best).abs() < 1e-9,
                "seed {seed}: cell {cell} wins {} of the best {best}",
                per_cell[cell as usize]
            );
            checked += 1;
        }
        assert!(checked > 60, "{checked}");
    }

    #[test]
    fn too_many_placements_are_left_to_the_heuristics() {
        let rules = Rules::new(5, 4, 4, FirstClick::Safe).unwrap();
        let mut game = ClassicGame::new(rules, 3);
        game.click(0, 0).unwrap();
        let odds = probabilities(&rules, game.view());
        let none = vec![false; 20];
        let placements = odds.ln_placements.exp().round() as usize;
        assert_eq!(placements, 1680);
        assert!(best_click(&rules, game.view(), &none, &odds, placements - 1).is_none());
        assert!(best_click(&rules, game.view(), &none, &odds, 0).is_none());
        // Listed, but too many sets of placements to value within the budget.
        assert!(best_click(&rules, game.view(), &none, &odds, placements).is_none());
    }
}
