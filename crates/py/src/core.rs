//! `cspace._cspace.Core`: the batch behind `cspace.VectorEnv`, with its NumPy arrays allocated
//! once and written in place by every reset and step, the step run with the GIL released.

use std::path::PathBuf;
use std::sync::Mutex;

use numpy::{
    Element, PyArray1, PyArray2, PyArrayMethods, PyReadonlyArrayDyn, PyUntypedArrayMethods,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::batch::{Action, Actions, Batch, ObsSlices, StepSlices};
use crate::config::{
    BENCH_PLACEMENT_SEED, BENCH_SPREAD, EnvConfig, GoalKind, RayConfig, RewardKind, TaskConfig,
    TurnMode,
};
use crate::errors::{ActionError, Error};
use crate::real::Real;

/// The observation arrays in one element type.
struct Arrays<T> {
    position: Py<PyArray2<T>>,
    velocity: Py<PyArray2<T>>,
    view: Py<PyArray2<T>>,
    on_ground: Py<PyArray1<T>>,
    crouched: Py<PyArray1<T>>,
    goal: Py<PyArray2<T>>,
    depth: Py<PyArray2<T>>,
}

impl<T: Real + Element> Arrays<T> {
    fn new(py: Python<'_>, n: usize, rays: usize) -> Arrays<T> {
        Arrays {
            position: PyArray2::zeros(py, [n, 3], false).unbind(),
            velocity: PyArray2::zeros(py, [n, 3], false).unbind(),
            view: PyArray2::zeros(py, [n, 2], false).unbind(),
            on_ground: PyArray1::zeros(py, n, false).unbind(),
            crouched: PyArray1::zeros(py, n, false).unbind(),
            goal: PyArray2::zeros(py, [n, 3], false).unbind(),
            depth: PyArray2::zeros(py, [n, rays], false).unbind(),
        }
    }

    /// The arrays by name, as the observation space names them.
    fn dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("position", self.position.bind(py))?;
        d.set_item("velocity", self.velocity.bind(py))?;
        d.set_item("view", self.view.bind(py))?;
        d.set_item("on_ground", self.on_ground.bind(py))?;
        d.set_item("crouched", self.crouched.bind(py))?;
        d.set_item("goal", self.goal.bind(py))?;
        d.set_item("depth", self.depth.bind(py))?;
        Ok(d)
    }

    /// Calls `f` with the arrays' memory (borrowed from NumPy for the call).
    fn with<R>(&self, py: Python<'_>, f: impl FnOnce(&mut ObsSlices<'_, T>) -> R) -> R {
        let mut position = self.position.bind(py).readwrite();
        let mut velocity = self.velocity.bind(py).readwrite();
        let mut view = self.view.bind(py).readwrite();
        let mut on_ground = self.on_ground.bind(py).readwrite();
        let mut crouched = self.crouched.bind(py).readwrite();
        let mut goal = self.goal.bind(py).readwrite();
        let mut depth = self.depth.bind(py).readwrite();
        let contiguous = "allocated contiguous by the core";
        let mut obs = ObsSlices {
            position: position.as_slice_mut().expect(contiguous),
            velocity: velocity.as_slice_mut().expect(contiguous),
            view: view.as_slice_mut().expect(contiguous),
            on_ground: on_ground.as_slice_mut().expect(contiguous),
            crouched: crouched.as_slice_mut().expect(contiguous),
            goal: goal.as_slice_mut().expect(contiguous),
            depth: depth.as_slice_mut().expect(contiguous),
        };
        f(&mut obs)
    }
}

/// The rewards, terminated and truncated arrays.
type Results<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<bool>>,
    Bound<'py, PyArray1<bool>>,
);

/// A point as Python's tuple (x, y, z).
type Point = (f64, f64, f64);

/// The observation arrays, in the element type asked for.
enum Buffers {
    F32(Arrays<f32>),
    F64(Arrays<f64>),
}

/// The batch of agents behind `cspace.VectorEnv` (see `python/cspace/env.py`): its arrays are
/// allocated once and rewritten by each `reset` and `step` (valid until the next call).
#[pyclass(module = "cspace._cspace")]
pub struct Core {
    batch: Mutex<Batch>,
    /// Steps taken and nanoseconds in `step` (from the call's arrival in Rust to its return).
    calls: std::sync::atomic::AtomicU64,
    call_nanos: std::sync::atomic::AtomicU64,
    buffers: Buffers,
    rewards: Py<PyArray1<f64>>,
    terminated: Py<PyArray1<bool>>,
    truncated: Py<PyArray1<bool>>,
}

