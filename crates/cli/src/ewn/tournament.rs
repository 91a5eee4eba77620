//! `ply ewn tournament`: many agents, many games in parallel, ratings or an SPRT, a log to
//! resume from.

use super::args::TournamentArgs;
use super::ops::{dice_lines, positive_seconds, short_number};
use crate::batch::{self, Contents, Header, Job, LineError, Shard};
use crate::format::{plural, table, table_of, thousands};
use crate::outcome::usage;
use crate::programs::{adopt_orphans, checked_command, stop_orphans};
use crate::signals::{exit_after, interrupt_flag};
use anyhow::{Context, Result};
use ply_ewn::duel::MatchConfig;
use ply_ewn::duel::referee::{End, stop_all_agents};
use ply_ewn::duel::tournament::{
    CrossTable, Entrant, Format, MAX_GAMES, Played, Schedule, Sprt, Standing, TIME_LOSS_WARNING,
    TimeLosses, TournamentHeader, Verdict, read_log, run_tournament, standings,
};
use ply_search::StopFlag;
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::HashSet;
use std::fs::File;
use std::io::{BufRead, BufReader, IsTerminal, Seek, SeekFrom, Write};
use std::time::Duration;

/// The results, as printed with `--json`.
#[derive(Serialize)]
struct Report<'a> {
    games: usize,
    agents: &'a [Entrant],
    standings: Vec<Standing>,
    /// `cross_table[a][b]`: the games agent `a` won against agent `b`.
    cross_table: CrossTable,
    /// The games lost because an agent sent no move in time.
    lost_on_time: u32,
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

/// Wins and losses of agent 0 against agent 1.
fn score<'a>(played: impl IntoIterator<Item = &'a Played>) -> (u32, u32) {
    let (mut wins, mut losses) = (0, 0);
    for game in played {
        if game.winner == 0 {
            wins += 1;
        } else {
            losses += 1;
        }
    }
    (wins, losses)
}

/// `ply ewn tournament` as a batch: its items are the schedule's games, in order. Its log is
/// the tournament log `ply_ewn::duel::tournament::read_log` reads (which `ply ewn replay` and
/// the blunders example read too): the header line holds the batch's version, shard and
/// number of games beside the tournament's own fields.
pub(crate) struct TournamentJob;

/// A tournament's header as the batch's work.
fn header_work(header: &TournamentHeader) -> Map<String, Value> {
    match serde_json::to_value(header) {
        Ok(Value::Object(work)) => work,
        _ => unreachable!("a tournament header is a JSON object"),
    }
}

impl Job for TournamentJob {
    type Item = Played;
    const COMMAND: &'static str = "ewn tournament";
    const NOUN: &'static str = "game";

    fn report(
        work: &Map<String, Value>,
        items: &[Played],
        json: bool,
        out: &mut dyn Write,
    ) -> Result<Vec<String>> {
        let header: TournamentHeader = serde_json::from_value(Value::Object(work.clone()))
            .context("the log's header is not a tournament's")?;
        report(json, &header.agents, items, header.sprt, out)?;
        Ok(Vec::new())
    }

    fn header_line(header: &Header) -> String {
        let mut fields = header.work.clone();
        fields.insert("version".into(), json!(header.version));
        fields.insert("shard".into(), json!(header.shard));
        fields.insert("games".into(), json!(header.items));
        json!({ "tournament": fields }).to_string()
    }

    fn item_line(_index: u64, item: &Played) -> String {
        ply_ewn::duel::tournament::game_line(item)
    }

