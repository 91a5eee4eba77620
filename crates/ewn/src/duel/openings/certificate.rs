//! Proof certificates: a proven start's winning strategy, written compactly and checked with
//! the rules alone.
//!
//! A strategy is a proof tree: at a position where the winner moves it names one move, at a
//! position where the loser moves it covers every legal move, and every line ends in the
//! winner's win. The dice are known, so a position has no chance node and the tree is a DAG
//! of positions. A certificate lists the winner's choices in the order of one fixed
//! depth-first walk of that DAG (the loser's moves in [`Board::moves`] order, a position
//! skipped once it has been walked), each as the index of the chosen move among the legal
//! ones. Whoever holds the start and the claimed winner replays the same walk and reads the
//! choices as it meets the winner's positions, so the certificate needs no positions, no keys
//! and no search: [`check_certificate`] plays the rules and nothing else, and a claim whose
//! walk reaches a loss, runs out of choices or leaves some unread is refused. This is the
//! solution-tree form of a proof (Allis, *Searching for Solutions in Games and Artificial
//! Intelligence*, 1994, §2.2: a proof tree of an AND/OR tree; its compact transposition-aware
//! encoding here is ply's own).
//!
//! The walk stops where the sides can never meet again ([`Board::separated`]): each side's
//! race to its corner is then a one-player problem, which the checker solves on the rules (the
//! racing side moves, the other passes, since it can touch none of the racer's cubes), and
//! the side needing fewer turns wins (the side to move on a tie). Such a race, walked to its
//! end, is a tree of every move of the loser's and took most of a strategy's positions.
//! Certificates of this kind begin with [`RACE_MARK`]; older ones, without it, walk every
//! race to its end and are still read.

use rustc_hash::{FxHashMap, FxHashSet};
use thiserror::Error;

use ply_search::{Limits, StopFlag};

use crate::duel::prover::Prover;
use crate::duel::rules::{Board, Color, DuelMove};

/// The most positions a certificate's walk may hold; a proof whose strategy is larger gets
/// none (its claim is checked by proving it again).
pub const MAX_CERTIFIED_POSITIONS: usize = 2_000_000;

/// The 64 symbols of a certificate's text (base64url's alphabet): each stands for two
/// choices (8 x 8).
const SYMBOLS: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The most legal moves a position has (two movable cubes, four directions each), so a
/// choice takes three bits.
const MAX_MOVES: u8 = 8;

/// The text that begins a certificate whose walk stops at separated races (see the module's
/// documentation); it holds no symbol of the alphabet, so an older reader refuses it.
pub const RACE_MARK: &str = "r:";

/// A winning strategy's choices, in the order of the walk (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    choices: Vec<u8>,
    /// Whether its walk stops at separated races ([`RACE_MARK`]).
    races: bool,
}

/// What a checked certificate covers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CertificateSize {
    /// The winner's positions (one choice each).
    pub winner_positions: u64,
    /// The loser's positions (every move followed).
    pub loser_positions: u64,
    /// Games that ended in the winner's win.
    pub wins: u64,
    /// Separated races the winner wins, decided by counting turns.
    pub races: u64,
}