/// Runs `$body` with `$obs`, the observation slices of the core's element type.
macro_rules! with_obs {
    ($core:expr, $py:expr, |$obs:ident| $body:expr) => {
        match &$core.buffers {
            Buffers::F64(a) => a.with($py, |$obs| $body),
            Buffers::F32(a) => a.with($py, |$obs| $body),
        }
    };
}

/// A Rust error as the package's exception, with the same message.
fn error(message: impl Into<String>) -> PyErr {
    Error::new_err(message.into())
}

/// The value `name`d `given` among `choices`, or an error listing them.
fn choose<T, const N: usize>(name: &str, given: &str, choices: [(&str, T); N]) -> PyResult<T> {
    let names: Vec<String> = choices.iter().map(|(n, _)| format!("{n:?}")).collect();
    choices
        .into_iter()
        .find(|(n, _)| *n == given)
        .map(|(_, v)| v)
        .ok_or_else(|| {
            error(format!(
                "{name}: expected one of {}, got {given:?}",
                names.join(", ")
            ))
        })
}

/// A readonly array's memory, checked to have `shape`.
fn slice_of<'a>(
    name: &str,
    array: &'a PyReadonlyArrayDyn<'_, f64>,
    shape: &[usize],
) -> PyResult<&'a [f64]> {
    if array.shape() != shape {
        return Err(ActionError::new_err(format!(
            "{name} actions: expected shape {shape:?}, got {:?}",
            array.shape()
        )));
    }
    array
        .as_slice()
        .map_err(|_| ActionError::new_err(format!("{name} actions: the array must be contiguous")))
}

/// A boolean mask of one entry per agent.
fn mask_of(
    name: &str,
    mask: Option<PyReadonlyArrayDyn<'_, bool>>,
    n: usize,
) -> PyResult<Option<Vec<bool>>> {
    mask.map(|m| {
        if m.shape() != [n] {
            return Err(error(format!(
                "{name}: expected one boolean per agent, shape [{n}], got {:?}",
                m.shape()
            )));
        }
        Ok(m.as_array().iter().copied().collect())
    })
    .transpose()
}

