//! Monte-Carlo tree search: [`Mcts`], whose docs give the algorithm and its sources.

use std::time::Instant;

use crate::game::{Game, Outcome};
use crate::limits::Limits;

/// Iterations between two looks at the clock: some tens of microseconds.
const CLOCK_INTERVAL: u64 = 64;

/// The game-specific parts of a search: playouts, and priors for expansion and selection.
pub trait Policy<G: Game> {
    /// Plays `game` (not over) out, or far enough to judge it, and returns player 0's reward in
    /// `0.0..=1.0`.
    fn playout(&mut self, game: &mut G) -> f64;

    /// A prior in `0.0..=1.0` for `mv` in `game`, used by progressive bias (weight
    /// [`MctsConfig::bias`]); the default is no prior.
    fn prior(&mut self, _game: &G, _mv: G::Move) -> f32 {
        0.0
    }

    /// A heuristic value of `game` (not over) for player 0 in `0.0..=1.0`, for implicit
    /// minimax backups (weight [`MctsConfig::minimax`]); the default is none (0.5).
    fn evaluate(&mut self, _game: &G) -> f64 {
        0.5
    }

    /// The selection score of a child from its parent's mover's view: `mean` is that mover's
    /// average reward through the child over `visits` (at least 1), `parent` the parent's
    /// visits. The default is UCB1 plus progressive bias.
    fn score(&self, config: &MctsConfig, mean: f64, visits: u32, parent: u32, prior: f32) -> f64 {
        let visits = f64::from(visits);
        mean + config.exploration * (f64::from(parent).ln() / visits).sqrt()
            + config.bias * f64::from(prior) / (visits + 1.0)
    }
}

/// Search settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// UCB1's exploration constant `C` in `mean + C sqrt(ln N / n)`.
    pub exploration: f64,
    /// Progressive bias weight: a child's prior divided by its visits plus one is added to its
    /// score (0 turns it off).
    pub bias: f64,
    /// Prove wins and losses and back them up (MCTS-Solver).
    pub solver: bool,
    /// Implicit minimax backups (Lanctot, M. et al. (2014), *Monte Carlo tree search with
    /// heuristic evaluations using implicit minimax backups*, IEEE CIG): every node also keeps
    /// the minimax value of the policy's evaluations at the tree's leaves, and selection uses
    /// `(1 - w) * mean + w * minimax`, `w` this weight (0 turns it off).
    pub minimax: f64,
    /// The arena's node limit; a full tree stops growing and only runs playouts.
    pub max_nodes: usize,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            exploration: std::f64::consts::SQRT_2,
            bias: 0.0,
            solver: true,
            minimax: 0.0,
            max_nodes: 8_000_000,
        }
    }
}

/// What a search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MctsStats {
    /// Iterations run by this call.
    pub iterations: u64,
    /// Nodes in the tree afterwards.
    pub nodes: usize,
    /// The deepest node selected, in plies from the root.
    pub depth: u32,
}

/// A proof state: unknown, or the proven outcome.
const UNKNOWN: u8 = u8::MAX;
const DRAW: u8 = 2;

/// One tree node; its children are `first..first + count` in the arena.
#[derive(Clone, Copy, Debug)]
struct Node<M> {
    mv: M,
    first: u32,
    count: u16,
    /// `UNKNOWN`, `DRAW`, or the proven winner 0 or 1.
    proof: u8,
    prior: f32,
    /// Implicit minimax value for player 0.
    minimax: f32,
    visits: u32,
    /// Sum of player 0's rewards.
    value0: f64,
}

/// A child of the root as seen after a search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RootChild<M> {
    /// The move.
    pub mv: M,
    /// Visits through it.
    pub visits: u32,
    /// The root mover's average reward through it.
    pub value: f64,
    /// Its proven outcome, if any.
    pub proof: Option<Outcome>,
}

