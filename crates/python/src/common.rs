//! What every submodule shares: budgets from keyword arguments, errors as exceptions, and
//! pickling.

use std::ffi::CString;
use std::fmt::Display;
use std::hash::{Hash, Hasher};
use std::path::Path;
use std::time::Duration;

use ply_search::messages::excerpt;
use ply_search::{Limits, Report, SecondsRule, StopFlag};
use pyo3::exceptions::PyDeprecationWarning;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyTuple, PyType};

/// The exception classes of `ply_games`' own family (`python/ply_games/_errors.py`), in the
/// order of `CLASSES`, looked up once, when the native module loads (the package imports
/// `_errors` first).
static ERRORS: PyOnceLock<Vec<Py<PyType>>> = PyOnceLock::new();

/// The family's classes, found on the first call (the module's loading); an error when
/// `ply_games._errors` lacks one, which a module's loading then raises.
fn errors(py: Python<'_>) -> PyResult<&'static [Py<PyType>]> {
    let classes = ERRORS.get_or_try_init(py, || {
        let module = py.import("ply_games._errors")?;
        CLASSES
            .iter()
            .map(|name| Ok(module.getattr(*name)?.cast_into::<PyType>()?.unbind()))
            .collect::<PyResult<Vec<_>>>()
    })?;
    Ok(classes)
}

/// Looks up the exception classes, so that the module fails to load without them rather than
/// at its first error.
pub(crate) fn load_errors(py: Python<'_>) -> PyResult<()> {
    errors(py).map(drop)
}

/// The family's class `name` (one of `CLASSES`).
fn class<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyType>> {
    let at = CLASSES.iter().position(|c| *c == name);
    Ok(errors(py)?[at.expect("a class of the family")]
        .bind(py)
        .clone())
}

/// The exception `name` of the family carrying `message`.
fn ply_error(name: &str, message: String) -> PyErr {
    Python::attach(|py| match class(py, name) {
        Ok(class) => PyErr::from_type(class, message),
        Err(missing) => missing,
    })
}

/// The family's classes, and for each a function making its exception from a message.
macro_rules! family {
    ($($(#[$doc:meta])* $function:ident: $class:literal;)*) => {
        const CLASSES: &[&str] = &[$($class),*];

        $(
            $(#[$doc])*
            pub(crate) fn $function(e: impl Display) -> PyErr {
                ply_error($class, e.to_string())
            }
        )*
    };
}

family! {
    /// `ply_games.InputError` (a `ValueError`): an argument's value out of range, or input that
    /// fits no more specific class; the library's one-line message.
    input_error: "InputError";
    /// `ply_games.ParseError` (an `InputError`): a text that is no board, instance, puzzle, map,
    /// solution or dice line.
    parse_error: "ParseError";
    /// `ply_games.IllegalMoveError` (an `InputError`): a move the rules forbid here.
    illegal_move: "IllegalMoveError";
    /// `ply_games.RejectedError` (an `InputError`): moves `verify` rejects.
    rejected: "RejectedError";
    /// `ply_games.DatabaseError` (a `ValueError`): a pattern database that cannot be used.
    database_error: "DatabaseError";
    /// `ply_games.MissingFileError` (a `FileNotFoundError` and a `ValueError`): a file that is
    /// not there.
    missing_file: "MissingFileError";
    /// `ply_games.InternalError` (a `RuntimeError`): an answer that failed its check.
    internal_error: "InternalError";
}

/// Warns that `old` is deprecated in favour of `new` (`DeprecationWarning`, pointing at the
/// caller): old names of the API work for one more release.
pub(crate) fn deprecated(py: Python<'_>, old: &str, new: &str) -> PyResult<()> {
    let text = format!("{old} is deprecated; use {new} (the old name goes in the next release)");
    let message = CString::new(text.replace('\0', "")).unwrap_or_default();
    PyErr::warn(py, &py.get_type::<PyDeprecationWarning>(), &message, 1)
}

/// The value of an argument renamed before the first release, with the name it was given
/// under: `new` (the value and its name), else `old` (its deprecated name) with a
/// `DeprecationWarning`; `InputError` when both are given, which would contradict or repeat
/// each other. `call` is the function, as the warning names it (`solve`).
pub(crate) fn renamed<'a, T>(
    py: Python<'_>,
    call: &str,
    new: (&'a str, Option<T>),
    old: (&'a str, Option<T>),
) -> PyResult<Option<(&'a str, T)>> {
    match (new, old) {
        ((new_name, Some(_)), (old_name, Some(_))) => Err(input_error(format!(
            "{call}: give {new_name} or its deprecated name {old_name}, not both"
        ))),
        ((new_name, Some(value)), _) => Ok(Some((new_name, value))),
        ((new_name, None), (old_name, Some(value))) => {
            deprecated(
                py,
                &format!("{call}({old_name}=...)"),
                &format!("{call}({new_name}=...)"),
            )?;
            Ok(Some((old_name, value)))
        }
        (_, (_, None)) => Ok(None),
    }
}

/// What `verify` returns: `actual`, the cost of moves it replayed, when it is the cost claimed
/// (if any), else `RejectedError` saying both.
pub(crate) fn claimed_cost(actual: u32, claimed: Option<u32>) -> PyResult<u32> {
    match claimed {
        Some(claimed) if claimed != actual => Err(rejected(format!(
            "the moves cost {actual}, not the {claimed} claimed"
        ))),
        _ => Ok(actual),
    }
}

/// `e` as `verify` raises it: an `InputError` about the moves (a move it cannot read) becomes a
/// `RejectedError` with the same message, since `verify` refuses such moves; any other
/// exception (a `TypeError`) is left as it is.
pub(crate) fn refused(py: Python<'_>, e: PyErr) -> PyErr {
    let input = class(py, "InputError").is_ok_and(|input| e.is_instance(py, &input));
    if input {
        rejected(e.value(py).to_string())
    } else {
        e
    }
}

/// `secs` as a duration by ply-search's `rule`, or `ValueError` naming the argument `name`
/// (the rule and message of the CLI's options).
pub(crate) fn seconds(secs: f64, name: &str, rule: SecondsRule) -> Result<Duration, PyErr> {
    rule.named(name, secs).map_err(input_error)
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
        return Err(input_error(format!(
            "{name} '{}' holds a NUL character",
            excerpt(&text)
        )));
    }
    if file && text.is_empty() {
        return Err(input_error(format!("{name} '' names no file")));
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
            .map_err(input_error)?;
    }
    Ok(limits)
}

/// A float field of a record (its seconds, a probability), compared and hashed by its bits:
/// a record then equals its unpickled copy (a pickle keeps a float's bits) and can be a dict
/// key. Python sees a plain `float`.
#[derive(Clone, Copy, Debug, FromPyObject, IntoPyObject, IntoPyObjectRef)]
#[pyo3(transparent)]
pub(crate) struct Float(pub(crate) f64);

impl PartialEq for Float {
    fn eq(&self, other: &Self) -> bool {
        self.0.to_bits() == other.0.to_bits()
    }
}

impl Eq for Float {}

impl Hash for Float {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.0.to_bits().hash(state);
    }
}

/// The words every `ply_games` solution shares, read off a solver's report (ply-search's one
/// record): the one place the solution classes take them from.
pub(crate) struct Words {
    /// The solution's cost, or `None` without one.
    pub(crate) cost: Option<u32>,
    /// Whether the answer is proven (optimal, or no solution at all).
    pub(crate) proven: bool,
    /// Whether there is proven to be no solution.
    pub(crate) unsolvable: bool,
    /// Why the solve stopped short of a proof (`node limit reached`, ...), or `None`.
    pub(crate) stopped: Option<String>,
    /// The lower bound of the start.
    pub(crate) initial_bound: u32,
    /// The largest lower bound proven.
    pub(crate) lower_bound: u32,
    /// Nodes generated.
    pub(crate) generated: u64,
    /// Nodes expanded.
    pub(crate) expanded: u64,
    /// Seconds of search.
    pub(crate) seconds: Float,
}

/// The [`Words`] of `report`.
pub(crate) fn words<M, X>(report: &Report<M, X>) -> Words {
    Words {
        cost: report.cost(),
        proven: report.proven(),
        unsolvable: report.is_unsolvable(),
        stopped: report.stopped.map(|why| why.to_string()),
        initial_bound: report.initial_bound,
        lower_bound: report.lower_bound,
        generated: report.generated,
        expanded: report.expanded,
        seconds: Float(report.elapsed.as_secs_f64()),
    }
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

/// The callable that rebuilds `slf` from a pickle: its class's static method `name`, or the
/// class itself for `""`.
pub(crate) fn rebuilder<'py>(slf: &Bound<'py, PyAny>, name: &str) -> PyResult<Bound<'py, PyAny>> {
    match name {
        "" => Ok(slf.get_type().into_any()),
        name => slf.get_type().getattr(name),
    }
}

/// A `#[pymethods]` block with the copy and pickle methods of its kind of class, followed by
/// the class's own methods:
/// - `fields(name: Type, ...)`: an immutable value pickled as the tuple of its fields (every
///   field, in order), rebuilt by `_from_fields(fields)`; copies are the value itself;
///   `later(name: Type = default)` adds a field added later, pickled apart so that older
///   pickles load;
/// - `args(name: Type, ...)`: the same, `_from_fields` taking the fields as arguments;
/// - `itself`: an immutable value; copies are the value itself;
/// - `clones`: a mutable object; a copy is an independent clone;
/// - `itself` or `clones` then `reduce("name", |this, py| args)`: pickled as the call of its
///   class's static method `name` (`""`: the class) with `args`, made of `this` (the object)
///   and, if named, `py`.
macro_rules! value_methods {
    ($ty:ident, fields($($field:ident: $t:ty),* $(,)?) $(later($extra:ident: $et:ty = $default:expr))?; $($body:tt)*) => {
        value_methods! {
            $ty, itself;

            /// The value from its fields in order (what a pickle holds).
            #[staticmethod]
            #[pyo3(signature = (fields $(, $extra = $default)?))]
            fn _from_fields(fields: ($($t,)*) $(, $extra: $et)?) -> Self {
                let ($($field,)*) = fields;
                $ty { $($field,)* $($extra)? }
            }

            /// Pickles as its fields.
            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<$crate::common::Reduced<'py>> {
                let value = slf.get().clone();
                let fields = ($(value.$field,)*);
                let rebuild = slf.get_type().getattr("_from_fields")?;
                $crate::common::reduce(rebuild, (fields, $(value.$extra)?))
            }

            $($body)*
        }
    };
    ($ty:ident, args($($field:ident: $t:ty),* $(,)?); $($body:tt)*) => {
        value_methods! {
            $ty, itself;

            /// The value from its fields in order (what a pickle holds).
            #[staticmethod]
            fn _from_fields($($field: $t),*) -> Self {
                $ty { $($field),* }
            }

            /// Pickles as its fields.
            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<$crate::common::Reduced<'py>> {
                let value = slf.get().clone();
                let fields = ($(value.$field,)*);
                $crate::common::reduce(slf.get_type().getattr("_from_fields")?, fields)
            }

            $($body)*
        }
    };
    (
        $ty:ident, $kind:ident,
        $(#[$doc:meta])* reduce($name:literal, |$this:ident $(, $py:ident)?| $args:expr);
        $($body:tt)*
    ) => {
        value_methods! {
            $ty, $kind;

            $(#[$doc])*
            fn __reduce__<'py>(
                slf: &Bound<'py, Self>,
            ) -> PyResult<$crate::common::Reduced<'py>> {
                let $this = slf.borrow();
                $(let $py = slf.py();)?
                $crate::common::reduce($crate::common::rebuilder(slf.as_any(), $name)?, $args)
            }

            $($body)*
        }
    };
    ($ty:ident, itself; $($body:tt)*) => {
        #[pymethods]
        impl $ty {
            fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
                slf
            }

            fn __deepcopy__<'py>(
                slf: Bound<'py, Self>,
                _memo: &Bound<'py, PyAny>,
            ) -> Bound<'py, Self> {
                slf
            }

            $($body)*
        }
    };
    ($ty:ident, clones; $($body:tt)*) => {
        #[pymethods]
        impl $ty {
            fn __copy__(&self) -> Self {
                Clone::clone(self)
            }

            fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> Self {
                Clone::clone(self)
            }

            $($body)*
        }
    };
}
