//! The terminal UIs of `ply ewn`: the solo viewer, the duel game and the replay.

pub(super) mod play;
pub(super) mod replay;
pub(super) mod view;
mod widgets;
