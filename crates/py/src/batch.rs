//! The batch: N agents in one or several worlds, each world one [`Sim`] driven step by step
//! through `set_intent` (the simulator's one input path, as scripts and sweeps drive it), with
//! the observations, rewards and episode ends written into caller-owned slices. No Python here:
//! `core.rs` hands it the NumPy arrays' memory and releases the GIL around it.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use cspace_geom::generate::Rng;
use cspace_geom::{Collider, DVec3, ExactCollider, QueryContext, Shape, World};
use cspace_nav::{LineOfSight, NavContext, NavMesh};
use cspace_scenario::sweep::{generator, jittered_start};
use cspace_scenario::trace::{Header, RunRecord};
use cspace_sim::navigation::{NavOptions, PlanPose, nav_params};
use cspace_sim::{
    AgentId, AgentSpec, AgentState, Intent, Pose, Recording, Sim, SimConfig, SimError, View,
};
use rayon::prelude::*;

use crate::config::{
    CROUCHING_EYE, EnvConfig, GoalKind, MAX_PITCH, RewardKind, STANDING_EYE, TurnMode,
};
use crate::rays::Fan;
use crate::real::Real;
use crate::replay::{Replay, StepIntent};
use crate::view::Facing;

/// The streams of an agent's generator (the sweep's rule, [`generator`]): 0 and 1 are a sweep's
/// starts and headings; an environment draws its resets' starts and its goals from its own.
const RESET_STREAM: u8 = 2;
/// The goals' stream.
const GOAL_STREAM: u8 = 3;

/// One agent's actions for one step, read from the caller's arrays and checked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Action {
    /// Forward (positive) or back, in [-1, 1] of the walk speed.
    pub forward: f64,
    /// Right (positive) or left, in [-1, 1].
    pub strafe: f64,
    /// Yaw: degrees to turn left (relative) or the yaw itself (absolute).
    pub yaw: f64,
    /// Pitch: degrees to look further down (relative) or the pitch itself (absolute).
    pub pitch: f64,
    /// Jump at the first step on walkable ground from now on.
    pub jump: bool,
    /// Crouch (false: stand up when the standing box fits).
    pub crouch: bool,
}

/// The actions of a step as the caller's arrays hold them: `moves` and `turns` two numbers per
/// agent, `jumps` and `crouches` one (0 or 1).
#[derive(Debug, Clone, Copy)]
pub struct Actions<'a> {
    /// Forward and strafe.
    pub moves: &'a [f64],
    /// Yaw and pitch.
    pub turns: &'a [f64],
    /// Jump.
    pub jumps: &'a [f64],
    /// Crouch.
    pub crouches: &'a [f64],
}

/// An action the batch refuses: which agent, which value, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct ActionError(pub String);

/// The observation arrays, row-major, one row per agent: what `reset` and `step` write.
#[derive(Debug)]
pub struct ObsSlices<'a, T> {
    /// Origin, units (3 per agent).
    pub position: &'a mut [T],
    /// Velocity, units/s (3).
    pub velocity: &'a mut [T],
    /// View yaw and pitch, degrees (2).
    pub view: &'a mut [T],
    /// On walkable ground: 1 or 0.
    pub on_ground: &'a mut [T],
    /// Crouching: 1 or 0.
    pub crouched: &'a mut [T],
    /// The goal from the agent: forward, left and up of its view's yaw, units (3).
    pub goal: &'a mut [T],
    /// The depth rays (`rays.count`).
    pub depth: &'a mut [T],
}

/// The step's results beside the observations.
#[derive(Debug)]
pub struct StepSlices<'a> {
    /// Rewards.
    pub rewards: &'a mut [f64],
    /// Episodes that ended in the task's terms (arrived, or left the world).
    pub terminated: &'a mut [bool],
    /// Episodes cut by the step limit.
    pub truncated: &'a mut [bool],
}

/// What the batch keeps of one agent beyond the simulation.
#[derive(Debug, Clone)]
struct Agent {
    /// Its simulation id.
    id: AgentId,
    /// Where it was placed (resets start near it).
    placed: DVec3,
    /// The view.
    view: Facing,
    /// The goal, if the task has one.
    goal: Option<DVec3>,
    /// The distance to the goal after the last step (progress rewards).
    distance: f64,
    /// Steps in this episode.
    steps: u64,
    /// Its generators of starts and goals.
    starts: Rng,
    goals: Rng,
}

/// Random walkable points (the navigation graph's standing areas).
#[derive(Debug)]
struct Walkable {
    mesh: NavMesh,
    /// The standing pose's areas.
    areas: Vec<u32>,
}

/// What the worlds of one map share: built once per distinct path.
#[derive(Clone)]
struct Shared {
    path: PathBuf,
    world: Arc<World>,
    spawns: Vec<DVec3>,
    collider: Arc<dyn Collider>,
    sight: Option<Arc<LineOfSight>>,
    walkable: Option<Arc<Walkable>>,
    placed: Vec<DVec3>,
}

