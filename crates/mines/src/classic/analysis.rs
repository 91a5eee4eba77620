//! Exact mine probabilities of a classic position: every frontier component's solutions
//! counted by their number of mines ([`crate::frontier`], cells grouped in boxes that the
//! same numbers see), then weighed together with the ways to place the remaining mines on
//! the cells no number sees: a solution set with t mines on the frontier weighs
//! C(O, M - t), O the unseen cells and M the mines left (the global count, which decides
//! many endgames). The method of the exhaustive solvers (Becerra, *Algorithmic approaches to
//! playing Minesweeper*, 2015; JSMinesweeper's and MineSweeperProb's probability engines).

use rustc_hash::FxHashMap;

use super::game::{HIDDEN, for_neighbours};
use ply_search::messages::plural;

use super::rules::Rules;
use crate::MinesError;
use crate::frontier::{Enumeration, SolutionCounts};

/// Search nodes one component's enumeration may take before the analysis gives up on it
/// (its cells then get the density of the unseen cells, and the analysis is not exact).
pub const COMPONENT_NODES: u64 = 1 << 20;

/// The mine probabilities of a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Probabilities {
    /// Per cell, row by row: the probability that it is a mine (0 for open cells).
    pub mine: Vec<f64>,
    /// Per cell: whether it is certainly safe (a hidden cell no solution puts a mine on).
    pub safe: Vec<bool>,
    /// Per cell: whether it is certainly a mine.
    pub certain_mine: Vec<bool>,
    /// Whether every component was enumerated (otherwise some cells carry an estimate and
    /// are never called certain).
    pub exact: bool,
    /// The natural logarithm of the number of mine placements consistent with the position
    /// (negative infinity if none is): the ratio of two positions' counts is the chance of
    /// the one given the other, which a look-ahead weighs a click's outcomes by.
    pub ln_placements: f64,
}

/// The exact probabilities of the position `view` ([`super::ClassicGame::view`]) under
/// `rules`, knowing nothing else.
#[must_use]
pub fn probabilities(rules: &Rules, view: &[u8]) -> Probabilities {
    let none = vec![false; view.len()];
    Analyzer::default().run(rules, view, &none)
}

/// [`probabilities`] of a view that some placement of the mines fits.
///
/// # Errors
/// No placement of `rules.mines` mines fits the view (its numbers contradict each other or
/// the count): [`probabilities`] would give every hidden cell the density of the mines, a
/// guess rather than a probability.
pub fn checked_probabilities(rules: &Rules, view: &[u8]) -> Result<Probabilities, MinesError> {
    let odds = probabilities(rules, view);
    if odds.ln_placements == f64::NEG_INFINITY {
        return Err(MinesError::BadParameters(format!(
            "no placement of {} fits this view",
            plural(u64::from(rules.mines), "mine")
        )));
    }
    Ok(odds)
}

/// The reusable work space of the analysis.
#[derive(Default)]
pub(crate) struct Analyzer {
    /// Per frontier cell, the constraints that see it (sorted), to find its box.
    boxes: FxHashMap<Vec<u32>, usize>,
    ln_factorial: Vec<f64>,
}

/// One constraint: an open number, its hidden neighbours (not known mines) and the mines
/// among them.
struct Constraint {
    mines: u8,
    boxes: Vec<usize>,
}

impl Analyzer {
    /// ln C(n, k).
    fn ln_choose(&mut self, n: usize, k: usize) -> f64 {
        while self.ln_factorial.len() <= n {
            let i = self.ln_factorial.len();
            let prev = self.ln_factorial.last().copied().unwrap_or(0.0);
            self.ln_factorial
                .push(if i == 0 { 0.0 } else { prev + (i as f64).ln() });
        }
        self.ln_factorial[n] - self.ln_factorial[k] - self.ln_factorial[n - k]
    }

