//! The server: where it listens, its routes and its runtime.

use std::net::{IpAddr, SocketAddr, TcpListener};
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router, middleware};
use ply_search::StopFlag;

use crate::error::{ApiError, BODY_LIMIT};
use crate::guard::{self, Guard};
use crate::jobs::{AppState, Jobs};
use crate::{assets, ewn, mines, npuzzle, sokoboru};

/// The port `ply studio` listens on unless told otherwise.
pub const DEFAULT_PORT: u16 = 8765;

/// Quick calls (a click, an analysis, a hint) that run at once; more wait their turn.
const QUICK_CALLS: usize = 4;

/// Where and how the studio runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StudioOptions {
    /// The address or name to listen on: `127.0.0.1` unless the user names another.
    pub host: String,
    /// The port; 0 takes any free one.
    pub port: u16,
    /// The most long jobs (solves, win-rate runs, games between agents) at once; more are
    /// refused until one ends.
    pub jobs: usize,
    /// The token the API requires; `None` draws a random one.
    pub token: Option<String>,
}

impl Default for StudioOptions {
    fn default() -> Self {
        StudioOptions {
            host: "127.0.0.1".into(),
            port: DEFAULT_PORT,
            jobs: 4,
            token: None,
        }
    }
}

/// Why the studio cannot start or stopped.
#[derive(Debug, thiserror::Error)]
pub enum StudioError {
    /// The address could not be listened on.
    #[error("cannot listen on {address}: {error}")]
    Listen {
        /// The host and port asked for.
        address: String,
        /// The operating system's error.
        error: std::io::Error,
    },
    /// The options are wrong.
    #[error("{0}")]
    Options(String),
    /// The server failed while it ran.
    #[error("the server failed: {0}")]
    Serve(std::io::Error),
}

/// A studio bound to its address, ready to [`Studio::run`].
///
/// ```
/// use ply_studio::{Studio, StudioOptions};
///
/// let studio = Studio::bind(&StudioOptions { port: 0, ..StudioOptions::default() })?;
/// assert!(studio.url().starts_with("http://127.0.0.1:"));
/// assert!(studio.url().contains("/?token="));
/// # Ok::<(), ply_studio::StudioError>(())
/// ```
#[derive(Debug)]
pub struct Studio {
    listener: TcpListener,
    router: Router,
    url: String,
    state: AppState,
    token: String,
}

impl Studio {
    /// Listens on `options.host` and `options.port`, with a fresh token unless one is given.
    ///
    /// # Errors
    /// No jobs allowed, an empty token, or an address that cannot be listened on (in use,
    /// not this machine's).
    pub fn bind(options: &StudioOptions) -> Result<Studio, StudioError> {
        if options.jobs == 0 || options.jobs > ply_search::MAX_THREADS {
            return Err(StudioError::Options(format!(
                "jobs {} is not in 1..={}",
                options.jobs,
                ply_search::MAX_THREADS
            )));
        }
        let token = match &options.token {
            Some(token)
                if token.is_empty() || !token.bytes().all(|b| b.is_ascii_alphanumeric()) =>
            {
                return Err(StudioError::Options(
                    "a token must be letters and digits".into(),
                ));
            }
            Some(token) => token.clone(),
            None => guard::new_token(),
        };
        let address = format!("{}:{}", options.host, options.port);
        let listen = |error| StudioError::Listen {
            address: address.clone(),
            error,
        };
        let listener = TcpListener::bind((options.host.as_str(), options.port)).map_err(listen)?;
        listener.set_nonblocking(true).map_err(listen)?;
        let local = listener.local_addr().map_err(listen)?;
        let state = AppState {
            jobs: Arc::new(Jobs::new(options.jobs, QUICK_CALLS)),
        };
        let guard = Arc::new(Guard::new(token.clone(), &options.host, local.port()));
        let router = router(state.clone(), guard);
        Ok(Studio {
            url: format!("http://{}/?token={token}", shown_host(&options.host, local)),
            listener,
            router,
            state,
            token,
        })
    }

    /// The address to open, token included.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The token the API requires.
    #[must_use]
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The address listened on.
    ///
    /// # Errors
    /// The operating system's, if it cannot tell.
    pub fn local_addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// The routes, guard included, for a caller that serves them itself (tests call them
    /// without a socket).
    pub fn router(&self) -> Router {
        self.router.clone()
    }

