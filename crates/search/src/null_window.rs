//! Null-window proving: [`NullWindow`], whose docs give the algorithm. It shares no code with
//! the proof-number search beyond the game's rules, so that each can check the other.

use std::time::Instant;

use crate::game::{Game, Outcome};
use crate::limits::{Limits, Poller};

/// Positions searched between two looks at the clock.
const CLOCK_INTERVAL: u64 = 4096;

/// One table slot: what is known of a position for one player.
#[derive(Clone, Copy, Debug, Default)]
struct Known {
    key: u64,
    /// The player wins within this many plies (`u16::MAX`: not known to).
    wins_within: u16,
    /// The player does not win within this many plies (0: nothing known).
    fails_within: u16,
    used: bool,
}

/// A table of what is known per position and player: `2^bits` slots, always replaced.
#[derive(Clone, Debug)]
pub struct SolvedTable {
    slots: Vec<Known>,
    mask: usize,
}

impl SolvedTable {
    /// A table of `2^bits` slots.
    #[must_use]
    pub fn new(bits: u32) -> Self {
        let size = 1usize << bits;
        SolvedTable {
            slots: vec![Known::default(); size],
            mask: size - 1,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.slots.fill(Known::default());
    }

    /// The key of a position for `player` (the player's own bits in it).
    fn key(hash: u64, player: u8) -> u64 {
        hash ^ (u64::from(player) + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }

    fn get(&self, key: u64) -> Option<Known> {
        let slot = self.slots[key as usize & self.mask];
        (slot.used && slot.key == key).then_some(slot)
    }

    fn put(&mut self, key: u64, depth: u16, wins: bool) {
        let index = key as usize & self.mask;
        let slot = &mut self.slots[index];
        if !(slot.used && slot.key == key) {
            *slot = Known {
                key,
                wins_within: u16::MAX,
                fails_within: 0,
                used: true,
            };
        }
        if wins {
            slot.wins_within = slot.wins_within.min(depth);
        } else {
            slot.fails_within = slot.fails_within.max(depth);
        }
    }
}

/// A game-specific bound: the fewest plies from `game` in which `player` could still win
/// (0: it has already won), or more than any depth if never. It must not overestimate.
pub type WinBound<'a, G> = &'a mut dyn FnMut(&G, u8) -> u32;

/// A move-ordering hook: reorders a position's moves, best first for the side to move.
pub type MoveOrder<'a, G> = &'a mut dyn FnMut(&G, &mut [<G as Game>::Move]);

/// A null-window prover: a table, a move order, a bound and limits.
///
/// Null-window proving: who wins a position against every defence? Iterative deepening of
/// the question "does this player win within `d` plies?", each answered by a depth-first
/// alpha-beta search with the window (loss, win), where every value is a win or not, so that
/// a position is settled by its first refutation.
///
/// It shares no code with df-pn ([`DfPn`](crate::DfPn)) beyond the [`Game`] rules, so that
/// each can check the other's proofs. Deepening finds the quickest wins first (a depth-first
/// search to the end of the game would follow long lines before short ones); a game-supplied
/// bound (the fewest plies in which a player could still win, from the rules' geometry) cuts
/// the lines that cannot end in time; a position's immediate wins are looked for among all its
/// moves before any is searched deeper; and a table ([`SolvedTable`]) remembers, per position,
/// the depth within which the player is known to win and the depth within which it is known
/// not to.
pub struct NullWindow<'a, G: Game> {
    table: &'a mut SolvedTable,
    order: MoveOrder<'a, G>,
    bound: WinBound<'a, G>,
    poller: Poller<'static>,
    player: u8,
    nodes: u64,
    stopped: bool,
}

impl<'a, G: Game> NullWindow<'a, G> {
    /// A prover remembering what it learns in `table`, searching moves in the order `order`
    /// leaves them and cutting lines with `bound`, without limits.
    pub fn new(
        table: &'a mut SolvedTable,
        order: MoveOrder<'a, G>,
        bound: WinBound<'a, G>,
    ) -> Self {
        NullWindow {
            table,
            order,
            bound,
            poller: Limits::unchecked(),
            player: 0,
            nodes: 0,
            stopped: false,
        }
    }

    /// Stops when `limits` run out (nodes are positions searched; time counts from now), or
    /// once their [`StopFlag`](crate::StopFlag) is raised (looked at every few thousand
    /// positions, with the clock).
    #[must_use]
    pub fn with_limits(mut self, limits: &Limits) -> Self {
        self.poller = limits.poller(Instant::now(), CLOCK_INTERVAL);
        self
    }

