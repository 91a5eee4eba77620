//! A first answer by subgoals: fill one more box, then the next, each from where the last one
//! left off (a chain of small searches, none of which looks past its own box).
//!
//! A weighted search for the whole solution keeps every open state of every box order, which
//! on boards of ten to fifteen pairs outgrows any budget before it reaches a solution. A
//! subgoal search commits to each box it fills, so it searches a small neighbourhood a box at
//! a time: it is not optimal, and a chain that fills its boxes in a bad order can end in a
//! position no box can be filled from, which the positions it accepts guard against (every
//! subgoal must leave a position whose matching is finite). Decomposing a planning problem
//! into serialised subgoals is the classic trade of optimality for speed (Korf, *Planning as
//! search: a quantitative approach*, Artificial Intelligence 33, 1987); Sokoban solvers fill
//! goals one at a time in the same spirit (Junghanns and Schaeffer, *Sokoban: enhancing
//! general single-agent search methods using domain knowledge*, Artificial Intelligence 129,
//! 2001).

use ply_search::{AStarError, AStarOptions, AStarSolution, AStarStats, GiveUp, Limits, astar_with};

use super::board::Board;
use super::estimate::Estimator;
use super::key::Key;
use super::search::Found;
use crate::bound::Bound;
use crate::puzzle::Puzzle;
use crate::state::State;

/// What a chain of subgoals found, and what it cost.
pub(crate) struct Chain {
    /// The solution, if every subgoal was reached.
    pub(crate) found: Option<Found>,
    /// The states all its searches generated.
    pub(crate) stats: AStarStats,
    /// Why it stopped short, if it did.
    pub(crate) stopped: Option<AStarError>,
}

/// How many times a subgoal's budget grows fourfold before the chain goes back a box.
const WIDENINGS: u32 = 2;

/// One box filled on the way: the position it was filled from, the fills already tried from
/// there, and where the path and the penalty stood before it.
struct Level {
    at: Key,
    tried: Vec<Key>,
    path_len: usize,
    penalty: u32,
    /// How many times its search ran out of states and was given a larger budget.
    widened: u32,
    /// Whether a fill from here must leave the rest possible with the full boxes standing as
    /// walls ([`open_after`]); given up once no such fill is found.
    strict: bool,
}

/// Whether the balls and empty boxes left in `state` can still meet if its full boxes never
/// moved again: a preference, not a bound (full boxes can be pushed, at a price), that keeps
/// the chain from filling a box that blocks the way of a later pair, which the matching of the
/// walls alone cannot see.
fn open_after(puzzle: &Puzzle, state: &State) -> bool {
    if state.empty == 0 {
        return true;
    }
    let walled = Puzzle::new(
        puzzle.rows,
        puzzle.cols,
        puzzle.walls | state.full,
        State { full: 0, ..*state },
    );
    Bound::new(&walled).estimate(&walled.start).is_some()
}

/// Fills the boxes of `board` one at a time: from each position, a weighted search (`weight`
/// times the matching and the walk) for the nearest position with one box fewer empty whose
/// matching is still finite, each within `subgoal_nodes` states and all within `limits`.
/// When no box can be filled from a position, the chain goes back one box and fills another
/// one there (up to `alternatives` a position), so one bad order does not end it. With
/// `prefer_open`, a fill must first leave the rest possible with the full boxes standing
/// still ([`open_after`]), a preference each position gives up when no fill meets it.
pub(crate) fn chain(
    board: &Board<'_>,
    weight: u32,
    subgoal_nodes: u64,
    alternatives: usize,
    prefer_open: bool,
    limits: &Limits,
) -> Chain {
    let started = std::time::Instant::now();
    let mut stats = AStarStats::default();
    let start = Key::new(&board.puzzle.start);
    let mut path = vec![start];
    let mut levels = vec![Level {
        at: start,
        tried: Vec::new(),
        path_len: 1,
        penalty: 0,
        widened: 0,
        strict: prefer_open,
    }];
    let ended = |found, stats, stopped| Chain {
        found,
        stats,
        stopped,
    };
    loop {
        let Some(level) = levels.last_mut() else {
            return ended(None, stats, None);
        };
        if level.at.state().empty == 0 {
            let penalty = level.penalty;
            return ended(Some(Found { path, penalty }), stats, None);
        }
        if level.tried.len() >= alternatives {
            levels.pop();
            continue;
        }
        path.truncate(level.path_len);
        let left = limits.remaining(stats.generated, started.elapsed());
        // A box that needs others moved out of its way needs more states than the first
        // budget: each retry has four times as many, before the chain goes back a box.
        let nodes = subgoal_nodes << (2 * level.widened);
        let capped = left.max_nodes.is_some_and(|n| n <= nodes);
        match fill_one(board, weight, level, &left, nodes) {
            Ok(found) => {
                add(&mut stats, &found.stats);
                let goal = *found.path.last().expect("a path ends somewhere");
                level.tried.push(goal);
                let penalty = level.penalty + found.cost;
                path.extend_from_slice(&found.path[1..]);
                levels.push(Level {
                    at: goal,
                    tried: Vec::new(),
                    path_len: path.len(),
                    penalty,
                    widened: 0,
                    strict: prefer_open,
                });
            }
            Err(reason) => {
                add(&mut stats, reason.stats());
                if let Some(stopped) = give_way(&mut levels, reason, capped) {
                    return ended(None, stats, Some(stopped));
                }
            }
        }
    }
}

