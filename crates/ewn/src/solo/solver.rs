//! The optimal solver: ply-search's IDA* with the dice bounds and a transposition table.
//!
//! The path cost of a state is its move number, so a state is identified by its piece cells
//! and move number. When IDA* has searched a state's subtree with `r` moves to spare and found
//! no goal, the state needs more than `r` moves; the table remembers that and returns `r + 1`
//! as the state's heuristic when it is reached again by another order of moves (or in a later
//! iteration), which is admissible and prunes the transposition.

use std::time::Duration;

use ply_search::{Filled, IdaOutcome, IdaProblem, Limits, Prepared, ida_star};

use super::bounds::{DiceBounds, RefinedBounds, king_distance};
use super::instance::{DICE, Instance};
use super::rules::{MoveList, Position, SoloMove};

/// How a solve ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SoloOutcome {
    /// An optimal solution (possibly empty when the goal piece starts on (0,0)).
    Solved(Vec<SoloMove>),
    /// Proven: the goal piece cannot reach (0,0) within the 30 dice.
    NoSolution,
    /// A budget ran out before anything was proven.
    GaveUp(ply_search::GiveUp),
}

/// The result of [`solve`] with its counters.
#[derive(Clone, Debug)]
pub struct SoloReport {
    /// How the solve ended.
    pub outcome: SoloOutcome,
    /// The lower bound of the start position.
    pub initial_bound: u32,
    /// Every IDA* bound tried.
    pub thresholds: Vec<u32>,
    /// Nodes generated.
    pub generated: u64,
    /// Nodes expanded.
    pub expanded: u64,
    /// Search time.
    pub elapsed: Duration,
}

/// Entries in the transposition table (a power of two): 32 MiB of `u64`.
const TABLE_BITS: u32 = 22;
/// Slots probed per lookup.
const PROBES: usize = 4;

/// A transposition table of "needs more than `r` moves" facts, keyed exactly.
///
/// Each entry packs the 47-bit state key (piece cells and move number) and `r + 1` (6 bits);
/// zero is an empty slot.
struct Transpositions {
    slots: Vec<u64>,
}

impl Transpositions {
    fn new() -> Self {
        Transpositions {
            slots: vec![0; 1 << TABLE_BITS],
        }
    }

    #[inline]
    fn home(key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - TABLE_BITS)) as usize
    }

    /// The largest `r` recorded for `key`, if any.
    #[inline]
    fn get(&self, key: u64) -> Option<u32> {
        let home = Self::home(key);
        (0..PROBES).find_map(|k| {
            let entry = self.slots[(home + k) & ((1 << TABLE_BITS) - 1)];
            (entry != 0 && entry >> 6 == key).then(|| (entry & 63) as u32 - 1)
        })
    }

    /// Records that `key` needs more than `room` moves.
    #[inline]
    fn put(&mut self, key: u64, room: u32) {
        let entry = key << 6 | u64::from(room.min(62) + 1);
        let home = Self::home(key);
        let mut victim = home;
        for k in 0..PROBES {
            let slot = (home + k) & ((1 << TABLE_BITS) - 1);
            let old = self.slots[slot];
            if old == 0 || old >> 6 == key {
                if old & 63 < entry & 63 {
                    self.slots[slot] = entry;
                }
                return;
            }
            if k == 0 || old & 63 < self.slots[victim] & 63 {
                victim = slot;
            }
        }
        // Replace the least informative fact among the probed slots.
        self.slots[victim] = entry;
    }
}

/// The IDA* problem: the position, the dice and the bounds.
struct SoloSearch {
    position: Position,
    goal: u8,
    dice: [u8; DICE],
    bounds: DiceBounds,
    refined: RefinedBounds,
    table: Transpositions,
}

impl SoloSearch {
    /// The state key: piece cells and move number.
    #[inline]
    fn key(&self, i: u8) -> u64 {
        self.position.key() << 5 | u64::from(i)
    }

    /// The dice bound of the current position at move `i`.
    #[inline]
    fn bound(&self, i: u8) -> u32 {
        match self.position.cell(self.goal) {
            None => u32::MAX,
            Some(cell) => self.bounds.get(
                usize::from(i),
                self.position.alive_mask(),
                king_distance(cell),
            ),
        }
    }
}