    /// Positions searched so far.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Who wins from `game`: deepens "player 0 wins within `d` plies" and "player 1 wins
    /// within `d`" together, `d` = 1, 2, ... up to `max_plies`, and returns the first player
    /// found to win; `None` when the limits run out first, or no player wins within
    /// `max_plies` (a draw, or a longer game).
    pub fn winner(&mut self, game: &mut G, max_plies: u32) -> Option<u8> {
        self.stopped = false;
        if let Some(outcome) = game.outcome() {
            return match outcome {
                Outcome::Win(p) => Some(p),
                Outcome::Draw => None,
            };
        }
        for depth in 1..=max_plies {
            for player in [game.to_move(), 1 - game.to_move()] {
                self.player = player;
                let wins = self.wins(game, depth);
                if self.stopped {
                    return None;
                }
                if wins {
                    return Some(player);
                }
            }
        }
        None
    }

    /// Whether `self.player` wins from `game` (not over) within `depth` plies.
    fn wins(&mut self, game: &mut G, depth: u32) -> bool {
        self.nodes += 1;
        if self.poller.check(self.nodes).is_err() {
            self.stopped = true;
            return false;
        }
        if (self.bound)(game, self.player) > depth {
            return false;
        }
        let key = SolvedTable::key(game.hash(), self.player);
        let depth16 = u16::try_from(depth).unwrap_or(u16::MAX);
        if let Some(known) = self.table.get(key) {
            if known.wins_within <= depth16 {
                return true;
            }
            if known.fails_within >= depth16 {
                return false;
            }
        }
        let attacking = game.to_move() == self.player;
        let mut moves = game.moves();
        // The side to move settles the position if one of its moves ends the game in its
        // favour; moves that end it against it are dropped.
        let mut open = 0;
        for i in 0..moves.as_ref().len() {
            let mv = moves.as_ref()[i];
            let undo = game.play(mv);
            let outcome = game.outcome();
            game.undo(mv, undo);
            match outcome {
                None => {
                    moves.as_mut()[open] = mv;
                    open += 1;
                }
                Some(outcome) if (outcome == Outcome::Win(self.player)) == attacking => {
                    self.table.put(key, 1, attacking);
                    return attacking;
                }
                Some(_) => {}
            }
        }
        // Without a move that keeps the game going, the side to move has lost (a defender
        // whose every move ends the game in the player's favour: a win in one ply more).
        let mut result = !attacking;
        if depth > 1 {
            let moves = &mut moves.as_mut()[..open];
            (self.order)(game, moves);
            for &mv in moves.iter() {
                let undo = game.play(mv);
                let wins = self.wins(game, depth - 1);
                game.undo(mv, undo);
                if self.stopped {
                    return false;
                }
                if wins == attacking {
                    result = attacking;
                    break;
                }
            }
        } else {
            // One ply left and no immediate win: the player wins only if the defender has
            // no move that keeps the game going (then it has lost already).
            result = !attacking && open == 0;
        }
        self.table.put(key, depth16, result);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{RandomTree, wins};

    #[test]
    fn agrees_with_minimax_with_draws() {
        let mut decided = 0;
        for seed in 1..500u64 {
            let mut tree = RandomTree::new(seed, 9);
            if tree.outcome().is_some() {
                continue;
            }
            let want = [wins(&mut tree, 0), wins(&mut tree, 1)];
            let mut table = SolvedTable::new(5);
            let mut reverse = |_: &RandomTree, moves: &mut [u8]| moves.reverse();
            let mut no_bound = |_: &RandomTree, _: u8| 0;
            let got =
                NullWindow::new(&mut table, &mut reverse, &mut no_bound).winner(&mut tree, 12);
            let expected = want.iter().position(|&w| w).map(|p| p as u8);
            assert_eq!(got, expected, "seed {seed}");
            decided += usize::from(got.is_some());
            assert_eq!(tree.depth(), 0);
        }
        assert!(decided > 100, "{decided}");
    }

    #[test]
    fn a_node_budget_gives_no_answer() {
        let mut tree = RandomTree::new(3, 9);
        let mut table = SolvedTable::new(8);
        let mut keep = |_: &RandomTree, _: &mut [u8]| {};
        let mut no_bound = |_: &RandomTree, _: u8| 0;
        let limits = Limits::default().with_max_nodes(1);
        let got = NullWindow::new(&mut table, &mut keep, &mut no_bound)
            .with_limits(&limits)
            .winner(&mut tree, 12);
        assert_eq!(got, None);
    }
}
