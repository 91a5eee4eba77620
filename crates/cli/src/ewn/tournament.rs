//! `ply ewn tournament`: many agents, many games in parallel, ratings or an SPRT, a log to
//! resume from.

use super::args::TournamentArgs;
use super::ops::{LogMode, dice_lines, open_log, positive_seconds, short_number};
use crate::format::{plural, table, thousands};
use crate::outcome::usage;
use crate::programs::{adopt_orphans, checked_command, stop_orphans};
use crate::signals::{exit_after, interrupt_flag};
use anyhow::{Context, Result, anyhow, bail};
use ply_ewn::duel::{
    End, Entrant, Format, LoggedGame, MAX_GAMES, MatchConfig, Played, Schedule, Sprt, Standing,
    TournamentHeader, Verdict, header_line, read_log, run_tournament, standings, stop_all_agents,
};
use serde::Serialize;
use std::collections::HashSet;
use std::io::{Seek, SeekFrom, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The results, as printed with `--json`.
#[derive(Serialize)]
struct Report<'a> {
    games: usize,
    agents: &'a [Entrant],
    standings: Vec<Standing>,
    sprt: Option<SprtReport>,
}

/// Where an SPRT stands.
#[derive(Serialize)]
struct SprtReport {
    test: Sprt,
    wins: u32,
    losses: u32,
    llr: f64,
    bounds: (f64, f64),
    verdict: Verdict,
}

/// The most games a tournament plays at once: each is two agent processes, and far more
/// than the cores of any machine would only make every agent slower.
const MAX_CONCURRENCY: usize = 256;

/// The widest Elo difference `--sprt` takes: a 1000-point edge already means 99.7 % of the
/// games, and beyond some thousands the Elo model's probabilities round to 0 and 1.
const MAX_SPRT_ELO: f64 = 1000.0;

/// An agent from `NAME=COMMAND` or a bare command line.
fn entrant(spec: &str) -> Result<Entrant> {
    if spec.trim().is_empty() {
        return Err(usage(
            "an agent is empty: give NAME=COMMAND or a command line",
        ));
    }
    let (name, command) = match spec.split_once('=') {
        Some((name, command)) if !name.is_empty() && !name.contains(char::is_whitespace) => {
            (name.to_string(), command.to_string())
        }
        _ => (spec.to_string(), spec.to_string()),
    };
    let command = checked_command(&format!("agent {name}"), &command)?;
    Ok(Entrant { name, command })
}

/// The games of the tournament log `file` (at `path`), after checking its header against
/// `header`; the file is left ready to append to (an unfinished last line, which is dropped
/// with a note, is cut off).
fn resume(path: &str, file: &mut std::fs::File, header: &TournamentHeader) -> Result<Vec<Played>> {
    let log = read_log(std::io::BufReader::new(&mut *file))
        .map_err(|e| anyhow!("{path}:{}: {}", e.line, e.problem))?;
    match &log.header {
        None if log.games.is_empty() => bail!("{path} holds no tournament: nothing to resume"),
        None => bail!("{path}:1: not a tournament log (a log of `ply ewn host`?)"),
        Some(found) if found != header => bail!(
            "{path}:1: the log is of another tournament (agents, openings, seed, dice, move \
             time or test differ)"
        ),
        Some(_) => {}
    }
    if let Some(line) = log.unfinished {
        errln!(
            "ply: note: {path}:{line}: the last line is unfinished (the run writing it was \
             stopped); it is dropped and its game played again"
        );
    }
    file.set_len(log.complete)
        .and_then(|()| file.seek(SeekFrom::End(0)).map(drop))
        .and_then(|()| {
            if log.newline_missing {
                file.write_all(b"\n")
            } else {
                Ok(())
            }
        })
        .with_context(|| format!("cannot append to {path}"))?;
    Ok(log.games.iter().filter_map(LoggedGame::played).collect())
}

/// Wins and losses of agent 0 against agent 1.
fn score(played: &[Played]) -> (u32, u32) {
    let wins = played.iter().filter(|p| p.winner == 0).count() as u32;
    (wins, played.len() as u32 - wins)
}

