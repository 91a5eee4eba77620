//! The sliding-tile routes: a shuffle, a solve with its iterations, bad boards.

mod common;

use axum::http::StatusCode;
use common::*;
use ply_npuzzle::{Board, HeuristicKind, solve};
use ply_search::Limits;
use serde_json::json;

#[tokio::test]
async fn a_solve_streams_its_iterations_and_ends_at_the_goal() {
    let studio = studio();
    let tiles = "1 2 5 3 4 0 6 7 8";
    let events = stream(
        &studio,
        "/api/npuzzle/solve",
        json!({ "tiles": tiles, "heuristic": "manhattan" }),
    )
    .await;
    assert_eq!(events[0].0, "job");
    let result = done(&events);
    let report = solve(
        &tiles.parse::<Board>().unwrap(),
        HeuristicKind::Manhattan,
        Limits::UNLIMITED,
    )
    .unwrap();
    assert_eq!(result["cost"], 3);
    assert_eq!(result["moves"], "ULL");
    assert_eq!(result["proven"], true);
    assert_eq!(result["generated"], report.generated);
    assert_eq!(result["thresholds"], json!(report.extra.thresholds));
    let bounds: Vec<u64> = result["iterations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["bound"].as_u64().unwrap())
        .collect();
    assert_eq!(json!(bounds), json!(report.extra.thresholds));
    let frames = result["frames"].as_array().unwrap();
    assert_eq!(frames.len(), 4);
    assert_eq!(frames[3], "0 1 2 3 4 5 6 7 8");
    no_job_left(&studio).await;
}

#[tokio::test]
async fn a_shuffle_is_a_solvable_board_of_its_size() {
    let studio = studio();
    let (status, value) = post(
        &studio,
        "/api/npuzzle/shuffle",
        json!({ "width": 4, "moves": 30, "seed": 9 }),
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    let board: Board = value["tiles"].as_str().unwrap().parse().unwrap();
    assert_eq!(board.width(), 4);
    assert!(board.is_solvable());
    let (_, again) = post(
        &studio,
        "/api/npuzzle/shuffle",
        json!({ "width": 4, "moves": 30, "seed": 9 }),
    )
    .await;
    assert_eq!(again, value, "a seed draws the same board");
    for (body, expected) in [
        (
            json!({ "width": 6, "moves": 3, "seed": 1 }),
            "width 6 is not 3, 4 or 5",
        ),
        (
            json!({ "width": 3, "moves": 100000, "seed": 1 }),
            "moves 100000 is over",
        ),
    ] {
        let (status, value) = post(&studio, "/api/npuzzle/shuffle", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(error_line(&value).contains(expected), "{value}");
    }
}

#[tokio::test]
async fn bad_boards_are_refused_before_any_job() {
    let studio = studio();
    for (body, expected) in [
        (json!({ "tiles": "1 2 3" }), "expected 9, 16 or 25 numbers"),
        (json!({ "tiles": "1 0 2 3 4 5 6 8 7" }), "unsolvable"),
        (
            json!({ "tiles": "1 2 5 3 4 0 6 7 x" }),
            "'x' is not a tile number",
        ),
        (
            json!({ "tiles": "1 2 5 3 4 0 6 7 8", "heuristic": "pdb" }),
            "unknown heuristic 'pdb'",
        ),
        (
            json!({ "tiles": "1 2 5 3 4 0 6 7 8", "time_limit": -1 }),
            "time_limit -1 is negative",
        ),
    ] {
        let (status, value) = post(&studio, "/api/npuzzle/solve", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_line(&value).contains(expected), "{body}: {value}");
    }
    assert!(studio.running_jobs().is_empty());
}

#[tokio::test]
async fn a_time_limit_stops_a_solve_with_its_lower_bound() {
    let studio = studio();
    // Korf's first instance takes far longer than a millisecond with Manhattan distance.
    let tiles = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";
    let events = stream(
        &studio,
        "/api/npuzzle/solve",
        json!({ "tiles": tiles, "heuristic": "manhattan", "time_limit": 0.001 }),
    )
    .await;
    let result = done(&events);
    assert_eq!(result["cost"], json!(null));
    assert_eq!(result["proven"], false);
    assert_eq!(result["stopped"], "time limit reached");
    assert!(result["lower_bound"].as_u64().unwrap() >= 41);
    no_job_left(&studio).await;
}