/// A Monte-Carlo search tree rooted at a position: Monte-Carlo tree search for deterministic
/// two-player games.
///
/// The tree lives in one arena (`Vec` of plain nodes, children of a node contiguous), so a
/// search allocates only when the arena grows. Each iteration selects a path with UCB1
/// (Kocsis, L. and Szepesvári, C. (2006), *Bandit based Monte-Carlo planning*, ECML), optionally
/// with progressive bias (Chaslot, G. et al. (2008), *Progressive strategies for Monte-Carlo
/// tree search*, New Mathematics and Natural Computation 4(3)), expands a leaf's children all at
/// once, runs the [`Policy`]'s playout from one of them and backs the reward up the path.
///
/// With the solver on, game ends found in the tree are proven and the proofs propagate upward
/// with minimax rules (MCTS-Solver: Winands, M. H. M., Björnsson, Y. and Saito, J.-T. (2008),
/// *Monte-Carlo tree search solver*, Computers and Games, LNCS 5131): a node whose mover has a
/// proven winning child is won, one whose children are all proven is decided by its best
/// child, proven losses are never selected again, and a proven root stops the search.
///
/// [`Mcts::advance`] keeps the subtree of the move played (tree reuse between moves).
pub struct Mcts<G: Game + Clone> {
    root: G,
    nodes: Vec<Node<G::Move>>,
    config: MctsConfig,
    /// Per-iteration path (node index, mover at that node), reused.
    path: Vec<(u32, u8)>,
}

fn proof_of(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Win(p) => p,
        Outcome::Draw => DRAW,
    }
}

fn outcome_of(proof: u8) -> Option<Outcome> {
    match proof {
        UNKNOWN => None,
        DRAW => Some(Outcome::Draw),
        p => Some(Outcome::Win(p)),
    }
}

impl<G: Game + Clone> Mcts<G> {
    /// A fresh tree at `root`; `mv_default` is any move value (stored in the root node).
    pub fn new(root: G, config: MctsConfig, mv_default: G::Move) -> Self {
        let proof = root.outcome().map_or(UNKNOWN, proof_of);
        Mcts {
            root,
            nodes: vec![Node {
                mv: mv_default,
                first: 0,
                count: 0,
                proof,
                prior: 0.0,
                minimax: 0.5,
                visits: 0,
                value0: 0.0,
            }],
            config,
            path: Vec::with_capacity(256),
        }
    }

    /// The root position.
    pub fn root(&self) -> &G {
        &self.root
    }

