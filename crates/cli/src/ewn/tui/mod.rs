//! The terminal UIs of `ply ewn`: the solo viewer, the duel game and the replay.

pub mod play;
pub mod replay;
pub mod view;
mod widgets;
