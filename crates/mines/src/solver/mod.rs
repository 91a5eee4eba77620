//! The parallel player: T worker threads, one channel each, over one shared knowledge map.
//!
//! Each worker owns a stripe of rows where it makes its guesses; deductions and clicks go
//! wherever the knowledge leads, across stripe borders, and a cell is clicked by whoever
//! claims it first (a compare-and-swap on its byte), so no cell is clicked twice. Logic runs
//! strongest-first: the two single-cell rules on every number that changed, then the pair rule
//! between numbers two cells apart, then exact enumeration of small frontier components; a
//! guess happens only when every worker has run out of deductions, and takes the cell of least
//! mine probability (an interior cell carries the density of the unknown remainder). Clicks
//! expand zeros on the server (`click` with `skip_when_reopen`), which opens a whole opening in
//! one round trip.
//!
//! [`Strategy::Reference`] re-implements the contest's reference solution for comparison:
//! `click_do_not_expand` only, the two single-cell rules, random guesses by every thread at
//! any time, and a row-major sweep by one thread once 95 % of the board is known.

mod deduce;
mod knowledge;
mod worker;

use std::time::{Duration, Instant};

use crate::client::{ClickResult, Session};
use crate::error::MinesError;
use crate::game::{Click, Game};
use crate::opening::Expander;
use crate::protocol::Entry;

pub(crate) use deduce::EnumLimits;
pub(crate) use knowledge::Knowledge;
pub(crate) use worker::Shared;

/// How a click came back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// The cell is a mine.
    Mine,
    /// The cell was already open; whether it is a mine.
    Skipped {
        /// Whether it is a mine.
        mine: bool,
    },
    /// Safe: the opened cells are in the output.
    Opened,
}

/// Something that clicks cells: a channel to a server, or a game in this process.
///
/// A click is sent ([`Clicker::submit`]) and its answer collected later
/// ([`Clicker::finish`]), so a player can work while the server answers; at most one click
/// is in flight.
pub trait Clicker {
    /// Sends a click on (r, c): with `expand`, `click(r, c, skip_when_reopen = true)`, else
    /// `click_do_not_expand`.
    ///
    /// # Errors
    /// When the request cannot be sent.
    fn submit(&mut self, r: u32, c: u32, expand: bool) -> Result<(), MinesError>;

    /// Whether the click in flight is answered (so [`Clicker::finish`] will not wait).
    fn answered(&self) -> bool;

    /// Waits for the answer to the click in flight. Opened cells go to `out` (cleared first).
    ///
    /// # Errors
    /// When the server breaks the protocol or the pipes fail.
    fn finish(&mut self, out: &mut Vec<Entry>) -> Result<Reply, MinesError>;

    /// Clicks (r, c) and waits for the answer: [`Clicker::submit`], then [`Clicker::finish`].
    ///
    /// # Errors
    /// As those two.
    fn click(
        &mut self,
        r: u32,
        c: u32,
        expand: bool,
        out: &mut Vec<Entry>,
    ) -> Result<Reply, MinesError> {
        self.submit(r, c, expand)?;
        self.finish(out)
    }
}

impl Clicker for crate::client::Channel<'_> {
    fn submit(&mut self, r: u32, c: u32, expand: bool) -> Result<(), MinesError> {
        self.send(r, c, expand, !expand)
    }

    fn answered(&self) -> bool {
        crate::client::Channel::answered(self)
    }

    fn finish(&mut self, out: &mut Vec<Entry>) -> Result<Reply, MinesError> {
        out.clear();
        Ok(match self.answer()? {
            ClickResult::Mine => Reply::Mine,
            ClickResult::Skipped { mine } => Reply::Skipped { mine },
            ClickResult::Opened(cells) => {
                out.extend_from_slice(cells);
                Reply::Opened
            }
        })
    }
}

/// Clicks on a [`Game`] in this process (tests, benchmarks of the logic alone): a click is
/// answered as soon as it is submitted.
pub struct LocalClicker<'g> {
    game: &'g Game,
    expander: Expander,
    /// The answer to the click in flight, and its opened cells.
    answer: Option<Reply>,
    opened: Vec<Entry>,
}

impl<'g> LocalClicker<'g> {
    /// A clicker on `game`.
    #[must_use]
    pub fn new(game: &'g Game) -> Self {
        LocalClicker {
            game,
            expander: Expander::default(),
            answer: None,
            opened: Vec::new(),
        }
    }
}

impl Clicker for LocalClicker<'_> {
    fn submit(&mut self, r: u32, c: u32, expand: bool) -> Result<(), MinesError> {
        let got = self.game.click(
            r as u16,
            c as u16,
            expand,
            !expand,
            &mut self.expander,
            &mut self.opened,
            usize::MAX,
        );
        self.answer = Some(match got {
            Ok(Click::Mine) => Reply::Mine,
            Ok(Click::Skipped { mine }) => Reply::Skipped { mine },
            Ok(Click::Opened(_)) => Reply::Opened,
            Err(_) => unreachable!("no cap on local openings"),
        });
        Ok(())
    }

    fn answered(&self) -> bool {
        self.answer.is_some()
    }

    fn finish(&mut self, out: &mut Vec<Entry>) -> Result<Reply, MinesError> {
        let answer = self.answer.take().ok_or_else(|| {
            MinesError::Protocol("no click in flight to collect an answer for".into())
        })?;
        out.clear();
        std::mem::swap(out, &mut self.opened);
        Ok(answer)
    }
}

