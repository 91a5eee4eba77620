//! Dead positions from frozen objects: objects that can never move again.
//!
//! The matching of [`crate::Bound`] relaxes every object but the walls away, so it misses
//! positions made dead by objects stuck against each other (Junghanns and Schaeffer's freeze
//! deadlocks in Sokoban, here with balls that slide and boxes that swallow them). An object is
//! frozen when, in each direction, the cell the player would push from, or the cell it would
//! move into, is a wall, the edge, or another frozen object, except that an empty box may
//! always move onto a ball and a ball into an empty box. The frozen set is the largest set
//! with that property (found by dropping movable objects until none is left to drop): none of
//! its objects can be the first of them to move, so none ever moves. Filling one keeps it in
//! place, and a full box can move in no direction an empty box or a ball could not, so the
//! set stays frozen.
//!
//! A frozen ball is then dead when no box can ever be pushed onto it (in every direction, the
//! cell the box would come from or the cell its pusher would stand on is a wall, the edge or
//! frozen), and a frozen empty box when no ball can ever slide into it (in every direction,
//! the cell the ball would come through or the cell behind that is: a ball can only enter
//! from a neighbour, pushed from the cell behind it or sliding through it).

use crate::puzzle::Puzzle;
use crate::state::bits;
use crate::state::{Dir, State};

/// The objects of `state` that can never move again, as a bit set of cells.
#[must_use]
pub(crate) fn frozen(puzzle: &Puzzle, state: &State) -> u64 {
    frozen_among(puzzle, state, state.empty | state.full | state.balls)
}

/// The largest set of objects among `candidates` that are all stuck while the others in it
/// stand still; the objects outside `candidates` count as free to move (which only finds
/// fewer frozen objects).
fn frozen_among(puzzle: &Puzzle, state: &State, candidates: u64) -> u64 {
    let mut members = candidates;
    loop {
        let movable = movable(puzzle, state, members);
        if movable == 0 {
            return members;
        }
        members &= !movable;
    }
}

/// Whether frozen objects make `state` impossible to solve: a frozen ball no box can ever
/// reach, or a frozen empty box no ball can ever reach. The solver asks the cheaper
/// [`frozen_dead_after`] after each push; the tests ask this of whole positions.
#[cfg(test)]
#[must_use]
pub(crate) fn frozen_dead(puzzle: &Puzzle, state: &State) -> bool {
    dead_with(puzzle, state, frozen(puzzle, state))
}

/// Whether, with the objects on `members` frozen, some frozen ball or empty box can never be
/// reached.
fn dead_with(puzzle: &Puzzle, state: &State, members: u64) -> bool {
    if members & (state.balls | state.empty) == 0 {
        return false;
    }
    let closed =
        |cell: Option<usize>| cell.is_none_or(|c| (puzzle.walls | members) & (1 << c) != 0);
    // Something can arrive on `cell` from direction `dir` only through the neighbour on that
    // side, with the player or the rest of a slide on the cell beyond it.
    let unreachable = |cell: usize| {
        Dir::ALL.into_iter().all(|dir| {
            let near = puzzle.neighbour(cell, dir);
            closed(near) || closed(near.and_then(|near| puzzle.neighbour(near, dir)))
        })
    };
    bits(members & (state.balls | state.empty)).any(unreachable)
}

/// [`frozen_dead`] for `after`, one push from `before`, looking only at what the push can
/// have changed (so it may miss a dead end `before` already had). If the object that moved
/// can still move, the frozen set is a subset of `before`'s (an object that may move blocks
/// nothing, and the cell it left is open), so nothing new is frozen or closed in. The quick
/// test: it is free to go if, in some direction, the cells behind it and ahead of it hold no
/// wall and no object (or, ahead, a partner it may swallow or fall into). Otherwise only the
/// objects connected to it through neighbouring cells are tried as frozen.
#[must_use]
pub(crate) fn frozen_dead_after(puzzle: &Puzzle, before: &State, after: &State) -> bool {
    let arrived =
        (after.empty & !before.empty) | (after.full & !before.full) | (after.balls & !before.balls);
    if arrived == 0 {
        return false;
    }
    let objects = after.empty | after.full | after.balls;
    if movable(puzzle, after, objects) & arrived != 0 {
        return false;
    }
    // Whether it is frozen depends only on the objects it touches, and on theirs in turn.
    let mut cluster = arrived;
    let mut fresh = cluster;
    while fresh != 0 {
        fresh = puzzle.spread(fresh) & objects & !cluster;
        cluster |= fresh;
    }
    dead_with(puzzle, after, frozen_among(puzzle, after, cluster))
}

/// The objects of `members` that could still be pushed some way while the other members stand
/// still, found for all of them at once on bit sets: in some direction, the cell behind is on
/// the board and holds no wall and no member (the player's place), and the cell ahead is on
/// the board and holds no wall and no member, or holds a partner: a ball ahead of an empty box
/// or an empty box ahead of a ball.
fn movable(puzzle: &Puzzle, state: &State, members: u64) -> u64 {
    let open = puzzle.board() & !(puzzle.walls | members);
    Dir::ALL.into_iter().fold(0, |out, dir| {
        let back = dir.opposite();
        let ahead = puzzle.shift(open, back)
            | (state.empty & puzzle.shift(state.balls, back))
            | (state.balls & puzzle.shift(state.empty, back));
        out | (puzzle.shift(open, dir) & ahead)
    }) & members
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;

    fn board(text: &str) -> Puzzle {
        parse_puzzles(text).unwrap().remove(0)
    }

    /// A bottom row packed with balls and boxes can never move: the player can stand on none
    /// of its cells and nothing is below it. Its objects can still be reached from above.
    #[test]
    fn a_packed_bottom_row_is_frozen_but_reachable() {
        let p = board("3 4\n@---\n-$-O\nO$O$\n");
        assert_eq!(frozen(&p, &p.start), 0b1111 << 8);
        assert!(!frozen_dead(&p, &p.start));
    }

    /// A ball in a corner behind a frozen pair of full boxes: nothing can come at it.
    #[test]
    fn a_walled_in_ball_is_dead() {
        let p = board("3 4\nO*--\n*-@$\n----\n");
        assert_eq!(frozen(&p, &p.start) & p.start.balls, p.start.balls);
        assert!(frozen_dead(&p, &p.start));
    }

    /// An empty box may always be pushed onto a ball, so a ball next to it does not freeze it.
    #[test]
    fn a_box_may_swallow_a_ball_ahead() {
        let p = board("1 4\n@$O-\n");
        assert_eq!(frozen(&p, &p.start), 0);
    }
}
