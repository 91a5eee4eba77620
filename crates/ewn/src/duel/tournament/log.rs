//! The duel's game logs, one JSON value a line, and the one reader of them.
//!
//! - A host log (`ply ewn host --log`) holds one [`GameRecord`] a line, its players numbered 0
//!   and 1.
//! - A tournament log (`ply ewn tournament --log`) holds a header line,
//!   `{"tournament": TournamentHeader}`, then one line a game, `{"game": Played}`, in the
//!   order the games ended.
//!
//! [`read_log`] reads either, checks every line (a record that names a player or agent that is
//! not there, a game outside the tournament's schedule, a game logged twice), and drops an
//! unfinished last line, the trace of a writer stopped mid-line, saying so.

use std::collections::HashMap;
use std::io::{BufRead, Read};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::ratings::Sprt;
use super::run::Entrant;
use super::schedule::{Format, Pairing, Played, Schedule};
use crate::duel::referee::GameRecord;

/// The first line of a tournament's log: what the tournament is, and what a resumed run must
/// match.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentHeader {
    /// The agents, by index.
    pub agents: Vec<Entrant>,
    /// Who meets whom.
    pub format: Format,
    /// The openings each pair plays (twice, once with each colour).
    pub openings: u32,
    /// The seed of the openings.
    pub seed: u64,
    /// Where the dice lines came from: a file name, or `course` for the course's.
    pub dice: String,
    /// The host's seconds per move.
    pub move_time: f64,
    /// The sequential test, if the tournament runs one.
    pub sprt: Option<Sprt>,
}

/// A line of a tournament log, as written.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum TournamentLine {
    Tournament(TournamentHeader),
    Game(Played),
}

/// The line of a tournament game (without the line break).
///
/// # Panics
/// Never: a game always has a JSON form.
#[must_use]
pub fn game_line(played: &Played) -> String {
    serde_json::to_string(&TournamentLine::Game(played.clone())).expect("a game is plain data")
}

/// The line of a host's game (without the line break).
///
/// # Panics
/// Never: a record always has a JSON form.
#[must_use]
pub fn record_line(record: &GameRecord) -> String {
    serde_json::to_string(record).expect("a record is plain data")
}

/// One game of a log.
#[derive(Clone, Debug, PartialEq)]
pub struct LoggedGame {
    /// The line it was read from, from 1.
    pub line: usize,
    /// The names of the record's players 0 and 1: the agents' names in a tournament, `p0` and
    /// `p1` in a host log (which does not name its players).
    pub names: [String; 2],
    /// The tournament's game, for a game of a tournament log.
    pub pairing: Option<Pairing>,
    /// The referee's record.
    pub record: GameRecord,
}

impl LoggedGame {
    /// The tournament's view of the game, for a game of a tournament log.
    #[must_use]
    pub fn played(&self) -> Option<Played> {
        self.pairing.map(|pairing| Played {
            pairing,
            winner: pairing.agents[self.record.winner],
            record: self.record.clone(),
        })
    }
}

/// A log, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct DuelLog {
    /// The tournament's header; `None` for a host log.
    pub header: Option<TournamentHeader>,
    /// The games, in the order of the lines.
    pub games: Vec<LoggedGame>,
    /// The line number of an unfinished last line (no line break, not a whole JSON value),
    /// which was dropped.
    pub unfinished: Option<usize>,
    /// The bytes of the log up to the end of its last complete line: where a line appended
    /// to the log must start (after a line break, when `newline_missing`).
    pub complete: u64,
    /// Whether the last line read is whole but lacks its line break.
    pub newline_missing: bool,
}

impl DuelLog {
    /// The game numbered `game` (the record's number, from 1), if the log holds it.
    #[must_use]
    pub fn game(&self, game: u32) -> Option<&LoggedGame> {
        self.games.iter().find(|g| g.record.game == game)
    }
}

/// What is wrong with a log, and where.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("line {line}: {problem}")]
pub struct LogError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub problem: LogProblem,
}

