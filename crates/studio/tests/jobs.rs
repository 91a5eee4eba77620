//! Long jobs: listed while they run, stopped by a cancel or by the page going away, and
//! bounded in number.

mod common;

use axum::http::StatusCode;
use common::*;
use http_body_util::BodyExt;
use serde_json::{Value, json};
use tower::ServiceExt;

/// Korf's first instance: minutes with Manhattan distance, a job that runs until stopped.
const LONG: &str = "14 13 15 7 11 12 9 5 6 0 2 1 4 8 10 3";

/// Starts a long solve and returns its body after reading its `job` event, and the job's id.
async fn start_long(studio: &ply_studio::Studio) -> (axum::body::Body, u64) {
    let body = json!({ "tiles": LONG, "heuristic": "manhattan" });
    let response = studio
        .router()
        .oneshot(request(studio, "/api/npuzzle/solve", Some(&body)))
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut body = response.into_body();
    let mut text = String::new();
    loop {
        let frame = body.frame().await.expect("the job event").unwrap();
        if let Ok(data) = frame.into_data() {
            text.push_str(std::str::from_utf8(&data).unwrap());
        }
        if let Some((_, job)) = events(&text).into_iter().find(|(name, _)| name == "job") {
            return (body, job["id"].as_u64().unwrap());
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_job_ends_with_what_it_proved() {
    let studio = studio_with(1);
    let (body, id) = start_long(&studio).await;
    let (status, listed) = send(&studio, request(&studio, "/api/jobs", None)).await;
    assert_eq!(status, StatusCode::OK);
    let listed: Value = serde_json::from_str(&listed).unwrap();
    assert_eq!(listed["jobs"][0]["id"], id);
    assert_eq!(listed["jobs"][0]["kind"], "npuzzle.solve");
    assert_eq!(listed["limit"], 1);
    // One long job at once: a second is refused while the first runs.
    let (status, value) = post(&studio, "/api/npuzzle/solve", json!({ "tiles": LONG })).await;
    assert_eq!(status, StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(
        error_line(&value),
        "1 jobs are running, the most at once: cancel one or wait"
    );
    let (status, value) = post(&studio, &format!("/api/jobs/{id}/cancel"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{value}");
    let rest = body.collect().await.unwrap().to_bytes();
    let events = events(std::str::from_utf8(&rest).unwrap());
    let result = done(&events);
    assert_eq!(result["stopped"], "stopped");
    assert_eq!(result["cost"], Value::Null);
    assert!(result["lower_bound"].as_u64().unwrap() >= 41);
    no_job_left(&studio).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_page_that_goes_away_stops_its_job() {
    let studio = studio_with(1);
    let (body, _) = start_long(&studio).await;
    assert_eq!(studio.running_jobs().len(), 1);
    drop(body);
    no_job_left(&studio).await;
    // The permit is back: another job starts.
    let (body, _) = start_long(&studio).await;
    drop(body);
    no_job_left(&studio).await;
}