    fn read_log(file: &mut File) -> Result<Contents<Played>, LineError> {
        let cannot = |e: std::io::Error| LineError {
            line: 1,
            problem: format!("cannot read it: {e}"),
        };
        // The batch's fields of the header, which the duel's reader does not keep.
        let mut first = Vec::new();
        std::io::Read::take(BufReader::new(&mut *file), 1 << 20)
            .read_until(b'\n', &mut first)
            .map_err(cannot)?;
        file.seek(SeekFrom::Start(0)).map_err(cannot)?;
        let extra: Value = serde_json::from_slice(&first).unwrap_or(Value::Null);
        let extra = &extra["tournament"];
        let log = read_log(BufReader::new(&mut *file)).map_err(|e| LineError {
            line: e.line,
            problem: e.problem.to_string(),
        })?;
        let found = match log.header {
            None if log.games.is_empty() => None,
            None => {
                return Err(LineError {
                    line: 1,
                    problem: "not a tournament log (a log of `ply ewn host`?)".into(),
                });
            }
            Some(found) => Some(found),
        };
        let header = match found {
            None => None,
            Some(found) => {
                // A log from before shards: the whole tournament, of an unrecorded version.
                let shard = match extra.get("shard") {
                    None => Shard::WHOLE,
                    Some(shard) => {
                        serde_json::from_value(shard.clone()).map_err(|e| LineError {
                            line: 1,
                            problem: format!("its shard: {e}"),
                        })?
                    }
                };
                let games = match extra.get("games").and_then(Value::as_u64) {
                    Some(games) => games,
                    None => Schedule::new(found.agents.len(), found.openings, found.format)
                        .map_or(0, |s| u64::from(s.len())),
                };
                let version = extra
                    .get("version")
                    .and_then(Value::as_str)
                    .unwrap_or("unrecorded (a log older than shards)")
                    .to_string();
                let mut work = header_work(&found);
                if let Some(digests) = extra.get(batch::digest::KEY) {
                    work.insert(batch::digest::KEY.into(), digests.clone());
                }
                Some(Header {
                    command: Self::COMMAND.to_string(),
                    version,
                    shard,
                    items: games,
                    work,
                })
            }
        };
        let mut items = Vec::new();
        for game in &log.games {
            let Some(played) = game.played() else {
                continue;
            };
            let index = u64::from(played.pairing.index);
            if let Some(header) = &header
                && !header.shard.owns(index)
            {
                return Err(LineError {
                    line: game.line,
                    problem: format!("game {} is not shard {}'s", index + 1, header.shard),
                });
            }
            items.push((index, played));
        }
        Ok(Contents {
            header,
            items,
            unfinished: log.unfinished,
            complete: log.complete,
            newline_missing: log.newline_missing,
        })
    }
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

/// The running score of the first agent against the second in the form cutechess-cli and
/// fastchess print after each game, `Score of A vs B: W - L - D  [S] N`: wins, losses and
/// draws of A, its score S (wins and half the draws, over the games) to three decimals, and
/// the games. EWN has no draws, so D is always 0.
fn score_line(agents: &[Entrant], wins: u32, losses: u32) -> String {
    let games = u64::from(wins) + u64::from(losses);
    let score = if games == 0 {
        0.0
    } else {
        f64::from(wins) / games as f64
    };
    format!(
        "Score of {} vs {}: {wins} - {losses} - 0  [{score:.3}] {games}",
        agents[0].name, agents[1].name
    )
}

/// What a running tournament prints on standard error: a line per game as it ends and, with
/// two agents, the running score ([`score_line`]). On a terminal the score follows every
/// game, the progress a user watches; off a terminal (a file, a pipe) it comes once, after
/// the last game, so that a captured log ends with the score in the form scripts for
/// cutechess-cli read, without a second line for every game.
struct Watch<'a> {
    /// The agents.
    agents: &'a [Entrant],
    /// Whether standard error is a terminal.
    terminal: bool,
    /// The first agent's wins, the games of the log resumed from included.
    wins: u32,
    /// The first agent's losses.
    losses: u32,
    /// Whether the last line printed holds the score as it stands.
    score_shown: bool,
}

