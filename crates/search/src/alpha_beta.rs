//! Negamax alpha-beta for deterministic two-player zero-sum games, with iterative deepening,
//! a move-ordering hook and an optional transposition table.
//!
//! Knuth, D. E. and Moore, R. W. (1975). *An analysis of alpha-beta pruning.* Artificial
//! Intelligence 6(4), 293-326 (the negamax formulation used here). The transposition table
//! stores exact values and bounds with the depth they were searched to and the best move, as in
//! Marsland, T. A. (1986), *A review of game-tree pruning*, ICCA Journal 9(1).
//!
//! Without ordering and without a table the search visits moves in the game's order and keeps
//! the first of equally good root moves, so it reproduces a plain textbook alpha-beta move for
//! move (the course baselines are such programs).

use std::time::Instant;

use crate::limits::{Limits, Poller};

/// Positions visited between two looks at the clock: a few hundred microseconds.
const CLOCK_INTERVAL: u64 = 1024;

/// A game searched by [`alpha_beta`]: moves are applied and undone in place.
pub trait AlphaBetaGame {
    /// A move.
    type Move: Copy + Eq;
    /// The legal moves of a position, on the stack.
    type Moves: AsRef<[Self::Move]> + AsMut<[Self::Move]>;
    /// What [`AlphaBetaGame::play`] returns so that [`AlphaBetaGame::undo`] can restore.
    type Undo: Copy;

    /// The legal moves of the side to move (empty only when the game is over).
    fn moves(&self) -> Self::Moves;
    /// Plays a legal move.
    fn play(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back the move `mv` played with result `undo`.
    fn undo(&mut self, mv: Self::Move, undo: Self::Undo);
    /// The value for the side to move if the game is over, else `None`.
    fn outcome(&self) -> Option<i32>;
    /// A heuristic value for the side to move of a position that is not over.
    fn evaluate(&self) -> i32;
    /// A hash of the position (including the side to move); used only with a table.
    fn hash(&self) -> u64 {
        0
    }
}

/// Larger than any value a game returns.
pub const INFINITY: i32 = i32::MAX / 2;

/// What kind of value a table entry holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// One table entry.
#[derive(Clone, Copy, Debug)]
struct Entry<M> {
    key: u64,
    depth: u32,
    value: i32,
    bound: Bound,
    best: Option<M>,
}

/// A transposition table: `2^bits` entries, always-replace.
#[derive(Clone, Debug)]
pub struct TranspositionTable<M> {
    entries: Vec<Option<Entry<M>>>,
    mask: usize,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of `2^bits` entries.
    #[must_use]
    pub fn new(bits: u32) -> Self {
        TranspositionTable {
            entries: vec![None; 1 << bits],
            mask: (1 << bits) - 1,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(None);
    }

    fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[key as usize & self.mask].filter(|e| e.key == key)
    }

    fn store(&mut self, entry: Entry<M>) {
        self.entries[entry.key as usize & self.mask] = Some(entry);
    }
}

/// The result of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlphaBetaResult<M> {
    /// The best root move (`None` if the root has no move).
    pub best: Option<M>,
    /// Its value for the side to move at the root.
    pub value: i32,
    /// The deepest depth searched completely.
    pub depth: u32,
    /// Positions visited.
    pub nodes: u64,
}

/// A move-ordering hook: reorders a position's moves, best first.
pub type OrderHook<'a, G> = &'a mut dyn FnMut(&G, &mut [<G as AlphaBetaGame>::Move]);

/// Search settings beyond the depth.
pub struct Searcher<'a, G: AlphaBetaGame> {
    order: Option<OrderHook<'a, G>>,
    table: Option<&'a mut TranspositionTable<G::Move>>,
    poller: Poller<'static>,
    nodes: u64,
    stopped: bool,
}

impl<G: AlphaBetaGame> Default for Searcher<'_, G> {
    fn default() -> Self {
        Searcher {
            order: None,
            table: None,
            poller: Limits::unchecked(),
            nodes: 0,
            stopped: false,
        }
    }
}

/// Plain fixed-depth negamax alpha-beta in the game's move order: the first of equally good
/// root moves is kept.
pub fn alpha_beta<G: AlphaBetaGame>(game: &mut G, depth: u32) -> AlphaBetaResult<G::Move> {
    let mut searcher = Searcher::default();
    searcher.root(game, depth).unwrap_or(AlphaBetaResult {
        best: None,
        value: 0,
        depth: 0,
        nodes: searcher.nodes,
    })
}

