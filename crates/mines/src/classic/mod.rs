//! Classic Minesweeper, as the field measures its solvers: boards of any size (the three
//! standard levels by name), both first-click rules, games drawn from a seed, exact mine
//! probabilities, and a player that wins as often as the best published solvers try to.
//!
//! ```
//! use ply_mines::classic::{FirstClick, Level, Rules, play};
//!
//! let rules = Rules::level(Level::Beginner, FirstClick::Safe);
//! let record = play(&rules, 7);
//! println!("{}: {} cells opened, {} guesses", if record.won { "won" } else { "lost" },
//!     record.opened, record.guesses);
//! assert_eq!(record, play(&rules, 7), "a seed replays its game");
//! ```

mod analysis;
mod batch;
mod endgame;
mod game;
mod player;
mod position;
mod published;
mod rules;

pub use analysis::{COMPONENT_NODES, Probabilities, checked_probabilities, probabilities};
pub use batch::{
    BLOCK_GAMES, MAX_GAMES, Tally, block_games, blocks, check_block, game_seed, play_games,
    play_run,
};
pub use endgame::MAX_ENDGAME;
pub use game::{ClassicGame, EXPLODED, HIDDEN, Opened, Reveal, Status};
pub use player::{GameRecord, Move, Solver, Strategy, play, play_traced, play_until};
pub use position::{Position, parse_position, view_from_numbers};
pub use published::{PublishedRate, published_rates};
pub use rules::{FirstClick, Level, MAX_SIDE, Rules, check_view_size, default_start, size_name};
