//! ply studio: every ply system in the browser, served from the `ply` binary itself.
//!
//! [`Studio::bind`] listens (on 127.0.0.1 unless told otherwise) and [`Studio::run`] serves
//! a web application whose files are embedded in the binary: classic Minesweeper (play with
//! the exact probabilities, analyse a pasted board, win-rate runs), the sliding-tile puzzles
//! (IDA* iterations live), Sokoboru (play, hints, long solves) and EWN (the solo optimum,
//! duels against or between agents, tournament and openings logs replayed). Its API (JSON over HTTP,
//! progress as server-sent events, docs/protocols.md) calls the libraries' public functions
//! only, each on a bounded pool of threads and bound to a stop flag raised when its page goes
//! away; it refuses requests whose Host header is not its own (DNS rebinding) and API calls
//! without the random token of the URL it prints, and reads no file.
//!
//! ```no_run
//! use ply_search::StopFlag;
//! use ply_studio::{Studio, StudioOptions};
//!
//! let studio = Studio::bind(&StudioOptions::default())?;
//! println!("open {}", studio.url());
//! studio.run(StopFlag::new())?; // until the flag is raised
//! # Ok::<(), ply_studio::StudioError>(())
//! ```

mod assets;
mod error;
mod ewn;
mod guard;
mod jobs;
mod mines;
mod npuzzle;
mod server;
mod sokoboru;

pub use error::BODY_LIMIT;
pub use server::{DEFAULT_PORT, Studio, StudioError, StudioOptions};

/// Opens `url` in the user's browser (`xdg-open`, or `open` on macOS), without waiting for
/// it.
///
/// # Errors
/// The opener cannot be started.
pub fn open_in_browser(url: &str) -> std::io::Result<()> {
    let opener = if cfg!(target_os = "macos") {
        "open"
    } else {
        "xdg-open"
    };
    std::process::Command::new(opener)
        .arg(url)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .map(|mut child| {
            // Reaped when it exits, so that no zombie is left behind.
            std::thread::spawn(move || child.wait());
        })
}
