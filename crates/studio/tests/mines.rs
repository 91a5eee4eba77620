//! The classic Minesweeper routes, their answers checked against the library's.

mod common;

use axum::http::StatusCode;
use common::*;
use ply_mines::classic::{
    ClassicGame, FirstClick, Level, Rules, Strategy, checked_probabilities, game_seed,
    parse_position, play_games,
};
use ply_search::StopFlag;
use serde_json::{Value, json};

fn floats(value: &Value) -> Vec<f64> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect()
}

#[tokio::test]
async fn a_game_replays_its_clicks_with_the_librarys_odds() {
    let studio = studio();
    let body =
        json!({ "board": { "level": "beginner" }, "seed": 42, "clicks": [[2, 2]], "odds": true });
    let (status, value) = post(&studio, "/api/mines/game", body).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    let rules = Rules::level(Level::Beginner, FirstClick::Safe);
    let mut game = ClassicGame::new(rules, 42);
    game.click(2, 2).unwrap();
    let view: Vec<u8> = value["view"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u8)
        .collect();
    assert_eq!(view, game.view());
    assert_eq!(value["status"], "playing");
    let odds = checked_probabilities(&rules, game.view()).unwrap();
    assert_eq!(floats(&value["odds"]["mine"]), odds.mine);
    assert!(value["pick"]["row"].is_u64());
    // A step: the solver's move is appended to the clicks.
    let body =
        json!({ "board": { "level": "beginner" }, "seed": 42, "clicks": [[2, 2]], "step": true });
    let (_, stepped) = post(&studio, "/api/mines/game", body).await;
    assert_eq!(stepped["clicks"].as_array().unwrap().len(), 2);
    assert!(stepped["step"]["certain"].is_boolean());
    no_job_left(&studio).await;
}

#[tokio::test]
async fn a_played_out_game_shows_its_mines() {
    let studio = studio();
    let mut clicks: Vec<Value> = Vec::new();
    let mut last = Value::Null;
    for _ in 0..81 {
        let body = json!({ "board": { "level": "beginner", "rule": "zero" }, "seed": 7, "clicks": clicks, "step": true });
        let (status, value) = post(&studio, "/api/mines/game", body).await;
        assert_eq!(status, StatusCode::OK, "{value}");
        clicks = value["clicks"].as_array().unwrap().clone();
        last = value;
        if last["status"] != "playing" {
            break;
        }
    }
    assert_ne!(last["status"], "playing");
    assert_eq!(last["mine_cells"].as_array().unwrap().len(), 10);
}

#[tokio::test]
async fn bad_games_are_named() {
    let studio = studio();
    let cases = [
        (
            json!({ "board": { "level": "huge" }, "seed": 1 }),
            "unknown level",
        ),
        (
            json!({ "board": { "level": "beginner", "rule": "lucky" }, "seed": 1 }),
            "unknown first-click rule",
        ),
        (
            json!({ "board": { "width": 3, "height": 3 }, "seed": 1 }),
            "width, height and mines",
        ),
        (
            json!({ "board": { "width": 3, "height": 3, "mines": 9 }, "seed": 1 }),
            "do not fit",
        ),
        (
            json!({ "board": { "level": "beginner" }, "seed": 1, "clicks": [[9, 0]] }),
            "click 1: (9, 0) is off the board",
        ),
        (
            json!({ "board": { "level": "beginner" }, "seed": -1 }),
            "invalid value",
        ),
    ];
    for (body, expected) in cases {
        let (status, value) = post(&studio, "/api/mines/game", body.clone()).await;
        assert!(status.is_client_error(), "{body}: {status}");
        assert!(error_line(&value).contains(expected), "{body}: {value}");
    }
    let many: Vec<Value> = (0..82).map(|_| json!([0, 0])).collect();
    let (status, value) = post(
        &studio,
        "/api/mines/game",
        json!({ "board": { "level": "beginner" }, "seed": 1, "clicks": many }),
    )
    .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(error_line(&value).contains("82 clicks"));
    no_job_left(&studio).await;
}

#[tokio::test]
async fn a_pasted_board_gets_the_librarys_probabilities() {
    let studio = studio();
    let text = "mines 10\n#########\n#########\n##211####\n##1.1####\n##111####\n#########\n#########\n#########\n#########\n";
    let (status, value) = post(&studio, "/api/mines/analyse", json!({ "text": text })).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    let position = parse_position(text, FirstClick::Safe).unwrap();
    let odds = checked_probabilities(&position.rules, &position.view).unwrap();
    assert_eq!(floats(&value["odds"]["mine"]), odds.mine);
    assert_eq!(value["odds"]["exact"], true);
    assert!(value["best"]["mine_probability"].is_f64());
    for (text, expected) in [
        ("mines 1\n#x\n", "line 2: 'x' is not a cell"),
        ("##\n##\n", "no standard level"),
        ("mines 1\n8#\n##\n", "no placement of 1 mine fits"),
    ] {
        let (status, value) = post(&studio, "/api/mines/analyse", json!({ "text": text })).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(error_line(&value).contains(expected), "{text:?}: {value}");
    }
    no_job_left(&studio).await;
}

#[tokio::test]
async fn a_win_rate_run_streams_the_librarys_tally() {
    let studio = studio();
    let events = stream(
        &studio,
        "/api/mines/winrate",
        json!({ "board": { "level": "beginner" }, "games": 40, "seed": 3 }),
    )
    .await;
    assert_eq!(events[0].0, "job");
    let tallies: Vec<&Value> = events
        .iter()
        .filter(|(n, _)| n == "tally")
        .map(|(_, v)| v)
        .collect();
    assert_eq!(tallies.len(), 40, "one part a game for a run of 40");
    let result = done(&events);
    let rules = Rules::level(Level::Beginner, FirstClick::Safe);
    let tally = play_games(
        &rules,
        &Strategy::default(),
        3,
        0..40,
        &StopFlag::new(),
        &|| {},
    )
    .unwrap();
    assert_eq!(result["games"], 40);
    assert_eq!(result["wins"], tally.wins);
    assert_eq!(
        floats(&json!([result["interval"][0], result["interval"][1]])),
        [tally.interval().0, tally.interval().1]
    );
    assert_eq!(result["stopped"], false);
    let _ = game_seed(3, 0);
    for (body, expected) in [
        (
            json!({ "board": { "level": "beginner" }, "games": 0 }),
            "games 0 is not in",
        ),
        (
            json!({ "board": { "level": "nope" }, "games": 5 }),
            "unknown level",
        ),
    ] {
        let (status, value) = post(&studio, "/api/mines/winrate", body).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(error_line(&value).contains(expected), "{value}");
    }
    no_job_left(&studio).await;
}
