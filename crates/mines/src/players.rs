//! Simple players: the contest's naive player and a round-trip probe for benchmarks.

use std::time::{Duration, Instant};

use crate::client::{ClickResult, Session};
use crate::error::MinesError;

/// What a simple player did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PlayStats {
    /// Clicks sent.
    pub clicks: u64,
    /// Clicks answered "skipped".
    pub skipped: u64,
    /// Clicks that hit a mine.
    pub mines: u64,
    /// Time spent clicking.
    pub elapsed: Duration,
}

/// The contest's naive player: one channel, `click(r, c, true)` on every cell in row-major
/// order. It opens every safe cell (and every mine), so it scores 100 when A = 0.
pub fn naive(session: &Session) -> Result<PlayStats, MinesError> {
    let mut channel = session.channel()?;
    let mut stats = PlayStats::default();
    let start = Instant::now();
    for r in 0..session.n() {
        for c in 0..session.n() {
            stats.clicks += 1;
            match channel.click(r, c, true)? {
                ClickResult::Skipped { .. } => stats.skipped += 1,
                ClickResult::Mine => stats.mines += 1,
                ClickResult::Opened(_) => {}
            }
        }
    }
    stats.elapsed = start.elapsed();
    Ok(stats)
}

/// Sends `clicks` `click_do_not_expand` requests on one channel, visiting cells `stride`
/// apart in row-major order (wrapping), and returns the counts: the server's round-trip
/// benchmark (a large stride touches all of the server's memory quickly).
pub fn probe(session: &Session, clicks: u64, stride: u64) -> Result<PlayStats, MinesError> {
    let mut channel = session.channel()?;
    let n = u64::from(session.n());
    let mut stats = PlayStats::default();
    let start = Instant::now();
    for i in 0..clicks {
        let cell = i.wrapping_mul(stride) % (n * n);
        if channel.click_do_not_expand((cell / n) as u32, (cell % n) as u32)? == ClickResult::Mine {
            stats.mines += 1;
        }
        stats.clicks += 1;
    }
    stats.elapsed = start.elapsed();
    Ok(stats)
}
