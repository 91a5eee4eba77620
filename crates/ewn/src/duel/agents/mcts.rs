//! The Monte-Carlo tree search agent: ply-search's MCTS over the known dice, with playouts
//! that take an immediate win, MCTS-Solver proofs and the tree kept between moves.

use std::time::{Duration, Instant};

use ply_search::{Game, Mcts, MctsConfig, MctsStats, Outcome, Policy, RootChild};

use super::agent::{Agent, deadline_after, limits_until};
use crate::duel::rules::{Board, Color, DuelMove, FastRng};

/// Playouts for the duel, deterministic for a seed: a move that wins at once when there is
/// one, else a uniformly random move (purely random playouts, and playouts that also avoid
/// moves letting the opponent win at once, both played no better: ledger rows "MCTS
/// playouts").
pub struct DuelPlayouts {
    rng: FastRng,
}

impl DuelPlayouts {
    /// Playouts from the generator `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Self {
        DuelPlayouts {
            rng: FastRng::new(seed),
        }
    }

    /// Picks a move of `board` (not over).
    fn pick(&mut self, board: &mut Board) -> DuelMove {
        if let Some(mv) = board.winning_move() {
            return mv;
        }
        let list = board.moves();
        list[self.rng.below(list.len())]
    }
}

/// How much one step of goal distance is worth in [`DuelPlayouts::evaluate`]'s logistic.
const STEP: f64 = 0.6;

impl Policy<Board> for DuelPlayouts {
    /// Red's chances from the race to the corners: a logistic of the difference of the two
    /// sides' smallest Chebyshev distances, with half a step for the side to move.
    fn evaluate(&mut self, board: &Board) -> f64 {
        let tempo = if board.to_move() == Color::Red {
            0.5
        } else {
            -0.5
        };
        let lead = f64::from(board.goal_distance(Color::Blue) - board.goal_distance(Color::Red));
        1.0 / (1.0 + (-STEP * (lead + tempo)).exp())
    }

    fn playout(&mut self, board: &mut Board) -> f64 {
        loop {
            if let Some(winner) = board.winner() {
                return if winner == Color::Red { 1.0 } else { 0.0 };
            }
            let mv = self.pick(board);
            board.play(mv);
        }
    }
}

/// Settings of the MCTS agent.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsAgentConfig {
    /// Time per move, measured from the moment the opponent's move arrived.
    pub move_time: Duration,
    /// The tree search's settings.
    pub search: MctsConfig,
    /// Keep the subtree of the moves played between turns.
    pub reuse: bool,
    /// Seed of the playouts.
    pub seed: u64,
}

impl Default for MctsAgentConfig {
    fn default() -> Self {
        MctsAgentConfig {
            move_time: Duration::from_millis(1800),
            search: MctsConfig {
                exploration: 0.7,
                minimax: 0.3,
                max_nodes: 12_000_000,
                ..MctsConfig::default()
            },
            reuse: true,
            seed: 1,
        }
    }
}

/// What the agent reports about one move (for `--verbose`).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// The move chosen.
    pub mv: DuelMove,
    /// The search's figures.
    pub stats: MctsStats,
    /// The root's children after the search.
    pub children: Vec<RootChild<DuelMove>>,
    /// The most visited line.
    pub line: Vec<DuelMove>,
    /// The root's proven outcome for the mover: `Some(true)` won, `Some(false)` lost.
    pub proven: Option<bool>,
    /// Seconds from the opponent's move to the decision.
    pub seconds: f64,
}

/// Monte-Carlo tree search with UCB1 over the known dice.
pub struct MctsAgent {
    config: MctsAgentConfig,
    policy: DuelPlayouts,
    tree: Option<Mcts<Board>>,
    /// Moves played since the last search, applied to the tree at the next one (so the work
    /// of moving the tree counts in the move's own budget, never while the opponent's move
    /// waits unread).
    pending: Vec<DuelMove>,
    /// A new game began: the old tree goes at the next search.
    reset: bool,
    last: Option<MoveReport>,
    iterations: u64,
    searched: Duration,
}

impl MctsAgent {
    /// An agent with `config`.
    #[must_use]
    pub fn new(config: MctsAgentConfig) -> Self {
        MctsAgent {
            policy: DuelPlayouts::new(config.seed),
            config,
            tree: None,
            pending: Vec::new(),
            reset: false,
            last: None,
            iterations: 0,
            searched: Duration::ZERO,
        }
    }

    /// The report of the last move chosen.
    #[must_use]
    pub fn last_report(&self) -> Option<&MoveReport> {
        self.last.as_ref()
    }

    /// Iterations run and time spent searching since the agent was made.
    #[must_use]
    pub fn totals(&self) -> (u64, Duration) {
        (self.iterations, self.searched)
    }

    /// The move for `board`, searching until `deadline`.
    pub fn search(&mut self, board: &Board, deadline: Instant) -> MoveReport {
        self.search_by(board, Some(deadline))
    }

