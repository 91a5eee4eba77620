//! The rules of a move: walking, pushing boxes and sliding balls.

use thiserror::Error;

use crate::puzzle::Puzzle;
use crate::state::{Dir, State};

/// Why a move is illegal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum IllegalMove {
    /// The player would walk into a wall or off the board.
    #[error("the player would walk into a wall or off the board")]
    Blocked,
    /// A box would be pushed into a wall, off the board, or onto a box.
    #[error("the box cannot be pushed there")]
    BoxBlocked,
    /// A full box would be pushed onto a ball.
    #[error("a full box cannot be pushed onto a ball")]
    FullOntoBall,
    /// The ball has no room to move.
    #[error("the ball cannot move")]
    BallStuck,
}

/// The result of one legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The state after the move.
    pub state: State,
    /// The move's penalty: 2 for pushing a full box, else 1.
    pub cost: u32,
}

/// The cell next to `cell` in `dir`, if on the board.
#[inline]
fn neighbour(puzzle: &Puzzle, cell: usize, dir: Dir) -> Option<usize> {
    puzzle.neighbour(cell, dir)
}

impl State {
    /// Whether every ball is in a box (no empty box is left).
    #[must_use]
    pub fn is_solved(&self) -> bool {
        self.empty == 0
    }

    /// Cells holding anything a box or ball cannot move into (walls, boxes, balls).
    #[inline]
    fn solid(&self, puzzle: &Puzzle) -> u64 {
        puzzle.walls | self.empty | self.full | self.balls
    }

    /// Plays one move under the rules.
    ///
    /// # Errors
    /// Which rule forbids the move.
    pub fn step(&self, puzzle: &Puzzle, dir: Dir) -> Result<Step, IllegalMove> {
        let next = neighbour(puzzle, usize::from(self.player), dir).ok_or(IllegalMove::Blocked)?;
        let next_bit = 1u64 << next;
        if puzzle.walls & next_bit != 0 {
            return Err(IllegalMove::Blocked);
        }
        let mut state = *self;
        state.player = next as u8;
        let mut cost = 1;
        if (self.empty | self.full) & next_bit != 0 {
            let beyond = neighbour(puzzle, next, dir).ok_or(IllegalMove::BoxBlocked)?;
            let beyond_bit = 1u64 << beyond;
            if (puzzle.walls | self.empty | self.full) & beyond_bit != 0 {
                return Err(IllegalMove::BoxBlocked);
            }
            if self.empty & next_bit != 0 {
                state.empty &= !next_bit;
                if self.balls & beyond_bit != 0 {
                    state.balls &= !beyond_bit;
                    state.full |= beyond_bit;
                } else {
                    state.empty |= beyond_bit;
                }
            } else {
                if self.balls & beyond_bit != 0 {
                    return Err(IllegalMove::FullOntoBall);
                }
                state.full = (state.full & !next_bit) | beyond_bit;
                cost = 2;
            }
        } else if self.balls & next_bit != 0 {
            let solid = self.solid(puzzle);
            let mut at = next;
            let mut moved = false;
            state.balls &= !next_bit;
            loop {
                match neighbour(puzzle, at, dir) {
                    Some(c) if self.empty & (1u64 << c) != 0 => {
                        state.empty &= !(1u64 << c);
                        state.full |= 1u64 << c;
                        moved = true;
                        break;
                    }
                    Some(c) if solid & (1u64 << c) == 0 => {
                        at = c;
                        moved = true;
                    }
                    _ => {
                        state.balls |= 1u64 << at;
                        break;
                    }
                }
            }
            if !moved {
                return Err(IllegalMove::BallStuck);
            }
        }
        Ok(Step { state, cost })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;

    fn one(text: &str) -> Puzzle {
        parse_puzzles(text).unwrap().remove(0)
    }

    fn after(p: &Puzzle, moves: &str) -> (String, u32) {
        let mut state = p.start;
        let mut penalty = 0;
        for ch in moves.chars() {
            let step = state.step(p, Dir::from_symbol(ch).unwrap()).unwrap();
            state = step.state;
            penalty += step.cost;
        }
        (p.render(&state), penalty)
    }

    #[test]
    fn balls_slide_until_blocked_and_drop_into_boxes() {
        let p = one("1 6\n@O---$\n");
        let (board, cost) = after(&p, ">");
        assert_eq!(board, "-@---*\n");
        assert_eq!(cost, 1);
        let p = one("1 6\n@O--#$\n");
        assert_eq!(after(&p, ">").0, "-@-O#$\n");
        let p = one("1 6\n@O$-O$\n");
        assert_eq!(
            after(&p, ">").0,
            "-@*-O$\n",
            "a ball next to an empty box moves into it"
        );
    }

    #[test]
    fn boxes_push_and_swallow() {
        let p = one("1 4\n@$O-\n");
        assert_eq!(after(&p, ">"), ("-@*-\n".to_string(), 1));
        let p = one("1 6\n@*--O$\n");
        let (board, cost) = after(&p, ">>");
        assert_eq!(board, "--@*O$\n");
        assert_eq!(cost, 4, "full-box pushes cost 2");
    }

    #[test]
    fn illegal_moves() {
        let p = one("1 4\n@O#$\n");
        assert_eq!(p.start.step(&p, Dir::Right), Err(IllegalMove::BallStuck));
        assert_eq!(p.start.step(&p, Dir::Left), Err(IllegalMove::Blocked));
        let p = one("1 4\n@*O$\n");
        assert_eq!(p.start.step(&p, Dir::Right), Err(IllegalMove::FullOntoBall));
        let p = one("1 5\n@$$OO\n");
        assert_eq!(p.start.step(&p, Dir::Right), Err(IllegalMove::BoxBlocked));
        let p = one("1 3\nO@$\n");
        assert_eq!(p.start.step(&p, Dir::Right), Err(IllegalMove::BoxBlocked));
        let p = one("2 2\n@$\nO#\n");
        assert_eq!(p.start.step(&p, Dir::Down), Err(IllegalMove::BallStuck));
    }
}
