//! EWN: the solo optimum with its positions, duels (a person against an agent, or two agents
//! watched move by move), a tournament log replayed with its standings, an openings log.

use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use ply_ewn::duel::agents::{AlphaBetaAgent, MctsAgent, MctsAgentConfig};
use ply_ewn::duel::openings::{permutation, read_log as read_openings_log};
use ply_ewn::duel::protocol::{Setup, parse_move};
use ply_ewn::duel::tournament::{read_log, standings};
use ply_ewn::duel::{Agent, Board, Color, DeepAgent, agent_by_name, course_dice};
use ply_ewn::solo::{DEAD, Instance, solve_checked};
use ply_search::{Limits, SecondsRule};
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{ApiError, Body};
use crate::jobs::AppState;

// --- Solo.

/// `POST /api/ewn/solo/solve`: an instance's optimum and the positions along it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SoloRequest {
    text: String,
    time_limit: Option<f64>,
}

/// How long a solo solve may run unless the page says otherwise.
const SOLO_TIME: f64 = 30.0;

pub(crate) async fn solo(
    State(state): State<AppState>,
    Body(request): Body<SoloRequest>,
) -> Result<Json<Value>, ApiError> {
    let instance = Instance::parse(&request.text).map_err(ApiError::bad)?;
    let limits = Limits::UNLIMITED
        .with_time_limit_secs("time_limit", request.time_limit.unwrap_or(SOLO_TIME))
        .map_err(ApiError::bad)?;
    let solved = instance.clone();
    let report = state
        .jobs
        .quick("ewn.solo", move |stop| {
            solve_checked(&solved, &limits.with_stop(stop.clone()))
        })
        .await?
        .map_err(|e| ApiError::bad(format!("internal error: {e}")))?;
    let mut position = instance.position();
    let cells = |p: &ply_ewn::solo::Position| -> Vec<Option<u8>> {
        (1..=6)
            .map(|piece| p.cell(piece).filter(|&c| c != DEAD))
            .collect()
    };
    let mut frames = vec![cells(&position)];
    for &mv in report.moves().unwrap_or_default() {
        position.play(mv);
        frames.push(cells(&position));
    }
    let record = report.record(|moves| {
        moves
            .iter()
            .map(|m| (m.piece, m.from, m.to))
            .collect::<Vec<_>>()
    });
    let mut value = json!(record);
    value["goal"] = json!(instance.goal);
    value["dice"] = json!(instance.dice);
    value["frames"] = json!(frames);
    Ok(Json(value))
}

// --- Duels.

/// A 6 x 7 board as 42 characters: `.` empty, `0`-`5` a red cube, `a`-`f` a blue one.
fn board_text(board: &Board) -> String {
    (0..42u8)
        .map(|cell| match board.at(cell) {
            None => '.',
            Some((Color::Red, cube)) => char::from(b'0' + cube),
            Some((Color::Blue, cube)) => char::from(b'a' + cube),
        })
        .collect()
}

fn color_name(color: Color) -> &'static str {
    match color {
        Color::Red => "red",
        Color::Blue => "blue",
    }
}

/// Where a duel stands: the board, whose turn, the die, the winner and the legal moves with
/// the cells they go from and to.
fn duel_state(board: &Board) -> Value {
    let mover = board.to_move();
    let moves: Vec<Value> = if board.winner().is_some() {
        Vec::new()
    } else {
        board
            .moves()
            .iter()
            .map(|&mv| {
                let mut after = board.clone();
                after.play(mv);
                json!({
                    "move": mv.to_string(),
                    "from": board.cube_cell(mover, mv.cube),
                    "to": after.cube_cell(mover, mv.cube),
                })
            })
            .collect()
    };
    json!({
        "board": board_text(board),
        "to_move": color_name(mover),
        "die": board.die(),
        "ply": board.ply(),
        "winner": board.winner().map(color_name),
        "moves": moves,
    })
}

