//! Deductions beyond the single-cell rules: the pair (subset) rule between two numbers, and
//! exact enumeration of a small frontier component with the mine density as prior.
//!
//! Both are sound over the knowledge at any moment: knowledge only grows, and a constraint
//! "exactly m mines among these unknown cells" stays true as its cells become known. The
//! enumeration drops constraints that reach outside a capped component (a relaxation), so a
//! cell safe or a mine in every solution of the relaxed system is so in the real one.
//!
//! The probability of a frontier cell weighs each solution with m mines by `(p / (1 - p))^m`,
//! p the density of mines among unknown cells: the binomial approximation of the number of
//! ways to place the remaining mines off the component (as in the usual Minesweeper solvers,
//! e.g. Becerra, D. J. (2015), *Algorithmic approaches to playing Minesweeper*, Harvard).

use rustc_hash::{FxHashMap, FxHashSet};

use crate::frontier::{Enumeration, SolutionCounts};

use super::knowledge::{GUESSING, Knowledge, MINE, OPEN, UNKNOWN, is_open};

/// An open number's remaining constraint: exactly `mines` mines among `cells`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Constraint {
    /// The open cell.
    pub at: u32,
    /// Mines among `cells` (the number minus the known neighbouring mines).
    pub mines: u8,
    /// The unknown neighbours.
    pub cells: [u32; 8],
    /// How many of `cells` are used.
    pub len: usize,
}

impl Constraint {
    /// The unknown cells.
    #[must_use]
    pub(super) fn cells(&self) -> &[u32] {
        &self.cells[..self.len]
    }
}

/// The constraint of the open cell `at`, if it is open, has unknown neighbours and none
/// being guessed.
#[must_use]
pub(super) fn constraint(kn: &Knowledge, at: u32) -> Option<Constraint> {
    let state = kn.state(at);
    if !is_open(state) {
        return None;
    }
    let (nbrs, len) = kn.neighbours(at);
    let mut c = Constraint {
        at,
        mines: state - OPEN,
        cells: [0; 8],
        len: 0,
    };
    let mut known = 0u8;
    for &nb in &nbrs[..len] {
        match kn.state(nb) {
            UNKNOWN => {
                c.cells[c.len] = nb;
                c.len += 1;
            }
            MINE => known += 1,
            GUESSING => return None,
            _ => {}
        }
    }
    if c.len == 0 || known > c.mines {
        return None;
    }
    c.mines -= known;
    Some(c)
}

/// What the two single-cell rules say of an open number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rule {
    /// A neighbour is being guessed: its answer queues the number again.
    Waiting,
    /// Every neighbour is known.
    Resolved,
    /// The known mines account for the number: every unknown neighbour is safe.
    Safe,
    /// The unknown neighbours are exactly the missing mines.
    Mines,
    /// Neither.
    Unresolved,
}

/// The single-cell rules on an open `number` whose neighbours are `nbrs`.
#[inline]
pub(super) fn single_rule(kn: &Knowledge, number: u8, nbrs: &[u32]) -> Rule {
    // Counted without branches: the states around a number are close to random.
    let (mut mines, mut unknown, mut guessing) = (0u8, 0u8, false);
    for &nb in nbrs {
        let s = kn.state(nb);
        unknown += u8::from(s == UNKNOWN);
        mines += u8::from(s == MINE);
        guessing |= s == GUESSING;
    }
    if guessing {
        Rule::Waiting
    } else if unknown == 0 {
        Rule::Resolved
    } else if mines == number {
        Rule::Safe
    } else if mines + unknown == number {
        Rule::Mines
    } else {
        Rule::Unresolved
    }
}

/// What two overlapping constraints imply: cells that must be safe and cells that must be
/// mines, appended to `safe` and `mines`. Returns whether anything was found.
pub(super) fn pair(
    a: &Constraint,
    b: &Constraint,
    safe: &mut Vec<u32>,
    mines: &mut Vec<u32>,
) -> bool {
    let shared = a.cells().iter().filter(|c| b.cells().contains(c)).count();
    if shared == 0 {
        return false;
    }
    let only_a = a.len - shared;
    let only_b = b.len - shared;
    let (ra, rb) = (i32::from(a.mines), i32::from(b.mines));
    // Mines in the shared cells lie in [low, high].
    let low = 0.max(ra - only_a as i32).max(rb - only_b as i32);
    let high = (shared as i32).min(ra).min(rb);
    if low > high {
        return false;
    }
    let mut found = false;
    for (me, other, rest, r) in [(a, b, only_a, ra), (b, a, only_b, rb)] {
        if rest == 0 {
            continue;
        }
        let own = me.cells().iter().filter(|c| !other.cells().contains(c));
        if r - low == 0 {
            safe.extend(own);
            found = true;
        } else if r - high == rest as i32 {
            mines.extend(own);
            found = true;
        }
    }
    found
}

