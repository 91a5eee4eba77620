//! The openings of a dice line, proven: who wins each start (red's and blue's cube
//! permutations) against every defence, the winning line, and the checks of a proof.
//!
//! Red always moves first, so a start is the two permutations; the board's half-turn maps a
//! game in which blue would move first onto one of these, so a dice line has 720 x 720 =
//! 518,400 distinct starts. Start `i` is red's permutation `i / 720` and blue's `i % 720`,
//! each permutation numbered in lexicographic order.

mod certificate;
mod checked;
mod log;

pub use certificate::{
    Certificate, CertificateError, CertificateSize, CertifyError, MAX_CERTIFIED_POSITIONS,
    RACE_MARK, certify, check_certificate,
};
pub use checked::{
    ClaimError, SecondProver, check_count, checks_drawn, prove_checked, reproofs_drawn, reprove,
};
pub use log::{Check, LogError, OpeningItem, PROVE_COMMAND, read_log};

/// log2 of the second prover's table slots (16 bytes each) in a check of a proof: 64 MiB.
pub const SECOND_PROVER_BITS: u32 = 22;

use std::time::Instant;

use ply_search::{Limits, PN_INFINITY};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::protocol::{encode_move, parse_move};
use super::prover::{Prover, Verifier};
use super::rules::{Board, Color, DICE, DuelError, DuelMove};

/// Permutations of the six cubes.
const PERMUTATIONS: u32 = 720;

/// Starts of one dice line.
pub const STARTS: u32 = PERMUTATIONS * PERMUTATIONS;

/// Permutation `index` (0..720) of the cubes 0..5, in lexicographic order.
///
/// # Panics
/// For an index of 720 or more.
#[must_use]
pub fn permutation(index: u32) -> [u8; 6] {
    assert!(index < PERMUTATIONS, "permutation {index} of 720");
    let mut left: Vec<u8> = (0..6).collect();
    let mut rest = index as usize;
    let mut out = [0; 6];
    for (i, slot) in out.iter_mut().enumerate() {
        let block = FACTORIAL[5 - i];
        *slot = left.remove(rest / block);
        rest %= block;
    }
    out
}

const FACTORIAL: [usize; 6] = [1, 1, 2, 6, 24, 120];

/// The number of a permutation of 0..5 (the inverse of [`permutation`]), or `None` if it is
/// not one.
#[must_use]
fn permutation_index(perm: &[u8; 6]) -> Option<u32> {
    let mut seen = 0u8;
    let mut index = 0;
    for (i, &c) in perm.iter().enumerate() {
        if c > 5 || seen & (1 << c) != 0 {
            return None;
        }
        let smaller_unused = (0..c).filter(|&d| seen & (1 << d) == 0).count();
        index += smaller_unused * FACTORIAL[5 - i];
        seen |= 1 << c;
    }
    Some(index as u32)
}

/// Start `index` (0..518,400): red's and blue's permutations.
///
/// # Panics
/// For an index of 518,400 or more.
#[must_use]
pub fn start(index: u32) -> ([u8; 6], [u8; 6]) {
    (
        permutation(index / PERMUTATIONS),
        permutation(index % PERMUTATIONS),
    )
}

/// The number of the start with these permutations, if both are permutations.
#[must_use]
pub fn start_index(red: &[u8; 6], blue: &[u8; 6]) -> Option<u32> {
    Some(permutation_index(red)? * PERMUTATIONS + permutation_index(blue)?)
}

