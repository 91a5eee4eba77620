//! The EWN routes: the solo optimum, duels, a tournament log and an openings log, good and
//! bad, checked against the library.

mod common;

use axum::http::StatusCode;
use common::*;
use ply_ewn::duel::tournament::{read_log, standings};
use ply_ewn::solo::{Instance, solve};
use ply_search::Limits;
use serde_json::{Value, json};

const SOLO: &str = "2\n62 26 66 42 32 36\n665545154156655451541566554515\n";
const TOURNAMENT: &str = include_str!("data/tournament.jsonl");
const OPENINGS: &str = include_str!("data/openings.jsonl");

#[tokio::test]
async fn the_solo_optimum_comes_with_its_positions() {
    let studio = studio();
    let (status, value) = post(&studio, "/api/ewn/solo/solve", json!({ "text": SOLO })).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    let report = solve(&Instance::parse(SOLO).unwrap(), Limits::UNLIMITED);
    let moves = report.moves().expect("the sample is solvable");
    assert_eq!(value["proven"], true);
    assert_eq!(
        value["moves"][0],
        json!([moves[0].piece, moves[0].from, moves[0].to])
    );
    assert_eq!(value["cost"], moves.len());
    assert_eq!(value["frames"].as_array().unwrap().len(), moves.len() + 1);
    assert_eq!(
        value["frames"][moves.len()][1],
        0,
        "piece 2 ends on the corner"
    );
    let (status, value) = post(&studio, "/api/ewn/solo/solve", json!({ "text": "9\n" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_line(&value).starts_with("line 1"), "{value}");
    no_job_left(&studio).await;
}

#[tokio::test]
async fn a_duel_is_replayed_and_an_agent_answers() {
    let studio = studio();
    let (_, new) = post(&studio, "/api/ewn/duel/new", json!({ "seed": 5 })).await;
    let setup = new["setup"].as_str().unwrap().to_string();
    let first = new["state"]["moves"][0]["move"]
        .as_str()
        .unwrap()
        .to_string();
    let (status, state) = post(
        &studio,
        "/api/ewn/duel/state",
        json!({ "setup": setup, "moves": [first] }),
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{state}");
    assert_eq!(state["to_move"], "blue");
    let body = json!({ "setup": setup, "moves": [first], "agent": { "name": "normal" } });
    let (status, answer) = post(&studio, "/api/ewn/duel/agent", body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["state"]["ply"], 2);
    let watch = json!({ "setup": setup, "red": { "name": "random" }, "blue": { "name": "alphabeta", "move_time": 0.05 } });
    let events = stream(&studio, "/api/ewn/duel/watch", watch).await;
    let result = done(&events);
    let moves = events.iter().filter(|(name, _)| name == "move").count();
    assert_eq!(result["moves"].as_array().unwrap().len(), moves);
    assert!(result["winner"].is_string());
    for (body, expected) in [
        (json!({ "setup": "12", "moves": [] }), "setup:"),
        (
            json!({ "setup": setup, "moves": ["9"] }),
            "move 1: \"9\" is not two characters",
        ),
        (json!({ "setup": setup, "moves": ["99"] }), "move 1:"),
        (
            json!({ "setup": setup, "agent": { "name": "alphabeta-20" } }),
            "is not random, normal, hard",
        ),
        (
            json!({ "setup": setup, "agent": { "name": "deep", "move_time": 60 } }),
            "over the studio's 10 s",
        ),
        (
            json!({ "setup": setup, "agent": { "name": "deep", "move_time": 0 } }),
            "move_time",
        ),
    ] {
        let (status, value) = post(&studio, "/api/ewn/duel/agent", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert!(error_line(&value).contains(expected), "{body}: {value}");
    }
    no_job_left(&studio).await;
}

#[tokio::test]
async fn a_tournament_log_replays_with_the_librarys_standings() {
    let studio = studio();
    let (status, value) = post(&studio, "/api/ewn/log", json!({ "text": TOURNAMENT })).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    let log = read_log(TOURNAMENT.as_bytes()).unwrap();
    let played: Vec<_> = log.games.iter().filter_map(|g| g.played()).collect();
    assert_eq!(value["games"].as_array().unwrap().len(), log.games.len());
    assert_eq!(value["standings"].as_array().unwrap().len(), played.len());
    let last = standings(3, &played);
    let shown = &value["standings"][played.len() - 1];
    for (row, s) in shown.as_array().unwrap().iter().zip(&last) {
        assert_eq!(row["elo"].as_f64().unwrap(), s.elo);
        assert_eq!(
            row["elo_interval"],
            json!([s.elo_interval.0, s.elo_interval.1])
        );
        assert_eq!(row["wins"], s.wins);
    }
    let (status, value) = post(
        &studio,
        "/api/ewn/log",
        json!({ "text": "{\"oops\": 1}\n{}\n" }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_line(&value).starts_with("line 1"), "{value}");
    no_job_left(&studio).await;
}

#[tokio::test]
async fn an_openings_log_is_browsed_start_by_start() {
    let studio = studio();
    let (status, value) = post(&studio, "/api/ewn/openings", json!({ "text": OPENINGS })).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    let records = value["records"].as_array().unwrap();
    assert_eq!(records.len(), OPENINGS.lines().count());
    for record in records {
        let line = record["line"].as_array().unwrap().len();
        assert_eq!(record["frames"].as_array().unwrap().len(), line + 1);
    }
    // The same starts as a batch log (`ply ewn openings prove --log`): a header, then each
    // start's item under its index.
    let mut batch = String::from("{\"batch\": {\"command\": \"ewn openings prove\"}}\n");
    for (index, line) in OPENINGS.lines().enumerate() {
        let item: Value = serde_json::from_str(line).unwrap();
        batch += &format!("{}\n", json!({ "index": index, "result": item }));
    }
    let (status, logged) = post(&studio, "/api/ewn/openings", json!({ "text": batch })).await;
    assert_eq!(status, StatusCode::OK, "{logged}");
    let starts = |v: &Value| -> Vec<Value> {
        v["records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["start"].clone())
            .collect()
    };
    assert_eq!(starts(&logged), starts(&value));
    let bad: Value = serde_json::from_str(OPENINGS.lines().next().unwrap()).unwrap();
    let mut wrong = bad.clone();
    wrong["winner"] = json!("red");
    for (text, expected) in [
        ("nonsense\n".to_string(), "line 1: not a record"),
        (format!("{wrong}\n"), "line 1:"),
        (String::new(), "no record"),
        (
            "{\"batch\": {\"command\": \"npuzzle bench\"}}\n".to_string(),
            "line 1: a log of `ply npuzzle bench`",
        ),
    ] {
        let (status, value) = post(&studio, "/api/ewn/openings", json!({ "text": text })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(error_line(&value).contains(expected), "{value}");
    }
    no_job_left(&studio).await;
}
