//! Navigation for the simulator: the planner's onion tree and graph ([`cspace_nav`]) built from a
//! world with the movement model's constants, for `sim nav`, `sim path` and `sim los`, and the
//! reports they print.
//!
//! One tree serves every question, as `docs/navigation.md` asks: the agent poses' configuration
//! spaces (standing, then crouching) and the zero-size pose (the tree the validation measured;
//! `sim los` builds its own tree of the sight pose, which patch facets block).
//! A simulation whose agents use `goto` builds a [`Planner`] (its goto agents' boxes) once, and
//! [`follow`] steers each such agent along its path with the movement model.

pub mod follow;
mod living;
mod planner;

pub use follow::{Follow, FollowParams, PlannedPath};
pub use planner::{PlanError, Planner};

use cspace_geom::{DVec3, World};
use cspace_nav::{NavMesh, NavParams, NavPose};
use cspace_onion::{CompileOptions, OnionTree, Pose, TreeStats};

use crate::backend::BuildError;
use crate::params::MoveParams;

/// The planner's constants from the movement model's: gravity, walk speed, jump speed, step
/// height and walkable slope one to one, the skin as the waypoints' clearance above the floor.
/// `max_fall` keeps its default (264 units: the simulator has no fall damage, the planner still
/// avoids the falls Quake would punish).
pub fn nav_params(params: &MoveParams) -> NavParams {
    NavParams {
        gravity: params.gravity,
        walk_speed: params.walk_speed,
        jump_speed: params.jump_speed,
        step_height: params.step_height,
        // The movement model steps up in the air once a jump stops rising (`step_slide_move`).
        air_step_height: params.step_height,
        min_walk_normal: params.min_walk_normal,
        clearance: params.skin,
        ..NavParams::default()
    }
}

/// A pose to plan for: its box (a configuration space of the tree) and how the planner moves in
/// it. The first of a list is the primary (standing) pose.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanPose {
    /// The box, named.
    pub pose: Pose,
    /// Speed scale and jumping.
    pub nav: NavPose,
}

impl PlanPose {
    /// Quake's standing player at full speed.
    pub fn stand() -> PlanPose {
        PlanPose {
            pose: Pose::quake_standing(),
            nav: NavPose::stand(),
        }
    }

    /// Quake's crouching player at `speed_scale` of the walk speed (Quake III's 0.25), no jumps.
    pub fn crouch(speed_scale: f64) -> PlanPose {
        PlanPose {
            pose: Pose::quake_crouching(),
            nav: NavPose {
                name: "crouch".to_string(),
                speed_scale,
                can_jump: false,
            },
        }
    }
}

/// A world's navigation: the tree it was planned over, what compiling it found, and the graph.
#[derive(Debug)]
pub struct Navigation {
    /// The onion tree: the poses' spaces, then the zero-size pose.
    pub tree: OnionTree,
    /// The tree's statistics (`compile_seconds` among them).
    pub tree_stats: TreeStats,
    /// The graph.
    pub mesh: NavMesh,
}

/// How a world's navigation is compiled (by default: the outside kept, Quake's constants).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct NavOptions {
    /// Fill the outside of a sealed map from these spawn points (`None`: keep it; see
    /// [`CompileOptions::fill_outside`]).
    pub fill_outside: Option<Vec<DVec3>>,
    /// The planner's constants.
    pub params: NavParams,
}

/// Why a world's navigation cannot be built: the onion tree cannot be compiled, or the graph
/// refused the world; `context` names the world.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum NavBuildError {
    /// The onion tree cannot be compiled.
    #[error(transparent)]
    Build(#[from] BuildError),
    /// The graph or the line of sight refused the world.
    #[error("{context}: {error}")]
    Nav {
        /// The world.
        context: String,
        /// The refusal.
        error: cspace_nav::NavError,
    },
}

/// Compiles `world`'s onion tree with `poses` and the zero-size pose, and builds the graph of
/// `poses` over it. `what` names the world in errors.
pub fn build(
    world: &World,
    what: &str,
    poses: &[PlanPose],
    options: &NavOptions,
) -> Result<Navigation, NavBuildError> {
    let mut boxes: Vec<Pose> = poses.iter().map(|p| p.pose.clone()).collect();
    boxes.push(Pose::point());
    let compile = CompileOptions {
        fill_outside: options.fill_outside.is_some(),
        spawn_points: options.fill_outside.clone().unwrap_or_default(),
        ..CompileOptions::default()
    };
    let compiled = cspace_onion::compile(world, &boxes, &compile).map_err(|e| BuildError {
        backend: "navigation (onion tree)",
        message: format!("{what}: {e}"),
    })?;
    let nav_poses: Vec<NavPose> = poses.iter().map(|p| p.nav.clone()).collect();
    let mesh =
        NavMesh::build(&compiled.tree, world, &nav_poses, &options.params).map_err(|error| {
            NavBuildError::Nav {
                context: what.to_string(),
                error,
            }
        })?;
    Ok(Navigation {
        tree: compiled.tree,
        tree_stats: compiled.stats,
        mesh,
    })
}

/// The line of sight of `world` alone: a tree of the sight pose (smaller and faster to compile
/// than the planner's three spaces; the same answers).
pub fn line_of_sight(world: &World, what: &str) -> Result<cspace_nav::LineOfSight, NavBuildError> {
    let compiled = cspace_onion::compile(world, &[Pose::sight()], &CompileOptions::default())
        .map_err(|e| BuildError {
            backend: "line of sight (onion tree)",
            message: format!("{what}: {e}"),
        })?;
    cspace_nav::LineOfSight::new(&compiled.tree, 0).map_err(|error| NavBuildError::Nav {
        context: what.to_string(),
        error,
    })
}
