//! The rules of the duel: the board, its cubes and their moves, the dice lines a game is
//! played with (the course's own among them), and the game as numbers for learning
//! environments (actions, observations, the longest game), and the fast generator that
//! playouts and agents draw their random moves from.

mod board;
mod dice;
mod encoding;
mod rng;

pub(crate) use board::movable_cubes;
pub use board::{Board, COLS, Color, DICE, DuelError, DuelMove, MoveList, ROWS, Undo};
pub use dice::{COURSE_DICE, DiceError, course_dice, parse_dice_file};
pub use encoding::{
    MAX_GAME_LENGTH, NUM_ACTIONS, OBSERVATION_SIZE, action, action_move, observation,
};
pub use rng::FastRng;
