//! Scenarios and sweeps from Python: the runs `sim run` and `sim sweep` make, with the same
//! outcomes and the same JSON lines.

use std::path::PathBuf;

use cspace_scenario::sweep::{Execute, Plan, Shard, Sweep};
use cspace_scenario::{RunOptions, Scenario, run_scenario as run};
use cspace_sim::BackendKind;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::errors::Error;

fn error(message: impl ToString) -> PyErr {
    Error::new_err(message.to_string())
}

/// Runs the scenario at `path` on `backend` (default: each of its backends in turn would be
/// `sim run`; here the first) and returns its outcome: `scenario`, `backend`, `passed`,
/// `end_state` (16 hex digits, as `sim sweep` writes it), `steps`, `agent_steps`,
/// `expectations` (each `agent`, `check`, `at`, `passed`, `failure`) and `trace` (the trace
/// text).
#[pyfunction]
#[pyo3(signature = (path, backend = None))]
pub fn run_scenario<'py>(
    py: Python<'py>,
    path: PathBuf,
    backend: Option<&str>,
) -> PyResult<Bound<'py, PyDict>> {
    let scenario = py.detach(|| Scenario::load(&path)).map_err(error)?;
    let backend = match backend {
        Some(name) => name.parse::<BackendKind>().map_err(error)?,
        None => *scenario
            .backends
            .first()
            .ok_or_else(|| error(format!("{}: no backend can run it", path.display())))?,
    };
    if let Some(why) = scenario.refusal(backend) {
        return Err(error(format!(
            "{}: the {} backend cannot run it: {why}",
            path.display(),
            backend.name()
        )));
    }
    let outcome = py
        .detach(|| run(&scenario, backend, RunOptions::default()))
        .map_err(error)?;
    let d = PyDict::new(py);
    d.set_item("scenario", &scenario.name)?;
    d.set_item("backend", backend.name())?;
    d.set_item("passed", outcome.passed())?;
    d.set_item("end_state", format!("{:016x}", outcome.end_state))?;
    d.set_item("steps", scenario.steps)?;
    d.set_item("agent_steps", outcome.counters.agent_steps)?;
    let expectations = PyList::empty(py);
    for c in &outcome.checks {
        let e = PyDict::new(py);
        e.set_item(
            "agent",
            &scenario.agent_names[c.expectation.agent.0 as usize],
        )?;
        e.set_item("check", c.expectation.check.describe())?;
        e.set_item("at", &c.expectation.written_at)?;
        e.set_item("passed", c.failure.is_none())?;
        e.set_item("failure", &c.failure)?;
        expectations.append(e)?;
    }
    d.set_item("expectations", expectations)?;
    d.set_item("trace", outcome.trace())?;
    Ok(d)
}

/// The JSON lines `sim sweep FILES... [--backends] [--seeds] [--shard I/N]` writes, in run
/// order, byte for byte (without the newlines). `files`: one sweep file, or scenario files;
/// `shard`: (I, N), shard I of N from 1; `threads`: the pool (default: every core).
#[pyfunction]
#[pyo3(signature = (files, backends = None, seeds = None, shard = None, threads = None))]
pub fn sweep_lines(
    py: Python<'_>,
    files: Vec<PathBuf>,
    backends: Option<Vec<String>>,
    seeds: Option<String>,
    shard: Option<(u64, u64)>,
    threads: Option<usize>,
) -> PyResult<Vec<String>> {
    let mut plan = Plan::from_files(&files).map_err(error)?;
    if let Some(names) = backends {
        let mut kinds = Vec::new();
        for name in names {
            let kind = name.parse::<BackendKind>().map_err(error)?;
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        plan.backends = Some(kinds);
    }
    if let Some(seeds) = seeds {
        plan.seeds = seeds.parse().map_err(error)?;
    }
    let shard = match shard {
        None => Shard::ALL,
        Some((i, n)) => format!("{i}/{n}").parse().map_err(error)?,
    };
    let threads = match threads {
        Some(0) => return Err(error("threads must be at least 1")),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    py.detach(|| {
        let sweep = Sweep::load(&plan).map_err(|errors| {
            errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        })?;
        let mut lines = Vec::new();
        let options = Execute {
            shard,
            threads,
            timing: false,
        };
        sweep
            .execute(&options, |line| {
                lines.push(line.to_json());
                std::ops::ControlFlow::Continue(())
            })
            .map_err(|e| e.to_string())?;
        Ok::<_, String>(lines)
    })
    .map_err(error)
}
