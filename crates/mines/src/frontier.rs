//! The solutions of a frontier component, counted by their number of mines: a backtracking
//! enumeration over the component's unknown cells, checking every constraint ("exactly m
//! mines among these cells") as its cells are assigned. Shared by the contest solver's
//! deductions and the classic games' exact probabilities.

/// The counts of one component's solutions: `solutions[m]` solutions with m mines, and
/// `var_mines[v][m]` the mines on variable v summed over them. A variable is a box of
/// cells that the same constraints cover (one cell in the contest's solver): a solution puts
/// k of a box's s cells under mines in C(s, k) ways, all counted.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct SolutionCounts {
    pub(crate) solutions: Vec<f64>,
    pub(crate) var_mines: Vec<Vec<f64>>,
}

/// The backtracking enumeration of one component. Variables are numbered 0..n in the order
/// they are assigned (neighbouring cells close together make the constraints fail early).
pub(crate) struct Enumeration {
    /// Per variable, the constraints it appears in, and its cells.
    var_constraints: Vec<Vec<usize>>,
    sizes: Vec<u8>,
    /// Per constraint: mines still needed and unassigned cells left.
    need: Vec<i32>,
    free: Vec<i32>,
    /// Per variable, the mines the current partial solution puts in it.
    assignment: Vec<u8>,
    counts: SolutionCounts,
    nodes: u64,
    max_nodes: u64,
}

/// C(n, k) for the box sizes a constraint allows (at most 8 cells).
const BINOMIAL: [[f64; 9]; 9] = {
    let mut table = [[0.0; 9]; 9];
    let mut n = 0;
    while n < 9 {
        table[n][0] = 1.0;
        let mut k = 1;
        while k <= n {
            table[n][k] = table[n - 1][k - 1] + if k < n { table[n - 1][k] } else { 0.0 };
            k += 1;
        }
        n += 1;
    }
    table
};

impl Enumeration {
    /// The enumeration of `vars` one-cell variables under `constraints`, each the variables
    /// it covers and the mines among them; it gives up after `max_nodes` search nodes.
    pub(crate) fn new<'c>(
        vars: usize,
        constraints: impl IntoIterator<Item = (&'c [usize], u8)>,
        max_nodes: u64,
    ) -> Self {
        Self::boxes(&vec![1; vars], constraints, max_nodes)
    }

    /// The enumeration of boxes of `sizes` cells (each 1 to 8) under `constraints`, each the
    /// boxes it covers (whole) and the mines among their cells.
    pub(crate) fn boxes<'c>(
        sizes: &[u8],
        constraints: impl IntoIterator<Item = (&'c [usize], u8)>,
        max_nodes: u64,
    ) -> Self {
        let vars = sizes.len();
        let mut var_constraints = vec![Vec::new(); vars];
        let (mut need, mut free) = (Vec::new(), Vec::new());
        for (ci, (boxes, mines)) in constraints.into_iter().enumerate() {
            let mut cells = 0;
            for &v in boxes {
                var_constraints[v].push(ci);
                cells += i32::from(sizes[v]);
            }
            need.push(i32::from(mines));
            free.push(cells);
        }
        let cells: usize = sizes.iter().map(|&s| usize::from(s)).sum();
        Enumeration {
            var_constraints,
            sizes: sizes.to_vec(),
            need,
            free,
            assignment: vec![0; vars],
            counts: SolutionCounts {
                solutions: vec![0.0; cells + 1],
                var_mines: vec![vec![0.0; cells + 1]; vars],
            },
            nodes: 0,
            max_nodes,
        }
    }

    /// Runs the enumeration: the counts, or `None` if it gave up.
    pub(crate) fn run(mut self) -> Option<SolutionCounts> {
        self.visit(0, 0, 1.0).then_some(self.counts)
    }

    fn visit(&mut self, var: usize, mines: usize, ways: f64) -> bool {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return false;
        }
        if var == self.assignment.len() {
            self.counts.solutions[mines] += ways;
            for (v, &k) in self.assignment.iter().enumerate() {
                if k > 0 {
                    self.counts.var_mines[v][mines] += ways * f64::from(k);
                }
            }
            return true;
        }
        let size = self.sizes[var];
        for k in 0..=size {
            let mut ok = true;
            for &ci in &self.var_constraints[var] {
                self.free[ci] -= i32::from(size);
                self.need[ci] -= i32::from(k);
                if self.need[ci] < 0 || self.need[ci] > self.free[ci] {
                    ok = false;
                }
            }
            if ok {
                self.assignment[var] = k;
                let ways = ways * BINOMIAL[usize::from(size)][usize::from(k)];
                if !self.visit(var + 1, mines + usize::from(k), ways) {
                    return false;
                }
            }
            for &ci in &self.var_constraints[var] {
                self.free[ci] += i32::from(size);
                self.need[ci] += i32::from(k);
            }
        }
        self.assignment[var] = 0;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_a_one_two_one() {
        // 1 {0,1,2}, 2 {1,2,3}, 1 {2,3,4}: the only solutions put mines on 1 and 3.
        let cons: [(&[usize], u8); 3] = [(&[0, 1, 2], 1), (&[1, 2, 3], 2), (&[2, 3, 4], 1)];
        let counts = Enumeration::new(5, cons, 1000).run().unwrap();
        assert_eq!(counts.solutions, vec![0.0, 0.0, 1.0, 0.0, 0.0, 0.0]);
        let mines: Vec<bool> = counts.var_mines.iter().map(|row| row[2] == 1.0).collect();
        assert_eq!(mines, vec![false, true, false, true, false]);
    }

    #[test]
    fn counts_by_mines_and_gives_up() {
        // 1 of {0, 1} and nothing on 2: two solutions with one mine each... and 2 free.
        let cons: [(&[usize], u8); 1] = [(&[0, 1], 1)];
        let counts = Enumeration::new(2, cons, 1000).run().unwrap();
        assert_eq!(counts.solutions, vec![0.0, 2.0, 0.0]);
        assert_eq!(counts.var_mines[0], vec![0.0, 1.0, 0.0]);
        let cons: [(&[usize], u8); 1] = [(&[0, 1], 1)];
        assert!(Enumeration::new(2, cons, 2).run().is_none());
    }

    #[test]
    fn boxes_count_as_their_cells() {
        // 2 mines among a box of 3 cells and one lone cell, 1 mine on the lone cell and a
        // box of 2: the same counts as the six cells one by one.
        let boxed: [(&[usize], u8); 2] = [(&[0, 1], 2), (&[1, 2], 1)];
        let by_box = Enumeration::boxes(&[3, 1, 2], boxed, 1000).run().unwrap();
        let cells: [(&[usize], u8); 2] = [(&[0, 1, 2, 3], 2), (&[3, 4, 5], 1)];
        let by_cell = Enumeration::new(6, cells, 1000).run().unwrap();
        assert_eq!(by_box.solutions, by_cell.solutions);
        for m in 0..=6 {
            let box_total = by_box.var_mines[0][m];
            let cell_total: f64 = (0..3).map(|v| by_cell.var_mines[v][m]).sum();
            assert_eq!(box_total, cell_total, "{m}");
        }
    }
}