/// One world and its crowd.
struct WorldRun {
    shared: Shared,
    sim: Sim,
    agents: Vec<Agent>,
    /// Every step's intents since the last full reset, when recording.
    replay: Option<Replay>,
    nav: NavContext,
    queries: QueryContext,
    /// The agents' states after the last step (reused).
    states: Vec<AgentState>,
    /// Nanoseconds in the simulation's steps, and in the depth rays.
    sim_nanos: u64,
    ray_nanos: u64,
}

/// Where a batch's time goes, nanoseconds summed since it was made (over the worlds, so on
/// several threads the sum of their times).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Timings {
    /// In the simulations' steps (`Sim::step`).
    pub sim_nanos: u64,
    /// In the depth rays.
    pub ray_nanos: u64,
}

/// N agents in W worlds, stepped together.
pub struct Batch {
    config: EnvConfig,
    standing: Shape,
    crouching: Option<Shape>,
    worlds: Vec<WorldRun>,
    /// The pool of `threads` threads; `None` for one thread, which steps on the calling thread
    /// (handing each step to a pool thread costs a wake-up, milliseconds on a busy machine).
    pool: Option<rayon::ThreadPool>,
    /// The depth rays' fan.
    fan: Fan,
    /// The seed of the last full reset.
    seed: u64,
    /// The timings of worlds made anew by full resets.
    timings: Timings,
}

impl std::fmt::Debug for Batch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Batch")
            .field("worlds", &self.worlds.len())
            .field("agents", &self.len())
            .finish()
    }
}

/// Quake's player boxes: standing, and crouching (the same box 16 units lower on top).
fn player() -> (Shape, Shape) {
    let standing = cspace_scenario::bench::player();
    let crouching = Shape::new_box(
        DVec3::new(-16.0, -16.0, -24.0),
        DVec3::new(16.0, 16.0, 16.0),
    )
    .expect("a valid box");
    (standing, crouching)
}

/// Runs `f` in `pool` (its threads run the worlds, the interaction groups and the rays), or on
/// the calling thread without one.
fn in_pool<R: Send>(pool: Option<&rayon::ThreadPool>, f: impl FnOnce() -> R + Send) -> R {
    match pool {
        Some(pool) => pool.install(f),
        None => f(),
    }
}

/// `slice` cut into `n` consecutive parts of `size` (empty parts when `size` is 0).
fn split<U>(slice: &mut [U], size: usize, n: usize) -> std::vec::IntoIter<&mut [U]> {
    if size == 0 {
        (0..n).map(|_| &mut [][..]).collect::<Vec<_>>().into_iter()
    } else {
        slice.chunks_mut(size).collect::<Vec<_>>().into_iter()
    }
}