/// Which player to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Strategy {
    /// ply's solver (see the module documentation).
    Ply,
    /// The contest's reference approach, re-implemented.
    Reference,
}

/// The default number of worker threads: half the cores (each channel's server thread spins
/// on a core of its own while it is busy, and a player thread spins on its answer), at least
/// 1 and at most 8.
#[must_use]
pub fn default_threads() -> usize {
    (std::thread::available_parallelism().map_or(1, usize::from) / 2).clamp(1, 8)
}

/// Solver settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SolverConfig {
    /// Worker threads (one channel each).
    pub threads: usize,
    /// The player.
    pub strategy: Strategy,
    /// Seed of the reference's random guesses.
    pub seed: u64,
    /// Limits of the component enumeration.
    pub enumeration: EnumLimits,
}

impl Default for SolverConfig {
    fn default() -> Self {
        SolverConfig {
            threads: default_threads(),
            strategy: Strategy::Ply,
            seed: 1,
            enumeration: EnumLimits::default(),
        }
    }
}

/// What a solve did, summed over the workers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct SolveStats {
    /// Round trips to the server.
    pub clicks: u64,
    /// Cells newly opened.
    pub opened: u64,
    /// Guesses made.
    pub guesses: u64,
    /// Mines clicked (all on guesses, unless a deduction were wrong).
    pub mines_hit: u64,
    /// Mines clicked on a deduced-safe cell: always 0 for a sound solver.
    pub wrong_deductions: u64,
    /// Cells found safe or mines by the pair rule.
    pub pair_deductions: u64,
    /// Cells found safe or mines by enumeration.
    pub enum_deductions: u64,
    /// Guesses taken on a frontier cell by its computed probability.
    pub frontier_guesses: u64,
    /// Numbers examined with the single-cell rules.
    pub examined: u64,
    /// Wall time of the solve.
    #[serde(skip)]
    pub elapsed: Duration,
}

impl SolveStats {
    fn add(&mut self, other: &SolveStats) {
        self.clicks += other.clicks;
        self.examined += other.examined;
        self.opened += other.opened;
        self.guesses += other.guesses;
        self.mines_hit += other.mines_hit;
        self.wrong_deductions += other.wrong_deductions;
        self.pair_deductions += other.pair_deductions;
        self.enum_deductions += other.enum_deductions;
        self.frontier_guesses += other.frontier_guesses;
    }
}

/// Solves an N x N board with K mines with one clicker per thread (`clickers.len()` threads,
/// at most one per row: each worker owns a stripe of rows, so clickers beyond N go unused).
///
/// # Errors
/// The first error a clicker reports (the other workers then stop).
pub fn solve_with<C: Clicker + Send>(
    n: u32,
    k: u64,
    mut clickers: Vec<C>,
    config: &SolverConfig,
) -> Result<SolveStats, MinesError> {
    let started = Instant::now();
    clickers.truncate(n as usize);
    let knowledge = if clickers.len() == 1 {
        Knowledge::single_writer(n, k)
    } else {
        Knowledge::new(n, k)
    };
    let shared = Shared::new(clickers.len(), n);
    let results: Vec<Result<SolveStats, MinesError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = clickers
            .into_iter()
            .enumerate()
            .map(|(i, clicker)| {
                let (knowledge, shared) = (&knowledge, &shared);
                let rows = shared.stripe(i, n);
                scope.spawn(move || {
                    // A worker that fails or panics stops the others, which would otherwise
                    // wait for it.
                    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        let mut w =
                            worker::Worker::new(knowledge, shared, clicker, config, i, rows);
                        w.run().map(|()| w.stats())
                    }));
                    if !matches!(run, Ok(Ok(_))) {
                        shared.stop();
                    }
                    run.unwrap_or_else(|e| std::panic::resume_unwind(e))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    let mut total = SolveStats::default();
    for result in results {
        total.add(&result?);
    }
    total.elapsed = started.elapsed();
    Ok(total)
}

/// Plays a judged game: opens `config.threads` channels on `session` and solves.
///
/// # Errors
/// When a channel cannot be opened or a click fails.
pub fn solve_session(session: &Session, config: &SolverConfig) -> Result<SolveStats, MinesError> {
    let threads = config.threads.clamp(1, 1023).min(session.n() as usize);
    let channels = (0..threads)
        .map(|_| session.channel())
        .collect::<Result<Vec<_>, _>>()?;
    solve_with(session.n(), session.k(), channels, config)
}
