//! The Sokoboru routes: parse, play, hint, solve and generate, good and bad.

mod common;

use axum::http::StatusCode;
use common::*;
use ply_search::Limits;
use ply_sokoboru::{parse_puzzles, solve};
use serde_json::json;

const SAMPLE: &str = "5 6\n---###\n$$----\n------\n---OO-\n---@--\n";

#[tokio::test]
async fn a_file_parses_into_its_cases() {
    let studio = studio();
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../data/sokoboru/tiny.in"
    ))
    .unwrap();
    let (status, value) = post(&studio, "/api/sokoboru/parse", json!({ "text": text })).await;
    assert_eq!(status, StatusCode::OK);
    let puzzles = parse_puzzles(&text).unwrap();
    assert_eq!(value["puzzles"].as_array().unwrap().len(), puzzles.len());
    assert_eq!(value["puzzles"][0]["text"], puzzles[0].to_string());
    let (status, value) = post(
        &studio,
        "/api/sokoboru/parse",
        json!({ "text": "2 2\n@x\n--\n" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_line(&value).starts_with("case 1, line 2"), "{value}");
}

#[tokio::test]
async fn a_game_replays_and_names_its_illegal_move() {
    let studio = studio();
    let (status, value) = post(
        &studio,
        "/api/sokoboru/play",
        json!({ "puzzle": SAMPLE, "moves": "^^" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{value}");
    assert_eq!(value["frames"].as_array().unwrap().len(), 3);
    assert_eq!(value["penalty"], 2);
    assert_eq!(value["solved"], false);
    for (moves, expected) in [
        (
            "vv",
            "move 1 (v): the player would walk into a wall or off the board",
        ),
        ("^x", "move 2: 'x' is not a move (^ v < >)"),
    ] {
        let (status, value) = post(
            &studio,
            "/api/sokoboru/play",
            json!({ "puzzle": SAMPLE, "moves": moves }),
        )
        .await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert_eq!(error_line(&value), expected);
    }
    let two = format!("{SAMPLE}{SAMPLE}");
    let (status, value) = post(&studio, "/api/sokoboru/play", json!({ "puzzle": two })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(error_line(&value), "2 cases: send one");
}

#[tokio::test]
async fn a_hint_is_the_first_move_of_an_answer_and_a_solve_its_optimum() {
    let studio = studio();
    let (status, hint) = post(
        &studio,
        "/api/sokoboru/hint",
        json!({ "puzzle": SAMPLE, "moves": "" }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{hint}");
    let moves = hint["moves"].as_str().unwrap();
    assert_eq!(hint["move"].as_str().unwrap(), &moves[..1]);
    let (_, played) = post(
        &studio,
        "/api/sokoboru/play",
        json!({ "puzzle": SAMPLE, "moves": moves }),
    )
    .await;
    assert_eq!(played["solved"], true);
    let events = stream(&studio, "/api/sokoboru/solve", json!({ "puzzle": SAMPLE })).await;
    let result = done(&events);
    let optimum = solve(&parse_puzzles(SAMPLE).unwrap()[0], Limits::UNLIMITED)
        .unwrap()
        .penalty;
    assert_eq!(result["cost"], optimum);
    assert_eq!(result["proven"], true);
    let (_, played) = post(
        &studio,
        "/api/sokoboru/play",
        json!({ "puzzle": SAMPLE, "moves": result["moves"] }),
    )
    .await;
    assert_eq!(
        (played["solved"].clone(), played["penalty"].clone()),
        (json!(true), json!(optimum))
    );
    let (status, value) = post(
        &studio,
        "/api/sokoboru/solve",
        json!({ "puzzle": SAMPLE, "time_limit": "soon" }),
    )
    .await;
    assert!(status.is_client_error());
    error_line(&value);
    no_job_left(&studio).await;
}

#[tokio::test]
async fn a_generated_case_comes_with_its_penalty() {
    let studio = studio();
    let events = stream(
        &studio,
        "/api/sokoboru/generate",
        json!({ "seed": 1, "rows": 4, "cols": 5, "balls": 2 }),
    )
    .await;
    let found = done(&events);
    let puzzle = &parse_puzzles(found["text"].as_str().unwrap()).unwrap()[0];
    assert_eq!((puzzle.rows, puzzle.cols), (4, 5));
    assert!(found["penalty"].as_u64().unwrap() > 0);
    let (status, value) = post(
        &studio,
        "/api/sokoboru/generate",
        json!({ "seed": 1, "rows": 9, "cols": 9, "balls": 2 }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_line(&value).contains("outside the limits"), "{value}");
    no_job_left(&studio).await;
}