    /// The jobs running now, as `GET /api/jobs` lists them: `(id, kind)`.
    #[must_use]
    pub fn running_jobs(&self) -> Vec<(u64, String)> {
        let jobs = self.state.jobs.list();
        jobs.into_iter()
            .map(|job| (job.id, job.kind.to_string()))
            .collect()
    }

    /// Serves until `stop` is raised (the CLI raises it on Ctrl-C), on a runtime of two
    /// worker threads and a blocking pool bounded by the jobs; then stops every job and
    /// waits a few seconds for them.
    ///
    /// # Errors
    /// The runtime cannot start or the server fails.
    pub fn run(self, stop: StopFlag) -> Result<(), StudioError> {
        let jobs = self.state.jobs.clone();
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .max_blocking_threads(jobs.long_limit() + QUICK_CALLS + 2)
            .enable_all()
            .build()
            .map_err(StudioError::Serve)?;
        let served = runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(self.listener)?;
            let shutdown = async move {
                while !stop.is_stopped() {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
                for job in jobs.list() {
                    jobs.cancel(job.id);
                }
            };
            axum::serve(listener, self.router)
                .with_graceful_shutdown(shutdown)
                .await
        });
        runtime.shutdown_timeout(Duration::from_secs(5));
        served.map_err(StudioError::Serve)
    }
}

/// The host to show in the URL: a wildcard address is reached as 127.0.0.1, an IPv6 address
/// in brackets.
fn shown_host(host: &str, local: SocketAddr) -> String {
    match host.parse::<IpAddr>() {
        Ok(ip) if ip.is_unspecified() => format!("127.0.0.1:{}", local.port()),
        Ok(IpAddr::V6(ip)) => format!("[{ip}]:{}", local.port()),
        _ => format!("{host}:{}", local.port()),
    }
}

/// Every route, behind the guard and the body limit.
fn router(state: AppState, guard: Arc<Guard>) -> Router {
    let api = Router::new()
        .route("/api/jobs", get(list_jobs))
        .route("/api/jobs/{id}/cancel", post(cancel_job))
        .route("/api/mines/game", post(mines::game))
        .route("/api/mines/analyse", post(mines::analyse))
        .route("/api/mines/winrate", post(mines::win_rate))
        .route("/api/npuzzle/shuffle", post(npuzzle::shuffle))
        .route("/api/npuzzle/solve", post(npuzzle::solve))
        .route("/api/sokoboru/parse", post(sokoboru::parse))
        .route("/api/sokoboru/generate", post(sokoboru::generate))
        .route("/api/sokoboru/play", post(sokoboru::play))
        .route("/api/sokoboru/hint", post(sokoboru::hint))
        .route("/api/sokoboru/solve", post(sokoboru::solve))
        .route("/api/ewn/solo/solve", post(ewn::solo))
        .route("/api/ewn/duel/new", post(ewn::duel_new))
        .route("/api/ewn/duel/state", post(ewn::duel_state_route))
        .route("/api/ewn/duel/agent", post(ewn::duel_agent))
        .route("/api/ewn/duel/watch", post(ewn::duel_watch))
        .route("/api/ewn/log", post(ewn::log))
        .route("/api/ewn/openings", post(ewn::openings));
    api.merge(assets::routes())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(middleware::from_fn_with_state(guard, guard::check))
        .with_state(state)
}

async fn not_found(uri: Uri) -> Response {
    ApiError::with(
        StatusCode::NOT_FOUND,
        format!("no such page or route: {}", uri.path()),
    )
    .into_response()
}

async fn method_not_allowed(uri: Uri) -> Response {
    ApiError::with(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("{} does not take this method", uri.path()),
    )
    .into_response()
}

/// `GET /api/jobs`: the jobs running and the most at once.
async fn list_jobs(State(state): State<AppState>) -> Json<serde_json::Value> {
    Json(serde_json::json!({
        "jobs": state.jobs.list(),
        "limit": state.jobs.long_limit(),
    }))
}

/// `POST /api/jobs/{id}/cancel`: raises the job's stop flag.
async fn cancel_job(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Json<serde_json::Value>, ApiError> {
    let id: u64 = id.parse().map_err(|_| {
        ApiError::bad(format!(
            "job {:?} is not a job number",
            ply_search::messages::excerpt(&id)
        ))
    })?;
    if state.jobs.cancel(id) {
        Ok(Json(serde_json::json!({ "cancelled": id })))
    } else {
        Err(ApiError::with(
            StatusCode::NOT_FOUND,
            format!("no job {id} is running"),
        ))
    }
}
