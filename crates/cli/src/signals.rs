//! Termination signals as a flag that long-running commands poll.

use anyhow::{Context, Result};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// Installs SIGINT/SIGTERM/SIGHUP handlers that raise a flag.
pub fn interrupt_flag() -> Result<Arc<AtomicBool>> {
    let flag = Arc::new(AtomicBool::new(false));
    for signal in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        signal_hook::flag::register(signal, Arc::clone(&flag))
            .context("installing a signal handler")?;
    }
    Ok(flag)
}

/// Once `flag` is raised, gives the program `grace` to stop on its own, then runs `cleanup`
/// and exits with status 130: for a command that may be blocked where it cannot see the
/// flag (a read from a person at the terminal), so that an interrupt still ends it and
/// nothing it started outlives it.
pub fn exit_after(flag: Arc<AtomicBool>, grace: Duration, cleanup: fn()) {
    std::thread::spawn(move || {
        while !flag.load(Ordering::SeqCst) {
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(grace);
        cleanup();
        eprintln!("ply: error: interrupted");
        std::process::exit(130);
    });
}