/// The board of `setup` after `moves`, each checked by the rules.
fn replay_duel(setup: &str, moves: &[String]) -> Result<Board, ApiError> {
    let setup =
        Setup::decode(setup.as_bytes()).map_err(|e| ApiError::bad(format!("setup: {e}")))?;
    let mut board = setup
        .board()
        .map_err(|e| ApiError::bad(format!("setup: {e}")))?;
    for (i, text) in moves.iter().enumerate() {
        let bytes: [u8; 2] = text.as_bytes().try_into().map_err(|_| {
            ApiError::bad(format!("move {}: {text:?} is not two characters", i + 1))
        })?;
        let mv = parse_move(bytes).map_err(|e| ApiError::bad(format!("move {}: {e}", i + 1)))?;
        board
            .play_checked(mv)
            .map_err(|e| ApiError::bad(format!("move {}: {e}", i + 1)))?;
    }
    Ok(board)
}

/// `POST /api/ewn/duel/new`: a start drawn from `seed` (both permutations, a course dice line).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct NewDuel {
    seed: u64,
}

pub(crate) async fn duel_new(Body(request): Body<NewDuel>) -> Result<Json<Value>, ApiError> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(request.seed);
    let lines = course_dice();
    let setup = Setup {
        red: permutation(rng.random_range(0..720)),
        blue: permutation(rng.random_range(0..720)),
        dice: lines[rng.random_range(0..lines.len())],
    };
    let board = setup.board().map_err(ApiError::bad)?;
    Ok(Json(
        json!({ "setup": setup.encode(), "state": duel_state(&board) }),
    ))
}

/// An agent as the page names it: one of the course's (`random`, `normal`, `hard`) or a timed
/// one (`deep`, `mcts`, `alphabeta`) with its seconds a move.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AgentSpec {
    name: String,
    move_time: Option<f64>,
}

/// The longest move the studio gives an agent: a move cannot be stopped, only waited for.
const MAX_STUDIO_MOVE: f64 = 10.0;

/// An agent checked, ready to be made where it plays (the strongest holds hundreds of MiB
/// of tables, which are made on the job's thread, never on the server's).
#[derive(Clone, Debug)]
pub(crate) struct CheckedAgent {
    name: String,
    time: Duration,
}

impl AgentSpec {
    /// The agent's name and time checked: a known name, a move time the rules accept and
    /// the studio bounds.
    fn check(&self) -> Result<CheckedAgent, ApiError> {
        let secs = self.move_time.unwrap_or(1.0);
        if secs > MAX_STUDIO_MOVE {
            return Err(ApiError::bad(format!(
                "move_time {secs} is over the studio's {MAX_STUDIO_MOVE} s"
            )));
        }
        let time = SecondsRule::MoveTime
            .named("move_time", secs)
            .map_err(ApiError::bad)?;
        match self.name.as_str() {
            "deep" | "mcts" | "alphabeta" | "random" | "easy" | "normal" | "hard" => {
                Ok(CheckedAgent {
                    name: self.name.clone(),
                    time,
                })
            }
            other => Err(ApiError::bad(format!(
                "agent {:?} is not random, normal, hard, deep, mcts or alphabeta",
                ply_search::messages::excerpt(other)
            ))),
        }
    }
}

impl CheckedAgent {
    /// The agent, its random moves or playouts drawn from `seed`.
    fn build(&self, seed: u64) -> Result<Box<dyn Agent + Send>, ApiError> {
        Ok(match self.name.as_str() {
            "deep" => Box::new(DeepAgent::new(self.time)),
            "mcts" => Box::new(MctsAgent::new(MctsAgentConfig {
                move_time: self.time,
                seed,
                ..MctsAgentConfig::default()
            })),
            "alphabeta" => Box::new(AlphaBetaAgent::timed(self.time)),
            name => agent_by_name(name, seed).map_err(ApiError::bad)?,
        })
    }
}
/// `POST /api/ewn/duel/state` and `/api/ewn/duel/agent`: a duel's moves so far, and for the
/// latter the agent that moves next.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct DuelRequest {
    setup: String,
    #[serde(default)]
    moves: Vec<String>,
    agent: Option<AgentSpec>,
}

