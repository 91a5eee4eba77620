//! What keeps the studio to its user: a random token that the API requires, and a Host
//! header that must name this server (a page of another site whose DNS name is rebound to
//! 127.0.0.1 sends its own name, and is refused).

use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::{Request, State};
use axum::http::StatusCode;
use axum::http::header::HOST;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rand::Rng;

use crate::error::ApiError;

/// The header that carries the token to the API (a query parameter `token` also does, for a
/// link).
pub(crate) const TOKEN_HEADER: &str = "x-ply-token";

/// The token and the names this server answers to.
#[derive(Debug)]
pub(crate) struct Guard {
    token: String,
    /// The name given with `--host`, if it is not an address.
    name: Option<String>,
    port: u16,
}

impl Guard {
    /// A guard with `token`, for a server on `port`, bound to `host` as the user named it.
    pub(crate) fn new(token: String, host: &str, port: u16) -> Guard {
        let name = host
            .parse::<IpAddr>()
            .is_err()
            .then(|| host.to_ascii_lowercase());
        Guard { token, name, port }
    }

    /// Whether a request's Host header names this server: `localhost`, an address (which no
    /// rebound DNS name is) or the name given with `--host`, on this server's port.
    fn host_allowed(&self, host: &str) -> bool {
        let host = host.to_ascii_lowercase();
        let (name, port) = match host.rsplit_once(':') {
            // An IPv6 address without a port is bracketed and has colons inside.
            Some((name, port)) if !port.contains(']') => (name, port.parse::<u16>().ok()),
            _ => (host.as_str(), Some(80)),
        };
        if port != Some(self.port) {
            return false;
        }
        let bare = name.trim_start_matches('[').trim_end_matches(']');
        name == "localhost" || bare.parse::<IpAddr>().is_ok() || self.name.as_deref() == Some(name)
    }

    /// Whether `given` is the token, compared in time that does not depend on where they
    /// differ.
    fn token_matches(&self, given: &str) -> bool {
        let (a, b) = (self.token.as_bytes(), given.as_bytes());
        a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
    }
}

/// A fresh random token: 24 bytes from the operating system's generator, in hex.
pub(crate) fn new_token() -> String {
    let bytes: [u8; 24] = rand::rng().random();
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The token of a request: its header, else its `token` query parameter.
fn request_token(req: &Request) -> Option<String> {
    if let Some(value) = req.headers().get(TOKEN_HEADER) {
        return value.to_str().ok().map(str::to_string);
    }
    req.uri().query().and_then(|query| {
        query
            .split('&')
            .filter_map(|pair| pair.split_once('='))
            .find(|(key, _)| *key == "token")
            .map(|(_, value)| value.to_string())
    })
}

/// Refuses a request whose Host is not this server (403) and an API request without the
/// token (401); lets the rest through.
pub(crate) async fn check(State(guard): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    let host = req.headers().get(HOST).and_then(|h| h.to_str().ok());
    match host {
        Some(host) if guard.host_allowed(host) => {}
        Some(host) => {
            let shown: String = host.chars().take(80).collect();
            return ApiError::with(
                StatusCode::FORBIDDEN,
                format!("Host {shown:?} is not this server's name (the studio answers to localhost and addresses only)"),
            )
            .into_response();
        }
        None => {
            return ApiError::with(StatusCode::FORBIDDEN, "a request without a Host header")
                .into_response();
        }
    }
    if req.uri().path().starts_with("/api/") {
        match request_token(&req) {
            Some(token) if guard.token_matches(&token) => {}
            Some(_) => {
                return ApiError::with(
                    StatusCode::UNAUTHORIZED,
                    "wrong token: use the URL `ply studio` printed",
                )
                .into_response();
            }
            None => {
                return ApiError::with(
                    StatusCode::UNAUTHORIZED,
                    "no token: open the URL `ply studio` printed, which carries it",
                )
                .into_response();
            }
        }
    }
    next.run(req).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_are_this_server_on_its_port() {
        let guard = Guard::new("t".into(), "127.0.0.1", 8000);
        for host in [
            "127.0.0.1:8000",
            "localhost:8000",
            "[::1]:8000",
            "LOCALHOST:8000",
            "10.0.0.2:8000",
        ] {
            assert!(guard.host_allowed(host), "{host}");
        }
        for host in [
            "evil.example:8000",
            "localhost:8001",
            "localhost",
            "127.0.0.1",
            "[::1]",
        ] {
            assert!(!guard.host_allowed(host), "{host}");
        }
        let named = Guard::new("t".into(), "box.lan", 80);
        assert!(named.host_allowed("box.lan"));
        assert!(named.host_allowed("box.lan:80"));
        assert!(!named.host_allowed("other.lan"));
    }

    #[test]
    fn tokens_are_random_and_compared_whole() {
        let token = new_token();
        assert_eq!(token.len(), 48);
        assert_ne!(token, new_token());
        let guard = Guard::new(token.clone(), "127.0.0.1", 1);
        assert!(guard.token_matches(&token));
        assert!(!guard.token_matches(&token[1..]));
        assert!(!guard.token_matches(""));
    }
}
