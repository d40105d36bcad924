//! Scenarios: a TOML file names a world, agent poses and agents with scripts, the time step and
//! the step count, movement constants, the backends to run, the comparison tolerance and the
//! expectations a run must meet.
//!
//! The file is read with serde (`deny_unknown_fields`) into raw structs that keep their byte
//! spans, then checked into a [`Scenario`]; every error names the file, line, column and field.
//! The format is documented, with an example, in `docs/scenario-format.md`.

mod check;

pub use check::MAX_AGENTS;
mod raw;

use std::path::{Path, PathBuf};

use cspace_contact::AgentId;
use cspace_geom::{Aabb, Shape};

use crate::error::Error;
use crate::location::LocatedError;
use crate::trace::compact_vector;
use crate::world_file::LoadedWorld;
use check::Checker;
use cspace_sim::backend::BackendKind;
use cspace_sim::params::MoveParams;
use cspace_sim::{Pose, ScriptedAgent};
use raw::RawScenario;

/// Backends known to differ on this scenario, by how much, and why: every backend of one group
/// against every backend of the other (`between = [...]`, `and = [...]`; a pair is two groups of
/// one, `backends = [a, b]`).
#[derive(Debug, Clone, PartialEq)]
pub struct ExpectedDifference {
    /// One group.
    pub between: Vec<BackendKind>,
    /// The other.
    pub and: Vec<BackendKind>,
    /// The largest position difference allowed between a backend of one and one of the other,
    /// units.
    pub tolerance: f64,
    /// Why they differ.
    pub reason: String,
}

impl ExpectedDifference {
    /// True when it declares `a` against `b` (in either order).
    pub fn covers(&self, a: BackendKind, b: BackendKind) -> bool {
        (self.between.contains(&a) && self.and.contains(&b))
            || (self.between.contains(&b) && self.and.contains(&a))
    }

    /// How the verdict line names the two groups: `melax, melax-exact against exact,
    /// udop+exact`.
    pub fn describe(&self) -> String {
        let names = |group: &[BackendKind]| {
            group
                .iter()
                .map(|b| b.name())
                .collect::<Vec<_>>()
                .join(", ")
        };
        format!("{} against {}", names(&self.between), names(&self.and))
    }
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
    /// The agent leaves the world (`true`: it must fall out or go beyond the domain; `false`: it
    /// must not), as [`EventKind::LeftWorld`](cspace_sim::record::EventKind::LeftWorld) records.
    LeavesWorld(bool),
    /// The agent arrives at a goto target no later than `by` seconds (`true`), or never arrives
    /// (`false`), as [`EventKind::Arrived`](cspace_sim::record::EventKind::Arrived) records.
    Arrives {
        /// Whether it must arrive.
        expected: bool,
        /// The deadline, seconds.
        by: f64,
    },
    /// The agent rides one of these movers (indices of the living world's movers) at some step,
    /// as [`EventKind::Rides`](cspace_sim::record::EventKind::Rides) records (issue 32).
    Rides {
        /// The movers that count.
        movers: Vec<u32>,
        /// The mover as written (a class, a kind, or an index).
        written: String,
    },
    /// The agent is teleported (`expected`; by one of `teleporters`, indices of the living
    /// world's triggers, when named) or never is, as
    /// [`EventKind::Teleported`](cspace_sim::record::EventKind::Teleported) records.
    UsesTeleporter {
        /// Whether it must be teleported.
        expected: bool,
        /// The teleporters that count (`None`: any).
        teleporters: Option<Vec<u32>>,
    },
    /// The agent touches one of these triggers (indices of the living world's triggers), as
    /// [`EventKind::Touches`](cspace_sim::record::EventKind::Touches) records.
    Triggers {
        /// The triggers that count.
        triggers: Vec<u32>,
        /// The trigger as written (a class or an entity index).
        written: String,
    },
    /// The agent swims (`true`: its water level reaches 2 or more at some step; `false`: never),
    /// as [`EventKind::WaterLevel`](cspace_sim::record::EventKind::WaterLevel) records.
    Swims(bool),
    /// The agent's water level reaches `at_least` (1 to 3) no later than `by` seconds.
    WaterLevel {
        /// The level, 1 to 3.
        at_least: u8,
        /// The deadline, seconds.
        by: f64,
    },
}

