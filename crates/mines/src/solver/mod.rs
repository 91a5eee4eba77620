//! The parallel player: T worker threads, one channel each, over one shared knowledge map.
//!
//! - `knowledge`: one byte per cell, written by every worker; `deduce`: the single-cell
//!   rules, the pair rule and enumeration of frontier components.
//! - `schedule`: the stripes of rows the workers own, the numbers they hand each other, and
//!   the wait for quiet before a guess.
//! - `pipeline`: a worker's clicks, one in flight while it deduces.
//! - `guess`: the guessing policies, ply's least risk and the contest reference's random
//!   guesses and sweep.
//! - `worker`: ply's worker; `reference`: the contest's reference solution.
//!
//! ply's worker claims a cell by a compare-and-swap on its byte, so no cell is clicked
//! twice; logic runs strongest-first (the two single-cell rules on every number that
//! changed, then the pair rule between numbers two cells apart, then exact enumeration of
//! small frontier components), and a guess happens only when every worker has run out of
//! deductions. Clicks expand zeros on the server (`click` with `skip_when_reopen`), which
//! opens a whole opening in one round trip.

mod budget;
mod clicker;
mod deduce;
mod guess;
mod knowledge;
mod pipeline;
mod reference;
mod schedule;
mod worker;

use std::time::{Duration, Instant};

use ply_search::{GiveUp, Limits};

use budget::{Budgeted, ClickBudget};

use crate::client::Session;
use crate::error::MinesError;

pub use clicker::{Clicker, LocalClicker, Reply};
pub(crate) use deduce::EnumLimits;
pub(crate) use knowledge::Knowledge;
pub(crate) use schedule::Schedule;

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
    /// The budget that ended the solve before the board was played out, if one did: the
    /// solve then reports the clicks charged, its time and nothing else.
    #[serde(skip)]
    pub stopped: Option<GiveUp>,
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
/// at most one per row: each worker owns a stripe of rows, so clickers beyond N go unused),
/// within `limits`: a click is a node, and a solve that runs out of clicks or time, or whose
/// stop flag is raised, ends with its clicks and time and the budget that ran out
/// ([`SolveStats::stopped`]).
///
/// # Errors
/// The first error a clicker reports (the other workers then stop).
pub fn solve_with<C: Clicker + Send>(
    n: u32,
    k: u64,
    clickers: Vec<C>,
    config: &SolverConfig,
    limits: &Limits,
) -> Result<SolveStats, MinesError> {
    let started = Instant::now();
    let Some(budget) = ClickBudget::of(limits, started) else {
        return run(n, k, clickers, config, started);
    };
    let budgeted = clickers
        .into_iter()
        .map(|inner| Budgeted {
            inner,
            budget: &budget,
        })
        .collect();
    let result = run(n, k, budgeted, config, started);
    match budget.spent() {
        Some(why) => Ok(SolveStats {
            clicks: budget.clicks(),
            elapsed: started.elapsed(),
            stopped: Some(why),
            ..SolveStats::default()
        }),
        None => result,
    }
}

/// [`solve_with`] without limits, started at `started`.
fn run<C: Clicker + Send>(
    n: u32,
    k: u64,
    mut clickers: Vec<C>,
    config: &SolverConfig,
    started: Instant,
) -> Result<SolveStats, MinesError> {
    clickers.truncate(n as usize);
    let knowledge = if clickers.len() == 1 {
        Knowledge::single_writer(n, k)
    } else {
        Knowledge::with_bands(n, k, clickers.len())
    };
    let schedule = Schedule::new(clickers.len(), n);
    let results: Vec<Result<SolveStats, MinesError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = clickers
            .into_iter()
            .enumerate()
            .map(|(i, clicker)| {
                let (knowledge, schedule) = (&knowledge, &schedule);
                scope.spawn(move || {
                    // A worker that fails or panics stops the others, which would otherwise
                    // wait for it.
                    let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        play(knowledge, schedule, clicker, config, i)
                    }));
                    if !matches!(run, Ok(Ok(_))) {
                        schedule.stop();
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

/// Worker `id`'s game with the configured strategy.
fn play<C: Clicker>(
    kn: &Knowledge,
    schedule: &Schedule,
    clicker: C,
    config: &SolverConfig,
    id: usize,
) -> Result<SolveStats, MinesError> {
    match config.strategy {
        Strategy::Ply => {
            let rows = schedule.stripe(id, kn.n());
            let n = u64::from(kn.n());
            let stripe = u64::from(rows.start) * n..u64::from(rows.end) * n;
            let pipe = pipeline::Pipeline::new(clicker, true);
            let guesser = guess::LeastRisk::new(stripe);
            let mut w = worker::Worker::new(kn, schedule, pipe, guesser, config, id, rows);
            w.run().map(|()| w.stats())
        }
        Strategy::Reference => {
            let mut w = reference::ReferenceWorker::new(kn, schedule, clicker, id, config.seed);
            w.run().map(|()| w.stats())
        }
    }
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
    solve_with(
        session.n(),
        session.k(),
        channels,
        config,
        &Limits::UNLIMITED,
    )
}