    /// The probabilities of `view` with the mines `known` (the player's deductions: they
    /// must be right) left out of the counting: the frontier's components counted, their
    /// counts weighed together with the placements of the mines left on the unseen cells.
    pub(crate) fn run(&mut self, rules: &Rules, view: &[u8], known: &[bool]) -> Probabilities {
        let cells = view.len();
        let hidden = |c: u32| view[c as usize] == HIDDEN && !known[c as usize];
        let frontier = self.frontier(rules, view, known);
        let counted = frontier.count(frontier.components());
        // The unseen cells and the mines left.
        let known_mines = known.iter().filter(|&&k| k).count();
        let mines_left = (rules.mines as usize).saturating_sub(known_mines);
        let in_frontier: usize = counted
            .components
            .iter()
            .map(|(order, _)| {
                order
                    .iter()
                    .map(|&b| frontier.box_cells[b].len())
                    .sum::<usize>()
            })
            .sum();
        let all_hidden = (0..cells as u32).filter(|&c| hidden(c)).count();
        let mix = Mix {
            mines_left,
            unseen: all_hidden - in_frontier,
        };
        // The weight of t mines on the counted frontier: C(unseen, mines_left - t), scaled.
        let max_t: usize = counted
            .components
            .iter()
            .map(|(_, c)| c.solutions.len() - 1)
            .sum();
        let (base, weight) = self.weights(&mix, max_t);
        let mut out = Probabilities {
            mine: vec![0.0; cells],
            safe: vec![false; cells],
            certain_mine: vec![false; cells],
            exact: counted.exact,
            ln_placements: f64::NEG_INFINITY,
        };
        for (c, k) in known.iter().enumerate() {
            if *k {
                out.mine[c] = 1.0;
                out.certain_mine[c] = true;
            }
        }
        // No placement of the mines fits: a contradiction (see `Frontier::count`), or
        // components whose solutions all need another number of mines than the count leaves.
        // Nothing is certain; every hidden cell gets the density of the mines left.
        let contradiction = |mut out: Probabilities| {
            out.exact = false;
            out.ln_placements = f64::NEG_INFINITY;
            let density = mines_left as f64 / all_hidden.max(1) as f64;
            for c in 0..cells as u32 {
                if hidden(c) {
                    out.mine[c as usize] = density.min(1.0);
                }
            }
            out
        };
        if counted.contradicted || !base.is_finite() {
            return contradiction(out);
        }
        let polys: Vec<&[f64]> = counted
            .components
            .iter()
            .map(|(_, c)| c.solutions.as_slice())
            .collect();
        let all = convolve_all(polys.iter().copied());
        let total: f64 = all.iter().zip(&weight).map(|(x, w)| x * w).sum();
        if total <= 0.0 || !total.is_finite() {
            return contradiction(out);
        }
        out.ln_placements = total.ln() + base + counted.ln_scale;
        let weighed = Weighed {
            weight: &weight,
            total,
            mix: &mix,
        };
        weighed.components(&frontier, &counted, &polys, &mut out);
        if mix.unseen > 0 {
            weighed.unseen(&all, &frontier, &counted.estimated, &hidden, &mut out);
        }
        out
    }

