//! The dominance table of the exact search.

use rustc_hash::FxHashMap;

use super::key::{Key, PLAYER};
use super::tuning::PER_LAYOUT;
use crate::puzzle::Puzzle;

/// The stored states grouped by layout (the objects without the player), for dominance
/// pruning: a state `(L, p)` reached at cost `g` is redundant when a stored `(L, q)` was
/// reached at cost `g'` with `g' + walk(q, p) <= g`, since the player can walk from `q` to `p`
/// and then do whatever it would do from `(L, p)`. With an admissible bound, the `f` of
/// `(L, q)` is at most `g' + walk(q, p)` plus the cheapest finish from `(L, p)`, so `(L, q)`
/// is expanded before any solution through `(L, p)` could be taken. Up to [`PER_LAYOUT`]
/// states are kept per layout (forgetting one only loses pruning).
pub(crate) struct Layouts {
    /// Per layout, the player's cells and costs of stored states (cell `u8::MAX`: empty).
    pub(crate) seen: FxHashMap<u128, [(u8, u16); PER_LAYOUT]>,
    /// The board, for walking.
    pub(crate) puzzle: Puzzle,
}

impl Layouts {
    pub(crate) fn new(puzzle: &Puzzle) -> Layouts {
        Layouts {
            seen: FxHashMap::default(),
            puzzle: puzzle.clone(),
        }
    }

    /// Whether `key` reached at cost `g` is redundant; if not, it is recorded.
    pub(crate) fn dominated(&mut self, key: &Key, g: u32) -> bool {
        let layout = key.0 & ((1u128 << PLAYER) - 1);
        let state = key.state();
        let player = state.player;
        let g = u16::try_from(g).unwrap_or(u16::MAX);
        let kept = self
            .seen
            .entry(layout)
            .or_insert([(u8::MAX, 0); PER_LAYOUT]);
        // The cheaper states of the layout, and by how much they are cheaper.
        let mut cheaper = [(0u64, 0u16); PER_LAYOUT];
        let mut widest = 0;
        for (slot, &(cell, cost)) in kept.iter().enumerate() {
            if cell == u8::MAX {
                continue;
            }
            if cell == player && cost <= g {
                return true;
            }
            if cost < g {
                cheaper[slot] = (1 << cell, g - cost);
                widest = widest.max(g - cost);
            }
        }
        if widest > 0 {
            // A cell within `slack` steps of a state `slack` cheaper dominates: walk out from
            // the player layer by layer, looking for the states with at least that much slack.
            let free =
                self.puzzle.board() & !(self.puzzle.walls | state.empty | state.full | state.balls);
            let mut seen_cells = 1u64 << player;
            let mut frontier = seen_cells;
            for steps in 1..=widest {
                frontier = self.puzzle.spread(frontier) & free & !seen_cells;
                if frontier == 0 {
                    break;
                }
                let targets = cheaper
                    .iter()
                    .filter(|&&(_, slack)| slack >= steps)
                    .fold(0, |targets, &(cell, _)| targets | cell);
                if frontier & targets != 0 {
                    return true;
                }
                seen_cells |= frontier;
            }
        }
        // Keep it: in its own slot, an empty one, or the costliest one's.
        let slot = kept
            .iter()
            .position(|&(cell, _)| cell == player)
            .or_else(|| kept.iter().position(|&(cell, _)| cell == u8::MAX))
            .unwrap_or_else(|| {
                (0..PER_LAYOUT)
                    .max_by_key(|&i| kept[i].1)
                    .expect("at least one slot")
            });
        kept[slot] = (player, g);
        false
    }
}
