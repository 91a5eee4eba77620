//! Conformance checks that every game crate runs on its own implementations of [`Game`] and
//! [`IdaProblem`], in a few lines of its own tests (after OpenSpiel's `basic_tests`: random
//! play, every move taken back exactly, incremental state equal to the state computed afresh,
//! every game ending).
//!
//! The checks panic with a message naming the position on the first violation, as test
//! assertions do, and return what they saw so that a caller can assert more (both players win
//! sometimes, the walks went deep).
//!
//! For checking a proof search itself: [`wins`], plain minimax as the reference answer, and
//! [`RandomTree`], a game with wins, losses, draws and transpositions to run it on.

use std::fmt::Debug;

use crate::game::{Game, Outcome};
use crate::ida::IdaProblem;

/// A small, seeded generator for the checks' random choices (SplitMix64, Steele, Lea and
/// Flood 2014), so that the checks need no dependency and repeat exactly.
#[derive(Clone, Debug)]
struct SplitMix(u64);

impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// What [`check_game`] saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameReport {
    /// Games played to the end.
    pub games: usize,
    /// Moves played, over all games.
    pub plies: u64,
    /// Games won by player 0 and by player 1.
    pub wins: [usize; 2],
    /// Games drawn.
    pub draws: usize,
}

/// Plays a random game from each start, checking at every position that
///
/// - the game is over exactly when the side to move has no move;
/// - every legal move, played and taken back, restores the position and its hash exactly;
/// - after every move, the hash equals `fresh_hash` of the position (a hash computed from
///   scratch), when given;
/// - the game ends within `max_plies` moves.
///
/// # Panics
/// On the first violation, naming the position (its `Debug` form).
pub fn check_game<G>(
    starts: impl IntoIterator<Item = G>,
    max_plies: u64,
    seed: u64,
    fresh_hash: Option<&dyn Fn(&G) -> u64>,
) -> GameReport
where
    G: Game + Clone + PartialEq + Debug,
{
    let mut rng = SplitMix(seed);
    let mut report = GameReport::default();
    for mut game in starts {
        let mut plies = 0u64;
        loop {
            let moves = game.moves();
            let moves = moves.as_ref();
            match game.outcome() {
                Some(outcome) => {
                    assert!(moves.is_empty(), "a finished game has moves: {game:?}");
                    match outcome {
                        Outcome::Win(p) => report.wins[usize::from(p.min(1))] += 1,
                        Outcome::Draw => report.draws += 1,
                    }
                    break;
                }
                None => assert!(!moves.is_empty(), "no move in a game not over: {game:?}"),
            }
            assert!(
                plies < max_plies,
                "no end after {max_plies} moves: {game:?}"
            );
            for &mv in moves {
                let before = game.clone();
                let undo = game.play(mv);
                if let Some(fresh) = fresh_hash {
                    assert_eq!(game.hash(), fresh(&game), "incremental hash: {game:?}");
                }
                game.undo(mv, undo);
                assert_eq!(game, before, "a move played and taken back");
                assert_eq!(game.hash(), before.hash(), "the hash after take-back");
            }
            let mv = moves[rng.below(moves.len())];
            game.play(mv);
            plies += 1;
        }
        report.games += 1;
        report.plies += plies;
    }
    report
}

/// What [`check_ida_problem`] saw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkReport {
    /// Moves applied and taken back.
    pub moves: u64,
    /// The deepest a walk went.
    pub deepest: usize,
}

