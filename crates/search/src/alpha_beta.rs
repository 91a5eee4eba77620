//! Negamax alpha-beta: [`alpha_beta`] and [`Searcher`], whose docs give the algorithm and its
//! sources.

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

/// The deepest line whose win or loss [`Searcher::with_mate_distance`] can tell apart.
const MAX_HEIGHT: i32 = 1024;

/// Values at least this large in magnitude are proven wins or losses; heuristic values must
/// stay below it.
pub const PROVEN: i32 = WIN - MAX_HEIGHT;

/// Whether `value` is a proven win or loss.
#[must_use]
pub fn is_proven(value: i32) -> bool {
    value.abs() >= PROVEN
}

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
    /// The table's generation when stored.
    generation: u8,
}

/// A transposition table of `2^bits` entries in buckets of two: the first slot keeps the
/// deepest entry (depth-preferred; an entry of an earlier search gives way to any entry),
/// the second takes whatever the first refuses (always-replace), the two-level scheme of
/// Breuker, D. M., Uiterwijk, J. W. H. M. and van den Herik, H. J. (1994), *Replacement
/// schemes for transposition tables*, ICCA Journal 17(4).
#[derive(Clone, Debug)]
pub struct TranspositionTable<M> {
    entries: Vec<Option<Entry<M>>>,
    mask: usize,
    /// Bumped by every [`Searcher::iterative`].
    generation: u8,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table of `2^bits` entries (at least two).
    #[must_use]
    pub fn new(bits: u32) -> Self {
        let bits = bits.max(1);
        TranspositionTable {
            entries: vec![None; 1 << bits],
            mask: (1 << bits) - 2,
            generation: 0,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(None);
    }

    fn probe(&self, key: u64) -> Option<Entry<M>> {
        let at = key as usize & self.mask;
        self.entries[at..at + 2]
            .iter()
            .flatten()
            .find(|e| e.key == key)
            .copied()
    }

    /// Starts a search: the entries stored so far give way to its own.
    fn next_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    fn store(&mut self, mut entry: Entry<M>) {
        entry.generation = self.generation;
        let at = entry.key as usize & self.mask;
        let deep = self.entries[at].is_none_or(|e| {
            e.key == entry.key || e.depth <= entry.depth || e.generation != entry.generation
        });
        let slot = if deep { at } else { at + 1 };
        if deep && self.entries[at + 1].is_some_and(|e| e.key == entry.key) {
            self.entries[at + 1] = None;
        }
        self.entries[slot] = Some(entry);
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

/// Negamax alpha-beta for deterministic two-player zero-sum games, with iterative deepening,
/// a move-ordering hook and an optional transposition table: the search's evaluator and
/// settings beyond the depth.
///
/// Knuth, D. E. and Moore, R. W. (1975). *An analysis of alpha-beta pruning.* Artificial
/// Intelligence 6(4), 293-326 (the negamax formulation used here). The transposition table
/// stores exact values and bounds with the depth they were searched to and the best move, as in
/// Marsland, T. A. (1986), *A review of game-tree pruning*, ICCA Journal 9(1).
///
/// Without ordering and without a table the search visits moves in the game's order and keeps
/// the first of equally good root moves, so it reproduces a plain textbook alpha-beta move for
/// move (the course baselines are such programs); [`alpha_beta`] is that search at one depth.
pub struct Searcher<'a, G: Game, E> {
    evaluator: E,
    order: Option<OrderHook<'a, G>>,
    table: Option<&'a mut TranspositionTable<G::Move>>,
    poller: Poller<'static>,
    mate_distance: bool,
    pvs: bool,
    /// Two killer moves per height, when on: moves that cut off at that height lately.
    killers: Option<Vec<[Option<G::Move>; 2]>>,
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
            mate_distance: false,
            pvs: false,
            killers: None,
            nodes: 0,
            stopped: false,
        }
    }
}

