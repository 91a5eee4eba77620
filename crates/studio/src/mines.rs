//! Classic Minesweeper: a game replayed from its seed and clicks (the server keeps no game),
//! with the exact probabilities and the solver's pick; a pasted position analysed; a
//! win-rate run streamed.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use ply_mines::classic::{
    ClassicGame, FirstClick, HIDDEN, Level, Move, Probabilities, Rules, Solver, Status, Strategy,
    Tally, checked_probabilities, parse_position, play_games,
};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::error::{ApiError, Body};
use crate::jobs::AppState;

/// A board as the page names it, in the CLI's and Python's words.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct BoardSpec {
    level: Option<String>,
    width: Option<u16>,
    height: Option<u16>,
    mines: Option<u32>,
    rule: Option<String>,
    start: Option<(u16, u16)>,
}

fn rule(name: Option<&str>) -> Result<FirstClick, ApiError> {
    name.unwrap_or("safe").parse().map_err(ApiError::bad)
}

impl BoardSpec {
    /// The rules it names, checked by the library.
    fn rules(&self) -> Result<Rules, ApiError> {
        let level = self
            .level
            .as_deref()
            .map(str::parse::<Level>)
            .transpose()
            .map_err(ApiError::bad)?;
        Rules::from_options(
            level,
            self.width,
            self.height,
            self.mines,
            rule(self.rule.as_deref())?,
            self.start,
        )
        .map_err(ApiError::bad)
    }
}

/// `POST /api/mines/game`: a game replayed from its seed and clicks.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GameRequest {
    board: BoardSpec,
    seed: u64,
    #[serde(default)]
    clicks: Vec<(u16, u16)>,
    /// Whether to send the probabilities and the solver's pick.
    #[serde(default)]
    odds: bool,
    /// Whether the solver makes the next move first (autoplay, a step at a time).
    #[serde(default)]
    step: bool,
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Playing => "playing",
        Status::Won => "won",
        Status::Lost => "lost",
    }
}

/// The fields of the probabilities the page shows: per cell, and whether they are exact.
fn odds_json(odds: &Probabilities) -> Value {
    json!({
        "mine": odds.mine,
        "safe": cells_where(&odds.safe),
        "certain_mine": cells_where(&odds.certain_mine),
        "exact": odds.exact,
    })
}

fn cells_where(flags: &[bool]) -> Vec<usize> {
    flags
        .iter()
        .enumerate()
        .filter(|(_, f)| **f)
        .map(|(i, _)| i)
        .collect()
}

fn rules_json(rules: &Rules) -> Value {
    json!({
        "width": rules.width,
        "height": rules.height,
        "mines": rules.mines,
        "rule": rules.first_click.name(),
        "start": [rules.start.0, rules.start.1],
        "level": rules.known_level().map(Level::name),
    })
}

/// Replays `request`'s game and answers where it stands.
fn replay(request: GameRequest) -> Result<Value, ApiError> {
    let rules = request.board.rules()?;
    let mut game = ClassicGame::new(rules, request.seed);
    if request.clicks.len() > rules.cells() as usize {
        return Err(ApiError::bad(format!(
            "{} clicks on a board of {} cells",
            request.clicks.len(),
            rules.cells()
        )));
    }
    let mut clicks = request.clicks;
    for (i, &(row, col)) in clicks.iter().enumerate() {
        game.click(row, col)
            .map_err(|e| ApiError::bad(format!("click {}: {e}", i + 1)))?;
    }
    let mut step: Option<Move> = None;
    if request.step && game.status() == Status::Playing {
        step = Solver::new(rules).next_move(game.view());
        if let Some(mv) = step {
            game.click(mv.row, mv.col).map_err(ApiError::bad)?;
            clicks.push((mv.row, mv.col));
        }
    }
    let playing = game.status() == Status::Playing;
    let (odds, pick) = if request.odds && playing {
        let odds = checked_probabilities(&rules, game.view()).map_err(ApiError::bad)?;
        (
            Some(odds_json(&odds)),
            Solver::new(rules).next_move(game.view()),
        )
    } else {
        (None, None)
    };
    // The mines are shown once the game is over.
    let mine_cells: Option<Vec<u32>> = (!playing).then(|| {
        (0..rules.cells())
            .filter(|&c| {
                let (r, col) = (
                    (c / u32::from(rules.width)) as u16,
                    (c % u32::from(rules.width)) as u16,
                );
                game.is_mine(r, col) == Some(true)
            })
            .collect()
    });
    Ok(json!({
        "rules": rules_json(&rules),
        "seed": request.seed,
        "status": status_name(game.status()),
        "opened": game.opened(),
        "view": game.view(),
        "clicks": clicks,
        "mine_cells": mine_cells,
        "odds": odds,
        "pick": pick,
        "step": step,
    }))
}

