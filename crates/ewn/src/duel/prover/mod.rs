//! Proving who wins a duel position: the dice are known, so every position is a forced win
//! for one side. [`Prover`] runs ply-search's df-pn with the duel's knowledge ([`DuelKnowledge`]:
//! immediate wins, the race lengths the known dice give); [`Verifier`] re-proves with another
//! algorithm (null-window alpha-beta to the end) and shares nothing with it but the rules.

use ply_search::{DfPn, Knowledge, Limits, NullWindow, Outcome, ProofTable, SolvedTable};

use super::rules::{Board, Color, DICE, DuelMove, movable_cubes};

mod race;

use race::RaceOracle;

/// log2 of the prover's table slots by default: 16 M slots of 24 bytes, 384 MiB.
const PROVER_TABLE_BITS: u32 = 24;

/// Turns `color` needs to bring a cube to its goal corner if it moved alone from ply `ply`
/// on (its plies are `ply`, `ply + 2`, ...): each turn the die's cube, or the nearer to the
/// corner of its living neighbours in number, steps toward the corner. At most `cap`.
#[must_use]
fn race_length(board: &Board, color: Color, ply: u32, cap: u32) -> u32 {
    let mut dist = [u8::MAX; 6];
    let mut living = 0u8;
    for cube in 0..6u8 {
        if let Some(cell) = board.cube_cell(color, cube) {
            dist[usize::from(cube)] = corner_distance(color, cell);
            living |= 1 << cube;
        }
    }
    if living == 0 {
        return cap;
    }
    let dice = board.dice();
    // The die of each turn: every other entry of the line, from `ply` on, wrapping.
    let mut at = ply as usize % DICE;
    for turn in 1..=cap {
        let die = dice[at];
        // Of two movable cubes, the one nearer its corner (the lower on a tie).
        let (cubes, n) = movable_cubes(living, die);
        let cube = if n == 2 && dist[usize::from(cubes[1])] < dist[usize::from(cubes[0])] {
            cubes[1]
        } else {
            cubes[0]
        };
        dist[usize::from(cube)] -= 1;
        if dist[usize::from(cube)] == 0 {
            return turn;
        }
        at += 2;
        if at >= DICE {
            at -= DICE;
        }
    }
    cap
}

/// The Chebyshev distance from `cell` to `color`'s goal corner (a table: the race
/// estimates ask it for every cube of every position generated).
#[must_use]
#[inline]
fn corner_distance(color: Color, cell: u8) -> u8 {
    CORNER_DISTANCE[color.index()][usize::from(cell)]
}

/// [`corner_distance`] of every colour and cell.
const CORNER_DISTANCE: [[u8; 42]; 2] = {
    let mut out = [[0u8; 42]; 2];
    let mut cell = 0;
    while cell < 42 {
        let (r, c) = ((cell / 7) as u8, (cell % 7) as u8);
        let (red, blue) = (
            if 5 - r > 6 - c { 5 - r } else { 6 - c },
            if r > c { r } else { c },
        );
        out[0][cell] = red;
        out[1][cell] = blue;
        cell += 1;
    }
    out
};

/// The longest race [`DuelKnowledge`] simulates.
const RACE_CAP: u32 = 24;

/// `cell` seen from `color`: red's cells as they are, blue's turned by 180 degrees, so that
/// every side moves right, down, down-right or up-right towards cell 41.
#[inline]
fn oriented(color: Color, cell: u8) -> (i8, i8) {
    ORIENTED[color.index()][usize::from(cell)]
}

/// [`oriented`] of every colour and cell (a table: the safe-runner rule asks it for every
/// cube of every position generated).
const ORIENTED: [[(i8, i8); 42]; 2] = {
    let mut out = [[(0i8, 0i8); 42]; 2];
    let mut cell = 0;
    while cell < 42 {
        out[0][cell] = ((cell / 7) as i8, (cell % 7) as i8);
        out[1][cell] = (((41 - cell) / 7) as i8, ((41 - cell) % 7) as i8);
        cell += 1;
    }
    out
};

