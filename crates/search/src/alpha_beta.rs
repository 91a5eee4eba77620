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

use crate::game::{Game, Outcome};
use crate::limits::{Limits, Poller};

/// Positions visited between two looks at the clock: a few hundred microseconds.
const CLOCK_INTERVAL: u64 = 1024;

/// The value of a won game for the winner in [`Evaluator::terminal`]'s default: above any
/// heuristic value.
pub const WIN: i32 = 10_000;

/// How alpha-beta values positions, for the side to move.
///
/// Any `FnMut(&G) -> i32` is an evaluator whose finished games are worth [`WIN`], `-WIN` or 0.
pub trait Evaluator<G: Game> {
    /// A heuristic value of a position that is not over, for the side to move.
    fn evaluate(&mut self, game: &G) -> i32;

    /// The value of a finished game for the side to move; the default is [`WIN`] for a win,
    /// `-WIN` for a loss and 0 for a draw.
    fn terminal(&mut self, game: &G, outcome: Outcome) -> i32 {
        match outcome {
            Outcome::Win(p) if p == game.to_move() => WIN,
            Outcome::Win(_) => -WIN,
            Outcome::Draw => 0,
        }
    }
}

impl<G: Game, F: FnMut(&G) -> i32> Evaluator<G> for F {
    #[inline]
    fn evaluate(&mut self, game: &G) -> i32 {
        self(game)
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
pub type OrderHook<'a, G> = &'a mut dyn FnMut(&G, &mut [<G as Game>::Move]);

/// A search: its evaluator and settings beyond the depth.
pub struct Searcher<'a, G: Game, E> {
    evaluator: E,
    order: Option<OrderHook<'a, G>>,
    table: Option<&'a mut TranspositionTable<G::Move>>,
    poller: Poller<'static>,
    nodes: u64,
    stopped: bool,
}

impl<G: Game, E: Evaluator<G>> Searcher<'_, G, E> {
    /// A search valuing positions with `evaluator`, with no ordering, no table and no limits.
    pub fn new(evaluator: E) -> Self {
        Searcher {
            evaluator,
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
pub fn alpha_beta<G: Game, E: Evaluator<G>>(
    game: &mut G,
    depth: u32,
    evaluator: E,
) -> AlphaBetaResult<G::Move> {
    let mut searcher = Searcher::new(evaluator);
    searcher.root(game, depth).unwrap_or(AlphaBetaResult {
        best: None,
        value: 0,
        depth: 0,
        nodes: searcher.nodes,
    })
}

impl<'a, G: Game, E: Evaluator<G>> Searcher<'a, G, E> {
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
                value: self.value_at_end(game),
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

    /// The value of a position without moves: its outcome's, or the evaluation's.
    fn value_at_end(&mut self, game: &G) -> i32 {
        match game.outcome() {
            Some(outcome) => self.evaluator.terminal(game, outcome),
            None => self.evaluator.evaluate(game),
        }
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
        if let Some(outcome) = game.outcome() {
            return self.evaluator.terminal(game, outcome);
        }
        if depth == 0 {
            return self.evaluator.evaluate(game);
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
            return self.evaluator.evaluate(game);
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

    impl Game for Tree {
        type Move = u8;
        type Moves = Moves;
        type Undo = ();
        fn to_move(&self) -> u8 {
            (self.path.len() % 2) as u8
        }
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
        /// A leaf is "over"; what it is worth is the evaluator's.
        fn outcome(&self) -> Option<Outcome> {
            let depth = self.path.len() - 1;
            (depth >= self.max_depth || self.node() % 13 == 0).then_some(Outcome::Draw)
        }
        fn hash(&self) -> u64 {
            // Transpositions on purpose: nodes with the same hash value at the same depth
            // are the same position here.
            self.node()
        }
    }

    /// The tree's values: a pseudo-random one for every leaf and every heuristic guess.
    struct Values;

    impl Evaluator<Tree> for Values {
        fn evaluate(&mut self, tree: &Tree) -> i32 {
            (tree.node() >> 20) as i32 % 30 - 15
        }
        fn terminal(&mut self, tree: &Tree, _: Outcome) -> i32 {
            (tree.node() >> 8) as i32 % 50
        }
    }

    fn minimax(tree: &mut Tree, depth: u32) -> i32 {
        if let Some(outcome) = tree.outcome() {
            return Values.terminal(tree, outcome);
        }
        if depth == 0 {
            return Values.evaluate(tree);
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
                let plain = alpha_beta(&mut tree, depth, Values);
                assert_eq!(plain.value, want, "seed {seed} depth {depth}");
                assert_eq!(plain.best, first_best(&mut tree, depth), "first best move");
                let mut table = TranspositionTable::new(12);
                let mut reverse = |_: &Tree, moves: &mut [u8]| moves.reverse();
                let mut searcher = Searcher::new(Values)
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
        let result = alpha_beta(&mut tree, 10, Values);
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
        let mut searcher = Searcher::new(Values).with_limits(&limits);
        let result = searcher.iterative(&mut tree, 30);
        assert!(result.best.is_some());
        assert!(result.depth < 30);
    }
}