impl<'a, G: AlphaBetaGame> Searcher<'a, G> {
    /// Reorders a position's moves before they are searched (best first).
    #[must_use]
    pub fn with_order(mut self, order: OrderHook<'a, G>) -> Self {
        self.order = Some(order);
        self
    }

    /// Uses a transposition table (its best moves are also tried first).
    #[must_use]
    pub fn with_table(mut self, table: &'a mut TranspositionTable<G::Move>) -> Self {
        self.table = Some(table);
        self
    }

    /// Stops when `limits` run out, counting positions visited as nodes and time from now
    /// (iterative deepening then keeps the last complete depth).
    #[must_use]
    pub fn with_limits(mut self, limits: &Limits) -> Self {
        self.poller = limits.poller(Instant::now(), CLOCK_INTERVAL);
        self
    }

    /// Iterative deepening from depth 1 to `max_depth`, keeping the result of the deepest
    /// depth completed within the limits (depth 1 is always completed).
    pub fn iterative(&mut self, game: &mut G, max_depth: u32) -> AlphaBetaResult<G::Move> {
        let poller = std::mem::replace(&mut self.poller, Limits::unchecked());
        let mut best = self
            .root(game, 1)
            .expect("a search without limits completes");
        self.poller = poller;
        for depth in 2..=max_depth {
            match self.root(game, depth) {
                Some(result) => best = result,
                None => break,
            }
        }
        best.nodes = self.nodes;
        best
    }

    /// One complete search to `depth`, or `None` if the limits ran out first.
    pub fn root(&mut self, game: &mut G, depth: u32) -> Option<AlphaBetaResult<G::Move>> {
        self.stopped = false;
        let mut moves = game.moves();
        if moves.as_ref().is_empty() {
            return Some(AlphaBetaResult {
                best: None,
                value: game.outcome().unwrap_or_else(|| game.evaluate()),
                depth,
                nodes: self.nodes,
            });
        }
        self.sort(game, moves.as_mut());
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut best = None;
        for &mv in moves.as_ref() {
            let undo = game.play(mv);
            let value = -self.search(game, depth - 1, -beta, -alpha);
            game.undo(mv, undo);
            if self.stopped {
                return None;
            }
            if best.is_none() || value > alpha {
                alpha = value;
                best = Some(mv);
            }
        }
        if let Some(table) = self.table.as_deref_mut() {
            table.store(Entry {
                key: game.hash(),
                depth,
                value: alpha,
                bound: Bound::Exact,
                best,
            });
        }
        Some(AlphaBetaResult {
            best,
            value: alpha,
            depth,
            nodes: self.nodes,
        })
    }

    fn sort(&mut self, game: &G, moves: &mut [G::Move]) {
        if let Some(order) = self.order.as_deref_mut() {
            order(game, moves);
        }
        if let Some(table) = self.table.as_deref() {
            if let Some(best) = table.probe(game.hash()).and_then(|e| e.best) {
                if let Some(i) = moves.iter().position(|&m| m == best) {
                    moves[..=i].rotate_right(1);
                }
            }
        }
    }