/// The fewest own turns, counted from `color`'s next turn, in which a cube of `color` that no
/// enemy cube can ever capture surely reaches the corner; `None` if it has no such cube.
///
/// Why it is sure: a side's columns never move back (red's never decrease, blue's never
/// increase), and in its own column a cube only moves forward; so a cube past every enemy
/// cube (a column beyond each, or the same column and a row beyond) stays out of their
/// reach for the rest of the game. Such a runner moves on every turn whose die names it, or
/// names a dead cube whose nearest living neighbour it is; captures of other cubes of its
/// side only add such turns; each move can bring it one step nearer (down-right, or right on
/// the last row, or down in the last column), and every other cube has a move that does not
/// land on it, except a cube above it in the last column, which only moves down (then the
/// rule is not used).
#[must_use]
fn safe_runner_turns(board: &Board, color: Color) -> Option<u32> {
    let enemy = color.other();
    let mut enemies = [(0i8, 0i8); 6];
    let mut count = 0;
    for cube in 0..6u8 {
        if let Some(cell) = board.cube_cell(enemy, cube) {
            // The enemy cube in this side's orientation.
            enemies[count] = oriented(color, cell);
            count += 1;
        }
    }
    let enemies = &enemies[..count];
    let mut living = 0u8;
    let mut mine = [(0i8, 0i8); 6];
    for cube in 0..6u8 {
        if let Some(cell) = board.cube_cell(color, cube) {
            living |= 1 << cube;
            mine[usize::from(cube)] = oriented(color, cell);
        }
    }
    // This side's next turn: now if it moves, else the next ply.
    let first_ply = board.ply() + u32::from(board.to_move() != color);
    let dice = board.dice();
    let mut best: Option<u32> = None;
    for runner in 0..6u8 {
        if living & (1 << runner) == 0 {
            continue;
        }
        let (r, c) = mine[usize::from(runner)];
        let safe = enemies
            .iter()
            .all(|&(er, ec)| c > ec || (c == ec && r > er));
        if !safe {
            continue;
        }
        let blocked = c == 6
            && (0..6u8).any(|x| {
                x != runner && living & (1 << x) != 0 && {
                    let (xr, xc) = mine[usize::from(x)];
                    xc == 6 && xr < r
                }
            });
        if blocked {
            continue;
        }
        let dist = (5 - r).max(6 - c) as u32;
        let cap = best.unwrap_or(RACE_CAP);
        let mut moved = 0;
        let mut turn = 0;
        while moved < dist && turn < cap {
            let die = dice[(first_ply + 2 * turn) as usize % DICE];
            turn += 1;
            let (cubes, n) = movable_cubes(living, die);
            let moves = cubes[..n].contains(&runner);
            moved += u32::from(moves);
        }
        if moved == dist {
            best = Some(best.map_or(turn, |b| b.min(turn)));
        }
    }
    best
}

/// The smallest Chebyshev distance from a cube of `color` to its corner (its fewest turns
/// to reach it, whatever the dice).
fn nearest(board: &Board, color: Color) -> u32 {
    (0..6u8)
        .filter_map(|cube| board.cube_cell(color, cube))
        .map(|cell| u32::from(corner_distance(color, cell)))
        .min()
        .unwrap_or(u32::MAX)
}

/// The winner of `board` (not over) when a safe runner decides it: a side whose runner
/// ([`safe_runner_turns`]) arrives before the other side could reach its corner (its nearest
/// cube's distance, in turns) wins; the other side cannot capture every cube of it either,
/// as the runner is out of reach.
#[must_use]
fn runner_outcome(board: &Board) -> Option<Color> {
    let me = board.to_move();
    for side in [me, me.other()] {
        if let Some(turns) = safe_runner_turns(board, side) {
            // The other side's turns before the runner's last: one fewer when this side
            // moves first.
            let before = if side == me { turns - 1 } else { turns };
            if nearest(board, side.other()) > before {
                return Some(side);
            }
        }
    }
    None
}

/// Whether the side to move at `board` (not over, without an immediate win) wins within
/// three plies: it has a move after which the opponent cannot win at once and every reply
/// leaves it an immediate win.
#[must_use]
fn wins_in_three(board: &Board) -> bool {
    let me = board.to_move();
    // A corner needs a cube two steps away; capturing every cube, at most three left (one
    // taken now, one the opponent may take itself, the last on the next turn).
    if nearest(board, me) > 2 && board.alive(me.other()) > 3 {
        return false;
    }
    let mut board = board.clone();
    for mv in board.moves().iter().copied() {
        let undo = board.play(mv);
        // After the opponent's reply, an immediate win needs a cube one step from the
        // corner (the reply moves none of this side's cubes nearer) or the opponent down to
        // one cube (a reply takes at most one of its own): without either after this move,
        // no reply needs looking at.
        let hopeless = nearest(&board, me) > 1 && board.alive(me.other()) > 2;
        let wins = !hopeless
            && board.winning_move().is_none()
            && board.moves().iter().all(|&reply| {
                let undo = board.play(reply);
                let wins = board.winner() == Some(me) || board.winning_move().is_some();
                board.undo(reply, undo);
                wins
            });
        board.undo(mv, undo);
        if wins {
            return true;
        }
    }
    false
}

