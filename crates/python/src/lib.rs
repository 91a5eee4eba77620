//! Python bindings of ply, built by maturin into the `ply-games` distribution as the native
//! module `ply_games._ply`. It binds the library crates' public APIs and holds no game logic:
//! one submodule per system (`npuzzle`, `ewn_solo`, `ewn_duel`, `sokoboru`, `mines`), each
//! re-exported with its docstrings by the pure-Python package in `python/ply_games`.
//!
//! Conventions shared by every submodule:
//! - a long computation releases the GIL and runs on a worker thread while this one polls for
//!   signals, so Ctrl-C stops it promptly with `KeyboardInterrupt` (`run`);
//! - parallel work runs where rayon's threads exist, a child forked after the parent used
//!   rayon included (`pool`);
//! - a bad argument raises `ValueError` (or `TypeError`) with the library's one-line message,
//!   the text the CLI prints after `ply: error:`;
//! - a panic reaches Python as `pyo3_runtime.PanicException`, never as an abort (the release
//!   profile keeps `panic = "unwind"`).

use pyo3::prelude::*;
use pyo3::types::PyModule;

#[macro_use]
mod common;
mod args;
mod classic;
mod duel;
mod mines;
mod npuzzle;
mod pool;
mod run;
mod sokoboru;
mod solo;

/// The native module: registers each system's submodule, importable by its dotted name.
#[pymodule]
fn _ply(m: &Bound<'_, PyModule>) -> PyResult<()> {
    pool::record_origin();
    common::load_errors(m.py())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(_panic, m)?)?;
    submodule(m, "npuzzle", npuzzle::register)?;
    submodule(m, "ewn_solo", solo::register)?;
    submodule(m, "ewn_duel", duel::register)?;
    submodule(m, "sokoboru", sokoboru::register)?;
    submodule(m, "mines", mines::register)?;
    Ok(())
}

/// Panics on this thread, or on a worker thread as long calls run: the hook of the tests that
/// check that a panic reaches Python as `PanicException`, never as an abort.
#[pyfunction]
fn _panic(py: Python<'_>, in_worker: bool) -> PyResult<()> {
    if in_worker {
        run::interruptible(
            py,
            || {},
            || panic!("a panic on a worker thread, on purpose"),
        )
    } else {
        panic!("a panic on the calling thread, on purpose")
    }
}

/// Adds submodule `name` filled by `register`, and enters it in `sys.modules` so that
/// `import ply_games._ply.NAME` finds it (PyO3's submodules are attributes only).
fn submodule(
    parent: &Bound<'_, PyModule>,
    name: &str,
    register: fn(&Bound<'_, PyModule>) -> PyResult<()>,
) -> PyResult<()> {
    let py = parent.py();
    let dotted = format!("ply_games._ply.{name}");
    let module = PyModule::new(py, &dotted)?;
    register(&module)?;
    parent.add(name, &module)?;
    py.import("sys")?
        .getattr("modules")?
        .set_item(dotted, &module)?;
    Ok(())
}