/// Plain fixed-depth negamax alpha-beta (Knuth and Moore, 1975) in the game's move order: the
/// first of equally good root moves is kept, as a textbook alpha-beta keeps it. [`Searcher`]
/// adds iterative deepening, move ordering, a transposition table and limits.
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

    /// Values a win `h` plies from the root at `WIN - h` and a loss at `-WIN + h` (for a
    /// terminal value of `WIN`), so that the search plays the quickest win and, when every
    /// move loses, the longest resistance: the line an imperfect opponent may miss. Table
    /// entries hold such values relative to their own position.
    #[must_use]
    pub fn with_mate_distance(mut self) -> Self {
        self.mate_distance = true;
        self
    }

    /// Principal variation search: every move after the first is searched with a null window
    /// first, and again with the full window only if it beats the first (Marsland, T. A. and
    /// Campbell, M. (1982), *Parallel search of strongly ordered game trees*, ACM Computing
    /// Surveys 14(4)). Values are unchanged; the tree is smaller when the first move is best.
    #[must_use]
    pub fn with_pvs(mut self) -> Self {
        self.pvs = true;
        self
    }

    /// Killer moves: the two moves that last cut off at a height are tried right after the
    /// table's move at that height (Akl, S. G. and Newborn, M. M. (1977), *The principal
    /// continuation and the killer heuristic*, ACM Annual Conference).
    #[must_use]
    pub fn with_killers(mut self) -> Self {
        self.killers = Some(Vec::new());
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
    /// depth completed within the limits (depth 1 is always completed). Stops early once the
    /// root's value is proven ([`is_proven`]): a deeper search cannot change a proven win or
    /// loss.
    pub fn iterative(&mut self, game: &mut G, max_depth: u32) -> AlphaBetaResult<G::Move> {
        if let Some(table) = self.table.as_deref_mut() {
            table.next_generation();
        }
        let poller = std::mem::replace(&mut self.poller, Limits::unchecked());
        let mut best = self
            .root(game, 1)
            .expect("a search without limits completes");
        self.poller = poller;
        for depth in 2..=max_depth {
            if is_proven(best.value) {
                break;
            }
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
        let first = self
            .table
            .as_deref()
            .and_then(|t| t.probe(game.hash()))
            .and_then(|e| e.best);
        self.sort(game, moves.as_mut(), first, 0);
        let (mut alpha, beta) = (-INFINITY, INFINITY);
        let mut best = None;
        for &mv in moves.as_ref() {
            let undo = game.play(mv);
            let value = -self.search(game, depth - 1, 1, -beta, -alpha);
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
                generation: 0,
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

    /// Orders `moves`: the hook's order, then the killers of `height` first, then the table's
    /// move `first` first of all.
    fn sort(&mut self, game: &G, moves: &mut [G::Move], first: Option<G::Move>, height: u32) {
        if let Some(order) = self.order.as_deref_mut() {
            order(game, moves);
        }
        let to_front = |moves: &mut [G::Move], mv: G::Move| {
            if let Some(i) = moves.iter().position(|&m| m == mv) {
                moves[..=i].rotate_right(1);
            }
        };
        if let Some(killers) = &self.killers
            && let Some(pair) = killers.get(height as usize)
        {
            for killer in pair.iter().rev().flatten() {
                to_front(moves, *killer);
            }
        }
        if let Some(mv) = first {
            to_front(moves, mv);
        }
    }

    /// Remembers that `mv` cut off at `height`.
    fn killed(&mut self, mv: G::Move, height: u32) {
        if let Some(killers) = &mut self.killers {
            let h = height as usize;
            if killers.len() <= h {
                killers.resize(h + 1, [None; 2]);
            }
            if killers[h][0] != Some(mv) {
                killers[h] = [Some(mv), killers[h][0]];
            }
        }
    }

    /// A proven value moved `plies` further from the position it is relative to: a value
    /// relative to a position `height` plies below the root is seen from the root with
    /// `plies = height`, and stored back relative to that position with `-height`. Other
    /// values, and every value without [`Searcher::with_mate_distance`], are unchanged.
    fn shift_proven(&self, value: i32, plies: i32) -> i32 {
        if !self.mate_distance || !is_proven(value) {
            value
        } else if value > 0 {
            value - plies
        } else {
            value + plies
        }
    }

    /// `height`: plies from the root.
    fn search(
        &mut self,
        game: &mut G,
        depth: u32,
        height: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.nodes += 1;
        if self.poller.check(self.nodes).is_err() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        if let Some(outcome) = game.outcome() {
            let value = self.evaluator.terminal(game, outcome);
            return self.shift_proven(value, height as i32);
        }
        if depth == 0 {
            return self.evaluator.evaluate(game);
        }
        let original_alpha = alpha;
        let key = game.hash();
        let mut first = None;
        if let Some(entry) = self.table.as_deref().and_then(|t| t.probe(key)) {
            first = entry.best;
            if entry.depth >= depth {
                let value = self.shift_proven(entry.value, height as i32);
                match entry.bound {
                    Bound::Exact => return value,
                    Bound::Lower => alpha = alpha.max(value),
                    Bound::Upper => beta = beta.min(value),
                }
                if alpha >= beta {
                    return value;
                }
            }
        }
        let mut moves = game.moves();
        if moves.as_ref().is_empty() {
            return self.evaluator.evaluate(game);
        }
        self.sort(game, moves.as_mut(), first, height);
        let mut best_value = -INFINITY;
        let mut best = None;
        for (i, &mv) in moves.as_ref().iter().enumerate() {
            let undo = game.play(mv);
            let mut value;
            if self.pvs && i > 0 {
                value = -self.search(game, depth - 1, height + 1, -alpha - 1, -alpha);
                if value > alpha && value < beta {
                    value = -self.search(game, depth - 1, height + 1, -beta, -alpha);
                }
            } else {
                value = -self.search(game, depth - 1, height + 1, -beta, -alpha);
            }
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
                self.killed(mv, height);
                break;
            }
        }
        let stored = self.shift_proven(best_value, -(height as i32));
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
                value: stored,
                bound,
                best,
                generation: 0,
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
            (depth >= self.max_depth || self.node().is_multiple_of(13)).then_some(Outcome::Draw)
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
                let mut table = TranspositionTable::new(4);
                let mut searcher = Searcher::new(Values)
                    .with_table(&mut table)
                    .with_pvs()
                    .with_killers();
                let refined = searcher.iterative(&mut tree, depth);
                assert_eq!(
                    refined.value, want,
                    "PVS, killers, a small table: seed {seed} depth {depth}"
                );
            }
        }
    }

    /// A game given as a list of nodes: each node's children, or its outcome.
    struct Listed {
        nodes: Vec<(Vec<usize>, Option<Outcome>)>,
        path: Vec<usize>,
    }

    impl Game for Listed {
        type Move = usize;
        type Moves = Vec<usize>;
        type Undo = ();
        fn to_move(&self) -> u8 {
            ((self.path.len() - 1) % 2) as u8
        }
        fn moves(&self) -> Vec<usize> {
            self.nodes[*self.path.last().expect("root")].0.clone()
        }
        fn play(&mut self, mv: usize) {
            self.path.push(mv);
        }
        fn undo(&mut self, _: usize, (): ()) {
            self.path.pop();
        }
        fn outcome(&self) -> Option<Outcome> {
            self.nodes[*self.path.last().expect("root")].1
        }
        fn hash(&self) -> u64 {
            *self.path.last().expect("root") as u64
        }
    }

    #[test]
    fn mate_distance_prefers_quick_wins_and_slow_losses() {
        let win = Some(Outcome::Win(0));
        let loss = Some(Outcome::Win(1));
        // Node 0 (player 0 to move): node 1 wins in three plies, node 4 at once.
        let wins = vec![
            (vec![1, 4], None),
            (vec![2], None),
            (vec![3], None),
            (vec![], win),
            (vec![], win),
        ];
        // Node 0: node 1 loses at once, node 2 in three plies.
        let losses = vec![
            (vec![1, 2], None),
            (vec![], loss),
            (vec![3], None),
            (vec![4], None),
            (vec![], loss),
        ];
        for (nodes, plain, by_distance, value) in [(wins, 1, 4, WIN - 1), (losses, 1, 2, -WIN + 3)]
        {
            let mut game = Listed {
                nodes,
                path: vec![0],
            };
            let zero = |_: &Listed| 0;
            assert_eq!(alpha_beta(&mut game, 5, zero).best, Some(plain));
            let mut table = TranspositionTable::new(4);
            let result = Searcher::new(zero)
                .with_table(&mut table)
                .with_mate_distance()
                .iterative(&mut game, 5);
            assert_eq!(result.best, Some(by_distance));
            assert_eq!(result.value, value);
            assert!(is_proven(result.value));
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
