//! Integer arguments, read so that a bad one is an error naming the argument and the problem:
//! `TypeError("seed must be an int, not float")`, `ValueError("seed -1 is negative")`,
//! `ValueError("seed 18446744073709551616 is more than 18446744073709551615")`, where PyO3's
//! own conversion says "can't convert negative int to unsigned" without naming anything.
//!
//! Each function here reads the argument of its name (`#[pyo3(from_py_with = args::seed)]`);
//! [`natural`] and [`elements`] read the others.

use std::fmt::Display;
use std::str::FromStr;

use ply_search::messages::excerpt;
use ply_search::{BadThreads, MAX_THREADS, check_threads_up_to};
use pyo3::exceptions::{PyOverflowError, PyTypeError};

use crate::common::input_error;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyString, PyTuple};

/// Why an object is not a natural number of the type wanted.
pub(crate) enum Bad {
    /// Not an int at all: the object's type name.
    NotInt(String),
    /// Below zero, as written.
    Negative(String),
    /// Above the type's largest value, as written.
    TooLarge(String),
}

/// An object as a message quotes it: its `str`, escaped, at most 40 characters of it.
pub(crate) fn shown(obj: &Bound<'_, PyAny>) -> String {
    obj.str()
        .map(|s| excerpt(&s.to_string_lossy()))
        .unwrap_or_default()
}

/// The value of the Python int `obj` (or an object with `__index__`, such as a NumPy integer),
/// exactly, when `i128` holds it. A bool is no int here: `True` as a count is a mistake.
pub(crate) fn integer(obj: &Bound<'_, PyAny>) -> Result<i128, Bad> {
    if is_bool(obj) {
        return Err(Bad::NotInt(type_name(obj)));
    }
    match obj.extract::<i128>() {
        Ok(value) => Ok(value),
        Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
            if obj.lt(0).unwrap_or(false) {
                Err(Bad::Negative(shown(obj)))
            } else {
                Err(Bad::TooLarge(shown(obj)))
            }
        }
        Err(_) => Err(Bad::NotInt(type_name(obj))),
    }
}

/// Whether `obj` is a bool, Python's or NumPy's (both convert to numbers without a word). NumPy's
/// is known by its type's name, without importing NumPy: an import runs Python code, which
/// may run a signal handler whose `KeyboardInterrupt` must not be lost here.
fn is_bool(obj: &Bound<'_, PyAny>) -> bool {
    if obj.is_instance_of::<PyBool>() {
        return true;
    }
    let kind = obj.get_type();
    let named = |name: &str| kind.name().is_ok_and(|n| n == name);
    kind.module().is_ok_and(|m| m == "numpy") && (named("bool") || named("bool_"))
}

/// Argument `name`, a number (an int, a float, or an object with `__float__` such as a NumPy
/// float; not a bool), or `TypeError("name must be WHAT, not str")`.
pub(crate) fn number(obj: &Bound<'_, PyAny>, name: &str, what: &str) -> PyResult<f64> {
    let refuse = || PyTypeError::new_err(format!("{name} must be {what}, not {}", type_name(obj)));
    if is_bool(obj) {
        return Err(refuse());
    }
    obj.extract::<f64>().map_err(|e| {
        // Only a conversion's own refusal: an exception of `__float__` goes on as it is.
        if e.is_instance_of::<PyTypeError>(obj.py()) {
            refuse()
        } else {
            e
        }
    })
}

/// The name of `obj`'s type.
pub(crate) fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map(|n| n.to_string())
        .unwrap_or_else(|_| "object".into())
}

/// `obj` as a `T`, which holds no negative numbers.
pub(crate) fn natural<T: TryFrom<i128>>(obj: &Bound<'_, PyAny>) -> Result<T, Bad> {
    let value = integer(obj)?;
    if value < 0 {
        return Err(Bad::Negative(value.to_string()));
    }
    T::try_from(value).map_err(|_| Bad::TooLarge(value.to_string()))
}

