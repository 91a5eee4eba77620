//! `ply demo`: every available system on a bundled instance, summarised in one table.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use clap::Args;
use ply_ewn::solo::Instance;
use ply_npuzzle::pdb::{PatternDatabase, Published};
use ply_npuzzle::{Heuristic, instances::bundled};
use ply_search::Limits;

use crate::format::{table, thousands};
use indicatif::{ProgressBar, ProgressStyle};
use ply_mines::classic::{FirstClick, Level, Rules, Strategy, play_games};

/// Arguments of `ply demo`.
#[derive(Args, Debug)]
pub(crate) struct DemoArgs {}

/// One line of the summary.
struct Row {
    system: &'static str,
    instance: String,
    result: String,
    method: String,
    seconds: f64,
}

/// The bundled 15-puzzle the demo solves with linear conflict: Korf's #2 (55 moves).
const NPUZZLE_INSTANCE: usize = 2;

/// The 15-puzzle the demo solves with pattern databases: Korf's #88, the hardest of the 100.
const NPUZZLE_PDB_INSTANCE: usize = 88;

/// Solves Korf's instance `id` (checked against its known optimum) and describes it;
/// `built` is what the heuristic's preparation took, counted in the row's time.
fn npuzzle_row(id: usize, heuristic: Heuristic<'_>, built: Option<Duration>) -> Result<Row> {
    let instance = bundled::korf100()
        .into_iter()
        .find(|i| i.id.as_deref() == Some(&id.to_string()))
        .context("bundled Korf instance missing")?;
    let report = crate::npuzzle::solve_checked(
        &instance,
        heuristic,
        Limits::UNLIMITED,
        1,
        heuristic.default_fsm(),
    )?;
    let cost = report.cost().context("demo instance not solved")?;
    let how = if built.is_some() {
        " built in memory"
    } else {
        ""
    };
    Ok(Row {
        system: "npuzzle",
        instance: format!("Korf #{id} (15-puzzle)"),
        result: format!("optimal: {cost} moves (verified)"),
        method: format!(
            "IDA*, {}{how}, {} nodes",
            heuristic.name(),
            thousands(report.generated)
        ),
        seconds: (report.elapsed + built.unwrap_or_default()).as_secs_f64(),
    })
}

fn npuzzle() -> Result<Row> {
    npuzzle_row(NPUZZLE_INSTANCE, Heuristic::LinearConflict, None)
}

/// Builds the 5-5-5 databases in memory (about a second) and solves Korf's hardest instance.
fn npuzzle_pdb() -> Result<Row> {
    let started = Instant::now();
    let partition = Published::P555.partition();
    let database = PatternDatabase::build(&partition, &|_, _, _| {})?;
    let heuristic = Heuristic::Pdb {
        database: &database,
        reflect: true,
    };
    npuzzle_row(NPUZZLE_PDB_INSTANCE, heuristic, Some(started.elapsed()))
}

/// The bundled single-player EWN case the demo solves: the course's hardest public case.
const EWN_SOLO_INSTANCE: &str = include_str!("../../../data/ewn-solo/tcg2024-public/bonus_sample3");

fn ewn_solo() -> Result<Row> {
    let instance = Instance::parse(EWN_SOLO_INSTANCE).context("bundled EWN instance")?;
    let report = crate::ewn::solve_checked(&instance, &Limits::UNLIMITED)?;
    let Some(moves) = report.moves() else {
        bail!("demo EWN instance not solved");
    };
    let optimal = instance.known_optimum == Some(moves.len() as u32);
    Ok(Row {
        system: "ewn solo",
        instance: "bonus_sample3 (course)".into(),
        result: format!(
            "{}: {} moves (checked)",
            if optimal {
                "optimal"
            } else {
                "NOT the known optimum"
            },
            moves.len()
        ),
        method: format!(
            "IDA* + region relaxation, {} nodes",
            thousands(report.generated)
        ),
        seconds: report.elapsed.as_secs_f64(),
    })
}

/// The bundled Sokoboru file the demo solves: the course's medium.in (10 cases).
const SOKOBORU_FILE: &str = include_str!("../../../data/sokoboru/medium.in");

/// The threads the demo gives Sokoboru: the course's limit.
const SOKOBORU_THREADS: usize = 2;

