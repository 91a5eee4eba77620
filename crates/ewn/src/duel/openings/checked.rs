//! Every claim checked before anyone sees it: a start proven with its winning line replayed
//! against the rules, and the starts drawn for the second prover proven again by it, as
//! `ply ewn openings prove` and `verify` do and any other front end should.

use std::collections::HashSet;

use ply_search::Limits;
use thiserror::Error;

use super::log::{Check, OpeningItem};
use super::{OpeningError, OpeningProver, OpeningRecord, draw, reproof_count, verify};
use crate::duel::prover::Verifier;
use crate::duel::rules::DICE;

/// Mixed into the seed of the draws of the starts to check, so that they are another draw
/// than the starts' own sample of the same seed.
const CHECK_SEED: u64 = 0x5eed_0f00_c4ec;

/// How many of `items` starts a run of the prover gives the second prover: `requested`
/// (at most all of them), else one in a hundred, at least one.
#[must_use]
pub fn check_count(requested: Option<u64>, items: u64) -> u64 {
    requested.unwrap_or((items / 100).max(1)).min(items)
}

/// The `count` items (of `items`, numbered from 0) a run of the prover gives the second
/// prover, drawn with `seed`.
#[must_use]
pub fn checks_drawn(items: u64, count: u64, seed: u64) -> HashSet<u64> {
    draw(items, count, seed ^ CHECK_SEED).into_iter().collect()
}

/// Which of `proven` proven claims a check of a log re-proves ([`reproof_count`] of them,
/// `requested` or the default), drawn with `seed`, as positions among the proven claims.
#[must_use]
pub fn reproofs_drawn(proven: u64, requested: Option<u64>, seed: u64) -> Vec<u64> {
    draw(proven, reproof_count(proven, requested), seed ^ CHECK_SEED)
}

/// Proves `record`'s claim again with the second prover within `limits`: confirmed,
/// undecided in time, or open (an open record claims nothing).
///
/// # Errors
/// [`OpeningError::Disagreement`] when the second prover proves the other winner, or an
/// invalid record.
pub fn reprove(
    record: &OpeningRecord,
    verifier: &mut Verifier,
    limits: &Limits,
) -> Result<Check, OpeningError> {
    if record.winner.is_none() {
        return Ok(Check::Open);
    }
    Ok(if verify(record, verifier, limits)? {
        Check::Confirmed
    } else {
        Check::Undecided
    })
}

/// A claim that failed its check, with the start it is about.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{start}: {problem}")]
pub struct ClaimError {
    /// The start, as [`OpeningRecord::label`] names it.
    pub start: String,
    /// What is wrong.
    pub problem: OpeningError,
}

/// What a proof of a start must pass besides its own: its line and, when it was drawn for
/// one, the second prover.
pub struct SecondProver<'v> {
    /// The second prover.
    pub verifier: &'v mut Verifier,
    /// Its budget.
    pub limits: &'v Limits,
}

/// Proves start `index` of `dice` with `prover` within `limits`, its winning line replayed
/// against the rules and its certificate (if the prover writes them) checked, and with `second` (a start drawn for it) proven again by the second
/// prover: the item a log holds, every claim in it checked.
///
/// # Errors
/// [`OpeningError::WrongLine`] or [`OpeningError::WrongCertificate`] when the prover's line
/// or certificate fails the rules (a bug in ply), or the
/// second prover's disagreement ([`reprove`]), naming the start.
pub fn prove_checked(
    prover: &mut OpeningProver,
    dice: &[u8; DICE],
    index: u32,
    limits: &Limits,
    second: Option<SecondProver<'_>>,
) -> Result<OpeningItem, ClaimError> {
    let record = prover.prove(dice, index, limits);
    let claim_error = |problem| ClaimError {
        start: record.label(),
        problem,
    };
    if let Err(e) = record.check_line() {
        return Err(claim_error(OpeningError::WrongLine(e.to_string())));
    }
    // The prover's own certificate checked with the rules alone (a fault is a bug in ply).
    if let Err(e) = record.check_certificate() {
        return Err(claim_error(OpeningError::WrongCertificate(e.to_string())));
    }
    let check = match second {
        Some(second) => {
            Some(reprove(&record, second.verifier, second.limits).map_err(claim_error)?)
        }
        None => None,
    };
    Ok(OpeningItem { record, check })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::Prover;
    use crate::duel::rules::course_dice;

    fn line() -> [u8; crate::duel::DICE] {
        course_dice()[0]
    }

    #[test]
    fn a_checked_proof_replays_its_line_and_passes_the_second_prover() {
        let mut prover = OpeningProver::new(Prover::new(18));
        let mut verifier = Verifier::new(18);
        let limits = Limits::default().with_max_nodes(100_000);
        let unlimited = Limits::default();
        let item = (0..40)
            .map(|i| {
                let second = SecondProver {
                    verifier: &mut verifier,
                    limits: &unlimited,
                };
                prove_checked(&mut prover, &line(), i * 12_345, &limits, Some(second)).unwrap()
            })
            .find(|item| item.record.winner.is_some())
            .expect("a start proven within the budget");
        assert_eq!(item.check, Some(Check::Confirmed));
        let unchecked = prove_checked(&mut prover, &line(), 7, &limits, None).unwrap();
        assert_eq!(unchecked.check, None);
    }

    #[test]
    fn the_checks_are_drawn_apart_from_the_starts() {
        assert_eq!(check_count(None, 50), 1);
        assert_eq!(check_count(None, 1_000), 10);
        assert_eq!(check_count(Some(70), 50), 50);
        let drawn = checks_drawn(1_000, 10, 7);
        assert_eq!(drawn.len(), 10);
        assert_ne!(drawn, draw(1_000, 10, 7).into_iter().collect());
        assert_eq!(reproofs_drawn(40, None, 3).len(), 40);
        assert_eq!(reproofs_drawn(40, Some(5), 3).len(), 5);
    }
}
