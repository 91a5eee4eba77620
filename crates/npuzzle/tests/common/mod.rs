//! Helpers shared by the sliding-tile tests.

use std::collections::{HashMap, VecDeque};

use ply_npuzzle::{Board, Direction};

/// Distances to the goal of every reachable 8-puzzle board (moves are reversible, so a BFS
/// from the goal gives the distance of each board to it).
pub(crate) fn bfs_distances() -> HashMap<Board, u32> {
    let goal = Board::goal(3);
    let mut dist = HashMap::with_capacity(181_440);
    dist.insert(goal, 0);
    let mut queue = VecDeque::from([goal]);
    while let Some(board) = queue.pop_front() {
        let d = dist[&board];
        for dir in Direction::ALL {
            if let Some(next) = board.moved(dir) {
                dist.entry(next).or_insert_with(|| {
                    queue.push_back(next);
                    d + 1
                });
            }
        }
    }
    dist
}