    /// The constraints of `view` (its open numbers, less the `known` mines around them) and
    /// the frontier's boxes.
    fn frontier(&mut self, rules: &Rules, view: &[u8], known: &[bool]) -> Frontier {
        let cells = view.len();
        let hidden = |c: u32| view[c as usize] == HIDDEN && !known[c as usize];
        self.boxes.clear();
        let mut box_cells: Vec<Vec<u32>> = Vec::new();
        let mut seen_by: FxHashMap<u32, Vec<u32>> = FxHashMap::default();
        let mut numbers: Vec<(u32, u8)> = Vec::new();
        let mut impossible = false;
        for at in 0..cells as u32 {
            let v = view[at as usize];
            if v == HIDDEN || v > 8 {
                continue;
            }
            let (mut unknown, mut mines) = (0u8, 0u8);
            for_neighbours(rules, at, |nb| {
                if known[nb as usize] {
                    mines += 1;
                } else if view[nb as usize] == HIDDEN {
                    unknown += 1;
                }
            });
            if mines > v || mines + unknown < v {
                // More proved mines than the number, or too few cells for it: no placement.
                impossible = true;
                continue;
            }
            if unknown == 0 {
                continue;
            }
            let ci = numbers.len() as u32;
            numbers.push((at, v - mines));
            for_neighbours(rules, at, |nb| {
                if hidden(nb) {
                    seen_by.entry(nb).or_default().push(ci);
                }
            });
        }
        let mut frontier: Vec<u32> = seen_by.keys().copied().collect();
        frontier.sort_unstable();
        for &cell in &frontier {
            let key = seen_by[&cell].clone();
            let next = box_cells.len();
            let b = *self.boxes.entry(key).or_insert(next);
            if b == next {
                box_cells.push(Vec::new());
            }
            box_cells[b].push(cell);
        }
        let mut constraints: Vec<Constraint> = numbers
            .iter()
            .map(|&(_, mines)| Constraint {
                mines,
                boxes: Vec::new(),
            })
            .collect();
        for (key, &b) in &self.boxes {
            for &ci in key {
                constraints[ci as usize].boxes.push(b);
            }
        }
        let mut box_constraints: Vec<Vec<usize>> = vec![Vec::new(); box_cells.len()];
        for (ci, c) in constraints.iter().enumerate() {
            for &b in &c.boxes {
                box_constraints[b].push(ci);
            }
        }
        Frontier {
            box_cells,
            seen_by,
            constraints,
            box_constraints,
            impossible,
        }
    }

    /// For `t` up to `max_t` mines on the counted frontier, the weight of the placements of
    /// the others on the unseen cells, C(unseen, mines_left - t), scaled by the largest (its
    /// logarithm, `base`, is returned first; negative infinity when no `t` is feasible).
    fn weights(&mut self, mix: &Mix, max_t: usize) -> (f64, Vec<f64>) {
        let ln: Vec<f64> = (0..=max_t)
            .map(|t| {
                if mix.feasible(t) {
                    self.ln_choose(mix.unseen, mix.mines_left - t)
                } else {
                    f64::NEG_INFINITY
                }
            })
            .collect();
        let base = ln.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let weight: Vec<f64> = ln.iter().map(|&l| (l - base).exp()).collect();
        (base, weight)
    }
}

/// The frontier of a view: its boxes (cells the same constraints see), the constraints over
/// them and which constraints see each box.
struct Frontier {
    /// Per box, its cells.
    box_cells: Vec<Vec<u32>>,
    /// Per frontier cell, the constraints that see it.
    seen_by: FxHashMap<u32, Vec<u32>>,
    constraints: Vec<Constraint>,
    /// Per box, the constraints that see it.
    box_constraints: Vec<Vec<usize>>,
    /// Whether some number has more proved mines around it than it shows, or too few cells.
    impossible: bool,
}

/// The components' counts, each scaled to a largest count of 1 (probabilities do not depend
/// on a component's scale, and large boards would overflow otherwise).
struct Counted {
    /// Each component counted: its boxes in enumeration order, and its counts.
    components: Vec<(Vec<usize>, SolutionCounts)>,
    /// The logarithm of the scales the components' counts were divided by.
    ln_scale: f64,
    /// Whether every component was enumerated.
    exact: bool,
    /// Whether the position contradicts itself.
    contradicted: bool,
    /// The cells of the components not counted: they get the unseen cells' probability.
    estimated: Vec<u32>,
}

impl Frontier {
    /// Components: boxes joined by constraints, found breadth first (neighbouring boxes
    /// close together in the enumeration's order).
    fn components(&self) -> Vec<Vec<usize>> {
        let mut component_of = vec![usize::MAX; self.box_cells.len()];
        let mut components: Vec<Vec<usize>> = Vec::new();
        for start in 0..self.box_cells.len() {
            if component_of[start] != usize::MAX {
                continue;
            }
            let id = components.len();
            let mut order = vec![start];
            component_of[start] = id;
            let mut i = 0;
            while i < order.len() {
                let b = order[i];
                i += 1;
                for &ci in &self.box_constraints[b] {
                    for &other in &self.constraints[ci].boxes {
                        if component_of[other] == usize::MAX {
                            component_of[other] = id;
                            order.push(other);
                        }
                    }
                }
            }
            components.push(order);
        }
        components
    }