/// What the prover knows of the duel beyond its rules: a side that can win at once wins; once
/// the sides can never meet again, the side whose exact race is shorter wins (the race oracle
/// of the `race` module); a side whose safe runner arrives first wins (`runner_outcome`); a
/// side that wins within three plies wins (`wins_in_three`, checked when a position is about
/// to be expanded); and the side ahead in the race (its turns to the corner with the known
/// dice, moving alone) is likelier to win, in proportion to its lead.
#[derive(Clone, Default)]
pub struct DuelKnowledge {
    race: RaceOracle,
    races: RaceCache,
}

/// log2 of [`RaceCache`]'s slots: a few hundred kilobytes, inside the processor's caches.
const RACE_CACHE_BITS: u32 = 14;

/// The race lengths of one side's cubes ([`race_length`]) already computed: a child shares
/// the side that did not move with its parent's siblings, so about half of the races asked
/// for have been simulated before. Keyed exactly (the cubes' cells, the ply in the dice
/// line, the side), for one dice line at a time.
#[derive(Clone)]
struct RaceCache {
    dice: [u8; DICE],
    slots: Vec<(u64, u8)>,
}

impl Default for RaceCache {
    fn default() -> Self {
        RaceCache {
            dice: [u8::MAX; DICE],
            slots: vec![(0, 0); 1 << RACE_CACHE_BITS],
        }
    }
}

impl RaceCache {
    /// [`race_length`] of `color` from ply `ply` of `board`, capped at [`RACE_CAP`].
    #[inline]
    fn race(&mut self, board: &Board, color: Color, ply: u32) -> u32 {
        if board.dice() != &self.dice {
            self.dice = *board.dice();
            self.slots.iter_mut().for_each(|slot| slot.0 = 0);
        }
        let cells = board.side_cells(color);
        // Never 0, the empty slot's key: the last byte has its high bit set.
        let key = u64::from_le_bytes([
            cells[0],
            cells[1],
            cells[2],
            cells[3],
            cells[4],
            cells[5],
            (ply as usize % DICE) as u8,
            0x80 | color.index() as u8,
        ]);
        let at = (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - RACE_CACHE_BITS)) as usize;
        let slot = &mut self.slots[at];
        if slot.0 == key {
            return u32::from(slot.1);
        }
        let turns = race_length(board, color, ply, RACE_CAP);
        *slot = (key, turns as u8);
        turns
    }
}

impl Knowledge<Board> for DuelKnowledge {
    fn solve(&mut self, board: &Board) -> Option<Outcome> {
        if board.winning_move().is_some() {
            return Some(Outcome::Win(board.to_move().index() as u8));
        }
        if board.separated() {
            return Some(Outcome::Win(self.race.winner(board).index() as u8));
        }
        runner_outcome(board).map(|w| Outcome::Win(w.index() as u8))
    }

    /// A win within three plies (`wins_in_three`): it plays every move and reply, so it is
    /// checked only where the search is about to expand the position.
    fn solve_deeply(&mut self, board: &Board) -> Option<Outcome> {
        wins_in_three(board).then(|| Outcome::Win(board.to_move().index() as u8))
    }

    fn estimate(&mut self, board: &Board) -> (u32, u32) {
        let me = board.to_move();
        let ply = board.ply();
        let mine = self.races.race(board, me, ply) as i32;
        let theirs = self.races.race(board, me.other(), ply + 1) as i32;
        // The side to move reaches its corner first when it needs no more turns.
        let lead = theirs - mine;
        let cube = |turns: i32| (turns * turns * turns) as u32;
        let behind = 1 + 2 * (-lead).clamp(0, 10) as u32;
        let ahead = 1 + 2 * lead.clamp(0, 10) as u32;
        (cube(mine) * behind / 2 + 1, cube(theirs) * ahead / 2 + 1)
    }
}

