//! The API's errors: a status and one line, sent as `{"error": "..."}`.

use axum::Json;
use axum::extract::rejection::JsonRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

/// The largest request body the API reads: a tournament log or a course file fits many
/// times over; a larger body is refused with 413 before it is read.
pub const BODY_LIMIT: usize = 4 << 20;

/// An error the API answers with: its status and a one-line message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ApiError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
}

impl ApiError {
    /// A bad request (400): the input is wrong, and `message` says where.
    pub(crate) fn bad(message: impl std::fmt::Display) -> Self {
        Self::with(StatusCode::BAD_REQUEST, message)
    }

    /// An error of `status`, its message on one line.
    pub(crate) fn with(status: StatusCode, message: impl std::fmt::Display) -> Self {
        let message = message.to_string();
        // One line: a library message that runs on is joined, never cut.
        let message = message.split_whitespace().collect::<Vec<_>>().join(" ");
        ApiError { status, message }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = serde_json::json!({ "error": self.message });
        (self.status, Json(body)).into_response()
    }
}

/// A JSON body that could not be read: its status (400, 413 for one over the size limit,
/// 415 without the JSON content type) and serde's message, which names the field.
impl From<JsonRejection> for ApiError {
    fn from(rejection: JsonRejection) -> Self {
        let status = rejection.status();
        let message = match &rejection {
            JsonRejection::JsonDataError(e) => format!("bad request: {}", source_text(e)),
            JsonRejection::JsonSyntaxError(e) => format!("not JSON: {}", source_text(e)),
            JsonRejection::MissingJsonContentType(_) => {
                "the body must be JSON (Content-Type: application/json)".into()
            }
            _ if status == StatusCode::PAYLOAD_TOO_LARGE => {
                format!("the request is larger than {} bytes", BODY_LIMIT)
            }
            other => other.body_text(),
        };
        ApiError::with(status, message)
    }
}

/// The innermost message of an error's chain (serde's own words, without axum's wrapping).
fn source_text(error: &dyn std::error::Error) -> String {
    let mut at = error;
    while let Some(next) = at.source() {
        at = next;
    }
    at.to_string()
}

/// A JSON body read by the API: a rejection becomes an [`ApiError`].
#[derive(Debug)]
pub(crate) struct Body<T>(pub(crate) T);

impl<S, T> axum::extract::FromRequest<S> for Body<T>
where
    Json<T>: axum::extract::FromRequest<S, Rejection = JsonRejection>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, Self::Rejection> {
        let Json(value) = Json::<T>::from_request(req, state).await?;
        Ok(Body(value))
    }
}