/// Walks `walks` random paths of up to `depth` moves from the problem's root (not undoing
/// the last move, as IDA* does not), checking at every state that
///
/// - every move, applied and undone, restores `snapshot` of the problem exactly;
/// - the estimate IDA* carries (`heuristic` with no budget) equals `fresh_estimate` of the
///   problem (an estimate computed from scratch for its current state);
/// - a goal has estimate 0.
///
/// The problem is back at its root when the check returns.
///
/// # Panics
/// On the first violation, naming the snapshot.
pub fn check_ida_problem<P, S>(
    problem: &mut P,
    walks: usize,
    depth: usize,
    seed: u64,
    snapshot: impl Fn(&P) -> S,
    fresh_estimate: impl Fn(&P) -> u32,
) -> WalkReport
where
    P: IdaProblem,
    S: PartialEq + Debug,
{
    let mut rng = SplitMix(seed);
    let mut report = WalkReport::default();
    let root = problem.root();
    for _ in 0..walks {
        let mut path: Vec<(P::Node, P::Move, P::Node)> = Vec::new();
        let mut node = root;
        let mut last = None;
        for _ in 0..depth {
            let estimate = problem.heuristic(node, u32::MAX);
            assert_eq!(
                estimate,
                fresh_estimate(problem),
                "incremental estimate: {:?}",
                snapshot(problem)
            );
            if problem.is_goal(node) {
                assert_eq!(estimate, 0, "a goal's estimate: {:?}", snapshot(problem));
            }
            let moves: Vec<P::Move> = problem.moves(node, last).flatten().collect();
            if moves.is_empty() {
                break;
            }
            for &mv in &moves {
                let before = snapshot(problem);
                let (child, _) = problem.apply(node, mv);
                problem.undo(node, mv, child);
                assert_eq!(snapshot(problem), before, "a move applied and undone");
                report.moves += 1;
            }
            let mv = moves[rng.below(moves.len())];
            let (child, _) = problem.apply(node, mv);
            path.push((node, mv, child));
            node = child;
            last = Some(mv);
        }
        report.deepest = report.deepest.max(path.len());
        while let Some((parent, mv, child)) = path.pop() {
            problem.undo(parent, mv, child);
        }
    }
    report
}

/// Whether `who` wins `game` with best play, by plain minimax over the whole tree: the
/// reference a proof search is checked against (exponential; for small games only).
pub fn wins<G: Game>(game: &mut G, who: u8) -> bool {
    if let Some(outcome) = game.outcome() {
        return outcome == Outcome::Win(who);
    }
    let mine = game.to_move() == who;
    let moves = game.moves();
    for &mv in moves.as_ref() {
        let undo = game.play(mv);
        let w = wins(game, who);
        game.undo(mv, undo);
        if w == mine {
            return w;
        }
    }
    !mine
}

/// A random game tree, the same for the same seed: a position is a hash of its path, from
/// which its number of moves (1 to 4), whether it is a leaf, and a leaf's result (a win for
/// either player or a draw) are drawn. Only 10 bits of the hash are kept per depth, so
/// different paths meet in the same position (transpositions), as in real games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RandomTree {
    path: Vec<u64>,
    max_depth: usize,
}

impl RandomTree {
    /// The tree of `seed` (its low 10 bits), every path ending within `max_depth` moves.
    #[must_use]
    pub fn new(seed: u64, max_depth: usize) -> Self {
        RandomTree {
            path: vec![seed & 0x3ff],
            max_depth,
        }
    }

    /// Moves played from the root.
    #[must_use]
    pub fn depth(&self) -> usize {
        self.path.len() - 1
    }

    fn node(&self) -> u64 {
        *self.path.last().expect("the root is never taken back")
    }
}

/// A 64-bit finaliser (MurmurHash3's `fmix64`, Appleby 2011), to draw from a node.
fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl Game for RandomTree {
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
        let next = mix(self.node() ^ (u64::from(mv) + 1).wrapping_mul(0x9e37_79b9)) & 0x3ff;
        self.path.push(next | ((self.path.len() as u64) << 10));
    }
    fn undo(&mut self, _: u8, (): ()) {
        assert!(self.path.len() > 1, "the root is never taken back");
        self.path.pop();
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.depth() >= self.max_depth || self.node().is_multiple_of(7)).then(|| {
            match mix(self.node()) % 5 {
                0 => Outcome::Draw,
                w => Outcome::Win((w % 2) as u8),
            }
        })
    }
    fn hash(&self) -> u64 {
        mix(self.node())
    }
}
