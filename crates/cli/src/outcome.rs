//! How a command ends: the process's start time, the errors that choose the exit status
//! (usage 2, reported 1, interrupted 128 + the signal) and the mapping from a result to the
//! exit status.

use std::io::ErrorKind;
use std::process::ExitCode;
use std::sync::OnceLock;
use std::time::Instant;

/// When the process started (as near as `main` can tell).
static STARTED: OnceLock<Instant> = OnceLock::new();

/// The instant `main` started; timings "since process start" count from here.
pub(crate) fn started() -> Instant {
    *STARTED.get_or_init(Instant::now)
}

/// A failure that has already been reported on stderr and only sets the exit code.
#[derive(Debug)]
pub(crate) struct Reported;

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("failure reported above")
    }
}

impl std::error::Error for Reported {}

/// A command called wrongly (a missing or contradictory argument, a value out of range):
/// reported like any error, with exit status 2.
#[derive(Debug)]
pub(crate) struct Usage(String);

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Usage {}

/// The error of a command called wrongly, which exits with status 2.
pub(crate) fn usage(message: impl Into<String>) -> anyhow::Error {
    Usage(message.into()).into()
}

/// A command stopped by a signal (SIGINT, SIGTERM or SIGHUP): reported like any error, with
/// the shell's status for that signal, 128 + its number.
#[derive(Debug)]
pub(crate) struct Interrupted(pub String);

impl std::fmt::Display for Interrupted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Interrupted {}

/// The error of a command stopped by a signal; `message` says what was kept.
pub(crate) fn interrupted(message: impl Into<String>) -> anyhow::Error {
    Interrupted(message.into()).into()
}

/// Whether `err` comes from a reader that closed the pipe (`ply ... | head`), whatever
/// context the write's error was given on its way up.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        let io = cause
            .downcast_ref::<std::io::Error>()
            .map(std::io::Error::kind);
        let json = cause
            .downcast_ref::<serde_json::Error>()
            .and_then(serde_json::Error::io_error_kind);
        io.or(json) == Some(ErrorKind::BrokenPipe)
    })
}

/// Reports a command's result on stderr and turns it into the process's exit status.
pub(crate) fn exit_code(result: anyhow::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if err.is::<Reported>() => ExitCode::FAILURE,
        Err(err) if err.chain().any(|cause| cause.is::<Usage>()) => {
            errln!("ply: error: {err:#}");
            ExitCode::from(2)
        }
        Err(err) if err.chain().any(|cause| cause.is::<Interrupted>()) => {
            errln!("ply: error: {err:#}");
            ExitCode::from(crate::signals::exit_status())
        }
        // A reader that closed the pipe wants no more: end quietly.
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            errln!("ply: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}