    /// Each component's counts, scaled to a largest count of 1; a component whose
    /// enumeration runs out of nodes is estimated, and one without a solution means that the
    /// position contradicts itself.
    fn count(&self, components: Vec<Vec<usize>>) -> Counted {
        let mut counted = Counted {
            components: Vec::new(),
            ln_scale: 0.0,
            exact: true,
            contradicted: self.impossible,
            estimated: Vec::new(),
        };
        let mut local = vec![usize::MAX; self.box_cells.len()];
        for order in components {
            for (i, &b) in order.iter().enumerate() {
                local[b] = i;
            }
            let mut cons: Vec<(Vec<usize>, u8)> = Vec::new();
            let mut done = rustc_hash::FxHashSet::default();
            for &b in &order {
                for &ci in &self.box_constraints[b] {
                    if done.insert(ci) {
                        let c = &self.constraints[ci];
                        cons.push((c.boxes.iter().map(|&x| local[x]).collect(), c.mines));
                    }
                }
            }
            let sizes: Vec<u8> = order
                .iter()
                .map(|&b| self.box_cells[b].len() as u8)
                .collect();
            let enumeration = Enumeration::boxes(
                &sizes,
                cons.iter().map(|(l, m)| (l.as_slice(), *m)),
                COMPONENT_NODES,
            );
            match enumeration.run() {
                Some(mut counts) => {
                    let top = counts.solutions.iter().copied().fold(0.0, f64::max);
                    if top <= 0.0 {
                        // No solution: the position contradicts itself (wrong known mines
                        // or a foreign view); say nothing certain.
                        counted.exact = false;
                        counted.contradicted = true;
                        counted
                            .estimated
                            .extend(order.iter().flat_map(|&b| self.box_cells[b].clone()));
                        continue;
                    }
                    counted.ln_scale += top.ln();
                    for x in &mut counts.solutions {
                        *x /= top;
                    }
                    for row in &mut counts.var_mines {
                        for x in row {
                            *x /= top;
                        }
                    }
                    counted.components.push((order, counts));
                }
                None => {
                    counted.exact = false;
                    counted
                        .estimated
                        .extend(order.iter().flat_map(|&b| self.box_cells[b].clone()));
                }
            }
        }
        counted
    }
}

/// The mines left to place and the unseen cells (hidden, not on a counted component).
struct Mix {
    mines_left: usize,
    unseen: usize,
}

impl Mix {
    /// Whether `t` mines on the counted frontier leave a number the unseen cells can hold.
    fn feasible(&self, t: usize) -> bool {
        t <= self.mines_left && self.mines_left - t <= self.unseen
    }
}

/// The counted components weighed together: the weight of each number of mines on the
/// frontier, and the total over every placement.
struct Weighed<'a> {
    weight: &'a [f64],
    total: f64,
    mix: &'a Mix,
}

