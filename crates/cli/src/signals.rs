//! Termination signals as a flag that long-running commands poll.

use anyhow::{Context, Result};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

/// The termination signals a long command stops on.
const SIGNALS: [i32; 3] = [
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
];

/// The last termination signal received (0 for none), for the exit status.
static RECEIVED: OnceLock<Arc<AtomicUsize>> = OnceLock::new();

/// Installs SIGINT/SIGTERM/SIGHUP handlers that raise a flag.
pub(crate) fn interrupt_flag() -> Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    let received = RECEIVED.get_or_init(|| Arc::new(AtomicUsize::new(0)));
    for signal in SIGNALS {
        let number = usize::try_from(signal).context("a signal number")?;
        signal_hook::flag::register_usize(signal, Arc::clone(received), number)
            .context("installing a signal handler")?;
        signal_hook::flag::register(signal, Arc::clone(&flag))
            .context("installing a signal handler")?;
    }
    Ok(flag)
}

/// The exit status of a command stopped by a signal: 128 + the signal's number, as a shell
/// reports it (130, SIGINT's, when no signal was recorded).
pub(crate) fn exit_status() -> u8 {
    let received = RECEIVED.get().map_or(0, |r| r.load(Ordering::SeqCst));
    match u8::try_from(received) {
        Ok(signal @ 1..=127) => 128 + signal,
        _ => 130,
    }
}

/// Once `flag` is raised, gives the program `grace` to stop on its own, then runs `cleanup`
/// and exits with the signal's status: for a command that may be blocked where it cannot see
/// the flag (a read from a person at the terminal), so that an interrupt still ends it and
/// nothing it started outlives it.
pub(crate) fn exit_after(flag: Arc<AtomicBool>, grace: Duration, cleanup: fn()) {
    std::thread::spawn(move || {
        while !flag.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(grace);
        cleanup();
        errln!("ply: error: interrupted");
        std::process::exit(exit_status().into());
    });
}
