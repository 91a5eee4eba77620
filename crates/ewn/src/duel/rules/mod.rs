//! The rules of the duel: the board, its cubes and their moves, and the dice lines a game is
//! played with (the course's own among them).

mod board;
mod dice;

pub use board::{Board, COLS, Color, DICE, DuelError, DuelMove, MoveList, ROWS, Undo};
pub use dice::{COURSE_DICE, DiceError, course_dice, parse_dice_file};