impl Check {
    /// A short description of the check (summaries, reports and sweep lines say it).
    pub fn describe(&self) -> String {
        match self {
            Check::Reaches { region, by } => format!(
                "reaches {} .. {} by {by} s",
                compact_vector(region.min, 3),
                compact_vector(region.max, 3)
            ),
            Check::NeverReaches { region } => format!(
                "never reaches {} .. {}",
                compact_vector(region.min, 3),
                compact_vector(region.max, 3)
            ),
            Check::EndsOnGround => "ends on ground".to_string(),
            Check::StaysCrouched { from } => format!("stays crouched from {from} s"),
            Check::NoContactsWith(f) => format!("no contacts with {f:?}"),
            Check::LeavesWorld(true) => "leaves the world".to_string(),
            Check::LeavesWorld(false) => "stays in the world".to_string(),
            Check::Arrives { expected: true, by } => {
                format!("arrives at its goto target by {by} s")
            }
            Check::Arrives {
                expected: false, ..
            } => "never arrives at its goto target".to_string(),
            Check::Rides { written, .. } => format!("rides {written}"),
            Check::UsesTeleporter {
                expected: true,
                teleporters,
            } => match teleporters {
                Some(t) => format!(
                    "is teleported by trigger {}",
                    t.iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>()
                        .join(" or ")
                ),
                None => "is teleported".to_string(),
            },
            Check::UsesTeleporter {
                expected: false, ..
            } => "is never teleported".to_string(),
            Check::Triggers { written, .. } => format!("touches trigger {written}"),
            Check::Swims(true) => "swims".to_string(),
            Check::Swims(false) => "never swims".to_string(),
            Check::WaterLevel { at_least, by } => {
                format!("water level reaches {at_least} by {by} s")
            }
        }
    }
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

/// How an agent's start was written: what a sweep's seed may vary ([`crate::sweep`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AgentStart {
    /// `spawn = N`: the index as written (the agent starts at spawn point `N`, or `N` modulo the
    /// count on a map a sweep puts in the scenario's place); `None` for `start` and crowds.
    pub spawn: Option<usize>,
    /// `allow_start_in_solid = true`: the start is the point of the scenario, and a sweep leaves
    /// it where it is.
    pub allow_in_solid: bool,
}

/// The names an agent's poses have in its scenario's `[poses]` table (`pose`, `crouch_pose`):
/// what summaries call its pose, for a sphere or a cylinder as for a box.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentPoses {
    /// The standing pose's name.
    pub standing: String,
    /// The crouching pose's name, if the agent can crouch.
    pub crouching: Option<String>,
}

impl AgentPoses {
    /// The name of `pose` (the standing name for an agent that cannot crouch).
    pub fn name(&self, pose: Pose) -> &str {
        match (pose, &self.crouching) {
            (Pose::Crouching, Some(name)) => name,
            _ => &self.standing,
        }
    }
}

/// The agents one `[[crowd]]` table made, in the order of the file: `crowd 1`, `crowd 2`, ...
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Crowd {
    /// `crowd N`, N counting the file's crowds from 1.
    pub name: String,
    /// Its agents' ids (consecutive).
    pub agents: std::ops::Range<u32>,
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
    /// The agents with their scripts, ids 0, 1, 2, ... (their index).
    pub agents: Vec<ScriptedAgent>,
    /// The agents' names (their index when unnamed).
    pub agent_names: Vec<String>,
    /// How each agent's start was written, in id order.
    pub agent_starts: Vec<AgentStart>,
    /// The names of each agent's poses, in id order.
    pub agent_poses: Vec<AgentPoses>,
    /// The crowds, in the order of the file (empty without `[[crowd]]` tables).
    pub crowds: Vec<Crowd>,
    /// The expectations.
    pub expectations: Vec<Expectation>,
    /// The seed of the simulation's generator (`seed`, 0 by default; `SimConfig::seed`): Quake
    /// III's random teleporter destinations.
    pub seed: u64,
}

pub use crate::limits::MAX_NAME_BYTES;

/// Default comparison tolerance between backends, units.
pub const DEFAULT_TOLERANCE: f64 = cspace_geom::tolerance::DEFAULT_AGREEMENT;

impl Scenario {
    /// True when a scenario's text reads the map corpus (`${CSPACE_MAPS}` in a path) and
    /// `CSPACE_MAPS` is unset: such a scenario is skipped by name, as the tests that need the
    /// corpus are, rather than failed (the snapshot harness, `sim report`).
    pub fn needs_unset_corpus(text: &str) -> bool {
        text.contains("${CSPACE_MAPS}") && std::env::var_os("CSPACE_MAPS").is_none()
    }