impl Batch {
    /// Loads the worlds, builds their backends (once per distinct map), places the crowds and
    /// settles them (the first reset, seed 0).
    pub fn new(config: EnvConfig) -> Result<Batch, String> {
        config.validate()?;
        config
            .params
            .validate()
            .map_err(|e| format!("movement: {e}"))?;
        let (standing, crouching) = player();
        let crouching = config.crouch.then_some(crouching);
        let spec = AgentSpec {
            crouching: crouching.clone(),
            ..AgentSpec::new(standing.clone(), DVec3::ZERO)
        };
        let shapes = spec.shapes(&config.params);
        let mut shared: Vec<Shared> = Vec::new();
        for path in &config.maps {
            if let Some(s) = shared.iter().find(|s| s.path == *path) {
                shared.push(s.clone());
                continue;
            }
            shared.push(Self::build_world(&config, path, &standing, &shapes)?);
        }
        let pool = (config.threads > 1)
            .then(|| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(config.threads)
                    .thread_name(|i| format!("cspace-{i}"))
                    .build()
                    .map_err(|e| format!("threads: {e}"))
            })
            .transpose()?;
        let mut batch = Batch {
            worlds: Vec::new(),
            standing,
            crouching,
            pool,
            seed: 0,
            fan: Fan::new(&config.rays),
            timings: Timings::default(),
            config,
        };
        batch.worlds = shared
            .into_iter()
            .enumerate()
            .map(|(w, s)| batch.world_run(s, w, 0))
            .collect::<Result<_, _>>()?;
        Ok(batch)
    }

    fn build_world(
        config: &EnvConfig,
        path: &Path,
        standing: &Shape,
        shapes: &[Shape],
    ) -> Result<Shared, String> {
        let loaded = cspace_scenario::load_world(path).map_err(|e| e.to_string())?;
        let name = path.display().to_string();
        let world = loaded.world;
        let spawns = loaded.spawns;
        let collider = config
            .backend
            .build_for(&world, shapes)
            .map_err(|e| format!("{name}: {e}"))?
            .ok_or_else(|| {
                format!(
                    "{name}: the {} backend cannot trace the agents' shapes",
                    config.backend.name()
                )
            })?;
        let anchors = if spawns.is_empty() {
            // A world without spawn points: its centre, on top.
            let b = world.bounds();
            vec![DVec3::new(
                0.5 * (b.min.x + b.max.x),
                0.5 * (b.min.y + b.max.y),
                b.max.z + 24.0,
            )]
        } else {
            spawns.clone()
        };
        let placed: Vec<DVec3> = cspace_scenario::bench::place(
            &world,
            &anchors,
            &[(standing.clone(), None)],
            config.agents_per_world,
            config.spread,
            0.0,
            config.placement_seed,
        )
        .into_iter()
        .map(|a| a.spec.start)
        .collect();
        if placed.len() < config.agents_per_world {
            return Err(format!(
                "{name}: only {} free places for {} agents within {} units of its spawn points \
                 (a larger spread, or fewer agents)",
                placed.len(),
                config.agents_per_world,
                config.spread
            ));
        }
        let sight = (config.rays.count > 0)
            .then(|| cspace_sim::navigation::line_of_sight(&world, &name).map(Arc::new))
            .transpose()
            .map_err(|e| e.to_string())?;
        let walkable = (config.task.goal == GoalKind::Random)
            .then(|| {
                let options = NavOptions {
                    fill_outside: (!spawns.is_empty()).then(|| spawns.clone()),
                    params: nav_params(&config.params),
                };
                let nav =
                    cspace_sim::navigation::build(&world, &name, &[PlanPose::stand()], &options)
                        .map_err(|e| e.to_string())?;
                let areas: Vec<u32> = (0..nav.mesh.areas().len() as u32)
                    .filter(|&a| nav.mesh.areas()[a as usize].pose == 0)
                    .collect();
                if areas.is_empty() {
                    return Err(format!(
                        "{name}: the navigation graph has no walkable area for random goals"
                    ));
                }
                Ok(Arc::new(Walkable {
                    mesh: nav.mesh,
                    areas,
                }))
            })
            .transpose()?;
        if config.task.goal == GoalKind::Spawn && spawns.is_empty() {
            return Err(format!("{name}: no spawn points to draw goals from"));
        }
        Ok(Shared {
            path: path.to_path_buf(),
            world,
            spawns,
            collider,
            sight,
            walkable,
            placed,
        })
    }

    /// A fresh simulation of `shared`'s crowd (world `w`), reset under `seed`.
    fn world_run(&self, shared: Shared, w: usize, seed: u64) -> Result<WorldRun, String> {
        let config = &self.config;
        let sim_config = SimConfig {
            params: config.params,
            dt: config.dt,
            recording: match config.sample_every {
                Some(every) => Recording::Sampled { every },
                None => Recording::Off,
            },
            // One thread steps in order on the calling thread: without a pool of ours, rayon's
            // global pool would lend the groups its threads (the same answers either way).
            parallel_from: if config.threads > 1 {
                config.parallel_from
            } else {
                usize::MAX
            },
            ..SimConfig::default()
        };
        let sim = Sim::new(shared.collider.clone(), sim_config).map_err(|e| e.to_string())?;
        let mut run = WorldRun {
            sim,
            agents: Vec::with_capacity(shared.placed.len()),
            replay: config.sample_every.map(|_| Replay::default()),
            nav: NavContext::new(),
            queries: QueryContext::new(),
            states: Vec::new(),
            sim_nanos: 0,
            ray_nanos: 0,
            shared,
        };
        self.spawn_crowd(&mut run, w, seed)?;
        Ok(run)
    }

    /// Spawns the crowd of world `w`'s fresh simulation at its starts for `seed` and settles
    /// it. Agent `i` of the batch (world by world) draws from `generator(seed, i, stream)`.
    fn spawn_crowd(&self, run: &mut WorldRun, w: usize, seed: u64) -> Result<(), String> {
        let base = (w * self.config.agents_per_world) as u32;
        let exact = ExactCollider::new(run.shared.world.clone());
        let prepared = exact
            .prepare(&self.standing)
            .expect("the exact backend takes every agent shape");
        for (k, &placed) in run.shared.placed.clone().iter().enumerate() {
            let global = base + k as u32;
            let mut agent = Agent {
                id: AgentId(0),
                placed,
                view: Facing::new(0.0, 0.0),
                goal: None,
                distance: 0.0,
                steps: 0,
                starts: generator(seed, global, RESET_STREAM),
                goals: generator(seed, global, GOAL_STREAM),
            };
            let start = draw_start(
                &self.config,
                &exact,
                &prepared,
                &mut run.queries,
                &mut agent,
            );
            let spec = AgentSpec {
                crouching: self.crouching.clone(),
                ..AgentSpec::new(self.standing.clone(), start)
            };
            agent.id = run.sim.spawn(spec).map_err(|e| e.to_string())?;
            if let Some(replay) = &mut run.replay {
                replay.starts.push(start);
            }
            agent.view = Facing::new(draw_yaw(&mut agent), 0.0);
            agent.goal = draw_goal(&self.config, &run.shared, &mut agent);
            run.agents.push(agent);
        }
        run.sim.settle();
        for agent in &mut run.agents {
            let state = run.sim.agent(agent.id).expect("a spawned agent");
            agent.distance = agent.goal.map_or(0.0, |g| g.distance(state.position));
        }
        Ok(())
    }

    /// Agents in all.
    pub fn len(&self) -> usize {
        self.worlds.len() * self.config.agents_per_world
    }

    /// The depth rays' fan.
    pub fn fan(&self) -> &Fan {
        &self.fan
    }

    /// Worlds.
    pub fn worlds(&self) -> usize {
        self.worlds.len()
    }

    /// A full reset: every world's simulation made anew (step 0, its recording restarted), every
    /// agent at a start drawn under `seed` (the sweep's rule: agent `i`'s generators are seeded
    /// with `seed`, `i` and a stream), settled.
    pub fn reset(&mut self, seed: u64) -> Result<(), String> {
        self.seed = seed;
        let worlds = std::mem::take(&mut self.worlds);
        for (w, run) in worlds.into_iter().enumerate() {
            self.timings.sim_nanos += run.sim_nanos;
            self.timings.ray_nanos += run.ray_nanos;
            let run = self.world_run(run.shared, w, seed)?;
            self.worlds.push(run);
        }
        Ok(())
    }

    /// The seed of the last full reset.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Resets the agents whose `mask` entry is true, where they are: each teleported to its
    /// next start (its own place moved by its start stream) at rest, standing (when it fits),
    /// with its next goal. With `seed`, their streams start again from it. Their episodes
    /// start over; the simulation goes on (a recording can no longer be replayed as a
    /// scenario).
    pub fn reset_agents(&mut self, mask: &[bool], seed: Option<u64>) -> Result<(), String> {
        assert_eq!(mask.len(), self.len(), "one mask entry per agent");
        let per = self.config.agents_per_world;
        for w in 0..self.worlds.len() {
            let rows = &mask[w * per..(w + 1) * per];
            if !rows.iter().any(|&m| m) {
                continue;
            }
            let config = &self.config;
            let run = &mut self.worlds[w];
            let exact = ExactCollider::new(run.shared.world.clone());
            let prepared = exact
                .prepare(&self.standing)
                .expect("the exact backend takes every agent shape");
            for (k, _) in rows.iter().enumerate().filter(|(_, m)| **m) {
                let global = (w * per + k) as u32;
                let mut agent = run.agents[k].clone();
                if let Some(seed) = seed {
                    agent.starts = generator(seed, global, RESET_STREAM);
                    agent.goals = generator(seed, global, GOAL_STREAM);
                }
                // The start is free for the standing box; a crouching agent fits there too.
                let start = draw_start(config, &exact, &prepared, &mut run.queries, &mut agent);
                run.sim
                    .teleport(agent.id, start, DVec3::ZERO)
                    .map_err(|e| e.to_string())?;
                // At rest, standing up as soon as it fits.
                run.sim
                    .set_intent(agent.id, Intent::default())
                    .map_err(|e| e.to_string())?;
                agent.view = Facing::new(draw_yaw(&mut agent), 0.0);
                agent.steps = 0;
                agent.goal = draw_goal(config, &run.shared, &mut agent);
                run.agents[k] = agent;
                if let Some(replay) = &mut run.replay {
                    replay.replayable = false;
                }
            }
            run.sim.settle();
            for agent in &mut run.agents {
                let state = run.sim.agent(agent.id).expect("a live agent");
                agent.distance = agent.goal.map_or(0.0, |g| g.distance(state.position));
            }
        }
        Ok(())
    }

    /// Sets the goals of the agents whose `mask` entry is true (`goals`: 3 numbers per agent).
    pub fn set_goals(&mut self, goals: &[f64], mask: Option<&[bool]>) -> Result<(), String> {
        if goals.len() != 3 * self.len() {
            return Err(format!(
                "goals must hold 3 numbers per agent ({} agents), got {}",
                self.len(),
                goals.len()
            ));
        }
        let per = self.config.agents_per_world;
        for (i, g) in goals.chunks(3).enumerate() {
            if mask.is_some_and(|m| !m[i]) {
                continue;
            }
            let goal = DVec3::new(g[0], g[1], g[2]);
            cspace_geom::domain::check_point(cspace_geom::domain::Quantity::Coordinate, goal)
                .map_err(|e| format!("goal of agent {i}: {e}"))?;
            let run = &mut self.worlds[i / per];
            let agent = &mut run.agents[i % per];
            agent.goal = Some(goal);
            let state = run.sim.agent(agent.id).map_err(|e| e.to_string())?;
            agent.distance = goal.distance(state.position);
        }
        Ok(())
    }

    /// Checks the step's actions, every one, before any is applied: the arrays' lengths, every
    /// number finite, moves within [-1, 1], turns within the largest turn (or, absolute, yaw
    /// within [-180, 180] and pitch within the steepest), jumps and crouches 0 or 1.
    pub fn read_actions(&self, actions: &Actions<'_>) -> Result<Vec<Action>, ActionError> {
        let n = self.len();
        for (name, slice, per) in [
            ("move", actions.moves, 2),
            ("turn", actions.turns, 2),
            ("jump", actions.jumps, 1),
            ("crouch", actions.crouches, 1),
        ] {
            if slice.len() != n * per {
                return Err(ActionError(format!(
                    "{name} actions: expected {} numbers ({n} agents x {per}), got {}",
                    n * per,
                    slice.len()
                )));
            }
        }
        let (turn_lo, turn_hi, pitch_limit) = match self.config.turn {
            TurnMode::Relative => (
                -self.config.max_turn,
                self.config.max_turn,
                self.config.max_turn,
            ),
            TurnMode::Absolute => (-180.0, 180.0, MAX_PITCH),
        };
        let mut out = Vec::with_capacity(n);
        for i in 0..n {
            let check = |name: &str, value: f64, lo: f64, hi: f64| {
                if value.is_finite() && (lo..=hi).contains(&value) {
                    Ok(value)
                } else {
                    Err(ActionError(format!(
                        "agent {i}: {name} {value} is not within [{lo}, {hi}]"
                    )))
                }
            };
            let flag = |name: &str, value: f64| {
                if value == 0.0 || value == 1.0 {
                    Ok(value == 1.0)
                } else {
                    Err(ActionError(format!(
                        "agent {i}: {name} {value} is not 0 or 1"
                    )))
                }
            };
            out.push(Action {
                forward: check("move forward", actions.moves[2 * i], -1.0, 1.0)?,
                strafe: check("move strafe", actions.moves[2 * i + 1], -1.0, 1.0)?,
                yaw: check("turn yaw", actions.turns[2 * i], turn_lo, turn_hi)?,
                pitch: check(
                    "turn pitch",
                    actions.turns[2 * i + 1],
                    -pitch_limit,
                    pitch_limit,
                )?,
                jump: flag("jump", actions.jumps[i])?,
                crouch: flag("crouch", actions.crouches[i])?,
            });
        }
        Ok(out)
    }

    /// One step of every world: each agent's action becomes its intent (the agents of `resetting`
    /// stand still and are reset after the step: the next-step autoreset), the simulations step
    /// (the worlds in parallel, and a world's interaction groups), and the observations, rewards
    /// and episode ends are written.
    pub fn step<T: Real>(
        &mut self,
        actions: &[Action],
        resetting: Option<&[bool]>,
        obs: &mut ObsSlices<'_, T>,
        out: &mut StepSlices<'_>,
    ) -> Result<(), String> {
        assert_eq!(actions.len(), self.len(), "one action per agent");
        let per = self.config.agents_per_world;
        let rays = self.config.rays.count;
        let config = &self.config;
        let fan = &self.fan;
        let no_reset = vec![false; self.len()];
        let resetting = resetting.unwrap_or(&no_reset);
        let n = self.worlds.len();
        let mut position = split(&mut *obs.position, 3 * per, n);
        let mut velocity = split(&mut *obs.velocity, 3 * per, n);
        let mut view = split(&mut *obs.view, 2 * per, n);
        let mut on_ground = split(&mut *obs.on_ground, per, n);
        let mut crouched = split(&mut *obs.crouched, per, n);
        let mut goal = split(&mut *obs.goal, 3 * per, n);
        let mut depth = split(&mut *obs.depth, rays * per, n);
        let mut rewards = split(&mut *out.rewards, per, n);
        let mut terminated = split(&mut *out.terminated, per, n);
        let mut truncated = split(&mut *out.truncated, per, n);
        let mut jobs = Vec::with_capacity(n);
        for ((run, acts), resets) in self
            .worlds
            .iter_mut()
            .zip(actions.chunks(per))
            .zip(resetting.chunks(per))
        {
            let one = "one part per world";
            let obs = ObsSlices {
                position: position.next().expect(one),
                velocity: velocity.next().expect(one),
                view: view.next().expect(one),
                on_ground: on_ground.next().expect(one),
                crouched: crouched.next().expect(one),
                goal: goal.next().expect(one),
                depth: depth.next().expect(one),
            };
            let out = StepSlices {
                rewards: rewards.next().expect("one per world"),
                terminated: terminated.next().expect("one per world"),
                truncated: truncated.next().expect("one per world"),
            };
            jobs.push((run, acts, resets, obs, out));
        }
        let step_one = |(run, acts, resets, obs, out): &mut (
            &mut WorldRun,
            &[Action],
            &[bool],
            ObsSlices<'_, T>,
            StepSlices<'_>,
        )| { step_world(config, fan, run, acts, resets, obs, out) };
        in_pool(self.pool.as_ref(), || {
            if jobs.len() == 1 {
                step_one(&mut jobs[0])
            } else {
                jobs.par_iter_mut()
                    .map(step_one)
                    .collect::<Result<(), String>>()
            }
        })?;
        if resetting.iter().any(|&r| r) {
            self.reset_agents(resetting, None)?;
            self.write_observations(Some(resetting), obs);
        }
        Ok(())
    }

    /// Writes the observations of every agent (or of those `rows` marks).
    pub fn write_observations<T: Real>(
        &mut self,
        rows: Option<&[bool]>,
        obs: &mut ObsSlices<'_, T>,
    ) {
        let per = self.config.agents_per_world;
        let config = &self.config;
        let pool = self.pool.as_ref();
        let fan = &self.fan;
        for (w, run) in self.worlds.iter_mut().enumerate() {
            let rays = config.rays.count;
            let mut world_obs = ObsSlices {
                position: &mut obs.position[3 * per * w..3 * per * (w + 1)],
                velocity: &mut obs.velocity[3 * per * w..3 * per * (w + 1)],
                view: &mut obs.view[2 * per * w..2 * per * (w + 1)],
                on_ground: &mut obs.on_ground[per * w..per * (w + 1)],
                crouched: &mut obs.crouched[per * w..per * (w + 1)],
                goal: &mut obs.goal[3 * per * w..3 * per * (w + 1)],
                depth: &mut obs.depth[rays * per * w..rays * per * (w + 1)],
            };
            let rows = rows.map(|r| &r[per * w..per * (w + 1)]);
            in_pool(pool, || {
                observe(config, fan, run, rows, None, &mut world_obs)
            });
        }
    }

    /// Where the time went since the batch was made (full resets keep counting).
    pub fn timings(&self) -> Timings {
        let mut t = self.timings;
        for w in &self.worlds {
            t.sim_nanos += w.sim_nanos;
            t.ray_nanos += w.ray_nanos;
        }
        t
    }

    /// Each world's state fingerprint ([`Sim::state_hash`]).
    pub fn state_hashes(&self) -> Vec<u64> {
        self.worlds.iter().map(|w| w.sim.state_hash()).collect()
    }

    /// Each world's steps since its last full reset.
    pub fn steps(&self) -> u64 {
        self.worlds.first().map_or(0, |w| w.sim.step_index())
    }

    /// Each agent's goal (3 numbers; NaN without one).
    pub fn goals(&self) -> Vec<f64> {
        self.worlds
            .iter()
            .flat_map(|w| w.agents.iter())
            .flat_map(|a| a.goal.map_or([f64::NAN; 3], |g| g.to_array()))
            .collect()
    }

    /// Each agent's steps in its episode.
    pub fn episode_steps(&self) -> Vec<u64> {
        self.worlds
            .iter()
            .flat_map(|w| w.agents.iter().map(|a| a.steps))
            .collect()
    }

    /// The spawn points of world `w`.
    pub fn spawns(&self, w: usize) -> &[DVec3] {
        &self.worlds[w].shared.spawns
    }

    /// The record of world `w`'s run since its last full reset (the trace format), named as the
    /// configuration says.
    pub fn record(&mut self, w: usize) -> Result<RunRecord, String> {
        let every = self.config.sample_every.ok_or_else(|| {
            "this environment does not record: make it with record=True".to_string()
        })?;
        let run = self
            .worlds
            .get_mut(w)
            .ok_or_else(|| format!("no world {w}"))?;
        run.sim.sample();
        let header = Header {
            scenario: self.config.name.clone(),
            backend: self.config.backend.name().to_string(),
            steps: run.sim.step_index(),
            time_step: self.config.dt,
            agents: run.agents.len(),
            sample_every: every,
        };
        Ok(RunRecord::of(header, &run.sim))
    }

    /// A scenario that replays world `w`'s run since its last full reset: its map, every
    /// agent's start and, every step, the intent the batch gave it. `sim run` on it ends on the
    /// same bits ([`Batch::state_hashes`]).
    pub fn replay_scenario(&self, w: usize) -> Result<String, String> {
        let run = self.worlds.get(w).ok_or_else(|| format!("no world {w}"))?;
        let replay = run.replay.as_ref().ok_or_else(|| {
            "this environment does not record: make it with record=True".to_string()
        })?;
        crate::replay::scenario_text(
            replay,
            &crate::replay::ReplayWorld {
                name: &self.config.name,
                map: &run.shared.path,
                dt: self.config.dt,
                steps: run.sim.step_index(),
                sample_every: self.config.sample_every.unwrap_or(1),
                backend: self.config.backend,
                params: &self.config.params,
                standing: &self.standing,
                crouching: self.crouching.as_ref(),
                starts: &replay.starts,
            },
        )
    }
}

