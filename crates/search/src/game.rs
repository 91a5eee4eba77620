//! The interface of deterministic two-player games of perfect information: [`Game`], whose
//! docs say how it is split from the searches.

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// This player (0 or 1) won.
    Win(u8),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The reward of player 0: 1 for a win, 0.5 for a draw, 0 for a loss.
    #[must_use]
    pub fn reward0(self) -> f64 {
        match self {
            Outcome::Win(0) => 1.0,
            Outcome::Win(_) => 0.0,
            Outcome::Draw => 0.5,
        }
    }
}

/// A two-player game played in place: players are numbered 0 and 1, a move is applied with
/// [`Game::play`] and taken back with [`Game::undo`].
///
/// The interface of deterministic two-player games of perfect information, shared by
/// alpha-beta ([`alpha_beta`](crate::alpha_beta()), [`Searcher`](crate::Searcher)), MCTS
/// ([`Mcts`](crate::Mcts)) and the provers ([`DfPn`](crate::DfPn),
/// [`NullWindow`](crate::NullWindow)). A game holds only its rules; how a search values
/// positions, plays out games or ranks moves is injected into that search (an
/// [`Evaluator`](crate::Evaluator) for alpha-beta, a [`Policy`](crate::Policy) for MCTS), the
/// split of OpenSpiel's games and evaluators (Lanctot, M. et al. (2019), *OpenSpiel: a
/// framework for reinforcement learning in games*, arXiv:1908.09453).
pub trait Game {
    /// A move.
    type Move: Copy + Eq;
    /// The legal moves of a position, on the stack.
    type Moves: AsRef<[Self::Move]> + AsMut<[Self::Move]>;
    /// What [`Game::play`] returns so that [`Game::undo`] can restore the position.
    type Undo: Copy;

    /// The player to move, 0 or 1.
    fn to_move(&self) -> u8;
    /// The legal moves of the player to move (empty only when the game is over).
    fn moves(&self) -> Self::Moves;
    /// Plays a legal move.
    fn play(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back the move `mv` played with result `undo`.
    fn undo(&mut self, mv: Self::Move, undo: Self::Undo);
    /// The outcome once the game is over, else `None`.
    fn outcome(&self) -> Option<Outcome>;
    /// A hash of the position, the player to move included; used only by transposition
    /// tables.
    fn hash(&self) -> u64 {
        0
    }
}