impl IdaProblem for SoloSearch {
    type Move = SoloMove;
    type Moves = Filled<MoveList>;
    /// The move number.
    type Node = u8;

    fn root(&mut self) -> u8 {
        0
    }

    #[inline]
    fn heuristic(&mut self, i: u8, budget: u32) -> u32 {
        let bound = self.bound(i);
        if bound > budget {
            return bound;
        }
        let known = match self.table.get(self.key(i)) {
            Some(room) if room >= budget => room + 1,
            _ => bound.max(self.refined.get(
                self.goal,
                &self.dice,
                usize::from(i),
                &self.position,
                budget,
            )),
        };
        // No game lasts beyond the last die: a bound past it proves there is no solution.
        if usize::from(i).saturating_add(known as usize) > DICE {
            u32::MAX
        } else {
            known
        }
    }

    /// Prunes with the table bound before playing the move; children it keeps are played and
    /// evaluated fully (transpositions, positional bound) by `heuristic`.
    #[inline]
    fn lookahead(&mut self, i: u8, mv: SoloMove, budget: u32) -> Option<Prepared<u8>> {
        if mv.captured == self.goal {
            return Some(Prepared {
                node: i + 1,
                cost: 1,
                bound: u32::MAX,
            });
        }
        let goal_cell = if mv.piece == self.goal {
            mv.to
        } else {
            self.position.cell(self.goal)?
        };
        let mut alive = self.position.alive_mask();
        if mv.captured != 0 {
            alive &= !(1 << (mv.captured - 1));
        }
        let bound = self
            .bounds
            .get(usize::from(i) + 1, alive, king_distance(goal_cell));
        (bound > budget).then_some(Prepared {
            node: i + 1,
            cost: 1,
            bound,
        })
    }

    #[inline]
    fn is_goal(&self, _i: u8) -> bool {
        self.position.cell(self.goal) == Some(0)
    }

    fn moves(&self, i: u8, _last: Option<SoloMove>) -> Filled<MoveList> {
        let i = usize::from(i);
        if i >= DICE {
            return Filled(MoveList::default());
        }
        let mut moves = self.position.legal_moves(self.dice[i]);
        let goal = self.goal;
        // Goal steps that gain ground first, then captures, then the rest; moves that capture
        // the goal piece lose and are searched last (their bound is infinite).
        moves.sort_by_score(|m| {
            if m.captured == goal {
                -100
            } else if m.piece == goal {
                40 - 2 * king_distance(m.to) as i32 + 2 * king_distance(m.from) as i32
            } else if m.captured != 0 {
                20
            } else {
                0
            }
        });
        Filled(moves)
    }

    #[inline]
    fn apply(&mut self, i: u8, mv: SoloMove) -> (u8, u32) {
        self.position.play(mv);
        (i + 1, 1)
    }

    #[inline]
    fn undo(&mut self, _i: u8, mv: SoloMove, _child: u8) {
        self.position.unplay(mv);
    }

    #[inline]
    fn exhausted(&mut self, i: u8, budget: u32) {
        let key = self.key(i);
        self.table.put(key, budget);
    }
}

/// Solves `instance` optimally (the fewest moves), or proves it has no solution.
#[must_use]
pub fn solve(instance: &Instance, limits: Limits) -> SoloReport {
    let mut search = SoloSearch {
        position: instance.position(),
        goal: instance.goal,
        dice: instance.dice,
        bounds: DiceBounds::new(instance.goal, &instance.dice),
        refined: RefinedBounds::new(&instance.dice),
        table: Transpositions::new(),
    };
    let report = ida_star(&mut search, limits);
    let outcome = match report.outcome {
        IdaOutcome::Solved { path, .. } => SoloOutcome::Solved(path),
        IdaOutcome::NoSolution => SoloOutcome::NoSolution,
        IdaOutcome::GaveUp(why) => SoloOutcome::GaveUp(why),
    };
    SoloReport {
        outcome,
        initial_bound: report.initial_estimate,
        thresholds: report.thresholds,
        generated: report.generated,
        expanded: report.expanded,
        elapsed: report.elapsed,
    }
}