/// The next start of `agent`: its place moved by up to the jitter (free for the standing
/// box, else its place).
fn draw_start(
    config: &EnvConfig,
    exact: &ExactCollider,
    prepared: &cspace_geom::Prepared,
    queries: &mut QueryContext,
    agent: &mut Agent,
) -> DVec3 {
    if config.jitter == 0.0 {
        return agent.placed;
    }
    let mut free = |p: DVec3| {
        cspace_geom::domain::check_point(cspace_geom::domain::Quantity::Coordinate, p).is_ok()
            && !exact.is_solid(queries, prepared, p)
    };
    jittered_start(agent.placed, config.jitter, &mut agent.starts, &mut free)
}

/// The view's yaw at a reset: drawn from the start stream, degrees in (-180, 180].
fn draw_yaw(agent: &mut Agent) -> f64 {
    agent.starts.range(-180.0, 180.0)
}

/// The next goal of `agent` from the task.
fn draw_goal(config: &EnvConfig, shared: &Shared, agent: &mut Agent) -> Option<DVec3> {
    match config.task.goal {
        GoalKind::None => None,
        GoalKind::Given => Some(agent.goal.unwrap_or(agent.placed)),
        GoalKind::Spawn => Some(shared.spawns[agent.goals.below(shared.spawns.len())]),
        GoalKind::Random => {
            let walkable = shared.walkable.as_ref().expect("built for random goals");
            let area = walkable.areas[agent.goals.below(walkable.areas.len())];
            let polygon = &walkable.mesh.areas()[area as usize].polygon;
            let v = &polygon.vertices;
            // A point of the floor: a vertex fan's triangle, then a point in it.
            let t = 1 + agent.goals.below(v.len().saturating_sub(2).max(1));
            let (a, b) = (agent.goals.next_f64(), agent.goals.next_f64());
            let (a, b) = if a + b > 1.0 {
                (1.0 - a, 1.0 - b)
            } else {
                (a, b)
            };
            let p = v[0] + (v[t] - v[0]) * a + (v[(t + 1).min(v.len() - 1)] - v[0]) * b;
            walkable
                .mesh
                .nearest_walkable(p, 0)
                .ok()
                .flatten()
                .map(|w| w.position)
                .or(Some(p))
        }
    }
}

