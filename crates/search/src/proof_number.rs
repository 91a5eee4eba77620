//! Depth-first proof-number search (df-pn): [`DfPn`], whose docs give the algorithm and its
//! sources.

use std::time::Instant;

use crate::game::{Game, Outcome};
use crate::limits::{Limits, Poller};

/// A proof or disproof number that stands for "impossible": the position is disproven (for a
/// proof number) or proven (for a disproof number).
pub const PN_INFINITY: u32 = u32::MAX / 2;

/// The largest number of an unsolved position: sums stop here.
const PN_MAX: u32 = PN_INFINITY - 1;

/// Positions searched between two looks at the clock.
const CLOCK_INTERVAL: u64 = 1024;

/// What a game tells the search beyond its rules: positions it can solve without search and
/// estimates of the effort the others need. Every method has a neutral default.
pub trait Knowledge<G: Game> {
    /// The outcome of a position that is not over, under perfect play, if this knowledge
    /// can tell without search (for example: the side to move wins at once). It must be
    /// right: the search trusts it.
    fn solve(&mut self, _game: &G) -> Option<Outcome> {
        None
    }

    /// The outcome of a position that [`Knowledge::solve`] left open, by a costlier check that
    /// the search makes only when it is about to expand the position: most positions the
    /// search generates are never expanded, so a check that costs a search of its own pays
    /// only there (the delayed expansion of KomoringHeights, Shogi's df-pn solver). It must
    /// be right, as `solve` must.
    fn solve_deeply(&mut self, _game: &G) -> Option<Outcome> {
        None
    }

    /// The initial proof and disproof numbers of "the side to move wins" for a position that
    /// is not over and not solved: small where a win looks near, large where it looks far.
    /// Both at least 1.
    fn estimate(&mut self, _game: &G) -> (u32, u32) {
        (1, 1)
    }

    /// Reorders the moves of a position, most promising first (ties between children of equal
    /// numbers go to the earlier move).
    fn order(&mut self, _game: &G, _moves: &mut [G::Move]) {}
}

/// Knowledge borrowed, so that its owner can read what it counted after the search.
impl<G: Game, K: Knowledge<G>> Knowledge<G> for &mut K {
    fn solve(&mut self, game: &G) -> Option<Outcome> {
        (**self).solve(game)
    }
    fn solve_deeply(&mut self, game: &G) -> Option<Outcome> {
        (**self).solve_deeply(game)
    }
    fn estimate(&mut self, game: &G) -> (u32, u32) {
        (**self).estimate(game)
    }
    fn order(&mut self, game: &G, moves: &mut [G::Move]) {
        (**self).order(game, moves);
    }
}

/// No knowledge: only the rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoKnowledge;

impl<G: Game> Knowledge<G> for NoKnowledge {}

/// One table slot.
#[derive(Clone, Copy, Debug)]
struct Slot<M> {
    key: u64,
    proof: u32,
    disproof: u32,
    /// Positions searched below this one when it was stored (saturating): what it would cost
    /// to learn again.
    work: u32,
    best: Option<M>,
    /// The search that stored it (0: empty).
    generation: u8,
}

/// What the table knows of a position: the proof and disproof numbers of the attacker's win
/// and the most proving move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofEntry<M> {
    /// The proof number: 0 once proven, [`PN_INFINITY`] once disproven.
    pub proof: u32,
    /// The disproof number: 0 once disproven, [`PN_INFINITY`] once proven.
    pub disproof: u32,
    /// The move the search would follow: in a proven or disproven position, the winning move
    /// of the side to move, if it wins.
    pub best: Option<M>,
    /// Positions searched below this one.
    pub work: u32,
}

