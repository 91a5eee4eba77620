//! What every submodule shares: budgets from keyword arguments, errors as exceptions, and
//! pickling.

use std::fmt::Display;
use std::path::Path;
use std::time::Duration;

use ply_search::messages::excerpt;
use ply_search::{Limits, SecondsRule, StopFlag};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// `ValueError` carrying a library error's one-line message.
pub(crate) fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `secs` as a duration by ply-search's `rule`, or `ValueError` naming the argument `name`
/// (the rule and message of the CLI's options).
pub(crate) fn seconds(secs: f64, name: &str, rule: SecondsRule) -> Result<Duration, PyErr> {
    rule.named(name, secs).map_err(value_error)
}

/// `secs` as a move's time ([`SecondsRule::MoveTime`]: more than zero, at most a day), or
/// `ValueError` naming the argument.
pub(crate) fn positive_seconds(secs: f64, name: &str) -> Result<Duration, PyErr> {
    seconds(secs, name, SecondsRule::MoveTime)
}

/// Checks path argument `name`: `ValueError` when it holds a NUL character (no file name
/// can), or, for a file (`file`), when it is empty.
pub(crate) fn check_path(path: &Path, name: &str, file: bool) -> Result<(), PyErr> {
    let text = path.to_string_lossy();
    if text.contains('\0') {
        return Err(PyValueError::new_err(format!(
            "{name} '{}' holds a NUL character",
            excerpt(&text)
        )));
    }
    if file && text.is_empty() {
        return Err(PyValueError::new_err(format!("{name} '' names no file")));
    }
    Ok(())
}

/// The limits of `time_limit` seconds and `max_nodes` nodes (either optional), stopped by
/// `stop`.
pub(crate) fn limits(
    time_limit: Option<f64>,
    max_nodes: Option<u64>,
    stop: &StopFlag,
) -> Result<Limits, PyErr> {
    let mut limits = Limits::UNLIMITED.with_stop(stop.clone());
    if let Some(nodes) = max_nodes {
        limits = limits.with_max_nodes(nodes);
    }
    if let Some(secs) = time_limit {
        limits = limits
            .with_time_limit_secs("time_limit", secs)
            .map_err(value_error)?;
    }
    Ok(limits)
}

/// What `__reduce__` gives pickle and `copy`: a callable and the arguments that rebuild the
/// object.
pub(crate) type Reduced<'py> = (Bound<'py, PyAny>, Bound<'py, PyTuple>);

/// The [`Reduced`] of `rebuild` (a class or one of its static methods) called with `args`.
pub(crate) fn reduce<'py, A>(rebuild: Bound<'py, PyAny>, args: A) -> PyResult<Reduced<'py>>
where
    A: IntoPyObject<'py, Target = PyTuple, Output = Bound<'py, PyTuple>>,
    PyErr: From<A::Error>,
{
    let args = args.into_pyobject(rebuild.py())?;
    Ok((rebuild, args))
}