/// The error of argument `name` for `bad`, `max` its type's largest value.
pub(crate) fn error(name: &str, bad: Bad, max: impl Display) -> PyErr {
    match bad {
        Bad::NotInt(kind) => PyTypeError::new_err(format!("{name} must be an int, not {kind}")),
        Bad::Negative(value) => input_error(format!("{name} {value} is negative")),
        Bad::TooLarge(value) => input_error(format!("{name} {value} is more than {max}")),
    }
}

/// The error of `item`, an element of sequence `name`, for `bad`.
pub(crate) fn element_error(
    name: &str,
    item: &Bound<'_, PyAny>,
    bad: Bad,
    max: impl Display,
) -> PyErr {
    match bad {
        Bad::NotInt(_) => PyTypeError::new_err(format!("{name}: {} is not an int", shown(item))),
        Bad::Negative(value) => input_error(format!("{name}: {value} is negative")),
        Bad::TooLarge(value) => input_error(format!("{name}: {value} is more than {max}")),
    }
}

/// Argument `name` as a `T` (an unsigned type), or an error naming it.
pub(crate) fn unsigned<T: TryFrom<i128> + Bounded>(
    obj: &Bound<'_, PyAny>,
    name: &str,
) -> PyResult<T> {
    natural(obj).map_err(|bad| error(name, bad, T::LARGEST))
}

/// Argument `name`, an int that `check` accepts (and converts), else `refuse` of it as written
/// (a `ValueError` saying what it must be); `TypeError` naming it when it is no int.
pub(crate) fn ranged<T>(
    obj: &Bound<'_, PyAny>,
    name: &str,
    check: impl FnOnce(i128) -> Option<T>,
    refuse: impl FnOnce(String) -> PyErr,
) -> PyResult<T> {
    match integer(obj) {
        Ok(n) => check(n).ok_or_else(|| refuse(n.to_string())),
        Err(Bad::Negative(shown) | Bad::TooLarge(shown)) => Err(refuse(shown)),
        Err(bad) => Err(error(name, bad, "")),
    }
}

/// `None` for `None`, else the argument as `read` reads it.
pub(crate) fn optional<'py, T>(
    obj: &Bound<'py, PyAny>,
    read: impl FnOnce(&Bound<'py, PyAny>) -> PyResult<T>,
) -> PyResult<Option<T>> {
    if obj.is_none() {
        return Ok(None);
    }
    read(obj).map(Some)
}

/// Argument `name`, a sequence of `T` (not a string), or an error naming it (an element's
/// problem as `name: -1 is negative`).
pub(crate) fn elements<T: TryFrom<i128> + Bounded>(
    obj: &Bound<'_, PyAny>,
    name: &str,
    what: &str,
) -> PyResult<Vec<T>> {
    sequence(obj, name, what)?
        .iter()
        .map(|item| natural(item).map_err(|bad| element_error(name, item, bad, T::LARGEST)))
        .collect()
}

/// Argument `name`, a sequence of pairs of `T` (`what` says what a pair is), or an error
/// naming it.
pub(crate) fn pairs<T: TryFrom<i128> + Bounded>(
    obj: &Bound<'_, PyAny>,
    name: &str,
    what: &str,
) -> PyResult<Vec<(T, T)>> {
    sequence(obj, name, what)?
        .iter()
        .map(|item| {
            let not_pair = || format!("{name}: {} is not a pair", shown(item));
            let pair = sequence(item, name, what).map_err(|_| PyTypeError::new_err(not_pair()))?;
            two(&pair, name, not_pair)
        })
        .collect()
}