impl Weighed<'_> {
    /// Each counted component's cells: per component, the convolution of the others, R_i;
    /// then U_i(a) = sum_b R_i(b) w(a + b), and a box's mines weigh by U_i.
    fn components(
        &self,
        frontier: &Frontier,
        counted: &Counted,
        polys: &[&[f64]],
        out: &mut Probabilities,
    ) {
        for (i, (order, counts)) in counted.components.iter().enumerate() {
            let rest = convolve_all(
                polys
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, p)| *p),
            );
            let len = counts.solutions.len();
            let mut u = vec![0.0; len];
            let mut u_possible = vec![false; len];
            for a in 0..len {
                for (b, &r) in rest.iter().enumerate() {
                    if r > 0.0 && a + b < self.weight.len() {
                        u[a] += r * self.weight[a + b];
                        u_possible[a] |= self.mix.feasible(a + b);
                    }
                }
            }
            for (v, &b) in order.iter().enumerate() {
                let size = frontier.box_cells[b].len() as f64;
                let row = &counts.var_mines[v];
                let p: f64 =
                    row.iter().zip(&u).map(|(x, w)| x * w).sum::<f64>() / size / self.total;
                let can_mine = (0..len).any(|a| row[a] > 0.0 && u_possible[a]);
                let can_safe = (0..len).any(|a| {
                    counts.solutions[a] * size - row[a] > 1e-9 * counts.solutions[a]
                        && u_possible[a]
                });
                for &cell in &frontier.box_cells[b] {
                    out.mine[cell as usize] = if can_mine { p.clamp(0.0, 1.0) } else { 0.0 };
                    out.safe[cell as usize] = !can_mine;
                    out.certain_mine[cell as usize] = !can_safe;
                }
            }
        }
    }

    /// The unseen cells, which share one probability; `estimated` cells get it too. `all`
    /// is the convolution of every counted component.
    fn unseen(
        &self,
        all: &[f64],
        frontier: &Frontier,
        estimated: &[u32],
        hidden: &impl Fn(u32) -> bool,
        out: &mut Probabilities,
    ) {
        let (mines_left, unseen) = (self.mix.mines_left, self.mix.unseen);
        let possible_total: Vec<bool> = (0..all.len())
            .map(|t| all[t] > 0.0 && self.mix.feasible(t))
            .collect();
        let p: f64 = all
            .iter()
            .enumerate()
            .map(|(t, &x)| {
                x * self.weight.get(t).copied().unwrap_or(0.0)
                    * (mines_left.saturating_sub(t)) as f64
            })
            .sum::<f64>()
            / unseen as f64
            / self.total;
        let can_mine = (0..all.len()).any(|t| possible_total[t] && mines_left > t);
        let can_safe = (0..all.len()).any(|t| possible_total[t] && mines_left - t < unseen);
        let cells = out.mine.len();
        let mut estimated_set = vec![false; cells];
        for &c in estimated {
            estimated_set[c as usize] = true;
        }
        for c in 0..cells as u32 {
            if hidden(c) && (!frontier.seen_by.contains_key(&c) || estimated_set[c as usize]) {
                let e = estimated_set[c as usize];
                out.mine[c as usize] = if can_mine || e {
                    p.clamp(0.0, 1.0)
                } else {
                    0.0
                };
                out.safe[c as usize] = !e && !can_mine;
                out.certain_mine[c as usize] = !e && !can_safe;
            }
        }
    }
}

