//! The optimal solver: ply-search's IDA* with the dice table, the region relaxation and a
//! transposition table.
//!
//! A node is evaluated in three steps, cheapest first: the dice table ([`DiceBounds`]), the
//! transposition table, then a search of the region relaxation ([`RegionGame`]) from the node
//! with the node's budget; the relaxed optimum is a lower bound on the real one, so a node whose
//! relaxed game cannot finish within the budget is pruned. The path cost of a state is its move number, so a state is identified by its piece cells
//! and move number. When IDA* has searched a state's subtree with `r` moves to spare and found
//! no goal, the state needs more than `r` moves; the table remembers that and returns `r + 1`
//! as the state's heuristic when it is reached again by another order of moves (or in a later
//! iteration), which is admissible and prunes the transposition.

use ply_search::{BoundTable, Filled, IdaProblem, Limits, Prepared, Report, ida_star};

use super::bounds::{DiceBounds, king_distance};
use super::instance::{DICE, Instance};
use super::regions::RegionGame;
use super::rules::{MoveList, Position, SoloMove};

/// What the solo solver adds to its [`Report`]: IDA*'s thresholds, and the work of the
/// region relaxation that evaluated its nodes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SoloExtra {
    /// Every IDA* bound tried, first to last.
    pub thresholds: Vec<u32>,
    /// Nodes of the region relaxation generated to evaluate the real ones.
    pub relaxed_generated: u64,
}

/// The report of [`solve`]: a solution is the fewest moves (possibly none, when the goal
/// piece starts on (0,0)); [`Ending::Unsolvable`](ply_search::Ending::Unsolvable) is proven:
/// the goal piece cannot reach (0,0) within the 30 dice.
pub type SoloReport = Report<SoloMove, SoloExtra>;

/// Entries in the transposition table (a power of two): 16 MiB.
const TABLE_BITS: u32 = 16;

/// The IDA* problem: the position, the dice and the bounds.
struct SoloSearch {
    position: Position,
    goal: u8,
    dice: [u8; DICE],
    bounds: DiceBounds,
    regions: RegionGame,
    table: BoundTable,
    /// The solve's budgets, which also bound the relaxed search at the start.
    limits: Limits,
}

impl SoloSearch {
    /// The state key: piece cells and move number.
    #[inline]
    fn key(&self, i: u8) -> u128 {
        u128::from(self.position.key() << 5 | u64::from(i))
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
            // The start position (asked with no budget): the relaxed optimum itself.
            _ if budget == u32::MAX => bound.max(self.regions.optimum(
                usize::from(i),
                &self.position,
                &self.limits,
            )),
            _ => {
                let probe = self.regions.probe(usize::from(i), &self.position, budget);
                if probe.within {
                    bound
                } else {
                    probe.next_bound
                }
            }
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
        self.bounds.prune_child(
            i,
            self.position.alive_mask(),
            mv.captured,
            goal_cell,
            budget,
        )
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
    let bounds = DiceBounds::new(instance.goal, &instance.dice);
    let mut search = SoloSearch {
        position: instance.position(),
        goal: instance.goal,
        dice: instance.dice,
        regions: RegionGame::new(instance.goal, instance.dice, bounds.clone()),
        bounds,
        table: BoundTable::new(TABLE_BITS),
        limits: limits.clone(),
    };
    let mut report = ida_star(&mut search, limits);
    let thresholds = std::mem::take(&mut report.extra.thresholds);
    report.with_extra(SoloExtra {
        thresholds,
        relaxed_generated: search.regions.generated(),
    })
}