/// The transposition table of df-pn: `2^bits` slots in buckets of four. A new position
/// replaces an empty slot, else one stored by an earlier search, else the one that cost the
/// least work (the small-tree replacement of Breuker, D. M. (1998), *Memory versus search in
/// games*, PhD thesis, Maastricht). The proofs of both attackers live side by side: a
/// position's key is its hash mixed with the attacker and with a context (a variant of the
/// game whose positions hash alike, such as another dice line) that
/// [`ProofTable::set_context`] changes in no time, where clearing would write every slot.
///
/// The table starts small and doubles as a search fills it, up to the size asked for: a
/// proof of a second touches a few megabytes, and a table written whole before it starts
/// (the kernel zeroes every page at its first touch) would cost more than the proof.
#[derive(Clone, Debug)]
pub struct ProofTable<M> {
    slots: Vec<Slot<M>>,
    mask: usize,
    generation: u8,
    context: u64,
    /// The most slots the table may grow to.
    max_slots: usize,
    /// Slots the current search has taken that held no entry of its own before.
    fresh: usize,
}

/// The slots a table starts with (a megabyte or two), unless it may hold fewer.
const FIRST_SLOTS: usize = 1 << 16;

/// Slots per bucket.
const BUCKET: usize = 4;

/// A well-mixed 64-bit value of `x` (splitmix64's finaliser).
fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl<M: Copy> ProofTable<M> {
    /// A table that may grow to `2^bits` slots (at least one bucket).
    ///
    /// # Panics
    /// When the memory cannot be had ([`ProofTable::try_new`] says so instead).
    #[must_use]
    pub fn new(bits: u32) -> Self {
        Self::try_new(bits).expect("memory for the proof table")
    }

    /// A table that may grow to `2^bits` slots (at least one bucket), or the allocation's
    /// error when a size beyond the address space is asked for, or the first slots cannot be
    /// had. A later growth the system refuses leaves the table at the size it has.
    ///
    /// # Errors
    /// [`TryReserveError`](std::collections::TryReserveError) when the allocation fails.
    pub fn try_new(bits: u32) -> Result<Self, std::collections::TryReserveError> {
        let max_slots = 1usize
            .checked_shl(bits.max(2))
            .filter(|&size| size.checked_mul(std::mem::size_of::<Slot<M>>()).is_some())
            .unwrap_or(usize::MAX);
        // A size the system would not give is refused now, not when the table grows: the
        // whole table is asked for once (address space only: nothing is written) and given
        // back.
        Vec::<Slot<M>>::new().try_reserve_exact(max_slots)?;
        let slots = Self::empty_slots(max_slots.min(FIRST_SLOTS))?;
        Ok(ProofTable {
            mask: slots.len() - BUCKET,
            slots,
            generation: 1,
            context: 0,
            max_slots,
            fresh: 0,
        })
    }

    /// `size` empty slots, or the allocation's error.
    fn empty_slots(size: usize) -> Result<Vec<Slot<M>>, std::collections::TryReserveError> {
        let mut slots = Vec::new();
        slots.try_reserve_exact(size)?;
        // Read at random: huge pages spare most of the TLB misses.
        crate::memory::advise_huge_pages(slots.spare_capacity_mut());
        slots.resize(
            size,
            Slot {
                key: 0,
                proof: 0,
                disproof: 0,
                work: 0,
                best: None,
                generation: 0,
            },
        );
        Ok(slots)
    }

    /// Doubles the table, keeping every entry (their keys are whole, so each finds its slot
    /// in the larger table); stays as it is when the memory cannot be had.
    #[cold]
    fn grow(&mut self) {
        let Some(size) = self
            .slots
            .len()
            .checked_mul(2)
            .filter(|&size| size <= self.max_slots)
        else {
            return;
        };
        let Ok(slots) = Self::empty_slots(size) else {
            self.max_slots = self.slots.len();
            return;
        };
        let old = std::mem::replace(&mut self.slots, slots);
        self.mask = size - BUCKET;
        for slot in old.into_iter().filter(|s| s.generation != 0) {
            let at = slot.key as usize & self.mask;
            let bucket = &mut self.slots[at..at + BUCKET];
            // A bucket of the larger table holds what two of the smaller one held: the
            // entries of one of them at most, so there is room (a full bucket keeps the
            // more recent and costlier entries, as `store` would).
            let index = (0..BUCKET)
                .min_by_key(|&i| {
                    let s = &bucket[i];
                    (
                        s.generation != 0,
                        s.generation == slot.generation,
                        s.work,
                        s.key,
                    )
                })
                .expect("a bucket has slots");
            bucket[index] = slot;
        }
    }

    /// The `bits` of the largest table that fits in `bytes` (at least one bucket).
    #[must_use]
    pub fn bits_for(bytes: usize) -> u32 {
        let slots = (bytes / std::mem::size_of::<Slot<M>>()).max(BUCKET);
        slots.ilog2()
    }

    /// The bytes the table takes now.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot<M>>()
    }

    /// The bytes the table may grow to.
    #[must_use]
    pub fn max_bytes(&self) -> usize {
        self.max_slots
            .saturating_mul(std::mem::size_of::<Slot<M>>())
    }

    /// Forgets every position and gives back what the table grew to: the next search finds
    /// it as a new table, whatever was searched before.
    pub fn reset(&mut self) {
        let first = FIRST_SLOTS.min(self.max_slots);
        if self.slots.len() > first
            && let Ok(slots) = Self::empty_slots(first)
        {
            self.mask = slots.len() - BUCKET;
            self.slots = slots;
        }
        self.clear();
        self.context = 0;
        self.fresh = 0;
    }

    /// Forgets every position (writing every slot).
    pub fn clear(&mut self) {
        for slot in &mut self.slots {
            slot.generation = 0;
        }
        self.generation = 1;
    }

    /// Switches to the positions of `context`: those stored under another context are no
    /// longer found (a 64-bit key match aside) and give way first to new ones.
    pub fn set_context(&mut self, context: u64) {
        if context != self.context {
            self.context = context;
            self.next_generation();
        }
    }

    /// The slot key of the position with hash `hash` for `attacker`.
    #[inline]
    fn key(&self, hash: u64, attacker: u8) -> u64 {
        hash ^ mix(self.context ^ mix(u64::from(attacker)))
    }

    /// What the table knows of the position with hash `hash`, for `attacker`.
    #[must_use]
    pub fn get(&self, hash: u64, attacker: u8) -> Option<ProofEntry<M>> {
        let key = self.key(hash, attacker);
        let at = key as usize & self.mask;
        self.slots[at..at + BUCKET]
            .iter()
            .find(|s| s.generation != 0 && s.key == key)
            .map(|s| ProofEntry {
                proof: s.proof,
                disproof: s.disproof,
                best: s.best,
                work: s.work,
            })
    }

    /// A new search: its entries take precedence over the earlier ones.
    fn next_generation(&mut self) {
        self.fresh = 0;
        if self.generation == u8::MAX {
            // Counting on would make entries 255 searches old look like the new search's:
            // a search after a new context would then keep other entries than a new
            // table's, and count other nodes.
            self.clear();
        } else {
            self.generation += 1;
        }
    }

    #[inline]
    fn probe(&self, key: u64) -> Option<(u32, u32)> {
        let at = key as usize & self.mask;
        self.slots[at..at + BUCKET]
            .iter()
            .find(|s| s.generation != 0 && s.key == key)
            .map(|s| (s.proof, s.disproof))
    }

    fn store(&mut self, key: u64, proof: u32, disproof: u32, best: Option<M>, work: u64) {
        let at = key as usize & self.mask;
        let generation = self.generation;
        let bucket = &mut self.slots[at..at + BUCKET];
        let index = bucket
            .iter()
            .position(|s| s.generation != 0 && s.key == key)
            .unwrap_or_else(|| {
                // Empty first, then an earlier search's, then the least work.
                (0..BUCKET)
                    .min_by_key(|&i| {
                        let s = &bucket[i];
                        // The key last: the victim does not depend on the slots' order,
                        // which depends on what the bucket held before.
                        (s.generation != 0, s.generation == generation, s.work, s.key)
                    })
                    .expect("a bucket has slots")
            });
        let taken = bucket[index].generation != generation;
        bucket[index] = Slot {
            key,
            proof,
            disproof,
            work: u32::try_from(work).unwrap_or(u32::MAX),
            best,
            generation,
        };
        // A quarter full of this search's entries: larger, before buckets overflow (at a
        // quarter, one bucket in a few hundred has more than its four slots asked for).
        self.fresh += usize::from(taken);
        if self.fresh > self.slots.len() / 4 && self.slots.len() < self.max_slots {
            self.grow();
        }
    }
}