pub(crate) async fn duel_state_route(
    Body(request): Body<DuelRequest>,
) -> Result<Json<Value>, ApiError> {
    let board = replay_duel(&request.setup, &request.moves)?;
    Ok(Json(duel_state(&board)))
}

pub(crate) async fn duel_agent(
    State(state): State<AppState>,
    Body(request): Body<DuelRequest>,
) -> Result<Json<Value>, ApiError> {
    let board = replay_duel(&request.setup, &request.moves)?;
    if board.winner().is_some() {
        return Err(ApiError::bad("the game is over"));
    }
    let agent = request
        .agent
        .ok_or_else(|| ApiError::bad("no agent to move"))?
        .check()?;
    let chosen = state
        .jobs
        .quick("ewn.duel.move", move |_| {
            let started = Instant::now();
            let mut agent = agent.build(u64::from(board.ply()))?;
            let mv = agent.choose(&board, started);
            let mut after = board.clone();
            after
                .play_checked(mv)
                .map(|_| (mv, after, started.elapsed()))
                .map_err(|e| {
                    ApiError::bad(format!("internal error: the agent's move is illegal: {e}"))
                })
        })
        .await??;
    let (mv, after, took) = chosen;
    Ok(Json(json!({
        "move": mv.to_string(),
        "seconds": took.as_secs_f64(),
        "state": duel_state(&after),
    })))
}

/// `POST /api/ewn/duel/watch`: two agents play from `setup`, each move an event.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WatchRequest {
    setup: String,
    red: AgentSpec,
    blue: AgentSpec,
}

pub(crate) async fn duel_watch(
    State(state): State<AppState>,
    Body(request): Body<WatchRequest>,
) -> Result<Response, ApiError> {
    let mut board = replay_duel(&request.setup, &[])?;
    let (red, blue) = (request.red.check()?, request.blue.check()?);
    state.jobs.stream("ewn.duel.watch", move |stop, events| {
        let (mut red, mut blue) = (red.build(1)?, blue.build(2)?);
        red.new_game(&board, Color::Red);
        blue.new_game(&board, Color::Blue);
        let mut moves = Vec::new();
        while board.winner().is_none() {
            if stop.is_stopped() {
                return Ok(json!({ "stopped": true, "moves": moves, "winner": null }));
            }
            let started = Instant::now();
            let mv = match board.to_move() {
                Color::Red => red.choose(&board, started),
                Color::Blue => blue.choose(&board, started),
            };
            let took = started.elapsed().as_secs_f64();
            red.observe(&board, mv);
            blue.observe(&board, mv);
            board.play_checked(mv).map_err(|e| {
                ApiError::bad(format!("internal error: an agent's move is illegal: {e}"))
            })?;
            moves.push(mv.to_string());
            events.send(
                "move",
                &json!({ "move": mv.to_string(), "seconds": took, "state": duel_state(&board) }),
            );
        }
        Ok(json!({ "stopped": false, "moves": moves, "winner": board.winner().map(color_name) }))
    })
}

// --- Logs.

/// The most games or records a log the studio replays holds.
const MAX_LOGGED: usize = 2_000;

/// `POST /api/ewn/log` and `/api/ewn/openings`: a log's text.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct LogRequest {
    text: String,
}

