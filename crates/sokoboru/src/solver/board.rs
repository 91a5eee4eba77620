//! What every search of a board shares: the pair costs, the one-box game, the estimate at
//! the start and the exact search's techniques ([`Techniques`]), built once per case.

use crate::bound::Bound;
use crate::duo::Duo;
use crate::puzzle::Puzzle;

/// What every search of a board shares, built once per case.
pub(crate) struct Board<'p> {
    /// The puzzle.
    pub(crate) puzzle: &'p Puzzle,
    /// The pair costs of the start's walls and frozen objects.
    pub(crate) bound: Bound,
    /// The one-box, one-ball game.
    pub(crate) duo: Duo,
    /// The matching at the start: the weighted searches' estimate there.
    pub(crate) start_h: u32,
    /// The exact search's bounds and pruning.
    pub(crate) techniques: Techniques,
}

/// The exact search's bounds and pruning, each of which can be turned off to measure what it
/// brings (the solver runs with all of them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Techniques {
    /// The one-box, one-ball game ([`crate::duo`]).
    pub(crate) duo: bool,
    /// The drift bound ([`crate::drift`]), fitted along the solution in hand.
    pub(crate) drift: bool,
    /// One more move when no push near the player may lower the matching.
    pub(crate) progress: bool,
    /// Pair-cost tables per frozen layout ([`super::frozen_tables`]).
    pub(crate) frozen_tables: bool,
    /// Dropping states that another of their layout dominates.
    pub(crate) dominance: bool,
    /// Weighted searches below a penalty leave out children by the one-box game and the walk
    /// to progress as well (their guide stays the plain estimate).
    pub(crate) pruned_answers: bool,
}

impl Default for Techniques {
    fn default() -> Techniques {
        Techniques {
            duo: true,
            drift: true,
            progress: true,
            frozen_tables: true,
            dominance: true,
            pruned_answers: true,
        }
    }
}