    /// [`MctsAgent::search`], without a deadline when there is none.
    fn search_by(&mut self, board: &Board, deadline: Option<Instant>) -> MoveReport {
        let started = Instant::now();
        if std::mem::take(&mut self.reset) {
            self.tree = None;
        }
        if let Some(tree) = &mut self.tree {
            for mv in self.pending.drain(..) {
                tree.advance(mv);
            }
        }
        self.pending.clear();
        let reusable = self
            .tree
            .as_ref()
            .is_some_and(|t| t.root() == board && self.config.reuse);
        if !reusable {
            self.tree = Some(Mcts::new(
                board.clone(),
                self.config.search,
                DuelMove::default(),
            ));
        }
        let tree = self.tree.as_mut().expect("a tree was just made");
        let stats = tree.search(&mut self.policy, &limits_until(deadline));
        let me = Game::to_move(board);
        let mv = tree
            .best_move()
            .or_else(|| board.moves().first().copied())
            .unwrap_or_default();
        let report = MoveReport {
            mv,
            stats,
            children: tree.root_children(),
            line: tree.principal_variation(12),
            proven: tree.proof().map(|o| o == Outcome::Win(me)),
            seconds: 0.0,
        };
        self.iterations += stats.iterations;
        self.searched += started.elapsed();
        report
    }
}

impl Agent for MctsAgent {
    fn new_game(&mut self, _: &Board, _: Color) {
        self.reset = true;
        self.pending.clear();
    }

    fn choose(&mut self, board: &Board, received: Instant) -> DuelMove {
        let mut report = self.search_by(board, deadline_after(received, self.config.move_time));
        report.seconds = received.elapsed().as_secs_f64();
        let mv = report.mv;
        self.last = Some(report);
        mv
    }

    fn observe(&mut self, _: &Board, mv: DuelMove) {
        if self.config.reuse {
            self.pending.push(mv);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::agents::AlphaBetaAgent;
    use crate::duel::protocol::Setup;

    fn quick(move_ms: u64) -> MctsAgentConfig {
        MctsAgentConfig {
            move_time: Duration::from_millis(move_ms),
            ..MctsAgentConfig::default()
        }
    }

    #[test]
    fn takes_a_win_in_one_and_proves_it() {
        // Red to move with die 1: cube 1 on cell 33 steps down-right (direction 2) onto 41.
        let dice = [1; 21];
        let red = [None, Some(33), None, None, None, None];
        let blue = [Some(5), None, None, None, None, Some(20)];
        let board = Board::from_cubes(red, blue, dice, 0).unwrap();
        let mut agent = MctsAgent::new(quick(200));
        let report = agent.search(&board, Instant::now() + Duration::from_millis(200));
        let mut after = board.clone();
        after.play_checked(report.mv).unwrap();
        assert_eq!(after.winner(), Some(Color::Red));
        assert_eq!(report.proven, Some(true));
    }

    #[test]
    fn plays_the_wins_alpha_beta_finds() {
        // Over random mid-game positions where depth-5 alpha-beta proves a win, MCTS with a
        // short budget plays a move that deeper alpha-beta also scores as a win.
        let setup = Setup {
            red: [3, 1, 4, 0, 5, 2],
            blue: [2, 0, 5, 1, 4, 3],
            dice: [
                3, 4, 3, 2, 4, 2, 4, 0, 4, 0, 3, 1, 2, 4, 1, 1, 5, 2, 0, 4, 2,
            ],
        };
        let mut rng = FastRng::new(3);
        let mut checked = 0;
        for game in 0..400 {
            if checked == 12 {
                break;
            }
            let mut board = setup.board().unwrap();
            for _ in 0..(14 + game % 30) {
                if board.winner().is_some() {
                    break;
                }
                let list = board.moves();
                board.play(list[rng.below(list.len())]);
            }
            if board.winner().is_some() {
                continue;
            }
            let (_, value) = AlphaBetaAgent::new(5, true).search(&board);
            if value < crate::duel::agents::WIN {
                continue;
            }
            checked += 1;
            let mut agent = MctsAgent::new(quick(50));
            let mv = agent.choose(&board, Instant::now());
            let mut after = board.clone();
            after.play_checked(mv).unwrap();
            let won = after.winner() == Some(board.to_move())
                || AlphaBetaAgent::new(9, true).search(&after).1 <= -crate::duel::agents::WIN;
            assert!(
                won,
                "game {game}: {mv} throws away a win\n{}",
                board.render()
            );
        }
        assert_eq!(checked, 12);
    }

    #[test]
    fn tree_reuse_follows_the_game() {
        let setup = Setup {
            red: [0, 1, 2, 3, 4, 5],
            blue: [5, 4, 3, 2, 1, 0],
            dice: [2; 21],
        };
        let mut board = setup.board().unwrap();
        let mut agent = MctsAgent::new(MctsAgentConfig {
            move_time: Duration::from_millis(30),
            ..MctsAgentConfig::default()
        });
        agent.new_game(&board, Color::Red);
        for _ in 0..6 {
            if board.winner().is_some() {
                break;
            }
            let mv = agent.choose(&board, Instant::now());
            assert!(board.check(mv).is_ok());
            agent.observe(&board, mv);
            board.play(mv);
            let mut tree = agent.tree.take().unwrap();
            for mv in agent.pending.drain(..) {
                tree.advance(mv);
            }
            assert!(tree.len() > 1, "the chosen move's subtree is kept");
            assert_eq!(tree.root(), &board);
            agent.tree = Some(tree);
        }
    }
}