/// The test of `--sprt`, checked.
fn sprt_test(bounds: Option<&Vec<f64>>, agents: usize) -> Result<Option<Sprt>> {
    let Some(bounds) = bounds else {
        return Ok(None);
    };
    if agents != 2 {
        return Err(usage("--sprt takes exactly two agents"));
    }
    let &[elo0, elo1] = bounds.as_slice() else {
        return Err(usage("--sprt takes ELO0,ELO1"));
    };
    let within = |elo: f64| elo.abs() <= MAX_SPRT_ELO;
    if !within(elo0) || !within(elo1) {
        return Err(usage(format!(
            "--sprt {},{}: each bound must lie within -{MAX_SPRT_ELO} to +{MAX_SPRT_ELO} Elo",
            short_number(elo0),
            short_number(elo1)
        )));
    }
    if elo0 >= elo1 {
        return Err(usage("--sprt ELO0,ELO1 needs ELO0 < ELO1"));
    }
    Ok(Some(Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
    }))
}

/// One line per game on stderr: who played, who won, and why a forfeit was one.
fn game_line(agents: &[Entrant], game: &Played) -> String {
    let [red, blue] = game.pairing.agents;
    let mut line = format!(
        "game {}: {} (red) - {}: {} wins",
        game.pairing.index + 1,
        agents[red].name,
        agents[blue].name,
        agents[game.winner].name
    );
    if let End::Forfeit(why) = &game.record.end {
        let loser = if game.winner == red { blue } else { red };
        line.push_str(&format!("; {} forfeited: {why}", agents[loser].name));
    }
    line
}