/// `count` distinct starts drawn at random (seeded), in increasing order; every start when
/// `count` is [`STARTS`] or more.
#[must_use]
pub fn sample(count: u32, seed: u64) -> Vec<u32> {
    if count >= STARTS {
        return (0..STARTS).collect();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut picked: Vec<u32> = rand::seq::index::sample(&mut rng, STARTS as usize, count as usize)
        .into_iter()
        .map(|i| i as u32)
        .collect();
    picked.sort_unstable();
    picked
}

/// `count` distinct numbers below `population` drawn at random (seeded), in increasing order
/// (all of them when `count` is `population` or more).
#[must_use]
pub fn draw(population: u64, count: u64, seed: u64) -> Vec<u64> {
    if count >= population {
        return (0..population).collect();
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut picked: Vec<u64> =
        rand::seq::index::sample(&mut rng, population as usize, count as usize)
            .into_iter()
            .map(|i| i as u64)
            .collect();
    picked.sort_unstable();
    picked
}

/// Digits as text: `[0, 1, 2]` -> `"012"`.
fn digits(values: &[u8]) -> String {
    values.iter().map(|&d| char::from(b'0' + d)).collect()
}

/// `"012345"` -> `[0, 1, 2, 3, 4, 5]`, for 0..5 digits only.
fn parse_digits<const N: usize>(text: &str) -> Option<[u8; N]> {
    let bytes = text.as_bytes();
    if bytes.len() != N || !bytes.iter().all(|b| (b'0'..=b'5').contains(b)) {
        return None;
    }
    let mut out = [0; N];
    for (slot, b) in out.iter_mut().zip(bytes) {
        *slot = b - b'0';
    }
    Some(out)
}

/// The result of one start: one line of a `ply ewn openings prove` log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningRecord {
    /// The dice line, 21 digits.
    pub dice: String,
    /// The start's number in its dice line (see [`start`]).
    pub start: u32,
    /// Red's cube numbers on cells 0, 1, 2, 7, 8, 14 (the protocol's order).
    pub red: String,
    /// Blue's cube numbers on cells 27, 33, 34, 39, 40, 41.
    pub blue: String,
    /// The side that wins against every defence, or `None` when the budget ran out first.
    #[serde(with = "winner_name")]
    pub winner: Option<Color>,
    /// The winner's first move of the winning line (red's opening move when red wins, blue's
    /// answer to the line's first move when blue wins), as the protocol writes it.
    #[serde(rename = "move")]
    pub first_move: Option<String>,
    /// A winning line from the start to the end of the game: the winner's proven moves, the
    /// loser's hardest defence (the reply whose refutation took the most work).
    pub line: Vec<String>,
    /// Positions the proof expanded.
    pub nodes: u64,
    /// Seconds the proof took (the line included).
    pub seconds: f64,
    /// The winner's whole strategy, a [`Certificate`]'s text, when the start was proven
    /// with certificates ([`OpeningProver::with_certificates`]) and its strategy fits in
    /// [`MAX_CERTIFIED_POSITIONS`]: checked with the rules alone by
    /// [`OpeningRecord::check_certificate`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub certificate: Option<String>,
    /// For an open start: the proof number of red's win when the budget ran out (the
    /// positions still to prove, as the search counted them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub proof_number: Option<u32>,
    /// For an open start: the disproof number of red's win (blue's win's proof number).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub disproof_number: Option<u32>,
}

/// `"red"`, `"blue"` or `null`.
mod winner_name {
    use super::Color;
    use serde::{Deserialize, Deserializer, Serializer};

    #[allow(clippy::ref_option)]
    pub(super) fn serialize<S: Serializer>(
        winner: &Option<Color>,
        out: S,
    ) -> Result<S::Ok, S::Error> {
        match winner {
            Some(Color::Red) => out.serialize_str("red"),
            Some(Color::Blue) => out.serialize_str("blue"),
            None => out.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        input: D,
    ) -> Result<Option<Color>, D::Error> {
        match Option::<String>::deserialize(input)?.as_deref() {
            None => Ok(None),
            Some("red") => Ok(Some(Color::Red)),
            Some("blue") => Ok(Some(Color::Blue)),
            Some(other) => Err(serde::de::Error::custom(format!(
                "winner '{other}' is not red, blue or null"
            ))),
        }
    }
}

/// Why a record is refused or a proof is not confirmed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OpeningError {
    /// The dice are not 21 digits 0-5.
    #[error("dice '{0}' are not 21 digits 0-5")]
    Dice(String),
    /// A permutation is not one of 0..5.
    #[error("'{0}' is not a permutation of the cube numbers 0-5")]
    Permutation(String),
    /// The start number does not match the permutations.
    #[error("start {found} does not match the permutations (they are start {expected})")]
    StartNumber {
        /// The recorded number.
        found: u32,
        /// The permutations' number.
        expected: u32,
    },
    /// A move of the winning line cannot be read or is not legal.
    #[error("move {ply} of the winning line, '{mv}', is not legal: {why}")]
    IllegalMove {
        /// Its ply (from 0).
        ply: usize,
        /// The move as recorded.
        mv: String,
        /// Why.
        why: String,
    },
    /// The line ends before the game does, or the game ends before the line.
    #[error("the winning line {0}")]
    LineEnd(String),
    /// The line is won by the other side.
    #[error("the winning line is won by {found}, the record says {recorded}")]
    LineWinner {
        /// The line's winner.
        found: Color,
        /// The recorded winner.
        recorded: Color,
    },
    /// The recorded first move is not the winner's first move on the line.
    #[error("the recorded move '{0}' is not the winner's first move on the line")]
    FirstMove(String),
    /// A proven start without a line, or an open start with one.
    #[error("{0}")]
    Shape(String),
    /// The prover's own winning line fails the rules (a bug in ply).
    #[error("internal error: the prover's winning line fails the rules: {0}")]
    WrongLine(String),
    /// The prover's own certificate fails its check (a bug in ply).
    #[error("internal error: the prover's certificate fails: {0}")]
    WrongCertificate(String),
    /// The certificate is not a winning strategy for the recorded winner.
    #[error("the certificate fails: {0}")]
    Certificate(CertificateError),
    /// The verifier found the other winner.
    #[error("the verifier proves that {verified} wins, the record says {recorded}")]
    Disagreement {
        /// The verifier's winner.
        verified: Color,
        /// The recorded winner.
        recorded: Color,
    },
}

impl OpeningRecord {
    /// How messages name the start: `dice 343...2, start 1234 (red 012345, blue 543210)`.
    #[must_use]
    pub fn label(&self) -> String {
        format!(
            "dice {}, start {} (red {}, blue {})",
            self.dice, self.start, self.red, self.blue
        )
    }

    /// The dice and start position of the record, after checking that they are valid and
    /// agree with the start number.
    ///
    /// # Errors
    /// [`OpeningError`] naming what is wrong.
    pub fn board(&self) -> Result<Board, OpeningError> {
        let dice: [u8; DICE] =
            parse_digits(&self.dice).ok_or_else(|| OpeningError::Dice(self.dice.clone()))?;
        let red: [u8; 6] = parse_digits(&self.red)
            .filter(|p| permutation_index(p).is_some())
            .ok_or_else(|| OpeningError::Permutation(self.red.clone()))?;
        let blue: [u8; 6] = parse_digits(&self.blue)
            .filter(|p| permutation_index(p).is_some())
            .ok_or_else(|| OpeningError::Permutation(self.blue.clone()))?;
        let expected = start_index(&red, &blue).expect("checked permutations");
        if expected != self.start {
            return Err(OpeningError::StartNumber {
                found: self.start,
                expected,
            });
        }
        Board::new(red, blue, dice).map_err(|e: DuelError| OpeningError::Dice(e.to_string()))
    }

    /// Replays the winning line from the start against the rules: every move legal, the
    /// game over exactly at its end, won by the recorded winner, and the recorded move the
    /// winner's first on the line. An open start must have no line.
    ///
    /// # Errors
    /// [`OpeningError`] naming the first fault.
    pub fn check_line(&self) -> Result<(), OpeningError> {
        let mut board = self.board()?;
        let Some(winner) = self.winner else {
            if self.line.is_empty() && self.first_move.is_none() {
                return Ok(());
            }
            return Err(OpeningError::Shape(
                "an open start has a winning line or move".into(),
            ));
        };
        if self.line.is_empty() {
            return Err(OpeningError::Shape(
                "a proven start has no winning line".into(),
            ));
        }
        let mut winners_first = None;
        for (ply, text) in self.line.iter().enumerate() {
            if board.winner().is_some() {
                return Err(OpeningError::LineEnd(format!(
                    "goes on after the game ended at ply {ply}"
                )));
            }
            let illegal = |why: String| OpeningError::IllegalMove {
                ply,
                mv: text.clone(),
                why,
            };
            let bytes: [u8; 2] = text
                .as_bytes()
                .try_into()
                .map_err(|_| illegal("not two characters".into()))?;
            let mv = parse_move(bytes).map_err(|e| illegal(e.to_string()))?;
            if board.to_move() == winner && winners_first.is_none() {
                winners_first = Some(text.clone());
            }
            board.play_checked(mv).map_err(|e| illegal(e.to_string()))?;
        }
        match board.winner() {
            None => Err(OpeningError::LineEnd("ends before the game does".into())),
            Some(found) if found != winner => Err(OpeningError::LineWinner {
                found,
                recorded: winner,
            }),
            Some(_) if self.first_move != winners_first => Err(OpeningError::FirstMove(
                self.first_move.clone().unwrap_or_default(),
            )),
            Some(_) => Ok(()),
        }
    }

    /// Checks the record's certificate with the rules alone: a winning strategy for the
    /// recorded winner from the start. `None` for a record without one.
    ///
    /// # Errors
    /// [`OpeningError::Certificate`] naming the strategy's first fault, or an invalid record
    /// (an open start with a certificate among them).
    pub fn check_certificate(&self) -> Result<Option<CertificateSize>, OpeningError> {
        let Some(text) = &self.certificate else {
            return Ok(None);
        };
        let board = self.board()?;
        let Some(winner) = self.winner else {
            return Err(OpeningError::Shape(
                "an open start has a certificate".into(),
            ));
        };
        let certificate = Certificate::parse(text).map_err(OpeningError::Certificate)?;
        check_certificate(&board, winner, &certificate)
            .map(Some)
            .map_err(OpeningError::Certificate)
    }
}

/// Proves starts one after the other with one [`Prover`]. Each start is proven afresh (the
/// table forgets the earlier starts' positions, in no time), so that a record does not depend
/// on which starts were proven before it: a run in shards records what the whole run does.
pub struct OpeningProver {
    prover: Prover,
    certify: bool,
}

impl OpeningProver {
    /// A prover of openings using `prover`.
    #[must_use]
    pub fn new(prover: Prover) -> Self {
        OpeningProver {
            prover,
            certify: false,
        }
    }

    /// The same prover, writing each proven start's [`Certificate`] into its record (the
    /// strategy walked to the end of every game: several times the proof's time, so it is
    /// asked for).
    #[must_use]
    pub fn with_certificates(mut self) -> Self {
        self.certify = true;
        self
    }

    /// Proves start `index` of `dice` within `limits` (the line's re-proofs, rare, included
    /// in the time but not in the limits, though their [`StopFlag`](ply_search::StopFlag)
    /// stops them too); an open record when the limits run out first.
    ///
    /// # Panics
    /// For a start index of 518,400 or more.
    pub fn prove(&mut self, dice: &[u8; DICE], index: u32, limits: &Limits) -> OpeningRecord {
        let began = Instant::now();
        let (red, blue) = start(index);
        let board = Board::new(red, blue, *dice).expect("a valid start");
        self.prover.forget();
        let proof = self.prover.prove(&board, limits);
        // The line's re-proofs have no budget, but stop when the caller's flag does.
        let unlimited = Limits {
            stop: limits.stop.clone(),
            ..Limits::default()
        };
        let line = proof.winner.and_then(|winner| {
            self.prover
                .line(&board, winner, &unlimited)
                .map(|line| (winner, line))
        });
        let (winner, first_move, line) = match line {
            Some((winner, line)) => {
                let first = line
                    .iter()
                    .enumerate()
                    .find(|(ply, _)| (ply % 2 == 0) == (winner == Color::Red))
                    .map(|(_, mv)| text(*mv));
                (Some(winner), first, line.into_iter().map(text).collect())
            }
            None => (None, None, Vec::new()),
        };
        // The proof's time, the line included: the certificate, asked for apart, is not.
        let seconds = began.elapsed().as_secs_f64();
        let certificate = match winner {
            Some(winner) if self.certify => certify(&mut self.prover, &board, winner, &unlimited)
                .ok()
                .map(|c| c.to_text()),
            _ => None,
        };
        let open = winner.is_none();
        OpeningRecord {
            dice: digits(dice),
            start: index,
            red: digits(&red),
            blue: digits(&blue),
            winner,
            first_move,
            line,
            nodes: proof.nodes,
            seconds,
            proof_number: open.then_some(proof.proof.min(PN_INFINITY)),
            disproof_number: open.then_some(proof.disproof.min(PN_INFINITY)),
            certificate,
        }
    }
}

/// A move as the protocol writes it.
fn text(mv: DuelMove) -> String {
    String::from_utf8_lossy(&encode_move(mv)).into_owned()
}

/// Re-proves a record's start with the [`Verifier`] (another algorithm) within `limits`:
/// `Ok(true)` when it agrees, `Ok(false)` when it could not decide in time or the record is
/// open.
///
/// # Errors
/// [`OpeningError::Disagreement`] when it proves the other winner, or an invalid record.
pub fn verify(
    record: &OpeningRecord,
    verifier: &mut Verifier,
    limits: &Limits,
) -> Result<bool, OpeningError> {
    let board = record.board()?;
    let Some(recorded) = record.winner else {
        return Ok(false);
    };
    match verifier.winner(&board, limits) {
        None => Ok(false),
        Some(verified) if verified == recorded => Ok(true),
        Some(verified) => Err(OpeningError::Disagreement { verified, recorded }),
    }
}

/// The proven claims without a certificate of a log that a check re-proves every one of by
/// default: a replayed line shows a legal game, not who wins, so the only check of a claim
/// without a certificate is to prove it again, and a log this small is re-proven whole (one false
/// claim among forty would otherwise pass whenever the sample missed it).
pub const REPROVE_ALL_UP_TO: u64 = 1_000;

/// Of a log with more proven claims than [`REPROVE_ALL_UP_TO`], the default re-proves one in
/// this many, and never fewer than [`REPROVE_ALL_UP_TO`]: a whole dice line's log holds
/// 518,400 claims, and proving them all again costs as much as the log did.
pub const REPROVE_ONE_IN: u64 = 100;

/// How many of `proven` proven claims a check re-proves: `requested` (at most all of them),
/// else every one of up to [`REPROVE_ALL_UP_TO`], and of a larger log one in
/// [`REPROVE_ONE_IN`] but at least [`REPROVE_ALL_UP_TO`], drawn at random ([`draw`]).
#[must_use]
pub fn reproof_count(proven: u64, requested: Option<u64>) -> u64 {
    requested
        .unwrap_or_else(|| (proven / REPROVE_ONE_IN).max(REPROVE_ALL_UP_TO))
        .min(proven)
}

/// What the records of one dice line say.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineSummary {
    /// The dice line.
    pub dice: String,
    /// Starts recorded.
    pub starts: u32,
    /// Starts proven won by red, the first mover.
    pub red: u32,
    /// Starts proven won by blue.
    pub blue: u32,
    /// Starts left open by the budget.
    pub open: u32,
    /// Plies of the winning lines (the game's length under the proof): median and maximum.
    pub plies: (u32, u32),
    /// How many winning lines end at each ply (index: plies).
    pub plies_histogram: Vec<u32>,
    /// Seconds a start took: median, 99th percentile, maximum.
    pub seconds: (f64, f64, f64),
    /// Positions expanded: median and total.
    pub nodes: (u64, u64),
    /// The hardest proven starts: start number and positions expanded, most first (five).
    pub hardest: Vec<(u32, u64)>,
}