/// Why a certificate is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CertificateError {
    /// A character that is no symbol of a certificate.
    #[error("character {at} of the certificate, '{found}', is not one of A-Z a-z 0-9 - _")]
    Symbol {
        /// Its place, from 0.
        at: usize,
        /// The character.
        found: char,
    },
    /// The walk met more of the winner's positions than the certificate has choices.
    #[error("the certificate ends after {0} choices, before the strategy does")]
    Short(usize),
    /// Choices are left over when the walk is done.
    #[error("the certificate holds {extra} choices more than the strategy's {used}")]
    Long {
        /// The choices the walk read.
        used: usize,
        /// Those left.
        extra: usize,
    },
    /// A choice names no legal move.
    #[error("choice {at} is move {choice} of a position with {moves} legal moves (ply {ply})")]
    Choice {
        /// Its place among the choices, from 0.
        at: usize,
        /// The index it names.
        choice: u8,
        /// The legal moves there.
        moves: usize,
        /// The position's ply.
        ply: u32,
    },
    /// A line of the strategy ends in the loser's win.
    #[error("the strategy loses: {loser} wins at ply {ply} after {line}")]
    Lost {
        /// The side that wins there.
        loser: Color,
        /// The ply the game ended at.
        ply: u32,
        /// The moves from the start, as the protocol writes them.
        line: String,
    },
    /// A line of the strategy reaches a separated race the loser wins.
    #[error("the strategy loses: {loser} wins the separated race at ply {ply} after {line}")]
    LostRace {
        /// The side that wins the race.
        loser: Color,
        /// The race's first ply.
        ply: u32,
        /// The moves from the start, as the protocol writes them.
        line: String,
    },
    /// The walk holds more positions than [`MAX_CERTIFIED_POSITIONS`].
    #[error("the strategy holds more than {MAX_CERTIFIED_POSITIONS} positions")]
    TooLarge,
}

impl Certificate {
    /// The choices it holds: one per position of the winner's in the strategy, and for a
    /// certificate read from text with an odd number of them, one padding choice more.
    #[must_use]
    pub fn len(&self) -> usize {
        self.choices.len()
    }

    /// Whether it chooses nowhere (a start whose every line the loser loses at once).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.choices.is_empty()
    }

    /// The certificate as text: [`RACE_MARK`] if its walk stops at separated races, then
    /// one of base64url's 64 symbols per two choices, the last padded with a 0.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mark = if self.races { RACE_MARK } else { "" };
        let symbols = self.choices.chunks(2).map(|pair| {
            let value = pair[0] * MAX_MOVES + pair.get(1).copied().unwrap_or(0);
            char::from(SYMBOLS[usize::from(value)])
        });
        mark.chars().chain(symbols).collect()
    }

    /// Reads a certificate's text (its length is checked by the walk: a padded last choice
    /// is one the walk does not read).
    ///
    /// # Errors
    /// [`CertificateError::Symbol`] for a character outside base64url's alphabet.
    pub fn parse(text: &str) -> Result<Certificate, CertificateError> {
        let races = text.starts_with(RACE_MARK);
        let skip = if races { RACE_MARK.len() } else { 0 };
        let mut choices = Vec::with_capacity(2 * text.len());
        for (at, found) in text.chars().enumerate().skip(skip) {
            let value = SYMBOLS
                .iter()
                .position(|&s| char::from(s) == found)
                .ok_or(CertificateError::Symbol { at, found })? as u8;
            choices.push(value / MAX_MOVES);
            choices.push(value % MAX_MOVES);
        }
        Ok(Certificate { choices, races })
    }
}

/// A position exactly, for the walk's set of positions done: each cube's cell (63 for a
/// captured cube) and the ply modulo 42 (the side to move and the die; the rules move every
/// cube forward, so a position never comes back at a later ply with the same cubes).
fn position_key(board: &Board) -> u128 {
    let mut key = u128::from(board.ply() % 42);
    for color in [Color::Red, Color::Blue] {
        for cube in 0..6 {
            let cell = board.cube_cell(color, cube).unwrap_or(63);
            key = (key << 6) | u128::from(cell);
        }
    }
    key
}

/// Separated races decided on the rules, each side's fewest turns remembered.
#[derive(Default)]
struct Races {
    /// A side's fewest turns to its corner, by its [`racer_key`] when it is to move.
    turns: FxHashMap<u64, u32>,
    /// Whether a racer (to move) reaches its corner within so many turns.
    within: FxHashMap<(u64, u32), bool>,
}

/// The side to move's part of `board`, all its race depends on: its cubes' cells (63 for a
/// captured cube) and the ply modulo 42 (which side it is, and the die).
fn racer_key(board: &Board) -> u64 {
    let color = board.to_move();
    (0..6).fold(u64::from(board.ply() % 42), |key, cube| {
        (key << 6) | u64::from(board.cube_cell(color, cube).unwrap_or(63))
    })
}

