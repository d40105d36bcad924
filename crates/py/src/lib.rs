//! The Python package `cspace` (its compiled part, `cspace._cspace`): a batch of agents on
//! Quake worlds stepped from Python into NumPy arrays allocated once (`Core`, behind the
//! gymnasium `cspace.VectorEnv` of `python/cspace/env.py`), scenarios and sweeps
//! (`run_scenario`, `sweep_lines`), and the exceptions every Rust error becomes (`Error`,
//! `ActionError`). See `docs/python.md`.
//!
//! What it pursues, in order: the simulator's determinism (a batch's worlds end on the bits a
//! scenario with the same starts and intents ends on, `Sim::state_hash`), no copies and no GIL
//! on the step (the arrays are NumPy's, written in place with the GIL released), then
//! convenience.
//!
//! The batch (`batch.rs`) is plain Rust over `cspace-sim` and `cspace-scenario`; `core.rs` and
//! `scenarios.rs` are the PyO3 layer; `rays.rs` casts the depth rays over the line of sight's
//! tree; `replay.rs` writes a recorded run as a scenario.

mod batch;
mod config;
mod core;
mod errors;
mod rays;
mod real;
mod replay;
mod scenarios;
mod view;

use pyo3::prelude::*;

/// The compiled part of the `cspace` package.
#[pymodule]
fn _cspace(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_class::<core::Core>()?;
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add("ActionError", py.get_type::<errors::ActionError>())?;
    m.add_function(wrap_pyfunction!(scenarios::run_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(scenarios::sweep_lines, m)?)?;
    m.add(
        "BACKENDS",
        cspace_sim::BACKENDS
            .iter()
            .map(|b| b.name)
            .collect::<Vec<_>>(),
    )?;
    Ok(())
}