impl<'a> Watch<'a> {
    /// Watches a tournament of `agents` that has played `logged` already.
    fn new<'b>(agents: &'a [Entrant], logged: impl IntoIterator<Item = &'b Played>) -> Self {
        let (wins, losses) = score(logged);
        Watch {
            agents,
            terminal: std::io::stderr().is_terminal(),
            wins,
            losses,
            score_shown: false,
        }
    }

    /// Prints a game as it ends, and the score on a terminal.
    fn game(&mut self, game: &Played) {
        errln!("{}", game_line(self.agents, game));
        if game.winner == 0 {
            self.wins += 1;
        } else {
            self.losses += 1;
        }
        self.score_shown = self.agents.len() == 2 && self.terminal;
        if self.score_shown {
            errln!("{}", score_line(self.agents, self.wins, self.losses));
        }
    }

    /// Prints the final score unless it is the last line printed already.
    fn finish(&self) {
        if self.agents.len() == 2 && !self.score_shown && self.wins + self.losses > 0 {
            errln!("{}", score_line(self.agents, self.wins, self.losses));
        }
    }
}

/// A tournament's arguments, checked: who plays, the test, the schedule and how the games are
/// played.
struct Plan {
    agents: Vec<Entrant>,
    sprt: Option<Sprt>,
    schedule: Schedule,
    concurrency: usize,
    config: MatchConfig,
    header: TournamentHeader,
}

/// The games at once: `--concurrency`, checked, else the cores.
fn concurrency(requested: Option<usize>) -> Result<usize> {
    match requested {
        Some(0) => Err(usage("--concurrency must be at least 1")),
        Some(n) if n > MAX_CONCURRENCY => Err(usage(format!(
            "--concurrency {} is more than {MAX_CONCURRENCY} games at once",
            thousands(n as u64)
        ))),
        Some(n) => Ok(n),
        None => Ok(std::thread::available_parallelism()
            .map_or(1, usize::from)
            .min(MAX_CONCURRENCY)),
    }
}

/// Checks the arguments of `ply ewn tournament` and resolves them into its plan.
fn plan(args: &TournamentArgs) -> Result<Plan> {
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
    let concurrency = concurrency(args.concurrency)?;
    let config = MatchConfig {
        rounds: args.openings,
        seed: args.seed,
        dice: dice_lines(args.dice_file.as_ref())?,
        move_time: positive_seconds(args.move_time, "--move-time")?,
    };
    let header = TournamentHeader {
        agents: agents.clone(),
        format,
        openings: args.openings,
        seed: args.seed,
        dice: args.dice_file.clone().unwrap_or_else(|| "course".into()),
        move_time: args.move_time,
        sprt,
    };
    Ok(Plan {
        agents,
        sprt,
        schedule,
        concurrency,
        config,
        header,
    })
}

/// The flags that stop a tournament: `interrupt`, raised by a signal (three seconds later
/// the process ends, the agents stopped), and `halt`, its child, which stops the games and is
/// raised by the interrupt or by a decided test (raising the interrupt flag would end the
/// process).
fn stop_flags() -> Result<(StopFlag, StopFlag)> {
    let interrupt = interrupt_flag()?;
    adopt_orphans();
    exit_after(interrupt.clone(), Duration::from_secs(3), || {
        stop_all_agents();
        stop_orphans();
    });
    let halt = interrupt.child();
    Ok((interrupt, halt))
}

