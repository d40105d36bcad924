//! [`PlayerMove`]: the movement model as a character controller on any [`Collider`], without a
//! simulation (rapier's `KinematicCharacterController::move_shape`, Jolt's
//! `CharacterVirtual::ExtendedUpdate`): settings, a mover state, one call per tick.

use cspace_contact::AgentId;
use cspace_geom::{Collider, DVec3, QueryContext, Shape, UnsupportedShape};

use super::{MoveHit, MoveLog, MoveTimer, MoverState, Surroundings};
use crate::agent::{Ground, Pose, PoseSet};
use crate::intent::Intent;
use crate::params::{MoveParams, ParamError};
use crate::record::EventKind;

/// A player moved by [`PlayerMove::step`]: where it is, how fast, in which pose, on what, and
/// what it wants (its intent's jump is taken, and cleared, at the first step on walkable
/// ground; a goto is a simulation's and is not read here).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Player {
    /// Its origin (world, units).
    pub position: DVec3,
    /// Its velocity (units/s).
    pub velocity: DVec3,
    /// Its pose.
    pub pose: Pose,
    /// What it stands on ([`Ground::Air`] for a player just placed: the first step finds out).
    pub ground: Ground,
    /// What it wants.
    pub intent: Intent,
    /// Its timer (a hard landing's, in Quake III; a knockback's).
    pub timer: MoveTimer,
}

impl Player {
    /// A player at rest at `position`, standing, in the air until its first step.
    pub fn at(position: DVec3) -> Player {
        Player {
            position,
            velocity: DVec3::ZERO,
            pose: Pose::Standing,
            ground: Ground::Air,
            intent: Intent::default(),
            timer: MoveTimer::default(),
        }
    }
}

/// The Quake III movement model as a character controller: friction, acceleration, jumping,
/// crouching, the slide move with its clip planes, the step up and the ground check
/// (`bg_pmove.c`, `bg_slidemove.c`), on the caller's collider.
///
/// ```
/// use std::sync::Arc;
/// use cspace_geom::{Aabb, Brush, DVec3, ExactCollider, QueryContext, Shape, World};
/// use cspace_sim::{Intent, MoveParams, Player, PlayerMove};
///
/// let floor = Brush::from_aabb(Aabb::new(DVec3::new(-512.0, -512.0, -16.0), DVec3::new(512.0, 512.0, 0.0)))?;
/// let wall = Brush::from_aabb(Aabb::new(DVec3::new(128.0, -512.0, 0.0), DVec3::new(144.0, 512.0, 128.0)))?;
/// let collider = ExactCollider::new(Arc::new(World::from_brushes([floor, wall])));
/// let controller = PlayerMove::new(MoveParams::default())?;
/// let player_box = Shape::new_box(DVec3::new(-16.0, -16.0, -24.0), DVec3::new(16.0, 16.0, 32.0))?;
/// let shapes = controller.prepare(&collider, &player_box, None)?;
/// let mut ctx = QueryContext::new();
/// let mut player = Player::at(DVec3::new(0.0, 0.0, 24.5));
/// player.intent = Intent::walk(DVec3::X, 320.0);
/// let mut walls = 0;
/// for _ in 0..128 {
///     controller.step(&collider, &mut ctx, &shapes, &mut player, 1.0 / 64.0, |hit| {
///         walls += usize::from(hit.normal.is_some_and(|n| n.x < -0.5));
///     });
/// }
/// // Stopped by the wall at x = 128, its box's face a skin (1/32) short of it (the overclip's
/// // slight bounce keeps it within a thousandth of a unit of there).
/// assert!((player.position.x - (128.0 - 16.0 - 1.0 / 32.0)).abs() < 1e-3);
/// assert!(walls > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PlayerMove {
    params: MoveParams,
}

/// The world around a [`PlayerMove`]d player: the collider alone.
struct World<'a> {
    collider: &'a dyn Collider,
    queries: &'a mut QueryContext,
    poses: &'a PoseSet,
}

impl Surroundings for World<'_> {
    fn trace(&mut self, pose: Pose, start: DVec3, end: DVec3) -> MoveHit {
        let hit = self
            .collider
            .trace(self.queries, self.poses.traced(pose), start, end);
        MoveHit::of_world(&hit, 0, AgentId(0))
    }

    fn is_free(&mut self, pose: Pose, position: DVec3) -> bool {
        !self
            .collider
            .is_solid(self.queries, self.poses.get(pose), position)
    }

    fn poses(&self) -> &PoseSet {
        self.poses
    }
}

impl PlayerMove {
    /// A controller with these constants (checked: each within its range and the numeric
    /// domain).
    pub fn new(params: MoveParams) -> Result<PlayerMove, ParamError> {
        params.validate()?;
        Ok(PlayerMove { params })
    }

    /// The constants.
    pub fn params(&self) -> &MoveParams {
        &self.params
    }

    /// The player's shapes (standing, and crouching if it can crouch) prepared for `collider`,
    /// with the controller's skin (and grown by its trace epsilon, for Quake III's profile).
    pub fn prepare(
        &self,
        collider: &dyn Collider,
        standing: &Shape,
        crouching: Option<&Shape>,
    ) -> Result<PoseSet, UnsupportedShape> {
        PoseSet::prepare(collider, &self.params, standing, crouching)
    }

    /// Moves `player` by `dt` seconds (split into equal sub-steps of at most
    /// [`MoveParams::max_substep`]): crouch or stand, walk or fall with the slide move and the
    /// step up, then the ground check. Every trace that hits something is handed to `on_hit` as
    /// it happens (world contacts name agent 0 and step 0: a controller knows neither). Returns
    /// what else happened: a refused stand, a player freed from solid (`Unstuck`) or left
    /// where it is (`Stuck`).
    pub fn step(
        &self,
        collider: &dyn Collider,
        queries: &mut QueryContext,
        shapes: &PoseSet,
        player: &mut Player,
        dt: f64,
        mut on_hit: impl FnMut(&MoveHit),
    ) -> Vec<EventKind> {
        let p = &self.params;
        let mut world = World {
            collider,
            queries,
            poses: shapes,
        };
        let mut st = MoverState {
            position: player.position,
            velocity: player.velocity,
            pose: player.pose,
            ground: player.ground,
            intent: player.intent.normalised(),
            can_crouch: shapes.crouching.is_some(),
            timer: player.timer,
            water: super::Water::default(),
        };
        let mut log = MoveLog::default();
        let mut events = Vec::new();
        for sub_dt in p.substeps(dt) {
            log.clear();
            super::frame(&mut st, &mut world, p, sub_dt, &mut log);
            log.hits.iter().for_each(&mut on_hit);
            events.extend_from_slice(&log.events);
        }
        *player = Player {
            position: st.position,
            velocity: st.velocity,
            pose: st.pose,
            ground: st.ground,
            intent: Intent {
                jump: st.intent.jump,
                ..player.intent
            },
            timer: st.timer,
        };
        events
    }
}

/// The movement model's own tests need a world-only tracer too.
#[cfg(test)]
pub(super) fn world_surroundings<'a>(
    collider: &'a dyn Collider,
    queries: &'a mut QueryContext,
    poses: &'a PoseSet,
) -> impl Surroundings + 'a {
    World {
        collider,
        queries,
        poses,
    }
}