    fn search(&mut self, game: &mut G, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.poller.check(self.nodes).is_err() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if let Some(value) = game.outcome() {
            return value;
        }
        if depth == 0 {
            return game.evaluate();
        }
        let original_alpha = alpha;
        let key = game.hash();
        if let Some(entry) = self.table.as_deref().and_then(|t| t.probe(key)) {
            if entry.depth >= depth {
                match entry.bound {
                    Bound::Exact => return entry.value,
                    Bound::Lower => alpha = alpha.max(entry.value),
                    Bound::Upper => beta = beta.min(entry.value),
                }
                if alpha >= beta {
                    return entry.value;
                }
            }
        }
        let mut moves = game.moves();
        if moves.as_ref().is_empty() {
            return game.evaluate();
        }
        self.sort(game, moves.as_mut());
        let mut best_value = -INFINITY;
        let mut best = None;
        for &mv in moves.as_ref() {
            let undo = game.play(mv);
            let value = -self.search(game, depth - 1, -beta, -alpha);
            game.undo(mv, undo);
            if self.stopped {
                return 0;
            }
            if value > best_value {
                best_value = value;
                best = Some(mv);
            }
            alpha = alpha.max(value);
            if alpha >= beta {
                break;
            }
        }
        if let Some(table) = self.table.as_deref_mut() {
            let bound = if best_value <= original_alpha {
                Bound::Upper
            } else if best_value >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            table.store(Entry {
                key,
                depth,
                value: best_value,
                bound,
                best,
            });
        }
        best_value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random game tree: a node is its path hash; branching 0..=4 by hash, depth-capped.
    struct Tree {
        path: Vec<u64>,
        max_depth: usize,
    }

    fn mix(mut x: u64) -> u64 {
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }

    struct Moves(Vec<u8>);
    impl AsRef<[u8]> for Moves {
        fn as_ref(&self) -> &[u8] {
            &self.0
        }
    }
    impl AsMut<[u8]> for Moves {
        fn as_mut(&mut self) -> &mut [u8] {
            &mut self.0
        }
    }

    impl Tree {
        fn node(&self) -> u64 {
            *self.path.last().expect("root")
        }
    }

    impl AlphaBetaGame for Tree {
        type Move = u8;
        type Moves = Moves;
        type Undo = ();
        fn moves(&self) -> Moves {
            if self.outcome().is_some() {
                return Moves(Vec::new());
            }
            Moves((0..=(self.node() % 4) as u8).collect())
        }
        fn play(&mut self, mv: u8) {
            let next = mix(self.node() ^ (u64::from(mv) + 1).wrapping_mul(0x9e37_79b9));
            self.path.push(next);
        }
        fn undo(&mut self, _: u8, (): ()) {
            self.path.pop();
        }
        fn outcome(&self) -> Option<i32> {
            let depth = self.path.len() - 1;
            (depth >= self.max_depth || self.node() % 13 == 0)
                .then(|| (self.node() >> 8) as i32 % 50)
        }
        fn evaluate(&self) -> i32 {
            (self.node() >> 20) as i32 % 30 - 15
        }
        fn hash(&self) -> u64 {
            // Transpositions on purpose: nodes with the same hash value at the same depth
            // are the same position here.
            self.node()
        }
    }

    fn minimax(tree: &mut Tree, depth: u32) -> i32 {
        if let Some(v) = tree.outcome() {
            return v;
        }
        if depth == 0 {
            return tree.evaluate();
        }
        let moves = tree.moves();
        let mut best = -INFINITY;
        for &mv in moves.as_ref() {
            tree.play(mv);
            best = best.max(-minimax(tree, depth - 1));
            tree.undo(mv, ());
        }
        best
    }

    fn first_best(tree: &mut Tree, depth: u32) -> Option<u8> {
        let moves = tree.moves();
        let mut best: Option<(i32, u8)> = None;
        for &mv in moves.as_ref() {
            tree.play(mv);
            let v = -minimax(tree, depth - 1);
            tree.undo(mv, ());
            if best.is_none_or(|(b, _)| v > b) {
                best = Some((v, mv));
            }
        }
        best.map(|(_, m)| m)
    }

    #[test]
    fn equals_minimax_on_random_trees() {
        for seed in 1..300u64 {
            for depth in 1..=6 {
                let mut tree = Tree {
                    path: vec![mix(seed)],
                    max_depth: 7,
                };
                let want = minimax(&mut tree, depth);
                let plain = alpha_beta(&mut tree, depth);
                assert_eq!(plain.value, want, "seed {seed} depth {depth}");
                assert_eq!(plain.best, first_best(&mut tree, depth), "first best move");
                let mut table = TranspositionTable::new(12);
                let mut reverse = |_: &Tree, moves: &mut [u8]| moves.reverse();
                let mut searcher = Searcher::default()
                    .with_order(&mut reverse)
                    .with_table(&mut table);
                let deep = searcher.iterative(&mut tree, depth);
                assert_eq!(deep.value, want, "ordered, with a table: seed {seed}");
                assert_eq!(tree.path.len(), 1, "every move undone");
            }
        }
    }

    #[test]
    fn prunes() {
        let mut tree = Tree {
            path: vec![mix(5)],
            max_depth: 12,
        };
        let result = alpha_beta(&mut tree, 10);
        let mut count = 0u64;
        fn all(tree: &mut Tree, depth: u32, count: &mut u64) {
            *count += 1;
            if depth == 0 || tree.outcome().is_some() {
                return;
            }
            for &mv in tree.moves().as_ref() {
                tree.play(mv);
                all(tree, depth - 1, count);
                tree.undo(mv, ());
            }
        }
        all(&mut tree, 10, &mut count);
        assert!(result.nodes * 2 < count, "{} vs {count}", result.nodes);
    }

    #[test]
    fn a_passed_deadline_keeps_depth_one() {
        let mut tree = Tree {
            path: vec![mix(9)],
            max_depth: 40,
        };
        let limits = Limits::default().with_deadline(Instant::now());
        let mut searcher = Searcher::default().with_limits(&limits);
        let result = searcher.iterative(&mut tree, 30);
        assert!(result.best.is_some());
        assert!(result.depth < 30);
    }
}