/// Runs `ply ewn tournament`.
pub(super) fn run(args: &TournamentArgs) -> Result<()> {
    let plan = plan(args)?;
    let agents = &plan.agents;
    let mut work = header_work(&plan.header);
    if let Some(dice) = &args.dice_file {
        work.insert(
            batch::digest::KEY.into(),
            batch::digest::of_inputs([std::path::Path::new(dice)])?,
        );
    }
    let Some(mut session) =
        batch::start::<TournamentJob>(work, u64::from(plan.schedule.len()), &args.batch)?
    else {
        return Ok(());
    };
    // A shard sees only its own games, so a test over them all is the merge's to decide: a
    // shard plays every game it has.
    let sequential = plan.sprt.filter(|_| args.batch.shard.is_none());
    let decided = |wins: u32, losses: u32| {
        sequential.is_some_and(|test| test.verdict(wins, losses) != Verdict::Open)
    };
    let mut watch = Watch::new(agents, session.results());
    let games = session.shard().size(session.items());
    let remaining = games - session.results().count() as u64;
    let schedule = &plan.schedule;
    let pairings = session
        .pending()
        .filter_map(|index| u32::try_from(index).ok().and_then(|i| schedule.get(i)));
    // An interrupt stops the tournament after the games already played, which are reported
    // (and logged, to resume from); the agents are stopped either way.
    let (interrupt, halt) = stop_flags()?;
    let mut log_error = None;
    if !decided(watch.wins, watch.losses) {
        // No more workers than games: each would start only to find nothing to play.
        let workers = plan
            .concurrency
            .min(usize::try_from(remaining).unwrap_or(usize::MAX))
            .max(1);
        run_tournament(agents, pairings, &plan.config, workers, &halt, |game| {
            watch.game(&game);
            if let Err(e) = session.record(u64::from(game.pairing.index), game) {
                log_error.get_or_insert(e);
                return false;
            }
            !decided(watch.wins, watch.losses)
        });
    }
    stop_orphans();
    halt.stop();
    watch.finish();
    let interrupted = interrupt.is_stopped();
    let played = session.results().count() as u64;
    if let Some(svg) = &args.svg {
        let played: Vec<Played> = session.results().cloned().collect();
        elo_chart(agents, &played).save(svg)?;
    }
    // The games played are reported even when the log could not take them all.
    session.finish(args.json)?;
    if let Some(e) = log_error {
        let path = args.batch.log.as_deref().unwrap_or_default();
        return Err(anyhow::Error::from(e).context(format!(
            "writing the log {path} (its games so far are reported above; --resume goes on \
             from those it holds)"
        )));
    }
    if interrupted && played < games {
        return Err(crate::outcome::interrupted(format!(
            "interrupted after {}; the agents were stopped (--resume goes on)",
            plural(played, "game")
        )));
    }
    Ok(())
}

/// The ratings of `agents` after `played`, with their 95 % intervals, as a chart.
fn elo_chart(agents: &[Entrant], played: &[Played]) -> crate::picture::Svg {
    let rows: Vec<(String, f64, f64, f64)> = standings(agents.len(), played)
        .iter()
        .map(|s| {
            (
                format!("{} ({} of {})", agents[s.agent].name, s.wins, s.games),
                s.elo,
                s.elo_interval.0,
                s.elo_interval.1,
            )
        })
        .collect();
    crate::picture::interval_chart(
        &format!("{} games: ratings and their 95 % intervals", played.len()),
        "Elo, the field's average at 0 (wins of games)",
        &rows,
    )
}

/// Where the test stands after `played`, for `--sprt`.
fn sprt_report(sprt: Option<Sprt>, played: &[Played]) -> Option<SprtReport> {
    sprt.map(|test| {
        let (wins, losses) = score(played);
        SprtReport {
            test,
            wins,
            losses,
            llr: test.llr(wins, losses),
            bounds: test.bounds(),
            verdict: test.verdict(wins, losses),
        }
    })
}