impl Races {
    /// The winner of `board`, not over, whose sides are [`Board::separated`]: the side that
    /// needs fewer turns to its corner, the side to move on a tie (it moves first).
    fn winner(&mut self, board: &Board) -> Color {
        let me = board.to_move();
        let mine = self.turns(board, me);
        // The other side wins only by arriving sooner, within one turn fewer.
        let mut other = board.clone();
        other.pass();
        if mine > 1 && self.reaches(&other, me.other(), mine - 1) {
            me.other()
        } else {
            me
        }
    }

    /// `color`'s fewest turns to its corner from its next turn on `board`, by iterative
    /// deepening on the rules, the other side passing.
    fn turns(&mut self, board: &Board, color: Color) -> u32 {
        let mut racer = board.clone();
        if racer.to_move() != color {
            racer.pass();
        }
        let key = racer_key(&racer);
        if let Some(&turns) = self.turns.get(&key) {
            return turns;
        }
        // Every move takes a cube a column or a row further, so a race ends; the bound only
        // guards the loop.
        let mut turns = u32::try_from(racer.goal_distance(color))
            .unwrap_or(1)
            .max(1);
        while turns < MAX_RACE_TURNS && !self.reaches(&racer, color, turns) {
            turns += 1;
        }
        self.turns.insert(key, turns);
        turns
    }

    /// Whether `color`, to move on `board`, can bring a cube to its corner within `turns`.
    fn reaches(&mut self, board: &Board, color: Color, turns: u32) -> bool {
        if u32::try_from(board.goal_distance(color)).unwrap_or(u32::MAX) > turns {
            return false;
        }
        let key = (racer_key(board), turns);
        if let Some(&known) = self.within.get(&key) {
            return known;
        }
        let reached = board.moves().as_ref().iter().any(|&mv| {
            let mut next = board.clone();
            next.play(mv);
            next.winner() == Some(color)
                || (turns > 1 && {
                    next.pass();
                    self.reaches(&next, color, turns - 1)
                })
        });
        self.within.insert(key, reached);
        reached
    }
}

/// More turns than any race on the board takes (each of six cubes crosses at most eleven
/// columns and rows).
const MAX_RACE_TURNS: u32 = 72;

/// Checks that `certificate` is a winning strategy for `winner` from `board`, with the rules
/// alone, and says how large it is.
///
/// ```
/// use ply_ewn::duel::openings::{Certificate, OpeningProver, RACE_MARK, check_certificate};
/// use ply_ewn::duel::{Prover, course_dice};
/// use ply_search::Limits;
///
/// let mut prover = OpeningProver::new(Prover::new(18)).with_certificates();
/// let limits = Limits::default().with_max_nodes(100_000);
/// let record = (0..40)
///     .map(|i| prover.prove(&course_dice()[0], i * 12_345, &limits))
///     .find(|r| r.winner.is_some())
///     .expect("a start proven within the budget");
/// let text = record.certificate.as_deref().unwrap();
/// let certificate = Certificate::parse(text)?;
/// let (board, winner) = (record.board()?, record.winner.unwrap());
/// let size = check_certificate(&board, winner, &certificate)?;
/// // Two choices a symbol after the mark: one per position of the winner's, the last symbol
/// // maybe padded.
/// assert_eq!(size.winner_positions.div_ceil(2), (text.len() - RACE_MARK.len()) as u64);
/// // The same strategy does not win for the other side.
/// assert!(check_certificate(&board, winner.other(), &certificate).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// [`CertificateError`] naming the first fault the walk meets.
pub fn check_certificate(
    board: &Board,
    winner: Color,
    certificate: &Certificate,
) -> Result<CertificateSize, CertificateError> {
    let mut walk = Check {
        winner,
        choices: &certificate.choices,
        next: 0,
        done: FxHashSet::default(),
        size: CertificateSize::default(),
        line: Vec::new(),
        races: certificate.races.then(Races::default),
    };
    walk.position(&mut board.clone())?;
    let used = walk.next;
    // The text's last symbol may carry one padding choice beyond the strategy's.
    let extra = certificate.choices.len() - used;
    if extra > 1 || (extra == 1 && certificate.choices[used] != 0) {
        return Err(CertificateError::Long { used, extra });
    }
    Ok(walk.size)
}