/// The result of a proof search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProofResult<M> {
    /// `Some(true)`: the attacker wins against every defence; `Some(false)`: it does not
    /// (the defender wins, or draws); `None`: the limits ran out first.
    pub proven: Option<bool>,
    /// In a solved position, the winning move of the side to move if it wins; else the move
    /// the search found most promising for the side to move.
    pub best: Option<M>,
    /// The root's proof number (0 once proven).
    pub proof: u32,
    /// The root's disproof number (0 once disproven).
    pub disproof: u32,
    /// Positions searched (expanded).
    pub nodes: u64,
}

/// One child of a position being searched.
#[derive(Clone, Copy, Debug)]
struct Child<M> {
    mv: M,
    key: u64,
    proof: u32,
    disproof: u32,
    /// Whether the child is neither over nor solved by the knowledge, so that the table may
    /// know it, and the costlier check of the knowledge ([`Knowledge::solve_deeply`]) is
    /// still to be made before it is expanded.
    unchecked: bool,
}

/// A df-pn search: the table, the knowledge and the limits.
///
/// Depth-first proof-number search (df-pn) proves whether a player wins a deterministic
/// two-player game from a position, against every defence.
///
/// Proof-number search (Allis, L. V., van der Meulen, M. and van den Herik, H. J. (1994),
/// *Proof-number search*, Artificial Intelligence 66(1)) grows the tree where the fewest
/// leaves remain to be proven (the proof number) or disproven (the disproof number); df-pn
/// (Nagai, A. (2002), *Df-pn algorithm for searching AND/OR trees and its applications*, PhD
/// thesis, University of Tokyo) does the same depth-first with thresholds, keeping what it
/// learns in a transposition table ([`ProofTable`]) instead of a tree. Two refinements: the
/// thresholds of the most proving child grow by a quarter instead of one (the 1 + epsilon
/// trick of Pawlewicz, J. and Lew, L. (2007), *Improving depth-first PN-search: 1 + epsilon
/// trick*, Computers and Games), and unexpanded positions start from a game-specific estimate
/// instead of 1 and 1 (df-pn+, Nagai's thesis), with game [`Knowledge`] that proves positions
/// without search.
///
/// The search is for games whose positions cannot repeat (a move that returns to an earlier
/// position would make the table's numbers count a path twice, the graph-history interaction
/// this search does not handle); a draw counts as a failure of the attacker.
pub struct DfPn<'a, G: Game, K> {
    table: &'a mut ProofTable<G::Move>,
    knowledge: K,
    poller: Poller<'static>,
    attacker: u8,
    nodes: u64,
    stopped: bool,
    /// One child list per height, reused.
    children: Vec<Vec<Child<G::Move>>>,
}

