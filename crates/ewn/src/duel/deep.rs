//! ply's strongest duel agent: deep alpha-beta over the known dice.

use std::time::{Duration, Instant};

use ply_search::{AlphaBetaResult, Searcher, TranspositionTable};

use super::agent::{Agent, deadline_after, limits_until, race_value};
use super::rules::{Board, Color, DICE, DuelMove};

/// log2 of the table's entries: 4 M entries, about 100 MB (the course allows 1 GiB).
const TABLE_BITS: u32 = 22;

/// The deepest the search goes (games are far shorter).
const MAX_DEPTH: u32 = 128;

/// Iterative-deepening alpha-beta with the race evaluation ([`race_value`]), wins and losses
/// valued by their distance (the quickest win; when lost, the longest resistance), and one
/// transposition table kept for the whole game (positions recur from move to move; the
/// table's keys hold the ply modulo 42, and the table is cleared when the dice change).
pub struct DeepAgent {
    move_time: Duration,
    table: TranspositionTable<DuelMove>,
    dice: Option<[u8; DICE]>,
}

impl DeepAgent {
    /// An agent that answers within `move_time` of the opponent's move.
    #[must_use]
    pub fn new(move_time: Duration) -> Self {
        DeepAgent {
            move_time,
            table: TranspositionTable::new(TABLE_BITS),
            dice: None,
        }
    }

    /// The time per move.
    #[must_use]
    pub fn move_time(&self) -> Duration {
        self.move_time
    }

    /// The move for `board` searched until `deadline` (depth 1 always completes); its value
    /// for the side to move and the deepest depth completed.
    pub fn search_until(&mut self, board: &Board, deadline: Instant) -> (DuelMove, i32, u32) {
        self.search_by(board, Some(deadline))
    }

    /// The answer to the turn that began at `received`: the move searched for the agent's
    /// move time from then (with no deadline when the clock cannot represent its end), its
    /// value and the deepest depth completed.
    pub fn answer(&mut self, board: &Board, received: Instant) -> (DuelMove, i32, u32) {
        self.search_by(board, deadline_after(received, self.move_time))
    }

    /// The agent's search of `board` to `depth` plies at most, with no deadline (it stops
    /// early only on a proven result), and the table kept as in a game: the same search a
    /// move runs, to a fixed depth, for analysis and for node-count signatures.
    pub fn search_depth(&mut self, board: &Board, depth: u32) -> AlphaBetaResult<DuelMove> {
        self.search(board, depth, None)
    }

    fn search_by(&mut self, board: &Board, deadline: Option<Instant>) -> (DuelMove, i32, u32) {
        let result = self.search(board, MAX_DEPTH, deadline);
        let best = result.best.unwrap_or_else(|| board.moves()[0]);
        (best, result.value, result.depth)
    }

    fn search(
        &mut self,
        board: &Board,
        depth: u32,
        deadline: Option<Instant>,
    ) -> AlphaBetaResult<DuelMove> {
        if self.dice != Some(*board.dice()) {
            self.table.clear();
            self.dice = Some(*board.dice());
        }
        let mut board = board.clone();
        Searcher::new(race_value)
            .with_table(&mut self.table)
            .with_mate_distance()
            .with_pvs()
            .with_killers()
            .with_limits(&limits_until(deadline))
            .iterative(&mut board, depth)
    }
}

impl Agent for DeepAgent {
    fn new_game(&mut self, _board: &Board, _me: Color) {
        self.table.clear();
        self.dice = None;
    }

    fn choose(&mut self, board: &Board, received: Instant) -> DuelMove {
        self.answer(board, received).0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ply_search::{WIN, is_proven};

    /// Red to move with die 5: cube 5 on cell 33 reaches the corner 41 diagonally; cube 0
    /// could also run, slower.
    fn near_win() -> Board {
        let mut dice = [0; DICE];
        dice[0] = 5;
        Board::from_cubes(
            [Some(20), None, None, None, None, Some(33)],
            [Some(21), Some(22), None, None, None, None],
            dice,
            0,
        )
        .unwrap()
    }

    #[test]
    fn plays_a_won_game_at_once() {
        let board = near_win();
        let mut agent = DeepAgent::new(Duration::from_secs(60));
        // A proven result ends the search long before the deadline.
        let (mv, value, _) = agent.search_until(&board, Instant::now() + Duration::from_secs(60));
        assert_eq!(mv, DuelMove { cube: 5, dir: 2 });
        assert_eq!(value, WIN - 1);
        assert!(is_proven(value));
    }

    #[test]
    fn a_new_dice_line_is_not_answered_from_the_old_table() {
        // Two lines that differ in red's second die only: the positions after the first two
        // plies are the same cubes at the same ply, with other futures. The hash does not
        // hold the dice, so a table kept across lines would answer with the first's values.
        let line = |second: u8| {
            let mut dice = [0; DICE];
            dice[2] = second;
            Board::from_cubes(
                [Some(20), None, None, None, None, Some(33)],
                [Some(21), Some(22), None, None, None, None],
                dice,
                0,
            )
            .unwrap()
        };
        let soon = || Instant::now() + Duration::from_secs(60);
        let mut agent = DeepAgent::new(Duration::from_secs(60));
        agent.search_until(&line(0), soon());
        let (_, reused, _) = agent.search_until(&line(5), soon());
        let (_, fresh, _) = DeepAgent::new(Duration::from_secs(60)).search_until(&line(5), soon());
        assert!(is_proven(fresh), "the small position is solved");
        assert_eq!(reused, fresh);
    }
}