/// The result of enumerating one frontier component.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Analysis {
    /// Cells safe in every solution.
    pub safe: Vec<u32>,
    /// Cells that are mines in every solution.
    pub mines: Vec<u32>,
    /// Every other cell of the component with its mine probability.
    pub odds: Vec<(u32, f64)>,
}

/// Limits of one enumeration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnumLimits {
    /// Unknown cells in a component at most (further cells are left out, with the
    /// constraints that touch them).
    pub cells: usize,
    /// Search nodes at most; a larger search gives up (empty analysis).
    pub nodes: u64,
}

impl Default for EnumLimits {
    fn default() -> Self {
        EnumLimits {
            cells: 22,
            nodes: 1 << 20,
        }
    }
}

/// Enumerates the frontier component around the open cell `seed` (marking its constraints in
/// `covered`), with `density` the mine density of the unknown cells.
pub(super) fn enumerate(
    kn: &Knowledge,
    seed: u32,
    density: f64,
    limits: EnumLimits,
    covered: &mut FxHashSet<u32>,
) -> Analysis {
    let mut vars: Vec<u32> = Vec::new();
    let mut index: FxHashMap<u32, usize> = FxHashMap::default();
    let mut constraints: Vec<Constraint> = Vec::new();
    let mut queue = vec![seed];
    covered.insert(seed);
    while let Some(at) = queue.pop() {
        let Some(c) = constraint(kn, at) else {
            continue;
        };
        let mut complete = true;
        for &cell in c.cells() {
            if index.contains_key(&cell) {
                continue;
            }
            if vars.len() == limits.cells {
                complete = false;
                continue;
            }
            index.insert(cell, vars.len());
            vars.push(cell);
            let (nbrs, len) = kn.neighbours(cell);
            for &nb in &nbrs[..len] {
                if is_open(kn.state(nb)) && covered.insert(nb) {
                    queue.push(nb);
                }
            }
        }
        if complete {
            constraints.push(c);
        }
    }
    // Constraints whose cells all made it into the component (a later cap may cut some).
    constraints.retain(|c| c.cells().iter().all(|cell| index.contains_key(cell)));
    if vars.is_empty() || constraints.is_empty() {
        return Analysis::default();
    }
    let lists: Vec<Vec<usize>> = constraints
        .iter()
        .map(|c| c.cells().iter().map(|cell| index[cell]).collect())
        .collect();
    let search = Enumeration::new(
        vars.len(),
        lists
            .iter()
            .zip(&constraints)
            .map(|(l, c)| (l.as_slice(), c.mines)),
        limits.nodes,
    );
    match search.run() {
        Some(counts) => counts.analysis(&vars, density),
        None => Analysis::default(),
    }
}