/// Prints the standings, the cross-table and the test as tables or JSON, and warns on
/// standard error when so many games were lost on time that the ratings mean little.
fn report(
    json: bool,
    agents: &[Entrant],
    played: &[Played],
    sprt: Option<Sprt>,
    out: &mut dyn Write,
) -> Result<()> {
    let sprt = sprt_report(sprt, played);
    let table_rows = standings(agents.len(), played);
    let cross = CrossTable::new(agents.len(), played);
    let time = TimeLosses::new(played);
    if json {
        let report = Report {
            games: played.len(),
            agents,
            standings: table_rows,
            cross_table: cross,
            lost_on_time: time.lost_on_time,
            sprt,
        };
        writeln!(out, "{}", serde_json::to_string_pretty(&report)?)?;
    } else {
        writeln!(out, "{}", standings_table(agents, &table_rows))?;
        writeln!(
            out,
            "cross-table: the wins and losses of each row's agent against each column's"
        )?;
        writeln!(out, "{}", cross_table(agents, &table_rows, &cross))?;
        if let Some(s) = sprt {
            writeln!(out, "{}", sprt_line(agents, &s))?;
        }
    }
    if time.too_many() {
        errln!(
            "ply: warning: {} of {} games ({:.1} %) were lost on time, {} in {} or more: the \
             ratings say more about keeping to the move time than about the play (a longer \
             --move-time, or fewer games at once with -j, makes them mean more)",
            thousands(u64::from(time.lost_on_time)),
            thousands(u64::from(time.games)),
            100.0 * time.share(),
            TIME_LOSS_WARNING.0,
            TIME_LOSS_WARNING.1
        );
    }
    Ok(())
}

/// The standings as a table, best first.
fn standings_table(agents: &[Entrant], rows: &[Standing]) -> crate::format::ResultTable {
    let mut t = table([
        "rank",
        "agent",
        "games",
        "wins",
        "score",
        "Elo (95%)",
        "forfeits",
    ]);
    for (rank, s) in rows.iter().enumerate() {
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
    t
}

/// The cross-table: a row and a column per agent in the standings' order, each cell the
/// row's wins and losses against the column (`W-L`), empty where the two never met (the
/// diagonal, and the pairs a gauntlet does not play).
fn cross_table(
    agents: &[Entrant],
    rows: &[Standing],
    cross: &CrossTable,
) -> crate::format::ResultTable {
    let order: Vec<usize> = rows.iter().map(|s| s.agent).collect();
    let header = std::iter::once("agent".to_string())
        .chain(order.iter().map(|&a| agents[a].name.clone()))
        .collect();
    let mut t = table_of(header);
    for &a in &order {
        let cells = order.iter().map(|&b| {
            if cross.games(a, b) == 0 {
                String::new()
            } else {
                format!("{}-{}", cross.wins(a, b), cross.wins(b, a))
            }
        });
        t.add_row(std::iter::once(agents[a].name.clone()).chain(cells));
    }
    t
}

/// The test's line: its bounds, the first agent's score, the log-likelihood ratio and the
/// verdict.
fn sprt_line(agents: &[Entrant], s: &SprtReport) -> String {
    let verdict = match s.verdict {
        Verdict::H1 => format!(
            "H1: {} is at least {} Elo stronger",
            agents[0].name, s.test.elo1
        ),
        Verdict::H0 => format!("H0: {} is not {} Elo stronger", agents[0].name, s.test.elo1),
        Verdict::Open => "not decided".to_string(),
    };
    format!(
        "SPRT [{}, {}]: {} wins, {} losses, LLR {:.2} (bounds {:.2}, {:.2}): {verdict}",
        s.test.elo0, s.test.elo1, s.wins, s.losses, s.llr, s.bounds.0, s.bounds.1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_score_line_is_cutechess_clis() {
        let agents = ["deep", "hard"].map(|name| Entrant {
            name: name.into(),
            command: "true".into(),
        });
        assert_eq!(
            score_line(&agents, 3, 1),
            "Score of deep vs hard: 3 - 1 - 0  [0.750] 4"
        );
        assert_eq!(
            score_line(&agents, 1, 2),
            "Score of deep vs hard: 1 - 2 - 0  [0.333] 3"
        );
        assert_eq!(
            score_line(&agents, 0, 0),
            "Score of deep vs hard: 0 - 0 - 0  [0.000] 0"
        );
    }
}