/// The elements of `items`, a pair of `T` in sequence `name`, or `ValueError(not_pair())` when
/// there are not two (an element's problem as in [`elements`]).
pub(crate) fn two<T: TryFrom<i128> + Bounded>(
    items: &[Bound<'_, PyAny>],
    name: &str,
    not_pair: impl FnOnce() -> String,
) -> PyResult<(T, T)> {
    let [a, b] = items else {
        return Err(input_error(not_pair()));
    };
    let one = |x| natural(x).map_err(|bad| element_error(name, x, bad, T::LARGEST));
    Ok((one(a)?, one(b)?))
}

/// Argument `name`, a str that `T` parses, or `TypeError` saying that it must be `what` (the
/// library's refusal of the str is a `ValueError`).
pub(crate) fn parsed<T: FromStr>(obj: &Bound<'_, PyAny>, name: &str, what: &str) -> PyResult<T>
where
    T::Err: Display,
{
    let text: String = obj.extract().map_err(|_| {
        PyTypeError::new_err(format!("{name} must be {what}, not {}", type_name(obj)))
    })?;
    text.parse().map_err(input_error)
}

/// `pairs` when none repeats, else `ValueError("mine (0, 0) is listed twice")` (`what` names a
/// pair): a list of distinct things given twice is a mistake, not one thing.
pub(crate) fn distinct<T: Copy + Eq + std::hash::Hash + Display>(
    pairs: Vec<(T, T)>,
    what: &str,
) -> PyResult<Vec<(T, T)>> {
    let mut seen = std::collections::HashSet::with_capacity(pairs.len());
    match pairs.iter().find(|&&pair| !seen.insert(pair)) {
        Some((a, b)) => Err(input_error(format!("{what} ({a}, {b}) is listed twice"))),
        None => Ok(pairs),
    }
}

/// The items of argument `name`, a sequence (not a string), or `TypeError` saying that it
/// must be `what`.
pub(crate) fn sequence<'py>(
    obj: &Bound<'py, PyAny>,
    name: &str,
    what: &str,
) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let refuse = || PyTypeError::new_err(format!("{name} must be {what}, not {}", type_name(obj)));
    if obj.is_instance_of::<PyString>() {
        return Err(refuse());
    }
    if let Ok(tuple) = obj.cast::<PyTuple>() {
        return Ok(tuple.iter().collect());
    }
    let items = obj.try_iter().map_err(|_| refuse())?;
    items.collect::<PyResult<Vec<_>>>()
}

/// An unsigned integer type, and its largest value, which messages name.
pub(crate) trait Bounded {
    /// The largest value.
    const LARGEST: u128;
}

/// [`Bounded`] for each unsigned type.
macro_rules! bounded {
    ($($t:ty),*) => {$(
        impl Bounded for $t {
            const LARGEST: u128 = <$t>::MAX as u128;
        }
    )*};
}

bounded!(u8, u16, u32, u64, usize);

/// Readers of the arguments of each name, as `from_py_with` takes them (`reader("name")`: the
/// argument `name`, read by `reader`).
macro_rules! named {
    (@name $name:ident) => { stringify!($name) };
    (@name $name:ident $arg:literal) => { $arg };
    ($($name:ident $(($arg:literal))?: $t:ty),* $(,)?) => {$(
        #[doc = concat!("Argument `", stringify!($name), "` as a `", stringify!($t), "`.")]
        pub(crate) fn $name(obj: &Bound<'_, PyAny>) -> PyResult<$t> {
            unsigned(obj, named!(@name $name $($arg)?))
        }
    )*};
}

named! {
    seed: u64,
    count: usize,
    min_moves: u32,
    max_moves: u32,
    max_draws: u64,
    max_nodes: u64,
    rows: usize,
    cols: usize,
    balls: usize,
    min_penalty: u32,
    games: u64,
    rounds: u32,
    n: u64,
    k: u64,
    r: u32,
    c: u32,
    goal: u8,
    source: u8,
    target: u8,
    safe: u64,
    mines: u64,
    row: u64,
    col: u64,
    game: u64,
    first_game: u64,
    side_width("width"): u16,
    side_height("height"): u16,
    mine_count("mines"): u32,
}

/// Readers of optional arguments (`None` allowed) of each name.
pub(crate) mod opt {
    use super::*;

    macro_rules! named_opt {
        ($($name:ident $(($arg:literal))?: $t:ty),* $(,)?) => {$(
            #[doc = concat!("Argument `", stringify!($name), "` as an optional `", stringify!($t), "`.")]
            pub(crate) fn $name(obj: &Bound<'_, PyAny>) -> PyResult<Option<$t>> {
                optional(obj, |obj| unsigned(obj, named!(@name $name $($arg)?)))
            }
        )*};
    }

