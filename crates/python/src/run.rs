//! Long computations off the interpreter's thread: the GIL is released while they run, and
//! the calling thread wakes every [`POLL`] to run Python's signal handlers, so Ctrl-C raises
//! `KeyboardInterrupt` promptly instead of after the search.

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::Result as Joined;
use std::time::Duration;

use ply_search::StopFlag;
use pyo3::prelude::*;

/// How often a waiting call looks for signals.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread with the GIL released. When a signal handler raises
/// (Ctrl-C: `KeyboardInterrupt`), `stop` is raised, the worker is waited for (it stops at its
/// next look at the flag) and the exception is returned. A panic of the worker is resumed
/// here, where PyO3 turns it into `PanicException`.
pub fn stoppable<T: Send>(
    py: Python<'_>,
    stop: &StopFlag,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    interruptible(py, || stop.stop(), work)
}

/// [`stoppable`] for work stopped some other way: `on_signal` tells it to stop.
///
/// The work runs on rayon's pool, whose threads outlive the call: starting a thread for
/// every call would cost more than a short search.
pub fn interruptible<T: Send>(
    py: Python<'_>,
    on_signal: impl Fn(),
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let (done, finished) = mpsc::channel();
    let mut result = None;
    let interrupted = rayon::in_place_scope(|scope| {
        let slot = &mut result;
        scope.spawn(move |_| {
            *slot = Some(catch_unwind(AssertUnwindSafe(work)));
            let _ = done.send(());
        });
        wait(py, finished, on_signal)
    });
    let result = result.expect("the scope ran the work");
    finish(result, interrupted)
}

/// Runs `work` on a thread of its own with the GIL released, for work that cannot be stopped
/// from outside but ends by itself soon (an agent's move, bounded by its move time): on a
/// signal the exception is returned at once and the thread finishes in the background.
pub fn detached<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (done, finished) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(work));
        let _ = done.send(());
        result
    });
    let mut interrupted = None;
    let mut finished = Some(finished);
    while let Some(receiver) = finished.take() {
        let (answer, receiver) = py.detach(move || (receiver.recv_timeout(POLL), receiver));
        match answer {
            Err(RecvTimeoutError::Timeout) => match py.check_signals() {
                Ok(()) => finished = Some(receiver),
                Err(e) => interrupted = Some(e),
            },
            Ok(()) | Err(RecvTimeoutError::Disconnected) => {}
        }
    }
    if let Some(e) = interrupted {
        return Err(e);
    }
    let result = py
        .detach(|| worker.join())
        .unwrap_or_else(|e| resume_unwind(e));
    finish(result, None)
}

/// Waits until the worker says it is done, running signal handlers every [`POLL`]; the first
/// exception they raise calls `on_signal` and is returned once the worker is done.
fn wait(py: Python<'_>, mut finished: Receiver<()>, on_signal: impl Fn()) -> Option<PyErr> {
    let mut interrupted = None;
    loop {
        let (answer, receiver) = py.detach(move || (finished.recv_timeout(POLL), finished));
        finished = receiver;
        match answer {
            Err(RecvTimeoutError::Timeout) => {
                if interrupted.is_none() {
                    if let Err(e) = py.check_signals() {
                        on_signal();
                        interrupted = Some(e);
                    }
                }
            }
            Ok(()) | Err(RecvTimeoutError::Disconnected) => return interrupted,
        }
    }
}

/// The worker's value, unless a signal interrupted it (whatever the worker then did); its
/// panic, resumed on this thread.
fn finish<T>(result: Joined<T>, interrupted: Option<PyErr>) -> PyResult<T> {
    match (result, interrupted) {
        (_, Some(e)) => Err(e),
        (Ok(value), None) => Ok(value),
        (Err(panic), None) => resume_unwind(panic),
    }
}

/// The payload with which [`check_stop`] unwinds.
struct Stopped;

/// Ends the computation of a [`stoppable`] worker once `stop` is raised, for library code
/// that takes no stop flag but calls back now and then (a progress callback): it unwinds to
/// the worker's edge without running the panic hook, and [`stoppable`] returns the signal's
/// exception instead.
pub fn check_stop(stop: &StopFlag) {
    if stop.is_stopped() {
        resume_unwind(Box::new(Stopped));
    }
}