/// The value at quantile `q` (0..1) of sorted `values` (nearest rank).
fn quantile<T: Copy + Default>(sorted: &[T], q: f64) -> T {
    if sorted.is_empty() {
        return T::default();
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

/// What is kept of one dice line's records for its summary.
#[derive(Clone, Debug, Default)]
struct LineTally {
    dice: String,
    red: u32,
    blue: u32,
    open: u32,
    plies: Vec<u32>,
    seconds: Vec<f64>,
    nodes: Vec<u64>,
    /// The five hardest proven starts so far.
    hardest: Vec<(u32, u64)>,
}

/// Records added one at a time and summarised per dice line, without keeping the records.
#[derive(Clone, Debug, Default)]
pub struct OpeningsTally {
    lines: Vec<LineTally>,
}

impl OpeningsTally {
    /// Counts a record.
    pub fn add(&mut self, record: &OpeningRecord) {
        let index = match self.lines.iter().position(|l| l.dice == record.dice) {
            Some(i) => i,
            None => {
                self.lines.push(LineTally {
                    dice: record.dice.clone(),
                    ..LineTally::default()
                });
                self.lines.len() - 1
            }
        };
        let line = &mut self.lines[index];
        match record.winner {
            Some(Color::Red) => line.red += 1,
            Some(Color::Blue) => line.blue += 1,
            None => line.open += 1,
        }
        if record.winner.is_some() {
            line.plies.push(record.line.len() as u32);
            line.hardest.push((record.start, record.nodes));
            line.hardest
                .sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
            line.hardest.truncate(5);
        }
        line.seconds.push(record.seconds);
        line.nodes.push(record.nodes);
    }

    /// Records counted.
    #[must_use]
    pub fn records(&self) -> usize {
        self.lines.iter().map(|l| l.seconds.len()).sum()
    }

    /// One summary per dice line, in the order the lines first came.
    #[must_use]
    pub fn summaries(&self) -> Vec<LineSummary> {
        self.lines
            .iter()
            .map(|line| {
                let mut plies = line.plies.clone();
                plies.sort_unstable();
                let mut histogram = vec![0; plies.last().map_or(0, |&p| p as usize + 1)];
                for &p in &plies {
                    histogram[p as usize] += 1;
                }
                let mut seconds = line.seconds.clone();
                seconds.sort_by(f64::total_cmp);
                let mut nodes = line.nodes.clone();
                nodes.sort_unstable();
                LineSummary {
                    dice: line.dice.clone(),
                    starts: line.seconds.len() as u32,
                    red: line.red,
                    blue: line.blue,
                    open: line.open,
                    plies: (quantile(&plies, 0.5), plies.last().copied().unwrap_or(0)),
                    plies_histogram: histogram,
                    seconds: (
                        quantile(&seconds, 0.5),
                        quantile(&seconds, 0.99),
                        seconds.last().copied().unwrap_or(0.0),
                    ),
                    nodes: (quantile(&nodes, 0.5), nodes.iter().sum()),
                    hardest: line.hardest.clone(),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One summary per dice line, in the order the lines first appear.
    #[must_use]
    fn summarise(records: &[OpeningRecord]) -> Vec<LineSummary> {
        let mut tally = OpeningsTally::default();
        for record in records {
            tally.add(record);
        }
        tally.summaries()
    }

    #[test]
    fn permutations_are_numbered_in_lexicographic_order() {
        assert_eq!(permutation(0), [0, 1, 2, 3, 4, 5]);
        assert_eq!(permutation(1), [0, 1, 2, 3, 5, 4]);
        assert_eq!(permutation(719), [5, 4, 3, 2, 1, 0]);
        let mut last = None;
        for i in 0..PERMUTATIONS {
            let p = permutation(i);
            assert_eq!(permutation_index(&p), Some(i));
            assert!(last < Some(p), "increasing");
            last = Some(p);
        }
        assert_eq!(permutation_index(&[0, 0, 1, 2, 3, 4]), None);
        assert_eq!(permutation_index(&[0, 1, 2, 3, 4, 6]), None);
        assert_eq!(start(0), ([0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5]));
        assert_eq!(start(STARTS - 1), ([5, 4, 3, 2, 1, 0], [5, 4, 3, 2, 1, 0]));
        assert_eq!(
            start_index(&[0, 1, 2, 3, 5, 4], &[0, 1, 2, 3, 4, 5]),
            Some(720)
        );
    }

    #[test]
    fn a_small_log_is_reproven_whole_and_a_large_one_in_part() {
        assert_eq!(reproof_count(0, None), 0);
        assert_eq!(reproof_count(40, None), 40);
        assert_eq!(reproof_count(REPROVE_ALL_UP_TO, None), REPROVE_ALL_UP_TO);
        assert_eq!(
            reproof_count(REPROVE_ALL_UP_TO + 1, None),
            REPROVE_ALL_UP_TO
        );
        assert_eq!(reproof_count(518_400, None), 5_184);
        // Never fewer for more claims.
        let counts: Vec<u64> = (0..300_000)
            .step_by(997)
            .map(|n| reproof_count(n, None))
            .collect();
        assert!(counts.windows(2).all(|w| w[0] <= w[1]));
        assert_eq!(reproof_count(40, Some(20)), 20);
        assert_eq!(reproof_count(40, Some(0)), 0);
        assert_eq!(reproof_count(40, Some(100)), 40);
        // Every claim, whatever the seed of the draw.
        for seed in 0..20 {
            assert_eq!(
                draw(40, reproof_count(40, None), seed),
                (0..40).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn samples_are_distinct_sorted_and_seeded() {
        let a = sample(1000, 7);
        assert_eq!(a.len(), 1000);
        assert!(a.windows(2).all(|w| w[0] < w[1]));
        assert!(a.iter().all(|&i| i < STARTS));
        assert_eq!(a, sample(1000, 7));
        assert_ne!(a, sample(1000, 8));
        assert_eq!(sample(STARTS + 5, 1).len(), STARTS as usize);
    }

    fn course_dice() -> [u8; DICE] {
        [
            3, 4, 3, 2, 4, 2, 4, 0, 4, 0, 3, 1, 2, 4, 1, 1, 5, 2, 0, 4, 2,
        ]
    }

    #[test]
    fn a_proven_record_replays_and_a_tampered_one_does_not() {
        let mut prover = OpeningProver::new(Prover::new(18));
        // Starts whose proofs are small on this dice line.
        let record = (0..40)
            .map(|i| {
                prover.prove(
                    &course_dice(),
                    i * 12_345,
                    &Limits::default().with_max_nodes(100_000),
                )
            })
            .find(|r| r.winner.is_some())
            .expect("a start proven within the budget");
        record.check_line().unwrap();
        let json = serde_json::to_string(&record).unwrap();
        assert!(json.contains(r#""winner":"red""#) || json.contains(r#""winner":"blue""#));
        let back: OpeningRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(back, record);
        let mut verifier = Verifier::new(18);
        assert_eq!(verify(&record, &mut verifier, &Limits::default()), Ok(true));

        let other = record.winner.map(Color::other);
        let flipped = OpeningRecord {
            winner: other,
            ..record.clone()
        };
        assert!(matches!(
            flipped.check_line(),
            Err(OpeningError::LineWinner { .. })
        ));
        assert!(matches!(
            verify(&flipped, &mut verifier, &Limits::default()),
            Err(OpeningError::Disagreement { .. })
        ));
        let mut short = record.clone();
        short.line.pop();
        assert!(matches!(short.check_line(), Err(OpeningError::LineEnd(_))));
        let mut illegal = record.clone();
        illegal.line[0] = "53".into();
        assert!(matches!(
            illegal.check_line(),
            Err(OpeningError::IllegalMove { ply: 0, .. })
        ));
        let renumbered = OpeningRecord {
            start: record.start + 1,
            ..record.clone()
        };
        assert!(matches!(
            renumbered.check_line(),
            Err(OpeningError::StartNumber { .. })
        ));
    }

    #[test]
    fn a_record_does_not_depend_on_the_starts_proven_before_it() {
        let mut prover = OpeningProver::new(Prover::new(18));
        let limits = Limits::default().with_max_nodes(1_000_000);
        let same = |mut record: OpeningRecord| {
            record.seconds = 0.0;
            record
        };
        // Two starts whose proofs take a few tens of thousands of positions.
        let first = same(prover.prove(&course_dice(), 208_647, &limits));
        assert!(first.winner.is_some() && first.nodes > 1_000, "{first:?}");
        let other = prover.prove(&course_dice(), 510_413, &limits);
        assert!(other.winner.is_some());
        assert_eq!(same(prover.prove(&course_dice(), 208_647, &limits)), first);
        let fresh =
            same(OpeningProver::new(Prover::new(18)).prove(&course_dice(), 208_647, &limits));
        assert_eq!(fresh, first);
    }

    #[test]
    fn an_exhausted_budget_leaves_the_start_open_with_its_bounds() {
        let mut prover = OpeningProver::new(Prover::new(16));
        let record = prover.prove(&course_dice(), 0, &Limits::default().with_max_nodes(5));
        assert_eq!(record.winner, None);
        assert!(record.line.is_empty());
        assert!(record.proof_number.is_some_and(|p| p > 0));
        assert!(record.disproof_number.is_some_and(|d| d > 0));
        record.check_line().unwrap();
        let json = serde_json::to_string(&record).unwrap();
        assert!(json.contains(r#""winner":null"#), "{json}");
    }

    #[test]
    fn summaries_count_per_dice_line() {
        let record = |dice: &str, start: u32, winner: Option<Color>, plies: usize| OpeningRecord {
            dice: dice.into(),
            start,
            red: String::new(),
            blue: String::new(),
            winner,
            first_move: None,
            line: vec!["00".into(); plies],
            nodes: u64::from(start) * 10,
            seconds: f64::from(start),
            proof_number: None,
            disproof_number: None,
            certificate: None,
        };
        let records = [
            record("a", 1, Some(Color::Red), 11),
            record("a", 2, Some(Color::Blue), 13),
            record("b", 3, None, 0),
            record("a", 4, Some(Color::Red), 15),
        ];
        let lines = summarise(&records);
        assert_eq!(lines.len(), 2);
        let a = &lines[0];
        assert_eq!((a.starts, a.red, a.blue, a.open), (3, 2, 1, 0));
        assert_eq!(a.plies, (13, 15));
        assert_eq!(a.plies_histogram[11..], [1, 0, 1, 0, 1]);
        assert_eq!(a.hardest, vec![(4, 40), (2, 20), (1, 10)]);
        assert_eq!(a.seconds, (2.0, 4.0, 4.0));
        assert_eq!((lines[1].starts, lines[1].open), (1, 1));
    }
}