/// What is wrong with a line of a log.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum LogProblem {
    /// The line could not be read.
    #[error("cannot read it: {0}")]
    Read(String),
    /// The line is longer than any game's.
    #[error("longer than {MAX_LINE} bytes: not a log line")]
    TooLong,
    /// The line is not a JSON value of the log.
    #[error("not a game log line: {0}")]
    Syntax(String),
    /// A tournament header that is not the first line.
    #[error("a tournament header must be the first line, and only it")]
    LateHeader,
    /// A tournament game in a log that did not start with a header.
    #[error("a tournament game, but the log does not start with a tournament header")]
    NoHeader,
    /// A host's game in a tournament log.
    #[error("a host's game in a tournament log")]
    HostGame,
    /// A record with impossible contents.
    #[error("{0}")]
    Record(String),
    /// A tournament game naming an agent the tournament does not have.
    #[error("the game names agent {agent}, the tournament has {agents}")]
    UnknownAgent {
        /// The index found.
        agent: usize,
        /// The tournament's agents.
        agents: usize,
    },
    /// A tournament game that is not in its schedule.
    #[error("game {game} is not in the tournament's schedule of {games} games")]
    NotScheduled {
        /// The game's number, from 1.
        game: u64,
        /// The schedule's games.
        games: u32,
    },
    /// A tournament game whose agents or opening differ from the schedule's.
    #[error(
        "game {game} is agents {found:?} on opening {found_opening}, the schedule has \
         {scheduled:?} on opening {scheduled_opening}"
    )]
    Misplaced {
        /// The game's number, from 1.
        game: u64,
        /// The agents logged.
        found: [usize; 2],
        /// The opening logged.
        found_opening: u32,
        /// The agents scheduled.
        scheduled: [usize; 2],
        /// The opening scheduled.
        scheduled_opening: u32,
    },
    /// A game logged a second time.
    #[error("game {game} is logged twice (first on line {first})")]
    Duplicate {
        /// The game's number, from 1.
        game: u32,
        /// The line of its first record.
        first: usize,
    },
}

/// The longest line [`read_log`] accepts: a game's line is some tens of bytes a move, and
/// a game far fewer than a thousand moves.
const MAX_LINE: usize = 1 << 20;