impl<'a, G: Game, K: Knowledge<G>> DfPn<'a, G, K> {
    /// A search keeping its proofs in `table`, using `knowledge`, without limits.
    pub fn new(table: &'a mut ProofTable<G::Move>, knowledge: K) -> Self {
        DfPn {
            table,
            knowledge,
            poller: Limits::unchecked(),
            attacker: 0,
            nodes: 0,
            stopped: false,
            children: Vec::new(),
        }
    }

    /// Stops when `limits` run out (nodes are positions expanded; time counts from now), or
    /// once their [`StopFlag`](crate::StopFlag) is raised (looked at every few thousand
    /// positions, with the clock).
    #[must_use]
    pub fn with_limits(mut self, limits: &Limits) -> Self {
        self.poller = limits.poller(Instant::now(), CLOCK_INTERVAL);
        self
    }

    /// The knowledge, for its statistics.
    pub fn knowledge(&mut self) -> &mut K {
        &mut self.knowledge
    }

    /// Positions expanded so far by this search.
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Proves or disproves that `attacker` wins from `game`, within the limits. The table
    /// keeps what was learnt for later searches of the same attacker.
    pub fn prove(&mut self, game: &mut G, attacker: u8) -> ProofResult<G::Move> {
        self.table.next_generation();
        self.attacker = attacker;
        self.stopped = false;
        let start = self.nodes;
        // The root is expanded even when the knowledge could solve it, for its best move.
        let (proof, disproof) = match game.outcome() {
            Some(outcome) if outcome == Outcome::Win(attacker) => (0, PN_INFINITY),
            Some(_) => (PN_INFINITY, 0),
            None => self.mid(game, PN_INFINITY, PN_INFINITY, 0),
        };
        let proven = if proof == 0 {
            Some(true)
        } else if disproof == 0 {
            Some(false)
        } else {
            None
        };
        let best = self.table.get(game.hash(), attacker).and_then(|e| e.best);
        ProofResult {
            proven,
            best,
            proof,
            disproof,
            nodes: self.nodes - start,
        }
    }