    /// Nodes in the tree.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree is only its root.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() <= 1
    }

    /// The root's proven outcome, if the solver has one.
    pub fn proof(&self) -> Option<Outcome> {
        outcome_of(self.nodes[0].proof)
    }

    /// Runs iterations until `limits` run out (an iteration is a node; time counts from now)
    /// or the root is proven.
    pub fn search(&mut self, policy: &mut impl Policy<G>, limits: &Limits) -> MctsStats {
        let mut stats = MctsStats::default();
        let mut poller = limits.poller(Instant::now(), CLOCK_INTERVAL);
        loop {
            if self.nodes[0].proof != UNKNOWN {
                break;
            }
            if poller.check(stats.iterations).is_err() {
                break;
            }
            let depth = self.iterate(policy);
            stats.depth = stats.depth.max(depth);
            stats.iterations += 1;
        }
        stats.nodes = self.nodes.len();
        stats
    }

    /// One selection, expansion, playout and backup; returns the depth reached.
    fn iterate(&mut self, policy: &mut impl Policy<G>) -> u32 {
        let mut game = self.root.clone();
        self.path.clear();
        let mut node = 0u32;
        let reward0 = loop {
            let mover = game.to_move();
            self.path.push((node, mover));
            let n = self.nodes[node as usize];
            if n.proof != UNKNOWN {
                break outcome_of(n.proof).map_or(0.5, Outcome::reward0);
            }
            if n.count == 0 {
                if let Some(outcome) = game.outcome() {
                    if self.config.solver {
                        self.nodes[node as usize].proof = proof_of(outcome);
                    }
                    break outcome.reward0();
                }
                if (n.visits > 0 || node == 0)
                    && let Some(child) = self.expand(&game, node, policy)
                {
                    let mv = self.nodes[child as usize].mv;
                    game.play(mv);
                    self.path.push((child, game.to_move()));
                    let c = self.nodes[child as usize];
                    if c.proof != UNKNOWN {
                        break outcome_of(c.proof).map_or(0.5, Outcome::reward0);
                    }
                }
                break policy.playout(&mut game);
            }
            node = self.select(node, mover, policy);
            game.play(self.nodes[node as usize].mv);
        };
        self.backup(reward0);
        self.path.len() as u32 - 1
    }

    /// The child of `node` to descend into, from `mover`'s view.
    fn select(&self, node: u32, mover: u8, policy: &impl Policy<G>) -> u32 {
        let n = self.nodes[node as usize];
        let mut best = n.first;
        let mut best_score = f64::NEG_INFINITY;
        for child in n.first..n.first + u32::from(n.count) {
            let c = &self.nodes[child as usize];
            let score = if c.proof != UNKNOWN && c.proof != DRAW && c.proof != mover {
                f64::MIN
            } else if c.visits == 0 {
                f64::INFINITY
            } else {
                let mut mean = c.value0 / f64::from(c.visits);
                if self.config.minimax > 0.0 {
                    let w = self.config.minimax;
                    mean = (1.0 - w) * mean + w * f64::from(c.minimax);
                }
                let mean = if mover == 0 { mean } else { 1.0 - mean };
                policy.score(&self.config, mean, c.visits, n.visits.max(1), c.prior)
            };
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        best
    }

    /// Adds every child of `node` (at `game`); returns the child to play first (the highest
    /// prior, a proven win for the mover first), or `None` when the arena is full.
    fn expand(&mut self, game: &G, node: u32, policy: &mut impl Policy<G>) -> Option<u32> {
        let moves = game.moves();
        let moves = moves.as_ref();
        if moves.is_empty() || self.nodes.len() + moves.len() > self.config.max_nodes {
            return None;
        }
        if self.nodes.len() + moves.len() > self.nodes.capacity() {
            let target = (self.nodes.capacity() * 2)
                .max(1024)
                .min(self.config.max_nodes);
            self.nodes
                .reserve_exact(target.saturating_sub(self.nodes.len()));
        }
        let first = self.nodes.len() as u32;
        let mover = game.to_move();
        let mut pick = first;
        let mut pick_key = (false, f32::NEG_INFINITY);
        for (i, &mv) in moves.iter().enumerate() {
            let mut proof = UNKNOWN;
            let mut minimax = 0.5;
            if self.config.solver || self.config.minimax > 0.0 {
                let mut next = game.clone();
                next.play(mv);
                match next.outcome() {
                    Some(outcome) => {
                        minimax = outcome.reward0() as f32;
                        if self.config.solver {
                            proof = proof_of(outcome);
                        }
                    }
                    None if self.config.minimax > 0.0 => {
                        minimax = policy.evaluate(&next) as f32;
                    }
                    None => {}
                }
            }
            let prior = policy.prior(game, mv);
            let key = (proof == mover, prior);
            if key > pick_key {
                pick_key = key;
                pick = first + i as u32;
            }
            self.nodes.push(Node {
                mv,
                first: 0,
                count: 0,
                proof,
                prior,
                minimax,
                visits: 0,
                value0: 0.0,
            });
        }
        let n = &mut self.nodes[node as usize];
        n.first = first;
        n.count = moves.len() as u16;
        if self.config.minimax > 0.0 {
            self.update_minimax(node, mover);
        }
        Some(pick)
    }

    /// Adds the reward to every node of the path and propagates new proofs upward.
    fn backup(&mut self, reward0: f64) {
        let mut proving = self.config.solver;
        for i in (0..self.path.len()).rev() {
            let (node, mover) = self.path[i];
            let n = &mut self.nodes[node as usize];
            n.visits += 1;
            n.value0 += reward0;
            if proving && i + 1 < self.path.len() {
                proving = self.prove(node, mover);
            }
            if self.config.minimax > 0.0 && i + 1 < self.path.len() {
                self.update_minimax(node, mover);
            }
        }
    }

    /// Sets `node`'s minimax value from its children's (best for `mover`).
    fn update_minimax(&mut self, node: u32, mover: u8) {
        let n = self.nodes[node as usize];
        if n.count == 0 {
            return;
        }
        let children = &self.nodes[n.first as usize..n.first as usize + usize::from(n.count)];
        let values = children.iter().map(|c| c.minimax);
        let best = if mover == 0 {
            values.fold(f32::NEG_INFINITY, f32::max)
        } else {
            values.fold(f32::INFINITY, f32::min)
        };
        self.nodes[node as usize].minimax = best;
    }

    /// Recomputes `node`'s proof from its children's; returns whether it is now proven.
    fn prove(&mut self, node: u32, mover: u8) -> bool {
        let n = self.nodes[node as usize];
        if n.proof != UNKNOWN {
            return true;
        }
        if n.count == 0 {
            return false;
        }
        let mut all = true;
        let mut draw = false;
        for child in n.first..n.first + u32::from(n.count) {
            match self.nodes[child as usize].proof {
                p if p == mover => {
                    self.nodes[node as usize].proof = mover;
                    return true;
                }
                UNKNOWN => all = false,
                DRAW => draw = true,
                _ => {}
            }
        }
        if all {
            self.nodes[node as usize].proof = if draw { DRAW } else { 1 - mover };
        }
        all
    }

    /// The root's children with their statistics, in move order.
    pub fn root_children(&self) -> Vec<RootChild<G::Move>> {
        let root = self.nodes[0];
        let mover = self.root.to_move();
        (root.first..root.first + u32::from(root.count))
            .map(|i| {
                let c = self.nodes[i as usize];
                let mean = if c.visits == 0 {
                    0.5
                } else {
                    c.value0 / f64::from(c.visits)
                };
                RootChild {
                    mv: c.mv,
                    visits: c.visits,
                    value: if mover == 0 { mean } else { 1.0 - mean },
                    proof: outcome_of(c.proof),
                }
            })
            .collect()
    }

    /// The move to play: a proven win if there is one, else the most visited move not proven
    /// lost (the most visited of all when every move loses); `None` before any expansion.
    pub fn best_move(&self) -> Option<G::Move> {
        let mover = self.root.to_move();
        let children = self.root_children();
        if let Some(win) = children
            .iter()
            .find(|c| c.proof == Some(Outcome::Win(mover)))
        {
            return Some(win.mv);
        }
        let lost = |c: &RootChild<G::Move>| matches!(c.proof, Some(Outcome::Win(p)) if p != mover);
        let rank = |c: &RootChild<G::Move>| (!lost(c), c.proof == Some(Outcome::Draw), c.visits);
        children
            .iter()
            .max_by(|a, b| {
                rank(a)
                    .partial_cmp(&rank(b))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|c| c.mv)
    }

    /// The most visited line from the root, at most `max` moves.
    pub fn principal_variation(&self, max: usize) -> Vec<G::Move> {
        let mut line = Vec::new();
        let mut node = 0usize;
        while line.len() < max {
            let n = self.nodes[node];
            if n.count == 0 {
                break;
            }
            let range = n.first as usize..n.first as usize + usize::from(n.count);
            let Some(best) = range.max_by_key(|&i| self.nodes[i].visits) else {
                break;
            };
            if self.nodes[best].visits == 0 {
                break;
            }
            line.push(self.nodes[best].mv);
            node = best;
        }
        line
    }

    /// Nodes in the subtree under `node`, itself included.
    fn subtree_size(&self, node: u32) -> usize {
        let mut stack = vec![node];
        let mut size = 0;
        while let Some(n) = stack.pop() {
            size += 1;
            let n = self.nodes[n as usize];
            stack.extend(n.first..n.first + u32::from(n.count));
        }
        size
    }

    /// Moves the root to the position after `mv`, keeping that move's subtree (statistics and
    /// proofs) and dropping the rest.
    pub fn advance(&mut self, mv: G::Move) {
        self.root.play(mv);
        let root = self.nodes[0];
        let kept = (root.first..root.first + u32::from(root.count))
            .find(|&i| self.nodes[i as usize].mv == mv);
        let mut nodes = Vec::new();
        match kept {
            Some(k) => {
                nodes.reserve_exact(self.subtree_size(k));
                nodes.push(self.nodes[k as usize]);
                let mut next = 0;
                while next < nodes.len() {
                    let n = nodes[next];
                    if n.count > 0 {
                        let first = nodes.len() as u32;
                        let range = n.first as usize..n.first as usize + usize::from(n.count);
                        nodes.extend_from_slice(&self.nodes[range]);
                        nodes[next].first = first;
                    }
                    next += 1;
                }
            }
            None => nodes.push(Node {
                mv,
                first: 0,
                count: 0,
                proof: self.root.outcome().map_or(UNKNOWN, proof_of),
                prior: 0.0,
                minimax: 0.5,
                visits: 0,
                value0: 0.0,
            }),
        }
        self.nodes = nodes;
    }
}
