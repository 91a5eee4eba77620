//! Push generation: every push the player can walk to, and the moves that connect two push
//! states.

use smallvec::SmallVec;

use super::key::Key;
use crate::puzzle::{MAX_CELLS, Puzzle};
use crate::state::{Dir, State};

/// Pushes listed without a heap allocation (a crowded board has more; they spill to the heap).
pub(crate) const LISTED: usize = 48;

/// The moves of a path of push states: each step's walk, then its push.
pub(crate) fn moves_along(puzzle: &Puzzle, path: &[Key]) -> Vec<Dir> {
    let mut moves = Vec::new();
    for pair in path.windows(2) {
        let (walk, push) = connect(puzzle, &pair[0].state(), &pair[1].state());
        moves.extend(walk);
        moves.push(push);
    }
    moves
}

/// Breadth-first walking distances from the player over free cells, with the first step of a
/// shortest path into each cell (for rebuilding the walk); `u8::MAX` where unreachable.
pub(crate) fn walks(puzzle: &Puzzle, state: &State) -> ([u8; MAX_CELLS], [Option<Dir>; MAX_CELLS]) {
    let blocked = puzzle.walls | state.empty | state.full | state.balls;
    let mut dist = [u8::MAX; MAX_CELLS];
    let mut via = [None; MAX_CELLS];
    let mut queue = [0u8; MAX_CELLS];
    let (mut head, mut tail) = (0, 1);
    queue[0] = state.player;
    dist[usize::from(state.player)] = 0;
    while head < tail {
        let cell = usize::from(queue[head]);
        head += 1;
        for dir in Dir::ALL {
            if let Some(next) = puzzle.neighbour(cell, dir)
                && blocked & (1 << next) == 0
                && dist[next] == u8::MAX
            {
                dist[next] = dist[cell] + 1;
                via[next] = Some(dir);
                queue[tail] = next as u8;
                tail += 1;
            }
        }
    }
    (dist, via)
}

/// Walking distances from the player over free cells, `u8::MAX` where unreachable: a
/// breadth-first search run on bit sets, one shift per direction and layer.
pub(crate) fn walk_distances(puzzle: &Puzzle, state: &State) -> [u8; MAX_CELLS] {
    let free = puzzle.board() & !(puzzle.walls | state.empty | state.full | state.balls);
    let mut dist = [u8::MAX; MAX_CELLS];
    dist[usize::from(state.player)] = 0;
    let mut seen = 1u64 << state.player;
    let mut frontier = seen;
    let mut layer = 0;
    while frontier != 0 {
        layer += 1;
        frontier = puzzle.spread(frontier) & free & !seen;
        seen |= frontier;
        let mut cells = frontier;
        while cells != 0 {
            dist[cells.trailing_zeros() as usize] = layer;
            cells &= cells - 1;
        }
    }
    dist
}

/// Every push from `state` after a walk of at most `longest` steps (of any length without
/// it), added to `out`: the state after it and its cost (walk plus push penalty). The walk is
/// a breadth-first search on bit sets, layer by layer; from each layer a push is tried only on
/// the objects next to it whose far side is on the board and not a wall.
pub(crate) fn pushes(
    puzzle: &Puzzle,
    state: &State,
    longest: Option<u32>,
    out: &mut SmallVec<[(Key, u32); LISTED]>,
) {
    let objects = state.empty | state.full | state.balls;
    let free = puzzle.board() & !(puzzle.walls | objects);
    let open = puzzle.board() & !puzzle.walls;
    let mut seen = 0u64;
    let mut layer = 1u64 << state.player;
    let mut walk = 0;
    while layer != 0 {
        seen |= layer;
        for dir in Dir::ALL {
            let mut movable =
                objects & puzzle.shift(layer, dir) & puzzle.shift(open, dir.opposite());
            while movable != 0 {
                let cell = movable.trailing_zeros() as usize;
                movable &= movable - 1;
                let Some(from) = puzzle.neighbour(cell, dir.opposite()) else {
                    continue;
                };
                let at = State {
                    player: from as u8,
                    ..*state
                };
                if let Ok(step) = at.step(puzzle, dir) {
                    out.push((Key::new(&step.state), walk + step.cost));
                }
            }
        }
        if longest.is_some_and(|longest| walk >= longest) {
            break;
        }
        walk += 1;
        layer = puzzle.spread(layer) & free & !seen;
    }
}

/// The walk and push that lead from `from` to `to`, two consecutive push states.
pub(crate) fn connect(puzzle: &Puzzle, from: &State, to: &State) -> (Vec<Dir>, Dir) {
    let (dist, via) = walks(puzzle, from);
    let mut best: Option<(u32, usize, Dir)> = None;
    for (cell, &walk) in dist.iter().enumerate().take(puzzle.cells()) {
        if walk == u8::MAX {
            continue;
        }
        for dir in Dir::ALL {
            let at = State {
                player: cell as u8,
                ..*from
            };
            if let Ok(step) = at.step(puzzle, dir) {
                let cost = u32::from(walk) + step.cost;
                if step.state == *to && best.is_none_or(|b| cost < b.0) {
                    best = Some((cost, cell, dir));
                }
            }
        }
    }
    let (_, mut cell, push) = best.expect("consecutive push states are connected by a push");
    let mut walk = Vec::new();
    while let Some(dir) = via[cell] {
        walk.push(dir);
        cell = puzzle
            .neighbour(cell, dir.opposite())
            .expect("a walk step has a cell behind it");
    }
    walk.reverse();
    (walk, push)
}

#[cfg(test)]
mod tests {
    use crate::solver::testing::{listed, near_the_medium_starts, pushes_by_the_rules};

    #[test]
    fn pushes_are_every_push_by_the_rules_within_the_walk_limit() {
        let mut checked = 0;
        for (puzzle, states) in near_the_medium_starts(3) {
            for state in &states {
                let all = pushes_by_the_rules(&puzzle, state);
                for longest in [None, Some(0), Some(1), Some(3)] {
                    let mut listed = listed(&puzzle, state, longest);
                    listed.sort_unstable_by_key(|&(key, cost)| (key.0, cost));
                    let expected: Vec<_> = all
                        .iter()
                        .filter(|&&(_, _, walk)| longest.is_none_or(|l| walk <= l))
                        .map(|&(key, cost, _)| (key, cost))
                        .collect();
                    assert_eq!(listed, expected);
                    checked += 1;
                }
            }
        }
        assert!(checked > 1000, "{checked} lists checked");
    }
}