/// One world's step: intents, the simulation's step, then what each agent observes and earns.
fn step_world<T: Real>(
    config: &EnvConfig,
    fan: &Fan,
    run: &mut WorldRun,
    actions: &[Action],
    resetting: &[bool],
    obs: &mut ObsSlices<'_, T>,
    out: &mut StepSlices<'_>,
) -> Result<(), String> {
    let walk = config.params.walk_speed;
    let mut intents = Vec::new();
    for (k, agent) in run.agents.iter_mut().enumerate() {
        let act = if resetting[k] {
            // Standing still, looking where it looks.
            let (yaw, pitch) = match config.turn {
                TurnMode::Absolute => (agent.view.yaw, agent.view.pitch),
                TurnMode::Relative => (0.0, 0.0),
            };
            Action {
                forward: 0.0,
                strafe: 0.0,
                yaw,
                pitch,
                jump: false,
                crouch: false,
            }
        } else {
            actions[k]
        };
        let turned = match config.turn {
            TurnMode::Relative => (agent.view.yaw + act.yaw, agent.view.pitch + act.pitch),
            TurnMode::Absolute => (act.yaw, act.pitch),
        };
        if turned != (agent.view.yaw, agent.view.pitch) {
            agent.view = Facing::new(turned.0, turned.1);
        }
        // Quake III's `PM_CmdScale`: the wish speed is the walk speed times the larger of the
        // two axes, so a diagonal is no faster than a straight move.
        let raw = agent.view.forward() * act.forward + agent.view.right() * act.strafe;
        let speed = walk * act.forward.abs().max(act.strafe.abs());
        let now = run.sim.intent(agent.id).map_err(|e| e.to_string())?;
        let intent = Intent {
            jump: now.jump || act.jump,
            crouch: act.crouch,
            view: View {
                yaw: agent.view.yaw,
                pitch: agent.view.pitch,
            },
            ..Intent::walk(raw, speed)
        };
        match run.sim.set_intent(agent.id, intent) {
            // An agent that left the world takes no intent (a script's events wait too).
            Err(SimError::LeftWorld { .. }) => continue,
            other => other.map_err(|e| e.to_string())?,
        }
        if run.replay.is_some() {
            intents.push(StepIntent {
                agent: k as u32,
                raw: [raw.x, raw.y],
                speed,
                jump: act.jump,
                crouch: act.crouch,
            });
        }
    }
    if let Some(replay) = &mut run.replay {
        replay.steps.push(intents);
    }
    let clock = std::time::Instant::now();
    run.sim.step();
    run.sim_nanos += clock.elapsed().as_nanos() as u64;
    let task = &config.task;
    // The agents were spawned in order and none is despawned: the states come in their order.
    run.sim.states_into(&mut run.states);
    let states = std::mem::take(&mut run.states);
    for (k, (agent, state)) in run.agents.iter_mut().zip(&states).enumerate() {
        agent.steps += 1;
        let left = run
            .sim
            .has_left_world(agent.id)
            .map_err(|e| e.to_string())?;
        let (reward, arrived) = match agent.goal {
            Some(goal) => {
                let distance = goal.distance(state.position);
                let arrived = distance <= task.radius;
                let progress = match task.reward {
                    RewardKind::Progress => (agent.distance - distance) * task.progress_scale,
                    RewardKind::Sparse => 0.0,
                };
                agent.distance = distance;
                (progress + if arrived { task.arrival } else { 0.0 }, arrived)
            }
            None => (0.0, false),
        };
        let terminated = arrived || left;
        out.rewards[k] = if resetting[k] { 0.0 } else { reward };
        out.terminated[k] = !resetting[k] && terminated;
        out.truncated[k] =
            !resetting[k] && !terminated && task.max_steps > 0 && agent.steps >= task.max_steps;
    }
    observe(config, fan, run, None, Some(&states), obs);
    run.states = states;
    Ok(())
}