/// What a proof says about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The side that wins against every defence, or `None` when the limits ran out first.
    pub winner: Option<Color>,
    /// The winning move when the side to move wins; else the move the search found most
    /// promising for the side to move.
    pub best: Option<DuelMove>,
    /// The proof number of the attacker's win at the end (0 once proven).
    pub proof: u32,
    /// Its disproof number (0 once disproven).
    pub disproof: u32,
    /// Positions expanded.
    pub nodes: u64,
}

/// The duel's prover: df-pn with [`DuelKnowledge`] and a table kept between proofs of the
/// same dice line (the hash holds the ply modulo 42 but not the dice).
pub struct Prover {
    table: ProofTable<DuelMove>,
    knowledge: DuelKnowledge,
    dice: Option<[u8; DICE]>,
    /// The attacker of the last proof.
    attacker: Color,
}

impl Prover {
    /// A prover whose table has `2^bits` slots.
    #[must_use]
    pub fn new(bits: u32) -> Self {
        Prover {
            table: ProofTable::new(bits),
            knowledge: DuelKnowledge::default(),
            dice: None,
            attacker: Color::Red,
        }
    }

    /// Forgets every position proven so far (the table shrinks back to its first size, all
    /// of it empty): the next proof searches as a new prover's would, so that its result and
    /// node count do not depend on what was proven before it.
    pub fn forget(&mut self) {
        self.table.reset();
        self.dice = None;
    }

    /// A prover whose table is the largest that fits in `bytes`.
    #[must_use]
    pub fn within(bytes: usize) -> Self {
        Prover::new(ProofTable::<DuelMove>::bits_for(bytes))
    }

    /// [`Prover::within`], or the allocation's error when the memory cannot be had.
    ///
    /// # Errors
    /// [`TryReserveError`](std::collections::TryReserveError) when the table's allocation
    /// fails.
    pub fn try_within(bytes: usize) -> Result<Self, std::collections::TryReserveError> {
        Ok(Prover {
            table: ProofTable::try_new(ProofTable::<DuelMove>::bits_for(bytes))?,
            knowledge: DuelKnowledge::default(),
            dice: None,
            attacker: Color::Red,
        })
    }

    /// The bytes of the table now (it grows as a proof needs, up to the size it was made
    /// with).
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// The bytes the table may grow to.
    #[must_use]
    pub fn max_table_bytes(&self) -> usize {
        self.table.max_bytes()
    }

    /// The table's context for the dice of `board`: positions hash alike under every dice
    /// line, so each line has its own.
    fn prepare(&mut self, board: &Board) {
        if self.dice != Some(*board.dice()) {
            let dice = board.dice();
            let context = dice
                .iter()
                .fold(0u64, |h, &d| h.wrapping_mul(6).wrapping_add(u64::from(d)));
            self.table.set_context(context);
            self.dice = Some(*dice);
        }
    }

    /// Proves whether `attacker` wins from `board` within `limits`: until they run out, or
    /// their [`StopFlag`](ply_search::StopFlag) is raised (an interrupt, the opponent's move
    /// that arrived while pondering).
    pub fn prove_for(&mut self, board: &Board, attacker: Color, limits: &Limits) -> Proof {
        self.prepare(board);
        self.attacker = attacker;
        let mut board = board.clone();
        let result = DfPn::new(&mut self.table, &mut self.knowledge)
            .with_limits(limits)
            .prove(&mut board, attacker.index() as u8);
        Proof {
            winner: result
                .proven
                .map(|wins| if wins { attacker } else { attacker.other() }),
            best: result.best,
            proof: result.proof,
            disproof: result.disproof,
            nodes: result.nodes,
        }
    }

    /// Proves who wins from `board` (red as the attacker, for a table shared by every start
    /// of a dice line).
    pub fn prove(&mut self, board: &Board, limits: &Limits) -> Proof {
        self.prove_for(board, Color::Red, limits)
    }

    /// The winning move of the side to move at `board`, a position the table holds as won
    /// for it by a proof with `attacker`, if it is there.
    #[must_use]
    pub fn known_move(&self, board: &Board, attacker: Color) -> Option<DuelMove> {
        if self.dice != Some(*board.dice()) {
            return None;
        }
        let entry = self.table.get(board.hash(), attacker.index() as u8)?;
        let mover_attacks = board.to_move() == attacker;
        let won = if mover_attacks {
            entry.proof == 0
        } else {
            entry.disproof == 0
        };
        won.then_some(entry.best).flatten()
    }

