//! Sokoboru: puzzles read from an uploaded file or generated, a game replayed from its
//! moves (the server keeps no game), a hint, and a long solve whose answer and bound stream.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use ply_search::{Limits, WrongAnswer};
use ply_sokoboru::{
    CaseReport, Dir, GenOptions, Keep, Progress, Puzzle, SolveError, State as Position,
    check_answer, generate as generate_puzzles, parse_puzzles, solve as solve_puzzle,
    solve_file_checked,
};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{ApiError, Body};
use crate::jobs::AppState;

/// A puzzle as the page shows it: its size, its text (the file format) and its board.
fn puzzle_json(puzzle: &Puzzle) -> Value {
    json!({
        "rows": puzzle.rows,
        "cols": puzzle.cols,
        "text": puzzle.to_string(),
        "board": puzzle.render(&puzzle.start),
    })
}

/// `POST /api/sokoboru/parse`: every case of a puzzle file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ParseRequest {
    text: String,
}

pub(crate) async fn parse(Body(request): Body<ParseRequest>) -> Result<Json<Value>, ApiError> {
    let puzzles = parse_puzzles(&request.text).map_err(ApiError::bad)?;
    Ok(Json(
        json!({ "puzzles": puzzles.iter().map(puzzle_json).collect::<Vec<_>>() }),
    ))
}

/// One puzzle: the text of exactly one case.
fn one_puzzle(text: &str) -> Result<Puzzle, ApiError> {
    let mut puzzles = parse_puzzles(text).map_err(ApiError::bad)?;
    if puzzles.len() != 1 {
        return Err(ApiError::bad(format!("{} cases: send one", puzzles.len())));
    }
    Ok(puzzles.remove(0))
}

/// The most moves a game replays.
const MAX_PLAYED: usize = 10_000;

/// The moves of a move string, each a `^ v < >`.
fn moves_of(text: &str) -> Result<Vec<Dir>, ApiError> {
    if text.len() > MAX_PLAYED {
        return Err(ApiError::bad(format!("more than {MAX_PLAYED} moves")));
    }
    text.chars()
        .enumerate()
        .map(|(i, c)| {
            Dir::from_symbol(c).ok_or_else(|| {
                ApiError::bad(format!("move {}: {c:?} is not a move (^ v < >)", i + 1))
            })
        })
        .collect()
}

/// A game's positions: the start, then after each move; and its penalty.
struct Played {
    states: Vec<Position>,
    penalty: u32,
}

fn replay(puzzle: &Puzzle, moves: &[Dir]) -> Result<Played, ApiError> {
    let mut states = vec![puzzle.start];
    let mut penalty = 0;
    for (i, &dir) in moves.iter().enumerate() {
        let at = states[states.len() - 1];
        let step = at
            .step(puzzle, dir)
            .map_err(|e| ApiError::bad(format!("move {} ({}): {e}", i + 1, dir.symbol())))?;
        penalty += step.cost;
        states.push(step.state);
    }
    Ok(Played { states, penalty })
}

/// `POST /api/sokoboru/play`: the game of `moves` on `puzzle`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct PlayRequest {
    puzzle: String,
    #[serde(default)]
    moves: String,
}

pub(crate) async fn play(Body(request): Body<PlayRequest>) -> Result<Json<Value>, ApiError> {
    let puzzle = one_puzzle(&request.puzzle)?;
    let played = replay(&puzzle, &moves_of(&request.moves)?)?;
    let last = played.states[played.states.len() - 1];
    Ok(Json(json!({
        "frames": played.states.iter().map(|s| puzzle.render(s)).collect::<Vec<_>>(),
        "penalty": played.penalty,
        "solved": last.is_solved(),
        "moves": request.moves,
    })))
}

/// How long a hint searches.
const HINT_TIME: Duration = Duration::from_secs(2);

/// `POST /api/sokoboru/hint`: the next move of the best answer known from the position after
/// `moves`.
pub(crate) async fn hint(
    State(state): State<AppState>,
    Body(request): Body<PlayRequest>,
) -> Result<Json<Value>, ApiError> {
    let puzzle = one_puzzle(&request.puzzle)?;
    let played = replay(&puzzle, &moves_of(&request.moves)?)?;
    let here = played.states[played.states.len() - 1];
    if here.is_solved() {
        return Err(ApiError::bad("the puzzle is solved: no move is needed"));
    }
    let from_here = puzzle.with_start(here);
    let answer = state
        .jobs
        .quick("sokoboru.hint", move |stop| {
            let limits = Limits::UNLIMITED
                .with_max_time(HINT_TIME)
                .with_stop(stop.clone());
            let answer = solve_puzzle(&from_here, limits);
            check_answer(&from_here, &answer).map(|()| answer)
        })
        .await?
        .map_err(|e| ApiError::bad(format!("internal error: {e}")))?;
    let (moves, proven) = match answer {
        Ok(solution) => (solution.moves, true),
        Err(SolveError::GaveUp {
            best: Some(best), ..
        }) => (best.moves, false),
        Err(SolveError::GaveUp { best: None, .. }) => {
            return Err(ApiError::bad(
                "no answer found within the hint's 2 s: try a move or undo",
            ));
        }
        Err(e @ SolveError::NoSolution(_)) => {
            return Err(ApiError::bad(format!("from here, {e}: undo")));
        }
    };
    Ok(Json(json!({
        "move": moves.first().map(|d| d.symbol().to_string()),
        "moves": moves.iter().map(|d| d.symbol()).collect::<String>(),
        "proven": proven,
    })))
}