    /// Why a scenario that [needs the unset corpus](Scenario::needs_unset_corpus) is skipped,
    /// with the value to set.
    pub fn corpus_unset_reason() -> String {
        format!(
            "it reads the map corpus and CSPACE_MAPS is unset; {}",
            cspace_mapfile::CORPUS_HINT
        )
    }

    /// Reads and checks a scenario file.
    pub fn load(path: &Path) -> Result<Scenario, Error> {
        Scenario::load_with_shaders(path, None)
    }

    /// [`Scenario::load`], with a folder of Quake III shader scripts in the place of the world's
    /// own `shaders` (`sim run --shaders DIR`).
    pub fn load_with_shaders(path: &Path, shaders: Option<&Path>) -> Result<Scenario, Error> {
        let text = crate::read::read_text(path, "read the scenario")?;
        let raw: RawScenario =
            toml::from_str(&text).map_err(|e| LocatedError::from_toml(path, &text, &e))?;
        Checker {
            path,
            text: &text,
            world: None,
            shaders,
        }
        .check(raw)
    }

    /// Checks a scenario given its text (`path` locates errors and resolves the map).
    pub fn parse(path: &Path, text: &str) -> Result<Scenario, Error> {
        let raw: RawScenario =
            toml::from_str(text).map_err(|e| LocatedError::from_toml(path, text, &e))?;
        Checker {
            path,
            text,
            world: None,
            shaders: None,
        }
        .check(raw)
    }

    /// Checks a scenario given its text, with `world` in the place of its own `[world]` (which is
    /// then not read): a sweep's map ([`crate::sweep`]). An agent written with `spawn = N` starts
    /// at `world`'s spawn point `N` modulo their count; one with `start` keeps it, and must not
    /// be in solid there (unless it allows it).
    pub fn parse_with_world(
        path: &Path,
        text: &str,
        world: LoadedWorld,
    ) -> Result<Scenario, Error> {
        let raw: RawScenario =
            toml::from_str(text).map_err(|e| LocatedError::from_toml(path, text, &e))?;
        Checker {
            path,
            text,
            world: Some(world),
            shaders: None,
        }
        .check(raw)
    }

    /// True when an agent's script has a goto (a run then builds the planner).
    pub fn uses_goto(&self) -> bool {
        self.agents.iter().any(ScriptedAgent::uses_goto)
    }

    /// The shapes every agent uses (standing and crouching, and grown by the movement
    /// profile's trace epsilon when it has one: `AgentSpec::shapes`), for preparing backends.
    pub fn shapes(&self) -> Vec<Shape> {
        shapes_of(&self.agents, &self.params)
    }

    /// Why `backend` cannot run this scenario: the first agent whose shape it cannot trace, by
    /// name and shape, and the backend's reason, or a limit its structure would hit for all the
    /// shapes together; `None` when it can run it.
    pub fn refusal(&self, backend: BackendKind) -> Option<String> {
        refusal(&self.agents, &self.agent_names, &self.params, backend)
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
            .find(|d| a != b && d.covers(a, b))
        {
            Some(d) => (d.tolerance, Some(d)),
            None => (self.tolerance, None),
        }
    }
}

/// Every distinct shape `agents` need with `params` (standing, crouching, grown), in order.
fn shapes_of(agents: &[ScriptedAgent], params: &MoveParams) -> Vec<Shape> {
    let mut shapes: Vec<Shape> = Vec::new();
    for a in agents {
        for s in a.spec.shapes(params) {
            if !shapes.contains(&s) {
                shapes.push(s);
            }
        }
    }
    shapes
}

/// Why `backend` cannot run `agents` with `params`: the first agent whose shape it cannot trace
/// (by name and shape), or a limit of its structure for all their shapes together; `None` when
/// it can.
fn refusal(
    agents: &[ScriptedAgent],
    names: &[String],
    params: &MoveParams,
    backend: BackendKind,
) -> Option<String> {
    agents
        .iter()
        .enumerate()
        .find_map(|(id, a)| {
            let a = &a.spec;
            std::iter::once(&a.standing)
                .chain(a.crouching.as_ref())
                .find_map(|shape| {
                    backend
                        .refusal(shape)
                        .map(|why| format!("agent {:?} is {}: {why}", names[id], shape.describe()))
                })
        })
        .or_else(|| backend.limit_refusal(&shapes_of(agents, params)))
}
