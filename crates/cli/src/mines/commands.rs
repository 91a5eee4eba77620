//! The `ply mines` verbs that run without a terminal UI.

use super::args::{GenArgs, InfoArgs, JudgeArgs, ProbeArgs, ReferenceArgs, SolveArgs};
use super::ops::{own_server, print_verdict};
use crate::format::{plural, progress, thousands};
use crate::programs::{adopt_orphans, checked_command, stop_orphans};
use crate::signals::interrupt_flag;
use anyhow::{Context, Result, bail};
use ply_mines::{
    Ending, JudgeConfig, MineMap, MinesError, ServerSetup, Session, SolverConfig, Strategy,
    check_size, contest_time_limit, default_mines, judge_with_progress, largest_opening, serve,
    solve_session, write_map_interruptible,
};
use std::time::Instant;

/// The most worker threads a player may start ([`ply_mines::MAX_PLAYER_THREADS`]).
const MAX_THREADS: usize = ply_mines::MAX_PLAYER_THREADS;

/// Connects to the judge's server and runs a solver; a summary line (or JSON) on stderr.
fn play(config: &SolverConfig, name: &str, json: bool) -> Result<()> {
    let session = Session::connect().with_context(|| format!("mines {name}"))?;
    let stats = solve_session(&session, config).with_context(|| format!("mines {name}"))?;
    if json {
        errln!("{}", serde_json::to_string(&stats)?);
    } else {
        errln!(
            "{name}: {}, {} clicks, {} cells opened, {} guesses ({} on the frontier), \
             {} hit, {} pair and {} enumeration deductions in {:.2} s",
            plural(config.threads.min(session.n() as usize) as u64, "thread"),
            thousands(stats.clicks),
            thousands(stats.opened),
            thousands(stats.guesses),
            thousands(stats.frontier_guesses),
            plural(stats.mines_hit, "mine"),
            thousands(stats.pair_deductions),
            thousands(stats.enum_deductions),
            stats.elapsed.as_secs_f64()
        );
    }
    Ok(())
}

