//! A game in progress, played move by move.

use thiserror::Error;

use super::instance::Instance;
use super::rules::{IllegalMove, MoveList, Position, SoloMove};

/// A game in progress: an instance and the moves played on it, with the position they reach
/// and the legal moves, for stepping through a game (an environment, a solution shown move by
/// move); [`check`](super::check) grades a whole solution at once. Games are equal when they
/// are the same moves from the same instance.
///
/// ```
/// use ply_ewn::solo::{Instance, SoloGame};
/// let instance = Instance::parse("2\n62 26 66 42 32 36\n665545154156655451541566554515\n")?;
/// let mut game = SoloGame::new(instance.clone());
/// game.play(36, 25)?;
/// assert_eq!(SoloGame::replay(instance, &[(36, 25)]), Ok(game.clone()));
/// assert_eq!(game.position().cell(6), Some(25));
/// let refused = game.play(62, 51).unwrap_err();
/// assert_eq!(refused.to_string(), "die 6 moves piece 6, not piece 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SoloGame {
    instance: Instance,
    position: Position,
    /// The moves played, `(from, to)`.
    moves: Vec<(u8, u8)>,
}

/// Why [`SoloGame::play`] refuses a move.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    /// The game is over ([`SoloGame::is_over`]).
    #[error("the game is over")]
    Over,
    /// The move breaks a rule.
    #[error(transparent)]
    Illegal(#[from] IllegalMove),
}

/// A move [`SoloGame::replay`] refuses: its number (from 1) and why.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("move {number}: {why}")]
pub struct ReplayError {
    /// The move's number, from 1.
    pub number: usize,
    /// Why it is refused.
    pub why: PlayError,
}

impl SoloGame {
    /// The start of `instance`.
    #[must_use]
    pub fn new(instance: Instance) -> SoloGame {
        SoloGame {
            position: instance.position(),
            instance,
            moves: Vec::new(),
        }
    }

    /// The game after `moves` (`(from, to)` pairs) from the start of `instance`.
    ///
    /// # Errors
    /// The first move [`SoloGame::play`] refuses.
    pub fn replay(instance: Instance, moves: &[(u8, u8)]) -> Result<SoloGame, ReplayError> {
        let mut game = SoloGame::new(instance);
        for (i, &(from, to)) in moves.iter().enumerate() {
            game.play(from, to)
                .map_err(|why| ReplayError { number: i + 1, why })?;
        }
        Ok(game)
    }

    /// The instance played.
    #[must_use]
    pub fn instance(&self) -> &Instance {
        &self.instance
    }

    /// The position the moves reach.
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The moves played, as `(from, to)` pairs.
    #[must_use]
    pub fn moves(&self) -> &[(u8, u8)] {
        &self.moves
    }

    /// The legal moves (none once the game is over).
    #[must_use]
    pub fn legal_moves(&self) -> MoveList {
        match self.die() {
            Some(die) => self.position.legal_moves(die),
            None => MoveList::default(),
        }
    }

    /// Plays the move from cell `from` to cell `to`, and returns it.
    ///
    /// # Errors
    /// [`PlayError::Over`] once the game is over, else the rule the move breaks.
    pub fn play(&mut self, from: u8, to: u8) -> Result<SoloMove, PlayError> {
        let die = self.die().ok_or(PlayError::Over)?;
        let mv = self.position.check_move(die, from, to)?;
        self.position.play(mv);
        self.moves.push((from, to));
        Ok(mv)
    }

    /// Whether the goal piece stands on cell 0.
    #[must_use]
    pub fn is_solved(&self) -> bool {
        self.position.cell(self.instance.goal) == Some(0)
    }

    /// Whether the game is over: solved, the goal piece removed, or the dice used up.
    #[must_use]
    pub fn is_over(&self) -> bool {
        self.die().is_none()
    }

    /// The die of the next move, or `None` once the game is over.
    fn die(&self) -> Option<u8> {
        let goal_alive = self.position.cell(self.instance.goal).is_some();
        let die = self.instance.dice.get(self.moves.len()).copied();
        die.filter(|_| goal_alive && !self.is_solved())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n";

    #[test]
    fn a_game_is_played_move_by_move_until_it_is_over() {
        let instance = Instance::parse(SAMPLE).unwrap();
        let report = crate::solo::solve(&instance, ply_search::Limits::UNLIMITED);
        let pairs: Vec<(u8, u8)> = report
            .moves()
            .unwrap()
            .iter()
            .map(|m| (m.from, m.to))
            .collect();
        let solved = SoloGame::replay(instance.clone(), &pairs).unwrap();
        assert!(solved.is_solved() && solved.is_over());
        assert!(solved.legal_moves().next().is_none());
        let mut again = solved.clone();
        assert_eq!(again.play(0, 1), Err(PlayError::Over));
        let mut game = SoloGame::new(instance.clone());
        assert!(!game.is_over() && game.moves().is_empty());
        assert_eq!(
            game.legal_moves().len(),
            instance.position().legal_moves(6).len()
        );
        assert!(matches!(game.play(62, 51), Err(PlayError::Illegal(_))));
        assert_eq!(game, SoloGame::new(instance.clone()));
        let refused = SoloGame::replay(instance, &[(36, 25), (36, 25)]).unwrap_err();
        assert_eq!(refused.number, 2);
        assert_eq!(refused.to_string(), "move 2: no piece on cell 36");
    }
}
