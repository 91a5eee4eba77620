//! Long computations with the GIL released, stopped by Ctrl-C: on Python's main thread through
//! a SIGINT handler put in front of Python's for the call; elsewhere on the binding's rayon
//! pool ([`crate::pool`]) while the calling thread wakes every [`POLL`] to run Python's signal
//! handlers. Either way Ctrl-C raises `KeyboardInterrupt` promptly instead of after the
//! search. Work that may use rayon runs where rayon works in this process, a forked child
//! included ([`Place`]).

use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread::Result as Joined;
use std::time::Duration;

use ply_search::StopFlag;
use pyo3::prelude::*;

use crate::pool::pool;

/// How often a waiting call looks for signals.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` on a worker thread with the GIL released. When a signal handler raises
/// (Ctrl-C: `KeyboardInterrupt`), `stop` is raised, the worker is waited for (it stops at its
/// next look at the flag) and the exception is returned. A panic of the worker is resumed
/// here, where PyO3 turns it into `PanicException`.
///
/// On Python's main thread, where Ctrl-C lands, the work runs on the calling thread instead,
/// with a SIGINT handler that raises `stop` and then runs Python's own ([`on_main_thread`]):
/// handing the work to another thread and waking this one costs 20-30 µs, which a short
/// solve notices. (In a forked child it runs on the binding's pool: [`Place`].)
pub(crate) fn stoppable<T: Send>(
    py: Python<'_>,
    stop: &StopFlag,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    #[cfg(target_os = "linux")]
    {
        let place = crate::pool::Place::here()?;
        if let Some(hook) = sigint::Hook::install(stop) {
            return on_main_thread(py, stop, hook, move || place.run(work));
        }
    }
    interruptible(py, || stop.stop(), work)
}

/// [`stoppable`] on the calling thread, with `hook` raising `stop` on SIGINT: a signal that
/// Python saw before the hook was in place is found by the first look at its handlers, one
/// during the work stops it, and the handlers run once it is done. A panic of the work is
/// resumed after the hook is gone.
#[cfg(target_os = "linux")]
fn on_main_thread<T: Send>(
    py: Python<'_>,
    stop: &StopFlag,
    hook: sigint::Hook,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.check_signals()?;
    let result = py.detach(|| catch_unwind(AssertUnwindSafe(work)));
    drop(hook);
    let interrupted = py.check_signals().err();
    match (result, interrupted) {
        (_, Some(e)) => Err(e),
        // Stopped by a signal whose handler did not raise: the work's own answer stands.
        (Ok(value), None) => Ok(value),
        (Err(panic), None) if stop.is_stopped() && panic.is::<Stopped>() => Err(
            pyo3::exceptions::PyKeyboardInterrupt::new_err("stopped by a signal"),
        ),
        (Err(panic), None) => resume_unwind(panic),
    }
}

