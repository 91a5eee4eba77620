//! The guard and the API's general answers: token, Host, size limit, malformed bodies,
//! unknown routes, each a 4xx with one line of JSON.

mod common;

use axum::body::Body;
use axum::http::{Request, StatusCode};
use common::*;
use serde_json::json;

fn bare(path: &str, host: &str, token: Option<&str>) -> Request<Body> {
    let mut builder = Request::builder().uri(path).header("host", host);
    if let Some(token) = token {
        builder = builder.header("x-ply-token", token);
    }
    builder.body(Body::empty()).unwrap()
}

#[tokio::test]
async fn the_api_requires_the_token() {
    let studio = studio();
    let host = host(&studio);
    for (token, expected) in [(None, "no token"), (Some("wrong"), "wrong token")] {
        let (status, text) = send(&studio, bare("/api/jobs", &host, token)).await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert!(error_line(&value).starts_with(expected), "{value}");
    }
    let (status, _) = send(&studio, bare("/api/jobs", &host, Some(TOKEN))).await;
    assert_eq!(status, StatusCode::OK);
    let by_query = format!("/api/jobs?token={TOKEN}");
    let (status, text) = send(&studio, bare(&by_query, &host, None)).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    // The page and its files carry no secret and need no token.
    for path in [
        "/",
        "/mines",
        "/npuzzle",
        "/sokoboru",
        "/static/app.js",
        "/static/style.css",
    ] {
        let (status, text) = send(&studio, bare(path, &host, None)).await;
        assert_eq!(status, StatusCode::OK, "{path}");
        assert!(!text.is_empty());
    }
}

#[tokio::test]
async fn a_foreign_host_is_refused_everywhere() {
    let studio = studio();
    let port = studio.local_addr().unwrap().port();
    for host in [
        format!("evil.example:{port}"),
        format!("localhost:{}", port.wrapping_add(1)),
    ] {
        for path in ["/", "/api/jobs", "/static/app.js"] {
            let (status, text) = send(&studio, bare(path, &host, Some(TOKEN))).await;
            assert_eq!(status, StatusCode::FORBIDDEN, "{host} {path}");
            assert!(text.contains("is not this server's name"), "{text}");
        }
    }
    let (status, _) = send(&studio, bare("/", &format!("localhost:{port}"), None)).await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn bad_requests_get_one_line_each() {
    let studio = studio();
    let (status, value) = post(&studio, "/api/nothing", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(error_line(&value).contains("/api/nothing"));
    let (status, text) = send(&studio, request(&studio, "/api/mines/game", None)).await;
    assert_eq!(status, StatusCode::METHOD_NOT_ALLOWED, "{text}");
    // Not JSON, a wrong field, a missing content type, a body over the limit.
    let mut raw = request(&studio, "/api/mines/analyse", Some(&json!({})));
    *raw.body_mut() = Body::from("{not json");
    let (status, text) = send(&studio, raw).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert!(text.contains("not JSON"), "{text}");
    let (status, value) = post(&studio, "/api/mines/analyse", json!({ "txt": "##" })).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
    assert!(
        error_line(&value).contains("unknown field `txt`"),
        "{value}"
    );
    let mut untyped = request(&studio, "/api/mines/analyse", Some(&json!({ "text": "" })));
    untyped.headers_mut().remove("content-type");
    let (status, text) = send(&studio, untyped).await;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{text}");
    let huge = "#".repeat(ply_studio::BODY_LIMIT + 1);
    let (status, value) = post(&studio, "/api/mines/analyse", json!({ "text": huge })).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(error_line(&value).contains("larger than"), "{value}");
    let (status, value) = post(&studio, "/api/jobs/x/cancel", json!({})).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    error_line(&value);
    let (status, value) = post(&studio, "/api/jobs/99/cancel", json!({})).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(error_line(&value), "no job 99 is running");
    no_job_left(&studio).await;
}

#[test]
fn options_are_checked() {
    let bad = |options: ply_studio::StudioOptions| {
        ply_studio::Studio::bind(&options).unwrap_err().to_string()
    };
    let base = ply_studio::StudioOptions {
        port: 0,
        ..Default::default()
    };
    assert_eq!(
        bad(ply_studio::StudioOptions {
            jobs: 0,
            ..base.clone()
        }),
        "jobs 0 is not in 1..=256"
    );
    assert!(
        bad(ply_studio::StudioOptions {
            token: Some("a b".into()),
            ..base.clone()
        })
        .contains("letters and digits")
    );
    assert!(
        bad(ply_studio::StudioOptions {
            host: "no.such.host.invalid".into(),
            ..base
        })
        .starts_with("cannot listen on")
    );
}
