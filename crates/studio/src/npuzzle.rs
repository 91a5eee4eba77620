//! Sliding-tile puzzles: a shuffled instance, and an optimal solve whose IDA* iterations
//! stream live.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::State;
use axum::response::Response;
use ply_npuzzle::{
    Board, BoardError, Direction, HeuristicKind, check_report, moves_to_string,
    solve as solve_board,
};
use ply_search::{Limits, SearchProgress};
use rand::{Rng, SeedableRng};
use serde::Deserialize;
use serde_json::{Value, json};

use crate::error::{ApiError, Body};
use crate::jobs::AppState;

/// `POST /api/npuzzle/shuffle`: the goal of a `width` x `width` puzzle after `moves` random
/// moves of the blank (none undoing the one before).
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShuffleRequest {
    width: usize,
    moves: u32,
    seed: u64,
}

/// The most moves a shuffle makes (a random walk this long mixes any board).
const MAX_SHUFFLE: u32 = 10_000;

fn tiles_text(board: &Board) -> String {
    board
        .tiles()
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

pub(crate) async fn shuffle(Body(request): Body<ShuffleRequest>) -> Result<Json<Value>, ApiError> {
    if !(3..=5).contains(&request.width) {
        return Err(ApiError::bad(format!(
            "width {} is not 3, 4 or 5",
            request.width
        )));
    }
    if request.moves > MAX_SHUFFLE {
        return Err(ApiError::bad(format!(
            "moves {} is over {MAX_SHUFFLE}",
            request.moves
        )));
    }
    let mut rng = rand_chacha_rng(request.seed);
    let mut board = Board::goal(request.width);
    let mut last: Option<Direction> = None;
    for _ in 0..request.moves {
        let choices: Vec<(Direction, Board)> = Direction::ALL
            .into_iter()
            .filter(|&dir| last.is_none_or(|l| dir != l.opposite()))
            .filter_map(|dir| board.moved(dir).map(|next| (dir, next)))
            .collect();
        let (dir, next) = choices[rng.random_range(0..choices.len())];
        board = next;
        last = Some(dir);
    }
    Ok(Json(
        json!({ "tiles": tiles_text(&board), "width": request.width }),
    ))
}

fn rand_chacha_rng(seed: u64) -> rand::rngs::StdRng {
    rand::rngs::StdRng::seed_from_u64(seed)
}

/// `POST /api/npuzzle/solve`: an optimal solve of `tiles` with `heuristic`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SolveRequest {
    tiles: String,
    #[serde(default = "linear_conflict")]
    heuristic: String,
    time_limit: Option<f64>,
}

fn linear_conflict() -> String {
    HeuristicKind::LinearConflict.name().into()
}

/// How often a solve's progress is sent.
const TICK: Duration = Duration::from_millis(200);

/// The boards after each move, the start first.
fn frames(board: &Board, moves: &[Direction]) -> Vec<String> {
    let mut at = *board;
    let mut out = vec![tiles_text(&at)];
    for &dir in moves {
        match at.moved(dir) {
            Some(next) => at = next,
            None => break,
        }
        out.push(tiles_text(&at));
    }
    out
}

pub(crate) async fn solve(
    State(state): State<AppState>,
    Body(request): Body<SolveRequest>,
) -> Result<Response, ApiError> {
    let board: Board = request
        .tiles
        .parse()
        .map_err(|e: BoardError| ApiError::bad(e))?;
    let kind: HeuristicKind = request.heuristic.parse().map_err(ApiError::bad)?;
    if !board.is_solvable() {
        return Err(ApiError::bad(BoardError::Unsolvable));
    }
    let mut limits = Limits::UNLIMITED;
    if let Some(secs) = request.time_limit {
        limits = limits
            .with_time_limit_secs("time_limit", secs)
            .map_err(ApiError::bad)?;
    }
    state.jobs.stream("npuzzle.solve", move |stop, events| {
        let progress = SearchProgress::new();
        let limits = limits.with_stop(stop.clone()).with_progress(progress.clone());
        let started = Instant::now();
        let finished = AtomicBool::new(false);
        let report = std::thread::scope(|scope| {
            let ticker = scope.spawn(|| {
                let mut sent = 0;
                while !finished.load(Ordering::Relaxed) {
                    std::thread::park_timeout(TICK);
                    let seen = progress.snapshot();
                    let fresh: Vec<Value> = seen.iterations[sent.min(seen.iterations.len())..]
                        .iter()
                        .map(|i| json!({ "bound": i.bound, "generated": i.generated, "expanded": i.expanded }))
                        .collect();
                    sent = seen.iterations.len();
                    events.progress(&json!({
                        "generated": seen.generated,
                        "bound": seen.bound,
                        "iterations": fresh,
                        "seconds": started.elapsed().as_secs_f64(),
                    }));
                }
            });
            let report = solve_board(&board, kind, limits);
            finished.store(true, Ordering::Relaxed);
            ticker.thread().unpark();
            report
        });
        let report = report.map_err(ApiError::bad)?;
        check_report(&board, &report).map_err(|e| ApiError::bad(format!("internal error: {e}")))?;
        let iterations = progress.snapshot().iterations;
        let mut value = json!(report.record(moves_to_string));
        value["thresholds"] = json!(report.extra.thresholds);
        value["iterations"] = iterations
            .iter()
            .map(|i| json!({ "bound": i.bound, "generated": i.generated, "expanded": i.expanded }))
            .collect();
        value["heuristic"] = json!(kind.name());
        value["frames"] = json!(report.moves().map(|m| frames(&board, m)));
        Ok(value)
    })
}