fn sokoboru() -> Result<Row> {
    let puzzles = ply_sokoboru::parse_puzzles(SOKOBORU_FILE).context("bundled medium.in")?;
    let started = Instant::now();
    let (mut total, mut expanded) = (0, 0);
    crate::sokoboru::solve_file(
        &puzzles,
        SOKOBORU_THREADS,
        &Limits::UNLIMITED,
        &ply_sokoboru::Progress::new(puzzles.len()),
        |_, solved| {
            let penalty = solved
                .cost()
                .filter(|_| solved.proven())
                .context("demo Sokoboru case not solved")?;
            total += penalty;
            expanded += solved.expanded;
            Ok(())
        },
    )?;
    Ok(Row {
        system: "sokoboru",
        instance: format!("medium.in ({} cases, course)", puzzles.len()),
        result: format!("optimal: total penalty {total} (verified)"),
        method: format!(
            "A* over pushes, {SOKOBORU_THREADS} threads, {} states",
            thousands(expanded)
        ),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The demo duel's length.
const DUEL_GAMES: u32 = 10;

fn ewn_duel() -> Result<Row> {
    let started = Instant::now();
    let (wins, average) = crate::ewn::demo_duel(DUEL_GAMES)?;
    Ok(Row {
        system: "ewn duel",
        instance: format!("{DUEL_GAMES} games, course dice"),
        result: format!("alpha-beta depth 8 beat random {wins} of {DUEL_GAMES}"),
        method: format!("negamax alpha-beta, {:.2} ms per move", 1000.0 * average),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The demo's match of ply's strongest agent: games and seconds per move.
const DEEP_GAMES: u32 = 4;
const DEEP_MOVE_TIME: Duration = Duration::from_millis(300);

fn ewn_deep() -> Result<Row> {
    let started = Instant::now();
    let (wins, average) = crate::ewn::demo_deep(DEEP_GAMES, DEEP_MOVE_TIME)?;
    Ok(Row {
        system: "ewn duel",
        instance: format!("{DEEP_GAMES} games, course dice"),
        result: format!("ply's strongest agent beat alpha-beta depth 8 {wins} of {DEEP_GAMES}"),
        method: format!(
            "deep alpha-beta (race evaluation, PVS, killers), {:.0} ms budget, {:.0} ms per move",
            DEEP_MOVE_TIME.as_secs_f64() * 1000.0,
            1000.0 * average
        ),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The demo's Minesweeper board side and score constant.
const MINES_SIZE: u32 = 1024;
const MINES_A: i64 = 8;
/// The contest's best score for a map, every safe cell opened (`ply_mines::judge::score`
/// clamps to it).
const MINES_BEST_SCORE: u32 = 100;

fn mines() -> Result<Row> {
    let started = Instant::now();
    let k = ply_mines::default_mines(MINES_SIZE);
    let bits = ply_mines::generate(MINES_SIZE, k, 1, &|_, _| {})?;
    let path = std::env::temp_dir().join(format!("ply-demo-{}.map", std::process::id()));
    ply_mines::write_map(&path, MINES_SIZE, k, &bits, true)?;
    let exe = std::env::current_exe().context("locating the ply executable")?;
    let player = format!(
        "{} mines solve 2>/dev/null",
        crate::format::shell_quote(&exe.display().to_string())
    );
    let verdict = crate::mines::judge_locally(player, path.clone(), MINES_A);
    let _ = std::fs::remove_file(&path);
    let verdict = verdict?;
    Ok(Row {
        system: "mines",
        instance: format!(
            "{MINES_SIZE} x {MINES_SIZE}, {} mines (seed 1), A = {MINES_A}",
            thousands(k)
        ),
        result: format!(
            "solver scored {:.3} of {MINES_BEST_SCORE}: {} safe cells opened, {} mines hit",
            // Rounded down, so that a score short of the best never reads as the best.
            (verdict.score * 1000.0).floor() / 1000.0,
            thousands(verdict.safe_opened),
            verdict.mines_opened
        ),
        method: format!(
            "logic + least-risk guesses, ply's judge and server, {:.2} s of play",
            verdict.elapsed
        ),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The classic Minesweeper games the demo plays: the first of a seeded run on expert boards
/// under the `safe` first-click rule, the field's hardest standard level; few, so that the
/// demo takes hardly longer than without them.
const CLASSIC_GAMES: u64 = 200;
/// The seed of the demo's classic games: `ply mines classic bench --level expert --games 200
/// --seed 1` plays the same games.
const CLASSIC_SEED: u64 = 1;

fn mines_classic() -> Result<Row> {
    let started = Instant::now();
    let rules = Rules::level(Level::Expert, FirstClick::Safe);
    let strategy = Strategy::default();
    // Ctrl-C stops the games in play, as it stops a bench.
    let stop = crate::signals::interrupt_flag()?;
    let Some(tally) = play_games(
        &rules,
        &strategy,
        CLASSIC_SEED,
        0..CLASSIC_GAMES,
        &stop,
        &|| {},
    ) else {
        return Err(crate::outcome::interrupted(
            "interrupted during the classic Minesweeper games",
        ));
    };
    let (low, high) = tally.interval();
    Ok(Row {
        system: "mines classic",
        instance: format!(
            "{}, first click {}, {CLASSIC_GAMES} games (seed {CLASSIC_SEED})",
            crate::mines::BoardArgs::describe(&rules),
            rules.first_click
        ),
        result: format!(
            "won {} of {} ({:.1} %; 95 % interval {:.1}-{:.1} %)",
            tally.wins,
            tally.games,
            100.0 * tally.rate(),
            100.0 * low,
            100.0 * high
        ),
        method: format!(
            "exact probabilities, look-ahead {}, exact endgame from {} placements, {} threads",
            strategy.lookahead,
            strategy.endgame,
            rayon::current_num_threads()
        ),
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// One row of the demo: what it runs, and how.
type Step = fn() -> Result<Row>;

/// The demo's progress line on standard error (hidden off a terminal): the steps done, the
/// step running and how long it has run so far. The steps take from a fraction of a second
/// to most of a minute, so an estimate of the time left drawn from the steps done (a
/// progress bar's usual ETA) would be wrong by as much; the line says only what it knows.
const STEP_TEMPLATE: &str = "{prefix} [{bar:20}] {pos}/{len}, this step {elapsed}: {wide_msg}";

/// The demo's progress ([`STEP_TEMPLATE`]).
struct StepProgress {
    bar: ProgressBar,
}

impl StepProgress {
    /// The progress of `steps` steps, drawn on standard error when it is a terminal.
    fn new(steps: u64) -> StepProgress {
        StepProgress::on(ProgressBar::new(steps))
    }

    /// The progress drawn by `bar`, the time shown brought up to date four times a second
    /// (a step shows no progress of its own until it ends).
    fn on(bar: ProgressBar) -> StepProgress {
        bar.set_style(
            ProgressStyle::with_template(STEP_TEMPLATE)
                .expect("valid progress template")
                .progress_chars("=> "),
        );
        bar.set_prefix("demo");
        bar.enable_steady_tick(Duration::from_millis(250));
        StepProgress { bar }
    }

    /// A step starts: its name, and its time from zero.
    fn start(&self, what: &str) {
        self.bar.set_message(what.to_string());
        self.bar.reset_elapsed();
    }

    /// A step ended.
    fn done(&self) {
        self.bar.inc(1);
    }

    /// Every step ended: the line is cleared.
    fn finish(self) {
        self.bar.finish_and_clear();
    }
}

/// Runs the demo.
pub(crate) fn run(_args: &DemoArgs) -> Result<()> {
    let steps: [(&str, Step); 8] = [
        ("the 15-puzzle, linear conflict", npuzzle),
        ("the 15-puzzle, pattern databases", npuzzle_pdb),
        ("single-player EWN", ewn_solo),
        ("Sokoboru", sokoboru),
        ("the EWN duel's baselines", ewn_duel),
        ("the EWN duel's strongest agent", ewn_deep),
        ("Minesweeper", mines),
        ("classic Minesweeper", mines_classic),
    ];
    // The demo takes tens of seconds: say what runs (on stderr, on a terminal).
    let progress = StepProgress::new(steps.len() as u64);
    let mut rows = Vec::new();
    for (what, step) in steps {
        progress.start(what);
        rows.push(step()?);
        progress.done();
    }
    progress.finish();
    let mut table = table(["system", "instance", "result", "how", "seconds"]);
    for r in &rows {
        table.add_row([
            r.system.to_string(),
            r.instance.clone(),
            r.result.clone(),
            r.method.clone(),
            format!("{:.3}", r.seconds),
        ]);
    }
    let mut out = std::io::stdout().lock();
    writeln!(out, "{table}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_progress_shows_each_steps_own_time_and_no_estimate_of_the_rest() {
        assert!(!STEP_TEMPLATE.contains("eta"), "{STEP_TEMPLATE}");
        assert!(STEP_TEMPLATE.contains("this step {elapsed}"));
        // A bar that has run for an hour: a new step starts from zero.
        let progress = StepProgress::on(
            ProgressBar::with_draw_target(Some(8), indicatif::ProgressDrawTarget::hidden())
                .with_elapsed(Duration::from_secs(3600)),
        );
        assert!(progress.bar.elapsed() >= Duration::from_secs(3600));
        progress.start("Sokoboru");
        assert!(progress.bar.elapsed() < Duration::from_secs(3600));
        assert_eq!(progress.bar.message(), "Sokoboru");
        progress.done();
        assert_eq!(progress.bar.position(), 1);
        progress.finish();
    }
}
