//! What the planner makes of a living world's entities (issue 32, docs/navigation.md "Links of
//! a living world"): the doors an agent opens by walking up to them are passable at the cost of
//! their opening, every other mover stays solid where it spawns, and teleporters and push pads
//! become the graph's one-way links ([`cspace_nav::NavVolumes`]).

use cspace_entities::{Activation, Dialect, Entities, MoverKind, Push, TriggerKind, rules};
use cspace_geom::{Aabb, Brush, DVec3, World, WorldBrush};
use cspace_nav::{Destination, Door, NavVolumes, PushPad, Teleporter};

use super::planner::PlanError;

/// The planner's view of a living world: the world it plans over (the static world and the
/// movers that stay solid where they spawn) and the volumes it links through.
#[derive(Debug)]
pub(crate) struct LivingNav {
    /// The static world, and the brushes of every mover an agent cannot pass.
    pub world: World,
    /// Teleporters, push pads and passable doors.
    pub volumes: NavVolumes,
}

/// The door teams an agent opens by walking into their field (a `DoorField` trigger names the
/// team's master), which spawn closed where the file draws them and do not toggle: per team, its
/// members (indices into `entities.movers`).
fn passable_doors(entities: &Entities) -> Vec<Vec<usize>> {
    let mut teams = Vec::new();
    for trigger in &entities.triggers {
        let TriggerKind::DoorField { mover: master } = trigger.kind else {
            continue;
        };
        let members: Vec<usize> = (0..entities.movers.len())
            .filter(|&m| entities.movers[m].team == master)
            .collect();
        let opens = members.iter().all(|&m| {
            let mover = &entities.movers[m];
            mover.kind == MoverKind::Door
                && mover.activation == Activation::Field
                && mover.spawn_offset == DVec3::ZERO
                && mover
                    .binary()
                    .is_some_and(|b| b.pos1 == DVec3::ZERO && !b.toggle && !b.starts_at_pos2)
        });
        if opens && !members.is_empty() && !teams.contains(&members) {
            teams.push(members);
        }
    }
    teams
}

/// How long a door team takes to open once an agent enters its field, seconds: its slowest
/// member's travel from `pos1` to `pos2` at its speed (Quake 1's `SUB_CalcMove`, Quake III's
/// `InitMover`, [`rules::travel_time`]), plus Quake III's delay before a used mover sets off
/// ([`rules::QUAKE3_USE_DELAY`]).
fn opening_time(entities: &Entities, members: &[usize]) -> f64 {
    let travel = members
        .iter()
        .filter_map(|&m| {
            let mover = &entities.movers[m];
            let b = mover.binary()?;
            Some(rules::travel_time(
                entities.dialect,
                (b.pos2 - b.pos1).length(),
                mover.speed,
            ))
        })
        .fold(0.0, f64::max);
    let delay = match entities.dialect {
        Dialect::Quake1 => 0.0,
        Dialect::Quake3 => rules::QUAKE3_USE_DELAY,
    };
    travel + delay
}

/// The velocity a push pad sets under `gravity`: Quake 1's held to `sv_maxvelocity` on every
/// axis (`SV_CheckVelocity`, [`rules::QUAKE1_MAX_VELOCITY`]). `None` for a pad that pushes
/// nowhere (a jump pad aimed at nothing above it) or works only once (`PUSH_ONCE`).
fn pad_velocity(push: &Push, dialect: Dialect, gravity: f64) -> Option<DVec3> {
    if let Push::Velocity { once: true, .. } = push {
        return None;
    }
    let v = push.velocity(gravity)?;
    Some(match dialect {
        Dialect::Quake1 => v.clamp(
            DVec3::splat(-rules::QUAKE1_MAX_VELOCITY),
            DVec3::splat(rules::QUAKE1_MAX_VELOCITY),
        ),
        Dialect::Quake3 => v,
    })
}

/// The planner's view of `entities` over the static world `world` (which holds no mover), for
/// agents under `gravity`, its Quake III jump pads aimed at `apexes` (per trigger, the point the
/// run picked, [`crate::Sim::jump_pad_apexes`]; a pad without one gets no link).
pub(crate) fn living_nav(
    world: &World,
    entities: &Entities,
    apexes: &[Option<DVec3>],
    gravity: f64,
) -> Result<LivingNav, PlanError> {
    let dialect = entities.dialect;
    let teams = passable_doors(entities);
    let doors = teams
        .iter()
        .map(|members| Door {
            volume: members.iter().fold(Aabb::EMPTY, |b, &m| {
                b.merged(entities.movers[m].spawn_bounds())
            }),
            opening: opening_time(entities, members),
        })
        .collect();
    // Every other mover is solid where it spawns.
    let mut solid: Vec<WorldBrush> = Vec::new();
    for (m, mover) in entities.movers.iter().enumerate() {
        if teams.iter().any(|t| t.contains(&m)) {
            continue;
        }
        for wb in &mover.brushes {
            let brush = if mover.spawn_offset == DVec3::ZERO {
                wb.brush.clone()
            } else {
                let planes: Vec<_> = wb
                    .brush
                    .planes()
                    .map(|p| p.translated(mover.spawn_offset))
                    .collect();
                Brush::from_planes(&planes).map_err(|e| {
                    PlanError::Build(format!(
                        "{} (line {}) where it spawns: {e}",
                        mover.classname, mover.line
                    ))
                })?
            };
            solid.push(WorldBrush {
                brush,
                ..wb.clone()
            });
        }
    }
    let world = if solid.is_empty() {
        world.clone()
    } else {
        let mut brushes = world.brushes().to_vec();
        brushes.extend(solid);
        World::new(brushes)
            .with_patch_pieces(world.patch_pieces().to_vec())
            .map_err(|e| PlanError::Build(e.to_string()))?
    };
    // Quake 1's `teleport_touch` and Quake III's `TeleportPlayer`: the destination's origin
    // lifted, the speed along its facing.
    let lift = DVec3::Z * rules::teleport_lift(dialect);
    let speed = rules::teleport_speed(dialect);
    let mut teleporters = Vec::new();
    let mut pads = Vec::new();
    for (k, trigger) in entities.triggers.iter().enumerate() {
        match &trigger.kind {
            // A Quake 1 teleporter with a name works only just after it is fired.
            TriggerKind::Teleport {
                destinations,
                needs_firing: false,
                ..
            } if !destinations.is_empty() => teleporters.push(Teleporter {
                volume: trigger.bounds,
                destinations: destinations
                    .iter()
                    .map(|&d| {
                        let spot = &entities.spots[d];
                        Destination {
                            origin: spot.origin + lift,
                            velocity: spot.forward() * speed,
                        }
                    })
                    .collect(),
            }),
            TriggerKind::Push(push) => {
                // A jump pad aims where this run's G_PickTarget sent it (the simulation's pick,
                // drawn once when its world started), not at the first point of the name.
                let push = match push {
                    Push::Apex { from, .. } => match apexes.get(k).copied().flatten() {
                        Some(apex) => Push::Apex { from: *from, apex },
                        None => continue,
                    },
                    Push::Velocity { .. } => *push,
                };
                if let Some(velocity) = pad_velocity(&push, dialect, gravity) {
                    pads.push(PushPad {
                        volume: trigger.bounds,
                        velocity,
                    });
                }
            }
            _ => {}
        }
    }
    Ok(LivingNav {
        world,
        volumes: NavVolumes {
            teleporters,
            pads,
            doors,
        },
    })
}
