//! What an environment is made of: the worlds and their crowds, the movement, the actions, the
//! depth rays and the task, as plain data ([`EnvConfig`]), checked before anything is built.

use std::path::PathBuf;

use cspace_sim::{BackendKind, MoveParams};

/// Quake III's eye height above a standing player's origin, units (`DEFAULT_VIEWHEIGHT`,
/// `bg_public.h`): where the depth rays start.
pub const STANDING_EYE: f64 = 26.0;
/// Quake III's eye height above a crouching player's origin, units (`CROUCH_VIEWHEIGHT`,
/// `bg_public.h`).
pub const CROUCHING_EYE: f64 = 12.0;
/// The steepest view pitch either way, degrees: Quake III clamps the view to just short of
/// straight up or down (`PM_UpdateViewAngles`, `bg_pmove.c`, 16,000 of 65,536 angle units is 87.9
/// degrees; cspace keeps 89, as Quake 1's `cl_pitchup`/`cl_pitchdown` do within a degree).
pub const MAX_PITCH: f64 = 89.0;
/// The spread of `sim bench`'s crowd of up to a thousand players around a map's spawn points,
/// units (`cspace_scenario::bench::map_world`): the same crowd by default.
pub const BENCH_SPREAD: f64 = 384.0;
/// The seed of `sim bench`'s placement on a map (`cspace_scenario::bench::map_world`).
pub const BENCH_PLACEMENT_SEED: u64 = 11;

/// How a turn action is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnMode {
    /// Degrees to add to the view's yaw and pitch this step.
    Relative,
    /// The view's yaw and pitch themselves, degrees.
    Absolute,
}

/// What the depth rays observe.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RayConfig {
    /// Rays per agent (0: none).
    pub count: usize,
    /// The fan's width seen from above, degrees (the first ray at `+fov/2` to the left of the
    /// view, the last at `fov/2` to its right; one ray looks straight ahead).
    pub fov: f64,
    /// The fan's pitch relative to the view's, degrees (positive looks down, Quake's sign).
    pub pitch: f64,
    /// How far a ray looks, units.
    pub range: f64,
    /// Distances in units (true) or fractions of the range in [0, 1] (false); 1 or the range
    /// when nothing is in reach.
    pub distances: bool,
}

/// Where a goal comes from, at each agent's reset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoalKind {
    /// No goal: no reward, episodes end at the step limit or when the agent leaves the world
    /// (a task written in Python on the raw observations).
    None,
    /// A spawn point of the map, drawn at random.
    Spawn,
    /// A random walkable point of the navigation graph (its standing areas).
    Random,
    /// Given by the caller (`reset(options={"goals": ...})`, `set_goals`).
    Given,
}

/// How reaching the goal is rewarded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RewardKind {
    /// Each step, the distance to the goal gained, times `progress_scale`; plus `arrival` on
    /// arriving.
    Progress,
    /// `arrival` on arriving, 0 otherwise.
    Sparse,
}

/// The task: goals, rewards and episode limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TaskConfig {
    /// Where goals come from.
    pub goal: GoalKind,
    /// The reward.
    pub reward: RewardKind,
    /// An agent whose origin comes within this distance of its goal has arrived (terminated),
    /// units.
    pub radius: f64,
    /// The reward for arriving.
    pub arrival: f64,
    /// The progress reward per unit of distance gained.
    pub progress_scale: f64,
    /// Steps after which an episode is truncated (0: never).
    pub max_steps: u64,
}

/// Everything an environment is made of.
#[derive(Debug, Clone)]
pub struct EnvConfig {
    /// The worlds, one simulation each (a path may repeat).
    pub maps: Vec<PathBuf>,
    /// Agents in each world.
    pub agents_per_world: usize,
    /// The collision backend.
    pub backend: BackendKind,
    /// The movement constants (a profile's).
    pub params: MoveParams,
    /// Seconds per step.
    pub dt: f64,
    /// Agents can crouch (a crouching box beside the standing one).
    pub crouch: bool,
    /// Agents are placed within this many units of the spawn points (x and y).
    pub spread: f64,
    /// The placement's seed.
    pub placement_seed: u64,
    /// A reset moves an agent's start by up to this much along x and y, units.
    pub jitter: f64,
    /// How turns are read.
    pub turn: TurnMode,
    /// The largest turn per step, degrees (relative turns).
    pub max_turn: f64,
    /// The depth rays.
    pub rays: RayConfig,
    /// The task.
    pub task: TaskConfig,
    /// Threads stepping the worlds and their interaction groups (1: the calling thread alone).
    pub threads: usize,
    /// A world's crowd steps in interaction groups from this many agents on
    /// ([`cspace_sim::SimConfig::parallel_from`]; the answers are the same).
    pub parallel_from: usize,
    /// Record the run for `record()`: every event, and the states every this many steps.
    pub sample_every: Option<u64>,
    /// The name traces and replay scenarios carry.
    pub name: String,
}

impl EnvConfig {
    /// Checks what no simulation checks for us: counts and ranges of the environment's own
    /// settings. The error names the setting and its value.
    pub fn validate(&self) -> Result<(), String> {
        let finite_in = |name: &str, value: f64, lo: f64, hi: f64| {
            if value.is_finite() && (lo..=hi).contains(&value) {
                Ok(())
            } else {
                Err(format!("{name} must be within [{lo}, {hi}], got {value}"))
            }
        };
        if self.maps.is_empty() {
            return Err("maps: give at least one world (a .map file or a TOML world)".into());
        }
        if self.agents_per_world == 0 {
            return Err("agents must be at least 1".into());
        }
        if self.threads == 0 {
            return Err("threads must be at least 1".into());
        }
        let extent = cspace_geom::tolerance::MAX_SHAPE_EXTENT;
        finite_in("spread", self.spread, 0.0, extent)?;
        finite_in("jitter", self.jitter, 0.0, extent)?;
        finite_in("max_turn", self.max_turn, 0.0, 360.0)?;
        finite_in("rays.fov", self.rays.fov, 0.0, 360.0)?;
        finite_in("rays.pitch", self.rays.pitch, -MAX_PITCH, MAX_PITCH)?;
        let far = cspace_geom::tolerance::MAX_COORDINATE;
        if !(self.rays.range > 0.0 && self.rays.range <= far) {
            return Err(format!(
                "rays.range must be a positive number of units, at most {far}, got {}",
                self.rays.range
            ));
        }
        if self.rays.count > 4096 {
            return Err(format!(
                "rays.count must be at most 4096, got {}",
                self.rays.count
            ));
        }
        if !(self.task.radius.is_finite() && self.task.radius >= 0.0) {
            return Err(format!(
                "task radius must be a number of units from 0, got {}",
                self.task.radius
            ));
        }
        for (name, value) in [
            ("task arrival", self.task.arrival),
            ("task progress_scale", self.task.progress_scale),
        ] {
            if !value.is_finite() {
                return Err(format!("{name} must be a finite number, got {value}"));
            }
        }
        if self.sample_every == Some(0) {
            return Err("sample_every must be at least 1".into());
        }
        Ok(())
    }
}
