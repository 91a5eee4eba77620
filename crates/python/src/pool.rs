//! Where the binding's parallel work runs, so that it survives `fork`.
//!
//! rayon's global pool starts its threads once per process, and a child started by `fork`
//! (Python's `multiprocessing` on Linux) inherits the pool without its threads: work handed
//! to it waits forever. The binding therefore owns a pool, built by the process that uses it
//! and built again in a forked child ([`pool`]), and a child runs the libraries' parallel code
//! inside it ([`Place`]), where rayon's `join` and parallel iterators use it instead of
//! the global pool.

use std::ptr;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicPtr, Ordering};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use rayon::{ThreadPool, ThreadPoolBuilder};

/// A pool and the process that built it.
struct Owned {
    pid: u32,
    pool: ThreadPool,
}

/// The current pool: a leaked [`Owned`], or null before the first use. A pool built by
/// another process (the parent of a fork) is replaced and leaked: its threads are not in
/// this process, so it can neither run work nor be shut down.
static POOL: AtomicPtr<Owned> = AtomicPtr::new(ptr::null_mut());

/// The process that loaded the module.
static ORIGIN: OnceLock<u32> = OnceLock::new();

/// Records the process that loads the module (called by its initialisation).
pub(crate) fn record_origin() {
    ORIGIN.get_or_init(std::process::id);
}

/// The binding's pool in this process, built on first use here (one thread per core, or
/// `RAYON_NUM_THREADS`); `RuntimeError` when its threads cannot be started.
#[allow(unsafe_code)]
pub(crate) fn pool() -> PyResult<&'static ThreadPool> {
    let pid = std::process::id();
    loop {
        let current = POOL.load(Ordering::Acquire);
        // SAFETY: a non-null pointer in `POOL` is a leaked box, never freed.
        if let Some(owned) = unsafe { current.as_ref() }.filter(|owned| owned.pid == pid) {
            return Ok(&owned.pool);
        }
        let pool = ThreadPoolBuilder::new()
            .thread_name(|i| format!("ply-python-{i}"))
            .build()
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start worker threads: {e}")))?;
        let fresh = Box::into_raw(Box::new(Owned { pid, pool }));
        match POOL.compare_exchange(current, fresh, Ordering::AcqRel, Ordering::Acquire) {
            // SAFETY: `fresh` is now in `POOL`, so never freed.
            Ok(_) => return Ok(unsafe { &(*fresh).pool }),
            // Another thread of this process put its pool in first: ours goes, and the loop
            // takes that one.
            // SAFETY: `fresh` came from `Box::into_raw` above and was never shared.
            Err(_) => drop(unsafe { Box::from_raw(fresh) }),
        }
    }
}

/// Where work that may use rayon (the libraries' parallel iterators and joins) runs in
/// this process.
#[derive(Clone, Copy)]
pub(crate) enum Place {
    /// On the calling thread: in the process that loaded the module, whose global pool (if
    /// any) has its threads. Handing a call to a pool thread would cost a short call 10-30 µs.
    Caller,
    /// On the binding's [`pool`]: in a forked child, which must never wait on the global
    /// pool's missing threads.
    Pool(&'static ThreadPool),
}

impl Place {
    /// The place for this process; `RuntimeError` when a pool is needed and cannot start.
    pub(crate) fn here() -> PyResult<Place> {
        if ORIGIN.get() == Some(&std::process::id()) {
            Ok(Place::Caller)
        } else {
            pool().map(Place::Pool)
        }
    }

    /// Runs `work` at this place; a panic of `work` is resumed on the calling thread.
    pub(crate) fn run<T: Send>(self, work: impl FnOnce() -> T + Send) -> T {
        match self {
            Place::Pool(pool) if pool.current_thread_index().is_none() => pool.install(work),
            _ => work(),
        }
    }
}

/// Runs `work` with the GIL released at [`Place::here`].
pub(crate) fn detach<T: Send>(py: Python<'_>, work: impl FnOnce() -> T + Send) -> PyResult<T> {
    let place = Place::here()?;
    Ok(py.detach(|| place.run(work)))
}
