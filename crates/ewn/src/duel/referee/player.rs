//! One side of a game as the referee sees it, and why a side can lose without the rules
//! deciding: the [`Player`] interface, its forfeits, and the in-process adapter of an agent.

use crate::duel::agents::Agent;
use crate::duel::protocol::Setup;
use crate::duel::rules::{Board, Color, DuelMove};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why a player lost a game without the rules deciding it.
#[derive(Clone, Debug, PartialEq, Error, Serialize, Deserialize)]
pub enum Forfeit {
    /// No complete move within the move time.
    #[error("no move within {0:.1} s")]
    Timeout(f64),
    /// Characters that are not a move.
    #[error("malformed move: {0}")]
    Malformed(String),
    /// A well-formed move the rules forbid.
    #[error("illegal move {mv}: {why}")]
    Illegal {
        /// The move as sent.
        mv: String,
        /// The rule it breaks.
        why: String,
    },
    /// The player closed its output or exited.
    #[error("closed its output ({0})")]
    Closed(String),
    /// The host could not write to the player (it no longer reads).
    #[error("stopped reading its input")]
    Unreachable,
    /// The player could not be started.
    #[error("could not be started: {0}")]
    Unstartable(String),
}

/// One side of a game, as the referee sees it.
pub trait Player {
    /// A name for tables and logs.
    fn name(&self) -> &str;
    /// Sends the setup and role of a new game.
    ///
    /// # Errors
    /// A [`Forfeit`] when the player cannot be reached.
    fn start_game(&mut self, setup: &Setup, color: Color) -> Result<(), Forfeit>;
    /// Waits for the player's move, at most `limit` after the last message sent to it.
    /// Returns the move and the time it took.
    ///
    /// # Errors
    /// A [`Forfeit`] for a timeout, malformed output or a dead player.
    fn request_move(
        &mut self,
        board: &Board,
        limit: Duration,
    ) -> Result<(Option<DuelMove>, Duration), Forfeit>;
    /// Forwards the opponent's move.
    ///
    /// # Errors
    /// A [`Forfeit`] when the player cannot be reached.
    fn tell(&mut self, mv: Option<DuelMove>) -> Result<(), Forfeit>;
    /// Tells the player whether another game follows (after a game decided by the rules).
    fn end_game(&mut self, more: bool);
    /// Stops the player (it is started afresh for the next game, if any).
    fn reset(&mut self);
}

/// An agent running inside the host's process (for demos and tests: no pipes, no time
/// enforcement beyond measuring).
pub struct AgentPlayer<A: Agent> {
    name: String,
    agent: A,
    board: Option<Board>,
}

impl<A: Agent> AgentPlayer<A> {
    /// Wraps `agent` under `name`.
    pub fn new(name: &str, agent: A) -> Self {
        AgentPlayer {
            name: name.to_string(),
            agent,
            board: None,
        }
    }
}

impl<A: Agent> Player for AgentPlayer<A> {
    fn name(&self) -> &str {
        &self.name
    }

    fn start_game(&mut self, setup: &Setup, color: Color) -> Result<(), Forfeit> {
        let board = setup
            .board()
            .map_err(|e| Forfeit::Unstartable(e.to_string()))?;
        self.agent.new_game(&board, color);
        self.board = Some(board);
        Ok(())
    }

    fn request_move(
        &mut self,
        _: &Board,
        _: Duration,
    ) -> Result<(Option<DuelMove>, Duration), Forfeit> {
        let started = Instant::now();
        let board = self
            .board
            .as_mut()
            .ok_or_else(|| Forfeit::Unstartable("no game started".into()))?;
        let mv = self.agent.choose(board, started);
        self.agent.observe(board, mv);
        board.play_checked(mv).map_err(|why| Forfeit::Illegal {
            mv: mv.to_string(),
            why: why.to_string(),
        })?;
        Ok((Some(mv), started.elapsed()))
    }

    fn tell(&mut self, mv: Option<DuelMove>) -> Result<(), Forfeit> {
        if let (Some(board), Some(mv)) = (self.board.as_mut(), mv) {
            self.agent.observe(board, mv);
            board.play(mv);
        }
        Ok(())
    }

    fn end_game(&mut self, _: bool) {
        self.board = None;
    }

    fn reset(&mut self) {
        self.board = None;
    }
}