/// The SIGINT handler of [`stoppable`] on the main thread: it raises the call's stop flag,
/// then calls the handler it replaced (Python's, which marks the signal for Python's next look).
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
mod sigint {
    use std::ffi::c_void;
    use std::ptr;
    use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};

    use ply_search::StopFlag;

    /// The flag of the call in progress, or null.
    static FLAG: AtomicPtr<StopFlag> = AtomicPtr::new(ptr::null_mut());
    /// Handlers running on some thread (a signal sent to the process may land on any): a
    /// call waits for them before its flag goes away.
    static RUNNING: AtomicUsize = AtomicUsize::new(0);
    /// The replaced handler, and whether it takes three arguments (`SA_SIGINFO`).
    static PREVIOUS: AtomicUsize = AtomicUsize::new(0);
    static PREVIOUS_SIGINFO: AtomicBool = AtomicBool::new(false);
    /// Whether a hook is in place (calls do not nest, but a second one falls back).
    static ACTIVE: AtomicBool = AtomicBool::new(false);

    /// The hook while a call runs; dropping it puts the replaced handler back.
    pub(super) struct Hook {
        previous: libc::sigaction,
    }

    impl Hook {
        /// Installs the hook for `stop` when this is the process's main thread (where Python
        /// runs its signal handlers) and SIGINT has a handler function to chain to (Python's);
        /// `None` otherwise (another thread, SIGINT ignored or left to the default action).
        pub(super) fn install(stop: &StopFlag) -> Option<Hook> {
            // SAFETY: plain system calls; `sigaction` structs are plain data.
            unsafe {
                if libc::gettid() != libc::getpid() {
                    return None;
                }
                let mut current: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGINT, ptr::null(), &mut current) != 0
                    || current.sa_sigaction == libc::SIG_DFL
                    || current.sa_sigaction == libc::SIG_IGN
                    || ACTIVE.swap(true, Ordering::SeqCst)
                {
                    return None;
                }
                PREVIOUS.store(current.sa_sigaction, Ordering::SeqCst);
                PREVIOUS_SIGINFO.store(current.sa_flags & libc::SA_SIGINFO != 0, Ordering::SeqCst);
                FLAG.store(ptr::from_ref(stop).cast_mut(), Ordering::SeqCst);
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = handler as *const () as usize;
                // The replaced handler's flags and mask (Python's: no SA_RESTART, so a system
                // call the signal lands in ends as it would without the hook).
                action.sa_flags = current.sa_flags | libc::SA_SIGINFO;
                action.sa_mask = current.sa_mask;
                if libc::sigaction(libc::SIGINT, &action, ptr::null_mut()) != 0 {
                    FLAG.store(ptr::null_mut(), Ordering::SeqCst);
                    ACTIVE.store(false, Ordering::SeqCst);
                    return None;
                }
                Some(Hook { previous: current })
            }
        }
    }

    impl Drop for Hook {
        fn drop(&mut self) {
            // SAFETY: puts back the action read at install.
            unsafe {
                libc::sigaction(libc::SIGINT, &self.previous, ptr::null_mut());
            }
            FLAG.store(ptr::null_mut(), Ordering::SeqCst);
            // A handler that read the flag before it was cleared may still use it.
            while RUNNING.load(Ordering::SeqCst) != 0 {
                std::hint::spin_loop();
            }
            ACTIVE.store(false, Ordering::SeqCst);
        }
    }

    /// Raises the call's flag (an atomic store: safe in a signal handler), then runs the
    /// replaced handler.
    extern "C" fn handler(signal: libc::c_int, info: *mut libc::siginfo_t, context: *mut c_void) {
        RUNNING.fetch_add(1, Ordering::SeqCst);
        let flag = FLAG.load(Ordering::SeqCst);
        // SAFETY: a non-null flag outlives this handler: its call waits for `RUNNING` to
        // fall to zero after clearing `FLAG`.
        if let Some(flag) = unsafe { flag.as_ref() } {
            flag.stop();
        }
        RUNNING.fetch_sub(1, Ordering::SeqCst);
        let previous = PREVIOUS.load(Ordering::SeqCst);
        // SAFETY: `previous` is the handler function the replaced action named, called with
        // the arguments its flags promise.
        unsafe {
            if PREVIOUS_SIGINFO.load(Ordering::SeqCst) {
                let previous: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut c_void) =
                    std::mem::transmute(previous);
                previous(signal, info, context);
            } else {
                let previous: extern "C" fn(libc::c_int) = std::mem::transmute(previous);
                previous(signal);
            }
        }
    }
}

/// [`stoppable`] for work stopped some other way: `on_signal` tells it to stop.
///
/// The work runs on the binding's rayon pool ([`pool`]), whose threads outlive the call:
/// starting a thread for every call would cost more than a short search.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    on_signal: impl Fn(),
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let pool = pool()?;
    let (done, finished) = mpsc::channel();
    let mut result = None;
    let interrupted = pool.in_place_scope(|scope| {
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
pub(crate) fn detached<T: Send + 'static>(
    py: Python<'_>,
    work: impl FnOnce() -> T + Send + 'static,
) -> PyResult<T> {
    let (done, finished) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let result = catch_unwind(AssertUnwindSafe(work));
        let _ = done.send(());
        result
    });
    if let (_, Some(e)) = until_signal(py, finished) {
        return Err(e);
    }
    let result = py
        .detach(|| worker.join())
        .unwrap_or_else(|e| resume_unwind(e));
    finish(result, None)
}

/// Waits until the worker says it is done, running signal handlers every [`POLL`]; the first
/// exception they raise calls `on_signal` and is returned once the worker is done.
fn wait(py: Python<'_>, finished: Receiver<()>, on_signal: impl Fn()) -> Option<PyErr> {
    let (finished, interrupted) = until_signal(py, finished);
    if interrupted.is_some() {
        on_signal();
        let _ = py.detach(move || finished.recv());
    }
    interrupted
}

/// Waits until the worker says it is done or a signal handler raises, running the handlers
/// every [`POLL`]: the receiver, with the handler's exception if one raised first.
fn until_signal(py: Python<'_>, mut finished: Receiver<()>) -> (Receiver<()>, Option<PyErr>) {
    loop {
        let (answer, receiver) = py.detach(move || (finished.recv_timeout(POLL), finished));
        finished = receiver;
        if answer != Err(RecvTimeoutError::Timeout) {
            return (finished, None);
        }
        if let Err(e) = py.check_signals() {
            return (finished, Some(e));
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
pub(crate) fn check_stop(stop: &StopFlag) {
    if stop.is_stopped() {
        resume_unwind(Box::new(Stopped));
    }
}