/// `POST /api/sokoboru/solve`: the anytime solve of one puzzle.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SolveRequest {
    puzzle: String,
    time_limit: Option<f64>,
}

/// What a case's answer so far says, in the words of every solve record: the best penalty
/// found (`cost`), the proven bound, whether it is proven, and the moves.
fn answer_json(report: &CaseReport) -> Value {
    json!(report.record(|moves| moves.iter().map(|d| d.symbol()).collect::<String>()))
}

/// How often a solve's answer and bound are sent.
const TICK: Duration = Duration::from_millis(200);

pub(crate) async fn solve(
    State(state): State<AppState>,
    Body(request): Body<SolveRequest>,
) -> Result<Response, ApiError> {
    let puzzle = one_puzzle(&request.puzzle)?;
    let mut limits = Limits::UNLIMITED;
    if let Some(secs) = request.time_limit {
        limits = limits
            .with_time_limit_secs("time_limit", secs)
            .map_err(ApiError::bad)?;
    }
    state.jobs.stream("sokoboru.solve", move |stop, events| {
        let limits = limits.with_stop(stop.clone());
        let progress = Progress::new(1);
        let started = Instant::now();
        let finished = AtomicBool::new(false);
        let last: Mutex<Option<CaseReport>> = Mutex::new(None);
        let puzzles = [puzzle];
        let outcome = std::thread::scope(|scope| {
            let ticker = scope.spawn(|| {
                while !finished.load(Ordering::Relaxed) {
                    std::thread::park_timeout(TICK);
                    let mut now = answer_json(&progress.best(0));
                    now["seconds"] = json!(started.elapsed().as_secs_f64());
                    events.progress(&now);
                }
            });
            let outcome = solve_file_checked(&puzzles, 1, &limits, &progress, |_, report| {
                *last
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(report);
                Ok::<(), WrongAnswer>(())
            });
            finished.store(true, Ordering::Relaxed);
            ticker.thread().unpark();
            outcome
        });
        outcome.map_err(|e| ApiError::bad(format!("internal error: {e}")))?;
        let report = last
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .unwrap_or_else(|| progress.best(0));
        Ok(answer_json(&report))
    })
}

/// `POST /api/sokoboru/generate`: one random puzzle with its best known penalty.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct GenerateRequest {
    seed: u64,
    rows: usize,
    cols: usize,
    balls: usize,
    #[serde(default)]
    min_penalty: u32,
    #[serde(default = "wall_density")]
    wall_density: f64,
    #[serde(default = "max_nodes")]
    max_nodes: u64,
}

fn wall_density() -> f64 {
    0.2
}

fn max_nodes() -> u64 {
    5_000_000
}

/// Boards a generation draws before it gives up.
const MAX_DRAWS: u64 = 1_000;

fn gen_options(request: &GenerateRequest, limits: Limits) -> GenOptions {
    GenOptions {
        rows: request.rows,
        cols: request.cols,
        balls: request.balls,
        min_penalty: request.min_penalty,
        wall_density: request.wall_density,
        limits: limits.with_max_nodes(request.max_nodes),
        max_draws: MAX_DRAWS,
        keep: Keep::Answered,
    }
}

pub(crate) async fn generate(
    State(state): State<AppState>,
    Body(request): Body<GenerateRequest>,
) -> Result<Response, ApiError> {
    // No puzzle asked for: the library checks the options and draws nothing.
    generate_puzzles(
        request.seed,
        0,
        &gen_options(&request, Limits::UNLIMITED),
        |_| true,
        |_| {},
    )
    .map_err(ApiError::bad)?;
    state.jobs.stream("sokoboru.generate", move |stop, events| {
        let options = gen_options(&request, Limits::UNLIMITED.with_stop(stop.clone()));
        let mut generated = generate_puzzles(
            request.seed,
            1,
            &options,
            |_| true,
            |drawn| {
                events.progress(&json!({ "drawn": drawn }));
            },
        )
        .map_err(ApiError::bad)?;
        if stop.is_stopped() {
            return Err(ApiError::bad("stopped"));
        }
        let found = generated.remove(0);
        let mut out = puzzle_json(&found.puzzle);
        out["penalty"] = json!(found.penalty);
        out["proven"] = json!(found.proven);
        Ok(out)
    })
}
