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

use rustc_hash::FxHashSet;
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

/// A winning strategy's choices, in the order of the walk (see the module's documentation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    choices: Vec<u8>,
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

    /// The certificate as text: one of base64url's 64 symbols per two choices, the last
    /// padded with a 0.
    #[must_use]
    pub fn to_text(&self) -> String {
        self.choices
            .chunks(2)
            .map(|pair| {
                let value = pair[0] * MAX_MOVES + pair.get(1).copied().unwrap_or(0);
                char::from(SYMBOLS[usize::from(value)])
            })
            .collect()
    }

    /// Reads a certificate's text (its length is checked by the walk: a padded last choice
    /// is one the walk does not read).
    ///
    /// # Errors
    /// [`CertificateError::Symbol`] for a character outside base64url's alphabet.
    pub fn parse(text: &str) -> Result<Certificate, CertificateError> {
        let mut choices = Vec::with_capacity(2 * text.len());
        for (at, found) in text.chars().enumerate() {
            let value = SYMBOLS
                .iter()
                .position(|&s| char::from(s) == found)
                .ok_or(CertificateError::Symbol { at, found })? as u8;
            choices.push(value / MAX_MOVES);
            choices.push(value % MAX_MOVES);
        }
        Ok(Certificate { choices })
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

/// Checks that `certificate` is a winning strategy for `winner` from `board`, with the rules
/// alone, and says how large it is.
///
/// ```
/// use ply_ewn::duel::openings::{Certificate, OpeningProver, check_certificate};
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
/// // Two choices a symbol: one per position of the winner's, the last symbol maybe padded.
/// assert_eq!(size.winner_positions.div_ceil(2), text.len() as u64);
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
    let attacker = prover.attacker();
    let mut walk = Make {
        prover,
        winner,
        attacker,
        limits,
        stop: limits.stop.clone(),
        choices: Vec::new(),
        done: FxHashSet::default(),
    };
    walk.position(&mut board.clone())?;
    Ok(Certificate {
        choices: walk.choices,
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
        assert_eq!(text.len() as u64, size.winner_positions.div_ceil(2));
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