impl Core {
    fn lock(&self) -> std::sync::MutexGuard<'_, Batch> {
        // A poisoned lock only follows a panic, which the batch never lets out.
        self.batch.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl Core {
    /// A batch of `agents` agents in each world of `maps`; see `cspace.VectorEnv`.
    #[new]
    #[pyo3(signature = (
        maps, agents, *, backend = "onion", movement = "cspace", time_step = 0.015625,
        crouch = true, spread = BENCH_SPREAD, placement_seed = BENCH_PLACEMENT_SEED, jitter = 8.0,
        turn = "relative", max_turn = 180.0, rays = 8, fov = 90.0, ray_pitch = 0.0,
        ray_range = 1024.0, ray_distances = false, goal = "spawn", reward = "progress",
        radius = 32.0, arrival = 1.0, progress_scale = 0.01, max_steps = 1000, threads = 1,
        parallel_from = cspace_sim::PARALLEL_FROM, sample_every = None, name = "python",
        float64 = false
    ))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        maps: Vec<PathBuf>,
        agents: usize,
        backend: &str,
        movement: &str,
        time_step: f64,
        crouch: bool,
        spread: f64,
        placement_seed: u64,
        jitter: f64,
        turn: &str,
        max_turn: f64,
        rays: usize,
        fov: f64,
        ray_pitch: f64,
        ray_range: f64,
        ray_distances: bool,
        goal: &str,
        reward: &str,
        radius: f64,
        arrival: f64,
        progress_scale: f64,
        max_steps: u64,
        threads: usize,
        parallel_from: usize,
        sample_every: Option<u64>,
        name: &str,
        float64: bool,
    ) -> PyResult<Core> {
        let backend = backend
            .parse()
            .map_err(|e: cspace_sim::UnknownBackend| error(e.to_string()))?;
        let params = choose(
            "movement",
            movement,
            [
                ("cspace", cspace_sim::MoveParams::default()),
                ("quake3", cspace_sim::MoveParams::quake3()),
            ],
        )?;
        let turn = choose(
            "turn",
            turn,
            [
                ("relative", TurnMode::Relative),
                ("absolute", TurnMode::Absolute),
            ],
        )?;
        let goal = choose(
            "goal",
            goal,
            [
                ("none", GoalKind::None),
                ("spawn", GoalKind::Spawn),
                ("random", GoalKind::Random),
                ("given", GoalKind::Given),
            ],
        )?;
        let reward = choose(
            "reward",
            reward,
            [
                ("progress", RewardKind::Progress),
                ("sparse", RewardKind::Sparse),
            ],
        )?;
        let config = EnvConfig {
            maps,
            agents_per_world: agents,
            backend,
            params,
            dt: time_step,
            crouch,
            spread,
            placement_seed,
            jitter,
            turn,
            max_turn,
            rays: RayConfig {
                count: rays,
                fov,
                pitch: ray_pitch,
                range: ray_range,
                distances: ray_distances,
            },
            task: TaskConfig {
                goal,
                reward,
                radius,
                arrival,
                progress_scale,
                max_steps,
            },
            threads,
            parallel_from,
            sample_every,
            name: name.to_string(),
        };
        let batch = py.detach(|| Batch::new(config)).map_err(error)?;
        let n = batch.len();
        let buffers = if float64 {
            Buffers::F64(Arrays::new(py, n, rays))
        } else {
            Buffers::F32(Arrays::new(py, n, rays))
        };
        let core = Core {
            batch: Mutex::new(batch),
            calls: 0.into(),
            call_nanos: 0.into(),
            buffers,
            rewards: PyArray1::zeros(py, n, false).unbind(),
            terminated: PyArray1::zeros(py, n, false).unbind(),
            truncated: PyArray1::zeros(py, n, false).unbind(),
        };
        {
            let mut batch = core.lock();
            with_obs!(core, py, |obs| batch.write_observations(None, obs));
        }
        Ok(core)
    }

    /// Agents in all.
    #[getter]
    fn num_agents(&self) -> usize {
        self.lock().len()
    }

    /// Worlds.
    #[getter]
    fn num_worlds(&self) -> usize {
        self.lock().worlds()
    }

    /// The observation arrays by name (the same arrays after every call).
    fn observations<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        match &self.buffers {
            Buffers::F64(a) => a.dict(py),
            Buffers::F32(a) => a.dict(py),
        }
    }

    /// The rewards, terminated and truncated arrays (the same arrays after every call).
    fn results<'py>(&self, py: Python<'py>) -> Results<'py> {
        (
            self.rewards.bind(py).clone(),
            self.terminated.bind(py).clone(),
            self.truncated.bind(py).clone(),
        )
    }

    /// A full reset under `seed` (every world's simulation anew), or, with `mask`, a reset of
    /// the masked agents where they are (their streams started again from `seed` if given).
    #[pyo3(signature = (seed = None, mask = None))]
    fn reset(
        &self,
        py: Python<'_>,
        seed: Option<u64>,
        mask: Option<PyReadonlyArrayDyn<'_, bool>>,
    ) -> PyResult<()> {
        let mut batch = self.lock();
        let mask = mask_of("reset_mask", mask, batch.len())?;
        let batch = &mut *batch;
        match &mask {
            None => {
                let seed = seed.unwrap_or(batch.seed());
                py.detach(|| batch.reset(seed)).map_err(error)?;
            }
            Some(mask) => py
                .detach(|| batch.reset_agents(mask, seed))
                .map_err(error)?,
        }
        with_obs!(self, py, |obs| batch
            .write_observations(mask.as_deref(), obs));
        Ok(())
    }

    /// One step: `moves` (N, 2) forward and strafe, `turns` (N, 2) yaw and pitch, `jumps` and
    /// `crouches` (N,) 0 or 1, all float64; `resetting` (N,) the agents reset instead of
    /// stepped (next-step autoreset). Every action is checked before anything moves.
    #[pyo3(signature = (moves, turns, jumps, crouches, resetting = None))]
    fn step(
        &self,
        py: Python<'_>,
        moves: PyReadonlyArrayDyn<'_, f64>,
        turns: PyReadonlyArrayDyn<'_, f64>,
        jumps: PyReadonlyArrayDyn<'_, f64>,
        crouches: PyReadonlyArrayDyn<'_, f64>,
        resetting: Option<PyReadonlyArrayDyn<'_, bool>>,
    ) -> PyResult<()> {
        let clock = std::time::Instant::now();
        let mut batch = self.lock();
        let n = batch.len();
        let actions = Actions {
            moves: slice_of("move", &moves, &[n, 2])?,
            turns: slice_of("turn", &turns, &[n, 2])?,
            jumps: slice_of("jump", &jumps, &[n])?,
            crouches: slice_of("crouch", &crouches, &[n])?,
        };
        let actions: Vec<Action> = batch
            .read_actions(&actions)
            .map_err(|e| ActionError::new_err(e.0))?;
        let resetting = mask_of("resetting", resetting, n)?;
        let mut rewards = self.rewards.bind(py).readwrite();
        let mut terminated = self.terminated.bind(py).readwrite();
        let mut truncated = self.truncated.bind(py).readwrite();
        let contiguous = "allocated contiguous by the core";
        let mut out = StepSlices {
            rewards: rewards.as_slice_mut().expect(contiguous),
            terminated: terminated.as_slice_mut().expect(contiguous),
            truncated: truncated.as_slice_mut().expect(contiguous),
        };
        let batch = &mut *batch;
        let resetting = resetting.as_deref();
        let out = &mut out;
        let actions = &actions;
        let stepped = with_obs!(self, py, |obs| py
            .detach(|| batch.step(actions, resetting, obs, out)))
        .map_err(error);
        use std::sync::atomic::Ordering::Relaxed;
        self.calls.fetch_add(1, Relaxed);
        self.call_nanos
            .fetch_add(clock.elapsed().as_nanos() as u64, Relaxed);
        stepped
    }

    /// Where the time went (nanoseconds since the core was made): `steps` (step calls),
    /// `step_nanos` (in Rust, from each call's arrival to its return: checks, intents, the
    /// simulations, observations), `sim_nanos` (the simulations' steps, summed over worlds) and
    /// `ray_nanos` (the depth rays). A caller's wall time per step minus `step_nanos` per step is
    /// the Python side's share.
    fn timings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        use std::sync::atomic::Ordering::Relaxed;
        let t = self.lock().timings();
        let d = PyDict::new(py);
        d.set_item("steps", self.calls.load(Relaxed))?;
        d.set_item("step_nanos", self.call_nanos.load(Relaxed))?;
        d.set_item("sim_nanos", t.sim_nanos)?;
        d.set_item("ray_nanos", t.ray_nanos)?;
        Ok(d)
    }

    /// Sets goals (N, 3) float64 for the agents of `mask` (all without one), and rewrites their
    /// observations.
    #[pyo3(signature = (goals, mask = None))]
    fn set_goals(
        &self,
        py: Python<'_>,
        goals: PyReadonlyArrayDyn<'_, f64>,
        mask: Option<PyReadonlyArrayDyn<'_, bool>>,
    ) -> PyResult<()> {
        let mut batch = self.lock();
        let n = batch.len();
        if goals.shape() != [n, 3] {
            return Err(error(format!(
                "goals: expected shape [{n}, 3], got {:?}",
                goals.shape()
            )));
        }
        let values = goals
            .as_slice()
            .map_err(|_| error("goals: the array must be contiguous"))?;
        let mask = mask_of("mask", mask, n)?;
        batch.set_goals(values, mask.as_deref()).map_err(error)?;
        let batch = &mut *batch;
        with_obs!(self, py, |obs| batch
            .write_observations(mask.as_deref(), obs));
        Ok(())
    }

    /// Every agent's goal, world coordinates (N, 3); NaN where the task has none.
    fn goals<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let batch = self.lock();
        let goals = batch.goals();
        PyArray1::from_vec(py, goals).reshape([batch.len(), 3])
    }

    /// Each agent's steps in its episode.
    fn episode_steps<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<u64>> {
        PyArray1::from_vec(py, self.lock().episode_steps())
    }

    /// Each world's state fingerprint (`Sim::state_hash`, what `sim` prints as `end_state`).
    fn state_hashes(&self) -> Vec<u64> {
        self.lock().state_hashes()
    }

    /// Steps since the last full reset.
    #[getter]
    fn steps(&self) -> u64 {
        self.lock().steps()
    }

    /// World `world`'s spawn points (a list of (x, y, z)).
    fn spawns(&self, world: usize) -> PyResult<Vec<(f64, f64, f64)>> {
        let batch = self.lock();
        if world >= batch.worlds() {
            return Err(error(format!("no world {world} (of {})", batch.worlds())));
        }
        Ok(batch
            .spawns(world)
            .iter()
            .map(|p| (p.x, p.y, p.z))
            .collect())
    }

    /// The trace text of world `world`'s run since the last full reset (`docs/trace-format.md`).
    fn trace(&self, world: usize) -> PyResult<String> {
        let mut batch = self.lock();
        Ok(batch.record(world).map_err(error)?.text())
    }

    /// A scenario replaying world `world`'s run since the last full reset.
    fn replay_scenario(&self, world: usize) -> PyResult<String> {
        self.lock().replay_scenario(world).map_err(error)
    }

    /// The depth rays' segments from an eye with a view, for tests: a list of
    /// ((x0, y0, z0), (x1, y1, z1)).
    fn ray_segments(&self, eye: (f64, f64, f64), yaw: f64, pitch: f64) -> Vec<(Point, Point)> {
        let batch = self.lock();
        let eye = cspace_geom::DVec3::new(eye.0, eye.1, eye.2);
        batch
            .fan()
            .segments(eye, &crate::view::Facing::new(yaw, pitch))
            .into_iter()
            .map(|(a, b)| ((a.x, a.y, a.z), (b.x, b.y, b.z)))
            .collect()
    }
}
