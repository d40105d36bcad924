//! rapier3d-f64's `KinematicCharacterController` walking the crowd of `sim bench` on the same
//! world: the world is one collider (parry's compound of the brushes), each agent a cuboid the
//! size of the Quake player, moved once per step by `move_shape` with the velocity its script
//! asks for and gravity, the loop a rapier user writes.
//!
//! rapier's loop has no acceleration or friction (the wished velocity is applied at once) and
//! no agent-agent collisions, so it does less work per agent step than our simulator.

use std::time::Instant;

use cspace_geom::{DVec3, Shape};
use cspace_sim::{Action, ScriptedAgent};
use parry3d_f64::math::Pose;
use parry3d_f64::query::DefaultQueryDispatcher;
use rapier3d_f64::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d_f64::dynamics::{IntegrationParameters, RigidBodySet};
use rapier3d_f64::geometry::{BroadPhaseBvh, ColliderBuilder, ColliderSet, SharedShape};
use rapier3d_f64::pipeline::QueryFilter;

use super::{from_peer, to_peer};

/// Gravity, units/s^2 (Quake's, as our simulator's default).
pub const GRAVITY: f64 = 800.0;
/// The time step, seconds (as `sim bench`).
pub const DT: f64 = 1.0 / 60.0;

/// How the controller is set up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ControllerSetup {
    /// Our simulator's work: slide, climb steps up to 18 units (autostep), snap to the ground
    /// within 0.25 units (our ground check), walkable up to `normal.z >= 0.7`, a 1/32 offset.
    Quake,
    /// rapier's defaults with z up (no autostep, relative offset and snap).
    Defaults,
}

impl ControllerSetup {
    /// The label in tables.
    pub fn label(self) -> &'static str {
        match self {
            ControllerSetup::Quake => {
                "rapier KinematicCharacterController (autostep 18, snap 0.25)"
            }
            ControllerSetup::Defaults => "rapier KinematicCharacterController (defaults, z up)",
        }
    }

    fn controller(self) -> KinematicCharacterController {
        let mut controller = KinematicCharacterController {
            up: to_peer(DVec3::Z),
            ..KinematicCharacterController::default()
        };
        if self == ControllerSetup::Quake {
            let walkable = 0.7f64.acos();
            controller.offset = CharacterLength::Absolute(1.0 / 32.0);
            controller.autostep = Some(CharacterAutostep {
                max_height: CharacterLength::Absolute(18.0),
                min_width: CharacterLength::Absolute(1.0),
                include_dynamic_bodies: false,
            });
            controller.snap_to_ground = Some(CharacterLength::Absolute(0.25));
            controller.max_slope_climb_angle = walkable;
            controller.min_slope_slide_angle = walkable;
        }
        controller
    }
}

/// One run of the crowd.
#[derive(Debug, Clone, PartialEq)]
pub struct RapierRun {
    /// Nanoseconds per agent step (one `move_shape` and the loop around it).
    pub ns_per_agent_step: f64,
    /// Where the agents ended, in id order (our origin convention, units).
    pub final_positions: Vec<DVec3>,
}

/// The crowd's world and agents set up for rapier.
pub struct RapierCrowd {
    bodies: RigidBodySet,
    colliders: ColliderSet,
    broad_phase: BroadPhaseBvh,
    controller: KinematicCharacterController,
    character: SharedShape,
    /// The cuboid's centre relative to the agent's origin.
    centre: DVec3,
    agents: Vec<ScriptedAgent>,
}

impl RapierCrowd {
    /// The world `shape` (parry's compound of the brushes) as one fixed collider, and `agents`
    /// (standing boxes) for the controller.
    pub fn new(
        world: SharedShape,
        agents: &[ScriptedAgent],
        setup: ControllerSetup,
    ) -> RapierCrowd {
        let bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        let handle = colliders.insert(ColliderBuilder::new(world).build());
        let mut broad_phase = BroadPhaseBvh::new();
        let aabb = colliders[handle].compute_aabb();
        broad_phase.set_aabb(&IntegrationParameters::default(), handle, aabb);
        let standing = agents
            .first()
            .map_or_else(cspace_scenario::bench::player, |a| a.spec.standing.clone());
        let (half, centre) = match standing {
            Shape::Box(b) => ((b.maxs - b.mins) * 0.5, (b.maxs + b.mins) * 0.5),
            other => panic!("the crowd walks boxes, not {}", other.describe()),
        };
        RapierCrowd {
            bodies,
            colliders,
            broad_phase,
            controller: setup.controller(),
            character: SharedShape::cuboid(half.x, half.y, half.z),
            centre,
            agents: agents.to_vec(),
        }
    }

    /// Runs `steps` steps of [`DT`] after one warm-up step, every agent starting where its spec
    /// says.
    pub fn run(&self, steps: u64) -> RapierRun {
        let dispatcher = DefaultQueryDispatcher;
        let queries = self.broad_phase.as_query_pipeline(
            &dispatcher,
            &self.bodies,
            &self.colliders,
            QueryFilter::default(),
        );
        let mut agents: Vec<Walker> = self.agents.iter().map(Walker::new).collect();
        let step = |index: u64, agents: &mut [Walker]| {
            let time = index as f64 * DT;
            for walker in agents.iter_mut() {
                let wish = walker.wish(time);
                walker.vz -= GRAVITY * DT;
                let desired = DVec3::new(wish.x, wish.y, walker.vz) * DT;
                let pose = Pose::from_translation(to_peer(walker.position + self.centre));
                let moved = self.controller.move_shape(
                    DT,
                    &queries,
                    self.character.as_ref(),
                    &pose,
                    to_peer(desired),
                    |_| {},
                );
                walker.position += from_peer(moved.translation);
                if moved.grounded {
                    walker.vz = 0.0;
                }
            }
        };
        step(0, &mut agents);
        let clock = Instant::now();
        for index in 1..=steps {
            step(index, &mut agents);
        }
        let nanos = clock.elapsed().as_nanos() as f64;
        RapierRun {
            ns_per_agent_step: nanos / (steps.max(1) as f64 * agents.len().max(1) as f64),
            final_positions: agents.iter().map(|w| w.position).collect(),
        }
    }
}

/// One agent in rapier's loop.
struct Walker<'a> {
    spec: &'a ScriptedAgent,
    position: DVec3,
    vz: f64,
    next_event: usize,
    action: Option<Action>,
}

impl<'a> Walker<'a> {
    fn new(spec: &'a ScriptedAgent) -> Walker<'a> {
        Walker {
            spec,
            position: spec.spec.start,
            vz: spec.spec.velocity.z,
            next_event: 0,
            action: None,
        }
    }

    /// The horizontal velocity the script asks for at `time` (walk at once, no acceleration).
    fn wish(&mut self, time: f64) -> DVec3 {
        let script = &self.spec.script;
        while self.next_event < script.len() && script[self.next_event].at <= time {
            self.action = Some(script[self.next_event].action);
            self.next_event += 1;
        }
        match self.action {
            Some(Action::Move { direction, speed }) => {
                DVec3::new(direction.x, direction.y, 0.0).normalize_or_zero() * speed
            }
            _ => DVec3::ZERO,
        }
    }
}