    /// The numbers of "the attacker wins" for `outcome`.
    fn numbers_of(&self, outcome: Outcome) -> (u32, u32) {
        if outcome == Outcome::Win(self.attacker) {
            (0, PN_INFINITY)
        } else {
            (PN_INFINITY, 0)
        }
    }

    /// The numbers of a child just reached, before the table is asked, and whether it still
    /// needs the table and the costlier check: solved (the game's end or the knowledge's
    /// solution, never looked up again), or estimated.
    #[inline]
    fn evaluate(&mut self, game: &G) -> (u32, u32, bool) {
        let outcome = match game.outcome() {
            Some(outcome) => Some(outcome),
            None => self.knowledge.solve(game),
        };
        if let Some(outcome) = outcome {
            let (p, d) = self.numbers_of(outcome);
            return (p, d, false);
        }
        let (p, d) = self.knowledge.estimate(game);
        let (p, d) = (p.clamp(1, PN_MAX), d.clamp(1, PN_MAX));
        if game.to_move() == self.attacker {
            (p, d, true)
        } else {
            (d, p, true)
        }
    }

    /// Multiple iterative deepening: searches below `game` until its proof number reaches
    /// `limit_p` or its disproof number `limit_d`, and returns them.
    fn mid(&mut self, game: &mut G, limit_p: u32, limit_d: u32, height: usize) -> (u32, u32) {
        self.nodes += 1;
        if self.poller.check(self.nodes).is_err() {
            self.stopped = true;
        }
        let start = self.nodes;
        let attacking = game.to_move() == self.attacker;
        if self.children.len() <= height {
            self.children.resize_with(height + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.children[height]);
        self.expand(game, attacking, &mut children);
        let key = self.table.key(game.hash(), self.attacker);
        let (mut proof, mut disproof);
        let mut best;
        loop {
            let numbers = Numbers::of(&children, attacking);
            (proof, disproof) = (numbers.proof, numbers.disproof);
            best = children.get(numbers.first).map(|c| c.mv);
            if proof >= limit_p || disproof >= limit_d || self.stopped {
                break;
            }
            let first = numbers.first;
            let child = children[first];
            if child.unchecked {
                children[first].unchecked = false;
                if let Some((p, d)) = self.check_deeply(game, child.mv) {
                    children[first].proof = p;
                    children[first].disproof = d;
                    continue;
                }
            }
            // The most promising child's limits: its own number may grow to the second
            // best's and a quarter (1 + epsilon), its other number by what the rest leave.
            let second = numbers.second;
            let grown = second.saturating_add((second / 4).max(1)).min(PN_INFINITY);
            let (child_p, child_d) = if attacking {
                (
                    limit_p.min(grown),
                    limit_d.saturating_sub(disproof - child.disproof),
                )
            } else {
                (
                    limit_p.saturating_sub(proof - child.proof),
                    limit_d.min(grown),
                )
            };
            let undo = game.play(child.mv);
            let (p, d) = self.mid(game, child_p, child_d, height + 1);
            game.undo(child.mv, undo);
            children[first].proof = p;
            children[first].disproof = d;
        }
        if !self.stopped {
            self.table
                .store(key, proof, disproof, best, self.nodes - start + 1);
        }
        self.children[height] = children;
        (proof, disproof)
    }

    /// Fills `children` with every move of `game`, in the knowledge's order, each with its
    /// numbers: solved, from the table, or estimated (stopping at a move that wins for the
    /// side to move).
    #[inline]
    fn expand(&mut self, game: &mut G, attacking: bool, children: &mut Vec<Child<G::Move>>) {
        children.clear();
        let mut moves = game.moves();
        self.knowledge.order(game, moves.as_mut());
        for &mv in moves.as_ref() {
            let undo = game.play(mv);
            let key = self.table.key(game.hash(), self.attacker);
            let (proof, disproof, unchecked) = self.evaluate(game);
            game.undo(mv, undo);
            children.push(Child {
                mv,
                key,
                proof,
                disproof,
                unchecked,
            });
            // A winning move for the side to move settles the position.
            if (attacking && proof == 0) || (!attacking && disproof == 0) {
                break;
            }
        }
        // What the table knows of the children replaces the estimates: asked in one loop of
        // independent look-ups, whose cache misses the processor overlaps. A child the table
        // knows was expanded before, so its costlier check was made then.
        for child in children.iter_mut().filter(|c| c.unchecked) {
            if let Some((p, d)) = self.table.probe(child.key) {
                child.proof = p;
                child.disproof = d;
                child.unchecked = false;
            }
        }
    }

    /// The knowledge's costlier check of the child after `mv`, made just before the child
    /// is expanded: its numbers if the check solves it. A position it solves is not cached
    /// apart: its parent's numbers, stored in the table, carry the result, and a cache of its
    /// own costs more than checking again.
    #[inline]
    fn check_deeply(&mut self, game: &mut G, mv: G::Move) -> Option<(u32, u32)> {
        let undo = game.play(mv);
        let solved = self.knowledge.solve_deeply(game);
        game.undo(mv, undo);
        solved.map(|outcome| {
            if outcome == Outcome::Win(self.attacker) {
                (0, PN_INFINITY)
            } else {
                (PN_INFINITY, 0)
            }
        })
    }
}

/// A node's numbers from its children's, and the two most promising children for the side
/// to move.
struct Numbers {
    proof: u32,
    disproof: u32,
    /// The most promising child (`usize::MAX` without children).
    first: usize,
    /// The second best child's own number (`PN_INFINITY` without one).
    second: u32,
}

impl Numbers {
    /// For the side to move, a child's "own" number is the one it minimises (the attacker:
    /// proof; the defender: disproof), and the other is summed: the side to move wins if one
    /// child is won for it, loses if all are lost.
    #[inline]
    fn of<M>(children: &[Child<M>], attacking: bool) -> Numbers {
        let (mut first, mut second) = (usize::MAX, PN_INFINITY);
        let mut first_value = PN_INFINITY;
        let mut sum: u32 = 0;
        for (i, child) in children.iter().enumerate() {
            let (own, other) = if attacking {
                (child.proof, child.disproof)
            } else {
                (child.disproof, child.proof)
            };
            sum = sum.saturating_add(other);
            if first == usize::MAX || own < first_value {
                second = first_value;
                first_value = own;
                first = i;
            } else if own < second {
                second = own;
            }
        }
        let (own, other) = if first_value == 0 {
            (0, PN_INFINITY)
        } else if first_value >= PN_INFINITY {
            (PN_INFINITY, 0)
        } else {
            (first_value, sum.min(PN_MAX))
        };
        let (proof, disproof) = if attacking {
            (own, other)
        } else {
            (other, own)
        };
        Numbers {
            proof,
            disproof,
            first,
            second,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{RandomTree, wins};

    #[test]
    fn agrees_with_minimax_on_random_trees_with_draws() {
        for seed in 0..400u64 {
            for attacker in 0..2 {
                let mut tree = RandomTree::new(seed, 9);
                let want = wins(&mut tree, attacker);
                let mut table = ProofTable::new(6 + (seed % 8) as u32);
                let result = DfPn::new(&mut table, NoKnowledge).prove(&mut tree, attacker);
                assert_eq!(result.proven, Some(want), "seed {seed} attacker {attacker}");
                assert_eq!(tree.depth(), 0, "every move undone");
                if want && tree.to_move() == attacker && tree.outcome().is_none() {
                    let mv = result.best.expect("a winning move");
                    tree.play(mv);
                    assert!(wins(&mut tree, attacker), "seed {seed}: the move wins");
                }
            }
        }
    }

    #[test]
    fn one_table_holds_both_attackers_and_contexts() {
        // One small table for every tree and both attackers: entries of the other attacker
        // or of an earlier context must never answer for these.
        let mut table = ProofTable::new(8);
        for seed in 0..300u64 {
            table.set_context(seed / 7);
            for attacker in [(seed % 2) as u8, 1 - (seed % 2) as u8] {
                let mut tree = RandomTree::new(seed, 9);
                let want = wins(&mut tree, attacker);
                let result = DfPn::new(&mut table, NoKnowledge).prove(&mut tree, attacker);
                assert_eq!(result.proven, Some(want), "seed {seed} attacker {attacker}");
            }
        }
    }

    #[test]
    fn a_table_in_a_new_context_keeps_what_a_new_table_keeps() {
        // One bucket of four slots. `used` holds entries of other contexts, the last of them
        // 255 searches back (the generation counter's period); then both tables store the
        // same six positions of equal work, so that the bucket overflows with ties.
        let keys: Vec<u64> = (1..=6).map(|k| k * 1000).collect();
        let found = |table: &ProofTable<u8>| -> Vec<bool> {
            keys.iter().map(|&k| table.probe(k).is_some()).collect()
        };
        let mut fresh = ProofTable::<u8>::new(2);
        let mut used = ProofTable::<u8>::new(2);
        for (i, work) in [(1u64, 9u64), (2, 3), (3, 7), (4, 5)] {
            used.set_context(i);
            used.store(i, 1, 1, None, work);
        }
        for context in 5..5 + 255 {
            used.set_context(context);
        }
        fresh.set_context(1_000);
        for table in [&mut fresh, &mut used] {
            for &key in &keys {
                table.store(key, 1, 1, None, 4);
            }
        }
        assert_eq!(found(&used), found(&fresh));
        assert_eq!(found(&fresh).iter().filter(|&&f| f).count(), 4);
    }

    /// A table grows as a search fills it, keeps every entry when it does, and stops at the
    /// size asked for.
    #[test]
    fn a_table_grows_to_what_a_search_stores_and_no_further() {
        let mut table = ProofTable::<u8>::new(20);
        let first = table.bytes();
        assert!(first < table.max_bytes());
        let keys: Vec<u64> = (1..=200_000u64).map(mix).collect();
        for (i, &key) in keys.iter().enumerate() {
            table.store(key, i as u32, 7, Some(3), 1);
        }
        assert!(table.bytes() > first);
        assert!(table.bytes() <= table.max_bytes());
        let kept = keys
            .iter()
            .enumerate()
            .filter(|&(i, &key)| table.probe(key) == Some((i as u32, 7)))
            .count();
        // A quarter full at most before each doubling: hardly a bucket overflowed.
        assert!(kept > 198_000, "{kept}");
        let mut small = ProofTable::<u8>::new(12);
        for &key in &keys {
            small.store(key, 1, 1, None, 1);
        }
        assert_eq!(small.bytes(), small.max_bytes());
    }

    #[test]
    fn a_node_budget_leaves_the_question_open() {
        let mut tree = RandomTree::new(5, 30);
        let mut table = ProofTable::new(10);
        let limits = Limits::default().with_max_nodes(10);
        let result = DfPn::new(&mut table, NoKnowledge)
            .with_limits(&limits)
            .prove(&mut tree, 0);
        if result.proven.is_none() {
            assert!(result.proof > 0 && result.disproof > 0);
        }
        assert!(result.nodes <= 11, "{}", result.nodes);
    }
}
