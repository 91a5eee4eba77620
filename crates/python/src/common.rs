//! What every submodule shares: budgets from keyword arguments, errors as exceptions, and
//! pickling.

use std::fmt::Display;
use std::time::Duration;

use ply_search::messages::{duration_problem, short_number};
use ply_search::{Limits, StopFlag};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// `ValueError` carrying a library error's one-line message.
pub fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// `secs` as a duration, or `ValueError` naming the argument as the CLI names its option.
pub fn seconds(secs: f64, name: &str) -> Result<Duration, PyErr> {
    Duration::try_from_secs_f64(secs).map_err(|_| {
        PyValueError::new_err(format!(
            "{name} {} {}",
            short_number(secs),
            duration_problem(secs).unwrap_or("is not a valid duration")
        ))
    })
}

/// `secs` as a positive duration (a move time), or `ValueError` naming the argument.
pub fn positive_seconds(secs: f64, name: &str) -> Result<Duration, PyErr> {
    Duration::try_from_secs_f64(secs)
        .ok()
        .filter(|d| !d.is_zero())
        .ok_or_else(|| {
            PyValueError::new_err(format!(
                "{name} {} {}",
                short_number(secs),
                duration_problem(secs).unwrap_or("is not a positive duration")
            ))
        })
}

/// The limits of `time_limit` seconds and `max_nodes` nodes (either optional), stopped by
/// `stop`.
pub fn limits(
    time_limit: Option<f64>,
    max_nodes: Option<u64>,
    stop: &StopFlag,
) -> Result<Limits, PyErr> {
    let mut limits = Limits::UNLIMITED.with_stop(stop.clone());
    if let Some(nodes) = max_nodes {
        limits = limits.with_max_nodes(nodes);
    }
    if let Some(secs) = time_limit {
        limits = limits.with_max_time(seconds(secs, "time_limit")?);
    }
    Ok(limits)
}

/// What `__reduce__` gives pickle and `copy`: a callable and the arguments that rebuild the
/// object.
pub type Reduced<'py> = (Bound<'py, PyAny>, Bound<'py, PyTuple>);

/// The [`Reduced`] of `rebuild` (a class or one of its static methods) called with `args`.
pub fn reduce<'py, A>(rebuild: Bound<'py, PyAny>, args: A) -> PyResult<Reduced<'py>>
where
    A: IntoPyObject<'py, Target = PyTuple, Output = Bound<'py, PyTuple>>,
    PyErr: From<A::Error>,
{
    let args = args.into_pyobject(rebuild.py())?;
    Ok((rebuild, args))
}