/// The weighing of a component's solutions into an analysis.
impl SolutionCounts {
    fn analysis(&self, vars: &[u32], density: f64) -> Analysis {
        let density = density.clamp(1e-9, 1.0 - 1e-9);
        let ratio = density / (1.0 - density);
        let weights: Vec<f64> = (0..self.solutions.len())
            .map(|m| ratio.powi(m as i32))
            .collect();
        let total: f64 = self
            .solutions
            .iter()
            .zip(&weights)
            .map(|(s, w)| s * w)
            .sum();
        let mut out = Analysis::default();
        if total <= 0.0 {
            return out;
        }
        for (v, &cell) in vars.iter().enumerate() {
            let row = &self.var_mines[v];
            if row.iter().all(|&x| x == 0.0) {
                out.safe.push(cell);
            } else if row.iter().zip(&self.solutions).all(|(x, s)| x == s) {
                out.mines.push(cell);
            } else {
                let p: f64 = row.iter().zip(&weights).map(|(x, w)| x * w).sum::<f64>() / total;
                out.odds.push((cell, p));
            }
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A 16 x 16 position from rows of text: `*` a hidden mine, `o` an open safe cell (its
    /// number computed), anything else a hidden safe cell; unlisted cells are hidden and safe.
    pub(crate) fn position(rows: &[&str], k: u64) -> Knowledge {
        let kn = Knowledge::new(16, k);
        let at = |r: i64, c: i64| -> char {
            if r < 0 || c < 0 {
                return '#';
            }
            rows.get(r as usize)
                .and_then(|row| row.chars().nth(c as usize))
                .unwrap_or('#')
        };
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                if ch != 'o' {
                    continue;
                }
                let (r, c) = (r as i64, c as i64);
                let mut number = 0;
                for dr in -1..=1 {
                    for dc in -1..=1 {
                        number += u8::from(at(r + dr, c + dc) == '*');
                    }
                }
                kn.set_open(kn.cell(r as u32, c as u32), number);
            }
        }
        kn
    }

    fn cells(kn: &Knowledge, list: &[(u32, u32)]) -> Vec<u32> {
        let mut out: Vec<u32> = list.iter().map(|&(r, c)| kn.cell(r, c)).collect();
        out.sort_unstable();
        out
    }

    fn raw(mines: u8, list: &[u32]) -> Constraint {
        let mut c = Constraint {
            at: 0,
            mines,
            cells: [0; 8],
            len: list.len(),
        };
        c.cells[..list.len()].copy_from_slice(list);
        c
    }

    #[test]
    fn pair_rule_solves_one_two_one() {
        // 1 {0,1,2}, 2 {1,2,3}, 1 {2,3,4}: 1 and 3 are mines, 0 and 4 safe.
        let (a, b, c) = (raw(1, &[0, 1, 2]), raw(2, &[1, 2, 3]), raw(1, &[2, 3, 4]));
        let (mut safe, mut mines) = (Vec::new(), Vec::new());
        assert!(pair(&a, &b, &mut safe, &mut mines));
        assert!(pair(&b, &c, &mut safe, &mut mines));
        safe.sort_unstable();
        mines.sort_unstable();
        assert_eq!((safe, mines), (vec![0, 4], vec![1, 3]));
        // Disjoint or uninformative pairs say nothing.
        let (mut safe, mut mines) = (Vec::new(), Vec::new());
        assert!(!pair(
            &raw(1, &[0, 1]),
            &raw(1, &[2, 3]),
            &mut safe,
            &mut mines
        ));
        assert!(!pair(
            &raw(1, &[0, 1]),
            &raw(1, &[1, 2]),
            &mut safe,
            &mut mines
        ));
        assert!(safe.is_empty() && mines.is_empty());
    }

    #[test]
    fn pair_rule_clears_past_a_subset() {
        // 1 {0,1} inside 1 {0,1,2,3}: 2 and 3 are safe; 1 {0,1} inside 3 {0,1,2,3}: mines.
        let (mut safe, mut mines) = (Vec::new(), Vec::new());
        assert!(pair(
            &raw(1, &[0, 1]),
            &raw(1, &[0, 1, 2, 3]),
            &mut safe,
            &mut mines
        ));
        assert_eq!(safe, vec![2, 3]);
        assert!(pair(
            &raw(1, &[0, 1]),
            &raw(3, &[0, 1, 2, 3]),
            &mut safe,
            &mut mines
        ));
        assert_eq!(mines, vec![2, 3]);
    }

    #[test]
    fn enumeration_solves_a_real_one_two_one() {
        let kn = position(&["#*#*#", "ooooo", "ooooo"], 32);
        let a = enumerate(
            &kn,
            kn.cell(1, 2),
            0.125,
            EnumLimits::default(),
            &mut FxHashSet::default(),
        );
        let mut mines = a.mines.clone();
        mines.sort_unstable();
        assert_eq!(mines, cells(&kn, &[(0, 1), (0, 3)]));
        for cell in cells(&kn, &[(0, 0), (0, 2), (0, 4)]) {
            assert!(a.safe.contains(&cell));
        }
    }

    #[test]
    fn enumeration_weighs_a_lone_number() {
        let kn = position(&["*##", "#o#", "###"], 32);
        let a = enumerate(
            &kn,
            kn.cell(1, 1),
            0.3,
            EnumLimits::default(),
            &mut FxHashSet::default(),
        );
        assert!(a.safe.is_empty() && a.mines.is_empty());
        assert_eq!(a.odds.len(), 8);
        for &(_, p) in &a.odds {
            assert!((p - 0.125).abs() < 1e-9, "{p}");
        }
    }
}
