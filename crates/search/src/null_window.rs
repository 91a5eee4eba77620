//! Null-window proving: does a player win from a position against every defence? A
//! depth-first alpha-beta search to the end of the game with the window (loss, win), where
//! every value is a win or not, so that each position is settled by its first refutation.
//!
//! It shares no code with [`proof_number`](crate::proof_number) beyond the [`Game`] rules,
//! so that each can check the other's proofs: positions are searched in the order a hook
//! gives, a position's immediate wins and losses are looked for among all its moves before
//! any is searched deeper (Allis, L. V. (1994), *Searching for solutions in games and
//! artificial intelligence*, PhD thesis, Maastricht: the "threat first" rule of solvers), and
//! solved positions are remembered in a table of exact results (the game must not repeat
//! positions, so a result never depends on the path).

use std::time::Instant;

use crate::game::{Game, Outcome};
use crate::limits::{Limits, Poller};

/// Positions searched between two looks at the clock.
const CLOCK_INTERVAL: u64 = 4096;

/// One table slot: a position's hash and whether the attacker wins there.
#[derive(Clone, Copy, Debug, Default)]
struct Solved {
    key: u64,
    /// 0: empty; 1: the attacker does not win; 2: it wins.
    value: u8,
    /// Positions searched below it (saturating): what it would cost to learn again.
    work: u32,
}

/// A table of solved positions: `2^bits` slots in buckets of two; a new result replaces the
/// one that cost less to find. It holds the results of one attacker: a search for the other
/// player clears it.
#[derive(Clone, Debug)]
pub struct SolvedTable {
    slots: Vec<Solved>,
    mask: usize,
    attacker: Option<u8>,
}

impl SolvedTable {
    /// A table of `2^bits` slots (at least two).
    #[must_use]
    pub fn new(bits: u32) -> Self {
        let size = 1usize << bits.max(1);
        SolvedTable {
            slots: vec![Solved::default(); size],
            mask: size - 2,
            attacker: None,
        }
    }

    /// Forgets every result.
    pub fn clear(&mut self) {
        self.slots.fill(Solved::default());
        self.attacker = None;
    }

    fn get(&self, key: u64) -> Option<bool> {
        let at = key as usize & self.mask;
        self.slots[at..at + 2]
            .iter()
            .find(|s| s.value != 0 && s.key == key)
            .map(|s| s.value == 2)
    }

    fn put(&mut self, key: u64, wins: bool, work: u64) {
        let at = key as usize & self.mask;
        let work = u32::try_from(work).unwrap_or(u32::MAX);
        let bucket = &mut self.slots[at..at + 2];
        let index = if bucket[1].value != 0 && bucket[1].key == key {
            1
        } else if bucket[0].value == 0 || bucket[0].key == key {
            0
        } else if bucket[1].value == 0 {
            1
        } else if bucket[0].work <= bucket[1].work {
            0
        } else {
            1
        };
        bucket[index] = Solved {
            key,
            value: 1 + u8::from(wins),
            work,
        };
    }
}

/// A null-window prover: a table, a move-ordering hook and limits.
pub struct NullWindow<'a, G: Game> {
    table: &'a mut SolvedTable,
    order: &'a mut dyn FnMut(&G, &mut [G::Move]),
    poller: Poller<'static>,
    attacker: u8,
    nodes: u64,
    stopped: bool,
}

impl<'a, G: Game> NullWindow<'a, G> {
    /// A prover remembering its results in `table` and searching moves in the order `order`
    /// leaves them (best first for the side to move), without limits.
    pub fn new(table: &'a mut SolvedTable, order: &'a mut dyn FnMut(&G, &mut [G::Move])) -> Self {
        NullWindow {
            table,
            order,
            poller: Limits::unchecked(),
            attacker: 0,
            nodes: 0,
            stopped: false,
        }
    }

    /// Stops when `limits` run out (nodes are positions searched; time counts from now).
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

    /// Whether `attacker` wins from `game` against every defence (`None`: the limits ran out
    /// first; a draw is not a win).
    pub fn prove(&mut self, game: &mut G, attacker: u8) -> Option<bool> {
        if self.table.attacker != Some(attacker) {
            self.table.clear();
            self.table.attacker = Some(attacker);
        }
        self.attacker = attacker;
        self.stopped = false;
        let wins = self.wins(game);
        (!self.stopped).then_some(wins)
    }