    /// A winning line from `board`, a position won for `winner`: the winner's proven moves,
    /// the loser answering with its move whose refutation took the most work, to the end of
    /// the game. Positions whose proof the table lost are proven again within `limits` each;
    /// `None` if one of them is not.
    pub fn line(&mut self, board: &Board, winner: Color, limits: &Limits) -> Option<Vec<DuelMove>> {
        let attacker = self.attacker;
        let mut board = board.clone();
        let mut line = Vec::new();
        while board.winner().is_none() {
            let mv = if board.to_move() == winner {
                self.winning_move_for(&board, winner, attacker, limits)?
            } else {
                self.hardest_defence(&board, attacker)
            };
            board.play(mv);
            line.push(mv);
        }
        (board.winner() == Some(winner)).then_some(line)
    }

    /// The winning move of `winner`, to move at `board`, a position won for it: an immediate
    /// win, else the move the table holds from a proof with `attacker`, else the move of a new
    /// proof within `limits` (`None` if that proof does not show `winner` winning).
    pub fn winning_move_for(
        &mut self,
        board: &Board,
        winner: Color,
        attacker: Color,
        limits: &Limits,
    ) -> Option<DuelMove> {
        if let Some(mv) = board.winning_move() {
            return Some(mv);
        }
        if let Some(mv) = self.known_move(board, attacker) {
            return Some(mv);
        }
        let proof = self.prove_for(board, attacker, limits);
        if proof.winner != Some(winner) {
            return None;
        }
        proof.best
    }

    /// A winning move of `winner`, to move at `board`, a position won for it, chosen to end
    /// the game soon: an immediate win, else of the moves to positions the table holds as won
    /// for `winner` (by a proof with `attacker`) or the knowledge decides for it, the one whose
    /// proof took the least work (a position the knowledge decides counts as the least), else
    /// [`Prover::winning_move_for`]'s. Why: a certificate's walk meets many positions whose
    /// table move was lost or never stored (the knowledge decided them); taking a child that
    /// is already known won needs no new proof there, and a child of little proof work tends
    /// to end the game sooner.
    pub fn quick_winning_move_for(
        &mut self,
        board: &Board,
        winner: Color,
        attacker: Color,
        limits: &Limits,
    ) -> Option<DuelMove> {
        self.prepare(board);
        let side = attacker.index() as u8;
        let mut best: Option<(u64, DuelMove)> = None;
        for &mv in board.moves().iter() {
            let mut child = board.clone();
            child.play(mv);
            if child.winner() == Some(winner) {
                return Some(mv);
            }
            let work = match self.table.get(child.hash(), side) {
                Some(e)
                    if (winner == attacker && e.proof == 0)
                        || (winner != attacker && e.disproof == 0) =>
                {
                    u64::from(e.work) + 1
                }
                _ if self.knowledge.solve(&child) == Some(Outcome::Win(winner.index() as u8)) => 0,
                _ => continue,
            };
            if best.is_none_or(|(least, _)| work < least) {
                best = Some((work, mv));
            }
        }
        match best {
            Some((_, mv)) => Some(mv),
            None => self.winning_move_for(board, winner, attacker, limits),
        }
    }

    /// The attacker of the last proof (the side whose proof numbers the table holds).
    #[must_use]
    pub fn attacker(&self) -> Color {
        self.attacker
    }

    /// The loser's move whose position took the most work to prove (the longest resistance
    /// the search saw).
    fn hardest_defence(&self, board: &Board, attacker: Color) -> DuelMove {
        let moves = board.moves();
        let mut best = (0, moves[0]);
        for &mv in moves.iter() {
            let mut next = board.clone();
            next.play(mv);
            let work = if next.winner().is_some() {
                0
            } else {
                self.table
                    .get(next.hash(), attacker.index() as u8)
                    .map_or(1, |e| u64::from(e.work) + 1)
            };
            if work > best.0 {
                best = (work, mv);
            }
        }
        best.1
    }
}

impl Default for Prover {
    fn default() -> Self {
        Prover::new(PROVER_TABLE_BITS)
    }
}

