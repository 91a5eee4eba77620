//! The search's packed state.

use crate::puzzle::MAX_CELLS;
use crate::state::State;

/// A state packed into 128 bits, as the search stores it: two bits per cell (bit `c` of
/// `low` and of `high`: floor 00, empty box 10, full box 01, ball 11, reading low then high)
/// and the player's cell, 106 bits for the largest board. Half the size of a [`State`], which
/// doubles the states a search can hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key(pub(crate) u128);

/// Where the high plane and the player's cell start in a [`Key`].
pub(crate) const HIGH: u32 = MAX_CELLS as u32;
pub(crate) const PLAYER: u32 = 2 * MAX_CELLS as u32;

impl Key {
    pub(crate) fn new(state: &State) -> Key {
        let low = state.empty | state.balls;
        let high = state.full | state.balls;
        Key(u128::from(low) | u128::from(high) << HIGH | u128::from(state.player) << PLAYER)
    }

    pub(crate) fn state(self) -> State {
        let mask = (1u64 << MAX_CELLS) - 1;
        let low = self.0 as u64 & mask;
        let high = (self.0 >> HIGH) as u64 & mask;
        State {
            empty: low & !high,
            full: high & !low,
            balls: low & high,
            player: (self.0 >> PLAYER) as u8,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::parse_puzzles;
    use crate::solver::testing::listed;

    #[test]
    fn keys_round_trip() {
        let text = include_str!("../../../../data/sokoboru/medium.in");
        for puzzle in parse_puzzles(text).unwrap() {
            let start = puzzle.start;
            assert_eq!(Key::new(&start).state(), start);
            for (next, _) in listed(&puzzle, &start, None) {
                let state = next.state();
                assert_eq!(Key::new(&state), next);
                // Boxes stay boxes, and a ball leaves the board only by filling a box.
                let boxes = |s: &State| s.empty.count_ones() + s.full.count_ones();
                assert_eq!(boxes(&state), boxes(&start));
                assert_eq!(
                    start.balls.count_ones() - state.balls.count_ones(),
                    start.empty.count_ones() - state.empty.count_ones()
                );
            }
        }
    }
}