    /// Whether the attacker wins from `game`, a position that is not over.
    fn wins(&mut self, game: &mut G) -> bool {
        self.nodes += 1;
        if self.poller.check(self.nodes).is_err() {
            self.stopped = true;
            return false;
        }
        let key = game.hash();
        if let Some(wins) = self.table.get(key) {
            return wins;
        }
        let start = self.nodes;
        let attacking = game.to_move() == self.attacker;
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
                Some(outcome) if (outcome == Outcome::Win(self.attacker)) == attacking => {
                    self.table.put(key, attacking, 1);
                    return attacking;
                }
                Some(_) => {}
            }
        }
        let moves = &mut moves.as_mut()[..open];
        (self.order)(game, moves);
        // Without a move that keeps the game going, the side to move has lost.
        let mut result = !attacking;
        for &mv in moves.iter() {
            let undo = game.play(mv);
            let wins = self.wins(game);
            game.undo(mv, undo);
            if self.stopped {
                return false;
            }
            if wins == attacking {
                result = attacking;
                break;
            }
        }
        self.table.put(key, result, self.nodes - start + 1);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A random game tree, its leaves won by either player or drawn.
    struct Tree {
        path: Vec<u64>,
    }

    fn mix(mut x: u64) -> u64 {
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }

    impl Game for Tree {
        type Move = u8;
        type Moves = Vec<u8>;
        type Undo = ();
        fn to_move(&self) -> u8 {
            (self.path.len() % 2) as u8
        }
        fn moves(&self) -> Vec<u8> {
            if self.outcome().is_some() {
                return Vec::new();
            }
            (0..=(self.node() % 4) as u8).collect()
        }
        fn play(&mut self, mv: u8) {
            let next = mix(self.node() ^ (u64::from(mv) + 1)) & 0x3ff;
            self.path.push(next | ((self.path.len() as u64) << 10));
        }
        fn undo(&mut self, _: u8, (): ()) {
            self.path.pop();
        }
        fn outcome(&self) -> Option<Outcome> {
            if self.path.len() > 9 || self.node() % 5 == 0 {
                Some(match mix(self.node()) % 3 {
                    0 => Outcome::Draw,
                    w => Outcome::Win(w as u8 - 1),
                })
            } else {
                None
            }
        }
        fn hash(&self) -> u64 {
            mix(self.node())
        }
    }

    impl Tree {
        fn node(&self) -> u64 {
            *self.path.last().expect("root")
        }
    }

    fn minimax(tree: &mut Tree, who: u8) -> bool {
        if let Some(outcome) = tree.outcome() {
            return outcome == Outcome::Win(who);
        }
        let mine = tree.to_move() == who;
        let mut any = false;
        let mut all = true;
        for mv in tree.moves() {
            tree.play(mv);
            let w = minimax(tree, who);
            tree.undo(mv, ());
            any |= w;
            all &= w;
        }
        if mine { any } else { all }
    }

    #[test]
    fn agrees_with_minimax_with_draws() {
        for seed in 1..500u64 {
            for attacker in 0..2 {
                let mut tree = Tree {
                    path: vec![seed & 0x3ff],
                };
                if tree.outcome().is_some() {
                    continue;
                }
                let want = minimax(&mut tree, attacker);
                let mut table = SolvedTable::new(5);
                let mut reverse = |_: &Tree, moves: &mut [u8]| moves.reverse();
                let got = NullWindow::new(&mut table, &mut reverse).prove(&mut tree, attacker);
                assert_eq!(got, Some(want), "seed {seed} attacker {attacker}");
                assert_eq!(tree.path.len(), 1);
            }
        }
    }

    #[test]
    fn a_node_budget_gives_no_answer() {
        let mut tree = Tree { path: vec![3] };
        let mut table = SolvedTable::new(8);
        let mut keep = |_: &Tree, _: &mut [u8]| {};
        let limits = Limits::default().with_max_nodes(1);
        let got = NullWindow::new(&mut table, &mut keep)
            .with_limits(&limits)
            .prove(&mut tree, 0);
        assert_eq!(got, None);
    }
}