    named_opt! {
        max_nodes: u64,
        known_optimum: u32,
        optimum: u32,
        penalty: u32,
        cost: u32,
        depth: u32,
        mines: u64,
        side_width("width"): u16,
        side_height("height"): u16,
        mine_count("mines"): u32,
    }

    macro_rules! named_opt_seconds {
        ($($name:ident),* $(,)?) => {$(
            #[doc = concat!("Argument `", stringify!($name), "`, a number of seconds or `None`.")]
            pub(crate) fn $name(obj: &Bound<'_, PyAny>) -> PyResult<Option<f64>> {
                optional(obj, |obj| number(obj, stringify!($name), SECONDS))
            }
        )*};
    }

    named_opt_seconds! {
        time_limit,
        deadline,
        move_time,
    }

    /// Argument `threads`, optional.
    pub(crate) fn threads(obj: &Bound<'_, PyAny>) -> PyResult<Option<usize>> {
        optional(obj, super::threads)
    }
}

/// What a number of seconds must be, as its `TypeError` says. Its value is checked by ply-search's
/// seconds rule where it is used, which names the argument the same way.
const SECONDS: &str = "a number of seconds";

/// Argument `move_time`, a number of seconds.
pub(crate) fn move_time(obj: &Bound<'_, PyAny>) -> PyResult<f64> {
    number(obj, "move_time", SECONDS)
}

/// Argument `width` (of a board): any int, so that a bad one gets the board's own message.
pub(crate) fn width(obj: &Bound<'_, PyAny>) -> PyResult<i128> {
    integer(obj).map_err(|bad| error("width", bad, i128::MAX))
}

/// Argument `threads` of the searches: `1..=`[`MAX_THREADS`], the range of every front end
/// (`ply_search::check_threads`).
pub(crate) fn threads(obj: &Bound<'_, PyAny>) -> PyResult<usize> {
    thread_count(obj, MAX_THREADS)
}

/// Argument `threads` in `1..=max`, or ply-search's [`BadThreads`] naming it (`ValueError("threads
/// 0 is not in 1..=MAX")`), the wording of the CLI's `--threads`.
pub(crate) fn thread_count(obj: &Bound<'_, PyAny>, max: usize) -> PyResult<usize> {
    ranged(
        obj,
        "threads",
        |n| check_threads_up_to(u128::try_from(n).ok()?, max).ok(),
        |shown| input_error(BadThreads::new(shown, max).named("threads")),
    )
}

/// Argument `mines` of a map or of `ClassicGame.from_mines`: distinct `(row, col)` pairs.
pub(crate) fn mine_cells(obj: &Bound<'_, PyAny>) -> PyResult<Vec<(u32, u32)>> {
    distinct(
        pairs(obj, "mines", "a sequence of (row, col) pairs")?,
        "mine",
    )
}

/// A value class declared once: its `#[pyclass]` in submodule `module` (named `name` when the
/// Rust name differs) whose fields Python reads as attributes, equal and hashed by them, with
/// the copy and pickle methods of `value_methods!`: `fields` pickles the fields as one tuple,
/// `args` as the arguments of `_from_fields`. A `later` field, one added after pickles were
/// made, is pickled apart and has a default, so that older pickles load; `methods` are the
/// class's own.
macro_rules! value_record {
    (
        $module:tt $(as $name:tt)?, $kind:ident;
        $(#[$doc:meta])*
        pub struct $ty:ident {
            $($(#[$field_doc:meta])* $field:ident: $t:ty,)*
        }
        $(later { $(#[$later_doc:meta])* $later:ident: $later_t:ty = $default:expr $(,)? })?
        $(methods { $($body:tt)* })?
    ) => {
        $(#[$doc])*
        #[pyclass(module = $module, $(name = $name,)? frozen, get_all, eq, hash)]
        #[derive(Clone, PartialEq, Eq, Hash)]
        pub struct $ty {
            $($(#[$field_doc])* $field: $t,)*
            $($(#[$later_doc])* $later: $later_t,)?
        }

        value_methods! {
            $ty, $kind($($field: $t),*) $(later($later: $later_t = $default))?;
            $($($body)*)?
        }
    };
}

pub(crate) use value_record;