/// Reads a host or tournament log and checks every line (see the module's documentation).
///
/// # Errors
/// The first line that cannot be read or is not a valid line of the log.
pub fn read_log(mut input: impl BufRead) -> Result<DuelLog, LogError> {
    let mut log = DuelLog {
        header: None,
        games: Vec::new(),
        unfinished: None,
        complete: 0,
        newline_missing: false,
    };
    let mut schedule: Option<Schedule> = None;
    let mut seen: HashMap<u32, usize> = HashMap::new();
    let mut bytes = Vec::new();
    for line in 1.. {
        bytes.clear();
        let read = Read::take(input.by_ref(), MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(|e| LogError {
                line,
                problem: LogProblem::Read(e.to_string()),
            })?;
        if read == 0 {
            break;
        }
        let fail = |problem| LogError { line, problem };
        let ended = bytes.last() == Some(&b'\n');
        if !ended && bytes.len() > MAX_LINE {
            return Err(fail(LogProblem::TooLong));
        }
        let text = String::from_utf8_lossy(&bytes);
        if text.trim().is_empty() {
            log.complete += read as u64;
            continue;
        }
        let value: serde_json::Value = match serde_json::from_str(&text) {
            Ok(value) => value,
            // A last line cut short: its writer was stopped mid-line.
            Err(e) if !ended && e.is_eof() => {
                log.unfinished = Some(line);
                break;
            }
            Err(e) => return Err(fail(LogProblem::Syntax(e.to_string()))),
        };
        let game = parse_line(value, line, &mut log, &mut schedule).map_err(fail)?;
        if let Some(game) = game {
            check_record(&game.record).map_err(fail)?;
            if let Some(&first) = seen.get(&game.record.game) {
                return Err(fail(LogProblem::Duplicate {
                    game: game.record.game,
                    first,
                }));
            }
            seen.insert(game.record.game, line);
            log.games.push(game);
        }
        log.complete += read as u64;
        log.newline_missing = !ended;
    }
    Ok(log)
}

/// Reads one JSON line into `log` (a header) or returns its game.
fn parse_line(
    value: serde_json::Value,
    line: usize,
    log: &mut DuelLog,
    schedule: &mut Option<Schedule>,
) -> Result<Option<LoggedGame>, LogProblem> {
    let syntax = |e: serde_json::Error| LogProblem::Syntax(e.to_string());
    let tagged = value.as_object().filter(|o| o.len() == 1).and_then(|o| {
        o.get("tournament")
            .map(|_| true)
            .or_else(|| o.get("game").filter(|g| g.is_object()).map(|_| false))
    });
    match tagged {
        Some(true) => {
            let TournamentLine::Tournament(header) =
                serde_json::from_value(value).map_err(syntax)?
            else {
                unreachable!("a tournament key");
            };
            if line != 1 || log.header.is_some() || !log.games.is_empty() {
                return Err(LogProblem::LateHeader);
            }
            // The header's schedule bounds the games; one too long to number has no game.
            *schedule = Schedule::new(header.agents.len(), header.openings, header.format).ok();
            log.header = Some(header);
            Ok(None)
        }
        Some(false) => {
            let TournamentLine::Game(played) = serde_json::from_value(value).map_err(syntax)?
            else {
                unreachable!("a game object");
            };
            let Some(header) = &log.header else {
                return Err(LogProblem::NoHeader);
            };
            check_played(&played, header, schedule.as_ref())?;
            Ok(Some(LoggedGame {
                line,
                names: played.pairing.agents.map(|a| header.agents[a].name.clone()),
                pairing: Some(played.pairing),
                record: played.record,
            }))
        }
        None => {
            let record: GameRecord = serde_json::from_value(value).map_err(syntax)?;
            if log.header.is_some() {
                return Err(LogProblem::HostGame);
            }
            Ok(Some(LoggedGame {
                line,
                names: ["p0".to_string(), "p1".to_string()],
                pairing: None,
                record,
            }))
        }
    }
}

/// Checks a tournament game against its tournament: known agents, a winner among them that
/// agrees with the record, and the schedule's place.
fn check_played(
    played: &Played,
    header: &TournamentHeader,
    schedule: Option<&Schedule>,
) -> Result<(), LogProblem> {
    let agents = header.agents.len();
    let pairing = played.pairing;
    let game = u64::from(pairing.index) + 1;
    for agent in pairing.agents.into_iter().chain([played.winner]) {
        if agent >= agents {
            return Err(LogProblem::UnknownAgent { agent, agents });
        }
    }
    let games = schedule.map_or(0, Schedule::len);
    let Some(scheduled) = schedule.and_then(|s| s.get(pairing.index)) else {
        return Err(LogProblem::NotScheduled { game, games });
    };
    if scheduled != pairing {
        return Err(LogProblem::Misplaced {
            game,
            found: pairing.agents,
            found_opening: pairing.opening,
            scheduled: scheduled.agents,
            scheduled_opening: scheduled.opening,
        });
    }
    let record = &played.record;
    if u64::from(record.game) != game || record.red_player != 0 {
        return Err(LogProblem::Record(format!(
            "the record of game {game} says game {} with player {} red (a tournament logs \
             game index + 1, red as player 0)",
            record.game, record.red_player
        )));
    }
    if pairing.agents.get(record.winner) != Some(&played.winner) {
        return Err(LogProblem::Record(format!(
            "game {game}: the winner, agent {}, is not the record's winner, player {}",
            played.winner, record.winner
        )));
    }
    Ok(())
}

/// Checks what any record must hold: players 0 and 1 only, and a valid setup.
fn check_record(record: &GameRecord) -> Result<(), LogProblem> {
    let game = record.game;
    if record.red_player > 1 || record.winner > 1 {
        return Err(LogProblem::Record(format!(
            "game {game}: players are 0 and 1, the record names red player {} and winner {}",
            record.red_player, record.winner
        )));
    }
    if let Some(m) = record.moves.iter().find(|m| m.player > 1) {
        return Err(LogProblem::Record(format!(
            "game {game}: a move by player {}; players are 0 and 1",
            m.player
        )));
    }
    record
        .setup()
        .map_err(|e| LogProblem::Record(format!("game {game}: {e}")))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::duel::referee::{End, MoveRecord};

    /// The header line of a tournament log (without the line break).
    ///
    /// # Panics
    /// Never: a header always has a JSON form.
    #[must_use]
    fn header_line(header: &TournamentHeader) -> String {
        serde_json::to_string(&TournamentLine::Tournament(header.clone()))
            .expect("a header is plain data")
    }

    fn record(game: u32, winner: usize) -> GameRecord {
        GameRecord {
            game,
            red_player: 0,
            red: "012345".into(),
            blue: "012345".into(),
            dice: "343242404031241152042".into(),
            moves: vec![MoveRecord {
                mv: "30".into(),
                player: 0,
                secs: 0.1,
            }],
            winner,
            end: End::Corner,
        }
    }

    fn header(agents: usize, openings: u32) -> TournamentHeader {
        TournamentHeader {
            agents: (0..agents)
                .map(|i| Entrant {
                    name: format!("a{i}"),
                    command: "true".into(),
                })
                .collect(),
            format: Format::RoundRobin,
            openings,
            seed: 1,
            dice: "course".into(),
            move_time: 2.0,
            sprt: None,
        }
    }

    fn played(index: u32, agents: [usize; 2], opening: u32, winner: usize) -> Played {
        Played {
            pairing: Pairing {
                index,
                agents,
                opening,
            },
            winner: agents[winner],
            record: record(index + 1, winner),
        }
    }

    fn read(text: &str) -> Result<DuelLog, LogError> {
        read_log(text.as_bytes())
    }

    #[test]
    fn host_and_tournament_logs_read_alike() {
        let host = format!(
            "{}\n{}\n",
            record_line(&record(1, 0)),
            record_line(&record(2, 1))
        );
        let log = read(&host).unwrap();
        assert_eq!(log.header, None);
        assert_eq!(log.games.len(), 2);
        assert_eq!(log.game(2).unwrap().names, ["p0", "p1"]);
        assert_eq!(log.game(2).unwrap().line, 2);
        assert_eq!(log.complete, host.len() as u64);
        let games = [played(1, [1, 0], 0, 0), played(0, [0, 1], 0, 1)];
        let text = format!(
            "{}\n{}\n{}\n",
            header_line(&header(2, 1)),
            game_line(&games[0]),
            game_line(&games[1])
        );
        let log = read(&text).unwrap();
        assert_eq!(log.header, Some(header(2, 1)));
        assert_eq!(log.game(2).unwrap().names, ["a1", "a0"]);
        assert_eq!(log.game(2).unwrap().played(), Some(games[0].clone()));
        assert_eq!(log.game(1).unwrap().played().unwrap().winner, 1);
        assert!(log.game(3).is_none());
    }

    #[test]
    fn an_unfinished_last_line_is_dropped_and_said() {
        let whole = format!(
            "{}\n{}\n",
            header_line(&header(2, 1)),
            game_line(&played(0, [0, 1], 0, 0))
        );
        let cut = game_line(&played(1, [1, 0], 0, 0));
        let text = format!("{whole}{}", &cut[..cut.len() / 2]);
        let log = read(&text).unwrap();
        assert_eq!(log.unfinished, Some(3));
        assert_eq!(log.games.len(), 1);
        assert_eq!(log.complete, whole.len() as u64);
        assert!(!log.newline_missing);
        // A whole last line without its line break is kept; an appended line needs one.
        let text = format!("{whole}{cut}");
        let log = read(&text).unwrap();
        assert_eq!((log.games.len(), log.unfinished), (2, None));
        assert!(log.newline_missing);
        assert_eq!(log.complete, text.len() as u64);
        // A broken line that is not the last is an error.
        let text = format!("{}\n{whole}", &cut[..cut.len() / 2]);
        assert_eq!(read(&text).unwrap_err().line, 1);
    }

    #[test]
    fn bad_lines_are_named() {
        let head = header_line(&header(2, 1));
        let problem = |lines: &[String]| {
            let text = lines.join("\n") + "\n";
            let e = read(&text).unwrap_err();
            (e.line, e.to_string())
        };
        // An agent or winner outside the agent list.
        let mut stray = played(0, [0, 1], 0, 0);
        stray.pairing.agents = [5, 0];
        assert_eq!(
            problem(&[head.clone(), game_line(&stray)]),
            (
                2,
                "line 2: the game names agent 5, the tournament has 2".into()
            )
        );
        let mut stray = played(0, [0, 1], 0, 0);
        stray.winner = 4_000_000_000;
        assert!(
            problem(&[head.clone(), game_line(&stray)])
                .1
                .contains("agent 4000000000")
        );
        // A game outside the schedule, or not where the schedule has it.
        assert_eq!(
            problem(&[head.clone(), game_line(&played(998, [0, 1], 0, 0))]).1,
            "line 2: game 999 is not in the tournament's schedule of 2 games"
        );
        assert!(
            problem(&[head.clone(), game_line(&played(0, [0, 1], 500, 0))])
                .1
                .contains("on opening 500, the schedule has [0, 1] on opening 0")
        );
        // A game logged twice.
        let once = game_line(&played(1, [1, 0], 0, 0));
        assert_eq!(
            problem(&[head.clone(), once.clone(), once.clone()]),
            (3, "line 3: game 2 is logged twice (first on line 2)".into())
        );
        // A second header, a game before any header, a host game among tournament games.
        assert_eq!(problem(&[head.clone(), head.clone()]).0, 2);
        assert!(
            problem(std::slice::from_ref(&once))
                .1
                .contains("does not start with")
        );
        assert!(
            problem(&[head.clone(), record_line(&record(1, 0))])
                .1
                .contains("a host's game")
        );
        // Records with players other than 0 and 1, or a bad setup.
        let mut odd = record(1, 0);
        odd.red_player = 5;
        assert!(problem(&[record_line(&odd)]).1.contains("red player 5"));
        let mut odd = record(1, 0);
        odd.moves[0].player = 2;
        assert!(problem(&[record_line(&odd)]).1.contains("player 2"));
        let mut odd = record(1, 0);
        odd.red = "000000".into();
        assert_eq!(
            problem(&[record_line(&odd)]).1,
            "line 1: game 1: bad setup: '000000' is not a permutation of the cube numbers 0-5"
        );
        // Not JSON, and a line without end.
        assert!(
            problem(&["{\"game\": 1,".into(), head.clone()])
                .1
                .contains("not a game log line")
        );
        let endless = "x".repeat(MAX_LINE + 10);
        assert!(problem(&[endless]).1.contains("longer than"));
    }
}