/// The checker of [`Prover`]'s results: null-window alpha-beta, deepened ply by ply (who
/// wins within `d` plies?), moves ordered by the race alone, lines cut by the fewest plies in
/// which a side could still win (`fewest_plies_to_win`), its own table.
pub struct Verifier {
    table: SolvedTable,
    dice: Option<[u8; DICE]>,
    nodes: u64,
}

/// The longest game the verifier deepens to: every cube's column or row only moves forward,
/// so a game ends within a few dozen plies.
const MAX_PLIES: u32 = 200;

/// The fewest plies from `board` in which `player` (0: red, 1: blue) could still win, from
/// the geometry alone: its nearest cube needs a turn per step to its corner; capturing every
/// enemy cube needs a turn per capture, less the cubes the enemy may capture itself on its
/// turns in between.
#[must_use]
fn fewest_plies_to_win(board: &Board, player: u8) -> u32 {
    let side = if player == 0 { Color::Red } else { Color::Blue };
    let moves_first = board.to_move() == side;
    let enemies = u32::from(board.alive(side.other()));
    // By its k-th turn the side captures at most k cubes and the enemy itself at most k - 1
    // (k when the enemy moves first).
    let by_captures = if moves_first {
        enemies.div_ceil(2).max(1)
    } else {
        (enemies / 2).max(1)
    };
    let turns = nearest(board, side).min(by_captures);
    if moves_first {
        2 * turns - 1
    } else {
        2 * turns
    }
}

impl Verifier {
    /// A verifier whose table has `2^bits` slots.
    #[must_use]
    pub fn new(bits: u32) -> Self {
        Verifier {
            table: SolvedTable::new(bits),
            dice: None,
            nodes: 0,
        }
    }

