//! The page's files, embedded in the binary: one HTML page for every section, its style and
//! its scripts (plain JavaScript, no build step).

use axum::Router;
use axum::extract::Path;
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, HeaderName};
use axum::http::{HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use crate::error::ApiError;
use crate::jobs::AppState;

const INDEX: &str = include_str!("../static/index.html");

const JS: &str = "text/javascript; charset=utf-8";

/// The static files by name, with their types.
const FILES: &[(&str, &str, &str)] = &[
    (
        "style.css",
        "text/css; charset=utf-8",
        include_str!("../static/style.css"),
    ),
    ("app.js", JS, include_str!("../static/app.js")),
    ("mines.js", JS, include_str!("../static/mines.js")),
    ("npuzzle.js", JS, include_str!("../static/npuzzle.js")),
    ("sokoboru.js", JS, include_str!("../static/sokoboru.js")),
    ("ewn.js", JS, include_str!("../static/ewn.js")),
];

/// The sections, each a path that serves the page.
pub(crate) const SECTIONS: &[&str] = &["/", "/mines", "/npuzzle", "/sokoboru", "/ewn"];

/// Headers of every file: the page loads nothing from elsewhere and sends no referrer (which
/// would carry the token).
fn headers(kind: &'static str) -> [(HeaderName, HeaderValue); 5] {
    [
        (CONTENT_TYPE, HeaderValue::from_static(kind)),
        (CACHE_CONTROL, HeaderValue::from_static("no-cache")),
        (
            HeaderName::from_static("content-security-policy"),
            HeaderValue::from_static(
                "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'",
            ),
        ),
        (
            HeaderName::from_static("referrer-policy"),
            HeaderValue::from_static("no-referrer"),
        ),
        (
            HeaderName::from_static("x-content-type-options"),
            HeaderValue::from_static("nosniff"),
        ),
    ]
}

async fn page() -> Response {
    (headers("text/html; charset=utf-8"), INDEX).into_response()
}

async fn file(Path(name): Path<String>) -> Response {
    match FILES.iter().find(|(file, ..)| *file == name) {
        Some(&(_, kind, body)) => (headers(kind), body).into_response(),
        None => ApiError::with(StatusCode::NOT_FOUND, format!("no file {name:?}")).into_response(),
    }
}

/// The routes of the page and its files.
pub(crate) fn routes() -> Router<AppState> {
    let mut router = Router::new().route("/static/{name}", get(file));
    for section in SECTIONS {
        router = router.route(section, get(page));
    }
    router
}
