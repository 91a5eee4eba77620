//! `ply ewn tournament`: many agents, many games in parallel, ratings or an SPRT, a log to
//! resume from.

use super::args::TournamentArgs;
use super::ops::{dice_lines, positive_seconds};
use crate::format::table;
use crate::programs::{adopt_orphans, checked_command, stop_orphans};
use crate::signals::{exit_after, interrupt_flag};
use anyhow::{Context, Result, bail};
use ply_ewn::duel::{
    Entrant, Format, MatchConfig, Played, Sprt, Standing, Verdict, run_tournament, schedule,
    standings, stop_all_agents,
};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;
use std::io::{BufRead, Write};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The first line of a tournament's log: what a resumed run must match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Header {
    agents: Vec<Entrant>,
    format: Format,
    openings: u32,
    seed: u64,
    dice: String,
    move_time: f64,
    sprt: Option<Sprt>,
}

/// A line of the log.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum LogLine {
    Tournament(Header),
    Game(Played),
}

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

/// An agent from `NAME=COMMAND` or a bare command line.
fn entrant(spec: &str) -> Result<Entrant> {
    let (name, command) = match spec.split_once('=') {
        Some((name, command))
            if !name.is_empty() && !name.contains(char::is_whitespace) && !command.is_empty() =>
        {
            (name.to_string(), command.to_string())
        }
        _ => (spec.to_string(), spec.to_string()),
    };
    let command = checked_command(&name, &command)?;
    Ok(Entrant { name, command })
}

/// The games of the log at `path`, after checking its header against `header`.
fn resume(path: &str, header: &Header) -> Result<Vec<Played>> {
    let file = std::fs::File::open(path).with_context(|| format!("cannot open {path}"))?;
    let mut games = Vec::new();
    for (i, line) in std::io::BufReader::new(file).lines().enumerate() {
        let line = line.with_context(|| format!("reading {path}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let parsed: LogLine = serde_json::from_str(&line)
            .with_context(|| format!("{path}:{}: not a tournament log line", i + 1))?;
        match parsed {
            LogLine::Tournament(found) if i == 0 => {
                if &found != header {
                    bail!(
                        "{path}:1: the log is of another tournament (agents, openings, seed, \
                         dice, move time or test differ)"
                    );
                }
            }
            LogLine::Game(played) if i > 0 => games.push(played),
            _ => bail!(
                "{path}:{}: the header must be the first line, and only it",
                i + 1
            ),
        }
    }
    if games.is_empty() && std::fs::metadata(path).map_or(0, |m| m.len()) == 0 {
        bail!("{path} is empty: nothing to resume");
    }
    Ok(games)
}

/// Wins and losses of agent 0 against agent 1.
fn score(played: &[Played]) -> (u32, u32) {
    let wins = played.iter().filter(|p| p.winner == 0).count() as u32;
    (wins, played.len() as u32 - wins)
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
        return Err(crate::outcome::usage(
            "two agents have the same name; name them NAME=COMMAND",
        ));
    }
    let sprt = match &args.sprt {
        None => None,
        Some(_) if agents.len() != 2 => {
            return Err(crate::outcome::usage("--sprt takes exactly two agents"));
        }
        Some(bounds) => {
            let &[elo0, elo1] = bounds.as_slice() else {
                return Err(crate::outcome::usage("--sprt takes ELO0,ELO1"));
            };
            if !elo0.is_finite() || !elo1.is_finite() || elo0 >= elo1 {
                return Err(crate::outcome::usage("--sprt ELO0,ELO1 needs ELO0 < ELO1"));
            }
            Some(Sprt {
                elo0,
                elo1,
                alpha: 0.05,
                beta: 0.05,
            })
        }
    };
    if args.openings == 0 {
        return Err(crate::outcome::usage("--openings must be at least 1"));
    }
    let concurrency = match args.concurrency {
        Some(0) => return Err(crate::outcome::usage("--concurrency must be at least 1")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let dice = dice_lines(args.dice_file.as_ref())?;
    let move_time = positive_seconds(args.move_time, "--move-time")?;
    let format = if args.gauntlet {
        Format::Gauntlet
    } else {
        Format::RoundRobin
    };
    let header = Header {
        agents: agents.clone(),
        format,
        openings: args.openings,
        seed: args.seed,
        dice: args.dice_file.clone().unwrap_or_else(|| "course".into()),
        move_time: args.move_time,
        sprt,
    };
    let mut played = match (&args.log, args.resume) {
        (Some(path), true) => resume(path, &header)?,
        _ => Vec::new(),
    };
    let mut log = match &args.log {
        Some(path) => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .write(true)
                .append(args.resume)
                .truncate(!args.resume)
                .open(path)
                .with_context(|| format!("cannot open {path}"))?;
            let mut log = std::io::BufWriter::new(file);
            if !args.resume {
                writeln!(
                    log,
                    "{}",
                    serde_json::to_string(&LogLine::Tournament(header.clone()))?
                )?;
                log.flush()?;
            }
            Some(log)
        }
        None => None,
    };
    let done: HashSet<u32> = played.iter().map(|p| p.pairing.index).collect();
    let pairings: Vec<_> = schedule(agents.len(), args.openings, format)
        .into_iter()
        .filter(|p| !done.contains(&p.index))
        .collect();
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
        run_tournament(&agents, &pairings, &config, concurrency, &halt, |game| {
            let [red, blue] = game.pairing.agents.map(|a| agents[a].name.as_str());
            errln!(
                "game {}: {red} (red) - {blue}: {} wins",
                game.pairing.index + 1,
                agents[game.winner].name
            );
            if let Some(log) = log.as_mut() {
                let written = serde_json::to_string(&LogLine::Game(game.clone()))
                    .map_err(anyhow::Error::from)
                    .and_then(|json| Ok(writeln!(log, "{json}").and_then(|()| log.flush())?));
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
    if let Some(e) = log_error {
        return Err(e.context("writing the log"));
    }
    halt.store(true, Ordering::SeqCst);
    let interrupted = interrupt.load(Ordering::SeqCst);
    report(args.json, &agents, &played, sprt)?;
    if interrupted && played.len() < schedule(agents.len(), args.openings, format).len() {
        return Err(crate::outcome::interrupted(format!(
            "interrupted after {}; the agents were stopped (--resume goes on)",
            crate::format::plural(played.len() as u64, "game")
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
            format!("{score:.1} %"),
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
