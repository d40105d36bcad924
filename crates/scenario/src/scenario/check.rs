//! Checking a scenario file ([`super::raw`]) into a [`Scenario`], one section at a time (ripgrep's
//! `lowargs` to `hiargs`): the header, the world, the poses, the agents, the crowds, the backends,
//! the expected differences and the expectations. Each section returns its typed part, and every
//! error names the file, line, column and field ([`LocatedError`]).

use std::collections::BTreeMap;
use std::path::Path;

use cspace_contact::AgentId;
use cspace_geom::domain::{self, Quantity};
use cspace_geom::{Aabb, Collider, DVec3, ExactCollider, QueryContext, Shape};
use toml::Spanned;

use super::raw::{
    RawAgent, RawAgentRef, RawContactTarget, RawCrowd, RawExpect, RawExpectedDifference, RawGoto,
    RawPose, RawRegion, RawScenario, RawScriptEvent,
};
use super::{
    AgentPoses, AgentStart, Check, ContactFilter, Crowd, DEFAULT_TOLERANCE, Expectation,
    ExpectedDifference, Scenario, refusal,
};
use crate::error::Error;
use crate::location::LocatedError;
use crate::numbers::Numbers;
use crate::world_file::{LoadedWorld, load_spec_with};
use cspace_sim::backend::BackendKind;
use cspace_sim::movement::{SETTLE_LATTICE_RINGS, UnstickPlaces};
use cspace_sim::params::{MoveParams, Profile};
use cspace_sim::{Action, AgentSpec, ScriptEvent, ScriptedAgent, View};

type Located<T> = Result<T, LocatedError>;

pub use crate::limits::MAX_AGENTS;

/// The offset of `key = ` in the table whose span is `span` in `text` (written inline, or as a
/// section, whose body runs on to the next line that opens a table), or the span's start when it
/// is not found.
fn key_offset(text: &str, span: std::ops::Range<usize>, key: &str) -> usize {
    let after = span.end.min(text.len());
    let end = text[after..].find("\n[").map_or(text.len(), |i| after + i);
    let part = &text[span.start.min(end)..end];
    let mut from = 0;
    while let Some(i) = part[from..].find(key) {
        let at = from + i;
        let before = part[..at].chars().next_back();
        let after = part[at + key.len()..].trim_start();
        if !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after.starts_with('=') {
            return span.start + at;
        }
        from = at + key.len();
    }
    span.start
}

/// The header: name, description, time step, steps, sampling, tolerance and movement constants.
struct Header {
    name: String,
    description: String,
    dt: f64,
    steps: u64,
    sample_every: u64,
    tolerance: f64,
    params: MoveParams,
}

/// The agents so far, with their names (their id when unnamed).
#[derive(Default)]
struct Agents {
    specs: Vec<ScriptedAgent>,
    names: Vec<String>,
    starts: Vec<AgentStart>,
    poses: Vec<AgentPoses>,
    crowds: Vec<Crowd>,
}

/// The backends to run, and those left out with why.
struct Backends {
    run: Vec<BackendKind>,
    left_out: Vec<(BackendKind, String)>,
}