/// The checking walk.
struct Check<'a> {
    winner: Color,
    choices: &'a [u8],
    next: usize,
    done: FxHashSet<u128>,
    size: CertificateSize,
    line: Vec<DuelMove>,
    /// Separated races, for a certificate whose walk stops at them.
    races: Option<Races>,
}

impl Check<'_> {
    fn position(&mut self, board: &mut Board) -> Result<(), CertificateError> {
        if let Some(won) = board.winner() {
            if won != self.winner {
                return Err(CertificateError::Lost {
                    loser: won,
                    ply: board.ply(),
                    line: line_text(&self.line),
                });
            }
            self.size.wins += 1;
            return Ok(());
        }
        let key = position_key(board);
        if self.done.contains(&key) {
            return Ok(());
        }
        if self.done.len() >= MAX_CERTIFIED_POSITIONS {
            return Err(CertificateError::TooLarge);
        }
        if let Some(races) = self.races.as_mut().filter(|_| board.separated()) {
            let won = races.winner(board);
            if won != self.winner {
                return Err(CertificateError::LostRace {
                    loser: won,
                    ply: board.ply(),
                    line: line_text(&self.line),
                });
            }
            self.size.races += 1;
            self.done.insert(key);
            return Ok(());
        }
        let moves = board.moves();
        if board.to_move() == self.winner {
            let at = self.next;
            let &choice = self.choices.get(at).ok_or(CertificateError::Short(at))?;
            let mv = *moves
                .as_ref()
                .get(usize::from(choice))
                .ok_or(CertificateError::Choice {
                    at,
                    choice,
                    moves: moves.len(),
                    ply: board.ply(),
                })?;
            self.next += 1;
            self.size.winner_positions += 1;
            self.follow(board, mv)?;
        } else {
            self.size.loser_positions += 1;
            for &mv in moves.as_ref() {
                self.follow(board, mv)?;
            }
        }
        self.done.insert(key);
        Ok(())
    }

    fn follow(&mut self, board: &mut Board, mv: DuelMove) -> Result<(), CertificateError> {
        let undo = board.play(mv);
        self.line.push(mv);
        let result = self.position(board);
        self.line.pop();
        board.undo(mv, undo);
        result
    }
}