/// A tournament or host log: every game with its positions, and for a tournament the
/// standings (Elo with 95 % intervals, from the library) after each game.
pub(crate) fn log_json(text: &str) -> Result<Value, ApiError> {
    let log = read_log(text.as_bytes()).map_err(ApiError::bad)?;
    if log.games.len() > MAX_LOGGED {
        return Err(ApiError::bad(format!(
            "{} games: the studio replays logs of up to {MAX_LOGGED}",
            log.games.len()
        )));
    }
    let mut games = Vec::new();
    let mut played = Vec::new();
    let mut after = Vec::new();
    let agents: Vec<String> = match &log.header {
        Some(header) => header.agents.iter().map(|a| a.name.clone()).collect(),
        None => vec!["p0".into(), "p1".into()],
    };
    for game in &log.games {
        let record = &game.record;
        let positions = record
            .positions()
            .map_err(|e| ApiError::bad(format!("line {}: {e}", game.line)))?;
        games.push(json!({
            "game": record.game,
            "line": game.line,
            "red": game.names[record.red_player],
            "blue": game.names[1 - record.red_player],
            "winner": game.names[record.winner],
            "end": record.end,
            "moves": record.moves.iter().map(|m| m.mv.clone()).collect::<Vec<_>>(),
            "frames": positions.iter().map(board_text).collect::<Vec<_>>(),
        }));
        if let Some(p) = game.played() {
            played.push(p);
            let table: Vec<Value> = standings(agents.len(), &played)
                .into_iter()
                .map(|s| {
                    json!({
                        "name": agents[s.agent],
                        "games": s.games,
                        "wins": s.wins,
                        "forfeits": s.forfeits,
                        "elo": s.elo,
                        "elo_interval": [finite(s.elo_interval.0), finite(s.elo_interval.1)],
                    })
                })
                .collect();
            after.push(table);
        }
    }
    Ok(json!({
        "tournament": log.header.is_some(),
        "agents": agents,
        "games": games,
        "standings": after,
        "unfinished_line": log.unfinished,
    }))
}

/// A bound as JSON: `null` when infinite (the games do not connect every agent yet).
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

pub(crate) async fn log(
    State(state): State<AppState>,
    Body(request): Body<LogRequest>,
) -> Result<Json<Value>, ApiError> {
    state
        .jobs
        .quick("ewn.log", move |_| log_json(&request.text))
        .await?
        .map(Json)
}

/// An openings log, read by the library's reader (`ply ewn openings prove`'s standard output,
/// a record a line, or its `--log` batch file): every start with its winner and its line
/// replayed, each checked by the library.
pub(crate) fn openings_json(text: &str) -> Result<Value, ApiError> {
    let read = read_openings_log(text).map_err(ApiError::bad)?;
    if read.len() > MAX_LOGGED {
        return Err(ApiError::bad(format!(
            "more than {MAX_LOGGED} records: the studio browses up to {MAX_LOGGED}"
        )));
    }
    let mut records = Vec::new();
    for (number, record) in read {
        record
            .check_line()
            .map_err(|e| ApiError::bad(format!("line {number}: {e}")))?;
        let line_moves: Vec<String> = record.line.clone();
        let board = replay_duel(
            &format!("{}{}{}", record.red, record.blue, record.dice),
            &[],
        )?;
        let mut frames = vec![board_text(&board)];
        let mut at_board = board;
        for text in &line_moves {
            let bytes: [u8; 2] = text.as_bytes().try_into().unwrap_or([b'?', b'?']);
            match parse_move(bytes)
                .ok()
                .and_then(|mv| at_board.play_checked(mv).ok())
            {
                Some(_) => frames.push(board_text(&at_board)),
                None => break,
            }
        }
        records.push(json!({
            "line_number": number,
            "start": record.start,
            "red": record.red,
            "blue": record.blue,
            "dice": record.dice,
            "winner": record.winner.map(color_name),
            "move": record.first_move,
            "line": line_moves,
            "nodes": record.nodes,
            "seconds": record.seconds,
            "frames": frames,
        }));
    }
    Ok(json!({ "records": records }))
}

pub(crate) async fn openings(
    State(state): State<AppState>,
    Body(request): Body<LogRequest>,
) -> Result<Json<Value>, ApiError> {
    state
        .jobs
        .quick("ewn.openings", move |_| openings_json(&request.text))
        .await?
        .map(Json)
}