/// Writes what each agent of `run` (or of those `rows` marks) observes.
fn observe<T: Real>(
    config: &EnvConfig,
    fan: &Fan,
    run: &mut WorldRun,
    rows: Option<&[bool]>,
    states: Option<&[AgentState]>,
    obs: &mut ObsSlices<'_, T>,
) {
    let mut eyes: Vec<(usize, DVec3, Facing)> = Vec::with_capacity(run.agents.len());
    let fetched: Vec<AgentState>;
    let states = match states {
        Some(states) => states,
        None => {
            fetched = {
                let mut all = Vec::with_capacity(run.agents.len());
                run.sim.states_into(&mut all);
                all
            };
            &fetched
        }
    };
    // The agents were spawned in order and none is despawned: the states come in their order.
    for (k, (agent, state)) in run.agents.iter().zip(states).enumerate() {
        debug_assert_eq!(agent.id, state.id);
        if rows.is_some_and(|r| !r[k]) {
            continue;
        }
        let put3 = |out: &mut [T], v: DVec3| {
            out[3 * k] = T::of(v.x);
            out[3 * k + 1] = T::of(v.y);
            out[3 * k + 2] = T::of(v.z);
        };
        put3(obs.position, state.position);
        put3(obs.velocity, state.velocity);
        obs.view[2 * k] = T::of(agent.view.yaw);
        obs.view[2 * k + 1] = T::of(agent.view.pitch);
        obs.on_ground[k] = T::of(if state.on_ground { 1.0 } else { 0.0 });
        let crouched = state.pose == Pose::Crouching;
        obs.crouched[k] = T::of(if crouched { 1.0 } else { 0.0 });
        let relative = agent
            .goal
            .map_or(DVec3::ZERO, |g| agent.view.local(g - state.position));
        put3(obs.goal, relative);
        let eye = if crouched {
            CROUCHING_EYE
        } else {
            STANDING_EYE
        };
        eyes.push((k, state.position + DVec3::Z * eye, agent.view));
    }
    if config.rays.count == 0 {
        return;
    }
    let clock = std::time::Instant::now();
    let sight = run
        .shared
        .sight
        .as_ref()
        .expect("built when rays are asked for");
    let count = config.rays.count;
    let depth = &mut *obs.depth;
    if config.threads > 1 && eyes.len() >= 64 && rows.is_none() {
        depth
            .par_chunks_mut(count)
            .zip(eyes.par_iter())
            .for_each_init(NavContext::new, |ctx, (out, (_, eye, view))| {
                fan.cast(sight, ctx, *eye, view, out)
            });
    } else {
        for (k, eye, view) in &eyes {
            let out = &mut depth[k * count..(k + 1) * count];
            fan.cast(sight, &mut run.nav, *eye, view, out);
        }
    }
    run.ray_nanos += clock.elapsed().as_nanos() as u64;
}