/// Runs `ply ewn tournament`.
pub fn run(args: &TournamentArgs) -> Result<()> {
    let agents = args
        .agents
        .iter()
        .map(|spec| entrant(spec))
        .collect::<Result<Vec<_>>>()?;
    let names: HashSet<&str> = agents.iter().map(|a| a.name.as_str()).collect();
    if names.len() != agents.len() {
        return Err(usage(
            "two agents have the same name; name them NAME=COMMAND",
        ));
    }
    let sprt = sprt_test(args.sprt.as_ref(), agents.len())?;
    if args.openings == 0 {
        return Err(usage("--openings must be at least 1"));
    }
    let format = if args.gauntlet {
        Format::Gauntlet
    } else {
        Format::RoundRobin
    };
    let schedule = Schedule::new(agents.len(), args.openings, format).map_err(|e| {
        usage(format!(
            "--openings {} gives {} games; a tournament has at most {}",
            thousands(u64::from(args.openings)),
            thousands(e.games),
            thousands(MAX_GAMES)
        ))
    })?;
    let concurrency = match args.concurrency {
        Some(0) => return Err(usage("--concurrency must be at least 1")),
        Some(n) if n > MAX_CONCURRENCY => {
            return Err(usage(format!(
                "--concurrency {} is more than {MAX_CONCURRENCY} games at once",
                thousands(n as u64)
            )));
        }
        Some(n) => n,
        None => std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(MAX_CONCURRENCY),
    };
    let dice = dice_lines(args.dice_file.as_ref())?;
    let move_time = positive_seconds(args.move_time, "--move-time")?;
    let header = TournamentHeader {
        agents: agents.clone(),
        format,
        openings: args.openings,
        seed: args.seed,
        dice: args.dice_file.clone().unwrap_or_else(|| "course".into()),
        move_time: args.move_time,
        sprt,
    };
    let mut played = Vec::new();
    let mut log = match &args.log {
        Some(path) if args.resume => {
            let mut file = open_log(path, LogMode::Resume)?;
            played = resume(path, &mut file, &header)?;
            Some(std::io::BufWriter::new(file))
        }
        Some(path) => {
            let file = open_log(path, LogMode::Create { force: args.force })?;
            let mut log = std::io::BufWriter::new(file);
            writeln!(log, "{}", header_line(&header))
                .and_then(|()| log.flush())
                .with_context(|| format!("writing the log {path}"))?;
            Some(log)
        }
        None => None,
    };
    let done: HashSet<u32> = played.iter().map(|p| p.pairing.index).collect();
    let remaining = schedule.len() as usize - done.len();
    let pairings = schedule.iter().filter(|p| !done.contains(&p.index));
    let decided = |played: &[Played]| {
        sprt.is_some_and(|test| {
            let (wins, losses) = score(played);
            test.verdict(wins, losses) != Verdict::Open
        })
    };
    let config = MatchConfig {
        rounds: args.openings,
        seed: args.seed,
        dice,
        move_time,
    };
    // An interrupt stops the tournament after the games already played, which are reported
    // (and logged, to resume from); the agents are stopped either way. A decided test stops
    // it too, through `halt` alone (the interrupt flag would end the process).
    let interrupt = interrupt_flag()?;
    adopt_orphans();
    exit_after(Arc::clone(&interrupt), Duration::from_secs(3), || {
        stop_all_agents();
        stop_orphans();
    });
    let halt = Arc::new(AtomicBool::new(false));
    {
        let (interrupt, halt) = (Arc::clone(&interrupt), Arc::clone(&halt));
        std::thread::spawn(move || {
            while !interrupt.load(Ordering::SeqCst) {
                if halt.load(Ordering::SeqCst) {
                    return;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            halt.store(true, Ordering::SeqCst);
        });
    }
    let mut log_error = None;
    if !decided(&played) {
        // No more workers than games: each would start only to find nothing to play.
        let workers = concurrency.min(remaining).max(1);
        run_tournament(&agents, pairings, &config, workers, &halt, |game| {
            errln!("{}", game_line(&agents, &game));
            if let Some(log) = log.as_mut() {
                let written =
                    writeln!(log, "{}", ply_ewn::duel::game_line(&game)).and_then(|()| log.flush());
                if let Err(e) = written {
                    log_error.get_or_insert(e);
                    return false;
                }
            }
            played.push(game);
            !decided(&played)
        });
    }
    stop_orphans();
    halt.store(true, Ordering::SeqCst);
    let interrupted = interrupt.load(Ordering::SeqCst);
    // The games played are reported even when the log could not take them all.
    report(args.json, &agents, &played, sprt)?;
    if let Some(e) = log_error {
        let path = args.log.as_deref().unwrap_or_default();
        return Err(anyhow::Error::from(e).context(format!(
            "writing the log {path} (its games so far are reported above; --resume goes on \
             from those it holds)"
        )));
    }
    if interrupted && played.len() < schedule.len() as usize {
        return Err(crate::outcome::interrupted(format!(
            "interrupted after {}; the agents were stopped (--resume goes on)",
            plural(played.len() as u64, "game")
        )));
    }
    Ok(())
}

/// Prints the standings (and the test) as a table or JSON.
fn report(json: bool, agents: &[Entrant], played: &[Played], sprt: Option<Sprt>) -> Result<()> {
    let sprt = sprt.map(|test| {
        let (wins, losses) = score(played);
        SprtReport {
            test,
            wins,
            losses,
            llr: test.llr(wins, losses),
            bounds: test.bounds(),
            verdict: test.verdict(wins, losses),
        }
    });
    let table_rows = standings(agents.len(), played);
    let mut out = std::io::stdout().lock();
    if json {
        let report = Report {
            games: played.len(),
            agents,
            standings: table_rows,
            sprt,
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
        return Ok(());
    }
    let mut t = table([
        "rank",
        "agent",
        "games",
        "wins",
        "score",
        "Elo (95%)",
        "forfeits",
    ]);
    for (rank, s) in table_rows.iter().enumerate() {
        let score = if s.games == 0 {
            0.0
        } else {
            100.0 * f64::from(s.wins) / f64::from(s.games)
        };
        t.add_row(vec![
            (rank + 1).to_string(),
            agents[s.agent].name.clone(),
            s.games.to_string(),
            s.wins.to_string(),
            format!("{score:.1}%"),
            format!(
                "{:+.0} ({:+.0} to {:+.0})",
                s.elo, s.elo_interval.0, s.elo_interval.1
            ),
            s.forfeits.to_string(),
        ]);
    }
    writeln!(out, "{t}")?;
    if let Some(s) = sprt {
        let verdict = match s.verdict {
            Verdict::H1 => format!(
                "H1: {} is at least {} Elo stronger",
                agents[0].name, s.test.elo1
            ),
            Verdict::H0 => format!("H0: {} is not {} Elo stronger", agents[0].name, s.test.elo1),
            Verdict::Open => "not decided".to_string(),
        };
        writeln!(
            out,
            "SPRT [{}, {}]: {} wins, {} losses, LLR {:.2} (bounds {:.2}, {:.2}): {verdict}",
            s.test.elo0, s.test.elo1, s.wins, s.losses, s.llr, s.bounds.0, s.bounds.1
        )?;
    }
    Ok(())
}