pub(crate) async fn game(
    State(state): State<AppState>,
    Body(request): Body<GameRequest>,
) -> Result<Json<Value>, ApiError> {
    state
        .jobs
        .quick("mines.game", move |_| replay(request))
        .await?
        .map(Json)
}

/// `POST /api/mines/analyse`: a position as text ([`parse_position`]'s format).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct AnalyseRequest {
    text: String,
    rule: Option<String>,
}

/// The analysis of a pasted position: every cell's probability, the certain moves and the
/// solver's move (a certain one, or its best guess).
pub(crate) fn analyse_text(text: &str, rule_name: Option<&str>) -> Result<Value, ApiError> {
    let position = parse_position(text, rule(rule_name)?).map_err(ApiError::bad)?;
    let rules = position.rules;
    let odds = checked_probabilities(&rules, &position.view).map_err(ApiError::bad)?;
    let best = if position.view.contains(&HIDDEN) {
        Solver::new(rules).next_move(&position.view)
    } else {
        None
    };
    Ok(json!({
        "rules": rules_json(&rules),
        "view": position.view,
        "flagged": cells_where(&position.flagged),
        "odds": odds_json(&odds),
        "best": best,
        "text": position.to_text(),
    }))
}

pub(crate) async fn analyse(
    State(state): State<AppState>,
    Body(request): Body<AnalyseRequest>,
) -> Result<Json<Value>, ApiError> {
    state
        .jobs
        .quick("mines.analyse", move |_| {
            analyse_text(&request.text, request.rule.as_deref())
        })
        .await?
        .map(Json)
}

/// `POST /api/mines/winrate`: games `0..games` of the run seeded `seed`, as
/// `ply mines classic bench --seed SEED --games GAMES` plays them.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct WinRateRequest {
    board: BoardSpec,
    games: u64,
    #[serde(default = "one")]
    seed: u64,
}

fn one() -> u64 {
    1
}

/// The most games one run of the studio plays (the CLI's bench plays more, in logged blocks).
const MAX_STUDIO_GAMES: u64 = 10_000_000;

/// A tally as the page shows it, in `ply mines classic bench --json`'s words.
#[derive(Serialize)]
struct TallyView {
    games: u64,
    wins: u64,
    guesses: u64,
    rate: f64,
    interval: (f64, f64),
    seconds: f64,
}

fn tally_view(tally: &Tally, started: Instant) -> TallyView {
    TallyView {
        games: tally.games,
        wins: tally.wins,
        guesses: tally.guesses,
        rate: tally.rate(),
        interval: tally.interval(),
        seconds: started.elapsed().as_secs_f64(),
    }
}

pub(crate) async fn win_rate(
    State(state): State<AppState>,
    Body(request): Body<WinRateRequest>,
) -> Result<Response, ApiError> {
    let rules = request.board.rules()?;
    if !(1..=MAX_STUDIO_GAMES).contains(&request.games) {
        return Err(ApiError::bad(format!(
            "games {} is not in 1..={MAX_STUDIO_GAMES}",
            request.games
        )));
    }
    state.jobs.stream("mines.winrate", move |stop, events| {
        let started = Instant::now();
        let games = request.games;
        // About forty updates of the interval over the run, each a whole number of games.
        let chunk = (games / 40).clamp(1, 1_000);
        let played = AtomicU64::new(0);
        let last = Mutex::new(Instant::now());
        let tally = Mutex::new(Tally::default());
        let done = || {
            let played = played.fetch_add(1, Ordering::Relaxed) + 1;
            let mut last = last
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if last.elapsed().as_millis() >= 100 {
                *last = Instant::now();
                events.progress(&json!({ "played": played, "games": games }));
            }
        };
        let mut first = 0;
        let mut stopped = false;
        while first < games {
            let end = (first + chunk).min(games);
            match play_games(
                &rules,
                &Strategy::default(),
                request.seed,
                first..end,
                stop,
                &done,
            ) {
                Some(part) => {
                    let mut total = tally
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner);
                    *total = total.merged(part);
                    events.send("tally", &tally_view(&total, started));
                }
                None => {
                    stopped = true;
                    break;
                }
            }
            first = end;
        }
        let total = *tally
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut result = serde_json::to_value(tally_view(&total, started)).unwrap_or(Value::Null);
        result["stopped"] = json!(stopped);
        result["rules"] = rules_json(&rules);
        result["seed"] = json!(request.seed);
        Ok(result)
    })
}