    /// Positions searched by the last [`Verifier::winner`].
    #[must_use]
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Who wins from `board`, or `None` when `limits` run out (or their
    /// [`StopFlag`](ply_search::StopFlag) is raised) first.
    pub fn winner(&mut self, board: &Board, limits: &Limits) -> Option<Color> {
        if self.dice != Some(*board.dice()) {
            self.table.clear();
            self.dice = Some(*board.dice());
        }
        let mut order = |board: &Board, moves: &mut [DuelMove]| {
            // The mover's race after each move against the opponent's, best first.
            let me = board.to_move();
            let mut keyed: Vec<(i64, DuelMove)> = moves
                .iter()
                .map(|&mv| {
                    let mut next = board.clone();
                    next.play(mv);
                    let mine = race_length(&next, me, next.ply() + 1, RACE_CAP);
                    let theirs = race_length(&next, me.other(), next.ply(), RACE_CAP);
                    (i64::from(mine) - i64::from(theirs), mv)
                })
                .collect();
            keyed.sort_by_key(|&(k, _)| k);
            for (slot, (_, mv)) in moves.iter_mut().zip(keyed) {
                *slot = mv;
            }
        };
        let mut bound = |board: &Board, player: u8| fewest_plies_to_win(board, player);
        let mut board = board.clone();
        let mut search =
            NullWindow::new(&mut self.table, &mut order, &mut bound).with_limits(limits);
        let winner = search.winner(&mut board, MAX_PLIES);
        self.nodes = search.nodes();
        winner.map(|w| if w == 0 { Color::Red } else { Color::Blue })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::playouts::FastRng;

    /// Who wins, by plain minimax over every move to the end of the game; `None` once it has
    /// visited `budget` positions.
    fn minimax(board: &mut Board, budget: &mut u64) -> Option<Color> {
        if let Some(w) = board.winner() {
            return Some(w);
        }
        *budget = budget.checked_sub(1)?;
        let me = board.to_move();
        for mv in board.moves().iter().copied() {
            let undo = board.play(mv);
            let w = minimax(board, budget);
            board.undo(mv, undo);
            if w? == me {
                return Some(me);
            }
        }
        Some(me.other())
    }

    /// Positions of random games between `from` and `to` plies, whose minimax fits in
    /// `budget` positions, with their winner.
    fn solved_positions(count: usize, seed: u64, from: u32, to: u32) -> Vec<(Board, Color)> {
        let mut rng = FastRng::new(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let perm = |rng: &mut FastRng| {
                let mut p = [0, 1, 2, 3, 4, 5];
                for i in (1..6).rev() {
                    p.swap(i, rng.below(i + 1));
                }
                p
            };
            let red = perm(&mut rng);
            let blue = perm(&mut rng);
            let mut dice = [0; DICE];
            for d in &mut dice {
                *d = rng.below(6) as u8;
            }
            let mut board = Board::new(red, blue, dice).unwrap();
            let stop = from + rng.below((to - from) as usize) as u32;
            while board.winner().is_none() && board.ply() < stop {
                let moves = board.moves();
                board.play(moves[rng.below(moves.len())]);
            }
            if board.winner().is_none()
                && let Some(w) = minimax(&mut board.clone(), &mut 20_000)
            {
                out.push((board, w));
            }
        }
        out
    }

    #[test]
    fn prover_and_verifier_agree_with_minimax() {
        let mut prover = Prover::new(16);
        let mut verifier = Verifier::new(16);
        for (i, (board, want)) in solved_positions(200, 7, 10, 30).into_iter().enumerate() {
            let proof = prover.prove(&board, &Limits::default());
            assert_eq!(
                proof.winner,
                Some(want),
                "position {i}:\n{}",
                board.render()
            );
            assert_eq!(
                verifier.winner(&board, &Limits::default()),
                Some(want),
                "verifier, position {i}"
            );
            for attacker in [Color::Red, Color::Blue] {
                let p = prover.prove_for(&board, attacker, &Limits::default());
                assert_eq!(p.winner, Some(want), "attacker {attacker}, position {i}");
                if want == board.to_move() {
                    let mut next = board.clone();
                    next.play_checked(p.best.expect("a winning move")).unwrap();
                    let after = minimax(&mut next, &mut { u64::MAX });
                    assert_eq!(after, Some(want), "the proven move wins");
                }
            }
            let line = prover
                .line(&board, want, &Limits::default())
                .expect("a line");
            let mut replay = board.clone();
            for mv in line {
                replay.play_checked(mv).unwrap();
            }
            assert_eq!(replay.winner(), Some(want));
        }
    }

    #[test]
    fn a_cube_above_the_runner_in_the_last_column_spoils_its_race() {
        // Red's cube 0 on cell 27 is out of blue's reach, two steps from the corner, and the
        // dice name cube 0 on red's second and third turns. But red's cube 5 above it, on
        // cell 20, moves first and can only move down, onto cube 0; the dice of cube 0 then
        // go to cube 1, and blue's cube (three steps from its corner) arrives first.
        let mut dice = [0; DICE];
        dice[0] = 5;
        let board = Board::from_cubes(
            [Some(27), Some(35), None, None, None, Some(20)],
            [Some(3), None, None, None, None, None],
            dice,
            0,
        )
        .unwrap();
        assert_eq!(
            minimax(&mut board.clone(), &mut { u64::MAX }),
            Some(Color::Blue)
        );
        assert_eq!(safe_runner_turns(&board, Color::Red), None);
        assert_eq!(runner_outcome(&board), None);
        // Without cube 5 the same runner is sure.
        let alone = Board::from_cubes(
            [Some(27), Some(35), None, None, None, None],
            [Some(3), None, None, None, None, None],
            dice,
            0,
        )
        .unwrap();
        assert_eq!(safe_runner_turns(&alone, Color::Red), Some(3));
        assert_eq!(runner_outcome(&alone), Some(Color::Red));
        assert_eq!(
            minimax(&mut alone.clone(), &mut { u64::MAX }),
            Some(Color::Red)
        );
    }

    #[test]
    fn the_knowledge_agrees_with_minimax() {
        // Every rule is checked where it fires: an immediate win, a safe runner, a win in
        // three plies, a race between separated sides, on positions small enough for minimax.
        let mut fired = [0; 4];
        let mut oracle = RaceOracle::default();
        for (board, want) in solved_positions(1000, 11, 10, 40) {
            let me = board.to_move();
            if board.winning_move().is_some() {
                assert_eq!(want, me);
                fired[0] += 1;
            }
            if let Some(w) = runner_outcome(&board) {
                assert_eq!(w, want, "safe runner:\n{}", board.render());
                fired[1] += 1;
            }
            if wins_in_three(&board) {
                assert_eq!(want, me, "three plies:\n{}", board.render());
                fired[2] += 1;
            }
            if board.separated() {
                assert_eq!(oracle.winner(&board), want, "race:\n{}", board.render());
                fired[3] += 1;
            }
        }
        assert!(fired.iter().all(|&n| n > 20), "{fired:?}");
    }
}
