//! The duel as numbers, as learning environments (OpenSpiel, PettingZoo, Gymnasium) see it:
//! a move as one action number, a position as a fixed-length observation, and the longest a
//! game can last. The Python binding's environments use these; they are documented here once.

use super::board::{Board, COLS, Color, DICE, DuelMove, ROWS};

/// Distinct actions: six cubes times four directions.
pub const NUM_ACTIONS: usize = 24;

/// The most plies a game can last. Every move raises the mover's cube's progress towards its
/// corner (red: twice the column plus the row; blue mirrored) by at least one; a side's six
/// cubes start with 12 in all and each may reach 16 without winning, so a side makes at most
/// 6 * 16 - 12 = 84 moves before its winning one.
pub const MAX_GAME_LENGTH: usize = 84 + 84 + 1;

/// The cells of the board.
const CELLS: usize = ROWS * COLS;

/// One side's part of an observation: a one-hot plane of the board per cube.
const CUBE_PLANES: usize = 6 * CELLS;

/// The length of an [`observation`]: both sides' cube planes, two flags and the dice ahead.
pub const OBSERVATION_SIZE: usize = 2 * CUBE_PLANES + 2 + DICE * 6;

/// A move as an action number: `4 * cube + direction` (0-23), the protocol's move `ND` as
/// one number.
///
/// ```
/// use ply_ewn::duel::rules::{DuelMove, action, action_move};
/// let mv = DuelMove { cube: 5, dir: 3 };
/// assert_eq!(action(mv), 23);
/// assert_eq!(action_move(23), Some(mv));
/// assert_eq!(action_move(24), None);
/// ```
#[must_use]
pub fn action(mv: DuelMove) -> u8 {
    mv.cube * 4 + mv.dir
}

/// The move an action number stands for (not checked against a position), or `None` for a
/// number outside 0-23.
#[must_use]
pub fn action_move(action: u8) -> Option<DuelMove> {
    (usize::from(action) < NUM_ACTIONS).then_some(DuelMove {
        cube: action / 4,
        dir: action % 4,
    })
}

/// The position from `me`'s side as [`OBSERVATION_SIZE`] (632) zeros and ones, in this order:
/// for each of `me`'s cubes 0-5 a one-hot plane of its cell (`7 * row + col`, 42 cells; all
/// zero once captured), the same for the opponent's cubes, then whether `me` is to move (0
/// once the game is over) and whether `me` is red, then the next 21 dice from the ply to play
/// on, each one-hot over 0-5. Both sides see everything (perfect information); only the order
/// of the planes and the flags depend on `me`.
///
/// ```
/// use ply_ewn::duel::rules::{Board, Color, OBSERVATION_SIZE, course_dice, observation};
/// let board = Board::new([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5], course_dice()[0])?;
/// let seen = observation(&board, Color::Red);
/// assert_eq!(seen.len(), OBSERVATION_SIZE);
/// // 12 cubes, red to move, red, and 21 dice.
/// assert_eq!(seen.iter().sum::<f32>(), 12.0 + 2.0 + 21.0);
/// # Ok::<(), ply_ewn::duel::DuelError>(())
/// ```
#[must_use]
pub fn observation(board: &Board, me: Color) -> Vec<f32> {
    let mut out = vec![0f32; OBSERVATION_SIZE];
    for (side, color) in [me, me.other()].into_iter().enumerate() {
        for cube in 0..6u8 {
            if let Some(cell) = board.cube_cell(color, cube) {
                out[side * CUBE_PLANES + usize::from(cube) * CELLS + usize::from(cell)] = 1.0;
            }
        }
    }
    let flags = 2 * CUBE_PLANES;
    out[flags] = f32::from(u8::from(board.winner().is_none() && board.to_move() == me));
    out[flags + 1] = f32::from(u8::from(me == Color::Red));
    let ply = board.ply() as usize;
    for i in 0..DICE {
        let die = usize::from(board.dice()[(ply + i) % DICE]);
        out[flags + 2 + i * 6 + die] = 1.0;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::rules::course_dice;

    #[test]
    fn every_action_names_one_move_and_back() {
        for a in 0..NUM_ACTIONS as u8 {
            let mv = action_move(a).unwrap();
            assert!(mv.cube < 6 && mv.dir < 4);
            assert_eq!(action(mv), a);
        }
    }

    #[test]
    fn the_two_sides_see_the_same_position_mirrored() {
        let mut board = Board::new([0, 1, 2, 3, 4, 5], [5, 4, 3, 2, 1, 0], course_dice()[3])
            .expect("a legal setup");
        board.play(board.moves().iter().next().copied().expect("a move"));
        let (red, blue) = (
            observation(&board, Color::Red),
            observation(&board, Color::Blue),
        );
        assert_eq!(red[..CUBE_PLANES], blue[CUBE_PLANES..2 * CUBE_PLANES]);
        assert_eq!(red[CUBE_PLANES..2 * CUBE_PLANES], blue[..CUBE_PLANES]);
        let flags = 2 * CUBE_PLANES;
        // Blue is to move after red's first move.
        assert_eq!((red[flags], red[flags + 1]), (0.0, 1.0));
        assert_eq!((blue[flags], blue[flags + 1]), (1.0, 0.0));
        assert_eq!(red[flags + 2..], blue[flags + 2..]);
    }
}
