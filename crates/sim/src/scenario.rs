//! Scenarios: a TOML file names a world, agent poses and agents with scripts, the time step and
//! the step count, movement constants, the backends to run, the comparison tolerance and the
//! expectations a run must meet.
//!
//! The file is read with serde (`deny_unknown_fields`) into raw structs that keep their byte
//! spans, then checked into a [`Scenario`]; every error names the file, line, column and field.
//! The format is documented, with an example, in `docs/scenario-format.md`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use cspace_contact::AgentId;
use cspace_geom::{Aabb, Collider, DVec3, ExactCollider, QueryContext, Shape};
use serde::Deserialize;
use toml::Spanned;

use crate::agent::{Action, AgentSpec, ScriptEvent};
use crate::backend::BackendKind;
use crate::location::LocatedError;
use crate::params::MoveParams;
use crate::world_file::{LoadedWorld, WorldSpec, load_spec};

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScenario {
    name: Spanned<String>,
    #[serde(default)]
    description: String,
    time_step: Spanned<f64>,
    steps: Spanned<i64>,
    #[serde(default)]
    sample_every: Option<Spanned<i64>>,
    #[serde(default)]
    backends: Option<Vec<Spanned<String>>>,
    #[serde(default)]
    tolerance: Option<Spanned<f64>>,
    #[serde(default)]
    expected_difference: Vec<Spanned<RawExpectedDifference>>,
    #[serde(default)]
    params: Option<Spanned<MoveParams>>,
    world: Spanned<WorldSpec>,
    #[serde(default)]
    poses: BTreeMap<String, Spanned<RawPose>>,
    #[serde(default, rename = "agent")]
    agents: Vec<Spanned<RawAgent>>,
    #[serde(default, rename = "crowd")]
    crowds: Vec<Spanned<RawCrowd>>,
    #[serde(default, rename = "expect")]
    expectations: Vec<Spanned<RawExpect>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpectedDifference {
    backends: Vec<Spanned<String>>,
    tolerance: Spanned<f64>,
    reason: String,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPose {
    #[serde(default, rename = "box")]
    aabb: Option<RawBox>,
    #[serde(default)]
    sphere: Option<f64>,
    #[serde(default)]
    cylinder: Option<RawCylinder>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBox {
    mins: [f64; 3],
    maxs: [f64; 3],
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCylinder {
    radius: f64,
    half_height: f64,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawAgent {
    #[serde(default)]
    name: Option<String>,
    pose: Spanned<String>,
    #[serde(default)]
    crouch_pose: Option<Spanned<String>>,
    #[serde(default)]
    start: Option<Spanned<[f64; 3]>>,
    #[serde(default)]
    spawn: Option<Spanned<i64>>,
    #[serde(default)]
    velocity: Option<Spanned<[f64; 3]>>,
    #[serde(default)]
    crouched: bool,
    #[serde(default)]
    allow_start_in_solid: bool,
    #[serde(default)]
    script: Vec<Spanned<RawScriptEvent>>,
}

/// A block of agents on a grid, all with the same pose and script.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCrowd {
    pose: Spanned<String>,
    #[serde(default)]
    crouch_pose: Option<Spanned<String>>,
    origin: Spanned<[f64; 3]>,
    rows: Spanned<i64>,
    columns: Spanned<i64>,
    spacing: Spanned<[f64; 2]>,
    #[serde(default)]
    script: Vec<Spanned<RawScriptEvent>>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScriptEvent {
    at: Spanned<f64>,
    #[serde(default, rename = "move")]
    direction: Option<Spanned<[f64; 2]>>,
    #[serde(default)]
    speed: Option<Spanned<f64>>,
    #[serde(default)]
    jump: bool,
    #[serde(default)]
    crouch: bool,
    #[serde(default)]
    stand: bool,
    #[serde(default)]
    stop: bool,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawAgentRef {
    Index(i64),
    Name(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRegion {
    min: [f64; 3],
    max: [f64; 3],
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum RawContactTarget {
    Agent(i64),
    Kind(String),
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawExpect {
    agent: Spanned<RawAgentRef>,
    #[serde(default)]
    reaches: Option<Spanned<RawRegion>>,
    #[serde(default)]
    by: Option<Spanned<f64>>,
    #[serde(default)]
    never_reaches: Option<Spanned<RawRegion>>,
    #[serde(default)]
    ends_on_ground: Option<bool>,
    #[serde(default)]
    stays_crouched: Option<bool>,
    #[serde(default)]
    from: Option<Spanned<f64>>,
    #[serde(default)]
    no_contacts_with: Option<Spanned<RawContactTarget>>,
}

/// Two backends known to differ on this scenario, by how much, and why.
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedDifference {
    /// The two backends.
    pub backends: [BackendKind; 2],
    /// The largest position difference allowed between them, units.
    pub tolerance: f64,
    /// Why they differ.
    pub reason: String,
}

/// What an agent must not touch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ContactFilter {
    /// Any world brush.
    World,
    /// Any agent.
    Agents,
    /// This agent.
    Agent(AgentId),
}

/// What a run must show.
#[derive(Debug, Clone, PartialEq)]
pub enum Check {
    /// The agent's origin is inside the region at some sample no later than `by` seconds.
    Reaches {
        /// The region.
        region: Aabb,
        /// The deadline, seconds.
        by: f64,
    },
    /// The agent's origin is never inside the region (at any sample).
    NeverReaches {
        /// The region.
        region: Aabb,
    },
    /// The agent ends on walkable ground.
    EndsOnGround,
    /// The agent is crouched in every sample from `from` seconds on.
    StaysCrouched {
        /// From when, seconds.
        from: f64,
    },
    /// The agent records no contact with these.
    NoContactsWith(ContactFilter),
}

/// One expectation: an agent and a check, with where it was written (`line:column`).
#[derive(Debug, Clone, PartialEq)]
pub struct Expectation {
    /// The agent.
    pub agent: AgentId,
    /// The check.
    pub check: Check,
    /// `file:line:column` of the `[[expect]]` table, for reports.
    pub written_at: String,
}

/// A checked scenario, ready to run.
#[derive(Debug, Clone)]
pub struct Scenario {
    /// The file it was read from.
    pub path: PathBuf,
    /// Its name.
    pub name: String,
    /// What it shows.
    pub description: String,
    /// Seconds per step.
    pub dt: f64,
    /// Steps to run.
    pub steps: u64,
    /// Trajectory sampling, in steps.
    pub sample_every: u64,
    /// The backends to run (every applicable one when the file names none).
    pub backends: Vec<BackendKind>,
    /// The backends not run, each with why (an agent shape it cannot trace, or the file's
    /// `backends` list leaving it out).
    pub left_out: Vec<(BackendKind, String)>,
    /// The largest position difference between two backends, units.
    pub tolerance: f64,
    /// Declared differences between particular backends.
    pub expected_differences: Vec<ExpectedDifference>,
    /// Movement constants.
    pub params: MoveParams,
    /// The world.
    pub world: LoadedWorld,
    /// The agents, ids 0, 1, 2, ...
    pub agents: Vec<AgentSpec>,
    /// The agents' names (their index when unnamed).
    pub agent_names: Vec<String>,
    /// The expectations.
    pub expectations: Vec<Expectation>,
}

/// Default comparison tolerance between backends, units.
pub const DEFAULT_TOLERANCE: f64 = 1e-3;

impl Scenario {
    /// Reads and checks a scenario file.
    pub fn load(path: &Path) -> anyhow::Result<Scenario> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| anyhow::anyhow!("{}: cannot read scenario: {e}", path.display()))?;
        Scenario::parse(path, &text)
    }

    /// Checks a scenario given its text (`path` locates errors and resolves the map).
    pub fn parse(path: &Path, text: &str) -> anyhow::Result<Scenario> {
        let raw: RawScenario =
            toml::from_str(text).map_err(|e| LocatedError::from_toml(path, text, &e))?;
        Checker { path, text }.check(raw)
    }

    /// The shapes every agent uses (standing and crouching), for preparing backends.
    pub fn shapes(&self) -> Vec<Shape> {
        let mut shapes: Vec<Shape> = Vec::new();
        for a in &self.agents {
            for s in std::iter::once(&a.standing).chain(a.crouching.as_ref()) {
                if !shapes.contains(s) {
                    shapes.push(s.clone());
                }
            }
        }
        shapes
    }

    /// Why `backend` cannot run this scenario: the first agent whose shape it cannot trace, by
    /// name and shape, and the backend's reason; `None` when it can run it.
    pub fn refusal(&self, backend: BackendKind) -> Option<String> {
        refusal(&self.agents, &self.agent_names, backend)
    }

    /// The tolerance between two backends: a declared expected difference, or the scenario's.
    pub fn tolerance_between(
        &self,
        a: BackendKind,
        b: BackendKind,
    ) -> (f64, Option<&ExpectedDifference>) {
        match self
            .expected_differences
            .iter()
            .find(|d| d.backends.contains(&a) && d.backends.contains(&b) && a != b)
        {
            Some(d) => (d.tolerance, Some(d)),
            None => (self.tolerance, None),
        }
    }
}

/// Why `backend` cannot trace one of `agents` (the first, by name and shape), or `None`.
fn refusal(agents: &[AgentSpec], names: &[String], backend: BackendKind) -> Option<String> {
    agents.iter().find_map(|a| {
        std::iter::once(&a.standing)
            .chain(a.crouching.as_ref())
            .find_map(|shape| {
                backend.refusal(shape).map(|why| {
                    format!(
                        "agent {:?} is {}: {why}",
                        names[a.id.0 as usize],
                        shape.describe()
                    )
                })
            })
    })
}

struct Checker<'a> {
    path: &'a Path,
    text: &'a str,
}

type Located<T> = Result<T, LocatedError>;

impl Checker<'_> {
    fn at(&self, offset: usize, message: impl Into<String>) -> LocatedError {
        LocatedError::at(self.path, self.text, offset, message)
    }

    fn err<T>(&self, offset: usize, message: impl Into<String>) -> Located<T> {
        Err(self.at(offset, message))
    }

    fn finite(&self, value: &Spanned<f64>, field: &str) -> Located<f64> {
        let v = *value.get_ref();
        if !v.is_finite() {
            return self.err(
                value.span().start,
                format!("{field} must be a finite number, got {v}"),
            );
        }
        Ok(v)
    }

    fn finite3(&self, value: &Spanned<[f64; 3]>, field: &str) -> Located<DVec3> {
        let v = DVec3::from_array(*value.get_ref());
        if !v.is_finite() {
            return self.err(
                value.span().start,
                format!("{field} must be finite numbers, got {v}"),
            );
        }
        Ok(v)
    }

    fn check(&self, raw: RawScenario) -> anyhow::Result<Scenario> {
        let name = raw.name.get_ref().trim().to_string();
        if name.is_empty() {
            return Err(self
                .at(raw.name.span().start, "name must not be empty")
                .into());
        }
        let dt = self.finite(&raw.time_step, "time_step")?;
        if dt <= 0.0 {
            return Err(self
                .at(
                    raw.time_step.span().start,
                    format!("time_step must be positive, got {dt}"),
                )
                .into());
        }
        let steps = *raw.steps.get_ref();
        if steps <= 0 {
            return Err(self
                .at(
                    raw.steps.span().start,
                    format!("steps must be positive, got {steps}"),
                )
                .into());
        }
        let sample_every = match &raw.sample_every {
            Some(s) if *s.get_ref() <= 0 => {
                return Err(self
                    .at(
                        s.span().start,
                        format!("sample_every must be positive, got {}", s.get_ref()),
                    )
                    .into());
            }
            Some(s) => *s.get_ref() as u64,
            None => 1,
        };
        let tolerance = match &raw.tolerance {
            Some(t) => {
                let v = self.finite(t, "tolerance")?;
                if v < 0.0 {
                    return Err(self
                        .at(
                            t.span().start,
                            format!("tolerance must not be negative, got {v}"),
                        )
                        .into());
                }
                v
            }
            None => DEFAULT_TOLERANCE,
        };
        let params = match &raw.params {
            Some(p) => {
                let params = *p.get_ref();
                params.validate().map_err(|e| {
                    LocatedError::at(self.path, self.text, p.span().start, format!("params: {e}"))
                })?;
                params
            }
            None => MoveParams::default(),
        };
        let world =
            load_spec(raw.world.get_ref(), self.path, self.text).map_err(|e| match e
                .downcast::<LocatedError>()
            {
                Ok(located) => anyhow::Error::new(located),
                Err(other) => other.context(format!("{}: in [world]", self.path.display())),
            })?;

        // Poses.
        let mut poses: BTreeMap<&str, Shape> = BTreeMap::new();
        for (name, pose) in &raw.poses {
            poses.insert(name, self.pose(name, pose)?);
        }
        let pose = |spanned: &Spanned<String>| -> Located<Shape> {
            match poses.get(spanned.get_ref().as_str()) {
                Some(s) => Ok(s.clone()),
                None => {
                    let known: Vec<&str> = poses.keys().copied().collect();
                    self.err(
                        spanned.span().start,
                        format!(
                            "unknown pose {:?}; the [poses] table defines: {}",
                            spanned.get_ref(),
                            if known.is_empty() {
                                "none".to_string()
                            } else {
                                known.join(", ")
                            }
                        ),
                    )
                }
            }
        };

        // Agents, then crowds.
        let mut agents = Vec::new();
        let mut agent_names = Vec::new();
        for raw_agent in &raw.agents {
            let a = raw_agent.get_ref();
            let id = AgentId(agents.len() as u32);
            let standing = pose(&a.pose)?;
            let crouching = a.crouch_pose.as_ref().map(pose).transpose()?;
            let start = match (&a.start, &a.spawn) {
                (Some(s), None) => self.finite3(s, "start")?,
                (None, Some(i)) => {
                    let index = *i.get_ref();
                    match usize::try_from(index)
                        .ok()
                        .and_then(|i| world.spawns.get(i))
                    {
                        Some(p) => *p,
                        None => {
                            return Err(self
                                .at(
                                    i.span().start,
                                    format!(
                                        "spawn {index}: the world has {} spawn points",
                                        world.spawns.len()
                                    ),
                                )
                                .into());
                        }
                    }
                }
                _ => {
                    return Err(self
                        .at(
                            raw_agent.span().start,
                            format!("agent {}: give either `start` or `spawn`", id.0),
                        )
                        .into());
                }
            };
            let velocity = a
                .velocity
                .as_ref()
                .map(|v| self.finite3(v, "velocity"))
                .transpose()?
                .unwrap_or(DVec3::ZERO);
            let script = self.script(&a.script, &params)?;
            let spec = AgentSpec {
                id,
                standing,
                crouching,
                start,
                velocity,
                start_crouched: a.crouched,
                script,
            };
            if !a.allow_start_in_solid {
                self.check_start(&world, &spec, raw_agent.span().start)?;
            }
            agent_names.push(a.name.clone().unwrap_or_else(|| id.0.to_string()));
            agents.push(spec);
        }
        for crowd in &raw.crowds {
            let c = crowd.get_ref();
            let standing = pose(&c.pose)?;
            let crouching = c.crouch_pose.as_ref().map(pose).transpose()?;
            let origin = self.finite3(&c.origin, "origin")?;
            let spacing = *c.spacing.get_ref();
            if !(spacing[0].is_finite() && spacing[1].is_finite()) {
                return Err(self
                    .at(c.spacing.span().start, "spacing must be finite numbers")
                    .into());
            }
            let (rows, columns) = (*c.rows.get_ref(), *c.columns.get_ref());
            if !(1..=1000).contains(&rows) || !(1..=1000).contains(&columns) {
                return Err(self
                    .at(
                        c.rows.span().start,
                        format!("rows and columns must be within 1..=1000, got {rows} x {columns}"),
                    )
                    .into());
            }
            let script = self.script(&c.script, &params)?;
            for r in 0..rows {
                for k in 0..columns {
                    let id = AgentId(agents.len() as u32);
                    let spec = AgentSpec {
                        id,
                        standing: standing.clone(),
                        crouching: crouching.clone(),
                        start: origin
                            + DVec3::new(k as f64 * spacing[0], r as f64 * spacing[1], 0.0),
                        velocity: DVec3::ZERO,
                        start_crouched: false,
                        script: script.clone(),
                    };
                    self.check_start(&world, &spec, crowd.span().start)?;
                    agent_names.push(id.0.to_string());
                    agents.push(spec);
                }
            }
        }
        if agents.is_empty() {
            return Err(self
                .at(0, "no agents: add [[agent]] or [[crowd]] tables")
                .into());
        }

        // Backends.
        let refusal = |kind: BackendKind| refusal(&agents, &agent_names, kind);
        let mut left_out = Vec::new();
        let backends = match &raw.backends {
            Some(names) => {
                let mut kinds = Vec::new();
                for n in names {
                    let kind: BackendKind = n.get_ref().parse().map_err(|e: String| {
                        LocatedError::at(
                            self.path,
                            self.text,
                            n.span().start,
                            format!("backends: {e}"),
                        )
                    })?;
                    if let Some(why) = refusal(kind) {
                        return Err(self
                            .at(
                                n.span().start,
                                format!(
                                    "backends: {} cannot run this scenario: {why}",
                                    kind.name()
                                ),
                            )
                            .into());
                    }
                    if !kinds.contains(&kind) {
                        kinds.push(kind);
                    }
                }
                if kinds.is_empty() {
                    return Err(self.at(0, "backends: the list is empty").into());
                }
                for &kind in BackendKind::ALL {
                    if !kinds.contains(&kind) {
                        left_out.push((
                            kind,
                            "the scenario's `backends` list leaves it out".to_string(),
                        ));
                    }
                }
                kinds
            }
            None => {
                let mut kinds = Vec::new();
                for &kind in BackendKind::ALL {
                    match refusal(kind) {
                        None => kinds.push(kind),
                        Some(why) => left_out.push((kind, why)),
                    }
                }
                kinds
            }
        };
        let mut expected_differences = Vec::new();
        for d in &raw.expected_difference {
            let raw_d = d.get_ref();
            if raw_d.backends.len() != 2 {
                return Err(self
                    .at(
                        d.span().start,
                        "expected_difference: name exactly two backends",
                    )
                    .into());
            }
            let mut pair = [BackendKind::Exact; 2];
            for (slot, n) in pair.iter_mut().zip(&raw_d.backends) {
                *slot = n.get_ref().parse().map_err(|e: String| {
                    LocatedError::at(
                        self.path,
                        self.text,
                        n.span().start,
                        format!("expected_difference: {e}"),
                    )
                })?;
            }
            let tol = self.finite(&raw_d.tolerance, "expected_difference.tolerance")?;
            if raw_d.reason.trim().is_empty() {
                return Err(self
                    .at(d.span().start, "expected_difference: give the reason")
                    .into());
            }
            expected_differences.push(ExpectedDifference {
                backends: pair,
                tolerance: tol,
                reason: raw_d.reason.trim().to_string(),
            });
        }

        // Expectations.
        let mut expectations = Vec::new();
        for e in &raw.expectations {
            expectations.push(self.expectation(e, &agent_names, steps as f64 * dt)?);
        }

        Ok(Scenario {
            path: self.path.to_path_buf(),
            name,
            description: raw.description.trim().to_string(),
            dt,
            steps: steps as u64,
            sample_every,
            backends,
            left_out,
            tolerance,
            expected_differences,
            params,
            world,
            agents,
            agent_names,
            expectations,
        })
    }

    fn pose(&self, name: &str, pose: &Spanned<RawPose>) -> Located<Shape> {
        let p = pose.get_ref();
        let at = pose.span().start;
        let shape = match (&p.aabb, p.sphere, &p.cylinder) {
            (Some(b), None, None) => {
                Shape::new_box(DVec3::from_array(b.mins), DVec3::from_array(b.maxs))
            }
            (None, Some(r), None) => Shape::new_sphere(r),
            (None, None, Some(c)) => Shape::new_cylinder(c.radius, c.half_height),
            _ => {
                return self.err(
                    at,
                    format!("pose {name:?}: give exactly one of `box`, `sphere`, `cylinder`"),
                );
            }
        };
        let shape = shape.map_err(|e| {
            LocatedError::at(self.path, self.text, at, format!("pose {name:?}: {e}"))
        })?;
        if let Shape::Box(b) = &shape
            && b.mins.cmpge(b.maxs).any()
        {
            return self.err(
                at,
                format!("pose {name:?}: a box agent needs mins < maxs on every axis"),
            );
        }
        Ok(shape)
    }

    fn script(
        &self,
        events: &[Spanned<RawScriptEvent>],
        params: &MoveParams,
    ) -> Located<Vec<ScriptEvent>> {
        let mut out = Vec::with_capacity(events.len());
        let mut last = f64::NEG_INFINITY;
        for event in events {
            let e = event.get_ref();
            let at = self.finite(&e.at, "script.at")?;
            if at < 0.0 {
                return self.err(
                    e.at.span().start,
                    format!("script.at must not be negative, got {at}"),
                );
            }
            if at < last {
                return self.err(
                    e.at.span().start,
                    format!("script time goes backwards: {at} after {last}"),
                );
            }
            last = at;
            let chosen = [e.direction.is_some(), e.jump, e.crouch, e.stand, e.stop]
                .iter()
                .filter(|x| **x)
                .count();
            if chosen != 1 {
                return self.err(
                    event.span().start,
                    "script event: give exactly one of `move`, `jump`, `crouch`, `stand`, `stop`",
                );
            }
            if e.speed.is_some() && e.direction.is_none() {
                return self.err(event.span().start, "script event: `speed` goes with `move`");
            }
            let action = if let Some(d) = &e.direction {
                let v = DVec3::new(d.get_ref()[0], d.get_ref()[1], 0.0);
                if !v.is_finite() || v.length() == 0.0 {
                    return self.err(
                        d.span().start,
                        "script move: direction must be finite and not zero",
                    );
                }
                let speed = match &e.speed {
                    Some(s) => {
                        let v = self.finite(s, "script.speed")?;
                        if v < 0.0 {
                            return self.err(
                                s.span().start,
                                format!("script.speed must not be negative, got {v}"),
                            );
                        }
                        v
                    }
                    None => params.walk_speed,
                };
                Action::Move {
                    direction: v,
                    speed,
                }
            } else if e.jump {
                Action::Jump
            } else if e.crouch {
                Action::Crouch
            } else if e.stand {
                Action::Stand
            } else {
                Action::Stop
            };
            out.push(ScriptEvent { at, action });
        }
        Ok(out)
    }

    fn check_start(&self, world: &LoadedWorld, spec: &AgentSpec, at: usize) -> Located<()> {
        let exact = ExactCollider::new(world.world.clone());
        let shape = if spec.start_crouched {
            spec.crouching.as_ref().unwrap_or(&spec.standing)
        } else {
            &spec.standing
        };
        let prepared = exact
            .prepare(shape)
            .expect("the exact backend takes every shape");
        if exact.is_solid(&mut QueryContext::new(), &prepared, spec.start) {
            return self.err(
                at,
                format!(
                    "agent {} starts in solid at {} (set allow_start_in_solid = true to test unsticking)",
                    spec.id, spec.start
                ),
            );
        }
        Ok(())
    }

    fn region(&self, r: &Spanned<RawRegion>, field: &str) -> Located<Aabb> {
        let (min, max) = (
            DVec3::from_array(r.get_ref().min),
            DVec3::from_array(r.get_ref().max),
        );
        if !min.is_finite() || !max.is_finite() || min.cmpgt(max).any() {
            return self.err(
                r.span().start,
                format!("{field}: min must not exceed max, and both must be finite"),
            );
        }
        Ok(Aabb::new(min, max))
    }

    fn expectation(
        &self,
        e: &Spanned<RawExpect>,
        names: &[String],
        end_time: f64,
    ) -> Located<Expectation> {
        let raw = e.get_ref();
        let agent = match raw.agent.get_ref() {
            RawAgentRef::Index(i) if (0..names.len() as i64).contains(i) => AgentId(*i as u32),
            RawAgentRef::Name(n) if names.contains(n) => {
                AgentId(names.iter().position(|x| x == n).expect("contained") as u32)
            }
            other => {
                let given = match other {
                    RawAgentRef::Index(i) => i.to_string(),
                    RawAgentRef::Name(n) => format!("{n:?}"),
                };
                let mut known: Vec<&str> = names.iter().map(String::as_str).take(10).collect();
                if names.len() > known.len() {
                    known.push("...");
                }
                return self.err(
                    raw.agent.span().start,
                    format!(
                        "expect: no agent {given}; the agents are 0..{} or by name: {}",
                        names.len(),
                        known.join(", ")
                    ),
                );
            }
        };
        let kinds = [
            raw.reaches.is_some(),
            raw.never_reaches.is_some(),
            raw.ends_on_ground.is_some(),
            raw.stays_crouched.is_some(),
            raw.no_contacts_with.is_some(),
        ];
        if kinds.iter().filter(|k| **k).count() != 1 {
            return self.err(e.span().start, "expect: give exactly one of `reaches`, `never_reaches`, `ends_on_ground`, `stays_crouched`, `no_contacts_with`");
        }
        if raw.by.is_some() && raw.reaches.is_none() {
            return self.err(e.span().start, "expect: `by` goes with `reaches`");
        }
        if raw.from.is_some() && raw.stays_crouched.is_none() {
            return self.err(e.span().start, "expect: `from` goes with `stays_crouched`");
        }
        let check = if let Some(r) = &raw.reaches {
            let by = match &raw.by {
                Some(b) => self.finite(b, "by")?,
                None => end_time,
            };
            Check::Reaches {
                region: self.region(r, "reaches")?,
                by,
            }
        } else if let Some(r) = &raw.never_reaches {
            Check::NeverReaches {
                region: self.region(r, "never_reaches")?,
            }
        } else if raw.ends_on_ground == Some(true) {
            Check::EndsOnGround
        } else if raw.stays_crouched == Some(true) {
            Check::StaysCrouched {
                from: raw
                    .from
                    .as_ref()
                    .map(|f| self.finite(f, "from"))
                    .transpose()?
                    .unwrap_or(0.0),
            }
        } else if let Some(t) = &raw.no_contacts_with {
            Check::NoContactsWith(match t.get_ref() {
                RawContactTarget::Kind(k) if k == "world" => ContactFilter::World,
                RawContactTarget::Kind(k) if k == "agents" => ContactFilter::Agents,
                RawContactTarget::Agent(i) if (0..names.len() as i64).contains(i) => ContactFilter::Agent(AgentId(*i as u32)),
                RawContactTarget::Kind(k) => return self.err(t.span().start, format!("no_contacts_with: expected \"world\", \"agents\" or an agent index, got {k:?}")),
                RawContactTarget::Agent(i) => return self.err(t.span().start, format!("no_contacts_with: no agent {i}; the agents are 0..{}", names.len())),
            })
        } else {
            return self.err(
                e.span().start,
                "expect: a check set to false checks nothing; remove it",
            );
        };
        let (line, column) = crate::location::line_column(self.text, e.span().start);
        Ok(Expectation {
            agent,
            check,
            written_at: format!("{}:{line}:{column}", self.path.display()),
        })
    }
}
