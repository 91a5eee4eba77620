//! Termination signals as the process's one stop flag, which long commands poll and hand to
//! the libraries.

use anyhow::{Context, Result};
use ply_search::StopFlag;
use signal_hook::iterator::Signals;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

/// The termination signals a long command stops on.
const SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// The last termination signal received (0 for none), for the exit status.
static RECEIVED: AtomicUsize = AtomicUsize::new(0);

/// The process's interrupt flag, once its signals are caught.
static INTERRUPT: Mutex<Option<StopFlag>> = Mutex::new(None);

/// The flag SIGINT, SIGTERM and SIGHUP raise, catching them from the first call on (a thread
/// waits for them, records which came and raises the flag). Every call returns the same
/// flag; a part of a command that must stop on its own as well takes a
/// [`child`](StopFlag::child) of it.
pub(crate) fn interrupt_flag() -> Result<StopFlag> {
    let mut installed = INTERRUPT.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(flag) = &*installed {
        return Ok(flag.clone());
    }
    let mut signals = Signals::new(SIGNALS).context("installing a signal handler")?;
    let flag = StopFlag::new();
    let raised = flag.clone();
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            for signal in signals.forever() {
                RECEIVED.store(usize::try_from(signal).unwrap_or(0), Ordering::SeqCst);
                raised.stop();
            }
        })
        .context("starting the signal thread")?;
    *installed = Some(flag.clone());
    Ok(flag)
}

/// The exit status of a command stopped by a signal: 128 + the signal's number, as a shell
/// reports it (130, SIGINT's, when no signal was recorded).
pub(crate) fn exit_status() -> u8 {
    match u8::try_from(RECEIVED.load(Ordering::SeqCst)) {
        Ok(signal @ 1..=127) => 128 + signal,
        _ => 130,
    }
}

/// Once `flag` is raised, gives the program `grace` to stop on its own, then runs `cleanup`
/// and exits with the signal's status: for a command that may be blocked where it cannot see
/// the flag (a read from a person at the terminal), so that an interrupt still ends it and
/// nothing it started outlives it.
pub(crate) fn exit_after(flag: StopFlag, grace: Duration, cleanup: fn()) {
    std::thread::spawn(move || {
        while !flag.is_stopped() {
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(grace);
        cleanup();
        errln!("ply: error: interrupted");
        std::process::exit(exit_status().into());
    });
}