pub(super) struct Checker<'a> {
    pub(super) path: &'a Path,
    pub(super) text: &'a str,
    /// A world in the place of the file's own `[world]` (a sweep's map), which is then not read.
    pub(super) world: Option<LoadedWorld>,
    /// A folder of shader scripts in the place of the world's own `shaders` (`--shaders`).
    pub(super) shaders: Option<&'a Path>,
}

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

    /// A finite number within `quantity`'s limit ([`cspace_geom::domain`]).
    fn within(&self, value: &Spanned<f64>, field: &str, quantity: Quantity) -> Located<f64> {
        let v = self.finite(value, field)?;
        domain::check(quantity, v).map_err(|e| self.at(value.span().start, format!("{field}: {e}")))
    }

    /// The `N` numbers of a fixed list, refused where the list is written when it has another
    /// length ([`Numbers::exactly`]).
    fn numbers<const N: usize>(
        &self,
        value: &Spanned<Numbers<N>>,
        field: &str,
    ) -> Located<[f64; N]> {
        value
            .get_ref()
            .exactly(field)
            .map_err(|e| self.at(value.span().start, e))
    }

    /// Finite numbers within `quantity`'s limit ([`cspace_geom::domain`]).
    fn within3(
        &self,
        value: &Spanned<Numbers<3>>,
        field: &str,
        quantity: Quantity,
    ) -> Located<DVec3> {
        let v = self.finite3(value, field)?;
        domain::check_point(quantity, v)
            .map_err(|e| self.at(value.span().start, format!("{field}: {e}")))
    }

    fn finite3(&self, value: &Spanned<Numbers<3>>, field: &str) -> Located<DVec3> {
        let v = DVec3::from_array(self.numbers(value, field)?);
        if !v.is_finite() {
            return self.err(
                value.span().start,
                format!("{field} must be finite numbers, got {v}"),
            );
        }
        Ok(v)
    }

    /// The whole file, section by section.
    pub(super) fn check(&self, raw: RawScenario) -> Result<Scenario, Error> {
        let header = self.header(&raw)?;
        let world = match &self.world {
            Some(world) => world.clone(),
            None => load_spec_with(raw.world.get_ref(), self.path, self.text, self.shaders)?,
        };
        let poses = self.poses(&raw.poses)?;
        self.poses_grown(&raw.poses, &poses, &header.params)?;
        let mut agents = Agents::default();
        // The exact reference over the world, built once for every agent's start.
        let exact = ExactCollider::new(world.world.clone());
        for a in &raw.agents {
            self.agent(a, &poses, (&world, &exact), &header.params, &mut agents)?;
        }
        for c in &raw.crowds {
            self.crowd(c, &poses, (&world, &exact), &header.params, &mut agents)?;
        }
        if agents.specs.is_empty() {
            return Err(self
                .at(0, "no agents: add [[agent]] or [[crowd]] tables")
                .into());
        }
        let backends = self.backends(raw.backends.as_deref(), &agents, &header.params)?;
        let expected_differences = raw
            .expected_difference
            .iter()
            .map(|d| self.expected_difference(d))
            .collect::<Located<Vec<_>>>()?;
        let seed = match &raw.seed {
            None => 0,
            Some(seed) => u64::try_from(*seed.get_ref()).map_err(|_| {
                self.at(
                    seed.span().start,
                    format!("seed must be a whole number from 0, got {}", seed.get_ref()),
                )
            })?,
        };
        let end_time = header.steps as f64 * header.dt;
        let expectations = raw
            .expectations
            .iter()
            .map(|e| self.expectation(e, &agents, end_time, &world))
            .collect::<Located<Vec<_>>>()?;
        Ok(Scenario {
            path: self.path.to_path_buf(),
            name: header.name,
            description: header.description,
            dt: header.dt,
            steps: header.steps,
            sample_every: header.sample_every,
            backends: backends.run,
            left_out: backends.left_out,
            tolerance: header.tolerance,
            expected_differences,
            params: header.params,
            world,
            agents: agents.specs,
            agent_names: agents.names,
            agent_starts: agents.starts,
            agent_poses: agents.poses,
            crowds: agents.crowds,
            expectations,
            seed,
        })
    }

    /// The constants `[params]` wrote (`parsed`: read over cspace's defaults) over `profile`'s
    /// defaults: each key the table writes taken from it, every other from the profile.
    fn over_profile(&self, parsed: MoveParams, profile: Profile) -> MoveParams {
        if profile == Profile::Cspace {
            return parsed;
        }
        let document: toml::Table = toml::from_str(self.text).expect("the scenario parsed already");
        let written: Vec<&String> = document
            .get("params")
            .and_then(toml::Value::as_table)
            .map(|t| t.keys().collect())
            .unwrap_or_default();
        let as_table =
            |p: MoveParams| toml::Table::try_from(p).expect("movement constants serialize");
        let (mut merged, given) = (as_table(MoveParams::of(profile)), as_table(parsed));
        for key in written {
            if let Some(value) = given.get(key) {
                merged.insert(key.clone(), value.clone());
            }
        }
        MoveParams {
            profile,
            ..merged
                .try_into()
                .expect("constants written by the same struct read back")
        }
    }

    /// A name as the file writes it (`what`: "name", "agent name", "pose name"): at most
    /// [`MAX_NAME_BYTES`](crate::limits::MAX_NAME_BYTES) bytes and no control character, so that it can never forge a line of a
    /// trace or a summary. Names are never used as paths.
    fn name(&self, name: &str, at: usize, what: &str) -> Located<()> {
        match crate::limits::name_problem(name, what) {
            Some(problem) => self.err(at, problem),
            None => Ok(()),
        }
    }

    fn header(&self, raw: &RawScenario) -> Located<Header> {
        let name = raw.name.get_ref().trim().to_string();
        if name.is_empty() {
            return self.err(raw.name.span().start, "name must not be empty");
        }
        self.name(&name, raw.name.span().start, "name")?;
        let dt = self.within(&raw.time_step, "time_step", Quantity::TimeStep)?;
        if dt <= 0.0 {
            return self.err(
                raw.time_step.span().start,
                format!("time_step must be positive, got {dt}"),
            );
        }
        let steps = *raw.steps.get_ref();
        if steps <= 0 {
            return self.err(
                raw.steps.span().start,
                format!("steps must be positive, got {steps}"),
            );
        }
        let sample_every = match &raw.sample_every {
            Some(s) if *s.get_ref() <= 0 => {
                return self.err(
                    s.span().start,
                    format!("sample_every must be positive, got {}", s.get_ref()),
                );
            }
            Some(s) => *s.get_ref() as u64,
            None => 1,
        };
        let tolerance = match &raw.tolerance {
            Some(t) => {
                let v = self.finite(t, "tolerance")?;
                if v < 0.0 {
                    return self.err(
                        t.span().start,
                        format!("tolerance must not be negative, got {v}"),
                    );
                }
                v
            }
            None => DEFAULT_TOLERANCE,
        };
        let profile = match &raw.movement {
            None => Profile::Cspace,
            Some(m) => match [Profile::Cspace, Profile::Quake3]
                .into_iter()
                .find(|p| p.name() == m.get_ref())
            {
                Some(profile) => profile,
                None => {
                    return self.err(
                        m.span().start,
                        format!(
                            "movement: expected \"cspace\" or \"quake3\", got {:?}",
                            m.get_ref()
                        ),
                    );
                }
            },
        };
        let params = match &raw.params {
            Some(p) => {
                let params = self.over_profile(*p.get_ref(), profile);
                params.validate().map_err(|e| {
                    let at = key_offset(self.text, p.span(), e.field);
                    self.at(at, format!("params.{e}"))
                })?;
                params
            }
            None => MoveParams::of(profile),
        };
        Ok(Header {
            name,
            description: raw.description.trim().to_string(),
            dt,
            steps: steps as u64,
            sample_every,
            tolerance,
            params,
        })
    }

    fn poses(&self, raw: &BTreeMap<String, Spanned<RawPose>>) -> Located<BTreeMap<String, Shape>> {
        raw.iter()
            .map(|(name, pose)| Ok((name.clone(), self.pose(name, pose)?)))
            .collect()
    }

    /// Refuses a pose that the profile's trace epsilon grows out of the numeric domain (the
    /// shapes the `quake3` profile traces, `cspace_sim::agent::try_grown`).
    fn poses_grown(
        &self,
        raw: &BTreeMap<String, Spanned<RawPose>>,
        poses: &BTreeMap<String, Shape>,
        params: &MoveParams,
    ) -> Located<()> {
        if params.trace_epsilon <= 0.0 {
            return Ok(());
        }
        for (name, shape) in poses {
            if let Err(e) = cspace_sim::agent::try_grown(shape, params.trace_epsilon) {
                return self.err(
                    raw[name].span().start,
                    format!(
                        "pose {name:?}: grown by the profile's trace epsilon {} (as it is traced): {e}",
                        params.trace_epsilon
                    ),
                );
            }
        }
        Ok(())
    }

    fn pose(&self, name: &str, pose: &Spanned<RawPose>) -> Located<Shape> {
        let p = pose.get_ref();
        let at = pose.span().start;
        self.name(name, at, "pose name")?;
        let shape = match (&p.aabb, p.sphere, &p.cylinder) {
            (Some(b), None, None) => Shape::new_box(
                DVec3::from_array(self.numbers(&b.mins, &format!("pose {name:?}: box.mins"))?),
                DVec3::from_array(self.numbers(&b.maxs, &format!("pose {name:?}: box.maxs"))?),
            ),
            (None, Some(r), None) => Shape::new_sphere(r),
            (None, None, Some(c)) => Shape::new_cylinder(c.radius, c.half_height),
            _ => {
                return self.err(
                    at,
                    format!("pose {name:?}: give exactly one of `box`, `sphere`, `cylinder`"),
                );
            }
        };
        let shape = shape.map_err(|e| self.at(at, format!("pose {name:?}: {e}")))?;
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

    /// The shape a pose name refers to.
    fn pose_named(
        &self,
        poses: &BTreeMap<String, Shape>,
        name: &Spanned<String>,
    ) -> Located<Shape> {
        match poses.get(name.get_ref().as_str()) {
            Some(s) => Ok(s.clone()),
            None => {
                let known: Vec<&str> = poses.keys().map(String::as_str).collect();
                self.err(
                    name.span().start,
                    format!(
                        "unknown pose {:?}; the [poses] table defines: {}",
                        name.get_ref(),
                        if known.is_empty() {
                            "none".to_string()
                        } else {
                            known.join(", ")
                        }
                    ),
                )
            }
        }
    }

    fn agent(
        &self,
        raw: &Spanned<RawAgent>,
        poses: &BTreeMap<String, Shape>,
        (world, exact): (&LoadedWorld, &ExactCollider),
        params: &MoveParams,
        agents: &mut Agents,
    ) -> Located<()> {
        let a = raw.get_ref();
        let id = AgentId(agents.specs.len() as u32);
        let standing = self.pose_named(poses, &a.pose)?;
        let crouching = a
            .crouch_pose
            .as_ref()
            .map(|p| self.pose_named(poses, p))
            .transpose()?;
        let start = match (&a.start, &a.spawn) {
            (Some(s), None) => self.within3(s, "start", Quantity::Coordinate)?,
            (None, Some(i)) => {
                let index = *i.get_ref();
                let count = world.spawns.len();
                // On a sweep's map, the index wraps around that map's spawn points.
                let wrapped = match usize::try_from(index) {
                    Ok(n) if self.world.is_some() && count > 0 => Some(n % count),
                    Ok(n) => Some(n),
                    Err(_) => None,
                };
                match wrapped.and_then(|n| world.spawns.get(n)) {
                    Some(p) => *p,
                    None => {
                        return self.err(
                            i.span().start,
                            format!("spawn {index}: the world has {count} spawn points"),
                        );
                    }
                }
            }
            _ => {
                return self.err(
                    raw.span().start,
                    format!("agent {}: give either `start` or `spawn`", id.0),
                );
            }
        };
        let velocity = a
            .velocity
            .as_ref()
            .map(|v| {
                let velocity = self.finite3(v, "velocity")?;
                domain::check_velocity(velocity)
                    .map_err(|e| self.at(v.span().start, format!("velocity: {e}")))
            })
            .transpose()?
            .unwrap_or(DVec3::ZERO);
        let script = self.script(&a.script, params, world, (&standing, crouching.as_ref()))?;
        let spec = AgentSpec {
            standing,
            crouching,
            start,
            velocity,
            start_crouched: a.crouched,
        };
        if !a.allow_start_in_solid {
            self.check_start(exact, id, &spec, raw.span().start)?;
        }
        let spec = ScriptedAgent {
            spec,
            script: script.into(),
        };
        let name = match &a.name {
            Some(n) => {
                self.name(n.get_ref(), n.span().start, "agent name")?;
                n.get_ref().clone()
            }
            None => id.0.to_string(),
        };
        agents.poses.push(AgentPoses {
            standing: a.pose.get_ref().clone(),
            crouching: a.crouch_pose.as_ref().map(|p| p.get_ref().clone()),
        });
        agents.names.push(name);
        agents.specs.push(spec);
        agents.starts.push(AgentStart {
            spawn: a.spawn.as_ref().map(|i| *i.get_ref() as usize),
            allow_in_solid: a.allow_start_in_solid,
        });
        Ok(())
    }

    fn crowd(
        &self,
        raw: &Spanned<RawCrowd>,
        poses: &BTreeMap<String, Shape>,
        (world, exact): (&LoadedWorld, &ExactCollider),
        params: &MoveParams,
        agents: &mut Agents,
    ) -> Located<()> {
        let c = raw.get_ref();
        let standing = self.pose_named(poses, &c.pose)?;
        let crouching = c
            .crouch_pose
            .as_ref()
            .map(|p| self.pose_named(poses, p))
            .transpose()?;
        let origin = self.within3(&c.origin, "origin", Quantity::Coordinate)?;
        let spacing = self.numbers(&c.spacing, "spacing")?;
        if !(spacing[0].is_finite() && spacing[1].is_finite()) {
            return self.err(c.spacing.span().start, "spacing must be finite numbers");
        }
        let (rows, columns) = (*c.rows.get_ref(), *c.columns.get_ref());
        if !(1..=1000).contains(&rows) || !(1..=1000).contains(&columns) {
            return self.err(
                c.rows.span().start,
                format!("rows and columns must be within 1..=1000, got {rows} x {columns}"),
            );
        }
        if agents.specs.len() + (rows * columns) as usize > MAX_AGENTS {
            return self.err(
                c.rows.span().start,
                format!(
                    "this crowd makes {} agents in all; a scenario has at most {MAX_AGENTS}",
                    agents.specs.len() + (rows * columns) as usize
                ),
            );
        }
        // The farthest corner of the grid, within the numeric domain.
        let far = origin
            + DVec3::new(
                (columns - 1) as f64 * spacing[0],
                (rows - 1) as f64 * spacing[1],
                0.0,
            );
        if let Err(e) = domain::check_point(Quantity::Coordinate, far) {
            return self.err(
                c.spacing.span().start,
                format!(
                    "spacing: the crowd's far corner is at {}: {e}",
                    crate::trace::compact_vector(far, 3)
                ),
            );
        }
        self.crowd_fits(c, (origin, spacing), &standing, exact, params)?;
        // One script for the whole crowd, shared by its agents.
        let script: std::sync::Arc<[ScriptEvent]> = self
            .script(&c.script, params, world, (&standing, crouching.as_ref()))?
            .into();
        let first = agents.specs.len() as u32;
        for r in 0..rows {
            for k in 0..columns {
                let id = AgentId(agents.specs.len() as u32);
                let spec = AgentSpec {
                    standing: standing.clone(),
                    crouching: crouching.clone(),
                    start: origin + DVec3::new(k as f64 * spacing[0], r as f64 * spacing[1], 0.0),
                    velocity: DVec3::ZERO,
                    start_crouched: false,
                };
                self.check_start(exact, id, &spec, raw.span().start)?;
                let spec = ScriptedAgent {
                    spec,
                    script: script.clone(),
                };
                agents.names.push(id.0.to_string());
                agents.specs.push(spec);
                agents.starts.push(AgentStart::default());
                agents.poses.push(AgentPoses {
                    standing: c.pose.get_ref().clone(),
                    crouching: c.crouch_pose.as_ref().map(|p| p.get_ref().clone()),
                });
            }
        }
        agents.crowds.push(Crowd {
            name: format!("crowd {}", agents.crowds.len() + 1),
            agents: first..agents.specs.len() as u32,
        });
        Ok(())
    }

    /// Refuses a crowd whose agents overlap without standing on one point, or whose stacks
    /// (agents on one point, a spacing of 0) hold more agents than the world leaves room for
    /// around them: the places the settling step tries ([`UnstickPlaces`]) free of the world,
    /// an upper bound of the agents it can spread. Either would leave the run to spread them in
    /// time growing like the square of the crowd, or to keep them in each other (issue 36).
    /// `origin` and `spacing` are the crowd's, checked.
    fn crowd_fits(
        &self,
        c: &RawCrowd,
        (origin, spacing): (DVec3, [f64; 2]),
        standing: &Shape,
        exact: &ExactCollider,
        params: &MoveParams,
    ) -> Located<()> {
        let (rows, columns) = (*c.rows.get_ref() as usize, *c.columns.get_ref() as usize);
        let extent = standing.bounds().size();
        let axes = [
            (0, columns, "x, between columns"),
            (1, rows, "y, between rows"),
        ];
        for (axis, count, between) in axes {
            let s = spacing[axis].abs();
            if count > 1 && s > 0.0 && s < extent[axis] {
                return self.err(
                    c.spacing.span().start,
                    format!(
                        "spacing: {} ({between}) puts each agent inside the next: the pose is {} \
                         across; use 0 to stack them on one point (they are spread when they \
                         start) or at least {}",
                        spacing[axis], extent[axis], extent[axis]
                    ),
                );
            }
        }
        let stacked_along =
            |axis: usize, count: usize| if spacing[axis] == 0.0 { count } else { 1 };
        let stack = stacked_along(0, columns) * stacked_along(1, rows);
        if stack < 2 {
            return Ok(());
        }
        let prepared = exact
            .prepare(standing)
            .expect("the exact backend takes every shape")
            .with_skin(params.skin);
        let size = extent + 2.0 * params.skin;
        let mut ctx = QueryContext::new();
        let points_along = |axis: usize, count: usize| count / stacked_along(axis, count);
        for r in 0..points_along(1, rows) {
            for k in 0..points_along(0, columns) {
                let at = origin + DVec3::new(k as f64 * spacing[0], r as f64 * spacing[1], 0.0);
                let places = UnstickPlaces::new(at, size, SETTLE_LATTICE_RINGS);
                let room = 1
                    + (0..places.len())
                        .filter(|&n| !exact.is_solid(&mut ctx, &prepared, places.get(n).0))
                        .take(stack - 1)
                        .count();
                if room < stack {
                    return self.err(
                        c.spacing.span().start,
                        format!(
                            "spacing: {stack} agents start on one point {}, and the world leaves \
                             room for at most {room} around it ({} places tried, one pose and skin \
                             apart); spread the crowd or make it smaller",
                            crate::trace::compact_vector(at, 3),
                            places.len()
                        ),
                    );
                }
            }
        }
        Ok(())
    }

    fn script(
        &self,
        events: &[Spanned<RawScriptEvent>],
        params: &MoveParams,
        world: &LoadedWorld,
        shapes: (&Shape, Option<&Shape>),
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
            let chosen = [
                e.direction.is_some(),
                e.jump,
                e.crouch,
                e.stand,
                e.stop,
                e.goto.is_some(),
                e.view.is_some(),
            ]
            .iter()
            .filter(|x| **x)
            .count();
            if chosen != 1 {
                return self.err(
                    event.span().start,
                    "script event: give exactly one of `move`, `jump`, `crouch`, `stand`, `stop`, `goto`, `view`",
                );
            }
            if e.speed.is_some() && e.direction.is_none() {
                return self.err(event.span().start, "script event: `speed` goes with `move`");
            }
            let action = if let Some(d) = &e.direction {
                let [x, y] = self.numbers(d, "script.move")?;
                let v = DVec3::new(x, y, 0.0);
                if !v.is_finite() || v.length() == 0.0 {
                    return self.err(
                        d.span().start,
                        "script move: direction must be finite and not zero",
                    );
                }
                let speed = match &e.speed {
                    Some(s) => {
                        let v = self.within(s, "script.speed", Quantity::Speed)?;
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
            } else if let Some(g) = &e.goto {
                Action::Goto(self.goto(g, params, world, shapes)?)
            } else if let Some(v) = &e.view {
                // Degrees, any finite angle within the numeric domain (as `Sim::set_intent`).
                let [yaw, pitch] = self.numbers(v, "script.view")?;
                for (angle, field) in [(yaw, "script.view yaw"), (pitch, "script.view pitch")] {
                    domain::check(Quantity::Coordinate, angle)
                        .map_err(|e| self.at(v.span().start, format!("{field}: {e}")))?;
                }
                Action::View(View { yaw, pitch })
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

    /// A goto's target: a point or a spawn point, where an agent of these poses (boxes, the
    /// crouching one inside the standing one) is free in one of them and has a walkable floor
    /// below within the planner's deepest fall.
    fn goto(
        &self,
        g: &Spanned<RawGoto>,
        params: &MoveParams,
        world: &LoadedWorld,
        (standing, crouching): (&Shape, Option<&Shape>),
    ) -> Located<DVec3> {
        let at = g.span().start;
        let target = match g.get_ref() {
            RawGoto::Point(p) => {
                // Inside an untagged enum the list has no span of its own: the goto's is its.
                let v = DVec3::from_array(p.exactly("goto").map_err(|e| self.at(at, e))?);
                if !v.is_finite() {
                    return self.err(at, format!("goto must be finite numbers, got {v}"));
                }
                domain::check_point(Quantity::Coordinate, v)
                    .map_err(|e| self.at(at, format!("goto: {e}")))?
            }
            RawGoto::Spawn { spawn } => {
                match usize::try_from(*spawn)
                    .ok()
                    .and_then(|i| world.spawns.get(i))
                {
                    Some(p) => *p,
                    None => {
                        return self.err(
                            at,
                            format!(
                                "goto spawn {spawn}: the world has {} spawn points",
                                world.spawns.len()
                            ),
                        );
                    }
                }
            }
        };
        for shape in std::iter::once(standing).chain(crouching) {
            if !matches!(shape, Shape::Box(_)) {
                return self.err(
                    at,
                    format!(
                        "goto: the agent is {}; goto plans for box poses (the onion tree's configuration spaces)",
                        shape.describe()
                    ),
                );
            }
        }
        if let (Shape::Box(s), Some(Shape::Box(c))) = (standing, crouching)
            && !(s.mins.cmple(c.mins).all() && c.maxs.cmple(s.maxs).all())
        {
            return self.err(
                at,
                "goto: the agent's crouching box must fit inside its standing box",
            );
        }
        let exact = ExactCollider::new(world.world.clone());
        let mut ctx = QueryContext::new();
        let Some(free) = std::iter::once(standing)
            .chain(crouching)
            .find_map(|shape| {
                let prepared = exact
                    .prepare(shape)
                    .expect("the exact backend takes every shape")
                    .with_skin(params.skin);
                (!exact.is_solid(&mut ctx, &prepared, target)).then_some(prepared)
            })
        else {
            return self.err(
                at,
                format!(
                    "goto target {} is inside solid for the agent's poses (a target is where the agent's origin goes: 24 units above the floor for a Quake player)",
                    crate::trace::compact_vector(target, 3)
                ),
            );
        };
        let depth = cspace_nav::NavParams::default().max_fall + params.skin;
        let down = exact.trace(&mut ctx, &free, target, target - DVec3::Z * depth);
        let floor = down
            .surface()
            .is_some_and(|f| f.plane.normal().z >= params.min_walk_normal);
        if !floor {
            return self.err(
                at,
                format!(
                    "goto target {} has no walkable floor within {depth} units below it",
                    crate::trace::compact_vector(target, 3)
                ),
            );
        }
        Ok(target)
    }

    fn check_start(
        &self,
        exact: &ExactCollider,
        id: AgentId,
        spec: &AgentSpec,
        at: usize,
    ) -> Located<()> {
        let prepared = exact
            .prepare(spec.start_shape())
            .expect("the exact backend takes every shape");
        if exact.is_solid(&mut QueryContext::new(), &prepared, spec.start) {
            return self.err(
                at,
                format!(
                    "agent {} starts in solid at {} (set allow_start_in_solid = true to test unsticking)",
                    id, spec.start
                ),
            );
        }
        Ok(())
    }

    fn backends(
        &self,
        names: Option<&[Spanned<String>]>,
        agents: &Agents,
        params: &MoveParams,
    ) -> Located<Backends> {
        let refusal = |kind: BackendKind| refusal(&agents.specs, &agents.names, params, kind);
        let mut left_out = Vec::new();
        let Some(names) = names else {
            let mut run = Vec::new();
            for kind in BackendKind::ALL {
                match refusal(kind) {
                    None => run.push(kind),
                    Some(why) => left_out.push((kind, why)),
                }
            }
            return Ok(Backends { run, left_out });
        };
        let mut run = Vec::new();
        for n in names {
            let kind: BackendKind = n
                .get_ref()
                .parse()
                .map_err(|e| self.at(n.span().start, format!("backends: {e}")))?;
            if let Some(why) = refusal(kind) {
                return self.err(
                    n.span().start,
                    format!("backends: {} cannot run this scenario: {why}", kind.name()),
                );
            }
            if !run.contains(&kind) {
                run.push(kind);
            }
        }
        if run.is_empty() {
            return self.err(0, "backends: the list is empty");
        }
        for kind in BackendKind::ALL {
            if !run.contains(&kind) {
                left_out.push((
                    kind,
                    "the scenario's `backends` list leaves it out".to_string(),
                ));
            }
        }
        Ok(Backends { run, left_out })
    }

    fn expected_difference(
        &self,
        d: &Spanned<RawExpectedDifference>,
    ) -> Located<ExpectedDifference> {
        let raw = d.get_ref();
        let names = |list: &Spanned<Vec<Spanned<String>>>| -> Located<Vec<BackendKind>> {
            if list.get_ref().is_empty() {
                return self.err(list.span().start, "expected_difference: the list is empty");
            }
            let mut out: Vec<BackendKind> = Vec::new();
            for n in list.get_ref() {
                let kind: BackendKind = n
                    .get_ref()
                    .parse()
                    .map_err(|e| self.at(n.span().start, format!("expected_difference: {e}")))?;
                if out.contains(&kind) {
                    return self.err(
                        n.span().start,
                        format!("expected_difference: {} is named twice", kind.name()),
                    );
                }
                out.push(kind);
            }
            Ok(out)
        };
        let (between, and) = match (&raw.backends, &raw.between, &raw.and) {
            (Some(pair), None, None) => {
                let pair = names(pair)?;
                if pair.len() != 2 {
                    return self.err(
                        d.span().start,
                        "expected_difference: `backends` names exactly two backends (or give \
                         two groups: `between = [...]` and `and = [...]`)",
                    );
                }
                (vec![pair[0]], vec![pair[1]])
            }
            (None, Some(between), Some(and)) => {
                let (between, and_list) = (names(between)?, names(and)?);
                if let Some(both) = between.iter().find(|b| and_list.contains(b)) {
                    return self.err(
                        and.span().start,
                        format!(
                            "expected_difference: {} is in both groups; a backend does not differ \
                             from itself",
                            both.name()
                        ),
                    );
                }
                (between, and_list)
            }
            _ => {
                return self.err(
                    d.span().start,
                    "expected_difference: name the backends as `backends = [a, b]`, or as two \
                     groups `between = [...]` and `and = [...]`",
                );
            }
        };
        let tolerance = self.finite(&raw.tolerance, "expected_difference.tolerance")?;
        if raw.reason.trim().is_empty() {
            return self.err(d.span().start, "expected_difference: give the reason");
        }
        Ok(ExpectedDifference {
            between,
            and,
            tolerance,
            reason: raw.reason.trim().to_string(),
        })
    }

    fn region(&self, r: &Spanned<RawRegion>, field: &str) -> Located<Aabb> {
        let (min, max) = (
            DVec3::from_array(self.numbers(&r.get_ref().min, &format!("{field}.min"))?),
            DVec3::from_array(self.numbers(&r.get_ref().max, &format!("{field}.max"))?),
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
        agents: &Agents,
        end_time: f64,
        world: &LoadedWorld,
    ) -> Located<Expectation> {
        let names = &agents.names;
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
            raw.leaves_world.is_some(),
            raw.arrives.is_some(),
            raw.rides.is_some(),
            raw.uses_teleporter.is_some(),
            raw.triggers.is_some(),
            raw.swims.is_some(),
            raw.water_level.is_some(),
        ];
        if kinds.iter().filter(|k| **k).count() != 1 {
            return self.err(
                e.span().start,
                "expect: give exactly one of `reaches`, `never_reaches`, `ends_on_ground`, `stays_crouched`, `no_contacts_with`, `leaves_world`, `arrives`, `rides`, `uses_teleporter`, `triggers`, `swims`, `water_level`",
            );
        }
        if raw.by.is_some() && raw.reaches.is_none() && raw.arrives != Some(true) {
            return self.err(
                e.span().start,
                "expect: `by` goes with `reaches` or `arrives = true`",
            );
        }
        if raw.arrives.is_some() && !agents.specs[agent.0 as usize].uses_goto() {
            return self.err(
                e.span().start,
                format!(
                    "expect: `arrives` checks a goto, and agent {} has none in its script",
                    names[agent.0 as usize]
                ),
            );
        }
        if raw.from.is_some() && raw.stays_crouched.is_none() {
            return self.err(e.span().start, "expect: `from` goes with `stays_crouched`");
        }
        let check = if let Some(m) = &raw.rides {
            self.rides(m, world)?
        } else if let Some(t) = &raw.uses_teleporter {
            self.uses_teleporter(t, world)?
        } else if let Some(t) = &raw.triggers {
            self.triggers(t, world)?
        } else if let Some(r) = &raw.reaches {
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
        } else if let Some(leaves) = raw.leaves_world {
            Check::LeavesWorld(leaves)
        } else if let Some(swims) = raw.swims {
            Check::Swims(swims)
        } else if let Some(w) = &raw.water_level {
            let level = &w.get_ref().at_least;
            if !(1..=3).contains(level.get_ref()) {
                return self.err(
                    level.span().start,
                    format!(
                        "water_level: at_least must be 1, 2 or 3, got {}",
                        level.get_ref()
                    ),
                );
            }
            Check::WaterLevel {
                at_least: *level.get_ref() as u8,
                by: match &w.get_ref().by {
                    Some(b) => self.finite(b, "water_level.by")?,
                    None => end_time,
                },
            }
        } else if let Some(expected) = raw.arrives {
            Check::Arrives {
                expected,
                by: match &raw.by {
                    Some(b) => self.finite(b, "by")?,
                    None => end_time,
                },
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
                RawContactTarget::Agent(i) if (0..names.len() as i64).contains(i) => {
                    ContactFilter::Agent(AgentId(*i as u32))
                }
                RawContactTarget::Kind(k) => {
                    return self.err(
                        t.span().start,
                        format!(
                            "no_contacts_with: expected \"world\", \"agents\" or an agent index, got {k:?}"
                        ),
                    );
                }
                RawContactTarget::Agent(i) => {
                    return self.err(
                        t.span().start,
                        format!(
                            "no_contacts_with: no agent {i}; the agents are 0..{}",
                            names.len()
                        ),
                    );
                }
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

    /// The living world's entities, for an expectation `what` that needs them.
    fn living<'w>(
        &self,
        world: &'w LoadedWorld,
        at: usize,
        what: &str,
    ) -> Located<&'w cspace_entities::Entities> {
        match &world.living {
            Some(entities) => Ok(entities),
            None => self.err(
                at,
                format!("{what} needs a living world: `[world] living = true` and a map"),
            ),
        }
    }

    /// `rides = "class" | "kind" | index`: the movers of that class (`func_plat`), kind
    /// (`plat`, `door`, `button`, `train`, `secret door`), or index (as the trace's `rides mover
    /// N` writes it).
    fn rides(&self, m: &Spanned<RawAgentRef>, world: &LoadedWorld) -> Located<Check> {
        let entities = self.living(world, m.span().start, "rides")?;
        let (movers, written): (Vec<u32>, String) = match m.get_ref() {
            RawAgentRef::Index(i) => (
                (0..entities.movers.len() as i64)
                    .filter(|m| m == i)
                    .map(|m| m as u32)
                    .collect(),
                format!("mover {i}"),
            ),
            RawAgentRef::Name(name) => (
                entities
                    .movers
                    .iter()
                    .enumerate()
                    .filter(|(_, m)| {
                        m.classname.eq_ignore_ascii_case(name) || m.kind.name() == name
                    })
                    .map(|(i, _)| i as u32)
                    .collect(),
                name.clone(),
            ),
        };
        if movers.is_empty() {
            let known: Vec<String> = entities
                .movers
                .iter()
                .enumerate()
                .map(|(i, m)| format!("{i} ({})", m.classname))
                .collect();
            return self.err(
                m.span().start,
                format!(
                    "rides: no mover {written}; the movers are: {}",
                    listing(&known)
                ),
            );
        }
        Ok(Check::Rides { movers, written })
    }

    /// `uses_teleporter = true | false | <entity index of a trigger_teleport>`.
    fn uses_teleporter(
        &self,
        t: &Spanned<super::raw::RawTeleporterRef>,
        world: &LoadedWorld,
    ) -> Located<Check> {
        use super::raw::RawTeleporterRef;
        let entities = self.living(world, t.span().start, "uses_teleporter")?;
        let teleporter = |k: &usize| {
            matches!(
                entities.triggers[*k].kind,
                cspace_entities::TriggerKind::Teleport { .. }
            )
        };
        Ok(match t.get_ref() {
            RawTeleporterRef::Used(expected) => Check::UsesTeleporter {
                expected: *expected,
                teleporters: None,
            },
            RawTeleporterRef::Entity(e) => {
                let found: Vec<u32> = (0..entities.triggers.len())
                    .filter(|k| teleporter(k) && i64::from(entities.triggers[*k].entity) == *e)
                    .map(|k| k as u32)
                    .collect();
                if found.is_empty() {
                    let known: Vec<String> = (0..entities.triggers.len())
                        .filter(teleporter)
                        .map(|k| entities.triggers[k].entity.to_string())
                        .collect();
                    return self.err(
                        t.span().start,
                        format!(
                            "uses_teleporter: entity {e} is no teleporter; the teleporters are entities: {}",
                            listing(&known)
                        ),
                    );
                }
                Check::UsesTeleporter {
                    expected: true,
                    teleporters: Some(found),
                }
            }
        })
    }

    /// `triggers = "classname" | <entity index>`: the triggers of that class (`trigger_once`,
    /// or a generated field's `door field`, `plat field`, `button`) or made of that entity.
    fn triggers(&self, t: &Spanned<RawAgentRef>, world: &LoadedWorld) -> Located<Check> {
        let entities = self.living(world, t.span().start, "triggers")?;
        let (triggers, written): (Vec<u32>, String) = match t.get_ref() {
            RawAgentRef::Index(e) => (
                (0..entities.triggers.len())
                    .filter(|&k| i64::from(entities.triggers[k].entity) == *e)
                    .map(|k| k as u32)
                    .collect(),
                format!("of entity {e}"),
            ),
            RawAgentRef::Name(name) => (
                (0..entities.triggers.len())
                    .filter(|&k| entities.triggers[k].classname.eq_ignore_ascii_case(name))
                    .map(|k| k as u32)
                    .collect(),
                name.clone(),
            ),
        };
        if triggers.is_empty() {
            let known: Vec<String> = entities
                .triggers
                .iter()
                .map(|t| format!("{} (entity {})", t.classname, t.entity))
                .collect();
            return self.err(
                t.span().start,
                format!(
                    "triggers: no trigger {written}; the triggers are: {}",
                    listing(&known)
                ),
            );
        }
        Ok(Check::Triggers { triggers, written })
    }
}

/// What a listing of the map's entities says: `a, b, c`, or `none`.
fn listing(known: &[String]) -> String {
    if known.is_empty() {
        "none".to_string()
    } else {
        known.join(", ")
    }
}