/// The convolution of the polynomials `polys` (1 for none).
fn convolve_all<'p>(polys: impl IntoIterator<Item = &'p [f64]>) -> Vec<f64> {
    let mut acc = vec![1.0];
    for p in polys {
        let mut next = vec![0.0; acc.len() + p.len() - 1];
        for (i, &a) in acc.iter().enumerate() {
            if a == 0.0 {
                continue;
            }
            for (j, &b) in p.iter().enumerate() {
                next[i + j] += a * b;
            }
        }
        acc = next;
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::super::game::ClassicGame;
    use super::super::{FirstClick, Rules};
    use super::*;

    /// Every placement of the mines consistent with `view`, by brute force: the exact
    /// probability of each cell.
    fn brute_force(rules: &Rules, view: &[u8]) -> (Vec<f64>, u64) {
        let cells = view.len();
        let hidden: Vec<usize> = (0..cells).filter(|&c| view[c] == HIDDEN).collect();
        let mut counts = vec![0u64; cells];
        let mut total = 0u64;
        for mask in 0u64..(1 << hidden.len()) {
            if mask.count_ones() != rules.mines {
                continue;
            }
            let mut mine = vec![false; cells];
            for (i, &c) in hidden.iter().enumerate() {
                mine[c] = mask >> i & 1 == 1;
            }
            let fits = (0..cells).all(|c| {
                if view[c] == HIDDEN {
                    return true;
                }
                let mut n = 0;
                for_neighbours(rules, c as u32, |nb| n += u8::from(mine[nb as usize]));
                n == view[c]
            });
            if fits {
                total += 1;
                for c in 0..cells {
                    counts[c] += u64::from(mine[c]);
                }
            }
        }
        (
            counts.iter().map(|&n| n as f64 / total as f64).collect(),
            total,
        )
    }

    #[test]
    fn counts_the_placements() {
        // Nothing open: every placement of 4 mines on 20 cells.
        let rules = Rules::new(5, 4, 4, FirstClick::Safe).unwrap();
        let found = probabilities(&rules, &[HIDDEN; 20]);
        assert!((found.ln_placements - 4845f64.ln()).abs() < 1e-9);
        // A contradiction has none.
        let mut view = [HIDDEN; 20];
        view[0] = 8;
        assert_eq!(
            probabilities(&rules, &view).ln_placements,
            f64::NEG_INFINITY
        );
    }

    #[test]
    fn agrees_with_brute_force_on_small_boards() {
        // 5 x 4 boards with 4 to 6 mines, after one to three safe clicks.
        let mut checked = 0;
        for seed in 0..300u64 {
            let mines = 4 + (seed % 3) as u32;
            let rules = Rules::new(5, 4, mines, FirstClick::Safe).unwrap();
            let mut game = ClassicGame::new(rules, seed);
            game.click(0, 0).unwrap();
            for extra in 0..(seed % 3) {
                let c = ((seed * 7 + extra * 11) % 20) as u32;
                if game.is_mine((c / 5) as u16, (c % 5) as u16) == Some(false) {
                    game.click_cell(c);
                }
            }
            if game.status() != super::super::Status::Playing {
                continue;
            }
            let (exact, placements) = brute_force(&rules, game.view());
            let found = probabilities(&rules, game.view());
            assert!(found.exact);
            assert!((found.ln_placements - (placements as f64).ln()).abs() < 1e-9);
            for (c, &v) in game.view().iter().enumerate() {
                if v != HIDDEN {
                    continue;
                }
                assert!(
                    (exact[c] - found.mine[c]).abs() < 1e-9,
                    "seed {seed} cell {c}: {} against {}",
                    found.mine[c],
                    exact[c]
                );
                assert_eq!(found.safe[c], exact[c] == 0.0, "seed {seed} cell {c}");
                assert_eq!(
                    found.certain_mine[c],
                    exact[c] == 1.0,
                    "seed {seed} cell {c}"
                );
            }
            checked += 1;
        }
        assert!(checked > 200, "{checked}");
    }

    /// A view that no placement of the count fits: numbers that need more mines than the
    /// board has, or more than their neighbours hold. Never confident zeros or ones.
    #[test]
    fn a_view_no_placement_fits_is_refused_and_estimated() {
        let rules = |mines| Rules {
            width: 2,
            height: 2,
            mines,
            first_click: FirstClick::Safe,
            start: (0, 0),
        };
        for (view, mines) in [
            ([2, HIDDEN, HIDDEN, HIDDEN], 1),
            ([8, HIDDEN, HIDDEN, HIDDEN], 3),
        ] {
            let odds = probabilities(&rules(mines), &view);
            assert!(!odds.exact, "{view:?}");
            assert_eq!(odds.ln_placements, f64::NEG_INFINITY);
            let density = f64::from(mines) / 3.0;
            for cell in 1..4 {
                assert!((odds.mine[cell] - density).abs() < 1e-12, "{:?}", odds.mine);
                assert!(!odds.safe[cell] && !odds.certain_mine[cell]);
            }
            let refused = checked_probabilities(&rules(mines), &view).unwrap_err();
            assert!(
                refused.to_string().contains(&format!(
                    "no placement of {} fits this view",
                    plural(u64::from(mines), "mine")
                )),
                "{refused}"
            );
        }
        // The same number with a count it allows.
        let fits = checked_probabilities(&rules(2), &[2, HIDDEN, HIDDEN, HIDDEN]).unwrap();
        assert!((fits.mine[1] - 2.0 / 3.0).abs() < 1e-12);
    }
}