/// Moves as the protocol writes them, separated by spaces.
fn line_text(line: &[DuelMove]) -> String {
    line.iter()
        .map(|&mv| String::from_utf8_lossy(&crate::duel::protocol::encode_move(mv)).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Why a certificate could not be made.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CertifyError {
    /// A position of the strategy whose winning move the table lost could not be proven
    /// again within the limits.
    #[error("a position at ply {0} could not be proven again within the limits")]
    Unproven(u32),
    /// The strategy holds more than [`MAX_CERTIFIED_POSITIONS`] positions.
    #[error("the strategy holds more than {MAX_CERTIFIED_POSITIONS} positions")]
    TooLarge,
    /// The limits' stop flag was raised.
    #[error("stopped")]
    Stopped,
}

/// The certificate of `winner`'s win from `board`, a position `prover` has just proven won
/// for it: the winner's moves from the prover's table, positions whose move the table lost
/// (or whose win the prover's knowledge saw without a search) proven again within `limits`
/// each.
///
/// # Errors
/// [`CertifyError`] when a position cannot be proven again, the strategy is too large, or
/// the limits' stop flag is raised.
pub fn certify(
    prover: &mut Prover,
    board: &Board,
    winner: Color,
    limits: &Limits,
) -> Result<Certificate, CertifyError> {
    certify_walking(prover, board, winner, limits, false)
}

/// [`certify`], walking separated races to their ends when `whole_races` (a certificate of
/// the older kind, without [`RACE_MARK`]).
fn certify_walking(
    prover: &mut Prover,
    board: &Board,
    winner: Color,
    limits: &Limits,
    whole_races: bool,
) -> Result<Certificate, CertifyError> {
    let attacker = prover.attacker();
    let mut walk = Make {
        prover,
        winner,
        attacker,
        limits,
        stop: limits.stop.clone(),
        choices: Vec::new(),
        done: FxHashSet::default(),
        races: (!whole_races).then(Races::default),
    };
    walk.position(&mut board.clone())?;
    Ok(Certificate {
        choices: walk.choices,
        races: !whole_races,
    })
}

/// The making walk: the same order as [`Check`]'s.
struct Make<'a> {
    prover: &'a mut Prover,
    winner: Color,
    attacker: Color,
    limits: &'a Limits,
    stop: Option<StopFlag>,
    choices: Vec<u8>,
    done: FxHashSet<u128>,
    /// Separated races, unless the walk follows them to their ends.
    races: Option<Races>,
}

impl Make<'_> {
    fn position(&mut self, board: &mut Board) -> Result<(), CertifyError> {
        if let Some(won) = board.winner() {
            // The prover's proof makes every line a win; a loss here is a bug in ply.
            return if won == self.winner {
                Ok(())
            } else {
                Err(CertifyError::Unproven(board.ply()))
            };
        }
        let key = position_key(board);
        if self.done.contains(&key) {
            return Ok(());
        }
        if self.done.len() >= MAX_CERTIFIED_POSITIONS {
            return Err(CertifyError::TooLarge);
        }
        if self.stop.as_ref().is_some_and(StopFlag::is_stopped) {
            return Err(CertifyError::Stopped);
        }
        // The checker decides a separated race as the prover did; a race the winner loses
        // here is a bug in ply.
        if let Some(races) = self.races.as_mut().filter(|_| board.separated()) {
            let won = races.winner(board);
            self.done.insert(key);
            return if won == self.winner {
                Ok(())
            } else {
                Err(CertifyError::Unproven(board.ply()))
            };
        }
        let moves = board.moves();
        if board.to_move() == self.winner {
            let mv = self
                .prover
                .quick_winning_move_for(board, self.winner, self.attacker, self.limits)
                .ok_or(CertifyError::Unproven(board.ply()))?;
            let choice = moves
                .as_ref()
                .iter()
                .position(|&m| m == mv)
                .ok_or(CertifyError::Unproven(board.ply()))?;
            self.choices.push(choice as u8);
            self.follow(board, mv)?;
        } else {
            for &mv in moves.as_ref() {
                self.follow(board, mv)?;
            }
        }
        self.done.insert(key);
        Ok(())
    }

    fn follow(&mut self, board: &mut Board, mv: DuelMove) -> Result<(), CertifyError> {
        let undo = board.play(mv);
        let result = self.position(board);
        board.undo(mv, undo);
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::openings::{OpeningError, OpeningProver, OpeningRecord};
    use crate::duel::rules::course_dice;

    /// A start of the first dice line proven with its certificate within a small budget.
    fn certified() -> OpeningRecord {
        let mut prover = OpeningProver::new(Prover::new(18)).with_certificates();
        (0..40)
            .map(|i| {
                prover.prove(
                    &course_dice()[0],
                    i * 12_345,
                    &Limits::default().with_max_nodes(100_000),
                )
            })
            .find(|r| r.winner.is_some())
            .expect("a start proven within the budget")
    }

    #[test]
    fn a_certificate_wins_for_its_winner_only_and_whole() {
        let record = certified();
        let size = record.check_certificate().unwrap().expect("a certificate");
        let text = record.certificate.clone().unwrap();
        assert!(size.winner_positions > 0 && size.wins > 0);
        assert!(text.starts_with(RACE_MARK));
        let symbols = (text.len() - RACE_MARK.len()) as u64;
        assert_eq!(symbols, size.winner_positions.div_ceil(2));
        // Claimed for the other side, the same strategy is refused; so is a flipped record.
        let flipped = OpeningRecord {
            winner: record.winner.map(Color::other),
            ..record.clone()
        };
        assert!(matches!(
            flipped.check_certificate(),
            Err(OpeningError::Certificate(_))
        ));
        // Cut short, grown, or with a symbol outside the alphabet.
        let board = record.board().unwrap();
        let winner = record.winner.unwrap();
        let check = |text: &str| {
            Certificate::parse(text).and_then(|c| check_certificate(&board, winner, &c))
        };
        assert!(matches!(
            check(&text[..text.len() - 1]),
            Err(CertificateError::Short(_))
        ));
        assert!(matches!(
            check(&format!("{text}AA")),
            Err(CertificateError::Long { .. })
        ));
        assert!(matches!(
            check(&format!("{}*", &text[..text.len() - 1])),
            Err(CertificateError::Symbol { .. })
        ));
        // An open record claims nothing and may carry no certificate.
        let open = OpeningRecord {
            winner: None,
            ..record
        };
        assert!(matches!(
            open.check_certificate(),
            Err(OpeningError::Shape(_))
        ));
    }

    #[test]
    fn a_certificate_of_whole_races_is_still_read() {
        let record = certified();
        let (board, winner) = (record.board().unwrap(), record.winner.unwrap());
        let mut prover = Prover::new(18);
        let limits = Limits::default().with_max_nodes(100_000);
        assert_eq!(prover.prove(&board, &limits).winner, Some(winner));
        let whole = certify_walking(&mut prover, &board, winner, &limits, true).unwrap();
        let text = whole.to_text();
        assert!(!text.starts_with(RACE_MARK));
        let size = check_certificate(&board, winner, &Certificate::parse(&text).unwrap()).unwrap();
        assert_eq!(size.races, 0);
        // Stopping at the races takes no more of the winner's choices.
        let short = record.check_certificate().unwrap().unwrap();
        assert!(short.winner_positions <= size.winner_positions);
    }

    #[test]
    fn separated_races_are_won_as_a_prover_says() {
        // Red's cubes right of column 2 and blue's left of column 3: the sides never meet.
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(68);
        let mut verifier = crate::duel::prover::Verifier::new(16);
        let mut races = Races::default();
        let mut checked = 0;
        while checked < 150 {
            let mut dice = course_dice()[0];
            dice.iter_mut().for_each(|d| *d = rng.random_range(0..6));
            let mut side = |columns: std::ops::Range<u8>| {
                let mut cubes = [None; 6];
                for cube in cubes.iter_mut().take(1 + checked % 3) {
                    *cube = Some(7 * rng.random_range(0..6u8) + rng.random_range(columns.clone()));
                }
                cubes
            };
            let (red, blue) = (side(3..7), side(0..3));
            let ply = rng.random_range(0..42);
            let Ok(board) = Board::from_cubes(red, blue, dice, ply) else {
                continue;
            };
            // A cube on its goal corner would be a game already over.
            if board.goal_distance(Color::Red) == 0 || board.goal_distance(Color::Blue) == 0 {
                continue;
            }
            assert!(board.separated());
            let truth = verifier.winner(&board, &Limits::default());
            assert_eq!(Some(races.winner(&board)), truth, "\n{}", board.render());
            checked += 1;
        }
    }

    #[test]
    fn a_changed_choice_is_refused_where_it_breaks_the_strategy() {
        // Changing one choice gives another strategy, which may still win (a position can
        // have two winning moves) but not everywhere: a move that does not exist, a move that
        // loses, or a walk that no longer fits the choices is refused.
        let record = certified();
        let board = record.board().unwrap();
        let winner = record.winner.unwrap();
        let text = record.certificate.unwrap();
        let original = Certificate::parse(&text).unwrap();
        let mut refused = 0;
        for at in 0..original.len().min(8) {
            let mut changed = original.clone();
            changed.choices[at] = (changed.choices[at] + 1) % MAX_MOVES;
            if check_certificate(&board, winner, &changed).is_err() {
                refused += 1;
            }
        }
        assert!(refused > 0, "some changed choice must break the strategy");
    }
}
