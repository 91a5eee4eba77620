//! Random playouts: the engine's speed figure and the building block of Monte-Carlo agents.

use crate::duel::rules::{Board, Color, FastRng};

/// Plays uniformly random moves from `board` to the end; returns the winner and the number of
/// moves played. The board is left at the final position.
pub(super) fn random_playout(board: &mut Board, rng: &mut FastRng) -> (Color, u32) {
    let mut moves = 0;
    loop {
        if let Some(winner) = board.winner() {
            return (winner, moves);
        }
        let list = board.moves();
        board.play(list[rng.below(list.len())]);
        moves += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn playouts_end_and_are_deterministic() {
        let start = Board::new([0, 1, 2, 3, 4, 5], [5, 4, 3, 2, 1, 0], [2; 21]).unwrap();
        let mut rng = FastRng::new(1);
        let mut again = FastRng::new(1);
        let mut red = 0;
        for _ in 0..1000 {
            let (mut a, mut b) = (start.clone(), start.clone());
            let first = random_playout(&mut a, &mut rng);
            assert_eq!(first, random_playout(&mut b, &mut again));
            assert_eq!(a.winner(), Some(first.0));
            red += u32::from(first.0 == Color::Red);
        }
        assert!((300..700).contains(&red), "{red}");
        let mut rng = FastRng::new(5);
        let mut seen = [0u32; 8];
        for _ in 0..8000 {
            seen[rng.below(8)] += 1;
        }
        assert!(seen.iter().all(|&n| n > 800), "{seen:?}");
    }
}
