//! What the route tests share: a studio on port 0 and calls to its router without a socket.

#![allow(dead_code, unreachable_pub)]

use std::time::{Duration, Instant};

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use ply_studio::{Studio, StudioOptions};
use serde_json::Value;
use tower::ServiceExt;

pub const TOKEN: &str = "testtoken42";

/// A studio on a free port with a known token and `jobs` long jobs at once.
pub fn studio_with(jobs: usize) -> Studio {
    Studio::bind(&StudioOptions {
        port: 0,
        jobs,
        token: Some(TOKEN.into()),
        ..StudioOptions::default()
    })
    .expect("a free port")
}

pub fn studio() -> Studio {
    studio_with(4)
}

/// The Host header of the studio's own address.
pub fn host(studio: &Studio) -> String {
    format!("127.0.0.1:{}", studio.local_addr().unwrap().port())
}

/// A request to `path` with the token and the studio's Host; a JSON `body` makes it a POST.
pub fn request(studio: &Studio, path: &str, body: Option<&Value>) -> Request<Body> {
    let builder = Request::builder()
        .uri(path)
        .header("host", host(studio))
        .header("x-ply-token", TOKEN);
    match body {
        Some(body) => builder
            .method("POST")
            .header("content-type", "application/json")
            .body(Body::from(body.to_string()))
            .unwrap(),
        None => builder.method("GET").body(Body::empty()).unwrap(),
    }
}

/// Sends `request` and reads the whole answer.
pub async fn send(studio: &Studio, request: Request<Body>) -> (StatusCode, String) {
    let response = studio.router().oneshot(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, String::from_utf8(bytes.to_vec()).unwrap())
}

/// POSTs `body` to `path` and reads the JSON answer.
pub async fn post(studio: &Studio, path: &str, body: Value) -> (StatusCode, Value) {
    let (status, text) = send(studio, request(studio, path, Some(&body))).await;
    let value = serde_json::from_str(&text).unwrap_or_else(|_| panic!("not JSON: {text}"));
    (status, value)
}

/// The error line of a refused call, checked to be one line.
pub fn error_line(value: &Value) -> &str {
    let line = value["error"]
        .as_str()
        .unwrap_or_else(|| panic!("no error in {value}"));
    assert!(!line.is_empty() && !line.contains('\n'), "{line:?}");
    line
}

/// The server-sent events of a stream's text: `(name, data)`.
pub fn events(text: &str) -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for block in text.split("\n\n") {
        let mut name = String::from("message");
        let mut data = String::new();
        for line in block.lines() {
            if let Some(rest) = line.strip_prefix("event:") {
                name = rest.trim().to_string();
            } else if let Some(rest) = line.strip_prefix("data:") {
                data.push_str(rest.trim_start());
            }
        }
        if !data.is_empty() {
            out.push((name, serde_json::from_str(&data).unwrap()));
        }
    }
    out
}

/// POSTs to a streaming route and reads every event until the job ends.
pub async fn stream(studio: &Studio, path: &str, body: Value) -> Vec<(String, Value)> {
    let (status, text) = send(studio, request(studio, path, Some(&body))).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    events(&text)
}

/// The `done` event's data of a stream, which must end with it.
pub fn done(events: &[(String, Value)]) -> &Value {
    let (name, data) = events.last().expect("some event");
    assert_eq!(name, "done", "{events:?}");
    data
}

/// Waits until no job runs (a job stops within its search's next look at the clock; the cap
/// is generous for a loaded machine).
pub async fn no_job_left(studio: &Studio) {
    let started = Instant::now();
    while !studio.running_jobs().is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "jobs left running: {:?}",
            studio.running_jobs()
        );
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}