/// The weighted search from `level`'s position for the nearest one with a box more filled,
/// the rest still possible as far as the matching can tell, and not a fill this position
/// already led to in vain; within `left` and at most `nodes` states.
fn fill_one(
    board: &Board<'_>,
    weight: u32,
    level: &Level,
    left: &Limits,
    nodes: u64,
) -> Result<AStarSolution<Key, u32>, AStarError> {
    let (puzzle, estimator) = (board.puzzle, Estimator::plain());
    let state = level.at.state();
    let budget = left.max_nodes.map_or(nodes, |n| n.min(nodes));
    let empty = state.empty.count_ones();
    let successors = |key: &Key, g: u32| {
        let mut children = estimator.children(puzzle, &board.bound, &key.state(), g, None);
        for child in &mut children {
            child.2 *= weight;
        }
        children
    };
    let (tried, strict) = (&level.tried, level.strict);
    let reached = |key: &Key| {
        let state = key.state();
        state.empty.count_ones() < empty
            && (state.empty == 0 || board.bound.estimate(&state).is_some())
            && !tried.contains(key)
            && (!strict || open_after(puzzle, &state))
    };
    let h = board.bound.estimate(&state).unwrap_or_default() * weight;
    let options = AStarOptions::new().limits(left.clone().with_max_nodes(budget));
    astar_with(&level.at, h, successors, reached, options)
}

/// What a fill that failed for `reason` means for the chain: with no (other) box to fill
/// from the last position, the preference goes, then the chain goes back one box; a search
/// that ran out of its own states (not `capped` by the caller's) gets a larger budget, up to
/// [`WIDENINGS`] times, then the chain goes back too. Any other reason is the caller's budget,
/// returned for the caller to report.
fn give_way(levels: &mut Vec<Level>, reason: AStarError, capped: bool) -> Option<AStarError> {
    let level = levels.last_mut().expect("the level searched");
    match reason {
        AStarError::NoSolution(_) => {
            if level.strict {
                level.strict = false;
                level.widened = 0;
            } else {
                levels.pop();
            }
        }
        AStarError::GaveUp {
            why: GiveUp::NodeLimit,
            ..
        } if !capped => {
            if level.widened < WIDENINGS {
                level.widened += 1;
            } else {
                levels.pop();
            }
        }
        other => return Some(other),
    }
    None
}

/// Adds `more` to `total`.
fn add(total: &mut AStarStats, more: &AStarStats) {
    total.generated += more.generated;
    total.expanded += more.expanded;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duo::Duo;
    use crate::puzzle::parse_puzzles;
    use crate::solver::pushes::moves_along;
    use crate::solver::search::Techniques;
    use crate::verify::replay;

    fn board(puzzle: &Puzzle) -> Board<'_> {
        let bound = Bound::new(puzzle);
        let start_h = bound.estimate(&puzzle.start).unwrap_or_default();
        Board {
            puzzle,
            bound,
            duo: Duo::new(puzzle),
            start_h,
            techniques: Techniques::default(),
        }
    }

    #[test]
    fn chains_answer_legally_and_most_course_cases() {
        let puzzles = parse_puzzles(include_str!("../../../../data/sokoboru/small.in")).unwrap();
        for prefer_open in [false, true] {
            let mut answered = Vec::new();
            for (at, puzzle) in puzzles.iter().enumerate() {
                let board = board(puzzle);
                let limits = Limits::UNLIMITED.with_max_nodes(500_000);
                let chain = chain(&board, 2, 20_000, 3, prefer_open, &limits);
                let Some(found) = chain.found else { continue };
                let replayed = replay(puzzle, &moves_along(puzzle, &found.path)).unwrap();
                assert_eq!((replayed.left, replayed.penalty), (0, found.penalty));
                answered.push(at + 1);
            }
            assert!(answered.len() >= 7, "{prefer_open}: {answered:?}");
        }
    }

    #[test]
    fn a_fill_that_walls_in_a_later_pair_is_passed_over() {
        // With the box at (3,0) filled by the other ball, a full box stands between the ball
        // above it and the empty box in the corner below, which can then never meet.
        let puzzle = &parse_puzzles("5 3\n-@-\nO--\n---\n$--\n$O-\n").unwrap()[0];
        let walled = State {
            empty: 1 << 12,
            full: 1 << 9,
            balls: 1 << 3,
            player: 1,
        };
        assert!(!open_after(puzzle, &walled));
        assert!(open_after(puzzle, &puzzle.start));
    }
}
