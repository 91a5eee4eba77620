//! Jobs: every library call the API makes runs on tokio's blocking pool, never on the async
//! workers, bound to a stop flag and listed while it runs. A long job streams its progress
//! as server-sent events in its own response, so its life is the response's: when the page
//! goes away (or cancels by aborting the request) the stream is dropped and the flag raised.
//! At most `long_limit` long jobs run at once (more are refused), and quick calls wait for
//! one of a few permits of their own.

use std::collections::BTreeMap;
use std::convert::Infallible;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use ply_search::StopFlag;
use serde::Serialize;
use tokio::sync::{Semaphore, mpsc};
use tokio_stream::StreamExt;
use tokio_stream::wrappers::ReceiverStream;

use crate::error::ApiError;

/// The registry of running jobs and the permits that bound them.
#[derive(Debug)]
pub(crate) struct Jobs {
    long: Arc<Semaphore>,
    long_limit: usize,
    quick: Arc<Semaphore>,
    running: Mutex<BTreeMap<u64, Running>>,
    next: AtomicU64,
}

#[derive(Debug)]
struct Running {
    kind: &'static str,
    started: Instant,
    stop: StopFlag,
}

/// A running job, as `GET /api/jobs` lists it.
#[derive(Clone, Debug, Serialize, PartialEq)]
pub(crate) struct JobView {
    pub(crate) id: u64,
    pub(crate) kind: &'static str,
    pub(crate) seconds: f64,
    pub(crate) stopping: bool,
}

/// Where a long job sends its progress.
pub(crate) struct Events {
    tx: mpsc::Sender<Event>,
}

impl Events {
    /// Sends a `progress` event; dropped when the page reads slower than the job writes
    /// (the next one says more).
    pub(crate) fn progress(&self, value: &impl Serialize) {
        self.send_now("progress", value);
    }

    /// Sends an event named `name`, dropped when the page lags.
    pub(crate) fn send_now(&self, name: &str, value: &impl Serialize) {
        if let Ok(event) = Event::default().event(name).json_data(value) {
            let _ = self.tx.try_send(event);
        }
    }

    /// Sends an event named `name` that must arrive (a step of a game, the answer): waits
    /// while the page lags.
    pub(crate) fn send(&self, name: &str, value: &impl Serialize) {
        if let Ok(event) = Event::default().event(name).json_data(value) {
            let _ = self.tx.blocking_send(event);
        }
    }
}

/// Removes a job from the registry when its work ends, however it ends.
struct Registered {
    jobs: Arc<Jobs>,
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.jobs.lock().remove(&self.id);
    }
}

/// Raises a job's stop flag when dropped: its response stream, or the request awaiting it.
struct StopOnDrop(Option<StopFlag>);

impl StopOnDrop {
    /// The work ended on its own: nothing to stop.
    fn disarm(&mut self) {
        self.0 = None;
    }
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        if let Some(flag) = &self.0 {
            flag.stop();
        }
    }
}

/// Events a long job may have in flight before new progress is dropped.
const EVENT_ROOM: usize = 64;

impl Jobs {
    /// A registry allowing `long_limit` long jobs and `quick_limit` quick calls at once.
    pub(crate) fn new(long_limit: usize, quick_limit: usize) -> Jobs {
        Jobs {
            long: Arc::new(Semaphore::new(long_limit)),
            long_limit,
            quick: Arc::new(Semaphore::new(quick_limit)),
            running: Mutex::new(BTreeMap::new()),
            next: AtomicU64::new(1),
        }
    }

    fn lock(&self) -> MutexGuard<'_, BTreeMap<u64, Running>> {
        self.running.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The jobs running, oldest first.
    pub(crate) fn list(&self) -> Vec<JobView> {
        self.lock()
            .iter()
            .map(|(&id, job)| JobView {
                id,
                kind: job.kind,
                seconds: job.started.elapsed().as_secs_f64(),
                stopping: job.stop.is_stopped(),
            })
            .collect()
    }

    /// The most long jobs at once.
    pub(crate) fn long_limit(&self) -> usize {
        self.long_limit
    }

    /// Raises job `id`'s stop flag; whether it was running.
    pub(crate) fn cancel(&self, id: u64) -> bool {
        self.lock().get(&id).map(|job| job.stop.stop()).is_some()
    }

    fn register(self: &Arc<Self>, kind: &'static str, stop: &StopFlag) -> Registered {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let running = Running {
            kind,
            started: Instant::now(),
            stop: stop.clone(),
        };
        self.lock().insert(id, running);
        Registered {
            jobs: Arc::clone(self),
            id,
        }
    }

    /// Starts `work` as a long job and answers with its event stream: first `job` (its id),
    /// then what the work sends, then `done` with its result or `error` with its message.
    ///
    /// # Errors
    /// 503 when `long_limit` jobs are running already.
    pub(crate) fn stream<F>(
        self: &Arc<Self>,
        kind: &'static str,
        work: F,
    ) -> Result<Response, ApiError>
    where
        F: FnOnce(&StopFlag, &Events) -> Result<serde_json::Value, ApiError> + Send + 'static,
    {
        let permit = Arc::clone(&self.long).try_acquire_owned().map_err(|_| {
            ApiError::with(
                StatusCode::SERVICE_UNAVAILABLE,
                format!(
                    "{} jobs are running, the most at once: cancel one or wait",
                    self.long_limit
                ),
            )
        })?;
        let stop = StopFlag::new();
        let registered = self.register(kind, &stop);
        let (tx, rx) = mpsc::channel(EVENT_ROOM);
        let events = Events { tx };
        events.send_now(
            "job",
            &serde_json::json!({ "id": registered.id, "kind": kind }),
        );
        let flag = stop.clone();
        tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _registered = registered;
            match catch_unwind(AssertUnwindSafe(|| work(&flag, &events))) {
                Ok(Ok(result)) => events.send("done", &result),
                Ok(Err(error)) => {
                    events.send("error", &serde_json::json!({ "error": error.message }))
                }
                Err(_) => events.send(
                    "error",
                    &serde_json::json!({ "error": "internal error: the job panicked" }),
                ),
            }
        });
        let guard = StopOnDrop(Some(stop));
        let stream = ReceiverStream::new(rx).map(move |event| {
            let _ = &guard;
            Ok::<Event, Infallible>(event)
        });
        Ok(Sse::new(stream)
            .keep_alive(KeepAlive::new().interval(Duration::from_secs(1)))
            .into_response())
    }

    /// Runs `work` on the blocking pool and returns what it returns; listed while it runs,
    /// its flag raised if the request goes away first.
    ///
    /// # Errors
    /// 500 when the work panicked.
    pub(crate) async fn quick<T, F>(
        self: &Arc<Self>,
        kind: &'static str,
        work: F,
    ) -> Result<T, ApiError>
    where
        T: Send + 'static,
        F: FnOnce(&StopFlag) -> T + Send + 'static,
    {
        let permit = Arc::clone(&self.quick).acquire_owned().await.map_err(|_| {
            ApiError::with(StatusCode::SERVICE_UNAVAILABLE, "the studio is stopping")
        })?;
        let stop = StopFlag::new();
        let registered = self.register(kind, &stop);
        let mut guard = StopOnDrop(Some(stop.clone()));
        let result = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            let _registered = registered;
            work(&stop)
        })
        .await;
        guard.disarm();
        result.map_err(|_| {
            ApiError::with(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error: the call panicked",
            )
        })
    }
}

/// What every handler shares: the jobs.
#[derive(Clone, Debug)]
pub(crate) struct AppState {
    pub(crate) jobs: Arc<Jobs>,
}