/// `ply mines gen`: writes a random map.
pub(super) fn run_gen(args: &GenArgs) -> Result<()> {
    let n = check_size(args.size)?;
    let k = args.mines.unwrap_or_else(|| default_mines(n));
    if !args.force && args.output.exists() {
        bail!(
            "{} exists (use --force to overwrite)",
            args.output.display()
        );
    }
    let start = Instant::now();
    let cells = u64::from(n) * u64::from(n);
    let bar = progress(cells, "placing mines");
    // Until the bits are written nothing is on disk, so a signal may end the process at once.
    let bits = ply_mines::generate(n, k, args.seed, &|done, _| bar.set_position(done))?;
    bar.finish_and_clear();
    // From here a temporary file exists until the rename: a signal raises the flag, and the
    // write removes the file and stops.
    let stop = interrupt_flag()?;
    match write_map_interruptible(&args.output, n, k, &bits, args.force, &stop) {
        Err(MinesError::Interrupted) => {
            return Err(crate::outcome::interrupted(format!(
                "interrupted; {} was not written",
                args.output.display()
            )));
        }
        written => written?,
    }
    errln!(
        "wrote {}: {n} x {n}, {} mines, seed {} in {:.2} s",
        args.output.display(),
        thousands(k),
        args.seed,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `ply mines info`: checks a map file.
pub(super) fn run_info(args: &InfoArgs) -> Result<()> {
    let map = MineMap::open(&args.file)?;
    let (n, k) = (map.n(), map.k());
    let counted = map.count_mines();
    outln!("file     {}", args.file.display())?;
    outln!(
        "size     {n} x {n} ({} cells)",
        thousands(u64::from(n) * u64::from(n))
    )?;
    outln!(
        "mines    {} in the header, {} in the bits",
        thousands(k),
        thousands(counted)
    )?;
    if counted != k {
        bail!(
            "{}: the header says {k} mines but the bits hold {counted}",
            args.file.display()
        );
    }
    if !args.no_opening {
        let start = Instant::now();
        match largest_opening(&map) {
            Some((size, (r, c))) => outln!(
                "opening  largest {} cells, from ({r}, {c}) ({:.1} s)",
                thousands(size),
                start.elapsed().as_secs_f64()
            )?,
            None => outln!("opening  none (no cell without neighbouring mines)")?,
        }
    }
    outln!("check    ok")?;
    Ok(())
}

/// `ply mines judge`: judges a player.
pub(super) fn run_judge(args: &JudgeArgs) -> Result<()> {
    let constant_a = args.constant_a.or(args.a).unwrap_or(0);
    let limit = args.time_limit.or(args.time_limit_pos);
    // The seconds are named as they were given: the option, or the positional argument.
    let name = if args.time_limit.is_some() {
        "--time-limit"
    } else {
        "TIME_LIMIT"
    };
    let time_limit = match limit {
        _ if args.no_time_limit => None,
        Some(secs) => Some(
            ply_search::SecondsRule::Positive
                .named(name, secs)
                .map_err(|bad| crate::outcome::usage(bad.to_string()))?,
        ),
        None => {
            let n = MineMap::open(&args.map)?.n();
            Some(contest_time_limit(u64::from(n), constant_a))
        }
    };
    let config = JudgeConfig {
        player: checked_command("the player", &args.player)?,
        map: args.map.clone(),
        constant_a,
        time_limit,
        // Checked like the player: a missing server is a usage error, and one simple command
        // replaces its shell, so that the server itself dies with the judge.
        server: match args.server.as_ref().or(args.server_pos.as_ref()) {
            Some(server) => checked_command("the server", server)?,
            None => own_server()?,
        },
    };
    adopt_orphans();
    let interrupted = interrupt_flag()?;
    // The bar shows only on a terminal; it follows the counts ply's server reports (another
    // server reports none, and the bar then shows the time alone).
    let bar = progress(0, "judging");
    let mut shown = None;
    let verdict = judge_with_progress(&config, &interrupted, &mut |p| {
        if bar.length() != Some(p.safe_cells) {
            bar.set_length(p.safe_cells);
        }
        let mines = p.opened.map(|o| o.mines);
        if shown != Some(mines) {
            shown = Some(mines);
            let limit = p.limit.map_or("no time limit".to_string(), |l| {
                format!("limit {} s", l.as_secs_f64())
            });
            bar.set_message(match mines {
                Some(mines) => {
                    format!("safe cells opened, {} hit, {limit}", plural(mines, "mine"))
                }
                None => format!("(the server reports no progress), {limit}"),
            });
        }
        bar.set_position(p.opened.map_or(0, |o| o.safe));
    });
    bar.finish_and_clear();
    // Whatever the player or the server left behind, out of their process groups, goes too.
    stop_orphans();
    let verdict = verdict?;
    if args.json {
        outln!("{}", serde_json::to_string(&verdict)?)?;
    } else {
        print_verdict(&verdict)?;
    }
    match &verdict.ending {
        Ending::Interrupted => Err(crate::outcome::interrupted(
            "interrupted; the player and the server were stopped",
        )),
        Ending::ServerFailed(why) => bail!("{why}; the player scores 0"),
        _ => Ok(()),
    }
}

/// `ply mines server`: serves the game to a judge's player.
pub(super) fn run_server() -> Result<()> {
    let setup = ServerSetup::from_env().context("mines server")?;
    serve(setup).context("mines server")?;
    Ok(())
}

/// `ply mines naive`: the contest's naive player.
pub(super) fn run_naive() -> Result<()> {
    let session = Session::connect().context("naive player")?;
    let stats = ply_mines::naive(&session).context("naive player")?;
    errln!(
        "naive: {} clicks ({} skipped, {} mines) in {:.2} s",
        thousands(stats.clicks),
        thousands(stats.skipped),
        thousands(stats.mines),
        stats.elapsed.as_secs_f64()
    );
    Ok(())
}

/// `ply mines probe`: round trips on one channel.
pub(super) fn run_probe(args: &ProbeArgs) -> Result<()> {
    let session = Session::connect().context("probe")?;
    let stats = ply_mines::probe(&session, args.clicks, args.stride).context("probe")?;
    let secs = stats.elapsed.as_secs_f64();
    errln!(
        "probe: {} click_do_not_expand round trips in {secs:.3} s: {:.2} M/s",
        thousands(stats.clicks),
        stats.clicks as f64 / secs / 1e6
    );
    Ok(())
}

/// A player's `--threads`, within the player's cap, in the words every front end uses.
fn player_threads(threads: usize) -> Result<usize> {
    ply_search::check_threads_up_to(threads as u128, MAX_THREADS)
        .map_err(|bad| crate::outcome::usage(bad.named("--threads")))
}

/// `ply mines solve`: the parallel solver as a player.
pub(super) fn run_solve(args: &SolveArgs) -> Result<()> {
    let mut config = SolverConfig::default();
    if let Some(threads) = args.threads {
        config.threads = player_threads(threads)?;
    }
    play(&config, "solve", args.json)
}

/// `ply mines reference`: the contest's reference approach as a player.
pub(super) fn run_reference(args: &ReferenceArgs) -> Result<()> {
    let config = SolverConfig {
        threads: player_threads(args.threads)?,
        strategy: Strategy::Reference,
        seed: args.seed,
        ..SolverConfig::default()
    };
    play(&config, "reference", false)
}
